/* A tiny test harness: CHECK macros that report file and line, and a summary line.
 * A test program returns pb_test_summary() from main: 0 when every check passed. */
#ifndef PB_TEST_HARNESS_H
#define PB_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int pb_test_failures;
extern int pb_test_checks;

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        pb_test_checks++;                                                                                    \
        if (!(cond)) {                                                                                       \
            pb_test_failures++;                                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
        }                                                                                                    \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                                 \
    do {                                                                                                     \
        pb_test_checks++;                                                                                    \
        if (!(cond)) {                                                                                       \
            pb_test_failures++;                                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                         \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                                \
    CHECK_MSG(fabs((double)(a) - (double)(b)) <= (tol), "%.17g vs %.17g (tolerance %g)", (double)(a),        \
              (double)(b), (double)(tol))

/** Print "N checks, M failed" and return the exit status for main. */
int pb_test_summary(const char *name);

/** Directory of the source tree (from the PB_SOURCE_ROOT environment variable set by meson). */
const char *pb_test_source_root(void);
/** ../shared beside the source tree, or NULL when absent (a user's clone has none). */
const char *pb_test_shared_root(void);

/** Exit status meson reads as "skipped". */
#define PB_TEST_SKIP 77

#endif
