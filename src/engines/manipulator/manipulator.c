/* The manipulator engine: configurations are joint vectors of a robot described in URDF,
 * checked for collision with FCL against a world's obstacles and against the robot itself.
 *
 * C-space: one coordinate per active joint (the world's planning group, its joint list, or
 * every movable non-mimic joint of the URDF in file order), bounded by the joint limits;
 * continuous joints span [-pi, pi) and wrap (period 2 pi). Other movable joints are held at
 * 0 (or the limit nearest 0); mimic joints follow the joint they mimic.
 *
 * feasible(q): inside the limits, no link shape touches an obstacle (FCL's dynamic AABB tree
 * over the obstacles is the broad phase; a link far from everything costs one tree
 * descent), and no two link shapes touch, except pairs that cannot matter or are excluded:
 * shapes of one rigid body (links joined by fixed joints), of adjacent bodies (one joint
 * apart), SRDF <disable_collisions> pairs. Shape pairs whose relative pose is the same in
 * every configuration (and link shapes that never move, against obstacles) are checked once
 * when the engine loads: overlapping ones are a load error, the rest are never checked
 * again. Self pairs are first tested with bounding spheres.
 *
 * visible(a, b), certified (the default): conservative advancement. At load, every shape
 * gets a bound on how far any of its points moves per radian (metre) of each coordinate,
 * from bounding spheres and the joint axes (compute_sweep). Along an edge, a configuration
 * whose moving shapes are at distance d from the obstacles and from each other (FCL
 * distance queries, the broad phase pruning obstacles farther than needed) certifies the
 * stretch of edge within which no point moves d; the rest is split breadth-first at
 * midpoints, so a collision mid-edge is found in a few queries. Near a contact (clearance
 * below edge_tolerance, PB_MANIPULATOR_EDGE_TOLERANCE = 0.1 mm) configurations are checked
 * exactly at that spacing. Unlike a fixed resolution, this misses no thin obstacle and
 * takes long steps far from everything.
 * visible(a, b), interpolated (edge_check=interpolated): configurations at most `resolution`
 * apart under the metric, in bisection order, stopping at the first collision; default
 * PB_MANIPULATOR_DEFAULT_RESOLUTION = 0.05 rad. Used to re-check paths independently.
 *
 * distance: joint-space Euclidean, optionally weighted per joint (option weights=...),
 * continuous joints the short way round. */
#include "engines/manipulator/manipulator.h"
#include "engines/manipulator/fcl_shim.h"
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

typedef struct robot_shape {
    pbf_geometry *geometry;
    pbf_geometry *hull; /* meshes: their convex hull, for fast distance bounds; else NULL */
    int link;
    int rigid_group;  /* shapes of one group never move relative to each other */
    pb_pose origin;   /* in the link frame */
    double center[3]; /* bounding sphere in the shape frame */
    double radius;
    double half[3]; /* the bounding box (centre `center`) in the shape frame: half extents */
} robot_shape;

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
    size_t n_obstacles;
    pbf_environment *env;
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
} manipulator;

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

static void sphere_center(const robot_shape *shape, const pb_pose *pose, double *c)
{
    for (int i = 0; i < 3; i++)
        c[i] = pose->r[3 * i] * shape->center[0] + pose->r[3 * i + 1] * shape->center[1] +
               pose->r[3 * i + 2] * shape->center[2] + pose->t[i];
}

static bool pair_collides(const manipulator *m, const pb_pose *poses, uint32_t a, uint32_t b)
{
    const robot_shape *sa = &m->shapes[a], *sb = &m->shapes[b];
    double ca[3], cb[3];
    sphere_center(sa, &poses[a], ca);
    sphere_center(sb, &poses[b], cb);
    const double dx = ca[0] - cb[0], dy = ca[1] - cb[1], dz = ca[2] - cb[2], r = sa->radius + sb->radius;
    if (dx * dx + dy * dy + dz * dz > r * r)
        return false;
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
    if (m->env)
        for (size_t s = 0; s < m->n_shapes; s++)
            if (m->shape_moves[s] &&
                pbf_environment_collide(m->env, m->shapes[s].geometry, poses[s].r, poses[s].t))
                return false;
    for (size_t p = 0; p < m->n_pairs; p++)
        if (pair_collides(m, poses, m->pairs[p][0], m->pairs[p][1]))
            return false;
    return true;
}

/* ---- edge checks ---- */

static void transform_point(const pb_pose *pose, const double *p, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = pose->r[3 * i] * p[0] + pose->r[3 * i + 1] * p[1] + pose->r[3 * i + 2] * p[2] + pose->t[i];
}

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

