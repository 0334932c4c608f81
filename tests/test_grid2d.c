/* The obstacles' grid (src/checkers/grid2d.c, issue 21): after random sets, moves and removals
 * of boxes (small ones, ones larger than 64 cells, ones partly or wholly off the map; small moves
 * that keep a box in its cells), every query visits every slot whose box meets the query box
 * (checked against a scan of all boxes), never a removed one, and no box clearly apart from it
 * (by more than the float rounding of the boxes the cells keep). (The engine's obstacle checks through it are
 * tested by test_obstacles and the simulation's tests.) */
#include "harness.h"
#include "checkers/grid2d.h"
#include "planbench/base.h"

#include <stdlib.h>
#include <string.h>

enum { N = 400 };

static bool seen[N];
static bool mark(void *ctx, uint32_t slot)
{
    (void)ctx;
    if (slot < N)
        seen[slot] = true;
    return true;
}

int main(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    pb_grid2d *g = pb_grid2d_create(1000.0, 600.0);
    CHECK(g != NULL);
    if (!g)
        return pb_test_summary("grid2d");
    double box[N][4];
    bool live[N] = {false};
    int misses = 0, ghosts = 0, strays = 0, queries = 0;
    for (int round = 0; round < 4000; round++) {
        const uint32_t slot = (uint32_t)(pb_rng_next(&rng) % N);
        const double u = pb_rng_uniform(&rng);
        if (u < 0.15 && live[slot]) {
            pb_grid2d_remove(g, slot);
            live[slot] = false;
        } else if (u < 0.4 && live[slot]) {
            /* a small move: mostly the same cells, the box itself changed */
            const double dx = pb_rng_uniform(&rng) - 0.5, dy = pb_rng_uniform(&rng) - 0.5;
            const double lo[2] = {box[slot][0] + dx, box[slot][1] + dy},
                         hi[2] = {box[slot][2] + dx, box[slot][3] + dy};
            CHECK(pb_grid2d_set(g, slot, lo, hi));
            memcpy(box[slot], (double[4]){lo[0], lo[1], hi[0], hi[1]}, sizeof box[slot]);
        } else {
            /* mostly small boxes, some huge, some off the map */
            const double size = u < 0.2 ? 400.0 * pb_rng_uniform(&rng) : 20.0 * pb_rng_uniform(&rng);
            const double x = -100.0 + 1200.0 * pb_rng_uniform(&rng),
                         y = -100.0 + 800.0 * pb_rng_uniform(&rng);
            const double lo[2] = {x, y}, hi[2] = {x + size, y + size * pb_rng_uniform(&rng)};
            CHECK(pb_grid2d_set(g, slot, lo, hi));
            memcpy(box[slot], (double[4]){lo[0], lo[1], hi[0], hi[1]}, sizeof box[slot]);
            live[slot] = true;
        }
        if (round % 10)
            continue;
        const double qx = -50.0 + 1100.0 * pb_rng_uniform(&rng), qy = -50.0 + 700.0 * pb_rng_uniform(&rng);
        const double qs = 50.0 * pb_rng_uniform(&rng);
        const double qlo[2] = {qx, qy}, qhi[2] = {qx + qs, qy + qs};
        memset(seen, 0, sizeof seen);
        pb_grid2d_query(g, qlo, qhi, mark, NULL);
        queries++;
        for (int i = 0; i < N; i++) {
            const bool meets = live[i] && box[i][0] <= qhi[0] && box[i][2] >= qlo[0] && box[i][1] <= qhi[1] &&
                               box[i][3] >= qlo[1];
            const double slack = 1e-3; /* far above a float's rounding of coordinates below 1,200 */
            const bool apart = box[i][0] > qhi[0] + slack || box[i][2] < qlo[0] - slack ||
                               box[i][1] > qhi[1] + slack || box[i][3] < qlo[1] - slack;
            misses += meets && !seen[i];
            ghosts += !live[i] && seen[i];
            strays += live[i] && apart && seen[i];
        }
    }
    CHECK_MSG(misses == 0, "%d boxes meeting a query were not visited (%d queries)", misses, queries);
    CHECK_MSG(ghosts == 0, "%d removed boxes were visited", ghosts);
    CHECK_MSG(strays == 0, "%d boxes apart from a query were visited", strays);
    /* boxes beyond a float's range are kept as wide as they are */
    memset(seen, 0, sizeof seen);
    CHECK(pb_grid2d_set(g, 0, (double[2]){-1e40, -1e40}, (double[2]){1e40, 1e40}));
    CHECK(pb_grid2d_set(g, 1, (double[2]){1e39, 1e39}, (double[2]){2e39, 2e39}));
    pb_grid2d_query(g, (double[2]){10.0, 10.0}, (double[2]){11.0, 11.0}, mark, NULL);
    CHECK(seen[0] && !seen[1]);
    memset(seen, 0, sizeof seen);
    pb_grid2d_query(g, (double[2]){1.5e39, 1.5e39}, (double[2]){1.6e39, 1.6e39}, mark, NULL);
    CHECK(seen[0] && seen[1]);
    pb_grid2d_destroy(g);
    return pb_test_summary("grid2d");
}
