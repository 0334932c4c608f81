/* The 2D image engine: a PNG map, white pixels free. C-space [0,W) x [0,H), x = column,
 * y = row from the top. feasible(q) reads pixel (floor x, floor y); visible(a, b) walks the
 * integer Bresenham line between those same pixels (the rule of sbp-env and of the OMPL
 * harness, reported as "pixel_line"), or with edge_check=certified every pixel the
 * continuous segment passes through, so that every point of the edge is feasible. */
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "checkers/shapes2d.h"
#include "io/png_map.h"

#include <math.h>
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
    pb_bitmap map;
    bool certified; /* edges read the segment's supercover, not the Bresenham line */
    /* The dynamic layer, apart from the read-only map: feasible() and visible() look at it
     * only when n_live > 0, so planning on a plain map costs one branch. */
    dyn_obstacle *obstacles;
    uint32_t n_slots, capacity, n_live, generation;
    uint32_t first_free; /* no free slot below it: adding is O(1) amortised, not a scan from 0 */
} image2d;

/* The dynamic layer's checks, kept out of line and reached by tail calls: inlined, their
 * loops made feasible() and visible() save registers on every call, which cost plain maps
 * about 15 instructions an edge (measured with cachegrind on maps/maze.png). */
#if defined(__GNUC__)
#define COLD_PATH __attribute__((noinline))
#else
#define COLD_PATH
#endif

/* Is the point clear of every dynamic obstacle? */
COLD_PATH static bool dynamic_point_free(const image2d *e, const double *q)
{
    for (uint32_t i = 0; i < e->n_slots; i++)
        if (e->obstacles[i].id != PB_OBSTACLE_NONE && pb_shape2d_contains(&e->obstacles[i].shape, q[0], q[1]))
            return false;
    return true;
}

/* The edge against the dynamic obstacles, then against the map. */
COLD_PATH static bool visible_with_obstacles(const image2d *e, const double *a, const double *b,
                                             pb_engine_counters *counters)
{
    for (uint32_t i = 0; i < e->n_slots; i++)
        if (e->obstacles[i].id != PB_OBSTACLE_NONE && pb_shape2d_hits_segment(&e->obstacles[i].shape, a, b))
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
    if (!pb_shape2d_make(footprint, pose, &o->shape)) {
        o->id = PB_OBSTACLE_NONE;
        return PB_ERR_INVALID;
    }
    e->generation = (e->generation + 1) & 0x7fffu;
    o->id = (e->generation << 16) | slot;
    o->footprint = *footprint;
    e->n_live++;
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
    if (!pb_shape2d_make(&o->footprint, pose, &moved))
        return PB_ERR_INVALID;
    o->shape = moved;
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
    if ((uint32_t)(o - e->obstacles) < e->first_free)
        e->first_free = (uint32_t)(o - e->obstacles);
    while (e->n_slots > 0 && e->obstacles[e->n_slots - 1].id == PB_OBSTACLE_NONE)
        e->n_slots--;
    return PB_OK;
}

/* The footprint against the map, rasterised: only occupied pixels under the footprint's
 * bounding box need the exact pixel-square test, so a footprint over free space costs one
 * bitmap read per pixel. Then against every other obstacle, geometrically. */
static void footprint_check(const void *self, const pb_footprint *footprint, const double *pose,
                            uint32_t ignore_id, pb_hit *hit, pb_engine_counters *counters)
{
    const image2d *e = self;
    const pb_bitmap *map = &e->map;
    pb_shape2d s;
    if (!pb_shape2d_make(footprint, pose, &s)) {
        hit->kind = PB_HIT_INVALID;
        return;
    }
    if (s.lo[0] < 0.0 || s.lo[1] < 0.0 || s.hi[0] > (double)map->width || s.hi[1] > (double)map->height) {
        hit->kind = PB_HIT_OUTSIDE;
        return;
    }
    const int x0 = (int)s.lo[0], y0 = (int)s.lo[1];
    int x1 = (int)ceil(s.hi[0]), y1 = (int)ceil(s.hi[1]);
    x1 = x1 > map->width ? map->width : x1;
    y1 = y1 > map->height ? map->height : y1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            counters->n_pixels++;
            if (!pb_bitmap_free(map, x, y) && pb_shape2d_overlaps_pixel(&s, x, y)) {
                hit->kind = PB_HIT_MAP;
                hit->pixel_x = x;
                hit->pixel_y = y;
                return;
            }
        }
    for (uint32_t i = 0; i < e->n_slots; i++) {
        const dyn_obstacle *o = &e->obstacles[i];
        if (o->id != PB_OBSTACLE_NONE && o->id != ignore_id && pb_shape2d_overlap(&s, &o->shape)) {
            hit->kind = PB_HIT_OBSTACLE;
            hit->obstacle_id = o->id;
            return;
        }
    }
    hit->kind = PB_HIT_NONE;
}

static bool accepts_path(const char *path)
{
    const size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".png") == 0;
}

static inline bool inside(const pb_bitmap *map, const double *q)
{
    /* written so that NaN is outside */
    return q[0] >= 0.0 && q[1] >= 0.0 && q[0] < (double)map->width && q[1] < (double)map->height;
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
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
    return strcmp(what, "bitmap") == 0 ? &((const image2d *)self)->map : NULL;
}

static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    return pb_bitmap_render(&((const image2d *)self)->map, image, scale, diag);
}

static void destroy(void *self)
{
    image2d *e = self;
    if (!e)
        return;
    pb_bitmap_finish(&e->map);
    free(e->obstacles);
    free(e);
}

/* Read an "X,Y" default from a text chunk. */

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    static const char *const known[] = {"edge_check", NULL};
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known, "image2d", diag);
    if (st != PB_OK)
        return st;
    const char *check = pb_option_find(options, n_options, "edge_check");
    if (check && strcmp(check, "pixel_line") != 0 && strcmp(check, "certified") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'pixel_line' or 'certified', got '%s'", check);
        return PB_ERR_INVALID;
    }
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0, "the image engine needs a PNG map");
        return PB_ERR_INVALID;
    }
    image2d *e = calloc(1, sizeof *e);
    if (!e) {
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    st = pb_png_load(path, &e->map, diag);
    if (st != PB_OK) {
        free(e);
        return st;
    }
    e->certified = check && strcmp(check, "certified") == 0;
    *setup = pb_engine_config_default(2);
    setup->upper[0] = e->map.width;
    setup->upper[1] = e->map.height;
    setup->resolution = 1.0;
    setup->edge_check = e->certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_PIXEL_LINE;
    st = pb_bitmap_read_defaults(&e->map, path, "planbench:start", "planbench:goal", 2, "X,Y",
                                 setup->default_start, setup->default_goal, &setup->has_defaults, diag);
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
    NULL,
};

const pb_engine_impl pb_image2d_impl = {
    .name = "image2d",
    .aliases = aliases,
    .summary = "2D PNG map: white (255,255,255) pixels are free; Bresenham edges",
    .options_help = options_help,
    .accepts_path = accepts_path,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .edges = "pixel_line (default): the Bresenham line between the endpoints' pixels, every pixel read (the "
             "continuous segment may cut an occupied pixel's corner); certified with edge_check=certified",
    .get_data = get_data,
    .render = render,
    .obstacle_add = obstacle_add,
    .obstacle_move = obstacle_move,
    .obstacle_remove = obstacle_remove,
    .footprint_check = footprint_check,
};
