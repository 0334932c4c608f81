/* BIT* (Gammell, Srinivasa & Barfoot 2015, as in OMPL's BITstar): Batch Informed Trees.
 *
 * The search alternates batches of `samples_per_batch` feasible samples, drawn from the
 * informed set of the current best cost (the prolate hyperspheroid, informed.c), with an
 * ordered, lazy search of the implicit random geometric graph they form with the tree:
 *
 *   - the vertex queue holds tree vertices by g(v) + h^(v); a vertex is expanded (its edges
 *     put on the edge queue) when it could beat the best edge queued;
 *   - the edge queue holds (v, x) by g(v) + c^(v, x) + h^(x), ties by g(v) + c^(v, x); an edge
 *     is checked with visible() only when it is popped and could still improve both the
 *     solution and x's cost-to-come (lazy edge evaluation);
 *   - edges to samples come from every expansion; edges to vertices (rewiring) only from
 *     vertices added in the current batch (the paper's V_old rule);
 *   - when the best queued edge cannot improve the solution the batch ends; the next one
 *     first prunes samples with f^ >= c_best and vertices with f^ > c_best (their
 *     disconnected descendants return to the sample set).
 *
 * Neighbours: use_k_nearest (default, as OMPL) takes the k = ceil(rewire_factor e (1+1/d)
 * ln q) nearest samples and the k nearest vertices (q = samples + vertices); otherwise every
 * state within rewire_factor * gamma (ln q / q)^(1/d), gamma = 2 (1+1/d)^(1/d)
 * (lambda(X^)/zeta_d)^(1/d) where lambda(X^) is the smaller of the bounds' and the informed
 * set's volume. c^ and h^ are the engine's metric (the straight-line cost), so an edge that
 * is visible costs exactly c^.
 *
 * When rewiring lowers a vertex's cost-to-come, it and its descendants are queued again with
 * their new keys (their old entries are skipped as stale), so both queues stay ordered by
 * current costs, as OMPL's resorting keeps them.
 *
 * Observer: PB_EVENT_NODE_ADDED (tree 0) when a sample joins the tree or is rewired (parent:
 * its new parent), PB_EVENT_EDGE_REMOVED for the old parent of a rewired vertex.
 * Iterations count samples drawn (feasible or not). */
#include "planbench/impl/planner_impl.h"
#include "core/arena.h"
#include "core/nn_batch.h"
#include "planners/roadmap.h"
#include "planners/informed.h"
#include "core/grow.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct bitstar_params {
    int samples_per_batch;
    bool use_k_nearest;
    double rewire_factor;
    int batch_knn;
} bitstar_params;

/* Vertices whose neighbours one distance matrix computes (see neighbours_batched). */
#define KNN_BLOCK 64

static const pb_param_def bitstar_param_defs[] = {
    {"samples_per_batch", PB_PARAM_INT, offsetof(bitstar_params, samples_per_batch), 1.0, 100.0, 1e7,
     "feasible samples added per batch (OMPL: 100)"},
    {"use_k_nearest", PB_PARAM_BOOL, offsetof(bitstar_params, use_k_nearest), 0.0, 1.0, 1.0,
     "k-nearest neighbours (true, as OMPL) or the r-disc of Karaman & Frazzoli (false)"},
    {"rewire_factor", PB_PARAM_DOUBLE, offsetof(bitstar_params, rewire_factor), 1.0, 1.1, 1000.0,
     "multiplies k or the radius above the bound of Karaman & Frazzoli (>= 1 keeps asymptotic optimality)"},
    {"batch_knn", PB_PARAM_INT, offsetof(bitstar_params, batch_knn), -1.0, -1.0, 1.0,
     "k-nearest of 64 queued vertices at once through an OpenBLAS distance matrix: -1 where measured "
     "faster (7+ dimensions), 0 never, 1 always; the search is the same either way"},
};

#define NONE  UINT32_MAX
#define START 0u
#define GOAL  1u

