/* Interpolated edge checks (src/checkers/interpolate.c) and the n-dimensional metric:
 * the visiting orders, the classic thin-obstacle bug in both orders and both directions,
 * edge states counted apart from feasible calls, and angle wrap in the distance, the
 * interpolation and nearest-neighbour search. */
#include "checkers/checkers.h"
#include "checkers/interpolate.h"
#include "planbench/impl/engine_impl.h"
#include "core/nn.h"
#include "harness.h"
#include "planbench/planbench.h"

#include <stdlib.h>
#include <string.h>

/* ---- the visiting orders ------------------------------------------------------------- */

static void test_orders(void)
{
    static unsigned char seen[5000];
    for (uint64_t n = 1; n <= 4200; n += (n < 300 ? 1 : 97)) {
        for (int bisection = 0; bisection <= 1; bisection++) {
            memset(seen, 0, sizeof seen);
            pb_edge_order order;
            pb_edge_order_init(&order, n, bisection);
            uint64_t i, count = 0, first = 0, previous = 0;
            bool in_range = true, sequential_ok = true;
            /* bisection: once the first 2^d - 1 indices are visited, every gap between
             * visited points (and the endpoints) is at most ceil(n / 2^d) */
            bool gaps_ok = true;
            while (pb_edge_order_next(&order, &i)) {
                if (i < 1 || i >= n) {
                    in_range = false;
                    break;
                }
                if (count == 0)
                    first = i;
                if (!bisection && count > 0 && i != previous + 1)
                    sequential_ok = false;
                previous = i;
                seen[i]++;
                count++;
                if (bisection && ((count + 1) & count) == 0) { /* count = 2^d - 1 */
                    const uint64_t levels = count + 1;
                    const uint64_t max_gap = (n + levels - 1) / levels;
                    uint64_t last = 0;
                    for (uint64_t j = 1; j <= n; j++) {
                        if (j == n || seen[j]) {
                            if (j - last > max_gap)
                                gaps_ok = false;
                            last = j;
                        }
                    }
                }
            }
            CHECK_MSG(in_range, "n=%llu: index out of range", (unsigned long long)n);
            CHECK_MSG(count == n - 1, "n=%llu bisection=%d: %llu indices, want %llu", (unsigned long long)n,
                      bisection, (unsigned long long)count, (unsigned long long)(n - 1));
            bool once = true;
            for (uint64_t j = 1; j < n; j++)
                once = once && seen[j] == 1;
            CHECK_MSG(once, "n=%llu bisection=%d: an index is missing or repeated", (unsigned long long)n,
                      bisection);
            if (bisection && n >= 2)
                CHECK_MSG(first == n / 2, "n=%llu: the first index is %llu, not the midpoint",
                          (unsigned long long)n, (unsigned long long)first);
            if (bisection)
                CHECK_MSG(gaps_ok, "n=%llu: gaps do not halve level by level", (unsigned long long)n);
            else
                CHECK(sequential_ok);
        }
    }
    /* the exact order on a power of two */
    pb_edge_order order;
    pb_edge_order_init(&order, 8, true);
    const uint64_t want[] = {4, 2, 6, 1, 3, 5, 7};
    uint64_t i;
    for (size_t k = 0; k < 7; k++)
        CHECK(pb_edge_order_next(&order, &i) && i == want[k]);
    CHECK(!pb_edge_order_next(&order, &i));
}

/* ---- a black-box world with one thin wall ------------------------------------------- */

typedef struct wall {
    int axis;       /* the coordinate the wall is thin in */
    double lo, hi;  /* occupied where lo <= q[axis] < hi */
    uint64_t calls; /* feasible calls seen by the callback */
} wall;

static bool wall_free(const double *q, void *ctx)
{
    wall *w = ctx;
    w->calls++;
    return !(q[w->axis] >= w->lo && q[w->axis] < w->hi);
}

static pb_engine *make_engine(int dim, wall *w, double resolution, bool sequential)
{
    pb_blackbox_config params = pb_blackbox_config_default(dim);
    for (int i = 0; i < dim; i++) {
        params.lower[i] = -1.0;
        params.upper[i] = 1.0;
    }
    params.feasible = wall_free;
    params.payload = w;
    params.resolution = resolution;
    params.sequential_edges = sequential;
    pb_engine *engine = NULL;
    pb_diag diag;
    const pb_status st = pb_blackbox_create(&engine, &params, &diag);
    CHECK_MSG(st == PB_OK, "%s", diag.message);
    return engine;
}

