/* The entity kind "body": a planar footprint (a disc, a rectangle or the stick arm) at a pose
 * (x, y, yaw) on a map, one of the dynamic obstacles of the map's engine
 * (pb_engine_obstacle_add), so every pose and every step is checked by the engine the
 * planners use. It moves under a twist (vx, vy, wz) or along a path in its C-space
 * (plan_job.c: x, y, yaw and the arm's elbow), and plans with any registered planner. */
#include "sim_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A body's default speed along a path, map pixels per second (a metric map's resolution times
 * this in metres). */
#define BODY_SPEED 40.0

static const char *const arm_joint_names[] = {"joint2"};

static double default_speed(const pb_sim *sim)
{
    pb_map_frame frame;
    return BODY_SPEED * (pb_engine_map_frame(sim->engine, &frame) ? frame.resolution : 1.0);
}

const char *sim_entity_by_obstacle(const pb_sim *sim, uint32_t id)
{
    const sim_entity *e = sim_entity_of_obstacle(sim, id);
    return e ? e->name : "?";
}

/* The footprint check at a pose: true when free, else false with a message naming what it
 * hits written into `why` (when `why` is NULL nothing is formatted: the motion step only
 * needs the answer). */
bool sim_footprint_free(pb_sim *sim, const pb_footprint *fp, const double *pose, uint32_t self, char *why,
                        size_t size)
{
    pb_hit hit;
    if (pb_engine_footprint_check(sim->engine, fp, pose, self, &hit) != PB_OK) {
        SIM_EXPLAIN(why, size, "the world's engine cannot check footprints");
        return false;
    }
    switch (hit.kind) {
    case PB_HIT_NONE:
        return true;
    case PB_HIT_OUTSIDE:
        SIM_EXPLAIN(why, size,
                    "pose (%.3f, %.3f, %.3f) puts the footprint outside the map [%g, %g] x [%g, %g]", pose[0],
                    pose[1], pose[2], pb_engine_lower(sim->engine)[0], pb_engine_upper(sim->engine)[0],
                    pb_engine_lower(sim->engine)[1], pb_engine_upper(sim->engine)[1]);
        return false;
    case PB_HIT_MAP:
        SIM_EXPLAIN(why, size, "pose (%.3f, %.3f, %.3f) hits an obstacle of the map at pixel (%d, %d)",
                    pose[0], pose[1], pose[2], hit.pixel_x, hit.pixel_y);
        return false;
    case PB_HIT_OBSTACLE:
        SIM_EXPLAIN(why, size, "pose (%.3f, %.3f, %.3f) overlaps entity '%s'", pose[0], pose[1], pose[2],
                    sim_entity_by_obstacle(sim, hit.obstacle_id));
        return false;
    default:
        SIM_EXPLAIN(why, size, "malformed footprint or pose");
        return false;
    }
}

/* The body's configuration: x, y, yaw and, for an arm, the elbow (SIM_Q values). */
static void config(const pb_sim *sim, const sim_entity *e, double *q)
{
    (void)sim;
    memcpy(q, e->pose, 3 * sizeof *q);
    q[3] = e->footprint.type == PB_FOOTPRINT_ARM ? e->footprint.joint2 : 0.0;
}

/* Put the body at configuration `q` (already checked free). An arm whose elbow turned has
 * another shape: its obstacle is replaced (the removal frees the slot the addition reuses,
 * so the addition cannot run out of memory). */
static void place(pb_sim *sim, sim_entity *e, const double *q)
{
    memcpy(e->pose, q, 3 * sizeof *q);
    if (e->footprint.type == PB_FOOTPRINT_ARM && q[3] != e->footprint.joint2) {
        e->footprint.joint2 = q[3];
        uint32_t id;
        pb_engine_obstacle_remove(sim->engine, e->obstacle);
        if (pb_engine_obstacle_add(&id, sim->engine, &e->footprint, e->pose) == PB_OK) {
            e->obstacle = id;
            sim_note_obstacle(sim, e);
        }
        return;
    }
    pb_engine_obstacle_move(sim->engine, e->obstacle, e->pose);
}

