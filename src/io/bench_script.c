/* Benchmark scripts: an INI file (sections [benchmark], [problem.NAME], [planner.NAME];
 * "key = value" lines; ';' or '#' comments, at a line's start or after whitespace). The
 * format is documented in bench/README.md. Everything from outside is checked here with a
 * message naming the file, the line and the key; nothing asserts on input. */
#include "io/bench_script.h"
#include "io/input_file.h"
#include "planbench/impl/engine_impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *dup_string(const char *s)
{
    return dup_text(s, strlen(s));
}

void pb_bench_script_destroy(pb_bench_script *script)
{
    if (!script)
        return;
    for (size_t i = 0; i < script->n_problems; i++) {
        pb_bench_problem *p = &script->problems[i];
        free(p->name);
        free(p->map);
        free(p->engine);
        free(p->start);
        free(p->goal);
        for (size_t j = 0; j < p->n_options; j++) {
            free(p->options[j].name);
            free(p->options[j].value);
        }
        free(p->options);
    }
    for (size_t i = 0; i < script->n_planners; i++) {
        pb_bench_planner *p = &script->planners[i];
        free(p->name);
        free(p->planner);
        free(p->label);
        for (size_t j = 0; j < p->n_params; j++) {
            free(p->params[j].name);
            free(p->params[j].value);
        }
        free(p->params);
    }
    free(script->problems);
    free(script->planners);
    free(script->path);
    free(script->name);
    free(script);
}

/* ---- parsing state ---- */

typedef enum section_kind { SECTION_NONE, SECTION_BENCHMARK, SECTION_PROBLEM, SECTION_PLANNER } section_kind;

typedef struct parser {
    const char *file;
    char *folder; /* the script's folder with a trailing '/', or "" */
    pb_bench_script *script;
    section_kind section;
    int line;
    pb_diag *diag;
    bool seen_benchmark;
    int benchmark_keys_seen; /* bit per [benchmark] key */
} parser;

static bool word_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '-'))
            return false;
    return true;
}

static pb_status fail(parser *p, const char *key, const char *fmt, const char *arg)
{
    char msg[400];
    snprintf(msg, sizeof msg, fmt, arg);
    if (key)
        pb_diag_set(p->diag, p->file, p->line, 0, "%s: %s", key, msg);
    else
        pb_diag_set(p->diag, p->file, p->line, 0, "%s", msg);
    return PB_ERR_INVALID;
}

static bool parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!(text[0] >= '0' && text[0] <= '9'))
        return false;
    const unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

static pb_status add_kv(parser *p, pb_bench_kv **items, size_t *n, const char *name, const char *value)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*items)[i].name, name) == 0)
            return fail(p, name, "given twice in this section%s", "");
    if (*n == PB_BENCH_SCRIPT_MAX_ITEMS)
        return fail(p, name, "too many entries in one section%s", "");
    pb_bench_kv *grown = realloc(*items, (*n + 1) * sizeof **items);
    if (!grown)
        return PB_ERR_NOMEM;
    *items = grown;
    pb_bench_kv *kv = &grown[*n];
    kv->name = dup_string(name);
    kv->value = dup_string(value);
    kv->line = p->line;
    if (!kv->name || !kv->value) {
        free(kv->name);
        free(kv->value);
        return PB_ERR_NOMEM;
    }
    (*n)++;
    return PB_OK;
}

static pb_status set_string(parser *p, char **field, int *line_field, const char *key, const char *value)
{
    if (*field)
        return fail(p, key, "given twice in this section%s", "");
    *field = dup_string(value);
    if (!*field)
        return PB_ERR_NOMEM;
    if (line_field)
        *line_field = p->line;
    return PB_OK;
}

