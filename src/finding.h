/*
 * SPDX-License-Identifier: Apache-2.0
 * finding.h - findings: what the evaluator concludes and the reporters
 * print.  Transparent: the struct is the pipeline's output data.
 *
 * Invariants: every string is owned by the finding, except 'rule_id',
 * 'category' and 'input', which are borrowed from the rule set and the
 * change set and outlive the findings.  'before' and 'after' are JSON
 * texts already redacted: a sensitive value is "\"(sensitive)\"", an
 * unknown one "\"(known after apply)\"", an absent one "null".
 */
#ifndef NDP_FINDING_H
#define NDP_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

enum ndp_verdict {
    NDP_VERDICT_REJECTED,
    NDP_VERDICT_OUTSIDE_WINDOW,
    NDP_VERDICT_ALLOWED,
    NDP_VERDICT_MAY_REIMAGE,
    NDP_VERDICT_BYPASSED,
    NDP_VERDICT_MANUAL_UPGRADE,
    NDP_VERDICT_REPLACE,
    NDP_VERDICT_ROTATE,
    NDP_VERDICT_GATE_OPEN,
    NDP_VERDICT_WINDOW_INVALID,
    NDP_VERDICT_FREEZE_WITHOUT_END,
    NDP_VERDICT_WAIVER_EXPIRED,
    NDP_VERDICT_PROFILE_UNDECLARED,
    NDP_VERDICT_IGNORE_WITHOUT_REASON,
    NDP_VERDICT_WINDOW_OVERRUN
};

/* Ordered from most to least severe. */
enum ndp_severity {
    NDP_SEVERITY_ERROR,
    NDP_SEVERITY_WARNING,
    NDP_SEVERITY_NOTE,
    NDP_SEVERITY_NEVER /* only as a --fail-on threshold */
};

struct ndp_finding {
    const char *rule_id;
    const char *category;
    enum ndp_scope scope;
    enum ndp_verdict verdict;
    enum ndp_severity severity;
    const char *input;
    char *resource;
    char *cluster;
    char *path;        /* "" for findings about a whole resource or cluster */
    char *before;      /* JSON text */
    char *after;       /* JSON text */
    char *message;
    char *help;        /* what to do about a refused change, or NULL */
    bool refused_now;  /* AKS refuses it, or it is bypassed, rotated or
                          replaced while the cluster is frozen now: set by
                          the evaluator with 'help' */
    char *pool;        /* the node pool a pool-level finding is about, or NULL */
    char *suppression; /* the waiver that suppresses it, in words, or NULL */
    char *source_file; /* the .tf or template file a user edits, or NULL */
    long source_line;  /* its line there, when source_file is set */
    long line;         /* line of the resource in the input, 0 if unknown */
    size_t cluster_index; /* into the linker's cluster list */
    /* Set by a severity override of the settings file: its reason
     * (borrowed from the settings), the severity before it, and whether
     * it turned the finding off (then 'severity' is unchanged and
     * 'suppression' says so).  'override_reason' is NULL otherwise. */
    const char *override_reason;
    enum ndp_severity override_from;
    bool override_off;
    size_t override_index; /* severity_overrides[N] */
};

struct ndp_findings {
    struct ndp_finding *items;
    size_t nr, alloc;
};

#define NDP_FINDINGS_INIT { NULL, 0, 0 }

/* Appends a zeroed finding owned by 'list' and returns it. */
struct ndp_finding *ndp_findings_add(struct ndp_findings *list);
/* Sorts by input, cluster, resource, path, rule: reproducible output. */
void ndp_findings_sort(struct ndp_findings *list);
void ndp_findings_release(struct ndp_findings *list);
/* Frees what the findings own, not the array itself. */
void ndp_findings_release_items(struct ndp_findings *list);

/*
 * A verdict's severity when nothing else decides it.  The evaluator makes
 * 'rotate' and 'replace' errors only while the cluster is frozen
 * (architecture §5); 'bypassed' arises only then.
 */
enum ndp_severity ndp_verdict_severity(enum ndp_verdict verdict);
const char *ndp_verdict_name(enum ndp_verdict verdict);
const char *ndp_severity_name(enum ndp_severity severity);
/* Parses "error", "warning", "note", "never"; -1 if unknown. */
int ndp_severity_parse(const char *name);
/*
 * The 'i'th --fail-on level, from "error" to "never", or NULL past the
 * last: for help texts and error messages that list the choices.
 */
const char *ndp_severity_choice(size_t i);

/* Parses a verdict name ("may-reimage"); -1 if unknown. */
int ndp_verdict_parse(const char *name);

/*
 * Appends the baseline fingerprint of 'f' (64 hex digits): the SHA-256 of
 * its rule, cluster, resource, path and the SHA-256 of its new value.  What
 * --write-baseline lists and --baseline looks up; the JSON report's
 * 'fingerprint'.
 */
void ndp_finding_fingerprint(struct ndp_buf *out, const struct ndp_finding *f);

#endif
