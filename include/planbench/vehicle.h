/* planbench: a vehicle driven by acceleration, steer angle and gear (AWSIM's ego vehicle),
 * as one deterministic step function that the simulation and the planners share (issue 18).
 *
 * The kinematic model (Autoware's IDEAL_STEER_ACC_GEARED): a bicycle whose reference point is
 * the rear axle's centre, state (x, y, yaw, v, steer); yaw rate v tan(steer) / wheelbase. SI
 * units, angles in radians, ROS signs (steer positive = left, yaw counter-clockwise).
 *
 * A step of `dt` seconds with inputs held:
 *   - the steer angle moves towards the input (clamped to +-max_steer) at most max_steer_rate
 *     rad/s (at once when max_steer_rate is 0);
 *   - the acceleration input is clamped to +-max_acceleration; DRIVE applies it, REVERSE
 *     applies its negative (positive input drives backwards, as AWSIM), NEUTRAL and PARKING
 *     apply no force;
 *   - the vehicle never moves against its gear: in DRIVE v stays >= 0, in REVERSE <= 0. When the
 *     speed reaches 0 inside the step the crossing time is solved and the vehicle stops there,
 *     exactly (AWSIM overshoots by one step); a vehicle moving against a gear just engaged stops
 *     at once. The speed also stops at min_speed and max_speed, at the exact crossing time;
 *   - PARKING holds the pose and sleeps at once;
 *   - AWSIM's sleep rule: after sleep_time seconds with |v| below sleep_velocity under an
 *     input that cannot move it (acceleration <= 0 in DRIVE or REVERSE, anything in NEUTRAL),
 *     the vehicle sleeps: v = 0, pose pinned; an acceleration > 0 in DRIVE or REVERSE wakes it;
 *   - position and yaw: the exact arc while the speed and the steer are constant within a
 *     phase, RK4 otherwise (compiled with -ffp-contract=off: the same bits at -O0 and -O3). */
#ifndef PLANBENCH_VEHICLE_H
#define PLANBENCH_VEHICLE_H

#include "base.h"
#include "engine.h"
#include "steering.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Gears, as AWSIM names them. */
typedef enum pb_gear {
    PB_GEAR_PARKING,
    PB_GEAR_REVERSE,
    PB_GEAR_NEUTRAL,
    PB_GEAR_DRIVE,
    PB_GEAR_COUNT
} pb_gear;

/** Turn signals. */
typedef enum pb_turn_signal {
    PB_SIGNAL_NONE,
    PB_SIGNAL_LEFT,
    PB_SIGNAL_RIGHT,
    PB_SIGNAL_HAZARD,
    PB_SIGNAL_COUNT
} pb_turn_signal;

/** A vehicle model: the step function behind pb_vehicle_step() (docs/vehicles.md, "Models").
 * Opaque; find one by name with pb_vehicle_model_find(). */
typedef struct pb_vehicle_model pb_vehicle_model;

/** Most model steps a delay model's dead time spans (its FIFO lives in the state). */
#define PB_VEHICLE_MAX_DELAY_STEPS 32

/** A vehicle's description. Start from pb_vehicle_config_default() (AWSIM's Lexus RX450h). */
typedef struct pb_vehicle_config {
    double length, width;        /**< footprint, metres */
    double rear_overhang;        /**< rear bumper to rear axle, metres */
    double wheelbase;            /**< rear axle to front axle, metres, > 0 */
    double tread;                /**< wheel track, metres */
    double wheel_radius;         /**< metres */
    double mass;                 /**< kg */
    double max_steer;            /**< front-wheel angle, radians, in (0, pi/2) */
    double max_steer_rate;       /**< radians per second; 0: the steer follows its input at once */
    double max_acceleration;     /**< m/s^2, > 0 */
    double min_speed, max_speed; /**< m/s, min_speed <= 0 <= max_speed */
    double sleep_velocity;       /**< m/s: below it the vehicle may fall asleep */
    double sleep_time;           /**< seconds below sleep_velocity before it sleeps */
    /** The model (NULL: kinematic). Borrowed from the library's static tables. */
    const pb_vehicle_model *model;
    /* the delay model (Autoware's DELAY_STEER_ACC_GEARED): dead times and first-order lags */
    double acceleration_time_delay;    /**< seconds (default 0.1) */
    double acceleration_time_constant; /**< seconds (default 0.1) */
    double steer_time_delay;           /**< seconds (default 0.24) */
    double steer_time_constant;        /**< seconds (default 0.27) */
    /* the dynamic model (a single track with linear tyres, Autoware's defaults) */
    double cornering_stiffness_front; /**< N/rad (default 17000) */
    double cornering_stiffness_rear;  /**< N/rad (default 20000) */
    double inertia_z;                 /**< kg m^2 (default 2170) */
    double cg_to_front; /**< metres from the centre of gravity to the front axle (default 1.228) */
    /* commonroad_ks (CommonRoad's kinematic single track): the switching speed of its
     * acceleration limit (a_max v_switch / v above it); max_steer_rate bounds the steer rate */
    double v_switch; /**< m/s (default 7.319, CommonRoad's vehicles) */
} pb_vehicle_config;

