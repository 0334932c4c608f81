/* The simulation service on a manipulator scene (issue 8): worlds/sim_arm_table.xml serves
 * pbarm6 at the table of worlds/pbarm6_divider.xml. Spawning and SetEntityState are checked
 * against the static obstacles, the other objects and the arm at its joints (INVALID_POSE
 * naming what is hit); /plan_path plans the arm around spawned objects, every returned edge
 * re-checked here on an independent engine (interpolated at 0.005 rad) holding the same
 * objects; /follow_path moves the joints; a plan whose objects move meanwhile is re-checked;
 * /plan_path to a pose of the arm's tool goes through inverse kinematics (issue 17). */
#include "sim_fixture.h"
#include "engines/manipulator/manipulator.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define ARM "arm"

/* The scene world's default start and goal (worlds/pbarm6_divider.xml). */
static const double start_q[6] = {0.310, 0.529, 0.892, -3.039, -1.525, 0.394};
static const double goal_q[6] = {-0.356, 0.451, 0.986, -0.087, 1.813, -1.889};

static pb_sim *make_scene(void)
{
    return make_world("sim_arm_table.xml");
}

/* An engine of the scene's world of its own, with the independent edge check. */
static pb_engine *fine_engine(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/pbarm6_divider.xml", worlds_dir);
    const pb_option options[2] = {{"edge_check", "interpolated"}, {"resolution", "0.005"}};
    pb_engine *engine = NULL;
    pb_diag d = {0};
    CHECK_MSG(pb_engine_load(&engine, "manipulator", path, options, 2, &d) == PB_OK, "%s", d.message);
    return engine;
}

static pb_sim_pose at3(double x, double y, double z)
{
    return (pb_sim_pose){{x, y, z}, 0, 0, 0, 1};
}

static pb_sim_spawn_response spawn3(pb_sim *sim, const char *name, const char *uri, pb_sim_pose pose)
{
    pb_sim_spawn_request rq = {.name = name, .uri = uri, .initial_pose = pose};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    return rs;
}

static pb_sim_result move3(pb_sim *sim, const char *entity, pb_sim_pose pose)
{
    pb_sim_set_state_request rq = {
        .entity = entity, .state = {.pose = pose}, .has_flags = true, .set_pose = true};
    pb_sim_result r;
    pb_sim_set_entity_state(sim, &rq, &r);
    return r;
}

/* Where link `name` of the arm is at joints `q`. */
static void link_position(pb_engine *engine, const char *name, const double *q, double *xyz)
{
    const pb_robot *robot = pb_manipulator_robot(engine);
    pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, q, poses);
    const int link = pb_robot_find_link(robot, name);
    CHECK(link >= 0);
    memcpy(xyz, poses[link >= 0 ? link : 0].t, 3 * sizeof *xyz);
}

static void test_world(void)
{
    pb_sim *sim = make_scene();
    pb_sim_result r;
    pb_sim_entity_info info;
    pb_sim_get_entity_info(sim, ARM, &r, &info);
    CHECK(r.result == PB_SIM_RESULT_OK && info.category == PB_SIM_CATEGORY_ROBOT);
    const char *const *names;
    double joints[PB_SIM_MAX_JOINTS];
    CHECK(pb_sim_get_entity_joints(sim, ARM, &names, joints) == 6);
    CHECK(strcmp(names[0], "joint1") == 0 && strcmp(names[5], "joint6") == 0);
    for (int i = 0; i < 6; i++)
        CHECK(fabs(joints[i] - start_q[i]) < 1e-9);
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "can_1", &r, &st);
    CHECK(r.result == PB_SIM_RESULT_OK && fabs(st.pose.position.z - 0.3605) < 1e-12 && st.pose.qw == 1.0);
    const pb_sim_named_pose *poses;
    size_t n;
    pb_sim_get_named_poses(sim, NULL, &r, &poses, &n);
    bool has_start = false, has_goal = false, has_left = false;
    for (size_t i = 0; i < n; i++) {
        has_start |= strcmp(poses[i].name, "start") == 0;
        has_goal |= strcmp(poses[i].name, "goal") == 0;
        if (strcmp(poses[i].name, "table_left") == 0)
            has_left = fabs(poses[i].pose.position.z - 0.36) < 1e-12;
    }
    CHECK(has_start && has_goal && has_left);
    pb_sim_bounds b;
    pb_sim_get_entity_bounds(sim, "can_1", &r, &b);
    CHECK(b.type == PB_SIM_BOUNDS_BOX && fabs(b.points[1].z - 0.06) < 1e-12 &&
          fabs(b.points[0].x + 0.035) < 1e-12);
    /* the robot cannot be deleted, moved off its base or given a twist; objects cannot plan */
    pb_sim_delete_entity(sim, ARM, &r);
    CHECK(r.result == PB_SIM_RESULT_OPERATION_FAILED);
    r = move3(sim, ARM, at3(0.1, 0, 0));
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE);
    CHECK(move3(sim, ARM, at3(0, 0, 0)).result == PB_SIM_RESULT_OK);
    pb_sim_plan_request prq = {.entity = "can_1", .goal_name = "goal"};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &prq, &prs);
    CHECK(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED);
    /* planar robots do not go into a scene */
    CHECK(spawn3(sim, "d", "model://disc_robot", at3(0.6, 0.45, 0.36)).result.result ==
          PB_SIM_RESULT_NOT_FOUND);
    const char *disc = "<simrobot name='d'><disc radius='8'/></simrobot>";
    pb_sim_spawn_request rq = {.name = "d", .resource_string = disc, .initial_pose = at3(0.6, 0.45, 0.36)};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK(rs.result.result == PB_SIM_SPAWN_UNSUPPORTED_ASSETS);
    pb_sim_destroy(sim);
}

