/* URDF and SRDF through libxml2. See urdf.h. */
#include "robot/urdf.h"
#include "io/xml.h"
#include "planbench/impl/engine_impl.h"
#include "io/input_file.h"

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- small helpers ---- */

typedef struct parse_ctx {
    const char *file;
    const char *base_dir; /* folder of the file, for relative mesh paths */
    pb_diag *diag;
} parse_ctx;

static char *dup_string(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int node_line(const xmlNode *node)
{
    return node ? (int)xmlGetLineNo(node) : 0;
}

static bool is_element(const xmlNode *node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

static const xmlNode *first_child(const xmlNode *node, const char *name)
{
    for (const xmlNode *c = node->children; c; c = c->next)
        if (is_element(c, name))
            return c;
    return NULL;
}

static pb_status fail(const parse_ctx *ctx, const xmlNode *node, const char *fmt, const char *a,
                      const char *b)
{
    char msg[400];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    pb_diag_set(ctx->diag, ctx->file, node_line(node), 0, "<%s>: %s", node ? (const char *)node->name : "?",
                msg);
    return PB_ERR_INVALID;
}

/* A required attribute. */
static pb_status need_attr(const parse_ctx *ctx, const xmlNode *node, const char *name, char *buf,
                           size_t size, const char **out)
{
    *out = pb_xml_attr(node, name, buf, size);
    if (!*out)
        return fail(ctx, node, "missing (or over-long) attribute '%s'", name, NULL);
    return PB_OK;
}

/* An attribute holding n numbers; `def` (may be NULL: required) when absent. */
static pb_status vector_attr(const parse_ctx *ctx, const xmlNode *node, const char *name, int n,
                             const double *def, double *out)
{
    char buf[512];
    const char *v = pb_xml_attr(node, name, buf, sizeof buf);
    if (!v) {
        if (!def)
            return fail(ctx, node, "missing attribute '%s'", name, NULL);
        memcpy(out, def, (size_t)n * sizeof(double));
        return PB_OK;
    }
    if (pb_parse_doubles(v, out, n) != n) {
        char what[64];
        snprintf(what, sizeof what, "%d number%s", n, n > 1 ? "s" : "");
        char msg[200];
        snprintf(msg, sizeof msg, "attribute '%s' must be %s, got \"%.80s\"", name, what, v);
        return fail(ctx, node, "%s%s", msg, NULL);
    }
    return PB_OK;
}

/* <origin xyz rpy> under `node`, identity when absent. */
static pb_status read_origin(const parse_ctx *ctx, const xmlNode *node, pb_pose *out)
{
    static const double zero[3] = {0, 0, 0};
    const xmlNode *o = first_child(node, "origin");
    double xyz[3], rpy[3];
    pb_status st;
    if (!o) {
        *out = pb_pose_identity();
        return PB_OK;
    }
    if ((st = vector_attr(ctx, o, "xyz", 3, zero, xyz)) != PB_OK ||
        (st = vector_attr(ctx, o, "rpy", 3, zero, rpy)))
        return st;
    *out = pb_pose_from_xyz_rpy(xyz, rpy);
    return PB_OK;
}

static bool file_exists(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 && S_ISREG(s.st_mode);
}

/* "dir/name" into buf; false when it does not fit. */
static bool join(char *buf, size_t size, const char *dir, const char *name)
{
    const int n = snprintf(buf, size, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < size;
}

/* Resolve a mesh file name (see urdf.h); the result is malloc'd, NULL when out of memory or
 * too long. */
static char *resolve_mesh(const parse_ctx *ctx, const char *name)
{
    char buf[4096];
    const char *dir = ctx->base_dir && ctx->base_dir[0] ? ctx->base_dir : ".";
    if (strncmp(name, "package://", 10) == 0) {
        const char *rest = name + 10;
        const char *slash = strchr(rest, '/');
        const char *after = slash ? slash + 1 : rest;
        char up[4096];
        if (!join(up, sizeof up, "..", after))
            return NULL;
        const char *candidates[3] = {after, rest, up};
        for (int i = 0; i < 3; i++)
            if (join(buf, sizeof buf, dir, candidates[i]) && file_exists(buf))
                return dup_string(buf);
        return join(buf, sizeof buf, dir, after) ? dup_string(buf) : NULL;
    }
    if (strncmp(name, "file://", 7) == 0)
        name += 7;
    if (name[0] == '/')
        return dup_string(name);
    return join(buf, sizeof buf, dir, name) ? dup_string(buf) : NULL;
}

/* ---- URDF ---- */

static pb_status read_geometry(const parse_ctx *ctx, const xmlNode *collision, pb_shape *shape)
{
    static const double one[3] = {1, 1, 1};
    memset(shape, 0, sizeof *shape);
    shape->line = node_line(collision);
    pb_status st = read_origin(ctx, collision, &shape->origin);
    if (st != PB_OK)
        return st;
    const xmlNode *geometry = first_child(collision, "geometry");
    if (!geometry)
        return fail(ctx, collision, "missing <geometry>", NULL, NULL);
    for (const xmlNode *g = geometry->children; g; g = g->next) {
        if (g->type != XML_ELEMENT_NODE)
            continue;
        shape->line = node_line(g);
        if (is_element(g, "box")) {
            shape->type = PB_SHAPE_BOX;
            st = vector_attr(ctx, g, "size", 3, NULL, shape->size);
        } else if (is_element(g, "cylinder")) {
            shape->type = PB_SHAPE_CYLINDER;
            if ((st = vector_attr(ctx, g, "radius", 1, NULL, &shape->size[0])) == PB_OK)
                st = vector_attr(ctx, g, "length", 1, NULL, &shape->size[1]);
        } else if (is_element(g, "sphere")) {
            shape->type = PB_SHAPE_SPHERE;
            st = vector_attr(ctx, g, "radius", 1, NULL, &shape->size[0]);
        } else if (is_element(g, "mesh")) {
            shape->type = PB_SHAPE_MESH;
            char buf[2048];
            const char *filename;
            if ((st = need_attr(ctx, g, "filename", buf, sizeof buf, &filename)) != PB_OK)
                return st;
            if ((st = vector_attr(ctx, g, "scale", 3, one, shape->size)) != PB_OK)
                return st;
            shape->mesh_path = resolve_mesh(ctx, filename);
            if (!shape->mesh_path)
                return PB_ERR_NOMEM;
        } else {
            return fail(ctx, g, "unknown geometry (expected box, cylinder, sphere or mesh)", NULL, NULL);
        }
        if (st != PB_OK)
            return st;
        const int n = shape->type == PB_SHAPE_BOX ? 3 : shape->type == PB_SHAPE_CYLINDER ? 2 : 1;
        for (int i = 0; i < (shape->type == PB_SHAPE_MESH ? 0 : n); i++)
            if (!(shape->size[i] >= 0.0))
                return fail(ctx, g, "sizes must not be negative", NULL, NULL);
        return PB_OK;
    }
    return fail(ctx, geometry, "empty <geometry> (expected box, cylinder, sphere or mesh)", NULL, NULL);
}

static pb_status read_link(const parse_ctx *ctx, const xmlNode *node, pb_urdf_link *link)
{
    char buf[512];
    const char *name;
    pb_status st = need_attr(ctx, node, "name", buf, sizeof buf, &name);
    if (st != PB_OK)
        return st;
    link->line = node_line(node);
    link->parent_joint = -1;
    if (!(link->name = dup_string(name)))
        return PB_ERR_NOMEM;
    size_t n = 0;
    for (const xmlNode *c = node->children; c; c = c->next)
        n += is_element(c, "collision");
    if (n == 0)
        return PB_OK;
    link->shapes = calloc(n, sizeof *link->shapes);
    if (!link->shapes)
        return PB_ERR_NOMEM;
    for (const xmlNode *c = node->children; c; c = c->next) {
        if (!is_element(c, "collision"))
            continue;
        st = read_geometry(ctx, c, &link->shapes[link->n_shapes]);
        link->n_shapes++; /* counted also on failure, so its mesh path is freed */
        if (st != PB_OK)
            return st;
    }
    return PB_OK;
}

static pb_status read_joint(const parse_ctx *ctx, const xmlNode *node, pb_robot *robot, pb_urdf_joint *joint,
                            const xmlNode **mimic_node)
{
    static const double x_axis[3] = {1, 0, 0};
    char buf[512], type_buf[64];
    const char *name, *type;
    pb_status st;
    joint->line = node_line(node);
    joint->mimic = -1;
    if ((st = need_attr(ctx, node, "name", buf, sizeof buf, &name)) != PB_OK)
        return st;
    if (!(joint->name = dup_string(name)))
        return PB_ERR_NOMEM;
    if ((st = need_attr(ctx, node, "type", type_buf, sizeof type_buf, &type)) != PB_OK)
        return st;
    if (strcmp(type, "fixed") == 0)
        joint->type = PB_JOINT_FIXED;
    else if (strcmp(type, "revolute") == 0)
        joint->type = PB_JOINT_REVOLUTE;
    else if (strcmp(type, "continuous") == 0)
        joint->type = PB_JOINT_CONTINUOUS;
    else if (strcmp(type, "prismatic") == 0)
        joint->type = PB_JOINT_PRISMATIC;
    else
        return fail(ctx, node,
                    "joint '%s': type '%s' is not supported (fixed, revolute, continuous, prismatic)",
                    joint->name, type);
    const char *const ends[2] = {"parent", "child"};
    for (int e = 0; e < 2; e++) {
        const xmlNode *end = first_child(node, ends[e]);
        char lbuf[512];
        const char *link_name;
        if (!end)
            return fail(ctx, node, "joint '%s': missing <%s>", joint->name, ends[e]);
        if ((st = need_attr(ctx, end, "link", lbuf, sizeof lbuf, &link_name)) != PB_OK)
            return st;
        const int index = pb_robot_find_link(robot, link_name);
        if (index < 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "joint '%.100s': %s link '%.100s' does not exist", joint->name, ends[e],
                     link_name);
            return fail(ctx, end, "%s%s", msg, NULL);
        }
        *(e == 0 ? &joint->parent : &joint->child) = index;
    }
    if (joint->parent == joint->child)
        return fail(ctx, node, "joint '%s': link '%s' is its own parent", joint->name,
                    robot->links[joint->child].name);
    if ((st = read_origin(ctx, node, &joint->origin)) != PB_OK)
        return st;
    const xmlNode *axis = first_child(node, "axis");
    memcpy(joint->axis, x_axis, sizeof joint->axis);
    if (axis && (st = vector_attr(ctx, axis, "xyz", 3, x_axis, joint->axis)) != PB_OK)
        return st;
    const double norm = sqrt(joint->axis[0] * joint->axis[0] + joint->axis[1] * joint->axis[1] +
                             joint->axis[2] * joint->axis[2]);
    if (joint->type != PB_JOINT_FIXED) {
        if (!(norm > 1e-12))
            return fail(ctx, axis ? axis : node, "joint '%s': the axis must not be zero", joint->name, NULL);
        for (int i = 0; i < 3; i++)
            joint->axis[i] /= norm;
    }
    joint->lower = -M_PI;
    joint->upper = M_PI;
    if (joint->type == PB_JOINT_REVOLUTE || joint->type == PB_JOINT_PRISMATIC) {
        const xmlNode *limit = first_child(node, "limit");
        static const double zero = 0.0;
        if (!limit)
            return fail(ctx, node, "joint '%s': a %s joint needs <limit lower upper>", joint->name, type);
        if ((st = vector_attr(ctx, limit, "lower", 1, &zero, &joint->lower)) != PB_OK ||
            (st = vector_attr(ctx, limit, "upper", 1, &zero, &joint->upper)) != PB_OK)
            return st;
        if (joint->lower > joint->upper)
            return fail(ctx, limit, "joint '%s': lower limit above the upper limit", joint->name, NULL);
    }
    *mimic_node = first_child(node, "mimic");
    return PB_OK;
}

static pb_status resolve_mimic(const parse_ctx *ctx, pb_robot *robot, pb_urdf_joint *joint,
                               const xmlNode *mimic)
{
    static const double one = 1.0, zero = 0.0;
    char buf[512];
    const char *target;
    pb_status st;
    if ((st = need_attr(ctx, mimic, "joint", buf, sizeof buf, &target)) != PB_OK)
        return st;
    const int index = pb_robot_find_joint(robot, target);
    if (index < 0)
        return fail(ctx, mimic, "mimicked joint '%s' does not exist", target, NULL);
    if (&robot->joints[index] == joint)
        return fail(ctx, mimic, "joint '%s' mimics itself", target, NULL);
    if ((st = vector_attr(ctx, mimic, "multiplier", 1, &one, &joint->mimic_multiplier)) != PB_OK ||
        (st = vector_attr(ctx, mimic, "offset", 1, &zero, &joint->mimic_offset)) != PB_OK)
        return st;
    joint->mimic = index;
    return PB_OK;
}

/* Every link reachable from the one root, each with at most one parent, mimics not chained. */
static pb_status check_tree(const parse_ctx *ctx, pb_robot *robot, const xmlNode *root_node)
{
    int root = -1;
    for (size_t i = 0; i < robot->n_links; i++) {
        if (robot->links[i].parent_joint >= 0)
            continue;
        if (root >= 0) {
            pb_diag_set(ctx->diag, ctx->file, robot->links[i].line, 0,
                        "<link>: links '%s' and '%s' both have no parent joint (one root expected)",
                        robot->links[root].name, robot->links[i].name);
            return PB_ERR_INVALID;
        }
        root = (int)i;
    }
    if (root < 0)
        return fail(ctx, root_node, "every link has a parent joint: the joints form a cycle", NULL, NULL);
    robot->root = root;
    robot->order = malloc(robot->n_links * sizeof *robot->order);
    if (!robot->order)
        return PB_ERR_NOMEM;
    size_t n = 0;
    robot->order[n++] = root;
    for (size_t head = 0; head < n; head++)
        for (size_t j = 0; j < robot->n_joints; j++)
            if (robot->joints[j].parent == robot->order[head])
                robot->order[n++] = robot->joints[j].child;
    if (n != robot->n_links)
        return fail(ctx, root_node, "some links are not connected to the root link '%s' (a cycle of joints)",
                    robot->links[root].name, NULL);
    for (size_t j = 0; j < robot->n_joints; j++) {
        const pb_urdf_joint *joint = &robot->joints[j];
        if (joint->mimic >= 0 && robot->joints[joint->mimic].mimic >= 0) {
            pb_diag_set(
                ctx->diag, ctx->file, joint->line, 0,
                "<joint>: joint '%s' mimics '%s', which mimics another joint (chains are not supported)",
                joint->name, robot->joints[joint->mimic].name);
            return PB_ERR_INVALID;
        }
    }
    return PB_OK;
}

static pb_status parse_urdf(pb_robot *robot, xmlDoc *doc, const parse_ctx *ctx)
{
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_element(root, "robot"))
        return fail(ctx, root, "the root element must be <robot>", NULL, NULL);
    char buf[512];
    const char *name = pb_xml_attr(root, "name", buf, sizeof buf);
    if (!(robot->name = dup_string(name ? name : "robot")))
        return PB_ERR_NOMEM;
    size_t n_links = 0, n_joints = 0;
    for (const xmlNode *c = root->children; c; c = c->next) {
        n_links += is_element(c, "link");
        n_joints += is_element(c, "joint");
    }
    if (n_links == 0)
        return fail(ctx, root, "the robot has no <link>", NULL, NULL);
    robot->links = calloc(n_links, sizeof *robot->links);
    robot->joints = calloc(n_joints ? n_joints : 1, sizeof *robot->joints);
    const xmlNode **mimics = calloc(n_joints ? n_joints : 1, sizeof *mimics);
    pb_status st = PB_OK;
    if (!robot->links || !robot->joints || !mimics) {
        free(mimics);
        return PB_ERR_NOMEM;
    }
    for (const xmlNode *c = root->children; c && st == PB_OK; c = c->next) {
        if (!is_element(c, "link"))
            continue;
        pb_urdf_link *link = &robot->links[robot->n_links++];
        st = read_link(ctx, c, link);
        if (st == PB_OK && pb_robot_find_link(robot, link->name) != (int)robot->n_links - 1)
            st = fail(ctx, c, "a second link named '%s'", link->name, NULL);
    }
    for (const xmlNode *c = root->children; c && st == PB_OK; c = c->next) {
        if (!is_element(c, "joint"))
            continue;
        pb_urdf_joint *joint = &robot->joints[robot->n_joints++];
        st = read_joint(ctx, c, robot, joint, &mimics[robot->n_joints - 1]);
        if (st != PB_OK)
            break;
        if (pb_robot_find_joint(robot, joint->name) != (int)robot->n_joints - 1) {
            st = fail(ctx, c, "a second joint named '%s'", joint->name, NULL);
            break;
        }
        pb_urdf_link *child = &robot->links[joint->child];
        if (child->parent_joint >= 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "link '%.100s' already has parent joint '%.100s'", child->name,
                     robot->joints[child->parent_joint].name);
            st = fail(ctx, c, "%s%s", msg, NULL);
            break;
        }
        child->parent_joint = (int)robot->n_joints - 1;
    }
    for (size_t j = 0; j < robot->n_joints && st == PB_OK; j++)
        if (mimics[j])
            st = resolve_mimic(ctx, robot, &robot->joints[j], mimics[j]);
    free(mimics);
    if (st == PB_OK)
        st = check_tree(ctx, robot, root);
    return st;
}

