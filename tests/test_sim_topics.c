/* The simulation's standard ROS topics and commands (issue 17): exact sim time, velocity
 * commands in the body frame (cmd_vel), the frame tree (/tf, /tf_static), odometry and
 * joint states as rosbridge messages, rosapi introspection, and the errors a client's publish
 * gets. Over worlds/sim_room1.xml (a 480 x 400 px room, border 5 px; see test_sim_services.c)
 * and, with the manipulator engine, worlds/sim_arm_table.xml. */
#include "sim_fixture.h"
#include "sim/rosbridge.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A simulation of `world` (a path) with the plan time cap `plan_time_limit`; NULL (and the
 * reason in `diag`) when it cannot be made. */
static pb_sim *make_sim(const char *world, double plan_time_limit, pb_diag *diag)
{
    pb_sim_config c = pb_sim_config_default();
    c.worlds_dir = worlds_dir;
    c.robots_dir = robots_dir;
    c.world = world;
    c.plan_time_limit = plan_time_limit;
    pb_sim *sim = NULL;
    return pb_sim_create(&sim, &c, diag) == PB_OK ? sim : NULL;
}

static pb_sim_spawn_request spawn_req(const char *name, const char *uri, double x, double y, double yaw)
{
    return (pb_sim_spawn_request){
        .name = name, .uri = uri, .initial_pose = at(x, y, yaw), .frame_id = "", .entity_namespace = ""};
}

static void spawn(pb_sim *sim, const char *name, const char *uri, double x, double y, double yaw)
{
    const pb_sim_spawn_request rq = spawn_req(name, uri, x, y, yaw);
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "spawn %s: %s", name, rs.result.error_message);
}

/* A rosbridge message in, its reply parsed (NULL when none). */
static json_t *exchange(pb_sim *sim, const char *text)
{
    char *reply = NULL;
    pb_sim_handle_message(sim, text, strlen(text), &reply);
    json_t *j = reply ? json_loads(reply, 0, NULL) : NULL;
    CHECK_MSG(!reply || j, "reply is JSON: %s", reply);
    free(reply);
    return j;
}

