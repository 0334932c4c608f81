/* The RRT family (birrt, rrtstar, informedrrt) and path shortcutting.
 *
 * Every returned path on the image engine is re-validated independently of the library:
 * start and goal exact, every edge's pixels free by a closed-form Bresenham over the picture
 * the test drew, cost equal to the Euclidean length. Also: determinism pinned by a hash per
 * planner; RRT* rewires and improves with more iterations; asymptotic optimality measured
 * against the straight line (empty map) and against a visibility-graph optimum (rectangles);
 * bi-RRT success rates on the bundled narrow-passage map and maze; shortcutting; and the
 * black-box (3-D) and 4D stick-arm engines, re-validated with pb_path_validate.
 *
 * Budgets are iteration counts, never times, so the results are the same on every machine. */
#include "harness.h"
#include "picture.h"
#include "planbench/planbench.h"
#include "planners/informed.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_W 400
#define MAX_H 400

static pb_image picture; /* the map as written: the independent reference */

static bool edge_free(const double *a, const double *b)
{
    return tp_edge_free(&picture, a, b);
}

static void fill_rect(int x0, int y0, int x1, int y1)
{
    tp_fill_rect(&picture, (tp_rect){x0, y0, x1, y1});
}
static pb_engine *load_picture(char *png, size_t size)
{
    return tp_load_picture(&picture, png, size);
}

static double euclid(const double *a, const double *b)
{
    return hypot(b[0] - a[0], b[1] - a[1]);
}

/* Independent check of a 2D path's geometry; returns its Euclidean length (INFINITY when
 * invalid). */
static double check_geometry(const pb_path *path, const double *start, const double *goal, const char *what)
{
    CHECK_MSG(path->n >= 2, "%s: path has %zu points", what, path->n);
    if (path->n < 2)
        return INFINITY;
    const double *first = pb_path_at(path, 0), *last = pb_path_at(path, path->n - 1);
    CHECK_MSG(first[0] == start[0] && first[1] == start[1], "%s: path does not begin at the start", what);
    CHECK_MSG(last[0] == goal[0] && last[1] == goal[1], "%s: path does not end at the goal", what);
    double length = 0.0;
    int blocked = 0;
    for (size_t i = 1; i < path->n; i++) {
        length += euclid(pb_path_at(path, i - 1), pb_path_at(path, i));
        blocked += !edge_free(pb_path_at(path, i - 1), pb_path_at(path, i));
    }
    CHECK_MSG(blocked == 0, "%s: %d edges cross obstacles", what, blocked);
    return blocked ? INFINITY : length;
}

/* Independent check of a planner's result; returns the path's length. */
static double check_path(const pb_result *r, const double *start, const double *goal, const char *what)
{
    CHECK_MSG(r->outcome == PB_OUTCOME_EXACT, "%s: outcome %s", what, pb_outcome_str(r->outcome));
    const double length = check_geometry(&r->path, start, goal, what);
    if (!isfinite(length))
        return length;
    CHECK_NEAR(r->cost, length, 1e-9 * length);
    CHECK(r->time_to_first_s >= 0.0 && r->time_to_first_s <= r->time_s);
    CHECK(r->nodes >= 2 && r->iterations > 0);
    /* The cost trace falls strictly and ends at the reported cost. */
    CHECK_MSG(r->n_cost_trace >= 1, "%s: empty cost trace", what);
    for (size_t i = 1; i < r->n_cost_trace; i++)
        CHECK(r->cost_trace[i].cost < r->cost_trace[i - 1].cost &&
              r->cost_trace[i].time_s >= r->cost_trace[i - 1].time_s);
    if (r->n_cost_trace >= 1)
        CHECK_NEAR(r->cost_trace[r->n_cost_trace - 1].cost, r->cost, 1e-9 * r->cost);
    return length;
}

