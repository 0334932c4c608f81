/* Number formats, axes and label placement for the benchmark table and figures (layout.h). */
#include "bench/layout.h"

#include <math.h>
#include <stdio.h>

/* `v` rounded to `digits` significant digits. */
static double round_significant(double v, int digits)
{
    if (v == 0.0 || !isfinite(v))
        return v;
    const double scale = pow(10.0, digits - 1 - (int)floor(log10(fabs(v))));
    return round(v * scale) / scale;
}

char *pb_bench_format_fixed(char *buf, size_t size, double v, int digits)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "–");
        return buf;
    }
    /* whole numbers keep their digits: 1352.7 ms is "1353", not "1350" */
    if (fabs(v) >= pow(10.0, digits - 1)) {
        snprintf(buf, size, "%.0f", v);
        return buf;
    }
    v = round_significant(v, digits);
    if (v == 0.0) {
        snprintf(buf, size, "0");
        return buf;
    }
    const int magnitude = (int)floor(log10(fabs(v)));
    const int decimals = digits - 1 - magnitude;
    snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, v);
    return buf;
}

char *pb_bench_format_count(char *buf, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "–");
        return buf;
    }
    v = round(v);
    if (fabs(v) < 1e4) {
        snprintf(buf, size, "%.0f", v);
        return buf;
    }
    static const char suffix[] = {'k', 'M', 'G', 'T'};
    const double r = round_significant(v, 3);
    int unit = 0;
    while (unit < 3 && fabs(r) >= pow(10.0, 3 * (unit + 2)))
        unit++;
    char number[48];
    pb_bench_format_fixed(number, sizeof number, r / pow(10.0, 3 * (unit + 1)), 3);
    snprintf(buf, size, "%s%c", number, suffix[unit]);
    return buf;
}

double pb_plot_quantile_unsolved(const double *sorted, size_t n, double p)
{
    const double h = (double)(n - 1) * p;
    const size_t below = (size_t)floor(h);
    const double frac = h - (double)below;
    if (frac == 0.0 || !isfinite(sorted[below]))
        return sorted[below];
    return sorted[below] + frac * (sorted[below + 1] - sorted[below]);
}

bool pb_plot_wants_log(const double *medians, size_t n)
{
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < n; i++)
        if (medians[i] > 0.0 && isfinite(medians[i])) {
            lo = fmin(lo, medians[i]);
            hi = fmax(hi, medians[i]);
        }
    return isfinite(lo) && hi > PB_PLOT_LOG_SPREAD * lo;
}

/* A tick spacing of 1, 2 or 5 x 10^k giving about `target` intervals over `range`. */
static double nice_step(double range, double target)
{
    const double raw = range / target;
    const double magnitude = pow(10.0, floor(log10(raw)));
    const double norm = raw / magnitude;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
}

/* Ticks at multiples of a->step within [lo, hi] (ends included up to rounding). */
static void linear_ticks(pb_plot_axis *a)
{
    const double eps = a->step * 1e-9;
    a->n_ticks = 0;
    for (double k = ceil((a->lo - eps) / a->step); a->n_ticks < PB_PLOT_MAX_TICKS; k++) {
        const double v = k * a->step;
        if (v > a->hi + eps)
            break;
        a->ticks[a->n_ticks++] = fabs(v) < eps ? 0.0 : v;
    }
}

pb_plot_axis pb_plot_axis_fit(double lo, double hi)
{
    const bool non_negative = lo >= 0.0;
    if (!(hi > lo)) {
        const double pad = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1.0;
        lo -= pad;
        hi += pad;
    } else {
        const double pad = 0.05 * (hi - lo);
        lo -= pad;
        hi += pad;
    }
    if (non_negative && lo < 0.0)
        lo = 0.0;
    pb_plot_axis a = {.log = false};
    a.step = nice_step(hi - lo, 5);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    linear_ticks(&a);
    return a;
}

pb_plot_axis pb_plot_axis_span(double lo, double hi)
{
    if (!(hi > lo))
        hi = lo + 1.0;
    pb_plot_axis a = {.log = false, .lo = lo, .hi = hi};
    a.step = nice_step(hi - lo, 5);
    linear_ticks(&a);
    return a;
}

pb_plot_axis pb_plot_axis_log(double lo, double hi)
{
    if (!(lo > 0.0))
        lo = hi > 0.0 ? hi / 10.0 : 1.0;
    if (!(hi > lo))
        hi = lo;
    double first = floor(log10(lo) + 1e-9), last = ceil(log10(hi) - 1e-9);
    if (last <= first)
        last = first + 1;
    pb_plot_axis a = {.log = true, .lo = pow(10.0, first), .hi = pow(10.0, last), .step = 10.0};
    /* a decade per tick, or every second (third, ...) one when there are too many */
    const double every = ceil((last - first + 1) / PB_PLOT_MAX_TICKS);
    for (double k = first; k <= last && a.n_ticks < PB_PLOT_MAX_TICKS; k += every)
        a.ticks[a.n_ticks++] = pow(10.0, k);
    return a;
}

char *pb_plot_tick_label(const pb_plot_axis *a, size_t i, char *buf, size_t size)
{
    const double v = a->ticks[i];
    const double resolution = a->log ? v : a->step;
    const int decimals = (int)-floor(log10(resolution) + 1e-9);
    snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, v);
    return buf;
}

double pb_plot_axis_fraction(const pb_plot_axis *a, double v)
{
    if (a->log)
        return v > 0.0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0.0;
    return (v - a->lo) / (a->hi - a->lo);
}

/* Whether neighbouring labels keep `gap` apart at angle `a` (the rule in layout.h). */
static bool labels_fit(const double *widths, size_t n, double height, double slot, double gap, double a)
{
    if (a == 0.0) {
        for (size_t i = 0; i + 1 < n; i++)
            if ((widths[i] + widths[i + 1]) / 2 + gap > slot)
                return false;
        return true;
    }
    /* rotated boxes are parallel: across the text, neighbours are slot sin a apart */
    return n < 2 || slot * sin(a) >= height + gap;
}

pb_plot_label_layout pb_plot_layout_labels(const double *widths, size_t n, double height, double slot,
                                           double gap)
{
    const double angles[] = {0.0, M_PI / 4, M_PI / 2};
    pb_plot_label_layout l = {.angle = M_PI / 2};
    for (size_t k = 0; k < 3; k++)
        if (labels_fit(widths, n, height, slot, gap, angles[k])) {
            l.angle = angles[k];
            break;
        }
    const double c = cos(l.angle), s = sin(l.angle);
    double left = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double x = ((double)i + 0.5) * slot;
        if (l.angle == 0.0) {
            l.depth = height;
            left = fmin(left, x - widths[i] / 2);
        } else {
            /* lowest: the corner u = -w, v = +h/2; leftmost: u = -w, v = -h/2 */
            l.depth = fmax(l.depth, widths[i] * s + height / 2 * c);
            left = fmin(left, x - widths[i] * c - height / 2 * s);
        }
    }
    l.overhang = -left;
    return l;
}
