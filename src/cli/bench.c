/* `planbench bench FILE [options]`: run a benchmark script (bench/README.md) and print the
 * Markdown table; optionally CSV, JSON, OMPL logs and plots. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --merge found runs missing. */
enum { PB_EXIT_MISSING = 3 };

static const char bench_help[] =
    "Usage: planbench bench SCRIPT.ini [options]\n"
    "Usage: planbench bench SCRIPT.ini --merge [JOURNAL...] [options]\n"
    "Usage: planbench bench SCRIPT.ini --print-sbatch N [options]\n"
    "  -j N, --jobs N         parallel runs (default: the CPUs this process may use)\n"
    "  --runs N               runs per problem and planner (overrides the script)\n"
    "  --time-limit SECONDS   per run (overrides the script)\n"
    "  --out DIR              where runs.jsonl goes (default bench/out/<name>)\n"
    "  --resume               keep the runs already in DIR/runs.jsonl, do the rest\n"
    "  --shard I/N            run only shard I of N (0-based) into DIR/shard-I-of-N/runs.jsonl,\n"
    "                         resuming it; I = auto: from SLURM_ARRAY_TASK_ID, SLURM_PROCID,\n"
    "                         OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or PARALLEL_SEQ - 1\n"
    "  --merge [JOURNAL...]   run nothing: merge the shards' journals (default DIR/shard-*/runs.jsonl)\n"
    "                         into DIR/runs.jsonl and the outputs; exit 3 naming missing shards\n"
    "  --allow-missing        with --merge: write the outputs even when runs are missing\n"
    "  --print-sbatch N       print a Slurm script submitting N shards as a job array (cpus per\n"
    "                         task = -j, default 1) and the merge job after them\n"
    "  --csv FILE             one row per run\n"
    "  --json FILE            settings, summaries and every run\n"
    "  --ompl-log FILE        OMPL benchmark log (one per problem: FILE-<problem>.log when several)\n"
    "  --plot DIR             figures as PNG, SVG and PDF (DIR and missing parents are created)\n"
    "  -q, --quiet            no progress on stderr\n"
    "Every output is checked before the first run. Ctrl-C (SIGINT) or SIGTERM ends the runs in\n"
    "flight as a spent budget does (their journal lines say \"interrupted\": true), starts no new\n"
    "one, writes the outputs for the runs done and exits 128 + the signal (130 for Ctrl-C);\n"
    "--resume then runs the interrupted runs and the rest. A second Ctrl-C quits at once.\n"
    "Exit status: 0 done (whatever the runs found), 2 bad input or an output that failed,\n"
    "3 --merge found runs missing, 130 (143) interrupted by SIGINT (SIGTERM).\n";

static bool take(int argc, char **argv, int *i, const char *name, const char **value)
{
    const size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return false;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return true;
    }
    if (argv[*i][n] != '\0')
        return false;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return true;
}

/* "I/N" or "auto/N" into options (auto: the index is read from the environment later). */
static bool parse_shard(const char *v, pb_bench_config *options, bool *shard_auto)
{
    const char *slash = strchr(v, '/');
    if (!slash)
        return false;
    char *end = NULL;
    *shard_auto = strncmp(v, "auto/", 5) == 0;
    unsigned long index = 0;
    if (!*shard_auto) {
        if (slash == v || v[0] < '0' || v[0] > '9')
            return false;
        index = strtoul(v, &end, 10);
        if (end != slash)
            return false;
    }
    if (slash[1] < '0' || slash[1] > '9')
        return false;
    const unsigned long count = strtoul(slash + 1, &end, 10);
    if (*end || count < 1 || count > 100000 || index >= count)
        return false;
    options->shard_count = (uint32_t)count;
    options->shard_index = (uint32_t)index;
    return true;
}

