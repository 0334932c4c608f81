/* planbench serve: the simulation service (ROS 2 simulation_interfaces over rosbridge). */
#include "cli.h"

#if PB_HAVE_SIM
#include "planbench/sim.h"
#endif

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char serve_usage[] =
    "usage: planbench serve [WORLD.xml | MAP.yaml] [--host ADDR] [--port N] [--worlds DIR] [--robots DIR] "
    "[--dt "
    "SECONDS]\n"
    "                       [--allow-origin ORIGIN]... [--token SECRET] [--confine-worlds] [--max-clients "
    "N]\n"
    "                       [--plan-time-limit SECONDS] [--tf-rate HZ] [--worker-id N]\n"
    "                       [--no-ownership] [--rti-tolerance METRES,DEGREES] [--rti-heartbeat SECONDS]\n"
    "  Serve a <simworld> (or a map_server map, in metres, with metric spawnables) as a rosbridge v2\n"
    "  WebSocket server (default 127.0.0.1:9090) with the ROS 2\n"
    "  simulation_interfaces services at root names (/spawn_entity, ...), the /simulate_steps and\n"
    "  /follow_path actions, the /plan_path service and the /entity_events and /entity_states topics.\n"
    "  --host binds exactly that address (IPv4, IPv6 or a name; loopback by default); --port 0 picks a\n"
    "  free port; the address really bound is printed as 'listening on ADDR:PORT'.\n"
    "  Browsers' handshakes from other origins than loopback ones are refused unless --allow-origin\n"
    "  names them ('*': any). --token (or $PLANBENCH_TOKEN) makes clients present a shared secret\n"
    "  (ws://ADDR:PORT/?token=SECRET, or rosbridge's {\"op\": \"auth\", \"mac\": SECRET}); a host that is "
    "not\n"
    "  loopback needs one. --confine-worlds: LoadWorld reads files only inside the worlds folder,\n"
    "  the maps folder beside it and the robots folder.\n"
    "  At most --max-clients clients (64); a client that does not read is dropped when its queue\n"
    "  passes --max-queue-kb (32768) or all queues pass --max-total-queue-kb (262144).\n"
    "  A /plan_path request plans at most --plan-time-limit seconds (60; its budget=true makes anytime\n"
    "  planners use its whole time_limit).\n"
    "  /clock and /entity_states follow every step; /tf, odometry and joint states at most --tf-rate\n"
    "  times per second of wall time (100; 0: every step), always for the last step.\n"
    "  The auto_scene_gen worker: /asg_worker<N>/services/run_scenario (RunScenario; --worker-id N,\n"
    "  default 0), results on /asg_worker<N>/analyze_scenario, status on /asg_worker<N>/status.\n"
    "  The RTI entity channels: /rti/entity, /rti/entities (operations), /rti/position (published when\n"
    "  a receiver's dead reckoning would be off by more than --rti-tolerance, default 0.01,0.5, or\n"
    "  every --rti-heartbeat seconds of sim time, default 1) and /rti/vehiclestate. The client that\n"
    "  spawns an entity owns it and only its commands move it; --no-ownership lets anybody command\n"
    "  anything.\n"
    "  SIGINT or SIGTERM stops the server (at the latest a second later): plans in flight are\n"
    "  cancelled, the connections and the listening socket closed, a line says so, exit status 0.\n";

#if PB_HAVE_SIM
static volatile int stop_requested;
static volatile sig_atomic_t stop_signal; /* the signal that asked, for the closing log line */

/* The first signal asks the loop to stop; should a request still hold it a second later (or
 * a second signal come), the process ends there. */
static void on_alarm(int sig)
{
    (void)sig;
    _exit(130);
}

static void on_signal(int sig)
{
    if (stop_requested)
        _exit(130);
    stop_signal = sig;
    stop_requested = 1;
    signal(SIGALRM, on_alarm);
    alarm(1);
}

