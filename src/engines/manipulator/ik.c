/* The manipulator engine's inverse kinematics: joint configurations that put a link (the tool
 * frame) at a world pose, within the joint limits and free of collision.
 *
 * Method: damped least squares (Levenberg-Marquardt) on the 6-D pose error e = (p_target -
 * p, rotation vector of R_target R^T), both in the world frame, with the geometric Jacobian J
 * of the link's origin read off forward kinematics: a revolute or continuous joint with world
 * axis a through point o moves the origin p at a x (p - o) and turns the frame at a, a
 * prismatic one moves it at a; a mimic joint adds its multiplier times that to the coordinate
 * it follows; held joints add nothing. A step is dq = J^T (J J^T + lambda I)^-1 e (a 6 x 6
 * solve whatever the number of joints), no coordinate moving more than MAX_STEP; the step is
 * taken when it lowers |e|^2 (then lambda shrinks), else lambda grows and the step is tried
 * again. Coordinates are clamped to their limits after every step and continuous joints
 * wrapped into [-pi, pi). A start ends when the pose is within both tolerances, after
 * max_iterations tries, or when it stalls (lambda past LAMBDA_MAX, or the error not halved in
 * STALL_STEPS steps: a local minimum, often a joint held at its limit).
 *
 * Starts: the reference first, then uniform samples of the bounds from a pb_rng seeded with
 * the config's seed, so the same seed gives the same answer. A converged configuration becomes
 * a solution unless it is within min_separation of one already found or infeasible (the
 * engine's feasible(), the planners' own check); the search stops with max_solutions of them.
 *
 * Calls kinematics.c (forward kinematics, limits), bounds.c (its thread's counters, which
 * count starts and steps here) and edge_check.c (feasible) only. */
#include "engines/manipulator/manipulator_model.h"
#include "core/metric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Largest change of one coordinate in one step (radians, metres for prismatic joints): far
 * from the target the linearisation is poor and a long step jumps between branches. */
#define MAX_STEP 0.5

/* The damping: its first value, and the range it moves in (halved on success, times 4 on
 * failure). A start whose damping passes LAMBDA_MAX is at a local minimum. */
#define LAMBDA_START 1e-2
#define LAMBDA_MIN   1e-12
#define LAMBDA_MAX   1e8

/* A start whose squared error has not halved in this many steps has stalled. */
#define STALL_STEPS 25

/* The joints between a link and the root that some coordinate drives. */
typedef struct ik_chain {
    int link;
    int n;
    int joint[MANIP_MAX_LINKS];
    int coord[MANIP_MAX_LINKS];
    double factor[MANIP_MAX_LINKS]; /* mimic multiplier, 1 for the coordinate's own joint */
} ik_chain;

/* The coordinate driving joint j (itself or the joint it mimics), -1 when none; `*factor` its
 * rate per unit of that coordinate. */
static int driver(const manipulator *m, int j, double *factor)
{
    const pb_urdf_joint *joint = &m->robot.joints[j];
    *factor = 1.0;
    if (joint->type == PB_JOINT_FIXED)
        return -1;
    if (joint->mimic >= 0) {
        *factor = joint->mimic_multiplier;
        return m->coord_of[joint->mimic];
    }
    return m->coord_of[j];
}

static void build_chain(const manipulator *m, int link, ik_chain *chain)
{
    chain->link = link;
    chain->n = 0;
    for (int l = link, j; (j = m->robot.links[l].parent_joint) >= 0; l = m->robot.joints[j].parent) {
        double factor;
        const int coord = driver(m, j, &factor);
        if (coord >= 0 && factor != 0.0) {
            chain->joint[chain->n] = j;
            chain->coord[chain->n] = coord;
            chain->factor[chain->n] = factor;
            chain->n++;
        }
    }
}

int manip_tool_link(const manipulator *m)
{
    const pb_robot *robot = &m->robot;
    ik_chain chain;
    for (size_t e = 0; e < robot->n_end_effectors; e++) {
        build_chain(m, robot->end_effectors[e].parent_link, &chain);
        if (chain.n > 0)
            return chain.link;
    }
    /* the child of the deepest planned joint (the later coordinate when two are as deep) */
    int best = robot->root, best_depth = -1;
    for (int i = 0; i < m->dim; i++) {
        const int child = robot->joints[m->joint_of[i]].child;
        int depth = 0;
        for (int l = child; robot->links[l].parent_joint >= 0;
             l = robot->joints[robot->links[l].parent_joint].parent)
            depth++;
        if (depth >= best_depth) {
            best_depth = depth;
            best = child;
        }
    }
    return best;
}

