/* The benchmark's number formats, axes and label layout (src/bench/layout.h), and the
 * Markdown table built on them: one number format per column, bold only where smaller is
 * better. */
#define _GNU_SOURCE /* open_memstream */
#include "harness.h"

#include "bench/layout.h"
#include "planbench/bench.h"

#include <string.h>

static void check_text(const char *got, const char *want)
{
    CHECK_MSG(strcmp(got, want) == 0, "\"%s\" instead of \"%s\"", got, want);
}

static void test_numbers(void)
{
    char b[64];
    check_text(pb_bench_format_fixed(b, sizeof b, 1352.7, 3), "1353");
    check_text(pb_bench_format_fixed(b, sizeof b, 99.96, 3), "100"); /* rounds up to a whole number */
    check_text(pb_bench_format_fixed(b, sizeof b, 8.123, 3), "8.12");
    check_text(pb_bench_format_fixed(b, sizeof b, 0.04123, 3), "0.0412");
    check_text(pb_bench_format_fixed(b, sizeof b, 9.996, 3), "10.0"); /* rounds up a digit */
    check_text(pb_bench_format_fixed(b, sizeof b, 2870950.0, 3), "2870950");
    check_text(pb_bench_format_fixed(b, sizeof b, 1312.04, 5), "1312.0");
    check_text(pb_bench_format_fixed(b, sizeof b, 0.0, 3), "0");
    check_text(pb_bench_format_fixed(b, sizeof b, NAN, 3), "–");
    check_text(pb_bench_format_count(b, sizeof b, 950), "950");
    check_text(pb_bench_format_count(b, sizeof b, 9999), "9999");
    check_text(pb_bench_format_count(b, sizeof b, 1234.5), "1235"); /* median of an even count */
    check_text(pb_bench_format_count(b, sizeof b, 13412), "13.4k");
    check_text(pb_bench_format_count(b, sizeof b, 2870950), "2.87M");
    check_text(pb_bench_format_count(b, sizeof b, 999999), "1.00M"); /* not "1000k" */
    check_text(pb_bench_format_count(b, sizeof b, 4.2e9), "4.20G");
}

static void test_quantiles_unsolved(void)
{
    /* three runs, two solved: the median is the second cost, not NaN; q3 waits for the third */
    const double two_of_three[] = {15.89, 16.66, INFINITY};
    CHECK_NEAR(pb_plot_quantile_unsolved(two_of_three, 3, 0.5), 16.66, 0.0);
    CHECK_NEAR(pb_plot_quantile_unsolved(two_of_three, 3, 0.25), 16.275, 1e-12);
    CHECK(isinf(pb_plot_quantile_unsolved(two_of_three, 3, 0.75)));
    const double one_of_three[] = {12.0, INFINITY, INFINITY};
    CHECK(isinf(pb_plot_quantile_unsolved(one_of_three, 3, 0.5)));
    CHECK(isinf(pb_plot_quantile_unsolved(one_of_three, 3, 0.75))); /* not NaN */
}

