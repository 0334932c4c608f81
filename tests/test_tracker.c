/* The path tracker (include/planbench/tracker.h) driving the vehicle model by its inputs:
 * along a Reeds-Shepp curve with a cusp (forward, stop, reverse) and along a straight path,
 * the rear axle stays near the curve (the distance measured here against the curve sampled
 * every centimetre, not the tracker's own 10 cm samples), the gear follows the curve's
 * direction, the vehicle stops at the end, and the model's pose changes are never lateral (a
 * bicycle's rear axle moves along its heading: the tracker moves it by inputs only). */
#include "harness.h"
#include "planbench/steering.h"
#include "planbench/tracker.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Distance from (x, y) to `curve` from `start`, sampled every centimetre. */
static double distance_to_curve(const pb_curve *curve, const double *start, double x, double y)
{
    const double length = pb_curve_length(curve);
    double best = INFINITY;
    for (double s = 0; s <= length + 0.005; s += 0.01) {
        double p[3];
        pb_curve_point(curve, start, fmin(s, length), p);
        best = fmin(best, hypot(p[0] - x, p[1] - y));
    }
    return best;
}

static void follow(const double *a, const double *b, double radius_factor, double max_error, int want_reverse)
{
    const pb_vehicle_config car = pb_vehicle_config_default();
    pb_curve curve;
    CHECK(pb_curve_shortest(&curve, PB_CURVE_REEDS_SHEPP, a, b,
                            radius_factor * pb_vehicle_turning_radius(&car)));
    CHECK_MSG((pb_curve_cusps(&curve) > 0) == (want_reverse > 0), "the curve has %d cusps",
              pb_curve_cusps(&curve));
    /* the tracker's path: the curve sampled every 10 cm with its directions */
    const double length = pb_curve_length(&curve);
    const size_t n = (size_t)ceil(length / 0.1) + 1;
    double *poses = malloc(3 * n * sizeof *poses);
    bool *reverse = malloc(n * sizeof *reverse);
    for (size_t i = 0; i < n; i++) {
        const double s = length * (double)i / (double)(n - 1);
        pb_curve_point(&curve, a, s, poses + 3 * i);
        reverse[i] = pb_curve_reverse_at(&curve, fmin(s + 0.05, length));
    }
    const pb_tracker_params params = pb_tracker_params_default();
    pb_tracker *tracker = NULL;
    pb_diag diag = {0};
    CHECK(pb_tracker_create(&tracker, &car, &params, poses, reverse, n, &diag) == PB_OK);
    pb_vehicle_state state = pb_vehicle_state_at(a[0], a[1], a[2]);
    double worst = 0;
    int reverse_steps = 0, steps = 0;
    pb_vehicle_input in;
    while (steps < 20000 && pb_tracker_command(tracker, &state, &in, NULL)) {
        const pb_vehicle_state before = state;
        pb_vehicle_step(&car, &state, &in, 0.01);
        steps++;
        if (in.gear == PB_GEAR_REVERSE)
            reverse_steps++;
        /* never sideways: the displacement is along the mean heading of the step */
        const double dx = state.x - before.x, dy = state.y - before.y;
        const double mean = before.yaw + 0.5 * remainder(state.yaw - before.yaw, 2 * M_PI);
        CHECK(fabs(-sin(mean) * dx + cos(mean) * dy) <= 1e-6 * (1 + hypot(dx, dy)));
        if (steps % 10 == 0)
            worst = fmax(worst, distance_to_curve(&curve, a, state.x, state.y));
    }
    CHECK_MSG(steps < 20000, "the tracker never finished");
    CHECK_MSG(worst <= max_error, "cross-track error %.3f m > %.3f m", worst, max_error);
    CHECK_MSG((reverse_steps > 0) == (want_reverse > 0), "%d reverse steps", reverse_steps);
    CHECK(fabs(state.v) <= 0.02);
    CHECK_MSG(hypot(state.x - b[0], state.y - b[1]) <= 0.5, "stopped %.3f m from the end",
              hypot(state.x - b[0], state.y - b[1]));
    CHECK(pb_tracker_cross_track_error(tracker, &state) <= 0.5);
    pb_tracker_destroy(tracker);
    free(poses);
    free(reverse);
}

static void test_bad(void)
{
    const pb_vehicle_config car = pb_vehicle_config_default();
    pb_tracker_params params = pb_tracker_params_default();
    pb_tracker *tracker = NULL;
    pb_diag diag = {0};
    const double one[3] = {0, 0, 0};
    CHECK(pb_tracker_create(&tracker, &car, &params, one, NULL, 1, &diag) == PB_ERR_INVALID && !tracker);
    const double two[6] = {0, 0, 0, NAN, 1, 0};
    CHECK(pb_tracker_create(&tracker, &car, &params, two, NULL, 2, &diag) == PB_ERR_INVALID && !tracker);
    params.cruise_speed = 0;
    const double ok[6] = {0, 0, 0, 1, 0, 0};
    CHECK(pb_tracker_create(&tracker, &car, &params, ok, NULL, 2, &diag) == PB_ERR_INVALID && !tracker);
}

int main(void)
{
    /* a long S at the least turning radius: forward only */
    follow((const double[]){0, 0, 0}, (const double[]){40, 12, 0}, 1.0, 0.35, 0);
    /* a parking manoeuvre (reverse, forward, reverse) with a quarter of margin on the radius: at
     * the least radius the steer is saturated and nothing is left to correct with */
    follow((const double[]){0, 0, 0}, (const double[]){2, 6, M_PI}, 1.25, 0.5, 1);
    test_bad();
    return pb_test_summary("tracker");
}
