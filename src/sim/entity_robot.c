/* The entity kind "robot": a manipulator scene's robot, its state its joint vector (the
 * scene engine's C-space, sim->arm_dim values). Its base stays at the world origin; it takes
 * no twist and moves only along paths (/plan_path, /follow_path), each step checked with the
 * engine's own edge check against the scene's obstacles and objects as they are then. One per
 * scene, made when the world loads; it cannot be deleted. */
#include "sim_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The robot's default speed along a path, radians (metres for prismatic joints) of the
 * joint-space metric per second. */
#define ARM_SPEED 1.0

static const double origin[7] = {0, 0, 0, 0, 0, 0, 1};

/* The robot at joints `q`: false with why it is infeasible (a joint outside its limits, or
 * "link 'a' touches obstacle 'b'", objects included) when it is. */
static bool joints_free(pb_sim *sim, const double *q, char *why, size_t size)
{
    char what[PB_SIM_MESSAGE_SIZE];
    if (pb_engine_feasible(sim->engine, q))
        return true;
    if (!pb_engine_explain(sim->engine, q, what, sizeof what))
        snprintf(what, sizeof what, "in collision");
    SIM_EXPLAIN(why, size, "%s", what);
    return false;
}

/* "(j1, j2, ...)": a joint vector of the robot. */
static void format_joints(const double *q, int dim, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "(");
    for (int i = 0; i < dim && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%.3f", i ? ", " : "", q[i]);
    if (len < size)
        snprintf(out + len, size - len, ")");
}

/* The robot's path (`n` rows of arm_dim joints; segment 0 from `from`, none when NULL)
 * against the engine as it is now, with the engine's edge check (the planners' check). False
 * with the first blocked segment, where (the first configuration 0.005 rad apart that
 * collides) and what it hits in `why`. */
static bool path_is_free(pb_sim *sim, const double *from, const double *path, size_t n, char *why,
                         size_t size)
{
    const size_t dim = (size_t)sim->arm_dim;
    for (size_t i = from ? 0 : 1; i < n; i++) {
        const double *a = i == 0 ? from : path + dim * (i - 1), *b = path + dim * i;
        if (pb_engine_visible(sim->engine, a, b))
            continue;
        const double length = pb_engine_distance(sim->engine, a, b);
        const uint64_t steps = (uint64_t)fmin(fmax(ceil(length / 0.005), 1.0), 1e6);
        double where[PB_MAX_DIM];
        char what[PB_SIM_MESSAGE_SIZE], at_q[200], start[32];
        snprintf(what, sizeof what, "a contact the edge check finds between these configurations");
        memcpy(where, a, dim * sizeof *where);
        for (uint64_t k = 0; k <= steps; k++) {
            pb_engine_interpolate(sim->engine, a, b, (double)k / (double)steps, where);
            if (!joints_free(sim, where, what, sizeof what))
                break;
        }
        format_joints(where, sim->arm_dim, at_q, sizeof at_q);
        if (i == 0)
            snprintf(start, sizeof start, "the current joints");
        else
            snprintf(start, sizeof start, "waypoint %zu", i - 1);
        snprintf(why, size, "segment %zu (%.20s to waypoint %zu) is blocked at joints %.60s: %.80s", i, start,
                 i, at_q, what);
        return false;
    }
    return true;
}

static bool accepts(const sim_robot *robot, char *why, size_t size)
{
    snprintf(why, size, "'%.100s': a scene has one robot, its own", robot->name);
    return false;
}

static void init(pb_sim *sim, sim_entity *e, const sim_robot *robot)
{
    (void)sim;
    (void)robot;
    memcpy(e->pose3, origin, sizeof origin);
    memcpy(e->initial_pose3, origin, sizeof origin);
}

/* The robot's pose is its base's: the world origin, nothing else. */
static bool pose_from_msg(pb_sim *sim, const pb_sim_pose *msg, const char *frame, double *pose, char *why,
                          size_t size)
{
    if (!scene_pose_from_msg(sim, msg, frame, pose, why, size))
        return false;
    if (memcmp(pose, origin, sizeof origin) != 0) {
        snprintf(why, size, "the scene's robot stays at the world origin");
        return false;
    }
    return true;
}

