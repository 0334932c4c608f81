/* The vehicle models' table (private to src/vehicle): one file per model, pb_vehicle_step()
 * dispatches through the config's model. What every model shares is here too. */
#ifndef PB_VEHICLE_MODEL_H
#define PB_VEHICLE_MODEL_H

#include "planbench/vehicle.h"

struct pb_vehicle_model {
    const char *name;
    /* One step of `dt` seconds under `in` (include/planbench/vehicle.h's rules for its model). */
    void (*step)(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in, double dt);
};

extern const pb_vehicle_model pb_vehicle_model_kinematic, pb_vehicle_model_delay, pb_vehicle_model_dynamic,
    pb_vehicle_model_commonroad_ks;

double pb_vm_clamp(double v, double lo, double hi);
/* An angle in [-pi, pi), unchanged (bit for bit) when it already is. */
double pb_vm_wrap(double a);
/* The turn signal and its blink phase after a step. */
void pb_vm_signal(pb_vehicle_state *s, const pb_vehicle_input *in, double dt);
/* The gear rules at a step's start, under an acceleration input `a_in`: PARKING holds the pose
 * and sleeps, a sleeping vehicle wakes only under a > 0 in DRIVE or REVERSE, a vehicle moving
 * against its gear stops at once. Whether it may move this step. */
bool pb_vm_gear_rules(pb_vehicle_state *s, const pb_vehicle_input *in, double a_in);
/* AWSIM's sleep rule after a step whose acceleration input was `a_in`. */
void pb_vm_sleep_rule(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in,
                      double a_in, double dt);

#endif
