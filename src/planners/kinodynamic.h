/* What the kinodynamic planners (rrt_control.c, sst.c) share: a tree of vehicle states grown by
 * propagating random controls through the vehicle model (include/planbench/vehicle.h), every
 * step validated by pb_vehicle_step_checked() (the footprint swept against the map), so a plan's
 * controls replay in the simulator state for state. Private to src/planners. */
#ifndef PB_PLANNERS_KINODYNAMIC_H
#define PB_PLANNERS_KINODYNAMIC_H

#include "planbench/impl/planner_impl.h"
#include "planbench/vehicle.h"

/* The control space: a target speed in [v_min, v_max] reached at a constant acceleration over
 * a duration of min_steps..max_steps model steps of dt, a steer angle in [-max, max]. */
typedef struct kd_space {
    pb_engine *engine;
    pb_vehicle_config vehicle;
    double radius; /* least turning radius, m: weighs the heading in the metric */
    double dt;
    int min_steps, max_steps;
    double v_min, v_max;
    double lo[2], hi[2];
} kd_space;

/* The tree: states, parents, the control that reached each node and the distance driven. */
typedef struct kd_tree {
    pb_vehicle_state *state;
    uint32_t *parent;
    pb_control *control;
    double *cost;
    bool *active; /* SST's: a node others may still grow from */
    uint32_t n, cap;
} kd_tree;

/* The parameters both planners take, with OMPL's names where it has them. */
#define KD_PARAM_DEFS(type)                                                                                  \
    {"control_dt",                                                                                           \
     PB_PARAM_DOUBLE,                                                                                        \
     offsetof(type, control_dt),                                                                             \
     0.001,                                                                                                  \
     0.1,                                                                                                    \
     10.0,                                                                                                   \
     "seconds per model step of a control (OMPL's propagation step size)"},                                  \
        {"min_control_duration",                                                                             \
         PB_PARAM_INT,                                                                                       \
         offsetof(type, min_steps),                                                                          \
         1,                                                                                                  \
         1,                                                                                                  \
         100000,                                                                                             \
         "fewest steps a control is held (OMPL's min control duration)"},                                    \
        {"max_control_duration",                                                                             \
         PB_PARAM_INT,                                                                                       \
         offsetof(type, max_steps),                                                                          \
         1,                                                                                                  \
         10,                                                                                                 \
         100000,                                                                                             \
         "most steps a control is held (OMPL's max control duration)"},                                      \
        {"min_speed",                                                                                        \
         PB_PARAM_DOUBLE,                                                                                    \
         offsetof(type, v_min),                                                                              \
         -1000.0,                                                                                            \
         -2.0,                                                                                               \
         0.0,                                                                                                \
         "slowest target speed of a control, m/s (negative: reverse; the vehicle's own limit binds too)"},   \
        {"max_speed",                                                                                        \
         PB_PARAM_DOUBLE,                                                                                    \
         offsetof(type, v_max),                                                                              \
         0.0,                                                                                                \
         5.0,                                                                                                \
         1000.0,                                                                                             \
         "fastest target speed of a control, m/s"},                                                          \
    {                                                                                                        \
        "goal_bias", PB_PARAM_DOUBLE, offsetof(type, goal_bias), 0.0, 0.05, 1.0,                             \
            "probability of sampling the goal's position instead of a uniform pose"                          \
    }

/* The fields KD_PARAM_DEFS describes. */
#define KD_PARAM_FIELDS                                                                                      \
    double control_dt;                                                                                       \
    int min_steps, max_steps;                                                                                \
    double v_min, v_max;                                                                                     \
    double goal_bias

/* The root of a plan: at rest at `start` (x, y, yaw), awake, in DRIVE, as planbench simulate
 * starts from --state X,Y,YAW. */
pb_vehicle_state kd_root(const double *start);

/* A car engine with its vehicle, else false with a sentence in `why`. */
bool kd_accepts(const pb_engine *engine, char *why, size_t size);

/* The space of `engine` with the planner's settings. */
void kd_space_init(kd_space *sp, pb_engine *engine, double dt, int min_steps, int max_steps, double v_min,
                   double v_max);

/* The metric between a state and a pose (x, y, yaw): planar distance plus half the turning
 * radius times the heading difference. */
double kd_distance(const kd_space *sp, const pb_vehicle_state *s, const double *q);

/* A pose to grow towards: the goal's position (any heading) with probability `goal_bias`. */
void kd_sample(const kd_space *sp, pb_rng *rng, const double *goal, double goal_bias, double *q);

/* A random control from `from` and its number of steps. */
int kd_random_control(const kd_space *sp, pb_rng *rng, const pb_vehicle_state *from, pb_control *out);

/* Drive `steps` steps of `control` from `*s`, each validated; stops before the first step that
 * touches anything. Returns the steps driven (their state in `*s`), adds the distance to
 * `*driven`. */
int kd_propagate(const kd_space *sp, pb_vehicle_state *s, const pb_control *control, int steps,
                 double *driven);

/* Points (x, y, yaw) by id in a uniform grid of their positions, for the nearest ones under
 * kd_distance()'s metric, which is never less than the planar distance: rings of cells around
 * the query are visited until the nearest ring's planar distance exceeds the best so far. The
 * answers are those of a linear scan over the ids in order (ties go to the smaller id). */
typedef struct kd_grid_point {
    double x, y, yaw;
    uint32_t next; /* the previous id in its cell */
} kd_grid_point;

typedef struct kd_grid {
    double lo[2], cell, heading_weight;
    int width, height;
    uint32_t *head; /* per cell: its latest id, UINT32_MAX when empty */
    kd_grid_point *point;
    size_t n, cap;
} kd_grid;

pb_status kd_grid_init(kd_grid *g, const kd_space *sp, double cell);
void kd_grid_finish(kd_grid *g);
/* Add the next id (ids are 0, 1, 2, ... in order). */
pb_status kd_grid_add(kd_grid *g, double x, double y, double yaw);
/* The nearest id to q (x, y, yaw) among those with active[id] (all when active is NULL),
 * UINT32_MAX when none; its distance in `*dist`. */
uint32_t kd_grid_nearest(const kd_grid *g, const double *q, const bool *active, double *dist);
/* Among the ids with active[id] within `radius` of q, the one of least cost[id] (ties: the smaller
 * id); UINT32_MAX when none. */
uint32_t kd_grid_cheapest(const kd_grid *g, const double *q, double radius, const bool *active,
                          const double *cost);

pb_status kd_tree_init(kd_tree *t, const pb_vehicle_state *root);
void kd_tree_finish(kd_tree *t);
/* Add a node; UINT32_MAX when out of memory. */
uint32_t kd_tree_add(kd_tree *t, const pb_vehicle_state *s, uint32_t parent, const pb_control *control,
                     double cost);

/* The path (x, y, yaw of each node from the root) and controls to `node` into `result`, its cost
 * the distance driven; the outcome EXACT. */
pb_status kd_write_result(const kd_space *sp, const kd_tree *t, uint32_t node, pb_solve_ctx *ctx,
                          pb_result *result);

#endif
