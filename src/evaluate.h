/*
 * SPDX-License-Identifier: Apache-2.0
 * evaluate.h - the evaluator: per cluster the node disruption profile and
 * the maintenance window in force, per hit a verdict (architecture §5).
 */
#ifndef NDP_EVALUATE_H
#define NDP_EVALUATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

struct ndp_changeset;
struct ndp_clusters;
struct ndp_findings;
struct ndp_hits;
struct ndp_impacts;
struct ndp_ruleset;
struct ndp_state_cluster;
struct ndp_states;
struct ndp_config;
struct ndp_window;

struct ndp_eval_options {
    int64_t at;                 /* evaluation instant, seconds since the epoch */
    bool next_window;           /* --at next-window: judge each cluster at
                                   the first instant inside its window at
                                   or after 'at' (enum ndp_judged) */
    bool have_profile;          /* --profile given */
    enum ndp_profile profile;   /* its value */
    struct ndp_states *states;  /* --cluster-state files, or NULL; the
                                   evaluator marks what it matched */
    const struct ndp_config *config; /* .ndplint.json, or NULL */
};

/*
 * At which instant a cluster is judged, and why there.  With --at
 * next-window a cluster whose window gates its changes
 * (AllowDuringMaintenanceWindow with an aksManagedNodeOSUpgradeSchedule
 * window) is judged at max(the run's instant, the first instant inside
 * the window in force and, when the apply replaces it, the new one too;
 * notAllowedDates skipped): "will this pass if applied when the window
 * opens?".  Every other cluster is judged at the run's instant.
 */
enum ndp_judged {
    NDP_JUDGED_GIVEN,           /* the run's instant: --at TIME, or now */
    NDP_JUDGED_NEXT_WINDOW,     /* next-window: at its window's opening, or
                                   the run's instant when inside one */
    NDP_JUDGED_NO_WINDOW,       /* next-window, but no window gates the
                                   cluster (none, not
                                   AllowDuringMaintenanceWindow, or Block):
                                   the run's instant */
    NDP_JUDGED_NO_OPENING       /* next-window, but no opening can be named
                                   (unknown values or phase, or none within
                                   the horizon): the run's instant */
};

/*
 * What the evaluator resolved for one cluster: the profile, window and
 * Kubernetes version in force and where each came from.  The evaluator
 * owns every field and frees it in ndp_resolutions_release(); a reporter
 * borrows them, and they go away when the resolutions go away.
 *
 * A window under a sensitive mask (window_sensitive) is judged like any
 * other, but nothing read from it may be printed: not its settings, not
 * its opening and closing times; 'window_problems' then says only that
 * AKS would refuse it.  A version read under a mask (version_sensitive)
 * is never printed either.
 */
struct ndp_resolution {
    enum ndp_profile profile;
    const char *profile_source; /* static: "input", "state", "option",
                                   "config" or "default" */
    char *profile_note;         /* e.g. "the input changes the profile from
                                   Allow to Block; ...", or NULL */
    struct ndp_window *window;  /* aksManagedNodeOSUpgradeSchedule, or NULL */
    char *window_resource;      /* the resource that declares it */
    char *window_path;          /* its path in that resource */
    bool window_changes;        /* the input replaces it */
    struct ndp_window *new_window; /* what replaces it, when readable: a
                                      change is inside only where both are
                                      open (spec §11) */
    char *window_problems;      /* window-invalid reasons, or NULL */
    bool window_refused;        /* some of them are in a window this change
                                   sends: AKS refuses that PUT */
    bool window_expression;     /* declared with template expressions: not known */
    bool window_sensitive;      /* under a sensitive mask: see above */
    char *other_windows;        /* maintenance configurations that do not count */
    int in_window;              /* -1 not applicable, 0 no, 1 yes */
    bool frozen_now;            /* Block, or AllowDuringMaintenanceWindow
                                   outside its window (or with a window
                                   that cannot be judged): the operator
                                   said "no node disruption now" */
    bool has_next_window;
    int64_t next_window_start, next_window_end, window_closes_at;
    int64_t at;                 /* the instant every verdict, window and
                                   overrun of this cluster is judged at */
    enum ndp_judged judged;     /* why there */
    char *version;              /* Kubernetes version in force, or NULL */
    bool version_sensitive;     /* read under a sensitive mask: not printed */
    struct ndp_state_cluster *state; /* live state from --cluster-state,
                                        borrowed from the options' states */
    const struct ndp_config_cluster *declared; /* the settings file's
                                        clusters[] entry for it (under its
                                        address, the address a rename moved
                                        it from or its ARM id: the strictest),
                                        borrowed, or NULL */
    bool has_freeze_until;      /* a Block from the settings file with an
                                   end ('until'), whether past or not */
    int64_t freeze_until;       /* its last instant, UTC */
};

/* One resolution per cluster, indexed like the linker's clusters. */
struct ndp_resolutions {
    struct ndp_resolution *items;
    size_t nr;
};

#define NDP_RESOLUTIONS_INIT { NULL, 0 }

/* Frees every resolution and leaves 'resolved' empty. */
void ndp_resolutions_release(struct ndp_resolutions *resolved);

/*
 * The evaluator, after the linker and the rule engine: resolves for each
 * of 'clusters' what is in force into 'resolved', gives every hit of
 * 'hits' a verdict and adds the findings about clusters and changes
 * themselves into 'out', sizes each cluster's disruption into 'impacts',
 * and holds it against the window it starts in (window-overrun).  'out',
 * 'resolved' and 'impacts' are empty on entry and each released by its
 * own module; the findings are in no particular order.
 */
void ndp_evaluate(struct ndp_findings *out, struct ndp_resolutions *resolved,
                  struct ndp_impacts *impacts,
                  const struct ndp_clusters *clusters,
                  const struct ndp_changeset *set,
                  const struct ndp_hits *hits, const struct ndp_ruleset *rs,
                  const struct ndp_eval_options *opt);

#endif
