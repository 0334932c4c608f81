/* planbench: the SDL2 visualiser, a window that watches a planner plan.
 *
 * The planner never draws: the visualiser is an observer. Pass pb_viz_observer() and the
 * visualiser to pb_planner_set_observer(); every event is recorded in flat arrays, and the
 * window is redrawn at most once per frame interval (~16 ms), so the planner runs at nearly
 * full speed between frames. Pause and single-step block inside the observer callback.
 *
 *     pb_viz_config vp = pb_viz_config_default();
 *     pb_viz *viz;
 *     pb_viz_create(&viz, engine, &vp, &diag);
 *     pb_viz_begin(viz, &problem, "rrt", seed);
 *     pb_planner_set_observer(planner, pb_viz_observer, viz);
 *     stop.cancel = pb_viz_cancel_flag(viz);          // q, Esc and r stop the solve
 *     stop.held_ns = pb_viz_held_ns(viz);             // paused time is not planning time
 *     pb_planner_solve(planner, &problem, &stop, &result);
 *     pb_viz_show_result(viz, &result);
 *     while (pb_viz_wait(viz) == PB_VIZ_RESTART) { ...solve again with the next seed... }
 *     pb_viz_destroy(viz);
 *
 * Keys: space pause/resume, n one iteration, ] ten times faster, [ ten times slower, r restart
 * with the next seed, c clear the drawing, s save a screenshot, + / - and the wheel zoom,
 * drag to pan, h help, q or Esc quit. Zoom scales the engine's picture only: the tree, the path
 * and the markers are drawn at the window's resolution (markers 6 pixels in radius, the path 3
 * pixels wide, whatever the zoom and the map's size). In query mode (`planbench view`) clicks place the start
 * and then the goal (a click on an obstacle is refused with a red cross, and the status line
 * and stderr say why), 1-9 choose a planner
 * and Enter runs it.
 *
 * All functions must be called from one thread (the one that made the visualiser), except
 * pb_viz_inject() and pb_viz_get_state(), which any thread may call.
 *
 * This header exists in every build; the functions exist only when planbench was built with
 * the `viz` feature (SDL2 found): the build then defines PB_HAVE_VIZ to 1 for its users. */
#ifndef PLANBENCH_VIZ_H
#define PLANBENCH_VIZ_H

#include "planner.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_viz pb_viz;

/** How a visualiser is made. Start from pb_viz_config_default(). */
typedef struct pb_viz_config {
    const char *title; /**< window title; NULL: "planbench". Borrowed for the create call */
    /** Largest initial window, in screen pixels; 0: the display's usable area. The picture is
     * shown at scale 1 when it fits, else scaled down to fit. */
    int max_width, max_height;
    /** Redraw at most this often while planning, seconds; 0: 1/60. */
    double frame_interval_s;
    /** When not NULL: save the window content as a PNG here once `screenshot_at` iterations
     * are reached (the solve is then cancelled), or, with screenshot_at 0, when
     * pb_viz_show_result() is called. Borrowed: must outlive the visualiser. */
    const char *screenshot_path;
    uint64_t screenshot_at;
    /** Folder of the screenshots the `s` key writes (planbench-0001.png, ...; each one's full
     * path is printed on stderr); NULL: ".".
     * Borrowed: must outlive the visualiser. */
    const char *screenshot_dir;
    /** Query mode (`planbench view`): clicks place the start and the goal, keys choose a
     * planner, Enter asks pb_viz_wait() to return PB_VIZ_RUN. */
    bool query_mode;
} pb_viz_config;

/** No title, fit the display, 60 frames per second, no scripted screenshot, plan mode. */
PB_API pb_viz_config pb_viz_config_default(void);

/** What the user asked for, returned by pb_viz_wait(). */
typedef enum pb_viz_action {
    PB_VIZ_QUIT,    /**< q, Esc, or the window was closed */
    PB_VIZ_RESTART, /**< r: solve again with the next seed */
    PB_VIZ_RUN,     /**< query mode: run the chosen planner on the clicked start and goal */
    PB_VIZ_ACTION_COUNT
} pb_viz_action;

/** Open a window showing `engine`'s picture (pb_image_render_engine: the map, the feasible
 * region of a 2D black box, the workspace of the 4D arm, front, side and top views of a
 * manipulator world). `engine` is borrowed and must
 * outlive the visualiser. PB_ERR_UNSUPPORTED when the engine has no picture or no display
 * can be opened (diag says why), PB_ERR_NOMEM when memory runs out. `*out` is owned by the
 * caller (pb_viz_destroy). */
PB_API pb_status pb_viz_create(pb_viz **out, pb_engine *engine, const pb_viz_config *params, pb_diag *diag);
/** Close the window and free everything; NULL is accepted. */
PB_API void pb_viz_destroy(pb_viz *viz);

/** Start showing a new solve: clears the tree, samples and path, records the problem (copied)
 * and the planner's name (copied; its overlays depend on it: "informedrrt" and "bitstar" get
 * the informed ellipse) and the seed shown in the title, and resets the cancel flag. */
PB_API void pb_viz_begin(pb_viz *viz, const pb_problem *problem, const char *planner_name, uint64_t seed);

