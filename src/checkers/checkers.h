/* Edge and line primitives shared by engines (private to the library). */
#ifndef PB_CHECKERS_H
#define PB_CHECKERS_H

#include "planbench/engine.h"
#include "io/png_map.h"

/** Walk the integer Bresenham line from pixel (x0, y0) to pixel (x1, y1), both endpoints
 * included, and stop at the first pixel that is outside the map or occupied. Returns true
 * when every pixel is free. `*pixels` is increased by the number of pixels read. The pixel
 * set from a to b equals the set from b to a. */
bool pb_line_free(const pb_bitmap *map, long x0, long y0, long x1, long y1, uint64_t *pixels);

/** Signature of a state check used inside edge checks. */
typedef bool (*pb_state_check_fn)(const void *self, const double *q, pb_engine_counters *counters);

/** The interpolated edge check: configurations along the engine's geodesic from `a` to `b`
 * at spacing at most `resolution` (metric units), both endpoints included, each checked with
 * `check(self, q)`. With `bisection` the order is endpoints, midpoint, quarter points, ...
 * (finds a collision sooner); otherwise a to b. Every configuration checked adds one to
 * counters->n_edge_states. Returns true when all are feasible. */
bool pb_edge_interpolated(const pb_engine *engine, const void *self, pb_state_check_fn check, const double *a,
                          const double *b, double resolution, bool bisection, pb_engine_counters *counters);

#endif
