/*
 * SPDX-License-Identifier: Apache-2.0
 * explain.c - --list-rules and --explain (see explain.h).  A rule is told
 * from its rule file: title, why AKS rebuilds nodes, what it watches, and
 * which verdicts its class of rule leads to, and where its docs and its
 * source are; a verdict from its row of the verdict table.
 */
#include "common.h"
#include "explain.h"
#include "buf.h"
#include "rules.h"
#include "safe.h"
#include "verdicts.h"

/*
 * Appends 'text' to 'out' line by line, each line escaped as a message
 * is.  The callers escape each field first, so that a newline in a
 * rule's text cannot start a line; escaping twice changes nothing.
 */
static void add_lines(struct ndp_buf *out, const struct ndp_buf *text)
{
    struct ndp_buf line = NDP_BUF_INIT;
    const char *p = text->buf, *nl;

    for (; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            nl = p + strlen(p);
        ndp_buf_reset(&line);
        ndp_buf_add(&line, p, (size_t)(nl - p));
        ndp_safe_line(out, line.buf);
        ndp_buf_addch(out, '\n');
        if (!*nl)
            break;
    }
    ndp_buf_release(&line);
}

/* 's' escaped for one line (safe.h), in 'scratch'; valid until the next
 * call with the same 'scratch'. */
static const char *safe(struct ndp_buf *scratch, const char *s)
{
    ndp_buf_reset(scratch);
    ndp_safe_line(scratch, s);
    return scratch->buf;
}

void ndp_explain_list_rules(struct ndp_buf *out, const struct ndp_ruleset *rs)
{
    struct ndp_buf text = NDP_BUF_INIT, id = NDP_BUF_INIT,
                   cat = NDP_BUF_INIT, sum = NDP_BUF_INIT;
    size_t i;

    ndp_buf_addf(&text, "%-7s %-28s %-9s %-14s %s\n", "RULE", "CATEGORY",
                 "SCOPE", "CLASS", "SUMMARY");
    for (i = 0; i < ndp_ruleset_count(rs); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(rs, i);
        ndp_buf_addf(&text, "%-7s %-28s %-9s %-14s %s\n", safe(&id, r->id),
                     safe(&cat, r->category), ndp_scope_name(r->scope),
                     ndp_class_name(r->class_), safe(&sum, r->summary));
    }
    add_lines(out, &text);
    ndp_buf_release(&text);
    ndp_buf_release(&id);
    ndp_buf_release(&cat);
    ndp_buf_release(&sum);
}

/*
 * What a meta rule leads to: its verdict's words, when the table has them,
 * else a finding about the policy, the window or the resource at the
 * verdict's severity.
 */
static void meta_verdicts(struct ndp_buf *out, const char *category)
{
    int v = ndp_verdict_of_meta(category);
    const struct ndp_verdict_row *row =
        v >= 0 ? ndp_verdict_row((enum ndp_verdict)v) : NULL;

    if (row && row->rule_words)
        ndp_buf_adds(out, row->rule_words);
    else
        ndp_buf_addf(out, "A finding about the policy, the window or the "
                     "resource itself (%s).",
                     ndp_severity_name(row ? row->severity
                                           : NDP_SEVERITY_WARNING));
}

/* Appends the clause of every verdict the hits of 'class_' get, in table
 * order, each after 'sep' (then "; "); returns how many. */
static size_t add_class_clauses(struct ndp_buf *out,
                                enum ndp_rule_class class_, const char *sep)
{
    size_t v, n = 0;

    for (v = 0; v < NDP_VERDICT_COUNT; v++) {
        const struct ndp_verdict_row *row =
            ndp_verdict_row((enum ndp_verdict)v);
        if (!(row->classes & NDP_CLASS_BIT(class_)))
            continue;
        ndp_buf_addf(out, "%s%s", n++ ? "; " : sep, row->class_words);
    }
    return n;
}

/* The names of the verdicts the hits of 'class_' get, in table order. */
static void add_class_names(struct ndp_buf *out, enum ndp_rule_class class_)
{
    const char *sep = "";
    size_t v;

    for (v = 0; v < NDP_VERDICT_COUNT; v++) {
        const struct ndp_verdict_row *row =
            ndp_verdict_row((enum ndp_verdict)v);
        if (row->classes & NDP_CLASS_BIT(class_)) {
            ndp_buf_addf(out, "%s%s", sep, row->name);
            sep = ", ";
        }
    }
}

