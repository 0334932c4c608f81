/* The 2D image engine: a PNG map, white pixels free, or a map_server map (YAML + PGM or
 * PNG, free by its thresholds). In the pixel frame the C-space is [0,W) x [0,H), x = column,
 * y = row from the top. feasible(q) reads pixel (floor x, floor y); visible(a, b) walks the
 * integer Bresenham line between those same pixels (the rule of sbp-env and of the OMPL
 * harness, reported as "pixel_line"), or with edge_check=certified every pixel the
 * continuous segment passes through, so that every point of the edge is feasible.
 *
 * In a map frame (metres, y up: planbench/image.h) every query is first taken to grid
 * coordinates (pixels from the lower-left corner, y up) by the frame's affine transform, and
 * the bitmap is stored bottom row first, so the same pixel checks run on the grid: an affine
 * map takes segments to segments, so the pixel walk stays exact. Dynamic obstacles are kept
 * in grid coordinates too (their lengths divided by the resolution). */
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "checkers/clearance.h"
#include "checkers/grid2d.h"
#include "checkers/shapes2d.h"
#include "core/map_frame.h"
#include "io/map_yaml.h"
#include "io/png_map.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A dynamic obstacle: a footprint placed at a pose. Slots are reused; `id` is the slot
 * index plus a generation in the high bits so a stale id never names a new obstacle. */
typedef struct dyn_obstacle {
    uint32_t id; /* PB_OBSTACLE_NONE when the slot is free */
    pb_footprint footprint;
    pb_shape2d shape;
} dyn_obstacle;

typedef struct image2d {
    pb_bitmap map;  /* image row order in the pixel frame, bottom row first in a map frame */
    bool certified; /* edges read the segment's supercover, not the Bresenham line */
    bool framed;    /* a map frame: queries go through `frame` to grid coordinates */
    pb_frame_math frame;
    uint64_t n_free;          /* free pixels, to say why nothing is feasible */
    const char *no_free_hint; /* what to check when n_free is 0 */
    /* The dynamic layer, apart from the read-only map: feasible() and visible() look at it
     * only when n_live > 0, so planning on a plain map costs one branch. */
    dyn_obstacle *obstacles;
    uint32_t n_slots, capacity, n_live, generation;
    uint32_t first_free; /* no free slot below it: adding is O(1) amortised, not a scan from 0 */
    /* a uniform grid of the obstacles' boxes, so a check reads the obstacles near it (NULL until
     * the first obstacle, or when it could not be kept: then every check reads them all) */
    pb_grid2d *grid;
    bool no_grid;
    /* The distance transform of the map, for swept footprints (pb_engine_sweep()): made by the
     * first sweep, under the lock, and read without it once published. */
    _Atomic(float *) edt;
    pthread_mutex_t edt_lock;
} image2d;

/* The dynamic layer's checks, kept out of line and reached by tail calls: inlined, their
 * loops made feasible() and visible() save registers on every call, which cost plain maps
 * about 15 instructions an edge (measured with cachegrind on maps/maze.png). */
#if defined(__GNUC__)
#define COLD_PATH __attribute__((noinline))
#else
#define COLD_PATH
#endif

/* Maps with at least this many bytes of pixels (a 2-core L2 cache's worth) get the bitmap's
 * coarse "all free" level; smaller ones stay in cache, where the pixel walk is cheaper. */
#define COARSE_LEVEL_MIN_BYTES ((size_t)4 << 20)

/* The box that holds shape `s` (grid units). */
static void shape_box(const pb_shape2d *s, double lo[2], double hi[2])
{
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (int i = 0; i < s->n_parts; i++)
        for (int k = 0; k < s->part[i].n; k++)
            for (int d = 0; d < 2; d++) {
                const double v = s->part[i].v[k][d];
                lo[d] = v - s->part[i].r < lo[d] ? v - s->part[i].r : lo[d];
                hi[d] = v + s->part[i].r > hi[d] ? v + s->part[i].r : hi[d];
            }
}

/* A question put to the obstacles near a box: the point, segment or shape asked about, and
 * what the visits found. */
typedef struct near_query {
    const image2d *e;
    const double *a, *b;     /* a point (a), or a segment (a, b) */
    const pb_shape2d *shape; /* or a shape */
    uint32_t ignore_id;
    uint32_t first_hit; /* the lowest slot it overlaps: the one a scan from slot 0 reports */
    double clearance;   /* the least distance to the shape */
} near_query;

/* Visit the obstacles whose boxes may meet [lo, hi] (the grid's, or every slot without one);
 * `fn` returns false to stop. False when stopped. */
static bool visit_near(const image2d *e, const double lo[2], const double hi[2], bool (*fn)(void *, uint32_t),
                       near_query *q)
{
    if (e->grid && !e->no_grid)
        return pb_grid2d_query(e->grid, lo, hi, fn, q);
    for (uint32_t i = 0; i < e->n_slots; i++)
        if (!fn(q, i))
            return false;
    return true;
}

static bool point_outside(void *ctx, uint32_t slot)
{
    const near_query *q = ctx;
    const dyn_obstacle *o = &q->e->obstacles[slot];
    return o->id == PB_OBSTACLE_NONE || !pb_shape2d_contains(&o->shape, q->a[0], q->a[1]);
}

static bool segment_misses(void *ctx, uint32_t slot)
{
    const near_query *q = ctx;
    const dyn_obstacle *o = &q->e->obstacles[slot];
    return o->id == PB_OBSTACLE_NONE || !pb_shape2d_hits_segment(&o->shape, q->a, q->b);
}

