/* The manipulator engine: configurations are joint vectors of a robot described in URDF,
 * checked for collision with FCL against a world's obstacles and against the robot itself.
 *
 * C-space: one coordinate per active joint (the world's planning group, its joint list, or
 * every movable non-mimic joint of the URDF in file order), bounded by the joint limits;
 * continuous joints span [-pi, pi) and wrap (period 2 pi). Other movable joints are held at
 * 0 (or the limit nearest 0); mimic joints follow the joint they mimic.
 *
 * feasible(q): inside the limits, no link shape touches an obstacle, and no two link shapes
 * touch, except pairs that cannot matter or are excluded: shapes of one rigid body (links
 * joined by fixed joints), of adjacent bodies (one joint apart), SRDF <disable_collisions>
 * pairs. Shape pairs whose relative pose is the same in every configuration (and link
 * shapes that never move, against obstacles) are checked once when the engine loads:
 * overlapping ones are a load error, the rest are never checked again. The answers are
 * FCL's on the exact meshes; cheap conservative bounds settle most of them first (see
 * "sphere bounds" below): every link shape carries a tree of spheres that contain all of
 * it, and boxes, cylinders and spheres have formulas for their distance to a point, so a
 * shape far from an obstacle, or with a piece inside it, costs no FCL query.
 *
 * visible(a, b), certified (the default): conservative advancement. At load, every shape
 * gets a bound on how far any of its points moves per radian (metre) of each coordinate,
 * from bounding spheres and the joint axes (compute_sweep). Along an edge, a configuration
 * whose moving shapes are at distance d from the obstacles and from each other certifies
 * the stretch of edge within which no point moves d; the rest is split breadth-first at
 * midpoints, so a collision mid-edge is found in a few queries. The distances are lower
 * bounds from the sphere trees (and a convexity bound on each piece, see
 * leaf_obstacle_bound), FCL distance queries only where those are too small to decide.
 * Near a contact (clearance below edge_tolerance, PB_MANIPULATOR_EDGE_TOLERANCE = 0.1 mm)
 * configurations are checked exactly at that spacing. Unlike a fixed resolution, this
 * misses no thin obstacle and takes long steps far from everything.
 * visible(a, b), interpolated (edge_check=interpolated): configurations at most `resolution`
 * apart under the metric, in bisection order, stopping at the first collision; default
 * PB_MANIPULATOR_DEFAULT_RESOLUTION = 0.05 rad. Used to re-check paths independently.
 *
 * distance: joint-space Euclidean, optionally weighted per joint (option weights=...),
 * continuous joints the short way round. */
#include "engines/manipulator/manipulator.h"
#include "engines/manipulator/fcl_shim.h"
#include "engines/manipulator/objects.h"
#include "io/mesh.h"
#include "io/world.h"
#include "checkers/interpolate.h"
#include "core/metric.h"
#include "planbench/impl/engine_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHAPES 512

/* One node of a shape's sphere tree: a sphere, in the shape frame, that contains every
 * point of the node's part of the shape (see build_sphere_tree). A leaf holds one piece,
 * the convex hull of its n_points points. */
typedef struct sphere_node {
    double c[3];
    double r;
    int32_t left, right; /* children (indices into manipulator.nodes); -1 for a leaf */
    int32_t points;      /* leaf: its first point in manipulator.leaf_points */
    int16_t n_points;    /* leaf: how many (0: only the sphere is known) */
    int16_t on_shape;    /* leaf: the points are points of the shape (a cell of a cylinder's
                          * bounding box reaches past it: its corners may not be) */
} sphere_node;

typedef struct robot_shape {
    pbf_geometry *geometry;
    pbf_geometry *hull; /* meshes: their convex hull, for fast distance bounds; else NULL */
    int link;
    int rigid_group;  /* shapes of one group never move relative to each other */
    pb_pose origin;   /* in the link frame */
    double center[3]; /* bounding sphere in the shape frame */
    double radius;
    int32_t tree;     /* root of its sphere tree in manipulator.nodes */
    double *vertices; /* meshes: their vertices (shape frame), for support queries; else NULL */
    size_t n_vertices;
} robot_shape;

/* An obstacle as the cheap bounds see it: boxes, cylinders and spheres have exact signed
 * distances; anything else (meshes) only its bounding sphere, which bounds its distance
 * from below but never proves a contact. */
typedef struct obstacle_bound {
    pb_shape_type type;
    double half[3];    /* box: half extents; cylinder: radius, half length; sphere: radius */
    double r[9], t[3]; /* its pose: a local point p is at r p + t */
    double center[3];  /* bounding sphere, world frame */
    double radius;
} obstacle_bound;

typedef struct manipulator {
    pb_robot robot;
    int dim;
    int joint_of[PB_MAX_DIM];
    bool wraps[PB_MAX_DIM];
    double lower[PB_MAX_DIM], upper[PB_MAX_DIM];
    int *coord_of; /* per joint: its coordinate, -1 when none */
    double *held;  /* per joint: its value when it has no coordinate */
    pb_pose base;
    robot_shape *shapes;
    size_t n_shapes;
    bool *shape_moves; /* relative to the world */
    uint32_t (*pairs)[2];
    size_t n_pairs;
    pbf_geometry **obstacles;
    pb_pose *obstacle_poses;
    char **obstacle_names;
    obstacle_bound *obstacle_bounds;
    size_t n_obstacles;
    /* the world's obstacles come first and are owned here; the dynamic objects (objects.c)
     * follow them, their geometries and names borrowed from `objects` */
    size_t n_static_obstacles;
    manipulator_objects *objects;
    sphere_node *nodes; /* every shape's sphere tree */
    size_t n_nodes, cap_nodes;
    double *leaf_points; /* 3 coordinates each, shape frame */
    size_t n_leaf_points, cap_leaf_points;
    /* the edge check */
    bool certified;        /* conservative advancement (default) or interpolated states */
    double edge_tolerance; /* certified: metres, see PB_MANIPULATOR_EDGE_TOLERANCE */
    double resolution;     /* interpolated: spacing under the weighted metric */
    double prefilter;      /* certified: spacing of the plain checks first (0: none) */
    double weights[PB_MAX_DIM];
    double periods[PB_MAX_DIM];
    /* sweep[s * dim + i]: no point of shape s moves more than sweep[s * dim + i] * |dq_i|
     * metres when coordinate i alone changes by dq_i (any configuration of the others) */
    double *sweep;
    double *pair_sweep; /* the same for the relative motion of self pair p */
    /* certified: FCL distances are asked only where the sphere trees certify less than
     * sphere_trust times the distance needed and less than sphere_near metres */
    double sphere_trust, sphere_near;
} manipulator;

/* gcc makes fmin() and fmax() library calls (for their NaN rules), which showed in profiles
 * of the bounds below; these are one instruction, and no NaN reaches them. */
static inline double min2(double a, double b)
{
    return a < b ? a : b;
}

static inline double max2(double a, double b)
{
    return a > b ? a : b;
}

/* ---- kinematics ---- */

static double base_value(const manipulator *m, const double *q, int j)
{
    const int c = m->coord_of[j];
    return c >= 0 ? q[c] : m->held[j];
}

static double joint_value(const manipulator *m, const double *q, int j)
{
    const pb_urdf_joint *joint = &m->robot.joints[j];
    if (joint->mimic >= 0)
        return joint->mimic_multiplier * base_value(m, q, joint->mimic) + joint->mimic_offset;
    return base_value(m, q, j);
}

/* The joint's own motion by `value`: a rotation about or a translation along its axis. */
static pb_pose joint_motion(const pb_urdf_joint *joint, double value)
{
    pb_pose p = pb_pose_identity();
    const double *a = joint->axis;
    if (joint->type == PB_JOINT_PRISMATIC) {
        for (int i = 0; i < 3; i++)
            p.t[i] = a[i] * value;
        return p;
    }
    const double c = cos(value), s = sin(value), v = 1.0 - c;
    p.r[0] = c + a[0] * a[0] * v;
    p.r[1] = a[0] * a[1] * v - a[2] * s;
    p.r[2] = a[0] * a[2] * v + a[1] * s;
    p.r[3] = a[1] * a[0] * v + a[2] * s;
    p.r[4] = c + a[1] * a[1] * v;
    p.r[5] = a[1] * a[2] * v - a[0] * s;
    p.r[6] = a[2] * a[0] * v - a[1] * s;
    p.r[7] = a[2] * a[1] * v + a[0] * s;
    p.r[8] = c + a[2] * a[2] * v;
    return p;
}

static void forward_kinematics(const manipulator *m, const double *q, pb_pose *poses)
{
    const pb_robot *robot = &m->robot;
    poses[robot->root] = m->base;
    for (size_t k = 1; k < robot->n_links; k++) {
        const int link = robot->order[k];
        const int j = robot->links[link].parent_joint;
        const pb_urdf_joint *joint = &robot->joints[j];
        pb_pose frame = pb_pose_mul(&poses[joint->parent], &joint->origin);
        if (joint->type == PB_JOINT_FIXED) {
            poses[link] = frame;
        } else {
            const pb_pose motion = joint_motion(joint, joint_value(m, q, j));
            poses[link] = pb_pose_mul(&frame, &motion);
        }
    }
}

static bool in_limits(const manipulator *m, const double *q)
{
    for (int i = 0; i < m->dim; i++) {
        if (m->wraps[i] ? !isfinite(q[i]) : !(q[i] >= m->lower[i] && q[i] <= m->upper[i]))
            return false;
    }
    return true;
}

/* World poses of every shape at q. */
static void shape_poses(const manipulator *m, const double *q, pb_pose *out)
{
    pb_pose links[PB_MANIPULATOR_MAX_LINKS];
    forward_kinematics(m, q, links);
    for (size_t s = 0; s < m->n_shapes; s++)
        out[s] = pb_pose_mul(&links[m->shapes[s].link], &m->shapes[s].origin);
}

static void transform_point(const pb_pose *pose, const double *p, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = pose->r[3 * i] * p[0] + pose->r[3 * i + 1] * p[1] + pose->r[3 * i + 2] * p[2] + pose->t[i];
}

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
static _Thread_local pb_manipulator_counts query_counts;

/* Below this (metres) a bound proves nothing and FCL decides: FCL's collision checks count
 * shapes less than about 1e-6 m apart as touching (GJK's tolerance), and feasible() must
 * give FCL's answers exactly. */
#define TOUCH 1e-5

/* Deepest descent of a sphere tree query; deeper subtrees are bounded by their own sphere. */
#define TREE_STACK 128

