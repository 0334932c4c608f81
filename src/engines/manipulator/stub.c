/* The manipulator engine in a build without FCL, libxml2 or assimp: it still recognises
 * world files, so `planbench rrt worlds/x.xml` says what is missing instead of "no engine
 * reads this kind of file". */
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

/* The one public function of the engine that needs no engine: pure geometry through FCL. */
pb_status pb_solids_overlap(bool *overlap, const pb_solid *a, const pb_pose *pose_a, const pb_solid *b,
                            const pb_pose *pose_b)
{
    (void)a;
    (void)pose_a;
    (void)b;
    (void)pose_b;
    *overlap = false;
    return PB_ERR_UNSUPPORTED;
}
