/* The car engine (issue 18): a vehicle's footprint on a metric map with Reeds-Shepp and
 * Dubins edges.
 *
 * The map is written by the test: Autoware's hybrid A* test lot (30 x 30 m at 0.2 m cells,
 * four parked cars of 5.5 x 2.75 m), drawn into a PGM with its map_server YAML. Every path a
 * planner returns is re-checked independently of the engine: each edge's curve word is
 * re-integrated here (own arcs and lines, not pb_curve_point) and must end on the next
 * waypoint; the footprint is checked whole (pb_engine_footprint_check) at poses no footprint
 * point is more than a twentieth of a cell from the next, finer than the engine's sweep
 * guarantees to need; the cost is the sum of the curve lengths. Budgets are iterations. */
#include "harness.h"
#include "planbench/planbench.h"
#include "planbench/vehicle.h"
#include "core/nn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOT_CELLS 150 /* 30 m at 0.2 m */
#define CELL      0.2

static char dir[256];
static const char *current = ""; /* the planner under test, for messages */
static char yaml_path[512];

/* Parked cars: centre x, y and size (metres, the lot's frame, y up). */
static const double parked[4][4] = {
    {9.0, 12.0, 2.75, 5.5}, {12.5, 12.0, 2.75, 5.5}, {19.5, 12.0, 2.75, 5.5}, {23.0, 12.0, 2.75, 5.5}};

static bool in_parked(double x, double y)
{
    for (int k = 0; k < 4; k++)
        if (fabs(x - parked[k][0]) < 0.5 * parked[k][2] && fabs(y - parked[k][1]) < 0.5 * parked[k][3])
            return true;
    return false;
}

/* Write the lot: a cell is occupied when its centre lies in a parked car. */
static bool write_lot(void)
{
    snprintf(dir, sizeof dir, "/tmp/pb_test_car_%ld", (long)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd) != 0)
        return false;
    char pgm[512];
    snprintf(pgm, sizeof pgm, "%s/lot.pgm", dir);
    FILE *f = fopen(pgm, "wb");
    if (!f)
        return false;
    fprintf(f, "P5\n%d %d\n255\n", LOT_CELLS, LOT_CELLS);
    for (int row = 0; row < LOT_CELLS; row++) /* the image's top row is the lot's north */
        for (int col = 0; col < LOT_CELLS; col++) {
            const double x = (col + 0.5) * CELL, y = (LOT_CELLS - row - 0.5) * CELL;
            fputc(in_parked(x, y) ? 0 : 254, f);
        }
    fclose(f);
    snprintf(yaml_path, sizeof yaml_path, "%s/lot.yaml", dir);
    f = fopen(yaml_path, "w");
    if (!f)
        return false;
    fprintf(f,
            "image: lot.pgm\nmode: trinary\nresolution: %g\norigin: [0.0, 0.0, 0.0]\nnegate: 0\n"
            "occupied_thresh: 0.65\nfree_thresh: 0.196\n",
            CELL);
    fclose(f);
    return true;
}

static pb_engine *load_car(const char *curve)
{
    char robot[1024];
    snprintf(robot, sizeof robot, "%s/robots/lexus_rx450h.xml", pb_test_source_root());
    const pb_option options[2] = {{"robot", robot}, {"curve", curve}};
    pb_engine *e = NULL;
    pb_diag d = {0};
    if (pb_engine_load(&e, "car", yaml_path, options, curve ? 2 : 1, &d) != PB_OK)
        fprintf(stderr, "car engine: %s\n", d.message);
    return e;
}

/* ---- the independent re-integration of a curve word ---- */

