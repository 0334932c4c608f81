/* planbench: benchmarks. Run several planners on the same problems many times, each run in
 * its own process, and report statistics, tables, CSV/JSON, OMPL benchmark logs and plots.
 *
 *     pb_bench_script *script;
 *     pb_bench_script_load(&script, "bench/maps2d.ini", &diag);   // syntax, names, numbers
 *     pb_bench_script_check(script, &diag);                       // loads every engine once
 *     pb_bench_config options = pb_bench_config_default();
 *     pb_bench_results *results;
 *     pb_bench_run(&results, script, &options, &diag);
 *     pb_bench_write_table(stdout, script, results);
 *
 * The script format (INI) is documented in bench/README.md. */
#ifndef PLANBENCH_BENCH_H
#define PLANBENCH_BENCH_H

#include "planner.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- scripts ---------------------------------------------------------------------------- */

/** One "NAME = VALUE" of a script, with the line it came from. Strings owned by the script. */
typedef struct pb_bench_kv {
    char *name;
    char *value;
    int line; /**< 1-based line in the script */
} pb_bench_kv;

/** A `[problem.NAME]` section. Strings owned by the script; NULL when the key was absent. */
typedef struct pb_bench_problem {
    char *name;           /**< the NAME of the section */
    char *map;            /**< map file, resolved against the script's folder */
    char *engine;         /**< registered engine name; NULL: chosen from the map file */
    char *start;          /**< "X,Y,..." text; NULL: the engine's default */
    char *goal;           /**< likewise */
    double goal_radius;   /**< > 0; 0 when absent (then each planner's step size) */
    pb_bench_kv *options; /**< engine options (`option.NAME = VALUE`) */
    size_t n_options;
    int line;                                         /**< line of the section header */
    int map_line, engine_line, start_line, goal_line; /**< lines of those keys (0: absent) */
} pb_bench_problem;

/** A `[planner.NAME]` section. */
typedef struct pb_bench_planner {
    char *name;          /**< the NAME of the section */
    char *planner;       /**< registered planner name (`planner =`, default: the section NAME) */
    char *label;         /**< shown in tables and plots (`label =`, default: the section NAME) */
    pb_bench_kv *params; /**< planner parameters by name, as text */
    size_t n_params;
    int line, planner_line;
} pb_bench_planner;

/** When a run stops. */
typedef enum pb_bench_stop {
    PB_BENCH_STOP_AUTO,   /**< first solution, except for anytime planners: the whole budget */
    PB_BENCH_STOP_FIRST,  /**< at the first solution */
    PB_BENCH_STOP_BUDGET, /**< use the whole time limit */
    PB_BENCH_STOP_COUNT
} pb_bench_stop;

/** A parsed benchmark script. Made by pb_bench_script_load/parse, owned by the caller. */
typedef struct pb_bench_script {
    char *path;             /**< the script file (for messages) */
    char *name;             /**< one word: letters, digits, '-', '_' */
    uint32_t runs;          /**< runs per problem and planner, >= 1 (default 10) */
    double time_limit_s;    /**< per run, seconds, > 0 (default 10) */
    double memory_limit_mb; /**< per run, MiB of address space; 0 = none (default 1024) */
    pb_bench_stop stop;
    uint64_t seed;           /**< run i uses seed + i (default 1) */
    uint64_t max_iterations; /**< per run; 0 = none */
    pb_bench_problem *problems;
    size_t n_problems;
    pb_bench_planner *planners;
    size_t n_planners;
} pb_bench_script;

/** Read and parse a script file (see pb_bench_script_parse). Relative map paths are resolved
 * against the script's folder. */
PB_API pb_status pb_bench_script_load(pb_bench_script **out, const char *path, pb_diag *diag);

/** Parse script text (`size` bytes, NUL bytes are an error). `name` is used in messages and
 * to resolve relative map paths (its folder). Checks the syntax, that every section and key
 * is known, numbers parse and are in range, labels are unique, and at least one problem and
 * one planner are given. On failure `*out` is NULL and `diag` names the file, the line and
 * the key. Does not open maps: pb_bench_script_check() does. */
