/* Stable Sparse RRT (Li, Littlefield and Bekris 2016; OMPL's control::SST), on the vehicle model
 * (kinodynamic.h). Each iteration selects, among the active nodes within selection_radius of a
 * random pose, the one with the least cost (the nearest active node when none is that close),
 * propagates a random control for a random duration (the whole motion must be free), and keeps
 * the new node only when it is the cheapest within pruning_radius of its witness: the witness's
 * former representative becomes inactive, and inactive leaves are pruned up the tree, so the tree
 * stays sparse. Asymptotically near-optimal in the distance driven. With sst_star the radii
 * shrink as in SST*: after each batch of iterations (batch_size), by the factor xi. */
#include "kinodynamic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sst_params {
    KD_PARAM_FIELDS;
    double selection_radius;
    double pruning_radius;
    bool sst_star;
    int batch_size;
    double xi;
} sst_params;

static const pb_param_def sst_param_defs[] = {
    KD_PARAM_DEFS(sst_params),
    {"selection_radius", PB_PARAM_DOUBLE, offsetof(sst_params, selection_radius), 0.0, 2.0, 1e6,
     "radius around a random pose whose cheapest active node is grown (OMPL's selection radius), in the "
     "metric's "
     "units (metres)"},
    {"pruning_radius", PB_PARAM_DOUBLE, offsetof(sst_params, pruning_radius), 0.0, 1.0, 1e6,
     "radius of a witness: one node per witness survives (OMPL's pruning radius)"},
    {"sst_star", PB_PARAM_BOOL, offsetof(sst_params, sst_star), 0, 0, 1,
     "SST*: shrink both radii by xi after each batch of iterations"},
    {"batch_size", PB_PARAM_INT, offsetof(sst_params, batch_size), 1, 1000, 100000000,
     "SST*'s iterations per batch"},
    {"xi", PB_PARAM_DOUBLE, offsetof(sst_params, xi), 0.01, 0.5, 1.0,
     "SST*'s shrink factor of the radii per batch"},
};

/* The nearest-point grids' cell, metres: a few controls' reach (at most 5 m/s for 1 s) */
#define NN_CELL 2.0

typedef struct witness {
    double q[3];
    uint32_t rep; /* the node it keeps, UINT32_MAX: none */
} witness;

