/* The world's frame tree (ROS /tf and /tf_static, REP-105): "map", every entity's
 * "<name>/base_link" and the links of articulated entities, from their kinds' frames. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

/* Most frames an entity has (a manipulator's links). */
#define MAX_ENTITY_FRAMES 256

size_t pb_sim_get_frames(pb_sim *sim, bool fixed, const pb_sim_frame **out)
{
    size_t n = 0;
    for (size_t i = 0; i < sim->n_entities; i++) {
        const sim_entity *e = sim->entities[i];
        pb_frame f[MAX_ENTITY_FRAMES];
        size_t k = e->kind->frames(sim, e, f, MAX_ENTITY_FRAMES);
        k = k < MAX_ENTITY_FRAMES ? k : MAX_ENTITY_FRAMES;
        for (size_t j = 0; j < k; j++) {
            if (f[j].fixed != fixed)
                continue;
            pb_sim_frame *grown = sim_reserve(sim->frames, &sim->cap_frames, n + 1, sizeof *grown, 64);
            if (!grown)
                break;
            sim->frames = grown;
            pb_sim_frame *t = &sim->frames[n++];
            if (f[j].parent < 0)
                snprintf(t->frame_id, sizeof t->frame_id, "map");
            else
                snprintf(t->frame_id, sizeof t->frame_id, "%s/%s", e->name, f[f[j].parent].name);
            snprintf(t->child_frame_id, sizeof t->child_frame_id, "%s/%s", e->name, f[j].name);
            double q[4];
            scene_quat_of(&f[j].pose, q);
            t->transform =
                (pb_sim_pose){{f[j].pose.t[0], f[j].pose.t[1], f[j].pose.t[2]}, q[0], q[1], q[2], q[3]};
        }
    }
    *out = sim->frames;
    return n;
}
