/* The vehicle model (see include/planbench/vehicle.h): the kinematic single-track model with
 * AWSIM's gear and sleep rules, every speed and steer event solved inside the step.
 *
 * A step is cut into phases at the events it holds (the steer reaching its input, the speed
 * reaching 0 against the gear or a speed limit); within a phase the acceleration and the steer
 * rate are constant, so the speed is linear and the events of the next phase are exact. A
 * phase of constant speed and steer is an exact circular arc (or a straight line); any other
 * is integrated by RK4 in PHASE_SUBSTEPS sub-steps (exact for the straight line under
 * constant acceleration, whose position is quadratic in time). */
#include "planbench/vehicle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* RK4 sub-steps of a phase whose speed or steer changes. */
#define PHASE_SUBSTEPS 8

pb_vehicle_config pb_vehicle_config_default(void)
{
    return (pb_vehicle_config){.length = 4.89,
                               .width = 1.896,
                               .rear_overhang = 1.1,
                               .wheelbase = 2.79,
                               .tread = 1.8,
                               .wheel_radius = 0.365,
                               .mass = 1500.0,
                               .max_steer = 35.0 * M_PI / 180.0,
                               .max_steer_rate = 0.0,
                               .max_acceleration = 10.0,
                               .min_speed = -5.0,
                               .max_speed = 30.0,
                               .sleep_velocity = 0.02,
                               .sleep_time = 0.5};
}

pb_status pb_vehicle_config_check(const pb_vehicle_config *c, pb_diag *diag)
{
    const struct {
        const char *name;
        double value;
        bool ok;
    } rules[] = {
        {"wheelbase", c->wheelbase, c->wheelbase > 0},
        {"length", c->length, c->length > 0},
        {"width", c->width, c->width > 0},
        {"rear_overhang", c->rear_overhang, c->rear_overhang >= 0 && c->rear_overhang <= c->length},
        {"max_steer", c->max_steer, c->max_steer > 0 && c->max_steer < M_PI / 2},
        {"max_steer_rate", c->max_steer_rate, c->max_steer_rate >= 0},
        {"max_acceleration", c->max_acceleration, c->max_acceleration > 0},
        {"min_speed", c->min_speed, c->min_speed <= 0},
        {"max_speed", c->max_speed, c->max_speed >= 0},
        {"sleep_velocity", c->sleep_velocity, c->sleep_velocity >= 0},
        {"sleep_time", c->sleep_time, c->sleep_time >= 0},
        {"tread", c->tread, c->tread >= 0},
        {"wheel_radius", c->wheel_radius, c->wheel_radius >= 0},
        {"mass", c->mass, c->mass >= 0},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!rules[i].ok || !isfinite(rules[i].value)) {
            pb_diag_set_option(
                diag, rules[i].name, "%g is out of range (%s)", rules[i].value,
                strcmp(rules[i].name, "max_steer") == 0       ? "0 < max_steer < pi/2"
                : strcmp(rules[i].name, "rear_overhang") == 0 ? "0 <= rear_overhang <= length"
                : strcmp(rules[i].name, "min_speed") == 0     ? "min_speed <= 0"
                : strcmp(rules[i].name, "wheelbase") == 0 || strcmp(rules[i].name, "length") == 0 ||
                        strcmp(rules[i].name, "width") == 0 || strcmp(rules[i].name, "max_acceleration") == 0
                    ? "positive"
                    : "not negative");
            return PB_ERR_INVALID;
        }
    return PB_OK;
}

