/* Loading the library's optional parts (see module.h). */
#define _GNU_SOURCE /* dladdr() */
#include "core/module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PB_MODULE_DIR /* the installed module folder, set by meson */
#define PB_MODULE_DIR "/usr/local/lib/planbench"
#endif

static void *try_path(const char *dir, const char *sub, const char *file, char *why, size_t size)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s%s/%s", dir, sub, file) >= (int)sizeof path || access(path, F_OK) != 0)
        return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(why, size, "%s", e ? e : path);
    }
    return handle;
}

void *pb_module_open(const char *file, char *why, size_t size)
{
    snprintf(why, size, "%s is not installed (looked in $PLANBENCH_MODULE_DIR, beside libplanbench, in %s)",
             file, PB_MODULE_DIR);
    void *handle = NULL;
    const char *env = getenv("PLANBENCH_MODULE_DIR");
    if (env && *env && (handle = try_path(env, "", file, why, size)))
        return handle;
    static const char anchor = 0; /* an address inside this library */
    Dl_info self;
    if (dladdr(&anchor, &self) && self.dli_fname) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", self.dli_fname);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            if ((handle = try_path(dir, "/planbench", file, why, size)) ||
                (handle = try_path(dir, "", file, why, size)))
                return handle;
        }
    }
    if ((handle = try_path(PB_MODULE_DIR, "", file, why, size)))
        return handle;
#ifdef PB_BUILD_MODULE_DIR /* the build tree, for the tests and for running uninstalled */
    handle = try_path(PB_BUILD_MODULE_DIR, "", file, why, size);
#endif
    return handle;
}

void *pb_module_open_system(const char *soname, char *why, size_t size)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(why, size, "%s", e ? e : soname);
    }
    return handle;
}

pb_module_fn pb_module_symbol(void *handle, const char *name)
{
    void *p = dlsym(handle, name);
    pb_module_fn f = NULL;
    if (p)
        memcpy(&f, &p, sizeof p);
    return f;
}
