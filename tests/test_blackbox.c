/* The black-box engine: feasible and visible against brute-force references on random
 * inputs, the expression engine against the same function in C, option errors, the picture
 * of a 2D space, and RRT paths re-checked at a resolution ten times finer than the
 * planner's. */
#include "harness.h"
#include "planbench/impl/engine_impl.h"
#include "planbench/planbench.h"

#include <stdlib.h>
#include <string.h>

/* ---- a world of discs, in C ----------------------------------------------------------- */

#define N_DISCS 12

typedef struct discs {
    int dim;
    double centre[N_DISCS][3];
    double radius[N_DISCS];
    uint64_t calls;
} discs;

static bool discs_free(const double *q, void *ctx)
{
    discs *w = ctx;
    w->calls++;
    for (int k = 0; k < N_DISCS; k++) {
        double d2 = 0.0;
        for (int i = 0; i < w->dim; i++)
            d2 += (q[i] - w->centre[k][i]) * (q[i] - w->centre[k][i]);
        if (d2 < w->radius[k] * w->radius[k])
            return false;
    }
    return true;
}

static void make_discs(discs *w, int dim, uint64_t seed)
{
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    w->dim = dim;
    w->calls = 0;
    for (int k = 0; k < N_DISCS; k++) {
        for (int i = 0; i < dim; i++)
            w->centre[k][i] = pb_rng_range(&rng, -4, 4);
        w->radius[k] = pb_rng_range(&rng, 0.3, 1.2);
    }
    /* keep the corners (-4.5, ...) and (4.5, ...) free for planning */
    for (int k = 0; k < N_DISCS; k++) {
        double d_lo = 0.0, d_hi = 0.0;
        for (int i = 0; i < dim; i++) {
            d_lo += (w->centre[k][i] + 4.5) * (w->centre[k][i] + 4.5);
            d_hi += (w->centre[k][i] - 4.5) * (w->centre[k][i] - 4.5);
        }
        if (sqrt(d_lo) < w->radius[k] + 0.2 || sqrt(d_hi) < w->radius[k] + 0.2)
            w->radius[k] = 0.1;
    }
}

static pb_engine *make_engine(discs *w, int dim, double resolution)
{
    pb_blackbox_config params = pb_blackbox_config_default(dim);
    for (int i = 0; i < dim; i++) {
        params.lower[i] = -5;
        params.upper[i] = 5;
    }
    params.feasible = discs_free;
    params.payload = w;
    params.resolution = resolution;
    pb_engine *engine = NULL;
    pb_diag diag;
    CHECK_MSG(pb_blackbox_create(&engine, &params, &diag) == PB_OK, "%s", diag.message);
    return engine;
}

static bool inside(const double *q, int dim)
{
    for (int i = 0; i < dim; i++)
        if (!(q[i] >= -5 && q[i] <= 5))
            return false;
    return true;
}

/* Brute force: the segment at n + 1 evenly spaced points, computed independently. */
static bool segment_free(discs *w, const double *a, const double *b, uint64_t n)
{
    for (uint64_t i = 0; i <= n; i++) {
        const double t = (double)i / (double)n;
        double q[3];
        for (int k = 0; k < w->dim; k++)
            q[k] = i == n ? b[k] : a[k] + t * (b[k] - a[k]);
        if (!inside(q, w->dim) || !discs_free(q, w))
            return false;
    }
    return true;
}

