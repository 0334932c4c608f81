/* Sim worlds (<simworld>) and spawnable robots (<simrobot>), read with libxml2. The format is
 * documented in worlds/README.md ("Simulation worlds"). The root element <world> belongs to
 * the manipulator engine; this reader accepts only its own roots. */
#include "planbench/impl/engine_impl.h"
#include "sim_internal.h"
#include "io/input_file.h"
#include "io/xml.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bound on files we read: worlds are small. */
#define MAX_XML_BYTES (1 << 20)

char *sim_strdup(const char *s)
{
    if (!s)
        s = "";
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void sim_strings_finish(sim_strings *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->items[i]);
    free(s->items);
    s->items = NULL;
    s->n = 0;
}

static void set_message(char *message, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_message(char *message, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
}

/* An attribute as an owned C string ("" when absent), or NULL on allocation failure. */
static char *attr(const xmlNode *node, const char *name)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    char *s = sim_strdup(v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

/* A finite number attribute; `fallback` when absent. */
static bool attr_double(const xmlNode *node, const char *name, double fallback, double *out)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    if (!v) {
        *out = fallback;
        return true;
    }
    char *end = NULL;
    *out = strtod((const char *)v, &end);
    const bool ok = end != (char *)v && *end == '\0' && isfinite(*out);
    xmlFree(v);
    return ok;
}

/* "a,b,c" into tags (empty items dropped). */
static bool split_tags(const char *text, sim_strings *out)
{
    out->items = NULL;
    out->n = 0;
    size_t cap = 0;
    const char *p = text;
    while (*p) {
        const char *q = strchr(p, ',');
        const size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len > 0) {
            if (out->n == cap) {
                cap = cap ? cap * 2 : 4;
                char **grown = realloc(out->items, cap * sizeof *grown);
                if (!grown)
                    return false;
                out->items = grown;
            }
            char *t = malloc(len + 1);
            if (!t)
                return false;
            memcpy(t, p, len);
            t[len] = '\0';
            out->items[out->n++] = t;
        }
        p = q ? q + 1 : p + len;
    }
    return true;
}

/* Exactly `n` finite numbers separated by spaces or commas ("0.1 0.2 0.3", "0.1,0.2,0.3"); at
 * most `n` when `up_to`. Returns how many, -1 when that is not what `text` holds. */
static int parse_list(const char *text, double *out, int n, bool up_to)
{
    const int k = pb_parse_doubles(text, out, n);
    return k == n || (up_to && k > 0) ? k : -1;
}

static bool name_is(const xmlNode *node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

static bool parse_category(const char *text, uint8_t *out)
{
    static const struct {
        const char *name;
        uint8_t value;
    } table[] = {{"object", PB_SIM_CATEGORY_OBJECT},
                 {"robot", PB_SIM_CATEGORY_ROBOT},
                 {"human", PB_SIM_CATEGORY_HUMAN},
                 {"dynamic_object", PB_SIM_CATEGORY_DYNAMIC_OBJECT},
                 {"static_object", PB_SIM_CATEGORY_STATIC_OBJECT}};
    if (!*text) {
        *out = PB_SIM_CATEGORY_OBJECT;
        return true;
    }
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(text, table[i].name) == 0) {
            *out = table[i].value;
            return true;
        }
    return false;
}

void sim_robot_finish(sim_robot *robot)
{
    free(robot->name);
    free(robot->uri);
    free(robot->description);
    free(robot->vehicle_path);
    sim_strings_finish(&robot->tags);
    memset(robot, 0, sizeof *robot);
}

/* A <vehicle> file (docs/vehicles.md) as a spawnable: a robot whose footprint is the
 * vehicle's rectangle about its rear axle, driven by Autoware's topics (entity_vehicle.c).
 * Read from `path`, or from `xml` (`size` bytes) when it is not NULL. */
