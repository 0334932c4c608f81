/* The manipulator engine's cheap bounds between two link shapes of the robot (self pairs):
 * closest points of segments and triangles, the best-first descent of two sphere trees
 * (shape_pair_bound), support functions and separating axes (pair_axis_bound), and
 * pair_collides. See bounds.c for the sphere trees against obstacles. Calls bounds.c (the
 * query counters) only. */
#include "engines/manipulator/manipulator_model.h"

#include <math.h>
#include <string.h>

static inline double clamp01(double x)
{
    return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* The closest points of segments p + s d1 and q + t d2 (s, t in [0, 1]) into x and y
 * (Ericson, Real-Time Collision Detection 5.1.9). */
static void segment_closest(const double *p, const double *d1, const double *q, const double *d2, double *x,
                            double *y)
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = p[i] - q[i];
    const double a = dot3(d1, d1), e = dot3(d2, d2), f = dot3(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 1e-30 && e <= 1e-30) {
        s = t = 0.0;
    } else if (a <= 1e-30) {
        t = clamp01(f / e);
    } else {
        const double c = dot3(d1, r);
        if (e <= 1e-30) {
            s = clamp01(-c / a);
        } else {
            const double b = dot3(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0)
                t = 0.0, s = clamp01(-c / a);
            else if (t > 1.0)
                t = 1.0, s = clamp01((b - c) / a);
        }
    }
    for (int i = 0; i < 3; i++) {
        x[i] = p[i] + s * d1[i];
        y[i] = q[i] + t * d2[i];
    }
}

/* The point of triangle t (9 coordinates) closest to p, into x (Ericson 5.1.5). */
static void triangle_closest(const double *p, const double *t, double *x)
{
    const double *a = &t[0], *b = &t[3], *c = &t[6];
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i], ac[i] = c[i] - a[i], ap[i] = p[i] - a[i];
        bp[i] = p[i] - b[i], cp[i] = p[i] - c[i];
    }
    const double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        memcpy(x, a, 3 * sizeof *x);
        return;
    }
    const double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) {
        memcpy(x, b, 3 * sizeof *x);
        return;
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        const double v = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++)
            x[i] = a[i] + v * ab[i];
        return;
    }
    const double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) {
        memcpy(x, c, 3 * sizeof *x);
        return;
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        const double w = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++)
            x[i] = a[i] + w * ac[i];
        return;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
        const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++)
            x[i] = b[i] + w * (c[i] - b[i]);
        return;
    }
    const double sum = va + vb + vc;
    if (!(sum > 0.0)) { /* a degenerate triangle: any of its points will do */
        memcpy(x, a, 3 * sizeof *x);
        return;
    }
    const double v = vb / sum, w = vc / sum;
    for (int i = 0; i < 3; i++)
        x[i] = a[i] + v * ab[i] + w * ac[i];
}

/* The gap between the hulls of points x (k of them) and y (l) along unit axis u: a lower
 * bound on their distance whatever u is (a separating axis). */
static double axis_gap(const double *u, const double *x, int k, const double *y, int l)
{
    double top = -HUGE_VAL, low = HUGE_VAL;
    for (int i = 0; i < k; i++)
        top = max2(top, dot3(u, &x[3 * i]));
    for (int i = 0; i < l; i++)
        low = min2(low, dot3(u, &y[3 * i]));
    return low - top - 1e-9; /* rounding of the products: a hair less is still a bound */
}

/* A lower bound on the distance of triangles a and b (world), exact when they are apart:
 * the nearest of the 15 candidate point pairs (edge-edge, vertex-face) gives the axis, and
 * the gap along it is a bound whatever the candidates' rounding (axis_gap()). */
static double triangle_gap(const double *a, const double *b)
{
    double ea[9], eb[9], x[3], y[3], best[3] = {0.0, 0.0, 0.0}, best2 = HUGE_VAL;
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < 3; i++) {
            ea[3 * v + i] = a[3 * ((v + 1) % 3) + i] - a[3 * v + i];
            eb[3 * v + i] = b[3 * ((v + 1) % 3) + i] - b[3 * v + i];
        }
#define CANDIDATE()                                                                                          \
    do {                                                                                                     \
        const double d[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};                                         \
        const double d2 = dot3(d, d);                                                                        \
        if (d2 < best2)                                                                                      \
            best2 = d2, memcpy(best, d, sizeof best);                                                        \
    } while (0)
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            segment_closest(&a[3 * i], &ea[3 * i], &b[3 * j], &eb[3 * j], x, y);
            CANDIDATE();
        }
    for (int v = 0; v < 3; v++) {
        memcpy(x, &a[3 * v], sizeof x);
        triangle_closest(x, b, y);
        CANDIDATE();
        memcpy(y, &b[3 * v], sizeof y);
        triangle_closest(y, a, x);
        CANDIDATE();
    }
