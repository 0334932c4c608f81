/* The auto_scene_gen worker over rosbridge (issue 19): a client calls
 * /asg_worker<ID>/services/run_scenario with a RunScenario request (the scenario file's JSON:
 * docs/scenarios.md), is answered `received` at once, and the scenario runs off the loop's
 * thread; its AnalyzeScenario request is then published on /asg_worker<ID>/analyze_scenario
 * and the worker's StatusCode on /asg_worker<ID>/status (ONLINE_AND_RUNNING while a scenario
 * runs, ONLINE_AND_READY otherwise). Bad requests get an error reply naming the field; the
 * worker stays ready. Files a request names (a catalogue, a vehicle, an inputs or path CSV, a
 * map) resolve against the worlds folder, and with --confine-worlds only inside it. */
#include "asg_worker.h"

#include <jansson.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The service's name after "/asg_worker<worker>/services/", or NULL for another name. */
static const char *worker_service(const char *name, int worker)
{
    char prefix[64];
    const int n = snprintf(prefix, sizeof prefix, "asg_worker%d/services/", worker);
    name += name[0] == '/';
    return strncmp(name, prefix, (size_t)n) == 0 ? name + n : NULL;
}

bool asg_is_worker_service(const char *name, int worker)
{
    return worker_service(name, worker) != NULL;
}

/* A path a request names: relative to the worlds folder; confined, inside it. */
static bool path_allowed(const char *path, bool confine)
{
    if (!confine)
        return true;
    return path[0] != '/' && strstr(path, "..") == NULL;
}

static const char *first_bad_path(const json_t *args, bool confine)
{
    static const char *const fields[] = {"vehicle", "map", "catalogue"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *v = json_string_value(json_object_get(args, fields[i]));
        if (v && !path_allowed(v, confine))
            return fields[i];
    }
    const json_t *driver = json_object_get(args, "driver");
    static const char *const driver_fields[] = {"inputs", "path"};
    for (size_t i = 0; i < 2; i++) {
        const char *v = json_string_value(json_object_get(driver, driver_fields[i]));
        if (v && !path_allowed(v, confine))
            return driver_fields[i];
    }
    return NULL;
}

pb_scenario *asg_parse_request(const pb_sim *sim, const json_t *args, char *err, size_t size)
{
    if (!json_is_object(args)) {
        snprintf(err, size, "RunScenario: expected the request's fields as an object");
        return NULL;
    }
    const char *bad = first_bad_path(args, sim->confine_worlds);
    if (bad) {
        snprintf(err, size,
                 "RunScenario: %s: this server reads files only inside its worlds folder (--confine-worlds)",
                 bad);
        return NULL;
    }
    char *text = json_dumps(args, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (!text) {
        snprintf(err, size, "RunScenario: out of memory");
        return NULL;
    }
    pb_scenario *scenario = NULL;
    pb_diag diag = {0};
    const pb_status st =
        pb_scenario_parse(&scenario, text, strlen(text), "RunScenario", sim->worlds_dir, &diag);
    free(text);
    if (st != PB_OK) {
        char message[600];
        pb_diag_format(&diag, message, sizeof message);
        snprintf(err, size, "%s", message);
        return NULL;
    }
    return scenario;
}

/* The AnalyzeScenario request (or {"worker_id", "error"}) into `f`. */
static void write_analyze(FILE *f, int worker, const pb_scenario *scenario, const pb_scenario_result *result,
                          const char *error)
{
    if (error || !result) { /* the scenario could not start (a driver's file, a scene): say so */
        fprintf(f, "{\"worker_id\":%d,\"error\":", worker);
        pb_json_write_string(f, error ? error : "cancelled before it started");
        fputc('}', f);
    } else {
        pb_scenario_result_write_json(f, scenario, result);
    }
}

/* The text of an open_memstream() stream (its buffer is set only when it closes). */
static char *close_text(FILE *f, char **body)
{
    if (fclose(f) != 0) {
        free(*body);
        return NULL;
    }
    return *body;
}

/* `"id":ID,"action":NAME,` of an action's message. */
static void write_goal(FILE *f, const json_t *id, const json_t *action)
{
    char *text = id ? json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    if (text)
        fprintf(f, "\"id\":%s,", text);
    free(text);
    fputs("\"action\":", f);
    pb_json_write_string(f, json_is_string(action) ? json_string_value(action) : "");
    fputc(',', f);
}

char *asg_analyze_message(int worker, const pb_scenario *scenario, const pb_scenario_result *result,
                          const char *error)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (!f)
        return NULL;
    fprintf(f, "{\"op\":\"publish\",\"topic\":\"/asg_worker%d/analyze_scenario\",\"msg\":", worker);
    write_analyze(f, worker, scenario, result, error);
    fputc('}', f);
    return close_text(f, &body);
}

/* A stream for an action's message `op`, its goal's id and name written: NULL without memory. */
static FILE *open_action_message(char **body, size_t *len, const char *op, const json_t *id,
                                 const json_t *action)
{
    FILE *f = open_memstream(body, len);
    if (f) {
        fprintf(f, "{\"op\":\"%s\",", op);
        write_goal(f, id, action);
        fputs("\"values\":", f);
    }
    return f;
}

