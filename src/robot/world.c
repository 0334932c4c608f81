/* World XML and MotionBenchMaker flat files. See world.h and worlds/README.md. */
#include "robot/world.h"
#include "io/xml.h"
#include "planbench/impl/engine_impl.h"
#include "robot/klampt.h"
#if PB_HAVE_YAML
#include "robot/mbm_yaml.h"
#include "io/input_file.h"
#endif

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAT_MAGIC "# planbench-flat-mbm"

/* `name` relative to `dir` unless absolute; malloc'd. */
static char *join_path(const char *dir, const char *name)
{
    if (name[0] == '/')
        return strdup(name);
    const size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Split a whitespace-separated list of names into world->joints. */
static pb_status set_joint_names(pb_world *world, const char *list)
{
    char *copy = strdup(list);
    if (!copy)
        return PB_ERR_NOMEM;
    size_t n = 0;
    for (char *save = NULL, *tok = strtok_r(copy, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save))
        n++;
    free(copy);
    if (n == 0 || n > PB_MAX_DIM)
        return PB_ERR_INVALID;
    world->joints = calloc(n, sizeof *world->joints);
    copy = strdup(list);
    if (!world->joints || !copy) {
        free(copy);
        return PB_ERR_NOMEM;
    }
    for (char *save = NULL, *tok = strtok_r(copy, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (!(world->joints[world->n_joints] = strdup(tok))) {
            free(copy);
            return PB_ERR_NOMEM;
        }
        world->n_joints++;
    }
    free(copy);
    return PB_OK;
}

/* ---- world XML ---- */

typedef struct xml_ctx {
    const char *file;
    const char *dir;
    pb_diag *diag;
} xml_ctx;

static int line_of(const xmlNode *node)
{
    return node ? (int)xmlGetLineNo(node) : 0;
}

static bool element_is(const xmlNode *node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

static pb_status xml_fail(const xml_ctx *ctx, const xmlNode *node, const char *message, const char *detail)
{
    pb_diag_set(ctx->diag, ctx->file, line_of(node), 0, "<%s>: %s%s%s%s",
                node ? (const char *)node->name : "?", message, detail ? " '" : "", detail ? detail : "",
                detail ? "'" : "");
    return PB_ERR_INVALID;
}

static pb_status numbers_attr(const xml_ctx *ctx, const xmlNode *node, const char *name, int n, double *out,
                              bool required)
{
    char buf[512];
    const char *v = pb_xml_attr(node, name, buf, sizeof buf);
    if (!v)
        return required ? xml_fail(ctx, node, "missing attribute", name) : PB_OK;
    if (pb_parse_doubles(v, out, n) != n) {
        char msg[128];
        snprintf(msg, sizeof msg, "expected %d number%s in attribute", n, n > 1 ? "s" : "");
        return xml_fail(ctx, node, msg, name);
    }
    return PB_OK;
}

/* xyz + rpy (or quat "x y z w") attributes. */
static pb_status pose_attrs(const xml_ctx *ctx, const xmlNode *node, pb_pose *out)
{
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0}, quat[4] = {0, 0, 0, 1};
    pb_status st;
    if ((st = numbers_attr(ctx, node, "xyz", 3, xyz, false)) != PB_OK ||
        (st = numbers_attr(ctx, node, "rpy", 3, rpy, false)) != PB_OK ||
        (st = numbers_attr(ctx, node, "quat", 4, quat, false)) != PB_OK)
        return st;
    xmlChar *has_quat = xmlGetProp(node, (const xmlChar *)"quat");
    if (has_quat) {
        xmlFree(has_quat);
        xmlChar *has_rpy = xmlGetProp(node, (const xmlChar *)"rpy");
        if (has_rpy) {
            xmlFree(has_rpy);
            return xml_fail(ctx, node, "give either rpy or quat, not both", NULL);
        }
        *out = pb_pose_from_xyz_quat(xyz, quat);
    } else {
        *out = pb_pose_from_xyz_rpy(xyz, rpy);
    }
    return PB_OK;
}

static pb_status read_obstacle(const xml_ctx *ctx, const xmlNode *node, pb_world *world, size_t *capacity)
{
    static const double one[3] = {1, 1, 1};
    pb_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.line = line_of(node);
    char name_buf[256], file_buf[2048];
    const char *name = pb_xml_attr(node, "name", name_buf, sizeof name_buf);
    pb_status st = pose_attrs(ctx, node, &shape.origin);
    if (st != PB_OK)
        return st;
    if (element_is(node, "box")) {
        shape.type = PB_SHAPE_BOX;
        st = numbers_attr(ctx, node, "size", 3, shape.size, true);
    } else if (element_is(node, "cylinder")) {
        shape.type = PB_SHAPE_CYLINDER;
        if ((st = numbers_attr(ctx, node, "radius", 1, &shape.size[0], true)) == PB_OK)
            st = numbers_attr(ctx, node, "length", 1, &shape.size[1], true);
    } else if (element_is(node, "sphere")) {
        shape.type = PB_SHAPE_SPHERE;
        st = numbers_attr(ctx, node, "radius", 1, &shape.size[0], true);
    } else {
        shape.type = PB_SHAPE_MESH;
        const char *file = pb_xml_attr(node, "file", file_buf, sizeof file_buf);
        if (!file)
            return xml_fail(ctx, node, "missing attribute", "file");
        memcpy(shape.size, one, sizeof shape.size);
        if ((st = numbers_attr(ctx, node, "scale", 3, shape.size, false)) != PB_OK)
            return st;
        if (!(shape.mesh_path = join_path(ctx->dir, file)))
            return PB_ERR_NOMEM;
    }
    for (int i = 0; st == PB_OK && i < 3; i++)
        if (!(shape.size[i] >= 0.0))
            st = xml_fail(ctx, node, "sizes must not be negative", NULL);
    if (st == PB_OK)
        st = pb_world_add_obstacle(world, capacity, name ? name : (const char *)node->name, &shape);
    if (st != PB_OK)
        free(shape.mesh_path);
    return st;
}

static pb_status read_config(const xml_ctx *ctx, const xmlNode *node, double *out, int *n, int *line)
{
    xmlChar *text = xmlNodeGetContent(node);
    if (!text)
        return PB_ERR_NOMEM;
    const int count = pb_parse_doubles((const char *)text, out, PB_MAX_DIM);
    xmlFree(text);
    if (count <= 0)
        return xml_fail(ctx, node, "expected joint values (numbers separated by spaces or commas)", NULL);
    *n = count;
    *line = line_of(node);
    return PB_OK;
}

/* ---- Klampt worlds ---- */

/* A Klampt element's pose: position or translation (3 numbers), then rotateX, rotateY,
 * rotateZ (radians) as R = Rz Ry Rx. `given` tells whether any was there. */
static pb_status klampt_pose(const xml_ctx *ctx, const xmlNode *node, pb_pose *out, bool *given)
{
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
    static const char *const names[] = {"position", "translation", "rotateX", "rotateY", "rotateZ"};
    *given = false;
    for (int k = 0; k < 5; k++) {
        char buf[256];
        if (!pb_xml_attr(node, names[k], buf, sizeof buf))
            continue;
        *given = true;
        pb_status st = numbers_attr(ctx, node, names[k], k < 2 ? 3 : 1, k < 2 ? xyz : &rpy[k - 2], true);
        if (st != PB_OK)
            return st;
    }
    *out = pb_pose_from_xyz_rpy(xyz, rpy);
    return PB_OK;
}

static pb_status read_klampt_robot(const xml_ctx *ctx, const xmlNode *node, pb_world *world)
{
    char buf[2048];
    const char *file = pb_xml_attr(node, "file", buf, sizeof buf);
    if (!file)
        return xml_fail(ctx, node, "missing attribute", "file");
    if (!(world->urdf_path = join_path(ctx->dir, file)))
        return PB_ERR_NOMEM;
    pb_klampt_robot robot;
    pb_diag inner = {0};
    pb_status st = pb_klampt_robot_load(&robot, world->urdf_path, &inner);
    if (st != PB_OK) {
        pb_diag_set(ctx->diag, ctx->file, line_of(node), 0, "<robot>: %s:%d: %s",
                    inner.file[0] ? inner.file : file, inner.line, inner.message);
        return st == PB_ERR_NOMEM ? st : PB_ERR_INVALID;
    }
    world->urdf_text = robot.urdf;
    world->srdf_text = robot.srdf;
    robot.urdf = robot.srdf = NULL;
    st = set_joint_names(world, robot.joints);
    pb_klampt_robot_finish(&robot);
    if (st != PB_OK)
        return st == PB_ERR_INVALID ? xml_fail(ctx, node, "the robot must have 1 to 32 movable joints", NULL)
                                    : st;
    bool given;
    return klampt_pose(ctx, node, &world->base, &given);
}

static pb_status read_klampt_obstacle(const xml_ctx *ctx, const xmlNode *node, pb_world *world,
                                      size_t *capacity)
{
    char buf[2048], name_buf[256];
    const char *file = pb_xml_attr(node, "file", buf, sizeof buf);
    if (!file)
        return xml_fail(ctx, node, "missing attribute", "file");
    char *path = join_path(ctx->dir, file);
    if (!path)
        return PB_ERR_NOMEM;
    pb_shape shape;
    pb_pose pose;
    bool given = false;
    pb_status st = klampt_pose(ctx, node, &pose, &given);
    if (st == PB_OK && element_is(node, "rigidObject")) {
        pb_pose file_pose;
        bool has_pose;
        pb_diag inner = {0};
        st = pb_klampt_object_load(&shape, &file_pose, &has_pose, path, &inner);
        free(path);
        if (st != PB_OK) {
            pb_diag_set(ctx->diag, ctx->file, line_of(node), 0, "<rigidObject>: %s:%d: %s",
                        inner.file[0] ? inner.file : file, inner.line, inner.message);
            return st == PB_ERR_NOMEM ? st : PB_ERR_INVALID;
        }
        if (!given)
            pose = file_pose;
    } else if (st == PB_OK) {
        memset(&shape, 0, sizeof shape);
        shape.type = PB_SHAPE_MESH;
        shape.mesh_path = path;
        shape.origin = pb_pose_identity();
        double scale[3] = {1, 1, 1};
        char sbuf[256];
        const char *text = pb_xml_attr(node, "scale", sbuf, sizeof sbuf);
        if (text && pb_parse_doubles(text, scale, 3) != 3) {
            if (pb_parse_doubles(text, scale, 1) == 1)
                scale[1] = scale[2] = scale[0];
            else
                st = xml_fail(ctx, node, "expected 1 or 3 numbers in attribute", "scale");
        }
        if (st == PB_OK && !(scale[0] > 0 && scale[1] > 0 && scale[2] > 0))
            st = xml_fail(ctx, node, "scales must be positive", NULL);
        memcpy(shape.size, scale, sizeof scale);
    } else {
        free(path);
        return st;
    }
    shape.line = line_of(node);
    shape.origin = pb_pose_mul(&pose, &shape.origin);
    const char *name = pb_xml_attr(node, "name", name_buf, sizeof name_buf);
    char fallback[64];
    snprintf(fallback, sizeof fallback, "%s%zu", (const char *)node->name, world->n_obstacles);
    if (st == PB_OK)
        st = pb_world_add_obstacle(world, capacity, name ? name : fallback, &shape);
    if (st != PB_OK)
        free(shape.mesh_path);
    return st;
}

/* Klampt's world: <robot file=...>, <terrain>, <rigidObject>. */
static pb_status parse_klampt_world(const xml_ctx *ctx, const xmlNode *root, pb_world *world)
{
    size_t capacity = 0;
    bool have_robot = false;
    pb_status st = PB_OK;
    for (const xmlNode *c = root->children; c && st == PB_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (element_is(c, "robot")) {
            if (have_robot)
                return xml_fail(ctx, c, "planbench plans for one robot per world", NULL);
            have_robot = true;
            st = read_klampt_robot(ctx, c, world);
        } else if (element_is(c, "terrain") || element_is(c, "rigidObject")) {
            st = read_klampt_obstacle(ctx, c, world, &capacity);
        }
    }
    return st;
}

static bool is_klampt_world(const xmlNode *root)
{
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (!element_is(c, "robot"))
            continue;
        char buf[8];
        xmlChar *file = xmlGetProp(c, (const xmlChar *)"file");
        const bool klampt = file && !pb_xml_attr(c, "urdf", buf, sizeof buf);
        xmlFree(file);
        return klampt;
    }
    return false;
}

static pb_status parse_world(const xml_ctx *ctx, xmlDoc *doc, pb_world *world)
{
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (root && element_is(root, "robot"))
        return xml_fail(
            ctx, root,
            "this is a URDF robot, not a world: plan with a world file whose <robot urdf=...> names it, "
            "as worlds/pbarm6_divider.xml does (worlds/README.md)",
            NULL);
    if (!root || !element_is(root, "world"))
        return xml_fail(ctx, root, "the root element of a world must be <world>", NULL);
    char buf[2048];
    const char *name = pb_xml_attr(root, "name", buf, sizeof buf);
    if (!(world->name = strdup(name ? name : "world")))
        return PB_ERR_NOMEM;
    world->base = pb_pose_identity();
    if (is_klampt_world(root)) {
        world->static_contacts_ok = true; /* as in Klampt, which ignores links that cannot move */
        return parse_klampt_world(ctx, root, world);
    }
    size_t capacity = 0;
    const xmlNode *robot = NULL;
    pb_status st = PB_OK;
    for (const xmlNode *c = root->children; c && st == PB_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (element_is(c, "robot")) {
            if (robot)
                return xml_fail(ctx, c, "a world has one robot", NULL);
            robot = c;
            const char *urdf = pb_xml_attr(c, "urdf", buf, sizeof buf);
            if (!urdf)
                return xml_fail(ctx, c, "missing attribute", "urdf");
            if (!(world->urdf_path = join_path(ctx->dir, urdf)))
                return PB_ERR_NOMEM;
            const char *srdf = pb_xml_attr(c, "srdf", buf, sizeof buf);
            if (srdf && !(world->srdf_path = join_path(ctx->dir, srdf)))
                return PB_ERR_NOMEM;
            const char *group = pb_xml_attr(c, "group", buf, sizeof buf);
            if (group && !(world->group = strdup(group)))
                return PB_ERR_NOMEM;
            const char *joints = pb_xml_attr(c, "joints", buf, sizeof buf);
            if (joints && (st = set_joint_names(world, joints)) != PB_OK)
                return st == PB_ERR_INVALID
                           ? xml_fail(ctx, c, "attribute 'joints' must list 1 to 32 joint names", NULL)
                           : st;
            if (group && joints)
                return xml_fail(ctx, c, "give either group or joints, not both", NULL);
            if (group && !world->srdf_path)
                return xml_fail(ctx, c, "a group needs an SRDF (attribute 'srdf')", NULL);
            st = pose_attrs(ctx, c, &world->base);
        } else if (element_is(c, "box") || element_is(c, "cylinder") || element_is(c, "sphere") ||
                   element_is(c, "mesh")) {
            st = read_obstacle(ctx, c, world, &capacity);
        } else if (element_is(c, "start")) {
            st = read_config(ctx, c, world->start, &world->n_start, &world->start_line);
        } else if (element_is(c, "goal")) {
            st = read_config(ctx, c, world->goal, &world->n_goal, &world->goal_line);
        } else if (element_is(c, "resolution")) {
            double r[PB_MAX_DIM];
            int n = 0, line = 0;
            if ((st = read_config(ctx, c, r, &n, &line)) == PB_OK) {
                if (n != 1 || !(r[0] > 0.0) || r[0] > 10.0)
                    return xml_fail(ctx, c, "expected one resolution in radians, in (0, 10]", NULL);
                world->resolution = r[0];
            }
        } else {
            return xml_fail(ctx, c,
                            "unknown element (expected robot, box, cylinder, sphere, mesh, start, goal, "
                            "resolution)",
                            NULL);
        }
    }
    if (st != PB_OK)
        return st;
    if (!robot)
        return xml_fail(ctx, root, "the world has no <robot urdf=...>", NULL);
    return PB_OK;
}

static pb_status load_xml(pb_world *world, const char *data, size_t size, const char *file, const char *dir,
                          pb_diag *diag)
{
    pb_status st = PB_OK;
    xmlDoc *doc = pb_xml_read(data, size, file, diag, &st);
    if (!doc)
        return st;
    const xml_ctx ctx = {.file = file, .dir = dir, .diag = diag};
    st = parse_world(&ctx, doc, world);
    xmlFreeDoc(doc);
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, file, 0, 0, "out of memory");
    return st;
}

