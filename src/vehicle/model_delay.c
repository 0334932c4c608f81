/* The delay model (Autoware simple_planning_simulator's DELAY_STEER_ACC_GEARED): the kinematic
 * single track whose acceleration and steer follow their inputs after a dead time (a FIFO of
 * round(delay / dt) steps, held in the state) through first-order lags (time constants), the
 * steer also bounded by max_steer_rate; AWSIM's gear and sleep rules as in the kinematic model.
 * Within a step the lagged acceleration and steer are exact exponentials, the speed their
 * integral in closed form, a crossing of zero against the gear is solved inside the step (the
 * vehicle stops there), and position and heading follow by RK4. */
#include "vehicle_model.h"

#include <math.h>

#define SUBSTEPS 8

typedef struct lag {
    double v0, a0, ua, tau_a; /* speed, lagged acceleration and its target */
    double s0, us, tau_s;     /* steer and its target */
    double steer_rate;        /* > 0: the steer moves at most this fast (rad/s) */
} lag;

/* exp(-t / tau), 0 for tau 0 (the lag is then immediate) */
static double decay(double t, double tau)
{
    return tau > 0 ? exp(-t / tau) : 0.0;
}

static double accel_at(const lag *l, double t)
{
    return l->ua + (l->a0 - l->ua) * decay(t, l->tau_a);
}

static double speed_at(const lag *l, double t)
{
    const double settled = l->tau_a > 0 ? l->tau_a * (1.0 - decay(t, l->tau_a)) : 0.0;
    return l->v0 + l->ua * t + (l->a0 - l->ua) * settled;
}

static double steer_at(const lag *l, double t)
{
    const double s = l->us + (l->s0 - l->us) * decay(t, l->tau_s);
    if (l->steer_rate > 0 && fabs(s - l->s0) > l->steer_rate * t)
        return l->s0 + copysign(l->steer_rate * t, s - l->s0);
    return s;
}

static void derivative(const lag *l, double wheelbase, double t, double yaw, double *d)
{
    const double v = speed_at(l, t);
    d[0] = v * cos(yaw);
    d[1] = v * sin(yaw);
    d[2] = v * tan(steer_at(l, t)) / wheelbase;
}

static void delay_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in, double dt)
{
    const double v_start = s->v;
    const double a_in = pb_vm_clamp(isfinite(in->acceleration) ? in->acceleration : 0.0, -c->max_acceleration,
                                    c->max_acceleration);
    const double steer_in =
        pb_vm_clamp(isfinite(in->steer_angle) ? in->steer_angle : s->steer, -c->max_steer, c->max_steer);
    pb_vm_signal(s, in, dt);
    s->gear = in->gear;
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    const double a_gear = drive ? a_in : reverse ? -a_in : 0.0;
    /* the dead time: what was commanded n steps ago arrives now (the FIFO starts at zeros) */
    const int slots = PB_VEHICLE_MAX_DELAY_STEPS;
    const int n_acc = (int)fmin(slots - 1, fmax(0.0, round(c->acceleration_time_delay / dt)));
    const int n_steer = (int)fmin(slots - 1, fmax(0.0, round(c->steer_time_delay / dt)));
    const int head = s->delay_head % slots;
    s->delay_acceleration[head] = a_gear;
    s->delay_steer[head] = steer_in;
    const double ua = s->delay_acceleration[(head - n_acc + slots) % slots];
    const double us = s->delay_steer[(head - n_steer + slots) % slots];
    s->delay_head = (head + 1) % slots;
    const bool moving = pb_vm_gear_rules(s, in, a_in);
    lag l = {.v0 = s->v,
             .a0 = s->actual_acceleration,
             .ua = ua,
             .tau_a = c->acceleration_time_constant,
             .s0 = s->steer,
             .us = us,
             .tau_s = c->steer_time_constant,
             .steer_rate = c->max_steer_rate};
    /* how long it moves: to the step's end, or to a stop against the gear inside it */
    double T = dt;
    if (!moving) {
        T = 0.0;
        l.v0 = 0.0;
    } else if ((drive && speed_at(&l, dt) < 0) || (reverse && speed_at(&l, dt) > 0)) {
        double lo = 0.0, hi = dt; /* the speed keeps its sign at lo and has crossed at hi */
        for (int k = 0; k < 60; k++) {
            const double mid = 0.5 * (lo + hi);
            if ((drive && speed_at(&l, mid) < 0) || (reverse && speed_at(&l, mid) > 0))
                hi = mid;
            else
                lo = mid;
        }
        T = lo;
    }
    const double h = T / SUBSTEPS;
    for (int i = 0; i < SUBSTEPS && T > 0; i++) {
        const double t = i * h;
        double k1[3], k2[3], k3[3], k4[3];
        derivative(&l, c->wheelbase, t, s->yaw, k1);
        derivative(&l, c->wheelbase, t + h / 2, s->yaw + h / 2 * k1[2], k2);
        derivative(&l, c->wheelbase, t + h / 2, s->yaw + h / 2 * k2[2], k3);
        derivative(&l, c->wheelbase, t + h, s->yaw + h * k3[2], k4);
        s->x += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
        s->y += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
        s->yaw += h / 6 * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2]);
    }
    s->v = moving ? (T < dt ? 0.0 : speed_at(&l, dt)) : 0.0;
    s->v = pb_vm_clamp(s->v, c->min_speed, c->max_speed);
    s->actual_acceleration = accel_at(&l, dt);
    s->steer = pb_vm_clamp(steer_at(&l, dt), -c->max_steer, c->max_steer);
    s->yaw = pb_vm_wrap(s->yaw);
    pb_vm_sleep_rule(c, s, in, a_in, dt);
    s->acceleration = (s->v - v_start) / dt;
    s->angular_velocity = s->v * tan(s->steer) / c->wheelbase;
    s->time += dt;
}

const pb_vehicle_model pb_vehicle_model_delay = {.name = "delay", .step = delay_step};
