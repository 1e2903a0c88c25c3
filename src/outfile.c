/*
 * SPDX-License-Identifier: Apache-2.0
 * outfile.c - reports and baselines written without replacing what must
 * not be replaced (see outfile.h).
 *
 * The old way, fopen("PATH.tmp.<pid>") and rename, followed a link planted
 * at the predictable name and turned a device node or a FIFO at PATH into
 * a regular file.  Here the kind of file at PATH decides: stat follows
 * links, so a link to a device is written straight, and a link to a
 * regular file is resolved with realpath so that the temporary lives, and
 * the rename happens, beside the file the link names.
 */
#include "common.h"
#include "outfile.h"
#include "buf.h"
#include "error.h"
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int failed(struct ndp_error *err, const char *what, const char *path,
                  int errnum)
{
    return ndp_error_set(err, NDP_EIO, "cannot write %s'%s': %s",
                         what ? what : "", path, strerror(errnum));
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/*
 * Standard output or error, when 'st' is the file behind it; else -1.
 * Written through the descriptor itself, so that 'ndplint -o /dev/stdout
 * >> log' appends as the shell asked instead of writing over the start.
 */
static int own_stream(const struct stat *st)
{
    struct stat s;
    int fd;

    for (fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
        if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev &&
            s.st_ino == st->st_ino)
            return fd;
    return -1;
}

/* A FIFO, a device or one of our streams: written in place, never made. */
static int write_straight(const char *path, const struct stat *st,
                          const char *data, size_t len, const char *what,
                          struct ndp_error *err)
{
    int fd = own_stream(st), e;

    if (fd >= 0) {
        e = write_all(fd, data, len);
        return e ? failed(err, what, path, e) : 0;
    }
    fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return failed(err, what, path, errno);
    e = write_all(fd, data, len);
    if (close(fd) != 0 && !e)
        e = errno;
    return e ? failed(err, what, path, e) : 0;
}

/* The mode a new file gets (0666 less the umask), or the old file's. */
static mode_t new_mode(const struct stat *old)
{
    mode_t mask;

    if (old)
        return old->st_mode & 07777;
    mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/*
 * 'target' (a path that is no link) replaced by a temporary made beside
 * it; 'shown' is the path the user gave, for messages.
 */
static int write_replacing(const char *target, const struct stat *old,
                           const char *data, size_t len, const char *what,
                           const char *shown, struct ndp_error *err)
{
    struct ndp_buf tmp = NDP_BUF_INIT;
    const char *slash = strrchr(target, '/');
    int fd, e = 0;

    if (slash)
        ndp_buf_add(&tmp, target, (size_t)(slash - target) + 1);
    ndp_buf_addf(&tmp, ".%s.ndplint-XXXXXX", slash ? slash + 1 : target);
    fd = mkstemp(tmp.buf);
    if (fd < 0) {
        e = errno;
        goto out;
    }
    if (fchmod(fd, new_mode(old)) != 0)
        e = errno;
    if (!e)
        e = write_all(fd, data, len);
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e && rename(tmp.buf, target) != 0)
        e = errno;
    if (e)
        unlink(tmp.buf);
out:
    ndp_buf_release(&tmp);
    return e ? failed(err, what, shown, e) : 0;
}

int ndp_outfile_write(const char *path, const void *data, size_t len,
                      const char *what, struct ndp_error *err)
{
    struct ndp_buf label = NDP_BUF_INIT;
    struct stat lst, st;
    char *real = NULL;
    int rc;

    if (what)
        ndp_buf_addf(&label, "%s ", what);
    what = what ? label.buf : NULL;
    if (lstat(path, &lst) != 0) {
        rc = errno == ENOENT
                 ? write_replacing(path, NULL, data, len, what, path, err)
                 : failed(err, what, path, errno);
    } else if (stat(path, &st) != 0) {
        rc = ndp_error_set(err, NDP_EIO, "cannot write %s'%s': it is a "
                           "symbolic link to a missing file", what ? what
                           : "", path);
    } else if (S_ISDIR(st.st_mode)) {
        rc = failed(err, what, path, EISDIR);
    } else if (!S_ISREG(st.st_mode) || own_stream(&st) >= 0) {
        rc = write_straight(path, &st, data, len, what, err);
    } else if (!S_ISLNK(lst.st_mode)) {
        rc = write_replacing(path, &st, data, len, what, path, err);
    } else if ((real = realpath(path, NULL)) == NULL) {
        rc = failed(err, what, path, errno);
    } else {
        rc = write_replacing(real, &st, data, len, what, path, err);
    }
    free(real);
    ndp_buf_release(&label);
    return rc;
}
