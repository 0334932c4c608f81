/* Fuzz target for the benchmark journal reader (runs.jsonl, read back by --resume): any input
 * yields records whose problem, planner and run lie inside the script, with their cost traces
 * and run records (`, "record": {...}`), or none; never a crash, a leak or an assertion. The input is written
 * to a temporary file because the reader reads a journal file. */
#include "bench/bench_internal.h"
#include "planbench/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char script_text[] = "[benchmark]\nname = fuzz\nruns = 3\ntime_limit = 1\n"
                                  "[problem.p1]\nmap = a.png\n[problem.p2]\nengine = blackbox\n"
                                  "[planner.rrt]\nlabel = RRT\n[planner.birrt]\nlabel = RRT-Connect\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pb_bench_script *script;
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    if (!script &&
        pb_bench_script_parse(&script, script_text, sizeof script_text - 1, "fuzz.ini", &diag) != PB_OK)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/tmp/pb_fuzz_jsonl_%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    pb_bench_results *results = calloc(1, sizeof *results);
    if (!results)
        abort();
    if (pb_bench_read_jsonl(script, path, results, &diag) == PB_OK) {
        for (size_t i = 0; i < results->n; i++) {
            const pb_bench_record *r = &results->records[i];
            if (r->problem >= script->n_problems || r->planner >= script->n_planners ||
                r->run >= script->runs)
                abort();
            if (r->n_cost_trace && !r->cost_trace)
                abort();
            /* a run's record is kept as the object member the writer writes */
            if (r->record && strncmp(r->record, ", \"record\": {", 13) != 0)
                abort();
        }
    }
    pb_bench_results_destroy(results);
    unlink(path);
    return 0;
}