/* A shell script that submits the shards as a job array and the merge after them. */
static void print_sbatch(const char *script_path, const pb_bench_script *s, const pb_bench_config *o,
                         uint32_t n_shards, const char *csv, const char *json, const char *ompl,
                         const char *plot)
{
    const int cpus = o->jobs > 0 ? o->jobs : 1;
    const uint32_t runs = o->runs ? o->runs : s->runs;
    const double limit = o->time_limit_s > 0.0 ? o->time_limit_s : s->time_limit_s;
    const double grace = limit * 0.5 > 1.0 ? limit * 0.5 : 1.0;
    const double total = (double)s->n_problems * (double)s->n_planners * runs;
    const double per_task = total / n_shards / cpus;
    /* worst case every run hits the limit, plus start-up; at least 5 minutes */
    double seconds = (per_task + 1.0) * (limit + grace) * 1.2 + 120.0;
    if (seconds < 300.0)
        seconds = 300.0;
    const long t = (long)seconds;
    const double mem = s->memory_limit_mb > 0.0 ? s->memory_limit_mb + 256.0 : 2048.0;
    char extra[4096] = "";
    size_t len = 0;
    if (o->out_dir)
        len += (size_t)snprintf(extra + len, sizeof extra - len, " --out '%s'", o->out_dir);
    if (o->runs)
        len += (size_t)snprintf(extra + len, sizeof extra - len, " --runs %u", (unsigned)o->runs);
    if (o->time_limit_s > 0.0)
        snprintf(extra + len, sizeof extra - len, " --time-limit %.17g", o->time_limit_s);
    printf("#!/bin/sh\n"
           "# planbench campaign: %.0f runs of %s in %u shards (job array), then the merge.\n"
           "# Submit with: sh THIS_FILE.  Re-submit missing shards only: sbatch --array=1,3 shard.sbatch\n"
           "set -e\n"
           "cat > shard.sbatch <<'EOF'\n"
           "#!/bin/sh\n"
           "#SBATCH --job-name=pb-%s\n"
           "#SBATCH --array=0-%u\n"
           "#SBATCH --cpus-per-task=%d\n"
           "#SBATCH --mem-per-cpu=%.0fM\n"
           "#SBATCH --time=%ld:%02ld:%02ld\n"
           "#SBATCH --requeue\n"
           "#SBATCH --output=pb-%s-%%a.out\n"
           "exec planbench bench '%s' --shard $SLURM_ARRAY_TASK_ID/%u -j %d -q%s\n"
           "EOF\n"
           "jid=$(sbatch --parsable shard.sbatch)\n"
           "sbatch --parsable --job-name=pb-%s-merge --dependency=afterany:$jid --output=pb-%s-merge.out \\\n"
           "  --wrap \"planbench bench '%s' --merge -q%s",
           total, s->name, (unsigned)n_shards, s->name, (unsigned)n_shards - 1, cpus, mem / cpus, t / 3600,
           t / 60 % 60, t % 60, s->name, script_path, (unsigned)n_shards, cpus, extra, s->name, s->name,
           script_path, extra);
    if (csv)
        printf(" --csv '%s'", csv);
    if (json)
        printf(" --json '%s'", json);
    if (ompl)
        printf(" --ompl-log '%s'", ompl);
    if (plot)
        printf(" --plot '%s'", plot);
    printf("\"\n");
}