static void test_spawn_and_set_state(void)
{
    pb_sim *sim = make_scene();
    pb_engine *engine = fine_engine();
    if (!engine) {
        pb_sim_destroy(sim);
        return;
    }
    /* on the table: the box's bottom face would sink 1 cm into it */
    pb_sim_spawn_response rs = spawn3(sim, "box", "model://crate3d", at3(0.6, 0.45, 0.34));
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'table'"),
              "%s", rs.result.error_message);
    /* on the arm at its start: round its forearm */
    double xyz[3];
    link_position(engine, "forearm", start_q, xyz);
    rs = spawn3(sim, "ball", "model://ball", at3(xyz[0], xyz[1], xyz[2]));
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "link '"),
              "%s", rs.result.error_message);
    /* free */
    rs = spawn3(sim, "box", "model://crate3d", at3(0.6, 0.45, 0.36));
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK && strcmp(rs.entity_name, "box") == 0, "%s",
              rs.result.error_message);
    /* on the first object; relative to it (frame = its name) too */
    rs = spawn3(sim, "ball", "model://ball", at3(0.6, 0.45, 0.43));
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'box'"), "%s",
              rs.result.error_message);
    pb_sim_spawn_request rq = {
        .name = "ball", .uri = "model://ball", .frame_id = "box", .initial_pose = at3(0, 0, 0.085)};
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'box'"), "%s",
              rs.result.error_message);
    rq.initial_pose = at3(0, 0, 0.095); /* just above it */
    pb_sim_spawn_entity(sim, &rq, &rs);
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, "ball", &r, &st);
    CHECK(fabs(st.pose.position.x - 0.6) < 1e-12 && fabs(st.pose.position.z - 0.455) < 1e-12);
    /* a turned box: 45 degrees about x puts its corner 7 cm below its centre */
    const double s45 = sin(M_PI / 8), c45 = cos(M_PI / 8);
    rs = spawn3(sim, "tilted", "model://crate3d", (pb_sim_pose){{0.6, -0.45, 0.365}, s45, 0, 0, c45});
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(rs.result.error_message, "'table'"),
              "%s", rs.result.error_message);
    rs = spawn3(sim, "tilted", "model://crate3d", (pb_sim_pose){{0.6, -0.45, 0.375}, s45, 0, 0, c45});
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    /* SetEntityState: the table, another object, the arm, then free */
    r = move3(sim, "ball", at3(0.6, -0.3, 0.3));
    CHECK_MSG(r.result == PB_SIM_SET_STATE_INVALID_POSE && strstr(r.error_message, "'table'"), "%s",
              r.error_message);
    r = move3(sim, "ball", at3(0.75, 0.55, 0.45));
    CHECK_MSG(r.result == PB_SIM_SET_STATE_INVALID_POSE && strstr(r.error_message, "'can_1'"), "%s",
              r.error_message);
    r = move3(sim, "ball", at3(xyz[0], xyz[1], xyz[2]));
    CHECK_MSG(r.result == PB_SIM_SET_STATE_INVALID_POSE && strstr(r.error_message, "link '"), "%s",
              r.error_message);
    r = move3(sim, "ball", at3(0.6, -0.25, 0.36)); /* its own old place does not count */
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    pb_sim_get_entity_state(sim, "ball", &r, &st);
    CHECK(fabs(st.pose.position.y + 0.25) < 1e-12);
    /* deleting frees the space */
    r = move3(sim, "ball", at3(0.6, 0.45, 0.36));
    CHECK(r.result == PB_SIM_SET_STATE_INVALID_POSE);
    pb_sim_delete_entity(sim, "box", &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    r = move3(sim, "ball", at3(0.6, 0.45, 0.36));
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    /* bounds filters in 3-D: a sphere round the ball, a box round the arm's base */
    pb_sim_entity_filters f = {.bounds = {.type = PB_SIM_BOUNDS_SPHERE, .n_points = 2}};
    f.bounds.points[0] = (pb_sim_vec3){0.6, 0.45, 0.5};
    f.bounds.points[1].x = 0.1;
    const char *const *names;
    size_t n;
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    CHECK(r.result == PB_SIM_RESULT_OK && n == 1 && strcmp(names[0], "ball") == 0);
    f.bounds.points[1].x = 0.09; /* 1 cm short of it */
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    CHECK(n == 0);
    f.bounds = (pb_sim_bounds){.type = PB_SIM_BOUNDS_BOX, .n_points = 2};
    f.bounds.points[0] = (pb_sim_vec3){-0.05, -0.05, 0.0};
    f.bounds.points[1] = (pb_sim_vec3){0.05, 0.05, 0.1};
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    CHECK(n == 1 && strcmp(names[0], ARM) == 0);
    /* twist: the ball rolls along +x until the can stops it (it never ends inside) */
    pb_sim_set_state_request tw = {.entity = "ball", .has_flags = true, .set_twist = true};
    tw.state.twist.linear.x = 0.2;
    r = move3(sim, "ball", at3(0.5, 0.55, 0.36));
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_set_entity_state(sim, &tw, &r);
    CHECK(r.result == PB_SIM_RESULT_OK);
    pb_sim_step_simulation(sim, 40, &r);
    pb_sim_get_entity_state(sim, "ball", &r, &st);
    /* the can's side is at x = 0.715, the ball's radius 0.04 */
    CHECK_MSG(st.pose.position.x < 0.675 && st.pose.position.x > 0.67 && st.twist.linear.x == 0.0, "x %g",
              st.pose.position.x);
    pb_engine_destroy(engine);
    pb_sim_destroy(sim);
}

