/* Informed RRT* (Gammell, Srinivasa & Barfoot 2014): RRT* (rrtstar_core.c) that, once a
 * solution of cost c is known, samples only the informed set {x : d(start, x) + d(x, goal)
 * <= c} - the only states that can still improve the solution - and prunes the tree of
 * nodes whose cost-to-come plus straight-line cost-to-go exceeds c.
 *
 * Sampling the informed set: when the engine's metric is (weighted) Euclidean the set is a
 * prolate hyperspheroid with the start and goal as foci, transverse radius c/2 and conjugate
 * radii sqrt(c^2 - c_min^2)/2. A uniform sample of the unit n-ball (a Gaussian direction
 * times U^(1/n)) is scaled by those radii, rotated onto the foci axis by a Householder
 * reflection (the ball is symmetric, so a reflection serves as well as a rotation) and
 * shifted to the foci's midpoint; samples outside the bounds are rejected. When the bounds
 * are the smaller set (early, with a long first path), samples are drawn from the bounds and
 * rejected by the informed condition instead, as OMPL's direct informed sampler does.
 *
 * Wrapping coordinates (angles) or a black-box metric: the set is no ellipsoid. The planner
 * then draws from the bounds and keeps a sample only when it satisfies the informed
 * condition under the engine's own metric, giving up after a bounded number of tries and
 * using the plain uniform sample (plain RRT* sampling); pruning is unchanged, as it only
 * needs the triangle inequality. */
#include "planners/informed.h"

#include <math.h>
#include <string.h>

/* Tries before a draw from either set gives up. */
#define MAX_TRIES 100

double pb_unit_ball_volume(int dim)
{
    return pow(M_PI, 0.5 * dim) / tgamma(0.5 * dim + 1.0);
}

void pb_informed_init(pb_informed_sampler *sampler, const pb_engine *engine, const double *start,
                      const double *goal)
{
    memset(sampler, 0, sizeof *sampler);
    const int dim = pb_engine_dim(engine);
    sampler->dim = dim;
    sampler->start = start;
    sampler->goal = goal;
    sampler->unit_ball_volume = pb_unit_ball_volume(dim);
    const double *lower = pb_engine_lower(engine), *upper = pb_engine_upper(engine);
    sampler->bounds_volume = 1.0;
    for (int i = 0; i < dim; i++)
        sampler->bounds_volume *= upper[i] - lower[i];

    double periods[PB_MAX_DIM];
    sampler->exact = pb_engine_metric(engine, sampler->weight, periods);
    for (int i = 0; i < dim; i++)
        sampler->exact = sampler->exact && periods[i] == 0.0 && sampler->weight[i] > 0.0;
    if (!sampler->exact)
        return;

    double axis[PB_MAX_DIM], norm2 = 0.0;
    for (int i = 0; i < dim; i++) {
        axis[i] = sampler->weight[i] * (goal[i] - start[i]);
        sampler->centre[i] = 0.5 * sampler->weight[i] * (goal[i] + start[i]);
        norm2 += axis[i] * axis[i];
    }
    sampler->c_min = sqrt(norm2);
    if (!(sampler->c_min > 0.0)) {
        sampler->exact = false; /* start == goal: nothing to focus on */
        return;
    }
    /* v = e1 - a (a the unit axis); the reflection I - 2 v v^T / (v^T v) maps e1 to a. */
    double vv = 0.0;
    for (int i = 0; i < dim; i++) {
        sampler->householder[i] = (i == 0 ? 1.0 : 0.0) - axis[i] / sampler->c_min;
        vv += sampler->householder[i] * sampler->householder[i];
    }
    sampler->householder_norm2 = vv > 1e-24 ? vv : 0.0;
}

static bool inside_bounds(const pb_engine *engine, const double *q, int dim)
{
    const double *lower = pb_engine_lower(engine), *upper = pb_engine_upper(engine);
    for (int i = 0; i < dim; i++)
        if (!(q[i] >= lower[i] && q[i] < upper[i]))
            return false;
    return true;
}

/* Uniform in the unit `dim`-ball. */
static void sample_unit_ball(pb_rng *rng, int dim, double *out)
{
    double norm2;
    do {
        norm2 = 0.0;
        for (int i = 0; i < dim; i++) {
            out[i] = pb_rng_normal(rng);
            norm2 += out[i] * out[i];
        }
    } while (!(norm2 > 0.0));
    const double scale = pow(pb_rng_uniform(rng), 1.0 / dim) / sqrt(norm2);
    for (int i = 0; i < dim; i++)
        out[i] *= scale;
}

static bool sample_ellipsoid(const pb_informed_sampler *s, const pb_engine *engine, pb_rng *rng,
                             double c_best, double *out)
{
    const int dim = s->dim;
    const double transverse = 0.5 * c_best;
    const double conjugate = 0.5 * sqrt(fmax(0.0, c_best * c_best - s->c_min * s->c_min));
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
        double y[PB_MAX_DIM];
        sample_unit_ball(rng, dim, y);
        y[0] *= transverse;
        for (int i = 1; i < dim; i++)
            y[i] *= conjugate;
        if (s->householder_norm2 > 0.0) {
            double vy = 0.0;
            for (int i = 0; i < dim; i++)
                vy += s->householder[i] * y[i];
            const double f = 2.0 * vy / s->householder_norm2;
            for (int i = 0; i < dim; i++)
                y[i] -= f * s->householder[i];
        }
        for (int i = 0; i < dim; i++)
            out[i] = (y[i] + s->centre[i]) / s->weight[i];
        if (inside_bounds(engine, out, dim))
            return true;
    }
    return false;
}

static bool sample_rejection(const pb_informed_sampler *s, const pb_engine *engine, pb_rng *rng,
                             double c_best, double *out)
{
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
        pb_engine_sample(engine, rng, out);
        if (pb_engine_distance(engine, s->start, out) + pb_engine_distance(engine, out, s->goal) <= c_best)
            return true;
    }
    return false;
}

bool pb_informed_sample(const pb_informed_sampler *sampler, const pb_engine *engine, pb_rng *rng,
                        double c_best, double *out)
{
    if (sampler->exact && isfinite(c_best)) {
        /* Volume of the hyperspheroid in x: unit ball * radii / prod(weights). */
        double volume = sampler->unit_ball_volume * 0.5 * c_best;
        const double conjugate = 0.5 * sqrt(fmax(0.0, c_best * c_best - sampler->c_min * sampler->c_min));
        for (int i = 1; i < sampler->dim; i++)
            volume *= conjugate;
        for (int i = 0; i < sampler->dim; i++)
            volume /= sampler->weight[i];
        if (volume < sampler->bounds_volume && sample_ellipsoid(sampler, engine, rng, c_best, out))
            return true;
    }
    if (isfinite(c_best) && sample_rejection(sampler, engine, rng, c_best, out))
        return true;
    pb_engine_sample(engine, rng, out);
    return false;
}
