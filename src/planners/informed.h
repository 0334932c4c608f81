/* The informed sampler of Informed RRT* and BIT* (private to the library): uniform samples of
 * the set of states that can still improve a solution. */
#ifndef PB_PLANNERS_INFORMED_H
#define PB_PLANNERS_INFORMED_H

#include "planbench/impl/planner_impl.h"

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