/* ---- sim time is an exact count of nanoseconds ---- */
static void test_exact_time(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    pb_sim_step_simulation(sim, 10, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    /* 10 steps of 0.05 s: accumulating doubles gave 0.49999999999999994 */
    CHECK_MSG(pb_sim_time_ns(sim) == 500000000u, "%llu ns", (unsigned long long)pb_sim_time_ns(sim));
    pb_sim_step_simulation(sim, 99990, &r);
    CHECK(pb_sim_time_ns(sim) == 100000ull * 50000000u);
    spawn(sim, "bot", "model://disc_robot", 40, 40, 0);
    const pb_sim_entity_state st = state_of(sim, "bot");
    CHECK(st.stamp_sec == 5000 && st.stamp_nanosec == 0);
    char *clock = rb_clock(sim);
    json_t *j = json_loads(clock, 0, NULL);
    CHECK(j && json_integer_value(
                   json_object_get(json_object_get(json_object_get(j, "msg"), "clock"), "sec")) == 5000);
    json_decref(j);
    free(clock);
    pb_sim_destroy(sim);
}

static void count_blocked(pb_sim_event_kind kind, const char *entity, void *payload)
{
    if (kind == PB_SIM_EVENT_BLOCKED && strcmp(entity, "bot") == 0)
        ++*(int *)payload;
}

/* ---- cmd_vel: a velocity in the body frame, an exact arc, stopped by a wall ---- */
static void test_velocity_command(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    spawn(sim, "bot", "model://disc_robot", 380, 290, M_PI / 2); /* facing +y, in the open */
    /* straight ahead in the body frame: +y in the world */
    pb_sim_twist v = {{20, 0, 0}, {0, 0, 0}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    pb_sim_step_simulation(sim, 10, &r); /* 0.5 s at 20 px/s */
    pb_sim_entity_state st = state_of(sim, "bot");
    CHECK_NEAR(st.pose.position.x, 380, 1e-9);
    CHECK_NEAR(st.pose.position.y, 300, 1e-9);
    CHECK_NEAR(st.twist.linear.y, 20, 1e-9); /* reported in the world frame */
    /* an arc: speed v, turn rate w for time T from (x0, y0, yaw0): the exact circle */
    const double x0 = st.pose.position.x, y0 = st.pose.position.y, yaw0 = yaw_of(&st.pose);
    const double speed = 10, w = 0.5, steps = 20, T = steps * pb_sim_time_step(sim);
    v = (pb_sim_twist){{speed, 0, 0}, {0, 0, w}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    pb_sim_drain_events(sim, NULL, NULL);
    pb_sim_step_simulation(sim, (uint64_t)steps, &r);
    int blocked = 0;
    pb_sim_drain_events(sim, count_blocked, &blocked);
    CHECK(blocked == 0);
    st = state_of(sim, "bot");
    const double R = speed / w;
    const double ex = x0 + R * (sin(yaw0 + w * T) - sin(yaw0)), ey = y0 - R * (cos(yaw0 + w * T) - cos(yaw0));
    CHECK_MSG(fabs(st.pose.position.x - ex) < 1e-9 && fabs(st.pose.position.y - ey) < 1e-9,
              "arc end (%.12f, %.12f), expected (%.12f, %.12f)", st.pose.position.x, st.pose.position.y, ex,
              ey);
    CHECK_NEAR(yaw_of(&st.pose), yaw0 + w * T, 1e-9);
    /* into the west wall (free from x = 5, radius 8): stops at the last free pose, an event */
    pb_sim_drain_events(sim, NULL, NULL);
    pb_sim_set_state_request rq = {
        .entity = "bot", .has_flags = true, .set_pose = true, .state = {.pose = at(40, 40, M_PI)}};
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    v = (pb_sim_twist){{50, 0, 0}, {0, 0, 0}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    pb_sim_step_simulation(sim, 20, &r); /* 50 px: past the wall */
    st = state_of(sim, "bot");
    CHECK_MSG(st.pose.position.x >= 13.0 && st.pose.position.x < 13.1 && st.twist.linear.x == 0,
              "stopped at x %.6f", st.pose.position.x);
    pb_sim_drain_events(sim, count_blocked, &blocked);
    CHECK(blocked == 1);
    /* bad commands */
    v = (pb_sim_twist){{1, 0, 1}, {0, 0, 0}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(r.error_message, "planar"));
    v = (pb_sim_twist){{NAN, 0, 0}, {0, 0, 0}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(r.error_message, "finite"));
    pb_sim_command_velocity(sim, "nobody", &v, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(r.error_message, "nobody"));
    pb_sim_command_velocity(sim, "crate_1", &(pb_sim_twist){{1, 0, 0}, {0, 0, 0}}, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(r.error_message, "static"));
    pb_sim_destroy(sim);
}

/* ---- the frame tree: every entity's base_link, the stick arm's links ---- */
static void test_frames(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot", "model://disc_robot", 40, 40, 0.3);
    spawn(sim, "arm", "model://stick_arm", 250, 200, 0.0);
    const pb_sim_frame *f;
    const size_t n = pb_sim_get_frames(sim, false, &f);
    bool bot = false, link2 = false;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i].child_frame_id, "bot/base_link") == 0) {
            bot = strcmp(f[i].frame_id, "map") == 0 && f[i].transform.position.x == 40 &&
                  f[i].transform.position.y == 40 && fabs(yaw_of(&f[i].transform) - 0.3) < 1e-12;
        }
        if (strcmp(f[i].child_frame_id, "arm/link2") == 0)
            link2 = strcmp(f[i].frame_id, "arm/link1") == 0;
    }
    CHECK_MSG(bot, "bot/base_link in map at its pose (%zu frames)", n);
    CHECK(link2);
    const size_t n_fixed = pb_sim_get_frames(sim, true, &f);
    CHECK(n_fixed == 1 && strcmp(f[0].child_frame_id, "arm/link1") == 0 &&
          strcmp(f[0].frame_id, "arm/base_link") == 0);
    /* as a rosbridge message */
    char *tf = rb_tf(sim, false);
    json_t *j = json_loads(tf, 0, NULL);
    const json_t *transforms = json_object_get(json_object_get(j, "msg"), "transforms");
    CHECK(json_is_array(transforms) && json_array_size(transforms) == n);
    json_decref(j);
    free(tf);
    /* odometry: the twist in the body frame */
    pb_sim_result r;
    pb_sim_twist v = {{7, 0, 0}, {0, 0, 0}};
    pb_sim_command_velocity(sim, "bot", &v, &r);
    char *odom = rb_odom(sim, "bot");
    j = json_loads(odom, 0, NULL);
    const json_t *msg = json_object_get(j, "msg");
    CHECK(strcmp(json_string_value(json_object_get(j, "topic")), "/bot/odom") == 0);
    CHECK_NEAR(json_real_value(json_object_get(
                   json_object_get(json_object_get(json_object_get(msg, "twist"), "twist"), "linear"), "x")),
               7.0, 1e-12);
    CHECK(json_array_size(json_object_get(json_object_get(msg, "pose"), "covariance")) == 36);
    json_decref(j);
    free(odom);
    CHECK(rb_odom(sim, "nobody") == NULL && rb_joint_states(sim, "bot") == NULL);
    char *js = rb_joint_states(sim, "arm");
    j = json_loads(js, 0, NULL);
    CHECK(json_array_size(json_object_get(json_object_get(j, "msg"), "name")) == 1);
    json_decref(j);
    free(js);
    pb_sim_destroy(sim);
}