static void test_against_reference(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    for (int dim = 2; dim <= 3; dim++) {
        discs w;
        make_discs(&w, dim, 100 + (uint64_t)dim);
        const double resolution = 0.05;
        pb_engine *engine = make_engine(&w, dim, resolution);
        if (!engine)
            continue;
        int feasible_mismatch = 0, visible_mismatch = 0, fine_violations = 0, n_blocked = 0;
        for (int trial = 0; trial < 3000; trial++) {
            double a[3], b[3];
            for (int i = 0; i < dim; i++) {
                a[i] = pb_rng_range(&rng, -5.5, 5.5); /* some outside the bounds */
                b[i] = a[i] + pb_rng_range(&rng, -2, 2);
            }
            if (pb_engine_feasible(engine, a) != (inside(a, dim) && discs_free(a, &w)))
                feasible_mismatch++;
            double len2 = 0.0;
            for (int i = 0; i < dim; i++)
                len2 += (b[i] - a[i]) * (b[i] - a[i]);
            const uint64_t n = (uint64_t)fmax(1.0, ceil(sqrt(len2) / resolution));
            const bool visible = pb_engine_visible(engine, a, b);
            if (visible != segment_free(&w, a, b, n))
                visible_mismatch++;
            /* the engine's points are a subset of a ten times finer sampling */
            if (segment_free(&w, a, b, 10 * n) && !visible)
                fine_violations++;
            if (!visible)
                n_blocked++;
        }
        CHECK_MSG(feasible_mismatch == 0, "dim %d: %d feasible mismatches", dim, feasible_mismatch);
        CHECK_MSG(visible_mismatch == 0, "dim %d: %d visible mismatches", dim, visible_mismatch);
        CHECK(fine_violations == 0);
        CHECK_MSG(n_blocked > 300 && n_blocked < 2700, "dim %d: %d of 3000 edges blocked: a poor test", dim,
                  n_blocked);
        pb_engine_destroy(engine);
    }
}

/* ---- the expression engine ------------------------------------------------------------ */

static pb_engine *load(const char *bounds, const char *expr, const char *extra_name, const char *extra_value,
                       pb_diag *diag)
{
    pb_option options[3];
    size_t n = 0;
    if (bounds)
        options[n++] = (pb_option){"bounds", bounds};
    if (expr)
        options[n++] = (pb_option){"expr", expr};
    if (extra_name)
        options[n++] = (pb_option){extra_name, extra_value};
    pb_engine *engine = NULL;
    memset(diag, 0, sizeof *diag);
    if (pb_engine_load(&engine, "blackbox", NULL, options, n, diag) != PB_OK)
        return NULL;
    return engine;
}

static void test_expression_engine(void)
{
    pb_diag diag;
    pb_engine *engine = load("-5:5,-5:5", "cos(x0)*sin(x1) > -0.22", NULL, NULL, &diag);
    CHECK_MSG(engine != NULL, "%s", diag.message);
    if (!engine)
        return;
    CHECK(strcmp(pb_engine_name(engine), "blackbox") == 0);
    CHECK(pb_engine_dim(engine) == 2);
    CHECK(pb_engine_lower(engine)[0] == -5 && pb_engine_upper(engine)[1] == 5);
    pb_rng rng;
    pb_rng_seed(&rng, 3);
    int mismatches = 0;
    for (int i = 0; i < 20000; i++) {
        const double q[2] = {pb_rng_range(&rng, -6, 6), pb_rng_range(&rng, -6, 6)};
        const bool want = fabs(q[0]) <= 5 && fabs(q[1]) <= 5 && cos(q[0]) * sin(q[1]) > -0.22;
        if (pb_engine_feasible(engine, q) != want)
            mismatches++;
    }
    CHECK(mismatches == 0);
    /* default resolution: 1/1000 of the diagonal (sampled checks; an expression's edges are
     * certified and refuse stretches tighter than a quarter of it) */
    const pb_engine_config *setup = pb_engine_get_config(engine);
    CHECK_NEAR(setup->resolution, sqrt(200.0) / 1000.0, 1e-12);
    double floor_clearance = 0.0;
    CHECK(pb_engine_edge_check(engine, &floor_clearance) == PB_EDGE_CHECK_CERTIFIED);
    CHECK_NEAR(floor_clearance, sqrt(200.0) / 4000.0, 1e-12);
    CHECK(setup->bisection);
    pb_engine_destroy(engine);

    /* the alias, the resolution and the order options */
    pb_option options[] = {{"bounds", "0:1"},
                           {"expr", "x0 < 0.5 or x0 > 0.52"},
                           {"resolution", "0.01"},
                           {"edge_order", "sequential"}};
    CHECK(pb_engine_load(&engine, "functor", NULL, options, 4, &diag) == PB_OK);
    if (engine) {
        setup = pb_engine_get_config(engine);
        CHECK(setup->resolution == 0.01 && !setup->bisection && setup->dim == 1);
        const double a = 0.1, b = 0.9;
        CHECK(!pb_engine_visible(engine, &a, &b));
        CHECK(!pb_engine_visible(engine, &b, &a));
        pb_engine_destroy(engine);
    }

    /* angles: the distance wraps */
    engine = load("-3.1416:3.1416,0:1", "x1 < 2", "angles", "0", &diag);
    CHECK_MSG(engine != NULL, "%s", diag.message);
    if (engine) {
        const double a[2] = {-3.1, 0.5}, b[2] = {3.1, 0.5};
        CHECK_NEAR(pb_engine_distance(engine, a, b), 0.0832, 5e-5);
        pb_engine_destroy(engine);
    }
}

