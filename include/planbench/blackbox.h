/* planbench: the black-box ("functor") engine, a C-space given by a function.
 *
 * Embedding: link libplanbench, hand over bounds and a `feasible` callback, and plan:
 *
 *     static bool free_space(const double *q, void *payload) { return q[0] * q[0] + q[1] * q[1] > 1; }
 *     ...
 *     pb_blackbox_config params = pb_blackbox_config_default(2);
 *     params.lower[0] = params.lower[1] = -5;
 *     params.upper[0] = params.upper[1] = 5;
 *     params.feasible = free_space;
 *     pb_engine *engine;
 *     pb_status status = pb_blackbox_create(&engine, &params, &diag);
 *
 * Edges (pb_engine_visible) are certified when the engine has a `clearance` callback: steps
 * by the clearance cover every configuration of the straight segment. Without one they are
 * sampled: configurations along the segment at a spacing of at most `resolution`, both
 * endpoints included, in bisection order; a collision shorter than that can be missed.
 * pb_engine_edge_check() says which.
 *
 * From the command line the same engine is `--engine blackbox` with `--bounds` and either
 * `--expr` (an expression over x0, x1, ...) or `--plugin` (a shared object, see below). */
#ifndef PLANBENCH_BLACKBOX_H
#define PLANBENCH_BLACKBOX_H

#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Is configuration `q` (dim values, inside the bounds) free? `payload` is the pointer given in
 * the parameters. Called from every thread that queries the engine (engines may be shared
 * between threads with pb_engine_share), so it must not modify shared state unguarded. */
typedef bool (*pb_blackbox_feasible_fn)(const double *q, void *payload);

/** The distance between `a` and `b` (dim values each): non-negative, symmetric, zero from a
 * configuration to itself. */
typedef double (*pb_blackbox_distance_fn)(const double *a, const double *b, void *payload);

/** A lower bound on the distance from `q` (dim values, inside the bounds) to the nearest
 * infeasible configuration, in the engine's Euclidean metric (with `periods`; a custom
 * `distance` does not change it): every configuration closer to `q` is free. 0 when `q` is
 * infeasible or too close to tell. A negative, NaN or infinite answer is an error: the
 * edge being checked counts as blocked and the solve fails, naming the value and the
 * configuration (pb_engine_fault()). Called from every thread that queries the engine. */
typedef double (*pb_blackbox_clearance_fn)(const double *q, void *payload);

/** Are configurations `qs` (n rows of dim values each, row after row, inside the bounds) free?
 * Fills `free` (n values). The batched form of pb_blackbox_feasible_fn, for callers for whom
 * one call per configuration is expensive (an interpreter): a sampled edge check hands it
 * every configuration of the edge at once (in chunks of at most PB_BLACKBOX_BATCH). */
typedef void (*pb_blackbox_batch_fn)(const double *qs, size_t n, bool *free, void *payload);

/** Most configurations in one call of a batch callback. */
#define PB_BLACKBOX_BATCH 64

