/* planbench: the interface for engine implementers.
 *
 * An engine is a `pb_engine_impl` table (filled with designated initialisers) plus the
 * engine's own data (`self`). The core wraps every call, counts it, and supplies defaults
 * for the optional entries. Register a new engine by adding it to src/core/registry.c. */
#ifndef PLANBENCH_IMPL_ENGINE_IMPL_H
#define PLANBENCH_IMPL_ENGINE_IMPL_H

#include "../engine.h"
#include "../image.h"
#include "../steering.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What an engine tells the core about its C-space when it is made. */
typedef struct pb_engine_config {
    int dim;                  /**< 1..PB_MAX_DIM */
    double lower[PB_MAX_DIM]; /**< bounds; lower < upper in every coordinate */
    double upper[PB_MAX_DIM];
    double weights[PB_MAX_DIM]; /**< metric weights (1 by default) */
    double periods[PB_MAX_DIM]; /**< > 0 for a wrapping coordinate (2*pi for an angle), 0 otherwise */
    bool opaque_metric;         /**< `distance` is a black box: nearest neighbours use a linear scan */
    /** With a `distance` entry: `weights` and `periods` describe a lower bound of it (the car
     * engine's curve lengths are at least the distance between the positions), so nearest
     * neighbours prune the kd-tree with the bound and measure candidates exactly. */
    bool metric_lower_bound;
    /** distance(a, b) may differ from distance(b, a), and an edge may be free one way only
     * (Dubins curves): planners that connect edges both ways are refused. */
    bool asymmetric;
    double resolution; /**< default visible(): spacing of interpolated checks, metric units */
    /** What the engine's own visible() guarantees (engines without one: the core sets
     * SAMPLED, or CERTIFIED when the engine has a clearance()). */
    pb_edge_check edge_check;
    /** Certified checks: a stretch whose clearance is below this counts as blocked (metric
     * units); 0: a quarter of `resolution`. */
    double clearance_floor;
    bool bisection;   /**< default visible(): check in bisection order (else sequential) */
    double step_size; /**< tree planners' default step (metric units); 0: 2% of the bounds' diagonal */
    /** How step_size was chosen, a phrase for users; empty: "2% of the bounds' diagonal" when
     * step_size is 0, else "the engine's default". */
    char step_rule[160];
    bool has_defaults; /**< start and goal below are the engine's defaults */
    double default_start[PB_MAX_DIM];
    double default_goal[PB_MAX_DIM];
} pb_engine_config;

/** Start a setup for `dim` coordinates: weights 1, no wrap, no defaults, bisection order,
 * resolution 0 (the core then uses 1/1000 of the bounds' diagonal). */
PB_API pb_engine_config pb_engine_config_default(int dim);

struct pb_engine_impl {
    const char *name;                /**< registry name: "image2d" */
    const char *const *aliases;      /**< NULL-terminated, may be NULL */
    const char *summary;             /**< one line for `planbench list` */
    const char *const *options_help; /**< NULL-terminated "name=VALUE  what it does" lines, may be NULL */
    /** One line for `planbench list`: how edges are checked, starting with the edge-check
     * kind ("certified: ...", "sampled: ...", "pixel_line: ..."). NULL: "sampled". */
    const char *edges;

    /** True when this engine is the natural reader of `path` (by its extension, say). NULL:
     * never chosen automatically. */
    bool (*accepts_path)(const char *path);
    /** Make the engine's data from a file and options, filling `setup`. NULL when the engine
     * can only be made from C (pb_engine_create()). */
    pb_status (*load)(void **self, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag);
    /** Free the engine's data. */
    void (*destroy)(void *self);

    /** Required. Inside the bounds and collision-free? `counters` collects engine-internal work
     * (pixels read); the core already counts the call itself. Must be thread-safe on `self`. */
    bool (*feasible)(const void *self, const double *q, pb_engine_counters *counters);
    /** Optional: the edge check. NULL: the core's interpolated check at setup.resolution. */
    bool (*visible)(const void *self, const double *a, const double *b, pb_engine_counters *counters);
    /** Optional: a lower bound on the distance from `q` to the nearest infeasible
     * configuration, in the setup's metric (weighted Euclidean with wrap, whatever
     * `distance` is): every configuration closer to `q` than the value is feasible. 0 when
     * `q` is infeasible or too close to tell. With it and no visible(), the core's edge
     * check is certified (pb_edge_certified()). Must be thread-safe on `self`. */
    double (*clearance)(const void *self, const double *q, pb_engine_counters *counters);
    /** Optional: the first error a callback made during queries (see pb_engine_fault()). */
    pb_status (*fault)(const void *self, pb_diag *diag);
    /** Optional: the metric. NULL: weighted Euclidean with wrap, from setup. */
    double (*distance)(const void *self, const double *a, const double *b);
    /** Optional: geodesic interpolation. NULL: linear, wrapping coordinates the short way. */
    void (*interpolate)(const void *self, const double *a, const double *b, double t, double *out);
    /** Optional: sampling. NULL: uniform in the bounds. */
    void (*sample)(const void *self, pb_rng *rng, double *out);
    /** Optional: engine data for tools ("image" for image maps...). */
    const void *(*get_data)(const void *self, const char *what);
    /** Optional: what makes `q` infeasible, as a phrase ("link 'a' touches obstacle 'b'"),
     * into buf (size bytes); false when it cannot say (see pb_engine_explain()). */
    bool (*explain)(const void *self, const double *q, char *buf, size_t size);
    /** Optional: draw the C-space's picture (see pb_image_render_engine). */
    pb_status (*render)(const void *self, pb_image *image, double *scale, pb_diag *diag);
    /** Optional: draw one configuration (default: a dot at its first two coordinates). */
    void (*draw_config)(const void *self, pb_image *image, double scale, const double *q, pb_color color);
    /** Optional: where `q` is shown as one point on the picture render() made at `scale`
     * (picture pixels, into xy[0..1]; a tree is drawn between such points). NULL: its first
     * two coordinates (see pb_image_engine_to_picture). Must scale with `scale`: the
     * visualiser draws at other scales than render()'s. */
    void (*picture_point)(const void *self, double scale, const double *q, double *xy);
    /** Optional: draw a path (see pb_image_draw_path). NULL: lines between the picture
     * points of its configurations, or the engine's steering curves. */
    void (*draw_path)(const void *self, pb_image *image, double scale, const pb_path *path, pb_color color,
                      int width);

