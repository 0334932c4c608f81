/* The dynamic model: a single track with linear tyres (Autoware simple_planning_simulator's
 * defaults: cornering stiffness 17000 / 20000 N/rad, Iz 2170 kg m^2, lf 1.228 m; the vehicle's
 * mass), at the centre of gravity, lf = cg_to_front ahead of it and lr = wheelbase - lf behind:
 *
 *   alpha_f = atan((vy + lf r) / vx) - steer,  alpha_r = atan((vy - lr r) / vx)
 *   F_f = -C_f alpha_f,  F_r = -C_r alpha_r
 *   vx' = a + r vy,  vy' = (F_f cos(steer) + F_r) / m - r vx,  r' = (lf F_f cos(steer) - lr F_r) / Iz
 *
 * Below 0.1 m/s, where the slip angles are not defined, it is the kinematic single track (no slip
 * at the rear axle), as CommonRoad's single-track model switches. The state's (x, y) stays the
 * rear axle's centre; `lateral_velocity` is the centre of gravity's vy, `angular_velocity` the yaw
 * rate r. The steer follows its input as in the kinematic model (at once, or at max_steer_rate).
 * AWSIM's gear and sleep rules; the speed is held at 0 against the gear at the end of the RK4
 * sub-step that crosses it. RK4 in SUBSTEPS sub-steps. */
#include "vehicle_model.h"

#include <math.h>

#define SUBSTEPS        10
#define KINEMATIC_BELOW 0.1 /* m/s */

/* state: X, Y (the centre of gravity), yaw, vx, vy, r */
static void dynamic_rhs(const pb_vehicle_config *c, const double *q, double a, double steer, double *f)
{
    const double lf = c->cg_to_front, lr = c->wheelbase - c->cg_to_front;
    const double vx = q[3], vy = q[4], r = q[5];
    const double cy = cos(q[2]), sy = sin(q[2]);
    if (fabs(vx) < KINEMATIC_BELOW) {
        /* the kinematic single track: the rear axle slides not; the centre of gravity moves
         * sideways at lr r */
        const double rk = vx * tan(steer) / c->wheelbase;
        f[0] = vx * cy - lr * rk * sy;
        f[1] = vx * sy + lr * rk * cy;
        f[2] = rk;
        f[3] = a;
        f[4] = 0.0;
        f[5] = 0.0;
        return;
    }
    const double alpha_f = atan((vy + lf * r) / vx) - steer, alpha_r = atan((vy - lr * r) / vx);
    const double ff = -c->cornering_stiffness_front * alpha_f, fr = -c->cornering_stiffness_rear * alpha_r;
    f[0] = vx * cy - vy * sy;
    f[1] = vx * sy + vy * cy;
    f[2] = r;
    f[3] = a + r * vy;
    f[4] = (ff * cos(steer) + fr) / c->mass - r * vx;
    f[5] = (lf * ff * cos(steer) - lr * fr) / c->inertia_z;
}

static void dynamic_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in,
                         double dt)
{
    const double v_start = s->v;
    const double lr = c->wheelbase - c->cg_to_front;
    const double a_in = pb_vm_clamp(isfinite(in->acceleration) ? in->acceleration : 0.0, -c->max_acceleration,
                                    c->max_acceleration);
    const double target =
        pb_vm_clamp(isfinite(in->steer_angle) ? in->steer_angle : s->steer, -c->max_steer, c->max_steer);
    pb_vm_signal(s, in, dt);
    s->gear = in->gear;
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    const double a_gear = drive ? a_in : reverse ? -a_in : 0.0;
    const bool moving = pb_vm_gear_rules(s, in, a_in);
    double q[6] = {s->x + lr * cos(s->yaw), s->y + lr * sin(s->yaw), s->yaw, s->v,
                   s->lateral_velocity,     s->angular_velocity};
    if (!moving)
        q[3] = q[4] = q[5] = 0.0;
    const double h = dt / SUBSTEPS;
    for (int i = 0; i < SUBSTEPS && moving; i++) {
        /* the steer: at once, or towards its input at most max_steer_rate */
        double steer = target;
        if (c->max_steer_rate > 0)
            steer = s->steer + pb_vm_clamp(target - s->steer, -c->max_steer_rate * h, c->max_steer_rate * h);
        s->steer = steer;
        double k1[6], k2[6], k3[6], k4[6], t[6];
        dynamic_rhs(c, q, a_gear, steer, k1);
        for (int j = 0; j < 6; j++)
            t[j] = q[j] + h / 2 * k1[j];
        dynamic_rhs(c, t, a_gear, steer, k2);
        for (int j = 0; j < 6; j++)
            t[j] = q[j] + h / 2 * k2[j];
        dynamic_rhs(c, t, a_gear, steer, k3);
        for (int j = 0; j < 6; j++)
            t[j] = q[j] + h * k3[j];
        dynamic_rhs(c, t, a_gear, steer, k4);
        for (int j = 0; j < 6; j++)
            q[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        if ((drive && q[3] < 0) || (reverse && q[3] > 0)) { /* stopped against the gear */
            q[3] = q[4] = q[5] = 0.0;
            break;
        }
        if (fabs(q[3]) < KINEMATIC_BELOW) { /* kinematic: no slip at the rear axle */
            q[5] = q[3] * tan(steer) / c->wheelbase;
            q[4] = lr * q[5];
        }
    }
    if (!moving)
        s->steer = c->max_steer_rate > 0 ? s->steer + pb_vm_clamp(target - s->steer, -c->max_steer_rate * dt,
                                                                  c->max_steer_rate * dt)
                                         : target;
    s->yaw = pb_vm_wrap(q[2]);
    s->x = q[0] - lr * cos(q[2]);
    s->y = q[1] - lr * sin(q[2]);
    s->v = pb_vm_clamp(q[3], c->min_speed, c->max_speed);
    s->lateral_velocity = q[4];
    s->angular_velocity = q[5];
    pb_vm_sleep_rule(c, s, in, a_in, dt);
    if (s->sleeping)
        s->lateral_velocity = s->angular_velocity = 0.0;
    s->acceleration = (s->v - v_start) / dt;
    s->time += dt;
}

const pb_vehicle_model pb_vehicle_model_dynamic = {.name = "dynamic", .step = dynamic_step};
