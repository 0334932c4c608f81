/* The manipulator's pictures (--save-image and the visualiser, issue 22): three orthographic
 * views side by side, front (looking along +y: x right, z up), side (looking along -x: y
 * right, z up) and top (looking down: x right, y up), each a panel with a title, a grid and
 * its axes. render() draws the panels and the world's obstacles; draw_config() the robot's
 * link shapes at a configuration, each the outline of its projection (boxes and cylinders
 * from their corners and rims, spheres from their silhouette, meshes from their vertices)
 * filled translucent; draw_path() the robot at configurations along the path, faded, and the
 * trace of its tool link; picture_point() places a configuration at its tool link in the front
 * view, where the visualiser and --save-image draw the tree.
 *
 * The panels cover a box around everything the robot reaches (manip_view_bounds(), at load)
 * and every position on the picture is that box's metres times `scale` (picture pixels per
 * metre) plus margins that are metres too: the visualiser draws at other scales than render()
 * chose, and the layout scales with it. Calls kinematics.c (forward kinematics), bounds.c
 * (sphere-tree contacts, for the box) and ik.c (the tool link); manipulator.c puts these
 * entries in the engine's table and calls manip_view_bounds() at load. */
#include "engines/manipulator/manipulator_model.h"
#include "planbench/image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_VIEWS        3
#define RIM_POINTS     24  /* points of a cylinder's rim or a sphere's silhouette */
#define BOUNDS_SAMPLES 512 /* configurations the view's box is measured over */
#define PICTURE_W      1500.0
#define PICTURE_H      620.0
#define N_GHOSTS       6    /* configurations drawn between the start and the goal */
#define MESH_POINTS    1024 /* vertices of a mesh its outline is drawn from, at most */

typedef struct view_def {
    int right, up;    /* world axes shown to the right and up */
    int depth;        /* the world axis towards the viewer... */
    double toward;    /* ... in this direction (+1 or -1) */
    const char *name; /* the panel's title */
} view_def;

static const view_def views[N_VIEWS] = {
    {0, 2, 1, -1.0, "front (x right, z up)"},
    {1, 2, 0, +1.0, "side (y right, z up)"},
    {0, 1, 2, +1.0, "top (x right, y up)"},
};

static const char axis_names[3] = {'x', 'y', 'z'};

/* The panels' places, in metres: panel k's left edge at x0[k], every panel's top at y0. */
typedef struct layout {
    double lo[3], hi[3];
    double margin;
    double x0[N_VIEWS], y0;
    double width, height; /* the whole picture */
} layout;

static layout make_layout(const manipulator *m)
{
    layout l;
    memcpy(l.lo, m->view_lo, sizeof l.lo);
    memcpy(l.hi, m->view_hi, sizeof l.hi);
    double extent = 0.0, tallest = 0.0;
    for (int i = 0; i < 3; i++)
        extent = fmax(extent, l.hi[i] - l.lo[i]);
    l.margin = 0.16 * extent;
    double x = l.margin;
    for (int k = 0; k < N_VIEWS; k++) {
        l.x0[k] = x;
        x += l.hi[views[k].right] - l.lo[views[k].right] + l.margin;
        tallest = fmax(tallest, l.hi[views[k].up] - l.lo[views[k].up]);
    }
    l.y0 = l.margin;
    l.width = x;
    l.height = tallest + 2.0 * l.margin;
    return l;
}

/* Picture point of world point p in panel k. */
static void project(const layout *l, double scale, int k, const double *p, double *xy)
{
    const view_def *v = &views[k];
    xy[0] = scale * (l->x0[k] + p[v->right] - l->lo[v->right]);
    xy[1] = scale * (l->y0 + l->hi[v->up] - p[v->up]);
}

void manip_view_point(const manipulator *m, double scale, int view, const double *p, double *xy)
{
    const layout l = make_layout(m);
    project(&l, scale, view, p, xy);
}

/* ---- the box the views cover ---- */

