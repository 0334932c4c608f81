/* Benchmark statistics against values computed by hand: type-7 quantiles, and the binomial
 * order-statistic confidence interval for the median (cumulative Binomial(n, 1/2) tails
 * worked out from the binomial coefficients in the comments). */
#include "harness.h"
#include "planbench/bench.h"

static void test_quantiles(void)
{
    const double four[] = {1, 2, 3, 4};
    /* h = (n - 1) p: p = 0.5 -> h = 1.5 -> 2 + 0.5 * (3 - 2) */
    CHECK_NEAR(pb_bench_quantile(four, 4, 0.5), 2.5, 1e-12);
    CHECK_NEAR(pb_bench_quantile(four, 4, 0.25), 1.75, 1e-12); /* h = 0.75 */
    CHECK_NEAR(pb_bench_quantile(four, 4, 0.75), 3.25, 1e-12); /* h = 2.25 */
    CHECK_NEAR(pb_bench_quantile(four, 4, 0.0), 1.0, 0.0);
    CHECK_NEAR(pb_bench_quantile(four, 4, 1.0), 4.0, 0.0);
    const double uneven[] = {0, 10, 11, 40, 100};
    /* p = 0.3: h = 1.2 -> 10 + 0.2 * 1 = 10.2; p = 0.9: h = 3.6 -> 40 + 0.6 * 60 = 76 */
    CHECK_NEAR(pb_bench_quantile(uneven, 5, 0.3), 10.2, 1e-12);
    CHECK_NEAR(pb_bench_quantile(uneven, 5, 0.9), 76.0, 1e-12);
    const double one[] = {7};
    CHECK_NEAR(pb_bench_quantile(one, 1, 0.5), 7.0, 0.0);
    CHECK_NEAR(pb_bench_quantile(one, 1, 0.25), 7.0, 0.0);
}

static void test_median_ci(void)
{
    size_t lo = 99, hi = 99;
    /* n = 5: P(B <= 0) = 1/32 = 0.03125 > 0.025: no 95% interval */
    CHECK(!pb_bench_median_ci(5, 0.95, &lo, &hi));
    CHECK(lo == 99 && hi == 99);
    /* n = 6: P(B <= 0) = 1/64 = 0.0156 <= 0.025, P(B <= 1) = 7/64 > 0.025: l = 1 -> [x(1), x(6)] */
    CHECK(pb_bench_median_ci(6, 0.95, &lo, &hi));
    CHECK(lo == 0 && hi == 5);
    /* n = 10: P(B <= 1) = 11/1024 = 0.0107, P(B <= 2) = 56/1024 = 0.0547: l = 2 -> [x(2), x(9)] */
    CHECK(pb_bench_median_ci(10, 0.95, &lo, &hi));
    CHECK(lo == 1 && hi == 8);
    /* n = 20: P(B <= 5) = 21700/2^20 = 0.0207, P(B <= 6) = 60460/2^20 = 0.0577: l = 6 -> [x(6), x(15)] */
    CHECK(pb_bench_median_ci(20, 0.95, &lo, &hi));
    CHECK(lo == 5 && hi == 14);
    /* n = 100: P(B <= 39) = 0.0176, P(B <= 40) = 0.0284: l = 40 -> [x(40), x(61)] */
    CHECK(pb_bench_median_ci(100, 0.95, &lo, &hi));
    CHECK(lo == 39 && hi == 60);
    /* 99% at n = 10: P(B <= 0) = 0.00098 <= 0.005 < P(B <= 1) = 0.0107: l = 1 */
    CHECK(pb_bench_median_ci(10, 0.99, &lo, &hi));
    CHECK(lo == 0 && hi == 9);
    CHECK(!pb_bench_median_ci(0, 0.95, &lo, &hi));
}

static void test_summary(void)
{
    double values[] = {10, 3, 7, 1, 9, 2, 8, 6, 5, 4}; /* 1..10 shuffled */
    const pb_bench_summary s = pb_bench_summarise(values, 10);
    CHECK(s.n == 10);
    CHECK_NEAR(s.median, 5.5, 1e-12);
    CHECK_NEAR(s.q1, 3.25, 1e-12); /* h = 2.25 */
    CHECK_NEAR(s.q3, 7.75, 1e-12); /* h = 6.75 */
    CHECK_NEAR(s.ci_lo, 2.0, 0.0); /* x(2) */
    CHECK_NEAR(s.ci_hi, 9.0, 0.0); /* x(9) */
    CHECK_NEAR(s.min, 1.0, 0.0);
    CHECK_NEAR(s.max, 10.0, 0.0);
    for (int i = 0; i < 10; i++)
        CHECK(values[i] == (double)(i + 1)); /* sorted in place */

    double three[] = {0.3, 0.1, 0.2};
    const pb_bench_summary t = pb_bench_summarise(three, 3);
    CHECK_NEAR(t.median, 0.2, 1e-15);
    CHECK_NEAR(t.q1, 0.15, 1e-15);
    CHECK_NEAR(t.q3, 0.25, 1e-15);
    CHECK(isnan(t.ci_lo) && isnan(t.ci_hi)); /* n < 6 */

    const pb_bench_summary none = pb_bench_summarise(NULL, 0);
    CHECK(none.n == 0 && isnan(none.median));
}

int main(void)
{
    test_quantiles();
    test_median_ci();
    test_summary();
    return pb_test_summary("bench_stats");
}