/*
 * What each class of rule leads to, from the verdict table: "Verdicts: "
 * and the clause of each verdict its hits get ("Verdict: " for one); a
 * version-gated rule is also judged as a covered one from Kubernetes
 * 1.37; a meta rule by its category's verdict.
 */
static void class_verdicts(struct ndp_buf *out, enum ndp_rule_class class_,
                           const char *category)
{
    struct ndp_buf clauses = NDP_BUF_INIT;
    size_t n;

    if (class_ == NDP_CLASS_META) {
        meta_verdicts(out, category);
        return;
    }
    n = add_class_clauses(&clauses, class_, "");
    ndp_buf_addf(out, "%s: %s",
                 n == 1 && class_ != NDP_CLASS_VERSION_GATED ? "Verdict"
                                                             : "Verdicts",
                 clauses.buf);
    if (class_ == NDP_CLASS_VERSION_GATED) {
        ndp_buf_adds(out, "; from 1.37 (or when the version is unknown) as a "
                     "covered change: ");
        add_class_names(out, NDP_CLASS_COVERED);
    }
    ndp_buf_addch(out, '.');
    ndp_buf_release(&clauses);
}

/*
 * A verdict: what it means, its severities (architecture §5: while the
 * cluster is frozen now, and otherwise), what to do.  -1 when 'name'
 * names no verdict with words of its own (those named like a category,
 * replace, rotate, gate-open, ..., are explained with it).
 */
static int explain_verdict(struct ndp_buf *out, const char *name)
{
    struct ndp_buf text = NDP_BUF_INIT;
    int v = ndp_verdict_parse(name);
    const struct ndp_verdict_row *row =
        v >= 0 ? ndp_verdict_row((enum ndp_verdict)v) : NULL;

    if (!row || !row->means)
        return -1;
    ndp_buf_addf(&text, "%s (verdict): %s\n\n", name, row->means);
    ndp_buf_addf(&text, "Severity while the cluster is frozen now (Block, "
                 "or AllowDuringMaintenanceWindow outside the window): "
                 "%s.\nOtherwise: %s.\n\n", row->when_frozen,
                 row->otherwise);
    ndp_buf_addf(&text, "What to do: %s\n", row->todo);
    add_lines(out, &text);
    ndp_buf_release(&text);
    return 0;
}

/* "Docs: <its section of docs/rules.md>" and "Source: <the Microsoft
 * page>": the links the SARIF and Markdown reports give. */
static void add_links(struct ndp_buf *text, const struct ndp_rule *rule)
{
    ndp_buf_adds(text, "\nDocs: ");
    ndp_rules_docs_url(text, rule->category);
    if (rule->source)
        ndp_buf_addf(text, "\nSource: %s", rule->source);
    ndp_buf_addch(text, '\n');
}

int ndp_explain(struct ndp_buf *out, const struct ndp_ruleset *rs,
                const char *name)
{
    const struct ndp_rule *by_id = ndp_ruleset_find(rs, name), *first = NULL;
    struct ndp_buf text = NDP_BUF_INIT, scratch = NDP_BUF_INIT;
    size_t i;

    for (i = 0; i < ndp_ruleset_count(rs); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(rs, i);
        if (by_id ? r != by_id : strcmp(r->category, name) != 0)
            continue;
        if (!first) {
            first = r;
            ndp_buf_addf(&text, "%s: ", safe(&scratch, r->category));
            ndp_buf_addf(&text, "%s\n\n", safe(&scratch, by_id ? r->title
                                                         : r->category_title));
            /* A check's category says what AKS refuses or does. */
            ndp_buf_addf(&text, "%s: %s\n\n",
                         r->class_ == NDP_CLASS_CHECK
                             ? "What AKS does" : "Why AKS rebuilds nodes",
                         safe(&scratch, r->why));
        }
        ndp_rule_describe(&text, r);
        ndp_buf_adds(&text, "    ");
        class_verdicts(&text, r->class_, r->category);
        ndp_buf_adds(&text, "\n\n");
    }
    if (first) {
        ndp_buf_addf(&text, "What to do: %s\n", safe(&scratch,
                                                      first->advice));
        add_links(&text, first);
        add_lines(out, &text);
    }
    ndp_buf_release(&text);
    ndp_buf_release(&scratch);
    return first ? 0 : explain_verdict(out, name);
}
