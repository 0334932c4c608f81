/* The vehicle (see include/planbench/vehicle.h): its description, the one step function that
 * dispatches to the model (one file per model: model_kinematic.c, model_delay.c,
 * model_dynamic.c, model_commonroad_ks.c), what the models share (the turn signal, AWSIM's sleep
 * rule), and the names of gears and signals. */
#include "planbench/vehicle.h"
#include "vehicle_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
                               .sleep_time = 0.5,
                               /* Autoware simple_planning_simulator's defaults (README table) */
                               .acceleration_time_delay = 0.1,
                               .acceleration_time_constant = 0.1,
                               .steer_time_delay = 0.24,
                               .steer_time_constant = 0.27,
                               .cornering_stiffness_front = 17000.0,
                               .cornering_stiffness_rear = 20000.0,
                               .inertia_z = 2170.0,
                               .cg_to_front = 1.228,
                               .v_switch = 7.319};
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
        {"acceleration_time_delay", c->acceleration_time_delay, c->acceleration_time_delay >= 0},
        {"acceleration_time_constant", c->acceleration_time_constant, c->acceleration_time_constant >= 0},
        {"steer_time_delay", c->steer_time_delay, c->steer_time_delay >= 0},
        {"steer_time_constant", c->steer_time_constant, c->steer_time_constant >= 0},
        {"cornering_stiffness_front", c->cornering_stiffness_front, c->cornering_stiffness_front > 0},
        {"cornering_stiffness_rear", c->cornering_stiffness_rear, c->cornering_stiffness_rear > 0},
        {"inertia_z", c->inertia_z, c->inertia_z > 0},
        {"cg_to_front", c->cg_to_front, c->cg_to_front > 0 && c->cg_to_front < c->wheelbase},
        {"v_switch", c->v_switch, c->v_switch > 0},
    };
    /* commonroad_ks's input is the steer's rate: it needs a bound on it */
    if (c->model == &pb_vehicle_model_commonroad_ks && !(c->max_steer_rate > 0)) {
        pb_diag_set_option(diag, "max_steer_rate",
                           "commonroad_ks needs max_steer_rate > 0 (its steering velocity limit)");
        return PB_ERR_INVALID;
    }
    if (c->model == &pb_vehicle_model_delay &&
        (c->acceleration_time_delay > 10.0 || c->steer_time_delay > 10.0)) {
        pb_diag_set_option(
            diag, c->acceleration_time_delay > 10.0 ? "acceleration_time_delay" : "steer_time_delay",
            "at most 10 s (and at most %d steps of the step size in use)", PB_VEHICLE_MAX_DELAY_STEPS - 1);
        return PB_ERR_INVALID;
    }
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!rules[i].ok || !isfinite(rules[i].value)) {
            pb_diag_set_option(
                diag, rules[i].name, "%g is out of range (%s)", rules[i].value,
                strcmp(rules[i].name, "max_steer") == 0       ? "0 < max_steer < pi/2"
                : strcmp(rules[i].name, "rear_overhang") == 0 ? "0 <= rear_overhang <= length"
                : strcmp(rules[i].name, "min_speed") == 0     ? "min_speed <= 0"
                : strcmp(rules[i].name, "cg_to_front") == 0   ? "0 < cg_to_front < wheelbase"
                : strcmp(rules[i].name, "wheelbase") == 0 || strcmp(rules[i].name, "length") == 0 ||
                        strcmp(rules[i].name, "width") == 0 ||
                        strcmp(rules[i].name, "max_acceleration") == 0 ||
                        strncmp(rules[i].name, "cornering", 9) == 0 ||
                        strcmp(rules[i].name, "inertia_z") == 0 || strcmp(rules[i].name, "v_switch") == 0
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

void pb_vehicle_step(const pb_vehicle_config *c, pb_vehicle_state *s, const pb_vehicle_input *in, double dt)
{
    (c->model ? c->model : &pb_vehicle_model_kinematic)->step(c, s, in, dt);
}

static const pb_vehicle_model *const models[] = {&pb_vehicle_model_kinematic, &pb_vehicle_model_delay,
                                                 &pb_vehicle_model_dynamic, &pb_vehicle_model_commonroad_ks};

const pb_vehicle_model *pb_vehicle_model_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}

const char *pb_vehicle_model_name(const pb_vehicle_model *model)
{
    return model ? model->name : pb_vehicle_model_kinematic.name;
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
