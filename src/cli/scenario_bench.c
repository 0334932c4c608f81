/* planbench scenario bench SCRIPT.ini: many scenarios (generated or listed), each with one or
 * more drivers, run in parallel worker processes into a journal (one JSON line per run, so an
 * interrupted batch resumes), then summarised: success rate, the histogram of termination
 * reasons, sim time, regret, collisions, scenarios per second (docs/scenarios.md). */
#include "cli.h"
#include "planbench/scenario.h"

#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char batch_usage[] =
    "usage: planbench scenario bench SCRIPT.ini [-j N] [--out DIR] [--resume] [--csv F] [--json F] [--md F] "
    "[-q]\n"
    "  Run every scenario of the script (generated from seeds, or listed files) with every driver of the\n"
    "  script, N at a time (default 2), into DIR/scenarios.jsonl (default scenario_out/<script name>), and\n"
    "  write the tables: one row per run (--csv), runs and per-driver summaries (--json), the summary table\n"
    "  (--md, and on standard output). --resume keeps the runs already in the journal.\n"
    "  Script:\n"
    "    [scenarios]\n"
    "    family = bacre          ; generated scenes (planbench scene gen), with\n"
    "    seeds = 1-50            ; a range or a comma list\n"
    "    files = a.json, b.json  ; and/or scenario files (relative to the script)\n"
    "    reference = false       ; compute the reference plan and regret (default true)\n"
    "    [driver.rrtstar]        ; a driver replacing the scenario's own (none: each scenario's own)\n"
    "    planner = rrtstar\n"
    "    max_iterations = 3000   ; and/or time_limit = S; seed = N\n";

#define MAX_ITEMS   100000
#define MAX_DRIVERS 16

typedef struct batch_driver {
    char name[64];
    char planner[64];
    uint64_t max_iterations, seed;
    double time_limit;
} batch_driver;

typedef struct batch_script {
    char path[PATH_MAX], dir[PATH_MAX], name[128];
    char family[32];
    uint64_t *seeds;
    size_t n_seeds;
    char **files;
    size_t n_files;
    bool reference;
    batch_driver drivers[MAX_DRIVERS];
    size_t n_drivers;
} batch_script;

