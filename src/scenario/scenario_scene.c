/* The scene of a scenario: the landscape as a metric map (every cell free; off the map is
 * blocked), the actors as exact obstacles on it (discs and boxes, never rasterised), or a
 * map_server map given by "map". Also the clearance metric and the aerial capture. */
#include "scenario_internal.h"

#include "planbench/image.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void scene_actor_pose(const scene_actor *a, double *pose)
{
    pose[0] = a->x;
    pose[1] = a->y;
    pose[2] = a->yaw;
}

/* The landscape as a map_server map (PGM + YAML) in a private temporary folder, loaded, and
 * the folder removed: the image engine reads maps from files. */
static pb_status landscape_engine(const pb_scenario *s, const char *engine_name, const pb_option *options,
                                  size_t n_options, pb_engine **out, pb_diag *diag)
{
    const double extent = s->nominal_size + 2 * s->border;
    const int cells = (int)ceil(extent / s->resolution - 1e-9);
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], pgm[PATH_MAX + 16], yaml[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/planbench-scene-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        pb_diag_set(diag, dir, 0, 0, "cannot make a temporary folder for the scene's map: %s",
                    strerror(errno));
        return PB_ERR_IO;
    }
    snprintf(pgm, sizeof pgm, "%s/scene.pgm", dir);
    snprintf(yaml, sizeof yaml, "%s/scene.yaml", dir);
    pb_status st = PB_ERR_IO;
    FILE *f = fopen(pgm, "wb");
    if (f) {
        fprintf(f, "P5\n%d %d\n255\n", cells, cells);
        unsigned char *row = malloc((size_t)cells);
        if (row) {
            memset(row, 254, (size_t)cells);
            for (int r = 0; r < cells; r++)
                fwrite(row, 1, (size_t)cells, f);
            free(row);
        }
        st = row && fclose(f) == 0 ? PB_OK : PB_ERR_IO;
        if (!row)
            fclose(f);
    }
    if (st == PB_OK && (f = fopen(yaml, "w"))) {
        fprintf(f,
                "image: scene.pgm\nresolution: %.17g\norigin: [%.17g, %.17g, 0.0]\n"
                "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\nmode: trinary\n",
                s->resolution, -s->border, -s->border);
        st = fclose(f) == 0 ? PB_OK : PB_ERR_IO;
    } else {
        st = PB_ERR_IO;
    }
    if (st == PB_OK)
        st = pb_engine_load(out, engine_name, yaml, options, n_options, diag);
    else
        pb_diag_set(diag, dir, 0, 0, "cannot write the scene's map: %s", strerror(errno));
    remove(pgm);
    remove(yaml);
    rmdir(dir);
    return st;
}

pb_status pb_scenario_build_engine(const pb_scenario *s, pb_engine **out, pb_diag *diag)
{
    return scene_build_engine(s, "image2d", NULL, 0, out, diag);
}

pb_status scene_build_engine(const pb_scenario *s, const char *engine_name, const pb_option *options,
                             size_t n_options, pb_engine **out, pb_diag *diag)
{
    *out = NULL;
    pb_engine *engine = NULL;
    pb_status st = s->map_path[0]
                       ? pb_engine_load(&engine, engine_name, s->map_path, options, n_options, diag)
                       : landscape_engine(s, engine_name, options, n_options, &engine, diag);
    if (st != PB_OK)
        return st;
    pb_map_frame frame;
    if (!pb_engine_map_frame(engine, &frame) || !frame.metric) {
        pb_diag_set(diag, s->map_path, 0, 0, "a scenario's map must be in metres (a map_server map)");
        pb_engine_destroy(engine);
        return PB_ERR_INVALID;
    }
    for (size_t i = 0; i < s->n_actors; i++) {
        const scene_actor *a = &s->actors[i];
        if (a->kind->traversable)
            continue;
        double pose[3];
        scene_actor_pose(a, pose);
        uint32_t id;
        if ((st = pb_engine_obstacle_add(&id, engine, &a->footprint, pose)) != PB_OK) {
            pb_diag_set(diag, s->name, 0, 0, "actor %zu (%s): cannot place it (%s)", i, a->kind->path_name,
                        pb_status_str(st));
            pb_engine_destroy(engine);
            return st;
        }
    }
    *out = engine;
    return PB_OK;
}

/* ---- clearance ---- */

static double segment_distance(const double *p, const double *a, const double *b)
{
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/* The corners of a rectangle footprint at `pose`, counter-clockwise. */
static void rect_corners(const pb_footprint *f, const double *pose, double corners[4][2])
{
    const double c = cos(pose[2]), s = sin(pose[2]);
    const double cx = pose[0] + f->offset * c, cy = pose[1] + f->offset * s;
    static const double signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; k++) {
        const double lx = signs[k][0] * f->half_length, ly = signs[k][1] * f->half_width;
        corners[k][0] = cx + c * lx - s * ly;
        corners[k][1] = cy + s * lx + c * ly;
    }
}

static bool inside_convex(double corners[4][2], const double *p)
{
    for (int k = 0; k < 4; k++) {
        const double *a = corners[k], *b = corners[(k + 1) % 4];
        if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0)
            return false;
    }
    return true;
}

