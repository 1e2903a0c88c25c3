/*
 * SPDX-License-Identifier: Apache-2.0
 * input_split.c - the pruned parser's second thread (input_internal.h).
 *
 * A long top-level list (resource_changes, changes) in a complete text is
 * split between two threads: the second starts at an element boundary
 * further on and walks to the end of the document, while the first walks
 * from the start.  The second thread's work is used only if the first
 * reaches that same boundary as an element of the same list, in exactly
 * the state the second one assumed; then both cursors would have read the
 * same bytes from the same state, so the result is the one a single
 * thread gets.  Otherwise its work is dropped and the first thread goes
 * on alone.  The second thread gives up on what would depend on the part
 * before it (an element without its discriminating member, another
 * counted list).
 *
 * The pruner (input_prune.c) asks for a second thread when it meets a
 * counted list, stops where that thread started, and takes its work over
 * or drops it; only this file starts, joins and cancels the thread.
 */
#include "common.h"
#include "input_internal.h"
#include "compat.h"
#include "jscan.h"

#include <json-c/json.h>
#include <pthread.h>
#include <stdatomic.h>

struct ndp_split {
    pthread_t thread;
    atomic_bool cancel;
    size_t start;                    /* where its first element begins */
    bool early;                      /* ndp_split_start_early() started it */
    enum ndp_prune_filter f;
    ndp_split_walk *walk;            /* the pruner's walk, run on it */
    struct ndp_pruner p;
    struct ndp_jscan s;
    struct json_object *kept;        /* its kept elements, in order */
    size_t count;                    /* elements it walked */
    struct json_object *tail;        /* top-level members after the list */
    int rc;
};

/* Second threads whose work was taken over, and of those the ones started
 * early (ndp_prune_splits_taken()). */
static atomic_size_t splits_taken, early_splits_taken, early_splits_started;

size_t ndp_prune_early_splits_started(void)
{
    return atomic_load(&early_splits_started);
}

size_t ndp_prune_splits_taken(size_t *early)
{
    if (early)
        *early = atomic_load(&early_splits_taken);
    return atomic_load(&splits_taken);
}

static void split_free(struct ndp_split *sp)
{
    free(sp->p.marks);
    json_tokener_free(sp->p.tok);
    json_object_put(sp->kept);
    json_object_put(sp->tail);
    free(sp);
}

/* Stops the second thread, if any, and drops its work. */
void ndp_split_cancel(struct ndp_pruner *p)
{
    struct ndp_split *sp = p->split;

    if (!sp)
        return;
    p->split = NULL;
    atomic_store(&sp->cancel, true);
    pthread_join(sp->thread, NULL);
    split_free(sp);
}

/*
 * The second thread stops where its work would depend on the text before
 * its start; the first thread then does all of it.
 */
int ndp_split_give_up(struct ndp_pruner *p)
{
    p->needs_earlier_text = true;
    return NDP_EPARSE;
}

/* Is the second thread no longer wanted (only ever true in it)? */
bool ndp_split_cancelled(const struct ndp_pruner *p)
{
    return p->started_mid_list && atomic_load(p->cancel);
}

/* How a list's elements begin, as its first element shows it. */
struct element_shape {
    const char *key;     /* its first key, with its quotes, in the text */
    size_t key_len;
    bool own_line;       /* the first element begins a line */
    size_t indent;       /* then: the white space before its '{' */
};

static bool is_json_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* Longest first key the split looks for; longer ones are not split. */
#define SPLIT_KEY_MAX 64
/* Longest run of white space between two elements it looks across. */
#define SPLIT_GAP_MAX 4096

/*
 * The shape of the list's first element, which begins after the white
 * space at 'pos': an object with a plain first key.  False for anything
 * else (no split).
 */
static bool first_element_shape(const char *text, size_t len, size_t pos,
                                struct element_shape *shape)
{
    size_t at = pos, key, end;

