/* planbench: the configuration space ("engine").
 *
 * An engine answers two questions about configurations (arrays of `dim` doubles):
 * feasible(q) and visible(a, b). Planners, benchmarks, the visualiser and the simulation
 * service only ever talk to an engine through this header. */
#ifndef PLANBENCH_ENGINE_H
#define PLANBENCH_ENGINE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest dimension an engine may have. */
#define PB_MAX_DIM 32

typedef struct pb_engine pb_engine;
typedef struct pb_engine_impl pb_engine_impl;

/** Work counters of one engine handle. `n_feasible` and `n_visible` count the calls made
 * through pb_engine_feasible() and pb_engine_visible(); the others are what the engine did
 * inside them. */
typedef struct pb_engine_counters {
    uint64_t n_feasible;    /**< direct feasible() calls */
    uint64_t n_visible;     /**< visible() calls (edge checks) */
    uint64_t n_edge_states; /**< configurations checked inside interpolated edges */
    uint64_t n_pixels;      /**< pixels read (image engines), inside and outside edges */
} pb_engine_counters;

/** What an engine's edge check guarantees (pb_engine_edge_check()). */
typedef enum pb_edge_check {
    /** Configurations along the edge at a fixed spacing (the engine's resolution): a
     * collision shorter than the spacing can pass between two samples. */
    PB_EDGE_CHECK_SAMPLED,
    /** Every configuration of the continuous motion is feasible when visible() says so
     * (clearance steps, interval boxes or swept volumes); a stretch too tight to certify
     * counts as blocked. */
    PB_EDGE_CHECK_CERTIFIED,
    /** The edge is a discrete rule of the engine, checked exactly: image maps walk the
     * Bresenham pixel line between the endpoints' pixels (the rule of sbp-env and of the OMPL
     * harness), which can cut the corner of a pixel the continuous segment crosses. */
    PB_EDGE_CHECK_PIXEL_LINE,
    PB_EDGE_CHECK_COUNT
} pb_edge_check;

/** One engine option, "name" = "value", as given on a command line or in a benchmark
 * script. Both strings are borrowed for the duration of the call they are passed to. */
typedef struct pb_option {
    const char *name;
    const char *value;
} pb_option;

/** Load an engine.
 *
 * `engine_name` picks a registered engine ("image2d", "blackbox", "stickarm4d", ...); NULL
 * chooses from `path` (a .png or .pgm image, or a map_server .yaml, is an image map). `path`
 * may be NULL for engines that need no file. `options` are engine-specific (unknown names are
 * an error). On success `*out` is a new engine owned by the caller (pb_engine_destroy). On
 * failure `*out` is NULL and `diag` says what was wrong. */
PB_API pb_status pb_engine_load(pb_engine **out, const char *engine_name, const char *path,
                                const pb_option *options, size_t n_options, pb_diag *diag);

/** Destroy an engine; NULL is accepted. */
PB_API void pb_engine_destroy(pb_engine *engine);

/** A second handle onto the same C-space with its own counters, for another thread. The
 * engine's data is shared read-only and freed with the last handle. Owned by the caller. */
PB_API pb_status pb_engine_share(pb_engine **out, pb_engine *engine);

/** The engine's registered name ("image2d", ...). Borrowed, static. */
PB_API const char *pb_engine_name(const pb_engine *engine);
/** Number of coordinates in a configuration. */
PB_API int pb_engine_dim(const pb_engine *engine);
/** Lower and upper bounds, `dim` values each; borrowed for the engine's lifetime. Sampling
 * is uniform in [lower, upper). */
PB_API const double *pb_engine_lower(const pb_engine *engine);
PB_API const double *pb_engine_upper(const pb_engine *engine);
/** Euclidean length of the bounds' diagonal (ignores any angle wrap), for scale defaults. */
PB_API double pb_engine_extent(const pb_engine *engine);
/** The step size tree planners take when given none (step_size 0): the engine's own when it
 * has one (the manipulator engine's is in radians; an image map's is 2% of its diagonal, less
 * where its corridors are narrow), else 2% of the bounds' diagonal. */
PB_API double pb_engine_default_step(const pb_engine *engine);
/** How pb_engine_default_step() was chosen, a phrase for users ("2% of the bounds'
 * diagonal"). Borrowed for the engine's lifetime. */
PB_API const char *pb_engine_default_step_rule(const pb_engine *engine);