/* Extend lo, hi by the bounding spheres of the robot's shapes at q. */
static void extend_by_robot(const manipulator *m, const double *q, double *lo, double *hi)
{
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    for (size_t s = 0; s < m->n_shapes; s++) {
        double c[3];
        transform_point(&poses[s], m->shapes[s].center, c);
        for (int i = 0; i < 3; i++) {
            lo[i] = fmin(lo[i], c[i] - m->shapes[s].radius);
            hi[i] = fmax(hi[i], c[i] + m->shapes[s].radius);
        }
    }
}

/* Does no moving shape touch an obstacle at q, as far as the sphere trees tell? (A contact they
 * cannot settle counts as none: it only widens the box.) Neither FCL nor the self pairs: no
 * state of the edge checks (their cached axes) is touched, so planning after the load is as
 * it was. */
static bool clear_of_obstacles(const manipulator *m, const double *q)
{
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    for (size_t s = 0; s < m->n_shapes; s++)
        for (size_t o = 0; o < m->n_obstacles && m->shape_moves[s]; o++)
            if (manip_shape_obstacle_touch(m, s, &poses[s], o) == TOUCH_YES)
                return false;
    return true;
}

void manip_view_bounds(manipulator *m)
{
    /* The robot's shapes (their bounding spheres) over configurations clear of the obstacles,
     * spread through the joint limits from a fixed seed: the same box, so the same picture,
     * every load, and none of the room a robot would have only by passing through the floor.
     * When too few are clear (a cluttered world), all of them. The checks are not the user's:
     * the query counters are left as they were. */
    const manip_counts counts = manip_query_counts;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double all_lo[3] = {INFINITY, INFINITY, INFINITY}, all_hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    pb_rng rng;
    pb_rng_seed(&rng, 22);
    int n_free = 0;
    for (int n = 0; n < BOUNDS_SAMPLES; n++) {
        double q[PB_MAX_DIM];
        for (int i = 0; i < m->dim; i++)
            q[i] = n == 0 ? fmin(m->upper[i], fmax(m->lower[i], 0.0))
                          : pb_rng_range(&rng, m->lower[i], m->upper[i]);
        extend_by_robot(m, q, all_lo, all_hi);
        if (clear_of_obstacles(m, q)) {
            extend_by_robot(m, q, lo, hi);
            n_free++;
        }
    }
    manip_query_counts = counts;
    for (int i = 0; i < 3; i++) {
        if (n_free < BOUNDS_SAMPLES / 16) {
            lo[i] = all_lo[i];
            hi[i] = all_hi[i];
        }
        if (!(lo[i] <= hi[i])) /* a robot without shapes: around its base */
            lo[i] = hi[i] = m->base.t[i];
        const double pad = 0.05 * (hi[i] - lo[i]) + 0.05;
        m->view_lo[i] = lo[i] - pad;
        m->view_hi[i] = hi[i] + pad;
    }
}

/* ---- shapes as points whose projections' hull is the shape's outline ---- */

#define MAX_POINTS (2 * RIM_POINTS)

/* The world points of a box (half extents `half`) or a cylinder (radius, half length) at
 * `pose`; false when the shape is neither. */
static size_t solid_points(pb_shape_type type, const double *half, const pb_pose *pose, double (*out)[3])
{
    size_t n = 0;
    if (type == PB_SHAPE_BOX) {
        for (int c = 0; c < 8; c++) {
            const double p[3] = {c & 1 ? half[0] : -half[0], c & 2 ? half[1] : -half[1],
                                 c & 4 ? half[2] : -half[2]};
            transform_point(pose, p, out[n++]);
        }
    } else if (type == PB_SHAPE_CYLINDER) {
        for (int end = -1; end <= 1; end += 2)
            for (int k = 0; k < RIM_POINTS; k++) {
                const double a = 2.0 * M_PI * k / RIM_POINTS;
                const double p[3] = {half[0] * cos(a), half[0] * sin(a), end * half[1]};
                transform_point(pose, p, out[n++]);
            }
    }
    return n;
}

