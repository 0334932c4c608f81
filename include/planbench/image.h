/* planbench: RGB pictures of a C-space, for --save-image and documentation, and the frame
 * of an image map (where its pixels are in the engine's coordinates). */
#ifndef PLANBENCH_IMAGE_H
#define PLANBENCH_IMAGE_H

#include "engine.h"
#include "path.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An 8-bit RGB picture, `width * height * 3` bytes row after row. Caller storage.
 * `left` and `top` are the picture coordinates of its top-left pixel, 0 for a whole picture:
 * an image may be a window onto a larger picture (the visualiser draws its zoomed view so,
 * at the window's resolution), and the drawing primitives below take picture coordinates. */
typedef struct pb_image {
    int width;
    int height;
    uint8_t *rgb;
    int left, top;
} pb_image;

typedef struct pb_color {
    uint8_t r, g, b;
} pb_color;

/** Make a blank (white) picture, `left` and `top` 0. */
PB_API pb_status pb_image_init(pb_image *image, int width, int height);
PB_API void pb_image_finish(pb_image *image);
/** Render the engine's C-space projected on its first two coordinates: the map of an image
 * engine, the feasible region of a 2D black box; a manipulator world as front, side and top
 * views of its obstacles (`*scale` then in picture pixels per metre). PB_ERR_UNSUPPORTED when
 * it has no picture. `*scale` (set by the call) is picture pixels per engine unit, or per image
 * pixel for an image map in a map frame, whose picture is the image upright:
 * pb_image_engine_to_picture() places a configuration on it. */
PB_API pb_status pb_image_render_engine(pb_image *image, const pb_engine *engine, double *scale,
                                        pb_diag *diag);
/** Draw a configuration as the engine shows it (a dot, or an arm for the 4D engine). */
PB_API void pb_image_draw_config(pb_image *image, const pb_engine *engine, double scale, const double *q,
                                 pb_color color);
/** Where configuration `q` lands in a picture pb_image_render_engine() made at `scale`:
 * `xy` gets picture coordinates (x right, y down). An image map in a map frame goes through
 * the frame (pb_map_frame_to_pixel() times `scale`); a manipulator places it at its tool link
 * in the front view; otherwise (q - lower) * scale on the first two coordinates. Every
 * engine's point is proportional to `scale`. */
PB_API void pb_image_engine_to_picture(const pb_engine *engine, double scale, const double *q, double *xy);
/** The inverse on the first two coordinates: `q2` gets the 2 coordinates at picture point `xy`. */
PB_API void pb_image_picture_to_engine(const pb_engine *engine, double scale, const double *xy, double *q2);
/** Picture pixels per engine unit of length (`scale` / resolution for a map frame), to draw
 * a radius; 0 for an engine that places configurations on its picture itself (the
 * manipulator's joint space has no length there). */
PB_API double pb_image_engine_units(const pb_engine *engine, double scale);
/** Draw primitives in picture pixels (clipped to the image). A line is one pixel wide, its
 * direction kept however far outside the image its ends lie. */
PB_API void pb_image_draw_line(pb_image *image, double x0, double y0, double x1, double y1, pb_color color);
/** A line `width` pixels wide (1 or more). */
PB_API void pb_image_draw_wide_line(pb_image *image, double x0, double y0, double x1, double y1, int width,
                                    pb_color color);
PB_API void pb_image_draw_disc(pb_image *image, double x, double y, double radius, pb_color color);
PB_API void pb_image_draw_circle(pb_image *image, double x, double y, double radius, pb_color color);
/** Fill the convex hull of the `n` points `xy` (x, y pairs, picture pixels), mixing `color`
 * into what is there by `opacity` (0 to 1), and outline it in `outline` unless `opacity` is 0
 * (then only the outline is drawn). Pixels whose centres lie inside are filled. */
PB_API void pb_image_fill_hull(pb_image *image, const double *xy, size_t n, pb_color color, double opacity,
                               pb_color outline);
/** Write `text` with a built-in 5x7 font, `size` picture pixels per font pixel (1 or more),
 * its top-left corner at (x, y). Characters outside printable ASCII are skipped. */
PB_API void pb_image_draw_text(pb_image *image, double x, double y, const char *text, int size,
                               pb_color color);
/** The built-in font's glyph of `ch`: 7 rows, bit 4 the leftmost of 5 columns; NULL outside
 * printable ASCII. Static storage. */
PB_API const uint8_t *pb_image_glyph(int ch);
/** Draw `path` (`width` picture pixels wide): straight lines between its configurations, or for
 * an engine whose edges are steering curves (the car) each edge's curve, forward stretches in
 * `color` and reverse ones in orange, the vehicle's footprint along it (every few metres, and
 * at each waypoint) and every cusp (a change of direction) as a black dot. An engine drawn with
 * more than two coordinates (the 4D arm) also shows each waypoint's configuration, in a lighter
 * `color`; the manipulator draws its own: the robot faded along the path and its tool's trace
 * in three views. */
PB_API void pb_image_draw_path(pb_image *image, const pb_engine *engine, double scale, const pb_path *path,
                               pb_color color, int width);
/** Save as PNG atomically (a temporary file renamed over `path`). */
PB_API pb_status pb_image_save_png(const pb_image *image, const char *path, pb_diag *diag);

/* ---- The frame of an image map ----
 *
 * An image map (the image2d engine) has one of two frames. The pixel frame (PNG maps given
 * no frame option): x is the column and y the row from the top, in pixels, so pixel (i, j)
 * covers [i, i+1) x [j, j+1). A map frame (map_server YAML maps, and PNG maps given
 * `resolution`, `origin` or `frame=ros`): metres, y up, as ROS's map frame; `origin` is the
 * pose of the image's lower-left corner. A point (u, v) of the image (u right, v down, in
 * pixels) is at
 *
 *     (x, y) = (origin_x, origin_y) + R(origin_yaw) * (u * resolution, (height - v) * resolution)
 *
 * and the cell holding (x, y) is column floor(gx), grid row floor(gy) counted from the bottom
 * (image row height - 1 - floor(gy)), where (gx, gy) = (u, height - v): nav2's worldToMap. */

/** An image map's frame. Plain data. */
typedef struct pb_map_frame {
    bool metric;       /**< true: a map frame (y up); false: the pixel frame (y down) */
    int width, height; /**< the image, pixels */
    double resolution; /**< engine units (metres) per pixel; 1 in the pixel frame */
    double origin[3];  /**< the lower-left corner's x, y, yaw (radians, counter-clockwise); 0 in pixels */
} pb_map_frame;

/** The frame of `engine`'s map: false (and `*frame` untouched) for engines without one. */
PB_API bool pb_engine_map_frame(const pb_engine *engine, pb_map_frame *frame);
/** Image coordinates (u right, v down, pixels) of engine point `xy` (2 values each). */
PB_API void pb_map_frame_to_pixel(const pb_map_frame *frame, const double *xy, double *uv);
/** Engine coordinates of image point `uv`; the inverse of pb_map_frame_to_pixel(). */
PB_API void pb_map_frame_to_world(const pb_map_frame *frame, const double *uv, double *xy);
/** The image pixel (column, row from the top) holding engine point `xy`, by the rule above;
 * false when the point lies outside the image (or is not finite). */
PB_API bool pb_map_frame_cell(const pb_map_frame *frame, const double *xy, int *column, int *row);

#ifdef __cplusplus
}
#endif
#endif