typedef struct bit_state {
    pb_solve_ctx *ctx;
    const bitstar_params *params;
    int dim;
    uint32_t n, cap;
    double *q;
    double *g;  /* cost-to-come in the tree, INFINITY for samples */
    double *gh; /* g^: metric distance from the start */
    double *hh; /* h^: metric distance to the goal */
    uint32_t *parent, *first_child, *next_sibling;
    uint8_t *in_tree, *is_new; /* is_new: joined the tree in this batch (not in V_old) */
    uint32_t n_vertices;
    pb_nn *nn;
    pb_pq qv, qe;
    uint32_t *ids;
    double *dists;
    size_t near_cap;
    pb_nn_hits hits;
    uint32_t *stack;
    size_t stack_cap;
    pb_informed_sampler sampler;
    /* batched k-nearest: within a batch the states are fixed, so each vertex's nearest states
     * are computed once, 64 vertices per distance matrix, and kept until the batch ends */
    bool batchable; /* weighted Euclidean metric without wrapping coordinates */
    bool batching;  /* in this batch */
    double weight[PB_MAX_DIM];
    size_t cache_k;    /* row length: the 2k + 1 nearest */
    uint32_t *cache_n; /* per state: entries in its row, NONE when not computed */
    uint32_t *cache_ids;
    double *cache_d;
    size_t cache_states;  /* rows allocated */
    size_t cache_entries; /* ids and distances allocated: the rows, then KNN_BLOCK scratch rows */
    double best;          /* g(goal) as last reported */
    uint64_t n_rewires, n_batches, n_pruned, n_edge_checks;
} bit_state;

static bool reserve(bit_state *s, uint32_t need)
{
    if (need <= s->cap)
        return true;
    const size_t cap = pb_grow_capacity(s->cap, need, 1024, sizeof(double) * PB_MAX_DIM);
    if (!cap)
        return false;
    PB_GROW_OR_FAIL(s->q, cap * (size_t)s->dim);
    PB_GROW_OR_FAIL(s->g, cap);
    PB_GROW_OR_FAIL(s->gh, cap);
    PB_GROW_OR_FAIL(s->hh, cap);
    PB_GROW_OR_FAIL(s->parent, cap);
    PB_GROW_OR_FAIL(s->first_child, cap);
    PB_GROW_OR_FAIL(s->next_sibling, cap);
    PB_GROW_OR_FAIL(s->in_tree, cap);
    PB_GROW_OR_FAIL(s->is_new, cap);
    PB_GROW_OR_FAIL(s->stack, cap);
    s->stack_cap = cap;
    s->cap = (uint32_t)cap;
    return true;
}

static inline const double *state_q(const bit_state *s, uint32_t i)
{
    return s->q + (size_t)i * (size_t)s->dim;
}

static uint32_t add_state(bit_state *s, const double *q)
{
    if (!reserve(s, s->n + 1))
        return NONE;
    const uint32_t i = s->n;
    memcpy(s->q + (size_t)i * (size_t)s->dim, q, (size_t)s->dim * sizeof(double));
    s->g[i] = INFINITY;
    s->gh[i] = pb_engine_distance(s->ctx->engine, s->ctx->problem->start, q);
    s->hh[i] = pb_engine_distance(s->ctx->engine, q, s->ctx->problem->goal);
    s->parent[i] = s->first_child[i] = s->next_sibling[i] = NONE;
    s->in_tree[i] = 0;
    s->is_new[i] = 0;
    if (pb_nn_add(s->nn, i, q) != PB_OK)
        return NONE;
    s->n++;
    return i;
}

static void detach(bit_state *s, uint32_t x)
{
    const uint32_t p = s->parent[x];
    if (p == NONE)
        return;
    uint32_t *link = &s->first_child[p];
    while (*link != x)
        link = &s->next_sibling[*link];
    *link = s->next_sibling[x];
    s->parent[x] = s->next_sibling[x] = NONE;
}

static void attach(bit_state *s, uint32_t x, uint32_t p)
{
    s->parent[x] = p;
    s->next_sibling[x] = s->first_child[p];
    s->first_child[p] = x;
}