static pb_planner *make_planner(pb_engine *engine, const char *name, double step)
{
    pb_planner *p = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_planner_create(&p, name, engine, &diag) == PB_OK, "%s: %s", name, diag.message);
    if (p)
        CHECK(pb_planner_set_param_double(p, "step_size", step, &diag) == PB_OK);
    return p;
}

static pb_stop_config budget_stop(uint64_t iterations, bool first_solution)
{
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 0.0; /* iteration budgets only: the same result on every machine */
    stop.max_iterations = iterations;
    stop.first_solution = first_solution;
    return stop;
}

static const char *const planner_names[] = {"birrt", "rrtstar", "informedrrt"};
#define N_PLANNERS 3

/* ---- the zig-zag map: re-validation, determinism, observer, aliases ---- */

typedef struct event_count {
    uint64_t added, removed;
} event_count;

static void count_events(const pb_event *ev, void *payload)
{
    event_count *c = payload;
    c->added += ev->type == PB_EVENT_NODE_ADDED;
    c->removed += ev->type == PB_EVENT_EDGE_REMOVED;
}

static double extra(const pb_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_extra; i++)
        if (strcmp(r->extra[i].name, name) == 0)
            return r->extra[i].value;
    return -1.0;
}

static void test_zigzag(void)
{
    CHECK(pb_image_init(&picture, 300, 200) == PB_OK);
    fill_rect(70, 0, 80, 160);
    fill_rect(150, 40, 160, 200);
    fill_rect(220, 0, 230, 150);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 180.5}, goal[2] = {280.25, 20.75};
    const pb_problem problem = {start, goal, 15.0};
    pb_result r;
    pb_result_init(&r, 2);

    /* Pinned hashes: seed 3, the budgets below. A change means the planner's random stream
     * or its decisions changed; update the pin only when that is intended. */
    static const uint64_t pinned[N_PLANNERS] = {0x2c18cafc46d208e3ull, 0xffabd8ff12a86720ull,
                                                0x27556b9ceec7a1f0ull};
    for (int p = 0; p < N_PLANNERS; p++) {
        const bool anytime = p > 0;
        pb_planner *planner = make_planner(engine, planner_names[p], 15.0);
        if (!planner)
            continue;
        const pb_stop_config stop = budget_stop(anytime ? 3000 : 200000, !anytime);
        for (uint64_t seed = 1; seed <= 10; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            char what[48];
            snprintf(what, sizeof what, "%s seed %llu", planner_names[p], (unsigned long long)seed);
            check_path(&r, start, goal, what);
            pb_diag diag = {0};
            CHECK_MSG(pb_path_validate(&r.path, engine, start, goal, &diag), "%s: %s", what, diag.message);
        }
        /* Determinism. */
        pb_planner_set_seed(planner, 3);
        pb_planner_solve(planner, &problem, &stop, &r);
        const uint64_t h1 = tp_path_hash(&r.path), it1 = r.iterations;
        const double c1 = r.cost;
        pb_planner_solve(planner, &problem, &stop, &r);
        CHECK(tp_path_hash(&r.path) == h1 && r.iterations == it1 && r.cost == c1);
        printf("%s seed 3: %zu waypoints, cost %.6f, %llu iterations, hash %016llx\n", planner_names[p],
               r.path.n, r.cost, (unsigned long long)it1, (unsigned long long)h1);
        CHECK_MSG(h1 == pinned[p], "%s: pinned path hash changed: %016llx", planner_names[p],
                  (unsigned long long)h1);

        /* Observer: RRT* reports each rewiring as an edge removed plus a node added. */
        event_count events = {0, 0};
        pb_planner_set_observer(planner, count_events, &events);
        pb_planner_solve(planner, &problem, &stop, &r);
        pb_planner_set_observer(planner, NULL, NULL);
        CHECK(tp_path_hash(&r.path) == h1); /* listening changes nothing */
        if (p == 1) {
            CHECK(extra(&r, "rewires") > 0);
            CHECK(events.removed == (uint64_t)extra(&r, "rewires"));
            CHECK(events.added == r.nodes + events.removed);
        } else if (p == 0) {
            CHECK(events.removed == 0 && events.added == r.nodes);
        } else {
            CHECK(extra(&r, "pruned") > 0); /* 3000 iterations improve well past the first path */
        }
        pb_planner_destroy(planner);
    }

    /* Aliases and parameters. */
    const char *const aliases[] = {"rrtconnect", "rrt_connect", "rrt_star", "informed_rrtstar",
                                   "informedrrtstar"};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        CHECK_MSG(pb_planner_registry_find(aliases[i]) != NULL, "alias %s", aliases[i]);
    pb_planner *star = make_planner(engine, "rrtstar", 15.0);
    if (star) {
        pb_diag diag = {0};
        double v = 0;
        CHECK(pb_planner_get_param(star, "use_k_nearest", &v) == PB_OK && v == 1.0);
        CHECK(pb_planner_get_param(star, "rewire_factor", &v) == PB_OK && v == 1.1);
        CHECK(pb_planner_set_param(star, "rewire_factor", "0.5", &diag) == PB_ERR_INVALID);
        CHECK(!pb_planner_has_param(star, "prune_threshold"));
        /* Radius mode solves too and rewires. */
        CHECK(pb_planner_set_param(star, "use_k_nearest", "false", &diag) == PB_OK);
        const pb_stop_config stop = budget_stop(3000, false);
        pb_planner_set_seed(star, 5);
        CHECK(pb_planner_solve(star, &problem, &stop, &r) == PB_OK);
        check_path(&r, start, goal, "rrtstar radius");
        CHECK(extra(&r, "rewires") > 0);
        /* The iteration budget without a solution: no path, the right outcome. */
        const pb_stop_config tiny = budget_stop(5, false);
        CHECK(pb_planner_solve(star, &problem, &tiny, &r) == PB_OK);
        CHECK(r.outcome == PB_OUTCOME_NO_SOLUTION && r.path.n == 0 && r.iterations == 5);
        pb_stop_config tiny_approximate = tiny;
        tiny_approximate.approximate = true;
        CHECK(pb_planner_solve(star, &problem, &tiny_approximate, &r) == PB_OK);
        CHECK(r.outcome == PB_OUTCOME_APPROXIMATE && r.path.n >= 1 && pb_path_at(&r.path, 0)[0] == start[0]);
        pb_planner_destroy(star);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    remove(png);
    pb_image_finish(&picture);
}

