/* runs.jsonl: one JSON object per finished run, written in one write() as each run ends, read back
 * by --resume with jansson. A line that is not an object of the writer's fields and types (a
 * write cut short, a foreign record) is skipped, and so is the line of an interrupted run. */
#include "bench/bench_internal.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pb_bench_status_str(pb_bench_status status)
{
    switch (status) {
    case PB_BENCH_RUN_OK:
        return "ok";
    case PB_BENCH_RUN_CRASHED:
        return "crashed";
    case PB_BENCH_RUN_KILLED_TIME:
        return "killed: time";
    case PB_BENCH_RUN_KILLED_MEMORY:
        return "killed: memory";
    case PB_BENCH_RUN_ERROR:
        return "error";
    default:
        return "unknown";
    }
}

void pb_bench_record_finish(pb_bench_record *rec)
{
    free(rec->cost_trace);
    rec->cost_trace = NULL;
    rec->n_cost_trace = 0;
    free(rec->record);
    rec->record = NULL;
}

void pb_bench_write_record_json(FILE *out, const pb_bench_script *s, const pb_bench_record *rec)
{
    fputs("{\"problem\": ", out);
    pb_json_write_string(out, s->problems[rec->problem].name);
    fputs(", \"planner\": ", out);
    pb_json_write_string(out, s->planners[rec->planner].label);
    fprintf(out, ", \"run\": %u, \"seed\": %llu, \"status\": ", rec->run, (unsigned long long)rec->seed);
    pb_json_write_string(out, pb_bench_status_str(rec->status));
    fputs(", \"status_text\": ", out);
    pb_json_write_string(out, rec->status_text);
    /* the result's members through the one writer, from what the child reported */
    const pb_result result = {.outcome = rec->outcome,
                              .cost = rec->cost,
                              .time_s = rec->time_s,
                              .cpu_s = rec->cpu_s,
                              .time_to_first_s = rec->time_to_first_s,
                              .iterations = rec->iterations,
                              .nodes = rec->nodes,
                              .counters = {.n_feasible = rec->n_feasible,
                                           .n_visible = rec->n_visible,
                                           .n_edge_states = rec->n_edge_states,
                                           .n_pixels = rec->n_pixels},
                              .cost_trace = rec->cost_trace,
                              .n_cost_trace = rec->n_cost_trace};
    pb_result_write_json(out, &result, false);
    fprintf(out, ", \"solved\": %s, \"memory_mb\": ", rec->solved ? "true" : "false");
    pb_json_write_number(out, rec->memory_mb);
    fputs(", \"setup_s\": ", out);
    pb_json_write_number(out, rec->setup_s);
    if (rec->status == PB_BENCH_RUN_OK)
        pb_edge_check_write_json(out, rec->edge_check, rec->edge_resolution);
    if (rec->session_start > 0.0)
        fprintf(out, ", \"session_start\": %.17g, \"session_elapsed_s\": %.17g", rec->session_start,
                rec->session_elapsed_s);
    if (rec->interrupted)
        fputs(", \"interrupted\": true", out);
    if (rec->record)
        fputs(rec->record, out);
    fputs("}", out);
}

pb_status pb_bench_append_jsonl(int fd, const pb_bench_script *s, const pb_bench_record *rec)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return PB_ERR_NOMEM;
    pb_bench_write_record_json(out, s, rec);
    fputc('\n', out);
    if (fclose(out) != 0) {
        free(text);
        return PB_ERR_NOMEM;
    }
    const char *p = text;
    size_t left = size;
    while (left > 0) {
        const ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(text);
            return PB_ERR_IO;
        }
        p += n;
        left -= (size_t)n;
    }
    free(text);
    /* No fsync: once write() returns, the line belongs to the kernel and survives the death
     * of this process (Ctrl-C, kill -9), which is what resuming needs; an fsync per run would
     * serialise the parent and cost the parallel speed-up. */
    return PB_OK;
}

/* ---- reading (jansson) ---- */

