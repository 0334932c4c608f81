/* The black-box ("functor") engine: a C-space given by bounds and a function that says
 * whether a configuration is free. The function is a C callback (pb_blackbox_create), an
 * expression compiled by engines/expr.c (`--expr`), or a symbol of a shared object
 * (`--plugin`, see blackbox.h for the ABI).
 *
 * Edges, by what the engine knows:
 * - an expression: certified by interval boxes (expr_interval.c). The edge is split where a
 *   wrapping coordinate crosses its seam; each stretch's bounding box is evaluated with
 *   interval arithmetic: certainly free covers the stretch, certainly blocked (or a point of
 *   it that is blocked) blocks the edge, unknown halves it, down to the clearance floor,
 *   below which the stretch counts as blocked. A wall of any width is caught: a box that
 *   holds a blocked point is never certainly free.
 * - a clearance callback: certified by clearance steps (pb_edge_certified()); a clearance
 *   that is negative, NaN or infinite is a fault (pb_engine_fault()) and blocks the edge.
 * - neither: sampled at the resolution (default 1/1000 of the bounds' diagonal), the core's
 *   interpolated check; `edge_check=sampled` asks for it in the other cases too. With a
 *   batch callback, the same configurations go to it in chunks (visible_batched()). */
#include "planbench/blackbox.h"
#include "planbench/impl/engine_impl.h"
#include "checkers/checkers.h"
#include "checkers/interpolate.h"
#include "core/metric.h"
#include "engines/expr.h"

#include <dlfcn.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The default edge resolution is this fraction of the bounds' diagonal. */
#define DEFAULT_RESOLUTION_FRACTION (1.0 / 1000.0)
/* Stretches of an edge waiting to be certified by boxes, depth first. */
#define BOX_STACK 160
/* Largest side of the picture of a 2D black box, in pixels. */
#define RENDER_SIZE 800

typedef struct blackbox {
    int dim;
    double lower[PB_MAX_DIM];
    double upper[PB_MAX_DIM];
    double periods[PB_MAX_DIM];
    bool wraps; /* some period > 0 */
    pb_blackbox_feasible_fn feasible;
    pb_blackbox_distance_fn distance;
    pb_blackbox_clearance_fn clearance;
    pb_blackbox_batch_fn batch; /* optional: sampled edges in chunks */
    void *payload;
    pb_edge_check edge_check; /* certified (expression or clearance) or sampled */
    pb_engine_config setup;   /* a copy of the engine's, for the edge checks */
    /* the first bad clearance: 0 none, 1 being written, 2 written */
    atomic_int fault;
    double fault_value;
    double fault_q[PB_MAX_DIM];
    pb_expr *expr; /* owned, when made from an expression (then payload == expr) */
    void *plugin;  /* owned dlopen handle, when made from a plugin */
    pb_plugin_fini_fn fini;
} blackbox;

static void destroy(void *self)
{
    blackbox *bb = self;
    if (!bb)
        return;
    if (bb->fini)
        bb->fini(bb->payload);
    if (bb->plugin)
        dlclose(bb->plugin);
    pb_expr_destroy(bb->expr);
    free(bb);
}

/* q with its wrapping coordinates taken into [lower, lower + period); false when q is
 * outside the bounds (or NaN). */
static bool wrap_into_bounds(const blackbox *bb, const double *q, double *out)
{
    for (int i = 0; i < bb->dim; i++) {
        double v = q[i];
        const double period = bb->periods[i];
        if (period > 0.0 && isfinite(v) && (v < bb->lower[i] || v >= bb->lower[i] + period)) {
            v = bb->lower[i] + fmod(v - bb->lower[i], period);
            if (v < bb->lower[i])
                v += period;
        }
        if (!(v >= bb->lower[i] && v <= bb->upper[i]))
            return false;
        out[i] = v;
    }
    return true;
}

static bool inside(const blackbox *bb, const double *q)
{
    for (int i = 0; i < bb->dim; i++)
        if (!(q[i] >= bb->lower[i] && q[i] <= bb->upper[i])) /* NaN is outside */
            return false;
    return true;
}

