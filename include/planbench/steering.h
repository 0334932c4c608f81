/* planbench: steering curves of a car-like robot (issue 18): the shortest Reeds-Shepp path
 * (forward and reverse) and the shortest Dubins path (forward only) between two poses
 * (x, y, yaw) with a minimum turning radius.
 *
 * A curve is a word of at most five segments, each a left arc (L), a straight line (S) or a
 * right arc (R) of a signed length in metres: negative when it is driven in reverse. An arc
 * of length s turns the heading by s / radius (L) or -s / radius (R); a reverse arc turns the
 * other way. The curve's length is the sum of the absolute segment lengths. Anyone can
 * re-integrate a curve from its start pose with these rules (pb_curve_point() does). */
#ifndef PLANBENCH_STEERING_H
#define PLANBENCH_STEERING_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which family of curves. */
typedef enum pb_curve_family {
    PB_CURVE_REEDS_SHEPP, /**< forward and reverse, cusps allowed (the car default) */
    PB_CURVE_DUBINS,      /**< forward only */
    PB_CURVE_FAMILY_COUNT
} pb_curve_family;

/** Most segments a curve has (Reeds-Shepp's CCSCC words). */
#define PB_CURVE_MAX_SEGMENTS 5

/** One segment: its type ('L', 'S' or 'R') and signed length (metres, < 0 in reverse). */
typedef struct pb_curve_segment {
    char type;
    double length;
} pb_curve_segment;

/** A steering curve. Plain data. */
typedef struct pb_curve {
    int n;         /**< segments in use, 0..PB_CURVE_MAX_SEGMENTS (0: start == goal) */
    double radius; /**< turning radius of its arcs, metres */
    pb_curve_segment segments[PB_CURVE_MAX_SEGMENTS];
} pb_curve;

/** The shortest curve of `family` from pose `a` to pose `b` (3 values each: x, y, yaw in
 * radians, any finite yaw) with turning radius `radius` (> 0, metres). Segments of zero length
 * (within 1e-12 radius) are left out and neighbours of one type and direction joined; a Dubins
 * curve has at most 3 segments, none negative. Where two words have the same length, the one
 * OMPL's ReedsSheppStateSpace or DubinsStateSpace returns. False (and `*out` with n = 0) when
 * an input is not finite or the radius is not positive. Pure, thread-safe, no allocation;
 * about a microsecond (docs/vehicles.md). */
PB_API bool pb_curve_shortest(pb_curve *out, pb_curve_family family, const double *a, const double *b,
                              double radius);

/** The curve's length: the sum of |segment length|, metres. */
PB_API double pb_curve_length(const pb_curve *curve);

/** The pose (`out`, 3 values, yaw wrapped to [-pi, pi)) reached after travelling `s` metres
 * of path (clamped to [0, pb_curve_length()]) along `curve` from pose `start`. Exact arcs;
 * at s = length the result equals the goal the curve was made for to rounding. */
PB_API void pb_curve_point(const pb_curve *curve, const double *start, double s, double *out);

/** Is the motion at path length `s` driven in reverse (the segment holding s has a negative
 * length)? At a segment boundary, the segment that starts there. */
PB_API bool pb_curve_reverse_at(const pb_curve *curve, double s);

/** Number of cusps (changes of direction between consecutive segments). */
PB_API int pb_curve_cusps(const pb_curve *curve);

/** Write the curve word as a JSON array `[{"type": "L", "length": 1.2}, ...]`. */
PB_API void pb_curve_write_json(FILE *out, const pb_curve *curve);

/** "reeds_shepp" and "dubins", and back (-1 for an unknown name). */
PB_API const char *pb_curve_family_name(pb_curve_family family);
PB_API int pb_curve_family_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