static int bench_main(int argc, char **argv, const char **journals)
{
    const char *script_path = NULL, *csv = NULL, *json = NULL, *ompl = NULL, *plot = NULL, *v = NULL;
    size_t n_journals = 0;
    bool merge = false, shard_auto = false;
    uint32_t sbatch_shards = 0;
    pb_bench_config options = pb_bench_config_default();
    options.progress = stderr;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *name = arg;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(bench_help, stdout);
            return 0;
        }
        if (strcmp(arg, "--resume") == 0) {
            options.resume = true;
            continue;
        }
        if (strcmp(arg, "--merge") == 0) {
            merge = true;
            continue;
        }
        if (strcmp(arg, "--allow-missing") == 0) {
            options.allow_missing = true;
            continue;
        }
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            options.progress = NULL;
            continue;
        }
        bool matched = true;
        uint64_t u;
        double d;
        if (take(argc, argv, &i, "-j", &v) || take(argc, argv, &i, "--jobs", &v)) {
            if (!v || !cli_parse_u64(name, v, &u) || u < 1 || u > 1024) {
                cli_error("%s: expected a number of parallel runs in [1, 1024]", name);
                return PB_EXIT_BAD_INPUT;
            }
            options.jobs = (int)u;
        } else if (take(argc, argv, &i, "--runs", &v)) {
            if (!v || !cli_parse_u64(name, v, &u) || u < 1 || u > 1000000) {
                cli_error("--runs: expected a whole number in [1, 1000000]");
                return PB_EXIT_BAD_INPUT;
            }
            options.runs = (uint32_t)u;
        } else if (take(argc, argv, &i, "--time-limit", &v)) {
            if (!v || !cli_parse_double(name, v, &d) || !(d > 0.0)) {
                cli_error("--time-limit: expected seconds > 0");
                return PB_EXIT_BAD_INPUT;
            }
            options.time_limit_s = d;
        } else if (take(argc, argv, &i, "--shard", &v)) {
            if (!v || !parse_shard(v, &options, &shard_auto)) {
                cli_error("--shard: expected I/N with 0 <= I < N <= 100000, or auto/N (got '%s')",
                          v ? v : "");
                return PB_EXIT_BAD_INPUT;
            }
        } else if (take(argc, argv, &i, "--print-sbatch", &v)) {
            if (!v || !cli_parse_u64(name, v, &u) || u < 1 || u > 100000) {
                cli_error("--print-sbatch: expected a number of shards in [1, 100000]");
                return PB_EXIT_BAD_INPUT;
            }
            sbatch_shards = (uint32_t)u;
        } else if (take(argc, argv, &i, "--out", &v)) {
            options.out_dir = v;
        } else if (take(argc, argv, &i, "--csv", &v)) {
            csv = v;
        } else if (take(argc, argv, &i, "--json", &v)) {
            json = v;
        } else if (take(argc, argv, &i, "--ompl-log", &v)) {
            ompl = v;
        } else if (take(argc, argv, &i, "--plot", &v)) {
            plot = v;
        } else {
            matched = false;
        }
        if (matched) {
            if (!v) {
                cli_error("%s needs a value", name);
                return PB_EXIT_BAD_INPUT;
            }
            continue;
        }
        if (arg[0] == '-') {
            cli_error("bench: unknown option '%s'", arg);
            fputs(bench_help, stderr);
            return PB_EXIT_BAD_INPUT;
        }
        if (script_path && merge) {
            journals[n_journals++] = arg;
            continue;
        }
        if (script_path) {
            cli_error("bench: one script at a time (got '%s' and '%s')", script_path, arg);
            return PB_EXIT_BAD_INPUT;
        }
        script_path = arg;
    }
    if (!script_path) {
        cli_error("bench: no script given, as in 'planbench bench bench/maps2d.ini'");
        fputs(bench_help, stderr);
        return PB_EXIT_BAD_INPUT;
    }
    if (plot && !pb_bench_has_plots()) {
        cli_error("--plot: %s", pb_bench_plots_missing());
        return PB_EXIT_BAD_INPUT;
    }

    pb_diag diag = {0};
    pb_bench_script *script = NULL;
    if (pb_bench_script_load(&script, script_path, &diag) != PB_OK ||
        pb_bench_script_check(script, &diag) != PB_OK) {
        cli_diag(&diag);
        pb_bench_script_destroy(script);
        return PB_EXIT_BAD_INPUT;
    }
    if (sbatch_shards) {
        print_sbatch(script_path, script, &options, sbatch_shards, csv, json, ompl, plot);
        pb_bench_script_destroy(script);
        return 0;
    }
    if (shard_auto) {
        const int index = pb_bench_shard_from_env(options.shard_count);
        if (index < 0) {
            cli_error("--shard auto/%u: no shard index below %u in SLURM_ARRAY_TASK_ID, SLURM_PROCID, "
                      "OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or PARALLEL_SEQ",
                      (unsigned)options.shard_count, (unsigned)options.shard_count);
            pb_bench_script_destroy(script);
            return PB_EXIT_BAD_INPUT;
        }
        options.shard_index = (uint32_t)index;
    }
    /* every output is checked before the first run, not after hours of them */
    if ((csv && !cli_output_writable(csv, "--csv")) || (json && !cli_output_writable(json, "--json")) ||
        (ompl && !cli_output_writable(ompl, "--ompl-log"))) {
        pb_bench_script_destroy(script);
        return PB_EXIT_BAD_INPUT;
    }
    if (plot && pb_bench_make_output_dir(plot, &diag) != PB_OK) {
        cli_error("--plot %s: %s", plot, diag.message);
        pb_bench_script_destroy(script);
        return PB_EXIT_BAD_INPUT;
    }
    pb_bench_results *results = NULL;
    int rc = 0;
    if (merge) {
        const pb_status st = pb_bench_merge(&results, script, &options, journals, n_journals, &diag);
        if (st != PB_OK) {
            cli_diag(&diag);
            /* with --allow-missing the outputs are written and the message is a warning */
            rc = results ? 0 : st == PB_ERR_NOT_FOUND ? PB_EXIT_MISSING : PB_EXIT_BAD_INPUT;
            if (!results) {
                pb_bench_script_destroy(script);
                return rc;
            }
        }
    } else {
        /* Ctrl-C: the runs in flight end as at a spent budget, the outputs hold the runs done */
        options.cancel = &cli_interrupt_flag;
        cli_catch_interrupts(true);
        if (pb_bench_run(&results, script, &options, &diag) != PB_OK) {
            cli_catch_interrupts(false);
            cli_diag(&diag);
            pb_bench_script_destroy(script);
            return PB_EXIT_BAD_INPUT;
        }
    }
    pb_bench_write_table(stdout, script, results);
    fflush(stdout);
    if (options.progress && !merge) {
        if (results->n_resumed)
            fprintf(stderr, "planbench bench: %zu runs resumed from an earlier invocation\n",
                    results->n_resumed);
        fprintf(stderr, "planbench bench: %zu runs in %.2f s", results->n - results->n_resumed,
                results->session_s);
        if (results->n_resumed)
            fprintf(stderr, " (%.2f s over every session)", results->total_s);
        if (isfinite(results->overhead_s))
            fprintf(stderr, "; per-run set-up (fork, engine load, planner) %.2f ms",
                    results->overhead_s * 1e3);
        fputc('\n', stderr);
    }
    if (csv && pb_bench_save_csv(script, results, csv, &diag) != PB_OK) {
        cli_diag(&diag);
        rc = PB_EXIT_BAD_INPUT;
    }
    if (json && pb_bench_save_json(script, results, json, &diag) != PB_OK) {
        cli_diag(&diag);
        rc = PB_EXIT_BAD_INPUT;
    }
    if (ompl && pb_bench_save_ompl_log(script, results, ompl, &diag) != PB_OK) {
        cli_diag(&diag);
        rc = PB_EXIT_BAD_INPUT;
    }
    if (plot && pb_bench_save_plots(script, results, plot, &diag) != PB_OK) {
        cli_diag(&diag);
        rc = PB_EXIT_BAD_INPUT;
    }
    if (results->interrupted) {
        fprintf(stderr,
                "planbench bench: interrupted: %zu runs done, %zu ended early (marked \"interrupted\" in the "
                "journal); --resume with the same --out runs those and the rest\n",
                results->n, results->n_interrupted);
        rc = 128 + (cli_interrupt_signal ? (int)cli_interrupt_signal : SIGINT);
    }
    cli_catch_interrupts(false);
    pb_bench_results_destroy(results);
    pb_bench_script_destroy(script);
    return rc;
}

int cli_bench(int argc, char **argv)
{
    const char **journals = calloc((size_t)argc + 1, sizeof *journals);
    if (!journals) {
        cli_error("bench: out of memory");
        return PB_EXIT_BAD_INPUT;
    }
    const int rc = bench_main(argc, argv, journals);
    free(journals);
    return rc;
}