static void test_thin_obstacle(void)
{
    /* The classic bug: checking only the endpoints, or stepping by more than the obstacle's
     * width, jumps over a wall thinner than the edge. A wall wider than the resolution must
     * be caught wherever it stands along the edge, from either end, in both orders. */
    const double resolution = 0.01;
    pb_rng rng;
    pb_rng_seed(&rng, 42);
    int missed = 0, trials = 0;
    for (int dim = 2; dim <= 5; dim++) {
        for (int sequential = 0; sequential <= 1; sequential++) {
            wall w = {.axis = 0};
            pb_engine *engine = make_engine(dim, &w, resolution, sequential);
            if (!engine)
                continue;
            for (int trial = 0; trial < 400; trial++) {
                double a[PB_MAX_DIM], b[PB_MAX_DIM];
                for (int i = 0; i < dim; i++) {
                    a[i] = pb_rng_range(&rng, -0.9, 0.9);
                    b[i] = pb_rng_range(&rng, -0.9, 0.9);
                }
                /* the edge crosses the wall's axis from below -0.5 to above 0.5, moving in
                 * every coordinate at once */
                a[0] = pb_rng_range(&rng, -0.95, -0.5);
                b[0] = pb_rng_range(&rng, 0.5, 0.95);
                w.axis = 0;
                const double width = resolution * pb_rng_range(&rng, 1.001, 3.0);
                w.lo = pb_rng_range(&rng, -0.45, 0.45 - width);
                w.hi = w.lo + width;
                trials += 2;
                CHECK(pb_engine_feasible(engine, a) && pb_engine_feasible(engine, b));
                if (pb_engine_visible(engine, a, b))
                    missed++;
                if (pb_engine_visible(engine, b, a))
                    missed++;
            }
            /* the fixed case of the issue, from both directions */
            double a[PB_MAX_DIM] = {-0.8}, b[PB_MAX_DIM] = {0.8};
            for (int i = 1; i < dim; i++) {
                a[i] = -0.3;
                b[i] = 0.4;
            }
            w.lo = 0.1234;
            w.hi = w.lo + 1.05 * resolution;
            CHECK_MSG(!pb_engine_visible(engine, a, b), "dim %d sequential %d: wall missed a->b", dim,
                      sequential);
            CHECK_MSG(!pb_engine_visible(engine, b, a), "dim %d sequential %d: wall missed b->a", dim,
                      sequential);
            /* no wall in the way: visible */
            w.lo = 0.85;
            w.hi = 0.9;
            CHECK(pb_engine_visible(engine, a, b));
            pb_engine_destroy(engine);
        }
    }
    CHECK_MSG(missed == 0, "%d of %d thin walls missed", missed, trials);
}

static void test_counters_and_order_cost(void)
{
    wall w = {.axis = 0, .lo = 2.0, .hi = 3.0}; /* no wall inside the bounds */
    pb_engine *seq = make_engine(2, &w, 0.01, true);
    pb_engine *bis = make_engine(2, &w, 0.01, false);
    if (!seq || !bis)
        return;
    const double a[2] = {-0.9, 0.0}, b[2] = {0.9, 0.0}; /* 1.8 long: 180 segments, 181 states */
    CHECK(pb_engine_visible(seq, a, b));
    CHECK(pb_engine_visible(bis, a, b));
    pb_engine_counters cs = pb_engine_get_counters(seq), cb = pb_engine_get_counters(bis);
    CHECK(cs.n_visible == 1 && cb.n_visible == 1);
    CHECK_MSG(cs.n_feasible == 0 && cb.n_feasible == 0, "edge states leaked into n_feasible");
    CHECK_MSG(cs.n_edge_states == 181, "sequential: %llu edge states", (unsigned long long)cs.n_edge_states);
    CHECK_MSG(cb.n_edge_states == 181, "bisection: %llu edge states", (unsigned long long)cb.n_edge_states);
    CHECK(w.calls == 2 * 181);
    pb_engine_feasible(seq, a);
    CHECK(pb_engine_get_counters(seq).n_feasible == 1 && pb_engine_get_counters(seq).n_edge_states == 181);

    /* a wall near the middle: bisection finds it within a few checks, sequential walks to it */
    w.lo = -0.005;
    w.hi = 0.015;
    pb_engine_reset_counters(seq);
    pb_engine_reset_counters(bis);
    CHECK(!pb_engine_visible(seq, a, b));
    CHECK(!pb_engine_visible(bis, a, b));
    cs = pb_engine_get_counters(seq);
    cb = pb_engine_get_counters(bis);
    CHECK_MSG(cb.n_edge_states == 3 && cs.n_edge_states == 92, "bisection %llu vs sequential %llu states",
              (unsigned long long)cb.n_edge_states, (unsigned long long)cs.n_edge_states);
    pb_engine_destroy(seq);
    pb_engine_destroy(bis);
}

