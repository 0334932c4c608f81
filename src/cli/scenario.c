/* planbench scenario run SCENARIO.json: one auto_scene_gen scenario on the vehicle model
 * (include/planbench/scenario.h, docs/scenarios.md). Exit 0 for REASON_SUCCESS, 1 for any
 * other reason, 2 for bad input. */
#include "cli.h"
#include "planbench/scenario.h"

#include <stdio.h>
#include <string.h>

static const char scenario_usage[] =
    "usage: planbench scenario run SCENARIO.json [--json] [--capture OUT.png]\n"
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
    pb_scenario_result result;
    if (pb_scenario_run(scenario, &result, &diag) != PB_OK) {
        cli_diag(&diag);
        pb_scenario_destroy(scenario);
        return PB_EXIT_BAD_INPUT;
    }
    int status = result.reason == PB_REASON_SUCCESS ? 0 : 1;
    if (capture && pb_scenario_capture(scenario, &result, capture, 0, &diag) != PB_OK) {
        cli_diag(&diag);
        status = PB_EXIT_BAD_INPUT;
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
    cli_error("scenario: unknown command '%s' (run)", argv[1]);
    return PB_EXIT_BAD_INPUT;
}