/* After g(x) changed: every descendant's cost-to-come follows. */
/* x's cost-to-come has just been set: pass the change down its subtree, and queue x and every
 * descendant (whose cost fell) for expansion under its new key. Their earlier queue entries,
 * keyed by the old costs, become stale and are skipped when popped; re-expanding requeues
 * their outgoing edges with the current costs, so both queues stay exactly ordered (OMPL's
 * BIT* resorts the affected vertices' entries to the same effect). */
static pb_status propagate(bit_state *s, uint32_t x)
{
    size_t top = 0;
    s->stack[top++] = x;
    while (top) {
        const uint32_t v = s->stack[--top];
        if (s->g[v] + s->hh[v] < s->g[GOAL]) {
            pb_status st = pb_pq_push(&s->qv, s->g[v] + s->hh[v], s->g[v], v, 0);
            if (st != PB_OK)
                return st;
        }
        for (uint32_t c = s->first_child[v]; c != NONE; c = s->next_sibling[c]) {
            s->g[c] = s->g[v] + pb_engine_distance(s->ctx->engine, state_q(s, v), state_q(s, c));
            s->stack[top++] = c;
        }
    }
    return PB_OK;
}

static void emit(const bit_state *s, pb_event_type type, uint32_t node, uint32_t parent)
{
    if (!s->ctx->observer)
        return;
    pb_event ev = {.type = type,
                   .node = node,
                   .parent = parent,
                   .q = state_q(s, node),
                   .parent_q = parent == NONE ? NULL : state_q(s, parent)};
    s->ctx->observer(&ev, s->ctx->observer_payload);
}

/* Volume of the informed set for cost c, or of the bounds when smaller or not exact. */
static double informed_volume(const bit_state *s, double c)
{
    const pb_informed_sampler *is = &s->sampler;
    if (!is->exact || !isfinite(c))
        return is->bounds_volume;
    double v = is->unit_ball_volume * 0.5 * c;
    const double conjugate = 0.5 * sqrt(fmax(0.0, c * c - is->c_min * is->c_min));
    for (int i = 1; i < s->dim; i++)
        v *= conjugate;
    for (int i = 0; i < s->dim; i++)
        v /= is->weight[i];
    return v < is->bounds_volume ? v : is->bounds_volume;
}

/* Start a batch's cache of nearest states (the states are fixed until the next batch). */
static pb_status batch_cache_reset(bit_state *s)
{
    const bitstar_params *p = s->params;
    s->batching = p->use_k_nearest && s->batchable && p->batch_knn != 0 &&
                  (p->batch_knn > 0 || pb_nn_batch_beats_kdtree(s->dim, s->n, KNN_BLOCK));
    if (!s->batching)
        return PB_OK;
    const double qn = (double)s->n;
    const size_t k = (size_t)ceil(p->rewire_factor * M_E * (1.0 + 1.0 / s->dim) * log(qn > 2 ? qn : 2));
    s->cache_k = 2 * k + 1;
    const size_t entries = ((size_t)s->n + KNN_BLOCK) * s->cache_k; /* the rows, and a block's scratch */
    if (s->cache_states < s->n || s->cache_entries < entries) {
        free(s->cache_ids);
        free(s->cache_d);
        free(s->cache_n);
        s->cache_ids = malloc(entries * sizeof *s->cache_ids);
        s->cache_d = malloc(entries * sizeof *s->cache_d);
        s->cache_n = malloc((size_t)s->n * sizeof *s->cache_n);
        s->cache_states = s->n;
        s->cache_entries = entries;
        if (!s->cache_ids || !s->cache_d || !s->cache_n) {
            s->cache_states = s->cache_entries = 0;
            return PB_ERR_NOMEM;
        }
    }
    for (uint32_t i = 0; i < s->n; i++)
        s->cache_n[i] = NONE;
    return PB_OK;
}

/* Fill the cached row of vertex v, and in the same distance matrix those of up to
 * KNN_BLOCK - 1 other vertices waiting in the vertex queue (the front of the heap array: the
 * ones expanded next). The rows are exactly the `want` nearest states of pb_nn_knearest. */
