/* A planbench plugin: a C-space in a shared object, for
 *
 *     planbench rrt --engine blackbox --plugin ./libplugin_world.so
 *
 * (built by examples/meson.build; by hand: cc -shared -fPIC plugin_world.c -o libplugin_world.so).
 * It needs nothing from planbench: the ABI is these plain C functions (see
 * include/planbench/blackbox.h and examples/README.md).
 *
 * The world: the square [0, 10]^2 with a wall at x = 5 that has a gap 1 wide at y in [8, 9]
 * (the gap's position can be moved with the environment variable PLUGIN_WORLD_GAP, to show
 * planbench_init at work), and a disc in the way.
 *
 * planbench_clearance gives the distance to the nearest obstacle (or to the bounds' edge),
 * which makes planbench certify every edge instead of sampling it. Built with
 * -DPLUGIN_WORLD_NO_CLEARANCE it has none, and edges are sampled. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

typedef struct world {
    double gap_low; /* the gap in the wall spans [gap_low, gap_low + 1] */
} world;

EXPORT void *planbench_init(void);
EXPORT void planbench_fini(void *ctx);
EXPORT int planbench_bounds(double *lower, double *upper, int max_dim);
EXPORT int planbench_defaults(double *start, double *goal, int max_dim);
EXPORT bool planbench_feasible(const double *q, void *ctx);
#ifndef PLUGIN_WORLD_NO_CLEARANCE
EXPORT double planbench_clearance(const double *q, void *ctx);
#endif

/* Called once after loading: the result is `ctx` in every planbench_feasible call. */
void *planbench_init(void)
{
    world *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    const char *gap = getenv("PLUGIN_WORLD_GAP");
    w->gap_low = gap ? atof(gap) : 8.0;
    return w;
}

/* Called with that context when the engine is destroyed. */
void planbench_fini(void *ctx)
{
    free(ctx);
}

/* The space's dimension and bounds (used when no --bounds is given). */
int planbench_bounds(double *lower, double *upper, int max_dim)
{
    if (max_dim < 2)
        return 0;
    lower[0] = lower[1] = 0.0;
    upper[0] = upper[1] = 10.0;
    return 2;
}

/* A default start and goal (used when the command line gives none). */
int planbench_defaults(double *start, double *goal, int max_dim)
{
    if (max_dim < 2)
        return 0;
    start[0] = 1.0;
    start[1] = 1.0;
    goal[0] = 9.0;
    goal[1] = 1.0;
    return 2;
}

/* True when q is free. */
bool planbench_feasible(const double *q, void *ctx)
{
    const world *w = ctx;
    const double gap_low = w ? w->gap_low : 8.0;
    if (fabs(q[0] - 5.0) < 0.25 && !(q[1] >= gap_low && q[1] <= gap_low + 1.0))
        return false;
    const double dx = q[0] - 2.5, dy = q[1] - 5.0;
    return dx * dx + dy * dy >= 1.5 * 1.5;
}

#ifndef PLUGIN_WORLD_NO_CLEARANCE
/* Distance from q to the box [x0, x1] x [y0, y1] (0 inside). */
static double box_distance(const double *q, double x0, double x1, double y0, double y1)
{
    const double dx = fmax(fmax(x0 - q[0], q[0] - x1), 0.0), dy = fmax(fmax(y0 - q[1], q[1] - y1), 0.0);
    return sqrt(dx * dx + dy * dy);
}

/* A lower bound on the distance from q to the nearest blocked configuration: the two parts of
 * the wall, the disc and the outside of [0, 10]^2 (0 when q is not free). The environment
 * variable PLUGIN_WORLD_BAD_CLEARANCE makes it return that number instead, to show what
 * planbench says of a broken callback. */
double planbench_clearance(const double *q, void *ctx)
{
    const char *bad = getenv("PLUGIN_WORLD_BAD_CLEARANCE");
    if (bad)
        return strtod(bad, NULL);
    if (!planbench_feasible(q, ctx))
        return 0.0;
    const world *w = ctx;
    const double gap_low = w ? w->gap_low : 8.0;
    double d = fmin(fmin(q[0], 10.0 - q[0]), fmin(q[1], 10.0 - q[1]));
    d = fmin(d, box_distance(q, 4.75, 5.25, 0.0, gap_low));
    d = fmin(d, box_distance(q, 4.75, 5.25, gap_low + 1.0, 10.0));
    d = fmin(d, hypot(q[0] - 2.5, q[1] - 5.0) - 1.5);
    return fmax(d, 0.0);
}
#endif