/** Is `q` inside the bounds and collision-free? Counted in n_feasible. */
PB_API bool pb_engine_feasible(pb_engine *engine, const double *q);
/** Is the straight edge from `a` to `b` (both endpoints included) collision-free? Counted in
 * n_visible. Endpoint feasibility is part of the answer. */
PB_API bool pb_engine_visible(pb_engine *engine, const double *a, const double *b);
/** Distance under the engine's metric (Euclidean unless the engine says otherwise). */
PB_API double pb_engine_distance(const pb_engine *engine, const double *a, const double *b);
/** The configuration a fraction `t` in [0, 1] of the way from `a` to `b`, along the
 * engine's geodesic (angles the short way round). `out` may alias neither input. */
PB_API void pb_engine_interpolate(const pb_engine *engine, const double *a, const double *b, double t,
                                  double *out);
/** A configuration uniform in the bounds (not necessarily feasible). */
PB_API void pb_engine_sample(const pb_engine *engine, pb_rng *rng, double *out);

/** Is distance(a, b) always distance(b, a), and an edge from a to b free exactly when the one
 * from b to a is? False for one-way edges (the car engine with Dubins curves). */
PB_API bool pb_engine_is_symmetric(const pb_engine *engine);

/** Per-coordinate description of the metric, for nearest-neighbour structures: the metric is
 * sqrt(sum_i (weight_i * d_i)^2) where d_i is the coordinate difference, wrapped into
 * [-period_i/2, period_i/2] when period_i > 0. Returns false when the engine's metric is a
 * black box (then only a linear scan is exact). `weights` and `periods` get `dim` values. */
PB_API bool pb_engine_metric(const pb_engine *engine, double *weights, double *periods);

/** The engine's default start and goal (from the map file, for instance). Returns false and
 * leaves the outputs alone when it has none. Each output gets `dim` values. */
PB_API bool pb_engine_defaults(const pb_engine *engine, double *start, double *goal);

/** What the engine's edge check guarantees; `*resolution` (may be NULL) gets the spacing of
 * sampled checks, or for certified checks the clearance floor below which a stretch counts
 * as blocked (0 when the engine has none). */
PB_API pb_edge_check pb_engine_edge_check(const pb_engine *engine, double *resolution);
/** "sampled", "certified" or "pixel_line", as written in JSON and benchmark records. Static. */
PB_API const char *pb_edge_check_str(pb_edge_check check);

/** Write how edges were checked as JSON object members: `, "edge_check": "KIND"` and, for a
 * sampled check, `, "edge_resolution": R`, for a certified one `, "clearance_floor": F`. The
 * one writer for results on the command line and in benchmark records. */
PB_API void pb_edge_check_write_json(FILE *out, pb_edge_check check, double resolution);

/** Did one of the engine's callbacks misbehave during queries (a clearance callback that
 * returned a negative number, NaN or infinity, say)? PB_OK when not; otherwise the first
 * such error, described in `diag` (may be NULL). The query it happened in answered
 * "blocked". pb_planner_solve() checks it and fails with PB_ERR_INVALID. */
PB_API pb_status pb_engine_fault(const pb_engine *engine, pb_diag *diag);

/** The counters since creation or the last reset. */
PB_API pb_engine_counters pb_engine_get_counters(const pb_engine *engine);
PB_API void pb_engine_reset_counters(pb_engine *engine);

/** What makes configuration `q` infeasible, as a phrase for a message ("link 'forearm'
 * touches obstacle 'floor'"), into `buf` (`size` bytes, always terminated). False (and an
 * empty `buf`) when the engine cannot say, as image maps for a point on a blocked pixel (the
 * pixel is the reason; they do say when the map has no free cell at all, or when the point
 * lies outside a rotated map's image), or when `q` is feasible after all. */
PB_API bool pb_engine_explain(const pb_engine *engine, const double *q, char *buf, size_t size);

/** Engine-specific data for tools that draw (an image map's "bitmap", its rows in grid order:
 * bottom row first in a map frame; its "map_frame", see pb_engine_map_frame()) and for planners
 * (an image map's "distance_transform": width x height floats in the bitmap's order, each the
 * distance in pixels from the pixel's centre to the nearest occupied pixel's centre or the rows
 * and columns just outside the image; NULL when out of memory). NULL when
 * the engine does not have `what`. Borrowed for the engine's lifetime. */
PB_API const void *pb_engine_get_data(const pb_engine *engine, const char *what);