static sim_load_error robot_from_vehicle(sim_robot *robot, const xmlNode *root, const char *path, const char *xml,
                                         size_t size, char *message, size_t message_size)
{
    memset(robot, 0, sizeof *robot);
    pb_diag diag = {0};
    if (pb_vehicle_parse(&robot->vehicle_config, xml, size, path, &diag) != PB_OK) {
        set_message(message, message_size, "%s", diag.message);
        return SIM_LOAD_PARSE;
    }
    robot->vehicle = true;
    robot->category = PB_SIM_CATEGORY_ROBOT;
    robot->footprint = pb_vehicle_footprint(&robot->vehicle_config);
    robot->name = attr(root, "name");
    char tags[] = "vehicle,car";
    const pb_vehicle_config *c = &robot->vehicle_config;
    char description[PB_SIM_MESSAGE_SIZE];
    snprintf(description, sizeof description,
             "a vehicle %.3g x %.3g m, wheelbase %.3g m, max steer %.3g rad: Autoware's control/command topics "
             "drive it",
             c->length, c->width, c->wheelbase, c->max_steer);
    robot->description = sim_strdup(description);
    robot->vehicle_path = xml ? NULL : sim_strdup(path);
    if (!robot->name || !robot->description || (!xml && !robot->vehicle_path) || !split_tags(tags, &robot->tags)) {
        set_message(message, message_size, "out of memory");
        sim_robot_finish(robot);
        return SIM_LOAD_PARSE;
    }
    if (!robot->name[0]) {
        set_message(message, message_size, "<vehicle> needs a name attribute");
        sim_robot_finish(robot);
        return SIM_LOAD_PARSE;
    }
    const size_t len = strlen(robot->name) + sizeof "model://";
    robot->uri = malloc(len);
    if (!robot->uri) {
        set_message(message, message_size, "out of memory");
        sim_robot_finish(robot);
        return SIM_LOAD_PARSE;
    }
    snprintf(robot->uri, len, "model://%s", robot->name);
    return SIM_LOAD_OK;
}

static sim_load_error robot_from_node(sim_robot *robot, const xmlNode *root, char *message,
                                      size_t message_size)
{
    memset(robot, 0, sizeof *robot);
    robot->name = attr(root, "name");
    robot->description = attr(root, "description");
    char *category = attr(root, "category");
    char *tags = attr(root, "tags");
    sim_load_error err = SIM_LOAD_OK;
    if (!robot->name || !robot->description || !category || !tags || !split_tags(tags, &robot->tags)) {
        set_message(message, message_size, "out of memory");
        err = SIM_LOAD_PARSE;
        goto done;
    }
    if (!robot->name[0]) {
        set_message(message, message_size, "<simrobot> needs a name attribute");
        err = SIM_LOAD_PARSE;
        goto done;
    }
    if (!parse_category(category, &robot->category)) {
        set_message(message, message_size, "<simrobot name=\"%s\">: unknown category \"%s\"", robot->name,
                    category);
        err = SIM_LOAD_PARSE;
        goto done;
    }
    size_t len = strlen(robot->name) + sizeof "model://";
    robot->uri = malloc(len);
    if (!robot->uri) {
        err = SIM_LOAD_PARSE;
        goto done;
    }
    snprintf(robot->uri, len, "model://%s", robot->name);
    int shapes = 0;
    for (const xmlNode *n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        pb_footprint *fp = &robot->footprint;
        pb_solid *shape = &robot->shape;
        bool ok = true;
        if (name_is(n, "box") || name_is(n, "cylinder") || name_is(n, "sphere")) {
            /* a 3-D object for manipulator scenes: sizes in metres, centred on its frame */
            robot->solid = true;
            if (name_is(n, "box")) {
                char *size = attr(n, "size");
                shape->type = PB_SOLID_BOX;
                ok = size && parse_list(size, shape->size, 3, false) == 3;
                free(size);
            } else if (name_is(n, "cylinder")) {
                shape->type = PB_SOLID_CYLINDER;
                ok = attr_double(n, "radius", -1, &shape->size[0]) &&
                     attr_double(n, "length", -1, &shape->size[1]);
                shape->size[2] = 1.0;
            } else {
                shape->type = PB_SOLID_SPHERE;
                ok = attr_double(n, "radius", -1, &shape->size[0]);
                shape->size[1] = shape->size[2] = 1.0;
            }
            for (int i = 0; i < 3; i++)
                ok = ok && shape->size[i] > 0 && isfinite(shape->size[i]);
        } else if (name_is(n, "disc")) {
            fp->type = PB_FOOTPRINT_DISC;
            ok = attr_double(n, "radius", -1, &fp->radius) && fp->radius > 0;
        } else if (name_is(n, "rect")) {
            double length = -1, width = -1;
            fp->type = PB_FOOTPRINT_RECT;
            ok = attr_double(n, "length", -1, &length) && attr_double(n, "width", -1, &width) && length > 0 &&
                 width > 0;
            fp->half_length = length / 2;
            fp->half_width = width / 2;
        } else if (name_is(n, "arm")) {
            fp->type = PB_FOOTPRINT_ARM;
            ok = attr_double(n, "link1", 30, &fp->link1) && attr_double(n, "link2", 30, &fp->link2) &&
                 attr_double(n, "joint1", 0, &fp->joint1) && attr_double(n, "joint2", 0, &fp->joint2) &&
                 fp->link1 > 0 && fp->link2 > 0;
        } else {
            set_message(message, message_size, "<simrobot name=\"%s\">: unknown element <%s>", robot->name,
                        (const char *)n->name);
            err = SIM_LOAD_PARSE;
            goto done;
        }
        if (!ok) {
            set_message(message, message_size, "<simrobot name=\"%s\">: <%s> needs positive finite sizes",
                        robot->name, (const char *)n->name);
            err = SIM_LOAD_PARSE;
            goto done;
        }
        shapes++;
    }
    if (shapes != 1) {
        set_message(message, message_size,
                    "<simrobot name=\"%s\"> needs exactly one of <disc>, <rect>, <arm> (planar) or <box>, "
                    "<cylinder>, <sphere> (3-D)",
                    robot->name);
        err = SIM_LOAD_PARSE;
    }
done:
    free(category);
    free(tags);
    if (err != SIM_LOAD_OK)
        sim_robot_finish(robot);
    return err;
}

