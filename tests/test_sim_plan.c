/* /plan_path off the server thread, /follow_path's segment checks and the stick arm's full
 * configuration space (issue 8, docs/sim.md), as plain C functions. The world is
 * worlds/sim_room1.xml (maps/room1.png, 500 x 400 px): the rooms' walls are free from 5 px
 * in; a wall at x 165..169 separates (100, 40) from (200, 40); a static crate_1 at (310, 30).
 * A planner runs on a thread of its own while this thread changes the simulation, as the
 * server does; every path is re-checked here on an independent copy of the map. */
#include "sim_fixture.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int spawn(pb_sim *sim, const char *name, const char *uri, double x, double y, double yaw)
{
    pb_sim_spawn_request rq = {.name = name, .uri = uri, .initial_pose = at(x, y, yaw)};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    return rs.result.result;
}

static int move_to(pb_sim *sim, const char *entity, double x, double y, double yaw)
{
    pb_sim_set_state_request rq = {
        .entity = entity, .state = {.pose = at(x, y, yaw)}, .has_flags = true, .set_pose = true};
    pb_sim_result r;
    pb_sim_set_entity_state(sim, &rq, &r);
    return r.result;
}

static void *run_job(void *job)
{
    pb_sim_plan_run(job);
    return NULL;
}

/* ---- the plan runs on another thread while the simulation changes ---- */

/* Begin a plan for `rq`, run it on a thread, call `meanwhile` on this thread, finish. */
static void plan_meanwhile(pb_sim *sim, const pb_sim_plan_request *rq, void (*meanwhile)(pb_sim *sim),
                           pb_sim_plan_response *rs)
{
    pb_sim_plan_job *job = NULL;
    if (!pb_sim_plan_begin(&job, sim, rq, rs)) {
        CHECK_MSG(false, "begin refused: %s", rs->result.error_message);
        return;
    }
    pthread_t thread;
    const bool threaded = pthread_create(&thread, NULL, run_job, job) == 0;
    CHECK(threaded);
    if (meanwhile)
        meanwhile(sim);
    if (threaded)
        pthread_join(thread, NULL);
    else
        pb_sim_plan_run(job);
    CHECK(pb_sim_plan_is_done(job));
    pb_sim_plan_finish(sim, job, rs);
    pb_sim_plan_job_destroy(job);
}

static void step_a_lot(pb_sim *sim)
{
    /* the world changes under the planner: another entity moves, spawns, steps */
    pb_sim_result r;
    for (int i = 0; i < 50; i++) {
        move_to(sim, "other", 300 + i, 200, 0);
        pb_sim_step_simulation(sim, 1, &r);
    }
    spawn(sim, "late", "model://disc_robot", 250, 300, 0);
}

static void move_bot(pb_sim *sim)
{
    CHECK(move_to(sim, "bot", 41, 40, 0) == PB_SIM_RESULT_OK);
}

static void delete_and_respawn_bot(pb_sim *sim)
{
    pb_sim_result r;
    pb_sim_delete_entity(sim, "bot", &r);
    CHECK(spawn(sim, "bot", "model://disc_robot", 40, 40, 0) == PB_SIM_RESULT_OK);
}

static double block_at[3];
static void block_path(pb_sim *sim)
{
    CHECK(spawn(sim, "blocker", "model://disc_robot", block_at[0], block_at[1], 0) == PB_SIM_RESULT_OK);
}

static void reload_world(pb_sim *sim)
{
    char world[1100];
    snprintf(world, sizeof world, "%s/sim_room1.xml", worlds_dir);
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_load_world(sim, world, NULL, false, &r, &w);
    CHECK(r.result == PB_SIM_RESULT_OK);
    CHECK(spawn(sim, "bot", "model://disc_robot", 40, 40, 0) == PB_SIM_RESULT_OK);
}

