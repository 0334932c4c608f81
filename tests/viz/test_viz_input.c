/* Keyboard and mouse handling of the visualiser, by injecting SDL events (pb_viz_inject) from
 * a second thread while the planner runs on the main one: pause stops the iterations, n
 * advances exactly one, + / wheel zoom, dragging pans, s writes a screenshot (saying where), h toggles the
 * help, [ ] change the speed, c clears the drawing, a resize refits the view, q cancels the solve; r asks for
 * a restart, whose solve counts from zero and whose paused time is not planning time; in query mode a click
 * on an obstacle is refused (saying why) and clicks on free space place the start and the goal. Run under
 * Xvfb by run_xvfb.sh. */
#include "harness.h"
#include "planbench/planbench.h"
#include "planbench/viz.h"

#include <png.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define W 240
#define H 160

static pb_viz *viz;
static char dir[256];

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static pb_viz_state state(void)
{
    pb_viz_state s;
    pb_viz_get_state(viz, &s);
    return s;
}

static void key(int k)
{
    const pb_viz_input in = {.type = PB_VIZ_INPUT_KEY, .key = k};
    CHECK(pb_viz_inject(viz, &in) == PB_OK);
}

/* Wait (at most 10 s) until `cond` holds for the state. */
#define WAIT_FOR(cond)                                                                                       \
    do {                                                                                                     \
        pb_viz_state s_;                                                                                     \
        int waited_ = 0;                                                                                     \
        for (;;) {                                                                                           \
            s_ = state();                                                                                    \
            const pb_viz_state *s = &s_;                                                                     \
            if (cond)                                                                                        \
                break;                                                                                       \
            if (waited_ >= 10000) {                                                                          \
                CHECK_MSG(false, "timed out waiting for %s", #cond);                                         \
                break;                                                                                       \
            }                                                                                                \
            sleep_ms(2);                                                                                     \
            waited_ += 2;                                                                                    \
        }                                                                                                    \
    } while (0)

/* stderr into `file` until capture_end(): what the visualiser tells the user there. */
static int capture_begin(const char *file)
{
    fflush(stderr);
    const int saved = dup(2);
    FILE *f = fopen(file, "w");
    CHECK(saved >= 0 && f);
    if (f) {
        dup2(fileno(f), 2);
        fclose(f);
    }
    return saved;
}

static void capture_end(int saved)
{
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
}

static bool file_contains(const char *file, const char *text)
{
    char buf[4096] = "";
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strstr(buf, text) != NULL;
}

static bool png_size(const char *path, int *w, int *h)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        return false;
    *w = (int)image.width;
    *h = (int)image.height;
    png_image_free(&image);
    return true;
}

