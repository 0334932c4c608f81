/* The benchmark runner: every (problem, planner, run) in a forked child process, up to
 * `jobs` at once. The child loads the engine, creates the planner, solves, and sends one
 * fixed-size message (plus the cost trace) through a pipe; the parent enforces the time
 * limit, reads how the child ended (wait4: exit status, signal, peak memory) and appends one
 * JSON line per run to <out>/runs.jsonl as it finishes, so an interrupted benchmark can resume.
 * Uses the public API only. */
#include "bench/bench_internal.h"
#include "planbench/impl/engine_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define PB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PB_UNDER_ASAN 1
#endif
#endif

/* Child exit codes. */
enum { CHILD_EXIT_OK = 0, CHILD_EXIT_NOMEM = 3 };

/* Most cost-trace samples a run sends back (evenly thinned beyond, the last one kept). */
#define MAX_TRACE 2048

pb_bench_config pb_bench_config_default(void)
{
    return (pb_bench_config){.jobs = 0};
}

void pb_bench_results_destroy(pb_bench_results *results)
{
    if (!results)
        return;
    for (size_t i = 0; i < results->n; i++)
        pb_bench_record_finish(&results->records[i]);
    free(results->records);
    free(results);
}

/* ---- setting a run up (shared by the check and the child) ---- */

static void diag_at(pb_diag *diag, const pb_bench_script *s, int line, const char *key, const pb_diag *inner)
{
    char msg[sizeof inner->message];
    snprintf(msg, sizeof msg, "%s", inner->message);
    if (key)
        pb_diag_set(diag, s->path, line, 0, "%s: %s", key, msg);
    else
        pb_diag_set(diag, s->path, line, 0, "%s", msg);
}

/* The problem's engine options as pb_engine_load takes them (room for PB_BENCH_MAX_OPTIONS). */
static size_t problem_options(const pb_bench_problem *pr, pb_option *options)
{
    const size_t n = pr->n_options < PB_BENCH_MAX_OPTIONS ? pr->n_options : PB_BENCH_MAX_OPTIONS;
    for (size_t i = 0; i < n; i++)
        options[i] = (pb_option){pr->options[i].name, pr->options[i].value};
    return n;
}

pb_status pb_bench_setup_problem(const pb_bench_script *s, size_t problem_index, pb_engine **engine,
                                 double *start, double *goal, pb_diag *diag)
{
    const pb_bench_problem *pr = &s->problems[problem_index];
    pb_option options[PB_BENCH_MAX_OPTIONS];
    const size_t n_options = problem_options(pr, options);
    pb_diag inner = {0};
    *engine = NULL;
    pb_status st = pb_engine_load(engine, pr->engine, pr->map, options, n_options, &inner);
    if (st != PB_OK) {
        const char *key = pr->map ? "map" : "engine";
        int line = pr->map ? pr->map_line : pr->engine_line;
        if (inner.option[0]) {
            /* the engine names the faulty option: point at its line in the script */
            key = "option";
            line = pr->n_options > 0 ? pr->options[0].line : line;
            for (size_t i = 0; i < pr->n_options; i++)
                if (strcmp(inner.option, pr->options[i].name) == 0) {
                    line = pr->options[i].line;
                    break;
                }
        } else if (pr->engine && !pb_engine_registry_find(pr->engine)) {
            key = "engine";
            line = pr->engine_line;
        }
        char msg[sizeof inner.message];
        pb_diag_format(&inner, msg, sizeof msg);
        snprintf(inner.message, sizeof inner.message, "%s", msg);
        diag_at(diag, s, line ? line : pr->line, key, &inner);
        return st;
    }
    const int dim = pb_engine_dim(*engine);
    double dstart[PB_MAX_DIM], dgoal[PB_MAX_DIM];
    const bool has_defaults = pb_engine_defaults(*engine, dstart, dgoal);
    const char *texts[2] = {pr->start, pr->goal};
    const int lines[2] = {pr->start_line, pr->goal_line};
    double *outs[2] = {start, goal};
    const double *defaults[2] = {dstart, dgoal};
    for (int k = 0; k < 2; k++) {
        const char *key = k ? "goal" : "start";
        if (!texts[k]) {
            if (!has_defaults) {
                pb_diag_set(diag, s->path, pr->line, 0,
                            "[problem.%s]: %s: missing, and the engine has no default", pr->name, key);
                st = PB_ERR_INVALID;
                break;
            }
            memcpy(outs[k], defaults[k], (size_t)dim * sizeof(double));
            continue;
        }
        double q[PB_MAX_DIM + 1];
        const int n = pb_parse_doubles(texts[k], q, PB_MAX_DIM + 1);
        if (n != dim) {
            pb_diag_set(diag, s->path, lines[k], 0, "%s: expected %d coordinates for engine %s, got '%s'",
                        key, dim, pb_engine_name(*engine), texts[k]);
            st = PB_ERR_INVALID;
            break;
        }
        memcpy(outs[k], q, (size_t)dim * sizeof(double));
    }
    if (st != PB_OK) {
        pb_engine_destroy(*engine);
        *engine = NULL;
    }
    return st;
}

