/* Batched exact k nearest neighbours (private to the library), for roadmap and batch
 * planners (PRM*, BIT*) that connect many samples at once: the k nearest of each of many
 * query points among many points, under a weighted Euclidean metric (no wrapping
 * coordinates: use pb_nn for those).
 *
 * Two methods give the same neighbours:
 *   - GEMM: the squared distance matrix |q|^2 + |p|^2 - 2 q.p of a block of queries against
 *     a block of points through one cblas_dgemm (OpenBLAS, build option -Dblas, loaded at first use), then a
 *     top-k selection per query; the reported distances are recomputed exactly, so only
 *     the choice between two candidates whose distances differ by less than about 1e-12 of
 *     their squared norms can differ from a scan's.
 *   - SCAN: the same selection over directly computed distances.
 * Measured with bench/bench_knn_batch.c (bench/RESULTS.md, "Manipulator (issue 7)"; 2 shared
 * cores, one BLAS thread, k = 10, uniform points): GEMM beats the scan from batches of 16
 * queries in every dimension tried (3, 7, 14), by 2-3x at 256+ queries. Against the kd-tree
 * (pb_nn, one query at a time) GEMM wins from batches of 16 when dim >= 7 with 2000 points
 * (12 vs 35 us per query), ties at dim 7 with 20000 points (78 vs 77 us), and wins 7-10x at
 * dim 14 (100-160 vs 1000-1300 us); the kd-tree wins by far in 3 dimensions.
 * PB_NN_BATCH_AUTO picks GEMM from PB_NN_BATCH_GEMM_MIN_QUERIES queries on, when the build
 * has BLAS; pb_nn_batch_beats_kdtree() says when a planner should batch rather than query
 * its kd-tree. */
#ifndef PB_CORE_NN_BATCH_H
#define PB_CORE_NN_BATCH_H

#include "planbench/base.h"

typedef enum pb_nn_batch_method { PB_NN_BATCH_AUTO, PB_NN_BATCH_GEMM, PB_NN_BATCH_SCAN } pb_nn_batch_method;

/** Insert (id, d) into a row of *n entries sorted by (distance, id), keeping at most k: the
 * order of every k-nearest list in the library. */
static inline void pb_knn_row_insert(uint32_t *ids, double *ds, size_t k, size_t *n, uint32_t id, double d)
{
    if (*n == k && !(d < ds[k - 1] || (d == ds[k - 1] && id < ids[k - 1])))
        return;
    size_t i = *n < k ? (*n)++ : k - 1;
    while (i > 0 && (ds[i - 1] > d || (ds[i - 1] == d && ids[i - 1] > id))) {
        ds[i] = ds[i - 1];
        ids[i] = ids[i - 1];
        i--;
    }
    ds[i] = d;
    ids[i] = id;
}

/** Crossovers (measured; see the header comment). */
#define PB_NN_BATCH_GEMM_MIN_QUERIES 16

/** Should a planner with `n_queries` queries at once in `dim` dimensions against `n_points`
 * points use pb_nn_batch_knn() rather than its kd-tree? True only with BLAS, from
 * PB_NN_BATCH_GEMM_MIN_QUERIES queries, for dim >= 10, or dim >= 7 up to 10000 points. */
bool pb_nn_batch_beats_kdtree(int dim, size_t n_points, size_t n_queries);

/** Was the library built with BLAS (GEMM available)? */
bool pb_nn_batch_has_blas(void);

/** For each of `n_queries` queries (row-major, `dim` columns) the min(k, n_points) nearest
 * of `n_points` points (row-major), nearest first (ties by index): indices into `ids` and
 * distances into `dists`, both n_queries * k values (rows of k; unused tail entries get
 * UINT32_MAX and INFINITY). `weights` (dim values, may be NULL for 1) scale the
 * coordinates. PB_NN_BATCH_GEMM without BLAS falls back to the scan. Allocates scratch
 * memory per call (blocks of the distance matrix): PB_ERR_NOMEM when that fails. */
pb_status pb_nn_batch_knn(const double *queries, size_t n_queries, const double *points, size_t n_points,
                          int dim, const double *weights, size_t k, uint32_t *ids, double *dists,
                          pb_nn_batch_method method);

#endif