/* ---- Obstacles that come and go (the simulation service's spawned entities) ----
 *
 * A planar footprint placed at a pose (x, y, yaw): x, y in the engine's first two
 * coordinates (pixels for image maps in the pixel frame, metres in a map frame: see
 * pb_map_frame in image.h), yaw in radians from +x towards +y. Lengths are in the same units;
 * on a map the arm's links are one pixel wide. Engines that
 * support dynamic obstacles keep them in a layer apart from their static map; feasible()
 * and visible() consult that layer only when it is non-empty. Adding, moving and removing
 * obstacles must not run concurrently with queries on any handle of the engine. */

/** Kinds of planar footprint. */
typedef enum pb_footprint_type {
    PB_FOOTPRINT_DISC, /**< `radius` around the pose */
    PB_FOOTPRINT_RECT, /**< `half_length` along the heading, `half_width` across, centred `offset`
                            ahead of the pose (a vehicle's rear axle is its pose: see vehicle.h) */
    PB_FOOTPRINT_ARM,  /**< the stick arm: link 1 (`link1` long) leaves the base at yaw + `joint1`,
                            link 2 (`link2`) leaves the elbow at yaw + `joint1` + `joint2`; links
                            are capsules one map unit wide */
    PB_FOOTPRINT_TYPE_COUNT
} pb_footprint_type;

/** A planar footprint; lengths in map units, angles in radians. Plain data. */
typedef struct pb_footprint {
    pb_footprint_type type;
    double radius;
    double half_length, half_width;
    double link1, link2, joint1, joint2;
    double offset; /**< PB_FOOTPRINT_RECT: the centre's distance ahead of the pose along the heading */
} pb_footprint;

/** What a footprint check ran into. */
typedef enum pb_hit_kind {
    PB_HIT_NONE,     /**< free */
    PB_HIT_OUTSIDE,  /**< part of the footprint lies outside the map's bounds */
    PB_HIT_MAP,      /**< a blocked map pixel (`pixel_x`, `pixel_y`: its column, row from the top) */
    PB_HIT_OBSTACLE, /**< the dynamic obstacle `obstacle_id` */
    PB_HIT_INVALID,  /**< the footprint or pose is malformed (non-finite, negative size) */
} pb_hit_kind;

typedef struct pb_hit {
    pb_hit_kind kind;
    uint32_t obstacle_id;
    int pixel_x, pixel_y;
} pb_hit;

/** No obstacle: pass as `ignore_id` to ignore none. */
#define PB_OBSTACLE_NONE UINT32_MAX

/** Add `footprint` at `pose` (3 values) as an obstacle; `*id` gets a stable id (never
 * PB_OBSTACLE_NONE). PB_ERR_UNSUPPORTED when the engine has no dynamic obstacles,
 * PB_ERR_INVALID for a malformed footprint, PB_ERR_NOMEM. */
PB_API pb_status pb_engine_obstacle_add(uint32_t *id, pb_engine *engine, const pb_footprint *footprint,
                                        const double *pose);
/** Move obstacle `id` to `pose`. PB_ERR_NOT_FOUND for an unknown id. */
PB_API pb_status pb_engine_obstacle_move(pb_engine *engine, uint32_t id, const double *pose);
/** Remove obstacle `id`. PB_ERR_NOT_FOUND for an unknown id. */
PB_API pb_status pb_engine_obstacle_remove(pb_engine *engine, uint32_t id);
/** Check `footprint` at `pose` against the map (rasterised: every pixel the footprint
 * touches must be free and inside) and against every dynamic obstacle but `ignore_id`
 * (geometric overlap; touching counts). `*hit` says what it hits first (PB_HIT_NONE: free).
 * PB_ERR_UNSUPPORTED when the engine cannot check footprints. */
PB_API pb_status pb_engine_footprint_check(pb_engine *engine, const pb_footprint *footprint,
                                           const double *pose, uint32_t ignore_id, pb_hit *hit);

/** A planar motion for pb_engine_sweep(): the pose (x, y, yaw) at `t` in [0, 1] into `pose`
 * (3 values). Continuous in t; called from the calling thread only. */
typedef void (*pb_motion_fn)(const void *ctx, double t, double *pose);

