/* The seeded generator: determinism, ranges and rough distribution checks. */
#include "harness.h"
#include "planbench/base.h"

int main(void)
{
    pb_rng a, b;
    pb_rng_seed(&a, 42);
    pb_rng_seed(&b, 42);
    bool same = true;
    for (int i = 0; i < 1000; i++)
        same &= pb_rng_next(&a) == pb_rng_next(&b);
    CHECK(same);
    pb_rng_seed(&b, 43);
    CHECK(pb_rng_next(&a) != pb_rng_next(&b));

    /* Pinned: xoshiro256** seeded by splitmix64(0) (reference values of the published
     * algorithms), so a change of generator is noticed. */
    pb_rng_seed(&a, 0);
    const uint64_t first = pb_rng_next(&a);
    CHECK_MSG(first == 0x99ec5f36cb75f2b4ull, "first output for seed 0 is %016llx",
              (unsigned long long)first);

    pb_rng_seed(&a, 5);
    double sum = 0.0, sum2 = 0.0, nsum = 0.0, nsum2 = 0.0;
    unsigned counts[10] = {0};
    bool in_range = true;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        const double u = pb_rng_uniform(&a);
        in_range &= u >= 0.0 && u < 1.0;
        sum += u;
        sum2 += u * u;
        const double r = pb_rng_range(&a, -3.0, 2.0);
        in_range &= r >= -3.0 && r < 2.0;
        const uint32_t k = pb_rng_below(&a, 10);
        in_range &= k < 10;
        counts[k < 10 ? k : 0]++;
        const double g = pb_rng_normal(&a);
        nsum += g;
        nsum2 += g * g;
    }
    CHECK(in_range);
    CHECK_NEAR(sum / n, 0.5, 0.005);
    CHECK_NEAR(sum2 / n - (sum / n) * (sum / n), 1.0 / 12.0, 0.002);
    CHECK_NEAR(nsum / n, 0.0, 0.01);
    CHECK_NEAR(nsum2 / n, 1.0, 0.02);
    double chi2 = 0.0;
    for (int k = 0; k < 10; k++) {
        const double e = n / 10.0;
        chi2 += (counts[k] - e) * (counts[k] - e) / e;
    }
    CHECK_MSG(chi2 < 27.9, "chi-square %g over 10 bins (p < 0.001 threshold 27.9)", chi2); /* 9 dof */
    return pb_test_summary("rng");
}