/* The certified check asks FCL for a distance only where the sphere trees certify less than
 * SPHERE_TRUST times the distance needed and less than SPHERE_NEAR metres: farther out, a
 * shorter step certified by the bounds is cheaper than an exact query (bench_mbm on the
 * cage problems: 1 mm asked FCL a third less often than 3 mm, and far less than 2 cm, for
 * the same or less planning time). */
#define SPHERE_TRUST 0.5
#define SPHERE_NEAR  0.001

static bool obstacle_is_exact(const obstacle_bound *o)
{
    return o->type == PB_SHAPE_BOX || o->type == PB_SHAPE_CYLINDER || o->type == PB_SHAPE_SPHERE;
}

static double obstacle_signed_distance(const obstacle_bound *o, const double *p, double *gradient);

/* obstacle_signed_distance() without the gradient: the descents' inner loop, most often
 * against a box. */
static inline double obstacle_distance(const obstacle_bound *o, const double *p)
{
    const double d0 = p[0] - o->t[0], d1 = p[1] - o->t[1], d2 = p[2] - o->t[2];
    if (o->type == PB_SHAPE_BOX) {
        const double e0 = fabs(o->r[0] * d0 + o->r[3] * d1 + o->r[6] * d2) - o->half[0];
        const double e1 = fabs(o->r[1] * d0 + o->r[4] * d1 + o->r[7] * d2) - o->half[1];
        const double e2 = fabs(o->r[2] * d0 + o->r[5] * d1 + o->r[8] * d2) - o->half[2];
        const double a0 = max2(e0, 0.0), a1 = max2(e1, 0.0), a2 = max2(e2, 0.0);
        const double outside = a0 * a0 + a1 * a1 + a2 * a2;
        return outside > 0.0 ? sqrt(outside) : max2(e0, max2(e1, e2));
    }
    return obstacle_signed_distance(o, p, NULL);
}

/* Signed distance (metres, negative inside) from world point p to obstacle o; for meshes,
 * to its bounding sphere, which is a lower bound. With `gradient`, also a subgradient there
 * (world frame): the signed distance to a convex set is a convex function, so
 * sd(x) >= sd(p) + gradient . (x - p) for every x. */
