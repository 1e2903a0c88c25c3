/*
 * SPDX-License-Identifier: Apache-2.0
 * locate.c - from a finding to the line a user edits (see locate.h).
 *
 * Terraform: the resource's module directory (the plan's module calls with
 * a local "source"; the root module for the rest) is searched for a line
 * 'resource "TYPE" "NAME" {'; the block runs to its closing brace, counted
 * outside strings and comments; inside it the attribute is the first line
 * that assigns or opens the deepest name of the finding's path, else a
 * shallower one.  Templates: the first line quoting the resource's name,
 * else its type.  No HCL or Bicep parser: lines and braces only, which is
 * what resource blocks written by people look like.
 *
 * The files are the pull request's, so reading them is bounded: only
 * regular files are read (a FIFO, a device or a directory named *.tf is
 * skipped, and is opened without blocking to find out), nothing whose
 * real path (symbolic links resolved) leaves the source root, the working
 * tree of worktree.h, is read (module directories come from the plan and
 * may say "../.."), a file over FILE_LIMIT is skipped, and the files read
 * in one run share a budget of TOTAL_LIMIT bytes and FILES_LIMIT files;
 * past it, findings keep the input file's line.  --template names its
 * file on the command line, so it need not be under the root (the run
 * has refused it already if a link of the tree leads it out, unless
 * --follow-links), but it is read the same way.
 */
#include "common.h"
#include "locate.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "ignore.h"
#include "rules.h"
#include "compat.h"
#include "source_scan.h"
#include "error.h"
#include "strmap.h"
#include "worktree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_LIMIT ((size_t)16 << 20)  /* bytes of one .tf file or template */
#define TOTAL_LIMIT ((size_t)64 << 20) /* bytes of all files read in a run */
#define FILES_LIMIT 10000              /* files opened in a run */

/* An ignore comment that names no rule or no reason, where a finding
 * looked. */
struct bad_ignore {
    char *file;
    long line;
    size_t finding;              /* the finding that looked */
    enum ndp_ignore_status status;
    bool not_code;               /* in a block comment, string or heredoc */
};

struct bad_ignores {
    struct bad_ignore *items;
    size_t nr, alloc;
};

/* A file read, which of its bytes are code, and where its lines end. */
struct text_file {
    char *path;
    struct ndp_buf text;
    struct ndp_source_map map;
    size_t *newlines;   /* the offset of each '\n', in order */
    size_t nr_newlines;
};

/*
 * Where a directory defines resource 'type' 'name', for a resource a
 * finding names: the first file and the offset of its block, and how many
 * there are.  The sites wanted are known before any file is read, and a
 * directory's files are read once, the first time one of its resources is
 * looked up, keeping only those sites: a plan of many resources costs one
 * pass over the files, and the files cost no memory beyond their text.
 * Defined twice (in two files, or twice in one), a resource is not looked
 * up: which definition the plan comes from cannot be told, and an ignore
 * comment must not be taken from the wrong one.
 */
struct block_site {
    char *key;      /* "D\nTYPE\nNAME", D the directory's number */
    size_t file;    /* in the cache's items; SIZE_MAX: none, or more than
                       one (once 'checked') */
    size_t offset;
    size_t count;
    bool checked;   /* looked up, and a second definition warned about */
};

/* A directory some resources are looked up in. */
struct source_dir {
    char *path;
    bool indexed;   /* its files were read for the sites wanted */
};

struct file_cache {
    struct text_file *items;
    size_t nr, alloc;
    struct ndp_strmap items_by_path; /* their paths, borrowed */
    struct block_site *sites;        /* resource blocks of the directories */
    size_t nr_sites, alloc_sites;
    struct ndp_strmap sites_by_key;  /* their keys, borrowed */
    struct source_dir *dirs;         /* where resources are looked up */
    size_t nr_dirs, alloc_dirs;
    struct ndp_strmap dirs_by_path;  /* ... by path, borrowed */
    struct ndp_strmap quoted;        /* the template's strings of code:
                                        quote and text -> first offset */
    char **quoted_keys;              /* ... owned */
    size_t nr_quoted, alloc_quoted;
    bool quoted_built;
    struct ndp_worktree tree; /* the source root: nothing outside it is
                                 read but the template */
    size_t bytes_left;  /* of TOTAL_LIMIT */
    size_t files_left;  /* of FILES_LIMIT */
};