static int find_problem(const pb_bench_script *s, const char *name)
{
    for (size_t i = 0; name && i < s->n_problems; i++)
        if (strcmp(s->problems[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int find_label(const pb_bench_script *s, const char *label)
{
    for (size_t i = 0; label && i < s->n_planners; i++)
        if (strcmp(s->planners[i].label, label) == 0)
            return (int)i;
    return -1;
}

/* A number member: absent leaves `*out`, null is NaN, anything else but a number fails. */
static bool member_number(const json_t *object, const char *key, double *out)
{
    const json_t *v = json_object_get(object, key);
    if (!v)
        return true;
    if (json_is_null(v)) {
        *out = NAN;
        return true;
    }
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

/* The index of `text` among the `n` names that `name_of` gives, or -1. */
static int name_index(const char *text, int n, const char *(*name_of)(int))
{
    for (int k = 0; text && k < n; k++)
        if (strcmp(text, name_of(k)) == 0)
            return k;
    return -1;
}

static const char *status_name(int k)
{
    return pb_bench_status_str((pb_bench_status)k);
}
static const char *outcome_name(int k)
{
    return pb_outcome_str((pb_outcome)k);
}
static const char *edge_check_name(int k)
{
    return pb_edge_check_str((pb_edge_check)k);
}

/* One journal line into `rec`: false (the line is skipped) unless it is an object of the
 * writer's fields with the writer's types, for a problem, planner and run of `s`. */
static bool parse_line(const pb_bench_script *s, const char *line, pb_bench_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->cost = INFINITY;
    rec->time_to_first_s = -1.0;
    json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
    bool ok = json_is_object(o);
    const int problem = ok ? find_problem(s, json_string_value(json_object_get(o, "problem"))) : -1;
    const int planner = ok ? find_label(s, json_string_value(json_object_get(o, "planner"))) : -1;
    const int status = ok ? name_index(json_string_value(json_object_get(o, "status")),
                                       PB_BENCH_RUN_STATUS_COUNT, status_name)
                          : -1;
    double run = NAN;
    ok = ok && problem >= 0 && planner >= 0 && status >= 0 && member_number(o, "run", &run) && run >= 0.0 &&
         run < (double)s->runs && run == floor(run);
    rec->status = (pb_bench_status)status;
    const json_t *v;
    if (ok && (v = json_object_get(o, "status_text")) != NULL)
        ok = json_is_string(v) &&
             snprintf(rec->status_text, sizeof rec->status_text, "%s", json_string_value(v)) >= 0;
    if (ok && (v = json_object_get(o, "outcome")) != NULL) {
        const int k = name_index(json_string_value(v), PB_OUTCOME_COUNT, outcome_name);
        ok = k >= 0;
        rec->outcome = (pb_outcome)k;
    }
    if (ok && (v = json_object_get(o, "solved")) != NULL) {
        ok = json_is_boolean(v);
        rec->solved = json_is_true(v);
    }
    if (ok && (v = json_object_get(o, "interrupted")) != NULL) {
        ok = json_is_boolean(v);
        rec->interrupted = json_is_true(v);
    }
    if (ok && (v = json_object_get(o, "edge_check")) != NULL) {
        const int k = name_index(json_string_value(v), PB_EDGE_CHECK_COUNT, edge_check_name);
        ok = k >= 0;
        rec->edge_check = (pb_edge_check)k;
    }
    double seed = 0, iterations = 0, nodes = 0, n_feasible = 0, n_visible = 0, n_edge_states = 0,
           n_pixels = 0, edge = 0, floor_clearance = NAN, ttf = -1.0, cost = INFINITY;
    ok = ok && member_number(o, "seed", &seed) && member_number(o, "time_s", &rec->time_s) &&
         member_number(o, "time_to_first_s", &ttf) && member_number(o, "cost", &cost) &&
         member_number(o, "iterations", &iterations) && member_number(o, "nodes", &nodes) &&
         member_number(o, "n_feasible", &n_feasible) && member_number(o, "n_visible", &n_visible) &&
         member_number(o, "n_pixels", &n_pixels) && member_number(o, "memory_mb", &rec->memory_mb) &&
         member_number(o, "setup_s", &rec->setup_s) && member_number(o, "edge_resolution", &edge) &&
         member_number(o, "clearance_floor", &floor_clearance) && member_number(o, "cpu_s", &rec->cpu_s) &&
         member_number(o, "n_edge_states", &n_edge_states) &&
         member_number(o, "session_start", &rec->session_start) &&
         member_number(o, "session_elapsed_s", &rec->session_elapsed_s);
    rec->time_to_first_s = isnan(ttf) ? -1.0 : ttf;
    rec->cost = isnan(cost) ? INFINITY : cost;
    /* counts: whole, not negative, within 2^53 (as the writer writes them) */
    const double counts[6] = {iterations, nodes, n_feasible, n_visible, n_edge_states, n_pixels};
    for (int k = 0; k < 6 && ok; k++)
        ok = counts[k] >= 0.0 && counts[k] <= 9007199254740992.0;
    rec->iterations = ok ? (uint64_t)iterations : 0;
    rec->nodes = ok ? (uint64_t)nodes : 0;
    rec->n_feasible = ok ? (uint64_t)n_feasible : 0;
    rec->n_visible = ok ? (uint64_t)n_visible : 0;
    rec->n_edge_states = ok ? (uint64_t)n_edge_states : 0;
    rec->n_pixels = ok ? (uint64_t)n_pixels : 0;
    rec->edge_resolution = isnan(floor_clearance) ? edge : floor_clearance;
    const json_t *trace = ok ? json_object_get(o, "cost_trace") : NULL;
    if (trace) {
        ok = json_is_array(trace);
        const size_t n = ok ? json_array_size(trace) : 0;
        rec->cost_trace = n ? malloc(n * sizeof *rec->cost_trace) : NULL;
        ok = ok && (n == 0 || rec->cost_trace);
        for (size_t k = 0; k < n && ok; k++) {
            const json_t *pair = json_array_get(trace, k);
            const json_t *t = json_array_get(pair, 0), *c = json_array_get(pair, 1);
            ok = json_is_array(pair) && json_array_size(pair) == 2 && json_is_number(t) &&
                 (json_is_number(c) || json_is_null(c));
            if (ok)
                rec->cost_trace[rec->n_cost_trace++] =
                    (pb_cost_sample){json_number_value(t), json_is_null(c) ? INFINITY : json_number_value(c)};
        }
    }
    /* the run's record, kept as it was written (a merge or a resume writes it again) */
    const json_t *record = ok ? json_object_get(o, "record") : NULL;
    if (record) {
        char *text =
            json_is_object(record) ? json_dumps(record, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
        const size_t size = text ? strlen(text) + 16 : 0;
        rec->record = text ? malloc(size) : NULL;
        ok = rec->record != NULL;
        if (ok)
            snprintf(rec->record, size, ", \"record\": %s", text);
        free(text);
    }
    json_decref(o);
    if (!ok)
        return false;
    rec->problem = (uint32_t)problem;
    rec->planner = (uint32_t)planner;
    rec->run = (uint32_t)run;
    rec->seed = s->seed + rec->run; /* the script's seeds, whatever the file says */
    return true;
}

/* Keep the latest end (elapsed seconds) of the session `rec` belongs to in `*sessions`, pairs
 * of (start, elapsed). False when out of memory. */
static bool note_session(double **sessions, size_t *n, const pb_bench_record *rec)
{
    for (size_t i = 0; i < *n; i++)
        if ((*sessions)[2 * i] == rec->session_start) {
            (*sessions)[2 * i + 1] = fmax((*sessions)[2 * i + 1], rec->session_elapsed_s);
            return true;
        }
    double *grown = realloc(*sessions, (*n + 1) * 2 * sizeof *grown);
    if (!grown)
        return false;
    grown[2 * *n] = rec->session_start;
    grown[2 * *n + 1] = rec->session_elapsed_s;
    *sessions = grown;
    ++*n;
    return true;
}

pb_status pb_bench_read_jsonl(const pb_bench_script *s, const char *path, pb_bench_results *r, pb_diag *diag)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return errno == ENOENT
                   ? PB_OK
                   : (pb_diag_set(diag, path, 0, 0, "cannot read: %s", strerror(errno)), PB_ERR_IO);
    const size_t total = s->n_problems * s->n_planners * (size_t)s->runs;
    bool *have = calloc(total ? total : 1, 1);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t n;
    pb_status st = have ? PB_OK : PB_ERR_NOMEM;
    /* the invocations that wrote the journal: start and latest end of each, for r->total_s */
    double *sessions = NULL;
    size_t n_sessions = 0;
    while (st == PB_OK && (n = getline(&line, &capacity, fp)) > 0) {
        if (line[n - 1] != '\n')
            break; /* cut short by an interruption */
        line[n - 1] = '\0';
        pb_bench_record rec;
        const bool parsed = parse_line(s, line, &rec);
        if (parsed && rec.session_start > 0.0 && !note_session(&sessions, &n_sessions, &rec))
            st = PB_ERR_NOMEM;
        /* an interrupted run is not done: --resume runs it again, a merge finds it missing */
        if (!parsed || rec.interrupted) {
            pb_bench_record_finish(&rec);
            continue;
        }
        const size_t index = ((size_t)rec.problem * s->n_planners + rec.planner) * s->runs + rec.run;
        if (have[index]) {
            pb_bench_record_finish(&rec);
            continue;
        }
        have[index] = true;
        if (r->n == r->capacity) {
            const size_t cap = r->capacity ? 2 * r->capacity : 64;
            pb_bench_record *grown = realloc(r->records, cap * sizeof *grown);
            if (!grown) {
                pb_bench_record_finish(&rec);
                st = PB_ERR_NOMEM;
                break;
            }
            r->records = grown;
            r->capacity = cap;
        }
        r->records[r->n++] = rec;
    }
    for (size_t i = 0; i < n_sessions; i++)
        r->total_s += sessions[2 * i + 1];
    free(sessions);
    free(line);
    free(have);
    fclose(fp);
    return st;
}