/* A sphere's silhouette in panel k: a circle in the panel's plane. */
static size_t sphere_points(int k, const double *center, double radius, double (*out)[3])
{
    for (int i = 0; i < RIM_POINTS; i++) {
        const double a = 2.0 * M_PI * i / RIM_POINTS;
        memcpy(out[i], center, 3 * sizeof(double));
        out[i][views[k].right] += radius * cos(a);
        out[i][views[k].up] += radius * sin(a);
    }
    return RIM_POINTS;
}

/* The corners of a geometry's box in its own frame, placed at `pose`. */
static size_t box_of_geometry(const pbf_geometry *geometry, const pb_pose *pose, double (*out)[3])
{
    double lo[3], hi[3];
    pbf_geometry_local_aabb(geometry, lo, hi);
    const double half[3] = {0.5 * (hi[0] - lo[0]), 0.5 * (hi[1] - lo[1]), 0.5 * (hi[2] - lo[2])};
    const double mid[3] = {0.5 * (hi[0] + lo[0]), 0.5 * (hi[1] + lo[1]), 0.5 * (hi[2] + lo[2])};
    pb_pose centred = *pose;
    transform_point(pose, mid, centred.t);
    return solid_points(PB_SHAPE_BOX, half, &centred, out);
}

/* Fill the outline of `n` world points in panel k. */
static void fill_points(pb_image *image, const layout *l, double scale, int k, const double (*points)[3],
                        size_t n, pb_color fill, double opacity, pb_color outline)
{
    double xy[2 * MAX_POINTS];
    for (size_t i = 0; i < n; i++)
        project(l, scale, k, points[i], xy + 2 * i);
    pb_image_fill_hull(image, xy, n, fill, opacity, outline);
}

/* The robot shape's source in the URDF (shapes are made link after link, in order). */
static const pb_shape *robot_shape_source(const manipulator *m, size_t s)
{
    const pb_urdf_link *link = &m->robot.links[m->shapes[s].link];
    size_t first = 0;
    while (first < s && m->shapes[s - first - 1].link == m->shapes[s].link)
        first++;
    return &link->shapes[first];
}

/* Draw robot shape s at `pose` in panel k. */
static void draw_robot_shape(pb_image *image, const layout *l, double scale, int k, const manipulator *m,
                             size_t s, const pb_pose *pose, pb_color fill, double opacity, pb_color outline)
{
    const robot_shape *rs = &m->shapes[s];
    const pb_shape *source = robot_shape_source(m, s);
    double points[MAX_POINTS][3];
    size_t n = 0;
    if (source->type == PB_SHAPE_SPHERE) {
        n = sphere_points(k, pose->t, source->size[0], points);
    } else if (source->type == PB_SHAPE_MESH && rs->vertices && rs->n_vertices > 0) {
        /* the outline of its vertices, at most MESH_POINTS of them spread evenly */
        double xy[2 * MESH_POINTS];
        const size_t stride = (rs->n_vertices + MESH_POINTS - 1) / MESH_POINTS;
        size_t count = 0;
        for (size_t i = 0; i < rs->n_vertices && count < MESH_POINTS; i += stride) {
            double p[3];
            transform_point(pose, rs->vertices + 3 * i, p);
            project(l, scale, k, p, xy + 2 * count++);
        }
        pb_image_fill_hull(image, xy, count, fill, opacity, outline);
        return;
    } else if (source->type == PB_SHAPE_BOX || source->type == PB_SHAPE_CYLINDER) {
        const double half[3] = {source->type == PB_SHAPE_BOX ? 0.5 * source->size[0] : source->size[0],
                                0.5 * source->size[1], 0.5 * source->size[2]};
        const double cylinder[3] = {source->size[0], 0.5 * source->size[1], 0.0};
        n = solid_points(source->type, source->type == PB_SHAPE_BOX ? half : cylinder, pose, points);
    } else {
        n = box_of_geometry(rs->geometry, pose, points);
    }
    fill_points(image, l, scale, k, (const double(*)[3])points, n, fill, opacity, outline);
}

/* Shape indices sorted far to near in panel k (painter's order). */
typedef struct depth_item {
    double depth;
    size_t index;
} depth_item;

static int by_depth(const void *a, const void *b)
{
    const depth_item *x = a, *y = b;
    return x->depth < y->depth ? -1 : x->depth > y->depth ? 1 : (x->index > y->index) - (x->index < y->index);
}