pb_status pb_bench_setup_planner(const pb_bench_script *s, size_t planner_index, pb_engine *engine,
                                 pb_planner **planner, pb_diag *diag)
{
    const pb_bench_planner *pl = &s->planners[planner_index];
    pb_diag inner = {0};
    pb_status st = pb_planner_create(planner, pl->planner, engine, &inner);
    if (st != PB_OK) {
        diag_at(diag, s, pl->planner_line ? pl->planner_line : pl->line, "planner", &inner);
        return st;
    }
    for (size_t i = 0; i < pl->n_params; i++) {
        st = pb_planner_set_param(*planner, pl->params[i].name, pl->params[i].value, &inner);
        if (st != PB_OK) {
            diag_at(diag, s, pl->params[i].line, pl->params[i].name, &inner);
            pb_planner_destroy(*planner);
            *planner = NULL;
            return st;
        }
    }
    return PB_OK;
}

pb_status pb_bench_script_check(const pb_bench_script *script, pb_diag *diag)
{
    for (size_t i = 0; i < script->n_problems; i++)
        if (script->problems[i].n_options > PB_BENCH_MAX_OPTIONS) {
            pb_diag_set(diag, script->path, script->problems[i].options[PB_BENCH_MAX_OPTIONS].line, 0,
                        "option: too many engine options (at most %d)", PB_BENCH_MAX_OPTIONS);
            return PB_ERR_INVALID;
        }
    for (size_t i = 0; i < script->n_planners; i++)
        if (!pb_planner_registry_find(script->planners[i].planner)) {
            const pb_bench_planner *pl = &script->planners[i];
            pb_diag_set(diag, script->path, pl->planner_line ? pl->planner_line : pl->line, 0,
                        "planner: unknown planner '%s' (see 'planbench list')", pl->planner);
            return PB_ERR_NOT_FOUND;
        }
    for (size_t i = 0; i < script->n_problems; i++) {
        pb_engine *engine;
        double start[PB_MAX_DIM], goal[PB_MAX_DIM];
        pb_status st = pb_bench_setup_problem(script, i, &engine, start, goal, diag);
        if (st != PB_OK)
            return st;
        /* Planners and their parameters are checked on the first problem's engine only:
         * parameter names and ranges do not depend on the engine. */
        for (size_t j = 0; j < script->n_planners && i == 0 && st == PB_OK; j++) {
            pb_planner *planner = NULL;
            st = pb_bench_setup_planner(script, j, engine, &planner, diag);
            pb_planner_destroy(planner);
        }
        pb_engine_destroy(engine);
        if (st != PB_OK)
            return st;
    }
    return PB_OK;
}

/* ---- the child ---- */

typedef struct child_message {
    uint32_t magic;
    int32_t status; /* PB_BENCH_RUN_OK or PB_BENCH_RUN_ERROR */
    int32_t outcome;
    int32_t solved;
    double time_s, cpu_s, time_to_first_s, cost, setup_s;
    uint64_t iterations, nodes, n_feasible, n_visible, n_edge_states, n_pixels;
    uint64_t n_trace;
    uint64_t record_size; /* the run's record follows the trace */
    int32_t edge_check;
    int32_t interrupted; /* SIGTERM (the parent's cancel) ended the solve */
    double edge_resolution;
    char text[96];
} child_message;

#define CHILD_MAGIC 0x70626e63u

static bool write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        const ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

#ifndef PB_UNDER_ASAN
static double child_threshold_pages = INFINITY; /* for the handler below */

/* The address space of this process in pages (/proc/self/statm), 0 when unknown. Uses only
 * async-signal-safe calls. */
static double address_space_pages(void)
{
    char text[128];
    const int fd = open("/proc/self/statm", O_RDONLY);
    const ssize_t n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0)
        close(fd);
    double pages = 0.0;
    for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; i++)
        pages = pages * 10.0 + (text[i] - '0');
    return pages;
}

/* A fatal signal with the address space grown at least half way from where the run started to
 * the limit: an allocation failed under RLIMIT_AS in code that does not check (a plugin, the
 * C library). Report it as memory, not as a crash. */
