/* The manipulator engine's model, shared by the files of src/engines/manipulator/ (private
 * to the engine: nothing outside this folder includes it). It holds the engine's state
 * (struct manipulator: the robot, its link shapes and their sphere trees, the obstacles), the
 * small helpers the hot paths inline, and what each part exports to the parts above it.
 *
 * The parts, each calling only those listed before it (no two call each other):
 *   kinematics.c   forward kinematics, motion bounds of the shapes (compute_sweep)
 *   bounds.c       sphere-tree bounds of a shape against an obstacle and between two link
 *                  shapes (closest points, pair descent, separating axes), the query counters
 *   lanes.c        the float sphere stage: a shape's sphere tree against several obstacles
 *                  or poses at once (AVX2 or portable), settling what it can prove clear
 *   obstacles.c    the obstacle arrays: primitive geometries, the bounds' view of an obstacle,
 *                  the dynamic objects' part, placement checks
 *   edge_check.c   feasible() and the edge checks (certified with its sphere-tree descent,
 *                  interpolated)
 *   ik.c           inverse kinematics: damped least squares with restarts, feasible solutions
 *   draw.c         the pictures: front, side and top views of the obstacles, the robot, a path
 *   tree_build.c   building the model at load: sphere trees, geometries, joints, pairs, world
 *   objects.c      the dynamic objects, the solids of the public obstacle API (engine.h:
 *                  pb_engine_solid_add() and friends, entries of the engine's table)
 *   manipulator.c  the engine table, load, explain, destroy, the pb_manipulator_* accessors;
 *                  frees the objects through m->objects_destroy
 * This header includes no header of those files (manipulator.h is manipulator.c's). */
#ifndef PB_ENGINES_MANIPULATOR_MODEL_H
#define PB_ENGINES_MANIPULATOR_MODEL_H

#include "engines/manipulator/fcl_shim.h"
#include "robot/urdf.h"
#include "robot/world.h"
#include "planbench/engine.h"
#include "planbench/image.h"

#include <math.h>
#include <stdint.h>

/** Most link shapes a robot may have. */
#define MAX_SHAPES 512

/** Most links a robot may have: PB_MANIPULATOR_MAX_LINKS of manipulator.h, which
 * manipulator.c checks is the same (this header does not include manipulator.h). */
#define MANIP_MAX_LINKS 256

/* Below this (metres) a bound proves nothing and FCL decides: FCL's collision checks count
 * shapes less than about 1e-6 m apart as touching (GJK's tolerance), and feasible() must
 * give FCL's answers exactly. */
#define TOUCH 1e-5

/* Deepest descent of a sphere tree query; deeper subtrees are bounded by their own sphere. */
#define TREE_STACK 128

/* Node pairs a self-pair query opens at most before it tries a separating axis
 * (pair_axis_bound(), and then FCL): two links close along much of their length have many
 * pairs of pieces about equally near, which the axis settles far sooner (bench_mbm
 * bookshelf_thin:89: 8 to 16 took the least time, 256 half as much again). */
#define PAIR_BUDGET 16

/** Queries of the float sphere stage (lanes.c) answered at once: eight float lanes fill one
 * AVX2 register. */
#define MANIP_LANES 8

/** The dynamic objects of one engine (objects.c); opaque to the other parts. */
typedef struct manipulator_objects manipulator_objects;

/* One node of a shape's sphere tree: a sphere, in the shape frame, that contains every
 * point of the node's part of the shape (see build_sphere_tree). A leaf holds one piece,
 * the convex hull of its n_points points. */
typedef struct sphere_node {
    double c[3];
    double r;
    int32_t left, right; /* children (indices into manipulator.nodes); -1 for a leaf */
    int32_t points;      /* leaf: its first point in manipulator.leaf_points */
    int16_t n_points;    /* leaf: how many (0: only the sphere is known) */
    int16_t on_shape;    /* leaf: the points are points of the shape (a cell of a cylinder's
                          * bounding box reaches past it: its corners may not be) */
} sphere_node;

typedef struct robot_shape {
    pbf_geometry *geometry;
    pbf_geometry *hull; /* meshes: their convex hull, for fast distance bounds; else NULL */
    int link;
    int rigid_group;  /* shapes of one group never move relative to each other */
    pb_pose origin;   /* in the link frame */
    double center[3]; /* bounding sphere in the shape frame */
    double radius;
    int32_t tree;     /* root of its sphere tree in manipulator.nodes */
    double *vertices; /* meshes: their vertices (shape frame), for support queries; else NULL */
    size_t n_vertices;
} robot_shape;

