/* The planner driver: plan once on the vehicle's C-space of the scene (any planner that runs
 * on the car engine), then follow the path with the tracker (include/planbench/tracker.h):
 * pure pursuit on the steer, a speed profile on the acceleration. Every step's command is a
 * control message naming a velocity (the speed profile's target). When the planner finds no
 * path the vehicle is held in PARKING and the run ends by a timer. */
#include "scenario_internal.h"

#include "planbench/planner.h"

#include <stdlib.h>

typedef struct planner_driver {
    pb_tracker *tracker; /* NULL when planning failed */
} planner_driver;

static pb_status start(void **self, const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    (void)engine;
    *self = NULL;
    planner_driver *d = calloc(1, sizeof *d);
    if (!d)
        return PB_ERR_NOMEM;
    pb_path path;
    pb_path_init(&path, 3);
    double cost = 0;
    pb_engine *car = NULL;
    pb_diag plan_diag = {0};
    pb_status st = scenario_plan(s, &s->plan, &path, &cost, &car, &plan_diag);
    if (st == PB_OK)
        st = pb_tracker_create_from_path(&d->tracker, &s->vehicle, &s->tracker, car, &path, diag);
    else if (st == PB_ERR_NOT_FOUND)
        st = PB_OK; /* no path is an outcome of the run, not bad input */
    else
        *diag = plan_diag;
    pb_engine_destroy(car);
    pb_path_finish(&path);
    if (st != PB_OK) {
        free(d);
        return st;
    }
    *self = d;
    return PB_OK;
}

static bool command(void *self, double t, const pb_vehicle_state *state, driver_command *out)
{
    (void)t;
    planner_driver *d = self;
    out->messages = 1;
    out->has_speed = true;
    out->speed = 0.0;
    if (!d->tracker) {
        out->input = (pb_vehicle_input){.gear = PB_GEAR_PARKING};
        return true;
    }
    pb_tracker_command(d->tracker, state, &out->input, &out->speed);
    return true;
}

static void finish(void *self)
{
    planner_driver *d = self;
    if (d)
        pb_tracker_destroy(d->tracker);
    free(d);
}

const scenario_driver_impl scenario_driver_planner = {
    .name = "planner",
    .start = start,
    .command = command,
    .finish = finish,
};
