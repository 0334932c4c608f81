/* Clearance on pixel maps: the distance transform and the bounds of clearance.h. */
#include "checkers/clearance.h"

#include <math.h>
#include <stdlib.h>

/* No site: larger than any squared distance on a map, finite so that the parabolas stay
 * comparable (the border terms are always smaller). */
#define NO_SITE 1e18

/* One-dimensional squared distance transform (Felzenszwalb and Huttenlocher 2012) of f over
 * n samples into d; v (n ints) and z (n + 1 doubles) are scratch. */
static void edt_1d(const double *f, int n, double *d, int *v, double *z)
{
    int k = 0;
    v[0] = 0;
    z[0] = -INFINITY;
    z[1] = INFINITY;
    for (int q = 1; q < n; q++) {
        double s = ((f[q] + (double)q * q) - (f[v[k]] + (double)v[k] * v[k])) / (2.0 * (q - v[k]));
        while (s <= z[k]) {
            k--;
            s = ((f[q] + (double)q * q) - (f[v[k]] + (double)v[k] * v[k])) / (2.0 * (q - v[k]));
        }
        k++;
        v[k] = q;
        z[k] = s;
        z[k + 1] = INFINITY;
    }
    k = 0;
    for (int q = 0; q < n; q++) {
        while (z[k + 1] < q)
            k++;
        const double dq = (double)(q - v[k]);
        d[q] = dq * dq + f[v[k]];
    }
}

pb_status pb_distance_transform(const pb_bitmap *map, float **out)
{
    const int w = map->width, h = map->height;
    const int n = w > h ? w : h;
    float *edt = malloc((size_t)w * (size_t)h * sizeof *edt);
    double *f = calloc((size_t)n, sizeof *f), *d = calloc((size_t)n, sizeof *d);
    double *z = malloc(((size_t)n + 1) * sizeof *z), *column = malloc((size_t)w * (size_t)h * sizeof *column);
    int *v = malloc((size_t)n * sizeof *v);
    pb_status st = PB_OK;
    if (!edt || !f || !d || !z || !v || !column) {
        free(edt);
        edt = NULL;
        st = PB_ERR_NOMEM;
        goto done;
    }
    /* columns: squared distance to the nearest occupied pixel in the same column, or to the
     * occupied rows just outside the image */
    for (int x = 0; x < w; x++) {
        for (int y = 0; y < h; y++)
            f[y] = pb_bitmap_free(map, x, y) ? NO_SITE : 0.0;
        edt_1d(f, h, d, v, z);
        for (int y = 0; y < h; y++) {
            const double top = (double)(y + 1), bottom = (double)(h - y);
            column[(size_t)y * (size_t)w + (size_t)x] = fmin(d[y], fmin(top * top, bottom * bottom));
        }
    }
    /* rows: add the horizontal term, and the occupied columns just outside the image */
    for (int y = 0; y < h; y++) {
        const double *row = column + (size_t)y * (size_t)w;
        edt_1d(row, w, d, v, z);
        for (int x = 0; x < w; x++) {
            const double left = (double)(x + 1), right = (double)(w - x);
            edt[(size_t)y * (size_t)w + (size_t)x] =
                (float)sqrt(fmin(d[x], fmin(left * left, right * right)));
        }
    }
done:
    free(f);
    free(d);
    free(z);
    free(v);
    free(column);
    *out = edt;
    return st;
}

