/* The path tracker (include/planbench/tracker.h): pure pursuit on the steer angle and a speed
 * profile on the acceleration, one stretch of one direction at a time. */
#include "planbench/tracker.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Path points are searched for the nearest this many ahead of the last: the path's own
 * spacing (10 cm) times this bounds how far the vehicle can get ahead in one step. */
#define NEAREST_WINDOW 200
/* Below this speed a stretch's end, once reached, counts as stopped at. */
#define STOPPED_SPEED 0.02
/* 1/s: a rate-steered model is asked for the steer rate that closes the gap in a tenth of a second
 * (its own limit binds first) */
#define STEER_RATE_GAIN 10.0
/* The speed profile never asks less than this before the end is reached: the last metres are
 * crept, not stalled in. */
#define CREEP_SPEED 0.3

struct pb_tracker {
    pb_vehicle_config vehicle;
    pb_tracker_params params;
    double *x, *y, *yaw, *s; /* the poses and the path length up to each */
    bool *reverse;           /* the motion leaving point i */
    size_t n;
    size_t stretch_begin, stretch_end; /* the stretch being tracked: points begin..end */
    size_t nearest;                    /* within the stretch, never moving back */
    bool braking;                      /* the stretch's end is reached: stopping */
    bool done;
};

pb_tracker_params pb_tracker_params_default(void)
{
    return (pb_tracker_params){.cruise_speed = 5.0,
                               .reverse_speed = 2.0,
                               .lookahead_min = 1.5,
                               .lookahead_time = 0.3,
                               .lateral_acceleration = 2.0,
                               .comfort_deceleration = 2.0,
                               .speed_gain = 2.0,
                               .stop_tolerance = 0.1};
}

static void find_stretch_end(pb_tracker *t)
{
    size_t e = t->stretch_begin;
    while (e + 1 < t->n && (e == t->stretch_begin || t->reverse[e] == t->reverse[t->stretch_begin]))
        e++;
    t->stretch_end = e;
    t->nearest = t->stretch_begin;
    t->braking = false;
}

pb_status pb_tracker_create(pb_tracker **out, const pb_vehicle_config *vehicle,
                            const pb_tracker_params *params, const double *poses, const bool *reverse,
                            size_t n, pb_diag *diag)
{
    *out = NULL;
    const pb_tracker_params *p = params;
    if (!(p->cruise_speed > 0 && p->reverse_speed > 0 && p->lookahead_min > 0 && p->lookahead_time >= 0 &&
          p->comfort_deceleration > 0 && p->lateral_acceleration > 0 && p->speed_gain > 0 &&
          p->stop_tolerance > 0)) {
        pb_diag_set(diag, NULL, 0, 0,
                    "tracker: speeds, look-ahead, deceleration, gain and tolerance must be > 0");
        return PB_ERR_INVALID;
    }
    if (n < 2) {
        pb_diag_set(diag, NULL, 0, 0, "tracker: a path needs at least 2 poses (got %zu)", n);
        return PB_ERR_INVALID;
    }
    for (size_t i = 0; i < 3 * n; i++)
        if (!isfinite(poses[i])) {
            pb_diag_set(diag, NULL, 0, 0, "tracker: pose %zu is not finite", i / 3);
            return PB_ERR_INVALID;
        }
    pb_tracker *t = calloc(1, sizeof *t);
    double *values = t ? malloc(4 * n * sizeof *values) : NULL;
    bool *flags = values ? malloc(n * sizeof *flags) : NULL;
    if (!flags) {
        free(values);
        free(t);
        pb_diag_set(diag, NULL, 0, 0, "tracker: out of memory");
        return PB_ERR_NOMEM;
    }
    t->vehicle = *vehicle;
    t->params = *params;
    t->n = n;
    t->x = values;
    t->y = values + n;
    t->yaw = values + 2 * n;
    t->s = values + 3 * n;
    t->reverse = flags;
    for (size_t i = 0; i < n; i++) {
        t->x[i] = poses[3 * i];
        t->y[i] = poses[3 * i + 1];
        t->yaw[i] = poses[3 * i + 2];
        t->s[i] = i ? t->s[i - 1] + hypot(t->x[i] - t->x[i - 1], t->y[i] - t->y[i - 1]) : 0.0;
        t->reverse[i] = reverse ? reverse[i < n - 1 ? i : n - 2] : false;
    }
    find_stretch_end(t);
    *out = t;
    return PB_OK;
}

