/* Simulation service benchmark (issue 8): service calls per second and p50/p99 latency of
 * get_entity_state and set_entity_state with 100 entities, over real WebSocket connections on
 * loopback (1 and 16 clients, each sending its next request when the previous answer is in),
 * and the time of one spawn validation (a footprint check against the map and every entity;
 * in a manipulator scene, with the manipulator engine, an FCL check against the static
 * obstacles, the arm and the other objects, and the engine's obstacle update).
 * The server runs in this process, in its own thread, exactly as `planbench serve` runs it.
 *
 * usage: bench_sim SOURCE_ROOT [SECONDS_PER_FIGURE] */
#include "planbench/sim.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_CLIENTS 16
#define MAX_SAMPLES 2000000

static atomic_int server_port;
/* entities whose pose can move by +0.25 px in x and back: set_entity_state targets */
static int n_movable;
static int movable[128];
static double movable_x[128], movable_y[128];
static volatile int stop_server;

typedef struct server_args {
    pb_sim *sim;
} server_args;

static void on_ready(const char *address, int port, void *payload)
{
    (void)address;
    (void)payload;
    atomic_store(&server_port, port);
}

static void *server_main(void *p)
{
    server_args *a = p;
    pb_sim_serve_config config = pb_sim_serve_config_default();
    config.port = 0;
    config.stop = &stop_server;
    config.on_ready = on_ready;
    pb_sim_serve(a->sim, &config, NULL);
    return NULL;
}

typedef struct client {
    int fd;
    char buf[1 << 16];
    size_t len;
} client;

static bool send_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        const ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool client_open(client *c, int port)
{
    c->len = 0;
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&addr, sizeof addr) != 0)
        return false;
    const int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    static const char hs[] =
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    if (!send_all(c->fd, hs, sizeof hs - 1))
        return false;
    for (;;) {
        const ssize_t k = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len - 1, 0);
        if (k <= 0)
            return false;
        c->len += (size_t)k;
        c->buf[c->len] = '\0';
        char *end = strstr(c->buf, "\r\n\r\n");
        if (end) {
            const size_t used = (size_t)(end + 4 - c->buf);
            memmove(c->buf, c->buf + used, c->len - used);
            c->len -= used;
            return strncmp(c->buf, "HTTP", 0) == 0;
        }
    }
}

/* One masked text frame (mask 0: the bytes go out as they are), header and payload in one
 * send() as WebSocket clients write a frame (two sends put two segments on the wire, and the
 * server may wake for the header alone: about 7 % fewer calls per second in this benchmark). */
static bool client_send(client *c, const char *text)
{
    const size_t n = strlen(text);
    if (n > 65535)
        return false;
    unsigned char frame[14 + 65536];
    size_t h = 0;
    frame[h++] = 0x81;
    if (n < 126) {
        frame[h++] = (unsigned char)(0x80 | n);
    } else {
        frame[h++] = 0x80 | 126;
        frame[h++] = (unsigned char)(n >> 8);
        frame[h++] = (unsigned char)n;
    }
    memset(frame + h, 0, 4);
    h += 4;
    memcpy(frame + h, text, n);
    return send_all(c->fd, frame, h + n);
}

/* Wait for one whole frame; true when its text contains `expect`. */
static bool client_recv(client *c, const char *expect)
{
    for (;;) {
        if (c->len >= 2) {
            size_t n = c->buf[1] & 0x7f, off = 2;
            if (n == 126) {
                n = ((size_t)(unsigned char)c->buf[2] << 8) | (unsigned char)c->buf[3];
                off = 4;
            }
            if (c->len >= off + n) {
                const char saved = c->buf[off + n < sizeof c->buf ? off + n : sizeof c->buf - 1];
                c->buf[off + n] = '\0';
                const bool ok = strstr(c->buf + off, expect) != NULL;
                c->buf[off + n] = saved;
                memmove(c->buf, c->buf + off + n, c->len - off - n);
                c->len -= off + n;
                return ok;
            }
        }
        const ssize_t k = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len - 1, 0);
        if (k <= 0)
            return false;
        c->len += (size_t)k;
    }
}

