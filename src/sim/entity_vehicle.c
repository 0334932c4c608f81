/* The entity kind "vehicle" (issue 18): a car-like vehicle read from a <vehicle> file
 * (docs/vehicles.md), on a metric map. Its state is the vehicle model's (pb_vehicle_state: the
 * rear axle's centre, heading, speed, steer, gear); `pose` mirrors x, y, yaw and its footprint
 * is one of the dynamic obstacles of the world's engine, as a body's is.
 *
 * It moves only as the model moves it: every step is pb_vehicle_step_checked() against the
 * world's engine (the map and every other entity), so a contact stops it at the last
 * certified-free pose with v = 0 and becomes the BLOCKED event. Its inputs come from Autoware's
 * command topics (pb_sim_command_vehicle(): control_cmd, gear_cmd, turn_indicators_cmd,
 * hazard_lights_cmd, emergency_cmd, with AWSIM's mapping), or from the path tracker while it
 * follows a path: pure pursuit on the steer and a speed profile on the acceleration, along the
 * Reeds-Shepp curves between the waypoints (the car engine's edges), changing gear at cusps.
 * It never slides: there is no twist to set, only speeds along its heading.
 *
 * /plan_path plans in the car engine's C-space (SE(2), Reeds-Shepp edges, the footprint swept)
 * with the other entities as obstacles. */
#include "sim_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The path tracker (pb_tracker: pure pursuit, a speed profile, gears at cusps) drives a path:
 * its cruise speed when the request gives none (m/s), and the spacing of its reference's
 * samples along the curves (m). */
#define VEHICLE_SPEED 3.0
#define TRACK_SPACING 0.05
/* Most samples of a reference (100 km at TRACK_SPACING). */
#define MAX_TRACK_SAMPLES 2000000

/* Autoware's codes (autoware_vehicle_msgs GearCommand / GearReport, TurnIndicators*,
 * HazardLights*). */
enum {
    AW_GEAR_NONE = 0,
    AW_GEAR_NEUTRAL = 1,
    AW_GEAR_DRIVE = 2,
    AW_GEAR_DRIVE_18 = 19,
    AW_GEAR_REVERSE = 20,
    AW_GEAR_REVERSE_2 = 21,
    AW_GEAR_PARK = 22,
    AW_GEAR_LOW = 23,
    AW_GEAR_LOW_2 = 24,
    AW_NO_COMMAND = 0,
    AW_DISABLE = 1,
    AW_ENABLE_LEFT = 2,
    AW_ENABLE_RIGHT = 3,
    AW_ENABLE = 2,
};

/* Is the world's map in metres: a map_server YAML map (an image world's units are pixels,
 * even in ROS's frame)? */
static bool on_metric_map(pb_sim *sim)
{
    const char *path = sim->world.map_path, *dot = path ? strrchr(path, '.') : NULL;
    pb_map_frame frame;
    return dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0) &&
           pb_engine_map_frame(sim->engine, &frame) && frame.metric;
}

static bool accepts(const sim_robot *robot, char *why, size_t size)
{
    if (robot->vehicle)
        return true;
    snprintf(why, size, "'%.100s' is not a vehicle", robot->name);
    return false;
}

static void init(pb_sim *sim, sim_entity *e, const sim_robot *robot)
{
    (void)sim;
    e->vehicle = robot->vehicle_config;
    e->footprint = robot->footprint;
    e->vehicle_path = robot->vehicle_path;
    e->drive = pb_vehicle_state_at(0, 0, 0);
    e->cmd.gear = PB_GEAR_PARKING;
}

static bool fits(pb_sim *sim, const sim_entity *e, const double *pose, char *why, size_t size)
{
    if (!on_metric_map(sim)) {
        SIM_EXPLAIN(why, size,
                    "a vehicle drives on a map in metres (a map_server YAML world): this map is in pixels");
        return false;
    }
    return sim_footprint_free(sim, &e->footprint, pose, e->obstacle, why, size);
}

/* Put the vehicle's obstacle where its state is. */
static void place(pb_sim *sim, sim_entity *e)
{
    e->pose[0] = e->drive.x;
    e->pose[1] = e->drive.y;
    e->pose[2] = e->drive.yaw;
    pb_engine_obstacle_move(sim->engine, e->obstacle, e->pose);
}

