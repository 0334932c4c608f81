/* Informed RRT* (Gammell, Srinivasa & Barfoot 2014), anytime: RRT* (rrtstar_core.c) sampling
 * the informed set (informed.c) and pruning. */
#include "planners/rrtstar_core.h"

static const pb_param_def informed_param_defs[] = {
    PB_RRTSTAR_PARAM_DEFS,
    {"prune_threshold", PB_PARAM_DOUBLE, offsetof(pb_rrtstar_params, prune_threshold), 0.0, 0.05, 1.0,
     "prune the tree when the best cost fell by this fraction since the last prune; 0 = at every "
     "improvement"},
};

static pb_status informed_solve(const void *params, pb_solve_ctx *ctx, pb_result *result)
{
    return pb_rrtstar_solve(params, true, ctx, result);
}

static const char *const informed_aliases[] = {"informed_rrtstar", "informedrrtstar", NULL};

const pb_planner_impl pb_informedrrt_impl = {
    .name = "informedrrt",
    .aliases = informed_aliases,
    .summary =
        "Informed RRT* (Gammell et al. 2014): RRT* sampling the informed ellipsoid and pruning, anytime",
    .params = informed_param_defs,
    .n_params = sizeof informed_param_defs / sizeof informed_param_defs[0],
    .params_size = sizeof(pb_rrtstar_params),
    .anytime = true,
    .one_way_edges = true,
    .solve = informed_solve,
};