    while (at < len && is_json_space(text[at]))
        at++;
    if (at >= len || text[at] != '{')
        return false;
    shape->own_line = memchr(text + pos, '\n', at - pos) != NULL;
    shape->indent = 0;
    while (shape->own_line && shape->indent < at - pos &&
           text[at - 1 - shape->indent] != '\n')
        shape->indent++;
    key = at + 1;
    while (key < len && is_json_space(text[key]))
        key++;
    if (key >= len || text[key] != '"')
        return false;
    for (end = key + 1; end < len && end - key <= SPLIT_KEY_MAX; end++) {
        if (text[end] == '\\' || (unsigned char)text[end] < 0x20)
            return false;
        if (text[end] == '"') {
            shape->key = text + key;
            shape->key_len = end + 1 - key;
            return true;
        }
    }
    return false;
}

/*
 * Does an element of that shape begin at the '{' before the key at 'hit'?
 * Then returns where its '{' is; else SIZE_MAX.  Looks back only: '}',
 * white space, ',', white space, '{', white space, the key -- and when the
 * first element began a line, this one must begin a line at the same
 * indent (which tells the list's elements from objects in deeper lists).
 */
static size_t element_start_before(const char *text, size_t lo, size_t hit,
                                   const struct element_shape *shape)
{
    size_t at = hit, brace, gap_end, line = 0;
    bool newline = false;

    while (at > lo && hit - at < SPLIT_GAP_MAX && is_json_space(text[at - 1]))
        at--;
    if (at <= lo || text[at - 1] != '{')
        return SIZE_MAX;
    brace = --at;
    gap_end = at;
    while (at > lo && gap_end - at < SPLIT_GAP_MAX &&
           is_json_space(text[at - 1])) {
        if (text[at - 1] == '\n' && !newline) {
            newline = true;
            line = gap_end - at;
        }
        at--;
    }
    if (shape->own_line && (!newline || line != shape->indent))
        return SIZE_MAX;
    if (at <= lo || text[at - 1] != ',')
        return SIZE_MAX;
    at--;
    while (at > lo && gap_end - at < SPLIT_GAP_MAX &&
           is_json_space(text[at - 1]))
        at--;
    return at > lo && text[at - 1] == '}' ? brace : SIZE_MAX;
}

/*
 * The first element boundary of the list at or after 'from': a guess,
 * which the first thread confirms by reaching it as an element of the
 * same list (a guess inside a string or a deeper list is never confirmed,
 * and only costs the second thread's work).  SIZE_MAX when there is none.
 */
static size_t find_element_start(const char *text, size_t len, size_t lo,
                                 size_t from,
                                 const struct element_shape *shape)
{
    const char *hit;

    while (from < len &&
           (hit = ndp_memmem(text + from, len - from, shape->key,
                             shape->key_len)) != NULL) {
        size_t start = element_start_before(text, lo, (size_t)(hit - text),
                                            shape);
        if (start != SIZE_MAX)
            return start;
        from = (size_t)(hit - text) + 1;
    }
    return SIZE_MAX;
}

/* The second thread: the rest of the list, then of the document. */
static void *run_second(void *arg)
{
    struct ndp_split *sp = arg;

    sp->rc = sp->walk(&sp->p, &sp->s, sp->f, sp->kept, &sp->count, sp->tail);
    return NULL;
}

/*
 * Starts the second thread at 'start', an element of the list of kind 'f'
 * ('where': its elements, in words).  Returns 'start', or SIZE_MAX when no
 * thread could start.
 */
