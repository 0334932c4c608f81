/* Dynamic objects of the manipulator engine (pb_manipulator_object_add() and friends, see
 * manipulator.h): boxes, cylinders and spheres at 6-DoF poses that the simulation service
 * spawns, moves and deletes. The engine keeps them here and, after every change, rebuilds
 * the dynamic part of its obstacle arrays from them (manipulator_set_dynamic()): feasible(),
 * both edge checks and the explanations then see an object exactly as a static obstacle at
 * its pose, through the same code. Scenes have a few objects: a rebuild is a few small
 * copies. */
#include "engines/manipulator/objects.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct object {
    uint32_t id;
    char *name;
    pb_shape shape;
    pb_pose pose;
    pbf_geometry *geometry;
} object;

struct manipulator_objects {
    object *items;
    size_t n, cap;
    uint32_t next_id;
    /* what the engine's obstacle arrays borrow: parallel to items */
    const pbf_geometry **geometries;
    pb_shape *shapes;
    pb_pose *poses;
    const char **names;
};

static void object_finish(object *o)
{
    free(o->name);
    pbf_geometry_destroy(o->geometry);
}

void manipulator_objects_destroy(manipulator_objects *objects)
{
    if (!objects)
        return;
    for (size_t k = 0; k < objects->n; k++)
        object_finish(&objects->items[k]);
    free(objects->items);
    free(objects->geometries);
    free(objects->shapes);
    free(objects->poses);
    free(objects->names);
    free(objects);
}

/* A box, cylinder or sphere of positive, finite sizes? */
static bool shape_valid(const pb_shape *shape)
{
    if (shape->type != PB_SHAPE_BOX && shape->type != PB_SHAPE_CYLINDER && shape->type != PB_SHAPE_SPHERE)
        return false;
    const int n = shape->type == PB_SHAPE_BOX ? 3 : shape->type == PB_SHAPE_CYLINDER ? 2 : 1;
    for (int i = 0; i < n; i++)
        if (!(shape->size[i] > 0.0) || !isfinite(shape->size[i]))
            return false;
    return true;
}

pbf_geometry *manipulator_primitive_geometry(const pb_shape *shape)
{
    switch (shape->type) {
    case PB_SHAPE_BOX:
        return pbf_box_create(shape->size[0], shape->size[1], shape->size[2]);
    case PB_SHAPE_CYLINDER:
        return pbf_cylinder_create(shape->size[0], shape->size[1]);
    case PB_SHAPE_SPHERE:
        return pbf_sphere_create(shape->size[0]);
    default:
        return NULL;
    }
}

static bool pose_valid(const pb_pose *pose)
{
    for (int i = 0; i < 9; i++)
        if (!isfinite(pose->r[i]))
            return false;
    return isfinite(pose->t[0]) && isfinite(pose->t[1]) && isfinite(pose->t[2]);
}

/* Hand the objects to the engine's obstacle arrays. On failure the engine is left with its
 * static obstacles only, and the caller undoes its change and calls this again (which then
 * needs no more memory than before). */
static pb_status rebuild(manipulator *m, manipulator_objects *objects)
{
    const size_t cap = objects->cap ? objects->cap : 1;
    const pbf_geometry **geometries = realloc(objects->geometries, cap * sizeof *geometries);
    if (geometries)
        objects->geometries = geometries;
    pb_shape *shapes = realloc(objects->shapes, cap * sizeof *shapes);
    if (shapes)
        objects->shapes = shapes;
    pb_pose *poses = realloc(objects->poses, cap * sizeof *poses);
    if (poses)
        objects->poses = poses;
    const char **names = realloc(objects->names, cap * sizeof *names);
    if (names)
        objects->names = names;
    if (!geometries || !shapes || !poses || !names) {
        manipulator_set_dynamic(m, NULL, NULL, NULL, NULL, 0);
        return PB_ERR_NOMEM;
    }
    for (size_t k = 0; k < objects->n; k++) {
        geometries[k] = objects->items[k].geometry;
        shapes[k] = objects->items[k].shape;
        poses[k] = objects->items[k].pose;
        names[k] = objects->items[k].name;
    }
    return manipulator_set_dynamic(m, geometries, shapes, poses, names, objects->n);
}

static object *find(manipulator_objects *objects, uint32_t id, size_t *index)
{
    for (size_t k = 0; objects && k < objects->n; k++)
        if (objects->items[k].id == id) {
            if (index)
                *index = k;
            return &objects->items[k];
        }
    return NULL;
}

/* Append an object with id `id` (0: the next free one). */
static pb_status add(manipulator *m, const pb_shape *shape, const pb_pose *pose, const char *name,
                     uint32_t id, uint32_t *out)
{
    manipulator_objects **slot = manipulator_objects_slot(m);
    if (!pose_valid(pose) || !shape_valid(shape))
        return PB_ERR_INVALID;
    if (!*slot && !(*slot = calloc(1, sizeof **slot)))
        return PB_ERR_NOMEM;
    manipulator_objects *objects = *slot;
    pbf_geometry *geometry = manipulator_primitive_geometry(shape);
    if (!geometry)
        return PB_ERR_NOMEM;
    const size_t len = strlen(name ? name : "") + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, name ? name : "", len);
    if (!copy || (objects->n == objects->cap && objects->n >= UINT32_MAX - 1)) {
        free(copy);
        pbf_geometry_destroy(geometry);
        return PB_ERR_NOMEM;
    }
    if (objects->n == objects->cap) {
        const size_t cap = objects->cap ? 2 * objects->cap : 8;
        object *items = realloc(objects->items, cap * sizeof *items);
        if (!items) {
            free(copy);
            pbf_geometry_destroy(geometry);
            return PB_ERR_NOMEM;
        }
        objects->items = items;
        objects->cap = cap;
    }
    if (id == 0)
        id = ++objects->next_id;
    else if (id > objects->next_id)
        objects->next_id = id;
    object *o = &objects->items[objects->n++];
    *o = (object){.id = id, .name = copy, .shape = *shape, .pose = *pose, .geometry = geometry};
    o->shape.mesh_path = NULL;
    o->shape.origin = pb_pose_identity();
    const pb_status st = rebuild(m, objects);
    if (st != PB_OK) {
        object_finish(&objects->items[--objects->n]);
        rebuild(m, objects);
        return st;
    }
    *out = id;
    return PB_OK;
}

