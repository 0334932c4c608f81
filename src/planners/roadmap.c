/* Roadmaps for the PRM family: flat vertex and half-edge arrays, union-find, A*. */
#include "planners/roadmap.h"
#include "core/arena.h"
#include "core/nn_batch.h"
#include "planners/informed.h" /* pb_unit_ball_volume */
#include "core/grow.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- priority queue ---- */

static inline bool pq_less(const pb_pq_entry *x, const pb_pq_entry *y)
{
    return x->key < y->key || (x->key == y->key && x->tie < y->tie);
}

pb_status pb_pq_push(pb_pq *pq, double key, double tie, uint32_t a, uint32_t b)
{
    pb_pq_entry *e = pb_reserve(pq->e, &pq->capacity, pq->n + 1, sizeof *e, 256);
    if (!e)
        return PB_ERR_NOMEM;
    pq->e = e;
    const pb_pq_entry item = {key, tie, a, b};
    size_t i = pq->n++;
    while (i > 0) {
        const size_t up = (i - 1) / 2;
        if (!pq_less(&item, &pq->e[up]))
            break;
        pq->e[i] = pq->e[up];
        i = up;
    }
    pq->e[i] = item;
    return PB_OK;
}

bool pb_pq_pop(pb_pq *pq, pb_pq_entry *out)
{
    if (pq->n == 0)
        return false;
    *out = pq->e[0];
    const pb_pq_entry last = pq->e[--pq->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= pq->n)
            break;
        if (c + 1 < pq->n && pq_less(&pq->e[c + 1], &pq->e[c]))
            c++;
        if (!pq_less(&pq->e[c], &last))
            break;
        pq->e[i] = pq->e[c];
        i = c;
    }
    if (pq->n)
        pq->e[i] = last;
    return true;
}

void pb_pq_finish(pb_pq *pq)
{
    free(pq->e);
    memset(pq, 0, sizeof *pq);
}

/* ---- roadmap ---- */

pb_status pb_roadmap_init(pb_roadmap *rm, const pb_engine *engine)
{
    memset(rm, 0, sizeof *rm);
    rm->dim = pb_engine_dim(engine);
    rm->engine = engine;
    double period[PB_MAX_DIM];
    rm->batchable = pb_engine_metric(engine, rm->weight, period);
    for (int i = 0; i < rm->dim; i++)
        rm->batchable &= period[i] == 0.0;
    return pb_nn_create(&rm->nn, engine);
}

void pb_roadmap_finish(pb_roadmap *rm)
{
    free(rm->q);
    free(rm->alive);
    free(rm->head);
    free(rm->uf);
    free(rm->to);
    free(rm->next);
    free(rm->length);
    free(rm->state);
    free(rm->g);
    free(rm->came_edge);
    free(rm->stamp);
    free(rm->h);
    pb_pq_finish(&rm->open);
    pb_nn_destroy(rm->nn);
    memset(rm, 0, sizeof *rm);
}

static bool reserve_vertices(pb_roadmap *rm, uint32_t need)
{
    if (need <= rm->cap)
        return true;
    const size_t cap = pb_grow_capacity(rm->cap, need, 1024, sizeof(double) * PB_MAX_DIM);
    if (!cap)
        return false;
    if (cap >= PB_RM_NONE)
        return false;
    PB_GROW_OR_FAIL(rm->q, cap * (size_t)rm->dim);
    PB_GROW_OR_FAIL(rm->alive, cap);
    PB_GROW_OR_FAIL(rm->head, cap);
    PB_GROW_OR_FAIL(rm->uf, cap);
    PB_GROW_OR_FAIL(rm->g, cap);
    PB_GROW_OR_FAIL(rm->came_edge, cap);
    PB_GROW_OR_FAIL(rm->h, cap);
    const size_t old = rm->cap;
    PB_GROW_OR_FAIL(rm->stamp, cap);
    memset(rm->stamp + old, 0, (cap - old) * sizeof *rm->stamp);
    rm->cap = (uint32_t)cap;
    return true;
}

