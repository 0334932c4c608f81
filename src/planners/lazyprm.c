/* Lazy PRM (Bohlin & Kavraki 2000) on the PRM* roadmap (roadmap.h), anytime.
 *
 * Vertices are added without a feasibility check and joined to their PRM* neighbours
 * (k-nearest, or within the radius with use_radius) by unchecked edges. Once the start's and
 * the goal's components meet, A* finds the shortest candidate path; only then are its
 * vertices checked (feasible) and its edges (visible), in path order. An infeasible vertex is
 * removed with its edges, a blocked edge is removed, and the search repeats until a candidate
 * is entirely valid (a solution) or the start and goal are cut apart (more samples needed).
 * Checked edges keep their verdict, so later searches only pay for new edges. The roadmap is
 * searched again whenever it has grown by an eighth, as PRM* does.
 *
 * Observer: PB_EVENT_NODE_ADDED with tree 0 for each vertex (parent UINT32_MAX) and each
 * unchecked edge (node = the new vertex, parent = the other endpoint); PB_EVENT_EDGE_REMOVED
 * (node, parent = the endpoints) when an edge proves blocked. */
#include "planbench/impl/planner_impl.h"
#include "planners/roadmap.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct lazy_state {
    pb_solve_ctx *ctx;
    pb_roadmap rm;
    pb_nn_hits near;
    uint32_t *path_edges; /* half-edges of the candidate path, sized with the vertices */
    uint32_t path_cap;
    double best;
    uint64_t n_invalid_edges;
    uint64_t n_invalid_vertices;
} lazy_state;

static void emit_removed(const pb_solve_ctx *ctx, const pb_roadmap *rm, uint32_t a, uint32_t b)
{
    if (!ctx->observer)
        return;
    pb_event ev = {.type = PB_EVENT_EDGE_REMOVED,
                   .node = a,
                   .parent = b,
                   .q = pb_roadmap_q(rm, a),
                   .parent_q = pb_roadmap_q(rm, b)};
    ctx->observer(&ev, ctx->observer_payload);
}

/* Add a vertex at q joined by unchecked edges to its candidates ids[0..n). */
static pb_status add_vertex_near(lazy_state *s, const double *q, const uint32_t *ids, size_t n, uint32_t *out)
{
    pb_roadmap *rm = &s->rm;
    const uint32_t v = pb_roadmap_add_vertex(rm, q);
    if (v == PB_RM_NONE)
        return PB_ERR_NOMEM;
    pb_roadmap_emit(s->ctx, rm, v, PB_RM_NONE);
    for (size_t i = 0; i < n; i++) {
        const uint32_t u = ids[i];
        if (pb_roadmap_add_edge(rm, v, u, pb_engine_distance(s->ctx->engine, q, pb_roadmap_q(rm, u)),
                                PB_RM_UNCHECKED) == PB_RM_NONE)
            return PB_ERR_NOMEM;
        pb_roadmap_emit(s->ctx, rm, v, u);
    }
    *out = v;
    return PB_OK;
}

/* Add a vertex at q joined by unchecked edges to its candidates. */
static pb_status add_vertex(lazy_state *s, const double *q, const pb_roadmap_params *params, uint32_t *out)
{
    pb_status st = pb_roadmap_near(&s->rm, q, params->use_radius, params->k_factor, &s->near);
    return st == PB_OK ? add_vertex_near(s, q, s->near.ids, s->near.n, out) : st;
}

/* Check the candidate path A* just found: true when all of it is valid. Every unchecked
 * vertex, then every unchecked edge of the candidate is checked (not only up to the first
 * failure): a maze blocks many edges of one candidate, and each search costs more than a
 * check. */
static bool check_candidate(lazy_state *s, size_t n_edges)
{
    pb_roadmap *rm = &s->rm;
    pb_engine *engine = s->ctx->engine;
    bool valid = true;
    for (size_t i = 0; i < n_edges; i++) {
        const uint32_t v = rm->to[s->path_edges[i]];
        if (rm->alive[v] == PB_RM_UNCHECKED) {
            if (pb_engine_feasible(engine, pb_roadmap_q(rm, v))) {
                rm->alive[v] = PB_RM_VALID;
            } else {
                pb_roadmap_kill_vertex(rm, v);
                s->n_invalid_vertices++;
                valid = false;
            }
        }
    }
    if (!valid)
        return false;
    /* path_edges runs from the goal back to the start: check from the start side */
    for (size_t i = n_edges; i-- > 0;) {
        const uint32_t h = s->path_edges[i], e = h / 2;
        if (rm->state[e] != PB_RM_UNCHECKED)
            continue;
        const uint32_t a = rm->to[h ^ 1u], b = rm->to[h];
        if (pb_engine_visible(engine, pb_roadmap_q(rm, a), pb_roadmap_q(rm, b))) {
            rm->state[e] = PB_RM_VALID;
            rm->n_valid_edges++;
        } else {
            rm->state[e] = PB_RM_INVALID;
            s->n_invalid_edges++;
            emit_removed(s->ctx, rm, b, a);
            valid = false;
        }
    }
    return valid;
}

