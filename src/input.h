/*
 * input.h - reading one input file into the change set.
 *
 * ndp_input_read() loads the bytes (a file, or standard input for "-"),
 * turns UTF-16 and BOM-prefixed text into UTF-8, recognises what kind of
 * document it is, and hands it to the reader for that format.  Only the
 * readers (input_*.c) know an input's JSON layout.
 */
#ifndef NDP_INPUT_H
#define NDP_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_changeset;
struct ndp_error;
struct json_object;

#define NDP_DEFAULT_MAX_INPUT_BYTES ((size_t)4 << 30) /* 4 GiB */
#define NDP_MAX_JSON_DEPTH 512
/* Clusters, pools and maintenance configurations kept, over all inputs. */
#define NDP_MAX_AKS_RESOURCES 10000

struct ndp_input_options {
    size_t max_bytes;         /* refuse larger inputs */
    const char *force_format; /* "terraform-plan", "arm-whatif",
                                 "arm-template", or NULL to sniff */
    bool whole_tree;          /* build a json-c tree of everything (tests:
                                 the pruned reader must agree with it) */
};

/*
 * Reads 'path' and appends its AKS resources to 'set'.  Returns 0, or a
 * negative NDP_E* code with 'err' naming the file and the problem.
 */
int ndp_input_read(struct ndp_changeset *set, const char *path,
                   const struct ndp_input_options *opt, struct ndp_error *err);

/*
 * Loads a small JSON file whole (cluster state, settings): the same checks
 * and messages as for inputs, then one json-c tree owned by the caller.
 * 'expected' says what the file should be (NULL: cluster state output).
 */
int ndp_input_load_json(struct json_object **out, const char *path,
                        size_t max_bytes, const char *expected,
                        struct ndp_error *err);

/* The same for bytes already in memory; 'name' stands for the file. */
int ndp_input_read_bytes(struct ndp_changeset *set, const char *name,
                         const void *bytes, size_t len,
                         const struct ndp_input_options *opt,
                         struct ndp_error *err);

/*
 * Validates 'text' with the scanner and builds the pruned tree the readers
 * use (input_prune.c).  Returns 0 with '*out' (owned by the caller) and
 * '*seen' (entries of the filtered lists; SIZE_MAX when the document was
 * built whole and the reader counts), NDP_EPARSE with the byte offset and
 * a static description of the syntax error, or NDP_ESCHEMA for a key met
 * twice where it decides what is judged: the offset of the second one's
 * quote and a static description of where it is ("an entry of
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

/* A parsed document, as the readers see it. */
struct ndp_document {
    const char *path;          /* for messages */
    const char *text;          /* UTF-8 text, NUL-terminated */
    size_t len;
    struct json_object *root;  /* borrowed */
    size_t entries;            /* entries the filtered lists had before
                                  pruning (SIZE_MAX: not pruned) */
};

/* Reader entry points (input_tfplan.c, ...). */
int ndp_tfplan_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err);
int ndp_whatif_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err);
int ndp_template_read(struct ndp_changeset *set, size_t input_index,
                      const struct ndp_document *doc, struct ndp_error *err);
/* 1-based line of byte 'offset' in 'doc'. */
long ndp_document_line(const struct ndp_document *doc, size_t offset);

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

/* Records that 'entry' begins at byte 'offset' of the document. */
void ndp_document_mark_entry(struct json_object *entry, size_t offset);

#endif
