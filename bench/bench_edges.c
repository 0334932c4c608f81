/* Certified against sampled edge checks (issue 14), side by side in one run:
 *
 *  - the 4D stick arm on maps/4d.png (clearance steps from the distance transform, against
 *    "no arm point moves more than a pixel between samples");
 *  - black-box expressions in 2, 4 and 8 dimensions, spheres in [-5, 5]^d (interval boxes,
 *    against samples at 1/1000 of the diagonal).
 *
 * For each: edge checks per second on the same random edges (one step long, the planners'
 * default), configurations (or boxes) evaluated per edge, how many edges the two call free,
 * and RRT's and RRT-Connect's median time to a first solution over the same seeds, with the
 * ratio certified / sampled.
 *
 *     bench_edges SOURCE_ROOT [SEEDS]
 *
 * Build with --buildtype=release. Times are noisy on shared machines; counts are exact. */
#include "planbench/planbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EDGES 20000

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct edge_figures {
    double checks_per_s, states_per_edge;
    int n_free;
    double rrt_ms, birrt_ms;
    int rrt_solved, birrt_solved;
} edge_figures;

/* Random edges one default step long from random feasible configurations. */
static void edge_set(pb_engine *engine, double *a, double *b, int n)
{
    pb_rng rng;
    pb_rng_seed(&rng, 12345);
    const int dim = pb_engine_dim(engine);
    const double step = pb_engine_default_step(engine);
    for (int k = 0; k < n; k++) {
        double *p = a + (size_t)k * (size_t)dim, *q = b + (size_t)k * (size_t)dim;
        do
            pb_engine_sample(engine, &rng, p);
        while (!pb_engine_feasible(engine, p));
        pb_engine_sample(engine, &rng, q); /* a target to steer towards, cut to one step */
        const double d = pb_engine_distance(engine, p, q);
        double cut[PB_MAX_DIM];
        pb_engine_interpolate(engine, p, q, d > step ? step / d : 1.0, cut);
        memcpy(q, cut, (size_t)dim * sizeof *q);
    }
}

static double solve_ms(pb_engine *engine, const char *planner_name, uint64_t seed, const double *start,
                       const double *goal, bool *solved)
{
    pb_planner *planner = NULL;
    pb_diag diag;
    if (pb_planner_create(&planner, planner_name, engine, &diag) != PB_OK) {
        fprintf(stderr, "%s\n", diag.message);
        exit(1);
    }
    pb_planner_set_seed(planner, seed);
    const pb_problem problem = {start, goal, pb_planner_default_goal_radius(planner)};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 10.0;
    stop.first_solution = true;
    pb_result result;
    pb_result_init(&result, pb_engine_dim(engine));
    pb_planner_solve(planner, &problem, &stop, &result);
    *solved = result.outcome == PB_OUTCOME_EXACT;
    const double ms = 1000.0 * result.cpu_s;
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    return ms;
}

static edge_figures measure(pb_engine *engine, const double *a, const double *b, int n, const double *start,
                            const double *goal, int seeds)
{
    edge_figures f = {0};
    const int dim = pb_engine_dim(engine);
    pb_engine_reset_counters(engine);
    /* at least 0.3 s of checks */
    const double t0 = pb_clock_seconds();
    uint64_t checks = 0;
    int rounds = 0;
    do {
        for (int k = 0; k < n; k++) {
            const bool free_edge =
                pb_engine_visible(engine, a + (size_t)k * (size_t)dim, b + (size_t)k * (size_t)dim);
            if (rounds == 0)
                f.n_free += free_edge;
        }
        checks += (uint64_t)n;
        rounds++;
    } while (pb_clock_seconds() - t0 < 0.3);
    const double elapsed = pb_clock_seconds() - t0;
    const pb_engine_counters c = pb_engine_get_counters(engine);
    f.checks_per_s = (double)checks / elapsed;
    f.states_per_edge = (double)c.n_edge_states / (double)c.n_visible;
    double rrt[64], birrt[64];
    for (int s = 0; s < seeds; s++) {
        bool ok;
        rrt[s] = solve_ms(engine, "rrt", 1 + (uint64_t)s, start, goal, &ok);
        f.rrt_solved += ok;
        birrt[s] = solve_ms(engine, "birrt", 1 + (uint64_t)s, start, goal, &ok);
        f.birrt_solved += ok;
    }
    f.rrt_ms = median(rrt, seeds);
    f.birrt_ms = median(birrt, seeds);
    return f;
}

