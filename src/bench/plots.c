/* Benchmark figures with cairo: per problem, box plots of time to first solution and final
 * cost with each planner's success count under its box, success-rate bars, and cost over time
 * (median and quartile band) for planners that run on after their first solution. Each
 * figure is drawn once, by a function taking a cairo_t, onto PNG, SVG and PDF surfaces. Axes,
 * number formats and label placement are layout.c's. Built into the module planbench-plots.so
 * (plots_module.h), with cairo only. */
#include "bench/bench_internal.h"
#include "bench/figure.h"
#include "bench/layout.h"
#include "bench/plots_module.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- box plots ---- */

/* One box per planner: quartiles (type 7), median line, whiskers to the furthest value
 * within 1.5 IQR, points beyond. */
typedef struct box_figure {
    const pb_bench_script *s;
    const char *title, *axis_title;
    double *values[PB_FIGURE_MAX_PLANNERS]; /* sorted, scaled */
    size_t n_values[PB_FIGURE_MAX_PLANNERS];
    pb_bench_summary summary[PB_FIGURE_MAX_PLANNERS];
    char counts[PB_FIGURE_MAX_PLANNERS][48]; /* solved/runs: "9/10" */
    pb_plot_axis axis;
} box_figure;

static void draw_box(cairo_t *cr, const pb_figure_frame *f, const pb_plot_axis *a, const double *v, size_t n,
                     const pb_bench_summary *sm, double cx, double half, const double *rgb)
{
    const double iqr = sm->q3 - sm->q1;
    double wlo = sm->q1, whi = sm->q3;
    for (size_t i = 0; i < n; i++) {
        if (v[i] >= sm->q1 - 1.5 * iqr && v[i] < wlo)
            wlo = v[i];
        if (v[i] <= sm->q3 + 1.5 * iqr && v[i] > whi)
            whi = v[i];
    }
    cairo_set_line_width(cr, 1.5);
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    cairo_move_to(cr, cx, pb_figure_map_y(f, a, wlo));
    cairo_line_to(cr, cx, pb_figure_map_y(f, a, sm->q1));
    cairo_move_to(cr, cx, pb_figure_map_y(f, a, sm->q3));
    cairo_line_to(cr, cx, pb_figure_map_y(f, a, whi));
    cairo_move_to(cr, cx - half / 2, pb_figure_map_y(f, a, wlo));
    cairo_line_to(cr, cx + half / 2, pb_figure_map_y(f, a, wlo));
    cairo_move_to(cr, cx - half / 2, pb_figure_map_y(f, a, whi));
    cairo_line_to(cr, cx + half / 2, pb_figure_map_y(f, a, whi));
    cairo_stroke(cr);
    const double y3 = pb_figure_map_y(f, a, sm->q3), y1 = pb_figure_map_y(f, a, sm->q1);
    cairo_rectangle(cr, cx - half, y3, 2 * half, fmax(y1 - y3, 1.0));
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.55);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
    cairo_stroke(cr);
    cairo_set_line_width(cr, 3);
    cairo_move_to(cr, cx - half, pb_figure_map_y(f, a, sm->median));
    cairo_line_to(cr, cx + half, pb_figure_map_y(f, a, sm->median));
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1.5);
    for (size_t i = 0; i < n; i++)
        if (v[i] < wlo || v[i] > whi) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, cx, pb_figure_map_y(f, a, v[i]), 3, 0, 2 * M_PI);
            cairo_stroke(cr);
        }
}

