/* The registries of engines and planners: NULL-terminated tables the CLI, the benchmark
 * runner and the service look names up in. A new engine or planner adds one line to each
 * of the two places below. */
#include "planbench/impl/engine_impl.h"
#include "planbench/impl/planner_impl.h"

#include <string.h>

extern const pb_engine_impl pb_image2d_impl;
extern const pb_engine_impl pb_blackbox_impl;
extern const pb_engine_impl pb_stickarm4d_impl;
extern const pb_engine_impl pb_manipulator_impl;

extern const pb_planner_impl pb_rrt_impl;
extern const pb_planner_impl pb_birrt_impl, pb_rrtstar_impl, pb_informedrrt_impl;
extern const pb_planner_impl pb_prm_impl;
extern const pb_planner_impl pb_lazyprm_impl;
extern const pb_planner_impl pb_bitstar_impl;
extern const pb_planner_impl pb_rrdt_impl;

static const pb_engine_impl *const engines[] = {
    &pb_image2d_impl, &pb_blackbox_impl, &pb_stickarm4d_impl, &pb_manipulator_impl, NULL,
};

static const pb_planner_impl *const planners[] = {
    &pb_rrt_impl,         &pb_birrt_impl, &pb_rrtstar_impl,
    &pb_informedrrt_impl, &pb_prm_impl,   &pb_lazyprm_impl,
    &pb_bitstar_impl,     &pb_rrdt_impl,  NULL,
};

size_t pb_engine_registry_count(void)
{
    return sizeof engines / sizeof engines[0] - 1;
}

const pb_engine_impl *pb_engine_registry_get(size_t index)
{
    return index < pb_engine_registry_count() ? engines[index] : NULL;
}

static bool name_matches(const char *name, const char *canonical, const char *const *aliases)
{
    if (strcmp(name, canonical) == 0)
        return true;
    for (const char *const *a = aliases; a && *a; a++)
        if (strcmp(name, *a) == 0)
            return true;
    return false;
}

const pb_engine_impl *pb_engine_registry_find(const char *name)
{
    for (size_t i = 0; engines[i]; i++)
        if (name_matches(name, engines[i]->name, engines[i]->aliases))
            return engines[i];
    return NULL;
}

size_t pb_planner_registry_count(void)
{
    return sizeof planners / sizeof planners[0] - 1;
}

const pb_planner_impl *pb_planner_registry_get(size_t index)
{
    return index < pb_planner_registry_count() ? planners[index] : NULL;
}

const pb_planner_impl *pb_planner_registry_find(const char *name)
{
    for (size_t i = 0; planners[i]; i++)
        if (name_matches(name, planners[i]->name, planners[i]->aliases))
            return planners[i];
    return NULL;
}