static void script_free(batch_script *s)
{
    free(s->seeds);
    for (size_t i = 0; i < s->n_files; i++)
        free(s->files[i]);
    free(s->files);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static bool script_error(const batch_script *s, int line, const char *what, const char *detail)
{
    cli_error("%s line %d: %s%s%s", s->path, line, what, detail ? ": " : "", detail ? detail : "");
    return false;
}

static bool add_seeds(batch_script *s, int line, char *value)
{
    for (char *item = strtok(value, ","); item; item = strtok(NULL, ",")) {
        item = trim(item);
        uint64_t lo = 0, hi = 0;
        char *dash = strchr(item, '-');
        if (dash)
            *dash = '\0';
        if (!cli_parse_u64("seeds", item, &lo) || (dash && !cli_parse_u64("seeds", dash + 1, &hi)))
            return false;
        if (!dash)
            hi = lo;
        if (hi < lo || hi - lo >= MAX_ITEMS || s->n_seeds + (hi - lo + 1) > MAX_ITEMS)
            return script_error(s, line, "seeds", "a range lo-hi with lo <= hi, at most 100000 in all");
        uint64_t *grown = realloc(s->seeds, (s->n_seeds + (size_t)(hi - lo + 1)) * sizeof *grown);
        if (!grown)
            return script_error(s, line, "out of memory", NULL);
        s->seeds = grown;
        for (uint64_t v = lo; v <= hi; v++)
            s->seeds[s->n_seeds++] = v;
    }
    return true;
}

static bool add_files(batch_script *s, int line, char *value)
{
    for (char *item = strtok(value, ","); item; item = strtok(NULL, ",")) {
        item = trim(item);
        if (!*item)
            continue;
        char **grown = realloc(s->files, (s->n_files + 1) * sizeof *grown);
        if (grown)
            s->files = grown;
        char *path = grown ? malloc(PATH_MAX) : NULL;
        if (!path)
            return script_error(s, line, "out of memory", NULL);
        const int n = item[0] == '/' ? snprintf(path, PATH_MAX, "%s", item)
                                     : snprintf(path, PATH_MAX, "%s/%s", s->dir, item);
        if (n < 0 || n >= PATH_MAX) {
            free(path);
            return script_error(s, line, "files", "a name too long");
        }
        s->files[s->n_files++] = path;
    }
    return true;
}

static bool read_script(batch_script *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->reference = true;
    snprintf(s->path, sizeof s->path, "%s", path);
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    snprintf(s->dir, sizeof s->dir, "%s", dirname(buf));
    snprintf(buf, sizeof buf, "%s", path);
    const char *base = basename(buf);
    snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(base, "."), base);
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return false;
    }
    char line[4096], section[80] = "";
    int line_no = 0;
    bool ok = true;
    batch_driver *driver = NULL;
    while (ok && fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, ";#\n")] = '\0';
        char *text = trim(line);
        if (!*text)
            continue;
        if (text[0] == '[') {
            char *end = strchr(text, ']');
            if (!end || end[1] != '\0' || end - text - 1 >= (long)sizeof section) {
                ok = script_error(s, line_no, "a section header [NAME]", text);
                break;
            }
            snprintf(section, sizeof section, "%.*s", (int)(end - text - 1), text + 1);
            driver = NULL;
            if (strncmp(section, "driver.", 7) == 0) {
                if (s->n_drivers == MAX_DRIVERS || !section[7] ||
                    strlen(section + 7) >= sizeof driver->name) {
                    ok = script_error(s, line_no, "[driver.NAME]", "at most 16 drivers, each named");
                    break;
                }
                driver = &s->drivers[s->n_drivers++];
                snprintf(driver->name, sizeof driver->name, "%s", section + 7);
                driver->seed = 1;
            } else if (strcmp(section, "scenarios") != 0) {
                ok = script_error(s, line_no, "unknown section (scenarios, driver.NAME)", section);
            }
            continue;
        }
        char *eq = strchr(text, '=');
        if (!eq || !section[0]) {
            ok = script_error(s, line_no, "expected KEY = VALUE inside a section", text);
            break;
        }
        *eq = '\0';
        char *key = trim(text), *value = trim(eq + 1);
        if (driver) {
            if (strcmp(key, "planner") == 0 && strlen(value) < sizeof driver->planner)
                snprintf(driver->planner, sizeof driver->planner, "%s", value);
            else if (strcmp(key, "max_iterations") == 0)
                ok = cli_parse_u64("max_iterations", value, &driver->max_iterations);
            else if (strcmp(key, "seed") == 0)
                ok = cli_parse_u64("seed", value, &driver->seed);
            else if (strcmp(key, "time_limit") == 0)
                ok = cli_parse_double("time_limit", value, &driver->time_limit) && driver->time_limit >= 0;
            else
                ok = script_error(s, line_no,
                                  "unknown driver key (planner, max_iterations, time_limit, seed)", key);
        } else if (strcmp(key, "family") == 0 && strlen(value) < sizeof s->family) {
            snprintf(s->family, sizeof s->family, "%s", value);
        } else if (strcmp(key, "seeds") == 0) {
            ok = add_seeds(s, line_no, value);
        } else if (strcmp(key, "files") == 0) {
            ok = add_files(s, line_no, value);
        } else if (strcmp(key, "reference") == 0 && (!strcmp(value, "true") || !strcmp(value, "false"))) {
            s->reference = strcmp(value, "true") == 0;
        } else {
            ok =
                script_error(s, line_no, "unknown key of [scenarios] (family, seeds, files, reference)", key);
        }
    }
    fclose(f);
    for (size_t d = 0; ok && d < s->n_drivers; d++)
        if (!s->drivers[d].planner[0] || (!s->drivers[d].max_iterations && !(s->drivers[d].time_limit > 0)))
            ok = script_error(s, 0, "a driver needs planner = NAME and max_iterations or time_limit",
                              s->drivers[d].name);
    if (ok && s->n_seeds && !s->family[0])
        ok = script_error(s, 0, "seeds need family = NAME (bacre)", NULL);
    if (ok && s->n_seeds + s->n_files == 0)
        ok = script_error(s, 0, "no scenarios: give family and seeds, or files", NULL);
    if (!ok)
        script_free(s);
    return ok;
}

/* ---- one run ---- */

typedef struct run_item {
    size_t scenario; /* seeds first, then files */
    size_t driver;   /* n_drivers: the scenario's own */
} run_item;

static void scenario_id(const batch_script *s, size_t i, char *out, size_t size)
{
    if (i < s->n_seeds)
        snprintf(out, size, "%s:%llu", s->family, (unsigned long long)s->seeds[i]);
    else
        snprintf(out, size, "%s", s->files[i - s->n_seeds]);
}

