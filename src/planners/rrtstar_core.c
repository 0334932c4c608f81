/* RRT* (Karaman & Frazzoli 2011) and, with `informed`, Informed RRT* (Gammell et al. 2014).
 *
 * Each iteration: draw a sample (the goal with probability goal_bias; in the informed set
 * once a solution exists, informed only), steer from the nearest node by at most step_size,
 * and if that edge is free:
 *   - neighbours: the k nearest, k = ceil(rewire_factor * e * (1 + 1/d) * log(n + 1)), or
 *     (use_k_nearest false) every node within r = min(step_size, gamma * (log(n+1) / (n+1))^(1/d)),
 *     gamma = rewire_factor * 2 * (1 + 1/d)^(1/d) * (mu(X_free) / zeta_d)^(1/d), zeta_d the unit
 *     d-ball's volume and mu(X_free) the bounds' volume (in metric units) times the fraction of
 *     drawn samples that were feasible (in radius mode every uniform sample is checked for
 *     that; in k-nearest mode nothing is). n is the number of nodes in the tree.
 *   - choose parent: neighbours sorted by cost-to-come + edge length, checked with `visible`
 *     lazily in that order; the first free one that beats the nearest node is the parent.
 *   - rewire: every neighbour whose cost-to-come improves through the new node gets it as
 *     parent (edge checked new -> neighbour, the direction a path runs); the cost change is
 *     propagated to its descendants through child lists (cost(child) = cost(parent) + edge).
 * Goal: a node within goal_radius that sees the goal is a candidate; the solution is the goal
 * reached through the candidate minimising cost(node) + d(node, goal), re-evaluated whenever
 * costs fall, and every improvement goes to the cost trace.
 *
 * Informed: after a solution of cost c, samples come from the informed set (informed.c), and
 * whenever c has fallen by prune_threshold since the last prune, nodes with cost-to-come +
 * d(node, goal) > c are removed (a node's descendants have an f-value at least its own by the
 * triangle inequality, so the removed set is whole subtrees). The kept nodes are renumbered
 * (parents before children) and the nearest-neighbour structure rebuilt; observers get
 * PB_EVENT_EDGE_REMOVED for each removed node under its old id, and node ids after a prune
 * are the new ones. */
#include "planners/rrtstar_core.h"
#include "planners/informed.h"
#include "core/tree.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct star {
    bool symmetric; /* the engine's edges run both ways (not Dubins) */
    pb_solve_ctx *ctx;
    pb_engine *engine;
    const pb_rrtstar_params *params;
    bool informed;
    int dim;
    double step;
    pb_tree tree;

    /* per node, beside the tree's arrays (capacity `node_capacity`) */
    double *edge; /* length of the edge from the parent */
    uint32_t *first_child, *next_sibling;
    uint32_t node_capacity;

    /* neighbour scratch (capacity `nb_capacity`) */
    uint32_t *nb_ids;
    double *nb_dists;
    double *through; /* cost through each neighbour */
    uint32_t *order; /* neighbours sorted by `through` */
    int8_t *blocked; /* 1: the edge neighbour -> new was found blocked */
    size_t nb_capacity;
    pb_nn_hits hits;

    uint32_t *stack;
    size_t stack_capacity;

    /* goal candidates */
    uint32_t *cand;
    double *cand_dist; /* d(candidate, goal); 0 when the node is the goal */
    size_t n_cand, cand_capacity;
    uint32_t best;
    double best_cost;

    /* radius mode: the free-space estimate */
    uint64_t n_samples, n_free_samples;
    double bounds_measure; /* volume of the bounds in metric units */
    double k_rrt;          /* rewire_factor * e * (1 + 1/d) */

    /* informed pruning scratch */
    uint32_t *remap, *kept;
    double *tmp_q, *tmp_cost, *tmp_edge;
    uint32_t *tmp_parent;
    uint32_t prune_capacity;
    double last_prune_cost;

    uint32_t closest;
    double closest_dist;
    uint64_t rewires, pruned;
    pb_path scratch_path;
    pb_status status;
} star;

/* Resize the array `field` to `count` elements; false (the array unchanged) when memory ran
 * out. Callers double capacities, so growth is amortised, never per node. Needs a local
 * `void *grown`. */