/* Every edge of the response's joint path re-checked on `fine` (which holds the same objects),
 * its ends the start and the goal. */
static void check_path(pb_engine *fine, const pb_sim_plan_response *rs, const double *from, const double *to)
{
    CHECK(rs->n_joints == 6 && rs->n_path >= 2);
    if (rs->n_joints != 6 || rs->n_path < 2)
        return;
    for (int i = 0; i < 6; i++) {
        CHECK(fabs(rs->joints[i] - from[i]) < 1e-9);
        CHECK(fabs(rs->joints[6 * (rs->n_path - 1) + i] - to[i]) < 1e-9);
    }
    for (size_t k = 0; k + 1 < rs->n_path; k++)
        CHECK_MSG(pb_engine_visible(fine, rs->joints + 6 * k, rs->joints + 6 * (k + 1)), "edge %zu blocked",
                  k);
}

/* A rotation matrix (row-major) as a unit quaternion (x, y, z, w), by its largest component. */
static void quat_of(const double *r, double *q)
{
    const double trace = r[0] + r[4] + r[8];
    if (trace > 0) {
        const double s = 2 * sqrt(trace + 1);
        q[3] = s / 4;
        q[0] = (r[7] - r[5]) / s;
        q[1] = (r[2] - r[6]) / s;
        q[2] = (r[3] - r[1]) / s;
        return;
    }
    int i = 0;
    if (r[4] > r[0])
        i = 1;
    if (r[8] > r[4 * i])
        i = 2;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double s = 2 * sqrt(1 + r[4 * i] - r[4 * j] - r[4 * k]);
    q[i] = s / 4;
    q[j] = (r[3 * j + i] + r[3 * i + j]) / s;
    q[k] = (r[3 * k + i] + r[3 * i + k]) / s;
    q[3] = (r[3 * k + j] - r[3 * j + k]) / s;
}

