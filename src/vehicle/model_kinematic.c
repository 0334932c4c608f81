/* The kinematic model (Autoware's IDEAL_STEER_ACC_GEARED; include/planbench/vehicle.h): the
 * kinematic single track with AWSIM's gear and sleep rules, every speed and steer event solved
 * inside the step.
 *
 * A step is cut into phases at the events it holds (the steer reaching its input, the speed
 * reaching 0 against the gear or a speed limit); within a phase the acceleration and the steer
 * rate are constant, so the speed is linear and the events of the next phase are exact. A
 * phase of constant speed and steer is an exact circular arc (or a straight line); any other
 * is integrated by RK4 in PHASE_SUBSTEPS sub-steps (exact for the straight line under
 * constant acceleration, whose position is quadratic in time). */
#include "vehicle_model.h"

#include <math.h>

/* RK4 sub-steps of a phase whose speed or steer changes. */
#define PHASE_SUBSTEPS 8

/* sin(h) / h, accurate near 0. */
static double sinc(double h)
{
    return fabs(h) < 1e-4 ? 1.0 - h * h / 6.0 + h * h * h * h / 120.0 : sin(h) / h;
}

/* Move (x, y, yaw) for time T with speed v0 + a t and steer s0 + r t. */
static void integrate(double wheelbase, double *x, double *y, double *yaw, double v0, double a, double s0,
                      double r, double T)
{
    if (!(T > 0))
        return;
    if (a == 0 && r == 0) { /* an arc: chord 2 sin(th/2) / k along yaw + th/2 */
        const double d = v0 * T, th = d * tan(s0) / wheelbase;
        const double chord = d * sinc(th / 2);
        *x += chord * cos(*yaw + th / 2);
        *y += chord * sin(*yaw + th / 2);
        *yaw += th;
        return;
    }
    const double h = T / PHASE_SUBSTEPS;
    for (int i = 0; i < PHASE_SUBSTEPS; i++) {
        const double t = i * h;
        /* the derivative depends on time and yaw only */
        const double va = v0 + a * t, vm = v0 + a * (t + h / 2), vb = v0 + a * (t + h);
        const double wa = va * tan(s0 + r * t) / wheelbase, wm = vm * tan(s0 + r * (t + h / 2)) / wheelbase,
                     wb = vb * tan(s0 + r * (t + h)) / wheelbase;
        const double y1 = *yaw, y2 = *yaw + h / 2 * wa, y3 = *yaw + h / 2 * wm, y4 = *yaw + h * wm;
        *x += h / 6 * (va * cos(y1) + 2 * vm * cos(y2) + 2 * vm * cos(y3) + vb * cos(y4));
        *y += h / 6 * (va * sin(y1) + 2 * vm * sin(y2) + 2 * vm * sin(y3) + vb * sin(y4));
        *yaw += h / 6 * (wa + 4 * wm + wb);
    }
}

static void kinematic_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in,
                           double dt)
{
    const double v_start = s->v;
    const double a_in = pb_vm_clamp(isfinite(in->acceleration) ? in->acceleration : 0.0, -c->max_acceleration,
                                    c->max_acceleration);
    const double target =
        pb_vm_clamp(isfinite(in->steer_angle) ? in->steer_angle : s->steer, -c->max_steer, c->max_steer);
    pb_vm_signal(s, in, dt);
    s->gear = in->gear;
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    /* the force the gear applies: REVERSE drives backwards under a positive input */
    const double a_gear = drive ? a_in : reverse ? -a_in : 0.0;
    const bool moving = pb_vm_gear_rules(s, in, a_in);
    double t = 0.0;
    for (int phase = 0; phase < 8 && t < dt; phase++) {
        /* this phase's steer rate, and when the steer reaches its input */
        double r = 0.0, t_end = dt;
        if (s->steer != target) {
            if (c->max_steer_rate > 0) {
                r = target > s->steer ? c->max_steer_rate : -c->max_steer_rate;
                const double reach = t + (target - s->steer) / r;
                if (reach < t_end)
                    t_end = reach;
            } else {
                s->steer = target; /* at once */
            }
        }
        /* this phase's acceleration, and when the speed meets 0 (against the gear) or a limit */
        double a = moving ? a_gear : 0.0, v_event = 0.0;
        bool speed_event = false;
        if (a != 0) {
            double bound;
            bool has = false;
            if (a < 0) {
                bound = drive ? 0.0 : c->min_speed;
                has = s->v > bound;
                if (!has)
                    a = 0.0; /* at 0 in DRIVE or at min_speed: held */
            } else {
                bound = reverse ? 0.0 : c->max_speed;
                has = s->v < bound;
                if (!has)
                    a = 0.0;
            }
            if (has) {
                const double reach = t + (bound - s->v) / a;
                if (reach < t_end) {
                    t_end = reach;
                    speed_event = true;
                    v_event = bound;
                }
            }
        }
        const double T = t_end - t;
        if (moving)
            integrate(c->wheelbase, &s->x, &s->y, &s->yaw, s->v, a, s->steer, r, T);
        s->v = speed_event ? v_event : s->v + a * T;
        s->steer = r != 0 && t_end < dt ? target : pb_vm_clamp(s->steer + r * T, -c->max_steer, c->max_steer);
        t = t_end;
    }
    s->yaw = pb_vm_wrap(s->yaw);
    /* AWSIM's sleep rule */
    pb_vm_sleep_rule(c, s, in, a_in, dt);
    s->acceleration = (s->v - v_start) / dt;
    s->angular_velocity = s->v * tan(s->steer) / c->wheelbase;
    s->time += dt;
}

const pb_vehicle_model pb_vehicle_model_kinematic = {.name = "kinematic", .step = kinematic_step};