/* The scenario's JSON with the batch's overrides applied. */
static char *scenario_text(const batch_script *s, const run_item *item, char **base_dir, pb_diag *diag)
{
    char *text = NULL;
    *base_dir = NULL;
    if (item->scenario < s->n_seeds) {
        if (pb_scenario_generate(&text, s->family, s->seeds[item->scenario], diag) != PB_OK)
            return NULL;
    } else {
        const char *path = s->files[item->scenario - s->n_seeds];
        FILE *f = fopen(path, "rb");
        if (!f) {
            pb_diag_set(diag, path, 0, 0, "%s", strerror(errno));
            return NULL;
        }
        long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        text = size >= 0 && size < (64L << 20) && fseek(f, 0, SEEK_SET) == 0 ? calloc(1, (size_t)size + 1)
                                                                             : NULL;
        if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
            free(text);
            text = NULL;
        }
        fclose(f);
        if (!text) {
            pb_diag_set(diag, path, 0, 0, "cannot read it (or larger than 64 MiB)");
            return NULL;
        }
        char buf[PATH_MAX];
        snprintf(buf, sizeof buf, "%s", path);
        *base_dir = strdup(dirname(buf));
    }
    json_error_t err;
    json_t *root = text ? json_loads(text, 0, &err) : NULL;
    free(text);
    if (!root) {
        pb_diag_set(diag, NULL, 0, 0, "malformed JSON: %s", err.text);
        return NULL;
    }
    if (item->driver < s->n_drivers) {
        const batch_driver *d = &s->drivers[item->driver];
        json_t *driver = json_pack("{s:s, s:I, s:I}", "planner", d->planner, "seed", (json_int_t)d->seed,
                                   "max_iterations", (json_int_t)d->max_iterations);
        if (d->time_limit > 0)
            json_object_set_new(driver, "time_limit", json_real(d->time_limit));
        json_object_set_new(root, "driver", driver);
    }
    if (!s->reference)
        json_object_set_new(root, "reference", json_false());
    text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(root);
    return text;
}

/* Run one item and append its line to the journal (one write: whole lines, however many
 * workers append). */
static void run_one(const batch_script *s, const run_item *item, int journal_fd)
{
    char id[PATH_MAX], *base_dir = NULL;
    scenario_id(s, item->scenario, id, sizeof id);
    const char *driver = item->driver < s->n_drivers ? s->drivers[item->driver].name : "own";
    pb_diag diag = {0};
    json_t *line = json_pack("{s:s, s:s}", "scenario", id, "driver", driver);
    char *text = scenario_text(s, item, &base_dir, &diag);
    pb_scenario *scenario = NULL;
    pb_scenario_result r;
    memset(&r, 0, sizeof r);
    bool ran = false;
    if (text && pb_scenario_parse(&scenario, text, strlen(text), id, base_dir, &diag) == PB_OK)
        ran = pb_scenario_run(scenario, &r, &diag) == PB_OK;
    if (ran) {
        json_object_set_new(line, "termination_reason", json_integer(r.reason));
        json_object_set_new(line, "termination", json_string(pb_termination_name(r.reason)));
        json_object_set_new(line, "vehicle_sim_time", json_real(r.vehicle_sim_time));
        json_object_set_new(line, "steps", json_integer((json_int_t)r.steps));
        json_object_set_new(line, "path_length", json_real(r.path_length));
        json_object_set_new(line, "min_clearance", json_real(r.min_clearance));
        json_object_set_new(line, "collisions", json_integer(r.collisions));
        json_object_set_new(line, "gear_changes", json_integer(r.gear_changes));
        json_object_set_new(line, "distance_to_goal", json_real(r.distance_to_goal));
        json_object_set_new(line, "wall_time", json_real(r.wall_time));
        if (r.has_reference) {
            json_object_set_new(line, "reference_cost", json_real(r.reference_cost));
            json_object_set_new(line, "cost_error", json_real(r.cost_error));
            json_object_set_new(line, "time_error", json_real(r.time_error));
        }
    } else {
        char message[600];
        pb_diag_format(&diag, message, sizeof message);
        json_object_set_new(line, "error", json_string(message));
    }
    char *out = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    if (out) {
        const size_t n = strlen(out);
        out[n] = '\n';
        if (write(journal_fd, out, n + 1) != (ssize_t)(n + 1))
            fprintf(stderr, "planbench: the journal: %s\n", strerror(errno));
        free(out);
    }
    json_decref(line);
    pb_scenario_result_finish(&r);
    pb_scenario_destroy(scenario);
    free(text);
    free(base_dir);
}