/* ---- a scene's robot: its links make one tree under map, /tf and /tf_static together ---- */
static void test_scene_frames(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/sim_arm_table.xml", worlds_dir);
    pb_sim *sim = make_sim(path, 60, NULL);
    if (!sim) {
        printf("sim_topics: no manipulator engine in this build, scene frames skipped\n");
        return;
    }
    const pb_sim_frame *f;
    const size_t n_moving = pb_sim_get_frames(sim, false, &f);
    pb_sim_frame *all = malloc((n_moving + 300) * sizeof *all);
    memcpy(all, f, n_moving * sizeof *f);
    const size_t n_fixed = pb_sim_get_frames(sim, true, &f);
    memcpy(all + n_moving, f, (n_fixed < 300 ? n_fixed : 300) * sizeof *f);
    const size_t n = n_moving + (n_fixed < 300 ? n_fixed : 300);
    const char *const *joints;
    const size_t dim = pb_sim_get_entity_joints(sim, "arm", &joints, NULL);
    CHECK_MSG(dim >= 6 && n_moving >= dim, "%zu joints, %zu moving frames, %zu fixed", dim, n_moving,
              n_fixed);
    size_t roots = 0, orphans = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i].frame_id, "map") == 0) {
            roots += strncmp(all[i].child_frame_id, "arm/", 4) == 0;
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < n && !found; k++)
            found = strcmp(all[k].child_frame_id, all[i].frame_id) == 0;
        orphans += !found;
        const double qn =
            sqrt(all[i].transform.qx * all[i].transform.qx + all[i].transform.qy * all[i].transform.qy +
                 all[i].transform.qz * all[i].transform.qz + all[i].transform.qw * all[i].transform.qw);
        CHECK_NEAR(qn, 1.0, 1e-12);
    }
    CHECK_MSG(roots == 1 && orphans == 0,
              "one root of the robot under map (%zu), no frame without a parent (%zu)", roots, orphans);
    free(all);
    pb_sim_destroy(sim);
}

