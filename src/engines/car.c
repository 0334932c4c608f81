/* The car engine (issue 18): a car-like vehicle on a metric map. Configurations are (x, y, yaw)
 * of the rear axle's centre (metres, radians in [-pi, pi)); the vehicle is its `<vehicle>`
 * file's footprint rectangle (docs/vehicles.md).
 *
 * feasible(q): the footprint at q lies on free cells inside the map (the image engine's
 * rasterised footprint check: every cell it overlaps), clear of the map's dynamic obstacles.
 *
 * Edges follow steering curves: the shortest Reeds-Shepp curve (forward and reverse, the
 * default) or Dubins curve (forward only, curve=dubins) between two poses, with the turning
 * radius wheelbase / tan(max_steer) (or turning_radius=R). distance(a, b) is the curve's
 * length and interpolate() walks it, so every planner runs on the car unchanged.
 *
 * visible(a, b), certified: the footprint is swept along the curve (pb_engine_sweep()'s loop
 * on the map): a point of the footprint at most `reach` from the rear axle moves at most
 * (1 + reach / R) metres per metre of curve (a straight moves every point as far as the axle;
 * an arc of radius R turns the footprint about a centre at most R + reach from any of its
 * points), so a pose whose footprint lies c from every obstacle certifies every pose within
 * c / (1 + reach / R) metres of curve. Near obstacles the map's clearance bound gives way to
 * exact checks of the box that holds the footprint over a stretch of one segment (one arc or
 * straight: pb_sweep_path), then of the footprint grown by a quarter cell or less
 * (engine_sweep.c). Only the verdict matters, so a pose closer than the clearance floor is a
 * hit and a blocked sweep stops at once.
 *
 * Nearest neighbours: a curve is at least as long as the straight line between its ends, so
 * the kd-tree prunes with the Euclidean distance of the positions (weights 1, 1, 0) and
 * measures candidates by their curve. */
#include "planbench/impl/engine_impl.h"
#include "planbench/vehicle.h"
#include "core/engine_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const pb_engine_impl pb_image2d_impl;

typedef struct car {
    const pb_engine_impl *map_impl; /* the image engine, holding the map and its obstacles */
    void *map;
    pb_map_frame frame;
    double floor, resolution; /* the map's clearance floor and metres per cell */
    pb_vehicle_config vehicle;
    pb_footprint footprint;
    pb_curve_family family;
    double radius; /* turning radius, metres */
    double reach;  /* rear axle to the farthest footprint corner, metres */
} car;

static void destroy(void *self)
{
    car *c = self;
    if (!c)
        return;
    if (c->map)
        c->map_impl->destroy(c->map);
    free(c);
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    const car *c = self;
    if (!isfinite(q[2]))
        return false;
    pb_hit hit;
    c->map_impl->footprint_check(c->map, &c->footprint, q, PB_OBSTACLE_NONE, &hit, counters);
    return hit.kind == PB_HIT_NONE;
}

static bool curve(const void *self, const double *a, const double *b, pb_curve *out)
{
    const car *c = self;
    return pb_curve_shortest(out, c->family, a, b, c->radius);
}

static double distance(const void *self, const double *a, const double *b)
{
    pb_curve k;
    if (!curve(self, a, b, &k))
        return INFINITY;
    return pb_curve_length(&k);
}

static void interpolate(const void *self, const double *a, const double *b, double t, double *out)
{
    pb_curve k;
    if (!curve(self, a, b, &k)) {
        memcpy(out, a, 3 * sizeof *out);
        return;
    }
    if (t >= 1.0) { /* the goal exactly, as the planners expect */
        memcpy(out, b, 3 * sizeof *out);
        return;
    }
    pb_curve_point(&k, a, t * pb_curve_length(&k), out);
}

/* One segment of a curve as a motion for the sweep: the pose t of the way along it. */
typedef struct segment_motion {
    const pb_curve *curve;
    const double *start;
    double from, length; /* where the segment starts along the curve, and its length, metres */
} segment_motion;

static void segment_pose(const void *ctx, double t, double *pose)
{
    const segment_motion *m = ctx;
    pb_curve_point(m->curve, m->start, m->from + t * m->length, pose);
}

