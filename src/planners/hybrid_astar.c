/* Hybrid A* (Dolgov, Thrun, Montemerlo, Diebel 2008) on a car-like engine: A* over (x, y,
 * heading) bins whose nodes keep continuous poses, expanded by arcs of the least turning radius
 * and straight moves, forward and (where the engine's curves reverse: Reeds-Shepp) backward;
 * every arc is an edge of the engine, so the footprint is swept along all of it, certified, not
 * only at its end (Autoware's planner checked endpoints until its PR #12403). Each expanded
 * node also tries the analytic expansion: the engine's own curve (Reeds-Shepp or Dubins) straight
 * to the goal, which is how a path ends exactly at the goal. The heuristic is the larger of the
 * curve length to the goal (obstacles ignored) and a 2-D grid distance (holonomic, around the
 * map's obstacles grown by what the footprint keeps around its reference point: Dijkstra from
 * the goal). Deterministic: no randomness, ties broken by node order.
 *
 * The engine must join poses by steering curves (pb_engine_curve(): the car engine); others
 * are refused when the planner is made. */
#include "core/bitmap.h"
#include "core/engine_private.h"
#include "planbench/image.h"
#include "planbench/impl/planner_impl.h"
#include "planbench/vehicle.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ha_params {
    double cell;           /* xy bin size, m */
    int headings;          /* heading bins */
    double step;           /* arc length of one expansion, m */
    int steers;            /* curvatures per direction: 3 (-max, 0, +max) or 5 (and half) */
    double reverse_weight; /* cost factor of reverse motion */
    double switch_cost;    /* cost of a change of direction, m */
    double steer_cost;     /* extra cost per metre of arc at full steer */
    int shot_every;        /* expansions between analytic expansions at four turning radii */
    double weight;         /* f = g + weight * h */
} ha_params;

static const pb_param_def ha_param_defs[] = {
    {"cell", PB_PARAM_DOUBLE, offsetof(ha_params, cell), 0.0, 0.5, 1e6,
     "size of the (x, y) bins, metres (poses inside a bin compete; the 2-D heuristic's cell too)"},
    {"headings", PB_PARAM_INT, offsetof(ha_params, headings), 4, 144, 4096,
     "heading bins (Autoware's default 144)"},
    {"step", PB_PARAM_DOUBLE, offsetof(ha_params, step), 0.0, 0.0, 1e6,
     "arc length of one expansion, metres; 0 = 1.5 cells (out of the bin it starts in)"},
    {"steers", PB_PARAM_INT, offsetof(ha_params, steers), 3, 3, 5,
     "curvatures tried: 3 (full left, straight, full right) or 5 (and half steer)"},
    {"reverse_weight", PB_PARAM_DOUBLE, offsetof(ha_params, reverse_weight), 1.0, 1.5, 100.0,
     "cost factor of driving in reverse (the reported cost is the curves' length)"},
    {"switch_cost", PB_PARAM_DOUBLE, offsetof(ha_params, switch_cost), 0.0, 2.0, 1e6,
     "search cost of a change between forward and reverse, metres"},
    {"steer_cost", PB_PARAM_DOUBLE, offsetof(ha_params, steer_cost), 0.0, 0.05, 100.0,
     "extra search cost per metre of arc at full steer (prefers straight)"},
    {"shot_every", PB_PARAM_INT, offsetof(ha_params, shot_every), 1, 1, 1000000,
     "expansions between tries of the curve straight to the goal at four turning radii from it (the interval "
     "grows with the square of the distance; every expansion tries within two turning radii)"},
    {"weight", PB_PARAM_DOUBLE, offsetof(ha_params, weight), 1.0, 1.5, 100.0,
     "heuristic weight: f = g + weight * h (1: A*, the shortest within the bins; the default 1.5 expands "
     "about 40x fewer nodes on maps/wall40.yaml for a path 5 % longer)"},
};

/* ---- nodes, the bin table, the open heap ---- */

