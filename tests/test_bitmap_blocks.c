/* The bitmap's coarse "all free" level (core/bitmap.c): its bits against a brute-force count
 * of every block's pixels, and the edge answers of pb_line_free() and pb_segment_free() with
 * the coarse level against the same map without it (the pixel walk alone) on two million
 * random segments: sparse and dense obstacles, single pixels that segments graze, corner
 * crossings, maps whose sides are not multiples of the block or word size. */
#include "harness.h"
#include "checkers/checkers.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK (1 << PB_BITMAP_BLOCK_SHIFT)

static void map_init(pb_bitmap *m, int width, int height)
{
    memset(m, 0, sizeof *m);
    m->width = width;
    m->height = height;
    m->words_per_row = ((size_t)width + 63) / 64;
    m->bits = calloc(m->words_per_row * (size_t)height, sizeof(uint64_t));
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            m->bits[(size_t)y * m->words_per_row + (size_t)(x >> 6)] |= (uint64_t)1 << (x & 63);
}

static void block_pixel(pb_bitmap *m, int x, int y)
{
    if (x >= 0 && y >= 0 && x < m->width && y < m->height)
        m->bits[(size_t)y * m->words_per_row + (size_t)(x >> 6)] &= ~((uint64_t)1 << (x & 63));
}

/* Every block bit against its definition, pixel by pixel. */
static void check_block_bits(const pb_bitmap *m)
{
    int bad = 0;
    for (int by = 0; by * BLOCK < m->height; by++)
        for (int bx = 0; bx * BLOCK < m->width; bx++) {
            bool all_free = true;
            for (int y = by * BLOCK; y < (by + 1) * BLOCK && y < m->height; y++)
                for (int x = bx * BLOCK; x < (bx + 1) * BLOCK && x < m->width; x++)
                    all_free &= pb_bitmap_free(m, x, y);
            const bool bit =
                (m->blocks[(size_t)by * m->block_words_per_row + (size_t)bx / 64] >> (bx & 63)) & 1u;
            bad += bit != all_free;
        }
    CHECK_MSG(bad == 0, "%dx%d map: %d coarse bits disagree with their pixels", m->width, m->height, bad);
}

/* A coordinate: uniform, or (one time in three) on a pixel border or centre, where walks
 * cross corners and ties are decided. */
static double coordinate(pb_rng *rng, double low, double high)
{
    const double v = pb_rng_range(rng, low, high);
    switch (pb_rng_below(rng, 6)) {
    case 0:
        return floor(v);
    case 1:
        return floor(v) + 0.5;
    default:
        return v;
    }
}

typedef struct tally {
    long segments, mismatches, coarse_answers, blocked;
} tally;

/* Compare both walks with and without the coarse level on `n` random segments. */
static void compare_walks(pb_bitmap *m, pb_rng *rng, long n, double max_length, tally *t)
{
    pb_bitmap plain = *m; /* the same pixels, no coarse level */
    plain.blocks = NULL;
    for (long i = 0; i < n; i++) {
        double a[2], b[2];
        a[0] = coordinate(rng, 0.0, m->width);
        a[1] = coordinate(rng, 0.0, m->height);
        const double length = pb_rng_range(rng, 0.0, max_length),
                     angle = pb_rng_range(rng, 0.0, 6.283185307179586);
        b[0] = a[0] + length * cos(angle);
        b[1] = a[1] + length * sin(angle);
        if (pb_rng_below(rng, 4) == 0) { /* axis-parallel and diagonal edges, ends on borders */
            b[0] = floor(b[0]);
            b[1] = pb_rng_below(rng, 2) ? a[1] : a[1] + (b[0] - a[0]);
        }
        uint64_t with = 0, without = 0;
        const bool seg = pb_segment_free(m, a, b, &with);
        const bool seg_ref = pb_segment_free(&plain, a, b, &without);
        const bool inside = a[0] >= 0 && a[1] >= 0 && b[0] >= 0 && b[1] >= 0 && a[0] < m->width &&
                            a[1] < m->height && b[0] < m->width && b[1] < m->height;
        bool line = false, line_ref = false;
        uint64_t line_with = 0, line_without = 0;
        if (inside) {
            line = pb_line_free(m, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &line_with);
            line_ref = pb_line_free(&plain, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &line_without);
        }
        if (seg != seg_ref || line != line_ref) {
            if (t->mismatches < 5)
                CHECK_MSG(false, "%dx%d map: segment (%.17g, %.17g)-(%.17g, %.17g): coarse %d/%d, walk %d/%d",
                          m->width, m->height, a[0], a[1], b[0], b[1], seg, line, seg_ref, line_ref);
            t->mismatches++;
        }
        t->segments++;
        t->coarse_answers += (seg && with < without) + (line && line_with < line_without);
        t->blocked += !seg_ref;
    }
}