static double obstacle_signed_distance(const obstacle_bound *o, const double *p, double *gradient)
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
        const double sd = obstacle_signed_distance(o, c, g);
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
static double shape_obstacle_bound(const manipulator *m, const robot_shape *shape, const pb_pose *pose,
                                   const obstacle_bound *o, double cap, double floor, bool *inside)
{
    const bool exact = obstacle_is_exact(o);
    node_visit stack[TREE_STACK];
    int n = 0;
    query_counts.bound_queries++;
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
            obstacle_signed_distance(o, at.c, g);
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

/* Node pairs a self-pair query opens at most before it tries a separating axis
 * (pair_axis_bound(), and then FCL): two links close along much of their length have many
 * pairs of pieces about equally near, which the axis settles far sooner (bench_mbm
 * bookshelf_thin:89: 8 to 16 took the least time, 256 half as much again). */
#define PAIR_BUDGET 16

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

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
static double shape_pair_bound(const manipulator *m, const robot_shape *sa, const pb_pose *pa,
                               const robot_shape *sb, const pb_pose *pb, double cap, double floor, int budget)
{
    node_pair heap[PAIR_BUDGET + 4];
    int n = 0;
    query_counts.bound_queries++;
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
 * starting guess: any axis gives a bound (pair_axis_bound()). */
#define AXIS_CACHE 1024
typedef struct cached_axis {
    const manipulator *m;
    size_t pair;
    double u[3];
} cached_axis;
static _Thread_local cached_axis axis_cache[AXIS_CACHE];

/* Iterations of pair_axis_bound(): each takes the line between the last support points. */
#define AXIS_ROUNDS 8

/* pair_reach() tries a separating axis where the descent certified less than this fraction
 * of the clearance it needed. */
#define AXIS_WANTED 0.9

/* A lower bound on the distance of self pair p (shapes sa at pa, sb at pb): the gap between
 * their supports along an axis (the hulls of the trees' pieces are apart by at least that
 * along any unit axis), the best of a few axes, starting from the cached one. It stops at
 * the first axis whose gap reaches `enough`: the caller needs no more, and the cached axis
 * mostly does (bench_mbm bookshelf_thin:89: 7 rounds a call on average without the stop). */
static double pair_axis_bound(const manipulator *m, size_t p, const robot_shape *sa, const pb_pose *pa,
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

typedef enum touch { TOUCH_NO, TOUCH_YES, TOUCH_MAYBE } touch;

/* Does shape s at `pose` touch obstacle o, as far as the sphere tree tells? Every leaf that
 * may touch is visited, so that one with a point inside the obstacle proves a contact. */
static touch shape_obstacle_touch(const manipulator *m, size_t s, const pb_pose *pose, size_t o)
{
    const robot_shape *shape = &m->shapes[s];
    const obstacle_bound *ob = &m->obstacle_bounds[o];
    const bool exact = obstacle_is_exact(ob);
    int32_t stack[TREE_STACK];
    int n = 0;
    stack[n++] = shape->tree;
    bool maybe = false, inside = false;
    query_counts.bound_queries++;
    double rc[3];
    transform_point(pose, m->nodes[shape->tree].c, rc);
    if (spheres_apart(rc, m->nodes[shape->tree].r, ob, TOUCH))
        return TOUCH_NO;
    if (!exact) /* see shape_obstacle_bound() */
        return obstacle_distance(ob, rc) - m->nodes[shape->tree].r >= TOUCH ? TOUCH_NO : TOUCH_MAYBE;
    while (n > 0) {
        const sphere_node *node = &m->nodes[stack[--n]];
        double c[3], g[3];
        transform_point(pose, node->c, c);
        const double sd = node->left < 0 ? obstacle_signed_distance(ob, c, g) : obstacle_distance(ob, c);
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
static bool shape_obstacle_collides(const manipulator *m, size_t s, const pb_pose *pose, size_t o)
{
    const touch answer = shape_obstacle_touch(m, s, pose, o);
    if (answer != TOUCH_MAYBE)
        return answer == TOUCH_YES;
    const robot_shape *shape = &m->shapes[s];
    query_counts.fcl_collide++;
    return pbf_collide(shape->geometry, pose->r, pose->t, m->obstacles[o], m->obstacle_poses[o].r,
                       m->obstacle_poses[o].t);
}

static bool pair_collides(const manipulator *m, const pb_pose *poses, size_t p)
{
    const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
    const robot_shape *sa = &m->shapes[a], *sb = &m->shapes[b];
    if (shape_pair_bound(m, sa, &poses[a], sb, &poses[b], TOUCH, TOUCH, PAIR_BUDGET) >= TOUCH)
        return false;
    if (pair_axis_bound(m, p, sa, &poses[a], sb, &poses[b], TOUCH) >= TOUCH)
        return false;
    query_counts.fcl_collide++;
    return pbf_collide(sa->geometry, poses[a].r, poses[a].t, sb->geometry, poses[b].r, poses[b].t);
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)counters;
    const manipulator *m = self;
    if (!in_limits(m, q))
        return false;
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    /* Most configurations a planner checks collide, and the links far from the base (the
     * last ones) collide most: checking them first finds the contact sooner. */
    for (size_t k = m->n_shapes; k-- > 0;)
        if (m->shape_moves[k])
            for (size_t o = 0; o < m->n_obstacles; o++)
                if (shape_obstacle_collides(m, k, &poses[k], o))
                    return false;
    for (size_t p = 0; p < m->n_pairs; p++)
        if (pair_collides(m, poses, p))
            return false;
    return true;
}

/* ---- edge checks ---- */

/* How far each shape can move per unit change of each coordinate (m->sweep), from the
 * shapes' bounding spheres. Walking from a shape's link to the root, the sphere (centre c,
 * radius rho, in the frame of the current link) bounds where the shape can be, whatever the
 * joints below do. A revolute joint driven by coordinate i moves every point of it by at most
 * (distance of c from the axis + rho) per radian, and then the sphere becomes the one round
 * the circle c sweeps: centre on the axis, radius rho + that distance. A prismatic joint moves
 * it by |dq| and stretches it by half its travel. Joints that no coordinate drives are exact
 * transforms. Mimic joints add |multiplier| times their share to the coordinate they follow.
 * The bound holds in every configuration, so along any straight edge a point of shape s moves
 * at most sum_i sweep[s][i] |dq_i|. */
static void shape_sweep(const manipulator *m, size_t s, int stop_link, double *sweep)
{
    const pb_robot *robot = &m->robot;
    {
        const robot_shape *shape = &m->shapes[s];
        double c[3], rho = shape->radius;
        transform_point(&shape->origin, shape->center, c);
        int link = shape->link;
        int j;
        while (link != stop_link && (j = robot->links[link].parent_joint) >= 0) {
            const pb_urdf_joint *joint = &robot->joints[j];
            const int driver = joint->mimic >= 0 ? joint->mimic : j;
            const double factor = joint->mimic >= 0 ? fabs(joint->mimic_multiplier) : 1.0;
            const int coord = joint->type == PB_JOINT_FIXED ? -1 : m->coord_of[driver];
            const double *a = joint->axis;
            double local[3];
            if (coord < 0) {
                const pb_pose motion = joint->type == PB_JOINT_FIXED
                                           ? pb_pose_identity()
                                           : joint_motion(joint, joint_value(m, NULL, j));
                transform_point(&motion, c, local);
            } else if (joint->type == PB_JOINT_PRISMATIC) {
                sweep[coord] += factor;
                const double mult = joint->mimic >= 0 ? joint->mimic_multiplier : 1.0;
                const double off = joint->mimic >= 0 ? joint->mimic_offset : 0.0;
                const double v1 = mult * m->lower[coord] + off, v2 = mult * m->upper[coord] + off;
                const double mid = 0.5 * (v1 + v2);
                for (int i = 0; i < 3; i++)
                    local[i] = c[i] + a[i] * mid;
                rho += 0.5 * fabs(v2 - v1);
            } else {
                const double along = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
                double d2 = 0.0;
                for (int i = 0; i < 3; i++) {
                    local[i] = along * a[i];
                    d2 += (c[i] - local[i]) * (c[i] - local[i]);
                }
                const double d = sqrt(d2);
                sweep[coord] += factor * (d + rho);
                rho += d;
            }
            transform_point(&joint->origin, local, c);
            link = joint->parent;
        }
        /* rounding: a hair more is still a bound */
        for (int i = 0; i < m->dim; i++)
            sweep[i] *= 1.0 + 1e-9;
    }
}

/* The deepest link that is an ancestor of both (or either itself). */
static int common_ancestor(const pb_robot *robot, int a, int b)
{
    for (int x = a;; x = robot->joints[robot->links[x].parent_joint].parent) {
        for (int y = b;; y = robot->joints[robot->links[y].parent_joint].parent) {
            if (x == y)
                return x;
            if (robot->links[y].parent_joint < 0)
                break;
        }
        if (robot->links[x].parent_joint < 0)
            return x;
    }
}

/* m->sweep for every shape against the world, and m->pair_sweep for every self pair: the
 * joints above both links' common ancestor move the two together and do not count. */
static bool compute_sweep(manipulator *m)
{
    const size_t dim = (size_t)m->dim;
    m->sweep = calloc(m->n_shapes * dim + 1, sizeof *m->sweep);
    m->pair_sweep = calloc(m->n_pairs * dim + 1, sizeof *m->pair_sweep);
    if (!m->sweep || !m->pair_sweep)
        return false;
    for (size_t s = 0; s < m->n_shapes; s++)
        shape_sweep(m, s, -1, &m->sweep[s * dim]);
    for (size_t p = 0; p < m->n_pairs; p++) {
        const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
        const int top = common_ancestor(&m->robot, m->shapes[a].link, m->shapes[b].link);
        shape_sweep(m, a, top, &m->pair_sweep[p * dim]);
        shape_sweep(m, b, top, &m->pair_sweep[p * dim]);
    }
    return true;
}

/* Edges of robots with at most this many shapes, obstacles (CULL_OBSTACLES) and self pairs
 * are culled before they are certified (cull_edge()). */
#define CULL_SHAPES    64
#define CULL_OBSTACLES 64
#define CULL_PAIRS     256

/* One edge being certified: q(t) = a + t delta for t in [0, 1]. */
typedef struct sweep_edge {
    const manipulator *m;
    const double *a;
    double delta[PB_MAX_DIM];
    double speed[MAX_SHAPES]; /* a bound on how far shape s moves for t from 0 to 1, metres */
    double step_min;          /* t-length of edge_tolerance at the fastest shape */
    double gap_min;           /* t-length of 1e-7 m at the fastest shape */
    pb_engine_counters *counters;
    /* Culling (cull_edge()): obstacle o can touch shape s somewhere on the edge only if bit o
     * of near_obstacles[s] is set, self pair p only if bit p of near_pairs is. */
    bool culled;
    uint64_t near_obstacles[CULL_SHAPES];
    uint64_t near_pairs[CULL_PAIRS / 64];
} sweep_edge;

/* The t-distance a clearance of `distance` metres certifies at `speed` (metres per unit t),
 * with room for FCL's rounding (GJK stops within a relative 1e-6); 0 when it certifies
 * nothing. */
static double certified_reach(double distance, double speed)
{
    const double margin = distance * (1.0 - 1e-5) - 1e-6;
    return margin > 0.0 ? margin / speed : 0.0;
}

/* The clearance query a certified reach of `reach` needs: inverse of certified_reach(). */
static double needed_distance(double reach, double speed)
{
    return (reach * speed + 1e-6) / (1.0 - 1e-5);
}

/* Up to this many obstacles, shape_reach() takes them nearest first. */
#define REACH_SORTED 64

/* How far shape s at `pose` certifies, at most `want`; false when it touches an obstacle.
 * Per obstacle: the sphere tree's bound, capped at the distance `want` needs; FCL's exact
 * distance (capped too) only where the spheres certify less than a fraction of that and
 * the shape is close (sphere_trust); near a contact, an exact collision check and the
 * tolerance step. */
static bool shape_reach(const sweep_edge *e, size_t s, const pb_pose *pose, double want, double *reach)
{
    const manipulator *m = e->m;
    const robot_shape *shape = &m->shapes[s];
    const double v = e->speed[s];
    double rs = want;
    /* The obstacles nearest the shape's bounding sphere first: the nearest mostly limits the
     * reach, and the smaller reach it leaves makes the other queries cheaper; once the sphere
     * is as far from the next obstacle as the reach needs, it is from all the rest too. */
    uint8_t order[REACH_SORTED];
    double root_gap[REACH_SORTED];
    const bool sorted = m->n_obstacles <= REACH_SORTED;
    size_t n_sorted = 0;
    if (sorted) {
        double rc[3];
        transform_point(pose, m->nodes[shape->tree].c, rc);
        const double rr = m->nodes[shape->tree].r;
        for (size_t o = 0; o < m->n_obstacles; o++) {
            if (e->culled && !(e->near_obstacles[s] >> o & 1))
                continue;
            const double gap = obstacle_distance(&m->obstacle_bounds[o], rc) - rr;
            size_t j = n_sorted++;
            for (; j > 0 && root_gap[j - 1] > gap; j--) {
                root_gap[j] = root_gap[j - 1];
                order[j] = order[j - 1];
            }
            root_gap[j] = gap;
            order[j] = (uint8_t)o;
        }
    }
    for (size_t k = 0; k < (sorted ? n_sorted : m->n_obstacles); k++) {
        const size_t o = sorted ? order[k] : k;
        const double need = needed_distance(rs, v);
        if (sorted && root_gap[k] >= need)
            break;
        const double enough = min2(m->sphere_trust * need, m->sphere_near);
        bool inside = false;
        double d = shape_obstacle_bound(m, shape, pose, &m->obstacle_bounds[o], need, enough, &inside);
        if (inside)
            return false;
        const pb_pose *op = &m->obstacle_poses[o];
        if (d < enough) { /* d is no bound then: see shape_obstacle_bound() */
            /* a blocked edge mostly ends here: a point inside the obstacle says so cheaply */
            if (shape_obstacle_touch(m, s, pose, o) == TOUCH_YES)
                return false;
            query_counts.fcl_distance++;
            d = pbf_distance_bound(shape->geometry, pose->r, pose->t, m->obstacles[o], op->r, op->t, need);
        }
        /* a distance of at least `need` certifies all of rs (certified_reach() could round it
         * a hair below, and a hair below step_min would cost an exact check) */
        double ro = d >= need ? rs : certified_reach(d, v);
        if (ro < e->step_min && ro < rs) {
            query_counts.fcl_collide++;
            if (pbf_collide(shape->geometry, pose->r, pose->t, m->obstacles[o], op->r, op->t))
                return false;
            ro = e->step_min;
        }
        rs = min2(rs, ro);
    }
    *reach = rs;
    return true;
}

/* The same for self pair p moving at `v` (metres per unit t, relative): sphere trees, then
 * FCL on the convex hulls, the meshes, and an exact check. */
static bool pair_reach(const sweep_edge *e, size_t p, const pb_pose *poses, double v, double want,
                       double *reach)
{
    const manipulator *m = e->m;
    const uint32_t ia = m->pairs[p][0], ib = m->pairs[p][1];
    const robot_shape *sa = &m->shapes[ia], *sb = &m->shapes[ib];
    const pb_pose *pa = &poses[ia], *pb = &poses[ib];
    const double need = needed_distance(want, v);
    const double enough = min2(m->sphere_trust * need, m->sphere_near);
    double bound = shape_pair_bound(m, sa, pa, sb, pb, need, enough, PAIR_BUDGET);
    /* the descent stopped short of `need` (mostly its budget ran out on two links close
     * along their length): a separating axis, which also beats a loose bound (bench_mbm
     * bookshelf_thin:89: below 0.9 need rather than below `enough` took a sixth fewer
     * states for the same time per state) */
    if (bound < AXIS_WANTED * need)
        bound = max2(bound, min2(need, pair_axis_bound(m, p, sa, pa, sb, pb, need)));
    double rs = bound >= need ? want : certified_reach(bound, v);
    if (bound < enough) { /* bound is no bound then: see shape_pair_bound() */
        const pbf_geometry *ga = sa->hull ? sa->hull : sa->geometry, *gb = sb->hull ? sb->hull : sb->geometry;
        query_counts.fcl_distance++;
        const double d = pbf_distance_bound(ga, pa->r, pa->t, gb, pb->r, pb->t, need);
        rs = d >= need ? want : certified_reach(d, v);
        if (rs < e->step_min && rs < want && (sa->hull || sb->hull)) {
            query_counts.fcl_distance++;
            const double dm =
                pbf_distance_bound(sa->geometry, pa->r, pa->t, sb->geometry, pb->r, pb->t, need);
            rs = max2(rs, dm >= need ? want : certified_reach(dm, v));
        }
        if (rs < e->step_min && rs < want) {
            query_counts.fcl_collide++;
            if (pbf_collide(sa->geometry, pa->r, pa->t, sb->geometry, pb->r, pb->t))
                return false;
            rs = e->step_min;
        }
    }
    *reach = min2(rs, want);
    return true;
}

/* Check q(t): false when it collides. Otherwise `*reach` (at most `want`) is a t-distance
 * within which every configuration of the edge is collision-free, from the distances of the
 * moving shapes to the obstacles and to each other; at least step_min (near a contact the
 * configuration is checked exactly and the step is the tolerance). Shapes and pairs that do
 * not move along this edge are checked at t = 0 only (`first`). */
static bool edge_clearance(const sweep_edge *e, double t, double want, bool first, double *reach)
{
    const manipulator *m = e->m;
    double q[PB_MAX_DIM];
    for (int i = 0; i < m->dim; i++)
        q[i] = e->a[i] + t * e->delta[i];
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    e->counters->n_edge_states++;
    double r = want, rs;
    /* the links far from the base move fastest and mostly limit the reach: taking them first
     * makes the caps of the other queries smaller, which prunes more */
    for (size_t k = m->n_shapes; m->n_obstacles && k-- > 0;) {
        const size_t s = k;
        if (!m->shape_moves[s])
            continue;
        if (e->speed[s] == 0.0) {
            for (size_t o = 0; first && o < m->n_obstacles; o++)
                if (shape_obstacle_collides(m, s, &poses[s], o))
                    return false;
            continue;
        }
        if (!shape_reach(e, s, &poses[s], r, &rs))
            return false;
        r = rs;
    }
    for (size_t p = 0; p < m->n_pairs; p++) {
        if (e->culled && !(e->near_pairs[p / 64] >> (p % 64) & 1))
            continue;
        double v = 0.0;
        for (int i = 0; i < m->dim; i++)
            v += m->pair_sweep[p * (size_t)m->dim + (size_t)i] * fabs(e->delta[i]);
        if (v == 0.0) {
            if (first && pair_collides(m, poses, p))
                return false;
            continue;
        }
        if (!pair_reach(e, p, poses, v, r, &rs))
            return false;
        r = rs;
    }
    *reach = r;
    return true;
}

/* Which obstacles and self pairs can touch on the edge at all: every point of shape s stays
 * within speed[s] of where it is at t = 0, so inside the root sphere grown by that; an
 * obstacle farther from the sphere's centre than that radius, or a pair whose root spheres
 * are farther apart than the pair's relative motion, never touches, and is skipped at every
 * t of the edge. Only for moving shapes and pairs: the others are checked in full at t = 0. */
static void cull_edge(sweep_edge *e)
{
    const manipulator *m = e->m;
    e->culled = false;
    if (m->n_shapes > CULL_SHAPES || m->n_obstacles > CULL_OBSTACLES || m->n_pairs > CULL_PAIRS)
        return;
    pb_pose poses[CULL_SHAPES];
    shape_poses(m, e->a, poses);
    double c[CULL_SHAPES][3];
    for (size_t s = 0; s < m->n_shapes; s++) {
        transform_point(&poses[s], m->nodes[m->shapes[s].tree].c, c[s]);
        e->near_obstacles[s] = 0;
        const double reach = m->nodes[m->shapes[s].tree].r + e->speed[s] * (1.0 + 1e-9) + 1e-9;
        for (size_t o = 0; o < m->n_obstacles; o++)
            if (!(obstacle_distance(&m->obstacle_bounds[o], c[s]) > reach))
                e->near_obstacles[s] |= UINT64_C(1) << o;
    }
    memset(e->near_pairs, 0, sizeof e->near_pairs);
    for (size_t p = 0; p < m->n_pairs; p++) {
        const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
        double v = 0.0;
        for (int i = 0; i < m->dim; i++)
            v += m->pair_sweep[p * (size_t)m->dim + (size_t)i] * fabs(e->delta[i]);
        const double dx = c[a][0] - c[b][0], dy = c[a][1] - c[b][1], dz = c[a][2] - c[b][2];
        const double gap =
            sqrt(dx * dx + dy * dy + dz * dz) - m->nodes[m->shapes[a].tree].r - m->nodes[m->shapes[b].tree].r;
        if (v == 0.0 || !(gap > v * (1.0 + 1e-9) + 1e-9))
            e->near_pairs[p / 64] |= UINT64_C(1) << (p % 64);
    }
    e->culled = true;
}

/* Certify the open interval (lo, hi) of t depth-first (when the breadth-first queue is
 * full). Every call covers at least step_min or the whole interval, so this ends. */
static bool certify_depth_first(const sweep_edge *e, double lo, double hi)
{
    while (hi - lo > e->gap_min) {
        const double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
        double r;
        if (!edge_clearance(e, mid, half, false, &r))
            return false;
        if (r >= half)
            return true;
        if (!certify_depth_first(e, lo, mid - r))
            return false;
        lo = mid + r;
    }
    return true;
}

#define EDGE_QUEUE 64

static bool visible_interpolated(const manipulator *m, const double *a, const double *b, double resolution,
                                 pb_engine_counters *counters);

/* The certified edge check (conservative advancement): a configuration whose moving shapes
 * are at least d from everything clears every configuration of the edge within t-distance
 * d / speed. Intervals not yet certified are split at their midpoints breadth-first, so a
 * collision in the middle of a long edge is found after a few queries, as with bisection. */
static bool visible_certified(const manipulator *m, const double *a, const double *b,
                              pb_engine_counters *counters)
{
    if (!in_limits(m, a) || !in_limits(m, b))
        return false;
    /* Most edges a planner tries are blocked, and plain collision checks (no distances) at a
     * coarse spacing find that soonest; only edges that pass are certified. */
    if (m->prefilter > 0.0 && !visible_interpolated(m, a, b, m->prefilter, counters))
        return false;
    sweep_edge e;
    e.m = m;
    e.a = a;
    e.counters = counters;
    for (int i = 0; i < m->dim; i++)
        e.delta[i] = pb_coord_delta(a[i], b[i], m->periods[i]);
    double fastest = 0.0;
    for (size_t s = 0; s < m->n_shapes; s++) {
        double v = 0.0;
        for (int i = 0; i < m->dim; i++)
            v += m->sweep[s * (size_t)m->dim + (size_t)i] * fabs(e.delta[i]);
        e.speed[s] = m->shape_moves[s] ? v : 0.0;
        fastest = max2(fastest, e.speed[s]);
    }
    e.step_min = fastest > 0.0 ? m->edge_tolerance / fastest : 1.0;
    /* gaps between certified stretches narrower than this are rounding: no point moves
     * 1e-7 m across one, and certified_reach() keeps 1e-6 m to spare */
    e.gap_min = fastest > 0.0 ? 1e-7 / fastest : 1.0;
    cull_edge(&e);
    double r0, r1;
    if (!edge_clearance(&e, 0.0, 1.0, true, &r0))
        return false;
    if (r0 >= 1.0)
        return true;
    if (!edge_clearance(&e, 1.0, 1.0 - r0, false, &r1))
        return false;
    double queue[EDGE_QUEUE][2];
    size_t head = 0, n = 0;
    if (1.0 - r1 - r0 > e.gap_min) {
        queue[0][0] = r0;
        queue[0][1] = 1.0 - r1;
        n = 1;
    }
    while (n > 0) {
        const double lo = queue[head][0], hi = queue[head][1];
        head = (head + 1) % EDGE_QUEUE;
        n--;
        const double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
        double r;
        if (!edge_clearance(&e, mid, half, false, &r))
            return false;
        if (r >= half)
            continue;
        const double parts[2][2] = {{lo, mid - r}, {mid + r, hi}};
        for (int k = 0; k < 2; k++) {
            if (parts[k][1] - parts[k][0] <= e.gap_min)
                continue;
            if (n < EDGE_QUEUE) {
                const size_t tail = (head + n) % EDGE_QUEUE;
                queue[tail][0] = parts[k][0];
                queue[tail][1] = parts[k][1];
                n++;
            } else if (!certify_depth_first(&e, parts[k][0], parts[k][1])) {
                return false;
            }
        }
    }
    return true;
}

/* The interpolated check: configurations at most `resolution` apart under the weighted
 * metric, in bisection order. Kept to re-check paths independently of the certified check. */
static bool visible_interpolated(const manipulator *m, const double *a, const double *b, double resolution,
                                 pb_engine_counters *counters)
{
    double delta[PB_MAX_DIM], sum = 0.0;
    for (int i = 0; i < m->dim; i++) {
        delta[i] = pb_coord_delta(a[i], b[i], m->periods[i]);
        sum += m->weights[i] * delta[i] * m->weights[i] * delta[i];
    }
    const uint64_t n = pb_edge_segments(sqrt(sum), resolution);
    counters->n_edge_states++;
    if (!feasible(m, a, counters))
        return false;
    counters->n_edge_states++;
    if (!feasible(m, b, counters))
        return false;
    pb_edge_order order;
    pb_edge_order_init(&order, n, true);
    uint64_t k;
    double q[PB_MAX_DIM];
    while (pb_edge_order_next(&order, &k)) {
        const double t = (double)k / (double)n;
        for (int i = 0; i < m->dim; i++)
            q[i] = a[i] + t * delta[i];
        counters->n_edge_states++;
        if (!feasible(m, q, counters))
            return false;
    }
    return true;
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const manipulator *m = self;
    return m->certified ? visible_certified(m, a, b, counters)
                        : visible_interpolated(m, a, b, m->resolution, counters);
}

/* ---- explanations ---- */

static const char *link_name(const manipulator *m, size_t shape)
{
    return m->robot.links[m->shapes[shape].link].name;
}

/* The first collision at shape poses `poses` among all shapes (moving or not) and
 * obstacles, or among `m->pairs`; "" when none. Exact FCL checks only, independent of the
 * sphere bounds feasible() uses. */
static bool explain_poses(const manipulator *m, const pb_pose *poses, bool include_static, char *buf,
                          size_t size)
{
    buf[0] = '\0';
    for (size_t s = 0; s < m->n_shapes; s++) {
        if (!include_static && !m->shape_moves[s])
            continue;
        for (size_t o = 0; o < m->n_obstacles; o++) {
            if (pbf_collide(m->shapes[s].geometry, poses[s].r, poses[s].t, m->obstacles[o],
                            m->obstacle_poses[o].r, m->obstacle_poses[o].t)) {
                snprintf(buf, size, "link '%s' touches obstacle '%s'", link_name(m, s), m->obstacle_names[o]);
                return true;
            }
        }
    }
    for (size_t p = 0; p < m->n_pairs; p++) {
        /* FCL alone (no sphere bounds): tests compare feasible() against this */
        const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
        if (pbf_collide(m->shapes[a].geometry, poses[a].r, poses[a].t, m->shapes[b].geometry, poses[b].r,
                        poses[b].t)) {
            snprintf(buf, size, "link '%s' touches link '%s'", link_name(m, m->pairs[p][0]),
                     link_name(m, m->pairs[p][1]));
            return true;
        }
    }
    return false;
}

static bool explain(const manipulator *m, const double *q, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < m->dim; i++) {
        if (m->wraps[i] ? !isfinite(q[i]) : !(q[i] >= m->lower[i] && q[i] <= m->upper[i])) {
            snprintf(buf, size, "joint '%s' = %g is outside its limits [%g, %g]",
                     m->robot.joints[m->joint_of[i]].name, q[i], m->lower[i], m->upper[i]);
            return true;
        }
    }
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    return explain_poses(m, poses, false, buf, size);
}

/* ---- loading ---- */

static void destroy(void *self)
{
    manipulator *m = self;
    if (!m)
        return;
    for (size_t s = 0; s < m->n_shapes; s++) {
        pbf_geometry_destroy(m->shapes[s].geometry);
        pbf_geometry_destroy(m->shapes[s].hull);
        free(m->shapes[s].vertices);
    }
    for (size_t o = 0; o < m->n_static_obstacles; o++) {
        pbf_geometry_destroy(m->obstacles[o]);
        free(m->obstacle_names[o]);
    }
    manipulator_objects_destroy(m->objects);
    free(m->obstacle_bounds);
    free(m->nodes);
    free(m->leaf_points);
    free(m->shapes);
    free(m->shape_moves);
    free(m->pairs);
    free(m->obstacles);
    free(m->obstacle_poses);
    free(m->obstacle_names);
    free(m->coord_of);
    free(m->held);
    free(m->sweep);
    free(m->pair_sweep);
    pb_robot_finish(&m->robot);
    free(m);
}

/* ---- sphere trees ---- */

/* Longest edge of the triangles the sphere trees are built from (metres): longer triangles
 * are halved across their longest edge. Leaf spheres are then about this wide, which is
 * how far the bound can fall short of the true clearance. A mesh is given at most
 * TREE_MAX_ELEMENTS pieces (the edge grows for big meshes). */
#define TREE_EDGE         0.03
#define TREE_MAX_ELEMENTS 40000

/* The pieces a shape's tree is built over: each is the convex hull of `k` points. */
typedef struct tree_elements {
    double *points; /* 3 * k per element */
    size_t n, cap;
    int k;
    bool on_shape; /* every point is a point of the shape */
} tree_elements;

static bool add_element(tree_elements *el, const double *points)
{
    if (el->n == el->cap) {
        const size_t cap = el->cap ? 2 * el->cap : 256;
        double *grown = realloc(el->points, cap * (size_t)el->k * 3 * sizeof *grown);
        if (!grown)
            return false;
        el->points = grown;
        el->cap = cap;
    }
    memcpy(&el->points[el->n * (size_t)el->k * 3], points, (size_t)el->k * 3 * sizeof *points);
    el->n++;
    return true;
}

static double edge_length2(const double *a, const double *b)
{
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

/* Split triangle t (9 coordinates) across its longest edge until no edge is longer than
 * `edge`: the halves cover it exactly. With el NULL, only count the pieces. */
static size_t split_triangle(const double *t, double edge, int depth, tree_elements *el, bool *ok)
{
    int longest = 0;
    double l2 = -1.0;
    for (int i = 0; i < 3; i++) {
        const double l = edge_length2(&t[3 * i], &t[3 * ((i + 1) % 3)]);
        if (l > l2)
            l2 = l, longest = i;
    }
    if (l2 <= edge * edge || depth >= 30) {
        if (el && !add_element(el, t))
            *ok = false;
        return 1;
    }
    const double *a = &t[3 * longest], *b = &t[3 * ((longest + 1) % 3)], *c = &t[3 * ((longest + 2) % 3)];
    double half1[9], half2[9];
    for (int i = 0; i < 3; i++) {
        const double mid = 0.5 * (a[i] + b[i]);
        half1[i] = a[i], half1[3 + i] = mid, half1[6 + i] = c[i];
        half2[i] = mid, half2[3 + i] = b[i], half2[6 + i] = c[i];
    }
    return split_triangle(half1, edge, depth + 1, el, ok) + split_triangle(half2, edge, depth + 1, el, ok);
}

static bool mesh_elements(const pb_mesh *mesh, tree_elements *el)
{
    double edge = TREE_EDGE;
    for (;;) {
        size_t count = 0;
        bool ok = true;
        for (size_t i = 0; i < mesh->n_triangles && count <= TREE_MAX_ELEMENTS; i++) {
            double t[9];
            for (int v = 0; v < 3; v++)
                memcpy(&t[3 * v], &mesh->vertices[3 * (size_t)mesh->triangles[3 * i + (size_t)v]],
                       3 * sizeof *t);
            count += split_triangle(t, edge, 0, NULL, &ok);
        }
        if (count <= TREE_MAX_ELEMENTS || count <= mesh->n_triangles)
            break;
        edge *= 1.5;
    }
    el->k = 3;
    bool ok = true;
    for (size_t i = 0; i < mesh->n_triangles && ok; i++) {
        double t[9];
        for (int v = 0; v < 3; v++)
            memcpy(&t[3 * v], &mesh->vertices[3 * (size_t)mesh->triangles[3 * i + (size_t)v]], 3 * sizeof *t);
        split_triangle(t, edge, 0, el, &ok);
    }
    return ok;
}

/* A box (half extents h) or a cylinder (radius h[0], half length h[1] along z) as cells of
 * a grid over its bounding box (the solid, not only its surface: FCL's primitives are
 * solid); for a cylinder, only the cells that reach into it. */
static bool solid_elements(const pb_shape *shape, tree_elements *el)
{
    double h[3];
    const bool cylinder = shape->type == PB_SHAPE_CYLINDER;
    if (cylinder) {
        h[0] = h[1] = shape->size[0];
        h[2] = 0.5 * shape->size[1];
    } else {
        for (int i = 0; i < 3; i++)
            h[i] = 0.5 * shape->size[i];
    }
    int cells[3];
    for (int i = 0; i < 3; i++)
        cells[i] = (int)min2(max2(ceil(2.0 * h[i] / (2.0 * TREE_EDGE)), 1.0), 16.0);
    el->k = 8;
    for (int x = 0; x < cells[0]; x++)
        for (int y = 0; y < cells[1]; y++)
            for (int z = 0; z < cells[2]; z++) {
                const int at[3] = {x, y, z};
                double lo[3], hi[3];
                for (int i = 0; i < 3; i++) {
                    lo[i] = -h[i] + 2.0 * h[i] * at[i] / cells[i];
                    hi[i] = -h[i] + 2.0 * h[i] * (at[i] + 1) / cells[i];
                }
                if (cylinder) {
                    const double nx = max2(lo[0], min2(0.0, hi[0])), ny = max2(lo[1], min2(0.0, hi[1]));
                    if (nx * nx + ny * ny > h[0] * h[0])
                        continue;
                }
                double corners[24];
                for (int c = 0; c < 8; c++)
                    for (int i = 0; i < 3; i++)
                        corners[3 * c + i] = (c >> i) & 1 ? hi[i] : lo[i];
                if (!add_element(el, corners))
                    return false;
            }
    return true;
}

typedef struct element_key {
    double key;
    uint32_t index;
} element_key;

static int compare_keys(const void *a, const void *b)
{
    const double x = ((const element_key *)a)->key, y = ((const element_key *)b)->key;
    return (x > y) - (x < y);
}

/* A sphere containing every point of elements order[0..n): centred on their bounding box,
 * out to the farthest point, and a hair more for rounding. */
static void elements_sphere(const tree_elements *el, const uint32_t *order, size_t n, double *c, double *r)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (size_t e = 0; e < n; e++)
        for (int k = 0; k < el->k; k++)
            for (int i = 0; i < 3; i++) {
                const double x = el->points[((size_t)order[e] * (size_t)el->k + (size_t)k) * 3 + (size_t)i];
                lo[i] = min2(lo[i], x);
                hi[i] = max2(hi[i], x);
            }
    double r2 = 0.0;
    for (int i = 0; i < 3; i++)
        c[i] = 0.5 * (lo[i] + hi[i]);
    for (size_t e = 0; e < n; e++)
        for (int k = 0; k < el->k; k++)
            r2 = max2(r2, edge_length2(c, &el->points[((size_t)order[e] * (size_t)el->k + (size_t)k) * 3]));
    *r = sqrt(r2) * (1.0 + 1e-9) + 1e-9;
}

static int32_t new_node(manipulator *m)
{
    if (m->n_nodes == m->cap_nodes) {
        const size_t cap = m->cap_nodes ? 2 * m->cap_nodes : 1024;
        sphere_node *grown = cap < INT32_MAX ? realloc(m->nodes, cap * sizeof *grown) : NULL;
        if (!grown)
            return -1;
        m->nodes = grown;
        m->cap_nodes = cap;
    }
    return (int32_t)m->n_nodes++;
}

/* The subtree over elements order[0..n): halved at the median along the widest spread of
 * their centres. -1 when out of memory. */
static int32_t build_node(manipulator *m, const tree_elements *el, uint32_t *order, size_t n,
                          element_key *keys)
{
    const int32_t id = new_node(m);
    if (id < 0)
        return -1;
    sphere_node node = {.left = -1, .right = -1};
    elements_sphere(el, order, n, node.c, &node.r);
    if (n == 1) {
        if (m->n_leaf_points + (size_t)el->k > m->cap_leaf_points) {
            const size_t cap = m->cap_leaf_points ? 2 * m->cap_leaf_points : 4096;
            double *grown = cap < INT32_MAX ? realloc(m->leaf_points, cap * 3 * sizeof *grown) : NULL;
            if (!grown)
                return -1;
            m->leaf_points = grown;
            m->cap_leaf_points = cap;
        }
        node.points = (int32_t)m->n_leaf_points;
        node.n_points = (int16_t)el->k;
        node.on_shape = el->on_shape;
        memcpy(&m->leaf_points[3 * m->n_leaf_points], &el->points[(size_t)order[0] * (size_t)el->k * 3],
               (size_t)el->k * 3 * sizeof *m->leaf_points);
        m->n_leaf_points += (size_t)el->k;
    }
    m->nodes[id] = node;
    if (n == 1)
        return id;
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    double *centres = malloc(n * 3 * sizeof *centres);
    if (!centres)
        return -1;
    for (size_t e = 0; e < n; e++)
        for (int i = 0; i < 3; i++) {
            double sum = 0.0;
            for (int k = 0; k < el->k; k++)
                sum += el->points[((size_t)order[e] * (size_t)el->k + (size_t)k) * 3 + (size_t)i];
            centres[3 * e + (size_t)i] = sum / el->k;
            lo[i] = min2(lo[i], centres[3 * e + (size_t)i]);
            hi[i] = max2(hi[i], centres[3 * e + (size_t)i]);
        }
    int axis = 0;
    for (int i = 1; i < 3; i++)
        if (hi[i] - lo[i] > hi[axis] - lo[axis])
            axis = i;
    for (size_t e = 0; e < n; e++)
        keys[e] = (element_key){centres[3 * e + (size_t)axis], order[e]};
    free(centres);
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t e = 0; e < n; e++)
        order[e] = keys[e].index;
    const int32_t left = build_node(m, el, order, n / 2, keys);
    const int32_t right = left < 0 ? -1 : build_node(m, el, order + n / 2, n - n / 2, keys);
    if (right < 0)
        return -1;
    m->nodes[id].left = left;
    m->nodes[id].right = right;
    return id;
}

/* The sphere tree of a shape (a mesh read by the caller, or a primitive); false when out
 * of memory. */
static bool build_sphere_tree(manipulator *m, const pb_shape *shape, const pb_mesh *mesh, int32_t *root)
{
    if (shape->type == PB_SHAPE_SPHERE) {
        const int32_t id = new_node(m);
        if (id < 0)
            return false;
        m->nodes[id] = (sphere_node){{0.0, 0.0, 0.0}, shape->size[0] * (1.0 + 1e-9) + 1e-9, -1, -1, 0, 0, 0};
        *root = id;
        return true;
    }
    tree_elements el = {.k = 3, .on_shape = shape->type != PB_SHAPE_CYLINDER};
    bool ok = mesh ? mesh_elements(mesh, &el) : solid_elements(shape, &el);
    uint32_t *order = ok && el.n ? malloc(el.n * sizeof *order) : NULL;
    element_key *keys = order ? malloc(el.n * sizeof *keys) : NULL;
    ok = keys != NULL;
    for (size_t e = 0; ok && e < el.n; e++)
        order[e] = (uint32_t)e;
    ok = ok && (*root = build_node(m, &el, order, el.n, keys)) >= 0;
    free(keys);
    free(order);
    free(el.points);
    return ok;
}

/* qsort order of points (3 coordinates each), lexicographic. */
static int compare_points(const void *a, const void *b)
{
    const double *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Make the FCL geometry of a shape; meshes are read here. */
static pb_status make_geometry(const pb_shape *shape, const char *file, const char *owner, pbf_geometry **out,
                               pbf_geometry **hull, manipulator *tree_owner, int32_t *tree, robot_shape *rs,
                               pb_diag *diag)
{
    bool tree_ok = true;
    *out = NULL;
    if (hull)
        *hull = NULL;
    switch (shape->type) {
    case PB_SHAPE_BOX:
    case PB_SHAPE_CYLINDER:
    case PB_SHAPE_SPHERE:
        *out = manipulator_primitive_geometry(shape);
        break;
    case PB_SHAPE_MESH: {
        pb_mesh mesh;
        pb_diag mesh_diag = {0};
        if (pb_mesh_load(&mesh, shape->mesh_path, shape->size, &mesh_diag) != PB_OK) {
            pb_diag_set(diag, file, shape->line, 0, "<mesh> of %s: %s: %s", owner, shape->mesh_path,
                        mesh_diag.message);
            return PB_ERR_INVALID;
        }
        *out = pbf_mesh_create(mesh.vertices, mesh.n_vertices, mesh.triangles, mesh.n_triangles);
        if (hull && *out && !(*hull = pbf_convex_create(mesh.vertices, mesh.n_vertices))) {
            pbf_geometry_destroy(*out);
            *out = NULL;
        }
        if (tree_owner && *out)
            tree_ok = build_sphere_tree(tree_owner, shape, &mesh, tree);
        if (rs && *out && tree_ok && mesh.n_vertices > 0) {
            rs->vertices = malloc(mesh.n_vertices * 3 * sizeof *rs->vertices);
            tree_ok = rs->vertices != NULL;
            if (tree_ok) {
                /* mesh files repeat a vertex once per face: one copy of each is enough */
                memcpy(rs->vertices, mesh.vertices, mesh.n_vertices * 3 * sizeof *rs->vertices);
                qsort(rs->vertices, mesh.n_vertices, 3 * sizeof *rs->vertices, compare_points);
                size_t n = 0;
                for (size_t k = 0; k < mesh.n_vertices; k++)
                    if (n == 0 || compare_points(&rs->vertices[3 * (n - 1)], &rs->vertices[3 * k]) != 0)
                        memmove(&rs->vertices[3 * n++], &rs->vertices[3 * k], 3 * sizeof *rs->vertices);
                rs->n_vertices = n;
            }
        }
        pb_mesh_finish(&mesh);
        break;
    }
    case PB_SHAPE_COUNT:
        break;
    }
    if (tree_owner && *out && shape->type != PB_SHAPE_MESH)
        tree_ok = build_sphere_tree(tree_owner, shape, NULL, tree);
    if (!tree_ok) {
        pbf_geometry_destroy(*out);
        *out = NULL;
        if (hull) {
            pbf_geometry_destroy(*hull);
            *hull = NULL;
        }
        return PB_ERR_NOMEM;
    }
    if (!*out) {
        pb_diag_set(diag, file, shape->line, 0, "geometry of %s: FCL could not build it", owner);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

/* Which joints are coordinates, in which order. */
static pb_status choose_joints(manipulator *m, const pb_world *world, const char *group_name, pb_diag *diag)
{
    const pb_robot *robot = &m->robot;
    int chosen[PB_MAX_DIM];
    int n = 0;
    if (world->n_joints > 0 && !group_name) {
        for (size_t i = 0; i < world->n_joints; i++) {
            const int j = pb_robot_find_joint(robot, world->joints[i]);
            if (j < 0) {
                pb_diag_set(diag, world->path, 0, 0, "joint '%s' is not in the robot (%s)", world->joints[i],
                            robot->urdf_path);
                return PB_ERR_INVALID;
            }
            if (!pb_joint_is_active(&robot->joints[j])) {
                pb_diag_set(diag, world->path, 0, 0, "joint '%s' cannot be planned for: it is %s",
                            world->joints[i],
                            robot->joints[j].type == PB_JOINT_FIXED ? "fixed" : "a mimic joint");
                return PB_ERR_INVALID;
            }
            for (int k = 0; k < n; k++)
                if (chosen[k] == j) {
                    pb_diag_set(diag, world->path, 0, 0, "joint '%s' is listed twice", world->joints[i]);
                    return PB_ERR_INVALID;
                }
            chosen[n++] = j;
        }
    } else if (group_name || world->group) {
        const char *name = group_name ? group_name : world->group;
        const pb_srdf_group *group = pb_robot_find_group(robot, name);
        if (!group) {
            pb_diag_set(diag, world->srdf_path ? world->srdf_path : world->path, 0, 0,
                        "no planning group '%s' in the SRDF", name);
            return PB_ERR_INVALID;
        }
        if (group->n_joints > PB_MAX_DIM) {
            pb_diag_set(diag, world->path, 0, 0, "group '%s' has %zu joints, more than %d", name,
                        group->n_joints, PB_MAX_DIM);
            return PB_ERR_INVALID;
        }
        for (size_t i = 0; i < group->n_joints; i++)
            chosen[n++] = group->joints[i];
    } else {
        for (size_t j = 0; j < robot->n_joints; j++) {
            if (!pb_joint_is_active(&robot->joints[j]))
                continue;
            if (n == PB_MAX_DIM) {
                pb_diag_set(diag, robot->urdf_path, 0, 0, "the robot has more than %d movable joints",
                            PB_MAX_DIM);
                return PB_ERR_INVALID;
            }
            chosen[n++] = (int)j;
        }
    }
    if (n == 0) {
        pb_diag_set(diag, world->path, 0, 0,
                    "no joint to plan for (the group or the robot has no movable joint)");
        return PB_ERR_INVALID;
    }
    m->dim = n;
    for (int i = 0; i < n; i++) {
        const pb_urdf_joint *joint = &robot->joints[chosen[i]];
        m->joint_of[i] = chosen[i];
        m->coord_of[chosen[i]] = i;
        m->wraps[i] = joint->type == PB_JOINT_CONTINUOUS;
        m->lower[i] = m->wraps[i] ? -M_PI : joint->lower;
        m->upper[i] = m->wraps[i] ? M_PI : joint->upper;
        if (!(m->lower[i] < m->upper[i])) {
            pb_diag_set(diag, robot->urdf_path, joint->line, 0,
                        "<joint>: joint '%s' has an empty range [%g, %g] and cannot be planned for",
                        joint->name, joint->lower, joint->upper);
            return PB_ERR_INVALID;
        }
    }
    for (size_t j = 0; j < robot->n_joints; j++) {
        const pb_urdf_joint *joint = &robot->joints[j];
        double v = 0.0;
        if (joint->type == PB_JOINT_REVOLUTE || joint->type == PB_JOINT_PRISMATIC)
            v = fmin(fmax(0.0, joint->lower), joint->upper);
        m->held[j] = v;
    }
    return PB_OK;
}

/* Rigid groups (links whose relative pose never changes) and collision exclusions. */
static pb_status build_shapes_and_pairs(manipulator *m, pb_diag *diag)
{
    const pb_robot *robot = &m->robot;
    const size_t nl = robot->n_links;
    int *body = calloc(nl, sizeof *body), *body_parent = calloc(nl, sizeof *body_parent);
    int *rigid = calloc(nl, sizeof *rigid);
    bool *excluded = calloc(nl * nl, sizeof *excluded);
    pb_status st = PB_OK;
    if (!body || !body_parent || !rigid || !excluded) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    /* bodies merge fixed joints; rigid groups merge every joint that no coordinate moves */
    int n_bodies = 1, n_rigid = 1;
    body[robot->root] = 0;
    body_parent[0] = -1;
    rigid[robot->root] = 0;
    for (size_t k = 1; k < nl; k++) {
        const int link = robot->order[k];
        const pb_urdf_joint *joint = &robot->joints[robot->links[link].parent_joint];
        if (joint->type == PB_JOINT_FIXED) {
            body[link] = body[joint->parent];
        } else {
            body_parent[n_bodies] = body[joint->parent];
            body[link] = n_bodies++;
        }
        const int driver = joint->mimic >= 0 ? joint->mimic : robot->links[link].parent_joint;
        const bool driven = joint->type != PB_JOINT_FIXED && m->coord_of[driver] >= 0;
        rigid[link] = driven ? n_rigid++ : rigid[joint->parent];
    }
    for (size_t a = 0; a < nl; a++)
        for (size_t b = 0; b < nl; b++)
            excluded[a * nl + b] =
                body[a] == body[b] || body_parent[body[a]] == body[b] || body_parent[body[b]] == body[a];
    for (size_t i = 0; i < robot->n_disabled; i++) {
        const int a = robot->disabled[i][0], b = robot->disabled[i][1];
        excluded[(size_t)a * nl + (size_t)b] = excluded[(size_t)b * nl + (size_t)a] = true;
    }
    size_t n_shapes = 0;
    for (size_t l = 0; l < nl; l++)
        n_shapes += robot->links[l].n_shapes;
    if (n_shapes > MAX_SHAPES) {
        pb_diag_set(diag, robot->urdf_path, 0, 0, "the robot has %zu collision shapes, more than %d",
                    n_shapes, MAX_SHAPES);
        st = PB_ERR_INVALID;
        goto done;
    }
    m->shapes = calloc(n_shapes ? n_shapes : 1, sizeof *m->shapes);
    m->shape_moves = calloc(n_shapes ? n_shapes : 1, sizeof *m->shape_moves);
    m->pairs = malloc((n_shapes * n_shapes / 2 + 1) * sizeof *m->pairs);
    if (!m->shapes || !m->shape_moves || !m->pairs) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    for (size_t l = 0; l < nl && st == PB_OK; l++) {
        for (size_t s = 0; s < robot->links[l].n_shapes; s++) {
            const pb_shape *shape = &robot->links[l].shapes[s];
            robot_shape *rs = &m->shapes[m->n_shapes];
            char owner[300];
            snprintf(owner, sizeof owner, "link '%s'", robot->links[l].name);
            st = make_geometry(shape, robot->urdf_path, owner, &rs->geometry, &rs->hull, m, &rs->tree, rs,
                               diag);
            if (st != PB_OK)
                break;
            m->n_shapes++;
            rs->link = (int)l;
            rs->rigid_group = rigid[l];
            rs->origin = shape->origin;
            double lo[3], hi[3], r2 = 0.0;
            pbf_geometry_local_aabb(rs->geometry, lo, hi);
            for (int i = 0; i < 3; i++) {
                rs->center[i] = 0.5 * (lo[i] + hi[i]);
                r2 += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
            }
            rs->radius = sqrt(r2) * (1.0 + 1e-9) + 1e-9;
            /* the tree's root sphere, when smaller (it reaches only as far as the farthest
             * vertex), makes the motion bounds tighter */
            const sphere_node *root = &m->nodes[rs->tree];
            if (root->r < rs->radius) {
                memcpy(rs->center, root->c, sizeof rs->center);
                rs->radius = root->r;
            }
            m->shape_moves[m->n_shapes - 1] = rigid[l] != rigid[robot->root];
        }
    }
    if (st != PB_OK)
        goto done;
    /* self pairs: those whose relative pose changes are checked per query; the others once,
     * here */
    pb_pose zero_poses[MAX_SHAPES];
    double q0[PB_MAX_DIM];
    for (int i = 0; i < m->dim; i++)
        q0[i] = fmin(fmax(0.0, m->lower[i]), m->upper[i]);
    shape_poses(m, q0, zero_poses);
    for (size_t a = 0; a < m->n_shapes; a++) {
        for (size_t b = a + 1; b < m->n_shapes; b++) {
            const robot_shape *sa = &m->shapes[a], *sb = &m->shapes[b];
            if (excluded[(size_t)sa->link * nl + (size_t)sb->link])
                continue;
            if (sa->rigid_group != sb->rigid_group) {
                m->pairs[m->n_pairs][0] = (uint32_t)a;
                m->pairs[m->n_pairs][1] = (uint32_t)b;
                m->n_pairs++;
            } else if (pbf_collide(sa->geometry, zero_poses[a].r, zero_poses[a].t, sb->geometry,
                                   zero_poses[b].r, zero_poses[b].t)) {
                pb_diag_set(
                    diag, robot->urdf_path, 0, 0,
                    "links '%s' and '%s' overlap in every configuration (no planned joint moves one against "
                    "the other): disable the pair in the SRDF",
                    link_name(m, a), link_name(m, b));
                st = PB_ERR_INVALID;
                goto done;
            }
        }
    }
done:
    free(body);
    free(body_parent);
    free(rigid);
    free(excluded);
    return st;
}

/* The cheap bounds' view of obstacle `geometry`, of `shape` at `pose` (see
 * obstacle_signed_distance). */
static void set_obstacle_bound(obstacle_bound *bound, const pb_shape *shape, const pb_pose *pose,
                               const pbf_geometry *geometry)
{
    memset(bound, 0, sizeof *bound);
    bound->type = shape->type;
    memcpy(bound->r, pose->r, sizeof bound->r);
    memcpy(bound->t, pose->t, sizeof bound->t);
    if (shape->type == PB_SHAPE_BOX) {
        for (int i = 0; i < 3; i++)
            bound->half[i] = 0.5 * shape->size[i];
    } else if (shape->type == PB_SHAPE_CYLINDER) {
        bound->half[0] = shape->size[0];
        bound->half[1] = 0.5 * shape->size[1];
    } else if (shape->type == PB_SHAPE_SPHERE) {
        bound->half[0] = shape->size[0];
    }
    double lo[3], hi[3], local[3], r2 = 0.0;
    pbf_geometry_local_aabb(geometry, lo, hi);
    for (int i = 0; i < 3; i++) {
        local[i] = 0.5 * (lo[i] + hi[i]);
        r2 += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    transform_point(pose, local, bound->center);
    bound->radius = sqrt(r2) * (1.0 + 1e-9) + 1e-9;
}

static pb_status build_environment(manipulator *m, const pb_world *world, pb_diag *diag)
{
    const size_t n = world->n_obstacles;
    m->obstacles = calloc(n ? n : 1, sizeof *m->obstacles);
    m->obstacle_poses = calloc(n ? n : 1, sizeof *m->obstacle_poses);
    m->obstacle_names = calloc(n ? n : 1, sizeof *m->obstacle_names);
    m->obstacle_bounds = calloc(n ? n : 1, sizeof *m->obstacle_bounds);
    if (!m->obstacles || !m->obstacle_poses || !m->obstacle_names || !m->obstacle_bounds)
        return PB_ERR_NOMEM;
    for (size_t o = 0; o < n; o++) {
        char owner[300];
        snprintf(owner, sizeof owner, "obstacle '%s'", world->obstacle_names[o]);
        pb_status st = make_geometry(&world->obstacles[o], world->path, owner, &m->obstacles[o], NULL, NULL,
                                     NULL, NULL, diag);
        if (st != PB_OK)
            return st;
        m->n_static_obstacles = ++m->n_obstacles;
        m->obstacle_poses[o] = world->obstacles[o].origin;
        const size_t len = strlen(world->obstacle_names[o]) + 1;
        if (!(m->obstacle_names[o] = malloc(len)))
            return PB_ERR_NOMEM;
        memcpy(m->obstacle_names[o], world->obstacle_names[o], len);
        set_obstacle_bound(&m->obstacle_bounds[o], &world->obstacles[o], &world->obstacles[o].origin,
                           m->obstacles[o]);
    }
    if (n == 0)
        return PB_OK;
    /* links that never move, against the obstacles: once */
    pb_pose poses[MAX_SHAPES];
    double q0[PB_MAX_DIM];
    for (int i = 0; i < m->dim; i++)
        q0[i] = fmin(fmax(0.0, m->lower[i]), m->upper[i]);
    shape_poses(m, q0, poses);
    for (size_t s = 0; s < m->n_shapes && !world->static_contacts_ok; s++) {
        if (m->shape_moves[s])
            continue;
        for (size_t o = 0; o < n; o++)
            if (pbf_collide(m->shapes[s].geometry, poses[s].r, poses[s].t, m->obstacles[o],
                            m->obstacle_poses[o].r, m->obstacle_poses[o].t)) {
                pb_diag_set(
                    diag, world->path, world->obstacles[o].line, 0,
                    "obstacle '%s' overlaps link '%s', which no planned joint moves: every configuration is "
                    "in collision",
                    world->obstacle_names[o], link_name(m, s));
                return PB_ERR_INVALID;
            }
    }
    return PB_OK;
}

/* The world's default start or goal: the right length, inside the limits, collision-free. */
static pb_status check_default(const manipulator *m, const pb_world *world, const char *what,
                               const double *given, int n, int line, double *out, pb_diag *diag)
{
    if (n != m->dim) {
        pb_diag_set(diag, world->path, line, 0, "<%s>: %d joint values for a robot that plans %d joints",
                    what, n, m->dim);
        return PB_ERR_INVALID;
    }
    for (int i = 0; i < m->dim; i++) {
        double v = given[i];
        if (m->wraps[i]) {
            v = fmod(v + M_PI, 2.0 * M_PI);
            v = v < 0.0 ? v + M_PI : v - M_PI;
        }
        out[i] = v;
    }
    char why[400];
    if (explain(m, out, why, sizeof why)) {
        pb_diag_set(diag, world->path, line, 0, "<%s>: the configuration is infeasible: %s", what, why);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

static const char *const known_options[] = {"problem",        "resolution", "weights",
                                            "group",          "edge_check", "edge_tolerance",
                                            "edge_prefilter", "step_size",  NULL};

static const char *const options_help[] = {
    "problem=SCENARIO:INDEX  which problem of a MotionBenchMaker flat file (default: the first)",
    "edge_check=CHECK        certified (default: no collision is missed, see edge_tolerance) or interpolated",
    "edge_tolerance=M        certified: metres a point may move between two exact checks near a contact "
    "(1e-4)",
    "edge_prefilter=R        certified: plain checks this far apart (radians) before certifying; 0: none "
    "(0.3)",
    "resolution=R            interpolated: spacing in radians (default 0.05, or the world's <resolution>)",
    "step_size=R             tree planners' default step in radians (default 0.5; a planner's own step_size "
    "wins)",
    "weights=W1,...,WD       per-joint metric weights (default 1)",
    "group=NAME              SRDF planning group (default: the world's)",
    NULL,
};

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known_options, "manipulator", diag);
    if (st != PB_OK)
        return st;
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0, "the manipulator engine needs a world file (worlds/*.xml)");
        return PB_ERR_INVALID;
    }
    double resolution = 0.0, weights[PB_MAX_DIM];
    int n_weights = 0;
    const char *text = pb_option_find(options, n_options, "resolution");
    if (text && (pb_parse_doubles(text, &resolution, 1) != 1 || !(resolution > 0.0) || resolution > 10.0)) {
        pb_diag_set_option(diag, "resolution", "expected radians in (0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *check_text = pb_option_find(options, n_options, "edge_check");
    if (check_text && strcmp(check_text, "certified") != 0 && strcmp(check_text, "interpolated") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'certified' or 'interpolated', got '%s'",
                           check_text);
        return PB_ERR_INVALID;
    }
    double edge_tolerance = PB_MANIPULATOR_EDGE_TOLERANCE;
    text = pb_option_find(options, n_options, "edge_tolerance");
    if (text && (pb_parse_doubles(text, &edge_tolerance, 1) != 1 || !(edge_tolerance >= 1e-7) ||
                 edge_tolerance > 1.0)) {
        pb_diag_set_option(diag, "edge_tolerance", "expected metres in [1e-7, 1], got '%s'", text);
        return PB_ERR_INVALID;
    }
    double prefilter = PB_MANIPULATOR_DEFAULT_PREFILTER;
    text = pb_option_find(options, n_options, "edge_prefilter");
    if (text && (pb_parse_doubles(text, &prefilter, 1) != 1 || !(prefilter >= 0.0) || prefilter > 10.0)) {
        pb_diag_set_option(diag, "edge_prefilter", "expected radians in [0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    double step_size = PB_MANIPULATOR_DEFAULT_STEP;
    text = pb_option_find(options, n_options, "step_size");
    if (text && (pb_parse_doubles(text, &step_size, 1) != 1 || !(step_size > 0.0) || step_size > 100.0)) {
        pb_diag_set_option(diag, "step_size", "expected radians in (0, 100], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *weights_text = pb_option_find(options, n_options, "weights");
    if (weights_text && (n_weights = pb_parse_doubles(weights_text, weights, PB_MAX_DIM)) < 1) {
        pb_diag_set_option(diag, "weights", "expected comma-separated positive numbers, got '%s'",
                           weights_text);
        return PB_ERR_INVALID;
    }
    pb_world world;
    if ((st = pb_world_load(&world, path, pb_option_find(options, n_options, "problem"), diag)) != PB_OK)
        return st;
    manipulator *m = calloc(1, sizeof *m);
    if (!m) {
        pb_world_finish(&world);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    m->base = world.base;
    if (world.urdf_text) { /* a Klampt robot, made into URDF by the world reader */
        if ((st = pb_urdf_load_memory(&m->robot, world.urdf_text, strlen(world.urdf_text), world.urdf_path,
                                      NULL, diag)) != PB_OK ||
            (st = pb_srdf_load_memory(&m->robot, world.srdf_text, strlen(world.srdf_text), world.urdf_path,
                                      diag)) != PB_OK)
            goto fail;
    } else if ((st = pb_urdf_load(&m->robot, world.urdf_path, diag)) != PB_OK) {
        goto fail;
    }
    if (world.srdf_path && (st = pb_srdf_load(&m->robot, world.srdf_path, diag)) != PB_OK)
        goto fail;
    if (m->robot.n_links > PB_MANIPULATOR_MAX_LINKS) {
        pb_diag_set(diag, world.urdf_path, 0, 0, "the robot has %zu links, more than %d", m->robot.n_links,
                    PB_MANIPULATOR_MAX_LINKS);
        st = PB_ERR_INVALID;
        goto fail;
    }
    m->coord_of = malloc((m->robot.n_joints + 1) * sizeof *m->coord_of);
    m->held = calloc(m->robot.n_joints + 1, sizeof *m->held);
    if (!m->coord_of || !m->held) {
        st = PB_ERR_NOMEM;
        goto fail;
    }
    for (size_t j = 0; j < m->robot.n_joints; j++)
        m->coord_of[j] = -1;
    if ((st = choose_joints(m, &world, pb_option_find(options, n_options, "group"), diag)) != PB_OK)
        goto fail;
    if (weights_text) {
        if (n_weights != m->dim) {
            pb_diag_set_option(diag, "weights", "%d values for %d joints", n_weights, m->dim);
            st = PB_ERR_INVALID;
            goto fail;
        }
        for (int i = 0; i < n_weights; i++)
            if (!(weights[i] > 0.0)) {
                pb_diag_set_option(diag, "weights", "every weight must be > 0 ('%s')", weights_text);
                st = PB_ERR_INVALID;
                goto fail;
            }
    }
    if ((st = build_shapes_and_pairs(m, diag)) != PB_OK || (st = build_environment(m, &world, diag)) != PB_OK)
        goto fail;
    if (!compute_sweep(m)) {
        st = PB_ERR_NOMEM;
        goto fail;
    }

    *setup = pb_engine_config_default(m->dim);
    for (int i = 0; i < m->dim; i++) {
        setup->lower[i] = m->lower[i];
        setup->upper[i] = m->upper[i];
        setup->periods[i] = m->wraps[i] ? 2.0 * M_PI : 0.0;
        setup->weights[i] = n_weights ? weights[i] : 1.0;
    }
    setup->resolution = resolution > 0.0         ? resolution
                        : world.resolution > 0.0 ? world.resolution
                                                 : PB_MANIPULATOR_DEFAULT_RESOLUTION;
    setup->bisection = true;
    setup->step_size = step_size;
    m->certified = !check_text || strcmp(check_text, "certified") == 0;
    m->edge_tolerance = edge_tolerance;
    /* Certified to within edge_tolerance metres of workspace motion near a contact. */
    setup->edge_check = m->certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_SAMPLED;
    if (m->certified)
        setup->clearance_floor = edge_tolerance;
    m->resolution = setup->resolution;
    m->prefilter = prefilter;
    m->sphere_trust = SPHERE_TRUST;
    m->sphere_near = SPHERE_NEAR;
    for (int i = 0; i < m->dim; i++) {
        m->weights[i] = setup->weights[i];
        m->periods[i] = setup->periods[i];
    }
    if (world.n_start > 0 || world.n_goal > 0) {
        if (world.n_start == 0 || world.n_goal == 0) {
            pb_diag_set(diag, path, world.n_start ? world.start_line : world.goal_line, 0,
                        "a world gives both a <start> and a <goal>, or neither");
            st = PB_ERR_INVALID;
            goto fail;
        }
        if ((st = check_default(m, &world, "start", world.start, world.n_start, world.start_line,
                                setup->default_start, diag)) != PB_OK ||
            (st = check_default(m, &world, "goal", world.goal, world.n_goal, world.goal_line,
                                setup->default_goal, diag)) != PB_OK)
            goto fail;
        setup->has_defaults = true;
    }
    pb_world_finish(&world);
    *self_out = m;
    return PB_OK;
fail:
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, path, 0, 0, "out of memory");
    pb_world_finish(&world);
    destroy(m);
    return st;
}

static bool accepts_path(const char *path)
{
    return pb_world_is_world_file(path);
}

static const void *get_data(const void *self, const char *what)
{
    return strcmp(what, "robot") == 0 ? &((const manipulator *)self)->robot : NULL;
}

static const char *const aliases[] = {"urdf", "arm", NULL};

static bool explain_hook(const void *self, const double *q, char *buf, size_t size)
{
    return explain(self, q, buf, size);
}

const pb_engine_impl pb_manipulator_impl = {
    .name = "manipulator",
    .aliases = aliases,
    .summary =
        "URDF robot in a world (worlds/*.xml, MotionBenchMaker flat files): joint vectors, FCL collision",
    .options_help = options_help,
    .accepts_path = accepts_path,
    .load = load,
    .destroy = destroy,
    .feasible = feasible,
    .visible = visible,
    .edges = "certified (default): sphere-tree and FCL clearances certify every configuration, to within "
             "edge_tolerance (0.1 mm) of motion near a contact; sampled with edge_check=interpolated",
    .explain = explain_hook,
    .get_data = get_data,
};

/* ---- private API (manipulator.h) ---- */

static const manipulator *self_of(const pb_engine *engine)
{
    return pb_engine_get_impl(engine) == &pb_manipulator_impl ? pb_engine_self(engine) : NULL;
}

const pb_robot *pb_manipulator_robot(const pb_engine *engine)
{
    const manipulator *m = self_of(engine);
    return m ? &m->robot : NULL;
}

int pb_manipulator_joint_of(const pb_engine *engine, int i)
{
    return self_of(engine)->joint_of[i];
}

const char *pb_manipulator_coordinate_name(const pb_engine *engine, int i)
{
    const manipulator *m = self_of(engine);
    return m && i >= 0 && i < m->dim ? m->robot.joints[m->joint_of[i]].name : NULL;
}

void pb_manipulator_fk(const pb_engine *engine, const double *q, pb_pose *link_poses)
{
    forward_kinematics(self_of(engine), q, link_poses);
}

bool pb_manipulator_explain(const pb_engine *engine, const double *q, char *buf, size_t size)
{
    const manipulator *m = self_of(engine);
    if (!m) {
        if (size)
            buf[0] = '\0';
        return false;
    }
    return explain(m, q, buf, size);
}

void pb_manipulator_sizes(const pb_engine *engine, size_t *n_robot_shapes, size_t *n_obstacles,
                          size_t *n_pairs)
{
    const manipulator *m = self_of(engine);
    *n_robot_shapes = m->n_shapes;
    *n_obstacles = m->n_obstacles;
    *n_pairs = m->n_pairs;
}

pb_manipulator_counts pb_manipulator_get_counts(void)
{
    return query_counts;
}

/* ---- the dynamic objects' obstacle layer (objects.h, objects.c) ---- */

manipulator *manipulator_of(const pb_engine *engine)
{
    return pb_engine_get_impl(engine) == &pb_manipulator_impl ? pb_engine_self(engine) : NULL;
}

manipulator_objects **manipulator_objects_slot(manipulator *m)
{
    return &m->objects;
}

size_t manipulator_static_count(const manipulator *m)
{
    return m->n_static_obstacles;
}

pb_status manipulator_set_dynamic(manipulator *m, const pbf_geometry *const *geometries,
                                  const pb_shape *shapes, const pb_pose *poses, const char *const *names,
                                  size_t n)
{
    const size_t total = m->n_static_obstacles + n, cap = total ? total : 1;
    m->n_obstacles = m->n_static_obstacles;
    pbf_geometry **obstacles = realloc(m->obstacles, cap * sizeof *obstacles);
    if (obstacles)
        m->obstacles = obstacles;
    pb_pose *obstacle_poses = realloc(m->obstacle_poses, cap * sizeof *obstacle_poses);
    if (obstacle_poses)
        m->obstacle_poses = obstacle_poses;
    char **obstacle_names = realloc(m->obstacle_names, cap * sizeof *obstacle_names);
    if (obstacle_names)
        m->obstacle_names = obstacle_names;
    obstacle_bound *bounds = realloc(m->obstacle_bounds, cap * sizeof *bounds);
    if (bounds)
        m->obstacle_bounds = bounds;
    if (!obstacles || !obstacle_poses || !obstacle_names || !bounds)
        return PB_ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        const size_t o = m->n_static_obstacles + k;
        /* the arrays hold mutable pointers for the static obstacles the engine owns; these are
         * only read */
        m->obstacles[o] = (pbf_geometry *)geometries[k];
        m->obstacle_poses[o] = poses[k];
        m->obstacle_names[o] = (char *)names[k];
        set_obstacle_bound(&m->obstacle_bounds[o], &shapes[k], &poses[k], geometries[k]);
    }
    m->n_obstacles = total;
    return PB_OK;
}

bool manipulator_geometry_hits(const manipulator *m, const pbf_geometry *geometry, const pb_pose *pose,
                               size_t skip, const double *robot_q, char *what, size_t size)
{
    for (size_t o = 0; skip != MANIPULATOR_LINKS_ONLY && o < m->n_obstacles; o++) {
        if (o == skip)
            continue;
        if (pbf_collide(geometry, pose->r, pose->t, m->obstacles[o], m->obstacle_poses[o].r,
                        m->obstacle_poses[o].t)) {
            snprintf(what, size, "%s '%s'", o < m->n_static_obstacles ? "obstacle" : "object",
                     m->obstacle_names[o]);
            return true;
        }
    }
    if (!robot_q)
        return false;
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, robot_q, poses);
    for (size_t s = 0; s < m->n_shapes; s++)
        if (pbf_collide(geometry, pose->r, pose->t, m->shapes[s].geometry, poses[s].r, poses[s].t)) {
            snprintf(what, size, "link '%s'", link_name(m, s));
            return true;
        }
    return false;
}