static void check_error(const char *bounds, const char *expr, const char *name, const char *value,
                        const char *want)
{
    pb_diag diag;
    pb_engine *engine = load(bounds, expr, name, value, &diag);
    CHECK_MSG(engine == NULL, "accepted bounds '%s' expr '%s' %s=%s", bounds ? bounds : "-",
              expr ? expr : "-", name ? name : "-", value ? value : "-");
    pb_engine_destroy(engine);
    char line[1024];
    pb_diag_format(&diag, line, sizeof line);
    CHECK_MSG(strstr(line, want) != NULL, "message '%s' lacks '%s'", line, want);
    CHECK_MSG(strchr(line, '\n') == NULL, "message '%s' is more than one line", line);
}

static void test_errors(void)
{
    check_error("-5:5,-5:5", "x0 + y > 0", NULL, NULL, "expression: column 6: unknown variable 'y'");
    check_error("-5:5,-5:5", "cos(x0)*sin(x2) > 0", NULL, NULL,
                "expression: column 13: unknown variable 'x2' (the coordinates are x0 to x1)");
    check_error("-5:5,-5:5", "cos(x0) * (x1 > 0", NULL, NULL, "expression: column 18: expected ')'");
    check_error("-5:5,-5:5", "x0 * x1", NULL, NULL, "the expression is a number, not a condition");
    check_error("5:-5,-5:5", "x0 > 0", NULL, NULL, "bounds: coordinate 0: the lower bound 5 must be below");
    check_error("-5:5,3:3", "x0 > 0", NULL, NULL, "bounds: coordinate 1");
    check_error("-5:5,abc", "x0 > 0", NULL, NULL, "bounds: expected LOWER:UPPER");
    check_error("-5:5,", "x0 > 0", NULL, NULL, "bounds: expected LOWER:UPPER");
    check_error("-5:5:5", "x0 > 0", NULL, NULL, "bounds: expected LOWER:UPPER");
    check_error(NULL, "x0 > 0", NULL, NULL, "needs --bounds");
    check_error("-5:5", NULL, NULL, NULL, "needs --expr");
    check_error("-5:5", "x0 > 0", "plugin", "./nothing.so", "not both");
    check_error("-5:5", NULL, "plugin", "./no-such-plugin.so", "plugin './no-such-plugin.so' does not load");
    check_error("-5:5", "x0 > 0", "resolution", "-1", "resolution: expected a positive number");
    check_error("-5:5", "x0 > 0", "resolution", "0.1x", "resolution: expected a positive number");
    check_error("-5:5", "x0 > 0", "edge_order", "random", "edge_order: expected 'bisection' or 'sequential'");
    check_error("-5:5", "x0 > 0", "angles", "1", "angles: '1' is not a coordinate index");
    check_error("-5:5", "x0 > 0", "arm_lengths", "1,2", "engine 'blackbox' has no option 'arm_lengths'");
    /* a plugin that loads but lacks the symbol: the C library itself */
    check_error("-5:5", NULL, "plugin", "libm.so.6", "does not export 'planbench_feasible'");

    /* a map file is not for this engine */
    pb_diag diag;
    pb_engine *engine = NULL;
    const pb_option options[] = {{"bounds", "-5:5"}, {"expr", "x0 > 0"}};
    CHECK(pb_engine_load(&engine, "blackbox", "maps/room1.png", options, 2, &diag) == PB_ERR_INVALID);
    CHECK(strstr(diag.message, "reads no map file") != NULL);

    /* the C API checks its parameters */
    pb_blackbox_config params = pb_blackbox_config_default(2);
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID); /* no callback */
    CHECK(strstr(diag.message, "feasible callback") != NULL);
    params.feasible = discs_free;
    params.lower[1] = 2;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID);
    CHECK(strstr(diag.message, "coordinate 1") != NULL);
    params = pb_blackbox_config_default(0);
    params.feasible = discs_free;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID);
    params = pb_blackbox_config_default(2);
    params.feasible = discs_free;
    params.has_defaults = true;
    params.default_start[0] = 2;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID);
    CHECK(engine == NULL);
}

