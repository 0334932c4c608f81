/* RGB pictures: drawing primitives and PNG output for --save-image. */
#include "planbench/image.h"
#include "planbench/impl/engine_impl.h"
#include "planbench/vehicle.h"
#include "io/atomic_file.h"

#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

pb_status pb_image_init(pb_image *image, int width, int height)
{
    image->width = image->height = 0;
    image->rgb = NULL;
    if (width <= 0 || height <= 0 || (uint64_t)width * (uint64_t)height > ((uint64_t)1 << 28))
        return PB_ERR_INVALID;
    image->rgb = malloc((size_t)width * (size_t)height * 3);
    if (!image->rgb)
        return PB_ERR_NOMEM;
    memset(image->rgb, 255, (size_t)width * (size_t)height * 3);
    image->width = width;
    image->height = height;
    return PB_OK;
}

void pb_image_finish(pb_image *image)
{
    if (!image)
        return;
    free(image->rgb);
    image->rgb = NULL;
    image->width = image->height = 0;
}

static inline void put(pb_image *image, long x, long y, pb_color c)
{
    if (x < 0 || y < 0 || x >= image->width || y >= image->height)
        return;
    uint8_t *p = image->rgb + ((size_t)y * (size_t)image->width + (size_t)x) * 3;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

void pb_image_draw_line(pb_image *image, double fx0, double fy0, double fx1, double fy1, pb_color color)
{
    if (!isfinite(fx0) || !isfinite(fy0) || !isfinite(fx1) || !isfinite(fy1))
        return;
    /* Clamp far-away coordinates so the walk stays bounded. */
    const double lim = 4.0 * (image->width + image->height);
    long x0 = (long)floor(fmax(-lim, fmin(lim, fx0))), y0 = (long)floor(fmax(-lim, fmin(lim, fy0)));
    const long x1 = (long)floor(fmax(-lim, fmin(lim, fx1))), y1 = (long)floor(fmax(-lim, fmin(lim, fy1)));
    const long dx = labs(x1 - x0), dy = -labs(y1 - y0);
    const long sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    long err = dx + dy;
    for (;;) {
        put(image, x0, y0, color);
        if (x0 == x1 && y0 == y1)
            break;
        const long e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

void pb_image_draw_disc(pb_image *image, double x, double y, double radius, pb_color color)
{
    if (!isfinite(x) || !isfinite(y) || !(radius >= 0.0) || radius > image->width + image->height)
        return;
    const long r = (long)ceil(radius);
    for (long j = -r; j <= r; j++)
        for (long i = -r; i <= r; i++)
            if ((double)(i * i + j * j) <= radius * radius + 0.25)
                put(image, (long)floor(x) + i, (long)floor(y) + j, color);
}

void pb_image_draw_circle(pb_image *image, double x, double y, double radius, pb_color color)
{
    if (!isfinite(x) || !isfinite(y) || !(radius > 0.0) || radius > 4.0 * (image->width + image->height))
        return;
    const int steps = (int)fmax(16.0, ceil(2.0 * M_PI * radius));
    for (int k = 0; k < steps; k++) {
        const double a = 2.0 * M_PI * k / steps;
        put(image, (long)floor(x + radius * cos(a)), (long)floor(y + radius * sin(a)), color);
    }
}

pb_status pb_image_render_engine(pb_image *image, const pb_engine *engine, double *scale, pb_diag *diag)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!impl->render) {
        pb_diag_set(diag, NULL, 0, 0, "engine '%s' has no picture to draw", impl->name);
        return PB_ERR_UNSUPPORTED;
    }
    return impl->render(pb_engine_self(engine), image, scale, diag);
}

void pb_image_draw_config(pb_image *image, const pb_engine *engine, double scale, const double *q,
                          pb_color color)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (impl->draw_config) {
        impl->draw_config(pb_engine_self(engine), image, scale, q, color);
        return;
    }
    double xy[2];
    pb_image_engine_to_picture(engine, scale, q, xy);
    pb_image_draw_disc(image, xy[0], xy[1], 1.5, color);
}

/* A line `width` pixels wide. */
static void wide_line(pb_image *image, const double *p, const double *q, pb_color color, int width)
{
    for (int o = -(width - 1) / 2; o <= width / 2; o++) {
        pb_image_draw_line(image, p[0] + o, p[1], q[0] + o, q[1], color);
        pb_image_draw_line(image, p[0], p[1] + o, q[0], q[1] + o, color);
    }
}

/* One edge's steering curve: its segments as short lines, the footprint every `footprint_every`
 * metres, and a dot where the direction changes. */
