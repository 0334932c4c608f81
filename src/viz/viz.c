/* The SDL2 visualiser: an observer that records planning events in flat arrays and redraws
 * a window at most once per frame interval (see include/planbench/viz.h).
 *
 * Drawing happens in software into RGB pictures (include/planbench/image.h), uploaded as one
 * texture the size of the window's view. Only the engine's picture `base` (drawn once, at its
 * own resolution) is scaled to the view; everything drawn on it is drawn at the view's scale,
 * so lines stay one pixel wide at any zoom and the markers keep their size on a map much
 * larger than the window. Two view-sized pictures, windows onto the zoomed picture (their
 * `left` and `top` are minus the pan): `layer` (the scaled base plus every sample and tree
 * edge, drawn incrementally: a frame costs O(new edges); a zoom, a pan or a resize redraws it
 * from the edge list at once, an edge removal at most every few frames) and `frame` (layer
 * plus what changes: path, markers, ellipse, arms). Text uses image.h's built-in 5x7 font. */
#include "planbench/viz.h"
#include "planbench/image.h"

#include <SDL.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TREES   8   /* trees with their own node-to-edge index; more still draw */
#define MAX_ARMS    48  /* configurations drawn at tree nodes when dim > 2 */
#define ANIMATION_S 3.0 /* one pass of the final-path animation */
#define MIN_ZOOM    0.125
#define MAX_ZOOM    64.0
#define NO_ACTION   (-1)
#define NO_EDGE     UINT32_MAX
#define MARKER_PX   6.0 /* radius of the start and goal markers, window pixels, at any zoom */
#define PATH_PX     3   /* width of the path, window pixels */

static const pb_color tree_colors[MAX_TREES] = {
    {70, 120, 220}, {235, 140, 40}, {60, 170, 90},  {160, 80, 200},
    {20, 160, 170}, {150, 100, 50}, {220, 90, 150}, {130, 140, 30},
};
static const pb_color path_color = {220, 20, 20};
static const pb_color start_color = {30, 170, 60};
static const pb_color goal_color = {30, 60, 220};
static const pb_color ellipse_color = {200, 150, 0};

typedef struct viz_edge {
    float ax, ay, bx, by; /* picture pixels */
    uint32_t node, parent;
    int tree;
    bool live;
} viz_edge;

typedef struct viz_sample {
    float x, y;
    int tree;
} viz_sample;

typedef struct node_index {
    uint32_t *edge; /* node -> index of its newest edge, NO_EDGE when none */
    uint32_t capacity;
    uint32_t n_nodes; /* largest node id seen + 1 */
} node_index;

struct pb_viz {
    pb_engine *engine;
    int dim;
    const double *lower;
    pb_viz_config params;
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    pb_image base;         /* the engine's picture at `scale` */
    pb_image layer, frame; /* the view: windows onto base scaled by view_scale */
    double scale;          /* base picture pixels per engine unit */
    double view_scale;     /* window pixels per base picture pixel the layer was drawn at */

    viz_edge *edges;
    size_t n_edges, edges_capacity, n_drawn_edges, n_live_edges;
    viz_sample *samples;
    size_t n_samples, samples_capacity, n_drawn_samples;
    node_index trees[MAX_TREES];
    bool layer_dirty; /* an edge was removed: redraw the layer when there is time */
    double last_full_redraw, full_redraw_cost;
    double arms[MAX_ARMS * PB_MAX_DIM];
    size_t n_arms;
    uint64_t arm_stride, arm_counter;

    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    double goal_radius;
    bool has_problem;
    char planner_name[64];
    uint64_t seed;
    bool informed;
    pb_path path;
    double cost;
    double *path_length; /* cumulative lengths along `path`, for the animation */
    bool finished, animating;
    double animation_t0;

    uint64_t iterations, nodes;
    pb_engine_counters begin_counters; /* the engine's at pb_viz_begin: the status shows this solve's */
    pb_engine_counters final_counters; /* the solve's, once finished */
    double final_time_s;               /* the solve's planning time, once finished */
    pb_atomic_count held_ns;           /* time the observer held the solve (pb_stop_config.held_ns) */
    double holding_since;              /* when the present hold began; 0: not holding */
    bool iteration_events;
    double t_begin, t_end;

    bool paused;
    uint64_t steps;
    double speed; /* iterations per second; INFINITY: no limit */
    double next_iteration_time;
    pb_atomic_flag cancel;
    int pending; /* a pb_viz_action, or NO_ACTION */
    bool show_help;

    int win_w, win_h, bar_h, text_scale;
    double fit, zoom, pan_x, pan_y;
    bool dragging, drag_moved;
    int press_x, press_y;

    bool has_start, has_goal;
    size_t planner_index;
    double refused_x, refused_y, refused_until;
    char message[160];
    double message_until;

    double last_frame;
    double frame_cost; /* seconds the last frame took; frames keep to ~1/5 of the time */
    uint64_t n_frames;
    unsigned n_screenshots;
    bool screenshot_done;
    uint64_t n_blocks;
    bool blocked;

    SDL_mutex *mutex;
    pb_viz_state shared;
    double shared_fit;
    SDL_atomic_t input_pending;
};

pb_viz_config pb_viz_config_default(void)
{
    return (pb_viz_config){.title = NULL, .frame_interval_s = 0.0, .screenshot_path = NULL};
}

/* ---- coordinates ---- */

/* Picture coordinates of a configuration: through the map's frame for image maps in metres
 * (y up), else (q - lower) * scale. */
static double pic_x(const pb_viz *v, const double *q)
{
    double xy[2];
    pb_image_engine_to_picture(v->engine, v->scale, q, xy);
    return xy[0];
}
static double pic_y(const pb_viz *v, const double *q)
{
    double xy[2];
    pb_image_engine_to_picture(v->engine, v->scale, q, xy);
    return xy[1];
}

/* Window pixels per base picture pixel. */
static double view_s(const pb_viz *v)
{
    return v->fit * v->zoom;
}

/* The engine's pictures at the view's scale (picture pixels per engine unit): every engine's
 * picture coordinates are proportional to the scale it draws at. */
static double view_engine_scale(const pb_viz *v)
{
    return v->scale * view_s(v);
}

/* Where `q` is drawn in the view's pictures (their coordinates, before left and top). */
static void view_point(const pb_viz *v, const double *q, double *xy)
{
    pb_image_engine_to_picture(v->engine, view_engine_scale(v), q, xy);
}

/* The engine work of the shown solve: the engine counts from its creation, a restart from zero. */
static pb_engine_counters solve_counters(const pb_viz *v)
{
    if (v->finished)
        return v->final_counters;
    const pb_engine_counters now = pb_engine_get_counters(v->engine), *b = &v->begin_counters;
    return (pb_engine_counters){now.n_feasible - b->n_feasible, now.n_visible - b->n_visible,
                                now.n_edge_states - b->n_edge_states, now.n_pixels - b->n_pixels};
}

/* Planning time of the shown solve: what the planner reports, without the time it was held. */
static double planning_seconds(const pb_viz *v, double now)
{
    if (v->finished)
        return v->final_time_s;
    if (!(v->t_begin > 0.0))
        return 0.0;
    double held = 1e-9 * (double)atomic_load_explicit(&v->held_ns, memory_order_relaxed);
    if (v->holding_since > 0.0)
        held += now - v->holding_since;
    return fmax(0.0, now - v->t_begin - held);
}