/* ---- the picture ---------------------------------------------------------------------- */

static void test_render(void)
{
    pb_diag diag;
    pb_engine *engine = load("-5:5,-2.5:2.5", "x0^2 + x1^2 > 4", NULL, NULL, &diag);
    if (!engine)
        return;
    pb_image image;
    double scale = 0;
    CHECK(pb_image_render_engine(&image, engine, &scale, &diag) == PB_OK);
    CHECK(image.width == 800 && image.height == 400 && scale == 80.0);
    int mismatches = 0;
    for (int y = 0; y < image.height; y += 7) {
        for (int x = 0; x < image.width; x += 7) {
            const double q[2] = {-5 + (x + 0.5) / scale, -2.5 + (y + 0.5) / scale};
            const bool white = image.rgb[((size_t)y * (size_t)image.width + (size_t)x) * 3] == 255;
            if (white != (q[0] * q[0] + q[1] * q[1] > 4))
                mismatches++;
        }
    }
    CHECK(mismatches == 0);
    pb_image_finish(&image);
    pb_engine_destroy(engine);
    engine = load("-5:5,-5:5,0:1", "x2 > 0.5", NULL, NULL, &diag);
    if (engine) {
        CHECK(pb_image_render_engine(&image, engine, &scale, &diag) == PB_ERR_UNSUPPORTED);
        pb_engine_destroy(engine);
    }
}

/* ---- planning, re-checked finer -------------------------------------------------------- */

static void test_plan_and_recheck(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        for (uint64_t seed = 1; seed <= 5; seed++) {
            discs w;
            make_discs(&w, dim, 500 + seed);
            pb_engine *engine = make_engine(&w, dim, 0.0); /* the default resolution */
            if (!engine)
                continue;
            const double resolution = pb_engine_get_config(engine)->resolution;
            pb_engine *fine = make_engine(&w, dim, resolution / 10.0);
            pb_planner *planner = NULL;
            pb_diag diag;
            CHECK_MSG(pb_planner_create(&planner, "rrt", engine, &diag) == PB_OK, "%s", diag.message);
            if (!planner || !fine) {
                pb_engine_destroy(engine);
                pb_engine_destroy(fine);
                continue;
            }
            pb_planner_set_seed(planner, seed);
            const double start[3] = {-4.5, -4.5, -4.5}, goal[3] = {4.5, 4.5, 4.5};
            pb_problem problem = {.start = start, .goal = goal, .goal_radius = 0.3};
            pb_stop_config stop = pb_stop_config_default();
            stop.time_limit_s = 20;
            pb_result result;
            pb_result_init(&result, dim);
            CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
            CHECK_MSG(result.outcome == PB_OUTCOME_EXACT, "dim %d seed %llu: %s", dim,
                      (unsigned long long)seed, pb_outcome_str(result.outcome));
            CHECK_MSG(pb_path_validate(&result.path, engine, start, goal, &diag), "%s", diag.message);
            CHECK(result.counters.n_edge_states > 0);
            int blocked = 0;
            for (size_t i = 1; i < result.path.n; i++)
                if (!pb_engine_visible(fine, pb_path_at(&result.path, i - 1), pb_path_at(&result.path, i)))
                    blocked++;
            CHECK_MSG(blocked == 0, "dim %d seed %llu: %d edges blocked at resolution %g", dim,
                      (unsigned long long)seed, blocked, resolution / 10.0);
            /* the same seed gives the same path */
            pb_result again;
            pb_result_init(&again, dim);
            pb_planner_solve(planner, &problem, &stop, &again);
            CHECK(again.path.n == result.path.n &&
                  memcmp(again.path.q, result.path.q, result.path.n * (size_t)dim * sizeof(double)) == 0);
            pb_result_finish(&again);
            pb_result_finish(&result);
            pb_planner_destroy(planner);
            pb_engine_destroy(fine);
            pb_engine_destroy(engine);
        }
    }
}

