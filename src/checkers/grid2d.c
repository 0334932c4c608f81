/* The uniform grid of grid2d.h. */
#include "grid2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BIG_CELLS 64 /* a box over more cells than this goes to the list every query reads */

typedef struct cell {
    uint32_t *slots;
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
        free(g->cells[i].slots);
    free(g->cells);
    free(g->big.slots);
    free(g->where);
    free(g);
}

static int clamp(double v, int n)
{
    if (!(v > 0.0))
        return 0;
    return v >= n ? n - 1 : (int)v;
}

static bool cell_add(cell *c, uint32_t slot)
{
    if (c->n == c->cap) {
        const uint32_t cap = c->cap ? 2 * c->cap : 4;
        uint32_t *grown = realloc(c->slots, cap * sizeof *grown);
        if (!grown)
            return false;
        c->slots = grown;
        c->cap = cap;
    }
    c->slots[c->n++] = slot;
    return true;
}

static void cell_drop(cell *c, uint32_t slot)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->slots[i] == slot) {
            c->slots[i] = c->slots[--c->n];
            return;
        }
}

void pb_grid2d_remove(pb_grid2d *g, uint32_t slot)
{
    if (!g || slot >= g->cap_where || g->where[slot].x0 < 0)
        return;
    placed *p = &g->where[slot];
    if (p->x0 == INT32_MAX) {
        cell_drop(&g->big, slot);
    } else {
        for (int y = p->y0; y <= p->y1; y++)
            for (int x = p->x0; x <= p->x1; x++)
                cell_drop(&g->cells[(size_t)y * (size_t)g->nx + (size_t)x], slot);
    }
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
    if (p->x0 == to.x0 && p->y0 == to.y0 && p->x1 == to.x1 && p->y1 == to.y1)
        return true; /* the same cells: a small move costs nothing */
    pb_grid2d_remove(g, slot);
    if ((long)(to.x1 - to.x0 + 1) * (long)(to.y1 - to.y0 + 1) > BIG_CELLS) {
        if (!cell_add(&g->big, slot))
            return false;
        p->x0 = INT32_MAX;
        return true;
    }
    for (int y = to.y0; y <= to.y1; y++)
        for (int x = to.x0; x <= to.x1; x++)
            if (!cell_add(&g->cells[(size_t)y * (size_t)g->nx + (size_t)x], slot)) {
                *p = to; /* take out what went in */
                pb_grid2d_remove(g, slot);
                return false;
            }
    *p = to;
    return true;
}

bool pb_grid2d_query(const pb_grid2d *g, const double lo[2], const double hi[2],
                     bool (*fn)(void *ctx, uint32_t slot), void *ctx)
{
    for (uint32_t i = 0; i < g->big.n; i++)
        if (!fn(ctx, g->big.slots[i]))
            return false;
    const int x0 = clamp(lo[0] / g->size, g->nx), x1 = clamp(hi[0] / g->size, g->nx);
    const int y0 = clamp(lo[1] / g->size, g->ny), y1 = clamp(hi[1] / g->size, g->ny);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            const cell *c = &g->cells[(size_t)y * (size_t)g->nx + (size_t)x];
            for (uint32_t i = 0; i < c->n; i++)
                if (!fn(ctx, c->slots[i]))
                    return false;
        }
    return true;
}
