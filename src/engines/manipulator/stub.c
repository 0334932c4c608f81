/* The manipulator engine in a build without FCL, libxml2 or assimp: it still recognises
 * world files, so `planbench rrt worlds/x.xml` says what is missing instead of "no engine
 * reads this kind of file". */
#include "engines/manipulator/manipulator.h"
#include "planbench/impl/engine_impl.h"

#include <stdio.h>
#include <string.h>

static bool accepts_path(const char *path)
{
    char head[4096];
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    const size_t n = fread(head, 1, sizeof head - 1, fp);
    fclose(fp);
    head[n] = '\0';
    return strncmp(head, "# planbench-flat-mbm", 20) == 0 || strstr(head, "<world") != NULL;
}

static pb_status load(void **self, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    (void)setup;
    (void)options;
    (void)n_options;
    *self = NULL;
    pb_diag_set(diag, path, 0, 0,
                "this build has no manipulator engine (it needs FCL, libxml2 and assimp: install them with "
                "tools/install-deps.sh and configure with -Dfcl=enabled)");
    return PB_ERR_UNSUPPORTED;
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)self;
    (void)q;
    (void)counters;
    return false;
}

static const char *const aliases[] = {"urdf", "arm", NULL};

const pb_engine_impl pb_manipulator_impl = {
    .name = "manipulator",
    .aliases = aliases,
    .summary = "URDF robot in a world (not in this build: needs FCL, libxml2, assimp; -Dfcl=enabled)",
    .accepts_path = accepts_path,
    .load = load,
    .feasible = feasible,
};

/* ---- the private API (manipulator.h) that the simulation service calls: no engine of this
 * kind can be loaded in this build, so these only say so ---- */

const char *pb_manipulator_coordinate_name(const pb_engine *engine, int i)
{
    (void)engine;
    (void)i;
    return NULL;
}

pb_status pb_manipulator_object_add(pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                    const char *name, uint32_t *id)
{
    (void)engine;
    (void)shape;
    (void)pose;
    (void)name;
    *id = PB_MANIPULATOR_OBJECT_NONE;
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_object_move(pb_engine *engine, uint32_t id, const pb_pose *pose)
{
    (void)engine;
    (void)id;
    (void)pose;
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_object_remove(pb_engine *engine, uint32_t id)
{
    (void)engine;
    (void)id;
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_object_check(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                      uint32_t ignore_id, const double *robot_q, bool *hits, char *what,
                                      size_t size)
{
    (void)engine;
    (void)shape;
    (void)pose;
    (void)ignore_id;
    (void)robot_q;
    *hits = false;
    if (size)
        what[0] = '\0';
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_robot_touches(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                       const double *robot_q, bool *touches)
{
    (void)engine;
    (void)shape;
    (void)pose;
    (void)robot_q;
    *touches = false;
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_manipulator_shapes_overlap(const pb_shape *a, const pb_pose *pose_a, const pb_shape *b,
                                        const pb_pose *pose_b, bool *overlap)
{
    (void)a;
    (void)pose_a;
    (void)b;
    (void)pose_b;
    *overlap = false;
    return PB_ERR_UNSUPPORTED;
}

size_t pb_manipulator_object_count(const pb_engine *engine)
{
    (void)engine;
    return 0;
}

pb_status pb_manipulator_objects_copy(pb_engine *dst, const pb_engine *src)
{
    (void)dst;
    (void)src;
    return PB_ERR_UNSUPPORTED;
}