static void on_fatal_signal(int sig)
{
    if (address_space_pages() >= child_threshold_pages)
        _exit(CHILD_EXIT_NOMEM);
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

/* SIGTERM in a run (the parent cancelling, or a signal to the whole process group) ends its
 * solve as a spent budget does. */
static pb_atomic_flag child_cancel;

static void on_child_term(int sig)
{
    (void)sig;
    atomic_store(&child_cancel, 1);
}

/* The problems' engines, loaded once by the parent before any run starts: children inherit
 * them through fork (copy-on-write), so a run costs a fork and a planner, not a map decode. */
typedef struct loaded_problem {
    pb_engine *engine;
    double start[PB_MAX_DIM];
    double goal[PB_MAX_DIM];
} loaded_problem;

static _Noreturn void child_main(const pb_bench_script *s, uint32_t problem, uint32_t planner_index,
                                 uint32_t run, int fd, double t_fork, const loaded_problem *loaded)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed benchmark takes its runs with it */
#endif
    signal(SIGINT, SIG_IGN); /* Ctrl-C goes to the parent, which sends SIGTERM to what is in flight */
    struct sigaction term;
    memset(&term, 0, sizeof term);
    term.sa_handler = on_child_term;
    sigemptyset(&term.sa_mask);
    sigaction(SIGTERM, &term, NULL);
    sigset_t blocked; /* SIGTERM was blocked across the fork: a cancel from then on is seen */
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &blocked, NULL);
#ifndef PB_UNDER_ASAN
    /* AddressSanitizer reserves terabytes of address space: no RLIMIT_AS under it. */
    if (s->memory_limit_mb > 0.0) {
        const rlim_t bytes = (rlim_t)(s->memory_limit_mb * 1048576.0);
        struct rlimit limit = {bytes, bytes};
        setrlimit(RLIMIT_AS, &limit);
        signal(SIGABRT, on_fatal_signal);
        signal(SIGSEGV, on_fatal_signal);
        signal(SIGBUS, on_fatal_signal);
    }
#endif
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core); /* a crashing run is recorded, not dumped */
    child_message msg;
    memset(&msg, 0, sizeof msg);
    msg.magic = CHILD_MAGIC;
    msg.status = PB_BENCH_RUN_OK;
    pb_engine *engine = loaded->engine;
    const double *start = loaded->start, *goal = loaded->goal;
    pb_planner *planner = NULL;
    pb_diag diag = {0};
    pb_status st = pb_bench_setup_planner(s, planner_index, engine, &planner, &diag);
    if (st == PB_ERR_NOMEM)
        _exit(CHILD_EXIT_NOMEM);
    pb_result result;
    pb_cost_sample *trace = NULL;
    char *record = NULL;
    size_t record_size = 0;
    if (st != PB_OK) {
        msg.status = PB_BENCH_RUN_ERROR;
        char line[sizeof diag.message + 300];
        pb_diag_format(&diag, line, sizeof line);
        memcpy(msg.text, "error: ", 7);
        snprintf(msg.text + 7, sizeof msg.text - 7, "%.*s", (int)(sizeof msg.text - 8), line);
    } else {
        const pb_bench_planner *pl = &s->planners[planner_index];
        pb_planner_set_seed(planner, s->seed + run);
        const double radius = s->problems[problem].goal_radius > 0.0
                                  ? s->problems[problem].goal_radius
                                  : pb_planner_default_goal_radius(planner);
        pb_problem query = {.start = start, .goal = goal, .goal_radius = radius};
        pb_stop_config stop = pb_stop_config_default();
        stop.time_limit_s = s->time_limit_s;
        stop.max_iterations = s->max_iterations;
        const bool anytime = pb_planner_impl_anytime(pb_planner_registry_find(pl->planner));
        stop.first_solution = s->stop == PB_BENCH_STOP_FIRST || (s->stop == PB_BENCH_STOP_AUTO && !anytime);
        stop.cancel = &child_cancel;
        pb_result_init(&result, pb_engine_dim(engine));
        msg.setup_s = pb_clock_seconds() - t_fork;
#ifndef PB_UNDER_ASAN
        if (s->memory_limit_mb > 0.0) {
            const double limit = s->memory_limit_mb * 1048576.0 / (double)sysconf(_SC_PAGESIZE);
            const double base = address_space_pages();
            child_threshold_pages = base + 0.5 * (limit - base);
        }
#endif
        if (pb_planner_solve(planner, &query, &stop, &result) == PB_ERR_NOMEM)
            _exit(CHILD_EXIT_NOMEM);
        snprintf(msg.text, sizeof msg.text, "ok");
        msg.interrupted = atomic_load(&child_cancel) != 0;
        msg.outcome = (int32_t)result.outcome;
        msg.solved = result.outcome == PB_OUTCOME_EXACT;
        msg.time_s = result.time_s;
        msg.cpu_s = result.cpu_s;
        msg.n_edge_states = result.counters.n_edge_states;
        msg.time_to_first_s = result.time_to_first_s;
        msg.cost = result.cost;
        msg.iterations = result.iterations;
        msg.nodes = result.nodes;
        msg.n_feasible = result.counters.n_feasible;
        msg.n_visible = result.counters.n_visible;
        msg.n_pixels = result.counters.n_pixels;
        msg.edge_check = (int32_t)pb_engine_edge_check(engine, &msg.edge_resolution);
        const size_t n = result.n_cost_trace;
        msg.n_trace = n < MAX_TRACE ? n : MAX_TRACE;
        trace = malloc((msg.n_trace ? msg.n_trace : 1) * sizeof *trace);
        if (!trace)
            _exit(CHILD_EXIT_NOMEM);
        for (size_t i = 0; i < msg.n_trace; i++) {
            /* evenly thinned, always ending with the last (best) sample */
            const size_t from =
                msg.n_trace == n ? i : (size_t)((double)i * (double)(n - 1) / (double)(msg.n_trace - 1));
            trace[i] = result.cost_trace[from];
        }
        pb_option options[PB_BENCH_MAX_OPTIONS];
        const size_t n_options = problem_options(&s->problems[problem], options);
        FILE *out = open_memstream(&record, &record_size);
        if (!out)
            _exit(CHILD_EXIT_NOMEM);
        pb_planner_write_record_json(out, planner, s->problems[problem].map, options, n_options, &query,
                                     &stop, &result);
        if (fclose(out) != 0)
            _exit(CHILD_EXIT_NOMEM);
        msg.record_size = record_size;
    }
    if (!write_all(fd, &msg, sizeof msg) ||
        (msg.n_trace && !write_all(fd, trace, (size_t)msg.n_trace * sizeof *trace)) ||
        (msg.record_size && !write_all(fd, record, msg.record_size)))
        _exit(4);
    _exit(CHILD_EXIT_OK);
}