static bool reserve_edges(pb_roadmap *rm, uint32_t need)
{
    if (need <= rm->cap_edges)
        return true;
    const size_t cap = pb_grow_capacity(rm->cap_edges, need, 4096, sizeof(double) * PB_MAX_DIM);
    if (!cap)
        return false;
    if (2 * cap >= PB_RM_NONE)
        return false;
    PB_GROW_OR_FAIL(rm->to, 2 * cap);
    PB_GROW_OR_FAIL(rm->next, 2 * cap);
    PB_GROW_OR_FAIL(rm->length, cap);
    PB_GROW_OR_FAIL(rm->state, cap);
    rm->cap_edges = (uint32_t)cap;
    return true;
}

uint32_t pb_roadmap_add_vertex(pb_roadmap *rm, const double *q)
{
    if (!reserve_vertices(rm, rm->n + 1))
        return PB_RM_NONE;
    const uint32_t v = rm->n;
    memcpy(rm->q + (size_t)v * (size_t)rm->dim, q, (size_t)rm->dim * sizeof(double));
    rm->alive[v] = PB_RM_UNCHECKED;
    rm->head[v] = PB_RM_NONE;
    rm->uf[v] = v;
    rm->h_valid = false;
    if (pb_nn_add(rm->nn, v, q) != PB_OK)
        return PB_RM_NONE;
    rm->n++;
    return v;
}

uint32_t pb_roadmap_component(pb_roadmap *rm, uint32_t v)
{
    uint32_t root = v;
    while (rm->uf[root] != root)
        root = rm->uf[root];
    while (rm->uf[v] != root) { /* path compression */
        const uint32_t up = rm->uf[v];
        rm->uf[v] = root;
        v = up;
    }
    return root;
}

uint32_t pb_roadmap_add_edge(pb_roadmap *rm, uint32_t a, uint32_t b, double length, pb_rm_edge_state state)
{
    if (!reserve_edges(rm, rm->n_edges + 1))
        return PB_RM_NONE;
    const uint32_t e = rm->n_edges++;
    rm->h_valid = false;
    rm->to[2 * e] = b;
    rm->next[2 * e] = rm->head[a];
    rm->head[a] = 2 * e;
    rm->to[2 * e + 1] = a;
    rm->next[2 * e + 1] = rm->head[b];
    rm->head[b] = 2 * e + 1;
    rm->length[e] = length;
    rm->state[e] = (uint8_t)state;
    rm->n_valid_edges += state == PB_RM_VALID;
    const uint32_t ra = pb_roadmap_component(rm, a), rb = pb_roadmap_component(rm, b);
    if (ra != rb) /* the smaller index becomes the root: deterministic, and shallow enough with compression */
        rm->uf[ra > rb ? ra : rb] = ra < rb ? ra : rb;
    return e;
}

void pb_roadmap_kill_vertex(pb_roadmap *rm, uint32_t v)
{
    rm->alive[v] = PB_RM_DEAD;
    for (uint32_t h = rm->head[v]; h != PB_RM_NONE; h = rm->next[h])
        rm->state[h / 2] = PB_RM_INVALID;
}

size_t pb_roadmap_k(size_t n, int dim, double factor)
{
    if (n < 2)
        return 1;
    const double k = ceil(factor * M_E * (1.0 + 1.0 / dim) * log((double)n));
    return k < 1.0 ? 1 : (size_t)k;
}

double pb_roadmap_radius(const pb_engine *engine, size_t n, double factor)
{
    const int dim = pb_engine_dim(engine);
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    double volume = 1.0;
    for (int i = 0; i < dim; i++)
        volume *= hi[i] - lo[i];
    const double gamma =
        2.0 * pow(1.0 + 1.0 / dim, 1.0 / dim) * pow(volume / pb_unit_ball_volume(dim), 1.0 / dim);
    if (n < 2)
        return factor * gamma;
    return factor * gamma * pow(log((double)n) / (double)n, 1.0 / dim);
}