static void test_axis_choice(void)
{
    /* PRM* 8 ms beside RRT* 1350 ms: log; three planners within a factor 3: linear */
    const double wide[] = {8.0, 1350.0, 40.0};
    const double narrow[] = {100.0, 180.0, 290.0};
    const double with_unsolved[] = {NAN, 12.0, 15.0, 0.0};
    CHECK(pb_plot_wants_log(wide, 3));
    CHECK(!pb_plot_wants_log(narrow, 3));
    CHECK(!pb_plot_wants_log(with_unsolved, 4)); /* NaN and 0 (no solution) are ignored */
    CHECK(!pb_plot_wants_log(wide, 1));

    const pb_plot_axis lg = pb_plot_axis_log(8.0, 1350.0);
    CHECK(lg.log);
    CHECK_NEAR(lg.lo, 1.0, 1e-12);
    CHECK_NEAR(lg.hi, 1e4, 1e-9);
    CHECK(lg.n_ticks == 5); /* 1, 10, 100, 1000, 10000 */
    CHECK_NEAR(pb_plot_axis_fraction(&lg, 100.0), 0.5, 1e-12);
    char b[32];
    check_text(pb_plot_tick_label(&lg, 0, b, sizeof b), "1");
    check_text(pb_plot_tick_label(&lg, 3, b, sizeof b), "1000");
    const pb_plot_axis small = pb_plot_axis_log(0.004, 0.5);
    check_text(pb_plot_tick_label(&small, 0, b, sizeof b), "0.001");

    /* the cost axis fits the data: costs 1300..1420 do not start at 0 */
    const pb_plot_axis cost = pb_plot_axis_fit(1300.0, 1420.0);
    CHECK(!cost.log);
    CHECK(cost.lo > 1200.0 && cost.lo <= 1300.0 - 0.05 * 120);
    CHECK(cost.hi >= 1420.0 + 0.05 * 120 && cost.hi < 1500.0);
    CHECK(cost.n_ticks >= 4 && cost.n_ticks <= 9);
    for (size_t i = 0; i < cost.n_ticks; i++)
        CHECK(cost.ticks[i] >= cost.lo && cost.ticks[i] <= cost.hi);
    CHECK_NEAR(pb_plot_axis_fraction(&cost, cost.lo), 0.0, 1e-12);
    /* data near 0 never gives negative costs */
    CHECK(pb_plot_axis_fit(0.5, 100.0).lo == 0.0);
    const pb_plot_axis one = pb_plot_axis_fit(5.0, 5.0);
    CHECK(one.lo < 5.0 && one.hi > 5.0);

    /* the budget axis ends at the budget, not at the next tick */
    const pb_plot_axis budget = pb_plot_axis_span(0.0, 0.3);
    CHECK(budget.hi == 0.3);
    CHECK(budget.ticks[budget.n_ticks - 1] <= 0.3 + 1e-12);
    check_text(pb_plot_tick_label(&budget, 1, b, sizeof b), budget.step == 0.05 ? "0.05" : "0.1");
}

/* The box of label i in figure coordinates (the rule in layout.h), as four corners. */
static void label_box(const pb_plot_label_layout *l, size_t i, double slot, double w, double h,
                      double box[4][2])
{
    const double x = ((double)i + 0.5) * slot;
    if (l->angle == 0.0) {
        const double c[4][2] = {{x - w / 2, 0}, {x + w / 2, 0}, {x + w / 2, h}, {x - w / 2, h}};
        memcpy(box, c, sizeof c);
        return;
    }
    const double du[2] = {cos(l->angle), -sin(l->angle)}, dv[2] = {sin(l->angle), cos(l->angle)};
    const double uv[4][2] = {{-w, -h / 2}, {0, -h / 2}, {0, h / 2}, {-w, h / 2}};
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 2; j++)
            box[k][j] = (j ? 0 : x) + uv[k][0] * du[j] + uv[k][1] * dv[j];
}

/* Separating axis test of two convex quadrilaterals: true when their interiors meet. */
static bool boxes_overlap(double a[4][2], double b[4][2])
{
    double(*polys[2])[2] = {a, b};
    for (int p = 0; p < 2; p++)
        for (int e = 0; e < 4; e++) {
            const double nx = -(polys[p][(e + 1) % 4][1] - polys[p][e][1]);
            const double ny = polys[p][(e + 1) % 4][0] - polys[p][e][0];
            double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            for (int q = 0; q < 2; q++)
                for (int k = 0; k < 4; k++) {
                    const double d = polys[q][k][0] * nx + polys[q][k][1] * ny;
                    lo[q] = fmin(lo[q], d);
                    hi[q] = fmax(hi[q], d);
                }
            const double len = hypot(nx, ny), eps = 1e-9 * len;
            if (hi[0] <= lo[1] + eps || hi[1] <= lo[0] + eps)
                return false;
        }
    return true;
}

