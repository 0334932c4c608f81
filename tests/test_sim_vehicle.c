/* Vehicles in the simulation (issue 18): AWSIM's Lexus RX450h spawned in worlds/sim_wall40.xml
 * (maps/wall40.yaml: 40 x 40 m, one wall x in [18, 22] m, y in [0, 30) m), driven by Autoware's
 * command topics (control_cmd, gear_cmd, turn_indicators_cmd, hazard_lights_cmd, emergency_cmd)
 * through the rosbridge codec and the C calls; its status topics and EntityState; /follow_path
 * along a curve, checked here against the curve and against the kinematic model (no sliding);
 * /plan_path on the car engine, its curves re-swept here. */
#include "sim_fixture.h"
#include "sim/rosbridge.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The Lexus: rear axle 1.1 m from the rear bumper, 4.89 m long, 1.896 m wide. */
#define FRONT      (4.89 - 1.1)
#define HALF_WIDTH (1.896 / 2)
#define WALL_X     18.0

static void spawn_vehicle(pb_sim *sim, const char *name, double x, double y, double yaw)
{
    const pb_sim_spawn_request rq = {.name = name,
                                     .uri = "model://lexus_rx450h",
                                     .initial_pose = at(x, y, yaw),
                                     .frame_id = "",
                                     .entity_namespace = ""};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "spawn %s: %s", name, rs.result.error_message);
}

/* Publish `msg` (JSON) on `topic` through the codec: the reply (a status error) or NULL. */
static json_t *publish(pb_sim *sim, const char *topic, const char *msg)
{
    char text[2048];
    snprintf(text, sizeof text, "{\"op\":\"publish\",\"topic\":\"%s\",\"msg\":%s}", topic, msg);
    char *reply = NULL;
    pb_sim_handle_message(sim, text, strlen(text), &reply);
    json_t *j = reply ? json_loads(reply, 0, NULL) : NULL;
    CHECK_MSG(!reply || j, "reply is JSON: %s", reply ? reply : "");
    free(reply);
    return j;
}

/* Publish and expect no error. */
static void publish_ok(pb_sim *sim, const char *topic, const char *msg)
{
    json_t *j = publish(sim, topic, msg);
    CHECK_MSG(!j, "%s %s: %s", topic, msg, j ? json_string_value(json_object_get(j, "msg")) : "");
    json_decref(j);
}

/* Publish and expect a status error mentioning `what`. */
static void publish_error(pb_sim *sim, const char *topic, const char *msg, const char *what)
{
    json_t *j = publish(sim, topic, msg);
    const char *text = j ? json_string_value(json_object_get(j, "msg")) : NULL;
    CHECK_MSG(j && strcmp(json_string_value(json_object_get(j, "op")), "status") == 0 && text &&
                  strstr(text, what),
              "%s %s: expected an error naming '%s', got %s", topic, msg, what, text ? text : "nothing");
    json_decref(j);
}

static void step(pb_sim *sim, uint64_t n)
{
    pb_sim_result r;
    pb_sim_step_simulation(sim, n, &r);
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
}

static int n_blocked;
static void count_blocked(pb_sim_event_kind kind, const char *entity, void *payload)
{
    (void)payload;
    if (kind == PB_SIM_EVENT_BLOCKED && strcmp(entity, "car") == 0)
        n_blocked++;
}

/* A vehicle status message built by the server, parsed. */
static json_t *status_msg(pb_sim *sim, rb_topic topic, const char *entity)
{
    char *text = rb_vehicle_status(sim, topic, entity);
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *msg = json_incref(json_object_get(j, "msg"));
    json_decref(j);
    return msg;
}

