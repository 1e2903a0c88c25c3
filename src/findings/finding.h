/*
 * SPDX-License-Identifier: Apache-2.0
 * finding.h - findings: what the evaluator concludes and the reporters
 * print.  Transparent: the struct is the pipeline's output data.
 *
 * Invariants: every string is owned by the finding, except 'rule_id',
 * 'category', 'input' and 'override_reason', which are borrowed from the
 * rule set, the change set and the settings and outlive the findings.
 * 'before' and 'after' are JSON texts already redacted: a sensitive value
 * is "\"(sensitive)\"", an unknown one "\"(known after apply)\"", an absent
 * one "null".
 *
 * Who writes a finding: ndp_findings_add() makes it whole, and three
 * stages make findings of their own through it: the evaluator
 * (src/evaluate/: verdicts, window-overrun), locate.c
 * (ignore-without-reason) and triage.c (waiver-expired).  After that a
 * finding changes only through the setters below, each with its one
 * caller: ndp_finding_suppress() (locate.c for an inline ignore, triage.c
 * for a waiver, overrides.c for severity "off"), ndp_finding_locate()
 * (locate.c) and ndp_finding_override() (overrides.c).  Reporters only
 * read.
 */
#ifndef NDP_FINDING_H
#define NDP_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"
#include "verdicts.h"

struct ndp_buf;

/* Which node pools applying the finding's change rebuilds. */
enum ndp_finding_pools {
    NDP_POOLS_NONE,    /* none, or none known (a change what-if hides) */
    NDP_POOLS_NAMED,   /* the pool in 'pool' (none when it is NULL) */
    NDP_POOLS_ALL,     /* every pool of the cluster */
    NDP_POOLS_WINDOWS  /* the cluster's Windows pools */
};

/*
 * What a moved block renamed (Terraform previous_address): the old
 * address of the finding's resource and of its cluster, and their ARM
 * ids.  A waiver matches a renamed resource or cluster only under these,
 * never under the new address alone, so renaming a resource into a
 * waiver's glob waives nothing.  NULL fields: not renamed, or not known.
 */
struct ndp_finding_rename {
    char *resource_from, *resource_arm_id;
    char *cluster_from, *cluster_arm_id;
};

struct ndp_finding {
    const char *rule_id;
    const char *category;
    enum ndp_scope scope;
    enum ndp_verdict verdict;
    enum ndp_severity severity;
    enum ndp_finding_pools pools;
    const char *input;
    char *resource;
    char *cluster;
    char *path;        /* "" for findings about a whole resource or cluster */
    char *before;      /* JSON text */
    char *after;       /* JSON text */
    char *message;
    char *help;        /* what to do about it, or NULL */
    bool refused_now;  /* ndp_verdict_refused_now() when it was made */
    char *pool;        /* the node pool a pool-level finding is about, or NULL */
    char *suppression; /* the waiver that suppresses it, in words, or NULL */
    char *source_file; /* the .tf or template file a user edits, or NULL */
    long source_line;  /* its line there, when source_file is set */
    long line;         /* line of the resource in the input, 0 if unknown */
    size_t cluster_index; /* into the linker's cluster list */
    /* Set by a severity override of the settings file: its reason, the
     * severity before it, and whether it turned the finding off (then
     * 'severity' is unchanged and 'suppression' says so).
     * 'override_reason' is NULL otherwise. */
    const char *override_reason;
    enum ndp_severity override_from;
    bool override_off;
    size_t override_index; /* severity_overrides[N] */
    struct ndp_finding_rename *rename; /* owned; NULL when neither its
                                          resource nor its cluster was
                                          renamed */
};

struct ndp_findings {
    struct ndp_finding *items;
    size_t nr, alloc;
};

#define NDP_FINDINGS_INIT { NULL, 0, 0 }

/*
 * What a new finding says.  Every string is copied (NULL 'path' is "",
 * NULL 'before' and 'after' are "null"), except 'input', which is
 * borrowed.  'rule' NULL is the verdict's meta rule (verdicts.h) in
 * 'ruleset', so that a stage that makes a finding about a cluster names
 * only its verdict; when 'ruleset' (may be NULL) lacks that rule, the
 * finding takes the id and category from the verdict table.
 */
struct ndp_finding_spec {
    const struct ndp_rule *rule;
    const struct ndp_ruleset *ruleset; /* for 'rule' NULL; borrowed */
    enum ndp_verdict verdict;
    bool frozen_now;            /* the cluster is frozen now (verdicts.h) */
    enum ndp_scope scope;
    enum ndp_finding_pools pools;
    const char *input;
    const char *cluster;
    size_t cluster_index;
    const char *resource;
    const char *path;
    const char *before, *after; /* JSON texts, redacted */
    const char *pool;
    long line;
    const char *message;
    const char *help;
    const struct ndp_finding_rename *rename; /* copied; may be NULL */
};

/*
 * Appends the finding 'spec' describes to 'list' and returns it, borrowed
 * from 'list' until the next one is added.  Its severity and 'refused_now'
 * come from the verdict table.
 */
struct ndp_finding *ndp_findings_add(struct ndp_findings *list,
                                     const struct ndp_finding_spec *spec);

/*
 * Suppresses 'f' with 'why' (copied): a waiver, an inline ignore or a
 * severity turned off, in words.  The first suppression stands: false,
 * and nothing changes, when 'f' was already suppressed.
 */
bool ndp_finding_suppress(struct ndp_finding *f, const char *why);

/* Where a user edits 'f': 'file' (copied) at 'line'. */
void ndp_finding_locate(struct ndp_finding *f, const char *file, long line);

/*
 * A severity override 'index' of the settings file, for 'reason'
 * (borrowed): 'severity' from now on, and 'message' (copied) in place of
 * the old one; or, when 'off', the finding suppressed by 'message'
 * instead (unless something suppressed it first).
 */
void ndp_finding_override(struct ndp_finding *f, const char *reason,
                          size_t index, bool off, enum ndp_severity severity,
                          const char *message);

/*
 * The ids a waiver is matched against, at most four, into 'ids': the
 * resource's and the cluster's address, or for one a moved block renamed
 * its old address and its ARM id instead.  Returns how many.
 */
size_t ndp_finding_match_ids(const struct ndp_finding *f, const char *ids[4]);

/*
 * The report order: by input, cluster, resource, path, rule, then the
 * rest of what a finding says, so that no two findings that print
 * differently compare equal.  A qsort() comparator of findings: the
 * stages before the sort use it wherever "the first" of some findings
 * must not depend on the order they were made in.
 */
int ndp_finding_compare(const void *a, const void *b);
/*
 * Sorts into the report order: reproducible output.  ndp_run() does it
 * once, after the last stage that adds a finding.
 */
void ndp_findings_sort(struct ndp_findings *list);
void ndp_findings_release(struct ndp_findings *list);
/* Frees what the findings own, not the array itself. */
void ndp_findings_release_items(struct ndp_findings *list);

/*
 * Appends the baseline fingerprint of 'f' (64 hex digits): the SHA-256 of
 * its rule, cluster, resource, path and the SHA-256 of its new value.  What
 * --write-baseline lists and --baseline looks up; the JSON report's
 * 'fingerprint'.
 */
void ndp_finding_fingerprint(struct ndp_buf *out, const struct ndp_finding *f);

#endif
