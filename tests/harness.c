#include "harness.h"

#include <sys/stat.h>

int pb_test_failures;
int pb_test_checks;

int pb_test_summary(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, pb_test_checks, pb_test_failures);
    return pb_test_failures == 0 ? 0 : 1;
}

const char *pb_test_source_root(void)
{
    const char *root = getenv("PB_SOURCE_ROOT");
    return root ? root : ".";
}

const char *pb_test_shared_root(void)
{
    static char path[4096];
    const char *env = getenv("PB_SHARED_ROOT");
    if (env)
        snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s/../shared", pb_test_source_root());
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return path;
}