static pb_color mix(pb_color a, pb_color b, double t)
{
    return (pb_color){(uint8_t)lround(a.r + t * (b.r - a.r)), (uint8_t)lround(a.g + t * (b.g - a.g)),
                      (uint8_t)lround(a.b + t * (b.b - a.b))};
}

/* The robot at q in every panel. */
static void draw_robot(const manipulator *m, pb_image *image, double scale, const double *q, pb_color color,
                       double opacity, pb_color outline)
{
    const layout l = make_layout(m);
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    depth_item order[MAX_SHAPES];
    for (int k = 0; k < N_VIEWS; k++) {
        for (size_t s = 0; s < m->n_shapes; s++)
            order[s] = (depth_item){views[k].toward * poses[s].t[views[k].depth], s};
        qsort(order, m->n_shapes, sizeof order[0], by_depth);
        for (size_t i = 0; i < m->n_shapes; i++)
            draw_robot_shape(image, &l, scale, k, m, order[i].index, &poses[order[i].index], color, opacity,
                             outline);
    }
}

void manip_draw_config(const void *self, pb_image *image, double scale, const double *q, pb_color color)
{
    draw_robot(self, image, scale, q, color, 0.3, color);
}

/* ---- the panels and the obstacles ---- */

/* A grid step of 1, 2 or 5 times a power of ten, about an eighth of `extent`. */
static double grid_step(double extent)
{
    const double rough = extent / 8.0, ten = pow(10.0, floor(log10(rough)));
    return rough >= 5.0 * ten ? 5.0 * ten : rough >= 2.0 * ten ? 2.0 * ten : ten;
}

/* One panel (at picture origin `left`, `top`, in its own image so that obstacles reaching
 * beyond it are clipped at its edges), copied into the picture. */
static pb_status draw_panel(const manipulator *m, const layout *l, double scale, int k, pb_image *picture)
{
    const view_def *v = &views[k];
    const double w = l->hi[v->right] - l->lo[v->right], h = l->hi[v->up] - l->lo[v->up];
    pb_image panel;
    const pb_status st = pb_image_init(&panel, (int)ceil(w * scale), (int)ceil(h * scale));
    if (st != PB_OK)
        return st;
    panel.left = (int)lround(l->x0[k] * scale);
    panel.top = (int)lround(l->y0 * scale);
    const double step = grid_step(fmax(l->hi[0] - l->lo[0], fmax(l->hi[1] - l->lo[1], l->hi[2] - l->lo[2])));
    const pb_color grid = {228, 228, 232}, axis = {190, 190, 200};
    for (int dir = 0; dir < 2; dir++) {
        const int a = dir == 0 ? v->right : v->up;
        for (double g = ceil(l->lo[a] / step) * step; g <= l->hi[a]; g += step) {
            double p[3] = {0, 0, 0}, q[3] = {0, 0, 0}, xy0[2], xy1[2];
            const int other = dir == 0 ? v->up : v->right;
            p[a] = q[a] = g;
            p[other] = l->lo[other];
            q[other] = l->hi[other];
            project(l, scale, k, p, xy0);
            project(l, scale, k, q, xy1);
            pb_image_draw_line(&panel, xy0[0], xy0[1], xy1[0], xy1[1], fabs(g) < 0.5 * step ? axis : grid);
        }
    }
    /* obstacles far to near */
    depth_item order[256];
    for (size_t start = 0; start < m->n_obstacles; start += 256) {
        const size_t n = m->n_obstacles - start < 256 ? m->n_obstacles - start : 256;
        for (size_t i = 0; i < n; i++)
            order[i] = (depth_item){v->toward * m->obstacle_poses[start + i].t[v->depth], start + i};
        qsort(order, n, sizeof order[0], by_depth);
        for (size_t i = 0; i < n; i++) {
            const size_t o = order[i].index;
            const obstacle_bound *b = &m->obstacle_bounds[o];
            double points[MAX_POINTS][3];
            size_t count;
            if (b->type == PB_SHAPE_SPHERE)
                count = sphere_points(k, b->t, b->half[0], points);
            else if (b->type == PB_SHAPE_BOX || b->type == PB_SHAPE_CYLINDER)
                count = solid_points(b->type, b->half, &m->obstacle_poses[o], points);
            else
                count = box_of_geometry(m->obstacles[o], &m->obstacle_poses[o], points);
            /* translucent: a floor under everything leaves what stands on it readable */
            fill_points(&panel, l, scale, k, (const double(*)[3])points, count, (pb_color){110, 110, 118},
                        0.35, (pb_color){80, 80, 88});
        }
    }
    for (int y = 0; y < panel.height; y++) {
        const int py = y + panel.top;
        if (py < 0 || py >= picture->height)
            continue;
        for (int x = 0; x < panel.width; x++) {
            const int px = x + panel.left;
            if (px >= 0 && px < picture->width)
                memcpy(picture->rgb + ((size_t)py * (size_t)picture->width + (size_t)px) * 3,
                       panel.rgb + ((size_t)y * (size_t)panel.width + (size_t)x) * 3, 3);
        }
    }
    pb_image_finish(&panel);
    return PB_OK;
}