/* Sample one edge from `a` to `b` into the growing arrays (the end pose is left to the next). */
typedef struct samples {
    double *poses;
    bool *reverse;
    size_t n, cap;
} samples;

static bool push(samples *out, const double *pose, bool reverse)
{
    if (out->n == out->cap) {
        const size_t cap = out->cap ? 2 * out->cap : 256;
        double *poses = realloc(out->poses, 3 * cap * sizeof *poses);
        if (!poses)
            return false;
        out->poses = poses;
        bool *flags = realloc(out->reverse, cap * sizeof *flags);
        if (!flags)
            return false;
        out->reverse = flags;
        out->cap = cap;
    }
    memcpy(out->poses + 3 * out->n, pose, 3 * sizeof *pose);
    out->reverse[out->n++] = reverse;
    return true;
}

static bool sample_edge(samples *out, const pb_engine *engine, const double *a, const double *b)
{
    const double spacing = 0.1;
    pb_curve curve;
    if (pb_engine_curve(engine, a, b, &curve)) {
        const double length = pb_curve_length(&curve);
        const int n = (int)ceil(length / spacing);
        for (int k = 0; k < n; k++) {
            double pose[3];
            pb_curve_point(&curve, a, length * k / n, pose);
            if (!push(out, pose, pb_curve_reverse_at(&curve, length * (k + 0.5) / n)))
                return false;
        }
        return true;
    }
    const double dx = b[0] - a[0], dy = b[1] - a[1], length = hypot(dx, dy);
    const int n = (int)ceil(length / spacing);
    for (int k = 0; k < n; k++) {
        const double pose[3] = {a[0] + dx * k / n, a[1] + dy * k / n, atan2(dy, dx)};
        if (!push(out, pose, false))
            return false;
    }
    return true;
}

pb_status pb_tracker_create_from_path(pb_tracker **out, const pb_vehicle_config *vehicle,
                                      const pb_tracker_params *params, const pb_engine *engine,
                                      const pb_path *path, pb_diag *diag)
{
    *out = NULL;
    if (path->n < 2 || path->dim < 2) {
        pb_diag_set(diag, NULL, 0, 0, "tracker: a path needs at least 2 poses of (x, y[, yaw])");
        return PB_ERR_INVALID;
    }
    samples all = {0};
    bool ok = true;
    for (size_t i = 0; ok && i + 1 < path->n; i++) {
        double a[3] = {0}, b[3] = {0};
        memcpy(a, path->q + i * (size_t)path->dim, (size_t)(path->dim < 3 ? path->dim : 3) * sizeof *a);
        memcpy(b, path->q + (i + 1) * (size_t)path->dim, (size_t)(path->dim < 3 ? path->dim : 3) * sizeof *b);
        ok = sample_edge(&all, engine, a, b);
    }
    if (ok) { /* the last pose: the path's end */
        double end[3] = {0};
        memcpy(end, path->q + (path->n - 1) * (size_t)path->dim,
               (size_t)(path->dim < 3 ? path->dim : 3) * sizeof *end);
        if (path->dim < 3 && all.n > 0)
            end[2] = all.poses[3 * (all.n - 1) + 2];
        ok = push(&all, end, all.n ? all.reverse[all.n - 1] : false);
    }
    pb_status st = PB_ERR_NOMEM;
    if (ok)
        st = pb_tracker_create(out, vehicle, params, all.poses, all.reverse, all.n, diag);
    else
        pb_diag_set(diag, NULL, 0, 0, "tracker: out of memory");
    free(all.poses);
    free(all.reverse);
    return st;
}