double pb_segment_edt_min(const float *edt, int w, int h, const double *a, const double *b, uint64_t *pixels)
{
    const double x0 = a[0], y0 = a[1], x1 = b[0], y1 = b[1];
    if (!(x0 >= 0.0 && y0 >= 0.0 && x0 < w && y0 < h && x1 >= 0.0 && y1 >= 0.0 && x1 < w && y1 < h))
        return -1.0;
    long x = (long)x0, y = (long)y0;
    const long x_end = (long)x1, y_end = (long)y1;
    const double dx = x1 - x0, dy = y1 - y0;
    const long step_x = dx > 0.0 ? 1 : -1, step_y = dy > 0.0 ? 1 : -1;
    const double t_dx = dx != 0.0 ? fabs(1.0 / dx) : INFINITY, t_dy = dy != 0.0 ? fabs(1.0 / dy) : INFINITY;
    double t_x = dx > 0.0 ? ((double)(x + 1) - x0) * t_dx : dx < 0.0 ? (x0 - (double)x) * t_dx : INFINITY;
    double t_y = dy > 0.0 ? ((double)(y + 1) - y0) * t_dy : dy < 0.0 ? (y0 - (double)y) * t_dy : INFINITY;
    const double tie = 1e-9;
    double least = INFINITY;
    uint64_t read = 0;
    for (;;) {
        read++;
        const double here = edt[(size_t)y * (size_t)w + (size_t)x];
        least = here < least ? here : least; /* not fmin: a call per pixel, and no NaN here */
        if ((x == x_end && y == y_end) || (t_x > 1.0 + tie && t_y > 1.0 + tie))
            break;
        if (fabs(t_x - t_y) <= tie) {
            const long nx = x + step_x, ny = y + step_y;
            if (nx >= 0 && nx < w && edt[(size_t)y * (size_t)w + (size_t)nx] < least)
                least = edt[(size_t)y * (size_t)w + (size_t)nx];
            if (ny >= 0 && ny < h && edt[(size_t)ny * (size_t)w + (size_t)x] < least)
                least = edt[(size_t)ny * (size_t)w + (size_t)x];
            read += 2;
            x = nx;
            y = ny;
            t_x += t_dx;
            t_y += t_dy;
        } else if (t_x < t_y) {
            x += step_x;
            t_x += t_dx;
        } else {
            y += step_y;
            t_y += t_dy;
        }
        if (x < 0 || y < 0 || x >= w || y >= h)
            break; /* past the end only through rounding */
    }
    *pixels += read;
    return least;
}

double pb_shape2d_edt_clearance(const pb_shape2d *s, const float *edt, int width, int height,
                                uint64_t *pixels)
{
    double least = INFINITY;
    for (int i = 0; i < s->n_parts; i++) {
        const pb_part2d *p = &s->part[i];
        const int edges = p->n < 3 ? 1 : p->n;
        for (int k = 0; k < edges; k++) {
            const double m = pb_segment_edt_min(edt, width, height, p->v[k], p->v[(k + 1) % p->n], pixels);
            if (!(m >= 0.0))
                return -1.0;
            least = fmin(least, m - PB_EDT_MARGIN - p->r);
        }
    }
    return least;
}

/* A motion certified at this many steps and still going is treated as blocked: with a
 * clearance floor every step is at least floor / rate, so only a malformed reach gets here. */
#define FORWARD_MAX_STEPS 100000000
/* The creep towards a blocked pose stops when it is this near (in t) at the least. */
#define FORWARD_CREEP 1e-9

bool pb_certify_forward(pb_reach_fn reach, const void *ctx, double creep, pb_engine_counters *counters,
                        double *t_free)
{
    /* [0, t) is certified; `last` is the last query that certified anything (-1: none yet) */
    double t = 0.0, last = -1.0;
    for (long step = 0; step < FORWARD_MAX_STEPS; step++) {
        counters->n_edge_states++;
        const double r = reach(ctx, t);
        if (r > 0.0) {
            if (t + r >= 1.0) {
                *t_free = 1.0;
                return true;
            }
            last = t;
            t += r;
            continue;
        }
        /* blocked at t: creep up to it by halving what lies between the last certifying query
         * and t (already certified by that query), so the motion stops as near as the reach
         * allows, not a whole step short */
        if (last < 0.0 || t - last <= fmax(creep, FORWARD_CREEP))
            break;
        t = last + 0.5 * (t - last);
    }
    *t_free = last > 0.0 ? last : 0.0;
    return false;
}