/* The rotation vector (axis times angle, angle in [0, pi]) of rotation matrix r (row-major). */
static void rotation_vector(const double *r, double *w)
{
    const double sx = r[7] - r[5], sy = r[2] - r[6], sz = r[3] - r[1]; /* 2 sin(angle) axis */
    const double c = fmax(-1.0, fmin(1.0, 0.5 * (r[0] + r[4] + r[8] - 1.0)));
    const double s = 0.5 * sqrt(sx * sx + sy * sy + sz * sz);
    const double angle = atan2(s, c);
    if (angle < 1e-8) { /* sin(angle) / angle = 1 to rounding */
        w[0] = 0.5 * sx;
        w[1] = 0.5 * sy;
        w[2] = 0.5 * sz;
        return;
    }
    if (M_PI - angle > 1e-4) {
        const double f = angle / (2.0 * s);
        w[0] = f * sx;
        w[1] = f * sy;
        w[2] = f * sz;
        return;
    }
    /* Near a half turn sin(angle) says little: the symmetric part is c I + (1 - c) a a^T, whose
     * largest diagonal entry gives the best-conditioned component of the axis a; the skew part
     * (2 sin(angle) a) gives its sign. */
    double a[3];
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (r[4 * i] > r[4 * k])
            k = i;
    const double scale = 1.0 - c;
    a[k] = sqrt(fmax(0.0, (r[4 * k] - c) / scale));
    for (int i = 0; i < 3; i++)
        if (i != k)
            a[i] = 0.5 * (r[3 * i + k] + r[3 * k + i]) / (scale * a[k]);
    const double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    const double sign = a[0] * sx + a[1] * sy + a[2] * sz < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; i++)
        w[i] = sign * angle * a[i] / norm;
}

/* The pose error e (6 values: position, then rotation vector) of the chain's link at q, and
 * the link poses (robot.n_links) there; returns |e|^2. */
static double pose_error(const manipulator *m, const ik_chain *chain, const double *q, const pb_pose *target,
                         pb_pose *links, double *e)
{
    manip_forward_kinematics(m, q, links);
    const pb_pose *p = &links[chain->link];
    double rel[9]; /* R_target R^T */
    for (int i = 0; i < 3; i++) {
        e[i] = target->t[i] - p->t[i];
        for (int j = 0; j < 3; j++)
            rel[3 * i + j] = target->r[3 * i] * p->r[3 * j] + target->r[3 * i + 1] * p->r[3 * j + 1] +
                             target->r[3 * i + 2] * p->r[3 * j + 2];
    }
    rotation_vector(rel, e + 3);
    double sum = 0.0;
    for (int i = 0; i < 6; i++)
        sum += e[i] * e[i];
    return sum;
}

static bool within(const double *e, const pb_ik_config *config)
{
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) <= config->position_tolerance &&
           sqrt(e[3] * e[3] + e[4] * e[4] + e[5] * e[5]) <= config->orientation_tolerance;
}

/* The geometric Jacobian (6 x dim, row-major with row stride PB_MAX_DIM) of the chain's link
 * at link poses `links`. */
static void jacobian(const manipulator *m, const ik_chain *chain, const pb_pose *links, double *jac)
{
    memset(jac, 0, 6 * PB_MAX_DIM * sizeof *jac);
    const double *tip = links[chain->link].t;
    for (int k = 0; k < chain->n; k++) {
        const pb_urdf_joint *joint = &m->robot.joints[chain->joint[k]];
        const pb_pose *frame = &links[joint->child];
        const double *ax = joint->axis;
        double a[3];
        for (int i = 0; i < 3; i++)
            a[i] = frame->r[3 * i] * ax[0] + frame->r[3 * i + 1] * ax[1] + frame->r[3 * i + 2] * ax[2];
        const int c = chain->coord[k];
        const double f = chain->factor[k];
        if (joint->type == PB_JOINT_PRISMATIC) {
            for (int i = 0; i < 3; i++)
                jac[i * PB_MAX_DIM + c] += f * a[i];
            continue;
        }
        const double d[3] = {tip[0] - frame->t[0], tip[1] - frame->t[1], tip[2] - frame->t[2]};
        jac[0 * PB_MAX_DIM + c] += f * (a[1] * d[2] - a[2] * d[1]);
        jac[1 * PB_MAX_DIM + c] += f * (a[2] * d[0] - a[0] * d[2]);
        jac[2 * PB_MAX_DIM + c] += f * (a[0] * d[1] - a[1] * d[0]);
        for (int i = 0; i < 3; i++)
            jac[(3 + i) * PB_MAX_DIM + c] += f * a[i];
    }
}

