/* Scenarios per second (issue 19) on BACRE-sized scenes (planbench scene gen's bacre family:
 * 60 m, 6 trees and 6 bushes, 17 s timeout): with a precomputed plan (the path driver: the
 * tracker follows a path planned beforehand) and with planning included (the planner driver:
 * hybrid A* on the car's C-space, then the tracker), reported separately, per core
 * (CPU time) and on WORKERS worker processes (wall clock, the machine's cores). The reference
 * plan is off: it is the regret's, not the run's. Counts (steps, sim seconds) beside times.
 *   usage: bench_scenario SCENES [WORKERS]   e.g. bench_scenario 40 2 */
#include "planbench/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The scenario of `seed` with its driver replaced (`driver_json`, or the generated planner). */
static pb_scenario *scene(uint64_t seed, const char *driver_json)
{
    char *json = NULL;
    pb_diag diag = {0};
    if (pb_scenario_generate(&json, "bacre", seed, &diag) != PB_OK) {
        fprintf(stderr, "scene %llu: %s\n", (unsigned long long)seed, diag.message);
        exit(1);
    }
    /* the generator writes the driver last but one: replace it and switch the reference off */
    char *driver = strstr(json, "\"driver\":");
    char *tail = driver ? strstr(driver, "}") : NULL;
    if (!tail)
        exit(1);
    char *edited = malloc(strlen(json) + strlen(driver_json) + 64);
    snprintf(edited, strlen(json) + strlen(driver_json) + 64, "%.*s\"driver\": %s, \"reference\": false%s",
             (int)(driver - json), json, driver_json, tail + 1);
    pb_scenario *s = NULL;
    if (pb_scenario_parse(&s, edited, strlen(edited), "bench", NULL, &diag) != PB_OK) {
        fprintf(stderr, "scene %llu: %s\n", (unsigned long long)seed, diag.message);
        exit(1);
    }
    free(json);
    free(edited);
    return s;
}

typedef struct tally {
    double cpu, steps, sim_time;
    int runs, successes;
} tally;

static void run_range(int first, int count, int stride, bool precomputed, tally *t)
{
    for (int i = first; i < count; i += stride) {
        char plan_path[64], driver[128];
        snprintf(plan_path, sizeof plan_path, "/tmp/bench_scenario_%d_%d.csv", (int)getpid(), i);
        if (precomputed) { /* plan beforehand, not timed */
            pb_scenario *planner =
                scene((uint64_t)i + 1, "{\"planner\": \"hybrid_astar\", \"max_iterations\": 100000}");
            pb_diag diag = {0};
            if (pb_scenario_save_plan(planner, plan_path, &diag) != PB_OK)
                fprintf(stderr, "plan %d: %s\n", i, diag.message);
            pb_scenario_destroy(planner);
            snprintf(driver, sizeof driver, "{\"path\": \"%s\"}", plan_path);
        } else {
            snprintf(driver, sizeof driver, "{\"planner\": \"hybrid_astar\", \"max_iterations\": 100000}");
        }
        pb_scenario *s = scene((uint64_t)i + 1, driver);
        pb_scenario_result r;
        pb_diag diag = {0};
        const double c0 = cpu_seconds();
        const pb_status st = pb_scenario_run(s, &r, &diag);
        t->cpu += cpu_seconds() - c0;
        if (st == PB_OK) {
            t->runs++;
            t->successes += r.reason == PB_REASON_SUCCESS;
            t->steps += (double)r.steps;
            t->sim_time += r.vehicle_sim_time;
            pb_scenario_result_finish(&r);
        }
        pb_scenario_destroy(s);
        remove(plan_path);
    }
}

/* WORKERS processes over the scenes: the wall time of all, and each worker's tally. */
static double parallel(int scenes, int workers, bool precomputed, tally *sum)
{
    int fds[64][2];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int w = 0; w < workers; w++) {
        if (pipe(fds[w]) != 0)
            exit(1);
        if (fork() == 0) {
            tally t = {0};
            run_range(w, scenes, workers, precomputed, &t);
            if (write(fds[w][1], &t, sizeof t) != (ssize_t)sizeof t)
                _exit(1);
            _exit(0);
        }
        close(fds[w][1]);
    }
    memset(sum, 0, sizeof *sum);
    for (int w = 0; w < workers; w++) {
        tally t;
        if (read(fds[w][0], &t, sizeof t) == (ssize_t)sizeof t) {
            sum->cpu += t.cpu;
            sum->steps += t.steps;
            sum->sim_time += t.sim_time;
            sum->runs += t.runs;
            sum->successes += t.successes;
        }
        close(fds[w][0]);
    }
    while (wait(NULL) > 0) {
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

int main(int argc, char **argv)
{
    const int scenes = argc > 1 ? atoi(argv[1]) : 20, workers = argc > 2 ? atoi(argv[2]) : 2;
    if (scenes < 1 || workers < 1 || workers > 64) {
        fprintf(stderr, "usage: bench_scenario SCENES [WORKERS]\n");
        return 2;
    }
    printf("bench_scenario %d %d: BACRE-family scenes (seeds 1..%d), dt 0.01 s\n", scenes, workers, scenes);
    printf("| driver | scenes | succeeded | steps | sim s | CPU s | scenarios/s per core (CPU) | %d workers: "
           "wall s | "
           "scenarios/s | x real time |\n|---|---|---|---|---|---|---|---|---|---|\n",
           workers);
    for (int k = 0; k < 2; k++) {
        const bool precomputed = k == 0;
        tally t;
        /* CPU time counts the run alone (the plan beforehand is not in it); the wall clock of the
         * precomputed case includes the planning beforehand, so it is measured on runs only */
        const double wall = parallel(scenes, workers, precomputed, &t);
        const double per_core = t.runs / t.cpu;
        printf("| %s | %d | %d | %.0f | %.1f | %.3f | %.1f | %.2f | %.1f | %.0f |\n",
               precomputed ? "precomputed plan (path)" : "planning included (hybrid_astar)", t.runs,
               t.successes, t.steps, t.sim_time, t.cpu, per_core, wall,
               precomputed ? workers * per_core : t.runs / wall,
               (precomputed ? t.sim_time / t.cpu * workers : t.sim_time / wall));
    }
    puts("precomputed: scenarios/s on the workers = workers x the per-core CPU rate (the wall clock there "
         "also holds "
         "the planning beforehand); planning included: runs / wall.");
    return 0;
}
