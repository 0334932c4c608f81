/* Nearest neighbours: the kd-tree against brute force on random data, in several
 * dimensions, with weights, wrapping coordinates and duplicate points. */
#include "harness.h"
#include "core/nn.h"
#include "planbench/impl/engine_impl.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static bool always_free(const void *self, const double *q, pb_engine_counters *c)
{
    (void)self;
    (void)q;
    (void)c;
    return true;
}

static const pb_engine_impl free_space = {.name = "free", .feasible = always_free};

static pb_engine *make_engine(int dim, bool wrap, bool weighted)
{
    pb_engine_config s = pb_engine_config_default(dim);
    for (int i = 0; i < dim; i++) {
        s.lower[i] = wrap && i % 2 ? -M_PI : 0.0;
        s.upper[i] = wrap && i % 2 ? M_PI : 100.0;
        s.periods[i] = wrap && i % 2 ? 2 * M_PI : 0.0;
        s.weights[i] = weighted ? 0.5 + i : 1.0;
    }
    pb_engine *e = NULL;
    pb_status st = pb_engine_create(&e, &free_space, NULL, &s, NULL);
    CHECK(st == PB_OK);
    return e;
}

static void run(int dim, bool wrap, bool weighted, size_t n_points, bool duplicates)
{
    pb_engine *engine = make_engine(dim, wrap, weighted);
    pb_nn *tree = NULL, *linear = NULL;
    CHECK(pb_nn_create(&tree, engine) == PB_OK);
    CHECK(pb_nn_create(&linear, engine) == PB_OK);
    pb_nn_set_mode(linear, PB_NN_LINEAR);
    pb_rng rng;
    pb_rng_seed(&rng, (uint64_t)dim * 100 + n_points);
    double *pts = malloc(n_points * (size_t)dim * sizeof(double));
    for (size_t i = 0; i < n_points; i++) {
        double *q = pts + i * (size_t)dim;
        if (duplicates && i > 0 && i % 3 == 0)
            memcpy(q, pts + (i / 2) * (size_t)dim, (size_t)dim * sizeof(double));
        else
            pb_engine_sample(engine, &rng, q);
        CHECK(pb_nn_add(tree, (uint32_t)i, q) == PB_OK);
        CHECK(pb_nn_add(linear, (uint32_t)i, q) == PB_OK);
    }
    CHECK(pb_nn_size(tree) == n_points);
    pb_nn_hits hits = {0}, ref_hits = {0};
    uint32_t ids[10], ref_ids[10];
    double d[10], ref_d[10];
    int bad_nearest = 0, bad_knn = 0, bad_radius = 0;
    for (int t = 0; t < 300; t++) {
        double q[PB_MAX_DIM];
        pb_engine_sample(engine, &rng, q);
        /* brute force with the engine's own metric */
        double best = DBL_MAX;
        for (size_t i = 0; i < n_points; i++) {
            const double dd = pb_engine_distance(engine, q, pts + i * (size_t)dim);
            if (dd < best)
                best = dd;
        }
        double got;
        const uint32_t id = pb_nn_nearest(tree, q, &got);
        if (id == UINT32_MAX || fabs(got - best) > 1e-9 ||
            fabs(pb_engine_distance(engine, q, pts + (size_t)id * (size_t)dim) - best) > 1e-9)
            bad_nearest++;
        const size_t k = pb_nn_knearest(tree, q, 10, ids, d);
        const size_t rk = pb_nn_knearest(linear, q, 10, ref_ids, ref_d);
        if (k != rk || k != (n_points < 10 ? n_points : 10))
            bad_knn++;
        for (size_t i = 0; i < k && i < rk; i++)
            if (fabs(d[i] - ref_d[i]) > 1e-9)
                bad_knn++;
        const double radius = best * 1.5 + 1.0;
        CHECK(pb_nn_radius(tree, q, radius, &hits) == PB_OK);
        CHECK(pb_nn_radius(linear, q, radius, &ref_hits) == PB_OK);
        if (hits.n != ref_hits.n)
            bad_radius++;
        /* Independently: a big radius returns exactly the points within it, sorted. */
        const double big = 4.0 * radius;
        size_t inside = 0;
        for (size_t i = 0; i < n_points; i++)
            inside += pb_engine_distance(engine, q, pts + i * (size_t)dim) <= big;
        CHECK(pb_nn_radius(tree, q, big, &hits) == PB_OK);
        if (hits.n != inside)
            bad_radius++;
        for (size_t i = 1; i < hits.n; i++)
            if (hits.dists[i - 1] > hits.dists[i] ||
                (hits.dists[i - 1] == hits.dists[i] && hits.ids[i - 1] >= hits.ids[i]))
                bad_radius++;
        CHECK(pb_nn_radius(tree, q, radius, &hits) == PB_OK);
        for (size_t i = 0; i < hits.n && i < ref_hits.n; i++)
            if (hits.ids[i] != ref_hits.ids[i] || fabs(hits.dists[i] - ref_hits.dists[i]) > 1e-9)
                bad_radius++;
    }
    CHECK_MSG(bad_nearest == 0, "dim %d wrap %d: %d nearest mismatches", dim, wrap, bad_nearest);
    CHECK_MSG(bad_knn == 0, "dim %d wrap %d: %d k-nearest mismatches", dim, wrap, bad_knn);
    CHECK_MSG(bad_radius == 0, "dim %d wrap %d: %d radius mismatches", dim, wrap, bad_radius);
    pb_nn_hits_finish(&hits);
    pb_nn_hits_finish(&ref_hits);
    free(pts);
    pb_nn_destroy(tree);
    pb_nn_destroy(linear);
    pb_engine_destroy(engine);
}

