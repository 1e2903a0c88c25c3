/*
 * SPDX-License-Identifier: Apache-2.0
 * config.c - reading and checking .ndplint.json (see config.h).
 */
#include "common.h"
#include "config.h"
#include "buf.h"
#include "error.h"
#include "policy.h"
#include "verdicts.h"
#include "load.h"
#include "jsonutil.h"
#include "timeutil.h"

#include <ctype.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <unistd.h>

#define NDP_MAX_CONFIG_BYTES (1 << 20)

static bool exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

char *ndp_config_find(const char *start)
{
    struct ndp_buf dir = NDP_BUF_INIT, probe = NDP_BUF_INIT;
    char *found = NULL;

    ndp_buf_adds(&dir, start);
    for (;;) {
        char *slash;
        ndp_buf_reset(&probe);
        ndp_buf_addf(&probe, "%s/%s", dir.buf, NDP_CONFIG_NAME);
        if (exists(probe.buf)) {
            found = ndp_buf_detach(&probe);
            break;
        }
        ndp_buf_reset(&probe);
        ndp_buf_addf(&probe, "%s/.git", dir.buf);
        if (exists(probe.buf))
            break; /* the repository root: look no further */
        slash = strrchr(dir.buf, '/');
        if (!slash || slash == dir.buf)
            break;
        ndp_buf_setlen(&dir, (size_t)(slash - dir.buf));
    }
    ndp_buf_release(&dir);
    ndp_buf_release(&probe);
    return found;
}

bool ndp_glob_match(const char *pattern, const char *text)
{
    struct ndp_buf p = NDP_BUF_INIT, t = NDP_BUF_INIT;
    size_t i;
    bool match;

    if (text[0] != '/')
        return fnmatch(pattern, text, 0) == 0;
    /* ARM ids are case-insensitive: compare folded copies. */
    ndp_buf_adds(&p, pattern);
    ndp_buf_adds(&t, text);
    for (i = 0; i < p.len; i++)
        p.buf[i] = (char)tolower((unsigned char)p.buf[i]);
    for (i = 0; i < t.len; i++)
        t.buf[i] = (char)tolower((unsigned char)t.buf[i]);
    match = fnmatch(p.buf, t.buf, 0) == 0;
    ndp_buf_release(&p);
    ndp_buf_release(&t);
    return match;
}

const char *ndp_glob_bracket_end(const char *open)
{
    const char *p = open + 1;

    if (*p == '!' || *p == '^')
        p++;
    if (*p == ']')
        p++;
    for (; *p; p++) {
        if (*p == ']')
            return p + 1;
        if (*p == '\\' && !*++p)
            return NULL;
        if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.'))
            return NULL;
    }
    return NULL;
}

/* ---- checking ---- */

struct checker {
    const char *path;
    struct ndp_error *err;
};

static int bad(const struct checker *ck, const char *key, const char *problem)
{
    return ndp_error_set(ck->err, NDP_ECONFIG, "config '%s': %s: %s",
                         ck->path, key, problem);
}

/*
 * 'key' is none of the names 'name_at' lists (policy.h, verdicts.h):
 * "must be " 'what', then the names.
 */
static int bad_choice(const struct checker *ck, const char *key,
                      const char *what, const char *(*name_at)(size_t))
{
    struct ndp_buf problem = NDP_BUF_INIT;
    int rc;

    ndp_buf_addf(&problem, "must be %s", what);
    ndp_buf_add_names(&problem, name_at, " or ");
    rc = bad(ck, key, problem.buf);
    ndp_buf_release(&problem);
    return rc;
}

/* ndp_json_check_keys(), its problem worded as a settings file's error. */
static int check_keys(const struct checker *ck, const struct json_object *o,
                      const char *where, const char *const *allowed)
{
    char at[256];
    const char *problem = ndp_json_check_keys(at, sizeof(at), o, where,
                                              allowed);

    return problem ? bad(ck, at, problem) : 0;
}

/*
 * Is 'key' in object 'o'?  A key written as null is there ('*v' NULL), so
 * that it is refused as the wrong type, not taken for a key left out: a
 * waiver's "match": null must not waive the rule everywhere.
 */
