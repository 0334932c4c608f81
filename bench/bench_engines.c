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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_POINTS 4096
#define ROUNDS   10
#define MAX_DIM  14
#define BATCH    PB_BLACKBOX_BATCH /* the chunks a sampled edge check hands over */

/* ---- the functions, in C and as expressions ------------------------------------------ *
 *
 * Each C function does the same floating-point operations in the same order as its
 * expression (the run checks that they agree at every point), written as a person would
 * write it in C. */

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

/* Spheres to stay out of: centre, then squared radius. */
static const double spheres4[6][5] = {
    {1.0, -0.5, 0.8, -1.2, 4.0}, {-1.5, 1.2, -0.3, 0.9, 3.2}, {0.4, 2.0, -1.8, 0.2, 2.5},
    {-2.1, -1.4, 1.1, 1.7, 3.6}, {2.2, 0.3, 1.9, -2.0, 2.9},  {-0.2, -2.3, -2.2, -0.6, 3.0},
};
static const double spheres8[8][9] = {
    {1.0, -0.5, 0.8, -1.2, 0.3, 1.4, -0.9, 0.1, 14.0}, {-1.5, 1.2, -0.3, 0.9, -1.1, 0.2, 1.6, -0.4, 12.5},
    {0.4, 2.0, -1.8, 0.2, 1.2, -1.6, 0.5, 0.9, 13.0},  {-2.1, -1.4, 1.1, 1.7, 0.6, 0.8, -0.2, -1.3, 12.0},
    {2.2, 0.3, 1.9, -2.0, -0.7, -0.5, 1.1, 1.5, 13.5}, {-0.2, -2.3, -2.2, -0.6, 1.9, 1.0, -1.4, 0.7, 12.8},
    {0.9, 0.9, 0.1, 2.1, -1.8, -2.0, 0.4, -0.8, 13.2}, {-1.0, 0.5, 1.7, -1.9, 2.0, -0.3, -1.7, 1.8, 12.2},
};

static bool spheres_c(const double *q, const double *spheres, int n, int dim)
{
    for (int s = 0; s < n; s++) {
        const double *c = spheres + s * (dim + 1);
        double d = (q[0] - c[0]) * (q[0] - c[0]);
        for (int i = 1; i < dim; i++)
            d = d + (q[i] - c[i]) * (q[i] - c[i]);
        if (!(d > c[dim]))
            return false;
    }
    return true;
}

static bool spheres4_c(const double *q, void *ctx)
{
    (void)ctx;
    return spheres_c(q, &spheres4[0][0], 6, 4);
}

static bool spheres8_c(const double *q, void *ctx)
{
    (void)ctx;
    return spheres_c(q, &spheres8[0][0], 8, 8);
}

/* A planar arm of 14 links of length ARM_LINK, joint angles x0..x13 relative to the link
 * before; no joint may be in the disc of squared radius ARM_R2 around (ARM_OX, ARM_OY). */
#define ARM_LINKS 14
#define ARM_LINK  0.07
#define ARM_OX    0.4
#define ARM_OY    0.35
#define ARM_R2    0.04

static bool arm_c(const double *q, void *ctx)
{
    (void)ctx;
    double angle = q[0], cos_sum = cos(angle), sin_sum = sin(angle);
    for (int k = 1;; k++) {
        const double px = cos_sum * ARM_LINK, py = sin_sum * ARM_LINK;
        if (!((px - ARM_OX) * (px - ARM_OX) + (py - ARM_OY) * (py - ARM_OY) > ARM_R2))
            return false;
        if (k == ARM_LINKS)
            return true;
        angle = angle + q[k];
        cos_sum = cos_sum + cos(angle);
        sin_sum = sin_sum + sin(angle);
    }
}

static char spheres4_text[2048], spheres8_text[4096], arm_text[32768];

/* Append printf-formatted text at text[*n], keeping it NUL-terminated within `size`. */
static void put(char *text, size_t size, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int written = vsnprintf(text + *n, size - *n, fmt, ap);
    va_end(ap);
    if (written > 0)
        *n = *n + (size_t)written < size ? *n + (size_t)written : size - 1;
}