/* ---- RRT* improves with iterations ---- */

static void test_rrtstar_improves(void)
{
    /* Two walls and a long step: every seed finds a path within 500 iterations, so both
     * budgets have one, and it is still far from the optimum. */
    CHECK(pb_image_init(&picture, 300, 200) == PB_OK);
    fill_rect(70, 0, 80, 160);
    fill_rect(150, 40, 160, 200);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 180.5}, goal[2] = {280.25, 20.75};
    const pb_problem problem = {start, goal, 30.0};
    pb_planner *star = make_planner(engine, "rrtstar", 30.0);
    pb_result r;
    pb_result_init(&r, 2);
    double sum_short = 0.0, sum_long = 0.0;
    for (uint64_t seed = 1; star && seed <= 5; seed++) {
        pb_planner_set_seed(star, seed);
        const pb_stop_config short_stop = budget_stop(500, false), long_stop = budget_stop(5000, false);
        pb_planner_solve(star, &problem, &short_stop, &r);
        const double c_short = check_path(&r, start, goal, "rrtstar 500");
        pb_planner_solve(star, &problem, &long_stop, &r);
        const double c_long = check_path(&r, start, goal, "rrtstar 5000");
        CHECK(extra(&r, "rewires") > 0);
        /* Same seed: the first 500 iterations are the same, and RRT* never gets worse. */
        CHECK_MSG(c_long < c_short, "seed %llu: %g after 5000 > %g after 500", (unsigned long long)seed,
                  c_long, c_short);
        sum_short += c_short;
        sum_long += c_long;
    }
    CHECK_MSG(sum_long < 0.99 * sum_short, "5000 iterations: %g, 500: %g", sum_long, sum_short);
    printf("rrtstar mean cost over 5 seeds: %.3f after 500 iterations, %.3f after 5000\n", sum_short / 5,
           sum_long / 5);
    pb_planner_destroy(star);
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    remove(png);
    pb_image_finish(&picture);
}