typedef struct ha_search {
    double *x, *y, *yaw, *g, *h; /* h: the weighted heuristic, computed once per node */
    double *to_goal;             /* the curve's length to the goal (h's first term; the shot's schedule) */
    uint32_t *parent;
    int8_t *dir; /* +1 forward, -1 reverse, 0 the start */
    uint32_t n, cap;
    uint64_t *keys; /* bin -> node, open addressing; key 0 = empty (keys are stored + 1) */
    uint32_t *vals;
    size_t table_cap, table_n;
    double *heap_f;
    uint32_t *heap_node;
    size_t heap_n, heap_cap;
} ha_search;

static bool grow_nodes(ha_search *s)
{
    if (s->n < s->cap)
        return true;
    const uint32_t cap = s->cap ? 2 * s->cap : 4096;
    double *x = realloc(s->x, cap * sizeof *x);
    if (x)
        s->x = x;
    double *y = x ? realloc(s->y, cap * sizeof *y) : NULL;
    if (y)
        s->y = y;
    double *yaw = y ? realloc(s->yaw, cap * sizeof *yaw) : NULL;
    if (yaw)
        s->yaw = yaw;
    double *g = yaw ? realloc(s->g, cap * sizeof *g) : NULL;
    if (g)
        s->g = g;
    double *h = g ? realloc(s->h, cap * sizeof *h) : NULL;
    if (h)
        s->h = h;
    double *to_goal = h ? realloc(s->to_goal, cap * sizeof *to_goal) : NULL;
    if (to_goal)
        s->to_goal = to_goal;
    uint32_t *parent = to_goal ? realloc(s->parent, cap * sizeof *parent) : NULL;
    if (parent)
        s->parent = parent;
    int8_t *dir = parent ? realloc(s->dir, cap * sizeof *dir) : NULL;
    if (dir)
        s->dir = dir;
    if (!dir)
        return false;
    s->cap = cap;
    return true;
}

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

/* The slot of `key` (found, or empty where it would go). */
static size_t table_slot(const ha_search *s, uint64_t key)
{
    size_t i = (size_t)mix(key) & (s->table_cap - 1);
    while (s->keys[i] && s->keys[i] != key + 1)
        i = (i + 1) & (s->table_cap - 1);
    return i;
}

static bool table_grow(ha_search *s)
{
    if (s->table_cap && 2 * (s->table_n + 1) <= s->table_cap)
        return true;
    const size_t cap = s->table_cap ? 2 * s->table_cap : 8192;
    uint64_t *old_keys = s->keys;
    uint32_t *old_vals = s->vals;
    const size_t old_cap = s->table_cap;
    s->keys = calloc(cap, sizeof *s->keys);
    s->vals = malloc(cap * sizeof *s->vals);
    if (!s->keys || !s->vals) {
        free(s->keys);
        free(s->vals);
        s->keys = old_keys;
        s->vals = old_vals;
        return false;
    }
    s->table_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old_keys[i]) {
            const size_t j = table_slot(s, old_keys[i] - 1);
            s->keys[j] = old_keys[i];
            s->vals[j] = old_vals[i];
        }
    free(old_keys);
    free(old_vals);
    return true;
}

static bool heap_push(ha_search *s, double f, uint32_t node)
{
    if (s->heap_n == s->heap_cap) {
        const size_t cap = s->heap_cap ? 2 * s->heap_cap : 4096;
        double *hf = realloc(s->heap_f, cap * sizeof *hf);
        if (hf)
            s->heap_f = hf;
        uint32_t *hn = hf ? realloc(s->heap_node, cap * sizeof *hn) : NULL;
        if (!hn)
            return false;
        s->heap_node = hn;
        s->heap_cap = cap;
    }
    size_t i = s->heap_n++;
    while (i > 0) {
        const size_t up = (i - 1) / 2;
        /* ties: the older node first, so the search does not depend on the heap's layout */
        if (s->heap_f[up] < f || (s->heap_f[up] == f && s->heap_node[up] < node))
            break;
        s->heap_f[i] = s->heap_f[up];
        s->heap_node[i] = s->heap_node[up];
        i = up;
    }
    s->heap_f[i] = f;
    s->heap_node[i] = node;
    return true;
}

