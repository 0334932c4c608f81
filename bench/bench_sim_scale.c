/* The simulation at scale (issue 21): filling a world with N entities and the per-call cost of
 * get_entity_state and set_entity_state with N = 100, 1,000 and 10,000, in process (the
 * services' own cost; bench_sim measures them over WebSockets). The world: an empty map_server
 * map of 250 x 250 m (0.25 m cells) written to a temporary folder; the entities: metric disc
 * robots (robots/disc_robot_m.xml, radius 0.25 m) on a 2 m grid, in spawn order. Each figure
 * is the median of per-call times over 20,000 calls on random entities (set_entity_state moves
 * an entity by 1 cm and back, a pose the C-space checks against the map and every entity near).
 *
 * usage: bench_sim_scale SOURCE_ROOT */
#include "planbench/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare);
    return v[n / 2];
}

static void write_map(const char *dir)
{
    char path[512];
    const int n = 1000; /* 250 m at 0.25 m */
    snprintf(path, sizeof path, "%s/open.pgm", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        exit(1);
    fprintf(f, "P5\n%d %d\n255\n", n, n);
    for (int i = 0; i < n * n; i++)
        fputc(254, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/open.yaml", dir);
    f = fopen(path, "w");
    if (!f)
        exit(1);
    fputs("image: open.pgm\nresolution: 0.25\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\n"
          "free_thresh: 0.196\n",
          f);
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    char dir[] = "/tmp/pb-bench-scale-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    write_map(dir);
    char robots[512], map[600];
    snprintf(robots, sizeof robots, "%s/robots", root);
    snprintf(map, sizeof map, "%s/open.yaml", dir);
    printf("| entities | fill (all spawns) | us per spawn | get_entity_state p50 | set_entity_state p50 |\n"
           "|---|---|---|---|---|\n");
    static const int sizes[] = {100, 1000, 10000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int n = sizes[s];
        pb_sim_config c = pb_sim_config_default();
        c.worlds_dir = dir;
        c.robots_dir = robots;
        c.world = map;
        pb_sim *sim = NULL;
        pb_diag diag = {0};
        if (pb_sim_create(&sim, &c, &diag) != PB_OK) {
            fprintf(stderr, "bench_sim_scale: %s\n", diag.message);
            return 1;
        }
        char name[32];
        const double t0 = pb_clock_seconds();
        for (int i = 0; i < n; i++) {
            snprintf(name, sizeof name, "e%d", i);
            pb_sim_spawn_request rq = {
                .name = name,
                .uri = "model://disc_robot_m",
                .initial_pose = {{1.0 + 2.0 * (i % 120), 1.0 + 2.0 * (i / 120), 0}, 0, 0, 0, 1}};
            pb_sim_spawn_response rs;
            pb_sim_spawn_entity(sim, &rq, &rs);
            if (rs.result.result != PB_SIM_RESULT_OK) {
                fprintf(stderr, "bench_sim_scale: spawn %d: %s\n", i, rs.result.error_message);
                return 1;
            }
        }
        const double fill = pb_clock_seconds() - t0;
        pb_sim_drain_events(sim, NULL, NULL);
        enum { CALLS = 20000 };
        double *get = malloc(CALLS * sizeof *get), *set = malloc(CALLS * sizeof *set);
        if (!get || !set)
            return 1;
        unsigned seed = 1;
        for (int k = 0; k < CALLS; k++) {
            seed = seed * 1103515245u + 12345u;
            const int i = (int)((seed >> 8) % (unsigned)n);
            snprintf(name, sizeof name, "e%d", i);
            pb_sim_result r;
            pb_sim_entity_state st;
            double t = pb_clock_seconds();
            pb_sim_get_entity_state(sim, name, &r, &st);
            get[k] = pb_clock_seconds() - t;
            pb_sim_set_state_request rq = {.entity = name, .state = st, .has_flags = true, .set_pose = true};
            rq.state.pose.position.x += (k & 1) ? -0.01 : 0.01;
            t = pb_clock_seconds();
            pb_sim_set_entity_state(sim, &rq, &r);
            set[k] = pb_clock_seconds() - t;
            if (r.result != PB_SIM_RESULT_OK) {
                fprintf(stderr, "bench_sim_scale: set %s: %s\n", name, r.error_message);
                return 1;
            }
        }
        printf("| %d | %.1f ms | %.1f | %.2f us | %.2f us |\n", n, fill * 1e3, fill / n * 1e6,
               median(get, CALLS) * 1e6, median(set, CALLS) * 1e6);
        fflush(stdout);
        free(get);
        free(set);
        pb_sim_destroy(sim);
    }
    char path[600];
    snprintf(path, sizeof path, "%s/open.pgm", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/open.yaml", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}
