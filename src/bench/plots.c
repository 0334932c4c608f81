/* Benchmark figures with cairo: per problem, box plots of time to first solution and final
 * cost with each planner's success count under its box, success-rate bars, and cost over time
 * (median and quartile band) for planners that run on after their first solution. Each
 * figure is drawn once, by a function taking a cairo_t, onto PNG, SVG and PDF surfaces. Axes,
 * number formats and label placement are layout.c's. Without cairo (meson option `plots`),
 * pb_bench_save_plots says so. */
#include "bench/bench_internal.h"
#include "bench/layout.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if PB_HAVE_CAIRO
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

bool pb_bench_has_plots(void)
{
    return true;
}

/* Figure size: pixels of the PNG, points of the SVG and PDF. */
#define FIG_W      900
#define FIG_H      560
#define TITLE_SIZE 18
#define TEXT_SIZE  13
#define NOTE_SIZE  11
#define PAD        8 /* between texts and the lines they label */

static const double palette[][3] = {{0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17},
                                    {0.84, 0.15, 0.16}, {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29},
                                    {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50}};
#define N_COLORS (sizeof palette / sizeof palette[0])

/* The data area of a figure, in device units (y grows down). */
typedef struct frame {
    double left, top, right, bottom;
} frame;

static double map_y(const frame *f, const pb_plot_axis *a, double v)
{
    return f->bottom - pb_plot_axis_fraction(a, v) * (f->bottom - f->top);
}

static double map_x(const frame *f, const pb_plot_axis *a, double v)
{
    return f->left + pb_plot_axis_fraction(a, v) * (f->right - f->left);
}

static double text_width(cairo_t *cr, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

/* The height of a line of the current font (ascent + descent). */
static double text_height(cairo_t *cr)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    return fe.ascent + fe.descent;
}

/* Draw `text` with its advance box aligned at (x, y): align 0 = left/top, 0.5 = centre,
 * 1 = right/bottom. Vertical alignment uses the font's ascent and descent, so labels of one
 * row share a baseline. */
static void text_at(cairo_t *cr, double x, double y, const char *text, double align_x, double align_y)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, x - text_width(cr, text) * align_x, y - (fe.ascent + fe.descent) * align_y + fe.ascent);
    cairo_show_text(cr, text);
}

static void set_font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* White page and the title; leaves the text font selected. Returns the title's bottom. */
static double begin_page(cairo_t *cr, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    set_font(cr, TITLE_SIZE, true);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    text_at(cr, FIG_W / 2.0, 14, title, 0.5, 0.0);
    const double bottom = 14 + text_height(cr);
    set_font(cr, TEXT_SIZE, false);
    return bottom;
}

/* The widest tick label of `a`. */
static double tick_width(cairo_t *cr, const pb_plot_axis *a)
{
    double w = 0;
    for (size_t i = 0; i < a->n_ticks; i++) {
        char text[48];
        w = fmax(w, text_width(cr, pb_plot_tick_label(a, i, text, sizeof text)));
    }
    return w;
}

/* The left margin for a value axis: its title (rotated) and its tick labels. */
static double value_axis_margin(cairo_t *cr, const pb_plot_axis *a)
{
    return 2 * PAD + text_height(cr) + tick_width(cr, a) + PAD;
}

static void grid_line(cairo_t *cr, const frame *f, double y, double grey)
{
    y = round(y) + 0.5;
    cairo_set_source_rgb(cr, grey, grey, grey);
    cairo_move_to(cr, f->left, y);
    cairo_line_to(cr, f->right, y);
    cairo_stroke(cr);
}

/* The vertical value axis at f->left: grid lines (and 2..9 minor lines of a log axis), tick
 * labels, its title rotated at the figure's left edge, and the frame's left and bottom lines. */
static void draw_value_axis(cairo_t *cr, const frame *f, const pb_plot_axis *a, const char *title)
{
    cairo_set_line_width(cr, 1);
    if (a->log)
        for (double decade = a->lo; decade < a->hi; decade *= 10)
            for (int m = 2; m <= 9; m++)
                grid_line(cr, f, map_y(f, a, decade * m), 0.95);
    for (size_t i = 0; i < a->n_ticks; i++) {
        const double y = map_y(f, a, a->ticks[i]);
        grid_line(cr, f, y, 0.86);
        char text[48];
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        text_at(cr, f->left - PAD, y, pb_plot_tick_label(a, i, text, sizeof text), 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, f->left + 0.5, f->top);
    cairo_line_to(cr, f->left + 0.5, f->bottom + 0.5);
    cairo_line_to(cr, f->right, f->bottom + 0.5);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_translate(cr, PAD, (f->top + f->bottom) / 2.0);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, title, 0.5, 0.0);
    cairo_restore(cr);
}

