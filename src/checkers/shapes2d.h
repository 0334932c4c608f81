/* Planar footprints as geometry (private to the library): a placed pb_footprint becomes one
 * or two convex parts, each a convex polygon of 1 to 4 vertices inflated by a radius (a disc
 * is one vertex inflated, a rectangle four vertices, an arm link a two-vertex segment). */
#ifndef PB_CHECKERS_SHAPES2D_H
#define PB_CHECKERS_SHAPES2D_H

#include "planbench/engine.h"

typedef struct pb_part2d {
    int n;          /**< vertices, 1..4, counter-clockwise when 3 or more */
    double v[4][2]; /**< vertices, map units */
    double r;       /**< inflation radius, >= 0 */
} pb_part2d;

typedef struct pb_shape2d {
    int n_parts; /**< 1 or 2 */
    pb_part2d part[2];
    double lo[2], hi[2]; /**< bounding box of the inflated parts */
} pb_shape2d;

/** Place `footprint` at `pose` (x, y, yaw). False when the footprint or the pose is malformed
 * (non-finite values, negative or absurd sizes). */
bool pb_shape2d_make(const pb_footprint *footprint, const double *pose, pb_shape2d *out);
/** Distance between two parts (0 when they intersect), ignoring their radii. */
double pb_part2d_distance(const pb_part2d *a, const pb_part2d *b);
/** Do two shapes overlap (touching counts)? */
bool pb_shape2d_overlap(const pb_shape2d *a, const pb_shape2d *b);
/** Does shape `s` overlap the open square (px, py)-(px+1, py+1) of one pixel? */
bool pb_shape2d_overlaps_pixel(const pb_shape2d *s, int px, int py);
/** Does shape `s` contain or touch the point (x, y)? */
bool pb_shape2d_contains(const pb_shape2d *s, double x, double y);
/** Does shape `s` touch the segment a-b? */
bool pb_shape2d_hits_segment(const pb_shape2d *s, const double *a, const double *b);

#endif
