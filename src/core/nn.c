/* Nearest neighbours: an incremental kd-tree with buckets and bounding boxes.
 *
 * Points live in fixed-size buckets (coordinates copied in, so a bucket scan reads one
 * contiguous block). A full bucket splits at the median of its widest coordinate. Every
 * node keeps the bounding box of its points; a search visits the nearer child first and
 * skips any node whose box is farther than the best found so far. The box distance honours
 * weights and wrapping coordinates, so the search is exact under the engine's metric. */
#include "core/nn.h"
#include "core/engine_private.h"
#include "core/grow.h"
#include "core/metric.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bucket capacity (points per leaf before it splits), measured with bench/bench_nn.c and
 * RRT on the OMPL maps (bench/RESULTS.md, session 11): in 2 and 3 dimensions the nearest
 * search scans whole padded buckets with independent distances, and 32 beats 16 from a few
 * hundred points on; above 3 the scan is per point and 16 stays the better size. */
#define BUCKET_LOW_DIM  32
#define BUCKET_HIGH_DIM 16
#define BUCKET_MAX      BUCKET_LOW_DIM
#define NONE            UINT32_MAX
/* The coordinates of a bucket's unused slots: infinitely far from any finite query, so the
 * nearest search may scan a bucket whole. */
#define PADDING HUGE_VAL

typedef struct bucket {
    uint32_t count;
    uint32_t next; /* overflow chain, only for buckets of identical points */
} bucket;

typedef struct kd_node {
    int32_t split_dim; /* -1 for a leaf */
    double split;      /* points with q[split_dim] < split go left */
    uint32_t child[2];
    uint32_t bucket; /* leaf: head of its bucket chain */
} kd_node;

struct pb_nn {
    int dim;
    bool linear;        /* scanning linearly now (below the crossover, or forced) */
    bool forced_linear; /* PB_NN_LINEAR or a black-box metric: never build the tree */
    size_t crossover;   /* size at which AUTO switches to the kd-tree */
    bool opaque;
    /* the engine's distance is exact but its weights give a lower bound: the tree prunes with
     * the bound and candidates are measured with the engine's distance (from the point to q) */
    bool bounded;
    bool any_period;
    bool unit_weights; /* every weight is 1: the hot 2D/3D search skips the multiplications */
    const pb_engine *engine;
    double weight[PB_MAX_DIM];
    double period[PB_MAX_DIM];
    size_t size;

    kd_node *nodes;
    double *box; /* per node: lower[dim] then upper[dim] */
    uint32_t n_nodes, cap_nodes;

    bucket *buckets;
    uint32_t bucket_size; /* BUCKET_LOW_DIM or BUCKET_HIGH_DIM */
    double *bq;           /* per bucket: bucket_size * dim coordinates */
    uint32_t *bid;        /* per bucket: bucket_size ids */
    uint32_t n_buckets, cap_buckets;

    /* linear mode */
    double *lq;
    uint32_t *lid;
    size_t cap_linear;
};

void pb_nn_hits_finish(pb_nn_hits *hits)
{
    free(hits->ids);
    free(hits->dists);
    memset(hits, 0, sizeof *hits);
}

pb_status pb_nn_create(pb_nn **out, const pb_engine *engine)
{
    pb_nn *nn = calloc(1, sizeof *nn);
    *out = nn;
    if (!nn)
        return PB_ERR_NOMEM;
    nn->dim = pb_engine_dim(engine);
    nn->bucket_size = nn->dim <= 3 ? BUCKET_LOW_DIM : BUCKET_HIGH_DIM;
    nn->engine = engine;
    nn->opaque = !pb_engine_metric(engine, nn->weight, nn->period);
    if (nn->opaque && pb_engine_metric_bound(engine, nn->weight, nn->period)) {
        nn->opaque = false;
        nn->bounded = true;
    }
    nn->forced_linear = nn->opaque;
    nn->crossover = pb_nn_crossover(nn->dim);
    nn->linear = nn->forced_linear || nn->crossover > 0;
    nn->unit_weights = true;
    for (int i = 0; i < nn->dim; i++) {
        nn->any_period |= nn->period[i] > 0.0;
        nn->unit_weights &= nn->weight[i] == 1.0;
    }
    return PB_OK;
}

