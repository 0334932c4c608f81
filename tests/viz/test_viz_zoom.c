/* The visualiser draws the tree, the path and the markers at the window's scale (issue 22): on
 * a 4000x4000 map shown fitted to an 800-pixel window the start and goal markers keep a radius
 * of at least 6 window pixels and the path stays 3 pixels wide along its whole length; zoomed
 * in about 2x on a small map a diagonal tree edge is still one pixel wide and the path still 3,
 * where a scaled picture would double both; a wall 2 pixels thin still shows when the map is
 * reduced five times. Each picture is a screenshot read back from the
 * window; what is expected comes from pb_viz_window_point(), not from the drawing code. Run
 * under Xvfb by run_xvfb.sh. */
#include "harness.h"
#include "picture.h"
#include "planbench/planbench.h"
#include "planbench/viz.h"

#include <string.h>

static char dir[256];

static const unsigned char path_rgb[3] = {220, 20, 20}, start_rgb[3] = {30, 170, 60},
                           goal_rgb[3] = {30, 60, 220}, tree_rgb[3] = {70, 120, 220};

static bool is(const pb_image *s, long x, long y, const unsigned char *c)
{
    if (x < 0 || y < 0 || x >= s->width || y >= s->height)
        return false;
    const unsigned char *p = s->rgb + ((size_t)y * (size_t)s->width + (size_t)x) * 3;
    return p[0] == c[0] && p[1] == c[1] && p[2] == c[2];
}

/* Pixels of colour c in the disc of `radius` around (x, y). */
static size_t count_near(const pb_image *s, double x, double y, double radius, const unsigned char *c)
{
    size_t n = 0;
    for (long j = (long)floor(y - radius); j <= (long)ceil(y + radius); j++)
        for (long i = (long)floor(x - radius); i <= (long)ceil(x + radius); i++)
            if (hypot(i + 0.5 - x, j + 0.5 - y) <= radius)
                n += is(s, i, j, c);
    return n;
}

/* A marker of colour c, centred at window point (x, y), of radius at least 6 pixels: every
 * pixel whose centre lies within 5.5 of (x, y) has its colour. */
static void check_marker(const pb_image *s, double x, double y, const unsigned char *c, const char *what)
{
    size_t inside = 0, total = 0;
    for (long j = (long)floor(y - 6); j <= (long)ceil(y + 6); j++)
        for (long i = (long)floor(x - 6); i <= (long)ceil(x + 6); i++)
            if (hypot(i + 0.5 - x, j + 0.5 - y) <= 5.5) {
                total++;
                inside += is(s, i, j, c);
            }
    CHECK_MSG(total >= 80 && inside == total, "%s marker: %zu of %zu pixels within 5.5 px of (%.1f, %.1f)",
              what, inside, total, x, y);
}

/* The segment a-b (window points) drawn in colour c: present at every half pixel along it
 * (away from `skip` pixels of its ends), its pixels per unit of length in [lo, hi] (counted
 * within `band` pixels of it), and as thick across its major axis as `thick` pixels at most. */
static void check_line(const pb_image *s, const double *a, const double *b, const unsigned char *c,
                       double skip, double band, double lo, double hi, int thick, const char *what)
{
    const double dx = b[0] - a[0], dy = b[1] - a[1], len = hypot(dx, dy);
    size_t on = 0, total = 0;
    int widest = 0;
    for (double t = skip; t <= len - skip; t += 0.5) {
        const double x = a[0] + dx * t / len, y = a[1] + dy * t / len;
        total++;
        bool found = false;
        for (long j = -1; j <= 1 && !found; j++)
            for (long i = -1; i <= 1 && !found; i++)
                found = is(s, (long)floor(x) + i, (long)floor(y) + j, c);
        on += found;
        /* the run of colour c across the line's major axis through this point */
        const bool x_major = fabs(dx) >= fabs(dy);
        int run = 0;
        for (long k = -8; k <= 8; k++)
            run += x_major ? is(s, (long)floor(x), (long)floor(y) + k, c)
                           : is(s, (long)floor(x) + k, (long)floor(y), c);
        if (run > widest)
            widest = run;
    }
    CHECK_MSG(total > 20 && on == total, "%s: its colour at %zu of %zu points along it", what, on, total);
    size_t pixels = 0;
    for (long y = 0; y < s->height; y++)
        for (long x = 0; x < s->width; x++) {
            /* distance to the segment, inside its skipped ends */
            const double t = ((x + 0.5 - a[0]) * dx + (y + 0.5 - a[1]) * dy) / (len * len);
            if (t * len < skip || t * len > len - skip)
                continue;
            const double d = fabs((x + 0.5 - a[0]) * dy - (y + 0.5 - a[1]) * dx) / len;
            if (d <= band)
                pixels += is(s, x, y, c);
        }
    const double per_length = (double)pixels / (len - 2.0 * skip);
    CHECK_MSG(per_length >= lo && per_length <= hi,
              "%s: %.2f pixels of its colour per pixel of length, expected %g to %g", what, per_length, lo,
              hi);
    CHECK_MSG(widest <= thick, "%s: %d pixels thick across its major axis, at most %d expected", what, widest,
              thick);
}

