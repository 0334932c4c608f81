/* Inverse kinematics of the manipulator engine (issue 17): time and work per solve.
 *
 *   bench_ik SOURCE_ROOT [POSES]
 *
 * For POSES (default 200) random collision-free configurations of the project's arm
 * (worlds/pbarm6_divider.xml) and, when ../shared has it, of MotionBenchMaker's Panda (7
 * joints, meshes; bookshelf_small:1), the tool frame's pose by forward kinematics is asked of
 * pb_engine_inverse_kinematics() with the default config (0.1 mm, 0.001 rad, 100 restarts),
 * once for one solution and once for four, the reference being the world's start. Prints per
 * solve the median and mean wall time, the median CPU time, starts, damped least-squares steps and
 * collision queries, and how many poses were solved; then the same for a pose out of reach (the
 * full 101 starts, a failure). Counts are exact, times are this machine's. */
#include "engines/manipulator/manipulator.h"
#include "planbench/planbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(values, n, sizeof *values, cmp_double);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

static double mean(const double *values, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += values[i];
    return n ? sum / (double)n : NAN;
}

/* `n` solves of `targets` with at most `k` solutions each; one line of figures. */
static void run(pb_engine *engine, const char *label, const pb_pose *targets, size_t n, size_t k,
                const double *reference)
{
    double *wall = calloc(n, sizeof *wall), *cpu = calloc(n, sizeof *cpu);
    double solutions[8 * PB_MAX_DIM];
    pb_ik_config config = pb_ik_config_default();
    config.max_solutions = k;
    config.reference = reference;
    size_t solved = 0, found = 0;
    const pb_manipulator_counts before = pb_manipulator_get_counts();
    for (size_t i = 0; i < n && wall && cpu; i++) {
        size_t n_solutions = 0;
        config.seed = i + 1;
        const double t0 = pb_clock_seconds(), c0 = (double)clock() / CLOCKS_PER_SEC;
        const pb_status st =
            pb_engine_inverse_kinematics(solutions, &n_solutions, engine, NULL, &targets[i], &config, NULL);
        cpu[i] = (double)clock() / CLOCKS_PER_SEC - c0; /* the process's: one thread */
        wall[i] = pb_clock_seconds() - t0;
        solved += st == PB_OK;
        found += n_solutions;
    }
    const pb_manipulator_counts after = pb_manipulator_get_counts();
    const double queries =
        (double)(after.bound_queries - before.bound_queries + after.fcl_collide - before.fcl_collide);
    const double m_wall = mean(wall, n);
    printf("| %s | %zu | %zu/%zu | %.2f | %.3f | %.3f | %.3f | %.1f | %.0f | %.0f |\n", label, k, solved, n,
           (double)found / (double)n, median(wall, n) * 1e3, m_wall * 1e3, median(cpu, n) * 1e3,
           (double)(after.ik_starts - before.ik_starts) / (double)n,
           (double)(after.ik_steps - before.ik_steps) / (double)n, queries / (double)n);
    free(wall);
    free(cpu);
}

static void bench_robot(const char *label, const char *path, const pb_option *options, size_t n_options,
                        size_t poses)
{
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    if (pb_engine_load(&engine, NULL, path, options, n_options, &diag) != PB_OK) {
        fprintf(stderr, "%s: %s\n", path, diag.message);
        return;
    }
    double start[PB_MAX_DIM], goal[PB_MAX_DIM], q[PB_MAX_DIM];
    const bool has_start = pb_engine_defaults(engine, start, goal);
    const int tool = pb_manipulator_tool_link(engine);
    pb_pose *targets = calloc(poses, sizeof *targets), links[PB_MANIPULATOR_MAX_LINKS];
    pb_rng rng;
    pb_rng_seed(&rng, 1);
    for (size_t i = 0; i < poses && targets; i++) {
        do
            pb_engine_sample(engine, &rng, q);
        while (!pb_engine_feasible(engine, q));
        pb_manipulator_fk(engine, q, links);
        targets[i] = links[tool];
    }
    if (targets) {
        char name[200];
        snprintf(name, sizeof name, "%s (%d joints, tool '%s')", label, pb_engine_dim(engine),
                 pb_manipulator_robot(engine)->links[tool].name);
        run(engine, name, targets, poses, 1, has_start ? start : NULL);
        run(engine, name, targets, poses, 4, has_start ? start : NULL);
        /* out of reach: 10 m up */
        for (size_t i = 0; i < poses; i++)
            targets[i].t[2] += 10.0;
        snprintf(name, sizeof name, "%s, out of reach", label);
        run(engine, name, targets, poses < 20 ? poses : 20, 1, has_start ? start : NULL);
    }
    free(targets);
    pb_engine_destroy(engine);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_ik SOURCE_ROOT [POSES]\n");
        return 2;
    }
    const size_t poses = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 200;
    if (poses == 0) {
        fprintf(stderr, "POSES must be > 0\n");
        return 2;
    }
    printf("bench_ik %s %zu\n\n", argv[1], poses);
    printf("| robot | K | solved | solutions/pose | median ms | mean ms | median CPU ms | starts/solve | "
           "steps/solve | collision queries/solve |\n|---|---|---|---|---|---|---|---|---|---|\n");
    char path[2048];
    snprintf(path, sizeof path, "%s/worlds/pbarm6_divider.xml", argv[1]);
    bench_robot("pbarm6", path, NULL, 0, poses);
    snprintf(path, sizeof path, "%s/../shared/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt", argv[1]);
    if (access(path, R_OK) == 0) {
        const pb_option problem = {"problem", "bookshelf_small:1"};
        bench_robot("panda", path, &problem, 1, poses);
    } else {
        printf("\n(MotionBenchMaker's Panda not found beside the source tree: skipped)\n");
    }
    return 0;
}