/* ---- a client's publish: cmd_vel routed, the rest an error status ---- */
static void test_publish(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot", "model://disc_robot", 100, 200, 0);
    json_t *j = exchange(
        sim, "{\"op\":\"advertise\",\"topic\":\"/bot/cmd_vel\",\"type\":\"geometry_msgs/msg/Twist\"}");
    CHECK(j == NULL);
    j = exchange(sim, "{\"op\":\"advertise\",\"topic\":\"/bot/cmd_vel\",\"type\":\"std_msgs/String\"}");
    CHECK(j && strcmp(json_string_value(json_object_get(j, "op")), "status") == 0);
    json_decref(j);
    j = exchange(
        sim, "{\"op\":\"publish\",\"topic\":\"/bot/cmd_vel\",\"msg\":{\"linear\":{\"x\":20,\"y\":0,\"z\":0},"
             "\"angular\":{\"x\":0,\"y\":0,\"z\":0}}}");
    CHECK(j == NULL);
    pb_sim_result r;
    pb_sim_step_simulation(sim, 10, &r);
    CHECK_NEAR(x_of(sim, "bot"), 110, 1e-9);
    /* wrong type, unknown entity, a topic the server does not take */
    const char *bad[] = {
        "{\"op\":\"publish\",\"topic\":\"/bot/cmd_vel\",\"msg\":{\"data\":\"go\"}}",
        "{\"op\":\"publish\",\"topic\":\"/bot/cmd_vel\",\"msg\":{\"linear\":{\"x\":\"fast\"}}}",
        "{\"op\":\"publish\",\"topic\":\"/ghost/cmd_vel\",\"msg\":{\"linear\":{\"x\":1}}}",
        "{\"op\":\"publish\",\"topic\":\"/chatter\",\"msg\":{\"data\":\"hi\"}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = exchange(sim, bad[i]);
        CHECK_MSG(j && strcmp(json_string_value(json_object_get(j, "op")), "status") == 0 &&
                      strcmp(json_string_value(json_object_get(j, "level")), "error") == 0,
                  "%s", bad[i]);
        json_decref(j);
    }
    CHECK_NEAR(x_of(sim, "bot"), 110, 1e-9);
    pb_sim_destroy(sim);
}

/* ---- rosapi: every topic has a type and a definition, every service its request ---- */
static void test_rosapi(void)
{
    pb_sim *sim = make();
    spawn(sim, "arm", "model://stick_arm", 250, 200, 0.0);
    json_t *j = exchange(sim, "{\"op\":\"call_service\",\"service\":\"/rosapi/topics\"}");
    const json_t *topics = json_object_get(json_object_get(j, "values"), "topics");
    const json_t *types = json_object_get(json_object_get(j, "values"), "types");
    CHECK(json_array_size(topics) >= 8 && json_array_size(topics) == json_array_size(types));
    for (size_t i = 0; i < json_array_size(topics); i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"op\":\"call_service\",\"service\":\"/rosapi/topic_type\",\"args\":{\"topic\":\"%s\"}}",
                 json_string_value(json_array_get(topics, i)));
        json_t *t = exchange(sim, text);
        const char *type = json_string_value(json_object_get(json_object_get(t, "values"), "type"));
        CHECK_MSG(type && strcmp(type, json_string_value(json_array_get(types, i))) == 0, "%s", text);
        snprintf(
            text, sizeof text,
            "{\"op\":\"call_service\",\"service\":\"/rosapi/message_details\",\"args\":{\"type\":\"%s\"}}",
            type);
        json_t *d = exchange(sim, text);
        const json_t *defs = json_object_get(json_object_get(d, "values"), "typedefs");
        CHECK_MSG(json_array_size(defs) >= 1 &&
                      strcmp(json_string_value(json_object_get(json_array_get(defs, 0), "type")), type) == 0,
                  "message_details of %s", type);
        json_decref(d);
        json_decref(t);
    }
    json_decref(j);
    j = exchange(sim, "{\"op\":\"call_service\",\"service\":\"/rosapi/services\"}");
    const json_t *services = json_object_get(json_object_get(j, "values"), "services");
    CHECK(json_array_size(services) > 20);
    for (size_t i = 0; i < json_array_size(services); i++) {
        char text[512];
        snprintf(
            text, sizeof text,
            "{\"op\":\"call_service\",\"service\":\"/rosapi/service_type\",\"args\":{\"service\":\"%s\"}}",
            json_string_value(json_array_get(services, i)));
        json_t *t = exchange(sim, text);
        const char *type = json_string_value(json_object_get(json_object_get(t, "values"), "type"));
        CHECK(type && type[0]);
        for (int k = 0; k < 2; k++) {
            snprintf(text, sizeof text,
                     "{\"op\":\"call_service\",\"service\":\"/rosapi/"
                     "service_%s_details\",\"args\":{\"type\":\"%s\"}}",
                     k ? "response" : "request", type);
            json_t *d = exchange(sim, text);
            CHECK_MSG(json_is_true(json_object_get(d, "result")) &&
                          json_array_size(json_object_get(json_object_get(d, "values"), "typedefs")) >= 1,
                      "%s", text);
            json_decref(d);
        }
        json_decref(t);
    }
    json_decref(j);
    /* a reply's members are exactly the fields its typedef lists */
    const char *calls[][2] = {{"/get_entity_state", "{\"entity\":\"arm\"}"},
                              {"/get_spawnables", "{}"},
                              {"/get_current_world", "{}"},
                              {"/get_simulator_features", "{}"},
                              {"/get_named_poses", "{}"}};
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, "{\"op\":\"call_service\",\"service\":\"%s\",\"args\":%s}", calls[k][0],
                 calls[k][1]);
        json_t *reply = exchange(sim, text);
        snprintf(
            text, sizeof text,
            "{\"op\":\"call_service\",\"service\":\"/rosapi/service_type\",\"args\":{\"service\":\"%s\"}}",
            calls[k][0]);
        json_t *t = exchange(sim, text);
        snprintf(text, sizeof text,
                 "{\"op\":\"call_service\",\"service\":\"/rosapi/"
                 "service_response_details\",\"args\":{\"type\":\"%s\"}}",
                 json_string_value(json_object_get(json_object_get(t, "values"), "type")));
        json_t *d = exchange(sim, text);
        const json_t *names = json_object_get(
            json_array_get(json_object_get(json_object_get(d, "values"), "typedefs"), 0), "fieldnames");
        const json_t *values = json_object_get(reply, "values");
        bool same = json_array_size(names) == json_object_size(values);
        for (size_t i = 0; i < json_array_size(names) && same; i++)
            same = json_object_get(values, json_string_value(json_array_get(names, i))) != NULL;
        CHECK_MSG(same, "%s: the reply's members are the typedef's fields", calls[k][0]);
        json_decref(reply);
        json_decref(t);
        json_decref(d);
    }
    j = exchange(sim, "{\"op\":\"call_service\",\"service\":\"/rosapi/get_param_names\"}");
    CHECK(json_array_size(json_object_get(json_object_get(j, "values"), "names")) >= 1);
    json_decref(j);
    j = exchange(sim, "{\"op\":\"call_service\",\"service\":\"/rosapi/get_param\",\"args\":{\"name\":\"/"
                      "planbench_sim:time_step\"}}");
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "values"), "value")),
                 "0.050000000000000003") == 0);
    json_decref(j);
    pb_sim_destroy(sim);
}

