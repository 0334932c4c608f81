/* The manipulator engine's collision checks of configurations and edges: feasible(q) (joint
 * limits, then every moving shape against the obstacles and the self pairs), the certified
 * edge check (conservative advancement: the sphere-tree descent shape_obstacle_bound, kept
 * here beside its one caller shape_reach so that it is inlined; pair_reach, edge_clearance,
 * cull_edge, visible_certified) and the interpolated one. Calls kinematics.c and bounds.c. */
#include "engines/manipulator/manipulator_model.h"
#include "checkers/interpolate.h"
#include "core/metric.h"

#include <math.h>
#include <string.h>

/* ---- configurations ---- */

/* Inside the joint limits (finite for continuous joints)? */
static bool in_limits(const manipulator *m, const double *q)
{
    for (int i = 0; i < m->dim; i++) {
        if (m->wraps[i] ? !isfinite(q[i]) : !(q[i] >= m->lower[i] && q[i] <= m->upper[i]))
            return false;
    }
    return true;
}

/* Does shape s at `pose` touch obstacle o: the sphere tree (manip_shape_obstacle_touch()),
 * settled by FCL where it cannot tell. */
static bool shape_obstacle_collides(const manipulator *m, size_t s, const pb_pose *pose, size_t o)
{
    const touch answer = manip_shape_obstacle_touch(m, s, pose, o);
    if (answer != TOUCH_MAYBE)
        return answer == TOUCH_YES;
    const robot_shape *shape = &m->shapes[s];
    manip_query_counts.fcl_collide++;
    return pbf_collide(shape->geometry, pose->r, pose->t, m->obstacles[o], m->obstacle_poses[o].r,
                       m->obstacle_poses[o].t);
}

/* The float sphere stage (lanes.c) is asked only for at least this many lanes: for fewer,
 * filling the lanes and descending the union of their subtrees costs more than the double
 * descents it may save (bench_mbm, all 700 Panda problems: asked for every near obstacle it
 * settled 81 % of them and took 10 % more planning CPU time than no stage at all). */
#define LANES_WORTH 3

/* Does shape s at `pose` touch any obstacle? The obstacles whose bounding sphere is near
 * the shape's go to the float sphere stage (lanes.c) in groups of MANIP_LANES first; only
 * those it cannot prove TOUCH away from are checked as before. It proves only what the
 * double-precision bounds would (every leaf sphere that far), so the answer is the same. */
static bool shape_collides_any(const manipulator *m, size_t s, const pb_pose *pose)
{
    if (!m->lanes_clear) {
        for (size_t o = 0; o < m->n_obstacles; o++)
            if (shape_obstacle_collides(m, s, pose, o))
                return true;
        return false;
    }
    const robot_shape *shape = &m->shapes[s];
    double rc[3];
    transform_point(pose, m->nodes[shape->tree].c, rc);
    const double rr = m->nodes[shape->tree].r;
    size_t o = 0;
    while (o < m->n_obstacles) {
        manip_lanes lanes;
        size_t index[MANIP_LANES];
        lanes.n = 0;
        for (; o < m->n_obstacles && lanes.n < MANIP_LANES; o++)
            if (!spheres_apart(rc, rr, &m->obstacle_bounds[o], TOUCH)) {
                manip_lanes_set(&lanes, lanes.n, shape, m, pose, &m->obstacle_bounds[o], TOUCH);
                index[lanes.n++] = o;
            }
        if (lanes.n == 0)
            break;
        const uint32_t clear = lanes.n >= LANES_WORTH ? manip_lanes_clear(m, shape, &lanes) : 0;
        for (int k = 0; k < lanes.n; k++)
            if (!(clear >> k & 1) && shape_obstacle_collides(m, s, pose, index[k]))
                return true;
    }
    return false;
}

/* feasible(q) (the engine table's, manipulator.c): the bounds of bounds.c settle most
 * checks, FCL the rest. */
bool manip_feasible(const void *self, const double *q, pb_engine_counters *counters)
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
        if (m->shape_moves[k] && shape_collides_any(m, k, &poses[k]))
            return false;
    for (size_t p = 0; p < m->n_pairs; p++)
        if (manip_pair_collides(m, poses, p))
            return false;
    return true;
}

/* ---- edges ---- */

/* pair_reach() tries a separating axis where the descent certified less than this fraction
 * of the clearance it needed. */
