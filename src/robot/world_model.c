/* The world a manipulator engine is made from (see world.h): the container that the world
 * readers (world.c: world XML and MotionBenchMaker flat files; mbm_yaml.c: MotionBenchMaker
 * YAML) fill. It calls neither reader, so they never call each other. */
#include "robot/world_model.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

void pb_world_finish(pb_world *world)
{
    if (!world)
        return;
    free(world->name);
    free(world->path);
    free(world->urdf_path);
    free(world->srdf_path);
    free(world->urdf_text);
    free(world->srdf_text);
    free(world->group);
    for (size_t i = 0; i < world->n_joints; i++)
        free(world->joints[i]);
    free(world->joints);
    for (size_t i = 0; i < world->n_obstacles; i++) {
        free(world->obstacles[i].mesh_path);
        free(world->obstacle_names[i]);
    }
    free(world->obstacles);
    free(world->obstacle_names);
    memset(world, 0, sizeof *world);
}

pb_status pb_world_add_obstacle(pb_world *world, size_t *capacity, const char *name, const pb_shape *shape)
{
    if (world->n_obstacles == *capacity) {
        const size_t cap = pb_grow_capacity(*capacity, world->n_obstacles + 1, 16, sizeof(pb_shape));
        if (!cap)
            return PB_ERR_NOMEM;
        pb_shape *s = realloc(world->obstacles, cap * sizeof *s);
        if (!s)
            return PB_ERR_NOMEM;
        world->obstacles = s;
        char **n = realloc(world->obstacle_names, cap * sizeof *n);
        if (!n)
            return PB_ERR_NOMEM;
        world->obstacle_names = n;
        *capacity = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return PB_ERR_NOMEM;
    world->obstacles[world->n_obstacles] = *shape;
    world->obstacle_names[world->n_obstacles] = copy;
    world->n_obstacles++;
    return PB_OK;
}