PB_API pb_status pb_bench_script_parse(pb_bench_script **out, const char *text, size_t size, const char *name,
                                       pb_diag *diag);

/** Check everything that needs the library: loads each problem's engine once (the map
 * exists and is valid, the options are known), parses start and goal against the engine's
 * dimension (or its defaults), and creates each planner on it with every parameter set.
 * `diag` names the script, the line and the key at fault. */
PB_API pb_status pb_bench_script_check(const pb_bench_script *script, pb_diag *diag);

/** Free a script; NULL is accepted. */
PB_API void pb_bench_script_destroy(pb_bench_script *script);

/* ---- statistics ------------------------------------------------------------------------- */

/** The p-quantile (0 <= p <= 1) of `n` >= 1 values sorted ascending, by linear
 * interpolation between order statistics (Hyndman & Fan type 7, the default of R and
 * numpy): h = (n - 1) p, q = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]). */
PB_API double pb_bench_quantile(const double *sorted, size_t n, double p);

/** A distribution-free confidence interval for the median of `n` values by the binomial
 * order-statistic method: the interval [x_(l), x_(n+1-l)] (1-based order statistics) with the
 * largest l such that P(B <= l - 1) <= (1 - confidence) / 2 for B ~ Binomial(n, 1/2); its
 * coverage is at least `confidence`. Returns false (and leaves the outputs alone) when n is
 * too small for any such interval (n < 6 at 95%). `*lo` and `*hi` get 0-based indices into
 * the sorted values. */
PB_API bool pb_bench_median_ci(size_t n, double confidence, size_t *lo, size_t *hi);

/** Summary of one sample: the median, quartiles (type 7) and a 95% interval for the median. */
typedef struct pb_bench_summary {
    size_t n;              /**< number of values (0: everything else is NaN) */
    double median, q1, q3; /**< IQR = q3 - q1 */
    double ci_lo, ci_hi;   /**< 95% interval for the median; NaN when n < 6 */
    double min, max;
} pb_bench_summary;

/** Summarise `n` values (any order; `values` is sorted in place). NaNs are not allowed. */
PB_API pb_bench_summary pb_bench_summarise(double *values, size_t n);

/* ---- running ---------------------------------------------------------------------------- */

/** How a run ended, from the runner's point of view (the planner's own outcome is separate). */
typedef enum pb_bench_status {
    PB_BENCH_RUN_OK,            /**< the child reported a result */
    PB_BENCH_RUN_CRASHED,       /**< the child died of a signal (status text names it) */
    PB_BENCH_RUN_KILLED_TIME,   /**< killed after time limit + grace */
    PB_BENCH_RUN_KILLED_MEMORY, /**< ran out of memory under the limit */
    PB_BENCH_RUN_ERROR,         /**< the child could not set the run up (message in status) */
    PB_BENCH_RUN_STATUS_COUNT
} pb_bench_status;

/** One run. Times in seconds, memory in MiB. */
typedef struct pb_bench_record {
    uint32_t problem, planner, run; /**< indices into the script; run 0..runs-1 */
    uint64_t seed;
    pb_bench_status status;
    char status_text[96];   /**< "ok", "crashed: SIGSEGV", "killed: time", "killed: memory", ... */
    pb_outcome outcome;     /**< meaningful when status is OK */
    bool solved;            /**< an exact solution was found */
    double time_s;          /**< planning time (wall time of the child when it did not report) */
    double time_to_first_s; /**< < 0 when no solution */
    double cost;            /**< INFINITY when no path */
    double cpu_s;           /**< CPU time of the planning thread (0 when the child did not report) */
    uint64_t iterations, nodes, n_feasible, n_visible, n_edge_states, n_pixels;
    double memory_mb;           /**< peak resident set of the child process */
    double setup_s;             /**< fork to ready: process start, engine load, planner creation */
    pb_edge_check edge_check;   /**< how the engine checked edges (meaningful when status is OK) */
    double edge_resolution;     /**< sampled: the spacing; certified: the clearance floor (0: none) */
    pb_cost_sample *cost_trace; /**< owned by the results */
    size_t n_cost_trace;
    double session_start;     /**< Unix time (s) at which the invocation that ran it started */
    double session_elapsed_s; /**< from that start to the end of this run: the journal's sessions
                                   give the whole benchmark's wall time after --resume */
    bool interrupted;         /**< ended early by the benchmark's cancel flag (Ctrl-C): its journal line says
                                   so, it is left out of the results, and --resume runs it again */
    /** The run's record for `planbench replay` as JSON object members, `, "record": {...}`
     * (pb_planner_write_record_json()); NULL when the run did not finish. Owned by the results. */
    char *record;
} pb_bench_record;