/* Advance pose p by a segment: L and R arcs of radius r, S lines; negative lengths reverse. */
static void integrate(double *p, char type, double length, double r)
{
    if (type == 'S') {
        p[0] += length * cos(p[2]);
        p[1] += length * sin(p[2]);
        return;
    }
    const double turn = (type == 'L' ? 1.0 : -1.0) * length / r;
    /* the centre of the turn lies r to the left (L) or right (R) of the heading */
    const double side = type == 'L' ? 1.0 : -1.0;
    const double cx = p[0] - side * r * sin(p[2]), cy = p[1] + side * r * cos(p[2]);
    const double heading = p[2] + turn;
    p[0] = cx + side * r * sin(heading);
    p[1] = cy - side * r * cos(heading);
    p[2] = heading;
}

static double wrap(double a)
{
    return a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI));
}

/* Re-check one edge: the word reaches b; every pose along it, at poses whose footprint
 * points move at most `spacing` metres apart, is free. Returns the word's length (INFINITY
 * when the edge fails). */
static double check_edge(pb_engine *e, const pb_vehicle_config *v, const double *a, const double *b,
                         double spacing)
{
    pb_curve c;
    if (!pb_engine_curve(e, a, b, &c))
        return INFINITY;
    const pb_footprint fp = pb_vehicle_footprint(v);
    const double reach = pb_vehicle_reach(v);
    double p[3] = {a[0], a[1], a[2]}, length = 0.0;
    bool free = true;
    for (int i = 0; i < c.n && free; i++) {
        const pb_curve_segment *s = &c.segments[i];
        if (s->type != 'L' && s->type != 'S' && s->type != 'R')
            return INFINITY;
        /* a point of the footprint moves (1 + reach / r) per metre on an arc, 1 on a line */
        const double per_metre = s->type == 'S' ? 1.0 : 1.0 + reach / c.radius;
        const int n = (int)ceil(fabs(s->length) * per_metre / spacing) + 1;
        for (int k = 1; k <= n && free; k++) {
            double q[3] = {p[0], p[1], p[2]};
            integrate(q, s->type, s->length * k / n, c.radius);
            pb_hit hit;
            CHECK(pb_engine_footprint_check(e, &fp, q, PB_OBSTACLE_NONE, &hit) == PB_OK);
            free = hit.kind == PB_HIT_NONE;
        }
        integrate(p, s->type, s->length, c.radius);
        length += fabs(s->length);
    }
    CHECK_MSG(free,
              "%s: an edge from (%.3f, %.3f, %.3f) to (%.3f, %.3f, %.3f) crosses an obstacle; visible %d",
              current, a[0], a[1], a[2], b[0], b[1], b[2], pb_engine_visible(e, a, b));
    CHECK_MSG(hypot(p[0] - b[0], p[1] - b[1]) < 1e-6 && fabs(wrap(p[2] - b[2])) < 1e-6,
              "the word ends at (%.9f, %.9f, %.9f), not at (%.9f, %.9f, %.9f)", p[0], p[1], p[2], b[0], b[1],
              b[2]);
    return free ? length : INFINITY;
}

/* ---- tests ---- */

static void test_bad_input(void)
{
    pb_engine *e = NULL;
    pb_diag d = {0};
    char png[1024];
    snprintf(png, sizeof png, "%s/maps/room1.png", pb_test_source_root());
    CHECK(pb_engine_load(&e, "car", png, NULL, 0, &d) == PB_ERR_INVALID && strstr(d.message, "metres"));
    const pb_option dubins_typo[1] = {{"curve", "dubin"}};
    d = (pb_diag){0};
    CHECK(pb_engine_load(&e, "car", yaml_path, dubins_typo, 1, &d) == PB_ERR_INVALID &&
          strcmp(d.option, "curve") == 0);
    const pb_option radius[1] = {{"turning_radius", "-2"}};
    d = (pb_diag){0};
    CHECK(pb_engine_load(&e, "car", yaml_path, radius, 1, &d) == PB_ERR_INVALID &&
          strcmp(d.option, "turning_radius") == 0);
    const pb_option missing[1] = {{"robot", "/nonexistent/car.xml"}};
    d = (pb_diag){0};
    CHECK(pb_engine_load(&e, "car", yaml_path, missing, 1, &d) != PB_OK &&
          (strstr(d.file, "car.xml") || strstr(d.message, "car.xml")));
    CHECK(e == NULL);
}

