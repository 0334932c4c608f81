/* RRdT* (Lai, Ramos & Francis, ICRA 2019): Rapidly-exploring Random disjointed-Trees.
 *
 * A forest: the rooted tree (tree 0, from the start) and local trees, each grown by a local
 * sampler that random-walks (a Gaussian step of walk_scale * step_size / sqrt(d) in each
 * coordinate under the engine's metric, that is divided by the coordinate's metric weight,
 * around its last successful node). The samplers are the arms of a bandit:
 *
 *   - arm 0 walks in the rooted tree, arms 1..num_trees each own a local tree seeded at a
 *     random feasible sample (arm 1's first tree is seeded at the goal, so the goal is a
 *     target that local exploration grows towards, bidirectional-style);
 *   - each iteration picks an arm with probability proportional to its smoothed success rate
 *     (exponential average, factor 0.9, of "the extension was collision-free") plus 0.05
 *     (the exploration floor) - the paper's proportional scheme, like sbp-env's particle
 *     energies;
 *   - an arm failing restart_after times in a row restarts: a local arm starts a new tree at
 *     a uniformly random feasible configuration (its old tree stays, dormant, and can still
 *     be merged), arm 0 continues from a random node of the rooted tree.
 *
 * A new node extends the tree nearest to the walk's sample (within the arm's own tree: the
 * nearest of the 8 nearest nodes that belong to it, else the walk's centre). If it sees a node
 * of another tree among its 16 nearest nodes, within step_size, the trees merge: the other tree (or the local
 * one, when the other is the rooted tree) is re-rooted at the connecting node and joined with costs
 * recomputed. Nodes joining the rooted tree get RRT* treatment (choose-parent and rewiring
 * among the k = ceil(e (1 + 1/d) ln n) nearest nodes, capped at 64, that are rooted and within
 * step_size: RRT*'s k-nearest rule), which makes it RRdT* and anytime. The goal is reached when it is in the
 * rooted tree: by a merge of the goal's tree, or when a rooted node within goal_radius sees it.
 *
 * Observer: PB_EVENT_NODE_ADDED with .tree = 0 for the rooted tree and 1..num_trees for the
 * local tree of that arm (joins after a merge are reported with tree 0), EDGE_REMOVED on
 * rewiring and re-rooting. Iterations count arm pulls. */
#include "planbench/impl/planner_impl.h"
#include "core/arena.h"
#include "core/nn.h"
#include "core/metric.h"
#include "core/params.h"
#include "core/grow.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct rrdt_params {
    double step_size;
    int num_trees;
    double walk_scale;
    int restart_after;
} rrdt_params;

static const pb_param_def rrdt_param_defs[] = {
    PB_PARAM_STEP_SIZE(rrdt_params),
    {"num_trees", PB_PARAM_INT, offsetof(rrdt_params, num_trees), 1.0, 4.0, 64.0,
     "number of local (disjointed) trees, each with its random-walk sampler"},
    {"walk_scale", PB_PARAM_DOUBLE, offsetof(rrdt_params, walk_scale), 0.01, 1.5, 1000.0,
     "random-walk step deviation, in step sizes"},
    {"restart_after", PB_PARAM_INT, offsetof(rrdt_params, restart_after), 1.0, 10.0, 1e6,
     "consecutive failed extensions after which a sampler restarts elsewhere"},
};

#define NONE       UINT32_MAX
#define MAX_ARMS   65
#define NEAR_K     8
#define MERGE_K    16
#define REWIRE_MAX 64

typedef struct arm {
    uint32_t tree;   /* tree label it grows */
    uint32_t centre; /* node its walk is centred on */
    double success;  /* smoothed success rate */
    int fails;       /* consecutive failures */
    /* the walk's heading: a unit vector in metric-scaled coordinates (w_i dq_i), the last
     * successful step's direction, or none (all zero) after a failure or a restart */
    double heading[PB_MAX_DIM];
} arm;