/* Category figures (boxes, bars): one slot per planner under the data area. */
typedef struct category_axis {
    frame f;
    double slot;
    pb_plot_label_layout labels;
    bool counts_in_labels; /* the success counts did not fit a row of their own */
    double counts_y;       /* top of the row of success counts */
    double labels_y;       /* the line the labels hang from (layout.h's y = 0) */
} category_axis;

#define PLOT_MAX_PLANNERS 64

/* Size the margins of a category figure from the measured text: the value axis on the left,
 * under the data a row of per-planner `counts` (may be NULL) and the planner labels (turned
 * when they do not fit side by side), then a note line at the bottom. */
static category_axis layout_categories(cairo_t *cr, const pb_bench_script *s, const char *const *counts,
                                       const pb_plot_axis *a, double top)
{
    category_axis c = {.f = {.left = value_axis_margin(cr, a), .top = top + 2 * PAD, .right = FIG_W - 24}};
    const size_t n = s->n_planners < PLOT_MAX_PLANNERS ? s->n_planners : PLOT_MAX_PLANNERS;
    const double h = text_height(cr);
    double widths[PLOT_MAX_PLANNERS], count_w = 0;
    for (size_t q = 0; q < n; q++) {
        widths[q] = text_width(cr, s->planners[q].label);
        if (counts)
            count_w = fmax(count_w, text_width(cr, counts[q]));
    }
    /* a rotated first label may hang left of the data area: widen the margin until it fits */
    for (int pass = 0; pass < 3; pass++) {
        c.slot = (c.f.right - c.f.left) / (double)n;
        c.counts_in_labels = counts && count_w + PAD > c.slot;
        if (c.counts_in_labels)
            for (size_t q = 0; q < n; q++)
                widths[q] =
                    text_width(cr, s->planners[q].label) + text_width(cr, "  ") + text_width(cr, counts[q]);
        c.labels = pb_plot_layout_labels(widths, n, h, c.slot, PAD);
        if (c.labels.overhang + PAD <= c.f.left)
            break;
        c.f.left = c.labels.overhang + PAD;
    }
    const double counts_h = counts && !c.counts_in_labels ? h + PAD : 0;
    const double rise = c.labels.angle == 0.0 ? 0.0 : h / 2 * cos(c.labels.angle);
    const double note_h = NOTE_SIZE * 1.4 + PAD;
    c.f.bottom = FIG_H - note_h - c.labels.depth - rise - counts_h - 2 * PAD;
    c.counts_y = c.f.bottom + PAD;
    c.labels_y = c.counts_y + counts_h + rise;
    return c;
}

static double slot_x(const category_axis *c, size_t q)
{
    return c->f.left + c->slot * ((double)q + 0.5);
}

/* The planner labels (with their counts when those did not fit a row) and the counts row. */
static void draw_categories(cairo_t *cr, const category_axis *c, const pb_bench_script *s,
                            const char *const *counts)
{
    for (size_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        const double x = slot_x(c, q);
        char label[200];
        if (c->counts_in_labels)
            snprintf(label, sizeof label, "%s  %s", s->planners[q].label, counts[q]);
        else
            snprintf(label, sizeof label, "%s", s->planners[q].label);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        if (c->labels.angle == 0.0) {
            text_at(cr, x, c->labels_y, label, 0.5, 0.0);
        } else {
            cairo_save(cr);
            cairo_translate(cr, x, c->labels_y);
            cairo_rotate(cr, -c->labels.angle);
            text_at(cr, 0, 0, label, 1.0, 0.5);
            cairo_restore(cr);
        }
        if (counts && !c->counts_in_labels) {
            cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
            text_at(cr, x, c->counts_y, counts[q], 0.5, 0.0);
        }
    }
}