static void test_plan_off_thread(void)
{
    pb_sim *sim = make();
    CHECK(spawn(sim, "bot", "model://disc_robot", 40, 40, 0) == PB_SIM_RESULT_OK);
    CHECK(spawn(sim, "other", "model://disc_robot", 300, 200, 0) == PB_SIM_RESULT_OK);
    const pb_sim_plan_request rq = {
        .entity = "bot", .goal_name = "dock_b", .planner = "birrt", .time_limit = 5, .seed = 11};
    pb_sim_plan_response rs;
    /* all at once on this thread: the reference */
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && rs.n_path >= 2, "%s", rs.result.error_message);
    double reference[3 * 64];
    const size_t n_reference = rs.n_path < 64 ? rs.n_path : 64;
    memcpy(reference, rs.path, n_reference * 3 * sizeof(double));
    CHECK(rs.n_joints == 0); /* a disc has no joints */

    /* on a thread, the world changing elsewhere: the snapshot gives the same path, and it is
     * still free (the other entity moved away from it, not into it) */
    move_to(sim, "other", 300, 200, 0);
    plan_meanwhile(sim, &rq, step_a_lot, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    CHECK(rs.n_path == n_reference && memcmp(reference, rs.path, n_reference * 3 * sizeof(double)) == 0);
    pb_sim_result r;
    pb_sim_delete_entity(sim, "late", &r);
    move_to(sim, "other", 300, 200, 0);

    /* the entity itself moved: the path starts where it was; refused, path returned */
    plan_meanwhile(sim, &rq, move_bot, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(rs.result.error_message, "moved") && rs.n_path >= 2,
              "%s", rs.result.error_message);
    move_to(sim, "bot", 40, 40, 0);

    /* deleted and spawned again under the same name: not the entity the plan was made for */
    plan_meanwhile(sim, &rq, delete_and_respawn_bot, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_NOT_FOUND && strstr(rs.result.error_message, "deleted"), "%s",
              rs.result.error_message);

    /* an entity spawned onto the path while it was planned: refused, naming the segment and
     * the entity (the path avoids what the snapshot held, not what came later) */
    block_at[0] = (reference[0] + reference[3]) / 2;
    block_at[1] = (reference[1] + reference[4]) / 2;
    CHECK(hypot(block_at[0] - 40, block_at[1] - 40) > 16);
    plan_meanwhile(sim, &rq, block_path, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(rs.result.error_message, "segment 1") &&
                  strstr(rs.result.error_message, "'blocker'"),
              "%s", rs.result.error_message);
    CHECK(!pb_sim_is_following(sim, "bot"));
    /* planned again now, the path goes round it */
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    pb_sim_delete_entity(sim, "blocker", &r);

    /* the world was loaded again meanwhile */
    plan_meanwhile(sim, &rq, reload_world, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED && strstr(rs.result.error_message, "world"),
              "%s", rs.result.error_message);

    /* follow starts only when the plan is answered, and only then */
    pb_sim_plan_request follow = rq;
    follow.follow = true;
    follow.speed = 200;
    pb_sim_plan_job *job;
    CHECK(pb_sim_plan_begin(&job, sim, &follow, &rs));
    CHECK(!pb_sim_is_following(sim, "bot"));
    pb_sim_plan_run(job);
    CHECK(!pb_sim_is_following(sim, "bot"));
    pb_sim_plan_finish(sim, job, &rs);
    pb_sim_plan_job_destroy(job);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && pb_sim_is_following(sim, "bot"));
    pb_sim_step_simulation(sim, 3000, &r);
    CHECK(!pb_sim_is_following(sim, "bot") && x_of(sim, "bot") == 460);
    move_to(sim, "bot", 40, 40, 0);

    /* canceled before it ran: the planner stops at once, no follow */
    CHECK(pb_sim_plan_begin(&job, sim, &follow, &rs));
    pb_sim_plan_cancel(job);
    pb_sim_plan_run(job);
    pb_sim_plan_finish(sim, job, &rs);
    pb_sim_plan_job_destroy(job);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OPERATION_FAILED && !strcmp(rs.outcome, "canceled"), "%s %s",
              rs.outcome, rs.result.error_message);
    CHECK(!pb_sim_is_following(sim, "bot"));
    /* begun and dropped without running (a client gone before its turn) */
    CHECK(pb_sim_plan_begin(&job, sim, &follow, &rs));
    pb_sim_plan_job_destroy(job);
    pb_sim_plan_job_destroy(NULL);

    /* refused at once, before any thread: unknown planner, entity, named pose; static */
    pb_sim_plan_request bad = rq;
    bad.planner = "no_such_planner";
    CHECK(!pb_sim_plan_begin(&job, sim, &bad, &rs) && job == NULL &&
          rs.result.result == PB_SIM_RESULT_NOT_FOUND);
    bad = rq;
    bad.entity = "nobody";
    CHECK(!pb_sim_plan_begin(&job, sim, &bad, &rs) && rs.result.result == PB_SIM_RESULT_NOT_FOUND);
    bad = rq;
    bad.entity = "crate_1";
    CHECK(!pb_sim_plan_begin(&job, sim, &bad, &rs) && rs.result.result == PB_SIM_RESULT_OPERATION_FAILED);
    bad = rq;
    bad.goal_joints = (const double[]){0.5};
    bad.n_goal_joints = 1; /* a disc has no joints */
    CHECK(!pb_sim_plan_begin(&job, sim, &bad, &rs) && strstr(rs.result.error_message, "goal_joints"));
    pb_sim_destroy(sim);
}

