/* The simulation services as plain C functions, against the rules of
 * ../shared/spec/simulation-interfaces.md (section numbers in the comments), one function per
 * rule, no socket. The world is worlds/sim_room1.xml (maps/room1.png, 500 x 400 px): free at
 * (40, 40), (100, 40), (250, 200), (460, 365); border 5 px thick; a static crate_1 at (310, 30). */
#include "sim_fixture.h"
#include "sim/json_text.h"
#include "sim/rosbridge.h"

#include <float.h>
#include <jansson.h>
#include <stdlib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static pb_sim_spawn_request spawn_req(const char *name, const char *uri, double x, double y)
{
    return (pb_sim_spawn_request){.name = name, .uri = uri, .initial_pose = at(x, y, 0)};
}

/* Spawn and return the result code; the name (borrowed) in *out when not NULL. */
static int spawn(pb_sim *sim, const char *name, const char *uri, double x, double y, const char **out)
{
    pb_sim_spawn_request rq = spawn_req(name, uri, x, y);
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    if (out)
        *out = rs.entity_name;
    return rs.result.result;
}

static bool has_entity(pb_sim *sim, const char *name)
{
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, name, &r, &st);
    return r.result == PB_SIM_RESULT_OK;
}

static int set_state(pb_sim *sim, uint8_t target)
{
    pb_sim_result r;
    pb_sim_set_simulation_state(sim, target, &r);
    return r.result;
}

/* ---- §4.1, §5.1 feature discovery ---- */
static void test_features(void)
{
    pb_sim *sim = make();
    pb_sim_features f;
    pb_sim_get_features(sim, &f);
    bool sorted = true, has[64] = {false};
    for (size_t i = 0; i < f.n_features; i++) {
        sorted &= i == 0 || f.features[i - 1] < f.features[i];
        if (f.features[i] < 64)
            has[f.features[i]] = true;
    }
    CHECK(sorted);
    /* everything that works, including the action and batch spawning... */
    const int want[] = {0,  1,  2,  3,  4,  5,  6,  8,  9,  10, 11, 12, 13, 14, 20, 21,
                        22, 23, 24, 25, 26, 31, 32, 33, 40, 41, 42, 43, 44, 45, 50};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK_MSG(has[want[i]], "feature %d", want[i]);
    /* ...and not convex-hull filtering, which is not implemented */
    CHECK(!has[7]);
    CHECK(f.n_spawn_formats == 1 && strcmp(f.spawn_formats[0], "planbench-simrobot") == 0);
    pb_sim_destroy(sim);
}

/* ---- §3.14, §6.11 names ---- */
static void test_spawn_names(void)
{
    pb_sim *sim = make();
    const char *name;
    CHECK(spawn(sim, "bot", "model://disc_robot", 40, 40, &name) == PB_SIM_RESULT_OK && !strcmp(name, "bot"));
    CHECK(spawn(sim, "bot", "model://disc_robot", 100, 40, NULL) == PB_SIM_SPAWN_NAME_NOT_UNIQUE);
    pb_sim_spawn_request rq = spawn_req("bot", "model://disc_robot", 100, 40);
    rq.allow_renaming = true;
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.entity_name, "bot_1"));
    rq.initial_pose = at(140, 40, 0);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.entity_name, "bot_2"));
    /* the smallest free n */
    pb_sim_result r;
    pb_sim_delete_entity(sim, "bot_1", &r);
    rq.initial_pose = at(100, 40, 0);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.entity_name, "bot_1"));
    /* an empty name takes the resource's own name */
    CHECK(spawn(sim, "", "model://disc_robot", 40, 100, &name) == PB_SIM_RESULT_OK &&
          !strcmp(name, "disc_robot"));
    CHECK(spawn(sim, "", "model://disc_robot", 40, 140, NULL) == PB_SIM_SPAWN_NAME_NOT_UNIQUE);
    /* names that break the rules */
    CHECK(spawn(sim, "9lives", "model://disc_robot", 40, 140, NULL) == PB_SIM_SPAWN_NAME_INVALID);
    CHECK(spawn(sim, "a b", "model://disc_robot", 40, 140, NULL) == PB_SIM_SPAWN_NAME_INVALID);
    CHECK(spawn(sim, "a/b", "model://disc_robot", 40, 140, NULL) == PB_SIM_SPAWN_NAME_INVALID);
    /* namespaces are part of the name */
    rq = spawn_req("scout", "model://disc_robot", 100, 110);
    rq.entity_namespace = "/fleet";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.entity_name, "fleet/scout"));
    CHECK(has_entity(sim, "fleet/scout"));
    rq.entity_namespace = "fleet//x";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_NAMESPACE_INVALID);
    pb_sim_destroy(sim);
}

/* ---- §5.4, §6.8 resources ---- */
static void test_spawn_resources(void)
{
    pb_sim *sim = make();
    CHECK(spawn(sim, "x", "", 40, 40, NULL) == PB_SIM_SPAWN_NO_RESOURCE);
    CHECK(spawn(sim, "x", "model://unicorn", 40, 40, NULL) == PB_SIM_RESULT_NOT_FOUND);
    CHECK(spawn(sim, "x", "https://example.org/robot.sdf", 40, 40, NULL) == PB_SIM_SPAWN_UNSUPPORTED_FORMAT);
    /* the uri wins over a resource string */
    pb_sim_spawn_request rq = spawn_req("x", "model://disc_robot", 40, 40);
    rq.resource_string = "garbage";
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    /* a resource string is parsed (feature 9), a bad one is RESOURCE_PARSE_ERROR */
    rq = spawn_req("", "", 100, 40);
    rq.resource_string =
        "<simrobot name=\"pebble\" category=\"dynamic_object\"><disc radius=\"3\"/></simrobot>";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.entity_name, "pebble"));
    pb_sim_result r;
    pb_sim_entity_info info;
    pb_sim_get_entity_info(sim, "pebble", &r, &info);
    CHECK(info.category == PB_SIM_CATEGORY_DYNAMIC_OBJECT);
    rq.resource_string = "<simrobot name=\"p\"><disc radius=\"-3\"/></simrobot>";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_RESOURCE_PARSE_ERROR);
    rq.resource_string = "<world name=\"not ours\"/>";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_RESOURCE_PARSE_ERROR);
    pb_sim_destroy(sim);
}

/* ---- the C-space validation of spawn poses (issue 8) ---- */
static void test_spawn_cspace(void)
{
    pb_sim *sim = make();
    pb_sim_spawn_request rq = spawn_req("w", "model://disc_robot", 12, 40);
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
                  strstr(rs.result.error_message, "map at pixel (4,"),
              "%s", rs.result.error_message);
    rq = spawn_req("w", "model://car_robot", 480,
                   40); /* 20 px from the edge, half length 20: inside the border */
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    rq = spawn_req("w", "model://disc_robot", 496, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
          strstr(rs.result.error_message, "outside the map"));
    /* the static crate is an obstacle too, named in the message */
    rq = spawn_req("w", "model://disc_robot", 300, 30);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'crate_1'"));
    /* a spawned entity becomes an obstacle for the next; just clear of it is fine */
    CHECK(spawn(sim, "car", "model://car_robot", 250, 200, NULL) == PB_SIM_RESULT_OK);
    rq = spawn_req("w", "model://disc_robot", 278, 200);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'car'"));
    CHECK(spawn(sim, "w", "model://disc_robot", 278.01, 200, NULL) == PB_SIM_RESULT_OK);
    /* orientation matters for a rectangle: turned 90 degrees the car reaches y = 220 */
    rq = spawn_req("c2", "model://car_robot", 250, 240);
    pb_sim_spawn_entity(sim, &rq, &rs);
    const int flat = rs.result.result;
    pb_sim_result r;
    pb_sim_delete_entity(sim, "c2", &r);
    rq.initial_pose = at(250, 240, M_PI / 2);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(flat == PB_SIM_RESULT_OK && rs.result.result == PB_SIM_SPAWN_INVALID_POSE, "flat %d turned %d",
              flat, rs.result.result);
    pb_sim_destroy(sim);
}