/* ---- asymptotic optimality ---- */

/* Budget of the optimality checks, documented in the report and above the asserts. */
#define EMPTY_BUDGET   4000
#define RECT_BUDGET    20000
#define RECT_TOLERANCE 0.05

static void test_optimal_empty(void)
{
    CHECK(pb_image_init(&picture, 300, 300) == PB_OK);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {10.5, 20.5}, goal[2] = {290.5, 270.5};
    const pb_problem problem = {start, goal, 15.0};
    const double straight = euclid(start, goal);
    pb_result r;
    pb_result_init(&r, 2);
    for (int p = 1; p < N_PLANNERS; p++) {
        pb_planner *planner = make_planner(engine, planner_names[p], 15.0);
        for (uint64_t seed = 1; planner && seed <= 3; seed++) {
            pb_planner_set_seed(planner, seed);
            const pb_stop_config stop = budget_stop(EMPTY_BUDGET, false);
            pb_planner_solve(planner, &problem, &stop, &r);
            const double c = check_path(&r, start, goal, planner_names[p]);
            CHECK_MSG(c <= 1.01 * straight, "%s seed %llu: %g after %d iterations, straight line %g",
                      planner_names[p], (unsigned long long)seed, c, EMPTY_BUDGET, straight);
            printf("%s empty map seed %llu: cost / straight line = %.5f after %d iterations\n",
                   planner_names[p], (unsigned long long)seed, c / straight, EMPTY_BUDGET);
        }
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    remove(png);
    pb_image_finish(&picture);
}

static void test_optimal_rectangles(void)
{
    CHECK(pb_image_init(&picture, 400, 300) == PB_OK);
    const tp_rect rects[] = {
        {80, 40, 120, 260}, {170, 0, 200, 150}, {250, 120, 330, 170}, {190, 220, 260, 300}};
    const int n_rects = (int)(sizeof rects / sizeof rects[0]);
    for (int i = 0; i < n_rects; i++)
        fill_rect(rects[i].x0, rects[i].y0, rects[i].x1, rects[i].y1);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 150.5}, goal[2] = {380.5, 250.5};
    const double optimum = tp_visibility_optimum(&picture, rects, n_rects, start, goal, 0.5);
    CHECK(isfinite(optimum) && optimum > euclid(start, goal));
    printf("rectangles: visibility-graph optimum %.3f, straight line %.3f\n", optimum, euclid(start, goal));
    const pb_problem problem = {start, goal, 15.0};
    pb_result r;
    pb_result_init(&r, 2);
    for (int p = 1; p < N_PLANNERS; p++) {
        pb_planner *planner = make_planner(engine, planner_names[p], 15.0);
        for (uint64_t seed = 1; planner && seed <= 3; seed++) {
            pb_planner_set_seed(planner, seed);
            const pb_stop_config stop = budget_stop(RECT_BUDGET, false);
            pb_planner_solve(planner, &problem, &stop, &r);
            const double c = check_path(&r, start, goal, planner_names[p]);
            /* No valid path is much shorter than the optimum (corners may be cut by < 1 px
             * each), and after the budget the planner is within the tolerance above it. */
            CHECK_MSG(c >= optimum - 4.0 * n_rects && c <= (1.0 + RECT_TOLERANCE) * optimum,
                      "%s seed %llu: %g after %d iterations, optimum %g", planner_names[p],
                      (unsigned long long)seed, c, RECT_BUDGET, optimum);
            printf("%s rectangles seed %llu: cost / optimum = %.5f after %d iterations\n", planner_names[p],
                   (unsigned long long)seed, c / optimum, RECT_BUDGET);
        }
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    remove(png);
    pb_image_finish(&picture);
}

/* ---- bi-RRT on the bundled narrow-passage map and maze ---- */

static void test_birrt_bundled(const char *map, uint64_t budget, int floor_successes)
{
    char file[1024];
    snprintf(file, sizeof file, "%s/maps/%s", pb_test_source_root(), map);
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_load(&engine, NULL, file, NULL, 0, &diag) == PB_OK, "%s: %s", file, diag.message);
    if (!engine)
        return;
    /* The independent reference: the map's own pixels. */
    double scale;
    CHECK(pb_image_render_engine(&picture, engine, &scale, &diag) == PB_OK && scale == 1.0);
    double start[2], goal[2];
    CHECK(pb_engine_defaults(engine, start, goal));
    const pb_problem problem = {start, goal, 50.0};
    pb_planner *planner = make_planner(engine, "birrt", 50.0);
    pb_result r;
    pb_result_init(&r, 2);
    int successes = 0;
    const int seeds = 20;
    const pb_stop_config stop = budget_stop(budget, true);
    for (uint64_t seed = 1; planner && seed <= (uint64_t)seeds; seed++) {
        pb_planner_set_seed(planner, seed);
        pb_planner_solve(planner, &problem, &stop, &r);
        if (r.outcome == PB_OUTCOME_EXACT) {
            successes++;
            check_path(&r, start, goal, map);
        }
    }
    printf("birrt on %s: %d of %d seeds solved within %llu iterations (step 50)\n", map, successes, seeds,
           (unsigned long long)budget);
    CHECK_MSG(successes >= floor_successes, "%s: %d of %d seeds solved", map, successes, seeds);
    pb_planner_destroy(planner);
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
}

