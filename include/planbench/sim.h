/* planbench: the simulation service (ROS 2 simulation_interfaces, issue 8).
 *
 * A pb_sim holds one world (an engine, its entities, named poses, spawnables) and a
 * simulation state machine. Every simulation_interfaces service is a plain C function from a
 * request to a response, testable with no socket; the rosbridge codec and the WebSocket
 * transport (pb_sim_serve) are layered on top. The behaviour follows
 * ../shared/spec/simulation-interfaces.md (2.1.0 as the model, 1.x shapes accepted).
 *
 * Units: planar worlds are image maps; x and y are in map pixels (x the column, y the row
 * from the top), yaw in radians from +x towards +y (the quaternion's rotation about z),
 * time in seconds. z, roll and pitch are ignored (a pose with roll or pitch is invalid).
 * Manipulator scenes (a <simworld> naming a manipulator <world> file, docs/sim.md) use
 * metres and full 6-DoF poses; their robot is an entity whose state is its joint vector
 * (pb_sim_get_entity_joints(), PlanPath's and FollowPath's joint values).
 *
 * Ownership: request strings are borrowed for the call. Strings and arrays in a response
 * are borrowed from the sim and stay valid until the next call that takes a non-const sim.
 * Not thread-safe: one thread drives a sim (a PlanPath job's planner may run elsewhere,
 * see pb_sim_plan_begin()). */
#ifndef PLANBENCH_SIM_H
#define PLANBENCH_SIM_H

#include "base.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants of simulation_interfaces (values are the standard's) ---- */
enum {
    PB_SIM_RESULT_FEATURE_UNSUPPORTED = 0,
    PB_SIM_RESULT_OK = 1,
    PB_SIM_RESULT_NOT_FOUND = 2,
    PB_SIM_RESULT_INCORRECT_STATE = 3,
    PB_SIM_RESULT_OPERATION_FAILED = 4,
    /* SpawnEntity / SpawnResult */
    PB_SIM_SPAWN_NAME_NOT_UNIQUE = 101,
    PB_SIM_SPAWN_NAME_INVALID = 102,
    PB_SIM_SPAWN_UNSUPPORTED_FORMAT = 103,
    PB_SIM_SPAWN_NO_RESOURCE = 104,
    PB_SIM_SPAWN_NAMESPACE_INVALID = 105,
    PB_SIM_SPAWN_RESOURCE_PARSE_ERROR = 106,
    PB_SIM_SPAWN_MISSING_ASSETS = 107,
    PB_SIM_SPAWN_UNSUPPORTED_ASSETS = 108,
    PB_SIM_SPAWN_INVALID_POSE = 109,
    PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED = 150,
    /* SetEntityState */
    PB_SIM_SET_STATE_INVALID_POSE = 101,
    /* SetSimulationState */
    PB_SIM_ALREADY_IN_TARGET_STATE = 101,
    PB_SIM_STATE_TRANSITION_ERROR = 102,
    PB_SIM_INCORRECT_TRANSITION = 103,
    /* LoadWorld */
    PB_SIM_WORLD_UNSUPPORTED_FORMAT = 101,
    PB_SIM_WORLD_NO_RESOURCE = 102,
    PB_SIM_WORLD_RESOURCE_PARSE_ERROR = 103,
    PB_SIM_WORLD_MISSING_ASSETS = 104,
    PB_SIM_WORLD_UNSUPPORTED_ASSETS = 105,
    PB_SIM_WORLD_UNSUPPORTED_ELEMENTS = 106,
    /* UnloadWorld, GetCurrentWorld */
    PB_SIM_NO_WORLD_LOADED = 101,
    /* GetAvailableWorlds */
    PB_SIM_DEFAULT_SOURCES_FAILED = 101,
};

/** SimulationState values. */
enum {
    PB_SIM_STATE_STOPPED = 0,
    PB_SIM_STATE_PLAYING = 1,
    PB_SIM_STATE_PAUSED = 2,
    PB_SIM_STATE_QUITTING = 3,
    PB_SIM_STATE_NO_WORLD = 4,
    PB_SIM_STATE_LOADING_WORLD = 5,
};

/** EntityCategory values (3 is unused by the standard). */
enum {
    PB_SIM_CATEGORY_OBJECT = 0,
    PB_SIM_CATEGORY_ROBOT = 1,
    PB_SIM_CATEGORY_HUMAN = 2,
    PB_SIM_CATEGORY_DYNAMIC_OBJECT = 4,
    PB_SIM_CATEGORY_STATIC_OBJECT = 5,
};