/* ---- §5.5, §6.9, §6.10 poses and frames ---- */
static void test_spawn_pose_rules(void)
{
    pb_sim *sim = make();
    pb_sim_spawn_request rq = spawn_req("q", "model://disc_robot", 40, 40);
    pb_sim_spawn_response rs;
    rq.initial_pose.qw = 0; /* explicit all-zero quaternion */
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "quaternion"));
    rq.initial_pose.qw = 1.0005; /* within 1e-3: normalised */
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    rq = spawn_req("r", "model://disc_robot", 100, 40);
    rq.initial_pose.qx = sin(0.2);
    rq.initial_pose.qw = cos(0.2); /* a roll */
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    rq = spawn_req("r", "model://disc_robot", NAN, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    rq = spawn_req("r", "model://disc_robot", 100, 40);
    rq.frame_id = "mars";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
          strstr(rs.result.error_message, "unknown frame 'mars'"));
    rq.frame_id = "world";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    /* relative to an entity: 'q' is at (40, 40) turned by 90 degrees, so (60, -60) in its frame
     * is (100, 100) in the world */
    pb_sim_result r;
    pb_sim_set_state_request turn = {
        .entity = "q", .state = {.pose = at(40, 40, M_PI / 2)}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &turn, &r);
    rq = spawn_req("rel", "model://disc_robot", 60, -60);
    rq.frame_id = "q";
    pb_sim_spawn_entity(sim, &rq, &rs);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "rel", &r, &st);
    CHECK_MSG(r.result == PB_SIM_RESULT_OK && fabs(st.pose.position.x - 100) < 1e-9 &&
                  fabs(st.pose.position.y - 100) < 1e-9,
              "%s: %g %g", rs.result.error_message, st.pose.position.x, st.pose.position.y);
    /* the yaw comes back as the quaternion's rotation about z */
    rq = spawn_req("yaw", "model://car_robot", 250, 200);
    rq.initial_pose = at(250, 200, 0.5);
    pb_sim_spawn_entity(sim, &rq, &rs);
    pb_sim_get_entity_state(sim, "yaw", &r, &st);
    CHECK_NEAR(2 * atan2(st.pose.qz, st.pose.qw), 0.5, 1e-12);
    CHECK(strcmp(st.frame_id, "world") == 0);
    pb_sim_destroy(sim);
}

