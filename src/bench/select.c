/* The runs of one planner on one problem, in run order: the table (output.c) and the figures
 * (plots.c, in the module planbench-plots.so, which compiles its own copy) read results
 * through it. */
#include "bench/bench_internal.h"

size_t pb_bench_select(const pb_bench_results *r, uint32_t problem, uint32_t planner, bool only_ok,
                       const pb_bench_record **out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) {
        const pb_bench_record *rec = &r->records[i];
        if (rec->problem == problem && rec->planner == planner &&
            (!only_ok || rec->status == PB_BENCH_RUN_OK))
            out[n++] = rec;
    }
    /* run order (records arrive in completion order) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && out[j - 1]->run > out[j]->run; j--) {
            const pb_bench_record *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}