/* The arm's tool frame (the SRDF's end effector, link 'tool') at joints q, as a message. */
static pb_sim_pose tool_pose(pb_engine *engine, const double *q)
{
    pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, q, poses);
    const pb_pose *p = &poses[pb_robot_find_link(pb_manipulator_robot(engine), "tool")];
    double quat[4];
    quat_of(p->r, quat);
    return (pb_sim_pose){{p->t[0], p->t[1], p->t[2]}, quat[0], quat[1], quat[2], quat[3]};
}

/* A path to a pose goal re-checked here: it starts at `from`, every edge is free under the
 * fine engine's check (interpolated at 0.005 rad, not the planner's certified one), and at its
 * last joints the tool is within 0.1 mm and 0.001 rad of `goal` (the simulation's tolerances),
 * by forward kinematics. */
static void check_pose_path(pb_engine *fine, const pb_sim_plan_response *rs, const double *from,
                            const pb_sim_pose *goal)
{
    CHECK(rs->n_joints == 6 && rs->n_path >= 2);
    if (rs->n_joints != 6 || rs->n_path < 2)
        return;
    for (int i = 0; i < 6; i++)
        CHECK(fabs(rs->joints[i] - from[i]) < 1e-9);
    for (size_t k = 0; k + 1 < rs->n_path; k++)
        CHECK_MSG(pb_engine_visible(fine, rs->joints + 6 * k, rs->joints + 6 * (k + 1)), "edge %zu blocked",
                  k);
    const double *last = rs->joints + 6 * (rs->n_path - 1);
    const pb_sim_pose at_end = tool_pose(fine, last);
    const double dx = at_end.position.x - goal->position.x, dy = at_end.position.y - goal->position.y,
                 dz = at_end.position.z - goal->position.z;
    CHECK_MSG(sqrt(dx * dx + dy * dy + dz * dz) <= 1e-4, "the tool ends %g m from the goal",
              sqrt(dx * dx + dy * dy + dz * dz));
    /* the angle between two unit quaternions: 2 acos |<a, b>| */
    const double n =
        sqrt(goal->qx * goal->qx + goal->qy * goal->qy + goal->qz * goal->qz + goal->qw * goal->qw);
    const double dot =
        fabs(at_end.qx * goal->qx + at_end.qy * goal->qy + at_end.qz * goal->qz + at_end.qw * goal->qw) / n;
    CHECK_MSG(2 * acos(fmin(dot, 1.0)) <= 1e-3 + 1e-6, "the tool ends %g rad from the goal",
              2 * acos(fmin(dot, 1.0)));
}

/* /plan_path to a pose of the arm's tool: the request's `goal` (no goal_name, no goal_joints)
 * and a named 6-DoF pose; inverse kinematics makes joint goals, the planner reaches one, and
 * the path is re-checked here. Poses out of reach or blocked by an object fail clearly. */
