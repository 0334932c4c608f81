/* planbench command line: shared helpers of the subcommands. Uses the public API only. */
#ifndef PB_CLI_H
#define PB_CLI_H

#include "planbench/planbench.h"

#include <signal.h>
#include <stdio.h>

/* Exit statuses. */
enum { PB_EXIT_FOUND = 0, PB_EXIT_NOT_FOUND = 1, PB_EXIT_BAD_INPUT = 2 };

/** Print "planbench: <message>" on stderr (one line). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/** Print a diagnostic as one line on stderr. */
void cli_diag(const pb_diag *diag);

/** Strict number parsers: false (and a message naming `what`) when `text` is not entirely a
 * number of that kind in range. */
bool cli_parse_double(const char *what, const char *text, double *out);
bool cli_parse_u64(const char *what, const char *text, uint64_t *out);

/** Where bundled maps are: $PLANBENCH_MAPS, ./maps, the source tree's maps/, the installed
 * data folder; the first that exists. NULL when none. */
const char *cli_maps_dir(void);
/** The maps that came with planbench: $PLANBENCH_MAPS, the source tree's maps/, the installed
 * data folder; the first that exists (never the current folder's maps/). NULL when none. */
const char *cli_bundled_maps_dir(void);
/** `path` if it exists; else maps/<path> from the bundled folder when that exists. */
const char *cli_resolve_map(const char *path, char *buf, size_t size);

/** JSON output helpers. */
void json_config(FILE *out, const double *q, int dim);

/* The plan command's inputs: parsed from its command line (plan.c) or from a record
 * (replay.c). Strings are borrowed. */
#define MAX_OPTIONS 32
#define MAX_PARAMS  64

/** What a replay expects of the path (the record's fingerprint). */
typedef struct plan_expect {
    size_t n_waypoints;
    double cost; /* INFINITY: no path */
    uint64_t path_hash;
} plan_expect;

typedef struct plan_args {
    const char *planner;
    const char *map;
    const char *engine;
    const char *start_text, *goal_text;
    pb_option engine_options[MAX_OPTIONS];
    size_t n_engine_options;
    const char *params[MAX_PARAMS]; /* NAME=VALUE */
    size_t n_params;
    uint64_t seed;
    double step_size; /* < 0: not given */
    double goal_radius;
    double goal_bias;
    uint64_t max_iterations, max_nodes;
    uint64_t max_stop_checks;  /* planbench replay: the recorded budget check that ended the run */
    uint64_t reserve_at_check; /* ... and the one after which it kept its time for a last search */
    double time_limit;
    bool stop_at_first; /* --stop first|budget; default: first unless the planner is anytime */
    bool stop_given;
    bool approximate;
    bool interrupted; /* SIGINT or SIGTERM ended the solve */
    bool json;
    bool robot_given; /* --robot: the car engine by default */
    bool quiet;
    const char *save_path;
    const char *save_inputs; /* a kinodynamic plan's controls as planbench simulate's inputs CSV */
    const char *save_image;
    uint64_t draw_tree;          /* --draw-tree: most tree edges in the picture; 0: the path alone */
    bool draw_tree_given;        /* --draw-tree was on the command line (it needs --save-image) */
    bool simplify;               /* --simplify: shortcut the path after planning */
    double cost_before_simplify; /* set when the path was simplified */
    bool display;                /* --display (implied by --screenshot) */
    const char *screenshot;      /* --screenshot FILE */
    uint64_t screenshot_at;      /* --screenshot-at ITERATIONS; 0: at the end */
    const char *screenshot_dir;  /* --screenshot-dir DIR: where the s key writes */
    const plan_expect *expect;   /* planbench replay: compare the path with this; else NULL */
    bool reproduced;             /* set by cli_plan_run when `expect` is given */
} plan_args;

/** A plan_args with the defaults of the command line (seed 1, 10 s, steps from the planner). */
void plan_args_default(plan_args *a);
/** Plan once with `a` and report as the plan command does; returns the exit status. */
int cli_plan_run(plan_args *a);
/** Exit status of a replay whose path differs from the record's. */
enum { PB_EXIT_NOT_REPRODUCED = 3 };

int cli_plan(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_view(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_simulate(int argc, char **argv);
int cli_scenario(int argc, char **argv);
int cli_scene(int argc, char **argv);
int cli_scenario_bench(int argc, char **argv);
/* Ctrl-C (SIGINT) and SIGTERM while `on`: the first sets cli_interrupt_flag (a solve's or a
 * benchmark's cancel flag) and cli_interrupt_signal, a second ends the process at once with
 * status 128 + signal. `on` false restores the default actions. Clears the flag when turned on. */
extern pb_atomic_flag cli_interrupt_flag;
extern volatile sig_atomic_t cli_interrupt_signal;
void cli_catch_interrupts(bool on);

/* Can `path` be written (its folder exists and is writable)? Says why not, naming `what`. */
bool cli_output_writable(const char *path, const char *what);
/* Is `path` an existing folder we may write in? Else says why, naming `what` (an option). */
bool cli_folder_writable(const char *path, const char *what);

/* --display (display.c): the visualiser as the planner's observer. Without SDL2 in the build,
 * cli_display_open() prints cli_display_missing and returns PB_EXIT_BAD_INPUT. Functions that
 * return int give -1 on success, else an exit status. */
typedef struct cli_display cli_display;
typedef struct cli_display_options {
    const char *planner_name; /* borrowed for the display's lifetime */
    const char *map;          /* for the title; may be NULL */
    uint64_t seed;            /* of the first solve; r restarts with the next */
    const char *screenshot;   /* --screenshot FILE: save the window and exit; NULL: interactive */
    uint64_t screenshot_at;   /* --screenshot-at ITERATIONS; 0: at the end */
    pb_observer_fn chained;   /* another observer fed the same events (--save-image); may be NULL */
    void *chained_payload;
    const char *screenshot_dir; /* --screenshot-dir: where the s key writes; NULL: "." */
} cli_display_options;
extern const char cli_display_missing[];
/** False, after saying why, when --display cannot work in this planbench. */
bool cli_display_available(void);
int cli_display_open(cli_display **out, pb_engine *engine, pb_planner *planner, const pb_problem *problem,
                     const cli_display_options *options);
/* Solve once with the window watching (the stop gains the window's cancel flag). */
int cli_display_solve(cli_display *display, const pb_stop_config *stop, pb_result *result);
/* Keep the window open until q/Esc (unless --screenshot); r solves again with the next seed
 * into `result`, printing one line per run unless `quiet`. */
int cli_display_finish(cli_display *display, const pb_stop_config *stop, pb_result *result, bool quiet);
void cli_display_close(cli_display *display); /* NULL is accepted */
/* Did --screenshot-at end the solve? Such a run did what it was asked: its picture is written,
 * its outcome (no_solution without a path) says how far the planner got, it exits 0. NULL: false. */
bool cli_display_stopped_for_screenshot(const cli_display *display);

#endif
