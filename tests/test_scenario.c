/* Scenario runs (issue 19): one constructed scenario per termination reason, each ending on
 * the step a closed form predicts (a straight run under constant acceleration from rest:
 * x(t) = x0 + a t^2 / 2); disabled timers; two reasons on one step (the documented order);
 * vehicle_sim_time = the last stamp minus the first; every trajectory pose re-checked against
 * the scene by this file's own geometry (the footprint's corners and sides against each disc);
 * the request's units and frame (cm, Unreal's y to the right, yaw clockwise); bad input. */
#include "harness.h"
#include "planbench/scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static void replace(char *json, const char *from, const char *to);

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A 60 m landscape (0.1 m cells once subdivided), the Lexus at (10, 10) heading +x (Unreal:
 * y = -1000 cm), the goal `goal_x` m ahead on the same line, a tree (a disc of radius 0.5 m)
 * at `tree_x` (0: none), the given timers and extra fields. */
static char *request(double goal_x, double goal_radius_m, double tree_x, const char *timers,
                     const char *extra)
{
    static char text[4096];
    char trees[512] = "";
    if (tree_x > 0)
        snprintf(trees, sizeof trees,
                 "{\"path_name\": \"/Game/Tree.Tree_C\", \"num_instances\": 2, \"visible\": [true, false],"
                 " \"cast_shadow\": [true, true], \"x\": [%g, 100], \"y\": [-1000, 100], \"yaw\": [0, 0],"
                 " \"scale\": [1, 1]}",
                 tree_x * 100);
    snprintf(
        text, sizeof text,
        "{\"scenario_number\": 7, \"worker_id\": 3, %s, \"max_vehicle_roll\": 70, \"max_vehicle_pitch\": 70,"
        " \"allow_collisions\": false,"
        " \"vehicle_start_location\": {\"x\": 1000, \"y\": -1000, \"z\": 0}, \"vehicle_start_yaw\": 0,"
        " \"vehicle_goal_location\": {\"x\": %g, \"y\": -1000, \"z\": 0}, \"goal_radius\": %g,"
        " \"scene_description\": {\"landscape\": {\"nominal_size\": 6000, \"subdivisions\": 7, \"border\": "
        "0},"
        " \"sunlight_inclination\": 30, \"sunlight_yaw_angle\": 0, \"ssa_array\": [%s]},"
        " \"catalogue\": \"catalogue.json\", \"driver\": {\"inputs\": \"inputs.csv\"}, \"reference\": "
        "false%s}",
        timers, goal_x * 100, goal_radius_m * 100, trees, extra);
    return text;
}

static pb_scenario *load(const char *json)
{
    pb_scenario *s = NULL;
    pb_diag diag = {0};
    const pb_status st = pb_scenario_parse(&s, json, strlen(json), "test.json", dir, &diag);
    CHECK_MSG(st == PB_OK, "%s", diag.message);
    return s;
}

/* Run and check what every run must satisfy: stamps from 0, strictly increasing, the sim time
 * their span, every pose clear of the tree and on the scene. */
static pb_scenario_result run(const char *json, double tree_x)
{
    pb_scenario_result r = {0};
    pb_scenario *s = load(json);
    if (!s)
        return r;
    pb_diag diag = {0};
    CHECK_MSG(pb_scenario_run(s, &r, &diag) == PB_OK, "%s", diag.message);
    CHECK(r.n_trajectory >= 2);
    if (r.n_trajectory >= 2) {
        CHECK(r.trajectory[0].t == 0.0);
        CHECK_NEAR(r.vehicle_sim_time, r.trajectory[r.n_trajectory - 1].t - r.trajectory[0].t, 0);
        CHECK_NEAR(r.trajectory[r.n_trajectory - 1].t, r.steps * 0.01, 1e-9);
    }
    const pb_vehicle_config *car = pb_scenario_vehicle(s);
    for (size_t i = 0; i < r.n_trajectory; i++) {
        const pb_scenario_odometry *o = &r.trajectory[i];
        if (i > 0)
            CHECK(o->t > r.trajectory[i - 1].t);
        /* the footprint's outline, every centimetre, against the disc and the 60 m square */
        const double c = cos(o->yaw), sn = sin(o->yaw);
        const double xs[2] = {-car->rear_overhang, car->length - car->rear_overhang};
        const double ys[2] = {-car->width / 2, car->width / 2};
        bool clear = true;
        for (int side = 0; side < 4; side++) {
            const int n = 500;
            for (int j = 0; j <= n; j++) {
                const double u = (double)j / n;
                const double lx = side < 2 ? xs[0] + u * (xs[1] - xs[0]) : xs[side - 2];
                const double ly = side < 2 ? ys[side] : ys[0] + u * (ys[1] - ys[0]);
                const double px = o->x + c * lx - sn * ly, py = o->y + sn * lx + c * ly;
                if (tree_x > 0 && hypot(px - tree_x, py - 10.0) <= 0.5)
                    clear = false;
                if (px < 0 || px > 60 || py < 0 || py > 60)
                    clear = false;
            }
        }
        CHECK_MSG(clear, "trajectory pose %zu (%g, %g) touches the scene", i, o->x, o->y);
    }
    pb_scenario_destroy(s);
    return r;
}