static void draw_note(cairo_t *cr, const char *note)
{
    set_font(cr, NOTE_SIZE, false);
    cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
    text_at(cr, FIG_W / 2.0, FIG_H - PAD, note, 0.5, 1.0);
    set_font(cr, TEXT_SIZE, false);
}

/* ---- writing a figure three times ---- */

typedef void (*draw_fn)(cairo_t *cr, const void *figure);

/* Draw onto a new surface of format `ext` writing to `tmp`. */
static cairo_status_t render(const char *ext, const char *tmp, draw_fn draw, const void *figure)
{
    cairo_surface_t *surface = strcmp(ext, "png") == 0
                                   ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, FIG_W, FIG_H)
                               : strcmp(ext, "svg") == 0 ? cairo_svg_surface_create(tmp, FIG_W, FIG_H)
                                                         : cairo_pdf_surface_create(tmp, FIG_W, FIG_H);
    cairo_t *cr = cairo_create(surface);
    draw(cr, figure);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && strcmp(ext, "png") == 0)
        st = cairo_surface_write_to_png(surface, tmp);
    cairo_surface_finish(surface);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    return st;
}

/* DIR/STEM.png, .svg and .pdf, each written to a temporary file and renamed. */
static pb_status save_figure(const char *dir, const char *stem, draw_fn draw, const void *figure,
                             pb_diag *diag)
{
    static const char *const formats[] = {"png", "svg", "pdf"};
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        char path[4400], tmp[4500];
        snprintf(path, sizeof path, "%s/%s.%s", dir, stem, formats[k]);
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        const cairo_status_t cs = render(formats[k], tmp, draw, figure);
        if (cs != CAIRO_STATUS_SUCCESS || rename(tmp, path) != 0) {
            const char *why = cs != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(cs) : strerror(errno);
            remove(tmp);
            pb_diag_set(diag, path, 0, 0, "cannot write the figure: %s", why);
            return PB_ERR_IO;
        }
    }
    return PB_OK;
}

/* ---- box plots ---- */

/* One box per planner: quartiles (type 7), median line, whiskers to the furthest value
 * within 1.5 IQR, points beyond. */
typedef struct box_figure {
    const pb_bench_script *s;
    const char *title, *axis_title;
    double *values[PLOT_MAX_PLANNERS]; /* sorted, scaled */
    size_t n_values[PLOT_MAX_PLANNERS];
    pb_bench_summary summary[PLOT_MAX_PLANNERS];
    char counts[PLOT_MAX_PLANNERS][48]; /* "9/10 solved" */
    pb_plot_axis axis;
} box_figure;

static void draw_box(cairo_t *cr, const frame *f, const pb_plot_axis *a, const double *v, size_t n,
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
    cairo_move_to(cr, cx, map_y(f, a, wlo));
    cairo_line_to(cr, cx, map_y(f, a, sm->q1));
    cairo_move_to(cr, cx, map_y(f, a, sm->q3));
    cairo_line_to(cr, cx, map_y(f, a, whi));
    cairo_move_to(cr, cx - half / 2, map_y(f, a, wlo));
    cairo_line_to(cr, cx + half / 2, map_y(f, a, wlo));
    cairo_move_to(cr, cx - half / 2, map_y(f, a, whi));
    cairo_line_to(cr, cx + half / 2, map_y(f, a, whi));
    cairo_stroke(cr);
    const double y3 = map_y(f, a, sm->q3), y1 = map_y(f, a, sm->q1);
    cairo_rectangle(cr, cx - half, y3, 2 * half, fmax(y1 - y3, 1.0));
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.55);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
    cairo_stroke(cr);
    cairo_set_line_width(cr, 3);
    cairo_move_to(cr, cx - half, map_y(f, a, sm->median));
    cairo_line_to(cr, cx + half, map_y(f, a, sm->median));
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1.5);
    for (size_t i = 0; i < n; i++)
        if (v[i] < wlo || v[i] > whi) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, cx, map_y(f, a, v[i]), 3, 0, 2 * M_PI);
            cairo_stroke(cr);
        }
}

