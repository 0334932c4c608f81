/* Fuzz target for the reader of <vehicle> files (src/vehicle/vehicle_file.c, issue 18): any
 * bytes either describe a vehicle that passes pb_vehicle_config_check() or fail with a
 * one-line message naming the file; a vehicle that reads drives a few steps of every gear
 * without a non-finite state. */
#include "planbench/vehicle.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pb_vehicle_config c;
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    const pb_status st = pb_vehicle_parse(&c, (const char *)data, size, "fuzz.xml", &diag);
    if (st != PB_OK) {
        if (st > 0 || diag.message[0] == '\0' || strchr(diag.message, '\n') != NULL)
            abort();
        return 0;
    }
    if (pb_vehicle_config_check(&c, NULL) != PB_OK)
        abort();
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    for (int g = 0; g < PB_GEAR_COUNT; g++) {
        const pb_vehicle_input in = {.acceleration = c.max_acceleration,
                                     .steer_angle = c.max_steer,
                                     .gear = (pb_gear)g,
                                     .signal = PB_SIGNAL_LEFT};
        for (int k = 0; k < 20; k++)
            pb_vehicle_step(&c, &s, &in, 0.05);
        if (!isfinite(s.x) || !isfinite(s.y) || !isfinite(s.yaw) || !isfinite(s.v) || s.v > c.max_speed ||
            s.v < c.min_speed)
            abort();
    }
    return 0;
}