static void draw_box_figure(cairo_t *cr, const void *figure)
{
    const box_figure *b = figure;
    const double top = pb_figure_begin_page(cr, b->title);
    const char *counts[PB_FIGURE_MAX_PLANNERS];
    for (size_t q = 0; q < b->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++)
        counts[q] = b->counts[q];
    const pb_figure_categories c = pb_figure_layout_categories(cr, b->s, counts, &b->axis, top);
    pb_figure_draw_value_axis(cr, &c.f, &b->axis, b->axis_title);
    pb_figure_draw_categories(cr, &c, b->s, counts);
    for (size_t q = 0; q < b->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        const double cx = pb_figure_slot_x(&c, q), half = fmin(c.slot * 0.3, 50);
        if (!b->n_values[q]) {
            cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
            /* upright when it would reach into the neighbours' slots */
            const bool upright = pb_figure_text_width(cr, "no solution") + PB_FIGURE_PAD > c.slot;
            cairo_save(cr);
            cairo_translate(cr, cx, (c.f.top + c.f.bottom) / 2);
            cairo_rotate(cr, upright ? -M_PI / 2 : 0);
            pb_figure_text_at(cr, 0, 0, "no solution", 0.5, 0.5);
            cairo_restore(cr);
            continue;
        }
        draw_box(cr, &c.f, &b->axis, b->values[q], b->n_values[q], &b->summary[q], cx, half,
                 pb_figure_palette[q % PB_FIGURE_N_COLORS]);
    }
    pb_figure_draw_note(
        cr, "box: quartiles; thick line: median; whiskers: 1.5 IQR; circles: beyond; under each box: runs "
            "solved of runs");
}

/* The box figure of `metric` (0: time to first solution, 1: final cost) of problem `p`. */
static pb_status box_plot(const pb_bench_script *s, const pb_bench_results *r, uint32_t p, int metric,
                          const pb_bench_record **buf, double **values, const char *dir, pb_diag *diag)
{
    box_figure b = {.s = s};
    const char *name = s->problems[p].name;
    double medians[PB_FIGURE_MAX_PLANNERS], lo = INFINITY, hi = -INFINITY, lo_positive = INFINITY;
    const size_t n_planners = s->n_planners < PB_FIGURE_MAX_PLANNERS ? s->n_planners : PB_FIGURE_MAX_PLANNERS;
    for (uint32_t q = 0; q < n_planners; q++) {
        const size_t n = pb_bench_select(r, p, q, false, buf);
        size_t solved = 0;
        b.values[q] = values[q];
        for (size_t i = 0; i < n; i++) {
            const pb_bench_record *rec = buf[i];
            const bool ok = rec->status == PB_BENCH_RUN_OK;
            solved += ok && rec->solved;
            if (metric == 0 && ok && rec->time_to_first_s >= 0.0)
                values[q][b.n_values[q]++] = rec->time_to_first_s * 1e3;
            else if (metric == 1 && ok && rec->solved && isfinite(rec->cost))
                values[q][b.n_values[q]++] = rec->cost;
        }
        snprintf(b.counts[q], sizeof b.counts[q], "%zu/%zu", solved, n);
        b.summary[q] = pb_bench_summarise(values[q], b.n_values[q]); /* sorts */
        medians[q] = b.summary[q].median;
        for (size_t i = 0; i < b.n_values[q]; i++) {
            lo = fmin(lo, values[q][i]);
            hi = fmax(hi, values[q][i]);
            if (values[q][i] > 0)
                lo_positive = fmin(lo_positive, values[q][i]);
        }
    }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    char title[300], stem[200];
    if (metric == 0 && pb_plot_wants_log(medians, n_planners)) {
        b.axis = pb_plot_axis_log(lo_positive, hi);
        b.axis_title = "time to first solution [ms], log scale";
    } else {
        b.axis = pb_plot_axis_fit(lo, hi);
        b.axis_title = metric == 0 ? "time to first solution [ms]" : "path cost";
    }
    snprintf(title, sizeof title, "%s: %s", name,
             metric == 0 ? "time to first solution" : "final path cost (solved runs)");
    b.title = title;
    snprintf(stem, sizeof stem, "%s-%s", name, metric == 0 ? "time" : "cost");
    return pb_figure_save(dir, stem, draw_box_figure, &b, diag);
}

/* ---- success bars ---- */

typedef struct bar_figure {
    const pb_bench_script *s;
    const char *title;
    double solved_pct[PB_FIGURE_MAX_PLANNERS], failed_pct[PB_FIGURE_MAX_PLANNERS];
    char counts[PB_FIGURE_MAX_PLANNERS][48];
    bool any_failed;
} bar_figure;