static pb_status load_urdf(pb_robot *robot, const char *data, size_t size, const char *file,
                           const char *base_dir, pb_diag *diag)
{
    memset(robot, 0, sizeof *robot);
    if (data && size > (size_t)INT32_MAX) {
        pb_diag_set(diag, file, 0, 0, "file too large");
        return PB_ERR_INVALID;
    }
    pb_status st = PB_OK;
    xmlDoc *doc = pb_xml_read(data, size, file, diag, &st);
    if (!doc)
        return st;
    char dir[4096];
    if (base_dir)
        snprintf(dir, sizeof dir, "%s", base_dir);
    else
        pb_path_dir(file, dir, sizeof dir);
    const parse_ctx ctx = {.file = file, .base_dir = dir, .diag = diag};
    st = parse_urdf(robot, doc, &ctx);
    xmlFreeDoc(doc);
    if (st == PB_OK && !(robot->urdf_path = dup_string(file)))
        st = PB_ERR_NOMEM;
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, file, 0, 0, "out of memory");
    if (st != PB_OK)
        pb_robot_finish(robot);
    return st;
}

pb_status pb_urdf_load(pb_robot *robot, const char *path, pb_diag *diag)
{
    return load_urdf(robot, NULL, 0, path, NULL, diag);
}

pb_status pb_urdf_load_memory(pb_robot *robot, const char *data, size_t size, const char *name,
                              const char *base_dir, pb_diag *diag)
{
    return load_urdf(robot, data, size, name, base_dir ? base_dir : ".", diag);
}

