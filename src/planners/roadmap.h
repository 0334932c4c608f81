/* Roadmaps for the PRM family (private to the library): vertices in flat arrays, undirected
 * edges as pairs of half-edges in growable flat arrays (uint32 indices, no per-vertex
 * allocation), a nearest-neighbour structure over the vertices, union-find connectivity, and
 * an A* shortest-path search under the engine's metric. Shared by prm.c and lazyprm.c; the
 * priority queue is also used by bitstar.c. */
#ifndef PB_PLANNERS_ROADMAP_H
#define PB_PLANNERS_ROADMAP_H

#include "core/nn.h"
#include "planbench/impl/planner_impl.h"

#define PB_RM_NONE UINT32_MAX

/** State of an edge. PRM* adds only VALID edges; lazy PRM adds UNCHECKED ones and marks them
 * VALID or INVALID when a candidate path reaches them. INVALID edges are never searched. */
typedef enum pb_rm_edge_state { PB_RM_UNCHECKED, PB_RM_VALID, PB_RM_INVALID } pb_rm_edge_state;
/** Vertex states share the first two values; a dead vertex is never searched. */
#define PB_RM_DEAD 2

/** A min-priority queue of (key, tie, a, b) entries, ordered by key then tie. Growable flat
 * array, caller storage (zero-initialise, pb_pq_finish). */
typedef struct pb_pq_entry {
    double key;
    double tie;
    uint32_t a, b;
} pb_pq_entry;

typedef struct pb_pq {
    pb_pq_entry *e;
    size_t n, capacity;
} pb_pq;

/** Push; PB_ERR_NOMEM when the array cannot grow. */
pb_status pb_pq_push(pb_pq *pq, double key, double tie, uint32_t a, uint32_t b);
/** Pop the smallest entry into `*out`; false when empty. */
bool pb_pq_pop(pb_pq *pq, pb_pq_entry *out);
/** The smallest entry, NULL when empty (borrowed until the next push or pop). */
static inline const pb_pq_entry *pb_pq_top(const pb_pq *pq)
{
    return pq->n ? &pq->e[0] : NULL;
}
void pb_pq_finish(pb_pq *pq);

typedef struct pb_roadmap {
    int dim;
    const pb_engine *engine;
    /* vertices */
    uint32_t n, cap;
    double *q;      /**< n * dim */
    uint8_t *alive; /**< PB_RM_DEAD, PB_RM_UNCHECKED (the default) or PB_RM_VALID: see kill */
    uint32_t *head; /**< first half-edge of the vertex, PB_RM_NONE when none */
    uint32_t *uf;   /**< union-find parent (over edges added, valid or not yet checked) */
    pb_nn *nn;
    /* edges: edge e is half-edges 2e (from a) and 2e+1 (from b) */
    uint32_t n_edges, cap_edges;
    uint32_t *to;   /**< per half-edge: the vertex it leads to */
    uint32_t *next; /**< per half-edge: next half-edge of the same vertex */
    double *length; /**< per edge: metric length */
    uint8_t *state; /**< per edge: pb_rm_edge_state */
    uint32_t n_valid_edges;
    /* A* scratch, sized with the vertices */
    double *g;
    uint32_t *came_edge; /**< half-edge used to reach the vertex, PB_RM_NONE for the source */
    uint32_t *stamp;     /**< search number that last touched the vertex */
    uint32_t search;
    pb_pq open;
    uint32_t n_expanded; /**< vertices the last A* expanded */
    /* an exact cost-to-go, a heuristic for later searches while edges only disappear
     * (pb_roadmap_exact_heuristic); adding a vertex or an edge invalidates it */
    double *h;
    bool h_valid;
    uint32_t h_target;
    /* batched k-nearest (pb_roadmap_near_batch): possible when the metric is a weighted
     * Euclidean one without wrapping coordinates */
    bool batchable;
    double weight[PB_MAX_DIM];
} pb_roadmap;

/** The parameters PRM* and lazy PRM share (their whole parameter table,
 * pb_roadmap_param_defs). */
typedef struct pb_roadmap_params {
    double k_factor; /**< scale of the connection rule (pb_roadmap_k, pb_roadmap_radius) */
    bool use_radius; /**< connect within the radius instead of to the k nearest */
    int batch_knn;   /**< -1 batch where measured faster, 0 never, 1 always */
} pb_roadmap_params;