/* Segment by segment: each is one arc or straight driven one way, which is what the sweep's
 * stretch checks need to certify long stretches near walls (pb_sweep_path); a straight moves
 * every footprint point as far as the axle, an arc at most (1 + reach / R) times that. The
 * first segment's start is checked whole, each later one starts where the last was certified. */
static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const car *c = self;
    counters->n_edge_states++;
    if (!feasible(c, b, counters))
        return false;
    pb_curve k;
    if (!curve(c, a, b, &k))
        return false;
    double from = 0.0;
    for (int i = 0; i < k.n; i++) {
        const pb_curve_segment *seg = &k.segments[i];
        const double length = fabs(seg->length);
        const double curvature = seg->type == 'L' ? 1.0 / k.radius : seg->type == 'R' ? -1.0 / k.radius : 0.0;
        const pb_sweep_path path = {.length = length,
                                    .curvature_min = curvature,
                                    .curvature_max = curvature,
                                    .direction = seg->length < 0.0 ? -1 : 1};
        const pb_sweep_opts opts = {.path = &path, .start_free = i > 0, .grain = 1.0, .floor_is_hit = true};
        const segment_motion m = {&k, a, from, length};
        const double rate = curvature == 0.0 ? length : length * (1.0 + c->reach / k.radius);
        double t_free;
        pb_hit hit;
        if (!pb_sweep_run(c->map_impl, c->map, c->floor, c->resolution, &c->footprint, segment_pose, &m, rate,
                          &opts, PB_OBSTACLE_NONE, counters, &t_free, &hit))
            return false;
        from += length;
    }
    return true;
}

/* ---- the map's entries, through the image engine ---- */

static pb_status obstacle_add(void *self, const pb_footprint *footprint, const double *pose, uint32_t *id)
{
    car *c = self;
    return c->map_impl->obstacle_add(c->map, footprint, pose, id);
}

static pb_status obstacle_move(void *self, uint32_t id, const double *pose)
{
    car *c = self;
    return c->map_impl->obstacle_move(c->map, id, pose);
}

static pb_status obstacle_remove(void *self, uint32_t id)
{
    car *c = self;
    return c->map_impl->obstacle_remove(c->map, id);
}

static void footprint_check(const void *self, const pb_footprint *footprint, const double *pose,
                            uint32_t ignore_id, pb_hit *hit, pb_engine_counters *counters)
{
    const car *c = self;
    c->map_impl->footprint_check(c->map, footprint, pose, ignore_id, hit, counters);
}

static double footprint_clearance(const void *self, const pb_footprint *footprint, const double *pose,
                                  uint32_t ignore_id, pb_engine_counters *counters)
{
    const car *c = self;
    return c->map_impl->footprint_clearance(c->map, footprint, pose, ignore_id, counters);
}

static const void *get_data(const void *self, const char *what)
{
    const car *c = self;
    if (strcmp(what, "vehicle") == 0)
        return &c->vehicle;
    if (strcmp(what, "footprint") == 0)
        return &c->footprint;
    return c->map_impl->get_data(c->map, what);
}

static bool explain(const void *self, const double *q, char *buf, size_t size)
{
    const car *c = self;
    pb_hit hit;
    pb_engine_counters counters = {0};
    buf[0] = '\0';
    if (!isfinite(q[2]))
        return snprintf(buf, size, "its heading is not a number") > 0;
    c->map_impl->footprint_check(c->map, &c->footprint, q, PB_OBSTACLE_NONE, &hit, &counters);
    switch (hit.kind) {
    case PB_HIT_OUTSIDE:
        snprintf(buf, size, "the vehicle's footprint reaches outside the map");
        return true;
    case PB_HIT_MAP:
        snprintf(buf, size, "the vehicle's footprint covers the blocked cell (%d, %d) of the image",
                 hit.pixel_x, hit.pixel_y);
        return true;
    case PB_HIT_OBSTACLE:
        snprintf(buf, size, "the vehicle's footprint touches obstacle %u", (unsigned)hit.obstacle_id);
        return true;
    case PB_HIT_INVALID:
        snprintf(buf, size, "the pose is not finite");
        return true;
    default:
        return false;
    }
}

static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    const car *c = self;
    return c->map_impl->render(c->map, image, scale, diag);
}