int main(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    tally t = {0};
    /* sides that are not multiples of 8 or 64; one narrower than a block */
    const int sizes[][2] = {{203, 157}, {517, 90}, {6, 300}, {1000, 1000}};
    const double densities[] = {0.0, 0.0003, 0.003, 0.03};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++) {
            pb_bitmap m;
            map_init(&m, sizes[s][0], sizes[s][1]);
            const long n_obstacles = (long)(densities[d] * m.width * m.height);
            for (long k = 0; k < n_obstacles; k++)
                block_pixel(&m, (int)pb_rng_below(&rng, (uint32_t)m.width),
                            (int)pb_rng_below(&rng, (uint32_t)m.height));
            if (d == 0) /* one pixel for segments to graze, at a block corner */
                block_pixel(&m, m.width / 2 / BLOCK * BLOCK, m.height / 2 / BLOCK * BLOCK);
            CHECK(pb_bitmap_index_blocks(&m));
            check_block_bits(&m);
            const double longest = sizes[s][0] > sizes[s][1] ? sizes[s][0] : sizes[s][1];
            compare_walks(&m, &rng, 60000, 60.0, &t);
            compare_walks(&m, &rng, 60000, longest, &t);
            if (d == 0) { /* short segments around the one occupied pixel */
                pb_bitmap plain = m;
                plain.blocks = NULL;
                const double cx = m.width / 2 / BLOCK * BLOCK, cy = m.height / 2 / BLOCK * BLOCK;
                long bad = 0;
                for (int i = 0; i < 100000; i++) {
                    const double a[2] = {coordinate(&rng, cx - 20, cx + 20),
                                         coordinate(&rng, cy - 20, cy + 20)};
                    const double b[2] = {coordinate(&rng, cx - 20, cx + 20),
                                         coordinate(&rng, cy - 20, cy + 20)};
                    uint64_t px = 0;
                    bad += pb_segment_free(&m, a, b, &px) != pb_segment_free(&plain, a, b, &px);
                    if (a[0] >= 0 && a[1] >= 0 && b[0] >= 0 && b[1] >= 0 && a[0] < m.width &&
                        a[1] < m.height && b[0] < m.width && b[1] < m.height)
                        bad += pb_line_free(&m, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &px) !=
                               pb_line_free(&plain, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &px);
                }
                CHECK_MSG(bad == 0, "%dx%d map: %ld answers near the one occupied pixel differ", m.width,
                          m.height, bad);
            }
            pb_bitmap_finish(&m);
        }
    }
    CHECK_MSG(t.mismatches == 0, "%ld of %ld segments answered differently with the coarse level",
              t.mismatches, t.segments);
    /* the comparison means something only if both kinds of answer occurred often */
    CHECK_MSG(t.coarse_answers > t.segments / 10, "the coarse level answered only %ld of %ld",
              t.coarse_answers, t.segments);
    CHECK_MSG(t.blocked > t.segments / 10, "only %ld of %ld segments were blocked", t.blocked, t.segments);
    printf("%ld segments, %ld answered by the coarse level, %ld blocked\n", t.segments, t.coarse_answers,
           t.blocked);

    /* A map without a coarse level (never indexed, or out of memory) is simply walked. */
    pb_bitmap m;
    map_init(&m, 40, 40);
    const double a[2] = {1.5, 1.5}, b[2] = {38.5, 30.5};
    uint64_t px = 0;
    CHECK(!pb_bitmap_blocks_free_near(&m, a[0], a[1], b[0], b[1]));
    CHECK(pb_segment_free(&m, a, b, &px) && px > 0);
    pb_bitmap_finish(&m);
    return pb_test_summary("bitmap_blocks");
}