/* One edge being certified: q(t) = a + t delta for t in [0, 1]. */
typedef struct sweep_edge {
    const manipulator *m;
    const double *a;
    double delta[PB_MAX_DIM];
    double speed[MAX_SHAPES]; /* a bound on how far shape s moves for t from 0 to 1, metres */
    double step_min;          /* t-length of edge_tolerance at the fastest shape */
    double gap_min;           /* t-length of 1e-7 m at the fastest shape */
    pb_engine_counters *counters;
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

/* How far shape s at `pose` certifies, at most `want`; false when it touches an obstacle.
 * The exact geometry, capped: FCL prunes every obstacle and bounding-volume pair farther
 * than the distance `want` needs, which is cheap for the small steps a planner's edges
 * mostly need (a convex-hull GJK query costs the same whatever the cap, and measured slower
 * on the MotionBenchMaker problems). Near a contact: an exact collision check and the
 * tolerance step. */
static bool shape_reach(const sweep_edge *e, size_t s, const pb_pose *pose, double want, double *reach)
{
    const manipulator *m = e->m;
    const robot_shape *shape = &m->shapes[s];
    const double v = e->speed[s];
    double rs = certified_reach(
        pbf_environment_distance(m->env, shape->geometry, pose->r, pose->t, needed_distance(want, v)), v);
    if (rs < e->step_min && rs < want) {
        if (pbf_environment_collide(m->env, shape->geometry, pose->r, pose->t))
            return false;
        rs = e->step_min;
    }
    *reach = fmin(rs, want);
    return true;
}

/* A lower bound on the distance between the bounding boxes of two shapes: their largest
 * gap along the 15 separating axes (each box's 3 axes and the 9 cross products); the gap
 * along any unit axis is at most the distance. */
static double box_gap(const robot_shape *sa, const pb_pose *pa, const robot_shape *sb, const pb_pose *pb)
{
    double ca[3], cb[3], axes[15][3];
    sphere_center(sa, pa, ca);
    sphere_center(sb, pb, cb);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) {
            axes[k][i] = pa->r[3 * i + k];
            axes[3 + k][i] = pb->r[3 * i + k];
        }
    int n = 6;
    for (int x = 0; x < 3; x++)
        for (int y = 3; y < 6; y++) {
            const double *u = axes[x], *w = axes[y];
            double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            const double len = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
            if (len < 1e-6)
                continue; /* parallel axes: covered by the face axes */
            for (int i = 0; i < 3; i++)
                axes[n][i] = c[i] / len;
            n++;
        }
    double gap = 0.0;
    for (int k = 0; k < n; k++) {
        const double *u = axes[k];
        const double centre = fabs(u[0] * (cb[0] - ca[0]) + u[1] * (cb[1] - ca[1]) + u[2] * (cb[2] - ca[2]));
        double ra = 0.0, rb = 0.0;
        for (int j = 0; j < 3; j++) {
            ra += sa->half[j] * fabs(axes[j][0] * u[0] + axes[j][1] * u[1] + axes[j][2] * u[2]);
            rb += sb->half[j] * fabs(axes[3 + j][0] * u[0] + axes[3 + j][1] * u[1] + axes[3 + j][2] * u[2]);
        }
        gap = fmax(gap, centre - ra - rb);
    }
    return gap * (1.0 - 1e-9);
}

/* The same for self pair p moving at `v` (metres per unit t, relative): bounding spheres,
 * hulls, meshes, then an exact check. */