/* Distance between two configurations in the metric of the body's C-space. */
static double distance(const pb_sim *sim, const sim_entity *e, const double *a, const double *b)
{
    (void)sim;
    double w[SIM_Q];
    sim_space_weights(&e->footprint, w);
    double sum = 0.0;
    for (int k = 0; k < SIM_Q; k++) {
        const double d = w[k] * (k < 2 ? b[k] - a[k] : sim_wrap_angle(b[k] - a[k]));
        sum += d * d;
    }
    return sqrt(sum);
}

/* The configuration a fraction `t` of the way from `a` to `b`: the C-space's straight edge
 * (angles the short way round), as the planners' edge check walks it. */
static void interpolate(const double *a, const double *b, double t, double *out)
{
    for (int k = 0; k < SIM_Q; k++)
        out[k] = k < 2 ? a[k] + t * (b[k] - a[k]) : sim_wrap_angle(a[k] + t * sim_wrap_angle(b[k] - a[k]));
}

static bool accepts(const sim_robot *robot, char *why, size_t size)
{
    if (!robot->solid)
        return true;
    snprintf(why, size, "'%.100s' is a 3-D object: this world is a planar map", robot->name);
    return false;
}

static void init(pb_sim *sim, sim_entity *e, const sim_robot *robot)
{
    (void)sim;
    e->footprint = robot->footprint;
    e->initial_joint2 = robot->footprint.joint2;
}

/* A pose message to (x, y, yaw) in the world frame. False with `why` on a bad quaternion,
 * roll or pitch, a non-finite position or an unknown frame. */
bool sim_planar_pose_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                              size_t size)
{
    double n;
    const sim_entity *ref;
    if (!sim_pose_msg_valid(sim, p, frame, &n, &ref, why, size))
        return false;
    if (fabs(p->qx / n) > 1e-3 || fabs(p->qy / n) > 1e-3) {
        snprintf(why, size, "planar entities cannot roll or pitch (quaternion x, y must be 0)");
        return false;
    }
    double local[3] = {p->position.x, p->position.y, 2 * atan2(p->qz / n, p->qw / n)};
    if (ref) {
        const double c = cos(ref->pose[2]), s = sin(ref->pose[2]);
        const double x = ref->pose[0] + c * local[0] - s * local[1],
                     y = ref->pose[1] + s * local[0] + c * local[1];
        local[0] = x;
        local[1] = y;
        local[2] += ref->pose[2];
    }
    local[2] = sim_wrap_angle(local[2]);
    memcpy(out, local, sizeof local);
    return true;
}

static bool fits(pb_sim *sim, const sim_entity *e, const double *pose, char *why, size_t size)
{
    return sim_footprint_free(sim, &e->footprint, pose, e->obstacle, why, size);
}

static pb_status attach(pb_sim *sim, sim_entity *e, const double *pose)
{
    const pb_status st = pb_engine_obstacle_add(&e->obstacle, sim->engine, &e->footprint, pose);
    if (st != PB_OK)
        return st;
    memcpy(e->pose, pose, sizeof e->pose);
    memcpy(e->initial_pose, pose, sizeof e->initial_pose);
    return PB_OK;
}

static void detach(pb_sim *sim, sim_entity *e)
{
    pb_engine_obstacle_remove(sim->engine, e->obstacle);
}

/* Move the body by its twist (or along its path) for one time step. A path is followed along
 * the straight C-space edges between waypoints (the edges the planner and follow_begin()
 * checked). A motion that would collide stops the body at the last free configuration, found
 * by bisection on the step. */
