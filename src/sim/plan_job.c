/* An entity's C-space, and /plan_path's planner run.
 *
 * Design: a footprint engine on an obstacle-free copy of the world's map. Its configuration
 * is (x, y) for a disc (rotation does not change a disc), (x, y, yaw) for a rectangle and
 * (x, y, yaw, joint2) for the stick arm, as the stickarm4d engine plans it: angles wrap and
 * are weighted by the length they swing (the reach for the yaw, link 2 for the elbow) so one
 * metric unit is about one pixel of footprint motion. feasible(q) is the footprint check at
 * q against the map's pixels, then geometrically against a copy of the other entities taken
 * when the space was made; visible() is the core's interpolated edge at 0.5 units. Any
 * registered planner runs on it unchanged, and the space owns everything it reads, so a
 * planner can run on a worker thread while the simulation moves its entities. The same space
 * checks /follow_path's segments, so a path is accepted by exactly the check that made it. */
#include "planbench/impl/engine_impl.h"
#include "sim_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Spacing of the interpolated edge check: about half a pixel of motion (in the map's units: a
 * metric map's resolution times this). */
#define EDGE_RESOLUTION 0.5

typedef struct footprint_space {
    pb_engine *map; /* own handle; the map has no dynamic obstacles */
    pb_footprint footprint;
    sim_obstacle *others;
    size_t n_others;
    double disc_yaw; /* discs: the yaw kept along the path */
} footprint_space;

int sim_space_dim(const pb_footprint *fp)
{
    return fp->type == PB_FOOTPRINT_DISC ? 2 : fp->type == PB_FOOTPRINT_ARM ? 4 : 3;
}

void sim_space_from_full(const pb_footprint *fp, const double *full, double *q)
{
    memcpy(q, full, (size_t)sim_space_dim(fp) * sizeof *q);
}

void sim_space_to_full(const pb_footprint *fp, const double *q, double *full)
{
    memcpy(full, q, (size_t)sim_space_dim(fp) * sizeof *q);
}

pb_footprint sim_footprint_at(const pb_footprint *fp, const double *full)
{
    pb_footprint placed = *fp;
    if (fp->type == PB_FOOTPRINT_ARM)
        placed.joint2 = full[3];
    return placed;
}

/* The footprint and pose of configuration `q` of the space. */
static void placement(const footprint_space *fs, const double *q, pb_footprint *fp, double *pose)
{
    *fp = fs->footprint;
    pose[0] = q[0];
    pose[1] = q[1];
    pose[2] = fs->footprint.type == PB_FOOTPRINT_DISC ? fs->disc_yaw : q[2];
    if (fs->footprint.type == PB_FOOTPRINT_ARM)
        fp->joint2 = q[3];
}

static bool check(const footprint_space *fs, const double *q, sim_space_hit *hit)
{
    pb_footprint fp;
    double pose[3];
    placement(fs, q, &fp, pose);
    pb_hit map_hit;
    if (pb_engine_footprint_check(fs->map, &fp, pose, PB_OBSTACLE_NONE, &map_hit) != PB_OK) {
        *hit = (sim_space_hit){.kind = PB_HIT_INVALID};
        return false;
    }
    if (map_hit.kind != PB_HIT_NONE) {
        *hit = (sim_space_hit){.kind = map_hit.kind, .pixel_x = map_hit.pixel_x, .pixel_y = map_hit.pixel_y};
        return false;
    }
    if (fs->n_others == 0)
        return true;
    double lo[2], hi[2];
    pb_footprint_aabb(&fp, pose, lo, hi);
    for (size_t i = 0; i < fs->n_others; i++) {
        const sim_obstacle *o = &fs->others[i];
        /* boxes apart: no overlap (touching boxes still go to the exact test) */
        if (lo[0] > o->hi[0] || hi[0] < o->lo[0] || lo[1] > o->hi[1] || hi[1] < o->lo[1])
            continue;
        if (pb_footprint_overlap(&fp, pose, &o->footprint, o->pose)) {
            *hit = (sim_space_hit){.kind = PB_HIT_OBSTACLE, .other = i};
            return false;
        }
    }
    return true;
}

static bool fs_feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)counters;
    sim_space_hit hit;
    return check(self, q, &hit);
}

static void fs_destroy(void *self)
{
    footprint_space *fs = self;
    if (!fs)
        return;
    pb_engine_destroy(fs->map);
    free(fs->others);
    free(fs);
}

static const pb_engine_impl footprint_space_impl = {
    .name = "sim-footprint",
    .summary = "an entity's footprint on a world's map among the other entities (simulation service)",
    .destroy = fs_destroy,
    .feasible = fs_feasible,
};

