/* The inputs driver: a scenario driven by an inputs CSV (the columns of planbench simulate:
 * t,acceleration,steer_angle,gear,signal; each row holds from its t until the next). A row
 * is one control input message; its acceleration commands motion when it is > 0 in DRIVE or
 * REVERSE (docs/scenarios.md: what "commanding a velocity" means without a velocity). */
#include "io/input_file.h"
#include "scenario_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
    double t;
    pb_vehicle_input input;
} row;

typedef struct inputs_driver {
    row *rows;
    size_t n, next;
} inputs_driver;

static bool parse_rows(inputs_driver *d, const char *path, char *text, pb_diag *diag)
{
    size_t cap = 0, line_no = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (++line_no == 1 || line[0] == '\0' || line[0] == '#')
            continue; /* the header */
        char *fields[5] = {0};
        int k = 0;
        for (char *f = strtok(line, ","); f && k < 5; f = strtok(NULL, ","))
            fields[k++] = f;
        static const char *const names[3] = {"t", "acceleration", "steer_angle"};
        double values[3];
        for (int i = 0; i < 3; i++) {
            char *end = NULL;
            values[i] = i < k ? strtod(fields[i], &end) : NAN;
            if (i >= k || end == fields[i] || *end != '\0' || !isfinite(values[i])) {
                pb_diag_set(diag, path, (int)line_no, 0, "column %d (%s) must be a finite number", i + 1,
                            names[i]);
                return false;
            }
        }
        const int gear = k > 3 ? pb_gear_from_name(fields[3]) : PB_GEAR_DRIVE;
        const int signal = k > 4 ? pb_turn_signal_from_name(fields[4]) : PB_SIGNAL_NONE;
        if (gear < 0 || signal < 0) {
            pb_diag_set(diag, path, (int)line_no, 0,
                        gear < 0 ? "unknown gear '%s' (PARKING, REVERSE, NEUTRAL, DRIVE)"
                                 : "unknown signal '%s' (NONE, LEFT, RIGHT, HAZARD)",
                        gear < 0 ? fields[3] : fields[4]);
            return false;
        }
        if (d->n > 0 && !(values[0] > d->rows[d->n - 1].t)) {
            pb_diag_set(diag, path, (int)line_no, 0, "t %g does not increase", values[0]);
            return false;
        }
        if (d->n == cap) {
            cap = cap ? 2 * cap : 64;
            row *grown = realloc(d->rows, cap * sizeof *grown);
            if (!grown) {
                pb_diag_set(diag, path, 0, 0, "out of memory");
                return false;
            }
            d->rows = grown;
        }
        d->rows[d->n++] = (row){.t = values[0],
                                .input = {.acceleration = values[1],
                                          .steer_angle = values[2],
                                          .gear = (pb_gear)gear,
                                          .signal = (pb_turn_signal)signal}};
    }
    if (d->n == 0) {
        pb_diag_set(diag, path, 0, 0, "no input rows (after the header line)");
        return false;
    }
    return true;
}

static pb_status start(void **self, const pb_scenario *s, pb_engine *engine, pb_diag *diag)
{
    (void)engine;
    *self = NULL;
    inputs_driver *d = calloc(1, sizeof *d);
    char *text = NULL;
    size_t size = 0;
    if (!d)
        return PB_ERR_NOMEM;
    pb_status st = pb_file_read_all(s->inputs_path, 64u << 20, &text, &size, diag);
    if (st == PB_OK && !parse_rows(d, s->inputs_path, text, diag))
        st = PB_ERR_INVALID;
    free(text);
    if (st != PB_OK) {
        free(d->rows);
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