static bool feasible(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)counters;
    const blackbox *bb = self;
    if (!bb->wraps) {
        for (int i = 0; i < bb->dim; i++)
            if (!(q[i] >= bb->lower[i] && q[i] <= bb->upper[i])) /* NaN is outside */
                return false;
        return bb->feasible(q, bb->payload);
    }
    /* A wrapping coordinate is taken back into [lower, lower + period) first, so the
     * callback always sees values inside its bounds. */
    double wrapped[PB_MAX_DIM];
    return wrap_into_bounds(bb, q, wrapped) && bb->feasible(wrapped, bb->payload);
}

/* The user's clearance, checked: a negative, NaN or infinite value is recorded as the
 * engine's fault and answers 0 (blocked). */
static double checked_clearance(const void *self, const double *q, pb_engine_counters *counters)
{
    (void)counters;
    blackbox *bb = (blackbox *)self; /* only the fault record is written, once, atomically */
    double w[PB_MAX_DIM];
    if (!wrap_into_bounds(bb, q, w))
        return 0.0;
    const double c = bb->clearance(w, bb->payload);
    if (c >= 0.0 && isfinite(c))
        return c;
    int expected = 0;
    if (atomic_compare_exchange_strong(&bb->fault, &expected, 1)) {
        bb->fault_value = c;
        memcpy(bb->fault_q, w, (size_t)bb->dim * sizeof *w);
        atomic_store(&bb->fault, 2);
    }
    return 0.0;
}

