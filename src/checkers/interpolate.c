/* Interpolated edge checks for engines without a line primitive of their own. */
#include "checkers/interpolate.h"
#include "checkers/checkers.h"

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

bool pb_edge_interpolated(const pb_engine *engine, const void *self, pb_state_check_fn check, const double *a,
                          const double *b, double resolution, bool bisection, pb_engine_counters *counters)
{
    double q[PB_MAX_DIM];
    /* n segments of length <= resolution: n + 1 configurations, endpoints included. */
    const uint64_t n = pb_edge_segments(pb_engine_distance(engine, a, b), resolution);

    counters->n_edge_states++;
    if (!check(self, a, counters))
        return false;
    counters->n_edge_states++;
    if (!check(self, b, counters))
        return false;
    pb_edge_order order;
    pb_edge_order_init(&order, n, bisection);
    uint64_t i;
    while (pb_edge_order_next(&order, &i)) {
        pb_engine_interpolate(engine, a, b, (double)i / (double)n, q);
        counters->n_edge_states++;
        if (!check(self, q, counters))
            return false;
    }
    return true;
}
