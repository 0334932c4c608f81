/* /plan_path: plan for an entity in the C-space of its footprint.
 *
 * Design: a footprint engine on top of the world's image engine. Its configuration is
 * (x, y) for a disc (rotation does not change a disc) and (x, y, yaw) otherwise, yaw wrapping
 * and weighted by the footprint's reach so one metric unit is about one pixel of motion.
 * feasible(q) is the footprint check at q against the map pixels and every other entity
 * (the entity itself ignored); visible() is the core's interpolated edge at 0.5 units. Any
 * registered planner runs on it unchanged. */
#include "planbench/impl/engine_impl.h"
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct footprint_space {
    pb_engine *base; /* borrowed: the world's engine */
    pb_footprint footprint;
    uint32_t ignore;
    double fixed_yaw; /* discs: the yaw kept along the path */
} footprint_space;

static bool fs_feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    const footprint_space *fs = self;
    const double pose[3] = {q[0], q[1], fs->footprint.type == PB_FOOTPRINT_DISC ? fs->fixed_yaw : q[2]};
    pb_hit hit;
    counters->n_edge_states += 0;
    return pb_engine_footprint_check(fs->base, &fs->footprint, pose, fs->ignore, &hit) == PB_OK &&
           hit.kind == PB_HIT_NONE;
}

static void fs_destroy(void *self)
{
    free(self);
}

static const pb_engine_impl footprint_space_impl = {
    .name = "sim-footprint",
    .summary = "an entity's footprint on a world's engine (simulation service)",
    .destroy = fs_destroy,
    .feasible = fs_feasible,
};

static double reach(const pb_footprint *fp)
{
    switch (fp->type) {
    case PB_FOOTPRINT_RECT:
        return hypot(fp->half_length, fp->half_width);
    case PB_FOOTPRINT_ARM:
        return fp->link1 + fp->link2;
    default:
        return fp->radius;
    }
}

pb_status sim_plan(pb_engine *world_engine, const pb_footprint *fp, uint32_t self, const double *start,
                   const double *goal, const char *planner_name, double time_limit, uint64_t seed,
                   double **path, size_t *n_path, double *cost, const char **outcome, char *why,
                   size_t why_size);

pb_status sim_plan(pb_engine *world_engine, const pb_footprint *fp, uint32_t self, const double *start,
                   const double *goal, const char *planner_name, double time_limit, uint64_t seed,
                   double **path, size_t *n_path, double *cost, const char **outcome, char *why,
                   size_t why_size)
{
    footprint_space *fs = calloc(1, sizeof *fs);
    if (!fs)
        return PB_ERR_NOMEM;
    *fs = (footprint_space){world_engine, *fp, self, start[2]};
    const int dim = fp->type == PB_FOOTPRINT_DISC ? 2 : 3;
    pb_engine_setup setup = pb_engine_setup_default(dim);
    for (int k = 0; k < 2; k++) {
        setup.lower[k] = pb_engine_lower(world_engine)[k];
        setup.upper[k] = pb_engine_upper(world_engine)[k];
    }
    if (dim == 3) {
        setup.lower[2] = -M_PI;
        setup.upper[2] = M_PI;
        setup.periods[2] = 2 * M_PI;
        setup.weights[2] = reach(fp) > 1.0 ? reach(fp) : 1.0;
    }
    setup.resolution = 0.5;
    pb_engine *space = NULL;
    pb_planner *planner = NULL;
    pb_diag diag = {0};
    pb_status st = pb_engine_create(&space, &footprint_space_impl, fs, &setup, &diag);
    if (st != PB_OK) {
        snprintf(why, why_size, "%s", diag.message);
        return st;
    }
    st = pb_planner_create(&planner, planner_name, space, &diag);
    if (st != PB_OK) {
        snprintf(why, why_size, "%s", diag.message);
        pb_engine_destroy(space);
        return st;
    }
    pb_planner_set_seed(planner, seed);
    pb_result result;
    pb_result_init(&result, dim);
    pb_stop stop = pb_stop_default();
    stop.time_limit_s = time_limit;
    const pb_problem problem = {start, goal, 2.0 + reach(fp) * 0.0 + 1.0};
    st = pb_planner_solve(planner, &problem, &stop, &result);
    *outcome = pb_outcome_str(result.outcome);
    *n_path = 0;
    if (st == PB_OK && result.outcome == PB_OUTCOME_EXACT) {
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        pb_path_simplify(&result.path, space, &rng, 50, NULL, NULL);
        double *p = realloc(*path, (result.path.n ? result.path.n : 1) * 3 * sizeof *p);
        if (!p) {
            st = PB_ERR_NOMEM;
        } else {
            *path = p;
            for (size_t i = 0; i < result.path.n; i++) {
                const double *q = pb_path_at(&result.path, i);
                p[3 * i] = q[0];
                p[3 * i + 1] = q[1];
                p[3 * i + 2] = dim == 3 ? q[2] : start[2];
            }
            *n_path = result.path.n;
            *cost = pb_path_length(&result.path, space);
        }
    } else {
        *cost = INFINITY;
    }
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(space);
    return st;
}