/* ---- the parent ---- */

typedef struct slot {
    pid_t pid;
    int fd;
    double t_start;
    uint32_t problem, planner, run;
    unsigned char *buf;
    size_t len, capacity;
    bool killed_for_time;
    bool killed_for_memory;
    bool cancelled; /* sent SIGTERM when the benchmark was cancelled */
} slot;

/* Load problem i in this (the parent) process within the script's memory limit: the address
 * space may grow by at most memory_limit while it loads (RLIMIT_AS, restored after), so a map
 * or world that needs more fails here with a message instead of taking the machine's memory
 * (the runs themselves are limited in their children). Sanitizer builds reserve terabytes of
 * address space and cannot use RLIMIT_AS: there the file readers' own caps still apply. */
static pb_status setup_problem_limited(const pb_bench_script *s, size_t i, loaded_problem *out, pb_diag *diag)
{
#ifndef PB_UNDER_ASAN
    struct rlimit old;
    const bool limit = s->memory_limit_mb > 0.0 && getrlimit(RLIMIT_AS, &old) == 0;
    if (limit) {
        const double base = address_space_pages() * (double)sysconf(_SC_PAGESIZE);
        const double want = base + s->memory_limit_mb * 1048576.0;
        struct rlimit tight = old;
        if (old.rlim_cur == RLIM_INFINITY || want < (double)old.rlim_cur)
            tight.rlim_cur = (rlim_t)want;
        setrlimit(RLIMIT_AS, &tight);
    }
#endif
    pb_status st = pb_bench_setup_problem(s, i, &out->engine, out->start, out->goal, diag);
#ifndef PB_UNDER_ASAN
    if (limit)
        setrlimit(RLIMIT_AS, &old);
#endif
    /* the readers report a refused allocation as out of memory, whatever their status */
    if (st == PB_ERR_NOMEM || (st != PB_OK && diag && strstr(diag->message, "out of memory"))) {
        st = PB_ERR_INVALID; /* the script asks for more than its own limit: bad input */
        pb_diag_set(diag, s->path, s->problems[i].line, 0,
                    "problem '%s': loading it needs more than the memory limit of %g MiB",
                    s->problems[i].name, s->memory_limit_mb);
    }
    return st;
}

/* Resident memory of a process in MiB from /proc (Linux); NaN when unknown. The parent
 * watches it as well as setting RLIMIT_AS, which sanitizer builds cannot use. */