/** The observer: pass it with the visualiser as payload to pb_planner_set_observer(). */
PB_API void pb_viz_observer(const pb_event *event, void *payload);

/** A flag that becomes non-zero when the user quits or restarts (or a scripted screenshot is
 * taken): put it in pb_stop_config.cancel. Valid for the visualiser's lifetime. */
PB_API const pb_atomic_flag *pb_viz_cancel_flag(pb_viz *viz);

/** The nanoseconds the visualiser held the current solve (paused, single steps, slowed
 * down): put it in pb_stop_config.held_ns, so that time does not count against the budget.
 * Zeroed by pb_viz_begin(). Valid for the visualiser's lifetime. */
PB_API const pb_atomic_count *pb_viz_held_ns(pb_viz *viz);

/** Show the solve's final result (its path replaces the best path seen, its counters feed the
 * status line) and, for engines drawn with more than two coordinates, start animating the
 * configuration along the path. Takes the scripted screenshot when screenshot_at is 0.
 * Returns PB_ERR_IO (diag set) when that screenshot cannot be written. */
PB_API pb_status pb_viz_show_result(pb_viz *viz, const pb_result *result, pb_diag *diag);

/** Keep the window open and responsive until the user quits, restarts or (query mode) runs a
 * planner; returns which. Returns at once when that request was already made while planning
 * (q or r pressed during the solve). */
PB_API pb_viz_action pb_viz_wait(pb_viz *viz);

/** Query mode: the start and goal the user clicked (`dim` values each; coordinates beyond the
 * first two come from the engine's defaults, else the middle of the bounds) and the index of
 * the chosen planner in the planner registry. Returns false when start or goal is missing. */
PB_API bool pb_viz_get_query(const pb_viz *viz, double *start, double *goal, size_t *planner_index);

/** Save the window content, as currently drawn, to `path` as a PNG (atomically). */
PB_API pb_status pb_viz_save_screenshot(pb_viz *viz, const char *path, pb_diag *diag);

/** A snapshot of the visualiser's state, for tests and progress displays. Updated once per
 * frame and whenever the observer blocks; thread-safe. */
typedef struct pb_viz_state {
    uint64_t iterations;      /**< iterations seen (ITERATION events, else SAMPLE events) */
    uint64_t nodes;           /**< nodes added */
    uint64_t n_feasible;      /**< feasible() calls of the shown solve (the status line's) */
    double planning_s;        /**< planning time of the shown solve, held time left out */
    uint64_t edges;           /**< edges currently shown */
    double cost;              /**< best cost seen, INFINITY when none */
    bool paused;              /**< the user paused */
    bool blocked;             /**< the observer is holding the planner (paused or throttled) */
    uint64_t n_blocks;        /**< times the observer started holding the planner at an iteration */
    double zoom;              /**< view magnification relative to the fitted view, 1 at start */
    double pan_x, pan_y;      /**< view offset, window pixels */
    double speed;             /**< iterations per second allowed; INFINITY: full speed */
    bool help_shown;          /**< the help overlay is on */
    unsigned n_screenshots;   /**< screenshots written (key s and scripted) */
    uint64_t n_frames;        /**< frames drawn */
    unsigned n_refused;       /**< query mode: clicks on obstacles refused */
    char message[160];        /**< the status line's message shown now (a refused click, a
                                   screenshot's file); empty when none */
    bool has_start, has_goal; /**< query mode: placed by clicks */
    size_t planner_index;     /**< query mode: chosen planner */
    int window_w, window_h;   /**< window size, pixels (status bar included) */
} pb_viz_state;

/** Fill `out` with the latest snapshot. Any thread. */
PB_API void pb_viz_get_state(pb_viz *viz, pb_viz_state *out);

/* ---- test entry point --------------------------------------------------------------- */

/** Kinds of injected input. */
typedef enum pb_viz_input_type {
    PB_VIZ_INPUT_KEY,   /**< a key press: `key` is an ASCII character, or PB_VIZ_KEY_ESCAPE / _ENTER */
    PB_VIZ_INPUT_CLICK, /**< left button pressed and released at window pixel (x, y) */
    PB_VIZ_INPUT_WHEEL, /**< wheel turned by `dy` notches (positive: away from the user, zoom in) at (x, y) */
    PB_VIZ_INPUT_DRAG,  /**< left button dragged from (x, y) by (dx, dy) window pixels */
    PB_VIZ_INPUT_RESIZE, /**< the window resized to (x, y) pixels, as a window manager does */
    PB_VIZ_INPUT_COUNT
} pb_viz_input_type;

#define PB_VIZ_KEY_ESCAPE 27
#define PB_VIZ_KEY_ENTER  13

typedef struct pb_viz_input {
    pb_viz_input_type type;
    int key;
    double x, y;
    double dx, dy;
} pb_viz_input;

/** Inject input as real SDL events (SDL_PushEvent), handled like a user's within the next
 * observer event or frame. Any thread. PB_ERR_INVALID for an unknown type. */
PB_API pb_status pb_viz_inject(pb_viz *viz, const pb_viz_input *input);

/** The window pixel where configuration `q` (its first two coordinates) is shown in the
 * current view. Any thread. */
PB_API void pb_viz_window_point(pb_viz *viz, const double *q, double *x, double *y);

#ifdef __cplusplus
}
#endif
#endif
