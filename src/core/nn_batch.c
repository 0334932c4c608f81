/* Batched exact k-NN: GEMM distance matrices (OpenBLAS) or a scan. See nn_batch.h. */
#include "core/nn_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if PB_HAVE_BLAS
#include "core/module.h"

#include <cblas.h>
#include <pthread.h>
#endif

#define QUERY_BLOCK 256
#define POINT_BLOCK 1024

#if PB_HAVE_BLAS
/* OpenBLAS is loaded when a GEMM is first wanted, not with the library (issue 21): loading it
 * costs every process its start-up and its worker threads, which spin at start. One thread:
 * the blocks here are small and planners already run one per core. */
typedef void (*dgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint, blasint,
                         blasint, double, const double *, blasint, const double *, blasint, double, double *,
                         blasint);
static dgemm_fn blas_dgemm;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

static void blas_load(void)
{
    char why[256]; /* without OpenBLAS the scan answers: nothing to report */
    void *h = pb_module_open_system("libopenblas.so.0", why, sizeof why);
    if (!h)
        return;
    void (*set_threads)(int) = (void (*)(int))pb_module_symbol(h, "openblas_set_num_threads");
    if (set_threads)
        set_threads(1);
    blas_dgemm = (dgemm_fn)pb_module_symbol(h, "cblas_dgemm");
}
#endif

bool pb_nn_batch_has_blas(void)
{
#if PB_HAVE_BLAS
    pthread_once(&blas_once, blas_load);
    return blas_dgemm != NULL;
#else
    return false;
#endif
}

bool pb_nn_batch_beats_kdtree(int dim, size_t n_points, size_t n_queries)
{
    return n_queries >= PB_NN_BATCH_GEMM_MIN_QUERIES && (dim >= 10 || (dim >= 7 && n_points <= 10000)) &&
           pb_nn_batch_has_blas();
}

static double exact_sq(const double *a, const double *b, const double *w, int dim)
{
    double s = 0.0;
    for (int i = 0; i < dim; i++) {
        const double d = (a[i] - b[i]) * (w ? w[i] : 1.0);
        s += d * d;
    }
    return s;
}

static void finish_row(const double *q, const double *points, const double *w, int dim, size_t k, size_t n,
                       uint32_t *ids, double *dists)
{
    /* exact distances of the chosen ones, re-sorted (GEMM's rounding may order them wrongly) */
    for (size_t i = 0; i < n; i++)
        dists[i] = exact_sq(q, points + (size_t)ids[i] * (size_t)dim, w, dim);
    for (size_t i = 1; i < n; i++) {
        const double d = dists[i];
        const uint32_t id = ids[i];
        size_t j = i;
        while (j > 0 && (dists[j - 1] > d || (dists[j - 1] == d && ids[j - 1] > id))) {
            dists[j] = dists[j - 1];
            ids[j] = ids[j - 1];
            j--;
        }
        dists[j] = d;
        ids[j] = id;
    }
    for (size_t i = 0; i < n; i++)
        dists[i] = sqrt(dists[i]);
    for (size_t i = n; i < k; i++) {
        ids[i] = UINT32_MAX;
        dists[i] = INFINITY;
    }
}

static void scan(const double *queries, size_t n_queries, const double *points, size_t n_points, int dim,
                 const double *w, size_t k, uint32_t *ids, double *dists)
{
    for (size_t qi = 0; qi < n_queries; qi++) {
        const double *q = queries + qi * (size_t)dim;
        uint32_t *row_ids = ids + qi * k;
        double *row_d = dists + qi * k;
        size_t n = 0;
        for (size_t p = 0; p < n_points; p++)
            pb_knn_row_insert(row_ids, row_d, k, &n, (uint32_t)p,
                              exact_sq(q, points + p * (size_t)dim, w, dim));
        finish_row(q, points, w, dim, k, n, row_ids, row_d);
    }
}

#if PB_HAVE_BLAS
static pb_status gemm(const double *queries, size_t n_queries, const double *points, size_t n_points, int dim,
                      const double *w, size_t k, uint32_t *ids, double *dists)
{
    const size_t d = (size_t)dim;
    double *wq = malloc(QUERY_BLOCK * d * sizeof *wq), *wp = malloc(n_points * d * sizeof *wp);
    double *pn = malloc(n_points * sizeof *pn), *qn = malloc(QUERY_BLOCK * sizeof *qn);
    double *block = malloc((size_t)QUERY_BLOCK * POINT_BLOCK * sizeof *block);
    size_t *fill = malloc(QUERY_BLOCK * sizeof *fill);
    if (!wq || !wp || !pn || !qn || !block || !fill) {
        free(wq), free(wp), free(pn), free(qn), free(block), free(fill);
        return PB_ERR_NOMEM;
    }
    for (size_t p = 0; p < n_points; p++) {
        double s = 0.0;
        for (size_t i = 0; i < d; i++) {
            const double v = points[p * d + i] * (w ? w[i] : 1.0);
            wp[p * d + i] = v;
            s += v * v;
        }
        pn[p] = s;
    }
    for (size_t q0 = 0; q0 < n_queries; q0 += QUERY_BLOCK) {
        const size_t nq = n_queries - q0 < QUERY_BLOCK ? n_queries - q0 : QUERY_BLOCK;
        for (size_t a = 0; a < nq; a++) {
            double s = 0.0;
            for (size_t i = 0; i < d; i++) {
                const double v = queries[(q0 + a) * d + i] * (w ? w[i] : 1.0);
                wq[a * d + i] = v;
                s += v * v;
            }
            qn[a] = s;
            fill[a] = 0;
        }
        for (size_t p0 = 0; p0 < n_points; p0 += POINT_BLOCK) {
            const size_t np = n_points - p0 < POINT_BLOCK ? n_points - p0 : POINT_BLOCK;
            /* block = -2 Q P^T */
            blas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nq, (int)np, dim, -2.0, wq, dim,
                       wp + p0 * d, dim, 0.0, block, (int)np);
            for (size_t a = 0; a < nq; a++) {
                const double *row = block + a * np;
                uint32_t *row_ids = ids + (q0 + a) * k;
                double *row_d = dists + (q0 + a) * k;
                for (size_t b = 0; b < np; b++)
                    pb_knn_row_insert(row_ids, row_d, k, &fill[a], (uint32_t)(p0 + b),
                                      row[b] + qn[a] + pn[p0 + b]);
            }
        }
        for (size_t a = 0; a < nq; a++)
            finish_row(queries + (q0 + a) * d, points, w, dim, k, fill[a], ids + (q0 + a) * k,
                       dists + (q0 + a) * k);
    }
    free(wq), free(wp), free(pn), free(qn), free(block), free(fill);
    return PB_OK;
}
#endif

pb_status pb_nn_batch_knn(const double *queries, size_t n_queries, const double *points, size_t n_points,
                          int dim, const double *weights, size_t k, uint32_t *ids, double *dists,
                          pb_nn_batch_method method)
{
    if (k == 0 || n_queries == 0)
        return PB_OK;
    if (method == PB_NN_BATCH_AUTO)
        method = n_queries >= PB_NN_BATCH_GEMM_MIN_QUERIES ? PB_NN_BATCH_GEMM : PB_NN_BATCH_SCAN;
#if PB_HAVE_BLAS
    if (method == PB_NN_BATCH_GEMM && n_points > 0 && n_points < UINT32_MAX && pb_nn_batch_has_blas())
        return gemm(queries, n_queries, points, n_points, dim, weights, k, ids, dists);
#endif
    scan(queries, n_queries, points, n_points, dim, weights, k, ids, dists);
    return PB_OK;
}