static size_t start_second(struct ndp_pruner *p, enum ndp_prune_filter f,
                           const char *where, ndp_split_walk *walk,
                           size_t start, bool early)
{
    struct ndp_split *sp = ndp_xcalloc(1, sizeof(*sp));

    atomic_init(&sp->cancel, false);
    sp->start = start;
    sp->early = early;
    sp->f = f;
    sp->walk = walk;
    sp->p.text = p->text;
    sp->p.len = p->len;
    sp->p.complete = true;
    sp->p.started_mid_list = true;
    sp->p.cancel = &sp->cancel;
    sp->p.list = where;
    sp->p.tok = json_tokener_new_ex(NDP_MAX_JSON_DEPTH);
    sp->p.lines_at = start;     /* its lines count from 0 there */
    sp->p.tune = p->tune;
    sp->p.mapped = p->mapped;
    ndp_jscan_init_inside(&sp->s, p->text, p->len, NDP_MAX_JSON_DEPTH, "{[",
                          sp->start);
    sp->kept = json_object_new_array();
    sp->tail = json_object_new_object();
    if (pthread_create(&sp->thread, NULL, run_second, sp) != 0) {
        split_free(sp);
        return SIZE_MAX;
    }
    p->split = sp;
    return sp->start;
}

/*
 * Starts a second thread on the far part of the list at the cursor when it
 * pays.  Returns where its first element begins (the first thread stops
 * there), or SIZE_MAX when there is no second thread.  A thread started
 * early for this list (ndp_split_start_early()) is this list's when it
 * starts ahead of the cursor; one that does not is stopped.
 */
size_t ndp_split_start(struct ndp_pruner *p, const struct ndp_jscan *s,
                       enum ndp_prune_filter f, ndp_split_walk *walk)
{
    struct element_shape shape;
    unsigned percent = p->tune->split_percent < 100 ? p->tune->split_percent
                                                    : 99;
    size_t start;

    if (p->split && p->split->f == f && p->split->start > s->pos)
        return p->split->start;
    if (p->split && p->split->f == f)
        ndp_split_cancel(p);
    if (p->src || p->started_mid_list || p->split || s->depth != 2 ||
        p->len - s->pos < p->tune->split_min_bytes ||
        !first_element_shape(p->text, p->len, s->pos, &shape))
        return SIZE_MAX;
    start = find_element_start(p->text, p->len, s->pos,
                               s->pos + (p->len - s->pos) / 100 * percent,
                               &shape);
    if (start == SIZE_MAX)
        return SIZE_MAX;
    return start_second(p, f, p->list, walk, start, false);
}

/* How far past each byte aimed at an entry of a plan is looked for, and
 * by how much of the rest the aim moves back when none is found there
 * (that byte may be past the list's end already). */
#define EARLY_SEARCH_MAX ((size_t)64 << 10)
#define EARLY_STEP_PERCENT 5
#define EARLY_TRIES 4
/* The bytes of an entry its "change" begins in. */
#define CHANGE_WITHIN 4096

/* Skips white space from 'at'; then does 'token' follow? */
static bool token_at(const char *text, size_t len, size_t *at,
                     const char *token)
{
    size_t n = strlen(token);

    while (*at < len && is_json_space(text[*at]))
        (*at)++;
    if (len - *at < n || memcmp(text + *at, token, n) != 0)
        return false;
    *at += n;
    return true;
}

/*
 * Does the object at 'brace' look like an entry of a plan's
 * resource_changes (not a resource of planned_values or prior_state,
 * which also begin with "address")?  Its "change" member, an object whose
 * first member is "actions", begins within its first bytes, before any
 * other "address" key.
 */
static bool looks_like_plan_entry(const char *text, size_t len, size_t brace)
{
    size_t end = len - brace > CHANGE_WITHIN ? brace + CHANGE_WITHIN : len;
    size_t at = brace + 1;
    const char *change, *other;

    if (!token_at(text, end, &at, "\"address\""))
        return false;
    change = ndp_memmem(text + at, end - at, "\"change\"", 8);
    if (!change)
        return false;
    other = ndp_memmem(text + at, (size_t)(change - text) - at,
                       "\"address\"", 9);
    at = (size_t)(change - text) + 8;
    return !other && token_at(text, end, &at, ":") &&
           token_at(text, end, &at, "{") &&
           token_at(text, end, &at, "\"actions\"");
}