pb_status pb_world_load_xml_memory(pb_world *world, const char *data, size_t size, const char *name,
                                   const char *base_dir, pb_diag *diag)
{
    memset(world, 0, sizeof *world);
    pb_status st = load_xml(world, data, size, name, base_dir ? base_dir : ".", diag);
    if (st == PB_OK && !(world->path = strdup(name)))
        st = PB_ERR_NOMEM;
    if (st != PB_OK)
        pb_world_finish(world);
    return st;
}

/* ---- MotionBenchMaker flat files ---- */

static pb_status load_flat(pb_world *world, const char *path, const char *problem, pb_diag *diag)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        pb_diag_set(diag, path, 0, 0, "cannot open the file (%s)", strerror(errno));
        return PB_ERR_IO;
    }
    char want_scenario[128] = "";
    long want_index = -1;
    if (problem) {
        const char *colon = strchr(problem, ':');
        char *end = NULL;
        if (colon)
            want_index = strtol(colon + 1, &end, 10);
        if (!colon || colon == problem || (size_t)(colon - problem) >= sizeof want_scenario ||
            end == colon + 1 || *end != '\0' || want_index < 0) {
            fclose(fp);
            pb_diag_set(diag, NULL, 0, 0,
                        "problem: expected SCENARIO:INDEX (like bookshelf_small:1), got '%s'", problem);
            return PB_ERR_INVALID;
        }
        memcpy(want_scenario, problem, (size_t)(colon - problem));
        want_scenario[colon - problem] = '\0';
    }
    char dir[4096];
    pb_path_dir(path, dir, sizeof dir);
    char line[4096], robot_name[128] = "";
    int line_no = 0;
    bool in_block = false, found = false, done = false;
    size_t capacity = 0;
    pb_status st = PB_OK;
    world->base = pb_pose_identity();
    while (!done && st == PB_OK && fgets(line, sizeof line, fp)) {
        line_no++;
        if (!strchr(line, '\n') && !feof(fp)) {
            pb_diag_set(diag, path, line_no, 0, "line too long");
            st = PB_ERR_INVALID;
            break;
        }
        if (line_no == 1) {
            const char *robot = strstr(line, "| robot ");
            if (strncmp(line, FLAT_MAGIC, strlen(FLAT_MAGIC)) != 0 || !robot ||
                sscanf(robot + 8, "%127s", robot_name) != 1) {
                pb_diag_set(diag, path, 1, 0, "not an MBM flat file: expected '%s v1 | robot NAME' on line 1",
                            FLAT_MAGIC);
                st = PB_ERR_INVALID;
            }
            continue;
        }
        if (strncmp(line, "# joints ", 9) == 0 && world->n_joints == 0) {
            if (set_joint_names(world, line + 9) != PB_OK) {
                pb_diag_set(diag, path, line_no, 0, "'# joints' must list 1 to 32 joint names");
                st = PB_ERR_INVALID;
            }
            continue;
        }
        char kind[32], name[128];
        if (line[0] == '#' || sscanf(line, "%31s", kind) != 1)
            continue;
        if (strcmp(kind, "problem") == 0) {
            char scenario[128];
            long index;
            if (sscanf(line, "problem %127s %ld", scenario, &index) != 2) {
                pb_diag_set(diag, path, line_no, 0, "expected 'problem SCENARIO INDEX'");
                st = PB_ERR_INVALID;
                break;
            }
            in_block = !problem || (strcmp(scenario, want_scenario) == 0 && index == want_index);
            if (in_block) {
                found = true;
                char full[300];
                snprintf(full, sizeof full, "%s:%ld", scenario, index);
                if (!(world->name = strdup(full)))
                    st = PB_ERR_NOMEM;
            }
            continue;
        }
        if (!in_block)
            continue;
        double v[11];
        pb_shape shape;
        memset(&shape, 0, sizeof shape);
        shape.line = line_no;
        if (strcmp(kind, "end") == 0) {
            done = true;
        } else if (strcmp(kind, "start") == 0 || strcmp(kind, "goal") == 0) {
            const bool is_start = kind[0] == 's';
            const int n =
                pb_parse_doubles(line + strlen(kind), is_start ? world->start : world->goal, PB_MAX_DIM);
            if (n <= 0) {
                pb_diag_set(diag, path, line_no, 0, "%s: expected joint values", kind);
                st = PB_ERR_INVALID;
            }
            *(is_start ? &world->n_start : &world->n_goal) = n;
            *(is_start ? &world->start_line : &world->goal_line) = line_no;
        } else if (strcmp(kind, "box") == 0 || strcmp(kind, "cylinder") == 0) {
            const int want = kind[0] == 'b' ? 10 : 9;
            const int got = sscanf(line + strlen(kind), "%127s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", name,
                                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
            if (got != want + 1) {
                pb_diag_set(diag, path, line_no, 0, "%s: expected NAME and %d numbers", kind, want);
                st = PB_ERR_INVALID;
                break;
            }
            shape.origin = pb_pose_from_xyz_quat(v, v + 3);
            if (kind[0] == 'b') {
                shape.type = PB_SHAPE_BOX; /* half extents in the file */
                shape.size[0] = 2.0 * v[7];
                shape.size[1] = 2.0 * v[8];
                shape.size[2] = 2.0 * v[9];
            } else {
                shape.type = PB_SHAPE_CYLINDER;
                shape.size[0] = v[7];
                shape.size[1] = v[8];
            }
            st = pb_world_add_obstacle(world, &capacity, name, &shape);
        } else if (strcmp(kind, "sphere") == 0) {
            if (sscanf(line + 6, "%127s %lf %lf %lf %lf", name, &v[0], &v[1], &v[2], &v[3]) != 5) {
                pb_diag_set(diag, path, line_no, 0, "sphere: expected NAME px py pz radius");
                st = PB_ERR_INVALID;
                break;
            }
            static const double rpy0[3] = {0, 0, 0};
            shape.type = PB_SHAPE_SPHERE;
            shape.origin = pb_pose_from_xyz_rpy(v, rpy0);
            shape.size[0] = v[3];
            st = pb_world_add_obstacle(world, &capacity, name, &shape);
        } else {
            pb_diag_set(diag, path, line_no, 0,
                        "unknown line '%s' (expected start, goal, box, cylinder, sphere, end)", kind);
            st = PB_ERR_INVALID;
        }
        for (int i = 0; st == PB_OK && i < 3; i++)
            if (!(shape.size[i] >= 0.0) || !isfinite(shape.size[i])) {
                pb_diag_set(diag, path, line_no, 0, "sizes must be finite and not negative");
                st = PB_ERR_INVALID;
            }
    }
    fclose(fp);
    if (st == PB_OK && !found) {
        pb_diag_set(diag, path, 0, 0,
                    problem ? "no problem '%s' in this file" : "the file holds no problem%s",
                    problem ? problem : "");
        st = problem ? PB_ERR_NOT_FOUND : PB_ERR_INVALID;
    }
    if (st == PB_OK && world->n_joints == 0) {
        pb_diag_set(diag, path, 0, 0, "no '# joints' line naming the joints");
        st = PB_ERR_INVALID;
    }
    if (st == PB_OK) {
        char file[300];
        snprintf(file, sizeof file, "%s.urdf", robot_name);
        world->urdf_path = join_path(dir, file);
        snprintf(file, sizeof file, "%s.srdf", robot_name);
        world->srdf_path = join_path(dir, file);
        if (!world->urdf_path || !world->srdf_path)
            st = PB_ERR_NOMEM;
    }
    return st;
}