/* ---- SRDF ---- */

bool pb_joint_is_active(const pb_urdf_joint *joint)
{
    return joint->type != PB_JOINT_FIXED && joint->mimic < 0;
}

/* Append joint j to the group unless it is inactive or already there. */
static pb_status group_add(pb_srdf_group *group, size_t capacity, const pb_robot *robot, int j)
{
    if (j < 0 || !pb_joint_is_active(&robot->joints[j]))
        return PB_OK;
    for (size_t i = 0; i < group->n_joints; i++)
        if (group->joints[i] == j)
            return PB_OK;
    if (group->n_joints == capacity)
        return PB_ERR_INVALID;
    group->joints[group->n_joints++] = j;
    return PB_OK;
}

/* Resolve the group element `node` into `group`; subgroups are looked up among the
 * document's groups by name, `depth` guards against cycles. */
static pb_status resolve_group(const parse_ctx *ctx, const pb_robot *robot, const xmlNode *root,
                               const xmlNode *node, pb_srdf_group *group, int depth)
{
    const size_t capacity = robot->n_joints;
    char buf[512], buf2[512];
    if (depth > 16)
        return fail(ctx, node, "groups nest too deeply (a cycle of subgroups?)", NULL, NULL);
    for (const xmlNode *c = node->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        const char *name = pb_xml_attr(c, "name", buf, sizeof buf);
        pb_status st = PB_OK;
        if (is_element(c, "chain")) {
            const char *base = pb_xml_attr(c, "base_link", buf, sizeof buf),
                       *tip = pb_xml_attr(c, "tip_link", buf2, sizeof buf2);
            if (!base || !tip)
                return fail(ctx, c, "a chain needs base_link and tip_link", NULL, NULL);
            const int b = pb_robot_find_link(robot, base), t = pb_robot_find_link(robot, tip);
            if (b < 0 || t < 0)
                return fail(ctx, c, "link '%s' is not in the URDF", b < 0 ? base : tip, NULL);
            int path[256];
            size_t n = 0;
            for (int l = t; l != b; l = robot->joints[robot->links[l].parent_joint].parent) {
                if (robot->links[l].parent_joint < 0 || n == 256)
                    return fail(ctx, c, "link '%s' is not below link '%s'", tip, base);
                path[n++] = robot->links[l].parent_joint;
            }
            while (n > 0 && st == PB_OK)
                st = group_add(group, capacity, robot, path[--n]);
        } else if (is_element(c, "joint") || is_element(c, "passive_joint")) {
            if (!name)
                return fail(ctx, c, "missing attribute 'name'", NULL, NULL);
            const int j = pb_robot_find_joint(robot, name);
            if (j < 0)
                return fail(ctx, c, "joint '%s' is not in the URDF", name, NULL);
            if (is_element(c, "joint"))
                st = group_add(group, capacity, robot, j);
        } else if (is_element(c, "link")) {
            if (!name)
                return fail(ctx, c, "missing attribute 'name'", NULL, NULL);
            const int l = pb_robot_find_link(robot, name);
            if (l < 0)
                return fail(ctx, c, "link '%s' is not in the URDF", name, NULL);
            st = group_add(group, capacity, robot, robot->links[l].parent_joint);
        } else if (is_element(c, "group")) {
            if (!name)
                return fail(ctx, c, "missing attribute 'name'", NULL, NULL);
            const xmlNode *sub = NULL;
            for (const xmlNode *g = root->children; g && !sub; g = g->next) {
                char gbuf[512];
                const char *gname = is_element(g, "group") ? pb_xml_attr(g, "name", gbuf, sizeof gbuf) : NULL;
                if (gname && strcmp(gname, name) == 0 && g != node)
                    sub = g;
            }
            if (!sub)
                return fail(ctx, c, "subgroup '%s' is not defined", name, NULL);
            st = resolve_group(ctx, robot, root, sub, group, depth + 1);
        }
        if (st != PB_OK)
            return st;
    }
    return PB_OK;
}