/* The footprint's outline, and a line from the rear axle to the front bumper's middle. */
static void draw_config(const void *self, pb_image *image, double scale, const double *q, pb_color color)
{
    const car *c = self;
    const double cs = cos(q[2]), sn = sin(q[2]);
    const double front = c->vehicle.length - c->vehicle.rear_overhang, rear = -c->vehicle.rear_overhang;
    const double hw = 0.5 * c->vehicle.width;
    const double local[5][2] = {{front, hw}, {rear, hw}, {rear, -hw}, {front, -hw}, {front, 0.0}};
    double px[5][2];
    for (int i = 0; i < 5; i++) {
        const double xy[2] = {q[0] + cs * local[i][0] - sn * local[i][1],
                              q[1] + sn * local[i][0] + cs * local[i][1]};
        pb_map_frame_to_pixel(&c->frame, xy, px[i]);
        px[i][0] *= scale;
        px[i][1] *= scale;
    }
    for (int i = 0; i < 4; i++)
        pb_image_draw_line(image, px[i][0], px[i][1], px[(i + 1) % 4][0], px[(i + 1) % 4][1], color);
    double axle[2];
    pb_map_frame_to_pixel(&c->frame, q, axle);
    pb_image_draw_line(image, axle[0] * scale, axle[1] * scale, px[4][0], px[4][1], color);
}

/* ---- loading ---- */

/* The options the map reads, passed through. */
static const char *const map_option_names[] = {"resolution",         "origin", "frame", "free_threshold",
                                               "occupied_threshold", NULL};

static bool is_map_option(const char *name)
{
    for (int i = 0; map_option_names[i]; i++)
        if (strcmp(map_option_names[i], name) == 0)
            return true;
    return false;
}