typedef struct forest {
    pb_solve_ctx *ctx;
    int dim;
    double step;
    uint32_t n, cap;
    double *q, *cost;
    uint32_t *parent, *first_child, *next_sibling, *label;
    uint32_t *stack, *list;
    pb_nn *nn;
    pb_nn *rooted_nn; /* the rooted tree's nodes only, for its uniform samples */
    uint32_t next_label;
    uint32_t goal; /* node index of the goal */
    uint64_t n_rewires, n_merges, n_restarts;
} forest;

static bool reserve(forest *f, uint32_t need)
{
    if (need <= f->cap)
        return true;
    const size_t cap = pb_grow_capacity(f->cap, need, 1024, sizeof(double) * PB_MAX_DIM);
    if (!cap)
        return false;
    PB_GROW_OR_FAIL(f->q, cap * (size_t)f->dim);
    PB_GROW_OR_FAIL(f->cost, cap);
    PB_GROW_OR_FAIL(f->parent, cap);
    PB_GROW_OR_FAIL(f->first_child, cap);
    PB_GROW_OR_FAIL(f->next_sibling, cap);
    PB_GROW_OR_FAIL(f->label, cap);
    PB_GROW_OR_FAIL(f->stack, cap);
    PB_GROW_OR_FAIL(f->list, cap);
    f->cap = (uint32_t)cap;
    return true;
}

static inline const double *node_q(const forest *f, uint32_t i)
{
    return f->q + (size_t)i * (size_t)f->dim;
}
static inline double dist(const forest *f, uint32_t a, uint32_t b)
{
    return pb_engine_distance(f->ctx->engine, node_q(f, a), node_q(f, b));
}

static void emit(const forest *f, pb_event_type type, uint32_t node, uint32_t parent, int tree)
{
    if (!f->ctx->observer)
        return;
    pb_event ev = {.type = type,
                   .tree = tree,
                   .node = node,
                   .parent = parent,
                   .q = node_q(f, node),
                   .parent_q = parent == NONE ? NULL : node_q(f, parent)};
    f->ctx->observer(&ev, f->ctx->observer_payload);
}

static void attach(forest *f, uint32_t x, uint32_t p)
{
    f->parent[x] = p;
    f->next_sibling[x] = f->first_child[p];
    f->first_child[p] = x;
}

static void detach(forest *f, uint32_t x)
{
    const uint32_t p = f->parent[x];
    if (p == NONE)
        return;
    uint32_t *link = &f->first_child[p];
    while (*link != x)
        link = &f->next_sibling[*link];
    *link = f->next_sibling[x];
    f->parent[x] = f->next_sibling[x] = NONE;
}

static uint32_t add_node(forest *f, const double *q, uint32_t parent, uint32_t label)
{
    if (!reserve(f, f->n + 1))
        return NONE;
    const uint32_t i = f->n;
    memcpy(f->q + (size_t)i * (size_t)f->dim, q, (size_t)f->dim * sizeof(double));
    f->first_child[i] = f->next_sibling[i] = NONE;
    f->parent[i] = NONE;
    f->label[i] = label;
    f->cost[i] = 0.0;
    if (parent != NONE) {
        attach(f, i, parent);
        f->cost[i] = f->cost[parent] + dist(f, parent, i);
    }
    if (pb_nn_add(f->nn, i, q) != PB_OK || (label == 0 && pb_nn_add(f->rooted_nn, i, q) != PB_OK))
        return NONE;
    f->n++;
    return i;
}

/* Recompute costs (and set labels) of x's subtree from x's cost; returns how many nodes, which
 * are listed in f->list. */