#define RESIZE(field, count)                                                                                 \
    ((grown = realloc((field), (count) * sizeof *(field))) != NULL ? ((field) = grown, true) : false)

static size_t next_capacity(size_t capacity, size_t need)
{
    size_t cap = capacity ? capacity : 64;
    while (cap < need)
        cap *= 2;
    return cap;
}

static bool reserve_nodes(star *s, uint32_t need)
{
    if (need <= s->node_capacity)
        return true;
    void *grown;
    const size_t cap = next_capacity(s->node_capacity, need);
    if (!RESIZE(s->edge, cap) || !RESIZE(s->first_child, cap) || !RESIZE(s->next_sibling, cap))
        return false;
    s->node_capacity = (uint32_t)cap;
    return true;
}

static bool reserve_neighbours(star *s, size_t need)
{
    if (need <= s->nb_capacity)
        return true;
    void *grown;
    const size_t cap = next_capacity(s->nb_capacity, need);
    if (!RESIZE(s->nb_ids, cap) || !RESIZE(s->nb_dists, cap) || !RESIZE(s->through, cap) ||
        !RESIZE(s->order, cap) || !RESIZE(s->blocked, cap))
        return false;
    s->nb_capacity = cap;
    return true;
}

static bool reserve_stack(star *s, size_t need)
{
    if (need <= s->stack_capacity)
        return true;
    void *grown;
    const size_t cap = next_capacity(s->stack_capacity, need);
    if (!RESIZE(s->stack, cap))
        return false;
    s->stack_capacity = cap;
    return true;
}

static void star_finish(star *s)
{
    pb_tree_finish(&s->tree);
    free(s->edge);
    free(s->first_child);
    free(s->next_sibling);
    free(s->nb_ids);
    free(s->nb_dists);
    free(s->through);
    free(s->order);
    free(s->blocked);
    pb_nn_hits_finish(&s->hits);
    free(s->stack);
    free(s->cand);
    free(s->cand_dist);
    free(s->remap);
    free(s->kept);
    free(s->tmp_q);
    free(s->tmp_cost);
    free(s->tmp_edge);
    free(s->tmp_parent);
    pb_path_finish(&s->scratch_path);
}

static void emit_node(const star *s, uint32_t node)
{
    const pb_solve_ctx *ctx = s->ctx;
    if (!ctx->observer)
        return;
    const uint32_t parent = s->tree.parent[node];
    pb_event ev = {
        .type = PB_EVENT_NODE_ADDED,
        .node = node,
        .parent = parent,
        .q = pb_tree_q(&s->tree, node),
        .parent_q = parent == PB_NO_NODE ? NULL : pb_tree_q(&s->tree, parent),
    };
    ctx->observer(&ev, ctx->observer_payload);
}

static void emit_edge_removed(const star *s, uint32_t node, uint32_t parent)
{
    const pb_solve_ctx *ctx = s->ctx;
    if (!ctx->observer || parent == PB_NO_NODE)
        return;
    pb_event ev = {
        .type = PB_EVENT_EDGE_REMOVED,
        .node = node,
        .parent = parent,
        .q = pb_tree_q(&s->tree, node),
        .parent_q = pb_tree_q(&s->tree, parent),
    };
    ctx->observer(&ev, ctx->observer_payload);
}

static void link_child(star *s, uint32_t parent, uint32_t child)
{
    s->next_sibling[child] = s->first_child[parent];
    s->first_child[parent] = child;
}

static void unlink_child(star *s, uint32_t parent, uint32_t child)
{
    uint32_t *link = &s->first_child[parent];
    while (*link != child)
        link = &s->next_sibling[*link];
    *link = s->next_sibling[child];
}

/* Add a node below `parent` at edge length `edge`; PB_NO_NODE when memory ran out. */
static uint32_t add_node(star *s, const double *q, uint32_t parent, double edge)
{
    if (!reserve_nodes(s, s->tree.n + 1))
        return PB_NO_NODE;
    const double cost = parent == PB_NO_NODE ? 0.0 : s->tree.cost[parent] + edge;
    const uint32_t node = pb_tree_add(&s->tree, q, parent, cost);
    if (node == PB_NO_NODE)
        return PB_NO_NODE;
    s->edge[node] = edge;
    s->first_child[node] = PB_NO_NODE;
    s->next_sibling[node] = PB_NO_NODE;
    if (parent != PB_NO_NODE)
        link_child(s, parent, node);
    return node;
}

