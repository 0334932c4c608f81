/* Black-box plugins that misbehave on purpose, for `planbench bench`'s failure handling
 * (built three times: -DPLUGIN_CRASH dereferences NULL after 200 checks, -DPLUGIN_HANG
 * sleeps inside a check, -DPLUGIN_HOG allocates without end). The space is the free unit
 * square with bounds from planbench_bounds. Never part of the library's registry. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool planbench_feasible(const double *q, void *ctx);
int planbench_bounds(double *lower, double *upper, int max_dim);

int planbench_bounds(double *lower, double *upper, int max_dim)
{
    if (max_dim < 2)
        return 0;
    lower[0] = lower[1] = 0.0;
    upper[0] = upper[1] = 1.0;
    return 2;
}

static volatile int calls; /* per process: each benchmark run is its own process */

bool planbench_feasible(const double *q, void *ctx)
{
    (void)ctx;
    calls++;
#if defined(PLUGIN_CRASH)
    if (calls > 200) {
        volatile int *nowhere = NULL;
        return *nowhere != 0;
    }
#elif defined(PLUGIN_HANG)
    if (calls > 200)
        for (;;)
            sleep(1);
#elif defined(PLUGIN_HOG)
    if (calls > 200) {
        for (int i = 0; i < 256; i++) { /* at most 4 GiB, in case no limit holds */
            char *block = malloc(16u << 20);
            if (!block)
                abort(); /* a plugin that cannot cope with running out */
            memset(block, 1, 16u << 20);
        }
        for (;;)
            sleep(1);
    }
#endif
    return q[0] >= 0.0 && q[1] >= 0.0;
}
