/*
 * SPDX-License-Identifier: Apache-2.0
 * input_lines.c - the lines the readers report resources at.
 *
 * The pruned tree keeps no positions, so a reader finds a resource's line
 * in the text: the pruned reader marks where each kept entry begins and
 * on which line (ndp_document_mark_entry; the lines counted by the thread
 * that read the entry, ndp_prune_line_at), and ndp_document_locate()
 * searches forward from there for the member that names the resource,
 * counting only the newlines between the two.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "jsonutil.h"
#include "compat.h"
#include "jscan.h"

#include <json-c/json.h>

/* Counts the newlines from where the last count stopped up to 'offset'. */
static long line_of(const struct ndp_document *doc, struct ndp_locator *loc,
                    size_t offset)
{
    loc->line += (long)ndp_jscan_count_newlines(doc->text + loc->counted,
                                                offset - loc->counted);
    loc->counted = offset;
    return loc->line;
}

/* Does '"key"' followed by ':' (spaces allowed) end just before 'at'? */
static bool preceded_by_key(const char *start, const char *at, const char *key)
{
    size_t n = strlen(key);
    const char *q = at;

    while (q > start && strchr(" \t\r\n", q[-1]))
        q--;
    if (q == start || q[-1] != ':')
        return false;
    q--;
    while (q > start && strchr(" \t\r\n", q[-1]))
        q--;
    return (size_t)(q - start) >= n + 2 && q[-1] == '"' &&
           memcmp(q - 1 - n, key, n) == 0 && q[-2 - (long)n] == '"';
}

/* First occurrence of 'needle' in [p, end), or NULL. */
static const char *find_bytes(const char *p, const char *end,
                              const char *needle, size_t n)
{
    if (p >= end)
        return NULL;
    return ndp_memmem(p, (size_t)(end - p), needle, n);
}

long ndp_prune_line_at(struct ndp_pruner *p, size_t offset)
{
    /* Back as well: streaming, an element is read again after a rewind. */
    if (offset >= p->lines_at)
        p->line += (long)ndp_jscan_count_newlines(p->text + p->lines_at,
                                                  offset - p->lines_at);
    else
        p->line -= (long)ndp_jscan_count_newlines(p->text + offset,
                                                  p->lines_at - offset);
    p->lines_at = offset;
    return p->line;
}

long ndp_prune_line_at_cursor(struct ndp_pruner *p, const struct ndp_jscan *s)
{
    /* Where the scanner's fast walks have counted to, when further on. */
    if (s->newlines_at > p->lines_at && s->newlines_at <= s->pos) {
        p->line = p->line_origin + (long)s->newlines;
        p->lines_at = s->newlines_at;
    }
    return ndp_prune_line_at(p, s->pos);
}

static void free_mark(struct json_object *entry, void *mark)
{
    (void)entry;
    free(mark);
}

struct ndp_entry_mark *ndp_document_mark_entry(struct json_object *entry,
                                               size_t offset, long line)
{
    struct ndp_entry_mark *mark;

    if (!json_object_is_type(entry, json_type_object))
        return NULL;
    mark = ndp_xmalloc(sizeof(*mark));
    mark->offset = offset;
    mark->line = line;
    json_object_set_userdata(entry, mark, free_mark);
    return mark;
}

static const struct ndp_entry_mark *mark_of(const struct json_object *entry)
{
    return entry ? json_object_get_userdata(ndp_json_unconst(entry)) : NULL;
}

/* Where a marked entry begins (0: not marked, never a member's offset). */
static size_t entry_offset(const struct json_object *entry)
{
    const struct ndp_entry_mark *mark = mark_of(entry);

    return mark ? mark->offset : 0;
}

/*
 * The line of a marked entry's first byte is known: the count goes on
 * from there instead of over the text before it.
 */
static void count_from_mark(const struct ndp_document *doc,
                            struct ndp_locator *loc,
                            const struct json_object *entry)
{
    const struct ndp_entry_mark *mark = mark_of(entry);

    if (mark && mark->line > 0 && mark->offset >= loc->counted &&
        mark->offset < doc->len) {
        loc->counted = mark->offset;
        loc->line = mark->line;
    }
}

/*
 * An entry the pruned reader did not mark (a document read whole): the
 * search starts at the first '"section"' at or after where it stands.  A
 * search of the whole text, so done once, and never for marked entries
 * (a large document is pruned, and its entries marked).
 */
static void start_after_section(const struct ndp_document *doc,
                                struct ndp_locator *loc)
{
    const char *p = find_bytes(doc->text + loc->from, doc->text + doc->len,
                               loc->section, strlen(loc->section));

    if (p)
        loc->from = (size_t)(p - doc->text);
    loc->section = NULL;
}

long ndp_document_locate(const struct ndp_document *doc,
                         struct ndp_locator *loc,
                         const struct json_object *entry, const char *key,
                         const char *value)
{
    struct ndp_buf needle = NDP_BUF_INIT;
    const char *p, *end = doc->text + doc->len;
    long line = 0;

    if (!entry_offset(entry) && loc->section)
        start_after_section(doc, loc);
    if (entry_offset(entry) > loc->from && entry_offset(entry) < doc->len)
        loc->from = entry_offset(entry);
    count_from_mark(doc, loc, entry);
    p = doc->text + loc->from;

    ndp_buf_add_json_string(&needle, value);
    while ((p = find_bytes(p, end, needle.buf, needle.len)) != NULL) {
        if (preceded_by_key(doc->text, p, key)) {
            loc->from = (size_t)(p - doc->text) + needle.len;
            line = line_of(doc, loc, (size_t)(p - doc->text));
            break;
        }
        p += needle.len;
    }
    ndp_buf_release(&needle);
    return line;
}
