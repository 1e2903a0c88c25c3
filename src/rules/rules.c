/*
 * rules.c - loading, checking and compiling rule files, and deciding
 * whether a watched value's change reimages (see rules.h).
 *
 * Rule file shape (README "Rule files" documents it for users):
 *
 *   { "category": "network-policy", "title": "...", "why": "...",
 *     "advice": "...",
 *     "rules": [ { "id": "NDP101", "scope": "cluster", "class": "covered",
 *                  "summary": "...",
 *                  "watch": [ { "notation": "azurerm", "resource": "^re$",
 *                               "path": "^re$" }, ... ],
 *                  "unset_values": ["none"], "default": "NodeImage",
 *                  "ignore_case": true, "unordered": true,
 *                  "ignore_keys": ["state"], "secret": true,
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
 * The parsed files stay alive in the rule set: rule strings point into them.
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "error.h"
#include "jsonutil.h"

#include "rules_internal.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define NDP_MAX_RULE_FILE_BYTES (1 << 20)
#define NDP_PCRE2_MATCH_LIMIT 100000
#define NDP_PCRE2_DEPTH_LIMIT 1000

/* Where in a rule file we are, for error messages. */
struct loader {
    struct ndp_ruleset *rs;
    const char *file;
    struct ndp_error *err;
};

#define AT_SIZE 256

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