static void set_message(pb_viz *v, const char *text)
{
    snprintf(v->message, sizeof v->message, "%s", text);
    v->message_until = pb_clock_seconds() + 2.0;
}

static void publish(pb_viz *v)
{
    SDL_LockMutex(v->mutex);
    v->shared = (pb_viz_state){
        .iterations = v->iterations,
        .nodes = v->nodes,
        .n_feasible = solve_counters(v).n_feasible,
        .planning_s = planning_seconds(v, pb_clock_seconds()),
        .edges = v->n_live_edges,
        .cost = v->cost,
        .paused = v->paused,
        .blocked = v->blocked,
        .n_blocks = v->n_blocks,
        .zoom = v->zoom,
        .pan_x = v->pan_x,
        .pan_y = v->pan_y,
        .speed = v->speed,
        .help_shown = v->show_help,
        .n_screenshots = v->n_screenshots,
        .n_frames = v->n_frames,
        .n_refused = v->shared.n_refused,
        .message = "",
        .has_start = v->has_start,
        .has_goal = v->has_goal,
        .planner_index = v->planner_index,
        .window_w = v->win_w,
        .window_h = v->win_h,
    };
    if (pb_clock_seconds() < v->message_until)
        snprintf(v->shared.message, sizeof v->shared.message, "%s", v->message);
    v->shared_fit = v->fit;
    SDL_UnlockMutex(v->mutex);
}

void pb_viz_get_state(pb_viz *viz, pb_viz_state *out)
{
    SDL_LockMutex(viz->mutex);
    *out = viz->shared;
    SDL_UnlockMutex(viz->mutex);
}

void pb_viz_window_point(pb_viz *viz, const double *q, double *x, double *y)
{
    SDL_LockMutex(viz->mutex);
    const double s = viz->shared_fit * viz->shared.zoom;
    /* the view is drawn at the pan rounded to whole pixels */
    *x = pic_x(viz, q) * s + (double)lround(viz->shared.pan_x);
    *y = pic_y(viz, q) * s + (double)lround(viz->shared.pan_y);
    SDL_UnlockMutex(viz->mutex);
}

/* ---- the layer: samples and edges, drawn incrementally ---- */

static pb_color lighter(pb_color c)
{
    return (pb_color){(uint8_t)((c.r + 255 * 2) / 3), (uint8_t)((c.g + 255 * 2) / 3),
                      (uint8_t)((c.b + 255 * 2) / 3)};
}

static pb_color tree_color(int tree)
{
    return tree_colors[(unsigned)tree % MAX_TREES];
}