/* ---- the journal and the tables ---- */

typedef struct record {
    char scenario[512], driver[64];
    bool error;
    int reason;
    double sim_time, path_length, min_clearance, wall_time, cost_error, time_error;
    bool has_regret;
    int collisions;
} record;

static size_t read_journal(const char *path, record **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = 0, cap = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *sc = json_string_value(json_object_get(o, "scenario"));
        const char *dr = json_string_value(json_object_get(o, "driver"));
        if (sc && dr) { /* a cut last line is skipped: resume redoes it */
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                record *grown = realloc(*out, cap * sizeof *grown);
                if (!grown) {
                    json_decref(o);
                    break;
                }
                *out = grown;
            }
            record *r = &(*out)[n++];
            memset(r, 0, sizeof *r);
            snprintf(r->scenario, sizeof r->scenario, "%s", sc);
            snprintf(r->driver, sizeof r->driver, "%s", dr);
            r->error = json_object_get(o, "error") != NULL;
            r->reason = (int)json_integer_value(json_object_get(o, "termination_reason"));
            r->sim_time = json_number_value(json_object_get(o, "vehicle_sim_time"));
            r->path_length = json_number_value(json_object_get(o, "path_length"));
            r->min_clearance = json_number_value(json_object_get(o, "min_clearance"));
            r->wall_time = json_number_value(json_object_get(o, "wall_time"));
            r->collisions = (int)json_integer_value(json_object_get(o, "collisions"));
            r->has_regret = json_object_get(o, "cost_error") != NULL;
            r->cost_error = json_number_value(json_object_get(o, "cost_error"));
            r->time_error = json_number_value(json_object_get(o, "time_error"));
        }
        json_decref(o);
    }
    fclose(f);
    return n;
}

static bool done_already(const record *records, size_t n, const char *scenario, const char *driver)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(records[i].scenario, scenario) == 0 && strcmp(records[i].driver, driver) == 0)
            return true;
    return false;
}

typedef struct summary {
    char driver[64];
    size_t runs, errors, reasons[PB_REASON_COUNT], collisions, regrets;
    double sim_time, cost_error, time_error, wall_time;
} summary;

static size_t summarise(const record *records, size_t n, summary *out, size_t max)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < m && strcmp(out[k].driver, records[i].driver) != 0)
            k++;
        if (k == m) {
            if (m == max)
                continue;
            memset(&out[m], 0, sizeof out[m]);
            snprintf(out[m].driver, sizeof out[m].driver, "%s", records[i].driver);
            m++;
        }
        summary *s = &out[k];
        s->runs++;
        if (records[i].error) {
            s->errors++;
            continue;
        }
        if (records[i].reason >= 0 && records[i].reason < PB_REASON_COUNT)
            s->reasons[records[i].reason]++;
        s->collisions += records[i].collisions > 0;
        s->sim_time += records[i].sim_time;
        s->wall_time += records[i].wall_time;
        if (records[i].has_regret) {
            s->regrets++;
            s->cost_error += records[i].cost_error;
            s->time_error += records[i].time_error;
        }
    }
    return m;
}

static void write_markdown(FILE *out, const summary *sums, size_t m)
{
    fputs("| driver | runs | success | collision | flipped | timeout | idling | stuck | errors | mean sim "
          "time (s) | "
          "mean cost error (m) | mean time error (s) | runs with a collision | scenarios/s (per core) |\n",
          out);
    fputs("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", out);
    for (size_t k = 0; k < m; k++) {
        const summary *s = &sums[k];
        const size_t ok = s->runs - s->errors;
        fprintf(out, "| %s | %zu | %.1f%% | %zu | %zu | %zu | %zu | %zu | %zu | %.2f | ", s->driver, s->runs,
                ok ? 100.0 * (double)s->reasons[0] / (double)ok : 0.0, s->reasons[1], s->reasons[2],
                s->reasons[3], s->reasons[4], s->reasons[5], s->errors, ok ? s->sim_time / (double)ok : NAN);
        if (s->regrets)
            fprintf(out, "%.2f | %.2f | ", s->cost_error / (double)s->regrets,
                    s->time_error / (double)s->regrets);
        else
            fputs("- | - | ", out);
        fprintf(out, "%zu | %.1f |\n", s->collisions, s->wall_time > 0 ? (double)ok / s->wall_time : NAN);
    }
}