/* At rest at `pose`, its gear and steer kept (a new vehicle: PARKING, steer 0). */
static void stand_at(sim_entity *e, const double *pose)
{
    pb_vehicle_state d = e->drive;
    d.x = pose[0];
    d.y = pose[1];
    d.yaw = sim_wrap_angle(pose[2]);
    d.v = d.acceleration = d.angular_velocity = 0.0;
    e->drive = d;
    e->last_yaw_rate = 0.0;
}

static pb_status attach(pb_sim *sim, sim_entity *e, const double *pose)
{
    const pb_status st = pb_engine_obstacle_add(&e->obstacle, sim->engine, &e->footprint, pose);
    if (st != PB_OK)
        return st;
    e->drive = pb_vehicle_state_at(pose[0], pose[1], sim_wrap_angle(pose[2]));
    memcpy(e->initial_pose, pose, sizeof e->initial_pose);
    memcpy(e->pose, pose, sizeof e->pose);
    return PB_OK;
}

static void detach(pb_sim *sim, sim_entity *e)
{
    pb_engine_obstacle_remove(sim->engine, e->obstacle);
}

/* The commands as the model's inputs: an emergency holds the acceleration at 0 (the spec's
 * rule), the hazard lights take over the turn signal (AWSIM: HAZARD > LEFT/RIGHT > NONE). */
pb_vehicle_input sim_vehicle_input(const sim_vehicle_commands *v)
{
    return (pb_vehicle_input){.acceleration = v->emergency ? 0.0 : v->acceleration,
                              .steer_angle = v->steer,
                              .gear = v->gear,
                              .signal = v->hazard ? PB_SIGNAL_HAZARD : v->turn};
}

/* ---- the path tracker ---- */

/* The Reeds-Shepp curve from a to b (x, y, yaw) the car engine joins them with. */
static bool edge_curve(const sim_entity *e, const double *a, const double *b, pb_curve *k)
{
    return pb_curve_shortest(k, PB_CURVE_REEDS_SHEPP, a, b, pb_vehicle_turning_radius(&e->vehicle));
}

/* Make the waypoints of the goal being followed (rows from path_next - 1, the pose it
 * started from) the tracker's reference: samples every TRACK_SPACING metres or less along the
 * curves between them, rows (x, y, yaw, direction +1 forward / -1 reverse). False when out of
 * memory or too long (the path then ends). */
static bool make_track(sim_entity *e)
{
    const size_t first = e->path_next > 0 ? e->path_next - 1 : 0, stride = e->path_stride;
    size_t n = 1;
    for (size_t i = first + 1; i < e->n_path; i++) {
        pb_curve k;
        if (!edge_curve(e, e->path + stride * (i - 1), e->path + stride * i, &k))
            return false;
        n += (size_t)fmin(ceil(pb_curve_length(&k) / TRACK_SPACING), (double)MAX_TRACK_SAMPLES);
        if (n > MAX_TRACK_SAMPLES)
            return false;
    }
    double *track = malloc(n * SIM_Q * sizeof *track), *row = track;
    if (!track)
        return false;
    double dir = 1.0;
    for (size_t i = first + 1; i < e->n_path; i++) {
        const double *a = e->path + stride * (i - 1);
        pb_curve k;
        edge_curve(e, a, e->path + stride * i, &k);
        const double length = pb_curve_length(&k);
        const size_t steps = (size_t)ceil(length / TRACK_SPACING);
        for (size_t j = 0; j < steps; j++, row += SIM_Q) {
            const double s = length * (double)j / (double)steps;
            pb_curve_point(&k, a, s, row);
            dir = pb_curve_reverse_at(&k, s) ? -1.0 : 1.0;
            row[3] = dir;
        }
    }
    memcpy(row, e->path + stride * (e->n_path - 1), 3 * sizeof *row);
    row[3] = dir;
    row += SIM_Q;
    free(e->path);
    e->path = track;
    e->n_path = (size_t)(row - track) / SIM_Q;
    e->path_stride = SIM_Q;
    e->path_next = 0;
    e->track_goal = e->follow_id;
    /* the tracker's poses and directions, from the reference's rows */
    double *poses = malloc(e->n_path * 3 * sizeof *poses);
    bool *reverse = malloc(e->n_path * sizeof *reverse);
    pb_tracker_params params = pb_tracker_params_default();
    params.cruise_speed = fmax(fmin(e->follow_speed, e->vehicle.max_speed), 1e-3);
    params.reverse_speed = fmax(fmin(e->follow_speed, -e->vehicle.min_speed), 1e-3);
    pb_tracker_destroy(e->tracker);
    e->tracker = NULL;
    bool ok = poses && reverse;
    for (size_t i = 0; ok && i < e->n_path; i++) {
        memcpy(poses + 3 * i, e->path + SIM_Q * i, 3 * sizeof *poses);
        reverse[i] = e->path[SIM_Q * i + 3] < 0;
    }
    ok = ok && pb_tracker_create(&e->tracker, &e->vehicle, &params, poses, reverse, e->n_path, NULL) == PB_OK;
    free(poses);
    free(reverse);
    return ok;
}