static void put_pixel(pb_image *image, double x, double y, pb_color c)
{
    const long ix = (long)floor(x) - image->left, iy = (long)floor(y) - image->top;
    if (ix < 0 || iy < 0 || ix >= image->width || iy >= image->height)
        return;
    uint8_t *p = image->rgb + ((size_t)iy * (size_t)image->width + (size_t)ix) * 3;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

/* The base pixels [*first, *last] that view pixel `i` (of an image whose origin is `origin`)
 * covers along one axis of length `n`: at least the nearest one; false when outside. */
static bool covered(int i, int origin, double s, int n, long *first, long *last)
{
    const long nearest = (long)floor((i + origin + 0.5) / s);
    if (nearest < 0 || nearest >= n)
        return false;
    *first = *last = nearest;
    if (s < 1.0) {
        *first = (long)fmax(0.0, ceil((i + origin) / s - 0.5));
        *last = (long)fmin(n - 1.0, ceil((i + origin + 1) / s - 0.5) - 1.0);
        if (*first > nearest)
            *first = nearest;
        if (*last < nearest)
            *last = nearest;
    }
    return true;
}

/* The base picture scaled into the layer; grey outside the picture. Magnified: the nearest
 * pixel. Reduced: the darkest of the pixels a view pixel covers, so that a wall thinner than
 * the reduction still shows (the nearest pixel would drop most of it). */
static void scale_base(pb_viz *v)
{
    const double s = view_s(v);
    pb_image *l = &v->layer;
    for (int j = 0; j < l->height; j++) {
        long y0, y1;
        const bool row_inside = covered(j, l->top, s, v->base.height, &y0, &y1);
        uint8_t *row = l->rgb + (size_t)j * (size_t)l->width * 3;
        for (int i = 0; i < l->width; i++) {
            uint8_t *p = row + (size_t)i * 3;
            long x0, x1;
            if (!row_inside || !covered(i, l->left, s, v->base.width, &x0, &x1)) {
                p[0] = 90, p[1] = 90, p[2] = 96;
                continue;
            }
            const uint8_t *darkest = NULL;
            int darkest_sum = INT_MAX;
            for (long y = y0; y <= y1; y++)
                for (long x = x0; x <= x1; x++) {
                    const uint8_t *q = v->base.rgb + ((size_t)y * (size_t)v->base.width + (size_t)x) * 3;
                    const int sum = q[0] + q[1] + q[2];
                    if (sum < darkest_sum) {
                        darkest_sum = sum;
                        darkest = q;
                    }
                }
            memcpy(p, darkest, 3);
        }
    }
}

static void update_layer(pb_viz *v, double now)
{
    const double s = view_s(v);
    const int left = -(int)lround(v->pan_x), top = -(int)lround(v->pan_y);
    const bool view_changed = s != v->view_scale || left != v->layer.left || top != v->layer.top;
    /* A redraw after an edge removal costs O(all edges): keep it to a fifth of the time at
     * most, so a rewiring planner keeps most of its speed; meanwhile new edges still appear.
     * A changed view cannot wait: the old layer no longer lines up. */
    if (view_changed || (v->layer_dirty && now - v->last_full_redraw >= 4.0 * v->full_redraw_cost)) {
        v->layer.left = v->frame.left = left;
        v->layer.top = v->frame.top = top;
        v->view_scale = s;
        scale_base(v);
        v->n_drawn_edges = v->n_drawn_samples = 0;
        v->layer_dirty = false;
        v->last_full_redraw = now;
    }
    for (; v->n_drawn_samples < v->n_samples; v->n_drawn_samples++) {
        /* only on free (white) pixels of the picture: obstacles stay dark */
        const viz_sample *sm = &v->samples[v->n_drawn_samples];
        const long x = (long)floor(sm->x), y = (long)floor(sm->y);
        if (x < 0 || y < 0 || x >= v->base.width || y >= v->base.height)
            continue;
        const uint8_t *p = v->base.rgb + ((size_t)y * (size_t)v->base.width + (size_t)x) * 3;
        if (p[0] == 255 && p[1] == 255 && p[2] == 255)
            put_pixel(&v->layer, sm->x * s, sm->y * s, lighter(tree_color(sm->tree)));
    }
    for (; v->n_drawn_edges < v->n_edges; v->n_drawn_edges++) {
        const viz_edge *e = &v->edges[v->n_drawn_edges];
        if (e->live)
            pb_image_draw_line(&v->layer, e->ax * s, e->ay * s, e->bx * s, e->by * s, tree_color(e->tree));
    }
    if (v->last_full_redraw == now)
        v->full_redraw_cost = pb_clock_seconds() - now;
}

/* ---- the frame: layer plus overlays ---- */

static void draw_ellipse(pb_viz *v)
{
    if (!v->informed || v->dim != 2 || !v->has_problem || !isfinite(v->cost))
        return;
    const double dx = v->goal[0] - v->start[0], dy = v->goal[1] - v->start[1];
    const double c = 0.5 * hypot(dx, dy), a = 0.5 * v->cost;
    if (!(a > c))
        return;
    const double b = sqrt(a * a - c * c), angle = atan2(dy, dx);
    const double cx = 0.5 * (v->start[0] + v->goal[0]), cy = 0.5 * (v->start[1] + v->goal[1]);
    double px = 0.0, py = 0.0;
    for (int k = 0; k <= 128; k++) {
        const double t = 2.0 * M_PI * k / 128.0;
        const double ex = a * cos(t), ey = b * sin(t);
        const double q[2] = {cx + ex * cos(angle) - ey * sin(angle), cy + ex * sin(angle) + ey * cos(angle)};
        double xy[2];
        view_point(v, q, xy);
        const double x = xy[0], y = xy[1];
        if (k > 0)
            pb_image_draw_line(&v->frame, px, py, x, y, ellipse_color);
        px = x;
        py = y;
    }
}

/* The configuration `fraction` of the way along the path, by length. */
static void path_point(const pb_viz *v, double fraction, double *q)
{
    const size_t n = v->path.n;
    const double total = v->path_length[n - 1], s = fraction * total;
    size_t i = 1;
    while (i < n - 1 && v->path_length[i] < s)
        i++;
    const double seg = v->path_length[i] - v->path_length[i - 1];
    const double t = seg > 0.0 ? fmin(1.0, fmax(0.0, (s - v->path_length[i - 1]) / seg)) : 1.0;
    pb_engine_interpolate(v->engine, pb_path_at(&v->path, i - 1), pb_path_at(&v->path, i), t, q);
}

static void draw_marker(pb_viz *v, const double *q, pb_color color)
{
    if (v->dim > 2)
        pb_image_draw_config(&v->frame, v->engine, view_engine_scale(v), q, color);
    double xy[2];
    view_point(v, q, xy);
    pb_image_draw_disc(&v->frame, xy[0], xy[1], MARKER_PX, color);
}

static void compose(pb_viz *v, double now)
{
    update_layer(v, now);
    memcpy(v->frame.rgb, v->layer.rgb, (size_t)v->layer.width * (size_t)v->layer.height * 3);
    const double scale = view_engine_scale(v);
    for (size_t i = 0; i < v->n_arms; i++)
        pb_image_draw_config(&v->frame, v->engine, scale, v->arms + i * (size_t)v->dim,
                             (pb_color){150, 170, 210});
    draw_ellipse(v);
    const pb_path *path = &v->path;
    pb_image_draw_path(&v->frame, v->engine, scale, path, path_color, PATH_PX);
    const bool show_start = v->params.query_mode ? v->has_start : v->has_problem;
    const bool show_goal = v->params.query_mode ? v->has_goal : v->has_problem;
    if (show_goal && v->goal_radius > 0.0) {
        double xy[2];
        view_point(v, v->goal, xy);
        pb_image_draw_circle(&v->frame, xy[0], xy[1],
                             v->goal_radius * pb_image_engine_units(v->engine, scale), goal_color);
    }
    if (show_start)
        draw_marker(v, v->start, start_color);
    if (show_goal)
        draw_marker(v, v->goal, goal_color);
    if (v->animating && path->n >= 2) {
        double q[PB_MAX_DIM];
        path_point(v, fmod((now - v->animation_t0) / ANIMATION_S, 1.0), q);
        pb_image_draw_config(&v->frame, v->engine, scale, q, path_color);
    }
}

/* ---- text ---- */

static void draw_text(pb_viz *v, int x, int y, const char *text, SDL_Color color)
{
    SDL_SetRenderDrawColor(v->renderer, color.r, color.g, color.b, color.a);
    const int s = v->text_scale;
    SDL_Rect rects[256];
    int n = 0;
    for (const char *c = text; *c; c++, x += 6 * s) {
        const uint8_t *glyph = pb_image_glyph((unsigned char)*c);
        if (!glyph)
            continue;
        for (int row = 0; row < 7; row++)
            for (int col = 0; col < 5; col++)
                if (glyph[row] & (0x10 >> col)) {
                    rects[n++] = (SDL_Rect){x + col * s, y + row * s, s, s};
                    if (n == (int)(sizeof rects / sizeof rects[0])) {
                        SDL_RenderFillRects(v->renderer, rects, n);
                        n = 0;
                    }
                }
    }
    if (n)
        SDL_RenderFillRects(v->renderer, rects, n);
}

static void format_count(char *buf, size_t size, uint64_t n)
{
    snprintf(buf, size, "%llu", (unsigned long long)n);
}

static void draw_status(pb_viz *v, double now)
{
    const int y0 = v->win_h - v->bar_h;
    SDL_SetRenderDrawColor(v->renderer, 24, 24, 28, 255);
    SDL_RenderFillRect(v->renderer, &(SDL_Rect){0, y0, v->win_w, v->bar_h});
    char line[256], iters[32], nodes[32], cost[32], speed[32];
    format_count(iters, sizeof iters, v->iterations);
    format_count(nodes, sizeof nodes, v->nodes);
    if (isfinite(v->cost))
        snprintf(cost, sizeof cost, "%.2f", v->cost);
    else
        snprintf(cost, sizeof cost, "-");
    if (isinf(v->speed))
        snprintf(speed, sizeof speed, "full speed");
    else
        snprintf(speed, sizeof speed, "%g it/s", v->speed);
    const char *state = v->finished ? "done" : v->paused ? "PAUSED" : "running";
    if (v->params.query_mode && !v->has_problem)
        state = "click start, then goal";
    snprintf(line, sizeof line, "%s seed %llu  it %s  nodes %s  cost %s  %s",
             v->planner_name[0] ? v->planner_name : "-", (unsigned long long)v->seed, iters, nodes, cost,
             state);
    const int line_h = 9 * v->text_scale;
    draw_text(v, 4 * v->text_scale, y0 + 2 * v->text_scale, line, (SDL_Color){230, 230, 230, 255});
    const pb_engine_counters c = solve_counters(v);
    const double elapsed = planning_seconds(v, now);
    if (now < v->message_until)
        snprintf(line, sizeof line, "%s", v->message);
    else
        snprintf(line, sizeof line, "feasible %llu  visible %llu  %.2f s  %s  zoom %.2g  h: help",
                 (unsigned long long)c.n_feasible, (unsigned long long)c.n_visible, elapsed, speed, v->zoom);
    draw_text(v, 4 * v->text_scale, y0 + 2 * v->text_scale + line_h, line,
              now < v->message_until ? (SDL_Color){255, 140, 120, 255} : (SDL_Color){180, 180, 190, 255});
}

static const char *const help_lines[] = {
    "space  pause / resume",
    "n      one iteration",
    "]  [   ten times faster / slower",
    "r      restart with the next seed",
    "c      clear the drawing",
    "s      save a screenshot (PNG)",
    "+ - wheel  zoom;  drag  pan",
    "h      this help",
    "q Esc  quit",
};

static void draw_help(pb_viz *v)
{
    const int s = v->text_scale, line_h = 10 * s;
    const size_t n_help = sizeof help_lines / sizeof help_lines[0];
    const size_t n_planners = v->params.query_mode ? pb_planner_registry_count() : 0;
    const int lines = (int)(n_help + (n_planners ? n_planners + 3 : 0));
    const int w = 44 * 6 * s, h = lines * line_h + 8 * s;
    const int x0 = (v->win_w - w) / 2, y0 = (v->win_h - v->bar_h - h) / 2;
    SDL_SetRenderDrawBlendMode(v->renderer, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(v->renderer, 0, 0, 0, 200);
    SDL_RenderFillRect(v->renderer, &(SDL_Rect){x0, y0, w, h});
    SDL_SetRenderDrawBlendMode(v->renderer, SDL_BLENDMODE_NONE);
    int y = y0 + 4 * s;
    for (size_t i = 0; i < n_help; i++, y += line_h)
        draw_text(v, x0 + 6 * s, y, help_lines[i], (SDL_Color){240, 240, 240, 255});
    if (n_planners) {
        y += line_h / 2;
        draw_text(v, x0 + 6 * s, y, "click: start, then goal; Enter: run", (SDL_Color){240, 240, 160, 255});
        y += line_h;
        for (size_t i = 0; i < n_planners && i < 9; i++, y += line_h) {
            char line[96];
            snprintf(line, sizeof line, "%c %zu  %s", i == v->planner_index ? '>' : ' ', i + 1,
                     pb_planner_impl_name(pb_planner_registry_get(i)));
            draw_text(v, x0 + 6 * s, y, line, (SDL_Color){240, 240, 160, 255});
        }
    }
}

/* Draw the whole window (without presenting it). */
static void render_window(pb_viz *v, double now)
{
    compose(v, now);
    SDL_UpdateTexture(v->texture, NULL, v->frame.rgb, v->frame.width * 3);
    SDL_SetRenderDrawColor(v->renderer, 90, 90, 96, 255);
    SDL_RenderClear(v->renderer);
    SDL_RenderSetClipRect(v->renderer, &(SDL_Rect){0, 0, v->win_w, v->win_h - v->bar_h});
    SDL_RenderCopy(v->renderer, v->texture, NULL, &(SDL_Rect){0, 0, v->frame.width, v->frame.height});
    if (now < v->refused_until) {
        SDL_SetRenderDrawColor(v->renderer, 255, 30, 30, 255);
        const int x = (int)v->refused_x, y = (int)v->refused_y;
        for (int o = -1; o <= 1; o++) {
            SDL_RenderDrawLine(v->renderer, x - 8, y - 8 + o, x + 8, y + 8 + o);
            SDL_RenderDrawLine(v->renderer, x - 8, y + 8 + o, x + 8, y - 8 + o);
        }
    }
    SDL_RenderSetClipRect(v->renderer, NULL);
    draw_status(v, now);
    if (v->show_help)
        draw_help(v);
    v->n_frames++;
}

static pb_status write_screenshot(pb_viz *v, const char *path, pb_diag *diag)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(v->renderer, &w, &h);
    pb_image shot;
    pb_status st = pb_image_init(&shot, w, h);
    if (st != PB_OK) {
        pb_diag_set(diag, path, 0, 0, "cannot make a %dx%d screenshot", w, h);
        return st;
    }
    render_window(v, pb_clock_seconds());
    if (SDL_RenderReadPixels(v->renderer, NULL, SDL_PIXELFORMAT_RGB24, shot.rgb, w * 3) != 0) {
        pb_diag_set(diag, path, 0, 0, "cannot read the window: %s", SDL_GetError());
        pb_image_finish(&shot);
        return PB_ERR_UNSUPPORTED;
    }
    SDL_RenderPresent(v->renderer);
    st = pb_image_save_png(&shot, path, diag);
    pb_image_finish(&shot);
    if (st == PB_OK)
        v->n_screenshots++;
    return st;
}

pb_status pb_viz_save_screenshot(pb_viz *viz, const char *path, pb_diag *diag)
{
    const pb_status st = write_screenshot(viz, path, diag);
    publish(viz);
    return st;
}

static void screenshot_key(pb_viz *v)
{
    const char *dir = v->params.screenshot_dir ? v->params.screenshot_dir : ".";
    char path[4096];
    for (unsigned i = 1; i < 10000; i++) {
        snprintf(path, sizeof path, "%s/planbench-%04u.png", dir, i);
        if (access(path, F_OK) != 0)
            break;
    }
    pb_diag diag = {0};
    char text[sizeof v->message];
    if (write_screenshot(v, path, &diag) == PB_OK) {
        /* the full path: a relative folder is relative to where planbench was started, which
         * the user may not remember; the status line has room for the name only */
        char where[PATH_MAX];
        fprintf(stderr, "planbench: screenshot written to %s\n", realpath(path, where) ? where : path);
        snprintf(text, sizeof text, "saved %.140s", path);
    } else {
        fprintf(stderr, "planbench: screenshot failed: %s: %s\n", path, diag.message);
        snprintf(text, sizeof text, "screenshot failed: %.120s", diag.message);
    }
    set_message(v, text);
}

/* ---- input ---- */

/* The view's pictures and texture at the window's size (above the status bar); on failure the
 * old ones stay. */
static pb_status make_view(pb_viz *v, pb_diag *diag)
{
    const int w = v->win_w > 0 ? v->win_w : 1, h = v->win_h - v->bar_h > 0 ? v->win_h - v->bar_h : 1;
    if (v->texture && v->layer.width == w && v->layer.height == h)
        return PB_OK;
    pb_image layer, frame;
    pb_status st = pb_image_init(&layer, w, h);
    if (st == PB_OK)
        st = pb_image_init(&frame, w, h);
    else
        frame = (pb_image){0};
    SDL_Texture *texture =
        st == PB_OK ? SDL_CreateTexture(v->renderer, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING, w, h)
                    : NULL;
    if (!texture) {
        pb_diag_set(diag, NULL, 0, 0, "cannot make a %dx%d view: %s", w, h,
                    st == PB_OK ? SDL_GetError() : "out of memory");
        pb_image_finish(&layer);
        pb_image_finish(&frame);
        return st == PB_OK ? PB_ERR_UNSUPPORTED : st;
    }
    if (v->texture)
        SDL_DestroyTexture(v->texture);
    pb_image_finish(&v->layer);
    pb_image_finish(&v->frame);
    v->layer = layer;
    v->frame = frame;
    v->texture = texture;
    v->view_scale = 0.0; /* the layer is redrawn at the next frame */
    return PB_OK;
}

static void fit_view(pb_viz *v)
{
    const int area_h = v->win_h - v->bar_h;
    v->fit = fmin((double)v->win_w / v->base.width, (double)area_h / v->base.height);
    if (!(v->fit > 0.0))
        v->fit = 1.0;
    const double s = v->fit * v->zoom;
    v->pan_x = 0.5 * (v->win_w - v->base.width * s);
    v->pan_y = 0.5 * (area_h - v->base.height * s);
}

static void set_text_scale(pb_viz *v)
{
    v->text_scale = v->win_w >= 1000 ? 2 : 1;
    v->bar_h = 2 * 9 * v->text_scale + 4 * v->text_scale;
}

static void zoom_at(pb_viz *v, double x, double y, double factor)
{
    const double z = fmin(MAX_ZOOM, fmax(MIN_ZOOM, v->zoom * factor));
    const double s = v->fit * v->zoom, s2 = v->fit * z;
    const double px = (x - v->pan_x) / s, py = (y - v->pan_y) / s;
    v->zoom = z;
    v->pan_x = x - px * s2;
    v->pan_y = y - py * s2;
}

static void click(pb_viz *v, double x, double y)
{
    if (!v->params.query_mode)
        return;
    const double s = v->fit * v->zoom;
    const double *hi = pb_engine_upper(v->engine);
    const bool want_start = !v->has_start || v->has_goal;
    double q[PB_MAX_DIM], dstart[PB_MAX_DIM], dgoal[PB_MAX_DIM];
    const bool defaults = pb_engine_defaults(v->engine, dstart, dgoal);
    for (int i = 0; i < v->dim; i++)
        q[i] = defaults ? (want_start ? dstart[i] : dgoal[i]) : 0.5 * (v->lower[i] + hi[i]);
    const double picture[2] = {(x - (double)lround(v->pan_x)) / s, (y - (double)lround(v->pan_y)) / s};
    double q2[2];
    pb_image_picture_to_engine(v->engine, v->scale, picture, q2);
    q[0] = q2[0];
    if (v->dim > 1)
        q[1] = q2[1];
    bool inside = true;
    for (int i = 0; i < v->dim; i++)
        inside = inside && q[i] >= v->lower[i] && q[i] < hi[i];
    if (!inside || !pb_engine_feasible(v->engine, q)) {
        v->shared.n_refused++;
        v->refused_x = x;
        v->refused_y = y;
        v->refused_until = pb_clock_seconds() + 1.0;
        char why[96] = "", text[sizeof v->message];
        if (inside && !pb_engine_explain(v->engine, q, why, sizeof why))
            snprintf(why, sizeof why, "it is on an obstacle");
        snprintf(text, sizeof text, "click at (%.4g, %.4g) ignored: %s; click on free space", q[0],
                 v->dim > 1 ? q[1] : 0.0, inside ? why : "it is outside the map");
        set_message(v, text);
        /* also where the user typed the command: the status line is small and goes after 2 s */
        fprintf(stderr, "planbench: %s\n", text);
        return;
    }
    if (want_start) {
        memcpy(v->start, q, sizeof q);
        v->has_start = true;
        v->has_goal = false;
    } else {
        memcpy(v->goal, q, sizeof q);
        v->has_goal = true;
    }
}

static void clear_drawing(pb_viz *v)
{
    v->n_edges = v->n_samples = v->n_live_edges = 0;
    v->n_arms = 0;
    v->arm_stride = 1;
    v->arm_counter = 0;
    for (int t = 0; t < MAX_TREES; t++) {
        if (v->trees[t].edge)
            memset(v->trees[t].edge, 0xff, (size_t)v->trees[t].capacity * sizeof(uint32_t));
        v->trees[t].n_nodes = 0;
    }
    v->layer_dirty = true;
    v->last_full_redraw = -1e9;
}

static void request(pb_viz *v, int action)
{
    v->pending = action;
    atomic_store(&v->cancel, 1);
    v->paused = false;
}

static void on_key(pb_viz *v, SDL_Keycode key)
{
    switch (key) {
    case SDLK_SPACE:
        v->paused = !v->paused;
        v->steps = 0;
        break;
    case SDLK_n:
        if (v->paused)
            v->steps++;
        else
            v->paused = true;
        break;
    case SDLK_RIGHTBRACKET:
        v->speed = v->speed * 10.0 >= 1e4 ? INFINITY : v->speed * 10.0;
        break;
    case SDLK_LEFTBRACKET:
        v->speed = isinf(v->speed) ? 1000.0 : fmax(1.0, v->speed / 10.0);
        break;
    case SDLK_r:
        if (!v->params.query_mode)
            request(v, PB_VIZ_RESTART);
        break;
    case SDLK_c:
        clear_drawing(v);
        if (v->params.query_mode && v->finished) {
            v->has_start = v->has_goal = v->has_problem = false;
            pb_path_clear(&v->path);
            v->cost = INFINITY;
            v->animating = false;
        }
        break;
    case SDLK_s:
        screenshot_key(v);
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        zoom_at(v, 0.5 * v->win_w, 0.5 * (v->win_h - v->bar_h), 1.25);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        zoom_at(v, 0.5 * v->win_w, 0.5 * (v->win_h - v->bar_h), 0.8);
        break;
    case SDLK_h:
        v->show_help = !v->show_help;
        break;
    case SDLK_q:
    case SDLK_ESCAPE:
        request(v, PB_VIZ_QUIT);
        break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
    case SDLK_g:
        if (v->params.query_mode) {
            if (v->has_start && v->has_goal)
                request(v, PB_VIZ_RUN);
            else
                set_message(v, "click a start and a goal first");
        }
        break;
    default:
        if (v->params.query_mode && key >= SDLK_1 && key <= SDLK_9) {
            const size_t i = (size_t)(key - SDLK_1);
            if (i < pb_planner_registry_count()) {
                v->planner_index = i;
                char text[96];
                snprintf(text, sizeof text, "planner: %s (Enter runs it)",
                         pb_planner_impl_name(pb_planner_registry_get(i)));
                set_message(v, text);
            }
        }
        break;
    }
}

/* Handle every queued SDL event. Returns true when any arrived. */
static bool handle_events(pb_viz *v)
{
    SDL_AtomicSet(&v->input_pending, 0);
    bool any = false;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        any = true;
        switch (e.type) {
        case SDL_QUIT:
            request(v, PB_VIZ_QUIT);
            break;
        case SDL_KEYDOWN:
            on_key(v, e.key.keysym.sym);
            break;
        case SDL_MOUSEWHEEL: {
            double x, y;
#if SDL_VERSION_ATLEAST(2, 26, 0)
            x = e.wheel.mouseX;
            y = e.wheel.mouseY;
#else
            int ix, iy;
            SDL_GetMouseState(&ix, &iy);
            x = ix;
            y = iy;
#endif
            const int dy = e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e.wheel.y : e.wheel.y;
            zoom_at(v, x, y, pow(1.25, dy));
            break;
        }
        case SDL_MOUSEBUTTONDOWN:
            v->dragging = true;
            v->drag_moved = false;
            v->press_x = e.button.x;
            v->press_y = e.button.y;
            break;
        case SDL_MOUSEMOTION:
            if (v->dragging) {
                v->pan_x += e.motion.xrel;
                v->pan_y += e.motion.yrel;
                if (abs(e.motion.x - v->press_x) + abs(e.motion.y - v->press_y) > 3)
                    v->drag_moved = true;
            }
            break;
        case SDL_MOUSEBUTTONUP:
            if (v->dragging && !v->drag_moved && e.button.button == SDL_BUTTON_LEFT)
                click(v, e.button.x, e.button.y);
            v->dragging = false;
            break;
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                /* a window manager has resized the window already; an injected resize
                 * (PB_VIZ_INPUT_RESIZE) is applied here, on the thread that owns it */
                int w = 0, h = 0;
                SDL_GetWindowSize(v->window, &w, &h);
                if (w != e.window.data1 || h != e.window.data2)
                    SDL_SetWindowSize(v->window, e.window.data1, e.window.data2);
                v->win_w = e.window.data1;
                v->win_h = e.window.data2;
                set_text_scale(v);
                pb_diag diag = {0};
                if (make_view(v, &diag) != PB_OK)
                    fprintf(stderr, "planbench: %s; the view keeps its size\n", diag.message);
                const double zoom = v->zoom;
                v->zoom = 1.0;
                fit_view(v);
                if (zoom != 1.0)
                    zoom_at(v, 0.5 * v->win_w, 0.5 * (v->win_h - v->bar_h), zoom);
            }
            break;
        default:
            break;
        }
    }
    return any;
}

