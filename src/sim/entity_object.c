/* The entity kind "object": a solid (box, cylinder, sphere) at a 6-DoF pose in a manipulator
 * scene, one of the solids of the scene's engine (pb_engine_solid_add), so the robot's
 * planner and edge check see it exactly where it is. It moves under a twist (world frame);
 * it neither plans nor follows paths. Poses are 7 values: x, y, z (metres) and a unit
 * quaternion qx, qy, qz, qw. */
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The scene robot's joints, NULL when the scene has none. */
static const double *robot_q(const pb_sim *sim)
{
    const sim_entity *robot = sim->world.robot_entity ? sim_find_entity(sim, sim->world.robot_entity) : NULL;
    /* only the robot's record holds joints (sim_entity) */
    return robot && robot->kind == &sim_kind_robot ? robot->joints : NULL;
}

static bool accepts(const sim_robot *robot, char *why, size_t size)
{
    if (robot->solid)
        return true;
    snprintf(why, size, "'%.100s' is a planar object: this world is a manipulator scene (3-D objects only)",
             robot->name);
    return false;
}

static void init(pb_sim *sim, sim_entity *e, const sim_robot *robot)
{
    (void)sim;
    e->shape = robot->shape;
}

/* Is solid `shape` free at `pose` (7 values) of the static obstacles, of every solid but
 * `self` and of the robot at its joints? Else false with what it hits in `why` (when not
 * NULL). */
static bool solid_is_free(pb_sim *sim, const pb_solid *shape, const double *pose, uint32_t self, char *why,
                          size_t size)
{
    /* the object's bounding sphere inside the scene's bounds */
    const double radius = shape->type == PB_SOLID_BOX
                              ? 0.5 * sqrt(shape->size[0] * shape->size[0] + shape->size[1] * shape->size[1] +
                                           shape->size[2] * shape->size[2])
                          : shape->type == PB_SOLID_CYLINDER ? hypot(shape->size[0], 0.5 * shape->size[1])
                                                             : shape->size[0];
    for (int i = 0; i < 3; i++)
        if (!(pose[i] - radius >= sim->scene_lo[i] && pose[i] + radius <= sim->scene_hi[i])) {
            SIM_EXPLAIN(
                why, size,
                "pose (%.3f, %.3f, %.3f) puts the object outside the scene's bounds [%g, %g] x [%g, %g] x "
                "[%g, %g]",
                pose[0], pose[1], pose[2], sim->scene_lo[0], sim->scene_hi[0], sim->scene_lo[1],
                sim->scene_hi[1], sim->scene_lo[2], sim->scene_hi[2]);
            return false;
        }
    const pb_pose placed = scene_pose_of(pose);
    char what[200];
    bool hits;
    if (pb_engine_solid_check(&hits, sim->engine, shape, &placed, self, robot_q(sim), false, what,
                              sizeof what) != PB_OK) {
        SIM_EXPLAIN(why, size, "malformed object or pose");
        return false;
    }
    if (hits)
        SIM_EXPLAIN(why, size, "pose (%.3f, %.3f, %.3f) puts the object on %s", pose[0], pose[1], pose[2],
                    what);
    return !hits;
}

static bool fits(pb_sim *sim, const sim_entity *e, const double *pose, char *why, size_t size)
{
    return solid_is_free(sim, &e->shape, pose, e->obstacle, why, size);
}

static pb_status attach(pb_sim *sim, sim_entity *e, const double *pose)
{
    const pb_pose placed = scene_pose_of(pose);
    const pb_status st = pb_engine_solid_add(&e->obstacle, sim->engine, &e->shape, &placed, e->name);
    if (st != PB_OK)
        return st;
    memcpy(e->pose3, pose, sizeof e->pose3);
    memcpy(e->initial_pose3, pose, sizeof e->initial_pose3);
    return PB_OK;
}

static void detach(pb_sim *sim, sim_entity *e)
{
    pb_engine_obstacle_remove(sim->engine, e->obstacle);
}

/* Put the object at `pose` (7 values, already checked free). */
static void place(pb_sim *sim, sim_entity *e, const double *pose)
{
    const pb_pose placed = scene_pose_of(pose);
    memcpy(e->pose3, pose, sizeof e->pose3);
    pb_engine_solid_move(sim->engine, e->obstacle, &placed);
}

/* The object moves under its twist; a step that would collide stops it at the last free
 * pose on the step (bisection, 12 halvings), as bodies do. The check is per step: a fast
 * object could pass through something thin between two steps. */
static void step(pb_sim *sim, sim_entity *e)
{
    if (e->commanded) { /* a velocity command in the object's frame: in the world's now */
        const pb_pose at = scene_pose_of(e->pose3);
        for (int i = 0; i < 3; i++) {
            e->twist3[i] = at.r[3 * i] * e->body_twist3[0] + at.r[3 * i + 1] * e->body_twist3[1] +
                           at.r[3 * i + 2] * e->body_twist3[2];
            e->twist3[3 + i] = at.r[3 * i] * e->body_twist3[3] + at.r[3 * i + 1] * e->body_twist3[4] +
                               at.r[3 * i + 2] * e->body_twist3[5];
        }
    }
    bool moving = false;
    for (int k = 0; k < 6; k++)
        moving |= e->twist3[k] != 0.0;
    if (!moving)
        return;
    double target[7];
    scene_twist_pose(e->pose3, e->twist3, sim->dt, target);
    if (fits(sim, e, target, NULL, 0)) {
        place(sim, e, target);
        return;
    }
    double lo = 0.0, hi = 1.0, best[7];
    memcpy(best, e->pose3, sizeof best);
    for (int k = 0; k < 12; k++) {
        const double t = (lo + hi) / 2;
        double q[7];
        scene_twist_pose(e->pose3, e->twist3, sim->dt * t, q);
        if (fits(sim, e, q, NULL, 0)) {
            lo = t;
            memcpy(best, q, sizeof best);
        } else {
            hi = t;
        }
    }
    place(sim, e, best);
    sim_push_event(sim, PB_SIM_EVENT_BLOCKED, e->name);
    sim_stop_motion(e);
}

