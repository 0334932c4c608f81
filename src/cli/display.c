/* --display for `planbench <planner> <map>`: the SDL2 visualiser as the planner's observer
 * (chained with the --save-image recorder), restarts with the next seed, and the message of a
 * build without SDL2. Uses the public API only. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#if PB_HAVE_VIZ
#include "planbench/viz.h"

struct cli_display {
    pb_viz *viz;
    pb_engine *engine;
    pb_planner *planner;
    const pb_problem *problem;
    const char *planner_name;
    uint64_t seed;
    bool scripted; /* --screenshot: exit after the picture */
    uint64_t screenshot_at;
    bool stopped_for_screenshot; /* --screenshot-at ended the solve */
    pb_observer_fn chained;
    void *chained_payload;
};

bool cli_display_available(void)
{
    return true;
}

/* Both listeners see every event: the visualiser first, then the recorder. */
static void fan_out(const pb_event *event, void *payload)
{
    cli_display *d = payload;
    pb_viz_observer(event, d->viz);
    if (d->chained)
        d->chained(event, d->chained_payload);
}

int cli_display_open(cli_display **out, pb_engine *engine, pb_planner *planner, const pb_problem *problem,
                     const cli_display_options *options)
{
    *out = NULL;
    cli_display *d = calloc(1, sizeof *d);
    if (!d) {
        cli_error("--display: out of memory");
        return PB_EXIT_BAD_INPUT;
    }
    pb_viz_config params = pb_viz_config_default();
    char title[256];
    snprintf(title, sizeof title, "planbench %s %s", options->planner_name, options->map ? options->map : "");
    params.title = title;
    params.screenshot_path = options->screenshot;
    params.screenshot_at = options->screenshot_at;
    params.screenshot_dir = options->screenshot_dir;
    pb_diag diag = {0};
    if (pb_viz_create(&d->viz, engine, &params, &diag) != PB_OK) {
        cli_error("--display: %s", diag.message);
        free(d);
        return PB_EXIT_BAD_INPUT;
    }
    d->engine = engine;
    d->planner = planner;
    d->problem = problem;
    d->planner_name = options->planner_name;
    d->seed = options->seed;
    d->scripted = options->screenshot != NULL;
    d->screenshot_at = options->screenshot_at;
    d->chained = options->chained;
    d->chained_payload = options->chained_payload;
    pb_planner_set_observer(planner, fan_out, d);
    *out = d;
    return -1;
}

int cli_display_solve(cli_display *d, const pb_stop_config *stop, pb_result *result)
{
    pb_stop_config s = *stop;
    s.cancel = pb_viz_cancel_flag(d->viz);
    s.held_ns = pb_viz_held_ns(d->viz);
    pb_planner_set_seed(d->planner, d->seed);
    pb_viz_begin(d->viz, d->problem, d->planner_name, d->seed);
    if (pb_planner_solve(d->planner, d->problem, &s, result) != PB_OK) {
        cli_error("planning failed: out of memory");
        return PB_EXIT_BAD_INPUT;
    }
    /* --screenshot-at N cancelled the solve at iteration N: an iteration budget, not a time
     * out (a path found by then is still exact) */
    d->stopped_for_screenshot = d->scripted && d->screenshot_at > 0 &&
                                result->iterations >= d->screenshot_at &&
                                result->outcome == PB_OUTCOME_TIMEOUT;
    if (d->stopped_for_screenshot)
        result->outcome = PB_OUTCOME_NO_SOLUTION;
    pb_diag diag = {0};
    if (pb_viz_show_result(d->viz, result, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    return -1;
}

int cli_display_finish(cli_display *d, const pb_stop_config *stop, pb_result *result, bool quiet)
{
    if (d->scripted)
        return -1;
    d->chained = NULL; /* --save-image shows the first solve only */
    while (pb_viz_wait(d->viz) == PB_VIZ_RESTART) {
        d->seed++;
        pb_result_finish(result);
        pb_result_init(result, pb_engine_dim(d->engine));
        const int rc = cli_display_solve(d, stop, result);
        if (rc >= 0)
            return rc;
        if (!quiet)
            printf("%s seed %llu: %s, cost %.6g, %llu iterations, %llu nodes\n", d->planner_name,
                   (unsigned long long)d->seed, pb_outcome_str(result->outcome), result->cost,
                   (unsigned long long)result->iterations, (unsigned long long)result->nodes);
        fflush(stdout);
    }
    return -1;
}

bool cli_display_stopped_for_screenshot(const cli_display *d)
{
    return d && d->stopped_for_screenshot;
}

void cli_display_close(cli_display *d)
{
    if (!d)
        return;
    pb_planner_set_observer(d->planner, NULL, NULL);
    pb_viz_destroy(d->viz);
    free(d);
}

#else /* no SDL2 in this build */

struct cli_display {
    int unused;
};

bool cli_display_available(void)
{
    return false;
}

int cli_display_open(cli_display **out, pb_engine *engine, pb_planner *planner, const pb_problem *problem,
                     const cli_display_options *options)
{
    (void)engine;
    (void)planner;
    (void)problem;
    (void)options;
    *out = NULL;
    cli_error("%s", cli_display_missing);
    return PB_EXIT_BAD_INPUT;
}

int cli_display_solve(cli_display *d, const pb_stop_config *stop, pb_result *result)
{
    (void)d;
    (void)stop;
    (void)result;
    return PB_EXIT_BAD_INPUT;
}

int cli_display_finish(cli_display *d, const pb_stop_config *stop, pb_result *result, bool quiet)
{
    (void)d;
    (void)stop;
    (void)result;
    (void)quiet;
    return -1;
}

bool cli_display_stopped_for_screenshot(const cli_display *d)
{
    (void)d;
    return false;
}

void cli_display_close(cli_display *d)
{
    (void)d;
}

#endif

const char cli_display_missing[] =
    "this build has no display (rebuild with SDL2: apt-get install libsdl2-dev)";
