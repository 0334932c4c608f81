/* PRM* (Karaman & Frazzoli 2011): an anytime probabilistic roadmap, fully headless.
 *
 * The start and the goal are the first two vertices. Each iteration draws a uniform sample;
 * a feasible one becomes a vertex joined by a checked (visible) edge to each of its
 * k = ceil(k_factor * e (1 + 1/d) ln n) nearest vertices, or, with use_radius, to every vertex
 * within k_factor * gamma_PRM* (ln n / n)^(1/d) (roadmap.h documents gamma). Union-find tracks
 * the components, so A* (heuristic: the metric distance to the goal) only runs once the
 * start's and the goal's components have merged: at that moment, and then whenever the roadmap
 * has grown by an eighth since the last search (a new shortest path needs new vertices), and
 * once more when the budget ends. Every improvement goes to the cost trace.
 *
 * Observer: PB_EVENT_NODE_ADDED with tree 0 for each vertex (parent UINT32_MAX) and for each
 * edge (node = the new vertex, parent = the other endpoint). */
#include "planbench/impl/planner_impl.h"
#include "planners/roadmap.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* Join vertex v to its candidates ids[0..n) with checked edges. */
static pb_status connect_vertex(pb_solve_ctx *ctx, pb_roadmap *rm, uint32_t v, const uint32_t *ids, size_t n)
{
    const double *q = pb_roadmap_q(rm, v);
    for (size_t i = 0; i < n; i++) {
        const uint32_t u = ids[i];
        if (u == v || !pb_engine_visible(ctx->engine, pb_roadmap_q(rm, u), q))
            continue;
        if (pb_roadmap_add_edge(rm, v, u, pb_engine_distance(ctx->engine, q, pb_roadmap_q(rm, u)),
                                PB_RM_VALID) == PB_RM_NONE)
            return PB_ERR_NOMEM;
        pb_roadmap_emit(ctx, rm, v, u);
    }
    return PB_OK;
}

/* Search when start and goal share a component; report an improvement. */
static pb_status search(pb_solve_ctx *ctx, pb_roadmap *rm, pb_result *result, double *best)
{
    if (pb_roadmap_component(rm, 0) != pb_roadmap_component(rm, 1))
        return PB_OK;
    double cost;
    pb_status st;
    if (!pb_roadmap_astar(rm, 0, 1, &cost, &st))
        return st;
    if (cost < *best) {
        *best = cost;
        st = pb_roadmap_path(rm, 1, &result->path);
        if (st != PB_OK)
            return st;
        pb_solve_report_solution(ctx, result, cost, &result->path);
    }
    return PB_OK;
}

/* The search schedule shared by both loops: search when the start and the goal have just
 * joined, then whenever the roadmap has grown by an eighth. */
typedef struct prm_schedule {
    uint32_t next_search;   /* vertex count at which to search again once connected */
    uint32_t last_searched; /* vertex count at the last search */
    double search_s;        /* how long it took */
} prm_schedule;

static pb_status after_vertex(pb_solve_ctx *ctx, pb_roadmap *rm, pb_result *result, double *best,
                              prm_schedule *sc)
{
    const bool first = *best == INFINITY;
    if ((first || rm->n >= sc->next_search) && pb_roadmap_component(rm, 0) == pb_roadmap_component(rm, 1)) {
        const double t0 = pb_clock_seconds();
        pb_status st = search(ctx, rm, result, best);
        if (st != PB_OK)
            return st;
        sc->search_s = pb_clock_seconds() - t0;
        sc->last_searched = rm->n;
        sc->next_search = rm->n + (rm->n / 8 > 64 ? rm->n / 8 : 64);
    }
    return PB_OK;
}

/* PB_ROADMAP_BATCH iterations' feasible samples at once: drawn in the order the one-at-a-time loop
 * draws them, their candidates computed together (pb_roadmap_near_batch gives each exactly
 * the candidates it would have had), then added and connected in order, with the same stop
 * checks between vertices; samples left when the planner stops are dropped, and the
 * iteration count is that of the last one used. So the roadmap and the result are those of
 * the one-at-a-time loop. Sets *stop when the planner must stop. */
static pb_status batch_step(pb_solve_ctx *ctx, const pb_roadmap_params *params, pb_roadmap *rm,
                            pb_roadmap_batch *batch, double *pending, pb_result *result, double *best,
                            prm_schedule *sc, uint64_t *iterations, bool *stop)
{
    const size_t d = (size_t)rm->dim;
    uint64_t drawn_at[PB_ROADMAP_BATCH];
    const size_t n = pb_roadmap_draw_batch(ctx, rm, true, *best < INFINITY, pending, drawn_at, iterations);
    if (n == 0)
        return PB_OK;
    pb_status st = pb_roadmap_near_batch(rm, pending, n, params->k_factor, batch);
    if (st != PB_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        /* between vertices: a solution, the clock or a cancel (counts were checked above) */
        if (i > 0 && pb_solve_should_stop(ctx, 0, 0, *best < INFINITY)) {
            *iterations = drawn_at[i - 1];
            *stop = true;
            return PB_OK;
        }
        const uint32_t v = pb_roadmap_add_vertex(rm, pending + i * d);
        if (v == PB_RM_NONE)
            return PB_ERR_NOMEM;
        pb_roadmap_emit(ctx, rm, v, PB_RM_NONE);
        if ((st = connect_vertex(ctx, rm, v, batch->ids + i * batch->k,
                                 pb_roadmap_batch_live(rm, batch, i))) != PB_OK ||
            (st = after_vertex(ctx, rm, result, best, sc)) != PB_OK)
            return st;
    }
    return PB_OK;
}