typedef struct run {
    int port;
    int index;
    bool set_state;
    double seconds;
    double *latencies;
    size_t n, capacity;
    size_t failures;
} run;

static void *client_main(void *p)
{
    run *r = p;
    client *c = malloc(sizeof *c);
    if (!c || !client_open(c, r->port)) {
        r->failures++;
        free(c);
        return NULL;
    }
    char msg[512];
    const double t_end = pb_clock_seconds() + r->seconds;
    for (size_t i = 0; pb_clock_seconds() < t_end && r->n < r->capacity; i++) {
        const int entity = (int)((size_t)r->index * 7 + i) % 100;
        const int m = (int)(((size_t)r->index * 7 + i) % (size_t)n_movable);
        if (r->set_state)
            snprintf(msg, sizeof msg,
                     "{\"op\":\"call_service\",\"id\":\"s%zu\",\"service\":\"/"
                     "set_entity_state\",\"args\":{\"entity\":"
                     "\"e%d\",\"state\":{\"pose\":{\"position\":{\"x\":%.2f,\"y\":%.2f,\"z\":0}}},\"set_"
                     "pose\":true}}",
                     i, movable[m], movable_x[m] + 0.25 * (double)((i / (size_t)n_movable) & 1),
                     movable_y[m]);
        else
            snprintf(msg, sizeof msg,
                     "{\"op\":\"call_service\",\"id\":\"g%zu\",\"service\":\"/"
                     "get_entity_state\",\"args\":{\"entity\":"
                     "\"e%d\"}}",
                     i, entity);
        const double t0 = pb_clock_seconds();
        if (!client_send(c, msg) || !client_recv(c, "\"result\":1,")) {
            r->failures++;
            if (r->failures > 10)
                break;
            continue;
        }
        r->latencies[r->n++] = pb_clock_seconds() - t0;
    }
    close(c->fd);
    free(c);
    return NULL;
}

/* ---- the stepping rate with and without subscribers to /clock and /tf (issue 17) ---- */

static atomic_int stop_drain;

/* Read and drop everything the server sends a subscriber, as a ROS client keeping up would. */
static void *drain_main(void *p)
{
    client *c = p;
    struct timeval tv = {0, 100000};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    while (!atomic_load(&stop_drain))
        if (recv(c->fd, c->buf, sizeof c->buf, 0) == 0)
            break;
    return NULL;
}

/* Steps per second of StepSimulation calls of `batch` steps each, for `seconds`, with (when
 * `topics` is not NULL) another connection subscribed to those topics and reading. */