/* ---- distance in n dimensions and angle wrap ---------------------------------------- */

static bool always_free(const double *q, void *ctx)
{
    (void)q;
    (void)ctx;
    return true;
}

static double manhattan(const double *a, const double *b, void *ctx)
{
    const int dim = *(const int *)ctx;
    double sum = 0.0;
    for (int i = 0; i < dim; i++)
        sum += fabs(a[i] - b[i]);
    return sum;
}

static void test_metric(void)
{
    /* the default metric uses every coordinate */
    pb_blackbox_config params = pb_blackbox_config_default(5);
    for (int i = 0; i < 5; i++) {
        params.lower[i] = -10;
        params.upper[i] = 10;
    }
    params.feasible = always_free;
    pb_engine *engine = NULL;
    CHECK(pb_blackbox_create(&engine, &params, NULL) == PB_OK);
    const double a5[5] = {0, 0, 0, 0, 0}, b5[5] = {1, 2, 3, 4, 5};
    CHECK_NEAR(pb_engine_distance(engine, a5, b5), sqrt(55.0), 1e-12);
    /* default resolution: 1/1000 of the bounds' diagonal */
    const double step = sqrt(5 * 400.0) / 1000.0;
    const double far[5] = {10 * step * 0.999, 0, 0, 0, 0};
    pb_engine_visible(engine, a5, far);
    CHECK_MSG(pb_engine_get_counters(engine).n_edge_states == 11, "%llu states for 10 resolutions",
              (unsigned long long)pb_engine_get_counters(engine).n_edge_states);
    pb_engine_destroy(engine);

    /* an angle coordinate: period 2*pi */
    params = pb_blackbox_config_default(3);
    params.lower[0] = params.lower[1] = 0;
    params.upper[0] = params.upper[1] = 10;
    params.lower[2] = -M_PI;
    params.upper[2] = M_PI;
    params.periods[2] = 2 * M_PI;
    params.feasible = always_free;
    CHECK(pb_blackbox_create(&engine, &params, NULL) == PB_OK);
    if (!engine)
        return;
    const double a[3] = {5, 5, -3.1}, b[3] = {5, 5, 3.1};
    CHECK_NEAR(pb_engine_distance(engine, a, b), 0.0832, 5e-5);
    CHECK_NEAR(pb_engine_distance(engine, a, b), 2 * M_PI - 6.2, 1e-12);
    CHECK_NEAR(pb_engine_distance(engine, b, a), 2 * M_PI - 6.2, 1e-12);
    double mid[3];
    pb_engine_interpolate(engine, a, b, 0.5, mid);
    CHECK_MSG(fabs(fabs(mid[2]) - M_PI) < 1e-9, "midpoint angle %g does not go through pi", mid[2]);
    for (double t = 0.0; t <= 1.0; t += 0.125) {
        pb_engine_interpolate(engine, a, b, t, mid);
        CHECK_MSG(fabs(mid[2]) >= 3.1 - 1e-12, "t=%g: angle %g went the long way round", t, mid[2]);
    }
    /* nearest-neighbour search agrees: 3.1 is nearer -3.1 than 2.9 */
    pb_nn *nn = NULL;
    CHECK(pb_nn_create(&nn, engine) == PB_OK);
    if (nn) {
        const double p0[3] = {5, 5, -3.1}, p1[3] = {5, 5, 2.9};
        pb_nn_add(nn, 0, p0);
        pb_nn_add(nn, 1, p1);
        double d;
        CHECK(pb_nn_nearest(nn, b, &d) == 0);
        CHECK_NEAR(d, 2 * M_PI - 6.2, 1e-9);
        pb_nn_destroy(nn);
    }
    /* an edge across the wrap checks configurations near +-pi, never near 0: as many as the
     * short way (0.0832) needs at 1/1000 of the diagonal, not the long way's */
    pb_engine_counters before = pb_engine_get_counters(engine);
    CHECK(pb_engine_visible(engine, a, b));
    const double resolution = sqrt(200.0 + 4 * M_PI * M_PI) / 1000.0;
    CHECK(pb_engine_get_counters(engine).n_edge_states - before.n_edge_states <=
          (uint64_t)ceil((2 * M_PI - 6.2) / resolution) + 1);
    pb_engine_destroy(engine);

    /* a custom metric is used by distance and by nearest-neighbour search (linear scan) */
    int dim = 2;
    params = pb_blackbox_config_default(2);
    params.feasible = always_free;
    params.distance = manhattan;
    params.payload = &dim;
    params.resolution = 0.01;
    CHECK(pb_blackbox_create(&engine, &params, NULL) == PB_OK);
    if (!engine)
        return;
    double weights[2], periods[2];
    CHECK(!pb_engine_metric(engine, weights, periods));
    const double p[2] = {0.1, 0.1}, q0[2] = {0.4, 0.4}, q1[2] = {0.6, 0.1};
    CHECK_NEAR(pb_engine_distance(engine, p, q0), 0.6, 1e-12);
    CHECK(pb_nn_create(&nn, engine) == PB_OK);
    if (nn) {
        /* Euclidean would pick q0 (0.42 against 0.5), Manhattan picks q1 (0.5 against 0.6) */
        pb_nn_add(nn, 0, q0);
        pb_nn_add(nn, 1, q1);
        double d;
        CHECK(pb_nn_nearest(nn, p, &d) == 1);
        CHECK_NEAR(d, 0.5, 1e-12);
        pb_nn_destroy(nn);
    }
    pb_engine_destroy(engine);
}