/** Bounds types, TagsFilter modes, ResetSimulation scopes. */
enum {
    PB_SIM_BOUNDS_EMPTY = 0,
    PB_SIM_BOUNDS_BOX = 1,
    PB_SIM_BOUNDS_CONVEX_HULL = 2,
    PB_SIM_BOUNDS_SPHERE = 3
};
enum { PB_SIM_FILTER_ANY = 0, PB_SIM_FILTER_ALL = 1 };
enum {
    PB_SIM_SCOPE_DEFAULT = 0,
    PB_SIM_SCOPE_TIME = 1,
    PB_SIM_SCOPE_STATE = 2,
    PB_SIM_SCOPE_SPAWNED = 4,
    PB_SIM_SCOPE_ALL = 255,
};

/** Longest error message kept in a result, bytes with the NUL. */
#define PB_SIM_MESSAGE_SIZE 256
/** Most points in a Bounds. */
#define PB_SIM_MAX_BOUNDS_POINTS 32

/** simulation_interfaces/Result. `result` is always set explicitly by every service. */
typedef struct pb_sim_result {
    uint8_t result;
    char error_message[PB_SIM_MESSAGE_SIZE];
} pb_sim_result;

typedef struct pb_sim_vec3 {
    double x, y, z;
} pb_sim_vec3;

/** geometry_msgs/Pose: position and orientation quaternion (x, y, z, w). */
typedef struct pb_sim_pose {
    pb_sim_vec3 position;
    double qx, qy, qz, qw;
} pb_sim_pose;

/** geometry_msgs/Twist or Accel: linear (map units/s) and angular (rad/s) parts. */
typedef struct pb_sim_twist {
    pb_sim_vec3 linear, angular;
} pb_sim_twist;

/** simulation_interfaces/EntityState. `frame_id` is borrowed ("" = world). */
typedef struct pb_sim_entity_state {
    const char *frame_id;
    int32_t stamp_sec;
    uint32_t stamp_nanosec;
    pb_sim_pose pose;
    pb_sim_twist twist;
    pb_sim_twist acceleration;
} pb_sim_entity_state;

/** simulation_interfaces/Bounds. */
typedef struct pb_sim_bounds {
    uint8_t type;
    size_t n_points;
    pb_sim_vec3 points[PB_SIM_MAX_BOUNDS_POINTS];
} pb_sim_bounds;

/** simulation_interfaces/TagsFilter; `tags` borrowed. */
typedef struct pb_sim_tags_filter {
    const char *const *tags;
    size_t n_tags;
    uint8_t filter_mode;
} pb_sim_tags_filter;

/** simulation_interfaces/EntityFilters; everything borrowed; all filters combine with AND. */
typedef struct pb_sim_entity_filters {
    const char *filter; /**< POSIX extended regex, search semantics; NULL or "" = all */
    const uint8_t *categories;
    size_t n_categories;
    pb_sim_tags_filter tags;
    pb_sim_bounds bounds;
} pb_sim_entity_filters;

/** simulation_interfaces/EntityInfo; strings borrowed. */
typedef struct pb_sim_entity_info {
    uint8_t category;
    const char *description;
    const char *const *tags;
    size_t n_tags;
} pb_sim_entity_info;

/** simulation_interfaces/NamedPose (borrowed from the sim). */
typedef struct pb_sim_named_pose {
    const char *name;
    const char *description;
    const char *const *tags;
    size_t n_tags;
    pb_sim_pose pose;
} pb_sim_named_pose;

/** simulation_interfaces/Spawnable (borrowed from the sim). */
typedef struct pb_sim_spawnable {
    const char *uri;
    const char *description;
    pb_sim_bounds spawn_bounds;
} pb_sim_spawnable;

/** simulation_interfaces/WorldResource (borrowed from the sim). */
typedef struct pb_sim_world_info {
    const char *name;
    const char *uri;
    const char *description;
    const char *const *tags;
    size_t n_tags;
} pb_sim_world_info;

/** SimulatorFeatures: the feature numbers this build supports (sorted), spawn formats, info.
 * Static data. */
typedef struct pb_sim_features {
    const uint16_t *features;
    size_t n_features;
    const char *const *spawn_formats;
    size_t n_spawn_formats;
    const char *custom_info;
} pb_sim_features;

/** One spawn request (SpawnEntity.srv / SpawnEntity.msg). Strings borrowed; NULL = "". */
typedef struct pb_sim_spawn_request {
    const char *name;
    bool allow_renaming;
    const char *uri;
    const char *resource_string;
    const char *entity_namespace;
    const char *frame_id; /**< initial_pose.header.frame_id */
    pb_sim_pose initial_pose;
} pb_sim_spawn_request;

/** SpawnEntity response / SpawnResult. `entity_name` borrowed. */
typedef struct pb_sim_spawn_response {
    pb_sim_result result;
    const char *entity_name;
} pb_sim_spawn_response;

/** SetEntityState request. `has_flags` false: the 1.x shape (pose and twist applied). */
typedef struct pb_sim_set_state_request {
    const char *entity;
    pb_sim_entity_state state;
    bool has_flags;
    bool set_pose, set_twist, set_acceleration;
} pb_sim_set_state_request;

