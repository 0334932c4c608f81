/* Benchmark figures with cairo: per problem, box plots of time to first solution and final
 * cost, success-rate bars, and cost over time (median and quartile band) for anytime
 * planners. Without cairo (meson option `plots`), pb_bench_save_plots says so. */
#include "bench/bench_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if PB_HAVE_CAIRO
#include <cairo.h>

bool pb_bench_has_plots(void)
{
    return true;
}

#define FIG_W    900
#define FIG_H    560
#define MARGIN_L 90
#define MARGIN_R 30
#define MARGIN_T 60
#define MARGIN_B 90

static const double palette[][3] = {{0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17},
                                    {0.84, 0.15, 0.16}, {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29},
                                    {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50}};
#define N_COLORS (sizeof palette / sizeof palette[0])

typedef struct axis {
    double lo, hi; /* data range */
    double step;   /* tick spacing */
} axis;

static axis nice_axis(double lo, double hi, bool from_zero)
{
    if (!(hi > lo)) {
        const double pad = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1.0;
        lo -= pad;
        hi += pad;
    }
    if (from_zero && lo > 0)
        lo = 0;
    const double raw = (hi - lo) / 6.0;
    const double mag = pow(10.0, floor(log10(raw)));
    const double norm = raw / mag;
    const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    return (axis){floor(lo / step) * step, ceil(hi / step) * step, step};
}

static double map_y(const axis *a, double v)
{
    return FIG_H - MARGIN_B - (v - a->lo) / (a->hi - a->lo) * (FIG_H - MARGIN_T - MARGIN_B);
}

static void text_at(cairo_t *cr, double x, double y, const char *text, double align_x, double align_y)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - e.width * align_x - e.x_bearing, y - e.height * align_y - e.y_bearing);
    cairo_show_text(cr, text);
}

static cairo_t *begin_figure(cairo_surface_t **surface, const char *title)
{
    *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, FIG_W, FIG_H);
    cairo_t *cr = cairo_create(*surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 18);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    text_at(cr, FIG_W / 2.0, 30, title, 0.5, 0.5);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 13);
    return cr;
}

/* The y axis with grid lines and its label (rotated). */
static void draw_y_axis(cairo_t *cr, const axis *a, const char *label, const char *unit_fmt)
{
    cairo_set_line_width(cr, 1);
    for (double v = a->lo; v <= a->hi + a->step * 0.5; v += a->step) {
        const double y = round(map_y(a, v)) + 0.5;
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, MARGIN_L, y);
        cairo_line_to(cr, FIG_W - MARGIN_R, y);
        cairo_stroke(cr);
        char text[32];
        snprintf(text, sizeof text, unit_fmt, fabs(v) < a->step * 1e-6 ? 0.0 : v);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        text_at(cr, MARGIN_L - 8, y, text, 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, MARGIN_L + 0.5, MARGIN_T);
    cairo_line_to(cr, MARGIN_L + 0.5, FIG_H - MARGIN_B);
    cairo_line_to(cr, FIG_W - MARGIN_R, FIG_H - MARGIN_B + 0.5);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_translate(cr, 22, (MARGIN_T + FIG_H - MARGIN_B) / 2.0);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, label, 0.5, 0.5);
    cairo_restore(cr);
}

static pb_status end_figure(cairo_t *cr, cairo_surface_t *surface, const char *dir, const char *file,
                            pb_diag *diag)
{
    cairo_destroy(cr);
    char path[4400], tmp[4500];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(tmp, sizeof tmp, "%s.tmp.png", path);
    const cairo_status_t cs = cairo_surface_write_to_png(surface, tmp);
    cairo_surface_destroy(surface);
    if (cs != CAIRO_STATUS_SUCCESS || rename(tmp, path) != 0) {
        remove(tmp);
        pb_diag_set(diag, path, 0, 0, "cannot write the figure: %s", cairo_status_to_string(cs));
        return PB_ERR_IO;
    }
    return PB_OK;
}

/* One box per planner: quartiles (type 7), median line, whiskers to the furthest value
 * within 1.5 IQR, points beyond. `values[q]` has `counts[q]` values. */
