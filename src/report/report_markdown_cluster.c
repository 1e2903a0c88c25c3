/*
 * SPDX-License-Identifier: Apache-2.0
 * report_markdown_cluster.c - one cluster in the Markdown report
 * (report_markdown.h): its row of the summary table, narrow enough for a
 * 900 px column (a name cut to NDP_MD_CELL_WIDTH bytes, an ARM id as
 * "rg/name", counts and sizes in a few words), and its detail, collapsed
 * in a <details>: the full address or id, the profile, the window and
 * the impact as the text report words them, then its findings as short
 * lines.  Every rule links to its section of docs/rules.md and to the
 * Microsoft page its category comes from (rules.h).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_markdown.h"
#include "report_impact.h"
#include "report_util.h"
#include "report_window.h"
#include "buf.h"
#include "evaluate.h"
#include "finding.h"
#include "impact.h"
#include "linker.h"
#include "rollout.h"
#include "rules.h"
#include "timeutil.h"

#include <limits.h>

#define MIDDLE_DOT " \xc2\xb7 "
#define EM_DASH "\xe2\x80\x94"
#define ZWSP "\xe2\x80\x8b" /* U+200B ZERO WIDTH SPACE: a line may break */

void ndp_report_md_count(struct ndp_md_counts *counts,
                         const struct ndp_report *r)
{
    size_t i, nr = r->result->clusters.nr;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        struct ndp_md_counts *c;

        if (f->cluster_index >= nr)
            continue;
        c = &counts[f->cluster_index];
        c->refused += f->refused_now ||
                      ndp_verdict_row(f->verdict)->blocks_apply;
        if (f->suppression) {
            c->waived++;
            continue;
        }
        c->rollouts += ndp_verdict_row(f->verdict)->upgrade;
        c->errors += f->severity == NDP_SEVERITY_ERROR;
        c->warnings += f->severity == NDP_SEVERITY_WARNING;
        c->notes += f->severity == NDP_SEVERITY_NOTE;
    }
}

int ndp_report_md_worst(const struct ndp_md_counts *c)
{
    return c->errors ? 0 : c->warnings ? 1 : c->notes ? 2 : 3;
}

/* The name a reader knows the cluster by: "rg/name" when Azure's names
 * are known (an ARM id shortened), else its address. */
static void short_name(struct ndp_buf *out, const struct ndp_cluster *c)
{
    if (c->name && c->resource_group)
        ndp_buf_addf(out, "%s/%s", c->resource_group, c->name);
    else
        ndp_buf_adds(out, c->name ? c->name : c->id);
}

/* "2026-12-06 01:00Z": an instant in a cell, where it may wrap after
 * the date. */
static void add_instant(struct ndp_buf *out, int64_t t)
{
    size_t start = out->len;

    ndp_time_format_utc(out, t);
    if (out->len - start == 20 && out->buf[start + 10] == 'T') {
        out->buf[start + 10] = ' ';
        ndp_buf_setlen(out, out->len - 4);
        ndp_buf_addch(out, 'Z');
    }
}

/* The profile's name, which may wrap between its words in a cell:
 * "Allow<ZWSP>During<ZWSP>Maintenance<ZWSP>Window". */
static void add_profile(struct ndp_buf *out, enum ndp_profile profile)
{
    const char *p;

    for (p = ndp_profile_name(profile); *p; p++) {
        if (p[0] >= 'A' && p[0] <= 'Z' && p != ndp_profile_name(profile))
            ndp_buf_adds(out, ZWSP);
        ndp_buf_addch(out, *p);
    }
}

/* The window cell: "none", "open until T", "opens T". */
static void window_cell(struct ndp_buf *out, const struct ndp_resolution *c)
{
    if (!c->window) {
        ndp_buf_adds(out, "none");
    } else if (c->window_sensitive) {
        ndp_buf_adds(out, c->in_window == 1 ? "open (times sensitive)"
                          : "closed (times sensitive)");
    } else if (c->in_window == 1) {
        ndp_buf_adds(out, "open until ");
        add_instant(out, c->window_closes_at);
    } else if (c->in_window == 0 && c->has_next_window) {
        ndp_buf_adds(out, "opens ");
        add_instant(out, c->next_window_start);
    } else {
        ndp_buf_adds(out, c->in_window == 0 ? "closed; no opening known"
                                            : "not known");
    }
}