static pb_status read_options(car *c, const pb_option *options, size_t n_options, pb_diag *diag)
{
    const char *robot = pb_option_find(options, n_options, "robot");
    c->vehicle = pb_vehicle_config_default();
    pb_status st = robot ? pb_vehicle_load(&c->vehicle, robot, diag) : PB_OK;
    if (st != PB_OK)
        return st == PB_ERR_IO ? PB_ERR_INVALID : st;
    const char *text = pb_option_find(options, n_options, "curve");
    c->family = PB_CURVE_REEDS_SHEPP;
    if (text) {
        const int family = pb_curve_family_from_name(text);
        if (family < 0) {
            pb_diag_set_option(diag, "curve",
                               "expected 'reeds_shepp' (forward and reverse) or 'dubins' "
                               "(forward only), got '%s'",
                               text);
            return PB_ERR_INVALID;
        }
        c->family = (pb_curve_family)family;
    }
    c->radius = pb_vehicle_turning_radius(&c->vehicle);
    text = pb_option_find(options, n_options, "turning_radius");
    if (text && (pb_parse_doubles(text, &c->radius, 1) != 1 || !(c->radius > 0.0))) {
        pb_diag_set_option(diag, "turning_radius", "expected metres > 0, got '%s'", text);
        return PB_ERR_INVALID;
    }
    /* a safety margin grows the footprint on every side (a plan that a tracker will follow,
     * off the path by a little, keeps that much away from everything) */
    double margin = 0.0;
    text = pb_option_find(options, n_options, "margin");
    if (text && (pb_parse_doubles(text, &margin, 1) != 1 || !(margin >= 0.0) || margin > 1e3)) {
        pb_diag_set_option(diag, "margin", "expected metres >= 0, got '%s'", text);
        return PB_ERR_INVALID;
    }
    c->footprint = pb_vehicle_footprint(&c->vehicle);
    c->footprint.half_length += margin;
    c->footprint.half_width += margin;
    c->reach = pb_vehicle_reach(&c->vehicle) + margin * M_SQRT2;
    return PB_OK;
}

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    static const char *const known[] = {
        "robot", "curve",          "turning_radius",     "margin", "resolution", "origin",
        "frame", "free_threshold", "occupied_threshold", NULL};
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known, "car", diag);
    if (st != PB_OK)
        return st;
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0, "the car engine needs a map: a map_server YAML file (metres)");
        return PB_ERR_INVALID;
    }
    car *c = calloc(1, sizeof *c);
    if (!c) {
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    c->map_impl = &pb_image2d_impl;
    if ((st = read_options(c, options, n_options, diag)) != PB_OK) {
        destroy(c);
        return st;
    }
    pb_option map_options[8];
    size_t n_map = 0;
    for (size_t i = 0; i < n_options && n_map < 8; i++)
        if (is_map_option(options[i].name))
            map_options[n_map++] = options[i];
    pb_engine_config map_setup;
    if ((st = c->map_impl->load(&c->map, &map_setup, path, map_options, n_map, diag)) != PB_OK) {
        c->map = NULL;
        destroy(c);
        return st;
    }
    const pb_map_frame *frame = c->map_impl->get_data(c->map, "map_frame");
    if (!frame || !frame->metric) {
        pb_diag_set(diag, path, 0, 0,
                    "the car engine needs a map in metres: a map_server YAML file, or give the image's "
                    "resolution (--resolution M)");
        destroy(c);
        return PB_ERR_INVALID;
    }
    c->frame = *frame;
    c->resolution = frame->resolution;
    c->floor = map_setup.clearance_floor > 0.0 ? map_setup.clearance_floor : 0.05 * frame->resolution;
    /* every edge of the car is swept against the map's distance transform: make it now, with the
     * map (setting up, as a planner's harness rasterises its map before it plans), not in the
     * first query of the first solve */
    {
        pb_engine_counters counters = {0};
        const double pose[3] = {map_setup.lower[0], map_setup.lower[1], 0.0};
        (void)c->map_impl->footprint_clearance(c->map, &c->footprint, pose, PB_OBSTACLE_NONE, &counters);
    }

    *setup = pb_engine_config_default(3);
    for (int i = 0; i < 2; i++) {
        setup->lower[i] = map_setup.lower[i];
        setup->upper[i] = map_setup.upper[i];
    }
    setup->lower[2] = -M_PI;
    setup->upper[2] = M_PI;
    setup->periods[2] = 2.0 * M_PI;
    setup->weights[2] = 0.0; /* the bound: positions only */
    setup->metric_lower_bound = true;
    setup->asymmetric = c->family == PB_CURVE_DUBINS;
    setup->resolution = frame->resolution;
    setup->edge_check = PB_EDGE_CHECK_CERTIFIED;
    setup->clearance_floor = c->floor;
    /* a tree step of a turning radius (at least 5 % of the map's diagonal): shorter curves
     * between poses of different headings are mostly turning on the spot */
    setup->step_size =
        fmax(c->radius, 0.05 * hypot(setup->upper[0] - setup->lower[0], setup->upper[1] - setup->lower[1]));
    if (map_setup.has_defaults) {
        setup->has_defaults = true;
        memcpy(setup->default_start, map_setup.default_start, 2 * sizeof(double));
        memcpy(setup->default_goal, map_setup.default_goal, 2 * sizeof(double));
    }
    *self_out = c;
    return PB_OK;
}

static const char *const options_help[] = {
    "robot=FILE          the vehicle: a <vehicle> file (default: AWSIM's Lexus RX450h, "
    "robots/lexus_rx450h.xml)",
    "curve=CURVE         reeds_shepp (default: forward and reverse) or dubins (forward only)",
    "turning_radius=R    metres (default: wheelbase / tan(max_steer))",
    "margin=M            grow the footprint by M metres on every side (default 0): room for a path tracker",
    "resolution=R, origin=X,Y[,YAW], frame=ros, free_threshold=F, occupied_threshold=O  the map, as image2d",
    NULL,
};

static const char *const aliases[] = {"vehicle", NULL};

const pb_engine_impl pb_car_impl = {
    .name = "car",
    .aliases = aliases,
    .summary = "a car-like vehicle (its footprint, SE(2)) on a metric map, Reeds-Shepp or Dubins edges",
    .options_help = options_help,
    .edges = "certified: the vehicle's footprint swept along the steering curve by clearance steps (exact "
             "footprint checks near obstacles)",
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .distance = distance,
    .interpolate = interpolate,
    .get_data = get_data,
    .explain = explain,
    .render = render,
    .draw_config = draw_config,
    .obstacle_add = obstacle_add,
    .obstacle_move = obstacle_move,
    .obstacle_remove = obstacle_remove,
    .footprint_check = footprint_check,
    .footprint_clearance = footprint_clearance,
    .curve = curve,
};