static double reach(const pb_footprint *fp)
{
    switch (fp->type) {
    case PB_FOOTPRINT_RECT:
        return hypot(fp->half_length, fp->half_width);
    case PB_FOOTPRINT_ARM:
        return fp->link1 + fp->link2;
    default:
        return fp->radius;
    }
}

void sim_space_weights(const pb_footprint *fp, double *weights)
{
    const double r = reach(fp);
    weights[0] = weights[1] = 1.0;
    weights[2] = fp->type == PB_FOOTPRINT_DISC ? 0.0 : r > 1.0 ? r : 1.0;
    weights[3] = fp->type != PB_FOOTPRINT_ARM ? 0.0 : fp->link2 > 1.0 ? fp->link2 : 1.0;
}

pb_status sim_space_create(pb_engine **out, pb_engine *map, const pb_footprint *fp,
                           const sim_obstacle *others, size_t n_others, double disc_yaw, char *why,
                           size_t why_size)
{
    *out = NULL;
    footprint_space *fs = calloc(1, sizeof *fs);
    if (!fs || (n_others && !(fs->others = malloc(n_others * sizeof *fs->others))) ||
        pb_engine_share(&fs->map, map) != PB_OK) {
        fs_destroy(fs);
        snprintf(why, why_size, "out of memory");
        return PB_ERR_NOMEM;
    }
    if (n_others)
        memcpy(fs->others, others, n_others * sizeof *others);
    fs->n_others = n_others;
    fs->footprint = *fp;
    fs->disc_yaw = disc_yaw;
    const int dim = sim_space_dim(fp);
    pb_engine_config setup = pb_engine_config_default(dim);
    for (int k = 0; k < 2; k++) {
        setup.lower[k] = pb_engine_lower(map)[k];
        setup.upper[k] = pb_engine_upper(map)[k];
    }
    double weights[SIM_Q];
    sim_space_weights(fp, weights);
    for (int k = 2; k < dim; k++) {
        setup.lower[k] = -M_PI;
        setup.upper[k] = M_PI;
        setup.periods[k] = 2 * M_PI;
        setup.weights[k] = weights[k];
    }
    pb_map_frame frame;
    setup.resolution = EDGE_RESOLUTION * (pb_engine_map_frame(map, &frame) ? frame.resolution : 1.0);
    pb_diag diag = {0};
    const pb_status st = pb_engine_create(out, &footprint_space_impl, fs, &setup, &diag);
    if (st != PB_OK) {
        fs_destroy(fs);
        snprintf(why, why_size, "%s", diag.message);
    }
    return st;
}

bool sim_space_hits(pb_engine *space, const double *q, sim_space_hit *hit)
{
    return !check(pb_engine_self(space), q, hit);
}

bool sim_space_segment(pb_engine *space, const double *a, const double *b, double *where, sim_space_hit *hit)
{
    if (pb_engine_visible(space, a, b))
        return true;
    /* Blocked: find the first blocked configuration in the order of the path, among the
     * configurations the edge check tests (the same spacing: n segments, endpoints included). */
    const double length = pb_engine_distance(space, a, b);
    double segments = ceil(length / pb_engine_get_config(space)->resolution);
    if (!(segments >= 1.0))
        segments = 1.0;
    if (segments > 1e7)
        segments = 1e7;
    const uint64_t n = (uint64_t)segments;
    for (uint64_t i = 0; i <= n; i++) {
        pb_engine_interpolate(space, a, b, (double)i / (double)n, where);
        if (sim_space_hits(space, where, hit))
            return false;
    }
    /* the check's own order found what this scan did not: cannot happen with a deterministic
     * check, but say something true rather than nothing */
    pb_engine_interpolate(space, a, b, 0.5, where);
    *hit = (sim_space_hit){.kind = PB_HIT_INVALID};
    return false;
}

/* Run the job's planner on `space` from `start` to `goal` (goal_radius 0: the planner's
 * default, pb_planner_default_goal_radius()): the outcome, the status and `why` into the
 * job; true when `result` (initialised here, finished by the caller) holds an exact
 * path, shortened. */