static bool member(const struct json_object *o, const char *key,
                   struct json_object **v)
{
    *v = NULL;
    return json_object_object_get_ex(o, key, v);
}

static int get_string(const struct checker *ck, const struct json_object *o,
                      const char *key, const char *where, bool required,
                      const char **out)
{
    struct json_object *v;
    char at[256];

    snprintf(at, sizeof(at), "%s%s%s", where, *where ? "." : "", key);
    *out = NULL;
    if (!member(o, key, &v))
        return required ? bad(ck, at, "is required") : 0;
    if (!json_object_is_type(v, json_type_string) ||
        json_object_get_string_len(v) == 0)
        return bad(ck, at, "must be a non-empty string");
    /* "next-window\u0000…" would be read as "next-window". */
    if (strlen(json_object_get_string(v)) !=
        (size_t)json_object_get_string_len(v))
        return bad(ck, at, "must not contain a NUL character (\\u0000)");
    *out = json_object_get_string(v);
    return 0;
}

/* "YYYY-MM-DD" -> the last second of that day, UTC. */
static int get_date(const struct checker *ck, const char *text,
                    const char *at, int64_t *out)
{
    int64_t days;

    if (ndp_date_parse(&days, text) != 0)
        return bad(ck, at, "must be a date YYYY-MM-DD");
    *out = (days + 1) * NDP_SECONDS_PER_DAY - 1;
    return 0;
}

static int load_cluster(const struct checker *ck, struct json_object *o,
                        size_t i, struct ndp_config_cluster *c)
{
    static const char *const keys[] = { "match", "profile", "until", "window",
                                        NULL };
    char where[64], at[96];
    const char *profile = NULL;
    int rc;

    snprintf(where, sizeof(where), "clusters[%zu]", i);
    rc = check_keys(ck, o, where, keys);
    if (!rc)
        rc = get_string(ck, o, "match", where, true, &c->match);
    if (!rc)
        rc = get_string(ck, o, "profile", where, false, &profile);
    if (!rc)
        rc = get_string(ck, o, "until", where, false, &c->until_text);
    if (rc)
        return rc;
    c->profile = profile ? ndp_profile_parse(profile) : -1;
    snprintf(at, sizeof(at), "%s.profile", where);
    if (profile && c->profile < 0)
        return bad(ck, at, "must be Allow, AllowDuringMaintenanceWindow or "
                           "Block");
    snprintf(at, sizeof(at), "%s.until", where);
    if (c->until_text) {
        rc = get_date(ck, c->until_text, at, &c->until);
        c->has_until = rc == 0;
    }
    snprintf(at, sizeof(at), "%s.window", where);
    if (!rc && member(o, "window", &c->window) &&
        !json_object_is_type(c->window, json_type_object))
        return bad(ck, at, "must be an ARM MaintenanceWindow object");
    return rc;
}

static int load_waiver(const struct checker *ck, struct json_object *o,
                       size_t i, struct ndp_waiver *w)
{
    static const char *const keys[] = { "rule", "category", "match",
                                        "reason", "expires", NULL };
    char where[64], at[96];
    int rc;

    snprintf(where, sizeof(where), "waivers[%zu]", i);
    w->index = i;
    rc = check_keys(ck, o, where, keys);
    if (!rc)
        rc = get_string(ck, o, "rule", where, false, &w->rule);
    if (!rc)
        rc = get_string(ck, o, "category", where, false, &w->category);
    if (!rc)
        rc = get_string(ck, o, "match", where, false, &w->match);
    if (!rc)
        rc = get_string(ck, o, "reason", where, true, &w->reason);
    if (!rc)
        rc = get_string(ck, o, "expires", where, true, &w->expires_text);
    if (rc)
        return rc;
    if (!w->rule && !w->category)
        return bad(ck, where, "needs a 'rule' or a 'category'");
    snprintf(at, sizeof(at), "%s.expires", where);
    return get_date(ck, w->expires_text, at, &w->expires);
}