static pb_status benchmark_key(parser *p, const char *key, const char *value)
{
    static const char *const keys[] = {"name", "runs", "time_limit",     "memory_limit",
                                       "stop", "seed", "max_iterations", NULL};
    int index = -1;
    for (int i = 0; keys[i]; i++)
        if (strcmp(key, keys[i]) == 0)
            index = i;
    if (index < 0)
        return fail(p, key,
                    "unknown key in [benchmark] (known: name, runs, time_limit, memory_limit, stop, seed, "
                    "max_iterations)%s",
                    "");
    if (p->benchmark_keys_seen & (1 << index))
        return fail(p, key, "given twice%s", "");
    p->benchmark_keys_seen |= 1 << index;
    pb_bench_script *s = p->script;
    uint64_t u;
    double d;
    switch (index) {
    case 0:
        if (!word_ok(value) || strlen(value) > 100)
            return fail(p, key, "expected one word of letters, digits, '-' and '_', got '%s'", value);
        free(s->name);
        s->name = dup_string(value);
        return s->name ? PB_OK : PB_ERR_NOMEM;
    case 1:
        if (!parse_u64(value, &u) || u < 1 || u > 1000000)
            return fail(p, key, "expected a whole number of runs in [1, 1000000], got '%s'", value);
        s->runs = (uint32_t)u;
        return PB_OK;
    case 2:
        if (!parse_double(value, &d) || !(d > 0.0) || d > 1e6)
            return fail(p, key, "expected seconds > 0, got '%s'", value);
        s->time_limit_s = d;
        return PB_OK;
    case 3:
        if (!parse_double(value, &d) || !(d >= 0.0) || d > 1e9)
            return fail(p, key, "expected MiB >= 0 (0: no limit), got '%s'", value);
        s->memory_limit_mb = d;
        return PB_OK;
    case 4:
        if (strcmp(value, "first") == 0)
            s->stop = PB_BENCH_STOP_FIRST;
        else if (strcmp(value, "budget") == 0)
            s->stop = PB_BENCH_STOP_BUDGET;
        else if (strcmp(value, "auto") == 0)
            s->stop = PB_BENCH_STOP_AUTO;
        else
            return fail(p, key, "expected 'first', 'budget' or 'auto', got '%s'", value);
        return PB_OK;
    case 5:
        if (!parse_u64(value, &u))
            return fail(p, key, "expected a whole number >= 0, got '%s'", value);
        s->seed = u;
        return PB_OK;
    default:
        if (!parse_u64(value, &u))
            return fail(p, key, "expected a whole number >= 0 (0: no limit), got '%s'", value);
        s->max_iterations = u;
        return PB_OK;
    }
}

static pb_status problem_key(parser *p, const char *key, const char *value)
{
    pb_bench_problem *pr = &p->script->problems[p->script->n_problems - 1];
    if (strcmp(key, "map") == 0) {
        if (!*value)
            return fail(p, key, "expected a file name%s", "");
        char *joined = NULL;
        if (value[0] == '/') {
            joined = dup_string(value);
        } else {
            const size_t n = strlen(p->folder) + strlen(value) + 1;
            joined = malloc(n);
            if (joined)
                snprintf(joined, n, "%s%s", p->folder, value);
        }
        if (!joined)
            return PB_ERR_NOMEM;
        pb_status st = set_string(p, &pr->map, &pr->map_line, key, joined);
        free(joined);
        return st;
    }
    if (strcmp(key, "engine") == 0)
        return set_string(p, &pr->engine, &pr->engine_line, key, value);
    if (strcmp(key, "start") == 0 || strcmp(key, "goal") == 0) {
        double q[PB_MAX_DIM];
        if (pb_parse_doubles(value, q, PB_MAX_DIM) <= 0)
            return fail(p, key, "expected comma-separated numbers, as in '60.5,60.5', got '%s'", value);
        return key[0] == 's' ? set_string(p, &pr->start, &pr->start_line, key, value)
                             : set_string(p, &pr->goal, &pr->goal_line, key, value);
    }
    if (strcmp(key, "goal_radius") == 0) {
        double d;
        if (!parse_double(value, &d) || !(d > 0.0))
            return fail(p, key, "expected a radius > 0, got '%s'", value);
        if (pr->goal_radius > 0.0)
            return fail(p, key, "given twice in this section%s", "");
        pr->goal_radius = d;
        return PB_OK;
    }
    if (strncmp(key, "option.", 7) == 0) {
        if (!word_ok(key + 7))
            return fail(p, key, "expected option.NAME with NAME one word%s", "");
        return add_kv(p, &pr->options, &pr->n_options, key + 7, value);
    }
    return fail(p, key,
                "unknown key in [problem.%s] (known: map, engine, start, goal, goal_radius, option.NAME)",
                pr->name);
}

