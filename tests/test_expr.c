/* The expression compiler of the black-box engine: values, precedence, short-circuit
 * logic, the optimiser against an independent tree evaluator on random expressions, the
 * register programs (single and batch) against the stack program bit for bit, and the error
 * messages with their columns. */
#include "engines/expr.h"
#include "harness.h"

#include <string.h>

static double eval_text(const char *text, int n_vars, const double *x)
{
    pb_expr *expr = NULL;
    pb_expr_error error;
    if (pb_expr_compile(&expr, text, n_vars, &error) != PB_OK) {
        fprintf(stderr, "unexpected compile error for '%s': column %d: %s\n", text, error.column,
                error.message);
        return NAN;
    }
    const double value = pb_expr_eval(expr, x);
    pb_expr_destroy(expr);
    return value;
}

static void test_values(void)
{
    const double x[3] = {0.5, -1.25, 2.0};
    static const struct {
        const char *text;
        double value;
    } cases[] = {
        {"1 + 2 * 3", 7},
        {"(1 + 2) * 3", 9},
        {"10 - 4 - 3", 3},
        {"12 / 3 / 2", 2},
        {"-2^2", -4},
        {"2^3^2", 512},
        {"2**3", 8},
        {"2^-1", 0.5},
        {"-x0", -0.5},
        {"- -x0", 0.5},
        {"+x1", -1.25},
        {"x0 * x1 + x2", 0.5 * -1.25 + 2.0},
        {"2 * cos(x0)", 2 * 0.87758256189037276},
        {"x2 - cos(x0)", 2.0 - 0.87758256189037276},
        {"1 - x0", 0.5},
        {"x2 ^ 2", 4},
        {"x1 ^ 3", -1.953125},
        {"pow(x2, 0.5)", 1.4142135623730951},
        {"min(x0, x1) + max(x0, x1)", -0.75},
        {"min(3, x2)", 2},
        {"atan2(1, 1) * 4", 3.14159265358979323846},
        {"hypot(3, 4)", 5},
        {"sqrt(16) + abs(-3) + exp(0) + log(e)", 9},
        {"floor(-x1) + ceil(x0)", 2},
        {"sin(pi / 2) + tan(0) + asin(1) * 0 + acos(1) + atan(0)", 1},
        {".5 + 5. + 1e1 + 2.5E-1", 15.75},
        {"1 < 2", 1},
        {"2 <= 2", 1},
        {"1 > 2", 0},
        {"x0 >= 0.5", 1},
        {"x0 == 0.5", 1},
        {"x0 != 0.5", 0},
        {"1 < x2", 1},
        {"3 <= x2", 0},
        {"true", 1},
        {"false", 0},
        {"not true", 0},
        {"!false", 1},
        {"true or false and false", 1}, /* and binds tighter than or */
        {"(true or false) and false", 0},
        {"not x0 > 1", 1}, /* not is looser than comparisons */
        {"x0 > 0 && x1 > 0 || x2 > 0", 1},
        {"x0 > 0 and x1 > 0", 0},
        {"x0 > 0 and x1 < 0 and x2 > 1", 1},
        {"x0 < 0 or x1 > 0 or x2 < 1", 0},
        {"not (x0 > 0 and true)", 0},
        {"not (x0 < 0 or false)", 1},
        {"sqrt(x1) > -1", 0}, /* NaN compares false */
        {"not (sqrt(x1) > -1)", 1},
        {"2exp(0) > 0", NAN}, /* a number followed by a name is an error: checked below */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (isnan(cases[i].value))
            continue;
        const double value = eval_text(cases[i].text, 3, x);
        CHECK_MSG(fabs(value - cases[i].value) <= 1e-12 * (1 + fabs(cases[i].value)),
                  "'%s' = %.17g, want %.17g", cases[i].text, value, cases[i].value);
    }
}

static void test_documented_example(void)
{
    /* sbp-env's documentation example for its functor engine. */
    pb_expr *expr = NULL;
    CHECK(pb_expr_compile(&expr, "cos(x0)*sin(x1) > -0.22", 2, NULL) == PB_OK);
    if (!expr)
        return;
    CHECK(pb_expr_is_condition(expr));
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    for (int i = 0; i < 10000; i++) {
        const double x[2] = {pb_rng_range(&rng, -5, 5), pb_rng_range(&rng, -5, 5)};
        const bool want = cos(x[0]) * sin(x[1]) > -0.22;
        CHECK(pb_expr_eval(expr, x) == (want ? 1.0 : 0.0));
    }
    pb_expr_destroy(expr);
}