void pb_tracker_destroy(pb_tracker *t)
{
    if (!t)
        return;
    free(t->x);
    free(t->reverse);
    free(t);
}

static double distance_to(const pb_tracker *t, size_t i, double x, double y)
{
    return hypot(t->x[i] - x, t->y[i] - y);
}

/* The nearest point of the stretch, searched forward from the last within a window. */
static void update_nearest(pb_tracker *t, double x, double y)
{
    size_t best = t->nearest;
    double best_d = distance_to(t, best, x, y);
    for (size_t i = t->nearest + 1; i <= t->stretch_end && i <= t->nearest + NEAREST_WINDOW; i++) {
        const double d = distance_to(t, i, x, y);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    t->nearest = best;
}

size_t pb_tracker_progress(const pb_tracker *t)
{
    return t->nearest;
}

double pb_tracker_cross_track_error(const pb_tracker *t, const pb_vehicle_state *state)
{
    double best = INFINITY;
    for (size_t i = t->stretch_begin; i <= t->stretch_end; i++)
        best = fmin(best, distance_to(t, i, state->x, state->y));
    return best;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

bool pb_tracker_command(pb_tracker *t, const pb_vehicle_state *state, pb_vehicle_input *input,
                        double *target_speed)
{
    const double hold_steer = state->steer;
    *input = (pb_vehicle_input){.gear = PB_GEAR_PARKING, .steer_angle = hold_steer};
    if (target_speed)
        *target_speed = 0.0;
    if (t->done)
        return false;
    update_nearest(t, state->x, state->y);
    const size_t e = t->stretch_end;
    const bool reverse = t->reverse[t->stretch_begin];
    const double dir = reverse ? -1.0 : 1.0;
    const double speed = fabs(state->v);
    /* how far the rear axle still is from the stretch's end: along the path while the end is
     * samples away (a stretch may turn back on itself), then along the end's direction of travel */
    const bool at_last = t->nearest + 1 >= e;
    const double ahead =
        dir * ((t->x[e] - state->x) * cos(t->yaw[e]) + (t->y[e] - state->y) * sin(t->yaw[e]));
    const double remaining = at_last ? fmax(ahead, 0.0) : t->s[e] - t->s[t->nearest];
    if ((at_last && ahead <= t->params.stop_tolerance) || t->nearest == e)
        t->braking = true;
    if (t->braking && speed <= STOPPED_SPEED) {
        if (e + 1 >= t->n) {
            t->done = true;
            return false;
        }
        t->stretch_begin = e;
        find_stretch_end(t);
        return pb_tracker_command(t, state, input, target_speed);
    }
    /* the speed profile: the cruise speed, slow enough to stop at the stretch's end and to take
     * the sharpest bend within the braking distance at the comfortable lateral acceleration */
    const double cruise = reverse ? t->params.reverse_speed : t->params.cruise_speed;
    double v_target = 0.0;
    if (!t->braking) {
        const double horizon =
            cruise * cruise / (2.0 * t->params.comfort_deceleration) + t->params.lookahead_min;
        double bend = 0.0; /* the largest curvature ahead, 1/m */
        for (size_t i = t->nearest; i < e && t->s[i] - t->s[t->nearest] <= horizon; i++) {
            const double ds = t->s[i + 1] - t->s[i];
            if (ds > 1e-9)
                bend = fmax(bend, fabs(remainder(t->yaw[i + 1] - t->yaw[i], 2 * M_PI)) / ds);
        }
        v_target = fmin(cruise, sqrt(2.0 * t->params.comfort_deceleration * remaining));
        if (bend > 0)
            v_target = fmin(v_target, sqrt(t->params.lateral_acceleration / bend));
        v_target = fmax(v_target, CREEP_SPEED);
    }
    const double a_max = t->vehicle.max_acceleration;
    double accel = clamp(t->params.speed_gain * (v_target - speed), -a_max, a_max);
    /* the stop itself: the deceleration that ends the stretch at its end (a proportional
     * command alone lags and overshoots), and full braking once there */
    if (t->braking)
        accel = -a_max;
    else if (speed * speed > 2.0 * t->params.comfort_deceleration * remaining)
        accel = fmin(accel, clamp(-speed * speed / (2.0 * fmax(remaining, 0.01)), -a_max, 0.0));
    /* pure pursuit: the look-ahead point, extended past the stretch's end along its heading */
    const double ld = t->params.lookahead_min + t->params.lookahead_time * speed;
    size_t j = t->nearest;
    while (j < e && t->s[j] - t->s[t->nearest] < ld)
        j++;
    double tx = t->x[j], ty = t->y[j];
    const double short_by = ld - (t->s[j] - t->s[t->nearest]);
    if (j == e && short_by > 0) {
        tx += dir * short_by * cos(t->yaw[e]);
        ty += dir * short_by * sin(t->yaw[e]);
    }
    const double travel = state->yaw + (reverse ? M_PI : 0.0);
    const double alpha = atan2(ty - state->y, tx - state->x) - travel;
    const double dist = fmax(hypot(tx - state->x, ty - state->y), 1e-6);
    double steer = atan(2.0 * t->vehicle.wheelbase * sin(alpha) / dist);
    if (reverse)
        steer = -steer;
    steer = clamp(steer, -t->vehicle.max_steer, t->vehicle.max_steer);
    /* models steered by the steer's rate (commonroad_ks) get the rate towards the same angle */
    *input = (pb_vehicle_input){.acceleration = accel,
                                .steer_angle = steer,
                                .steer_rate = STEER_RATE_GAIN * (steer - state->steer),
                                .gear = reverse ? PB_GEAR_REVERSE : PB_GEAR_DRIVE};
    if (target_speed)
        *target_speed = dir * v_target;
    return true;
}

pb_status pb_tracker_save_csv(const pb_tracker *t, const char *path, pb_diag *diag)
{
    pb_atomic_file f;
    pb_status st = pb_atomic_file_open(&f, path, diag);
    if (st != PB_OK)
        return st;
    fputs("x,y,yaw,reverse\n", f.fp);
    for (size_t i = 0; i < t->n; i++)
        fprintf(f.fp, "%.17g,%.17g,%.17g,%d\n", t->x[i], t->y[i], t->yaw[i], t->reverse[i] ? 1 : 0);
    return pb_atomic_file_commit(&f, diag);
}

pb_status pb_tracker_load_csv(pb_tracker **out, const pb_vehicle_config *vehicle,
                              const pb_tracker_params *params, const char *path, pb_diag *diag)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        pb_diag_set(diag, path, 0, 0, "%s", strerror(errno));
        return PB_ERR_IO;
    }
    samples all = {0};
    char line[512];
    int line_no = 0;
    pb_status st = PB_OK;
    while (st == PB_OK && fgets(line, sizeof line, f)) {
        if (++line_no == 1 || line[0] == '\n' || line[0] == '#')
            continue; /* the header */
        double pose[3];
        int reverse = 0, used = 0;
        const int n =
            sscanf(line, "%lf,%lf,%lf%n,%d%n", &pose[0], &pose[1], &pose[2], &used, &reverse, &used);
        if (n < 3 || !isfinite(pose[0]) || !isfinite(pose[1]) || !isfinite(pose[2]) ||
            (n == 4 && reverse != 0 && reverse != 1)) {
            pb_diag_set(diag, path, line_no, 0, "expected x,y,yaw[,reverse] (numbers, reverse 0 or 1)");
            st = PB_ERR_INVALID;
        } else if (!push(&all, pose, reverse == 1)) {
            pb_diag_set(diag, path, 0, 0, "out of memory");
            st = PB_ERR_NOMEM;
        }
    }
    fclose(f);
    if (st == PB_OK)
        st = pb_tracker_create(out, vehicle, params, all.poses, all.reverse, all.n, diag);
    free(all.poses);
    free(all.reverse);
    return st;
}