static void on_ready(const char *address, int port, void *payload)
{
    (void)payload;
    printf("planbench serve: listening on %s%s%s:%d\n", strchr(address, ':') ? "[" : "", address,
           strchr(address, ':') ? "]" : "", port);
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
    const char *token = getenv("PLANBENCH_TOKEN");
    const char *origins[32];
    size_t n_origins = 0;
    uint64_t port = 9090, max_clients = 64, client_queue_kb = 32 * 1024, total_queue_kb = 256 * 1024;
    bool confine = false;
    double dt = 0.05, plan_time_limit = 60.0, tf_rate = 100.0;
    int worker_id = 0;
    bool no_ownership = false;
    double rti_tolerance[2] = {0.01, 0.5}, rti_heartbeat = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(serve_usage, stdout);
            return 0;
        } else if (strcmp(a, "--host") == 0 && has_value) {
            host = argv[++i];
        } else if (strcmp(a, "--port") == 0 && has_value) {
            if (!cli_parse_u64("--port", argv[++i], &port))
                return PB_EXIT_BAD_INPUT;
            if (port > 65535) {
                cli_error("--port %s: a port is 0..65535 (0 picks a free one)", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--allow-origin") == 0 && has_value) {
            if (n_origins == sizeof origins / sizeof origins[0]) {
                cli_error("--allow-origin: at most %zu origins", sizeof origins / sizeof origins[0]);
                return PB_EXIT_BAD_INPUT;
            }
            origins[n_origins++] = argv[++i];
        } else if (strcmp(a, "--token") == 0 && has_value) {
            token = argv[++i];
        } else if (strcmp(a, "--confine-worlds") == 0) {
            confine = true;
        } else if (strcmp(a, "--max-queue-kb") == 0 && has_value) {
            if (!cli_parse_u64("--max-queue-kb", argv[++i], &client_queue_kb) || client_queue_kb < 1 ||
                client_queue_kb > (1u << 22)) {
                cli_error("--max-queue-kb %s: expected 1..4194304 (KiB queued for one client)", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--max-total-queue-kb") == 0 && has_value) {
            if (!cli_parse_u64("--max-total-queue-kb", argv[++i], &total_queue_kb) || total_queue_kb < 1 ||
                total_queue_kb > (1u << 24)) {
                cli_error("--max-total-queue-kb %s: expected 1..16777216 (KiB queued for all clients)",
                          argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--max-clients") == 0 && has_value) {
            if (!cli_parse_u64("--max-clients", argv[++i], &max_clients) || max_clients < 1 ||
                max_clients > 100000) {
                cli_error("--max-clients %s: expected 1..100000", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--worlds") == 0 && has_value) {
            worlds_dir = argv[++i];
        } else if (strcmp(a, "--robots") == 0 && has_value) {
            robots_dir = argv[++i];
        } else if (strcmp(a, "--dt") == 0 && has_value) {
            if (!cli_parse_double("--dt", argv[++i], &dt))
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(a, "--tf-rate") == 0 && has_value) {
            if (!cli_parse_double("--tf-rate", argv[++i], &tf_rate))
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(a, "--worker-id") == 0 && has_value) {
            uint64_t id = 0;
            if (!cli_parse_u64("--worker-id", argv[++i], &id) || id > 255) {
                cli_error("--worker-id: expected 0..255 (auto_scene_gen's uint8)");
                return PB_EXIT_BAD_INPUT;
            }
            worker_id = (int)id;
        } else if (strcmp(a, "--no-ownership") == 0) {
            no_ownership = true;
        } else if (strcmp(a, "--rti-tolerance") == 0 && has_value) {
            char *end = NULL;
            const char *v = argv[++i];
            rti_tolerance[0] = strtod(v, &end);
            if (end == v || *end != ',' || !(rti_tolerance[0] > 0) ||
                !((rti_tolerance[1] = strtod(end + 1, &end)) > 0) || *end != '\0' ||
                !isfinite(rti_tolerance[0]) || !isfinite(rti_tolerance[1])) {
                cli_error("--rti-tolerance %s: expected METRES,DEGREES, both > 0 (e.g. 0.01,0.5)", v);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--rti-heartbeat") == 0 && has_value) {
            if (!cli_parse_double("--rti-heartbeat", argv[++i], &rti_heartbeat) || !(rti_heartbeat > 0)) {
                cli_error("--rti-heartbeat: expected seconds > 0");
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--plan-time-limit") == 0 && has_value) {
            if (!cli_parse_double("--plan-time-limit", argv[++i], &plan_time_limit))
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
    config.plan_time_limit = plan_time_limit;
    config.confine_worlds = confine;
    pb_sim *sim = NULL;
    pb_diag diag = {0};
    if (pb_sim_create(&sim, &config, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    pb_sim_serve_config serve = pb_sim_serve_config_default();
    serve.worker_id = worker_id;
    serve.no_ownership = no_ownership;
    serve.rti_position_tolerance = rti_tolerance[0];
    serve.rti_angle_tolerance = rti_tolerance[1];
    serve.rti_heartbeat = rti_heartbeat;
    serve.host = host;
    serve.port = (int)port;
    serve.allow_origins = origins;
    serve.n_allow_origins = n_origins;
    serve.token = token;
    serve.max_connections = (int)max_clients;
    serve.tf_rate = tf_rate;
    serve.max_queued_bytes = (size_t)client_queue_kb << 10;
    serve.max_total_queued = (size_t)total_queue_kb << 10;
    if (serve.max_total_queued < serve.max_queued_bytes)
        serve.max_total_queued = serve.max_queued_bytes;
    serve.stop = &stop_requested;
    serve.on_ready = on_ready;
    const pb_status st = pb_sim_serve(sim, &serve, &diag);
    pb_sim_destroy(sim);
    if (st != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    if (stop_requested)
        printf("planbench serve: stopped on %s: the listening socket and every connection closed\n",
               stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
#else
    (void)world, (void)host, (void)worlds_dir, (void)robots_dir, (void)port, (void)dt, (void)plan_time_limit,
        (void)tf_rate, (void)token, (void)origins, (void)n_origins, (void)confine, (void)max_clients,
        (void)client_queue_kb, (void)total_queue_kb;
    cli_error("this build has no simulation service (configure with -Dsim=enabled; needs libwebsockets-dev, "
              "libjansson-dev, libxml2-dev)");
    return PB_EXIT_BAD_INPUT;
#endif
}