static void test_plan_to_pose(void)
{
    pb_sim *sim = make_scene();
    pb_engine *fine = fine_engine();
    if (!fine) {
        pb_sim_destroy(sim);
        return;
    }
    /* where the world's goal puts the tool, 5 cm higher */
    pb_sim_pose goal = tool_pose(fine, goal_q);
    goal.position.z += 0.05;
    pb_sim_plan_request rq = {.entity = ARM, .goal = goal, .planner = "birrt", .time_limit = 5, .seed = 11};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK, "%s (%s)", prs.result.error_message, prs.outcome);
    if (prs.result.result == PB_SIM_RESULT_OK)
        check_pose_path(fine, &prs, start_q, &goal);
    /* the same request, the same path */
    double *first = malloc(prs.n_path * 6 * sizeof *first);
    const size_t n_first = prs.n_path;
    if (first && prs.joints)
        memcpy(first, prs.joints, n_first * 6 * sizeof *first);
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK(prs.result.result == PB_SIM_RESULT_OK && prs.n_path == n_first && first &&
          memcmp(first, prs.joints, n_first * 6 * sizeof *first) == 0);
    free(first);
    /* a named pose of the tool, with another planner */
    const pb_sim_named_pose *poses;
    size_t n;
    pb_sim_result r;
    pb_sim_get_named_poses(sim, NULL, &r, &poses, &n);
    const pb_sim_named_pose *over = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(poses[i].name, "over_right") == 0)
            over = &poses[i];
    CHECK(over != NULL);
    if (over) {
        rq = (pb_sim_plan_request){
            .entity = ARM, .goal_name = "over_right", .planner = "prm", .time_limit = 5, .seed = 2};
        pb_sim_plan_path(sim, &rq, &prs);
        CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK, "%s (%s)", prs.result.error_message, prs.outcome);
        if (prs.result.result == PB_SIM_RESULT_OK)
            check_pose_path(fine, &prs, start_q, &over->pose);
    }
    /* out of reach: a clear failure, no plan */
    rq = (pb_sim_plan_request){.entity = ARM, .goal = at3(2.5, 0, 0.5), .planner = "birrt", .seed = 1};
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(prs.result.error_message, "goal pose: no collision-free joint configuration reaches "
                                                   "the pose of link 'tool'") &&
                  strcmp(prs.outcome, "invalid_goal") == 0,
              "%s", prs.result.error_message);
    /* a ball where the named pose puts the tool: reached only in collision with it */
    if (over) {
        pb_sim_spawn_response rs =
            spawn3(sim, "in_the_way", "model://ball",
                   at3(over->pose.position.x, over->pose.position.y, over->pose.position.z));
        CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
        rq = (pb_sim_plan_request){.entity = ARM, .goal_name = "over_right", .planner = "birrt", .seed = 1};
        pb_sim_plan_path(sim, &rq, &prs);
        CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                      strstr(prs.result.error_message, "named pose 'over_right': no collision-free") &&
                      strstr(prs.result.error_message, "'in_the_way'"),
                  "%s", prs.result.error_message);
    }
    /* no goal at all (an omitted pose is the identity), and a malformed one */
    rq = (pb_sim_plan_request){.entity = ARM, .goal = at3(0, 0, 0)};
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(prs.result.error_message, "a goal_name or a goal pose of its tool"),
              "%s", prs.result.error_message);
    rq.goal = (pb_sim_pose){{0.5, 0, 0.5}, 0, 0, 0, 2};
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(prs.result.error_message, "goal: invalid quaternion"),
              "%s", prs.result.error_message);
    pb_engine_destroy(fine);
    pb_sim_destroy(sim);
}