    /** Optional (all four or none): dynamic obstacles, see pb_engine_obstacle_add(). They
     * mutate `self`; the caller guarantees no query runs meanwhile. */
    pb_status (*obstacle_add)(void *self, const pb_footprint *footprint, const double *pose, uint32_t *id);
    pb_status (*obstacle_move)(void *self, uint32_t id, const double *pose);
    pb_status (*obstacle_remove)(void *self, uint32_t id);
    void (*footprint_check)(const void *self, const pb_footprint *footprint, const double *pose,
                            uint32_t ignore_id, pb_hit *hit, pb_engine_counters *counters);
    /** Optional (with footprint_check): a lower bound on the distance (engine units) from the
     * boundary of `footprint` at `pose` to every blocked cell and the outside of the map, and to
     * every dynamic obstacle but `ignore_id`; negative when it touches one. The interior is the
     * caller's to check (pb_engine_sweep() checks the start whole). Must be thread-safe. */
    double (*footprint_clearance)(const void *self, const pb_footprint *footprint, const double *pose,
                                  uint32_t ignore_id, pb_engine_counters *counters);
    /** Optional: the steering curve this engine's edges follow from `a` to `b` (the car
     * engine's Reeds-Shepp or Dubins curves), see pb_engine_curve(). */
    bool (*curve)(const void *self, const double *a, const double *b, pb_curve *out);
    /** Optional (all three, and obstacle_remove, or none): solids, see pb_engine_solid_add().
     * The core has checked the solid's size and the pose before calling. */
    pb_status (*solid_add)(void *self, const pb_solid *solid, const pb_pose *pose, const char *name,
                           uint32_t *id);
    pb_status (*solid_move)(void *self, uint32_t id, const pb_pose *pose);
    void (*solid_check)(const void *self, const pb_solid *solid, const pb_pose *pose, uint32_t ignore_id,
                        const double *robot_q, bool robot_only, bool *hits, char *what, size_t size);
    /** Optional: see pb_engine_obstacle_count(), pb_engine_obstacles_copy(). */
    size_t (*obstacle_count)(const void *self);
    pb_status (*obstacles_copy)(void *dst, const void *src);
    /** Optional: inverse kinematics, see pb_engine_inverse_kinematics(). The core has checked
     * the target (finite, a rotation) and the config (its ranges, a finite reference) and
     * passes `frame` never NULL ("": the tool frame). Must be thread-safe on `self`. */
    pb_status (*inverse_kinematics)(const void *self, double *solutions, size_t *n_solutions,
                                    const char *frame, const pb_pose *target, const pb_ik_config *config,
                                    pb_diag *diag);
    /** Optional: see pb_engine_workspace() and pb_engine_coordinate_name(). */
    pb_status (*workspace)(const void *self, double *lo, double *hi);
    const char *(*coordinate_name)(const void *self, int i);
    /** Optional: see pb_engine_frames(). */
    size_t (*frames)(const void *self, const double *q, pb_frame *frames, size_t max);
};

/** Wrap engine data made in C into an engine. Takes ownership of `self` (freed with
 * impl->destroy, also on failure). */
PB_API pb_status pb_engine_create(pb_engine **out, const pb_engine_impl *impl, void *self,
                                  const pb_engine_config *setup, pb_diag *diag);

/** Is `solid` one of the kinds with sizes positive and finite where its kind reads them? */
PB_API bool pb_solid_is_valid(const pb_solid *solid);
/** Are all of `pose`'s values finite? */
PB_API bool pb_pose_is_finite(const pb_pose *pose);

/** The engine's data, for the engine's own helper functions. */
PB_API void *pb_engine_self(const pb_engine *engine);
/** The engine's implementation table. */
PB_API const pb_engine_impl *pb_engine_get_impl(const pb_engine *engine);
/** The setup the engine was made with. Borrowed. */
PB_API const pb_engine_config *pb_engine_get_config(const pb_engine *engine);

/** Find an option by name in a list; NULL when absent. Marks nothing. */
PB_API const char *pb_option_find(const pb_option *options, size_t n_options, const char *name);
/** Fail with a diag naming the first option whose name is not in the NULL-terminated
 * `known` list. */
PB_API pb_status pb_option_check_known(const pb_option *options, size_t n_options, const char *const *known,
                                       const char *engine_name, pb_diag *diag);
/** The one parser of number lists (options, world files, benchmark scripts, the command
 * line): finite numbers separated by a comma or by whitespace ("1,2,3", "1 2 3", "1, 2"),
 * surrounding whitespace allowed. Returns how many (0 for an empty text), or -1 for a
 * malformed list, a trailing comma, a number out of range, or more than `max` numbers. */
PB_API int pb_parse_doubles(const char *text, double *out, int max);

#ifdef __cplusplus
}
#endif
#endif
