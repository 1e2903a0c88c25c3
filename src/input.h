/*
 * SPDX-License-Identifier: Apache-2.0
 * input.h - reading one input file into the change set.
 *
 * ndp_input_read() loads the bytes (a file, or standard input for "-",
 * through src/util/load.h), turns UTF-16 and BOM-prefixed text into UTF-8,
 * recognises what kind of document it is, and hands it to the reader for
 * that format.  Only the readers (src/input/input_*.c) know an input's
 * JSON layout; what the files of the input stage share among themselves
 * is in src/input/input_internal.h, not here.
 */
#ifndef NDP_INPUT_H
#define NDP_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_change;
struct ndp_pool_facts;

struct ndp_changeset;
struct ndp_error;
struct json_object;

#define NDP_DEFAULT_MAX_INPUT_BYTES ((size_t)4 << 30) /* 4 GiB */
/* Clusters, pools and maintenance configurations kept, over all inputs. */
#define NDP_MAX_AKS_RESOURCES 10000

/*
 * How the pruned reader splits a long list (resource_changes, changes)
 * between two threads (src/input/input_split.c): a text of 'split_min_bytes'
 * or more, at the first element boundary after 'split_percent' of what is
 * left (below 100); a thread started before the first reaches the list
 * (a plan in terraform's order) aims at 'early_percent' of the text.  And
 * how often a mapped file's pages go back behind each walk:
 * 'give_back_step' bytes at a time (0: 4 MiB, NDP_LOAD_GIVE_BACK_STEP).
 * Tests split small texts at other points, and give back small steps.
 */
struct ndp_input_tuning {
    size_t split_min_bytes;
    unsigned split_percent;
    unsigned early_percent;
    size_t give_back_step;
};
#define NDP_INPUT_TUNING_DEFAULT { (size_t)8 << 20, 45, 50, 0 }

struct ndp_input_options {
    size_t max_bytes;         /* refuse larger inputs */
    const char *force_format; /* one of the input format names, or NULL
                                 to sniff */
    bool whole_tree;          /* build a json-c tree of everything (tests:
                                 the pruned reader must agree with it) */
    const struct ndp_input_tuning *tuning; /* borrowed; NULL: the default
                                 (NDP_INPUT_TUNING_DEFAULT) */
};

/*
 * Reads 'path' and appends its AKS resources to 'set'.  Returns 0, or a
 * negative NDP_E* code with 'err' naming the file and the problem.
 */
int ndp_input_read(struct ndp_changeset *set, const char *path,
                   const struct ndp_input_options *opt, struct ndp_error *err);

/* The same for bytes already in memory (copied); 'name' stands for the file. */
int ndp_input_read_bytes(struct ndp_changeset *set, const char *name,
                         const void *bytes, size_t len,
                         const struct ndp_input_options *opt,
                         struct ndp_error *err);

/*
 * Fills the facts (change.h) of every change of 'set' from index 'from'
 * on, from its documents and what the reader set (kind, notation, action,
 * name, address): the last step of reading, done for every change
 * ndp_input_read() adds.  Changes built some other way (a test's) need it
 * before they are judged; calling it again reads them again.
 */
void ndp_facts_fill_all(struct ndp_changeset *set, size_t from);
/* Reads again the facts of the changes whose 'before' the linker set. */
void ndp_facts_fill_linked(struct ndp_changeset *set);

/*
 * The input formats --input-format names, in the order help lists them:
 * name 'i' (a static string), or NULL past the last one.
 */
const char *ndp_input_format_name(size_t i);

/* Is 'name' one of the input format names? */
bool ndp_input_format_known(const char *name);

/*
 * Spec §11, a setter's first apply (input_baseline.c): sets the 'before'
 * of 'ch', an azapi_update_resource on a cluster, from what 'own' (the
 * cluster's own change in the same input, linked; NULL: none) tells of
 * the values it sets, in ARM terms: an ARM cluster's before (all of it
 * known, its mask carried) or what its create declares, an azurerm
 * cluster's Kubernetes version.  What is not told stays unknown
 * (before_unknown).  'ch' owns the document.
 */
void ndp_input_setter_before(struct ndp_change *ch,
                             const struct ndp_change *own);

/*
 * The same for a setter on a node pool: 'p' is that pool as change 'by'
 * declares it (NULL: not in the input): an ARM pool's settings before
 * the change, else its orchestrator version.
 */
void ndp_input_pool_setter_before(struct ndp_change *ch,
                                  const struct ndp_change *by,
                                  const struct ndp_pool_facts *p);

#endif