static pb_status fault(const void *self, pb_diag *diag)
{
    const blackbox *bb = self;
    if (atomic_load(&((blackbox *)bb)->fault) != 2)
        return PB_OK;
    char where[256];
    size_t used = 0;
    for (int i = 0; i < bb->dim && used < sizeof where - 32; i++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%g", i ? ", " : "", bb->fault_q[i]);
    pb_diag_set(diag, NULL, 0, 0,
                "the clearance callback returned %g at (%s): it must be a finite distance, 0 or more",
                bb->fault_value, where);
    return PB_ERR_INVALID;
}

/* ---- certified edges of an expression: interval boxes -------------------------------- */

/* The bounding box of the edge's stretch [t0, t1] (q(t) = a + t delta, less shift for the
 * wrapping coordinates), rounded outwards and kept inside the bounds. */
static void stretch_box(const blackbox *bb, const double *a, const double *delta, const double *shift,
                        double t0, double t1, double *lo, double *hi)
{
    for (int i = 0; i < bb->dim; i++) {
        const double v0 = a[i] + t0 * delta[i] - shift[i], v1 = a[i] + t1 * delta[i] - shift[i];
        lo[i] = fmax(nextafter(nextafter(fmin(v0, v1), -INFINITY), -INFINITY), bb->lower[i]);
        hi[i] = fmin(nextafter(nextafter(fmax(v0, v1), INFINITY), INFINITY), bb->upper[i]);
    }
}

/* Certify q(t) for t in [s0, s1], a stretch on which no wrapping coordinate crosses its seam. */
static bool certify_stretch(const blackbox *bb, const double *a, const double *delta, double s0, double s1,
                            double length, pb_engine_counters *counters)
{
    const double floor_length = pb_setup_clearance_floor(&bb->setup);
    /* which copy of each wrapping coordinate's period the stretch is in */
    double shift[PB_MAX_DIM];
    for (int i = 0; i < bb->dim; i++) {
        shift[i] = 0.0;
        const double period = bb->periods[i];
        if (period > 0.0) {
            const double mid = a[i] + 0.5 * (s0 + s1) * delta[i];
            shift[i] = floor((mid - bb->lower[i]) / period) * period;
        }
    }
    double stack_lo[BOX_STACK], stack_hi[BOX_STACK];
    int top = 0;
    stack_lo[top] = s0;
    stack_hi[top++] = s1;
    double lo[PB_MAX_DIM], hi[PB_MAX_DIM], q[PB_MAX_DIM];
    while (top > 0) {
        top--;
        const double t0 = stack_lo[top], t1 = stack_hi[top];
        stretch_box(bb, a, delta, shift, t0, t1, lo, hi);
        counters->n_edge_states++;
        const pb_expr_truth truth = pb_expr_eval_box(bb->expr, lo, hi);
        if (truth == PB_EXPR_TRUE)
            continue;
        if (truth == PB_EXPR_FALSE)
            return false;
        /* unknown: a blocked point settles it, a stretch below the floor is too tight */
        const double mid = 0.5 * (t0 + t1);
        for (int i = 0; i < bb->dim; i++)
            q[i] = a[i] + mid * delta[i];
        counters->n_edge_states++;
        if (!feasible(bb, q, counters))
            return false;
        if ((t1 - t0) * length < floor_length || top + 2 > BOX_STACK)
            return false;
        stack_lo[top] = mid;
        stack_hi[top++] = t1;
        stack_lo[top] = t0;
        stack_hi[top++] = mid;
    }
    return true;
}

static bool visible_boxes(const blackbox *bb, const double *a, const double *b, pb_engine_counters *counters)
{
    counters->n_edge_states++;
    if (!feasible(bb, a, counters))
        return false;
    counters->n_edge_states++;
    if (!feasible(bb, b, counters))
        return false;
    double wa[PB_MAX_DIM], delta[PB_MAX_DIM];
    wrap_into_bounds(bb, a, wa);
    /* the seams crossed, as times along the edge */
    double cuts[PB_MAX_DIM + 2];
    int n_cuts = 0;
    cuts[n_cuts++] = 0.0;
    for (int i = 0; i < bb->dim; i++) {
        delta[i] = pb_coord_delta(wa[i], b[i], bb->periods[i]);
        const double period = bb->periods[i];
        if (period > 0.0 && delta[i] != 0.0) {
            const double end = wa[i] + delta[i];
            const double seam = delta[i] > 0.0 ? bb->lower[i] + period : bb->lower[i];
            if ((delta[i] > 0.0 && end > seam) || (delta[i] < 0.0 && end < seam))
                cuts[n_cuts++] = (seam - wa[i]) / delta[i];
        }
    }
    cuts[n_cuts++] = 1.0;
    /* a handful of cuts: insertion sort */
    for (int i = 1; i < n_cuts; i++)
        for (int k = i; k > 0 && cuts[k] < cuts[k - 1]; k--) {
            const double t = cuts[k];
            cuts[k] = cuts[k - 1];
            cuts[k - 1] = t;
        }
    const double length = pb_setup_distance(&bb->setup, a, b);
    for (int k = 0; k + 1 < n_cuts; k++)
        if (cuts[k + 1] > cuts[k] && !certify_stretch(bb, wa, delta, cuts[k], cuts[k + 1], length, counters))
            return false;
    return true;
}

/* A sampled edge through the batch callback: the configurations pb_edge_interpolated() checks,
 * endpoints first and then in its order, PB_BLACKBOX_BATCH at a time (wrapped into the bounds). */
static bool visible_batched(const blackbox *bb, const double *a, const double *b, double length,
                            pb_engine_counters *counters)
{
    double qs[PB_BLACKBOX_BATCH * PB_MAX_DIM], q[PB_MAX_DIM];
    bool free[PB_BLACKBOX_BATCH];
    const size_t dim = (size_t)bb->dim;
    const uint64_t n = pb_edge_segments(length, bb->setup.resolution);
    pb_edge_order order;
    pb_edge_order_init(&order, n, bb->setup.bisection);
    size_t m = 0;
    for (int k = 0;; k++) {
        uint64_t i;
        const double *src = NULL;
        if (k < 2) {
            src = k == 0 ? a : b;
        } else if (pb_edge_order_next(&order, &i)) {
            pb_setup_interpolate(&bb->setup, a, b, (double)i / (double)n, q);
            src = q;
        }
        if (src) {
            double *dst = qs + m * dim;
            if (bb->wraps ? !wrap_into_bounds(bb, src, dst) : !inside(bb, src))
                return false;
            if (!bb->wraps)
                memcpy(dst, src, dim * sizeof(double));
            m++;
        }
        if (m == PB_BLACKBOX_BATCH || (!src && m > 0)) {
            counters->n_edge_states += m;
            bb->batch(qs, m, free, bb->payload);
            for (size_t j = 0; j < m; j++)
                if (!free[j])
                    return false;
            m = 0;
        }
        if (!src)
            break;
    }
    return true;
}

static bool visible(const void *self, const double *a, const double *b, pb_engine_counters *counters)
{
    const blackbox *bb = self;
    if (bb->edge_check == PB_EDGE_CHECK_CERTIFIED) {
        if (bb->expr)
            return visible_boxes(bb, a, b, counters);
        counters->n_edge_states += 2;
        if (!feasible(bb, a, counters) || !feasible(bb, b, counters))
            return false;
        return pb_edge_certified(&bb->setup, bb, checked_clearance, a, b, counters);
    }
    const double length =
        bb->distance ? bb->distance(a, b, bb->payload) : pb_setup_distance(&bb->setup, a, b);
    if (bb->batch)
        return visible_batched(bb, a, b, length, counters);
    return pb_edge_interpolated(&bb->setup, bb, feasible, NULL, length, a, b, counters);
}

static double custom_distance(const void *self, const double *a, const double *b)
{
    const blackbox *bb = self;
    return bb->distance(a, b, bb->payload);
}

static bool expr_feasible(const double *q, void *payload)
{
    return pb_expr_eval(payload, q) != 0.0;
}

/* A sampled edge's configurations in one call: the expression's batch program shares each
 * instruction's dispatch among them (n is at most PB_BLACKBOX_BATCH). */
static void expr_feasible_batch(const double *qs, size_t n, bool *free, void *payload)
{
    double values[PB_BLACKBOX_BATCH];
    pb_expr_eval_batch(payload, qs, n, values);
    for (size_t i = 0; i < n; i++)
        free[i] = values[i] != 0.0;
}

/* The picture of a 2D black box: its feasible region sampled at pixel centres, free white,
 * occupied dark. Picture coordinates are (q - lower) * scale. */
static pb_status render(const void *self, pb_image *image, double *scale, pb_diag *diag)
{
    const blackbox *bb = self;
    if (bb->dim != 2) {
        pb_diag_set(diag, NULL, 0, 0, "a %d-dimensional black box has no picture (only 2D ones do)", bb->dim);
        return PB_ERR_UNSUPPORTED;
    }
    const double w = bb->upper[0] - bb->lower[0], h = bb->upper[1] - bb->lower[1];
    const double s = RENDER_SIZE / fmax(w, h);
    const int width = (int)fmax(1.0, ceil(w * s)), height = (int)fmax(1.0, ceil(h * s));
    const pb_status st = pb_image_init(image, width, height);
    if (st != PB_OK) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return st;
    }
    pb_engine_counters unused = {0};
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            const double q[2] = {bb->lower[0] + (x + 0.5) / s, bb->lower[1] + (y + 0.5) / s};
            if (!feasible(bb, q, &unused))
                memset(image->rgb + ((size_t)y * (size_t)width + (size_t)x) * 3, 40, 3);
        }
    }
    *scale = s;
    return PB_OK;
}

