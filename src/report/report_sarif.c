/*
 * SPDX-License-Identifier: Apache-2.0
 * report_sarif.c - SARIF 2.1.0 for GitHub code scanning and other SARIF
 * consumers: one run, the tool driver with one rule per rule id (short and
 * full description, help in text and Markdown, help URI), and one result
 * per finding with its level, a message naming the cluster, the path,
 * before -> after and the verdict, a repository-relative location (the
 * line of the resource in the input), the resource as a logical location,
 * and fingerprints that do not change with unrelated edits of the plan.
 *
 * A result's message.text is a plain text message, where SARIF viewers
 * render "[text](target)" as a link (SARIF 2.1.0 section 3.11.6): its
 * '\\', '[' and ']' are escaped with a backslash, as the specification
 * escapes them in link text, so that no text from the input makes one.
 *
 * Paths are relative to --source-root (default: the current directory).
 * Standard input has no file: its results point at the artifact "stdin",
 * described as standard input.  Values are the redacted ones the findings
 * carry, so nothing sensitive can appear.
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_util.h"
#include "buf.h"
#include "safe.h"
#include "change.h"
#include "finding.h"
#include "impact.h"
#include "report_impact.h"
#include "rules.h"
#include "timeutil.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define HELP_URI NDP_HOMEPAGE "/blob/main/docs/rules.md#categories-and-rules"
#define MAX_DESCRIPTION 1024  /* GitHub: shortDescription, fullDescription */
#define STDIN_URI "stdin"

/* The rules the run lists: one per rule id the findings name, in order
 * of first appearance; 'rule' is NULL for an id the rule set lacks. */
struct rule_table {
    const char **ids;
    const struct ndp_rule **rules;
    size_t nr, alloc_ids, alloc_rules;
};

static long find_rule(const struct rule_table *t, const char *id)
{
    size_t i;

    for (i = 0; i < t->nr; i++)
        if (strcmp(t->ids[i], id) == 0)
            return (long)i;
    return -1;
}

static void rule_table_init(struct rule_table *t, const struct ndp_report *r)
{
    size_t i;

    memset(t, 0, sizeof(*t));
    for (i = 0; i < r->result->findings.nr; i++) {
        const char *id = r->result->findings.items[i].rule_id;
        if (find_rule(t, id) >= 0)
            continue;
        NDP_GROW(t->ids, t->alloc_ids, t->nr + 1);
        NDP_GROW(t->rules, t->alloc_rules, t->nr + 1);
        t->ids[t->nr] = id;
        t->rules[t->nr++] =
            r->options.rules ? ndp_ruleset_find(r->options.rules, id) : NULL;
    }
}

/* Appends 's' as a JSON string of at most 'max' bytes (cut at a UTF-8
 * boundary, "..." marking the cut). */
static void add_string_max(struct ndp_buf *out, const char *s, size_t max)
{
    size_t len = strlen(s);
    char *cut;

    if (len <= max) {
        ndp_buf_add_json_string(out, s);
        return;
    }
    len = max - 3;
    while (len && ((unsigned char)s[len] & 0xC0) == 0x80)
        len--;
    cut = ndp_xmalloc(len + 4);
    memcpy(cut, s, len);
    memcpy(cut + len, "...", 4);
    ndp_buf_add_json_string(out, cut);
    free(cut);
}

/*
 * A rule's default level: error for the changes the policy gates; for a
 * meta rule its verdict's severity (profile-undeclared only informs);
 * warning for the rest.
 */
static const char *rule_level(const struct ndp_rule *rule)
{
    int v = rule && rule->class_ == NDP_CLASS_META
                ? ndp_verdict_of_meta(rule->category) : -1;

    if (v >= 0)
        return ndp_severity_name(ndp_verdict_severity((enum ndp_verdict)v,
                                                      false));
    return rule && (rule->class_ == NDP_CLASS_COVERED ||
                    rule->class_ == NDP_CLASS_VERSION_GATED)
               ? "error"
               : "warning";
}