/** All runs of a benchmark, in the order they finished (resumed runs first). */
typedef struct pb_bench_results {
    pb_bench_record *records; /**< owned */
    size_t n;
    size_t capacity;
    size_t n_resumed;     /**< records read back from an earlier, interrupted benchmark */
    double total_s;       /**< wall time of the whole benchmark: this invocation's and, for each
                               earlier invocation in the journal, its start to its last run's end
                               (summed over the shards after a merge) */
    double session_s;     /**< wall time of this invocation */
    double overhead_s;    /**< mean per-run cost of fork + engine load + planner creation, over
                               every successful run (resumed ones too); NaN when there is none */
    bool interrupted;     /**< the cancel flag ended the benchmark before every run was done */
    size_t n_interrupted; /**< runs in flight then: in the journal as interrupted, not in `records` */
} pb_bench_results;

/** Run options. Start from pb_bench_config_default(). Strings are borrowed. */
typedef struct pb_bench_config {
    int jobs;             /**< parallel runs; <= 0: the number of online CPUs */
    const char *out_dir;  /**< where runs.jsonl goes; NULL: bench/out/<name> under the cwd */
    bool resume;          /**< keep runs already in runs.jsonl and do only the rest */
    uint32_t runs;        /**< > 0 overrides the script's runs */
    double time_limit_s;  /**< > 0 overrides the script's time limit */
    FILE *progress;       /**< progress (bar when a terminal, lines otherwise); NULL: none */
    uint32_t shard_count; /**< > 0: run only shard `shard_index` of this many (round robin over
                               (problem, planner, run)) into <out_dir>/shard-I-of-N/runs.jsonl,
                               resuming it; a second live copy of a shard is refused (a lock) */
    uint32_t shard_index; /**< < shard_count */
    bool allow_missing;   /**< pb_bench_merge: write the outputs even when runs are missing */
    /** When not NULL and set (by a SIGINT handler, say), pb_bench_run starts no new run and
     * ends those in flight as a spent budget does (SIGTERM to each run, which stops its solve
     * at the next check); their journal lines say `"interrupted": true`. Borrowed. */
    const pb_atomic_flag *cancel;
} pb_bench_config;

PB_API pb_bench_config pb_bench_config_default(void);

/** Run the benchmark: every (problem, planner, run) not already recorded, each in a forked
 * child process with the script's limits (RLIMIT_AS for memory; killed at time limit +
 * max(1 s, 50%)). Each finished run is appended to <out_dir>/runs.jsonl and fsync'd. A run
 * that crashes or exceeds a limit is recorded as such, and the benchmark goes on. Applies
 * the option overrides to `script`. On success `*out` holds every run (owned by the caller,
 * pb_bench_results_destroy). Fails only when the output folder cannot be written. After the
 * cancel flag, `*out` holds the runs that were done and says it was interrupted. */
PB_API pb_status pb_bench_run(pb_bench_results **out, pb_bench_script *script, const pb_bench_config *options,
                              pb_diag *diag);

