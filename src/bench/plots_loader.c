/* pb_bench_save_plots() in the library: it loads planbench-plots.so (plots_module.h) on first
 * use and forwards to it, so that the library itself links no cairo. */
#include "bench/plots_module.h"
#include "core/module.h"

#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pb_plots_save_fn *save;
static char why[1024];

static void load(void)
{
#if PB_HAVE_CAIRO
    void *handle = pb_module_open(PB_PLOTS_MODULE, why, sizeof why);
    if (!handle)
        return;
    if (!(save = (pb_plots_save_fn *)pb_module_symbol(handle, PB_PLOTS_MODULE_ENTRY)))
        snprintf(why, sizeof why, "%s has no %s", PB_PLOTS_MODULE, PB_PLOTS_MODULE_ENTRY);
#else
    snprintf(why, sizeof why,
             "this build has no plotting: it was configured without cairo (install libcairo2-dev, then meson "
             "setup "
             "--reconfigure -Dplots=enabled)");
#endif
}

bool pb_bench_has_plots(void)
{
    pthread_once(&once, load);
    return save != NULL;
}

const char *pb_bench_plots_missing(void)
{
    return pb_bench_has_plots() ? NULL : why;
}

pb_status pb_bench_save_plots(const pb_bench_script *script, const pb_bench_results *results, const char *dir,
                              pb_diag *diag)
{
    if (!pb_bench_has_plots()) {
        pb_diag_set(diag, dir, 0, 0, "%s", why);
        return PB_ERR_UNSUPPORTED;
    }
    return save(script, results, dir, diag);
}
