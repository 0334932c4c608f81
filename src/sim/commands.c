/* Commands that move an entity outside the services' SetEntityState: a velocity in its own
 * frame (ROS cmd_vel), its joints set at once, a joint trajectory to follow (ROS
 * joint_commands), reading its joints, and a vehicle's commands from Autoware's topics and its
 * status. Each checks what every entity shares and hands
 * the rest to the entity's kind. */
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names of no joints (an answer about no entity). */
static const char *const no_joint_names[] = {NULL};

size_t pb_sim_get_entity_joints(pb_sim *sim, const char *entity, const char *const **names, double *values)
{
    const sim_entity *e = sim_find_entity(sim, entity);
    if (names)
        *names = no_joint_names;
    return e ? e->kind->joints(sim, e, names, values) : 0;
}

void pb_sim_command_velocity(pb_sim *sim, const char *entity, const pb_sim_twist *body_twist,
                             pb_sim_result *r)
{
    sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    if (!sim_twist_finite(body_twist)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "a velocity command must be finite");
        return;
    }
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static: it takes no velocity command",
                       e->name);
        return;
    }
    e->kind->command_velocity(sim, e, body_twist, r);
}

/* The entity named `entity` that may be moved; NULL with the result set (`missing`: the code
 * for no such entity) otherwise. */
static sim_entity *movable(pb_sim *sim, const char *entity, uint8_t missing, pb_sim_result *r)
{
    sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, missing, "no entity named '%.100s'", sim_str(entity));
        return NULL;
    }
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static", e->name);
        return NULL;
    }
    return e;
}

/* The index of joint `name` among the `dim` joints `have` of `e`; -1 with the result set. */
static int joint_index(const sim_entity *e, const char *const *have, size_t dim, const char *name,
                       pb_sim_result *r)
{
    for (size_t k = 0; k < dim; k++)
        if (strcmp(have[k], sim_str(name)) == 0)
            return (int)k;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' has no joint '%.100s'%s", e->name, sim_str(name),
                   dim ? "" : " (it has no joints)");
    return -1;
}

void pb_sim_set_entity_joints(pb_sim *sim, const char *entity, const char *const *names, const double *values,
                              size_t n, pb_sim_result *r)
{
    sim_entity *e = movable(sim, entity, PB_SIM_RESULT_NOT_FOUND, r);
    if (!e)
        return;
    const char *const *have;
    double q[PB_SIM_MAX_JOINTS];
    const size_t dim = e->kind->joints(sim, e, &have, q);
    for (size_t i = 0; i < n; i++) {
        const int k = joint_index(e, have, dim, names[i], r);
        if (k < 0)
            return;
        if (!isfinite(values[i])) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "joint '%.100s': values must be finite",
                           have[k]);
            return;
        }
        q[k] = values[i];
    }
    e->kind->set_joints(sim, e, q, r);
}

void pb_sim_command_joints(pb_sim *sim, const char *entity, const char *const *names, size_t n_names,
                           const double *points, size_t n_points, double duration, pb_sim_result *r)
{
    sim_entity *e = movable(sim, entity, PB_SIM_RESULT_OPERATION_FAILED, r);
    if (!e)
        return;
    if (n_points == 0) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the trajectory has no points");
        return;
    }
    const char *const *have;
    double now[PB_SIM_MAX_JOINTS];
    const size_t dim = e->kind->joints(sim, e, &have, now);
    size_t column[PB_SIM_MAX_JOINTS];
    if (n_names > PB_SIM_MAX_JOINTS) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "more than %d joint names", PB_SIM_MAX_JOINTS);
        return;
    }
    for (size_t i = 0; i < n_names; i++) {
        const int k = joint_index(e, have, dim, names[i], r);
        if (k < 0)
            return;
        column[i] = (size_t)k;
    }
    if (dim == 0 || n_points > SIZE_MAX / dim / sizeof(double)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' has no joints", e->name);
        return;
    }
    /* rows of every joint: the named ones from the points, the others as they are now; the
     * poses (a planar arm's base) where the entity is */
    double *rows = malloc(n_points * dim * sizeof *rows);
    pb_sim_pose *poses = malloc(n_points * sizeof *poses);
    if (!rows || !poses) {
        free(rows);
        free(poses);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    pb_sim_twist twist;
    pb_sim_pose here;
    e->kind->state(e, &here, &twist);
    for (size_t p = 0; p < n_points; p++) {
        memcpy(rows + p * dim, now, dim * sizeof *now);
        for (size_t i = 0; i < n_names; i++)
            rows[p * dim + column[i]] = points[p * n_names + i];
        poses[p] = here;
    }
    const pb_sim_follow_request rq = {.entity = e->name,
                                      .path = poses,
                                      .n_path = n_points};
    uint64_t goal;
    /* then the speed that takes the path, as its C-space measures it, in `duration` */
    if (e->kind->follow_begin(sim, e, &rq, rows, dim, &goal, r) && duration > 0) {
        const double length = sim_path_remaining(sim, e);
        if (length > 0)
            e->follow_speed = length / duration;
    }
    free(rows);
    free(poses);
}

/* A vehicle's commands from Autoware's topics, and its status (entity_vehicle.c). */

void pb_sim_command_vehicle(pb_sim *sim, const char *entity, const pb_sim_vehicle_command *command,
                            pb_sim_result *r)
{
    sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    if (!e->kind->command_vehicle) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is not a vehicle (a %s): Autoware's control topics drive vehicles only", e->name,
                       e->kind->name);
        return;
    }
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static: it takes no commands", e->name);
        return;
    }
    e->kind->command_vehicle(sim, e, command, r);
}

bool pb_sim_get_vehicle_status(pb_sim *sim, const char *entity, pb_sim_vehicle_status *status)
{
    const sim_entity *e = sim_find_entity(sim, entity);
    if (!e || !e->kind->vehicle_status)
        return false;
    e->kind->vehicle_status(sim, e, status);
    return true;
}
