/* The 4D stick-arm engine: a two-link planar arm on a PNG map (white pixels free).
 *
 * q = (x, y, th1, th2). The base is at pixel coordinates (x, y) (x the column, y the row
 * from the top); link 1, of length L1, leaves the base at angle th1; link 2, of length L2,
 * leaves the elbow at angle th1 + th2 (th2 is relative to link 1, as a joint's angle is).
 * Angles are radians measured from +x towards +y, which points down the image, in
 * [-pi, pi) and wrapping. Bounds [0, W) x [0, H) x [-pi, pi)^2.
 *
 * feasible(q): both links, rasterised as integer Bresenham lines from floor(joint) to
 * floor(tip), lie on free pixels inside the image.
 *
 * visible(a, b): configurations interpolated linearly in (x, y) and along the short way
 * round in each angle, at a spacing such that no point of the (continuous) arm moves more
 * than one pixel between consecutive checks. The spacing comes from a bound on how far any
 * arm point moves between two configurations: a point at distance r <= L1 along link 1
 * moves at most |d_base| + r |d_th1|, and one at distance s <= L2 along link 2 at most
 * |d_base| + L1 |d_th1| + s |d_th1 + d_th2| (a chord is no longer than its arc), so
 *
 *     displacement <= |d_base| + (L1 + L2) |d_th1| + L2 |d_th2|.
 *
 * The edge is cut into ceil(that bound) segments. A rotation in place is caught: sbp-env
 * spaces its checks by the base's motion only, so an arm that swings through an obstacle
 * without moving its base passes there.
 *
 * The metric is sqrt(dx^2 + dy^2 + ((L1 + L2) d_th1)^2 + (L2 d_th2)^2): angles weighted by
 * the arm length they swing, so one unit is about one pixel of arm motion everywhere (with
 * weight 1 a radian would count as one pixel and steering and goal tests would all but
 * ignore the angles). */
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "checkers/interpolate.h"
#include "io/png_map.h"
#include "core/metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LINK_LENGTH 30.0

typedef struct stickarm {
    pb_bitmap map;
    double l1, l2;
    bool bisection;
} stickarm;

typedef struct arm_pixels {
    long base_x, base_y, elbow_x, elbow_y, tip_x, tip_y;
} arm_pixels;

static void destroy(void *self)
{
    stickarm *arm = self;
    if (!arm)
        return;
    pb_bitmap_finish(&arm->map);
    free(arm);
}

/* The joints in continuous pixel coordinates: base, elbow, tip. */
static void joints(const stickarm *arm, const double *q, double *elbow_x, double *elbow_y, double *tip_x,
                   double *tip_y)
{
    *elbow_x = q[0] + arm->l1 * cos(q[2]);
    *elbow_y = q[1] + arm->l1 * sin(q[2]);
    *tip_x = *elbow_x + arm->l2 * cos(q[2] + q[3]);
    *tip_y = *elbow_y + arm->l2 * sin(q[2] + q[3]);
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    const stickarm *arm = self;
    const pb_bitmap *map = &arm->map;
    /* written so that NaN fails */
    if (!(q[0] >= 0.0 && q[1] >= 0.0 && q[0] < (double)map->width && q[1] < (double)map->height))
        return false;
    if (!isfinite(q[2]) || !isfinite(q[3]))
        return false;
    double ex, ey, tx, ty;
    joints(arm, q, &ex, &ey, &tx, &ty);
    /* every joint is within L1 + L2 of the base, so these fit a long */
    const long bx = (long)q[0], by = (long)q[1];
    const long ix = (long)floor(ex), iy = (long)floor(ey);
    return pb_line_free(map, bx, by, ix, iy, &counters->n_pixels) &&
           pb_line_free(map, ix, iy, (long)floor(tx), (long)floor(ty), &counters->n_pixels);
}

/* The bound, in pixels, on how far any point of the arm moves from a to b (see the top). */
static double displacement_bound(const stickarm *arm, const double *a, const double *b)
{
    const double d_base = hypot(b[0] - a[0], b[1] - a[1]);
    const double d1 = fabs(pb_coord_delta(a[2], b[2], 2.0 * M_PI));
    const double d2 = fabs(pb_coord_delta(a[3], b[3], 2.0 * M_PI));
    return d_base + (arm->l1 + arm->l2) * d1 + arm->l2 * d2;
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const stickarm *arm = self;
    counters->n_edge_states++;
    if (!feasible(arm, a, counters))
        return false;
    counters->n_edge_states++;
    if (!feasible(arm, b, counters))
        return false;
    const double bound = displacement_bound(arm, a, b);
    const uint64_t n = pb_edge_segments(bound, 1.0); /* at most one pixel per segment */
    const double delta[4] = {b[0] - a[0], b[1] - a[1], pb_coord_delta(a[2], b[2], 2.0 * M_PI),
                             pb_coord_delta(a[3], b[3], 2.0 * M_PI)};
    pb_edge_order order;
    pb_edge_order_init(&order, n, arm->bisection);
    uint64_t i;
    while (pb_edge_order_next(&order, &i)) {
        const double t = (double)i / (double)n;
        const double q[4] = {a[0] + t * delta[0], a[1] + t * delta[1], a[2] + t * delta[2],
                             a[3] + t * delta[3]};
        counters->n_edge_states++;
        if (!feasible(arm, q, counters))
            return false;
    }
    return true;
}