/* The same discs as an expression and in C. */
#define DISCS_TEXT "(x0-1)^2 + (x1-2)^2 > 0.64 and (x0+2)^2 + (x1+1)^2 > 1.44 and (x0-3)^2 + (x1+3)^2 > 0.81"

static bool discs_c(const double *q, void *payload)
{
    (void)payload;
    return (q[0] - 1) * (q[0] - 1) + (q[1] - 2) * (q[1] - 2) > 0.64 &&
           (q[0] + 2) * (q[0] + 2) + (q[1] + 1) * (q[1] + 1) > 1.44 &&
           (q[0] - 3) * (q[0] - 3) + (q[1] + 3) * (q[1] + 3) > 0.81;
}

/* A sampled edge of an expression goes to its batch program (PB_BLACKBOX_BATCH configurations
 * a call): it must answer as the one-at-a-time check of the same function in C does, at the
 * same resolution, and every edge it calls free must be free when re-checked ten times
 * finer. */
static void test_sampled_batches(void)
{
    pb_diag diag;
    pb_engine *expr = load("-5:5,-5:5", DISCS_TEXT, "edge_check", "sampled", &diag);
    pb_blackbox_config params = pb_blackbox_config_default(2);
    params.lower[0] = params.lower[1] = -5;
    params.upper[0] = params.upper[1] = 5;
    params.feasible = discs_c;
    double resolution = 0.01;
    if (expr)
        pb_engine_edge_check(expr, &resolution);
    params.resolution = resolution;
    pb_engine *c = NULL;
    CHECK(expr && pb_blackbox_create(&c, &params, &diag) == PB_OK);
    if (!expr || !c) {
        pb_engine_destroy(expr);
        pb_engine_destroy(c);
        return;
    }
    pb_rng rng;
    pb_rng_seed(&rng, 77);
    int n_free = 0, n_blocked = 0, disagree = 0, bad = 0;
    for (int e = 0; e < 2000; e++) {
        double a[2], b[2];
        for (int i = 0; i < 2; i++) {
            a[i] = pb_rng_range(&rng, -4.9, 4.9);
            b[i] = a[i] + pb_rng_range(&rng, -1.5, 1.5);
        }
        const bool free = pb_engine_visible(expr, a, b);
        disagree += free != pb_engine_visible(c, a, b);
        if (!free) {
            n_blocked++;
            continue;
        }
        n_free++;
        const double step = 0.1 * resolution;
        const double length = hypot(b[0] - a[0], b[1] - a[1]);
        const int n = (int)ceil(length / step);
        for (int k = 0; k <= n; k++) {
            const double t = (double)k / n, q[2] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
            if (!discs_c(q, NULL) && bad++ < 3)
                CHECK_MSG(false, "edge (%g, %g) - (%g, %g) said free, blocked at (%g, %g)", a[0], a[1], b[0],
                          b[1], q[0], q[1]);
        }
    }
    CHECK_MSG(disagree == 0, "%d of 2000 edges answered differently in batches", disagree);
    CHECK(bad == 0);
    CHECK_MSG(n_free > 100 && n_blocked > 100, "%d free, %d blocked: the edges test nothing", n_free,
              n_blocked);
    pb_engine_destroy(expr);
    pb_engine_destroy(c);
}

/* ---- certified edges ----------------------------------------------------------------- */

/* Thin walls x0 in [0.3, 0.3 + w] (or an angle band in a wrapping coordinate) crossed by
 * edges in both directions: certified, every crossing is blocked whatever the width; the
 * sampled check at the default resolution misses the thinnest. */
