/* Fuzz target for the benchmark script parser: any input either parses into a script whose
 * every string is set and whose numbers are in range, or fails with a non-empty message and
 * a line inside the text; never a crash, a leak or an assertion. */
#include "planbench/bench.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pb_bench_script *script = NULL;
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    const pb_status status = pb_bench_script_parse(&script, (const char *)data, size, "fuzz.ini", &diag);
    if (status == PB_OK) {
        if (!script || !script->name || script->n_problems == 0 || script->n_planners == 0 ||
            script->runs < 1 || !(script->time_limit_s > 0.0) || !(script->memory_limit_mb >= 0.0))
            abort();
        for (size_t i = 0; i < script->n_problems; i++)
            if (!script->problems[i].name || (!script->problems[i].map && !script->problems[i].engine))
                abort();
        for (size_t i = 0; i < script->n_planners; i++)
            if (!script->planners[i].label || !script->planners[i].planner)
                abort();
        pb_bench_script_destroy(script);
    } else {
        if (script != NULL || diag.message[0] == '\0' || diag.line < 0)
            abort();
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if ((size_t)diag.line > lines)
            abort();
    }
    return 0;
}
