/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_describe.c - a rule in plain words, for --explain (see rules.h):
 * what it watches, which changes of the value reimage, and what an unset
 * value means; and where docs/rules.md tells its category.
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "jsonutil.h"

#include "rules_internal.h"

#define ARROW "\xe2\x86\x92" /* U+2192 */

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

/* True when 'list' is [null]: "anything but unset" reads "set". */
static bool only_unset(const struct json_object *list)
{
    return json_object_array_length(list) == 1 &&
           json_object_array_get_idx(list, 0) == NULL;
}

static void describe_matcher(struct ndp_buf *out, const struct json_object *m);

/* "dns_server set; root_domain is a or b" */
static void describe_fields(struct ndp_buf *out, const struct json_object *x,
                            const char *sep)
{
    bool first = true;

    json_object_object_foreach(x, key, sub) {
        struct json_object *not_in = ndp_json_get(sub, "not_in");
        ndp_buf_addf(out, "%s%s ", first ? "" : sep, key);
        if (not_in && only_unset(not_in) &&
            json_object_object_length(sub) == 1)
            ndp_buf_adds(out, "is set");
        else if (ndp_json_get(sub, "in") &&
                 json_object_object_length(sub) == 1 &&
                 only_unset(ndp_json_get(sub, "in")))
            ndp_buf_adds(out, "is unset");
        else {
            ndp_buf_adds(out, "is ");
            describe_matcher(out, sub);
        }
        first = false;
    }
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
        if (only_unset(x)) {
            ndp_buf_addf(out, "%sany value", any ? ", " : "");
        } else {
            ndp_buf_addf(out, "%sanything but ", any ? ", " : "");
            describe_values(out, x);
        }
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
        ndp_buf_adds(out, any ? ", with " : "a block with ");
        describe_fields(out, x, " and ");
        any = true;
    }
    if (!any)
        ndp_buf_adds(out, "anything");
}

/*
 * A watched path or resource type in words: the pattern without its
 * anchors and escapes, "[]" for a list index, "[POOL]" for a pool by name,
 * "(a, b or c)" for alternatives.  0, or -1 (nothing appended) when the
 * pattern holds anything else; the caller then quotes the pattern.
 */
static int describe_pattern(struct ndp_buf *out, const char *re)
{
    struct ndp_buf b = NDP_BUF_INIT;
    const char *p = re;
    size_t n = strlen(re);
    bool in_group = false;
    int rc = 0;

    if (*p == '^')
        p++, n--;
    if (n && re[strlen(re) - 1] == '$' &&
        (strlen(re) < 2 || re[strlen(re) - 2] != '\\'))
        n--;
    for (; n > 0 && rc == 0; ) {
        if (n >= 7 && strncmp(p, "\\[\\d+\\]", 7) == 0) {
            ndp_buf_adds(&b, "[]");
            p += 7, n -= 7;
        } else if (n >= 15 && strncmp(p, "\\[name=[^\\]]+\\]", 15) == 0) {
            ndp_buf_adds(&b, "[POOL]");
            p += 15, n -= 15;
        } else if (n >= 5 && strncmp(p, "\\[", 2) == 0 && p[2] >= '0' &&
                   p[2] <= '9' && strncmp(p + 3, "\\]", 2) == 0) {
            /* \[0\]: a fixed index */
            ndp_buf_adds(&b, "[]");
            p += 5, n -= 5;
        } else if (p[0] == '\\' && n >= 2 && strchr(".[]/()$^|*+?{}", p[1])) {
            ndp_buf_addch(&b, p[1]);
            p += 2, n -= 2;
        } else if (*p == '(' && !in_group) {
            ndp_buf_addch(&b, '(');
            in_group = true;
            p++, n--;
        } else if (*p == ')' && in_group) {
            ndp_buf_addch(&b, ')');
            in_group = false;
            p++, n--;
        } else if (*p == '|' && in_group) {
            const char *more = memchr(p + 1, '|', n - 1);
            const char *close = memchr(p + 1, ')', n - 1);
            ndp_buf_adds(&b, more && close && more < close ? ", " : " or ");
            p++, n--;
        } else if (strchr(".[]\\$^|*+?{}()", *p)) {
            rc = -1;
        } else {
            ndp_buf_addch(&b, *p);
            p++, n--;
        }
    }
    if (rc == 0 && !in_group)
        ndp_buf_add(out, b.buf, b.len);
    else
        rc = -1;
    ndp_buf_release(&b);
    return rc;
}

