/* Write files so that nothing half-written is ever left behind (private to the library):
 * write to "PATH.tmp.PID" in the same folder, then rename over PATH. */
#ifndef PB_IO_ATOMIC_FILE_H
#define PB_IO_ATOMIC_FILE_H

#include "planbench/base.h"
#include <stdio.h>

typedef struct pb_atomic_file {
    FILE *fp;           /**< write here */
    char path[4096];
    char tmp_path[4200];
} pb_atomic_file;

/** Open a temporary file beside `path`. */
pb_status pb_atomic_file_open(pb_atomic_file *file, const char *path, pb_diag *diag);
/** Flush, close and rename over the target. On any failure the temporary file is removed. */
pb_status pb_atomic_file_commit(pb_atomic_file *file, pb_diag *diag);
/** Close and remove the temporary file (on an error path). Safe after commit. */
void pb_atomic_file_abort(pb_atomic_file *file);

#endif
