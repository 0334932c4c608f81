/* RRT* (Karaman & Frazzoli 2011), anytime: the algorithm lives in rrtstar_core.c, shared
 * with Informed RRT*. */
#include "planners/rrtstar_core.h"

static const pb_param_def rrtstar_param_defs[] = {
    PB_RRTSTAR_PARAM_DEFS,
};

static pb_status rrtstar_solve(const void *params, pb_solve_ctx *ctx, pb_result *result)
{
    return pb_rrtstar_solve(params, false, ctx, result);
}

static const char *const rrtstar_aliases[] = {"rrt_star", NULL};

const pb_planner_impl pb_rrtstar_impl = {
    .name = "rrtstar",
    .aliases = rrtstar_aliases,
    .summary =
        "RRT* (Karaman & Frazzoli 2011): choose-parent and rewiring, k-nearest or shrinking radius, anytime",
    .params = rrtstar_param_defs,
    .n_params = sizeof rrtstar_param_defs / sizeof rrtstar_param_defs[0],
    .params_size = sizeof(pb_rrtstar_params),
    .anytime = true,
    .one_way_edges = true,
    .solve = rrtstar_solve,
};