static bool write_outputs(const record *records, size_t n, const char *csv, const char *json, const char *md)
{
    summary sums[MAX_DRIVERS + 1];
    const size_t m = summarise(records, n, sums, MAX_DRIVERS + 1);
    pb_diag diag = {0};
    pb_atomic_file f;
    bool ok = true;
    if (csv && (ok = pb_atomic_file_open(&f, csv, &diag) == PB_OK)) {
        fputs("scenario,driver,termination_reason,vehicle_sim_time,path_length,min_clearance,collisions,cost_"
              "error,"
              "time_error,wall_time,error\n",
              f.fp);
        for (size_t i = 0; i < n; i++) {
            const record *r = &records[i];
            fprintf(f.fp, "\"%s\",%s,%d,%.17g,%.17g,%.17g,%d,", r->scenario, r->driver,
                    r->error ? -1 : r->reason, r->sim_time, r->path_length, r->min_clearance, r->collisions);
            if (r->has_regret)
                fprintf(f.fp, "%.17g,%.17g,", r->cost_error, r->time_error);
            else
                fputs(",,", f.fp);
            fprintf(f.fp, "%.17g,%d\n", r->wall_time, r->error ? 1 : 0);
        }
        ok = pb_atomic_file_commit(&f, &diag) == PB_OK;
    }
    if (ok && json && (ok = pb_atomic_file_open(&f, json, &diag) == PB_OK)) {
        fputs("{\"summaries\": [", f.fp);
        for (size_t k = 0; k < m; k++) {
            const summary *s = &sums[k];
            fprintf(f.fp, "%s\n  {\"driver\": ", k ? "," : "");
            pb_json_write_string(f.fp, s->driver);
            fprintf(f.fp, ", \"runs\": %zu, \"errors\": %zu, \"termination_reasons\": {", s->runs, s->errors);
            for (int reason = 0; reason < PB_REASON_COUNT; reason++)
                fprintf(f.fp, "%s\"%s\": %zu", reason ? ", " : "",
                        pb_termination_name((pb_termination)reason), s->reasons[reason]);
            const size_t ok_runs = s->runs - s->errors;
            fputs("}, \"success_rate\": ", f.fp);
            pb_json_write_number(f.fp, ok_runs ? (double)s->reasons[0] / (double)ok_runs : NAN);
            fputs(", \"mean_sim_time\": ", f.fp);
            pb_json_write_number(f.fp, ok_runs ? s->sim_time / (double)ok_runs : NAN);
            fputs(", \"mean_cost_error\": ", f.fp);
            pb_json_write_number(f.fp, s->regrets ? s->cost_error / (double)s->regrets : NAN);
            fputs(", \"mean_time_error\": ", f.fp);
            pb_json_write_number(f.fp, s->regrets ? s->time_error / (double)s->regrets : NAN);
            fprintf(f.fp,
                    ", \"runs_with_collisions\": %zu, \"scenarios_per_second_per_core\": ", s->collisions);
            pb_json_write_number(f.fp, s->wall_time > 0 ? (double)ok_runs / s->wall_time : NAN);
            fputc('}', f.fp);
        }
        fprintf(f.fp, "\n], \"runs\": %zu}\n", n);
        ok = pb_atomic_file_commit(&f, &diag) == PB_OK;
    }
    if (ok && md && (ok = pb_atomic_file_open(&f, md, &diag) == PB_OK)) {
        write_markdown(f.fp, sums, m);
        ok = pb_atomic_file_commit(&f, &diag) == PB_OK;
    }
    if (!ok)
        cli_diag(&diag);
    else
        write_markdown(stdout, sums, m);
    return ok;
}

static int compare_records(const void *a, const void *b)
{
    const record *x = a, *y = b;
    const int c = strcmp(x->driver, y->driver);
    return c ? c : strcmp(x->scenario, y->scenario);
}

