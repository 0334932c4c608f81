/* The arithmetic of image map frames (private to the library; the public side is
 * pb_map_frame in planbench/image.h): one definition of the transform, shared by the public
 * conversions and the image engine's hot checks so that both agree to the last bit. */
#ifndef PB_CORE_MAP_FRAME_H
#define PB_CORE_MAP_FRAME_H

#include "planbench/image.h"

#include <math.h>

/** A map frame ready for use: the frame and its rotation. */
typedef struct pb_frame_math {
    pb_map_frame frame;
    double cos_yaw, sin_yaw;
} pb_frame_math;

/** Precompute `frame`'s rotation. */
static inline pb_frame_math pb_frame_math_make(const pb_map_frame *frame)
{
    return (pb_frame_math){*frame, cos(frame->origin[2]), sin(frame->origin[2])};
}

/** Grid coordinates (gx, gy) of an engine point: pixels from the lower-left corner, y up. In
 * a map frame R(-yaw) (xy - origin) / resolution; for yaw 0 it is exactly (xy - origin) / r. */
static inline void pb_frame_to_grid(const pb_frame_math *m, const double *xy, double *g)
{
    const double dx = xy[0] - m->frame.origin[0], dy = xy[1] - m->frame.origin[1];
    g[0] = (m->cos_yaw * dx + m->sin_yaw * dy) / m->frame.resolution;
    g[1] = (m->cos_yaw * dy - m->sin_yaw * dx) / m->frame.resolution;
}

/** The engine point at grid coordinates `g`. */
static inline void pb_frame_from_grid(const pb_frame_math *m, const double *g, double *xy)
{
    const double lx = g[0] * m->frame.resolution, ly = g[1] * m->frame.resolution;
    xy[0] = m->frame.origin[0] + m->cos_yaw * lx - m->sin_yaw * ly;
    xy[1] = m->frame.origin[1] + m->sin_yaw * lx + m->cos_yaw * ly;
}

#endif
