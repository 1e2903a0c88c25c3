/*
 * SPDX-License-Identifier: Apache-2.0
 * report_markdown.c - the Markdown report, for a reviewer in a hurry:
 * '--format markdown' writes it for a pull request comment, '--format
 * github' appends it to GITHUB_STEP_SUMMARY.  Top to bottom:
 *
 *   1. the verdict in words, in the first line: how many changes AKS will
 *      refuse if applied at the evaluation instant (always named), and
 *      when the plan can go through (report_apply.h's answer);
 *   2. whether it fails --fail-on, the counts, waived and baseline
 *      findings, the inputs;
 *   3. one row per cluster in a narrow table (report_markdown_cluster.c);
 *   4. each cluster's detail in a collapsed <details>, its findings as
 *      short lines, errors, then warnings, then notes, then the waived;
 *   5. what was left out, the impact of the whole apply, and the closing
 *      advice: the sentence "when can this apply?" naming the clusters.
 *
 * Clusters come in the order of their most severe finding (errors
 * first), in the table and below it.
 *
 * Every part counts against the size budget (GitHub's limits: 65,536
 * characters for a comment, 1 MiB for a step summary).  The verdict, the
 * table and the closing advice are always there (a name in a cell is cut
 * to NDP_MD_CELL_WIDTH bytes, and the closing sentence names as many
 * clusters as fit); the detail is cut first: a cluster whose detail or a
 * finding whose line would pass the budget is left out and counted, and
 * the report says so.  Text from the input never becomes Markdown
 * (report_markdown_escape.c).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_markdown.h"
#include "report_util.h"
#include "buf.h"
#include "finding.h"
#include "impact.h"
#include "linker.h"
#include "report_apply.h"
#include "report_impact.h"
#include "safe.h"
#include "timeutil.h"

#define COMMENT_BUDGET 60000     /* GitHub comments: 65,536 characters */
#define TRAILER_RESERVE 1024     /* room for the "left out" note, the
                                    impact of the apply and the closing
                                    sentence with no name */
#define DETAILS_END "</details>\n\n"
#define NO_CHANGE "No reimaging change.\n\n"

static const char *const group_titles[] = { "Errors", "Warnings", "Notes" };

/* What the budget left out, for the closing note. */
struct left_out {
    size_t rows, details, findings;
};

/*
 * Holds 'b' from byte 'from' (which starts a line) to the command rule as
 * rendering will (safe.h), so that a size budget counts what is written.
 */
static void md_defuse(struct ndp_buf *b, size_t from)
{
    ndp_safe_lines(b, from, ndp_report_markdown.commands,
                   ndp_report_markdown.defuse);
}

static size_t total_refused(const struct ndp_md_counts *counts, size_t nr)
{
    size_t i, n = 0;

    for (i = 0; i < nr; i++)
        n += counts[i].refused;
    return n;
}

/* Lower-cases the first letter of 'b' from 'from' on (ASCII). */
static void lower_first(struct ndp_buf *b, size_t from)
{
    if (b->len > from && b->buf[from] >= 'A' && b->buf[from] <= 'Z')
        b->buf[from] = (char)(b->buf[from] - 'A' + 'a');
}

/* The "rg/name" of an ARM id "/subscriptions/.../resourceGroups/rg/
 * providers/.../name", into 'out'; false when 's' is not one. */
static bool arm_short_name(struct ndp_buf *out, const char *s)
{
    static const char marker[] = "/resourcegroups/";
    const char *rg = NULL, *end, *name = strrchr(s, '/'), *p;

    if (ndp_strncasecmp(s, "/subscriptions/", 15) != 0)
        return false;
    for (p = s; *p && !rg; p++)
        if (ndp_strncasecmp(p, marker, sizeof(marker) - 1) == 0)
            rg = p + sizeof(marker) - 1;
    end = rg ? strchr(rg, '/') : NULL;
    if (!end || end == rg || ndp_strncasecmp(end, "/providers/", 11) != 0 ||
        !name[1])
        return false;
    ndp_buf_add(out, rg, (size_t)(end - rg));
    ndp_buf_adds(out, name);
    return true;
}

/* A cluster in a sentence: a code span, never cut; an ARM id as
 * "rg/name" (the detail gives it whole). */