static uint32_t heap_pop(ha_search *s, double *f)
{
    const uint32_t top = s->heap_node[0];
    *f = s->heap_f[0];
    const double lf = s->heap_f[--s->heap_n];
    const uint32_t ln = s->heap_node[s->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_n)
            break;
        if (c + 1 < s->heap_n && (s->heap_f[c + 1] < s->heap_f[c] || (s->heap_f[c + 1] == s->heap_f[c] &&
                                                                      s->heap_node[c + 1] < s->heap_node[c])))
            c++;
        if (lf < s->heap_f[c] || (lf == s->heap_f[c] && ln < s->heap_node[c]))
            break;
        s->heap_f[i] = s->heap_f[c];
        s->heap_node[i] = s->heap_node[c];
        i = c;
    }
    s->heap_f[i] = lf;
    s->heap_node[i] = ln;
    return top;
}

static void search_free(ha_search *s)
{
    free(s->x);
    free(s->y);
    free(s->yaw);
    free(s->g);
    free(s->h);
    free(s->to_goal);
    free(s->parent);
    free(s->dir);
    free(s->keys);
    free(s->vals);
    free(s->heap_f);
    free(s->heap_node);
}

/* ---- the 2-D heuristic ---- */

typedef struct grid2d {
    int width, height;
    double cell, lo[2];
    float *dist; /* metres to the goal's cell, INFINITY where unreachable */
} grid2d;

/* Dijkstra from the goal over cells holding at least one free map pixel (8-connected), when
 * the engine exposes an axis-aligned metric map; else no grid (the curve length alone). */