/* Process input and redraw. */
static void frame(pb_viz *v, double now)
{
    handle_events(v);
    render_window(v, now);
    SDL_RenderPresent(v->renderer);
    v->last_frame = now;
    v->frame_cost = pb_clock_seconds() - now;
    publish(v);
}

pb_status pb_viz_inject(pb_viz *viz, const pb_viz_input *input)
{
    SDL_Event e[3];
    int n = 0;
    memset(e, 0, sizeof e);
    const Uint32 window_id = SDL_GetWindowID(viz->window);
    switch (input->type) {
    case PB_VIZ_INPUT_KEY: {
        SDL_Keycode sym = input->key == PB_VIZ_KEY_ESCAPE  ? SDLK_ESCAPE
                          : input->key == PB_VIZ_KEY_ENTER ? SDLK_RETURN
                                                           : (SDL_Keycode)input->key;
        e[0].type = SDL_KEYDOWN;
        e[0].key.windowID = window_id;
        e[0].key.state = SDL_PRESSED;
        e[0].key.keysym.sym = sym;
        e[0].key.keysym.scancode = SDL_GetScancodeFromKey(sym);
        n = 1;
        break;
    }
    case PB_VIZ_INPUT_CLICK:
    case PB_VIZ_INPUT_DRAG: {
        const bool drag = input->type == PB_VIZ_INPUT_DRAG;
        e[0].type = SDL_MOUSEBUTTONDOWN;
        e[0].button = (SDL_MouseButtonEvent){.type = SDL_MOUSEBUTTONDOWN,
                                             .windowID = window_id,
                                             .button = SDL_BUTTON_LEFT,
                                             .state = SDL_PRESSED,
                                             .clicks = 1,
                                             .x = (Sint32)lround(input->x),
                                             .y = (Sint32)lround(input->y)};
        n = 1;
        if (drag) {
            e[1].motion = (SDL_MouseMotionEvent){.type = SDL_MOUSEMOTION,
                                                 .windowID = window_id,
                                                 .state = SDL_BUTTON_LMASK,
                                                 .x = (Sint32)lround(input->x + input->dx),
                                                 .y = (Sint32)lround(input->y + input->dy),
                                                 .xrel = (Sint32)lround(input->dx),
                                                 .yrel = (Sint32)lround(input->dy)};
            n = 2;
        }
        e[n].button = e[0].button;
        e[n].button.type = SDL_MOUSEBUTTONUP;
        e[n].button.state = SDL_RELEASED;
        if (drag) {
            e[n].button.x = e[1].motion.x;
            e[n].button.y = e[1].motion.y;
        }
        n++;
        break;
    }
    case PB_VIZ_INPUT_WHEEL:
        e[0].wheel = (SDL_MouseWheelEvent){.type = SDL_MOUSEWHEEL,
                                           .windowID = window_id,
                                           .y = (Sint32)lround(input->dy),
                                           .direction = SDL_MOUSEWHEEL_NORMAL};
#if SDL_VERSION_ATLEAST(2, 26, 0)
        e[0].wheel.mouseX = (Sint32)lround(input->x);
        e[0].wheel.mouseY = (Sint32)lround(input->y);
#endif
        n = 1;
        break;
    case PB_VIZ_INPUT_RESIZE:
        if (!(input->x >= 1 && input->y >= 1 && input->x <= 16384 && input->y <= 16384))
            return PB_ERR_INVALID;
        e[0].window = (SDL_WindowEvent){.type = SDL_WINDOWEVENT,
                                        .windowID = window_id,
                                        .event = SDL_WINDOWEVENT_SIZE_CHANGED,
                                        .data1 = (Sint32)lround(input->x),
                                        .data2 = (Sint32)lround(input->y)};
        n = 1;
        break;
    default:
        return PB_ERR_INVALID;
    }
    for (int i = 0; i < n; i++)
        if (SDL_PushEvent(&e[i]) < 0)
            return PB_ERR_NOMEM;
    SDL_AtomicSet(&viz->input_pending, 1);
    return PB_OK;
}