/* The first step k (dt = 0.01) at whose end x0 + a t^2 / 2 >= x. */
static size_t step_reaching(double distance, double a)
{
    size_t k = 0;
    while (0.5 * a * (k * 0.01) * (k * 0.01) < distance)
        k++;
    return k;
}

static void test_success(void)
{
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    pb_scenario_result r = run(request(30, 1, 0, "\"sim_timeout_period\": 17", ""), 0);
    CHECK(r.reason == PB_REASON_SUCCESS);
    CHECK(r.steps == step_reaching(19.0, 2.0)); /* 1 m short of the goal */
    CHECK(r.distance_to_goal <= 1.0);
    CHECK(r.num_vehicle_control_messages == 1);
    CHECK(r.collisions == 0 && r.gear_changes == 0);
    CHECK_NEAR(r.path_length, 0.5 * 2 * pow(r.steps * 0.01, 2), 1e-6);
    /* the straight line: y stays 10 m, yaw 0 */
    CHECK_NEAR(r.trajectory[r.n_trajectory - 1].y, 10.0, 1e-9);
    pb_scenario_result_finish(&r);
}

static void test_collision(void)
{
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    pb_scenario_result r = run(request(50, 1, 25, "\"sim_timeout_period\": 17", ""), 25);
    CHECK(r.reason == PB_REASON_VEHICLE_COLLISION);
    /* the bumper (3.79 m ahead of the rear axle) meets the disc's edge at x = 24.5 m; the
     * sweep certifies to within 5 mm (a twentieth of a cell) */
    const size_t touch = step_reaching(24.5 - 3.79 - 10.0, 2.0),
                 near = step_reaching(24.5 - 0.005 - 3.79 - 10.0, 2.0);
    CHECK_MSG(r.steps == touch || r.steps == near, "collision at step %zu, expected %zu", r.steps, touch);
    CHECK(r.collisions == 1);
    CHECK(r.min_clearance == 0.0);
    pb_scenario_result_finish(&r);
}

static void test_timeout_and_precedence(void)
{
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,1,0,DRIVE,NONE\n");
    pb_scenario_result r = run(request(50, 1, 0, "\"sim_timeout_period\": 2.5", ""), 0);
    CHECK(r.reason == PB_REASON_SIM_TIMEOUT);
    CHECK(r.steps == 250);
    pb_scenario_result_finish(&r);
    /* the goal and the timeout on one step: the timeout is checked first (AutoSceneGen's order) */
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    const size_t k = step_reaching(19.0, 2.0);
    char timers[64];
    snprintf(timers, sizeof timers, "\"sim_timeout_period\": %.2f", k * 0.01);
    r = run(request(30, 1, 0, timers, ""), 0);
    CHECK(r.reason == PB_REASON_SIM_TIMEOUT && r.steps == k);
    pb_scenario_result_finish(&r);
    /* a planar scene never flips: the tightest roll and pitch limits end nothing */
    char *tight = request(30, 1, 0, "\"sim_timeout_period\": 17", "");
    replace(tight, "\"max_vehicle_roll\": 70, \"max_vehicle_pitch\": 70",
            "\"max_vehicle_roll\": 1e-9, \"max_vehicle_pitch\": 1e-9");
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    r = run(tight, 0);
    CHECK(r.reason == PB_REASON_SUCCESS && r.steps == step_reaching(19.0, 2.0));
    pb_scenario_result_finish(&r);
    /* every timer off: planbench's own bound ends the run, as a timeout */
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,0,0,DRIVE,NONE\n");
    r = run(request(50, 1, 0, "\"sim_timeout_period\": -1", ", \"max_sim_time\": 3"), 0);
    CHECK(r.reason == PB_REASON_SIM_TIMEOUT && r.steps == 300);
    pb_scenario_result_finish(&r);
}

