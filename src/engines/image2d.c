/* The 2D image engine: a PNG map, white pixels free. C-space [0,W) x [0,H), x = column,
 * y = row from the top. feasible(q) reads pixel (floor x, floor y); visible(a, b) walks the
 * integer Bresenham line between those same pixels. */
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "io/png_map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct image2d {
    pb_bitmap map;
} image2d;

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
    return pb_bitmap_free(map, (int)q[0], (int)q[1]);
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const pb_bitmap *map = &((const image2d *)self)->map;
    if (!inside(map, a) || !inside(map, b))
        return false;
    /* inside() makes the coordinates non-negative, so truncation is floor */
    return pb_line_free(map, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &counters->n_pixels);
}

static const void *get_data(const void *self, const char *what)
{
    return strcmp(what, "bitmap") == 0 ? &((const image2d *)self)->map : NULL;
}

static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    const pb_bitmap *map = &((const image2d *)self)->map;
    pb_status st = pb_image_init(image, map->width, map->height);
    if (st != PB_OK) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return st;
    }
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (!pb_bitmap_free(map, x, y))
                memset(image->rgb + ((size_t)y * (size_t)map->width + (size_t)x) * 3, 40, 3);
    *scale = 1.0;
    return PB_OK;
}

static void destroy(void *self)
{
    image2d *e = self;
    if (!e)
        return;
    pb_bitmap_finish(&e->map);
    free(e);
}

/* Read an "X,Y" default from a text chunk. */
static pb_status read_default(const pb_bitmap *map, const char *path, const char *key, double *out, bool *found,
                              pb_diag *diag)
{
    const char *text = pb_bitmap_text(map, key);
    *found = text != NULL;
    if (!text)
        return PB_OK;
    if (pb_parse_doubles(text, out, 2) != 2) {
        pb_diag_set(diag, path, 0, 0, "text chunk '%s' must be \"X,Y\", got \"%s\"", key, text);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

static pb_status load(void **self_out, pb_engine_setup *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    static const char *const known[] = {NULL};
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known, "image2d", diag);
    if (st != PB_OK)
        return st;
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
    *setup = pb_engine_setup_default(2);
    setup->upper[0] = e->map.width;
    setup->upper[1] = e->map.height;
    setup->resolution = 1.0;
    bool has_start = false, has_goal = false;
    if ((st = read_default(&e->map, path, "planbench:start", setup->default_start, &has_start, diag)) != PB_OK ||
        (st = read_default(&e->map, path, "planbench:goal", setup->default_goal, &has_goal, diag)) != PB_OK) {
        destroy(e);
        return st;
    }
    setup->has_defaults = has_start && has_goal;
    *self_out = e;
    return PB_OK;
}

static const char *const aliases[] = {"image", "2d", NULL};

const pb_engine_impl pb_image2d_impl = {
    .name = "image2d",
    .aliases = aliases,
    .summary = "2D PNG map: white (255,255,255) pixels are free; Bresenham edges",
    .accepts_path = accepts_path,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .get_data = get_data,
    .render = render,
};
