/* The vehicle models beside the kinematic one (issue 18; ../shared/spec/vehicles-scenarios.md,
 * section 2(a), tests 6 and 8): the delay model's step response (dead time of round(t_d / dt)
 * steps, then 63.2 % of the step at t_d + tau) and its steer rate limit; commonroad_ks against
 * CommonRoad's published model (vehicle_dynamics_ks with steering_constraints and
 * acceleration_constraints) re-implemented here and integrated a hundred times finer, its
 * constraints (the steer rate bounded, the acceleration above v_switch limited to a_max v_switch
 * / v); the dynamic model equal to the kinematic one at low speed and, in a steady turn, at the
 * linear single track's closed-form yaw rate; the bundled vehicle 2 file; bad files. */
#include "harness.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double dt = 0.01;

static pb_vehicle_config with_model(const char *name)
{
    pb_vehicle_config c = pb_vehicle_config_default();
    c.model = pb_vehicle_model_find(name);
    CHECK_MSG(c.model != NULL, "model %s", name);
    return c;
}

static pb_vehicle_state driving(void)
{
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.gear = PB_GEAR_DRIVE;
    s.sleeping = false;
    return s;
}

/* (6) a step of the acceleration input: nothing for round(t_d / dt) steps, then the first-order
 * lag, 63.2 % at t_d + tau */
static void test_delay_step_response(void)
{
    pb_vehicle_config c = with_model("delay");
    c.acceleration_time_delay = 0.1;
    c.acceleration_time_constant = 0.2;
    pb_vehicle_state s = driving();
    const pb_vehicle_input in = {.acceleration = 1.0, .gear = PB_GEAR_DRIVE};
    const int dead = (int)round(c.acceleration_time_delay / dt);
    for (int k = 1; k <= dead; k++) {
        pb_vehicle_step(&c, &s, &in, dt);
        CHECK_MSG(s.actual_acceleration == 0.0 && s.v == 0.0, "step %d: moving within the dead time", k);
    }
    const int to_tau = (int)round(c.acceleration_time_constant / dt);
    for (int k = 0; k < to_tau; k++)
        pb_vehicle_step(&c, &s, &in, dt);
    CHECK_NEAR(s.actual_acceleration, 1.0 - exp(-1.0), 1e-12);
    /* the speed is the lag's integral: t - tau (1 - e^{-t / tau}) after the dead time */
    const double t = c.acceleration_time_constant;
    CHECK_NEAR(s.v, t - c.acceleration_time_constant * (1 - exp(-t / c.acceleration_time_constant)), 1e-12);
    /* the vehicle stays in DRIVE: braking hard stops it at 0 inside the step, never below */
    const pb_vehicle_input brake = {.acceleration = -10.0, .gear = PB_GEAR_DRIVE};
    for (int k = 0; k < 300; k++) {
        pb_vehicle_step(&c, &s, &brake, dt);
        CHECK(s.v >= 0.0);
    }
    CHECK(s.v == 0.0);
}

/* the steer: after its dead time it follows the lag, never faster than max_steer_rate */
static void test_delay_steer(void)
{
    pb_vehicle_config c = with_model("delay");
    c.max_steer_rate = 0.2;
    pb_vehicle_state s = driving();
    const pb_vehicle_input in = {.acceleration = 0.5, .steer_angle = 0.5, .gear = PB_GEAR_DRIVE};
    const int dead = (int)round(c.steer_time_delay / dt);
    double last = 0.0, fastest = 0.0;
    for (int k = 1; k <= 200; k++) {
        pb_vehicle_step(&c, &s, &in, dt);
        if (k <= dead)
            CHECK_MSG(s.steer == 0.0, "step %d: steering within the dead time", k);
        fastest = fmax(fastest, (s.steer - last) / dt);
        last = s.steer;
    }
    CHECK_MSG(fastest <= c.max_steer_rate * (1 + 1e-9), "steer rate %g > %g", fastest, c.max_steer_rate);
    CHECK_NEAR(fastest, c.max_steer_rate, 1e-9); /* the limit binds: the lag alone is faster */
    /* a dead time beyond the FIFO is refused */
    c.acceleration_time_delay = 20.0;
    pb_diag diag = {0};
    CHECK(pb_vehicle_config_check(&c, &diag) == PB_ERR_INVALID &&
          strstr(diag.message, "acceleration_time_delay"));
}