/* ---- dispatch ---- */

static bool read_head(const char *path, char *buf, size_t size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    const size_t n = fread(buf, 1, size - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return true;
}

/* The first element name after the XML declaration, comments and doctype. */
static bool root_is_world(const char *head)
{
    const char *p = head;
    for (;;) {
        p = strchr(p, '<');
        if (!p)
            return false;
        if (strncmp(p, "<?", 2) == 0 || strncmp(p, "<!", 2) == 0) {
            const char *end = strncmp(p, "<!--", 4) == 0 ? strstr(p, "-->") : strchr(p, '>');
            if (!end)
                return false;
            p = end + 1;
            continue;
        }
        return strncmp(p, "<world", 6) == 0 &&
               (p[6] == '>' || p[6] == ' ' || p[6] == '\t' || p[6] == '\n' || p[6] == '\r' || p[6] == '/');
    }
}

bool pb_world_is_world_file(const char *path)
{
    char head[4096];
    if (!read_head(path, head, sizeof head))
        return false;
#if PB_HAVE_YAML
    if (pb_mbm_yaml_is_problem(path))
        return true;
#endif
    return strncmp(head, FLAT_MAGIC, strlen(FLAT_MAGIC)) == 0 || root_is_world(head);
}

pb_status pb_world_load(pb_world *world, const char *path, const char *problem, pb_diag *diag)
{
    memset(world, 0, sizeof *world);
    char head[4096];
    if (!read_head(path, head, sizeof head)) {
        pb_diag_set(diag, path, 0, 0, "cannot open the world file (%s)", strerror(errno));
        return PB_ERR_IO;
    }
    pb_status st;
#if PB_HAVE_YAML
    if (pb_mbm_yaml_is_problem(path) && !problem) {
        st = pb_mbm_yaml_load(world, path, diag);
    } else
#endif
        if (strncmp(head, FLAT_MAGIC, strlen(FLAT_MAGIC)) == 0) {
        st = load_flat(world, path, problem, diag);
    } else if (problem) {
        pb_diag_set(diag, path, 0, 0, "the option problem=%s is for MotionBenchMaker flat files only",
                    problem);
        st = PB_ERR_INVALID;
    } else {
        char dir[4096];
        pb_path_dir(path, dir, sizeof dir);
        st = load_xml(world, NULL, 0, path, dir, diag);
    }
    if (st == PB_OK && !(world->path = strdup(path)))
        st = PB_ERR_NOMEM;
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, path, 0, 0, "out of memory");
    if (st != PB_OK)
        pb_world_finish(world);
    return st;
}