/* ---- §4.3 SpawnEntities ---- */
static void test_spawn_entities(void)
{
    pb_sim *sim = make();
    pb_sim_spawn_request rq[3] = {spawn_req("a", "model://disc_robot", 40, 40),
                                  spawn_req("b", "model://disc_robot", 2, 2),
                                  spawn_req("c", "model://disc_robot", 100, 40)};
    pb_sim_spawn_response rs[3];
    pb_sim_result r;
    pb_sim_spawn_entities(sim, rq, 3, rs, &r);
    CHECK(r.result == PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED);
    CHECK(rs[0].result.result == PB_SIM_RESULT_OK && rs[1].result.result == PB_SIM_SPAWN_INVALID_POSE &&
          rs[2].result.result == PB_SIM_RESULT_OK && !strcmp(rs[2].entity_name, "c"));
    /* not atomic: the good ones stay */
    CHECK(has_entity(sim, "a") && has_entity(sim, "c") && !has_entity(sim, "b"));
    pb_sim_spawn_request ok[1] = {spawn_req("d", "model://disc_robot", 140, 40)};
    pb_sim_spawn_entities(sim, ok, 1, rs, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_spawn_entities(sim, NULL, 0, rs, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_destroy(sim);
}

/* ---- §4.4, §6.14 DeleteEntity ---- */
static void test_delete(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_delete_entity(sim, "bot", &r);
    CHECK(r.result == PB_SIM_RESULT_OK && !has_entity(sim, "bot"));
    pb_sim_delete_entity(sim, "bot", &r);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    /* the world's static crate is protected; a spawned crate is not */
    pb_sim_delete_entity(sim, "crate_1", &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && has_entity(sim, "crate_1"));
    spawn(sim, "box", "model://crate", 40, 40, NULL);
    pb_sim_delete_entity(sim, "box", &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    /* a deleted entity no longer blocks */
    CHECK(spawn(sim, "again", "model://disc_robot", 40, 40, NULL) == PB_SIM_RESULT_OK);
    pb_sim_destroy(sim);
}

/* ---- §3.11, §6.6 EntityFilters ---- */
static size_t count(pb_sim *sim, const pb_sim_entity_filters *f, uint8_t *result)
{
    pb_sim_result r;
    const char *const *names;
    size_t n;
    pb_sim_get_entities(sim, f, &r, &names, &n);
    *result = r.result;
    return n;
}

static void test_filters(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot_a", "model://disc_robot", 40, 40, NULL);
    spawn(sim, "bot_b", "model://disc_robot", 100, 40, NULL);
    spawn(sim, "car", "model://car_robot", 250, 200, NULL);
    uint8_t res;
    CHECK(count(sim, NULL, &res) == 4 && res == PB_SIM_RESULT_OK);
    /* regex: POSIX extended, search semantics */
    pb_sim_entity_filters f = {.filter = "bot"};
    CHECK(count(sim, &f, &res) == 2);
    f.filter = "^(car|crate_[0-9]+)$";
    CHECK(count(sim, &f, &res) == 2);
    f.filter = "[";
    CHECK(count(sim, &f, &res) == 0 && res == PB_SIM_RESULT_OPERATION_FAILED);
    /* categories */
    const uint8_t statics[] = {PB_SIM_CATEGORY_STATIC_OBJECT};
    f = (pb_sim_entity_filters){.categories = statics, .n_categories = 1};
    CHECK(count(sim, &f, &res) == 1);
    /* tags: ANY and ALL */
    const char *const tags[] = {"disc", "car"};
    f = (pb_sim_entity_filters){.tags = {tags, 2, PB_SIM_FILTER_ANY}};
    CHECK(count(sim, &f, &res) == 3);
    f.tags.filter_mode = PB_SIM_FILTER_ALL;
    CHECK(count(sim, &f, &res) == 0);
    f.tags.filter_mode = 7;
    CHECK(count(sim, &f, &res) == 0 && res == PB_SIM_RESULT_OPERATION_FAILED);
    /* bounds: a sphere around bot_a touching nothing else; a box given max corner first */
    f = (pb_sim_entity_filters){.bounds = {.type = PB_SIM_BOUNDS_SPHERE, .n_points = 2}};
    f.bounds.points[0] = (pb_sim_vec3){30, 40, 0};
    f.bounds.points[1] = (pb_sim_vec3){5, 0, 0};
    CHECK(count(sim, &f, &res) == 1 && res == PB_SIM_RESULT_OK);
    f.bounds.points[1].x = 2; /* 10 px from bot_a's centre, radius 8 + 2: touching counts */
    CHECK(count(sim, &f, &res) == 1);
    f.bounds.points[1].x = 1.9;
    CHECK(count(sim, &f, &res) == 0);
    f.bounds = (pb_sim_bounds){.type = PB_SIM_BOUNDS_BOX, .n_points = 2};
    f.bounds.points[0] = (pb_sim_vec3){120, 60, 1};
    f.bounds.points[1] = (pb_sim_vec3){0, 0, -1};
    CHECK(count(sim, &f, &res) == 2);
    f.bounds.type = PB_SIM_BOUNDS_CONVEX_HULL;
    f.bounds.n_points = 3;
    CHECK(count(sim, &f, &res) == 0 && res == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    f.bounds.type = 9;
    CHECK(count(sim, &f, &res) == 0 && res == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    /* GetEntitiesStates: parallel arrays */
    f = (pb_sim_entity_filters){.filter = "^bot_b$"};
    pb_sim_result r;
    const char *const *names;
    const pb_sim_entity_state *states;
    size_t n;
    pb_sim_get_entities_states(sim, &f, &r, &names, &states, &n);
    CHECK(n == 1 && !strcmp(names[0], "bot_b") && states[0].pose.position.x == 100.0);
    pb_sim_destroy(sim);
}

/* ---- §4.8, §1 item 3, §5.6, §6.12 SetEntityState ---- */
static void test_set_state(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_result r;
    /* 1.x shape: pose and twist applied */
    pb_sim_set_state_request rq = {.entity = "bot", .state = {.pose = at(100, 40, 0)}};
    rq.state.twist.linear.x = 3;
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK(st.pose.position.x == 100 && st.twist.linear.x == 3);
    /* 2.1: only what the flags say */
    rq = (pb_sim_set_state_request){
        .entity = "bot", .state = {.pose = at(140, 40, 0)}, .has_flags = true, .set_twist = true};
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK(r.result == PB_SIM_RESULT_OK && st.pose.position.x == 100 && st.twist.linear.x == 0);
    /* every flag false: OK, nothing changes */
    rq = (pb_sim_set_state_request){.entity = "bot", .state = {.pose = at(2, 2, 0)}, .has_flags = true};
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && x_of(sim, "bot") == 100);
    /* into a wall or another entity: INVALID_POSE (101) naming it, and the entity stays */
    rq = (pb_sim_set_state_request){
        .entity = "bot", .state = {.pose = at(2, 2, 0)}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE && x_of(sim, "bot") == 100);
    spawn(sim, "other", "model://disc_robot", 140, 40, NULL);
    rq.state.pose = at(130, 40, 0);
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE && strstr(r.error_message, "'other'"));
    /* its own footprint does not block it: a small move overlapping its old place is fine */
    rq.state.pose = at(103, 40, 0);
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && x_of(sim, "bot") == 103);
    rq.state.pose.qw = 0;
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE);
    /* static objects: a twist fails, a new pose is fine */
    rq = (pb_sim_set_state_request){.entity = "crate_1", .has_flags = true, .set_twist = true};
    rq.state.twist.angular.z = 0.1;
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    rq = (pb_sim_set_state_request){
        .entity = "crate_1", .state = {.pose = at(320, 30, 0)}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && x_of(sim, "crate_1") == 320);
    /* planar only; accelerations are not simulated */
    rq = (pb_sim_set_state_request){.entity = "bot", .has_flags = true, .set_twist = true};
    rq.state.twist.linear.z = 1;
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    rq = (pb_sim_set_state_request){.entity = "bot", .has_flags = true, .set_acceleration = true};
    rq.state.acceleration.linear.x = 1;
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    rq.entity = "ghost";
    pb_sim_set_entity_state(sim, &rq, &r);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    pb_sim_destroy(sim);
}

/* ---- §4.9 entity info, §4.10 bounds, lifecycle events ---- */
static int events[3];
static void on_event(pb_sim_event_kind kind, const char *entity, void *payload)
{
    (void)entity, (void)payload;
    events[kind]++;
}

static void test_info_bounds_events(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_entity_info info;
    pb_sim_get_entity_info(sim, "bot", &r, &info);
    CHECK(r.result == PB_SIM_RESULT_OK && info.category == PB_SIM_CATEGORY_ROBOT && info.n_tags == 3);
    const char *const tags[] = {"red"};
    const pb_sim_entity_info set = {PB_SIM_CATEGORY_HUMAN, "a person now", tags, 1};
    pb_sim_set_entity_info(sim, "bot", &set, &r);
    pb_sim_get_entity_info(sim, "bot", &r, &info);
    CHECK(info.category == PB_SIM_CATEGORY_HUMAN && !strcmp(info.description, "a person now") &&
          info.n_tags == 1 && !strcmp(info.tags[0], "red"));
    const pb_sim_entity_info bad = {3, "", NULL, 0};
    pb_sim_set_entity_info(sim, "bot", &bad, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    pb_sim_set_entity_info(sim, "ghost", &set, &r);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    pb_sim_get_entity_info(sim, "ghost", &r, &info);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    /* bounds: a box [min, max] in the entity's frame */
    pb_sim_bounds b;
    spawn(sim, "car", "model://car_robot", 250, 200, NULL);
    pb_sim_get_entity_bounds(sim, "car", &r, &b);
    CHECK(r.result == PB_SIM_RESULT_OK && b.type == PB_SIM_BOUNDS_BOX && b.n_points == 2);
    CHECK_NEAR(b.points[0].x, -20, 1e-12);
    CHECK_NEAR(b.points[1].y, 10, 1e-12);
    pb_sim_get_entity_bounds(sim, "ghost", &r, &b);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    /* events in order: created bot, info changed, created car, then a delete */
    pb_sim_delete_entity(sim, "car", &r);
    memset(events, 0, sizeof events);
    pb_sim_drain_events(sim, on_event, NULL);
    CHECK(events[PB_SIM_EVENT_CREATED] == 2 && events[PB_SIM_EVENT_INFO_CHANGED] == 1 &&
          events[PB_SIM_EVENT_DELETED] == 1);
    memset(events, 0, sizeof events);
    pb_sim_drain_events(sim, on_event, NULL);
    CHECK(events[0] + events[1] + events[2] == 0);
    pb_sim_destroy(sim);
}

/* ---- §4.11, §4.12 named poses and spawnables ---- */
static void test_named_poses_spawnables(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    const pb_sim_named_pose *poses;
    size_t n;
    pb_sim_get_named_poses(sim, NULL, &r, &poses, &n);
    CHECK(r.result == PB_SIM_RESULT_OK && n == 3);
    const char *const dock[] = {"dock"}, *const two[] = {"spawn", "dock"};
    pb_sim_tags_filter t = {dock, 1, PB_SIM_FILTER_ANY};
    pb_sim_get_named_poses(sim, &t, &r, &poses, &n);
    CHECK(n == 2);
    t = (pb_sim_tags_filter){two, 2, PB_SIM_FILTER_ALL};
    pb_sim_get_named_poses(sim, &t, &r, &poses, &n);
    CHECK(n == 1 && !strcmp(poses[0].name, "dock_a") && poses[0].pose.position.x == 40);
    pb_sim_bounds b;
    pb_sim_get_named_pose_bounds(sim, "dock_a", &r, &b);
    CHECK(r.result == PB_SIM_RESULT_OK && b.type == PB_SIM_BOUNDS_SPHERE && b.points[1].x == 15);
    pb_sim_get_named_pose_bounds(sim, "corridor", &r, &b);
    CHECK(b.type == PB_SIM_BOUNDS_BOX && b.points[0].x == 220 && b.points[1].y == 215);
    pb_sim_get_named_pose_bounds(sim, "dock_b", &r, &b);
    CHECK(r.result == PB_SIM_RESULT_OK && b.type == PB_SIM_BOUNDS_EMPTY);
    pb_sim_get_named_pose_bounds(sim, "nowhere", &r, &b);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    /* spawnables, with unrecognised sources named but not failing */
    const pb_sim_spawnable *sp;
    const char *const sources[] = {"s3://bucket"};
    pb_sim_get_spawnables(sim, sources, 1, &r, &sp, &n);
    CHECK(r.result == PB_SIM_RESULT_OK && n == 4 && strstr(r.error_message, "s3://bucket"));
    bool disc = false;
    for (size_t i = 0; i < n; i++)
        disc |= !strcmp(sp[i].uri, "model://disc_robot") && sp[i].spawn_bounds.type == PB_SIM_BOUNDS_BOX &&
                sp[i].spawn_bounds.points[1].x == 8;
    CHECK(disc);
    /* every spawnable spawns at a named pose made for it */
    CHECK(spawn(sim, "", "model://car_robot", 250, 200, NULL) == PB_SIM_RESULT_OK);
    pb_sim_destroy(sim);
}

/* ---- §5.1, §6.2, §6.4 the state machine ---- */
static void test_state_machine(void)
{
    pb_sim *sim = make();
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_STOPPED);
    CHECK(set_state(sim, PB_SIM_STATE_STOPPED) == PB_SIM_ALREADY_IN_TARGET_STATE);
    CHECK(set_state(sim, PB_SIM_STATE_PAUSED) == PB_SIM_RESULT_OK); /* allowed (§6.2) */
    CHECK(set_state(sim, PB_SIM_STATE_PAUSED) == PB_SIM_ALREADY_IN_TARGET_STATE);
    CHECK(set_state(sim, PB_SIM_STATE_PLAYING) == PB_SIM_RESULT_OK);
    CHECK(set_state(sim, PB_SIM_STATE_PLAYING) == PB_SIM_ALREADY_IN_TARGET_STATE);
    CHECK(set_state(sim, PB_SIM_STATE_NO_WORLD) == PB_SIM_INCORRECT_TRANSITION);
    CHECK(set_state(sim, PB_SIM_STATE_LOADING_WORLD) == PB_SIM_INCORRECT_TRANSITION);
    CHECK(set_state(sim, 6) == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_PLAYING);
    /* PLAYING -> STOPPED = pause + reset ALL */
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_step_once(sim);
    CHECK(set_state(sim, PB_SIM_STATE_STOPPED) == PB_SIM_RESULT_OK);
    CHECK(!has_entity(sim, "bot") && pb_sim_time(sim) == 0.0 && has_entity(sim, "crate_1"));
    /* QUITTING from PAUSED: stop first, then quit */
    set_state(sim, PB_SIM_STATE_PAUSED);
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    CHECK(set_state(sim, PB_SIM_STATE_QUITTING) == PB_SIM_RESULT_OK);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_QUITTING && !has_entity(sim, "bot"));
    CHECK(set_state(sim, PB_SIM_STATE_PLAYING) == PB_SIM_INCORRECT_TRANSITION);
    pb_sim_destroy(sim);
    /* NO_WORLD cannot be started, stopped or paused */
    sim = make();
    pb_sim_result r;
    pb_sim_unload_world(sim, &r);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_NO_WORLD);
    CHECK(set_state(sim, PB_SIM_STATE_PLAYING) == PB_SIM_INCORRECT_TRANSITION);
    CHECK(set_state(sim, PB_SIM_STATE_PAUSED) == PB_SIM_INCORRECT_TRANSITION);
    CHECK(set_state(sim, PB_SIM_STATE_STOPPED) == PB_SIM_INCORRECT_TRANSITION);
    CHECK(spawn(sim, "bot", "model://disc_robot", 40, 40, NULL) == PB_SIM_RESULT_OPERATION_FAILED);
    uint8_t state;
    pb_sim_get_simulation_state(sim, &r, &state);
    CHECK(r.result == PB_SIM_RESULT_OK && state == PB_SIM_STATE_NO_WORLD);
    pb_sim_destroy(sim);
}