/* ---- bi-RRT's balanced trees and dynamic domain (VAMP's RRTC settings) ---- */

/* Watches the balance rule through the observer: at every sample, the node counts are those
 * the planner decided on. Balanced, the tree just grown grows again exactly when the other
 * has at least twice its nodes; otherwise the trees alternate (OMPL). */
typedef struct balance_watch {
    bool balance;
    uint64_t nodes[2];
    int last_tree; /* -1 before the first sample */
    uint64_t samples, repeats, broken;
} balance_watch;

static void watch_balance(const pb_event *ev, void *payload)
{
    balance_watch *w = payload;
    if (ev->type == PB_EVENT_NODE_ADDED) {
        w->nodes[ev->tree]++;
    } else if (ev->type == PB_EVENT_SAMPLE) {
        if (w->last_tree >= 0) {
            const int last = w->last_tree;
            const bool repeat = ev->tree == last;
            const bool should_repeat = w->balance && w->nodes[!last] >= 2 * w->nodes[last];
            w->broken += repeat != should_repeat;
            w->repeats += repeat;
        }
        w->last_tree = ev->tree;
        w->samples++;
    }
}

static void test_birrt_balance_dynamic_domain(void)
{
    /* A bug trap around the goal: a box open only on the side away from the start. */
    CHECK(pb_image_init(&picture, 300, 300) == PB_OK);
    fill_rect(100, 100, 200, 106);
    fill_rect(100, 194, 200, 200);
    fill_rect(100, 100, 106, 200);
    fill_rect(194, 100, 200, 140);
    fill_rect(194, 160, 200, 200);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 20.5}, goal[2] = {150.5, 150.5};
    const pb_problem problem = {start, goal, 15.0};
    static const char *const settings[][2] = {
        {"0", "0"}, /* OMPL's RRTConnect */
        {"1", "0"},
        {"0", "40"},
        {"1", "40"}, /* VAMP's RRTC */
    };
    pb_result r;
    pb_result_init(&r, 2);
    for (size_t k = 0; k < sizeof settings / sizeof settings[0]; k++) {
        pb_planner *planner = make_planner(engine, "birrt", 15.0);
        pb_diag diag = {0};
        const bool balance = settings[k][0][0] == '1', dynamic = settings[k][1][0] != '0';
        CHECK(planner && pb_planner_set_param(planner, "balance", settings[k][0], &diag) == PB_OK);
        CHECK(planner && pb_planner_set_param(planner, "dynamic_domain", settings[k][1], &diag) == PB_OK);
        int solved = 0;
        uint64_t repeats = 0, broken = 0, rejecting_runs = 0;
        for (uint64_t seed = 1; planner && seed <= 10; seed++) {
            balance_watch w = {.balance = balance, .last_tree = -1};
            pb_planner_set_seed(planner, seed);
            pb_planner_set_observer(planner, watch_balance, &w);
            const pb_stop_config stop = budget_stop(100000, true);
            pb_planner_solve(planner, &problem, &stop, &r);
            pb_planner_set_observer(planner, NULL, NULL);
            if (r.outcome == PB_OUTCOME_EXACT) {
                solved++;
                check_path(&r, start, goal, "birrt in the bug trap");
            }
            CHECK(w.samples == r.iterations);
            repeats += w.repeats;
            broken += w.broken;
            /* Every iteration extends once (one edge check) unless the dynamic domain turned its
             * sample away: fewer edge checks than iterations means samples were rejected. */
            rejecting_runs += r.counters.n_visible < r.iterations;
        }
        printf("birrt balance=%s dynamic_domain=%s in the bug trap: %d of 10 solved, %llu repeated "
               "extensions, %llu runs rejected samples\n",
               settings[k][0], settings[k][1], solved, (unsigned long long)repeats,
               (unsigned long long)rejecting_runs);
        CHECK_MSG(solved == 10, "balance=%s dynamic_domain=%s: %d of 10 solved", settings[k][0],
                  settings[k][1], solved);
        CHECK_MSG(broken == 0, "balance=%s: %llu iterations broke the alternation rule", settings[k][0],
                  (unsigned long long)broken);
        CHECK(balance ? repeats > 0 : repeats == 0);
        CHECK(dynamic ? rejecting_runs > 0 : rejecting_runs == 0);
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
}

