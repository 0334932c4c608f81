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
    const long dx = labs(x1 - x0), dy = -labs(y1 - y0);
    const long sx = x0 < x1 ? 1 : -1;
    const long sy = y0 < y1 ? 1 : -1;
    const uint64_t *bits = map->bits;
    const size_t stride = map->words_per_row;
    const uint64_t *row = bits + (size_t)y0 * stride;
    const ptrdiff_t row_step = sy > 0 ? (ptrdiff_t)stride : -(ptrdiff_t)stride;
    long err = dx + dy;
    uint64_t n = 0;
    for (;;) {
        n++;
        if (!((row[(unsigned long)x0 >> 6] >> ((unsigned long)x0 & 63)) & 1u)) {
            *pixels += n;
            return false;
        }
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
            row += row_step;
        }
    }
    *pixels += n;
    return true;
}
