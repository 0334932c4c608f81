/* MotionBenchMaker Panda problems with the manipulator engine (issue 7).
 *
 *   bench_mbm FLAT_FILE [PLANNER] [TIME_LIMIT_S] [SEEDS] [MAX_PROBLEMS] [SCENARIO|all] [OPTION=VALUE ...]
 *
 * Each OPTION=VALUE is an engine option (edge_prefilter=0.1), or with "planner." in front a planner
 * parameter (planner.step_size=1 planner.balance=1).
 *
 * For every problem of the flat file (or of one SCENARIO, like "cage")
 * (../shared/anchor-problems/vamp-mbm/panda/ panda_mbm_flat.txt has 700): load it as a world (a problem whose
 * start or goal is in collision, or that fails to load, is counted invalid), plan with PLANNER (default
 * birrt, RRT-Connect) under TIME_LIMIT_S (default 1 s), and re-check each path at 10x the planner's
 * resolution. Prints the success rate on the valid problems, the median and 95th percentile planning time,
 * collision checks (feasible calls plus states inside edges) per second and the time per check. Exit status
 * 77 when the file is absent (so the benchmark is skipped where ../shared is not). The last lines give the
 * float sphere stage's counts (engine option sphere_lanes) and the ratio of the median planning CPU time to
 * VAMP's: VAMP_MEDIAN_US, as measured beside this run with ../shared/anchors/vamp, else that README's
 * figure (another machine). */