static void test_idling(void)
{
    /* 2 m/s after 1 s, then braking at 2.5 m/s^2: |v| <= 2 cm/s from t = 1.792 s, the end of step
     * 180; idle from there on (braking commands no motion), 1 s of it ends at step 279 */
    write_file("inputs.csv",
               "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n1,-2.5,0,DRIVE,NONE\n");
    pb_scenario_result r =
        run(request(50, 1, 0, "\"sim_timeout_period\": 17, \"vehicle_idling_timeout_period\": 1", ""), 0);
    CHECK(r.reason == PB_REASON_VEHICLE_IDLING_TIMEOUT);
    CHECK_MSG(r.steps == 279, "idling at step %zu", r.steps);
    CHECK(r.num_vehicle_control_messages == 2);
    pb_scenario_result_finish(&r);
    /* never moving: no idling (it counts once the vehicle began moving) */
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,0,0,DRIVE,NONE\n");
    r = run(request(50, 1, 0, "\"sim_timeout_period\": 3, \"vehicle_idling_timeout_period\": 1", ""), 0);
    CHECK(r.reason == PB_REASON_SIM_TIMEOUT);
    pb_scenario_result_finish(&r);
}

static void test_stuck(void)
{
    /* collisions allowed: the car pushes against the tree, held at the last free pose with v = 0
     * while it commands motion; stuck from the contact step on, 0.5 s of it */
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    pb_scenario_result r =
        run(request(50, 1, 25, "\"sim_timeout_period\": 17, \"vehicle_stuck_timeout_period\": 0.5", ""), 25);
    /* the request above says allow_collisions false: collision first */
    CHECK(r.reason == PB_REASON_VEHICLE_COLLISION);
    const size_t contact = r.steps;
    pb_scenario_result_finish(&r);
    char *json = request(50, 1, 25, "\"sim_timeout_period\": 17, \"vehicle_stuck_timeout_period\": 0.5", "");
    char *rule = strstr(json, "\"allow_collisions\": false");
    CHECK(rule != NULL);
    if (rule)
        memcpy(rule, "\"allow_collisions\":  true", strlen("\"allow_collisions\": false"));
    r = run(json, 25);
    CHECK(r.reason == PB_REASON_VEHICLE_STUCK_TIMEOUT);
    CHECK_MSG(r.steps == contact + 49, "stuck at step %zu, contact at %zu", r.steps, contact);
    CHECK(r.collisions >= 1);
    pb_scenario_result_finish(&r);
}

static void replace(char *json, const char *from, const char *to)
{
    char *at = strstr(json, from);
    CHECK_MSG(at != NULL, "no '%s' in the request", from);
    if (!at)
        return;
    const size_t n = strlen(from), m = strlen(to);
    memmove(at + m, at + n, strlen(at + n) + 1);
    memcpy(at, to, m);
}

/* Unreal's frame: y to the right and yaw clockwise; the scene's: y up, counter-clockwise. */
static void test_frame(void)
{
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    char json[4096];
    snprintf(json, sizeof json, "%s", request(30, 1, 0, "\"sim_timeout_period\": 2", ""));
    replace(json, "\"vehicle_start_yaw\": 0", "\"vehicle_start_yaw\": -90");
    pb_scenario *s = load(json);
    if (!s)
        return;
    double pose[3], goal[3];
    pb_scenario_start(s, pose);
    pb_scenario_goal(s, goal);
    CHECK_NEAR(pose[0], 10.0, 1e-12);
    CHECK_NEAR(pose[1], 10.0, 1e-12);
    CHECK_NEAR(pose[2], M_PI / 2, 1e-12); /* -90 degrees clockwise = +90 counter-clockwise: +y */
    CHECK_NEAR(goal[0], 30.0, 1e-12);
    CHECK_NEAR(goal[2], 1.0, 1e-12);
    pb_scenario_result r = {0};
    pb_diag diag = {0};
    CHECK(pb_scenario_run(s, &r, &diag) == PB_OK);
    /* it drives towards +y: 4 m in 2 s */
    CHECK_NEAR(r.trajectory[r.n_trajectory - 1].y, 14.0, 1e-6);
    CHECK_NEAR(r.trajectory[r.n_trajectory - 1].x, 10.0, 1e-9);
    pb_scenario_result_finish(&r);
    pb_scenario_destroy(s);
}