static void report(const char *problem, pb_engine *certified, pb_engine *sampled, const double *start,
                   const double *goal, int seeds)
{
    const int dim = pb_engine_dim(certified);
    double *a = malloc((size_t)N_EDGES * (size_t)dim * sizeof *a),
           *b = malloc((size_t)N_EDGES * (size_t)dim * sizeof *b);
    if (!a || !b)
        exit(1);
    edge_set(certified, a, b, N_EDGES);
    const edge_figures c = measure(certified, a, b, N_EDGES, start, goal, seeds);
    const edge_figures s = measure(sampled, a, b, N_EDGES, start, goal, seeds);
    printf("| %s | certified | %.0f | %.1f | %d | %.3f (%d/%d) | %.3f (%d/%d) |\n", problem, c.checks_per_s,
           c.states_per_edge, c.n_free, c.rrt_ms, c.rrt_solved, seeds, c.birrt_ms, c.birrt_solved, seeds);
    printf("| %s | sampled | %.0f | %.1f | %d | %.3f (%d/%d) | %.3f (%d/%d) |\n", problem, s.checks_per_s,
           s.states_per_edge, s.n_free, s.rrt_ms, s.rrt_solved, seeds, s.birrt_ms, s.birrt_solved, seeds);
    printf("| %s | ratio certified/sampled | %.2f | %.2f | | %.2f | %.2f |\n", problem,
           c.checks_per_s / s.checks_per_s, c.states_per_edge / s.states_per_edge, c.rrt_ms / s.rrt_ms,
           c.birrt_ms / s.birrt_ms);
    fflush(stdout);
    free(a);
    free(b);
}

static pb_engine *load(const char *engine, const char *path, const pb_option *options, size_t n)
{
    pb_engine *e = NULL;
    pb_diag diag;
    if (pb_engine_load(&e, engine, path, options, n, &diag) != PB_OK) {
        fprintf(stderr, "%s: %s\n", path ? path : engine, diag.message);
        exit(1);
    }
    return e;
}

/* Spheres in [-5, 5]^dim that leave the corners -4.5 and 4.5 free: an expression. */
static void spheres(int dim, char *text, size_t size, char *bounds, size_t bounds_size)
{
    pb_rng rng;
    pb_rng_seed(&rng, 7 + (uint64_t)dim);
    size_t used = 0;
    const int n = 6 + 2 * dim;
    for (int k = 0; k < n; k++) {
        double c[PB_MAX_DIM], r = pb_rng_range(&rng, 0.8, 2.0), far = 0.0;
        for (int i = 0; i < dim; i++) {
            c[i] = pb_rng_range(&rng, -3.5, 3.5);
            far = fmax(far, fabs(c[i]));
        }
        used += (size_t)snprintf(text + used, size - used, "%s(", k ? " and " : "");
        for (int i = 0; i < dim; i++)
            used += (size_t)snprintf(text + used, size - used, "%s(x%d - %.3f)^2", i ? " + " : "", i, c[i]);
        used += (size_t)snprintf(text + used, size - used, " > %.4f)", r * r);
    }
    used = 0;
    for (int i = 0; i < dim; i++)
        used += (size_t)snprintf(bounds + used, bounds_size - used, "%s-5:5", i ? "," : "");
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    const int seeds = argc > 2 ? atoi(argv[2]) : 21;
    if (seeds < 1 || seeds > 64) {
        fprintf(stderr, "SEEDS: 1..64\n");
        return 2;
    }
    printf("bench_edges %s %d\n\n", root, seeds);
    printf(
        "| problem | edges | edge checks/s | evaluations per edge | free of %d | RRT first solution, ms CPU "
        "(solved) | RRT-Connect, ms CPU (solved) |\n|---|---|---:|---:|---:|---:|---:|\n",
        N_EDGES);
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/4d.png", root);
    const pb_option arm_certified[] = {{"edge_check", "certified"}};
    const pb_option arm_sampled[] = {{"edge_check", "sampled"}};
    pb_engine *c = load("4d", path, arm_certified, 1), *s = load("4d", path, arm_sampled, 1);
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    pb_engine_defaults(c, start, goal);
    report("4D arm, maps/4d.png", c, s, start, goal, seeds);
    pb_engine_destroy(c);
    pb_engine_destroy(s);

    const int dims[] = {2, 4, 8};
    for (int k = 0; k < 3; k++) {
        const int dim = dims[k];
        char text[8192], bounds[256], name[64];
        spheres(dim, text, sizeof text, bounds, sizeof bounds);
        const pb_option certified_options[] = {
            {"bounds", bounds}, {"expr", text}, {"edge_check", "certified"}};
        const pb_option sampled_options[] = {{"bounds", bounds}, {"expr", text}, {"edge_check", "sampled"}};
        c = load("blackbox", NULL, certified_options, 3);
        s = load("blackbox", NULL, sampled_options, 3);
        for (int i = 0; i < dim; i++) {
            start[i] = -4.5;
            goal[i] = 4.5;
        }
        snprintf(name, sizeof name, "expression, %d spheres in %d-D", 6 + 2 * dim, dim);
        report(name, c, s, start, goal, seeds);
        pb_engine_destroy(c);
        pb_engine_destroy(s);
    }
    return 0;
}
