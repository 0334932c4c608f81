/* Planar footprint geometry: distances between small convex polygons inflated by a radius.
 * Two parts overlap when the distance between their polygons is at most the sum of their
 * radii; the polygon distance is 0 when one holds a vertex of the other or two edges cross,
 * else the least distance between an edge of each. With at most four vertices a part, the
 * quadratic edge loop is cheaper than anything cleverer. */
#include "checkers/shapes2d.h"

#include <math.h>
#include <string.h>

/* Larger than any map we load; keeps the arithmetic finite. */
#define MAX_EXTENT      1e7
#define ARM_LINK_RADIUS 0.5

static double cross(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static double point_segment_distance(const double *p, const double *a, const double *b)
{
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    const double len2 = dx * dx + dy * dy;
    double t = 0.0;
    if (len2 > 0.0) {
        t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    }
    const double ex = a[0] + t * dx - p[0], ey = a[1] + t * dy - p[1];
    return sqrt(ex * ex + ey * ey);
}

static bool segments_cross(const double *a, const double *b, const double *c, const double *d)
{
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

static double segment_distance(const double *a, const double *b, const double *c, const double *d)
{
    if (segments_cross(a, b, c, d))
        return 0.0;
    double m = point_segment_distance(a, c, d);
    double t = point_segment_distance(b, c, d);
    m = t < m ? t : m;
    t = point_segment_distance(c, a, b);
    m = t < m ? t : m;
    t = point_segment_distance(d, a, b);
    return t < m ? t : m;
}

/* Inside or on the boundary of a counter-clockwise convex polygon of 3 or more vertices. */
static bool polygon_holds(const pb_part2d *poly, const double *p)
{
    if (poly->n < 3)
        return false;
    for (int i = 0; i < poly->n; i++)
        if (cross(poly->v[i], poly->v[(i + 1) % poly->n], p) < 0.0)
            return false;
    return true;
}

double pb_part2d_distance(const pb_part2d *a, const pb_part2d *b)
{
    if (polygon_holds(a, b->v[0]) || polygon_holds(b, a->v[0]))
        return 0.0;
    const int na = a->n < 3 ? 1 : a->n;
    const int nb = b->n < 3 ? 1 : b->n;
    double best = INFINITY;
    for (int i = 0; i < na; i++) {
        const double *a0 = a->v[i], *a1 = a->v[(i + 1) % a->n];
        for (int j = 0; j < nb; j++) {
            const double d = segment_distance(a0, a1, b->v[j], b->v[(j + 1) % b->n]);
            if (d < best)
                best = d;
        }
    }
    return best;
}

static void part_bounds(const pb_part2d *p, double *lo, double *hi)
{
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < 2; k++) {
            if (p->v[i][k] - p->r < lo[k])
                lo[k] = p->v[i][k] - p->r;
            if (p->v[i][k] + p->r > hi[k])
                hi[k] = p->v[i][k] + p->r;
        }
}

static bool size_ok(double v, bool allow_zero)
{
    return isfinite(v) && (allow_zero ? v >= 0.0 : v > 0.0) && v < MAX_EXTENT;
}

bool pb_shape2d_make(const pb_footprint *fp, const double *pose, pb_shape2d *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 3; k++)
        if (!isfinite(pose[k]) || fabs(pose[k]) > MAX_EXTENT)
            return false;
    const double c = cos(pose[2]), s = sin(pose[2]);
    switch (fp->type) {
    case PB_FOOTPRINT_DISC:
        if (!size_ok(fp->radius, false))
            return false;
        out->n_parts = 1;
        out->part[0] = (pb_part2d){.n = 1, .v = {{pose[0], pose[1]}}, .r = fp->radius};
        break;
    case PB_FOOTPRINT_RECT: {
        if (!size_ok(fp->half_length, false) || !size_ok(fp->half_width, false) || !isfinite(fp->offset) ||
            fabs(fp->offset) > MAX_EXTENT)
            return false;
        static const double corner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
        out->n_parts = 1;
        out->part[0].n = 4;
        for (int i = 0; i < 4; i++) {
            const double lx = fp->offset + corner[i][0] * fp->half_length, ly = corner[i][1] * fp->half_width;
            out->part[0].v[i][0] = pose[0] + c * lx - s * ly;
            out->part[0].v[i][1] = pose[1] + s * lx + c * ly;
        }
        /* counter-clockwise in a y-down frame is clockwise in y-up: fix the order by sign */
        if (cross(out->part[0].v[0], out->part[0].v[1], out->part[0].v[2]) < 0.0) {
            double t[2];
            memcpy(t, out->part[0].v[1], sizeof t);
            memcpy(out->part[0].v[1], out->part[0].v[3], sizeof t);
            memcpy(out->part[0].v[3], t, sizeof t);
        }
        break;
    }
    case PB_FOOTPRINT_ARM: {
        if (!size_ok(fp->link1, false) || !size_ok(fp->link2, false) || !isfinite(fp->joint1) ||
            !isfinite(fp->joint2) || fabs(fp->joint1) > 1e3 || fabs(fp->joint2) > 1e3)
            return false;
        const double a1 = pose[2] + fp->joint1, a2 = a1 + fp->joint2;
        const double ex = pose[0] + fp->link1 * cos(a1), ey = pose[1] + fp->link1 * sin(a1);
        out->n_parts = 2;
        /* links are capsules one pixel wide, like the rasterised lines of the stickarm4d engine
         * (a zero-width segment along a pixel border would touch no pixel at all) */
        out->part[0] = (pb_part2d){.n = 2, .v = {{pose[0], pose[1]}, {ex, ey}}, .r = ARM_LINK_RADIUS};
        out->part[1] = (pb_part2d){.n = 2,
                                   .v = {{ex, ey}, {ex + fp->link2 * cos(a2), ey + fp->link2 * sin(a2)}},
                                   .r = ARM_LINK_RADIUS};
        break;
    }
    default:
        return false;
    }
    out->lo[0] = out->lo[1] = INFINITY;
    out->hi[0] = out->hi[1] = -INFINITY;
    for (int i = 0; i < out->n_parts; i++)
        part_bounds(&out->part[i], out->lo, out->hi);
    return true;
}