/* ---- /follow_path checks the segments, not only the waypoints ---- */

static void test_follow_segments(void)
{
    pb_sim *sim = make();
    CHECK(spawn(sim, "bot", "model://disc_robot", 100, 40, 0) == PB_SIM_RESULT_OK);
    pb_sim_result r;
    uint64_t goal = 0;
    /* both waypoints free, the wall at x 165..169 between them */
    const pb_sim_pose through_wall[2] = {at(100, 40, 0), at(200, 40, 0)};
    const pb_sim_follow_request wall = {"bot", through_wall, 2, 100};
    CHECK(!pb_sim_follow_begin(&goal, sim, &wall, &r) && goal == 0);
    CHECK_MSG(r.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(r.error_message, "segment 1 (waypoint 0 to waypoint 1)") &&
                  strstr(r.error_message, "obstacle of the map at pixel (16"),
              "%s", r.error_message);
    /* the first segment starts at the entity's current pose */
    const pb_sim_pose from_here[1] = {at(200, 40, 0)};
    const pb_sim_follow_request here = {"bot", from_here, 1, 100};
    CHECK(!pb_sim_follow_begin(&goal, sim, &here, &r));
    CHECK_MSG(strstr(r.error_message, "segment 0 (the current pose to waypoint 0)"), "%s", r.error_message);
    /* another entity between two free waypoints */
    CHECK(spawn(sim, "blocker", "model://disc_robot", 65, 40, 0) == PB_SIM_RESULT_OK);
    const pb_sim_pose round[3] = {at(100, 40, 0), at(30, 40, 0), at(100, 40, 0)};
    const pb_sim_follow_request past = {"bot", round, 3, 100};
    CHECK(!pb_sim_follow_begin(&goal, sim, &past, &r));
    CHECK_MSG(strstr(r.error_message, "segment 1 (waypoint 0 to waypoint 1)") &&
                  strstr(r.error_message, "'blocker'"),
              "%s", r.error_message);
    CHECK(!pb_sim_is_following(sim, "bot") && x_of(sim, "bot") == 100);
    /* gone, the same path is accepted and followed to the end */
    pb_sim_delete_entity(sim, "blocker", &r);
    CHECK_MSG(pb_sim_follow_begin(&goal, sim, &past, &r), "%s", r.error_message);
    pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
    for (int i = 0; i < 10000 && fs == PB_SIM_FOLLOW_RUNNING; i++)
        fs = pb_sim_follow_step(sim, goal, NULL, &r);
    pb_sim_steps_end(sim);
    CHECK(fs == PB_SIM_FOLLOW_REACHED && x_of(sim, "bot") == 100);
    /* the rosbridge form says the same */
    char *reply = NULL;
    const char msg[] =
        "{\"op\":\"send_action_goal\",\"id\":\"w\",\"action\":\"/follow_path\",\"args\":{\"entity\":"
        "\"bot\",\"path\":[{\"position\":{\"x\":100,\"y\":40}},{\"position\":{\"x\":200,\"y\":40}}]}}";
    pb_sim_handle_message(sim, msg, strlen(msg), &reply);
    CHECK_MSG(reply && strstr(reply, "\"status\":6") && strstr(reply, "segment 1"), "%s", reply ? reply : "");
    free(reply);
    pb_sim_destroy(sim);
}

/* ---- the stick arm plans in (x, y, yaw, joint2) ---- */

/* Every configuration along the path, at most a quarter pixel of arm motion apart, is free
 * on a fresh copy of the map (with crate_1), the arm's elbow taken from each configuration. */
