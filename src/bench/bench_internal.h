/* Shared between the files of src/bench (private): run set-up, the runs.jsonl record format
 * and JSON/CSV number formatting. Public API only underneath. */
#ifndef PB_BENCH_INTERNAL_H
#define PB_BENCH_INTERNAL_H

#include "planbench/bench.h"

/** Most engine options a problem may pass. */
#define PB_BENCH_MAX_OPTIONS 32

/** Load problem `problem_index`'s engine (owned by the caller) and its start and goal
 * (PB_MAX_DIM values each). `diag` names the script line and key at fault. */
pb_status pb_bench_setup_problem(const pb_bench_script *s, size_t problem_index, pb_engine **engine,
                                 double *start, double *goal, pb_diag *diag);
/** Create planner `planner_index` on `engine` with the script's parameters set. */
pb_status pb_bench_setup_planner(const pb_bench_script *s, size_t planner_index, pb_engine *engine,
                                 pb_planner **planner, pb_diag *diag);

/** Free what `rec` owns (its cost trace and record); the record itself is the caller's. */
void pb_bench_record_finish(pb_bench_record *rec);
/** Write `rec` as one JSON object (no newline). */
void pb_bench_write_record_json(FILE *out, const pb_bench_script *s, const pb_bench_record *rec);
/** The records of (problem, planner) with status `ok` or any status (`only_ok` false):
 * pointers into `r`, in run order, into `out` (room for r->n); returns how many. */
size_t pb_bench_select(const pb_bench_results *r, uint32_t problem, uint32_t planner, bool only_ok,
                       const pb_bench_record **out);
/** Append `rec` as one JSON line to `fd` in a single write, then fsync. */
pb_status pb_bench_append_jsonl(int fd, const pb_bench_script *s, const pb_bench_record *rec);
/** Read the records of runs.jsonl that belong to `s` (matching problem name, planner label
 * and a run index below s->runs; the first of duplicates wins) into `r`. A missing file is
 * no record; a malformed line (a write cut short) is skipped. */
pb_status pb_bench_read_jsonl(const pb_bench_script *s, const char *path, pb_bench_results *r, pb_diag *diag);

/** Longest journal header line. */
#define PB_BENCH_HEADER_MAX 1024
/** The journal header line (no newline) for `s` as it will run, shard I of N (0 of 1 unsharded). */
void pb_bench_journal_header(const pb_bench_script *s, uint32_t shard_index, uint32_t shard_count, char *buf,
                             size_t capacity);
/** Check that the journal open on `fd` starts with `expected`, or write it when the file is empty. */
pb_status pb_bench_journal_check(int fd, const char *path, const char *expected, pb_diag *diag);
/** Sort records by (problem, planner, run). */
void pb_bench_sort_records(pb_bench_results *r);
/** Append a copy of `rec` (taking its cost trace) to `r`. */
pb_status pb_bench_append_record(pb_bench_results *r, const pb_bench_record *rec);
/** mkdir -p. */
bool pb_bench_make_dirs(const char *path);

#endif
