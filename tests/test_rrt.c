/* RRT on the image engine: returned paths re-validated independently of the library
 * (start and goal exact, every edge's pixels free by a closed-form Bresenham, cost equal to
 * the Euclidean length), determinism pinned by a hash, and the outcomes. */
#include "harness.h"
#include "picture.h"
#include "planbench/planbench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 300
#define H 200

static pb_image picture; /* the map as written: the independent reference */

static bool edge_free(const double *a, const double *b)
{
    return tp_edge_free(&picture, a, b);
}
static void fill_rect(int x0, int y0, int x1, int y1)
{
    tp_fill_rect(&picture, (tp_rect){x0, y0, x1, y1});
}

static void check_path(const pb_result *r, const double *start, const double *goal, const char *what)
{
    CHECK_MSG(r->outcome == PB_OUTCOME_EXACT, "%s: outcome %s", what, pb_outcome_str(r->outcome));
    CHECK_MSG(r->path.n >= 2, "%s: path has %zu points", what, r->path.n);
    if (r->path.n < 2)
        return;
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
    CHECK(r->nodes >= r->path.n && r->iterations > 0);
}

int main(void)
{
    CHECK(pb_image_init(&picture, W, H) == PB_OK);
    /* Three walls with gaps at alternating ends: a zig-zag. */
    fill_rect(70, 0, 80, 160);
    fill_rect(150, 40, 160, 200);
    fill_rect(220, 0, 230, 150);
    char path[] = "/tmp/pb_test_rrt_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char png[64];
    snprintf(png, sizeof png, "%s.png", path);
    CHECK(pb_image_save_png(&picture, png, NULL) == PB_OK);

    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK(pb_engine_load(&engine, NULL, png, NULL, 0, &diag) == PB_OK);
    if (!engine) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    CHECK(strcmp(pb_engine_name(engine), "image2d") == 0);
    /* an image engine has no step of its own: 2% of the map's diagonal */
    CHECK(fabs(pb_engine_default_step(engine) - 0.02 * pb_engine_extent(engine)) < 1e-12 &&
          pb_engine_extent(engine) > 100.0);
    pb_planner *rrt = NULL;
    CHECK(pb_planner_create(&rrt, "rrt", engine, &diag) == PB_OK);
    CHECK(pb_planner_set_param_double(rrt, "step_size", 15.0, &diag) == PB_OK);
    CHECK(pb_planner_set_param_double(rrt, "step_size", -1.0, &diag) == PB_ERR_INVALID);
    CHECK(pb_planner_set_param(rrt, "goal_bias", "abc", &diag) == PB_ERR_INVALID);
    CHECK(pb_planner_set_param(rrt, "no_such", "1", &diag) == PB_ERR_NOT_FOUND);

    const double start[2] = {20.5, 180.5}, goal[2] = {280.25, 20.75};
    pb_problem problem = {start, goal, 15.0};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 30.0;
    pb_result r;
    pb_result_init(&r, 2);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pb_planner_set_seed(rrt, seed);
        CHECK(pb_planner_solve(rrt, &problem, &stop, &r) == PB_OK);
        char what[32];
        snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
        check_path(&r, start, goal, what);
        CHECK(pb_path_validate(&r.path, engine, start, goal, &diag));
    }

    /* Determinism: the same seed gives the same path, bit for bit; pinned by a hash. */
    pb_planner_set_seed(rrt, 3);
    pb_planner_solve(rrt, &problem, &stop, &r);
    const uint64_t h1 = tp_path_hash(&r.path);
    const uint64_t iterations = r.iterations;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(tp_path_hash(&r.path) == h1 && r.iterations == iterations);
    printf("seed 3: %zu waypoints, %llu iterations, hash %016llx\n", r.path.n, (unsigned long long)iterations,
           (unsigned long long)h1);
    CHECK_MSG(h1 == 0x153920feef2a3034ull, "pinned path hash changed: %016llx", (unsigned long long)h1);

    /* Outcomes. */
    const double in_wall[2] = {75.5, 50.5};
    problem.start = in_wall;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(r.outcome == PB_OUTCOME_INVALID_START && r.path.n == 0);
    problem.start = start;
    problem.goal = in_wall;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(r.outcome == PB_OUTCOME_INVALID_GOAL);
    problem.goal = goal;
    stop.max_iterations = 5;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(r.outcome == PB_OUTCOME_NO_SOLUTION && r.path.n == 0 && r.iterations == 5 && r.cost == INFINITY);
    stop.approximate = true;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(r.outcome == PB_OUTCOME_APPROXIMATE && r.path.n >= 1);
    if (r.path.n >= 1)
        CHECK(pb_path_at(&r.path, 0)[0] == start[0]);
    stop.approximate = false;
    stop.max_iterations = 0;
    stop.time_limit_s = 1e-6;
    pb_planner_solve(rrt, &problem, &stop, &r);
    CHECK(r.outcome == PB_OUTCOME_TIMEOUT || r.outcome == PB_OUTCOME_EXACT);
    problem.goal_radius = 0.0;
    CHECK(pb_planner_solve(rrt, &problem, &stop, &r) == PB_ERR_INVALID);

    pb_result_finish(&r);
    pb_planner_destroy(rrt);
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
    remove(png);
    remove(path);
    return pb_test_summary("rrt");
}
