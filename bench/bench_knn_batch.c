/* Batched exact k-NN: GEMM (OpenBLAS) against a scan and the kd-tree (issue 7).
 *
 *   bench_knn_batch [K]
 *
 * For dimensions 3, 7 and 14, 2000 and 20000 points uniform in [0,1]^d and batches of 1 to
 * 1024 queries: microseconds per query of pb_nn_batch_knn by GEMM and by scan, and of one
 * pb_nn_knearest call per query on the kd-tree (built once, build time not counted). The
 * crossover in src/core/nn_batch.h comes from this table. */
#include "core/nn.h"
#include "core/nn_batch.h"
#include "planbench/blackbox.h"
#include "planbench/planbench.h"

#include <stdio.h>
#include <stdlib.h>

static bool always_free(const double *q, void *ctx)
{
    (void)q;
    (void)ctx;
    return true;
}

int main(int argc, char **argv)
{
    const size_t k = argc > 1 ? (size_t)atoi(argv[1]) : 10;
    const int dims[] = {3, 7, 14};
    const size_t n_points_list[] = {2000, 20000};
    const size_t batches[] = {1, 16, 64, 256, 1024};
    printf("bench_knn_batch %zu  (blas: %s)\n", k, pb_nn_batch_has_blas() ? "yes" : "no");
    printf("%4s %7s %6s %12s %12s %12s   (us per query)\n", "dim", "points", "batch", "gemm", "scan",
           "kdtree");
    pb_rng rng;
    pb_rng_seed(&rng, 1);
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        const int dim = dims[di];
        pb_blackbox_config params = pb_blackbox_config_default(dim);
        for (int i = 0; i < dim; i++) {
            params.lower[i] = 0.0;
            params.upper[i] = 1.0;
        }
        params.feasible = always_free;
        pb_engine *engine = NULL;
        pb_diag diag;
        if (pb_blackbox_create(&engine, &params, &diag) != PB_OK) {
            fprintf(stderr, "%s\n", diag.message);
            return 1;
        }
        for (size_t pi = 0; pi < sizeof n_points_list / sizeof n_points_list[0]; pi++) {
            const size_t np = n_points_list[pi];
            double *points = malloc(np * (size_t)dim * sizeof *points);
            double *queries = malloc(1024 * (size_t)dim * sizeof *queries);
            uint32_t *ids = malloc(1024 * k * sizeof *ids);
            double *dists = malloc(1024 * k * sizeof *dists);
            for (size_t i = 0; i < np * (size_t)dim; i++)
                points[i] = pb_rng_uniform(&rng);
            for (size_t i = 0; i < 1024 * (size_t)dim; i++)
                queries[i] = pb_rng_uniform(&rng);
            pb_nn *nn = NULL;
            pb_nn_create(&nn, engine);
            for (size_t i = 0; i < np; i++)
                pb_nn_add(nn, (uint32_t)i, points + i * (size_t)dim);
            for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
                const size_t nq = batches[bi];
                const int reps = (int)(4096 / nq) > 0 ? (int)(4096 / nq) : 1;
                double t[3];
                for (int m = 0; m < 2; m++) {
                    const double t0 = pb_clock_seconds();
                    for (int r = 0; r < reps; r++)
                        pb_nn_batch_knn(queries, nq, points, np, dim, NULL, k, ids, dists,
                                        m == 0 ? PB_NN_BATCH_GEMM : PB_NN_BATCH_SCAN);
                    t[m] = (pb_clock_seconds() - t0) / (double)(reps * (int)nq) * 1e6;
                }
                const double t0 = pb_clock_seconds();
                for (int r = 0; r < reps; r++)
                    for (size_t q = 0; q < nq; q++)
                        pb_nn_knearest(nn, queries + q * (size_t)dim, k, ids, dists);
                t[2] = (pb_clock_seconds() - t0) / (double)(reps * (int)nq) * 1e6;
                printf("%4d %7zu %6zu %12.2f %12.2f %12.2f\n", dim, np, nq, t[0], t[1], t[2]);
                fflush(stdout);
            }
            pb_nn_destroy(nn);
            free(points);
            free(queries);
            free(ids);
            free(dists);
        }
        pb_engine_destroy(engine);
    }
    return 0;
}