/* ---- joints: get and set as part of an entity's state ---- */
static void test_joints(void)
{
    pb_sim *sim = make();
    spawn(sim, "arm", "model://stick_arm", 250, 200, 0.0);
    spawn(sim, "bot", "model://disc_robot", 40, 40, 0);
    pb_sim_result r;
    const char *const names[] = {"joint2"};
    const double to[] = {-0.4};
    pb_sim_set_entity_joints(sim, "arm", names, to, 1, &r);
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    const char *const *have;
    double q[PB_SIM_MAX_JOINTS];
    CHECK(pb_sim_get_entity_joints(sim, "arm", &have, q) == 1 && strcmp(have[0], "joint2") == 0 &&
          q[0] == -0.4);
    /* the frames follow: link2 turned by the new elbow */
    const pb_sim_frame *f;
    const size_t n = pb_sim_get_frames(sim, false, &f);
    bool turned = false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].child_frame_id, "arm/link2") == 0)
            turned = fabs(yaw_of(&f[i].transform) + 0.4) < 1e-12;
    CHECK(turned);
    /* over the wire, with the bad cases */
    json_t *j = exchange(
        sim, "{\"op\":\"call_service\",\"service\":\"/get_entity_joints\",\"args\":{\"entity\":\"arm\"}}");
    const json_t *v = json_object_get(j, "values");
    CHECK(json_real_value(json_array_get(json_object_get(v, "positions"), 0)) == -0.4);
    json_decref(j);
    const char *bad[] = {
        "{\"entity\":\"arm\",\"joint_names\":[\"elbow\"],\"positions\":[0.1]}",
        "{\"entity\":\"arm\",\"joint_names\":[\"joint2\"],\"positions\":[]}",
        "{\"entity\":\"bot\",\"joint_names\":[\"joint2\"],\"positions\":[0.1]}",
        "{\"entity\":\"ghost\",\"joint_names\":[],\"positions\":[]}",
    };
    const int expect[] = {PB_SIM_RESULT_OPERATION_FAILED, PB_SIM_RESULT_OPERATION_FAILED,
                          PB_SIM_RESULT_OPERATION_FAILED, PB_SIM_RESULT_NOT_FOUND};
    for (int i = 0; i < 4; i++) {
        char text[400];
        snprintf(text, sizeof text,
                 "{\"op\":\"call_service\",\"service\":\"/set_entity_joints\",\"args\":%s}", bad[i]);
        j = exchange(sim, text);
        const json_t *res = json_object_get(json_object_get(j, "values"), "result");
        CHECK_MSG(json_integer_value(json_object_get(res, "result")) == expect[i], "%s: %s", bad[i],
                  json_string_value(json_object_get(res, "error_message")));
        json_decref(j);
    }
    CHECK(pb_sim_get_entity_joints(sim, "arm", NULL, q) == 1 && q[0] == -0.4);
    /* a joint trajectory on /arm/joint_commands: followed as the simulation steps, in 0.5 s */
    j = exchange(
        sim, "{\"op\":\"publish\",\"topic\":\"/arm/joint_commands\",\"msg\":{\"joint_names\":[\"joint2\"],"
             "\"points\":[{\"positions\":[0.0]},{\"positions\":[0.4],\"time_from_start\":{\"sec\":0,"
             "\"nanosec\":500000000}}]}}");
    CHECK_MSG(j == NULL, "no error status: %s", j ? json_dumps(j, 0) : "");
    json_decref(j);
    pb_sim_step_simulation(sim, 5, &r);
    pb_sim_get_entity_joints(sim, "arm", NULL, q);
    CHECK_MSG(q[0] > -0.4 && q[0] < 0.4, "half way: %g", q[0]);
    pb_sim_step_simulation(sim, 10, &r);
    pb_sim_get_entity_joints(sim, "arm", NULL, q);
    CHECK_NEAR(q[0], 0.4, 1e-12);
    const char *bad_cmd[] = {
        "{\"op\":\"publish\",\"topic\":\"/arm/"
        "joint_commands\",\"msg\":{\"joint_names\":[\"elbow\"],\"points\":[{\"positions\":[0]}]}}",
        "{\"op\":\"publish\",\"topic\":\"/arm/"
        "joint_commands\",\"msg\":{\"joint_names\":[\"joint2\"],\"points\":[{\"positions\":[0, 1]}]}}",
        "{\"op\":\"publish\",\"topic\":\"/bot/"
        "joint_commands\",\"msg\":{\"joint_names\":[\"joint2\"],\"points\":[{\"positions\":[0]}]}}",
        "{\"op\":\"publish\",\"topic\":\"/arm/joint_commands\",\"msg\":{\"linear\":{\"x\":1}}}",
    };
    for (size_t i = 0; i < sizeof bad_cmd / sizeof bad_cmd[0]; i++) {
        j = exchange(sim, bad_cmd[i]);
        CHECK_MSG(j && strcmp(json_string_value(json_object_get(j, "op")), "status") == 0, "%s", bad_cmd[i]);
        json_decref(j);
    }
    pb_sim_get_entity_joints(sim, "arm", NULL, q);
    CHECK_NEAR(q[0], 0.4, 1e-12);
    pb_sim_destroy(sim);
}

