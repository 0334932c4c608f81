#include "io/atomic_file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

pb_status pb_atomic_file_open(pb_atomic_file *file, const char *path, pb_diag *diag)
{
    file->fp = NULL;
    if (snprintf(file->path, sizeof file->path, "%s", path) >= (int)sizeof file->path) {
        pb_diag_set(diag, NULL, 0, 0, "output path is too long");
        return PB_ERR_INVALID;
    }
    snprintf(file->tmp_path, sizeof file->tmp_path, "%s.tmp.%ld", path, (long)getpid());
    file->fp = fopen(file->tmp_path, "wb");
    if (!file->fp) {
        pb_diag_set(diag, path, 0, 0, "cannot write: %s", strerror(errno));
        return PB_ERR_IO;
    }
    return PB_OK;
}

pb_status pb_atomic_file_commit(pb_atomic_file *file, pb_diag *diag)
{
    if (!file->fp)
        return PB_ERR_IO;
    const bool write_failed = ferror(file->fp) != 0;
    const int saved = errno;
    const bool close_failed = fclose(file->fp) != 0;
    file->fp = NULL;
    if (write_failed || close_failed) {
        pb_diag_set(diag, file->path, 0, 0, "write failed: %s", strerror(write_failed ? saved : errno));
        remove(file->tmp_path);
        return PB_ERR_IO;
    }
    if (rename(file->tmp_path, file->path) != 0) {
        pb_diag_set(diag, file->path, 0, 0, "cannot replace: %s", strerror(errno));
        remove(file->tmp_path);
        return PB_ERR_IO;
    }
    return PB_OK;
}

void pb_atomic_file_abort(pb_atomic_file *file)
{
    if (file->fp) {
        fclose(file->fp);
        file->fp = NULL;
        remove(file->tmp_path);
    }
}
