/* `planbench list`: engines, planners with their parameters, bundled maps and worlds, the
 * current folder's maps. */
#include "cli.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *type_name(pb_param_type t)
{
    switch (t) {
    case PB_PARAM_DOUBLE:
        return "real";
    case PB_PARAM_INT:
        return "int";
    case PB_PARAM_BOOL:
        return "bool";
    case PB_PARAM_TYPE_COUNT:
        break;
    }
    return "?";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The maps of folder `dir` that planbench reads, under `title`; files that are not (a broken
 * PNG, one we may not read) are counted, not listed. */
static void list_map_folder(const char *title, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("\n%s (%s): cannot open the folder\n", title, dir);
        return;
    }
    printf("\n%s (%s):\n", title, dir);
    char *names[256];
    size_t n = 0, skipped = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) && n < 256) {
        const size_t len = strlen(ent->d_name);
        if ((len > 4 && strcmp(ent->d_name + len - 4, ".png") == 0) ||
            (len > 5 && strcmp(ent->d_name + len - 5, ".yaml") == 0)) /* map_server maps (issue 17) */
            names[n++] = strdup(ent->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        pb_engine *engine = NULL;
        pb_diag diag = {0};
        if (pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK) {
            double s[PB_MAX_DIM], g[PB_MAX_DIM];
            const double *hi = pb_engine_upper(engine);
            pb_map_frame frame;
            if (pb_engine_map_frame(engine, &frame) && frame.metric)
                printf("  %-16s %5dx%-5d px at %g m", names[i], frame.width, frame.height, frame.resolution);
            else
                printf("  %-16s %5.0fx%-5.0f", names[i], hi[0], hi[1]);
            if (pb_engine_defaults(engine, s, g))
                printf("  start %g,%g  goal %g,%g", s[0], s[1], g[0], g[1]);
            printf("\n");
        } else {
            skipped++;
        }
        pb_engine_destroy(engine);
        free(names[i]);
    }
    if (skipped)
        printf("  (%zu other .png or .yaml file%s not readable as a map)\n", skipped,
               skipped == 1 ? " is" : "s are");
}

/* The maps that came with planbench, then the current folder's maps/ when there is one and it is
 * another folder (a bare map name is looked up there first). */
static void list_maps(void)
{
    const char *dir = cli_bundled_maps_dir();
    if (dir)
        list_map_folder("Bundled maps", dir);
    else
        printf("\nBundled maps: none found (set PLANBENCH_MAPS or install planbench)\n");
    char here[PATH_MAX], bundled[PATH_MAX];
    if (realpath("maps", here) && (!dir || !realpath(dir, bundled) || strcmp(here, bundled) != 0)) {
        struct stat st;
        if (stat(here, &st) == 0 && S_ISDIR(st.st_mode))
            list_map_folder("Maps in the current folder", "maps");
    }
}

/* Bundled worlds (issue 7): worlds/ beside the maps folder, each loaded to show its robot's
 * dimension and whether it has a default start and goal. */
static void list_worlds(void)
{
    const char *maps = cli_bundled_maps_dir();
    char dir[4096];
    if (!maps || snprintf(dir, sizeof dir, "%s/../worlds", maps) >= (int)sizeof dir)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    printf("\nBundled worlds (%s; engine manipulator):\n", dir);
    char *names[256];
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) && n < 256) {
        const size_t len = strlen(ent->d_name);
        if (len > 4 && strcmp(ent->d_name + len - 4, ".xml") == 0)
            names[n++] = strdup(ent->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        char path[8192], head[4096] = "";
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *fp = fopen(path, "rb");
        const size_t got = fp ? fread(head, 1, sizeof head - 1, fp) : 0;
        if (fp)
            fclose(fp);
        head[got] = '\0';
        if (!strstr(head, "<world")) { /* other kinds of world (<simworld>) are listed elsewhere */
            free(names[i]);
            continue;
        }
        pb_engine *engine = NULL;
        pb_diag diag = {0};
        if (pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK) {
            double s[PB_MAX_DIM], g[PB_MAX_DIM];
            printf("  %-24s %d joints%s\n", names[i], pb_engine_dim(engine),
                   pb_engine_defaults(engine, s, g) ? ", default start and goal" : "");
        } else {
            printf("  %-24s (not loaded: %s)\n", names[i], diag.message);
        }
        pb_engine_destroy(engine);
        free(names[i]);
    }
}

int cli_list(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("Engines:\n");
    for (size_t i = 0; i < pb_engine_registry_count(); i++) {
        const pb_engine_impl *e = pb_engine_registry_get(i);
        printf("  %s", pb_engine_impl_name(e));
        const char *const *aliases = pb_engine_impl_aliases(e);
        if (aliases[0]) {
            printf(" (alias");
            for (size_t k = 0; aliases[k]; k++)
                printf(" %s", aliases[k]);
            printf(")");
        }
        printf(": %s\n", pb_engine_impl_summary(e));
        printf("      edges: %s\n", pb_engine_impl_edges(e));
        for (const char *const *o = pb_engine_impl_options_help(e); *o; o++)
            printf("      %s\n", *o);
    }
    printf("\nPlanners (set parameters with --param NAME=VALUE):\n");
    for (size_t i = 0; i < pb_planner_registry_count(); i++) {
        const pb_planner_impl *p = pb_planner_registry_get(i);
        printf("  %s", pb_planner_impl_name(p));
        const char *const *aliases = pb_planner_impl_aliases(p);
        if (aliases[0]) {
            printf(" (alias");
            for (size_t k = 0; aliases[k]; k++)
                printf(" %s", aliases[k]);
            printf(")");
        }
        printf(": %s%s\n", pb_planner_impl_summary(p), pb_planner_impl_anytime(p) ? " [anytime]" : "");
        size_t n;
        const pb_param_def *defs = pb_planner_impl_params(p, &n);
        for (size_t k = 0; k < n; k++) {
            const pb_param_def *d = &defs[k];
            printf("      %-22s %-4s default %-8g range [%g, %g]  %s\n", d->name, type_name(d->type),
                   d->default_value, d->low, d->high > 1e300 ? INFINITY : d->high, d->doc);
        }
    }
    list_maps();
    list_worlds();
    return 0;
}