/* ---- shortcutting ---- */

static void test_simplify(void)
{
    CHECK(pb_image_init(&picture, 300, 200) == PB_OK);
    fill_rect(70, 0, 80, 160);
    fill_rect(150, 40, 160, 200);
    fill_rect(220, 0, 230, 150);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 180.5}, goal[2] = {280.25, 20.75};
    const pb_problem problem = {start, goal, 15.0};
    pb_planner *planner = make_planner(engine, "birrt", 15.0);
    pb_result r;
    pb_result_init(&r, 2);
    pb_rng rng;
    double total_before = 0.0, total_after = 0.0;
    for (uint64_t seed = 1; planner && seed <= 10; seed++) {
        pb_planner_set_seed(planner, seed);
        const pb_stop_config stop = budget_stop(200000, true);
        pb_planner_solve(planner, &problem, &stop, &r);
        check_path(&r, start, goal, "birrt before shortcutting");
        const size_t n_before = r.path.n;
        pb_rng_seed(&rng, seed);
        double before = 0, after = 0;
        CHECK(pb_path_simplify(&r.path, engine, &rng, 200, &before, &after) == PB_OK);
        CHECK_NEAR(before, r.cost, 1e-9 * r.cost);
        CHECK_MSG(after <= before, "seed %llu: %g after, %g before", (unsigned long long)seed, after, before);
        CHECK(r.path.n >= 2 && r.path.n <= n_before);
        CHECK_NEAR(check_geometry(&r.path, start, goal, "birrt after shortcutting"), after, 1e-9 * after);
        total_before += before;
        total_after += after;
    }
    /* birrt's paths are jagged: shortcutting must actually shorten them. */
    CHECK_MSG(total_after < 0.9 * total_before, "shortcutting: %g before, %g after", total_before,
              total_after);
    printf("shortcutting 10 birrt paths: total length %.1f -> %.1f\n", total_before, total_after);

    /* A detour in free space becomes the straight line; duplicates and collinear points go. */
    pb_path path;
    pb_path_init(&path, 2);
    const double pts[][2] = {{20.5, 180.5}, {20.5, 180.5}, {40.5, 190.5}, {30.5, 120.5},
                             {35.5, 110.5}, {40.5, 100.5}, {60.5, 20.5},  {60.5, 20.5}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        pb_path_append(&path, pts[i]);
    double before = 0, after = 0;
    pb_rng_seed(&rng, 7);
    CHECK(pb_path_simplify(&path, engine, &rng, 0, &before, &after) == PB_OK);
    CHECK(path.n == 2);
    CHECK(pb_path_at(&path, 0)[0] == 20.5 && pb_path_at(&path, 0)[1] == 180.5);
    CHECK(pb_path_at(&path, path.n - 1)[0] == 60.5 && pb_path_at(&path, path.n - 1)[1] == 20.5);
    CHECK_NEAR(after, euclid(pts[0], pts[7]), 1e-9);
    /* Two points and one point: unchanged. */
    CHECK(pb_path_simplify(&path, engine, &rng, 10, &before, &after) == PB_OK && path.n == 2 &&
          after == before);
    pb_path_finish(&path);

    pb_planner_destroy(planner);
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    remove(png);
    pb_image_finish(&picture);
}

