/* RRT-Connect (Kuffner & LaValle 2000), OMPL's RRTConnect semantics: one tree from the
 * start, one from the goal. Each iteration extends one tree by at most step_size towards a
 * uniform sample, then greedily connects the other tree towards the new node (repeated
 * extensions until blocked or reached), and the trees swap roles. No goal bias: the goal
 * tree is rooted at the goal, so a path ends exactly there.
 *
 * Two options, both off by default, give VAMP's RRTC: `balance` grows the smaller tree again
 * while the other has at least twice its nodes (instead of strict alternation), and
 * `dynamic_domain` (Yershova, Sim & LaValle 2005) turns away samples farther than a radius
 * from their nearest node once an extension from that node has failed. Both pay off where one
 * tree starts in a trap (a goal deep in a shelf): that tree gets the extensions, and samples
 * that only hit its walls again are not checked.
 *
 * Edges are always checked in the direction the final path runs (start side first): in the
 * goal tree from the child to its parent. Engines whose edge check depends on direction
 * (interpolated checks round differently) then agree with pb_path_validate. */
#include "planbench/impl/planner_impl.h"
#include "core/params.h"
#include "core/tree.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct birrt_params {
    double step_size;
    bool balance;
    double dynamic_domain;
    double dd_alpha;
    double dd_min_radius;
} birrt_params;

static const pb_param_def birrt_param_defs[] = {
    PB_PARAM_STEP_SIZE(birrt_params),
    {"balance", PB_PARAM_BOOL, offsetof(birrt_params, balance), 0.0, 0.0, 1.0,
     "extend the smaller tree again while the other has at least twice its nodes (VAMP); "
     "false alternates strictly (OMPL)"},
    {"dynamic_domain", PB_PARAM_DOUBLE, offsetof(birrt_params, dynamic_domain), 0.0, 0.0, DBL_MAX,
     "dynamic-domain radius (Yershova et al. 2005): a node whose extension failed only takes samples "
     "within this distance; 0 turns it off (OMPL)"},
    {"dd_alpha", PB_PARAM_DOUBLE, offsetof(birrt_params, dd_alpha), 0.0, 1e-4, 1.0,
     "dynamic domain: a node's radius grows by this fraction on success, shrinks on failure"},
    {"dd_min_radius", PB_PARAM_DOUBLE, offsetof(birrt_params, dd_min_radius), 0.0, 0.0, DBL_MAX,
     "dynamic domain: the smallest radius; 0 means a quarter of dynamic_domain"},
};

enum { START_TREE = 0, GOAL_TREE = 1 };

typedef enum grow_status { TRAPPED, ADVANCED, REACHED } grow_status;

typedef struct birrt {
    pb_solve_ctx *ctx;
    pb_engine *engine;
    double step;
    pb_tree trees[2];
    double *radius[2]; /* dynamic domain: per node, INFINITY until its first failed extension */
    uint32_t radius_cap[2];
    double dd_first, dd_alpha, dd_min; /* radius given at the first failure, its factor, its floor */
    uint32_t closest;                  /* start-tree node nearest the goal, for approximate solutions */
    double closest_dist;
    pb_status status; /* PB_ERR_NOMEM when a tree could not grow */
} birrt;

static void emit_node(const pb_solve_ctx *ctx, const pb_tree *tree, int which, uint32_t node)
{
    if (!ctx->observer)
        return;
    const uint32_t parent = tree->parent[node];
    pb_event ev = {
        .type = PB_EVENT_NODE_ADDED,
        .tree = which,
        .node = node,
        .parent = parent,
        .q = pb_tree_q(tree, node),
        .parent_q = parent == PB_NO_NODE ? NULL : pb_tree_q(tree, parent),
    };
    ctx->observer(&ev, ctx->observer_payload);
}

static bool edge_free(birrt *b, int which, const double *from_tree, const double *new_q)
{
    return which == START_TREE ? pb_engine_visible(b->engine, from_tree, new_q)
                               : pb_engine_visible(b->engine, new_q, from_tree);
}

/* One extension of tree `which` from node `near` (at distance `d` from `target`) towards
 * `target`: at most one step. The new node's index goes to *added. */
