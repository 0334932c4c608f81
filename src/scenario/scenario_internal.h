/* The scenario module's private parts (include/planbench/scenario.h is the public face):
 * the parsed request, the scene it describes, and the drivers that steer the vehicle. */
#ifndef PB_SCENARIO_INTERNAL_H
#define PB_SCENARIO_INTERNAL_H

#include "planbench/scenario.h"
#include "planbench/tracker.h"

#include <limits.h>

/* A catalogue entry: what an auto_scene_gen structural scene actor (a UE blueprint's path
 * name) is on the map, at scale 1. */
typedef struct scene_kind {
    char path_name[256];
    bool is_box;          /* a box `length` x `width` (along and across its yaw), else a disc */
    double radius;        /* metres */
    double length, width; /* metres */
    bool traversable;     /* drawn, never an obstacle */
} scene_kind;

/* One placed actor, in the scene's frame. */
typedef struct scene_actor {
    const scene_kind *kind;
    double x, y, yaw, scale;
    pb_footprint footprint; /* scaled */
} scene_actor;

/* The driver's command for the next step. */
typedef struct driver_command {
    pb_vehicle_input input;
    unsigned messages; /* control input messages that arrived for this step */
    bool has_speed;    /* the command names a speed (Control.longitudinal.velocity) */
    double speed;      /* m/s, when has_speed */
} driver_command;

/* A driver: one file per kind, as engines and planners are. */
typedef struct scenario_driver_impl {
    const char *name;
    /* Get ready for a run of `scenario` on `engine` (borrowed for the run). */
    pb_status (*start)(void **self, const pb_scenario *scenario, pb_engine *engine, pb_diag *diag);
    /* The command for the step that starts at sim time `t` (seconds since the run began) from
     * `state`: false while the driver has given no control input yet. */
    bool (*command)(void *self, double t, const pb_vehicle_state *state, driver_command *out);
    void (*finish)(void *self);
    /* A command from outside (pb_scenario_runner_command()): only the external driver has one. */
    pb_status (*input)(void *self, const pb_scenario_command *command);
} scenario_driver_impl;

extern const scenario_driver_impl scenario_driver_inputs;
extern const scenario_driver_impl scenario_driver_planner;
extern const scenario_driver_impl scenario_driver_path;
extern const scenario_driver_impl scenario_driver_external;

/* A planner run on the scene: which planner, its parameters, its budget. */
typedef struct scenario_plan_config {
    char planner[64];
    uint64_t seed;
    double radius_margin; /* plan with turning radius this times the least (a tracker needs steer to spare) */
    double margin;        /* plan with the footprint grown by this, m (a tracker strays a little) */
    uint64_t max_iterations; /* 0: none */
    double time_limit;       /* s; 0: none */
    char param_names[16][64];
    double param_values[16];
    size_t n_params;
} scenario_plan_config;

struct pb_scenario {
    char name[PATH_MAX];
    char base_dir[PATH_MAX];
    /* RunScenario's fields, converted to the scene's frame (metres, radians) */
    int worker_id;
    int scenario_number;
    double sim_timeout_period;                  /* s; <= 0 disables */
    double vehicle_idling_timeout_period;       /* s; <= 0 disables */
    double vehicle_stuck_timeout_period;        /* s; <= 0 disables */
    double max_vehicle_roll, max_vehicle_pitch; /* radians */
    bool allow_collisions;
    double start[3]; /* x, y, yaw */
    double goal[2];
    double goal_radius;
    bool take_scene_capture, scene_capture_only;
    int capture_size;
    /* the scene */
    bool has_landscape;
    double nominal_size, border; /* metres; the nominal landscape covers [0, nominal_size]^2 */
    int subdivisions;
    double resolution;       /* metres per map cell */
    char map_path[PATH_MAX]; /* a map_server map in place of (or beside) the landscape, or "" */
    scene_kind *kinds;
    size_t n_kinds;
    scene_actor *actors; /* visible ones only */
    size_t n_actors;
    size_t n_layout_instances; /* every instance of every layout, visible or not */
    /* planbench's extensions */
    pb_vehicle_config vehicle;
    char vehicle_path[PATH_MAX];
    const scenario_driver_impl *driver;
    char inputs_path[PATH_MAX];
    char path_csv[PATH_MAX];   /* the path driver's */
    double dt;                 /* s */
    double trajectory_rate;    /* Hz */
    double nominal_speed;      /* m/s, for the reference time */
    double max_sim_time;       /* s: planbench's own bound on a run whose timers are all off */
    scenario_plan_config plan; /* the planner driver's */
    pb_tracker_params tracker; /* the planner driver's */
    scenario_plan_config reference_plan;
    bool reference; /* compute the reference plan */
};

/* Build the scene on engine `engine_name` ("image2d", or "car" for a planner on the vehicle's
 * C-space) with `options`: the map (the landscape's, written to a private temporary folder,
 * or the scenario's `map`) with the actors as obstacles. */
pb_status scene_build_engine(const pb_scenario *scenario, const char *engine_name, const pb_option *options,
                             size_t n_options, pb_engine **out, pb_diag *diag);

/* Plan from the start to the goal (its heading: from the start towards the goal) on a car
 * engine of the scene with `config`: PB_OK with `*path` (and `*cost`, metres) when a path
 * was found, PB_ERR_NOT_FOUND when none was, another error naming the cause. `*engine_out`
 * (may be NULL) keeps the engine, owned by the caller. */
pb_status scenario_plan(const pb_scenario *scenario, const scenario_plan_config *config, pb_path *path,
                        double *cost, pb_engine **engine_out, pb_diag *diag);

/* Resolve `path` against `base_dir` into `out`. */
void scenario_resolve_path(const pb_scenario *scenario, const char *path, char *out, size_t size);

/* The actor's footprint and pose (x, y, yaw) for the engine. */
void scene_actor_pose(const scene_actor *actor, double *pose);

/* A lower bound on the distance from the vehicle's footprint at `pose` to every
 * non-traversable actor and to the scene's edge (metres; 0 on contact). */
double scene_clearance(const pb_scenario *scenario, const pb_engine *engine, const double *pose);

#endif