static void test_feasible_and_edges(pb_engine *e, const pb_vehicle_config *v)
{
    CHECK(pb_engine_dim(e) == 3);
    /* the lot's start (Autoware's test) is free; a pose over a parked car is not */
    const double start[3] = {5.5, 4.0, M_PI / 2};
    CHECK(pb_engine_feasible(e, start));
    CHECK(!pb_engine_feasible(e, (double[]){12.5, 12.0, M_PI / 2}));
    char why[256];
    CHECK(pb_engine_explain(e, (double[]){12.5, 12.0, M_PI / 2}, why, sizeof why) &&
          strstr(why, "footprint"));
    /* outside: the footprint reaches past the map's edge */
    CHECK(!pb_engine_feasible(e, (double[]){0.5, 15.0, 0.0}));
    /* the rear axle as the reference: facing east at x = 1.2 the rear bumper is at 0.1: free;
     * facing west the front bumper would be at 1.2 - 3.79 < 0 */
    CHECK(pb_engine_feasible(e, (double[]){1.2, 25.0, 0.0}));
    CHECK(!pb_engine_feasible(e, (double[]){1.2, 25.0, M_PI}));
    /* an edge straight through the row of parked cars: its ends are free, the sweep is not */
    const double south[3] = {16.0, 5.0, 0.0}, north[3] = {16.0, 20.0, 0.0};
    CHECK(pb_engine_feasible(e, south) && pb_engine_feasible(e, north));
    const double a[3] = {9.0, 3.0, M_PI / 2}, b[3] = {9.0, 20.0, M_PI / 2};
    CHECK(pb_engine_feasible(e, a) && pb_engine_feasible(e, b));
    pb_curve straight;
    CHECK(pb_engine_curve(e, a, b, &straight) && straight.n == 1 && straight.segments[0].type == 'S');
    CHECK(!pb_engine_visible(e, a, b));
    /* along the open lane south of the cars: free, and the finer re-check agrees */
    const double c[3] = {3.0, 4.0, 0.0}, d[3] = {26.0, 4.5, 0.0};
    CHECK(pb_engine_visible(e, c, d));
    CHECK(isfinite(check_edge(e, v, c, d, 0.01)));
    /* distance = the curve's length, at least the straight line; interpolation ends on b */
    pb_curve k;
    CHECK(pb_engine_curve(e, c, d, &k));
    CHECK_NEAR(pb_engine_distance(e, c, d), pb_curve_length(&k), 1e-12);
    CHECK(pb_engine_distance(e, c, d) >= hypot(d[0] - c[0], d[1] - c[1]));
    double mid[3], end[3];
    pb_engine_interpolate(e, c, d, 0.5, mid);
    pb_engine_interpolate(e, c, d, 1.0, end);
    CHECK(end[0] == d[0] && end[1] == d[1] && end[2] == d[2]);
    CHECK_NEAR(pb_engine_distance(e, c, mid) + pb_engine_distance(e, mid, d), pb_engine_distance(e, c, d),
               1e-6);
}

/* Nearest neighbours under curve lengths: the kd-tree with the Euclidean bound finds what a
 * scan of exact lengths finds. */
