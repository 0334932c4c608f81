/* The default metric's per-coordinate difference (private to the library). */
#ifndef PB_CORE_METRIC_H
#define PB_CORE_METRIC_H

#include <math.h>

/* b - a, wrapped into [-period/2, period/2] when period > 0. */
static inline double pb_coord_delta(double a, double b, double period)
{
    double d = b - a;
    if (period > 0.0) {
        if (d > 0.5 * period || d < -0.5 * period) {
            d = fmod(d, period);
            if (d > 0.5 * period)
                d -= period;
            else if (d < -0.5 * period)
                d += period;
        }
    }
    return d;
}

#endif
