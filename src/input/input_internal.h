/*
 * SPDX-License-Identifier: Apache-2.0
 * input_internal.h - what the files of the input stage share.
 *
 * Only the files in src/input/ (and the tests of this stage) include
 * this header; the rest of the program sees input.h.  It holds the pruned
 * parser (input_prune.c), the document the readers see and their entry
 * points (input_tfplan.c, input_whatif.c, input_template.c), and the line
 * locator the readers share (input_lines.c).  The bytes come from
 * src/util/load.h, as every file's do.
 */
#ifndef NDP_INPUT_INTERNAL_H
#define NDP_INPUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "input.h"
#include "load.h"

struct json_object;
struct ndp_changeset;
struct ndp_error;

/* ---- input_prune.c: the pruned parse tree ------------------------------ */

/*
 * Validates 'text' with the scanner and builds the pruned tree the readers
 * use.  Returns 0 with '*out' (owned by the caller) and '*seen' (entries
 * of the filtered lists; SIZE_MAX when the document was built whole and
 * the reader counts), NDP_EPARSE with the byte offset and a static
 * description of the syntax error, or NDP_ESCHEMA for a key met twice
 * where it decides what is judged: the offset of the second one's quote
 * and a static description of where it is ("an entry of
 * 'resource_changes'").
 */
int ndp_parse_pruned(struct json_object **out, size_t *seen,
                     const char *text, size_t len, size_t *err_pos,
                     const char **err_msg);

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

/*
 * For tests: split lists in texts of at least 'min_bytes' between two
 * threads, the second starting at the first element boundary after
 * 'percent' of the rest of the text (default: 8 MiB, 45).
 */
void ndp_prune_tune_split(size_t min_bytes, unsigned percent);

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
};
#define NDP_LOCATOR_INIT { 0, 0, 1 }

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
 * Records that 'entry' begins at byte 'offset' of the document (kept in
 * the object itself, as json-c user data; other types are left alone).
 */
void ndp_document_mark_entry(struct json_object *entry, size_t offset);

#endif