/* ---- §4.15, §6.5 ResetSimulation ---- */
static void test_reset(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    set_state(sim, PB_SIM_STATE_PAUSED);
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_set_state_request rq = {.entity = "bot", .has_flags = true, .set_twist = true};
    rq.state.twist.linear.x = 20;
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_step_simulation(sim, 10, &r);
    CHECK(x_of(sim, "bot") == 50 && pb_sim_time(sim) > 0.49);
    /* TIME only */
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_TIME, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_time(sim) == 0.0 && x_of(sim, "bot") == 50);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_PAUSED); /* partial scopes keep the play state */
    /* STATE: poses and twists back to the start, spawned entities stay */
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_STATE, &r);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK(st.pose.position.x == 40 && st.twist.linear.x == 0);
    /* a start pose taken by another entity: the entity keeps its pose, and is named */
    rq = (pb_sim_set_state_request){
        .entity = "bot", .state = {.pose = at(100, 40, 0)}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &rq, &r);
    spawn(sim, "squatter", "model://disc_robot", 40, 40, NULL);
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_STATE, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && x_of(sim, "bot") == 100 && strstr(r.error_message, "'bot'"));
    /* SPAWNED */
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_SPAWNED, &r);
    CHECK(!has_entity(sim, "bot") && !has_entity(sim, "squatter") && has_entity(sim, "crate_1"));
    /* unsupported bits; DEFAULT = ALL ends STOPPED */
    pb_sim_reset_simulation(sim, 8, &r);
    CHECK(r.result == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_DEFAULT, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_state(sim) == PB_SIM_STATE_STOPPED);
    pb_sim_unload_world(sim, &r);
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_ALL, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    pb_sim_destroy(sim);
}

