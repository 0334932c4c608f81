/* Benchmark outputs: the Markdown table, CSV, JSON and OMPL benchmark logs
 * (/work/shared/spec/ompl-benchmark-log.md). Files are written to "PATH.tmp.PID" and renamed. */
#include "bench/bench_internal.h"
#include "bench/layout.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the table ---- */

/* Columns where a smaller median is a merit and earns bold: success rate, time to the first
 * solution, cost. Counts (iterations, nodes, checks) are not: a planner that gives up early
 * has few of them. */
enum { COL_SUCCESS, COL_TIME, COL_COST, N_BOLD_COLS };

typedef struct row_stats {
    size_t n_runs, n_solved, n_failed;
    pb_bench_summary time, cost, iterations, nodes, feasible, visible;
    double key[N_BOLD_COLS]; /* the value compared for bold, smaller is better; NaN: none */
} row_stats;

static void compute_row(const pb_bench_results *r, uint32_t problem, uint32_t planner, row_stats *row,
                        const pb_bench_record **buf, double *values)
{
    memset(row, 0, sizeof *row);
    const size_t n = pb_bench_select(r, problem, planner, false, buf);
    row->n_runs = n;
    size_t k;
#define SUMMARISE(field, cond, expr)                                                                         \
    k = 0;                                                                                                   \
    for (size_t i = 0; i < n; i++)                                                                           \
        if (cond)                                                                                            \
            values[k++] = (expr);                                                                            \
    row->field = pb_bench_summarise(values, k);
    SUMMARISE(time, buf[i]->status == PB_BENCH_RUN_OK && buf[i]->time_to_first_s >= 0.0,
              buf[i]->time_to_first_s)
    SUMMARISE(cost, buf[i]->status == PB_BENCH_RUN_OK && buf[i]->solved && isfinite(buf[i]->cost),
              buf[i]->cost)
    SUMMARISE(iterations, buf[i]->status == PB_BENCH_RUN_OK, (double)buf[i]->iterations)
    SUMMARISE(nodes, buf[i]->status == PB_BENCH_RUN_OK, (double)buf[i]->nodes)
    SUMMARISE(feasible, buf[i]->status == PB_BENCH_RUN_OK, (double)buf[i]->n_feasible)
    SUMMARISE(visible, buf[i]->status == PB_BENCH_RUN_OK, (double)buf[i]->n_visible)
#undef SUMMARISE
    for (size_t i = 0; i < n; i++) {
        row->n_solved += buf[i]->status == PB_BENCH_RUN_OK && buf[i]->solved;
        row->n_failed += buf[i]->status != PB_BENCH_RUN_OK;
    }
    /* only planners that solved compete on time and cost */
    row->key[COL_SUCCESS] = n ? -(double)row->n_solved / (double)n : NAN; /* larger is better */
    row->key[COL_TIME] = row->n_solved ? row->time.median : NAN;
    row->key[COL_COST] = row->n_solved ? row->cost.median : NAN;
}

static void cell(FILE *out, bool bold, const char *text)
{
    fprintf(out, bold ? " **%s** |" : " %s |", text);
}

/* Significant digits of the table's columns: times in ms to 3, costs to 4 (paths differ in
 * the third digit), counts through pb_bench_format_count. */
#define TIME_DIGITS   3
#define COST_DIGITS   4
#define SPREAD_DIGITS 3 /* of an IQR */

/* "median (IQR)" of `sm` times `scale`, or "–" without values. */
static void median_iqr(char *text, size_t size, const pb_bench_summary *sm, double scale, int digits)
{
    if (!sm->n) {
        snprintf(text, size, "–");
        return;
    }
    char median[48], iqr[48];
    pb_bench_format_fixed(median, sizeof median, sm->median * scale, digits);
    pb_bench_format_fixed(iqr, sizeof iqr, (sm->q3 - sm->q1) * scale, SPREAD_DIGITS);
    snprintf(text, size, "%s (%s)", median, iqr);
}