static void write_help(struct ndp_buf *out, const struct ndp_rule *rule)
{
    struct ndp_buf text = NDP_BUF_INIT;
    bool gated = rule->class_ == NDP_CLASS_COVERED ||
                 rule->class_ == NDP_CLASS_VERSION_GATED;

    ndp_buf_addf(&text, "%s (%s, rule %s: %s).\n\nWhy: %s\n\n"
                 "What to do: %s", rule->title, rule->category, rule->id,
                 rule->summary, rule->why, rule->advice);
    if (gated)
        ndp_buf_adds(&text, "\n\nVerdicts: rejected (profile Block) and "
                     "outside-window (profile AllowDuringMaintenanceWindow, "
                     "outside the aksManagedNodeOSUpgradeSchedule window) are "
                     "refused by AKS halfway through the apply; allowed "
                     "changes go through and reimage.");
    if (rule->source)
        ndp_buf_addf(&text, "\n\nSource: %s", rule->source);
    ndp_buf_adds(out, ",\n          \"help\": {\"text\": ");
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_reset(&text);
    ndp_buf_addf(&text, "**%s** (`%s`)\n\nRule `%s`: %s.\n\n"
                 "**Why.** %s\n\n**What to do.** %s\n\n", rule->title,
                 rule->category, rule->id, rule->summary, rule->why,
                 rule->advice);
    if (gated)
        ndp_buf_adds(&text, "**Verdicts.** `rejected` (profile `Block`) and "
                     "`outside-window` (profile "
                     "`AllowDuringMaintenanceWindow`, outside the "
                     "`aksManagedNodeOSUpgradeSchedule` window) are refused "
                     "by AKS halfway through the apply; `allowed` changes go "
                     "through and reimage.\n\n");
    ndp_buf_adds(&text, "See [its section of the rules](");
    ndp_rules_docs_url(&text, rule->category);
    ndp_buf_adds(&text, ")");
    if (rule->source)
        ndp_buf_addf(&text, " and [the Microsoft page it comes from](%s)",
                     rule->source);
    ndp_buf_adds(&text, ".");
    ndp_buf_adds(out, ", \"markdown\": ");
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_adds(out, "}");
    ndp_buf_release(&text);
}

/* A rule the rule set does not describe: its id is all there is. */
static void write_bare_rule(struct ndp_buf *out, const char *id)
{
    ndp_buf_adds(out, "{\n          \"id\": ");
    ndp_buf_add_json_string(out, id);
    ndp_buf_adds(out, ",\n          \"shortDescription\": {\"text\": "
                      "\"ndplint finding.\"},\n          \"fullDescription\": "
                      "{\"text\": \"A finding about the node disruption "
                      "policy or its window.\"},\n          \"help\": "
                      "{\"text\": \"See the ndplint rules.\", \"markdown\": "
                      "\"See [the ndplint rules](" HELP_URI ").\"}");
    ndp_buf_adds(out, ",\n          \"helpUri\": \"" HELP_URI "\""
                      ",\n          \"defaultConfiguration\": {\"level\": "
                      "\"warning\"}\n        }");
}

/* A PascalCase "friendly name" from the summary's words before any '(' or
 * ':': "node pool LocalDNS profile changed" becomes
 * NodePoolLocalDNSProfileChanged. */