/* Is the point clear of every dynamic obstacle? */
COLD_PATH static bool dynamic_point_free(const image2d *e, const double *q)
{
    near_query nq = {.e = e, .a = q};
    return visit_near(e, q, q, point_outside, &nq);
}

/* The edge against the dynamic obstacles, then against the map. */
COLD_PATH static bool visible_with_obstacles(const image2d *e, const double *a, const double *b,
                                             pb_engine_counters *counters)
{
    near_query nq = {.e = e, .a = a, .b = b};
    const double lo[2] = {a[0] < b[0] ? a[0] : b[0], a[1] < b[1] ? a[1] : b[1]};
    const double hi[2] = {a[0] < b[0] ? b[0] : a[0], a[1] < b[1] ? b[1] : a[1]};
    if (!visit_near(e, lo, hi, segment_misses, &nq))
        return false;
    if (e->certified)
        return pb_segment_free(&e->map, a, b, &counters->n_pixels);
    return pb_line_free(&e->map, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &counters->n_pixels);
}

static dyn_obstacle *find_obstacle(image2d *e, uint32_t id)
{
    const uint32_t slot = id & 0xffffu;
    if (id == PB_OBSTACLE_NONE || slot >= e->n_slots || e->obstacles[slot].id != id)
        return NULL;
    return &e->obstacles[slot];
}

/* A footprint at a pose, in the map's grid: in a map frame the pose goes through the frame
 * and lengths are divided by the resolution (angles stay). */
static bool place(const image2d *e, const pb_footprint *footprint, const double *pose, pb_shape2d *out)
{
    if (!e->framed)
        return pb_shape2d_make(footprint, pose, out);
    const double r = e->frame.frame.resolution;
    pb_footprint scaled = *footprint;
    scaled.radius /= r;
    scaled.half_length /= r;
    scaled.half_width /= r;
    scaled.offset /= r;
    scaled.link1 /= r;
    scaled.link2 /= r;
    double grid_pose[3];
    pb_frame_to_grid(&e->frame, pose, grid_pose);
    grid_pose[2] = pose[2] - e->frame.frame.origin[2];
    return pb_shape2d_make(&scaled, grid_pose, out);
}

/* Keep slot `slot`'s box in the grid; a grid that cannot be kept is given up (every check then
 * reads every obstacle, as before the grid). */
static void index_obstacle(image2d *e, uint32_t slot)
{
    if (e->no_grid)
        return;
    if (!e->grid)
        e->grid = pb_grid2d_create((double)e->map.width, (double)e->map.height);
    double lo[2], hi[2];
    shape_box(&e->obstacles[slot].shape, lo, hi);
    if (!e->grid || !pb_grid2d_set(e->grid, slot, lo, hi))
        e->no_grid = true;
}

static pb_status obstacle_add(void *self, const pb_footprint *footprint, const double *pose, uint32_t *id)
{
    image2d *e = self;
    uint32_t slot = e->first_free;
    while (slot < e->n_slots && e->obstacles[slot].id != PB_OBSTACLE_NONE)
        slot++;
    if (slot == e->n_slots) {
        if (slot >= 0xffffu)
            return PB_ERR_NOMEM;
        if (slot == e->capacity) {
            const uint32_t cap = e->capacity ? e->capacity * 2 : 16;
            dyn_obstacle *grown = realloc(e->obstacles, cap * sizeof *grown);
            if (!grown)
                return PB_ERR_NOMEM;
            e->obstacles = grown;
            e->capacity = cap;
        }
        e->n_slots++;
    }
    dyn_obstacle *o = &e->obstacles[slot];
    if (!place(e, footprint, pose, &o->shape)) {
        o->id = PB_OBSTACLE_NONE;
        return PB_ERR_INVALID;
    }
    e->generation = (e->generation + 1) & 0x7fffu;
    o->id = (e->generation << 16) | slot;
    o->footprint = *footprint;
    e->n_live++;
    index_obstacle(e, slot);
    e->first_free = slot + 1;
    *id = o->id;
    return PB_OK;
}

static pb_status obstacle_move(void *self, uint32_t id, const double *pose)
{
    dyn_obstacle *o = find_obstacle(self, id);
    if (!o)
        return PB_ERR_NOT_FOUND;
    pb_shape2d moved;
    if (!place(self, &o->footprint, pose, &moved))
        return PB_ERR_INVALID;
    o->shape = moved;
    index_obstacle(self, (uint32_t)(o - ((image2d *)self)->obstacles));
    return PB_OK;
}

static pb_status obstacle_remove(void *self, uint32_t id)
{
    image2d *e = self;
    dyn_obstacle *o = find_obstacle(e, id);
    if (!o)
        return PB_ERR_NOT_FOUND;
    o->id = PB_OBSTACLE_NONE;
    e->n_live--;
    if (e->grid)
        pb_grid2d_remove(e->grid, (uint32_t)(o - e->obstacles));
    if ((uint32_t)(o - e->obstacles) < e->first_free)
        e->first_free = (uint32_t)(o - e->obstacles);
    while (e->n_slots > 0 && e->obstacles[e->n_slots - 1].id == PB_OBSTACLE_NONE)
        e->n_slots--;
    return PB_OK;
}

/* A disc that holds shape `s`: the centre of its vertices and the farthest vertex plus the
 * part's radius (grid units). */
