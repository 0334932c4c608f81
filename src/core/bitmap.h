/* The bit-packed free/occupied map of image C-spaces (private to the library): decoded from
 * PNG by io/png_map.c, read by the pixel checkers and the image engines. */
#ifndef PB_CORE_BITMAP_H
#define PB_CORE_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_BITMAP_MAX_TEXT 16

typedef struct pb_bitmap_text_chunk {
    char key[80];
    char value[256];
} pb_bitmap_text_chunk;

/** log2 of the side, in pixels, of the square blocks of a map's coarse level. */
#define PB_BITMAP_BLOCK_SHIFT 3

/** A decoded map. Bit x of row y is 1 when pixel (x, y) is free; rows are `words_per_row`
 * 64-bit words, bit x in word x / 64 at position x % 64. Padding bits are 0 (occupied).
 *
 * The coarse level `blocks` (NULL until pb_bitmap_index_blocks()) has one bit per block of
 * 2^PB_BITMAP_BLOCK_SHIFT pixels square: bit bx of block row by (rows of
 * `block_words_per_row` words) is 1 when every pixel of block (bx, by) inside the map is free.
 * It lets an edge through open space be answered from a few words instead of its pixels. */
typedef struct pb_bitmap {
    int width;
    int height;
    size_t words_per_row;
    uint64_t *bits;
    uint64_t *blocks;
    size_t block_words_per_row;
    size_t n_text;
    pb_bitmap_text_chunk text[PB_BITMAP_MAX_TEXT]; /**< tEXt/iTXt/zTXt chunks, first PB_BITMAP_MAX_TEXT */
} pb_bitmap;

static inline bool pb_bitmap_free(const pb_bitmap *map, int x, int y)
{
    return (map->bits[(size_t)y * map->words_per_row + ((unsigned)x >> 6)] >> ((unsigned)x & 63)) & 1u;
}

/** Free the pixels, the coarse level and the text. Accepts a zeroed map. */
void pb_bitmap_finish(pb_bitmap *map);
/** (Re)build the coarse level from the pixels. Call once the pixels are final: a later change
 * to `bits` needs another call. Returns false when out of memory; the map then has no coarse
 * level, which costs speed only. */
bool pb_bitmap_index_blocks(pb_bitmap *map);
/** Does every pixel within one pixel (in x and in y) of the segment from (ax, ay) to (bx, by)
 * (pixel coordinates, both ends inside the map) lie in an all-free block? True certifies any
 * walk that reads only such pixels; false says nothing. False when there is no coarse level. */
bool pb_bitmap_blocks_free_near(const pb_bitmap *map, double ax, double ay, double bx, double by);
/** The value of text chunk `key`, NULL when absent. Borrowed from the map. */
const char *pb_bitmap_text(const pb_bitmap *map, const char *key);
/** Number of free pixels. */
uint64_t pb_bitmap_count_free(const pb_bitmap *map);

#endif