static void md_name(struct ndp_buf *out, const char *s)
{
    struct ndp_buf name = NDP_BUF_INIT;

    ndp_report_md_code_span(out, arm_short_name(&name, s) ? name.buf : s, 0,
                            false);
    ndp_buf_release(&name);
}

/*
 * The first line: "### ndplint: 2 changes AKS will refuse if applied at
 * 2026-12-05T12:00:00Z; apply between ... (Sat 20:00–24:00 UTC-05:00)".
 * It names no cluster, so its length does not depend on the input.
 */
static void write_verdict(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_md_counts *counts)
{
    size_t refused = total_refused(counts, r->result->clusters.nr), start;

    ndp_buf_adds(out, "### ndplint: ");
    if (r->result->clusters.nr == 0) {
        ndp_buf_adds(out, "no AKS cluster, node pool or maintenance "
                          "configuration in the input, nothing to judge at ");
        ndp_time_format_utc(out, r->result->at);
        ndp_buf_adds(out, "\n\n");
        return;
    }
    /* What a baseline lists is left out: the line speaks of the rest. */
    if (refused)
        ndp_buf_addf(out, "%zu %schange%s AKS will refuse", refused,
                     r->result->baseline_known ? "new " : "",
                     refused == 1 ? "" : "s");
    else
        ndp_buf_addf(out, "no %schange AKS will refuse",
                     r->result->baseline_known ? "new " : "");
    ndp_buf_adds(out, " if applied at ");
    if (r->result->next_window)
        ndp_buf_adds(out, "the next window of each cluster (from ");
    ndp_time_format_utc(out, r->result->at);
    if (r->result->next_window)
        ndp_buf_addch(out, ')');
    if (ndp_report_apply_now(r)) {
        ndp_buf_adds(out, r->result->baseline_known
                              ? "; apply now, as far as the new findings go"
                                "\n\n"
                              : "; apply now\n\n");
        return;
    }
    ndp_buf_adds(out, "; ");
    start = out->len;
    ndp_report_apply_sentence_names(out, r, md_name, 0);
    lower_first(out, start);
    ndp_buf_adds(out, "\n\n");
}

/* "**Fails**: ..." with the counts, waived and baseline findings. */
static void write_status(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t failing = ndp_report_failing(r);
    const char *fail_on =
        ndp_severity_name((enum ndp_severity)r->options.fail_on);

    if (r->options.fail_on == NDP_SEVERITY_NEVER)
        ndp_buf_adds(out, "**Passes**: `--fail-on never`");
    else if (failing)
        ndp_buf_addf(out, "**Fails**: %zu finding%s at or above "
                     "`--fail-on %s`", failing, failing == 1 ? "" : "s",
                     fail_on);
    else
        ndp_buf_addf(out, "**Passes**: no finding at or above "
                     "`--fail-on %s`", fail_on);
    ndp_buf_addf(out, " (%d error%s, %d warning%s, %d note%s).",
                 r->counts.errors, r->counts.errors == 1 ? "" : "s",
                 r->counts.warnings, r->counts.warnings == 1 ? "" : "s",
                 r->counts.notes, r->counts.notes == 1 ? "" : "s");
    if (r->counts.suppressed)
        ndp_buf_addf(out, " %d finding%s waived by the settings file (listed "
                     "under %s cluster).", r->counts.suppressed,
                     r->counts.suppressed == 1 ? "" : "s",
                     r->counts.suppressed == 1 ? "its" : "each");
    if (r->result->baseline_known)
        ndp_buf_addf(out, " %zu finding%s known from the baseline (not "
                     "listed).", r->result->baseline_known,
                     r->result->baseline_known == 1 ? "" : "s");
}

/* "Inputs: `a` (terraform-plan), ...", at most 'room' bytes of names. */
static void write_inputs(struct ndp_buf *out, const struct ndp_report *r,
                         size_t room)
{
    size_t i, start = out->len;

    ndp_buf_adds(out, " Inputs:");
    for (i = 0; i < r->result->set.nr_inputs; i++) {
        if (out->len - start > room) {
            ndp_buf_addf(out, ", and %zu more", r->result->set.nr_inputs - i);
            break;
        }
        ndp_buf_adds(out, i ? ", " : " ");
        ndp_report_md_code_span(out, r->result->set.inputs[i].path,
                                NDP_MD_NAME_WIDTH, false);
        ndp_buf_addf(out, " (%s)", r->result->set.inputs[i].format);
    }
    ndp_buf_adds(out, "\n\n");
}

