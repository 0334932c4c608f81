/* Edge and line primitives shared by engines (private to the library). */
#ifndef PB_CHECKERS_H
#define PB_CHECKERS_H

#include "planbench/impl/engine_impl.h"
#include "core/bitmap.h"

/** Walk the integer Bresenham line from pixel (x0, y0) to pixel (x1, y1), both endpoints
 * included, and stop at the first pixel that is outside the map or occupied. Returns true
 * when every pixel is free. `*pixels` is increased by the number of pixels read. The pixel
 * set from a to b equals the set from b to a. A map with a coarse level
 * (pb_bitmap_index_blocks()) may answer a line through all-free blocks without reading its
 * pixels; the answer is the same and `*pixels` then does not grow. */
bool pb_line_free(const pb_bitmap *map, long x0, long y0, long x1, long y1, uint64_t *pixels);

/** Is every point of the continuous segment from `a` to `b` (pixel coordinates) on a free
 * pixel inside the map? Reads every pixel the segment passes through (its supercover; at a
 * pixel corner, or within rounding of one, both side pixels too), so a path of such edges
 * never crosses an occupied pixel at any resolution. `*pixels` grows by the pixels read
 * (not at all when the map's coarse level answers, as for pb_line_free()). */
bool pb_segment_free(const pb_bitmap *map, const double *a, const double *b, uint64_t *pixels);

/** Signature of a state check used inside edge checks. */
typedef bool (*pb_state_check_fn)(const void *self, const double *q, pb_engine_counters *counters);

/** Signature of an engine's geodesic (pb_engine_impl.interpolate). */
typedef void (*pb_interpolate_fn)(const void *self, const double *a, const double *b, double t, double *out);

/** The interpolated (sampled) edge check: configurations along the geodesic from `a` to `b`
 * (`interpolate`, or pb_setup_interpolate() when NULL) at spacing at most
 * setup->resolution for an edge `length` long (metric units), both endpoints included, each
 * checked with `check(self, q)`. With setup->bisection the order is endpoints, midpoint,
 * quarter points, ... (finds a collision sooner); otherwise a to b. Every configuration
 * checked adds one to counters->n_edge_states. Returns true when all are feasible. */
bool pb_edge_interpolated(const pb_engine_config *setup, const void *self, pb_state_check_fn check,
                          pb_interpolate_fn interpolate, double length, const double *a, const double *b,
                          pb_engine_counters *counters);

/** Signature of a clearance query (pb_engine_impl.clearance). */
typedef double (*pb_clearance_fn)(const void *self, const double *q, pb_engine_counters *counters);

/** The default geodesic of a setup: linear in every coordinate, wrapping ones the short way
 * round and taken back into [lower, lower + period); `t` >= 1 gives `b` exactly. */
void pb_setup_interpolate(const pb_engine_config *setup, const double *a, const double *b, double t,
                          double *out);
/** The default metric of a setup: weighted Euclidean, wrapping coordinates the short way. */
double pb_setup_distance(const pb_engine_config *setup, const double *a, const double *b);
/** The clearance floor certified checks use: setup->clearance_floor, or a quarter of the
 * resolution when that is 0. */
double pb_setup_clearance_floor(const pb_engine_config *setup);

/** How far on either side of `t` (in units of t) the configuration at `t` of an edge
 * certifies the motion, or a negative number (or 0) when it is blocked or too tight. */
typedef double (*pb_reach_fn)(const void *ctx, double t);

/** Certify t in [0, 1]: the reach at both ends, then at midpoints of what is left, depth
 * first, until every t is covered (true) or a reach says blocked (false). Each query adds one
 * to counters->n_edge_states. The shared loop of every clearance-stepping edge check. */
bool pb_certify_interval(pb_reach_fn reach, const void *ctx, pb_engine_counters *counters);

/** The certified edge check: along pb_setup_interpolate()'s segment from `a` to `b`, each
 * clearance query at a configuration q certifies every configuration within clearance(q)
 * of it (the segment has constant speed in the setup's metric). Uncertified stretches are
 * cut at their midpoints, depth first, until they are covered; a clearance below the floor
 * (pb_setup_clearance_floor()) anywhere, NaN included, answers "blocked". Each query adds
 * one to counters->n_edge_states. The stack is bounded: every stretch is at most half its
 * parent. */
bool pb_edge_certified(const pb_engine_config *setup, const void *self, pb_clearance_fn clearance,
                       const double *a, const double *b, pb_engine_counters *counters);

#endif