/*
 * Appends the bytes of the regular file 'path' to 'out' if it fits the
 * budget: a FIFO opens at once with O_NONBLOCK and is then skipped.
 */
static void read_regular(struct ndp_buf *out, const char *path,
                         struct file_cache *cache)
{
    struct stat st;
    size_t want;
    int fd;

    if (!cache->files_left)
        return;
    cache->files_left--;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size > FILE_LIMIT ||
        (size_t)st.st_size > cache->bytes_left)
        goto out;
    want = (size_t)st.st_size;
    ndp_buf_grow(out, want);
    while (out->len < want) {
        ssize_t n = read(fd, out->buf + out->len, want - out->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out->len += (size_t)n;
    }
    out->buf[out->len] = '\0';
    cache->bytes_left -= out->len;
out:
    close(fd);
}

/*
 * The text of 'path', read once; empty when it cannot be read, is not a
 * regular file, is over a limit or ('confine') leaves the source root.
 */
static struct text_file *load(struct file_cache *cache, const char *path,
                              bool confine, enum ndp_source_lang lang)
{
    struct text_file *f;
    size_t i = ndp_strmap_find(&cache->items_by_path, path), alloc = 0;
    const char *nl;

    if (i != SIZE_MAX)
        return &cache->items[i];
    NDP_GROW(cache->items, cache->alloc, cache->nr + 1);
    f = &cache->items[cache->nr];
    memset(f, 0, sizeof(*f));
    f->path = ndp_xstrdup(path);
    ndp_strmap_add(&cache->items_by_path, f->path, cache->nr++);
    ndp_buf_init(&f->text);
    if (!confine || ndp_worktree_confines(&cache->tree, path))
        read_regular(&f->text, path, cache);
    ndp_source_map_build(&f->map, f->text.buf, f->text.len, lang);
    for (nl = f->text.buf;
         (nl = memchr(nl, '\n', f->text.len - (size_t)(nl - f->text.buf)));
         nl++) {
        NDP_GROW(f->newlines, alloc, f->nr_newlines + 1);
        f->newlines[f->nr_newlines++] = (size_t)(nl - f->text.buf);
    }
    return f;
}

/* Is the byte at 'p' of 'f' code (not a comment, string or heredoc)? */
static bool is_code(const struct text_file *f, const char *p)
{
    return ndp_source_kind_at(&f->map, (size_t)(p - f->text.buf)) ==
           NDP_SOURCE_CODE;
}

static void release_cache(struct file_cache *cache)
{
    size_t i;

    for (i = 0; i < cache->nr; i++) {
        free(cache->items[i].path);
        ndp_buf_release(&cache->items[i].text);
        ndp_source_map_release(&cache->items[i].map);
        free(cache->items[i].newlines);
    }
    for (i = 0; i < cache->nr_sites; i++)
        free(cache->sites[i].key);
    for (i = 0; i < cache->nr_dirs; i++)
        free(cache->dirs[i].path);
    for (i = 0; i < cache->nr_quoted; i++)
        free(cache->quoted_keys[i]);
    free(cache->quoted_keys);
    ndp_strmap_release(&cache->quoted);
    free(cache->items);
    free(cache->sites);
    free(cache->dirs);
    ndp_strmap_release(&cache->items_by_path);
    ndp_strmap_release(&cache->sites_by_key);
    ndp_strmap_release(&cache->dirs_by_path);
    ndp_worktree_release(&cache->tree);
}