/* An <end_effector name parent_link [group] [parent_group]/> into the next free entry of
 * robot->end_effectors (room made by the caller). The groups are kept as names: MoveIt
 * requires `group`, we need neither. */
static pb_status parse_end_effector(const parse_ctx *ctx, pb_robot *robot, const xmlNode *node)
{
    char name[512], link[512], group[512], parent_group[512];
    const char *n, *l;
    pb_status st = need_attr(ctx, node, "name", name, sizeof name, &n);
    if (st == PB_OK)
        st = need_attr(ctx, node, "parent_link", link, sizeof link, &l);
    if (st != PB_OK)
        return st;
    const int parent_link = pb_robot_find_link(robot, l);
    if (parent_link < 0)
        return fail(ctx, node, "parent_link '%s' is not in the URDF", l, NULL);
    const char *g = pb_xml_attr(node, "group", group, sizeof group),
               *pg = pb_xml_attr(node, "parent_group", parent_group, sizeof parent_group);
    pb_srdf_end_effector *e = &robot->end_effectors[robot->n_end_effectors];
    *e = (pb_srdf_end_effector){.name = dup_string(n),
                                .parent_link = parent_link,
                                .group = g ? dup_string(g) : NULL,
                                .parent_group = pg ? dup_string(pg) : NULL,
                                .line = node_line(node)};
    robot->n_end_effectors++; /* freed with the robot, also when incomplete */
    if (!e->name || (g && !e->group) || (pg && !e->parent_group))
        return PB_ERR_NOMEM;
    return PB_OK;
}

