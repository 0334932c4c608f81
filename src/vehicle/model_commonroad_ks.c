/* CommonRoad's kinematic single-track model (vehicle_dynamics_ks, commonroad-vehicle-models;
 * docs/vehicles.md): state (x, y, steer, v, yaw) at the rear axle's centre, inputs the steering
 * velocity (`steer_rate`) and the longitudinal acceleration, CommonRoad's constraints applied in
 * every evaluation of the derivative (steering_constraints: the steer stops at +-max_steer and its
 * rate is bounded by +-max_steer_rate; acceleration_constraints: |a| <= max_acceleration, above
 * v_switch the positive limit is max_acceleration v_switch / v, and the speed stops at min_speed
 * and max_speed). No gears and no sleeping: CommonRoad's model has neither. RK4 in SUBSTEPS
 * sub-steps, the steer projected onto its limits after each (CommonRoad's integration can overshoot
 * them by a sub-step's worth). */
#include "vehicle_model.h"

#include <math.h>

#define SUBSTEPS 10

static double steering_constraints(const pb_vehicle_config *c, double steer, double rate)
{
    if ((steer <= -c->max_steer && rate <= 0) || (steer >= c->max_steer && rate >= 0))
        return 0.0;
    return pb_vm_clamp(rate, -c->max_steer_rate, c->max_steer_rate);
}

static double acceleration_constraints(const pb_vehicle_config *c, double v, double a)
{
    const double pos_limit = v > c->v_switch ? c->max_acceleration * c->v_switch / v : c->max_acceleration;
    if ((v <= c->min_speed && a <= 0) || (v >= c->max_speed && a >= 0))
        return 0.0;
    return a <= -c->max_acceleration ? -c->max_acceleration : a >= pos_limit ? pos_limit : a;
}

/* The right-hand side over (x, y, steer, v, yaw). */
static void ks(const pb_vehicle_config *c, const double *x, double steer_rate, double accel, double *f)
{
    const double u0 = steering_constraints(c, x[2], steer_rate),
                 u1 = acceleration_constraints(c, x[3], accel);
    f[0] = x[3] * cos(x[4]);
    f[1] = x[3] * sin(x[4]);
    f[2] = u0;
    f[3] = u1;
    f[4] = x[3] / c->wheelbase * tan(x[2]);
}

static void ks_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in, double dt)
{
    const double v_start = s->v;
    const double rate = isfinite(in->steer_rate) ? in->steer_rate : 0.0;
    const double accel = isfinite(in->acceleration) ? in->acceleration : 0.0;
    pb_vm_signal(s, in, dt);
    s->gear = in->gear;
    s->sleeping = false;
    double x[5] = {s->x, s->y, s->steer, s->v, s->yaw};
    const double h = dt / SUBSTEPS;
    for (int i = 0; i < SUBSTEPS; i++) {
        double k1[5], k2[5], k3[5], k4[5], t[5];
        ks(c, x, rate, accel, k1);
        for (int j = 0; j < 5; j++)
            t[j] = x[j] + h / 2 * k1[j];
        ks(c, t, rate, accel, k2);
        for (int j = 0; j < 5; j++)
            t[j] = x[j] + h / 2 * k2[j];
        ks(c, t, rate, accel, k3);
        for (int j = 0; j < 5; j++)
            t[j] = x[j] + h * k3[j];
        ks(c, t, rate, accel, k4);
        for (int j = 0; j < 5; j++)
            x[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        /* CommonRoad's constraint stops the steer's rate at the limit; a sub-step that crosses it
         * is projected back onto it */
        x[2] = pb_vm_clamp(x[2], -c->max_steer, c->max_steer);
    }
    s->x = x[0];
    s->y = x[1];
    s->steer = x[2];
    s->v = x[3];
    s->yaw = pb_vm_wrap(x[4]);
    s->acceleration = (s->v - v_start) / dt;
    s->angular_velocity = s->v * tan(s->steer) / c->wheelbase;
    s->time += dt;
}

const pb_vehicle_model pb_vehicle_model_commonroad_ks = {.name = "commonroad_ks", .step = ks_step};