/** Sweep `footprint` along a continuous motion (`motion` with `ctx`, from t = 0 to 1) against
 * the map and every dynamic obstacle but `ignore_id`, and say how far it stays free.
 * Certified, not sampled: `rate` (engine units, >= 0) bounds how far any point of the
 * footprint moves while t grows by 1, and a pose whose footprint lies c from everything
 * certifies every t' within c / rate of it; a stretch closer than the engine's clearance
 * floor counts as a hit. The pose at t = 0 is checked whole (pb_engine_footprint_check());
 * along the motion the footprint's boundary is kept clear. `*free` gets true when the whole
 * motion is free; `*t_free` (may be NULL) the last certified t: 1 when free, -1 when the
 * start itself is blocked; `*hit` (may be NULL) what the motion ran into (the footprint,
 * grown by the check's margin, at the first uncertified pose). Counted in the engine's
 * n_edge_states (one per pose). Thread-safe as a query. PB_ERR_UNSUPPORTED for engines
 * without footprint clearance (image maps and the car engine have it), PB_ERR_INVALID for
 * a malformed footprint or rate (`*free` false). */
PB_API pb_status pb_engine_sweep(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion,
                                 const void *ctx, double rate, uint32_t ignore_id, bool *free, double *t_free,
                                 pb_hit *hit);

/** What a vehicle-like motion promises beyond its rate (pb_engine_sweep_path()): while t grows
 * by 1 the pose's reference point (x, y) travels at most `length` (engine units) of path, driven
 * in one `direction` (+1 forward along the yaw, -1 backward, 0 either), and the yaw changes per
 * unit of signed path (forward positive) within [`curvature_min`, `curvature_max`] (radians per
 * engine unit; a kinematic car's tan(steer) / wheelbase over the steer angles it passes). */
typedef struct pb_sweep_path {
    double length;
    double curvature_min, curvature_max;
    int direction;
    /** 0: `*t_free` as near to what blocks the motion as the sweep can certify; n > 0: the caller
     * keeps only whole n-ths of the motion (a drive of n steps; 1: free or not), so the sweep
     * creeps back no finer than 1/n and its grown checks stop at the clearance floor (a pose no
     * stretch certifies and closer than the floor is a hit). */
    int stops;
} pb_sweep_path;

/** pb_engine_sweep() for a motion that keeps to `path` (not NULL): near obstacles, where the
 * clearance steps are short, a rectangle footprint is certified a stretch at a time by one
 * exact check of the box that holds every footprint of the stretch (a straight stretch along a
 * wall is one check). Sound only when the motion keeps its promise. The same results and
 * errors as pb_engine_sweep(), and PB_ERR_INVALID for a malformed `path` (not finite, curvature_min
 * > curvature_max, a direction other than -1, 0, 1, negative stops); a blocked motion may stop at
 * another certified pose. */
PB_API pb_status pb_engine_sweep_path(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion,
                                      const void *ctx, double rate, const pb_sweep_path *path,
                                      uint32_t ignore_id, bool *free, double *t_free, pb_hit *hit);

/** Do two placed footprints overlap (touching counts)? Pure geometry, no engine. */
PB_API bool pb_footprint_overlap(const pb_footprint *a, const double *pose_a, const pb_footprint *b,
                                 const double *pose_b);
/** Axis-aligned bounding box of a placed footprint: `lo` and `hi` get 2 values each. */
PB_API void pb_footprint_aabb(const pb_footprint *footprint, const double *pose, double *lo, double *hi);

/* ---- Solids that come and go (the 3-D scenes of the manipulator engine) ----
 *
 * A box, cylinder or sphere at a full 6-DoF pose (metres): added, moved and removed like the
 * planar obstacles above (pb_engine_obstacle_remove() removes either kind), and checked
 * exactly as an obstacle of the engine's own world at that pose by feasible(), visible() and
 * pb_engine_explain() ("obstacle 'NAME'"). The engine does not check placements:
 * pb_engine_solid_check() does, and the caller decides. The same rule on concurrency as for
 * planar obstacles. */

/** A rigid transform: rotation `r` (row-major 3x3) then translation `t`; a point p maps to
 * r p + t. */
typedef struct pb_pose {
    double r[9];
    double t[3];
} pb_pose;

/** The identity transform. */
PB_API pb_pose pb_pose_identity(void);
/** a * b: first b, then a. */
PB_API pb_pose pb_pose_mul(const pb_pose *a, const pb_pose *b);
/** The pose of a position and a unit quaternion (x, y, z, w); the quaternion is normalised
 * (a zero quaternion is the identity rotation). */
PB_API pb_pose pb_pose_from_xyz_quat(const double xyz[3], const double quat[4]);