static void step(pb_sim *sim, sim_entity *e)
{
    double from[SIM_Q], target[SIM_Q];
    config(sim, e, from);
    const bool following = e->n_path > 0 && e->path_next < e->n_path;
    if (following) {
        const double *goal = e->path + SIM_Q * e->path_next;
        const double d = distance(sim, e, from, goal), reach = e->follow_speed * sim->dt;
        if (d <= reach) {
            memcpy(target, goal, sizeof target);
            e->path_next++;
        } else {
            interpolate(from, goal, reach / d, target);
        }
    } else if (e->commanded) {
        const double *v = e->body_twist;
        if (v[0] == 0 && v[1] == 0 && v[2] == 0)
            return;
        /* constant velocity in the body frame: an arc, integrated exactly */
        const double th = v[2] * sim->dt, yaw = e->pose[2];
        double dx, dy; /* in the body frame at the start of the step */
        if (fabs(th) < 1e-12) {
            dx = v[0] * sim->dt;
            dy = v[1] * sim->dt;
        } else {
            const double s = sin(th), c1 = 1.0 - cos(th);
            dx = (v[0] * s - v[1] * c1) / v[2];
            dy = (v[0] * c1 + v[1] * s) / v[2];
        }
        target[0] = e->pose[0] + cos(yaw) * dx - sin(yaw) * dy;
        target[1] = e->pose[1] + sin(yaw) * dx + cos(yaw) * dy;
        target[2] = sim_wrap_angle(yaw + th);
        target[3] = from[3];
    } else {
        if (e->twist[0] == 0 && e->twist[1] == 0 && e->twist[2] == 0)
            return;
        target[0] = e->pose[0] + e->twist[0] * sim->dt;
        target[1] = e->pose[1] + e->twist[1] * sim->dt;
        target[2] = sim_wrap_angle(e->pose[2] + e->twist[2] * sim->dt);
        target[3] = from[3];
    }
    pb_footprint fp = sim_footprint_at(&e->footprint, target);
    if (sim_footprint_free(sim, &fp, target, e->obstacle, NULL, 0)) {
        place(sim, e, target);
    } else {
        double lo = 0.0, hi = 1.0, best[SIM_Q];
        memcpy(best, from, sizeof best);
        for (int k = 0; k < 12; k++) {
            const double t = (lo + hi) / 2;
            double q[SIM_Q];
            interpolate(from, target, t, q);
            fp = sim_footprint_at(&e->footprint, q);
            if (sim_footprint_free(sim, &fp, q, e->obstacle, NULL, 0)) {
                lo = t;
                memcpy(best, q, sizeof best);
            } else {
                hi = t;
            }
        }
        place(sim, e, best);
        if (!following)
            sim_push_event(sim, PB_SIM_EVENT_BLOCKED, e->name);
        sim_stop_motion(e);
        sim_stop_following(e, SIM_FOLLOW_COLLIDED);
    }
    if (following && e->path_next >= e->n_path)
        sim_stop_following(e, SIM_FOLLOW_REACHED); /* no-op when the last motion collided */
}

void sim_planar_pose_to_msg(const double *pose, pb_sim_pose *out)
{
    *out = (pb_sim_pose){.position = {pose[0], pose[1], 0.0}, .qz = sin(pose[2] / 2), .qw = cos(pose[2] / 2)};
}

static void state(const sim_entity *e, pb_sim_pose *pose, pb_sim_twist *twist)
{
    sim_planar_pose_to_msg(e->pose, pose);
    memset(twist, 0, sizeof *twist);
    if (e->commanded) { /* the body-frame command, in the world frame now */
        const double c = cos(e->pose[2]), s = sin(e->pose[2]);
        twist->linear.x = c * e->body_twist[0] - s * e->body_twist[1];
        twist->linear.y = s * e->body_twist[0] + c * e->body_twist[1];
        twist->angular.z = e->body_twist[2];
        return;
    }
    twist->linear.x = e->twist[0];
    twist->linear.y = e->twist[1];
    twist->angular.z = e->twist[2];
}