/* Distance between a rectangle and a point (0 inside). */
static double rect_point_distance(double corners[4][2], const double *p)
{
    if (inside_convex(corners, p))
        return 0;
    double d = INFINITY;
    for (int k = 0; k < 4; k++)
        d = fmin(d, segment_distance(p, corners[k], corners[(k + 1) % 4]));
    return d;
}

/* Distance between two rectangles: 0 when they overlap, else the least vertex-to-side
 * distance (two disjoint convex polygons are nearest at a vertex of one). */
static double rect_rect_distance(double a[4][2], double b[4][2])
{
    double d = INFINITY;
    for (int k = 0; k < 4; k++) {
        if (inside_convex(a, b[k]) || inside_convex(b, a[k]))
            return 0;
        d = fmin(d, rect_point_distance(a, b[k]));
        d = fmin(d, rect_point_distance(b, a[k]));
    }
    /* crossing sides with no vertex inside (a cross shape) */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            const double *p1 = a[i], *p2 = a[(i + 1) % 4], *q1 = b[j], *q2 = b[(j + 1) % 4];
            const double d1 = (q2[0] - q1[0]) * (p1[1] - q1[1]) - (q2[1] - q1[1]) * (p1[0] - q1[0]);
            const double d2 = (q2[0] - q1[0]) * (p2[1] - q1[1]) - (q2[1] - q1[1]) * (p2[0] - q1[0]);
            const double d3 = (p2[0] - p1[0]) * (q1[1] - p1[1]) - (p2[1] - p1[1]) * (q1[0] - p1[0]);
            const double d4 = (p2[0] - p1[0]) * (q2[1] - p1[1]) - (p2[1] - p1[1]) * (q2[0] - p1[0]);
            if (((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)))
                return 0;
        }
    return d;
}

double scene_clearance(const pb_scenario *s, const pb_engine *engine, const double *pose)
{
    const pb_footprint car = pb_vehicle_footprint(&s->vehicle);
    double corners[4][2];
    rect_corners(&car, pose, corners);
    /* the scene's edge: the map's rectangle */
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    double d = INFINITY;
    for (int k = 0; k < 4; k++)
        d = fmin(d, fmin(fmin(corners[k][0] - lo[0], hi[0] - corners[k][0]),
                         fmin(corners[k][1] - lo[1], hi[1] - corners[k][1])));
    for (size_t i = 0; i < s->n_actors && d > 0; i++) {
        const scene_actor *a = &s->actors[i];
        if (a->kind->traversable)
            continue;
        double pose_a[3];
        scene_actor_pose(a, pose_a);
        if (a->footprint.type == PB_FOOTPRINT_DISC) {
            d = fmin(d, rect_point_distance(corners, pose_a) - a->footprint.radius);
        } else {
            double other[4][2];
            rect_corners(&a->footprint, pose_a, other);
            d = fmin(d, rect_rect_distance(corners, other));
        }
    }
    return d > 0 ? d : 0;
}

/* ---- the scene as a map file ---- */

