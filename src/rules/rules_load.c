/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_load.c - loading rule files: reading them from a directory,
 * parsing them and checking every part against the grammar below, so that
 * a broken rule file is refused with its name, the JSON path and the
 * reason.  ndplint-rulec runs the same loader at build time (rulec.c).
 *
 * Rule file shape (docs/rules.md, "Rule files", documents it for users):
 *
 *   { "category": "network-policy", "title": "...", "why": "...",
 *     "advice": "...", "source": "https://learn.microsoft.com/...",
 *     "pools": "scope" | "windows",
 *     "rules": [ { "id": "NDP101", "title": "...", "scope": "cluster",
 *                  "class": "covered", "summary": "...",
 *                  "watch": [ { "notation": "azurerm", "resource": "^re$",
 *                               "path": "^re$" }, ... ],
 *                  "unset_values": ["none"], "default": "NodeImage",
 *                  "ignore_case": true, "unordered": true,
 *                  "ignore_keys": ["state"], "secret": true,
 *                  "kubernetes_version": true,
 *                  "target": "the cluster's Windows node pools",
 *                  "transitions": "any-change" | [ { "from": M, "to": M,
 *                                  "changed": [keys],
 *                                  "siblings_before": {key: M},
 *                                  "siblings_after": {key: M} } ]
 *   } ] }
 *
 * A matcher M is an object with any of "in", "not_in" (lists of values;
 * null stands for unset), "contains", "not_contains" (a value an array
 * must or must not hold) and "fields" (matchers for an object's members);
 * every key present must hold.  Values compare ASCII case-insensitively.
 * A rule's "title" (optional) names what it watches where its category
 * covers several things; without one it has the category's title.  The
 * category's "source" (optional) is the page its reading comes from: an
 * https URL of at most SOURCE_MAX bytes without a character that would end
 * a Markdown link, a table cell or a JSON string early (space, quotes,
 * brackets, parentheses, a bar, angle brackets, backslash, backtick),
 * since the reports write it as is.  The category's "pools" (optional)
 * says which node pools a hit of its rules rebuilds: "scope" (the
 * default: the rule's own pool for a pool setting, every pool for a
 * cluster setting) or "windows" (the cluster's Windows pools, whatever the
 * scope).
 * The parsed files stay alive in the rule set: rule strings point into them.
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "error.h"
#include "jsonutil.h"
#include "compat.h"

#include "rules_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#define NDP_MAX_RULE_FILE_BYTES (1 << 20)

/* Where in a rule file we are, for error messages. */
struct loader {
    struct ndp_ruleset *rs;
    const char *file;
    struct ndp_error *err;
    enum ndp_rule_pools pools; /* the file's "pools" */
};

#define AT_SIZE 256
#define SOURCE_MAX 512

/* Formats a JSON path for an error message (truncated if very long). */
static void at_path(char *at, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void at_path(char *at, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(at, AT_SIZE, fmt, ap);
    va_end(ap);
}

static int rule_error(const struct loader *ld, const char *where,
                      const char *problem)
{
    return ndp_error_set(ld->err, NDP_ERULE, "rule file '%s': %s: %s",
                         ld->file, where, problem);
}

static const char *str_member(const struct loader *ld,
                              const struct json_object *o, const char *key,
                              const char *where, bool required, int *rc)
{
    struct json_object *v = ndp_json_get(o, key);
    char at[AT_SIZE];

    if (!v && !required)
        return NULL;
    if (!v || !json_object_is_type(v, json_type_string) ||
        json_object_get_string_len(v) == 0) {
        at_path(at, "%s.%s", where, key);
        if (!*rc)
            *rc = rule_error(ld, at, v ? "must be a non-empty string"
                                       : "is required");
        return NULL;
    }
    return json_object_get_string(v);
}

/* ndp_json_check_keys(), its problem worded as a rule file's error. */
static int check_keys(const struct loader *ld, const struct json_object *o,
                      const char *where, const char *const *allowed)
{
    char at[AT_SIZE];
    const char *problem = ndp_json_check_keys(at, sizeof(at), o, where,
                                              allowed);

    return problem ? rule_error(ld, at, problem) : 0;
}

/*
 * Adds a pattern to the rule set (not compiled yet) and returns its index;
 * a pattern used by several watches is held once.
 */
static size_t add_pattern(struct ndp_ruleset *rs, const char *src,
                          bool caseless)
{
    struct pattern *p;
    size_t i;

    for (i = 0; i < rs->nr_patterns; i++)
        if (rs->patterns[i].caseless == caseless &&
            strcmp(rs->patterns[i].src, src) == 0)
            return i;
    NDP_GROW(rs->patterns, rs->alloc_patterns, rs->nr_patterns + 1);
    p = &rs->patterns[rs->nr_patterns];
    memset(p, 0, sizeof(*p));
    p->src = src;
    p->caseless = caseless;
    return rs->nr_patterns++;
}

/* Compiles a rule file's pattern now, to report a bad one at load. */
static int compile_pattern(const struct loader *ld, size_t index,
                           const char *where)
{
    struct pattern *p = &ld->rs->patterns[index];
    int code;
    PCRE2_SIZE offset;
    char msg[256];
    PCRE2_UCHAR text[200];

    if (p->code)
        return 0;
    p->code = ndp_rules_pattern_compile(p, &code, &offset);
    if (p->code)
        return 0;
    pcre2_get_error_message(code, text, sizeof(text));
    snprintf(msg, sizeof(msg), "invalid regular expression: %s at offset %zu",
             (const char *)text, (size_t)offset);
    return rule_error(ld, where, msg);
}

static int load_watch(const struct loader *ld, struct rule_impl *r,
                      const struct json_object *w, const char *where)
{
    static const char *const keys[] = { "notation", "resource", "path", NULL };
    struct watch *out;
    const char *notation, *type_re, *path_re;
    char at[AT_SIZE];
    bool arm;
    int rc = check_keys(ld, w, where, keys);

    if (rc)
        return rc;
    notation = str_member(ld, w, "notation", where, true, &rc);
    type_re = str_member(ld, w, "resource", where, true, &rc);
    path_re = str_member(ld, w, "path", where, true, &rc);
    if (rc)
        return rc;
    arm = strcmp(notation, "arm") == 0;
    if (!arm && strcmp(notation, "azurerm") != 0) {
        at_path(at, "%s.notation", where);
        return rule_error(ld, at, "must be \"azurerm\" or \"arm\"");
    }
    if (r->nr_watches == NDP_MAX_WATCHES)
        return rule_error(ld, where, "too many watches in one rule (at most "
                                     "32)");
    NDP_GROW(r->watches, r->alloc_watches, r->nr_watches + 1);
    out = &r->watches[r->nr_watches++];
    out->notation = arm ? NDP_NOTATION_ARM : NDP_NOTATION_AZURERM;
    /* ARM resource types and property names are case-insensitive. */
    out->type_pattern = add_pattern(ld->rs, type_re, arm);
    out->path_pattern = add_pattern(ld->rs, path_re, arm);
    at_path(at, "%s.resource", where);
    rc = compile_pattern(ld, out->type_pattern, at);
    at_path(at, "%s.path", where);
    return rc ? rc : compile_pattern(ld, out->path_pattern, at);
}

static int check_value_list(const struct loader *ld,
                            const struct json_object *v, const char *where)
{
    if (!json_object_is_type(v, json_type_array))
        return rule_error(ld, where, "must be an array of values");
    return 0;
}

/* "changed": the keys whose change counts, each a string (a null key
 * would be looked up as no string at all). */
static int check_key_list(const struct loader *ld,
                          const struct json_object *v, const char *where)
{
    size_t i, n;

    if (!json_object_is_type(v, json_type_array))
        return rule_error(ld, where, "must be an array of key names");
    n = json_object_array_length(v);
    for (i = 0; i < n; i++)
        if (!json_object_is_type(json_object_array_get_idx(v, i),
                                 json_type_string))
            return rule_error(ld, where, "must be an array of key names "
                              "(strings)");
    return 0;
}

static int check_matcher(const struct loader *ld, const struct json_object *m,
                         const char *where)
{
    static const char *const keys[] = { "in", "not_in", "contains",
                                        "not_contains", "fields", NULL };
    char at[AT_SIZE];
    int rc = check_keys(ld, m, where, keys);
    struct json_object *v;

    if (!rc && (v = ndp_json_get(m, "in")) != NULL) {
        at_path(at, "%s.in", where);
        rc = check_value_list(ld, v, at);
    }
    if (!rc && (v = ndp_json_get(m, "not_in")) != NULL) {
        at_path(at, "%s.not_in", where);
        rc = check_value_list(ld, v, at);
    }
    if (!rc && (v = ndp_json_get(m, "fields")) != NULL) {
        at_path(at, "%s.fields", where);
        if (!json_object_is_type(v, json_type_object))
            return rule_error(ld, at, "must be an object of matchers");
        json_object_object_foreach(v, key, sub) {
            at_path(at, "%s.fields.%s", where, key);
            rc = check_matcher(ld, sub, at);
            if (rc)
                break;
        }
    }
    return rc;
}

static int check_sibling_matchers(const struct loader *ld,
                                  const struct json_object *v,
                                  const char *where)
{
    char at[AT_SIZE];
    int rc = 0;

    if (!json_object_is_type(v, json_type_object))
        return rule_error(ld, where, "must be an object of matchers");
    json_object_object_foreach(ndp_json_unconst(v), key, sub) {
        at_path(at, "%s.%s", where, key);
        rc = check_matcher(ld, sub, at);
        if (rc)
            break;
    }
    return rc;
}

static int check_transitions(const struct loader *ld, struct rule_impl *r,
                             struct json_object *t, const char *where)
{
    static const char *const keys[] = { "from", "to", "changed",
                                        "siblings_before", "siblings_after",
                                        NULL };
    char at[AT_SIZE];
    size_t i, n;
    int rc = 0;

    if (json_object_is_type(t, json_type_string) &&
        strcmp(json_object_get_string(t), "any-change") == 0) {
        r->any_change = true;
        return 0;
    }
    if (!json_object_is_type(t, json_type_array) ||
        json_object_array_length(t) == 0)
        return rule_error(ld, where, "must be \"any-change\" or a non-empty "
                                     "array of {from, to, changed}");
    r->transitions = t;
    n = json_object_array_length(t);
    for (i = 0; i < n && !rc; i++) {
        struct json_object *e = json_object_array_get_idx(t, i);
        struct json_object *v;

        at_path(at, "%s[%zu]", where, i);
        rc = check_keys(ld, e, at, keys);
        if (!rc && (v = ndp_json_get(e, "from")) != NULL) {
            at_path(at, "%s[%zu].from", where, i);
            rc = check_matcher(ld, v, at);
        }
        if (!rc && (v = ndp_json_get(e, "to")) != NULL) {
            at_path(at, "%s[%zu].to", where, i);
            rc = check_matcher(ld, v, at);
        }
        if (!rc && (v = ndp_json_get(e, "siblings_before")) != NULL) {
            at_path(at, "%s[%zu].siblings_before", where, i);
            rc = check_sibling_matchers(ld, v, at);
        }
        if (!rc && (v = ndp_json_get(e, "siblings_after")) != NULL) {
            at_path(at, "%s[%zu].siblings_after", where, i);
            rc = check_sibling_matchers(ld, v, at);
        }
        if (!rc && (v = ndp_json_get(e, "changed")) != NULL) {
            at_path(at, "%s[%zu].changed", where, i);
            rc = check_key_list(ld, v, at);
        }
    }
    return rc;
}

static int parse_enum(const struct loader *ld, const char *value,
                      const char *const *names, int *out, const char *where)
{
    int i;
    char msg[200];

    for (i = 0; names[i]; i++) {
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    snprintf(msg, sizeof(msg), "unknown value '%s'", value);
    return rule_error(ld, where, msg);
}

static bool bool_member(const struct json_object *o, const char *key)
{
    return ndp_json_is_true(ndp_json_get(o, key));
}

static int load_rule_options(const struct loader *ld, struct rule_impl *r,
                             struct json_object *o, const char *where)
{
    char at[AT_SIZE];
    struct json_object *v;
    int rc = 0;

    r->default_value = ndp_json_get(o, "default");
    r->ignore_case = bool_member(o, "ignore_case");
    r->unordered = bool_member(o, "unordered");
    r->kubernetes_version = bool_member(o, "kubernetes_version");
    r->pub.secret = bool_member(o, "secret");
    r->pub.userinfo_secret = bool_member(o, "userinfo_secret");
    if ((v = ndp_json_get(o, "unset_values")) != NULL) {
        at_path(at, "%s.unset_values", where);
        rc = check_value_list(ld, v, at);
        r->unset_values = v;
    }
    if (!rc && (v = ndp_json_get(o, "ignore_keys")) != NULL) {
        at_path(at, "%s.ignore_keys", where);
        rc = check_value_list(ld, v, at);
        r->ignore_keys = v;
    }
    return rc;
}

static int load_rule(const struct loader *ld, const struct json_object *file,
                     struct json_object *o, const char *where)
{
    static const char *const keys[] = {
        "id", "title", "scope", "class", "summary", "watch", "transitions",
        "default", "unset_values", "ignore_case", "unordered", "ignore_keys",
        "secret", "userinfo_secret", "target", "kubernetes_version", NULL
    };
    struct rule_impl *r;
    struct json_object *watch;
    char at[AT_SIZE];
    const char *scope, *class_;
    int rc = check_keys(ld, o, where, keys), e = 0;
    size_t i, n;

    if (rc)
        return rc;
    r = ndp_xcalloc(1, sizeof(*r));
    r->set = ld->rs;
    NDP_GROW(ld->rs->rules, ld->rs->alloc, ld->rs->nr + 1);
    ld->rs->rules[ld->rs->nr++] = r;
    r->pub.file = ld->file;
    r->pub.category = ndp_json_get_string(file, "category");
    r->pub.category_title = ndp_json_get_string(file, "title");
    r->pub.title = str_member(ld, o, "title", where, false, &rc);
    if (!r->pub.title)
        r->pub.title = r->pub.category_title;
    r->pub.why = ndp_json_get_string(file, "why");
    r->pub.advice = ndp_json_get_string(file, "advice");
    r->pub.source = ndp_json_get_string(file, "source");
    r->pub.pools = ld->pools;
    r->pub.id = str_member(ld, o, "id", where, true, &rc);
    r->pub.summary = str_member(ld, o, "summary", where, true, &rc);
    r->pub.target = str_member(ld, o, "target", where, false, &rc);
    scope = str_member(ld, o, "scope", where, true, &rc);
    class_ = str_member(ld, o, "class", where, true, &rc);
    if (rc)
        return rc;
    at_path(at, "%s.scope", where);
    rc = parse_enum(ld, scope, ndp_rule_scope_names, &e, at);
    r->pub.scope = (enum ndp_scope)e;
    at_path(at, "%s.class", where);
    if (!rc)
        rc = parse_enum(ld, class_, ndp_rule_class_names, &e, at);
    r->pub.class_ = (enum ndp_rule_class)e;
    if (!rc)
        rc = load_rule_options(ld, r, o, where);
    if (rc || !ndp_rule_class_watches(r->pub.class_))
        return rc;
    watch = ndp_json_get(o, "watch");
    at_path(at, "%s.watch", where);
    if (!watch || !json_object_is_type(watch, json_type_array) ||
        json_object_array_length(watch) == 0)
        return rule_error(ld, at, "must be a non-empty array");
    n = json_object_array_length(watch);
    for (i = 0; i < n && !rc; i++) {
        at_path(at, "%s.watch[%zu]", where, i);
        rc = load_watch(ld, r, json_object_array_get_idx(watch, i), at);
    }
    at_path(at, "%s.transitions", where);
    if (!rc && !ndp_json_get(o, "transitions"))
        return rule_error(ld, at, "is required");
    if (!rc)
        rc = check_transitions(ld, r, ndp_json_get(o, "transitions"), at);
    return rc;
}

static int check_unique_ids(const struct loader *ld)
{
    size_t i, j;
    char msg[128];

    for (i = 0; i < ld->rs->nr; i++)
        for (j = 0; j < i; j++)
            if (strcmp(ld->rs->rules[i]->pub.id, ld->rs->rules[j]->pub.id) == 0) {
                snprintf(msg, sizeof(msg), "rule id '%s' is used twice "
                         "(also in '%s')", ld->rs->rules[i]->pub.id,
                         ld->rs->rules[j]->pub.file);
                return rule_error(ld, "rules", msg);
            }
    return 0;
}

/* Whether 's' is a URL the reports may write as is (see the top). */
static bool source_url_ok(const char *s)
{
    size_t len = strlen(s), i;

    if (len > SOURCE_MAX || strncmp(s, "https://", 8) != 0 || len == 8)
        return false;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c >= 0x7f || strchr("\"'()<>[]|\\`", c))
            return false;
    }
    return true;
}

static int check_source(const struct loader *ld, struct json_object *root,
                        int *rc)
{
    const char *source = str_member(ld, root, "source", "(top level)", false,
                                    rc);

    if (*rc || !source || source_url_ok(source))
        return *rc;
    return *rc = rule_error(ld, "source", "must be an https URL without "
                            "spaces, quotes, brackets, parentheses, bars, "
                            "angle brackets, backslashes or backticks");
}

/* The category's "pools", into the loader for each of its rules. */
static int load_pools(struct loader *ld, struct json_object *root)
{
    int rc = 0, e = 0;
    const char *pools = str_member(ld, root, "pools", "(top level)", false,
                                   &rc);

    ld->pools = NDP_RULE_POOLS_SCOPE;
    if (rc || !pools)
        return rc;
    rc = parse_enum(ld, pools, ndp_rule_pools_names, &e, "pools");
    ld->pools = (enum ndp_rule_pools)e;
    return rc;
}

static int load_file_root(struct loader *ld, struct json_object *root)
{
    static const char *const keys[] = { "category", "title", "why", "advice",
                                        "source", "pools", "rules", NULL };
    struct json_object *rules;
    char at[64];
    size_t i, n;
    int rc = check_keys(ld, root, "(top level)", keys);

    if (rc)
        return rc;
    str_member(ld, root, "category", "(top level)", true, &rc);
    str_member(ld, root, "title", "(top level)", true, &rc);
    str_member(ld, root, "why", "(top level)", true, &rc);
    str_member(ld, root, "advice", "(top level)", true, &rc);
    if (rc || check_source(ld, root, &rc) || (rc = load_pools(ld, root)))
        return rc;
    rules = ndp_json_get(root, "rules");
    if (!rules || !json_object_is_type(rules, json_type_array) ||
        json_object_array_length(rules) == 0)
        return rule_error(ld, "rules", "must be a non-empty array");
    n = json_object_array_length(rules);
    for (i = 0; i < n && !rc; i++) {
        at_path(at, "rules[%zu]", i);
        rc = load_rule(ld, root, json_object_array_get_idx(rules, i), at);
    }
    return rc ? rc : check_unique_ids(ld);
}

static int load_text(struct ndp_ruleset *rs, const char *name,
                     const char *text, size_t len, struct ndp_error *err)
{
    struct json_tokener *tok = json_tokener_new_ex(64);
    struct json_object *root;
    struct loader ld;
    char *owned_name = ndp_xstrdup(name);
    int rc = 0;

    NDP_GROW(rs->file_names, rs->alloc_names, rs->nr_files + 1);
    NDP_GROW(rs->files, rs->alloc_files, rs->nr_files + 1);
    rs->file_names[rs->nr_files] = owned_name;
    if (len > NDP_MAX_RULE_FILE_BYTES) {
        json_tokener_free(tok);
        rs->files[rs->nr_files++] = NULL;
        return ndp_error_set(err, NDP_ERULE, "rule file '%s': larger than "
                             "%d bytes", name, NDP_MAX_RULE_FILE_BYTES);
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    root = json_tokener_parse_ex(tok, text, (int)len);
    if (!root || json_tokener_get_parse_end(tok) < len)
        rc = ndp_error_set(err, NDP_ERULE,
                           "rule file '%s': not valid JSON: %s at byte %zu",
                           name,
                           json_tokener_error_desc(json_tokener_get_error(tok)),
                           json_tokener_get_parse_end(tok));
    json_tokener_free(tok);
    rs->files[rs->nr_files++] = root;
    if (rc)
        return rc;
    ld.rs = rs;
    ld.file = owned_name;
    ld.err = err;
    return load_file_root(&ld, root);
}

int ndp_rules_load_text(struct ndp_ruleset **out, const char *name,
                        const char *text, size_t len, struct ndp_error *err)
{
    struct ndp_ruleset *rs = ndp_ruleset_new();
    int rc = load_text(rs, name, text, len, err);

    if (rc) {
        ndp_ruleset_free(rs);
        return rc;
    }
    *out = rs;
    return 0;
}

/*
 * Reads a rule file: a regular file only (a settings file in a pull
 * request can name the rules directory, whose *.json may be a FIFO or a
 * link to /dev/zero), opened without blocking, and no more than one byte
 * over the limit, which load_text() then refuses.
 */
static int read_file(struct ndp_buf *out, const char *path,
                     struct ndp_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    char chunk[8192];
    ssize_t n = 0;
    int rc = 0;

    if (fd < 0)
        return ndp_error_set(err, NDP_ERULE, "rule file '%s': cannot open: "
                             "%s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = ndp_error_set(err, NDP_ERULE, "rule file '%s': not a regular "
                           "file", path);
        goto out;
    }
    while (out->len <= NDP_MAX_RULE_FILE_BYTES &&
           ((n = read(fd, chunk, sizeof(chunk))) > 0 ||
            (n < 0 && errno == EINTR)))
        if (n > 0)
            ndp_buf_add(out, chunk, (size_t)n);
    if (n < 0)
        rc = ndp_error_set(err, NDP_ERULE, "rule file '%s': read error: %s",
                           path, strerror(errno));
out:
    close(fd);
    return rc;
}

static int list_rule_files(char ***names, size_t *nr, const char *dir,
                           struct ndp_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t alloc = 0;

    *names = NULL;
    *nr = 0;
    if (!d)
        return ndp_error_set(err, NDP_EUSAGE, "cannot open rules directory "
                             "'%s': %s", dir, strerror(errno));
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0 ||
            de->d_name[0] == '.')
            continue;
        NDP_GROW(*names, alloc, *nr + 1);
        (*names)[(*nr)++] = ndp_xstrdup(de->d_name);
    }
    closedir(d);
    if (*nr)
        qsort(*names, *nr, sizeof(**names), ndp_strcmp_indirect);
    return *nr ? 0 : ndp_error_set(err, NDP_EUSAGE, "rules directory '%s' "
                                   "holds no *.json rule file", dir);
}

int ndp_rules_load_dir(struct ndp_ruleset **out, const char *dir,
                       struct ndp_error *err)
{
    struct ndp_ruleset *rs = ndp_ruleset_new();
    struct ndp_buf path = NDP_BUF_INIT, text = NDP_BUF_INIT;
    char **names = NULL;
    size_t i, nr = 0;
    int rc = list_rule_files(&names, &nr, dir, err);

    for (i = 0; i < nr && !rc; i++) {
        ndp_buf_reset(&path);
        ndp_buf_reset(&text);
        ndp_buf_addf(&path, "%s/%s", dir, names[i]);
        rc = read_file(&text, path.buf, err);
        if (!rc)
            rc = load_text(rs, path.buf, text.buf, text.len, err);
    }
    for (i = 0; i < nr; i++)
        free(names[i]);
    free(names);
    ndp_buf_release(&path);
    ndp_buf_release(&text);
    if (rc) {
        ndp_ruleset_free(rs);
        return rc;
    }
    *out = rs;
    return 0;
}
