/* MotionBenchMaker problems in their original YAML (MoveIt PlanningScene and
 * MotionPlanRequest messages), read with libyaml. See world.h. */
#include "robot/mbm_yaml.h"
#include "io/input_file.h"

#include <yaml.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct yaml_ctx {
    yaml_document_t doc;
    const char *file;
    pb_diag *diag;
} yaml_ctx;

static pb_status yfail(const yaml_ctx *y, const yaml_node_t *node, const char *what, const char *detail)
{
    pb_diag_set(y->diag, y->file, node ? (int)node->start_mark.line + 1 : 0, 0, "%s%s%s%s", what,
                detail ? " '" : "", detail ? detail : "", detail ? "'" : "");
    return PB_ERR_INVALID;
}

static yaml_node_t *node_at(const yaml_ctx *y, int index)
{
    return yaml_document_get_node((yaml_document_t *)&y->doc, index);
}

/* The value of `key` in a mapping, NULL when absent (or `map` is not a mapping). */
static yaml_node_t *map_get(const yaml_ctx *y, const yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node_at(y, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return node_at(y, p->value);
    }
    return NULL;
}

static int seq_len(const yaml_node_t *seq)
{
    return seq && seq->type == YAML_SEQUENCE_NODE
               ? (int)(seq->data.sequence.items.top - seq->data.sequence.items.start)
               : -1;
}

static yaml_node_t *seq_at(const yaml_ctx *y, const yaml_node_t *seq, int i)
{
    return node_at(y, seq->data.sequence.items.start[i]);
}

