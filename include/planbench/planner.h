/* planbench: planners, problems, stop conditions and results.
 *
 * A planner is made for one engine, configured through named parameters, and solves
 * problems (start, goal region) under a stop condition. A planner outcome (no path found in
 * time, say) is not an error: it is reported in the result. */
#ifndef PLANBENCH_PLANNER_H
#define PLANBENCH_PLANNER_H

#include "engine.h"
#include "path.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a solve ended. */
typedef enum pb_outcome {
    PB_OUTCOME_EXACT,         /**< a path from the start to the goal */
    PB_OUTCOME_APPROXIMATE,   /**< the budget ran out; the path ends at the node nearest the goal */
    PB_OUTCOME_TIMEOUT,       /**< the time limit ran out without a path */
    PB_OUTCOME_INVALID_START, /**< the start is infeasible */
    PB_OUTCOME_INVALID_GOAL,  /**< the goal is infeasible */
    PB_OUTCOME_NO_SOLUTION,   /**< the iteration or node budget ran out without a path */
    PB_OUTCOME_COUNT
} pb_outcome;

/** The outcome's name as printed in JSON: "exact", "approximate", "timeout", ... */
PB_API const char *pb_outcome_str(pb_outcome outcome);

/** A planning query. Borrowed by pb_planner_solve() for the duration of the call. */
typedef struct pb_problem {
    const double *start; /**< dim values */
    const double *goal;  /**< dim values */
    double goal_radius;  /**< a node within this distance that sees the goal reaches it; > 0 */
} pb_problem;

/** When to stop. Zero in a field means "no limit" for that field. */
typedef struct pb_stop_config {
    double time_limit_s;     /**< wall-clock seconds of planning */
    uint64_t max_iterations; /**< planner iterations (samples drawn) */
    uint64_t max_nodes;      /**< nodes in the tree(s) or roadmap */
    bool first_solution;     /**< stop as soon as any path is found */
    bool approximate;        /**< on running out, return the path to the node nearest the goal */
    /** Stop at this budget check of the solve (its planner's n-th call of
     * pb_solve_should_stop, from 1): a replay stops where the recorded run's budget stopped it
     * (pb_result.stop_check), whatever the clock says. */
    uint64_t max_stop_checks;
    /** Likewise for pb_result.reserve_check: keep the rest for the last step after this budget
     * check, not when the clock says so. 0: by the clock. */
    uint64_t reserve_at_check;
    /** When not NULL, stop as soon as *cancel != 0: another thread (or a signal handler of
     * this one) sets it with atomic_store. */
    const pb_atomic_flag *cancel;
    /** When not NULL: nanoseconds during which the solve was held from outside (a paused or
     * slowed visualiser adds them, pb_viz_held_ns()). They are left out of time_limit_s and
     * of the result's times: a budget measures the planner's own time. */
    const pb_atomic_count *held_ns;
} pb_stop_config;

/** Defaults: 10 s, no iteration or node limit, stop at the first solution. */
PB_API pb_stop_config pb_stop_config_default(void);

/** One point of a planner's cost-over-time trace. */
typedef struct pb_cost_sample {
    double time_s;
    double cost;
} pb_cost_sample;

/** Named planner-specific statistic (rewirings, batches, ...). */
typedef struct pb_extra_stat {
    const char *name; /**< static string */
    double value;
} pb_extra_stat;

#define PB_MAX_EXTRA_STATS 8

/** One control of a kinodynamic plan on a vehicle (include/planbench/vehicle.h): inputs held
 * for `duration` seconds, in steps of the result's `control_dt`. */
typedef struct pb_control {
    double acceleration; /**< m/s^2, the vehicle model's input */
    double steer_angle;  /**< radians, positive left */
    int gear;            /**< a pb_gear value */
    double duration;     /**< seconds, a whole number of control_dt steps */
} pb_control;