static void spheres_text(char *text, size_t size, const double *spheres, int n_spheres, int dim)
{
    size_t n = 0;
    text[0] = '\0';
    for (int s = 0; s < n_spheres; s++) {
        const double *c = spheres + s * (dim + 1);
        put(text, size, &n, "%s", s ? " and " : "");
        for (int i = 0; i < dim; i++)
            put(text, size, &n, "%s(x%d%s%.17g)^2", i ? " + " : "", i, c[i] < 0 ? "+" : "-", fabs(c[i]));
        put(text, size, &n, " > %.17g", c[dim]);
    }
}

/* The angle of link k is x0 + ... + xk, written out in full for every joint: the text
 * repeats every partial sum and every cosine as often as a person typing it would. */
static void make_arm_text(void)
{
    const size_t size = sizeof arm_text;
    size_t n = 0;
    for (int joint = 1; joint <= ARM_LINKS; joint++) {
        put(arm_text, size, &n, "%s", joint > 1 ? " and " : "");
        for (int axis = 0; axis < 2; axis++) {
            put(arm_text, size, &n, "%s((", axis ? " + " : "");
            for (int k = 0; k < joint; k++) {
                put(arm_text, size, &n, "%s%s(x0", k ? " + " : "", axis ? "sin" : "cos");
                for (int i = 1; i <= k; i++)
                    put(arm_text, size, &n, "+x%d", i);
                put(arm_text, size, &n, ")");
            }
            put(arm_text, size, &n, ") * %.17g - %.17g)^2", ARM_LINK, axis ? ARM_OY : ARM_OX);
        }
        put(arm_text, size, &n, " > %.17g", ARM_R2);
    }
}

typedef struct bench_case {
    const char *name;
    int dim;
    double bound; /* every coordinate in [-bound, bound] */
    const char *expr;
    pb_blackbox_feasible_fn c_function;
} bench_case;

static const bench_case cases[] = {
    {"sbp-env example", 2, 5.0, "cos(x0)*sin(x1) > -0.22", documented_c},
    {"4 obstacles", 2, 5.0,
     "(x0-1)^2 + (x1-2)^2 > 0.64 and (x0+2)^2 + (x1+1)^2 > 1.44 and (x0-3)^2 + (x1+3)^2 > 0.81 and "
     "abs(x0+3) + abs(x1-3) > 1",
     discs_c},
    {"cubic", 3, 3.0, "x0*x0*x1 - 0.5*x1*x2 + 0.25*x2*x2*x0 - x0 + 0.1 > 0 or x0*x1*x2 > 4", poly_c},
    {"6 spheres", 4, 3.0, spheres4_text, spheres4_c},
    {"8 spheres", 8, 3.0, spheres8_text, spheres8_c},
    {"14-link planar arm, 1 disc", 14, 3.14159, arm_text, arm_c},
};

/* CPU time of this thread: on a shared machine it leaves out the time other work had the
 * core. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Repeat `body` over the points until `seconds` of CPU time have passed; the nanoseconds per
 * point. `body` handles points i .. i + step - 1. */
#define TIME_PER_POINT(seconds, step, ns_out, body)                                                          \
    do {                                                                                                     \
        uint64_t points_ = 0;                                                                                \
        const double t0_ = cpu_seconds();                                                                    \
        double t1_;                                                                                          \
        do {                                                                                                 \
            for (int i = 0; i < N_POINTS; i += (step)) {                                                     \
                body;                                                                                        \
            }                                                                                                \
            points_ += N_POINTS;                                                                             \
            t1_ = cpu_seconds();                                                                             \
        } while (t1_ - t0_ < (seconds));                                                                     \
        (ns_out) = 1e9 * (t1_ - t0_) / (double)points_;                                                      \
    } while (0)

static double points[N_POINTS][MAX_DIM];

/* ---- sampled edges: the C callback one configuration a call, the expression in batches --- */

#define N_EDGES 1024

typedef struct edge_row {
    double free_fraction;
    double states[2]; /* configurations checked per edge: C, expression */
    double ns[2];     /* CPU time per edge */
} edge_row;

static edge_row edge_rows[sizeof cases / sizeof cases[0]];