#include "engines/manipulator/manipulator.h"
#include "planbench/planbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CPU time of this thread: on a machine shared with other jobs it moves much less than the
 * wall-clock planning time, so variants are compared by it too. */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    const double rank = p * (double)(n - 1);
    const size_t lo = (size_t)floor(rank), hi = (size_t)ceil(rank);
    if (isinf(sorted[hi]))
        return sorted[hi] == sorted[lo] || rank == (double)hi ? INFINITY : sorted[lo]; /* unsolved runs */
    return sorted[lo] + (rank - (double)lo) * (sorted[hi] - sorted[lo]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_mbm FLAT_FILE [PLANNER] [TIME_LIMIT_S] [SEEDS] [MAX_PROBLEMS] "
                        "[SCENARIO|all] [OPTION=VALUE ...]\n");
        return 2;
    }
    const char *file = argv[1];
    const char *planner_name = argc > 2 ? argv[2] : "birrt";
    const double time_limit = argc > 3 ? atof(argv[3]) : 1.0;
    const int seeds = argc > 4 ? atoi(argv[4]) : 1;
    const int max_problems = argc > 5 ? atoi(argv[5]) : 100000;
    const char *only = argc > 6 && strcmp(argv[6], "all") != 0 ? argv[6] : NULL;
    /* engine options for the planning engine (edge_prefilter=0.1) and planner parameters
     * (planner.step_size=1), in the order given */
    enum { MAX_OPTIONS = 16 };
    char option_name[MAX_OPTIONS][64], option_value[MAX_OPTIONS][64];
    pb_option plan_options[MAX_OPTIONS + 1];
    size_t n_engine_options = 1, n_planner_options = 0;
    const char *planner_params[MAX_OPTIONS], *planner_values[MAX_OPTIONS];
    for (int a = 7; a < argc; a++) {
        const int k = a - 7;
        if (k >= MAX_OPTIONS || sscanf(argv[a], "%63[^=]=%63s", option_name[k], option_value[k]) != 2) {
            fprintf(stderr, "bench_mbm: expected at most %d OPTION=VALUE, got '%s'\n", MAX_OPTIONS, argv[a]);
            return 2;
        }
        if (strncmp(option_name[k], "planner.", 8) == 0) {
            planner_params[n_planner_options] = option_name[k] + 8;
            planner_values[n_planner_options++] = option_value[k];
        } else {
            plan_options[n_engine_options++] = (pb_option){option_name[k], option_value[k]};
        }
    }
    if (access(file, R_OK) != 0) {
        fprintf(stderr, "bench_mbm: %s not found: skipped\n", file);
        return 77;
    }
    if (!pb_planner_registry_find(planner_name)) {
        fprintf(stderr, "bench_mbm: no planner '%s' in this build\n", planner_name);
        return 2;
    }
    FILE *fp = fopen(file, "r");
    char line[4096];
    char(*names)[160] = malloc(4096 * sizeof *names);
    size_t n_problems = 0;
    while (fp && fgets(line, sizeof line, fp) && n_problems < 4096) {
        char scenario[128];
        long index;
        if (sscanf(line, "problem %127s %ld", scenario, &index) == 2 &&
            (!only || strcmp(scenario, only) == 0))
            snprintf(names[n_problems++], sizeof names[0], "%s:%ld", scenario, index);
    }
    if (fp)
        fclose(fp);
    if (n_problems > (size_t)max_problems)
        n_problems = (size_t)max_problems;
    double *times = malloc(n_problems * (size_t)seeds * sizeof *times);
    double *cpu_times = malloc(n_problems * (size_t)seeds * sizeof *cpu_times);
    double cpu_total = 0.0;
    size_t n_valid = 0, n_runs = 0, n_solved = 0, n_path_errors = 0;
    uint64_t checks = 0, edge_states = 0, visible_calls = 0;
    /* the planners' queries only: the re-check's are taken out below */
    pb_manipulator_counts queries = {0};
    double check_time = 0.0, load_time = 0.0;
    for (size_t p = 0; p < n_problems; p++) {
        pb_engine *engine = NULL, *fine = NULL;
        pb_diag diag = {0};
        /* the re-check: the interpolated edge check at 0.005 rad, independent of the certified
         * check the planner uses */
        const pb_option options[3] = {
            {"problem", names[p]}, {"edge_check", "interpolated"}, {"resolution", "0.005"}};
        plan_options[0] = (pb_option){"problem", names[p]};
        const double t0 = pb_clock_seconds();
        if (pb_engine_load(&engine, NULL, file, plan_options, n_engine_options, &diag) != PB_OK) {
            printf("invalid %s: %s\n", names[p], diag.message);
            continue;
        }
        load_time += pb_clock_seconds() - t0;
        n_valid++;
        if (pb_engine_load(&fine, NULL, file, options, 3, &diag) != PB_OK) {
            printf("error %s: %s\n", names[p], diag.message);
            pb_engine_destroy(engine);
            continue;
        }
        double start[PB_MAX_DIM], goal[PB_MAX_DIM];
        pb_engine_defaults(engine, start, goal);
        for (int s = 0; s < seeds; s++) {
            pb_planner *planner = NULL;
            pb_planner_create(&planner, planner_name, engine, &diag);
            pb_planner_set_seed(planner, (uint64_t)s + 1);
            for (size_t k = 0; k < n_planner_options; k++) {
                if (pb_planner_set_param(planner, planner_params[k], planner_values[k], &diag) != PB_OK) {
                    fprintf(stderr, "bench_mbm: %s\n", diag.message);
                    return 2;
                }
            }
            pb_problem problem = {start, goal, 0.5};
            pb_stop_config stop = pb_stop_config_default();
            stop.time_limit_s = time_limit;
            stop.first_solution = true;
            pb_result result;
            pb_result_init(&result, pb_engine_dim(engine));
            const pb_manipulator_counts before = pb_manipulator_get_counts();
            const double cpu0 = thread_cpu_seconds();
            pb_planner_solve(planner, &problem, &stop, &result);
            const double cpu = thread_cpu_seconds() - cpu0;
            const pb_manipulator_counts after = pb_manipulator_get_counts();
            queries.bound_queries += after.bound_queries - before.bound_queries;
            queries.fcl_collide += after.fcl_collide - before.fcl_collide;
            queries.fcl_distance += after.fcl_distance - before.fcl_distance;
            queries.lane_queries += after.lane_queries - before.lane_queries;
            queries.lanes += after.lanes - before.lanes;
            queries.lanes_clear += after.lanes_clear - before.lanes_clear;
            const bool solved = result.outcome == PB_OUTCOME_EXACT;
            if (solved && !pb_path_validate(&result.path, fine, start, goal, &diag)) {
                n_path_errors++;
                printf("bad path %s seed %d: %s\n", names[p], s + 1, diag.message);
            }
            cpu_times[n_runs] = solved ? cpu : INFINITY;
            cpu_total += cpu;
            times[n_runs++] = solved ? result.time_s : INFINITY;
            n_solved += solved;
            checks += result.counters.n_feasible + result.counters.n_edge_states;
            edge_states += result.counters.n_edge_states;
            visible_calls += result.counters.n_visible;
            check_time += result.time_s;
            if (!solved)
                printf("unsolved %s seed %d: %s after %.3f s\n", names[p], s + 1,
                       pb_outcome_str(result.outcome), result.time_s);
            pb_result_finish(&result);
            pb_planner_destroy(planner);
        }
        pb_engine_destroy(engine);
        pb_engine_destroy(fine);
    }
    qsort(times, n_runs, sizeof *times, cmp_double);
    qsort(cpu_times, n_runs, sizeof *cpu_times, cmp_double);
    const double median = percentile(times, n_runs, 0.5), p95 = percentile(times, n_runs, 0.95);
    printf("\nbench_mbm %s %s %g %d %d %s", file, planner_name, time_limit, seeds, max_problems,
           only ? only : "all");
    for (int a = 7; a < argc; a++)
        printf(" %s", argv[a]);
    printf("\n");
    printf("problems %zu, valid %zu (start and goal collision-free under FCL meshes)\n", n_problems, n_valid);
    printf("runs %zu, solved %zu (%.2f%%) within %g s, paths failing the 10x re-check: %zu\n", n_runs,
           n_solved, n_runs ? 100.0 * (double)n_solved / (double)n_runs : 0.0, time_limit, n_path_errors);
    printf("planning time: median %.3f ms, p95 %.3f ms, slowest %.3f ms (unsolved runs count as infinite)\n",
           median * 1e3, p95 * 1e3, n_runs ? times[n_runs - 1] * 1e3 : NAN);
    printf("planning CPU time (this thread): median %.3f ms, p95 %.3f ms, total %.3f s, %.2f us per check\n",
           percentile(cpu_times, n_runs, 0.5) * 1e3, percentile(cpu_times, n_runs, 0.95) * 1e3, cpu_total,
           checks ? cpu_total / (double)checks * 1e6 : 0.0);
    printf("collision checks: %llu in %.3f s of planning: %.0f checks/s, %.2f us per check\n",
           (unsigned long long)checks, check_time, (double)checks / check_time,
           check_time / (double)checks * 1e6);
    printf("edge states per visible() call: %.1f (%llu states, %llu calls)\n",
           visible_calls ? (double)edge_states / (double)visible_calls : 0.0, (unsigned long long)edge_states,
           (unsigned long long)visible_calls);
    printf("queries: %llu sphere-tree bounds, %llu FCL collide, %llu FCL distance (%.3f FCL queries per "
           "check)\n",
           (unsigned long long)queries.bound_queries, (unsigned long long)queries.fcl_collide,
           (unsigned long long)queries.fcl_distance,
           checks ? (double)(queries.fcl_collide + queries.fcl_distance) / (double)checks : 0.0);
    printf("float sphere stage: %llu descents, %llu lanes, %llu settled (%.1f%%)\n",
           (unsigned long long)queries.lane_queries, (unsigned long long)queries.lanes,
           (unsigned long long)queries.lanes_clear,
           queries.lanes ? 100.0 * (double)queries.lanes_clear / (double)queries.lanes : 0.0);
    /* VAMP's median planning CPU time on the same problems: VAMP_MEDIAN_US when measured in
     * the same session (../shared/anchors/vamp), else that README's figure for this machine */
    const char *vamp_text = getenv("VAMP_MEDIAN_US");
    const double vamp_us = vamp_text && atof(vamp_text) > 0.0 ? atof(vamp_text) : 41.2;
    printf("ratio of the median planning CPU time to VAMP's %.1f us (%s): %.1fx\n", vamp_us,
           vamp_text ? "VAMP_MEDIAN_US" : "anchors/vamp/README.md, Halton seed 0",
           percentile(cpu_times, n_runs, 0.5) / (vamp_us * 1e-6));
    printf("mean world load time (URDF, meshes, BVH): %.1f ms\n",
           n_valid ? load_time / (double)n_valid * 1e3 : 0.0);
    free(times);
    free(cpu_times);
    free(names);
    return 0;
}