static void add_rule_name(struct ndp_buf *out, const char *summary)
{
    size_t end = strcspn(summary, "(:"), i;
    bool word_start = true;

    for (i = 0; i < end; i++) {
        unsigned char c = (unsigned char)summary[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     (c >= '0' && c <= '9');
        if (!alnum) {
            word_start = true;
            continue;
        }
        if (word_start && c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        ndp_buf_addch(out, (char)c);
        word_start = false;
    }
}

static void write_rule(struct ndp_buf *out, const struct ndp_rule *rule)
{
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_buf_adds(out, "{\n          \"id\": ");
    ndp_buf_add_json_string(out, rule->id);
    add_rule_name(&text, rule->summary);
    ndp_buf_adds(out, ",\n          \"name\": ");
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_reset(&text);
    ndp_buf_adds(out, ",\n          \"shortDescription\": {\"text\": ");
    ndp_buf_addf(&text, "%s: %s.", rule->title, rule->summary);
    add_string_max(out, text.buf, MAX_DESCRIPTION);
    ndp_buf_reset(&text);
    ndp_buf_addf(&text, "%s: %s. %s", rule->title, rule->summary, rule->why);
    ndp_buf_adds(out, "},\n          \"fullDescription\": {\"text\": ");
    add_string_max(out, text.buf, MAX_DESCRIPTION);
    ndp_buf_adds(out, "}");
    write_help(out, rule);
    ndp_buf_reset(&text);
    ndp_rules_docs_url(&text, rule->category);
    ndp_buf_adds(out, ",\n          \"helpUri\": ");
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_addf(out, ",\n          \"defaultConfiguration\": {\"level\": "
                 "\"%s\"},\n          \"properties\": {\"tags\": "
                 "[\"aks\", \"node-reimage\", ", rule_level(rule));
    ndp_buf_add_json_string(out, rule->category);
    ndp_buf_addf(out, "], \"precision\": \"high\", \"scope\": \"%s\", "
                 "\"class\": \"%s\"}\n        }",
                 ndp_scope_name(rule->scope), ndp_class_name(rule->class_));
    ndp_buf_release(&text);
}

static void write_rules(struct ndp_buf *out, const struct rule_table *t)
{
    size_t i;

    ndp_buf_adds(out, "      \"rules\": [");
    for (i = 0; i < t->nr; i++) {
        ndp_buf_adds(out, i ? ",\n        " : "\n        ");
        if (t->rules[i])
            write_rule(out, t->rules[i]);
        else
            write_bare_rule(out, t->ids[i]);
    }
    ndp_buf_adds(out, t->nr ? "\n      ]\n" : "]\n");
}

static const char *result_level(enum ndp_severity sev)
{
    return sev == NDP_SEVERITY_ERROR     ? "error"
           : sev == NDP_SEVERITY_WARNING ? "warning"
                                         : "note";
}

/* Appends 'path' percent-encoded as a URI reference. */
static void add_uri(struct ndp_buf *out, const char *path, bool absolute)
{
    const unsigned char *p = (const unsigned char *)path;

    ndp_buf_adds(out, absolute ? "file://" : "");
    for (; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
            (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            ndp_buf_addch(out, (char)*p);
        else
            ndp_buf_addf(out, "%%%02X", *p);
    }
}

static void write_location(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f)
{
    struct ndp_buf path = NDP_BUF_INIT, uri = NDP_BUF_INIT,
                   where = NDP_BUF_INIT;
    long line;
    int kind = ndp_report_location(&path, &line, r, f);

    /* The fingerprint keeps to the input, located or not. */
    ndp_report_relative_path(&where, f->input, r->options.source_root);

    if (kind < 0)
        ndp_buf_adds(&uri, STDIN_URI);
    else
        add_uri(&uri, path.buf, kind == 0);
    ndp_buf_adds(out, "      \"locations\": [{\n        \"physicalLocation\": "
                      "{\n          \"artifactLocation\": {\"uri\": ");
    ndp_buf_add_json_string(out, uri.buf);
    if (kind < 0)
        ndp_buf_adds(out, ", \"description\": {\"text\": \"standard input: "
                          "the plan was read from a pipe, not a file\"}");
    ndp_buf_addf(out, "},\n          \"region\": {\"startLine\": %ld}\n"
                 "        },\n", line > 0 ? line : 1L);
    ndp_buf_adds(out, "        \"logicalLocations\": [{\"kind\": \"resource\", "
                      "\"fullyQualifiedName\": ");
    ndp_buf_add_json_string(out, f->resource);
    ndp_buf_adds(out, "}]\n      }],\n");
    ndp_buf_adds(out, "      \"partialFingerprints\": {\"ndplint/v1\": \"");
    ndp_buf_reset(&path);
    ndp_buf_reset(&uri);
    if (strcmp(f->input, "-") == 0)
        ndp_buf_adds(&uri, STDIN_URI);
    else
        add_uri(&uri, where.buf, where.len && where.buf[0] == '/');
    ndp_report_fingerprint(&path, f, uri.buf);
    ndp_buf_addf(out, "%s\", \"primaryLocationLineHash\": \"%s\"},\n",
                 path.buf, path.buf);
    ndp_buf_release(&path);
    ndp_buf_release(&uri);
    ndp_buf_release(&where);
}

/*
 * Each cluster's impact as JSON, NULL where nothing is rebuilt: written
 * once per cluster, not once per finding.  Freed by free_impacts().
 */
static char **impacts_json(const struct ndp_report *r)
{
    size_t i, nr = r->result->impacts.nr;
    char **json = ndp_xcalloc(nr ? nr : 1, sizeof(*json));

    for (i = 0; i < nr; i++) {
        struct ndp_buf b = NDP_BUF_INIT;
        if (!r->result->impacts.items[i].rebuilds)
            continue;
        ndp_report_impact_json(&b, &r->result->impacts.items[i]);
        json[i] = ndp_buf_detach(&b);
    }
    return json;
}

static void free_impacts(char **json, size_t nr)
{
    size_t i;

    for (i = 0; i < nr; i++)
        free(json[i]);
    free(json);
}

/* 's' as the text of a plain text message: no embedded link (3.11.6). */
static void add_message_text(struct ndp_buf *out, const char *s)
{
    struct ndp_buf text = NDP_BUF_INIT;

    for (; *s; s++) {
        if (*s == '\\' || *s == '[' || *s == ']')
            ndp_buf_addch(&text, '\\');
        ndp_buf_addch(&text, *s);
    }
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_release(&text);
}

static void write_result(struct ndp_buf *out, const struct ndp_report *r,
                         const struct rule_table *t, char *const *impacts,
                         const struct ndp_finding *f)
{
    struct ndp_buf msg = NDP_BUF_INIT;

    ndp_buf_adds(out, "{\n      \"ruleId\": ");
    ndp_buf_add_json_string(out, f->rule_id);
    ndp_buf_addf(out, ",\n      \"ruleIndex\": %ld,\n      \"level\": \"%s\","
                 "\n      \"message\": {\"text\": ", find_rule(t, f->rule_id),
                 result_level(f->severity));
    ndp_report_describe_all(&msg, f, NDP_ARROW);
    add_message_text(out, msg.buf);
    ndp_buf_adds(out, "},\n");
    write_location(out, r, f);
    ndp_buf_addf(out, "      \"properties\": {\"verdict\": \"%s\", "
                 "\"category\": ", ndp_verdict_name(f->verdict));
    ndp_buf_add_json_string(out, f->category);
    ndp_buf_adds(out, ", \"cluster\": ");
    ndp_buf_add_json_string(out, f->cluster);
    ndp_buf_adds(out, ", \"path\": ");
    ndp_buf_add_json_string(out, f->path);
    ndp_buf_addf(out, ", \"before\": %s, \"after\": %s", f->before,
                 f->after);
    /* The rebuild belongs to the results that cause it, not to a refused
     * change or a note beside them. */
    if (impacts[f->cluster_index] && ndp_impact_finding_rebuilds(f)) {
        ndp_buf_adds(out, ", \"impact\": ");
        ndp_buf_adds(out, impacts[f->cluster_index]);
    }
    ndp_buf_adds(out, "}");
    if (f->suppression) {
        /* GitHub shows a suppressed result as dismissed, not as open. */
        ndp_buf_adds(out, ",\n      \"suppressions\": [{\"kind\": "
                          "\"external\", \"justification\": ");
        ndp_buf_add_json_string(out, f->suppression);
        ndp_buf_adds(out, "}]");
    }
    ndp_buf_adds(out, "\n    }");
    ndp_buf_release(&msg);
}

static void write_sarif(struct ndp_buf *out, const struct ndp_report *r)
{
    struct rule_table t;
    char **impacts = impacts_json(r);
    size_t i;

    rule_table_init(&t, r);
    ndp_buf_adds(out, "{\n  \"$schema\": \"" SARIF_SCHEMA "\",\n"
                      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
                      "    \"tool\": {\"driver\": {\n"
                      "      \"name\": \"ndplint\",\n"
                      "      \"version\": \"" NDP_VERSION "\",\n"
                      "      \"semanticVersion\": \"" NDP_VERSION "\",\n"
                      "      \"informationUri\": \"" NDP_HOMEPAGE "\",\n");
    write_rules(out, &t);
    ndp_buf_adds(out, "    }},\n    \"properties\": {\"evaluatedAt\": \"");
    ndp_time_format_utc(out, r->result->at);
    ndp_buf_addch(out, '"');
    /* --at next-window: evaluatedAt is where the search began; each
     * result's message names its cluster's instant where it matters. */
    if (r->result->next_window)
        ndp_buf_adds(out, ", \"at\": \"next-window\"");
    if (r->counts.suppressed)
        ndp_buf_addf(out, ", \"waived\": %d", r->counts.suppressed);
    if (r->options.baseline)
        ndp_buf_addf(out, ", \"baselineKnown\": %zu",
                     r->result->baseline_known);
    ndp_buf_adds(out, "},\n    \"results\": [");
    for (i = 0; i < r->result->findings.nr; i++) {
        ndp_buf_adds(out, i ? ",\n    " : "\n    ");
        write_result(out, r, &t, impacts, &r->result->findings.items[i]);
    }
    ndp_buf_adds(out, r->result->findings.nr ? "\n    ]\n  }]\n}\n"
                                             : "]\n  }]\n}\n");
    free(t.ids);
    free(t.rules);
    free_impacts(impacts, r->result->impacts.nr);
}

const struct ndp_reporter ndp_report_sarif = {
    "sarif", write_sarif, 0, NDP_CMDS_NONE, &ndp_defuse_json
};