/* The inputs that follow the reference one step: the tracker's (pure pursuit on the steer, the
 * speed profile on the acceleration, a stop and the other gear at each cusp). Stopped at the
 * end, the vehicle parks and the goal is REACHED. */
static void track(sim_entity *e)
{
    pb_vehicle_input in;
    if (!pb_tracker_command(e->tracker, &e->drive, &in, NULL)) {
        e->cmd.acceleration = 0.0;
        e->cmd.gear = PB_GEAR_PARKING;
        sim_stop_following(e, SIM_FOLLOW_REACHED);
        return;
    }
    e->path_next = pb_tracker_progress(e->tracker);
    e->cmd.acceleration = in.acceleration;
    e->cmd.steer = in.steer_angle;
    e->cmd.gear = in.gear;
}

/* One time step of the model under its inputs (the tracker's while it follows a path),
 * validated against the world's engine: a contact stops it (BLOCKED once per contact, and
 * the path it followed ends). */
static void step(pb_sim *sim, sim_entity *e)
{
    const bool following = e->n_path > 0 && e->follow_end == SIM_FOLLOW_ON;
    if (following && e->track_goal != e->follow_id && !make_track(e)) {
        sim_stop_following(e, SIM_FOLLOW_COMMANDED);
        e->cmd.acceleration = 0.0;
    } else if (following) {
        track(e);
    }
    const pb_vehicle_input in = sim_vehicle_input(&e->cmd);
    e->last_yaw_rate = e->drive.angular_velocity;
    pb_hit hit;
    const bool free =
        pb_vehicle_step_checked(&e->vehicle, &e->drive, &in, sim->dt, sim->engine, e->obstacle, &hit);
    place(sim, e);
    if (!free) {
        if (!e->blocked)
            sim_push_event(sim, PB_SIM_EVENT_BLOCKED, e->name);
        if (e->n_path > 0) {
            e->cmd.acceleration = 0.0;
            sim_stop_following(e, SIM_FOLLOW_COLLIDED);
        }
    }
    e->blocked = !free;
}

static void state(const sim_entity *e, pb_sim_pose *pose, pb_sim_twist *twist)
{
    sim_planar_pose_to_msg(e->pose, pose);
    memset(twist, 0, sizeof *twist);
    twist->linear.x = e->drive.v * cos(e->drive.yaw);
    twist->linear.y = e->drive.v * sin(e->drive.yaw);
    twist->angular.z = e->drive.angular_velocity;
}

/* The rear axle's acceleration in the world frame: along the heading the model's, across it
 * the centripetal v * yaw rate; the yaw's over the last step. */
static void acceleration(const pb_sim *sim, const sim_entity *e, pb_sim_twist *accel)
{
    const double c = cos(e->drive.yaw), s = sin(e->drive.yaw);
    const double along = e->drive.acceleration, across = e->drive.v * e->drive.angular_velocity;
    memset(accel, 0, sizeof *accel);
    accel->linear.x = c * along - s * across;
    accel->linear.y = s * along + c * across;
    accel->angular.z = (e->drive.angular_velocity - e->last_yaw_rate) / sim->dt;
}

/* A pose teleports it (at rest); a twist is a speed along its heading: no sideways, vertical
 * or turning component of its own (the steer turns it). */
