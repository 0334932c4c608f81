/* Interpolated edge checks for engines without a line primitive of their own. */
#include "checkers/interpolate.h"
#include "checkers/checkers.h"

#include "core/metric.h"

#include <math.h>

uint64_t pb_edge_segments(double length, double resolution)
{
    const double segments = ceil(length / resolution);
    if (!(segments >= 1.0))
        return 1;
    return segments > (double)PB_EDGE_MAX_SEGMENTS ? PB_EDGE_MAX_SEGMENTS : (uint64_t)segments;
}

void pb_edge_order_init(pb_edge_order *order, uint64_t n_segments, bool bisection)
{
    if (n_segments < 1)
        n_segments = 1;
    if (n_segments > PB_EDGE_MAX_SEGMENTS)
        n_segments = PB_EDGE_MAX_SEGMENTS;
    *order = (pb_edge_order){.n = n_segments, .bisection = bisection, .depth = 0, .k = 0, .next_i = 1};
}

bool pb_edge_order_next(pb_edge_order *order, uint64_t *index)
{
    const uint64_t n = order->n;
    if (!order->bisection) {
        if (order->next_i >= n)
            return false;
        *index = order->next_i++;
        return true;
    }
    /* Depth d has 2^d intervals [floor(k n / 2^d), floor((k+1) n / 2^d)]; once 2^d >= n they
     * are at most one segment long and nothing is left to split. A midpoint that falls on an
     * interval's end is an index already visited at a shallower depth (or an endpoint). The
     * products stay below 2 n^2 <= 2^61 with n <= 2^30. */
    while (((uint64_t)1 << order->depth) < n) {
        const unsigned d = order->depth;
        const uint64_t k = order->k;
        if (k >= ((uint64_t)1 << d)) {
            order->depth++;
            order->k = 0;
            continue;
        }
        order->k++;
        const uint64_t lo = (k * n) >> d;
        const uint64_t hi = ((k + 1) * n) >> d;
        const uint64_t mid = ((2 * k + 1) * n) >> (d + 1);
        if (mid > lo && mid < hi) {
            *index = mid;
            return true;
        }
    }
    return false;
}

bool pb_edge_interpolated(const pb_engine_config *setup, const void *self, pb_state_check_fn check,
                          pb_interpolate_fn interpolate, double length, const double *a, const double *b,
                          pb_engine_counters *counters)
{
    double q[PB_MAX_DIM];
    /* n segments of length <= resolution: n + 1 configurations, endpoints included. */
    const uint64_t n = pb_edge_segments(length, setup->resolution);

    counters->n_edge_states++;
    if (!check(self, a, counters))
        return false;
    counters->n_edge_states++;
    if (!check(self, b, counters))
        return false;
    pb_edge_order order;
    pb_edge_order_init(&order, n, setup->bisection);
    uint64_t i;
    while (pb_edge_order_next(&order, &i)) {
        const double t = (double)i / (double)n;
        if (interpolate)
            interpolate(self, a, b, t, q);
        else
            pb_setup_interpolate(setup, a, b, t, q);
        counters->n_edge_states++;
        if (!check(self, q, counters))
            return false;
    }
    return true;
}

void pb_setup_interpolate(const pb_engine_config *setup, const double *a, const double *b, double t,
                          double *out)
{
    for (int i = 0; i < setup->dim; i++) {
        const double period = setup->periods[i];
        if (t >= 1.0) {
            out[i] = b[i]; /* the exact endpoint, not a rounded one */
            continue;
        }
        double v = a[i] + t * pb_coord_delta(a[i], b[i], period);
        if (period > 0.0) {
            /* back into [lower, lower + period) */
            const double lo = setup->lower[i];
            v = lo + fmod(v - lo, period);
            if (v < lo)
                v += period;
        }
        out[i] = v;
    }
}

double pb_setup_distance(const pb_engine_config *setup, const double *a, const double *b)
{
    double sum = 0.0;
    for (int i = 0; i < setup->dim; i++) {
        const double d = setup->weights[i] * pb_coord_delta(a[i], b[i], setup->periods[i]);
        sum += d * d;
    }
    return sqrt(sum);
}

double pb_setup_clearance_floor(const pb_engine_config *setup)
{
    return setup->clearance_floor > 0.0 ? setup->clearance_floor : 0.25 * setup->resolution;
}

/* Stretches [lo, hi] of t not yet certified; depth first, so at most one per halving. */
#define CERTIFY_STACK 160

bool pb_certify_interval(pb_reach_fn reach, const void *ctx, pb_engine_counters *counters)
{
    counters->n_edge_states++;
    const double r0 = reach(ctx, 0.0);
    if (!(r0 > 0.0))
        return false;
    if (r0 >= 1.0)
        return true;
    counters->n_edge_states++;
    const double r1 = reach(ctx, 1.0);
    if (!(r1 > 0.0))
        return false;
    double stack_lo[CERTIFY_STACK], stack_hi[CERTIFY_STACK];
    int top = 0;
    if (r0 < 1.0 - r1) {
        stack_lo[top] = r0;
        stack_hi[top++] = 1.0 - r1;
    }
    while (top > 0) {
        top--;
        const double lo = stack_lo[top], hi = stack_hi[top];
        const double mid = 0.5 * (lo + hi);
        counters->n_edge_states++;
        const double r = reach(ctx, mid);
        if (!(r > 0.0))
            return false;
        /* each piece is at most half of [lo, hi], so depth first the stack holds about one
         * piece per halving, and halvings stop once a piece is shorter than the smallest
         * reach: log2(1 / smallest reach) levels. A full stack answers blocked, never free. */
        if (top + 2 > CERTIFY_STACK)
            return false;
        if (mid + r < hi) {
            stack_lo[top] = mid + r;
            stack_hi[top++] = hi;
        }
        if (mid - r > lo) {
            stack_lo[top] = lo;
            stack_hi[top++] = mid - r;
        }
    }
    return true;
}

/* pb_edge_certified()'s reach: the clearance at q(t) over the edge's length. */
typedef struct clearance_edge {
    const pb_engine_config *setup;
    const void *self;
    pb_clearance_fn clearance;
    const double *a, *b;
    double length, floor_clearance;
    pb_engine_counters *counters;
} clearance_edge;

static double clearance_reach(const void *ctx, double t)
{
    const clearance_edge *e = ctx;
    double q[PB_MAX_DIM];
    pb_setup_interpolate(e->setup, e->a, e->b, t, q);
    const double c = e->clearance(e->self, t <= 0.0 ? e->a : q, e->counters);
    if (!(c >= e->floor_clearance))
        return -1.0;
    /* the factor keeps the rounding of interpolated configurations (relative 1e-16) on the
     * safe side */
    return c * (1.0 - 1e-9) / e->length;
}

bool pb_edge_certified(const pb_engine_config *setup, const void *self, pb_clearance_fn clearance,
                       const double *a, const double *b, pb_engine_counters *counters)
{
    const double length = pb_setup_distance(setup, a, b);
    if (!isfinite(length))
        return false;
    if (length == 0.0) { /* one configuration */
        counters->n_edge_states++;
        return clearance(self, a, counters) >= pb_setup_clearance_floor(setup);
    }
    const clearance_edge e = {setup,   self, clearance, a, b, length, pb_setup_clearance_floor(setup),
                              counters};
    return pb_certify_interval(clearance_reach, &e, counters);
}