#undef CANDIDATE
    const double length = sqrt(best2);
    if (!(length > 1e-12))
        return 0.0;
    const double u[3] = {best[0] / length, best[1] / length, best[2] / length};
    return axis_gap(u, a, 3, b, 3);
}

/* A pair of nodes in the best-first pair descent, keyed by a lower bound on its distance. */
typedef struct node_pair {
    double bound;
    int32_t a, b;
    bool exact; /* two leaves whose bound is already their pieces' (pair_leaf_bound()) */
} node_pair;

static void heap_push(node_pair *heap, int *n, node_pair item)
{
    int i = (*n)++;
    while (i > 0) {
        const int parent = (i - 1) / 2;
        if (heap[parent].bound <= item.bound)
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = item;
}

static node_pair heap_pop(node_pair *heap, int *n)
{
    const node_pair top = heap[0], last = heap[--*n];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= *n)
            break;
        if (child + 1 < *n && heap[child + 1].bound < heap[child].bound)
            child++;
        if (heap[child].bound >= last.bound)
            break;
        heap[i] = heap[child];
        i = child;
    }
    if (*n > 0)
        heap[i] = last;
    return top;
}

/* The distance bound of two leaves (their pieces, the hulls of their points) at least
 * `bound` (their spheres'): two triangles, their exact distance (triangle_gap()); else the
 * gap along the line between the centres (ca, cb). */
static double pair_leaf_bound(const manipulator *m, const sphere_node *na, const pb_pose *pa,
                              const sphere_node *nb, const pb_pose *pb, const double *ca, const double *cb,
                              double bound)
{
    if (na->n_points == 0 || nb->n_points == 0)
        return bound;
    double x[24], y[24];
    for (int k = 0; k < na->n_points; k++)
        transform_point(pa, &m->leaf_points[3 * ((size_t)na->points + (size_t)k)], &x[3 * k]);
    for (int k = 0; k < nb->n_points; k++)
        transform_point(pb, &m->leaf_points[3 * ((size_t)nb->points + (size_t)k)], &y[3 * k]);
    if (na->n_points == 3 && nb->n_points == 3)
        return max2(bound, triangle_gap(x, y));
    const double dx = cb[0] - ca[0], dy = cb[1] - ca[1], dz = cb[2] - ca[2];
    const double centres = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(centres > 0.0))
        return bound;
    const double u[3] = {dx / centres, dy / centres, dz / centres};
    return max2(bound, axis_gap(u, x, na->n_points, y, nb->n_points));
}

/* The same for two robot shapes: a lower bound on their distance, or `cap`; below `floor`
 * only a sign, as above. Best first: the node pair with the lowest bound is opened next, so
 * the lowest bound in the queue is a bound on the whole distance at every step, and rises
 * as the descent goes on. Two links close along much of their length have many pairs of
 * pieces about equally near: after PAIR_BUDGET node pairs the descent stops with that
 * bound (looser than the exact one, but not by much), and the caller asks FCL only if it
 * is too small. */