static void set_state(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                      bool set_twist, pb_sim_result *r)
{
    const pb_sim_twist *tw = &rq->state.twist;
    double pose[3] = {e->pose[0], e->pose[1], e->pose[2]};
    if (set_pose) {
        char why[PB_SIM_MESSAGE_SIZE];
        if (!sim_planar_pose_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
            !fits(sim, e, pose, why, sizeof why)) {
            sim_set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
            return;
        }
    }
    const double c = cos(pose[2]), s = sin(pose[2]);
    const double along = c * tw->linear.x + s * tw->linear.y, across = -s * tw->linear.x + c * tw->linear.y;
    if (set_twist && (fabs(across) > 1e-9 * fmax(1.0, fabs(along)) || tw->linear.z != 0 ||
                      tw->angular.x != 0 || tw->angular.y != 0 || tw->angular.z != 0)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is a vehicle: its twist is a speed along its heading (no sideways, vertical or "
                       "angular part; the steer turns it)",
                       e->name);
        return;
    }
    if (set_pose) {
        stand_at(e, pose);
        place(sim, e);
        sim_stop_following(e, SIM_FOLLOW_TELEPORTED);
    }
    if (set_twist) {
        e->drive.v = along;
        e->drive.sleeping = false;
        e->drive.still_time = 0.0;
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

static bool reset(pb_sim *sim, sim_entity *e, char *why, size_t size)
{
    char what[PB_SIM_MESSAGE_SIZE];
    if (!sim_footprint_free(sim, &e->footprint, e->initial_pose, e->obstacle, what, sizeof what)) {
        snprintf(why, size, "kept its pose: start %s", what);
        return false;
    }
    e->drive =
        pb_vehicle_state_at(e->initial_pose[0], e->initial_pose[1], sim_wrap_angle(e->initial_pose[2]));
    e->cmd.acceleration = e->cmd.steer = e->last_yaw_rate = 0.0;
    e->cmd.gear = PB_GEAR_PARKING;
    e->cmd.turn = PB_SIGNAL_NONE;
    e->cmd.hazard = e->cmd.emergency = e->blocked = false;
    place(sim, e);
    return true;
}

static size_t joints(const pb_sim *sim, const sim_entity *e, const char *const **names, double *values)
{
    (void)sim;
    (void)e;
    (void)values;
    if (names)
        *names = NULL;
    return 0;
}

/* x, y, yaw and the direction it is tracking in (a reference's rows). */
static void config(const pb_sim *sim, const sim_entity *e, double *q)
{
    (void)sim;
    memcpy(q, e->pose, 3 * sizeof *q);
    q[3] = e->drive.v < 0 ? -1.0 : 1.0;
}

/* Along a path: metres of travel of the rear axle. */
static double distance(const pb_sim *sim, const sim_entity *e, const double *a, const double *b)
{
    (void)sim;
    (void)e;
    return hypot(b[0] - a[0], b[1] - a[1]);
}

static void describe(const pb_sim *sim, const sim_entity *e, char *out, size_t size)
{
    (void)sim;
    snprintf(out, size, "at (%.3f, %.3f, %.3f), %.3f m/s in %s", e->pose[0], e->pose[1], e->pose[2],
             e->drive.v, pb_gear_name(e->drive.gear));
}

/* ---- paths: Reeds-Shepp curves swept against the world ---- */

typedef struct curve_motion {
    const pb_curve *curve;
    const double *start;
    double length;
} curve_motion;

static void curve_pose(const void *ctx, double t, double *pose)
{
    const curve_motion *m = ctx;
    pb_curve_point(m->curve, m->start, t * m->length, pose);
}

/* Are the curves through `rows` (`n` rows of SIM_Q values) free of the map and the other
 * entities as they are now (the footprint swept, certified, as the car engine's edge check
 * does)? False with the first blocked one in `why`. `*length` gets the path's length. */
static bool curves_free(pb_sim *sim, const sim_entity *e, const double *rows, size_t n, double *length,
                        char *why, size_t size)
{
    const double radius = pb_vehicle_turning_radius(&e->vehicle), reach = pb_vehicle_reach(&e->vehicle);
    *length = 0.0;
    for (size_t i = 1; i < n; i++) {
        const double *a = rows + SIM_Q * (i - 1);
        pb_curve k;
        if (!edge_curve(e, a, rows + SIM_Q * i, &k)) {
            snprintf(why, size, "segment %zu: no curve joins its ends", i);
            return false;
        }
        const curve_motion m = {&k, a, pb_curve_length(&k)};
        bool free = false;
        double t_free = -1.0;
        pb_hit hit;
        const pb_status st =
            pb_engine_sweep(sim->engine, &e->footprint, curve_pose, &m, m.length * (1.0 + reach / radius),
                            e->obstacle, &free, &t_free, &hit);
        if (st != PB_OK || !free) {
            double at[3];
            curve_pose(&m, fmax(t_free, 0.0), at);
            snprintf(why, size,
                     "segment %zu (%s to waypoint %zu) is blocked after (%.3f, %.3f, %.3f): %s%.100s", i,
                     i == 1 ? "the current pose" : "a waypoint", i - 1, at[0], at[1], at[2],
                     hit.kind == PB_HIT_OBSTACLE ? "it touches entity " : "it touches the map",
                     hit.kind == PB_HIT_OBSTACLE ? sim_entity_by_obstacle(sim, hit.obstacle_id) : "");
            return false;
        }
        *length += m.length;
    }
    return true;
}

/* The car engine's C-space of the vehicle on the world's map, the other entities as they
 * are now its obstacles (owned by the caller). Kinodynamic planners (issue 18 (b): sst,
 * rrt_control, propagating pb_vehicle_step()) will plan on the vehicle's model here once they
 * exist; today the geometric planners run on the car engine. NULL with why. */
static pb_engine *car_space(pb_sim *sim, const sim_entity *e, char *why, size_t size)
{
    if (!e->vehicle_path) {
        snprintf(
            why, size,
            "'%s' was spawned from a resource string: /plan_path needs its <vehicle> file (spawn it by uri)",
            e->name);
        return NULL;
    }
    const pb_option options[] = {{"robot", e->vehicle_path}, {"frame", "ros"}};
    pb_engine *car = NULL;
    pb_diag diag = {0};
    if (pb_engine_load(&car, "car", sim->world.map_path, options, 2, &diag) != PB_OK) {
        snprintf(why, size, "the car engine: %.200s", diag.message);
        return NULL;
    }
    sim_obstacle *others;
    size_t n;
    if (!sim_planar_others(sim, e, &others, NULL, &n)) {
        pb_engine_destroy(car);
        snprintf(why, size, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t id;
        if (pb_engine_obstacle_add(&id, car, &others[i].footprint, others[i].pose) != PB_OK) {
            free(others);
            pb_engine_destroy(car);
            snprintf(why, size, "the car engine takes no more obstacles");
            return NULL;
        }
    }
    free(others);
    return car;
}

static bool plan_begin(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                       pb_sim_plan_job **out, pb_sim_plan_response *rs)
{
    pb_sim_result *r = &rs->result;
    double goal[SIM_Q] = {0};
    char why[PB_SIM_MESSAGE_SIZE];
    if (!sim_planar_goal(sim, rq, goal, rs))
        return false;
    if (rq->n_goal_joints != 0) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: '%s' is a vehicle: it has no joints",
                       e->name);
        return false;
    }
    if (!fits(sim, e, goal, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    pb_sim_plan_job *job = calloc(1, sizeof *job);
    if (!job || !(job->entity = sim_strdup(e->name))) {
        pb_sim_plan_job_destroy(job);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    if (!(job->space = car_space(sim, e, why, sizeof why))) {
        pb_sim_plan_job_destroy(job);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        return false;
    }
    job->footprint = e->footprint;
    config(sim, e, job->start);
    job->start[3] = 0.0;
    memcpy(job->goal, goal, sizeof goal);
    snprintf(job->planner, sizeof job->planner, "%s", planner);
    job->time_limit = rq->time_limit > 0 ? fmin(rq->time_limit, sim->plan_time_limit) : 1.0;
    job->seed = rq->seed ? rq->seed : 1;
    job->follow = rq->follow;
    job->budget = rq->budget;
    job->speed = rq->speed > 0 ? rq->speed : VEHICLE_SPEED;
    job->entity_serial = e->serial;
    job->world_serial = sim->world_serial;
    job->stride = SIM_Q;
    job->pose_values = job->joint_offset = 3;
    atomic_init(&job->done, 0);
    *out = job;
    return true;
}

static bool plan_check(pb_sim *sim, const sim_entity *e, const pb_sim_plan_job *job, char *why, size_t size)
{
    if (memcmp(e->pose, job->start, 3 * sizeof *e->pose) != 0) {
        snprintf(why, size,
                 "'%s' moved while its path was planned (from (%.3f, %.3f, %.3f) to (%.3f, %.3f, %.3f)); "
                 "plan again",
                 e->name, job->start[0], job->start[1], job->start[2], e->pose[0], e->pose[1], e->pose[2]);
        return false;
    }
    char what[PB_SIM_MESSAGE_SIZE];
    double length;
    if (!curves_free(sim, e, job->path, job->n_path, &length, what, sizeof what)) {
        snprintf(why, size, "an entity moved into the path while it was planned: %s", what);
        return false;
    }
    return true;
}

/* FollowPath: the waypoints joined by the car engine's curves from where it is, each swept
 * free now; the tracker drives it along them. */
static bool follow_begin(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq,
                         const double *joint_values, size_t n_given, uint64_t *goal, pb_sim_result *r)
{
    (void)joint_values;
    if (n_given != 0) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "joint values: '%s' is a vehicle: it has no joints",
                       e->name);
        return false;
    }
    const size_t n = rq->n_path + 1;
    double *path = malloc(n * SIM_Q * sizeof *path);
    if (!path) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    memcpy(path, e->pose, 3 * sizeof *path);
    path[3] = 0.0;
    char why[PB_SIM_MESSAGE_SIZE];
    for (size_t i = 0; i < rq->n_path; i++) {
        double *q = path + SIM_Q * (i + 1);
        q[3] = 0.0;
        if (!sim_planar_pose_from_msg(sim, &rq->path[i], "", q, why, sizeof why) ||
            !fits(sim, e, q, why, sizeof why)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "waypoint %zu: %s", i, why);
            free(path);
            return false;
        }
    }
    double length;
    const double speed = rq->speed > 0 ? rq->speed : VEHICLE_SPEED;
    if (!curves_free(sim, e, path, n, &length, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        free(path);
        return false;
    }
    if (!sim_follow_length_ok(sim, length, speed, n, r)) {
        free(path);
        return false;
    }
    e->cmd.acceleration = 0.0;
    sim_start_following(sim, e, path, n, SIM_Q, speed, goal);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

/* base_link: the rear axle's centre (Autoware's base_link). */
static size_t frames(const pb_sim *sim, const sim_entity *e, pb_frame *out, size_t max)
{
    (void)sim;
    if (out && max >= 1)
        out[0] = (pb_frame){"base_link", -1, false, sim_planar_pose(e->pose[0], e->pose[1], e->pose[2])};
    return 1;
}

static void command_velocity(pb_sim *sim, sim_entity *e, const pb_sim_twist *v, pb_sim_result *r)
{
    (void)sim;
    (void)v;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is a vehicle: drive it with /%s/control/command/control_cmd and gear_cmd (it cannot "
                   "slide on a twist)",
                   e->name, e->name);
}

static void set_joints(pb_sim *sim, sim_entity *e, const double *q, pb_sim_result *r)
{
    (void)sim;
    (void)q;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is a vehicle: it has no joints", e->name);
}

/* ---- Autoware's topics ---- */

/* A GearCommand code as a gear; false for a code GearCommand does not define. NONE keeps it. */
static bool gear_of(uint8_t code, pb_gear *gear)
{
    if (code == AW_GEAR_NONE)
        return true;
    if (code == AW_GEAR_NEUTRAL)
        *gear = PB_GEAR_NEUTRAL;
    else if ((code >= AW_GEAR_DRIVE && code <= AW_GEAR_DRIVE_18) || code == AW_GEAR_LOW ||
             code == AW_GEAR_LOW_2)
        *gear = PB_GEAR_DRIVE;
    else if (code == AW_GEAR_REVERSE || code == AW_GEAR_REVERSE_2)
        *gear = PB_GEAR_REVERSE;
    else if (code == AW_GEAR_PARK)
        *gear = PB_GEAR_PARKING;
    else
        return false;
    return true;
}

bool sim_vehicle_apply(sim_vehicle_commands *v, const pb_sim_vehicle_command *c, pb_sim_result *r)
{
    switch (c->topic) {
    case PB_SIM_VEHICLE_CONTROL:
        if (!isfinite(c->steering_tire_angle) || !isfinite(c->acceleration) || !isfinite(c->velocity)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                           "control_cmd: lateral.steering_tire_angle, longitudinal.acceleration and "
                           "longitudinal.velocity must be finite");
            return false;
        }
        v->steer = c->steering_tire_angle;
        v->acceleration = c->acceleration;
        v->has_velocity = c->has_velocity;
        v->velocity = c->velocity;
        break;
    case PB_SIM_VEHICLE_GEAR:
        if (!gear_of(c->command, &v->gear)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                           "gear_cmd: command %u is not a GearCommand value (NONE 0, NEUTRAL 1, DRIVE 2-19, "
                           "REVERSE 20-21, PARK 22, LOW 23-24)",
                           (unsigned)c->command);
            return false;
        }
        break;
    case PB_SIM_VEHICLE_TURN_INDICATORS:
        if (c->command > AW_ENABLE_RIGHT) {
            sim_set_result(
                r, PB_SIM_RESULT_OPERATION_FAILED,
                "turn_indicators_cmd: command %u is not a TurnIndicatorsCommand value (NO_COMMAND 0, "
                "DISABLE 1, ENABLE_LEFT 2, ENABLE_RIGHT 3)",
                (unsigned)c->command);
            return false;
        }
        if (c->command != AW_NO_COMMAND)
            v->turn = c->command == AW_ENABLE_LEFT    ? PB_SIGNAL_LEFT
                      : c->command == AW_ENABLE_RIGHT ? PB_SIGNAL_RIGHT
                                                      : PB_SIGNAL_NONE;
        break;
    case PB_SIM_VEHICLE_HAZARD_LIGHTS:
        if (c->command > AW_ENABLE) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                           "hazard_lights_cmd: command %u is not a HazardLightsCommand value (NO_COMMAND 0, "
                           "DISABLE 1, ENABLE 2)",
                           (unsigned)c->command);
            return false;
        }
        if (c->command != AW_NO_COMMAND)
            v->hazard = c->command == AW_ENABLE;
        break;
    case PB_SIM_VEHICLE_EMERGENCY:
        v->emergency = c->emergency;
        break;
    default:
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "unknown vehicle command");
        return false;
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