static void shape_disc(const pb_shape2d *s, double *centre, double *radius)
{
    double sx = 0.0, sy = 0.0;
    int n = 0;
    for (int i = 0; i < s->n_parts; i++)
        for (int k = 0; k < s->part[i].n; k++, n++) {
            sx += s->part[i].v[k][0];
            sy += s->part[i].v[k][1];
        }
    centre[0] = sx / n;
    centre[1] = sy / n;
    double r = 0.0;
    for (int i = 0; i < s->n_parts; i++)
        for (int k = 0; k < s->part[i].n; k++)
            r = fmax(r, hypot(s->part[i].v[k][0] - centre[0], s->part[i].v[k][1] - centre[1]) + s->part[i].r);
    *radius = r;
}

/* A lower bound on the distance from every point of the disc to the map's occupied pixels
 * and the outside, from the distance transform at its centre (clearance.h); negative when the
 * centre is outside. One read: in open space it settles a footprint at once. */
static double disc_edt_clearance(const image2d *e, const float *edt, const double *centre, double radius)
{
    if (!(centre[0] >= 0.0 && centre[1] >= 0.0 && centre[0] < e->map.width && centre[1] < e->map.height))
        return -1.0;
    const size_t index = (size_t)centre[1] * (size_t)e->map.width + (size_t)centre[0];
    return edt[index] - PB_EDT_MARGIN - radius;
}

/* A shape's edges ready for its rows: per edge its y range, x at its lower end and dx/dy
 * (horizontal edges and points: their x range), and its part's margin (radius plus a hair), so
 * that each row costs a few multiplications, not divisions (footprint checks near walls are
 * mostly rows). */
typedef struct row_edges {
    int n;
    double y_lo[8], y_hi[8], x_at[8], x_other[8], slope[8], margin[8];
} row_edges;

static double min2(double a, double b)
{
    return a < b ? a : b;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

static void row_edges_make(const pb_shape2d *s, row_edges *out)
{
    out->n = 0;
    for (int i = 0; i < s->n_parts; i++) {
        const pb_part2d *p = &s->part[i];
        const int edges = p->n < 3 ? 1 : p->n;
        for (int k = 0; k < edges; k++) {
            const double *a = p->v[k], *b = p->v[(k + 1) % p->n];
            const int j = out->n++;
            const double *low = a[1] <= b[1] ? a : b, *high = a[1] <= b[1] ? b : a;
            out->y_lo[j] = low[1];
            out->y_hi[j] = high[1];
            out->x_at[j] = low[0];
            out->x_other[j] = high[0];
            out->slope[j] = high[1] > low[1] ? (high[0] - low[0]) / (high[1] - low[1]) : 0.0;
            out->margin[j] = p->r + 1e-9;
        }
    }
}

/* The x range of the pixels of row y that the shape may touch: each part's polygon within the
 * row's strip grown by the part's radius, widened by the radius (a superset of the exact
 * range, which is all the caller needs). */
static bool shape_row_extent(const row_edges *r, int y, double *lo, double *hi)
{
    bool any = false;
    double l = 0.0, h = 0.0;
    for (int j = 0; j < r->n; j++) {
        const double m = r->margin[j], ya = max2(y - m, r->y_lo[j]), yb = min2(y + 1 + m, r->y_hi[j]);
        if (ya > yb)
            continue;
        double xa, xb;
        if (r->y_hi[j] > r->y_lo[j]) {
            xa = r->x_at[j] + (ya - r->y_lo[j]) * r->slope[j];
            xb = r->x_at[j] + (yb - r->y_lo[j]) * r->slope[j];
        } else {
            xa = r->x_at[j];
            xb = r->x_other[j];
        }
        const double el = min2(xa, xb) - m, eh = max2(xa, xb) + m;
        l = any ? min2(l, el) : el;
        h = any ? max2(h, eh) : eh;
        any = true;
    }
    *lo = l;
    *hi = h;
    return any;
}

/* Are pixels [xa, xb) of row y all free? A 64-bit word at a time. */
static bool span_free(const pb_bitmap *map, int y, int xa, int xb)
{
    const uint64_t *row = map->bits + (size_t)y * map->words_per_row;
    for (int x = xa; x < xb;) {
        const int bit = x & 63, n = xb - x < 64 - bit ? xb - x : 64 - bit;
        const uint64_t mask = (n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1)) << bit;
        if ((row[x >> 6] & mask) != mask)
            return false;
        x += n;
    }
    return true;
}

/* The footprint against the map, rasterised: only occupied pixels under the footprint's
 * bounding box need the exact pixel-square test, so a footprint over free space costs one
 * bitmap read per pixel. Then against every other obstacle, geometrically. A hit names the
 * image's pixel (row from the top) in either frame. */
static bool overlapped(void *ctx, uint32_t slot)
{
    near_query *q = ctx;
    const dyn_obstacle *o = &q->e->obstacles[slot];
    if (slot < q->first_hit && o->id != PB_OBSTACLE_NONE && o->id != q->ignore_id &&
        pb_shape2d_overlap(q->shape, &o->shape))
        q->first_hit = slot;
    return true;
}