char *asg_action_feedback(const json_t *id, const json_t *action, const pb_scenario_progress *progress)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_action_message(&body, &len, "action_feedback", id, action);
    if (!f)
        return NULL;
    fputs("{\"sim_time\":", f);
    pb_json_write_number(f, progress->sim_time);
    fputs(",\"distance_to_goal\":", f);
    pb_json_write_number(f, progress->distance_to_goal);
    fprintf(f, ",\"steps\":%llu}}", (unsigned long long)progress->steps);
    return close_text(f, &body);
}

char *asg_action_result(int worker, const json_t *id, const json_t *action, int status,
                        const pb_scenario *scenario, const pb_scenario_result *result, const char *error)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_action_message(&body, &len, "action_result", id, action);
    if (!f)
        return NULL;
    if (status == 6) /* aborted: rosbridge's failed result, the message as its values */
        pb_json_write_string(f, error ? error : "the scenario could not run");
    else /* succeeded, or cancelled with the run so far */
        write_analyze(f, worker, scenario, result, error);
    fprintf(f, ",\"status\":%d,\"result\":%s}", status, status == 6 ? "false" : "true");
    return close_text(f, &body);
}

char *asg_status_message(int worker, bool running)
{
    char *text = malloc(128);
    if (text)
        snprintf(text, 128, "{\"op\":\"publish\",\"topic\":\"/asg_worker%d/status\",\"msg\":{\"status\":%d}}",
                 worker, running ? 2 : 1);
    return text;
}

char *asg_vehicle_status_message(int worker, bool enabled)
{
    char *text = malloc(160);
    if (text)
        snprintf(text, 160,
                 "{\"op\":\"publish\",\"topic\":\"/asg_worker%d/vehicle_status\",\"msg\":{\"enabled\":%s,"
                 "\"preempted\":false}}",
                 worker, enabled ? "true" : "false");
    return text;
}

/* A request's worker_id, when it gives one, must be this worker's. */
static bool for_this_worker(const json_t *args, int worker, char *err, size_t size)
{
    const json_t *id = json_object_get(args, "worker_id");
    if (!id || (json_is_integer(id) && json_integer_value(id) == worker))
        return true;
    snprintf(err, size, "worker_id: this is worker %d", worker);
    return false;
}

bool asg_is_worker_action(const char *name, int worker)
{
    char expected[64];
    snprintf(expected, sizeof expected, "asg_worker%d/run_scenario_action", worker);
    return strcmp(name + (name[0] == '/'), expected) == 0;
}

bool asg_handle_goal(pb_sim *sim, const json_t *args, json_t *id, json_t *action, bool feedback,
                     const asg_hooks *hooks, char *err, size_t size)
{
    if (args && !json_is_object(args)) {
        snprintf(err, size, "expected the goal's fields (a RunScenario request) as an object");
        return false;
    }
    if (!for_this_worker(args, hooks->worker_id, err, size))
        return false;
    pb_scenario *scenario = asg_parse_request(sim, args, err, size);
    if (!scenario)
        return false;
    hooks->start(hooks->payload, scenario, json_dumps(args, JSON_COMPACT | JSON_REAL_PRECISION(17)), id,
                 action, feedback);
    return true;
}

json_t *asg_handle_call(pb_sim *sim, const char *name, const json_t *args, const asg_hooks *hooks, char *err,
                        size_t size)
{
    const char *service = worker_service(name, hooks->worker_id);
    if (args && !json_is_object(args)) {
        snprintf(err, size, "expected the request's fields as an object");
        return NULL;
    }
    if (!for_this_worker(args, hooks->worker_id, err, size))
        return NULL;
    if (strcmp(service, "run_scenario") == 0) {
        pb_scenario *scenario = asg_parse_request(sim, args, err, size);
        if (!scenario)
            return NULL;
        hooks->start(hooks->payload, scenario, json_dumps(args, JSON_COMPACT | JSON_REAL_PRECISION(17)), NULL,
                     NULL, false);
        return json_pack("{s:b}", "received", 1);
    }
    if (strcmp(service, "register_vehicle_node") == 0) { /* nothing waits on vehicle nodes here */
        if (!json_is_string(json_object_get(args, "node_name"))) {
            snprintf(err, size, "node_name: expected the node's name (a string)");
            return NULL;
        }
        return json_pack("{s:b}", "received", 1);
    }
    if (strcmp(service, "notify_ready") == 0) {
        /* a vehicle node may ask for the last scenario again (request_rerun) */
        bool accepted = true;
        if (json_is_true(json_object_get(args, "request_rerun")))
            accepted = hooks->rerun(hooks->payload);
        return json_pack("{s:b,s:b}", "received", 1, "accepted", accepted);
    }
    if (strcmp(service, "worker_issue_notification") == 0) {
        const char *text = json_string_value(json_object_get(args, "message"));
        fprintf(stderr, "planbench serve: worker issue %lld: %s\n",
                (long long)json_integer_value(json_object_get(args, "issue_id")), text ? text : "");
        return json_pack("{s:b}", "received", 1);
    }
    snprintf(
        err, size,
        "Service %.300s does not exist (the worker has run_scenario, register_vehicle_node, notify_ready, "
        "worker_issue_notification)",
        name);
    return NULL;
}