pb_status pb_roadmap_near(pb_roadmap *rm, const double *q, bool use_radius, double factor, pb_nn_hits *out)
{
    out->n = 0;
    if (use_radius) {
        pb_status st = pb_nn_radius(rm->nn, q, pb_roadmap_radius(rm->engine, (size_t)rm->n + 1, factor), out);
        if (st != PB_OK)
            return st;
    } else {
        const size_t k = pb_roadmap_k((size_t)rm->n + 1, rm->dim, factor);
        if (out->capacity < k) {
            uint32_t *ids = realloc(out->ids, k * sizeof *ids);
            if (!ids)
                return PB_ERR_NOMEM;
            out->ids = ids;
            double *dists = realloc(out->dists, k * sizeof *dists);
            if (!dists)
                return PB_ERR_NOMEM;
            out->dists = dists;
            out->capacity = k;
        }
        out->n = pb_nn_knearest(rm->nn, q, k, out->ids, out->dists);
    }
    size_t kept = 0; /* drop dead vertices, keeping the order */
    for (size_t i = 0; i < out->n; i++)
        if (rm->alive[out->ids[i]] != PB_RM_DEAD) {
            out->ids[kept] = out->ids[i];
            out->dists[kept++] = out->dists[i];
        }
    out->n = kept;
    return PB_OK;
}

const pb_param_def pb_roadmap_param_defs[PB_ROADMAP_N_PARAMS] = {
    {"k_factor", PB_PARAM_DOUBLE, offsetof(pb_roadmap_params, k_factor), 0.01, 1.0, 100.0,
     "scale of the connection rule: k = ceil(k_factor e (1+1/d) ln n) neighbours, or the radius scaled "
     "alike"},
    {"use_radius", PB_PARAM_BOOL, offsetof(pb_roadmap_params, use_radius), 0.0, 0.0, 1.0,
     "connect within the PRM* radius instead of to the k nearest (false)"},
    {"batch_knn", PB_PARAM_INT, offsetof(pb_roadmap_params, batch_knn), -1.0, -1.0, 1.0,
     "k-nearest of 64 samples at once through an OpenBLAS distance matrix: -1 where measured faster "
     "(7+ dimensions), 0 never, 1 always; the roadmap is the same either way"},
};

size_t pb_roadmap_draw_batch(pb_solve_ctx *ctx, const pb_roadmap *rm, bool feasible_only, bool have_solution,
                             double *pending, uint64_t *drawn_at, uint64_t *iterations)
{
    const size_t d = (size_t)rm->dim;
    size_t n = 0;
    uint64_t it = *iterations;
    for (;;) {
        double *q = pending + n * d;
        it++;
        pb_engine_sample(ctx->engine, &ctx->rng, q);
        if (ctx->observer) {
            pb_event ev = {.type = PB_EVENT_SAMPLE, .q = q, .iteration = it};
            ctx->observer(&ev, ctx->observer_payload);
        }
        if (!feasible_only || pb_engine_feasible(ctx->engine, q))
            drawn_at[n++] = it;
        if (n == PB_ROADMAP_BATCH || pb_solve_should_stop(ctx, it, rm->n + n, have_solution))
            break;
    }
    *iterations = it;
    return n;
}

void pb_roadmap_batch_finish(pb_roadmap_batch *batch)
{
    free(batch->ids);
    free(batch->dists);
    free(batch->count);
    memset(batch, 0, sizeof *batch);
}

bool pb_roadmap_batch_pays(const pb_roadmap *rm, size_t n_samples, int mode)
{
    if (!rm->batchable || mode == 0)
        return false;
    return mode > 0 || pb_nn_batch_beats_kdtree(rm->dim, rm->n, n_samples);
}

static bool batch_reserve(pb_roadmap_batch *b, size_t rows, size_t k)
{
    if (rows <= b->capacity_rows && k <= b->capacity_k)
        return true;
    const size_t r = rows > b->capacity_rows ? rows : b->capacity_rows;
    const size_t kk = k > b->capacity_k ? k : b->capacity_k;
    uint32_t *ids = realloc(b->ids, r * kk * sizeof *ids);
    if (!ids)
        return false;
    b->ids = ids;
    double *dists = realloc(b->dists, r * kk * sizeof *dists);
    if (!dists)
        return false;
    b->dists = dists;
    size_t *count = realloc(b->count, r * sizeof *count);
    if (!count)
        return false;
    b->count = count;
    b->capacity_rows = r;
    b->capacity_k = kk;
    return true;
}