static void check_layout(const double *widths, size_t n, double height, double slot, double gap,
                         double want_angle)
{
    const pb_plot_label_layout l = pb_plot_layout_labels(widths, n, height, slot, gap);
    CHECK_MSG(fabs(l.angle - want_angle) < 1e-12, "angle %g instead of %g", l.angle, want_angle);
    double boxes[16][4][2];
    for (size_t i = 0; i < n; i++) {
        label_box(&l, i, slot, widths[i], height, boxes[i]);
        for (int k = 0; k < 4; k++) {
            CHECK_MSG(boxes[i][k][1] <= l.depth + 1e-9, "label %zu reaches %g below, depth %g", i,
                      boxes[i][k][1], l.depth);
            CHECK_MSG(boxes[i][k][0] >= -l.overhang - 1e-9, "label %zu reaches %g, overhang %g", i,
                      boxes[i][k][0], l.overhang);
        }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            CHECK_MSG(!boxes_overlap(boxes[i], boxes[j]), "labels %zu and %zu overlap at angle %g", i, j,
                      l.angle);
}

static void test_label_layout(void)
{
    /* text extents of maps2d's labels at 13 px: RRT, RRT-Connect, RRT*, Informed RRT*, PRM*,
     * Lazy PRM, BIT*, RRdT* */
    const double maps2d[] = {30, 88, 37, 96, 40, 66, 33, 45};
    check_layout(maps2d, 2, 13, 390, 8, 0.0);     /* two planners: room to spare */
    check_layout(maps2d, 8, 13, 70, 8, M_PI / 4); /* eight: "Informed RRT*" beside "PRM*" is too wide */
    check_layout(maps2d, 8, 13, 25, 8, M_PI / 2); /* crowded: upright */
    const double same[] = {50, 50, 50};
    check_layout(same, 3, 13, 58, 8, 0.0); /* exactly fits: 50 + 8 */
    check_layout(same, 3, 13, 57, 8, M_PI / 4);
    /* the first label hangs left of the plot when rotated: the overhang says how far */
    const pb_plot_label_layout l = pb_plot_layout_labels(maps2d, 8, 13, 40, 8);
    CHECK(l.overhang > 0.0);
}

/* ---- the Markdown table ---- */

static void test_table(void)
{
    pb_bench_problem problem = {.name = "room"};
    pb_bench_planner planners[3] = {{.label = "A"}, {.label = "B"}, {.label = "C"}};
    pb_bench_script s = {.name = "t",
                         .runs = 3,
                         .time_limit_s = 2,
                         .problems = &problem,
                         .n_problems = 1,
                         .planners = planners,
                         .n_planners = 3};
    pb_bench_record rec[9];
    for (uint32_t q = 0; q < 3; q++)
        for (uint32_t i = 0; i < 3; i++) {
            pb_bench_record *r = &rec[q * 3 + i];
            *r = (pb_bench_record){.planner = q, .run = i, .status = PB_BENCH_RUN_OK, .time_s = 2.0};
            r->solved = q != 1;
            /* A: slow and short; B: never solves (few iterations); C: fast, long, many checks */
            r->time_to_first_s = q == 0 ? 1.35 + 0.01 * i : q == 2 ? 0.008 + 0.001 * i : -1.0;
            r->cost = q == 0 ? 1312.04 + i : q == 2 ? 1400.5 + i : INFINITY;
            r->iterations = q == 1 ? 10 : 2870950 + i;
            r->nodes = q == 1 ? 5 : 13412;
            r->n_feasible = r->n_visible = q == 1 ? 3 : 4000000;
        }
    pb_bench_results results = {.records = rec, .n = 9, .capacity = 9};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    pb_bench_write_table(out, &s, &results);
    fclose(out);
    CHECK_MSG(!strstr(text, "e+") && !strstr(text, "e-"), "an exponent in\n%s", text);
    const char *row_a = strstr(text, "| room | A |"), *row_b = strstr(text, "| room | B |"),
               *row_c = strstr(text, "| room | C |");
    CHECK(row_a && row_b && row_c);
    if (row_a && row_b && row_c) {
        char a[512], b[512], c[512];
        snprintf(a, sizeof a, "%.*s", (int)strcspn(row_a, "\n"), row_a);
        snprintf(b, sizeof b, "%.*s", (int)strcspn(row_b, "\n"), row_b);
        snprintf(c, sizeof c, "%.*s", (int)strcspn(row_c, "\n"), row_c);
        /* the best success rate, the fastest median time among solvers, the cheapest median
         * cost; never the smallest count (B's 10 iterations are not a merit) */
        CHECK_MSG(strstr(a, "| **3/3** |") && strstr(a, "**1313 ("), "%s", a);
        CHECK_MSG(strstr(c, "| **9.00 (") && strstr(c, "2.87M"), "%s", c);
        CHECK_MSG(!strstr(b, "**"), "%s", b);
        CHECK_MSG(strstr(a, "1360 (10.0)"), "%s", a);
        const char *counts = c;
        for (int k = 0; k < 6; k++) /* past problem, planner, success, time, CI, cost */
            counts = strchr(counts + 1, '|');
        CHECK_MSG(counts && !strstr(counts, "**"), "bold counts: %s", c);
    }
    free(text);
}

int main(void)
{
    test_numbers();
    test_quantiles_unsolved();
    test_axis_choice();
    test_label_layout();
    test_table();
    return pb_test_summary("bench_layout");
}
