/* runs.jsonl: one JSON object per finished run, written in one write() as each run ends, read back
 * by --resume. The reader understands exactly what the writer produces (flat objects of
 * strings, numbers, booleans and null, plus "cost_trace": [[t, c], ...]); anything else on
 * a line makes the line be skipped. */
#include "bench/bench_internal.h"

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
    fputs(", \"outcome\": ", out);
    pb_json_write_string(out, pb_outcome_str(rec->outcome));
    fprintf(out, ", \"solved\": %s, \"time_s\": ", rec->solved ? "true" : "false");
    pb_json_write_number(out, rec->time_s);
    fputs(", \"time_to_first_s\": ", out);
    pb_json_write_number(out, rec->time_to_first_s >= 0.0 ? rec->time_to_first_s : NAN);
    fputs(", \"cost\": ", out);
    pb_json_write_number(out, rec->cost);
    fprintf(out, ", \"iterations\": %llu, \"nodes\": %llu, \"n_feasible\": %llu, \"n_visible\": %llu",
            (unsigned long long)rec->iterations, (unsigned long long)rec->nodes,
            (unsigned long long)rec->n_feasible, (unsigned long long)rec->n_visible);
    fprintf(out, ", \"n_pixels\": %llu, \"memory_mb\": ", (unsigned long long)rec->n_pixels);
    pb_json_write_number(out, rec->memory_mb);
    fputs(", \"setup_s\": ", out);
    pb_json_write_number(out, rec->setup_s);
    if (rec->status == PB_BENCH_RUN_OK)
        pb_edge_check_write_json(out, rec->edge_check, rec->edge_resolution);
    pb_cost_trace_write_json(out, rec->cost_trace, rec->n_cost_trace);
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

/* ---- reading ---- */

typedef struct cursor {
    const char *p;
} cursor;

static void skip_space(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

static bool expect(cursor *c, char ch)
{
    skip_space(c);
    if (*c->p != ch)
        return false;
    c->p++;
    return true;
}

/* A string without escapes beyond \" and \\ (what the writer produces for names). */
static bool read_string(cursor *c, char *buf, size_t size)
{
    skip_space(c);
    if (*c->p != '"')
        return false;
    c->p++;
    size_t n = 0;
    while (*c->p && *c->p != '"') {
        char ch = *c->p++;
        if (ch == '\\') {
            ch = *c->p++;
            if (ch == 'n')
                ch = '\n';
            else if (ch == 'u') {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    const char h = *c->p++;
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f')))
                        return false;
                    v = v * 16 + (unsigned)(h <= '9' ? h - '0' : h - 'a' + 10);
                }
                ch = (char)v;
            } else if (ch != '"' && ch != '\\') {
                return false;
            }
        }
        if (n + 1 < size)
            buf[n++] = ch;
    }
    if (*c->p != '"')
        return false;
    c->p++;
    buf[n] = '\0';
    return true;
}

static bool read_number(cursor *c, double *out)
{
    skip_space(c);
    if (strncmp(c->p, "null", 4) == 0) {
        c->p += 4;
        *out = NAN;
        return true;
    }
    char *end;
    *out = strtod(c->p, &end);
    if (end == c->p)
        return false;
    c->p = end;
    return true;
}

static bool read_bool(cursor *c, bool *out)
{
    skip_space(c);
    if (strncmp(c->p, "true", 4) == 0) {
        c->p += 4;
        *out = true;
        return true;
    }
    if (strncmp(c->p, "false", 5) == 0) {
        c->p += 5;
        *out = false;
        return true;
    }
    return false;
}

static bool read_trace(cursor *c, pb_bench_record *rec)
{
    if (!expect(c, '['))
        return false;
    size_t capacity = 0;
    skip_space(c);
    if (*c->p == ']') {
        c->p++;
        return true;
    }
    for (;;) {
        double t, cost;
        if (!expect(c, '[') || !read_number(c, &t) || !expect(c, ',') || !read_number(c, &cost) ||
            !expect(c, ']'))
            return false;
        if (rec->n_cost_trace == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            pb_cost_sample *grown = realloc(rec->cost_trace, capacity * sizeof *grown);
            if (!grown)
                return false;
            rec->cost_trace = grown;
        }
        rec->cost_trace[rec->n_cost_trace++] = (pb_cost_sample){t, isnan(cost) ? INFINITY : cost};
        skip_space(c);
        if (*c->p == ']') {
            c->p++;
            return true;
        }
        if (!expect(c, ','))
            return false;
    }
}

