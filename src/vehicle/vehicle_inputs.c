/* The inputs CSV of planbench simulate and of a scenario's inputs driver (docs/vehicles.md):
 * one reader for both, and for the fuzz target. */
#include "io/input_file.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Split `line` at commas into at most `max` fields; returns how many. */
static int split(char *line, char **fields, int max)
{
    int k = 0;
    for (char *p = line; k < max;) {
        fields[k++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = '\0';
    }
    return k;
}

/* One data line into `row`; false with `diag` naming the line and column. */
static bool parse_row(char *line, size_t line_no, const char *name, bool rate_columns,
                      pb_vehicle_input_row *row, pb_diag *diag)
{
    char *fields[6] = {0};
    const int k = split(line, fields, 6);
    const int max_columns = rate_columns ? 3 : 5;
    if (k > max_columns) {
        pb_diag_set(diag, name, (int)line_no, 0, "more than %d columns (%s)", max_columns,
                    rate_columns ? "t,steer_rate,acceleration" : "t,acceleration,steer_angle,gear,signal");
        return false;
    }
    static const char *const kinematic_names[3] = {"t", "acceleration", "steer_angle"};
    static const char *const rate_names[3] = {"t", "steer_rate", "acceleration"};
    double values[3];
    for (int i = 0; i < 3; i++) {
        char *end = NULL;
        values[i] = i < k ? strtod(fields[i], &end) : NAN;
        if (i >= k || end == fields[i] || *end != '\0' || !isfinite(values[i])) {
            pb_diag_set(diag, name, (int)line_no, 0, "column %d (%s) must be a finite number", i + 1,
                        rate_columns ? rate_names[i] : kinematic_names[i]);
            return false;
        }
    }
    if (rate_columns) {
        *row = (pb_vehicle_input_row){.t = values[0],
                                      .input = {.acceleration = values[2],
                                                .steer_rate = values[1],
                                                .gear = PB_GEAR_DRIVE,
                                                .signal = PB_SIGNAL_NONE}};
        return true;
    }
    const int gear = k > 3 ? pb_gear_from_name(fields[3]) : PB_GEAR_DRIVE;
    const int signal = k > 4 ? pb_turn_signal_from_name(fields[4]) : PB_SIGNAL_NONE;
    if (gear < 0 || signal < 0) {
        pb_diag_set(diag, name, (int)line_no, 0,
                    gear < 0 ? "column 4: unknown gear '%.80s' (PARKING, REVERSE, NEUTRAL, DRIVE)"
                             : "column 5: unknown signal '%.80s' (NONE, LEFT, RIGHT, HAZARD)",
                    gear < 0 ? fields[3] : fields[4]);
        return false;
    }
    *row = (pb_vehicle_input_row){.t = values[0],
                                  .input = {.acceleration = values[1],
                                            .steer_angle = values[2],
                                            .gear = (pb_gear)gear,
                                            .signal = (pb_turn_signal)signal}};
    return true;
}

pb_status pb_vehicle_inputs_parse(const char *text, size_t size, const char *name, bool rate_columns,
                                  pb_vehicle_input_row **rows_out, size_t *n_out, pb_diag *diag)
{
    *rows_out = NULL;
    *n_out = 0;
    char *copy = malloc(size + 1);
    if (!copy) {
        pb_diag_set(diag, name, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    memcpy(copy, text, size);
    copy[size] = '\0';
    if (strlen(copy) != size) {
        free(copy);
        pb_diag_set(diag, name, 0, 0, "not a text file (a NUL byte)");
        return PB_ERR_INVALID;
    }
    pb_vehicle_input_row *rows = NULL;
    size_t n = 0, cap = 0, line_no = 0;
    pb_status st = PB_OK;
    for (char *line = copy, *next; line && *line && st == PB_OK; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (++line_no == 1 || line[0] == '\0' || line[0] == '#')
            continue; /* the header */
        pb_vehicle_input_row row;
        if (!parse_row(line, line_no, name, rate_columns, &row, diag)) {
            st = PB_ERR_INVALID;
        } else if (n > 0 && !(row.t > rows[n - 1].t)) {
            pb_diag_set(diag, name, (int)line_no, 0, "column 1: t %g does not increase", row.t);
            st = PB_ERR_INVALID;
        } else if (n == cap) {
            const size_t grown_cap = cap ? 2 * cap : 64;
            pb_vehicle_input_row *grown = realloc(rows, grown_cap * sizeof *grown);
            if (!grown) {
                pb_diag_set(diag, name, 0, 0, "out of memory");
                st = PB_ERR_NOMEM;
            } else {
                rows = grown;
                cap = grown_cap;
            }
        }
        if (st == PB_OK)
            rows[n++] = row;
    }
    free(copy);
    if (st == PB_OK && n == 0) {
        pb_diag_set(diag, name, 0, 0, "no input rows (after the header line)");
        st = PB_ERR_INVALID;
    }
    if (st != PB_OK) {
        free(rows);
        return st;
    }
    *rows_out = rows;
    *n_out = n;
    return PB_OK;
}

pb_status pb_vehicle_inputs_load(const char *path, bool rate_columns, pb_vehicle_input_row **rows, size_t *n,
                                 pb_diag *diag)
{
    *rows = NULL;
    *n = 0;
    char *text = NULL;
    size_t size = 0;
    pb_status st = pb_file_read_all(path, 64u << 20, &text, &size, diag);
    if (st == PB_OK)
        st = pb_vehicle_inputs_parse(text, size, path, rate_columns, rows, n, diag);
    free(text);
    return st;
}
