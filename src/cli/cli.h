/* planbench command line: shared helpers of the subcommands. Uses the public API only. */
#ifndef PB_CLI_H
#define PB_CLI_H

#include "planbench/planbench.h"

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
/** `path` if it exists; else maps/<path> from the bundled folder when that exists. */
const char *cli_resolve_map(const char *path, char *buf, size_t size);

/** JSON output helpers. */
void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v); /* 17 significant digits; null for NaN and infinities */
void json_config(FILE *out, const double *q, int dim);

int cli_plan(int argc, char **argv);
int cli_list(int argc, char **argv);

#endif