static int load_override(const struct checker *ck, struct json_object *o,
                         size_t i, struct ndp_override *v)
{
    static const char *const keys[] = { "rule", "verdict", "severity",
                                        "reason", NULL };
    const char *verdict = NULL, *severity = NULL;
    char where[64], at[96];
    int rc;

    snprintf(where, sizeof(where), "severity_overrides[%zu]", i);
    v->index = i;
    v->verdict = -1;
    rc = check_keys(ck, o, where, keys);
    if (!rc)
        rc = get_string(ck, o, "rule", where, false, &v->rule);
    if (!rc)
        rc = get_string(ck, o, "verdict", where, false, &verdict);
    if (!rc)
        rc = get_string(ck, o, "severity", where, true, &severity);
    if (!rc)
        rc = get_string(ck, o, "reason", where, true, &v->reason);
    if (rc)
        return rc;
    if (!v->rule == !verdict)
        return bad(ck, where, "needs exactly one of 'rule' and 'verdict'");
    snprintf(at, sizeof(at), "%s.verdict", where);
    if (verdict && (v->verdict = ndp_verdict_parse(verdict)) < 0)
        return bad_choice(ck, at, "a verdict: ", ndp_verdict_choice);
    snprintf(at, sizeof(at), "%s.severity", where);
    v->off = strcmp(severity, "off") == 0;
    v->severity = ndp_severity_parse(severity);
    if (!v->off && (v->severity < 0 || v->severity == NDP_SEVERITY_NEVER))
        return bad(ck, at, "must be error, warning, note or off");
    return 0;
}

/*
 * Does glob 'p' hold a character every match must contain?  Waivers are
 * indexed by such text; a pattern of wildcards and brackets alone ('*',
 * '[ab]*') is tried on every finding.
 */
static bool has_literal(const char *p)
{
    while (*p) {
        if (*p == '*' || *p == '?') {
            p++;
        } else if (*p == '[') {
            p = ndp_glob_bracket_end(p);
            if (!p)
                return false;
        } else {
            return true;
        }
    }
    return false;
}

/* At most this many of those, so the cost stays linear in the findings
 * whatever a settings file holds. */
#define NDP_MAX_LITERAL_FREE_WAIVERS 256

static int check_literal_free(const struct checker *ck,
                              const struct ndp_config *c)
{
    size_t i, n = 0;

    for (i = 0; i < c->nr_waivers; i++)
        n += c->waivers[i].match && !has_literal(c->waivers[i].match);
    if (n > NDP_MAX_LITERAL_FREE_WAIVERS)
        return bad(ck, "waivers", "more than 256 'match' patterns without "
                   "literal text (each is tried on every finding); name the "
                   "resources");
    return 0;
}

static int load_list(const struct checker *ck, struct json_object *root,
                     const char *key, struct json_object **out, size_t *n)
{
    struct json_object *v;

    *out = NULL;
    *n = 0;
    if (!member(root, key, &v))
        return 0;
    if (!json_object_is_type(v, json_type_array))
        return bad(ck, key, "must be an array");
    *out = v;
    *n = json_object_array_length(v);
    return 0;
}

/* "at": "now", "next-window" or an RFC 3339 instant (--at wins). */
static int load_at(const struct checker *ck, struct ndp_config *c)
{
    const char *s = NULL;
    int rc = get_string(ck, c->root, "at", "", false, &s);

    if (rc || !s || strcmp(s, "now") == 0)
        return rc;
    if (strcmp(s, "next-window") == 0) {
        c->at_next_window = true;
        return 0;
    }
    if (ndp_time_parse_rfc3339(&c->at, s) != 0)
        return bad(ck, "at", "must be \"now\", \"next-window\" or an RFC "
                   "3339 instant (2026-12-06T02:30:00Z)");
    c->has_at = true;
    return 0;
}