/** A model by name: "kinematic", "delay", "dynamic", "commonroad_ks"; NULL for another. */
PB_API const pb_vehicle_model *pb_vehicle_model_find(const char *name);
/** The model's name ("kinematic" for NULL). */
PB_API const char *pb_vehicle_model_name(const pb_vehicle_model *model);

/** AWSIM's Lexus RX450h: footprint 4.89 x 1.896 m, rear overhang 1.1 m, wheelbase 2.79 m (the
 * value AWSIM's code uses, 2.787877 m rounded; its documentation says 2.5 m), tread 1.8 m,
 * wheel radius 0.365 m, 1500 kg, max steer 35 degrees, steer rate unlimited, acceleration 10
 * m/s^2, speeds -5 .. 30 m/s, sleep below 0.02 m/s for 0.5 s. */
PB_API pb_vehicle_config pb_vehicle_config_default(void);

/** Read a `<vehicle>` file (docs/vehicles.md) into `*out`: fields not given keep
 * pb_vehicle_config_default()'s values. PB_ERR_IO for a file that cannot be read,
 * PB_ERR_INVALID naming the file, line and field (`diag->option`) otherwise;
 * PB_ERR_UNSUPPORTED in a build without libxml2. */
PB_API pb_status pb_vehicle_load(pb_vehicle_config *out, const char *path, pb_diag *diag);

/** The same from `data` (`size` bytes) held in memory; `path` names it in messages (data NULL:
 * read the file `path`). */
PB_API pb_status pb_vehicle_parse(pb_vehicle_config *out, const char *data, size_t size, const char *path,
                                  pb_diag *diag);

/** Check a description: one sentence naming the field at fault in `diag`, PB_ERR_INVALID. */
PB_API pb_status pb_vehicle_config_check(const pb_vehicle_config *config, pb_diag *diag);

/** The inputs, held for a step. */
typedef struct pb_vehicle_input {
    double acceleration; /**< m/s^2 (clamped to +-max_acceleration) */
    double steer_angle;  /**< radians, positive left (clamped to +-max_steer) */
    pb_gear gear;
    pb_turn_signal signal;
    /** rad/s: commonroad_ks's input in place of steer_angle (its steering velocity) */
    double steer_rate;
} pb_vehicle_input;

/** The state and the outputs. Start from pb_vehicle_state_at(). */
typedef struct pb_vehicle_state {
    double x, y, yaw;        /**< the rear axle's centre, heading (radians, wrapped to [-pi, pi)) */
    double v;                /**< signed speed along the heading, m/s */
    double steer;            /**< front-wheel angle, radians */
    double acceleration;     /**< the acceleration realised in the last step (dv / dt), m/s^2 */
    double angular_velocity; /**< yaw rate at the end of the last step, rad/s */
    pb_gear gear;
    pb_turn_signal signal;
    bool sleeping;
    double still_time; /**< seconds spent asleep-able (see the sleep rule) */
    double time;       /**< seconds since the start */
    double blink_time; /**< seconds since the signal last changed: its blink phase (0.5 s) */
    /* the models' own states */
    double lateral_velocity; /**< dynamic: the centre of gravity's lateral velocity in the body frame, m/s */
    double actual_acceleration; /**< delay: the lagged acceleration the vehicle realises, m/s^2 */
    double delay_acceleration[PB_VEHICLE_MAX_DELAY_STEPS]; /**< delay: the acceleration inputs in flight */
    double delay_steer[PB_VEHICLE_MAX_DELAY_STEPS];        /**< delay: the steer inputs in flight */
    int delay_head;                                        /**< delay: the FIFOs' next slot */
} pb_vehicle_state;

/** A vehicle at rest at (x, y, yaw) in PARKING, steer 0. */
PB_API pb_vehicle_state pb_vehicle_state_at(double x, double y, double yaw);

/** Advance `state` by `dt` seconds (> 0) under `input` (see the header's rules). Pure:
 * the same inputs give the same bits. */
