/* The path driver: follow a path planned beforehand (a CSV of sampled poses with their
 * directions, as pb_tracker_save_csv() and `planbench scenario plan` write it) with the tracker;
 * no planning in the run. Every step's command is a control message naming a velocity. */
#include "scenario_internal.h"

#include <stdlib.h>

static pb_status start(void **self, const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    (void)engine;
    pb_tracker *tracker = NULL;
    const pb_status st = pb_tracker_load_csv(&tracker, &s->vehicle, &s->tracker, s->path_csv, diag);
    *self = tracker;
    return st;
}

static bool command(void *self, double t, const pb_vehicle_state *state, driver_command *out)
{
    (void)t;
    out->messages = 1;
    out->has_speed = true;
    pb_tracker_command(self, state, &out->input, &out->speed);
    return true;
}

static void finish(void *self)
{
    pb_tracker_destroy(self);
}

const scenario_driver_impl scenario_driver_path = {
    .name = "path",
    .start = start,
    .command = command,
    .finish = finish,
};