static uint32_t refresh_subtree(forest *f, uint32_t x, uint32_t label)
{
    uint32_t top = 0, n = 0;
    f->stack[top++] = x;
    while (top) {
        const uint32_t v = f->stack[--top];
        f->label[v] = label;
        f->list[n++] = v;
        for (uint32_t c = f->first_child[v]; c != NONE; c = f->next_sibling[c]) {
            f->cost[c] = f->cost[v] + dist(f, v, c);
            f->stack[top++] = c;
        }
    }
    return n;
}

/* k of RRT*'s k-nearest rule, ceil(e (1 + 1/d) ln n), capped by the buffer. */
static size_t rewire_k(const forest *f)
{
    const double n = (double)f->n;
    const double k = ceil(M_E * (1.0 + 1.0 / f->dim) * log(n > 2 ? n : 2));
    return k > REWIRE_MAX ? REWIRE_MAX : (size_t)k;
}

/* RRT* for node x within its own tree: a cheaper parent among the tree's neighbours, then
 * rewire them through x. The rooted tree's neighbours come from its own index; a local
 * tree's from the forest's, filtered by label (a walk's neighbours are mostly its own
 * tree's). Local trees are optimised too: a random walk's tree is a chain that zigzags, and
 * the paths made of merged chains were many times longer than any other planner's, with
 * nothing in the rooted tree's rewiring able to straighten them later. The neighbours are
 * RRT*'s k nearest, not limited to one step: in six dimensions a node had about one other
 * node within a step (its parent), so a step-limited rewiring never found anything to do.
 * Returns PB_OK. */
static pb_status optimise(forest *f, uint32_t x)
{
    pb_engine *engine = f->ctx->engine;
    const uint32_t label = f->label[x];
    uint32_t ids[REWIRE_MAX];
    double dists[REWIRE_MAX];
    const size_t n_near =
        pb_nn_knearest(label == 0 ? f->rooted_nn : f->nn, node_q(f, x), rewire_k(f), ids, dists);
    uint32_t best_parent = NONE;
    double best_cost = f->cost[x];
    for (size_t i = 0; i < n_near; i++) {
        const uint32_t y = ids[i];
        if (y == x || f->label[y] != label || f->parent[x] == y || y == f->goal)
            continue;
        const double c = f->cost[y] + dists[i];
        if (c < best_cost - 1e-12 && pb_engine_visible(engine, node_q(f, y), node_q(f, x))) {
            best_cost = c;
            best_parent = y;
        }
    }
    const int tree = label == 0 ? 0 : 1;
    if (best_parent != NONE && f->parent[x] != NONE) {
        /* y cannot be a descendant of x: a descendant costs at least cost[x] > best_cost */
        emit(f, PB_EVENT_EDGE_REMOVED, x, f->parent[x], tree);
        detach(f, x);
        attach(f, x, best_parent);
        f->cost[x] = f->cost[best_parent] + dist(f, best_parent, x);
        refresh_subtree(f, x, label);
        emit(f, PB_EVENT_NODE_ADDED, x, best_parent, tree);
        f->n_rewires++;
    }
    for (size_t i = 0; i < n_near; i++) {
        const uint32_t y = ids[i];
        if (y == x || f->parent[y] == NONE || f->label[y] != label || f->parent[x] == y)
            continue;
        const double c = f->cost[x] + dist(f, x, y);
        if (c < f->cost[y] - 1e-12 && pb_engine_visible(engine, node_q(f, x), node_q(f, y))) {
            emit(f, PB_EVENT_EDGE_REMOVED, y, f->parent[y], tree);
            detach(f, y);
            attach(f, y, x);
            f->cost[y] = c;
            refresh_subtree(f, y, label);
            emit(f, PB_EVENT_NODE_ADDED, y, x, tree);
            f->n_rewires++;
        }
    }
    return PB_OK;
}

/* Join the tree of `u` to the tree of `w` by the (checked) edge w-u: u's tree is re-rooted at
 * u and hung below w. Nodes joining the rooted tree are optimised. */