static const char *scalar(const yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

static bool number(const yaml_node_t *node, double *out)
{
    const char *s = scalar(node);
    if (!s)
        return false;
    char *end = NULL;
    errno = 0;
    const double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* A sequence of exactly n numbers. */
static pb_status numbers(const yaml_ctx *y, const yaml_node_t *node, int n, double *out, const char *what)
{
    if (seq_len(node) != n)
        return yfail(y, node, "expected a list of numbers in", what);
    for (int i = 0; i < n; i++)
        if (!number(seq_at(y, node, i), &out[i]))
            return yfail(y, node, "expected a list of numbers in", what);
    return PB_OK;
}

/* Most obstacles one MotionBenchMaker scene may have (the published ones have tens). */
#define PB_MBM_MAX_OBSTACLES      100000
#define PB_MBM_MAX_OBSTACLES_TEXT "100000"

/* Parse the file `path`, or `data` when it is not NULL. */
static pb_status load_doc(yaml_ctx *y, const char *path, const char *data, size_t size)
{
    pb_status open_status = PB_ERR_IO;
    FILE *fp = data ? NULL : pb_file_open_regular(path, y->diag, &open_status);
    if (!data && !fp)
        return open_status;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        if (fp)
            fclose(fp);
        return PB_ERR_NOMEM;
    }
    if (data)
        yaml_parser_set_input_string(&parser, (const unsigned char *)data, size);
    else
        yaml_parser_set_input_file(&parser, fp);
    const int ok = yaml_parser_load(&parser, &y->doc);
    if (!ok)
        pb_diag_set(y->diag, path, (int)parser.problem_mark.line + 1, 0, "not YAML: %s",
                    parser.problem ? parser.problem : "parse error");
    yaml_parser_delete(&parser);
    if (fp)
        fclose(fp);
    if (!ok)
        return PB_ERR_INVALID;
    if (!yaml_document_get_root_node(&y->doc)) {
        yaml_document_delete(&y->doc);
        pb_diag_set(y->diag, path, 0, 0, "empty YAML document");
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

/* `dir/.../name.ext` for the first of `dir`, its parent, its grandparent that has it. */
static char *find_up(const char *dir, const char *name, const char *ext)
{
    char path[4096];
    const char *ups[] = {"", "/..", "/../..", "/../../.."};
    for (int k = 0; k < 4; k++) {
        const int n = snprintf(path, sizeof path, "%s%s/%s%s", dir, ups[k], name, ext);
        if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0) {
            /* without "..": mesh file names are resolved relative to the URDF */
            char *canonical = realpath(path, NULL);
            return canonical ? canonical : strdup(path);
        }
    }
    return NULL;
}

/* world.collision_objects: primitives (box: full sizes; cylinder: height, radius; sphere:
 * radius) with their world poses (position, orientation x y z w). */
static pb_status read_scene(const yaml_ctx *y, pb_world *world)
{
    const yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)&y->doc);
    const yaml_node_t *objects = map_get(y, map_get(y, root, "world"), "collision_objects");
    if (!objects)
        return PB_OK; /* an empty scene */
    const int n = seq_len(objects);
    if (n < 0)
        return yfail(y, objects, "expected a list of collision objects in", "collision_objects");
    size_t capacity = 0;
    for (int i = 0; i < n; i++) {
        const yaml_node_t *object = seq_at(y, objects, i);
        const char *id = scalar(map_get(y, object, "id"));
        const yaml_node_t *prims = map_get(y, object, "primitives"),
                          *poses = map_get(y, object, "primitive_poses");
        if (map_get(y, object, "meshes") && seq_len(map_get(y, object, "meshes")) > 0)
            return yfail(y, object, "mesh collision objects are not read yet:", id);
        const int np = seq_len(prims);
        if (np < 0 || seq_len(poses) != np)
            return yfail(y, object, "expected as many primitive_poses as primitives in object", id);
        for (int k = 0; k < np; k++) {
            /* YAML aliases let a few kilobytes name the same objects millions of times (84 KB
             * made 10M obstacles): a scene has at most PB_MBM_MAX_OBSTACLES */
            if (world->n_obstacles >= PB_MBM_MAX_OBSTACLES)
                return yfail(y, object, "more than " PB_MBM_MAX_OBSTACLES_TEXT " obstacles in the scene, at",
                             id);
            const yaml_node_t *prim = seq_at(y, prims, k), *pose = seq_at(y, poses, k);
            const char *type = scalar(map_get(y, prim, "type"));
            const yaml_node_t *dims = map_get(y, prim, "dimensions");
            pb_shape shape;
            memset(&shape, 0, sizeof shape);
            shape.line = (int)prim->start_mark.line + 1;
            pb_status st = PB_OK;
            double d[3];
            if (type && strcmp(type, "box") == 0) {
                shape.type = PB_SHAPE_BOX;
                st = numbers(y, dims, 3, shape.size, "dimensions");
            } else if (type && strcmp(type, "cylinder") == 0) {
                shape.type = PB_SHAPE_CYLINDER;
                if ((st = numbers(y, dims, 2, d, "dimensions")) == PB_OK) {
                    shape.size[0] = d[1]; /* radius */
                    shape.size[1] = d[0]; /* height */
                }
            } else if (type && strcmp(type, "sphere") == 0) {
                shape.type = PB_SHAPE_SPHERE;
                st = numbers(y, dims, 1, shape.size, "dimensions");
            } else {
                return yfail(y, prim, "unknown primitive type (box, cylinder, sphere)", type);
            }
            double xyz[3], quat[4];
            if (st == PB_OK && (st = numbers(y, map_get(y, pose, "position"), 3, xyz, "position")) == PB_OK &&
                (st = numbers(y, map_get(y, pose, "orientation"), 4, quat, "orientation")) == PB_OK)
                shape.origin = pb_pose_from_xyz_quat(xyz, quat);
            for (int c = 0; st == PB_OK && c < 3; c++)
                if (!(shape.size[c] >= 0.0))
                    st = yfail(y, dims, "negative dimensions in object", id);
            if (st != PB_OK)
                return st;
            char name[256];
            snprintf(name, sizeof name, np > 1 ? "%s#%d" : "%s", id ? id : "object", k);
            if ((st = pb_world_add_obstacle(world, &capacity, name, &shape)) != PB_OK)
                return st;
        }
    }
    return PB_OK;
}

/* start_state.joint_state (names and positions) and goal_constraints[0].joint_constraints:
 * the goal's joints are the joints planned for, in its order. */
static pb_status read_request(const yaml_ctx *y, pb_world *world)
{
    const yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)&y->doc);
    const yaml_node_t *goals = map_get(y, root, "goal_constraints");
    const yaml_node_t *joints =
        seq_len(goals) > 0 ? map_get(y, seq_at(y, goals, 0), "joint_constraints") : NULL;
    const int n = seq_len(joints);
    if (n < 1 || n > PB_MAX_DIM)
        return yfail(y, goals ? goals : root, "expected 1 to 32 joint constraints in", "goal_constraints");
    world->joints = calloc((size_t)n, sizeof *world->joints);
    if (!world->joints)
        return PB_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        const yaml_node_t *c = seq_at(y, joints, i);
        const char *name = scalar(map_get(y, c, "joint_name"));
        if (!name || !number(map_get(y, c, "position"), &world->goal[i]))
            return yfail(y, c, "a joint constraint needs joint_name and position", NULL);
        if (!(world->joints[i] = strdup(name)))
            return PB_ERR_NOMEM;
        world->n_joints++;
    }
    world->n_goal = n;
    world->goal_line = (int)joints->start_mark.line + 1;
    const yaml_node_t *state = map_get(y, map_get(y, root, "start_state"), "joint_state");
    const yaml_node_t *names = map_get(y, state, "name"), *positions = map_get(y, state, "position");
    const int m = seq_len(names);
    if (m < 0 || seq_len(positions) != m)
        return yfail(y, state ? state : root, "expected start_state.joint_state with names and positions",
                     NULL);
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int k = 0; k < m && !found; k++) {
            const char *name = scalar(seq_at(y, names, k));
            if (name && strcmp(name, world->joints[i]) == 0) {
                if (!number(seq_at(y, positions, k), &world->start[i]))
                    return yfail(y, positions, "expected numbers in", "position");
                found = true;
            }
        }
        if (!found)
            return yfail(y, state, "the start state has no value for joint", world->joints[i]);
    }
    world->n_start = n;
    world->start_line = (int)state->start_mark.line + 1;
    return PB_OK;
}