/* The rebuilt cell: "2 pools, 9 nodes", or a dash. */
static void rebuilt_cell(struct ndp_buf *out, const struct ndp_impact *impact)
{
    size_t i, pools = 0;
    long nodes = 0;
    bool known = true;

    for (i = 0; impact->rebuilds && i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        long n = ndp_rollout_pool_nodes(p);

        if (!p->rebuilt)
            continue;
        pools++;
        if (n < 0 || p->sensitive)
            known = false;
        else
            nodes = n > LONG_MAX - nodes ? LONG_MAX : nodes + n;
    }
    if (!impact->rebuilds) {
        ndp_buf_adds(out, EM_DASH);
        return;
    }
    if (!pools) {
        ndp_buf_adds(out, "every affected pool");
        return;
    }
    ndp_buf_addf(out, "%zu pool%s, ", pools, pools == 1 ? "" : "s");
    if (known)
        ndp_buf_addf(out, "%ld node%s", nodes, nodes == 1 ? "" : "s");
    else
        ndp_buf_adds(out, "nodes not known");
}

/* The worst-case cell: how long the rebuild may take. */
static void worst_case_cell(struct ndp_buf *out,
                            const struct ndp_impact *impact)
{
    struct ndp_rollout ro;

    if (!impact->rebuilds) {
        ndp_buf_adds(out, EM_DASH);
        return;
    }
    ndp_rollout_size(&ro, impact, false);
    if (!ro.pools || !ro.known || ro.rotated == ro.pools)
        ndp_buf_adds(out, "not known");
    else
        ndp_rollout_duration_words(out, ro.minutes);
}

void ndp_report_md_table_head(struct ndp_buf *out)
{
    ndp_buf_adds(out, "| cluster | profile | window | refused | rollouts "
                      "| warnings | rebuilt | worst case |\n"
                      "|---|---|---|--:|--:|--:|---|---|\n");
}

void ndp_report_md_cluster_row(struct ndp_buf *out,
                               const struct ndp_report *r, size_t index,
                               const struct ndp_md_counts *c)
{
    const struct ndp_resolution *res = &r->result->resolved.items[index];
    struct ndp_buf name = NDP_BUF_INIT;

    short_name(&name, &r->result->clusters.items[index]);
    ndp_buf_adds(out, "| ");
    ndp_report_md_code_span(out, name.buf, NDP_MD_CELL_WIDTH, true);
    ndp_buf_adds(out, " | ");
    add_profile(out, res->profile);
    ndp_buf_adds(out, " | ");
    window_cell(out, res);
    ndp_buf_addf(out, " | %zu | %zu | %zu | ", c->refused, c->rollouts,
                 c->warnings);
    rebuilt_cell(out, &r->result->impacts.items[index]);
    ndp_buf_adds(out, " | ");
    worst_case_cell(out, &r->result->impacts.items[index]);
    ndp_buf_adds(out, " |\n");
    ndp_buf_release(&name);
}

/* "2 errors, 1 note" (unwaived), "no finding", and the waived. */
static void add_counts(struct ndp_buf *out, const struct ndp_md_counts *c)
{
    const char *sep = "";

    if (c->errors)
        ndp_buf_addf(out, "%zu error%s", c->errors, c->errors == 1 ? "" : "s");
    sep = c->errors ? ", " : "";
    if (c->warnings)
        ndp_buf_addf(out, "%s%zu warning%s", sep, c->warnings,
                     c->warnings == 1 ? "" : "s");
    sep = c->errors || c->warnings ? ", " : "";
    if (c->notes)
        ndp_buf_addf(out, "%s%zu note%s", sep, c->notes,
                     c->notes == 1 ? "" : "s");
    if (!c->errors && !c->warnings && !c->notes)
        ndp_buf_adds(out, "no finding");
    if (c->waived)
        ndp_buf_addf(out, ", %zu waived", c->waived);
}