/* ---- create, begin, observe ---- */

/* Unless the user chose (SDL_VIDEODRIVER), let SDL try only the drivers that can show a window
 * here. Left to itself, SDL falls back from a display it cannot open to an off-screen driver (a
 * window nobody sees, waiting for a key nobody can press), and probes Wayland on the way, whose
 * library prints "XDG_RUNTIME_DIR is invalid or not set" when there is no Wayland session.
 * Wayland needs its socket: WAYLAND_DISPLAY as an absolute path, or in XDG_RUNTIME_DIR. */
static void choose_video_drivers(void)
{
    if (getenv("SDL_VIDEODRIVER"))
        return;
    const char *wayland_display = getenv("WAYLAND_DISPLAY"), *runtime_dir = getenv("XDG_RUNTIME_DIR");
    const bool wayland = wayland_display && wayland_display[0] &&
                         (wayland_display[0] == '/' || (runtime_dir && runtime_dir[0] == '/'));
    const bool x11 = getenv("DISPLAY") != NULL;
    /* SDL's own order when both are there: X11 first */
    SDL_SetHint(SDL_HINT_VIDEODRIVER, x11 && wayland ? "x11,wayland" : wayland ? "wayland" : "x11");
}

pb_status pb_viz_create(pb_viz **out, pb_engine *engine, const pb_viz_config *params, pb_diag *diag)
{
    *out = NULL;
    pb_viz *v = calloc(1, sizeof *v);
    if (!v) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    v->engine = engine;
    v->dim = pb_engine_dim(engine);
    v->lower = pb_engine_lower(engine);
    v->params = *params;
    v->params.title = NULL;
    v->zoom = 1.0;
    v->speed = INFINITY;
    v->cost = INFINITY;
    v->pending = NO_ACTION;
    v->arm_stride = 1;
    v->last_full_redraw = -1e9;
    pb_path_init(&v->path, v->dim);
    pb_status st = pb_image_render_engine(&v->base, engine, &v->scale, diag);
    if (st != PB_OK)
        goto fail;
    v->mutex = SDL_CreateMutex();
    if (!v->mutex) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        st = PB_ERR_NOMEM;
        goto fail;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    choose_video_drivers();
    /* Opening the X display right after a previous window closed fails now and then on a
     * busy machine ("x11 not available"): try a few times before giving up. */
    int video = SDL_InitSubSystem(SDL_INIT_VIDEO);
    const bool display_named = getenv("DISPLAY") || getenv("WAYLAND_DISPLAY");
    if (!display_named && !getenv("SDL_VIDEODRIVER")) {
        /* Without these SDL may settle on an off-screen driver: a window nobody can see,
         * waiting for a key nobody can press. */
        pb_diag_set(diag, NULL, 0, 0,
                    "no display: DISPLAY is not set (on a headless machine run under xvfb-run, or use "
                    "--screenshot with SDL_VIDEODRIVER=offscreen)");
        st = PB_ERR_UNSUPPORTED;
        goto fail;
    }
    for (int attempt = 1; video != 0 && display_named && attempt < 10; attempt++) {
        SDL_Delay(50u * (unsigned)attempt);
        video = SDL_InitSubSystem(SDL_INIT_VIDEO);
    }
    if (video != 0) {
        pb_diag_set(diag, NULL, 0, 0, "cannot open a display: %s", SDL_GetError());
        st = PB_ERR_UNSUPPORTED;
        goto fail;
    }
    SDL_Rect usable = {0, 0, 1280, 1024};
    if (SDL_GetDisplayUsableBounds(0, &usable) != 0 || usable.w <= 0 || usable.h <= 0)
        usable = (SDL_Rect){0, 0, 1280, 1024};
    int max_w = params->max_width > 0 ? params->max_width : usable.w - 16;
    int max_h = params->max_height > 0 ? params->max_height : usable.h - 48;
    v->win_w = v->base.width; /* for the text scale of the first guess */
    set_text_scale(v);
    double fit = fmin(1.0, fmin((double)max_w / v->base.width, (double)(max_h - v->bar_h) / v->base.height));
    if (!(fit > 0.05))
        fit = 0.05;
    v->win_w = (int)ceil(v->base.width * fit);
    set_text_scale(v);
    v->win_h = (int)ceil(v->base.height * fit) + v->bar_h;
    v->window = SDL_CreateWindow(params->title ? params->title : "planbench", SDL_WINDOWPOS_CENTERED,
                                 SDL_WINDOWPOS_CENTERED, v->win_w, v->win_h, SDL_WINDOW_RESIZABLE);
    if (v->window)
        v->renderer = SDL_CreateRenderer(v->window, -1, 0);
    if (v->window && !v->renderer)
        v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
    if (!v->renderer) {
        pb_diag_set(diag, NULL, 0, 0, "cannot open a window: %s", SDL_GetError());
        st = PB_ERR_UNSUPPORTED;
        goto fail;
    }
    SDL_GetWindowSize(v->window, &v->win_w, &v->win_h);
    set_text_scale(v);
    st = make_view(v, diag);
    if (st != PB_OK)
        goto fail;
    fit_view(v);
    publish(v);
    frame(v, pb_clock_seconds());
    *out = v;
    return PB_OK;
fail:
    pb_viz_destroy(v);
    return st;
}

