/* Integer Bresenham lines over a bit-packed map. */
#include "checkers/checkers.h"

#include <stdlib.h>

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
