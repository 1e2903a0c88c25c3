/*
 * SPDX-License-Identifier: Apache-2.0
 * config.h - the project's settings file, .ndplint.json: defaults for the
 * command line, per-cluster declarations (profile, node OS window) for
 * clusters whose input does not declare them, and expiring waivers.
 *
 * Found in the current directory or the nearest parent up to the
 * repository root (the directory holding .git); --config FILE names one,
 * --no-config ignores it.  Every key is checked: an unknown key or a wrong
 * type is an error naming the key.
 */
#ifndef NDP_CONFIG_H
#define NDP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct ndp_error;

#define NDP_CONFIG_NAME ".ndplint.json"

struct ndp_config_cluster {
    const char *match;          /* glob over the cluster id */
    int profile;                /* enum ndp_profile, or -1 */
    bool has_until;
    int64_t until;              /* end of the freeze (last instant), UTC */
    const char *until_text;
    struct json_object *window; /* ARM MaintenanceWindow (borrowed), or NULL */
};

struct ndp_waiver {
    const char *rule;           /* rule id, or NULL */
    const char *category;       /* category, or NULL */
    const char *match;          /* glob over the resource or cluster id */
    const char *reason;
    const char *expires_text;   /* YYYY-MM-DD */
    int64_t expires;            /* last instant it applies (end of the day, UTC) */
    size_t index;               /* position in the file, for messages */
};

/*
 * A team's severity for one rule or one verdict ("severity_overrides"):
 * exactly one of 'rule' and 'verdict' is set.  'off' suppresses the
 * finding as a waiver does; otherwise it gets 'severity'.
 */
struct ndp_override {
    const char *rule;           /* rule id, or NULL */
    int verdict;                /* enum ndp_verdict, or -1 */
    int severity;               /* enum ndp_severity, unless 'off' */
    bool off;
    const char *reason;
    size_t index;               /* position in the file, for messages */
};

struct ndp_config {
    char *path;                 /* the file read */
    struct json_object *root;   /* owns every string above */
    int fail_on;                /* enum ndp_severity, or -1 */
    int profile;                /* enum ndp_profile, or -1 */
    bool has_at;                /* "at" is an RFC 3339 instant */
    int64_t at;                 /* that instant */
    bool at_next_window;        /* "at": "next-window" ("now" sets neither) */
    const char *rules_dir;
    const char **formats;       /* "FMT" or "FMT:PATH" */
    size_t nr_formats;
    struct ndp_config_cluster *clusters;
    size_t nr_clusters;
    struct ndp_waiver *waivers;
    size_t nr_waivers;
    struct ndp_override *overrides;
    size_t nr_overrides;
};

/*
 * Finds the settings file from 'start' (a directory) up to the repository
 * root.  Returns a new path, or NULL when there is none.
 */
char *ndp_config_find(const char *start);

/* Reads and checks 'path' into 'out'.  0, or NDP_E* with 'err' set. */
int ndp_config_load(struct ndp_config *out, const char *path,
                    struct ndp_error *err);
void ndp_config_release(struct ndp_config *config);

/* The first cluster entry whose glob matches 'id', or NULL. */
const struct ndp_config_cluster *
ndp_config_cluster_for(const struct ndp_config *config, const char *id);

/*
 * The entry for a cluster known by 'nr' ids (its address, the address a
 * rename moved it from, its ARM id; NULL ids are skipped): of the first
 * entry each id matches, the one with the strictest profile (Block, then
 * AllowDuringMaintenanceWindow, then Allow, then none), the earliest in
 * the file on a tie.  A rename never loosens a declaration.  NULL when
 * no id matches.
 */
const struct ndp_config_cluster *
ndp_config_cluster_strictest(const struct ndp_config *config,
                             const char *const *ids, size_t nr);

/* Glob match; ARM ids (starting with '/') compare case-insensitively. */
bool ndp_glob_match(const char *pattern, const char *text);

/*
 * Where the bracket expression that opens at 'open' (a '[') ends, as
 * ndp_glob_match() reads it: the character after its closing ']'.  A ']'
 * right after '[', '[!' or '[^' is a member, and '\' escapes the next
 * character.  NULL when there is no closing ']' (the '[' is then a
 * literal), and also when the expression holds "[:", "[=" or "[." (a
 * class, equivalence class or collating symbol), whose end this does not
 * work out: callers then know nothing of what follows.
 */
const char *ndp_glob_bracket_end(const char *open);

#endif