/* The driver: runs while the main thread is inside pb_planner_solve(). */
static void *drive(void *unused)
{
    (void)unused;
    /* space was pressed before the solve: the planner is held at its first iteration */
    WAIT_FOR(s->blocked && s->paused);
    const pb_viz_state s0 = state();
    CHECK_MSG(s0.iterations == 1, "paused at iteration %llu", (unsigned long long)s0.iterations);
    sleep_ms(300);
    CHECK_MSG(state().iterations == s0.iterations, "iterations went on while paused");
    CHECK(state().blocked);

    for (uint64_t k = 1; k <= 3; k++) {
        const uint64_t blocks = state().n_blocks;
        key('n');
        WAIT_FOR(s->n_blocks > blocks && s->blocked);
        sleep_ms(50);
        CHECK_MSG(state().iterations == s0.iterations + k, "after %llu x n: iteration %llu",
                  (unsigned long long)k, (unsigned long long)state().iterations);
    }

    /* zoom with + and the wheel, pan by dragging */
    const double z0 = state().zoom;
    key('+');
    WAIT_FOR(s->zoom != z0);
    CHECK_NEAR(state().zoom, z0 * 1.25, 1e-9);
    const pb_viz_input wheel = {.type = PB_VIZ_INPUT_WHEEL, .x = 50, .y = 40, .dy = -2};
    pb_viz_inject(viz, &wheel);
    WAIT_FOR(s->zoom < z0);
    CHECK_NEAR(state().zoom, z0 * 1.25 / (1.25 * 1.25), 1e-9);
    const pb_viz_state before = state();
    const pb_viz_input drag = {.type = PB_VIZ_INPUT_DRAG, .x = 100, .y = 80, .dx = 40, .dy = -30};
    pb_viz_inject(viz, &drag);
    WAIT_FOR(s->pan_x != before.pan_x);
    CHECK_NEAR(state().pan_x, before.pan_x + 40, 1e-9);
    CHECK_NEAR(state().pan_y, before.pan_y - 30, 1e-9);

    /* a configuration maps to the window through the view */
    double q[2] = {W / 2.0, H / 2.0}, x, y;
    pb_viz_window_point(viz, q, &x, &y);
    const pb_viz_state v = state();
    CHECK(x > v.pan_x && y > v.pan_y);

    /* s writes a screenshot of the window into the screenshot folder, and says where: its
     * full path on stderr, its name on the status line */
    char path[512], err[512];
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    const int saved = capture_begin(err);
    key('s');
    WAIT_FOR(s->n_screenshots == 1);
    capture_end(saved);
    snprintf(path, sizeof path, "%s/planbench-0001.png", dir);
    CHECK_MSG(file_contains(err, path), "stderr does not name %s", path);
    CHECK_MSG(strstr(state().message, "planbench-0001.png"), "status line: '%s'", state().message);
    int w = 0, h = 0;
    CHECK_MSG(png_size(path, &w, &h), "no screenshot at %s", path);
    CHECK_MSG(w == W && h > H, "screenshot %dx%d", w, h);

    /* help on and off; speed down and up */
    key('h');
    WAIT_FOR(s->help_shown);
    key('h');
    WAIT_FOR(!s->help_shown);
    key('[');
    WAIT_FOR(s->speed == 1000.0);
    key('[');
    WAIT_FOR(s->speed == 100.0);
    key(']');
    key(']');
    WAIT_FOR(isinf(s->speed));

    /* c clears the drawing: no edge is shown until the planner adds new ones (it is paused) */
    CHECK_MSG(state().edges > 0, "no edges drawn before c");
    key('c');
    WAIT_FOR(s->edges == 0);

    /* the window resized (as a window manager does): the view is fitted again, the zoom
     * kept, and a screenshot has the new size */
    const pb_viz_state r0 = state();
    const pb_viz_input resize = {.type = PB_VIZ_INPUT_RESIZE, .x = 2 * r0.window_w, .y = r0.window_h + H};
    CHECK(pb_viz_inject(viz, &resize) == PB_OK);
    WAIT_FOR(s->window_w == 2 * r0.window_w && s->window_h == r0.window_h + H);
    CHECK_NEAR(state().zoom, r0.zoom, 1e-9);
    key('s');
    WAIT_FOR(s->n_screenshots == 2);
    snprintf(path, sizeof path, "%s/planbench-0002.png", dir);
    CHECK_MSG(png_size(path, &w, &h), "no screenshot at %s", path);
    CHECK_MSG(w == 2 * r0.window_w && h == r0.window_h + H, "screenshot %dx%d after resizing to %dx%d", w, h,
              2 * r0.window_w, r0.window_h + H);
    const pb_viz_input bad = {.type = PB_VIZ_INPUT_RESIZE, .x = 0, .y = 10};
    CHECK(pb_viz_inject(viz, &bad) == PB_ERR_INVALID);

    /* resume: iterations go on; pause again: they stop */
    const uint64_t held = state().iterations;
    CHECK(held == s0.iterations + 3);
    key(' ');
    WAIT_FOR(s->iterations > held + 500);
    CHECK(!state().paused);
    key(' ');
    WAIT_FOR(s->blocked && s->paused);
    const uint64_t stopped = state().iterations;
    sleep_ms(200);
    CHECK_MSG(state().iterations == stopped, "iterations went on after the second pause");

    key('q');
    return NULL;
}