static void bad(const char *what, const char *json, const char *field)
{
    pb_scenario *s = NULL;
    pb_diag diag = {0};
    pb_status st = pb_scenario_parse(&s, json, strlen(json), "test.json", dir, &diag);
    if (st == PB_OK) {
        pb_scenario_result r;
        st = pb_scenario_run(s, &r, &diag);
        if (st == PB_OK)
            pb_scenario_result_finish(&r);
        pb_scenario_destroy(s);
    }
    CHECK_MSG(st != PB_OK, "%s: accepted", what);
    CHECK_MSG(strstr(diag.message, field) != NULL, "%s: '%s' does not name %s", what, diag.message, field);
}

static void test_bad_input(void)
{
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n");
    char json[4096];
    bad("malformed JSON", "{\"goal_radius\": ", "malformed JSON");
    snprintf(json, sizeof json, "%s", request(30, 1, 25, "\"sim_timeout_period\": 17", ""));
    replace(json, "\"goal_radius\": 100", "\"goal_radius\": -5");
    bad("a negative goal radius", json, "goal_radius");
    snprintf(json, sizeof json, "%s", request(30, 1, 25, "\"sim_timeout_period\": 17", ""));
    replace(json, "/Game/Tree.Tree_C", "/Game/Rock.Rock_C");
    bad("an unknown path name", json, "path_name");
    snprintf(json, sizeof json, "%s", request(30, 1, 25, "\"sim_timeout_period\": 17", ""));
    replace(json, "\"yaw\": [0, 0]", "\"yaw\": [0]");
    bad("arrays of unequal length", json, "ssa_array[0].yaw");
    snprintf(json, sizeof json, "%s", request(30, 1, 10.5, "\"sim_timeout_period\": 17", ""));
    bad("a start on an obstacle", json, "vehicle_start_location");
    snprintf(json, sizeof json, "%s", request(70, 1, 0, "\"sim_timeout_period\": 17", ""));
    bad("a goal outside the scene", json, "vehicle_goal_location");
    snprintf(json, sizeof json, "%s", request(25, 1, 25, "\"sim_timeout_period\": 17", ""));
    bad("a goal in an obstacle", json, "vehicle_goal_location");
    snprintf(json, sizeof json, "%s", request(30, 1, 0, "\"sim_timeout_period\": 17", ", \"goal_radiu\": 3"));
    bad("a misspelt field", json, "goal_radiu");
    write_file("inputs.csv", "t,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n0,1,0,FLY,NONE\n");
    snprintf(json, sizeof json, "%s", request(30, 1, 0, "\"sim_timeout_period\": 17", ""));
    bad("an unknown gear", json, "FLY");
}

/* The step runner and the external driver: an external run takes no step before its first
 * control message, then follows the commands it is given; fed the inputs file's rows at their
 * times it is the inputs driver's run, bit for bit (the same trajectory, steps, reason). A run
 * cut short by finish() says so. pb_scenario_run() refuses an external driver. */
