/* Maps that tests draw themselves, and the independent checks made against them: a path is
 * re-validated from the picture the test drew, never through the library's own engine. */
#ifndef PB_TEST_PICTURE_H
#define PB_TEST_PICTURE_H

#include "planbench/planbench.h"

/** An axis-aligned obstacle: pixels [x0, x1) x [y0, y1). */
typedef struct tp_rect {
    int x0, y0, x1, y1;
} tp_rect;

/** Is pixel (x, y) inside the picture and pure white? */
bool tp_pixel_free(const pb_image *picture, long x, long y);
/** The closed-form Bresenham edge check (from the lexicographically smaller floor pixel, the
 * minor-axis offset at major step i is round-half-up(|d_minor| * i / |d_major|)); see
 * test_bresenham.c, which checks the library's walk against the same formula. */
bool tp_edge_free(const pb_image *picture, const double *a, const double *b);
/** Paint a rectangle black. */
void tp_fill_rect(pb_image *picture, tp_rect r);
/** FNV-1a over the bits of every coordinate: pins a path for determinism tests. */
uint64_t tp_path_hash(const pb_path *path);
/** Read a PNG file (any colour type) as an RGB picture (pb_image_finish() frees it); false when
 * it cannot be read. For tests that check the pictures planbench writes. */
bool tp_load_png(const char *path, pb_image *out);
/** Save the picture as a fresh PNG under /tmp (its name goes to `png`; the caller removes
 * it) and load it as an image engine. NULL (with a failed CHECK) on error. */
pb_engine *tp_load_picture(const pb_image *picture, char *png, size_t size);
/** Shortest path among `rects` from `start` to `goal`: Dijkstra over the visibility graph of
 * the two endpoints and the rectangles' corners pushed `margin` px outward diagonally, edges
 * checked with tp_edge_free. The optimum of a slightly inflated world: the true optimum is at
 * most this and, for a small margin, not much less. At most 16 rectangles. */
double tp_visibility_optimum(const pb_image *picture, const tp_rect *rects, int n_rects, const double *start,
                             const double *goal, double margin);

#endif
