/* Embedding planbench: plan in a C-space that is nothing but a C function.
 *
 * The world is the unit cube [0, 10]^3 with three spherical obstacles and a wall with a
 * square window. `free_space` says whether a point is free; planbench samples, steers,
 * checks edges by interpolation and returns a path, which is validated independently.
 *
 *     cc embed.c $(pkg-config --cflags --libs planbench) -o embed && ./embed
 *
 * Exit status 0 when a valid path was found. */
#include <planbench/planbench.h>

#include <math.h>
#include <stdio.h>

typedef struct world {
    double centres[3][3];
    double radii[3];
    double wall_x;      /* a wall across the space at x = wall_x, 0.4 thick ... */
    double window_half; /* ... with a square window of this half-width around (y, z) = (5, 5) */
} world;

/* The callback: `ctx` is the world. Only reads it, so engines may be shared by threads. */
static bool free_space(const double *q, void *ctx)
{
    const world *w = ctx;
    for (int k = 0; k < 3; k++) {
        const double dx = q[0] - w->centres[k][0], dy = q[1] - w->centres[k][1], dz = q[2] - w->centres[k][2];
        if (dx * dx + dy * dy + dz * dz < w->radii[k] * w->radii[k])
            return false;
    }
    const bool in_wall = fabs(q[0] - w->wall_x) < 0.2;
    const bool in_window = fabs(q[1] - 5.0) < w->window_half && fabs(q[2] - 5.0) < w->window_half;
    return !in_wall || in_window;
}

int main(void)
{
    const world w = {
        .centres = {{2.5, 2.5, 2.5}, {7.5, 7.0, 3.0}, {7.0, 3.0, 7.0}},
        .radii = {1.5, 1.8, 1.6},
        .wall_x = 5.0,
        .window_half = 1.0,
    };
    pb_blackbox_config params = pb_blackbox_config_default(3);
    for (int i = 0; i < 3; i++) {
        params.lower[i] = 0.0;
        params.upper[i] = 10.0;
    }
    params.feasible = free_space;
    params.payload = (void *)&w;
    params.resolution = 0.02; /* thinner than the wall (0.4) by far */

    pb_diag diag = {0};
    pb_engine *engine = NULL;
    if (pb_blackbox_create(&engine, &params, &diag) != PB_OK) {
        fprintf(stderr, "embed: %s\n", diag.message);
        return 1;
    }
    pb_planner *planner = NULL;
    if (pb_planner_create(&planner, "rrt", engine, &diag) != PB_OK) {
        fprintf(stderr, "embed: %s\n", diag.message);
        pb_engine_destroy(engine);
        return 1;
    }
    pb_planner_set_seed(planner, 1);

    const double start[3] = {0.5, 0.5, 0.5}, goal[3] = {9.5, 9.5, 9.5};
    const pb_problem problem = {.start = start, .goal = goal, .goal_radius = 0.5};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = 20.0;
    pb_result result;
    pb_result_init(&result, 3);
    int status = 1;
    if (pb_planner_solve(planner, &problem, &stop, &result) != PB_OK) {
        fprintf(stderr, "embed: the problem is malformed\n");
    } else if (result.outcome != PB_OUTCOME_EXACT) {
        fprintf(stderr, "embed: no path: %s\n", pb_outcome_str(result.outcome));
    } else if (!pb_path_validate(&result.path, engine, start, goal, &diag)) {
        fprintf(stderr, "embed: the path does not validate: %s\n", diag.message);
    } else {
        const pb_engine_counters c = result.counters;
        printf("path of %zu configurations, length %.3f, found in %.3f s (%llu feasible calls, %llu edges, "
               "%llu configurations inside edges)\n",
               result.path.n, result.cost, result.time_s, (unsigned long long)c.n_feasible,
               (unsigned long long)c.n_visible, (unsigned long long)c.n_edge_states);
        for (size_t i = 0; i < result.path.n; i++) {
            const double *q = pb_path_at(&result.path, i);
            printf("%.4f,%.4f,%.4f\n", q[0], q[1], q[2]);
        }
        status = 0;
    }
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(engine);
    return status;
}