static const char *const known_options[] = {"bounds",     "expr",   "plugin",     "resolution",
                                            "edge_order", "angles", "edge_check", NULL};

static const char *const options_help[] = {
    "bounds=L:U,L:U,...  the box of the C-space, one LOWER:UPPER per coordinate (--bounds)",
    "expr=EXPR           free where EXPR over x0, x1, ... is true, e.g. 'cos(x0)*sin(x1) > -0.22' (--expr)",
    "plugin=FILE         free where FILE's planbench_feasible(q, payload) says so (--plugin; see blackbox.h)",
    "resolution=R        spacing of sampled edge checks (--resolution; default 1/1000 of the bounds' "
    "diagonal); certified checks refuse stretches tighter than a quarter of it",
    "edge_check=CHECK    certified (the default with --expr or a plugin's planbench_clearance) or sampled",
    "edge_order=ORDER    sampled checks: bisection (default: midpoint first) or sequential",
    "angles=I,J,...      coordinates that are angles: distance and interpolation wrap (period 2*pi)",
    NULL,
};

static const char *const aliases[] = {"functor", NULL};

/* Loaded from options and from C, an engine with a custom distance needs an impl table
 * whose `distance` is set; otherwise the core's metric (and kd-tree) is used. */
#define BLACKBOX_IMPL_FIELDS                                                                                 \
    .name = "blackbox", .aliases = aliases,                                                                  \
    .summary = "a C-space given by bounds and a function: an expression (--expr), a plugin "                 \
               "(--plugin) or a C callback",                                                                 \
    .edges = "certified with an expression (interval boxes) or a clearance callback (clearance steps); "     \
             "sampled at the resolution otherwise, or with edge_check=sampled",                              \
    .options_help = options_help, .destroy = destroy, .feasible = feasible, .visible = visible,              \
    .fault = fault, .render = render

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag);