static pb_status planner_key(parser *p, const char *key, const char *value)
{
    pb_bench_planner *pl = &p->script->planners[p->script->n_planners - 1];
    if (strcmp(key, "planner") == 0) {
        if (!word_ok(value))
            return fail(p, key, "expected a planner name, got '%s'", value);
        if (pl->planner_line)
            return fail(p, key, "given twice in this section%s", "");
        free(pl->planner);
        pl->planner = NULL;
        return set_string(p, &pl->planner, &pl->planner_line, key, value);
    }
    if (strcmp(key, "label") == 0) {
        if (!*value || strchr(value, '"') || strchr(value, '\\') || strchr(value, ';') ||
            strchr(value, ',') || strchr(value, '|') || strlen(value) > 64)
            return fail(p, key, "expected a label of at most 64 characters without \" \\ ; , |, got '%s'",
                        value);
        if (strcmp(pl->label, pl->name) != 0)
            return fail(p, key, "given twice in this section%s", "");
        free(pl->label);
        pl->label = dup_string(value);
        return pl->label ? PB_OK : PB_ERR_NOMEM;
    }
    if (!word_ok(key))
        return fail(p, key, "expected a parameter name%s", "");
    return add_kv(p, &pl->params, &pl->n_params, key, value);
}

static pb_status open_section(parser *p, const char *name)
{
    pb_bench_script *s = p->script;
    if (strcmp(name, "benchmark") == 0) {
        if (p->seen_benchmark)
            return fail(p, NULL, "section [benchmark] given twice%s", "");
        p->seen_benchmark = true;
        p->section = SECTION_BENCHMARK;
        return PB_OK;
    }
    const bool problem = strncmp(name, "problem.", 8) == 0, planner = strncmp(name, "planner.", 8) == 0;
    if (!problem && !planner)
        return fail(p, NULL, "unknown section [%s] (known: [benchmark], [problem.NAME], [planner.NAME])",
                    name);
    const char *item = name + 8;
    if (!word_ok(item) || strlen(item) > 64)
        return fail(p, NULL, "section [%s]: NAME must be one word of letters, digits, '-' and '_'", name);
    if (problem) {
        for (size_t i = 0; i < s->n_problems; i++)
            if (strcmp(s->problems[i].name, item) == 0)
                return fail(p, NULL, "section [%s] given twice", name);
        if (s->n_problems == PB_BENCH_SCRIPT_MAX_ITEMS)
            return fail(p, NULL, "too many problems%s", "");
        pb_bench_problem *grown = realloc(s->problems, (s->n_problems + 1) * sizeof *grown);
        if (!grown)
            return PB_ERR_NOMEM;
        s->problems = grown;
        pb_bench_problem *pr = &grown[s->n_problems];
        memset(pr, 0, sizeof *pr);
        pr->line = p->line;
        pr->name = dup_string(item);
        if (!pr->name)
            return PB_ERR_NOMEM;
        s->n_problems++;
        p->section = SECTION_PROBLEM;
    } else {
        for (size_t i = 0; i < s->n_planners; i++)
            if (strcmp(s->planners[i].name, item) == 0)
                return fail(p, NULL, "section [%s] given twice", name);
        if (s->n_planners == PB_BENCH_SCRIPT_MAX_ITEMS)
            return fail(p, NULL, "too many planners%s", "");
        pb_bench_planner *grown = realloc(s->planners, (s->n_planners + 1) * sizeof *grown);
        if (!grown)
            return PB_ERR_NOMEM;
        s->planners = grown;
        pb_bench_planner *pl = &grown[s->n_planners];
        memset(pl, 0, sizeof *pl);
        pl->line = p->line;
        pl->name = dup_string(item);
        pl->planner = dup_string(item);
        pl->label = dup_string(item);
        s->n_planners++;
        if (!pl->name || !pl->planner || !pl->label)
            return PB_ERR_NOMEM;
        p->section = SECTION_PLANNER;
    }
    return PB_OK;
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

/* Cut a comment: ';' or '#' at the start or after a space or tab. */
static void strip_comment(char *s)
{
    for (char *c = s; *c; c++)
        if ((*c == ';' || *c == '#') && (c == s || c[-1] == ' ' || c[-1] == '\t')) {
            *c = '\0';
            return;
        }
}

static pb_status parse_line(parser *p, char *line)
{
    strip_comment(line);
    char *text = trim(line);
    if (!*text)
        return PB_OK;
    if (*text == '[') {
        const size_t n = strlen(text);
        if (text[n - 1] != ']')
            return fail(p, NULL, "a section header must end with ']', got '%s'", text);
        text[n - 1] = '\0';
        return open_section(p, trim(text + 1));
    }
    char *eq = strchr(text, '=');
    if (!eq)
        return fail(p, NULL, "expected 'key = value' or a [section], got '%s'", text);
    *eq = '\0';
    const char *key = trim(text), *value = trim(eq + 1);
    if (!*key)
        return fail(p, NULL, "a line starts with '=': the key is missing%s", "");
    switch (p->section) {
    case SECTION_BENCHMARK:
        return benchmark_key(p, key, value);
    case SECTION_PROBLEM:
        return problem_key(p, key, value);
    case SECTION_PLANNER:
        return planner_key(p, key, value);
    default:
        return fail(p, key, "key outside any section: start with [benchmark]%s", "");
    }
}

static pb_status finish_script(parser *p)
{
    pb_bench_script *s = p->script;
    p->line = 0;
    if (!s->name) {
        const char *base = strrchr(p->file, '/');
        base = base ? base + 1 : p->file;
        size_t n = strcspn(base, ".");
        char word[101];
        size_t w = 0;
        for (size_t i = 0; i < n && w < 100; i++)
            word[w++] = word_ok((char[]){base[i], '\0'}) ? base[i] : '_';
        word[w] = '\0';
        s->name = dup_string(w ? word : "benchmark");
        if (!s->name)
            return PB_ERR_NOMEM;
    }
    if (s->n_problems == 0)
        return fail(p, NULL, "no problem: add a [problem.NAME] section with a map or an engine%s", "");
    if (s->n_planners == 0)
        return fail(p, NULL, "no planner: add a [planner.NAME] section%s", "");
    for (size_t i = 0; i < s->n_problems; i++) {
        const pb_bench_problem *pr = &s->problems[i];
        if (!pr->map && !pr->engine) {
            p->line = pr->line;
            return fail(p, NULL, "[problem.%s] needs a map or an engine", pr->name);
        }
    }
    for (size_t i = 0; i < s->n_planners; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->planners[i].label, s->planners[j].label) == 0) {
                p->line = s->planners[i].line;
                return fail(p, "label", "'%s' is already the label of another planner: labels must differ",
                            s->planners[i].label);
            }
    return PB_OK;
}

