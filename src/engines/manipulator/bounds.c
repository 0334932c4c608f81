/* The manipulator engine's cheap bounds of a robot shape against an obstacle: signed
 * distances of boxes, cylinders and spheres, the sphere-tree descent (shape_obstacle_bound),
 * the touch test that settles most collision checks without FCL, and the thread's query
 * counters. Calls no other part of the engine (only manipulator_model.h's inline helpers). */
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
 * the true clearance, found by a descent that skips every subtree already farther than
 * what the caller needs, nearer child first; at a leaf the tangent plane of the signed
 * distance gives a tighter one (exact for a piece facing a face; pieces near an edge or a
 * corner are split again, refine_triangle). Two links: spheres, then the gap of two pieces
 * along the line between their centres. A piece with a point inside an obstacle proves a
 * contact. FCL is asked only where the bounds are too small to decide: a possible contact
 * within TOUCH, or a clearance below what they resolve (sphere_near). Mesh obstacles are
 * only bounding spheres here: FCL does their work as before. */

/* This thread's counts of queries (pb_manipulator_get_counts()). */
_Thread_local manip_counts manip_query_counts;

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
static double leaf_obstacle_bound(const manipulator *m, const sphere_node *node, const pb_pose *pose,
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

/* A node of a descent, with its centre (world) and the signed distance there. */
typedef struct node_visit {
    int32_t node;
    double c[3];
    double sd;
} node_visit;

static node_visit visit(const manipulator *m, int32_t node, const pb_pose *pose, const obstacle_bound *o)
{
    node_visit v;
    v.node = node;
    transform_point(pose, m->nodes[node].c, v.c);
    v.sd = obstacle_distance(o, v.c);
    return v;
}

/* Are a shape's root sphere (centre c, world, radius r) and obstacle o's bounding sphere at
 * least `gap` apart? The broad phase: no rotation, no square root. */
static bool spheres_apart(const double *c, double r, const obstacle_bound *o, double gap)
{
    const double dx = c[0] - o->center[0], dy = c[1] - o->center[1], dz = c[2] - o->center[2];
    const double reach = r + o->radius + gap;
    return dx * dx + dy * dy + dz * dz >= reach * reach;
}

/* A lower bound on the distance from `shape` at `pose` to obstacle o, or `cap` when the
 * distance is at least `cap`. As soon as some leaf is nearer than `floor` it returns that
 * leaf's bound, which is then only a sign that the distance may be below `floor` (other
 * leaves may be nearer still), not a bound. *inside is set (and 0 returned) when part of
 * the shape lies inside the obstacle: a sure contact. */
double manip_shape_obstacle_bound(const manipulator *m, const robot_shape *shape, const pb_pose *pose,
                                  const obstacle_bound *o, double cap, double floor, bool *inside)
{
    const bool exact = obstacle_is_exact(o);
    node_visit stack[TREE_STACK];
    int n = 0;
    manip_query_counts.bound_queries++;
    double rc[3];
    transform_point(pose, m->nodes[shape->tree].c, rc);
    if (spheres_apart(rc, m->nodes[shape->tree].r, o, max2(cap, 0.0)))
        return cap;
    stack[n].node = shape->tree;
    memcpy(stack[n].c, rc, sizeof rc);
    stack[n++].sd = obstacle_distance(o, rc);
    double best = cap;
    /* a mesh obstacle is only its bounding sphere here, which the robot is often inside of
     * (a terrain, a table): only the root is worth testing, FCL does the rest */
    if (!exact)
        return min2(cap, stack[0].sd - m->nodes[stack[0].node].r);
    while (n > 0) {
        const node_visit at = stack[--n];
        const sphere_node *node = &m->nodes[at.node];
        const double b = at.sd - node->r;
        if (b >= best)
            continue;
        if (exact && at.sd + node->r <= 0.0) {
            *inside = true;
            return 0.0;
        }
        if (node->left < 0) {
            double g[3];
            manip_obstacle_signed_distance(o, at.c, g);
            /* refined only where FCL would be asked otherwise */
            const double bound =
                leaf_obstacle_bound(m, node, pose, o, at.c, at.sd, g, min2(best, floor), inside);
            if (*inside)
                return 0.0;
            if (bound >= best)
                continue;
            best = bound;
            if (best < floor)
                return best;
            continue;
        }
        if (n + 2 > TREE_STACK) {
            best = b;
            if (best < floor)
                return best;
            continue;
        }
        /* the nearer child first: its leaves lower `best` soonest, which prunes the other */
        const node_visit l = visit(m, node->left, pose, o), r = visit(m, node->right, pose, o);
        const double bl = l.sd - m->nodes[l.node].r, br = r.sd - m->nodes[r.node].r;
        const node_visit *first = bl <= br ? &l : &r, *second = bl <= br ? &r : &l;
        if ((bl <= br ? br : bl) < best)
            stack[n++] = *second;
        if ((bl <= br ? bl : br) < best)
            stack[n++] = *first;
    }
    return best;
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
    if (!exact) /* see manip_shape_obstacle_bound() */
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
            if (leaf_obstacle_bound(m, node, pose, ob, c, sd, g, TOUCH, &inside) < TOUCH)
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

/* The same, settled by FCL where the tree cannot tell. */
bool manip_shape_obstacle_collides(const manipulator *m, size_t s, const pb_pose *pose, size_t o)
{
    const touch answer = manip_shape_obstacle_touch(m, s, pose, o);
    if (answer != TOUCH_MAYBE)
        return answer == TOUCH_YES;
    const robot_shape *shape = &m->shapes[s];
    manip_query_counts.fcl_collide++;
    return pbf_collide(shape->geometry, pose->r, pose->t, m->obstacles[o], m->obstacle_poses[o].r,
                       m->obstacle_poses[o].t);
}