/** The inverse transform: `pose` undone (p = r^T (x - t)). */
PB_API pb_pose pb_pose_inverse(const pb_pose *pose);

/** One frame of an engine's robot (a link), for publishing a robot's state (ROS /tf). */
typedef struct pb_frame {
    const char *name; /**< the link's name, borrowed for the engine's lifetime */
    int parent;       /**< index of the parent frame; -1 for the root */
    bool fixed;       /**< joined to its parent by a fixed joint: the same pose in every configuration */
    pb_pose pose;     /**< in the parent's frame (the root's: in the engine's world frame) */
} pb_frame;

/** The frames of the engine's robot at configuration `q`, parents before children: at most
 * `max` into `frames` (NULL to count them). Returns how many the robot has; 0 for engines
 * without a robot of frames (image maps, black boxes). */
PB_API size_t pb_engine_frames(const pb_engine *engine, const double *q, pb_frame *frames, size_t max);

/** Kinds of solid. */
typedef enum pb_solid_type {
    PB_SOLID_BOX,      /**< size = full side lengths along x, y, z, centred */
    PB_SOLID_CYLINDER, /**< size[0] = radius, size[1] = length along the local z axis, centred */
    PB_SOLID_SPHERE,   /**< size[0] = radius */
    PB_SOLID_TYPE_COUNT
} pb_solid_type;

/** A solid in its own frame; sizes in metres, positive and finite. Plain data. */
typedef struct pb_solid {
    pb_solid_type type;
    double size[3];
} pb_solid;

/** Add `solid` at `pose` as an obstacle named `name` (copied, for explanations); `*id` gets
 * a stable id (never PB_OBSTACLE_NONE), never reused by the engine. PB_ERR_UNSUPPORTED when
 * the engine has no solids (image maps, a build without FCL), PB_ERR_INVALID for a size that
 * is not positive and finite or a non-finite pose, PB_ERR_NOMEM (the engine is unchanged). */
PB_API pb_status pb_engine_solid_add(uint32_t *id, pb_engine *engine, const pb_solid *solid,
                                     const pb_pose *pose, const char *name);
/** Move solid `id` to `pose`. PB_ERR_NOT_FOUND for an unknown id, PB_ERR_INVALID for a
 * non-finite pose. */
PB_API pb_status pb_engine_solid_move(pb_engine *engine, uint32_t id, const pb_pose *pose);
/** Would `solid` at `pose` touch a static obstacle, a solid other than `ignore_id`, or the
 * robot at configuration `robot_q` (every part of it; NULL: no robot)? Exact checks;
 * touching counts. `*hits` gets the answer and `what` (`size` bytes) what it touches:
 * "obstacle 'table'", "object 'box_2'" or "link 'link3'" ("" when free). With
 * `robot_only`, obstacles and solids are not checked. PB_ERR_INVALID for a malformed solid
 * or pose, PB_ERR_UNSUPPORTED as pb_engine_solid_add(). Read-only: any thread, as a query. */
PB_API pb_status pb_engine_solid_check(bool *hits, const pb_engine *engine, const pb_solid *solid,
                                       const pb_pose *pose, uint32_t ignore_id, const double *robot_q,
                                       bool robot_only, char *what, size_t size);
/** Do two solids at their poses overlap (touching counts)? Pure geometry, no engine.
 * PB_ERR_INVALID for a malformed solid or pose, PB_ERR_UNSUPPORTED in a build without FCL. */
PB_API pb_status pb_solids_overlap(bool *overlap, const pb_solid *a, const pb_pose *pose_a, const pb_solid *b,
                                   const pb_pose *pose_b);
/** Number of obstacles added to `engine` (planar or solid) and still there. */
PB_API size_t pb_engine_obstacle_count(const pb_engine *engine);
/** Make the added obstacles of `dst` those of `src` (same ids, names, shapes, poses): both
 * engines loaded from the same world, `dst` not in use. For planning on a frozen copy of a
 * scene whose obstacles go on moving. PB_ERR_UNSUPPORTED when the engine cannot copy them,
 * PB_ERR_NOMEM leaves `dst` with some of them. */
PB_API pb_status pb_engine_obstacles_copy(pb_engine *dst, const pb_engine *src);
/** A box (world frame, `lo` and `hi` 3 values each) that holds every point of the engine's
 * robot in every configuration within its bounds, and no less than 1 m beyond its reach:
 * the manipulator's robot. PB_ERR_UNSUPPORTED for engines without a robot in 3-D. */
