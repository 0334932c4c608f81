/* Fuzz target for the URDF, SRDF, world-XML, Klampt .rob and MotionBenchMaker YAML readers
 * (issue 7): any input is parsed as a URDF, then (when that worked) as an SRDF for that
 * robot, as a world, as a Klampt robot, whose URDF and SRDF text must then load, and as a
 * MotionBenchMaker scene and request. Each either
 * succeeds with a consistent result (every link reached once from the root, indices in
 * range) or fails with a message, leaving nothing behind. No file is opened: relative mesh
 * paths are only resolved as names. */
#include "robot/klampt.h"
#if PB_HAVE_YAML
#include "robot/mbm_yaml.h"
#endif
#include "robot/urdf.h"
#include "robot/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_robot(const pb_robot *robot)
{
    if (robot->n_links == 0 || robot->root < 0 || (size_t)robot->root >= robot->n_links)
        abort();
    unsigned char *seen = calloc(robot->n_links, 1);
    if (!seen)
        return;
    for (size_t k = 0; k < robot->n_links; k++) {
        const int l = robot->order[k];
        if (l < 0 || (size_t)l >= robot->n_links || seen[l])
            abort();
        seen[l] = 1;
        const int j = robot->links[l].parent_joint;
        if ((l == robot->root) != (j < 0))
            abort();
        if (j >= 0 && (robot->joints[j].child != l || !seen[robot->joints[j].parent]))
            abort(); /* parents come first */
    }
    free(seen);
    for (size_t g = 0; g < robot->n_groups; g++)
        for (size_t i = 0; i < robot->groups[g].n_joints; i++)
            if (!pb_joint_is_active(&robot->joints[robot->groups[g].joints[i]]))
                abort();
    for (size_t e = 0; e < robot->n_end_effectors; e++)
        if (robot->end_effectors[e].parent_link < 0 ||
            (size_t)robot->end_effectors[e].parent_link >= robot->n_links)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    pb_robot robot;
    pb_diag diag = {0};
    if (pb_urdf_load_memory(&robot, text, size, "fuzz.urdf", "/nonexistent", &diag) == PB_OK) {
        check_robot(&robot);
        pb_srdf_load_memory(&robot, text, size, "fuzz.srdf", &diag);
        check_robot(&robot);
    } else if (diag.message[0] == '\0' || robot.links != NULL) {
        abort();
    }
    pb_robot_finish(&robot);
    pb_world world;
    memset(&diag, 0, sizeof diag);
    if (pb_world_load_xml_memory(&world, text, size, "fuzz.xml", "/nonexistent", &diag) == PB_OK) {
        if (!world.urdf_path || world.n_start < 0 || world.n_start > PB_MAX_DIM)
            abort();
        pb_world_finish(&world);
    } else if (diag.message[0] == '\0' || world.obstacles != NULL) {
        abort();
    }
    pb_klampt_robot klampt;
    memset(&diag, 0, sizeof diag);
    if (pb_klampt_robot_load_memory(&klampt, text, size, "fuzz.rob", "/nonexistent", &diag) == PB_OK) {
        /* what the .rob reader writes, the URDF reader reads */
        if (pb_urdf_load_memory(&robot, klampt.urdf, strlen(klampt.urdf), "fuzz.rob", NULL, &diag) != PB_OK)
            abort();
        check_robot(&robot);
        if (pb_srdf_load_memory(&robot, klampt.srdf, strlen(klampt.srdf), "fuzz.rob", &diag) != PB_OK)
            abort();
        pb_robot_finish(&robot);
        pb_klampt_robot_finish(&klampt);
    } else if (diag.message[0] == '\0' || klampt.urdf != NULL) {
        abort();
    }
#if PB_HAVE_YAML
    /* as a MotionBenchMaker scene and request at once (the robot is never found) */
    memset(&diag, 0, sizeof diag);
    if (pb_mbm_yaml_load_memory(&world, text, size, text, size, "/nonexistent/scene0001.yaml", &diag) ==
        PB_OK)
        abort();
    if (diag.message[0] == '\0' || world.obstacles != NULL || world.joints != NULL)
        abort();
#endif
    return 0;
}