static pb_status prm_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const pb_roadmap_params *params = params_ptr;
    pb_engine *engine = ctx->engine;
    pb_roadmap rm;
    pb_nn_hits near = {0};
    pb_roadmap_batch batch = {0};
    double *pending = NULL; /* PB_ROADMAP_BATCH samples, when batching */
    pb_status st = pb_roadmap_init(&rm, engine);
    if (st != PB_OK)
        return st;

    double best = INFINITY;
    uint64_t iterations = 0;
    double sample[PB_MAX_DIM];
    /* vertex 0: the start, vertex 1: the goal (connected to the start like any new vertex) */
    if (pb_roadmap_add_vertex(&rm, ctx->problem->start) == PB_RM_NONE) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    pb_roadmap_emit(ctx, &rm, 0, PB_RM_NONE);
    if ((st = pb_roadmap_near(&rm, ctx->problem->goal, params->use_radius, params->k_factor, &near)) != PB_OK)
        goto done;
    if (pb_roadmap_add_vertex(&rm, ctx->problem->goal) == PB_RM_NONE) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    pb_roadmap_emit(ctx, &rm, 1, PB_RM_NONE);
    if ((st = connect_vertex(ctx, &rm, 1, near.ids, near.n)) != PB_OK ||
        (st = search(ctx, &rm, result, &best)) != PB_OK)
        goto done;

    prm_schedule sc = {0, 0, 0.0};
    /* a time budget keeps room for the last search (pb_roadmap_time_for_last_search) */
    while (!pb_solve_should_stop(ctx, iterations, rm.n, best < INFINITY) &&
           !(best < INFINITY && pb_roadmap_time_for_last_search(ctx, sc.search_s, sc.last_searched, rm.n))) {
        if (!params->use_radius && pb_roadmap_batch_pays(&rm, PB_ROADMAP_BATCH, params->batch_knn)) {
            if (!pending && !(pending = malloc(PB_ROADMAP_BATCH * (size_t)rm.dim * sizeof *pending))) {
                st = PB_ERR_NOMEM;
                break;
            }
            bool stop = false;
            if ((st = batch_step(ctx, params, &rm, &batch, pending, result, &best, &sc, &iterations,
                                 &stop)) != PB_OK ||
                stop)
                break;
            continue;
        }
        iterations++;
        pb_engine_sample(engine, &ctx->rng, sample);
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }
        if (!pb_engine_feasible(engine, sample))
            continue;
        if ((st = pb_roadmap_near(&rm, sample, params->use_radius, params->k_factor, &near)) != PB_OK)
            break;
        const uint32_t v = pb_roadmap_add_vertex(&rm, sample);
        if (v == PB_RM_NONE) {
            st = PB_ERR_NOMEM;
            break;
        }
        pb_roadmap_emit(ctx, &rm, v, PB_RM_NONE);
        if ((st = connect_vertex(ctx, &rm, v, near.ids, near.n)) != PB_OK ||
            (st = after_vertex(ctx, &rm, result, &best, &sc)) != PB_OK)
            break;
    }
    /* a last search over everything the budget bought */
    if (st == PB_OK && best < INFINITY && rm.n > sc.last_searched)
        st = search(ctx, &rm, result, &best);

done:
    result->iterations = iterations;
    result->nodes = rm.n;
    if (best < INFINITY)
        result->outcome = PB_OUTCOME_EXACT;
    pb_result_set_extra(result, "edges", (double)rm.n_edges);
    pb_result_set_extra(result, "memory_bytes", (double)pb_roadmap_memory(&rm));
    pb_nn_hits_finish(&near);
    pb_roadmap_batch_finish(&batch);
    free(pending);
    pb_roadmap_finish(&rm);
    return st;
}

static const char *const prm_aliases[] = {"prmstar", "prm_star", NULL};

const pb_planner_impl pb_prm_impl = {
    .name = "prm",
    .aliases = prm_aliases,
    .summary = "PRM* (Karaman & Frazzoli 2011): anytime roadmap, k-nearest or radius, A* over checked edges",
    .params = pb_roadmap_param_defs,
    .n_params = PB_ROADMAP_N_PARAMS,
    .params_size = sizeof(pb_roadmap_params),
    .anytime = true,
    .solve = prm_solve,
};