pb_status pb_roadmap_near_batch(pb_roadmap *rm, const double *samples, size_t n_samples, double factor,
                                pb_roadmap_batch *out)
{
    const size_t d = (size_t)rm->dim;
    /* k grows with n: the last sample's k bounds every row's */
    const size_t k_max = pb_roadmap_k((size_t)rm->n + n_samples, rm->dim, factor);
    if (!batch_reserve(out, n_samples, k_max))
        return PB_ERR_NOMEM;
    out->n = n_samples;
    out->k = k_max;
    /* the k_max nearest current vertices of every sample: one distance matrix */
    if (rm->n > 0) {
        pb_status st = pb_nn_batch_knn(samples, n_samples, rm->q, rm->n, rm->dim, rm->weight, k_max, out->ids,
                                       out->dists, PB_NN_BATCH_AUTO);
        if (st != PB_OK)
            return st;
    }
    for (size_t i = 0; i < n_samples; i++) {
        uint32_t *ids = out->ids + i * k_max;
        double *ds = out->dists + i * k_max;
        const size_t k = pb_roadmap_k((size_t)rm->n + i + 1, rm->dim, factor);
        size_t n = k < rm->n ? k : rm->n; /* the matrix rows are sorted: their first k */
        /* samples 0..i-1 will be vertices by then */
        const double *qi = samples + i * d;
        for (size_t j = 0; j < i; j++) {
            const double *qj = samples + j * d;
            double sum = 0.0;
            for (size_t c = 0; c < d; c++) {
                const double x = rm->weight[c] * (qj[c] - qi[c]);
                sum += x * x;
            }
            pb_knn_row_insert(ids, ds, k, &n, rm->n + (uint32_t)j, sqrt(sum));
        }
        out->count[i] = n;
    }
    return PB_OK;
}

size_t pb_roadmap_batch_live(const pb_roadmap *rm, pb_roadmap_batch *batch, size_t i)
{
    uint32_t *ids = batch->ids + i * batch->k;
    double *ds = batch->dists + i * batch->k;
    size_t kept = 0; /* drop dead vertices, keeping the order, as pb_roadmap_near does */
    for (size_t j = 0; j < batch->count[i]; j++)
        if (ids[j] >= rm->n || rm->alive[ids[j]] != PB_RM_DEAD) {
            ids[kept] = ids[j];
            ds[kept++] = ds[j];
        }
    return batch->count[i] = kept;
}

pb_status pb_roadmap_exact_heuristic(pb_roadmap *rm, uint32_t target)
{
    for (uint32_t v = 0; v < rm->n; v++)
        rm->h[v] = INFINITY;
    rm->h_valid = false;
    rm->open.n = 0;
    rm->h[target] = 0.0;
    pb_status st = pb_pq_push(&rm->open, 0.0, 0.0, target, 0);
    pb_pq_entry top;
    while (st == PB_OK && pb_pq_pop(&rm->open, &top)) {
        const uint32_t v = top.a;
        if (top.key > rm->h[v])
            continue; /* stale */
        for (uint32_t e = rm->head[v]; e != PB_RM_NONE; e = rm->next[e]) {
            const uint32_t w = rm->to[e];
            if (rm->state[e / 2] == PB_RM_INVALID || rm->alive[w] == PB_RM_DEAD)
                continue;
            const double hw = rm->h[v] + rm->length[e / 2];
            if (hw < rm->h[w]) {
                rm->h[w] = hw;
                st = pb_pq_push(&rm->open, hw, 0.0, w, 0);
            }
        }
    }
    rm->h_valid = st == PB_OK;
    rm->h_target = target;
    return st;
}