/* Spawning: the spawnable, its bounds, a pixel world refuses it. */
static void test_spawn(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    pb_sim_result r;
    const pb_sim_spawnable *sp;
    size_t n;
    pb_sim_get_spawnables(sim, NULL, 0, &r, &sp, &n);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(sp[i].uri, "model://lexus_rx450h") == 0) {
            found = true;
            CHECK_NEAR(sp[i].spawn_bounds.points[0].x, -1.1, 1e-12);
            CHECK_NEAR(sp[i].spawn_bounds.points[1].x, FRONT, 1e-12);
        }
    CHECK_MSG(found, "the Lexus is a spawnable of sim_wall40");
    spawn_vehicle(sim, "car", 5, 10, 0);
    pb_sim_vehicle_status st;
    CHECK(pb_sim_get_vehicle_status(sim, "car", &st) && st.gear == 22 && st.longitudinal_velocity == 0);
    /* into the wall: refused */
    const pb_sim_spawn_request bad = {.name = "bad",
                                      .uri = "model://lexus_rx450h",
                                      .initial_pose = at(17, 10, 0),
                                      .frame_id = "",
                                      .entity_namespace = ""};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &bad, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    pb_sim_destroy(sim);

    /* a vehicle needs metres: sim_room1 is in pixels (its world does not list it; a resource
     * string brings it) */
    sim = make();
    char *xml = NULL;
    size_t size = 0;
    char path[1200];
    snprintf(path, sizeof path, "%s/lexus_rx450h.xml", robots_dir);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        xml = calloc(1, 4096);
        size = fread(xml, 1, 4095, f);
        fclose(f);
    }
    CHECK(size > 0);
    const pb_sim_spawn_request px = {.name = "car",
                                     .resource_string = xml,
                                     .initial_pose = at(250, 200, 0),
                                     .frame_id = "",
                                     .entity_namespace = ""};
    pb_sim_spawn_entity(sim, &px, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "metres"),
              "%s", rs.result.error_message);
    free(xml);
    pb_sim_destroy(sim);
}

/* control_cmd and gear_cmd drive it forward into the wall: it stops at the last free pose,
 * within a cell of the wall, with one BLOCKED event; EntityState carries the acceleration. */
static void test_drive_into_wall(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    spawn_vehicle(sim, "car", 5, 10, 0);
    const char *control = "/car/control/command/control_cmd", *gear = "/car/control/command/gear_cmd";
    /* parked: control_cmd alone does not move it */
    publish_ok(sim, control,
               "{\"longitudinal\":{\"acceleration\":2.0},\"lateral\":{\"steering_tire_angle\":0}}");
    step(sim, 10);
    CHECK_NEAR(state_of(sim, "car").pose.position.x, 5, 0);
    publish_ok(sim, gear, "{\"command\":2}");
    step(sim, 10); /* 0.5 s at 2 m/s^2 */
    pb_sim_entity_state st = state_of(sim, "car");
    CHECK_NEAR(st.twist.linear.x, 1.0, 1e-9);
    CHECK_NEAR(st.acceleration.linear.x, 2.0, 1e-9);
    CHECK_NEAR(st.acceleration.linear.y, 0.0, 1e-12);
    CHECK_NEAR(st.pose.position.x, 5 + 0.5 * 2 * 0.25, 1e-9);
    pb_sim_drain_events(sim, NULL, NULL);
    n_blocked = 0;
    double last_x = st.pose.position.x;
    bool monotone = true;
    for (int i = 0; i < 200; i++) {
        step(sim, 1);
        const double x = state_of(sim, "car").pose.position.x;
        monotone = monotone && x >= last_x;
        last_x = x;
        pb_sim_drain_events(sim, count_blocked, NULL);
    }
    st = state_of(sim, "car");
    const double gap = WALL_X - (st.pose.position.x + FRONT);
    CHECK_MSG(monotone, "it only moves forward");
    CHECK_MSG(gap >= 0 && gap <= 0.1, "stops within a cell (0.1 m) of the wall: gap %g m", gap);
    CHECK_NEAR(st.pose.position.y, 10, 1e-9);
    CHECK_MSG(n_blocked == 1, "one BLOCKED event for one contact (pushing on): %d", n_blocked);
    CHECK(st.twist.linear.x == 0);
    pb_sim_vehicle_status vs;
    CHECK(pb_sim_get_vehicle_status(sim, "car", &vs) && vs.longitudinal_velocity == 0);
    /* the pose it stopped at is free: the world accepts the vehicle there */
    const pb_sim_spawn_request twin = {.name = "twin",
                                       .uri = "model://lexus_rx450h",
                                       .initial_pose = at(st.pose.position.x, 30 - 10, 0),
                                       .frame_id = "",
                                       .entity_namespace = ""};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &twin, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    /* reverse out: a positive acceleration in REVERSE drives backwards (AWSIM) */
    publish_ok(sim, gear, "{\"command\":20}");
    step(sim, 10);
    CHECK_MSG(state_of(sim, "car").pose.position.x < st.pose.position.x - 0.1, "reversed away from the wall");
    pb_sim_destroy(sim);
}

