/* Atomic file writing (see planbench/base.h): a temporary file beside the target's real path
 * (a symbolic link stays a link and its target is replaced), fsync'd with its folder before
 * and after the rename, and removed on every exit the process controls: commit and abort,
 * exit() (atexit), and SIGINT, SIGTERM and SIGHUP when nothing else handles them. */
#include "io/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files not yet committed or aborted, for the exit paths. Written by the thread
 * that opens and commits a file; read by the handlers, which only unlink. */
#define MAX_PENDING 32
static char pending[MAX_PENDING][4200];
static volatile sig_atomic_t pending_used[MAX_PENDING];
static pthread_once_t cleanup_once = PTHREAD_ONCE_INIT;

static void remove_pending(void)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending_used[i])
            unlink(pending[i]);
}

static void on_signal(int sig)
{
    remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_cleanup(void)
{
    atexit(remove_pending);
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        /* only where nothing else handles the signal: a program's own handler comes first */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            signal(signals[i], on_signal);
    }
}

static void track(const char *tmp_path)
{
    pthread_once(&cleanup_once, install_cleanup);
    for (int i = 0; i < MAX_PENDING; i++)
        if (!pending_used[i]) {
            snprintf(pending[i], sizeof pending[i], "%s", tmp_path);
            pending_used[i] = 1;
            return;
        }
}

static void untrack(const char *tmp_path)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending_used[i] && strcmp(pending[i], tmp_path) == 0) {
            pending_used[i] = 0;
            return;
        }
}

/* The path a write to `path` must replace: its target when it is a symbolic link (resolved,
 * also when the target does not exist yet), else `path`. */
static bool real_target(const char *path, char *out, size_t size)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return snprintf(out, size, "%s", path) < (int)size;
    char resolved[PATH_MAX];
    if (realpath(path, resolved))
        return snprintf(out, size, "%s", resolved) < (int)size;
    char link[PATH_MAX];
    const ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0)
        return false;
    link[n] = '\0';
    if (link[0] == '/')
        return snprintf(out, size, "%s", link) < (int)size;
    const char *slash = strrchr(path, '/');
    return snprintf(out, size, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, link) < (int)size;
}

static void sync_folder(const char *path)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

pb_status pb_atomic_file_open(pb_atomic_file *file, const char *path, pb_diag *diag)
{
    file->fp = NULL;
    if (!real_target(path, file->path, sizeof file->path)) {
        pb_diag_set(diag, path, 0, 0, "output path is too long or a broken link");
        return PB_ERR_INVALID;
    }
    snprintf(file->tmp_path, sizeof file->tmp_path, "%s.tmp.%ld", file->path, (long)getpid());
    const int fd = open(file->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    file->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!file->fp) {
        if (fd >= 0) {
            close(fd);
            unlink(file->tmp_path);
        }
        pb_diag_set(diag, path, 0, 0, "cannot write: %s", strerror(errno));
        return PB_ERR_IO;
    }
    track(file->tmp_path);
    return PB_OK;
}

pb_status pb_atomic_file_commit(pb_atomic_file *file, pb_diag *diag)
{
    if (!file->fp)
        return PB_ERR_IO;
    const bool write_failed = ferror(file->fp) != 0 || fflush(file->fp) != 0;
    const int saved = errno;
    const bool sync_failed = !write_failed && fsync(fileno(file->fp)) != 0 && errno != EINVAL;
    const bool close_failed = fclose(file->fp) != 0;
    file->fp = NULL;
    if (write_failed || sync_failed || close_failed) {
        pb_diag_set(diag, file->path, 0, 0, "write failed: %s", strerror(write_failed ? saved : errno));
        remove(file->tmp_path);
        untrack(file->tmp_path);
        return PB_ERR_IO;
    }
    if (rename(file->tmp_path, file->path) != 0) {
        pb_diag_set(diag, file->path, 0, 0, "cannot replace: %s", strerror(errno));
        remove(file->tmp_path);
        untrack(file->tmp_path);
        return PB_ERR_IO;
    }
    untrack(file->tmp_path);
    sync_folder(file->path);
    return PB_OK;
}

void pb_atomic_file_abort(pb_atomic_file *file)
{
    if (file->fp) {
        fclose(file->fp);
        file->fp = NULL;
        remove(file->tmp_path);
        untrack(file->tmp_path);
    }
}