/* ---- a map_server map served as a world: metres, y up, the metric spawnables ---- */
static void test_metric_map(void)
{
    char map[1100];
    snprintf(map, sizeof map, "%s/maps/office.yaml", pb_test_source_root());
    pb_diag d = {0};
    pb_sim *sim = make_sim(map, 60, &d);
    if (!sim) {
        CHECK_MSG(strstr(d.message, "yaml") || strstr(d.message, "netpbm"), "office.yaml: %s", d.message);
        return; /* a build without libyaml or netpbm says so */
    }
    pb_sim_result r;
    const pb_sim_spawnable *sp;
    size_t n;
    pb_sim_get_spawnables(sim, NULL, 0, &r, &sp, &n);
    CHECK(n == 2 && strcmp(sp[0].uri, "model://disc_robot_m") == 0 && sp[0].spawn_bounds.points[1].x == 0.25);
    json_t *j = exchange(sim, "{\"op\":\"call_service\",\"service\":\"/rosapi/"
                              "get_param\",\"args\":{\"name\":\"/planbench_sim:map_resolution\"}}");
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "values"), "value")),
                 "0.050000000000000003") == 0);
    json_decref(j);
    /* the map's own default problem (planbench_start, planbench_goal), metres in the map frame */
    spawn(sim, "bot", "model://disc_robot_m", -1.725, 4.725, 0);
    pb_sim_spawn_request bad = spawn_req("bad", "model://disc_robot_m", -2.9, -1.9, 0); /* unknown cells */
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &bad, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    pb_sim_plan_request rq = {
        .entity = "bot", .goal = at(8.025, 4.725, 0), .planner = "birrt", .time_limit = 5, .seed = 2};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK && prs.n_path >= 2, "%s", prs.result.error_message);
    /* re-checked independently: the disc every 5 mm along every segment, against the map */
    pb_engine *engine = NULL;
    CHECK(pb_engine_load(&engine, NULL, map, NULL, 0, &d) == PB_OK);
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 0.25};
    bool free_path = engine && prs.n_path >= 2;
    for (size_t i = 1; engine && i < prs.n_path && free_path; i++) {
        const double *a = prs.path + 3 * (i - 1), *b = prs.path + 3 * i;
        const double len = hypot(b[0] - a[0], b[1] - a[1]);
        const int steps = (int)ceil(len / 0.005) + 1;
        for (int k = 0; k <= steps && free_path; k++) {
            const double t = (double)k / steps,
                         p[3] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), 0};
            pb_hit hit;
            free_path = pb_engine_footprint_check(engine, &disc, p, PB_OBSTACLE_NONE, &hit) == PB_OK &&
                        hit.kind == PB_HIT_NONE;
        }
    }
    CHECK(free_path);
    CHECK(prs.n_path >= 2 && fabs(prs.path[0] + 1.725) < 1e-9 &&
          fabs(prs.path[3 * (prs.n_path - 1)] - 8.025) < 0.3);
    pb_engine_destroy(engine);
    pb_sim_destroy(sim);
}