/** What a black-box engine is made from. Start from pb_blackbox_config_default(). */
typedef struct pb_blackbox_config {
    int dim;                  /**< number of coordinates, 1..PB_MAX_DIM */
    double lower[PB_MAX_DIM]; /**< bounds: lower[i] < upper[i]; sampling is uniform inside */
    double upper[PB_MAX_DIM];
    /** Required. Configurations outside the bounds are infeasible without a call. */
    pb_blackbox_feasible_fn feasible;
    /** Optional. NULL: Euclidean distance (with `periods` below). When set, nearest-neighbour
     * search falls back to a linear scan, as it cannot prune with an unknown metric. */
    pb_blackbox_distance_fn distance;
    /** Optional. When set, edges are certified by clearance steps (see above). */
    pb_blackbox_clearance_fn clearance;
    /** Borrowed by the engine, passed to the callbacks; must outlive the engine. */
    void *payload;
    /** Spacing of the configurations checked along a sampled edge, in the metric's units. 0
     * (the default): 1/1000 of the bounds' diagonal sqrt(sum_i (upper_i - lower_i)^2). With a
     * custom `distance`, set it explicitly in that metric's units. Certified edges refuse a
     * stretch whose clearance is below a quarter of it. */
    double resolution;
    /** Check edges from a to b in order rather than midpoint first (the default, bisection,
     * finds a collision sooner; both check the same configurations). */
    bool sequential_edges;
    /** Wrap period of each coordinate: 2*pi for an angle (distance and interpolation then go
     * the short way round), 0 (the default) for none. Ignored with a custom `distance`'s
     * metric, but still used for interpolation. */
    double periods[PB_MAX_DIM];
    /** Optional default start and goal (used when a problem gives none). */
    bool has_defaults;
    double default_start[PB_MAX_DIM];
    double default_goal[PB_MAX_DIM];
    /** Optional. When set, sampled edge checks (no `clearance`) check their configurations
     * through it, in batches, instead of one `feasible` call each; `feasible` still answers
     * single configurations. Both must agree. */
    pb_blackbox_batch_fn feasible_batch;
} pb_blackbox_config;

/** Parameters for a `dim`-dimensional space: bounds [0, 1) in every coordinate, no
 * callbacks, default resolution, bisection order, no wrap, no defaults. */
PB_API pb_blackbox_config pb_blackbox_config_default(int dim);

/** Make a black-box engine. Checks the parameters (dim in range, lower < upper and finite,
 * a feasible callback, a non-negative resolution, non-negative periods, defaults inside the
 * bounds) and fails with PB_ERR_INVALID and a `diag` naming the field otherwise. On success
 * `*out` is a new engine owned by the caller (pb_engine_destroy); the callbacks and `payload`
 * are borrowed. The engine's registered name is "blackbox". */
PB_API pb_status pb_blackbox_create(pb_engine **out, const pb_blackbox_config *params, pb_diag *diag);

/* ---- plugins ---------------------------------------------------------------------------
 *
 * `planbench ... --engine blackbox --plugin ./libmyworld.so` loads a shared object with
 * dlopen and looks up these symbols (declare them with C linkage, `extern "C"` in C++):
 *
 *   bool planbench_feasible(const double *q, void *payload);                       required
 *   int planbench_bounds(double *lower, double *upper, int max_dim);           optional
 *       Fill at most max_dim bounds and return the dimension (<= 0: none). Used when no
 *       --bounds is given; --bounds overrides it.
 *   int planbench_defaults(double *start, double *goal, int max_dim);          optional
 *       Fill a default start and goal and return their dimension (<= 0: none).
 *   void *planbench_init(void);                                                optional
 *       Called once after loading; its result is the `payload` of every feasible call
 *       (NULL when absent).
 *   void planbench_fini(void *payload);                                            optional
 *       Called with that context before the object is unloaded, when the engine is destroyed.
 *   double planbench_clearance(const double *q, void *payload);                    optional
 *       A lower bound on the distance from q to the obstacles (pb_blackbox_clearance_fn);
 *       with it the plugin's edges are certified.
 *
 * Build one with `cc -shared -fPIC -o libmyworld.so myworld.c`; examples/plugin_world.c is
 * a complete one. */

/** The names of the plugin symbols above. */
#define PB_PLUGIN_FEASIBLE  "planbench_feasible"
#define PB_PLUGIN_BOUNDS    "planbench_bounds"
#define PB_PLUGIN_DEFAULTS  "planbench_defaults"
#define PB_PLUGIN_INIT      "planbench_init"
#define PB_PLUGIN_FINI      "planbench_fini"
#define PB_PLUGIN_CLEARANCE "planbench_clearance"

/** Signatures of the plugin symbols. */
typedef int (*pb_plugin_bounds_fn)(double *lower, double *upper, int max_dim);
typedef int (*pb_plugin_defaults_fn)(double *start, double *goal, int max_dim);
typedef void *(*pb_plugin_init_fn)(void);
typedef void (*pb_plugin_fini_fn)(void *payload);

#ifdef __cplusplus
}
#endif
#endif