static double steps_per_second(int port, const char *const *topics, int batch, double seconds)
{
    client *stepper = malloc(sizeof *stepper), *sub = malloc(sizeof *sub);
    pthread_t drain;
    bool draining = false;
    double rate = 0.0;
    if (!stepper || !sub || !client_open(stepper, port))
        goto done;
    if (topics) {
        if (!client_open(sub, port))
            goto done;
        char msg[200];
        for (const char *const *t = topics; *t; t++) {
            snprintf(msg, sizeof msg, "{\"op\":\"subscribe\",\"topic\":\"%s\"}", *t);
            client_send(sub, msg);
        }
        atomic_store(&stop_drain, 0);
        draining = pthread_create(&drain, NULL, drain_main, sub) == 0;
    }
    client_send(stepper, "{\"op\":\"call_service\",\"service\":\"/set_simulation_state\",\"args\":{\"state\":{"
                         "\"state\":2}}}");
    client_recv(stepper, "result");
    char step[200];
    snprintf(step, sizeof step,
             "{\"op\":\"call_service\",\"service\":\"/step_simulation\",\"args\":{\"steps\":%d}}", batch);
    long long steps = 0;
    const double t0 = pb_clock_seconds();
    while (pb_clock_seconds() - t0 < seconds) {
        if (!client_send(stepper, step) || !client_recv(stepper, "\"result\":1,"))
            break;
        steps += batch;
    }
    rate = (double)steps / (pb_clock_seconds() - t0);
    close(stepper->fd);
done:
    if (draining) {
        atomic_store(&stop_drain, 1);
        pthread_join(drain, NULL);
    }
    if (topics && sub)
        close(sub->fd);
    free(stepper);
    free(sub);
    return rate;
}

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(int port, int n_clients, bool set_state, double seconds)
{
    run runs[MAX_CLIENTS];
    pthread_t threads[MAX_CLIENTS];
    for (int i = 0; i < n_clients; i++) {
        runs[i] = (run){.port = port,
                        .index = i,
                        .set_state = set_state,
                        .seconds = seconds,
                        .capacity = MAX_SAMPLES / (size_t)n_clients};
        runs[i].latencies = malloc(runs[i].capacity * sizeof(double));
    }
    const double t0 = pb_clock_seconds();
    for (int i = 0; i < n_clients; i++)
        pthread_create(&threads[i], NULL, client_main, &runs[i]);
    for (int i = 0; i < n_clients; i++)
        pthread_join(threads[i], NULL);
    const double elapsed = pb_clock_seconds() - t0;
    size_t total = 0, failures = 0;
    for (int i = 0; i < n_clients; i++) {
        total += runs[i].n;
        failures += runs[i].failures;
    }
    double *all = malloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (int i = 0; i < n_clients; i++) {
        memcpy(all + k, runs[i].latencies, runs[i].n * sizeof *all);
        k += runs[i].n;
        free(runs[i].latencies);
    }
    qsort(all, total, sizeof *all, compare);
    const double p50 = total ? all[total / 2] : NAN,
                 p99 = total ? all[(size_t)(0.99 * (double)(total - 1))] : NAN;
    printf("| %s | %d | %zu | %.0f | %.1f | %.1f | %zu |\n",
           set_state ? "set_entity_state" : "get_entity_state", n_clients, total, (double)total / elapsed,
           p50 * 1e6, p99 * 1e6, failures);
    fflush(stdout);
    free(all);
}

/* A simulation of worlds/FILE; NULL (with the reason in diag) when it does not load. */
static pb_sim *open_world(const char *worlds, const char *robots, const char *file, pb_diag *diag)
{
    char world[1100];
    snprintf(world, sizeof world, "%s/%s", worlds, file);
    pb_sim_config config = pb_sim_config_default();
    config.worlds_dir = worlds;
    config.robots_dir = robots;
    config.world = world;
    pb_sim *sim = NULL;
    return pb_sim_create(&sim, &config, diag) == PB_OK ? sim : NULL;
}

/* Spawn `uri` as "probe" at (x, y, z) and delete it again, n times: one table row, the time
 * of one spawn + delete. */
static void time_spawns(pb_sim *sim, const char *uri, double x, double y, double z, int n)
{
    const double t0 = pb_clock_seconds();
    int ok = 0;
    for (int i = 0; i < n; i++) {
        pb_sim_spawn_request rq = {.name = "probe", .uri = uri, .initial_pose = {{x, y, z}, 0, 0, 0, 1}};
        pb_sim_spawn_response rs;
        pb_sim_result r;
        pb_sim_spawn_entity(sim, &rq, &rs);
        ok += rs.result.result == PB_SIM_RESULT_OK;
        pb_sim_delete_entity(sim, "probe", &r);
    }
    printf("| %s | %.2f (%d of %d valid) |\n", uri + 8, (pb_clock_seconds() - t0) / n * 1e6, ok, n);
    pb_sim_drain_events(sim, NULL, NULL);
}

/* Spawn validation in a manipulator scene (worlds/sim_arm_table.xml, needs the manipulator
 * engine): a 10 cm box checked (FCL) against the static obstacles, the arm's links and eight
 * other boxes, then added to the engine's obstacles, and deleted again. */
