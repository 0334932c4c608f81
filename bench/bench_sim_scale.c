/* The simulation at scale (issue 21): filling a world with N entities and the per-call cost of
 * get_entity_state, set_entity_state, a GetEntities bounds filter and a step with N = 100,
 * 1,000 and 10,000, in process (the services' own cost; bench_sim measures them over
 * WebSockets). The world: an empty map_server map of 250 x 250 m (0.25 m cells) written to a
 * temporary folder; the entities: metric disc robots (robots/disc_robot_m.xml, radius 0.25 m)
 * on a 2 m grid, in spawn order. Each per-call figure is the median (p50) and 99th percentile
 * of per-call wall times over 20,000 calls on random entities (set_entity_state moves an entity
 * by 1 cm and back, a pose the world's engine checks against the map and every entity near;
 * then, in a loop of its own, the filter asks for the entities in a 3 x 3 m box around a random
 * entity, which holds 4, fewer at the edges). The
 * fill is timed in wall and CPU time. Then the same gets, and sets, back to back in loops timed
 * in CPU time as a whole (their mean per call). A step moves every entity (all given a small
 * twist).
 *
 * The goals (issue 21): at 10,000 entities get and set p50 within 1.5x of the 100-entity
 * figure, and filling 10,000 entities under 50 ms; the last lines say whether each is met. The
 * counts (spawns, calls, entities each filter found) are checked, so a broken run fails.
 *
 * usage: bench_sim_scale SOURCE_ROOT [N...]   (default N: 100 1000 10000) */
#include "planbench/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { CALLS = 20000, STEPS = 20, MAX_SIZES = 8 };

typedef struct figures {
    int n;
    double fill_wall, fill_cpu;                                             /* seconds */
    double get_p50, get_p99, set_p50, set_p99, filter_p50, step_per_entity; /* seconds */
    double get_cpu, set_cpu; /* CPU seconds per call in loops of gets only and sets only */
    size_t filter_found;     /* entities, over all calls */
} figures;

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of `v` (sorted in place). */
static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, compare);
    return v[(size_t)(q * (double)(n - 1))];
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

static void fail(const char *what, const char *message)
{
    fprintf(stderr, "bench_sim_scale: %s: %s\n", what, message);
    exit(1);
}

/* Entity i's place on the 2 m grid (120 to a row). */
static double grid_x(int i)
{
    return 1.0 + 2.0 * (i % 120);
}

static double grid_y(int i)
{
    return 1.0 + 2.0 * (i / 120);
}

