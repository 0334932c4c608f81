/* The machinery of the benchmark figures (private to src/bench, built with cairo only):
 * a page with its title, text measured with cairo, a value axis from layout.h, the planner
 * labels under category figures (boxes, bars), and writing one drawing function's figure as
 * PNG, SVG and PDF. The figures themselves are plots.c's. */
#ifndef PB_BENCH_FIGURE_H
#define PB_BENCH_FIGURE_H

#include "bench/layout.h"
#include "planbench/bench.h"

#include <cairo.h>

/** Figure size: pixels of the PNG, points of the SVG and PDF. */
#define PB_FIGURE_W          900
#define PB_FIGURE_H          560
#define PB_FIGURE_TITLE_SIZE 18
#define PB_FIGURE_TEXT_SIZE  13
#define PB_FIGURE_NOTE_SIZE  11
#define PB_FIGURE_PAD        8 /**< between texts and the lines they label */
/** Planners drawn in one figure (the rest are left out). */
#define PB_FIGURE_MAX_PLANNERS 64

/** Planner q's colour is pb_figure_palette[q % PB_FIGURE_N_COLORS] (RGB, 0..1). */
#define PB_FIGURE_N_COLORS 8
extern const double pb_figure_palette[PB_FIGURE_N_COLORS][3];

/** The data area of a figure, in device units (y grows down). */
typedef struct pb_figure_frame {
    double left, top, right, bottom;
} pb_figure_frame;

/** Where value `v` of axis `a` lies in the frame. */
double pb_figure_map_y(const pb_figure_frame *f, const pb_plot_axis *a, double v);
double pb_figure_map_x(const pb_figure_frame *f, const pb_plot_axis *a, double v);

/** The advance width of `text` in the current font. */
double pb_figure_text_width(cairo_t *cr, const char *text);
/** The height of a line of the current font (ascent + descent). */
double pb_figure_text_height(cairo_t *cr);
/** Draw `text` with its box aligned at (x, y): align 0 = left/top, 0.5 = centre, 1 =
 * right/bottom. Vertical alignment uses the font's ascent and descent, so the labels of a row
 * share a baseline. */
void pb_figure_text_at(cairo_t *cr, double x, double y, const char *text, double align_x, double align_y);
void pb_figure_set_font(cairo_t *cr, double size, bool bold);

/** Paint the page white and draw the title; leaves the text font selected. Returns the
 * title's bottom. */
double pb_figure_begin_page(cairo_t *cr, const char *title);
/** The left margin a vertical value axis needs: its rotated title and its tick labels. */
double pb_figure_value_axis_margin(cairo_t *cr, const pb_plot_axis *a);
/** The vertical value axis at f->left: grid lines (and 2..9 minor lines of a log axis), tick
 * labels, its title rotated at the figure's left edge, the frame's left and bottom lines. */
void pb_figure_draw_value_axis(cairo_t *cr, const pb_figure_frame *f, const pb_plot_axis *a,
                               const char *title);

/** A category figure: one slot per planner along the bottom of the frame. */
typedef struct pb_figure_categories {
    pb_figure_frame f;
    double slot;
    pb_plot_label_layout labels;
    bool counts_in_labels; /**< the counts did not fit a row of their own: appended to the labels */
    double counts_y;       /**< top of the row of counts */
    double labels_y;       /**< the line the labels hang from (layout.h's y = 0) */
} pb_figure_categories;

/** Size the margins of a category figure from the measured text: the value axis `a` on the
 * left, under the data a row of per-planner `counts` (NULL: none; borrowed strings) and the
 * planner labels (turned when they do not fit side by side, layout.h), then a note line at the
 * bottom. `top`: where the data may begin. */
pb_figure_categories pb_figure_layout_categories(cairo_t *cr, const pb_bench_script *s,
                                                 const char *const *counts, const pb_plot_axis *a,
                                                 double top);
/** The centre of planner q's slot. */
double pb_figure_slot_x(const pb_figure_categories *c, size_t q);
/** The planner labels and the row of counts laid out by pb_figure_layout_categories. */
void pb_figure_draw_categories(cairo_t *cr, const pb_figure_categories *c, const pb_bench_script *s,
                               const char *const *counts);
/** A line of small grey text at the bottom of the page (what the marks mean). */
void pb_figure_draw_note(cairo_t *cr, const char *note);

/** Draws a whole figure (`figure` is the caller's data) onto `cr`, page included. */
typedef void (*pb_figure_draw_fn)(cairo_t *cr, const void *figure);

/** Write DIR/STEM.png, .svg and .pdf, each drawn by `draw` onto its own surface, written to
 * a temporary file and renamed. `diag` names the file that could not be written. */
pb_status pb_figure_save(const char *dir, const char *stem, pb_figure_draw_fn draw, const void *figure,
                         pb_diag *diag);

#endif