/*
 * The instant the cluster is judged at: --at, or with --at next-window its
 * own (not shown where it would tell a sensitive window's times).
 */
static void add_judged_at(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_resolution *c)
{
    if (r->result->next_window)
        ndp_report_cluster_judged(out, r,
                                  (size_t)(c - r->result->resolved.items));
    else
        ndp_time_format_utc(out, r->result->at);
}

static void write_window(struct ndp_buf *out, const struct ndp_report *r,
                         const struct ndp_resolution *c)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_buf_adds(out, "- Window (aksManagedNodeOSUpgradeSchedule): ");
    if (!c->window) {
        ndp_buf_adds(out, "none");
        if (c->other_windows) {
            ndp_buf_adds(out, " (not the node OS window: ");
            ndp_report_md_prose(out, c->other_windows, NDP_MD_PROSE_WIDTH);
            ndp_buf_addch(out, ')');
        }
        ndp_buf_addch(out, '\n');
        return;
    }
    ndp_report_window_words(&words, c);
    ndp_report_md_prose(out, words.buf, NDP_MD_PROSE_WIDTH);
    ndp_buf_release(&words);
    ndp_buf_adds(out, c->window_changes && !c->new_window
                          ? " (in force before this change)" : "");
    ndp_buf_addch(out, '\n');
    if (c->in_window == 1) {
        ndp_buf_adds(out, "- Open at ");
        add_judged_at(out, r, c);
        if (!c->window_sensitive) { /* its times would tell its settings */
            ndp_buf_adds(out, "; closes ");
            ndp_time_format_utc(out, c->window_closes_at);
        }
        ndp_buf_addch(out, '\n');
    } else if (c->in_window == 0) {
        ndp_buf_adds(out, "- Closed at ");
        add_judged_at(out, r, c);
        if (c->has_next_window && !c->window_sensitive) {
            ndp_buf_adds(out, "; next opening ");
            ndp_report_window_opening(out, c, c->next_window_start);
        }
        ndp_buf_addch(out, '\n');
    }
}

static void write_impact(struct ndp_buf *out, const struct ndp_impact *impact)
{
    struct ndp_buf words = NDP_BUF_INIT;

    if (!impact->rebuilds)
        return;
    ndp_report_impact_words(&words, impact);
    ndp_buf_adds(out, "- Impact: ");
    ndp_report_md_prose(out, words.buf, NDP_MD_PROSE_WIDTH);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&words);
}

void ndp_report_md_cluster_detail(struct ndp_buf *out,
                                  const struct ndp_report *r, size_t index,
                                  const struct ndp_md_counts *counts)
{
    const struct ndp_cluster *cluster = &r->result->clusters.items[index];
    const struct ndp_resolution *c = &r->result->resolved.items[index];
    struct ndp_buf name = NDP_BUF_INIT;

    short_name(&name, cluster);
    ndp_buf_adds(out, "<details><summary><code>");
    ndp_report_md_html(out, name.buf, NDP_MD_NAME_WIDTH);
    ndp_buf_adds(out, "</code>" MIDDLE_DOT);
    add_counts(out, counts);
    ndp_buf_adds(out, "</summary>\n\n");
    ndp_buf_adds(out, cluster->arm_id && strcmp(cluster->id, cluster->arm_id)
                              == 0 ? "- ARM id: " : "- Address: ");
    ndp_report_md_code_span(out, cluster->id, NDP_MD_NAME_WIDTH, false);
    ndp_buf_release(&name);
    ndp_report_cluster_names(&name, cluster);
    if (name.len) {
        ndp_buf_adds(out, " (");
        ndp_report_md_prose(out, name.buf, NDP_MD_NAME_WIDTH);
        ndp_buf_addch(out, ')');
    }
    ndp_buf_release(&name);
    ndp_buf_adds(out, "\n- Input: ");
    ndp_report_md_code_span(out, cluster->input, NDP_MD_NAME_WIDTH, false);
    ndp_buf_addf(out, "\n- Profile: **%s** (%s)\n",
                 ndp_profile_name(c->profile),
                 ndp_report_profile_source_words(c->profile_source));
    if (c->profile_note) {
        ndp_buf_adds(out, "- Note: ");
        ndp_report_md_prose(out, c->profile_note, NDP_MD_PROSE_WIDTH);
        ndp_buf_addch(out, '\n');
    }
    write_window(out, r, c);
    write_impact(out, &r->result->impacts.items[index]);
    ndp_buf_addch(out, '\n');
}

