/* The external driver: the vehicle follows commands given from outside between steps
 * (pb_scenario_runner_command(); planbench serve feeds it Autoware's command topics). Each
 * command holds until the next; the run's sim time starts at the first control message, and
 * until then the runner takes no step. */
#include "scenario_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct external_driver {
    pb_scenario_command now; /* the command that holds */
    unsigned messages;       /* control messages since the last step */
    bool started;
} external_driver;

static pb_status start(void **self, const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    (void)s;
    (void)engine;
    (void)diag;
    external_driver *d = calloc(1, sizeof *d);
    if (!d)
        return PB_ERR_NOMEM;
    d->now.input = (pb_vehicle_input){.gear = PB_GEAR_PARKING, .signal = PB_SIGNAL_NONE};
    *self = d;
    return PB_OK;
}

static bool command(void *self, double t, const pb_vehicle_state *state, driver_command *out)
{
    (void)t;
    (void)state;
    external_driver *d = self;
    *out = (driver_command){
        .input = d->now.input, .messages = d->messages, .has_speed = d->now.has_speed, .speed = d->now.speed};
    d->messages = 0;
    return d->started;
}

static pb_status input(void *self, const pb_scenario_command *c)
{
    external_driver *d = self;
    const pb_vehicle_input *in = &c->input;
    if (!isfinite(in->acceleration) || !isfinite(in->steer_angle) || !isfinite(in->steer_rate) ||
        (c->has_speed && !isfinite(c->speed)) || (unsigned)in->gear >= PB_GEAR_COUNT ||
        (unsigned)in->signal > PB_SIGNAL_HAZARD)
        return PB_ERR_INVALID;
    d->now = *c;
    if (c->control_message) {
        d->messages++;
        d->started = true;
    }
    return PB_OK;
}

static void finish(void *self)
{
    free(self);
}

const scenario_driver_impl scenario_driver_external = {
    .name = "external",
    .start = start,
    .command = command,
    .finish = finish,
    .input = input,
};
