/* Issue 21: does a uniform 2-D grid beat the kd-tree (src/core/nn.c) per nearest query?
 *
 * A prototype grid lives here, not in the library: cells of chunks of 8 points (structure of
 * arrays, unused slots padded far away so a chunk is scanned whole), the cell size re-chosen
 * and every point re-bucketed each time the count doubles, searched ring by ring and stopped
 * exactly when the next ring's distance lower bound exceeds the best distance. Points arrive
 * in RRT order (each new point a step of 50 from the nearest towards a uniform sample in a
 * 1000x1000 square, as on the OMPL maps) and the queries are uniform samples, as in RRT.
 * Every answer is checked against the kd-tree's (same distance; ids counted where they differ).
 *
 *   build-rel/bench/bench_nn_grid [QUERIES] [POINTS_PER_CELL] [REGION] [MAP] [BLOCK]
 *
 * With MAP (an image map, e.g. maps/maze.png) the tree grows by RRT on that map (an edge is
 * kept only when it is free), as the planners grow it; REGION is then ignored. BLOCK > 1 adds a
 * coarse level of BLOCK x BLOCK cells with point counts, searched ring by ring instead. Per-query
 * times: fastest of 7 rounds. "growth": the whole growth replayed on each structure (every
 * insert, re-bucketing and nearest query of the RRT run that built the tree), fastest of 3.
 * All times are thread CPU time.
 * The grid covers the points' bounding box (re-bucketed also when that box outgrows it
 * twice over), since a tree explores a map in part. */
#include "core/nn.h"
#include "planbench/impl/engine_impl.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CH 8

typedef struct chunk {
    double x[CH], y[CH];
    uint32_t id[CH];
    uint32_t count, next;
} chunk;

typedef struct grid {
    double lo[2], hi[2], cell, inv_cell; /* the grid covers [lo, hi): the points' box at the last rebuild */
    double blo[2], bhi[2];               /* the box of every point now */
    int nx, ny;
    uint32_t *head; /* per cell: first chunk (the one with room), UINT32_MAX when empty */
    chunk *chunks;
    size_t n_chunks, cap_chunks;
    double *px, *py; /* every point in insertion order, for re-bucketing */
    uint32_t *pid;
    size_t n, cap, rebuild_at;
    double per_cell;
    /* a coarse level: blocks of B x B cells with their point counts, so the ring search steps
     * over empty space a block at a time (B = 1: no coarse level) */
    int B, nbx, nby;
    uint32_t *bcount;
} grid;

static void grid_put(grid *g, double x, double y, uint32_t id)
{
    int cx = (int)((x - g->lo[0]) * g->inv_cell), cy = (int)((y - g->lo[1]) * g->inv_cell);
    cx = cx < 0 ? 0 : cx >= g->nx ? g->nx - 1 : cx;
    cy = cy < 0 ? 0 : cy >= g->ny ? g->ny - 1 : cy;
    g->bcount[(size_t)(cy / g->B) * (size_t)g->nbx + (size_t)(cx / g->B)]++;
    uint32_t *h = &g->head[(size_t)cy * (size_t)g->nx + (size_t)cx];
    if (*h == UINT32_MAX || g->chunks[*h].count == CH) {
        if (g->n_chunks == g->cap_chunks) {
            g->cap_chunks = g->cap_chunks ? 2 * g->cap_chunks : 64;
            g->chunks = realloc(g->chunks, g->cap_chunks * sizeof *g->chunks);
        }
        chunk *c = &g->chunks[g->n_chunks];
        for (int k = 0; k < CH; k++)
            c->x[k] = c->y[k] = HUGE_VAL;
        c->count = 0;
        c->next = *h;
        *h = (uint32_t)g->n_chunks++;
    }
    chunk *c = &g->chunks[*h];
    c->x[c->count] = x;
    c->y[c->count] = y;
    c->id[c->count++] = id;
}