static void test_external(void)
{
    write_file("inputs.csv",
               "t,acceleration,steer_angle,gear,signal\n0,2,0.1,DRIVE,LEFT\n1.5,-1,-0.2,DRIVE,NONE\n");
    const char *timers = "\"sim_timeout_period\": 3, \"vehicle_idling_timeout_period\": -1";
    pb_scenario_result want = run(request(50, 1, 0, timers, ""), 0);
    char json[4096];
    snprintf(json, sizeof json, "%s", request(50, 1, 0, timers, ""));
    replace(json, "{\"inputs\": \"inputs.csv\"}", "\"external\"");
    pb_scenario *s = load(json);
    if (!s) {
        pb_scenario_result_finish(&want);
        return;
    }
    CHECK(pb_scenario_is_external(s));
    pb_scenario_result r = {0};
    pb_diag diag = {0};
    CHECK(pb_scenario_run(s, &r, &diag) == PB_ERR_INVALID && strstr(diag.message, "external") &&
          strcmp(diag.option, "driver") == 0);
    pb_scenario_runner *u = NULL;
    CHECK(pb_scenario_runner_create(&u, s, &diag) == PB_OK);
    if (!u) {
        pb_scenario_destroy(s);
        pb_scenario_result_finish(&want);
        return;
    }
    pb_scenario_progress p;
    CHECK(pb_scenario_runner_step(u, 50)); /* no control message yet: nothing happens */
    pb_scenario_runner_progress(u, &p);
    CHECK(p.steps == 0 && !p.started && !p.done);
    const pb_scenario_command first = {
        .input = {.acceleration = 2, .steer_angle = 0.1, .gear = PB_GEAR_DRIVE, .signal = PB_SIGNAL_LEFT},
        .control_message = true};
    const pb_scenario_command second = {
        .input = {.acceleration = -1, .steer_angle = -0.2, .gear = PB_GEAR_DRIVE}, .control_message = true};
    pb_scenario_command nan_command = second;
    nan_command.input.acceleration = NAN;
    CHECK(pb_scenario_runner_command(u, &nan_command) == PB_ERR_INVALID);
    CHECK(pb_scenario_runner_command(u, &first) == PB_OK);
    CHECK(pb_scenario_runner_step(u, 150)); /* 1.5 s */
    pb_scenario_runner_progress(u, &p);
    CHECK(p.started && p.steps == 150 && fabs(p.sim_time - 1.5) < 1e-12);
    CHECK(pb_scenario_runner_command(u, &second) == PB_OK);
    CHECK(!pb_scenario_runner_step(u, 0)); /* to the end: the sim timeout */
    bool early = true;
    CHECK(pb_scenario_runner_finish(u, &r, &early, &diag) == PB_OK);
    CHECK(!early && r.reason == want.reason && r.steps == want.steps && r.n_trajectory == want.n_trajectory);
    CHECK(r.num_vehicle_control_messages == 2 && want.num_vehicle_control_messages == 2);
    bool same = r.n_trajectory == want.n_trajectory;
    for (size_t i = 0; same && i < r.n_trajectory; i++) {
        const pb_scenario_odometry *a = &r.trajectory[i], *b = &want.trajectory[i];
        same = a->t == b->t && a->x == b->x && a->y == b->y && a->yaw == b->yaw && a->v == b->v &&
               a->yaw_rate == b->yaw_rate && a->acceleration == b->acceleration && a->steer == b->steer &&
               a->gear == b->gear;
    }
    CHECK_MSG(same, "the external run equals the inputs driver's, bit for bit");
    pb_scenario_result_finish(&r);
    /* cut short: the state so far, marked */
    CHECK(pb_scenario_runner_create(&u, s, &diag) == PB_OK);
    if (u) {
        CHECK(pb_scenario_runner_command(u, &first) == PB_OK);
        CHECK(pb_scenario_runner_step(u, 42));
        CHECK(pb_scenario_runner_finish(u, &r, &early, &diag) == PB_OK);
        CHECK(early && r.steps == 42 && fabs(r.vehicle_sim_time - 0.42) < 1e-12);
        CHECK(r.n_trajectory >= 2 && fabs(r.trajectory[r.n_trajectory - 1].t - 0.42) < 1e-12 &&
              r.trajectory[r.n_trajectory - 2].t < r.trajectory[r.n_trajectory - 1].t);
        pb_scenario_result_finish(&r);
    }
    /* a built-in driver takes no commands */
    pb_scenario *inputs = load(request(50, 1, 0, timers, ""));
    if (inputs && pb_scenario_runner_create(&u, inputs, &diag) == PB_OK) {
        CHECK(pb_scenario_runner_command(u, &first) == PB_ERR_UNSUPPORTED);
        pb_scenario_runner_destroy(u);
    }
    pb_scenario_destroy(inputs);
    pb_scenario_destroy(s);
    pb_scenario_result_finish(&want);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/pb-test-scenario-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    write_file("catalogue.json", "{\"actors\": {\"/Game/Tree.Tree_C\": {\"shape\": \"disc\", \"radius\": "
                                 "0.5, \"traversable\": false}}}");
    test_success();
    test_collision();
    test_timeout_and_precedence();
    test_idling();
    test_stuck();
    test_frame();
    test_bad_input();
    test_external();
    char path[512];
    snprintf(path, sizeof path, "%s/inputs.csv", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/catalogue.json", dir);
    remove(path);
    rmdir(dir);
    return pb_test_summary("scenario");
}
