/* The manipulator engine's float sphere stage (issue 21): a link shape's sphere tree in
 * single-precision structure-of-arrays form, descended for MANIP_LANES queries at once. A
 * lane is one (pose of the shape, obstacle) pair: the same shape against several obstacles
 * at one configuration (shape_reach(), feasible() in edge_check.c) or against one obstacle at
 * several configurations. Every obstacle is seen as a box, grown by a radius: a box is
 * itself, a cylinder its bounding box, a sphere a point grown by its radius, anything else
 * (a mesh) its bounding sphere. Each of these contains the obstacle, so the distance to it is
 * a lower bound on the true one and the test needs no square root.
 *
 * The answer per lane is only "every leaf sphere is at least `cap` from the obstacle" (the
 * shape is then, since the leaves contain it) or "cannot tell": the double-precision bounds
 * and FCL decide what the lanes leave, so the float stage never changes an answer of the
 * engine, only how soon it is found. Float rounding is covered by a margin added to the cap
 * and by leaf radii rounded up.
 *
 * Two builds of the one descent: for AVX2 (gcc's and clang's target attribute, eight float
 * lanes in one register) and portable (SSE2 on x86-64, whatever the compiler vectorises
 * elsewhere), chosen at load by the CPU (manip_lanes_choose()). Neither uses FMA: without
 * contraction both round every operation alike and give the same bits, which the tests
 * check. Calls no other part of the engine. */
#include "engines/manipulator/manipulator_model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rounding allowance of a lane, in units of FLT_EPSILON times the magnitude of the
 * numbers involved: a node centre goes through one rotation and translation (3 products and
 * 3 sums per coordinate), the box distance through a subtraction, a clamp, 3 squares and 2
 * sums, the threshold through a sum and a square; each rounds by half an ulp of a value no
 * larger than that magnitude, about 20 roundings in all, with the conversion of the lane's
 * transform from double. 64 leaves three times that to spare. */
#define LANE_ROUNDING 64.0

bool manip_lanes_build(manipulator *m)
{
    free(m->lane_nodes);
    m->lane_nodes = NULL;
    if (m->n_nodes == 0)
        return true;
    /* four float arrays and two index arrays in one block */
    const size_t n = m->n_nodes;
    char *block = malloc(n * (4 * sizeof(float) + 2 * sizeof(int32_t)));
    if (!block)
        return false;
    m->lane_nodes = block;
    float *x = (float *)block, *y = x + n, *z = y + n, *r = z + n;
    int32_t *left = (int32_t *)(r + n), *right = left + n;
    for (size_t i = 0; i < n; i++) {
        const sphere_node *node = &m->nodes[i];
        x[i] = (float)node->c[0];
        y[i] = (float)node->c[1];
        z[i] = (float)node->c[2];
        /* the centre moved by its rounding (at most half an ulp per coordinate) and the
         * radius rounded: grow the radius by both, rounded up, so the float sphere contains
         * the double one */
        const double moved = fabs(node->c[0] - (double)x[i]) + fabs(node->c[1] - (double)y[i]) +
                             fabs(node->c[2] - (double)z[i]);
        float radius = (float)(node->r + moved);
        while ((double)radius < node->r + moved)
            radius = nextafterf(radius, INFINITY);
        r[i] = radius;
        left[i] = node->left;
        right[i] = node->right;
    }
    m->lane_x = x;
    m->lane_y = y;
    m->lane_z = z;
    m->lane_r = r;
    m->lane_left = left;
    m->lane_right = right;
    return true;
}

void manip_lanes_set(manip_lanes *lanes, int lane, const robot_shape *shape, const manipulator *m,
                     const pb_pose *pose, const obstacle_bound *o, double cap)
{
    /* the obstacle's frame (rotation ro, origin to), its box's half extents and its radius */
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double *ro = identity, *to = o->center;
    double half[3] = {0.0, 0.0, 0.0}, grow = o->radius;
    if (o->type == PB_SHAPE_BOX || o->type == PB_SHAPE_CYLINDER) {
        ro = o->r;
        to = o->t;
        grow = 0.0;
        half[0] = o->half[0];
        half[1] = o->type == PB_SHAPE_BOX ? o->half[1] : o->half[0];
        half[2] = o->type == PB_SHAPE_BOX ? o->half[2] : o->half[1];
    } else if (o->type == PB_SHAPE_SPHERE) {
        to = o->t;
        grow = o->half[0];
    }
    /* shape frame to obstacle frame: ro^T (pose.r x + pose.t - to), one affine map per lane */
    double d[3], size = 0.0;
    for (int i = 0; i < 3; i++)
        d[i] = pose->t[i] - to[i];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            const double a = ro[i] * pose->r[j] + ro[3 + i] * pose->r[3 + j] + ro[6 + i] * pose->r[6 + j];
            lanes->a[3 * i + j][lane] = (float)a;
        }
        const double t = ro[i] * d[0] + ro[3 + i] * d[1] + ro[6 + i] * d[2];
        lanes->a[9 + i][lane] = (float)t;
        lanes->half[i][lane] = (float)half[i];
        size += fabs(t) + half[i];
    }
    /* every node lies within the root sphere: its coordinates in the shape frame are at
     * most this large */
    const sphere_node *root = &m->nodes[shape->tree];
    size += 3.0 * (fabs(root->c[0]) + fabs(root->c[1]) + fabs(root->c[2]) + root->r);
    const double reach = cap + grow;
    size += fabs(reach);
    lanes->reach[lane] = (float)(reach + LANE_ROUNDING * FLT_EPSILON * size + 1e-9);
}

