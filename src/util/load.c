/*
 * SPDX-License-Identifier: Apache-2.0
 * load.c - a file's bytes, for every file ndplint reads (load.h): a
 * regular file mapped, a stream read by a thread of its own, both held to
 * a byte cap; UTF-16 and byte order marks turned into plain UTF-8; text
 * that is not JSON refused with a message saying what it looks like (a
 * binary plan, a plan written through setup-terraform's wrapper); and
 * a small file parsed whole with json-c; and a file that another process
 * changes while it is read (truncated under the mapping, rewritten) told
 * apart from a broken one.  The input stage (src/input/) builds on it for
 * plans and what-if results; the settings file, cluster state and
 * baselines use ndp_load_json().
 */
#include "common.h"
#include "load.h"
#include "buf.h"
#include "compat.h"
#include "error.h"
#include "util_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

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
 * The file's pages are guarded (map_guard.c): those that another process
 * truncates away while they are read read as zeros, not SIGBUS, and
 * ndp_load_check_unchanged() then says so.
 */
static bool map_file(struct ndp_load *in, int fd, size_t size)
{
    size_t len = size + 1;
    char *base = ndp_map_zeros(len, PROT_READ, false);

    if (base == MAP_FAILED)
        return false;
    if (!ndp_map_file_at(base, size, fd)) {
        munmap(base, len);
        return false;
    }
    in->map = base;
    in->map_len = len;
    in->file_mapped = true;
    in->guard = ndp_guard_mapping(base, size);
    in->text.data = base;
    in->text.len = size;
    return true;
}

bool ndp_load_mapped(const struct ndp_load *in)
{
    return in->file_mapped && in->text.data == (const char *)in->map;
}

void ndp_load_cursor_start(struct ndp_load_cursor *c, const char *text,
                           size_t step)
{
    c->text = text;
    c->step = step ? step : NDP_LOAD_GIVE_BACK_STEP;
    c->given_back = SIZE_MAX;
}

size_t ndp_load_cursor_reach(struct ndp_load_cursor *c, size_t pos)
{
    if (!c->text)
        return SIZE_MAX;
    if (c->given_back == SIZE_MAX || pos < c->given_back)
        c->given_back = pos; /* where this walk starts, or starts again */
    if (pos >= c->given_back + c->step) {
        ndp_drop_file_pages(c->text + c->given_back, pos - c->given_back);
        c->given_back = pos;
    }
    return c->given_back + c->step;
}

/*
 * A stream (standard input) read by a thread of its own into address space
 * reserved up front for the largest allowed input: the text never moves
 * while it grows, huge pages (where the system offers them) take most of
 * the page faults out of filling it, and the scanner works on the part
 * that has come while the rest is still being read.
 */
struct ndp_stream {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t grown;
    int fd;
    char *base;
    size_t room;      /* max_bytes + 1: one byte more shows it is too big */
    size_t len;       /* bytes read so far (under 'lock') */
    bool done;        /* end of input, error or limit (under 'lock') */
    int error;        /* errno of a failed read */
    bool started;     /* 'thread' runs and must be joined */
    bool stop;        /* the reader asks for no more (under 'lock') */
    char *name;       /* for messages: "(stdin)" or the path */
    int start;        /* what the first bytes say (enum stream_start) */
    size_t checked;   /* bytes looked at by hopeless() */
};

/* What the first bytes of a stream say about the rest. */
enum stream_start {
    START_UNKNOWN, /* only whitespace so far, or too few bytes */
    START_UTF16,   /* a UTF-16 byte order mark: NUL bytes are its own */
    START_TEXT     /* can start a JSON text: no NUL byte may follow */
};

/* Can a JSON text (or a byte order mark) start with 'c'? */
static bool json_start(unsigned char c)
{
    return c != '\0' && (strchr("{[\"-0123456789tfn", c) || c == 0xEF ||
                         c == 0xFE || c == 0xFF);
}

/*
 * Has the stream, 'len' bytes so far, shown that it is no JSON text?  A
 * first byte (after whitespace) that starts no JSON value and no byte
 * order mark, or a NUL byte outside UTF-16, says so: /dev/zero,
 * /dev/urandom or 'yes' is refused after its first bytes instead of after
 * 4 GiB.  The caller's checks then say what the bytes read look like.
 * Each byte is looked at once.
 */