/** A lifecycle event recorded for the entity channels. */
typedef enum pb_sim_event_kind {
    PB_SIM_EVENT_CREATED,
    PB_SIM_EVENT_DELETED,
    PB_SIM_EVENT_INFO_CHANGED,
    PB_SIM_EVENT_BLOCKED, /**< a motion under a twist or a velocity command ran into something: it
                               stopped at the last free pose */
    PB_SIM_EVENT_KIND_COUNT
} pb_sim_event_kind;

/** How a pb_sim is made. Start from pb_sim_config_default(). Strings borrowed for the call. */
typedef struct pb_sim_config {
    const char *worlds_dir; /**< where GetAvailableWorlds looks for <simworld> files */
    const char *robots_dir; /**< where the spawnable robots of worlds are resolved */
    const char *world;      /**< world file to load at start; NULL: start in NO_WORLD */
    double time_step;       /**< seconds per step, > 0 (default 0.05) */
    /** LoadWorld reads files only inside `worlds_dir`, the `maps` folder beside it and
     * `robots_dir`: a world path, and the map or scene a world names, must resolve (realpath)
     * inside one of them, else NOT_FOUND (a server that is reachable from elsewhere should
     * not read any file of its machine). */
    bool confine_worlds;
    /** Longest planning time a /plan_path request may ask for, seconds (default 60). */
    double plan_time_limit;
} pb_sim_config;

typedef struct pb_sim pb_sim;

/** Most entities a world holds (a spawn beyond says so), and most spawn requests one
 * SpawnEntities call takes (the server's thread serves one call at a time). */
#define PB_SIM_MAX_ENTITIES 65000
#define PB_SIM_MAX_BATCH    1000

/** Defaults: no directories, no world, time step 0.05 s. */
PB_API pb_sim_config pb_sim_config_default(void);
/** Make a simulation. Fails (with `diag`) when the start world cannot be loaded. Owned by
 * the caller (pb_sim_destroy). */
PB_API pb_status pb_sim_create(pb_sim **out, const pb_sim_config *config, pb_diag *diag);
/** Destroy; NULL is accepted. */
PB_API void pb_sim_destroy(pb_sim *sim);

/** Simulation time in seconds since the last time reset. */
PB_API double pb_sim_time(const pb_sim *sim);
/** Sim time as an exact count of nanoseconds (steps times the step, rounded to whole
 * nanoseconds once): the stamps of every message. */
PB_API uint64_t pb_sim_time_ns(const pb_sim *sim);
/** Seconds of simulated time per step (the configured time step). */
PB_API double pb_sim_time_step(const pb_sim *sim);
/** The world's map: its frame (pb_map_frame in image.h: resolution, origin, size) into
 * `*frame`; false when no world or a manipulator scene is loaded. */
PB_API bool pb_sim_get_map_frame(const pb_sim *sim, pb_map_frame *frame);
/** The current SimulationState value. */
PB_API uint8_t pb_sim_state(const pb_sim *sim);
/** Number of entities. */
PB_API size_t pb_sim_entity_count(const pb_sim *sim);
/** Drain the lifecycle events recorded since the last call: `fn` is called once per event in
 * order with the entity's name (borrowed for the callback). */
PB_API void pb_sim_drain_events(pb_sim *sim,
                                void (*fn)(pb_sim_event_kind kind, const char *entity, void *payload),
                                void *payload);

/** Call `fn(sim, payload)` after every simulation step, whatever made it (a service, the
 * action, real time while PLAYING); NULL stops. The transport publishes entity states with it. */
PB_API void pb_sim_set_step_callback(pb_sim *sim, void (*fn)(pb_sim *sim, void *payload), void *payload);

/* ---- the services: each fills its response, `result.result` always set ---- */

PB_API void pb_sim_get_features(const pb_sim *sim, pb_sim_features *out);
/** SpawnEntity: name rules, resource, pose and C-space checks, in that order. */
PB_API void pb_sim_spawn_entity(pb_sim *sim, const pb_sim_spawn_request *request,
                                pb_sim_spawn_response *response);
/** SpawnEntities: `responses` has `n` entries (caller storage); not atomic: each request is
 * tried in order; the overall result is OK or ENTITIES_SPAWN_FAILED. */
PB_API void pb_sim_spawn_entities(pb_sim *sim, const pb_sim_spawn_request *requests, size_t n,
                                  pb_sim_spawn_response *responses, pb_sim_result *result);
/** DeleteEntity: NOT_FOUND for an unknown name; static world entities are protected. */
PB_API void pb_sim_delete_entity(pb_sim *sim, const char *entity, pb_sim_result *result);
/** GetEntities: `*names` (borrowed) gets the matching entities in spawn order. */
PB_API void pb_sim_get_entities(pb_sim *sim, const pb_sim_entity_filters *filters, pb_sim_result *result,
                                const char *const **names, size_t *n);
