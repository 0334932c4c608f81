/* `planbench view MAP`: the map alone in the visualiser; click a start and a goal, choose a
 * planner with 1-9, press Enter to run it (as often as wanted), q or Esc to quit. */
#include "cli.h"

#include <string.h>

#if PB_HAVE_VIZ
#include "planbench/viz.h"
#endif

typedef struct view_args {
    const char *map;
    const char *engine;
    uint64_t seed;
    double time_limit;
    uint64_t max_iterations;
    const char *screenshot_dir;
} view_args;

static const char view_usage[] =
    "usage: planbench view MAP [--engine NAME] [--seed N] [--time-limit S] [--max-iterations N]\n"
    "                          [--screenshot-dir DIR]\n"
    "  The map in a window: click the start, then the goal (a click on an obstacle says why it is\n"
    "  refused); the planner then runs and draws its tree and path. Needs the SDL2 visualiser.\n"
    "  --screenshot-dir DIR: the folder where the s key saves screenshots (default: the current one).\n";

static int parse_view_args(int argc, char **argv, view_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->time_limit = 10.0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(view_usage, stdout);
            return 0;
        } else if (strcmp(arg, "--engine") == 0 && has_value) {
            a->engine = argv[++i];
        } else if (strcmp(arg, "--seed") == 0 && has_value) {
            if (!cli_parse_u64("--seed", argv[++i], &a->seed))
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(arg, "--time-limit") == 0 && has_value) {
            if (!cli_parse_double("--time-limit", argv[++i], &a->time_limit))
                return PB_EXIT_BAD_INPUT;
            if (!(a->time_limit > 0.0)) {
                cli_error("--time-limit: expected seconds > 0, got '%s'", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(arg, "--screenshot-dir") == 0 && has_value) {
            a->screenshot_dir = argv[++i];
            if (!cli_folder_writable(a->screenshot_dir, "--screenshot-dir"))
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(arg, "--max-iterations") == 0 && has_value) {
            if (!cli_parse_u64("--max-iterations", argv[++i], &a->max_iterations))
                return PB_EXIT_BAD_INPUT;
        } else if (arg[0] == '-') {
            cli_error("view: unknown option or missing value '%s' (options: --engine NAME, --seed N, "
                      "--time-limit S, --max-iterations N, --screenshot-dir DIR)",
                      arg);
            return PB_EXIT_BAD_INPUT;
        } else if (!a->map) {
            a->map = arg;
        } else {
            cli_error("view: unexpected argument '%s' (the map is already '%s')", arg, a->map);
            return PB_EXIT_BAD_INPUT;
        }
    }
    if (!a->map) {
        cli_error("view: no map given, as in 'planbench view maps/room1.png'");
        return PB_EXIT_BAD_INPUT;
    }
    return -1;
}

#if PB_HAVE_VIZ
/* One run of the chosen planner on the clicked query, shown live. */
static void run_query(pb_viz *viz, pb_engine *engine, const view_args *a, uint64_t seed)
{
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    size_t index;
    if (!pb_viz_get_query(viz, start, goal, &index))
        return;
    const pb_planner_impl *impl = pb_planner_registry_get(index);
    pb_planner *planner = NULL;
    pb_diag diag = {0};
    if (!impl || pb_planner_create(&planner, pb_planner_impl_name(impl), engine, &diag) != PB_OK) {
        cli_diag(&diag);
        return;
    }
    pb_planner_set_seed(planner, seed);
    double step = 0.0;
    if (pb_planner_get_param(planner, "step_size", &step) != PB_OK || !(step > 0.0))
        step = pb_engine_default_step(engine);
    const pb_problem problem = {.start = start, .goal = goal, .goal_radius = step};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = a->time_limit;
    stop.max_iterations = a->max_iterations;
    stop.first_solution = !pb_planner_impl_anytime(impl);
    stop.cancel = pb_viz_cancel_flag(viz);
    stop.held_ns = pb_viz_held_ns(viz);
    pb_result result;
    pb_result_init(&result, pb_engine_dim(engine));
    pb_viz_begin(viz, &problem, pb_planner_impl_name(impl), seed);
    pb_planner_set_observer(planner, pb_viz_observer, viz);
    if (pb_planner_solve(planner, &problem, &stop, &result) == PB_OK) {
        pb_viz_show_result(viz, &result, &diag);
        printf("%s seed %llu: %s, cost %.6g, %llu iterations, %llu nodes\n", pb_planner_impl_name(impl),
               (unsigned long long)seed, pb_outcome_str(result.outcome), result.cost,
               (unsigned long long)result.iterations, (unsigned long long)result.nodes);
        fflush(stdout);
    } else {
        cli_error("planning failed: out of memory");
    }
    pb_result_finish(&result);
    pb_planner_destroy(planner);
}
#endif

int cli_view(int argc, char **argv)
{
    view_args a;
    const int rc = parse_view_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
#if PB_HAVE_VIZ
    char map_buf[4096];
    const char *map = cli_resolve_map(a.map, map_buf, sizeof map_buf);
    pb_diag diag = {0};
    pb_engine *engine = NULL;
    if (pb_engine_load(&engine, a.engine, map, NULL, 0, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    double workspace_lo[3], workspace_hi[3];
    if (pb_engine_workspace(engine, workspace_lo, workspace_hi) == PB_OK) {
        /* a click gives a point of a picture; a robot in 3-D needs a joint vector */
        cli_error("view: %s is a robot in 3-D, whose start and goal a click cannot place: plan it with "
                  "'planbench birrt %s --display' (start and goal from the world, or given as joint vectors)",
                  map, map);
        pb_engine_destroy(engine);
        return PB_EXIT_BAD_INPUT;
    }
    pb_viz_config params = pb_viz_config_default();
    char title[4200];
    snprintf(title, sizeof title, "planbench view %s", map);
    params.title = title;
    params.query_mode = true;
    params.screenshot_dir = a.screenshot_dir;
    pb_viz *viz = NULL;
    if (pb_viz_create(&viz, engine, &params, &diag) != PB_OK) {
        cli_error("view: %s", diag.message);
        pb_engine_destroy(engine);
        return PB_EXIT_BAD_INPUT;
    }
    uint64_t seed = a.seed;
    while (pb_viz_wait(viz) == PB_VIZ_RUN)
        run_query(viz, engine, &a, seed++);
    pb_viz_destroy(viz);
    pb_engine_destroy(engine);
    return 0;
#else
    cli_error("%s", cli_display_missing);
    return PB_EXIT_BAD_INPUT;
#endif
}