/* The scene and request of one problem: "sceneNNNN.yaml" and "requestNNNN.yaml" beside it. */
static bool sibling(const char *path, const char *from, const char *to, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, from, strlen(from)) != 0)
        return false;
    const int n = snprintf(out, size, "%.*s%s%s", (int)(base - path), path, to, base + strlen(from));
    return n > 0 && (size_t)n < size;
}

static pb_status load_problem(pb_world *world, const char *scene_path, const char *scene_data,
                              size_t scene_size, const char *request_path, const char *request_data,
                              size_t request_size, pb_diag *diag);

bool pb_mbm_yaml_is_problem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const size_t n = strlen(base);
    const bool yaml =
        (n > 5 && strcmp(base + n - 5, ".yaml") == 0) || (n > 4 && strcmp(base + n - 4, ".yml") == 0);
    return yaml && (strncmp(base, "scene", 5) == 0 || strncmp(base, "request", 7) == 0);
}

pb_status pb_mbm_yaml_load(pb_world *world, const char *path, pb_diag *diag)
{
    char scene_path[4096], request_path[4096];
    if (sibling(path, "scene", "scene", scene_path, sizeof scene_path)) {
        sibling(path, "scene", "request", request_path, sizeof request_path);
    } else if (sibling(path, "request", "request", request_path, sizeof request_path)) {
        sibling(path, "request", "scene", scene_path, sizeof scene_path);
    } else {
        pb_diag_set(diag, path, 0, 0,
                    "a MotionBenchMaker problem is a sceneNNNN.yaml with requestNNNN.yaml beside it");
        return PB_ERR_INVALID;
    }
    return load_problem(world, scene_path, NULL, 0, request_path, NULL, 0, diag);
}

static pb_status load_problem(pb_world *world, const char *scene_path, const char *scene_data,
                              size_t scene_size, const char *request_path, const char *request_data,
                              size_t request_size, pb_diag *diag)
{
    yaml_ctx scene = {.file = scene_path, .diag = diag}, request = {.file = request_path, .diag = diag};
    pb_status st = load_doc(&scene, scene_path, scene_data, scene_size);
    if (st != PB_OK)
        return st;
    if ((st = load_doc(&request, request_path, request_data, request_size)) != PB_OK) {
        yaml_document_delete(&scene.doc);
        return st;
    }
    world->base = pb_pose_identity();
    st = read_scene(&scene, world);
    if (st == PB_OK)
        st = read_request(&request, world);
    const yaml_node_t *root = yaml_document_get_root_node(&scene.doc);
    const char *robot = scalar(map_get(&scene, root, "robot_model_name"));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", scene_path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (st != PB_OK) {
        /* reported */
    } else if (!robot) {
        st = yfail(&scene, root, "no robot_model_name", NULL);
    } else if (!(world->urdf_path = find_up(dir, robot, ".urdf"))) {
        pb_diag_set(diag, scene_path, 0, 0,
                    "robot '%s': no %s.urdf in the problem's folder or the 3 above it", robot, robot);
        st = PB_ERR_INVALID;
    } else {
        world->srdf_path = find_up(dir, robot, ".srdf");
        const char *base = strrchr(scene_path, '/');
        if (!(world->name = strdup(base ? base + 1 : scene_path)))
            st = PB_ERR_NOMEM;
    }
    yaml_document_delete(&scene.doc);
    yaml_document_delete(&request.doc);
    return st;
}

pb_status pb_mbm_yaml_load_memory(pb_world *world, const char *scene, size_t scene_size, const char *request,
                                  size_t request_size, const char *name, pb_diag *diag)
{
    memset(world, 0, sizeof *world);
    const pb_status st = load_problem(world, name, scene, scene_size, name, request, request_size, diag);
    if (st != PB_OK)
        pb_world_finish(world);
    return st;
}
