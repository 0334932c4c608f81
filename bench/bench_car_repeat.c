/* Hybrid A* solved repeatedly on one car engine (issue 18): the first solve builds the 2-D
 * heuristic grid and keeps it with the engine, the later ones reuse it. Prints each solve's CPU
 * time and cost, then the median of the later ones.
 *
 *   ./build-rel/bench/bench_car_repeat [ROOT] [SOLVES]   (ROOT: the checkout, default ".") */
#include "planbench/engine.h"
#include "planbench/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    const int solves = argc > 2 ? atoi(argv[2]) : 10;
    if (solves < 2 || solves > 1000) {
        fprintf(stderr, "bench_car_repeat: SOLVES must be 2..1000\n");
        return 2;
    }
    char map[1024], robot[1024];
    snprintf(map, sizeof map, "%s/maps/wall40.yaml", root);
    snprintf(robot, sizeof robot, "%s/robots/lexus_rx450h.xml", root);
    pb_engine *e = NULL;
    pb_diag d = {0};
    const pb_option options[] = {{"robot", robot}};
    if (pb_engine_load(&e, "car", map, options, 1, &d) != PB_OK) {
        fprintf(stderr, "bench_car_repeat: %s\n", d.message);
        return 1;
    }
    printf("bench_car_repeat %s %d: hybrid_astar, maps/wall40.yaml, (5, 5, 0) to (35, 5, 0) radius 1\n", root,
           solves);
    const double start[3] = {5, 5, 0}, goal[3] = {35, 5, 0};
    double *later = malloc((size_t)solves * sizeof *later);
    int status = later ? 0 : 1;
    for (int run = 0; run < solves && status == 0; run++) {
        pb_planner *p = NULL;
        if (pb_planner_create(&p, "hybrid_astar", e, &d) != PB_OK) {
            fprintf(stderr, "bench_car_repeat: %s\n", d.message);
            status = 1;
            break;
        }
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = 10.0;
        stop.first_solution = true;
        const pb_problem problem = {start, goal, 1.0};
        pb_result r;
        pb_result_init(&r, 3);
        const double t0 = cpu_ms();
        const pb_status st = pb_planner_solve(p, &problem, &stop, &r);
        const double ms = cpu_ms() - t0;
        printf("solve %d: %.3f ms CPU, cost %.4f, %llu expansions\n", run + 1, ms, r.cost,
               (unsigned long long)r.iterations);
        if (st != PB_OK || r.outcome != PB_OUTCOME_EXACT)
            status = 1;
        if (run > 0)
            later[run - 1] = ms;
        pb_result_finish(&r);
        pb_planner_destroy(p);
    }
    if (status == 0) {
        qsort(later, (size_t)solves - 1, sizeof *later, by_value);
        printf("median of solves 2..%d: %.3f ms CPU\n", solves, later[(solves - 1) / 2]);
    }
    free(later);
    pb_engine_destroy(e);
    return status;
}