/** GetEntitiesStates: parallel `names` and `states` (borrowed). */
PB_API void pb_sim_get_entities_states(pb_sim *sim, const pb_sim_entity_filters *filters,
                                       pb_sim_result *result, const char *const **names,
                                       const pb_sim_entity_state **states, size_t *n);
/** GetEntityState: the pose and twist in the world frame (valid when OK). */
PB_API void pb_sim_get_entity_state(pb_sim *sim, const char *entity, pb_sim_result *result,
                                    pb_sim_entity_state *state);
/** SetEntityState: the new pose is checked against the C-space (INVALID_POSE 101). */
PB_API void pb_sim_set_entity_state(pb_sim *sim, const pb_sim_set_state_request *request,
                                    pb_sim_result *result);
/** GetEntityInfo: category, description, tags (borrowed). */
PB_API void pb_sim_get_entity_info(pb_sim *sim, const char *entity, pb_sim_result *result,
                                   pb_sim_entity_info *info);
/** SetEntityInfo: replaces category, description and tags. */
PB_API void pb_sim_set_entity_info(pb_sim *sim, const char *entity, const pb_sim_entity_info *info,
                                   pb_sim_result *result);
/** GetEntityBounds: a box [min, max] in the entity's frame, map units. */
PB_API void pb_sim_get_entity_bounds(pb_sim *sim, const char *entity, pb_sim_result *result,
                                     pb_sim_bounds *bounds);
/** GetNamedPoses: the world's named poses matching `tags` (NULL: all); borrowed. */
PB_API void pb_sim_get_named_poses(pb_sim *sim, const pb_sim_tags_filter *tags, pb_sim_result *result,
                                   const pb_sim_named_pose **poses, size_t *n);
/** GetNamedPoseBounds: TYPE_EMPTY when the pose has none. */
PB_API void pb_sim_get_named_pose_bounds(pb_sim *sim, const char *name, pb_sim_result *result,
                                         pb_sim_bounds *bounds);
/** GetSpawnables: unrecognised `sources` are named in the error message, not a failure. */
PB_API void pb_sim_get_spawnables(pb_sim *sim, const char *const *sources, size_t n_sources,
                                  pb_sim_result *result, const pb_sim_spawnable **spawnables, size_t *n);
/** GetSimulationState. */
PB_API void pb_sim_get_simulation_state(pb_sim *sim, pb_sim_result *result, uint8_t *state);
/** SetSimulationState: the transitions of spec section 5.1 with its codes. */
PB_API void pb_sim_set_simulation_state(pb_sim *sim, uint8_t target, pb_sim_result *result);
/** ResetSimulation by scope bits; 0 and 255 reset everything and end STOPPED. */
PB_API void pb_sim_reset_simulation(pb_sim *sim, uint8_t scope, pb_sim_result *result);
/** StepSimulation: `steps` steps at once; needs PAUSED (or STOPPED), ends PAUSED. */
PB_API void pb_sim_step_simulation(pb_sim *sim, uint64_t steps, pb_sim_result *result);
/** SimulateSteps, one step at a time so a transport can send feedback and serve others:
 * begin checks the precondition (false: `result` says why, nothing to run); then call
 * pb_sim_step_once() `steps` times (or fewer on cancel) and pb_sim_steps_end(). */
PB_API bool pb_sim_steps_begin(pb_sim *sim, uint64_t steps, pb_sim_result *result);
/** One step of the action (after pb_sim_steps_begin()). */
PB_API void pb_sim_step_once(pb_sim *sim);
/** End of the action: the simulation is PAUSED. */
PB_API void pb_sim_steps_end(pb_sim *sim);
/** LoadWorld: `uri` is world://NAME or a path to a <simworld> file; `resource_string` the
 * XML itself (used only when `uri` is empty). */
PB_API void pb_sim_load_world(pb_sim *sim, const char *uri, const char *resource_string,
                              bool fail_on_unsupported_element, pb_sim_result *result,
                              pb_sim_world_info *world);
/** UnloadWorld: removes every entity; the state becomes NO_WORLD. */
PB_API void pb_sim_unload_world(pb_sim *sim, pb_sim_result *result);
/** GetCurrentWorld: NO_WORLD_LOADED without a world. */
PB_API void pb_sim_get_current_world(pb_sim *sim, pb_sim_result *result, pb_sim_world_info *world);
/** GetAvailableWorlds: the <simworld> files of the worlds folder, by tags. */
PB_API void pb_sim_get_available_worlds(pb_sim *sim, const pb_sim_tags_filter *filter, pb_sim_result *result,
                                        const pb_sim_world_info **worlds, size_t *n);

/* ---- planning as a service (beyond the standard; see docs/sim.md) ---- */

/** Most joint values an entity has (the stick arm has one: its elbow, "joint2"; the robot of a
 * manipulator scene one per planned joint, at most PB_MAX_DIM = 32). */
