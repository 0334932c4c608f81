#include "picture.h"
#include "harness.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool tp_load_png(const char *path, pb_image *out)
{
    *out = (pb_image){0};
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        return false;
    image.format = PNG_FORMAT_RGB;
    if (pb_image_init(out, (int)image.width, (int)image.height) != PB_OK ||
        !png_image_finish_read(&image, NULL, out->rgb, 0, NULL)) {
        png_image_free(&image);
        pb_image_finish(out);
        return false;
    }
    return true;
}

bool tp_pixel_free(const pb_image *picture, long x, long y)
{
    if (x < 0 || y < 0 || x >= picture->width || y >= picture->height)
        return false;
    const uint8_t *p = picture->rgb + ((size_t)y * (size_t)picture->width + (size_t)x) * 3;
    return p[0] == 255 && p[1] == 255 && p[2] == 255;
}

bool tp_edge_free(const pb_image *picture, const double *a, const double *b)
{
    long x0 = (long)floor(a[0]), y0 = (long)floor(a[1]), x1 = (long)floor(b[0]), y1 = (long)floor(b[1]);
    if (x1 < x0 || (x1 == x0 && y1 < y0)) {
        long t = x0;
        x0 = x1;
        x1 = t;
        t = y0;
        y0 = y1;
        y1 = t;
    }
    const long dx = x1 - x0, dy = y1 - y0, adx = labs(dx), ady = labs(dy);
    const bool x_major = adx >= ady;
    const long n = x_major ? adx : ady, minor = x_major ? ady : adx;
    for (long i = 0; i <= n; i++) {
        const long off = n ? (2 * minor * i + n) / (2 * n) : 0;
        const long x = x_major ? x0 + (dx >= 0 ? i : -i) : x0 + (dx >= 0 ? off : -off);
        const long y = x_major ? y0 + (dy >= 0 ? off : -off) : y0 + (dy >= 0 ? i : -i);
        if (!tp_pixel_free(picture, x, y))
            return false;
    }
    return true;
}

void tp_fill_rect(pb_image *picture, tp_rect r)
{
    for (int y = r.y0; y < r.y1; y++)
        memset(picture->rgb + ((size_t)y * (size_t)picture->width + (size_t)r.x0) * 3, 0,
               (size_t)(r.x1 - r.x0) * 3);
}

uint64_t tp_path_hash(const pb_path *path)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < path->n * (size_t)path->dim; i++) {
        uint64_t bits;
        memcpy(&bits, &path->q[i], sizeof bits);
        for (int k = 0; k < 8; k++) {
            h ^= (bits >> (8 * k)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    return h;
}

pb_engine *tp_load_picture(const pb_image *picture, char *png, size_t size)
{
    char base[] = "/tmp/pb_test_picture_XXXXXX";
    const int fd = mkstemp(base);
    CHECK(fd >= 0);
    if (fd < 0)
        return NULL;
    close(fd);
    remove(base);
    snprintf(png, size, "%s.png", base);
    pb_diag diag = {0};
    CHECK(pb_image_save_png(picture, png, &diag) == PB_OK);
    pb_engine *engine = NULL;
    CHECK(pb_engine_load(&engine, NULL, png, NULL, 0, &diag) == PB_OK);
    if (!engine)
        fprintf(stderr, "%s\n", diag.message);
    return engine;
}

double tp_visibility_optimum(const pb_image *picture, const tp_rect *rects, int n_rects, const double *start,
                             const double *goal, double margin)
{
    enum { MAXV = 2 + 4 * 16 };
    double v[MAXV][2];
    int n = 0;
    v[n][0] = start[0], v[n][1] = start[1], n++;
    v[n][0] = goal[0], v[n][1] = goal[1], n++;
    for (int i = 0; i < n_rects && n + 4 <= MAXV; i++) {
        const double xs[2] = {rects[i].x0 - margin, rects[i].x1 + margin};
        const double ys[2] = {rects[i].y0 - margin, rects[i].y1 + margin};
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
                if (tp_pixel_free(picture, (long)floor(xs[a]), (long)floor(ys[b]))) {
                    v[n][0] = xs[a], v[n][1] = ys[b];
                    n++;
                }
    }
    double dist[MAXV];
    bool done[MAXV];
    for (int i = 0; i < n; i++)
        dist[i] = INFINITY, done[i] = false;
    dist[0] = 0.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (u < 0 || dist[i] < dist[u]))
                u = i;
        if (u < 0 || !isfinite(dist[u]))
            break;
        done[u] = true;
        for (int w = 0; w < n; w++)
            if (!done[w] && tp_edge_free(picture, v[u], v[w])) {
                const double d = dist[u] + hypot(v[w][0] - v[u][0], v[w][1] - v[u][1]);
                if (d < dist[w])
                    dist[w] = d;
            }
    }
    return dist[1];
}