const pb_engine_impl pb_blackbox_impl = {
    BLACKBOX_IMPL_FIELDS,
    .load = load,
};

static const pb_engine_impl blackbox_custom_metric_impl = {
    BLACKBOX_IMPL_FIELDS,
    .distance = custom_distance,
};

/* ---- from options ------------------------------------------------------------------- */

/* Parse "L:U,L:U,..." into bounds; returns the dimension, or 0 after setting diag. */
static int parse_bounds(const char *text, double *lower, double *upper, pb_diag *diag)
{
    int dim = 0;
    const char *p = text;
    for (;;) {
        if (dim == PB_MAX_DIM) {
            pb_diag_set_option(diag, "bounds", "more than %d coordinates in '%s'", PB_MAX_DIM, text);
            return 0;
        }
        char *end;
        const double lo = strtod(p, &end);
        if (end == p || *end != ':' || !isfinite(lo))
            goto malformed;
        p = end + 1;
        const double hi = strtod(p, &end);
        if (end == p || !isfinite(hi) || (*end != ',' && *end != '\0'))
            goto malformed;
        if (!(lo < hi)) {
            pb_diag_set_option(diag, "bounds",
                               "coordinate %d: the lower bound %g must be below the upper bound %g", dim, lo,
                               hi);
            return 0;
        }
        /* widths a planner can work with: distances, steps and their squares stay finite and
         * far from underflow */
        const double width = hi - lo;
        if (!(width <= 1e150) || !(width >= 1e-150 * fmax(1.0, fmax(fabs(lo), fabs(hi)))) || width < 1e-150) {
            pb_diag_set(
                diag, NULL, 0, 0,
                "bounds: coordinate %d: the width %g of %g:%g is out of range (1e-150 to 1e150, and not "
                "below 1e-150 of the bounds' magnitude)",
                dim, width, lo, hi);
            return 0;
        }
        lower[dim] = lo;
        upper[dim] = hi;
        dim++;
        if (*end == '\0')
            return dim;
        p = end + 1;
    }
malformed:
    pb_diag_set(
        diag, NULL, 0, 0,
        "bounds: expected LOWER:UPPER for every coordinate, comma-separated (like -5:5,-5:5), got '%s'",
        text);
    return 0;
}

/* dlsym into a function pointer without the object-to-function pointer cast ISO C lacks. */
static bool find_symbol(void *handle, const char *name, void *fn_out, size_t fn_size)
{
    void *symbol = dlsym(handle, name);
    if (!symbol)
        return false;
    memcpy(fn_out, &symbol, fn_size);
    return true;
}

