/* Benchmark statistics: quantiles (type 7) and the binomial order-statistic interval for the
 * median. Definitions in planbench/bench.h. */
#include "planbench/bench.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

double pb_bench_quantile(const double *sorted, size_t n, double p)
{
    assert(n >= 1 && p >= 0.0 && p <= 1.0);
    const double h = (double)(n - 1) * p;
    const size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

bool pb_bench_median_ci(size_t n, double confidence, size_t *lo, size_t *hi)
{
    assert(confidence > 0.0 && confidence < 1.0);
    if (n == 0 || n > 100000000)
        return false;
    const double tail = (1.0 - confidence) / 2.0;
    /* P(B <= k) for B ~ Binomial(n, 1/2), summed in log space (n may be large). */
    double cumulative = 0.0;
    size_t best = 0; /* the largest l with P(B <= l - 1) <= tail; 0: none */
    for (size_t k = 0; k <= n / 2; k++) {
        const double log_term = lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
                                (double)n * log(2.0);
        cumulative += exp(log_term);
        if (cumulative <= tail * (1.0 + 1e-12))
            best = k + 1;
        else
            break;
    }
    if (best == 0)
        return false;
    *lo = best - 1;
    *hi = n - best;
    return true;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

pb_bench_summary pb_bench_summarise(double *values, size_t n)
{
    pb_bench_summary s = {
        .n = n, .median = NAN, .q1 = NAN, .q3 = NAN, .ci_lo = NAN, .ci_hi = NAN, .min = NAN, .max = NAN};
    if (n == 0)
        return s;
    qsort(values, n, sizeof *values, compare_doubles);
    s.median = pb_bench_quantile(values, n, 0.5);
    s.q1 = pb_bench_quantile(values, n, 0.25);
    s.q3 = pb_bench_quantile(values, n, 0.75);
    s.min = values[0];
    s.max = values[n - 1];
    size_t lo, hi;
    if (pb_bench_median_ci(n, 0.95, &lo, &hi)) {
        s.ci_lo = values[lo];
        s.ci_hi = values[hi];
    }
    return s;
}
