/* The machinery of the benchmark figures (figure.h): the page, text measured with cairo, the
 * value axis, the planner labels under category figures, and writing a figure as PNG, SVG and
 * PDF from one drawing function. */
#include "bench/figure.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const double pb_figure_palette[PB_FIGURE_N_COLORS][3] = {
    {0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
    {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50}};

double pb_figure_map_y(const pb_figure_frame *f, const pb_plot_axis *a, double v)
{
    return f->bottom - pb_plot_axis_fraction(a, v) * (f->bottom - f->top);
}

double pb_figure_map_x(const pb_figure_frame *f, const pb_plot_axis *a, double v)
{
    return f->left + pb_plot_axis_fraction(a, v) * (f->right - f->left);
}

double pb_figure_text_width(cairo_t *cr, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

/* The height of a line of the current font (ascent + descent). */
double pb_figure_text_height(cairo_t *cr)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    return fe.ascent + fe.descent;
}

/* Draw `text` with its advance box aligned at (x, y): align 0 = left/top, 0.5 = centre,
 * 1 = right/bottom. Vertical alignment uses the font's ascent and descent, so labels of one
 * row share a baseline. */
void pb_figure_text_at(cairo_t *cr, double x, double y, const char *text, double align_x, double align_y)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, x - pb_figure_text_width(cr, text) * align_x,
                  y - (fe.ascent + fe.descent) * align_y + fe.ascent);
    cairo_show_text(cr, text);
}

void pb_figure_set_font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* White page and the title; leaves the text font selected. Returns the title's bottom. */
double pb_figure_begin_page(cairo_t *cr, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    pb_figure_set_font(cr, PB_FIGURE_TITLE_SIZE, true);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    pb_figure_text_at(cr, PB_FIGURE_W / 2.0, 14, title, 0.5, 0.0);
    const double bottom = 14 + pb_figure_text_height(cr);
    pb_figure_set_font(cr, PB_FIGURE_TEXT_SIZE, false);
    return bottom;
}

/* The widest tick label of `a`. */
static double tick_width(cairo_t *cr, const pb_plot_axis *a)
{
    double w = 0;
    for (size_t i = 0; i < a->n_ticks; i++) {
        char text[48];
        w = fmax(w, pb_figure_text_width(cr, pb_plot_tick_label(a, i, text, sizeof text)));
    }
    return w;
}

/* The left margin for a value axis: its title (rotated) and its tick labels. */
double pb_figure_value_axis_margin(cairo_t *cr, const pb_plot_axis *a)
{
    return 2 * PB_FIGURE_PAD + pb_figure_text_height(cr) + tick_width(cr, a) + PB_FIGURE_PAD;
}

static void grid_line(cairo_t *cr, const pb_figure_frame *f, double y, double grey)
{
    y = round(y) + 0.5;
    cairo_set_source_rgb(cr, grey, grey, grey);
    cairo_move_to(cr, f->left, y);
    cairo_line_to(cr, f->right, y);
    cairo_stroke(cr);
}

/* The vertical value axis at f->left: grid lines (and 2..9 minor lines of a log axis), tick
 * labels, its title rotated at the figure's left edge, and the frame's left and bottom lines. */
void pb_figure_draw_value_axis(cairo_t *cr, const pb_figure_frame *f, const pb_plot_axis *a,
                               const char *title)
{
    cairo_set_line_width(cr, 1);
    if (a->log)
        for (double decade = a->lo; decade < a->hi; decade *= 10)
            for (int m = 2; m <= 9; m++)
                grid_line(cr, f, pb_figure_map_y(f, a, decade * m), 0.95);
    for (size_t i = 0; i < a->n_ticks; i++) {
        const double y = pb_figure_map_y(f, a, a->ticks[i]);
        grid_line(cr, f, y, 0.86);
        char text[48];
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        pb_figure_text_at(cr, f->left - PB_FIGURE_PAD, y, pb_plot_tick_label(a, i, text, sizeof text), 1.0,
                          0.5);
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, f->left + 0.5, f->top);
    cairo_line_to(cr, f->left + 0.5, f->bottom + 0.5);
    cairo_line_to(cr, f->right, f->bottom + 0.5);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_translate(cr, PB_FIGURE_PAD, (f->top + f->bottom) / 2.0);
    cairo_rotate(cr, -M_PI / 2);
    pb_figure_text_at(cr, 0, 0, title, 0.5, 0.0);
    cairo_restore(cr);
}

/* Size the margins of a category figure from the measured text: the value axis on the left,
 * under the data a row of per-planner `counts` (may be NULL) and the planner labels (turned
 * when they do not fit side by side), then a note line at the bottom. */