/* Recompute the cost-to-come of every descendant of `root` from its (new) cost. */
static bool propagate(star *s, uint32_t root)
{
    size_t top = 0;
    if (!reserve_stack(s, 1))
        return false;
    s->stack[top++] = root;
    while (top > 0) {
        const uint32_t x = s->stack[--top];
        for (uint32_t c = s->first_child[x]; c != PB_NO_NODE; c = s->next_sibling[c]) {
            s->tree.cost[c] = s->tree.cost[x] + s->edge[c];
            if (!reserve_stack(s, top + 1))
                return false;
            s->stack[top++] = c;
        }
    }
    return true;
}

/* The neighbours of q in the tree, into nb_ids/nb_dists; returns how many, or SIZE_MAX when
 * memory ran out. */
static size_t find_neighbours(star *s, const double *q)
{
    const double n = (double)s->tree.n;
    const double card = n + 1.0;
    if (s->params->use_k_nearest) {
        size_t k = (size_t)ceil(s->k_rrt * log(card));
        if (k > s->tree.n)
            k = s->tree.n;
        if (!reserve_neighbours(s, k))
            return SIZE_MAX;
        return pb_nn_knearest(s->tree.nn, q, k, s->nb_ids, s->nb_dists);
    }
    const double d = (double)s->dim;
    double measure = s->bounds_measure;
    if (s->n_samples > 0)
        measure *= (double)s->n_free_samples / (double)s->n_samples;
    const double gamma = s->params->rewire_factor * 2.0 * pow(1.0 + 1.0 / d, 1.0 / d) *
                         pow(measure / pb_unit_ball_volume(s->dim), 1.0 / d);
    double radius = gamma * pow(log(card) / card, 1.0 / d);
    if (radius > s->step)
        radius = s->step;
    if (pb_nn_radius(s->tree.nn, q, radius, &s->hits) != PB_OK || !reserve_neighbours(s, s->hits.n))
        return SIZE_MAX;
    if (s->hits.n > 0) {
        memcpy(s->nb_ids, s->hits.ids, s->hits.n * sizeof(uint32_t));
        memcpy(s->nb_dists, s->hits.dists, s->hits.n * sizeof(double));
    }
    return s->hits.n;
}

/* Sort order[0..n) by through[] ascending (ties by neighbour rank): insertion sort, the lists
 * are short (k grows with log n). */
static void sort_by_through(star *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s->order[i] = (uint32_t)i;
    for (size_t i = 1; i < n; i++) {
        const uint32_t o = s->order[i];
        const double t = s->through[o];
        size_t j = i;
        while (j > 0 && s->through[s->order[j - 1]] > t) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = o;
    }
}

static bool add_candidate(star *s, uint32_t node, double goal_dist)
{
    if (s->n_cand == s->cand_capacity) {
        void *grown;
        const size_t cap = next_capacity(s->cand_capacity, s->n_cand + 1);
        if (!RESIZE(s->cand, cap) || !RESIZE(s->cand_dist, cap))
            return false;
        s->cand_capacity = cap;
    }
    s->cand[s->n_cand] = node;
    s->cand_dist[s->n_cand] = goal_dist;
    s->n_cand++;
    return true;
}

/* Re-evaluate the best candidate; report an improvement. */
static void update_best(star *s, pb_result *result)
{
    uint32_t best = s->best;
    double best_cost = s->best_cost;
    for (size_t i = 0; i < s->n_cand; i++) {
        const double c = s->tree.cost[s->cand[i]] + s->cand_dist[i];
        if (c < best_cost) {
            best_cost = c;
            best = s->cand[i];
        }
    }
    if (!(best_cost < s->best_cost))
        return;
    s->best = best;
    s->best_cost = best_cost;
    const pb_path *path = NULL;
    if (s->ctx->observer) {
        pb_path_clear(&s->scratch_path);
        if (pb_tree_path_to(&s->tree, best, &s->scratch_path) == PB_OK &&
            memcmp(pb_path_at(&s->scratch_path, s->scratch_path.n - 1), s->ctx->problem->goal,
                   (size_t)s->dim * sizeof(double)) != 0 &&
            pb_path_append(&s->scratch_path, s->ctx->problem->goal) == PB_OK)
            path = &s->scratch_path;
    }
    pb_solve_report_solution(s->ctx, result, best_cost, path);
}

