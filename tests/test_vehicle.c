/* The vehicle model (issue 18) against closed forms (../shared/spec/vehicles-scenarios.md,
 * section 2(a), tests 1-5 and 7): a straight line under constant acceleration, the steady
 * circle R = L / tan(steer), braking to an exact stop in DRIVE and in REVERSE, NEUTRAL
 * coasting, PARKING holding for 10^4 steps, sleep at the exact step and waking, the steer rate
 * limit, yaw crossing +-pi, and bad descriptions. */
#include "harness.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <string.h>

static const double dt = 0.01;

static pb_vehicle_state run(const pb_vehicle_config *c, pb_vehicle_state s, pb_vehicle_input in, int steps)
{
    for (int i = 0; i < steps; i++)
        pb_vehicle_step(c, &s, &in, dt);
    return s;
}

/* (1) x = v0 t + a t^2 / 2 along the heading */
static void test_straight(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    pb_vehicle_state s = pb_vehicle_state_at(1.0, 2.0, 0.7);
    s.gear = PB_GEAR_DRIVE;
    s.sleeping = false;
    s.v = 3.0;
    const pb_vehicle_input in = {.acceleration = 2.0, .gear = PB_GEAR_DRIVE};
    s = run(&c, s, in, 200); /* 2 s */
    const double d = 3.0 * 2.0 + 0.5 * 2.0 * 4.0;
    CHECK_NEAR(s.x, 1.0 + d * cos(0.7), 1e-12);
    CHECK_NEAR(s.y, 2.0 + d * sin(0.7), 1e-12);
    CHECK_NEAR(s.v, 7.0, 1e-12);
    CHECK_NEAR(s.acceleration, 2.0, 1e-9);
    CHECK(s.yaw == 0.7 && s.angular_velocity == 0.0);
}

/* (2) constant speed and steer: the circle of radius L / tan(steer); one lap closes */
static void test_circle(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    const double steer = c.max_steer, R = c.wheelbase / tan(steer), v = 4.0;
    CHECK_NEAR(R, 3.9845, 1e-4); /* the Lexus's smallest radius, 2.79 / tan 35 deg */
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.gear = PB_GEAR_DRIVE;
    s.sleeping = false;
    s.v = v;
    s.steer = steer;
    const pb_vehicle_input in = {.acceleration = 0.0, .steer_angle = steer, .gear = PB_GEAR_DRIVE};
    /* a quarter turn takes (pi/2) R / v */
    const double quarter = M_PI / 2 * R / v;
    const int steps = (int)floor(quarter / dt);
    s = run(&c, s, in, steps);
    const double th = v * steps * dt / R;
    CHECK_NEAR(s.x, R * sin(th), 1e-9);
    CHECK_NEAR(s.y, R * (1 - cos(th)), 1e-9);
    CHECK_NEAR(s.angular_velocity, v / R, 1e-12);
    /* a whole lap in steps of the right size comes back to the start */
    pb_vehicle_state lap = pb_vehicle_state_at(0, 0, 0);
    lap.gear = PB_GEAR_DRIVE;
    lap.sleeping = false;
    lap.v = v;
    lap.steer = steer;
    const double lap_time = 2 * M_PI * R / v;
    for (int i = 0; i < 1000; i++)
        pb_vehicle_step(&c, &lap, &in, lap_time / 1000);
    CHECK_MSG(hypot(lap.x, lap.y) < 1e-9 && fabs(lap.yaw) < 1e-9, "one lap ends %g m, %g rad from the start",
              hypot(lap.x, lap.y), lap.yaw);
}

/* (3) braking stops exactly at v0 / |a| and holds; never against the gear */
static void test_braking(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    for (int g = 0; g < 2; g++) {
        const bool drive = g == 0;
        pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
        s.gear = drive ? PB_GEAR_DRIVE : PB_GEAR_REVERSE;
        s.sleeping = false;
        s.v = drive ? 5.0 : -5.0;
        /* DRIVE: braking is a negative input; REVERSE: its input is negated, so braking is negative too */
        const pb_vehicle_input in = {.acceleration = -3.0, .gear = s.gear};
        bool crossed = false;
        for (int i = 0; i < 300; i++) {
            pb_vehicle_step(&c, &s, &in, dt);
            crossed |= drive ? s.v < 0 : s.v > 0;
        }
        /* stops after 5/3 s, having driven v0^2 / (2 |a|) */
        CHECK_MSG(!crossed && s.v == 0.0, "%s: v %g", drive ? "DRIVE" : "REVERSE", s.v);
        CHECK_NEAR(s.x, (drive ? 1 : -1) * 25.0 / 6.0, 1e-12);
    }
    /* a vehicle rolling backwards when DRIVE is engaged stops at once */
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.sleeping = false;
    s.v = -2.0;
    const pb_vehicle_input drive = {.acceleration = 0.0, .gear = PB_GEAR_DRIVE};
    pb_vehicle_step(&c, &s, &drive, dt);
    CHECK(s.v == 0.0 && s.x == 0.0);
    /* the speed limit is met exactly */
    s = pb_vehicle_state_at(0, 0, 0);
    s.sleeping = false;
    s.v = 29.0;
    const pb_vehicle_input floor_it = {.acceleration = 10.0, .gear = PB_GEAR_DRIVE};
    s = run(&c, s, floor_it, 50);
    CHECK(s.v == c.max_speed);
    CHECK_NEAR(s.x, 29.0 * 0.1 + 0.5 * 10 * 0.01 + 30.0 * 0.4, 1e-12);
}