/* ---- certified edges from a clearance (pb_edge_certified) ------------------------------ */

/* Axis-aligned boxes in [-1, 1]^dim; the clearance is the exact Euclidean distance to the
 * nearest box and to the bounds' faces. */
#define MAX_BOXES 6
typedef struct boxes {
    int dim, n;
    double lo[MAX_BOXES][PB_MAX_DIM], hi[MAX_BOXES][PB_MAX_DIM];
} boxes;

static bool boxes_feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)counters;
    const boxes *b = self;
    for (int i = 0; i < b->dim; i++)
        if (!(q[i] >= -1.0 && q[i] <= 1.0))
            return false;
    for (int k = 0; k < b->n; k++) {
        bool inside = true;
        for (int i = 0; i < b->dim && inside; i++)
            inside = q[i] >= b->lo[k][i] && q[i] <= b->hi[k][i];
        if (inside)
            return false;
    }
    return true;
}

static double boxes_clearance(const void *self, const double *q, pb_engine_counters *counters)
{
    const boxes *b = self;
    if (!boxes_feasible(self, q, counters))
        return 0.0;
    double best = INFINITY;
    for (int i = 0; i < b->dim; i++)
        best = fmin(best, fmin(q[i] + 1.0, 1.0 - q[i]));
    for (int k = 0; k < b->n; k++) {
        double sum = 0.0;
        for (int i = 0; i < b->dim; i++) {
            const double d = fmax(0.0, fmax(b->lo[k][i] - q[i], q[i] - b->hi[k][i]));
            sum += d * d;
        }
        best = fmin(best, sqrt(sum));
    }
    return best;
}

/* Does the segment a-b meet box [lo - pad, hi + pad] (slab test, exact up to rounding)? */
static bool segment_meets_box(int dim, const double *a, const double *b, const double *lo, const double *hi,
                              double pad)
{
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < dim; i++) {
        const double d = b[i] - a[i], l = lo[i] - pad, h = hi[i] + pad;
        if (d == 0.0) {
            if (a[i] < l || a[i] > h)
                return false;
            continue;
        }
        double u0 = (l - a[i]) / d, u1 = (h - a[i]) / d;
        if (u0 > u1) {
            const double tmp = u0;
            u0 = u1;
            u1 = tmp;
        }
        t0 = fmax(t0, u0);
        t1 = fmin(t1, u1);
        if (t0 > t1)
            return false;
    }
    return true;
}

static void boxes_destroy(void *self)
{
    free(self);
}

static const pb_engine_impl boxes_impl = {
    .name = "test_boxes",
    .destroy = boxes_destroy,
    .feasible = boxes_feasible,
    .clearance = boxes_clearance,
};

