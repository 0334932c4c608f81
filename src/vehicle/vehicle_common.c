/* What the vehicle models share (vehicle_model.h): clamping, the heading's wrap, the turn
 * signal's blink phase and AWSIM's sleep rule. */
#include "vehicle_model.h"

#include <math.h>

double pb_vm_clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* `a` in [-pi, pi), unchanged (bit for bit) when it already is. */
double pb_vm_wrap(double a)
{
    if (a >= -M_PI && a < M_PI)
        return a;
    a = fmod(a + M_PI, 2 * M_PI);
    if (a < 0)
        a += 2 * M_PI;
    return a - M_PI;
}

void pb_vm_signal(pb_vehicle_state *s, const pb_vehicle_input *in, double dt)
{
    if (in->signal != s->signal)
        s->blink_time = 0.0;
    else
        s->blink_time += dt;
    s->signal = in->signal;
}

void pb_vm_sleep_rule(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in,
                      double a_in, double dt)
{
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    const bool can_sleep = in->gear == PB_GEAR_NEUTRAL || ((drive || reverse) && a_in <= 0);
    if (!s->sleeping && can_sleep && fabs(s->v) < c->sleep_velocity) {
        s->still_time += dt;
        if (s->still_time >= c->sleep_time * (1 - 1e-9)) {
            s->sleeping = true;
            s->v = 0.0;
        }
    } else if (!s->sleeping) {
        s->still_time = 0.0;
    }
}

bool pb_vm_gear_rules(pb_vehicle_state *s, const pb_vehicle_input *in, double a_in)
{
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    bool moving = true;
    if (in->gear == PB_GEAR_PARKING) { /* holds the pose; asleep at once */
        s->v = 0.0;
        s->sleeping = true;
        moving = false;
    } else if (s->sleeping) {
        if ((drive || reverse) && a_in > 0) {
            s->sleeping = false;
            s->still_time = 0.0;
        } else {
            moving = false;
        }
    }
    /* never against the gear: a vehicle moving the other way stops at once */
    if ((drive && s->v < 0) || (reverse && s->v > 0))
        s->v = 0.0;
    return moving;
}