static void draw_bar_figure(cairo_t *cr, const void *figure)
{
    const bar_figure *b = figure;
    const double top = pb_figure_begin_page(cr, b->title);
    pb_plot_axis a = pb_plot_axis_span(0, 100);
    const pb_figure_categories c =
        pb_figure_layout_categories(cr, b->s, NULL, &a, top + PB_FIGURE_TEXT_SIZE + PB_FIGURE_PAD);
    pb_figure_draw_value_axis(cr, &c.f, &a, "runs with an exact solution [%]");
    pb_figure_draw_categories(cr, &c, b->s, NULL);
    for (size_t q = 0; q < b->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        const double cx = pb_figure_slot_x(&c, q), half = fmin(c.slot * 0.3, 50);
        const double *rgb = pb_figure_palette[q % PB_FIGURE_N_COLORS];
        const double pct = b->solved_pct[q], total = pct + b->failed_pct[q];
        cairo_rectangle(cr, cx - half, pb_figure_map_y(&c.f, &a, pct), 2 * half,
                        pb_figure_map_y(&c.f, &a, 0) - pb_figure_map_y(&c.f, &a, pct));
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_fill(cr);
        if (b->failed_pct[q] > 0) { /* crashed or killed runs, stacked on top in grey */
            cairo_rectangle(cr, cx - half, pb_figure_map_y(&c.f, &a, total), 2 * half,
                            pb_figure_map_y(&c.f, &a, pct) - pb_figure_map_y(&c.f, &a, total));
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
            cairo_fill(cr);
        }
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        pb_figure_text_at(cr, cx, pb_figure_map_y(&c.f, &a, total) - PB_FIGURE_PAD / 2, b->counts[q], 0.5,
                          1.0);
    }
    pb_figure_draw_note(
        cr, b->any_failed ? "above each bar: runs solved of runs; grey: runs that crashed or were killed"
                          : "above each bar: runs solved of runs");
}

static pb_status success_bars(const pb_bench_script *s, const pb_bench_results *r, uint32_t problem,
                              const pb_bench_record **buf, const char *dir, pb_diag *diag)
{
    bar_figure b = {.s = s};
    char title[300], stem[200];
    snprintf(title, sizeof title, "%s: success rate (%u runs, %.3g s limit)", s->problems[problem].name,
             s->runs, s->time_limit_s);
    b.title = title;
    for (uint32_t q = 0; q < s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        const size_t n = pb_bench_select(r, problem, q, false, buf);
        size_t solved = 0, failed = 0;
        for (size_t i = 0; i < n; i++) {
            solved += buf[i]->status == PB_BENCH_RUN_OK && buf[i]->solved;
            failed += buf[i]->status != PB_BENCH_RUN_OK;
        }
        b.solved_pct[q] = n ? 100.0 * (double)solved / (double)n : 0.0;
        b.failed_pct[q] = n ? 100.0 * (double)failed / (double)n : 0.0;
        b.any_failed = b.any_failed || failed;
        snprintf(b.counts[q], sizeof b.counts[q], "%zu/%zu", solved, n);
    }
    snprintf(stem, sizeof stem, "%s-success", s->problems[problem].name);
    return pb_figure_save(dir, stem, draw_bar_figure, &b, diag);
}

/* ---- cost over time ---- */

#define N_TIMES 120

/* Whether planner q's runs go on after their first solution, so their cost can fall. */
static bool runs_on(const pb_bench_script *s, uint32_t q)
{
    const pb_planner_impl *impl = pb_planner_registry_find(s->planners[q].planner);
    return s->stop != PB_BENCH_STOP_FIRST && impl && pb_planner_impl_anytime(impl);
}

typedef struct curve_figure {
    const pb_bench_script *s;
    const char *title;
    bool drawn[PB_FIGURE_MAX_PLANNERS];
    double curves[PB_FIGURE_MAX_PLANNERS][3][N_TIMES]; /* q1, median, q3 at time_at(k) */
    pb_plot_axis cost, time;
} curve_figure;

static double time_at(const curve_figure *c, int k)
{
    return c->time.hi * (k + 1) / N_TIMES;
}

/* The cost of a run at time t: its best cost so far (INFINITY before the first solution). */
static double cost_at(const pb_bench_record *rec, double t)
{
    double best = INFINITY;
    for (size_t i = 0; i < rec->n_cost_trace && rec->cost_trace[i].time_s <= t; i++)
        best = fmin(best, rec->cost_trace[i].cost);
    return best;
}