static bool grid_build(grid2d *grid, const pb_engine *engine, double cell, const double *goal)
{
    memset(grid, 0, sizeof *grid);
    const pb_bitmap *map = pb_engine_get_data(engine, "bitmap");
    const pb_map_frame *frame = pb_engine_get_data(engine, "map_frame");
    if (!map || !frame || !frame->metric || frame->origin[2] != 0.0)
        return true;
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    grid->cell = cell;
    grid->lo[0] = lo[0];
    grid->lo[1] = lo[1];
    grid->width = (int)ceil((hi[0] - lo[0]) / cell);
    grid->height = (int)ceil((hi[1] - lo[1]) / cell);
    const size_t n = (size_t)grid->width * (size_t)grid->height;
    if (n == 0 || n > (size_t)1 << 26)
        return true; /* too fine a grid for a heuristic: go without */
    grid->dist = malloc(n * sizeof *grid->dist);
    bool *open = malloc(n * sizeof *open);
    uint32_t *heap = malloc(n * 8 * sizeof *heap); /* lazy Dijkstra: each cell pushed at most 8 times */
    float *heap_d = malloc(n * 8 * sizeof *heap_d);
    if (!grid->dist || !open || !heap || !heap_d) {
        free(grid->dist);
        grid->dist = NULL;
        free(open);
        free(heap);
        free(heap_d);
        return false;
    }
    /* A cell is open when its centre may hold the reference point: no occupied map pixel
     * within `clear` of it, where `clear` is what every feasible pose keeps around its
     * reference point (the distance from the rear axle to the footprint's nearest side, for a
     * vehicle), less half a cell's diagonal. */
    const double r = frame->resolution;
    const pb_vehicle_config *vehicle = pb_engine_get_data(engine, "vehicle");
    double clear = 0.0;
    if (vehicle)
        clear = fmin(fmin(0.5 * vehicle->width, vehicle->rear_overhang),
                     vehicle->length - vehicle->rear_overhang);
    clear -= 0.5 * M_SQRT2 * cell + r;
    const int reach = clear > 0 ? (int)ceil(clear / r) : 0;
    const float *edt = pb_engine_get_data(engine, "distance_transform");
    for (int cy = 0; cy < grid->height; cy++)
        for (int cx = 0; cx < grid->width; cx++) {
            const double centre[2] = {lo[0] + (cx + 0.5) * cell, lo[1] + (cy + 0.5) * cell};
            const int pcx = (int)floor((centre[0] - frame->origin[0]) / r);
            const int pcy = (int)floor((centre[1] - frame->origin[1]) / r);
            bool any_free = false, blocked = false;
            /* a free pixel in the cell (the point may be there at all) */
            const int px0 = (int)floor((lo[0] + cx * cell - frame->origin[0]) / r);
            const int py0 = (int)floor((lo[1] + cy * cell - frame->origin[1]) / r);
            const int px1 = (int)ceil((lo[0] + (cx + 1) * cell - frame->origin[0]) / r);
            const int py1 = (int)ceil((lo[1] + (cy + 1) * cell - frame->origin[1]) / r);
            for (int py = py0 < 0 ? 0 : py0; py < py1 && py < map->height && !any_free; py++)
                for (int px = px0 < 0 ? 0 : px0; px < px1 && px < map->width && !any_free; px++)
                    any_free = pb_bitmap_free(map, px, py);
            /* an occupied pixel (or the map's edge) within `clear` of the centre: the distance
             * transform says at once (whole pixels apart, so its squares are whole numbers) */
            if (any_free && edt) {
                const bool inside = pcx >= 0 && pcy >= 0 && pcx < map->width && pcy < map->height;
                const double d = inside ? edt[(size_t)pcy * (size_t)map->width + (size_t)pcx] : 0.0;
                blocked = !inside || d * d <= (double)reach * reach + 0.5;
            }
            for (int py = pcy - reach; py <= pcy + reach && any_free && !blocked && !edt; py++)
                for (int px = pcx - reach; px <= pcx + reach && !blocked; px++) {
                    if ((double)(px - pcx) * (px - pcx) + (double)(py - pcy) * (py - pcy) >
                        (double)reach * reach)
                        continue;
                    blocked = px < 0 || py < 0 || px >= map->width || py >= map->height ||
                              !pb_bitmap_free(map, px, py);
                }
            const size_t i = (size_t)cy * (size_t)grid->width + (size_t)cx;
            open[i] = any_free && !blocked;
            grid->dist[i] = INFINITY;
        }
    const int gx = (int)floor((goal[0] - lo[0]) / cell), gy = (int)floor((goal[1] - lo[1]) / cell);
    size_t hn = 0;
    if (gx >= 0 && gy >= 0 && gx < grid->width && gy < grid->height) {
        const size_t gi = (size_t)gy * (size_t)grid->width + (size_t)gx;
        grid->dist[gi] = 0.0f;
        heap[hn] = (uint32_t)gi;
        heap_d[hn++] = 0.0f;
    }
    static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    while (hn > 0) {
        /* pop the least */
        const uint32_t at = heap[0];
        const float d = heap_d[0];
        hn--;
        {
            const uint32_t ln = heap[hn];
            const float ld = heap_d[hn];
            size_t i = 0;
            for (;;) {
                size_t c = 2 * i + 1;
                if (c >= hn)
                    break;
                if (c + 1 < hn && heap_d[c + 1] < heap_d[c])
                    c++;
                if (ld <= heap_d[c])
                    break;
                heap[i] = heap[c];
                heap_d[i] = heap_d[c];
                i = c;
            }
            heap[i] = ln;
            heap_d[i] = ld;
        }
        if (d > grid->dist[at])
            continue;
        const int ax = (int)(at % (uint32_t)grid->width), ay = (int)(at / (uint32_t)grid->width);
        for (int k = 0; k < 8; k++) {
            const int nx = ax + dx[k], ny = ay + dy[k];
            if (nx < 0 || ny < 0 || nx >= grid->width || ny >= grid->height)
                continue;
            const size_t ni = (size_t)ny * (size_t)grid->width + (size_t)nx;
            const float nd = d + (float)(k < 4 ? cell : cell * M_SQRT2);
            if (!open[ni] || nd >= grid->dist[ni] || hn >= n * 8)
                continue;
            grid->dist[ni] = nd;
            size_t i = hn++;
            while (i > 0 && heap_d[(i - 1) / 2] > nd) {
                heap[i] = heap[(i - 1) / 2];
                heap_d[i] = heap_d[(i - 1) / 2];
                i = (i - 1) / 2;
            }
            heap[i] = (uint32_t)ni;
            heap_d[i] = nd;
        }
    }
    free(open);
    free(heap);
    free(heap_d);
    return true;
}