static pb_status load_plugin(blackbox *bb, const char *file, bool have_bounds, pb_engine_config *setup,
                             pb_diag *diag)
{
    /* dlopen searches the library path for a bare name; a user who names a file in the
     * current folder means that file. */
    char local[4096];
    const char *name = file;
    struct stat st;
    if (!strchr(file, '/') && stat(file, &st) == 0 && strlen(file) + 3 <= sizeof local) {
        snprintf(local, sizeof local, "./%s", file);
        name = local;
    }
    dlerror();
    bb->plugin = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!bb->plugin) {
        const char *why = dlerror();
        pb_diag_set(diag, NULL, 0, 0, "plugin '%s' does not load: %s", file, why ? why : "unknown error");
        return PB_ERR_INVALID;
    }
    if (!find_symbol(bb->plugin, PB_PLUGIN_FEASIBLE, &bb->feasible, sizeof bb->feasible)) {
        pb_diag_set(diag, NULL, 0, 0,
                    "plugin '%s' does not export '" PB_PLUGIN_FEASIBLE
                    "' (bool planbench_feasible(const double *q, void *payload))",
                    file);
        return PB_ERR_INVALID;
    }
    pb_plugin_bounds_fn bounds_fn = NULL;
    if (!have_bounds) {
        if (!find_symbol(bb->plugin, PB_PLUGIN_BOUNDS, &bounds_fn, sizeof bounds_fn)) {
            pb_diag_set(diag, NULL, 0, 0, "plugin '%s' exports no '" PB_PLUGIN_BOUNDS "': give --bounds",
                        file);
            return PB_ERR_INVALID;
        }
        const int dim = bounds_fn(bb->lower, bb->upper, PB_MAX_DIM);
        if (dim < 1 || dim > PB_MAX_DIM) {
            pb_diag_set(diag, NULL, 0, 0,
                        "plugin '%s': " PB_PLUGIN_BOUNDS " returned dimension %d (expected 1..%d)", file, dim,
                        PB_MAX_DIM);
            return PB_ERR_INVALID;
        }
        for (int i = 0; i < dim; i++) {
            if (!(bb->lower[i] < bb->upper[i]) || !isfinite(bb->lower[i]) || !isfinite(bb->upper[i])) {
                pb_diag_set(diag, NULL, 0, 0,
                            "plugin '%s': " PB_PLUGIN_BOUNDS
                            " gave coordinate %d the bounds %g:%g (need lower < upper)",
                            file, i, bb->lower[i], bb->upper[i]);
                return PB_ERR_INVALID;
            }
        }
        bb->dim = dim;
    }
    pb_plugin_defaults_fn defaults_fn = NULL;
    if (find_symbol(bb->plugin, PB_PLUGIN_DEFAULTS, &defaults_fn, sizeof defaults_fn)) {
        const int dim = defaults_fn(setup->default_start, setup->default_goal, PB_MAX_DIM);
        if (dim > 0 && dim != bb->dim) {
            pb_diag_set(diag, NULL, 0, 0,
                        "plugin '%s': " PB_PLUGIN_DEFAULTS " gave %d coordinates, but the space has %d", file,
                        dim, bb->dim);
            return PB_ERR_INVALID;
        }
        setup->has_defaults = dim > 0;
    }
    find_symbol(bb->plugin, PB_PLUGIN_CLEARANCE, &bb->clearance, sizeof bb->clearance);
    pb_plugin_init_fn init_fn = NULL;
    if (find_symbol(bb->plugin, PB_PLUGIN_INIT, &init_fn, sizeof init_fn))
        bb->payload = init_fn();
    /* looked up last: a plugin that failed to load above is never finalised */
    find_symbol(bb->plugin, PB_PLUGIN_FINI, &bb->fini, sizeof bb->fini);
    return PB_OK;
}

