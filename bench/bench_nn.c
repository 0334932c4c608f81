/* Nearest-neighbour benchmark: time per nearest query of the kd-tree (src/core/nn.c) and of
 * a linear scan, for growing numbers of points in several dimensions, and the bucket size
 * (the crossover below which a scan is all there is). Points uniform in a box.
 *
 *   build-release/bench/bench_nn [QUERIES]     (times: fastest of 7 rounds)
 */
#include "core/nn.h"
#include "planbench/impl/engine_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static bool always_free(const void *self, const double *q, pb_engine_counters *c)
{
    (void)self;
    (void)q;
    (void)c;
    return true;
}

static const pb_engine_impl box_space = {.name = "box", .feasible = always_free};

static double time_queries(const pb_nn *nn, const double *queries, int n_queries, int dim, uint64_t *checksum)
{
    const double t0 = pb_clock_seconds();
    for (int i = 0; i < n_queries; i++)
        *checksum += pb_nn_nearest(nn, queries + (size_t)i * (size_t)dim, NULL);
    return (pb_clock_seconds() - t0) / n_queries;
}

int main(int argc, char **argv)
{
    const int n_queries = argc > 1 ? atoi(argv[1]) : 2000;
    const int dims[] = {2, 3, 4, 5, 6, 7, 10, 14, 20};
    const size_t sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 10000, 100000};
    uint64_t checksum = 0;
    printf("| dim | points | kd-tree ns/query | linear ns/query | ratio linear/kd | kd-tree bytes/point |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        const int dim = dims[di];
        pb_engine_config s = pb_engine_config_default(dim);
        for (int i = 0; i < dim; i++)
            s.upper[i] = 1000.0;
        pb_engine *engine = NULL;
        if (pb_engine_create(&engine, &box_space, NULL, &s, NULL) != PB_OK)
            return 1;
        pb_rng rng;
        pb_rng_seed(&rng, 1);
        double *queries = malloc((size_t)n_queries * (size_t)dim * sizeof(double));
        for (int i = 0; i < n_queries; i++)
            pb_engine_sample(engine, &rng, queries + (size_t)i * (size_t)dim);
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            pb_nn *kd = NULL, *lin = NULL;
            pb_nn_create(&kd, engine);
            pb_nn_create(&lin, engine);
            pb_nn_set_mode(kd, PB_NN_KDTREE);
            pb_nn_set_mode(lin, PB_NN_LINEAR);
            double q[PB_MAX_DIM];
            for (size_t k = 0; k < sizes[si]; k++) {
                pb_engine_sample(engine, &rng, q);
                pb_nn_add(kd, (uint32_t)k, q);
                pb_nn_add(lin, (uint32_t)k, q);
            }
            const int nq = sizes[si] >= 100000 ? n_queries / 10 : n_queries;
            /* fastest of 7 interleaved rounds: the machine is shared */
            double t_kd = INFINITY, t_lin = INFINITY;
            for (int round = 0; round < 7; round++) {
                t_kd = fmin(t_kd, time_queries(kd, queries, nq, dim, &checksum));
                t_lin = fmin(t_lin, time_queries(lin, queries, nq, dim, &checksum));
            }
            printf("| %d | %zu | %.0f | %.0f | %.2f | %.0f |\n", dim, sizes[si], t_kd * 1e9, t_lin * 1e9,
                   t_lin / t_kd, (double)pb_nn_memory(kd) / (double)sizes[si]);
            pb_nn_destroy(kd);
            pb_nn_destroy(lin);
        }
        free(queries);
        pb_engine_destroy(engine);
    }
    fprintf(stderr, "checksum %llu\n", (unsigned long long)checksum);
    return 0;
}