static void grid_free(void *grid)
{
    if (grid)
        free(((grid2d *)grid)->dist);
    free(grid);
}

/* The grid depends on the engine's static map and vehicle, the cell size and the goal's cell
 * only (the Dijkstra starts from the cell, not the point): built by the first solve of an
 * engine and goal cell, kept with the engine (pb_engine_memo_keep()), reused read-only by the
 * later ones (a planner solving repeatedly to one goal, a benchmark's runs). */
typedef struct grid_key {
    double cell;
    int64_t gx, gy;
} grid_key;

static const char grid_memo_tag[] = "hybrid_astar 2-D heuristic";

/* The grid for `goal`: the engine's memo, or a new one kept there. `*own` is set when the
 * engine could not keep it (the caller frees it after the solve); NULL: out of memory. */
static const grid2d *grid_get(const pb_engine *engine, double cell, const double *goal, grid2d **own)
{
    *own = NULL;
    const double *lo = pb_engine_lower(engine);
    grid_key key;
    memset(&key, 0, sizeof key);
    key.cell = cell;
    key.gx = (int64_t)floor((goal[0] - lo[0]) / cell);
    key.gy = (int64_t)floor((goal[1] - lo[1]) / cell);
    const grid2d *kept = pb_engine_memo_find(engine, grid_memo_tag, &key, sizeof key);
    if (kept)
        return kept;
    grid2d *grid = malloc(sizeof *grid);
    if (!grid || !grid_build(grid, engine, cell, goal)) {
        free(grid);
        return NULL;
    }
    if (!pb_engine_memo_keep(engine, grid_memo_tag, &key, sizeof key, grid, grid_free))
        *own = grid;
    return grid;
}

/* About the length from (x, y) to the goal around the map's obstacles: the grid distance less a
 * cell's diagonal (the path's ends lie anywhere in their cells). Not a strict lower bound (the
 * grid's 8 directions lengthen diagonal stretches by up to 8 %): hybrid A* trades that for
 * fewer expansions, as Autoware's does. 0 without a grid. */
static double grid_bound(const grid2d *grid, double x, double y)
{
    if (!grid->dist)
        return 0.0;
    const int cx = (int)floor((x - grid->lo[0]) / grid->cell),
              cy = (int)floor((y - grid->lo[1]) / grid->cell);
    if (cx < 0 || cy < 0 || cx >= grid->width || cy >= grid->height)
        return 0.0;
    const double d = grid->dist[(size_t)cy * (size_t)grid->width + (size_t)cx];
    return isfinite(d) ? fmax(0.0, d - M_SQRT2 * grid->cell) : INFINITY;
}

/* ---- the search ---- */

static uint64_t bin_of(const ha_params *p, const double *lo, double x, double y, double yaw)
{
    const uint64_t bx = (uint64_t)floor((x - lo[0]) / p->cell), by = (uint64_t)floor((y - lo[1]) / p->cell);
    double t = fmod(yaw, 2 * M_PI);
    if (t < 0)
        t += 2 * M_PI;
    uint64_t bt = (uint64_t)floor(t / (2 * M_PI) * p->headings);
    if (bt >= (uint64_t)p->headings)
        bt = 0;
    return (bx * 1000003ULL + by) * (uint64_t)p->headings + bt;
}

static bool accepts(const pb_engine *engine, char *why, size_t size)
{
    const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0};
    pb_curve k;
    if (pb_engine_dim(engine) == 3 && pb_engine_curve(engine, a, b, &k))
        return true;
    snprintf(
        why, size,
        "hybrid_astar plans for car-like robots: engine '%s' does not join poses by steering curves (use "
        "--robot VEHICLE.xml on a metric map)",
        pb_engine_name(engine));
    return false;
}