static void draw_curve(cairo_t *cr, const pb_figure_frame *f, const curve_figure *c, uint32_t q)
{
    const double *rgb = pb_figure_palette[q % PB_FIGURE_N_COLORS];
    const double(*curve)[N_TIMES] = c->curves[q];
    /* the band: along q3 forwards, back along q1, where both are finite */
    int first = -1;
    for (int k = 0; k < N_TIMES && first < 0; k++)
        if (isfinite(curve[2][k]))
            first = k;
    if (first >= 0) {
        for (int k = first; k < N_TIMES; k++) {
            const double x = pb_figure_map_x(f, &c->time, time_at(c, k)),
                         y = pb_figure_map_y(f, &c->cost, curve[2][k]);
            k == first ? cairo_move_to(cr, x, y) : cairo_line_to(cr, x, y);
        }
        for (int k = N_TIMES - 1; k >= first; k--)
            cairo_line_to(cr, pb_figure_map_x(f, &c->time, time_at(c, k)),
                          pb_figure_map_y(f, &c->cost, curve[0][k]));
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.2);
        cairo_fill(cr);
    }
    bool pen = false;
    cairo_set_line_width(cr, 2.5);
    for (int k = 0; k < N_TIMES; k++) {
        if (!isfinite(curve[1][k])) {
            pen = false;
            continue;
        }
        const double x = pb_figure_map_x(f, &c->time, time_at(c, k)),
                     y = pb_figure_map_y(f, &c->cost, curve[1][k]);
        pen ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
        pen = true;
    }
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_stroke(cr);
}

static void draw_curve_figure(cairo_t *cr, const void *figure)
{
    const curve_figure *c = figure;
    const double top = pb_figure_begin_page(cr, c->title);
    const double h = pb_figure_text_height(cr), swatch = 24;
    /* the legend sits right of the data, as wide as its longest label */
    double legend_w = 0;
    for (uint32_t q = 0; q < c->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++)
        if (c->drawn[q])
            legend_w = fmax(legend_w, pb_figure_text_width(cr, c->s->planners[q].label));
    const double note_h = PB_FIGURE_NOTE_SIZE * 1.4 + PB_FIGURE_PAD;
    pb_figure_frame f = {.left = pb_figure_value_axis_margin(cr, &c->cost),
                         .top = top + 2 * PB_FIGURE_PAD,
                         .right = PB_FIGURE_W - 2 * PB_FIGURE_PAD - swatch - PB_FIGURE_PAD - legend_w -
                                  2 * PB_FIGURE_PAD,
                         .bottom = PB_FIGURE_H - note_h - 2 * h - 3 * PB_FIGURE_PAD};
    pb_figure_draw_value_axis(cr, &f, &c->cost, "path cost");
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    for (size_t i = 0; i < c->time.n_ticks; i++) {
        char text[48];
        const double x = round(pb_figure_map_x(&f, &c->time, c->time.ticks[i])) + 0.5;
        cairo_move_to(cr, x, f.bottom);
        cairo_line_to(cr, x, f.bottom + PB_FIGURE_PAD / 2);
        cairo_stroke(cr);
        pb_figure_text_at(cr, x, f.bottom + PB_FIGURE_PAD, pb_plot_tick_label(&c->time, i, text, sizeof text),
                          0.5, 0.0);
    }
    pb_figure_text_at(cr, (f.left + f.right) / 2, f.bottom + 2 * PB_FIGURE_PAD + h,
                      "time [s] (the axis ends at the time limit)", 0.5, 0.0);
    cairo_save(cr);
    cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
    cairo_clip(cr);
    for (uint32_t q = 0; q < c->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++)
        if (c->drawn[q])
            draw_curve(cr, &f, c, q);
    cairo_restore(cr);
    double ly = f.top;
    for (uint32_t q = 0; q < c->s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        if (!c->drawn[q])
            continue;
        const double *rgb = pb_figure_palette[q % PB_FIGURE_N_COLORS];
        cairo_rectangle(cr, f.right + 2 * PB_FIGURE_PAD, ly + h / 2 - 5, swatch, 10);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        pb_figure_text_at(cr, f.right + 2 * PB_FIGURE_PAD + swatch + PB_FIGURE_PAD, ly,
                          c->s->planners[q].label, 0.0, 0.0);
        ly += h + PB_FIGURE_PAD;
    }
    pb_figure_draw_note(
        cr, "line: median best cost of the runs; band: quartiles; a line starts when half the runs "
            "have a solution");
}