static pb_status neighbours_batched(bit_state *s, uint32_t v, size_t want)
{
    if (s->cache_n[v] != NONE)
        return PB_OK;
    uint32_t block[KNN_BLOCK];
    size_t nb = 0;
    block[nb++] = v;
    s->cache_n[v] = 0; /* marks "in the block" while collecting */
    for (size_t i = 0; i < s->qv.n && nb < KNN_BLOCK; i++) {
        const uint32_t u = s->qv.e[i].a;
        if (s->cache_n[u] == NONE && s->in_tree[u]) {
            s->cache_n[u] = 0;
            block[nb++] = u;
        }
    }
    double queries[KNN_BLOCK * PB_MAX_DIM];
    const size_t d = (size_t)s->dim;
    for (size_t i = 0; i < nb; i++)
        memcpy(queries + i * d, state_q(s, block[i]), d * sizeof(double));
    uint32_t *out_ids = s->cache_ids + (size_t)s->n * want; /* the scratch rows after the cache */
    double *out_d = s->cache_d + (size_t)s->n * want;
    pb_status st =
        pb_nn_batch_knn(queries, nb, s->q, s->n, s->dim, s->weight, want, out_ids, out_d, PB_NN_BATCH_AUTO);
    if (st != PB_OK)
        return st;
    for (size_t i = 0; i < nb; i++) {
        size_t n = 0;
        while (n < want && out_ids[i * want + n] != UINT32_MAX)
            n++;
        memcpy(s->cache_ids + (size_t)block[i] * want, out_ids + i * want, n * sizeof *out_ids);
        memcpy(s->cache_d + (size_t)block[i] * want, out_d + i * want, n * sizeof *out_d);
        s->cache_n[block[i]] = (uint32_t)n;
    }
    return PB_OK;
}

/* Neighbours of state v, into s->ids / s->dists (n returned): with k-nearest, up to k
 * samples and up to k vertices among the 2k nearest states. */
static pb_status neighbours(bit_state *s, uint32_t v, size_t *count)
{
    const double qn = (double)s->n;
    const int d = s->dim;
    *count = 0;
    if (s->params->use_k_nearest) {
        const size_t k =
            (size_t)ceil(s->params->rewire_factor * M_E * (1.0 + 1.0 / d) * log(qn > 2 ? qn : 2));
        const size_t want = 2 * k + 1;
        if (s->near_cap < want) {
            uint32_t *ids = realloc(s->ids, want * sizeof *ids);
            if (!ids)
                return PB_ERR_NOMEM;
            s->ids = ids;
            double *dists = realloc(s->dists, want * sizeof *dists);
            if (!dists)
                return PB_ERR_NOMEM;
            s->dists = dists;
            s->near_cap = want;
        }
        size_t got;
        if (s->batching && want == s->cache_k) {
            pb_status st = neighbours_batched(s, v, want);
            if (st != PB_OK)
                return st;
            got = s->cache_n[v];
            memcpy(s->ids, s->cache_ids + (size_t)v * want, got * sizeof *s->ids);
            memcpy(s->dists, s->cache_d + (size_t)v * want, got * sizeof *s->dists);
        } else {
            got = pb_nn_knearest(s->nn, state_q(s, v), want, s->ids, s->dists);
        }
        size_t n_samples = 0, n_vertices = 0, kept = 0;
        for (size_t i = 0; i < got; i++) {
            const uint32_t x = s->ids[i];
            if (x == v)
                continue;
            size_t *c = s->in_tree[x] ? &n_vertices : &n_samples;
            if (*c >= k)
                continue;
            (*c)++;
            s->ids[kept] = x;
            s->dists[kept++] = s->dists[i];
        }
        *count = kept;
        return PB_OK;
    }
    const double gamma = 2.0 * pow(1.0 + 1.0 / d, 1.0 / d) *
                         pow(informed_volume(s, s->best) / s->sampler.unit_ball_volume, 1.0 / d);
    const double r = s->params->rewire_factor * gamma * pow(log(qn > 2 ? qn : 2) / qn, 1.0 / d);
    pb_status st = pb_nn_radius(s->nn, state_q(s, v), r, &s->hits);
    if (st != PB_OK)
        return st;
    if (s->near_cap < s->hits.n) {
        uint32_t *ids = realloc(s->ids, s->hits.n * sizeof *ids);
        if (!ids)
            return PB_ERR_NOMEM;
        s->ids = ids;
        double *dists = realloc(s->dists, s->hits.n * sizeof *dists);
        if (!dists)
            return PB_ERR_NOMEM;
        s->dists = dists;
        s->near_cap = s->hits.n;
    }
    size_t kept = 0;
    for (size_t i = 0; i < s->hits.n; i++)
        if (s->hits.ids[i] != v) {
            s->ids[kept] = s->hits.ids[i];
            s->dists[kept++] = s->hits.dists[i];
        }
    *count = kept;
    return PB_OK;
}

