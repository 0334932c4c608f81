/* `planbench replay RECORD [--line N]`: run a plan again from its record (the `"record"` object
 * of `planbench PLANNER MAP --json` or of a benchmark journal line, written by
 * pb_planner_write_record_json), stopped where the recorded budget stopped it, and check that
 * the path is the same. The record is read with jansson; every key is checked and
 * a bad one is named. */
#include "cli.h"

#include <jansson.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char replay_help[] =
    "Usage: planbench replay RECORD.json [--line N] [--json] [-q]\n"
    "\n"
    "Run a plan again from its record and check that it gives the same path.\n"
    "RECORD.json is the output of 'planbench PLANNER MAP ... --json', or a file holding one line of\n"
    "a benchmark journal (runs.jsonl); --line N takes line N (from 1) of a file of several lines.\n"
    "The record holds every parameter the run used and where its budget ended it (the budget\n"
    "check, the iterations reached): the replay stops there instead of reading the clock, so a\n"
    "time-budgeted run replays bit for bit. Paths are the planner's own: a recorded --simplify\n"
    "is not redone.\n"
    "\n"
    "  --line N     the record is line N of the file (a benchmark journal)\n"
    "  --json       print the plan as 'planbench PLANNER MAP --json' does, with a \"replay\" object\n"
    "  -q, --quiet  no summary\n"
    "\n"
    "Exit status: 0 the path reproduces (same number of waypoints, same cost to 1e-9 relative,\n"
    "same waypoints), 3 it does not, 2 bad input (a malformed record names its key).\n";

typedef struct replay_text {
    char start[PB_MAX_DIM * 32], goal[PB_MAX_DIM * 32];
    char params[MAX_PARAMS][192];
    plan_expect expect;
} replay_text;

/* Line `n` (from 1) of `path` into a malloc'd string without its newline; NULL and a message
 * when the file cannot be read or is shorter. */
static char *read_line(const char *path, uint64_t n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        cli_error("%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t len = -1;
    uint64_t at = 0;
    while (at < n && (len = getline(&line, &capacity, fp)) >= 0)
        at++;
    fclose(fp);
    if (at < n) {
        cli_error("%s: --line %" PRIu64 ": the file has only %" PRIu64 " lines", path, n, at);
        free(line);
        return NULL;
    }
    if (len > 0 && line[len - 1] == '\n')
        line[len - 1] = '\0';
    return line;
}

/* ---- checked members of the record ---- */

static const json_t *member(const json_t *o, const char *key, bool (*is)(const json_t *), const char *what)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        cli_error("record: key '%s' is missing", key);
    else if (!is(v))
        cli_error("record: '%s' must be %s", key, what);
    return v && is(v) ? v : NULL;
}

static bool is_string(const json_t *v)
{
    return json_is_string(v);
}
static bool is_object(const json_t *v)
{
    return json_is_object(v);
}
static bool is_array(const json_t *v)
{
    return json_is_array(v) && json_array_size(v) >= 1 && json_array_size(v) <= PB_MAX_DIM;
}
static bool is_count(const json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) >= 0;
}
static bool is_bool(const json_t *v)
{
    return json_is_boolean(v);
}
static bool is_positive(const json_t *v)
{
    return json_is_number(v) && json_number_value(v) > 0.0 && isfinite(json_number_value(v));
}
static bool is_seconds(const json_t *v)
{
    return json_is_number(v) && json_number_value(v) >= 0.0 && isfinite(json_number_value(v));
}
static bool is_cost(const json_t *v)
{
    return json_is_null(v) || (json_is_number(v) && json_number_value(v) >= 0.0);
}
static bool is_hash(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}
static bool is_stop(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && (strcmp(s, "first") == 0 || strcmp(s, "budget") == 0);
}

/* A key of the record, its test and what it must be, and where its value goes. */
typedef struct record_key {
    const char *key;
    bool (*is)(const json_t *);
    const char *what;
    const json_t **out;
} record_key;