static bool boxes_apart(const double *alo, const double *ahi, const double *blo, const double *bhi)
{
    return ahi[0] < blo[0] || bhi[0] < alo[0] || ahi[1] < blo[1] || bhi[1] < alo[1];
}

bool pb_shape2d_overlap(const pb_shape2d *a, const pb_shape2d *b)
{
    if (boxes_apart(a->lo, a->hi, b->lo, b->hi))
        return false;
    for (int i = 0; i < a->n_parts; i++)
        for (int j = 0; j < b->n_parts; j++)
            if (pb_part2d_distance(&a->part[i], &b->part[j]) <= a->part[i].r + b->part[j].r)
                return true;
    return false;
}

bool pb_shape2d_overlaps_pixel(const pb_shape2d *s, int px, int py)
{
    /* shrink the square a hair so that a footprint edge lying on a pixel border does not
     * count as touching the pixel beyond it */
    const double e = 1e-9;
    const pb_part2d pixel = {
        .n = 4,
        .v = {{px + e, py + e}, {px + 1 - e, py + e}, {px + 1 - e, py + 1 - e}, {px + e, py + 1 - e}},
        .r = 0.0};
    for (int i = 0; i < s->n_parts; i++) {
        const double d = pb_part2d_distance(&s->part[i], &pixel);
        if (s->part[i].r > 0.0 ? d < s->part[i].r : d <= 0.0)
            return true;
    }
    return false;
}

bool pb_shape2d_contains(const pb_shape2d *s, double x, double y)
{
    const double p[2] = {x, y};
    return pb_shape2d_hits_segment(s, p, p);
}

bool pb_shape2d_hits_segment(const pb_shape2d *s, const double *a, const double *b)
{
    const double lo[2] = {fmin(a[0], b[0]), fmin(a[1], b[1])}, hi[2] = {fmax(a[0], b[0]), fmax(a[1], b[1])};
    if (boxes_apart(lo, hi, s->lo, s->hi))
        return false;
    const pb_part2d seg = {.n = 2, .v = {{a[0], a[1]}, {b[0], b[1]}}, .r = 0.0};
    for (int i = 0; i < s->n_parts; i++)
        if (pb_part2d_distance(&s->part[i], &seg) <= s->part[i].r)
            return true;
    return false;
}
