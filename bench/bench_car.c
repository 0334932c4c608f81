/* The car on a metric map (issue 18): validated vehicle steps per second (the model's step and
 * the footprint's certified sweep against the map, pb_vehicle_step_checked) beside the model
 * alone, and RRT* on the car engine (Reeds-Shepp edges): iterations per second and the cost
 * after a fixed number of iterations. One core; counts beside times.
 *
 *   bench_car MAP.yaml [STEPS] [RRTSTAR_ITERATIONS]   (defaults 1000000, 20000)
 *
 * The map is maps/wall40.yaml (40 x 40 m at 0.1 m, a wall at x 18..22, y < 30); the
 * vehicle is AWSIM's Lexus from robots/lexus_rx450h.xml beside the map's folder. */
#include "planbench/planbench.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const pb_vehicle_input phases[] = {
    {3.0, 0.3, PB_GEAR_DRIVE, PB_SIGNAL_LEFT, 0.0},    {0.0, -0.2, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},
    {-4.0, 0.0, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},   {2.0, 0.4, PB_GEAR_REVERSE, PB_SIGNAL_HAZARD, 0.0},
    {-3.0, 0.0, PB_GEAR_REVERSE, PB_SIGNAL_NONE, 0.0}, {0.0, 0.1, PB_GEAR_NEUTRAL, PB_SIGNAL_RIGHT, 0.0},
    {2.0, -0.5, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},   {-5.0, 0.0, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},
};
#define N_PHASES    (sizeof phases / sizeof phases[0])
#define PHASE_STEPS 300

/* Circling at 5 m/s on full left steer (R = 3.98 m for the Lexus) in the open left half of
 * the map, its footprint 1.5 m and more from the wall and the map's edge. */
static pb_vehicle_input circling(const pb_vehicle_state *s, const pb_vehicle_config *c)
{
    return (pb_vehicle_input){
        .acceleration = s->v < 5.0 ? 2.0 : 0.0, .steer_angle = c->max_steer, .gear = PB_GEAR_DRIVE};
}

/* Steps per second with and without the sweep, the same inputs: driving in open space (the
 * circle), and the phases of bench_vehicle, which drive into the walls again and again. */
static void bench_steps(pb_engine *map, const pb_vehicle_config *c, uint64_t n_steps, bool open)
{
    const double start[3] = {open ? 9.0 : 5.0, open ? 20.0 : 5.0, open ? 0.0 : 0.3};
    pb_vehicle_state s = pb_vehicle_state_at(start[0], start[1], start[2]);
    pb_engine_reset_counters(map);
    uint64_t collisions = 0;
    double t0 = pb_clock_seconds();
    for (uint64_t i = 0; i < n_steps; i++) {
        const pb_vehicle_input in = open ? circling(&s, c) : phases[(i / PHASE_STEPS) % N_PHASES];
        collisions += !pb_vehicle_step_checked(c, &s, &in, 0.01, map, PB_OBSTACLE_NONE, NULL);
    }
    const double checked = pb_clock_seconds() - t0;
    const pb_engine_counters k = pb_engine_get_counters(map);
    pb_vehicle_state m = pb_vehicle_state_at(start[0], start[1], start[2]);
    t0 = pb_clock_seconds();
    for (uint64_t i = 0; i < n_steps; i++) {
        const pb_vehicle_input in = open ? circling(&m, c) : phases[(i / PHASE_STEPS) % N_PHASES];
        pb_vehicle_step(c, &m, &in, 0.01);
    }
    const double model = pb_clock_seconds() - t0;
    printf(
        "%s: validated steps: %llu of 0.01 s in %.3f s: %.3g steps/s (%.3g x real time); %llu stopped by a "
        "collision; %.2f sweep poses and %.1f cells read per step\n",
        open ? "open space (circling)" : "into the walls (bench_vehicle's phases)",
        (unsigned long long)n_steps, checked, (double)n_steps / checked, (double)n_steps / checked * 0.01,
        (unsigned long long)collisions, (double)k.n_edge_states / (double)n_steps,
        (double)k.n_pixels / (double)n_steps);
    printf("  model alone: %.3g steps/s; the sweep costs %.2fx the model\n", (double)n_steps / model,
           checked / model);
}

static void bench_planner(pb_engine *car, const char *name, uint64_t iterations, bool first)
{
    pb_planner *p = NULL;
    pb_diag d = {0};
    if (pb_planner_create(&p, name, car, &d) != PB_OK) {
        printf("%s: %s\n", name, d.message);
        return;
    }
    const double start[3] = {5, 5, 0}, goal[3] = {35, 5, 0};
    const pb_problem problem = {start, goal, 1.0};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 0.0;
    stop.max_iterations = iterations;
    stop.first_solution = first;
    pb_engine_reset_counters(car);
    pb_result r;
    pb_result_init(&r, 3);
    const double c0 = cpu_seconds();
    pb_planner_solve(p, &problem, &stop, &r);
    const double cpu = cpu_seconds() - c0;
    printf("%-12s %s: %s, %llu iterations in %.3f s CPU (%.3g iterations/s), first solution at %.3f s, cost "
           "%.2f m, "
           "%llu edge checks, %llu sweep poses\n",
           name, first ? "first" : "budget", pb_outcome_str(r.outcome), (unsigned long long)r.iterations, cpu,
           (double)r.iterations / cpu, r.time_to_first_s, r.cost, (unsigned long long)r.counters.n_visible,
           (unsigned long long)r.counters.n_edge_states);
    pb_result_finish(&r);
    pb_planner_destroy(p);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_car MAP.yaml [STEPS] [RRTSTAR_ITERATIONS]\n");
        return 2;
    }
    const uint64_t n_steps = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;
    const uint64_t n_iterations = argc > 3 ? strtoull(argv[3], NULL, 10) : 20000;
    char robot[1024];
    const char *slash = strrchr(argv[1], '/');
    snprintf(robot, sizeof robot, "%.*s../robots/lexus_rx450h.xml", slash ? (int)(slash - argv[1] + 1) : 0,
             argv[1]);
    pb_diag d = {0};
    pb_engine *map = NULL, *car = NULL;
    const pb_option options[1] = {{"robot", robot}};
    if (pb_engine_load(&map, "image2d", argv[1], NULL, 0, &d) != PB_OK ||
        pb_engine_load(&car, "car", argv[1], options, 1, &d) != PB_OK) {
        fprintf(stderr, "bench_car: %s%s%s\n", d.file, d.file[0] ? ": " : "", d.message);
        pb_engine_destroy(map);
        return 2;
    }
    const pb_vehicle_config *c = pb_engine_get_data(car, "vehicle");
    printf("bench_car %s %llu %llu (vehicle %s, turning radius %.3f m)\n", argv[1],
           (unsigned long long)n_steps, (unsigned long long)n_iterations, robot,
           pb_vehicle_turning_radius(c));
    bench_steps(map, c, n_steps, true);
    bench_steps(map, c, n_steps, false);
    bench_planner(car, "rrt", n_iterations, true);
    bench_planner(car, "birrt", n_iterations, true);
    bench_planner(car, "rrtstar", n_iterations, false);
    pb_engine_destroy(car);
    pb_engine_destroy(map);
    return 0;
}