double manip_shape_pair_bound(const manipulator *m, const robot_shape *sa, const pb_pose *pa,
                              const robot_shape *sb, const pb_pose *pb, double cap, double floor, int budget)
{
    node_pair heap[PAIR_BUDGET + 4];
    int n = 0;
    manip_query_counts.bound_queries++;
    {
        const sphere_node *ra = &m->nodes[sa->tree], *rb = &m->nodes[sb->tree];
        double ca[3], cb[3];
        transform_point(pa, ra->c, ca);
        transform_point(pb, rb->c, cb);
        const double dx = ca[0] - cb[0], dy = ca[1] - cb[1], dz = ca[2] - cb[2];
        const double reach = cap + ra->r + rb->r;
        if (cap > 0.0 && dx * dx + dy * dy + dz * dz >= reach * reach) /* the broad phase */
            return cap;
    }
    heap_push(heap, &n, (node_pair){-HUGE_VAL, sa->tree, sb->tree, false});
    for (; n > 0; budget--) {
        if (heap[0].bound >= cap)
            return cap;
        if (budget <= 0)
            return heap[0].bound;
        const node_pair at = heap_pop(heap, &n);
        if (at.exact) /* every other pair is at least as far */
            return at.bound;
        const sphere_node *na = &m->nodes[at.a], *nb = &m->nodes[at.b];
        if (na->left < 0 && nb->left < 0) {
            double ca[3], cb[3];
            transform_point(pa, na->c, ca);
            transform_point(pb, nb->c, cb);
            const double bound = pair_leaf_bound(m, na, pa, nb, pb, ca, cb, at.bound);
            if (bound < floor)
                return bound;
            heap_push(heap, &n, (node_pair){bound, at.a, at.b, true});
            continue;
        }
        /* open the larger sphere */
        const bool open_a = na->left >= 0 && (nb->left < 0 || na->r >= nb->r);
        const int32_t kids[2][2] = {{open_a ? na->left : at.a, open_a ? at.b : nb->left},
                                    {open_a ? na->right : at.a, open_a ? at.b : nb->right}};
        for (int k = 0; k < 2; k++) {
            const sphere_node *ka = &m->nodes[kids[k][0]], *kb = &m->nodes[kids[k][1]];
            double ca[3], cb[3];
            transform_point(pa, ka->c, ca);
            transform_point(pb, kb->c, cb);
            const double dx = ca[0] - cb[0], dy = ca[1] - cb[1], dz = ca[2] - cb[2];
            const double bound = max2(at.bound, sqrt(dx * dx + dy * dy + dz * dz) - ka->r - kb->r);
            if (bound < cap)
                heap_push(heap, &n, (node_pair){bound, kids[k][0], kids[k][1], false});
        }
    }
    return cap;
}

/* The support of a shape along unit axis u (shape frame): an upper bound on u . x over its
 * points x (exact over its pieces' hulls), the point reaching it into *arg. Branch and bound
 * on the sphere tree: a node reaches at most u . c + r. */
static double tree_support(const manipulator *m, int32_t root, const double *u, double *arg)
{
    int32_t stack[TREE_STACK];
    int n = 0;
    stack[n++] = root;
    double best = -HUGE_VAL;
    memcpy(arg, m->nodes[root].c, 3 * sizeof *arg);
    while (n > 0) {
        const sphere_node *node = &m->nodes[stack[--n]];
        const double top = dot3(u, node->c) + node->r;
        if (top <= best)
            continue;
        if (node->left < 0 && node->n_points > 0) {
            const double *points = &m->leaf_points[3 * (size_t)node->points];
            for (int k = 0; k < node->n_points; k++) {
                const double v = dot3(u, &points[3 * k]);
                if (v > best)
                    best = v, memcpy(arg, &points[3 * k], 3 * sizeof *arg);
            }
        } else if (node->left < 0 || n + 2 > TREE_STACK) {
            best = top;
            for (int i = 0; i < 3; i++)
                arg[i] = node->c[i] + node->r * u[i];
        } else {
            const sphere_node *l = &m->nodes[node->left], *r = &m->nodes[node->right];
            const bool left_first = dot3(u, l->c) + l->r >= dot3(u, r->c) + r->r;
            stack[n++] = left_first ? node->right : node->left;
            stack[n++] = left_first ? node->left : node->right;
        }
    }
    return best;
}

/* The support of `shape` along unit axis u (shape frame): its vertices when a mesh (a
 * scan), else its sphere tree. */
static double shape_support(const manipulator *m, const robot_shape *shape, const double *u, double *arg)
{
    if (!shape->vertices)
        return tree_support(m, shape->tree, u, arg);
    double best = -HUGE_VAL;
    size_t at = 0;
    for (size_t k = 0; k < shape->n_vertices; k++) {
        const double v = dot3(u, &shape->vertices[3 * k]);
        if (v > best)
            best = v, at = k;
    }
    memcpy(arg, &shape->vertices[3 * at], 3 * sizeof *arg);
    return best;
}

/* Separating axes of self pairs, per thread: the last one found for each pair, in the
 * frame of the pair's first shape. Consecutive queries of a pair see nearly the same
 * relative pose, where the same axis nearly separates as well as the best one. Only a
 * starting guess: any axis gives a bound (manip_pair_axis_bound()). */
#define AXIS_CACHE 1024
typedef struct cached_axis {
    const manipulator *m;
    size_t pair;
    double u[3];
} cached_axis;
static _Thread_local cached_axis axis_cache[AXIS_CACHE];

/* Iterations of manip_pair_axis_bound(): each takes the line between the last support points. */
#define AXIS_ROUNDS 8