/* The nearest search scans whole buckets, unused slots included (they hold coordinates
 * infinitely far away): a bucket left part-full by a split, a chain of more identical points
 * than a bucket holds, and a structure cleared and refilled with fewer points (stale slots
 * behind the new counts) must all still give the exact nearest point. */
static void check_nearest_exact(const pb_nn *nn, const double *pts, size_t n, pb_rng *rng, pb_engine *engine)
{
    int bad = 0;
    for (int t = 0; t < 500; t++) {
        double q[2];
        pb_engine_sample(engine, rng, q);
        double best = DBL_MAX;
        for (size_t i = 0; i < n; i++)
            best = fmin(best, pb_engine_distance(engine, q, pts + 2 * i));
        double got;
        const uint32_t id = pb_nn_nearest(nn, q, &got);
        if (id >= n || got != best || pb_engine_distance(engine, q, pts + 2 * (size_t)id) != best)
            bad++;
    }
    CHECK_MSG(bad == 0, "%d of 500 nearest queries were not the exact nearest", bad);
}

static void test_padded_buckets(void)
{
    pb_engine *engine = make_engine(2, false, false);
    pb_nn *nn = NULL;
    CHECK(pb_nn_create(&nn, engine) == PB_OK);
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    enum { N = 3000, SAME = 200 };
    double *pts = malloc(N * 2 * sizeof(double));
    for (size_t i = 0; i < N; i++) {
        if (i < SAME) { /* a chain: more copies of one point than any bucket holds */
            pts[2 * i] = 500.0;
            pts[2 * i + 1] = 500.0;
        } else {
            pb_engine_sample(engine, &rng, pts + 2 * i);
        }
        CHECK(pb_nn_add(nn, (uint32_t)i, pts + 2 * i) == PB_OK);
    }
    check_nearest_exact(nn, pts, N, &rng, engine);
    /* refill with a few far points after the many: the old slots must not be found */
    pb_nn_clear(nn);
    for (size_t i = 0; i < 5; i++) {
        pts[2 * i] = 900.0 + (double)i;
        pts[2 * i + 1] = 10.0;
        CHECK(pb_nn_add(nn, (uint32_t)i, pts + 2 * i) == PB_OK);
    }
    check_nearest_exact(nn, pts, 5, &rng, engine);
    for (size_t i = 5; i < 700; i++) {
        pb_engine_sample(engine, &rng, pts + 2 * i);
        CHECK(pb_nn_add(nn, (uint32_t)i, pts + 2 * i) == PB_OK);
    }
    check_nearest_exact(nn, pts, 700, &rng, engine);
    free(pts);
    pb_nn_destroy(nn);
    pb_engine_destroy(engine);
}

int main(void)
{
    test_padded_buckets();
    run(2, false, false, 5, false);
    run(2, false, false, 5000, false);
    run(2, false, false, 2000, true);
    run(3, false, true, 3000, false);
    run(4, true, false, 3000, false);
    run(7, true, true, 4000, false);
    run(7, false, false, 4000, true);

    /* Empty structure. */
    pb_engine *e = make_engine(2, false, false);
    pb_nn *nn = NULL;
    CHECK(pb_nn_create(&nn, e) == PB_OK);
    const double q[2] = {1, 2};
    CHECK(pb_nn_nearest(nn, q, NULL) == UINT32_MAX);
    /* Wrapped distance: -3.1 and 3.1 on an angle coordinate are 0.0832 apart. */
    pb_engine *w = make_engine(2, true, false);
    const double a[2] = {50.0, -3.1}, b[2] = {50.0, 3.1};
    CHECK_NEAR(pb_engine_distance(w, a, b), 2 * M_PI - 6.2, 1e-12);
    pb_nn_destroy(nn);
    pb_engine_destroy(e);
    pb_engine_destroy(w);
    return pb_test_summary("nn");
}