void pb_bench_write_table(FILE *out, const pb_bench_script *s, const pb_bench_results *r)
{
    const pb_bench_record **buf = malloc((r->n ? r->n : 1) * sizeof *buf);
    double *values = malloc((r->n ? r->n : 1) * sizeof *values);
    row_stats *rows = malloc(s->n_planners * sizeof *rows);
    if (!buf || !values || !rows) {
        free(buf);
        free(values);
        free(rows);
        fputs("(out of memory)\n", out);
        return;
    }
    fputs("| problem | planner | success | time to first solution, ms: median (IQR) | 95% CI of median, ms "
          "| cost: median (IQR) | iterations | nodes | feasible checks | visible checks |\n",
          out);
    fputs("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", out);
    for (uint32_t p = 0; p < s->n_problems; p++) {
        double best[N_BOLD_COLS], worst[N_BOLD_COLS];
        for (int c = 0; c < N_BOLD_COLS; c++)
            best[c] = worst[c] = NAN;
        for (uint32_t q = 0; q < s->n_planners; q++) {
            compute_row(r, p, q, &rows[q], buf, values);
            for (int c = 0; c < N_BOLD_COLS; c++)
                if (!isnan(rows[q].key[c])) {
                    best[c] = isnan(best[c]) ? rows[q].key[c] : fmin(best[c], rows[q].key[c]);
                    worst[c] = isnan(worst[c]) ? rows[q].key[c] : fmax(worst[c], rows[q].key[c]);
                }
        }
        /* a success rate every planner shares is no distinction */
        if (best[COL_SUCCESS] == worst[COL_SUCCESS])
            best[COL_SUCCESS] = NAN;
        for (uint32_t q = 0; q < s->n_planners; q++) {
            const row_stats *row = &rows[q];
            bool bold[N_BOLD_COLS];
            for (int c = 0; c < N_BOLD_COLS; c++)
                bold[c] = s->n_planners > 1 && !isnan(row->key[c]) && row->key[c] == best[c];
            char text[160];
            fprintf(out, "| %s | %s |", s->problems[p].name, s->planners[q].label);
            if (row->n_failed)
                snprintf(text, sizeof text, "%zu/%zu (%zu failed)", row->n_solved, row->n_runs,
                         row->n_failed);
            else
                snprintf(text, sizeof text, "%zu/%zu", row->n_solved, row->n_runs);
            cell(out, bold[COL_SUCCESS], text);
            median_iqr(text, sizeof text, &row->time, 1e3, TIME_DIGITS);
            cell(out, bold[COL_TIME], text);
            if (!isnan(row->time.ci_lo)) {
                char lo[48], hi[48];
                snprintf(text, sizeof text, "[%s, %s]",
                         pb_bench_format_fixed(lo, sizeof lo, row->time.ci_lo * 1e3, TIME_DIGITS),
                         pb_bench_format_fixed(hi, sizeof hi, row->time.ci_hi * 1e3, TIME_DIGITS));
            } else {
                snprintf(text, sizeof text, "– (n < 6)");
            }
            cell(out, false, text);
            median_iqr(text, sizeof text, &row->cost, 1.0, COST_DIGITS);
            cell(out, bold[COL_COST], text);
            const pb_bench_summary *counts[] = {&row->iterations, &row->nodes, &row->feasible, &row->visible};
            for (int c = 0; c < 4; c++)
                cell(out, false,
                     pb_bench_format_count(text, sizeof text, counts[c]->n ? counts[c]->median : NAN));
            fputc('\n', out);
        }
    }
    free(buf);
    free(values);
    free(rows);
}

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        fputs(s, out);
    }
}

static void csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
}

