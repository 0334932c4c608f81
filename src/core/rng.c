/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. Pure integer arithmetic, so
 * a seed gives the same stream on every platform. */
#include "planbench/base.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void pb_rng_seed(pb_rng *rng, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&state);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t pb_rng_next(pb_rng *rng)
{
    uint64_t *s = rng->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double pb_rng_uniform(pb_rng *rng)
{
    return (double)(pb_rng_next(rng) >> 11) * 0x1.0p-53;
}

double pb_rng_range(pb_rng *rng, double low, double high)
{
    double v = low + (high - low) * pb_rng_uniform(rng);
    return v < high ? v : low; /* rounding must not reach `high` */
}

uint32_t pb_rng_below(pb_rng *rng, uint32_t n)
{
    /* Lemire's multiply-shift with rejection: unbiased. */
    uint64_t m = (uint64_t)(uint32_t)(pb_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        const uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(pb_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double pb_rng_normal(pb_rng *rng)
{
    /* Marsaglia's polar method; the spare deviate is dropped to keep the generator plain data. */
    double u, v, s;
    do {
        u = 2.0 * pb_rng_uniform(rng) - 1.0;
        v = 2.0 * pb_rng_uniform(rng) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}
