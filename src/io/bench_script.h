/* Benchmark scripts (private to the library): the INI reader behind pb_bench_script_parse().
 * The public side (the script struct, load/parse/check/destroy) is in planbench/bench.h. */
#ifndef PB_IO_BENCH_SCRIPT_H
#define PB_IO_BENCH_SCRIPT_H

#include "planbench/bench.h"

/** Longest script accepted, in bytes. */
#define PB_BENCH_SCRIPT_MAX_SIZE (1u << 20)
/** Most sections of each kind, options per problem and parameters per planner. */
#define PB_BENCH_SCRIPT_MAX_ITEMS 256

#endif