/* Eight float lanes as one value: gcc and clang lower the operators to one AVX2 instruction
 * each where the function is built for AVX2, to two SSE ones elsewhere. Only locals of the
 * descent have these types (no function takes or returns one, whose ABI would differ). */
typedef float lane_f __attribute__((vector_size(4 * MANIP_LANES)));
typedef int32_t lane_i __attribute__((vector_size(4 * MANIP_LANES)));

/* The descent, one body for both builds: a depth-first walk of the tree carrying the lanes
 * that still need the subtree. A lane leaves a subtree whose sphere is at least its reach
 * from its box; a lane that reaches a leaf it cannot clear is done (cannot tell). */
static inline __attribute__((always_inline)) uint32_t lanes_clear_body(const manipulator *m, int32_t root,
                                                                       const manip_lanes *l)
{
    const float *x = m->lane_x, *y = m->lane_y, *z = m->lane_z, *r = m->lane_r;
    lane_f a[12], half[3], reach;
    memcpy(a, l->a, sizeof a); /* unaligned loads */
    memcpy(half, l->half, sizeof half);
    memcpy(&reach, l->reach, sizeof reach);
    const lane_f zero = {0};
    const lane_i magnitude = (lane_i){0} + INT32_MAX; /* every bit but the sign */
    const uint32_t all = (UINT32_C(1) << l->n) - 1;
    uint32_t failed = 0;
    int32_t stack_node[TREE_STACK];
    uint32_t stack_mask[TREE_STACK];
    int n = 0;
    stack_node[n] = root;
    stack_mask[n++] = all;
    while (n > 0) {
        --n;
        const int32_t node = stack_node[n];
        const uint32_t want = stack_mask[n] & ~failed;
        if (!want)
            continue;
        const float cx = x[node], cy = y[node], cz = z[node];
        lane_f e[3];
        for (int i = 0; i < 3; i++) {
            const lane_f q = a[3 * i] * cx + a[3 * i + 1] * cy + a[3 * i + 2] * cz + a[9 + i];
            const lane_f excess = (lane_f)((lane_i)q & magnitude) - half[i];
            e[i] = (lane_f)((lane_i)excess & (excess > zero)); /* max(excess, 0) */
        }
        const lane_f need = reach + r[node]; /* > 0: the cap is */
        const lane_i clear = e[0] * e[0] + e[1] * e[1] + e[2] * e[2] >= need * need;
        uint32_t open = 0;
        for (int k = 0; k < MANIP_LANES; k++)
            open |= (uint32_t)(clear[k] == 0) << k;
        open &= want;
        if (!open)
            continue;
        if (m->lane_left[node] < 0 || n + 2 > TREE_STACK) {
            failed |= open;
            if (failed == all)
                return 0;
            continue;
        }
        stack_node[n] = m->lane_right[node];
        stack_mask[n++] = open;
        stack_node[n] = m->lane_left[node];
        stack_mask[n++] = open;
    }
    return all & ~failed;
}

__attribute__((target("avx2"))) static uint32_t lanes_clear_avx2(const manipulator *m, int32_t root,
                                                                 const manip_lanes *lanes)
{
    return lanes_clear_body(m, root, lanes);
}

static uint32_t lanes_clear_portable(const manipulator *m, int32_t root, const manip_lanes *lanes)
{
    return lanes_clear_body(m, root, lanes);
}

pb_status manip_lanes_choose(manipulator *m, const char *mode, pb_diag *diag)
{
    const bool avx2 = __builtin_cpu_supports("avx2");
    /* Off unless asked: on the 700 Panda problems it settles 84 % of its lanes yet saves no
     * planning time (bench/RESULTS.md, session 11): the double descents it spares are the
     * cheap ones. */
    if (!mode || strcmp(mode, "off") == 0) {
        m->lanes_clear = NULL;
    } else if (strcmp(mode, "auto") == 0) {
        m->lanes_clear = avx2 ? lanes_clear_avx2 : lanes_clear_portable;
    } else if (strcmp(mode, "avx2") == 0) {
        if (!avx2) {
            pb_diag_set_option(diag, "sphere_lanes", "this CPU has no AVX2 (use 'portable' or 'auto')");
            return PB_ERR_UNSUPPORTED;
        }
        m->lanes_clear = lanes_clear_avx2;
    } else if (strcmp(mode, "portable") == 0) {
        m->lanes_clear = lanes_clear_portable;
    } else {
        pb_diag_set_option(diag, "sphere_lanes", "expected auto, avx2, portable or off, got '%s'", mode);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

uint32_t manip_lanes_clear(const manipulator *m, const robot_shape *shape, manip_lanes *lanes)
{
    /* the unused lanes repeat the first, so that every lane holds numbers */
    for (int k = lanes->n; k < MANIP_LANES; k++) {
        for (int i = 0; i < 12; i++)
            lanes->a[i][k] = lanes->a[i][0];
        for (int i = 0; i < 3; i++)
            lanes->half[i][k] = lanes->half[i][0];
        lanes->reach[k] = lanes->reach[0];
    }
    manip_query_counts.lane_queries++;
    manip_query_counts.lanes += (uint64_t)lanes->n;
    const uint32_t clear = m->lanes_clear(m, shape->tree, lanes);
    manip_query_counts.lanes_clear += (uint64_t)__builtin_popcount(clear);
    return clear;
}
