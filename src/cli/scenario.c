/* planbench scenario run SCENARIO.json: one auto_scene_gen scenario on the vehicle model
 * (include/planbench/scenario.h, docs/scenarios.md). Exit 0 for REASON_SUCCESS, 1 for any
 * other reason, 2 for bad input. */
#include "cli.h"
#include "planbench/scenario.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char scenario_usage[] =
    "usage: planbench scenario run SCENARIO.json [--json] [--capture OUT.png]\n"
    "       planbench scenario plan SCENARIO.json PATH.csv  (plan once; a {\"path\": \"PATH.csv\"} driver "
    "drives it)\n"
    "       planbench scenario bench SCRIPT.ini [-j N] [--csv F] [--json F] [--md F] [--resume]  (--help for "
    "more)\n"
    "  Build the scene of a RunScenario request (auto_scene_gen's fields: cm, degrees, Unreal's frame),\n"
    "  drive the vehicle with the scenario's driver at a fixed step, every step swept against the scene,\n"
    "  until a termination reason fires, and print the result: a summary, or with --json the\n"
    "  AnalyzeScenario request (metres, the client's frame) with planbench's metrics. --capture draws\n"
    "  the aerial view with the trajectory. Exit 0 for REASON_SUCCESS, 1 for another reason, 2 for bad\n"
    "  input. docs/scenarios.md has the format.\n";

static int scenario_run(int argc, char **argv)
{
    const char *path = NULL, *capture = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--capture") == 0) {
            if (i + 1 >= argc) {
                cli_error("--capture needs a file name (OUT.png)");
                return PB_EXIT_BAD_INPUT;
            }
            capture = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(scenario_usage, stdout);
            return 0;
        } else if (argv[i][0] == '-' || path) {
            cli_error("scenario run: unexpected argument '%s' (see planbench scenario --help)", argv[i]);
            return PB_EXIT_BAD_INPUT;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        cli_error("scenario run: give a scenario file (SCENARIO.json)");
        return PB_EXIT_BAD_INPUT;
    }
    pb_diag diag = {0};
    pb_scenario *scenario = NULL;
    if (capture && !cli_output_writable(capture, "--capture"))
        return PB_EXIT_BAD_INPUT;
    if (pb_scenario_load(&scenario, path, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    /* the request's own captures: to --capture, or beside the working directory's
     * <scenario>_ortho_aerial.png */
    bool capture_only = false;
    char default_capture[4096];
    if (pb_scenario_wants_capture(scenario, &capture_only) && !capture) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        snprintf(default_capture, sizeof default_capture, "%.*s_ortho_aerial.png", (int)strcspn(base, "."),
                 base);
        capture = default_capture;
    }
    pb_scenario_result result;
    memset(&result, 0, sizeof result);
    if (!capture_only && pb_scenario_run(scenario, &result, &diag) != PB_OK) {
        cli_diag(&diag);
        pb_scenario_destroy(scenario);
        return PB_EXIT_BAD_INPUT;
    }
    int status = capture_only || result.reason == PB_REASON_SUCCESS ? 0 : 1;
    if (capture && pb_scenario_capture(scenario, capture_only ? NULL : &result, capture, 0, &diag) != PB_OK) {
        cli_diag(&diag);
        status = PB_EXIT_BAD_INPUT;
    } else if (capture) {
        result.capture_path = capture;
    }
    if (capture_only && !json) {
        printf("scene captured to %s (scene_capture_only: not run)\n", capture);
        pb_scenario_destroy(scenario);
        return status;
    }
    if (json) {
        pb_scenario_result_write_json(stdout, scenario, &result);
    } else {
        printf("%s after %.2f s of sim time (%zu steps), %.2f m driven, %.2f m from the goal\n",
               pb_termination_name(result.reason), result.vehicle_sim_time, result.steps, result.path_length,
               result.distance_to_goal);
        printf("min clearance %.3f m, %u collision step(s), %u gear change(s), %u control message(s), %.3f s "
               "wall\n",
               result.min_clearance, result.collisions, result.gear_changes,
               result.num_vehicle_control_messages, result.wall_time);
    }
    pb_scenario_result_finish(&result);
    pb_scenario_destroy(scenario);
    return status;
}