sim_load_error sim_robot_parse(sim_robot *robot, const char *xml, size_t size, char *message,
                               size_t message_size)
{
    memset(robot, 0, sizeof *robot);
    if (size > MAX_XML_BYTES || size > INT32_MAX) {
        set_message(message, message_size, "resource too large");
        return SIM_LOAD_PARSE;
    }
    pb_diag diag = {0};
    pb_status status;
    xmlDoc *doc = pb_xml_read(xml, size, "resource.xml", &diag, &status);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root && name_is(root, "vehicle")) {
        sim_load_error err = robot_from_vehicle(robot, root, "resource_string", xml, size, message, message_size);
        xmlFreeDoc(doc);
        return err;
    }
    if (!root || !name_is(root, "simrobot")) {
        set_message(message, message_size, "%s",
                    doc ? "the root element must be <simrobot> or <vehicle>" : diag.message);
        xmlFreeDoc(doc);
        return SIM_LOAD_PARSE;
    }
    sim_load_error err = robot_from_node(robot, root, message, message_size);
    xmlFreeDoc(doc);
    return err;
}

static sim_load_error robot_load_file(sim_robot *robot, const char *robots_dir, const char *name,
                                      char *message, size_t message_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.xml", robots_dir ? robots_dir : "robots", name);
    if (strchr(name, '/') || access(path, R_OK) != 0) {
        set_message(message, message_size, "robot '%s' not found (looked for %s)", name, path);
        return SIM_LOAD_MISSING_ASSET;
    }
    pb_diag diag = {0};
    pb_status status;
    xmlDoc *doc = pb_xml_read(NULL, 0, path, &diag, &status);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root && name_is(root, "vehicle")) {
        sim_load_error err = robot_from_vehicle(robot, root, path, NULL, 0, message, message_size);
        xmlFreeDoc(doc);
        return err;
    }
    if (!root || !name_is(root, "simrobot")) {
        set_message(message, message_size, "%s: %s", path,
                    doc ? "the root element must be <simrobot> or <vehicle>" : diag.message);
        xmlFreeDoc(doc);
        return SIM_LOAD_PARSE;
    }
    sim_load_error err = robot_from_node(robot, root, message, message_size);
    xmlFreeDoc(doc);
    return err;
}