static grow_status extend(birrt *b, int which, uint32_t near, double d, const double *target, uint32_t *added)
{
    pb_tree *tree = &b->trees[which];
    double new_q[PB_MAX_DIM];
    const double *near_q = pb_tree_q(tree, near);
    const double *q = target;
    grow_status reached = REACHED;
    if (d > b->step) {
        pb_engine_interpolate(b->engine, near_q, target, b->step / d, new_q);
        q = new_q;
        d = pb_engine_distance(b->engine, near_q, new_q);
        reached = ADVANCED;
    }
    if (!edge_free(b, which, near_q, q))
        return TRAPPED;
    const uint32_t node = pb_tree_add(tree, q, near, tree->cost[near] + d);
    if (node == PB_NO_NODE) {
        b->status = PB_ERR_NOMEM;
        return TRAPPED;
    }
    emit_node(b->ctx, tree, which, node);
    if (which == START_TREE) {
        const double to_goal = pb_engine_distance(b->engine, pb_tree_q(tree, node), b->ctx->problem->goal);
        if (to_goal < b->closest_dist) {
            b->closest_dist = to_goal;
            b->closest = node;
        }
    }
    *added = node;
    return reached;
}

/* Greedy connect: extend tree `which` towards `target` until blocked or reached. After the
 * first extension the newest node is the nearest to the target (it lies on the segment from
 * the previous nearest, closer), so only the first step searches the tree. */
static bool connect(birrt *b, int which, const double *target, uint32_t *reached_node)
{
    pb_tree *tree = &b->trees[which];
    double d;
    uint32_t near = pb_tree_nearest(tree, target, &d);
    for (;;) {
        uint32_t added;
        const grow_status gs = extend(b, which, near, d, target, &added);
        if (gs == TRAPPED)
            return false;
        if (gs == REACHED) {
            *reached_node = added;
            return true;
        }
        near = added;
        d = pb_engine_distance(b->engine, pb_tree_q(tree, near), target);
    }
}

/* Dynamic domain (Yershova, Sim & LaValle 2005, as VAMP's RRTC applies it): every node has a
 * radius, infinite until an extension from it fails. Radii are stored only up to the highest
 * node that has one; the rest are infinite. */
static double dd_radius(const birrt *b, int which, uint32_t node)
{
    return node < b->radius_cap[which] ? b->radius[which][node] : INFINITY;
}

static void dd_set_radius(birrt *b, int which, uint32_t node, double r)
{
    if (node >= b->radius_cap[which]) {
        uint32_t cap = b->radius_cap[which] ? b->radius_cap[which] : 64;
        while (cap <= node)
            cap *= 2;
        double *grown = realloc(b->radius[which], cap * sizeof *grown);
        if (!grown) {
            b->status = PB_ERR_NOMEM;
            return;
        }
        for (uint32_t i = b->radius_cap[which]; i < cap; i++)
            grown[i] = INFINITY;
        b->radius[which] = grown;
        b->radius_cap[which] = cap;
    }
    b->radius[which][node] = r;
}

/* Path: start tree root .. a, then goal tree b .. root (a and b are the same configuration,
 * so b itself is skipped). */
static pb_status join_paths(const birrt *b, uint32_t start_node, uint32_t goal_node, pb_path *out)
{
    pb_status st = pb_tree_path_to(&b->trees[START_TREE], start_node, out);
    const pb_tree *gt = &b->trees[GOAL_TREE];
    for (uint32_t i = gt->parent[goal_node]; st == PB_OK && i != PB_NO_NODE; i = gt->parent[i])
        st = pb_path_append(out, pb_tree_q(gt, i));
    return st;
}

