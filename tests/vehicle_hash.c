/* The vehicle models' trajectories as hashes (issue 18, ../shared/spec/vehicles-scenarios.md
 * test 9: "trajectory hash identical at -O0 and -O3"): every model drives a mixed input sequence
 * (accelerating, steering both ways, braking through zero into reverse, neutral, parking) from
 * the default vehicle, and the bits of every state after every step go into an FNV-1a hash,
 * printed one line per model. tests/meson.build builds this program three times, against the
 * models compiled at -O0, at -O3 and as the library is, and vehicle_hash_compare.sh requires
 * the same lines from all three. */
#include "planbench/vehicle.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t mix(uint64_t h, double v)
{
    unsigned char bytes[sizeof v];
    memcpy(bytes, &v, sizeof v);
    for (size_t i = 0; i < sizeof v; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

int main(void)
{
    static const char *const models[] = {"kinematic", "delay", "dynamic", "commonroad_ks"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        pb_vehicle_config c = pb_vehicle_config_default();
        c.model = pb_vehicle_model_find(models[m]);
        if (!c.model) {
            fprintf(stderr, "vehicle_hash: no model %s\n", models[m]);
            return 1;
        }
        pb_vehicle_state s = pb_vehicle_state_at(1.0, -2.0, 3.0);
        uint64_t h = 0xcbf29ce484222325ull;
        for (int k = 0; k < 6000; k++) {
            const double t = k * 0.01;
            pb_vehicle_input in = {.gear = PB_GEAR_DRIVE, .signal = PB_SIGNAL_LEFT};
            in.acceleration = t < 8 ? 2.5 : t < 20 ? -3.0 : t < 30 ? 1.5 : -4.0;
            in.steer_angle = 0.5 * (t < 10 ? 1.0 : t < 25 ? -1.0 : 0.3);
            in.steer_rate = t < 10 ? 0.3 : -0.3;
            if (t >= 20 && t < 35)
                in.gear = PB_GEAR_REVERSE;
            else if (t >= 35 && t < 45)
                in.gear = PB_GEAR_NEUTRAL;
            else if (t >= 55)
                in.gear = PB_GEAR_PARKING;
            pb_vehicle_step(&c, &s, &in, 0.01);
            const double v[] = {s.x,
                                s.y,
                                s.yaw,
                                s.v,
                                s.steer,
                                s.acceleration,
                                s.angular_velocity,
                                s.lateral_velocity,
                                (double)s.gear};
            for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
                h = mix(h, v[i]);
        }
        printf("%s %016llx\n", models[m], (unsigned long long)h);
    }
    return 0;
}
