/* The command line's optional parts, loaded when first used (issue 21): the visualiser
 * (planbench-viz.so: display.c, view.c and SDL2) and the simulation service (planbench-sim.so:
 * serve.c, libwebsockets). Plain planning links neither, so `planbench --version` and a solve
 * do not load SDL2, its audio and display libraries, libwebsockets or OpenSSL.
 *
 * A module is looked for in $PLANBENCH_MODULE_DIR, then beside the planbench executable (the
 * build tree), then in the installed module folder (PB_MODULE_DIR). The functions here have
 * the names and contracts cli.h gives them and forward to the module's; without the module
 * they say what is missing and return as a build without that part would. */
#include "cli.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PB_MODULE_DIR
#define PB_MODULE_DIR "/usr/local/lib/planbench"
#endif

#ifndef PB_CLI_HAVE_VIZ /* set by meson: whether this build made the module */
#define PB_CLI_HAVE_VIZ 1
#endif
#ifndef PB_CLI_HAVE_SIM
#define PB_CLI_HAVE_SIM 1
#endif

typedef struct cli_module {
    const char *name;  /* planbench-<name>.so */
    bool built;        /* this build made it (else there is nothing to look for) */
    const char *lacks; /* what a build without it says: the option and the package */
    bool tried;
    void *handle;
    char why[PATH_MAX + 512]; /* why it could not be loaded */
} cli_module;

static cli_module viz_module = {
    .name = "viz",
    .built = PB_CLI_HAVE_VIZ,
    .lacks = "this build has no planbench-viz.so: it was configured without SDL2 (install libsdl2-dev, then "
             "meson setup --reconfigure -Dviz=enabled)",
};
static cli_module sim_module = {
    .name = "sim",
    .built = PB_CLI_HAVE_SIM,
    .lacks =
        "this build has no planbench-sim.so: it was configured without the simulation service (install "
        "libwebsockets-dev, libjansson-dev and libxml2-dev, then meson setup --reconfigure -Dsim=enabled)",
};

static void *try_dir(cli_module *m, const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/planbench-%s.so", dir, m->name) >= (int)sizeof path)
        return NULL;
    if (access(path, F_OK) != 0)
        return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(m->why, sizeof m->why, "%s", e ? e : path);
    }
    return handle;
}

static bool module_load(cli_module *m)
{
    if (m->tried)
        return m->handle != NULL;
    m->tried = true;
    if (!m->built) {
        snprintf(m->why, sizeof m->why, "%s", m->lacks);
        return false;
    }
    snprintf(m->why, sizeof m->why, "planbench-%s.so is not installed beside planbench nor in %s", m->name,
             PB_MODULE_DIR);
    const char *env = getenv("PLANBENCH_MODULE_DIR");
    if (env && *env && (m->handle = try_dir(m, env)))
        return true;
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if ((m->handle = try_dir(m, exe)))
                return true;
        }
    }
    m->handle = try_dir(m, PB_MODULE_DIR);
    return m->handle != NULL;
}

/* The module's function `symbol`, or NULL (then m->why says why). */
static void *module_symbol(cli_module *m, const char *symbol)
{
    if (!module_load(m))
        return NULL;
    void *f = dlsym(m->handle, symbol);
    if (!f)
        snprintf(m->why, sizeof m->why, "planbench-%s.so has no %s", m->name, symbol);
    return f;
}

/* ISO C forbids converting void * to a function pointer; POSIX allows it through memcpy. */
#define MODULE_FN(module, type, name)                                                                        \
    type name##_fn = NULL;                                                                                   \
    do {                                                                                                     \
        void *p_ = module_symbol(&(module), #name);                                                          \
        if (p_)                                                                                              \
            memcpy(&name##_fn, &p_, sizeof p_);                                                              \
    } while (0)

const char cli_display_missing[] =
    "this planbench has no display: planbench-viz.so (SDL2) could not be loaded";

/* Say why `what` (the command or option) cannot run: the build lacks the module (and how to
 * build it), or the module did not load (and the loader's reason). */
static void module_error(const char *what, const cli_module *m, const char *missing)
{
    if (!m->built)
        cli_error("%s: %s", what, m->why);
    else
        cli_error("%s: %s (%s)", what, missing, m->why);
}

typedef bool (*available_fn)(void);
typedef int (*open_fn)(cli_display **, pb_engine *, pb_planner *, const pb_problem *,
                       const cli_display_options *);
typedef int (*solve_fn)(cli_display *, const pb_stop_config *, pb_result *);
typedef int (*finish_fn)(cli_display *, const pb_stop_config *, pb_result *, bool);
typedef void (*close_fn)(cli_display *);
typedef bool (*stopped_fn)(const cli_display *);
typedef int (*main_fn)(int, char **);

bool cli_display_available(void)
{
    MODULE_FN(viz_module, available_fn, cli_display_available);
    if (!cli_display_available_fn) {
        module_error("--display", &viz_module, cli_display_missing);
        return false;
    }
    return cli_display_available_fn();
}

int cli_display_open(cli_display **out, pb_engine *engine, pb_planner *planner, const pb_problem *problem,
                     const cli_display_options *options)
{
    *out = NULL;
    MODULE_FN(viz_module, open_fn, cli_display_open);
    if (!cli_display_open_fn) {
        module_error("--display", &viz_module, cli_display_missing);
        return PB_EXIT_BAD_INPUT;
    }
    return cli_display_open_fn(out, engine, planner, problem, options);
}

int cli_display_solve(cli_display *display, const pb_stop_config *stop, pb_result *result)
{
    MODULE_FN(viz_module, solve_fn, cli_display_solve);
    return cli_display_solve_fn ? cli_display_solve_fn(display, stop, result) : PB_EXIT_BAD_INPUT;
}

int cli_display_finish(cli_display *display, const pb_stop_config *stop, pb_result *result, bool quiet)
{
    MODULE_FN(viz_module, finish_fn, cli_display_finish);
    return cli_display_finish_fn ? cli_display_finish_fn(display, stop, result, quiet) : -1;
}

bool cli_display_stopped_for_screenshot(const cli_display *display)
{
    if (!display)
        return false;
    MODULE_FN(viz_module, stopped_fn, cli_display_stopped_for_screenshot);
    return cli_display_stopped_for_screenshot_fn && cli_display_stopped_for_screenshot_fn(display);
}

void cli_display_close(cli_display *display)
{
    if (!display)
        return;
    MODULE_FN(viz_module, close_fn, cli_display_close);
    if (cli_display_close_fn)
        cli_display_close_fn(display);
}

int cli_view(int argc, char **argv)
{
    MODULE_FN(viz_module, main_fn, cli_view);
    if (!cli_view_fn) {
        module_error("view", &viz_module, cli_display_missing);
        return PB_EXIT_BAD_INPUT;
    }
    return cli_view_fn(argc, argv);
}

int cli_serve(int argc, char **argv)
{
    MODULE_FN(sim_module, main_fn, cli_serve);
    if (!cli_serve_fn) {
        module_error(
            "serve", &sim_module,
            "this planbench has no simulation service: planbench-sim.so (libwebsockets) could not be "
            "loaded");
        return PB_EXIT_BAD_INPUT;
    }
    return cli_serve_fn(argc, argv);
}
