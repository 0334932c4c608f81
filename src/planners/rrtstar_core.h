/* RRT* and Informed RRT* (private to the library): one solve function shared by the
 * "rrtstar" and "informedrrt" planners (the informed sampler is informed.h). */
#ifndef PB_PLANNERS_RRTSTAR_CORE_H
#define PB_PLANNERS_RRTSTAR_CORE_H

#include "planbench/impl/planner_impl.h"
#include "core/params.h"

/** The parameters of both planners (the informed ones are ignored by plain RRT*). */
typedef struct pb_rrtstar_params {
    double step_size;     /**< largest extension, metric units; 0 = the engine's default step */
    double goal_bias;     /**< probability of sampling the goal */
    bool use_k_nearest;   /**< k-nearest neighbours (true) or the shrinking radius (false) */
    double rewire_factor; /**< scales k or the radius above the theoretical minimum */
    double
        prune_threshold; /**< informed: prune when the best cost fell by this fraction since the last prune */
} pb_rrtstar_params;

/** Parameter-table entries shared by both planners. */
#define PB_RRTSTAR_PARAM_DEFS                                                                                \
    PB_PARAM_STEP_SIZE(pb_rrtstar_params), PB_PARAM_GOAL_BIAS(pb_rrtstar_params, 0.05),                      \
        {"use_k_nearest",                                                                                    \
         PB_PARAM_BOOL,                                                                                      \
         offsetof(pb_rrtstar_params, use_k_nearest),                                                         \
         0.0,                                                                                                \
         1.0,                                                                                                \
         1.0,                                                                                                \
         "connect to the k nearest, k = ceil(rewire_factor * e * (1 + 1/d) * log n); false: the shrinking "  \
         "radius min(step_size, gamma * (log n / n)^(1/d))"},                                                \
    {                                                                                                        \
        "rewire_factor", PB_PARAM_DOUBLE, offsetof(pb_rrtstar_params, rewire_factor), 1.0, 1.1, 1000.0,      \
            "multiplies k or gamma above the bound of Karaman & Frazzoli (>= 1 keeps asymptotic optimality)" \
    }

/** Solve with RRT* (`informed` false) or Informed RRT* (`informed` true). */
pb_status pb_rrtstar_solve(const pb_rrtstar_params *params, bool informed, pb_solve_ctx *ctx,
                           pb_result *result);

#endif
