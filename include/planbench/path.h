/* planbench: paths, sequences of configurations. */
#ifndef PLANBENCH_PATH_H
#define PLANBENCH_PATH_H

#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A path of `n` configurations of `dim` coordinates each, stored row after row in `q`.
 * Plain caller storage: pb_path_init() / pb_path_finish(). */
typedef struct pb_path {
    int dim;
    size_t n;
    size_t capacity; /**< configurations that fit in `q` before it grows */
    double *q;       /**< n * dim values, owned by the path */
} pb_path;

/** Make an empty path of dimension `dim` (1..PB_MAX_DIM). Allocates nothing yet. */
PB_API void pb_path_init(pb_path *path, int dim);
/** Free what the path holds; the struct may be initialised again. NULL is accepted. */
PB_API void pb_path_finish(pb_path *path);
/** Append a copy of `q` (dim values). */
PB_API pb_status pb_path_append(pb_path *path, const double *q);
/** Remove every configuration, keeping the memory. */
PB_API void pb_path_clear(pb_path *path);
/** Reverse the order in place. */
PB_API void pb_path_reverse(pb_path *path);
/** Replace `dst`'s contents with a copy of `src` (same dim). */
PB_API pb_status pb_path_copy(pb_path *dst, const pb_path *src);
/** The i-th configuration, borrowed until the path changes. */
static inline const double *pb_path_at(const pb_path *path, size_t i)
{
    return path->q + i * (size_t)path->dim;
}
/** Sum of the engine's distances between consecutive configurations; 0 for n < 2. */
PB_API double pb_path_length(const pb_path *path, const pb_engine *engine);

/** Re-validate a path independently of the planner that made it: it must begin exactly at
 * `start`, end exactly at `goal` (when not NULL), and every configuration and edge must be
 * feasible and visible. Returns true when valid; otherwise `diag` says which edge failed. */
PB_API bool pb_path_validate(const pb_path *path, pb_engine *engine, const double *start, const double *goal,
                             pb_diag *diag);

/** The random shortcuts a path is given when it is simplified (`--simplify`, the
 * simulation's plans): the one place that decides the effort. */
#define PB_SIMPLIFY_TRIES 200

/** Shorten a path in place (shortcutting): `max_random_tries` random shortcuts between two
 * points drawn uniformly by arc length (possibly inside edges, joined when the new edges are
 * free and the path gets shorter), then a greedy pass (from each waypoint to the farthest
 * later waypoint it sees), then removal of duplicate and collinear waypoints. Every new edge
 * is checked with pb_engine_visible in the path's direction; the first and last
 * configurations stay bit for bit the same and the length never increases. Randomness comes
 * from `rng`. `cost_before` and `cost_after` (each may be NULL) get the length under the
 * engine's metric before and after. On PB_ERR_NOMEM the path is left as it was. */
PB_API pb_status pb_path_simplify(pb_path *path, pb_engine *engine, pb_rng *rng, int max_random_tries,
                                  double *cost_before, double *cost_after);

/** Write the path as CSV, one configuration per line ("x,y" in 2D), 17 significant digits,
 * atomically: a temporary file beside `file` renamed over it, so a failure leaves no
 * half-written file. */
PB_API pb_status pb_path_save_csv(const pb_path *path, const char *file, pb_diag *diag);

/** Write the path with the names of its coordinates (`names[k]` for k < dim, e.g. a
 * manipulator's joint names from pb_engine_coordinate_name()), atomically as above. A `file`
 * ending in ".json" gets ROS's trajectory_msgs/JointTrajectory as JSON (joint_names, and per
 * waypoint positions and a time_from_start: the path's length so far, counting each edge as
 * its largest coordinate change, at 1 unit per second); any other a CSV whose first line is the
 * names. */
PB_API pb_status pb_path_save_named(const pb_path *path, const char *file, const char *const *names,
                                    pb_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
