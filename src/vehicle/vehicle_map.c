/* The vehicle on a map (see include/planbench/vehicle.h): its footprint, and steps validated
 * by sweeping the footprint along the step's motion (pb_engine_sweep()). */
#include "planbench/vehicle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pb_footprint pb_vehicle_footprint(const pb_vehicle_config *config)
{
    return (pb_footprint){.type = PB_FOOTPRINT_RECT,
                          .half_length = 0.5 * config->length,
                          .half_width = 0.5 * config->width,
                          .offset = 0.5 * config->length - config->rear_overhang};
}

double pb_vehicle_reach(const pb_vehicle_config *config)
{
    const double ahead = config->length - config->rear_overhang, behind = config->rear_overhang;
    return hypot(fmax(ahead, behind), 0.5 * config->width);
}

double pb_vehicle_turning_radius(const pb_vehicle_config *config)
{
    return config->wheelbase / tan(config->max_steer);
}

/* The motion of one step: the state stepped by t * dt from the start, inputs held. */
typedef struct step_motion {
    const pb_vehicle_config *config;
    const pb_vehicle_state *start;
    const pb_vehicle_input *input;
    double dt;
} step_motion;

static void step_pose(const void *ctx, double t, double *pose)
{
    const step_motion *m = ctx;
    pb_vehicle_state s = *m->start;
    if (t > 0.0)
        pb_vehicle_step(m->config, &s, m->input, t * m->dt);
    pose[0] = s.x;
    pose[1] = s.y;
    pose[2] = s.yaw;
}

/* How far a footprint point can move over the step: the reference point at most the largest
 * speed of the step times dt (the speed changes by at most max_acceleration * dt from either
 * end), and a point `reach` away from it by reach times the heading change, whose rate is at
 * most that speed times tan(max_steer) / wheelbase. */
static double step_rate(const pb_vehicle_config *config, const pb_vehicle_state *a, const pb_vehicle_state *b,
                        double dt)
{
    if (a->x == b->x && a->y == b->y && a->yaw == b->yaw)
        return 0.0; /* standing (asleep, parked) */
    const double speed = fmax(fabs(a->v), fabs(b->v)) + config->max_acceleration * dt;
    const double turn = fmax(speed * tan(config->max_steer) / config->wheelbase,
                             fmax(fabs(a->angular_velocity), fabs(b->angular_velocity)));
    return (speed + pb_vehicle_reach(config) * turn) * dt;
}

bool pb_vehicle_step_checked(const pb_vehicle_config *config, pb_vehicle_state *state,
                             const pb_vehicle_input *input, double dt, pb_engine *engine, uint32_t ignore_id,
                             pb_hit *hit)
{
    const pb_vehicle_state start = *state;
    pb_vehicle_state end = start;
    pb_vehicle_step(config, &end, input, dt);
    const pb_footprint footprint = pb_vehicle_footprint(config);
    const step_motion motion = {config, &start, input, dt};
    bool free = false;
    double t_free = -1.0;
    const pb_status st = pb_engine_sweep(engine, &footprint, step_pose, &motion,
                                         step_rate(config, &start, &end, dt), ignore_id, &free, &t_free, hit);
    if (st == PB_OK && free) {
        *state = end;
        return true;
    }
    /* stopped: at the last free pose, or where it was */
    double pose[3] = {start.x, start.y, start.yaw};
    if (st == PB_OK && t_free > 0.0)
        step_pose(&motion, t_free, pose);
    *state = end;
    state->x = pose[0];
    state->y = pose[1];
    state->yaw = pose[2];
    state->acceleration = -start.v / dt;
    state->v = 0.0;
    state->angular_velocity = 0.0;
    if (st != PB_OK && hit) {
        memset(hit, 0, sizeof *hit);
        hit->kind = PB_HIT_INVALID;
        hit->obstacle_id = PB_OBSTACLE_NONE;
    }
    return false;
}

/* The motion of several steps: the state after t * steps steps, each from the boundary state
 * before it (so every pose is the one step-by-step stepping reaches). */