/* Solve (J J^T + lambda I) y = e by Cholesky (the matrix is symmetric positive definite for
 * lambda > 0) and set dq = J^T y. */
static void damped_step(const double *jac, int dim, const double *e, double lambda, double *dq)
{
    double a[6][6], y[6];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j <= i; j++) {
            double sum = i == j ? lambda : 0.0;
            for (int k = 0; k < dim; k++)
                sum += jac[i * PB_MAX_DIM + k] * jac[j * PB_MAX_DIM + k];
            a[i][j] = sum;
        }
    for (int j = 0; j < 6; j++) { /* a = L L^T, L in the lower triangle */
        double d = a[j][j];
        for (int k = 0; k < j; k++)
            d -= a[j][k] * a[j][k];
        a[j][j] = sqrt(fmax(d, 1e-300));
        for (int i = j + 1; i < 6; i++) {
            double sum = a[i][j];
            for (int k = 0; k < j; k++)
                sum -= a[i][k] * a[j][k];
            a[i][j] = sum / a[j][j];
        }
    }
    for (int i = 0; i < 6; i++) {
        double sum = e[i];
        for (int k = 0; k < i; k++)
            sum -= a[i][k] * y[k];
        y[i] = sum / a[i][i];
    }
    for (int i = 6; i-- > 0;) {
        double sum = y[i];
        for (int k = i + 1; k < 6; k++)
            sum -= a[k][i] * y[k];
        y[i] = sum / a[i][i];
    }
    for (int k = 0; k < dim; k++) {
        double sum = 0.0;
        for (int i = 0; i < 6; i++)
            sum += jac[i * PB_MAX_DIM + k] * y[i];
        dq[k] = sum;
    }
}

/* q into the bounds: clamped, continuous joints wrapped into [-pi, pi). */
static void into_limits(const manipulator *m, double *q)
{
    for (int i = 0; i < m->dim; i++) {
        if (m->wraps[i]) {
            double v = fmod(q[i] + M_PI, 2.0 * M_PI);
            v = v < 0.0 ? v + M_PI : v - M_PI;
            q[i] = v >= M_PI ? -M_PI : v;
        } else {
            q[i] = fmin(fmax(q[i], m->lower[i]), m->upper[i]);
        }
    }
}

/* Descend from q (in the bounds) towards the target; true when q reaches it within the
 * tolerances. Keeps the nearest miss in `stats`. */
static bool descend(const manipulator *m, const ik_chain *chain, const pb_pose *target,
                    const pb_ik_config *config, double *q, manip_ik_stats *stats)
{
    pb_pose links[MANIP_MAX_LINKS];
    double e[6], jac[6 * PB_MAX_DIM], trial[PB_MAX_DIM], e_trial[6], dq[PB_MAX_DIM];
    double cost = pose_error(m, chain, q, target, links, e), lambda = LAMBDA_START, cost_before = cost;
    bool reached = within(e, config);
    for (int it = 0; it < config->max_iterations && !reached; it++) {
        manip_query_counts.ik_steps++;
        if (it % STALL_STEPS == 0) {
            if (it > 0 && cost > 0.5 * cost_before)
                break;
            cost_before = cost;
        }
        jacobian(m, chain, links, jac);
        damped_step(jac, m->dim, e, lambda, dq);
        double largest = 0.0;
        for (int i = 0; i < m->dim; i++)
            largest = fmax(largest, fabs(dq[i]));
        const double scale = largest > MAX_STEP ? MAX_STEP / largest : 1.0;
        for (int i = 0; i < m->dim; i++)
            trial[i] = q[i] + scale * dq[i];
        into_limits(m, trial);
        pb_pose trial_links[MANIP_MAX_LINKS];
        const double trial_cost = pose_error(m, chain, trial, target, trial_links, e_trial);
        if (trial_cost < cost) {
            memcpy(q, trial, (size_t)m->dim * sizeof *q);
            memcpy(e, e_trial, sizeof e);
            memcpy(links, trial_links, m->robot.n_links * sizeof *links);
            cost = trial_cost;
            lambda = fmax(0.5 * lambda, LAMBDA_MIN);
            reached = within(e, config);
        } else if ((lambda *= 4.0) > LAMBDA_MAX) {
            break;
        }
    }
    const double position = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    if (position < stats->nearest_position) {
        stats->nearest_position = position;
        stats->nearest_orientation = sqrt(e[3] * e[3] + e[4] * e[4] + e[5] * e[5]);
    }
    return reached;
}