/* Does an obstacle actor touch the cell [x0, x1] x [y0, y1]? */
static bool actor_touches_cell(const scene_actor *a, double x0, double y0, double x1, double y1)
{
    double cell[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    double pose[3];
    scene_actor_pose(a, pose);
    if (a->footprint.type == PB_FOOTPRINT_DISC)
        return rect_point_distance(cell, pose) <= a->footprint.radius;
    double corners[4][2];
    rect_corners(&a->footprint, pose, corners);
    return rect_rect_distance(cell, corners) <= 0.0;
}

pb_status pb_scenario_save_map(const pb_scenario *s, const char *stem, pb_diag *diag)
{
    if (s->map_path[0] || !s->has_landscape) {
        pb_diag_set(diag, s->name, 0, 0, "the scene is a map file already (%s)", s->map_path);
        return PB_ERR_UNSUPPORTED;
    }
    const double r = s->resolution, lo = -s->border;
    const int cells = (int)ceil((s->nominal_size + 2 * s->border) / r - 1e-9);
    unsigned char *grid = malloc((size_t)cells * (size_t)cells);
    if (!grid) {
        pb_diag_set(diag, stem, 0, 0, "out of memory for a %d x %d map", cells, cells);
        return PB_ERR_NOMEM;
    }
    memset(grid, 254, (size_t)cells * (size_t)cells);
    for (size_t i = 0; i < s->n_actors; i++) {
        const scene_actor *a = &s->actors[i];
        if (a->kind->traversable)
            continue;
        double pose[3], box_lo[2], box_hi[2];
        scene_actor_pose(a, pose);
        pb_footprint_aabb(&a->footprint, pose, box_lo, box_hi);
        const int c0 = (int)fmax(0, floor((box_lo[0] - lo) / r)),
                  c1 = (int)fmin(cells - 1, floor((box_hi[0] - lo) / r));
        const int r0 = (int)fmax(0, floor((box_lo[1] - lo) / r)),
                  r1 = (int)fmin(cells - 1, floor((box_hi[1] - lo) / r));
        for (int row = r0; row <= r1; row++)
            for (int col = c0; col <= c1; col++)
                if (actor_touches_cell(a, lo + col * r, lo + row * r, lo + (col + 1) * r, lo + (row + 1) * r))
                    grid[(size_t)(cells - 1 - row) * (size_t)cells + (size_t)col] =
                        0; /* image rows from the top */
    }
    char path[PATH_MAX + 8], image_name[PATH_MAX];
    const char *base = strrchr(stem, '/');
    snprintf(image_name, sizeof image_name, "%s.pgm", base ? base + 1 : stem);
    pb_atomic_file pgm, yaml;
    snprintf(path, sizeof path, "%s.pgm", stem);
    pb_status st = pb_atomic_file_open(&pgm, path, diag);
    if (st == PB_OK) {
        fprintf(pgm.fp, "P5\n%d %d\n255\n", cells, cells);
        fwrite(grid, 1, (size_t)cells * (size_t)cells, pgm.fp);
        st = pb_atomic_file_commit(&pgm, diag);
    }
    free(grid);
    snprintf(path, sizeof path, "%s.yaml", stem);
    if (st == PB_OK && (st = pb_atomic_file_open(&yaml, path, diag)) == PB_OK) {
        fprintf(yaml.fp,
                "# a scenario's scene, written by planbench (docs/scenarios.md)\n"
                "image: %s\nresolution: %.17g\norigin: [%.17g, %.17g, 0.0]\n"
                "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\nmode: trinary\n",
                image_name, r, lo, lo);
        st = pb_atomic_file_commit(&yaml, diag);
    }
    return st;
}

/* ---- the aerial capture ---- */

static void draw_footprint(pb_image *image, const pb_engine *engine, double scale, const pb_footprint *f,
                           const double *pose, pb_color color)
{
    if (f->type == PB_FOOTPRINT_DISC) {
        double xy[2];
        pb_image_engine_to_picture(engine, scale, pose, xy);
        pb_image_draw_disc(image, xy[0], xy[1], f->radius * pb_image_engine_units(engine, scale), color);
        return;
    }
    double corners[4][2], pic[4][2];
    rect_corners(f, pose, corners);
    for (int k = 0; k < 4; k++)
        pb_image_engine_to_picture(engine, scale, corners[k], pic[k]);
    for (int k = 0; k < 4; k++)
        pb_image_draw_line(image, pic[k][0], pic[k][1], pic[(k + 1) % 4][0], pic[(k + 1) % 4][1], color);
}

pb_status pb_scenario_capture(const pb_scenario *s, const pb_scenario_result *result, const char *path,
                              int size, pb_diag *diag)
{
    pb_engine *engine = NULL;
    pb_status st = pb_scenario_build_engine(s, &engine, diag);
    if (st != PB_OK)
        return st;
    pb_image image = {0};
    double scale = 1;
    st = pb_image_render_engine(&image, engine, &scale, diag);
    if (st != PB_OK) {
        pb_engine_destroy(engine);
        return st;
    }
    (void)size; /* the map's own cells; docs/scenarios.md */
    const pb_color tree = {34, 110, 34}, bush = {150, 210, 120}, start = {30, 90, 220}, goal = {220, 40, 40},
                   path_color = {20, 20, 160};
    for (size_t i = 0; i < s->n_actors; i++) {
        double pose[3];
        scene_actor_pose(&s->actors[i], pose);
        draw_footprint(&image, engine, scale, &s->actors[i].footprint, pose,
                       s->actors[i].kind->traversable ? bush : tree);
    }
    const double units = pb_image_engine_units(engine, scale);
    double xy[2];
    pb_image_engine_to_picture(engine, scale, s->goal, xy);
    pb_image_draw_circle(&image, xy[0], xy[1], s->goal_radius * units, goal);
    pb_image_draw_disc(&image, xy[0], xy[1], 3, goal);
    const pb_footprint car = pb_vehicle_footprint(&s->vehicle);
    draw_footprint(&image, engine, scale, &car, s->start, start);
    if (result && result->n_trajectory > 0) {
        double last_drawn = -INFINITY;
        for (size_t i = 0; i < result->n_trajectory; i++) {
            const pb_scenario_odometry *o = &result->trajectory[i];
            const double pose[3] = {o->x, o->y, o->yaw};
            if (i > 0) {
                const pb_scenario_odometry *q = &result->trajectory[i - 1];
                double a[2], b[2];
                pb_image_engine_to_picture(engine, scale, (const double[]){q->x, q->y}, a);
                pb_image_engine_to_picture(engine, scale, pose, b);
                pb_image_draw_line(&image, a[0], a[1], b[0], b[1], path_color);
            }
            if (o->t - last_drawn >= 1.0 || i + 1 == result->n_trajectory) {
                draw_footprint(&image, engine, scale, &car, pose, path_color);
                last_drawn = o->t;
            }
        }
    }
    st = pb_image_save_png(&image, path, diag);
    pb_image_finish(&image);
    pb_engine_destroy(engine);
    return st;
}