/* ---- the informed sampler ---- */

static bool always_free(const double *q, void *ctx)
{
    (void)q;
    (void)ctx;
    return true;
}

static void test_informed_sampler(void)
{
    pb_blackbox_config params = pb_blackbox_config_default(3);
    params.feasible = always_free;
    for (int i = 0; i < 3; i++)
        params.lower[i] = -1.0, params.upper[i] = 2.0;
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_OK);
    if (!engine)
        return;
    const double start[3] = {0.1, 0.2, 0.3}, goal[3] = {0.9, 0.7, 0.4};
    pb_informed_sampler sampler;
    pb_informed_init(&sampler, engine, start, goal);
    CHECK(sampler.exact);
    const double c_min = pb_engine_distance(engine, start, goal);
    CHECK_NEAR(sampler.c_min, c_min, 1e-12);
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    /* A small set (the hyperspheroid is sampled directly) and one larger than the bounds
     * (rejection from the bounds). */
    const double costs[2] = {1.1 * c_min, 6.0 * c_min};
    for (int k = 0; k < 2; k++) {
        const int n = 4000;
        int outside = 0, beyond = 0, near_edge = 0, forward = 0;
        for (int i = 0; i < n; i++) {
            double q[3];
            pb_informed_sample(&sampler, engine, &rng, costs[k], q);
            for (int j = 0; j < 3; j++)
                outside += q[j] < params.lower[j] || q[j] >= params.upper[j];
            const double f = pb_engine_distance(engine, start, q) + pb_engine_distance(engine, q, goal);
            beyond += f > costs[k] * (1.0 + 1e-9);
            near_edge += f > 0.99 * costs[k];
            forward += pb_engine_distance(engine, q, goal) < pb_engine_distance(engine, q, start);
        }
        CHECK_MSG(outside == 0 && beyond == 0, "cost %g: %d outside the bounds, %d outside the set", costs[k],
                  outside, beyond);
        /* For the small set, which the bounds do not clip: uniform (as many samples in the
         * outer shell as its volume says) and symmetric about the plane between the foci. */
        if (k == 0) {
            /* The shell {0.99 c < f <= c} holds 1 - vol(c')/vol(c) of the set, the volume
             * of a 3-D prolate spheroid being proportional to c (c^2 - c_min^2). */
            const double c = costs[k], c2 = 0.99 * c;
            const double shell = 1.0 - (c2 * (c2 * c2 - c_min * c_min)) / (c * (c * c - c_min * c_min));
            CHECK_MSG(fabs((double)near_edge / n - shell) < 0.03,
                      "%d of %d samples in the outer shell, expected %g", near_edge, n, shell);
            CHECK_MSG(abs(2 * forward - n) < n / 10, "%d of %d samples nearer the goal", forward, n);
        }
    }
    pb_engine_destroy(engine);
}