static void footprint_check(const void *self, const pb_footprint *footprint, const double *pose,
                            uint32_t ignore_id, pb_hit *hit, pb_engine_counters *counters)
{
    const image2d *e = self;
    const pb_bitmap *map = &e->map;
    pb_shape2d s;
    if (!place(e, footprint, pose, &s)) {
        hit->kind = PB_HIT_INVALID;
        return;
    }
    if (s.lo[0] < 0.0 || s.lo[1] < 0.0 || s.hi[0] > (double)map->width || s.hi[1] > (double)map->height) {
        hit->kind = PB_HIT_OUTSIDE;
        return;
    }
    /* once swept footprints have made the distance transform, a footprint far from every
     * occupied pixel is settled by one read */
    const float *edt = atomic_load_explicit(&e->edt, memory_order_acquire);
    double centre[2], radius;
    shape_disc(&s, centre, &radius);
    if (edt && disc_edt_clearance(e, edt, centre, radius) > 0.0) {
        counters->n_pixels++;
        goto obstacles;
    }
    /* row by row: the span of pixels the footprint can touch (a superset), read a word at a
     * time; only an occupied pixel inside a span gets the exact pixel-square test */
    const int y0 = (int)s.lo[1];
    int y1 = (int)ceil(s.hi[1]);
    y1 = y1 > map->height ? map->height : y1;
    row_edges edges;
    row_edges_make(&s, &edges);
    for (int y = y0; y < y1; y++) {
        double lo, hi;
        if (!shape_row_extent(&edges, y, &lo, &hi))
            continue;
        const int xa = lo < 0.0 ? 0 : (int)lo;
        int xb = (int)ceil(hi);
        xb = xb > map->width ? map->width : xb;
        counters->n_pixels += (uint64_t)(xb > xa ? xb - xa : 0);
        if (xb <= xa || span_free(map, y, xa, xb))
            continue;
        for (int x = xa; x < xb; x++)
            if (!pb_bitmap_free(map, x, y) && pb_shape2d_overlaps_pixel(&s, x, y)) {
                hit->kind = PB_HIT_MAP;
                hit->pixel_x = x;
                hit->pixel_y = e->framed ? map->height - 1 - y : y;
                return;
            }
    }
obstacles:;
    near_query nq = {.e = e, .shape = &s, .ignore_id = ignore_id, .first_hit = UINT32_MAX};
    double lo[2], hi[2];
    shape_box(&s, lo, hi);
    visit_near(e, lo, hi, overlapped, &nq);
    if (nq.first_hit != UINT32_MAX) {
        hit->kind = PB_HIT_OBSTACLE;
        hit->obstacle_id = e->obstacles[nq.first_hit].id;
        return;
    }
    hit->kind = PB_HIT_NONE;
}

/* A footprint whose disc bound is at least this (pixels) is not walked along its edges: the
 * bound already certifies steps of several pixels. */
#define DISC_ENOUGH 4.0

/* The map's distance transform, made on first use; NULL when out of memory. */
static const float *map_edt(const image2d *e)
{
    float *edt = atomic_load_explicit(&e->edt, memory_order_acquire);
    if (edt)
        return edt;
    image2d *m = (image2d *)e; /* the transform is a cache: made once, never changed */
    pthread_mutex_lock(&m->edt_lock);
    edt = atomic_load_explicit(&m->edt, memory_order_relaxed);
    if (!edt && pb_distance_transform(&m->map, &edt) == PB_OK)
        atomic_store_explicit(&m->edt, edt, memory_order_release);
    pthread_mutex_unlock(&m->edt_lock);
    return edt;
}

/* How far around a footprint (pixels) its clearance looks for obstacles: a bound beyond it is
 * cut to it (sound: a lower bound may be lower; a sweep then takes steps of this size). */
#define OBSTACLE_REACH 32.0

static bool nearer(void *ctx, uint32_t slot)
{
    near_query *q = ctx;
    const dyn_obstacle *o = &q->e->obstacles[slot];
    if (o->id == PB_OBSTACLE_NONE || o->id == q->ignore_id)
        return true;
    for (int j = 0; j < q->shape->n_parts; j++)
        for (int k = 0; k < o->shape.n_parts; k++) {
            const double d = pb_part2d_distance(&q->shape->part[j], &o->shape.part[k]) - q->shape->part[j].r -
                             o->shape.part[k].r;
            q->clearance = d < q->clearance ? d : q->clearance;
        }
    return q->clearance > 0.0;
}

/* A lower bound on the distance from the footprint's boundary to the map's blocked pixels and
 * the outside (clearance.h), and to the other obstacles (exact), in engine units. */
static double footprint_clearance(const void *self, const pb_footprint *footprint, const double *pose,
                                  uint32_t ignore_id, pb_engine_counters *counters)
{
    const image2d *e = self;
    pb_shape2d s;
    const float *edt = map_edt(e);
    if (!edt || !place(e, footprint, pose, &s))
        return -1.0;
    /* the disc that holds the footprint first: one read, enough in open space */
    double centre[2], radius;
    shape_disc(&s, centre, &radius);
    counters->n_pixels++;
    double c = disc_edt_clearance(e, edt, centre, radius);
    if (c < DISC_ENOUGH)
        c = fmax(c, pb_shape2d_edt_clearance(&s, edt, e->map.width, e->map.height, &counters->n_pixels));
    if (e->n_live > 0 && c > 0.0) {
        /* the obstacles within `reach` of the footprint's box; any other one is farther than
         * that, so the bound may not exceed it */
        const double reach = c < OBSTACLE_REACH ? c : OBSTACLE_REACH;
        near_query nq = {.e = e, .shape = &s, .ignore_id = ignore_id, .clearance = c < reach ? c : reach};
        double lo[2], hi[2];
        shape_box(&s, lo, hi);
        lo[0] -= reach, lo[1] -= reach, hi[0] += reach, hi[1] += reach;
        visit_near(e, lo, hi, nearer, &nq);
        c = nq.clearance;
    }
    return c * (e->framed ? e->frame.frame.resolution : 1.0);
}

static bool has_extension(const char *path, const char *ext)
{
    const size_t n = strlen(path), m = strlen(ext);
    return n > m && strcasecmp(path + n - m, ext) == 0;
}

