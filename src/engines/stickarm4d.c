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
 * visible(a, b), certified (the default): EVERY configuration of the edge (linear in x, y,
 * the short way round in each angle) is feasible, not only sampled ones. Conservative
 * advancement on a clearance:
 *
 * - Motion. A point at distance r <= L1 along link 1 moves at most |d_base| + r |d_th1|
 *   between two configurations, and one at distance s <= L2 along link 2 at most |d_base| +
 *   L1 |d_th1| + s |d_th1 + d_th2| (a chord is no longer than its arc), so no point of the
 *   arm moves more than B = |d_base| + (L1 + L2) |d_th1| + L2 |d_th2| over the whole edge,
 *   nor more than B |t - t'| between the configurations at t and t'.
 * - Rasterisation. A Bresenham pixel between pixels p0 and p1 has its centre within 0.5 of
 *   the segment between their centres (the error in the minor coordinate), and that segment
 *   lies within sqrt(2)/2 of the link itself (each joint is inside its floor pixel, at most
 *   sqrt(2)/2 from its centre, and the distance between corresponding points of two segments
 *   is at most the larger endpoint distance). So when every point of both links is farther
 *   than RASTER_MARGIN = 0.5 + sqrt(2)/2 from every occupied pixel square (pixels outside
 *   the image count as occupied), no Bresenham pixel of the configuration is occupied.
 * - Clearance. At load, a Euclidean distance transform gives, for every pixel, the distance
 *   from its centre to the nearest occupied pixel's centre. A point x of a link lies in a
 *   pixel whose centre is within sqrt(2)/2 of it, and every point of an occupied square is
 *   within sqrt(2)/2 of that square's centre, so x is at least edt(pixel) - sqrt(2) from any
 *   occupied square. The minimum over every pixel the continuous link passes through (its
 *   supercover), less sqrt(2) and RASTER_MARGIN, is the clearance c(q): every configuration
 *   whose points move less than c(q) from q is feasible, that is every t' with B |t' - t| <
 *   c(q).
 * - The check covers [0, 1] from both endpoints and then midpoints of what is left (depth
 *   first, as pb_edge_certified() does); a configuration with c(q) below CLEARANCE_FLOOR
 *   pixels makes the edge count as blocked: a stretch too tight to certify (the arm passing
 *   within about 2.7 px of an obstacle) is refused, never guessed. Rotation in place is
 *   covered by the same bound (B counts the angles).
 *
 * visible(a, b) with edge_check=sampled: the former check, reported as "sampled":
 * configurations at a spacing such that no arm point moves more than one pixel between two
 * of them. A link can pass over a pixel corner between two samples.
 *
 * The metric is sqrt(dx^2 + dy^2 + ((L1 + L2) d_th1)^2 + (L2 d_th2)^2): angles weighted by
 * the arm length they swing, so one unit is about one pixel of arm motion everywhere (with
 * weight 1 a radian would count as one pixel and steering and goal tests would all but
 * ignore the angles). */
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "checkers/clearance.h"
#include "checkers/interpolate.h"
#include "io/png_map.h"
#include "core/metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LINK_LENGTH 30.0
/* See the top: how far a Bresenham pixel's centre may lie from the continuous link, and how
 * far a point of a link may lie from its pixel's distance-transform value, in pixels. */
#define RASTER_MARGIN (0.5 + 0.5 * M_SQRT2)
#define EDT_MARGIN    PB_EDT_MARGIN
/* A configuration certifies nothing below this clearance (pixels): the stretch is blocked. */
#define CLEARANCE_FLOOR 0.05

typedef struct stickarm {
    pb_bitmap map;
    double l1, l2;
    bool bisection;
    bool certified;   /* the certified edge check (default) or the sampled one */
    float *clearance; /* W x H: distance from a pixel's centre to the nearest occupied pixel's
                         centre, the image's outside occupied (certified only) */
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
    free(arm->clearance);
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

/* The configuration at t of the edge from a (deltas: angles the short way round). */
static void arm_interpolate(const double *a, const double *delta, double t, double *q)
{
    q[0] = a[0] + t * delta[0];
    q[1] = a[1] + t * delta[1];
    q[2] = a[2] + t * delta[2];
    q[3] = a[3] + t * delta[3];
}

static bool visible_sampled(const void *self, const double *a, const double *b, pb_engine_counters *counters)
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
        double q[4];
        arm_interpolate(a, delta, (double)i / (double)n, q);
        counters->n_edge_states++;
        if (!feasible(arm, q, counters))
            return false;
    }
    return true;
}

/* The distance transform of the occupied pixels, the outside of the image included. */
static pb_status make_clearance(stickarm *arm)
{
    return pb_distance_transform(&arm->map, &arm->clearance);
}

static double segment_clearance(const stickarm *arm, double x0, double y0, double x1, double y1,
                                uint64_t *pixels)
{
    const double a[2] = {x0, y0}, b[2] = {x1, y1};
    return pb_segment_edt_min(arm->clearance, arm->map.width, arm->map.height, a, b, pixels);
}

