/* PNG maps (private to the library): decode any PNG libpng reads into a bit-packed
 * free/occupied map, and read planbench's text chunks (default start and goal).
 *
 * A pixel is free if and only if its RGB is (255,255,255); alpha is ignored. 16-bit samples
 * keep their high byte (0xFF00..0xFFFF count as 255), as stb_image, lodepng and the OMPL
 * reference harness do. Palette images use the palette's RGB; grey g is RGB (g,g,g). */
#ifndef PB_IO_PNG_MAP_H
#define PB_IO_PNG_MAP_H

#include "planbench/image.h"

/** Largest map accepted, in pixels (width * height): 2^28, a 32 MiB bitmap. */
#define PB_PNG_MAX_PIXELS ((uint64_t)1 << 28)

#define PB_PNG_MAX_TEXT 16

typedef struct pb_png_text {
    char key[80];
    char value[256];
} pb_png_text;

/** A decoded map. Bit x of row y is 1 when pixel (x, y) is free; rows are `words_per_row`
 * 64-bit words, bit x in word x / 64 at position x % 64. Padding bits are 0 (occupied). */
typedef struct pb_bitmap {
    int width;
    int height;
    size_t words_per_row;
    uint64_t *bits;
    size_t n_text;
    pb_png_text text[PB_PNG_MAX_TEXT]; /**< tEXt/iTXt/zTXt chunks, first PB_PNG_MAX_TEXT */
} pb_bitmap;

static inline bool pb_bitmap_free(const pb_bitmap *map, int x, int y)
{
    return (map->bits[(size_t)y * map->words_per_row + ((unsigned)x >> 6)] >> ((unsigned)x & 63)) & 1u;
}

/** Load a PNG file. On failure `diag` names the file and the problem, and `out` is left
 * empty. Free with pb_bitmap_finish(). */
pb_status pb_png_load(const char *path, pb_bitmap *out, pb_diag *diag);
/** Decode a PNG held in memory; `name` is used in messages. */
pb_status pb_png_load_memory(const void *data, size_t size, const char *name, pb_bitmap *out, pb_diag *diag);
void pb_bitmap_finish(pb_bitmap *map);
/** The value of text chunk `key`, NULL when absent. Borrowed from the map. */
const char *pb_bitmap_text(const pb_bitmap *map, const char *key);
/** A map's default start and goal from its text chunks `start_key` and `goal_key`, each
 * `dim` comma-separated numbers (`format` names them in the message, as "X,Y"). `*has` is true
 * when both are present; a malformed value is an error naming the file and the key. */
pb_status pb_bitmap_read_defaults(const pb_bitmap *map, const char *path, const char *start_key,
                                  const char *goal_key, int dim, const char *format, double *start,
                                  double *goal, bool *has, pb_diag *diag);

/** Draw the map into a new picture (free white, obstacles dark grey), scale 1. */
pb_status pb_bitmap_render(const pb_bitmap *map, pb_image *image, double *scale, pb_diag *diag);

/** Number of free pixels. */
uint64_t pb_bitmap_count_free(const pb_bitmap *map);

#endif
