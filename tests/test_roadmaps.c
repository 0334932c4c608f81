/* PRM*, lazy PRM, BIT* and RRdT* on the image engine, with every returned path re-validated
 * independently of the library (start and goal exact, every edge's pixels free by a
 * closed-form Bresenham, cost equal to the Euclidean length); determinism pinned by a hash
 * per planner; asymptotic optimality against a straight line and against a visibility-graph
 * optimum computed here; RRdT* success rates on the bundled narrow-passage map and maze; and
 * every planner on a 3-D black box and the 4-D arm, re-validated with pb_path_validate.
 *
 * Budgets are iteration counts (not times) so that results do not depend on the machine. */
#include "harness.h"
#include "picture.h"
#include "planbench/blackbox.h"
#include "planbench/planbench.h"
#include "planners/roadmap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pb_image picture; /* the map as written: the independent reference */

static bool edge_free(const double *a, const double *b)
{
    return tp_edge_free(&picture, a, b);
}

static void fill_rect(tp_rect r)
{
    tp_fill_rect(&picture, r);
}
static pb_engine *load_picture(char *png, size_t size)
{
    return tp_load_picture(&picture, png, size);
}

static bool check_path(const pb_result *r, const double *start, const double *goal, const char *what)
{
    const int failures = pb_test_failures;
    CHECK_MSG(r->outcome == PB_OUTCOME_EXACT, "%s: outcome %s", what, pb_outcome_str(r->outcome));
    CHECK_MSG(r->path.n >= 2, "%s: path has %zu points", what, r->path.n);
    if (r->path.n < 2)
        return false;
    const double *first = pb_path_at(&r->path, 0), *last = pb_path_at(&r->path, r->path.n - 1);
    CHECK_MSG(first[0] == start[0] && first[1] == start[1], "%s: path does not begin at the start", what);
    CHECK_MSG(last[0] == goal[0] && last[1] == goal[1], "%s: path does not end at the goal", what);
    double length = 0.0;
    int blocked = 0;
    for (size_t i = 1; i < r->path.n; i++) {
        const double *p = pb_path_at(&r->path, i - 1), *q = pb_path_at(&r->path, i);
        length += hypot(q[0] - p[0], q[1] - p[1]);
        blocked += !edge_free(p, q);
    }
    CHECK_MSG(blocked == 0, "%s: %d edges cross obstacles", what, blocked);
    CHECK_NEAR(r->cost, length, 1e-9 * length);
    CHECK(r->time_to_first_s >= 0.0 && r->time_to_first_s <= r->time_s);
    CHECK(r->iterations > 0);
    /* the cost trace improves strictly and ends at the returned cost */
    CHECK_MSG(r->n_cost_trace >= 1, "%s: empty cost trace", what);
    for (size_t i = 1; i < r->n_cost_trace; i++)
        CHECK_MSG(r->cost_trace[i].cost < r->cost_trace[i - 1].cost &&
                      r->cost_trace[i].time_s >= r->cost_trace[i - 1].time_s,
                  "%s: cost trace not improving at %zu", what, i);
    if (r->n_cost_trace)
        CHECK_NEAR(r->cost_trace[r->n_cost_trace - 1].cost, r->cost, 1e-6 * r->cost);
    return pb_test_failures == failures;
}

static const char *const planners[] = {"prm", "lazyprm", "bitstar", "rrdt"};
#define N_PLANNERS (sizeof planners / sizeof planners[0])

static pb_planner *make(const char *name, pb_engine *engine)
{
    pb_planner *p = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_planner_create(&p, name, engine, &diag) == PB_OK, "%s: %s", name, diag.message);
    return p;
}

