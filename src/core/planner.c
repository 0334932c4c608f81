/* Planners: creation by name, parameters by name, and the solve wrapper that checks the
 * problem, times the solve, counts engine work and derives the outcome. */
#include "planbench/impl/planner_impl.h"
#include "core/grow.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct pb_planner {
    const pb_planner_impl *impl;
    pb_engine *engine;
    void *params;
    uint64_t seed;
    pb_observer_fn observer;
    void *observer_payload;
};

const char *pb_outcome_str(pb_outcome outcome)
{
    static const char *const names[PB_OUTCOME_COUNT] = {
        "exact", "approximate", "timeout", "invalid_start", "invalid_goal", "no_solution",
    };
    return (unsigned)outcome < PB_OUTCOME_COUNT ? names[outcome] : "unknown";
}

pb_stop_config pb_stop_config_default(void)
{
    pb_stop_config stop;
    memset(&stop, 0, sizeof stop);
    stop.time_limit_s = 10.0;
    stop.first_solution = true;
    return stop;
}

void pb_result_init(pb_result *result, int dim)
{
    memset(result, 0, sizeof *result);
    pb_path_init(&result->path, dim);
    result->cost = INFINITY;
    result->time_to_first_s = -1.0;
}

void pb_result_finish(pb_result *result)
{
    if (!result)
        return;
    pb_path_finish(&result->path);
    free(result->cost_trace);
    result->cost_trace = NULL;
    result->n_cost_trace = result->cost_trace_capacity = 0;
    free(result->controls);
    result->controls = NULL;
    result->n_controls = result->controls_capacity = 0;
}

pb_status pb_result_add_control(pb_result *result, const pb_control *control)
{
    if (result->n_controls == result->controls_capacity) {
        const size_t cap = result->controls_capacity ? 2 * result->controls_capacity : 64;
        pb_control *grown = realloc(result->controls, cap * sizeof *grown);
        if (!grown)
            return PB_ERR_NOMEM;
        result->controls = grown;
        result->controls_capacity = cap;
    }
    result->controls[result->n_controls++] = *control;
    return PB_OK;
}