#define PB_ROADMAP_N_PARAMS 3
extern const pb_param_def pb_roadmap_param_defs[PB_ROADMAP_N_PARAMS];

/** Samples per batch when the k-nearest candidates come from one distance matrix (GEMM wins
 * from 16 queries on, bench/RESULTS.md "Batched k-NN"). */
#define PB_ROADMAP_BATCH 64

/** Draw the samples of a batch for a planner that has just checked its stop condition: at
 * most PB_ROADMAP_BATCH, in the order the one-at-a-time loop draws them (one iteration each,
 * observer events included), keeping only feasible ones when `feasible_only`, and stopping
 * early where that loop would stop (counting the kept samples as vertices). Fills `pending`
 * (PB_ROADMAP_BATCH * dim values) and `drawn_at` (the iteration of each kept sample), advances
 * *iterations, returns how many were kept. */
size_t pb_roadmap_draw_batch(pb_solve_ctx *ctx, const pb_roadmap *rm, bool feasible_only, bool have_solution,
                             double *pending, uint64_t *drawn_at, uint64_t *iterations);

/** Connection candidates of a batch of configurations about to be added in order (see
 * pb_roadmap_near_batch). Caller storage: zero-initialise, pb_roadmap_batch_finish. */
typedef struct pb_roadmap_batch {
    size_t n;      /**< configurations in the batch */
    size_t k;      /**< row length of ids and dists */
    uint32_t *ids; /**< row i: sample i's candidates, nearest first */
    double *dists; /**< row i: their distances */
    size_t *count; /**< row i: how many candidates */
    size_t capacity_rows, capacity_k;
} pb_roadmap_batch;

void pb_roadmap_batch_finish(pb_roadmap_batch *batch);

/** Make an empty roadmap for `engine` (borrowed, must outlive the roadmap). */
pb_status pb_roadmap_init(pb_roadmap *rm, const pb_engine *engine);
void pb_roadmap_finish(pb_roadmap *rm);
static inline const double *pb_roadmap_q(const pb_roadmap *rm, uint32_t v)
{
    return rm->q + (size_t)v * (size_t)rm->dim;
}
/** Add a vertex at `q` (copied); returns its index, PB_RM_NONE when memory ran out. */
uint32_t pb_roadmap_add_vertex(pb_roadmap *rm, const double *q);
/** Add the undirected edge a–b of metric length `length` in `state` (merges the components);
 * returns its index, PB_RM_NONE when memory ran out. */
uint32_t pb_roadmap_add_edge(pb_roadmap *rm, uint32_t a, uint32_t b, double length, pb_rm_edge_state state);
/** Mark vertex `v` dead: it and its edges are skipped from now on. */
void pb_roadmap_kill_vertex(pb_roadmap *rm, uint32_t v);
/** Union-find representative of `v`'s component (components only ever merge: for lazy PRM,
 * whose edges may later prove invalid, "same component" is necessary, not sufficient, for a
 * path to exist). */
uint32_t pb_roadmap_component(pb_roadmap *rm, uint32_t v);

/** Connection candidates for a new configuration `q` (before it is added): its k-nearest live
 * vertices (k = pb_roadmap_k(n + 1, dim, factor)) or, with `use_radius`, every live vertex
 * within pb_roadmap_radius(n + 1, factor), nearest first, into `out` (caller-owned, grown as
 * needed, pb_nn_hits_finish). */
pb_status pb_roadmap_near(pb_roadmap *rm, const double *q, bool use_radius, double factor, pb_nn_hits *out);

/** Should `n_samples` new configurations get their k-nearest candidates in one batch
 * (pb_roadmap_near_batch, a GEMM distance matrix through OpenBLAS) rather than one kd-tree
 * query each? `mode` 0 never, 1 whenever the metric allows it, -1 (the planners' default) by
 * the measured crossover, pb_nn_batch_beats_kdtree(): with BLAS, in 7 or more dimensions. */
bool pb_roadmap_batch_pays(const pb_roadmap *rm, size_t n_samples, int mode);

/** The k-nearest rule of pb_roadmap_near for `n_samples` configurations (row-major) that will
 * be added in this order: row i of `out` holds the k = pb_roadmap_k(rm->n + i + 1) nearest of
 * the current vertices and samples 0..i-1 (as ids rm->n + j), nearest first, ties by index.
 * One pb_nn_batch_knn against the current vertices plus an exact scan within the batch. Dead
 * vertices are still in the rows: pb_roadmap_batch_live() drops them when the row is used,
 * after which the row is exactly what pb_roadmap_near would return at that moment. Only when
 * rm->batchable. */