static pb_status box_plot(const pb_bench_script *s, double **values, const size_t *counts, double scale,
                          const char *title, const char *ylabel, const char *dir, const char *file,
                          pb_diag *diag)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t q = 0; q < s->n_planners; q++)
        for (size_t i = 0; i < counts[q]; i++) {
            lo = fmin(lo, values[q][i] * scale);
            hi = fmax(hi, values[q][i] * scale);
        }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    const axis a = nice_axis(lo, hi, true);
    cairo_surface_t *surface;
    cairo_t *cr = begin_figure(&surface, title);
    draw_y_axis(cr, &a, ylabel, "%g");
    const double slot = (double)(FIG_W - MARGIN_L - MARGIN_R) / (double)s->n_planners;
    for (size_t q = 0; q < s->n_planners; q++) {
        const double cx = MARGIN_L + slot * ((double)q + 0.5), half = fmin(slot * 0.3, 60);
        const double *rgb = palette[q % N_COLORS];
        char text[160];
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, cx, FIG_H - MARGIN_B + 18, s->planners[q].label, 0.5, 0.5);
        snprintf(text, sizeof text, "n = %zu", counts[q]);
        cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
        text_at(cr, cx, FIG_H - MARGIN_B + 38, text, 0.5, 0.5);
        if (counts[q] == 0) {
            text_at(cr, cx, map_y(&a, (a.lo + a.hi) / 2), "no solution", 0.5, 0.5);
            continue;
        }
        double *v = values[q];
        for (size_t i = 0; i < counts[q]; i++)
            v[i] *= scale;
        const pb_bench_summary sm = pb_bench_summarise(v, counts[q]);
        const double iqr = sm.q3 - sm.q1;
        double wlo = sm.q1, whi = sm.q3;
        for (size_t i = 0; i < counts[q]; i++) {
            if (v[i] >= sm.q1 - 1.5 * iqr && v[i] < wlo)
                wlo = v[i];
            if (v[i] <= sm.q3 + 1.5 * iqr && v[i] > whi)
                whi = v[i];
        }
        cairo_set_line_width(cr, 1.5);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        cairo_move_to(cr, cx, map_y(&a, wlo));
        cairo_line_to(cr, cx, map_y(&a, sm.q1));
        cairo_move_to(cr, cx, map_y(&a, sm.q3));
        cairo_line_to(cr, cx, map_y(&a, whi));
        cairo_move_to(cr, cx - half / 2, map_y(&a, wlo));
        cairo_line_to(cr, cx + half / 2, map_y(&a, wlo));
        cairo_move_to(cr, cx - half / 2, map_y(&a, whi));
        cairo_line_to(cr, cx + half / 2, map_y(&a, whi));
        cairo_stroke(cr);
        const double y3 = map_y(&a, sm.q3), y1 = map_y(&a, sm.q1);
        cairo_rectangle(cr, cx - half, y3, 2 * half, fmax(y1 - y3, 1.0));
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.55);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
        cairo_stroke(cr);
        cairo_set_line_width(cr, 3);
        cairo_move_to(cr, cx - half, map_y(&a, sm.median));
        cairo_line_to(cr, cx + half, map_y(&a, sm.median));
        cairo_stroke(cr);
        for (size_t i = 0; i < counts[q]; i++)
            if (v[i] < wlo || v[i] > whi) {
                cairo_arc(cr, cx, map_y(&a, v[i]), 3, 0, 2 * M_PI);
                cairo_stroke(cr);
            }
        snprintf(text, sizeof text, "median %.4g", sm.median);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, cx + half + 6, map_y(&a, sm.median), text, 0.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
    text_at(cr, FIG_W / 2.0, FIG_H - 20, "boxes: quartiles; line: median; whiskers: 1.5 IQR; circles: beyond",
            0.5, 0.5);
    return end_figure(cr, surface, dir, file, diag);
}

static pb_status success_bars(const pb_bench_script *s, const pb_bench_results *r, uint32_t problem,
                              const pb_bench_record **buf, const char *dir, const char *file, pb_diag *diag)
{
    char title[300];
    snprintf(title, sizeof title, "%s: success rate (%u runs, %.3g s limit)", s->problems[problem].name,
             s->runs, s->time_limit_s);
    const axis a = {0, 100, 20};
    cairo_surface_t *surface;
    cairo_t *cr = begin_figure(&surface, title);
    draw_y_axis(cr, &a, "runs with an exact solution [%]", "%g");
    const double slot = (double)(FIG_W - MARGIN_L - MARGIN_R) / (double)s->n_planners;
    for (uint32_t q = 0; q < s->n_planners; q++) {
        const size_t n = pb_bench_select(r, problem, q, false, buf);
        size_t solved = 0, failed = 0;
        for (size_t i = 0; i < n; i++) {
            solved += buf[i]->status == PB_BENCH_RUN_OK && buf[i]->solved;
            failed += buf[i]->status != PB_BENCH_RUN_OK;
        }
        const double pct = n ? 100.0 * (double)solved / (double)n : 0.0;
        const double fail_pct = n ? 100.0 * (double)failed / (double)n : 0.0;
        const double cx = MARGIN_L + slot * ((double)q + 0.5), half = fmin(slot * 0.3, 60);
        const double *rgb = palette[q % N_COLORS];
        cairo_rectangle(cr, cx - half, map_y(&a, pct), 2 * half, map_y(&a, 0) - map_y(&a, pct));
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_fill(cr);
        if (failed) { /* crashed or killed runs, stacked on top in grey */
            cairo_rectangle(cr, cx - half, map_y(&a, pct + fail_pct), 2 * half,
                            map_y(&a, pct) - map_y(&a, pct + fail_pct));
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
            cairo_fill(cr);
        }
        char text[96];
        snprintf(text, sizeof text, "%.0f%% (%zu/%zu)", pct, solved, n);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, cx, map_y(&a, pct + fail_pct) - 12, text, 0.5, 0.5);
        text_at(cr, cx, FIG_H - MARGIN_B + 18, s->planners[q].label, 0.5, 0.5);
        if (failed) {
            snprintf(text, sizeof text, "%zu crashed or killed (grey)", failed);
            cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
            text_at(cr, cx, FIG_H - MARGIN_B + 38, text, 0.5, 0.5);
        }
    }
    return end_figure(cr, surface, dir, file, diag);
}