static pb_status merge(forest *f, uint32_t u, uint32_t w)
{
    /* reverse the parent chain from u to its root */
    uint32_t len = 0;
    for (uint32_t v = u; v != NONE; v = f->parent[v])
        f->stack[len++] = v;
    for (uint32_t i = 0; i + 1 < len; i++) {
        emit(f, PB_EVENT_EDGE_REMOVED, f->stack[i], f->stack[i + 1], f->label[u] == 0 ? 0 : 1);
        detach(f, f->stack[i]);
    }
    /* the stack is reused by refresh_subtree: keep the chain in list for the re-attachment */
    memcpy(f->list, f->stack, len * sizeof *f->list);
    for (uint32_t i = 0; i + 1 < len; i++)
        attach(f, f->list[i + 1], f->list[i]);
    attach(f, u, w);
    f->cost[u] = f->cost[w] + dist(f, w, u);
    const uint32_t label = f->label[w];
    const uint32_t n = refresh_subtree(f, u, label);
    f->n_merges++;
    for (uint32_t i = 0; i < n; i++)
        emit(f, PB_EVENT_NODE_ADDED, f->list[i], f->parent[f->list[i]], label == 0 ? 0 : 1);
    if (label != 0)
        return PB_OK;
    for (uint32_t i = 0; i < n; i++)
        if (pb_nn_add(f->rooted_nn, f->list[i], node_q(f, f->list[i])) != PB_OK)
            return PB_ERR_NOMEM;
    /* the joined nodes are listed in f->list, which optimise()'s refreshes overwrite: copy */
    uint32_t *joined = malloc((size_t)n * sizeof *joined); /* once per merge, not per iteration */
    if (!joined)
        return PB_ERR_NOMEM;
    memcpy(joined, f->list, (size_t)n * sizeof *joined);
    pb_status st = PB_OK;
    for (uint32_t i = 0; i < n && st == PB_OK; i++)
        st = optimise(f, joined[i]);
    free(joined);
    return st;
}

static pb_status random_feasible(forest *f, double *out, bool *found)
{
    *found = false;
    for (int tries = 0; tries < 1000; tries++) {
        pb_engine_sample(f->ctx->engine, &f->ctx->rng, out);
        if (pb_engine_feasible(f->ctx->engine, out)) {
            *found = true;
            return PB_OK;
        }
    }
    return PB_OK;
}

/* Restart arm a: a new local tree somewhere random, or a random rooted node for arm 0. */
static pb_status restart(forest *f, arm *arms, int a)
{
    f->n_restarts++;
    arms[a].fails = 0;
    memset(arms[a].heading, 0, sizeof arms[a].heading);
    if (a == 0) {
        for (;;) { /* a uniformly random node of the rooted tree */
            const uint32_t i = pb_rng_below(&f->ctx->rng, f->n);
            if (f->label[i] == 0) {
                arms[0].centre = i;
                return PB_OK;
            }
        }
    }
    double q[PB_MAX_DIM];
    bool found;
    pb_status st = random_feasible(f, q, &found);
    if (st != PB_OK || !found)
        return st;
    const uint32_t label = f->next_label++;
    const uint32_t root = add_node(f, q, NONE, label);
    if (root == NONE)
        return PB_ERR_NOMEM;
    arms[a].tree = label;
    arms[a].centre = root;
    arms[a].success = 1.0;
    emit(f, PB_EVENT_NODE_ADDED, root, NONE, a);
    return PB_OK;
}

/* The arm whose tree has label `label`, or -1. */
static int owner(const arm *arms, int n_arms, uint32_t label)
{
    for (int a = 0; a < n_arms; a++)
        if (arms[a].tree == label)
            return a;
    return -1;
}