/* ---- /plan_path: the time cap is the server's; anytime planners honour the budget mode ---- */
static void test_plan_budget(void)
{
    char world[1100];
    snprintf(world, sizeof world, "%s/sim_room1.xml", worlds_dir);
    pb_sim *sim = make_sim(world, 0.5, NULL);
    CHECK(sim != NULL);
    spawn(sim, "bot", "model://disc_robot", 40, 40, 0);
    /* an easy goal (a free straight line): the first solution comes in milliseconds */
    pb_sim_plan_request rq = {.entity = "bot",
                              .goal = at(100, 40, 0),
                              .planner = "rrtstar",
                              .time_limit = 10,
                              .seed = 3,
                              .budget = true};
    pb_sim_plan_response rs;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    CHECK_MSG(rs.planning_time > 0.45 && rs.planning_time < 2.0,
              "budget mode plans for the capped 0.5 s: %g s", rs.planning_time);
    rq.budget = false;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && rs.planning_time < 0.4,
              "without budget rrtstar stops at its first solution: %g s", rs.planning_time);
    pb_sim_destroy(sim);
    pb_diag d = {0};
    CHECK(make_sim(world, 0, &d) == NULL && strstr(d.message, "plan time limit"));
}

int main(void)
{
    sim_fixture_init();
    test_exact_time();
    test_velocity_command();
    test_frames();
    test_scene_frames();
    test_publish();
    test_rosapi();
    test_joints();
    test_metric_map();
    test_plan_budget();
    return pb_test_summary("sim_topics");
}