static pb_status cost_curves(const pb_bench_script *s, const pb_bench_results *r, uint32_t problem,
                             const pb_bench_record **buf, double *values, const char *dir, pb_diag *diag)
{
    curve_figure *c = calloc(1, sizeof *c); /* 180 kB of curves */
    if (!c)
        return PB_ERR_NOMEM;
    c->s = s;
    c->time = pb_plot_axis_span(0, s->time_limit_s);
    /* quartiles of the cost at N_TIMES times; INFINITY (no solution yet) sorts last, so a
     * quartile is drawn only once that share of the runs has a solution */
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t q = 0; q < s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        const size_t n = runs_on(s, q) ? pb_bench_select(r, problem, q, true, buf) : 0;
        if (!n)
            continue;
        c->drawn[q] = true;
        for (int k = 0; k < N_TIMES; k++) {
            for (size_t i = 0; i < n; i++)
                values[i] = cost_at(buf[i], time_at(c, k));
            pb_bench_summarise(values, n); /* for its sorting */
            for (int j = 0; j < 3; j++)
                c->curves[q][j][k] = pb_plot_quantile_unsolved(values, n, 0.25 * (j + 1));
            /* the range of what is drawn: the median line, and the band where q3 is finite */
            const double q1 = c->curves[q][0][k], median = c->curves[q][1][k], q3 = c->curves[q][2][k];
            if (isfinite(median)) {
                lo = fmin(lo, median);
                hi = fmax(hi, median);
            }
            if (isfinite(q3)) {
                lo = fmin(lo, q1);
                hi = fmax(hi, q3);
            }
        }
    }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    c->cost = pb_plot_axis_fit(lo, hi);
    char title[300], stem[200];
    snprintf(title, sizeof title, "%s: best cost over time", s->problems[problem].name);
    c->title = title;
    snprintf(stem, sizeof stem, "%s-cost-over-time", s->problems[problem].name);
    const pb_status st = pb_figure_save(dir, stem, draw_curve_figure, c, diag);
    free(c);
    return st;
}

pb_status planbench_plots_save(const pb_bench_script *s, const pb_bench_results *r, const char *dir,
                               pb_diag *diag)
{
    pb_status made = pb_bench_make_output_dir(dir, diag);
    if (made != PB_OK)
        return made;
    const size_t room = r->n ? r->n : 1;
    const pb_bench_record **buf = malloc(room * sizeof *buf);
    double *values = malloc(room * sizeof *values);
    double **per = calloc(PB_FIGURE_MAX_PLANNERS, sizeof *per);
    pb_status st = buf && values && per ? PB_OK : PB_ERR_NOMEM;
    for (size_t q = 0; q < s->n_planners && q < PB_FIGURE_MAX_PLANNERS && st == PB_OK; q++)
        if (!(per[q] = malloc(room * sizeof **per)))
            st = PB_ERR_NOMEM;
    bool any_runs_on = false;
    for (uint32_t q = 0; q < s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++)
        any_runs_on = any_runs_on || runs_on(s, q);
    for (uint32_t p = 0; p < s->n_problems && st == PB_OK; p++) {
        for (int metric = 0; metric < 2 && st == PB_OK; metric++)
            st = box_plot(s, r, p, metric, buf, per, dir, diag);
        if (st == PB_OK)
            st = success_bars(s, r, p, buf, dir, diag);
        if (st == PB_OK && any_runs_on)
            st = cost_curves(s, r, p, buf, values, dir, diag);
    }
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, dir, 0, 0, "out of memory");
    for (size_t q = 0; per && q < PB_FIGURE_MAX_PLANNERS; q++)
        free(per[q]);
    free(per);
    free(buf);
    free(values);
    return st;
}