static void draw_box_figure(cairo_t *cr, const void *figure)
{
    const box_figure *b = figure;
    const double top = begin_page(cr, b->title);
    const char *counts[PLOT_MAX_PLANNERS];
    for (size_t q = 0; q < b->s->n_planners && q < PLOT_MAX_PLANNERS; q++)
        counts[q] = b->counts[q];
    const category_axis c = layout_categories(cr, b->s, counts, &b->axis, top);
    draw_value_axis(cr, &c.f, &b->axis, b->axis_title);
    draw_categories(cr, &c, b->s, counts);
    for (size_t q = 0; q < b->s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        const double cx = slot_x(&c, q), half = fmin(c.slot * 0.3, 50);
        if (!b->n_values[q]) {
            cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
            text_at(cr, cx, (c.f.top + c.f.bottom) / 2, "none", 0.5, 0.5);
            continue;
        }
        draw_box(cr, &c.f, &b->axis, b->values[q], b->n_values[q], &b->summary[q], cx, half,
                 palette[q % N_COLORS]);
    }
    draw_note(cr, "box: quartiles; bar: median; whiskers: 1.5 IQR; circles: beyond; under each box: runs "
                  "solved of runs");
}

/* The box figure of `metric` (0: time to first solution, 1: final cost) of problem `p`. */
static pb_status box_plot(const pb_bench_script *s, const pb_bench_results *r, uint32_t p, int metric,
                          const pb_bench_record **buf, double **values, const char *dir, pb_diag *diag)
{
    box_figure b = {.s = s};
    const char *name = s->problems[p].name;
    double medians[PLOT_MAX_PLANNERS], lo = INFINITY, hi = -INFINITY, lo_positive = INFINITY;
    const size_t n_planners = s->n_planners < PLOT_MAX_PLANNERS ? s->n_planners : PLOT_MAX_PLANNERS;
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
    return save_figure(dir, stem, draw_box_figure, &b, diag);
}

/* ---- success bars ---- */

typedef struct bar_figure {
    const pb_bench_script *s;
    const char *title;
    double solved_pct[PLOT_MAX_PLANNERS], failed_pct[PLOT_MAX_PLANNERS];
    char counts[PLOT_MAX_PLANNERS][48];
    bool any_failed;
} bar_figure;

