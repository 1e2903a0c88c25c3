/*
 * input_load.c - an input's bytes: a regular file mapped, a stream read,
 * UTF-16 and byte order marks turned into plain UTF-8 (see input_load.h).
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "common.h"
#include "input_load.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A pipe buffer this large means fewer wake-ups when a plan is piped in. */
#define PIPE_BYTES (1 << 20)

static int too_large(const char *path, size_t max_bytes,
                     struct ndp_error *err)
{
    return ndp_error_set(err, NDP_ELIMIT, "'%s' is larger than the input "
                         "limit of %zu bytes (see --max-input-bytes)",
                         path, max_bytes);
}

static int read_fd(struct ndp_buf *out, int fd, const char *path,
                   size_t max_bytes, struct ndp_error *err)
{
    for (;;) {
        ssize_t n;

        /* Grow only when full: a buffer sized from fstat is not copied. */
        if (out->alloc < out->len + 2)
            ndp_buf_grow(out, 65536);
        n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ndp_error_set(err, NDP_EIO, "cannot read '%s': %s", path,
                                 strerror(errno));
        if (n == 0)
            break;
        out->len += (size_t)n;
        out->buf[out->len] = '\0';
        if (out->len > max_bytes)
            return too_large(path, max_bytes, err);
    }
    return 0;
}

/*
 * Maps 'size' bytes of 'fd' followed by at least one zero byte: an
 * anonymous mapping one byte longer than the file, with the file mapped
 * over its start (the rest of the file's last page reads as zeros too).
 * Returns false when the system will not map it; the caller reads instead.
 * A file truncated by another process while it is mapped would end the
 * run with SIGBUS; plans and what-if results are not written in place.
 */
static bool map_file(struct ndp_input_bytes *in, int fd, size_t size)
{
    size_t len = size + 1;
    void *base = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);

    if (base == MAP_FAILED)
        return false;
    if (mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE,
             fd, 0) == MAP_FAILED) {
        munmap(base, len);
        return false;
    }
    (void)madvise(base, size, MADV_SEQUENTIAL);
    in->map = base;
    in->map_len = len;
    in->text.buf = base;
    in->text.len = size;
    in->text.alloc = 0;
    return true;
}

/*
 * Reads a stream into address space reserved up front for the largest
 * allowed input: it is never moved or copied while it grows, and huge
 * pages (where the system offers them) take most of the page faults out
 * of filling it.  Returns false when nothing could be reserved.
 */
static bool read_reserved(struct ndp_input_bytes *in, int fd,
                          const char *path, size_t max_bytes,
                          struct ndp_error *err, int *rc)
{
    size_t len = 0, room = max_bytes + 1;
    char *base;

    if (sizeof(size_t) < 8 || max_bytes > ((size_t)1 << 40))
        return false;
    base = mmap(NULL, room + 1, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
    (void)madvise(base, room + 1, MADV_HUGEPAGE);
    in->map = base;
    in->map_len = room + 1;
    *rc = 0;
    while (len < room) {
        ssize_t n = read(fd, base + len, room - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0)
                *rc = ndp_error_set(err, NDP_EIO, "cannot read '%s': %s",
                                    path, strerror(errno));
            break;
        }
        len += (size_t)n;
    }
    if (!*rc && len > max_bytes)
        *rc = too_large(path, max_bytes, err);
    in->text.buf = base;
    in->text.len = len;
    in->text.alloc = 0;
    return true;
}

static int load_stream(struct ndp_input_bytes *in, int fd, const char *path,
                       size_t max_bytes, struct ndp_error *err)
{
    int rc;

    (void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES); /* fails harmlessly */
    if (read_reserved(in, fd, path, max_bytes, err, &rc))
        return rc;
    rc = read_fd(&in->owned, fd, path, max_bytes, err);
    in->text = in->owned;
    return rc;
}