/* The weighted heuristic of node `i` at `q`; keeps the curve's length to the goal with the node. */
static double heuristic(const pb_engine *engine, const grid2d *grid, const double *q, const double *goal,
                        double weight, ha_search *s, uint32_t i)
{
    s->to_goal[i] = pb_engine_distance(engine, q, goal);
    return weight * fmax(s->to_goal[i], grid_bound(grid, q[0], q[1]));
}

static pb_status ha_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    ha_params p = *(const ha_params *)params_ptr;
    pb_engine *engine = ctx->engine;
    const double *start = ctx->problem->start, *goal = ctx->problem->goal;
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    pb_curve probe;
    const double ahead[3] = {start[0] + cos(start[2]), start[1] + sin(start[2]), start[2]};
    if (!pb_engine_curve(engine, start, ahead, &probe) || !(probe.radius > 0))
        return PB_ERR_INVALID;
    const double radius = probe.radius;
    const bool reverse = pb_engine_is_symmetric(engine); /* Dubins curves never reverse */
    if (p.step <= 0)
        p.step = 1.5 * p.cell;
    grid2d *own_grid;
    const grid2d *grid = grid_get(engine, p.cell, goal, &own_grid);
    ha_search s = {0};
    pb_status st = grid ? PB_OK : PB_ERR_NOMEM;
    if (st == PB_OK && (!grow_nodes(&s) || !table_grow(&s)))
        st = PB_ERR_NOMEM;
    if (st != PB_OK) {
        grid_free(own_grid);
        search_free(&s);
        return st;
    }
    /* the start */
    s.x[0] = start[0];
    s.y[0] = start[1];
    s.yaw[0] = start[2];
    s.g[0] = 0.0;
    s.h[0] = heuristic(engine, grid, start, goal, p.weight, &s, 0);
    s.parent[0] = UINT32_MAX;
    s.dir[0] = 0;
    s.n = 1;
    {
        const uint64_t key = bin_of(&p, lo, start[0], start[1], start[2]);
        const size_t slot = table_slot(&s, key);
        s.keys[slot] = key + 1;
        s.vals[slot] = 0;
        s.table_n = 1;
    }
    heap_push(&s, s.h[0], 0);
    const double curvatures[5] = {0.0, 1.0 / radius, -1.0 / radius, 0.5 / radius, -0.5 / radius};
    uint32_t found = UINT32_MAX;
    uint64_t expansions = 0, last_shot = 0;
    while (s.heap_n > 0 && found == UINT32_MAX) {
        if (pb_solve_should_stop(ctx, expansions, s.n, false))
            break;
        double f;
        const uint32_t at = heap_pop(&s, &f);
        const double here[3] = {s.x[at], s.y[at], s.yaw[at]};
        if (f > s.g[at] + s.h[at] + 1e-9)
            continue; /* a stale entry: the node got cheaper since */
        expansions++;
        /* the analytic expansion: the engine's curve straight to the goal */
        const double to_goal = s.to_goal[at];
        /* on a schedule, as hybrid A* implementations do: a shot from far away mostly runs into
         * something, and each costs a sweep, so the expansions between shots grow with the
         * square of the distance (shot_every of them at four turning radii, every one within two) */
        const double scaled = to_goal / (4.0 * radius);
        const double interval =
            to_goal <= 2.0 * radius ? 1.0 : fmax(1.0, ceil(p.shot_every * scaled * scaled));
        if ((double)(expansions - last_shot) >= interval || expansions == 1) {
            last_shot = expansions;
            if (pb_engine_visible(engine, here, goal)) {
                found = at;
                break;
            }
        }
        for (int d = 0; d < (reverse ? 2 : 1); d++) {
            const double dir = d == 0 ? 1.0 : -1.0;
            for (int c = 0; c < p.steers; c++) {
                const double kappa = curvatures[c], sarc = dir * p.step;
                double q[3];
                if (kappa == 0.0) {
                    q[0] = here[0] + sarc * cos(here[2]);
                    q[1] = here[1] + sarc * sin(here[2]);
                    q[2] = here[2];
                } else {
                    const double t = here[2] + kappa * sarc;
                    q[0] = here[0] + (sin(t) - sin(here[2])) / kappa;
                    q[1] = here[1] - (cos(t) - cos(here[2])) / kappa;
                    q[2] = remainder(t, 2 * M_PI);
                }
                if (q[0] < lo[0] || q[1] < lo[1] || q[0] > hi[0] || q[1] > hi[1])
                    continue;
                double g = s.g[at] + p.step * (dir < 0 ? p.reverse_weight : 1.0) +
                           p.steer_cost * p.step * fabs(kappa) * radius;
                if (s.dir[at] != 0 && s.dir[at] != (int8_t)dir)
                    g += p.switch_cost;
                const uint64_t key = bin_of(&p, lo, q[0], q[1], q[2]);
                size_t slot = table_slot(&s, key);
                if (s.keys[slot] && s.g[s.vals[slot]] <= g)
                    continue;                            /* the bin holds a cheaper pose */
                if (!pb_engine_visible(engine, here, q)) /* its end is checked first */
                    continue;
                if (!grow_nodes(&s) || !table_grow(&s)) {
                    st = PB_ERR_NOMEM;
                    break;
                }
                slot = table_slot(&s, key); /* the table may have grown */
                const uint32_t node = s.n++;
                s.x[node] = q[0];
                s.y[node] = q[1];
                s.yaw[node] = q[2];
                s.g[node] = g;
                s.h[node] = heuristic(engine, grid, q, goal, p.weight, &s, node);
                s.parent[node] = at;
                s.dir[node] = (int8_t)dir;
                if (!s.keys[slot]) {
                    s.keys[slot] = key + 1;
                    s.table_n++;
                }
                s.vals[slot] = node;
                if (!heap_push(&s, g + s.h[node], node)) {
                    st = PB_ERR_NOMEM;
                    break;
                }
            }
            if (st != PB_OK)
                break;
        }
        if (st != PB_OK)
            break;
    }
    result->iterations = expansions;
    result->nodes = s.n;
    if (st == PB_OK && found != UINT32_MAX) {
        /* the chain from the start, then the goal */
        size_t len = 0;
        for (uint32_t v = found; v != UINT32_MAX; v = s.parent[v])
            len++;
        uint32_t *chain = malloc(len * sizeof *chain);
        if (!chain) {
            st = PB_ERR_NOMEM;
        } else {
            size_t i = len;
            for (uint32_t v = found; v != UINT32_MAX; v = s.parent[v])
                chain[--i] = v;
            pb_path_clear(&result->path);
            for (i = 0; i < len && st == PB_OK; i++) {
                const double q[3] = {s.x[chain[i]], s.y[chain[i]], s.yaw[chain[i]]};
                st = pb_path_append(&result->path, q);
            }
            const bool at_goal = pb_engine_distance(engine, &result->path.q[3 * (len - 1)], goal) == 0.0;
            if (st == PB_OK && !at_goal)
                st = pb_path_append(&result->path, goal);
            free(chain);
            if (st == PB_OK) {
                result->outcome = PB_OUTCOME_EXACT;
                pb_solve_report_solution(ctx, result, pb_path_length(&result->path, engine), &result->path);
            }
        }
    }
    pb_result_set_extra(result, "heading_bins", p.headings);
    grid_free(own_grid);
    search_free(&s);
    return st;
}

const pb_planner_impl pb_hybrid_astar_impl = {
    .name = "hybrid_astar",
    .summary =
        "Hybrid A*: (x, y, heading) bins, arcs at full and zero steer forward and reverse, every arc swept; "
        "analytic curve to the goal; car engine only",
    .params = ha_param_defs,
    .n_params = sizeof ha_param_defs / sizeof ha_param_defs[0],
    .params_size = sizeof(ha_params),
    .anytime = false,
    .one_way_edges = true,
    .accepts = accepts,
    .solve = ha_solve,
};
