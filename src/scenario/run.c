/* Running a scenario: the driver's command, one validated step of the vehicle model
 * (pb_vehicle_step_checked(): the footprint swept against the scene), then the termination
 * rules in AutoSceneGen's order, all in sim time counted in whole steps (docs/scenarios.md). */
#include "planbench/path.h"
#include "scenario_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Steps for a period of `seconds`: the first step whose end reaches it. */
static uint64_t steps_for(double seconds, double dt)
{
    return (uint64_t)ceil(seconds / dt - 1e-9);
}

static bool push_sample(pb_scenario_result *r, size_t *cap, double t, const pb_vehicle_state *state)
{
    if (r->n_trajectory == *cap) {
        const size_t grown_cap = *cap ? 2 * *cap : 256;
        pb_scenario_odometry *grown = realloc(r->trajectory, grown_cap * sizeof *grown);
        if (!grown)
            return false;
        r->trajectory = grown;
        *cap = grown_cap;
    }
    r->trajectory[r->n_trajectory++] = (pb_scenario_odometry){.t = t,
                                                              .x = state->x,
                                                              .y = state->y,
                                                              .yaw = state->yaw,
                                                              .v = state->v,
                                                              .yaw_rate = state->angular_velocity,
                                                              .acceleration = state->acceleration,
                                                              .steer = state->steer,
                                                              .gear = state->gear};
    return true;
}

