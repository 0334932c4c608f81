/* pb_engine_sweep(): a footprint swept along a continuous motion, certified by clearance
 * steps (see engine.h). The start is checked whole; along the motion the engine's
 * footprint_clearance() keeps the footprint's boundary clear, so nothing can enter it. */
#include "planbench/impl/engine_impl.h"
#include "checkers/clearance.h"
#include "checkers/shapes2d.h"
#include "core/engine_private.h"

#include <math.h>
#include <string.h>

typedef struct sweep {
    const pb_engine_impl *impl;
    const void *self;
    const pb_footprint *footprint;
    pb_motion_fn motion;
    const void *ctx;
    double rate, floor;
    double margin; /* how far the clearance bound may be from the truth, engine units */
    double near;   /* below this clearance the grown exact check is tried, engine units */
    double creep;  /* how much the grown check grows the footprint, engine units */
    uint32_t ignore_id;
    pb_engine_counters *counters;
} sweep;

/* The footprint grown by `by` on every side (a rectangle's half sizes, a disc's radius). */
static pb_footprint grow(const pb_footprint *footprint, double by)
{
    pb_footprint grown = *footprint;
    grown.radius += by;
    grown.half_length += by;
    grown.half_width += by;
    return grown;
}

/* The clearance at the pose of t over the motion's rate; the factor keeps the rounding of
 * the motion's poses on the safe side. Near obstacles, where the clearance bound is
 * pessimistic (the distance transform's sqrt(2) pixels), an exact check of the footprint
 * grown by a quarter pixel (or less) certifies the poses whose points move less than that:
 * each such point stays inside the grown footprint, which is free. Disc and rectangle
 * footprints. */
static double sweep_reach(const void *ctx, double t)
{
    const sweep *s = ctx;
    double pose[3];
    s->motion(s->ctx, t, pose);
    const double c = s->impl->footprint_clearance(s->self, s->footprint, pose, s->ignore_id, s->counters);
    if (c >= s->near)
        return c * (1.0 - 1e-9) / s->rate;
    /* a quarter pixel, then a sixteenth, down to 1/256: a pose right next to an obstacle can
     * still move (away from it, or the last bit towards it) */
    for (double by = s->creep; s->footprint->type != PB_FOOTPRINT_ARM && by >= s->creep / 64.0; by *= 0.25) {
        const pb_footprint grown = grow(s->footprint, by);
        pb_hit hit;
        s->impl->footprint_check(s->self, &grown, pose, s->ignore_id, &hit, s->counters);
        if (hit.kind == PB_HIT_NONE)
            return fmax(c, by) * (1.0 - 1e-9) / s->rate;
    }
    if (!(c >= s->floor))
        return -1.0;
    return c * (1.0 - 1e-9) / s->rate;
}

/* What the footprint runs into near the pose of t: the footprint grown by the check's margin
 * (the clearance bound can be this far from the truth), checked whole. */
static void sweep_hit(const sweep *s, double t, pb_hit *hit)
{
    double pose[3];
    s->motion(s->ctx, t, pose);
    const pb_footprint grown = grow(s->footprint, s->margin);
    s->impl->footprint_check(s->self, &grown, pose, s->ignore_id, hit, s->counters);
    if (hit->kind == PB_HIT_NONE) { /* nearer than the floor to something the grown check misses */
        hit->kind = PB_HIT_MAP;
        hit->pixel_x = hit->pixel_y = -1;
    }
}

bool pb_sweep_run(const pb_engine_impl *impl, const void *self, double floor, double resolution,
                  const pb_footprint *footprint, pb_motion_fn motion, const void *ctx, double rate,
                  uint32_t ignore_id, pb_engine_counters *counters, double *t_free, pb_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    hit->obstacle_id = PB_OBSTACLE_NONE;
    *t_free = -1.0;
    double pose[3];
    motion(ctx, 0.0, pose);
    sweep s = {.impl = impl,
               .self = self,
               .footprint = footprint,
               .motion = motion,
               .ctx = ctx,
               .rate = rate,
               .floor = floor,
               .margin = 2.0 * (floor + PB_EDT_MARGIN * resolution),
               .near = 2.0 * PB_EDT_MARGIN * resolution,
               .creep = 0.25 * resolution,
               .ignore_id = ignore_id,
               .counters = counters};
    counters->n_edge_states++;
    impl->footprint_check(self, footprint, pose, ignore_id, hit, counters);
    if (hit->kind != PB_HIT_NONE)
        return false;
    if (rate == 0.0) { /* the motion stands still */
        *t_free = 1.0;
        return true;
    }
    /* creeping closer than the finest grown check (1/256 cell) gains nothing */
    if (pb_certify_forward(sweep_reach, &s, resolution / 256.0 / rate, counters, t_free))
        return true;
    sweep_hit(&s, *t_free, hit);
    return false;
}

pb_status pb_engine_sweep(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion, const void *ctx,
                          double rate, uint32_t ignore_id, bool *free, double *t_free, pb_hit *hit)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    const pb_engine_config *setup = pb_engine_get_config(engine);
    pb_hit local_hit;
    hit = hit ? hit : &local_hit;
    memset(hit, 0, sizeof *hit);
    hit->obstacle_id = PB_OBSTACLE_NONE;
    double local_t;
    t_free = t_free ? t_free : &local_t;
    *free = false;
    *t_free = -1.0;
    if (!impl->footprint_clearance || !impl->footprint_check)
        return PB_ERR_UNSUPPORTED;
    if (!(rate >= 0.0) || !isfinite(rate))
        return PB_ERR_INVALID;
    double pose[3];
    motion(ctx, 0.0, pose);
    pb_shape2d shape;
    if (!pb_shape2d_make(footprint, pose, &shape)) {
        hit->kind = PB_HIT_INVALID;
        return PB_ERR_INVALID;
    }
    *free = pb_sweep_run(impl, pb_engine_self(engine), setup->clearance_floor, setup->resolution, footprint, motion,
                         ctx, rate, ignore_id, pb_engine_counters_of(engine), t_free, hit);
    return PB_OK;
}
