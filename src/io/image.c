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

/* 5x7 glyphs for ASCII 32..126, one byte per row, bit 4 the leftmost column. */
static const uint8_t font[95][7] = {
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /*   */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04}, /* ! */
    {0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00}, /* " */
    {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a}, /* # */
    {0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04}, /* $ */
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}, /* % */
    {0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d}, /* & */
    {0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00}, /* ' */
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}, /* ( */
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, /* ) */
    {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00}, /* asterisk */
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}, /* + */
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}, /* , */
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}, /* - */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}, /* . */
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}, /* slash */
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, /* 0 */
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* 1 */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, /* 2 */
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}, /* 3 */
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, /* 4 */
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}, /* 5 */
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, /* 6 */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}, /* 7 */
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, /* 8 */
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}, /* 9 */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}, /* : */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08}, /* ; */
    {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02}, /* < */
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}, /* = */
    {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08}, /* > */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}, /* ? */
    {0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e}, /* @ */
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* A */
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}, /* B */
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}, /* C */
    {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c}, /* D */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}, /* E */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}, /* F */
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}, /* G */
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* H */
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* I */
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}, /* J */
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, /* K */
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}, /* L */
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}, /* M */
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}, /* N */
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* O */
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}, /* P */
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}, /* Q */
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}, /* R */
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}, /* S */
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* T */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* U */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* V */
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}, /* W */
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}, /* X */
    {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}, /* Y */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}, /* Z */
    {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e}, /* [ */
    {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00}, /* backslash */
    {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e}, /* ] */
    {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00}, /* ^ */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f}, /* _ */
    {0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00}, /* ` */
    {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f}, /* a */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e}, /* b */
    {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e}, /* c */
    {0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f}, /* d */
    {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e}, /* e */
    {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08}, /* f */
    {0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x0e}, /* g */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}, /* h */
    {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e}, /* i */
    {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0c}, /* j */
    {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}, /* k */
    {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* l */
    {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11}, /* m */
    {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}, /* n */
    {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e}, /* o */
    {0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10}, /* p */
    {0x00, 0x00, 0x0d, 0x13, 0x0f, 0x01, 0x01}, /* q */
    {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}, /* r */
    {0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e}, /* s */
    {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06}, /* t */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d}, /* u */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* v */
    {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a}, /* w */
    {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11}, /* x */
    {0x00, 0x00, 0x11, 0x11, 0x0f, 0x01, 0x0e}, /* y */
    {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f}, /* z */
    {0x02, 0x04, 0x04, 0x08, 0x04, 0x04, 0x02}, /* { */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* | */
    {0x08, 0x04, 0x04, 0x02, 0x04, 0x04, 0x08}, /* } */
    {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00}, /* ~ */
};

pb_status pb_image_init(pb_image *image, int width, int height)
{
    *image = (pb_image){0};
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
    *image = (pb_image){0};
}

const uint8_t *pb_image_glyph(int ch)
{
    return ch >= 32 && ch <= 126 ? font[ch - 32] : NULL;
}

/* `x`, `y` in the image's own pixels (the picture's minus left, top). */
static inline void put(pb_image *image, long x, long y, pb_color c)
{
    if (x < 0 || y < 0 || x >= image->width || y >= image->height)
        return;
    uint8_t *p = image->rgb + ((size_t)y * (size_t)image->width + (size_t)x) * 3;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

/* Clip the segment to [lo, hi] in both coordinates (Liang-Barsky): a far end is moved along
 * the segment, so the part drawn keeps its direction. False when nothing is left. */
static bool clip_segment(double *x0, double *y0, double *x1, double *y1, double lo_x, double lo_y,
                         double hi_x, double hi_y)
{
    const double dx = *x1 - *x0, dy = *y1 - *y0;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {*x0 - lo_x, hi_x - *x0, *y0 - lo_y, hi_y - *y0};
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
    }
    if (t0 > t1)
        return false;
    const double ax = *x0, ay = *y0;
    *x0 = ax + t0 * dx;
    *y0 = ay + t0 * dy;
    *x1 = ax + t1 * dx;
    *y1 = ay + t1 * dy;
    return true;
}