static bool fits(pb_sim *sim, const sim_entity *e, const double *pose, char *why, size_t size)
{
    (void)pose;
    return joints_free(sim, e->joints, why, size);
}

static pb_status attach(pb_sim *sim, sim_entity *e, const double *pose)
{
    (void)sim;
    (void)e;
    (void)pose;
    return PB_OK; /* it is the engine's own robot */
}

static void detach(pb_sim *sim, sim_entity *e)
{
    (void)sim;
    (void)e;
}

/* The robot moves along its path: each step `follow_speed * dt` along the straight
 * joint-space edge towards the waypoint ahead, the step itself checked with the engine's
 * (certified) edge check against the obstacles and objects as they are now; a blocked step
 * stops it at the last free configuration found by bisection (12 halvings). */
static void step(pb_sim *sim, sim_entity *e)
{
    if (!(e->n_path > 0 && e->path_next < e->n_path))
        return;
    const size_t dim = (size_t)sim->arm_dim;
    const double *goal = e->path + dim * e->path_next;
    const double d = pb_engine_distance(sim->engine, e->joints, goal), reach = e->follow_speed * sim->dt;
    double target[PB_MAX_DIM];
    if (d <= reach) {
        memcpy(target, goal, dim * sizeof *target);
        e->path_next++;
    } else {
        pb_engine_interpolate(sim->engine, e->joints, goal, reach / d, target);
    }
    if (pb_engine_visible(sim->engine, e->joints, target)) {
        memcpy(e->joints, target, dim * sizeof *target);
    } else {
        double lo = 0.0, hi = 1.0, best[PB_MAX_DIM];
        memcpy(best, e->joints, dim * sizeof *best);
        for (int k = 0; k < 12; k++) {
            const double t = (lo + hi) / 2;
            double q[PB_MAX_DIM];
            pb_engine_interpolate(sim->engine, e->joints, target, t, q);
            if (pb_engine_visible(sim->engine, e->joints, q)) {
                lo = t;
                memcpy(best, q, dim * sizeof *best);
            } else {
                hi = t;
            }
        }
        memcpy(e->joints, best, dim * sizeof *best);
        sim_stop_following(e, SIM_FOLLOW_COLLIDED);
    }
    if (e->path_next >= e->n_path)
        sim_stop_following(e, SIM_FOLLOW_REACHED); /* no-op when the last motion collided */
}

static void state(const sim_entity *e, pb_sim_pose *pose, pb_sim_twist *twist)
{
    scene_pose_to_msg(e->pose3, pose);
    memset(twist, 0, sizeof *twist);
}