pb_status pb_bench_save_csv(const pb_bench_script *s, const pb_bench_results *r, const char *path,
                            pb_diag *diag)
{
    pb_atomic_file f;
    pb_status st = pb_atomic_file_open(&f, path, diag);
    if (st != PB_OK)
        return st;
    FILE *out = f.fp;
    fputs("problem,planner,label,run,seed,status,status_text,outcome,solved,time_s,time_to_first_s,cost,"
          "iterations,nodes,n_feasible,n_visible,n_pixels,memory_mb,setup_s,n_cost_trace\n",
          out);
    for (size_t i = 0; i < r->n; i++) {
        const pb_bench_record *rec = &r->records[i];
        csv_field(out, s->problems[rec->problem].name);
        fputc(',', out);
        csv_field(out, s->planners[rec->planner].planner);
        fputc(',', out);
        csv_field(out, s->planners[rec->planner].label);
        fprintf(out, ",%u,%llu,", rec->run, (unsigned long long)rec->seed);
        csv_field(out, pb_bench_status_str(rec->status));
        fputc(',', out);
        csv_field(out, rec->status_text);
        fprintf(out, ",%s,%d,", rec->status == PB_BENCH_RUN_OK ? pb_outcome_str(rec->outcome) : "",
                rec->solved);
        csv_number(out, rec->time_s);
        fputc(',', out);
        csv_number(out, rec->time_to_first_s >= 0.0 ? rec->time_to_first_s : NAN);
        fputc(',', out);
        csv_number(out, rec->cost);
        fprintf(out, ",%llu,%llu,%llu,%llu,%llu,", (unsigned long long)rec->iterations,
                (unsigned long long)rec->nodes, (unsigned long long)rec->n_feasible,
                (unsigned long long)rec->n_visible, (unsigned long long)rec->n_pixels);
        csv_number(out, rec->memory_mb);
        fputc(',', out);
        csv_number(out, rec->setup_s);
        fprintf(out, ",%zu\n", rec->n_cost_trace);
    }
    return pb_atomic_file_commit(&f, diag);
}

/* ---- JSON ---- */

static const char *stop_name(pb_bench_stop stop)
{
    return stop == PB_BENCH_STOP_FIRST ? "first" : stop == PB_BENCH_STOP_BUDGET ? "budget" : "auto";
}

static void json_summary(FILE *out, const char *name, const pb_bench_summary *sm)
{
    fprintf(out, "\"%s\": {\"n\": %zu, \"median\": ", name, sm->n);
    pb_json_write_number(out, sm->median);
    fputs(", \"q1\": ", out);
    pb_json_write_number(out, sm->q1);
    fputs(", \"q3\": ", out);
    pb_json_write_number(out, sm->q3);
    fputs(", \"ci95\": [", out);
    pb_json_write_number(out, sm->ci_lo);
    fputs(", ", out);
    pb_json_write_number(out, sm->ci_hi);
    fputs("], \"min\": ", out);
    pb_json_write_number(out, sm->min);
    fputs(", \"max\": ", out);
    pb_json_write_number(out, sm->max);
    fputc('}', out);
}