void pb_image_draw_line(pb_image *image, double fx0, double fy0, double fx1, double fy1, pb_color color)
{
    if (!isfinite(fx0) || !isfinite(fy0) || !isfinite(fx1) || !isfinite(fy1))
        return;
    fx0 -= image->left;
    fx1 -= image->left;
    fy0 -= image->top;
    fy1 -= image->top;
    /* a pixel of margin: the ends' floors stay the pixels the unclipped line would light */
    if (!clip_segment(&fx0, &fy0, &fx1, &fy1, -1.0, -1.0, image->width + 1.0, image->height + 1.0))
        return;
    long x0 = (long)floor(fx0), y0 = (long)floor(fy0);
    const long x1 = (long)floor(fx1), y1 = (long)floor(fy1);
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
    x -= image->left;
    y -= image->top;
    if (!isfinite(x) || !isfinite(y) || !(radius >= 0.0) || radius > image->width + image->height ||
        x < -radius - 1.0 || y < -radius - 1.0 || x > image->width + radius + 1.0 ||
        y > image->height + radius + 1.0)
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
        put(image, (long)floor(x + radius * cos(a)) - image->left,
            (long)floor(y + radius * sin(a)) - image->top, color);
    }
}

static double cross(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int by_x_then_y(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

#define MAX_HULL_POINTS 1024

void pb_image_fill_hull(pb_image *image, const double *xy, size_t n, pb_color color, double opacity,
                        pb_color outline)
{
    /* Andrew's monotone chain over at most MAX_HULL_POINTS points (a mesh's vertices are
     * thinned evenly beyond that: the outline of a picture is not worth more) */
    double pts[MAX_HULL_POINTS][2], hull[MAX_HULL_POINTS + 1][2];
    const size_t stride = n > MAX_HULL_POINTS ? (n + MAX_HULL_POINTS - 1) / MAX_HULL_POINTS : 1;
    size_t m = 0;
    for (size_t i = 0; i < n; i += stride)
        if (isfinite(xy[2 * i]) && isfinite(xy[2 * i + 1]) && m < MAX_HULL_POINTS) {
            pts[m][0] = xy[2 * i] - image->left;
            pts[m][1] = xy[2 * i + 1] - image->top;
            m++;
        }
    if (m == 0)
        return;
    qsort(pts, m, sizeof pts[0], by_x_then_y);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0.0)
            k--;
        memcpy(hull[k++], pts[i], sizeof pts[i]);
    }
    for (size_t i = m - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0.0)
            k--;
        memcpy(hull[k++], pts[i], sizeof pts[i]);
    }
    if (k > 1)
        k--; /* the last point is the first again */
    double lo_y = hull[0][1], hi_y = hull[0][1];
    for (size_t i = 1; i < k; i++) {
        lo_y = fmin(lo_y, hull[i][1]);
        hi_y = fmax(hi_y, hull[i][1]);
    }
    const double alpha = fmin(1.0, fmax(0.0, opacity));
    const long row0 = (long)fmax(0.0, ceil(lo_y - 0.5)),
               row1 = (long)fmin(image->height - 1.0, floor(hi_y - 0.5));
    for (long row = row0; alpha > 0.0 && k >= 3 && row <= row1; row++) {
        /* a convex polygon crosses a row in one span */
        const double y = row + 0.5;
        double x_lo = INFINITY, x_hi = -INFINITY;
        for (size_t i = 0; i < k; i++) {
            const double *a = hull[i], *b = hull[(i + 1) % k];
            if ((a[1] <= y && b[1] > y) || (b[1] <= y && a[1] > y)) {
                const double x = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                x_lo = fmin(x_lo, x);
                x_hi = fmax(x_hi, x);
            }
        }
        const long c0 = (long)fmax(0.0, ceil(x_lo - 0.5)),
                   c1 = (long)fmin(image->width - 1.0, floor(x_hi - 0.5));
        for (long col = c0; col <= c1; col++) {
            uint8_t *p = image->rgb + ((size_t)row * (size_t)image->width + (size_t)col) * 3;
            p[0] = (uint8_t)lround(p[0] + alpha * (color.r - p[0]));
            p[1] = (uint8_t)lround(p[1] + alpha * (color.g - p[1]));
            p[2] = (uint8_t)lround(p[2] + alpha * (color.b - p[2]));
        }
    }
    for (size_t i = 0; i < k; i++) {
        const double *a = hull[i], *b = hull[(i + 1) % k];
        pb_image_draw_line(image, a[0] + image->left, a[1] + image->top, b[0] + image->left,
                           b[1] + image->top, outline);
    }
}

