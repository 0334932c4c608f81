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
    double finest; /* the least growth tried, engine units */
    uint32_t ignore_id;
    pb_engine_counters *counters;
    const pb_sweep_path *path; /* NULL: the rate alone */
    double *stretch;           /* the path length the next stretch check tries (adapted as it goes) */
} sweep;

/* The least and greatest of rho cos(theta) (or rho sin(theta) when `sine`) over theta in
 * [a, b] (b - a < 2 pi): the ends, and the turning points they enclose. */
static void arc_range(double rho, double a, double b, bool sine, double *lo, double *hi)
{
    const double fa = rho * (sine ? sin(a) : cos(a)), fb = rho * (sine ? sin(b) : cos(b));
    *lo = fmin(fa, fb);
    *hi = fmax(fa, fb);
    const double top = sine ? 0.5 * M_PI : 0.0; /* where the maximum is; the minimum half a turn on */
    if (floor((b - top) / (2 * M_PI)) >= ceil((a - top) / (2 * M_PI)))
        *hi = rho;
    if (floor((b - top - M_PI) / (2 * M_PI)) >= ceil((a - top - M_PI) / (2 * M_PI)))
        *lo = -rho;
}

/* The box, in the frame of the pose at the stretch's start, that holds the rectangle footprint
 * at every pose of a stretch of `len` path driven under `path`'s promise: the reference point
 * moves by (dx, dy) with dx within [0, len] forward ([-len, 0] backward) and |dy| <= len times
 * the sine of the heading change psi, which lies within the curvatures times the signed path;
 * the rectangle turns by psi about the reference point, its corners along their circles. The
 * box is written as a rectangle footprint (no offset) at `at`. False when the heading could
 * turn by more than a radian (the bounds assume less than a quarter turn). */
static bool stretch_box(const pb_footprint *footprint, const pb_sweep_path *path, double len,
                        const double *pose, pb_footprint *box, double *at)
{
    double psi_lo = 0.0, psi_hi = 0.0, dx_lo = 0.0, dx_hi = 0.0, dy_lo = 0.0, dy_hi = 0.0;
    if (path->direction >= 0) { /* forward: psi = curvature * s, s in [0, len] */
        psi_lo = fmin(psi_lo, path->curvature_min * len);
        psi_hi = fmax(psi_hi, path->curvature_max * len);
    }
    if (path->direction <= 0) { /* backward: s in [-len, 0] */
        psi_lo = fmin(psi_lo, -path->curvature_max * len);
        psi_hi = fmax(psi_hi, -path->curvature_min * len);
    }
    if (!(psi_hi - psi_lo <= 1.0) || !(fabs(psi_lo) <= 1.0) || !(fabs(psi_hi) <= 1.0))
        return false;
    const double sin_lo = fmin(0.0, sin(psi_lo)), sin_hi = fmax(0.0, sin(psi_hi));
    if (path->direction >= 0) {
        dx_hi = len;
        dy_lo = fmin(dy_lo, len * sin_lo);
        dy_hi = fmax(dy_hi, len * sin_hi);
    }
    if (path->direction <= 0) {
        dx_lo = -len;
        dy_lo = fmin(dy_lo, -len * sin_hi);
        dy_hi = fmax(dy_hi, -len * sin_lo);
    }
    double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    for (int i = 0; i < 4; i++) {
        const double cx = footprint->offset + (i & 1 ? 1.0 : -1.0) * footprint->half_length;
        const double cy = (i & 2 ? 1.0 : -1.0) * footprint->half_width;
        const double rho = hypot(cx, cy), alpha = atan2(cy, cx);
        double lo, hi;
        arc_range(rho, alpha + psi_lo, alpha + psi_hi, false, &lo, &hi);
        x_lo = fmin(x_lo, lo);
        x_hi = fmax(x_hi, hi);
        arc_range(rho, alpha + psi_lo, alpha + psi_hi, true, &lo, &hi);
        y_lo = fmin(y_lo, lo);
        y_hi = fmax(y_hi, hi);
    }
    /* a margin for the rounding of the motion's poses (computed, not exact: a vehicle's by RK4) */
    const double eps =
        1e-6 * (footprint->half_length + footprint->half_width + fabs(footprint->offset) + len);
    x_lo += dx_lo - eps;
    x_hi += dx_hi + eps;
    y_lo += dy_lo - eps;
    y_hi += dy_hi + eps;
    *box = (pb_footprint){
        .type = PB_FOOTPRINT_RECT, .half_length = 0.5 * (x_hi - x_lo), .half_width = 0.5 * (y_hi - y_lo)};
    const double mx = 0.5 * (x_lo + x_hi), my = 0.5 * (y_lo + y_hi), c = cos(pose[2]), sn = sin(pose[2]);
    at[0] = pose[0] + c * mx - sn * my;
    at[1] = pose[1] + sn * mx + c * my;
    at[2] = pose[2];
    return true;
}

/* Near obstacles, with a path promise: the longest stretch from t (trying the last length that
 * worked, halving on a hit) whose box is free, as a reach in t; 0 when even the stretches that
 * would certify no more than the grown checks' quarter cell are blocked. A stretch that worked
 * lets the next try twice as far. */