static bool reserve_prune(star *s, uint32_t need)
{
    if (need <= s->prune_capacity)
        return true;
    void *grown;
    const size_t cap = next_capacity(s->prune_capacity, need);
    if (!RESIZE(s->remap, cap) || !RESIZE(s->kept, cap) || !RESIZE(s->tmp_q, cap * (size_t)s->dim) ||
        !RESIZE(s->tmp_cost, cap) || !RESIZE(s->tmp_edge, cap) || !RESIZE(s->tmp_parent, cap))
        return false;
    s->prune_capacity = (uint32_t)cap;
    return true;
}

/* Remove every node whose f-value exceeds the best cost (see the top of the file). */
static bool prune(star *s)
{
    pb_tree *t = &s->tree;
    const uint32_t n = t->n;
    const double *goal = s->ctx->problem->goal;
    /* The best path's own nodes have f <= best_cost exactly in real arithmetic; the margin
     * absorbs rounding so they are never removed. */
    const double limit = s->best_cost * (1.0 + 1e-9);
    if (!reserve_prune(s, n) || !reserve_stack(s, 1))
        return false;
    for (uint32_t i = 0; i < n; i++)
        s->remap[i] = PB_NO_NODE;
    uint32_t count = 0;
    size_t top = 0;
    s->stack[top++] = 0;
    while (top > 0) {
        const uint32_t x = s->stack[--top];
        s->remap[x] = count;
        s->kept[count++] = x;
        for (uint32_t c = s->first_child[x]; c != PB_NO_NODE; c = s->next_sibling[c]) {
            if (t->cost[c] + pb_engine_distance(s->engine, pb_tree_q(t, c), goal) > limit)
                continue;
            if (!reserve_stack(s, top + 1))
                return false;
            s->stack[top++] = c;
        }
    }
    if (count == n)
        return true;
    if (s->ctx->observer)
        for (uint32_t i = 0; i < n; i++)
            if (s->remap[i] == PB_NO_NODE)
                emit_edge_removed(s, i, t->parent[i]);

    const size_t d = (size_t)s->dim;
    for (uint32_t j = 0; j < count; j++) {
        const uint32_t old = s->kept[j];
        memcpy(s->tmp_q + j * d, pb_tree_q(t, old), d * sizeof(double));
        s->tmp_cost[j] = t->cost[old];
        s->tmp_edge[j] = s->edge[old];
        s->tmp_parent[j] = t->parent[old] == PB_NO_NODE ? PB_NO_NODE : s->remap[t->parent[old]];
    }
    memcpy(t->q, s->tmp_q, (size_t)count * d * sizeof(double));
    memcpy(t->cost, s->tmp_cost, (size_t)count * sizeof(double));
    memcpy(s->edge, s->tmp_edge, (size_t)count * sizeof(double));
    memcpy(t->parent, s->tmp_parent, (size_t)count * sizeof(uint32_t));
    t->n = count;
    pb_nn_clear(t->nn);
    for (uint32_t j = 0; j < count; j++) {
        if (pb_nn_add(t->nn, j, pb_tree_q(t, j)) != PB_OK)
            return false;
        s->first_child[j] = PB_NO_NODE;
        s->next_sibling[j] = PB_NO_NODE;
    }
    for (uint32_t j = 1; j < count; j++)
        link_child(s, t->parent[j], j);

    size_t kept_cand = 0;
    for (size_t i = 0; i < s->n_cand; i++) {
        if (s->remap[s->cand[i]] == PB_NO_NODE)
            continue;
        s->cand[kept_cand] = s->remap[s->cand[i]];
        s->cand_dist[kept_cand] = s->cand_dist[i];
        kept_cand++;
    }
    s->n_cand = kept_cand;
    s->best = s->remap[s->best];
    s->closest = s->remap[s->closest] == PB_NO_NODE ? 0 : s->remap[s->closest];
    s->pruned += n - count;
    assert(s->best != PB_NO_NODE); /* its f-value is the best cost itself */
    return true;
}

