/* planbench: RGB pictures of a C-space, for --save-image and documentation. */
#ifndef PLANBENCH_IMAGE_H
#define PLANBENCH_IMAGE_H

#include "engine.h"
#include "path.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An 8-bit RGB picture, `width * height * 3` bytes row after row. Caller storage. */
typedef struct pb_image {
    int width;
    int height;
    uint8_t *rgb;
} pb_image;

typedef struct pb_color {
    uint8_t r, g, b;
} pb_color;

/** Make a blank (white) picture. */
PB_API pb_status pb_image_init(pb_image *image, int width, int height);
PB_API void pb_image_finish(pb_image *image);
/** Render the engine's C-space projected on its first two coordinates: the map of an image
 * engine, the feasible region of a 2D black box. PB_ERR_UNSUPPORTED when it has no picture.
 * Picture coordinates are engine coordinates scaled by `*scale` (set by the call). */
PB_API pb_status pb_image_render_engine(pb_image *image, const pb_engine *engine, double *scale,
                                        pb_diag *diag);
/** Draw a configuration as the engine shows it (a dot, or an arm for the 4D engine). */
PB_API void pb_image_draw_config(pb_image *image, const pb_engine *engine, double scale, const double *q,
                                 pb_color color);
/** Draw primitives in picture pixels (clipped to the picture). */
PB_API void pb_image_draw_line(pb_image *image, double x0, double y0, double x1, double y1, pb_color color);
PB_API void pb_image_draw_disc(pb_image *image, double x, double y, double radius, pb_color color);
PB_API void pb_image_draw_circle(pb_image *image, double x, double y, double radius, pb_color color);
/** Save as PNG atomically (a temporary file renamed over `path`). */
PB_API pb_status pb_image_save_png(const pb_image *image, const char *path, pb_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
