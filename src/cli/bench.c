/* `planbench bench FILE [options]`: run a benchmark script (bench/README.md) and print the
 * Markdown table; optionally CSV, JSON, OMPL logs and plots. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char bench_help[] =
    "Usage: planbench bench SCRIPT.ini [options]\n"
    "  -j N, --jobs N         parallel runs (default: the number of CPUs)\n"
    "  --runs N               runs per problem and planner (overrides the script)\n"
    "  --time-limit SECONDS   per run (overrides the script)\n"
    "  --out DIR              where runs.jsonl goes (default bench/out/<name>)\n"
    "  --resume               keep the runs already in DIR/runs.jsonl, do the rest\n"
    "  --csv FILE             one row per run\n"
    "  --json FILE            settings, summaries and every run\n"
    "  --ompl-log FILE        OMPL benchmark log (one per problem: FILE-<problem>.log when several)\n"
    "  --plot DIR             PNG figures\n"
    "  -q, --quiet            no progress on stderr\n"
    "Exit status: 0 done (whatever the runs found), 2 bad input or an output that failed.\n";

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

int cli_bench(int argc, char **argv)
{
    const char *script_path = NULL, *csv = NULL, *json = NULL, *ompl = NULL, *plot = NULL, *v = NULL;
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
        cli_error("--plot: this build has no plotting (it was configured without cairo)");
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
    pb_bench_results *results = NULL;
    if (pb_bench_run(&results, script, &options, &diag) != PB_OK) {
        cli_diag(&diag);
        pb_bench_script_destroy(script);
        return PB_EXIT_BAD_INPUT;
    }
    pb_bench_write_table(stdout, script, results);
    fflush(stdout);
    int rc = 0;
    if (options.progress) {
        if (results->n_resumed)
            fprintf(stderr, "planbench bench: %zu runs resumed from an earlier invocation\n",
                    results->n_resumed);
        fprintf(stderr,
                "planbench bench: %zu runs in %.2f s; per-run set-up (fork, engine load, planner) %.2f ms\n",
                results->n - results->n_resumed, results->total_s, results->overhead_s * 1e3);
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
    pb_bench_results_destroy(results);
    pb_bench_script_destroy(script);
    return rc;
}