/* netpbm images given without a YAML file */
static bool is_netpbm_name(const char *path)
{
    return has_extension(path, ".pgm") || has_extension(path, ".pbm") || has_extension(path, ".ppm") ||
           has_extension(path, ".pam");
}

static bool accepts_path(const char *path)
{
    return has_extension(path, ".png") || is_netpbm_name(path) || pb_map_yaml_is_map(path);
}

static inline bool inside(const pb_bitmap *map, const double *q)
{
    /* written so that NaN is outside */
    return q[0] >= 0.0 && q[1] >= 0.0 && q[0] < (double)map->width && q[1] < (double)map->height;
}

/* feasible() and visible() in a map frame: the same checks on grid coordinates. */
COLD_PATH static bool feasible_framed(const image2d *e, const double *q, pb_engine_counters *counters)
{
    double g[2];
    pb_frame_to_grid(&e->frame, q, g);
    const pb_bitmap *map = &e->map;
    if (!inside(map, g))
        return false;
    counters->n_pixels++;
    if (!pb_bitmap_free(map, (int)g[0], (int)g[1]))
        return false;
    return e->n_live == 0 || dynamic_point_free(e, g);
}

COLD_PATH static bool visible_framed(const image2d *e, const double *a, const double *b,
                                     pb_engine_counters *counters)
{
    double ga[2], gb[2];
    pb_frame_to_grid(&e->frame, a, ga);
    pb_frame_to_grid(&e->frame, b, gb);
    const pb_bitmap *map = &e->map;
    if (!inside(map, ga) || !inside(map, gb))
        return false;
    if (e->n_live != 0)
        return visible_with_obstacles(e, ga, gb, counters);
    if (e->certified)
        return pb_segment_free(map, ga, gb, &counters->n_pixels);
    return pb_line_free(map, (long)ga[0], (long)ga[1], (long)gb[0], (long)gb[1], &counters->n_pixels);
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    if (((const image2d *)self)->framed)
        return feasible_framed(self, q, counters);
    const pb_bitmap *map = &((const image2d *)self)->map;
    if (!inside(map, q))
        return false;
    counters->n_pixels++;
    if (!pb_bitmap_free(map, (int)q[0], (int)q[1]))
        return false;
    const image2d *e = self;
    if (e->n_live == 0)
        return true;
    return dynamic_point_free(e, q);
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    if (((const image2d *)self)->framed)
        return visible_framed(self, a, b, counters);
    const pb_bitmap *map = &((const image2d *)self)->map;
    if (!inside(map, a) || !inside(map, b))
        return false;
    /* inside() makes the coordinates non-negative, so truncation is floor; both paths end in
     * tail calls, so a plain map (n_live == 0) pays one load and one branch */
    const image2d *e = self;
    if (e->n_live != 0)
        return visible_with_obstacles(e, a, b, counters);
    if (e->certified)
        return pb_segment_free(map, a, b, &counters->n_pixels);
    return pb_line_free(map, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &counters->n_pixels);
}

static const void *get_data(const void *self, const char *what)
{
    const image2d *e = self;
    if (strcmp(what, "map_frame") == 0)
        return &e->frame.frame;
    if (strcmp(what, "distance_transform") == 0)
        return map_edt(e);
    return strcmp(what, "bitmap") == 0 ? &e->map : NULL;
}

/* Why `q` is infeasible when the pixel alone does not say: a map without any free cell, or
 * a point of a rotated map's bounds that lies outside the image. */
static bool explain(const void *self, const double *q, char *buf, size_t size)
{
    const image2d *e = self;
    if (e->n_free == 0) {
        snprintf(buf, size, "the map has no free cell: %s", e->no_free_hint);
        return true;
    }
    double g[2] = {q[0], q[1]};
    if (e->framed)
        pb_frame_to_grid(&e->frame, q, g);
    if (!inside(&e->map, g)) {
        snprintf(buf, size, "it lies outside the map's image");
        return true;
    }
    return false;
}