static void test_certified(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 17);
    uint64_t n_free = 0, n_blocked = 0, queries = 0, edges = 0;
    int false_free = 0, missed_free = 0;
    for (int trial = 0; trial < 300; trial++) {
        const int dim = 2 + trial % 3;
        boxes *b = calloc(1, sizeof *b);
        b->dim = dim;
        b->n = 1 + trial % MAX_BOXES;
        for (int k = 0; k < b->n; k++) {
            /* thin walls: one coordinate 1e-2 .. 1e-5 wide, the others wide */
            const int thin = (int)pb_rng_range(&rng, 0.0, (double)dim);
            const double width = pow(10.0, -pb_rng_range(&rng, 2.0, 5.0));
            for (int i = 0; i < dim; i++) {
                const double c = pb_rng_range(&rng, -0.8, 0.8);
                const double half = i == thin ? 0.5 * width : pb_rng_range(&rng, 0.05, 0.6);
                b->lo[k][i] = c - half;
                b->hi[k][i] = c + half;
            }
        }
        pb_engine_config setup = pb_engine_config_default(dim);
        for (int i = 0; i < dim; i++) {
            setup.lower[i] = -1.0;
            setup.upper[i] = 1.0;
        }
        setup.resolution = 0.01;
        pb_engine *engine = NULL;
        pb_diag diag;
        CHECK_MSG(pb_engine_create(&engine, &boxes_impl, b, &setup, &diag) == PB_OK, "%s", diag.message);
        double floor_clearance = -1.0;
        CHECK(pb_engine_edge_check(engine, &floor_clearance) == PB_EDGE_CHECK_CERTIFIED);
        CHECK_NEAR(floor_clearance, 0.0025, 1e-15);
        for (int e = 0; e < 60; e++) {
            double qa[PB_MAX_DIM], qb[PB_MAX_DIM];
            for (int i = 0; i < dim; i++) {
                qa[i] = pb_rng_range(&rng, -0.99, 0.99);
                qb[i] = pb_rng_range(&rng, -0.99, 0.99);
            }
            /* the reference: the exact segment against every box, and the bounds (convex) */
            bool hits = !boxes_feasible(b, qa, NULL) || !boxes_feasible(b, qb, NULL);
            bool clear_by_twice_floor = true;
            for (int k = 0; k < b->n; k++) {
                hits = hits || segment_meets_box(dim, qa, qb, b->lo[k], b->hi[k], 0.0);
                if (segment_meets_box(dim, qa, qb, b->lo[k], b->hi[k], 2.0 * floor_clearance))
                    clear_by_twice_floor = false;
            }
            for (int i = 0; i < dim; i++)
                if (fmin(fmin(qa[i], qb[i]) + 1.0, 1.0 - fmax(qa[i], qb[i])) <= 2.0 * floor_clearance)
                    clear_by_twice_floor = false;
            pb_engine_reset_counters(engine);
            const bool free_edge = pb_engine_visible(engine, qa, qb);
            queries += pb_engine_get_counters(engine).n_edge_states;
            edges++;
            if (free_edge && hits)
                false_free++;
            if (!free_edge && clear_by_twice_floor)
                missed_free++;
            if (free_edge)
                n_free++;
            else
                n_blocked++;
            /* both directions give the same answer on a clear edge */
            if (clear_by_twice_floor && !hits)
                CHECK(pb_engine_visible(engine, qb, qa));
        }
        pb_engine_destroy(engine);
    }
    CHECK_MSG(false_free == 0, "%d edges through a wall answered free", false_free);
    CHECK_MSG(missed_free == 0, "%d edges with twice the floor of clearance answered blocked", missed_free);
    CHECK(n_free > 1000 && n_blocked > 1000); /* both answers exercised */
    printf("certified: %llu edges (%llu free), %.1f clearance queries per edge\n", (unsigned long long)edges,
           (unsigned long long)n_free, (double)queries / (double)edges);

    /* A clearance below the floor is blocked even where the edge is free; NaN is blocked. */
    boxes *b = calloc(1, sizeof *b);
    b->dim = 2;
    b->n = 1;
    b->lo[0][0] = -0.5, b->hi[0][0] = 0.5, b->lo[0][1] = 0.0, b->hi[0][1] = 0.1;
    pb_engine_config setup = pb_engine_config_default(2);
    for (int i = 0; i < 2; i++) {
        setup.lower[i] = -1.0;
        setup.upper[i] = 1.0;
    }
    setup.clearance_floor = 0.05;
    pb_engine *engine = NULL;
    CHECK(pb_engine_create(&engine, &boxes_impl, b, &setup, NULL) == PB_OK);
    const double below[2] = {-0.9, -0.02}, below_far[2] = {0.9, -0.02}; /* 0.02 under the box */
    const double lower[2] = {-0.9, -0.3}, lower_far[2] = {0.9, -0.3};
    CHECK(!pb_engine_visible(engine, below, below_far));
    CHECK(pb_engine_visible(engine, lower, lower_far));
    pb_engine_destroy(engine);
}

int main(void)
{
    test_orders();
    test_thin_obstacle();
    test_counters_and_order_cost();
    test_metric();
    test_certified();
    return pb_test_summary("interpolate");
}