static bool hopeless(struct ndp_stream *st, size_t len)
{
    const unsigned char *p = (const unsigned char *)st->base;

    if (st->start == START_UNKNOWN) {
        while (st->checked < len && strchr(" \t\r\n", p[st->checked]) &&
               p[st->checked] != '\0')
            st->checked++;
        if (st->checked == len)
            return false;
        if (!json_start(p[st->checked]))
            return true;
        if (st->checked + 1 == len && p[st->checked] >= 0xFE)
            return false; /* half a UTF-16 byte order mark */
        st->start = st->checked + 1 < len && p[st->checked] >= 0xFE &&
                            p[st->checked] != p[st->checked + 1] &&
                            p[st->checked + 1] >= 0xFE
                        ? START_UTF16
                        : START_TEXT;
    }
    if (st->start == START_UTF16 || st->checked >= len)
        return false;
    if (memchr(p + st->checked, '\0', len - st->checked))
        return true;
    st->checked = len;
    return false;
}

static void *read_stream(void *arg)
{
    struct ndp_stream *st = arg;
    size_t len = 0;
    bool stop = false;

    while (len < st->room && !stop) {
        /* A device fills any count at once: look at each megabyte. */
        size_t want = st->room - len < PIPE_BYTES ? st->room - len
                                                  : PIPE_BYTES;
        ssize_t n = read(st->fd, st->base + len, want);

        if (n < 0 && errno == EINTR)
            continue;
        pthread_mutex_lock(&st->lock);
        if (n > 0)
            st->len = len += (size_t)n;
        else
            st->error = n < 0 ? errno : 0;
        stop = n <= 0 || st->stop || hopeless(st, len);
        pthread_cond_broadcast(&st->grown);
        pthread_mutex_unlock(&st->lock);
    }
    pthread_mutex_lock(&st->lock);
    st->done = true;
    pthread_cond_broadcast(&st->grown);
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

/*
 * Starts reading 'fd', which the stream then owns; false when no address
 * space could be reserved.
 */
static bool start_stream(struct ndp_load *in, int fd,
                         const char *name, size_t max_bytes)
{
    struct ndp_stream *st;
    void *base;

    if (sizeof(size_t) < 8 || max_bytes > ((size_t)1 << 40))
        return false;
    base = ndp_map_zeros(max_bytes + 2, PROT_READ | PROT_WRITE, true);
    if (base == MAP_FAILED)
        return false;
    ndp_advise_huge_pages(base, max_bytes + 2);
    st = ndp_xcalloc(1, sizeof(*st));
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->grown, NULL);
    st->fd = fd;
    st->name = ndp_xstrdup(name);
    st->base = base;
    st->room = max_bytes + 1;
    in->map = base;
    in->map_len = max_bytes + 2;
    in->text.data = base;
    in->text.len = 0;
    in->stream = st;
    if (pthread_create(&st->thread, NULL, read_stream, st) != 0)
        read_stream(st); /* no thread: read it all now */
    else
        st->started = true;
    return true;
}

size_t ndp_load_wait(void *ctx, size_t want, bool *complete)
{
    struct ndp_stream *st = ((struct ndp_load *)ctx)->stream;
    size_t len;

    pthread_mutex_lock(&st->lock);
    while (st->len < want && !st->done)
        pthread_cond_wait(&st->grown, &st->lock);
    len = st->len;
    *complete = st->done;
    pthread_mutex_unlock(&st->lock);
    return len;
}

bool ndp_load_streaming(const struct ndp_load *in)
{
    return in->stream != NULL;
}

void ndp_load_stop(struct ndp_load *in)
{
    struct ndp_stream *st = in->stream;

    if (!st)
        return;
    pthread_mutex_lock(&st->lock);
    st->stop = true;
    pthread_mutex_unlock(&st->lock);
}

int ndp_load_finish(struct ndp_load *in, size_t max_bytes,
                    struct ndp_error *err)
{
    struct ndp_stream *st = in->stream;
    int rc = 0;

    if (!st)
        return 0;
    if (st->started)
        pthread_join(st->thread, NULL);
    in->text.len = st->len;
    if (st->error)
        rc = ndp_error_set(err, NDP_EIO, "cannot read '%s': %s", st->name,
                           strerror(st->error));
    else if (st->len > max_bytes)
        rc = too_large(st->name, max_bytes, err);
    if (st->fd != 0)
        close(st->fd);
    free(st->name);
    pthread_mutex_destroy(&st->lock);
    pthread_cond_destroy(&st->grown);
    free(st);
    in->stream = NULL;
    return rc;
}

/*
 * Loads from 'fd', which 'st' describes (NULL: fstat failed): a regular
 * file read from its start is mapped; a pipe or other stream is read by a
 * thread of its own, which then owns 'fd' ('*owned'); anything else, or
 * when mapping or reserving fails, is read here.
 */