void pb_nn_destroy(pb_nn *nn)
{
    if (!nn)
        return;
    free(nn->nodes);
    free(nn->box);
    free(nn->buckets);
    free(nn->bq);
    free(nn->bid);
    free(nn->lq);
    free(nn->lid);
    free(nn);
}

size_t pb_nn_crossover(int dim)
{
    /* Fastest of 7 rounds, uniform points, nearest queries (bench/bench_nn.c, bench/RESULTS.md):
     * up to 10 dimensions the tree wins from the first bucket (in 10, ties from 128 to 512
     * points); in 14 a scan wins by up to 20 % from 128 to 1024 points and the tree from 2048;
     * in 20 the scan wins from 64 points on, 3x at 100000. */
    if (dim <= 10)
        return 0;
    return dim <= 16 ? 2048 : SIZE_MAX;
}

void pb_nn_set_mode(pb_nn *nn, pb_nn_mode mode)
{
    nn->forced_linear = nn->opaque || mode == PB_NN_LINEAR;
    nn->crossover = mode == PB_NN_KDTREE ? 0 : pb_nn_crossover(nn->dim);
    nn->linear = nn->forced_linear || nn->crossover > 0;
}

void pb_nn_clear(pb_nn *nn)
{
    nn->size = 0;
    nn->n_nodes = 0;
    nn->n_buckets = 0;
    nn->linear = nn->forced_linear || nn->crossover > 0;
}

size_t pb_nn_size(const pb_nn *nn)
{
    return nn->size;
}

size_t pb_nn_memory(const pb_nn *nn)
{
    const size_t d = (size_t)nn->dim;
    return sizeof *nn + nn->cap_nodes * (sizeof(kd_node) + 2 * d * sizeof(double)) +
           nn->cap_buckets * (sizeof(bucket) + nn->bucket_size * (d * sizeof(double) + sizeof(uint32_t))) +
           nn->cap_linear * (d * sizeof(double) + sizeof(uint32_t));
}

/* Squared distance under the metric, without the square root. */
static inline double dist2(const pb_nn *nn, const double *a, const double *b)
{
    double sum = 0.0;
    if (!nn->any_period) {
        for (int i = 0; i < nn->dim; i++) {
            const double d = nn->weight[i] * (b[i] - a[i]);
            sum += d * d;
        }
    } else {
        for (int i = 0; i < nn->dim; i++) {
            const double d = nn->weight[i] * pb_coord_delta(a[i], b[i], nn->period[i]);
            sum += d * d;
        }
    }
    return sum;
}

/* A bounded metric's exact squared distance from point p to query q, measured only when the
 * bound says p could beat `limit` (else the bound itself, which is >= limit). */
static inline double bounded_d2(const pb_nn *nn, const double *q, const double *p, double limit)
{
    const double lb = dist2(nn, q, p);
    if (lb > limit)
        return lb;
    const double d = pb_engine_distance(nn->engine, p, q);
    return d * d;
}

double pb_nn_distance(const pb_nn *nn, const double *a, const double *b)
{
    if (nn->opaque || nn->bounded)
        return pb_engine_distance(nn->engine, a, b);
    return sqrt(dist2(nn, a, b));
}

/* Squared distance from q to the box of node `index` (a lower bound for its points). */
static inline double box_dist2(const pb_nn *nn, uint32_t index, const double *q)
{
    const double *lo = nn->box + (size_t)index * 2 * (size_t)nn->dim;
    const double *hi = lo + nn->dim;
    double sum = 0.0;
    for (int i = 0; i < nn->dim; i++) {
        double gap = 0.0;
        if (q[i] < lo[i])
            gap = lo[i] - q[i];
        else if (q[i] > hi[i])
            gap = q[i] - hi[i];
        if (gap > 0.0 && nn->period[i] > 0.0) {
            /* the other way round may be shorter */
            const double a = fabs(pb_coord_delta(q[i], lo[i], nn->period[i]));
            const double b = fabs(pb_coord_delta(q[i], hi[i], nn->period[i]));
            gap = a < b ? a : b;
        }
        gap *= nn->weight[i];
        sum += gap * gap;
    }
    return sum;
}