static pb_status parse_srdf(pb_robot *robot, xmlDoc *doc, const parse_ctx *ctx)
{
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_element(root, "robot"))
        return fail(ctx, root, "the root element of an SRDF must be <robot>", NULL, NULL);
    size_t n_groups = 0, n_pairs = 0, n_effectors = 0;
    for (const xmlNode *c = root->children; c; c = c->next) {
        n_groups += is_element(c, "group");
        n_pairs += is_element(c, "disable_collisions");
        n_effectors += is_element(c, "end_effector");
    }
    pb_srdf_group *groups = realloc(robot->groups, (robot->n_groups + n_groups + 1) * sizeof *groups);
    if (!groups)
        return PB_ERR_NOMEM;
    robot->groups = groups;
    int(*pairs)[2] = realloc(robot->disabled, (robot->n_disabled + n_pairs + 1) * sizeof *pairs);
    if (!pairs)
        return PB_ERR_NOMEM;
    robot->disabled = pairs;
    pb_srdf_end_effector *effectors =
        realloc(robot->end_effectors, (robot->n_end_effectors + n_effectors + 1) * sizeof *effectors);
    if (!effectors)
        return PB_ERR_NOMEM;
    robot->end_effectors = effectors;
    for (const xmlNode *c = root->children; c; c = c->next) {
        char buf[512], buf2[512];
        if (is_element(c, "group")) {
            const char *name = pb_xml_attr(c, "name", buf, sizeof buf);
            if (!name)
                return fail(ctx, c, "missing attribute 'name'", NULL, NULL);
            pb_srdf_group *g = &robot->groups[robot->n_groups];
            memset(g, 0, sizeof *g);
            g->name = dup_string(name);
            g->joints = malloc((robot->n_joints + 1) * sizeof *g->joints);
            robot->n_groups++;
            if (!g->name || !g->joints)
                return PB_ERR_NOMEM;
            pb_status st = resolve_group(ctx, robot, root, c, g, 0);
            if (st != PB_OK)
                return st;
        } else if (is_element(c, "disable_collisions")) {
            const char *a = pb_xml_attr(c, "link1", buf, sizeof buf),
                       *b = pb_xml_attr(c, "link2", buf2, sizeof buf2);
            if (!a || !b)
                return fail(ctx, c, "needs attributes link1 and link2", NULL, NULL);
            const int la = pb_robot_find_link(robot, a), lb = pb_robot_find_link(robot, b);
            if (la < 0 || lb < 0)
                return fail(ctx, c, "link '%s' is not in the URDF", la < 0 ? a : b, NULL);
            robot->disabled[robot->n_disabled][0] = la;
            robot->disabled[robot->n_disabled][1] = lb;
            robot->n_disabled++;
        } else if (is_element(c, "end_effector")) {
            pb_status st = parse_end_effector(ctx, robot, c);
            if (st != PB_OK)
                return st;
        }
    }
    return PB_OK;
}