static int load_fd(struct ndp_load *in, int fd, const struct stat *st,
                   const char *name, size_t max_bytes, bool *owned,
                   struct ndp_error *err)
{
    bool regular = st && S_ISREG(st->st_mode) && st->st_size > 0;
    int rc;

    *owned = false;
    if (regular && (uint64_t)st->st_size > max_bytes)
        return too_large(name, max_bytes, err);
    if (regular && lseek(fd, 0, SEEK_CUR) == 0 &&
        map_file(in, fd, (size_t)st->st_size))
        return 0;
    if (st && !S_ISREG(st->st_mode)) {
        ndp_grow_pipe(fd, PIPE_BYTES);
        if (start_stream(in, fd, name, max_bytes)) {
            *owned = true;
            return 0;
        }
    }
    rc = read_fd(&in->owned, fd, name, max_bytes, err);
    in->text = ndp_bytes_of_buf(&in->owned);
    return rc;
}

/* Clears O_NONBLOCK of 'fd' (POSIX fcntl()). */
static void set_blocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);

    if (flags >= 0)
        (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* Is the file 'st' describes standard input itself (/dev/stdin)? */
static bool is_standard_input(const struct stat *st)
{
    struct stat in;

    return fstat(0, &in) == 0 && in.st_dev == st->st_dev &&
           in.st_ino == st->st_ino;
}

/*
 * What a named input may be: a regular file, or standard input under
 * another name.  A FIFO (with no writer it would block the open for
 * good), a device or a socket is refused, naming what it is.
 */
static const char *not_a_file(const struct stat *st)
{
    if (S_ISREG(st->st_mode) || is_standard_input(st))
        return NULL;
    if (S_ISFIFO(st->st_mode))
        return "a FIFO (a named pipe)";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "a device";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    return "not a regular file";
}

/*
 * Keeps 'fd' (the loader's own, and now 'in''s), the regular file 'st'
 * describes, just loaded, to tell later whether it changed.
 */
static void keep_file(struct ndp_load *in, int fd, const struct stat *st)
{
    in->file_fd = fd;
    in->opened = *st;
}

/* Standard input ("-"): a regular file is kept, under a descriptor of its
 * own. */
static int load_standard_input(struct ndp_load *in, size_t max_bytes,
                               struct ndp_error *err)
{
    struct stat st;
    bool known = fstat(0, &st) == 0, owned;
    int rc =
        load_fd(in, 0, known ? &st : NULL, "(stdin)", max_bytes, &owned, err);
    int fd;

    if (!rc && known && S_ISREG(st.st_mode) &&
        (fd = fcntl(0, F_DUPFD_CLOEXEC, 0)) >= 0)
        keep_file(in, fd, &st);
    return rc;
}

int ndp_load_file(struct ndp_load *in, const char *path, size_t max_bytes,
                  struct ndp_error *err)
{
    struct stat st;
    const char *what;
    bool known, owned;
    int fd, rc;

    if (strcmp(path, "-") == 0)
        return load_standard_input(in, max_bytes, err);
    /* Not blocking: a FIFO nothing writes to would hold the open. */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return ndp_error_set(err, NDP_EIO, "cannot open '%s': %s", path,
                             strerror(errno));
    known = fstat(fd, &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        close(fd);
        return ndp_error_set(err, NDP_EIO,
                             "'%s' is a directory; expected a plan or "
                             "what-if JSON file", path);
    }
    if (known && (what = not_a_file(&st)) != NULL) {
        close(fd);
        return ndp_error_set(err, NDP_EIO,
                             "'%s' is %s, not a regular file: read a file, "
                             "or pipe the text to '-'", path, what);
    }
    /* Standard input under its name is read as '-' is: blocking. */
    if (known && !S_ISREG(st.st_mode))
        set_blocking(fd);
    rc = load_fd(in, fd, known ? &st : NULL, path, max_bytes, &owned, err);
    if (!rc && known && S_ISREG(st.st_mode))
        keep_file(in, fd, &st);
    else if (!owned)
        close(fd);
    return rc;
}

void ndp_load_copy(struct ndp_load *in, const void *bytes, size_t len)
{
    ndp_buf_add(&in->owned, bytes, len);
    in->text = ndp_bytes_of_buf(&in->owned);
}

/*
 * Gives back the text's memory (the mapping, the bytes read), keeping
 * what tells whether the file changed: whether a guarded page vanished,
 * and the file itself.
 */
static void release_text(struct ndp_load *in)
{
    struct ndp_error ignored = NDP_ERROR_INIT;

    ndp_load_finish(in, SIZE_MAX, &ignored);
    in->pages_lost |= ndp_guard_tripped(in->guard);
    ndp_guard_release(in->guard);
    in->guard = -1;
    if (in->map)
        munmap(in->map, in->map_len);
    ndp_buf_release(&in->owned);
    in->map = NULL;
    in->file_mapped = false;
    in->text = ndp_bytes_of_buf(&in->owned);
}

void ndp_load_release(struct ndp_load *in)
{
    release_text(in);
    if (in->file_fd >= 0)
        close(in->file_fd);
    in->file_fd = -1;
    in->pages_lost = false;
}

/* Has the file changed since it was opened (ndp_load_check_unchanged())? */
static bool file_changed(const struct ndp_load *in)
{
    struct stat now;

    if (in->pages_lost || ndp_guard_tripped(in->guard))
        return true;
    if (in->file_fd < 0 || fstat(in->file_fd, &now) != 0)
        return false;
    return now.st_size != in->opened.st_size ||
           now.st_mtime != in->opened.st_mtime ||
           now.st_ctime != in->opened.st_ctime;
}

int ndp_load_check_unchanged(const struct ndp_load *in, const char *path,
                             int rc, struct ndp_error *err)
{
    if (!file_changed(in))
        return rc;
    if (err)
        ndp_error_clear(err);
    return ndp_error_set(err, NDP_EIO, "'%s' changed while it was read "
                         "(another process wrote or truncated it)", path);
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

int ndp_load_to_utf8(struct ndp_load *in, const char *path,
                     struct ndp_error *err)
{
    const unsigned char *p = (const unsigned char *)in->text.data;
    struct ndp_buf utf8 = NDP_BUF_INIT;
    int rc;

    if (in->text.len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        in->text.data += 3;
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
    release_text(in);
    in->owned = utf8;
    in->text = ndp_bytes_of_buf(&in->owned);
    return 0;
}

static bool is_blank(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (s[i] == '\0' || !strchr(" \t\r\n", s[i]))
            return false;
    return true;
}

/* Can a JSON value start here?  (Text output and error messages cannot.) */
static bool looks_like_json(const char *s)
{
    if (*s != '\0' && strchr("{[\"-0123456789", *s))
        return true;
    return strncmp(s, "true", 4) == 0 || strncmp(s, "false", 5) == 0 ||
           strncmp(s, "null", 4) == 0;
}

/*
 * A NUL byte means a binary file, whatever else is wrong with it.  The
 * scanner refuses a NUL anywhere in a document, so a document it accepts
 * needs no separate pass over its bytes for this.
 */
int ndp_load_refuse_nul(const struct ndp_bytes *text, const char *path,
                        struct ndp_error *err)
{
    const char *nul = memchr(text->data, '\0', text->len);

    if (!nul)
        return 0;
    return ndp_error_set(err, NDP_EPARSE, "'%s' contains a NUL byte at "
                         "offset %zu; not a JSON text file", path,
                         (size_t)(nul - text->data));
}

/*
 * What a text that is not JSON looks like, from its first character: never
 * its bytes, which may be a secret (a committed file that links to a
 * credentials file).
 */
static const char *what_text_is(char first)
{
    if ((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))
        return "it begins with a word, as text output, an error message or "
               "a configuration file does";
    if (first == '<')
        return "it begins with '<', as HTML or XML does";
    if (first == '\033')
        return "it begins with a terminal escape sequence, as coloured "
               "terminal output does (write it with -no-color, or as JSON)";
    if (first == '#')
        return "it begins with '#', as a script or a comment does";
    return "its first character is not one a JSON text begins with";
}

int ndp_load_check_not_json(const struct ndp_bytes *text, const char *path,
                            const char *expected, struct ndp_error *err)
{
    const char *s = text->data;
    size_t skip = strspn(s, " \t\r\n");
    int rc;

    if (text->len == 0 || is_blank(s, text->len))
        return ndp_error_set(err, NDP_ESCHEMA, "'%s' is empty; expected %s",
                             path, expected);
    if (text->len >= 4 && memcmp(s, "PK\003\004", 4) == 0)
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is a binary Terraform plan (a zip "
                             "archive); run 'terraform show -json %s > "
                             "plan.json' and pass plan.json",
                             path, path);
    /* hashicorp/setup-terraform's wrapper (terraform_wrapper, on by
     * default) echoed the command it runs to standard output before its
     * v3, and '[' looks like JSON. */
    if (text->len - skip >= 9 && memcmp(s + skip, "[command]", 9) == 0)
        return ndp_error_set(err, NDP_EPARSE,
                             "'%s' begins with '[command]', the line the "
                             "terraform wrapper of hashicorp/setup-terraform "
                             "writes before terraform's output: set "
                             "'terraform_wrapper: false' on the "
                             "setup-terraform step and write the file again",
                             path);
    if (looks_like_json(s + skip))
        return 0;
    rc = ndp_load_refuse_nul(text, path, err);
    if (rc)
        return rc;
    return ndp_error_set(err, NDP_EPARSE,
                         "'%s' is not JSON (%s); expected %s, not text "
                         "output or an error message",
                         path, what_text_is(s[skip]), expected);
}

long ndp_load_line_at(const struct ndp_bytes *text, size_t offset)
{
    long line = 1;
    size_t i;

    for (i = 0; i < offset && i < text->len; i++)
        if (text->data[i] == '\n')
            line++;
    return line;
}

/*
 * Feeds 'text' to the tokener in chunks json-c's int lengths can hold.
 * Sets '*truncated' when the text ends inside the document.
 */
static struct json_object *tokenize(struct json_tokener *tok,
                                    const struct ndp_bytes *text, size_t *end,
                                    bool *truncated)
{
    const size_t chunk = (size_t)1 << 30;
    struct json_object *root = NULL;
    size_t done = 0;

    do {
        size_t n = text->len - done < chunk ? text->len - done : chunk;
        root = json_tokener_parse_ex(tok, text->data + done, (int)n);
        *end = done + json_tokener_get_parse_end(tok);
        done += n;
    } while (!root && json_tokener_get_error(tok) == json_tokener_continue &&
             done < text->len);
    *truncated = false;
    /* A top-level number ends only at a delimiter: offer the final NUL. */
    if (!root && json_tokener_get_error(tok) == json_tokener_continue) {
        root = json_tokener_parse_ex(tok, text->data + text->len, 1);
        /* JSON null parses to NULL with success. */
        *truncated = json_tokener_get_error(tok) != json_tokener_success;
        if (!*truncated)
            *end = text->len;
    }
    return root;
}

int ndp_load_parse_json(struct json_object **out,
                        const struct ndp_bytes *text, const char *path,
                        bool lenient, struct ndp_error *err)
{
    struct json_tokener *tok = json_tokener_new_ex(NDP_MAX_JSON_DEPTH);
    struct json_object *root;
    enum json_tokener_error jerr;
    size_t end = 0;
    bool truncated;
    int rc = 0;

    json_tokener_set_flags(tok, lenient ? JSON_TOKENER_VALIDATE_UTF8
                                        : JSON_TOKENER_STRICT |
                                              JSON_TOKENER_VALIDATE_UTF8);
    root = tokenize(tok, text, &end, &truncated);
    jerr = json_tokener_get_error(tok);
    if (truncated) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' ends in the middle of the JSON document "
                           "(truncated at line %ld, byte %zu)",
                           path, ndp_load_line_at(text, text->len),
                           text->len);
    } else if (!root && jerr != json_tokener_success) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' is not valid JSON: %s at line %ld (byte %zu)",
                           path, json_tokener_error_desc(jerr),
                           ndp_load_line_at(text, end), end);
    } else if (!is_blank(text->data + end, text->len - end)) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' is not valid JSON: unexpected data after "
                           "the document at line %ld (byte %zu)",
                           path, ndp_load_line_at(text, end), end);
    }
    json_tokener_free(tok);
    if (rc)
        json_object_put(root);
    else
        *out = root;
    return rc;
}

int ndp_load_json(struct json_object **out, const char *path,
                  size_t max_bytes, const char *expected,
                  struct ndp_error *err)
{
    struct ndp_load in = NDP_LOAD_INIT;
    struct json_object *root = NULL;
    int rc = ndp_load_file(&in, path, max_bytes, err);

    if (!rc)
        rc = ndp_load_finish(&in, max_bytes, err);
    if (!rc)
        rc = ndp_load_to_utf8(&in, path, err);
    if (!rc)
        rc = ndp_load_check_not_json(&in.text, path, expected, err);
    if (!rc)
        rc = ndp_load_refuse_nul(&in.text, path, err);
    if (!rc)
        rc = ndp_load_parse_json(&root, &in.text, path, false, err);
    rc = ndp_load_check_unchanged(&in, path, rc, err);
    if (rc)
        json_object_put(root);
    else
        *out = root;
    ndp_load_release(&in);
    return rc;
}
