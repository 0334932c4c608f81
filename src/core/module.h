/* Optional parts of the library loaded when first used (issue 21): a process that never
 * loads a manipulator world does not map FCL, assimp or the C++ runtime. Private. */
#ifndef PB_CORE_MODULE_H
#define PB_CORE_MODULE_H

#include <stddef.h>

/** dlopen() planbench's module `file` (e.g. "planbench-fcl.so"), looked for in
 * $PLANBENCH_MODULE_DIR, in planbench/ beside the library, in the installed module folder, and
 * in the build tree it was built in. NULL when none loads; then `why` (of `size` bytes) says
 * what was tried or what the loader reported. */
void *pb_module_open(const char *file, char *why, size_t size);

/** dlopen() a system library by its soname (e.g. "libassimp.so.5"); NULL and `why` as above. */
void *pb_module_open_system(const char *soname, char *why, size_t size);

/** The function `name` of a loaded module, as an untyped function pointer (POSIX lets a
 * dlsym() result be one); NULL when missing. Cast it to its own type. */
typedef void (*pb_module_fn)(void);
pb_module_fn pb_module_symbol(void *handle, const char *name);

#endif