static pb_status load_srdf(pb_robot *robot, const char *data, size_t size, const char *file, pb_diag *diag)
{
    if (data && size > (size_t)INT32_MAX) {
        pb_diag_set(diag, file, 0, 0, "file too large");
        return PB_ERR_INVALID;
    }
    pb_status st = PB_OK;
    xmlDoc *doc = pb_xml_read(data, size, file, diag, &st);
    if (!doc)
        return st;
    const parse_ctx ctx = {.file = file, .base_dir = ".", .diag = diag};
    st = parse_srdf(robot, doc, &ctx);
    xmlFreeDoc(doc);
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, file, 0, 0, "out of memory");
    return st;
}

pb_status pb_srdf_load(pb_robot *robot, const char *path, pb_diag *diag)
{
    return load_srdf(robot, NULL, 0, path, diag);
}

pb_status pb_srdf_load_memory(pb_robot *robot, const char *data, size_t size, const char *name, pb_diag *diag)
{
    return load_srdf(robot, data, size, name, diag);
}

void pb_robot_finish(pb_robot *robot)
{
    if (!robot)
        return;
    for (size_t i = 0; i < robot->n_links; i++) {
        for (size_t s = 0; s < robot->links[i].n_shapes; s++)
            free(robot->links[i].shapes[s].mesh_path);
        free(robot->links[i].shapes);
        free(robot->links[i].name);
    }
    for (size_t j = 0; j < robot->n_joints; j++)
        free(robot->joints[j].name);
    for (size_t g = 0; g < robot->n_groups; g++) {
        free(robot->groups[g].name);
        free(robot->groups[g].joints);
    }
    for (size_t e = 0; e < robot->n_end_effectors; e++) {
        free(robot->end_effectors[e].name);
        free(robot->end_effectors[e].group);
        free(robot->end_effectors[e].parent_group);
    }
    free(robot->end_effectors);
    free(robot->links);
    free(robot->joints);
    free(robot->groups);
    free(robot->disabled);
    free(robot->order);
    free(robot->name);
    free(robot->urdf_path);
    memset(robot, 0, sizeof *robot);
}

int pb_robot_find_link(const pb_robot *robot, const char *name)
{
    for (size_t i = 0; i < robot->n_links; i++)
        if (robot->links[i].name && strcmp(robot->links[i].name, name) == 0)
            return (int)i;
    return -1;
}

int pb_robot_find_joint(const pb_robot *robot, const char *name)
{
    for (size_t i = 0; i < robot->n_joints; i++)
        if (robot->joints[i].name && strcmp(robot->joints[i].name, name) == 0)
            return (int)i;
    return -1;
}

const pb_srdf_group *pb_robot_find_group(const pb_robot *robot, const char *name)
{
    for (size_t i = 0; i < robot->n_groups; i++)
        if (strcmp(robot->groups[i].name, name) == 0)
            return &robot->groups[i];
    return NULL;
}