static pb_status expand(bit_state *s, uint32_t v)
{
    size_t count;
    pb_status st = neighbours(s, v, &count);
    if (st != PB_OK)
        return st;
    const double cbest = s->g[GOAL];
    for (size_t i = 0; i < count; i++) {
        const uint32_t x = s->ids[i];
        const double c = s->dists[i];
        if (!s->in_tree[x]) {
            if (s->gh[v] + c + s->hh[x] < cbest)
                st = pb_pq_push(&s->qe, s->g[v] + c + s->hh[x], s->g[v] + c, v, x);
        } else if (s->is_new[v] && s->parent[x] != v && s->parent[v] != x &&
                   s->gh[v] + c + s->hh[x] < cbest && s->g[v] + c < s->g[x]) {
            st = pb_pq_push(&s->qe, s->g[v] + c + s->hh[x], s->g[v] + c, v, x);
        }
        if (st != PB_OK)
            return st;
    }
    return PB_OK;
}

/* Remove samples with f^ >= c and vertices with f^ > c; descendants of removed vertices
 * become samples again when f^ < c. Compacts the arrays and rebuilds the neighbour structure. */
static pb_status prune(bit_state *s, double c)
{
    /* keep[i]: 0 drop, 1 keep as sample, 2 keep as vertex (resolved root-first via a stack) */
    uint8_t *keep = s->is_new; /* reused as scratch: is_new is reset for the new batch anyway */
    for (uint32_t i = 0; i < s->n; i++)
        keep[i] = 3; /* unresolved */
    keep[START] = 2;
    for (uint32_t i = 0; i < s->n; i++) {
        size_t top = 0;
        uint32_t x = i;
        while (keep[x] == 3) {
            s->stack[top++] = x;
            if (!s->in_tree[x])
                break;
            x = s->parent[x];
        }
        while (top) {
            const uint32_t y = s->stack[--top];
            const double f = s->gh[y] + s->hh[y];
            if (s->in_tree[y] && keep[s->parent[y]] == 2 && f <= c)
                keep[y] = 2;
            else
                keep[y] = (y == GOAL || f < c) ? 1 : 0;
        }
    }
    /* compact: new index of each kept state in s->stack (START and GOAL keep 0 and 1) */
    uint32_t *map = s->stack, m = 0;
    for (uint32_t i = 0; i < s->n; i++)
        map[i] = keep[i] ? m++ : NONE;
    const size_t dim = (size_t)s->dim;
    for (uint32_t i = 0; i < s->n; i++) {
        const uint32_t j = map[i];
        if (j == NONE)
            continue;
        memmove(s->q + j * dim, s->q + i * dim, dim * sizeof(double));
        s->gh[j] = s->gh[i];
        s->hh[j] = s->hh[i];
        if (keep[i] == 2) {
            s->g[j] = s->g[i];
            s->parent[j] = s->parent[i] == NONE ? NONE : map[s->parent[i]];
            s->in_tree[j] = 1;
        } else {
            s->g[j] = INFINITY;
            s->parent[j] = NONE;
            s->in_tree[j] = 0;
        }
        keep[j] = keep[i]; /* j <= i: safe in place */
    }
    s->n_pruned += s->n - m;
    s->n = m;
    s->n_vertices = 0;
    pb_nn_clear(s->nn);
    for (uint32_t i = 0; i < m; i++) {
        s->first_child[i] = s->next_sibling[i] = NONE;
        s->n_vertices += s->in_tree[i];
        if (pb_nn_add(s->nn, i, state_q(s, i)) != PB_OK)
            return PB_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < m; i++)
        if (s->in_tree[i] && s->parent[i] != NONE)
            attach(s, i, s->parent[i]);
    return PB_OK;
}