/* The engine's metric: weighted, continuous joints the short way round. */
static double joint_distance(const manipulator *m, const double *a, const double *b)
{
    double sum = 0.0;
    for (int i = 0; i < m->dim; i++) {
        const double d = m->weights[i] * pb_coord_delta(a[i], b[i], m->periods[i]);
        sum += d * d;
    }
    return sqrt(sum);
}

pb_status manip_inverse_kinematics(const manipulator *m, double *solutions, size_t *n_solutions,
                                   const char *frame, const pb_pose *target, const pb_ik_config *config,
                                   manip_ik_stats *stats, pb_diag *diag)
{
    const int dim = m->dim;
    *n_solutions = 0;
    *stats = (manip_ik_stats){.nearest_position = INFINITY, .nearest_orientation = INFINITY};
    const int link = frame[0] ? pb_robot_find_link(&m->robot, frame) : manip_tool_link(m);
    if (link < 0) {
        pb_diag_set(diag, NULL, 0, 0, "frame: the robot '%s' has no link '%.100s'", m->robot.name, frame);
        return PB_ERR_INVALID;
    }
    ik_chain chain;
    build_chain(m, link, &chain);
    const char *name = m->robot.links[link].name;
    if (chain.n == 0) {
        pb_diag_set(diag, NULL, 0, 0, "frame: link '%.100s' does not move with the planned joints", name);
        return PB_ERR_INVALID;
    }
    double reference[PB_MAX_DIM];
    for (int i = 0; i < dim; i++)
        reference[i] = config->reference ? config->reference[i]
                       : m->wraps[i]     ? 0.0
                                         : 0.5 * (m->lower[i] + m->upper[i]);
    pb_rng rng;
    pb_rng_seed(&rng, config->seed);
    size_t found = 0;
    pb_engine_counters counters = {0};
    for (int start = 0; start <= config->restarts && found < config->max_solutions; start++) {
        double q[PB_MAX_DIM];
        for (int i = 0; i < dim; i++)
            q[i] = start == 0 ? reference[i] : pb_rng_range(&rng, m->lower[i], m->upper[i]);
        into_limits(m, q);
        stats->starts++;
        manip_query_counts.ik_starts++;
        if (!descend(m, &chain, target, config, q, stats))
            continue;
        stats->reached++;
        bool repeated = false;
        for (size_t k = 0; k < found && !repeated; k++)
            repeated = joint_distance(m, q, solutions + k * (size_t)dim) < config->min_separation;
        if (repeated)
            continue;
        if (!manip_feasible(m, q, &counters)) {
            if (stats->collided++ == 0)
                memcpy(stats->collided_q, q, (size_t)dim * sizeof *q);
            continue;
        }
        /* insert, nearest the reference first (a later one goes after an equally near one) */
        const double d = joint_distance(m, q, reference);
        size_t at = found;
        while (at > 0 && joint_distance(m, solutions + (at - 1) * (size_t)dim, reference) > d) {
            memcpy(solutions + at * (size_t)dim, solutions + (at - 1) * (size_t)dim, (size_t)dim * sizeof *q);
            at--;
        }
        memcpy(solutions + at * (size_t)dim, q, (size_t)dim * sizeof *q);
        found++;
    }
    *n_solutions = found;
    if (found > 0)
        return PB_OK;
    char outcome[160];
    if (stats->reached == 0)
        snprintf(outcome, sizeof outcome,
                 "the nearest came within %.3g m and %.3g rad (is the pose out of reach?)",
                 stats->nearest_position, stats->nearest_orientation);
    else
        snprintf(outcome, sizeof outcome, "%d of %d starts reach it, all in collision", stats->collided,
                 stats->starts);
    pb_diag_set(
        diag, NULL, 0, 0,
        "no collision-free joint configuration reaches the pose of link '%.100s' within %g m and %g rad "
        "after %d restarts: %s",
        name, config->position_tolerance, config->orientation_tolerance, config->restarts, outcome);
    return PB_ERR_NOT_FOUND;
}