pb_vehicle_state pb_vehicle_state_at(double x, double y, double yaw)
{
    return (pb_vehicle_state){.x = x, .y = y, .yaw = yaw, .gear = PB_GEAR_PARKING, .sleeping = true};
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* `a` in [-pi, pi), unchanged (bit for bit) when it already is. */
static double wrap(double a)
{
    if (a >= -M_PI && a < M_PI)
        return a;
    a = fmod(a + M_PI, 2 * M_PI);
    if (a < 0)
        a += 2 * M_PI;
    return a - M_PI;
}

/* sin(h) / h, accurate near 0. */
static double sinc(double h)
{
    return fabs(h) < 1e-4 ? 1.0 - h * h / 6.0 + h * h * h * h / 120.0 : sin(h) / h;
}

/* Move (x, y, yaw) for time T with speed v0 + a t and steer s0 + r t. */
static void integrate(double wheelbase, double *x, double *y, double *yaw, double v0, double a, double s0,
                      double r, double T)
{
    if (!(T > 0))
        return;
    if (a == 0 && r == 0) { /* an arc: chord 2 sin(th/2) / k along yaw + th/2 */
        const double d = v0 * T, th = d * tan(s0) / wheelbase;
        const double chord = d * sinc(th / 2);
        *x += chord * cos(*yaw + th / 2);
        *y += chord * sin(*yaw + th / 2);
        *yaw += th;
        return;
    }
    const double h = T / PHASE_SUBSTEPS;
    for (int i = 0; i < PHASE_SUBSTEPS; i++) {
        const double t = i * h;
        /* the derivative depends on time and yaw only */
        const double va = v0 + a * t, vm = v0 + a * (t + h / 2), vb = v0 + a * (t + h);
        const double wa = va * tan(s0 + r * t) / wheelbase, wm = vm * tan(s0 + r * (t + h / 2)) / wheelbase,
                     wb = vb * tan(s0 + r * (t + h)) / wheelbase;
        const double y1 = *yaw, y2 = *yaw + h / 2 * wa, y3 = *yaw + h / 2 * wm, y4 = *yaw + h * wm;
        *x += h / 6 * (va * cos(y1) + 2 * vm * cos(y2) + 2 * vm * cos(y3) + vb * cos(y4));
        *y += h / 6 * (va * sin(y1) + 2 * vm * sin(y2) + 2 * vm * sin(y3) + vb * sin(y4));
        *yaw += h / 6 * (wa + 4 * wm + wb);
    }
}

void pb_vehicle_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in, double dt)
{
    const double v_start = s->v;
    const double a_in =
        clamp(isfinite(in->acceleration) ? in->acceleration : 0.0, -c->max_acceleration, c->max_acceleration);
    const double target =
        clamp(isfinite(in->steer_angle) ? in->steer_angle : s->steer, -c->max_steer, c->max_steer);
    if (in->signal != s->signal)
        s->blink_time = 0.0;
    else
        s->blink_time += dt;
    s->signal = in->signal;
    s->gear = in->gear;
    const bool drive = in->gear == PB_GEAR_DRIVE, reverse = in->gear == PB_GEAR_REVERSE;
    /* the force the gear applies: REVERSE drives backwards under a positive input */
    const double a_gear = drive ? a_in : reverse ? -a_in : 0.0;
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
    double t = 0.0;
    for (int phase = 0; phase < 8 && t < dt; phase++) {
        /* this phase's steer rate, and when the steer reaches its input */
        double r = 0.0, t_end = dt;
        if (s->steer != target) {
            if (c->max_steer_rate > 0) {
                r = target > s->steer ? c->max_steer_rate : -c->max_steer_rate;
                const double reach = t + (target - s->steer) / r;
                if (reach < t_end)
                    t_end = reach;
            } else {
                s->steer = target; /* at once */
            }
        }
        /* this phase's acceleration, and when the speed meets 0 (against the gear) or a limit */
        double a = moving ? a_gear : 0.0, v_event = 0.0;
        bool speed_event = false;
        if (a != 0) {
            double bound;
            bool has = false;
            if (a < 0) {
                bound = drive ? 0.0 : c->min_speed;
                has = s->v > bound;
                if (!has)
                    a = 0.0; /* at 0 in DRIVE or at min_speed: held */
            } else {
                bound = reverse ? 0.0 : c->max_speed;
                has = s->v < bound;
                if (!has)
                    a = 0.0;
            }
            if (has) {
                const double reach = t + (bound - s->v) / a;
                if (reach < t_end) {
                    t_end = reach;
                    speed_event = true;
                    v_event = bound;
                }
            }
        }
        const double T = t_end - t;
        if (moving)
            integrate(c->wheelbase, &s->x, &s->y, &s->yaw, s->v, a, s->steer, r, T);
        s->v = speed_event ? v_event : s->v + a * T;
        s->steer = r != 0 && t_end < dt ? target : clamp(s->steer + r * T, -c->max_steer, c->max_steer);
        t = t_end;
    }
    s->yaw = wrap(s->yaw);
    /* AWSIM's sleep rule */
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
    s->acceleration = (s->v - v_start) / dt;
    s->angular_velocity = s->v * tan(s->steer) / c->wheelbase;
    s->time += dt;
}

bool pb_vehicle_signal_lit(const pb_vehicle_state *s)
{
    return s->signal != PB_SIGNAL_NONE && fmod(s->blink_time, 1.0) < 0.5;
}

static const char *const gear_names[PB_GEAR_COUNT] = {"PARKING", "REVERSE", "NEUTRAL", "DRIVE"};
static const char *const signal_names[PB_SIGNAL_COUNT] = {"NONE", "LEFT", "RIGHT", "HAZARD"};

const char *pb_gear_name(pb_gear gear)
{
    return gear < PB_GEAR_COUNT ? gear_names[gear] : "?";
}

int pb_gear_from_name(const char *name)
{
    static const struct {
        const char *code;
        pb_gear gear;
    } autoware[] = {
        {"22", PB_GEAR_PARKING}, {"20", PB_GEAR_REVERSE}, {"1", PB_GEAR_NEUTRAL}, {"2", PB_GEAR_DRIVE}};
    for (int g = 0; name && g < PB_GEAR_COUNT; g++)
        if (strcmp(name, gear_names[g]) == 0)
            return g;
    for (size_t k = 0; name && k < sizeof autoware / sizeof autoware[0]; k++)
        if (strcmp(name, autoware[k].code) == 0)
            return (int)autoware[k].gear;
    return -1;
}

const char *pb_turn_signal_name(pb_turn_signal signal)
{
    return signal < PB_SIGNAL_COUNT ? signal_names[signal] : "?";
}

int pb_turn_signal_from_name(const char *name)
{
    for (int k = 0; name && k < PB_SIGNAL_COUNT; k++)
        if (strcmp(name, signal_names[k]) == 0)
            return k;
    return -1;
}
