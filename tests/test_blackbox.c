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
    pb_blackbox_params params = pb_blackbox_params_default(dim);
    for (int i = 0; i < dim; i++) {
        params.lower[i] = -5;
        params.upper[i] = 5;
    }
    params.feasible = discs_free;
    params.ctx = w;
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
    /* default resolution: 1/200 of the diagonal, so a diagonal edge has 201 states */
    const pb_engine_setup *setup = pb_engine_get_setup(engine);
    CHECK_NEAR(setup->resolution, sqrt(200.0) / 200.0, 1e-12);
    CHECK(setup->bisection);
    pb_engine_destroy(engine);

    /* the alias, the resolution and the order options */
    pb_option options[] = {{"bounds", "0:1"},
                           {"expr", "x0 < 0.5 or x0 > 0.52"},
                           {"resolution", "0.01"},
                           {"edge_order", "sequential"}};
    CHECK(pb_engine_load(&engine, "functor", NULL, options, 4, &diag) == PB_OK);
    if (engine) {
        setup = pb_engine_get_setup(engine);
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
    pb_blackbox_params params = pb_blackbox_params_default(2);
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID); /* no callback */
    CHECK(strstr(diag.message, "feasible callback") != NULL);
    params.feasible = discs_free;
    params.lower[1] = 2;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID);
    CHECK(strstr(diag.message, "coordinate 1") != NULL);
    params = pb_blackbox_params_default(0);
    params.feasible = discs_free;
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_ERR_INVALID);
    params = pb_blackbox_params_default(2);
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
            const double resolution = pb_engine_get_setup(engine)->resolution;
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
            pb_stop stop = pb_stop_default();
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

int main(void)
{
    test_against_reference();
    test_expression_engine();
    test_errors();
    test_render();
    test_plan_and_recheck();
    return pb_test_summary("blackbox");
}
