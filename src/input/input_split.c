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
    enum ndp_prune_filter f;
    ndp_split_walk *walk;            /* the pruner's walk, run on it */
    struct ndp_pruner p;
    struct ndp_jscan s;
    struct json_object *kept;        /* its kept elements, in order */
    size_t count;                    /* elements it walked */
    struct json_object *tail;        /* top-level members after the list */
    int rc;
};

/* Texts from this size on are split, at the first element boundary after
 * this share of what is left (ndp_prune_tune_split() for tests). */
static size_t split_min_bytes = (size_t)8 << 20;
static unsigned split_percent = 45;

void ndp_prune_tune_split(size_t min_bytes, unsigned percent)
{
    split_min_bytes = min_bytes;
    split_percent = percent < 100 ? percent : 99;
}

static void split_free(struct ndp_split *sp)
{
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

/* The second thread: the rest of the list, then of the document. */
static void *run_second(void *arg)
{
    struct ndp_split *sp = arg;

    sp->rc = sp->walk(&sp->p, &sp->s, sp->f, sp->kept, &sp->count, sp->tail);
    return NULL;
}

/*
 * Starts a second thread on the far part of the list at the cursor when it
 * pays.  Returns where its first element begins (the first thread stops
 * there), or SIZE_MAX when there is no second thread.
 */
size_t ndp_split_start(struct ndp_pruner *p, const struct ndp_jscan *s,
                       enum ndp_prune_filter f, ndp_split_walk *walk)
{
    const char *from, *hit;
    struct ndp_split *sp;

    if (p->src || p->started_mid_list || p->split || s->depth != 2 ||
        p->len - s->pos < split_min_bytes)
        return SIZE_MAX;
    from = p->text + s->pos + (p->len - s->pos) / 100 * split_percent;
    hit = ndp_memmem(from, (size_t)(p->text + p->len - from), "},{\"", 4);
    if (!hit)
        return SIZE_MAX;
    sp = ndp_xcalloc(1, sizeof(*sp));
    atomic_init(&sp->cancel, false);
    sp->start = (size_t)(hit - p->text) + 2;
    sp->f = f;
    sp->walk = walk;
    sp->p.text = p->text;
    sp->p.len = p->len;
    sp->p.complete = true;
    sp->p.started_mid_list = true;
    sp->p.cancel = &sp->cancel;
    sp->p.list = p->list;
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
 * The first thread has reached the second one's start as an element of
 * the same list: takes over its kept elements, count, cursor, result and
 * the top-level members after the list ('p->tail_members').  False when
 * the second thread gave up (the first goes on alone).
 */
bool ndp_split_take(struct ndp_pruner *p, struct ndp_jscan *s,
                    struct json_object *list, size_t *count, int *rc)
{
    struct ndp_split *sp = p->split;
    size_t i, n;

    p->split = NULL;
    pthread_join(sp->thread, NULL);
    if (sp->p.needs_earlier_text) {
        split_free(sp);
        return false;
    }
    n = json_object_array_length(sp->kept);
    for (i = 0; i < n; i++)
        json_object_array_add(list, json_object_get(
                                        json_object_array_get_idx(sp->kept, i)));
    *count += sp->count;
    *s = sp->s; /* same text, same levels below the list */
    if (sp->p.dup_where) {
        p->dup_where = sp->p.dup_where;
        p->dup_pos = sp->p.dup_pos;
    }
    p->tail_members = sp->tail;
    sp->tail = NULL;
    *rc = sp->rc;
    split_free(sp);
    return true;
}
