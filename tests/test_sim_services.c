/* The simulation services as plain C functions, one block per rule of
 * ../shared/spec/simulation-interfaces.md (no socket). Only a subset of the spec's rules
 * is covered so far; see the issue 8 report. */
#include "harness.h"
#include "planbench/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static pb_sim *make(void)
{
    char worlds[1024], robots[1024], world[1100];
    snprintf(worlds, sizeof worlds, "%s/worlds", pb_test_source_root());
    snprintf(robots, sizeof robots, "%s/robots", pb_test_source_root());
    snprintf(world, sizeof world, "%s/sim_room1.xml", worlds);
    pb_sim_config c = pb_sim_config_default();
    c.worlds_dir = worlds;
    c.robots_dir = robots;
    c.world = world;
    pb_sim *sim = NULL;
    pb_diag d = {0};
    if (pb_sim_create(&sim, &c, &d) != PB_OK)
        fprintf(stderr, "create: %s\n", d.message);
    return sim;
}

static pb_sim_spawn_request spawn_at(const char *name, const char *uri, double x, double y)
{
    return (pb_sim_spawn_request){.name = name, .uri = uri, .initial_pose = {{x, y, 0}, 0, 0, 0, 1}};
}

int main(void)
{
    pb_sim *sim = make();
    CHECK(sim != NULL);
    if (!sim)
        return pb_test_summary("sim_services");
    pb_sim_result r;
    pb_sim_spawn_response rs;

    /* launch: a loaded world starts STOPPED with its own entities */
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_STOPPED);
    CHECK(pb_sim_entity_count(sim) == 1);

    /* spawn OK, then NAME_NOT_UNIQUE without renaming, <name>_1 with renaming (§6.11) */
    pb_sim_spawn_request rq = spawn_at("bot", "model://disc_robot", 40, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && strcmp(rs.entity_name, "bot") == 0);
    rq = spawn_at("bot", "model://disc_robot", 100, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_NAME_NOT_UNIQUE);
    rq.allow_renaming = true;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && strcmp(rs.entity_name, "bot_1") == 0);

    /* empty resource: NO_RESOURCE; unknown model: NOT_FOUND (§6.8); bad scheme: UNSUPPORTED_FORMAT */
    rq = spawn_at("x", "", 200, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_NO_RESOURCE);
    rq = spawn_at("x", "model://nope", 200, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_NOT_FOUND);
    rq = spawn_at("x", "http://a/b.sdf", 200, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_UNSUPPORTED_FORMAT);

    /* invalid names and namespaces */
    rq = spawn_at("9bad", "model://disc_robot", 200, 40);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_NAME_INVALID);
    rq = spawn_at("ok", "model://disc_robot", 200, 40);
    rq.entity_namespace = "bad ns";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_NAMESPACE_INVALID);

    /* C-space validation: a wall, outside the map, another entity; the message names it */
    rq = spawn_at("w", "model://disc_robot", 2, 2);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "outside"));
    rq = spawn_at("w", "model://disc_robot", 45, 45);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'bot'"), "%s",
              rs.result.error_message);
    rq = spawn_at("w", "model://car_robot", 165, 130); /* across the west wall of the middle room */
    rq.initial_pose.qz = sin(0.7);
    rq.initial_pose.qw = cos(0.7);
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "pixel"), "%s",
              rs.result.error_message);

    /* bad quaternion (§6.10) and unknown frame (§6.9) */
    rq = spawn_at("q", "model://disc_robot", 200, 40);
    rq.initial_pose.qw = 0;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    rq = spawn_at("q", "model://disc_robot", 20, 0);
    rq.frame_id = "no_such_frame";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "unknown frame"));
    /* a known frame: relative to 'bot' */
    rq.frame_id = "bot";
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK);

    /* SetEntityState: INVALID_POSE 101 into a wall; static object with twist: OPERATION_FAILED */
    pb_sim_set_state_request sq = {
        .entity = "bot", .state = {.pose = {{3, 3, 0}, 0, 0, 0, 1}}, .has_flags = true, .set_pose = true};
    pb_sim_set_entity_state(sim, &sq, &r);
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE);
    sq = (pb_sim_set_state_request){.entity = "crate_1", .has_flags = true, .set_twist = true};
    sq.state.twist.linear.x = 1;
    pb_sim_set_entity_state(sim, &sq, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    sq.entity = "nobody";
    pb_sim_set_entity_state(sim, &sq, &r);
    CHECK(r.result == PB_SIM_RESULT_NOT_FOUND);

    /* stepping needs PAUSED (STOPPED counts as paused, §6.3); PLAYING: OPERATION_FAILED (§6.1) */
    pb_sim_set_simulation_state(sim, PB_SIM_STATE_PLAYING, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_step_simulation(sim, 1, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    pb_sim_set_simulation_state(sim, PB_SIM_STATE_PAUSED, &r);
    pb_sim_set_simulation_state(sim, PB_SIM_STATE_PAUSED, &r);
    CHECK(r.result == PB_SIM_ALREADY_IN_TARGET_STATE);
    pb_sim_set_simulation_state(sim, 9, &r);
    CHECK(r.result == PB_SIM_RESULT_FEATURE_UNSUPPORTED);
    pb_sim_set_simulation_state(sim, PB_SIM_STATE_NO_WORLD, &r);
    CHECK(r.result == PB_SIM_INCORRECT_TRANSITION);

    /* a twist moves the entity; a motion into a wall stops it at the last free pose */
    sq = (pb_sim_set_state_request){.entity = "bot", .has_flags = true, .set_twist = true};
    sq.state.twist.linear.x = -100;
    pb_sim_set_entity_state(sim, &sq, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_step_simulation(sim, 20, &r);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "bot", &r, &st);
    CHECK(r.result == PB_SIM_RESULT_OK);
    CHECK_MSG(st.pose.position.x > 8.0 && st.pose.position.x < 14.0 && st.twist.linear.x == 0.0, "x %g",
              st.pose.position.x);

    /* regex filter (search semantics), invalid regex: OPERATION_FAILED (§6.6) */
    pb_sim_entity_filters f = {.filter = "^bot"};
    const char *const *names;
    size_t n;
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    CHECK(r.result == PB_SIM_RESULT_OK && n == 2);
    f.filter = "(";
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);

    /* reset SPAWNED keeps the world's entities; ALL ends STOPPED (§6.5) */
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_SPAWNED, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_entity_count(sim) == 1 &&
          pb_sim_state(sim) == PB_SIM_STATE_PAUSED);
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_ALL, &r);
    CHECK(pb_sim_state(sim) == PB_SIM_STATE_STOPPED && pb_sim_time(sim) == 0.0);
    pb_sim_reset_simulation(sim, 8, &r);
    CHECK(r.result == PB_SIM_RESULT_FEATURE_UNSUPPORTED);

    /* worlds: unload gives NO_WORLD; get current: NO_WORLD_LOADED; load by world:// */
    pb_sim_unload_world(sim, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_state(sim) == PB_SIM_STATE_NO_WORLD);
    pb_sim_world_info w;
    pb_sim_get_current_world(sim, &r, &w);
    CHECK(r.result == PB_SIM_NO_WORLD_LOADED);
    pb_sim_unload_world(sim, &r);
    CHECK(r.result == PB_SIM_NO_WORLD_LOADED);
    pb_sim_load_world(sim, "world://room1", NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK && strcmp(w.name, "room1") == 0 &&
          pb_sim_state(sim) == PB_SIM_STATE_STOPPED);
    pb_sim_load_world(sim, "", "", false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_NO_RESOURCE);
    pb_sim_load_world(sim, "", "<simworld", false, &r, &w);
    CHECK(r.result == PB_SIM_WORLD_RESOURCE_PARSE_ERROR);

    /* the codec: failure form for malformed JSON, unknown services, wrong types */
    char *reply = NULL;
    pb_sim_handle_message(sim, "{nope", 5, &reply);
    CHECK(reply && strstr(reply, "\"result\":false"));
    free(reply);
    const char *unknown = "{\"op\":\"call_service\",\"id\":\"7\",\"service\":\"/nope\"}";
    pb_sim_handle_message(sim, unknown, strlen(unknown), &reply);
    CHECK(reply && strstr(reply, "does not exist") && strstr(reply, "\"id\":\"7\""));
    free(reply);
    const char *wrong = "{\"op\":\"call_service\",\"service\":\"/step_simulation\",\"args\":{\"steps\":1.5}}";
    pb_sim_handle_message(sim, wrong, strlen(wrong), &reply);
    CHECK(reply && strstr(reply, "requires a uint64") && strstr(reply, "\"result\":false"));
    free(reply);
    const char *range = "{\"op\":\"call_service\",\"service\":\"reset_simulation\",\"args\":{\"scope\":256}}";
    pb_sim_handle_message(sim, range, strlen(range), &reply);
    CHECK(reply && strstr(reply, "\"result\":false"));
    free(reply);
    const char *status = "{\"op\":\"set_level\",\"level\":\"info\"}";
    pb_sim_handle_message(sim, status, strlen(status), &reply);
    CHECK(reply == NULL);

    pb_sim_destroy(sim);
    return pb_test_summary("sim_services");
}