pb_status pb_roadmap_near_batch(pb_roadmap *rm, const double *samples, size_t n_samples, double factor,
                                pb_roadmap_batch *out);

/** Drop the vertices dead by now from row i of `batch`; returns the row's new length. */
size_t pb_roadmap_batch_live(const pb_roadmap *rm, pb_roadmap_batch *batch, size_t i);

/** Number of neighbours PRM* connects a new vertex to among `n` vertices in dimension `dim`:
 * ceil(factor * e * (1 + 1/dim) * ln n), Karaman & Frazzoli's k_PRM* (at least 1). */
size_t pb_roadmap_k(size_t n, int dim, double factor);
/** PRM*'s connection radius among `n` vertices: factor * gamma * (ln n / n)^(1/dim) with
 * gamma = 2 (1 + 1/dim)^(1/dim) (volume / unit-ball volume)^(1/dim), Karaman & Frazzoli's
 * gamma_PRM*, with the volume of the engine's bounds as the (upper bound of the) free volume. */
double pb_roadmap_radius(const pb_engine *engine, size_t n, double factor);

/** Exact cost from every vertex to `target` over live vertices and non-INVALID edges
 * (Dijkstra; INFINITY where unreachable), kept as a heuristic for pb_roadmap_astar towards
 * `target` until a vertex or an edge is added. Removing edges or vertices only makes costs
 * grow, so it stays admissible and consistent (every remaining edge still satisfies the
 * triangle inequality it satisfied when computed): lazy PRM's repair loop, which only
 * removes, searches again and again with it instead of with the straight-line distance,
 * which in a maze bounds almost nothing. PB_ERR_NOMEM when the queue cannot grow. */
pb_status pb_roadmap_exact_heuristic(pb_roadmap *rm, uint32_t target);

/** A* from `source` to `target` over live vertices and non-INVALID edges, with the metric
 * distance to `target` as the (consistent) heuristic, or its maximum with the exact cost of
 * pb_roadmap_exact_heuristic while that is valid. Returns true and sets `*cost` when a
 * path exists; then pb_roadmap_path_edges() walks it. Fails only by running out of memory
 * (`*status`). */
bool pb_roadmap_astar(pb_roadmap *rm, uint32_t source, uint32_t target, double *cost, pb_status *status);
/** After a successful pb_roadmap_astar: the half-edges of the path, from `target` back to the
 * source, into `out` (room for rm->n entries); returns how many. */
size_t pb_roadmap_path_edges(const pb_roadmap *rm, uint32_t target, uint32_t *out);
/** After a successful pb_roadmap_astar: replace `path` with the path's configurations, source
 * first. */
pb_status pb_roadmap_path(const pb_roadmap *rm, uint32_t target, pb_path *path);
/** Time for the last search of a time budget (issue 22: the search after the stop ran past
 * the budget, 12.5 s of a 10 s one): a search of the roadmap at `n` vertices is taken to cost
 * what the previous one did at `searched_n`, scaled by n / searched_n, with a quarter to spare.
 * True when the budget's remaining time no longer holds that: stop growing, so the last search
 * ends within the budget (forest.png, 3 s: lazy PRM ended at 3.41 s before, 2.6-2.9 s now, with
 * 43-50k vertices against 56k; PRM* at 2.7-3.01 s). The decision counts as a budget's end
 * (pb_result.reserve_check, at the budget check just made); a replay takes it at that check
 * (pb_stop_config.reserve_at_check) instead of reading the clock. */
bool pb_roadmap_time_for_last_search(pb_solve_ctx *ctx, double search_s, uint32_t searched_n, uint32_t n);

/** Bytes held by the roadmap. */
size_t pb_roadmap_memory(const pb_roadmap *rm);

/** Emit PB_EVENT_NODE_ADDED for vertex `v` (tree 0, parent UINT32_MAX) when `other` is
 * PB_RM_NONE, else for the edge v–other (tree 0, node v, parent = the other endpoint). */
void pb_roadmap_emit(const pb_solve_ctx *ctx, const pb_roadmap *rm, uint32_t v, uint32_t other);

#endif