static pb_status rrdt_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const rrdt_params *params = params_ptr;
    pb_engine *engine = ctx->engine;
    const pb_problem *problem = ctx->problem;
    const int dim = ctx->dim;
    forest f = {.ctx = ctx, .dim = dim, .step = pb_solve_step_size(ctx, params->step_size), .goal = NONE};
    pb_status st = pb_nn_create(&f.nn, engine);
    if (st == PB_OK && (st = pb_nn_create(&f.rooted_nn, engine)) != PB_OK)
        pb_nn_destroy(f.nn);
    if (st != PB_OK)
        return st;

    const int n_arms = 1 + (params->num_trees < MAX_ARMS - 1 ? params->num_trees : MAX_ARMS - 1);
    arm arms[MAX_ARMS];
    uint64_t iterations = 0;
    double best = INFINITY;
    uint32_t near_ids[NEAR_K];
    double near_d[NEAR_K];
    double sample[PB_MAX_DIM], new_q[PB_MAX_DIM];

    if (add_node(&f, problem->start, NONE, 0) == NONE) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    emit(&f, PB_EVENT_NODE_ADDED, 0, NONE, 0);
    arms[0] = (arm){.tree = 0, .centre = 0, .success = 1.0};
    f.next_label = 1;
    f.goal = add_node(&f, problem->goal, NONE, f.next_label++);
    if (f.goal == NONE) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    emit(&f, PB_EVENT_NODE_ADDED, f.goal, NONE, 1);
    arms[1] = (arm){.tree = f.label[f.goal], .centre = f.goal, .success = 1.0};
    for (int a = 2; a < n_arms; a++)
        if ((st = restart(&f, arms, a)) != PB_OK)
            goto done;
    f.n_restarts = 0;
    if (pb_engine_distance(engine, problem->start, problem->goal) <= problem->goal_radius &&
        pb_engine_visible(engine, problem->start, problem->goal) && (st = merge(&f, f.goal, 0)) != PB_OK)
        goto done;

    /* The walk's step is drawn in the engine's metric, not in raw coordinates: with metric
     * weights w_i a coordinate moves sigma / w_i, so that a step is about walk_scale * step
     * long under the metric in every space. Drawing the same raw deviation in every
     * coordinate was the cause of RRdT* timing out on the 4D arm: its angles weigh the arm
     * length they swing (60 and 30), so a deviation of 21 (radians!) made every sample a
     * random orientation 100 metric units away, and each extension, cut to one step towards
     * it, moved the base about 3 px. Wrapping coordinates are taken back into their period
     * and the others reflected into the bounds, so that no sample is wasted outside them. */
    double weights[PB_MAX_DIM], periods[PB_MAX_DIM];
    if (!pb_engine_metric(engine, weights, periods))
        for (int i = 0; i < dim; i++)
            weights[i] = 1.0; /* an opaque metric: raw coordinates are the best guess */
    double sigma[PB_MAX_DIM];
    const double *lower = pb_engine_lower(engine), *upper = pb_engine_upper(engine);
    for (int i = 0; i < dim; i++)
        sigma[i] = params->walk_scale * f.step / (sqrt((double)dim) * weights[i]);
    while (!pb_solve_should_stop(ctx, iterations, f.n, best < INFINITY)) {
        iterations++;
        /* pick an arm: probability proportional to success + 0.05 */
        double total = 0.0;
        for (int a = 0; a < n_arms; a++)
            total += arms[a].success + 0.05;
        double pick = pb_rng_uniform(&ctx->rng) * total;
        int a = 0;
        while (a < n_arms - 1 && (pick -= arms[a].success + 0.05) >= 0.0)
            a++;
        arm *ar = &arms[a];

        /* the walk's sample, and the arm's tree node nearest to it */
        const double *centre = node_q(&f, ar->centre);
        /* The rooted tree's arm draws every other sample uniformly, as RRT* does: the walks
         * find a first path fast in narrow places, and the uniform samples, rewired, shorten
         * it. With walks alone the rooted tree never sees most of the space again, and a path
         * made of merged local trees (whose walks wind around continuous joints) stayed at
         * 12 times the other planners' cost however long it ran. */
        const bool uniform = a == 0 && pb_rng_below(&ctx->rng, 2) == 0;
        if (uniform)
            pb_engine_sample(engine, &ctx->rng, sample);
        for (int i = 0; i < dim && !uniform; i++) {
            /* a walk with momentum: a successful direction is kept, perturbed, so a local
             * tree crosses open space in a line instead of diffusing (the distance covered
             * by a plain Gaussian walk grows only with the square root of its steps) */
            const double drift = ar->heading[i] * params->walk_scale * f.step / weights[i];
            double v = centre[i] + drift + sigma[i] * pb_rng_normal(&ctx->rng);
            const double width = upper[i] - lower[i];
            if (periods[i] > 0.0) {
                v = lower[i] + fmod(v - lower[i], periods[i]);
                if (v < lower[i])
                    v += periods[i];
            } else if (v < lower[i] || v >= upper[i]) {
                /* reflect at the bounds (a deviation is far below the width) */
                v = v < lower[i] ? lower[i] + fmin(lower[i] - v, 0.999999 * width)
                                 : upper[i] - fmin(v - upper[i], 0.999999 * width);
            }
            sample[i] = v;
        }
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }
        uint32_t from = ar->centre;
        if (uniform) {
            double unused;
            from = pb_nn_nearest(f.rooted_nn, sample, &unused);
        } else {
            const size_t got = pb_nn_knearest(f.nn, sample, NEAR_K, near_ids, near_d);
            for (size_t i = 0; i < got; i++)
                if (f.label[near_ids[i]] == ar->tree) {
                    from = near_ids[i];
                    break;
                }
        }
        const double d = pb_engine_distance(engine, node_q(&f, from), sample);
        const double *target = sample;
        if (d > f.step) {
            pb_engine_interpolate(engine, node_q(&f, from), sample, f.step / d, new_q);
            target = new_q;
        }
        const bool ok = d > 0.0 && pb_engine_visible(engine, node_q(&f, from), target);
        ar->success = 0.9 * ar->success + (ok ? 0.1 : 0.0);
        if (!ok)
            memset(ar->heading, 0, sizeof ar->heading);
        if (!ok) {
            if (++ar->fails >= params->restart_after && (st = restart(&f, arms, a)) != PB_OK)
                break;
            continue;
        }
        ar->fails = 0;
        const uint32_t x = add_node(&f, target, from, ar->tree);
        if (x == NONE) {
            st = PB_ERR_NOMEM;
            break;
        }
        ar->centre = x;
        {
            /* the new heading: this step's direction under the metric */
            const double *qa = node_q(&f, from), *qb = node_q(&f, x);
            double norm = 0.0;
            for (int i = 0; i < dim; i++) {
                ar->heading[i] = weights[i] * pb_coord_delta(qa[i], qb[i], periods[i]);
                norm += ar->heading[i] * ar->heading[i];
            }
            norm = sqrt(norm);
            for (int i = 0; i < dim; i++)
                ar->heading[i] = norm > 0.0 ? ar->heading[i] / norm : 0.0;
        }
        emit(&f, PB_EVENT_NODE_ADDED, x, from, a);
        if ((st = optimise(&f, x)) != PB_OK)
            break;

        /* merge with the nearest other tree in sight */
        uint32_t merge_ids[MERGE_K];
        double merge_d[MERGE_K];
        const size_t n_merge = pb_nn_knearest(f.nn, node_q(&f, x), MERGE_K, merge_ids, merge_d);
        uint32_t other = NONE;
        for (size_t i = 0; i < n_merge && other == NONE; i++) {
            const uint32_t y = merge_ids[i];
            if (merge_d[i] <= f.step && f.label[y] != f.label[x] &&
                pb_engine_visible(engine, node_q(&f, x), node_q(&f, y)))
                other = y;
        }
        if (other != NONE) {
            /* the rooted tree always absorbs; between local trees, x's tree joins the other */
            uint32_t u = x, w = other;
            if (f.label[x] == 0) {
                u = other;
                w = x;
            }
            const int absorbed_owner = owner(arms, n_arms, f.label[u]);
            if ((st = merge(&f, u, w)) != PB_OK)
                break;
            if (absorbed_owner > 0 && (st = restart(&f, arms, absorbed_owner)) != PB_OK)
                break;
        }

        /* the goal, when a rooted node within goal_radius sees it */
        if (f.label[f.goal] != 0 && f.label[x] == 0) {
            const double dg = pb_engine_distance(engine, node_q(&f, x), problem->goal);
            if (dg <= problem->goal_radius && pb_engine_visible(engine, node_q(&f, x), problem->goal)) {
                const int goal_owner = owner(arms, n_arms, f.label[f.goal]);
                if ((st = merge(&f, f.goal, x)) != PB_OK)
                    break;
                if (goal_owner > 0 && (st = restart(&f, arms, goal_owner)) != PB_OK)
                    break;
            }
        }
        if (f.label[f.goal] == 0 && f.cost[f.goal] < best - 1e-9) {
            best = f.cost[f.goal];
            pb_path_clear(&result->path);
            for (uint32_t v = f.goal; v != NONE; v = f.parent[v])
                if ((st = pb_path_append(&result->path, node_q(&f, v))) != PB_OK)
                    goto done;
            pb_path_reverse(&result->path);
            pb_solve_report_solution(ctx, result, best, &result->path);
        }
    }