/* "[NDP101 network-policy](docs) ([source](learn.microsoft.com))": the
 * rule's links. */
static void add_rule_links(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f)
{
    const struct ndp_rule *rule =
        r->options.rules ? ndp_ruleset_find(r->options.rules, f->rule_id)
                         : NULL;

    ndp_buf_addch(out, '[');
    ndp_report_md_prose(out, f->rule_id, NDP_MD_VALUE_WIDTH);
    ndp_buf_addch(out, ' ');
    ndp_report_md_prose(out, f->category, NDP_MD_VALUE_WIDTH);
    ndp_buf_adds(out, "](");
    ndp_rules_docs_url(out, f->category);
    ndp_buf_addch(out, ')');
    if (rule && rule->source)
        ndp_buf_addf(out, " ([source](%s))", rule->source);
}

/* "`resource`: `path` `before` → `after`", what changes, when known. */
static void add_change(struct ndp_buf *out, const struct ndp_finding *f)
{
    bool values = strcmp(f->before, "null") != 0 ||
                  strcmp(f->after, "null") != 0;

    if (strcmp(f->resource, f->cluster) != 0) {
        ndp_report_md_code_span(out, f->resource, NDP_MD_NAME_WIDTH, false);
        ndp_buf_adds(out, *f->path ? " " : "");
    }
    if (!*f->path)
        return;
    ndp_report_md_code_span(out, f->path, NDP_MD_NAME_WIDTH, false);
    if (!values)
        return;
    ndp_buf_addch(out, ' ');
    ndp_report_md_code_span(out, f->before, NDP_MD_VALUE_WIDTH, false);
    ndp_buf_adds(out, " " NDP_ARROW " ");
    ndp_report_md_code_span(out, f->after, NDP_MD_VALUE_WIDTH, false);
}

void ndp_report_md_finding(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f)
{
    ndp_buf_addf(out, "- **%s** %s" MIDDLE_DOT,
                 ndp_severity_name(f->severity), ndp_verdict_name(f->verdict));
    add_rule_links(out, r, f);
    if (*f->path || strcmp(f->resource, f->cluster) != 0) {
        ndp_buf_adds(out, MIDDLE_DOT);
        add_change(out, f);
    }
    ndp_buf_adds(out, "\\\n  ");
    ndp_report_md_prose(out, f->message ? f->message : "",
                        NDP_MD_PROSE_WIDTH);
    if (f->help) {
        ndp_buf_adds(out, ". **What to do:** ");
        ndp_report_md_prose(out, f->help, NDP_MD_PROSE_WIDTH);
    }
    ndp_buf_addch(out, '\n');
}

void ndp_report_md_waived(struct ndp_buf *out, const struct ndp_finding *f)
{
    ndp_buf_addf(out, "- %s %s ", ndp_severity_name(f->severity), f->rule_id);
    ndp_report_md_prose(out, f->category, 0);
    ndp_buf_adds(out, ": ");
    if (*f->path) {
        ndp_report_md_code_span(out, f->path, NDP_MD_NAME_WIDTH, false);
        ndp_buf_adds(out, " in ");
    }
    ndp_report_md_code_span(out, f->resource, NDP_MD_NAME_WIDTH, false);
    ndp_buf_adds(out, ", ");
    ndp_report_md_prose(out, f->suppression, 0);
    ndp_buf_addch(out, '\n');
}