static bool solve(pb_sim_plan_job *job, pb_engine *space, const double *start, const double *goal,
                  double goal_radius, double time_limit, pb_result *result)
{
    pb_planner *planner = NULL;
    pb_diag diag = {0};
    pb_result_init(result, pb_engine_dim(space));
    job->status = pb_planner_create(&planner, job->planner, space, &diag);
    if (job->status != PB_OK) {
        snprintf(job->why, sizeof job->why, "%.200s", diag.message);
        return false;
    }
    pb_planner_set_seed(planner, job->seed);
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = time_limit;
    stop.first_solution = !job->budget;
    stop.cancel = &job->cancel;
    const pb_problem problem = {start, goal,
                                goal_radius > 0.0 ? goal_radius : pb_planner_default_goal_radius(planner)};
    job->status = pb_planner_solve(planner, &problem, &stop, result);
    job->outcome = atomic_load(&job->cancel) && result->outcome != PB_OUTCOME_EXACT
                       ? "canceled"
                       : pb_outcome_str(result->outcome);
    pb_planner_destroy(planner);
    if (job->status != PB_OK || result->outcome != PB_OUTCOME_EXACT)
        return false;
    pb_rng rng;
    pb_rng_seed(&rng, job->seed);
    pb_path_simplify(&result->path, space, &rng, PB_SIMPLIFY_TRIES, NULL, NULL);
    job->cost = pb_path_length(&result->path, space);
    return true;
}

/* Keep `path` in the job as rows of `stride` values: a footprint's C-space configurations made
 * entity configurations (sim_space_to_full), or with `fp` NULL as they are. False when out
 * of memory. */
static bool keep_path(pb_sim_plan_job *job, const pb_path *path, size_t stride, const pb_footprint *fp)
{
    double *p = malloc((path->n ? path->n : 1) * stride * sizeof *p);
    if (!p) {
        job->status = PB_ERR_NOMEM;
        snprintf(job->why, sizeof job->why, "out of memory");
        return false;
    }
    for (size_t i = 0; i < path->n; i++) {
        if (fp) {
            memcpy(p + stride * i, job->start, stride * sizeof *p);
            sim_space_to_full(fp, pb_path_at(path, i), p + stride * i);
        } else {
            memcpy(p + stride * i, pb_path_at(path, i), stride * sizeof *p);
        }
    }
    job->path = p;
    job->n_path = path->n;
    return true;
}

/* Goal radius of the scene robot's plans (radians of the joint-space metric). */
#define ARM_GOAL_RADIUS 0.1

void sim_plan_run(pb_sim_plan_job *job)
{
    const double t0 = pb_clock_seconds();
    job->outcome = pb_outcome_str(PB_OUTCOME_INVALID_START);
    job->n_path = 0;
    job->cost = INFINITY;
    pb_result result;
    if (job->arm_engine) {
        /* the scene's robot: its own engine holds the objects as they were at the request. Its
         * goals in turn, nearest first, each with an equal share of the time left, until one
         * is reached */
        for (size_t g = 0; g < job->n_arm_goals; g++) {
            const double share =
                (job->time_limit - (pb_clock_seconds() - t0)) / (double)(job->n_arm_goals - g);
            if (g > 0 && !(share > 1e-3))
                break;
            const bool reached = solve(job, job->arm_engine, job->arm_start, job->arm_goals[g],
                                       ARM_GOAL_RADIUS, fmax(share, 1e-3), &result);
            if (reached)
                keep_path(job, &result.path, (size_t)job->arm_dim, NULL);
            pb_result_finish(&result);
            if (reached || job->status != PB_OK || atomic_load(&job->cancel))
                break;
        }
    } else if (job->space) {
        if (solve(job, job->space, job->start, job->goal, 0.0, job->time_limit, &result))
            keep_path(job, &result.path, SIM_Q, &job->footprint);
        pb_result_finish(&result);
    } else {
        const pb_footprint *fp = &job->footprint;
        pb_engine *space = NULL;
        job->status = sim_space_create(&space, job->map, fp, job->others, job->n_others, job->start[2],
                                       job->why, sizeof job->why);
        if (job->status == PB_OK) {
            double start[SIM_Q], goal[SIM_Q];
            sim_space_from_full(fp, job->start, start);
            sim_space_from_full(fp, job->goal, goal);
            /* the planner's default radius */
            if (solve(job, space, start, goal, 0.0, job->time_limit, &result))
                keep_path(job, &result.path, SIM_Q, fp);
            pb_result_finish(&result);
        }
        pb_engine_destroy(space);
    }
    job->planning_time = pb_clock_seconds() - t0;
    atomic_store(&job->done, 1);
}

void pb_sim_plan_job_destroy(pb_sim_plan_job *job)
{
    if (!job)
        return;
    pb_engine_destroy(job->arm_engine);
    pb_engine_destroy(job->space);
    pb_engine_destroy(job->map);
    free(job->others);
    free(job->entity);
    free(job->path);
    free(job);
}
