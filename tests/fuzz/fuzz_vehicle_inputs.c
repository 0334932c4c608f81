/* Fuzz target for the inputs CSV reader (pb_vehicle_inputs_parse(), src/vehicle/vehicle_inputs.c;
 * planbench simulate's --inputs and a scenario's inputs driver): any bytes either read as rows of
 * finite values and strictly increasing t with known gears and signals, or fail with a one-line
 * message naming the input. The first byte picks the column layout. */
#include "planbench/vehicle.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bool rate_columns = size > 0 && data[0] == 's'; /* "steer_rate..." headers */
    pb_vehicle_input_row *rows = NULL;
    size_t n = 0;
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    const pb_status st =
        pb_vehicle_inputs_parse((const char *)data, size, "fuzz.csv", rate_columns, &rows, &n, &diag);
    if (st != PB_OK) {
        if (rows || n || diag.message[0] == '\0' || strchr(diag.message, '\n') != NULL)
            abort();
        return 0;
    }
    if (n == 0)
        abort();
    for (size_t i = 0; i < n; i++) {
        const pb_vehicle_input *in = &rows[i].input;
        if (!isfinite(rows[i].t) || !isfinite(in->acceleration) || !isfinite(in->steer_angle) ||
            !isfinite(in->steer_rate) || (unsigned)in->gear >= PB_GEAR_COUNT ||
            (unsigned)in->signal > PB_SIGNAL_HAZARD)
            abort();
        if (i > 0 && !(rows[i].t > rows[i - 1].t))
            abort();
    }
    free(rows);
    return 0;
}