static pb_status load_expression(blackbox *bb, const char *text, pb_diag *diag)
{
    pb_expr_error error;
    const pb_status st = pb_expr_compile(&bb->expr, text, bb->dim, &error);
    if (st != PB_OK) {
        char line[400];
        pb_expr_error_format(&error, line, sizeof line);
        pb_diag_set(diag, NULL, 0, error.column, "%s", line);
        return st;
    }
    if (!pb_expr_is_condition(bb->expr)) {
        pb_diag_set(
            diag, NULL, 0, 1,
            "expression: column 1: the expression is a number, not a condition; compare it (for example "
            "'EXPR > 0')");
        return PB_ERR_INVALID;
    }
    bb->feasible = expr_feasible;
    bb->batch = expr_feasible_batch;
    bb->payload = bb->expr;
    return PB_OK;
}

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known_options, "blackbox", diag);
    if (st != PB_OK)
        return st;
    if (path) {
        pb_diag_set(
            diag, path, 0, 0,
            "the blackbox engine reads no map file; describe the space with --bounds and --expr or --plugin");
        return PB_ERR_INVALID;
    }
    const char *bounds = pb_option_find(options, n_options, "bounds");
    const char *expr = pb_option_find(options, n_options, "expr");
    const char *plugin = pb_option_find(options, n_options, "plugin");
    const char *resolution = pb_option_find(options, n_options, "resolution");
    const char *edge_order = pb_option_find(options, n_options, "edge_order");
    const char *angles = pb_option_find(options, n_options, "angles");
    const char *edge_check = pb_option_find(options, n_options, "edge_check");
    if (edge_check && strcmp(edge_check, "certified") != 0 && strcmp(edge_check, "sampled") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'certified' or 'sampled', got '%s'", edge_check);
        return PB_ERR_INVALID;
    }
    if (expr && plugin) {
        pb_diag_set(diag, NULL, 0, 0, "the blackbox engine takes --expr or --plugin, not both");
        return PB_ERR_INVALID;
    }
    if (!expr && !plugin) {
        pb_diag_set(
            diag, NULL, 0, 0,
            "the blackbox engine needs --expr EXPR (like 'cos(x0)*sin(x1) > -0.22') or --plugin FILE.so");
        return PB_ERR_INVALID;
    }
    if (!bounds && expr) {
        pb_diag_set(diag, NULL, 0, 0, "the blackbox engine needs --bounds (like -5:5,-5:5) with --expr");
        return PB_ERR_INVALID;
    }
    blackbox *bb = calloc(1, sizeof *bb);
    if (!bb) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    *setup = pb_engine_config_default(1);
    if (bounds) {
        bb->dim = parse_bounds(bounds, bb->lower, bb->upper, diag);
        if (bb->dim == 0) {
            destroy(bb);
            return PB_ERR_INVALID;
        }
    }
    st = plugin ? load_plugin(bb, plugin, bounds != NULL, setup, diag) : load_expression(bb, expr, diag);
    if (st != PB_OK) {
        destroy(bb);
        return st;
    }
    setup->dim = bb->dim;
    double diagonal = 0.0;
    for (int i = 0; i < bb->dim; i++) {
        setup->lower[i] = bb->lower[i];
        setup->upper[i] = bb->upper[i];
        diagonal += (bb->upper[i] - bb->lower[i]) * (bb->upper[i] - bb->lower[i]);
    }
    setup->resolution = DEFAULT_RESOLUTION_FRACTION * sqrt(diagonal);
    if (resolution) {
        char *end;
        const double r = strtod(resolution, &end);
        if (end == resolution || *end != '\0' || !(r > 0.0) || !isfinite(r)) {
            pb_diag_set_option(diag, "resolution", "expected a positive number, got '%s'", resolution);
            destroy(bb);
            return PB_ERR_INVALID;
        }
        setup->resolution = r;
    }
    if (edge_order) {
        if (strcmp(edge_order, "bisection") != 0 && strcmp(edge_order, "sequential") != 0) {
            pb_diag_set_option(diag, "edge_order", "expected 'bisection' or 'sequential', got '%s'",
                               edge_order);
            destroy(bb);
            return PB_ERR_INVALID;
        }
        setup->bisection = strcmp(edge_order, "bisection") == 0;
    }
    if (angles) {
        double indices[PB_MAX_DIM];
        const int n = pb_parse_doubles(angles, indices, PB_MAX_DIM);
        if (n < 0) {
            pb_diag_set_option(diag, "angles", "expected comma-separated coordinate indices, got '%s'",
                               angles);
            destroy(bb);
            return PB_ERR_INVALID;
        }
        for (int k = 0; k < n; k++) {
            const double i = indices[k];
            if (!(i >= 0 && i < bb->dim && i == floor(i))) {
                pb_diag_set_option(diag, "angles", "'%g' is not a coordinate index (0..%d)", i, bb->dim - 1);
                destroy(bb);
                return PB_ERR_INVALID;
            }
            bb->periods[(int)i] = setup->periods[(int)i] = 2.0 * M_PI;
            bb->wraps = true;
        }
    }
    const bool can_certify = bb->expr || bb->clearance;
    if (edge_check && strcmp(edge_check, "certified") == 0 && !can_certify) {
        pb_diag_set(diag, NULL, 0, 0,
                    "edge_check=certified needs an expression or a plugin that exports '" PB_PLUGIN_CLEARANCE
                    "'");
        destroy(bb);
        return PB_ERR_INVALID;
    }
    bb->edge_check = can_certify && !(edge_check && strcmp(edge_check, "sampled") == 0)
                         ? PB_EDGE_CHECK_CERTIFIED
                         : PB_EDGE_CHECK_SAMPLED;
    setup->edge_check = bb->edge_check;
    bb->setup = *setup;
    *self_out = bb;
    return PB_OK;
}