/* A command stops the path being followed (an emergency too: it also drops the tracker's
 * acceleration). */
static void command_vehicle(pb_sim *sim, sim_entity *e, const pb_sim_vehicle_command *c, pb_sim_result *r)
{
    (void)sim;
    if (!sim_vehicle_apply(&e->cmd, c, r))
        return;
    const bool emergency_stop = c->topic == PB_SIM_VEHICLE_EMERGENCY && c->emergency && e->n_path > 0;
    if (emergency_stop)
        e->cmd.acceleration = 0.0;
    if (c->topic == PB_SIM_VEHICLE_CONTROL || c->topic == PB_SIM_VEHICLE_GEAR || emergency_stop)
        sim_stop_following(e, SIM_FOLLOW_COMMANDED);
}

void sim_vehicle_report(const pb_vehicle_state *d, bool emergency, pb_sim_vehicle_status *st)
{
    static const uint8_t gear_codes[PB_GEAR_COUNT] = {
        [PB_GEAR_PARKING] = AW_GEAR_PARK,
        [PB_GEAR_REVERSE] = AW_GEAR_REVERSE,
        [PB_GEAR_NEUTRAL] = AW_GEAR_NEUTRAL,
        [PB_GEAR_DRIVE] = AW_GEAR_DRIVE,
    };
    *st = (pb_sim_vehicle_status){
        .longitudinal_velocity = d->v,
        .lateral_velocity = 0.0,
        .heading_rate = d->angular_velocity,
        .steering_tire_angle = d->steer,
        .acceleration = d->acceleration,
        .gear = d->gear < PB_GEAR_COUNT ? gear_codes[d->gear] : AW_GEAR_NONE,
        .turn_indicators = d->signal == PB_SIGNAL_LEFT    ? AW_ENABLE_LEFT
                           : d->signal == PB_SIGNAL_RIGHT ? AW_ENABLE_RIGHT
                                                          : AW_DISABLE,
        .hazard_lights = d->signal == PB_SIGNAL_HAZARD ? AW_ENABLE : AW_DISABLE,
        .emergency = emergency,
        .sleeping = d->sleeping,
    };
}

static void vehicle_status(const pb_sim *sim, const sim_entity *e, pb_sim_vehicle_status *st)
{
    (void)sim;
    sim_vehicle_report(&e->drive, e->cmd.emergency, st);
}

const sim_kind sim_kind_vehicle = {
    .name = "vehicle",
    .record_size = sizeof(sim_entity),
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
    .acceleration = acceleration,
    .command_vehicle = command_vehicle,
    .vehicle_status = vehicle_status,
};
