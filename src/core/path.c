#include "planbench/path.h"
#include "core/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pb_path_init(pb_path *path, int dim)
{
    path->dim = dim;
    path->n = 0;
    path->capacity = 0;
    path->q = NULL;
}

void pb_path_finish(pb_path *path)
{
    if (!path)
        return;
    free(path->q);
    path->q = NULL;
    path->n = path->capacity = 0;
}

static pb_status reserve(pb_path *path, size_t n)
{
    double *q = pb_reserve(path->q, &path->capacity, n, (size_t)path->dim * sizeof *q, 16);
    if (!q)
        return PB_ERR_NOMEM;
    path->q = q;
    return PB_OK;
}

pb_status pb_path_append(pb_path *path, const double *q)
{
    pb_status st = reserve(path, path->n + 1);
    if (st != PB_OK)
        return st;
    memcpy(path->q + path->n * (size_t)path->dim, q, (size_t)path->dim * sizeof(double));
    path->n++;
    return PB_OK;
}

void pb_path_clear(pb_path *path)
{
    path->n = 0;
}

void pb_path_reverse(pb_path *path)
{
    const size_t d = (size_t)path->dim;
    if (path->n < 2)
        return;
    for (size_t a = 0, b = path->n - 1; a < b; a++, b--)
        for (size_t k = 0; k < d; k++) {
            const double t = path->q[a * d + k];
            path->q[a * d + k] = path->q[b * d + k];
            path->q[b * d + k] = t;
        }
}

pb_status pb_path_copy(pb_path *dst, const pb_path *src)
{
    dst->n = 0;
    dst->dim = src->dim;
    pb_status st = reserve(dst, src->n);
    if (st != PB_OK)
        return st;
    if (src->n)
        memcpy(dst->q, src->q, src->n * (size_t)src->dim * sizeof(double));
    dst->n = src->n;
    return PB_OK;
}

double pb_path_length(const pb_path *path, const pb_engine *engine)
{
    double sum = 0.0;
    for (size_t i = 1; i < path->n; i++)
        sum += pb_engine_distance(engine, pb_path_at(path, i - 1), pb_path_at(path, i));
    return sum;
}

static bool same_config(const double *a, const double *b, int dim)
{
    for (int i = 0; i < dim; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

bool pb_path_validate(const pb_path *path, pb_engine *engine, const double *start, const double *goal,
                      pb_diag *diag)
{
    const int dim = pb_engine_dim(engine);
    if (path->dim != dim) {
        pb_diag_set(diag, NULL, 0, 0, "path has dimension %d, engine %d", path->dim, dim);
        return false;
    }
    if (path->n == 0) {
        pb_diag_set(diag, NULL, 0, 0, "path is empty");
        return false;
    }
    if (start && !same_config(pb_path_at(path, 0), start, dim)) {
        pb_diag_set(diag, NULL, 0, 0, "path does not begin exactly at the start");
        return false;
    }
    if (goal && !same_config(pb_path_at(path, path->n - 1), goal, dim)) {
        pb_diag_set(diag, NULL, 0, 0, "path does not end exactly at the goal");
        return false;
    }
    for (size_t i = 0; i < path->n; i++) {
        if (!pb_engine_feasible(engine, pb_path_at(path, i))) {
            pb_diag_set(diag, NULL, 0, 0, "configuration %zu of the path is infeasible", i);
            return false;
        }
        if (i > 0 && !pb_engine_visible(engine, pb_path_at(path, i - 1), pb_path_at(path, i))) {
            pb_diag_set(diag, NULL, 0, 0, "edge %zu -> %zu of the path is blocked", i - 1, i);
            return false;
        }
    }
    return true;
}