static double resident_mb(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NAN;
    unsigned long long size = 0, resident = 0;
    const int n = fscanf(fp, "%llu %llu", &size, &resident);
    fclose(fp);
    return n == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) / 1048576.0 : NAN;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGTRAP:
        return "SIGTRAP";
    default:
        return NULL;
    }
}

static void finish_slot(const pb_bench_script *s, slot *sl, int wstatus, const struct rusage *usage,
                        pb_bench_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->problem = sl->problem;
    rec->planner = sl->planner;
    rec->run = sl->run;
    rec->seed = s->seed + sl->run;
    rec->interrupted = sl->cancelled; /* unless the run reports it finished first (below) */
    rec->outcome = PB_OUTCOME_TIMEOUT;
    rec->cost = INFINITY;
    rec->time_to_first_s = -1.0;
    rec->time_s = pb_clock_seconds() - sl->t_start;
    rec->memory_mb = (double)usage->ru_maxrss / 1024.0;
    child_message msg;
    const bool have_msg = sl->len >= sizeof msg;
    if (have_msg)
        memcpy(&msg, sl->buf, sizeof msg);
    if (sl->killed_for_memory) {
        rec->status = PB_BENCH_RUN_KILLED_MEMORY;
        snprintf(rec->status_text, sizeof rec->status_text, "killed: memory (%.0f MiB, limit %g MiB)",
                 rec->memory_mb, s->memory_limit_mb);
    } else if (sl->killed_for_time) {
        rec->status = PB_BENCH_RUN_KILLED_TIME;
        snprintf(rec->status_text, sizeof rec->status_text, "killed: time (no answer after %.3g s)",
                 rec->time_s);
    } else if (WIFSIGNALED(wstatus)) {
        const int sig = WTERMSIG(wstatus);
        const char *name = signal_name(sig);
        rec->status = PB_BENCH_RUN_CRASHED;
        if (name)
            snprintf(rec->status_text, sizeof rec->status_text, "crashed: %s", name);
        else
            snprintf(rec->status_text, sizeof rec->status_text, "crashed: signal %d", sig);
    } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == CHILD_EXIT_NOMEM) {
        rec->status = PB_BENCH_RUN_KILLED_MEMORY;
        snprintf(rec->status_text, sizeof rec->status_text, "killed: memory (over %g MiB)",
                 s->memory_limit_mb);
    } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == CHILD_EXIT_OK && have_msg &&
               msg.magic == CHILD_MAGIC && msg.n_trace <= MAX_TRACE &&
               sl->len == sizeof msg + msg.n_trace * sizeof(pb_cost_sample) + msg.record_size) {
        rec->status = msg.status == PB_BENCH_RUN_ERROR ? PB_BENCH_RUN_ERROR : PB_BENCH_RUN_OK;
        msg.text[sizeof msg.text - 1] = '\0';
        snprintf(rec->status_text, sizeof rec->status_text, "%s", msg.text);
        if (rec->status == PB_BENCH_RUN_OK) {
            rec->outcome = (pb_outcome)msg.outcome;
            rec->solved = msg.solved != 0;
            rec->time_s = msg.time_s;
            rec->cpu_s = msg.cpu_s;
            rec->n_edge_states = msg.n_edge_states;
            rec->time_to_first_s = msg.time_to_first_s;
            rec->cost = msg.cost;
            rec->iterations = msg.iterations;
            rec->nodes = msg.nodes;
            rec->n_feasible = msg.n_feasible;
            rec->n_visible = msg.n_visible;
            rec->n_pixels = msg.n_pixels;
            rec->setup_s = msg.setup_s;
            rec->interrupted = msg.interrupted != 0;
            rec->edge_check = msg.edge_check >= 0 && msg.edge_check < PB_EDGE_CHECK_COUNT
                                  ? (pb_edge_check)msg.edge_check
                                  : PB_EDGE_CHECK_SAMPLED;
            rec->edge_resolution = msg.edge_resolution;
            if (msg.n_trace) {
                rec->cost_trace = malloc(msg.n_trace * sizeof *rec->cost_trace);
                if (rec->cost_trace) {
                    memcpy(rec->cost_trace, sl->buf + sizeof msg, msg.n_trace * sizeof *rec->cost_trace);
                    rec->n_cost_trace = msg.n_trace;
                }
            }
            if (msg.record_size && (rec->record = malloc(msg.record_size + 1)) != NULL) {
                memcpy(rec->record, sl->buf + sizeof msg + msg.n_trace * sizeof(pb_cost_sample),
                       msg.record_size);
                rec->record[msg.record_size] = '\0';
            }
        }
    } else {
        rec->status = PB_BENCH_RUN_CRASHED;
        snprintf(rec->status_text, sizeof rec->status_text, "crashed: exit status %d without a result",
                 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    }
}