/* Search and repair until a valid path is found or none is left; reports improvements. */
static pb_status search(lazy_state *s, pb_result *result, uint64_t iterations)
{
    pb_roadmap *rm = &s->rm;
    if (s->path_cap < rm->n) {
        uint32_t *p = realloc(s->path_edges, (size_t)rm->cap * sizeof *p);
        if (!p)
            return PB_ERR_NOMEM;
        s->path_edges = p;
        s->path_cap = rm->cap;
    }
    for (;;) {
        double cost;
        pb_status st = PB_OK;
        if (pb_roadmap_component(rm, 0) != pb_roadmap_component(rm, 1))
            return PB_OK;
        /* The repair loop only removes edges and vertices, so exact costs-to-go stay a valid
         * heuristic: computed once, then again only when a search had to expand a quarter of
         * the roadmap (the removals made them too optimistic). On maps/maze.png this took
         * the median time to a first solution from 0.87 to 0.45 s (8 seeds; refreshing at an
         * eighth: 0.53 s, at a half: 0.47 s, never: 0.76 s). */
        if ((!rm->h_valid || rm->n_expanded > rm->n / 4) && (st = pb_roadmap_exact_heuristic(rm, 1)) != PB_OK)
            return st;
        if (!pb_roadmap_astar(rm, 0, 1, &cost, &st))
            return st;
        if (cost >= s->best) /* nothing better in the roadmap yet: no checks spent */
            return PB_OK;
        const size_t n_edges = pb_roadmap_path_edges(rm, 1, s->path_edges);
        if (check_candidate(s, n_edges)) {
            s->best = cost;
            st = pb_roadmap_path(rm, 1, &result->path);
            if (st == PB_OK)
                pb_solve_report_solution(s->ctx, result, cost, &result->path);
            return st;
        }
        /* the budget also bounds a long run of repairs */
        if (pb_solve_should_stop(s->ctx, iterations, rm->n, false))
            return PB_OK;
    }
}

/* When to search: once the start and the goal share a component, before the first solution
 * often (the next candidate may be the one), after it every eighth of growth. */
typedef struct lazy_schedule {
    uint32_t next_search;   /* vertex count at which to search again */
    uint32_t last_searched; /* vertex count at the last search */
    double search_s;        /* how long it took */
} lazy_schedule;

static pb_status after_vertex(lazy_state *s, pb_result *result, uint64_t iterations, lazy_schedule *sc)
{
    pb_roadmap *rm = &s->rm;
    if (rm->n < sc->next_search || pb_roadmap_component(rm, 0) != pb_roadmap_component(rm, 1))
        return PB_OK;
    const double t0 = pb_clock_seconds();
    pb_status st = search(s, result, iterations);
    if (st != PB_OK)
        return st;
    sc->search_s = pb_clock_seconds() - t0;
    sc->last_searched = rm->n;
    const uint32_t gap =
        s->best < INFINITY ? (rm->n / 8 > 64 ? rm->n / 8 : 64) : (rm->n / 32 > 8 ? rm->n / 32 : 8);
    sc->next_search = rm->n + gap;
    return PB_OK;
}

/* PB_ROADMAP_BATCH iterations' samples at once, as prm.c's batch_step: drawn in order, their
 * candidates computed together (exactly those one query each would give), then added in
 * order with the same searches and stop checks between vertices; samples left when the
 * planner stops are dropped and the iteration count is that of the last one used. */