/* ---- §4.16, §4.17, §5.7, §6.1, §6.3, §6.13, §6.15 stepping ---- */
static void test_stepping(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    pb_sim_step_simulation(sim, 0, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_state(sim) == PB_SIM_STATE_STOPPED &&
          pb_sim_time(sim) == 0.0);
    pb_sim_step_simulation(sim, 3, &r); /* from STOPPED: allowed, ends PAUSED */
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_state(sim) == PB_SIM_STATE_PAUSED);
    CHECK_NEAR(pb_sim_time(sim), 3 * pb_sim_time_step(sim), 1e-12);
    set_state(sim, PB_SIM_STATE_PLAYING);
    pb_sim_step_simulation(sim, 1, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(r.error_message, "paused"));
    CHECK(!pb_sim_steps_begin(sim, 5, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    set_state(sim, PB_SIM_STATE_PAUSED);
    pb_sim_step_simulation(sim, UINT64_MAX, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    /* the action's pieces */
    const double t0 = pb_sim_time(sim);
    CHECK(pb_sim_steps_begin(sim, 4, &r) && r.result == PB_SIM_RESULT_OK);
    for (int i = 0; i < 4; i++)
        pb_sim_step_once(sim);
    pb_sim_steps_end(sim);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_PAUSED);
    CHECK_NEAR(pb_sim_time(sim) - t0, 4 * pb_sim_time_step(sim), 1e-12);
    pb_sim_destroy(sim);
}

/* ---- motion under a twist; a collision stops the entity at the last free pose ---- */
static void test_motion(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    spawn(sim, "wall_bot", "model://disc_robot", 100, 40, NULL);
    pb_sim_set_state_request rq = {.entity = "bot", .has_flags = true, .set_twist = true};
    rq.state.twist.linear.x = 100; /* 5 px per step */
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_step_simulation(sim, 4, &r);
    CHECK(x_of(sim, "bot") == 60);
    pb_sim_step_simulation(sim, 10, &r);
    /* stopped just short of wall_bot (centres 16 px apart when touching) */
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK_MSG(st.pose.position.x < 84.0 && st.pose.position.x > 83.9 && st.twist.linear.x == 0, "x %.6f",
              st.pose.position.x);
    /* the map stops it too: westwards into the border (free from x = 5, radius 8) */
    rq.state.twist.linear.x = -100;
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_step_simulation(sim, 30, &r);
    CHECK_MSG(x_of(sim, "bot") >= 13.0 && x_of(sim, "bot") < 13.1, "x %.6f", x_of(sim, "bot"));
    /* rotation in place */
    rq.state.twist = (pb_sim_twist){{0, 0, 0}, {0, 0, 1}};
    pb_sim_set_entity_state(sim, &rq, &r);
    pb_sim_step_simulation(sim, 10, &r);
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK_NEAR(2 * atan2(st.pose.qz, st.pose.qw), 0.5, 1e-9);
    pb_sim_destroy(sim);
}

/* ---- §4.18 worlds ---- */
static void test_worlds(void)
{
    pb_sim *sim = make();
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_get_current_world(sim, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK && !strcmp(w.name, "room1") && !strcmp(w.uri, "world://room1"));
    const pb_sim_world_info *worlds;
    size_t n;
    pb_sim_get_available_worlds(sim, NULL, &r, &worlds, &n);
    CHECK(r.result == PB_SIM_RESULT_OK && n == 4); /* arm_table, forest, room1, wall40 */
    const char *const outdoor[] = {"outdoor"};
    pb_sim_tags_filter t = {outdoor, 1, PB_SIM_FILTER_ANY};
    pb_sim_get_available_worlds(sim, &t, &r, &worlds, &n);
    CHECK(n == 1 && !strcmp(worlds[0].name, "forest"));
    /* loading replaces the world, removes every entity, ends STOPPED */
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    set_state(sim, PB_SIM_STATE_PLAYING);
    pb_sim_load_world(sim, "world://forest", NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK && !strcmp(w.name, "forest") && pb_sim_entity_count(sim) == 0 &&
          pb_sim_state(sim) == PB_SIM_STATE_STOPPED);
    pb_sim_load_world(sim, "world://atlantis", NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);
    pb_sim_load_world(sim, "ftp://x/world.xml", NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_UNSUPPORTED_FORMAT);
    pb_sim_load_world(sim, "/tmp/world.sdf", NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_UNSUPPORTED_FORMAT);
    pb_sim_load_world(sim, "", "", false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_NO_RESOURCE);
    pb_sim_load_world(sim, "", "<simworld name=\"x\">", false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_RESOURCE_PARSE_ERROR);
    /* a failed load leaves the current world alone */
    pb_sim_get_current_world(sim, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK && !strcmp(w.name, "forest"));
    pb_sim_load_world(sim, "", "<simworld name=\"x\"><map image=\"no_such.png\"/></simworld>", false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_MISSING_ASSETS);
    /* a world as a string (feature 41), with an element we do not know: ignored unless strict */
    const char *text =
        "<simworld name=\"s\" tags=\"t\"><map image=\"../maps/room1.png\"/><gravity/></simworld>";
    pb_sim_load_world(sim, "", text, true, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_UNSUPPORTED_ELEMENTS);
    pb_sim_load_world(sim, "", text, false, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK && !strcmp(w.name, "s") && w.n_tags == 1);
    /* unload */
    pb_sim_unload_world(sim, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_state(sim) == PB_SIM_STATE_NO_WORLD);
    pb_sim_unload_world(sim, &r);
    CHECK(r.result == PB_SIM_NO_WORLD_LOADED);
    pb_sim_get_current_world(sim, &r, &w);
    CHECK(r.result == PB_SIM_NO_WORLD_LOADED);
    pb_sim_destroy(sim);
}

/* ---- /plan_path: the path is re-validated here, independently, on a fresh engine ---- */
static bool path_valid(const double *path, size_t n, double radius, const double *crate)
{
    char map[1100];
    snprintf(map, sizeof map, "%s/../maps/room1.png", worlds_dir);
    pb_engine *e = NULL;
    if (pb_engine_load(&e, "image2d", map, NULL, 0, NULL) != PB_OK)
        return false;
    const pb_footprint box = {.type = PB_FOOTPRINT_RECT, .half_length = 8, .half_width = 8};
    uint32_t id;
    pb_engine_obstacle_add(&id, e, &box, crate);
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = radius};
    bool ok = true;
    for (size_t i = 0; i + 1 < n && ok; i++) {
        const double *a = path + 3 * i, *b = path + 3 * i + 3;
        const int m = (int)ceil(hypot(b[0] - a[0], b[1] - a[1]) / 0.25) + 1;
        for (int k = 0; k <= m && ok; k++) {
            const double t = (double)k / m, q[3] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), 0};
            pb_hit hit;
            ok = pb_engine_footprint_check(e, &disc, q, PB_OBSTACLE_NONE, &hit) == PB_OK &&
                 hit.kind == PB_HIT_NONE;
        }
    }
    pb_engine_destroy(e);
    return ok;
}

static void test_plan_path(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_plan_request rq = {
        .entity = "bot", .goal_name = "dock_b", .planner = "birrt", .time_limit = 5, .seed = 7};
    pb_sim_plan_response rs;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && !strcmp(rs.outcome, "exact"), "%s",
              rs.result.error_message);
    CHECK(rs.n_path >= 2 && rs.path[0] == 40 && rs.path[1] == 40);
    CHECK(rs.path[3 * rs.n_path - 3] == 460 && rs.path[3 * rs.n_path - 2] == 365);
    const double crate[3] = {310, 30, 0};
    CHECK(path_valid(rs.path, rs.n_path, 8, crate));
    /* a fixed seed gives the same path */
    double first[3 * 64];
    const size_t n_first = rs.n_path < 64 ? rs.n_path : 64;
    memcpy(first, rs.path, n_first * 3 * sizeof(double));
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.n_path == n_first && memcmp(first, rs.path, n_first * 3 * sizeof(double)) == 0);
    /* bad requests */
    rq.goal_name = "nowhere";
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_NOT_FOUND);
    rq.goal_name = "";
    rq.goal = at(2, 2, 0);
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED && !strcmp(rs.outcome, "invalid_goal"));
    rq.goal = at(100, 40, 0);
    rq.planner = "no_such_planner";
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_NOT_FOUND);
    rq.entity = "crate_1";
    rq.planner = "";
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED);
    /* follow: the entity moves along the path as the simulation steps and ends at the goal */
    rq = (pb_sim_plan_request){.entity = "bot",
                               .goal_name = "dock_b",
                               .planner = "birrt",
                               .time_limit = 5,
                               .seed = 7,
                               .follow = true,
                               .speed = 200};
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(pb_sim_is_following(sim, "bot"));
    pb_sim_result r;
    pb_sim_step_simulation(sim, 1, &r);
    CHECK(x_of(sim, "bot") != 40);
    pb_sim_step_simulation(sim, 2000, &r);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK(!pb_sim_is_following(sim, "bot") && st.pose.position.x == 460 && st.pose.position.y == 365);
    /* the stick arm plans in (x, y, yaw, joint2); the path with its joint values passes
     * FollowPath's waypoint and segment checks (more in tests/sim/test_sim_plan.c) */
    spawn(sim, "arm", "model://stick_arm", 40, 40, NULL);
    rq = (pb_sim_plan_request){.entity = "arm", .goal = at(40, 110, 0), .planner = "birrt", .time_limit = 5};
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && rs.n_path >= 2, "%s", rs.result.error_message);
    pb_sim_pose arm_path[256];
    const size_t n_arm = rs.n_path < 256 ? rs.n_path : 256;
    for (size_t i = 0; i < n_arm; i++)
        arm_path[i] = at(rs.path[3 * i], rs.path[3 * i + 1], rs.path[3 * i + 2]);
    const pb_sim_follow_request arm_follow = {"arm", arm_path, n_arm, 0};
    uint64_t arm_goal = 0;
    CHECK_MSG(rs.n_joints == 1 && pb_sim_follow_begin_joints(&arm_goal, sim, &arm_follow, rs.joints, 1, &r),
              "%s", r.error_message);
    pb_sim_follow_cancel(sim, arm_goal);
    /* the car (a rectangle) plans in (x, y, yaw) */
    spawn(sim, "car", "model://car_robot", 250, 200, NULL);
    rq = (pb_sim_plan_request){.entity = "car", .goal = at(400, 200, 0), .planner = "birrt", .time_limit = 5};
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    pb_sim_destroy(sim);
}

/* ---- the /follow_path action (docs/sim.md) ---- */

/* Follow `n` waypoints to the end or `max_steps`; every pose along the way is re-checked on
 * an independent copy of the map (crate and `other` as obstacles); feedback must make
 * progress: the waypoint index never goes back, the distance left never grows. */