void pb_result_write_json(FILE *out, const pb_result *r, bool with_path)
{
    fputs(", \"outcome\": ", out);
    pb_json_write_string(out, pb_outcome_str(r->outcome));
    fputs(", \"cost\": ", out);
    pb_json_write_number(out, r->cost);
    fputs(", \"time_s\": ", out);
    pb_json_write_number(out, r->time_s);
    fputs(", \"cpu_s\": ", out);
    pb_json_write_number(out, r->cpu_s);
    fputs(", \"time_to_first_s\": ", out);
    pb_json_write_number(out, r->time_to_first_s >= 0.0 ? r->time_to_first_s : NAN);
    fprintf(out, ", \"iterations\": %llu, \"nodes\": %llu", (unsigned long long)r->iterations,
            (unsigned long long)r->nodes);
    fprintf(out, ", \"n_feasible\": %llu, \"n_visible\": %llu, \"n_edge_states\": %llu, \"n_pixels\": %llu",
            (unsigned long long)r->counters.n_feasible, (unsigned long long)r->counters.n_visible,
            (unsigned long long)r->counters.n_edge_states, (unsigned long long)r->counters.n_pixels);
    for (size_t i = 0; i < r->n_extra; i++) {
        fputs(", ", out);
        pb_json_write_string(out, r->extra[i].name);
        fputs(": ", out);
        pb_json_write_number(out, r->extra[i].value);
    }
    pb_cost_trace_write_json(out, r->cost_trace, r->n_cost_trace);
    if (r->n_controls > 0) { /* a kinodynamic plan: the inputs that replay it */
        static const char *const gears[] = {"PARKING", "REVERSE", "NEUTRAL", "DRIVE"};
        fputs(", \"control_dt\": ", out);
        pb_json_write_number(out, r->control_dt);
        fputs(", \"controls\": [", out);
        for (size_t i = 0; i < r->n_controls; i++) {
            const pb_control *c = &r->controls[i];
            fputs(i ? ", {\"acceleration\": " : "{\"acceleration\": ", out);
            pb_json_write_number(out, c->acceleration);
            fputs(", \"steer_angle\": ", out);
            pb_json_write_number(out, c->steer_angle);
            fputs(", \"gear\": ", out);
            pb_json_write_string(out, c->gear >= 0 && c->gear < 4 ? gears[c->gear] : "?");
            fputs(", \"duration\": ", out);
            pb_json_write_number(out, c->duration);
            fputc('}', out);
        }
        fputc(']', out);
    }
    if (!with_path)
        return;
    const int dim = r->path.dim;
    fputs(", \"path\": [", out);
    for (size_t i = 0; i < r->path.n; i++) {
        const double *q = pb_path_at(&r->path, i);
        fputs(i ? ", [" : "[", out);
        for (int k = 0; k < dim; k++) {
            if (k)
                fputs(", ", out);
            pb_json_write_number(out, q[k]);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

void pb_cost_trace_write_json(FILE *out, const pb_cost_sample *trace, size_t n)
{
    fputs(", \"cost_trace\": [", out);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", [" : "[", out);
        pb_json_write_number(out, trace[i].time_s);
        fputs(", ", out);
        pb_json_write_number(out, trace[i].cost);
        fputc(']', out);
    }
    fputc(']', out);
}

pb_status pb_result_trace(pb_result *result, double time_s, double cost)
{
    pb_cost_sample *t =
        pb_reserve(result->cost_trace, &result->cost_trace_capacity, result->n_cost_trace + 1, sizeof *t, 64);
    if (!t)
        return PB_ERR_NOMEM;
    result->cost_trace = t;
    result->cost_trace[result->n_cost_trace++] = (pb_cost_sample){time_s, cost};
    return PB_OK;
}

void pb_result_set_extra(pb_result *result, const char *name, double value)
{
    for (size_t i = 0; i < result->n_extra; i++)
        if (strcmp(result->extra[i].name, name) == 0) {
            result->extra[i].value = value;
            return;
        }
    if (result->n_extra < PB_MAX_EXTRA_STATS)
        result->extra[result->n_extra++] = (pb_extra_stat){name, value};
}

/* ---- registry views ---- */

const char *pb_planner_impl_name(const pb_planner_impl *impl)
{
    return impl->name;
}
const char *pb_planner_impl_summary(const pb_planner_impl *impl)
{
    return impl->summary;
}
bool pb_planner_impl_anytime(const pb_planner_impl *impl)
{
    return impl->anytime;
}
const char *const *pb_planner_impl_aliases(const pb_planner_impl *impl)
{
    static const char *const none[] = {NULL};
    return impl->aliases ? impl->aliases : none;
}
const pb_param_def *pb_planner_impl_params(const pb_planner_impl *impl, size_t *n)
{
    *n = impl->n_params;
    return impl->params;
}

/* ---- parameters ---- */

static const pb_param_def *find_param(const pb_planner_impl *impl, const char *name)
{
    for (size_t i = 0; i < impl->n_params; i++)
        if (strcmp(impl->params[i].name, name) == 0)
            return &impl->params[i];
    return NULL;
}

static void store_param(void *params, const pb_param_def *def, double value)
{
    char *field = (char *)params + def->offset;
    switch (def->type) {
    case PB_PARAM_DOUBLE:
        memcpy(field, &value, sizeof value);
        break;
    case PB_PARAM_INT: {
        int v = (int)value;
        memcpy(field, &v, sizeof v);
        break;
    }
    case PB_PARAM_BOOL: {
        bool v = value != 0.0;
        memcpy(field, &v, sizeof v);
        break;
    }
    case PB_PARAM_TYPE_COUNT:
        break;
    }
}

static double load_param(const void *params, const pb_param_def *def)
{
    const char *field = (const char *)params + def->offset;
    switch (def->type) {
    case PB_PARAM_DOUBLE: {
        double v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    case PB_PARAM_INT: {
        int v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    case PB_PARAM_BOOL: {
        bool v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    case PB_PARAM_TYPE_COUNT:
        break;
    }
    return 0.0;
}

bool pb_planner_impl_accepts(const pb_planner_impl *impl, const pb_engine *engine, char *why, size_t size)
{
    char buf[400];
    if (!why) {
        why = buf;
        size = sizeof buf;
    }
    if (!pb_engine_is_symmetric(engine) && !impl->one_way_edges) {
        snprintf(
            why, size,
            "planner '%s' connects edges both ways, and engine '%s' has one-way edges (Dubins curves): use "
            "rrt, rrtstar, informedrrt or hybrid_astar, or Reeds-Shepp curves",
            impl->name, pb_engine_name(engine));
        return false;
    }
    return !impl->accepts || impl->accepts(engine, why, size);
}

pb_status pb_planner_create_impl(pb_planner **out, const pb_planner_impl *impl, pb_engine *engine,
                                 pb_diag *diag)
{
    *out = NULL;
    char why[400];
    if (!pb_planner_impl_accepts(impl, engine, why, sizeof why)) {
        pb_diag_set(diag, NULL, 0, 0, "%s", why);
        return PB_ERR_INVALID;
    }
    pb_planner *p = calloc(1, sizeof *p);
    void *params = calloc(1, impl->params_size ? impl->params_size : 1);
    if (!p || !params) {
        free(p);
        free(params);
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    p->impl = impl;
    p->engine = engine;
    p->params = params;
    p->seed = 1;
    for (size_t i = 0; i < impl->n_params; i++)
        store_param(params, &impl->params[i], impl->params[i].default_value);
    *out = p;
    return PB_OK;
}

void pb_planner_destroy(pb_planner *planner)
{
    if (!planner)
        return;
    free(planner->params);
    free(planner);
}

const char *pb_planner_name(const pb_planner *planner)
{
    return planner->impl->name;
}

bool pb_planner_has_param(const pb_planner *planner, const char *name)
{
    return find_param(planner->impl, name) != NULL;
}

pb_status pb_planner_set_param_double(pb_planner *planner, const char *name, double value, pb_diag *diag)
{
    const pb_param_def *def = find_param(planner->impl, name);
    if (!def) {
        pb_diag_set(diag, NULL, 0, 0, "planner '%s' has no parameter '%s' (see 'planbench list')",
                    planner->impl->name, name);
        return PB_ERR_NOT_FOUND;
    }
    if (!isfinite(value) || value < def->low || value > def->high) {
        pb_diag_set(diag, NULL, 0, 0, "parameter '%s' of '%s' must be in [%g, %g], got %g", name,
                    planner->impl->name, def->low, def->high, value);
        return PB_ERR_INVALID;
    }
    if (def->type != PB_PARAM_DOUBLE && value != floor(value)) {
        pb_diag_set(diag, NULL, 0, 0, "parameter '%s' of '%s' must be a whole number, got %g", name,
                    planner->impl->name, value);
        return PB_ERR_INVALID;
    }
    store_param(planner->params, def, value);
    return PB_OK;
}

pb_status pb_planner_set_param(pb_planner *planner, const char *name, const char *value, pb_diag *diag)
{
    const pb_param_def *def = find_param(planner->impl, name);
    if (!def)
        return pb_planner_set_param_double(planner, name, 0.0, diag); /* reports the unknown name */
    double v;
    if (def->type == PB_PARAM_BOOL &&
        (strcasecmp(value, "true") == 0 || strcasecmp(value, "yes") == 0 || strcasecmp(value, "on") == 0)) {
        v = 1.0;
    } else if (def->type == PB_PARAM_BOOL &&
               (strcasecmp(value, "false") == 0 || strcasecmp(value, "no") == 0 ||
                strcasecmp(value, "off") == 0)) {
        v = 0.0;
    } else {
        char *end;
        errno = 0;
        v = strtod(value, &end);
        if (end == value || *end != '\0' || errno == ERANGE) {
            pb_diag_set(diag, NULL, 0, 0, "parameter '%s' of '%s' expects a %s, got '%s'", name,
                        planner->impl->name,
                        def->type == PB_PARAM_BOOL  ? "boolean (true/false)"
                        : def->type == PB_PARAM_INT ? "whole number"
                                                    : "number",
                        value);
            return PB_ERR_INVALID;
        }
    }
    return pb_planner_set_param_double(planner, name, v, diag);
}

pb_status pb_planner_get_param(const pb_planner *planner, const char *name, double *value)
{
    const pb_param_def *def = find_param(planner->impl, name);
    if (!def)
        return PB_ERR_NOT_FOUND;
    *value = load_param(planner->params, def);
    return PB_OK;
}

double pb_planner_default_goal_radius(const pb_planner *planner)
{
    double step = 0.0;
    if (pb_planner_get_param(planner, "step_size", &step) != PB_OK || !(step > 0.0))
        step = pb_engine_default_step(planner->engine);
    return step;
}

void pb_planner_set_seed(pb_planner *planner, uint64_t seed)
{
    planner->seed = seed;
}

void pb_planner_set_observer(pb_planner *planner, pb_observer_fn fn, void *payload)
{
    planner->observer = fn;
    planner->observer_payload = payload;
}

/* ---- solving ---- */

double pb_solve_elapsed(const pb_solve_ctx *ctx)
{
    const pb_atomic_count *held = ctx->stop ? ctx->stop->held_ns : NULL;
    const double held_s = held ? 1e-9 * (double)atomic_load_explicit(held, memory_order_relaxed) : 0.0;
    return pb_clock_seconds() - ctx->t_start - held_s;
}
/* Why the solve stops, or PB_OUTCOME_COUNT to go on. */
static int stop_reason(pb_solve_ctx *ctx, uint64_t iterations, uint64_t nodes, bool have_solution);

bool pb_solve_should_stop(pb_solve_ctx *ctx, uint64_t iterations, uint64_t nodes, bool have_solution)
{
    const uint64_t check = ++ctx->n_checks;
    const int reason = stop_reason(ctx, iterations, nodes, have_solution);
    if (reason == PB_OUTCOME_COUNT)
        return false;
    ctx->stop_reason = reason;
    if (ctx->stop_check == 0)
        ctx->stop_check = check;
    return true;
}

static int stop_reason(pb_solve_ctx *ctx, uint64_t iterations, uint64_t nodes, bool have_solution)
{
    const pb_stop_config *stop = ctx->stop;
    if (have_solution && stop->first_solution)
        return PB_OUTCOME_EXACT;
    if (stop->cancel && atomic_load_explicit(stop->cancel, memory_order_relaxed))
        return PB_OUTCOME_TIMEOUT;
    if ((stop->max_iterations && iterations >= stop->max_iterations) ||
        (stop->max_nodes && nodes >= stop->max_nodes))
        return PB_OUTCOME_NO_SOLUTION;
    /* The clock is read every 16 calls: cheap, and still within microseconds of the limit. */
    if (stop->time_limit_s > 0.0 && (ctx->stop_checks++ & 15) == 0 &&
        pb_solve_elapsed(ctx) >= stop->time_limit_s)
        return PB_OUTCOME_TIMEOUT;
    if (stop->max_stop_checks && ctx->n_checks >= stop->max_stop_checks)
        return PB_OUTCOME_TIMEOUT; /* a replay, where the recorded budget ended the run */
    return PB_OUTCOME_COUNT;
}

void pb_solve_report_solution(pb_solve_ctx *ctx, pb_result *result, double cost, const pb_path *path)
{
    const double t = pb_solve_elapsed(ctx);
    if (result->time_to_first_s < 0.0)
        result->time_to_first_s = t;
    pb_result_trace(result, t, cost); /* a trace that cannot grow loses a point, not the solve */
    if (ctx->observer) {
        pb_event ev = {.type = PB_EVENT_SOLUTION, .path = path, .cost = cost};
        ctx->observer(&ev, ctx->observer_payload);
    }
}

double pb_solve_step_size(const pb_solve_ctx *ctx, double step_size)
{
    return step_size > 0.0 ? step_size : pb_engine_default_step(ctx->engine);
}

/* CPU time of the calling thread: steadier than wall time on a shared machine. */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void counters_sub(pb_engine_counters *out, const pb_engine_counters *after,
                         const pb_engine_counters *before)
{
    out->n_feasible = after->n_feasible - before->n_feasible;
    out->n_visible = after->n_visible - before->n_visible;
    out->n_edge_states = after->n_edge_states - before->n_edge_states;
    out->n_pixels = after->n_pixels - before->n_pixels;
}

pb_status pb_planner_solve(pb_planner *planner, const pb_problem *problem, const pb_stop_config *stop,
                           pb_result *result)
{
    if (!(problem->goal_radius > 0.0) || !isfinite(problem->goal_radius))
        return PB_ERR_INVALID;
    const int dim = pb_engine_dim(planner->engine);
    pb_path_clear(&result->path);
    result->path.dim = dim;
    result->outcome = PB_OUTCOME_COUNT; /* "not decided" */
    result->cost = INFINITY;
    result->time_s = 0.0;
    result->cpu_s = 0.0;
    result->time_to_first_s = -1.0;
    result->iterations = result->nodes = 0;
    result->stop_check = result->reserve_check = 0;
    result->n_cost_trace = 0;
    result->n_extra = 0;
    result->n_controls = 0;
    result->control_dt = 0.0;

    const pb_engine_counters before = pb_engine_get_counters(planner->engine);
    const double cpu_start = thread_cpu_seconds();
    pb_solve_ctx ctx = {
        .engine = planner->engine,
        .problem = problem,
        .stop = stop,
        .observer = planner->observer,
        .observer_payload = planner->observer_payload,
        .t_start = pb_clock_seconds(),
        .dim = dim,
        .stop_reason = PB_OUTCOME_NO_SOLUTION,
    };
    pb_rng_seed(&ctx.rng, planner->seed);

    pb_status st = PB_OK;
    if (!pb_engine_feasible(planner->engine, problem->start))
        result->outcome = PB_OUTCOME_INVALID_START;
    else if (!pb_engine_feasible(planner->engine, problem->goal))
        result->outcome = PB_OUTCOME_INVALID_GOAL;
    else
        st = planner->impl->solve(planner->params, &ctx, result);

    result->stop_check = ctx.stop_check;
    result->reserve_check = ctx.reserve_check;
    result->time_s = pb_solve_elapsed(&ctx);
    result->cpu_s = thread_cpu_seconds() - cpu_start;
    const pb_engine_counters after = pb_engine_get_counters(planner->engine);
    counters_sub(&result->counters, &after, &before);
    if (result->outcome == PB_OUTCOME_COUNT) {
        if (result->path.n > 0 && stop->approximate)
            result->outcome = PB_OUTCOME_APPROXIMATE;
        else
            result->outcome =
                ctx.stop_reason == PB_OUTCOME_EXACT ? PB_OUTCOME_NO_SOLUTION : (pb_outcome)ctx.stop_reason;
    }
    if (result->outcome != PB_OUTCOME_EXACT && result->outcome != PB_OUTCOME_APPROXIMATE) {
        pb_path_clear(&result->path);
        result->n_controls = 0;
    }
    /* a kinodynamic plan's cost is the distance its controls drive (set by the planner): its
     * states are joined by the model's motion, not by the engine's edges */
    if (result->n_controls == 0 || result->path.n == 0)
        result->cost = result->path.n > 0 ? pb_path_length(&result->path, planner->engine) : INFINITY;
    if (st == PB_OK && pb_engine_fault(planner->engine, NULL) != PB_OK) {
        /* an engine callback misbehaved: its answers, and so this path, cannot be trusted */
        pb_path_clear(&result->path);
        result->cost = INFINITY;
        st = PB_ERR_INVALID;
    }
    return st;
}

/* ---- the record of a solve (planbench replay) ---- */

uint64_t pb_path_hash(const pb_path *path)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < path->n; i++) {
        const unsigned char *bytes = (const unsigned char *)pb_path_at(path, i);
        for (size_t k = 0; k < (size_t)path->dim * sizeof(double); k++) {
            h ^= bytes[k];
            h *= 0x100000001b3u;
        }
    }
    return h;
}

static void write_numbers(FILE *out, const double *q, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            fputs(", ", out);
        pb_json_write_number(out, q[i]);
    }
    fputc(']', out);
}

void pb_planner_write_record_json(FILE *out, const pb_planner *planner, const char *map,
                                  const pb_option *engine_options, size_t n_engine_options,
                                  const pb_problem *problem, const pb_stop_config *stop,
                                  const pb_result *result)
{
    const pb_planner_impl *impl = planner->impl;
    const int dim = pb_engine_dim(planner->engine);
    fputs(", \"record\": {\"format\": \"" PB_RECORD_FORMAT "\", \"planner\": ", out);
    pb_json_write_string(out, impl->name);
    fputs(", \"engine\": ", out);
    pb_json_write_string(out, pb_engine_name(planner->engine));
    fputs(", \"engine_options\": {", out);
    for (size_t i = 0; i < n_engine_options; i++) {
        if (i > 0)
            fputs(", ", out);
        pb_json_write_string(out, engine_options[i].name);
        fputs(": ", out);
        pb_json_write_string(out, engine_options[i].value);
    }
    fputc('}', out);
    double edge_resolution = 0.0;
    const pb_edge_check edge_check = pb_engine_edge_check(planner->engine, &edge_resolution);
    pb_edge_check_write_json(out, edge_check, edge_resolution);
    fputs(", \"map\": ", out);
    pb_json_write_string(out, map);
    fputs(", \"start\": ", out);
    write_numbers(out, problem->start, dim);
    fputs(", \"goal\": ", out);
    write_numbers(out, problem->goal, dim);
    fputs(", \"goal_radius\": ", out);
    pb_json_write_number(out, problem->goal_radius);
    fprintf(out, ", \"seed\": %llu, \"params\": {", (unsigned long long)planner->seed);
    for (size_t i = 0; i < impl->n_params; i++) {
        const pb_param_def *def = &impl->params[i];
        double v = load_param(planner->params, def);
        if (strcmp(def->name, "step_size") == 0 && !(v > 0.0))
            v = pb_engine_default_step(planner->engine); /* what the solve used */
        fprintf(out, "%s", i > 0 ? ", " : "");
        pb_json_write_string(out, def->name);
        fputs(": ", out);
        if (def->type == PB_PARAM_BOOL)
            fputs(v != 0.0 ? "true" : "false", out);
        else
            pb_json_write_number(out, v);
    }
    fputs("}, \"time_limit_s\": ", out);
    pb_json_write_number(out, stop->time_limit_s);
    fprintf(out,
            ", \"max_iterations\": %llu, \"max_nodes\": %llu, \"stop\": \"%s\", \"approximate\": %s, "
            "\"iterations\": %llu, \"stop_check\": %llu, \"reserve_check\": %llu, \"nodes\": %llu, "
            "\"outcome\": \"%s\", "
            "\"n_waypoints\": %zu, \"cost\": ",
            (unsigned long long)stop->max_iterations, (unsigned long long)stop->max_nodes,
            stop->first_solution ? "first" : "budget", stop->approximate ? "true" : "false",
            (unsigned long long)result->iterations, (unsigned long long)result->stop_check,
            (unsigned long long)result->reserve_check, (unsigned long long)result->nodes,
            pb_outcome_str(result->outcome), result->path.n);
    pb_json_write_number(out, result->path.n > 0 ? result->cost : INFINITY);
    fprintf(out, ", \"path_hash\": \"%016llx\"}", (unsigned long long)pb_path_hash(&result->path));
}