static int load_top(const struct checker *ck, struct ndp_config *c)
{
    static const char *const keys[] = { "fail_on", "profile", "at",
                                        "rules", "formats", "clusters",
                                        "waivers", "severity_overrides",
                                        NULL };
    const char *s = NULL;
    struct json_object *list;
    size_t i, n;
    int rc = check_keys(ck, c->root, "", keys);

    if (!rc)
        rc = get_string(ck, c->root, "fail_on", "", false, &s);
    c->fail_on = s ? ndp_severity_parse(s) : -1;
    if (!rc && s && c->fail_on < 0)
        return bad_choice(ck, "fail_on", "", ndp_severity_choice);
    if (!rc)
        rc = get_string(ck, c->root, "profile", "", false, &s);
    c->profile = s ? ndp_profile_parse(s) : -1;
    if (!rc && s && c->profile < 0)
        return bad_choice(ck, "profile", "", ndp_profile_choice);
    if (!rc)
        rc = load_at(ck, c);
    if (!rc)
        rc = get_string(ck, c->root, "rules", "", false, &c->rules_dir);
    if (!rc)
        rc = load_list(ck, c->root, "formats", &list, &n);
    if (rc)
        return rc;
    c->formats = ndp_xcalloc(n ? n : 1, sizeof(*c->formats));
    for (i = 0; i < n; i++) {
        struct json_object *f = json_object_array_get_idx(list, i);
        char at[64];
        snprintf(at, sizeof(at), "formats[%zu]", i);
        if (!json_object_is_type(f, json_type_string))
            return bad(ck, at, "must be a string FMT or FMT:PATH");
        c->formats[c->nr_formats++] = json_object_get_string(f);
    }
    return 0;
}

int ndp_config_load(struct ndp_config *out, const char *path,
                    struct ndp_error *err)
{
    struct checker ck = { path, err };
    struct json_object *list;
    size_t i, n;
    int rc;

    memset(out, 0, sizeof(*out));
    out->path = ndp_xstrdup(path);
    out->fail_on = out->profile = -1;
    rc = ndp_load_json(&out->root, path, NDP_MAX_CONFIG_BYTES,
                       "an " NDP_CONFIG_NAME " settings object", err);
    if (!rc && !json_object_is_type(out->root, json_type_object))
        rc = ndp_error_set(err, NDP_ECONFIG, "config '%s': must be a JSON "
                           "object", path);
    if (!rc)
        rc = load_top(&ck, out);
    if (!rc)
        rc = load_list(&ck, out->root, "clusters", &list, &n);
    if (!rc && n) {
        out->clusters = ndp_xcalloc(n, sizeof(*out->clusters));
        for (i = 0; i < n && !rc; i++)
            rc = load_cluster(&ck, json_object_array_get_idx(list, i), i,
                              &out->clusters[out->nr_clusters++]);
    }
    if (!rc)
        rc = load_list(&ck, out->root, "waivers", &list, &n);
    if (!rc && n) {
        out->waivers = ndp_xcalloc(n, sizeof(*out->waivers));
        for (i = 0; i < n && !rc; i++)
            rc = load_waiver(&ck, json_object_array_get_idx(list, i), i,
                             &out->waivers[out->nr_waivers++]);
    }
    if (!rc)
        rc = load_list(&ck, out->root, "severity_overrides", &list, &n);
    if (!rc && n) {
        out->overrides = ndp_xcalloc(n, sizeof(*out->overrides));
        for (i = 0; i < n && !rc; i++)
            rc = load_override(&ck, json_object_array_get_idx(list, i), i,
                               &out->overrides[out->nr_overrides++]);
    }
    if (!rc)
        rc = check_literal_free(&ck, out);
    if (rc)
        ndp_config_release(out);
    return rc;
}

void ndp_config_release(struct ndp_config *c)
{
    free(c->path);
    free(c->formats);
    free(c->clusters);
    free(c->waivers);
    free(c->overrides);
    json_object_put(c->root);
    memset(c, 0, sizeof(*c));
}

const struct ndp_config_cluster *
ndp_config_cluster_for(const struct ndp_config *config, const char *id)
{
    size_t i;

    for (i = 0; config && i < config->nr_clusters; i++)
        if (ndp_glob_match(config->clusters[i].match, id))
            return &config->clusters[i];
    return NULL;
}

const struct ndp_config_cluster *
ndp_config_cluster_strictest(const struct ndp_config *config,
                             const char *const *ids, size_t nr)
{
    const struct ndp_config_cluster *best = NULL, *e;
    size_t i;

    for (i = 0; i < nr; i++) {
        e = ids[i] ? ndp_config_cluster_for(config, ids[i]) : NULL;
        if (e && (!best || e->profile > best->profile ||
                  (e->profile == best->profile && e < best)))
            best = e;
    }
    return best;
}