static void grid_rebuild(grid *g)
{
    /* cover the points' box (a tree explores part of a map) with about n / per_cell cells */
    g->lo[0] = g->blo[0];
    g->lo[1] = g->blo[1];
    const double w = fmax(g->bhi[0] - g->blo[0], 1e-9), hgt = fmax(g->bhi[1] - g->blo[1], 1e-9);
    const double cells = fmax(1.0, (double)g->n / g->per_cell);
    g->cell = fmax(sqrt(w * hgt / cells), fmax(w, hgt) / 4096.0);
    g->inv_cell = 1.0 / g->cell;
    g->nx = (int)(w * g->inv_cell) + 1;
    g->ny = (int)(hgt * g->inv_cell) + 1;
    g->hi[0] = g->lo[0] + g->nx * g->cell;
    g->hi[1] = g->lo[1] + g->ny * g->cell;
    g->head = realloc(g->head, (size_t)g->nx * (size_t)g->ny * sizeof *g->head);
    for (size_t i = 0; i < (size_t)g->nx * (size_t)g->ny; i++)
        g->head[i] = UINT32_MAX;
    g->nbx = (g->nx + g->B - 1) / g->B;
    g->nby = (g->ny + g->B - 1) / g->B;
    free(g->bcount);
    g->bcount = calloc((size_t)g->nbx * (size_t)g->nby, sizeof *g->bcount);
    g->n_chunks = 0;
    for (size_t i = 0; i < g->n; i++)
        grid_put(g, g->px[i], g->py[i], g->pid[i]);
    g->rebuild_at = 2 * g->n;
}

static void grid_add(grid *g, uint32_t id, const double *q)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->px = realloc(g->px, g->cap * sizeof *g->px);
        g->py = realloc(g->py, g->cap * sizeof *g->py);
        g->pid = realloc(g->pid, g->cap * sizeof *g->pid);
    }
    g->px[g->n] = q[0];
    g->py[g->n] = q[1];
    g->pid[g->n++] = id;
    if (g->n == 1) {
        g->blo[0] = g->bhi[0] = q[0];
        g->blo[1] = g->bhi[1] = q[1];
    }
    g->blo[0] = fmin(g->blo[0], q[0]);
    g->blo[1] = fmin(g->blo[1], q[1]);
    g->bhi[0] = fmax(g->bhi[0], q[0]);
    g->bhi[1] = fmax(g->bhi[1], q[1]);
    /* re-bucket when the count doubles, or when the points' box has outgrown the grid's
     * twice over (points outside the grid pile up in its border cells) */
    const double area = (g->bhi[0] - g->blo[0]) * (g->bhi[1] - g->blo[1]);
    if (g->n >= g->rebuild_at || area > 2.0 * (g->hi[0] - g->lo[0]) * (g->hi[1] - g->lo[1]))
        grid_rebuild(g);
    else
        grid_put(g, q[0], q[1], id);
}

/* Squared distance from q to cell (cx, cy); border cells reach outwards without end, since
 * points outside the grid are clamped into them. */
static inline double cell_gap2(const grid *g, int cx, int cy, const double *q)
{
    const double x0 = cx == 0 ? -HUGE_VAL : g->lo[0] + cx * g->cell;
    const double x1 = cx == g->nx - 1 ? HUGE_VAL : g->lo[0] + (cx + 1) * g->cell;
    const double y0 = cy == 0 ? -HUGE_VAL : g->lo[1] + cy * g->cell;
    const double y1 = cy == g->ny - 1 ? HUGE_VAL : g->lo[1] + (cy + 1) * g->cell;
    const double bx = fmax(fmax(x0 - q[0], q[0] - x1), 0.0);
    const double by = fmax(fmax(y0 - q[1], q[1] - y1), 0.0);
    return bx * bx + by * by;
}

static inline void scan_cell(const grid *g, uint32_t c, const double *q, double *best_d2, uint32_t *best_id)
{
    for (; c != UINT32_MAX; c = g->chunks[c].next) {
        const chunk *ch = &g->chunks[c];
        double d2[CH];
        for (int k = 0; k < CH; k++) {
            const double dx = ch->x[k] - q[0], dy = ch->y[k] - q[1];
            d2[k] = dx * dx + dy * dy;
        }
        double m[CH / 2];
        for (int k = 0; k < CH / 2; k++)
            m[k] = d2[k] < d2[k + CH / 2] ? d2[k] : d2[k + CH / 2];
        for (int w = CH / 4; w > 0; w /= 2)
            for (int k = 0; k < w; k++)
                m[k] = m[k] < m[k + w] ? m[k] : m[k + w];
        if (m[0] <= *best_d2) {
            /* ties: the lowest id */
            for (uint32_t k = 0; k < ch->count; k++)
                if (d2[k] < *best_d2 || (d2[k] == *best_d2 && ch->id[k] < *best_id)) {
                    *best_d2 = d2[k];
                    *best_id = ch->id[k];
                }
        }
    }
}