void sim_world_finish(sim_world *world)
{
    free(world->name);
    free(world->uri);
    free(world->description);
    free(world->map_path);
    free(world->scene_path);
    free(world->robot_entity);
    sim_strings_finish(&world->tags);
    for (size_t i = 0; i < world->n_robots; i++)
        sim_robot_finish(&world->robots[i]);
    free(world->robots);
    for (size_t i = 0; i < world->n_poses; i++) {
        free(world->poses[i].name);
        free(world->poses[i].description);
        sim_strings_finish(&world->poses[i].tags);
    }
    free(world->poses);
    for (size_t i = 0; i < world->n_entities; i++)
        free(world->entities[i].name);
    free(world->entities);
    memset(world, 0, sizeof *world);
}

static bool parse_vec3(const char *text, pb_sim_vec3 *out)
{
    double v[3] = {0, 0, 0};
    const int n = pb_parse_doubles(text, v, 3);
    if (n < 2 || !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return false;
    *out = (pb_sim_vec3){v[0], v[1], v[2]};
    return true;
}

static sim_load_error parse_bounds(const xmlNode *n, pb_sim_bounds *b, char *message, size_t message_size)
{
    char *type = attr(n, "type");
    sim_load_error err = SIM_LOAD_OK;
    memset(b, 0, sizeof *b);
    if (type && strcmp(type, "sphere") == 0) {
        double r = -1;
        b->type = PB_SIM_BOUNDS_SPHERE;
        b->n_points = 2;
        if (!attr_double(n, "radius", -1, &r) || r <= 0)
            err = SIM_LOAD_PARSE;
        b->points[1].x = r;
    } else if (type && strcmp(type, "box") == 0) {
        char *lo = attr(n, "min"), *hi = attr(n, "max");
        b->type = PB_SIM_BOUNDS_BOX;
        b->n_points = 2;
        if (!lo || !hi || !parse_vec3(lo, &b->points[0]) || !parse_vec3(hi, &b->points[1]))
            err = SIM_LOAD_PARSE;
        free(lo);
        free(hi);
    } else {
        err = SIM_LOAD_PARSE;
    }
    if (err != SIM_LOAD_OK)
        set_message(message, message_size,
                    "<bounds> must be type=\"sphere\" radius=\"R\" or type=\"box\" "
                    "min=\"X,Y,Z\" max=\"X,Y,Z\"");
    free(type);
    return err;
}

#define GROW(array, count, cap)                                                                              \
    do {                                                                                                     \
        if ((count) == (cap)) {                                                                              \
            size_t ncap_ = (cap) ? (cap)*2 : 4;                                                              \
            void *g_ = realloc((array), ncap_ * sizeof *(array));                                            \
            if (!g_)                                                                                         \
                goto nomem;                                                                                  \
            (array) = g_;                                                                                    \
            (cap) = ncap_;                                                                                   \
        }                                                                                                    \
    } while (0)

static bool read_pose(const xmlNode *n, double *pose)
{
    return attr_double(n, "x", NAN, &pose[0]) && attr_double(n, "y", NAN, &pose[1]) &&
           attr_double(n, "yaw", 0, &pose[2]) && isfinite(pose[0]) && isfinite(pose[1]);
}

/* A 6-DoF pose from xyz="x y z" (metres) and rpy="r p y" (radians, fixed axes as URDF's
 * <origin>) or quat="x y z w" (normalised): x, y, z, qx, qy, qz, qw into `pose`. */
static bool read_pose3(const xmlNode *n, double *pose)
{
    char *xyz = attr(n, "xyz"), *rpy = attr(n, "rpy"), *quat = attr(n, "quat");
    double r[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1};
    const bool has_quat = quat && quat[0];
    bool ok = xyz && rpy && quat && parse_list(xyz, pose, 3, false) == 3 && !(rpy[0] && has_quat);
    if (ok && rpy[0])
        ok = parse_list(rpy, r, 3, false) == 3;
    if (ok && has_quat)
        ok = parse_list(quat, q, 4, false) == 4;
    free(xyz);
    free(rpy);
    free(quat);
    if (!ok)
        return false;
    if (!has_quat) { /* q = qz(yaw) qy(pitch) qx(roll) */
        const double cr = cos(r[0] / 2), sr = sin(r[0] / 2), cp = cos(r[1] / 2), sp = sin(r[1] / 2),
                     cy = cos(r[2] / 2), sy = sin(r[2] / 2);
        q[0] = sr * cp * cy - cr * sp * sy;
        q[1] = cr * sp * cy + sr * cp * sy;
        q[2] = cr * cp * sy - sr * sp * cy;
        q[3] = cr * cp * cy + sr * sp * sy;
    }
    const double norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 3; i++)
        ok = ok && isfinite(pose[i]) && isfinite(r[i]);
    if (!ok || !(norm > 1e-9) || !isfinite(norm))
        return false;
    for (int i = 0; i < 4; i++)
        pose[3 + i] = q[i] / norm;
    return true;
}