#define AXIS_WANTED 0.9

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
                manip_leaf_obstacle_bound(m, node, pose, o, at.c, at.sd, g, min2(best, floor), inside);
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
    /* The float sphere stage first (lanes.c), all near obstacles at once with the cap the
     * whole of `want` needs: an obstacle it proves that far away would give the full reach
     * below as well (the double bounds are at least as tight), so it is skipped there. */
    uint64_t clear = 0;
    if (sorted && m->lanes_clear) {
        const double need = needed_distance(want, v);
        size_t n_near = 0; /* sorted by their gap: the near ones come first */
        while (n_near < n_sorted && root_gap[n_near] < need)
            n_near++;
        for (size_t first = 0; n_near >= LANES_WORTH && first < n_near; first += MANIP_LANES) {
            manip_lanes lanes;
            lanes.n = n_near - first < MANIP_LANES ? (int)(n_near - first) : MANIP_LANES;
            for (int k = 0; k < lanes.n; k++)
                manip_lanes_set(&lanes, k, shape, m, pose, &m->obstacle_bounds[order[first + (size_t)k]],
                                need);
            clear |= (uint64_t)manip_lanes_clear(m, shape, &lanes) << first;
        }
    }
    for (size_t k = 0; k < (sorted ? n_sorted : m->n_obstacles); k++) {
        const size_t o = sorted ? order[k] : k;
        const double need = needed_distance(rs, v);
        if (sorted && root_gap[k] >= need)
            break;
        if (clear >> k & 1)
            continue;
        const double enough = min2(m->sphere_trust * need, m->sphere_near);
        bool inside = false;
        double d = shape_obstacle_bound(m, shape, pose, &m->obstacle_bounds[o], need, enough, &inside);
        if (inside)
            return false;
        const pb_pose *op = &m->obstacle_poses[o];
        if (d < enough) { /* d is no bound then: see shape_obstacle_bound() */
            /* a blocked edge mostly ends here: a point inside the obstacle says so cheaply */
            if (manip_shape_obstacle_touch(m, s, pose, o) == TOUCH_YES)
                return false;
            manip_query_counts.fcl_distance++;
            d = pbf_distance_bound(shape->geometry, pose->r, pose->t, m->obstacles[o], op->r, op->t, need);
        }
        /* a distance of at least `need` certifies all of rs (certified_reach() could round it
         * a hair below, and a hair below step_min would cost an exact check) */
        double ro = d >= need ? rs : certified_reach(d, v);
        if (ro < e->step_min && ro < rs) {
            manip_query_counts.fcl_collide++;
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
    double bound = manip_shape_pair_bound(m, sa, pa, sb, pb, need, enough, PAIR_BUDGET);
    /* the descent stopped short of `need` (mostly its budget ran out on two links close
     * along their length): a separating axis, which also beats a loose bound (bench_mbm
     * bookshelf_thin:89: below 0.9 need rather than below `enough` took a sixth fewer
     * states for the same time per state) */
    if (bound < AXIS_WANTED * need)
        bound = max2(bound, min2(need, manip_pair_axis_bound(m, p, sa, pa, sb, pb, need)));
    double rs = bound >= need ? want : certified_reach(bound, v);
    if (bound < enough) { /* bound is no bound then: see manip_shape_pair_bound() */
        const pbf_geometry *ga = sa->hull ? sa->hull : sa->geometry, *gb = sb->hull ? sb->hull : sb->geometry;
        manip_query_counts.fcl_distance++;
        const double d = pbf_distance_bound(ga, pa->r, pa->t, gb, pb->r, pb->t, need);
        rs = d >= need ? want : certified_reach(d, v);
        if (rs < e->step_min && rs < want && (sa->hull || sb->hull)) {
            manip_query_counts.fcl_distance++;
            const double dm =
                pbf_distance_bound(sa->geometry, pa->r, pa->t, sb->geometry, pb->r, pb->t, need);
            rs = max2(rs, dm >= need ? want : certified_reach(dm, v));
        }
        if (rs < e->step_min && rs < want) {
            manip_query_counts.fcl_collide++;
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
            if (first && manip_pair_collides(m, poses, p))
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
    if (!manip_feasible(m, a, counters))
        return false;
    counters->n_edge_states++;
    if (!manip_feasible(m, b, counters))
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
        if (!manip_feasible(m, q, counters))
            return false;
    }
    return true;
}

bool manip_visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const manipulator *m = self;
    return m->certified ? visible_certified(m, a, b, counters)
                        : visible_interpolated(m, a, b, m->resolution, counters);
}
