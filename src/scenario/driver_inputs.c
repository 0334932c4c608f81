/* The inputs driver: a scenario driven by an inputs CSV (the columns of planbench simulate:
 * t,acceleration,steer_angle,gear,signal, or t,steer_rate,acceleration for commonroad_ks; each row
 * holds from its t until the next: pb_vehicle_inputs_load()). A row
 * is one control input message; its acceleration commands motion when it is > 0 in DRIVE or
 * REVERSE (docs/scenarios.md: what "commanding a velocity" means without a velocity). */
#include "scenario_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct inputs_driver {
    pb_vehicle_input_row *rows;
    size_t n, next;
} inputs_driver;

static pb_status start(void **self, const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    (void)engine;
    *self = NULL;
    inputs_driver *d = calloc(1, sizeof *d);
    if (!d)
        return PB_ERR_NOMEM;
    const bool rate_columns = strcmp(pb_vehicle_model_name(s->vehicle.model), "commonroad_ks") == 0;
    const pb_status st = pb_vehicle_inputs_load(s->inputs_path, rate_columns, &d->rows, &d->n, diag);
    if (st != PB_OK) {
        free(d);
        return st;
    }
    *self = d;
    return PB_OK;
}

/* A row is a message when the step reaches its t, counted from the first row's t (the first
 * control input starts the run's sim time). */
static bool command(void *self, double t, const pb_vehicle_state *state, driver_command *out)
{
    (void)state;
    inputs_driver *d = self;
    const double eps = 1e-9, t0 = d->rows[0].t;
    out->messages = 0;
    while (d->next < d->n && d->rows[d->next].t - t0 <= t + eps) {
        d->next++;
        out->messages++;
    }
    out->input = d->rows[d->next - 1].input;
    out->has_speed = false;
    return true;
}

static void finish(void *self)
{
    inputs_driver *d = self;
    if (d)
        free(d->rows);
    free(d);
}

const scenario_driver_impl scenario_driver_inputs = {
    .name = "inputs",
    .start = start,
    .command = command,
    .finish = finish,
};