/** What a solve produced. Caller storage: pb_result_init() / pb_result_finish(). */
typedef struct pb_result {
    pb_outcome outcome;
    pb_path path;           /**< empty unless outcome is EXACT or APPROXIMATE */
    double cost;            /**< path length under the engine's metric; INFINITY when no path */
    double time_s;          /**< planning time (wall clock) */
    double cpu_s;           /**< CPU time of the planning thread during the solve */
    double time_to_first_s; /**< time of the first solution; negative when none */
    uint64_t iterations;
    uint64_t nodes;
    /** The budget check that ended the solve (the planner's n-th call of
     * pb_solve_should_stop, from 1), 0 when the planner ended without one (a roadmap's time
     * reserved for its last search, a search space exhausted). A solve given the same seed and
     * this as pb_stop_config.max_stop_checks does the same work: a time budget's end, made
     * repeatable. */
    uint64_t stop_check;
    /** The budget check after which the planner stopped growing to keep the rest of its time
     * for a last step (PRM's and Lazy PRM's last search), 0 when it did not. */
    uint64_t reserve_check;
    pb_engine_counters counters; /**< engine work done by this solve */
    pb_cost_sample *cost_trace;  /**< (time, cost) at every improvement, owned */
    size_t n_cost_trace;
    size_t cost_trace_capacity;
    pb_extra_stat extra[PB_MAX_EXTRA_STATS];
    size_t n_extra;
    /** Kinodynamic planners (sst, rrt_control): the controls that drive the vehicle model from
     * the start (at rest, awake, in DRIVE: planbench simulate's --state X,Y,YAW) through the path's states,
     * path.q[i + 1] being where control i ends; `cost` is then the distance driven. Owned; empty for other
     * planners. */
    pb_control *controls;
    size_t n_controls, controls_capacity;
    double control_dt; /**< seconds per model step of the controls */
} pb_result;

PB_API void pb_result_init(pb_result *result, int dim);
PB_API void pb_result_finish(pb_result *result);
/** Append (time_s, cost) to the cost trace. */
PB_API pb_status pb_result_trace(pb_result *result, double time_s, double cost);
/** Append a control to `result->controls`. */
PB_API pb_status pb_result_add_control(pb_result *result, const pb_control *control);
/** Set (or add) the named extra statistic; `name` must be a static string. */
PB_API void pb_result_set_extra(pb_result *result, const char *name, double value);

/** Observer events, sent while planning. Pointers in an event are borrowed for the duration
 * of the callback only. */
typedef enum pb_event_type {
    PB_EVENT_SAMPLE,       /**< a sample was drawn: q */
    PB_EVENT_NODE_ADDED,   /**< node `node` of tree `tree` at q, joined to `parent` at parent_q */
    PB_EVENT_EDGE_REMOVED, /**< node `node` left parent `parent` (rewiring) */
    PB_EVENT_SOLUTION,     /**< a new best path: path, cost */
    PB_EVENT_ITERATION,    /**< an iteration finished: iteration */
    PB_EVENT_COUNT
} pb_event_type;

typedef struct pb_event {
    pb_event_type type;
    int tree;
    uint32_t node;
    uint32_t parent; /**< UINT32_MAX for a root */
    const double *q;
    const double *parent_q;
    const pb_path *path;
    double cost;
    uint64_t iteration;
} pb_event;

/** Observer callback; `payload` is the pointer given with pb_planner_set_observer(). */
typedef void (*pb_observer_fn)(const pb_event *event, void *payload);

/** Parameter types. */
typedef enum pb_param_type {
    PB_PARAM_DOUBLE,
    PB_PARAM_INT,
    PB_PARAM_BOOL,
    PB_PARAM_TYPE_COUNT
} pb_param_type;

/** One entry of a planner's parameter table: the parameter is set by name with no
 * per-planner parsing. `offset` is into the planner's parameter struct; the field is a
 * double, an int or a bool according to `type`. */
typedef struct pb_param_def {
    const char *name;
    pb_param_type type;
    size_t offset;
    double low; /**< smallest allowed value */
    double default_value;
    double high;     /**< largest allowed value */
    const char *doc; /**< one line, with units and what 0 means where it is special */
} pb_param_def;

typedef struct pb_planner_impl pb_planner_impl;
typedef struct pb_planner pb_planner;

/** Make a planner by registered name or alias for `engine` (borrowed: it must outlive the
 * planner). Parameters start at their defaults. Owned by the caller. */
PB_API pb_status pb_planner_create(pb_planner **out, const char *name, pb_engine *engine, pb_diag *diag);
/** Destroy a planner; NULL is accepted. */
PB_API void pb_planner_destroy(pb_planner *planner);
/** The planner's registered name. Static. */
PB_API const char *pb_planner_name(const pb_planner *planner);

/** Set a parameter from text ("0.05", "10", "true"): checks the type and range. */
PB_API pb_status pb_planner_set_param(pb_planner *planner, const char *name, const char *value,
                                      pb_diag *diag);
/** Set a parameter from a number: checks the range (and integrality for int/bool). */
PB_API pb_status pb_planner_set_param_double(pb_planner *planner, const char *name, double value,
                                             pb_diag *diag);
/** Read a parameter as a number. PB_ERR_NOT_FOUND when the planner has no such parameter. */
PB_API pb_status pb_planner_get_param(const pb_planner *planner, const char *name, double *value);

/** The goal radius a query gets when its user gives none: the planner's step size (its
 * `step_size` parameter when positive), else the engine's default step
 * (pb_engine_default_step()). The one place that decides it, for the command line, the
 * benchmark runner and the simulation service. */
