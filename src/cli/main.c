/* planbench: the command line. */
#include "cli.h"

#include <string.h>

static const char help_text[] =
    "planbench %s: sampling-based motion planning and benchmarks\n"
    "\n"
    "Usage:\n"
    "  planbench <planner> <map> [start X,Y goal X,Y] [options]   plan once and report\n"
    "  planbench list                                              engines, planners, parameters, maps\n"
    "  planbench view MAP [--engine NAME] [--seed N]              the map in a window: click start and goal, "
    "run planners\n"
    "  planbench replay RECORD.json [--line N]                     re-run a plan's record and check its "
    "path\n"
    "  planbench bench SCRIPT.ini [-j N] [--csv F] [--json F] [--ompl-log F] [--plot DIR] [--resume]\n"
    "                                                              run a benchmark (planbench bench --help)\n"
    "  planbench serve [WORLD.xml] [--host 127.0.0.1] [--port 9090]  simulation service (ROS 2 "
    "simulation_interfaces over rosbridge)\n"
    "  planbench simulate VEHICLE.xml [--inputs FILE.csv] [--json]  drive a vehicle model (planbench "
    "simulate --help)\n"
    "  planbench scenario run SCENARIO.json [--json] [--capture F]  run an auto_scene_gen scenario "
    "(docs/scenarios.md)\n"
    "  planbench scene gen --seed S [--out DIR]                    a random feasible scenario (BACRE's "
    "family)\n"
    "  planbench --help | --version\n"
    "\n"
    "Examples:\n"
    "  planbench rrt maps/room1.png\n"
    "  planbench rrt maps/maze.png start 25.5,25.5 goal 975.5,975.5 --step 40 --json\n"
    "  planbench rrt maps/office.yaml            a map_server map: metres, y up\n"
    "  planbench rrtstar maps/office.yaml --robot robots/lexus_rx450h.xml start 2,2,0 goal 8,6,1.57\n"
    "                                            a car: (x, y, yaw), Reeds-Shepp edges\n"
    "\n"
    "Problem:\n"
    "  start X,Y / --start X,Y     start configuration (default: the map's own)\n"
    "  goal X,Y  / --goal X,Y      goal configuration (default: the map's own)\n"
    "  --goal-radius R             a node within R that sees the goal reaches it (default: the step size)\n"
    "  --engine NAME               the C-space (default: chosen from the map file; see 'planbench list')\n"
    "  --engine-option NAME=VALUE  any engine option; shortcuts: --bounds, --expr, --plugin,\n"
    "                              --resolution, --arm-lengths\n"
    "  --robot VEHICLE.xml         a <vehicle> file: the car engine (footprint swept along Reeds-Shepp\n"
    "                              curves; --engine-option curve=dubins for forward only)\n"
    "Image maps (PNG, PGM, map_server YAML):\n"
    "  --resolution R              metres per pixel: coordinates, steps, costs in metres, y up\n"
    "  --origin X,Y[,YAW]          pose of the image's lower-left corner (metres, radians)\n"
    "  --free-threshold F          free when occupancy (1 - lightness) < F (a scanned map)\n"
    "  --occupied-threshold O      occupied when occupancy > O; between the two: unknown, blocked\n";
/* The rest of the help, apart: ISO C compilers need only support strings of 4095 bytes. */
static const char help_options[] =
    "Planner:\n"
    "  --seed N                    random seed (default 1); same seed, same iterations: same path\n"
    "  --step S, --epsilon S       step size (default: 2% of the bounds' diagonal; on a map with narrow\n"
    "                              corridors 2/3 of their width; the output says which)\n"
    "  --goal-bias P               probability of sampling the goal (default 0.05)\n"
    "  --param NAME=VALUE          any planner parameter (see 'planbench list')\n"
    "Budget:\n"
    "  --time-limit SECONDS        default 10\n"
    "  --max-iterations N          default: no limit\n"
    "  --max-nodes N               default: no limit\n"
    "  --stop first|budget         stop at the first solution (default for non-anytime planners)\n"
    "                              or use the whole budget (default for anytime planners)\n"
    "  --approximate               when the budget runs out, return the path to the node nearest the goal\n"
    "  --simplify                  shortcut the path afterwards (random, then greedy; every edge checked)\n";
/* the rest of the help (one string would pass the 4095 characters C17 compilers must support) */
static const char help_output[] =
    "Output:\n"
    "  --json                      one JSON object on stdout (its \"record\": planbench replay)\n"
    "  --save-path FILE            the path as CSV (x,y per line; a manipulator's with a header of\n"
    "                              joint names); FILE.json: a trajectory_msgs/JointTrajectory\n"
    "  --save-inputs FILE          a kinodynamic plan's controls (sst, rrt_control) as planbench simulate's "
    "inputs\n"
    "  --save-image FILE           a PNG of the map with the tree, start, goal and path\n"
    "  --draw-tree all|path|N      tree edges in that PNG: all, none (the path alone), or at most N\n"
    "                              sampled uniformly (default 20000: memory stays bounded and the\n"
    "                              picture readable on large roadmaps)\n"
    "  --display                   watch the planning in a window (keys: h); needs a build with SDL2\n"
    "  --screenshot FILE           with --display: save the window as a PNG at the end, then exit\n"
    "  --screenshot-at N           ... after N iterations instead: the solve stops there (outcome\n"
    "                              no_solution without a path yet) and exits 0 once the picture is written\n"
    "  --screenshot-dir DIR        the folder where the s key saves screenshots (default: the current\n"
    "                              one; each one's path is printed); implies --display\n"
    "  -q, --quiet                 no summary\n"
    "\n"
    "Exit status: 0 a path was found (or --screenshot-at's picture written), 1 the budget ran out\n"
    "without one, 2 bad input.\n";

static void print_help(FILE *out)
{
    fprintf(out, help_text, pb_version());
    fputs(help_options, out);
    fputs(help_output, out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return PB_EXIT_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("planbench %s\n", pb_version());
        return 0;
    }
    if (strcmp(cmd, "list") == 0)
        return cli_list(argc - 1, argv + 1);
    if (strcmp(cmd, "view") == 0)
        return cli_view(argc - 1, argv + 1);
    if (strcmp(cmd, "replay") == 0)
        return cli_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cli_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0)
        return cli_serve(argc - 1, argv + 1);
    if (strcmp(cmd, "simulate") == 0)
        return cli_simulate(argc - 1, argv + 1);
    if (strcmp(cmd, "scenario") == 0)
        return cli_scenario(argc - 1, argv + 1);
    if (strcmp(cmd, "scene") == 0)
        return cli_scene(argc - 1, argv + 1);
    if (cmd[0] == '-') {
        cli_error("expected a planner or a command before '%s'", cmd);
        fputs("Run 'planbench --help' for the options.\n", stderr);
        return PB_EXIT_BAD_INPUT;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(stdout);
            return 0;
        }
    return cli_plan(argc - 1, argv + 1);
}