/* The first entry of a plan's resource_changes that begins within
 * EARLY_SEARCH_MAX bytes after 'from', or SIZE_MAX. */
static size_t find_plan_entry(const char *text, size_t len, size_t lo,
                              size_t from)
{
    static const struct element_shape entry = { "\"address\"", 9, false, 0 };
    size_t limit = len - from > EARLY_SEARCH_MAX ? from + EARLY_SEARCH_MAX
                                                 : len;

    for (;;) {
        size_t start = find_element_start(text, limit, lo, from, &entry);

        if (start == SIZE_MAX || looks_like_plan_entry(text, len, start))
            return start;
        /* On from the key of that object. */
        from = start + 1;
        (void)token_at(text, len, &from, "\"address\"");
    }
}

size_t ndp_split_start_early(struct ndp_pruner *p, const struct ndp_jscan *s,
                             enum ndp_prune_filter f, const char *where,
                             ndp_split_walk *walk)
{
    size_t start = SIZE_MAX;
    unsigned early_percent = p->tune->early_percent < 100
                                 ? p->tune->early_percent
                                 : 99;
    unsigned i;

    if (p->src || p->started_mid_list || p->split || p->tried_early ||
        s->depth != 1 || p->len - s->pos < p->tune->split_min_bytes)
        return SIZE_MAX;
    p->tried_early = true;
    for (i = 0; i < EARLY_TRIES && start == SIZE_MAX; i++) {
        unsigned percent = early_percent > i * EARLY_STEP_PERCENT
                               ? early_percent - i * EARLY_STEP_PERCENT
                               : 0;

        start = find_plan_entry(p->text, p->len, s->pos,
                                s->pos + (p->len - s->pos) / 100 * percent);
    }
    if (start == SIZE_MAX)
        return SIZE_MAX;
    atomic_fetch_add(&early_splits_started, 1);
    return start_second(p, f, where, walk, start, true);
}

/*
 * The first thread has reached the second one's start as an element of
 * the same list: takes over its kept elements, count, cursor, result and
 * the top-level members after the list ('p->tail_members').  False when
 * the second thread gave up (the first goes on alone).
 */
bool ndp_split_take(struct ndp_pruner *p, struct ndp_jscan *s,
                    struct json_object *list, size_t *count, int *rc)
{
    struct ndp_split *sp = p->split;
    long start_line = ndp_prune_line_at(p, sp->start); /* while it runs */
    struct ndp_jscan_progress *progress;
    size_t i, n;

    p->split = NULL;
    pthread_join(sp->thread, NULL);
    if (sp->p.needs_earlier_text) {
        split_free(sp);
        return false;
    }
    /* Its lines were counted from its start: now they are the text's.
     * After an error they are never read, and the entries of a tail it
     * had begun to build (configuration's resources) are gone with it. */
    for (i = 0; i < sp->p.nr_marks && sp->rc == 0; i++)
        sp->p.marks[i]->line += start_line;
    p->lines_at = sp->p.lines_at;
    p->line = start_line + sp->p.line;
    p->line_origin = start_line; /* where its scanner began */
    n = json_object_array_length(sp->kept);
    for (i = 0; i < n; i++)
        json_object_array_add(list, json_object_get(
                                        json_object_array_get_idx(sp->kept, i)));
    *count += sp->count;
    progress = s->progress;
    *s = sp->s; /* same text, same levels below the list */
    s->progress = progress; /* this thread's own pages given back */
    if (sp->p.dup_where) {
        p->dup_where = sp->p.dup_where;
        p->dup_pos = sp->p.dup_pos;
    }
    p->tail_members = sp->tail;
    sp->tail = NULL;
    *rc = sp->rc;
    atomic_fetch_add(&splits_taken, 1);
    if (sp->early)
        atomic_fetch_add(&early_splits_taken, 1);
    split_free(sp);
    return true;
}