/* Fill the unused slots of bucket b with PADDING. */
static void pad_bucket(pb_nn *nn, uint32_t b)
{
    const size_t d = (size_t)nn->dim;
    double *p = nn->bq + (size_t)b * nn->bucket_size * d;
    for (size_t i = nn->buckets[b].count * d; i < nn->bucket_size * d; i++)
        p[i] = PADDING;
}

static uint32_t new_bucket(pb_nn *nn)
{
    if (nn->n_buckets == nn->cap_buckets) {
        const uint32_t cap = (uint32_t)pb_grow_capacity(nn->cap_buckets, (size_t)nn->cap_buckets + 1, 16, 1);
        const size_t old = nn->cap_buckets, d = (size_t)nn->dim, size = nn->bucket_size;
        bucket *buckets = pb_grow(nn->buckets, old * sizeof *buckets, cap * sizeof *buckets);
        if (!buckets)
            return NONE;
        nn->buckets = buckets;
        double *bq = pb_grow(nn->bq, old * size * d * sizeof *bq, (size_t)cap * size * d * sizeof *bq);
        if (!bq)
            return NONE;
        nn->bq = bq;
        uint32_t *bid = pb_grow(nn->bid, old * size * sizeof *bid, (size_t)cap * size * sizeof *bid);
        if (!bid)
            return NONE;
        nn->bid = bid;
        nn->cap_buckets = cap;
    }
    const uint32_t b = nn->n_buckets++;
    nn->buckets[b].count = 0;
    nn->buckets[b].next = NONE;
    pad_bucket(nn, b);
    return b;
}

static uint32_t new_node(pb_nn *nn)
{
    if (nn->n_nodes == nn->cap_nodes) {
        const uint32_t cap = (uint32_t)pb_grow_capacity(nn->cap_nodes, (size_t)nn->cap_nodes + 1, 16, 1);
        const size_t old = nn->cap_nodes, d = (size_t)nn->dim;
        kd_node *nodes = pb_grow(nn->nodes, old * sizeof *nodes, cap * sizeof *nodes);
        if (!nodes)
            return NONE;
        nn->nodes = nodes;
        double *box = pb_grow(nn->box, old * 2 * d * sizeof *box, (size_t)cap * 2 * d * sizeof *box);
        if (!box)
            return NONE;
        nn->box = box;
        nn->cap_nodes = cap;
    }
    const uint32_t n = nn->n_nodes++;
    nn->nodes[n].split_dim = -1;
    nn->nodes[n].bucket = NONE;
    return n;
}

/* Copy a configuration: a plain loop, since dims are small and a memcpy call costs more than
 * the copy in the hot insertion path. */
static inline void copy_q(double *dst, const double *src, int dim)
{
    for (int i = 0; i < dim; i++)
        dst[i] = src[i];
}

static void box_set_point(pb_nn *nn, uint32_t node, const double *q)
{
    double *lo = nn->box + (size_t)node * 2 * (size_t)nn->dim;
    copy_q(lo, q, nn->dim);
    copy_q(lo + nn->dim, q, nn->dim);
}

static void box_extend(pb_nn *nn, uint32_t node, const double *q)
{
    double *lo = nn->box + (size_t)node * 2 * (size_t)nn->dim;
    double *hi = lo + nn->dim;
    for (int i = 0; i < nn->dim; i++) { /* selects (minsd, maxsd), not branches */
        lo[i] = q[i] < lo[i] ? q[i] : lo[i];
        hi[i] = q[i] > hi[i] ? q[i] : hi[i];
    }
}

/* Append (id, q) to the leaf's head bucket, which must have room. */
static void bucket_push(pb_nn *nn, uint32_t b, uint32_t id, const double *q)
{
    const uint32_t k = nn->buckets[b].count++;
    copy_q(nn->bq + ((size_t)b * nn->bucket_size + k) * (size_t)nn->dim, q, nn->dim);
    nn->bid[(size_t)b * nn->bucket_size + k] = id;
}

