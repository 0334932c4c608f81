/* Occupancy images as map_server (nav2) reads them (private to the library): the rules that
 * turn a pixel into an occupancy value, and the image readers (PNG through png_map.c, PGM
 * and the other netpbm formats through libnetpbm when the build has it).
 *
 * A pixel's lightness is the average of its colour channels (grey g counts as RGB (g, g, g);
 * in trinary mode an alpha channel is averaged in too, as nav2 does), over the image's
 * maxval: shade = sum / (maxval * n). PNG samples are 8-bit (16-bit ones keep their high
 * byte, as png_map.h says); netpbm samples keep their maxval (up to 65535). Its occupancy p is 1 - shade, or
 * shade with negate, computed as one division of exact integers, (maxval * n - sum) / (maxval * n), so that
 * a pixel whose p equals a threshold's decimal value (51/255 = 0.2) compares equal to it.
 * Then, with nav2's strict comparisons (map_io.cpp):
 *
 *   trinary  p > occupied_thresh: 100 (occupied); p < free_thresh: 0 (free); else -1 (unknown)
 *   scale    alpha < maxval: -1; p > occupied_thresh: 100; p < free_thresh: 0; else
 *            rint((p - free) / (occupied - free) * 100) (with both thresholds equal, a pixel on
 *            them is -1: nav2 would divide 0 by 0)
 *   raw      v = round(shade * 255) (negate ignored); 0 <= v <= 100: v; else -1
 *
 * For planning a pixel is free when its value is 0, what a ROS consumer of the published
 * OccupancyGrid reads as free; unknown (-1) and every other value block. */
#ifndef PB_IO_MAP_IMAGE_H
#define PB_IO_MAP_IMAGE_H

#include "planbench/base.h"
#include "core/bitmap.h"

/** map_server's modes. */
typedef enum pb_map_mode {
    PB_MAP_MODE_TRINARY,
    PB_MAP_MODE_SCALE,
    PB_MAP_MODE_RAW,
    PB_MAP_MODE_COUNT
} pb_map_mode;

/** How pixels become occupancy values. Plain data. */
typedef struct pb_map_rules {
    pb_map_mode mode;
    bool negate;
    double occupied_thresh; /**< in [0, 1], >= free_thresh */
    double free_thresh;     /**< in [0, 1] */
} pb_map_rules;

/** The value map_server would publish for a pixel: -1 unknown, 0 free ... 100 occupied.
 * `colour_sum` is the sum of its `n_colour` colour samples (1 for grey, 3 for RGB); `alpha`
 * its alpha sample when `has_alpha`; all samples in [0, maxval]. */
int pb_map_pixel_value(const pb_map_rules *rules, uint32_t colour_sum, int n_colour, bool has_alpha,
                       uint32_t alpha, uint32_t maxval);

/** "trinary", "scale", "raw". Static. */
const char *pb_map_mode_str(pb_map_mode mode);

/** Read the image at `path` (PNG by its signature, otherwise a netpbm image: PGM, PBM, PPM
 * or PAM) into `out`, a pixel free when its value under `rules` is 0. With `rules` NULL, a
 * PNG is read by planbench's own rule (free when its RGB is 255,255,255; pb_png_load()), a
 * netpbm image by trinary rules with map_saver's default thresholds (0.65 and 0.25).
 * Row 0 is the image's top row. On failure `diag` names the file and `out` is empty; a
 * netpbm image in a build without libnetpbm is PB_ERR_UNSUPPORTED. Free with
 * pb_bitmap_finish(). */
pb_status pb_map_image_load(const char *path, const pb_map_rules *rules, pb_bitmap *out, pb_diag *diag);

#endif