#define PB_SIM_MAX_JOINTS 32

/** PlanPath request: plan for `entity` from its current configuration to `goal` (or to the
 * named pose `goal_name` when not empty) with planner `planner` ("" = rrt) within
 * `time_limit` seconds (0 = 1 s, at most the server's pb_sim_config.plan_time_limit), with seed
 * `seed`; with `budget`, an anytime planner (rrtstar, informedrrt, bitstar, prm, lazyprm)
 * improves its path for the whole `time_limit`, else every planner stops at its first solution. An entity
 * with joints (the stick arm) plans in its full configuration space, base pose and joints: `goal_joints`
 * (`n_goal_joints` values, borrowed) are the joints' goal values, none = their current
 * values. With `follow`, the entity then follows the path at `speed` map units per second
 * (0 = 40) as the simulation steps. The robot of a manipulator scene plans in its joint space
 * to a named joint configuration (`goal_name`), to `goal_joints` (one value per planned
 * joint), or to a pose of its tool frame, world frame: a 6-DoF named pose, or `goal` when
 * `goal_name` and `goal_joints` are empty and `goal` is not the identity (nor all zero),
 * made joint goals by inverse kinematics (docs/sim.md); `speed` in radians of the joint-space
 * metric per second (0 = 1). */
typedef struct pb_sim_plan_request {
    const char *entity;
    const char *goal_name;
    pb_sim_pose goal;
    const char *planner;
    double time_limit;
    uint64_t seed;
    bool follow;
    double speed;
    const double *goal_joints;
    size_t n_goal_joints;
    bool budget;
} pb_sim_plan_request;

/** PlanPath response: `outcome` is pb_outcome_str() of the planner's outcome; `path` has
 * `n_path` poses (x, y, yaw); `joints` has `n_joints` values per pose (row-major), named by
 * `joint_names` (none for a disc or a rectangle). All borrowed from the sim. */
typedef struct pb_sim_plan_response {
    pb_sim_result result;
    const char *outcome;
    const double *path;
    size_t n_path;
    double cost;
    double planning_time;
    const char *const *joint_names;
    size_t n_joints;
    const double *joints;
} pb_sim_plan_response;

/** PlanPath, all at once on the calling thread: pb_sim_plan_begin(), pb_sim_plan_run(),
 * pb_sim_plan_finish(). */
PB_API void pb_sim_plan_path(pb_sim *sim, const pb_sim_plan_request *request, pb_sim_plan_response *response);

/** A PlanPath request taken off the simulation: a snapshot of the world (the map and every
 * other entity's footprint and pose when the request began) and the planner's inputs, so
 * the planner can run on another thread while the simulation goes on. */
typedef struct pb_sim_plan_job pb_sim_plan_job;

/** Check a PlanPath request and take its snapshot (on the sim's thread). True: `*job` is a
 * new job owned by the caller (pb_sim_plan_job_destroy) and `response` is untouched. False:
 * the request is refused, `*job` is NULL and `response` says why. */
PB_API bool pb_sim_plan_begin(pb_sim_plan_job **job, pb_sim *sim, const pb_sim_plan_request *request,
                              pb_sim_plan_response *response);
/** Run the planner on the snapshot. Any thread; touches nothing but the job. */
PB_API void pb_sim_plan_run(pb_sim_plan_job *job);
/** Ask a running job to stop soon (its outcome is then "canceled"). Any thread. */
PB_API void pb_sim_plan_cancel(pb_sim_plan_job *job);
/** Has pb_sim_plan_run() finished with this job? Any thread. */
PB_API bool pb_sim_plan_is_done(const pb_sim_plan_job *job);
/** The response of a finished job, checked against the world as it is now (on the sim's
 * thread): NOT_FOUND when the entity was deleted meanwhile, OPERATION_FAILED when the world
 * was changed, the entity moved, or the path now runs into an entity that moved (the path is
 * still returned, the message names the segment and what it hits); only an OK plan starts
 * following. The response borrows from the sim, not the job. */
PB_API void pb_sim_plan_finish(pb_sim *sim, pb_sim_plan_job *job, pb_sim_plan_response *response);
/** Destroy a job (not while pb_sim_plan_run() runs on it); NULL is accepted. */
PB_API void pb_sim_plan_job_destroy(pb_sim_plan_job *job);

/** Is `entity` still following a path? */
PB_API bool pb_sim_is_following(pb_sim *sim, const char *entity);
/** The joint values of `entity` (the stick arm: its elbow "joint2", radians): returns how
 * many (at most PB_SIM_MAX_JOINTS), 0 for an unknown entity or one without joints. `names`
 * (may be NULL) gets borrowed static names. */
PB_API size_t pb_sim_get_entity_joints(pb_sim *sim, const char *entity, const char *const **names,
                                       double *values);

