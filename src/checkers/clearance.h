/* Clearance on pixel maps (private to the library): the Euclidean distance transform of a
 * map's occupied pixels, and lower bounds on how far shapes lie from every occupied pixel.
 *
 * The bound's argument (also in stickarm4d.c): the transform gives, for every pixel, the
 * distance from its centre to the nearest occupied pixel's centre (the outside of the image
 * counts as occupied). A point x lies in a pixel whose centre is within sqrt(2)/2 of it, and
 * every point of an occupied square lies within sqrt(2)/2 of that square's centre, so x is at
 * least edt(pixel) - sqrt(2) from every occupied square. The least transform value over every
 * pixel a segment passes through (its supercover), less sqrt(2), bounds the whole segment. */
#ifndef PB_CHECKERS_CLEARANCE_H
#define PB_CHECKERS_CLEARANCE_H

#include "checkers/checkers.h"
#include "checkers/shapes2d.h"

/** How far a point may lie from its pixel's transform value (see the top), pixels. */
#define PB_EDT_MARGIN M_SQRT2

/** The distance transform of `map` (Felzenszwalb and Huttenlocher): `*out` gets width *
 * height floats, row y at y * width, from malloc. PB_ERR_NOMEM. */
pb_status pb_distance_transform(const pb_bitmap *map, float **out);

/** The least transform value over every pixel the continuous segment from `a` to `b` (pixel
 * coordinates) passes through, both side pixels at a corner; -1 when it leaves the image.
 * `*pixels` grows by the pixels read. */
double pb_segment_edt_min(const float *edt, int width, int height, const double *a, const double *b,
                          uint64_t *pixels);

/** A lower bound on the distance from the boundary of placed shape `s` (pixel coordinates) to
 * every occupied pixel square: for each part the least transform value along its polygon's
 * edges (its point, its segment), less PB_EDT_MARGIN and the part's radius. Negative when the
 * boundary leaves the image or touches an occupied square. The interior is not read: a caller
 * that moves a shape continuously from a placement known to be free keeps it free as long as
 * the boundary stays clear (an occupied square cannot enter without crossing the boundary). */
double pb_shape2d_edt_clearance(const pb_shape2d *s, const float *edt, int width, int height, uint64_t *pixels);

/** Certify t in [0, 1] forwards: from t = 0, each reach(t) > 0 certifies [t, t + reach), so
 * the next query is at t + reach, until t passes 1 (true, `*t_free` = 1) or a reach says
 * blocked (false). A blocked query at t creeps back: the midpoint between the last positive
 * reach and t is asked, and so on, so that the motion stops as near to what blocks it as the
 * reach allows, until it is within `creep` (in t) of the blocked t. Then `*t_free` is the last t whose reach was positive (0 when the first was
 * not): every t' in [0, t_free] is certified, and the pose there is not too tight to certify,
 * so a motion stopped there can start again (away from what blocked it). Each query
 * adds one to counters->n_edge_states. For a motion that must stop at its last free pose. */
bool pb_certify_forward(pb_reach_fn reach, const void *ctx, double creep, pb_engine_counters *counters,
                        double *t_free);

#endif