/* Gear rules: DRIVE never reverses under braking, NEUTRAL coasts, PARK holds; unknown codes
 * are refused; emergency_cmd forces the acceleration to 0. */
static void test_gears_and_emergency(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    spawn_vehicle(sim, "car", 5, 35, 0);
    pb_sim_vehicle_command c = {.topic = PB_SIM_VEHICLE_GEAR, .command = 2};
    pb_sim_result r;
    pb_sim_command_vehicle(sim, "car", &c, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    c = (pb_sim_vehicle_command){.topic = PB_SIM_VEHICLE_CONTROL, .acceleration = -3};
    pb_sim_command_vehicle(sim, "car", &c, &r);
    step(sim, 20);
    CHECK_MSG(state_of(sim, "car").pose.position.x == 5, "braking at rest in DRIVE does not reverse");
    c.acceleration = 2;
    pb_sim_command_vehicle(sim, "car", &c, &r);
    step(sim, 20); /* 1 s: 2 m/s */
    pb_sim_vehicle_status vs;
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK_NEAR(vs.longitudinal_velocity, 2.0, 1e-9);
    CHECK_NEAR(vs.acceleration, 2.0, 1e-9);
    /* emergency: the acceleration input is 0 whatever control_cmd says */
    publish_ok(sim, "/car/control/command/emergency_cmd",
               "{\"stamp\":{\"sec\":1,\"nanosec\":0},\"emergency\":true}");
    publish_ok(sim, "/car/control/command/control_cmd", "{\"longitudinal\":{\"acceleration\":5.0}}");
    step(sim, 10);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK_MSG(vs.emergency && vs.acceleration == 0 && fabs(vs.longitudinal_velocity - 2.0) < 1e-9,
              "emergency holds the speed: a %g, v %g", vs.acceleration, vs.longitudinal_velocity);
    CHECK(state_of(sim, "car").acceleration.linear.x == 0);
    publish_ok(sim, "/car/control/command/emergency_cmd", "{\"emergency\":false}");
    step(sim, 1);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK_NEAR(vs.acceleration, 5.0, 1e-9);
    /* NEUTRAL coasts */
    publish_ok(sim, "/car/control/command/gear_cmd", "{\"command\":1}");
    step(sim, 1);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    const double v = vs.longitudinal_velocity;
    step(sim, 5);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK(vs.gear == 1 && vs.longitudinal_velocity == v && v > 2);
    /* PARK holds the pose at once */
    publish_ok(sim, "/car/control/command/gear_cmd", "{\"command\":22}");
    step(sim, 1);
    const double x = state_of(sim, "car").pose.position.x;
    step(sim, 20);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK(state_of(sim, "car").pose.position.x == x && vs.gear == 22 && vs.longitudinal_velocity == 0);
    /* Autoware's other drive codes: DRIVE_5 and LOW drive, REVERSE_2 reverses */
    publish_ok(sim, "/car/control/command/gear_cmd", "{\"command\":6}");
    step(sim, 1);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK(vs.gear == 2);
    publish_ok(sim, "/car/control/command/gear_cmd", "{\"command\":21}");
    step(sim, 1);
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK(vs.gear == 20);
    pb_sim_destroy(sim);
}

/* The status topics reflect the state, with Autoware's fields and codes; the signals as AWSIM
 * combines them (hazard over the turn indicators). */
static void test_status_topics(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    spawn_vehicle(sim, "car", 5, 35, 0);
    publish_ok(sim, "/car/control/command/gear_cmd", "{\"stamp\":{\"sec\":0,\"nanosec\":0},\"command\":2}");
    publish_ok(sim, "/car/control/command/control_cmd",
               "{\"stamp\":{\"sec\":0,\"nanosec\":0},\"control_time\":{\"sec\":0,\"nanosec\":0},"
               "\"lateral\":{\"steering_tire_angle\":0.1,\"steering_tire_rotation_rate\":0.0,"
               "\"is_defined_steering_tire_rotation_rate\":false},"
               "\"longitudinal\":{\"velocity\":3.0,\"acceleration\":1.0,\"jerk\":0.0,"
               "\"is_defined_acceleration\":true,\"is_defined_jerk\":false}}");
    publish_ok(sim, "/car/control/command/turn_indicators_cmd", "{\"command\":2}");
    step(sim, 20);
    json_t *m = status_msg(sim, RB_TOPIC_VELOCITY_STATUS, "car");
    const double v = json_number_value(json_object_get(m, "longitudinal_velocity"));
    CHECK_NEAR(v, 1.0, 1e-9);
    CHECK(json_number_value(json_object_get(m, "lateral_velocity")) == 0);
    CHECK_NEAR(json_number_value(json_object_get(m, "heading_rate")), v * tan(0.1) / 2.79, 1e-9);
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(m, "header"), "frame_id")),
                 "car/base_link") == 0);
    json_decref(m);
    m = status_msg(sim, RB_TOPIC_STEERING_STATUS, "car");
    CHECK_NEAR(json_number_value(json_object_get(m, "steering_tire_angle")), 0.1, 1e-12);
    CHECK(json_integer_value(json_object_get(json_object_get(m, "stamp"), "sec")) == 1);
    json_decref(m);
    m = status_msg(sim, RB_TOPIC_GEAR_STATUS, "car");
    CHECK(json_integer_value(json_object_get(m, "report")) == 2);
    json_decref(m);
    m = status_msg(sim, RB_TOPIC_TURN_INDICATORS_STATUS, "car");
    CHECK(json_integer_value(json_object_get(m, "report")) == 2);
    json_decref(m);
    m = status_msg(sim, RB_TOPIC_HAZARD_LIGHTS_STATUS, "car");
    CHECK(json_integer_value(json_object_get(m, "report")) == 1);
    json_decref(m);
    publish_ok(sim, "/car/control/command/hazard_lights_cmd", "{\"command\":2}");
    step(sim, 1);
    m = status_msg(sim, RB_TOPIC_HAZARD_LIGHTS_STATUS, "car");
    CHECK(json_integer_value(json_object_get(m, "report")) == 2);
    json_decref(m);
    m = status_msg(sim, RB_TOPIC_TURN_INDICATORS_STATUS, "car");
    CHECK(json_integer_value(json_object_get(m, "report")) == 1);
    json_decref(m);
    /* not a vehicle: no status */
    spawn_vehicle(sim, "car2", 5, 20, 0);
    CHECK(rb_vehicle_status(sim, RB_TOPIC_GEAR_STATUS, "nobody") == NULL);
    pb_sim_destroy(sim);
}

