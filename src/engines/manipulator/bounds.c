/* The manipulator engine's cheap bounds, which settle most collision queries without FCL:
 * signed distances of boxes, cylinders and spheres to a point, the bound of a sphere-tree
 * leaf against an obstacle and the touch test of a link shape against an obstacle; between
 * two link shapes (self pairs), closest points of segments and triangles, the best-first
 * descent of two sphere trees (shape_pair_bound), support functions and separating axes
 * (pair_axis_bound), and pair_collides; the thread's query counters. Calls no other part of
 * the engine (only manipulator_model.h's inline helpers). */
#include "engines/manipulator/manipulator_model.h"

#include <math.h>
#include <string.h>

/* ---- sphere bounds ----
 *
 * Every robot shape carries a tree of spheres (built at load, build_sphere_tree): each leaf
 * contains one small piece of the shape (a triangle of the mesh, split until its longest
 * edge is short, or a cell of a box or cylinder), each inner sphere contains its two
 * children. The obstacles of MotionBenchMaker and most worlds are boxes, cylinders and
 * spheres, whose signed distance to a point is a formula, and a convex function. So
 * min over leaves of (distance of the centre to the obstacle - radius) is a lower bound on
 * the true clearance, found by a descent (shape_obstacle_bound() in edge_check.c,
 * manip_shape_obstacle_touch() here) that skips every subtree already farther than
 * what the caller needs, nearer child first; at a leaf the tangent plane of the signed
 * distance gives a tighter one (exact for a piece facing a face; pieces near an edge or a
 * corner are split again, refine_triangle). Two links: spheres, then the gap of two pieces
 * along the line between their centres. A piece with a point inside an obstacle proves a
 * contact. FCL is asked only where the bounds are too small to decide: a possible contact
 * within TOUCH, or a clearance below what they resolve (sphere_near). Mesh obstacles are
 * only bounding spheres here: FCL does their work as before. */

/* This thread's counts of queries (pb_manipulator_get_counts()). */
__attribute__((visibility("hidden"))) _Thread_local manip_counts manip_query_counts;

/* Signed distance (metres, negative inside) from world point p to obstacle o; for meshes,
 * to its bounding sphere, which is a lower bound. With `gradient`, also a subgradient there
 * (world frame): the signed distance to a convex set is a convex function, so
 * sd(x) >= sd(p) + gradient . (x - p) for every x. */
double manip_obstacle_signed_distance(const obstacle_bound *o, const double *p, double *gradient)
{
    double d[3];
    if (!obstacle_is_exact(o) || o->type == PB_SHAPE_SPHERE) {
        const double *c = o->type == PB_SHAPE_SPHERE ? o->t : o->center;
        const double radius = o->type == PB_SHAPE_SPHERE ? o->half[0] : o->radius;
        for (int i = 0; i < 3; i++)
            d[i] = p[i] - c[i];
        const double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (gradient)
            for (int i = 0; i < 3; i++)
                gradient[i] = n > 0.0 ? d[i] / n : 0.0; /* 0 is a subgradient at the centre */
        return n - radius;
    }
    for (int i = 0; i < 3; i++)
        d[i] = p[i] - o->t[i];
    double q[3]; /* in the obstacle's frame: the transpose of its rotation */
    for (int i = 0; i < 3; i++)
        q[i] = o->r[i] * d[0] + o->r[3 + i] * d[1] + o->r[6 + i] * d[2];
    double e[3], g[3] = {0.0, 0.0, 0.0}, sd;
    if (o->type == PB_SHAPE_BOX) {
        double outside = 0.0, inside = -HUGE_VAL;
        int nearest = 0;
        for (int i = 0; i < 3; i++) {
            e[i] = fabs(q[i]) - o->half[i];
            if (e[i] > 0.0)
                outside += e[i] * e[i];
            if (e[i] > inside)
                inside = e[i], nearest = i;
        }
        if (outside > 0.0) {
            sd = sqrt(outside);
            for (int i = 0; i < 3; i++)
                g[i] = e[i] > 0.0 ? copysign(e[i] / sd, q[i]) : 0.0;
        } else {
            sd = inside;
            g[nearest] = copysign(1.0, q[nearest]);
        }
    } else {
        const double radial = sqrt(q[0] * q[0] + q[1] * q[1]);
        e[0] = radial - o->half[0];
        e[1] = fabs(q[2]) - o->half[1];
        const double u0 = radial > 0.0 ? q[0] / radial : 0.0, u1 = radial > 0.0 ? q[1] / radial : 0.0;
        if (e[0] > 0.0 || e[1] > 0.0) {
            const double a = max2(e[0], 0.0), z = max2(e[1], 0.0);
            sd = sqrt(a * a + z * z);
            g[0] = a / sd * u0;
            g[1] = a / sd * u1;
            g[2] = copysign(z / sd, q[2]);
        } else if (e[0] > e[1]) {
            sd = e[0];
            g[0] = u0;
            g[1] = u1;
        } else {
            sd = e[1];
            g[2] = copysign(1.0, q[2]);
        }
    }
    if (gradient)
        for (int i = 0; i < 3; i++)
            gradient[i] = o->r[3 * i] * g[0] + o->r[3 * i + 1] * g[1] + o->r[3 * i + 2] * g[2];
    return sd;
}

/* The convexity bound for the hull of k points x (world) about point c (its signed
 * distance sd and subgradient g): the signed distance over the hull is at least
 * sd + min over the points of g . (x - c) (a linear function is least at a corner). */
