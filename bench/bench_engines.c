/* Engine benchmarks (issue 3):
 *
 *  1. the black-box engine's expressions: the cost of one feasible call with an `--expr`
 *     expression against the same function compiled in C, both through the engine
 *     (pb_engine_feasible) and bare (pb_expr_eval against a direct call), as ratios measured
 *     in one run;
 *  2. the 4D stick arm on maps/4d.png: feasible() and visible() calls per second, with the
 *     configurations checked per edge.
 *
 *     bench_engines [SOURCE_ROOT] [SECONDS_PER_FIGURE]
 *
 * Build with --buildtype=release. Times are noisy on shared machines; counts are exact. */
#include "engines/expr.h"
#include "planbench/planbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_POINTS 4096
#define ROUNDS   10

/* ---- the functions, in C and as expressions ------------------------------------------ */

static bool documented_c(const double *q, void *ctx)
{
    (void)ctx;
    return cos(q[0]) * sin(q[1]) > -0.22;
}

static bool discs_c(const double *q, void *ctx)
{
    (void)ctx;
    return (q[0] - 1) * (q[0] - 1) + (q[1] - 2) * (q[1] - 2) > 0.64 &&
           (q[0] + 2) * (q[0] + 2) + (q[1] + 1) * (q[1] + 1) > 1.44 &&
           (q[0] - 3) * (q[0] - 3) + (q[1] + 3) * (q[1] + 3) > 0.81 && fabs(q[0] + 3) + fabs(q[1] - 3) > 1.0;
}

static bool poly_c(const double *q, void *ctx)
{
    (void)ctx;
    const double x = q[0], y = q[1], z = q[2];
    return x * x * y - 0.5 * y * z + 0.25 * z * z * x - x + 0.1 > 0 || x * y * z > 4;
}

typedef struct bench_case {
    const char *name;
    int dim;
    const char *bounds;
    const char *expr;
    pb_blackbox_feasible_fn c_function;
} bench_case;

static const bench_case cases[] = {
    {"sbp-env example", 2, "-5:5,-5:5", "cos(x0)*sin(x1) > -0.22", documented_c},
    {"4 obstacles", 2, "-5:5,-5:5",
     "(x0-1)^2 + (x1-2)^2 > 0.64 and (x0+2)^2 + (x1+1)^2 > 1.44 and (x0-3)^2 + (x1+3)^2 > 0.81 and "
     "abs(x0+3) + abs(x1-3) > 1",
     discs_c},
    {"cubic, 3D", 3, "-3:3,-3:3,-3:3", "x0*x0*x1 - 0.5*x1*x2 + 0.25*x2*x2*x0 - x0 + 0.1 > 0 or x0*x1*x2 > 4",
     poly_c},
};

/* Repeat `body` over the points until `seconds` have passed; the nanoseconds per call. */
#define TIME_PER_CALL(seconds, calls_out, body)                                                              \
    do {                                                                                                     \
        uint64_t calls_ = 0;                                                                                 \
        const double t0_ = pb_clock_seconds();                                                               \
        double t1_;                                                                                          \
        do {                                                                                                 \
            for (int i = 0; i < N_POINTS; i++) {                                                             \
                body;                                                                                        \
            }                                                                                                \
            calls_ += N_POINTS;                                                                              \
            t1_ = pb_clock_seconds();                                                                        \
        } while (t1_ - t0_ < (seconds));                                                                     \
        (calls_out) = 1e9 * (t1_ - t0_) / (double)calls_;                                                    \
    } while (0)

static double points[N_POINTS][3];

static int bench_expressions(double seconds)
{
    printf(
        "## black-box expression cost per feasible call (%d random points; fastest of %d interleaved rounds, "
        "%.1f s per figure)\n\n",
        N_POINTS, ROUNDS, seconds);
    printf(
        "| function | instructions | C, engine (ns) | expr, engine (ns) | ratio | C, bare (ns) | expr, bare "
        "(ns) | ratio |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bench_case *c = &cases[k];
        pb_rng rng;
        pb_rng_seed(&rng, 1);
        for (int i = 0; i < N_POINTS; i++)
            for (int j = 0; j < 3; j++)
                points[i][j] = pb_rng_range(&rng, -3, 3);

        pb_diag diag;
        const pb_option options[] = {{"bounds", c->bounds}, {"expr", c->expr}};
        pb_engine *expr_engine = NULL, *c_engine = NULL;
        if (pb_engine_load(&expr_engine, "blackbox", NULL, options, 2, &diag) != PB_OK) {
            fprintf(stderr, "bench_engines: %s\n", diag.message);
            return 1;
        }
        pb_blackbox_config params = pb_blackbox_config_default(c->dim);
        memcpy(params.lower, pb_engine_lower(expr_engine), (size_t)c->dim * sizeof(double));
        memcpy(params.upper, pb_engine_upper(expr_engine), (size_t)c->dim * sizeof(double));
        params.feasible = c->c_function;
        if (pb_blackbox_create(&c_engine, &params, &diag) != PB_OK) {
            fprintf(stderr, "bench_engines: %s\n", diag.message);
            return 1;
        }
        pb_expr *expr = NULL;
        pb_expr_compile(&expr, c->expr, c->dim, NULL);

        /* the two must agree before their speed means anything */
        for (int i = 0; i < N_POINTS; i++) {
            if (pb_engine_feasible(expr_engine, points[i]) != pb_engine_feasible(c_engine, points[i]) ||
                (pb_expr_eval(expr, points[i]) != 0.0) != c->c_function(points[i], NULL)) {
                fprintf(stderr, "bench_engines: '%s' and its C function disagree\n", c->expr);
                return 1;
            }
        }
        volatile uint64_t sink = 0;
        uint64_t hits = 0;
        double c_engine_ns, expr_engine_ns, c_bare_ns, expr_bare_ns;
        /* a function pointer the compiler cannot see through, as a plugin's would be */
        pb_blackbox_feasible_fn volatile c_function = c->c_function;
        /* Interleaved short rounds, keeping each variant's fastest: on a shared machine the
         * minimum is the figure least disturbed by other work, and interleaving exposes all
         * four to the same conditions. */
        c_engine_ns = expr_engine_ns = c_bare_ns = expr_bare_ns = INFINITY;
        for (int round = 0; round < ROUNDS; round++) {
            double ns;
            TIME_PER_CALL(seconds / ROUNDS, ns, hits += pb_engine_feasible(c_engine, points[i]));
            c_engine_ns = fmin(c_engine_ns, ns);
            TIME_PER_CALL(seconds / ROUNDS, ns, hits += pb_engine_feasible(expr_engine, points[i]));
            expr_engine_ns = fmin(expr_engine_ns, ns);
            TIME_PER_CALL(seconds / ROUNDS, ns, hits += c_function(points[i], NULL));
            c_bare_ns = fmin(c_bare_ns, ns);
            TIME_PER_CALL(seconds / ROUNDS, ns, hits += pb_expr_eval(expr, points[i]) != 0.0);
            expr_bare_ns = fmin(expr_bare_ns, ns);
        }
        sink += hits;
        (void)sink;
        printf("| %s | %zu | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n", c->name, pb_expr_length(expr),
               c_engine_ns, expr_engine_ns, expr_engine_ns / c_engine_ns, c_bare_ns, expr_bare_ns,
               expr_bare_ns / c_bare_ns);
        pb_expr_destroy(expr);
        pb_engine_destroy(expr_engine);
        pb_engine_destroy(c_engine);
    }
    printf("\n");
    return 0;
}