int ndp_input_bytes_load(struct ndp_input_bytes *in, const char *path,
                         size_t max_bytes, struct ndp_error *err)
{
    struct stat st;
    int fd, rc;

    if (strcmp(path, "-") == 0) {
        if (fstat(0, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
            (uint64_t)st.st_size <= max_bytes && lseek(0, 0, SEEK_CUR) == 0 &&
            map_file(in, 0, (size_t)st.st_size))
            return 0;
        return load_stream(in, 0, "(stdin)", max_bytes, err);
    }
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return ndp_error_set(err, NDP_EIO, "cannot open '%s': %s", path,
                             strerror(errno));
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return ndp_error_set(err, NDP_EIO,
                             "'%s' is a directory; expected a plan or "
                             "what-if JSON file", path);
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size > max_bytes)
        rc = too_large(path, max_bytes, err);
    else if (S_ISREG(st.st_mode) && st.st_size > 0 &&
             map_file(in, fd, (size_t)st.st_size))
        rc = 0;
    else
        rc = load_stream(in, fd, path, max_bytes, err);
    close(fd);
    return rc;
}

void ndp_input_bytes_copy(struct ndp_input_bytes *in, const void *bytes,
                          size_t len)
{
    ndp_buf_add(&in->owned, bytes, len);
    in->text = in->owned;
}

void ndp_input_bytes_release(struct ndp_input_bytes *in)
{
    if (in->map)
        munmap(in->map, in->map_len);
    ndp_buf_release(&in->owned);
    in->map = NULL;
    in->text = in->owned;
}

static void put_utf8(struct ndp_buf *out, uint32_t cp)
{
    char b[4];

    if (cp < 0x80) {
        ndp_buf_addch(out, (char)cp);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        ndp_buf_add(out, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        ndp_buf_add(out, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        ndp_buf_add(out, b, 4);
    }
}

/* UTF-16 (after its BOM) to UTF-8: what PowerShell's '>' writes. */
static int utf16_to_utf8(struct ndp_buf *out, const unsigned char *p,
                         size_t len, bool big_endian, const char *path,
                         struct ndp_error *err)
{
    size_t i;

    if (len % 2)
        return ndp_error_set(err, NDP_EPARSE,
                             "'%s' is UTF-16 with an odd number of bytes "
                             "(truncated?)", path);
    for (i = 0; i < len; i += 2) {
        uint32_t u = big_endian ? (uint32_t)(p[i] << 8 | p[i + 1])
                                : (uint32_t)(p[i + 1] << 8 | p[i]);

        if (u >= 0xD800 && u <= 0xDBFF && i + 3 < len) {
            uint32_t lo = big_endian ? (uint32_t)(p[i + 2] << 8 | p[i + 3])
                                     : (uint32_t)(p[i + 3] << 8 | p[i + 2]);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                i += 2;
            }
        }
        if ((u >= 0xD800 && u <= 0xDFFF) || u == 0)
            return ndp_error_set(err, NDP_EPARSE,
                                 "'%s' is UTF-16 with an invalid code unit "
                                 "at byte %zu", path, i + 2);
        put_utf8(out, u);
    }
    return 0;
}

int ndp_input_bytes_to_utf8(struct ndp_input_bytes *in, const char *path,
                            struct ndp_error *err)
{
    const unsigned char *p = (const unsigned char *)in->text.buf;
    struct ndp_buf utf8 = NDP_BUF_INIT;
    int rc;

    if (in->text.len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        in->text.buf += 3;
        in->text.len -= 3;
        return 0;
    }
    if (in->text.len < 2 || !((p[0] == 0xFF && p[1] == 0xFE) ||
                              (p[0] == 0xFE && p[1] == 0xFF)))
        return 0;
    rc = utf16_to_utf8(&utf8, p + 2, in->text.len - 2, p[0] == 0xFE, path,
                       err);
    if (rc) {
        ndp_buf_release(&utf8);
        return rc;
    }
    ndp_input_bytes_release(in);
    in->owned = utf8;
    in->text = in->owned;
    return 0;
}
