/* Diagnostics, status names and the version string. */
#include "planbench/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void pb_diag_set(pb_diag *diag, const char *file, int line, int column, const char *fmt, ...)
{
    if (!diag)
        return;
    snprintf(diag->file, sizeof diag->file, "%s", file ? file : "");
    diag->option[0] = '\0';
    diag->line = line;
    diag->column = column;
    va_list args;
    va_start(args, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, args);
    va_end(args);
}

void pb_diag_set_option(pb_diag *diag, const char *option, const char *fmt, ...)
{
    if (!diag)
        return;
    diag->file[0] = '\0';
    diag->line = diag->column = 0;
    snprintf(diag->option, sizeof diag->option, "%s", option);
    const int n = snprintf(diag->message, sizeof diag->message, "%s: ", option);
    va_list args;
    va_start(args, fmt);
    if (n >= 0 && (size_t)n < sizeof diag->message)
        vsnprintf(diag->message + n, sizeof diag->message - (size_t)n, fmt, args);
    va_end(args);
}

void pb_diag_format(const pb_diag *diag, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (diag->file[0] == '\0')
        snprintf(buf, size, "%s", diag->message);
    else if (diag->line > 0 && diag->column > 0)
        snprintf(buf, size, "%s:%d:%d: %s", diag->file, diag->line, diag->column, diag->message);
    else if (diag->line > 0)
        snprintf(buf, size, "%s:%d: %s", diag->file, diag->line, diag->message);
    else
        snprintf(buf, size, "%s: %s", diag->file, diag->message);
}

const char *pb_status_str(pb_status status)
{
    switch (status) {
    case PB_OK:
        return "ok";
    case PB_ERR_INVALID:
        return "invalid input";
    case PB_ERR_IO:
        return "i/o error";
    case PB_ERR_NOMEM:
        return "out of memory";
    case PB_ERR_NOT_FOUND:
        return "not found";
    case PB_ERR_UNSUPPORTED:
        return "not supported by this build";
    }
    return "unknown error";
}

const char *pb_version(void)
{
    return PB_VERSION;
}

double pb_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