bool pb_roadmap_astar(pb_roadmap *rm, uint32_t source, uint32_t target, double *cost, pb_status *status)
{
    *status = PB_OK;
    if (++rm->search == 0) { /* the stamp wrapped: forget every old mark */
        memset(rm->stamp, 0, (size_t)rm->cap * sizeof *rm->stamp);
        rm->search = 1;
    }
    const uint32_t s = rm->search;
    const double *goal_q = pb_roadmap_q(rm, target);
    const bool exact = rm->h_valid && rm->h_target == target;
    rm->open.n = 0;
    rm->n_expanded = 0;
    rm->g[source] = 0.0;
    rm->came_edge[source] = PB_RM_NONE;
    rm->stamp[source] = s;
    if (exact && rm->h[source] == INFINITY)
        return false; /* no path left */
    if (pb_pq_push(&rm->open, pb_engine_distance(rm->engine, pb_roadmap_q(rm, source), goal_q), 0.0, source,
                   0) != PB_OK) {
        *status = PB_ERR_NOMEM;
        return false;
    }
    pb_pq_entry top;
    while (pb_pq_pop(&rm->open, &top)) {
        const uint32_t v = top.a;
        /* tie holds the g the entry was pushed with: a larger one is a stale duplicate */
        if (top.tie > rm->g[v])
            continue;
        if (v == target) {
            *cost = rm->g[v];
            return true;
        }
        rm->n_expanded++;
        for (uint32_t h = rm->head[v]; h != PB_RM_NONE; h = rm->next[h]) {
            const uint32_t e = h / 2, w = rm->to[h];
            if (rm->state[e] == PB_RM_INVALID || rm->alive[w] == PB_RM_DEAD)
                continue;
            const double gw = rm->g[v] + rm->length[e];
            if (rm->stamp[w] == s && gw >= rm->g[w])
                continue;
            double hw = pb_engine_distance(rm->engine, pb_roadmap_q(rm, w), goal_q);
            if (exact) {
                if (rm->h[w] == INFINITY)
                    continue; /* cut off from the target */
                hw = rm->h[w] > hw ? rm->h[w] : hw;
            }
            rm->stamp[w] = s;
            rm->g[w] = gw;
            rm->came_edge[w] = h;
            const double f = gw + hw;
            if (pb_pq_push(&rm->open, f, gw, w, 0) != PB_OK) {
                *status = PB_ERR_NOMEM;
                return false;
            }
        }
    }
    return false;
}

size_t pb_roadmap_path_edges(const pb_roadmap *rm, uint32_t target, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t v = target; rm->came_edge[v] != PB_RM_NONE; v = rm->to[rm->came_edge[v] ^ 1u])
        out[n++] = rm->came_edge[v];
    return n;
}

pb_status pb_roadmap_path(const pb_roadmap *rm, uint32_t target, pb_path *path)
{
    pb_path_clear(path);
    for (uint32_t v = target;; v = rm->to[rm->came_edge[v] ^ 1u]) {
        pb_status st = pb_path_append(path, pb_roadmap_q(rm, v));
        if (st != PB_OK)
            return st;
        if (rm->came_edge[v] == PB_RM_NONE)
            break;
    }
    pb_path_reverse(path);
    return PB_OK;
}

size_t pb_roadmap_memory(const pb_roadmap *rm)
{
    const size_t per_vertex =
        (size_t)rm->dim * sizeof(double) + 1 + 3 * sizeof(uint32_t) + sizeof(double) + 2 * sizeof(uint32_t);
    const size_t per_edge = 4 * sizeof(uint32_t) + sizeof(double) + 1;
    return (size_t)rm->cap * per_vertex + (size_t)rm->cap_edges * per_edge +
           rm->open.capacity * sizeof(pb_pq_entry) + pb_nn_memory(rm->nn);
}

void pb_roadmap_emit(const pb_solve_ctx *ctx, const pb_roadmap *rm, uint32_t v, uint32_t other)
{
    if (!ctx->observer)
        return;
    pb_event ev = {
        .type = PB_EVENT_NODE_ADDED,
        .tree = 0,
        .node = v,
        .parent = other == PB_RM_NONE ? UINT32_MAX : other,
        .q = pb_roadmap_q(rm, v),
        .parent_q = other == PB_RM_NONE ? NULL : pb_roadmap_q(rm, other),
    };
    ctx->observer(&ev, ctx->observer_payload);
}

bool pb_roadmap_time_for_last_search(pb_solve_ctx *ctx, double search_s, uint32_t searched_n, uint32_t n)
{
    if (ctx->stop->reserve_at_check)
        return ctx->n_checks >= ctx->stop->reserve_at_check;
    const double limit = ctx->stop->time_limit_s;
    if (!(limit > 0.0) || searched_n == 0 || ctx->stop->first_solution)
        return false;
    const double estimate = 1.25 * search_s * (double)n / (double)searched_n;
    if (pb_solve_elapsed(ctx) + estimate < limit)
        return false;
    if (ctx->reserve_check == 0)
        ctx->reserve_check = ctx->n_checks;
    return true;
}