/* Zig-zag map: every planner, several seeds, first solution and an anytime budget. */
static void test_zigzag(void)
{
    CHECK(pb_image_init(&picture, 300, 200) == PB_OK);
    fill_rect((tp_rect){70, 0, 80, 160});
    fill_rect((tp_rect){150, 40, 160, 200});
    fill_rect((tp_rect){220, 0, 230, 150});
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {20.5, 180.5}, goal[2] = {280.25, 20.75};
    pb_problem problem = {start, goal, 15.0};
    pb_result r;
    pb_result_init(&r, 2);
    /* Determinism pins: the path hash for seed 3 under an iteration budget. */
    const uint64_t pins[N_PLANNERS] = {
        0x0799af52458614cdull, 0x89efc4df3c1cbd30ull, 0x9ef81861135a59b5ull,
        0x52aab37c00430d21ull}; /* rrdt re-pinned in session 5: its walk is drawn in the engine's
                                 * metric, with momentum, the rooted tree takes
                                 * uniform samples and every tree is rewired with
                                 * RRT*'s k nearest (issue 14) */
    for (size_t p = 0; p < N_PLANNERS; p++) {
        pb_planner *planner = make(planners[p], engine);
        if (!planner)
            continue;
        pb_planner_set_param_double(planner, "step_size", 15.0, NULL);
        CHECK(pb_planner_impl_anytime(pb_planner_registry_find(planners[p])));
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 30.0;
        for (uint64_t seed = 1; seed <= 5; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            char what[64];
            snprintf(what, sizeof what, "%s seed %llu first", planners[p], (unsigned long long)seed);
            check_path(&r, start, goal, what);
        }
        /* anytime: keep improving under an iteration budget */
        stop.first_solution = false;
        stop.max_iterations = 3000;
        pb_planner_set_seed(planner, 3);
        CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
        char what[64];
        snprintf(what, sizeof what, "%s seed 3 budget", planners[p]);
        check_path(&r, start, goal, what);
        CHECK_MSG(r.iterations == 3000 || r.outcome == PB_OUTCOME_EXACT, "%s: %llu iterations", planners[p],
                  (unsigned long long)r.iterations);
        const uint64_t h = tp_path_hash(&r.path);
        const double cost = r.cost;
        CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
        CHECK_MSG(tp_path_hash(&r.path) == h && r.cost == cost, "%s: not deterministic", planners[p]);
        printf("%s seed 3, 3000 iterations: cost %.3f, %zu waypoints, %llu nodes, hash %016llx\n",
               planners[p], cost, r.path.n, (unsigned long long)r.nodes, (unsigned long long)h);
        if (pins[p])
            CHECK_MSG(h == pins[p], "%s: pinned path hash changed: %016llx", planners[p],
                      (unsigned long long)h);

        /* outcomes */
        const double in_wall[2] = {75.5, 50.5};
        problem.start = in_wall;
        pb_planner_solve(planner, &problem, &stop, &r);
        CHECK(r.outcome == PB_OUTCOME_INVALID_START && r.path.n == 0);
        problem.start = start;
        stop.max_iterations = 3;
        stop.first_solution = true;
        pb_planner_solve(planner, &problem, &stop, &r);
        CHECK_MSG(r.outcome == PB_OUTCOME_NO_SOLUTION && r.path.n == 0 && r.cost == INFINITY, "%s: %s",
                  planners[p], pb_outcome_str(r.outcome));
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
    remove(png);
}

/* Asymptotic optimality, measured: empty map (straight line) and rectangles (visibility
 * graph). The budgets are iteration counts stated next to each check. */
static void test_optimality(void)
{
    CHECK(pb_image_init(&picture, 200, 200) == PB_OK);
    char png[64];
    pb_engine *engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double start[2] = {10.5, 15.5}, goal[2] = {185.5, 180.5};
    const double straight = hypot(goal[0] - start[0], goal[1] - start[1]);
    pb_problem problem = {start, goal, 10.0};
    pb_result r;
    pb_result_init(&r, 2);
    pb_stop_config stop = pb_stop_config_default();
    stop.first_solution = false;
    stop.time_limit_s = 60.0;
    static const char *const optimal[] = {"prm", "bitstar"};
    static const uint64_t budget[] = {4000, 4000};
    for (int p = 0; p < 2; p++) {
        pb_planner *planner = make(optimal[p], engine);
        if (!planner)
            continue;
        stop.max_iterations = budget[p];
        double first = 0.0;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            check_path(&r, start, goal, optimal[p]);
            printf(
                "%s empty map seed %llu, %llu iterations: cost %.4f, straight %.4f (+%.3f%%), first %.4f\n",
                optimal[p], (unsigned long long)seed, (unsigned long long)budget[p], r.cost, straight,
                100.0 * (r.cost / straight - 1.0), r.n_cost_trace ? r.cost_trace[0].cost : 0.0);
            CHECK_MSG(r.cost <= 1.01 * straight, "%s: cost %.4f not within 1%% of %.4f", optimal[p], r.cost,
                      straight);
            first = r.n_cost_trace ? r.cost_trace[0].cost : 0.0;
        }
        (void)first;
        pb_planner_destroy(planner);
    }
    pb_engine_destroy(engine);
    remove(png);

    /* rectangles: a field of blocks between the start and the goal */
    const tp_rect rects[] = {
        {40, 30, 70, 120}, {100, 80, 130, 190}, {60, 150, 90, 185}, {140, 20, 170, 70}, {20, 140, 40, 160}};
    const int n_rects = (int)(sizeof rects / sizeof rects[0]);
    for (int i = 0; i < n_rects; i++)
        fill_rect(rects[i]);
    engine = load_picture(png, sizeof png);
    if (!engine)
        return;
    const double opt = tp_visibility_optimum(&picture, rects, n_rects, start, goal, 1.0);
    CHECK(isfinite(opt) && opt > straight);
    static const char *const anytime[] = {"prm", "bitstar", "lazyprm", "rrdt"};
    static const uint64_t budget2[] = {6000, 6000, 6000, 20000};
    static const double tolerance[] = {0.03, 0.03, 0.03, 0.10};
    for (int p = 0; p < 4; p++) {
        pb_planner *planner = make(anytime[p], engine);
        if (!planner)
            continue;
        stop.max_iterations = budget2[p];
        for (uint64_t seed = 1; seed <= 3; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            check_path(&r, start, goal, anytime[p]);
            printf("%s rectangles seed %llu, %llu iterations: cost %.3f, visibility optimum %.3f (%+.2f%%)\n",
                   anytime[p], (unsigned long long)seed, (unsigned long long)budget2[p], r.cost, opt,
                   100.0 * (r.cost / opt - 1.0));
            CHECK_MSG(r.cost <= (1.0 + tolerance[p]) * opt && r.cost >= 0.98 * opt,
                      "%s: cost %.3f vs optimum %.3f", anytime[p], r.cost, opt);
        }
        pb_planner_destroy(planner);
    }
    pb_result_finish(&r);
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
    remove(png);
}