/* (4) NEUTRAL coasts (no force), PARKING holds the pose bit for bit */
static void test_neutral_parking(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.sleeping = false;
    s.v = 2.0;
    const pb_vehicle_input neutral = {.acceleration = 10.0, .gear = PB_GEAR_NEUTRAL};
    s = run(&c, s, neutral, 100);
    CHECK(s.v == 2.0);
    CHECK_NEAR(s.x, 2.0, 1e-12);
    pb_vehicle_state p = pb_vehicle_state_at(3.0, -1.0, 2.5);
    const pb_vehicle_state before = p;
    const pb_vehicle_input parking = {.acceleration = 10.0, .steer_angle = 0.3, .gear = PB_GEAR_PARKING};
    p = run(&c, p, parking, 10000);
    CHECK(p.x == before.x && p.y == before.y && p.yaw == before.yaw && p.v == 0.0 && p.sleeping);
}

/* (5) sleep after sleep_time at exactly step ceil(T / dt); an acceleration wakes it */
static void test_sleep(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.sleeping = false;
    s.gear = PB_GEAR_DRIVE;
    const pb_vehicle_input idle = {.acceleration = 0.0, .gear = PB_GEAR_DRIVE};
    const int expect = (int)ceil(c.sleep_time / dt - 1e-9);
    int slept_at = -1;
    for (int i = 1; i <= 2 * expect && slept_at < 0; i++) {
        pb_vehicle_step(&c, &s, &idle, dt);
        if (s.sleeping)
            slept_at = i;
    }
    CHECK_MSG(slept_at == expect, "asleep at step %d, expected %d", slept_at, expect);
    const pb_vehicle_input go = {.acceleration = 1.0, .gear = PB_GEAR_DRIVE};
    pb_vehicle_step(&c, &s, &go, dt);
    CHECK(!s.sleeping && s.v > 0);
}

/* the steer follows its input at most max_steer_rate */
static void test_steer_rate(void)
{
    pb_vehicle_config c = pb_vehicle_config_default();
    c.max_steer_rate = 0.5;
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    s.sleeping = false;
    const pb_vehicle_input in = {.steer_angle = 0.3, .gear = PB_GEAR_NEUTRAL};
    s = run(&c, s, in, 30);
    CHECK_NEAR(s.steer, 0.15, 1e-12);
    s = run(&c, s, in, 40);
    CHECK(s.steer == 0.3);
    const pb_vehicle_input far = {.steer_angle = 3.0, .gear = PB_GEAR_NEUTRAL};
    s = run(&c, s, far, 1000);
    CHECK(s.steer == c.max_steer);
}

/* (7) crossing yaw = +-pi keeps the yaw rate and wraps the yaw */
static void test_yaw_wrap(void)
{
    const pb_vehicle_config c = pb_vehicle_config_default();
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, M_PI - 0.01);
    s.sleeping = false;
    s.gear = PB_GEAR_DRIVE;
    s.v = 2.0;
    s.steer = 0.2;
    const pb_vehicle_input in = {.steer_angle = 0.2, .gear = PB_GEAR_DRIVE};
    const double rate = 2.0 * tan(0.2) / c.wheelbase;
    for (int i = 0; i < 50; i++) {
        pb_vehicle_step(&c, &s, &in, dt);
        CHECK(s.yaw >= -M_PI && s.yaw < M_PI);
        CHECK_NEAR(s.angular_velocity, rate, 1e-12);
    }
    CHECK_NEAR(s.yaw, M_PI - 0.01 + 50 * dt * rate - 2 * M_PI, 1e-9);
}

/* a description out of range names its field */
static void test_bad_descriptions(void)
{
    const pb_vehicle_config good = pb_vehicle_config_default();
    CHECK(pb_vehicle_config_check(&good, NULL) == PB_OK);
    const char *fields[] = {"wheelbase",     "max_steer",        "max_steer",
                            "rear_overhang", "max_acceleration", "min_speed"};
    for (int k = 0; k < 6; k++) {
        pb_vehicle_config c = good;
        switch (k) {
        case 0:
            c.wheelbase = 0;
            break;
        case 1:
            c.max_steer = M_PI / 2;
            break;
        case 2:
            c.max_steer = NAN;
            break;
        case 3:
            c.rear_overhang = c.length + 1;
            break;
        case 4:
            c.max_acceleration = -1;
            break;
        default:
            c.min_speed = 1;
            break;
        }
        pb_diag d = {0};
        CHECK_MSG(pb_vehicle_config_check(&c, &d) == PB_ERR_INVALID && strcmp(d.option, fields[k]) == 0,
                  "case %d: %s", k, d.message);
    }
    CHECK(pb_gear_from_name("DRIVE") == PB_GEAR_DRIVE && pb_gear_from_name("22") == PB_GEAR_PARKING &&
          pb_gear_from_name("drive") < 0 && pb_turn_signal_from_name("HAZARD") == PB_SIGNAL_HAZARD);
}

int main(void)
{
    test_straight();
    test_circle();
    test_braking();
    test_neutral_parking();
    test_sleep();
    test_steer_rate();
    test_yaw_wrap();
    test_bad_descriptions();
    return pb_test_summary("vehicle");
}
