/* planbench serve: the simulation service (ROS 2 simulation_interfaces over rosbridge). */
#include "cli.h"

#if PB_HAVE_SIM
#include "planbench/sim.h"
#endif

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char serve_usage[] =
    "usage: planbench serve [WORLD.xml] [--host ADDR] [--port N] [--worlds DIR] [--robots DIR] [--dt "
    "SECONDS]\n"
    "  Serve a <simworld> as a rosbridge v2 WebSocket server (default 127.0.0.1:9090) with the ROS 2\n"
    "  simulation_interfaces services at root names (/spawn_entity, ...), the /simulate_steps action,\n"
    "  the /plan_path service and the /entity_events and /entity_states topics.\n"
    "  --port 0 picks a free port; the port is printed as 'listening on HOST:PORT'.\n";

#if PB_HAVE_SIM
static volatile int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void on_ready(int port, void *payload)
{
    printf("planbench serve: listening on %s:%d\n", (const char *)payload, port);
    fflush(stdout);
}

/* The first of $PLANBENCH_<what>, ./<what>, <source tree>/<what> that is a directory. */
static const char *data_dir(const char *env, const char *local, const char *source)
{
    const char *e = getenv(env);
    if (e && *e)
        return e;
    if (access(local, R_OK) == 0)
        return local;
    return source;
}
#endif

int cli_serve(int argc, char **argv)
{
    const char *world = NULL, *host = "127.0.0.1", *worlds_dir = NULL, *robots_dir = NULL;
    uint64_t port = 9090;
    double dt = 0.05;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(serve_usage, stdout);
            return 0;
        } else if (strcmp(a, "--host") == 0 && has_value) {
            host = argv[++i];
        } else if (strcmp(a, "--port") == 0 && has_value) {
            if (!cli_parse_u64("--port", argv[++i], &port) || port > 65535)
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(a, "--worlds") == 0 && has_value) {
            worlds_dir = argv[++i];
        } else if (strcmp(a, "--robots") == 0 && has_value) {
            robots_dir = argv[++i];
        } else if (strcmp(a, "--dt") == 0 && has_value) {
            if (!cli_parse_double("--dt", argv[++i], &dt))
                return PB_EXIT_BAD_INPUT;
        } else if (a[0] != '-' && !world) {
            world = a;
        } else {
            cli_error("serve: unknown or incomplete argument '%s'", a);
            fputs(serve_usage, stderr);
            return PB_EXIT_BAD_INPUT;
        }
    }
#if PB_HAVE_SIM
    pb_sim_config config = pb_sim_config_default();
    config.worlds_dir = worlds_dir ? worlds_dir : data_dir("PLANBENCH_WORLDS", "worlds", PB_SOURCE_WORLDS);
    config.robots_dir = robots_dir ? robots_dir : data_dir("PLANBENCH_ROBOTS", "robots", PB_SOURCE_ROBOTS);
    config.world = world;
    config.time_step = dt;
    pb_sim *sim = NULL;
    pb_diag diag = {0};
    if (pb_sim_create(&sim, &config, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    const pb_status st = pb_sim_serve(sim, host, (int)port, &stop_requested, on_ready, (void *)host, &diag);
    pb_sim_destroy(sim);
    if (st != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    return 0;
#else
    (void)world, (void)host, (void)worlds_dir, (void)robots_dir, (void)port, (void)dt;
    cli_error("this build has no simulation service (configure with -Dsim=enabled; needs libwebsockets-dev, "
              "libjansson-dev, libxml2-dev)");
    return PB_EXIT_BAD_INPUT;
#endif
}
