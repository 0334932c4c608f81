/* Files read from outside (private to the library and its programs): opened without
 * blocking and only when they are regular files, so that a map named /dev/stdin or a mesh
 * that is a FIFO is refused at once instead of hanging the reader, and read whole under a
 * size bound. */
#ifndef PB_IO_INPUT_FILE_H
#define PB_IO_INPUT_FILE_H

#include "planbench/base.h"

#include <stdio.h>

/** Largest file pb_file_read_all() reads when given no bound of its own: 256 MiB. */
#define PB_FILE_MAX_SIZE ((size_t)256 << 20)

/** Open `path` for reading when it is a regular file: O_NONBLOCK while opening (a FIFO or a
 * device does not block), fstat, then blocking reads as usual. NULL with `diag` naming the
 * file ("no such file", "not a regular file", "permission denied") and `*status` PB_ERR_IO
 * otherwise. Close with fclose(). */
FILE *pb_file_open_regular(const char *path, pb_diag *diag, pb_status *status);

/** Check that `path` is a regular file that can be opened for reading (for readers that open
 * files themselves, such as assimp). */
pb_status pb_file_check_regular(const char *path, pb_diag *diag);

/** Read a regular file whole into `*data` (NUL-terminated, owned by the caller, free()),
 * `*size` bytes. PB_ERR_INVALID when it is larger than `max_size` (0: PB_FILE_MAX_SIZE),
 * PB_ERR_IO as pb_file_open_regular(), PB_ERR_NOMEM. */
pb_status pb_file_read_all(const char *path, size_t max_size, char **data, size_t *size, pb_diag *diag);

/** The folder of `path` into `buf` (`size` bytes): "a/b" for "a/b/c.xml", "/" for "/c.xml",
 * "." for "c.xml". Relative names inside a file are resolved against it. */
void pb_path_dir(const char *path, char *buf, size_t size);

#endif
