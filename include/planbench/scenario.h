/* planbench: scenario runs in the manner of auto_scene_gen (issue 19): a RunScenario request
 * (a scene, a vehicle start and goal, timeouts, limits, a collision rule) builds a scene, a
 * driver steers the vehicle model (vehicle.h) through it at a fixed step, every step swept
 * against the scene, until a termination reason fires; the answer is an AnalyzeScenario
 * request (the reason, the trajectory, the sim time) plus planbench's metrics.
 *
 * The request's frame and units are the auto_scene_gen worker's (Unreal Engine's): x forward,
 * y to the right (a left-handed frame), centimetres, yaw in degrees clockwise seen from above.
 * planbench runs in the client's right-handed frame in metres (x, -y, counter-clockwise yaw):
 * the frame the auto_scene_gen client builds its requests in before it converts them, and
 * the frame of every output (trajectory, metrics, captures). docs/scenarios.md has the
 * format, the termination rules and their order. */
#ifndef PLANBENCH_SCENARIO_H
#define PLANBENCH_SCENARIO_H

#include "base.h"
#include "engine.h"
#include "vehicle.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Termination reasons, with AnalyzeScenario's values. */
typedef enum pb_termination {
    PB_REASON_SUCCESS = 0,
    PB_REASON_VEHICLE_COLLISION = 1,
    PB_REASON_VEHICLE_FLIPPED = 2,
    PB_REASON_SIM_TIMEOUT = 3,
    PB_REASON_VEHICLE_IDLING_TIMEOUT = 4,
    PB_REASON_VEHICLE_STUCK_TIMEOUT = 5,
    PB_REASON_COUNT
} pb_termination;

/** "REASON_SUCCESS" ... */
PB_API const char *pb_termination_name(pb_termination reason);

/** |v| at or below this (m/s) is "not moving" (AutoSceneGen's LinearMotionThreshold, 2 cm/s);
 * a commanded speed at or below it is "commanding near-zero velocity". */
#define PB_SCENARIO_MOTION_THRESHOLD 0.02

/** A parsed scenario (a RunScenario request plus planbench's extensions). Opaque. */
typedef struct pb_scenario pb_scenario;

/** Read a scenario file (JSON, docs/scenarios.md); relative paths in it are relative to the
 * file. PB_ERR_IO for a file that cannot be read, PB_ERR_INVALID naming the field at fault. */
PB_API pb_status pb_scenario_load(pb_scenario **out, const char *path, pb_diag *diag);
/** The same from `size` bytes of JSON; `name` names it in messages, `base_dir` resolves
 * relative paths (NULL: the working directory). */
PB_API pb_status pb_scenario_parse(pb_scenario **out, const char *json, size_t size, const char *name,
                                   const char *base_dir, pb_diag *diag);
PB_API void pb_scenario_destroy(pb_scenario *scenario);

/** One sample of the trajectory (OdometryWithoutCovariance): the rear axle's pose in the
 * scene's frame (metres, radians) and its twist in the vehicle's frame. */
typedef struct pb_scenario_odometry {
    double t;            /**< sim time, seconds since the first control input */
    double x, y, yaw;    /**< pose */
    double v;            /**< twist.linear.x, m/s */
    double yaw_rate;     /**< twist.angular.z, rad/s */
    double acceleration; /**< realised, m/s^2 */
    double steer;        /**< front-wheel angle, rad */
    pb_gear gear;
} pb_scenario_odometry;

/** What a run gives. Free with pb_scenario_result_finish(). */
typedef struct pb_scenario_result {
    pb_termination reason;
    double vehicle_sim_time;          /**< the last stamp minus the first */
    pb_scenario_odometry *trajectory; /**< at the scenario's trajectory rate, first and last state always */
    size_t n_trajectory;
    size_t steps;                          /**< simulation steps run */
    uint32_t num_vehicle_control_messages; /**< control inputs the driver gave */
    /* planbench's metrics */
    double path_length;   /**< metres driven (the rear axle's arc length) */
    double min_clearance; /**< least distance from the footprint to a non-traversable obstacle over every
                             step, metres (a lower bound, to a tenth of a map cell); 0 after a contact */
    uint32_t collisions;  /**< steps that ended in contact */
    uint32_t gear_changes;
    double distance_to_goal; /**< at the end, metres */
    double wall_time;        /**< seconds to build and run */
    /* the reference: an optimal plan for the same scene, at the nominal speed */
    bool has_reference;
    double reference_cost;          /**< its length, metres */
    double reference_time;          /**< its length over the nominal speed, seconds */
    double cost_error;              /**< path_length - reference_cost */
    double time_error;              /**< vehicle_sim_time - reference_time */
    double reference_planning_time; /**< seconds the reference plan took (not in wall_time) */
    const char *capture_path; /**< the aerial capture written for it, or NULL (borrowed; set by the caller) */
} pb_scenario_result;

PB_API void pb_scenario_result_finish(pb_scenario_result *result);

/** Build the scene and run the scenario. PB_OK with `*result` filled whatever the reason;
 * an error (a driver that cannot start, a scene that cannot be built) names the cause. */
PB_API pb_status pb_scenario_run(const pb_scenario *scenario, pb_scenario_result *result, pb_diag *diag);

/** A run one step at a time (pb_scenario_run() is create, step to the end, finish): for
 * progress reports, cancelling, and the `"external"` driver, whose commands come from outside
 * (planbench serve: Autoware's command topics) between steps. Opaque. */
typedef struct pb_scenario_runner pb_scenario_runner;

