/* RRT* and Informed RRT* (private to the library): one solve function shared by the
 * "rrtstar" and "informedrrt" planners, and the informed sampler. */
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

/** Uniform sampling of the informed set {x : d(start, x) + d(x, goal) <= c} intersected with
 * the bounds (Gammell et al. 2014/2018): the prolate hyperspheroid with foci start and goal,
 * or rejection from the bounds when that is the smaller set. */
typedef struct pb_informed_sampler {
    int dim;
    bool exact;                     /**< the metric is (weighted) Euclidean: the ellipsoid is exact */
    double weight[PB_MAX_DIM];      /**< metric weights: the ellipsoid lives in y = weight * x */
    double centre[PB_MAX_DIM];      /**< midpoint of the foci, in y */
    double householder[PB_MAX_DIM]; /**< v of the reflection I - 2 v v^T / v^T v taking e1 to the foci axis */
    double householder_norm2;       /**< v^T v; 0 when the axis already is e1 */
    double c_min;                   /**< distance between the foci */
    double bounds_volume;           /**< volume of the bounds, in x */
    double unit_ball_volume;        /**< of the dim-ball */
    const double *start, *goal;     /**< borrowed */
} pb_informed_sampler;

/** Prepare sampling for the foci `start` and `goal` (borrowed for the sampler's life). */
void pb_informed_init(pb_informed_sampler *sampler, const pb_engine *engine, const double *start,
                      const double *goal);

/** Draw a configuration of the informed set for the best cost `c_best` into `out`. Returns
 * false when the set could not be hit in a bounded number of tries (then `out` is a
 * uniform sample of the bounds, which is still correct, only less focused). */
bool pb_informed_sample(const pb_informed_sampler *sampler, const pb_engine *engine, pb_rng *rng,
                        double c_best, double *out);

/** Volume of the unit ball in `dim` dimensions, pi^(d/2) / Gamma(d/2 + 1). */
double pb_unit_ball_volume(int dim);

#endif