static sim_load_error world_from_root(sim_world *w, const xmlNode *root, const char *base_dir,
                                      const char *robots_dir, bool strict, char *message, size_t message_size)
{
    size_t cap_robots = 0, cap_poses = 0, cap_entities = 0, n_planar = 0, n_3d = 0;
    sim_load_error err = SIM_LOAD_OK;
    w->name = attr(root, "name");
    w->description = attr(root, "description");
    char *tags = attr(root, "tags");
    if (!w->name || !w->description || !tags || !split_tags(tags, &w->tags)) {
        free(tags);
        goto nomem;
    }
    free(tags);
    for (const xmlNode *n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (name_is(n, "map") || name_is(n, "scene")) {
            const bool scene = name_is(n, "scene");
            char *image = attr(n, scene ? "world" : "image");
            if (!image)
                goto nomem;
            char path[8200];
            if (image[0] == '/' || !base_dir)
                snprintf(path, sizeof path, "%.4000s", image);
            else
                snprintf(path, sizeof path, "%.4000s/%.4000s", base_dir, image);
            free(image);
            char **target = scene ? &w->scene_path : &w->map_path;
            free(*target);
            *target = sim_strdup(path);
            if (!*target)
                goto nomem;
            if (scene) {
                char *bounds = attr(n, "bounds");
                if (!bounds)
                    goto nomem;
                w->has_scene_bounds = bounds[0] != '\0';
                const bool bounds_ok =
                    !w->has_scene_bounds ||
                    (parse_list(bounds, w->scene_bounds, 6, false) == 6 &&
                     w->scene_bounds[0] < w->scene_bounds[3] && w->scene_bounds[1] < w->scene_bounds[4] &&
                     w->scene_bounds[2] < w->scene_bounds[5]);
                free(bounds);
                if (!bounds_ok) {
                    set_message(message, message_size,
                                "<scene bounds=\"...\">: expected six numbers xmin ymin zmin xmax ymax zmax, "
                                "each min "
                                "below its max");
                    return SIM_LOAD_PARSE;
                }
                free(w->robot_entity);
                w->robot_entity = attr(n, "robot");
                if (!w->robot_entity)
                    goto nomem;
                if (!w->robot_entity[0]) {
                    free(w->robot_entity);
                    if (!(w->robot_entity = sim_strdup("robot")))
                        goto nomem;
                }
            }
            if (access(path, R_OK) != 0) {
                set_message(message, message_size, "%s %s not found", scene ? "scene world" : "map image",
                            path);
                return SIM_LOAD_MISSING_ASSET;
            }
        } else if (name_is(n, "spawnable")) {
            char *robot = attr(n, "robot");
            if (!robot)
                goto nomem;
            GROW(w->robots, w->n_robots, cap_robots);
            err = robot_load_file(&w->robots[w->n_robots], robots_dir, robot, message, message_size);
            free(robot);
            if (err != SIM_LOAD_OK)
                return err;
            w->n_robots++;
        } else if (name_is(n, "named_pose")) {
            GROW(w->poses, w->n_poses, cap_poses);
            sim_named_pose *p = &w->poses[w->n_poses];
            memset(p, 0, sizeof *p);
            w->n_poses++;
            p->name = attr(n, "name");
            p->description = attr(n, "description");
            char *ptags = attr(n, "tags");
            if (!p->name || !p->description || !ptags || !split_tags(ptags, &p->tags)) {
                free(ptags);
                goto nomem;
            }
            free(ptags);
            char *joints = attr(n, "joints");
            if (!joints)
                goto nomem;
            xmlChar *xyz = xmlGetProp(n, (const xmlChar *)"xyz");
            bool ok = p->name[0] != '\0';
            if (joints[0]) { /* a configuration of a scene's robot */
                p->n_joints = parse_list(joints, p->joints, PB_MAX_DIM, true);
                for (int k = 0; k < p->n_joints; k++)
                    ok = ok && isfinite(p->joints[k]);
                ok = ok && p->n_joints > 0;
                n_3d++;
            } else if (xyz) {
                ok = ok && read_pose3(n, p->pose);
                n_3d++;
            } else {
                ok = ok && read_pose(n, p->pose);
                n_planar++;
            }
            free(joints);
            xmlFree(xyz);
            if (!ok) {
                set_message(message, message_size,
                            "<named_pose name=\"%s\"> needs a name and finite x, y (yaw optional), or "
                            "xyz (rpy or quat optional), or joints",
                            p->name);
                return SIM_LOAD_PARSE;
            }
            for (const xmlNode *c = n->children; c; c = c->next)
                if (name_is(c, "bounds") &&
                    (err = parse_bounds(c, &p->bounds, message, message_size)) != SIM_LOAD_OK)
                    return err;
        } else if (name_is(n, "entity")) {
            GROW(w->entities, w->n_entities, cap_entities);
            sim_world_entity *e = &w->entities[w->n_entities];
            memset(e, 0, sizeof *e);
            w->n_entities++;
            e->name = attr(n, "name");
            char *robot = attr(n, "robot"), *is_static = attr(n, "static");
            if (!e->name || !robot || !is_static) {
                free(robot);
                free(is_static);
                goto nomem;
            }
            e->is_static = strcmp(is_static, "true") == 0;
            free(is_static);
            e->robot = SIZE_MAX;
            for (size_t i = 0; i < w->n_robots; i++)
                if (strcmp(w->robots[i].name, robot) == 0)
                    e->robot = i;
            xmlChar *xyz = xmlGetProp(n, (const xmlChar *)"xyz");
            const bool pose_ok = xyz ? read_pose3(n, e->pose) : read_pose(n, e->pose);
            if (xyz)
                n_3d++;
            else
                n_planar++;
            xmlFree(xyz);
            if (e->robot == SIZE_MAX || !e->name[0] || !pose_ok) {
                set_message(
                    message, message_size,
                    "<entity name=\"%s\">: needs a name, finite x, y (or xyz) and a robot listed by an "
                    "earlier <spawnable> (got \"%s\")",
                    e->name, robot);
                free(robot);
                return SIM_LOAD_PARSE;
            }
            free(robot);
        } else if (strict) {
            set_message(message, message_size, "unsupported element <%s>", (const char *)n->name);
            return SIM_LOAD_UNSUPPORTED;
        }
    }
    if (!w->map_path == !w->scene_path) {
        set_message(message, message_size,
                    "<simworld> needs one <map image=\"...\"/> or one <scene world=\"...\"/>, not both");
        return SIM_LOAD_PARSE;
    }
    /* a scene is 3-D throughout, a map planar throughout */
    size_t wrong_robots = 0;
    for (size_t i = 0; i < w->n_robots; i++)
        wrong_robots += w->robots[i].solid != (w->scene_path != NULL);
    if (w->scene_path ? n_planar || wrong_robots : n_3d || wrong_robots) {
        set_message(message, message_size,
                    w->scene_path
                        ? "a <scene> world takes 3-D spawnables (<box>, <cylinder>, <sphere>) and "
                          "poses in xyz (or joints), not planar ones"
                        : "a <map> world takes planar spawnables and x, y, yaw poses, not 3-D ones");
        return SIM_LOAD_PARSE;
    }
    if (!w->name[0]) {
        set_message(message, message_size, "<simworld> needs a name attribute");
        return SIM_LOAD_PARSE;
    }
    return SIM_LOAD_OK;
nomem:
    set_message(message, message_size, "out of memory");
    return SIM_LOAD_PARSE;
}

