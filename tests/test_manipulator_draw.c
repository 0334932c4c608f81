/* The manipulator's pictures (issue 22): three orthographic views side by side, the world's
 * boxes where and as large as they are, the robot's link shapes where forward kinematics puts
 * them (and nothing of the robot elsewhere), the tool's trace along a path, and the tree's
 * point of a configuration at its tool link. The views' axes are checked against what they
 * are said to be (front: x right, z up; side: y right, z up; top: x right, y up) through
 * pb_manipulator_view_point(); positions come from pb_manipulator_fk() and the world file
 * written here. */
#include "harness.h"
#include "engines/manipulator/manipulator.h"
#include "planbench/image.h"
#include "planbench/planbench.h"
#include "robot/urdf.h"

#include <string.h>
#include <unistd.h>

#define N_VIEWS 3

static const int right_axis[N_VIEWS] = {0, 1, 0}, up_axis[N_VIEWS] = {2, 2, 1};

static const uint8_t *pixel(const pb_image *im, long x, long y)
{
    if (x < 0 || y < 0 || x >= im->width || y >= im->height)
        return NULL;
    return im->rgb + ((size_t)y * (size_t)im->width + (size_t)x) * 3;
}

/* A grey darker than the background and the grid, lighter than the outlines: an obstacle's fill. */
static bool obstacle_fill(const uint8_t *p)
{
    return p && p[0] == p[1] && p[2] >= p[0] && p[0] >= 150 && p[0] <= 215;
}

static bool background(const uint8_t *p)
{
    return p && p[0] >= 225 && p[1] >= 225 && p[2] >= 225;
}

static bool colour_near(const pb_image *im, double x, double y, int radius, const uint8_t *c)
{
    for (long j = -radius; j <= radius; j++)
        for (long i = -radius; i <= radius; i++) {
            const uint8_t *p = pixel(im, (long)floor(x) + i, (long)floor(y) + j);
            if (p && p[0] == c[0] && p[1] == c[1] && p[2] == c[2])
                return true;
        }
    return false;
}

/* Pixels from (x, y) in direction (dx, dy) while the fill goes on: the box's half extent. */
static int fill_run(const pb_image *im, double x, double y, int dx, int dy)
{
    int n = 0;
    while (obstacle_fill(pixel(im, (long)floor(x) + (n + 1) * dx, (long)floor(y) + (n + 1) * dy)) &&
           n < 10000)
        n++;
    return n;
}

/* The radius of a sphere holding the shape, around its origin. */
static double shape_radius(const pb_shape *s)
{
    switch (s->type) {
    case PB_SHAPE_BOX:
        return 0.5 * sqrt(s->size[0] * s->size[0] + s->size[1] * s->size[1] + s->size[2] * s->size[2]);
    case PB_SHAPE_CYLINDER:
        return sqrt(s->size[0] * s->size[0] + 0.25 * s->size[1] * s->size[1]);
    case PB_SHAPE_SPHERE:
        return s->size[0];
    default:
        return INFINITY; /* meshes: not checked */
    }
}