/* Sort a bucket's worth of values (insertion sort: at most BUCKET_MAX of them). */
static void sort_small(double *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        const double x = v[i];
        uint32_t k = i;
        for (; k > 0 && v[k - 1] > x; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

/* Turn full leaf `leaf` into an internal node with two leaves. Returns false when its points
 * cannot be separated (all identical) or memory ran out: then the caller chains a bucket. */
static bool split_leaf(pb_nn *nn, uint32_t leaf)
{
    const int dim = nn->dim;
    const double *lo = nn->box + (size_t)leaf * 2 * (size_t)dim;
    const double *hi = lo + dim;
    int best = -1;
    double spread = 0.0;
    for (int i = 0; i < dim; i++) {
        const double s = (hi[i] - lo[i]) * nn->weight[i];
        if (s > spread) {
            spread = s;
            best = i;
        }
    }
    if (best < 0)
        return false;
    const uint32_t head = nn->nodes[leaf].bucket;
    if (nn->buckets[head].next != NONE)
        return false; /* a chain of identical points stays a chain */
    const uint32_t count = nn->buckets[head].count;
    double values[BUCKET_MAX] = {0}; /* count == bucket_size here; zeroes quiet -Wmaybe-uninitialized */
    for (uint32_t k = 0; k < count; k++)
        values[k] = nn->bq[((size_t)head * nn->bucket_size + k) * (size_t)dim + (size_t)best];
    sort_small(values, count);
    double split = values[count / 2];
    if (split <= values[0]) {
        /* many equal to the minimum: split just above it */
        uint32_t k = count / 2;
        while (k < count && values[k] <= values[0])
            k++;
        if (k == count)
            return false;
        split = values[k];
    }
    const uint32_t left = new_node(nn);
    const uint32_t right = left == NONE ? NONE : new_node(nn);
    const uint32_t right_bucket = right == NONE ? NONE : new_bucket(nn);
    if (right_bucket == NONE)
        return false;                  /* nodes allocated above are simply unused */
    const uint32_t left_bucket = head; /* reuse: compact in place */
    nn->nodes[left].bucket = left_bucket;
    nn->nodes[right].bucket = right_bucket;
    double tmp_q[BUCKET_MAX * PB_MAX_DIM];
    uint32_t tmp_id[BUCKET_MAX];
    memcpy(tmp_q, nn->bq + (size_t)head * nn->bucket_size * (size_t)dim,
           (size_t)count * (size_t)dim * sizeof(double));
    memcpy(tmp_id, nn->bid + (size_t)head * nn->bucket_size, count * sizeof(uint32_t));
    nn->buckets[left_bucket].count = 0;
    bool left_empty = true, right_empty = true;
    for (uint32_t k = 0; k < count; k++) {
        const double *q = tmp_q + (size_t)k * (size_t)dim;
        if (q[best] < split) {
            bucket_push(nn, left_bucket, tmp_id[k], q);
            if (left_empty)
                box_set_point(nn, left, q);
            else
                box_extend(nn, left, q);
            left_empty = false;
        } else {
            bucket_push(nn, right_bucket, tmp_id[k], q);
            if (right_empty)
                box_set_point(nn, right, q);
            else
                box_extend(nn, right, q);
            right_empty = false;
        }
    }
    pad_bucket(nn, left_bucket);
    kd_node *node = &nn->nodes[leaf];
    node->split_dim = best;
    node->split = split;
    node->child[0] = left;
    node->child[1] = right;
    node->bucket = NONE;
    return true;
}

static pb_status kd_add(pb_nn *nn, uint32_t id, const double *q);

pb_status pb_nn_add(pb_nn *nn, uint32_t id, const double *q)
{
    const size_t d = (size_t)nn->dim;
    if (!nn->linear) {
        pb_status st = kd_add(nn, id, q);
        if (st == PB_OK)
            nn->size++;
        return st;
    }
    {
        if (nn->size == nn->cap_linear) {
            const size_t cap = pb_grow_capacity(nn->cap_linear, nn->size + 1, 64, d * sizeof(double));
            double *lq = realloc(nn->lq, cap * d * sizeof(double));
            if (!lq)
                return PB_ERR_NOMEM;
            nn->lq = lq;
            uint32_t *lid = realloc(nn->lid, cap * sizeof(uint32_t));
            if (!lid)
                return PB_ERR_NOMEM;
            nn->lid = lid;
            nn->cap_linear = cap;
        }
        memcpy(nn->lq + nn->size * d, q, d * sizeof(double));
        nn->lid[nn->size++] = id;
    }
    if (!nn->forced_linear && nn->size >= nn->crossover) {
        /* the crossover is reached: build the tree from what the scan held */
        for (size_t i = 0; i < nn->size; i++) {
            if (kd_add(nn, nn->lid[i], nn->lq + i * d) != PB_OK) {
                nn->n_nodes = nn->n_buckets = 0; /* keep scanning: still correct */
                return PB_ERR_NOMEM;
            }
        }
        nn->linear = false;
    }
    return PB_OK;
}

static pb_status kd_add(pb_nn *nn, uint32_t id, const double *q)
{
    if (nn->n_nodes == 0) {
        const uint32_t root = new_node(nn);
        const uint32_t b = root == NONE ? NONE : new_bucket(nn);
        if (b == NONE)
            return PB_ERR_NOMEM;
        nn->nodes[root].bucket = b;
        box_set_point(nn, root, q);
    }
    uint32_t node = 0;
    for (;;) {
        box_extend(nn, node, q);
        const kd_node *n = &nn->nodes[node];
        if (n->split_dim >= 0) {
            node = n->child[q[n->split_dim] < n->split ? 0 : 1];
            continue;
        }
        uint32_t head = n->bucket;
        if (nn->buckets[head].count < nn->bucket_size) {
            bucket_push(nn, head, id, q);
            break;
        }
        if (split_leaf(nn, node))
            continue; /* descend into the new children */
        const uint32_t b = new_bucket(nn);
        if (b == NONE)
            return PB_ERR_NOMEM;
        nn->buckets[b].next = nn->nodes[node].bucket;
        nn->nodes[node].bucket = b;
        bucket_push(nn, b, id, q);
        break;
    }
    return PB_OK;
}

/* ---- searches ---- */

typedef struct knn_state {
    size_t k, n;
    uint32_t *ids;
    double *d2; /* sorted ascending */
} knn_state;

static inline double knn_bound(const knn_state *s)
{
    return s->n < s->k ? DBL_MAX : s->d2[s->n - 1];
}

static inline void knn_offer(knn_state *s, uint32_t id, double d2)
{
    if (s->n == s->k && !(d2 < s->d2[s->n - 1] || (d2 == s->d2[s->n - 1] && id < s->ids[s->n - 1])))
        return;
    size_t i = s->n < s->k ? s->n++ : s->n - 1;
    while (i > 0 && (s->d2[i - 1] > d2 || (s->d2[i - 1] == d2 && s->ids[i - 1] > id))) {
        s->d2[i] = s->d2[i - 1];
        s->ids[i] = s->ids[i - 1];
        i--;
    }
    s->d2[i] = d2;
    s->ids[i] = id;
}

static void knn_leaf(const pb_nn *nn, uint32_t b, const double *q, knn_state *s)
{
    const size_t d = (size_t)nn->dim;
    for (; b != NONE; b = nn->buckets[b].next) {
        const double *p = nn->bq + (size_t)b * nn->bucket_size * d;
        const uint32_t *ids = nn->bid + (size_t)b * nn->bucket_size;
        for (uint32_t k = 0; k < nn->buckets[b].count; k++)
            knn_offer(s, ids[k],
                      nn->bounded ? bounded_d2(nn, q, p + k * d, knn_bound(s)) : dist2(nn, q, p + k * d));
    }
}

static void knn_node(const pb_nn *nn, uint32_t node, const double *q, knn_state *s)
{
    const kd_node *n = &nn->nodes[node];
    if (n->split_dim < 0) {
        knn_leaf(nn, n->bucket, q, s);
        return;
    }
    const double b0 = box_dist2(nn, n->child[0], q);
    const double b1 = box_dist2(nn, n->child[1], q);
    const int first = b1 < b0;
    const double bf = first ? b1 : b0, bs = first ? b0 : b1;
    if (bf <= knn_bound(s))
        knn_node(nn, n->child[first], q, s);
    if (bs <= knn_bound(s))
        knn_node(nn, n->child[!first], q, s);
}

static double linear_d2(const pb_nn *nn, const double *q, size_t i)
{
    if (nn->bounded) {
        const double dd = pb_engine_distance(nn->engine, nn->lq + i * (size_t)nn->dim, q);
        return dd * dd;
    }
    if (nn->opaque) {
        const double dd = pb_engine_distance(nn->engine, q, nn->lq + i * (size_t)nn->dim);
        return dd * dd;
    }
    return dist2(nn, q, nn->lq + i * (size_t)nn->dim);
}

size_t pb_nn_knearest(const pb_nn *nn, const double *q, size_t k, uint32_t *ids, double *dists)
{
    if (k == 0 || nn->size == 0)
        return 0;
    knn_state s = {k, 0, ids, dists};
    if (nn->linear) {
        for (size_t i = 0; i < nn->size; i++)
            knn_offer(&s, nn->lid[i], linear_d2(nn, q, i));
    } else {
        knn_node(nn, 0, q, &s);
    }
    for (size_t i = 0; i < s.n; i++)
        dists[i] = sqrt(dists[i]);
    return s.n;
}

/* The nearest-point search, the planners' hot path: iterative (an explicit stack of pending
 * far children), specialised by the compiler for a constant `dim` and for metrics without
 * wrapping coordinates, which are what the 2D maps and most arms use. */
#define NEAREST_STACK 96

/* The least of a bucket's distances. In chunks of 8 (then `count` is a multiple of 8, the
 * padding making up the rest) as a tree of pairwise selects, which the compiler turns into
 * packed minimums; scanning whole chunks rather than whole buckets keeps small trees, whose
 * leaves are part full, from paying for 32 slots. */
#define CHUNK 8

static inline __attribute__((always_inline)) double bucket_min(const double *d2, uint32_t count, bool chunks)
{
    double least = DBL_MAX;
    if (chunks) {
        for (uint32_t c = 0; c < count; c += CHUNK) {
            double m[CHUNK / 2];
            for (int k = 0; k < CHUNK / 2; k++)
                m[k] = d2[c + k] < d2[c + k + CHUNK / 2] ? d2[c + k] : d2[c + k + CHUNK / 2];
            for (int w = CHUNK / 4; w > 0; w /= 2)
                for (int k = 0; k < w; k++)
                    m[k] = m[k] < m[k + w] ? m[k] : m[k + w];
            least = m[0] < least ? m[0] : least;
        }
        return least;
    }
    for (uint32_t k = 0; k < count; k++)
        least = d2[k] < least ? d2[k] : least;
    return least;
}

typedef struct nearest_state {
    double best_d2;
    uint32_t best_id;
} nearest_state;

static inline __attribute__((always_inline)) double box_gap2(const pb_nn *nn, uint32_t index, const double *q,
                                                             const int dim, const bool wrap, const bool unit)
{
    if (wrap)
        return box_dist2(nn, index, q);
    const double *lo = nn->box + (size_t)index * 2 * (size_t)dim;
    const double *hi = lo + dim;
    double sum = 0.0;
    for (int i = 0; i < dim; i++) {
        /* max(lo - q, q - hi, 0), written as selects (maxsd) rather than branches */
        const double below = lo[i] - q[i], above = q[i] - hi[i];
        const double outside = below > above ? below : above;
        const double gap = (0.0 > outside ? 0.0 : outside) * (unit ? 1.0 : nn->weight[i]);
        sum += gap * gap;
    }
    return sum;
}

static inline __attribute__((always_inline)) double
point_d2(const pb_nn *nn, const double *a, const double *b, const int dim, const bool wrap, const bool unit)
{
    if (wrap)
        return dist2(nn, a, b);
    double sum = 0.0;
    for (int i = 0; i < dim; i++) {
        const double d = (unit ? 1.0 : nn->weight[i]) * (b[i] - a[i]);
        sum += d * d;
    }
    return sum;
}

static inline __attribute__((always_inline)) void nearest_search(const pb_nn *nn, const double *q,
                                                                 nearest_state *s, const int dim,
                                                                 const bool wrap, const bool unit)
{
    const bool whole = !wrap && unit && dim <= 3; /* bucket_size is then BUCKET_LOW_DIM */
    uint32_t stack_node[NEAREST_STACK];
    double stack_bound[NEAREST_STACK];
    int top = 0;
    stack_node[top] = 0;
    stack_bound[top++] = 0.0;
    double best_d2 = s->best_d2; /* in registers for the search, stored once at the end */
    uint32_t best_id = s->best_id;
    while (top > 0) {
        top--;
        uint32_t node = stack_node[top];
        if (stack_bound[top] > best_d2)
            continue;
        for (;;) {
            const kd_node *n = &nn->nodes[node];
            if (n->split_dim < 0) {
                for (uint32_t b = n->bucket; b != NONE; b = nn->buckets[b].next) {
                    const double *p = nn->bq + (size_t)b * nn->bucket_size * (size_t)dim;
                    const uint32_t *ids = nn->bid + (size_t)b * nn->bucket_size;
                    /* Unused slots hold PADDING coordinates, so the 2-D and 3-D searches scan
                     * whole chunks of 8: short fixed loops the compiler unrolls. */
                    const uint32_t count = whole ? (nn->buckets[b].count + CHUNK - 1) & ~(uint32_t)(CHUNK - 1)
                                                 : nn->buckets[b].count;
                    double d2[BUCKET_MAX];
                    for (uint32_t k = 0; k < count; k++)
                        d2[k] = point_d2(nn, q, p + (size_t)k * (size_t)dim, dim, wrap, unit);
                    /* The distances are independent; only their minimum meets the running
                     * best, so the scan is not one long chain of dependent compares. Ties:
                     * the first point in the bucket that beats the best strictly, as a
                     * sequential scan would take. */
                    const double least = bucket_min(d2, count, whole);
                    if (least < best_d2) {
                        uint32_t k = 0;
                        while (d2[k] != least)
                            k++;
                        best_d2 = least;
                        best_id = ids[k];
                    }
                }
                break;
            }
            /* The child on q's side of the split is visited first, with no box test of its own
             * (the parent's bound already holds for it); only the far child's box is measured. */
            const int first = q[n->split_dim] >= n->split;
            const uint32_t near_child = n->child[first], far_child = n->child[!first];
            const double far_bound = box_gap2(nn, far_child, q, dim, wrap, unit);
            if (far_bound <= best_d2) {
                if (top < NEAREST_STACK) {
                    stack_node[top] = far_child;
                    stack_bound[top++] = far_bound;
                } else {
                    /* a pathologically deep tree: finish that branch with the general search */
                    uint32_t id = best_id; /* copies: best_* stay in registers */
                    double d2 = best_d2;
                    knn_state ks = {1, 1, &id, &d2};
                    knn_node(nn, far_child, q, &ks);
                    best_id = id;
                    best_d2 = d2;
                }
            }
            node = near_child;
        }
    }
    s->best_d2 = best_d2;
    s->best_id = best_id;
}

static void nearest_2d(const pb_nn *nn, const double *q, nearest_state *s)
{
    nearest_search(nn, q, s, 2, false, true);
}
static void nearest_3d(const pb_nn *nn, const double *q, nearest_state *s)
{
    nearest_search(nn, q, s, 3, false, true);
}
static void nearest_any(const pb_nn *nn, const double *q, nearest_state *s)
{
    nearest_search(nn, q, s, nn->dim, nn->any_period, false);
}

uint32_t pb_nn_nearest(const pb_nn *nn, const double *q, double *dist)
{
    if (nn->size == 0)
        return NONE;
    if (nn->linear || nn->bounded) {
        uint32_t id;
        double d;
        pb_nn_knearest(nn, q, 1, &id, &d);
        if (dist)
            *dist = d;
        return id;
    }
    nearest_state s = {DBL_MAX, NONE};
    if (nn->any_period)
        nearest_any(nn, q, &s);
    else if (nn->dim == 2 && nn->unit_weights)
        nearest_2d(nn, q, &s);
    else if (nn->dim == 3 && nn->unit_weights)
        nearest_3d(nn, q, &s);
    else
        nearest_any(nn, q, &s);
    if (dist)
        *dist = sqrt(s.best_d2);
    return s.best_id;
}

static bool hits_push(pb_nn_hits *h, uint32_t id, double d2)
{
    if (h->n == h->capacity) {
        const size_t cap = pb_grow_capacity(h->capacity, h->n + 1, 64, sizeof(double));
        uint32_t *ids = realloc(h->ids, cap * sizeof *ids);
        if (!ids)
            return false;
        h->ids = ids;
        double *ds = realloc(h->dists, cap * sizeof *ds);
        if (!ds)
            return false;
        h->dists = ds;
        h->capacity = cap;
    }
    h->ids[h->n] = id;
    h->dists[h->n] = d2;
    h->n++;
    return true;
}

static bool radius_node(const pb_nn *nn, uint32_t node, const double *q, double r2, pb_nn_hits *h)
{
    if (box_dist2(nn, node, q) > r2)
        return true;
    const kd_node *n = &nn->nodes[node];
    if (n->split_dim >= 0)
        return radius_node(nn, n->child[0], q, r2, h) && radius_node(nn, n->child[1], q, r2, h);
    const size_t d = (size_t)nn->dim;
    for (uint32_t b = n->bucket; b != NONE; b = nn->buckets[b].next) {
        const double *p = nn->bq + (size_t)b * nn->bucket_size * d;
        const uint32_t *ids = nn->bid + (size_t)b * nn->bucket_size;
        for (uint32_t k = 0; k < nn->buckets[b].count; k++) {
            const double d2 = nn->bounded ? bounded_d2(nn, q, p + k * d, r2) : dist2(nn, q, p + k * d);
            if (d2 <= r2 && !hits_push(h, ids[k], d2))
                return false;
        }
    }
    return true;
}

/* Sort hits by (distance, id) in place, allocation-free: radius queries run inside planning
 * loops. Insertion sort for short runs, quicksort (median of three) above. */
static inline bool hit_less(const pb_nn_hits *h, size_t a, size_t b)
{
    return h->dists[a] < h->dists[b] || (h->dists[a] == h->dists[b] && h->ids[a] < h->ids[b]);
}

static inline void hit_swap(pb_nn_hits *h, size_t a, size_t b)
{
    const double d = h->dists[a];
    h->dists[a] = h->dists[b];
    h->dists[b] = d;
    const uint32_t id = h->ids[a];
    h->ids[a] = h->ids[b];
    h->ids[b] = id;
}

static void sort_hits_range(pb_nn_hits *h, size_t lo, size_t hi) /* [lo, hi) */
{
    while (hi - lo > 24) {
        const size_t mid = lo + (hi - lo) / 2, last = hi - 1;
        if (hit_less(h, mid, lo))
            hit_swap(h, mid, lo);
        if (hit_less(h, last, lo))
            hit_swap(h, last, lo);
        if (hit_less(h, last, mid))
            hit_swap(h, last, mid);
        hit_swap(h, mid, last - 1); /* pivot at last - 1 */
        const size_t pivot = last - 1;
        size_t i = lo, j = pivot;
        for (;;) {
            while (hit_less(h, ++i, pivot)) {
            }
            while (hit_less(h, pivot, --j)) {
            }
            if (i >= j)
                break;
            hit_swap(h, i, j);
        }
        hit_swap(h, i, pivot);
        /* recurse into the smaller part, loop on the larger: O(log n) stack */
        if (i - lo < hi - i - 1) {
            sort_hits_range(h, lo, i);
            lo = i + 1;
        } else {
            sort_hits_range(h, i + 1, hi);
            hi = i;
        }
    }
    for (size_t i = lo + 1; i < hi; i++)
        for (size_t k = i; k > lo && hit_less(h, k, k - 1); k--)
            hit_swap(h, k, k - 1);
}

pb_status pb_nn_radius(const pb_nn *nn, const double *q, double radius, pb_nn_hits *hits)
{
    hits->n = 0;
    if (nn->size == 0 || !(radius >= 0.0))
        return PB_OK;
    const double r2 = radius * radius;
    if (nn->linear) {
        for (size_t i = 0; i < nn->size; i++) {
            const double d2 = linear_d2(nn, q, i);
            if (d2 <= r2 && !hits_push(hits, nn->lid[i], d2))
                return PB_ERR_NOMEM;
        }
    } else if (!radius_node(nn, 0, q, r2, hits)) {
        return PB_ERR_NOMEM;
    }
    sort_hits_range(hits, 0, hits->n);
    for (size_t i = 0; i < hits->n; i++)
        hits->dists[i] = sqrt(hits->dists[i]);
    return PB_OK;
}
