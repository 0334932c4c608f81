/* Files read from outside: regular files only, opened without blocking (see input_file.h). */
#include "io/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int open_regular(const char *path, struct stat *st, pb_diag *diag)
{
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        pb_diag_set(diag, path, 0, 0, "cannot open the file: %s",
                    errno == ENOENT ? "no such file" : strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        pb_diag_set(diag, path, 0, 0, "cannot open the file: not a regular file");
        close(fd);
        return -1;
    }
    /* a regular file never blocks, but readers expect blocking semantics */
    const int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

FILE *pb_file_open_regular(const char *path, pb_diag *diag, pb_status *status)
{
    struct stat st;
    const int fd = open_regular(path, &st, diag);
    if (fd < 0) {
        if (status)
            *status = PB_ERR_IO;
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        if (status)
            *status = PB_ERR_NOMEM;
    }
    return fp;
}

pb_status pb_file_check_regular(const char *path, pb_diag *diag)
{
    struct stat st;
    const int fd = open_regular(path, &st, diag);
    if (fd < 0)
        return PB_ERR_IO;
    close(fd);
    return PB_OK;
}

pb_status pb_file_read_all(const char *path, size_t max_size, char **data, size_t *size, pb_diag *diag)
{
    *data = NULL;
    *size = 0;
    if (max_size == 0)
        max_size = PB_FILE_MAX_SIZE;
    struct stat st;
    const int fd = open_regular(path, &st, diag);
    if (fd < 0)
        return PB_ERR_IO;
    if ((uint64_t)st.st_size > (uint64_t)max_size) {
        pb_diag_set(diag, path, 0, 0, "file too large (%lld bytes; at most %zu)", (long long)st.st_size,
                    max_size);
        close(fd);
        return PB_ERR_INVALID;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    for (;;) {
        if (n + 1 >= cap) { /* the file grew while being read: bounded all the same */
            if (cap > max_size) {
                free(buf);
                close(fd);
                pb_diag_set(diag, path, 0, 0, "file too large (at most %zu bytes)", max_size);
                return PB_ERR_INVALID;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                close(fd);
                pb_diag_set(diag, path, 0, 0, "out of memory");
                return PB_ERR_NOMEM;
            }
            buf = grown;
            cap *= 2;
        }
        const ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            pb_diag_set(diag, path, 0, 0, "cannot open the file: %s", strerror(errno));
            free(buf);
            close(fd);
            return PB_ERR_IO;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return PB_OK;
}

void pb_path_dir(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash)
        *(slash == buf ? slash + 1 : slash) = '\0';
    else
        snprintf(buf, size, ".");
}