static int bench_sampled_edges(const bench_case *c, const char *bounds, double seconds, edge_row *row)
{
    pb_diag diag;
    const pb_option options[] = {{"bounds", bounds}, {"expr", c->expr}, {"edge_check", "sampled"}};
    pb_engine *engines[2] = {NULL, NULL};
    if (pb_engine_load(&engines[1], "blackbox", NULL, options, 3, &diag) != PB_OK) {
        fprintf(stderr, "bench_engines: %s\n", diag.message);
        return 1;
    }
    pb_blackbox_config params = pb_blackbox_config_default(c->dim);
    memcpy(params.lower, pb_engine_lower(engines[1]), (size_t)c->dim * sizeof(double));
    memcpy(params.upper, pb_engine_upper(engines[1]), (size_t)c->dim * sizeof(double));
    params.feasible = c->c_function;
    pb_engine_edge_check(engines[1], &params.resolution);
    if (pb_blackbox_create(&engines[0], &params, &diag) != PB_OK) {
        fprintf(stderr, "bench_engines: %s\n", diag.message);
        pb_engine_destroy(engines[1]);
        return 1;
    }
    static double targets[N_EDGES][MAX_DIM];
    pb_rng rng;
    pb_rng_seed(&rng, 2);
    for (int e = 0; e < N_EDGES; e++)
        for (int j = 0; j < c->dim; j++)
            targets[e][j] =
                fmin(c->bound, fmax(-c->bound, points[e][j] + pb_rng_range(&rng, -0.1, 0.1) * c->bound));
    int n_free = 0;
    for (int e = 0; e < N_EDGES; e++) {
        const bool free = pb_engine_visible(engines[0], points[e], targets[e]);
        if (free != pb_engine_visible(engines[1], points[e], targets[e])) {
            fprintf(stderr, "bench_engines: '%s': the edge checks disagree\n", c->name);
            return 1;
        }
        n_free += free;
    }
    row->free_fraction = (double)n_free / N_EDGES;
    row->ns[0] = row->ns[1] = INFINITY;
    for (int round = 0; round < ROUNDS; round++)
        for (int v = 0; v < 2; v++) {
            pb_engine_reset_counters(engines[v]);
            uint64_t edges = 0, hits = 0;
            const double t0 = cpu_seconds();
            double t1;
            do {
                for (int e = 0; e < N_EDGES; e++)
                    hits += pb_engine_visible(engines[v], points[e], targets[e]);
                edges += N_EDGES;
                t1 = cpu_seconds();
            } while (t1 - t0 < seconds / ROUNDS / 2);
            row->ns[v] = fmin(row->ns[v], 1e9 * (t1 - t0) / (double)edges);
            row->states[v] = (double)pb_engine_get_counters(engines[v]).n_edge_states / (double)edges;
            if (hits != edges / N_EDGES * (uint64_t)n_free)
                return 1;
        }
    pb_engine_destroy(engines[0]);
    pb_engine_destroy(engines[1]);
    return 0;
}

enum { C_ENGINE, EXPR_ENGINE, C_BARE, STACK_BARE, REGISTERS_BARE, BATCH_BARE, N_VARIANTS };