static double stretch_reach(const sweep *s, double t, const double *pose)
{
    const pb_sweep_path *path = s->path;
    const double rest = (1.0 - t) * path->length;
    const double least = s->creep / s->rate * path->length; /* what a grown check certifies, in path */
    for (double len = fmin(*s->stretch, rest); len > least; len *= 0.5) {
        pb_footprint box;
        double at[3];
        if (!stretch_box(s->footprint, path, len, pose, &box, at))
            continue;
        pb_hit hit;
        s->impl->footprint_check(s->self, &box, at, s->ignore_id, &hit, s->counters);
        if (hit.kind == PB_HIT_NONE) {
            *s->stretch = 2.0 * len;
            return len >= rest ? 1.0 : len / path->length;
        }
        *s->stretch = 0.5 * len;
    }
    return 0.0;
}

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
    if (s->path && s->footprint->type == PB_FOOTPRINT_RECT) {
        const double r = stretch_reach(s, t, pose);
        if (r > 0.0)
            return fmax(r, c * (1.0 - 1e-9) / s->rate);
    }
    /* a quarter pixel, then a sixteenth, down to 1/256 (or to the clearance floor, when closer
     * than that counts as a hit: pb_sweep_opts): a pose right next to an obstacle can still move
     * (away from it, or the last bit towards it) */
    for (double by = s->creep; s->footprint->type != PB_FOOTPRINT_ARM && by >= s->finest; by *= 0.25) {
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
                  const pb_sweep_opts *opts, uint32_t ignore_id, pb_engine_counters *counters, double *t_free,
                  pb_hit *hit)
{
    static const pb_sweep_opts none = {0};
    opts = opts ? opts : &none;
    memset(hit, 0, sizeof *hit);
    hit->obstacle_id = PB_OBSTACLE_NONE;
    *t_free = -1.0;
    double pose[3];
    motion(ctx, 0.0, pose);
    /* the first stretch tried: the footprint's length plus its width (adapted from there) */
    double stretch = 2.0 * (footprint->half_length + footprint->half_width);
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
               .finest = opts->floor_is_hit ? fmax(floor, resolution / 256.0) : resolution / 256.0,
               .ignore_id = ignore_id,
               .counters = counters,
               .path = opts->path && opts->path->length > 0.0 ? opts->path : NULL,
               .stretch = &stretch};
    if (!opts->start_free) {
        counters->n_edge_states++;
        impl->footprint_check(self, footprint, pose, ignore_id, hit, counters);
        if (hit->kind != PB_HIT_NONE)
            return false;
    }
    if (rate == 0.0) { /* the motion stands still */
        *t_free = 1.0;
        return true;
    }
    /* creeping closer than the finest grown check (1/256 cell) gains nothing */
    if (pb_certify_forward(sweep_reach, &s,
                           opts->grain >= 1.0 ? INFINITY : fmax(opts->grain, resolution / 256.0 / rate),
                           counters, t_free))
        return true;
    sweep_hit(&s, *t_free, hit);
    return false;
}

static pb_status engine_sweep(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion,
                              const void *ctx, double rate, const pb_sweep_path *path, uint32_t ignore_id,
                              bool *free, double *t_free, pb_hit *hit)
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
    if (path &&
        !(path->length >= 0.0 && isfinite(path->length) && path->curvature_min <= path->curvature_max &&
          isfinite(path->curvature_min) && isfinite(path->curvature_max) && path->direction >= -1 &&
          path->direction <= 1 && path->stops >= 0))
        return PB_ERR_INVALID;
    double pose[3];
    motion(ctx, 0.0, pose);
    pb_shape2d shape;
    if (!pb_shape2d_make(footprint, pose, &shape)) {
        hit->kind = PB_HIT_INVALID;
        return PB_ERR_INVALID;
    }
    const bool whole = path && path->stops > 0;
    const pb_sweep_opts opts = {
        .path = path, .grain = whole ? 1.0 / path->stops : 0.0, .floor_is_hit = whole};
    *free = pb_sweep_run(impl, pb_engine_self(engine), setup->clearance_floor, setup->resolution, footprint,
                         motion, ctx, rate, &opts, ignore_id, pb_engine_counters_of(engine), t_free, hit);
    return PB_OK;
}

pb_status pb_engine_sweep(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion,
                          const void *ctx, double rate, uint32_t ignore_id, bool *free, double *t_free,
                          pb_hit *hit)
{
    return engine_sweep(engine, footprint, motion, ctx, rate, NULL, ignore_id, free, t_free, hit);
}

pb_status pb_engine_sweep_path(pb_engine *engine, const pb_footprint *footprint, pb_motion_fn motion,
                               const void *ctx, double rate, const pb_sweep_path *path, uint32_t ignore_id,
                               bool *free, double *t_free, pb_hit *hit)
{
    if (!path) {
        *free = false;
        if (t_free)
            *t_free = -1.0;
        return PB_ERR_INVALID;
    }
    return engine_sweep(engine, footprint, motion, ctx, rate, path, ignore_id, free, t_free, hit);
}