/* One iteration after the sample: extend, choose the parent, rewire, update the goal. */
static void iterate(star *s, const double *sample, pb_result *result)
{
    pb_tree *t = &s->tree;
    const pb_problem *problem = s->ctx->problem;
    double new_q[PB_MAX_DIM];
    double d;
    const uint32_t near = pb_tree_nearest(t, sample, &d);
    if (!(d > 0.0))
        return; /* the sample is a node already */
    const double *near_q = pb_tree_q(t, near);
    const double *target = sample;
    if (d > s->step) {
        pb_engine_interpolate(s->engine, near_q, sample, s->step / d, new_q);
        target = new_q;
        d = pb_engine_distance(s->engine, near_q, new_q);
    }
    if (!pb_engine_visible(s->engine, near_q, target))
        return;

    const size_t n_nb = find_neighbours(s, target);
    if (n_nb == SIZE_MAX) {
        s->status = PB_ERR_NOMEM;
        return;
    }
    /* Choose the parent: the nearest is known free; check cheaper neighbours in order. */
    uint32_t parent = near;
    double parent_edge = d, cost = t->cost[near] + d;
    for (size_t i = 0; i < n_nb; i++) {
        s->through[i] = t->cost[s->nb_ids[i]] + s->nb_dists[i];
        s->blocked[i] = 0;
    }
    sort_by_through(s, n_nb);
    for (size_t r = 0; r < n_nb; r++) {
        const uint32_t i = s->order[r];
        if (!(s->through[i] < cost))
            break;
        const uint32_t nb = s->nb_ids[i];
        if (nb == near)
            continue;
        if (pb_engine_visible(s->engine, pb_tree_q(t, nb), target)) {
            parent = nb;
            parent_edge = s->nb_dists[i];
            cost = s->through[i];
            break;
        }
        s->blocked[i] = 1;
    }

    const uint32_t node = add_node(s, target, parent, parent_edge);
    if (node == PB_NO_NODE) {
        s->status = PB_ERR_NOMEM;
        return;
    }
    emit_node(s, node);
    const double *node_q = pb_tree_q(t, node);

    /* Rewire. A neighbour found blocked towards the new node is skipped (skipping is always
     * safe); the others are checked in the direction a path would run, new -> neighbour. */
    bool improved = false;
    for (size_t i = 0; i < n_nb; i++) {
        const uint32_t nb = s->nb_ids[i];
        if (nb == parent || s->blocked[i])
            continue;
        /* the neighbour's distance was measured towards the new node: one-way edges (Dubins)
         * are measured again the way the rewired edge runs */
        const double edge = s->symmetric ? s->nb_dists[i] : pb_engine_distance(s->engine, node_q, pb_tree_q(t, nb));
        const double c = t->cost[node] + edge;
        if (!(c < t->cost[nb]))
            continue;
        if (!pb_engine_visible(s->engine, node_q, pb_tree_q(t, nb)))
            continue;
        const uint32_t old_parent = t->parent[nb];
        emit_edge_removed(s, nb, old_parent);
        unlink_child(s, old_parent, nb);
        t->parent[nb] = node;
        s->edge[nb] = edge;
        link_child(s, node, nb);
        t->cost[nb] = c;
        if (!propagate(s, nb)) {
            s->status = PB_ERR_NOMEM;
            return;
        }
        emit_node(s, nb);
        s->rewires++;
        improved = true;
    }

    /* The goal. */
    const double goal_dist = pb_engine_distance(s->engine, node_q, problem->goal);
    if (goal_dist < s->closest_dist) {
        s->closest_dist = goal_dist;
        s->closest = node;
    }
    if (goal_dist <= problem->goal_radius) {
        const bool at_goal = memcmp(node_q, problem->goal, (size_t)s->dim * sizeof(double)) == 0;
        if (at_goal || pb_engine_visible(s->engine, node_q, problem->goal)) {
            if (!add_candidate(s, node, at_goal ? 0.0 : goal_dist)) {
                s->status = PB_ERR_NOMEM;
                return;
            }
            improved = true;
        }
    }
    if (improved && s->n_cand > 0)
        update_best(s, result);
}