PB_API pb_status pb_engine_workspace(const pb_engine *engine, double *lo, double *hi);
/** Name of coordinate `i` (a joint's name for the manipulator); NULL when the engine names
 * none or `i` is out of range. Borrowed for the engine's lifetime. */
PB_API const char *pb_engine_coordinate_name(const pb_engine *engine, int i);

/* ---- Inverse kinematics (engines with a robot: the manipulator) ---- */

/** Settings of an inverse kinematics query (pb_engine_inverse_kinematics()). Start from
 * pb_ik_config_default() and set fields. Plain data; `reference` is borrowed for the call. */
typedef struct pb_ik_config {
    double position_tolerance;    /**< metres between the frame's origin and the target's; > 0 */
    double orientation_tolerance; /**< radians of the rotation from the frame to the target; > 0 */
    int restarts;                 /**< random starts after the first (from `reference`); >= 0 */
    int max_iterations;           /**< damped least-squares steps per start; >= 1 */
    size_t max_solutions;         /**< K: stop once this many distinct solutions are found; >= 1 */
    /** Two solutions nearer than this under the engine's metric (radians; metres for prismatic
     * joints) are one; >= 0. */
    double min_separation;
    uint64_t seed;           /**< of the random starts: the same seed, the same answer */
    const double *reference; /**< `dim` values: the first start, and what solutions are sorted by
                                  distance from (the robot's current joints, say); NULL: the middle
                                  of the bounds */
} pb_ik_config;

/** The defaults: 0.1 mm and 0.001 rad, 100 restarts of at most 200 steps, 4 solutions at least
 * 0.1 rad apart, seed 1, no reference. */
PB_API pb_ik_config pb_ik_config_default(void);

/** Inverse kinematics: joint configurations at which link `frame` of the engine's robot (its URDF
 * link frame) has the world pose `target` (metres) within the config's tolerances. `frame` NULL
 * or "" is the robot's tool frame: the parent link of the first SRDF <end_effector> that the
 * planned joints move, else the child link of the deepest planned joint. Damped least squares
 * from the reference and then from random starts within the bounds; every solution is within the
 * bounds (continuous joints in [-pi, pi)), collision-free (pb_engine_feasible()) and at least
 * config->min_separation from the others. The search stops at config->max_solutions: they are the
 * first found (the first start is the reference, so a solution near it usually is among them),
 * not the nearest of all. `solutions` (caller storage of config->max_solutions * dim values) gets
 * them row after row, nearest the reference first; `*n_solutions` how many (0 on failure).
 * PB_ERR_NOT_FOUND when no start reaches a collision-free configuration: `diag` says how near the
 * closest start came, or what the configurations that reach the pose collide with. PB_ERR_INVALID
 * for a frame the robot does not have, a target that is not finite or whose `r` is not a
 * rotation, or a config out of its ranges. PB_ERR_UNSUPPORTED for an engine without inverse
 * kinematics (every engine but the manipulator). Read-only on the engine: any thread, as a query;
 * not counted in the engine's counters. */
PB_API pb_status pb_engine_inverse_kinematics(double *solutions, size_t *n_solutions, const pb_engine *engine,
                                              const char *frame, const pb_pose *target,
                                              const pb_ik_config *config, pb_diag *diag);

/** Number of registered engines, and the i-th one's implementation (for listings). */
PB_API size_t pb_engine_registry_count(void);
PB_API const pb_engine_impl *pb_engine_registry_get(size_t index);
/** A registered engine's name, one-line summary, NULL-terminated aliases and option help
 * lines ("name=VALUE  what it does"); the lists may be empty, never NULL. Static strings. */
PB_API const char *pb_engine_impl_name(const pb_engine_impl *impl);
PB_API const char *pb_engine_impl_summary(const pb_engine_impl *impl);
PB_API const char *const *pb_engine_impl_aliases(const pb_engine_impl *impl);
PB_API const char *const *pb_engine_impl_options_help(const pb_engine_impl *impl);
/** How a registered engine checks edges, one line starting with the kind (see
 * pb_edge_check_str()); the kind of a loaded engine is pb_engine_edge_check(). Static. */
PB_API const char *pb_engine_impl_edges(const pb_engine_impl *impl);
/** Find a registered engine by name or alias; NULL if none. */
PB_API const pb_engine_impl *pb_engine_registry_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