/* Malformed messages, wrong types, codes out of range and non-vehicles get an error naming
 * what is wrong. */
static void test_bad_commands(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    spawn_vehicle(sim, "car", 5, 35, 0);
    const pb_sim_spawn_request disc = {.name = "disc",
                                       .uri = "model://disc_robot_m",
                                       .initial_pose = at(5, 20, 0),
                                       .frame_id = "",
                                       .entity_namespace = ""};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &disc, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    const char *control = "/car/control/command/control_cmd";
    publish_error(sim, control, "{\"longitudinal\":{\"acceleration\":\"fast\"}}",
                  "longitudinal.acceleration");
    publish_error(sim, control, "{\"longitudinal\":{\"accel\":1.0}}",
                  "does not have a field longitudinal.accel");
    publish_error(sim, control, "[1,2]", "autoware_control_msgs/Control");
    publish_error(sim, control, "{\"lateral\":{\"steering_tire_angle\":null}}", "steering_tire_angle");
    publish_error(sim, "/car/control/command/gear_cmd", "{\"command\":99}", "not a GearCommand value");
    publish_error(sim, "/car/control/command/gear_cmd", "{\"command\":2.0}", "command");
    publish_error(sim, "/car/control/command/gear_cmd", "{\"command\":300}", "out of range");
    publish_error(sim, "/car/control/command/turn_indicators_cmd", "{\"command\":4}",
                  "TurnIndicatorsCommand");
    publish_error(sim, "/car/control/command/hazard_lights_cmd", "{\"command\":3}", "HazardLightsCommand");
    publish_error(sim, "/car/control/command/emergency_cmd", "{\"emergency\":1}", "emergency");
    publish_error(sim, "/disc/control/command/control_cmd", "{}", "'disc' is not a vehicle");
    publish_error(sim, "/nobody/control/command/gear_cmd", "{\"command\":2}", "no entity named 'nobody'");
    publish_error(sim, "/car/cmd_vel", "{\"linear\":{\"x\":1.0}}", "control_cmd");
    /* advertising with another type is refused, with the right one accepted */
    char *reply = NULL;
    const char *adv = "{\"op\":\"advertise\",\"topic\":\"/car/control/command/gear_cmd\","
                      "\"type\":\"std_msgs/msg/UInt8\"}";
    pb_sim_handle_message(sim, adv, strlen(adv), &reply);
    CHECK(reply && strstr(reply, "autoware_vehicle_msgs/msg/GearCommand"));
    free(reply);
    reply = NULL;
    const char *adv_ok = "{\"op\":\"advertise\",\"topic\":\"/car/control/command/gear_cmd\","
                         "\"type\":\"autoware_vehicle_msgs/GearCommand\"}";
    pb_sim_handle_message(sim, adv_ok, strlen(adv_ok), &reply);
    CHECK(reply == NULL);
    free(reply);
    /* nothing moved */
    step(sim, 5);
    CHECK(state_of(sim, "car").pose.position.x == 5);
    pb_sim_destroy(sim);
}

