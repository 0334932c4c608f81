/* Bresenham lines: the pixel set against an independent closed form in all octants, both
 * endpoints included, symmetry, and the pixels-read counter. */
#include "harness.h"
#include "checkers/checkers.h"

#include <stdlib.h>
#include <string.h>

#define W 200
#define H 150

static void map_init(pb_bitmap *m)
{
    memset(m, 0, sizeof *m);
    m->width = W;
    m->height = H;
    m->words_per_row = (W + 63) / 64;
    m->bits = calloc(m->words_per_row * H, sizeof(uint64_t));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            m->bits[(size_t)y * m->words_per_row + (size_t)(x >> 6)] |= (uint64_t)1 << (x & 63);
}

static void set_pixel(pb_bitmap *m, int x, int y, bool free_pixel)
{
    uint64_t *w = &m->bits[(size_t)y * m->words_per_row + (size_t)(x >> 6)];
    const uint64_t bit = (uint64_t)1 << (x & 63);
    *w = free_pixel ? (*w | bit) : (*w & ~bit);
}

/* Reference: from the lexicographically smaller endpoint, the pixel at major-axis step i is
 * offset on the minor axis by round-half-up(|d_minor| * i / n), n = |d_major|. */
static int reference(long x0, long y0, long x1, long y1, long *xs, long *ys)
{
    if (x1 < x0 || (x1 == x0 && y1 < y0)) {
        long t = x0;
        x0 = x1;
        x1 = t;
        t = y0;
        y0 = y1;
        y1 = t;
    }
    const long dx = x1 - x0, dy = y1 - y0;
    const long adx = labs(dx), ady = labs(dy);
    const bool x_major = adx >= ady;
    const long n = x_major ? adx : ady, minor = x_major ? ady : adx;
    for (long i = 0; i <= n; i++) {
        const long off = n ? (2 * minor * i + n) / (2 * n) : 0;
        if (x_major) {
            xs[i] = x0 + (dx >= 0 ? i : -i);
            ys[i] = y0 + (dy >= 0 ? off : -off);
        } else {
            ys[i] = y0 + (dy >= 0 ? i : -i);
            xs[i] = x0 + (dx >= 0 ? off : -off);
        }
    }
    return (int)n + 1;
}

static bool in_set(const long *xs, const long *ys, int n, long x, long y)
{
    for (int i = 0; i < n; i++)
        if (xs[i] == x && ys[i] == y)
            return true;
    return false;
}

int main(void)
{
    pb_bitmap map;
    map_init(&map);
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    long xs[W + H], ys[W + H];
    int octant_seen[8] = {0};
    for (int trial = 0; trial < 400; trial++) {
        long x0 = 20 + pb_rng_below(&rng, W - 40), y0 = 20 + pb_rng_below(&rng, H - 40);
        long x1 = (long)pb_rng_below(&rng, W), y1 = (long)pb_rng_below(&rng, H);
        if (trial < 16) { /* exact diagonals, axis-aligned lines and a single pixel */
            const long d = 15;
            const long dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
            x0 = 100;
            y0 = 75;
            x1 = x0 + (trial < 8 ? d * dirs[trial][0] : 0);
            y1 = y0 + (trial < 8 ? d * dirs[trial][1] : 0);
        }
        const long dx = x1 - x0, dy = y1 - y0;
        octant_seen[(dx >= 0 ? 0 : 4) + (dy >= 0 ? 0 : 2) + (labs(dx) >= labs(dy) ? 0 : 1)]++;
        const int n = reference(x0, y0, x1, y1, xs, ys);

        uint64_t pixels = 0;
        CHECK(pb_line_free(&map, x0, y0, x1, y1, &pixels));
        CHECK_MSG(pixels == (uint64_t)n, "free line (%ld,%ld)-(%ld,%ld) read %llu pixels, expected %d", x0,
                  y0, x1, y1, (unsigned long long)pixels, n);
        /* Every pixel of the set blocks the line, in both directions (both endpoints included). */
        for (int i = 0; i < n; i++) {
            set_pixel(&map, (int)xs[i], (int)ys[i], false);
            pixels = 0;
            CHECK_MSG(!pb_line_free(&map, x0, y0, x1, y1, &pixels),
                      "pixel %d (%ld,%ld) of (%ld,%ld)-(%ld,%ld) missed", i, xs[i], ys[i], x0, y0, x1, y1);
            CHECK(!pb_line_free(&map, x1, y1, x0, y0, &pixels));
            set_pixel(&map, (int)xs[i], (int)ys[i], true);
        }
        /* No pixel next to the set (and outside it) blocks the line. */
        for (int i = 0; i < n; i++)
            for (int oy = -1; oy <= 1; oy++)
                for (int ox = -1; ox <= 1; ox++) {
                    const long px = xs[i] + ox, py = ys[i] + oy;
                    if (px < 0 || py < 0 || px >= W || py >= H || in_set(xs, ys, n, px, py))
                        continue;
                    set_pixel(&map, (int)px, (int)py, false);
                    pixels = 0;
                    CHECK_MSG(pb_line_free(&map, x0, y0, x1, y1, &pixels) &&
                                  pb_line_free(&map, x1, y1, x0, y0, &pixels),
                              "pixel (%ld,%ld) off the line (%ld,%ld)-(%ld,%ld) blocked it", px, py, x0, y0,
                              x1, y1);
                    set_pixel(&map, (int)px, (int)py, true);
                }
    }
    for (int o = 0; o < 8; o++)
        CHECK_MSG(octant_seen[o] > 0, "octant %d not exercised", o);

    /* Stops at the first blocked pixel: a wall at x = 50 on a horizontal line from x = 10. */
    for (int y = 0; y < H; y++)
        set_pixel(&map, 50, y, false);
    uint64_t pixels = 0;
    CHECK(!pb_line_free(&map, 10, 40, 190, 40, &pixels));
    CHECK(pixels == 41);
    /* Endpoints outside the map are blocked. */
    CHECK(!pb_line_free(&map, -1, 5, 10, 5, &pixels));
    CHECK(!pb_line_free(&map, 10, 5, W, 5, &pixels));
    CHECK(!pb_line_free(&map, 10, 5, 10, H, &pixels));
    free(map.bits);
    return pb_test_summary("bresenham");
}