/** A velocity command in the entity's own (body) frame, as ROS's `cmd_vel` (geometry_msgs/Twist:
 * linear x forward, y left, angular z counter-clockwise): it applies from the next step until
 * another command, a SetEntityState twist, a reset or a collision (which stops the entity at
 * the last free pose and records PB_SIM_EVENT_BLOCKED). Bodies take linear x, y and angular
 * z; objects of a scene any twist (turned into the world frame at each step); the robot of a
 * scene none. OPERATION_FAILED for an unknown or static entity, a non-finite value, or a
 * component the entity cannot take. */
PB_API void pb_sim_command_velocity(pb_sim *sim, const char *entity, const pb_sim_twist *body_twist,
                                    pb_sim_result *r);

/** Which of Autoware's command topics a vehicle command comes from (per vehicle, under
 * "/<entity>/control/command/"). */
typedef enum pb_sim_vehicle_topic {
    PB_SIM_VEHICLE_CONTROL,         /**< control_cmd, autoware_control_msgs/Control */
    PB_SIM_VEHICLE_GEAR,            /**< gear_cmd, autoware_vehicle_msgs/GearCommand */
    PB_SIM_VEHICLE_TURN_INDICATORS, /**< turn_indicators_cmd, autoware_vehicle_msgs/TurnIndicatorsCommand */
    PB_SIM_VEHICLE_HAZARD_LIGHTS,   /**< hazard_lights_cmd, autoware_vehicle_msgs/HazardLightsCommand */
    PB_SIM_VEHICLE_EMERGENCY,       /**< emergency_cmd, tier4_vehicle_msgs/VehicleEmergencyStamped */
    PB_SIM_VEHICLE_TOPIC_COUNT
} pb_sim_vehicle_topic;

/** One command to a vehicle, with Autoware's fields and codes. */
typedef struct pb_sim_vehicle_command {
    pb_sim_vehicle_topic topic;
    /** CONTROL: lateral.steering_tire_angle (rad, positive left), longitudinal.acceleration
     * (m/s^2, along the gear: REVERSE drives backwards under a positive one, as AWSIM) and
     * longitudinal.velocity (m/s; checked, not used: the model is driven by acceleration). */
    double steering_tire_angle, acceleration, velocity;
    /** GEAR: GearCommand.command (NONE 0 keeps the gear; NEUTRAL 1; DRIVE 2..19, LOW 23,
     * LOW_2 24 drive; REVERSE 20, REVERSE_2 21; PARK 22). TURN_INDICATORS:
     * TurnIndicatorsCommand.command (NO_COMMAND 0, DISABLE 1, ENABLE_LEFT 2, ENABLE_RIGHT 3).
     * HAZARD_LIGHTS: HazardLightsCommand.command (NO_COMMAND 0, DISABLE 1, ENABLE 2). */
    uint8_t command;
    /** EMERGENCY: while true the acceleration input is 0 whatever control_cmd says. */
    bool emergency;
    /** CONTROL: the message named longitudinal.velocity (a scenario's idling and stuck rules
     * read "commanding motion" off it; docs/scenarios.md). */
    bool has_velocity;
} pb_sim_vehicle_command;

/** A vehicle's status, as Autoware's vehicle/status topics report it. */
typedef struct pb_sim_vehicle_status {
    double longitudinal_velocity; /**< m/s along the heading (VelocityReport) */
    double lateral_velocity;      /**< m/s, always 0: the rear axle never slides */
    double heading_rate;          /**< rad/s, counter-clockwise */
    double steering_tire_angle;   /**< rad, positive left (SteeringReport) */
    double acceleration;          /**< m/s^2 realised in the last step, along the heading */
    uint8_t gear;                 /**< GearReport.report: PARK 22, REVERSE 20, NEUTRAL 1, DRIVE 2 */
    uint8_t turn_indicators; /**< TurnIndicatorsReport.report: DISABLE 1, ENABLE_LEFT 2, ENABLE_RIGHT 3 */
    uint8_t hazard_lights;   /**< HazardLightsReport.report: DISABLE 1, ENABLE 2 */
    bool emergency;          /**< an emergency_cmd holds the acceleration at 0 */
    bool sleeping;           /**< the model's sleep rule holds it still */
} pb_sim_vehicle_status;

/** A command from one of a vehicle's Autoware topics: it holds from the next step on (a
 * control_cmd until the next one; a path being followed stops). OK, or NOT_FOUND for an
 * unknown entity, OPERATION_FAILED for an entity that is not a vehicle, a static one, a
 * non-finite value or a code the message type does not define (the message names it). */
PB_API void pb_sim_command_vehicle(pb_sim *sim, const char *entity, const pb_sim_vehicle_command *command,
                                   pb_sim_result *r);

/** The status of vehicle `entity`: false when there is no such entity or it is not a vehicle. */
PB_API bool pb_sim_get_vehicle_status(pb_sim *sim, const char *entity, pb_sim_vehicle_status *status);

