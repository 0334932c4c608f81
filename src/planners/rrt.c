/* RRT (LaValle 1998): grow one tree from the start towards uniform samples (the goal with
 * probability goal_bias), at most step_size per extension. A new node within goal_radius
 * that sees the goal connects to it, so a path ends exactly at the goal. */
#include "planbench/impl/planner_impl.h"
#include "core/params.h"
#include "core/tree.h"

#include <math.h>
#include <string.h>

typedef struct rrt_params {
    double step_size;
    double goal_bias;
} rrt_params;

static const pb_param_def rrt_param_defs[] = {
    PB_PARAM_STEP_SIZE(rrt_params),
    PB_PARAM_GOAL_BIAS(rrt_params, 0.05),
};

static void emit_node(const pb_solve_ctx *ctx, const pb_tree *tree, uint32_t node)
{
    if (!ctx->observer)
        return;
    const uint32_t parent = tree->parent[node];
    pb_event ev = {
        .type = PB_EVENT_NODE_ADDED,
        .node = node,
        .parent = parent,
        .q = pb_tree_q(tree, node),
        .parent_q = parent == PB_NO_NODE ? NULL : pb_tree_q(tree, parent),
    };
    ctx->observer(&ev, ctx->observer_payload);
}

static pb_status rrt_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const rrt_params *params = params_ptr;
    pb_engine *engine = ctx->engine;
    const pb_problem *problem = ctx->problem;
    const int dim = ctx->dim;
    const double step = pb_solve_step_size(ctx, params->step_size);

    pb_tree tree;
    pb_status st = pb_tree_init(&tree, engine);
    if (st != PB_OK)
        return st;
    if (pb_tree_add(&tree, problem->start, PB_NO_NODE, 0.0) == PB_NO_NODE) {
        pb_tree_finish(&tree);
        return PB_ERR_NOMEM;
    }
    emit_node(ctx, &tree, 0);

    double sample[PB_MAX_DIM], new_q[PB_MAX_DIM];
    uint32_t goal_node = PB_NO_NODE;
    uint32_t closest = 0; /* node nearest the goal, for approximate solutions */
    double closest_dist = pb_engine_distance(engine, problem->start, problem->goal);
    uint64_t iterations = 0;

    if (closest_dist <= problem->goal_radius && pb_engine_visible(engine, problem->start, problem->goal))
        goal_node = pb_tree_add(&tree, problem->goal, 0, closest_dist);

    while (goal_node == PB_NO_NODE && !pb_solve_should_stop(ctx, iterations, tree.n, false)) {
        iterations++;
        const bool to_goal = pb_rng_uniform(&ctx->rng) < params->goal_bias;
        if (to_goal)
            memcpy(sample, problem->goal, (size_t)dim * sizeof(double));
        else
            pb_engine_sample(engine, &ctx->rng, sample);
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }

        double d;
        const uint32_t near = pb_tree_nearest(&tree, sample, &d);
        const double *near_q = pb_tree_q(&tree, near);
        const double *target = sample;
        if (d > step) {
            pb_engine_interpolate(engine, near_q, sample, step / d, new_q);
            target = new_q;
            d = pb_engine_distance(engine, near_q, new_q);
        }
        if (!pb_engine_visible(engine, near_q, target))
            continue;
        const uint32_t node = pb_tree_add(&tree, target, near, tree.cost[near] + d);
        if (node == PB_NO_NODE) {
            st = PB_ERR_NOMEM;
            break;
        }
        emit_node(ctx, &tree, node);

        const double *node_q = pb_tree_q(&tree, node);
        const double to_goal_dist = pb_engine_distance(engine, node_q, problem->goal);
        if (to_goal_dist < closest_dist) {
            closest_dist = to_goal_dist;
            closest = node;
        }
        if (to_goal_dist <= problem->goal_radius) {
            if (memcmp(node_q, problem->goal, (size_t)dim * sizeof(double)) == 0) {
                goal_node = node;
            } else if (pb_engine_visible(engine, node_q, problem->goal)) {
                goal_node = pb_tree_add(&tree, problem->goal, node, tree.cost[node] + to_goal_dist);
                if (goal_node == PB_NO_NODE) {
                    st = PB_ERR_NOMEM;
                    break;
                }
                emit_node(ctx, &tree, goal_node);
            }
        }
    }

    result->iterations = iterations;
    if (goal_node != PB_NO_NODE) {
        st = pb_tree_path_to(&tree, goal_node, &result->path);
        result->outcome = PB_OUTCOME_EXACT;
        pb_solve_report_solution(ctx, result, tree.cost[goal_node], &result->path);
    } else if (st == PB_OK && ctx->stop->approximate) {
        st = pb_tree_path_to(&tree, closest, &result->path);
    }
    result->nodes = tree.n;
    pb_result_set_extra(result, "memory_bytes", (double)pb_tree_memory(&tree));
    pb_tree_finish(&tree);
    return st;
}

const pb_planner_impl pb_rrt_impl = {
    .name = "rrt",
    .summary = "RRT (LaValle 1998): one tree, goal bias, stops at the first solution",
    .params = rrt_param_defs,
    .n_params = sizeof rrt_param_defs / sizeof rrt_param_defs[0],
    .params_size = sizeof(rrt_params),
    .anytime = false,
    .one_way_edges = true,
    .solve = rrt_solve,
};
