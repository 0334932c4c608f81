/* planbench: basic types shared by every module.
 *
 * Status codes, diagnostics for bad input, the seeded random generator through which all
 * randomness flows, and a monotonic clock. */
#ifndef PLANBENCH_BASE_H
#define PLANBENCH_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A flag one thread sets and another reads (a solve's cancel flag): an atomic int, the same
 * object in C (atomic_int) and C++ (std::atomic<int>). */
/* A count one thread adds to and others read (the nanoseconds a visualiser held a solve):
 * an atomic unsigned long long, the same object in C and C++. */
#ifdef __cplusplus
#include <atomic>
typedef std::atomic<int> pb_atomic_flag;
typedef std::atomic<unsigned long long> pb_atomic_count;
#else
#include <stdatomic.h>
typedef atomic_int pb_atomic_flag;
typedef atomic_ullong pb_atomic_count;
#endif

/* PB_API marks the library's public functions: the library is compiled with
 * -fvisibility=hidden, so only what a public header declares with PB_API is exported from
 * libplanbench.so (checked by tools/check_exports.py, the `exports` test). */
#if defined(__GNUC__) || defined(__clang__)
#define PB_API __attribute__((visibility("default")))
#else
#define PB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a fallible call: 0 is success, every failure is negative. */
typedef enum pb_status {
    PB_OK = 0,
    PB_ERR_INVALID = -1,     /**< bad input: a file, an option or a value that does not parse */
    PB_ERR_IO = -2,          /**< a file could not be opened, read or written */
    PB_ERR_NOMEM = -3,       /**< an allocation failed */
    PB_ERR_NOT_FOUND = -4,   /**< no engine, planner or parameter by that name; no IK solution */
    PB_ERR_UNSUPPORTED = -5, /**< the request is valid but this build cannot do it */
} pb_status;

/** What went wrong and where, for a person to read. Caller-owned; every fallible call takes an
 * optional pointer to one (NULL: no details wanted). */
typedef struct pb_diag {
    char file[256];    /**< the file at fault, "" when none */
    int line;          /**< 1-based line in `file`, 0 when unknown */
    int column;        /**< 1-based column, 0 when unknown */
    char message[512]; /**< one sentence, no trailing newline */
    char option[64];   /**< the option at fault (an engine option's name), "" when none */
} pb_diag;

/** Fill `diag` (when not NULL) for a bad option: `option` names it (in diag->option, as data,
 * for a caller that must say where the option came from) and the message is "OPTION: "
 * followed by the printf-style rest. */
PB_API void pb_diag_set_option(pb_diag *diag, const char *option, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Fill `diag` (when not NULL) with a printf-style message. `file` may be NULL. */
PB_API void pb_diag_set(pb_diag *diag, const char *file, int line, int column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/** Format `diag` as one line "file:line:column: message" into `buf` (always NUL-terminated). */
PB_API void pb_diag_format(const pb_diag *diag, char *buf, size_t size);

/** A short name for a status code ("invalid input", "i/o error", ...). */
PB_API const char *pb_status_str(pb_status status);

/** The library version, "MAJOR.MINOR.PATCH". */
PB_API const char *pb_version(void);

/** Seeded pseudo-random generator (xoshiro256**). Plain data: copy it to fork a stream.
 * The same seed gives the same sequence on every platform. */
typedef struct pb_rng {
    uint64_t s[4];
} pb_rng;

/** Seed `rng` from a 64-bit seed (expanded with splitmix64). */
PB_API void pb_rng_seed(pb_rng *rng, uint64_t seed);
/** The next 64 random bits. */
PB_API uint64_t pb_rng_next(pb_rng *rng);
/** A double uniform in [0, 1). */
PB_API double pb_rng_uniform(pb_rng *rng);
/** A double uniform in [low, high). */
PB_API double pb_rng_range(pb_rng *rng, double low, double high);
/** An integer uniform in [0, n), n > 0, without modulo bias. */
PB_API uint32_t pb_rng_below(pb_rng *rng, uint32_t n);
/** A standard normal deviate (mean 0, deviation 1). */
PB_API double pb_rng_normal(pb_rng *rng);

/** A file written so that nothing half-written is ever left behind: the data goes to
 * "TARGET.tmp.PID" beside the target (PATH, or what PATH links to: a symbolic link stays a
 * link), which commit fsyncs and renames over the target, then fsyncs the folder. The
 * temporary file is removed on abort, on a failed commit, at exit() and on SIGINT, SIGTERM
 * and SIGHUP when the program has no handler of its own. Caller storage. */
typedef struct pb_atomic_file {
    FILE *fp; /**< write here between open and commit */
    char path[4096];
    char tmp_path[4200];
} pb_atomic_file;

/** Open a temporary file beside `path`; `diag` names the path on failure. */
PB_API pb_status pb_atomic_file_open(pb_atomic_file *file, const char *path, pb_diag *diag);
/** Flush, close and rename over the target; on any failure the temporary file is removed
 * and the target is left as it was. */
PB_API pb_status pb_atomic_file_commit(pb_atomic_file *file, pb_diag *diag);
/** Close and remove the temporary file (on an error path). Safe after commit. */
PB_API void pb_atomic_file_abort(pb_atomic_file *file);

/** Write `s` as a JSON string (quotes, escapes) to `out`; null when `s` is NULL. */
PB_API void pb_json_write_string(FILE *out, const char *s);
/** Write `v` as a JSON number with 17 significant digits (it round-trips), or null when it
 * is NaN or infinite. */
PB_API void pb_json_write_number(FILE *out, double v);

/** Seconds from an arbitrary fixed point, monotonic, sub-microsecond resolution. */
PB_API double pb_clock_seconds(void);

#ifdef __cplusplus
}
#endif
#endif