/* `resumed` of the `done` runs came from a journal (--resume): the time left is estimated from
 * the runs of this session only, which `elapsed` measures. */
static void draw_progress(FILE *out, bool tty, size_t done, size_t resumed, size_t total, double elapsed,
                          size_t failures, bool final)
{
    const double eta = done > resumed ? elapsed / (double)(done - resumed) * (double)(total - done) : NAN;
    if (tty) {
        char bar[31];
        const size_t filled = total ? done * 30 / total : 30;
        for (size_t i = 0; i < 30; i++)
            bar[i] = i < filled ? '#' : '.';
        bar[30] = '\0';
        fprintf(out, "\r[%s] %zu/%zu runs, %.1f s elapsed", bar, done, total, elapsed);
        if (isfinite(eta) && !final)
            fprintf(out, ", ~%.0f s left", eta);
        fprintf(out, ", %zu failed\033[K", failures);
        if (final)
            fputc('\n', out);
    } else {
        fprintf(out, "planbench bench: %zu/%zu runs, %.1f s elapsed", done, total, elapsed);
        if (isfinite(eta) && !final)
            fprintf(out, ", ~%.0f s left", eta);
        fprintf(out, ", %zu failed\n", failures);
    }
    fflush(out);
}

pb_status pb_bench_run(pb_bench_results **out, pb_bench_script *s, const pb_bench_config *options,
                       pb_diag *diag)
{
    *out = NULL;
    if (options->runs > 0)
        s->runs = options->runs;
    if (options->time_limit_s > 0.0)
        s->time_limit_s = options->time_limit_s;
    const int jobs = options->jobs > 0 ? options->jobs : pb_bench_available_cpus();
    const uint32_t n_shards = options->shard_count ? options->shard_count : 1;
    const uint32_t shard = options->shard_count ? options->shard_index : 0;
    const bool resume = options->resume || options->shard_count > 0; /* a re-run shard never truncates */
    char dir[4096], log_path[4200], header[PB_BENCH_HEADER_MAX];
    if (options->out_dir)
        snprintf(dir, sizeof dir, "%s", options->out_dir);
    else
        snprintf(dir, sizeof dir, "bench/out/%s", s->name);
    if (options->shard_count) {
        const size_t len = strlen(dir);
        snprintf(dir + len, sizeof dir - len, "/shard-%u-of-%u", (unsigned)shard, (unsigned)n_shards);
    }
    pb_bench_journal_header(s, shard, n_shards, header, sizeof header);
    if (!pb_bench_make_dirs(dir)) {
        pb_diag_set(diag, dir, 0, 0, "cannot create the output folder: %s", strerror(errno));
        return PB_ERR_IO;
    }
    snprintf(log_path, sizeof log_path, "%s/runs.jsonl", dir);

    pb_bench_results *r = calloc(1, sizeof *r);
    if (!r)
        return PB_ERR_NOMEM;
    const size_t total = s->n_problems * s->n_planners * (size_t)s->runs;
    bool *done = calloc(total ? total : 1, sizeof *done);
    slot *slots = calloc((size_t)jobs, sizeof *slots);
    struct pollfd *fds = calloc((size_t)jobs, sizeof *fds);
    if (!done || !slots || !fds) {
        free(done);
        free(slots);
        free(fds);
        free(r);
        return PB_ERR_NOMEM;
    }
    pb_status st = PB_OK;
    loaded_problem *loaded = calloc(s->n_problems ? s->n_problems : 1, sizeof *loaded);
    if (!loaded)
        st = PB_ERR_NOMEM;
    for (size_t i = 0; st == PB_OK && i < s->n_problems; i++)
        st = setup_problem_limited(s, i, &loaded[i], diag);
    const int log_fd = st == PB_OK ? open(log_path, O_RDWR | O_CREAT | O_CLOEXEC | O_APPEND, 0666) : -1;
    if (st == PB_OK && log_fd < 0) {
        pb_diag_set(diag, log_path, 0, 0, "cannot write: %s", strerror(errno));
        st = PB_ERR_IO;
    }
    if (st == PB_OK && flock(log_fd, LOCK_EX | LOCK_NB) != 0) {
        pb_diag_set(diag, log_path, 0, 0,
                    errno == EWOULDBLOCK
                        ? "another planbench is running this benchmark or shard (the journal is "
                          "locked); wait for it or stop it"
                        : "cannot lock the journal: %s",
                    strerror(errno));
        st = PB_ERR_INVALID;
    }
    if (st == PB_OK && !resume && ftruncate(log_fd, 0) != 0) {
        pb_diag_set(diag, log_path, 0, 0, "cannot write: %s", strerror(errno));
        st = PB_ERR_IO;
    }
    if (st == PB_OK)
        st = pb_bench_journal_check(log_fd, log_path, header, diag);
    if (st == PB_OK && resume) {
        st = pb_bench_read_jsonl(s, log_path, r, diag);
        for (size_t i = 0; i < r->n; i++) {
            const pb_bench_record *rec = &r->records[i];
            done[((size_t)rec->problem * s->n_planners + rec->planner) * s->runs + rec->run] = true;
        }
        r->n_resumed = r->n;
    }
    if (st == PB_OK && resume) {
        /* an interrupted write may have left half a line: start on a fresh one */
        struct stat info;
        if (fstat(log_fd, &info) == 0 && info.st_size > 0) {
            char last = '\n';
            if (pread(log_fd, &last, 1, info.st_size - 1) != 1)
                last = '\n';
            if (last != '\n' && !write_all(log_fd, "\n", 1))
                st = PB_ERR_IO;
        }
    }
    size_t in_shard = 0;
    for (size_t index = shard; index < total; index += n_shards)
        in_shard++;

    const double t0 = pb_clock_seconds();
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    const double session_start = (double)wall.tv_sec + (double)wall.tv_nsec * 1e-9;
    const bool tty = options->progress && isatty(fileno(options->progress));
    size_t next = 0, n_done = r->n, failures = 0, active = 0;
    const size_t resumed = r->n;
    double last_progress = t0;
    for (size_t i = 0; i < r->n; i++)
        failures += r->records[i].status != PB_BENCH_RUN_OK;
    const double grace = s->time_limit_s * 0.5 > 1.0 ? s->time_limit_s * 0.5 : 1.0;
    if (options->progress && st == PB_OK)
        draw_progress(options->progress, tty, n_done, resumed, in_shard, 0.0, failures, false);
    bool cancelled = false;
    while (st == PB_OK && ((next < total && !cancelled) || active > 0)) {
        /* cancelled (Ctrl-C): no new run; those in flight end as at a spent budget */
        if (!cancelled && options->cancel && atomic_load(options->cancel)) {
            cancelled = true;
            for (int k = 0; k < jobs; k++)
                if (slots[k].pid) {
                    kill(slots[k].pid, SIGTERM);
                    slots[k].cancelled = true;
                }
        }
        /* start runs while there is room */
        while (next < total && !cancelled && active < (size_t)jobs) {
            const size_t index = next++;
            if (done[index] || index % n_shards != shard)
                continue;
            const uint32_t run = (uint32_t)(index % s->runs);
            const uint32_t planner = (uint32_t)(index / s->runs % s->n_planners);
            const uint32_t problem = (uint32_t)(index / s->runs / s->n_planners);
            int pipe_fds[2];
            if (pipe(pipe_fds) != 0) {
                pb_diag_set(diag, NULL, 0, 0, "cannot create a pipe: %s", strerror(errno));
                st = PB_ERR_IO;
                break;
            }
            fflush(NULL);
            /* SIGTERM stays blocked across the fork until the run has its handler */
            sigset_t term, old_mask;
            sigemptyset(&term);
            sigaddset(&term, SIGTERM);
            sigprocmask(SIG_BLOCK, &term, &old_mask);
            const double t_fork = pb_clock_seconds();
            const pid_t pid = fork();
            if (pid != 0)
                sigprocmask(SIG_SETMASK, &old_mask, NULL);
            if (pid < 0) {
                close(pipe_fds[0]);
                close(pipe_fds[1]);
                pb_diag_set(diag, NULL, 0, 0, "cannot start a run: %s", strerror(errno));
                st = PB_ERR_IO;
                break;
            }
            if (pid == 0) {
                close(pipe_fds[0]);
                close(log_fd); /* the journal's lock is the parent's: a run outliving it must not hold it */
                child_main(s, problem, planner, run, pipe_fds[1], t_fork, &loaded[problem]);
            }
            close(pipe_fds[1]);
            size_t k = 0;
            while (slots[k].pid != 0)
                k++;
            slots[k] = (slot){.pid = pid,
                              .fd = pipe_fds[0],
                              .t_start = t_fork,
                              .problem = problem,
                              .planner = planner,
                              .run = run};
            active++;
        }
        if (st != PB_OK)
            break;
        /* wait for output, an exit, or a deadline */
        for (int k = 0; k < jobs; k++)
            fds[k] = (struct pollfd){.fd = slots[k].pid ? slots[k].fd : -1, .events = POLLIN};
        const int ready = poll(fds, (nfds_t)jobs, 100);
        if (ready < 0 && errno != EINTR) {
            pb_diag_set(diag, NULL, 0, 0, "poll failed: %s", strerror(errno));
            st = PB_ERR_IO;
            break;
        }
        const double now = pb_clock_seconds();
        for (int k = 0; k < jobs; k++) {
            slot *sl = &slots[k];
            if (!sl->pid)
                continue;
            bool eof = false;
            if (ready > 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (sl->len == sl->capacity) {
                    const size_t cap = sl->capacity ? 2 * sl->capacity : 4096;
                    unsigned char *grown = realloc(sl->buf, cap);
                    if (!grown) {
                        st = PB_ERR_NOMEM;
                        break;
                    }
                    sl->buf = grown;
                    sl->capacity = cap;
                }
                const ssize_t n = read(sl->fd, sl->buf + sl->len, sl->capacity - sl->len);
                if (n > 0)
                    sl->len += (size_t)n;
                else if (n == 0 || errno != EINTR)
                    eof = true;
            }
            if (!eof && !sl->killed_for_time && now - sl->t_start > s->time_limit_s + grace) {
                kill(sl->pid, SIGKILL);
                sl->killed_for_time = true;
            }
            if (!eof && !sl->killed_for_memory && s->memory_limit_mb > 0.0 &&
                resident_mb(sl->pid) > s->memory_limit_mb) {
                kill(sl->pid, SIGKILL);
                sl->killed_for_memory = true;
            }
            if (!eof)
                continue;
            int wstatus = 0;
            struct rusage usage;
            memset(&usage, 0, sizeof usage);
            while (wait4(sl->pid, &wstatus, 0, &usage) < 0 && errno == EINTR)
                ;
            close(sl->fd);
            pb_bench_record rec;
            finish_slot(s, sl, wstatus, &usage, &rec);
            rec.session_start = session_start;
            rec.session_elapsed_s = pb_clock_seconds() - t0;
            free(sl->buf);
            memset(sl, 0, sizeof *sl);
            active--;
            if (pb_bench_append_jsonl(log_fd, s, &rec) != PB_OK) {
                pb_diag_set(diag, log_path, 0, 0, "cannot append a run: %s", strerror(errno));
                st = PB_ERR_IO;
            }
            if (rec.interrupted) { /* in the journal as such, for --resume; not a result */
                r->n_interrupted++;
                pb_bench_record_finish(&rec);
                continue;
            }
            n_done++;
            failures += rec.status != PB_BENCH_RUN_OK;
            if (pb_bench_append_record(r, &rec) != PB_OK) {
                pb_bench_record_finish(&rec);
                st = PB_ERR_NOMEM;
            }
            if (options->progress && (tty || now - last_progress >= 5.0)) {
                draw_progress(options->progress, tty, n_done, resumed, in_shard, now - t0, failures, false);
                last_progress = now;
            }
        }
        if (options->progress && tty && now - last_progress >= 0.5) {
            draw_progress(options->progress, tty, n_done, resumed, in_shard, now - t0, failures, false);
            last_progress = now;
        }
    }
    /* on an error, stop what is still running */
    for (int k = 0; k < jobs; k++)
        if (slots[k].pid) {
            kill(slots[k].pid, SIGKILL);
            waitpid(slots[k].pid, NULL, 0);
            close(slots[k].fd);
            free(slots[k].buf);
        }
    if (log_fd >= 0)
        close(log_fd);
    pb_bench_sort_records(r);
    /* the whole benchmark: earlier sessions' times were summed while reading the journal */
    r->session_s = pb_clock_seconds() - t0;
    r->total_s += r->session_s;
    double overhead_sum = 0.0;
    size_t n_ok = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->records[i].status == PB_BENCH_RUN_OK) {
            overhead_sum += r->records[i].setup_s;
            n_ok++;
        }
    r->overhead_s = n_ok ? overhead_sum / (double)n_ok : NAN;
    r->interrupted = cancelled;
    if (options->progress && st == PB_OK)
        draw_progress(options->progress, tty, n_done, resumed, in_shard, r->session_s, failures, true);
    for (size_t i = 0; loaded && i < s->n_problems; i++)
        pb_engine_destroy(loaded[i].engine);
    free(loaded);
    free(done);
    free(slots);
    free(fds);
    if (st != PB_OK) {
        if (st == PB_ERR_NOMEM)
            pb_diag_set(diag, NULL, 0, 0, "out of memory");
        pb_bench_results_destroy(r);
        return st;
    }
    *out = r;
    return PB_OK;
}