static void measure(const char *dir, const char *robots, const char *map, int n, figures *out)
{
    pb_sim_config c = pb_sim_config_default();
    c.worlds_dir = dir;
    c.robots_dir = robots;
    c.world = map;
    pb_sim *sim = NULL;
    pb_diag diag = {0};
    if (pb_sim_create(&sim, &c, &diag) != PB_OK)
        fail("create", diag.message);
    char name[32];
    out->n = n;
    const double w0 = pb_clock_seconds(), c0 = cpu_seconds();
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "e%d", i);
        pb_sim_spawn_request rq = {.name = name,
                                   .uri = "model://disc_robot_m",
                                   .initial_pose = {{grid_x(i), grid_y(i), 0}, 0, 0, 0, 1}};
        pb_sim_spawn_response rs;
        pb_sim_spawn_entity(sim, &rq, &rs);
        if (rs.result.result != PB_SIM_RESULT_OK)
            fail(name, rs.result.error_message);
    }
    out->fill_wall = pb_clock_seconds() - w0;
    out->fill_cpu = cpu_seconds() - c0;
    if (pb_sim_entity_count(sim) != (size_t)n)
        fail("fill", "the world does not hold every entity spawned");
    pb_sim_drain_events(sim, NULL, NULL);
    double *get = malloc(CALLS * sizeof *get), *set = malloc(CALLS * sizeof *set),
           *filter = malloc(CALLS * sizeof *filter);
    if (!get || !set || !filter)
        fail("memory", "out of memory");
    unsigned seed = 1;
    out->filter_found = 0;
    for (int k = 0; k < CALLS; k++) {
        seed = seed * 1103515245u + 12345u;
        const int i = (int)((seed >> 8) % (unsigned)n);
        snprintf(name, sizeof name, "e%d", i);
        pb_sim_result r;
        pb_sim_entity_state st;
        double t = pb_clock_seconds();
        pb_sim_get_entity_state(sim, name, &r, &st);
        get[k] = pb_clock_seconds() - t;
        if (r.result != PB_SIM_RESULT_OK)
            fail(name, r.error_message);
        pb_sim_set_state_request rq = {.entity = name, .state = st, .has_flags = true, .set_pose = true};
        rq.state.pose.position.x += (k & 1) ? -0.01 : 0.01;
        t = pb_clock_seconds();
        pb_sim_set_entity_state(sim, &rq, &r);
        set[k] = pb_clock_seconds() - t;
        if (r.result != PB_SIM_RESULT_OK)
            fail(name, r.error_message);
    }
    /* the same calls back to back, timed in CPU time as a whole: a figure that other programs
     * on the machine disturb less than the per-call wall times (they still share the caches) */
    static char entity_names[14400][16];
    for (int i = 0; i < n; i++)
        snprintf(entity_names[i], sizeof entity_names[i], "e%d", i);
    double sum = 0.0;
    seed = 1;
    double c1 = cpu_seconds();
    for (int k = 0; k < CALLS; k++) {
        seed = seed * 1103515245u + 12345u;
        pb_sim_result r;
        pb_sim_entity_state st;
        pb_sim_get_entity_state(sim, entity_names[(seed >> 8) % (unsigned)n], &r, &st);
        sum += st.pose.position.x;
    }
    out->get_cpu = (cpu_seconds() - c1) / CALLS;
    seed = 1;
    c1 = cpu_seconds();
    for (int k = 0; k < CALLS; k++) {
        seed = seed * 1103515245u + 12345u;
        const int i = (int)((seed >> 8) % (unsigned)n);
        pb_sim_set_state_request rq = {.entity = entity_names[i], .has_flags = true, .set_pose = true};
        rq.state.pose = (pb_sim_pose){{grid_x(i) + ((k & 1) ? 0.01 : 0.0), grid_y(i), 0}, 0, 0, 0, 1};
        pb_sim_result r;
        pb_sim_set_entity_state(sim, &rq, &r);
        sum += r.result;
    }
    out->set_cpu = (cpu_seconds() - c1) / CALLS;
    if (!(sum > 0.0))
        fail("loops", "no entity was read");
    /* the filters in a loop of their own: a filter that reads every entity would otherwise
     * evict what the gets and sets read, and time the two together */
    seed = 1;
    for (int k = 0; k < CALLS; k++) {
        seed = seed * 1103515245u + 12345u;
        const int i = (int)((seed >> 8) % (unsigned)n);
        pb_sim_result r;
        /* a 3 x 3 m box centred between entity i and its neighbours: 4 on the 2 m grid (fewer
         * at the edges of the filled area) */
        pb_sim_entity_filters f = {.bounds = {.type = PB_SIM_BOUNDS_BOX, .n_points = 2}};
        f.bounds.points[0] = (pb_sim_vec3){grid_x(i) - 0.5, grid_y(i) - 0.5, -1};
        f.bounds.points[1] = (pb_sim_vec3){grid_x(i) + 2.5, grid_y(i) + 2.5, 1};
        const char *const *names;
        size_t found;
        const double t = pb_clock_seconds();
        pb_sim_get_entities(sim, &f, &r, &names, &found);
        filter[k] = pb_clock_seconds() - t;
        if (r.result != PB_SIM_RESULT_OK || found < 1 || found > 4)
            fail("filter", "a box around an entity found none of it, or more than its 4 neighbours");
        out->filter_found += found;
    }
    out->get_p50 = quantile(get, CALLS, 0.5);
    out->get_p99 = quantile(get, CALLS, 0.99);
    out->set_p50 = quantile(set, CALLS, 0.5);
    out->set_p99 = quantile(set, CALLS, 0.99);
    out->filter_p50 = quantile(filter, CALLS, 0.5);
    /* every entity moving at 0.1 m/s in x: no two meet */
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "e%d", i);
        pb_sim_set_state_request rq = {.entity = name, .has_flags = true, .set_twist = true};
        rq.state.twist.linear.x = 0.1;
        pb_sim_result r;
        pb_sim_set_entity_state(sim, &rq, &r);
        if (r.result != PB_SIM_RESULT_OK)
            fail(name, r.error_message);
    }
    pb_sim_result r;
    if (!pb_sim_steps_begin(sim, STEPS, &r))
        fail("steps", r.error_message);
    const double s0 = cpu_seconds();
    for (int k = 0; k < STEPS; k++)
        pb_sim_step_once(sim);
    out->step_per_entity = (cpu_seconds() - s0) / STEPS / n;
    pb_sim_steps_end(sim);
    free(get);
    free(set);
    free(filter);
    pb_sim_destroy(sim);
}