pb_figure_categories pb_figure_layout_categories(cairo_t *cr, const pb_bench_script *s,
                                                 const char *const *counts, const pb_plot_axis *a, double top)
{
    pb_figure_categories c = {.f = {.left = pb_figure_value_axis_margin(cr, a),
                                    .top = top + 2 * PB_FIGURE_PAD,
                                    .right = PB_FIGURE_W - 24}};
    const size_t n = s->n_planners < PB_FIGURE_MAX_PLANNERS ? s->n_planners : PB_FIGURE_MAX_PLANNERS;
    const double h = pb_figure_text_height(cr);
    double widths[PB_FIGURE_MAX_PLANNERS], count_w = 0;
    for (size_t q = 0; q < n; q++) {
        widths[q] = pb_figure_text_width(cr, s->planners[q].label);
        if (counts)
            count_w = fmax(count_w, pb_figure_text_width(cr, counts[q]));
    }
    /* a rotated first label may hang left of the data area: widen the margin until it fits */
    for (int pass = 0; pass < 3; pass++) {
        c.slot = (c.f.right - c.f.left) / (double)n;
        c.counts_in_labels = counts && count_w + PB_FIGURE_PAD > c.slot;
        if (c.counts_in_labels)
            for (size_t q = 0; q < n; q++)
                widths[q] = pb_figure_text_width(cr, s->planners[q].label) + pb_figure_text_width(cr, "  ") +
                            pb_figure_text_width(cr, counts[q]);
        c.labels = pb_plot_layout_labels(widths, n, h, c.slot, PB_FIGURE_PAD);
        if (c.labels.overhang + PB_FIGURE_PAD <= c.f.left)
            break;
        c.f.left = c.labels.overhang + PB_FIGURE_PAD;
    }
    const double counts_h = counts && !c.counts_in_labels ? h + PB_FIGURE_PAD : 0;
    const double rise = c.labels.angle == 0.0 ? 0.0 : h / 2 * cos(c.labels.angle);
    const double note_h = PB_FIGURE_NOTE_SIZE * 1.4 + PB_FIGURE_PAD;
    c.f.bottom = PB_FIGURE_H - note_h - c.labels.depth - rise - counts_h - 2 * PB_FIGURE_PAD;
    c.counts_y = c.f.bottom + PB_FIGURE_PAD;
    c.labels_y = c.counts_y + counts_h + rise;
    return c;
}

double pb_figure_slot_x(const pb_figure_categories *c, size_t q)
{
    return c->f.left + c->slot * ((double)q + 0.5);
}

/* The planner labels (with their counts when those did not fit a row) and the counts row. */
void pb_figure_draw_categories(cairo_t *cr, const pb_figure_categories *c, const pb_bench_script *s,
                               const char *const *counts)
{
    for (size_t q = 0; q < s->n_planners && q < PB_FIGURE_MAX_PLANNERS; q++) {
        const double x = pb_figure_slot_x(c, q);
        char label[200];
        if (c->counts_in_labels)
            snprintf(label, sizeof label, "%s  %s", s->planners[q].label, counts[q]);
        else
            snprintf(label, sizeof label, "%s", s->planners[q].label);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        if (c->labels.angle == 0.0) {
            pb_figure_text_at(cr, x, c->labels_y, label, 0.5, 0.0);
        } else {
            cairo_save(cr);
            cairo_translate(cr, x, c->labels_y);
            cairo_rotate(cr, -c->labels.angle);
            pb_figure_text_at(cr, 0, 0, label, 1.0, 0.5);
            cairo_restore(cr);
        }
        if (counts && !c->counts_in_labels) {
            cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
            pb_figure_text_at(cr, x, c->counts_y, counts[q], 0.5, 0.0);
        }
    }
}

void pb_figure_draw_note(cairo_t *cr, const char *note)
{
    pb_figure_set_font(cr, PB_FIGURE_NOTE_SIZE, false);
    cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
    pb_figure_text_at(cr, PB_FIGURE_W / 2.0, PB_FIGURE_H - PB_FIGURE_PAD, note, 0.5, 1.0);
    pb_figure_set_font(cr, PB_FIGURE_TEXT_SIZE, false);
}

/* ---- writing a figure three times ---- */

/* Draw onto a new surface of format `ext` writing to `tmp`. */
static cairo_status_t render(const char *ext, const char *tmp, pb_figure_draw_fn draw, const void *figure)
{
    cairo_surface_t *surface =
        strcmp(ext, "png") == 0   ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PB_FIGURE_W, PB_FIGURE_H)
        : strcmp(ext, "svg") == 0 ? cairo_svg_surface_create(tmp, PB_FIGURE_W, PB_FIGURE_H)
                                  : cairo_pdf_surface_create(tmp, PB_FIGURE_W, PB_FIGURE_H);
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
pb_status pb_figure_save(const char *dir, const char *stem, pb_figure_draw_fn draw, const void *figure,
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