void pb_viz_destroy(pb_viz *viz)
{
    if (!viz)
        return;
    if (viz->texture)
        SDL_DestroyTexture(viz->texture);
    if (viz->renderer)
        SDL_DestroyRenderer(viz->renderer);
    if (viz->window)
        SDL_DestroyWindow(viz->window);
    if (viz->window || SDL_WasInit(SDL_INIT_VIDEO))
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (viz->mutex)
        SDL_DestroyMutex(viz->mutex);
    pb_image_finish(&viz->base);
    pb_image_finish(&viz->layer);
    pb_image_finish(&viz->frame);
    pb_path_finish(&viz->path);
    free(viz->path_length);
    free(viz->edges);
    free(viz->samples);
    for (int t = 0; t < MAX_TREES; t++)
        free(viz->trees[t].edge);
    free(viz);
}

void pb_viz_begin(pb_viz *viz, const pb_problem *problem, const char *planner_name, uint64_t seed)
{
    pb_viz *v = viz;
    clear_drawing(v);
    memcpy(v->start, problem->start, (size_t)v->dim * sizeof(double));
    memcpy(v->goal, problem->goal, (size_t)v->dim * sizeof(double));
    v->goal_radius = problem->goal_radius;
    v->has_problem = true;
    snprintf(v->planner_name, sizeof v->planner_name, "%s", planner_name ? planner_name : "");
    v->informed = planner_name && (strstr(planner_name, "informed") || strcmp(planner_name, "bitstar") == 0 ||
                                   strcmp(planner_name, "bit*") == 0);
    v->seed = seed;
    pb_path_clear(&v->path);
    v->cost = INFINITY;
    v->finished = v->animating = false;
    v->iterations = v->nodes = 0;
    v->iteration_events = false;
    v->t_begin = pb_clock_seconds();
    atomic_store(&v->held_ns, 0);
    v->holding_since = 0.0;
    v->begin_counters = pb_engine_get_counters(v->engine);
    v->steps = 0;
    v->next_iteration_time = 0.0;
    atomic_store(&v->cancel, 0);
    v->pending = NO_ACTION;
    v->screenshot_done = false;
    publish(v);
}

