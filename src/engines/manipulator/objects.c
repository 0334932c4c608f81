/* Dynamic objects of the manipulator engine: the solids of the public obstacle API
 * (pb_engine_solid_add() and friends, engine.h), boxes, cylinders and spheres at 6-DoF poses
 * that the simulation service spawns, moves and deletes. The engine keeps them here and, after every change, rebuilds
 * the dynamic part of its obstacle arrays from them (manip_set_dynamic(), obstacles.c):
 * feasible(), both edge checks and the explanations then see an object exactly as a static
 * obstacle at its pose, through the same code. Scenes have a few objects: a rebuild is a few
 * small copies.
 *
 * The engine's table (manipulator.c) holds the manip_solid_* and manip_obstacle* entries
 * defined here; this file calls obstacles.c only (the obstacle arrays, placement checks), and
 * the engine frees the objects through the pointer m->objects_destroy, set here with them. */
#include "engines/manipulator/manipulator_model.h"
#include "planbench/impl/engine_impl.h"

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

/* Free an engine's objects (m->objects_destroy). */
static void objects_destroy(manipulator_objects *objects)
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

/* The robot model's shape of a solid (engine.h): its type and size, centred. */
static pb_shape shape_of(const pb_solid *solid)
{
    pb_shape shape = {.type = solid->type == PB_SOLID_BOX        ? PB_SHAPE_BOX
                              : solid->type == PB_SOLID_CYLINDER ? PB_SHAPE_CYLINDER
                                                                 : PB_SHAPE_SPHERE,
                      .origin = pb_pose_identity()};
    memcpy(shape.size, solid->size, sizeof shape.size);
    return shape;
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
        manip_set_dynamic(m, NULL, NULL, NULL, NULL, 0);
        return PB_ERR_NOMEM;
    }
    for (size_t k = 0; k < objects->n; k++) {
        geometries[k] = objects->items[k].geometry;
        shapes[k] = objects->items[k].shape;
        poses[k] = objects->items[k].pose;
        names[k] = objects->items[k].name;
    }
    return manip_set_dynamic(m, geometries, shapes, poses, names, objects->n);
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
    manipulator_objects **slot = &m->objects;
    if (!*slot) {
        if (!(*slot = calloc(1, sizeof **slot)))
            return PB_ERR_NOMEM;
        m->objects_destroy = objects_destroy;
    }
    manipulator_objects *objects = *slot;
    pbf_geometry *geometry = manip_primitive_geometry(shape);
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

pb_status manip_solid_add(void *self, const pb_solid *solid, const pb_pose *pose, const char *name, uint32_t *id)
{
    const pb_shape shape = shape_of(solid);
    return add(self, &shape, pose, name, 0, id);
}

pb_status manip_solid_move(void *self, uint32_t id, const pb_pose *pose)
{
    manipulator *m = self;
    manipulator_objects *objects = m->objects;
    object *o = find(objects, id, NULL);
    if (!o)
        return PB_ERR_NOT_FOUND;
    o->pose = *pose;
    /* the arrays have room for every object already: this cannot run out of memory */
    return rebuild(m, objects);
}

pb_status manip_obstacle_remove(void *self, uint32_t id)
{
    manipulator *m = self;
    manipulator_objects *objects = m->objects;
    size_t k;
    if (!find(objects, id, &k))
        return PB_ERR_NOT_FOUND;
    object_finish(&objects->items[k]);
    memmove(&objects->items[k], &objects->items[k + 1], (objects->n - k - 1) * sizeof *objects->items);
    objects->n--;
    return rebuild(m, objects);
}

void manip_solid_check(const void *self, const pb_solid *solid, const pb_pose *pose, uint32_t ignore_id,
                       const double *robot_q, bool robot_only, bool *hits, char *what, size_t size)
{
    const manipulator *m = self;
    const pb_shape shape = shape_of(solid);
    pbf_geometry *geometry = manip_primitive_geometry(&shape);
    if (!geometry) { /* out of memory: nothing can be proven free */
        *hits = true;
        if (size)
            snprintf(what, size, "nothing (out of memory)");
        return;
    }
    size_t skip = robot_only ? MANIP_LINKS_ONLY : SIZE_MAX, k;
    if (!robot_only && find(m->objects, ignore_id, &k))
        skip = m->n_static_obstacles + k;
    char buf[300];
    *hits = manip_geometry_hits(m, geometry, pose, skip, robot_q, buf, sizeof buf);
    if (*hits && size)
        snprintf(what, size, "%s", buf);
    pbf_geometry_destroy(geometry);
}

pb_status pb_solids_overlap(bool *overlap, const pb_solid *a, const pb_pose *pose_a, const pb_solid *b,
                            const pb_pose *pose_b)
{
    *overlap = false;
    if (!pb_solid_is_valid(a) || !pb_solid_is_valid(b) || !pb_pose_is_finite(pose_a) ||
        !pb_pose_is_finite(pose_b))
        return PB_ERR_INVALID;
    const pb_shape sa = shape_of(a), sb = shape_of(b);
    pbf_geometry *ga = manip_primitive_geometry(&sa), *gb = manip_primitive_geometry(&sb);
    if (ga && gb)
        *overlap = pbf_collide(ga, pose_a->r, pose_a->t, gb, pose_b->r, pose_b->t);
    pbf_geometry_destroy(ga);
    pbf_geometry_destroy(gb);
    return ga && gb ? PB_OK : PB_ERR_NOMEM;
}

size_t manip_obstacle_count(const void *self)
{
    const manipulator *m = self;
    return m->objects ? m->objects->n : 0;
}

pb_status manip_obstacles_copy(void *dst, const void *src)
{
    manipulator *md = dst;
    const manipulator *ms = src;
    manipulator_objects *to = md->objects;
    const manipulator_objects *from = ms->objects;
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