static void draw_bar_figure(cairo_t *cr, const void *figure)
{
    const bar_figure *b = figure;
    const double top = begin_page(cr, b->title);
    pb_plot_axis a = pb_plot_axis_span(0, 100);
    const category_axis c = layout_categories(cr, b->s, NULL, &a, top + TEXT_SIZE + PAD);
    draw_value_axis(cr, &c.f, &a, "runs with an exact solution [%]");
    draw_categories(cr, &c, b->s, NULL);
    for (size_t q = 0; q < b->s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        const double cx = slot_x(&c, q), half = fmin(c.slot * 0.3, 50);
        const double *rgb = palette[q % N_COLORS];
        const double pct = b->solved_pct[q], total = pct + b->failed_pct[q];
        cairo_rectangle(cr, cx - half, map_y(&c.f, &a, pct), 2 * half,
                        map_y(&c.f, &a, 0) - map_y(&c.f, &a, pct));
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_fill(cr);
        if (b->failed_pct[q] > 0) { /* crashed or killed runs, stacked on top in grey */
            cairo_rectangle(cr, cx - half, map_y(&c.f, &a, total), 2 * half,
                            map_y(&c.f, &a, pct) - map_y(&c.f, &a, total));
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
            cairo_fill(cr);
        }
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, cx, map_y(&c.f, &a, total) - PAD / 2, b->counts[q], 0.5, 1.0);
    }
    draw_note(cr, b->any_failed
                      ? "above each bar: runs solved of runs; grey: runs that crashed or were killed"
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
    for (uint32_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
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
    return save_figure(dir, stem, draw_bar_figure, &b, diag);
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
    bool drawn[PLOT_MAX_PLANNERS];
    double curves[PLOT_MAX_PLANNERS][3][N_TIMES]; /* q1, median, q3 at time_at(k) */
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

static void draw_curve(cairo_t *cr, const frame *f, const curve_figure *c, uint32_t q)
{
    const double *rgb = palette[q % N_COLORS];
    const double(*curve)[N_TIMES] = c->curves[q];
    /* the band: along q3 forwards, back along q1, where both are finite */
    int first = -1;
    for (int k = 0; k < N_TIMES && first < 0; k++)
        if (isfinite(curve[2][k]))
            first = k;
    if (first >= 0) {
        for (int k = first; k < N_TIMES; k++) {
            const double x = map_x(f, &c->time, time_at(c, k)), y = map_y(f, &c->cost, curve[2][k]);
            k == first ? cairo_move_to(cr, x, y) : cairo_line_to(cr, x, y);
        }
        for (int k = N_TIMES - 1; k >= first; k--)
            cairo_line_to(cr, map_x(f, &c->time, time_at(c, k)), map_y(f, &c->cost, curve[0][k]));
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
        const double x = map_x(f, &c->time, time_at(c, k)), y = map_y(f, &c->cost, curve[1][k]);
        pen ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
        pen = true;
    }
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_stroke(cr);
}

static void draw_curve_figure(cairo_t *cr, const void *figure)
{
    const curve_figure *c = figure;
    const double top = begin_page(cr, c->title);
    const double h = text_height(cr), swatch = 24;
    /* the legend sits right of the data, as wide as its longest label */
    double legend_w = 0;
    for (uint32_t q = 0; q < c->s->n_planners && q < PLOT_MAX_PLANNERS; q++)
        if (c->drawn[q])
            legend_w = fmax(legend_w, text_width(cr, c->s->planners[q].label));
    const double note_h = NOTE_SIZE * 1.4 + PAD;
    frame f = {.left = value_axis_margin(cr, &c->cost),
               .top = top + 2 * PAD,
               .right = FIG_W - 2 * PAD - swatch - PAD - legend_w - 2 * PAD,
               .bottom = FIG_H - note_h - 2 * h - 3 * PAD};
    draw_value_axis(cr, &f, &c->cost, "path cost");
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    for (size_t i = 0; i < c->time.n_ticks; i++) {
        char text[48];
        const double x = round(map_x(&f, &c->time, c->time.ticks[i])) + 0.5;
        cairo_move_to(cr, x, f.bottom);
        cairo_line_to(cr, x, f.bottom + PAD / 2);
        cairo_stroke(cr);
        text_at(cr, x, f.bottom + PAD, pb_plot_tick_label(&c->time, i, text, sizeof text), 0.5, 0.0);
    }
    text_at(cr, (f.left + f.right) / 2, f.bottom + 2 * PAD + h, "time [s] (the axis ends at the time limit)",
            0.5, 0.0);
    cairo_save(cr);
    cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
    cairo_clip(cr);
    for (uint32_t q = 0; q < c->s->n_planners && q < PLOT_MAX_PLANNERS; q++)
        if (c->drawn[q])
            draw_curve(cr, &f, c, q);
    cairo_restore(cr);
    double ly = f.top;
    for (uint32_t q = 0; q < c->s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
        if (!c->drawn[q])
            continue;
        const double *rgb = palette[q % N_COLORS];
        cairo_rectangle(cr, f.right + 2 * PAD, ly + h / 2 - 5, swatch, 10);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, f.right + 2 * PAD + swatch + PAD, ly, c->s->planners[q].label, 0.0, 0.0);
        ly += h + PAD;
    }
    draw_note(cr, "line: median best cost of the runs; band: quartiles; a line starts when half the runs "
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
    for (uint32_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++) {
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
    const pb_status st = save_figure(dir, stem, draw_curve_figure, c, diag);
    free(c);
    return st;
}

pb_status pb_bench_save_plots(const pb_bench_script *s, const pb_bench_results *r, const char *dir,
                              pb_diag *diag)
{
    if (!pb_bench_make_dirs(dir)) {
        pb_diag_set(diag, dir, 0, 0, "cannot create the folder: %s", strerror(errno));
        return PB_ERR_IO;
    }
    const size_t room = r->n ? r->n : 1;
    const pb_bench_record **buf = malloc(room * sizeof *buf);
    double *values = malloc(room * sizeof *values);
    double **per = calloc(PLOT_MAX_PLANNERS, sizeof *per);
    pb_status st = buf && values && per ? PB_OK : PB_ERR_NOMEM;
    for (size_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS && st == PB_OK; q++)
        if (!(per[q] = malloc(room * sizeof **per)))
            st = PB_ERR_NOMEM;
    bool any_runs_on = false;
    for (uint32_t q = 0; q < s->n_planners && q < PLOT_MAX_PLANNERS; q++)
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
    for (size_t q = 0; per && q < PLOT_MAX_PLANNERS; q++)
        free(per[q]);
    free(per);
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