/* c(q) of the top comment, in pixels of arm motion: negative when q is not certified feasible. */
static double arm_clearance(const stickarm *arm, const double *q, pb_engine_counters *counters)
{
    if (!isfinite(q[2]) || !isfinite(q[3]))
        return -1.0;
    double ex, ey, tx, ty;
    joints(arm, q, &ex, &ey, &tx, &ty);
    const double c1 = segment_clearance(arm, q[0], q[1], ex, ey, &counters->n_pixels);
    if (!(c1 >= 0.0))
        return -1.0;
    const double c2 = segment_clearance(arm, ex, ey, tx, ty, &counters->n_pixels);
    if (!(c2 >= 0.0))
        return -1.0;
    return fmin(c1, c2) - EDT_MARGIN - RASTER_MARGIN;
}

/* visible_certified()'s reach: the arm's clearance at q(t) over its speed (pixels per t). */
typedef struct arm_edge {
    const stickarm *arm;
    const double *a;
    double delta[4];
    double speed;
    pb_engine_counters *counters;
} arm_edge;

static double arm_reach(const void *ctx, double t)
{
    const arm_edge *e = ctx;
    double q[4];
    arm_interpolate(e->a, e->delta, t, q);
    const double c = arm_clearance(e->arm, q, e->counters);
    if (!(c >= CLEARANCE_FLOOR))
        return -1.0;
    /* the factor keeps the rounding of interpolated configurations on the safe side */
    return c * (1.0 - 1e-9) / e->speed;
}

static bool visible_certified(const void *self, const double *a, const double *b,
                              pb_engine_counters *counters)
{
    const stickarm *arm = self;
    /* the endpoints exactly, as feasible() defines them */
    counters->n_edge_states++;
    if (!feasible(arm, a, counters))
        return false;
    counters->n_edge_states++;
    if (!feasible(arm, b, counters))
        return false;
    arm_edge e = {.arm = arm, .a = a, .speed = displacement_bound(arm, a, b), .counters = counters};
    if (!(e.speed > 0.0))
        return e.speed == 0.0; /* the same configuration, feasible */
    e.delta[0] = b[0] - a[0];
    e.delta[1] = b[1] - a[1];
    e.delta[2] = pb_coord_delta(a[2], b[2], 2.0 * M_PI);
    e.delta[3] = pb_coord_delta(a[3], b[3], 2.0 * M_PI);
    return pb_certify_interval(arm_reach, &e, counters);
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const stickarm *arm = self;
    return arm->certified ? visible_certified(self, a, b, counters) : visible_sampled(self, a, b, counters);
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

static const char *const known_options[] = {"arm_lengths", "edge_order", "edge_check", NULL};

static const char *const options_help[] = {
    "arm_lengths=L1,L2   link lengths in pixels (--arm-lengths; default 30,30)",
    "edge_check=CHECK    certified (default: every configuration of an edge) or sampled (no arm point "
    "moves more than a pixel between checks)",
    "edge_order=ORDER    sampled checks: bisection (default: midpoint first) or sequential",
    NULL,
};

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
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
        pb_diag_set_option(diag, "arm_lengths",
                           "expected two positive lengths in pixels (like 30,30), got '%s'", lengths_text);
        return PB_ERR_INVALID;
    }
    bool bisection = true;
    const char *order = pb_option_find(options, n_options, "edge_order");
    if (order) {
        if (strcmp(order, "bisection") != 0 && strcmp(order, "sequential") != 0) {
            pb_diag_set_option(diag, "edge_order", "expected 'bisection' or 'sequential', got '%s'", order);
            return PB_ERR_INVALID;
        }
        bisection = strcmp(order, "bisection") == 0;
    }
    const char *check = pb_option_find(options, n_options, "edge_check");
    if (check && strcmp(check, "certified") != 0 && strcmp(check, "sampled") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'certified' or 'sampled', got '%s'", check);
        return PB_ERR_INVALID;
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
    arm->certified = !check || strcmp(check, "certified") == 0;
    if (arm->certified && make_clearance(arm) != PB_OK) {
        pb_diag_set(diag, path, 0, 0, "out of memory for the map's distance transform");
        destroy(arm);
        return PB_ERR_NOMEM;
    }
    *setup = pb_engine_config_default(4);
    setup->upper[0] = arm->map.width;
    setup->upper[1] = arm->map.height;
    setup->lower[2] = setup->lower[3] = -M_PI;
    setup->upper[2] = setup->upper[3] = M_PI;
    setup->periods[2] = setup->periods[3] = 2.0 * M_PI;
    setup->weights[2] = arm->l1 + arm->l2;
    setup->weights[3] = arm->l2;
    setup->resolution = 1.0; /* sampled: at most a pixel of arm motion between checks */
    setup->bisection = bisection;
    setup->edge_check = arm->certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_SAMPLED;
    setup->clearance_floor = CLEARANCE_FLOOR; /* pixels of arm motion */
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
    .summary = "two-link stick arm (x, y, th1, th2) on a PNG map",
    .edges =
        "certified (default): clearance steps from the map's distance transform cover every configuration "
        "of the edge (a stretch within about 2.7 px of an obstacle counts as blocked); sampled with "
        "edge_check=sampled (no arm point moves more than a pixel between checks)",
    .options_help = options_help,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .get_data = get_data,
    .render = render,
    .draw_config = draw_config,
};