/* A configuration as "X,Y,..." with every digit kept. */
static bool config_text(const json_t *record, const char *key, char *buf, size_t size)
{
    const json_t *q = member(record, key, is_array, "an array of coordinates (1 to PB_MAX_DIM numbers)");
    if (!q)
        return false;
    size_t used = 0;
    for (size_t i = 0; i < json_array_size(q); i++) {
        const json_t *x = json_array_get(q, i);
        if (!json_is_number(x)) {
            cli_error("record: '%s'[%zu] must be a number", key, i);
            return false;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s%.17g", i ? "," : "", json_number_value(x));
    }
    return true;
}

/* The planner's parameters: exactly those of its table, each a number (a boolean for flags). */
static bool params_text(const json_t *record, const char *planner, plan_args *a, replay_text *t)
{
    const json_t *params = member(record, "params", is_object, "an object of the planner's parameters");
    if (!params)
        return false;
    const pb_planner_impl *impl = pb_planner_registry_find(planner);
    if (!impl) {
        cli_error("record: 'planner': unknown planner '%s'", planner);
        return false;
    }
    size_t n = 0;
    const pb_param_def *defs = pb_planner_impl_params(impl, &n);
    for (size_t i = 0; i < n; i++)
        if (!json_object_get(params, defs[i].name)) {
            cli_error("record: 'params': parameter '%s' of planner '%s' is missing", defs[i].name, planner);
            return false;
        }
    const char *name;
    const json_t *v;
    json_object_foreach((json_t *)params, name, v)
    {
        bool known = false;
        for (size_t i = 0; i < n && !known; i++)
            known = strcmp(defs[i].name, name) == 0;
        if (!known) {
            cli_error("record: 'params': planner '%s' has no parameter '%s'", planner, name);
            return false;
        }
        if (!json_is_number(v) && !json_is_boolean(v)) {
            cli_error("record: 'params.%s' must be a number or a boolean", name);
            return false;
        }
        if (a->n_params == MAX_PARAMS || strlen(name) > 100) {
            cli_error("record: 'params': too many parameters or too long a name");
            return false;
        }
        char *text = t->params[a->n_params];
        if (json_is_boolean(v))
            snprintf(text, sizeof t->params[0], "%s=%s", name, json_is_true(v) ? "true" : "false");
        else
            snprintf(text, sizeof t->params[0], "%s=%.17g", name, json_number_value(v));
        a->params[a->n_params++] = text;
    }
    return true;
}

/* Fill `a` from the record object; false after a message naming the bad key. */
static bool args_from_record(const json_t *record, plan_args *a, replay_text *t)
{
    const json_t *format = member(record, "format", is_string, "a string");
    if (!format)
        return false;
    if (strcmp(json_string_value(format), PB_RECORD_FORMAT) != 0) {
        cli_error("record: 'format' is '%s'; this planbench reads '%s'", json_string_value(format),
                  PB_RECORD_FORMAT);
        return false;
    }
    const json_t *planner = member(record, "planner", is_string, "a planner's name");
    const json_t *engine = planner ? member(record, "engine", is_string, "an engine's name") : NULL;
    const json_t *options =
        engine ? member(record, "engine_options", is_object, "an object of option strings") : NULL;
    if (!options)
        return false;
    a->planner = json_string_value(planner);
    a->engine = json_string_value(engine);
    const char *name;
    const json_t *v;
    json_object_foreach((json_t *)options, name, v)
    {
        if (!json_is_string(v)) {
            cli_error("record: 'engine_options.%s' must be a string", name);
            return false;
        }
        if (a->n_engine_options == MAX_OPTIONS) {
            cli_error("record: 'engine_options': more than %d options", MAX_OPTIONS);
            return false;
        }
        a->engine_options[a->n_engine_options++] = (pb_option){name, json_string_value(v)};
    }
    const json_t *map = json_object_get(record, "map");
    if (!map || !(json_is_string(map) || json_is_null(map))) {
        cli_error(map ? "record: 'map' must be a file name or null" : "record: key 'map' is missing");
        return false;
    }
    a->map = json_string_value(map); /* NULL for null */
    if (!config_text(record, "start", t->start, sizeof t->start) ||
        !config_text(record, "goal", t->goal, sizeof t->goal))
        return false;
    a->start_text = t->start;
    a->goal_text = t->goal;
    const json_t *radius = member(record, "goal_radius", is_positive, "a distance > 0");
    const json_t *seed = radius ? member(record, "seed", is_count, "a whole number >= 0") : NULL;
    if (!seed || !params_text(record, a->planner, a, t))
        return false;
    a->goal_radius = json_number_value(radius);
    a->seed = (uint64_t)json_integer_value(seed);
    const json_t *time_limit, *max_iterations, *max_nodes, *stop, *approximate, *iterations, *stop_check,
        *reserve_check, *n_waypoints, *cost, *hash;
    const record_key budget_keys[] = {
        {"time_limit_s", is_seconds, "seconds >= 0", &time_limit},
        {"max_iterations", is_count, "a whole number >= 0", &max_iterations},
        {"max_nodes", is_count, "a whole number >= 0", &max_nodes},
        {"stop", is_stop, "\"first\" or \"budget\"", &stop},
        {"approximate", is_bool, "true or false", &approximate},
        {"iterations", is_count, "a whole number >= 0", &iterations},
        {"stop_check", is_count, "a whole number >= 0", &stop_check},
        {"reserve_check", is_count, "a whole number >= 0", &reserve_check},
        {"n_waypoints", is_count, "a whole number >= 0", &n_waypoints},
        {"cost", is_cost, "a cost >= 0 or null", &cost},
        {"path_hash", is_hash, "16 lower-case hex digits", &hash},
    };
    for (size_t k = 0; k < sizeof budget_keys / sizeof budget_keys[0]; k++)
        if (!(*budget_keys[k].out =
                  member(record, budget_keys[k].key, budget_keys[k].is, budget_keys[k].what)))
            return false;
    /* No clock: the solve ends where the recorded one did. Where a budget check ended it (a
     * time limit, an interruption, a node or iteration limit, a first solution), at that check;
     * where the planner kept its remaining time for a last search (PRM, Lazy PRM), it does so
     * at the recorded check. Both catch a stop in the middle of an iteration (Lazy PRM's
     * repairs of a candidate path). Otherwise the planner ended by itself (a first solution
     * found mid-iteration): the budget is the recorded iteration count; without iterations (a
     * path before the first sample) the recorded limits stand. */
    a->max_stop_checks = (uint64_t)json_integer_value(stop_check);
    a->reserve_at_check = (uint64_t)json_integer_value(reserve_check);
    a->max_iterations = (uint64_t)json_integer_value(max_iterations);
    if (a->max_stop_checks == 0 && a->reserve_at_check == 0 && json_integer_value(iterations) > 0)
        a->max_iterations = (uint64_t)json_integer_value(iterations);
    const bool unbounded = a->max_stop_checks == 0 && a->reserve_at_check == 0 && a->max_iterations == 0;
    a->time_limit = unbounded ? json_number_value(time_limit) : 0.0;
    a->max_nodes = (uint64_t)json_integer_value(max_nodes);
    a->stop_given = true;
    a->stop_at_first = strcmp(json_string_value(stop), "first") == 0;
    a->approximate = json_is_true(approximate);
    t->expect.n_waypoints = (size_t)json_integer_value(n_waypoints);
    t->expect.cost = json_is_null(cost) ? INFINITY : json_number_value(cost);
    t->expect.path_hash = strtoull(json_string_value(hash), NULL, 16);
    a->expect = &t->expect;
    return true;
}

int cli_replay(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t line_number = 0;
    bool json = false, quiet = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(replay_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--line") == 0) {
            if (i + 1 >= argc) {
                cli_error("--line needs a line number, as in '--line 2'");
                return PB_EXIT_BAD_INPUT;
            }
            if (!cli_parse_u64("--line", argv[++i], &line_number))
                return PB_EXIT_BAD_INPUT;
            if (line_number == 0) {
                cli_error("--line: lines count from 1");
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-') {
            cli_error("replay: unknown option '%s' (see 'planbench replay --help')", argv[i]);
            return PB_EXIT_BAD_INPUT;
        } else if (!path) {
            path = argv[i];
        } else {
            cli_error("replay: one record file, got '%s' and '%s'", path, argv[i]);
            return PB_EXIT_BAD_INPUT;
        }
    }
    if (!path) {
        cli_error("replay: no record given, as in 'planbench replay run.json'");
        return PB_EXIT_BAD_INPUT;
    }
    json_error_t error;
    json_t *root = NULL;
    if (line_number > 0) {
        char *line = read_line(path, line_number);
        if (!line)
            return PB_EXIT_BAD_INPUT;
        root = json_loads(line, JSON_REJECT_DUPLICATES, &error);
        free(line);
        if (!root) {
            cli_error("%s:%" PRIu64 ": not a JSON object: %s", path, line_number, error.text);
            return PB_EXIT_BAD_INPUT;
        }
    } else if (!(root = json_load_file(path, JSON_REJECT_DUPLICATES, &error))) {
        cli_error("%s:%d: not one JSON object: %s%s", path, error.line, error.text,
                  error.line > 1 ? " (a benchmark journal? give --line N)" : "");
        return PB_EXIT_BAD_INPUT;
    }
    int rc = PB_EXIT_BAD_INPUT;
    const json_t *record = json_object_get(root, "record");
    if (!json_is_object(root)) {
        cli_error("%s: expected a JSON object, the output of --json or a benchmark journal line", path);
    } else if (!record && json_object_get(root, "planbench_journal")) {
        cli_error("%s: this line is the journal's header, not a run: runs start on line 2", path);
    } else if (!record) {
        const char *status = json_string_value(json_object_get(root, "status"));
        if (status && strcmp(status, "ok") != 0)
            cli_error("%s: a run that did not finish (status '%s') has no record to replay", path, status);
        else
            cli_error("%s: key 'record' is missing (written by a planbench without records, or not a "
                      "plan's --json or a journal line)",
                      path);
    } else if (!json_is_object(record)) {
        cli_error("%s: 'record' must be an object", path);
    } else {
        plan_args a;
        replay_text *text = calloc(1, sizeof *text);
        plan_args_default(&a);
        a.json = json;
        a.quiet = quiet;
        if (!text)
            cli_error("out of memory");
        else if (args_from_record(record, &a, text))
            rc = cli_plan_run(&a);
        free(text);
    }
    json_decref(root);
    return rc;
}
