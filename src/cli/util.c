#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    fputs("planbench: ", stderr);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
}

void cli_diag(const pb_diag *diag)
{
    char buf[1024];
    pb_diag_format(diag, buf, sizeof buf);
    cli_error("%s", buf);
}

bool cli_parse_double(const char *what, const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end != text && *end == '\0' && errno == ERANGE) {
        cli_error("%s: '%s' is out of the range of a double (%s)", what, text,
                  fabs(v) < 1.0 ? "too close to zero: below 2.2e-308" : "too large");
        return false;
    }
    if (end == text || *end != '\0' || !isfinite(v)) {
        cli_error("%s: expected a number, got '%s'", what, text);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_u64(const char *what, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (text[0] == '-' || text[0] == '\0') {
        cli_error("%s: expected a whole number >= 0, got '%s'", what, text);
        return false;
    }
    const unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE) {
        cli_error("%s: expected a whole number >= 0, got '%s'", what, text);
        return false;
    }
    *out = v;
    return true;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cli_maps_dir(void)
{
    const char *env = getenv("PLANBENCH_MAPS");
    if (env && is_dir(env))
        return env;
    if (is_dir("maps"))
        return "maps";
    return cli_bundled_maps_dir();
}

const char *cli_bundled_maps_dir(void)
{
    const char *env = getenv("PLANBENCH_MAPS");
    if (env && is_dir(env))
        return env;
#ifdef PB_SOURCE_MAPS
    if (is_dir(PB_SOURCE_MAPS))
        return PB_SOURCE_MAPS;
#endif
#ifdef PB_INSTALLED_MAPS
    if (is_dir(PB_INSTALLED_MAPS))
        return PB_INSTALLED_MAPS;
#endif
    return NULL;
}

const char *cli_resolve_map(const char *path, char *buf, size_t size)
{
    struct stat st;
    if (stat(path, &st) == 0 || strchr(path, '/'))
        return path;
    const char *dir = cli_maps_dir();
    if (!dir)
        return path;
    snprintf(buf, size, "%s/%s", dir, path);
    return stat(buf, &st) == 0 ? buf : path;
}

void json_config(FILE *out, const double *q, int dim)
{
    fputc('[', out);
    for (int i = 0; i < dim; i++) {
        if (i)
            fputs(", ", out);
        pb_json_write_number(out, q[i]);
    }
    fputc(']', out);
}

bool cli_folder_writable(const char *path, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        cli_error("%s %s: no such folder (%s)", what, path, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_error("%s %s: not a folder", what, path);
        return false;
    }
    if (access(path, W_OK) != 0) {
        cli_error("%s %s: cannot write in this folder: %s", what, path, strerror(errno));
        return false;
    }
    return true;
}

bool cli_output_writable(const char *path, const char *what)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (access(dir, W_OK) != 0) {
        cli_error("%s %s: cannot write in folder %s: %s", what, path, dir, strerror(errno));
        return false;
    }
    return true;
}

pb_atomic_flag cli_interrupt_flag;
volatile sig_atomic_t cli_interrupt_signal;

static void on_interrupt(int sig)
{
    if (atomic_load(&cli_interrupt_flag))
        _exit(128 + sig);
    cli_interrupt_signal = sig;
    atomic_store(&cli_interrupt_flag, 1);
}

void cli_catch_interrupts(bool on)
{
    if (on) {
        atomic_store(&cli_interrupt_flag, 0);
        cli_interrupt_signal = 0;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on ? on_interrupt : SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}
