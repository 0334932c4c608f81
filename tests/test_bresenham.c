/* Bresenham lines: the pixel set against an independent closed form in all octants, both
 * endpoints included, symmetry, and the pixels-read counter. */
#include "harness.h"
#include "checkers/checkers.h"

#include <math.h>
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

/* ---- the segment's supercover (pb_segment_free) ---------------------------------------- */

/* Independent and finer: points of the segment every 1/1000 of a pixel, and every crossing
 * of a pixel border (the points where the floor pixel changes), each read on its floor
 * pixel. Returns true when every point is on a free pixel. */
static bool segment_reference(const pb_bitmap *m, const double *a, const double *b)
{
    const double length = hypot(b[0] - a[0], b[1] - a[1]);
    const long n = (long)ceil(length * 1000.0) + 1;
    for (long i = 0; i <= n; i++) {
        const double t = (double)i / (double)n;
        const double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]);
        if (!pb_bitmap_free(m, (int)floor(x), (int)floor(y)))
            return false;
    }
    for (int axis = 0; axis < 2; axis++) {
        const double d = b[axis] - a[axis];
        if (d == 0.0)
            continue;
        const double lo = fmin(a[axis], b[axis]), hi = fmax(a[axis], b[axis]);
        for (double v = ceil(lo); v <= hi; v += 1.0) {
            const double t = (v - a[axis]) / d;
            if (t < 0.0 || t > 1.0)
                continue;
            const double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]);
            const int px = axis == 0 ? (int)v : (int)floor(x), py = axis == 1 ? (int)v : (int)floor(y);
            /* just before and at the border */
            if (px < W && py < H && !pb_bitmap_free(m, px, py))
                return false;
            const int qx = axis == 0 ? (int)v - 1 : px, qy = axis == 1 ? (int)v - 1 : py;
            if (qx >= 0 && qy >= 0 && !pb_bitmap_free(m, qx, qy))
                return false;
        }
    }
    return true;
}

static void test_segments(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    int false_free = 0, n_free = 0, n_blocked = 0, conservative = 0;
    for (int trial = 0; trial < 40; trial++) {
        pb_bitmap map;
        map_init(&map);
        /* scattered single pixels: the obstacles a Bresenham line cuts the corners of */
        for (int k = 0; k < 40 + trial * 10; k++)
            set_pixel(&map, (int)pb_rng_below(&rng, W), (int)pb_rng_below(&rng, H), false);
        for (int e = 0; e < 400; e++) {
            double a[2], b[2];
            a[0] = pb_rng_range(&rng, 0.0, W);
            a[1] = pb_rng_range(&rng, 0.0, H);
            const double len = pb_rng_range(&rng, 0.0, 30.0), angle = pb_rng_range(&rng, -M_PI, M_PI);
            b[0] = fmin(fmax(a[0] + len * cos(angle), 0.0), W - 1e-9);
            b[1] = fmin(fmax(a[1] + len * sin(angle), 0.0), H - 1e-9);
            if (e % 7 == 0) { /* through pixel corners exactly */
                a[0] = floor(a[0]) + 0.5;
                a[1] = floor(a[1]) + 0.5;
                const double k = (double)(1 + (int)pb_rng_below(&rng, 8));
                b[0] = fmin(a[0] + k, W - 0.5);
                b[1] = fmin(a[1] + (e % 2 ? k : -k), H - 0.5);
                b[1] = fmax(b[1], 0.5);
            }
            uint64_t pixels = 0;
            const bool got = pb_segment_free(&map, a, b, &pixels);
            const bool want = segment_reference(&map, a, b);
            if (got && !want)
                false_free++;
            if (!got && want && e % 7 != 0)
                conservative++;
            got ? n_free++ : n_blocked++;
            CHECK(got == pb_segment_free(&map, b, a, &pixels) || !got || !want);
        }
        free(map.bits);
    }
    CHECK_MSG(false_free == 0, "%d segments over an occupied pixel answered free", false_free);
    CHECK(n_free > 1000 && n_blocked > 1000);
    /* blocked answers on free segments (other than through exact corners, where both side
     * pixels are read on purpose) only within rounding of a corner: rare */
    CHECK_MSG(conservative * 100 < n_blocked, "%d free segments answered blocked", conservative);

    /* A segment grazing a pixel's corner by 1e-12 enters that pixel: blocked. The Bresenham
     * line between the same pixels does not read it. */
    pb_bitmap map;
    map_init(&map);
    set_pixel(&map, 9, 11, false); /* entered just before the corner (10, 11) */
    const double a[2] = {9.5, 10.5}, b[2] = {12.5, 13.5 + 4e-12};
    uint64_t pixels = 0;
    CHECK(!pb_segment_free(&map, a, b, &pixels));
    CHECK(pb_line_free(&map, 9, 10, 12, 13, &pixels));
    /* outside the map, NaN: blocked */
    const double out[2] = {-0.1, 5.0}, nan_q[2] = {NAN, 5.0};
    CHECK(!pb_segment_free(&map, out, a, &pixels));
    CHECK(!pb_segment_free(&map, a, nan_q, &pixels));
    /* a single point */
    CHECK(pb_segment_free(&map, a, a, &pixels));
    free(map.bits);
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
    test_segments();
    return pb_test_summary("bresenham");
}
