/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_match.c - does the change of a watched value reimage under a rule
 * (see rules.h)?  The value is first seen as the rule sees it (unset
 * spellings and the default applied); a change that leaves its canonical
 * text alone is no change; then the rule's transitions are tried, each a
 * "from" and a "to" matcher with optional conditions on changed fields
 * and siblings.  A rule on a Kubernetes version reads a move to the alias
 * of the same minor ("1.30.7" -> "1.30") as no change, since AKS does not
 * upgrade when the same major.minor is sent.  The matcher grammar is
 * written out in rules_load.c.
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "jsonutil.h"
#include "k8s_version.h"

#include "rules_internal.h"

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
        qsort(items, n, sizeof(*items), ndp_strcmp_indirect);
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
        qsort(items, n, sizeof(*items), ndp_strcmp_indirect);
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

/*
 * With kubernetes_version: 'after' is the alias of the minor 'before'
 * names ("1.30.7" -> "1.30"), which AKS reads as no upgrade (the API text
 * of kubernetesVersion; put-time-limits PT-K8S-02).
 */
static bool alias_of_same_minor(const struct rule_impl *r,
                                const struct json_object *before,
                                const struct json_object *after)
{
    struct ndp_k8s_version b, a;

    if (!r->kubernetes_version || ndp_json_is_unset(before) ||
        ndp_json_is_unset(after) ||
        !json_object_is_type(before, json_type_string) ||
        !json_object_is_type(after, json_type_string) ||
        !ndp_k8s_version_parse(&b, json_object_get_string(
                                       ndp_json_unconst(before))) ||
        !ndp_k8s_version_parse(&a, json_object_get_string(
                                       ndp_json_unconst(after))))
        return false;
    return a.patch < 0 && !a.suffixed && a.major == b.major &&
           a.minor == b.minor;
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
    const struct rule_impl *r = ndp_rule_logic(rule);
    size_t i, n;

    before = normalise(r, before);
    after = normalise(r, after);
    if (!values_differ(r, before, after) ||
        alias_of_same_minor(r, before, after))
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
    const struct rule_impl *r = ndp_rule_logic(rule);
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

bool ndp_rule_may_reach(const struct ndp_rule *rule,
                        const struct json_object *after)
{
    const struct rule_impl *r = ndp_rule_logic(rule);
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