static void test_nearest(pb_engine *e)
{
    pb_nn *tree = NULL, *scan = NULL;
    CHECK(pb_nn_create(&tree, e) == PB_OK && pb_nn_create(&scan, e) == PB_OK);
    if (!tree || !scan) {
        pb_nn_destroy(tree);
        pb_nn_destroy(scan);
        return;
    }
    pb_nn_set_mode(tree, PB_NN_KDTREE);
    pb_nn_set_mode(scan, PB_NN_LINEAR);
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    double q[3];
    for (uint32_t i = 0; i < 2000; i++) {
        pb_engine_sample(e, &rng, q);
        CHECK(pb_nn_add(tree, i, q) == PB_OK && pb_nn_add(scan, i, q) == PB_OK);
    }
    int wrong = 0;
    for (int i = 0; i < 300; i++) {
        pb_engine_sample(e, &rng, q);
        double dt, ds;
        pb_nn_nearest(tree, q, &dt);
        pb_nn_nearest(scan, q, &ds);
        wrong += dt != ds; /* ties may name either point */
        uint32_t ids_t[8], ids_s[8];
        double d_t[8], d_s[8];
        const size_t nt = pb_nn_knearest(tree, q, 8, ids_t, d_t), ns = pb_nn_knearest(scan, q, 8, ids_s, d_s);
        wrong += nt != ns || memcmp(d_t, d_s, nt * sizeof *d_t) != 0;
        pb_nn_hits ht = {0}, hs = {0};
        CHECK(pb_nn_radius(tree, q, 6.0, &ht) == PB_OK && pb_nn_radius(scan, q, 6.0, &hs) == PB_OK);
        wrong += ht.n != hs.n || (ht.n && memcmp(ht.ids, hs.ids, ht.n * sizeof *ht.ids) != 0);
        pb_nn_hits_finish(&ht);
        pb_nn_hits_finish(&hs);
    }
    CHECK_MSG(wrong == 0, "%d of 300 queries differ from the exact scan", wrong);
    pb_nn_destroy(tree);
    pb_nn_destroy(scan);
}

/* Every planner finds a path from Autoware's start to a goal across the lot; each is
 * re-checked edge by edge. */
static void test_planners(pb_engine *e, const pb_vehicle_config *v, const char *family)
{
    static const char *const all[] = {"rrt", "rrtstar", "informedrrt", "birrt", "prm", "lazyprm", "bitstar"};
    /* Dubins edges are one-way: the planners that connect edges both ways are refused */
    const bool one_way = strcmp(family, "dubins") == 0;
    if (one_way)
        for (size_t i = 3; i < sizeof all / sizeof all[0]; i++) {
            pb_planner *p = NULL;
            pb_diag d = {0};
            CHECK(pb_planner_create(&p, all[i], e, &d) == PB_ERR_INVALID && p == NULL &&
                  strstr(d.message, "one-way"));
        }
    const char *const *planners = all;
    const size_t n_planners = one_way ? 3 : sizeof all / sizeof all[0];
    const double start[3] = {5.5, 4.0, M_PI / 2};
    /* parked between the second and the third car, facing north: a reverse-in or a turn */
    const double goal[3] = {16.0, 12.0, M_PI / 2};
    CHECK(pb_engine_feasible(e, start) && pb_engine_feasible(e, goal));
    for (size_t i = 0; i < n_planners; i++) {
        pb_planner *p = NULL;
        pb_diag d = {0};
        current = planners[i];
        if (pb_planner_create(&p, planners[i], e, &d) != PB_OK) {
            CHECK_MSG(false, "%s: %s", planners[i], d.message);
            continue;
        }
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 0.0;
        stop.max_iterations = 4000;
        stop.first_solution = strcmp(planners[i], "rrtstar") != 0; /* RRT* rewires for its whole budget */
        if (!stop.first_solution)
            stop.max_iterations = 1500;
        const pb_problem problem = {start, goal, 0.5};
        pb_result r;
        pb_result_init(&r, 3);
        CHECK(pb_planner_solve(p, &problem, &stop, &r) == PB_OK);
        CHECK_MSG(r.outcome == PB_OUTCOME_EXACT, "%s (%s): %s after %llu iterations", planners[i], family,
                  pb_outcome_str(r.outcome), (unsigned long long)r.iterations);
        if (r.outcome == PB_OUTCOME_EXACT) {
            const double *first = pb_path_at(&r.path, 0), *last = pb_path_at(&r.path, r.path.n - 1);
            CHECK(memcmp(first, start, sizeof start) == 0 && memcmp(last, goal, sizeof goal) == 0);
            double length = 0.0;
            for (size_t k = 0; k + 1 < r.path.n; k++)
                length += check_edge(e, v, pb_path_at(&r.path, k), pb_path_at(&r.path, k + 1), 0.01);
            CHECK_MSG(fabs(length - r.cost) <= 1e-9 * length, "%s (%s): cost %.12g, curves %.12g",
                      planners[i], family, r.cost, length);
            /* Dubins drives forward only */
            for (size_t k = 0; k + 1 < r.path.n && strcmp(family, "dubins") == 0; k++) {
                pb_curve c;
                pb_engine_curve(e, pb_path_at(&r.path, k), pb_path_at(&r.path, k + 1), &c);
                for (int s = 0; s < c.n; s++)
                    CHECK(c.segments[s].length >= 0.0);
            }
        }
        pb_result_finish(&r);
        pb_planner_destroy(p);
    }
}