static pb_status batch_step(lazy_state *s, const pb_roadmap_params *params, pb_roadmap_batch *batch,
                            double *pending, pb_result *result, lazy_schedule *sc, uint64_t *iterations,
                            bool *stop)
{
    pb_solve_ctx *ctx = s->ctx;
    const size_t d = (size_t)s->rm.dim;
    uint64_t drawn_at[PB_ROADMAP_BATCH];
    const size_t n =
        pb_roadmap_draw_batch(ctx, &s->rm, false, s->best < INFINITY, pending, drawn_at, iterations);
    pb_status st = pb_roadmap_near_batch(&s->rm, pending, n, params->k_factor, batch);
    if (st != PB_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && pb_solve_should_stop(ctx, 0, 0, s->best < INFINITY)) {
            *iterations = drawn_at[i - 1];
            *stop = true;
            return PB_OK;
        }
        uint32_t v;
        if ((st = add_vertex_near(s, pending + i * d, batch->ids + i * batch->k,
                                  pb_roadmap_batch_live(&s->rm, batch, i), &v)) != PB_OK ||
            (st = after_vertex(s, result, drawn_at[i], sc)) != PB_OK)
            return st;
    }
    return PB_OK;
}

static pb_status lazyprm_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const pb_roadmap_params *params = params_ptr;
    lazy_state s = {.ctx = ctx, .best = INFINITY};
    pb_roadmap_batch batch = {0};
    double *pending = NULL; /* PB_ROADMAP_BATCH samples, when batching */
    pb_status st = pb_roadmap_init(&s.rm, ctx->engine);
    if (st != PB_OK)
        return st;
    uint64_t iterations = 0;
    uint32_t v;
    double sample[PB_MAX_DIM];
    if ((st = add_vertex(&s, ctx->problem->start, params, &v)) != PB_OK ||
        (st = add_vertex(&s, ctx->problem->goal, params, &v)) != PB_OK)
        goto done;
    s.rm.alive[0] = s.rm.alive[1] = PB_RM_VALID; /* the core checked both */
    if ((st = search(&s, result, iterations)) != PB_OK)
        goto done;

    lazy_schedule sc = {0, s.rm.n, 0.0};
    /* a time budget keeps room for the last search (pb_roadmap_time_for_last_search) */
    while (
        !pb_solve_should_stop(ctx, iterations, s.rm.n, s.best < INFINITY) &&
        !(s.best < INFINITY && pb_roadmap_time_for_last_search(ctx, sc.search_s, sc.last_searched, s.rm.n))) {
        if (!params->use_radius && pb_roadmap_batch_pays(&s.rm, PB_ROADMAP_BATCH, params->batch_knn)) {
            if (!pending && !(pending = malloc(PB_ROADMAP_BATCH * (size_t)s.rm.dim * sizeof *pending))) {
                st = PB_ERR_NOMEM;
                break;
            }
            bool stop = false;
            if ((st = batch_step(&s, params, &batch, pending, result, &sc, &iterations, &stop)) != PB_OK ||
                stop)
                break;
            continue;
        }
        iterations++;
        pb_engine_sample(ctx->engine, &ctx->rng, sample);
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
            ctx->observer(&ev, ctx->observer_payload);
        }
        if ((st = add_vertex(&s, sample, params, &v)) != PB_OK ||
            (st = after_vertex(&s, result, iterations, &sc)))
            break;
    }
    if (st == PB_OK && s.best < INFINITY && s.rm.n > sc.last_searched &&
        !(ctx->stop->cancel && atomic_load_explicit(ctx->stop->cancel, memory_order_relaxed)))
        st = search(&s, result, iterations);

done:
    result->iterations = iterations;
    result->nodes = s.rm.n;
    if (s.best < INFINITY)
        result->outcome = PB_OUTCOME_EXACT;
    pb_result_set_extra(result, "edges", (double)s.rm.n_edges);
    pb_result_set_extra(result, "edges_checked_valid", (double)s.rm.n_valid_edges);
    pb_result_set_extra(result, "edges_invalid", (double)s.n_invalid_edges);
    pb_result_set_extra(result, "vertices_invalid", (double)s.n_invalid_vertices);
    pb_result_set_extra(result, "memory_bytes", (double)pb_roadmap_memory(&s.rm));
    free(s.path_edges);
    free(pending);
    pb_roadmap_batch_finish(&batch);
    pb_nn_hits_finish(&s.near);
    pb_roadmap_finish(&s.rm);
    return st;
}

static const char *const lazyprm_aliases[] = {"lazy_prm", NULL};

const pb_planner_impl pb_lazyprm_impl = {
    .name = "lazyprm",
    .aliases = lazyprm_aliases,
    .summary =
        "Lazy PRM (Bohlin & Kavraki 2000): PRM* roadmap, vertices and edges checked only on candidate paths",
    .params = pb_roadmap_param_defs,
    .n_params = PB_ROADMAP_N_PARAMS,
    .params_size = sizeof(pb_roadmap_params),
    .anytime = true,
    .solve = lazyprm_solve,
};
