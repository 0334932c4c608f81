/* Number formats, axes and label placement shared by the benchmark table (output.c) and the
 * figures (plots.c). Pure arithmetic, no cairo: the unit tests call it directly (private to
 * src/bench). */
#ifndef PB_BENCH_LAYOUT_H
#define PB_BENCH_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* ---- numbers ---- */

/** Write `v` to `buf` in fixed notation with `digits` significant digits, never an exponent:
 * with digits 3, 8.123 -> "8.12", 0.04123 -> "0.0412", 0 -> "0"; numbers of `digits` or more
 * whole digits are rounded to an integer (1352.7 -> "1353"). Non-finite values give "–".
 * Returns `buf`. */
char *pb_bench_format_fixed(char *buf, size_t size, double v, int digits);

/** Write a count (iterations, nodes, checks) to `buf`: exact below 10 000 ("950", "9999"),
 * above with three significant digits and a k/M/G suffix ("13.4k", "2.87M"). Medians of an
 * even number of counts may end in .5: they are rounded. Non-finite: "–". Returns `buf`. */
char *pb_bench_format_count(char *buf, size_t size, double v);

/* ---- cost over time ---- */

/** The type-7 p-quantile of `n` >= 1 sorted costs of which the last may be INFINITY (runs
 * without a solution yet): INFINITY when it depends on one. pb_bench_quantile gives NaN
 * (0 x INFINITY) when the quantile falls exactly on a finite value beside an infinite one. */
double pb_plot_quantile_unsolved(const double *sorted, size_t n, double p);

/* ---- axes ---- */

/** Most ticks an axis carries (decades of a log axis are capped to this too). */
#define PB_PLOT_MAX_TICKS 24

/** One axis: where its ends are, whether it is logarithmic, and its labelled ticks. */
typedef struct pb_plot_axis {
    bool log;      /**< log10 scale (lo > 0) */
    double lo, hi; /**< ends, data units, lo < hi */
    double ticks[PB_PLOT_MAX_TICKS];
    size_t n_ticks;
    double step; /**< linear: tick spacing; log: 10 */
} pb_plot_axis;

/** Whether time boxes with these medians (`n` values; non-positive and NaN ones ignored) need
 * a log axis: when the largest is more than PB_PLOT_LOG_SPREAD times the smallest, a linear
 * axis flattens the fast planners' boxes to a line. */
bool pb_plot_wants_log(const double *medians, size_t n);
#define PB_PLOT_LOG_SPREAD 20.0

/** A linear axis fitted to data in [lo, hi] (not stretched to 0): padded by 5 % of the range
 * and rounded out to ticks at 1, 2 or 5 x 10^k, 4 to 8 of them. An empty range (lo == hi)
 * is widened around the value. */
pb_plot_axis pb_plot_axis_fit(double lo, double hi);

/** A linear axis whose ends are exactly lo and hi (a time budget), ticks at 1, 2 or 5 x 10^k
 * inside. */
pb_plot_axis pb_plot_axis_span(double lo, double hi);

/** A log10 axis over data in [lo, hi] (lo > 0; lo == hi is widened), ends rounded out to
 * decades, a tick at each decade. */
pb_plot_axis pb_plot_axis_log(double lo, double hi);

/** The text of tick `i`: as many decimals as the tick spacing needs ("0.2", "1350", "0.001"),
 * never an exponent. Returns `buf`. */
char *pb_plot_tick_label(const pb_plot_axis *a, size_t i, char *buf, size_t size);

/** Where `v` lies on the axis: 0 at lo, 1 at hi (outside for values beyond; a log axis maps
 * non-positive values to its lower end). */
double pb_plot_axis_fraction(const pb_plot_axis *a, double v);

/* ---- labels under an axis ---- */

/** How the category labels under a horizontal axis are placed. Label i is anchored at the
 * centre of its slot, x = (i + 0.5) * slot, on the line y = 0 (y grows down). Horizontal
 * (angle 0): the box [x - w/2, x + w/2] x [0, height]. Rotated: the text rises to the right at
 * `angle` radians above the horizontal and ends at the anchor (so it hangs down to the left),
 * its height centred on that line: in the frame u along the text (cos a, -sin a), v across
 * it (sin a, cos a), the box [-w, 0] x [-height/2, height/2] around the anchor. */
typedef struct pb_plot_label_layout {
    double angle;    /**< 0, pi/4 or pi/2 */
    double depth;    /**< how far below y = 0 the lowest label reaches */
    double overhang; /**< how far left of x = 0 the first label reaches (0: not at all) */
} pb_plot_label_layout;

/** The least rotation at which `n` labels of the given widths and common `height` (text
 * extents, same units as `slot`) leave at least `gap` between neighbours, and the room they
 * take. Labels keep their whole text: when even pi/2 is too crowded, pi/2 is returned. */
pb_plot_label_layout pb_plot_layout_labels(const double *widths, size_t n, double height, double slot,
                                           double gap);

#endif