/* Swap the bitmap's rows top for bottom (image order <-> grid order). */
static void flip_rows(pb_bitmap *map)
{
    const size_t w = map->words_per_row;
    for (int top = 0, bottom = map->height - 1; top < bottom; top++, bottom--) {
        uint64_t *a = map->bits + (size_t)top * w, *b = map->bits + (size_t)bottom * w;
        for (size_t i = 0; i < w; i++) {
            const uint64_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
}

static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    const image2d *e = self;
    const pb_status st = pb_bitmap_render(&e->map, image, scale, diag);
    if (st != PB_OK || !e->framed)
        return st;
    /* the picture is the image, top row first */
    const size_t stride = (size_t)image->width * 3;
    uint8_t *row = malloc(stride);
    if (!row) {
        pb_image_finish(image);
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return PB_ERR_NOMEM;
    }
    for (int top = 0, bottom = image->height - 1; top < bottom; top++, bottom--) {
        memcpy(row, image->rgb + (size_t)top * stride, stride);
        memcpy(image->rgb + (size_t)top * stride, image->rgb + (size_t)bottom * stride, stride);
        memcpy(image->rgb + (size_t)bottom * stride, row, stride);
    }
    free(row);
    return PB_OK;
}

static void destroy(void *self)
{
    image2d *e = self;
    if (!e)
        return;
    pb_bitmap_finish(&e->map);
    free(e->obstacles);
    pb_grid2d_destroy(e->grid);
    free(atomic_load(&e->edt));
    pthread_mutex_destroy(&e->edt_lock);
    free(e);
}

/* The options that set a frame or thresholds, read and checked. */
typedef struct frame_options {
    const char *frame; /* "pixels", "ros" or NULL */
    bool has_resolution, has_origin, has_free, has_occupied;
    double resolution, origin[3], free_threshold, occupied_threshold;
} frame_options;

static pb_status read_frame_options(frame_options *f, const pb_option *options, size_t n_options,
                                    pb_diag *diag)
{
    memset(f, 0, sizeof *f);
    f->frame = pb_option_find(options, n_options, "frame");
    if (f->frame && strcmp(f->frame, "pixels") != 0 && strcmp(f->frame, "ros") != 0) {
        pb_diag_set_option(diag, "frame",
                           "expected 'pixels' (x = column, y = row down) or 'ros' (y up), got '%s'",
                           f->frame);
        return PB_ERR_INVALID;
    }
    const char *text = pb_option_find(options, n_options, "resolution");
    if (text) {
        f->has_resolution = true;
        if (pb_parse_doubles(text, &f->resolution, 1) != 1 || !(f->resolution > 0.0)) {
            pb_diag_set_option(diag, "resolution", "expected metres per pixel > 0, got '%s'", text);
            return PB_ERR_INVALID;
        }
    }
    text = pb_option_find(options, n_options, "origin");
    if (text) {
        f->has_origin = true;
        const int n = pb_parse_doubles(text, f->origin, 3);
        if (n != 2 && n != 3) {
            pb_diag_set_option(diag, "origin", "expected X,Y or X,Y,YAW (metres, radians), got '%s'", text);
            return PB_ERR_INVALID;
        }
    }
    static const char *const threshold_names[2] = {"free_threshold", "occupied_threshold"};
    double *threshold_values[2] = {&f->free_threshold, &f->occupied_threshold};
    bool *threshold_given[2] = {&f->has_free, &f->has_occupied};
    for (int i = 0; i < 2; i++) {
        text = pb_option_find(options, n_options, threshold_names[i]);
        if (!text)
            continue;
        *threshold_given[i] = true;
        if (pb_parse_doubles(text, threshold_values[i], 1) != 1 || !(*threshold_values[i] >= 0.0) ||
            *threshold_values[i] > 1.0) {
            pb_diag_set_option(diag, threshold_names[i], "expected a number in [0, 1], got '%s'", text);
            return PB_ERR_INVALID;
        }
    }
    if (f->frame && strcmp(f->frame, "pixels") == 0 && (f->has_resolution || f->has_origin)) {
        pb_diag_set_option(diag, "frame", "the pixel frame takes no resolution or origin (use frame=ros)");
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

/* Set both thresholds from the options: a map_server map's own, or for an image alone
 * map_saver's defaults (0.65, 0.25) where one is missing (kept in order). */
static pb_status apply_thresholds(const frame_options *f, pb_map_rules *rules, bool from_yaml, pb_diag *diag)
{
    if (f->has_free)
        rules->free_thresh = f->free_threshold;
    if (f->has_occupied)
        rules->occupied_thresh = f->occupied_threshold;
    if (!from_yaml && !f->has_occupied)
        rules->occupied_thresh = fmax(0.65, rules->free_thresh);
    if (!from_yaml && !f->has_free)
        rules->free_thresh = fmin(0.25, rules->occupied_thresh);
    if (rules->occupied_thresh < rules->free_thresh) {
        pb_diag_set_option(diag, f->has_occupied ? "occupied_threshold" : "free_threshold",
                           "the occupied threshold %g is below the free threshold %g", rules->occupied_thresh,
                           rules->free_thresh);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

/* Read the map: a map_server YAML file and its image, or an image alone. Sets the frame,
 * the rules' hint and, from a YAML file, its default problem. */
static pb_status load_map(image2d *e, const char *path, const frame_options *f, pb_map_yaml *yaml,
                          bool *has_yaml, pb_diag *diag)
{
    pb_map_frame frame = {.metric = false, .resolution = 1.0};
    *has_yaml = !has_extension(path, ".png") && !is_netpbm_name(path) && pb_map_yaml_is_map(path);
    pb_status st;
    if (*has_yaml) {
        if (f->frame && strcmp(f->frame, "pixels") == 0) {
            pb_diag_set_option(diag, "frame",
                               "a map_server map is in its map frame (metres, y up), not in pixels");
            return PB_ERR_INVALID;
        }
        st = pb_map_yaml_load(yaml, path, diag);
        if (st == PB_OK)
            st = apply_thresholds(f, &yaml->rules, true, diag);
        if (st != PB_OK)
            return st;
        pb_diag image_diag = {0};
        st = pb_map_image_load(yaml->image, &yaml->rules, &e->map, &image_diag);
        if (st != PB_OK) {
            pb_diag_set(diag, path, yaml->image_line, 0, "key 'image': %s%s%s", image_diag.file,
                        image_diag.file[0] ? ": " : "", image_diag.message);
            /* a missing image is a fault of the map file, as any other bad value in it */
            return st == PB_ERR_IO ? PB_ERR_INVALID : st;
        }
        frame.metric = true;
        frame.resolution = yaml->resolution;
        memcpy(frame.origin, yaml->origin, sizeof frame.origin);
        e->no_free_hint =
            "check its free_thresh, occupied_thresh, negate and mode (or give --free-threshold)";
    } else {
        pb_map_rules rules = {.mode = PB_MAP_MODE_TRINARY};
        const bool thresholds = f->has_free || f->has_occupied;
        if (thresholds && (st = apply_thresholds(f, &rules, false, diag)) != PB_OK)
            return st;
        st = pb_map_image_load(path, thresholds ? &rules : NULL, &e->map, diag);
        if (st != PB_OK)
            return st;
        e->no_free_hint =
            thresholds || is_netpbm_name(path)
                ? "no pixel is lighter than the free threshold (try a higher --free-threshold)"
                : "no pixel is pure white (255, 255, 255); a scanned map needs --free-threshold";
        frame.metric = (f->frame && strcmp(f->frame, "ros") == 0) || f->has_resolution || f->has_origin;
    }
    if (f->has_resolution)
        frame.resolution = f->resolution;
    if (f->has_origin)
        memcpy(frame.origin, f->origin, sizeof frame.origin);
    frame.width = e->map.width;
    frame.height = e->map.height;
    e->framed = frame.metric;
    e->frame = pb_frame_math_make(&frame);
    e->n_free = pb_bitmap_count_free(&e->map);
    if (e->framed)
        flip_rows(&e->map);
    /* The pixels are final. The coarse level pays off only where the walk misses the cache:
     * on 1000x1000 maps (125 KB of bits) asking it cost 5-20 % more CPU than walking, on a
     * 16000x16000 map (32 MB) it saved 17 % (bench/RESULTS.md, session 11). Without memory
     * for it, edges walk every pixel. */
    if (e->map.words_per_row * sizeof(uint64_t) * (size_t)e->map.height >= COARSE_LEVEL_MIN_BYTES)
        (void)pb_bitmap_index_blocks(&e->map);
    return PB_OK;
}

/* Bounds: the image's rectangle in the engine's frame (its bounding box when rotated). */
static void set_bounds(const image2d *e, pb_engine_config *setup)
{
    const double w = e->map.width, h = e->map.height;
    if (!e->framed) {
        setup->upper[0] = w;
        setup->upper[1] = h;
        setup->resolution = 1.0;
        return;
    }
    const double corners[4][2] = {{0.0, 0.0}, {w, 0.0}, {0.0, h}, {w, h}};
    for (int k = 0; k < 4; k++) {
        double xy[2];
        pb_frame_from_grid(&e->frame, corners[k], xy);
        for (int i = 0; i < 2; i++) {
            setup->lower[i] = k == 0 ? xy[i] : fmin(setup->lower[i], xy[i]);
            setup->upper[i] = k == 0 ? xy[i] : fmax(setup->upper[i], xy[i]);
        }
    }
    const double r = e->frame.frame.resolution;
    setup->resolution = r;
    /* 2% of the image's diagonal, whatever its rotation does to the bounding box */
    setup->step_size = 0.02 * hypot(w, h) * r;
}

/* The first coordinate past the free run from (x, y) along its row (`along_row`) or its column;
 * x (or y) itself when that pixel is occupied. */
static int free_run_end(const pb_bitmap *map, int x, int y, bool along_row)
{
    if (along_row) {
        while (x < map->width && pb_bitmap_free(map, x, y))
            x++;
        return x;
    }
    while (y < map->height && pb_bitmap_free(map, x, y))
        y++;
    return y;
}

/* The typical width of the map's corridors, pixels: the median, over free pixels on a grid of
 * every `k`-th row and column, of the shorter of the free runs through the pixel along its row
 * and along its column. Inside a corridor of width W the run across it is W; in a wide room both
 * runs are long. Reads about 2 w h / k pixels and keeps (w / k) (h / k) runs: `k` grows with the
 * map so a 4000-pixel map costs as little as a 1000-pixel one. 0 when it cannot be had. */
static double corridor_width(const image2d *e)
{
    const int w = e->map.width, h = e->map.height, k = 1 + (w > h ? w : h) / 1000;
    const int gw = (w + k - 1) / k, gh = (h + k - 1) / k;
    uint32_t *across = malloc((size_t)gw * (size_t)gh * sizeof *across);
    const size_t n_bins = (size_t)(w > h ? w : h) + 1;
    uint64_t *bins = calloc(n_bins, sizeof *bins);
    if (e->n_free == 0 || !across || !bins) {
        free(across);
        free(bins);
        return 0.0;
    }
    /* along the sampled rows: each sampled pixel's run */
    for (int gy = 0; gy < gh; gy++) {
        const int y = gy * k;
        int x = 0;
        while (x < w) {
            const int end = free_run_end(&e->map, x, y, true);
            for (int gx = (x + k - 1) / k; gx * k < end; gx++)
                across[(size_t)gy * (size_t)gw + (size_t)gx] = (uint32_t)(end - x);
            x = end > x ? end : x + 1;
        }
    }
    /* along the sampled columns: the shorter of the two runs, into the histogram */
    uint64_t n = 0;
    for (int gx = 0; gx < gw; gx++) {
        const int x = gx * k;
        int y = 0;
        while (y < h) {
            const int end = free_run_end(&e->map, x, y, false);
            for (int gy = (y + k - 1) / k; gy * k < end; gy++) {
                const uint32_t along_row = across[(size_t)gy * (size_t)gw + (size_t)gx];
                const uint32_t run = (uint32_t)(end - y) < along_row ? (uint32_t)(end - y) : along_row;
                bins[run < n_bins ? run : n_bins - 1]++;
                n++;
            }
            y = end > y ? end : y + 1;
        }
    }
    double median = 0.0;
    uint64_t seen = 0;
    for (size_t b = 0; b < n_bins && n > 0; b++) {
        seen += bins[b];
        if (2 * seen >= n) {
            median = (double)b;
            break;
        }
    }
    free(across);
    free(bins);
    return median;
}

/* Tree planners' default step: 2% of the image's diagonal, as on any engine, unless the map's
 * corridors are narrower than that suits: then 2/3 of their typical width, at least 2 pixels. A
 * 4010-pixel maze with 50-pixel corridors took a 113-pixel step that seldom fits a corridor;
 * the bundled maps' corridors are wide enough to keep the 2%. */
static void default_step(const image2d *e, pb_engine_config *setup)
{
    const double diagonal_step = 0.02 * hypot(e->map.width, e->map.height);
    const double width = corridor_width(e), corridor_step = width * 2.0 / 3.0;
    const char *unit = e->framed ? "px of the image" : "px";
    if (width > 0.0 && corridor_step < diagonal_step) {
        const double step = fmin(diagonal_step, fmax(2.0, corridor_step));
        setup->step_size = step * (e->framed ? e->frame.frame.resolution : 1.0);
        snprintf(
            setup->step_rule, sizeof setup->step_rule,
            "2/3 of the typical corridor width (%g %s), narrower than 2%% of the map's diagonal (%.4g %s) "
            "suits",
            width, unit, diagonal_step, unit);
    } else {
        /* the step itself as before (set_bounds, or the core's 2% of the bounds' diagonal) */
        snprintf(setup->step_rule, sizeof setup->step_rule,
                 "2%% of the map's diagonal (the typical corridor is %g %s wide)", width, unit);
    }
}

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    static const char *const known[] = {"edge_check",     "resolution",         "origin", "frame",
                                        "free_threshold", "occupied_threshold", NULL};
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known, "image2d", diag);
    if (st != PB_OK)
        return st;
    const char *check = pb_option_find(options, n_options, "edge_check");
    if (check && strcmp(check, "pixel_line") != 0 && strcmp(check, "certified") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'pixel_line' or 'certified', got '%s'", check);
        return PB_ERR_INVALID;
    }
    frame_options f;
    if ((st = read_frame_options(&f, options, n_options, diag)) != PB_OK)
        return st;
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0,
                    "the image engine needs a map: a PNG or PGM image, or a map_server YAML file");
        return PB_ERR_INVALID;
    }
    image2d *e = calloc(1, sizeof *e);
    if (e)
        pthread_mutex_init(&e->edt_lock, NULL);
    pb_map_yaml *yaml = calloc(1, sizeof *yaml);
    if (!e || !yaml) {
        free(e);
        free(yaml);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    bool has_yaml = false;
    st = load_map(e, path, &f, yaml, &has_yaml, diag);
    if (st != PB_OK) {
        free(yaml);
        destroy(e);
        return st;
    }
    e->certified = check && strcmp(check, "certified") == 0;
    *setup = pb_engine_config_default(2);
    set_bounds(e, setup);
    default_step(e, setup);
    setup->edge_check = e->certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_PIXEL_LINE;
    /* swept footprints (pb_engine_sweep()) stop certifying within a twentieth of a pixel */
    setup->clearance_floor = 0.05 * setup->resolution;
    /* the image's own defaults are pixel-centre coordinates (u, v); a YAML file's are metres */
    st = pb_bitmap_read_defaults(&e->map, path, "planbench:start", "planbench:goal", 2, "X,Y",
                                 setup->default_start, setup->default_goal, &setup->has_defaults, diag);
    if (st == PB_OK && setup->has_defaults && e->framed) {
        double xy[2];
        pb_map_frame_to_world(&e->frame.frame, setup->default_start, xy);
        memcpy(setup->default_start, xy, sizeof xy);
        pb_map_frame_to_world(&e->frame.frame, setup->default_goal, xy);
        memcpy(setup->default_goal, xy, sizeof xy);
    }
    if (has_yaml && yaml->has_start && yaml->has_goal) {
        memcpy(setup->default_start, yaml->start, sizeof yaml->start);
        memcpy(setup->default_goal, yaml->goal, sizeof yaml->goal);
        setup->has_defaults = true;
    }
    free(yaml);
    if (st != PB_OK) {
        destroy(e);
        return st;
    }
    *self_out = e;
    return PB_OK;
}

static const char *const aliases[] = {"image", "2d", NULL};

static const char *const options_help[] = {
    "edge_check=CHECK    pixel_line (default: the Bresenham line, as sbp-env and OMPL's harness) or "
    "certified (every pixel the segment crosses)",
    "resolution=R        metres per pixel: the map is in its map frame (metres, y up; a YAML map's own)",
    "origin=X,Y[,YAW]    pose of the image's lower-left corner in metres and radians (a YAML map's own)",
    "frame=FRAME         pixels (a PNG's default: x = column, y = row down) or ros (y up, resolution 1)",
    "free_threshold=F    a pixel is free when its occupancy (1 - lightness) is below F (map_server's rule)",
    "occupied_threshold=O  occupied above O, unknown (blocked) in between",
    NULL,
};

const pb_engine_impl pb_image2d_impl = {
    .name = "image2d",
    .aliases = aliases,
    .summary =
        "2D map: a PNG (white (255,255,255) pixels free) or a map_server map (YAML + PGM/PNG, in metres); "
        "Bresenham edges",
    .options_help = options_help,
    .accepts_path = accepts_path,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .edges = "pixel_line (default): the Bresenham line between the endpoints' pixels, every pixel read (the "
             "continuous segment may cut an occupied pixel's corner); certified with edge_check=certified",
    .get_data = get_data,
    .explain = explain,
    .render = render,
    .obstacle_add = obstacle_add,
    .obstacle_move = obstacle_move,
    .obstacle_remove = obstacle_remove,
    .footprint_check = footprint_check,
    .footprint_clearance = footprint_clearance,
};