/* The robot's base stays at the world origin and its joints move only along paths. */
static void set_state(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                      bool set_twist, pb_sim_result *r)
{
    const pb_sim_twist *tw = &rq->state.twist;
    double pose[7];
    char why[PB_SIM_MESSAGE_SIZE];
    if (set_pose && !pose_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why)) {
        sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE,
                       "'%s' is the scene's robot: its base stays at the world origin (its joints move "
                       "along /follow_path and /plan_path paths)",
                       e->name);
        return;
    }
    if (set_twist && (tw->linear.x != 0 || tw->linear.y != 0 || tw->linear.z != 0 || tw->angular.x != 0 ||
                      tw->angular.y != 0 || tw->angular.z != 0)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is the scene's robot: it takes no twist (its joints move along paths)", e->name);
        return;
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* Its extent changes with its joints: TYPE_EMPTY (unbounded). */
static void bounds(const sim_entity *e, pb_sim_bounds *b)
{
    (void)e;
    memset(b, 0, sizeof *b);
}

static bool overlaps(pb_sim *sim, const sim_entity *e, const sim_region *region)
{
    const pb_pose placed = scene_pose_of(region->pose3);
    bool overlap = false;
    pb_engine_solid_check(&overlap, sim->engine, &region->solid, &placed, PB_OBSTACLE_NONE, e->joints, true,
                          NULL, 0);
    return overlap;
}

static bool reset(pb_sim *sim, sim_entity *e, char *why, size_t size)
{
    char what[PB_SIM_MESSAGE_SIZE];
    if (!joints_free(sim, e->initial_joints, what, sizeof what)) {
        snprintf(why, size, "kept its joints: start %s", what);
        return false;
    }
    memcpy(e->joints, e->initial_joints, sizeof e->joints);
    return true;
}

static size_t joints(const pb_sim *sim, const sim_entity *e, const char *const **names, double *values)
{
    const size_t n = (size_t)sim->arm_dim;
    if (names)
        *names = sim->arm_joint_names;
    if (n && values)
        memcpy(values, e->joints, n * sizeof *values);
    return n;
}

static void config(const pb_sim *sim, const sim_entity *e, double *q)
{
    memcpy(q, e->joints, (size_t)sim->arm_dim * sizeof *q);
}

static double distance(const pb_sim *sim, const sim_entity *e, const double *a, const double *b)
{
    (void)e;
    return pb_engine_distance(sim->engine, a, b);
}

static void describe(const pb_sim *sim, const sim_entity *e, char *out, size_t size)
{
    char at_q[200];
    format_joints(e->joints, sim->arm_dim, at_q, sizeof at_q);
    snprintf(out, size, "at joints %.150s", at_q);
}

/* Is `goal` what an omitted PlanPath goal becomes: position 0 and the identity orientation
 * (rosbridge's default) or a zero quaternion (a zeroed C struct)? */
static bool goal_is_unset(const pb_sim_pose *goal)
{
    return goal->position.x == 0 && goal->position.y == 0 && goal->position.z == 0 && goal->qx == 0 &&
           goal->qy == 0 && goal->qz == 0 && (goal->qw == 1 || goal->qw == 0);
}

/* A pose goal: the robot's tool frame (the engine's, see pb_engine_inverse_kinematics()) at
 * `pose` (7 values, world frame). Inverse kinematics on the scene's engine as it is now
 * (objects included), from the robot's joints and with the request's seed, gives up to
 * SIM_ARM_GOALS collision-free joint goals in `goals`, nearest the joints first; false with the
 * result set (`what` says which goal) when there is none. */
static bool pose_goals(pb_sim *sim, const sim_entity *e, const double *pose, uint64_t seed, const char *what,
                       double (*goals)[PB_MAX_DIM], size_t *n, pb_sim_plan_response *rs)
{
    double solutions[SIM_ARM_GOALS * PB_MAX_DIM];
    pb_ik_config config = pb_ik_config_default();
    config.reference = e->joints;
    config.seed = seed;
    config.max_solutions = SIM_ARM_GOALS;
    const pb_pose target = scene_pose_of(pose);
    pb_diag diag = {0};
    if (pb_engine_inverse_kinematics(solutions, n, sim->engine, NULL, &target, &config, &diag) != PB_OK) {
        sim_set_result(&rs->result, PB_SIM_RESULT_OPERATION_FAILED, "%s: %s", what, diag.message);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    for (size_t k = 0; k < *n; k++)
        memcpy(goals[k], solutions + k * (size_t)sim->arm_dim, (size_t)sim->arm_dim * sizeof *solutions);
    return true;
}

/* PlanPath: the goal is a named joint configuration, `goal_joints`, or a pose of the tool frame
 * (a named 6-DoF pose, or `goal` when neither a name nor joints are given) made joint goals by
 * inverse kinematics; the job plans on an engine of its own with the scene's objects copied in,
 * to each joint goal in turn until one is reached. */
static bool plan_begin(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                       pb_sim_plan_job **out, pb_sim_plan_response *rs)
{
    pb_sim_result *r = &rs->result;
    const int dim = sim->arm_dim;
    double goals[SIM_ARM_GOALS][PB_MAX_DIM];
    size_t n_goals = 1;
    char why[PB_SIM_MESSAGE_SIZE], what[PB_SIM_MESSAGE_SIZE];
    rs->joint_names = sim->arm_joint_names;
    if (!(rq->time_limit >= 0) || !(rq->speed >= 0) || !isfinite(rq->speed)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "time_limit and speed must be >= 0");
        return false;
    }
    const uint64_t seed = rq->seed ? rq->seed : 1;
    if (sim_str(rq->goal_name)[0]) {
        const sim_named_pose *p = sim_find_named_pose(sim, rq->goal_name);
        if (!p) {
            sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", rq->goal_name);
            return false;
        }
        snprintf(what, sizeof what, "named pose '%.100s'", p->name);
        if (!p->n_joints && !pose_goals(sim, e, p->pose, seed, what, goals, &n_goals, rs))
            return false;
        if (p->n_joints)
            memcpy(goals[0], p->joints, (size_t)dim * sizeof *goals[0]);
    } else if (rq->n_goal_joints == 0 && !goal_is_unset(&rq->goal)) {
        double pose[7];
        if (!scene_pose_from_msg(sim, &rq->goal, "", pose, why, sizeof why)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
            return false;
        }
        if (!pose_goals(sim, e, pose, seed, "goal pose", goals, &n_goals, rs))
            return false;
    } else if (rq->n_goal_joints != (size_t)dim) {
        sim_set_result(
            r, PB_SIM_RESULT_OPERATION_FAILED,
            "goal_joints: '%s' plans its %d joints (%s, ...): give %d values, a goal_name or a goal "
            "pose of its tool, got %zu",
            e->name, dim, sim->arm_joint_names[0], dim, rq->n_goal_joints);
        return false;
    } else {
        for (int k = 0; k < dim; k++) {
            if (!isfinite(rq->goal_joints[k])) {
                sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: values must be finite");
                return false;
            }
            goals[0][k] = rq->goal_joints[k];
        }
    }
    /* a joint goal is checked here; inverse kinematics returns feasible ones only */
    if (!joints_free(sim, goals[0], why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    pb_sim_plan_job *job = calloc(1, sizeof *job);
    pb_diag diag = {0};
    if (job && !sim->arm_plan) /* the spare engine is out with another plan: load one */
        pb_engine_load(&sim->arm_plan, "manipulator", sim->world.scene_path, NULL, 0, &diag);
    if (job && sim->arm_plan) {
        job->arm_engine = sim->arm_plan;
        sim->arm_plan = NULL;
    }
    if (!job || !job->arm_engine || !(job->entity = sim_strdup(e->name)) ||
        pb_engine_obstacles_copy(job->arm_engine, sim->engine) != PB_OK) {
        pb_sim_plan_job_destroy(job);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s",
                       diag.message[0] ? diag.message : "out of memory");
        return false;
    }
    job->arm_dim = dim;
    memcpy(job->arm_start, e->joints, (size_t)dim * sizeof *e->joints);
    memcpy(job->arm_goals, goals, n_goals * sizeof *goals);
    job->n_arm_goals = n_goals;
    snprintf(job->planner, sizeof job->planner, "%s", planner);
    job->time_limit = rq->time_limit > 0 ? fmin(rq->time_limit, sim->plan_time_limit) : 1.0;
    job->seed = seed;
    job->follow = rq->follow;
    job->budget = rq->budget;
    job->speed = rq->speed > 0 ? rq->speed : ARM_SPEED;
    job->entity_serial = e->serial;
    job->world_serial = sim->world_serial;
    /* the path's rows are joint vectors; the base is the identity pose */
    job->stride = job->n_joints = (size_t)dim;
    job->pose_values = job->joint_offset = 0;
    job->joint_names = sim->arm_joint_names;
    atomic_init(&job->done, 0);
    *out = job;
    return true;
}

static bool plan_check(pb_sim *sim, const sim_entity *e, const pb_sim_plan_job *job, char *why, size_t size)
{
    if (memcmp(e->joints, job->arm_start, (size_t)job->arm_dim * sizeof *e->joints) != 0) {
        char was[200], is[200];
        format_joints(job->arm_start, job->arm_dim, was, sizeof was);
        format_joints(e->joints, job->arm_dim, is, sizeof is);
        snprintf(why, size, "'%s' moved while its path was planned (from %.100s to %.100s); plan again",
                 e->name, was, is);
        return false;
    }
    char what[PB_SIM_MESSAGE_SIZE];
    if (!path_is_free(sim, NULL, job->path, job->n_path, what, sizeof what)) {
        snprintf(why, size, "an entity moved into the path while it was planned: %s", what);
        return false;
    }
    return true;
}

/* FollowPath: the waypoints' joints are the rows of `joint_values` (one value per planned
 * joint; the poses, the base's, are not read), every waypoint and segment checked against the
 * scene now. */
static bool follow_begin(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq,
                         const double *joint_values, size_t n_given, uint64_t *goal, pb_sim_result *r)
{
    const size_t dim = (size_t)sim->arm_dim;
    if (n_given != dim || !joint_values) {
        sim_set_result(
            r, PB_SIM_RESULT_OPERATION_FAILED,
            "joint values: '%s' needs its %zu joints per waypoint (joint_positions), got %zu per waypoint",
            e->name, dim, n_given);
        return false;
    }
    char why[PB_SIM_MESSAGE_SIZE];
    for (size_t i = 0; i < rq->n_path; i++) {
        bool ok = true;
        for (size_t k = 0; k < dim; k++)
            ok = ok && isfinite(joint_values[dim * i + k]);
        if (!ok)
            snprintf(why, sizeof why, "joint values must be finite");
        if (!ok || !joints_free(sim, joint_values + dim * i, why, sizeof why)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "waypoint %zu: %s", i, why);
            return false;
        }
    }
    if (!path_is_free(sim, e->joints, joint_values, rq->n_path, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        return false;
    }
    const double speed = rq->speed > 0 ? rq->speed : ARM_SPEED;
    double length = 0.0;
    for (size_t i = 0; i < rq->n_path; i++)
        length += pb_engine_distance(sim->engine, i ? joint_values + dim * (i - 1) : e->joints,
                                     joint_values + dim * i);
    if (!sim_follow_length_ok(sim, length, speed, rq->n_path, r))
        return false;
    double *path = malloc(rq->n_path * dim * sizeof *path);
    if (!path) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    memcpy(path, joint_values, rq->n_path * dim * sizeof *path);
    sim_start_following(sim, e, path, rq->n_path, dim, speed, goal);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

/* The robot's links (its URDF's), by forward kinematics at its joints. */
static size_t frames(const pb_sim *sim, const sim_entity *e, pb_frame *out, size_t max)
{
    return pb_engine_frames(sim->engine, e->joints, out, max);
}

static void command_velocity(pb_sim *sim, sim_entity *e, const pb_sim_twist *v, pb_sim_result *r)
{
    (void)sim;
    (void)v;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is the scene's robot: its base does not move (command its joints on "
                   "/%s/joint_commands)",
                   e->name, e->name);
}

static void set_joints(pb_sim *sim, sim_entity *e, const double *q, pb_sim_result *r)
{
    char why[PB_SIM_MESSAGE_SIZE];
    if (!joints_free(sim, q, why, sizeof why)) {
        sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
        return;
    }
    sim_stop_following(e, SIM_FOLLOW_TELEPORTED);
    memcpy(e->joints, q, (size_t)sim->arm_dim * sizeof *q);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

const sim_kind sim_kind_robot = {
    .name = "robot",
    .record_size = SIM_RECORD_UNTIL(vehicle),
    .accepts = accepts,
    .init = init,
    .pose_from_msg = pose_from_msg,
    .fits = fits,
    .attach = attach,
    .detach = detach,
    .step = step,
    .pose_to_msg = scene_pose_to_msg,
    .state = state,
    .set_state = set_state,
    .bounds = bounds,
    .overlaps = overlaps,
    .reset = reset,
    .joints = joints,
    .config = config,
    .distance = distance,
    .describe = describe,
    .plan_begin = plan_begin,
    .plan_check = plan_check,
    .follow_begin = follow_begin,
    .frames = frames,
    .command_velocity = command_velocity,
    .set_joints = set_joints,
    .undeletable = "is the scene's robot: it cannot be deleted",
};

/* ---- the robot joins a scene ---- */

/* A named pose `name` of the scene's robot at joints `q`, unless the world names one so. */
static bool add_joint_pose(sim_world *w, const char *name, const double *q, int dim)
{
    for (size_t i = 0; i < w->n_poses; i++)
        if (strcmp(w->poses[i].name, name) == 0)
            return true;
    sim_named_pose *grown = realloc(w->poses, (w->n_poses + 1) * sizeof *grown);
    if (!grown)
        return false;
    w->poses = grown;
    sim_named_pose *p = &w->poses[w->n_poses];
    memset(p, 0, sizeof *p);
    p->name = sim_strdup(name);
    p->description = sim_strdup(strcmp(name, "start") == 0 ? "the scene world's default start (joints)"
                                                           : "the scene world's default goal (joints)");
    if (!p->name || !p->description) {
        free(p->name);
        free(p->description);
        return false;
    }
    memcpy(p->joints, q, (size_t)dim * sizeof *q);
    p->n_joints = dim;
    w->n_poses++;
    return true;
}

bool sim_robot_install(pb_sim *sim, const double *start, const double *goal, char *why, size_t size)
{
    sim->arm_dim = pb_engine_dim(sim->engine);
    if (sim->world.has_scene_bounds) {
        memcpy(sim->scene_lo, sim->world.scene_bounds, 3 * sizeof(double));
        memcpy(sim->scene_hi, sim->world.scene_bounds + 3, 3 * sizeof(double));
    } else {
        /* undeclared: the robot's workspace, 1 m beyond its reach */
        if (pb_engine_workspace(sim->engine, sim->scene_lo, sim->scene_hi) != PB_OK) {
            snprintf(why, size, "the scene's engine has no workspace: declare <scene bounds=...>");
            return false;
        }
    }
    for (int i = 0; i < sim->arm_dim; i++)
        sim->arm_joint_names[i] = pb_engine_coordinate_name(sim->engine, i);
    if (!add_joint_pose(&sim->world, "start", start, sim->arm_dim) ||
        !add_joint_pose(&sim->world, "goal", goal, sim->arm_dim)) {
        snprintf(why, size, "out of memory");
        return false;
    }
    for (size_t i = 0; i < sim->world.n_poses; i++) {
        const sim_named_pose *p = &sim->world.poses[i];
        char what[PB_SIM_MESSAGE_SIZE];
        if (p->n_joints && p->n_joints != sim->arm_dim) {
            snprintf(why, size, "named pose '%.60s': %d joint values for a robot of %d joints", p->name,
                     p->n_joints, sim->arm_dim);
            return false;
        }
        if (p->n_joints && !joints_free(sim, p->joints, what, sizeof what)) {
            snprintf(why, size, "named pose '%.60s': %.160s", p->name, what);
            return false;
        }
    }
    char tag_robot[] = "robot", tag_arm[] = "manipulator";
    char *tags[] = {tag_robot, tag_arm};
    char description[PB_SIM_MESSAGE_SIZE];
    snprintf(description, sizeof description,
             "the scene's robot: its state is its %d joints (see /plan_path, /follow_path)", sim->arm_dim);
    sim_robot arm = {.name = sim->world.robot_entity,
                     .description = description,
                     .category = PB_SIM_CATEGORY_ROBOT,
                     .tags = {tags, 2}};
    sim_entity prepared;
    sim_entity_prepare(&prepared, sim, &sim_kind_robot, &arm);
    sim_entity *e = sim_add_entity(sim, &prepared, sim->world.robot_entity, &arm, origin, false, false);
    if (!e) {
        snprintf(why, size, "out of memory");
        return false;
    }
    memcpy(e->joints, start, (size_t)sim->arm_dim * sizeof *start);
    memcpy(e->initial_joints, start, (size_t)sim->arm_dim * sizeof *start);
    return true;
}