static void test_plan_and_follow(void)
{
    pb_sim *sim = make_scene();
    pb_engine *fine = fine_engine();
    if (!fine) {
        pb_sim_destroy(sim);
        return;
    }
    /* `to`: the start with the shoulder and the elbow lifted 0.9 rad (the hand rises off the
     * table); the straight joint-space line to it is free of the world's obstacles. A ball
     * where the wrist is halfway along that line is free at the start, but the line runs
     * through it. */
    double to[6], mid[6], xyz[3];
    memcpy(to, start_q, sizeof to);
    to[1] -= 0.9;
    to[2] -= 0.9;
    CHECK(pb_engine_visible(fine, start_q, to));
    for (int i = 0; i < 6; i++)
        mid[i] = start_q[i] + 0.5 * (to[i] - start_q[i]);
    link_position(fine, "wrist2", mid, xyz);
    pb_sim_spawn_response rs = spawn3(sim, "blocker", "model://ball", at3(xyz[0], xyz[1], xyz[2]));
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    const pb_solid ball = {.type = PB_SOLID_SPHERE, .size = {0.04}};
    const pb_pose ball_pose = {.r = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .t = {xyz[0], xyz[1], xyz[2]}};
    uint32_t id;
    CHECK(pb_engine_solid_add(&id, fine, &ball, &ball_pose, "blocker") == PB_OK);
    CHECK(pb_engine_feasible(fine, start_q) && pb_engine_feasible(fine, to) &&
          pb_engine_feasible(fine, goal_q));
    CHECK_MSG(!pb_engine_visible(fine, start_q, to), "the ball does not block the straight line");
    /* two planners of different kinds (plain RRT can take longer than the 5 s a request may
     * have when the sanitizers slow it down) */
    const char *planners[] = {"birrt", "prm"};
    for (int p = 0; p < 2; p++) {
        /* over the divider to the world's goal, and round the ball to `to` */
        pb_sim_plan_request rq = {
            .entity = ARM, .goal_name = "goal", .planner = planners[p], .time_limit = 5, .seed = 7};
        pb_sim_plan_response prs;
        pb_sim_plan_path(sim, &rq, &prs);
        CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK, "%s: %s (%s)", planners[p], prs.result.error_message,
                  prs.outcome);
        if (prs.result.result == PB_SIM_RESULT_OK)
            check_path(fine, &prs, start_q, goal_q);
        rq.goal_name = "";
        rq.goal_joints = to;
        rq.n_goal_joints = 6;
        pb_sim_plan_path(sim, &rq, &prs);
        CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK, "%s: %s (%s)", planners[p], prs.result.error_message,
                  prs.outcome);
        if (prs.result.result == PB_SIM_RESULT_OK) {
            check_path(fine, &prs, start_q, to);
            CHECK(prs.n_path >= 3); /* not the straight line */
        }
    }
    /* following a path round the ball: the joints step to `to` */
    pb_sim_plan_request rq = {
        .entity = ARM, .goal_joints = to, .n_goal_joints = 6, .planner = "birrt", .seed = 3, .time_limit = 5};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OK, "%s", prs.result.error_message);
    if (prs.result.result == PB_SIM_RESULT_OK) {
        check_path(fine, &prs, start_q, to);
        const size_t n = prs.n_path;
        pb_sim_pose *path = calloc(n, sizeof *path);
        double *joints = malloc(n * 6 * sizeof *joints);
        for (size_t k = 0; k < n; k++)
            path[k].qw = 1.0;
        memcpy(joints, prs.joints, n * 6 * sizeof *joints);
        pb_sim_follow_request frq = {.entity = ARM, .path = path, .n_path = n, .speed = 2.0};
        uint64_t goal;
        pb_sim_result r;
        CHECK(pb_sim_follow_begin_joints(&goal, sim, &frq, joints, 6, &r));
        pb_sim_follow_status status = PB_SIM_FOLLOW_RUNNING;
        pb_sim_follow_feedback fb;
        int steps = 0;
        double previous[6];
        memcpy(previous, start_q, sizeof previous);
        while (status == PB_SIM_FOLLOW_RUNNING && steps < 10000) {
            status = pb_sim_follow_step(sim, goal, &fb, &r);
            steps++;
            CHECK(fb.n_joints == 6);
            /* one step moves the joints at most speed * dt = 0.1 rad in the metric (continuous
             * joints the short way round) */
            const double moved = pb_engine_distance(fine, previous, fb.joints);
            CHECK_MSG(moved <= 0.1 + 1e-9, "step %d moved %g", steps, moved);
            CHECK(pb_engine_feasible(fine, fb.joints));
            memcpy(previous, fb.joints, sizeof previous);
        }
        CHECK_MSG(status == PB_SIM_FOLLOW_REACHED, "%s", r.error_message);
        CHECK(steps > 5);
        double now[PB_SIM_MAX_JOINTS];
        pb_sim_get_entity_joints(sim, ARM, NULL, now);
        for (int i = 0; i < 6; i++)
            CHECK(fabs(now[i] - to[i]) < 1e-9);
        /* now an object cannot be put where the arm is */
        link_position(fine, "forearm", to, xyz);
        CHECK(move3(sim, "blocker", at3(xyz[0], xyz[1], xyz[2])).result == PB_SIM_SET_STATE_INVALID_POSE);
        /* and a follow through an object is refused, naming it: straight back to the start */
        pb_sim_follow_request back = {.entity = ARM, .path = path, .n_path = 1};
        CHECK(!pb_sim_follow_begin_joints(&goal, sim, &back, start_q, 6, &r));
        CHECK_MSG(strstr(r.error_message, "segment 0") && strstr(r.error_message, "'blocker'"), "%s",
                  r.error_message);
        free(path);
        free(joints);
    }
    pb_engine_destroy(fine);
    pb_sim_destroy(sim);
}