static bool arm_path_free(const double *path, const double *joints, size_t n, const pb_footprint *arm)
{
    char map[1100];
    snprintf(map, sizeof map, "%s/../maps/room1.png", worlds_dir);
    pb_engine *e = NULL;
    if (pb_engine_load(&e, "image2d", map, NULL, 0, NULL) != PB_OK)
        return false;
    const pb_footprint box = {.type = PB_FOOTPRINT_RECT, .half_length = 8, .half_width = 8};
    const double crate[3] = {310, 30, 0};
    uint32_t id;
    pb_engine_obstacle_add(&id, e, &box, crate);
    bool ok = true;
    for (size_t i = 0; i + 1 < n && ok; i++) {
        const double *a = path + 3 * i, *b = path + 3 * i + 3;
        const double dyaw = remainder(b[2] - a[2], 2 * M_PI),
                     dj = remainder(joints[i + 1] - joints[i], 2 * M_PI);
        /* no point of the arm moves more than this (the stickarm4d engine's bound) */
        const double bound =
            hypot(b[0] - a[0], b[1] - a[1]) + (arm->link1 + arm->link2) * fabs(dyaw) + arm->link2 * fabs(dj);
        const int m = (int)ceil(bound / 0.25) + 1;
        for (int k = 0; k <= m && ok; k++) {
            const double t = (double)k / m;
            const double q[3] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * dyaw};
            pb_footprint fp = *arm;
            fp.joint2 = joints[i] + t * dj;
            pb_hit hit;
            ok = pb_engine_footprint_check(e, &fp, q, PB_OBSTACLE_NONE, &hit) == PB_OK &&
                 hit.kind == PB_HIT_NONE;
        }
    }
    pb_engine_destroy(e);
    return ok;
}

