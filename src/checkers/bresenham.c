/* Integer Bresenham lines over a bit-packed map. */
#include "checkers/checkers.h"

#include <math.h>
#include <stdlib.h>

/* Lines spanning fewer pixels (|dx| + |dy|) than this are walked without asking the coarse
 * level first: two blocks' worth, where the walk costs about what asking does. A choice, not
 * a tuned figure (session 11 measured only that the level pays on a 16000x16000 map). */
#define COARSE_MIN_PIXELS 16

bool pb_line_free(const pb_bitmap *map, long x0, long y0, long x1, long y1, uint64_t *pixels)
{
    /* Both endpoints inside means every pixel of the line is inside (it stays within their
     * bounding box), so the loop needs no bounds test. */
    if (x0 < 0 || y0 < 0 || x0 >= map->width || y0 >= map->height || x1 < 0 || y1 < 0 || x1 >= map->width ||
        y1 >= map->height) {
        *pixels += 1; /* the one pixel looked at to know */
        return false;
    }
    /* The far endpoint first: a planner's new edge ends at a fresh sample, which is where
     * a blocked edge is most often blocked, and one read then spares the walk. */
    if (!pb_bitmap_free(map, (int)x1, (int)y1)) {
        *pixels += 1;
        return false;
    }
    /* Through open space the coarse level answers without the walk: every pixel the walk
     * reads is within half a pixel of the line between the pixel centres. A short line's walk
     * costs less than asking. */
    if (labs(x1 - x0) + labs(y1 - y0) >= COARSE_MIN_PIXELS &&
        pb_bitmap_blocks_free_near(map, (double)x0, (double)y0, (double)x1, (double)y1))
        return true;
    /* Walk from the lexicographically smaller endpoint so that the pixel set of a->b equals
     * that of b->a (Bresenham's tie-breaking depends on the direction). */
    if (x1 < x0 || (x1 == x0 && y1 < y0)) {
        long t = x0;
        x0 = x1;
        x1 = t;
        t = y0;
        y0 = y1;
        y1 = t;
    }
    const long dx = x1 - x0, dy = -labs(y1 - y0); /* dx >= 0 after the swap */
    const uint64_t *bits = map->bits;
    const size_t stride = map->words_per_row;
    const uint64_t *row = bits + (size_t)y0 * stride;
    const ptrdiff_t row_step = y0 < y1 ? (ptrdiff_t)stride : -(ptrdiff_t)stride;
    /* The all-octant integer Bresenham (error term e2 = 2 err against dx and dy): every step
     * moves along the major axis, so the line has exactly max(dx, -dy) + 1 pixels. The two
     * decisions per step are data-dependent coin flips on a sloped line; written as selects,
     * they compile to conditional moves instead of mispredicted branches. */
    const long last = dx > -dy ? dx : -dy;
    long err = dx + dy;
    long x = x0;
    for (long n = 0;; n++) {
        if (!((row[(unsigned long)x >> 6] >> ((unsigned long)x & 63)) & 1u)) {
            *pixels += (uint64_t)n + 1;
            return false;
        }
        if (n == last) {
            *pixels += (uint64_t)n + 1;
            return true;
        }
        const long e2 = 2 * err;
        const long step_x = e2 >= dy, step_y = e2 <= dx;
        err += (step_x ? dy : 0) + (step_y ? dx : 0);
        x += step_x;
        row += step_y ? row_step : 0;
    }
}

bool pb_segment_free(const pb_bitmap *map, const double *a, const double *b, uint64_t *pixels)
{
    /* written so that NaN is outside */
    if (!(a[0] >= 0.0 && a[1] >= 0.0 && a[0] < (double)map->width && a[1] < (double)map->height) ||
        !(b[0] >= 0.0 && b[1] >= 0.0 && b[0] < (double)map->width && b[1] < (double)map->height)) {
        *pixels += 1;
        return false;
    }
    long x = (long)a[0], y = (long)a[1];
    const long x_end = (long)b[0], y_end = (long)b[1];
    /* every pixel read meets the segment, or touches it at a corner */
    if (labs(x_end - x) + labs(y_end - y) >= COARSE_MIN_PIXELS &&
        pb_bitmap_blocks_free_near(map, a[0], a[1], b[0], b[1]))
        return true;
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    const long step_x = dx > 0.0 ? 1 : -1, step_y = dy > 0.0 ? 1 : -1;
    /* t at which the segment crosses the next vertical (horizontal) pixel border, and the t
     * between two such borders (Amanatides and Woo). A coordinate that does not change
     * crosses none. */
    const double t_dx = dx != 0.0 ? fabs(1.0 / dx) : INFINITY;
    const double t_dy = dy != 0.0 ? fabs(1.0 / dy) : INFINITY;
    double t_x = dx > 0.0 ? ((double)(x + 1) - a[0]) * t_dx : dx < 0.0 ? (a[0] - (double)x) * t_dx : INFINITY;
    double t_y = dy > 0.0 ? ((double)(y + 1) - a[1]) * t_dy : dy < 0.0 ? (a[1] - (double)y) * t_dy : INFINITY;
    /* Crossings closer than this in t are taken as simultaneous and both side pixels are
     * read: rounding must never skip a pixel the segment grazes, reading one more is safe. */
    const double tie = 1e-9;
    for (;;) {
        *pixels += 1;
        if (!pb_bitmap_free(map, (int)x, (int)y))
            return false;
        if (x == x_end && y == y_end)
            return true;
        if (t_x > 1.0 + tie && t_y > 1.0 + tie)
            return true; /* rounding left the last pixel short of (x_end, y_end): it was read */
        if (fabs(t_x - t_y) <= tie) {
            /* through a pixel corner (or within rounding of one): both neighbours */
            const long nx = x + step_x, ny = y + step_y;
            if (nx >= 0 && nx < map->width) {
                *pixels += 1;
                if (!pb_bitmap_free(map, (int)nx, (int)y))
                    return false;
            }
            if (ny >= 0 && ny < map->height) {
                *pixels += 1;
                if (!pb_bitmap_free(map, (int)x, (int)ny))
                    return false;
            }
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
        if (x < 0 || y < 0 || x >= map->width || y >= map->height)
            return true; /* only past b after rounding: the pixels up to b were read */
    }
}
