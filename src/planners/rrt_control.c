/* Control-based RRT (LaValle and Kuffner 2001; OMPL's control::RRT): grow a tree of vehicle
 * states towards random poses, each time from the nearest node by a random control (a target
 * speed and a steer angle) held for a random duration, propagated through the vehicle model
 * with every step swept against the map (kinodynamic.h). A node within goal_radius of the goal's
 * position (any heading, as OMPL's car benchmark) ends the search; the plan's controls replay in
 * the simulator state for state. */
#include "kinodynamic.h"

#include <math.h>

typedef struct rrtc_params {
    KD_PARAM_FIELDS;
} rrtc_params;

static const pb_param_def rrtc_param_defs[] = {KD_PARAM_DEFS(rrtc_params)};

/* The nearest-node grid's cell, metres: a few controls' reach (at most 5 m/s for 1 s) */
#define NN_CELL 2.0

static pb_status rrtc_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const rrtc_params *p = params_ptr;
    const double *start = ctx->problem->start, *goal = ctx->problem->goal;
    kd_space sp;
    kd_space_init(&sp, ctx->engine, p->control_dt, p->min_steps, p->max_steps, p->v_min, p->v_max);
    const pb_vehicle_state root = kd_root(start);
    kd_tree t;
    kd_grid grid;
    pb_status st = kd_tree_init(&t, &root);
    if (st == PB_OK && (st = kd_grid_init(&grid, &sp, NN_CELL)) == PB_OK)
        st = kd_grid_add(&grid, root.x, root.y, root.yaw);
    uint64_t iterations = 0;
    uint32_t found = UINT32_MAX;
    if (hypot(start[0] - goal[0], start[1] - goal[1]) <= ctx->problem->goal_radius)
        found = 0;
    while (st == PB_OK && found == UINT32_MAX && !pb_solve_should_stop(ctx, iterations, t.n, false)) {
        iterations++;
        double q[3];
        kd_sample(&sp, &ctx->rng, goal, p->goal_bias, q);
        double best;
        const uint32_t near = kd_grid_nearest(&grid, q, NULL, &best);
        pb_control control;
        const int steps = kd_random_control(&sp, &ctx->rng, &t.state[near], &control);
        pb_vehicle_state s = t.state[near];
        double driven = 0.0;
        /* OMPL's propagateWhileValid: the valid part of the motion is kept */
        const int done = kd_propagate(&sp, &s, &control, steps, &driven);
        if (done == 0)
            continue;
        control.duration = done * sp.dt;
        const uint32_t node = kd_tree_add(&t, &s, near, &control, t.cost[near] + driven);
        if (node == UINT32_MAX || (st = kd_grid_add(&grid, s.x, s.y, s.yaw)) != PB_OK) {
            st = PB_ERR_NOMEM;
            break;
        }
        if (hypot(s.x - goal[0], s.y - goal[1]) <= ctx->problem->goal_radius)
            found = node;
    }
    result->iterations = iterations;
    result->nodes = t.n;
    if (st == PB_OK && found != UINT32_MAX)
        st = kd_write_result(&sp, &t, found, ctx, result);
    kd_tree_finish(&t);
    kd_grid_finish(&grid);
    return st;
}

const pb_planner_impl pb_rrt_control_impl = {
    .name = "rrt_control",
    .summary =
        "control-based RRT (OMPL's control::RRT): random controls and durations through the vehicle model, "
        "every step swept; the plan's controls replay in the simulator; car engine only",
    .params = rrtc_param_defs,
    .n_params = sizeof rrtc_param_defs / sizeof rrtc_param_defs[0],
    .params_size = sizeof(rrtc_params),
    .anytime = false,
    .one_way_edges = true,
    .accepts = kd_accepts,
    .solve = rrtc_solve,
};
