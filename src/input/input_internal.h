/*
 * SPDX-License-Identifier: Apache-2.0
 * input_internal.h - what the files of the input stage share.
 *
 * Only the files in src/input/ (and the tests of this stage) include
 * this header; the rest of the program sees input.h.  It holds the pruned
 * parser (input_prune.c) and its second thread (input_split.c), the
 * document the readers see and their entry points (input_tfplan.c,
 * input_whatif.c, input_template.c), and the line locator the readers
 * share (input_lines.c).  The bytes come from src/util/load.h, as every
 * file's do.
 */
#ifndef NDP_INPUT_INTERNAL_H
#define NDP_INPUT_INTERNAL_H

#ifndef NDP_INSIDE_INPUT
#error "input_internal.h is internal to src/input/ and its tests"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "change.h"
#include "input.h"
#include "jscan.h"
#include "load.h"

struct json_object;
struct ndp_changeset;
struct ndp_error;
struct ndp_jscan;
struct ndp_split;

/* ---- input_prune.c: the pruned parse tree ------------------------------ */

/*
 * Validates 'text' with the scanner and builds the pruned tree the readers
 * use.  'mapped': 'text' is a mapped file's own pages, given back behind
 * the walk (ndp_load_mapped(); never for text the program holds).  'tune':
 * where a long list is split between two threads and how often pages go
 * back (borrowed; NULL: NDP_INPUT_TUNING_DEFAULT).  Returns 0 with '*out'
 * (owned by the caller) and '*seen' (entries
 * of the filtered lists; SIZE_MAX when the document was built whole and
 * the reader counts), NDP_EPARSE with the byte offset and a static
 * description of the syntax error, or NDP_ESCHEMA for a key met twice
 * where it decides what is judged: the offset of the second one's quote
 * and a static description of where it is ("an entry of
 * 'resource_changes'").
 */
int ndp_parse_pruned(struct json_object **out, size_t *seen,
                     const char *text, size_t len, bool mapped,
                     const struct ndp_input_tuning *tune,
                     size_t *err_pos, const char **err_msg);

/*
 * Text still arriving (standard input, read by another thread): wait()
 * returns how many bytes there are once at least 'want' are there, or all
 * of them, with '*complete' set, when the input ends first.  Bytes once
 * there do not change.
 */
struct ndp_text_source {
    size_t (*wait)(void *ctx, size_t want, bool *complete);
    void *ctx;
};

/*
 * ndp_parse_pruned() over text that is still arriving: validates and
 * prunes what has come while the rest comes in, and returns once all of
 * it has (the same results as ndp_parse_pruned() on the whole text).
 */
int ndp_parse_pruned_stream(struct json_object **out, size_t *seen,
                            const char *text,
                            const struct ndp_text_source *src,
                            size_t *err_pos, const char **err_msg);

/* ---- input_prune.c and input_split.c: the pruner and its second thread - */

/*
 * How the elements of a filtered list are kept (input_prune.c says which
 * list is filtered how).
 */
enum ndp_prune_filter {
    NDP_FILTER_PLAN_RESOURCES,  /* resource_changes[] by "type" */
    NDP_FILTER_DEFERRED,        /* deferred_changes[] by resource_change.type */
    NDP_FILTER_WHATIF_CHANGES,  /* changes[] by "resourceId" */
    NDP_FILTER_CONFIG_RESOURCES,/* configuration resources[] by "type" */
    NDP_FILTER_FIRST_ONLY       /* keep one element: "is there any?" */
};

/*
 * A walk's pages given back behind it (struct ndp_load_cursor), told by
 * the scanner as its fast walk goes by ('hook', first: the scanner calls
 * back through it) and by the pruner after each element.
 */
struct ndp_prune_cursor {
    struct ndp_jscan_progress hook;
    struct ndp_load_cursor pages;
};

/*
 * One walk over the text: the first thread's, or the second thread's from
 * an element in the middle of a list.  Private to the two files.
 */