/* /follow_path: a half circle of radius 6 m given as waypoints; the tracker drives along it
 * within 0.25 m of the circle, every step consistent with the kinematic model (the rear axle
 * moves along its heading: each step's chord points along the mean heading, the heading turns
 * by at most the chord's length times tan(max_steer) / wheelbase), and reaches the end. */
static void test_follow_curve(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    const double cx = 9, cy = 15, R = 6;
    spawn_vehicle(sim, "car", cx, cy - R, 0);
    enum { N = 18 };
    pb_sim_pose path[N];
    for (int i = 0; i < N; i++) {
        const double a = -M_PI / 2 + M_PI * (i + 1) / N;
        path[i] = at(cx + R * cos(a), cy + R * sin(a), a + M_PI / 2);
    }
    const pb_sim_follow_request rq = {.entity = "car", .path = path, .n_path = N, .speed = 2.0};
    uint64_t goal;
    pb_sim_result r;
    CHECK_MSG(pb_sim_follow_begin(&goal, sim, &rq, &r), "%s", r.error_message);
    pb_sim_entity_state prev = state_of(sim, "car");
    double worst = 0, worst_lateral = 0, worst_turn = 0;
    pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
    int steps = 0;
    const double k_max = tan(0.6109) / 2.79;
    while (fs == PB_SIM_FOLLOW_RUNNING && steps < 4000) {
        fs = pb_sim_follow_step(sim, goal, NULL, &r);
        steps++;
        const pb_sim_entity_state st = state_of(sim, "car");
        const double x = st.pose.position.x, y = st.pose.position.y;
        worst = fmax(worst, fabs(hypot(x - cx, y - cy) - R));
        const double y0 = yaw_of(&prev.pose), y1 = yaw_of(&st.pose);
        const double dyaw = remainder(y1 - y0, 2 * M_PI), mid = y0 + dyaw / 2;
        const double dx = x - prev.pose.position.x, dy = y - prev.pose.position.y;
        const double chord = hypot(dx, dy);
        worst_lateral = fmax(worst_lateral, fabs(-sin(mid) * dx + cos(mid) * dy));
        if (chord > 1e-9)
            worst_turn = fmax(worst_turn, fabs(dyaw) / (chord * k_max));
        prev = st;
    }
    pb_sim_steps_end(sim);
    CHECK_MSG(fs == PB_SIM_FOLLOW_REACHED, "reached the end (status %d after %d steps: %s)", (int)fs, steps,
              r.error_message);
    CHECK_MSG(worst <= 0.25, "cross-track error from the circle %g m", worst);
    CHECK_MSG(worst_lateral <= 1e-6, "no sliding: lateral displacement %g m in a step", worst_lateral);
    CHECK_MSG(worst_turn <= 1 + 1e-6, "turns no tighter than the steer allows: %g of the limit", worst_turn);
    const pb_sim_entity_state end = state_of(sim, "car");
    CHECK_MSG(hypot(end.pose.position.x - cx, end.pose.position.y - (cy + R)) <= 0.2,
              "ends at the last waypoint");
    CHECK_NEAR(remainder(yaw_of(&end.pose) - M_PI, 2 * M_PI), 0, 0.1);
    pb_sim_vehicle_status vs;
    pb_sim_get_vehicle_status(sim, "car", &vs);
    CHECK(vs.gear == 22 && vs.longitudinal_velocity == 0);
    /* a path through the wall is refused, naming the segment */
    const pb_sim_pose through[] = {at(30, 10, 0)};
    const pb_sim_follow_request bad = {.entity = "car", .path = through, .n_path = 1};
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && strstr(r.error_message, "segment 1"));
    pb_sim_destroy(sim);
}

