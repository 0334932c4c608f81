/* The registries of engines and planners: NULL-terminated tables the CLI, the benchmark
 * runner and the service look names up in, and the two calls that make an engine or a
 * planner by name (pb_engine_load, pb_planner_create). This file knows every engine and
 * planner; nothing in the library below it calls it, so the wrappers (engine.c,
 * planner.c), the engines and the planners never form a circle with it. A new engine or
 * planner adds one line to each of the two places below. */
#include "planbench/impl/engine_impl.h"
#include "planbench/impl/planner_impl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const pb_engine_impl pb_image2d_impl;
extern const pb_engine_impl pb_blackbox_impl;
extern const pb_engine_impl pb_stickarm4d_impl;
extern const pb_engine_impl pb_manipulator_impl;
extern const pb_engine_impl pb_car_impl;

extern const pb_planner_impl pb_rrt_impl;
extern const pb_planner_impl pb_birrt_impl, pb_rrtstar_impl, pb_informedrrt_impl;
extern const pb_planner_impl pb_prm_impl;
extern const pb_planner_impl pb_lazyprm_impl;
extern const pb_planner_impl pb_bitstar_impl;
extern const pb_planner_impl pb_rrdt_impl;
extern const pb_planner_impl pb_hybrid_astar_impl, pb_rrt_control_impl, pb_sst_impl;

static const pb_engine_impl *const engines[] = {
    &pb_image2d_impl, &pb_blackbox_impl, &pb_stickarm4d_impl, &pb_manipulator_impl, &pb_car_impl, NULL,
};

static const pb_planner_impl *const planners[] = {
    &pb_rrt_impl,          &pb_birrt_impl,       &pb_rrtstar_impl, &pb_informedrrt_impl,
    &pb_prm_impl,          &pb_lazyprm_impl,     &pb_bitstar_impl, &pb_rrdt_impl,
    &pb_hybrid_astar_impl, &pb_rrt_control_impl, &pb_sst_impl,     NULL,
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

pb_status pb_engine_load(pb_engine **out, const char *engine_name, const char *path, const pb_option *options,
                         size_t n_options, pb_diag *diag)
{
    *out = NULL;
    const pb_engine_impl *impl = NULL;
    if (engine_name) {
        impl = pb_engine_registry_find(engine_name);
        if (!impl) {
            pb_diag_set(diag, NULL, 0, 0, "unknown engine '%s' (see 'planbench list')", engine_name);
            return PB_ERR_NOT_FOUND;
        }
    } else if (path) {
        for (size_t i = 0; i < pb_engine_registry_count() && !impl; i++) {
            const pb_engine_impl *candidate = pb_engine_registry_get(i);
            if (candidate->accepts_path && candidate->accepts_path(path))
                impl = candidate;
        }
        const size_t len = strlen(path);
        if (!impl && len > 5 && strcasecmp(path + len - 5, ".urdf") == 0) {
            pb_diag_set(
                diag, path, 0, 0,
                "a URDF file is a robot, not a space to plan in: name it in a world file (<world><robot "
                "urdf=\"FILE.urdf\" srdf=\"FILE.srdf\" group=\"arm\"/>, obstacles, <start>, <goal></world>, "
                "as worlds/pbarm6_divider.xml does) and plan with 'planbench rrt WORLD.xml'");
            return PB_ERR_INVALID;
        }
        if (!impl) {
            pb_diag_set(
                diag, path, 0, 0,
                "no engine reads this kind of file (expected a .png or .pgm map, a map_server .yaml or a "
                "world file); choose one with --engine");
            return PB_ERR_INVALID;
        }
    } else {
        pb_diag_set(diag, NULL, 0, 0, "no map or engine given");
        return PB_ERR_INVALID;
    }
    if (!impl->load) {
        pb_diag_set(diag, NULL, 0, 0, "engine '%s' can only be made from C", impl->name);
        return PB_ERR_UNSUPPORTED;
    }
    void *self = NULL;
    pb_engine_config setup = pb_engine_config_default(0);
    pb_status st = impl->load(&self, &setup, path, options, n_options, diag);
    if (st != PB_OK)
        return st;
    return pb_engine_create(out, impl, self, &setup, diag);
}

pb_status pb_planner_create(pb_planner **out, const char *name, pb_engine *engine, pb_diag *diag)
{
    *out = NULL;
    const pb_planner_impl *impl = pb_planner_registry_find(name);
    if (!impl) {
        pb_diag_set(diag, NULL, 0, 0, "unknown planner '%s' (see 'planbench list')", name);
        return PB_ERR_NOT_FOUND;
    }
    return pb_planner_create_impl(out, impl, engine, diag);
}
