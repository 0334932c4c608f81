/* PNG maps (private to the library): decode any PNG libpng reads into a bit-packed
 * free/occupied map, and read planbench's text chunks (default start and goal).
 *
 * A pixel is free if and only if its RGB is (255,255,255); alpha is ignored. 16-bit samples
 * keep their high byte (0xFF00..0xFFFF count as 255), as stb_image, lodepng and the OMPL
 * reference harness do. Palette images use the palette's RGB; grey g is RGB (g,g,g). */
#ifndef PB_IO_PNG_MAP_H
#define PB_IO_PNG_MAP_H

#include "planbench/image.h"
#include "core/bitmap.h"

/** Largest map accepted, in pixels (width * height): 2^28, a 32 MiB bitmap. */
#define PB_PNG_MAX_PIXELS ((uint64_t)1 << 28)

/** Load a PNG file. On failure `diag` names the file and the problem, and `out` is left
 * empty. Free with pb_bitmap_finish(). */
pb_status pb_png_load(const char *path, pb_bitmap *out, pb_diag *diag);
/** Packs one decoded row into free bits (bit x of `bits` set when pixel x is free; the bits
 * start cleared): `row` holds `width` pixels of `channels` 8-bit samples, 3 (RGB) or 4 (RGBA:
 * the PNG has an alpha channel, or a palette with transparency). */
typedef void (*pb_png_pack_fn)(void *payload, const uint8_t *row, int channels, int width, uint64_t *bits);
/** pb_png_load() with another rule for which pixels are free (map_server's, say). */
pb_status pb_png_load_packed(const char *path, pb_png_pack_fn pack, void *payload, pb_bitmap *out,
                             pb_diag *diag);
/** Decode a PNG held in memory; `name` is used in messages. */
pb_status pb_png_load_memory(const void *data, size_t size, const char *name, pb_bitmap *out, pb_diag *diag);
/** A map's default start and goal from its text chunks `start_key` and `goal_key`, each
 * `dim` comma-separated numbers (`format` names them in the message, as "X,Y"). `*has` is true
 * when both are present; a malformed value is an error naming the file and the key. */
pb_status pb_bitmap_read_defaults(const pb_bitmap *map, const char *path, const char *start_key,
                                  const char *goal_key, int dim, const char *format, double *start,
                                  double *goal, bool *has, pb_diag *diag);

/** Draw the map into a new picture (free white, obstacles dark grey), scale 1. */
pb_status pb_bitmap_render(const pb_bitmap *map, pb_image *image, double *scale, pb_diag *diag);

#endif