pb_status pb_manipulator_object_add(pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                    const char *name, uint32_t *id)
{
    manipulator *m = manipulator_of(engine);
    return m ? add(m, shape, pose, name, 0, id) : PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_object_move(pb_engine *engine, uint32_t id, const pb_pose *pose)
{
    manipulator *m = manipulator_of(engine);
    if (!m)
        return PB_ERR_UNSUPPORTED;
    manipulator_objects *objects = *manipulator_objects_slot(m);
    object *o = find(objects, id, NULL);
    if (!o)
        return PB_ERR_NOT_FOUND;
    if (!pose_valid(pose))
        return PB_ERR_INVALID;
    o->pose = *pose;
    /* the arrays have room for every object already: this cannot run out of memory */
    return rebuild(m, objects);
}

pb_status pb_manipulator_object_remove(pb_engine *engine, uint32_t id)
{
    manipulator *m = manipulator_of(engine);
    if (!m)
        return PB_ERR_UNSUPPORTED;
    manipulator_objects *objects = *manipulator_objects_slot(m);
    size_t k;
    if (!find(objects, id, &k))
        return PB_ERR_NOT_FOUND;
    object_finish(&objects->items[k]);
    memmove(&objects->items[k], &objects->items[k + 1], (objects->n - k - 1) * sizeof *objects->items);
    objects->n--;
    return rebuild(m, objects);
}

/* Does `shape` at `pose` touch anything (skip: see manipulator_geometry_hits()) of the
 * engine, the robot at `robot_q`? */
static pb_status placement_hits(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                uint32_t ignore_id, bool links_only, const double *robot_q, bool *hits,
                                char *what, size_t size)
{
    *hits = false;
    if (size)
        what[0] = '\0';
    manipulator *m = manipulator_of(engine);
    if (!m)
        return PB_ERR_UNSUPPORTED;
    if (!pose_valid(pose) || !shape_valid(shape))
        return PB_ERR_INVALID;
    pbf_geometry *geometry = manipulator_primitive_geometry(shape);
    if (!geometry)
        return PB_ERR_NOMEM;
    size_t skip = links_only ? MANIPULATOR_LINKS_ONLY : SIZE_MAX, k;
    if (!links_only && ignore_id != PB_MANIPULATOR_OBJECT_NONE &&
        find(*manipulator_objects_slot(m), ignore_id, &k))
        skip = manipulator_static_count(m) + k;
    char buf[300];
    *hits = manipulator_geometry_hits(m, geometry, pose, skip, robot_q, buf, sizeof buf);
    if (*hits && size)
        snprintf(what, size, "%s", buf);
    pbf_geometry_destroy(geometry);
    return PB_OK;
}

pb_status pb_manipulator_object_check(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                      uint32_t ignore_id, const double *robot_q, bool *hits, char *what,
                                      size_t size)
{
    return placement_hits(engine, shape, pose, ignore_id, false, robot_q, hits, what, size);
}

pb_status pb_manipulator_robot_touches(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                       const double *robot_q, bool *touches)
{
    return placement_hits(engine, shape, pose, PB_MANIPULATOR_OBJECT_NONE, true, robot_q, touches, NULL, 0);
}

pb_status pb_manipulator_shapes_overlap(const pb_shape *a, const pb_pose *pose_a, const pb_shape *b,
                                        const pb_pose *pose_b, bool *overlap)
{
    *overlap = false;
    if (!shape_valid(a) || !shape_valid(b) || !pose_valid(pose_a) || !pose_valid(pose_b))
        return PB_ERR_INVALID;
    pbf_geometry *ga = manipulator_primitive_geometry(a), *gb = manipulator_primitive_geometry(b);
    if (ga && gb)
        *overlap = pbf_collide(ga, pose_a->r, pose_a->t, gb, pose_b->r, pose_b->t);
    pbf_geometry_destroy(ga);
    pbf_geometry_destroy(gb);
    return ga && gb ? PB_OK : PB_ERR_NOMEM;
}

size_t pb_manipulator_object_count(const pb_engine *engine)
{
    manipulator *m = manipulator_of(engine);
    const manipulator_objects *objects = m ? *manipulator_objects_slot(m) : NULL;
    return objects ? objects->n : 0;
}

pb_status pb_manipulator_objects_copy(pb_engine *dst, const pb_engine *src)
{
    manipulator *md = manipulator_of(dst), *ms = manipulator_of(src);
    if (!md || !ms)
        return PB_ERR_UNSUPPORTED;
    manipulator_objects *to = *manipulator_objects_slot(md);
    const manipulator_objects *from = *manipulator_objects_slot(ms);
    while (to && to->n > 0)
        object_finish(&to->items[--to->n]);
    if (to)
        rebuild(md, to);
    for (size_t k = 0; from && k < from->n; k++) {
        const object *o = &from->items[k];
        uint32_t id;
        const pb_status st = add(md, &o->shape, &o->pose, o->name, o->id, &id);
        if (st != PB_OK)
            return st;
    }
    return PB_OK;
}
