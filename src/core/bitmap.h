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

/** A decoded map. Bit x of row y is 1 when pixel (x, y) is free; rows are `words_per_row`
 * 64-bit words, bit x in word x / 64 at position x % 64. Padding bits are 0 (occupied). */
typedef struct pb_bitmap {
    int width;
    int height;
    size_t words_per_row;
    uint64_t *bits;
    size_t n_text;
    pb_bitmap_text_chunk text[PB_BITMAP_MAX_TEXT]; /**< tEXt/iTXt/zTXt chunks, first PB_BITMAP_MAX_TEXT */
} pb_bitmap;

static inline bool pb_bitmap_free(const pb_bitmap *map, int x, int y)
{
    return (map->bits[(size_t)y * map->words_per_row + ((unsigned)x >> 6)] >> ((unsigned)x & 63)) & 1u;
}

void pb_bitmap_finish(pb_bitmap *map);
/** The value of text chunk `key`, NULL when absent. Borrowed from the map. */
const char *pb_bitmap_text(const pb_bitmap *map, const char *key);
/** Number of free pixels. */
uint64_t pb_bitmap_count_free(const pb_bitmap *map);

#endif