const pb_atomic_flag *pb_viz_cancel_flag(pb_viz *viz)
{
    return &viz->cancel;
}

const pb_atomic_count *pb_viz_held_ns(pb_viz *viz)
{
    return &viz->held_ns;
}

static bool grow(void **array, size_t *capacity, size_t size)
{
    const size_t cap = *capacity ? 2 * *capacity : 4096;
    void *p = realloc(*array, cap * size);
    if (!p)
        return false;
    *array = p;
    *capacity = cap;
    return true;
}

static void add_sample(pb_viz *v, const pb_event *ev)
{
    if (v->n_samples == v->samples_capacity &&
        !grow((void **)&v->samples, &v->samples_capacity, sizeof *v->samples))
        return; /* the picture loses a sample, the plan goes on */
    v->samples[v->n_samples++] = (viz_sample){(float)pic_x(v, ev->q), (float)pic_y(v, ev->q), ev->tree};
}

static node_index *tree_index(pb_viz *v, int tree)
{
    return tree >= 0 && tree < MAX_TREES ? &v->trees[tree] : NULL;
}

static void note_node(pb_viz *v, const pb_event *ev)
{
    node_index *t = tree_index(v, ev->tree);
    if (!t) {
        v->nodes++;
        return;
    }
    if (ev->node >= t->n_nodes) {
        v->nodes += ev->node + 1 - t->n_nodes;
        t->n_nodes = ev->node + 1;
    }
}

static void add_edge(pb_viz *v, const pb_event *ev)
{
    if (v->n_edges == v->edges_capacity && !grow((void **)&v->edges, &v->edges_capacity, sizeof *v->edges))
        return;
    const size_t index = v->n_edges;
    v->edges[v->n_edges++] = (viz_edge){(float)pic_x(v, ev->parent_q),
                                        (float)pic_y(v, ev->parent_q),
                                        (float)pic_x(v, ev->q),
                                        (float)pic_y(v, ev->q),
                                        ev->node,
                                        ev->parent,
                                        ev->tree,
                                        true};
    v->n_live_edges++;
    node_index *t = tree_index(v, ev->tree);
    if (!t || index >= NO_EDGE || ev->node == UINT32_MAX)
        return;
    if (ev->node >= t->capacity) {
        uint32_t cap = t->capacity ? t->capacity : 4096;
        while (cap <= ev->node && cap < UINT32_MAX / 2)
            cap *= 2;
        uint32_t *p = realloc(t->edge, (size_t)cap * sizeof *p);
        if (!p)
            return;
        memset(p + t->capacity, 0xff, (size_t)(cap - t->capacity) * sizeof *p);
        t->edge = p;
        t->capacity = cap;
    }
    if (ev->node < t->capacity)
        t->edge[ev->node] = (uint32_t)index;
}

static void remove_edge(pb_viz *v, const pb_event *ev)
{
    node_index *t = tree_index(v, ev->tree);
    size_t found = SIZE_MAX;
    if (t && ev->node < t->capacity && t->edge[ev->node] != NO_EDGE) {
        const viz_edge *e = &v->edges[t->edge[ev->node]];
        if (e->live && e->node == ev->node && e->parent == ev->parent)
            found = t->edge[ev->node];
    }
    for (size_t i = v->n_edges; found == SIZE_MAX && i-- > 0;) {
        const viz_edge *e = &v->edges[i];
        if (e->live && e->tree == ev->tree && e->node == ev->node && e->parent == ev->parent)
            found = i;
    }
    if (found == SIZE_MAX)
        return;
    v->edges[found].live = false;
    v->n_live_edges--;
    if (found < v->n_drawn_edges)
        v->layer_dirty = true;
}