PB_API double pb_planner_default_goal_radius(const pb_planner *planner);
PB_API bool pb_planner_has_param(const pb_planner *planner, const char *name);

/** Seed of the planner's random stream for the next solve (default 1). */
PB_API void pb_planner_set_seed(pb_planner *planner, uint64_t seed);
/** Listen to planning events; fn NULL stops listening. */
PB_API void pb_planner_set_observer(pb_planner *planner, pb_observer_fn fn, void *payload);

/** Write a cost trace as a JSON object member, `, "cost_trace": [[t, c], ...]`: the one
 * writer for the command line's results and the benchmark records. */
/** The one writer of a solve's result as JSON: its members, each written as `, "name": value`
 * (no braces: the caller wraps them with its own members): "outcome", "cost", "time_s",
 * "cpu_s", "time_to_first_s" (null without a solution), "iterations", "nodes", the engine
 * counters "n_feasible", "n_visible", "n_edge_states", "n_pixels", the planner's extra
 * statistics by name, "cost_trace", and with `with_path` the "path" as rows of the path's
 * dimension. The command line's --json and every benchmark record (journal and JSON) use it. */
PB_API void pb_result_write_json(FILE *out, const pb_result *result, bool with_path);
PB_API void pb_cost_trace_write_json(FILE *out, const pb_cost_sample *trace, size_t n);

/** Version of the record written by pb_planner_write_record_json(). */
#define PB_RECORD_FORMAT "planbench-record/1"

/** The one writer of a solve's record, as a JSON object member `, "record": {...}`: every
 * input the solve used, with defaults resolved, so `planbench replay` can run it again:
 * "format" (PB_RECORD_FORMAT), "planner", "engine", "engine_options" (an object of the options
 * as given to pb_engine_load, values as strings), "edge_check" and its resolution or
 * clearance floor, "map" (`map` as given, null without a file), "start", "goal",
 * "goal_radius", "seed", "params" (every parameter of the planner's table by name, a step size
 * of 0 resolved to the engine's default step; booleans as true/false), the budget
 * "time_limit_s", "max_iterations", "max_nodes" (0: none), "stop" ("first" or "budget"),
 * "approximate", and what the solve reached: "iterations", "stop_check", "reserve_check" (pb_result's),
 * "nodes", "outcome", "n_waypoints", "cost" (null without a path) and "path_hash" (FNV-1a 64 of the
 * waypoints' IEEE doubles, 16 hex digits), which a replay compares. All pointers are borrowed for the call.
 */
PB_API void pb_planner_write_record_json(FILE *out, const pb_planner *planner, const char *map,
                                         const pb_option *engine_options, size_t n_engine_options,
                                         const pb_problem *problem, const pb_stop_config *stop,
                                         const pb_result *result);
/** FNV-1a 64 of a path's waypoints (their IEEE doubles, in order): equal paths, equal hashes. */
PB_API uint64_t pb_path_hash(const pb_path *path);

/** Solve `problem` under `stop`, filling `result` (initialised by the caller with the
 * engine's dim). Returns an error only when the problem is malformed (wrong goal radius),
 * memory runs out, or one of the engine's callbacks misbehaved (PB_ERR_INVALID, the path
 * discarded; pb_engine_fault() says what happened); every planning outcome, including an
 * infeasible start, is in `result`. */
PB_API pb_status pb_planner_solve(pb_planner *planner, const pb_problem *problem, const pb_stop_config *stop,
                                  pb_result *result);

/* The registry, for listings. */
PB_API size_t pb_planner_registry_count(void);
PB_API const pb_planner_impl *pb_planner_registry_get(size_t index);
/** Find by name or alias; NULL if none. */
PB_API const pb_planner_impl *pb_planner_registry_find(const char *name);
PB_API const char *pb_planner_impl_name(const pb_planner_impl *impl);
/** Can the planner run on `engine`? False (with a sentence in `why`, `size` bytes, when not
 * NULL) for a planner that refuses it: a car-only planner on a 2-D map, a planner that connects
 * edges both ways on an engine whose edges are one-way. */
PB_API bool pb_planner_impl_accepts(const pb_planner_impl *impl, const pb_engine *engine, char *why,
                                    size_t size);
PB_API const char *pb_planner_impl_summary(const pb_planner_impl *impl);
/** True for anytime planners (they keep improving the path until the budget runs out). */
PB_API bool pb_planner_impl_anytime(const pb_planner_impl *impl);
/** NULL-terminated list of aliases (possibly empty). */
PB_API const char *const *pb_planner_impl_aliases(const pb_planner_impl *impl);
/** The parameter table; `*n` gets its length. */
PB_API const pb_param_def *pb_planner_impl_params(const pb_planner_impl *impl, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