static double linear_bound(const double *x, int k, const double *c, double sd, const double *g)
{
    double lowest = 0.0;
    for (int i = 0; i < k; i++)
        lowest = min2(lowest,
                      g[0] * (x[3 * i] - c[0]) + g[1] * (x[3 * i + 1] - c[1]) + g[2] * (x[3 * i + 2] - c[2]));
    return sd + lowest - 1e-9; /* rounding of the products: a hair less is still a bound */
}

/* Depth of the triangle refinement below: 4^REFINE_DEPTH pieces at most. */
#define REFINE_DEPTH 3

/* A lower bound on the distance from triangle t (world) to obstacle o, from its four
 * midpoint pieces, each refined again while its bound is below `target` (near an edge or
 * a corner of the obstacle the signed distance bends, and the bound over a whole triangle
 * is poor). */
static double refine_triangle(const obstacle_bound *o, const double *t, double target, int depth,
                              bool *inside)
{
    double mid[9];
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < 3; i++)
            mid[3 * v + i] = 0.5 * (t[3 * v + i] + t[3 * ((v + 1) % 3) + i]);
    /* pieces: each corner with the two midpoints beside it, and the middle one */
    const double *pieces[4][3] = {{&t[0], &mid[0], &mid[6]},
                                  {&t[3], &mid[3], &mid[0]},
                                  {&t[6], &mid[6], &mid[3]},
                                  {&mid[0], &mid[3], &mid[6]}};
    double lowest = HUGE_VAL;
    for (int p = 0; p < 4; p++) {
        double x[9], c[3] = {0.0, 0.0, 0.0}, g[3];
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < 3; i++) {
                x[3 * v + i] = pieces[p][v][i];
                c[i] += x[3 * v + i] / 3.0;
            }
        const double sd = manip_obstacle_signed_distance(o, c, g);
        if (sd <= 0.0) { /* c is a point of the triangle, inside the obstacle */
            *inside = true;
            return 0.0;
        }
        double bound = linear_bound(x, 3, c, sd, g);
        if (bound < target && depth > 1) {
            bound = max2(bound, refine_triangle(o, x, target, depth - 1, inside));
            if (*inside)
                return 0.0;
        }
        lowest = min2(lowest, bound);
    }
    return lowest;
}

/* A lower bound on the distance from leaf `node` (its piece of the shape: the hull of its
 * points) to obstacle o, given sd, the signed distance of its centre c (world), and the
 * subgradient g there: by convexity (linear_bound), exact for a flat piece facing a face,
 * where the sphere bound loses the sphere's radius; triangles still below `target` are
 * refined. *inside: a point of the piece lies inside the obstacle (exact obstacles only):
 * a sure contact. */
double manip_leaf_obstacle_bound(const manipulator *m, const sphere_node *node, const pb_pose *pose,
                                 const obstacle_bound *o, const double *c, double sd, const double *g,
                                 double target, bool *inside)
{
    double bound = sd - node->r;
    if (node->n_points == 0)
        return bound;
    double x[24];
    const double *points = &m->leaf_points[3 * (size_t)node->points];
    for (int k = 0; k < node->n_points; k++)
        transform_point(pose, &points[3 * k], &x[3 * k]);
    bound = max2(bound, linear_bound(x, node->n_points, c, sd, g));
    if (bound <= 0.0 && obstacle_is_exact(o) && node->on_shape)
        for (int k = 0; k < node->n_points; k++)
            if (obstacle_distance(o, &x[3 * k]) <= 0.0) {
                *inside = true;
                return 0.0;
            }
    if (bound < target && node->n_points == 3 && obstacle_is_exact(o)) {
        bound = max2(bound, refine_triangle(o, x, target, REFINE_DEPTH, inside));
        if (*inside)
            return 0.0;
    }
    return bound;
}

/* Does shape s at `pose` touch obstacle o, as far as the sphere tree tells? Every leaf that
 * may touch is visited, so that one with a point inside the obstacle proves a contact. */
touch manip_shape_obstacle_touch(const manipulator *m, size_t s, const pb_pose *pose, size_t o)
{
    const robot_shape *shape = &m->shapes[s];
    const obstacle_bound *ob = &m->obstacle_bounds[o];
    const bool exact = obstacle_is_exact(ob);
    int32_t stack[TREE_STACK];
    int n = 0;
    stack[n++] = shape->tree;
    bool maybe = false, inside = false;
    manip_query_counts.bound_queries++;
    double rc[3];
    transform_point(pose, m->nodes[shape->tree].c, rc);
    if (spheres_apart(rc, m->nodes[shape->tree].r, ob, TOUCH))
        return TOUCH_NO;
    if (!exact) /* see shape_obstacle_bound() (edge_check.c) */
        return obstacle_distance(ob, rc) - m->nodes[shape->tree].r >= TOUCH ? TOUCH_NO : TOUCH_MAYBE;
    while (n > 0) {
        const sphere_node *node = &m->nodes[stack[--n]];
        double c[3], g[3];
        transform_point(pose, node->c, c);
        const double sd =
            node->left < 0 ? manip_obstacle_signed_distance(ob, c, g) : obstacle_distance(ob, c);
        if (sd - node->r >= TOUCH)
            continue;
        if (exact && sd + node->r <= 0.0)
            return TOUCH_YES;
        if (node->left < 0) {
            if (manip_leaf_obstacle_bound(m, node, pose, ob, c, sd, g, TOUCH, &inside) < TOUCH)
                maybe = true;
            if (inside)
                return TOUCH_YES;
        } else if (n + 2 > TREE_STACK) {
            maybe = true;
        } else {
            stack[n++] = node->right;
            stack[n++] = node->left;
        }
    }
    return maybe ? TOUCH_MAYBE : TOUCH_NO;
}

/* ---- self pairs ---- */

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
