/* planbench: the interface for planner implementers.
 *
 * A planner is a `pb_planner_impl` table: its name, its parameter table (a struct of
 * parameters described field by field) and a solve function. Planners never know which
 * engine they run on: they use only the engine API. Register a new planner by adding it to
 * src/core/registry.c. */
#ifndef PLANBENCH_IMPL_PLANNER_IMPL_H
#define PLANBENCH_IMPL_PLANNER_IMPL_H

#include "../planner.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Everything a solve needs, prepared by the core. The start and goal have been checked
 * for feasibility, the result is initialised and the engine counters reset. */
typedef struct pb_solve_ctx {
    pb_engine *engine;
    const pb_problem *problem;
    const pb_stop_config *stop;
    pb_rng rng;              /**< seeded from the planner's seed */
    pb_observer_fn observer; /**< NULL when nobody listens */
    void *observer_payload;
    double t_start; /**< pb_clock_seconds() at the start of the solve */
    int dim;
    uint64_t stop_checks; /**< internal: calls of pb_solve_should_stop */
    int stop_reason;      /**< internal: why pb_solve_should_stop said yes (a pb_outcome) */
    uint64_t n_checks;    /**< internal: every call of pb_solve_should_stop, from 1 */
    uint64_t stop_check;  /**< internal: the call that first said yes (0: none yet) */
    uint64_t
        reserve_check; /**< internal: n_checks when the planner kept its remaining time for a last step */
} pb_solve_ctx;

struct pb_planner_impl {
    const char *name;           /**< registry name: "rrt" */
    const char *const *aliases; /**< NULL-terminated, may be NULL */
    const char *summary;        /**< one line for `planbench list` */
    const pb_param_def *params; /**< the parameter table */
    size_t n_params;
    size_t params_size; /**< sizeof the planner's parameter struct */
    bool anytime;       /**< keeps improving after the first solution */
    /** Checks and costs every edge in the direction a path runs (from the tree towards the
     * sample, the new node towards the neighbour it rewires): such a planner is correct on an
     * engine whose edges are one-way (pb_engine_is_symmetric() false: Dubins curves); others
     * are refused there. */
    bool one_way_edges;
    /** Optional: can the planner run on `engine`? False with one sentence in `why` (`size`
     * bytes) refuses it when the planner is made (a car-only planner on a 2-D map). */
    bool (*accepts)(const pb_engine *engine, char *why, size_t size);
    /** Solve. `params` points to the planner's parameter struct. Fill result->path (from the
     * exact start to the exact goal), result->iterations and ->nodes, the cost trace, and
     * return PB_OK; the core sets the outcome's time, cost and counters. Set
     * result->outcome to EXACT when the path reaches the goal; otherwise the core derives
     * the outcome from why the planner stopped. */
    pb_status (*solve)(const void *params, pb_solve_ctx *ctx, pb_result *result);
};

/** Should the planner stop now? Checks the cancel flag and the iteration and node budgets
 * every call, the clock every few calls, and stop->first_solution when `have_solution`. */
PB_API bool pb_solve_should_stop(pb_solve_ctx *ctx, uint64_t iterations, uint64_t nodes, bool have_solution);

/** Seconds since the solve started, without the time it was held from outside
 * (pb_stop_config.held_ns). */
PB_API double pb_solve_elapsed(const pb_solve_ctx *ctx);

/** Send an event to the observer, if any. */
static inline void pb_solve_emit(const pb_solve_ctx *ctx, const pb_event *event)
{
    if (ctx->observer)
        ctx->observer(event, ctx->observer_payload);
}

/** Record a new best solution: appends to the cost trace, sets time_to_first_s on the first
 * one, and emits PB_EVENT_SOLUTION with `path` (which may be NULL). */
PB_API void pb_solve_report_solution(pb_solve_ctx *ctx, pb_result *result, double cost, const pb_path *path);

/** The step size to use: `step_size` when > 0, else the engine's default
 * (pb_engine_default_step(): 2% of the bounds' diagonal unless the engine has its own). */
PB_API double pb_solve_step_size(const pb_solve_ctx *ctx, double step_size);

/** Make a planner from its table, registered or not (pb_planner_create() finds a registered
 * one by name): parameters at their defaults, seed 1. Owned by the caller
 * (pb_planner_destroy); `engine` is borrowed for the planner's lifetime. */
PB_API pb_status pb_planner_create_impl(pb_planner **out, const pb_planner_impl *impl, pb_engine *engine,
                                        pb_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