/* An obstacle as the cheap bounds see it: boxes, cylinders and spheres have exact signed
 * distances; anything else (meshes) only its bounding sphere, which bounds its distance
 * from below but never proves a contact. */
typedef struct obstacle_bound {
    pb_shape_type type;
    double half[3];    /* box: half extents; cylinder: radius, half length; sphere: radius */
    double r[9], t[3]; /* its pose: a local point p is at r p + t */
    double center[3];  /* bounding sphere, world frame */
    double radius;
} obstacle_bound;

struct manipulator;
struct manip_lanes;
/** The float sphere stage's descent (lanes.c): the lanes at which every leaf of the tree at
 * `root` clears its obstacle by the lane's cap, bit k for lane k. */
typedef uint32_t (*manip_lanes_fn)(const struct manipulator *m, int32_t root,
                                   const struct manip_lanes *lanes);

typedef struct manipulator {
    pb_robot robot;
    int dim;
    int joint_of[PB_MAX_DIM];
    bool wraps[PB_MAX_DIM];
    double lower[PB_MAX_DIM], upper[PB_MAX_DIM];
    int *coord_of; /* per joint: its coordinate, -1 when none */
    double *held;  /* per joint: its value when it has no coordinate */
    pb_pose base;
    robot_shape *shapes;
    size_t n_shapes;
    bool *shape_moves; /* relative to the world */
    uint32_t (*pairs)[2];
    size_t n_pairs;
    pbf_geometry **obstacles;
    pb_pose *obstacle_poses;
    char **obstacle_names;
    obstacle_bound *obstacle_bounds;
    size_t n_obstacles;
    /* the world's obstacles come first and are owned here; the dynamic objects (objects.c)
     * follow them, their geometries and names borrowed from `objects` */
    size_t n_static_obstacles;
    manipulator_objects *objects;
    /* frees `objects`: set by objects.c with them, so the engine's destroy never calls it */
    void (*objects_destroy)(manipulator_objects *objects);
    sphere_node *nodes; /* every shape's sphere tree */
    size_t n_nodes, cap_nodes;
    double *leaf_points; /* 3 coordinates each, shape frame */
    size_t n_leaf_points, cap_leaf_points;
    /* the edge check */
    bool certified;        /* conservative advancement (default) or interpolated states */
    double edge_tolerance; /* certified: metres, see PB_MANIPULATOR_EDGE_TOLERANCE */
    double resolution;     /* interpolated: spacing under the weighted metric */
    double prefilter;      /* certified: spacing of the plain checks first (0: none) */
    double weights[PB_MAX_DIM];
    double periods[PB_MAX_DIM];
    /* sweep[s * dim + i]: no point of shape s moves more than sweep[s * dim + i] * |dq_i|
     * metres when coordinate i alone changes by dq_i (any configuration of the others) */
    double *sweep;
    double *pair_sweep; /* the same for the relative motion of self pair p */
    /* certified: FCL distances are asked only where the sphere trees certify less than
     * sphere_trust times the distance needed and less than sphere_near metres */
    double sphere_trust, sphere_near;
    /* the box (world, metres) the pictures show: what the robot reaches (draw.c) */
    double view_lo[3], view_hi[3];
    /* the float sphere stage (lanes.c): the nodes' spheres as floats, radii rounded up, and
     * children, all indexed as `nodes`, in one block `lane_nodes`; lanes_clear is the descent
     * for this CPU (AVX2 or portable), NULL when the stage is off (option sphere_lanes) */
    void *lane_nodes;
    const float *lane_x, *lane_y, *lane_z, *lane_r;
    const int32_t *lane_left, *lane_right;
    manip_lanes_fn lanes_clear;
} manipulator;

/** Collision queries and inverse kinematics work done by this thread (pb_manipulator_counts
 * of manipulator.h, which pb_manipulator_get_counts() copies from this). */
typedef struct manip_counts {
    uint64_t bound_queries; /**< sphere-tree bounds (shape against obstacle or shape) */
    uint64_t fcl_collide;   /**< FCL boolean checks the bounds could not settle */
    uint64_t fcl_distance;  /**< FCL distance queries the bounds could not replace */
    uint64_t ik_starts;     /**< inverse kinematics: starts descended from (ik.c) */
    uint64_t ik_steps;      /**< inverse kinematics: damped least-squares steps tried */
    uint64_t lane_queries;  /**< float sphere stage: descents (each of up to MANIP_LANES lanes) */
    uint64_t lanes;         /**< ... lanes asked */
    uint64_t lanes_clear;   /**< ... lanes it settled (the rest went to the double bounds) */
} manip_counts;