/* The Reeds-Shepp curve of the Lexus from a to b, re-swept here at 2 cm: the footprint's
 * corners and edge midpoints stay inside the map and out of the wall. */
static bool curve_clear(const double *a, const double *b, double *length)
{
    pb_curve k;
    if (!pb_curve_shortest(&k, PB_CURVE_REEDS_SHEPP, a, b, 2.79 / tan(0.6109)))
        return false;
    *length = pb_curve_length(&k);
    const int n = (int)ceil(*length / 0.02);
    for (int i = 0; i <= n; i++) {
        double q[3];
        pb_curve_point(&k, a, *length * i / (n ? n : 1), q);
        const double c = cos(q[2]), s = sin(q[2]);
        for (int u = 0; u <= 4; u++)
            for (int v = 0; v <= 2; v++) {
                const double lx = -1.1 + 4.89 * u / 4, ly = -HALF_WIDTH + HALF_WIDTH * v;
                const double px = q[0] + c * lx - s * ly, py = q[1] + s * lx + c * ly;
                if (px < 0 || px > 40 || py < 0 || py > 40 || (px >= WALL_X && px <= 22 && py < 30))
                    return false;
            }
    }
    return true;
}

/* /plan_path for the vehicle: a car-engine path (Reeds-Shepp curves between its waypoints,
 * its cost their length) around the wall, every curve clear; then followed. */
static void test_plan(void)
{
    pb_sim *sim = make_world("sim_wall40.xml");
    spawn_vehicle(sim, "car", 5, 5, 0);
    const char *planners[] = {"rrtconnect", "rrtstar"};
    for (int p = 0; p < 2; p++) {
        pb_sim_plan_request rq = {
            .entity = "car", .goal_name = "goal", .planner = planners[p], .time_limit = 5, .seed = 7};
        pb_sim_plan_response rs;
        pb_sim_plan_path(sim, &rq, &rs);
        CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s: %s (%s)", planners[p], rs.result.error_message,
                  rs.outcome ? rs.outcome : "");
        if (rs.result.result != PB_SIM_RESULT_OK)
            continue;
        CHECK(rs.n_path >= 2 && rs.n_joints == 0);
        CHECK_NEAR(rs.path[0], 5, 1e-12);
        CHECK_NEAR(rs.path[3 * (rs.n_path - 1)], 35, 1e-9);
        double total = 0;
        bool clear = true;
        for (size_t i = 1; i < rs.n_path; i++) {
            double length = 0;
            clear = clear && curve_clear(rs.path + 3 * (i - 1), rs.path + 3 * i, &length);
            total += length;
        }
        CHECK_MSG(clear, "%s: every curve clear of the wall and inside the map", planners[p]);
        CHECK_MSG(fabs(total - rs.cost) <= 1e-6 * total, "%s: cost %g is the curves' length %g", planners[p],
                  rs.cost, total);
    }
    /* planned and followed: it arrives, never sliding */
    pb_sim_plan_request rq = {.entity = "car",
                              .goal_name = "north",
                              .planner = "rrtconnect",
                              .time_limit = 5,
                              .seed = 3,
                              .follow = true,
                              .speed = 3};
    pb_sim_plan_response rs;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    for (int i = 0; i < 6000 && pb_sim_is_following(sim, "car"); i++)
        step(sim, 1);
    const pb_sim_entity_state end = state_of(sim, "car");
    CHECK_MSG(hypot(end.pose.position.x - 20, end.pose.position.y - 35) <= 0.3, "arrived at north: (%g, %g)",
              end.pose.position.x, end.pose.position.y);
    /* a goal in the wall */
    pb_sim_plan_request bad = {.entity = "car", .goal = at(20, 10, 0), .planner = "rrtconnect"};
    pb_sim_plan_path(sim, &bad, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(rs.result.error_message, "goal"));
    pb_sim_destroy(sim);
}

int main(void)
{
    sim_fixture_init();
    test_spawn();
    test_drive_into_wall();
    test_gears_and_emergency();
    test_status_topics();
    test_bad_commands();
    test_follow_curve();
    test_plan();
    return pb_test_summary("sim_vehicle");
}