static void describe_watch(struct ndp_buf *out, const char *re)
{
    if (describe_pattern(out, re) < 0)
        ndp_buf_addf(out, "what matches %s", re);
}

/* "unset → overlay, when network_plugin is azure (and was ...)" */
static void describe_transition(struct ndp_buf *out,
                                const struct json_object *t)
{
    struct json_object *changed = ndp_json_get(t, "changed");
    struct json_object *after = ndp_json_get(t, "siblings_after");
    struct json_object *before = ndp_json_get(t, "siblings_before");

    describe_matcher(out, ndp_json_get(t, "from"));
    ndp_buf_adds(out, " " ARROW " ");
    describe_matcher(out, ndp_json_get(t, "to"));
    if (changed) {
        ndp_buf_adds(out, ", when ");
        describe_values(out, changed);
        ndp_buf_adds(out, json_object_array_length(changed) > 1
                              ? " change" : " changes");
    }
    if (after) {
        ndp_buf_adds(out, changed ? " and " : ", when ");
        describe_fields(out, after, " and ");
    }
    if (before) {
        ndp_buf_adds(out, changed || after ? " (before: " : ", when before ");
        describe_fields(out, before, " and ");
        if (changed || after)
            ndp_buf_addch(out, ')');
    }
}

void ndp_rule_describe(struct ndp_buf *out, const struct ndp_rule *rule)
{
    const struct rule_impl *r = ndp_rule_logic(rule);
    size_t i, n;

    ndp_buf_addf(out, "%s  %s (%s, %s)\n", rule->id, rule->summary,
                 ndp_scope_name(rule->scope), ndp_class_name(rule->class_));
    for (i = 0; i < r->nr_watches; i++) {
        ndp_buf_addf(out, "    watches %s ",
                     r->watches[i].notation == NDP_NOTATION_ARM ? "ARM"
                                                                : "azurerm");
        describe_watch(out, r->set->patterns[r->watches[i].path_pattern].src);
        ndp_buf_adds(out, " on ");
        describe_watch(out, r->set->patterns[r->watches[i].type_pattern].src);
        ndp_buf_addch(out, '\n');
    }
    if (r->any_change) {
        ndp_buf_adds(out, "    reimages on any change of the value");
    } else {
        n = r->transitions ? json_object_array_length(r->transitions) : 0;
        for (i = 0; i < n; i++) {
            ndp_buf_adds(out, i ? "\n    or " : "    reimages on ");
            describe_transition(out,
                                json_object_array_get_idx(r->transitions, i));
        }
    }
    if (r->default_value) {
        struct ndp_buf scratch = NDP_BUF_INIT;
        ndp_buf_addf(out, " (unset means %s)",
                     ndp_json_scalar_text(r->default_value, &scratch));
        ndp_buf_release(&scratch);
    }
    if (r->kubernetes_version)
        ndp_buf_adds(out, " (a Kubernetes version: x.y.z to x.y of the same "
                     "minor is no change, AKS does not upgrade)");
    ndp_buf_addch(out, '\n');
}

/* Whether 's' can be an anchor as it is: a category's name, [a-z0-9-]. */
static bool anchor_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '-'))
            return false;
    return true;
}

void ndp_rules_docs_url(struct ndp_buf *out, const char *category)
{
    ndp_buf_adds(out, NDP_HOMEPAGE "/blob/main/docs/rules.md#");
    ndp_buf_adds(out, category && anchor_name(category)
                          ? category : "categories-and-rules");
}