static void test_arm_full_space(void)
{
    pb_sim *sim = make();
    CHECK(spawn(sim, "arm", "model://stick_arm", 40, 40, 0) == PB_SIM_RESULT_OK);
    const char *const *names;
    double elbow = 0;
    CHECK(pb_sim_get_entity_joints(sim, "arm", &names, &elbow) == 1 && !strcmp(names[0], "joint2") &&
          elbow == 0.8);
    /* the elbow to -0.8 and the base across the room: the path carries the elbow */
    const double goal_elbow = -0.8;
    pb_sim_plan_request rq = {.entity = "arm",
                              .goal = at(40, 120, 0), /* below the block at x 70..130, y 60..90 */
                              .planner = "birrt",
                              .time_limit = 5,
                              .seed = 5,
                              .goal_joints = &goal_elbow,
                              .n_goal_joints = 1};
    pb_sim_plan_response rs;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && rs.n_path >= 2, "%s (%s)", rs.result.error_message,
              rs.outcome);
    CHECK(rs.n_joints == 1 && !strcmp(rs.joint_names[0], "joint2"));
    if (rs.result.result != PB_SIM_RESULT_OK || rs.n_path < 2 || rs.n_joints != 1) {
        pb_sim_destroy(sim);
        return;
    }
    CHECK(rs.joints[0] == 0.8 && fabs(rs.joints[rs.n_path - 1] - goal_elbow) < 1e-12);
    const pb_footprint arm = {.type = PB_FOOTPRINT_ARM, .link1 = 30, .link2 = 25, .joint1 = 0, .joint2 = 0.8};
    CHECK(arm_path_free(rs.path, rs.joints, rs.n_path, &arm));
    /* follow it with the joint values: the arm ends at the goal with its elbow there */
    pb_sim_pose path[256];
    double joints[256];
    const size_t n = rs.n_path < 256 ? rs.n_path : 256;
    for (size_t i = 0; i < n; i++) {
        path[i] = at(rs.path[3 * i], rs.path[3 * i + 1], rs.path[3 * i + 2]);
        joints[i] = rs.joints[i];
    }
    const pb_sim_follow_request follow = {"arm", path, n, 100};
    pb_sim_result r;
    uint64_t goal = 0;
    CHECK_MSG(pb_sim_follow_begin_joints(&goal, sim, &follow, joints, 1, &r), "%s", r.error_message);
    pb_sim_follow_feedback fb = {0};
    pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
    bool elbow_in_feedback = true;
    for (int i = 0; i < 10000 && fs == PB_SIM_FOLLOW_RUNNING; i++) {
        fs = pb_sim_follow_step(sim, goal, &fb, &r);
        elbow_in_feedback = elbow_in_feedback && fb.n_joints == 1;
    }
    pb_sim_steps_end(sim);
    CHECK_MSG(fs == PB_SIM_FOLLOW_REACHED, "%s", r.error_message);
    CHECK(elbow_in_feedback && fabs(fb.joints[0] - goal_elbow) < 1e-9);
    CHECK(pb_sim_get_entity_joints(sim, "arm", NULL, &elbow) == 1 && fabs(elbow - goal_elbow) < 1e-9);
    CHECK(fabs(x_of(sim, "arm") - 40) < 1e-9);
    /* the arm's new shape is an obstacle to others: its elbow now points up (-y), so a disc
     * where link 2 used to be (below the arm) is free, and one on the new link 2 is not */
    const double ex = 40 + 30, ey = 120; /* the elbow */
    CHECK(spawn(sim, "under", "model://disc_robot", ex + 20 * cos(0.8), ey + 20 * sin(0.8) + 2, 0) ==
          PB_SIM_RESULT_OK);
    pb_sim_spawn_request over = {.name = "over",
                                 .uri = "model://disc_robot",
                                 .initial_pose = at(ex + 20 * cos(-0.8), ey + 20 * sin(-0.8), 0)};
    pb_sim_spawn_response over_rs;
    pb_sim_spawn_entity(sim, &over, &over_rs);
    CHECK_MSG(over_rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
                  strstr(over_rs.result.error_message, "'arm'"),
              "%s", over_rs.result.error_message);
    /* reset puts the elbow back */
    pb_sim_delete_entity(sim, "under", &r);
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_STATE, &r);
    CHECK(pb_sim_get_entity_joints(sim, "arm", NULL, &elbow) == 1 && elbow == 0.8);
    /* joint values that do not fit the entity are refused */
    CHECK(!pb_sim_follow_begin_joints(&goal, sim, &follow, joints, 2, &r) &&
          strstr(r.error_message, "joint"));
    /* without joint values the elbow keeps its value: no goal elbow, the plan keeps 0.8 */
    rq.goal_joints = NULL;
    rq.n_goal_joints = 0;
    pb_sim_plan_path(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_RESULT_OK && rs.n_joints == 1 && rs.joints[rs.n_path - 1] == 0.8);
    /* the rosbridge form carries joint_names and joint_positions */
    char *reply = NULL;
    const char msg[] =
        "{\"op\":\"call_service\",\"id\":\"p\",\"service\":\"/plan_path\",\"args\":{\"entity\":\"arm\","
        "\"goal\":{\"position\":{\"x\":40,\"y\":120}},\"planner\":\"birrt\",\"seed\":5,\"goal_joints\":"
        "[-0.8]}}";
    pb_sim_handle_message(sim, msg, strlen(msg), &reply);
    CHECK_MSG(reply && strstr(reply, "\"joint_names\":[\"joint2\"]") &&
                  strstr(reply, "\"joint_positions\":[0.8"),
              "%s", reply ? reply : "");
    free(reply);
    /* FollowPath's joint_positions must be one row per waypoint */
    const char bad[] =
        "{\"op\":\"send_action_goal\",\"id\":\"f\",\"action\":\"/follow_path\",\"args\":{\"entity\":"
        "\"arm\",\"path\":[{\"position\":{\"x\":40,\"y\":40}},{\"position\":{\"x\":40,\"y\":50}}],"
        "\"joint_positions\":[0.1,0.2,0.3]}}";
    pb_sim_handle_message(sim, bad, strlen(bad), &reply);
    CHECK_MSG(reply && strstr(reply, "\"result\":false") && strstr(reply, "joint_positions"), "%s",
              reply ? reply : "");
    free(reply);
    const char bad_type[] =
        "{\"op\":\"call_service\",\"id\":\"p\",\"service\":\"/plan_path\",\"args\":{\"entity\":"
        "\"arm\",\"goal_joints\":[\"x\"]}}";
    pb_sim_handle_message(sim, bad_type, strlen(bad_type), &reply);
    CHECK_MSG(reply && strstr(reply, "\"result\":false") && strstr(reply, "float64[]") == NULL &&
                  strstr(reply, "goal_joints"),
              "%s", reply ? reply : "");
    free(reply);
    pb_sim_destroy(sim);
}

int main(void)
{
    sim_fixture_init();
    test_plan_off_thread();
    test_follow_segments();
    test_arm_full_space();
    return pb_test_summary("sim_plan");
}