/** Longest frame name: "<entity>/<link>". */
#define PB_SIM_FRAME_ID_SIZE 320

/** One transform of the world's frame tree (ROS /tf, REP-105): `child_frame_id` in
 * `frame_id`. Frames: "map" (the world), "<entity>/base_link" for every entity (its pose),
 * and "<entity>/<link>" for each link of an articulated entity (a scene's robot: its URDF
 * links; a planar stick arm: link1 and link2). */
typedef struct pb_sim_frame {
    char frame_id[PB_SIM_FRAME_ID_SIZE];
    char child_frame_id[PB_SIM_FRAME_ID_SIZE];
    pb_sim_pose transform; /**< translation (position) and rotation of the child in the parent */
} pb_sim_frame;

/** The world's transforms now: with `fixed` those that never change (fixed joints: ROS
 * /tf_static), else the others (entity poses and moving joints: /tf). `*frames` is borrowed
 * (see Ownership); returns how many. */
PB_API size_t pb_sim_get_frames(pb_sim *sim, bool fixed, const pb_sim_frame **frames);

/** Set joints of articulated `entity` at once (the joints part of an entity's state, which
 * simulation_interfaces' EntityState has no field for; the services /get_entity_joints and
 * /set_entity_joints carry it): `names` (`n`, borrowed) name the joints as
 * pb_sim_get_entity_joints() does, `values` their positions (radians, metres for prismatic
 * joints); joints not named keep their values. The configuration must be free (as a pose
 * set by SetEntityState): else INVALID_POSE naming what it hits; an unknown joint, a
 * non-finite value or a static entity: OPERATION_FAILED; a path being followed stops. */
PB_API void pb_sim_set_entity_joints(pb_sim *sim, const char *entity, const char *const *names,
                                     const double *values, size_t n, pb_sim_result *r);

/** A joint trajectory for articulated `entity` (ROS joint_commands,
 * trajectory_msgs/JointTrajectory): `n_points` rows of `n_names` positions (`points`,
 * row-major) for the joints `names`; joints not named keep their present values. The entity
 * follows the points as FollowPath waypoints (every waypoint and segment checked now; a
 * blocked step stops it) as the simulation steps, in any state, taking `duration` seconds
 * for the whole trajectory (0: the default speed). Errors as pb_sim_set_entity_joints() and
 * pb_sim_follow_begin(). */
PB_API void pb_sim_command_joints(pb_sim *sim, const char *entity, const char *const *names, size_t n_names,
                                  const double *points, size_t n_points, double duration, pb_sim_result *r);

/** FollowPath goal (the action /follow_path, see docs/sim.md): move `entity` from its current
 * pose through the waypoints `path` (`n_path` poses in the world frame, borrowed for the call;
 * a PlanPath path as it is) at `speed` map units per second (0 = 40), one simulation step at a
 * time, along the straight edges of the entity's configuration space between waypoints (yaw
 * and joints turn evenly; joint values: pb_sim_follow_begin_joints()). */
typedef struct pb_sim_follow_request {
    const char *entity;
    const pb_sim_pose *path;
    size_t n_path;
    double speed;
} pb_sim_follow_request;

/** How a follow goal stands after a step. */
typedef enum pb_sim_follow_status {
    PB_SIM_FOLLOW_RUNNING, /**< still on its way */
    PB_SIM_FOLLOW_REACHED, /**< at the last waypoint */
    PB_SIM_FOLLOW_STOPPED, /**< ended early (collision, teleport, deletion, reset, another path) */
} pb_sim_follow_status;

/** FollowPath feedback after a step. */
typedef struct pb_sim_follow_feedback {
    uint32_t waypoint;         /**< index into the goal's path of the waypoint ahead */
    double distance_remaining; /**< along the rest of the path, in the C-space's metric (map
                                    units of footprint motion; x, y only for a disc) */
    pb_sim_pose pose;          /**< the entity's pose in the world frame */
    uint32_t n_joints;         /**< the entity's joint values (the stick arm's elbow) */
    double joints[PB_SIM_MAX_JOINTS];
} pb_sim_follow_feedback;

/** Start following: checks the entity (NOT_FOUND; static: OPERATION_FAILED), the simulation
 * (a world, PAUSED or STOPPED, as for stepping), the speed (>= 0, finite), every waypoint
 * (a valid pose whose footprint is free) and every segment between them, from the entity's
 * current configuration on, with the planners' edge check in the entity's C-space (else
 * OPERATION_FAILED naming the waypoint or segment and what it hits). On success `*goal` gets
 * a handle for pb_sim_follow_step() and pb_sim_follow_cancel(); the path replaces any path the
 * entity was following (that goal then ends STOPPED). */
PB_API bool pb_sim_follow_begin(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *request,
                                pb_sim_result *result);
