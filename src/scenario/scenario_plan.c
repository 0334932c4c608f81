/* Planning on a scenario's scene: the vehicle's C-space (the car engine: Reeds-Shepp edges, the
 * footprint swept) on the scene's map with its actors, from the start pose to the goal. Used
 * by the planner driver and for the reference plan the regret terms compare against. */
#include "planbench/planner.h"
#include "scenario_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

pb_status scenario_plan(const pb_scenario *s, const scenario_plan_config *config, pb_path *path, double *cost,
                        pb_engine **engine_out, pb_diag *diag)
{
    if (engine_out)
        *engine_out = NULL;
    char radius[64], margin[64];
    snprintf(radius, sizeof radius, "%.17g", config->radius_margin * pb_vehicle_turning_radius(&s->vehicle));
    snprintf(margin, sizeof margin, "%.17g", config->margin);
    const pb_option options[3] = {{"turning_radius", radius}, {"margin", margin}, {"robot", s->vehicle_path}};
    pb_engine *engine = NULL;
    pb_status st = scene_build_engine(s, "car", options, s->vehicle_path[0] ? 3 : 2, &engine, diag);
    if (st != PB_OK)
        return st;
    pb_planner *planner = NULL;
    if ((st = pb_planner_create(&planner, config->planner, engine, diag)) != PB_OK) {
        pb_engine_destroy(engine);
        return st;
    }
    for (size_t i = 0; i < config->n_params && st == PB_OK; i++)
        st = pb_planner_set_param_double(planner, config->param_names[i], config->param_values[i], diag);
    pb_planner_set_seed(planner, config->seed);
    /* the goal's heading: from the start towards it (the scenario names a point) */
    const double goal[3] = {s->goal[0], s->goal[1],
                            atan2(s->goal[1] - s->start[1], s->goal[0] - s->start[0])};
    /* within goal_radius of the goal pose in curve length is within it in the plane too */
    const pb_problem problem = {.start = s->start, .goal = goal, .goal_radius = fmax(s->goal_radius, 1e-3)};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = config->time_limit;
    stop.max_iterations = config->max_iterations;
    stop.first_solution = false;
    pb_result result;
    pb_result_init(&result, pb_engine_dim(engine));
    if (st == PB_OK)
        st = pb_planner_solve(planner, &problem, &stop, &result);
    if (st == PB_OK) {
        if ((result.outcome == PB_OUTCOME_EXACT) && result.path.n >= 2) {
            st = pb_path_copy(path, &result.path);
            *cost = result.cost;
        } else {
            pb_diag_set(diag, s->name, 0, 0, "%s found no path to the goal (%s after %llu iterations)",
                        config->planner, pb_outcome_str(result.outcome),
                        (unsigned long long)result.iterations);
            st = PB_ERR_NOT_FOUND;
        }
    }
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    if (st == PB_OK && engine_out)
        *engine_out = engine;
    else
        pb_engine_destroy(engine);
    return st;
}

pb_status pb_scenario_save_plan(const pb_scenario *s, const char *csv_path, pb_diag *diag)
{
    pb_path path;
    pb_path_init(&path, 3);
    double cost = 0;
    pb_engine *car = NULL;
    pb_status st = scenario_plan(s, &s->plan, &path, &cost, &car, diag);
    pb_tracker *tracker = NULL;
    if (st == PB_OK)
        st = pb_tracker_create_from_path(&tracker, &s->vehicle, &s->tracker, car, &path, diag);
    if (st == PB_OK)
        st = pb_tracker_save_csv(tracker, csv_path, diag);
    pb_tracker_destroy(tracker);
    pb_engine_destroy(car);
    pb_path_finish(&path);
    return st;
}