/* The panel's frame, title, axes and grid spacing, around it in the margins. */
static void draw_labels(const layout *l, double scale, int k, pb_image *picture)
{
    const view_def *v = &views[k];
    const double x0 = l->x0[k] * scale, y0 = l->y0 * scale;
    const double x1 = x0 + (l->hi[v->right] - l->lo[v->right]) * scale;
    const double y1 = y0 + (l->hi[v->up] - l->lo[v->up]) * scale;
    const pb_color frame = {120, 120, 130}, text = {30, 30, 40};
    pb_image_draw_line(picture, x0 - 1, y0 - 1, x1, y0 - 1, frame);
    pb_image_draw_line(picture, x1, y0 - 1, x1, y1, frame);
    pb_image_draw_line(picture, x1, y1, x0 - 1, y1, frame);
    pb_image_draw_line(picture, x0 - 1, y1, x0 - 1, y0 - 1, frame);
    const double margin = l->margin * scale;
    const int size = margin >= 60.0 ? 2 : 1;
    pb_image_draw_text(picture, x0, y0 - 0.5 * margin - 3.5 * size, v->name, size, text);
    /* axes: arrows from below the panel's lower-left corner, named */
    const double arrow = fmin(0.5 * margin, 0.25 * (x1 - x0)), ax = x0, ay = y1 + 0.6 * margin;
    pb_image_draw_line(picture, ax, ay, ax + arrow, ay, text);
    pb_image_draw_line(picture, ax + arrow, ay, ax + arrow - 4, ay - 3, text);
    pb_image_draw_line(picture, ax + arrow, ay, ax + arrow - 4, ay + 3, text);
    pb_image_draw_line(picture, ax, ay, ax, ay - arrow, text);
    pb_image_draw_line(picture, ax, ay - arrow, ax - 3, ay - arrow + 4, text);
    pb_image_draw_line(picture, ax, ay - arrow, ax + 3, ay - arrow + 4, text);
    const char right[2] = {axis_names[v->right], 0}, up[2] = {axis_names[v->up], 0};
    pb_image_draw_text(picture, ax + arrow + 4, ay - 3.5 * size, right, size, text);
    pb_image_draw_text(picture, ax + 5, ay - arrow - 3.5 * size, up, size, text);
    char note[64];
    snprintf(note, sizeof note, "grid %g m",
             grid_step(fmax(l->hi[0] - l->lo[0], fmax(l->hi[1] - l->lo[1], l->hi[2] - l->lo[2]))));
    pb_image_draw_text(picture, x1 - 6.0 * size * (double)strlen(note), y1 + 0.6 * margin - 3.5 * size, note,
                       size, text);
}