/* The start and the goal must be on the scene and free. */
static pb_status check_ends(const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    const pb_footprint car = pb_vehicle_footprint(&s->vehicle);
    pb_hit hit = {0};
    pb_status st = pb_engine_footprint_check(engine, &car, s->start, PB_OBSTACLE_NONE, &hit);
    if (st != PB_OK || hit.kind != PB_HIT_NONE) {
        pb_diag_set(diag, s->name, 0, 0, "vehicle_start_location: the vehicle at (%g, %g) m, yaw %g rad %s",
                    s->start[0], s->start[1], s->start[2],
                    hit.kind == PB_HIT_OUTSIDE ? "is not wholly on the scene" : "overlaps an obstacle");
        if (diag)
            snprintf(diag->option, sizeof diag->option, "vehicle_start_location");
        return PB_ERR_INVALID;
    }
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    const bool on_scene =
        s->goal[0] >= lo[0] && s->goal[0] <= hi[0] && s->goal[1] >= lo[1] && s->goal[1] <= hi[1];
    if (!on_scene || !pb_engine_feasible(engine, s->goal)) {
        pb_diag_set(diag, s->name, 0, 0, "vehicle_goal_location: (%g, %g) m %s", s->goal[0], s->goal[1],
                    on_scene ? "lies in an obstacle" : "is outside the scene");
        if (diag)
            snprintf(diag->option, sizeof diag->option, "vehicle_goal_location");
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

/* The reference: the best plan the reference planner finds in the same scene, driven at the
 * nominal speed; the regret terms are the run's length and time minus the reference's. A
 * scene the reference planner cannot solve leaves them unset. */
/* The length of `path` on `car` (its edges' curves) until the rear axle first comes within the
 * goal radius: where a run of the same scenario ends. */
static double length_to_goal_circle(const pb_scenario *s, const pb_engine *car, const pb_path *path)
{
    double total = 0.0;
    for (size_t i = 0; i + 1 < path->n; i++) {
        const double *a = path->q + 3 * i, *b = path->q + 3 * (i + 1);
        pb_curve k;
        if (!pb_engine_curve(car, a, b, &k))
            return INFINITY;
        const double length = pb_curve_length(&k);
        const int n = (int)ceil(length / 0.01);
        for (int j = 0; j <= n; j++) {
            double q[3];
            pb_curve_point(&k, a, length * j / (n > 0 ? n : 1), q);
            if (hypot(q[0] - s->goal[0], q[1] - s->goal[1]) <= s->goal_radius)
                return total + length * j / (n > 0 ? n : 1);
        }
        total += length;
    }
    return total;
}

static void reference(const pb_scenario *s, pb_scenario_result *r)
{
    const double t0 = pb_clock_seconds();
    pb_path path;
    pb_path_init(&path, 3);
    double cost = 0;
    pb_diag diag = {0};
    pb_engine *car = NULL;
    if (scenario_plan(s, &s->reference_plan, &path, &cost, &car, &diag) == PB_OK) {
        cost = length_to_goal_circle(s, car, &path);
        r->has_reference = isfinite(cost);
        r->reference_cost = cost;
        r->reference_time = cost / s->nominal_speed;
        r->cost_error = r->path_length - r->reference_cost;
        r->time_error = r->vehicle_sim_time - r->reference_time;
    }
    pb_engine_destroy(car);
    pb_path_finish(&path);
    r->reference_planning_time = pb_clock_seconds() - t0;
}

struct pb_scenario_runner {
    const pb_scenario *s;
    pb_engine *engine;
    void *driver;
    double wall_start;
    uint64_t timeout_steps, idle_steps, stuck_steps, cap_steps, stride; /* 0: a timer is off */
    pb_vehicle_state state;
    uint64_t k, idle, stuck;
    bool began_moving, have_gear, started, done, ok;
    pb_gear last_gear;
    size_t cap;
    pb_scenario_result r;
};

pb_status pb_scenario_runner_create(pb_scenario_runner **out, const pb_scenario *s, pb_diag *diag)
{
    *out = NULL;
    pb_scenario_runner *u = calloc(1, sizeof *u);
    if (!u)
        return PB_ERR_NOMEM;
    u->s = s;
    u->wall_start = pb_clock_seconds();
    pb_status st = pb_scenario_build_engine(s, &u->engine, diag);
    if (st == PB_OK)
        st = check_ends(s, u->engine, diag);
    if (st == PB_OK)
        st = s->driver->start(&u->driver, s, u->engine, diag);
    if (st != PB_OK) {
        pb_engine_destroy(u->engine);
        free(u);
        return st;
    }
    const double dt = s->dt;
    u->timeout_steps = s->sim_timeout_period > 0 ? steps_for(s->sim_timeout_period, dt) : 0;
    u->idle_steps =
        s->vehicle_idling_timeout_period > 0 ? steps_for(s->vehicle_idling_timeout_period, dt) : 0;
    u->stuck_steps = s->vehicle_stuck_timeout_period > 0 ? steps_for(s->vehicle_stuck_timeout_period, dt) : 0;
    u->cap_steps = steps_for(s->max_sim_time, dt);
    u->stride = (uint64_t)fmax(1.0, round(1.0 / (s->trajectory_rate * dt)));
    u->state = pb_vehicle_state_at(s->start[0], s->start[1], s->start[2]);
    u->last_gear = PB_GEAR_PARKING;
    u->r.min_clearance = scene_clearance(s, u->engine, s->start);
    u->r.distance_to_goal = hypot(s->start[0] - s->goal[0], s->start[1] - s->goal[1]);
    u->r.reason = PB_REASON_SIM_TIMEOUT;
    u->ok = push_sample(&u->r, &u->cap, 0.0, &u->state);
    *out = u;
    return PB_OK;
}

/* One step: the driver's command, one validated step of the model, the termination rules.
 * False when the driver has given no control input yet (no step taken). */
static bool step(pb_scenario_runner *u)
{
    const pb_scenario *s = u->s;
    pb_scenario_result *r = &u->r;
    pb_vehicle_state *state = &u->state;
    driver_command cmd = {0};
    if (!s->driver->command(u->driver, (double)u->k * s->dt, state, &cmd) && u->k == 0)
        return false;
    u->started = true;
    r->num_vehicle_control_messages += cmd.messages;
    if (u->have_gear && cmd.input.gear != u->last_gear)
        r->gear_changes++;
    u->last_gear = cmd.input.gear;
    u->have_gear = true;
    const double x0 = state->x, y0 = state->y;
    pb_hit hit = {0};
    const bool free =
        pb_vehicle_step_checked(&s->vehicle, state, &cmd.input, s->dt, u->engine, PB_OBSTACLE_NONE, &hit);
    const uint64_t k = ++u->k;
    /* the step's end, by multiplication: no drift from summing dt */
    const double t = (double)k * s->dt;
    state->time = t;
    r->path_length += hypot(state->x - x0, state->y - y0);
    if (!free)
        r->collisions++;
    const double pose[3] = {state->x, state->y, state->yaw};
    r->min_clearance = free ? fmin(r->min_clearance, scene_clearance(s, u->engine, pose)) : 0.0;
    const bool slow = fabs(state->v) <= PB_SCENARIO_MOTION_THRESHOLD;
    const bool drives = cmd.input.gear == PB_GEAR_DRIVE || cmd.input.gear == PB_GEAR_REVERSE;
    const bool commanded =
        cmd.has_speed ? fabs(cmd.speed) > PB_SCENARIO_MOTION_THRESHOLD : drives && cmd.input.acceleration > 0;
    if (!slow)
        u->began_moving = true;
    u->idle = u->began_moving && slow && !commanded ? u->idle + 1 : 0;
    u->stuck = slow && commanded ? u->stuck + 1 : 0;
    const double to_goal = hypot(state->x - s->goal[0], state->y - s->goal[1]);
    /* AutoSceneGen's order: collision, roll, pitch, sim timeout, idling, stuck; then the goal.
     * A planar scene never flips (no height layer). */
    u->done = true;
    if (!free && !s->allow_collisions)
        r->reason = PB_REASON_VEHICLE_COLLISION;
    else if (u->timeout_steps && k >= u->timeout_steps)
        r->reason = PB_REASON_SIM_TIMEOUT;
    else if (u->idle_steps && u->idle >= u->idle_steps)
        r->reason = PB_REASON_VEHICLE_IDLING_TIMEOUT;
    else if (u->stuck_steps && u->stuck >= u->stuck_steps)
        r->reason = PB_REASON_VEHICLE_STUCK_TIMEOUT;
    else if (to_goal <= s->goal_radius)
        r->reason = PB_REASON_SUCCESS;
    else if (k >= u->cap_steps)
        r->reason = PB_REASON_SIM_TIMEOUT;
    else
        u->done = false;
    r->distance_to_goal = to_goal;
    if (u->done || k % u->stride == 0)
        u->ok = push_sample(r, &u->cap, t, state);
    return true;
}

bool pb_scenario_runner_step(pb_scenario_runner *u, uint64_t max_steps)
{
    for (uint64_t i = 0; u->ok && !u->done && (max_steps == 0 || i < max_steps); i++)
        if (!step(u))
            break; /* waiting for the first control input */
    return u->ok && !u->done;
}

void pb_scenario_runner_progress(const pb_scenario_runner *u, pb_scenario_progress *p)
{
    *p = (pb_scenario_progress){.steps = u->k,
                                .sim_time = (double)u->k * u->s->dt,
                                .distance_to_goal = u->r.distance_to_goal,
                                .state = u->state,
                                .started = u->started,
                                .done = u->done,
                                .reason = u->r.reason};
}

pb_status pb_scenario_runner_command(pb_scenario_runner *u, const pb_scenario_command *command)
{
    if (!u->s->driver->input)
        return PB_ERR_UNSUPPORTED;
    return u->s->driver->input(u->driver, command);
}

double pb_scenario_time_step(const pb_scenario *s)
{
    return s->dt;
}

bool pb_scenario_is_external(const pb_scenario *s)
{
    return s->driver->input != NULL;
}

void pb_scenario_runner_destroy(pb_scenario_runner *u)
{
    if (!u)
        return;
    u->s->driver->finish(u->driver);
    pb_engine_destroy(u->engine);
    pb_scenario_result_finish(&u->r);
    free(u);
}

pb_status pb_scenario_runner_finish(pb_scenario_runner *u, pb_scenario_result *r, bool *ended_early,
                                    pb_diag *diag)
{
    memset(r, 0, sizeof *r);
    const pb_scenario *s = u->s;
    if (ended_early)
        *ended_early = !u->done;
    const double t_end = (double)u->k * s->dt;
    if (u->ok && !u->done && u->r.trajectory[u->r.n_trajectory - 1].t != t_end) /* the last state, always */
        u->ok = push_sample(&u->r, &u->cap, t_end, &u->state);
    if (!u->ok) {
        pb_scenario_runner_destroy(u);
        pb_diag_set(diag, s->name, 0, 0, "out of memory for the trajectory");
        return PB_ERR_NOMEM;
    }
    *r = u->r;
    u->r = (pb_scenario_result){0};
    r->steps = (size_t)u->k;
    r->vehicle_sim_time = r->trajectory[r->n_trajectory - 1].t - r->trajectory[0].t;
    r->wall_time = pb_clock_seconds() - u->wall_start;
    pb_scenario_runner_destroy(u);
    if (s->reference)
        reference(s, r);
    return PB_OK;
}

pb_status pb_scenario_run(const pb_scenario *s, pb_scenario_result *r, pb_diag *diag)
{
    memset(r, 0, sizeof *r);
    if (pb_scenario_is_external(s)) {
        pb_diag_set(diag, s->name, 0, 0,
                    "driver: \"external\" drives over rosbridge: run it with planbench serve");
        if (diag)
            snprintf(diag->option, sizeof diag->option, "driver");
        return PB_ERR_INVALID;
    }
    pb_scenario_runner *u = NULL;
    const pb_status st = pb_scenario_runner_create(&u, s, diag);
    if (st != PB_OK)
        return st;
    pb_scenario_runner_step(u, 0);
    return pb_scenario_runner_finish(u, r, NULL, diag);
}

void pb_scenario_result_finish(pb_scenario_result *r)
{
    if (!r)
        return;
    free(r->trajectory);
    r->trajectory = NULL;
    r->n_trajectory = 0;
}

static void write_vec3(FILE *out, const char *name, double x, double y, double z)
{
    fprintf(out, "\"%s\": {\"x\": ", name);
    pb_json_write_number(out, x);
    fputs(", \"y\": ", out);
    pb_json_write_number(out, y);
    fputs(", \"z\": ", out);
    pb_json_write_number(out, z);
    fputc('}', out);
}

static void write_metric(FILE *out, const char *name, double value, bool last)
{
    fprintf(out, "    \"%s\": ", name);
    pb_json_write_number(out, value);
    fputs(last ? "\n" : ",\n", out);
}

void pb_scenario_result_write_json(FILE *out, const pb_scenario *s, const pb_scenario_result *r)
{
    fprintf(out, "{\n  \"worker_id\": %d,\n  \"scenario_number\": %d,\n  \"termination_reason\": %d,\n",
            s->worker_id, s->scenario_number, (int)r->reason);
    fputs("  \"vehicle_trajectory\": [", out);
    for (size_t i = 0; i < r->n_trajectory; i++) {
        const pb_scenario_odometry *o = &r->trajectory[i];
        const double sec = floor(o->t);
        fprintf(
            out,
            "%s\n    {\"header\": {\"stamp\": {\"sec\": %.0f, \"nanosec\": %.0f}, \"frame_id\": \"map\"}, ",
            i ? "," : "", sec, fmin(999999999.0, round((o->t - sec) * 1e9)));
        fputs("\"child_frame_id\": \"base_link\", \"pose\": {", out);
        write_vec3(out, "position", o->x, o->y, 0.0);
        fputs(", \"orientation\": {\"x\": 0, \"y\": 0, \"z\": ", out);
        pb_json_write_number(out, sin(o->yaw / 2));
        fputs(", \"w\": ", out);
        pb_json_write_number(out, cos(o->yaw / 2));
        fputs("}}, \"twist\": {", out);
        write_vec3(out, "linear", o->v, 0.0, 0.0);
        fputs(", ", out);
        write_vec3(out, "angular", 0.0, 0.0, o->yaw_rate);
        fputs("}}", out);
    }
    fputs("\n  ],\n  \"vehicle_sim_time\": ", out);
    pb_json_write_number(out, r->vehicle_sim_time);
    fprintf(out, ",\n  \"num_vehicle_control_messages\": %u,\n  \"scene_capture_only\": %s,\n",
            r->num_vehicle_control_messages, s->scene_capture_only ? "true" : "false");
    /* captures are files, named here (sensor_msgs/Image payloads are not inlined) */
    fprintf(out, "  \"scene_captures\": [],\n  \"scene_capture_names\": [%s],\n  \"planbench\": {\n",
            r->capture_path ? "\"ortho_aerial\"" : "");
    if (r->capture_path) {
        fputs("    \"captures\": {\"ortho_aerial\": ", out);
        pb_json_write_string(out, r->capture_path);
        fputs("},\n", out);
    }
    fputs("    \"termination\": ", out);
    pb_json_write_string(out, pb_termination_name(r->reason));
    fprintf(out, ",\n    \"steps\": %zu,\n", r->steps);
    write_metric(out, "dt", s->dt, false);
    write_metric(out, "path_length", r->path_length, false);
    write_metric(out, "min_clearance", r->min_clearance, false);
    fprintf(out, "    \"collisions\": %u,\n    \"gear_changes\": %u,\n", r->collisions, r->gear_changes);
    write_metric(out, "distance_to_goal", r->distance_to_goal, false);
    write_metric(out, "reference_cost", r->has_reference ? r->reference_cost : NAN, false);
    write_metric(out, "reference_time", r->has_reference ? r->reference_time : NAN, false);
    write_metric(out, "cost_error", r->has_reference ? r->cost_error : NAN, false);
    write_metric(out, "time_error", r->has_reference ? r->time_error : NAN, false);
    write_metric(out, "reference_planning_time", r->has_reference ? r->reference_planning_time : NAN, false);
    write_metric(out, "wall_time", r->wall_time, true);
    fputs("  }\n}\n", out);
}
