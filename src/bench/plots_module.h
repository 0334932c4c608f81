/* The benchmark figures as a module (issue 21): plots.c and figure.c, with cairo and its 15
 * libraries (pixman, fontconfig, freetype, X11, ...), are built into planbench-plots.so, which
 * plots_loader.c loads on the first use of --plot, so no other process maps them. Private to
 * src/bench: the one function the module exports. */
#ifndef PB_BENCH_PLOTS_MODULE_H
#define PB_BENCH_PLOTS_MODULE_H

#include "planbench/bench.h"

/** The module's file and the name of its entry point. */
#define PB_PLOTS_MODULE       "planbench-plots.so"
#define PB_PLOTS_MODULE_ENTRY "planbench_plots_save"

/** pb_bench_save_plots() itself (see bench.h), once the module is loaded. */
typedef pb_status pb_plots_save_fn(const pb_bench_script *script, const pb_bench_results *results,
                                   const char *dir, pb_diag *diag);
__attribute__((visibility("default"))) pb_plots_save_fn planbench_plots_save;

#endif
