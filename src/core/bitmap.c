/* The bitmap's own functions (see bitmap.h). */
#include "core/bitmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (1 << PB_BITMAP_BLOCK_SHIFT)

void pb_bitmap_finish(pb_bitmap *map)
{
    if (!map)
        return;
    free(map->bits);
    free(map->blocks);
    memset(map, 0, sizeof *map);
}

const char *pb_bitmap_text(const pb_bitmap *map, const char *key)
{
    for (size_t i = 0; i < map->n_text; i++)
        if (strcmp(map->text[i].key, key) == 0)
            return map->text[i].value;
    return NULL;
}

uint64_t pb_bitmap_count_free(const pb_bitmap *map)
{
    uint64_t n = 0;
    for (size_t i = 0; i < map->words_per_row * (size_t)map->height; i++)
        n += (uint64_t)__builtin_popcountll(map->bits[i]);
    return n;
}

_Static_assert(PB_BITMAP_BLOCK_SHIFT == 3, "the coarse level reads a block row as the bytes of one word");

bool pb_bitmap_index_blocks(pb_bitmap *map)
{
    free(map->blocks);
    map->blocks = NULL;
    map->block_words_per_row = 0;
    if (map->width <= 0 || map->height <= 0 || !map->bits)
        return true;
    const size_t block_cols = ((size_t)map->width + BLOCK - 1) / BLOCK;
    const size_t block_rows = ((size_t)map->height + BLOCK - 1) / BLOCK;
    const size_t bwpr = (block_cols + 63) / 64;
    uint64_t *blocks = calloc(bwpr * block_rows, sizeof *blocks);
    if (!blocks)
        return false;
    /* Pixels right of the map are never read by a walk: they count as free here, so a block
     * cut by the right border can still be all free. */
    const unsigned tail = (unsigned)map->width & 63;
    const uint64_t outside = tail ? ~0ull << tail : 0;
    for (size_t by = 0; by < block_rows; by++) {
        const size_t y0 = by * BLOCK;
        const size_t y1 = y0 + BLOCK < (size_t)map->height ? y0 + BLOCK : (size_t)map->height;
        for (size_t w = 0; w < map->words_per_row; w++) {
            /* the AND of the block row's pixel rows: byte k is 0xff when block 8 w + k is free */
            uint64_t all = ~0ull;
            for (size_t y = y0; y < y1; y++)
                all &= map->bits[y * map->words_per_row + w];
            if (w == map->words_per_row - 1)
                all |= outside;
            for (size_t k = 0; k < 8; k++) {
                const size_t bx = w * 8 + k;
                if (bx < block_cols && ((all >> (8 * k)) & 0xff) == 0xff)
                    blocks[by * bwpr + bx / 64] |= 1ull << (bx & 63);
            }
        }
    }
    map->blocks = blocks;
    map->block_words_per_row = bwpr;
    return true;
}

/* Are bits c0..c1 (inclusive) of a block row all 1? */
static inline bool bits_all_set(const uint64_t *row, size_t c0, size_t c1)
{
    for (size_t w = c0 / 64; w <= c1 / 64; w++) {
        const unsigned lo = w == c0 / 64 ? (unsigned)(c0 & 63) : 0;
        const unsigned hi = w == c1 / 64 ? (unsigned)(c1 & 63) : 63;
        const uint64_t mask = (~0ull >> (63 - hi)) & (~0ull << lo);
        if ((row[w] & mask) != mask)
            return false;
    }
    return true;
}

bool pb_bitmap_blocks_free_near(const pb_bitmap *map, double ax, double ay, double bx, double by)
{
    if (!map->blocks)
        return false;
    const bool downwards = ay > by; /* walk the block rows upwards, from the lower end */
    const double x0 = downwards ? bx : ax, y0 = downwards ? by : ay;
    const double x1 = downwards ? ax : bx, y1 = downwards ? ay : by;
    /* A walk reads pixels whose square meets the segment, or (at a pixel corner, or for an
     * integer line) lies within half a pixel of it: every one is within `margin` of the
     * segment in x and in y, with room to spare for rounding. */
    const double margin = 1.0;
    const double dx = x1 - x0, dy = y1 - y0;
    const long last_row = (long)(((size_t)map->height - 1) >> PB_BITMAP_BLOCK_SHIFT);
    const long last_col = (long)(((size_t)map->width - 1) >> PB_BITMAP_BLOCK_SHIFT);
    long r0 = (long)floor(y0 - margin) >> PB_BITMAP_BLOCK_SHIFT;
    long r1 = (long)floor(y1 + margin) >> PB_BITMAP_BLOCK_SHIFT;
    r0 = r0 < 0 ? 0 : r0;
    r1 = r1 > last_row ? last_row : r1;
    for (long r = r0; r <= r1; r++) {
        /* the part of the segment within `margin` of the block row's pixel rows */
        double xa = x0, xb = x1;
        if (dy != 0.0) {
            double t0 = ((double)(r << PB_BITMAP_BLOCK_SHIFT) - margin - y0) / dy;
            double t1 = ((double)((r + 1) << PB_BITMAP_BLOCK_SHIFT) + margin - y0) / dy;
            t0 = t0 < 0.0 ? 0.0 : t0;
            t1 = t1 > 1.0 ? 1.0 : t1;
            xa = x0 + t0 * dx;
            xb = x0 + t1 * dx;
        }
        if (xa > xb) {
            const double t = xa;
            xa = xb;
            xb = t;
        }
        long c0 = (long)floor(xa - margin) >> PB_BITMAP_BLOCK_SHIFT;
        long c1 = (long)floor(xb + margin) >> PB_BITMAP_BLOCK_SHIFT;
        c0 = c0 < 0 ? 0 : c0;
        c1 = c1 > last_col ? last_col : c1;
        if (!bits_all_set(map->blocks + (size_t)r * map->block_words_per_row, (size_t)c0, (size_t)c1))
            return false;
    }
    return true;
}