/* The line of 'at' in 'f': one more than the newlines before it. */
static long line_at(const struct text_file *f, const char *at)
{
    size_t offset = (size_t)(at - f->text.buf), lo = 0, hi = f->nr_newlines;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (f->newlines[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo + 1;
}

/* Skips spaces and tabs. */
static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/*
 * A block header at the line start 'line': 'resource "TYPE" "NAME"' (any
 * spaces or tabs before and after 'resource', one space between the two
 * strings), TYPE and NAME without quotes or line ends.  Sets the two as
 * 'type' (length 'type_len') and 'name'; false for any other line.
 */
static bool block_header(const char *line, const char **type, size_t *type_len,
                         const char **name, size_t *name_len)
{
    const char *p = skip_blanks(line), *end;

    if (strncmp(p, "resource", 8) != 0)
        return false;
    p = skip_blanks(p + 8);
    if (*p != '"')
        return false;
    *type = ++p;
    p += strcspn(p, "\"\n");
    if (*p != '"' || p[1] != ' ' || p[2] != '"')
        return false;
    *type_len = (size_t)(p - *type);
    *name = p + 3;
    end = *name + strcspn(*name, "\"\n");
    if (*end != '"')
        return false;
    *name_len = (size_t)(end - *name);
    return true;
}

/* The site key of resource 'type' 'name' in directory number 'dir' (no
 * printf: a directory's every block header makes one). */
static void site_key(struct ndp_buf *key, size_t dir, const char *type,
                     size_t type_len, const char *name, size_t name_len)
{
    char number[24];
    size_t n = sizeof(number);

    do
        number[--n] = (char)('0' + dir % 10);
    while ((dir /= 10) != 0);
    ndp_buf_reset(key);
    ndp_buf_add(key, number + n, sizeof(number) - n);
    ndp_buf_addch(key, '\n');
    ndp_buf_add(key, type, type_len);
    ndp_buf_addch(key, '\n');
    ndp_buf_add(key, name, name_len);
}

/* Counts a block at 'start' of file number 'file', if its site is wanted. */
static void add_block(struct file_cache *cache, struct ndp_buf *key,
                      size_t file, const char *start)
{
    struct block_site *site;
    size_t i = ndp_strmap_find(&cache->sites_by_key, key->buf);

    if (i == SIZE_MAX)
        return;
    site = &cache->sites[i];
    if (!site->count++) {
        site->file = file;
        site->offset = (size_t)(start - cache->items[file].text.buf);
    }
}

/*
 * Every 'resource "TYPE" "NAME"' at the start of a line of code (not in
 * a comment, string or heredoc) in the .tf files of directory number
 * 'dir', in the order the directory lists them, counted for the sites
 * wanted: one pass over each file.
 */
static void index_directory(struct file_cache *cache, size_t dir)
{
    struct ndp_buf path = NDP_BUF_INIT, key = NDP_BUF_INIT;
    const char *where = cache->dirs[dir].path;
    DIR *d = ndp_worktree_confines(&cache->tree, where) ? opendir(where) : NULL;
    struct dirent *de;

    cache->dirs[dir].indexed = true;
    while (d && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name), type_len, name_len, file;
        const struct text_file *f;
        const char *line, *type, *name;

        if (len < 4 || strcmp(de->d_name + len - 3, ".tf") != 0)
            continue;
        ndp_buf_reset(&path);
        ndp_buf_addf(&path, "%s/%s", where, de->d_name);
        f = load(cache, path.buf, true, NDP_SOURCE_HCL);
        file = (size_t)(f - cache->items);
        for (line = f->text.buf; line; line = strchr(line, '\n'),
            line = line ? line + 1 : NULL) {
            if (!block_header(line, &type, &type_len, &name, &name_len) ||
                !is_code(f, line))
                continue;
            site_key(&key, dir, type, type_len, name, name_len);
            add_block(cache, &key, file, line);
        }
    }
    if (d)
        closedir(d);
    ndp_buf_release(&path);
    ndp_buf_release(&key);
}

/* Where the block starting at 'start' ends (its closing brace in code). */
static const char *block_end(const struct text_file *f, const char *start)
{
    const char *p = start;
    int depth = 0;

    for (; *p; p++) {
        if ((*p != '{' && *p != '}') || !is_code(f, p))
            continue;
        if (*p == '{')
            depth++;
        else if (--depth == 0)
            return p;
    }
    return p;
}

/*
 * First line in [from, to) whose first word is 'name' (quoted or not)
 * followed by '=' or '{' (HCL) or ':' (Bicep, JSON).
 */
static const char *find_attribute(const struct text_file *f,
                                  const char *from, const char *to,
                                  const char *name, size_t n)
{
    const char *line = from;

    while (line < to) {
        const char *p = line + strspn(line, " \t");
        const char *eol = memchr(line, '\n', (size_t)(to - line));
        const char *w = *p == '"' ? p + 1 : p;
        if ((size_t)(to - w) > n && strncmp(w, name, n) == 0) {
            const char *q = w + n + (*p == '"' && w[n] == '"');
            q += strspn(q, " \t");
            if ((*q == '=' || *q == '{' || *q == ':') &&
                ndp_source_token_at(&f->map, (size_t)(p - f->text.buf)))
                return p;
        }
        if (!eol)
            break;
        line = eol + 1;
    }
    return NULL;
}

/* Path segment names, deepest first: a.b[0].c -> "c", "b", "a". */
static const char *attribute_in(const struct text_file *f,
                                const char *from, const char *to,
                                const char *path)
{
    char names[16][128];
    size_t count = 0, n;
    const char *p = path;

    while (*p && count < 16) {
        n = strcspn(p, ".[");
        if (n && n < sizeof(names[0])) {
            memcpy(names[count], p, n);
            names[count++][n] = '\0';
        }
        p += n;
        if (*p == '[')
            p += strcspn(p, "]") + (p[strcspn(p, "]")] ? 1 : 0);
        if (*p == '.')
            p++;
    }
    while (count--) {
        const char *hit = find_attribute(f, from, to, names[count],
                                         strlen(names[count]));
        if (hit)
            return hit;
    }
    return NULL;
}

/* "module.a.azurerm_x.name[0]" -> type "azurerm_x", name "name". */
static bool split_resource(const char *address, char *type, char *name,
                           size_t size)
{
    const char *p = address, *dot;
    size_t n;

    while (strncmp(p, "module.", 7) == 0) {
        dot = strchr(p + 7, '.');
        if (!dot)
            return false;
        /* A module instance key may hold dots: skip past its bracket. */
        if (memchr(p + 7, '[', (size_t)(dot - p - 7)) &&
            strchr(p, ']') && strchr(p, ']') > dot)
            dot = strchr(strchr(p, ']'), '.');
        if (!dot)
            return false;
        p = dot + 1;
    }
    dot = strchr(p, '.');
    if (!dot || (size_t)(dot - p) >= size)
        return false;
    memcpy(type, p, (size_t)(dot - p));
    type[dot - p] = '\0';
    n = strcspn(dot + 1, "[");
    if (n >= size)
        return false;
    memcpy(name, dot + 1, n);
    name[n] = '\0';
    return true;
}

/* The start of the line holding 'p'. */
static const char *line_start(const char *text, const char *p)
{
    while (p > text && p[-1] != '\n')
        p--;
    return p;
}

/*
 * Is the "ndplint:ignore" on the line at 'line' of 'tf' in a comment of
 * the code ('#' or '//'), not in a block comment, a string or a heredoc?
 */
static bool in_line_comment(const struct text_file *tf, const char *line)
{
    const char *end = line + strcspn(line, "\n"), *p = line;
    size_t start, stop;

    while ((p = ndp_memmem(p, (size_t)(end - p), "ndplint:ignore", 14)) !=
           NULL) {
        if (ndp_source_line_comment(&tf->map, (size_t)(p - tf->text.buf),
                                    &start, &stop))
            return true;
        p += 14;
    }
    return false;
}

/*
 * Does the ignore comment on the line at 'line' (its start; line number
 * 'no' of 'file') suppress 'f'?  Sets its suppression if so; records a
 * comment without a rule or a reason in 'bad'.
 */
static bool ignored_on(struct ndp_finding *f, size_t index,
                       struct bad_ignores *bad, const struct text_file *tf,
                       long no, const char *line, bool hash)
{
    struct ndp_ignore ig;
    enum ndp_ignore_status st = ndp_ignore_parse(&ig, line,
                                                 NDP_IGNORE_SCAN_MAX, hash);
    struct ndp_buf b = NDP_BUF_INIT;
    bool code = st != NDP_IGNORE_NONE && in_line_comment(tf, line);

    if (st == NDP_IGNORE_NONE)
        return false;
    if (st != NDP_IGNORE_OK || !code) {
        NDP_GROW(bad->items, bad->alloc, bad->nr + 1);
        bad->items[bad->nr].file = ndp_xstrdup(tf->path);
        bad->items[bad->nr].line = no;
        bad->items[bad->nr].finding = index;
        bad->items[bad->nr].not_code = !code;
        bad->items[bad->nr++].status = st;
        return false;
    }
    if (!ndp_ignore_names(&ig, f->rule_id))
        return false;
    /* The comment sits at the new address: renaming a resource past an
     * ignore must not waive it (its finding says so). */
    if (f->rename && f->rename->resource_from)
        return false;
    if (f->suppression)
        return true;
    ndp_buf_adds(&b, "ignored by 'ndplint:ignore ");
    ndp_buf_add(&b, ig.rules, ig.rules_len);
    ndp_buf_addf(&b, "' at %s:%ld: ", tf->path, no);
    ndp_buf_add(&b, ig.reason, ig.reason_len);
    if (ig.truncated)
        ndp_buf_adds(&b, "...");
    ndp_finding_suppress(f, b.buf);
    ndp_buf_release(&b);
    return true;
}

/*
 * The ignores that apply to 'f', located at 'at' in 'file': on its own
 * line, then on the line that opens its resource ('opening', or NULL).
 */
static void check_ignores(struct ndp_finding *f, size_t index,
                          struct bad_ignores *bad, const struct text_file *tf,
                          const char *at, const char *opening, bool hash)
{
    const char *text = tf->text.buf;
    const char *own = line_start(text, at);

    if (ignored_on(f, index, bad, tf, f->source_line, own, hash))
        return;
    if (opening && line_start(text, opening) != own)
        ignored_on(f, index, bad, tf, line_at(tf, opening),
                   line_start(text, opening), hash);
}

/* The number of directory 'path', added if new. */
static size_t source_dir(struct file_cache *cache, const char *path)
{
    size_t i = ndp_strmap_find(&cache->dirs_by_path, path);

    if (i != SIZE_MAX)
        return i;
    NDP_GROW(cache->dirs, cache->alloc_dirs, cache->nr_dirs + 1);
    cache->dirs[cache->nr_dirs].path = ndp_xstrdup(path);
    cache->dirs[cache->nr_dirs].indexed = false;
    ndp_strmap_add(&cache->dirs_by_path, cache->dirs[cache->nr_dirs].path,
                   cache->nr_dirs);
    return cache->nr_dirs++;
}

/*
 * Where the Terraform resource of change 'ch' is looked for: its module's
 * directory (number '*dir') and its type and name.  False when it is not
 * looked for: no local module, an address it cannot split, or a type or
 * name with a quote or a line end, which no block header names.
 */
static bool site_of(struct file_cache *cache, const struct ndp_change *ch,
                    const char *root, size_t *dir, char *type, char *name,
                    size_t size)
{
    struct ndp_buf path = NDP_BUF_INIT;

    if (!ch->source_dir || !split_resource(ch->address, type, name, size) ||
        strpbrk(type, "\"\n") || strpbrk(name, "\"\n"))
        return false;
    ndp_buf_addf(&path, "%s%s%s", root, *ch->source_dir ? "/" : "",
                 ch->source_dir);
    *dir = source_dir(cache, path.buf);
    ndp_buf_release(&path);
    return true;
}

/* Registers the site of 'ch' as wanted (before any directory is read). */
static void want_site(struct file_cache *cache, const struct ndp_change *ch,
                      const char *root)
{
    struct ndp_buf key = NDP_BUF_INIT;
    struct block_site *site;
    char type[128], name[128];
    size_t dir;

    if (!site_of(cache, ch, root, &dir, type, name, sizeof(type)))
        return;
    site_key(&key, dir, type, strlen(type), name, strlen(name));
    if (ndp_strmap_find(&cache->sites_by_key, key.buf) != SIZE_MAX) {
        ndp_buf_release(&key);
        return;
    }
    NDP_GROW(cache->sites, cache->alloc_sites, cache->nr_sites + 1);
    site = &cache->sites[cache->nr_sites];
    memset(site, 0, sizeof(*site));
    site->key = ndp_buf_detach(&key);
    site->file = SIZE_MAX;
    ndp_strmap_add(&cache->sites_by_key, site->key, cache->nr_sites++);
}

/* The site of a resource registered by want_site(), its directory read. */
static const struct block_site *find_site(struct file_cache *cache,
                                          size_t dir, const char *type,
                                          const char *name)
{
    static const struct block_site none = { NULL, SIZE_MAX, 0, 0, true };
    struct ndp_buf key = NDP_BUF_INIT;
    struct block_site *site;
    size_t i;

    if (!cache->dirs[dir].indexed)
        index_directory(cache, dir);
    site_key(&key, dir, type, strlen(type), name, strlen(name));
    i = ndp_strmap_find(&cache->sites_by_key, key.buf);
    ndp_buf_release(&key);
    if (i == SIZE_MAX)
        return &none;
    site = &cache->sites[i];
    if (!site->checked && site->count > 1) {
        ndp_warn("warning: resource \"%s\" \"%s\" is defined %zu times in "
                 "'%s'; its findings keep the plan's line and no "
                 "ndplint:ignore comment applies to them", type, name,
                 site->count, cache->dirs[dir].path);
        site->file = SIZE_MAX;
    }
    site->checked = true;
    return site;
}

static bool locate_terraform(struct ndp_finding *f, size_t index,
                             struct bad_ignores *bad,
                             const struct ndp_change *ch,
                             const char *root, struct file_cache *cache)
{
    char type[128], name[128];
    const struct block_site *site;
    const struct text_file *file;
    const char *block, *attr;
    size_t dir;

    if (!site_of(cache, ch, root, &dir, type, name, sizeof(type)))
        return false;
    site = find_site(cache, dir, type, name);
    if (site->file == SIZE_MAX)
        return false;
    file = &cache->items[site->file];
    block = file->text.buf + site->offset;
    attr = *f->path ? attribute_in(file, block, block_end(file, block),
                                   f->path)
                    : NULL;
    ndp_finding_locate(f, file->path,
                       line_at(file, attr ? attr : block));
    check_ignores(f, index, bad, file, attr ? attr : block, block, true);
    return true;
}

/*
 * The Bicep line 'resource NAME ...' above 'hit', looked for within
 * NDP_IGNORE_SCAN_MAX bytes, or NULL.
 */
static const char *opening_above(const char *text, const char *hit)
{
    const char *p = line_start(text, hit);
    const char *stop = (size_t)(p - text) > NDP_IGNORE_SCAN_MAX
                           ? p - NDP_IGNORE_SCAN_MAX : text;

    while (p > stop) {
        p = line_start(text, p - 1);
        if (strncmp(p, "resource ", 9) == 0)
            return p;
    }
    return NULL;
}

/*
 * Every string of code in the template 'tf' (up to a NUL byte, as the
 * text is read), by its quote and its text, with the offset of its first
 * opening quote: one pass, however many names are looked up.
 */
static void index_quoted(struct file_cache *cache, const struct text_file *tf)
{
    const char *text = tf->text.buf;
    size_t n = strlen(text), i;

    cache->quoted_built = true;
    for (i = 0; i < n; i++) {
        const char *end;
        char *key;

        if ((text[i] != '\'' && text[i] != '"') ||
            !ndp_source_token_at(&tf->map, i) ||
            !(end = memchr(text + i + 1, text[i], n - i - 1)))
            continue;
        key = ndp_xmalloc((size_t)(end - text) - i + 1);
        memcpy(key, text + i, (size_t)(end - text) - i);
        key[(size_t)(end - text) - i] = '\0';
        if (ndp_strmap_add(&cache->quoted, key, i) != i) {
            free(key); /* an earlier string says the same */
            continue;
        }
        NDP_GROW(cache->quoted_keys, cache->alloc_quoted,
                 cache->nr_quoted + 1);
        cache->quoted_keys[cache->nr_quoted++] = key;
    }
}

/*
 * The first string of code in 'tf' that quotes 'name' ('name' or
 * "name"), not one in a comment, or NULL.  A name holding the quote is
 * quoted by no string of the index.
 */
static const char *find_quoted(struct file_cache *cache,
                               const struct text_file *tf, const char *name)
{
    struct ndp_buf key = NDP_BUF_INIT;
    size_t at = SIZE_MAX;
    const char *quote;

    if (!cache->quoted_built)
        index_quoted(cache, tf);
    for (quote = "'\""; *quote && at == SIZE_MAX; quote++) {
        if (strchr(name, *quote))
            continue;
        ndp_buf_reset(&key);
        ndp_buf_addch(&key, *quote);
        ndp_buf_adds(&key, name);
        at = ndp_strmap_find(&cache->quoted, key.buf);
    }
    ndp_buf_release(&key);
    return at == SIZE_MAX ? NULL : tf->text.buf + at;
}

static bool locate_template(struct ndp_finding *f, size_t index,
                            struct bad_ignores *bad,
                            const char *template_path,
                            struct file_cache *cache)
{
    const struct text_file *tf = load(cache, template_path, false,
                                      NDP_SOURCE_TEMPLATE);
    const char *text = tf->text.buf;
    const char *slash = strrchr(f->resource, '/');
    const char *hit, *name_line, *opening, *end, *attr;

    if (!slash || !tf->text.len || !(hit = find_quoted(cache, tf, slash + 1)))
        return false;
    /* The attribute inside the resource: up to the next resource. */
    name_line = hit;
    end = strstr(hit, "\nresource ");
    attr = *f->path ? attribute_in(tf, hit, end ? end : hit + strlen(hit),
                                   f->path)
                    : NULL;
    if (attr)
        hit = attr;
    ndp_finding_locate(f, template_path, line_at(tf, hit));
    /* The resource's lines: the one naming it, and 'resource' above. */
    check_ignores(f, index, bad, tf, hit, name_line, false);
    opening = opening_above(text, name_line);
    if (!f->suppression && opening)
        ignored_on(f, index, bad, tf, line_at(tf, opening), opening,
                   false);
    return true;
}

static int compare_bad(const void *pa, const void *pb)
{
    const struct bad_ignore *a = pa, *b = pb;
    int d = strcmp(a->file, b->file);

    if (d)
        return d;
    return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * The finding an ignore comment's warning is made like: of those that
 * led to the comment at bad->items[i], the first in report order.  The
 * comments are sorted, so those are bad->items[i .. *end - 1].
 */
static const struct ndp_finding *model_of(const struct ndp_findings *findings,
                                          const struct bad_ignores *bad,
                                          size_t i, size_t *end)
{
    const struct ndp_finding *model = &findings->items[bad->items[i].finding];

    for (*end = i + 1; *end < bad->nr &&
                       compare_bad(&bad->items[i], &bad->items[*end]) == 0;
         ++*end) {
        const struct ndp_finding *f =
            &findings->items[bad->items[*end].finding];
        if (ndp_finding_compare(f, model) < 0)
            model = f;
    }
    return model;
}

/* One warning per ignore comment that names no rule or no reason. */
static void add_bad_ignores(struct ndp_findings *findings,
                            struct bad_ignores *bad,
                            const struct ndp_ruleset *rs)
{
    size_t i, next;

    if (!bad->nr)
        return;
    qsort(bad->items, bad->nr, sizeof(*bad->items), compare_bad);
    for (i = 0; i < bad->nr; i = next) {
        const struct bad_ignore *b = &bad->items[i];
        const struct ndp_finding *model = model_of(findings, bad, i, &next);
        struct ndp_buf msg = NDP_BUF_INIT;
        struct ndp_finding_spec spec = {
            .ruleset = rs,
            .verdict = NDP_VERDICT_IGNORE_WITHOUT_REASON,
            .scope = NDP_SCOPE_CLUSTER,
            .input = model->input,
            .cluster = model->cluster,
            .cluster_index = model->cluster_index,
            .resource = model->resource,
            .line = model->line,
            .rename = model->rename,
        };
        if (b->not_code)
            ndp_buf_addf(&msg, "the ndplint:ignore comment at %s:%ld stands "
                         "inside a block comment, a string or a heredoc, not "
                         "in a comment of the code, so it suppresses nothing; "
                         "write it as a '#' or '//' comment on the resource's "
                         "line", b->file, b->line);
        else
            ndp_buf_addf(&msg, "the ndplint:ignore comment at %s:%ld %s, so "
                         "it suppresses nothing; write 'ndplint:ignore RULE "
                         "why the change is accepted'", b->file, b->line,
                         b->status == NDP_IGNORE_NO_RULE ? "names no rule id"
                                                         : "gives no reason");
        spec.message = msg.buf;
        /* The model's strings stay where they are when the array grows. */
        ndp_finding_locate(ndp_findings_add(findings, &spec), b->file,
                           b->line);
        ndp_buf_release(&msg);
    }
    for (i = 0; i < bad->nr; i++)
        free(bad->items[i].file);
    free(bad->items);
}

void ndp_locate_sources(struct ndp_findings *findings,
                        const struct ndp_changeset *set,
                        const char *source_root, const char *template_path,
                        const struct ndp_ruleset *rs)
{
    struct file_cache cache = { .items_by_path = NDP_STRMAP_INIT(false),
                                .sites_by_key = NDP_STRMAP_INIT(false),
                                .dirs_by_path = NDP_STRMAP_INIT(false),
                                .quoted = NDP_STRMAP_INIT(false),
                                .bytes_left = TOTAL_LIMIT,
                                .files_left = FILES_LIMIT };
    struct bad_ignores bad = { NULL, 0, 0 };
    struct ndp_change_index changes;
    const char *root = source_root ? source_root : ".";
    size_t i;

    ndp_worktree_open(&cache.tree, root);
    ndp_change_index_build(&changes, set, false);
    /* The resource blocks wanted, before any directory is read. */
    for (i = 0; i < findings->nr; i++) {
        const struct ndp_change *ch = ndp_change_index_find(
            &changes, findings->items[i].input, findings->items[i].resource);
        if (ch)
            want_site(&cache, ch, root);
    }
    for (i = 0; i < findings->nr; i++) {
        struct ndp_finding *f = &findings->items[i];
        const struct ndp_change *ch =
            ndp_change_index_find(&changes, f->input, f->resource);
        /* Only the Terraform reader knows module directories. */
        if (ch && ch->source_dir)
            locate_terraform(f, i, &bad, ch, root, &cache);
        else if (template_path && f->resource[0] == '/')
            locate_template(f, i, &bad, template_path, &cache);
    }
    add_bad_ignores(findings, &bad, rs);
    release_cache(&cache);
    ndp_change_index_release(&changes);
}