static pb_status sst_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const sst_params *p = params_ptr;
    const double *start = ctx->problem->start, *goal = ctx->problem->goal;
    kd_space sp;
    kd_space_init(&sp, ctx->engine, p->control_dt, p->min_steps, p->max_steps, p->v_min, p->v_max);
    const pb_vehicle_state root = kd_root(start);
    kd_tree t;
    kd_grid nodes, witnesses; /* nearest-point grids over the tree's states and the witnesses */
    memset(&nodes, 0, sizeof nodes);
    memset(&witnesses, 0, sizeof witnesses);
    pb_status st = kd_tree_init(&t, &root);
    if (st == PB_OK && (st = kd_grid_init(&nodes, &sp, NN_CELL)) == PB_OK)
        st = kd_grid_add(&nodes, root.x, root.y, root.yaw);
    if (st == PB_OK && (st = kd_grid_init(&witnesses, &sp, NN_CELL)) == PB_OK)
        st = kd_grid_add(&witnesses, start[0], start[1], start[2]);
    uint32_t *children = calloc(1024, sizeof *children); /* children counts, for pruning leaves */
    size_t children_cap = 1024;
    witness *w = malloc(64 * sizeof *w);
    size_t n_w = 0, w_cap = 64;
    if (!children || !w)
        st = PB_ERR_NOMEM;
    else
        w[n_w++] = (witness){{start[0], start[1], start[2]}, 0};
    double selection = p->selection_radius, pruning = p->pruning_radius;
    uint64_t iterations = 0;
    uint32_t best_goal = UINT32_MAX;
    if (hypot(start[0] - goal[0], start[1] - goal[1]) <= ctx->problem->goal_radius)
        best_goal = 0;
    while (st == PB_OK && !pb_solve_should_stop(ctx, iterations, t.n, best_goal != UINT32_MAX)) {
        iterations++;
        if (p->sst_star && iterations % (uint64_t)p->batch_size == 0) {
            selection *= p->xi;
            pruning *= p->xi;
        }
        double q[3];
        kd_sample(&sp, &ctx->rng, goal, p->goal_bias, q);
        /* the cheapest active node within the selection radius, else the nearest active one */
        uint32_t pick = kd_grid_cheapest(&nodes, q, selection, t.active, t.cost);
        if (pick == UINT32_MAX) {
            double nearest_d;
            pick = kd_grid_nearest(&nodes, q, t.active, &nearest_d);
        }
        if (pick == UINT32_MAX)
            pick = 0; /* no active node: the root grows (as the scan did) */
        pb_control control;
        const int steps = kd_random_control(&sp, &ctx->rng, &t.state[pick], &control);
        pb_vehicle_state s = t.state[pick];
        double driven = 0.0;
        if (kd_propagate(&sp, &s, &control, steps, &driven) < steps)
            continue; /* SST keeps whole motions only */
        const double cost = t.cost[pick] + driven;
        /* the witness of the new state */
        const double qs[3] = {s.x, s.y, s.yaw};
        double wd;
        size_t wi = kd_grid_nearest(&witnesses, qs, NULL, &wd);
        if (wd > pruning) { /* a new witness */
            if ((st = kd_grid_add(&witnesses, qs[0], qs[1], qs[2])) != PB_OK)
                break;
            if (n_w == w_cap) {
                witness *grown = realloc(w, 2 * w_cap * sizeof *grown);
                if (!grown) {
                    st = PB_ERR_NOMEM;
                    break;
                }
                w = grown;
                w_cap *= 2;
            }
            wi = n_w++;
            w[wi] = (witness){{qs[0], qs[1], qs[2]}, UINT32_MAX};
        }
        const uint32_t old = w[wi].rep;
        if (old != UINT32_MAX && t.cost[old] <= cost)
            continue; /* the witness keeps a cheaper node */
        const uint32_t node = kd_tree_add(&t, &s, pick, &control, cost);
        if (node == UINT32_MAX || (st = kd_grid_add(&nodes, s.x, s.y, s.yaw)) != PB_OK) {
            st = PB_ERR_NOMEM;
            break;
        }
        if (t.n > children_cap) {
            uint32_t *grown = realloc(children, 2 * children_cap * sizeof *grown);
            if (!grown) {
                st = PB_ERR_NOMEM;
                break;
            }
            for (size_t k = children_cap; k < 2 * children_cap; k++)
                grown[k] = 0;
            children = grown;
            children_cap *= 2;
        }
        children[node] = 0;
        children[pick]++;
        w[wi].rep = node;
        /* the former representative leaves the active set; inactive leaves are pruned upwards */
        if (old != UINT32_MAX) {
            t.active[old] = false;
            for (uint32_t v = old; v != UINT32_MAX && !t.active[v] && children[v] == 0 && v != best_goal;) {
                const uint32_t up = t.parent[v];
                t.parent[v] = UINT32_MAX - 1; /* pruned: unreachable */
                if (up != UINT32_MAX)
                    children[up]--;
                v = up;
            }
        }
        if (hypot(s.x - goal[0], s.y - goal[1]) <= ctx->problem->goal_radius &&
            (best_goal == UINT32_MAX || cost < t.cost[best_goal])) {
            best_goal = node;
            st = kd_write_result(&sp, &t, node, ctx, result);
        }
    }
    result->iterations = iterations;
    result->nodes = t.n;
    free(children);
    free(w);
    kd_tree_finish(&t);
    kd_grid_finish(&nodes);
    kd_grid_finish(&witnesses);
    return st;
}

const pb_planner_impl pb_sst_impl = {
    .name = "sst",
    .summary =
        "Stable Sparse RRT (OMPL's control::SST; SST* with sst_star): random controls through the vehicle "
        "model, every step swept, a sparse tree of the cheapest nodes; anytime; car engine only",
    .params = sst_param_defs,
    .n_params = sizeof sst_param_defs / sizeof sst_param_defs[0],
    .params_size = sizeof(sst_params),
    .anytime = true,
    .one_way_edges = true,
    .accepts = kd_accepts,
    .solve = sst_solve,
};