int cli_scenario(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(scenario_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? PB_EXIT_BAD_INPUT : 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return scenario_run(argc - 2, argv + 2);
    if (strcmp(argv[1], "bench") == 0)
        return cli_scenario_bench(argc - 2, argv + 2);
    if (strcmp(argv[1], "plan") == 0) {
        if (argc != 4) {
            cli_error("usage: planbench scenario plan SCENARIO.json PATH.csv");
            return PB_EXIT_BAD_INPUT;
        }
        pb_diag diag = {0};
        pb_scenario *scenario = NULL;
        if (!cli_output_writable(argv[3], "the path"))
            return PB_EXIT_BAD_INPUT;
        pb_status st = pb_scenario_load(&scenario, argv[2], &diag);
        if (st == PB_OK)
            st = pb_scenario_save_plan(scenario, argv[3], &diag);
        pb_scenario_destroy(scenario);
        if (st != PB_OK) {
            cli_diag(&diag);
            return st == PB_ERR_NOT_FOUND ? PB_EXIT_NOT_FOUND : PB_EXIT_BAD_INPUT;
        }
        return 0;
    }
    cli_error("scenario: unknown command '%s' (run, plan, bench)", argv[1]);
    return PB_EXIT_BAD_INPUT;
}

static const char scene_usage[] =
    "usage: planbench scene gen --seed S [--family bacre] [--out DIR]\n"
    "  Draw a random scenario of a family (bacre: BACRE's 60 m square with 6 trees and 6 bushes, "
    "docs/scenarios.md)\n"
    "  that the reference planner can drive within its timeout, and print it as a runnable scenario file\n"
    "  (a RunScenario request with its catalogue and a planner driver). With --out DIR, write "
    "DIR/scenario.json,\n"
    "  the scene as a map_server map (DIR/scene.yaml, DIR/scene.pgm) and its aerial view (DIR/scene.png)\n"
    "  instead. The same seed gives the same bytes.\n";

int cli_scene(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(scene_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? PB_EXIT_BAD_INPUT : 0;
    }
    if (strcmp(argv[1], "gen") != 0) {
        cli_error("scene: unknown command '%s' (gen)", argv[1]);
        return PB_EXIT_BAD_INPUT;
    }
    const char *family = "bacre", *out = NULL;
    uint64_t seed = 0;
    bool has_seed = false;
    for (int i = 2; i < argc; i++) {
        const bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--seed") == 0 && has_value) {
            if (!cli_parse_u64("--seed", argv[++i], &seed))
                return PB_EXIT_BAD_INPUT;
            has_seed = true;
        } else if (strcmp(argv[i], "--family") == 0 && has_value) {
            family = argv[++i];
        } else if (strcmp(argv[i], "--out") == 0 && has_value) {
            out = argv[++i];
        } else {
            cli_error("scene gen: unexpected argument '%s' (see planbench scene --help)", argv[i]);
            return PB_EXIT_BAD_INPUT;
        }
    }
    if (!has_seed) {
        cli_error("scene gen: give --seed S (the same seed gives the same scene)");
        return PB_EXIT_BAD_INPUT;
    }
    if (out && mkdir(out, 0777) != 0 && errno != EEXIST) {
        cli_error("--out %s: cannot make the folder: %s", out, strerror(errno));
        return PB_EXIT_BAD_INPUT;
    }
    char *json = NULL;
    pb_diag diag = {0};
    if (pb_scenario_generate(&json, family, seed, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    if (!out) {
        fputs(json, stdout);
        fputc('\n', stdout);
        free(json);
        return 0;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/scenario.json", out);
    pb_atomic_file file;
    pb_status st = pb_atomic_file_open(&file, path, &diag);
    if (st == PB_OK) {
        fputs(json, file.fp);
        fputc('\n', file.fp);
        st = pb_atomic_file_commit(&file, &diag);
    }
    pb_scenario *scenario = NULL;
    if (st == PB_OK)
        st = pb_scenario_parse(&scenario, json, strlen(json), path, out, &diag);
    free(json);
    if (st == PB_OK) {
        snprintf(path, sizeof path, "%s/scene", out);
        st = pb_scenario_save_map(scenario, path, &diag);
    }
    if (st == PB_OK) {
        snprintf(path, sizeof path, "%s/scene.png", out);
        st = pb_scenario_capture(scenario, NULL, path, 0, &diag);
    }
    pb_scenario_destroy(scenario);
    if (st != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    return 0;
}