/* RRdT* on the bundled narrow passage and maze: success rate over several seeds under an
 * iteration budget, at step 50 (the benchmark's step). Measured with these budgets: narrow
 * 9/10 seeds (solved after 5k-46k iterations), maze 8/8 seeds (25k-78k iterations). The
 * floors leave room for a seed or two; the seed counts keep the test short. */
static void test_rrdt_maps(void)
{
    static const char *const maps[] = {"narrow", "maze"};
    static const uint64_t budget[] = {60000, 100000};
    static const double step[] = {50.0, 50.0};
    static const int seeds[] = {10, 6};
    static const int floor_ok[] = {7, 5};
    pb_result r;
    pb_result_init(&r, 2);
    for (int m = 0; m < 2; m++) {
        char file[1024];
        snprintf(file, sizeof file, "%s/maps/%s.png", pb_test_source_root(), maps[m]);
        pb_engine *engine = NULL;
        pb_diag diag = {0};
        CHECK_MSG(pb_engine_load(&engine, NULL, file, NULL, 0, &diag) == PB_OK, "%s", diag.message);
        if (!engine)
            continue;
        double start[2], goal[2];
        CHECK(pb_engine_defaults(engine, start, goal));
        pb_planner *planner = make("rrdt", engine);
        pb_planner_set_param_double(planner, "step_size", step[m], NULL);
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 0.0;
        stop.max_iterations = budget[m];
        const double goal_radius = step[m];
        pb_problem problem = {start, goal, goal_radius};
        int ok = 0;
        for (uint64_t seed = 1; seed <= (uint64_t)seeds[m]; seed++) {
            pb_planner_set_seed(planner, seed);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            if (r.outcome == PB_OUTCOME_EXACT) {
                ok++;
                CHECK(pb_path_validate(&r.path, engine, start, goal, &diag));
            }
        }
        printf("rrdt %s: %d/%d seeds solved within %llu iterations\n", maps[m], ok, seeds[m],
               (unsigned long long)budget[m]);
        CHECK_MSG(ok >= floor_ok[m], "rrdt %s: only %d/%d solved", maps[m], ok, seeds[m]);
        pb_planner_destroy(planner);
        pb_engine_destroy(engine);
    }
    pb_result_finish(&r);
}