static int find_problem(const pb_bench_script *s, const char *name)
{
    for (size_t i = 0; i < s->n_problems; i++)
        if (strcmp(s->problems[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int find_label(const pb_bench_script *s, const char *label)
{
    for (size_t i = 0; i < s->n_planners; i++)
        if (strcmp(s->planners[i].label, label) == 0)
            return (int)i;
    return -1;
}

static bool parse_line(const pb_bench_script *s, const char *line, pb_bench_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->cost = INFINITY;
    rec->time_to_first_s = -1.0;
    cursor c = {line};
    if (!expect(&c, '{'))
        return false;
    int problem = -1, planner = -1;
    double run = -1.0;
    unsigned seen = 0;
    for (;;) {
        char key[64], text[256];
        if (!read_string(&c, key, sizeof key) || !expect(&c, ':'))
            return false;
        double v = 0.0;
        bool ok = true;
        if (strcmp(key, "problem") == 0) {
            ok = read_string(&c, text, sizeof text) && (problem = find_problem(s, text)) >= 0;
            seen |= 1;
        } else if (strcmp(key, "planner") == 0) {
            ok = read_string(&c, text, sizeof text) && (planner = find_label(s, text)) >= 0;
            seen |= 2;
        } else if (strcmp(key, "status") == 0) {
            ok = read_string(&c, text, sizeof text);
            rec->status = PB_BENCH_RUN_STATUS_COUNT;
            for (int k = 0; k < PB_BENCH_RUN_STATUS_COUNT; k++)
                if (strcmp(text, pb_bench_status_str((pb_bench_status)k)) == 0)
                    rec->status = (pb_bench_status)k;
            ok = ok && rec->status != PB_BENCH_RUN_STATUS_COUNT;
            seen |= 4;
        } else if (strcmp(key, "status_text") == 0) {
            ok = read_string(&c, rec->status_text, sizeof rec->status_text);
        } else if (strcmp(key, "outcome") == 0) {
            ok = read_string(&c, text, sizeof text);
            rec->outcome = PB_OUTCOME_COUNT;
            for (int k = 0; k < PB_OUTCOME_COUNT; k++)
                if (strcmp(text, pb_outcome_str((pb_outcome)k)) == 0)
                    rec->outcome = (pb_outcome)k;
            ok = ok && rec->outcome != PB_OUTCOME_COUNT;
        } else if (strcmp(key, "solved") == 0) {
            ok = read_bool(&c, &rec->solved);
        } else if (strcmp(key, "edge_check") == 0) {
            ok = read_string(&c, text, sizeof text);
            rec->edge_check = PB_EDGE_CHECK_COUNT;
            for (int k = 0; k < PB_EDGE_CHECK_COUNT; k++)
                if (strcmp(text, pb_edge_check_str((pb_edge_check)k)) == 0)
                    rec->edge_check = (pb_edge_check)k;
            ok = ok && rec->edge_check != PB_EDGE_CHECK_COUNT;
        } else if (strcmp(key, "cost_trace") == 0) {
            ok = read_trace(&c, rec);
        } else {
            ok = read_number(&c, &v);
            if (strcmp(key, "run") == 0) {
                run = v;
                seen |= 8;
            } else if (strcmp(key, "seed") == 0)
                rec->seed = (uint64_t)v;
            else if (strcmp(key, "time_s") == 0)
                rec->time_s = v;
            else if (strcmp(key, "time_to_first_s") == 0)
                rec->time_to_first_s = isnan(v) ? -1.0 : v;
            else if (strcmp(key, "cost") == 0)
                rec->cost = isnan(v) ? INFINITY : v;
            else if (strcmp(key, "iterations") == 0)
                rec->iterations = (uint64_t)v;
            else if (strcmp(key, "nodes") == 0)
                rec->nodes = (uint64_t)v;
            else if (strcmp(key, "n_feasible") == 0)
                rec->n_feasible = (uint64_t)v;
            else if (strcmp(key, "n_visible") == 0)
                rec->n_visible = (uint64_t)v;
            else if (strcmp(key, "n_pixels") == 0)
                rec->n_pixels = (uint64_t)v;
            else if (strcmp(key, "memory_mb") == 0)
                rec->memory_mb = v;
            else if (strcmp(key, "setup_s") == 0)
                rec->setup_s = v;
            else if (strcmp(key, "edge_resolution") == 0 || strcmp(key, "clearance_floor") == 0)
                rec->edge_resolution = v;
        }
        if (!ok)
            return false;
        skip_space(&c);
        if (*c.p == '}')
            break;
        if (!expect(&c, ','))
            return false;
    }
    if (seen != 15 || !(run >= 0.0 && run < (double)s->runs && run == floor(run)))
        return false;
    rec->problem = (uint32_t)problem;
    rec->planner = (uint32_t)planner;
    rec->run = (uint32_t)run;
    rec->seed = s->seed + rec->run; /* the script's seeds, whatever the file says */
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
    while (st == PB_OK && (n = getline(&line, &capacity, fp)) > 0) {
        if (line[n - 1] != '\n')
            break; /* cut short by an interruption */
        line[n - 1] = '\0';
        pb_bench_record rec;
        if (!parse_line(s, line, &rec)) {
            free(rec.cost_trace);
            continue;
        }
        const size_t index = ((size_t)rec.problem * s->n_planners + rec.planner) * s->runs + rec.run;
        if (have[index]) {
            free(rec.cost_trace);
            continue;
        }
        have[index] = true;
        if (r->n == r->capacity) {
            const size_t cap = r->capacity ? 2 * r->capacity : 64;
            pb_bench_record *grown = realloc(r->records, cap * sizeof *grown);
            if (!grown) {
                free(rec.cost_trace);
                st = PB_ERR_NOMEM;
                break;
            }
            r->records = grown;
            r->capacity = cap;
        }
        r->records[r->n++] = rec;
    }
    free(line);
    free(have);
    fclose(fp);
    return st;
}