sim_load_error sim_world_load(sim_world *w, const char *path, const char *xml, size_t xml_size,
                              const char *base_dir, const char *robots_dir, bool strict, char *message,
                              size_t message_size)
{
    memset(w, 0, sizeof *w);
    xmlDoc *doc = NULL;
    char dir[4096];
    pb_diag diag = {0};
    pb_status status;
    if (path) {
        if (access(path, R_OK) != 0) {
            set_message(message, message_size, "world file %s not found", path);
            return SIM_LOAD_NOT_FOUND;
        }
        doc = pb_xml_read(NULL, 0, path, &diag, &status);
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        base_dir = dir;
    } else {
        if (xml_size > MAX_XML_BYTES || xml_size > INT32_MAX) {
            set_message(message, message_size, "world resource too large");
            return SIM_LOAD_PARSE;
        }
        doc = pb_xml_read(xml, xml_size, "resource_string", &diag, &status);
    }
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root || !name_is(root, "simworld")) {
        set_message(message, message_size, "%s: %s", path ? path : "resource_string",
                    doc ? "the root element must be <simworld>" : diag.message);
        xmlFreeDoc(doc);
        return SIM_LOAD_PARSE;
    }
    sim_load_error err = world_from_root(w, root, base_dir, robots_dir, strict, message, message_size);
    xmlFreeDoc(doc);
    if (err == SIM_LOAD_OK) {
        char uri[4200];
        snprintf(uri, sizeof uri, "world://%s", w->name);
        w->uri = sim_strdup(uri);
        if (!w->uri)
            err = SIM_LOAD_PARSE;
    }
    if (err != SIM_LOAD_OK)
        sim_world_finish(w);
    return err;
}

