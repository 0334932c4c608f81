/* Image map frames: the public conversions of planbench/image.h, on core/map_frame.h. */
#include "core/map_frame.h"

#include <string.h>

bool pb_engine_map_frame(const pb_engine *engine, pb_map_frame *frame)
{
    const pb_map_frame *own = pb_engine_get_data(engine, "map_frame");
    if (!own)
        return false;
    *frame = *own;
    return true;
}

void pb_map_frame_to_pixel(const pb_map_frame *frame, const double *xy, double *uv)
{
    double g[2] = {xy[0], xy[1]}; /* the pixel frame is the image's own */
    if (frame->metric) {
        const pb_frame_math m = pb_frame_math_make(frame);
        pb_frame_to_grid(&m, xy, g);
        g[1] = (double)frame->height - g[1];
    }
    uv[0] = g[0];
    uv[1] = g[1];
}

void pb_map_frame_to_world(const pb_map_frame *frame, const double *uv, double *xy)
{
    const double g[2] = {uv[0], frame->metric ? (double)frame->height - uv[1] : uv[1]};
    if (frame->metric) {
        const pb_frame_math m = pb_frame_math_make(frame);
        pb_frame_from_grid(&m, g, xy);
    } else {
        xy[0] = g[0];
        xy[1] = g[1];
    }
}

bool pb_map_frame_cell(const pb_map_frame *frame, const double *xy, int *column, int *row)
{
    double g[2] = {xy[0], xy[1]};
    if (frame->metric) {
        const pb_frame_math m = pb_frame_math_make(frame);
        pb_frame_to_grid(&m, xy, g);
    }
    /* written so that NaN is outside */
    if (!(g[0] >= 0.0 && g[1] >= 0.0 && g[0] < (double)frame->width && g[1] < (double)frame->height))
        return false;
    *column = (int)g[0];
    *row = frame->metric ? frame->height - 1 - (int)g[1] : (int)g[1];
    return true;
}