struct ndp_pruner {
    const char *text;
    size_t len;             /* bytes there are (so far, when streaming) */
    size_t seen;            /* elements of the filtered top-level lists */
    bool filtered;          /* a counted list was filtered */
    bool kept_malformed;    /* an element without its discriminating
                               member was kept (only the first one is) */
    const struct ndp_text_source *src; /* NULL: all of the text is there */
    bool complete;          /* no more bytes will come */
    struct ndp_split *split;    /* a second thread on the far part of a list */
    bool tried_early;       /* ndp_split_start_early() looked */
    struct json_object *tail_members; /* the second thread's work was
                               taken over: the members of the top-level
                               object after the list, still to be added */
    bool started_mid_list;  /* this pruner starts at an element in the
                               middle of a list (the second thread): it
                               has not seen the text before it */
    bool needs_earlier_text; /* ... and met what depends on that text:
                               its work is dropped, the first thread
                               does it all */
    atomic_bool *cancel;    /* the second thread is no longer wanted */
    const char *list;       /* where the filtered list being walked is,
                               in words, for a duplicated key */
    const char *dup_where;  /* a duplicated key was met (NDP_ESCHEMA):
                               where, in words; NULL: none */
    size_t dup_pos;         /* ... and where its second occurrence is */
    struct json_tokener *tok; /* parses the kept values, reset for each
                               (one per pruner: a new one costs a zeroed
                               stack as deep as the nesting limit) */
    size_t lines_at;        /* newlines are counted up to this byte ... */
    long line;              /* ... which is on this line (the second
                               thread: newlines since its start) */
    long line_origin;       /* the line where the scanner began (its
                               count of newlines starts there) */
    struct ndp_entry_mark **marks; /* the second thread's marks, whose
                               lines ndp_split_take() makes absolute */
    size_t nr_marks, alloc_marks;
    const struct ndp_input_tuning *tune; /* where lists split, how often
                               pages go back (never NULL: the default is
                               filled in) */
    bool mapped;            /* the text is a mapped file's: its pages go
                               back behind the walk ... */
    struct ndp_prune_cursor cursor; /* ... this walk's */
};

/*
 * The second thread's walk, which the pruner hands to ndp_split_start():
 * from the element at the cursor to the end of the list (its kept
 * elements into 'kept', all of them counted in '*count'), then the
 * top-level members after the list (into 'tail').  Returns 0 or the error
 * that ended it.
 */
typedef int ndp_split_walk(struct ndp_pruner *p, struct ndp_jscan *s,
                           enum ndp_prune_filter f, struct json_object *kept,
                           size_t *count, struct json_object *tail);

/*
 * Starts a second thread running 'walk' on the far part of the counted
 * list at the cursor when it pays (a complete text, a long list).  Returns where its
 * first element begins (the first thread stops there), or SIZE_MAX when
 * there is no second thread.
 */
size_t ndp_split_start(struct ndp_pruner *p, const struct ndp_jscan *s,
                       enum ndp_prune_filter f, ndp_split_walk *walk);
/*
 * A second thread started before the first reaches the list: at the top
 * of a large plan, the first thread still to walk what comes before
 * resource_changes (terraform writes planned_values first), a thread
 * starts at an entry of resource_changes found in the 64 KiB after the
 * middle of what is left, or after 45, 40 or 35 % of it when there is
 * none there (the list may end before the middle): an object beginning
 * with "address" whose "change" begins with "actions".  It runs as a
 * list of kind 'f' ('where': its elements, in words).
 * ndp_split_start() hands it to that list when the first thread gets
 * there; the first thread confirms the guess as it does any other.  Tried
 * once a document; returns the start, or SIZE_MAX.
 */
size_t ndp_split_start_early(struct ndp_pruner *p, const struct ndp_jscan *s,
                             enum ndp_prune_filter f, const char *where,
                             ndp_split_walk *walk);
/*
 * The first thread has reached the second one's start as an element of
 * the same list: takes over its kept elements, count, cursor, result and
 * the top-level members after the list ('p->tail_members').  False when
 * the second thread gave up (the first goes on alone).
 */
bool ndp_split_take(struct ndp_pruner *p, struct ndp_jscan *s,
                    struct json_object *list, size_t *count, int *rc);
/* Stops the second thread, if any, and drops its work. */
void ndp_split_cancel(struct ndp_pruner *p);
/*
 * In the second thread: stops where its work would depend on the text
 * before its start (the first thread then does all of it); returns the
 * error that ends the walk.
 */
int ndp_split_give_up(struct ndp_pruner *p);
/* Is the second thread no longer wanted (only ever true in it)? */
bool ndp_split_cancelled(const struct ndp_pruner *p);

/* For tests: how many second threads' work has been taken over so far,
 * and of those how many started early ('*early', unless NULL). */
size_t ndp_prune_splits_taken(size_t *early);
/* For tests: how many threads ndp_split_start_early() has started. */
size_t ndp_prune_early_splits_started(void);

/* ---- input_build.c: trees of the kept values -------------------------- */