static const void *get_data(const void *self, const char *what)
{
    return strcmp(what, "bitmap") == 0 ? &((const stickarm *)self)->map : NULL;
}

static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    return pb_bitmap_render(&((const stickarm *)self)->map, image, scale, diag);
}

/* Draw the arm: both links, a disc on the base and a dot on the elbow. The picture's
 * coordinates are the map's times `scale` (lower bounds are 0). */
static void draw_config(const void *self, pb_image *image, double scale, const double *q, pb_color color)
{
    const stickarm *arm = self;
    double ex, ey, tx, ty;
    joints(arm, q, &ex, &ey, &tx, &ty);
    pb_image_draw_line(image, q[0] * scale, q[1] * scale, ex * scale, ey * scale, color);
    pb_image_draw_line(image, ex * scale, ey * scale, tx * scale, ty * scale, color);
    pb_image_draw_disc(image, q[0] * scale, q[1] * scale, 2.0, color);
    pb_image_draw_disc(image, ex * scale, ey * scale, 1.0, color);
}

/* Read an "X,Y,TH1,TH2" default from a text chunk. */

static const char *const known_options[] = {"arm_lengths", "edge_order", NULL};

static const char *const options_help[] = {
    "arm_lengths=L1,L2   link lengths in pixels (--arm-lengths; default 30,30)",
    "edge_order=ORDER    bisection (default: midpoint first) or sequential",
    NULL,
};

static pb_status load(void **self_out, pb_engine_setup *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known_options, "stickarm4d", diag);
    if (st != PB_OK)
        return st;
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0, "the 4D stick-arm engine needs a PNG map (like maps/4d.png)");
        return PB_ERR_INVALID;
    }
    double lengths[2] = {DEFAULT_LINK_LENGTH, DEFAULT_LINK_LENGTH};
    const char *lengths_text = pb_option_find(options, n_options, "arm_lengths");
    if (lengths_text && (pb_parse_doubles(lengths_text, lengths, 2) != 2 || !(lengths[0] > 0.0) ||
                         !(lengths[1] > 0.0) || lengths[0] > 1e6 || lengths[1] > 1e6)) {
        pb_diag_set(diag, NULL, 0, 0,
                    "arm_lengths: expected two positive lengths in pixels (like 30,30), got '%s'",
                    lengths_text);
        return PB_ERR_INVALID;
    }
    bool bisection = true;
    const char *order = pb_option_find(options, n_options, "edge_order");
    if (order) {
        if (strcmp(order, "bisection") != 0 && strcmp(order, "sequential") != 0) {
            pb_diag_set(diag, NULL, 0, 0, "edge_order: expected 'bisection' or 'sequential', got '%s'",
                        order);
            return PB_ERR_INVALID;
        }
        bisection = strcmp(order, "bisection") == 0;
    }
    stickarm *arm = calloc(1, sizeof *arm);
    if (!arm) {
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    st = pb_png_load(path, &arm->map, diag);
    if (st != PB_OK) {
        free(arm);
        return st;
    }
    arm->l1 = lengths[0];
    arm->l2 = lengths[1];
    arm->bisection = bisection;
    *setup = pb_engine_setup_default(4);
    setup->upper[0] = arm->map.width;
    setup->upper[1] = arm->map.height;
    setup->lower[2] = setup->lower[3] = -M_PI;
    setup->upper[2] = setup->upper[3] = M_PI;
    setup->periods[2] = setup->periods[3] = 2.0 * M_PI;
    setup->weights[2] = arm->l1 + arm->l2;
    setup->weights[3] = arm->l2;
    setup->resolution = 1.0; /* unused: visible() chooses its own spacing */
    setup->bisection = bisection;
    st = pb_bitmap_read_defaults(&arm->map, path, "planbench:stickarm4d:start", "planbench:stickarm4d:goal",
                                 4, "X,Y,TH1,TH2", setup->default_start, setup->default_goal,
                                 &setup->has_defaults, diag);
    if (st != PB_OK) {
        destroy(arm);
        return st;
    }
    *self_out = arm;
    return PB_OK;
}

static const char *const aliases[] = {"4d", "arm4d", NULL};

const pb_engine_impl pb_stickarm4d_impl = {
    .name = "stickarm4d",
    .aliases = aliases,
    .summary = "two-link stick arm (x, y, th1, th2) on a PNG map; edges checked so no arm point moves > 1 px",
    .options_help = options_help,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .get_data = get_data,
    .render = render,
    .draw_config = draw_config,
};