static pb_status birrt_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const birrt_params *params = params_ptr;
    const pb_problem *problem = ctx->problem;
    birrt b = {
        .ctx = ctx,
        .engine = ctx->engine,
        .step = pb_solve_step_size(ctx, params->step_size),
        .closest = 0,
        .status = PB_OK,
        .dd_first = params->dynamic_domain,
        .dd_alpha = params->dd_alpha,
        .dd_min = params->dd_min_radius > 0.0 ? params->dd_min_radius : 0.25 * params->dynamic_domain,
    };
    pb_status st = pb_tree_init(&b.trees[START_TREE], b.engine);
    if (st == PB_OK)
        st = pb_tree_init(&b.trees[GOAL_TREE], b.engine);
    if (st == PB_OK && (pb_tree_add(&b.trees[START_TREE], problem->start, PB_NO_NODE, 0.0) == PB_NO_NODE ||
                        pb_tree_add(&b.trees[GOAL_TREE], problem->goal, PB_NO_NODE, 0.0) == PB_NO_NODE))
        st = PB_ERR_NOMEM;
    if (st != PB_OK) {
        pb_tree_finish(&b.trees[START_TREE]);
        pb_tree_finish(&b.trees[GOAL_TREE]);
        return st;
    }
    emit_node(ctx, &b.trees[START_TREE], START_TREE, 0);
    emit_node(ctx, &b.trees[GOAL_TREE], GOAL_TREE, 0);
    b.closest_dist = pb_engine_distance(b.engine, problem->start, problem->goal);

    double sample[PB_MAX_DIM];
    uint32_t joint[2] = {PB_NO_NODE, PB_NO_NODE}; /* the meeting nodes in each tree */
    uint64_t iterations = 0;
    int which = START_TREE;

    /* A goal within reach of the start: one edge, as RRT does. */
    const bool direct =
        b.closest_dist <= problem->goal_radius && pb_engine_visible(b.engine, problem->start, problem->goal);
    if (direct)
        joint[START_TREE] = joint[GOAL_TREE] = 0;

    while (joint[0] == PB_NO_NODE && b.status == PB_OK &&
           !pb_solve_should_stop(ctx, iterations, (uint64_t)b.trees[0].n + b.trees[1].n, false)) {
        iterations++;
        pb_engine_sample(b.engine, &ctx->rng, sample);
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .tree = which, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }
        double d;
        const uint32_t near = pb_tree_nearest(&b.trees[which], sample, &d);
        const double near_radius = dd_radius(&b, which, near);
        if (d <= near_radius) {
            uint32_t added;
            if (extend(&b, which, near, d, sample, &added) != TRAPPED) {
                if (near_radius < INFINITY)
                    dd_set_radius(&b, which, near, near_radius * (1.0 + b.dd_alpha));
                const int other = !which;
                uint32_t met;
                if (connect(&b, other, pb_tree_q(&b.trees[which], added), &met)) {
                    joint[which] = added;
                    joint[other] = met;
                }
            } else if (b.dd_first > 0.0) {
                dd_set_radius(&b, which, near,
                              near_radius == INFINITY ? b.dd_first
                                                      : fmax(near_radius * (1.0 - b.dd_alpha), b.dd_min));
            }
        }
        /* Balanced: the smaller tree grows again while the other has twice its nodes. */
        if (!params->balance || b.trees[!which].n < 2 * b.trees[which].n)
            which = !which;
    }

    result->iterations = iterations;
    st = b.status;
    if (joint[0] != PB_NO_NODE) {
        if (direct) {
            st = pb_path_append(&result->path, problem->start);
            if (st == PB_OK)
                st = pb_path_append(&result->path, problem->goal);
        } else {
            st = join_paths(&b, joint[START_TREE], joint[GOAL_TREE], &result->path);
        }
        if (st == PB_OK) {
            result->outcome = PB_OUTCOME_EXACT;
            pb_solve_report_solution(ctx, result, pb_path_length(&result->path, b.engine), &result->path);
        }
    } else if (st == PB_OK && ctx->stop->approximate) {
        st = pb_tree_path_to(&b.trees[START_TREE], b.closest, &result->path);
    }
    result->nodes = (uint64_t)b.trees[0].n + b.trees[1].n;
    pb_result_set_extra(result, "memory_bytes",
                        (double)(pb_tree_memory(&b.trees[0]) + pb_tree_memory(&b.trees[1])));
    pb_tree_finish(&b.trees[START_TREE]);
    pb_tree_finish(&b.trees[GOAL_TREE]);
    free(b.radius[START_TREE]);
    free(b.radius[GOAL_TREE]);
    return st;
}

static const char *const birrt_aliases[] = {"rrtconnect", "rrt_connect", NULL};

const pb_planner_impl pb_birrt_impl = {
    .name = "birrt",
    .aliases = birrt_aliases,
    .summary = "RRT-Connect (Kuffner & LaValle 2000): two trees, greedy connect, stops at the first solution",
    .params = birrt_param_defs,
    .n_params = sizeof birrt_param_defs / sizeof birrt_param_defs[0],
    .params_size = sizeof(birrt_params),
    .anytime = false,
    .solve = birrt_solve,
};
