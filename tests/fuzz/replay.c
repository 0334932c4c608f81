/* Replay driver: runs LLVMFuzzerTestOneInput on every file named on the command line, and
 * on every regular file inside each directory named, so a fuzz corpus runs as a normal test
 * under any compiler, without libFuzzer. Exit status 0 when every input ran (a crash or an
 * abort in the target fails the test by itself). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data && (got = fread(data + size, 1, capacity - size, fp)) > 0) {
        size += got;
        if (size == capacity) {
            uint8_t *bigger = realloc(data, capacity * 2);
            if (!bigger) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            capacity *= 2;
        }
    }
    int failed = ferror(fp) || !data;
    fclose(fp);
    if (failed) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(data);
        return 1;
    }
    /* an exactly sized copy, so an overread past the input is caught by ASan */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        return 1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file in `dir` in name order (so a run is repeatable). */
static int run_dir(const char *dir_path, int *n_run)
{
    DIR *dir = opendir(dir_path);
    if (!dir) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir_path);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, capacity = 0;
    int errors = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        if (n == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            char **bigger = realloc(names, capacity * sizeof *names);
            if (!bigger) {
                errors++;
                break;
            }
            names = bigger;
        }
        size_t length = strlen(dir_path) + strlen(entry->d_name) + 2;
        names[n] = malloc(length);
        if (!names[n]) {
            errors++;
            break;
        }
        snprintf(names[n], length, "%s/%s", dir_path, entry->d_name);
        n++;
    }
    closedir(dir);
    if (n > 0)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            errors += run_file(names[i]);
            (*n_run)++;
        }
        free(names[i]);
    }
    free(names);
    return errors;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    int errors = 0, n_run = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s does not exist\n", argv[i]);
            errors++;
        } else if (S_ISDIR(st.st_mode)) {
            errors += run_dir(argv[i], &n_run);
        } else {
            errors += run_file(argv[i]);
            n_run++;
        }
    }
    printf("replayed %d inputs, %d errors\n", n_run, errors);
    return errors == 0 && n_run > 0 ? 0 : 1;
}
