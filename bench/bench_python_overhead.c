/* The C side of bench/bench_python.py (issue 23): the library calls planbench.plan() makes for
 * one query (a planner made, seeded and solved on a shared engine handle, the result freed),
 * timed per call, so the Python figure can be read as overhead beyond this.
 *
 *   bench_python_overhead MAP PLANNER N X0,Y0 X1,Y1
 * prints "c_us_per_plan <value>". */
#include <planbench/planner.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_python_overhead MAP PLANNER N X0,Y0 X1,Y1\n");
        return 2;
    }
    pb_diag diag = {0};
    pb_engine *engine = NULL;
    if (pb_engine_load(&engine, NULL, argv[1], NULL, 0, &diag) != PB_OK) {
        fprintf(stderr, "bench_python_overhead: %s\n", diag.message);
        return 2;
    }
    const long n = strtol(argv[3], NULL, 10);
    double start[2], goal[2];
    if (n < 1 || sscanf(argv[4], "%lf,%lf", &start[0], &start[1]) != 2 ||
        sscanf(argv[5], "%lf,%lf", &goal[0], &goal[1]) != 2) {
        fprintf(stderr, "bench_python_overhead: bad N, start or goal\n");
        return 2;
    }
    double best = 1e300;
    for (int round = 0; round < 5; round++) {
        const double t0 = pb_clock_seconds();
        for (long i = 0; i < n; i++) {
            pb_engine *handle = NULL;
            pb_planner *planner = NULL;
            if (pb_engine_share(&handle, engine) != PB_OK ||
                pb_planner_create(&planner, argv[2], handle, &diag) != PB_OK) {
                fprintf(stderr, "bench_python_overhead: %s\n", diag.message);
                return 2;
            }
            pb_planner_set_seed(planner, (uint64_t)i);
            pb_problem problem = {start, goal, pb_planner_default_goal_radius(planner)};
            pb_stop_config stop = pb_stop_config_default();
            pb_result result;
            pb_result_init(&result, 2);
            (void)pb_engine_feasible(handle, start);
            (void)pb_engine_feasible(handle, goal);
            if (pb_planner_solve(planner, &problem, &stop, &result) != PB_OK ||
                result.outcome != PB_OUTCOME_EXACT) {
                fprintf(stderr, "bench_python_overhead: the query was not solved\n");
                return 2;
            }
            pb_result_finish(&result);
            pb_planner_destroy(planner);
            pb_engine_destroy(handle);
        }
        const double us = (pb_clock_seconds() - t0) / (double)n * 1e6;
        best = us < best ? us : best;
    }
    printf("c_us_per_plan %.3f\n", best);
    pb_engine_destroy(engine);
    return 0;
}
