/*
 * rules_describe.c - a rule in plain words, for --explain (see rules.h):
 * what it watches, which changes of the value reimage, and what an unset
 * value means.
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "jsonutil.h"

#include "rules_internal.h"

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
    const struct rule_impl *r = ndp_rule_logic(rule);
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
        n = r->transitions ? json_object_array_length(r->transitions) : 0;
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