static bool write_map(const char *path, int w, int h, bool wall)
{
    /* free space with one block away from the segments checked, and on request a wall two
     * pixels thin (a fifth of a pixel when the map is shown at 0.2) */
    pb_image image;
    if (pb_image_init(&image, w, h) != PB_OK)
        return false;
    for (int y = h / 10; y < h / 5; y++)
        for (int x = w * 7 / 10; x < w * 9 / 10; x++)
            memset(image.rgb + ((size_t)y * (size_t)w + (size_t)x) * 3, 0, 3);
    for (int y = h / 20; wall && y < h * 3 / 10; y++)
        memset(image.rgb + ((size_t)y * (size_t)w + (size_t)(w / 2)) * 3, 0, 2 * 3);
    const bool ok = pb_image_save_png(&image, path, NULL) == PB_OK;
    pb_image_finish(&image);
    return ok;
}

/* Show a straight path from start to goal (through its middle) and, when `edge` is not NULL, one
 * tree edge, then zoom in `zoom_keys` times with '+' and take a screenshot. */
static bool show(const char *map, int max_px, const double *start, const double *goal, const double *edge,
                 int zoom_keys, const char *file, pb_image *out, double *ws, double *wg, double *we,
                 pb_viz_state *st)
{
    pb_diag diag = {0};
    pb_engine *engine = NULL;
    CHECK_MSG(pb_engine_load(&engine, NULL, map, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    if (!engine)
        return false;
    pb_viz_config params = pb_viz_config_default();
    params.max_width = params.max_height = max_px;
    pb_viz *viz = NULL;
    if (pb_viz_create(&viz, engine, &params, &diag) != PB_OK) {
        fprintf(stderr, "no display: %s\n", diag.message);
        pb_engine_destroy(engine);
        return false;
    }
    const pb_problem problem = {start, goal, 5.0};
    pb_viz_begin(viz, &problem, "rrt", 1);
    if (edge) {
        const pb_event root = {.type = PB_EVENT_NODE_ADDED, .node = 0, .parent = UINT32_MAX, .q = edge};
        const pb_event child = {
            .type = PB_EVENT_NODE_ADDED, .node = 1, .parent = 0, .q = edge + 2, .parent_q = edge};
        pb_viz_observer(&root, viz);
        pb_viz_observer(&child, viz);
    }
    pb_result result;
    pb_result_init(&result, 2);
    result.outcome = PB_OUTCOME_EXACT;
    const double middle[2] = {0.5 * (start[0] + goal[0]), 0.5 * (start[1] + goal[1])};
    pb_path_append(&result.path, start);
    pb_path_append(&result.path, middle);
    pb_path_append(&result.path, goal);
    result.cost = hypot(goal[0] - start[0], goal[1] - start[1]);
    for (int k = 0; k < zoom_keys; k++)
        CHECK(pb_viz_inject(viz, &(pb_viz_input){.type = PB_VIZ_INPUT_KEY, .key = '+'}) == PB_OK);
    /* show_result draws a frame, which handles the injected keys first */
    CHECK(pb_viz_show_result(viz, &result, &diag) == PB_OK);
    pb_viz_get_state(viz, st);
    CHECK_MSG(pb_viz_save_screenshot(viz, file, &diag) == PB_OK, "%s", diag.message);
    pb_viz_window_point(viz, start, &ws[0], &ws[1]);
    pb_viz_window_point(viz, goal, &wg[0], &wg[1]);
    if (edge) {
        pb_viz_window_point(viz, edge, &we[0], &we[1]);
        pb_viz_window_point(viz, edge + 2, &we[2], &we[3]);
    }
    pb_viz_destroy(viz);
    pb_result_finish(&result);
    pb_engine_destroy(engine);
    const bool ok = tp_load_png(file, out);
    CHECK_MSG(ok, "cannot read the screenshot %s", file);
    return ok;
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/pb_viz_zoom_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    char map[512], file[512];

    /* a 4000x4000 map fitted to an 800-pixel window: 0.2 window pixels per map pixel */
    snprintf(map, sizeof map, "%s/big.png", dir);
    CHECK(write_map(map, 4000, 4000, true));
    snprintf(file, sizeof file, "%s/big-shot.png", dir);
    const double start[2] = {300.5, 3500.5}, goal[2] = {3700.5, 1500.5};
    pb_image s = {0};
    double ws[2], wg[2], we[4];
    pb_viz_state st;
    if (!show(map, 800, start, goal, NULL, 0, file, &s, ws, wg, we, &st)) {
        pb_test_summary("viz_zoom");
        return PB_TEST_SKIP;
    }
    CHECK_MSG(s.width <= 800 && st.zoom == 1.0, "a %dx%d window at zoom %g", s.width, s.height, st.zoom);
    check_marker(&s, ws[0], ws[1], start_rgb, "start (4000x4000 map)");
    check_marker(&s, wg[0], wg[1], goal_rgb, "goal (4000x4000 map)");
    CHECK_MSG(count_near(&s, ws[0], ws[1], 9.0, start_rgb) <= 200, "the start marker is larger than asked");
    /* the path: 3 pixels across, so 2 to 4.5 pixels per pixel of length on a diagonal */
    check_line(&s, ws, wg, path_rgb, 10.0, 4.0, 2.0, 4.5, 4, "path (4000x4000 map)");
    /* the thin wall, reduced five times, still shows on every window row it spans */
    const double sx = (wg[0] - ws[0]) / (goal[0] - start[0]), sy = (wg[1] - ws[1]) / (goal[1] - start[1]);
    const double wall_x = ws[0] + (2000.0 - start[0]) * sx;
    const double wall_y0 = ws[1] + (200.0 - start[1]) * sy, wall_y1 = ws[1] + (1200.0 - start[1]) * sy;
    int rows = 0, dark_rows = 0;
    for (long y = (long)ceil(wall_y0) + 1; y < (long)floor(wall_y1) - 1; y++) {
        rows++;
        bool dark = false;
        for (long x = (long)floor(wall_x) - 1; x <= (long)floor(wall_x) + 1 && !dark; x++)
            dark = is(&s, x, y, (const unsigned char[3]){40, 40, 40});
        dark_rows += dark;
    }
    CHECK_MSG(rows > 150 && dark_rows == rows, "a 2-pixel wall shown at %.2f: dark on %d of its %d rows", sx,
              dark_rows, rows);
    pb_image_finish(&s);

    /* a 400x300 map shown at scale 1, then zoomed in 1.25^3 = 1.95 times */
    snprintf(map, sizeof map, "%s/small.png", dir);
    CHECK(write_map(map, 400, 300, false));
    /* within the middle half of the view, which the zoom keeps in the window */
    const double a[2] = {110.5, 210.5}, b[2] = {290.5, 95.5};
    const double edge[4] = {120.5, 80.5, 200.5, 120.5};
    for (int keys = 0; keys <= 3; keys += 3) {
        snprintf(file, sizeof file, "%s/small-%d.png", dir, keys);
        pb_image z = {0};
        if (!show(map, 1000, a, b, edge, keys, file, &z, ws, wg, we, &st))
            break;
        char what[64];
        CHECK_NEAR(st.zoom, pow(1.25, keys), 1e-9);
        snprintf(what, sizeof what, "start at zoom %.2f", st.zoom);
        check_marker(&z, ws[0], ws[1], start_rgb, what);
        CHECK_MSG(count_near(&z, ws[0], ws[1], 9.0, start_rgb) <= 200, "%s: the marker grew with the zoom",
                  what);
        snprintf(what, sizeof what, "path at zoom %.2f", st.zoom);
        check_line(&z, ws, wg, path_rgb, 10.0, 4.0, 2.0, 4.5, 4, what);
        /* a one-pixel line: one pixel per step along its major axis, whatever the zoom */
        snprintf(what, sizeof what, "tree edge at zoom %.2f", st.zoom);
        check_line(&z, we, we + 2, tree_rgb, 2.0, 3.0, 0.7, 1.25, 1, what);
        pb_image_finish(&z);
    }

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return pb_test_summary("viz_zoom");
}
