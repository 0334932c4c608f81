/* Batched exact k nearest neighbours (private to the library), for roadmap and batch
 * planners (PRM*, BIT*) that connect many samples at once: the k nearest of each of many
 * query points among many points, under a weighted Euclidean metric (no wrapping
 * coordinates: use pb_nn for those).
 *
 * Two methods give the same neighbours:
 *   - GEMM: the squared distance matrix |q|^2 + |p|^2 - 2 q.p of a block of queries against
 *     a block of points through one cblas_dgemm (OpenBLAS, build option -Dblas), then a
 *     top-k selection per query; the reported distances are recomputed exactly, so only
 *     the choice between two candidates whose distances differ by less than about 1e-12 of
 *     their squared norms can differ from a scan's.
 *   - SCAN: the same selection over directly computed distances.
 * PB_NN_BATCH_AUTO picks by the crossover measured with bench/bench_knn_batch.c (see
 * bench/RESULTS.md, "Manipulator (issue 7)"): GEMM from PB_NN_BATCH_GEMM_MIN_QUERIES queries
 * and PB_NN_BATCH_GEMM_MIN_DIM dimensions on, when the build has BLAS. */
#ifndef PB_CORE_NN_BATCH_H
#define PB_CORE_NN_BATCH_H

#include "planbench/base.h"

typedef enum pb_nn_batch_method { PB_NN_BATCH_AUTO, PB_NN_BATCH_GEMM, PB_NN_BATCH_SCAN } pb_nn_batch_method;

/** Crossover (measured; see the header comment). */
#define PB_NN_BATCH_GEMM_MIN_QUERIES 64
#define PB_NN_BATCH_GEMM_MIN_DIM 6

/** Was the library built with BLAS (GEMM available)? */
bool pb_nn_batch_has_blas(void);

/** For each of `n_queries` queries (row-major, `dim` columns) the min(k, n_points) nearest
 * of `n_points` points (row-major), nearest first (ties by index): indices into `ids` and
 * distances into `dists`, both n_queries * k values (rows of k; unused tail entries get
 * UINT32_MAX and INFINITY). `weights` (dim values, may be NULL for 1) scale the
 * coordinates. PB_NN_BATCH_GEMM without BLAS falls back to the scan. Allocates scratch
 * memory per call (blocks of the distance matrix): PB_ERR_NOMEM when that fails. */
pb_status pb_nn_batch_knn(const double *queries, size_t n_queries, const double *points, size_t n_points, int dim,
                          const double *weights, size_t k, uint32_t *ids, double *dists, pb_nn_batch_method method);

#endif
