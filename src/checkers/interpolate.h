/* The order in which interpolated edge checks visit an edge's configurations (private to
 * the library), shared by pb_edge_interpolated() and engines that choose their own spacing
 * (the 4D stick arm). */
#ifndef PB_CHECKERS_INTERPOLATE_H
#define PB_CHECKERS_INTERPOLATE_H

#include <stdbool.h>
#include <stdint.h>

/** Most segments an edge is cut into: a degenerate resolution must not hang a planner. */
#define PB_EDGE_MAX_SEGMENTS ((uint64_t)1 << 30)

/** An iterator over the interior indices 1 .. n-1 of an edge cut into n equal segments
 * (index i is the configuration at t = i / n). The endpoints 0 and n are the caller's.
 *
 * Sequential order is 1, 2, ..., n-1. Bisection order is breadth-first over halvings: the
 * midpoint first, then the midpoints of the two halves, and so on; with n not a power of
 * two the interval [0, n] at depth d is cut at floor(k n / 2^d), so each index is visited
 * exactly once, and the largest gap between checked points halves at every depth. Plain
 * caller storage, no allocation. */
typedef struct pb_edge_order {
    uint64_t n;
    bool bisection;
    unsigned depth;  /* bisection: the intervals at this depth are being split */
    uint64_t k;      /* bisection: the next interval at this depth */
    uint64_t next_i; /* sequential: the next index */
} pb_edge_order;

/** Segments of length at most `resolution` for an edge of `length`: ceil(length /
 * resolution), at least 1 (also for NaN) and at most PB_EDGE_MAX_SEGMENTS. */
uint64_t pb_edge_segments(double length, double resolution);

/** Start an iteration over an edge of `n_segments` (clamped to 1 .. PB_EDGE_MAX_SEGMENTS). */
void pb_edge_order_init(pb_edge_order *order, uint64_t n_segments, bool bisection);
/** The next index into `*index`; false when every interior index has been given. */
bool pb_edge_order_next(pb_edge_order *order, uint64_t *index);

#endif