static const struct rule_impl *impl(const struct ndp_rule *rule)
{
    return (const struct rule_impl *)rule;
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

static pcre2_code *compile(const char *re, bool caseless, int *code,
                           PCRE2_SIZE *offset)
{
    /* No JIT: paths are short, JIT compilation would dominate start-up,
     * and JIT code cannot be checked by valgrind. */
    return pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
                         caseless ? PCRE2_CASELESS : 0, code, offset, NULL);
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
    p->src = src;
    p->caseless = caseless;
    p->code = NULL;
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
    p->code = compile(p->src, p->caseless, &code, &offset);
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
            rc = check_value_list(ld, v, at);
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

static const char *const scope_names[] = { "cluster", "nodepool", NULL };
static const char *const class_names[] = { "covered", "version-gated",
                                           "upgrade", "meta", "rotate",
                                           NULL };

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
        "id", "scope", "class", "summary", "watch", "transitions", "default",
        "unset_values", "ignore_case", "unordered", "ignore_keys", "secret",
        "userinfo_secret", "target", NULL
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
    r->pub.title = ndp_json_get_string(file, "title");
    r->pub.why = ndp_json_get_string(file, "why");
    r->pub.advice = ndp_json_get_string(file, "advice");
    r->pub.id = str_member(ld, o, "id", where, true, &rc);
    r->pub.summary = str_member(ld, o, "summary", where, true, &rc);
    r->pub.target = str_member(ld, o, "target", where, false, &rc);
    scope = str_member(ld, o, "scope", where, true, &rc);
    class_ = str_member(ld, o, "class", where, true, &rc);
    if (rc)
        return rc;
    at_path(at, "%s.scope", where);
    rc = parse_enum(ld, scope, scope_names, &e, at);
    r->pub.scope = (enum ndp_scope)e;
    at_path(at, "%s.class", where);
    if (!rc)
        rc = parse_enum(ld, class_, class_names, &e, at);
    r->pub.class_ = (enum ndp_rule_class)e;
    if (!rc)
        rc = load_rule_options(ld, r, o, where);
    if (rc || r->pub.class_ == NDP_CLASS_META)
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

static int load_file_root(const struct loader *ld, struct json_object *root)
{
    static const char *const keys[] = { "category", "title", "why", "advice",
                                        "rules", NULL };
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
    if (rc)
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

static struct ndp_ruleset *ruleset_new(void)
{
    struct ndp_ruleset *rs = ndp_xcalloc(1, sizeof(*rs));

    rs->match_ctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(rs->match_ctx, NDP_PCRE2_MATCH_LIMIT);
    pcre2_set_depth_limit(rs->match_ctx, NDP_PCRE2_DEPTH_LIMIT);
    rs->match_data = pcre2_match_data_create(4, NULL);
    return rs;
}

int ndp_rules_load_text(struct ndp_ruleset **out, const char *name,
                        const char *text, size_t len, struct ndp_error *err)
{
    struct ndp_ruleset *rs = ruleset_new();
    int rc = load_text(rs, name, text, len, err);

    if (rc) {
        ndp_ruleset_free(rs);
        return rc;
    }
    *out = rs;
    return 0;
}

static void rule_from_image(struct ndp_ruleset *rs,
                            const struct ndp_rule_image *image)
{
    struct rule_impl *r = ndp_xcalloc(1, sizeof(*r));
    size_t i;

    r->pub = image->rule;
    r->set = rs;
    r->any_change = image->any_change;
    r->ignore_case = image->ignore_case;
    r->unordered = image->unordered;
    r->logic_text = image->logic;
    if (image->nr_watches) {
        r->watches = ndp_xcalloc(image->nr_watches, sizeof(*r->watches));
        r->nr_watches = r->alloc_watches = image->nr_watches;
    }
    for (i = 0; i < image->nr_watches; i++) {
        r->watches[i].notation = image->watches[i].notation;
        r->watches[i].type_pattern = image->watches[i].type_pattern;
        r->watches[i].path_pattern = image->watches[i].path_pattern;
    }
    rs->rules[rs->nr++] = r;
}

struct ndp_ruleset *ndp_rules_from_image(const struct ndp_rule_image_set *image)
{
    struct ndp_ruleset *rs = ruleset_new();
    size_t i;

    rs->rules = ndp_xcalloc(image->nr_rules ? image->nr_rules : 1,
                            sizeof(*rs->rules));
    rs->alloc = image->nr_rules;
    for (i = 0; i < image->nr_rules; i++)
        rule_from_image(rs, &image->rules[i]);
    rs->patterns = ndp_xcalloc(image->nr_patterns ? image->nr_patterns : 1,
                               sizeof(*rs->patterns));
    rs->nr_patterns = rs->alloc_patterns = image->nr_patterns;
    for (i = 0; i < image->nr_patterns; i++) {
        rs->patterns[i].src = image->patterns[i].src;
        rs->patterns[i].caseless = image->patterns[i].caseless;
    }
    return rs;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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
        qsort(*names, *nr, sizeof(**names), compare_names);
    return *nr ? 0 : ndp_error_set(err, NDP_EUSAGE, "rules directory '%s' "
                                   "holds no *.json rule file", dir);
}

int ndp_rules_load_dir(struct ndp_ruleset **out, const char *dir,
                       struct ndp_error *err)
{
    struct ndp_ruleset *rs = ruleset_new();
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

void ndp_ruleset_free(struct ndp_ruleset *rs)
{
    size_t i;

    if (!rs)
        return;
    for (i = 0; i < rs->nr; i++) {
        json_object_put(rs->rules[i]->logic_root);
        free(rs->rules[i]->watches);
        free(rs->rules[i]);
    }
    free(rs->rules);
    for (i = 0; i < rs->nr_patterns; i++)
        pcre2_code_free(rs->patterns[i].code);
    free(rs->patterns);
    for (i = 0; i < rs->nr_files; i++) {
        json_object_put(rs->files[i]);
        free(rs->file_names[i]);
    }
    free(rs->files);
    free(rs->file_names);
    pcre2_match_data_free(rs->match_data);
    pcre2_match_context_free(rs->match_ctx);
    free(rs);
}

size_t ndp_ruleset_count(const struct ndp_ruleset *rs)
{
    return rs->nr;
}

const struct ndp_rule *ndp_ruleset_get(const struct ndp_ruleset *rs, size_t i)
{
    return i < rs->nr ? &rs->rules[i]->pub : NULL;
}

const struct ndp_rule *ndp_ruleset_find(const struct ndp_ruleset *rs,
                                        const char *id)
{
    size_t i;

    for (i = 0; i < rs->nr; i++)
        if (ndp_strcasecmp(rs->rules[i]->pub.id, id) == 0)
            return &rs->rules[i]->pub;
    return NULL;
}

const struct ndp_rule *ndp_ruleset_meta(const struct ndp_ruleset *rs,
                                        const char *category)
{
    size_t i;

    for (i = 0; i < rs->nr; i++)
        if (rs->rules[i]->pub.class_ == NDP_CLASS_META &&
            strcmp(rs->rules[i]->pub.category, category) == 0)
            return &rs->rules[i]->pub;
    return NULL;
}

/* ---- matching ---- */

/*
 * The compiled pattern 'index', compiling it on first use.  Image patterns
 * were compiled when the image was built, so failing here is a bug.
 */
static const pcre2_code *pattern_code(struct ndp_ruleset *rs, size_t index)
{
    struct pattern *p = &rs->patterns[index];
    int code;
    PCRE2_SIZE offset;

    if (!p->code)
        p->code = compile(p->src, p->caseless, &code, &offset);
    if (!p->code)
        NDP_BUG("a built-in rule pattern does not compile");
    return p->code;
}

/* Match limits keep a hostile path from making a pattern run for long. */
static bool regex_matches(const struct rule_impl *r, size_t pattern,
                          const char *subject)
{
    return pcre2_match(pattern_code(r->set, pattern), (PCRE2_SPTR)subject,
                       PCRE2_ZERO_TERMINATED, 0, 0, r->set->match_data,
                       r->set->match_ctx) >= 0;
}

uint32_t ndp_rule_type_watches(const struct ndp_rule *rule,
                               enum ndp_notation notation, const char *type)
{
    const struct rule_impl *r = impl(rule);
    uint32_t set = 0;
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if (r->watches[i].notation == notation &&
            regex_matches(r, r->watches[i].type_pattern, type))
            set |= (uint32_t)1 << i;
    return set;
}

bool ndp_rule_watches_path_in(const struct ndp_rule *rule, uint32_t watches,
                              const char *path)
{
    const struct rule_impl *r = impl(rule);
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if ((watches & ((uint32_t)1 << i)) &&
            regex_matches(r, r->watches[i].path_pattern, path))
            return true;
    return false;
}

bool ndp_rule_watches_path(const struct ndp_rule *rule,
                           enum ndp_notation notation, const char *type,
                           const char *path)
{
    const struct rule_impl *r = impl(rule);
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if (r->watches[i].notation == notation &&
            regex_matches(r, r->watches[i].type_pattern, type) &&
            regex_matches(r, r->watches[i].path_pattern, path))
            return true;
    return false;
}

/*
 * The rule with its JSON parts at hand: a rule from the built-in image
 * parses them the first time one of its values is judged or it is
 * described.  The rule set is not shared between threads.
 */
static const struct rule_impl *logic_of(const struct ndp_rule *rule)
{
    struct rule_impl *r = (struct rule_impl *)(uintptr_t)rule;
    struct json_object *root;

    if (!r->logic_text || r->logic_root)
        return r;
    root = json_tokener_parse(r->logic_text);
    if (!root)
        NDP_BUG("a built-in rule's JSON does not parse");
    r->logic_root = root;
    r->transitions = ndp_json_get(root, "transitions");
    r->default_value = ndp_json_get(root, "default");
    r->unset_values = ndp_json_get(root, "unset_values");
    r->ignore_keys = ndp_json_get(root, "ignore_keys");
    return r;
}

/* The value as the rule sees it: unset spellings and defaults applied. */
static const struct json_object *normalise(const struct rule_impl *r,
                                           const struct json_object *v)
{
    struct ndp_buf scratch = NDP_BUF_INIT;
    const char *text;
    size_t i, n;

    if (!ndp_json_is_unset(v) && r->unset_values &&
        json_object_is_type(v, json_type_string)) {
        text = json_object_get_string(ndp_json_unconst(v));
        n = json_object_array_length(r->unset_values);
        for (i = 0; i < n; i++) {
            const char *u = ndp_json_scalar_text(
                json_object_array_get_idx(r->unset_values, i), &scratch);
            if (u && ndp_strcasecmp(u, text) == 0) {
                v = NULL;
                break;
            }
        }
    }
    ndp_buf_release(&scratch);
    if (ndp_json_is_unset(v))
        return r->default_value;
    return v;
}

static bool value_in_list(const struct json_object *v,
                          const struct json_object *list)
{
    struct ndp_buf a = NDP_BUF_INIT, b = NDP_BUF_INIT;
    const char *text = ndp_json_scalar_text(v, &a);
    bool found = false;
    size_t i, n = json_object_array_length(list);

    if (v && (json_object_is_type(v, json_type_object) ||
              json_object_is_type(v, json_type_array)) && text)
        goto out;
    for (i = 0; i < n && !found; i++) {
        const char *item = ndp_json_scalar_text(
            json_object_array_get_idx(list, i), &b);
        found = (!text && !item) ||
                (text && item && ndp_strcasecmp(text, item) == 0);
    }
out:
    ndp_buf_release(&a);
    ndp_buf_release(&b);
    return found;
}

static bool array_contains(const struct json_object *v,
                           const struct json_object *wanted)
{
    struct json_object *one = NULL;
    bool found = false;
    size_t i, n;

    if (ndp_json_is_unset(v) || !json_object_is_type(v, json_type_array))
        return false;
    one = json_object_new_array();
    json_object_array_add(one, json_object_get(ndp_json_unconst(wanted)));
    n = json_object_array_length(v);
    for (i = 0; i < n && !found; i++)
        found = value_in_list(json_object_array_get_idx(v, i), one);
    json_object_put(one);
    return found;
}

static bool matcher_holds(const struct rule_impl *r,
                          const struct json_object *m,
                          const struct json_object *v, bool unseen);

/*
 * Matchers for members of 'v'.  With 'unseen', a member 'v' does not show
 * (what-if gave only a delta, which leaves unchanged members out) may be
 * anything, so its matcher holds.
 */
static bool fields_hold(const struct rule_impl *r,
                        const struct json_object *fields,
                        const struct json_object *v, bool unseen)
{
    json_object_object_foreach(ndp_json_unconst(fields), key, sub) {
        const struct json_object *child = ndp_json_get_nocase(v, key);
        if (unseen && !child)
            continue;
        if (!matcher_holds(r, sub, ndp_json_is_unset(child) ? NULL : child,
                           unseen))
            return false;
    }
    return true;
}

static bool matcher_holds(const struct rule_impl *r,
                          const struct json_object *m,
                          const struct json_object *v, bool unseen)
{
    struct json_object *x;

    if (!m)
        return true;
    if ((x = ndp_json_get(m, "in")) && !value_in_list(v, x))
        return false;
    if ((x = ndp_json_get(m, "not_in")) && value_in_list(v, x))
        return false;
    if ((x = ndp_json_get(m, "contains")) && !array_contains(v, x))
        return false;
    if ((x = ndp_json_get(m, "not_contains")) && array_contains(v, x))
        return false;
    if ((x = ndp_json_get(m, "fields")) && !fields_hold(r, x, v, unseen))
        return false;
    return true;
}

static bool key_ignored(const struct rule_impl *r, const char *key)
{
    size_t i, n = r->ignore_keys ? json_object_array_length(r->ignore_keys)
                                 : 0;

    for (i = 0; i < n; i++)
        if (ndp_strcasecmp(json_object_get_string(json_object_array_get_idx(
                               r->ignore_keys, i)), key) == 0)
            return true;
    return false;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Canonical text of a value for "did it change": unset members dropped,
 * object keys lower-cased and sorted, strings lower-cased with ignore_case,
 * arrays sorted with unordered.  Two values differ iff their texts do.
 */
static void canonical(struct ndp_buf *out, const struct rule_impl *r,
                      const struct json_object *v, bool top);

static void canonical_array(struct ndp_buf *out, const struct rule_impl *r,
                            const struct json_object *v)
{
    size_t i, n = json_object_array_length(v);
    char **items = ndp_xcalloc(n ? n : 1, sizeof(*items));

    for (i = 0; i < n; i++) {
        struct ndp_buf one = NDP_BUF_INIT;
        canonical(&one, r, json_object_array_get_idx(v, i), false);
        items[i] = ndp_buf_detach(&one);
    }
    if (r->unordered && n > 1)
        qsort(items, n, sizeof(*items), compare_strings);
    ndp_buf_addch(out, '[');
    for (i = 0; i < n; i++) {
        ndp_buf_addf(out, "%s%s", i ? "," : "", items[i]);
        free(items[i]);
    }
    ndp_buf_addch(out, ']');
    free(items);
}

static void canonical_object(struct ndp_buf *out, const struct rule_impl *r,
                             const struct json_object *v, bool top)
{
    size_t n = 0, alloc = 0, i;
    char **items = NULL;

    json_object_object_foreach(ndp_json_unconst(v), key, child) {
        struct ndp_buf one = NDP_BUF_INIT;
        size_t k;
        if (ndp_json_is_unset(child) || (top && key_ignored(r, key)))
            continue;
        for (k = 0; key[k]; k++)
            ndp_buf_addch(&one, (char)((key[k] >= 'A' && key[k] <= 'Z')
                                           ? key[k] + 32 : key[k]));
        ndp_buf_addch(&one, ':');
        canonical(&one, r, child, false);
        NDP_GROW(items, alloc, n + 1);
        items[n++] = ndp_buf_detach(&one);
    }
    if (n > 1)
        qsort(items, n, sizeof(*items), compare_strings);
    ndp_buf_addch(out, '{');
    for (i = 0; i < n; i++) {
        ndp_buf_addf(out, "%s%s", i ? "," : "", items[i]);
        free(items[i]);
    }
    ndp_buf_addch(out, '}');
    free(items);
}

static void canonical(struct ndp_buf *out, const struct rule_impl *r,
                      const struct json_object *v, bool top)
{
    struct ndp_buf scratch = NDP_BUF_INIT;
    const char *text;
    size_t start;

    if (ndp_json_is_unset(v)) {
        ndp_buf_adds(out, "~");
    } else if (json_object_is_type(v, json_type_array)) {
        canonical_array(out, r, v);
    } else if (json_object_is_type(v, json_type_object)) {
        canonical_object(out, r, v, top);
    } else {
        text = ndp_json_scalar_text(v, &scratch);
        start = out->len;
        ndp_buf_add_json_string(out, text);
        if (r->ignore_case)
            for (; start < out->len; start++)
                if (out->buf[start] >= 'A' && out->buf[start] <= 'Z')
                    out->buf[start] = (char)(out->buf[start] + 32);
    }
    ndp_buf_release(&scratch);
}

static bool values_differ(const struct rule_impl *r,
                          const struct json_object *a,
                          const struct json_object *b)
{
    struct ndp_buf ca = NDP_BUF_INIT, cb = NDP_BUF_INIT;
    bool differ;

    canonical(&ca, r, a, true);
    canonical(&cb, r, b, true);
    differ = strcmp(ca.buf, cb.buf) != 0;
    ndp_buf_release(&ca);
    ndp_buf_release(&cb);
    return differ;
}

static bool some_field_changed(const struct rule_impl *r,
                               const struct json_object *keys,
                               const struct json_object *before,
                               const struct json_object *after)
{
    size_t i, n = json_object_array_length(keys);

    for (i = 0; i < n; i++) {
        const char *key = json_object_get_string(
            json_object_array_get_idx(keys, i));
        if (values_differ(r, ndp_json_get_nocase(before, key),
                          ndp_json_get_nocase(after, key)))
            return true;
    }
    return false;
}

static bool reimages(const struct ndp_rule *rule,
                     const struct json_object *before,
                     const struct json_object *after,
                     const struct json_object *parent_before,
                     const struct json_object *parent_after, bool unseen)
{
    const struct rule_impl *r = logic_of(rule);
    size_t i, n;

    before = normalise(r, before);
    after = normalise(r, after);
    if (!values_differ(r, before, after))
        return false;
    if (r->any_change)
        return true;
    n = r->transitions ? json_object_array_length(r->transitions) : 0;
    for (i = 0; i < n; i++) {
        struct json_object *t = json_object_array_get_idx(r->transitions, i);
        struct json_object *changed = ndp_json_get(t, "changed");
        struct json_object *sb = ndp_json_get(t, "siblings_before");
        struct json_object *sa = ndp_json_get(t, "siblings_after");

        if (matcher_holds(r, ndp_json_get(t, "from"), before, unseen) &&
            matcher_holds(r, ndp_json_get(t, "to"), after, unseen) &&
            (!changed || some_field_changed(r, changed, before, after)) &&
            (!sb || fields_hold(r, sb, parent_before, unseen)) &&
            (!sa || fields_hold(r, sa, parent_after, unseen)))
            return true;
    }
    return false;
}

bool ndp_rule_reimages(const struct ndp_rule *rule,
                       const struct json_object *before,
                       const struct json_object *after,
                       const struct json_object *parent_before,
                       const struct json_object *parent_after)
{
    return reimages(rule, before, after, parent_before, parent_after, false);
}

bool ndp_rule_reimages_unseen(const struct ndp_rule *rule,
                              const struct json_object *before,
                              const struct json_object *after,
                              const struct json_object *parent_before,
                              const struct json_object *parent_after)
{
    return reimages(rule, before, after, parent_before, parent_after, true);
}

bool ndp_rule_may_reimage(const struct ndp_rule *rule,
                          const struct json_object *before)
{
    const struct rule_impl *r = logic_of(rule);
    size_t i, n;

    if (r->any_change)
        return true;
    before = normalise(r, before);
    n = r->transitions ? json_object_array_length(r->transitions) : 0;
    for (i = 0; i < n; i++)
        if (matcher_holds(r, ndp_json_get(json_object_array_get_idx(
                                 r->transitions, i), "from"), before, false))
            return true;
    return false;
}

const char *ndp_scope_name(enum ndp_scope scope)
{
    return scope_names[scope];
}

const char *ndp_class_name(enum ndp_rule_class class_)
{
    return class_names[class_];
}

/* ---- plain words, for --explain ---- */

static void describe_values(struct ndp_buf *out, const struct json_object *list)
{
    struct ndp_buf scratch = NDP_BUF_INIT;
    size_t i, n = json_object_array_length(list);

    for (i = 0; i < n; i++) {
        const char *v = ndp_json_scalar_text(json_object_array_get_idx(list, i),
                                             &scratch);
        ndp_buf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                     v ? v : "unset");
    }
    ndp_buf_release(&scratch);
}

static void describe_matcher(struct ndp_buf *out, const struct json_object *m)
{
    struct json_object *x;
    bool any = false;

    if ((x = ndp_json_get(m, "in")) != NULL) {
        describe_values(out, x);
        any = true;
    }
    if ((x = ndp_json_get(m, "not_in")) != NULL) {
        ndp_buf_addf(out, "%sanything but ", any ? ", " : "");
        describe_values(out, x);
        any = true;
    }
    if ((x = ndp_json_get(m, "contains")) != NULL) {
        ndp_buf_addf(out, "%sa list with %s", any ? ", " : "",
                     json_object_get_string(x));
        any = true;
    }
    if ((x = ndp_json_get(m, "not_contains")) != NULL) {
        ndp_buf_addf(out, "%sa list without %s", any ? ", " : "",
                     json_object_get_string(x));
        any = true;
    }
    if ((x = ndp_json_get(m, "fields")) != NULL) {
        bool first = true;
        ndp_buf_adds(out, any ? ", {" : "{");
        json_object_object_foreach(x, key, sub) {
            ndp_buf_addf(out, "%s%s: ", first ? "" : "; ", key);
            describe_matcher(out, sub);
            first = false;
        }
        ndp_buf_addch(out, '}');
        any = true;
    }
    if (!any)
        ndp_buf_adds(out, "anything");
}

void ndp_rule_describe(struct ndp_buf *out, const struct ndp_rule *rule)
{
    const struct rule_impl *r = logic_of(rule);
    size_t i, n;

    ndp_buf_addf(out, "%s  %s (%s, %s)\n", rule->id, rule->summary,
                 ndp_scope_name(rule->scope), ndp_class_name(rule->class_));
    for (i = 0; i < r->nr_watches; i++)
        ndp_buf_addf(out, "    watches %s %s on %s\n",
                     r->watches[i].notation == NDP_NOTATION_ARM ? "ARM"
                                                                : "azurerm",
                     r->set->patterns[r->watches[i].path_pattern].src,
                     r->set->patterns[r->watches[i].type_pattern].src);
    if (r->any_change) {
        ndp_buf_adds(out, "    reimages on any change of the value");
    } else {
        n = json_object_array_length(r->transitions);
        for (i = 0; i < n; i++) {
            struct json_object *t = json_object_array_get_idx(r->transitions,
                                                               i);
            struct json_object *changed = ndp_json_get(t, "changed");
            ndp_buf_adds(out, i ? "\n    or from " : "    reimages from ");
            describe_matcher(out, ndp_json_get(t, "from"));
            ndp_buf_adds(out, " to ");
            describe_matcher(out, ndp_json_get(t, "to"));
            if (changed) {
                ndp_buf_adds(out, ", when ");
                describe_values(out, changed);
                ndp_buf_adds(out, " changes");
            }
        }
    }
    if (r->default_value) {
        struct ndp_buf scratch = NDP_BUF_INIT;
        ndp_buf_addf(out, " (unset means %s)",
                     ndp_json_scalar_text(r->default_value, &scratch));
        ndp_buf_release(&scratch);
    }
    ndp_buf_addch(out, '\n');
}

bool ndp_rule_may_reach(const struct ndp_rule *rule,
                        const struct json_object *after)
{
    const struct rule_impl *r = logic_of(rule);
    size_t i, n;

    if (r->any_change)
        return true;
    after = normalise(r, after);
    n = r->transitions ? json_object_array_length(r->transitions) : 0;
    for (i = 0; i < n; i++)
        if (matcher_holds(r, ndp_json_get(json_object_array_get_idx(
                                 r->transitions, i), "to"), after, false))
            return true;
    return false;
}