/*
 * The json-c tree of the validated value [start, end) of 'text' ('len'
 * bytes), as json-c's parser makes it: built from the scanner, or by
 * json-c ('tok', reset first) where only it can say.  NULL for null.
 * '*unique' (when 'unique' is not NULL): built here, with no key twice in
 * any object of the text (a key written twice leaves json-c one member);
 * false when a key was or json-c built it (then only a walk of the text
 * can say).
 */
struct json_object *ndp_build_value(struct json_tokener *tok,
                                    const char *text, size_t len,
                                    size_t start, size_t end, bool *unique);

/* json-c's parser alone on the same value. */
struct json_object *ndp_build_with_json_c(struct json_tokener *tok,
                                          const char *text, size_t len,
                                          size_t start, size_t end);

/* ---- the readers: input_tfplan.c, input_whatif.c, input_template.c ----- */

/* A parsed document, as the readers see it; everything in it is borrowed. */
struct ndp_document {
    const char *path;          /* for messages */
    const char *text;          /* UTF-8 text, NUL-terminated */
    size_t len;
    struct json_object *root;
    size_t entries;            /* entries the filtered lists had before
                                  pruning (SIZE_MAX: not pruned) */
};

/*
 * Each reader appends the AKS resources of 'doc' to 'set' as input number
 * 'input_index'.  Returns 0, or a negative NDP_E* code with 'err' set.
 */
int ndp_tfplan_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err);

/*
 * input_order.c: reads the order of the plan 'root' (its 'configuration':
 * references, depends_on, module calls and outputs) into set->order, and
 * sets the order node of changes 'first' .. set->nr - 1 and of pod
 * disruption budgets 'first_budget' .. set->kube.nr_budgets - 1.
 */
void ndp_tfplan_read_order(struct ndp_changeset *set, size_t first,
                           size_t first_budget,
                           const struct json_object *root);
/*
 * input_kube.c: is 'type' a resource type whose pod disruption budgets
 * or workloads the plan reader keeps?  And the reading of one such
 * resource change of input 'input' (its line, its action) into
 * set->kube; 'cluster_ref' (taken over, or NULL) is the address of the
 * cluster its provider takes its host from.  A change Terraform defers
 * to a later round ('deferred') leaves the object as it is in this one.
 */
bool ndp_kube_plan_type(const char *type);
void ndp_tfplan_read_kube(struct ndp_changeset *set, const char *input,
                          const char *type, const char *address,
                          const struct json_object *change,
                          enum ndp_action action, bool deferred, long line,
                          char *cluster_ref);

int ndp_whatif_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err);
int ndp_template_read(struct ndp_changeset *set, size_t input_index,
                      const struct ndp_document *doc, struct ndp_error *err);

/* ---- input_lines.c: lines of resources --------------------------------- */

/*
 * Finds resources' lines in one forward pass: each call looks for the next
 * '"key": "value"' member after the previous hit (readers meet resources in
 * document order), so locating every resource costs one scan of the text.
 */
struct ndp_locator {
    size_t from;      /* search position */
    size_t counted;   /* newlines are counted up to here */
    long line;        /* line at 'counted' */
    const char *section; /* '"key"' the search starts after, looked for
                            only when an entry is not marked (NULL: none) */
};
#define NDP_LOCATOR_INIT { 0, 0, 1, NULL }

/*
 * Line of the next "key": "value" member, or 0 when not found.  'entry' is
 * the object that holds it (or NULL): when the pruned reader recorded
 * where that object starts, the search starts there.
 */
long ndp_document_locate(const struct ndp_document *doc,
                         struct ndp_locator *loc,
                         const struct json_object *entry, const char *key,
                         const char *value);

/*
 * The line of byte 'offset' of the text, counting on (or back) from where
 * the last count stopped; the second thread's lines are relative to its
 * start.
 */
long ndp_prune_line_at(struct ndp_pruner *p, size_t offset);
/* ndp_prune_line_at(p, s->pos), with the newlines the scanner counted in
 * the stretch it last skipped at once, when that lies between the two. */
long ndp_prune_line_at_cursor(struct ndp_pruner *p, const struct ndp_jscan *s);

/*
 * Where a kept entry begins: its byte offset and the line of that byte,
 * counted by the thread that kept it (relative to where it started, until
 * ndp_split_take() adds the line it started at).
 */
struct ndp_entry_mark {
    size_t offset;
    long line;
};

/*
 * Records that 'entry' begins at byte 'offset', on line 'line', of the
 * document (kept in the object itself, as json-c user data; other types
 * are left alone: NULL).  Returns the record.
 */
struct ndp_entry_mark *ndp_document_mark_entry(struct json_object *entry,
                                               size_t offset, long line);

#endif