static pb_sim_follow_status follow_checked(pb_sim *sim, uint64_t goal, uint64_t max_steps,
                                           const double *other, uint64_t *steps, bool *progress,
                                           bool *all_free, pb_sim_result *r)
{
    char map[1100];
    snprintf(map, sizeof map, "%s/../maps/room1.png", worlds_dir);
    pb_engine *e = NULL;
    *all_free = pb_engine_load(&e, "image2d", map, NULL, 0, NULL) == PB_OK;
    const pb_footprint box = {.type = PB_FOOTPRINT_RECT, .half_length = 8, .half_width = 8};
    const double crate[3] = {310, 30, 0};
    uint32_t id;
    if (e)
        pb_engine_obstacle_add(&id, e, &box, crate);
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 8};
    if (e && other)
        pb_engine_obstacle_add(&id, e, &disc, other);
    pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
    uint32_t last_wp = 0;
    double last_left = INFINITY;
    *progress = true;
    *steps = 0;
    pb_sim_follow_feedback fb = {.pose = at(40, 40, 0)};
    while (fs == PB_SIM_FOLLOW_RUNNING && *steps < max_steps) {
        fs = pb_sim_follow_step(sim, goal, &fb, r);
        ++*steps;
        if (fs == PB_SIM_FOLLOW_RUNNING) {
            *progress = *progress && fb.waypoint >= last_wp && fb.distance_remaining <= last_left + 1e-9;
            last_wp = fb.waypoint;
            last_left = fb.distance_remaining;
        }
        const double q[3] = {fb.pose.position.x, fb.pose.position.y, 0};
        pb_hit hit;
        *all_free = *all_free && pb_engine_footprint_check(e, &disc, q, PB_OBSTACLE_NONE, &hit) == PB_OK &&
                    hit.kind == PB_HIT_NONE;
    }
    pb_engine_destroy(e);
    return fs;
}