static pb_status report(bit_state *s, pb_result *result)
{
    if (!(s->g[GOAL] < s->best))
        return PB_OK;
    s->best = s->g[GOAL];
    pb_path_clear(&result->path);
    for (uint32_t v = GOAL; v != NONE; v = s->parent[v]) {
        pb_status st = pb_path_append(&result->path, state_q(s, v));
        if (st != PB_OK)
            return st;
    }
    pb_path_reverse(&result->path);
    pb_solve_report_solution(s->ctx, result, s->best, &result->path);
    return PB_OK;
}

static pb_status bitstar_solve(const void *params_ptr, pb_solve_ctx *ctx, pb_result *result)
{
    const bitstar_params *params = params_ptr;
    pb_engine *engine = ctx->engine;
    bit_state s = {.ctx = ctx, .params = params, .dim = ctx->dim, .best = INFINITY};
    pb_status st = pb_nn_create(&s.nn, engine);
    uint64_t iterations = 0;
    if (st != PB_OK)
        return st;
    pb_informed_init(&s.sampler, engine, ctx->problem->start, ctx->problem->goal);
    double period[PB_MAX_DIM];
    s.batchable = pb_engine_metric(engine, s.weight, period);
    for (int i = 0; i < s.dim; i++)
        s.batchable &= period[i] == 0.0;
    if (add_state(&s, ctx->problem->start) != START || add_state(&s, ctx->problem->goal) != GOAL) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    s.g[START] = 0.0;
    s.in_tree[START] = 1;
    s.is_new[START] = 1;
    s.n_vertices = 1;
    emit(&s, PB_EVENT_NODE_ADDED, START, NONE);

    double sample[PB_MAX_DIM];
    bool batch_started = false;
    while (!pb_solve_should_stop(ctx, iterations, s.n_vertices, s.best < INFINITY)) {
        if (!batch_started || (s.qe.n == 0 && s.qv.n == 0)) {
            /* a new batch: prune, sample, requeue every vertex */
            if (batch_started && s.best < INFINITY && (st = prune(&s, s.best)) != PB_OK)
                break;
            const uint32_t batch = (uint32_t)params->samples_per_batch;
            for (uint32_t added = 0; added < batch;) {
                if (pb_solve_should_stop(ctx, iterations, s.n_vertices, s.best < INFINITY))
                    goto done;
                iterations++;
                pb_informed_sample(&s.sampler, engine, &ctx->rng, s.best, sample);
                if (ctx->observer) {
                    pb_event ev = {.type = PB_EVENT_SAMPLE, .q = sample, .iteration = iterations};
                    ctx->observer(&ev, ctx->observer_payload);
                }
                if (s.best < INFINITY && pb_engine_distance(engine, ctx->problem->start, sample) +
                                                 pb_engine_distance(engine, sample, ctx->problem->goal) >=
                                             s.best)
                    continue; /* outside the informed set: cannot improve */
                if (!pb_engine_feasible(engine, sample))
                    continue;
                if (add_state(&s, sample) == NONE) {
                    st = PB_ERR_NOMEM;
                    goto done;
                }
                added++;
            }
            s.qe.n = s.qv.n = 0;
            for (uint32_t i = 0; i < s.n; i++) {
                s.is_new[i] = batch_started ? 0 : s.in_tree[i];
                if (s.in_tree[i] && (st = pb_pq_push(&s.qv, s.g[i] + s.hh[i], s.g[i], i, 0)) != PB_OK)
                    goto done;
            }
            batch_started = true;
            s.n_batches++;
            if ((st = batch_cache_reset(&s)) != PB_OK)
                goto done;
        }
        /* expand vertices while one could beat the best queued edge */
        while (s.qv.n && (s.qe.n == 0 || pb_pq_top(&s.qv)->key <= pb_pq_top(&s.qe)->key)) {
            pb_pq_entry top;
            pb_pq_pop(&s.qv, &top);
            if (top.tie != s.g[top.a])
                continue; /* stale: queued again with its lower cost since */
            if (s.g[top.a] + s.hh[top.a] >= s.g[GOAL])
                continue; /* cannot help the solution any more */
            if ((st = expand(&s, top.a)) != PB_OK)
                goto done;
        }
        pb_pq_entry edge;
        if (!pb_pq_pop(&s.qe, &edge))
            continue;
        const uint32_t v = edge.a, x = edge.b;
        const double c_hat = pb_engine_distance(engine, state_q(&s, v), state_q(&s, x));
        if (!(s.g[v] + c_hat + s.hh[x] < s.g[GOAL])) {
            /* the best edge cannot improve the solution: the batch is over */
            s.qe.n = s.qv.n = 0;
            continue;
        }
        if (edge.tie - (s.g[v] + c_hat) > 1e-9 * (1.0 + edge.tie))
            continue; /* stale: v's cost fell and v was expanded again with the current one */
        if (!(s.g[v] + c_hat < s.g[x]) || !(s.gh[v] + c_hat + s.hh[x] < s.g[GOAL]))
            continue;
        s.n_edge_checks++;
        if (!pb_engine_visible(engine, state_q(&s, v), state_q(&s, x)))
            continue;
        const bool rewire = s.in_tree[x];
        if (rewire) {
            emit(&s, PB_EVENT_EDGE_REMOVED, x, s.parent[x]);
            detach(&s, x);
            s.n_rewires++;
        } else {
            s.in_tree[x] = 1;
            s.is_new[x] = 1;
            s.n_vertices++;
        }
        attach(&s, x, v);
        s.g[x] = s.g[v] + c_hat;
        emit(&s, PB_EVENT_NODE_ADDED, x, v);
        /* queues x (new, or cheaper after the rewiring) and its cheaper descendants */
        if ((st = propagate(&s, x)) != PB_OK)
            break;
        if ((st = report(&s, result)) != PB_OK)
            break;
    }
done:
    result->iterations = iterations;
    result->nodes = s.n_vertices;
    if (s.best < INFINITY)
        result->outcome = PB_OUTCOME_EXACT;
    pb_result_set_extra(result, "batches", (double)s.n_batches);
    pb_result_set_extra(result, "rewirings", (double)s.n_rewires);
    pb_result_set_extra(result, "pruned", (double)s.n_pruned);
    pb_result_set_extra(result, "samples", (double)(s.n - s.n_vertices));
    free(s.q);
    free(s.g);
    free(s.gh);
    free(s.hh);
    free(s.parent);
    free(s.first_child);
    free(s.next_sibling);
    free(s.in_tree);
    free(s.is_new);
    free(s.stack);
    free(s.ids);
    free(s.dists);
    free(s.cache_ids);
    free(s.cache_d);
    free(s.cache_n);
    pb_nn_hits_finish(&s.hits);
    pb_pq_finish(&s.qv);
    pb_pq_finish(&s.qe);
    pb_nn_destroy(s.nn);
    return st;
}

static const char *const bitstar_aliases[] = {"bit_star", NULL};

const pb_planner_impl pb_bitstar_impl = {
    .name = "bitstar",
    .aliases = bitstar_aliases,
    .summary = "BIT* (Gammell et al. 2015): batches of informed samples, ordered lazy search, anytime",
    .params = bitstar_param_defs,
    .n_params = sizeof bitstar_param_defs / sizeof bitstar_param_defs[0],
    .params_size = sizeof(bitstar_params),
    .anytime = true,
    .solve = bitstar_solve,
};