/* A sphere of radius 0.3 at the centre of the unit cube blocks the straight line. */
static bool outside_sphere(const double *q, void *ctx)
{
    (void)ctx;
    const double dx = q[0] - 0.5, dy = q[1] - 0.5, dz = q[2] - 0.5;
    return dx * dx + dy * dy + dz * dz > 0.09;
}

static void test_other_engines(void)
{
    pb_blackbox_config bp = pb_blackbox_config_default(3);
    bp.feasible = outside_sphere;
    pb_engine *box = NULL;
    pb_diag diag = {0};
    CHECK(pb_blackbox_create(&box, &bp, &diag) == PB_OK);
    pb_engine *arm = NULL;
    char file[1024];
    snprintf(file, sizeof file, "%s/maps/4d.png", pb_test_source_root());
    CHECK_MSG(pb_engine_load(&arm, "stickarm4d", file, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    pb_result r;
    for (int e = 0; e < 2; e++) {
        pb_engine *engine = e == 0 ? box : arm;
        if (!engine)
            continue;
        const int dim = pb_engine_dim(engine);
        double start[PB_MAX_DIM] = {0.1, 0.1, 0.1}, goal[PB_MAX_DIM] = {0.9, 0.9, 0.9};
        if (e == 1)
            CHECK(pb_engine_defaults(engine, start, goal));
        pb_result_init(&r, dim);
        pb_problem problem = {start, goal, 0.05 * pb_engine_extent(engine)};
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 0.0;
        stop.max_iterations = 100000;
        for (size_t p = 0; p < N_PLANNERS; p++) {
            pb_planner *planner = make(planners[p], engine);
            if (!planner)
                continue;
            pb_planner_set_seed(planner, 7);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r) == PB_OK);
            CHECK_MSG(r.outcome == PB_OUTCOME_EXACT, "%s on %s: %s", planners[p], pb_engine_name(engine),
                      pb_outcome_str(r.outcome));
            if (r.outcome == PB_OUTCOME_EXACT) {
                CHECK_MSG(pb_path_validate(&r.path, engine, start, goal, &diag), "%s on %s: %s", planners[p],
                          pb_engine_name(engine), diag.message);
                CHECK_NEAR(r.cost, pb_path_length(&r.path, engine), 1e-9 * r.cost);
            }
            printf("%s on %s (dim %d): %s, cost %.4f, %llu iterations\n", planners[p], pb_engine_name(engine),
                   dim, pb_outcome_str(r.outcome), r.cost, (unsigned long long)r.iterations);
            pb_planner_destroy(planner);
        }
        pb_result_finish(&r);
    }
    pb_engine_destroy(box);
    pb_engine_destroy(arm);
}

/* A ball of radius 0.3 in the middle of the unit cube, in any dimension. */
static bool outside_ball(const double *q, void *ctx)
{
    const int dim = *(const int *)ctx;
    double sum = 0.0;
    for (int i = 0; i < dim; i++)
        sum += (q[i] - 0.5) * (q[i] - 0.5);
    return sum > 0.09;
}