static void test_optimiser(void)
{
    static const struct {
        const char *text;
        size_t length; /* instructions, the final END included */
    } cases[] = {
        {"sin(pi / 2) * 2 + 1", 2},       /* folded to one constant */
        {"x0 * 2", 3},                    /* VAR, MUL by constant */
        {"x0 * x1", 3},                   /* VAR, MUL by variable */
        {"cos(x0) * sin(x1) > -0.22", 7}, /* VAR COS VAR SIN MUL GT-constant */
        {"2 * cos(x0)", 4},               /* VAR COS MUL-constant */
        {"x0 ^ 2", 3},                    /* VAR SQUARE */
        {"-(1 + 2)", 2},
        {"x0 > 0 and x1 > 0", 6}, /* VAR GT JUMP VAR GT END */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_expr *expr = NULL;
        CHECK(pb_expr_compile(&expr, cases[i].text, 2, NULL) == PB_OK);
        if (!expr)
            continue;
        CHECK_MSG(pb_expr_length(expr) == cases[i].length, "'%s': %zu instructions, want %zu", cases[i].text,
                  pb_expr_length(expr), cases[i].length);
        pb_expr_destroy(expr);
    }
}

/* ---- random expressions against a tree evaluator ------------------------------------ */

enum { N_VARS = 3 };

typedef struct gen {
    pb_rng rng;
    char text[8192];
    size_t len;
} gen;

static void put(gen *g, const char *s)
{
    const size_t n = strlen(s);
    if (g->len + n < sizeof g->text) {
        memcpy(g->text + g->len, s, n + 1);
        g->len += n;
    }
}

static double gen_number(gen *g, int depth, const double *x);