static void test_thin_walls(void)
{
    const double widths[] = {1e-2, 1e-3, 1e-4};
    for (size_t k = 0; k < 3; k++) {
        char text[128];
        snprintf(text, sizeof text, "x0 < 0.3 or x0 > %.17g", 0.3 + widths[k]);
        pb_diag diag;
        pb_engine *certified = load("-5:5,-5:5", text, NULL, NULL, &diag);
        pb_engine *sampled = load("-5:5,-5:5", text, "edge_check", "sampled", &diag);
        CHECK(certified && sampled);
        if (!certified || !sampled) {
            pb_engine_destroy(certified);
            pb_engine_destroy(sampled);
            continue;
        }
        pb_rng rng;
        pb_rng_seed(&rng, 40 + k);
        int crossings = 0, certified_free = 0, sampled_free = 0;
        for (int e = 0; e < 400; e++) {
            double a[2] = {pb_rng_range(&rng, -4.9, 0.29), pb_rng_range(&rng, -4.9, 4.9)};
            double b[2] = {pb_rng_range(&rng, 0.31 + widths[k], 4.9), pb_rng_range(&rng, -4.9, 4.9)};
            if (e % 2) { /* the other direction */
                const double t0 = a[0], t1 = a[1];
                a[0] = b[0], a[1] = b[1], b[0] = t0, b[1] = t1;
            }
            crossings++;
            certified_free += pb_engine_visible(certified, a, b);
            sampled_free += pb_engine_visible(sampled, a, b);
        }
        CHECK_MSG(certified_free == 0, "width %g: %d of %d crossings certified free", widths[k],
                  certified_free, crossings);
        if (widths[k] < 1e-3)
            CHECK_MSG(sampled_free > 0,
                      "width %g: the sampled check caught every crossing: the test shows nothing", widths[k]);
        /* edges beside the wall are still free */
        const double p[2] = {-4, -4}, q[2] = {0.2, 4};
        CHECK(pb_engine_visible(certified, p, q) && pb_engine_visible(certified, q, p));
        pb_engine_destroy(certified);
        pb_engine_destroy(sampled);
    }

    /* The corner of `abs(x0) > 0.3 or x1 > 4`: the edge from (0.1, 4.19) to (0.5, 3.79) is
     * blocked only where t is in [0.475, 0.5], 0.014 long; five samples at 1/200 of the
     * diagonal (the former default) miss it. */
    pb_diag diag;
    pb_engine *corner = load("-5:5,-5:5", "abs(x0) > 0.3 or x1 > 4", NULL, NULL, &diag);
    pb_engine *coarse =
        load("-5:5,-5:5", "abs(x0) > 0.3 or x1 > 4", "resolution", "0.0707106781186548", &diag);
    if (corner && coarse) {
        pb_option sampled_options[] = {{"bounds", "-5:5,-5:5"},
                                       {"expr", "abs(x0) > 0.3 or x1 > 4"},
                                       {"resolution", "0.0707106781186548"},
                                       {"edge_check", "sampled"}};
        pb_engine *old = NULL;
        CHECK(pb_engine_load(&old, "blackbox", NULL, sampled_options, 4, &diag) == PB_OK);
        const double a[2] = {0.1, 4.19}, b[2] = {0.5, 3.79};
        CHECK(pb_engine_feasible(corner, a) && pb_engine_feasible(corner, b));
        CHECK(!pb_engine_visible(corner, a, b) && !pb_engine_visible(corner, b, a));
        CHECK(!pb_engine_visible(coarse, a, b)); /* certified whatever the resolution */
        if (old)
            CHECK_MSG(pb_engine_visible(old, a, b), "the former sampled check now catches the corner");
        pb_engine_destroy(old);
    }
    pb_engine_destroy(corner);
    pb_engine_destroy(coarse);

    /* an angle coordinate: the wall x1 in [3.1, 3.1 + 1e-4] near the seam at pi */
    pb_engine *angle =
        load("-5:5,-3.14159265358979:3.14159265358979", "x1 < 3.1 or x1 > 3.1001", "angles", "1", &diag);
    CHECK_MSG(angle != NULL, "%s", diag.message);
    if (angle) {
        const double a[2] = {0, 3.0}, b[2] = {0, -3.0}; /* the short way crosses the seam and the wall */
        const double c[2] = {0, -3.0}, d[2] = {0, -2.0};
        CHECK(!pb_engine_visible(angle, a, b) && !pb_engine_visible(angle, b, a));
        CHECK(pb_engine_visible(angle, c, d));
        const double e[2] = {0, 3.11}, f[2] = {0, -3.0}; /* from beyond the wall across the seam: free */
        CHECK(pb_engine_visible(angle, e, f));
        pb_engine_destroy(angle);
    }
}