static bool pair_reach(const sweep_edge *e, size_t p, const pb_pose *poses, double v, double want,
                       double *reach)
{
    const manipulator *m = e->m;
    const uint32_t ia = m->pairs[p][0], ib = m->pairs[p][1];
    const robot_shape *sa = &m->shapes[ia], *sb = &m->shapes[ib];
    const pb_pose *pa = &poses[ia], *pb = &poses[ib];
    double ca[3], cb[3];
    sphere_center(sa, pa, ca);
    sphere_center(sb, pb, cb);
    const double dx = ca[0] - cb[0], dy = ca[1] - cb[1], dz = ca[2] - cb[2];
    double rs = certified_reach(sqrt(dx * dx + dy * dy + dz * dz) - sa->radius - sb->radius, v);
    if (rs < want)
        rs = fmax(rs, certified_reach(box_gap(sa, pa, sb, pb), v));
    if (rs < want) {
        const pbf_geometry *ga = sa->hull ? sa->hull : sa->geometry, *gb = sb->hull ? sb->hull : sb->geometry;
        rs = fmax(rs,
                  certified_reach(
                      pbf_distance_bound(ga, pa->r, pa->t, gb, pb->r, pb->t, needed_distance(want, v)), v));
        if (rs < e->step_min && rs < want && (sa->hull || sb->hull))
            rs = certified_reach(pbf_distance_bound(sa->geometry, pa->r, pa->t, sb->geometry, pb->r, pb->t,
                                                    needed_distance(want, v)),
                                 v);
        if (rs < e->step_min && rs < want) {
            if (pbf_collide(sa->geometry, pa->r, pa->t, sb->geometry, pb->r, pb->t))
                return false;
            rs = e->step_min;
        }
    }
    *reach = fmin(rs, want);
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
    for (size_t s = 0; m->env && s < m->n_shapes; s++) {
        if (!m->shape_moves[s])
            continue;
        if (e->speed[s] == 0.0) {
            if (first && pbf_environment_collide(m->env, m->shapes[s].geometry, poses[s].r, poses[s].t))
                return false;
            continue;
        }
        if (!shape_reach(e, s, &poses[s], r, &rs))
            return false;
        r = rs;
    }
    for (size_t p = 0; p < m->n_pairs; p++) {
        double v = 0.0;
        for (int i = 0; i < m->dim; i++)
            v += m->pair_sweep[p * (size_t)m->dim + (size_t)i] * fabs(e->delta[i]);
        if (v == 0.0) {
            if (first && pair_collides(m, poses, m->pairs[p][0], m->pairs[p][1]))
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
        fastest = fmax(fastest, e.speed[s]);
    }
    e.step_min = fastest > 0.0 ? m->edge_tolerance / fastest : 1.0;
    /* gaps between certified stretches narrower than this are rounding: no point moves
     * 1e-7 m across one, and certified_reach() keeps 1e-6 m to spare */
    e.gap_min = fastest > 0.0 ? 1e-7 / fastest : 1.0;
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
    double segments = ceil(sqrt(sum) / resolution);
    if (!(segments >= 1.0))
        segments = 1.0;
    if (segments > (double)PB_EDGE_MAX_SEGMENTS)
        segments = (double)PB_EDGE_MAX_SEGMENTS;
    const uint64_t n = (uint64_t)segments;
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
 * obstacles, or among `m->pairs`; "" when none. */
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
        if (pair_collides(m, poses, m->pairs[p][0], m->pairs[p][1])) {
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
    }
    for (size_t o = 0; o < m->n_obstacles; o++) {
        pbf_geometry_destroy(m->obstacles[o]);
        free(m->obstacle_names[o]);
    }
    pbf_environment_destroy(m->env);
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

/* Make the FCL geometry of a shape; meshes are read here. */
static pb_status make_geometry(const pb_shape *shape, const char *file, const char *owner, pbf_geometry **out,
                               pbf_geometry **hull, pb_diag *diag)
{
    *out = NULL;
    if (hull)
        *hull = NULL;
    switch (shape->type) {
    case PB_SHAPE_BOX:
        *out = pbf_box_create(shape->size[0], shape->size[1], shape->size[2]);
        break;
    case PB_SHAPE_CYLINDER:
        *out = pbf_cylinder_create(shape->size[0], shape->size[1]);
        break;
    case PB_SHAPE_SPHERE:
        *out = pbf_sphere_create(shape->size[0]);
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
        pb_mesh_finish(&mesh);
        break;
    }
    case PB_SHAPE_COUNT:
        break;
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
            st = make_geometry(shape, robot->urdf_path, owner, &rs->geometry, &rs->hull, diag);
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
                rs->half[i] = 0.5 * (hi[i] - lo[i]) * (1.0 + 1e-9) + 1e-9;
                r2 += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
            }
            rs->radius = sqrt(r2) * (1.0 + 1e-9) + 1e-9;
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

static pb_status build_environment(manipulator *m, const pb_world *world, pb_diag *diag)
{
    const size_t n = world->n_obstacles;
    m->obstacles = calloc(n ? n : 1, sizeof *m->obstacles);
    m->obstacle_poses = calloc(n ? n : 1, sizeof *m->obstacle_poses);
    m->obstacle_names = calloc(n ? n : 1, sizeof *m->obstacle_names);
    if (!m->obstacles || !m->obstacle_poses || !m->obstacle_names)
        return PB_ERR_NOMEM;
    for (size_t o = 0; o < n; o++) {
        char owner[300];
        snprintf(owner, sizeof owner, "obstacle '%s'", world->obstacle_names[o]);
        pb_status st = make_geometry(&world->obstacles[o], world->path, owner, &m->obstacles[o], NULL, diag);
        if (st != PB_OK)
            return st;
        m->n_obstacles++;
        m->obstacle_poses[o] = world->obstacles[o].origin;
        const size_t len = strlen(world->obstacle_names[o]) + 1;
        if (!(m->obstacle_names[o] = malloc(len)))
            return PB_ERR_NOMEM;
        memcpy(m->obstacle_names[o], world->obstacle_names[o], len);
    }
    if (n == 0)
        return PB_OK;
    m->env = pbf_environment_create();
    if (!m->env)
        return PB_ERR_NOMEM;
    for (size_t o = 0; o < n; o++)
        if (!pbf_environment_add(m->env, m->obstacles[o], m->obstacle_poses[o].r, m->obstacle_poses[o].t))
            return PB_ERR_NOMEM;
    if (!pbf_environment_build(m->env))
        return PB_ERR_NOMEM;
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

static const char *const known_options[] = {"problem",    "resolution",     "weights",        "group",
                                            "edge_check", "edge_tolerance", "edge_prefilter", NULL};

static const char *const options_help[] = {
    "problem=SCENARIO:INDEX  which problem of a MotionBenchMaker flat file (default: the first)",
    "edge_check=CHECK        certified (default: no collision is missed, see edge_tolerance) or interpolated",
    "edge_tolerance=M        certified: metres a point may move between two exact checks near a contact "
    "(1e-4)",
    "edge_prefilter=R        certified: plain checks this far apart (radians) before certifying; 0: none "
    "(0.3)",
    "resolution=R            interpolated: spacing in radians (default 0.05, or the world's <resolution>)",
    "weights=W1,...,WD       per-joint metric weights (default 1)",
    "group=NAME              SRDF planning group (default: the world's)",
    NULL,
};

static pb_status load(void **self_out, pb_engine_setup *setup, const char *path, const pb_option *options,
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
        pb_diag_set(diag, NULL, 0, 0, "resolution: expected radians in (0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *check_text = pb_option_find(options, n_options, "edge_check");
    if (check_text && strcmp(check_text, "certified") != 0 && strcmp(check_text, "interpolated") != 0) {
        pb_diag_set(diag, NULL, 0, 0, "edge_check: expected 'certified' or 'interpolated', got '%s'",
                    check_text);
        return PB_ERR_INVALID;
    }
    double edge_tolerance = PB_MANIPULATOR_EDGE_TOLERANCE;
    text = pb_option_find(options, n_options, "edge_tolerance");
    if (text && (pb_parse_doubles(text, &edge_tolerance, 1) != 1 || !(edge_tolerance >= 1e-7) ||
                 edge_tolerance > 1.0)) {
        pb_diag_set(diag, NULL, 0, 0, "edge_tolerance: expected metres in [1e-7, 1], got '%s'", text);
        return PB_ERR_INVALID;
    }
    double prefilter = PB_MANIPULATOR_DEFAULT_PREFILTER;
    text = pb_option_find(options, n_options, "edge_prefilter");
    if (text && (pb_parse_doubles(text, &prefilter, 1) != 1 || !(prefilter >= 0.0) || prefilter > 10.0)) {
        pb_diag_set(diag, NULL, 0, 0, "edge_prefilter: expected radians in [0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *weights_text = pb_option_find(options, n_options, "weights");
    if (weights_text && (n_weights = pb_parse_doubles(weights_text, weights, PB_MAX_DIM)) < 1) {
        pb_diag_set(diag, NULL, 0, 0, "weights: expected comma-separated positive numbers, got '%s'",
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
            pb_diag_set(diag, NULL, 0, 0, "weights: %d values for %d joints", n_weights, m->dim);
            st = PB_ERR_INVALID;
            goto fail;
        }
        for (int i = 0; i < n_weights; i++)
            if (!(weights[i] > 0.0)) {
                pb_diag_set(diag, NULL, 0, 0, "weights: every weight must be > 0 ('%s')", weights_text);
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

    *setup = pb_engine_setup_default(m->dim);
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
    m->certified = !check_text || strcmp(check_text, "certified") == 0;
    m->edge_tolerance = edge_tolerance;
    m->resolution = setup->resolution;
    m->prefilter = prefilter;
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

void pb_manipulator_fk(const pb_engine *engine, const double *q, pb_pose *link_poses)
{
    forward_kinematics(self_of(engine), q, link_poses);
}

bool pb_manipulator_explain(const pb_engine *engine, const double *q, char *buf, size_t size)
{
    return explain(self_of(engine), q, buf, size);
}

void pb_manipulator_sizes(const pb_engine *engine, size_t *n_robot_shapes, size_t *n_obstacles,
                          size_t *n_pairs)
{
    const manipulator *m = self_of(engine);
    *n_robot_shapes = m->n_shapes;
    *n_obstacles = m->n_obstacles;
    *n_pairs = m->n_pairs;
}