static void draw_curve(pb_image *image, const pb_engine *engine, double scale, const double *a, const pb_curve *curve,
                       pb_color color, int width)
{
    const pb_color reverse_color = {240, 140, 0}, cusp_color = {0, 0, 0};
    const pb_color footprint_color = {(uint8_t)(color.r / 2 + 120), (uint8_t)(color.g / 2 + 120),
                                      (uint8_t)(color.b / 2 + 120)};
    const double units = pb_image_engine_units(engine, scale); /* picture pixels per metre */
    const double footprint_every = 3.0;
    double s0 = 0.0, next_footprint = footprint_every;
    for (int i = 0; i < curve->n; i++) {
        const double length = fabs(curve->segments[i].length);
        const bool reverse = curve->segments[i].length < 0.0;
        /* a step of at most two picture pixels */
        const int steps = 1 + (int)(length * units / 2.0);
        double q[3], prev[2], xy[2];
        pb_curve_point(curve, a, s0, q);
        pb_image_engine_to_picture(engine, scale, q, prev);
        for (int k = 1; k <= steps; k++) {
            const double s = s0 + length * k / steps;
            pb_curve_point(curve, a, s, q);
            pb_image_engine_to_picture(engine, scale, q, xy);
            wide_line(image, prev, xy, reverse ? reverse_color : color, width);
            memcpy(prev, xy, sizeof xy);
            if (s >= next_footprint) {
                pb_image_draw_config(image, engine, scale, q, footprint_color);
                next_footprint += footprint_every;
            }
        }
        s0 += length;
        if (i + 1 < curve->n && (curve->segments[i].length < 0.0) != (curve->segments[i + 1].length < 0.0))
            pb_image_draw_disc(image, xy[0], xy[1], 2.0 + width, cusp_color);
    }
}

void pb_image_draw_path(pb_image *image, const pb_engine *engine, double scale, const pb_path *path, pb_color color,
                        int width)
{
    double p0[2], p1[2];
    for (size_t i = 1; i < path->n; i++) {
        const double *a = pb_path_at(path, i - 1), *b = pb_path_at(path, i);
        pb_curve curve;
        if (pb_engine_curve(engine, a, b, &curve)) {
            draw_curve(image, engine, scale, a, &curve, color, width);
            /* a cusp at a waypoint: the direction at the end of one edge against the next's */
            pb_curve next;
            if (i + 1 < path->n && curve.n > 0 && pb_engine_curve(engine, b, pb_path_at(path, i + 1), &next) &&
                next.n > 0 && (curve.segments[curve.n - 1].length < 0.0) != (next.segments[0].length < 0.0)) {
                pb_image_engine_to_picture(engine, scale, b, p1);
                pb_image_draw_disc(image, p1[0], p1[1], 2.0 + width, (pb_color){0, 0, 0});
            }
            continue;
        }
        pb_image_engine_to_picture(engine, scale, a, p0);
        pb_image_engine_to_picture(engine, scale, b, p1);
        wide_line(image, p0, p1, color, width);
    }
}

void pb_image_engine_to_picture(const pb_engine *engine, double scale, const double *q, double *xy)
{
    pb_map_frame frame;
    if (pb_engine_map_frame(engine, &frame) && frame.metric) {
        pb_map_frame_to_pixel(&frame, q, xy);
        xy[0] *= scale;
        xy[1] *= scale;
        return;
    }
    const double *lo = pb_engine_lower(engine);
    xy[0] = (q[0] - lo[0]) * scale;
    xy[1] = pb_engine_dim(engine) > 1 ? (q[1] - lo[1]) * scale : 0.0;
}

void pb_image_picture_to_engine(const pb_engine *engine, double scale, const double *xy, double *q2)
{
    pb_map_frame frame;
    if (pb_engine_map_frame(engine, &frame) && frame.metric) {
        const double uv[2] = {xy[0] / scale, xy[1] / scale};
        pb_map_frame_to_world(&frame, uv, q2);
        return;
    }
    const double *lo = pb_engine_lower(engine);
    q2[0] = lo[0] + xy[0] / scale;
    q2[1] = pb_engine_dim(engine) > 1 ? lo[1] + xy[1] / scale : 0.0;
}

double pb_image_engine_units(const pb_engine *engine, double scale)
{
    pb_map_frame frame;
    return pb_engine_map_frame(engine, &frame) ? scale / frame.resolution : scale;
}

typedef struct write_state {
    jmp_buf jump;
    char error[200];
} write_state;

static void on_write_error(png_structp png, png_const_charp message)
{
    write_state *s = png_get_error_ptr(png);
    snprintf(s->error, sizeof s->error, "%s", message);
    longjmp(s->jump, 1);
}

static void on_write_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

pb_status pb_image_save_png(const pb_image *image, const char *path, pb_diag *diag)
{
    pb_atomic_file file;
    pb_status st = pb_atomic_file_open(&file, path, diag);
    if (st != PB_OK)
        return st;
    write_state *s = calloc(1, sizeof *s);
    png_structp png =
        s ? png_create_write_struct(PNG_LIBPNG_VER_STRING, s, on_write_error, on_write_warning) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        free(s);
        pb_atomic_file_abort(&file);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    if (setjmp(s->jump)) {
        png_destroy_write_struct(&png, &info);
        pb_atomic_file_abort(&file);
        pb_diag_set(diag, path, 0, 0, "cannot write PNG: %s", s->error);
        free(s);
        return PB_ERR_IO;
    }
    png_init_io(png, file.fp);
    png_set_IHDR(png, info, (png_uint_32)image->width, (png_uint_32)image->height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image->height; y++)
        png_write_row(png, image->rgb + (size_t)y * (size_t)image->width * 3);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(s);
    return pb_atomic_file_commit(&file, diag);
}
