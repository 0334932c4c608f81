/* Public wrappers for dynamic obstacles and footprint checks (see engine.h). */
#include "planbench/impl/engine_impl.h"
#include "checkers/shapes2d.h"

#include <math.h>
#include <string.h>

static bool has_obstacles(const pb_engine_impl *impl)
{
    return impl->obstacle_add && impl->obstacle_move && impl->obstacle_remove && impl->footprint_check;
}

static bool has_solids(const pb_engine_impl *impl)
{
    return impl->solid_add && impl->solid_move && impl->obstacle_remove && impl->solid_check;
}

pb_status pb_engine_obstacle_add(uint32_t *id, pb_engine *engine, const pb_footprint *footprint,
                                 const double *pose)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    *id = PB_OBSTACLE_NONE;
    if (!has_obstacles(impl))
        return PB_ERR_UNSUPPORTED;
    pb_shape2d shape;
    if (!pb_shape2d_make(footprint, pose, &shape))
        return PB_ERR_INVALID;
    return impl->obstacle_add(pb_engine_self(engine), footprint, pose, id);
}

pb_status pb_engine_obstacle_move(pb_engine *engine, uint32_t id, const double *pose)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!has_obstacles(impl))
        return PB_ERR_UNSUPPORTED;
    return impl->obstacle_move(pb_engine_self(engine), id, pose);
}

pb_status pb_engine_obstacle_remove(pb_engine *engine, uint32_t id)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!has_obstacles(impl) && !has_solids(impl))
        return PB_ERR_UNSUPPORTED;
    return impl->obstacle_remove(pb_engine_self(engine), id);
}

pb_status pb_engine_footprint_check(pb_engine *engine, const pb_footprint *footprint, const double *pose,
                                    uint32_t ignore_id, pb_hit *hit)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    memset(hit, 0, sizeof *hit);
    hit->obstacle_id = PB_OBSTACLE_NONE;
    if (!has_obstacles(impl))
        return PB_ERR_UNSUPPORTED;
    pb_engine_counters counters = {0};
    impl->footprint_check(pb_engine_self(engine), footprint, pose, ignore_id, hit, &counters);
    return PB_OK;
}

bool pb_footprint_overlap(const pb_footprint *a, const double *pose_a, const pb_footprint *b,
                          const double *pose_b)
{
    pb_shape2d sa, sb;
    if (!pb_shape2d_make(a, pose_a, &sa) || !pb_shape2d_make(b, pose_b, &sb))
        return false;
    return pb_shape2d_overlap(&sa, &sb);
}

void pb_footprint_aabb(const pb_footprint *footprint, const double *pose, double *lo, double *hi)
{
    pb_shape2d s;
    if (!pb_shape2d_make(footprint, pose, &s)) {
        lo[0] = lo[1] = hi[0] = hi[1] = 0.0;
        return;
    }
    memcpy(lo, s.lo, sizeof s.lo);
    memcpy(hi, s.hi, sizeof s.hi);
}

/* ---- solids ---- */

bool pb_solid_is_valid(const pb_solid *solid)
{
    int n = 0;
    switch (solid->type) {
    case PB_SOLID_BOX:
        n = 3;
        break;
    case PB_SOLID_CYLINDER:
        n = 2;
        break;
    case PB_SOLID_SPHERE:
        n = 1;
        break;
    default:
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!(solid->size[i] > 0.0) || !isfinite(solid->size[i]))
            return false;
    return true;
}

bool pb_pose_is_finite(const pb_pose *pose)
{
    for (int i = 0; i < 9; i++)
        if (!isfinite(pose->r[i]))
            return false;
    for (int i = 0; i < 3; i++)
        if (!isfinite(pose->t[i]))
            return false;
    return true;
}

pb_status pb_engine_solid_add(uint32_t *id, pb_engine *engine, const pb_solid *solid, const pb_pose *pose,
                              const char *name)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    *id = PB_OBSTACLE_NONE;
    if (!has_solids(impl))
        return PB_ERR_UNSUPPORTED;
    if (!pb_solid_is_valid(solid) || !pb_pose_is_finite(pose))
        return PB_ERR_INVALID;
    return impl->solid_add(pb_engine_self(engine), solid, pose, name ? name : "", id);
}

pb_status pb_engine_solid_move(pb_engine *engine, uint32_t id, const pb_pose *pose)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!has_solids(impl))
        return PB_ERR_UNSUPPORTED;
    if (!pb_pose_is_finite(pose))
        return PB_ERR_INVALID;
    return impl->solid_move(pb_engine_self(engine), id, pose);
}

pb_status pb_engine_solid_check(bool *hits, const pb_engine *engine, const pb_solid *solid, const pb_pose *pose,
                                uint32_t ignore_id, const double *robot_q, bool robot_only, char *what,
                                size_t size)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    *hits = false;
    if (size)
        what[0] = '\0';
    if (!has_solids(impl))
        return PB_ERR_UNSUPPORTED;
    if (!pb_solid_is_valid(solid) || !pb_pose_is_finite(pose))
        return PB_ERR_INVALID;
    impl->solid_check(pb_engine_self(engine), solid, pose, ignore_id, robot_q, robot_only, hits, what, size);
    return PB_OK;
}

size_t pb_engine_obstacle_count(const pb_engine *engine)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    return impl->obstacle_count ? impl->obstacle_count(pb_engine_self(engine)) : 0;
}

pb_status pb_engine_obstacles_copy(pb_engine *dst, const pb_engine *src)
{
    const pb_engine_impl *impl = pb_engine_get_impl(dst);
    if (!impl->obstacles_copy || pb_engine_get_impl(src) != impl)
        return PB_ERR_UNSUPPORTED;
    return impl->obstacles_copy(pb_engine_self(dst), pb_engine_self(src));
}

pb_status pb_engine_workspace(const pb_engine *engine, double *lo, double *hi)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!impl->workspace)
        return PB_ERR_UNSUPPORTED;
    return impl->workspace(pb_engine_self(engine), lo, hi);
}

const char *pb_engine_coordinate_name(const pb_engine *engine, int i)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    if (!impl->coordinate_name || i < 0 || i >= pb_engine_dim(engine))
        return NULL;
    return impl->coordinate_name(pb_engine_self(engine), i);
}

size_t pb_engine_frames(const pb_engine *engine, const double *q, pb_frame *frames, size_t max)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    return impl->frames ? impl->frames(pb_engine_self(engine), q, frames, max) : 0;
}