static int bench_expressions(double seconds)
{
    spheres_text(spheres4_text, sizeof spheres4_text, &spheres4[0][0], 6, 4);
    spheres_text(spheres8_text, sizeof spheres8_text, &spheres8[0][0], 8, 8);
    make_arm_text();
    printf("## black-box expression cost per feasible call (%d random points; CPU time, fastest of %d "
           "interleaved rounds, %.1f s per figure)\n\n",
           N_POINTS, ROUNDS, seconds);
    printf(
        "| function | dim | free | instructions: stack / registers / batch | C, engine (ns) | expr, engine "
        "(ns) | ratio | C, bare (ns) | stack program, bare (ns) | registers, bare (ns) | ratio | batch of "
        "%d, "
        "per point (ns) | ratio |\n",
        BATCH);
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bench_case *c = &cases[k];
        pb_rng rng;
        pb_rng_seed(&rng, 1);
        for (int i = 0; i < N_POINTS; i++)
            for (int j = 0; j < MAX_DIM; j++)
                points[i][j] = pb_rng_range(&rng, -c->bound, c->bound);
        /* rows of dim values, as a batch takes them */
        static double rows[N_POINTS * MAX_DIM];
        for (int i = 0; i < N_POINTS; i++)
            memcpy(rows + (size_t)i * (size_t)c->dim, points[i], (size_t)c->dim * sizeof(double));

        char bounds[MAX_DIM * 32] = "";
        size_t n = 0;
        for (int j = 0; j < c->dim; j++)
            put(bounds, sizeof bounds, &n, "%s%g:%g", j ? "," : "", -c->bound, c->bound);
        pb_diag diag;
        const pb_option options[] = {{"bounds", bounds}, {"expr", c->expr}};
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

        /* the variants must agree before their speed means anything */
        static double values[N_POINTS];
        pb_expr_eval_batch(expr, rows, N_POINTS, values);
        uint64_t n_free = 0;
        for (int i = 0; i < N_POINTS; i++) {
            const bool want = c->c_function(points[i], NULL);
            n_free += want;
            if (pb_engine_feasible(expr_engine, points[i]) != want ||
                pb_engine_feasible(c_engine, points[i]) != want ||
                (pb_expr_eval(expr, points[i]) != 0.0) != want ||
                (pb_expr_eval_stack(expr, points[i]) != 0.0) != want || (values[i] != 0.0) != want) {
                fprintf(stderr, "bench_engines: '%s' and its C function disagree\n", c->name);
                return 1;
            }
        }
        volatile uint64_t sink = 0;
        uint64_t hits = 0;
        double best[N_VARIANTS];
        for (int v = 0; v < N_VARIANTS; v++)
            best[v] = INFINITY;
        /* a function pointer the compiler cannot see through, as a plugin's would be */
        pb_blackbox_feasible_fn volatile c_function = c->c_function;
        const size_t dim = (size_t)c->dim;
        /* Interleaved short rounds, keeping each variant's fastest: on a shared machine the
         * minimum is the figure least disturbed by other work, and interleaving exposes all
         * of them to the same conditions. */
        for (int round = 0; round < ROUNDS; round++) {
            const double t = seconds / ROUNDS / N_VARIANTS;
            double ns[N_VARIANTS];
            TIME_PER_POINT(t, 1, ns[C_ENGINE], hits += pb_engine_feasible(c_engine, points[i]));
            TIME_PER_POINT(t, 1, ns[EXPR_ENGINE], hits += pb_engine_feasible(expr_engine, points[i]));
            TIME_PER_POINT(t, 1, ns[C_BARE], hits += c_function(points[i], NULL));
            TIME_PER_POINT(t, 1, ns[STACK_BARE], hits += pb_expr_eval_stack(expr, points[i]) != 0.0);
            TIME_PER_POINT(t, 1, ns[REGISTERS_BARE], hits += pb_expr_eval(expr, points[i]) != 0.0);
            TIME_PER_POINT(t, BATCH, ns[BATCH_BARE], {
                pb_expr_eval_batch(expr, rows + (size_t)i * dim, BATCH, values + i);
                hits += values[i] != 0.0;
            });
            for (int v = 0; v < N_VARIANTS; v++)
                best[v] = fmin(best[v], ns[v]);
        }
        sink += hits;
        (void)sink;
        printf(
            "| %s | %d | %.0f %% | %zu / %zu / %zu | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.2f | %.1f | "
            "%.2f |\n",
            c->name, c->dim, 100.0 * (double)n_free / N_POINTS, pb_expr_length(expr),
            pb_expr_register_length(expr, false), pb_expr_register_length(expr, true), best[C_ENGINE],
            best[EXPR_ENGINE], best[EXPR_ENGINE] / best[C_ENGINE], best[C_BARE], best[STACK_BARE],
            best[REGISTERS_BARE], best[REGISTERS_BARE] / best[C_BARE], best[BATCH_BARE],
            best[BATCH_BARE] / best[C_BARE]);
        pb_expr_destroy(expr);
        pb_engine_destroy(expr_engine);
        pb_engine_destroy(c_engine);
        if (bench_sampled_edges(c, bounds, seconds, &edge_rows[k]) != 0)
            return 1;
    }
    printf("\n### sampled edge checks (edge_check=sampled, the default resolution; %d short edges from "
           "the points above, each coordinate moving up to 5 %% of its range; CPU time, fastest of %d "
           "interleaved rounds)\n\n",
           N_EDGES, ROUNDS);
    printf(
        "| function | dim | free edges | configurations per edge: C / expr | C engine, per edge (ns) | expr "
        "engine, batches, per edge (ns) | ratio | per configuration: C / expr (ns) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const edge_row *r = &edge_rows[k];
        printf("| %s | %d | %.0f %% | %.1f / %.1f | %.0f | %.0f | %.2f | %.1f / %.1f |\n", cases[k].name,
               cases[k].dim, 100.0 * r->free_fraction, r->states[0], r->states[1], r->ns[0], r->ns[1],
               r->ns[1] / r->ns[0], r->ns[0] / r->states[0], r->ns[1] / r->states[1]);
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