pb_status pb_rrtstar_solve(const pb_rrtstar_params *params, bool informed, pb_solve_ctx *ctx,
                           pb_result *result)
{
    pb_engine *engine = ctx->engine;
    const pb_problem *problem = ctx->problem;
    const int dim = ctx->dim;
    star s = {
        .ctx = ctx,
        .engine = engine,
        .symmetric = pb_engine_is_symmetric(engine),
        .params = params,
        .informed = informed,
        .dim = dim,
        .step = pb_solve_step_size(ctx, params->step_size),
        .best = PB_NO_NODE,
        .best_cost = INFINITY,
        .last_prune_cost = INFINITY,
        .status = PB_OK,
    };
    pb_path_init(&s.scratch_path, dim);
    s.k_rrt = params->rewire_factor * M_E * (1.0 + 1.0 / dim);
    double weights[PB_MAX_DIM], periods[PB_MAX_DIM];
    const bool known_metric = pb_engine_metric(engine, weights, periods);
    s.bounds_measure = 1.0;
    for (int i = 0; i < dim; i++)
        s.bounds_measure *=
            (pb_engine_upper(engine)[i] - pb_engine_lower(engine)[i]) * (known_metric ? weights[i] : 1.0);

    pb_status st = pb_tree_init(&s.tree, engine);
    if (st != PB_OK) {
        star_finish(&s);
        return st;
    }
    if (add_node(&s, problem->start, PB_NO_NODE, 0.0) == PB_NO_NODE) {
        star_finish(&s);
        return PB_ERR_NOMEM;
    }
    emit_node(&s, 0);
    s.closest_dist = pb_engine_distance(engine, problem->start, problem->goal);
    if (s.closest_dist <= problem->goal_radius && pb_engine_visible(engine, problem->start, problem->goal)) {
        if (!add_candidate(&s, 0, s.closest_dist))
            s.status = PB_ERR_NOMEM;
        else
            update_best(&s, result);
    }

    pb_informed_sampler sampler;
    if (informed)
        pb_informed_init(&sampler, engine, problem->start, problem->goal);

    double sample[PB_MAX_DIM];
    uint64_t iterations = 0;
    while (s.status == PB_OK && !pb_solve_should_stop(ctx, iterations, s.tree.n, s.best != PB_NO_NODE)) {
        iterations++;
        if (pb_rng_uniform(&ctx->rng) < params->goal_bias) {
            memcpy(sample, problem->goal, (size_t)dim * sizeof(double));
        } else {
            if (informed && s.best != PB_NO_NODE)
                pb_informed_sample(&sampler, engine, &ctx->rng, s.best_cost, sample);
            else
                pb_engine_sample(engine, &ctx->rng, sample);
            if (!params->use_k_nearest) {
                s.n_samples++;
                s.n_free_samples += pb_engine_feasible(engine, sample);
            }
        }
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }
        iterate(&s, sample, result);
        if (informed && s.status == PB_OK && s.best != PB_NO_NODE &&
            s.best_cost < s.last_prune_cost * (1.0 - params->prune_threshold)) {
            if (!prune(&s))
                s.status = PB_ERR_NOMEM;
            s.last_prune_cost = s.best_cost;
        }
    }

    result->iterations = iterations;
    st = s.status;
    if (st == PB_OK && s.best != PB_NO_NODE) {
        st = pb_tree_path_to(&s.tree, s.best, &result->path);
        if (st == PB_OK && memcmp(pb_path_at(&result->path, result->path.n - 1), problem->goal,
                                  (size_t)dim * sizeof(double)) != 0)
            st = pb_path_append(&result->path, problem->goal);
        if (st == PB_OK)
            result->outcome = PB_OUTCOME_EXACT;
    } else if (st == PB_OK && ctx->stop->approximate) {
        st = pb_tree_path_to(&s.tree, s.closest, &result->path);
    }
    result->nodes = s.tree.n;
    pb_result_set_extra(result, "rewires", (double)s.rewires);
    if (informed)
        pb_result_set_extra(result, "pruned", (double)s.pruned);
    pb_result_set_extra(result, "memory_bytes",
                        (double)(pb_tree_memory(&s.tree) +
                                 (size_t)s.node_capacity * (sizeof(double) + 2 * sizeof(uint32_t))));
    star_finish(&s);
    return st;
}