/* A lower bound on the distance of self pair p (shapes sa at pa, sb at pb): the gap between
 * their supports along an axis (the hulls of the trees' pieces are apart by at least that
 * along any unit axis), the best of a few axes, starting from the cached one. It stops at
 * the first axis whose gap reaches `enough`: the caller needs no more, and the cached axis
 * mostly does (bench_mbm bookshelf_thin:89: 7 rounds a call on average without the stop). */
double manip_pair_axis_bound(const manipulator *m, size_t p, const robot_shape *sa, const pb_pose *pa,
                             const robot_shape *sb, const pb_pose *pb, double enough)
{
    cached_axis *cache = &axis_cache[p % AXIS_CACHE];
    double u[3];
    if (cache->m == m && cache->pair == p) {
        transform_point(&(pb_pose){.r = {pa->r[0], pa->r[1], pa->r[2], pa->r[3], pa->r[4], pa->r[5], pa->r[6],
                                         pa->r[7], pa->r[8]}},
                        cache->u, u);
    } else {
        double ca[3], cb[3];
        transform_point(pa, m->nodes[sa->tree].c, ca);
        transform_point(pb, m->nodes[sb->tree].c, cb);
        for (int i = 0; i < 3; i++)
            u[i] = cb[i] - ca[i];
    }
    /* Frank-Wolfe on the Minkowski difference B - A: v, a point of it, moves towards the
     * origin along the segment to the support point w of -v; the gap along v is v . w / |v| */
    double best = -HUGE_VAL, best_u[3] = {0.0, 0.0, 0.0}, v[3];
    bool have_v = false;
    for (int round = 0; round < AXIS_ROUNDS; round++) {
        const double length = sqrt(dot3(u, u));
        if (!(length > 1e-12))
            break;
        for (int i = 0; i < 3; i++)
            u[i] /= length;
        /* the axis in each shape's frame: R^T u, and -R^T u for b */
        double ua[3], ub[3], xa[3], xb[3], wa[3], wb[3];
        for (int i = 0; i < 3; i++) {
            ua[i] = pa->r[i] * u[0] + pa->r[3 + i] * u[1] + pa->r[6 + i] * u[2];
            ub[i] = -(pb->r[i] * u[0] + pb->r[3 + i] * u[1] + pb->r[6 + i] * u[2]);
        }
        const double top_a = shape_support(m, sa, ua, xa) + dot3(u, pa->t);
        const double low_b = -shape_support(m, sb, ub, xb) + dot3(u, pb->t);
        const double gap = low_b - top_a - 1e-9 * (1.0 + fabs(top_a) + fabs(low_b));
        if (gap > best) {
            best = gap;
            memcpy(best_u, u, sizeof u);
            if (best >= enough)
                break;
        }
        transform_point(pa, xa, wa);
        transform_point(pb, xb, wb);
        double w[3];
        for (int i = 0; i < 3; i++)
            w[i] = wb[i] - wa[i];
        if (!have_v) {
            memcpy(v, w, sizeof v);
            have_v = true;
        } else {
            double step[3];
            for (int i = 0; i < 3; i++)
                step[i] = w[i] - v[i];
            const double s2 = dot3(step, step);
            const double lambda = s2 > 0.0 ? clamp01(-dot3(v, step) / s2) : 0.0;
            for (int i = 0; i < 3; i++)
                v[i] += lambda * step[i];
        }
        if (sqrt(dot3(v, v)) - best < 1e-4) /* within 0.1 mm of the distance */
            break;
        memcpy(u, v, sizeof u);
    }
    if (best > -HUGE_VAL) {
        cache->m = m;
        cache->pair = p;
        for (int i = 0; i < 3; i++) /* R^T u: the axis in a's frame */
            cache->u[i] = pa->r[i] * best_u[0] + pa->r[3 + i] * best_u[1] + pa->r[6 + i] * best_u[2];
    }
    return best;
}

bool manip_pair_collides(const manipulator *m, const pb_pose *poses, size_t p)
{
    const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
    const robot_shape *sa = &m->shapes[a], *sb = &m->shapes[b];
    if (manip_shape_pair_bound(m, sa, &poses[a], sb, &poses[b], TOUCH, TOUCH, PAIR_BUDGET) >= TOUCH)
        return false;
    if (manip_pair_axis_bound(m, p, sa, &poses[a], sb, &poses[b], TOUCH) >= TOUCH)
        return false;
    manip_query_counts.fcl_collide++;
    return pbf_collide(sa->geometry, poses[a].r, poses[a].t, sb->geometry, poses[b].r, poses[b].t);
}
