/* The vehicle model's step rate (issue 18): steps per second of pb_vehicle_step on the Lexus
 * under a changing input (accelerate, steer, brake to a stop, reverse, coast, park), one core.
 * The model only: the footprint's sweep against a map (the "validated" steps) comes
 * with the simulation's vehicles. Prints the figure and a checksum of the final state (the
 * same bits at -O0 and -O3).
 *
 *   bench_vehicle [STEPS]      (default 2000000) */
#include "planbench/planbench.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const uint64_t n_steps = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    const pb_vehicle_config c = pb_vehicle_config_default();
    static const pb_vehicle_input phases[] = {
        {3.0, 0.3, PB_GEAR_DRIVE, PB_SIGNAL_LEFT, 0.0},    {0.0, -0.2, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},
        {-4.0, 0.0, PB_GEAR_DRIVE, PB_SIGNAL_NONE, 0.0},   {2.0, 0.4, PB_GEAR_REVERSE, PB_SIGNAL_HAZARD, 0.0},
        {-3.0, 0.0, PB_GEAR_REVERSE, PB_SIGNAL_NONE, 0.0}, {0.0, 0.1, PB_GEAR_NEUTRAL, PB_SIGNAL_RIGHT, 0.0},
        {0.0, 0.0, PB_GEAR_PARKING, PB_SIGNAL_NONE, 0.0},
    };
    const size_t n_phases = sizeof phases / sizeof phases[0];
    pb_vehicle_state s = pb_vehicle_state_at(0, 0, 0);
    const double t0 = pb_clock_seconds();
    uint64_t steps = 0;
    for (; steps < n_steps; steps++)
        pb_vehicle_step(&c, &s, &phases[(steps / 300) % n_phases], 0.01);
    const double elapsed = pb_clock_seconds() - t0;
    uint64_t bits[3];
    memcpy(&bits[0], &s.x, 8);
    memcpy(&bits[1], &s.y, 8);
    memcpy(&bits[2], &s.yaw, 8);
    printf("bench_vehicle %llu: %llu steps of 0.01 s in %.3f s: %.3g steps/s (%.3g x real time); final state "
           "checksum %016llx\n",
           (unsigned long long)n_steps, (unsigned long long)steps, elapsed, (double)steps / elapsed,
           (double)steps / elapsed * 0.01, (unsigned long long)(bits[0] ^ (bits[1] * 3) ^ (bits[2] * 7)));
    return 0;
}