pb_status pb_bench_save_json(const pb_bench_script *s, const pb_bench_results *r, const char *path,
                             pb_diag *diag)
{
    const pb_bench_record **buf = malloc((r->n ? r->n : 1) * sizeof *buf);
    double *values = malloc((r->n ? r->n : 1) * sizeof *values);
    pb_atomic_file f;
    pb_status st = buf && values ? pb_atomic_file_open(&f, path, diag) : PB_ERR_NOMEM;
    if (st != PB_OK) {
        free(buf);
        free(values);
        return st;
    }
    FILE *out = f.fp;
    fputs("{\"benchmark\": {\"name\": ", out);
    pb_json_write_string(out, s->name);
    fputs(", \"script\": ", out);
    pb_json_write_string(out, s->path);
    fprintf(out, ", \"runs\": %u, \"time_limit_s\": ", s->runs);
    pb_json_write_number(out, s->time_limit_s);
    fputs(", \"memory_limit_mb\": ", out);
    pb_json_write_number(out, s->memory_limit_mb);
    fprintf(out, ", \"stop\": \"%s\", \"seed\": %llu, \"max_iterations\": %llu, \"planbench\": \"%s\"},\n",
            stop_name(s->stop), (unsigned long long)s->seed, (unsigned long long)s->max_iterations,
            pb_version());
    fputs(" \"problems\": [", out);
    for (size_t i = 0; i < s->n_problems; i++) {
        const pb_bench_problem *p = &s->problems[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        pb_json_write_string(out, p->name);
        const char *fields[] = {"map", p->map, "engine", p->engine, "start", p->start, "goal", p->goal};
        for (int k = 0; k < 8; k += 2) {
            fprintf(out, ", \"%s\": ", fields[k]);
            pb_json_write_string(out, fields[k + 1]);
        }
        fputs(", \"goal_radius\": ", out);
        pb_json_write_number(out, p->goal_radius > 0.0 ? p->goal_radius : NAN);
        fputs(", \"options\": {", out);
        for (size_t k = 0; k < p->n_options; k++) {
            fputs(k ? ", " : "", out);
            pb_json_write_string(out, p->options[k].name);
            fputs(": ", out);
            pb_json_write_string(out, p->options[k].value);
        }
        fputs("}}", out);
    }
    fputs("],\n \"planners\": [", out);
    for (size_t i = 0; i < s->n_planners; i++) {
        const pb_bench_planner *p = &s->planners[i];
        fputs(i ? ", {\"label\": " : "{\"label\": ", out);
        pb_json_write_string(out, p->label);
        fputs(", \"planner\": ", out);
        pb_json_write_string(out, p->planner);
        fputs(", \"params\": {", out);
        for (size_t k = 0; k < p->n_params; k++) {
            fputs(k ? ", " : "", out);
            pb_json_write_string(out, p->params[k].name);
            fputs(": ", out);
            pb_json_write_string(out, p->params[k].value);
        }
        fputs("}}", out);
    }
    fputs("],\n \"summaries\": [", out);
    bool first = true;
    for (uint32_t p = 0; p < s->n_problems; p++)
        for (uint32_t q = 0; q < s->n_planners; q++) {
            row_stats row;
            compute_row(r, p, q, &row, buf, values);
            fputs(first ? "\n  {\"problem\": " : ",\n  {\"problem\": ", out);
            first = false;
            pb_json_write_string(out, s->problems[p].name);
            fputs(", \"planner\": ", out);
            pb_json_write_string(out, s->planners[q].label);
            fprintf(out, ", \"runs\": %zu, \"solved\": %zu, \"failed\": %zu, \"success_rate\": ", row.n_runs,
                    row.n_solved, row.n_failed);
            pb_json_write_number(out, row.n_runs ? (double)row.n_solved / (double)row.n_runs : NAN);
            fputs(", ", out);
            json_summary(out, "time_to_first_s", &row.time);
            fputs(", ", out);
            json_summary(out, "cost", &row.cost);
            fputs(", ", out);
            json_summary(out, "iterations", &row.iterations);
            fputs(", ", out);
            json_summary(out, "nodes", &row.nodes);
            fputs(", ", out);
            json_summary(out, "n_feasible", &row.feasible);
            fputs(", ", out);
            json_summary(out, "n_visible", &row.visible);
            fputc('}', out);
        }
    fputs("],\n \"runs\": [", out);
    for (size_t i = 0; i < r->n; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        pb_bench_write_record_json(out, s, &r->records[i]);
    }
    fprintf(out, "],\n \"total_s\": ");
    pb_json_write_number(out, r->total_s);
    fputs("}\n", out);
    free(buf);
    free(values);
    return pb_atomic_file_commit(&f, diag);
}

/* ---- OMPL benchmark logs ---- */

/* OMPL's status enum: 0 unknown, 1 invalid start, 2 invalid goal, 4 timeout, 5 approximate,
 * 6 exact, 7 crash. */
static int ompl_status(const pb_bench_record *rec)
{
    switch (rec->status) {
    case PB_BENCH_RUN_OK:
        switch (rec->outcome) {
        case PB_OUTCOME_EXACT:
            return 6;
        case PB_OUTCOME_APPROXIMATE:
            return 5;
        case PB_OUTCOME_INVALID_START:
            return 1;
        case PB_OUTCOME_INVALID_GOAL:
            return 2;
        default:
            return 4;
        }
    case PB_BENCH_RUN_KILLED_TIME:
        return 4;
    case PB_BENCH_RUN_CRASHED:
    case PB_BENCH_RUN_KILLED_MEMORY:
        return 7;
    default:
        return 0;
    }
}

/* A value for a run line: empty when absent (the reader stores NULL). */
static void ompl_value(FILE *out, bool present, double v)
{
    if (present && isfinite(v))
        fprintf(out, "%.17g; ", v);
    else
        fputs("; ", out);
}

static void one_word(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    for (; *src && n + 1 < size; src++)
        dst[n++] = (*src == ' ' || *src == '\t' || *src == '|' || *src == ';') ? '_' : *src;
    dst[n] = '\0';
}

static pb_status write_ompl_experiment(const pb_bench_script *s, const pb_bench_results *r, uint32_t problem,
                                       const char *path, const pb_bench_record **buf, pb_diag *diag)
{
    pb_atomic_file f;
    pb_status st = pb_atomic_file_open(&f, path, diag);
    if (st != PB_OK)
        return st;
    FILE *out = f.fp;
    const pb_bench_problem *pr = &s->problems[problem];
    char host[256] = "localhost", name[300], date[64];
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    char host_word[256];
    one_word(host_word, sizeof host_word, host);
    const time_t now = time(NULL);
    struct tm tm_now;
    localtime_r(&now, &tm_now);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &tm_now);
    snprintf(name, sizeof name, "%s_%s", s->name, pr->name);
    fprintf(out, "planbench version %s\nExperiment %s\n", pb_version(), name);
    fprintf(out, "Running on %s\nStarting at %s\n", host_word, date);
    fputs("<<<|\n", out);
    fprintf(out, "planbench benchmark script %s, problem [problem.%s]\n", s->path, pr->name);
    fprintf(out, "map = %s\nengine = %s\nstart = %s\ngoal = %s\n", pr->map ? pr->map : "(none)",
            pr->engine ? pr->engine : "(from the map)", pr->start ? pr->start : "(default)",
            pr->goal ? pr->goal : "(default)");
    if (pr->goal_radius > 0.0)
        fprintf(out, "goal_radius = %.17g\n", pr->goal_radius);
    for (size_t k = 0; k < pr->n_options; k++)
        fprintf(out, "option.%s = %s\n", pr->options[k].name, pr->options[k].value);
    fprintf(out, "stop = %s\n|>>>\n", stop_name(s->stop));
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    fprintf(out, "<<<|\nonline CPUs: %ld\n", cpus);
    FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
    if (cpuinfo) {
        char line[512];
        while (fgets(line, sizeof line, cpuinfo))
            if (strncmp(line, "model name", 10) == 0) {
                if (strncmp(line, "<<<|", 4) != 0 && strncmp(line, "|>>>", 4) != 0)
                    fputs(line, out);
                break;
            }
        fclose(cpuinfo);
    }
    fputs("|>>>\n", out);
    fprintf(out, "%llu is the random seed\n", (unsigned long long)s->seed);
    fprintf(out, "%.17g seconds per run\n%.17g MB per run\n%u runs per planner\n", s->time_limit_s,
            s->memory_limit_mb, s->runs);
    fprintf(out, "%.17g seconds spent to collect the data\n", r->total_s);
    fputs("1 enum type\nstatus|Unknown status|Invalid start|Invalid goal|Unrecognized goal type|Timeout|"
          "Approximate solution|Exact solution|Crash|Unknown status\n",
          out);
    fprintf(out, "%zu planners\n", s->n_planners);
    for (uint32_t q = 0; q < s->n_planners; q++) {
        const pb_bench_planner *pl = &s->planners[q];
        char label[128];
        one_word(label, sizeof label, pl->label);
        fprintf(out, "planbench_%s\n", label);
        /* every parameter, defaults overridden by the script, sorted by name as OMPL does */
        const pb_planner_impl *impl = pb_planner_registry_find(pl->planner);
        size_t n_defs = 0;
        const pb_param_def *defs = impl ? pb_planner_impl_params(impl, &n_defs) : NULL;
        fprintf(out, "%zu common properties\n", n_defs + 1);
        const char *printed = "";
        for (size_t done = 0; done <= n_defs; done++) {
            /* pick the smallest name greater than the last printed (including "planner") */
            const char *pick = NULL;
            if (strcmp("planner", printed) > 0)
                pick = "planner";
            for (size_t k = 0; k < n_defs; k++)
                if (strcmp(defs[k].name, printed) > 0 && (!pick || strcmp(defs[k].name, pick) < 0))
                    pick = defs[k].name;
            if (!pick)
                break;
            printed = pick;
            if (strcmp(pick, "planner") == 0) {
                fprintf(out, "planner = %s\n", pl->planner);
                continue;
            }
            const char *value = NULL;
            for (size_t k = 0; k < pl->n_params; k++)
                if (strcmp(pl->params[k].name, pick) == 0)
                    value = pl->params[k].value;
            if (value) {
                fprintf(out, "%s = %s\n", pick, value);
            } else {
                for (size_t k = 0; k < n_defs; k++)
                    if (defs[k].name == pick)
                        fprintf(out, "%s = %.17g\n", pick, defs[k].default_value);
            }
        }
        /* run properties, sorted by name */
        fputs("11 properties for each run\n"
              "graph states INTEGER\n"
              "iterations INTEGER\n"
              "memory REAL\n"
              "motion checks INTEGER\n"
              "motion pixels INTEGER\n"
              "solution length REAL\n"
              "solved BOOLEAN\n"
              "status ENUM\n"
              "time REAL\n"
              "time to first solution REAL\n"
              "validity checks INTEGER\n",
              out);
        const size_t n = pb_bench_select(r, problem, q, false, buf);
        fprintf(out, "%zu runs\n", n);
        for (size_t i = 0; i < n; i++) {
            const pb_bench_record *rec = buf[i];
            const bool ok = rec->status == PB_BENCH_RUN_OK;
            ompl_value(out, ok, (double)rec->nodes);
            ompl_value(out, ok, (double)rec->iterations);
            ompl_value(out, true, rec->memory_mb);
            ompl_value(out, ok, (double)rec->n_visible);
            ompl_value(out, ok && rec->n_pixels > 0, (double)rec->n_pixels);
            ompl_value(out, ok && rec->solved, rec->cost);
            fprintf(out, "%d; %d; ", ok && rec->solved ? 1 : 0, ompl_status(rec));
            ompl_value(out, true, rec->time_s);
            ompl_value(out, ok && rec->time_to_first_s >= 0.0, rec->time_to_first_s);
            ompl_value(out, ok, (double)rec->n_feasible);
            fputc('\n', out);
        }
        const bool anytime = impl && pb_planner_impl_anytime(impl);
        if (anytime && n > 0) {
            /* progress: "best cost" then "time" (alphabetical), strictly increasing times */
            fprintf(out, "2 progress properties for each run\nbest cost REAL\ntime REAL\n%zu runs\n", n);
            for (size_t i = 0; i < n; i++) {
                const pb_bench_record *rec = buf[i];
                double last_time = -1.0;
                for (size_t k = 0; k < rec->n_cost_trace; k++) {
                    const pb_cost_sample *c = &rec->cost_trace[k];
                    if (!(c->time_s > last_time))
                        continue;
                    last_time = c->time_s;
                    if (isfinite(c->cost))
                        fprintf(out, "%.17g,", c->cost);
                    else
                        fputc(',', out);
                    fprintf(out, "%.17g,;", c->time_s);
                }
                fputc('\n', out);
            }
        }
        fputs(".\n", out);
    }
    return pb_atomic_file_commit(&f, diag);
}

pb_status pb_bench_save_ompl_log(const pb_bench_script *s, const pb_bench_results *r, const char *path,
                                 pb_diag *diag)
{
    const pb_bench_record **buf = malloc((r->n ? r->n : 1) * sizeof *buf);
    if (!buf)
        return PB_ERR_NOMEM;
    pb_status st = PB_OK;
    for (uint32_t p = 0; p < s->n_problems && st == PB_OK; p++) {
        char file[4400];
        if (s->n_problems == 1) {
            snprintf(file, sizeof file, "%s", path);
        } else {
            const char *slash = strrchr(path, '/');
            const char *dot = strrchr(path, '.');
            const int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);
            snprintf(file, sizeof file, "%.*s-%s%s", stem, path, s->problems[p].name, path + stem);
        }
        st = write_ompl_experiment(s, r, p, file, buf, diag);
    }
    free(buf);
    return st;
}