static void state(const sim_entity *e, pb_sim_pose *pose, pb_sim_twist *twist)
{
    scene_pose_to_msg(e->pose3, pose);
    twist->linear = (pb_sim_vec3){e->twist3[0], e->twist3[1], e->twist3[2]};
    twist->angular = (pb_sim_vec3){e->twist3[3], e->twist3[4], e->twist3[5]};
}

/* An object's pose is checked as a spawn's is, and it may have any twist. */
static void set_state(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                      bool set_twist, pb_sim_result *r)
{
    const pb_sim_twist *tw = &rq->state.twist;
    if (set_pose) {
        double pose[7];
        char why[PB_SIM_MESSAGE_SIZE];
        if (!scene_pose_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
            !fits(sim, e, pose, why, sizeof why)) {
            sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
            return;
        }
        place(sim, e, pose);
    }
    if (set_twist) {
        sim_stop_motion(e);
        const double twist[6] = {tw->linear.x,  tw->linear.y,  tw->linear.z,
                                 tw->angular.x, tw->angular.y, tw->angular.z};
        memcpy(e->twist3, twist, sizeof twist);
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

static void bounds(const sim_entity *e, pb_sim_bounds *b)
{
    scene_solid_bounds(&e->shape, b);
}

static bool overlaps(pb_sim *sim, const sim_entity *e, const sim_region *region)
{
    (void)sim;
    const pb_pose placed = scene_pose_of(region->pose3), at = scene_pose_of(e->pose3);
    bool overlap = false;
    pb_solids_overlap(&overlap, &region->solid, &placed, &e->shape, &at);
    return overlap;
}

static bool reset(pb_sim *sim, sim_entity *e, char *why, size_t size)
{
    char what[PB_SIM_MESSAGE_SIZE];
    if (!fits(sim, e, e->initial_pose3, what, sizeof what)) {
        snprintf(why, size, "kept its pose: start %s", what);
        return false;
    }
    place(sim, e, e->initial_pose3);
    return true;
}

static size_t joints(const pb_sim *sim, const sim_entity *e, const char *const **names, double *values)
{
    (void)e;
    (void)values;
    if (names)
        *names = sim->arm_joint_names;
    return 0;
}

static void config(const pb_sim *sim, const sim_entity *e, double *q)
{
    (void)sim;
    memcpy(q, e->pose3, sizeof e->pose3);
}

static double distance(const pb_sim *sim, const sim_entity *e, const double *a, const double *b)
{
    (void)sim;
    (void)e;
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

static void describe(const pb_sim *sim, const sim_entity *e, char *out, size_t size)
{
    (void)sim;
    snprintf(out, size, "at (%.3f, %.3f, %.3f)", e->pose3[0], e->pose3[1], e->pose3[2]);
}

static bool plan_begin(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                       pb_sim_plan_job **out, pb_sim_plan_response *rs)
{
    (void)rq;
    (void)planner;
    (void)out;
    sim_set_result(&rs->result, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is an object of a manipulator scene: only the robot '%s' plans (objects move by "
                   "SetEntityState or a twist)",
                   e->name, sim_str(sim->world.robot_entity));
    return false;
}

static bool plan_check(pb_sim *sim, const sim_entity *e, const pb_sim_plan_job *job, char *why, size_t size)
{
    (void)sim;
    (void)e;
    (void)job;
    snprintf(why, size, "objects do not plan");
    return false;
}

static bool follow_begin(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq,
                         const double *joint_values, size_t n_given, uint64_t *goal, pb_sim_result *r)
{
    (void)rq;
    (void)joint_values;
    (void)n_given;
    (void)goal;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is an object of a manipulator scene: only the robot '%s' follows paths", e->name,
                   sim_str(sim->world.robot_entity));
    return false;
}

static size_t frames(const pb_sim *sim, const sim_entity *e, pb_frame *out, size_t max)
{
    (void)sim;
    if (out && max >= 1)
        out[0] = (pb_frame){"base_link", -1, false, scene_pose_of(e->pose3)};
    return 1;
}

static void command_velocity(pb_sim *sim, sim_entity *e, const pb_sim_twist *v, pb_sim_result *r)
{
    (void)sim;
    sim_stop_motion(e);
    const double body[6] = {v->linear.x, v->linear.y, v->linear.z, v->angular.x, v->angular.y, v->angular.z};
    memcpy(e->body_twist3, body, sizeof body);
    e->commanded = true;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

static void set_joints(pb_sim *sim, sim_entity *e, const double *q, pb_sim_result *r)
{
    (void)sim;
    (void)e;
    (void)q;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL); /* no joints: nothing named, nothing to do */
}

const sim_kind sim_kind_object = {
    .name = "object",
    .record_size = SIM_RECORD_UNTIL(joints),
    .accepts = accepts,
    .init = init,
    .pose_from_msg = scene_pose_from_msg,
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
};