/* Hybrid A* keeps its 2-D heuristic grid with the engine per goal cell (an engine memo): later
 * solves, on the same handle or a shared one, reuse it and plan exactly as the first did; another
 * goal gets its own grid. */
static void test_hybrid_astar_memo(pb_engine *e)
{
    current = "hybrid_astar memo";
    const double start[3] = {5.5, 4.0, M_PI / 2};
    const double goals[3][3] = {{16.0, 12.0, M_PI / 2}, {16.0, 12.0, M_PI / 2}, {5.5, 20.0, M_PI / 2}};
    pb_engine *shared = NULL;
    CHECK(pb_engine_share(&shared, e) == PB_OK);
    double first_cost = -1.0;
    size_t first_n = 0;
    for (int run = 0; run < 4 && shared; run++) {
        pb_engine *on = run == 1 ? shared : e;
        const double *goal = goals[run < 3 ? run : 0];
        if (!pb_engine_feasible(on, goal))
            continue;
        pb_planner *p = NULL;
        pb_diag d = {0};
        if (pb_planner_create(&p, "hybrid_astar", on, &d) != PB_OK) {
            CHECK_MSG(false, "%s", d.message);
            break;
        }
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 0.0;
        stop.max_iterations = 20000;
        const pb_problem problem = {start, goal, 0.5};
        pb_result r;
        pb_result_init(&r, 3);
        CHECK(pb_planner_solve(p, &problem, &stop, &r) == PB_OK);
        CHECK_MSG(r.outcome == PB_OUTCOME_EXACT, "run %d: %s", run, pb_outcome_str(r.outcome));
        if (run == 0) {
            first_cost = r.cost;
            first_n = r.path.n;
        } else if (run != 2) { /* the same goal: the same path, the grid found, not rebuilt */
            CHECK_MSG(r.cost == first_cost && r.path.n == first_n, "run %d: cost %.12g, first %.12g", run,
                      r.cost, first_cost);
        }
        pb_result_finish(&r);
        pb_planner_destroy(p);
    }
    pb_engine_destroy(shared);
}

int main(void)
{
    if (!write_lot()) {
        CHECK_MSG(false, "cannot write the test map");
        return pb_test_summary("car");
    }
    test_bad_input();
    pb_engine *rs = load_car(NULL);
    pb_engine *dubins = load_car("dubins");
    CHECK(rs && dubins);
    if (rs && dubins) {
        const pb_vehicle_config *v = pb_engine_get_data(rs, "vehicle");
        CHECK(v && fabs(pb_vehicle_turning_radius(v) - 2.79 / tan(0.6109)) < 1e-12);
        test_feasible_and_edges(rs, v);
        test_nearest(rs);
        test_planners(rs, v, "reeds_shepp");
        test_hybrid_astar_memo(rs);
        test_planners(dubins, v, "dubins");
    }
    pb_engine_destroy(rs);
    pb_engine_destroy(dubins);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return pb_test_summary("car");
}