/** pb_sim_follow_begin() with the joint values of an entity that has joints (the stick arm):
 * `joints` (borrowed for the call) holds `n_joints` values per waypoint, row-major (a
 * PlanPath response's `joints` as they are). `n_joints` 0: the joints keep their values.
 * OPERATION_FAILED when `n_joints` is not the entity's number of joints. */
PB_API bool pb_sim_follow_begin_joints(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *request,
                                       const double *joints, size_t n_joints, pb_sim_result *result);
/** One simulation step (pb_sim_step_once(): every entity moves), then where goal `goal` stands.
 * `feedback` (may be NULL) is filled while the entity exists; `result` is OK when REACHED and
 * says why when STOPPED. Call pb_sim_steps_end() when done. */
PB_API pb_sim_follow_status pb_sim_follow_step(pb_sim *sim, uint64_t goal, pb_sim_follow_feedback *feedback,
                                               pb_sim_result *result);
/** Stop goal `goal`: the entity stays where it is. No effect when the goal already ended. */
PB_API void pb_sim_follow_cancel(pb_sim *sim, uint64_t goal);

/* ---- the rosbridge codec and server ---- */

/** Handle one rosbridge v2 message (`data`, `size` bytes, not necessarily NUL-terminated)
 * that is not part of an action, writing the reply (or nothing) into `*reply` as a
 * NUL-terminated JSON text owned by the caller (free()), NULL when there is no reply. Never
 * fails on bad input: malformed JSON gets a rosbridge failure reply when one is possible.
 * For fuzzing and for tests without a socket. */
PB_API void pb_sim_handle_message(pb_sim *sim, const char *data, size_t size, char **reply);

/** How the rosbridge server listens and whom it serves. Start from
 * pb_sim_serve_config_default(); strings are borrowed for the call. */
typedef struct pb_sim_serve_config {
    /** The address to bind, exactly: an IPv4 or IPv6 literal or a host name ("localhost"
     * included), resolved; it must be an address of this machine. Default "127.0.0.1". */
    const char *host;
    int port; /**< 0..65535; 0 picks a free one. Default 9090. */
    /** WebSocket handshakes carrying an Origin header are refused unless the origin is a
     * loopback one (http(s)://localhost, 127.x.x.x or [::1], any port) or listed here
     * exactly ("*" allows every origin). Clients without an Origin header (roslib in
     * Node.js, Python) are always allowed. */
    const char *const *allow_origins;
    size_t n_allow_origins;
    /** A shared secret. When set, a client must present it, in the URL (`ws://host:port/?token=SECRET`)
     * or as rosbridge's auth op (`{"op": "auth", "mac": "SECRET"}`) before any other op, or
     * every op gets an error status. Required when `host` is not a loopback address. */
    const char *token;
    int max_connections;     /**< more are refused at once; default 64 */
    size_t max_queued_bytes; /**< outgoing bytes queued for one client; default 32 MiB */
    size_t max_total_queued; /**< across every client; default 256 MiB */
    /** Most /tf, odometry and joint-state messages per second of wall time while the world
     * steps faster than that (the last step's are always sent); 0: after every step.
     * Default 100 (ROS tools draw at that rate). /clock and /entity_states follow every step. */
    double tf_rate;
    /** When not NULL, the server stops as soon as it becomes non-zero (a signal handler's
     * flag); a client setting STATE_QUITTING stops it too. */
    const volatile int *stop;
    /** Called once listening, with the address and port really bound (read back from the
     * socket), and `payload`. May be NULL. */
    void (*on_ready)(const char *address, int port, void *payload);
    void *payload;
    /** The scenario worker's id: its RunScenario service and topics live under
     * /asg_worker<worker_id>/ (docs/scenarios.md). Default 0. */
    int worker_id;
    /** The RTI entity channels (docs/sim.md "Entity channels"): ownership arbitrated (the
     * spawning client owns an entity; others' commands are refused) unless `no_ownership`;
     * positions published when a receiver's dead reckoning would be off by more than
     * `rti_position_tolerance` (world units, default 0.01) or `rti_angle_tolerance` (degrees,
     * default 0.5), and at least every `rti_heartbeat` seconds of sim time (default 1). */
    bool no_ownership;
    double rti_position_tolerance, rti_angle_tolerance, rti_heartbeat;
} pb_sim_serve_config;

/** The defaults: 127.0.0.1:9090, loopback origins, no token, 64 connections, 32 MiB per client and
 * 256 MiB in all queued. */
PB_API pb_sim_serve_config pb_sim_serve_config_default(void);

/** Run the rosbridge WebSocket server until `config->stop` or a client's STATE_QUITTING.
 * PB_ERR_INVALID for a host that does not resolve, that is not an address of this machine,
 * a port out of range, or a non-loopback host without a token; PB_ERR_IO when the address is
 * in use or cannot be bound (`diag` says which); PB_ERR_UNSUPPORTED when the build has no
 * server. */
PB_API pb_status pb_sim_serve(pb_sim *sim, const pb_sim_serve_config *config, pb_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