static void test_goal_refused(void)
{
    pb_sim *sim = make_scene();
    pb_engine *fine = fine_engine();
    if (!fine) {
        pb_sim_destroy(sim);
        return;
    }
    double xyz[3];
    link_position(fine, "wrist2", goal_q, xyz);
    pb_sim_spawn_response rs = spawn3(sim, "at_goal", "model://ball", at3(xyz[0], xyz[1], xyz[2]));
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    pb_sim_plan_request rq = {.entity = ARM, .goal_name = "goal"};
    pb_sim_plan_response prs;
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(prs.result.error_message, "'at_goal'"),
              "%s", prs.result.error_message);
    CHECK(strcmp(prs.outcome, "invalid_goal") == 0);
    /* wrong goals */
    rq.goal_name = "table_left"; /* a pose the tool (pointing up) reaches only through the table */
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK_MSG(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                  strstr(prs.result.error_message, "named pose 'table_left': no collision-free"),
              "%s", prs.result.error_message);
    rq.goal_name = "";
    rq.goal_joints = goal_q;
    rq.n_goal_joints = 5;
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK(prs.result.result == PB_SIM_RESULT_OPERATION_FAILED);
    rq.goal_name = "nowhere";
    pb_sim_plan_path(sim, &rq, &prs);
    CHECK(prs.result.result == PB_SIM_RESULT_NOT_FOUND);
    pb_engine_destroy(fine);
    pb_sim_destroy(sim);
}

static void *run_job(void *job)
{
    pb_sim_plan_run(job);
    return NULL;
}

/* An object moved onto the path while the plan ran: the finish re-checks against the scene
 * as it is then. Two plans at once each take an engine of their own. */
static void test_plan_recheck(void)
{
    pb_sim *sim = make_scene();
    pb_engine *fine = fine_engine();
    if (!fine) {
        pb_sim_destroy(sim);
        return;
    }
    pb_sim_spawn_response rs = spawn3(sim, "intruder", "model://ball", at3(0.6, -0.45, 0.36));
    CHECK(rs.result.result == PB_SIM_RESULT_OK);
    pb_sim_plan_request rq = {
        .entity = ARM, .goal_name = "goal", .planner = "birrt", .seed = 5, .time_limit = 5};
    pb_sim_plan_job *a = NULL, *b = NULL;
    pb_sim_plan_response ra, rb;
    CHECK(pb_sim_plan_begin(&a, sim, &rq, &ra));
    rq.seed = 6;
    CHECK(pb_sim_plan_begin(&b, sim, &rq, &rb));
    if (!a || !b) {
        pb_sim_plan_job_destroy(a);
        pb_sim_plan_job_destroy(b);
        pb_engine_destroy(fine);
        pb_sim_destroy(sim);
        return;
    }
    pthread_t thread;
    const bool threaded = pthread_create(&thread, NULL, run_job, a) == 0;
    CHECK(threaded);
    pb_sim_plan_run(b);
    if (threaded)
        pthread_join(thread, NULL);
    /* b's path, checked, then the intruder put on its middle edge's middle */
    pb_sim_plan_finish(sim, b, &rb);
    CHECK_MSG(rb.result.result == PB_SIM_RESULT_OK, "%s", rb.result.error_message);
    if (rb.result.result == PB_SIM_RESULT_OK) {
        const size_t k = (rb.n_path - 1) / 2;
        double q[6], xyz[3];
        for (int i = 0; i < 6; i++)
            q[i] = rb.joints[6 * k + i] + 0.5 * (rb.joints[6 * (k + 1) + i] - rb.joints[6 * k + i]);
        link_position(fine, "wrist2", q, xyz);
        pb_sim_result r = move3(sim, "intruder", at3(xyz[0], xyz[1], xyz[2]));
        CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
        /* b's job again: the same path now runs into the intruder */
        pb_sim_plan_job *c = NULL;
        pb_sim_plan_response rc;
        rq.seed = 6;
        r = move3(sim, "intruder", at3(0.6, -0.45, 0.36));
        CHECK(pb_sim_plan_begin(&c, sim, &rq, &rc));
        if (c) {
            pb_sim_plan_run(c);
            CHECK(move3(sim, "intruder", at3(xyz[0], xyz[1], xyz[2])).result == PB_SIM_RESULT_OK);
            pb_sim_plan_finish(sim, c, &rc);
            CHECK_MSG(rc.result.result == PB_SIM_RESULT_OPERATION_FAILED &&
                          strstr(rc.result.error_message, "'intruder'"),
                      "%s", rc.result.error_message);
            CHECK(rc.n_path == rb.n_path); /* the same seed made the same path; it is returned */
            pb_sim_plan_job_destroy(c);
        }
    }
    pb_sim_plan_finish(sim, a, &ra);
    CHECK(ra.result.result == PB_SIM_RESULT_OK || ra.result.result == PB_SIM_RESULT_OPERATION_FAILED);
    pb_sim_plan_job_destroy(a);
    pb_sim_plan_job_destroy(b);
    /* reset: the arm and the objects go back */
    pb_sim_result r;
    pb_sim_reset_simulation(sim, PB_SIM_SCOPE_ALL, &r);
    CHECK(r.result == PB_SIM_RESULT_OK && pb_sim_entity_count(sim) == 2);
    pb_engine_destroy(fine);
    pb_sim_destroy(sim);
}

