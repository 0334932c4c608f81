/* The uniform grid of grid2d.h. */
#include "grid2d.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BIG_CELLS 64 /* a box over more cells than this goes to the list every query reads */

/* A slot in a cell with its box, in floats rounded outwards: a query skips the boxes that do
 * not meet it without reading the caller's record of the slot (a few cache lines each: with
 * 10,000 entities on a map, most of a check's cost). */
typedef struct entry {
    uint32_t slot;
    float lo[2], hi[2];
} entry;

typedef struct cell {
    entry *items;
    uint32_t n, cap;
} cell;

typedef struct placed {
    int x0, y0, x1, y1; /* its cells; x0 < 0: not placed; x0 == INT32_MAX: in the big list */
} placed;

struct pb_grid2d {
    double size; /* cell side, grid units */
    int nx, ny;
    cell *cells;
    cell big;
    placed *where; /* by slot */
    uint32_t cap_where;
};

pb_grid2d *pb_grid2d_create(double width, double height)
{
    pb_grid2d *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    /* 16-pixel cells, coarser on a map larger than 8192 pixels: at most 512 x 512 cells */
    const double longest = fmax(fmax(width, height), 1.0);
    g->size = fmax(16.0, ceil(longest / 512.0));
    g->nx = (int)ceil(fmax(width, 1.0) / g->size);
    g->ny = (int)ceil(fmax(height, 1.0) / g->size);
    g->cells = calloc((size_t)g->nx * (size_t)g->ny, sizeof *g->cells);
    if (!g->cells) {
        free(g);
        return NULL;
    }
    return g;
}

void pb_grid2d_destroy(pb_grid2d *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < (size_t)g->nx * (size_t)g->ny; i++)
        free(g->cells[i].items);
    free(g->cells);
    free(g->big.items);
    free(g->where);
    free(g);
}

static int clamp(double v, int n)
{
    if (!(v > 0.0))
        return 0;
    return v >= n ? n - 1 : (int)v;
}

/* The float next to finite `f` towards -infinity (down) or +infinity (up), from its bits
 * (nextafterf is a library call; a move rounds four of these). */
static float float_step(float f, bool up)
{
    if (f == 0.0f)
        return up ? FLT_TRUE_MIN : -FLT_TRUE_MIN;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits = (f > 0.0f) == up ? bits + 1 : bits - 1; /* away from zero, or towards it */
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* `v` as a float no greater (down) or no less (up) than it (beyond the floats: the largest,
 * then a step to infinity). */
static float float_down(double v)
{
    const float f = (float)fmin(fmax(v, -FLT_MAX), FLT_MAX);
    return (double)f > v ? float_step(f, false) : f;
}

static float float_up(double v)
{
    const float f = (float)fmin(fmax(v, -FLT_MAX), FLT_MAX);
    return (double)f < v ? float_step(f, true) : f;
}

static entry entry_of(uint32_t slot, const double lo[2], const double hi[2])
{
    return (entry){slot, {float_down(lo[0]), float_down(lo[1])}, {float_up(hi[0]), float_up(hi[1])}};
}

static bool cell_add(cell *c, entry e)
{
    if (c->n == c->cap) {
        const uint32_t cap = c->cap ? 2 * c->cap : 4;
        entry *grown = realloc(c->items, cap * sizeof *grown);
        if (!grown)
            return false;
        c->items = grown;
        c->cap = cap;
    }
    c->items[c->n++] = e;
    return true;
}

static void cell_drop(cell *c, const entry *e)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].slot == e->slot) {
            c->items[i] = c->items[--c->n];
            return;
        }
}

/* The box of `e->slot`, which is in cell `c`, becomes `e`'s. */
static void cell_update(cell *c, const entry *e)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].slot == e->slot) {
            c->items[i] = *e;
            return;
        }
}

/* `fn` on each cell slot `p` is in (or the big list). */
static void for_cells(pb_grid2d *g, const placed *p, void (*fn)(cell *c, const entry *e), const entry *e)
{
    if (p->x0 == INT32_MAX) {
        fn(&g->big, e);
        return;
    }
    for (int y = p->y0; y <= p->y1; y++)
        for (int x = p->x0; x <= p->x1; x++)
            fn(&g->cells[(size_t)y * (size_t)g->nx + (size_t)x], e);
}

void pb_grid2d_remove(pb_grid2d *g, uint32_t slot)
{
    if (!g || slot >= g->cap_where || g->where[slot].x0 < 0)
        return;
    placed *p = &g->where[slot];
    const entry e = {.slot = slot};
    for_cells(g, p, cell_drop, &e);
    p->x0 = -1;
}

bool pb_grid2d_set(pb_grid2d *g, uint32_t slot, const double lo[2], const double hi[2])
{
    if (slot >= g->cap_where) {
        uint32_t cap = g->cap_where ? g->cap_where : 64;
        while (cap <= slot)
            cap *= 2;
        placed *grown = realloc(g->where, cap * sizeof *grown);
        if (!grown)
            return false;
        for (uint32_t i = g->cap_where; i < cap; i++)
            grown[i].x0 = -1;
        g->where = grown;
        g->cap_where = cap;
    }
    const placed to = {clamp(lo[0] / g->size, g->nx), clamp(lo[1] / g->size, g->ny),
                       clamp(hi[0] / g->size, g->nx), clamp(hi[1] / g->size, g->ny)};
    placed *p = &g->where[slot];
    const entry e = entry_of(slot, lo, hi);
    const bool big = (long)(to.x1 - to.x0 + 1) * (long)(to.y1 - to.y0 + 1) > BIG_CELLS;
    if (p->x0 >= 0 &&
        (big ? p->x0 == INT32_MAX : p->x0 == to.x0 && p->y0 == to.y0 && p->x1 == to.x1 && p->y1 == to.y1)) {
        /* the same cells: a small move only rewrites its box */
        for_cells(g, p, cell_update, &e);
        return true;
    }
    pb_grid2d_remove(g, slot);
    if (big) {
        if (!cell_add(&g->big, e))
            return false;
        p->x0 = INT32_MAX;
        return true;
    }
    for (int y = to.y0; y <= to.y1; y++)
        for (int x = to.x0; x <= to.x1; x++)
            if (!cell_add(&g->cells[(size_t)y * (size_t)g->nx + (size_t)x], e)) {
                *p = to; /* take out what went in */
                pb_grid2d_remove(g, slot);
                return false;
            }
    *p = to;
    return true;
}

/* Does entry `e`'s box meet [lo, hi] (touching counts)? */
static bool meets(const entry *e, const double lo[2], const double hi[2])
{
    return e->lo[0] <= hi[0] && e->hi[0] >= lo[0] && e->lo[1] <= hi[1] && e->hi[1] >= lo[1];
}

bool pb_grid2d_query(const pb_grid2d *g, const double lo[2], const double hi[2],
                     bool (*fn)(void *ctx, uint32_t slot), void *ctx)
{
    for (uint32_t i = 0; i < g->big.n; i++)
        if (meets(&g->big.items[i], lo, hi) && !fn(ctx, g->big.items[i].slot))
            return false;
    const int x0 = clamp(lo[0] / g->size, g->nx), x1 = clamp(hi[0] / g->size, g->nx);
    const int y0 = clamp(lo[1] / g->size, g->ny), y1 = clamp(hi[1] / g->size, g->ny);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            const cell *c = &g->cells[(size_t)y * (size_t)g->nx + (size_t)x];
            for (uint32_t i = 0; i < c->n; i++)
                if (meets(&c->items[i], lo, hi) && !fn(ctx, c->items[i].slot))
                    return false;
        }
    return true;
}