/* The clusters, those with errors first, then warnings, notes, none. */
static size_t *cluster_order(const struct ndp_md_counts *counts, size_t nr)
{
    size_t *order = ndp_xcalloc(nr ? nr : 1, sizeof(*order)), n = 0, i;
    int worst;

    for (worst = 0; worst <= 3; worst++)
        for (i = 0; i < nr; i++)
            if (ndp_report_md_worst(&counts[i]) == worst)
                order[n++] = i;
    return order;
}

/* Appends 'part' (held to the command rule) when it fits in 'budget'. */
static bool add_within(struct ndp_buf *out, struct ndp_buf *part,
                       size_t budget)
{
    md_defuse(part, 0);
    if (out->len + part->len > budget)
        return false;
    ndp_buf_add(out, part->buf, part->len);
    return true;
}

/* The table: every row that fits (a row is a few hundred bytes at most). */
static void write_table(struct ndp_buf *out, const struct ndp_report *r,
                        const struct ndp_md_counts *counts,
                        const size_t *order, size_t budget,
                        struct left_out *lo)
{
    struct ndp_buf row = NDP_BUF_INIT;
    size_t i;

    ndp_report_md_table_head(out);
    for (i = 0; i < r->result->clusters.nr; i++) {
        ndp_buf_reset(&row);
        ndp_report_md_cluster_row(&row, r, order[i], &counts[order[i]]);
        lo->rows += !add_within(out, &row, budget);
    }
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&row);
}

/* Whether finding 'f' goes in group 'group' (0 errors ... 3 waived). */
static bool in_group(const struct ndp_finding *f, int group)
{
    if (group == 3)
        return f->suppression != NULL;
    return !f->suppression && (int)f->severity == group;
}

/*
 * The findings of cluster 'index' in group 'group' that fit in 'budget',
 * under the group's title; returns those left out.
 */
static size_t write_group(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_report_by_cluster *g,
                          size_t index, int group, size_t budget)
{
    struct ndp_buf line = NDP_BUF_INIT;
    size_t i, shown = 0, left = 0;

    for (i = g->start[index]; i < g->start[index + 1]; i++) {
        const struct ndp_finding *f = &r->result->findings.items[g->order[i]];

        if (!in_group(f, group))
            continue;
        ndp_buf_reset(&line);
        if (!shown)
            ndp_buf_addf(&line, "**%s**\n\n",
                         group == 3 ? "Waived" : group_titles[group]);
        if (group == 3)
            ndp_report_md_waived(&line, f);
        else
            ndp_report_md_finding(&line, r, f);
        if (add_within(out, &line, budget))
            shown++;
        else
            left++;
    }
    if (shown)
        ndp_buf_addch(out, '\n');
    ndp_buf_release(&line);
    return left;
}

/* Cluster 'index's collapsed detail, or nothing when its head does not
 * fit; what is left out is counted in 'lo'. */
static void write_detail(struct ndp_buf *out, const struct ndp_report *r,
                         const struct ndp_report_by_cluster *g,
                         const struct ndp_md_counts *c, size_t index,
                         size_t budget, struct left_out *lo)
{
    struct ndp_buf head = NDP_BUF_INIT;
    size_t end = strlen(DETAILS_END) + sizeof(NO_CHANGE);
    size_t room = budget > end ? budget - end : 0, before = out->len;
    size_t left = 0;
    int group;

    ndp_report_md_cluster_detail(&head, r, index, c);
    if (!add_within(out, &head, room)) {
        lo->details++;
        lo->findings += g->start[index + 1] - g->start[index];
        ndp_buf_release(&head);
        return;
    }
    for (group = 0; group <= 3; group++)
        left += write_group(out, r, g, index, group, room);
    lo->findings += left;
    if (left && left == g->start[index + 1] - g->start[index]) {
        ndp_buf_setlen(out, before); /* a head alone says nothing */
        lo->details++;
        ndp_buf_release(&head);
        return;
    }
    if (g->start[index] == g->start[index + 1])
        ndp_buf_adds(out, NO_CHANGE);
    ndp_buf_adds(out, DETAILS_END);
    ndp_buf_release(&head);
}