done:
    if (st == PB_OK && f.goal != NONE && f.label[f.goal] == 0) {
        pb_path_clear(&result->path);
        for (uint32_t v = f.goal; v != NONE && st == PB_OK; v = f.parent[v])
            st = pb_path_append(&result->path, node_q(&f, v));
        pb_path_reverse(&result->path);
        result->outcome = PB_OUTCOME_EXACT;
    } else if (st == PB_OK && ctx->stop->approximate && f.n > 0) {
        uint32_t closest = 0;
        double closest_d = INFINITY;
        for (uint32_t i = 0; i < f.n; i++)
            if (f.label[i] == 0) {
                const double dd = pb_engine_distance(engine, node_q(&f, i), problem->goal);
                if (dd < closest_d) {
                    closest_d = dd;
                    closest = i;
                }
            }
        pb_path_clear(&result->path);
        for (uint32_t v = closest; v != NONE && st == PB_OK; v = f.parent[v])
            st = pb_path_append(&result->path, node_q(&f, v));
        pb_path_reverse(&result->path);
    }
    result->iterations = iterations;
    result->nodes = f.n;
    pb_result_set_extra(result, "rewirings", (double)f.n_rewires);
    pb_result_set_extra(result, "merges", (double)f.n_merges);
    pb_result_set_extra(result, "restarts", (double)f.n_restarts);
    free(f.q);
    free(f.cost);
    free(f.parent);
    free(f.first_child);
    free(f.next_sibling);
    free(f.label);
    free(f.stack);
    free(f.list);
    pb_nn_destroy(f.nn);
    pb_nn_destroy(f.rooted_nn);
    return st;
}

static const char *const rrdt_aliases[] = {"rrdtstar", "rrdt_star", NULL};

const pb_planner_impl pb_rrdt_impl = {
    .name = "rrdt",
    .aliases = rrdt_aliases,
    .summary = "RRdT* (Lai, Ramos & Francis 2019): disjointed local trees with bandit random-walk samplers, "
               "merged into an RRT*-rewired rooted tree, anytime",
    .params = rrdt_param_defs,
    .n_params = sizeof rrdt_param_defs / sizeof rrdt_param_defs[0],
    .params_size = sizeof(rrdt_params),
    .anytime = true,
    .solve = rrdt_solve,
};
