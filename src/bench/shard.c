/* Benchmarks past one machine: the journal header (what a journal's runs were made under), the
 * shard a launcher started us as, the CPUs we may use, and merging the shards' journals.
 * The header is one fixed-format JSON line, so two headers are compared as text; a journal
 * whose header differs from the one this invocation would write is refused, never mixed. */
#define _GNU_SOURCE
#include "bench/bench_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* FNV-1a over the script file's bytes: a changed script is a different benchmark. */
static uint64_t script_hash(const pb_bench_script *s)
{
    uint64_t h = 1469598103934665603ull;
    FILE *fp = s->path ? fopen(s->path, "rb") : NULL;
    if (!fp)
        return 0;
    int c;
    while ((c = getc(fp)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ull;
    fclose(fp);
    return h;
}

pb_status pb_bench_append_record(pb_bench_results *r, const pb_bench_record *rec)
{
    if (r->n == r->capacity) {
        const size_t cap = r->capacity ? 2 * r->capacity : 64;
        pb_bench_record *grown = realloc(r->records, cap * sizeof *grown);
        if (!grown)
            return PB_ERR_NOMEM;
        r->records = grown;
        r->capacity = cap;
    }
    r->records[r->n++] = *rec;
    return PB_OK;
}

bool pb_bench_make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return false;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

pb_status pb_bench_make_output_dir(const char *dir, pb_diag *diag)
{
    if (!pb_bench_make_dirs(dir)) {
        pb_diag_set(diag, dir, 0, 0, "cannot create the folder: %s", strerror(errno));
        return PB_ERR_IO;
    }
    if (access(dir, W_OK) != 0) {
        pb_diag_set(diag, dir, 0, 0, "cannot write in the folder: %s", strerror(errno));
        return PB_ERR_IO;
    }
    return PB_OK;
}

static const char *const stop_names[PB_BENCH_STOP_COUNT] = {"auto", "first", "budget"};

void pb_bench_journal_header(const pb_bench_script *s, uint32_t shard_index, uint32_t shard_count, char *buf,
                             size_t capacity)
{
    snprintf(
        buf, capacity,
        "{\"planbench_journal\": 1, \"script_hash\": \"%016llx\", \"runs\": %u, \"time_limit_s\": %.17g, "
        "\"memory_limit_mb\": %.17g, \"seed\": %llu, \"stop\": \"%s\", \"max_iterations\": %llu, "
        "\"shard\": [%u, %u]}",
        (unsigned long long)script_hash(s), (unsigned)s->runs, s->time_limit_s, s->memory_limit_mb,
        (unsigned long long)s->seed, stop_names[s->stop], (unsigned long long)s->max_iterations,
        (unsigned)shard_index, (unsigned)shard_count);
}

/* The journal's first line into `line` (without its newline); false when the file is empty. */
static bool first_line(int fd, char *line, size_t capacity)
{
    const ssize_t n = pread(fd, line, capacity - 1, 0);
    if (n <= 0) {
        line[0] = '\0';
        return false;
    }
    line[n] = '\0';
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    return true;
}

pb_status pb_bench_journal_check(int fd, const char *path, const char *expected, pb_diag *diag)
{
    char line[PB_BENCH_HEADER_MAX];
    if (!first_line(fd, line, sizeof line)) {
        const size_t n = strlen(expected);
        if (pwrite(fd, expected, n, 0) != (ssize_t)n || pwrite(fd, "\n", 1, (off_t)n) != 1) {
            pb_diag_set(diag, path, 0, 0, "cannot write the journal header: %s", strerror(errno));
            return PB_ERR_IO;
        }
        return PB_OK;
    }
    if (strcmp(line, expected) != 0) {
        pb_diag_set(diag, path, 1, 0,
                    "this journal was written for a different benchmark (script, runs, limits, seed, stop or "
                    "shard differ): it has %s, this run would write %s; use another --out or remove it",
                    line, expected);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

int pb_bench_shard_from_env(uint32_t count)
{
    static const char *const names[] = {
        "SLURM_ARRAY_TASK_ID", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
        "PMIX_RANK",           "PARALLEL_SEQ"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (!v || !*v)
            continue;
        char *end = NULL;
        errno = 0;
        long long k = strtoll(v, &end, 10);
        if (errno || *end || k < 0)
            return -1;
        if (strcmp(names[i], "PARALLEL_SEQ") == 0)
            k--; /* GNU parallel counts from 1 */
        return k >= 0 && k < (long long)count ? (int)k : -1;
    }
    return -1;
}

int pb_bench_available_cpus(void)
{
    const char *v = getenv("SLURM_CPUS_PER_TASK");
    if (v && *v) {
        char *end = NULL;
        const long n = strtol(v, &end, 10);
        if (!*end && n > 0 && n <= 1024)
            return (int)n;
    }
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int by_index(const void *a, const void *b)
{
    const pb_bench_record *x = a, *y = b;
    if (x->problem != y->problem)
        return x->problem < y->problem ? -1 : 1;
    if (x->planner != y->planner)
        return x->planner < y->planner ? -1 : 1;
    return x->run < y->run ? -1 : x->run > y->run;
}

void pb_bench_sort_records(pb_bench_results *r)
{
    if (r->n > 1)
        qsort(r->records, r->n, sizeof *r->records, by_index);
}

/* The shard count a journal's header names, after checking that the rest equals `expected`
 * (a header for shard 0 of 1); 0 when it does not. */
static uint32_t header_shards(const char *path, const char *expected, uint32_t *index, pb_diag *diag)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pb_diag_set(diag, path, 0, 0, "cannot read the journal: %s", strerror(errno));
        return 0;
    }
    char line[PB_BENCH_HEADER_MAX];
    const bool any = first_line(fd, line, sizeof line);
    close(fd);
    const char *tail = strstr(expected, "\"shard\": [");
    const size_t prefix = (size_t)(tail - expected) + strlen("\"shard\": [");
    unsigned i = 0, n = 0;
    char close_brackets[3] = "";
    if (!any || strncmp(line, expected, prefix) != 0 ||
        sscanf(line + prefix, "%u, %u%2[]}]", &i, &n, close_brackets) != 3 ||
        strcmp(close_brackets, "]}") != 0 || n == 0 || i >= n) {
        pb_diag_set(
            diag, path, 1, 0,
            "not a journal of this benchmark (script, runs, limits, seed or stop differ, or no header): "
            "expected a header like %s",
            expected);
        return 0;
    }
    *index = i;
    return n;
}

/* pb_bench_results_destroy's work, kept here so that runner.c alone calls into this file */
static void free_results(pb_bench_results *r)
{
    for (size_t i = 0; r && i < r->n; i++)
        pb_bench_record_finish(&r->records[i]);
    if (r)
        free(r->records);
    free(r);
}

static pb_status write_merged(const pb_bench_script *s, const pb_bench_results *r, const char *dir,
                              pb_diag *diag)
{
    char path[4200], tmp[4300], header[PB_BENCH_HEADER_MAX];
    snprintf(path, sizeof path, "%s/runs.jsonl", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    pb_status st = fd < 0 ? PB_ERR_IO : PB_OK;
    pb_bench_journal_header(s, 0, 1, header, sizeof header);
    if (st == PB_OK)
        st = pb_bench_journal_check(fd, tmp, header, diag);
    if (st == PB_OK && lseek(fd, 0, SEEK_END) < 0)
        st = PB_ERR_IO;
    for (size_t i = 0; st == PB_OK && i < r->n; i++)
        st = pb_bench_append_jsonl(fd, s, &r->records[i]);
    if (fd >= 0 && close(fd) != 0)
        st = PB_ERR_IO;
    if (st == PB_OK && rename(tmp, path) != 0)
        st = PB_ERR_IO;
    if (st != PB_OK) {
        unlink(tmp);
        pb_diag_set(diag, path, 0, 0, "cannot write the merged journal: %s", strerror(errno));
    }
    return st;
}

pb_status pb_bench_merge(pb_bench_results **out, pb_bench_script *s, const pb_bench_config *options,
                         const char *const *journals, size_t n_journals, pb_diag *diag)
{
    *out = NULL;
    if (options->runs > 0)
        s->runs = options->runs;
    if (options->time_limit_s > 0.0)
        s->time_limit_s = options->time_limit_s;
    char dir[4096];
    if (options->out_dir)
        snprintf(dir, sizeof dir, "%s", options->out_dir);
    else
        snprintf(dir, sizeof dir, "bench/out/%s", s->name);
    glob_t found = {0};
    if (n_journals == 0) {
        char pattern[4200];
        snprintf(pattern, sizeof pattern, "%s/shard-*-of-*/runs.jsonl", dir);
        if (glob(pattern, 0, NULL, &found) != 0 || found.gl_pathc == 0) {
            globfree(&found);
            pb_diag_set(diag, dir, 0, 0, "no shard journals (shard-I-of-N/runs.jsonl) to merge");
            return PB_ERR_NOT_FOUND;
        }
        journals = (const char *const *)found.gl_pathv;
        n_journals = found.gl_pathc;
    }
    char expected[PB_BENCH_HEADER_MAX];
    pb_bench_journal_header(s, 0, 1, expected, sizeof expected);
    const size_t total = s->n_problems * s->n_planners * (size_t)s->runs;
    bool *have = calloc(total ? total : 1, 1);
    pb_bench_results *r = calloc(1, sizeof *r);
    pb_status st = have && r ? PB_OK : PB_ERR_NOMEM;
    uint32_t n_shards = 0;
    for (size_t j = 0; st == PB_OK && j < n_journals; j++) {
        uint32_t index = 0;
        const uint32_t n = header_shards(journals[j], expected, &index, diag);
        if (n == 0 || (n_shards && n != n_shards)) {
            if (n)
                pb_diag_set(diag, journals[j], 1, 0, "a journal of %u shards among journals of %u",
                            (unsigned)n, (unsigned)n_shards);
            st = PB_ERR_INVALID;
            break;
        }
        n_shards = n;
        pb_bench_results one = {0};
        st = pb_bench_read_jsonl(s, journals[j], &one, diag);
        r->total_s += one.total_s;
        for (size_t i = 0; i < one.n; i++) {
            pb_bench_record *rec = &one.records[i];
            const size_t k = ((size_t)rec->problem * s->n_planners + rec->planner) * s->runs + rec->run;
            if (st != PB_OK || have[k] || pb_bench_append_record(r, rec) != PB_OK) {
                pb_bench_record_finish(rec);
                continue;
            }
            have[k] = true;
        }
        free(one.records);
    }
    globfree(&found);
    if (st == PB_OK) {
        pb_bench_sort_records(r);
        r->n_resumed = r->n;
        if (!pb_bench_make_dirs(dir))
            st = PB_ERR_IO;
    }
    if (st == PB_OK && r->n < total) {
        /* name the shards that lack runs, as an sbatch --array list */
        char list[1024] = "";
        size_t len = 0, n_missing_shards = 0;
        for (uint32_t shard = 0; shard < n_shards; shard++) {
            bool missing = false;
            for (size_t k = shard; k < total && !missing; k += n_shards)
                missing = !have[k];
            if (missing && len + 16 < sizeof list) {
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", n_missing_shards ? "," : "",
                                        shard);
                n_missing_shards++;
            }
        }
        pb_diag_set(
            diag, dir, 0, 0,
            "%zu of %zu runs are missing, from %zu of %u shards: %s (re-run them, e.g. sbatch --array=%s, "
            "or merge anyway with --allow-missing)",
            total - r->n, total, n_missing_shards, (unsigned)n_shards, list, list);
        st = PB_ERR_NOT_FOUND;
    }
    if ((st == PB_OK || (st == PB_ERR_NOT_FOUND && options->allow_missing)) &&
        write_merged(s, r, dir, diag) != PB_OK)
        st = PB_ERR_IO;
    free(have);
    if (st == PB_OK || (st == PB_ERR_NOT_FOUND && options->allow_missing))
        *out = r;
    else
        free_results(r);
    return st;
}