/* The closing note: what was left out, and why. */
static void write_left_out(struct ndp_buf *out, const struct left_out *lo,
                           size_t budget)
{
    if (!lo->rows && !lo->details && !lo->findings)
        return;
    ndp_buf_adds(out, "_Left out to keep this report under ");
    ndp_buf_addf(out, "%zu bytes:", budget);
    if (lo->rows)
        ndp_buf_addf(out, " %zu row%s of the table;", lo->rows,
                     lo->rows == 1 ? "" : "s");
    if (lo->details)
        ndp_buf_addf(out, " the detail of %zu cluster%s;", lo->details,
                     lo->details == 1 ? "" : "s");
    ndp_buf_addf(out, " %zu finding%s. The text, JSON and SARIF reports list "
                 "every finding._\n\n", lo->findings,
                 lo->findings == 1 ? "" : "s");
}

/* The extra nodes of the whole apply, when more than one cluster rebuilds. */
static void write_plan_impact(struct ndp_buf *out, const struct ndp_report *r)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_report_plan_extra_words(&words, &r->result->impacts);
    if (words.len) {
        ndp_buf_adds(out, "Impact of this apply: ");
        ndp_report_md_prose(out, words.buf, TRAILER_RESERVE / 4);
        ndp_buf_adds(out, "\n\n");
    }
    ndp_buf_release(&words);
}

/* The closing sentence naming at most 'max_names' clusters, as written;
 * returns its length. */
static size_t apply_sentence(struct ndp_buf *sentence,
                             const struct ndp_report *r, size_t max_names)
{
    ndp_buf_reset(sentence);
    ndp_report_apply_sentence_names(sentence, r, md_name, max_names);
    md_defuse(sentence, 0);
    return sentence->len;
}

/*
 * "When can this apply?", last: the whole sentence while it fits in what
 * is left of 'budget', else naming as many clusters as fit and counting
 * the others.  A name is never cut and the advice is always there.
 */
static void write_apply(struct ndp_buf *out, const struct ndp_report *r,
                        size_t budget)
{
    struct ndp_buf sentence = NDP_BUF_INIT;
    size_t lo = 0, hi = r->result->clusters.nr, mid, room;

    if (r->result->clusters.nr == 0)
        return;
    room = budget > out->len + 1 ? budget - out->len - 1 : 0;
    if (apply_sentence(&sentence, r, hi) > room) {
        /* The most names that fit; every cluster is in one list at most. */
        while (lo < hi) {
            mid = lo + (hi - lo + 1) / 2;
            if (apply_sentence(&sentence, r, mid) <= room)
                lo = mid;
            else
                hi = mid - 1;
        }
        apply_sentence(&sentence, r, lo);
    }
    ndp_buf_add(out, sentence.buf, sentence.len);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&sentence);
}

static void write_summary(struct ndp_buf *out, const struct ndp_report *r,
                          size_t total)
{
    size_t nr = r->result->clusters.nr, i, start = out->len;
    size_t budget = total > TRAILER_RESERVE ? total - TRAILER_RESERVE : 0;
    struct ndp_md_counts *counts = ndp_xcalloc(nr ? nr : 1, sizeof(*counts));
    struct left_out lo = { 0, 0, 0 };
    struct ndp_report_by_cluster g;
    size_t *order;

    ndp_report_md_count(counts, r);
    order = cluster_order(counts, nr);
    write_verdict(out, r, counts);
    write_status(out, r);
    write_inputs(out, r, budget / 8);
    md_defuse(out, start);
    if (nr)
        write_table(out, r, counts, order, budget, &lo);
    ndp_report_group_by_cluster(&g, r);
    for (i = 0; i < nr; i++)
        write_detail(out, r, &g, &counts[order[i]], order[i], budget, &lo);
    ndp_report_by_cluster_release(&g);
    write_left_out(out, &lo, total);
    write_plan_impact(out, r);
    write_apply(out, r, total);
    free(order);
    free(counts);
}

void ndp_report_markdown_summary(struct ndp_buf *out,
                                 const struct ndp_report *r, size_t budget)
{
    size_t start = out->len;

    write_summary(out, r, budget);
    ndp_utf8_repair_tail(out, start, 0);
    ndp_safe_lines(out, start, NDP_CMDS_NONE, &ndp_defuse_xml);
}

static void write_markdown(struct ndp_buf *out, const struct ndp_report *r)
{
    write_summary(out, r, COMMENT_BUDGET);
}

const struct ndp_reporter ndp_report_markdown = {
    "markdown", write_markdown, 0, NDP_CMDS_NONE, &ndp_defuse_xml
};