/** Build the scene, check the start and the goal, get the driver ready (a planner driver
 * plans here). `scenario` is borrowed for the runner's life. */
PB_API pb_status pb_scenario_runner_create(pb_scenario_runner **out, const pb_scenario *scenario,
                                           pb_diag *diag);

/** Run at most `max_steps` steps (0: until the run ends). An external driver's run has not
 * begun before its first control message (sim time starts there): until then no step is
 * taken. True while the run goes on. */
PB_API bool pb_scenario_runner_step(pb_scenario_runner *runner, uint64_t max_steps);

/** Where a run stands. */
typedef struct pb_scenario_progress {
    uint64_t steps;          /**< steps taken */
    double sim_time;         /**< steps times dt, seconds since the first control input */
    double distance_to_goal; /**< from the rear axle to the goal point, metres */
    pb_vehicle_state state;  /**< the vehicle now */
    bool started;            /**< the driver has given its first control input */
    bool done;               /**< a termination reason fired */
    pb_termination reason;   /**< which, when done */
} pb_scenario_progress;

PB_API void pb_scenario_runner_progress(const pb_scenario_runner *runner, pb_scenario_progress *progress);

/** A command to an external driver: it holds from the next step until the next command. */
typedef struct pb_scenario_command {
    pb_vehicle_input input;
    bool has_speed;       /**< the command names a speed (Control.longitudinal.velocity) */
    double speed;         /**< m/s, when has_speed: "commanding motion" is |speed| > 2 cm/s */
    bool control_message; /**< a control message: counted, and the first starts the run's sim time */
} pb_scenario_command;

/** Give the external driver its command. PB_ERR_UNSUPPORTED when the scenario's driver is
 * not `"external"`, PB_ERR_INVALID for a non-finite value. */
PB_API pb_status pb_scenario_runner_command(pb_scenario_runner *runner, const pb_scenario_command *command);

/** The scenario's fixed step, seconds. */
PB_API double pb_scenario_time_step(const pb_scenario *scenario);

/** Is the scenario's driver `"external"` (commands through pb_scenario_runner_command())? */
PB_API bool pb_scenario_is_external(const pb_scenario *scenario);

/** End the run where it stands (a run that has not terminated keeps reason SIM_TIMEOUT and is
 * marked by `*ended_early`, may be NULL), fill `*result` (the reference plan is computed
 * here) and destroy the runner. */
PB_API pb_status pb_scenario_runner_finish(pb_scenario_runner *runner, pb_scenario_result *result,
                                           bool *ended_early, pb_diag *diag);

/** Free a runner without a result (NULL is accepted). */
PB_API void pb_scenario_runner_destroy(pb_scenario_runner *runner);

/** Write the AnalyzeScenario request, with the metrics under "planbench", as JSON. */
PB_API void pb_scenario_result_write_json(FILE *out, const pb_scenario *scenario,
                                          const pb_scenario_result *result);

/** Draw the orthographic aerial view (the map, the actors, start, goal circle and, when
 * `result` is not NULL, the trajectory with the footprint along it) into a PNG at `path`,
 * `size` pixels square (0: the scenario's scene_capture_settings.image_size, else 800). */
PB_API pb_status pb_scenario_capture(const pb_scenario *scenario, const pb_scenario_result *result,
                                     const char *path, int size, pb_diag *diag);

/** Plan as the scenario's planner driver would (its planner and budget, or RRT* with 3000
 * iterations when the driver is not a planner) and write the path the tracker follows to
 * `csv_path` (pb_tracker_save_csv()): a `{"path": FILE}` driver then drives it with no planning
 * in the run. PB_ERR_NOT_FOUND when the planner finds no path. */
PB_API pb_status pb_scenario_save_plan(const pb_scenario *scenario, const char *csv_path, pb_diag *diag);

/** A random scenario of `family` ("bacre": docs/scenarios.md) for `seed`, as the JSON text of
 * a runnable scenario file (the catalogue inline, the planner driver), kept only when the
 * reference planner can drive it within its timeout at the nominal speed (drawn again from the
 * same stream otherwise). The same seed gives the same bytes. `*json` is owned by the caller
 * (free()). PB_ERR_INVALID for an unknown family, PB_ERR_NOT_FOUND when no draw was feasible. */
PB_API pb_status pb_scenario_generate(char **json, const char *family, uint64_t seed, pb_diag *diag);

/** Write the scene as a map_server map: `stem`.pgm and `stem`.yaml (the landscape with every
 * obstacle actor rasterised: a cell is occupied when the actor's shape touches it), each
 * written atomically. PB_ERR_UNSUPPORTED for a scenario on a `map` file. */
PB_API pb_status pb_scenario_save_map(const pb_scenario *scenario, const char *stem, pb_diag *diag);

/** The engine the scenario runs on (the scene's map with its actors as obstacles), built
 * fresh: owned by the caller. */
PB_API pb_status pb_scenario_build_engine(const pb_scenario *scenario, pb_engine **out, pb_diag *diag);

/** Does the request ask for scene captures (take_scene_capture), and only for them
 * (scene_capture_only: the scenario is not run)? */
PB_API bool pb_scenario_wants_capture(const pb_scenario *scenario, bool *only);

/** The scenario's vehicle, start pose (x, y, yaw) and goal (x, y, radius), in the scene's
 * frame (metres, radians). */
PB_API const pb_vehicle_config *pb_scenario_vehicle(const pb_scenario *scenario);
PB_API void pb_scenario_start(const pb_scenario *scenario, double *pose);
PB_API void pb_scenario_goal(const pb_scenario *scenario, double *goal);

#ifdef __cplusplus
}
#endif

#endif
