/* Public wrappers for dynamic obstacles and footprint checks (see engine.h). */
#include "planbench/impl/engine_impl.h"
#include "checkers/shapes2d.h"

#include <string.h>

static bool has_obstacles(const pb_engine_impl *impl)
{
    return impl->obstacle_add && impl->obstacle_move && impl->obstacle_remove && impl->footprint_check;
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
    if (!has_obstacles(impl))
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
