/* The manipulator engine's obstacle arrays: the world's static obstacles first (built by
 * tree_build.c), then the dynamic objects' geometries (objects.c hands them in after every
 * change, manip_set_dynamic), so every query treats an object exactly as a static obstacle at
 * its pose. Also the FCL geometry of a primitive shape, the cheap bounds' view of an obstacle,
 * and the exact placement check of a geometry against the obstacles and the robot. Calls
 * kinematics.c (shape poses) only. */
#include "engines/manipulator/manipulator_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pbf_geometry *manip_primitive_geometry(const pb_shape *shape)
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

/* The cheap bounds' view of obstacle `geometry`, of `shape` at `pose` (see
 * manip_obstacle_signed_distance). */
void manip_set_obstacle_bound(obstacle_bound *bound, const pb_shape *shape, const pb_pose *pose,
                              const pbf_geometry *geometry)
{
    memset(bound, 0, sizeof *bound);
    bound->type = shape->type;
    memcpy(bound->r, pose->r, sizeof bound->r);
    memcpy(bound->t, pose->t, sizeof bound->t);
    if (shape->type == PB_SHAPE_BOX) {
        for (int i = 0; i < 3; i++)
            bound->half[i] = 0.5 * shape->size[i];
    } else if (shape->type == PB_SHAPE_CYLINDER) {
        bound->half[0] = shape->size[0];
        bound->half[1] = 0.5 * shape->size[1];
    } else if (shape->type == PB_SHAPE_SPHERE) {
        bound->half[0] = shape->size[0];
    }
    double lo[3], hi[3], local[3], r2 = 0.0;
    pbf_geometry_local_aabb(geometry, lo, hi);
    for (int i = 0; i < 3; i++) {
        local[i] = 0.5 * (lo[i] + hi[i]);
        r2 += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    transform_point(pose, local, bound->center);
    bound->radius = sqrt(r2) * (1.0 + 1e-9) + 1e-9;
}

pb_status manip_set_dynamic(manipulator *m, const pbf_geometry *const *geometries, const pb_shape *shapes,
                            const pb_pose *poses, const char *const *names, size_t n)
{
    const size_t total = m->n_static_obstacles + n, cap = total ? total : 1;
    m->n_obstacles = m->n_static_obstacles;
    pbf_geometry **obstacles = realloc(m->obstacles, cap * sizeof *obstacles);
    if (obstacles)
        m->obstacles = obstacles;
    pb_pose *obstacle_poses = realloc(m->obstacle_poses, cap * sizeof *obstacle_poses);
    if (obstacle_poses)
        m->obstacle_poses = obstacle_poses;
    char **obstacle_names = realloc(m->obstacle_names, cap * sizeof *obstacle_names);
    if (obstacle_names)
        m->obstacle_names = obstacle_names;
    obstacle_bound *bounds = realloc(m->obstacle_bounds, cap * sizeof *bounds);
    if (bounds)
        m->obstacle_bounds = bounds;
    if (!obstacles || !obstacle_poses || !obstacle_names || !bounds)
        return PB_ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        const size_t o = m->n_static_obstacles + k;
        /* the arrays hold mutable pointers for the static obstacles the engine owns; these are
         * only read */
        m->obstacles[o] = (pbf_geometry *)geometries[k];
        m->obstacle_poses[o] = poses[k];
        m->obstacle_names[o] = (char *)names[k];
        manip_set_obstacle_bound(&m->obstacle_bounds[o], &shapes[k], &poses[k], geometries[k]);
    }
    m->n_obstacles = total;
    return PB_OK;
}

bool manip_geometry_hits(const manipulator *m, const pbf_geometry *geometry, const pb_pose *pose, size_t skip,
                         const double *robot_q, char *what, size_t size)
{
    for (size_t o = 0; skip != MANIP_LINKS_ONLY && o < m->n_obstacles; o++) {
        if (o == skip)
            continue;
        if (pbf_collide(geometry, pose->r, pose->t, m->obstacles[o], m->obstacle_poses[o].r,
                        m->obstacle_poses[o].t)) {
            snprintf(what, size, "%s '%s'", o < m->n_static_obstacles ? "obstacle" : "object",
                     m->obstacle_names[o]);
            return true;
        }
    }
    if (!robot_q)
        return false;
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, robot_q, poses);
    for (size_t s = 0; s < m->n_shapes; s++)
        if (pbf_collide(geometry, pose->r, pose->t, m->shapes[s].geometry, poses[s].r, poses[s].t)) {
            snprintf(what, size, "link '%s'", link_name(m, s));
            return true;
        }
    return false;
}