pb_status manip_render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    const manipulator *m = self;
    const layout l = make_layout(m);
    const double s = fmin(PICTURE_W / l.width, PICTURE_H / l.height);
    pb_status st = pb_image_init(image, (int)ceil(l.width * s), (int)ceil(l.height * s));
    if (st != PB_OK) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return st;
    }
    memset(image->rgb, 246, (size_t)image->width * (size_t)image->height * 3);
    for (int k = 0; k < N_VIEWS && st == PB_OK; k++)
        st = draw_panel(m, &l, s, k, image);
    if (st != PB_OK) {
        pb_image_finish(image);
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return st;
    }
    for (int k = 0; k < N_VIEWS; k++)
        draw_labels(&l, s, k, image);
    *scale = s;
    return PB_OK;
}

/* ---- the path ---- */

/* The tool link's origin at q (world). */
static void tool_point(const manipulator *m, const double *q, double *p)
{
    pb_pose links[MANIP_MAX_LINKS];
    manip_forward_kinematics(m, q, links);
    memcpy(p, links[manip_tool_link(m)].t, 3 * sizeof(double));
}

void manip_picture_point(const void *self, double scale, const double *q, double *xy)
{
    const manipulator *m = self;
    const layout l = make_layout(m);
    double p[3];
    tool_point(m, q, p);
    project(&l, scale, 0, p, xy);
}

/* The configuration `t` of the way from a to b: linear, continuous joints the short way (the
 * engine's interpolation, the core's default). */
static void interpolate(const manipulator *m, const double *a, const double *b, double t, double *q)
{
    for (int i = 0; i < m->dim; i++) {
        double d = b[i] - a[i];
        if (m->wraps[i])
            d = remainder(d, 2.0 * M_PI);
        q[i] = a[i] + t * d;
        if (m->wraps[i])
            q[i] = remainder(q[i], 2.0 * M_PI);
    }
}

static double joint_distance(const manipulator *m, const double *a, const double *b)
{
    double sum = 0.0;
    for (int i = 0; i < m->dim; i++) {
        double d = b[i] - a[i];
        if (m->wraps[i])
            d = remainder(d, 2.0 * M_PI);
        sum += d * d;
    }
    return sqrt(sum);
}

void manip_draw_path(const void *self, pb_image *image, double scale, const pb_path *path, pb_color color,
                     int width)
{
    const manipulator *m = self;
    if (path->n == 0)
        return;
    double total = 0.0;
    for (size_t i = 1; i < path->n; i++)
        total += joint_distance(m, pb_path_at(path, i - 1), pb_path_at(path, i));
    /* the robot, faded, at N_GHOSTS configurations evenly spaced along the path */
    const pb_color ghost_outline = mix(color, (pb_color){255, 255, 255}, 0.55);
    for (int g = 1; g <= N_GHOSTS && total > 0.0; g++) {
        const double target = total * g / (N_GHOSTS + 1);
        double s = 0.0;
        for (size_t i = 1; i < path->n; i++) {
            const double *a = pb_path_at(path, i - 1), *b = pb_path_at(path, i);
            const double d = joint_distance(m, a, b);
            if (s + d >= target && d > 0.0) {
                double q[PB_MAX_DIM];
                interpolate(m, a, b, (target - s) / d, q);
                draw_robot(m, image, scale, q, color, 0.08, ghost_outline);
                break;
            }
            s += d;
        }
    }
    /* the tool's trace, edge by edge in steps of at most 0.01 rad */
    const layout l = make_layout(m);
    double prev[3], p[3];
    tool_point(m, pb_path_at(path, 0), prev);
    for (size_t i = 1; i < path->n; i++) {
        const double *a = pb_path_at(path, i - 1), *b = pb_path_at(path, i);
        const int steps = (int)fmin(4000.0, fmax(1.0, ceil(joint_distance(m, a, b) / 0.01)));
        for (int j = 1; j <= steps; j++) {
            double q[PB_MAX_DIM];
            interpolate(m, a, b, (double)j / steps, q);
            tool_point(m, q, p);
            for (int k = 0; k < N_VIEWS; k++) {
                double xy0[2], xy1[2];
                project(&l, scale, k, prev, xy0);
                project(&l, scale, k, p, xy1);
                pb_image_draw_wide_line(image, xy0[0], xy0[1], xy1[0], xy1[1], width, color);
            }
            memcpy(prev, p, sizeof p);
        }
    }
}