/* blocks looked at (ring blocks, whether scanned or pruned), for the table */
static uint64_t cells_visited;

/* Squared distance from q to block (bx, by); border blocks reach outwards without end. */
static inline double block_gap2(const grid *g, int bx, int by, const double *q)
{
    const double size = g->B * g->cell;
    const double x0 = bx == 0 ? -HUGE_VAL : g->lo[0] + bx * size;
    const double x1 = bx == g->nbx - 1 ? HUGE_VAL : g->lo[0] + (bx + 1) * size;
    const double y0 = by == 0 ? -HUGE_VAL : g->lo[1] + by * size;
    const double y1 = by == g->nby - 1 ? HUGE_VAL : g->lo[1] + (by + 1) * size;
    const double ex = fmax(fmax(x0 - q[0], q[0] - x1), 0.0);
    const double ey = fmax(fmax(y0 - q[1], q[1] - y1), 0.0);
    return ex * ex + ey * ey;
}

static inline void scan_block(const grid *g, int bx, int by, const double *q, double *best_d2,
                              uint32_t *best_id)
{
    if (g->bcount[(size_t)by * (size_t)g->nbx + (size_t)bx] == 0 || block_gap2(g, bx, by, q) > *best_d2)
        return;
    const int x0 = bx * g->B, y0 = by * g->B;
    const int x1 = x0 + g->B < g->nx ? x0 + g->B : g->nx, y1 = y0 + g->B < g->ny ? y0 + g->B : g->ny;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint32_t h = g->head[(size_t)y * (size_t)g->nx + (size_t)x];
            if (h != UINT32_MAX && cell_gap2(g, x, y, q) <= *best_d2)
                scan_cell(g, h, q, best_d2, best_id);
        }
}

static uint32_t grid_nearest(const grid *g, const double *q, double *out_d2)
{
    int cx = (int)((q[0] - g->lo[0]) * g->inv_cell), cy = (int)((q[1] - g->lo[1]) * g->inv_cell);
    cx = cx < 0 ? 0 : cx >= g->nx ? g->nx - 1 : cx;
    cy = cy < 0 ? 0 : cy >= g->ny ? g->ny - 1 : cy;
    const int bx = cx / g->B, by = cy / g->B;
    const double size = g->B * g->cell;
    double best_d2 = DBL_MAX;
    uint32_t best_id = UINT32_MAX;
    scan_block(g, bx, by, q, &best_d2, &best_id);
    const int max_r = g->nbx > g->nby ? g->nbx : g->nby;
    const double gx = fmax(fmax(g->blo[0] - q[0], q[0] - g->bhi[0]), 0.0);
    const double gy = fmax(fmax(g->blo[1] - q[1], q[1] - g->bhi[1]), 0.0);
    for (int r = 1; r <= max_r; r++) {
        /* Every point not yet scanned lies in a block beyond one side of the square of rings
         * < r, and inside the points' box: the least distance from q to those slabs bounds
         * them all. A side at the grid's border has no blocks beyond it. */
        double lb2 = HUGE_VAL;
        if (bx - r + 1 > 0) {
            const double e = fmax(q[0] - (g->lo[0] + (bx - r + 1) * size), 0.0);
            lb2 = fmin(lb2, e * e + gy * gy);
        }
        if (bx + r - 1 < g->nbx - 1) {
            const double e = fmax(g->lo[0] + (bx + r) * size - q[0], 0.0);
            lb2 = fmin(lb2, e * e + gy * gy);
        }
        if (by - r + 1 > 0) {
            const double e = fmax(q[1] - (g->lo[1] + (by - r + 1) * size), 0.0);
            lb2 = fmin(lb2, e * e + gx * gx);
        }
        if (by + r - 1 < g->nby - 1) {
            const double e = fmax(g->lo[1] + (by + r) * size - q[1], 0.0);
            lb2 = fmin(lb2, e * e + gx * gx);
        }
        if (lb2 > best_d2)
            break;
        cells_visited += 8 * (uint64_t)r;
        const int x0 = bx - r, x1 = bx + r, y0 = by - r, y1 = by + r;
        for (int x = x0; x <= x1; x++) {
            if (x < 0 || x >= g->nbx)
                continue;
            if (y0 >= 0)
                scan_block(g, x, y0, q, &best_d2, &best_id);
            if (y1 < g->nby)
                scan_block(g, x, y1, q, &best_d2, &best_id);
        }
        for (int y = y0 + 1; y < y1; y++) {
            if (y < 0 || y >= g->nby)
                continue;
            if (x0 >= 0)
                scan_block(g, x0, y, q, &best_d2, &best_id);
            if (x1 < g->nbx)
                scan_block(g, x1, y, q, &best_d2, &best_id);
        }
    }
    *out_d2 = best_d2;
    return best_id;
}