/** What the sphere tree tells of a shape against an obstacle (manip_shape_obstacle_touch()). */
typedef enum touch { TOUCH_NO, TOUCH_YES, TOUCH_MAYBE } touch;

/* ---- helpers of the hot paths, inlined in every part ---- */

/* gcc makes fmin() and fmax() library calls (for their NaN rules), which showed in profiles
 * of the bounds below; these are one instruction, and no NaN reaches them. */
static inline double min2(double a, double b)
{
    return a < b ? a : b;
}

static inline double max2(double a, double b)
{
    return a > b ? a : b;
}

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** out = pose applied to point p (world from the pose's frame). */
static inline void transform_point(const pb_pose *pose, const double *p, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = pose->r[3 * i] * p[0] + pose->r[3 * i + 1] * p[1] + pose->r[3 * i + 2] * p[2] + pose->t[i];
}

/** Does the obstacle have an exact signed distance (a box, cylinder or sphere)? */
static inline bool obstacle_is_exact(const obstacle_bound *o)
{
    return o->type == PB_SHAPE_BOX || o->type == PB_SHAPE_CYLINDER || o->type == PB_SHAPE_SPHERE;
}

/** The name of the link of robot shape `shape`. */
static inline const char *link_name(const manipulator *m, size_t shape)
{
    return m->robot.links[m->shapes[shape].link].name;
}

/* ---- kinematics.c ---- */

/** Forward kinematics: the world pose of every link (robot.n_links entries) at q. */
void manip_forward_kinematics(const manipulator *m, const double *q, pb_pose *poses);
/** m->sweep for every shape against the world and m->pair_sweep for every self pair (bounds
 * on how far their points move per unit of each coordinate); false when out of memory. */
bool manip_compute_sweep(manipulator *m);

/** World poses of every shape (n_shapes entries) at q. */
static inline void shape_poses(const manipulator *m, const double *q, pb_pose *out)
{
    pb_pose links[MANIP_MAX_LINKS];
    manip_forward_kinematics(m, q, links);
    for (size_t s = 0; s < m->n_shapes; s++)
        out[s] = pb_pose_mul(&links[m->shapes[s].link], &m->shapes[s].origin);
}

/* ---- bounds.c ---- */

/** This thread's counts of queries (pb_manipulator_get_counts()). Hidden: it stays out of the
 * shared library's dynamic symbols and binds inside it, as the static thread-local it was. */
extern __attribute__((visibility("hidden"))) _Thread_local manip_counts manip_query_counts;

/** Signed distance (metres, negative inside) from world point p to obstacle o; for meshes,
 * to its bounding sphere, which is a lower bound. With `gradient`, also a subgradient there
 * (world frame): sd(x) >= sd(p) + gradient . (x - p) for every x. */
double manip_obstacle_signed_distance(const obstacle_bound *o, const double *p, double *gradient);

/* manip_obstacle_signed_distance() without the gradient: the descents' inner loop, most often
 * against a box. */
static inline double obstacle_distance(const obstacle_bound *o, const double *p)
{
    const double d0 = p[0] - o->t[0], d1 = p[1] - o->t[1], d2 = p[2] - o->t[2];
    if (o->type == PB_SHAPE_BOX) {
        const double e0 = fabs(o->r[0] * d0 + o->r[3] * d1 + o->r[6] * d2) - o->half[0];
        const double e1 = fabs(o->r[1] * d0 + o->r[4] * d1 + o->r[7] * d2) - o->half[1];
        const double e2 = fabs(o->r[2] * d0 + o->r[5] * d1 + o->r[8] * d2) - o->half[2];
        const double a0 = max2(e0, 0.0), a1 = max2(e1, 0.0), a2 = max2(e2, 0.0);
        const double outside = a0 * a0 + a1 * a1 + a2 * a2;
        return outside > 0.0 ? sqrt(outside) : max2(e0, max2(e1, e2));
    }
    return manip_obstacle_signed_distance(o, p, NULL);
}

/** A lower bound on the distance from leaf `node` of a sphere tree (its piece of the shape at
 * `pose`) to obstacle o, given sd, the signed distance of its centre c (world), and the
 * subgradient g there; triangles still below `target` are refined. *inside: a point of the
 * piece lies inside the obstacle (exact obstacles only), a sure contact. */
double manip_leaf_obstacle_bound(const manipulator *m, const sphere_node *node, const pb_pose *pose,
                                 const obstacle_bound *o, const double *c, double sd, const double *g,
                                 double target, bool *inside);
/** Does shape s at `pose` touch obstacle o, as far as the sphere tree tells? */
touch manip_shape_obstacle_touch(const manipulator *m, size_t s, const pb_pose *pose, size_t o);

/* Are a shape's root sphere (centre c, world, radius r) and obstacle o's bounding sphere at
 * least `gap` apart? The broad phase: no rotation, no square root. */
static inline bool spheres_apart(const double *c, double r, const obstacle_bound *o, double gap)
{
    const double dx = c[0] - o->center[0], dy = c[1] - o->center[1], dz = c[2] - o->center[2];
    const double reach = r + o->radius + gap;
    return dx * dx + dy * dy + dz * dz >= reach * reach;
}

/** A lower bound on the distance of two robot shapes (sa at pa, sb at pb), or `cap`; below
 * `floor` only a sign, as shape_obstacle_bound() of edge_check.c. At most `budget` node pairs
 * are opened (PAIR_BUDGET). */
double manip_shape_pair_bound(const manipulator *m, const robot_shape *sa, const pb_pose *pa,
                              const robot_shape *sb, const pb_pose *pb, double cap, double floor, int budget);
/** A lower bound on the distance of self pair p (shapes sa at pa, sb at pb) from separating
 * axes, stopping at the first whose gap reaches `enough`. */
double manip_pair_axis_bound(const manipulator *m, size_t p, const robot_shape *sa, const pb_pose *pa,
                             const robot_shape *sb, const pb_pose *pb, double enough);
/** Do the shapes of self pair p touch at shape poses `poses`? Bounds first, then FCL. */
bool manip_pair_collides(const manipulator *m, const pb_pose *poses, size_t p);

/* ---- lanes.c ---- */

/** One query of the float sphere stage: per lane, the map from the shape's frame to the
 * obstacle's box frame (rotation rows a[0..8], translation a[9..11]), the box's half extents
 * and the reach a leaf's centre must keep from the box beyond its radius (cap, the
 * obstacle's radius and the rounding margin). Filled by manip_lanes_set(); caller storage. */
typedef struct manip_lanes {
    float a[12][MANIP_LANES];
    float half[3][MANIP_LANES];
    float reach[MANIP_LANES];
    int n; /**< lanes in use, 1 to MANIP_LANES */
} manip_lanes;

/** m->lane_nodes from m->nodes (after the trees are built); false when out of memory. */
bool manip_lanes_build(manipulator *m);
/** m->lanes_clear for `mode` (the option sphere_lanes: auto, avx2, portable, off; NULL is
 * off); PB_ERR_UNSUPPORTED for avx2 on a CPU without it. */
pb_status manip_lanes_choose(manipulator *m, const char *mode, pb_diag *diag);
/** Lane `lane` asks whether `shape` at world pose `pose` is at least `cap` (> 0, metres) from
 * obstacle o. */
void manip_lanes_set(manip_lanes *lanes, int lane, const robot_shape *shape, const manipulator *m,
                     const pb_pose *pose, const obstacle_bound *o, double cap);
/** The lanes (bit k for lane k < lanes->n) whose shape is proven at least its cap from its
 * obstacle; the others cannot tell. m->lanes_clear must be set. Pads the unused lanes. */
uint32_t manip_lanes_clear(const manipulator *m, const robot_shape *shape, manip_lanes *lanes);

/* ---- obstacles.c ---- */

/** `skip` for manip_geometry_hits(): the robot's links only, no obstacle. */
#define MANIP_LINKS_ONLY (SIZE_MAX - 1)

/** The FCL geometry of a box, cylinder or sphere (sizes as in pb_shape); NULL for another
 * type or when out of memory. Static obstacles, link shapes and objects all come from here. */
pbf_geometry *manip_primitive_geometry(const pb_shape *shape);
/** The cheap bounds' view of obstacle `geometry`, of `shape` at `pose` (see
 * manip_obstacle_signed_distance()). */
void manip_set_obstacle_bound(obstacle_bound *bound, const pb_shape *shape, const pb_pose *pose,
                              const pbf_geometry *geometry);
/** Replace the obstacles after the world's static ones by `n` objects: geometry, shape (for
 * the cheap bounds), world pose and name each. Geometries and names are borrowed until the
 * next call or the engine's destruction. PB_ERR_NOMEM leaves the engine with its static
 * obstacles only. */
pb_status manip_set_dynamic(manipulator *m, const pbf_geometry *const *geometries, const pb_shape *shapes,
                            const pb_pose *poses, const char *const *names, size_t n);
/** Does `geometry` at `pose` touch a static obstacle, an object (but the one at obstacle
 * index `skip`, SIZE_MAX for none) or a link shape of the robot at `robot_q` (NULL: no robot)?
 * Exact FCL checks. True with "obstacle 'a'", "object 'b'" or "link 'c'" in `what`. */
bool manip_geometry_hits(const manipulator *m, const pbf_geometry *geometry, const pb_pose *pose, size_t skip,
                         const double *robot_q, char *what, size_t size);

/* ---- edge_check.c ---- */

/** The engine's feasible(): inside the limits, no moving shape touches an obstacle, no self
 * pair touches. `self` is a manipulator. */
bool manip_feasible(const void *self, const double *q, pb_engine_counters *counters);
/** The engine's visible(): the certified or the interpolated edge check, as loaded. */
bool manip_visible(const void *self, const double *a, const double *b, pb_engine_counters *counters);

/* ---- ik.c ---- */

/** What an inverse kinematics query did, for its caller's messages. */
typedef struct manip_ik_stats {
    int starts;                    /**< starts descended from */
    int reached;                   /**< starts that reached the pose */
    int collided;                  /**< ... of which in collision (not a repeat of a solution) */
    double collided_q[PB_MAX_DIM]; /**< the first of those */
    double nearest_position;       /**< the nearest miss (metres), INFINITY when none */
    double nearest_orientation;    /**< its orientation error (radians) */
} manip_ik_stats;

/** The robot's tool frame: the parent link of the first SRDF end effector that a planned joint
 * moves, else the child link of the deepest planned joint. */
int manip_tool_link(const manipulator *m);
/** The engine's inverse_kinematics (see pb_engine_inverse_kinematics()), with what it did in
 * `stats`; the config and target already checked by the core. */
pb_status manip_inverse_kinematics(const manipulator *m, double *solutions, size_t *n_solutions,
                                   const char *frame, const pb_pose *target, const pb_ik_config *config,
                                   manip_ik_stats *stats, pb_diag *diag);

/* ---- draw.c ---- */

/** m->view_lo, view_hi: a box around the robot's shapes over configurations spread through
 * the joint limits (from a fixed seed). */
void manip_view_bounds(manipulator *m);
/** The engine's picture entries (see pb_engine_impl): front, side and top views. */
pb_status manip_render(const void *self, pb_image *image, double *scale, pb_diag *diag);
void manip_draw_config(const void *self, pb_image *image, double scale, const double *q, pb_color color);
void manip_picture_point(const void *self, double scale, const double *q, double *xy);
/** Where world point p is drawn in view `view` (0 front, 1 side, 2 top) at `scale`. */
void manip_view_point(const manipulator *m, double scale, int view, const double *p, double *xy);
void manip_draw_path(const void *self, pb_image *image, double scale, const pb_path *path, pb_color color,
                     int width);

/* ---- tree_build.c ---- */

/** Which joints are coordinates, in which order (the world's joints, the group
 * `group_name` or the world's, or every movable joint); sets dim, joint_of, coord_of, wraps,
 * lower, upper and held. */
pb_status manip_choose_joints(manipulator *m, const pb_world *world, const char *group_name, pb_diag *diag);
/** The robot's link shapes (geometries, sphere trees, rigid groups) and the self pairs to
 * check; pairs that never move relative to each other are checked once, here. */
pb_status manip_build_shapes_and_pairs(manipulator *m, pb_diag *diag);
/** The world's static obstacles; links that never move are checked against them once. */
pb_status manip_build_environment(manipulator *m, const pb_world *world, pb_diag *diag);

/* ---- objects.c: the table's entries for solids (see pb_engine_impl) ---- */

pb_status manip_solid_add(void *self, const pb_solid *solid, const pb_pose *pose, const char *name,
                          uint32_t *id);
pb_status manip_solid_move(void *self, uint32_t id, const pb_pose *pose);
pb_status manip_obstacle_remove(void *self, uint32_t id);
void manip_solid_check(const void *self, const pb_solid *solid, const pb_pose *pose, uint32_t ignore_id,
                       const double *robot_q, bool robot_only, bool *hits, char *what, size_t size);
size_t manip_obstacle_count(const void *self);
pb_status manip_obstacles_copy(void *dst, const void *src);

#endif