/* ---- other engines: a 3-D black box and the 4D stick arm ---- */

static bool outside_ball(const double *q, void *ctx)
{
    (void)ctx;
    const double dx = q[0] - 0.5, dy = q[1] - 0.5, dz = q[2] - 0.5;
    return dx * dx + dy * dy + dz * dz > 0.3 * 0.3;
}

static void run_on_engine(pb_engine *engine, const double *start, const double *goal, double step,
                          double radius, uint64_t anytime_budget, const char *what)
{
    const pb_problem problem = {start, goal, radius};
    pb_result r;
    pb_result_init(&r, pb_engine_dim(engine));
    for (int p = 0; p < N_PLANNERS; p++) {
        pb_planner *planner = make_planner(engine, planner_names[p], step);
        const bool anytime = p > 0;
        const pb_stop_config stop = budget_stop(anytime ? anytime_budget : 200000, !anytime);
        for (uint64_t seed = 1; planner && seed <= 3; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            pb_diag diag = {0};
            CHECK_MSG(r.outcome == PB_OUTCOME_EXACT, "%s %s seed %llu: %s", what, planner_names[p],
                      (unsigned long long)seed, pb_outcome_str(r.outcome));
            if (r.outcome != PB_OUTCOME_EXACT)
                continue;
            CHECK_MSG(pb_path_validate(&r.path, engine, start, goal, &diag), "%s %s: %s", what,
                      planner_names[p], diag.message);
            CHECK_NEAR(r.cost, pb_path_length(&r.path, engine), 1e-9 * r.cost);
            CHECK(r.cost >= pb_engine_distance(engine, start, goal) * (1.0 - 1e-12));
            pb_rng rng;
            pb_rng_seed(&rng, seed);
            double before = 0, after = 0;
            CHECK(pb_path_simplify(&r.path, engine, &rng, 50, &before, &after) == PB_OK && after <= before);
            CHECK_MSG(pb_path_validate(&r.path, engine, start, goal, &diag), "%s %s simplified: %s", what,
                      planner_names[p], diag.message);
        }
        printf("%s %s: last cost %.4f (straight line %.4f)\n", what, planner_names[p], r.cost,
               pb_engine_distance(engine, start, goal));
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
}

static void test_other_engines(void)
{
    pb_blackbox_config params = pb_blackbox_config_default(3);
    params.feasible = outside_ball;
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK(pb_blackbox_create(&engine, &params, &diag) == PB_OK);
    if (engine) {
        const double start[3] = {0.1, 0.1, 0.1}, goal[3] = {0.9, 0.9, 0.9};
        run_on_engine(engine, start, goal, 0.1, 0.1, 2000, "blackbox 3-D");
        pb_engine_destroy(engine);
    }

    char file[1024];
    snprintf(file, sizeof file, "%s/maps/4d.png", pb_test_source_root());
    engine = NULL;
    CHECK_MSG(pb_engine_load(&engine, "stickarm4d", file, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    if (engine) {
        double start[4], goal[4];
        CHECK(pb_engine_defaults(engine, start, goal));
        run_on_engine(engine, start, goal, 60.0, 60.0, 1500, "stickarm4d");
        pb_engine_destroy(engine);
    }
}

int main(void)
{
    test_zigzag();
    test_rrtstar_improves();
    test_optimal_empty();
    test_optimal_rectangles();
    /* Budgets: narrow 20000 iterations, maze 400000 (step 50); floors: 19 and 18 of 20. */
    test_birrt_bundled("narrow.png", 20000, 19);
    test_birrt_bundled("maze.png", 400000, 18);
    test_birrt_balance_dynamic_domain();
    test_simplify();
    test_informed_sampler();
    test_other_engines();
    return pb_test_summary("planners");
}