static const char *verdict(int met)
{
    return met ? "met" : "NOT met";
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    int sizes[MAX_SIZES] = {100, 1000, 10000}, n_sizes = 3;
    if (argc > 2) {
        n_sizes = 0;
        for (int i = 2; i < argc && n_sizes < MAX_SIZES; i++) {
            char *end;
            const long v = strtol(argv[i], &end, 10);
            if (*end || v < 1 || v > 14400) {
                fprintf(stderr, "bench_sim_scale: '%s': entity counts are 1 to 14400 (the 2 m grid's room)\n",
                        argv[i]);
                return 2;
            }
            sizes[n_sizes++] = (int)v;
        }
    }
    char dir[] = "/tmp/pb-bench-scale-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    write_map(dir);
    char robots[512], map[600];
    snprintf(robots, sizeof robots, "%s/robots", root);
    snprintf(map, sizeof map, "%s/open.yaml", dir);
    printf(
        "| entities | fill wall / CPU | us per spawn (CPU) | get_entity_state p50 / p99 (CPU mean) | "
        "set_entity_state p50 / p99 (CPU mean) | GetEntities box p50 (found) | step, us per entity (CPU) |\n"
        "|---|---|---|---|---|---|---|\n");
    figures fig[MAX_SIZES];
    for (int s = 0; s < n_sizes; s++) {
        figures *f = &fig[s];
        measure(dir, robots, map, sizes[s], f);
        printf("| %d | %.1f / %.1f ms | %.2f | %.3f / %.3f (%.3f) us | %.3f / %.3f (%.3f) us | %.3f us "
               "(%.2f) | %.3f |\n",
               f->n, f->fill_wall * 1e3, f->fill_cpu * 1e3, f->fill_cpu / f->n * 1e6, f->get_p50 * 1e6,
               f->get_p99 * 1e6, f->get_cpu * 1e6, f->set_p50 * 1e6, f->set_p99 * 1e6, f->set_cpu * 1e6,
               f->filter_p50 * 1e6, (double)f->filter_found / CALLS, f->step_per_entity * 1e6);
        fflush(stdout);
    }
    printf("(%d calls of each per size, %d steps)\n", CALLS, STEPS);
    const figures *small = NULL, *large = NULL;
    for (int s = 0; s < n_sizes; s++) {
        if (fig[s].n == 100)
            small = &fig[s];
        if (fig[s].n == 10000)
            large = &fig[s];
    }
    if (small && large) {
        const double get = large->get_p50 / small->get_p50, set = large->set_p50 / small->set_p50;
        printf(
            "ratios 10,000 / 100: get p50 %.2fx (CPU mean %.2fx), set p50 %.2fx (CPU mean %.2fx), filter p50 "
            "%.2fx, step per entity %.2fx, CPU per spawn %.2fx\n",
            get, large->get_cpu / small->get_cpu, set, large->set_cpu / small->set_cpu,
            large->filter_p50 / small->filter_p50, large->step_per_entity / small->step_per_entity,
            (large->fill_cpu / large->n) / (small->fill_cpu / small->n));
        printf("goal get p50 within 1.5x: %s; goal set p50 within 1.5x: %s (CPU means: get %s, set %s)\n",
               verdict(get <= 1.5), verdict(set <= 1.5), verdict(large->get_cpu <= 1.5 * small->get_cpu),
               verdict(large->set_cpu <= 1.5 * small->set_cpu));
    }
    if (large)
        printf("goal fill 10,000 under 50 ms: %s (wall %.1f ms, CPU %.1f ms)\n",
               verdict(large->fill_wall < 0.050), large->fill_wall * 1e3, large->fill_cpu * 1e3);
    char path[600];
    snprintf(path, sizeof path, "%s/open.pgm", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/open.yaml", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}