bool sim_is_world_file(const char *path)
{
    FILE *f = pb_file_open_regular(path, NULL, NULL);
    if (!f)
        return false;
    char head[4096];
    const size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return strstr(head, "<simworld") != NULL;
}

/* The <simworld> of a map_server map at `path` (made absolute): the map, served in metres,
 * with the metric spawnables robots/disc_robot_m.xml and car_robot_m.xml. NULL when the file
 * does not exist or memory runs out. */
char *sim_world_of_map(const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return NULL;
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    char name[SIM_MAX_NAME + 1];
    size_t n = 0;
    for (const char *c = base; *c && *c != '.' && n < SIM_MAX_NAME; c++)
        name[n++] = (isalnum((unsigned char)*c) || *c == '_') ? *c : '_';
    name[n] = '\0';
    /* the path as an XML attribute: &, <, > and quotes escaped */
    char escaped[4 * PATH_MAX];
    size_t k = 0;
    for (const char *c = real; *c && k + 7 < sizeof escaped; c++) {
        const char *e = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '"' ? "&quot;" : NULL;
        if (e) {
            memcpy(escaped + k, e, strlen(e));
            k += strlen(e);
        } else {
            escaped[k++] = *c;
        }
    }
    escaped[k] = '\0';
    static const char format[] =
        "<simworld name=\"%s\" description=\"the map_server map %s, in metres (REP-103: x forward, y up)\">"
        "<map image=\"%s\"/><spawnable robot=\"disc_robot_m\"/><spawnable robot=\"car_robot_m\"/></simworld>";
    const int size = snprintf(NULL, 0, format, name[0] ? name : "map", escaped, escaped);
    char *xml = size > 0 ? malloc((size_t)size + 1) : NULL;
    if (xml)
        snprintf(xml, (size_t)size + 1, format, name[0] ? name : "map", escaped, escaped);
    return xml;
}