int main(void)
{
    char dir[] = "/tmp/pb_manip_draw_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    const char *root = pb_test_source_root();
    /* a block away from the robot's base and off the views' axes and grid lines */
    const double block_c[3] = {0.57, 0.43, 0.23}, block_size[3] = {0.24, 0.3, 0.36};
    char world[512], text[2048];
    snprintf(world, sizeof world, "%s/block.xml", dir);
    snprintf(text, sizeof text,
             "<world name='block'>\n"
             "  <robot urdf='%s/robots/pbarm6.urdf' srdf='%s/robots/pbarm6.srdf' group='arm'/>\n"
             "  <box name='block' size='%g %g %g' xyz='%g %g %g'/>\n"
             "</world>\n",
             root, root, block_size[0], block_size[1], block_size[2], block_c[0], block_c[1], block_c[2]);
    FILE *f = fopen(world, "w");
    CHECK(f && fputs(text, f) >= 0);
    if (f)
        fclose(f);
    pb_diag diag = {0};
    pb_engine *engine = NULL;
    CHECK_MSG(pb_engine_load(&engine, "manipulator", world, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    if (!engine)
        return pb_test_summary("manipulator_draw");

    pb_image picture;
    double scale = 0.0;
    CHECK_MSG(pb_image_render_engine(&picture, engine, &scale, &diag) == PB_OK, "%s", diag.message);
    CHECK_MSG(scale > 50.0 && picture.width >= 2.5 * picture.height, "a %dx%d picture at %g px/m",
              picture.width, picture.height, scale);

    /* the views: orthographic, 1 m is `scale` pixels along each view's axes, right and up as
     * named, and the three side by side (the same point further right in each) */
    const double origin[3] = {0.1, 0.2, 0.3};
    double o[N_VIEWS][2];
    for (int k = 0; k < N_VIEWS; k++) {
        pb_manipulator_view_point(engine, scale, k, origin, o[k]);
        for (int axis = 0; axis < 3; axis++) {
            double p[3] = {origin[0], origin[1], origin[2]}, xy[2];
            p[axis] += 1.0;
            pb_manipulator_view_point(engine, scale, k, p, xy);
            const double want_x = axis == right_axis[k] ? scale : 0.0,
                         want_y = axis == up_axis[k] ? -scale : 0.0;
            CHECK_MSG(fabs(xy[0] - o[k][0] - want_x) < 1e-9 && fabs(xy[1] - o[k][1] - want_y) < 1e-9,
                      "view %d: 1 m along axis %d moves (%g, %g) pixels", k, axis, xy[0] - o[k][0],
                      xy[1] - o[k][1]);
        }
    }
    CHECK(o[0][0] < o[1][0] && o[1][0] < o[2][0]);

    /* the block in each view: filled at its centre and around it, as wide and as high as it
     * is (to 2 pixels), with background just beyond */
    for (int k = 0; k < N_VIEWS; k++) {
        const int r = right_axis[k], u = up_axis[k];
        double c[2];
        pb_manipulator_view_point(engine, scale, k, block_c, c);
        for (int i = -1; i <= 1; i++)
            for (int j = -1; j <= 1; j++) {
                double p[3] = {block_c[0], block_c[1], block_c[2]}, xy[2];
                p[r] += 0.3 * i * block_size[r];
                p[u] += 0.3 * j * block_size[u];
                pb_manipulator_view_point(engine, scale, k, p, xy);
                CHECK_MSG(obstacle_fill(pixel(&picture, (long)floor(xy[0]), (long)floor(xy[1]))),
                          "view %d: no obstacle at (%.0f, %.0f), inside the block", k, xy[0], xy[1]);
            }
        const double half_w = 0.5 * block_size[r] * scale, half_h = 0.5 * block_size[u] * scale;
        const int runs[4] = {fill_run(&picture, c[0], c[1], 1, 0), fill_run(&picture, c[0], c[1], -1, 0),
                             fill_run(&picture, c[0], c[1], 0, 1), fill_run(&picture, c[0], c[1], 0, -1)};
        CHECK_MSG(fabs(runs[0] + runs[1] + 1 - 2.0 * half_w) <= 3.0 &&
                      fabs(runs[2] + runs[3] + 1 - 2.0 * half_h) <= 3.0,
                  "view %d: the block is %dx%d pixels, %.1fx%.1f expected", k, runs[0] + runs[1] + 1,
                  runs[2] + runs[3] + 1, 2.0 * half_w, 2.0 * half_h);
        CHECK_MSG(background(pixel(&picture, (long)floor(c[0] + half_w + 6), (long)floor(c[1]))) &&
                      background(pixel(&picture, (long)floor(c[0]), (long)floor(c[1] - half_h - 6))),
                  "view %d: no background beyond the block", k);
    }

    /* the robot at q: its pixels (those draw_config changed) at every link shape's centre as
     * forward kinematics places it, in every view, and none farther from every shape than its
     * bounding sphere */
    const int dim = pb_engine_dim(engine);
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    double q[PB_MAX_DIM], q1[PB_MAX_DIM];
    for (int i = 0; i < dim; i++) {
        const double a = fmax(lo[i], -3.0), b = fmin(hi[i], 3.0);
        q[i] = a + (0.35 + 0.05 * i) * (b - a);
        q1[i] = a + (0.65 - 0.04 * i) * (b - a);
    }
    pb_image drawn;
    CHECK(pb_image_init(&drawn, picture.width, picture.height) == PB_OK);
    memcpy(drawn.rgb, picture.rgb, (size_t)picture.width * (size_t)picture.height * 3);
    pb_image_draw_config(&drawn, engine, scale, q, (pb_color){200, 0, 200});
    const pb_robot *robot = pb_manipulator_robot(engine);
    pb_pose links[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, q, links);
    double centres[512][3], radii[512];
    size_t n_shapes = 0;
    for (size_t l = 0; l < robot->n_links; l++)
        for (size_t s = 0; s < robot->links[l].n_shapes && n_shapes < 512; s++) {
            const pb_shape *shape = &robot->links[l].shapes[s];
            const pb_pose pose = pb_pose_mul(&links[l], &shape->origin);
            memcpy(centres[n_shapes], pose.t, sizeof centres[0]);
            radii[n_shapes++] = shape_radius(shape);
        }
    CHECK(n_shapes >= 6);
    for (size_t s = 0; s < n_shapes; s++)
        for (int k = 0; k < N_VIEWS; k++) {
            double xy[2];
            pb_manipulator_view_point(engine, scale, k, centres[s], xy);
            bool changed = false;
            for (long j = -1; j <= 1 && !changed; j++)
                for (long i = -1; i <= 1 && !changed; i++) {
                    const uint8_t *a = pixel(&picture, (long)floor(xy[0]) + i, (long)floor(xy[1]) + j);
                    const uint8_t *b = pixel(&drawn, (long)floor(xy[0]) + i, (long)floor(xy[1]) + j);
                    changed = a && memcmp(a, b, 3) != 0;
                }
            CHECK_MSG(changed, "view %d: nothing drawn at shape %zu's centre (%.0f, %.0f)", k, s, xy[0],
                      xy[1]);
        }
    size_t n_changed = 0, stray = 0;
    for (long y = 0; y < picture.height; y++)
        for (long x = 0; x < picture.width; x++) {
            if (memcmp(pixel(&picture, x, y), pixel(&drawn, x, y), 3) == 0)
                continue;
            n_changed++;
            bool explained = false;
            for (size_t s = 0; s < n_shapes && !explained; s++)
                for (int k = 0; k < N_VIEWS && !explained; k++) {
                    double xy[2];
                    pb_manipulator_view_point(engine, scale, k, centres[s], xy);
                    explained = hypot(x + 0.5 - xy[0], y + 0.5 - xy[1]) <= radii[s] * scale + 2.0;
                }
            stray += !explained;
        }
    CHECK_MSG(n_changed > 300 && stray == 0, "%zu robot pixels, %zu of them away from every link shape",
              n_changed, stray);

    /* the tree's point of a configuration: its tool link in the front view */
    double tree_xy[2], tool_xy[2];
    pb_image_engine_to_picture(engine, scale, q, tree_xy);
    pb_manipulator_view_point(engine, scale, 0, links[pb_manipulator_tool_link(engine)].t, tool_xy);
    CHECK_NEAR(tree_xy[0], tool_xy[0], 1e-9);
    CHECK_NEAR(tree_xy[1], tool_xy[1], 1e-9);
    CHECK(pb_image_engine_units(engine, scale) == 0.0);

    /* a path: the tool's trace in the path colour through the tool's positions along it (41
     * configurations), in every view */
    memcpy(drawn.rgb, picture.rgb, (size_t)picture.width * (size_t)picture.height * 3);
    pb_path path;
    pb_path_init(&path, dim);
    pb_path_append(&path, q);
    pb_path_append(&path, q1);
    const uint8_t green[3] = {0, 160, 0};
    pb_image_draw_path(&drawn, engine, scale, &path, (pb_color){0, 160, 0}, 3);
    size_t on = 0, total = 0;
    for (int t = 0; t <= 40; t++) {
        double qt[PB_MAX_DIM];
        for (int i = 0; i < dim; i++)
            qt[i] = q[i] + (q1[i] - q[i]) * t / 40.0;
        pb_manipulator_fk(engine, qt, links);
        for (int k = 0; k < N_VIEWS; k++) {
            double xy[2];
            pb_manipulator_view_point(engine, scale, k, links[pb_manipulator_tool_link(engine)].t, xy);
            total++;
            on += colour_near(&drawn, xy[0], xy[1], 2, green);
        }
    }
    CHECK_MSG(on == total, "the tool's trace passes %zu of %zu of its positions", on, total);
    if (getenv("PB_KEEP_PICTURE"))
        pb_image_save_png(&drawn, getenv("PB_KEEP_PICTURE"), NULL);
    pb_path_finish(&path);
    pb_image_finish(&drawn);
    pb_image_finish(&picture);
    pb_engine_destroy(engine);
    unlink(world);
    rmdir(dir);
    return pb_test_summary("manipulator_draw");
}