/* The disc world's exact clearance, for the C API's clearance callback. */
static double discs_clearance(const double *q, void *ctx)
{
    discs *w = ctx;
    double best = INFINITY;
    for (int i = 0; i < w->dim; i++)
        best = fmin(best, fmin(q[i] + 5.0, 5.0 - q[i]));
    for (int k = 0; k < N_DISCS; k++) {
        double d2 = 0.0;
        for (int i = 0; i < w->dim; i++)
            d2 += (q[i] - w->centre[k][i]) * (q[i] - w->centre[k][i]);
        best = fmin(best, sqrt(d2) - w->radius[k]);
    }
    return fmax(best, 0.0);
}

static double bad_value;
static double bad_clearance(const double *q, void *ctx)
{
    (void)q;
    (void)ctx;
    return bad_value;
}

static void test_clearance_callback(void)
{
    discs w;
    make_discs(&w, 2, 77);
    pb_blackbox_config params = pb_blackbox_config_default(2);
    for (int i = 0; i < 2; i++) {
        params.lower[i] = -5;
        params.upper[i] = 5;
    }
    params.feasible = discs_free;
    params.clearance = discs_clearance;
    params.payload = &w;
    pb_engine *engine = NULL;
    pb_diag diag;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_OK);
    if (!engine)
        return;
    CHECK(pb_engine_edge_check(engine, NULL) == PB_EDGE_CHECK_CERTIFIED);
    pb_rng rng;
    pb_rng_seed(&rng, 8);
    int false_free = 0, n_free = 0;
    for (int e = 0; e < 2000; e++) {
        const double a[2] = {pb_rng_range(&rng, -5, 5), pb_rng_range(&rng, -5, 5)};
        const double b[2] = {pb_rng_range(&rng, -5, 5), pb_rng_range(&rng, -5, 5)};
        const bool got = pb_engine_visible(engine, a, b);
        n_free += got;
        if (got && !segment_free(&w, a, b, 20000))
            false_free++;
    }
    CHECK_MSG(false_free == 0, "%d certified edges collide at 1/20000 of their length", false_free);
    CHECK(n_free > 100);
    CHECK(pb_engine_fault(engine, &diag) == PB_OK);
    pb_engine_destroy(engine);

    /* a clearance that is negative, NaN or infinite: the solve fails and says so */
    const double bad[] = {-1.0, NAN, INFINITY};
    for (int k = 0; k < 3; k++) {
        bad_value = bad[k];
        params.clearance = bad_clearance;
        CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_OK);
        if (!engine)
            continue;
        pb_planner *planner = NULL;
        CHECK(pb_planner_create(&planner, "rrt", engine, &diag) == PB_OK);
        const double start[2] = {-4.5, -4.5}, goal[2] = {4.5, 4.5};
        const pb_problem problem = {start, goal, 0.5};
        pb_stop_config stop = pb_stop_config_default();
        stop.max_iterations = 2000;
        pb_result result;
        pb_result_init(&result, 2);
        CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_ERR_INVALID);
        CHECK(result.path.n == 0);
        memset(&diag, 0, sizeof diag);
        CHECK(pb_engine_fault(engine, &diag) == PB_ERR_INVALID);
        CHECK_MSG(strstr(diag.message, "the clearance callback returned") != NULL, "%s", diag.message);
        pb_result_finish(&result);
        pb_planner_destroy(planner);
        pb_engine_destroy(engine);
    }
}

int main(void)
{
    test_against_reference();
    test_expression_engine();
    test_errors();
    test_render();
    test_plan_and_recheck();
    test_thin_walls();
    test_sampled_batches();
    test_clearance_callback();
    return pb_test_summary("blackbox");
}