static void test_follow_action(void)
{
    pb_sim *sim = make();
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_plan_request prq = {
        .entity = "bot", .goal_name = "dock_b", .planner = "birrt", .time_limit = 5, .seed = 7};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &prq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK && prs.n_path >= 2, "%s", prs.result.error_message);
    pb_sim_pose path[256];
    const size_t n = prs.n_path < 256 ? prs.n_path : 256;
    double length = 0;
    for (size_t i = 0; i < n; i++) {
        path[i] = at(prs.path[3 * i], prs.path[3 * i + 1], prs.path[3 * i + 2]);
        if (i > 0)
            length += hypot(prs.path[3 * i] - prs.path[3 * i - 3], prs.path[3 * i + 1] - prs.path[3 * i - 2]);
    }
    CHECK(!pb_sim_is_following(sim, "bot")); /* planning alone does not move it */
    /* the action follows the whole path: every pose free, progress in every feedback, at the
     * goal within the steps the speed allows, simulated time advanced by one step each */
    pb_sim_result r;
    uint64_t goal = 0, steps = 0;
    const pb_sim_follow_request rq = {"bot", path, n, 200};
    CHECK_MSG(pb_sim_follow_begin(&goal, sim, &rq, &r), "%s", r.error_message);
    CHECK(goal != 0 && pb_sim_is_following(sim, "bot"));
    const double t0 = pb_sim_time(sim);
    bool progress, all_free;
    pb_sim_follow_status fs = follow_checked(sim, goal, 100000, NULL, &steps, &progress, &all_free, &r);
    pb_sim_steps_end(sim);
    CHECK_MSG(fs == PB_SIM_FOLLOW_REACHED && r.result == PB_SIM_RESULT_OK, "%d %s", (int)fs, r.error_message);
    CHECK(progress && all_free);
    const double per_step = 200 * pb_sim_time_step(sim);
    CHECK_MSG(steps >= (uint64_t)floor(length / per_step) && steps <= (uint64_t)ceil(length / per_step) + n,
              "%llu steps for %.1f px", (unsigned long long)steps, length);
    CHECK(fabs(pb_sim_time(sim) - t0 - (double)steps * pb_sim_time_step(sim)) < 1e-9);
    CHECK(x_of(sim, "bot") == 460 && !pb_sim_is_following(sim, "bot"));
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_PAUSED);
    /* another entity in the way: the follower stops at the last free pose, aborted, named why */
    pb_sim_set_state_request home = {
        .entity = "bot", .state = {.pose = at(40, 40, 0)}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &home, &r);
    CHECK(spawn(sim, "blocker", "model://disc_robot", 135, 40, NULL) == PB_SIM_RESULT_OK);
    const pb_sim_pose line[2] = {at(40, 40, 0), at(135, 40, 0)};
    const pb_sim_follow_request through = {"bot", line, 2, 100};
    /* a waypoint on another entity is refused up front, naming it */
    CHECK(!pb_sim_follow_begin(&goal, sim, &through, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED &&
          strstr(r.error_message, "'blocker'"));
    pb_sim_delete_entity(sim, "blocker", &r);
    CHECK_MSG(pb_sim_follow_begin(&goal, sim, &through, &r), "%s", r.error_message);
    CHECK(spawn(sim, "blocker", "model://disc_robot", 100, 40, NULL) == PB_SIM_RESULT_OK);
    const double blocker[3] = {100, 40, 0};
    fs = follow_checked(sim, goal, 1000, blocker, &steps, &progress, &all_free, &r);
    CHECK_MSG(fs == PB_SIM_FOLLOW_STOPPED && strstr(r.error_message, "collision"), "%s", r.error_message);
    CHECK(all_free && x_of(sim, "bot") < 100 - 16 && x_of(sim, "bot") > 80 - 1e-6);
    CHECK(!pb_sim_is_following(sim, "bot"));
    pb_sim_delete_entity(sim, "blocker", &r);
    /* a teleport, a second goal for the same entity, a deletion, a cancel: each ends the goal */
    pb_sim_set_entity_state(sim, &home, &r);
    CHECK(pb_sim_follow_begin(&goal, sim, &through, &r));
    CHECK(pb_sim_follow_step(sim, goal, NULL, &r) == PB_SIM_FOLLOW_RUNNING);
    pb_sim_set_entity_state(sim, &home, &r);
    fs = pb_sim_follow_step(sim, goal, NULL, &r);
    CHECK_MSG(fs == PB_SIM_FOLLOW_STOPPED && strstr(r.error_message, "teleported"), "%s", r.error_message);
    CHECK(x_of(sim, "bot") == 40);
    uint64_t second = 0;
    CHECK(pb_sim_follow_begin(&goal, sim, &through, &r) && pb_sim_follow_begin(&second, sim, &through, &r));
    CHECK(second != goal && pb_sim_follow_step(sim, goal, NULL, &r) == PB_SIM_FOLLOW_STOPPED);
    CHECK(pb_sim_follow_step(sim, second, NULL, &r) == PB_SIM_FOLLOW_RUNNING);
    const double before_cancel = x_of(sim, "bot");
    pb_sim_follow_cancel(sim, second);
    CHECK(!pb_sim_is_following(sim, "bot"));
    CHECK(pb_sim_follow_step(sim, second, NULL, &r) == PB_SIM_FOLLOW_STOPPED &&
          x_of(sim, "bot") == before_cancel);
    CHECK(pb_sim_follow_begin(&goal, sim, &through, &r));
    pb_sim_delete_entity(sim, "bot", &r);
    CHECK(pb_sim_follow_step(sim, goal, NULL, &r) == PB_SIM_FOLLOW_STOPPED);
    /* bad goals */
    spawn(sim, "bot", "model://disc_robot", 40, 40, NULL);
    pb_sim_follow_request bad = {"nobody", line, 2, 0};
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && r.result == PB_SIM_RESULT_NOT_FOUND && goal == 0);
    bad.entity = "crate_1";
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    bad = (pb_sim_follow_request){"bot", line, 0, 0};
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    const pb_sim_pose into_wall[2] = {at(100, 40, 0), at(2, 2, 0)};
    bad = (pb_sim_follow_request){"bot", into_wall, 2, 0};
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && strstr(r.error_message, "waypoint 1"));
    bad = (pb_sim_follow_request){"bot", line, 2, -1};
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    bad.speed = 1e-12; /* more steps than the action allows */
    CHECK(!pb_sim_follow_begin(&goal, sim, &bad, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    CHECK(set_state(sim, PB_SIM_STATE_PLAYING) == PB_SIM_RESULT_OK);
    CHECK(!pb_sim_follow_begin(&goal, sim, &through, &r) && r.result == PB_SIM_RESULT_OPERATION_FAILED);
    CHECK(!pb_sim_is_following(sim, "bot"));
    pb_sim_destroy(sim);
}

/* ---- §2, §7 the codec, without a socket ---- */
static char *handle(pb_sim *sim, const char *json)
{
    char *reply = NULL;
    pb_sim_handle_message(sim, json, strlen(json), &reply);
    return reply;
}

static bool reply_has(pb_sim *sim, const char *json, const char *a, const char *b)
{
    char *reply = handle(sim, json);
    const bool ok = reply && strstr(reply, a) && (!b || strstr(reply, b)) &&
                    !strstr(reply, "\"op\":\"status\"") && !strstr(reply, ":nan") && !strstr(reply, ":inf") &&
                    !strstr(reply, ":-inf") && !strstr(reply, "NaN") && !strstr(reply, "Infinity");
    if (!ok)
        fprintf(stderr, "reply to %s: %s\n", json, reply ? reply : "(none)");
    free(reply);
    return ok;
}

static void test_codec(void)
{
    pb_sim *sim = make();
    CHECK(reply_has(sim, "{nope", "\"result\":false", "malformed JSON"));
    CHECK(reply_has(sim, "[1,2]", "\"result\":false", NULL));
    CHECK(reply_has(sim, "{\"op\":\"dance\",\"id\":\"d\"}", "Unknown operation: dance", "\"id\":\"d\""));
    CHECK(reply_has(sim, "{\"op\":\"call_service\",\"id\":\"7\",\"service\":\"/nope\"}",
                    "\"values\":\"Service /nope does not exist\"", "\"id\":\"7\""));
    /* integer ids are echoed unchanged; the service string as the client wrote it */
    CHECK(reply_has(sim, "{\"op\":\"call_service\",\"id\":42,\"service\":\"get_simulation_state\"}",
                    "\"id\":42", "\"service\":\"get_simulation_state\""));
    /* GetSimulatorFeatures has no Result */
    CHECK(reply_has(
        sim, "{\"op\":\"call_service\",\"id\":\"f\",\"service\":\"/get_simulator_features\",\"args\":{}}",
        "{\"features\":{\"features\":[0,1,", "\"result\":true"));
    /* wrong types, unknown fields, ranges: rosbridge's texts */
    CHECK(reply_has(
        sim, "{\"op\":\"call_service\",\"service\":\"/delete_entity\",\"args\":{\"entity\":1}}",
        "simulation_interfaces/DeleteEntity_Request message requires a string for field entity, but got "
        "a <class 'int'>",
        "\"result\":false"));
    CHECK(reply_has(sim, "{\"op\":\"call_service\",\"service\":\"/delete_entity\",\"args\":{\"foo\":1}}",
                    "Message type simulation_interfaces/DeleteEntity_Request does not have a field foo",
                    NULL));
    CHECK(reply_has(sim,
                    "{\"op\":\"call_service\",\"service\":\"/step_simulation\",\"args\":{\"steps\":1.0}}",
                    "requires a uint64 for field steps, but got a <class 'float'>", NULL));
    CHECK(reply_has(sim,
                    "{\"op\":\"call_service\",\"service\":\"/step_simulation\",\"args\":{\"steps\":true}}",
                    "but got a <class 'bool'>", NULL));
    CHECK(reply_has(sim,
                    "{\"op\":\"call_service\",\"service\":\"/get_entity_state\",\"args\":{\"entity\":null}}",
                    "<class 'NoneType'>", NULL));
    CHECK(reply_has(sim,
                    "{\"op\":\"call_service\",\"service\":\"/reset_simulation\",\"args\":{\"scope\":256}}",
                    "out of range", "\"result\":false"));
    CHECK(
        reply_has(sim,
                  "{\"op\":\"call_service\",\"service\":\"/set_entity_state\",\"args\":{\"state\":{\"pose\":{"
                  "\"position\":{\"x\":\"1\"}}}}}",
                  "for field state.pose.position.x", NULL));
    /* an integer for a float is fine; args as a list in field order */
    CHECK(reply_has(
        sim,
        "{\"op\":\"call_service\",\"service\":\"/spawn_entity\",\"args\":{\"name\":\"b\",\"entity_resource\""
        ":{\"uri\":\"model://disc_robot\"},\"initial_pose\":{\"pose\":{\"position\":{\"x\":40,\"y\":40}}}}}",
        "\"entity_name\":\"b\"", "\"result\":1,"));
    CHECK(reply_has(sim, "{\"op\":\"call_service\",\"service\":\"/delete_entity\",\"args\":[\"b\"]}",
                    "\"result\":1,", NULL));
    /* 1.x shapes: flat uri in SpawnEntity and LoadWorld */
    CHECK(reply_has(
        sim,
        "{\"op\":\"call_service\",\"service\":\"/spawn_entity\",\"args\":{\"name\":\"c\",\"uri\":\"model:"
        "//disc_robot\",\"initial_pose\":{\"pose\":{\"position\":{\"x\":40,\"y\":40}}}}}",
        "\"entity_name\":\"c\"", NULL));
    CHECK(reply_has(
        sim, "{\"op\":\"call_service\",\"service\":\"/load_world\",\"args\":{\"uri\":\"world://room1\"}}",
        "\"name\":\"room1\"", "\"result\":1,"));
    /* SetEntityState without flags is 1.x: pose applied */
    free(handle(
        sim,
        "{\"op\":\"call_service\",\"service\":\"/spawn_entity\",\"args\":{\"name\":\"d\",\"uri\":\"model://"
        "disc_robot\",\"initial_pose\":{\"pose\":{\"position\":{\"x\":40,\"y\":40}}}}}"));
    free(handle(
        sim,
        "{\"op\":\"call_service\",\"service\":\"/set_entity_state\",\"args\":{\"entity\":\"d\",\"state\":{"
        "\"pose\":{\"position\":{\"x\":100,\"y\":40}}}}}"));
    CHECK(x_of(sim, "d") == 100);
    /* actions without a connection: run at once; unknown action: result false, status 0 */
    CHECK(
        reply_has(sim,
                  "{\"op\":\"send_action_goal\",\"id\":\"g\",\"action\":\"/simulate_steps\",\"action_type\":"
                  "\"simulation_interfaces/action/SimulateSteps\",\"args\":{\"steps\":2},\"feedback\":true}",
                  "\"status\":4", "\"id\":\"g\""));
    CHECK(reply_has(sim, "{\"op\":\"send_action_goal\",\"id\":\"h\",\"action\":\"/fly\",\"args\":{}}",
                    "\"status\":0", "\"result\":false"));
    /* /follow_path without a connection runs to the end; a wrong field type is refused */
    CHECK(reply_has(sim,
                    "{\"op\":\"send_action_goal\",\"id\":\"f\",\"action\":\"/follow_path\",\"action_type\":"
                    "\"planbench_interfaces/action/FollowPath\",\"args\":{\"entity\":\"d\",\"path\":[{"
                    "\"position\":{\"x\":100,\"y\":40}},{\"position\":{\"x\":130,\"y\":40}}],\"speed\":100}}",
                    "\"status\":4", "\"completed_steps\":6"));
    CHECK(x_of(sim, "d") == 130);
    CHECK(reply_has(sim,
                    "{\"op\":\"send_action_goal\",\"id\":\"f\",\"action\":\"follow_path\",\"args\":{"
                    "\"entity\":\"d\",\"path\":3}}",
                    "\"result\":false", "\"status\":0"));
    CHECK(reply_has(sim,
                    "{\"op\":\"send_action_goal\",\"id\":\"f\",\"action\":\"follow_path\",\"args\":{"
                    "\"entity\":\"zz\",\"path\":[]}}",
                    "\"status\":6", "\"result\":2"));
    set_state(sim, PB_SIM_STATE_PLAYING);
    CHECK(reply_has(
        sim,
        "{\"op\":\"send_action_goal\",\"id\":\"i\",\"action\":\"simulate_steps\",\"args\":{\"steps\":2}}",
        "\"status\":6", "\"result\":4"));
    /* silent ops; id-less cancel of all goals gets no reply */
    char *none = handle(sim, "{\"op\":\"set_level\",\"level\":\"error\"}");
    CHECK(none == NULL);
    none = handle(
        sim, "{\"op\":\"call_service\",\"service\":\"/simulate_steps/_action/cancel_goal\",\"args\":{}}");
    CHECK(none == NULL);
    /* rosapi for roslib's helpers */
    CHECK(reply_has(sim,
                    "{\"op\":\"call_service\",\"id\":\"r\",\"service\":\"rosapi/service_type\",\"args\":{"
                    "\"service\":\"/spawn_entity\"}}",
                    "\"type\":\"simulation_interfaces/srv/SpawnEntity\"", NULL));
    CHECK(reply_has(sim, "{\"op\":\"call_service\",\"id\":\"r\",\"service\":\"/rosapi/services\"}",
                    "\"/plan_path\"", "\"/get_available_worlds\""));
    pb_sim_destroy(sim);
}

/* The entity-state replies are written as text (src/sim/json_text.c): the text must be what
 * jansson writes for the same message, byte for byte. */
static bool real_matches_jansson(double v)
{
    json_text t = {0};
    jt_real(&t, v);
    char *mine = jt_finish(&t);
    json_t *j = json_real(v); /* NULL for NaN and infinities: the writer says null */
    char *theirs = j ? json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII) : strdup("null");
    const bool same = mine && theirs && strcmp(mine, theirs) == 0;
    if (!same)
        fprintf(stderr, "%.17g: wrote %s, jansson %s\n", v, mine ? mine : "(null)",
                theirs ? theirs : "(null)");
    free(mine);
    free(theirs);
    json_decref(j);
    return same;
}