PB_API void pb_vehicle_step(const pb_vehicle_config *config, pb_vehicle_state *state,
                            const pb_vehicle_input *input, double dt);

/* ---- The vehicle on a map ---- */

/** The vehicle's footprint as a planar obstacle shape: the rectangle `length` x `width` whose
 * pose is the rear axle's centre (PB_FOOTPRINT_RECT with `offset` = length / 2 -
 * rear_overhang). */
PB_API pb_footprint pb_vehicle_footprint(const pb_vehicle_config *config);

/** The distance from the rear axle's centre to the footprint's farthest corner, metres. */
PB_API double pb_vehicle_reach(const pb_vehicle_config *config);

/** The least turning radius of the reference point: wheelbase / tan(max_steer), metres. */
PB_API double pb_vehicle_turning_radius(const pb_vehicle_config *config);

/** pb_vehicle_step() validated against `engine` (an image map in any frame, or the car
 * engine): the footprint is swept along the step's motion, certified (pb_engine_sweep()),
 * against the map and every obstacle but `ignore_id`. Free: the same state as
 * pb_vehicle_step() gives, and true. On contact the vehicle stops at the last certified-free
 * pose of the step (its time still advances by dt), with v = 0 and the acceleration that
 * stopped it, and false; `*hit` (may be NULL) says what it touched. An engine that cannot
 * sweep (PB_ERR_UNSUPPORTED) or a start that is already blocked leaves the pose where it
 * was, v = 0, and answers false. */
PB_API bool pb_vehicle_step_checked(const pb_vehicle_config *config, pb_vehicle_state *state,
                                    const pb_vehicle_input *input, double dt, pb_engine *engine,
                                    uint32_t ignore_id, pb_hit *hit);

/** `steps` steps of `dt` under `input` from `*state`, validated as one swept motion against
 * `engine` (every obstacle but `ignore_id`): the steps before the first one that touches anything
 * are kept. Returns how many; `*state` is then the state after them, bit for bit the state
 * pb_vehicle_step() reaches step by step (the motion is that of the single steps, so one sweep
 * certifies them all: fewer poses than a sweep per step in open space). */
PB_API int pb_vehicle_drive_checked(const pb_vehicle_config *config, pb_vehicle_state *state,
                                    const pb_vehicle_input *input, double dt, int steps, pb_engine *engine,
                                    uint32_t ignore_id, pb_hit *hit);

/** The steering curve an engine's edges follow from `a` to `b` (3 values each): the car
 * engine's Reeds-Shepp or Dubins curve. False for engines whose edges are not curves. */
PB_API bool pb_engine_curve(const pb_engine *engine, const double *a, const double *b, pb_curve *out);

/** Is the turn signal lit now (blinking at 1 Hz, lit the first 0.5 s of each second)? */
PB_API bool pb_vehicle_signal_lit(const pb_vehicle_state *state);

/** A gear's and a signal's name ("DRIVE", "LEFT"), and back (also Autoware's gear codes 22
 * PARK, 20 REVERSE, 1 NEUTRAL, 2 DRIVE as "22"...); -1 for an unknown name. */
PB_API const char *pb_gear_name(pb_gear gear);
PB_API int pb_gear_from_name(const char *name);
PB_API const char *pb_turn_signal_name(pb_turn_signal signal);
PB_API int pb_turn_signal_from_name(const char *name);

/** One row of an inputs file: `input` holds from sim time `t` until the next row's. */
typedef struct pb_vehicle_input_row {
    double t;
    pb_vehicle_input input;
} pb_vehicle_input_row;

/** Parse an inputs CSV (docs/vehicles.md), `size` bytes of text named `name` in messages: a
 * header line, then rows of strictly increasing t with the columns
 * t,acceleration,steer_angle[,gear[,signal]] (gear DRIVE and signal NONE when absent), or with
 * `steer_rate_columns` (a model driven by its steering velocity, commonroad_ks)
 * t,steer_rate,acceleration. Blank lines and lines starting with '#' are skipped. PB_OK with
 * `*rows` (owned by the caller: free()) and `*n` >= 1; PB_ERR_INVALID naming the line and the
 * column at fault, or a file without rows. */
PB_API pb_status pb_vehicle_inputs_parse(const char *text, size_t size, const char *name,
                                         bool steer_rate_columns, pb_vehicle_input_row **rows, size_t *n,
                                         pb_diag *diag);
/** The same from the file at `path` (PB_ERR_IO for a file that cannot be read). */
PB_API pb_status pb_vehicle_inputs_load(const char *path, bool steer_rate_columns,
                                        pb_vehicle_input_row **rows, size_t *n, pb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