/* Keep at most MAX_ARMS configurations spread over the tree's growth: every stride-th node,
 * the stride doubling (and every other kept one dropped) whenever the list is full. */
static void note_arm(pb_viz *v, const double *q)
{
    if (v->arm_counter++ % v->arm_stride != 0)
        return;
    const size_t d = (size_t)v->dim;
    if (v->n_arms == MAX_ARMS) {
        for (size_t i = 0; i < MAX_ARMS / 2; i++)
            memcpy(v->arms + i * d, v->arms + 2 * i * d, d * sizeof(double));
        v->n_arms = MAX_ARMS / 2;
        v->arm_stride *= 2;
    }
    memcpy(v->arms + v->n_arms++ * d, q, d * sizeof(double));
}

static void take_scripted_screenshot(pb_viz *v)
{
    pb_diag diag = {0};
    if (write_screenshot(v, v->params.screenshot_path, &diag) != PB_OK) {
        char buf[1024];
        pb_diag_format(&diag, buf, sizeof buf);
        fprintf(stderr, "planbench: %s\n", buf);
    }
    v->screenshot_done = true;
    atomic_store(&v->cancel, 1);
}

/* An iteration boundary: the place where pause, single steps and the speed limit hold the
 * planner. */
static void gate(pb_viz *v, double now)
{
    if (v->params.screenshot_path && v->params.screenshot_at > 0 && !v->screenshot_done &&
        v->iterations >= v->params.screenshot_at) {
        v->last_frame = now;
        take_scripted_screenshot(v);
        return;
    }
    bool holding = false;
    for (;;) {
        if (atomic_load(&v->cancel))
            break;
        if (v->paused) {
            if (v->steps > 0) {
                v->steps--;
                break;
            }
        } else if (isinf(v->speed) || now >= v->next_iteration_time) {
            if (!isinf(v->speed))
                v->next_iteration_time = fmax(v->next_iteration_time + 1.0 / v->speed, now);
            break;
        }
        if (!holding) {
            holding = v->blocked = true;
            v->holding_since = now;
            v->n_blocks++;
            publish(v);
        }
        const double interval = v->params.frame_interval_s > 0.0 ? v->params.frame_interval_s : 1.0 / 60.0;
        double wait = v->last_frame + interval - now;
        if (!v->paused)
            wait = fmin(wait, v->next_iteration_time - now);
        if (wait > 0.002)
            SDL_Delay((Uint32)fmin(10.0, wait * 1e3 - 1.0));
        now = pb_clock_seconds();
        if (now - v->last_frame >= interval || SDL_AtomicGet(&v->input_pending))
            frame(v, now);
    }
    if (holding) {
        /* paused, single-stepped or slowed down: the planner was not planning */
        const double held_s = pb_clock_seconds() - v->holding_since;
        atomic_fetch_add_explicit(&v->held_ns, (unsigned long long)(held_s * 1e9), memory_order_relaxed);
        v->holding_since = 0.0;
        v->blocked = false;
        publish(v);
    }
}

void pb_viz_observer(const pb_event *event, void *payload)
{
    pb_viz *v = payload;
    bool boundary = false;
    switch (event->type) {
    case PB_EVENT_SAMPLE:
        if (event->q)
            add_sample(v, event);
        if (!v->iteration_events) {
            v->iterations = event->iteration ? event->iteration : v->iterations + 1;
            boundary = true;
        }
        break;
    case PB_EVENT_NODE_ADDED:
        note_node(v, event);
        if (event->q && event->parent_q)
            add_edge(v, event);
        if (event->q && v->dim > 2)
            note_arm(v, event->q);
        break;
    case PB_EVENT_EDGE_REMOVED:
        remove_edge(v, event);
        break;
    case PB_EVENT_SOLUTION:
        v->cost = event->cost;
        if (event->path && event->path->dim == v->dim)
            pb_path_copy(&v->path, event->path);
        break;
    case PB_EVENT_ITERATION:
        v->iteration_events = true;
        v->iterations = event->iteration ? event->iteration : v->iterations + 1;
        boundary = true;
        break;
    default:
        break;
    }
    const double now = pb_clock_seconds();
    const double interval = v->params.frame_interval_s > 0.0 ? v->params.frame_interval_s : 1.0 / 60.0;
    /* at the display's rate, but a slow frame (a large map in software) waits 4 times its cost,
     * so drawing takes at most about a fifth of the planner's time */
    if (now - v->last_frame >= fmax(interval, 4.0 * v->frame_cost) || SDL_AtomicGet(&v->input_pending))
        frame(v, now);
    if (boundary)
        gate(v, now);
}

pb_status pb_viz_show_result(pb_viz *viz, const pb_result *result, pb_diag *diag)
{
    pb_viz *v = viz;
    v->t_end = pb_clock_seconds();
    v->finished = true;
    v->iterations = result->iterations;
    v->nodes = result->nodes;
    v->final_counters = result->counters;
    v->final_time_s = result->time_s;
    if (result->path.n > 0 && result->path.dim == v->dim) {
        pb_path_copy(&v->path, &result->path);
        v->cost = result->cost;
    }
    free(v->path_length);
    v->path_length = NULL;
    v->animating = false;
    if (v->dim > 2 && v->path.n >= 2) {
        v->path_length = malloc(v->path.n * sizeof(double));
        if (v->path_length) {
            v->path_length[0] = 0.0;
            for (size_t i = 1; i < v->path.n; i++)
                v->path_length[i] =
                    v->path_length[i - 1] +
                    pb_engine_distance(v->engine, pb_path_at(&v->path, i - 1), pb_path_at(&v->path, i));
            v->animating = v->path_length[v->path.n - 1] > 0.0;
            v->animation_t0 = v->t_end;
        }
    }
    pb_status st = PB_OK;
    if (v->params.screenshot_path && !v->screenshot_done) {
        /* the scripted screenshot is of the final picture: no animated arm on top */
        const bool animating = v->animating;
        v->animating = false;
        st = write_screenshot(v, v->params.screenshot_path, diag);
        v->animating = animating;
        v->screenshot_done = true;
    } else {
        frame(v, pb_clock_seconds());
    }
    publish(v);
    return st;
}

pb_viz_action pb_viz_wait(pb_viz *viz)
{
    pb_viz *v = viz;
    double last_draw = 0.0;
    while (v->pending == NO_ACTION) {
        SDL_WaitEventTimeout(NULL, 16); /* NULL: wait without taking the event */
        const bool handled = handle_events(v);
        const double now = pb_clock_seconds();
        if (handled || v->animating || now - last_draw > 0.25 || now < v->message_until + 0.1 ||
            now < v->refused_until + 0.1) {
            render_window(v, now);
            SDL_RenderPresent(v->renderer);
            last_draw = now;
        }
        publish(v);
    }
    const pb_viz_action action = (pb_viz_action)v->pending;
    v->pending = NO_ACTION;
    if (action == PB_VIZ_RUN)
        atomic_store(&v->cancel, 0);
    return action;
}

bool pb_viz_get_query(const pb_viz *viz, double *start, double *goal, size_t *planner_index)
{
    if (!viz->has_start || !viz->has_goal)
        return false;
    memcpy(start, viz->start, (size_t)viz->dim * sizeof(double));
    memcpy(goal, viz->goal, (size_t)viz->dim * sizeof(double));
    *planner_index = viz->planner_index;
    return true;
}