/* ---- the 4D stick arm ------------------------------------------------------------------ */

#define N_ARM 20000

static double arm_configs[N_ARM][4];
static double arm_targets[N_ARM][4];

static int bench_stickarm(const char *root, double seconds)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/4d.png", root);
    pb_engine *engine = NULL;
    pb_diag diag;
    if (pb_engine_load(&engine, "stickarm4d", path, NULL, 0, &diag) != PB_OK) {
        char line[1024];
        pb_diag_format(&diag, line, sizeof line);
        fprintf(stderr, "bench_engines: %s\n", line);
        return 1;
    }
    pb_rng rng;
    pb_rng_seed(&rng, 4);
    /* feasible: uniform configurations; visible: from a feasible configuration, one RRT
     * step (the default, 2% of the bounds' diagonal, in the engine's metric) towards a
     * uniform one */
    const double step = 0.02 * pb_engine_extent(engine);
    int n_edges = 0;
    while (n_edges < N_ARM) {
        double a[4], b[4];
        pb_engine_sample(engine, &rng, a);
        if (!pb_engine_feasible(engine, a))
            continue;
        pb_engine_sample(engine, &rng, b);
        const double d = pb_engine_distance(engine, a, b);
        double *target = arm_targets[n_edges];
        pb_engine_interpolate(engine, a, b, d > step ? step / d : 1.0, target);
        memcpy(arm_configs[n_edges], a, sizeof a);
        n_edges++;
    }

    /* feasible throughput, on fresh uniform configurations */
    pb_rng_seed(&rng, 5);
    static double uniform[N_ARM][4];
    for (int i = 0; i < N_ARM; i++)
        pb_engine_sample(engine, &rng, uniform[i]);
    pb_engine_reset_counters(engine);
    uint64_t calls = 0, hits = 0;
    double t0 = pb_clock_seconds(), t1;
    do {
        for (int i = 0; i < N_ARM; i++)
            hits += pb_engine_feasible(engine, uniform[i]);
        calls += N_ARM;
        t1 = pb_clock_seconds();
    } while (t1 - t0 < seconds);
    const pb_engine_counters fc = pb_engine_get_counters(engine);
    const double feasible_per_s = (double)calls / (t1 - t0);
    printf("## 4D stick arm on maps/4d.png (links 30, 30 px)\n\n");
    printf("| figure | value |\n|---|---|\n");
    printf("| feasible() calls per second, uniform configurations | %.3g |\n", feasible_per_s);
    printf("| of which feasible | %.1f %% |\n", 100.0 * (double)hits / (double)calls);
    printf("| pixels read per feasible() call | %.1f |\n", (double)fc.n_pixels / (double)calls);

    pb_engine_reset_counters(engine);
    calls = hits = 0;
    t0 = pb_clock_seconds();
    do {
        for (int i = 0; i < N_ARM; i++)
            hits += pb_engine_visible(engine, arm_configs[i], arm_targets[i]);
        calls += N_ARM;
        t1 = pb_clock_seconds();
    } while (t1 - t0 < seconds);
    const pb_engine_counters vc = pb_engine_get_counters(engine);
    printf("| visible() calls per second, one RRT step (%.1f metric units) from a feasible configuration | "
           "%.3g |\n",
           step, (double)calls / (t1 - t0));
    printf("| of which visible | %.1f %% |\n", 100.0 * (double)hits / (double)calls);
    printf("| configurations checked per visible() call | %.1f |\n",
           (double)vc.n_edge_states / (double)calls);
    printf("| configurations checked per second inside edges | %.3g |\n",
           (double)vc.n_edge_states / (t1 - t0));
    printf("\n");
    pb_engine_destroy(engine);
    return 0;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    const double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    printf("bench_engines %s %g\n\n", root, seconds);
    if (bench_expressions(seconds) != 0)
        return 1;
    return bench_stickarm(root, seconds);
}