/* CommonRoad's KS model, as vehicle_dynamics_ks.py writes it, over (x, y, steer, v, yaw). */
static void cr_rhs(const pb_vehicle_config *p, const double *x, double u_rate, double u_acc, double *f)
{
    double rate = u_rate, acc = u_acc;
    if ((x[2] <= -p->max_steer && rate <= 0) || (x[2] >= p->max_steer && rate >= 0))
        rate = 0;
    else if (rate <= -p->max_steer_rate)
        rate = -p->max_steer_rate;
    else if (rate >= p->max_steer_rate)
        rate = p->max_steer_rate;
    const double pos_limit =
        x[3] > p->v_switch ? p->max_acceleration * p->v_switch / x[3] : p->max_acceleration;
    if ((x[3] <= p->min_speed && acc <= 0) || (x[3] >= p->max_speed && acc >= 0))
        acc = 0;
    else if (acc <= -p->max_acceleration)
        acc = -p->max_acceleration;
    else if (acc >= pos_limit)
        acc = pos_limit;
    f[0] = x[3] * cos(x[4]);
    f[1] = x[3] * sin(x[4]);
    f[2] = rate;
    f[3] = acc;
    f[4] = x[3] / p->wheelbase * tan(x[2]);
}

/* (8) commonroad_ks against the reference, integrated 100x finer */
static void test_commonroad_ks(void)
{
    pb_vehicle_config c;
    pb_diag diag = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/robots/commonroad_vehicle2.xml", pb_test_source_root());
    CHECK_MSG(pb_vehicle_load(&c, path, &diag) == PB_OK, "%s", diag.message);
    CHECK(strcmp(pb_vehicle_model_name(c.model), "commonroad_ks") == 0);
    CHECK_NEAR(c.wheelbase, 2.5789, 1e-12);
    CHECK_NEAR(c.v_switch, 7.319, 1e-12);
    pb_vehicle_state s = pb_vehicle_state_at(1, 2, 0.3);
    double x[5] = {1, 2, 0, 0, 0.3};
    /* a drive over several regimes: hard acceleration past v_switch, a steering rate beyond the
     * limit into the steering limit, braking, reversing */
    const struct {
        double t_end, rate, acc;
    } plan[] = {{3.0, 0.6, 11.5}, {5.0, 0.3, 4.0}, {7.0, -0.8, -8.0}, {9.0, 0.1, -6.0}};
    double t = 0.0;
    double max_v = 0, acc_above_switch_ok = 1;
    for (size_t k = 0; k < sizeof plan / sizeof plan[0]; k++) {
        while (t < plan[k].t_end - 1e-9) {
            const pb_vehicle_input in = {.steer_rate = plan[k].rate, .acceleration = plan[k].acc};
            const double v0 = s.v;
            pb_vehicle_step(&c, &s, &in, dt);
            if (v0 > c.v_switch && plan[k].acc > 0) /* CommonRoad's limit above the switching speed */
                acc_above_switch_ok =
                    acc_above_switch_ok && (s.v - v0) / dt <= c.max_acceleration * c.v_switch / v0 + 1e-9;
            const int fine = 100;
            const double h = dt / fine;
            for (int i = 0; i < fine; i++) {
                double k1[5], k2[5], k3[5], k4[5], tmp[5];
                cr_rhs(&c, x, plan[k].rate, plan[k].acc, k1);
                for (int j = 0; j < 5; j++)
                    tmp[j] = x[j] + h / 2 * k1[j];
                cr_rhs(&c, tmp, plan[k].rate, plan[k].acc, k2);
                for (int j = 0; j < 5; j++)
                    tmp[j] = x[j] + h / 2 * k2[j];
                cr_rhs(&c, tmp, plan[k].rate, plan[k].acc, k3);
                for (int j = 0; j < 5; j++)
                    tmp[j] = x[j] + h * k3[j];
                cr_rhs(&c, tmp, plan[k].rate, plan[k].acc, k4);
                for (int j = 0; j < 5; j++)
                    x[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
                x[2] = fmax(-c.max_steer, fmin(c.max_steer, x[2])); /* the steering limit holds */
            }
            t += dt;
            max_v = fmax(max_v, s.v);
            CHECK(fabs(s.steer) <= c.max_steer + 1e-12);
        }
    }
    /* the constraints switch inside steps (the steering limit, v_switch): the reference resolves
     * those instants 100x finer, so the two agree to about a step's share of a switch */
    CHECK_NEAR(s.x, x[0], 2e-3);
    CHECK_NEAR(s.y, x[1], 2e-3);
    CHECK_NEAR(s.steer, x[2], 1e-6);
    CHECK_NEAR(s.v, x[3], 2e-3);
    CHECK_NEAR(remainder(s.yaw - x[4], 2 * M_PI), 0, 2e-4);
    CHECK(max_v > c.v_switch);
    CHECK(acc_above_switch_ok);
    /* a smooth stretch (no constraint switching) agrees to 1e-9 */
    pb_vehicle_state a = pb_vehicle_state_at(0, 0, 0);
    a.v = 3.0;
    double r[5] = {0, 0, 0, 3.0, 0};
    for (int k = 0; k < 200; k++) {
        const pb_vehicle_input in = {.steer_rate = 0.1, .acceleration = 1.0};
        pb_vehicle_step(&c, &a, &in, dt);
        for (int i = 0; i < 100; i++) {
            const double h = dt / 100;
            double k1[5], k2[5], k3[5], k4[5], tmp[5];
            cr_rhs(&c, r, 0.1, 1.0, k1);
            for (int j = 0; j < 5; j++)
                tmp[j] = r[j] + h / 2 * k1[j];
            cr_rhs(&c, tmp, 0.1, 1.0, k2);
            for (int j = 0; j < 5; j++)
                tmp[j] = r[j] + h / 2 * k2[j];
            cr_rhs(&c, tmp, 0.1, 1.0, k3);
            for (int j = 0; j < 5; j++)
                tmp[j] = r[j] + h * k3[j];
            cr_rhs(&c, tmp, 0.1, 1.0, k4);
            for (int j = 0; j < 5; j++)
                r[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        }
    }
    CHECK_NEAR(a.x, r[0], 1e-9);
    CHECK_NEAR(a.y, r[1], 1e-9);
    CHECK_NEAR(a.v, r[3], 1e-9);
    CHECK_NEAR(a.yaw, r[4], 1e-9);
    /* commonroad_ks needs a steering velocity limit */
    c.max_steer_rate = 0;
    CHECK(pb_vehicle_config_check(&c, &diag) == PB_ERR_INVALID && strstr(diag.message, "max_steer_rate"));
}

/* the dynamic model: kinematic below 0.1 m/s; in a steady turn, the linear single track's yaw
 * rate r = v steer / (L + K v^2), K = m (lr C_r - lf C_f) / (L C_f C_r) */
static void test_dynamic(void)
{
    pb_vehicle_config dyn = with_model("dynamic"), kin = pb_vehicle_config_default();
    pb_vehicle_state a = driving(), b = driving();
    const pb_vehicle_input creep = {.acceleration = 0.01, .steer_angle = 0.3, .gear = PB_GEAR_DRIVE};
    for (int k = 0; k < 800; k++) { /* 8 s: up to 0.08 m/s */
        pb_vehicle_step(&dyn, &a, &creep, dt);
        pb_vehicle_step(&kin, &b, &creep, dt);
    }
    CHECK(a.v < 0.1);
    CHECK_NEAR(a.x, b.x, 1e-6);
    CHECK_NEAR(a.y, b.y, 1e-6);
    CHECK_NEAR(a.yaw, b.yaw, 1e-6);
    /* a steady turn at 10 m/s */
    pb_vehicle_state s = driving();
    s.v = 10.0;
    const double steer = 0.05;
    const pb_vehicle_input hold = {.acceleration = 0.0, .steer_angle = steer, .gear = PB_GEAR_DRIVE};
    for (int k = 0; k < 1000; k++) { /* 10 s: settled */
        pb_vehicle_step(&dyn, &s, &hold, dt);
        s.v = 10.0; /* hold the speed, as a speed controller would */
    }
    const double L = dyn.wheelbase, lf = dyn.cg_to_front, lr = L - lf;
    const double cf = dyn.cornering_stiffness_front, cr = dyn.cornering_stiffness_rear;
    const double K = dyn.mass * (lr * cr - lf * cf) / (L * cf * cr);
    const double r_ss = 10.0 * steer / (L + K * 100.0);
    CHECK_MSG(fabs(s.angular_velocity - r_ss) <= 0.01 * r_ss, "steady yaw rate %g, linear single track %g",
              s.angular_velocity, r_ss);
    CHECK(fabs(s.lateral_velocity) > 0); /* it slips, unlike the kinematic model */
}

static void test_bad_files(void)
{
    const char *bad[][2] = {
        {"<vehicle model=\"warp\"/>", "model"},
        {"<vehicle model=\"delay\"><delay steer_time_delay=\"-1\"/></vehicle>", "steer_time_delay"},
        {"<vehicle model=\"dynamic\"><dynamic cg_to_front=\"9\"/></vehicle>", "cg_to_front"},
        {"<vehicle model=\"dynamic\"><dynamic inertia_z=\"nan\"/></vehicle>", "inertia_z"},
        {"<vehicle model=\"commonroad_ks\"><limits max_steer_rate=\"0.4\"/><commonroad "
         "v_switch=\"0\"/></vehicle>",
         "v_switch"},
        {"<vehicle model=\"commonroad_ks\"/>", "max_steer_rate"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pb_vehicle_config c;
        pb_diag diag = {0};
        CHECK_MSG(pb_vehicle_parse(&c, bad[i][0], strlen(bad[i][0]), "bad.xml", &diag) == PB_ERR_INVALID,
                  "accepted %s", bad[i][0]);
        CHECK_MSG(strstr(diag.message, bad[i][1]) != NULL, "'%s' does not name %s", diag.message, bad[i][1]);
    }
}

int main(void)
{
    test_delay_step_response();
    test_delay_steer();
    test_commonroad_ks();
    test_dynamic();
    test_bad_files();
    return pb_test_summary("vehicle_models");
}