/* The cost of a run at time t: its best cost so far (INFINITY before the first solution). */
static double cost_at(const pb_bench_record *rec, double t)
{
    double best = INFINITY;
    for (size_t i = 0; i < rec->n_cost_trace && rec->cost_trace[i].time_s <= t; i++)
        best = fmin(best, rec->cost_trace[i].cost);
    return best;
}

#define N_TIMES           120
#define PLOT_MAX_PLANNERS 64

static pb_status cost_curves(const pb_bench_script *s, const pb_bench_results *r, uint32_t problem,
                             const pb_bench_record **buf, double *values, const char *dir, const char *file,
                             pb_diag *diag)
{
    /* quartiles of the cost at N_TIMES times; INFINITY (no solution yet) sorts last, so a
     * quartile is drawn only once that share of the runs has a solution */
    double t_max = 0.0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < r->n; i++)
        if (r->records[i].problem == problem)
            t_max = fmax(t_max, r->records[i].time_s);
    if (!(t_max > 0))
        t_max = s->time_limit_s;
    static double curves[PLOT_MAX_PLANNERS][3][N_TIMES];
    bool drawn[PLOT_MAX_PLANNERS] = {0};
    for (uint32_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        const pb_planner_impl *impl = pb_planner_registry_find(s->planners[q].planner);
        if (!impl || !pb_planner_impl_anytime(impl))
            continue;
        const size_t n = pb_bench_select(r, problem, q, true, buf);
        if (!n)
            continue;
        drawn[q] = true;
        for (int k = 0; k < N_TIMES; k++) {
            const double t = t_max * (k + 1) / N_TIMES;
            for (size_t i = 0; i < n; i++)
                values[i] = cost_at(buf[i], t);
            const pb_bench_summary sm = pb_bench_summarise(values, n);
            curves[q][0][k] = sm.q1;
            curves[q][1][k] = sm.median;
            curves[q][2][k] = sm.q3;
            for (int j = 0; j < 3; j++)
                if (isfinite(curves[q][j][k])) {
                    lo = fmin(lo, curves[q][j][k]);
                    hi = fmax(hi, curves[q][j][k]);
                }
        }
    }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    char title[300];
    snprintf(title, sizeof title, "%s: best cost over time (median, quartile band)",
             s->problems[problem].name);
    const axis a = nice_axis(lo, hi, false);
    const axis tx = nice_axis(0, t_max, true);
    cairo_surface_t *surface;
    cairo_t *cr = begin_figure(&surface, title);
    draw_y_axis(cr, &a, "path cost", "%g");
    const double plot_w = FIG_W - MARGIN_L - MARGIN_R;