/* Generate a condition, writing its text and returning its value at x (the reference). */
static double gen_condition(gen *g, int depth, const double *x)
{
    const uint32_t kind = depth <= 0 ? pb_rng_below(&g->rng, 2) : pb_rng_below(&g->rng, 8);
    if (kind == 0) {
        const bool value = pb_rng_below(&g->rng, 2);
        put(g, value ? "true" : "false");
        return value;
    }
    if (kind <= 3) {
        static const char *const ops[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
        const uint32_t op = pb_rng_below(&g->rng, 6);
        put(g, "(");
        const double l = gen_number(g, depth - 1, x);
        put(g, ops[op]);
        const double r = gen_number(g, depth - 1, x);
        put(g, ")");
        const bool results[] = {l<r, l <= r, l> r, l >= r, l == r, l != r};
        return results[op];
    }
    if (kind == 4) {
        put(g, "not (");
        const double v = gen_condition(g, depth - 1, x);
        put(g, ")");
        return v == 0.0;
    }
    const bool is_and = kind <= 5;
    put(g, "(");
    const double l = gen_condition(g, depth - 1, x);
    put(g, is_and ? " and " : " or ");
    const double r = gen_condition(g, depth - 1, x);
    put(g, ")");
    return is_and ? (l != 0 && r != 0) : (l != 0 || r != 0);
}

static double gen_number(gen *g, int depth, const double *x)
{
    char buf[64];
    const uint32_t kind = depth <= 0 ? pb_rng_below(&g->rng, 2) : pb_rng_below(&g->rng, 9);
    switch (kind) {
    case 0: {
        const double k = (double)((int)pb_rng_below(&g->rng, 17) - 8) / 4.0;
        snprintf(buf, sizeof buf, "(%.17g)", k);
        put(g, buf);
        return k;
    }
    case 1: {
        const uint32_t i = pb_rng_below(&g->rng, N_VARS);
        snprintf(buf, sizeof buf, "x%u", i);
        put(g, buf);
        return x[i];
    }
    case 2: {
        put(g, "-(");
        const double v = gen_number(g, depth - 1, x);
        put(g, ")");
        return -v;
    }
    case 3: {
        static const char *const names[] = {"sin", "cos", "abs", "sqrt", "exp", "floor", "atan"};
        const uint32_t f = pb_rng_below(&g->rng, 7);
        put(g, names[f]);
        put(g, "(");
        const double v = gen_number(g, depth - 1, x);
        put(g, ")");
        const double results[] = {sin(v), cos(v), fabs(v), sqrt(v), exp(v), floor(v), atan(v)};
        return results[f];
    }
    case 4: {
        static const char *const names[] = {"min", "max", "atan2", "hypot"};
        const uint32_t f = pb_rng_below(&g->rng, 4);
        put(g, names[f]);
        put(g, "(");
        const double l = gen_number(g, depth - 1, x);
        put(g, ", ");
        const double r = gen_number(g, depth - 1, x);
        put(g, ")");
        const double results[] = {fmin(l, r), fmax(l, r), atan2(l, r), hypot(l, r)};
        return results[f];
    }
    case 5: {
        /* small integer powers keep values finite */
        put(g, "(");
        const double l = gen_number(g, depth - 1, x);
        const int e = (int)pb_rng_below(&g->rng, 4);
        snprintf(buf, sizeof buf, ")^%d", e);
        put(g, buf);
        return pow(l, e);
    }
    default: {
        static const char *const ops[] = {" + ", " - ", " * ", " / "};
        const uint32_t op = pb_rng_below(&g->rng, 4);
        put(g, "(");
        const double l = gen_number(g, depth - 1, x);
        put(g, ops[op]);
        const double r = gen_number(g, depth - 1, x);
        put(g, ")");
        const double results[] = {l + r, l - r, l * r, l / r};
        return results[op];
    }
    }
}

static bool same_value(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void test_random_against_tree(void)
{
    gen g;
    pb_rng points;
    pb_rng_seed(&points, 99);
    int mismatches = 0;
    for (int trial = 0; trial < 3000; trial++) {
        /* the same generator seed replays the same expression at other points */
        const uint64_t seed = 1000 + (uint64_t)trial;
        double x[N_VARS];
        for (int i = 0; i < N_VARS; i++)
            x[i] = pb_rng_range(&points, -3, 3);
        pb_rng_seed(&g.rng, seed);
        g.len = 0;
        g.text[0] = '\0';
        const bool condition = trial % 2 == 0;
        const double want = condition ? gen_condition(&g, 5, x) : gen_number(&g, 5, x);
        pb_expr *expr = NULL;
        pb_expr_error error;
        if (pb_expr_compile(&expr, g.text, N_VARS, &error) != PB_OK) {
            CHECK_MSG(false, "'%s' did not compile: column %d: %s", g.text, error.column, error.message);
            continue;
        }
        CHECK(pb_expr_is_condition(expr) == condition);
        double got = pb_expr_eval(expr, x);
        if (!same_value(got, want) && mismatches++ < 5)
            CHECK_MSG(false, "'%s' at (%g, %g, %g) = %.17g, tree says %.17g", g.text, x[0], x[1], x[2], got,
                      want);
        /* a second point, same program */
        for (int i = 0; i < N_VARS; i++)
            x[i] = pb_rng_range(&points, -3, 3);
        pb_rng_seed(&g.rng, seed);
        g.len = 0;
        const double want2 = condition ? gen_condition(&g, 5, x) : gen_number(&g, 5, x);
        got = pb_expr_eval(expr, x);
        if (!same_value(got, want2) && mismatches++ < 5)
            CHECK_MSG(false, "'%s' at (%g, %g, %g) = %.17g, tree says %.17g", g.text, x[0], x[1], x[2], got,
                      want2);
        pb_expr_destroy(expr);
    }
    CHECK(mismatches == 0);
}

/* ---- the register programs against the stack program -------------------------------- */

/* The same double, bit for bit (any NaN is the same NaN: payloads are not promised). */
static bool same_bits(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Points for the comparisons: random ones, and values that decide comparisons and signs
 * exactly (0, -0, the generator's constants). */
static void pick_point(pb_rng *rng, int k, double *x)
{
    static const double exact[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 2.0, 0.25};
    for (int i = 0; i < N_VARS; i++)
        x[i] = k % 3 == 0 ? exact[pb_rng_below(rng, 8)] : pb_rng_range(rng, -3, 3);
}

/* Every point of `expr`: the register program equals the stack program bit for bit, and a
 * batch (of a size that is no multiple of the lanes) equals single calls. Returns the
 * failures. */
static int check_registers(const pb_expr *expr, const char *text, pb_rng *rng)
{
    enum { N_POINTS = 37 };
    double xs[N_POINTS][N_VARS], batch[N_POINTS];
    int failures = 0;
    for (int k = 0; k < N_POINTS; k++) {
        pick_point(rng, k, xs[k]);
        const double got = pb_expr_eval(expr, xs[k]), want = pb_expr_eval_stack(expr, xs[k]);
        if (!same_bits(got, want) && failures++ < 3)
            CHECK_MSG(false, "'%s' at (%g, %g, %g): registers %.17g, stack %.17g", text, xs[k][0], xs[k][1],
                      xs[k][2], got, want);
    }
    pb_expr_eval_batch(expr, &xs[0][0], N_POINTS, batch);
    for (int k = 0; k < N_POINTS; k++) {
        const double single = pb_expr_eval(expr, xs[k]);
        if (!same_bits(batch[k], single) && failures++ < 3)
            CHECK_MSG(false, "'%s' at (%g, %g, %g): batch %.17g, single %.17g", text, xs[k][0], xs[k][1],
                      xs[k][2], batch[k], single);
    }
    return failures;
}

static void test_registers_random(void)
{
    gen g;
    pb_rng points;
    pb_rng_seed(&points, 7);
    static char text[3 * sizeof g.text + 64];
    int failures = 0;
    const double zero[N_VARS] = {0};
    for (int trial = 0; trial < 3000; trial++) {
        pb_rng_seed(&g.rng, 50000 + (uint64_t)trial);
        g.len = 0;
        g.text[0] = '\0';
        const bool condition = trial % 2 == 0;
        if (condition)
            gen_condition(&g, 5, zero);
        else
            gen_number(&g, 5, zero);
        /* every third expression repeats itself, for the common subexpressions */
        if (trial % 3 == 0 && condition)
            snprintf(text, sizeof text, "(%s) and not (%s) or (%s)", g.text, g.text, g.text);
        else if (trial % 3 == 0)
            snprintf(text, sizeof text, "(%s) * cos(%s) - (%s)", g.text, g.text, g.text);
        /* and every third has sums of squares around it, for the superinstructions */
        else if (trial % 3 == 1 && condition)
            snprintf(text, sizeof text, "(x2-0.5)^2 + (x1+1.5)^2 > 2 and (%s) or (x0+0.5)^2 + (x2-1)^2 <= 3",
                     g.text);
        else if (trial % 3 == 1)
            snprintf(text, sizeof text, "(x0-0.5)^2 + (x1+1.5)^2 + ((%s) - 0.25)^2", g.text);
        else
            snprintf(text, sizeof text, "%s", g.text);
        pb_expr *expr = NULL;
        pb_expr_error error;
        if (pb_expr_compile(&expr, text, N_VARS, &error) != PB_OK) {
            CHECK_MSG(false, "'%s' did not compile: column %d: %s", text, error.column, error.message);
            continue;
        }
        CHECK(pb_expr_register_length(expr, false) > 0 && pb_expr_register_length(expr, true) > 0);
        failures += check_registers(expr, text, &points);
        pb_expr_destroy(expr);
    }
    CHECK(failures == 0);
}

/* Repeated subterms are computed once, the obstacle shapes are single instructions, and
 * programs too large for the frames still give the stack program's values. */
static void test_registers_shapes(void)
{
    static const struct {
        const char *text;
        size_t single, batch; /* register instructions, END included */
    } cases[] = {
        /* SUM_SQUARES with its two TERMs, GT, END */
        {"(x0-1)^2 + (x1+2)^2 > 0.64", 5, 5},
        {"(x0-1)^2 + (x1+2)^2 + (x2-0.5)^2", 5, 5},
        /* a unary operator of x + k: two SHIFT_UNARY(abs), ADD, GT, END */
        {"abs(x0+3) + abs(x1-3) > 1", 5, 5},
        {"sin(x0 - 0.5) * exp(x2 + 1)", 4, 4},
        /* ADD_SHIFT_SQUARE, END; a sum after a sum: SUM TERM TERM, SUM TERM TERM, ADD, END */
        {"x2 + (x0-1)^2", 2, 2},
        {"((x0-1)^2 + (x1+2)^2) * ((x2-1)^2 + (x0+2)^2)", 8, 8},
        /* x0 > 1 or ((x0-1)^2 + (x1+2)^2 > 0.5 and (x2-1)^2 + (x0+2)^2 > 0.5): a compare-jump,
         * a sum compared and tested by the jump (with its two terms), a sum, GT, END; no sum
         * reaches across a jump */
        {"x0 > 1 or (x0-1)^2 + (x1+2)^2 > 0.5 and (x2-1)^2 + (x0+2)^2 > 0.5", 9, 12},
        /* the sum tested by an `or`: SUM-COMPARE-JUMP TERM TERM, LT, END; in lanes SUM TERM
         * TERM LE LT MAX END */
        {"(x0-1)^2 + (x1+2)^2 <= 0.5 or x2 < 0", 5, 7},
        /* x0 + x1 once: ADD COS ADD SIN ADD... */
        {"cos(x0 + x1) + sin(x0 + x1) + (x0 + x1)", 6, 6},
        /* compare-and-jump, GT into the chain's slot, END; in lanes GT GT MUL END */
        {"x0 > 0 and x1 > 0", 3, 4},
        {"x0 > 0 or x1 > 0 and x2 < 1", 4, 6},
    };
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_expr *expr = NULL;
        CHECK(pb_expr_compile(&expr, cases[i].text, N_VARS, NULL) == PB_OK);
        if (!expr)
            continue;
        CHECK_MSG(pb_expr_register_length(expr, false) == cases[i].single &&
                      pb_expr_register_length(expr, true) == cases[i].batch,
                  "'%s': %zu and %zu register instructions, want %zu and %zu", cases[i].text,
                  pb_expr_register_length(expr, false), pb_expr_register_length(expr, true), cases[i].single,
                  cases[i].batch);
        CHECK(check_registers(expr, cases[i].text, &rng) == 0);
        pb_expr_destroy(expr);
    }
    /* n distinct terms, then the same n again: with the repeats computed once, all n stay
     * live to the end. 300 overflow the batch frame, 700 the single one; both then drop the
     * common subexpressions and still fit. */
    static const int sizes[] = {300, 700};
    static char text[700 * 2 * 24];
    for (size_t s = 0; s < 2; s++) {
        size_t n = 0;
        for (int copy = 0; copy < 2; copy++)
            for (int i = 0; i < sizes[s]; i++)
                n += (size_t)snprintf(text + n, sizeof text - n, "%ssin(x%d + %d)", n ? " + " : "", i % 3, i);
        pb_expr *expr = NULL;
        CHECK(pb_expr_compile(&expr, text, N_VARS, NULL) == PB_OK);
        if (!expr)
            continue;
        CHECK(pb_expr_register_length(expr, false) > 0 && pb_expr_register_length(expr, true) > 0);
        CHECK(check_registers(expr, "a long sum", &rng) == 0);
        pb_expr_destroy(expr);
    }
    /* a sum of 300 different squares is one instruction with more terms than the batch frame
     * has slots, compared by an `and`: one compare-and-jump over 300 terms */
    size_t n = 0;
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s(x%d - %g)^2", i ? " + " : "", i % 3, 0.01 * i);
    snprintf(text + n, sizeof text - n, " > 2000 and x0 < 2");
    pb_expr *expr = NULL;
    CHECK(pb_expr_compile(&expr, text, N_VARS, NULL) == PB_OK);
    if (expr) {
        CHECK_MSG(pb_expr_register_length(expr, false) == 1 + 300 + 2, "%zu",
                  pb_expr_register_length(expr, false));
        CHECK(check_registers(expr, "300 squares", &rng) == 0);
        pb_expr_destroy(expr);
    }
}

/* ---- interval evaluation ------------------------------------------------------------ */

/* Does the interval hold the value (NaN only when the interval says NaN is possible)? */
static bool interval_holds(pb_expr_interval v, double value)
{
    if (isnan(value))
        return v.nan;
    return v.lo <= value && value <= v.hi;
}

/* `text` over random boxes (some thin, some wide, some around 0 and the poles): the interval
 * holds the value at the corners and at random points of each box; returns the failures. */
static int check_intervals(const char *text, pb_rng *rng, int n_boxes)
{
    pb_expr *expr = NULL;
    pb_expr_error error;
    if (pb_expr_compile(&expr, text, N_VARS, &error) != PB_OK) {
        CHECK_MSG(false, "'%s' did not compile: %s", text, error.message);
        return 1;
    }
    int failures = 0;
    for (int box = 0; box < n_boxes; box++) {
        double lo[N_VARS], hi[N_VARS];
        for (int i = 0; i < N_VARS; i++) {
            const double scale = box % 4 == 0 ? 20.0 : box % 4 == 1 ? 3.0 : box % 4 == 2 ? 0.5 : 1e-6;
            const double c = pb_rng_range(rng, -4, 4), w = pb_rng_range(rng, 0, scale);
            lo[i] = c - w;
            hi[i] = c + w;
            if (box % 9 == 0)
                lo[i] = hi[i] = c; /* a point box */
        }
        const pb_expr_interval v = pb_expr_eval_interval(expr, lo, hi);
        const pb_expr_truth truth = pb_expr_eval_box(expr, lo, hi);
        for (int k = 0; k < 64 + 8; k++) {
            double x[N_VARS];
            for (int i = 0; i < N_VARS; i++)
                x[i] = k < 8 ? ((k >> i) & 1 ? hi[i] : lo[i]) : pb_rng_range(rng, lo[i], hi[i]);
            const double value = pb_expr_eval(expr, x);
            const bool bad = !interval_holds(v, value) || (truth == PB_EXPR_TRUE && !(value != 0.0)) ||
                             (truth == PB_EXPR_FALSE && value != 0.0);
            if (bad && failures++ < 3)
                CHECK_MSG(false,
                          "'%s' over [%g, %g] x [%g, %g] x [%g, %g]: [%.17g, %.17g]%s, truth %d, but %.17g",
                          text, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], v.lo, v.hi, v.nan ? " or NaN" : "",
                          (int)truth, value);
        }
    }
    pb_expr_destroy(expr);
    return failures;
}

static void test_intervals(void)
{
    /* every operator, alone and combined */
    static const char *const texts[] = {
        "x0 + x1",
        "x0 - x1",
        "x0 * x1",
        "x0 / x1",
        "x0 ^ x1",
        "x0 ^ 2",
        "x0 ^ 3",
        "x0 ^ -2",
        "x0 ^ -1",
        "x0 ^ 0.5",
        "pow(x0, x1)",
        "-x0",
        "sin(x0)",
        "cos(x0)",
        "tan(x0)",
        "asin(x0 / 4)",
        "acos(x0 / 4)",
        "atan(x0)",
        "sqrt(x0)",
        "abs(x0)",
        "exp(x0)",
        "log(x0)",
        "floor(x0)",
        "ceil(x0)",
        "min(x0, x1)",
        "max(x0, x1)",
        "atan2(x0, x1)",
        "hypot(x0, x1)",
        "x0 < x1",
        "x0 <= x1",
        "x0 > x1",
        "x0 >= x1",
        "x0 == x1",
        "x0 != x1",
        "floor(x0) == floor(x1)",
        "not (x0 < x1)",
        "x0 < 0 and x1 > 0",
        "x0 < 0 or x1 > 0",
        "x0 < 0 and x1 > 0 and x2 < 1",
        "(x0 < 0 or x1 > 0) and not (x2 > 1 or x0 > 2)",
        "sqrt(x0) < 1 or log(x1) > 0",
        "x0 / x1 > 1 and x2 != 0",
        "min(sqrt(x0), x1) > 0",
        "max(log(x0), x1) < 1",
        "cos(x0) * sin(x1) > -0.22",
        "abs(x0) > 0.3 or x1 > 4",
        "tan(x0 * x1) + exp(-x2 ^ 2) > 0.5",
        "hypot(x0 - 1, x1 + 1) > 1.5 and atan2(x1, x0) < 1",
        "x0 * x0 - 2 * x0 * x1 + x1 * x1 >= 0",
    };
    pb_rng rng;
    pb_rng_seed(&rng, 31);
    int failures = 0;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        failures += check_intervals(texts[i], &rng, 300);
    CHECK_MSG(failures == 0, "%d sampled values outside their intervals", failures);

    /* random expressions of every operator, nested */
    gen g;
    const double x[N_VARS] = {0.5, -0.5, 1.5};
    int random_failures = 0;
    for (int trial = 0; trial < 400; trial++) {
        pb_rng_seed(&g.rng, 5000 + (uint64_t)trial);
        g.len = 0;
        g.text[0] = '\0';
        if (trial % 2 == 0)
            gen_condition(&g, 4, x);
        else
            gen_number(&g, 4, x);
        random_failures += check_intervals(g.text, &rng, 20);
    }
    CHECK_MSG(random_failures == 0, "%d failures on random expressions", random_failures);

    /* tight where it can be: a point box is its value, a box inside the free set is true */
    pb_expr *expr = NULL;
    CHECK(pb_expr_compile(&expr, "cos(x0) * sin(x1) > -0.22", 2, NULL) == PB_OK);
    const double lo[2] = {0.1, 0.1}, hi[2] = {0.2, 0.2};
    CHECK(pb_expr_eval_box(expr, lo, hi) == PB_EXPR_TRUE);
    const double blo[2] = {3.0, -1.6}, bhi[2] = {3.1, -1.5}; /* cos ~ -1, sin ~ -1: product ~ 1 > -0.22 */
    CHECK(pb_expr_eval_box(expr, blo, bhi) == PB_EXPR_TRUE);
    const double flo[2] = {3.0, 1.5}, fhi[2] = {3.1, 1.6}; /* product ~ -1: blocked */
    CHECK(pb_expr_eval_box(expr, flo, fhi) == PB_EXPR_FALSE);
    pb_expr_destroy(expr);
    /* undefined somewhere: unknown, never true */
    CHECK(pb_expr_compile(&expr, "1 / x0 > -1000", 1, NULL) == PB_OK);
    const double zlo[1] = {-0.5}, zhi[1] = {0.5};
    CHECK(pb_expr_eval_box(expr, zlo, zhi) == PB_EXPR_UNKNOWN);
    pb_expr_destroy(expr);
    CHECK(pb_expr_compile(&expr, "sqrt(x0) > -1", 1, NULL) == PB_OK);
    CHECK(pb_expr_eval_box(expr, zlo, zhi) == PB_EXPR_UNKNOWN); /* NaN below 0 is false */
    const double plo[1] = {0.0}, phi[1] = {0.5};
    CHECK(pb_expr_eval_box(expr, plo, phi) == PB_EXPR_TRUE);
    pb_expr_destroy(expr);
    CHECK(pb_expr_compile(&expr, "log(x0) < 100", 1, NULL) == PB_OK);
    CHECK(pb_expr_eval_box(expr, zlo, zhi) == PB_EXPR_UNKNOWN);
    pb_expr_destroy(expr);
}

/* ---- errors ------------------------------------------------------------------------- */

static void test_errors(void)
{
    static const struct {
        const char *text;
        int n_vars;
        int column;
        const char *message; /* a substring of the message */
    } cases[] = {
        {"x0 + y > 0", 2, 6, "unknown variable 'y'"},
        {"x0 + xy > 0", 2, 6, "unknown variable 'xy'"},
        {"cos(x0)*sin(x1) > -0.22 and x2 < 1", 2, 29, "unknown variable 'x2' (the coordinates are x0 to x1)"},
        {"x01 > 0", 2, 1, "unknown variable 'x01'"},
        {"x1 > 0", 1, 1, "the only coordinate is x0"},
        {"x0 +", 2, 5, "found the end of the expression"},
        {"(x0 + 1", 2, 8, "expected ')' to close '(' at column 1"},
        {"x0 > 1)", 2, 7, "unmatched ')'"},
        {"foo(x0) > 0", 2, 1, "unknown function 'foo'"},
        {"sin(x0, x1) > 0", 2, 1, "'sin' takes 1 argument, got 2"},
        {"max(x0) > 0", 2, 1, "'max' takes 2 arguments, got 1"},
        {"sin() > 0", 2, 1, "'sin' takes 1 argument, got 0"},
        {"min(x0, x1", 2, 11, "expected ',' or ')' to close '(' at column 4"},
        {"x0 = 1", 2, 4, "'=' is not an operator; compare with '=='"},
        {"x0 > 1 & x1 > 1", 2, 8, "'&' is not an operator"},
        {"x0 > 1 | x1 > 1", 2, 8, "'|' is not an operator"},
        {"1.2.3 > x0", 2, 1, "malformed number '1.2.3'"},
        {"2e > x0", 2, 1, "malformed number '2e'"},
        {"x0 > 1e999", 2, 6, "number '1e999' is too large"},
        {"x0 # 2", 2, 4, "unexpected character '#'"},
        {"x0 > \xc3\xa9", 2, 6, "unexpected byte 0xC3"},
        {"", 2, 1, "empty expression"},
        {"   ", 2, 4, "empty expression"},
        {"0 < x0 < 1", 2, 8, "comparisons cannot be chained"},
        {"x0 and x1 > 0", 2, 4, "'and' needs conditions, but its left operand is a number"},
        {"x0 > 0 or x1", 2, 8, "'or' needs conditions, but its right operand is a number"},
        {"(x0 > 0) + 1", 2, 10, "'+' needs numbers, but its left operand is a condition"},
        {"2 * (x0 > 0)", 2, 3, "'*' needs numbers, but its right operand is a condition"},
        {"(x0 > 0) < 1", 2, 10, "'<' compares numbers, but its left operand is a condition"},
        {"-(x0 > 0)", 2, 1, "'-' needs a number, but its operand is a condition"},
        {"not x0", 2, 1, "'not' needs a condition, but its operand is a number"},
        {"sin(x0 > 0)", 2, 5, "'sin' needs numbers, but argument 1 is a condition"},
        {"sin > 0", 2, 1, "'sin' is a function; call it as sin(...)"},
        {"x0 x1", 2, 4, "expected an operator, found 'x1'"},
        {"2exp(0) > 0", 2, 2, "expected an operator, found 'exp'"},
        {"x0 > > 1", 2, 6, "expected a number, a variable, a function or '(', found '>'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_expr *expr = (pb_expr *)&expr; /* must be reset to NULL on failure */
        pb_expr_error error;
        const pb_status status = pb_expr_compile(&expr, cases[i].text, cases[i].n_vars, &error);
        CHECK_MSG(status == PB_ERR_INVALID, "'%s' compiled", cases[i].text);
        CHECK(expr == NULL);
        if (status == PB_OK)
            pb_expr_destroy(expr);
        CHECK_MSG(error.column == cases[i].column, "'%s': column %d, want %d (%s)", cases[i].text,
                  error.column, cases[i].column, error.message);
        CHECK_MSG(strstr(error.message, cases[i].message) != NULL, "'%s': message '%s' lacks '%s'",
                  cases[i].text, error.message, cases[i].message);
    }

    /* the formatted one-liner the CLI prints */
    pb_expr *expr = NULL;
    pb_expr_error error;
    CHECK(pb_expr_compile(&expr, "x0 + y > 0", 2, &error) == PB_ERR_INVALID);
    char line[512];
    pb_expr_error_format(&error, line, sizeof line);
    CHECK_MSG(strcmp(line, "expression: column 6: unknown variable 'y'") == 0, "%s", line);

    /* nesting deeper than the parser allows is an error, not a crash */
    char deep[4096];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        deep[n++] = '(';
    deep[n++] = 'x';
    deep[n++] = '0';
    for (int i = 0; i < 1000; i++)
        deep[n++] = ')';
    deep[n] = '\0';
    CHECK(pb_expr_compile(&expr, deep, 2, &error) == PB_ERR_INVALID);
    CHECK_MSG(strstr(error.message, "nested too deeply") != NULL, "%s", error.message);
    n = 0;
    for (int i = 0; i < 1000; i++) {
        deep[n++] = '-';
    }
    deep[n++] = '1';
    deep[n] = '\0';
    CHECK(pb_expr_compile(&expr, deep, 2, &error) == PB_ERR_INVALID);
    CHECK_MSG(strstr(error.message, "nested too deeply") != NULL, "%s", error.message);

    /* but moderately deep nesting is fine */
    n = 0;
    for (int i = 0; i < 50; i++)
        deep[n++] = '(';
    deep[n++] = 'x';
    deep[n++] = '1';
    for (int i = 0; i < 50; i++)
        deep[n++] = ')';
    memcpy(deep + n, " > 0", 5);
    CHECK(pb_expr_compile(&expr, deep, 2, &error) == PB_OK);
    pb_expr_destroy(expr);

    /* a long flat expression: a sum of 5000 terms */
    static char flat[5000 * 6 + 16];
    n = 0;
    for (int i = 0; i < 5000; i++) {
        memcpy(flat + n, i ? " + x0" : "x0", i ? 5 : 2);
        n += i ? 5 : 2;
    }
    flat[n] = '\0';
    CHECK(pb_expr_compile(&expr, flat, 1, &error) == PB_OK);
    if (expr) {
        const double x0 = 0.5;
        CHECK_NEAR(pb_expr_eval(expr, &x0), 2500.0, 1e-9);
        pb_expr_destroy(expr);
    }
}

int main(void)
{
    test_values();
    test_documented_example();
    test_optimiser();
    test_random_against_tree();
    test_registers_random();
    test_registers_shapes();
    test_intervals();
    test_errors();
    return pb_test_summary("expr");
}
