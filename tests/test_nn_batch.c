/* Batched k-NN (issue 7): GEMM and scan agree with a brute-force reference, weights apply,
 * k larger than the point count pads with UINT32_MAX. */
#include "harness.h"
#include "core/nn_batch.h"

#include <string.h>

int main(void)
{
    enum { DIM = 7, NP = 1500, NQ = 40, K = 5 };
    static double points[NP * DIM], queries[NQ * DIM], dists[2][NQ * K];
    static uint32_t ids[2][NQ * K];
    pb_rng rng;
    pb_rng_seed(&rng, 42);
    for (size_t i = 0; i < NP * DIM; i++)
        points[i] = pb_rng_range(&rng, -100, 100); /* large norms: the GEMM identity loses digits */
    for (size_t i = 0; i < NQ * DIM; i++)
        queries[i] = pb_rng_range(&rng, -100, 100);
    const double w[DIM] = {1, 2, 0.5, 1, 1, 3, 1};
    for (int m = 0; m < 2; m++)
        CHECK(pb_nn_batch_knn(queries, NQ, points, NP, DIM, w, K, ids[m], dists[m],
                              m ? PB_NN_BATCH_SCAN : PB_NN_BATCH_GEMM) == PB_OK);
    for (int q = 0; q < NQ; q++) {
        /* brute force: the nearest's distance, and k-th is >= the (k-1)-th */
        double best = INFINITY;
        for (int p = 0; p < NP; p++) {
            double s = 0;
            for (int i = 0; i < DIM; i++) {
                const double d = (queries[q * DIM + i] - points[p * DIM + i]) * w[i];
                s += d * d;
            }
            best = fmin(best, sqrt(s));
        }
        CHECK_NEAR(dists[1][q * K], best, 1e-9 * best);
        for (int j = 0; j < K; j++) {
            CHECK_MSG(ids[0][q * K + j] == ids[1][q * K + j], "query %d rank %d: gemm %u, scan %u", q, j,
                      ids[0][q * K + j], ids[1][q * K + j]);
            CHECK(dists[0][q * K + j] == dists[1][q * K + j]);
            if (j)
                CHECK(dists[1][q * K + j] >= dists[1][q * K + j - 1]);
        }
    }
    /* k beyond the points */
    uint32_t few_ids[4];
    double few_d[4];
    CHECK(pb_nn_batch_knn(queries, 1, points, 2, DIM, NULL, 4, few_ids, few_d, PB_NN_BATCH_AUTO) == PB_OK);
    CHECK(few_ids[0] != UINT32_MAX && few_ids[1] != UINT32_MAX && few_ids[2] == UINT32_MAX &&
          isinf(few_d[3]));
    CHECK(!pb_nn_batch_beats_kdtree(3, 1000, 1000));
    CHECK(pb_nn_batch_beats_kdtree(14, 100000, 1000) == pb_nn_batch_has_blas());
    return pb_test_summary("nn_batch");
}