static void scene_spawns(const char *worlds, const char *robots, int n_spawn)
{
    pb_diag diag = {0};
    printf("\n## spawn validation in a manipulator scene (sim_arm_table: spawn + delete, %d each)\n\n",
           n_spawn);
    pb_sim *sim = open_world(worlds, robots, "sim_arm_table.xml", &diag);
    if (!sim) {
        printf("skipped: %s\n", diag.message);
        return;
    }
    /* eight boxes on the floor behind the arm */
    char name[32];
    int placed = 0;
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "b%d", i);
        pb_sim_spawn_request rq = {
            .name = name,
            .uri = "model://crate3d",
            .initial_pose = {{-0.7 - 0.15 * (i % 4), -0.3 + 0.2 * (i / 4), 0.06}, 0, 0, 0, 1}};
        pb_sim_spawn_response rs;
        pb_sim_spawn_entity(sim, &rq, &rs);
        placed += rs.result.result == PB_SIM_RESULT_OK;
    }
    const char *kinds[] = {"model://crate3d", "model://ball", "model://can"};
    const double half_height[] = {0.05, 0.04, 0.06}; /* robots/crate3d.xml, ball.xml, can.xml */
    printf("entities: %zu (the arm, the world's can, %d boxes)\n\n| object | us per spawn + delete "
           "|\n|---|---|\n",
           pb_sim_entity_count(sim), placed);
    /* 1 cm above the table top (z = 0.30), left of the divider (named pose table_left) */
    for (int k = 0; k < 3; k++)
        time_spawns(sim, kinds[k], 0.6, 0.45, 0.31 + half_height[k], n_spawn);
    /* and one that is refused: on the table top */
    const double t0 = pb_clock_seconds();
    int refused = 0;
    for (int i = 0; i < n_spawn; i++) {
        pb_sim_spawn_request rq = {
            .name = "probe", .uri = "model://crate3d", .initial_pose = {{0.6, 0.45, 0.3}, 0, 0, 0, 1}};
        pb_sim_spawn_response rs;
        pb_sim_spawn_entity(sim, &rq, &rs);
        refused += rs.result.result == PB_SIM_SPAWN_INVALID_POSE;
    }
    printf("| crate3d into the table (refused) | %.2f (%d of %d refused) |\n",
           (pb_clock_seconds() - t0) / n_spawn * 1e6, refused, n_spawn);
    pb_sim_destroy(sim);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    const double seconds = argc > 2 ? atof(argv[2]) : 3.0;
    char worlds[1024], robots[1024];
    snprintf(worlds, sizeof worlds, "%s/worlds", root);
    snprintf(robots, sizeof robots, "%s/robots", root);
    pb_diag diag = {0};
    pb_sim *sim = open_world(worlds, robots, "sim_room1.xml", &diag);
    if (!sim) {
        fprintf(stderr, "bench_sim: %s\n", diag.message);
        return 1;
    }
    /* 100 discs in the corridor and the rooms' free space, on a 20 px grid */
    char name[32];
    int spawned = 0;
    for (int y = 20; y < 400 && spawned < 100; y += 20)
        for (int x = 20; x < 500 && spawned < 100; x += 40) {
            snprintf(name, sizeof name, "e%d", spawned);
            pb_sim_spawn_request rq = {
                .name = name, .uri = "model://disc_robot", .initial_pose = {{x, y, 0}, 0, 0, 0, 1}};
            pb_sim_spawn_response rs;
            pb_sim_spawn_entity(sim, &rq, &rs);
            spawned += rs.result.result == PB_SIM_RESULT_OK;
        }
    for (int i = 0; i < 100 && n_movable < 128; i++) {
        snprintf(name, sizeof name, "e%d", i);
        pb_sim_result r;
        pb_sim_entity_state st;
        pb_sim_get_entity_state(sim, name, &r, &st);
        if (r.result != PB_SIM_RESULT_OK)
            continue;
        pb_sim_set_state_request sq = {.entity = name, .state = st, .has_flags = true, .set_pose = true};
        sq.state.pose.position.x += 0.25;
        pb_sim_set_entity_state(sim, &sq, &r);
        if (r.result != PB_SIM_RESULT_OK)
            continue;
        sq.state.pose.position.x -= 0.25;
        pb_sim_set_entity_state(sim, &sq, &r);
        movable[n_movable] = i;
        movable_x[n_movable] = st.pose.position.x;
        movable_y[n_movable++] = st.pose.position.y;
    }
    /* spawn validation: a car-sized footprint checked against the map and 100 entities, at a
     * free pose (the check runs to the end) and then deleted again */
    const int n_spawn = 20000;
    const char *kinds[] = {"model://disc_robot", "model://car_robot", "model://stick_arm"};
    printf("bench_sim %s %g\n\nentities: %zu (100 spawned discs and the world's crate); set_entity_state "
           "moves %d of them by 0.25 px and back\n\n",
           root, seconds, pb_sim_entity_count(sim), n_movable);
    printf("## spawn validation (spawn + delete, %d each, 100 entities present)\n\n| robot | us per spawn "
           "|\n|---|---|\n",
           n_spawn);
    /* a free place for each robot among the entities: the check runs to its end there */
    double px[3] = {0}, py[3] = {0};
    for (int k = 0; k < 3; k++)
        for (int y = 30; y < 400 && px[k] == 0; y += 10)
            for (int x = 30; x < 500 && px[k] == 0; x += 10) {
                pb_sim_spawn_request rq = {
                    .name = "probe", .uri = kinds[k], .initial_pose = {{x, y, 0}, 0, 0, 0, 1}};
                pb_sim_spawn_response rs;
                pb_sim_result r;
                pb_sim_spawn_entity(sim, &rq, &rs);
                if (rs.result.result == PB_SIM_RESULT_OK) {
                    px[k] = x;
                    py[k] = y;
                    pb_sim_delete_entity(sim, "probe", &r);
                }
            }
    for (int k = 0; k < 3; k++)
        time_spawns(sim, kinds[k], px[k], py[k], 0.0, n_spawn);
    scene_spawns(worlds, robots, 2000);
    server_args args = {sim};
    pthread_t server;
    pthread_create(&server, NULL, server_main, &args);
    for (int i = 0; i < 500 && atomic_load(&server_port) == 0; i++)
        usleep(10000);
    const int port = atomic_load(&server_port);
    if (port <= 0) {
        fprintf(stderr, "bench_sim: the server did not start\n");
        return 1;
    }
    printf("\n## service calls over WebSocket on loopback (%.1f s per row, one request in flight per "
           "connection)\n\n| service | connections | calls | calls/s | p50 (us) | p99 (us) | failures |\n"
           "|---|---|---|---|---|---|---|\n",
           seconds);
    measure(port, 1, false, seconds);
    measure(port, 1, true, seconds);
    measure(port, 16, false, seconds);
    measure(port, 16, true, seconds);
    /* the 100 discs moving (each under a twist; collisions stop some): every step has work */
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "e%d", i);
        pb_sim_set_state_request sq = {.entity = name, .has_flags = true, .set_twist = true};
        sq.state.twist.linear.x = 5.0 * ((i % 3) - 1);
        sq.state.twist.angular.z = 0.5;
        pb_sim_result r;
        pb_sim_set_entity_state(sim, &sq, &r);
    }
    printf("\n## stepping rate, 100 moving entities (StepSimulation calls of 50 steps, %.1f s per row, "
           "interleaved; a second connection subscribed and reading)\n\n| subscribers | steps/s | ratio to "
           "none |\n|---|---|---|\n",
           seconds);
    static const char *const clock_tf[] = {"/clock", "/tf", NULL};
    static const char *const all[] = {"/clock", "/tf", "/entity_states", "/e0/odom", NULL};
    double none = 0, with = 0, every = 0;
    for (int round = 0; round < 2; round++) {
        none += steps_per_second(port, NULL, 50, seconds / 2);
        with += steps_per_second(port, clock_tf, 50, seconds / 2);
        every += steps_per_second(port, all, 50, seconds / 2);
    }
    printf("| none | %.0f | 1.00 |\n| /clock, /tf | %.0f | %.2f |\n| /clock, /tf, /entity_states, /e0/odom | %.0f | "
           "%.2f |\n",
           none / 2, with / 2, with / none, every / 2, every / none);
    stop_server = 1;
    pthread_join(server, NULL);
    pb_sim_destroy(sim);
    return 0;
}