static void set_state(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                      bool set_twist, pb_sim_result *r)
{
    const pb_sim_twist *tw = &rq->state.twist;
    if (set_twist && (tw->linear.z != 0 || tw->angular.x != 0 || tw->angular.y != 0)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "planar entities move in x, y and yaw only (linear.z, angular.x, "
                       "angular.y must be 0)");
        return;
    }
    double pose[3];
    if (set_pose) {
        char why[PB_SIM_MESSAGE_SIZE];
        if (!sim_planar_pose_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
            !fits(sim, e, pose, why, sizeof why)) {
            sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
            return;
        }
        memcpy(e->pose, pose, sizeof pose);
        pb_engine_obstacle_move(sim->engine, e->obstacle, pose);
        sim_stop_following(e, SIM_FOLLOW_TELEPORTED); /* a teleported body stops following its path */
    }
    if (set_twist) {
        sim_stop_motion(e);
        e->twist[0] = tw->linear.x;
        e->twist[1] = tw->linear.y;
        e->twist[2] = tw->angular.z;
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* The footprint in its own frame, as a box [min, max]. */
void sim_planar_bounds(const sim_entity *e, pb_sim_bounds *b)
{
    static const double at_origin[3] = {0, 0, 0};
    double lo[2], hi[2];
    pb_footprint_aabb(&e->footprint, at_origin, lo, hi);
    memset(b, 0, sizeof *b);
    b->type = PB_SIM_BOUNDS_BOX;
    b->n_points = 2;
    b->points[0] = (pb_sim_vec3){lo[0], lo[1], 0.0};
    b->points[1] = (pb_sim_vec3){hi[0], hi[1], 0.0};
}

/* How far footprint `fp` reaches from its pose at any yaw (map units): at least as far as
 * any of its points (an arm's links are capsules a pixel wide: `pixel` more). */
static double footprint_reach(const pb_footprint *fp, double pixel)
{
    switch (fp->type) {
    case PB_FOOTPRINT_DISC:
        return fp->radius;
    case PB_FOOTPRINT_RECT:
        return fabs(fp->offset) + hypot(fp->half_length, fp->half_width);
    default:
        return fabs(fp->link1) + fabs(fp->link2) + pixel;
    }
}

bool sim_planar_overlaps(pb_sim *sim, const sim_entity *e, const sim_region *region)
{
    /* a filter tests every entity: one far from the region (a region's box, turned by no yaw,
     * against a square around the footprint) is settled without making both shapes, which
     * cost 100 times more (bench_sim_scale's GetEntities box at 10,000 entities) */
    (void)sim;
    const double reach = footprint_reach(&e->footprint, region->pixel) + region->pixel;
    const pb_footprint *r = &region->footprint;
    const double half_x = r->type == PB_FOOTPRINT_DISC ? r->radius : r->half_length,
                 half_y = r->type == PB_FOOTPRINT_DISC ? r->radius : r->half_width;
    if (fabs(e->pose[0] - region->pose[0]) > reach + half_x ||
        fabs(e->pose[1] - region->pose[1]) > reach + half_y)
        return false;
    return pb_footprint_overlap(&region->footprint, region->pose, &e->footprint, e->pose);
}

static bool reset(pb_sim *sim, sim_entity *e, char *why, size_t size)
{
    const double start[SIM_Q] = {e->initial_pose[0], e->initial_pose[1], e->initial_pose[2],
                                 e->initial_joint2};
    const pb_footprint fp = sim_footprint_at(&e->footprint, start);
    char what[PB_SIM_MESSAGE_SIZE];
    if (!sim_footprint_free(sim, &fp, e->initial_pose, e->obstacle, what, sizeof what)) {
        snprintf(why, size, "kept its pose: start %s", what);
        return false;
    }
    place(sim, e, start);
    return true;
}

static size_t joints(const pb_sim *sim, const sim_entity *e, const char *const **names, double *values)
{
    (void)sim;
    if (names)
        *names = arm_joint_names;
    const size_t n = e->footprint.type == PB_FOOTPRINT_ARM ? 1 : 0;
    if (n && values)
        values[0] = e->footprint.joint2;
    return n;
}

/* "(x, y, yaw)" or, for an arm, "(x, y, yaw, joint2)". */
static void format_q(const pb_footprint *fp, const double *q, char *out, size_t size)
{
    if (fp->type == PB_FOOTPRINT_ARM)
        snprintf(out, size, "(%.3f, %.3f, %.3f, joint2 %.3f)", q[0], q[1], q[2], q[3]);
    else
        snprintf(out, size, "(%.3f, %.3f, %.3f)", q[0], q[1], q[2]);
}

static void describe(const pb_sim *sim, const sim_entity *e, char *out, size_t size)
{
    (void)sim;
    snprintf(out, size, "at (%.3f, %.3f, %.3f)", e->pose[0], e->pose[1], e->pose[2]);
}

/* ---- planning: the body's C-space (plan_job.c) with the other entities as obstacles ---- */

/* The entities other than `self` as obstacles of its C-space (a snapshot); `*index` (when
 * `index` is not NULL; the caller frees it) maps each back to its entity. */
bool sim_planar_others(const pb_sim *sim, const sim_entity *self, sim_obstacle **out, size_t **index,
                       size_t *n)
{
    *out = NULL;
    *n = 0;
    if (index)
        *index = NULL;
    if (sim->n_entities <= 1)
        return true;
    sim_obstacle *o = malloc((sim->n_entities - 1) * sizeof *o);
    size_t *ix = index ? malloc((sim->n_entities - 1) * sizeof *ix) : NULL;
    if (!o || (index && !ix)) {
        free(o);
        free(ix);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < sim->n_entities; i++) {
        const sim_entity *e = sim->entities[i];
        if (e == self)
            continue;
        o[k].footprint = e->footprint;
        memcpy(o[k].pose, e->pose, sizeof o[k].pose);
        pb_footprint_aabb(&e->footprint, e->pose, o[k].lo, o[k].hi);
        if (ix)
            ix[k] = i;
        k++;
    }
    *out = o;
    *n = k;
    if (index)
        *index = ix;
    return true;
}

/* The C-space of body `e` in the world as it is now (owned by the caller); `*index` maps its
 * obstacles to entities (the caller frees it). NULL with `why` on failure. */
static pb_engine *entity_space(pb_sim *sim, const sim_entity *e, size_t **index, char *why, size_t size)
{
    sim_obstacle *others;
    size_t n;
    if (!sim_planar_others(sim, e, &others, index, &n)) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    pb_engine *space = NULL;
    sim_space_create(&space, sim->plan_map, &e->footprint, others, n, e->pose[2], why, size);
    free(others);
    if (!space) {
        free(*index);
        *index = NULL;
    }
    return space;
}

static void explain_hit(pb_sim *sim, const sim_space_hit *hit, const size_t *index, char *why, size_t size)
{
    switch (hit->kind) {
    case PB_HIT_OUTSIDE:
        snprintf(why, size, "the footprint leaves the map [%g, %g] x [%g, %g]",
                 pb_engine_lower(sim->engine)[0], pb_engine_upper(sim->engine)[0],
                 pb_engine_lower(sim->engine)[1], pb_engine_upper(sim->engine)[1]);
        break;
    case PB_HIT_MAP:
        snprintf(why, size, "hits an obstacle of the map at pixel (%d, %d)", hit->pixel_x, hit->pixel_y);
        break;
    case PB_HIT_OBSTACLE:
        snprintf(why, size, "overlaps entity '%.128s'", sim->entities[index[hit->other]]->name);
        break;
    default:
        snprintf(why, size, "malformed footprint or pose");
        break;
    }
}

/* Are the segments of `path` (`n` configurations of SIM_Q) free in body `e`'s C-space as the
 * world is now, by the planners' edge check? Segment i ends at waypoint i and starts at
 * waypoint i - 1, or at `from` for i = 0 (no segment 0 when `from` is NULL). False with the
 * first blocked segment, where and what it hits in `why`. */
static bool path_is_free(pb_sim *sim, const sim_entity *e, const double *from, const double *path, size_t n,
                         char *why, size_t size)
{
    size_t *index = NULL;
    pb_engine *space = entity_space(sim, e, &index, why, size);
    if (!space)
        return false;
    bool ok = true;
    for (size_t i = from ? 0 : 1; i < n && ok; i++) {
        const double *qa = i == 0 ? from : path + SIM_Q * (i - 1);
        double a[SIM_Q], b[SIM_Q], where[SIM_Q], full[SIM_Q];
        sim_space_from_full(&e->footprint, qa, a);
        sim_space_from_full(&e->footprint, path + SIM_Q * i, b);
        sim_space_hit hit;
        if (!sim_space_segment(space, a, b, where, &hit)) {
            char what[PB_SIM_MESSAGE_SIZE], at_q[96], start[32];
            memcpy(full, qa, sizeof full);
            sim_space_to_full(&e->footprint, where, full);
            explain_hit(sim, &hit, index, what, sizeof what);
            format_q(&e->footprint, full, at_q, sizeof at_q);
            if (i == 0)
                snprintf(start, sizeof start, "the current pose");
            else
                snprintf(start, sizeof start, "waypoint %zu", i - 1);
            snprintf(why, size, "segment %zu (%.20s to waypoint %zu) is blocked at %.60s: %.90s", i, start, i,
                     at_q, what);
            ok = false;
        }
    }
    pb_engine_destroy(space);
    free(index);
    return ok;
}

bool sim_planar_goal(pb_sim *sim, const pb_sim_plan_request *rq, double *goal, pb_sim_plan_response *rs)
{
    pb_sim_result *r = &rs->result;
    char why[PB_SIM_MESSAGE_SIZE];
    if (sim_str(rq->goal_name)[0]) {
        const sim_named_pose *p = sim_find_named_pose(sim, rq->goal_name);
        if (!p) {
            sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", rq->goal_name);
            return false;
        }
        memcpy(goal, p->pose, 3 * sizeof *goal);
    } else if (!sim_planar_pose_from_msg(sim, &rq->goal, "", goal, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        return false;
    }
    if (!(rq->time_limit >= 0) || !(rq->speed >= 0) || !isfinite(rq->speed)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "time_limit and speed must be >= 0");
        return false;
    }
    return true;
}

static bool plan_begin(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                       pb_sim_plan_job **out, pb_sim_plan_response *rs)
{
    pb_sim_result *r = &rs->result;
    double goal[SIM_Q];
    config(sim, e, goal); /* joints not given keep their values */
    char why[PB_SIM_MESSAGE_SIZE];
    if (!sim_planar_goal(sim, rq, goal, rs))
        return false;
    const size_t n_joints = joints(sim, e, NULL, NULL);
    if (rq->n_goal_joints != 0 && rq->n_goal_joints != n_joints) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "goal_joints: '%s' has %zu joint%s%s, got %zu values", e->name, n_joints,
                       n_joints == 1 ? "" : "s", n_joints ? " (joint2)" : "", rq->n_goal_joints);
        return false;
    }
    for (size_t k = 0; k < rq->n_goal_joints; k++) {
        if (!isfinite(rq->goal_joints[k])) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: values must be finite");
            return false;
        }
        goal[3 + k] = sim_wrap_angle(rq->goal_joints[k]);
    }
    /* the planner runs off the server thread, but a client still waits for its answer */
    const double time_limit = rq->time_limit > 0 ? fmin(rq->time_limit, sim->plan_time_limit) : 1.0;
    const pb_footprint goal_fp = sim_footprint_at(&e->footprint, goal);
    if (!sim_footprint_free(sim, &goal_fp, goal, e->obstacle, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    pb_sim_plan_job *job = calloc(1, sizeof *job);
    if (!job || !(job->entity = sim_strdup(e->name)) || pb_engine_share(&job->map, sim->plan_map) != PB_OK ||
        !sim_planar_others(sim, e, &job->others, NULL, &job->n_others)) {
        pb_sim_plan_job_destroy(job);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    job->footprint = e->footprint;
    config(sim, e, job->start);
    memcpy(job->goal, goal, sizeof goal);
    snprintf(job->planner, sizeof job->planner, "%s", planner);
    job->time_limit = time_limit;
    job->seed = rq->seed ? rq->seed : 1;
    job->follow = rq->follow;
    job->budget = rq->budget;
    job->speed = rq->speed > 0 ? rq->speed : default_speed(sim);
    job->entity_serial = e->serial;
    job->world_serial = sim->world_serial;
    /* the path's rows are (x, y, yaw, joint2) */
    job->stride = SIM_Q;
    job->pose_values = job->joint_offset = 3;
    job->n_joints = n_joints;
    job->joint_names = arm_joint_names;
    atomic_init(&job->done, 0);
    *out = job;
    return true;
}

static bool plan_check(pb_sim *sim, const sim_entity *e, const pb_sim_plan_job *job, char *why, size_t size)
{
    double now[SIM_Q];
    config(sim, e, now);
    if (memcmp(now, job->start, sizeof now) != 0) {
        char was[96], is[96];
        format_q(&e->footprint, job->start, was, sizeof was);
        format_q(&e->footprint, now, is, sizeof is);
        snprintf(why, size, "'%s' moved while its path was planned (from %s to %s); plan again", e->name, was,
                 is);
        return false;
    }
    char what[PB_SIM_MESSAGE_SIZE];
    if (!path_is_free(sim, e, NULL, job->path, job->n_path, what, sizeof what)) {
        snprintf(why, size, "an entity moved into the path while it was planned: %s", what);
        return false;
    }
    return true;
}

static bool follow_begin(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq,
                         const double *joint_values, size_t n_given, uint64_t *goal, pb_sim_result *r)
{
    const size_t n_joints = joints(sim, e, NULL, NULL);
    if (n_given != 0 && (n_given != n_joints || !joint_values)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "joint values: '%s' has %zu joint%s%s per waypoint, got %zu per waypoint", e->name,
                       n_joints, n_joints == 1 ? "" : "s", n_joints ? " (joint2)" : "", n_given);
        return false;
    }
    double *path = malloc(rq->n_path * SIM_Q * sizeof *path);
    if (!path) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    double now[SIM_Q];
    config(sim, e, now);
    char why[PB_SIM_MESSAGE_SIZE];
    for (size_t i = 0; i < rq->n_path; i++) {
        double *q = path + SIM_Q * i;
        q[3] = now[3]; /* joints not given keep their values */
        bool ok = sim_planar_pose_from_msg(sim, &rq->path[i], "", q, why, sizeof why);
        for (size_t k = 0; ok && k < n_given; k++) {
            ok = isfinite(joint_values[n_given * i + k]);
            if (!ok)
                snprintf(why, sizeof why, "joint values must be finite");
            else
                q[3 + k] = sim_wrap_angle(joint_values[n_given * i + k]);
        }
        const pb_footprint fp = sim_footprint_at(&e->footprint, q);
        if (!ok || !sim_footprint_free(sim, &fp, q, e->obstacle, why, sizeof why)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "waypoint %zu: %s", i, why);
            free(path);
            return false;
        }
    }
    /* the motion walks the straight C-space edges between waypoints: each must pass the
     * planners' edge check, not just its ends */
    if (!path_is_free(sim, e, now, path, rq->n_path, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        free(path);
        return false;
    }
    const double speed = rq->speed > 0 ? rq->speed : default_speed(sim);
    double length = 0.0;
    const double *from = now;
    for (size_t i = 0; i < rq->n_path; i++) {
        length += distance(sim, e, from, path + SIM_Q * i);
        from = path + SIM_Q * i;
    }
    if (!sim_follow_length_ok(sim, length, speed, rq->n_path, r)) {
        free(path);
        return false;
    }
    sim_start_following(sim, e, path, rq->n_path, SIM_Q, speed, goal);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

static void command_velocity(pb_sim *sim, sim_entity *e, const pb_sim_twist *v, pb_sim_result *r)
{
    (void)sim;
    if (v->linear.z != 0 || v->angular.x != 0 || v->angular.y != 0) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is planar: it takes linear x, y and angular z (linear.z, angular.x, angular.y "
                       "must be 0)",
                       e->name);
        return;
    }
    sim_stop_motion(e);
    sim_stop_following(e, SIM_FOLLOW_COMMANDED);
    e->body_twist[0] = v->linear.x;
    e->body_twist[1] = v->linear.y;
    e->body_twist[2] = v->angular.z;
    e->commanded = true;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* The stick arm's elbow (its one joint) to q[0], when the footprint is free there. */
static void set_joints(pb_sim *sim, sim_entity *e, const double *q, pb_sim_result *r)
{
    double target[SIM_Q];
    config(sim, e, target);
    if (e->footprint.type == PB_FOOTPRINT_ARM)
        target[3] = q[0] >= -M_PI && q[0] < M_PI ? q[0] : sim_wrap_angle(q[0]);
    const pb_footprint fp = sim_footprint_at(&e->footprint, target);
    char why[PB_SIM_MESSAGE_SIZE];
    if (!sim_footprint_free(sim, &fp, target, e->obstacle, why, sizeof why)) {
        sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
        return;
    }
    sim_stop_following(e, SIM_FOLLOW_TELEPORTED);
    place(sim, e, target);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* A planar pose (x, y, yaw) as a transform. */
pb_pose sim_planar_pose(double x, double y, double yaw)
{
    const double c = cos(yaw), s = sin(yaw);
    return (pb_pose){.r = {c, -s, 0, s, c, 0, 0, 0, 1}, .t = {x, y, 0}};
}

/* base_link at the pose; a stick arm also link1 (at the base, turned by joint1, which the
 * robot file fixes) and link2 (at the elbow, turned by joint2). */
static size_t frames(const pb_sim *sim, const sim_entity *e, pb_frame *out, size_t max)
{
    (void)sim;
    const pb_footprint *fp = &e->footprint;
    const size_t n = fp->type == PB_FOOTPRINT_ARM ? 3 : 1;
    if (!out)
        return n;
    if (max >= 1)
        out[0] = (pb_frame){"base_link", -1, false, sim_planar_pose(e->pose[0], e->pose[1], e->pose[2])};
    if (n == 3 && max >= 3) {
        out[1] = (pb_frame){"link1", 0, true, sim_planar_pose(0, 0, fp->joint1)};
        out[2] = (pb_frame){"link2", 1, false, sim_planar_pose(fp->link1, 0, fp->joint2)};
    }
    return n;
}

const sim_kind sim_kind_body = {
    .name = "body",
    .record_size = SIM_RECORD_UNTIL(joints),
    .accepts = accepts,
    .init = init,
    .pose_from_msg = sim_planar_pose_from_msg,
    .fits = fits,
    .attach = attach,
    .detach = detach,
    .step = step,
    .pose_to_msg = sim_planar_pose_to_msg,
    .state = state,
    .set_state = set_state,
    .bounds = sim_planar_bounds,
    .overlaps = sim_planar_overlaps,
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