void pb_image_draw_text(pb_image *image, double x, double y, const char *text, int size, pb_color color)
{
    if (!isfinite(x) || !isfinite(y) || size < 1)
        return;
    const long x0 = (long)floor(x) - image->left, y0 = (long)floor(y) - image->top;
    long cx = x0;
    for (const char *c = text; *c; c++, cx += 6 * size) {
        const uint8_t *glyph = pb_image_glyph((unsigned char)*c);
        for (int row = 0; glyph && row < 7; row++)
            for (int col = 0; col < 5; col++)
                if (glyph[row] & (0x10 >> col))
                    for (int j = 0; j < size; j++)
                        for (int i = 0; i < size; i++)
                            put(image, cx + col * size + i, y0 + row * size + j, color);
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

void pb_image_draw_wide_line(pb_image *image, double x0, double y0, double x1, double y1, int width,
                             pb_color color)
{
    for (int o = -(width - 1) / 2; o <= width / 2; o++) {
        pb_image_draw_line(image, x0 + o, y0, x1 + o, y1, color);
        pb_image_draw_line(image, x0, y0 + o, x1, y1 + o, color);
    }
}

/* One edge's steering curve: its segments as short lines, the footprint every `footprint_every`
 * metres, and a dot where the direction changes. */
static void draw_curve(pb_image *image, const pb_engine *engine, double scale, const double *a,
                       const pb_curve *curve, pb_color color, int width)
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
            pb_image_draw_wide_line(image, prev[0], prev[1], xy[0], xy[1], width,
                                    reverse ? reverse_color : color);
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

void pb_image_draw_path(pb_image *image, const pb_engine *engine, double scale, const pb_path *path,
                        pb_color color, int width)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (impl->draw_path) {
        impl->draw_path(pb_engine_self(engine), image, scale, path, color, width);
        return;
    }
    if (pb_engine_dim(engine) > 2) {
        /* the configurations themselves: the first two coordinates are not all of them */
        const pb_color light = {(uint8_t)((color.r + 255) / 2), (uint8_t)((color.g + 255) / 2),
                                (uint8_t)((color.b + 255) / 2)};
        for (size_t i = 0; i < path->n; i++)
            pb_image_draw_config(image, engine, scale, pb_path_at(path, i), light);
    }
    double p0[2], p1[2];
    for (size_t i = 1; i < path->n; i++) {
        const double *a = pb_path_at(path, i - 1), *b = pb_path_at(path, i);
        pb_curve curve;
        if (pb_engine_curve(engine, a, b, &curve)) {
            draw_curve(image, engine, scale, a, &curve, color, width);
            /* a cusp at a waypoint: the direction at the end of one edge against the next's */
            pb_curve next;
            if (i + 1 < path->n && curve.n > 0 &&
                pb_engine_curve(engine, b, pb_path_at(path, i + 1), &next) && next.n > 0 &&
                (curve.segments[curve.n - 1].length < 0.0) != (next.segments[0].length < 0.0)) {
                pb_image_engine_to_picture(engine, scale, b, p1);
                pb_image_draw_disc(image, p1[0], p1[1], 2.0 + width, (pb_color){0, 0, 0});
            }
            continue;
        }
        pb_image_engine_to_picture(engine, scale, a, p0);
        pb_image_engine_to_picture(engine, scale, b, p1);
        pb_image_draw_wide_line(image, p0[0], p0[1], p1[0], p1[1], width, color);
    }
}

void pb_image_engine_to_picture(const pb_engine *engine, double scale, const double *q, double *xy)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (impl->picture_point) {
        impl->picture_point(pb_engine_self(engine), scale, q, xy);
        return;
    }
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
    if (pb_engine_get_impl(engine)->picture_point)
        return 0.0; /* it places configurations itself: no length on the picture */
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