pb_status pb_bench_script_parse(pb_bench_script **out, const char *text, size_t size, const char *name,
                                pb_diag *diag)
{
    *out = NULL;
    if (!name)
        name = "(script)";
    parser p = {.file = name, .diag = diag};
    if (size > PB_BENCH_SCRIPT_MAX_SIZE)
        return fail(&p, NULL, "the script is larger than 1 MiB%s", "");
    if (memchr(text, '\0', size))
        return fail(&p, NULL, "the script contains a NUL byte: it is not a text file%s", "");
    pb_bench_script *s = calloc(1, sizeof *s);
    char *copy = dup_text(text, size);
    const char *slash = strrchr(name, '/');
    p.folder = slash ? dup_text(name, (size_t)(slash - name) + 1) : dup_string("");
    if (!s || !copy || !p.folder) {
        free(s);
        free(copy);
        free(p.folder);
        return PB_ERR_NOMEM;
    }
    s->runs = 10;
    s->time_limit_s = 10.0;
    s->memory_limit_mb = 1024.0;
    s->seed = 1;
    s->path = dup_string(name);
    p.script = s;
    pb_status st = s->path ? PB_OK : PB_ERR_NOMEM;
    char *line = copy;
    while (st == PB_OK && line) {
        p.line++;
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        st = parse_line(&p, line);
        line = next;
    }
    if (st == PB_OK)
        st = finish_script(&p);
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, name, p.line, 0, "out of memory");
    free(copy);
    free(p.folder);
    if (st != PB_OK) {
        pb_bench_script_destroy(s);
        return st;
    }
    *out = s;
    return PB_OK;
}

pb_status pb_bench_script_load(pb_bench_script **out, const char *path, pb_diag *diag)
{
    *out = NULL;
    pb_status open_status = PB_ERR_IO;
    FILE *fp = pb_file_open_regular(path, diag, &open_status);
    if (!fp)
        return open_status;
    char *text = malloc(PB_BENCH_SCRIPT_MAX_SIZE + 1);
    if (!text) {
        fclose(fp);
        return PB_ERR_NOMEM;
    }
    const size_t n = fread(text, 1, PB_BENCH_SCRIPT_MAX_SIZE + 1, fp);
    const bool read_error = ferror(fp) != 0;
    fclose(fp);
    if (read_error) {
        free(text);
        pb_diag_set(diag, path, 0, 0, "cannot read the benchmark script");
        return PB_ERR_IO;
    }
    const pb_status st = pb_bench_script_parse(out, text, n, path, diag);
    free(text);
    return st;
}