int cli_scenario_bench(int argc, char **argv)
{
    const char *script_path = NULL, *out_dir = NULL, *csv = NULL, *json = NULL, *md = NULL;
    uint64_t jobs = 2;
    bool resume = false, quiet = false;
    for (int i = 0; i < argc; i++) {
        const bool has_value = i + 1 < argc;
        if ((strcmp(argv[i], "-j") == 0 || strcmp(argv[i], "--jobs") == 0) && has_value) {
            if (!cli_parse_u64("-j", argv[++i], &jobs) || jobs < 1 || jobs > 256) {
                cli_error("-j: expected 1..256 workers");
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(argv[i], "--out") == 0 && has_value) {
            out_dir = argv[++i];
        } else if (strcmp(argv[i], "--csv") == 0 && has_value) {
            csv = argv[++i];
        } else if (strcmp(argv[i], "--json") == 0 && has_value) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--md") == 0 && has_value) {
            md = argv[++i];
        } else if (strcmp(argv[i], "--resume") == 0) {
            resume = true;
        } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(batch_usage, stdout);
            return 0;
        } else if (argv[i][0] == '-' || script_path) {
            cli_error("scenario bench: unexpected argument '%s' (see planbench scenario bench --help)",
                      argv[i]);
            return PB_EXIT_BAD_INPUT;
        } else {
            script_path = argv[i];
        }
    }
    if (!script_path) {
        fputs(batch_usage, stderr);
        return PB_EXIT_BAD_INPUT;
    }
    /* every output is checked before the first run */
    if ((csv && !cli_output_writable(csv, "--csv")) || (json && !cli_output_writable(json, "--json")) ||
        (md && !cli_output_writable(md, "--md")))
        return PB_EXIT_BAD_INPUT;
    batch_script script;
    if (!read_script(&script, script_path))
        return PB_EXIT_BAD_INPUT;
    char dir[PATH_MAX], journal[PATH_MAX + 32];
    if (out_dir)
        snprintf(dir, sizeof dir, "%s", out_dir);
    else
        snprintf(dir, sizeof dir, "scenario_out/%s", script.name);
    for (char *p = dir + 1; *p; p++) /* make the folder and its parents */
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0777);
            *p = '/';
        }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("--out %s: %s", dir, strerror(errno));
        script_free(&script);
        return PB_EXIT_BAD_INPUT;
    }
    snprintf(journal, sizeof journal, "%s/scenarios.jsonl", dir);
    record *done = NULL;
    const size_t n_done = resume ? read_journal(journal, &done) : 0;
    if (!resume && access(journal, F_OK) == 0 && truncate(journal, 0) != 0) {
        cli_error("%s: %s", journal, strerror(errno));
        script_free(&script);
        return PB_EXIT_BAD_INPUT;
    }
    /* the runs still to do */
    const size_t n_scenarios = script.n_seeds + script.n_files,
                 n_drivers = script.n_drivers ? script.n_drivers : 1;
    run_item *todo = malloc(n_scenarios * n_drivers * sizeof *todo);
    size_t n_todo = 0;
    for (size_t sc = 0; todo && sc < n_scenarios; sc++)
        for (size_t d = 0; d < n_drivers; d++) {
            char id[PATH_MAX];
            scenario_id(&script, sc, id, sizeof id);
            const char *driver = script.n_drivers ? script.drivers[d].name : "own";
            if (!done_already(done, n_done, id, driver))
                todo[n_todo++] = (run_item){sc, script.n_drivers ? d : script.n_drivers};
        }
    free(done);
    const int fd = open(journal, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (!todo || fd < 0) {
        cli_error("%s: %s", journal, todo ? strerror(errno) : "out of memory");
        free(todo);
        script_free(&script);
        return PB_EXIT_BAD_INPUT;
    }
    const double t0 = pb_clock_seconds();
    const size_t workers = jobs < n_todo ? (size_t)jobs : n_todo;
    for (size_t w = 0; w < workers; w++) {
        fflush(NULL);
        const pid_t pid = fork();
        if (pid == 0) {
            for (size_t i = w; i < n_todo; i += workers)
                run_one(&script, &todo[i], fd);
            _exit(0);
        }
        if (pid < 0)
            cli_error("fork: %s", strerror(errno));
    }
    int failures = 0;
    for (int status; wait(&status) > 0;)
        failures += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    if (!quiet)
        fprintf(stderr, "planbench: %zu runs in %.2f s (%zu from the journal), %d worker(s) failed\n", n_todo,
                pb_clock_seconds() - t0, n_scenarios * n_drivers - n_todo, failures);
    record *records = NULL;
    const size_t n = read_journal(journal, &records);
    qsort(records, n, sizeof *records, compare_records);
    const bool ok = write_outputs(records, n, csv, json, md);
    free(records);
    free(todo);
    script_free(&script);
    return ok && failures == 0 ? 0 : PB_EXIT_BAD_INPUT;
}