typedef struct drive_motion {
    const pb_vehicle_config *config;
    const pb_vehicle_state *states; /* steps + 1 boundary states */
    const pb_vehicle_input *input;
    double dt;
    int steps;
} drive_motion;

static void drive_pose(const void *ctx, double t, double *pose)
{
    const drive_motion *m = ctx;
    const double at = t * m->steps;
    int i = (int)floor(at);
    if (i >= m->steps)
        i = m->steps - 1;
    if (i < 0)
        i = 0;
    pb_vehicle_state s = m->states[i];
    const double frac = at - i;
    if (frac > 0.0)
        pb_vehicle_step(m->config, &s, m->input, frac * m->dt);
    pose[0] = s.x;
    pose[1] = s.y;
    pose[2] = s.yaw;
}

/* What a drive of the kinematic model promises its sweep (pb_sweep_path): the gear sets the
 * direction (it never moves against it), the steer moves from where it is towards the input
 * clamped to max_steer and no further, so the curvature tan(steer) / wheelbase stays between
 * theirs; the path is at most `length`; only whole steps are kept. The other models slip, lag or
 * take steer rates: false (the rate alone certifies their drives). */
static bool drive_path(const pb_vehicle_config *config, const pb_vehicle_state *start,
                       const pb_vehicle_input *input, double length, int steps, pb_sweep_path *path)
{
    if (strcmp(pb_vehicle_model_name(config->model), "kinematic") != 0)
        return false;
    const double target = fmax(-config->max_steer, fmin(config->max_steer, input->steer_angle));
    const double lo = fmin(start->steer, target), hi = fmax(start->steer, target);
    if (!(fabs(lo) < 0.5 * M_PI && fabs(hi) < 0.5 * M_PI))
        return false;
    *path = (pb_sweep_path){.length = length,
                            .curvature_min = tan(lo) / config->wheelbase,
                            .curvature_max = tan(hi) / config->wheelbase,
                            .direction = input->gear == PB_GEAR_DRIVE     ? 1
                                         : input->gear == PB_GEAR_REVERSE ? -1
                                                                          : 0,
                            .stops = steps};
    return true;
}

int pb_vehicle_drive_checked(const pb_vehicle_config *config, pb_vehicle_state *state,
                             const pb_vehicle_input *input, double dt, int steps, pb_engine *engine,
                             uint32_t ignore_id, pb_hit *hit)
{
    if (steps <= 0)
        return 0;
    pb_vehicle_state stack[64];
    pb_vehicle_state *states = steps < 64 ? stack : malloc(((size_t)steps + 1) * sizeof *states);
    if (!states)
        return 0;
    states[0] = *state;
    double rate = 0.0, speed = 0.0;
    for (int k = 0; k < steps; k++) {
        states[k + 1] = states[k];
        pb_vehicle_step(config, &states[k + 1], input, dt);
        rate = fmax(rate, step_rate(config, &states[k], &states[k + 1], dt));
        speed = fmax(speed, fmax(fabs(states[k].v), fabs(states[k + 1].v)) + config->max_acceleration * dt);
    }
    const pb_footprint footprint = pb_vehicle_footprint(config);
    const drive_motion motion = {config, states, input, dt, steps};
    bool is_free = false;
    double t_free = -1.0;
    pb_sweep_path path;
    const pb_status st = drive_path(config, states, input, speed * dt * steps, steps, &path)
                             ? pb_engine_sweep_path(engine, &footprint, drive_pose, &motion, rate * steps,
                                                    &path, ignore_id, &is_free, &t_free, hit)
                             : pb_engine_sweep(engine, &footprint, drive_pose, &motion, rate * steps,
                                               ignore_id, &is_free, &t_free, hit);
    int done = 0;
    if (st == PB_OK && is_free)
        done = steps;
    else if (st == PB_OK && t_free > 0.0)
        done = (int)floor(t_free * steps); /* the whole steps certified free */
    *state = states[done];
    if (states != stack)
        free(states);
    return done;
}
