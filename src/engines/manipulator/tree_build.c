/* Building the manipulator engine's model at load: the sphere trees of the link shapes
 * (tree_elements, split_triangle, mesh_elements, solid_elements, build_node,
 * build_sphere_tree), FCL geometries with meshes read here (make_geometry), the joints
 * planned for (choose_joints), link shapes, rigid groups and self pairs
 * (build_shapes_and_pairs), and the world's static obstacles (build_environment).
 * Calls kinematics.c and obstacles.c. */
#include "engines/manipulator/manipulator_model.h"
#include "robot/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        *out = manip_primitive_geometry(shape);
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
pb_status manip_choose_joints(manipulator *m, const pb_world *world, const char *group_name, pb_diag *diag)
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
pb_status manip_build_shapes_and_pairs(manipulator *m, pb_diag *diag)
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

pb_status manip_build_environment(manipulator *m, const pb_world *world, pb_diag *diag)
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
        manip_set_obstacle_bound(&m->obstacle_bounds[o], &world->obstacles[o], &world->obstacles[o].origin,
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