/** Merge the journals of a sharded benchmark: `journals` (n_journals paths, borrowed), or
 * when n_journals is 0 every <out_dir>/shard-*-of-N/runs.jsonl. Every journal's header must
 * match `script` and the options (shard aside) and all must have the same shard count;
 * duplicates are dropped (the first wins). Writes the merged <out_dir>/runs.jsonl and `*out`
 * (sorted by problem, planner, run). Runs nothing. When runs are missing, `diag` names the
 * shards that lack them and the result is PB_ERR_NOT_FOUND (`*out` is still set when
 * options->allow_missing). */
PB_API pb_status pb_bench_merge(pb_bench_results **out, pb_bench_script *script,
                                const pb_bench_config *options, const char *const *journals,
                                size_t n_journals, pb_diag *diag);

/** The index of this process among `count` launched copies, from the launcher's environment
 * (SLURM_ARRAY_TASK_ID, SLURM_PROCID, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, PARALLEL_SEQ
 * minus 1), or -1 when none is set or it is not below `count`. */
PB_API int pb_bench_shard_from_env(uint32_t count);

/** CPUs this process may use: SLURM_CPUS_PER_TASK, else the affinity mask, else online CPUs. */
PB_API int pb_bench_available_cpus(void);

PB_API void pb_bench_results_destroy(pb_bench_results *results);

/** Short name of a status: "ok", "crashed", "killed: time", "killed: memory", "error". */
PB_API const char *pb_bench_status_str(pb_bench_status status);

/* ---- outputs (files are written atomically: a temporary file renamed over the target) ---- */

/** The Markdown table: one row per problem x planner with success rate, time to first
 * solution (median, IQR, 95% CI), final cost (median, IQR), iterations, nodes, feasible
 * and visible checks (medians); the best value per column and problem in bold. */
PB_API void pb_bench_write_table(FILE *out, const pb_bench_script *script, const pb_bench_results *results);

/** One CSV row per run with every metric (header line first). */
PB_API pb_status pb_bench_save_csv(const pb_bench_script *script, const pb_bench_results *results,
                                   const char *path, pb_diag *diag);

/** A JSON document: the benchmark's settings, problems, planners, every run and the
 * per problem x planner summaries. */
PB_API pb_status pb_bench_save_json(const pb_bench_script *script, const pb_bench_results *results,
                                    const char *path, pb_diag *diag);

/** OMPL benchmark logs (for `ompl_benchmark_statistics`), one experiment per problem: `path`
 * itself when the script has one problem, else `path` with "-<problem>" inserted before its
 * extension for each. */
PB_API pb_status pb_bench_save_ompl_log(const pb_bench_script *script, const pb_bench_results *results,
                                        const char *path, pb_diag *diag);

/** Figures in folder `dir` (created with its parents if needed), each as PNG, SVG and PDF:
 * per problem, box plots of time to first solution (a log axis when the medians spread more
 * than 20x) and of final cost with each planner's solved/runs, success-rate bars, and cost
 * over time (median and quartile band, up to the time limit) when an anytime planner ran on
 * after its first solution (stop is not `first`). The drawing lives in the module
 * planbench-plots.so (cairo), loaded on the first call: PB_ERR_UNSUPPORTED, with the reason in
 * `diag`, when the build has no cairo or the module cannot be loaded. */
PB_API pb_status pb_bench_save_plots(const pb_bench_script *script, const pb_bench_results *results,
                                     const char *dir, pb_diag *diag);

/** Create folder `dir` and the folders above it that are missing, and check that files can be
 * written in it (before a benchmark, so a bad --plot folder fails before the first run);
 * `diag` names the folder and the reason on failure. */
PB_API pb_status pb_bench_make_output_dir(const char *dir, pb_diag *diag);

/** True when plots can be drawn: the build has cairo and its module planbench-plots.so loads
 * (the first call loads it). */
PB_API bool pb_bench_has_plots(void);

/** Why plots cannot be drawn (a sentence: the build has no cairo, or what the module loader
 * reported), or NULL when they can. Borrowed, valid for the process's life. */
PB_API const char *pb_bench_plots_missing(void);

#ifdef __cplusplus
}
#endif
#endif