/* PRM*'s and lazy PRM's batched k-nearest (64 samples' candidates from one distance matrix,
 * GEMM when built with OpenBLAS) must build the very roadmap of the one-query-at-a-time
 * kd-tree, and BIT*'s (64 queued vertices' nearest states at once) the very same search: same
 * vertices, edges (BIT*: rewirings), edge checks, path and cost, in 7 dimensions (where -1, the
 * default, picks the batch when BLAS is there) and on a 2-D map (batch forced), where lazy
 * PRM also removes vertices between the batch's computation and its use. */
static void test_prm_batch_knn(void)
{
    static int dim = 7;
    pb_blackbox_config bp = pb_blackbox_config_default(dim);
    bp.feasible = outside_ball;
    bp.payload = &dim;
    pb_engine *box = NULL;
    pb_diag diag = {0};
    CHECK(pb_blackbox_create(&box, &bp, &diag) == PB_OK);
    char file[1024];
    snprintf(file, sizeof file, "%s/maps/room1.png", pb_test_source_root());
    pb_engine *map = NULL;
    CHECK_MSG(pb_engine_load(&map, "image2d", file, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    static const char *const names[] = {"prm", "lazyprm", "bitstar"};
    for (int t = 0; t < 6 && box && map; t++) {
        const int e = t % 2;
        const char *name = names[t / 2];
        pb_engine *engine = e == 0 ? box : map;
        const int d = pb_engine_dim(engine);
        double start[PB_MAX_DIM], goal[PB_MAX_DIM];
        for (int i = 0; i < d; i++) {
            start[i] = 0.05;
            goal[i] = 0.95;
        }
        if (e == 1)
            CHECK(pb_engine_defaults(engine, start, goal));
        pb_problem problem = {start, goal, 1e-9};
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 0.0;
        stop.max_iterations = 3000;
        stop.first_solution = false;
        pb_result r[2];
        for (int b = 0; b < 2; b++) {
            pb_result_init(&r[b], d);
            pb_planner *planner = make(name, engine);
            CHECK(pb_planner_set_param(planner, "batch_knn",
                                       b == 0   ? "0"
                                       : e == 0 ? "-1"
                                                : "1",
                                       &diag) == PB_OK);
            pb_planner_set_seed(planner, 11);
            CHECK(pb_planner_solve(planner, &problem, &stop, &r[b]) == PB_OK);
            pb_planner_destroy(planner);
        }
        char what[64];
        snprintf(what, sizeof what, "%s on %s", name, e == 0 ? "7-D ball" : "room1");
        CHECK_MSG(r[0].outcome == PB_OUTCOME_EXACT && r[1].outcome == PB_OUTCOME_EXACT, "%s: %s / %s", what,
                  pb_outcome_str(r[0].outcome), pb_outcome_str(r[1].outcome));
        CHECK_MSG(r[0].nodes == r[1].nodes && r[0].iterations == r[1].iterations, "%s: %llu/%llu nodes", what,
                  (unsigned long long)r[0].nodes, (unsigned long long)r[1].nodes);
        CHECK_MSG(r[0].counters.n_visible == r[1].counters.n_visible, "%s: %llu/%llu edge checks", what,
                  (unsigned long long)r[0].counters.n_visible, (unsigned long long)r[1].counters.n_visible);
        double edges[2] = {0, 0}; /* roadmap edges; BIT*: rewirings */
        const char *count = t < 4 ? "edges" : "rewirings";
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < r[b].n_extra; i++)
                if (strcmp(r[b].extra[i].name, count) == 0)
                    edges[b] = r[b].extra[i].value;
        CHECK_MSG(edges[0] > 0 && edges[0] == edges[1], "%s: %.0f/%.0f edges", what, edges[0], edges[1]);
        CHECK_MSG(r[0].cost == r[1].cost && r[0].path.n == r[1].path.n, "%s: cost %.9g/%.9g", what, r[0].cost,
                  r[1].cost);
        CHECK(pb_path_validate(&r[1].path, engine, start, goal, &diag));
        printf("batch_knn, %s: %llu nodes, %.0f edges, cost %.4f either way\n", what,
               (unsigned long long)r[0].nodes, edges[0], r[0].cost);
        pb_result_finish(&r[0]);
        pb_result_finish(&r[1]);
    }
    pb_engine_destroy(box);
    pb_engine_destroy(map);
}

/* A* with the exact cost-to-go of pb_roadmap_exact_heuristic, kept while edges are removed
 * (lazy PRM's repair loop), must find paths exactly as short as A* with the straight-line
 * heuristic alone, and agree on when none is left. A random roadmap in the unit square. */
static void test_exact_heuristic(void)
{
    pb_blackbox_config bp = pb_blackbox_config_default(2);
    bp.feasible = outside_sphere; /* only the bounds and the metric matter here */
    pb_engine *box = NULL;
    pb_diag diag = {0};
    CHECK(pb_blackbox_create(&box, &bp, &diag) == PB_OK);
    if (!box)
        return;
    pb_roadmap rm;
    CHECK(pb_roadmap_init(&rm, box) == PB_OK);
    pb_rng rng;
    pb_rng_seed(&rng, 5);
    const uint32_t n = 400;
    for (uint32_t i = 0; i < n; i++) {
        const double q[2] = {i == 0   ? 0.02
                             : i == 1 ? 0.98
                                      : pb_rng_uniform(&rng),
                             i == 0   ? 0.02
                             : i == 1 ? 0.98
                                      : pb_rng_uniform(&rng)};
        CHECK(pb_roadmap_add_vertex(&rm, q) == i);
    }
    pb_nn_hits near = {0};
    for (uint32_t v = 0; v < n; v++) {
        CHECK(pb_roadmap_near(&rm, pb_roadmap_q(&rm, v), false, 1.0, &near) == PB_OK);
        for (size_t i = 0; i < near.n; i++)
            if (near.ids[i] > v)
                pb_roadmap_add_edge(&rm, v, near.ids[i], near.dists[i], PB_RM_UNCHECKED);
    }
    CHECK(!rm.h_valid);
    CHECK(pb_roadmap_exact_heuristic(&rm, 1) == PB_OK && rm.h_valid);
    int rounds = 0, agreed = 0;
    for (;; rounds++) {
        double with_h = -1.0, without = -1.0;
        pb_status st;
        const bool found_h = pb_roadmap_astar(&rm, 0, 1, &with_h, &st);
        rm.h_valid = false; /* the same search, straight-line heuristic only */
        const bool found = pb_roadmap_astar(&rm, 0, 1, &without, &st);
        rm.h_valid = true;
        CHECK_MSG(found == found_h, "round %d: a path %s with the exact heuristic only", rounds,
                  found_h ? "found" : "missed");
        if (found && found_h) {
            CHECK_MSG(fabs(with_h - without) <= 1e-12 * without, "round %d: %.15g vs %.15g", rounds, with_h,
                      without);
            agreed += fabs(with_h - without) <= 1e-12 * without;
        }
        if (!found)
            break;
        /* remove the middle edge of that path, as a failed lazy check would */
        uint32_t *edges = malloc((size_t)rm.n * sizeof *edges);
        const size_t k = pb_roadmap_path_edges(&rm, 1, edges);
        rm.state[edges[k / 2] / 2] = PB_RM_INVALID;
        free(edges);
        if (rounds % 10 == 9) /* and now and then refresh it, as the repair loop does */
            CHECK(pb_roadmap_exact_heuristic(&rm, 1) == PB_OK);
    }
    CHECK_MSG(rounds > 20 && agreed == rounds, "%d rounds, %d agreed", rounds, agreed);
    printf("exact heuristic: %d searches agreed with the straight-line A* until no path was left\n", rounds);
    pb_nn_hits_finish(&near);
    pb_roadmap_finish(&rm);
    pb_engine_destroy(box);
}

int main(void)
{
    test_exact_heuristic();
    test_prm_batch_knn();
    test_zigzag();
    test_optimality();
    test_rrdt_maps();
    test_other_engines();
    return pb_test_summary("roadmaps");
}