/* Thread CPU time: the machine is shared, and wall time counts the other jobs' turns. */
static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool always_free(const void *self, const double *q, pb_engine_counters *c)
{
    (void)self;
    (void)q;
    (void)c;
    return true;
}

static const pb_engine_impl box_space = {.name = "box", .feasible = always_free};

int main(int argc, char **argv)
{
    const int n_queries = argc > 1 ? atoi(argv[1]) : 20000;
    const double per_cell = argc > 2 ? atof(argv[2]) : 4.0;
    /* the tree grows only in x < region * 1000 (queries stay uniform): a map explored in part */
    const double region = argc > 3 ? atof(argv[3]) : 1.0;
    const size_t sizes[] = {1000, 2000, 5000, 10000, 20000, 50000, 100000};
    pb_engine_config s = pb_engine_config_default(2);
    s.upper[0] = s.upper[1] = 1000.0;
    pb_engine *engine = NULL;
    const char *map = argc > 4 ? argv[4] : NULL;
    const int block = argc > 5 ? atoi(argv[5]) : 1;
    pb_diag diag = {0};
    if (map ? pb_engine_load(&engine, NULL, map, NULL, 0, &diag) != PB_OK
            : pb_engine_create(&engine, &box_space, NULL, &s, NULL) != PB_OK)
        return 1;
    double start[2] = {0, 0}, goal[2];
    if (map && !pb_engine_defaults(engine, start, goal))
        return 1;
    pb_rng rng;
    pb_rng_seed(&rng, 1);
    double *queries = malloc((size_t)n_queries * 2 * sizeof(double));
    for (int i = 0; i < n_queries; i++)
        pb_engine_sample(engine, &rng, queries + 2 * (size_t)i);
    uint64_t checksum = 0;
    /* every query of the growth (rejected edges too) and the tree's size when it was asked,
     * to replay the whole growth (inserts, re-bucketing and queries) on each structure */
    double *grow_q = NULL;
    uint32_t *grow_n = NULL;
    size_t cap_grow = 0;
    printf("| points | kd-tree ns/query | grid ns/query | ratio grid/kd | ring blocks/query | id differs | "
           "dist differs "
           "| growth queries | growth kd-tree ms | growth grid ms | ratio grid/kd |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        pb_nn *kd = NULL;
        pb_nn_create(&kd, engine);
        pb_nn_set_mode(kd, PB_NN_KDTREE);
        grid g = {.per_cell = per_cell, .rebuild_at = 1, .B = block};
        double root[2] = {map ? start[0] : 500.0 * region, map ? start[1] : 500.0};
        pb_nn_add(kd, 0, root);
        grid_add(&g, 0, root);
        size_t n_grow = 0;
        for (uint32_t k = 1; k < sizes[si];) { /* RRT growth, step 50 */
            double smp[2], d;
            pb_engine_sample(engine, &rng, smp);
            if (!map)
                smp[0] *= region;
            if (n_grow == cap_grow) {
                cap_grow = cap_grow ? 2 * cap_grow : 1024;
                grow_q = realloc(grow_q, cap_grow * 2 * sizeof *grow_q);
                grow_n = realloc(grow_n, cap_grow * sizeof *grow_n);
            }
            grow_q[2 * n_grow] = smp[0];
            grow_q[2 * n_grow + 1] = smp[1];
            grow_n[n_grow++] = k;
            const uint32_t near = pb_nn_nearest(kd, smp, &d);
            double nq[2] = {g.px[near], g.py[near]};
            if (d > 50.0) {
                nq[0] += (smp[0] - nq[0]) * 50.0 / d;
                nq[1] += (smp[1] - nq[1]) * 50.0 / d;
            } else {
                nq[0] = smp[0];
                nq[1] = smp[1];
            }
            if (map && !pb_engine_visible(engine, (double[2]){g.px[near], g.py[near]}, nq))
                continue;
            pb_nn_add(kd, k, nq);
            grid_add(&g, k, nq);
            k++;
        }
        size_t id_diff = 0, d_diff = 0;
        cells_visited = 0;
        for (int i = 0; i < n_queries; i++) {
            double dk, dg2;
            const uint32_t a = pb_nn_nearest(kd, queries + 2 * (size_t)i, &dk);
            const uint32_t b = grid_nearest(&g, queries + 2 * (size_t)i, &dg2);
            id_diff += a != b;
            d_diff += dk != sqrt(dg2);
        }
        const double cells_per_query = 1.0 + (double)cells_visited / n_queries;
        double t_kd = INFINITY, t_g = INFINITY;
        for (int round = 0; round < 7; round++) {
            double t0 = cpu_seconds();
            for (int i = 0; i < n_queries; i++)
                checksum += pb_nn_nearest(kd, queries + 2 * (size_t)i, NULL);
            t_kd = fmin(t_kd, (cpu_seconds() - t0) / n_queries);
            t0 = cpu_seconds();
            for (int i = 0; i < n_queries; i++) {
                double d2;
                checksum += grid_nearest(&g, queries + 2 * (size_t)i, &d2);
            }
            t_g = fmin(t_g, (cpu_seconds() - t0) / n_queries);
        }
        double r_kd = INFINITY, r_g = INFINITY;
        for (int round = 0; round < 3; round++) {
            double t0 = cpu_seconds();
            pb_nn *kr = NULL;
            pb_nn_create(&kr, engine);
            pb_nn_set_mode(kr, PB_NN_KDTREE);
            uint32_t added = 0;
            for (size_t i = 0; i < n_grow; i++) {
                for (; added < grow_n[i]; added++)
                    pb_nn_add(kr, added, (double[2]){g.px[added], g.py[added]});
                checksum += pb_nn_nearest(kr, grow_q + 2 * i, NULL);
            }
            r_kd = fmin(r_kd, cpu_seconds() - t0);
            pb_nn_destroy(kr);
            t0 = cpu_seconds();
            grid gr = {.per_cell = per_cell, .rebuild_at = 1, .B = block};
            added = 0;
            for (size_t i = 0; i < n_grow; i++) {
                for (; added < grow_n[i]; added++)
                    grid_add(&gr, added, (double[2]){g.px[added], g.py[added]});
                double d2;
                checksum += grid_nearest(&gr, grow_q + 2 * i, &d2);
            }
            r_g = fmin(r_g, cpu_seconds() - t0);
            free(gr.head);
            free(gr.chunks);
            free(gr.px);
            free(gr.py);
            free(gr.pid);
            free(gr.bcount);
        }
        printf("| %zu | %.0f | %.0f | %.2f | %.0f | %zu | %zu | %zu | %.2f | %.2f | %.2f |\n", sizes[si],
               t_kd * 1e9, t_g * 1e9, t_g / t_kd, cells_per_query, id_diff, d_diff, n_grow, r_kd * 1e3,
               r_g * 1e3, r_g / r_kd);
        pb_nn_destroy(kd);
        free(g.head);
        free(g.chunks);
        free(g.px);
        free(g.py);
        free(g.pid);
        free(g.bcount);
    }
    fprintf(stderr, "checksum %llu\n", (unsigned long long)checksum);
    free(queries);
    free(grow_q);
    free(grow_n);
    pb_engine_destroy(engine);
    return 0;
}