/* ---- from C ------------------------------------------------------------------------- */

pb_blackbox_config pb_blackbox_config_default(int dim)
{
    pb_blackbox_config params;
    memset(&params, 0, sizeof params);
    params.dim = dim;
    for (int i = 0; i < PB_MAX_DIM; i++)
        params.upper[i] = 1.0;
    return params;
}

static bool inside_params(const pb_blackbox_config *params, const double *q)
{
    for (int i = 0; i < params->dim; i++)
        if (!(q[i] >= params->lower[i] && q[i] <= params->upper[i]))
            return false;
    return true;
}

pb_status pb_blackbox_create(pb_engine **out, const pb_blackbox_config *params, pb_diag *diag)
{
    *out = NULL;
    if (params->dim < 1 || params->dim > PB_MAX_DIM) {
        pb_diag_set(diag, NULL, 0, 0, "blackbox: dim %d is outside 1..%d", params->dim, PB_MAX_DIM);
        return PB_ERR_INVALID;
    }
    if (!params->feasible) {
        pb_diag_set(diag, NULL, 0, 0, "blackbox: the feasible callback is required");
        return PB_ERR_INVALID;
    }
    double diagonal = 0.0;
    for (int i = 0; i < params->dim; i++) {
        if (!(params->lower[i] < params->upper[i]) || !isfinite(params->lower[i]) ||
            !isfinite(params->upper[i])) {
            pb_diag_set(diag, NULL, 0, 0,
                        "blackbox: coordinate %d: the bounds %g:%g need lower < upper, both finite", i,
                        params->lower[i], params->upper[i]);
            return PB_ERR_INVALID;
        }
        if (!(params->periods[i] >= 0.0) || !isfinite(params->periods[i])) {
            pb_diag_set(diag, NULL, 0, 0, "blackbox: coordinate %d: the period %g must be 0 or positive", i,
                        params->periods[i]);
            return PB_ERR_INVALID;
        }
        diagonal += (params->upper[i] - params->lower[i]) * (params->upper[i] - params->lower[i]);
    }
    if (!(params->resolution >= 0.0) || !isfinite(params->resolution)) {
        pb_diag_set(diag, NULL, 0, 0, "blackbox: the resolution %g must be 0 (default) or positive",
                    params->resolution);
        return PB_ERR_INVALID;
    }
    if (params->has_defaults &&
        (!inside_params(params, params->default_start) || !inside_params(params, params->default_goal))) {
        pb_diag_set(diag, NULL, 0, 0, "blackbox: the default start and goal must be inside the bounds");
        return PB_ERR_INVALID;
    }
    blackbox *bb = calloc(1, sizeof *bb);
    if (!bb) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    pb_engine_config setup = pb_engine_config_default(params->dim);
    bb->dim = params->dim;
    bb->feasible = params->feasible;
    bb->distance = params->distance;
    bb->clearance = params->clearance;
    bb->batch = params->feasible_batch;
    bb->payload = params->payload;
    for (int i = 0; i < params->dim; i++) {
        bb->lower[i] = setup.lower[i] = params->lower[i];
        bb->upper[i] = setup.upper[i] = params->upper[i];
        bb->periods[i] = setup.periods[i] = params->periods[i];
        if (params->periods[i] > 0.0)
            bb->wraps = true;
        if (params->has_defaults) {
            setup.default_start[i] = params->default_start[i];
            setup.default_goal[i] = params->default_goal[i];
        }
    }
    setup.has_defaults = params->has_defaults;
    setup.resolution =
        params->resolution > 0.0 ? params->resolution : DEFAULT_RESOLUTION_FRACTION * sqrt(diagonal);
    setup.bisection = !params->sequential_edges;
    setup.opaque_metric = params->distance != NULL;
    bb->edge_check = params->clearance ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_SAMPLED;
    setup.edge_check = bb->edge_check;
    bb->setup = setup;
    return pb_engine_create(out, params->distance ? &blackbox_custom_metric_impl : &pb_blackbox_impl, bb,
                            &setup, diag);
}