/* The driver of a solve paused at its first iteration for 1.5 s, after a restart. */
static void *drive_paused(void *unused)
{
    (void)unused;
    WAIT_FOR(s->blocked && s->paused);
    /* a restart counts from zero: this solve's work, not the engine's since it was made */
    const pb_viz_state s0 = state();
    CHECK_MSG(s0.iterations == 1, "paused at iteration %llu", (unsigned long long)s0.iterations);
    CHECK_MSG(s0.n_feasible < 10, "the restarted solve shows %llu feasible checks before its first iteration",
              (unsigned long long)s0.n_feasible);
    sleep_ms(1500);
    const pb_viz_state s1 = state();
    CHECK_MSG(s1.planning_s < 0.5, "paused 1.5 s, the status shows %.2f s of planning", s1.planning_s);
    key(' ');
    return NULL;
}

static void write_map(const char *path)
{
    /* a room whose right part (the goal's) is walled off: no path, the planner runs until stopped */
    pb_image image;
    CHECK(pb_image_init(&image, W, H) == PB_OK);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 150; xx < 160; xx++)
            memset(image.rgb + ((size_t)yy * W + (size_t)xx) * 3, 0, 3);
    for (int yy = 20; yy < 40; yy++)
        for (int xx = 20; xx < 60; xx++)
            memset(image.rgb + ((size_t)yy * W + (size_t)xx) * 3, 0, 3);
    CHECK(pb_image_save_png(&image, path, NULL) == PB_OK);
    pb_image_finish(&image);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/pb_viz_test_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    char map[512];
    snprintf(map, sizeof map, "%s/walled.png", dir);
    write_map(map);
    pb_diag diag = {0};
    pb_engine *engine = NULL;
    CHECK(pb_engine_load(&engine, NULL, map, NULL, 0, &diag) == PB_OK);
    if (!engine)
        return pb_test_summary("viz_input");

    pb_viz_config params = pb_viz_config_default();
    params.screenshot_dir = dir;
    if (pb_viz_create(&viz, engine, &params, &diag) != PB_OK) {
        fprintf(stderr, "no display: %s\n", diag.message);
        return PB_TEST_SKIP;
    }

    /* ---- plan mode, driven from a second thread ---- */
    pb_planner *planner = NULL;
    CHECK(pb_planner_create(&planner, "rrt", engine, &diag) == PB_OK);
    const double start[2] = {10.5, 100.5}, goal[2] = {200.5, 80.5};
    const pb_problem problem = {start, goal, 5.0};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 60.0;
    stop.cancel = pb_viz_cancel_flag(viz);
    pb_result result;
    pb_result_init(&result, 2);
    pb_viz_begin(viz, &problem, "rrt", 1);
    pb_planner_set_observer(planner, pb_viz_observer, viz);
    key(' ');
    pthread_t driver;
    CHECK(pthread_create(&driver, NULL, drive, NULL) == 0);
    CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
    pthread_join(driver, NULL);
    CHECK(result.outcome != PB_OUTCOME_EXACT);
    CHECK_MSG(result.time_s < 30.0, "q did not stop the solve (%.1f s)", result.time_s);
    CHECK(pb_viz_show_result(viz, &result, &diag) == PB_OK);
    CHECK(pb_viz_wait(viz) == PB_VIZ_QUIT);

    /* r during a solve stops it and asks for a restart */
    pb_result_finish(&result);
    pb_result_init(&result, 2);
    pb_viz_begin(viz, &problem, "rrt", 2);
    key('r');
    CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
    CHECK(result.time_s < 30.0);
    pb_viz_show_result(viz, &result, &diag);
    CHECK(pb_viz_wait(viz) == PB_VIZ_RESTART);

    /* the restarted solve, paused 1.5 s on a 1 s budget: the pause does not count, so the
     * planner still gets its second after the resume */
    pb_result_finish(&result);
    pb_result_init(&result, 2);
    pb_viz_begin(viz, &problem, "rrt", 3);
    pb_stop_config budget = stop;
    budget.time_limit_s = 1.0;
    budget.held_ns = pb_viz_held_ns(viz);
    key(' ');
    CHECK(pthread_create(&driver, NULL, drive_paused, NULL) == 0);
    const double t0 = pb_clock_seconds();
    CHECK(pb_planner_solve(planner, &problem, &budget, &result) == PB_OK);
    const double wall_s = pb_clock_seconds() - t0;
    pthread_join(driver, NULL);
    CHECK_MSG(result.outcome == PB_OUTCOME_TIMEOUT, "outcome %s", pb_outcome_str(result.outcome));
    CHECK_MSG(wall_s > 2.4, "the solve took %.2f s of wall time, paused 1.5 s on a 1 s budget", wall_s);
    CHECK_MSG(result.time_s >= 1.0 && result.time_s < 1.4, "planning time %.2f s on a 1 s budget",
              result.time_s);
    CHECK_MSG(result.iterations > 100, "%llu iterations after the resume",
              (unsigned long long)result.iterations);
    CHECK(pb_viz_show_result(viz, &result, &diag) == PB_OK);
    CHECK_NEAR(state().planning_s, result.time_s, 1e-9);
    pb_viz_destroy(viz);
    viz = NULL;

    /* ---- query mode: clicks place start and goal, obstacles refused ---- */
    params.query_mode = true;
    CHECK_MSG(pb_viz_create(&viz, engine, &params, &diag) == PB_OK, "%s", diag.message);
    if (viz) {
        /* the refused click says why, on stderr as on the status line */
        char err[512];
        snprintf(err, sizeof err, "%s/stderr.txt", dir);
        const int saved = capture_begin(err);
        const double wall[2] = {40.5, 30.5}, a[2] = {10.5, 10.5}, b[2] = {120.5, 140.5};
        double x, y;
        pb_viz_window_point(viz, wall, &x, &y);
        pb_viz_inject(viz, &(pb_viz_input){.type = PB_VIZ_INPUT_CLICK, .x = x, .y = y});
        pb_viz_window_point(viz, a, &x, &y);
        pb_viz_inject(viz, &(pb_viz_input){.type = PB_VIZ_INPUT_CLICK, .x = x, .y = y});
        pb_viz_window_point(viz, b, &x, &y);
        pb_viz_inject(viz, &(pb_viz_input){.type = PB_VIZ_INPUT_CLICK, .x = x, .y = y});
        key('1');
        key(PB_VIZ_KEY_ENTER);
        CHECK(pb_viz_wait(viz) == PB_VIZ_RUN);
        capture_end(saved);
        CHECK_MSG(file_contains(err, "ignored: it is on an obstacle"), "the refused click was not explained");
        const pb_viz_state s = state();
        CHECK_MSG(s.n_refused == 1, "%u clicks refused", s.n_refused);
        CHECK(s.has_start && s.has_goal && s.planner_index == 0);
        double qs[2], qg[2];
        size_t index = 99;
        CHECK(pb_viz_get_query(viz, qs, qg, &index));
        CHECK(index == 0);
        CHECK_NEAR(qs[0], a[0], 1.0);
        CHECK_NEAR(qs[1], a[1], 1.0);
        CHECK_NEAR(qg[0], b[0], 1.0);
        CHECK_NEAR(qg[1], b[1], 1.0);
        key(PB_VIZ_KEY_ESCAPE);
        CHECK(pb_viz_wait(viz) == PB_VIZ_QUIT);
    }
    pb_viz_destroy(viz);
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(engine);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return pb_test_summary("viz_input");
}