#define MAP_X(t) (MARGIN_L + (t) / tx.hi * plot_w)
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    for (double t = 0; t <= tx.hi + tx.step * 0.5; t += tx.step) {
        char text[32];
        snprintf(text, sizeof text, "%g", t);
        text_at(cr, MAP_X(t), FIG_H - MARGIN_B + 16, text, 0.5, 0.5);
    }
    text_at(cr, MARGIN_L + plot_w / 2, FIG_H - MARGIN_B + 40, "time [s]", 0.5, 0.5);
    int legend = 0;
    for (uint32_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        if (!drawn[q])
            continue;
        const double *rgb = palette[q % N_COLORS];
        /* the band: along q3 forwards, back along q1, where both are finite */
        int first = -1;
        for (int k = 0; k < N_TIMES; k++)
            if (isfinite(curves[q][2][k])) {
                first = k;
                break;
            }
        if (first >= 0) {
            for (int k = first; k < N_TIMES; k++) {
                const double x = MAP_X(t_max * (k + 1) / N_TIMES), y = map_y(&a, curves[q][2][k]);
                k == first ? cairo_move_to(cr, x, y) : cairo_line_to(cr, x, y);
            }
            for (int k = N_TIMES - 1; k >= first; k--)
                cairo_line_to(cr, MAP_X(t_max * (k + 1) / N_TIMES), map_y(&a, curves[q][0][k]));
            cairo_close_path(cr);
            cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.2);
            cairo_fill(cr);
        }
        bool pen = false;
        cairo_set_line_width(cr, 2.5);
        for (int k = 0; k < N_TIMES; k++) {
            if (!isfinite(curves[q][1][k])) {
                pen = false;
                continue;
            }
            const double x = MAP_X(t_max * (k + 1) / N_TIMES), y = map_y(&a, curves[q][1][k]);
            pen ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
            pen = true;
        }
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_stroke(cr);
        const double ly = MARGIN_T + 14 + 20 * legend++;
        cairo_rectangle(cr, FIG_W - MARGIN_R - 190, ly - 6, 24, 12);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, FIG_W - MARGIN_R - 158, ly, s->planners[q].label, 0.0, 0.5);
    }
#undef MAP_X
    return end_figure(cr, surface, dir, file, diag);
}

pb_status pb_bench_save_plots(const pb_bench_script *s, const pb_bench_results *r, const char *dir,
                              pb_diag *diag)
{
    pb_status made = pb_bench_make_output_dir(dir, diag);
    if (made != PB_OK)
        return made;
    const pb_bench_record **buf = malloc((r->n ? r->n : 1) * sizeof *buf);
    double *values = malloc((r->n ? r->n : 1) * sizeof *values);
    double **per = calloc(s->n_planners, sizeof *per);
    size_t *counts = calloc(s->n_planners, sizeof *counts);
    pb_status st = buf && values && per && counts ? PB_OK : PB_ERR_NOMEM;
    for (size_t q = 0; q < s->n_planners && st == PB_OK; q++)
        if (!(per[q] = malloc((r->n ? r->n : 1) * sizeof **per)))
            st = PB_ERR_NOMEM;
    for (uint32_t p = 0; p < s->n_problems && st == PB_OK; p++) {
        const char *name = s->problems[p].name;
        char file[200], title[300];
        for (int metric = 0; metric < 2 && st == PB_OK; metric++) {
            for (uint32_t q = 0; q < s->n_planners; q++) {
                const size_t n = pb_bench_select(r, p, q, true, buf);
                counts[q] = 0;
                for (size_t i = 0; i < n; i++) {
                    if (metric == 0 && buf[i]->time_to_first_s >= 0.0)
                        per[q][counts[q]++] = buf[i]->time_to_first_s;
                    else if (metric == 1 && buf[i]->solved && isfinite(buf[i]->cost))
                        per[q][counts[q]++] = buf[i]->cost;
                }
            }
            snprintf(file, sizeof file, "%s-%s.png", name, metric == 0 ? "time" : "cost");
            snprintf(title, sizeof title, "%s: %s", name,
                     metric == 0 ? "time to first solution" : "final path cost (solved runs)");
            st = box_plot(s, per, counts, metric == 0 ? 1e3 : 1.0, title,
                          metric == 0 ? "time to first solution [ms]" : "path cost", dir, file, diag);
        }
        if (st != PB_OK)
            break;
        snprintf(file, sizeof file, "%s-success.png", name);
        st = success_bars(s, r, p, buf, dir, file, diag);
        bool any_anytime = false;
        for (uint32_t q = 0; q < s->n_planners; q++) {
            const pb_planner_impl *impl = pb_planner_registry_find(s->planners[q].planner);
            any_anytime = any_anytime || (impl && pb_planner_impl_anytime(impl));
        }
        if (st == PB_OK && any_anytime) {
            snprintf(file, sizeof file, "%s-cost-over-time.png", name);
            st = cost_curves(s, r, p, buf, values, dir, file, diag);
        }
    }
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, dir, 0, 0, "out of memory");
    for (size_t q = 0; per && q < s->n_planners; q++)
        free(per[q]);
    free(per);
    free(counts);
    free(buf);
    free(values);
    return st;
}

#else

bool pb_bench_has_plots(void)
{
    return false;
}

pb_status pb_bench_save_plots(const pb_bench_script *s, const pb_bench_results *r, const char *dir,
                              pb_diag *diag)
{
    (void)s;
    (void)r;
    pb_diag_set(diag, dir, 0, 0, "this build has no plotting (configure with cairo: -Dplots=enabled)");
    return PB_ERR_UNSUPPORTED;
}

#endif