static bool string_matches_jansson(const char *s)
{
    json_text t = {0};
    jt_str(&t, s);
    char *mine = jt_finish(&t);
    json_t *j = json_stringn(s, strlen(s));
    char *theirs = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
    const bool same = mine && theirs && strcmp(mine, theirs) == 0;
    free(mine);
    free(theirs);
    json_decref(j);
    return same;
}

static void test_text_writer(void)
{
    const double fixed[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            100.25,
                            0.1,
                            -0.3,
                            1e20,
                            1e-20,
                            1e15,
                            1e15 - 1,
                            -1e15,
                            1e16,
                            3e-5,
                            5e-324,
                            DBL_MAX,
                            -DBL_MIN,
                            2.5,
                            1.0 / 3,
                            123456789012345.0,
                            9007199254740993.0,
                            NAN,
                            INFINITY,
                            -INFINITY};
    bool all = true;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        all &= real_matches_jansson(fixed[i]);
    CHECK(all);
    /* random bit patterns (every exponent) and random small decimals (poses) */
    uint64_t x = 0x9e3779b97f4a7c15u;
    bool random_all = true;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        random_all &= real_matches_jansson(i % 2 ? v : (double)(int64_t)(x % 2000001) / 1000.0 - 1000.0);
    }
    CHECK(random_all);
    CHECK(string_matches_jansson(""));
    CHECK(string_matches_jansson("robot_1"));
    CHECK(string_matches_jansson("say \"hi\"\\ \n\t\x01 caf\xc3\xa9 \xf0\x9f\xa4\x96"));
    char ints[64];
    json_text t = {0};
    jt_int(&t, -9223372036854775807LL - 1);
    JT_LIT(&t, " ");
    jt_int(&t, 0);
    JT_LIT(&t, " ");
    jt_int(&t, 4294967295LL);
    char *s = jt_finish(&t);
    snprintf(ints, sizeof ints, "%lld 0 4294967295", -9223372036854775807LL - 1);
    CHECK(s && strcmp(s, ints) == 0);
    free(s);

    /* whole replies: re-dumping the parsed reply with jansson gives the same text */
    pb_sim *sim = make();
    free(handle(sim, "{\"op\":\"call_service\",\"service\":\"/spawn_entity\",\"args\":{\"name\":\"r_1\","
                     "\"uri\":\"model://disc_robot\",\"initial_pose\":{\"pose\":{\"position\":{\"x\":100.25,"
                     "\"y\":40.1},\"orientation\":{\"z\":0.29552020666133955,\"w\":0.955336489125606}}}}}"));
    free(handle(sim, "{\"op\":\"call_service\",\"service\":\"/set_entity_state\",\"args\":{\"entity\":"
                     "\"r_1\",\"state\":{\"twist\":{\"linear\":{\"x\":0.7}}},\"set_twist\":true}}"));
    const char *calls[] = {
        "{\"op\":\"call_service\",\"id\":\"a\\\"b\",\"service\":\"/get_entity_state\",\"args\":{\"entity\":"
        "\"r_1\"}}",
        "{\"op\":\"call_service\",\"id\":17,\"service\":\"get_entity_state\",\"args\":{\"entity\":"
        "\"n\\u00e9\\\"\"}}",
        "{\"op\":\"call_service\",\"service\":\"/get_entities_states\",\"args\":{}}",
        "{\"op\":\"call_service\",\"id\":[1,{\"k\":2}],\"service\":\"/get_entities_states\",\"args\":{"
        "\"filters\":{\"filter\":\"^r\"}}}",
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        char *reply = handle(sim, calls[i]);
        json_t *parsed = reply ? json_loads(reply, 0, NULL) : NULL;
        char *again = parsed ? json_dumps(parsed, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
        CHECK(again && strcmp(reply, again) == 0);
        CHECK(json_is_true(json_object_get(parsed, "result")));
        const json_t *values = json_object_get(parsed, "values");
        CHECK(json_is_object(json_object_get(values, "result")));
        if (i == 0) {
            const json_t *pose = json_object_get(json_object_get(values, "state"), "pose");
            CHECK(json_real_value(json_object_get(json_object_get(pose, "position"), "x")) == 100.25);
            CHECK(fabs(json_real_value(json_object_get(json_object_get(pose, "orientation"), "z")) -
                       0.29552020666133955) < 1e-12);
            CHECK(strcmp(json_string_value(json_object_get(parsed, "id")), "a\"b") == 0);
        }
        if (i == 1)
            CHECK(json_integer_value(json_object_get(json_object_get(values, "result"), "result")) ==
                  PB_SIM_RESULT_NOT_FOUND);
        if (i == 3)
            CHECK(json_array_size(json_object_get(values, "states")) == 1);
        free(again);
        json_decref(parsed);
        free(reply);
    }
    /* the /entity_states topic after a step */
    char *pub = rb_entity_states(sim);
    json_t *parsed = pub ? json_loads(pub, 0, NULL) : NULL;
    char *again = parsed ? json_dumps(parsed, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    CHECK(again && strcmp(pub, again) == 0);
    CHECK(json_array_size(json_object_get(json_object_get(parsed, "msg"), "entities")) >= 2);
    free(again);
    json_decref(parsed);
    free(pub);
    pb_sim_destroy(sim);
}

int main(void)
{
    sim_fixture_init();
    test_features();
    test_spawn_names();
    test_spawn_resources();
    test_spawn_cspace();
    test_spawn_pose_rules();
    test_spawn_entities();
    test_delete();
    test_filters();
    test_set_state();
    test_info_bounds_events();
    test_named_poses_spawnables();
    test_state_machine();
    test_reset();
    test_stepping();
    test_motion();
    test_worlds();
    test_plan_path();
    test_follow_action();
    test_codec();
    test_text_writer();
    return pb_test_summary("sim_services");
}