/* A scene has bounds: declared on <scene bounds="...">, or around the robot's reach. An
 * object whose bounding sphere leaves them is INVALID_POSE, spawned or moved (issue 14: a
 * spawn at (1e7, 1e7, 0) was accepted). */
static void test_scene_bounds(void)
{
    pb_sim *sim = make_scene();
    if (!sim)
        return;
    pb_sim_spawn_response rs = spawn3(sim, "far", "model://crate3d", at3(1e7, 1e7, 0));
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
                  strstr(rs.result.error_message, "outside the scene's bounds"),
              "%d %s", rs.result.result, rs.result.error_message);
    rs = spawn3(sim, "below", "model://crate3d", at3(0.6, 0.45, -50));
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    rs = spawn3(sim, "box", "model://crate3d", at3(0.6, 0.45, 0.36));
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    pb_sim_result r = move3(sim, "box", at3(1e7, 1e7, 0.36));
    CHECK_MSG(r.result == PB_SIM_SET_STATE_INVALID_POSE &&
                  strstr(r.error_message, "outside the scene's bounds"),
              "%d %s", r.result, r.error_message);
    r = move3(sim, "box", at3(0.6, 0.45, 0.37)); /* still fine inside */
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    pb_sim_destroy(sim);

    /* declared bounds: [0, 1]^3 */
    char world[4096];
    snprintf(world, sizeof world,
             "<simworld name=\"bounded\"><scene world=\"pbarm6_divider.xml\" robot=\"arm\" "
             "bounds=\"0 0 0 1 1 1\"/><spawnable robot=\"crate3d\"/></simworld>");
    sim = make_scene();
    if (!sim)
        return;
    pb_sim_world_info info;
    pb_sim_load_world(sim, NULL, world, false, &r, &info);
    CHECK_MSG(r.result == PB_SIM_RESULT_OK, "%s", r.error_message);
    rs = spawn3(sim, "inside", "model://crate3d", at3(0.6, 0.45, 0.36));
    CHECK_MSG(rs.result.result == PB_SIM_RESULT_OK, "%s", rs.result.error_message);
    rs = spawn3(sim, "outside", "model://crate3d", at3(-0.3, 0.45, 0.5));
    CHECK_MSG(rs.result.result == PB_SIM_SPAWN_INVALID_POSE &&
                  strstr(rs.result.error_message, "[0, 1] x [0, 1]"),
              "%s", rs.result.error_message);
    rs = spawn3(sim, "edge", "model://crate3d", at3(0.98, 0.45, 0.5)); /* its sphere crosses x = 1 */
    CHECK(rs.result.result == PB_SIM_SPAWN_INVALID_POSE);
    /* malformed bounds: the world is refused with a message naming the attribute */
    snprintf(
        world, sizeof world,
        "<simworld name=\"bad\"><scene world=\"%s/pbarm6_divider.xml\" robot=\"arm\" bounds=\"0 0 0 1 1\"/>"
        "</simworld>",
        worlds_dir);
    pb_sim_load_world(sim, NULL, world, false, &r, &info);
    CHECK_MSG(r.result != PB_SIM_RESULT_OK && strstr(r.error_message, "bounds"), "%d %s", r.result,
              r.error_message);
    pb_sim_destroy(sim);
}

int main(void)
{
    sim_fixture_init();
    test_world();
    test_spawn_and_set_state();
    test_plan_and_follow();
    test_goal_refused();
    test_plan_to_pose();
    test_plan_recheck();
    test_scene_bounds();
    return pb_test_summary("sim_scene");
}
