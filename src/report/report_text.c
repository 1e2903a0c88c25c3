/*
 * SPDX-License-Identifier: Apache-2.0
 * report_text.c - the default, human report for a CI log or a terminal:
 * findings grouped by input and cluster, one line each with the path,
 * before -> after and the verdict, then a one-line reason; a summary line
 * last.  Text from the input is escaped so that a resource name cannot
 * carry terminal control sequences.  Colour only when asked for (main.c
 * decides: a terminal, and NO_COLOR unset).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "buf.h"
#include "change.h"
#include "evaluate.h"
#include "finding.h"
#include "impact.h"
#include "report_impact.h"
#include "linker.h"
#include "report_apply.h"
#include "report_util.h"
#include "report_window.h"
#include "safe.h"
#include "timeutil.h"

#define MAX_VALUE_WIDTH 72

static const char *const colors[] = {
    [NDP_SEVERITY_ERROR] = "\033[1;31m",
    [NDP_SEVERITY_WARNING] = "\033[33m",
    [NDP_SEVERITY_NOTE] = "\033[36m",
    [NDP_SEVERITY_NEVER] = "",
};

/* Text from the input: the one escaping rule for log lines (safe.h). */
static void add_safe(struct ndp_buf *out, const char *s)
{
    ndp_safe_line(out, s);
}

static void add_value(struct ndp_buf *out, const char *json)
{
    size_t start = out->len;

    add_safe(out, json);
    if (out->len - start > MAX_VALUE_WIDTH) {
        size_t cut = start + MAX_VALUE_WIDTH - 3;
        /* Do not cut a UTF-8 sequence in half. */
        while (cut > start && ((unsigned char)out->buf[cut] & 0xC0) == 0x80)
            cut--;
        ndp_buf_setlen(out, cut);
        ndp_buf_adds(out, "...");
    }
}

static void add_severity(struct ndp_buf *out, const struct ndp_report *r,
                         enum ndp_severity sev)
{
    char word[16];

    snprintf(word, sizeof(word), "%-7s", ndp_severity_name(sev));
    if (r->options.color)
        ndp_buf_addf(out, "%s%s\033[0m", colors[sev], word);
    else
        ndp_buf_adds(out, word);
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_finding *f)
{
    ndp_buf_adds(out, "    ");
    add_severity(out, r, f->severity);
    ndp_buf_addf(out, " %-14s ", ndp_verdict_name(f->verdict));
    if (strcmp(f->resource, f->cluster) != 0) {
        add_safe(out, f->resource);
        ndp_buf_adds(out, *f->path ? ": " : "");
    }
    if (*f->path) {
        add_safe(out, f->path);
        if (strcmp(f->before, "null") != 0 || strcmp(f->after, "null") != 0) {
            ndp_buf_adds(out, ": ");
            add_value(out, f->before);
            ndp_buf_adds(out, " -> ");
            add_value(out, f->after);
        }
    }
    while (out->len && out->buf[out->len - 1] == ' ')
        ndp_buf_setlen(out, out->len - 1);
    ndp_buf_addf(out, "\n                           %s %s: ", f->rule_id,
                 f->category);
    add_safe(out, f->message);
    ndp_buf_addch(out, '\n');
    if (f->help) {
        ndp_buf_adds(out, "                           what to do: ");
        add_safe(out, f->help);
        ndp_buf_addch(out, '\n');
    }
    /* Located in a .tf file or template: where the other formats point. */
    if (f->source_file) {
        struct ndp_buf where = NDP_BUF_INIT;
        long line;

        ndp_report_location(&where, &line, r, f);
        ndp_buf_adds(out, "                           at ");
        add_safe(out, where.buf);
        if (line > 0)
            ndp_buf_addf(out, ":%ld", line);
        ndp_buf_addch(out, '\n');
        ndp_buf_release(&where);
    }
}

/*
 * "; open now" or "; closed now"; with --at, "; open at <instant>" or
 * "; closed at <instant>", so that a report judged at another time does
 * not read as the present; "; open at its next opening" for a cluster
 * --at next-window judged there.  The instant is written as people write --at:
 * without ":00" seconds when it has none (2026-12-06T02:30Z).
 */
static void write_window_state(struct ndp_buf *out, const struct ndp_report *r,
                               const struct ndp_resolution *c, bool open)
{
    ndp_buf_adds(out, open ? "; open " : "; closed ");
    if (c->at != r->result->at) {
        /* --at next-window moved it: the judged line names the instant. */
        ndp_buf_adds(out, "at its next opening");
    } else if (r->options.at_given) {
        size_t start = out->len;

        ndp_buf_adds(out, "at ");
        ndp_time_format_utc(out, r->result->at);
        if (out->len - start > 4 &&
            memcmp(out->buf + out->len - 4, ":00Z", 4) == 0) {
            ndp_buf_setlen(out, out->len - 4);
            ndp_buf_addch(out, 'Z');
        }
    } else {
        ndp_buf_adds(out, "now");
    }
}

static void write_window_line(struct ndp_buf *out, const struct ndp_report *r,
                              const struct ndp_resolution *c)
{
    struct ndp_buf words = NDP_BUF_INIT;

    if (!c->window)
        return;
    ndp_report_window_words(&words, c);
    ndp_buf_adds(out, "    window: ");
    add_safe(out, words.buf);
    ndp_buf_release(&words);
    if (c->window_sensitive) {
        /* Its times would tell its settings. */
        if (c->in_window == 1 || c->in_window == 0)
            write_window_state(out, r, c, c->in_window == 1);
    } else if (c->in_window == 1) {
        write_window_state(out, r, c, true);
        ndp_buf_adds(out, ", closes ");
        ndp_time_format_utc(out, c->window_closes_at);
    } else if (c->in_window == 0 && c->has_next_window) {
        write_window_state(out, r, c, false);
        ndp_buf_adds(out, ", next opens ");
        ndp_report_window_opening(out, c, c->next_window_start);
    }
    ndp_buf_addch(out, '\n');
}

/* "address (aks-prod in rg-platform)": what the cluster is called in Azure. */
static void write_cluster_name(struct ndp_buf *out,
                               const struct ndp_cluster *cluster)
{
    struct ndp_buf names = NDP_BUF_INIT;

    add_safe(out, cluster->id);
    ndp_report_cluster_names(&names, cluster);
    if (names.len) {
        ndp_buf_adds(out, " (");
        add_safe(out, names.buf);
        ndp_buf_addch(out, ')');
    }
    ndp_buf_release(&names);
}

/* --at next-window: the instant this cluster was judged at. */
static void write_judged_line(struct ndp_buf *out, const struct ndp_report *r,
                              size_t index)
{
    if (!r->result->next_window)
        return;
    ndp_buf_adds(out, "    judged at: ");
    ndp_report_cluster_judged(out, r, index);
    ndp_buf_addch(out, '\n');
}

static void write_cluster_header(struct ndp_buf *out,
                                 const struct ndp_report *r, size_t index)
{
    const struct ndp_cluster *cluster = &r->result->clusters.items[index];
    const struct ndp_resolution *c = &r->result->resolved.items[index];

    ndp_buf_adds(out, "  ");
    write_cluster_name(out, cluster);
    ndp_buf_addf(out, "  [profile %s, %s]\n", ndp_profile_name(c->profile),
                 ndp_report_profile_source_words(c->profile_source));
    if (c->profile_note) {
        ndp_buf_adds(out, "    note: ");
        add_safe(out, c->profile_note);
        ndp_buf_addch(out, '\n');
    }
    write_window_line(out, r, c);
    write_judged_line(out, r, index);
}

static void write_impact_line(struct ndp_buf *out,
                              const struct ndp_impact *impact)
{
    struct ndp_buf words = NDP_BUF_INIT;

    if (!impact->rebuilds)
        return;
    ndp_report_impact_words(&words, impact);
    ndp_buf_adds(out, "    impact: ");
    add_safe(out, words.buf);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&words);
}

/* The extra nodes of the whole apply, when more than one cluster rebuilds. */
static void write_plan_impact(struct ndp_buf *out, const struct ndp_report *r)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_report_plan_extra_words(&words, &r->result->impacts);
    if (words.len) {
        ndp_buf_adds(out, "impact of this apply: ");
        add_safe(out, words.buf);
        ndp_buf_addch(out, '\n');
    }
    ndp_buf_release(&words);
}

static void write_cluster(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_report_by_cluster *g, size_t index)
{
    size_t i;

    write_cluster_header(out, r, index);
    for (i = g->start[index]; i < g->start[index + 1]; i++) {
        const struct ndp_finding *f = &r->result->findings.items[g->order[i]];
        if (f->suppression && !r->options.show_suppressed)
            continue;
        write_finding(out, r, f);
        if (f->suppression) {
            ndp_buf_adds(out, "                           (");
            add_safe(out, f->suppression);
            ndp_buf_adds(out, ")\n");
        }
    }
    if (g->start[index] == g->start[index + 1])
        ndp_buf_adds(out, "    no reimaging change\n");
    write_impact_line(out, &r->result->impacts.items[index]);
}

/*
 * The last line: PASS or FAIL first (FAIL exactly when a finding reaches
 * --fail-on, that is when ndplint exits 1), the counts, and the instant
 * the windows were judged at.
 */
static void write_summary(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t resources = 0, i;

    for (i = 0; i < r->result->set.nr_inputs; i++)
        resources += r->result->set.inputs[i].resources_seen;
    ndp_buf_adds(out, ndp_report_failing(r) ? "FAIL " : "PASS ");
    if (r->result->clusters.nr == 0) {
        ndp_buf_addf(out,
                     "ndplint: no AKS cluster, node pool or maintenance "
                     "configuration in %zu input%s (%zu resource%s read): "
                     "nothing to judge\n",
                     r->result->set.nr_inputs,
                     r->result->set.nr_inputs == 1 ? "" : "s", resources,
                     resources == 1 ? "" : "s");
        return;
    }
    ndp_buf_addf(out,
                 "ndplint: %d error%s, %d warning%s, %d note%s in %zu "
                 "cluster%s (%zu input%s, %zu resource%s read)",
                 r->counts.errors, r->counts.errors == 1 ? "" : "s",
                 r->counts.warnings, r->counts.warnings == 1 ? "" : "s",
                 r->counts.notes, r->counts.notes == 1 ? "" : "s",
                 r->result->clusters.nr, r->result->clusters.nr == 1 ? "" : "s",
                 r->result->set.nr_inputs,
                 r->result->set.nr_inputs == 1 ? "" : "s", resources,
                 resources == 1 ? "" : "s");
    if (r->counts.suppressed)
        ndp_buf_addf(out, "; %d waived%s", r->counts.suppressed,
                     r->options.show_suppressed ? ""
                                                : " (--show-suppressed lists "
                                                  "them)");
    if (r->result->baseline_known)
        ndp_buf_addf(out, "; %zu known from the baseline (not listed)",
                     r->result->baseline_known);
    ndp_buf_adds(out, "; ");
    ndp_report_add_judged(out, r);
    ndp_buf_addch(out, '\n');
}

/*
 * --quiet: the findings at or above --fail-on under a line naming their
 * cluster (and its input when there are several), then the summary line.
 */
static void write_quiet(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t i, last = (size_t)-1;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];

        if (f->suppression || r->options.fail_on == NDP_SEVERITY_NEVER ||
            (int)f->severity > r->options.fail_on)
            continue;
        if (f->cluster_index != last) {
            const struct ndp_cluster *c =
                &r->result->clusters.items[f->cluster_index];

            ndp_buf_adds(out, "  ");
            write_cluster_name(out, c);
            if (r->result->set.nr_inputs > 1) {
                ndp_buf_adds(out, " (");
                add_safe(out, c->input);
                ndp_buf_addch(out, ')');
            }
            ndp_buf_addch(out, '\n');
            last = f->cluster_index;
        }
        write_finding(out, r, f);
    }
    write_summary(out, r);
}

static void write_text(struct ndp_buf *out, const struct ndp_report *r)
{
    struct ndp_report_by_cluster g;
    size_t i, j;

    if (r->options.quiet) {
        write_quiet(out, r);
        return;
    }
    ndp_report_group_by_cluster(&g, r);
    for (i = 0; i < r->result->set.nr_inputs; i++) {
        const char *input = r->result->set.inputs[i].path;
        bool any = false;

        for (j = 0; j < r->result->clusters.nr; j++) {
            if (strcmp(r->result->clusters.items[j].input, input) != 0)
                continue;
            if (!any) {
                add_safe(out, input);
                ndp_buf_addch(out, '\n');
                any = true;
            }
            write_cluster(out, r, &g, j);
        }
    }
    ndp_report_by_cluster_release(&g);
    write_plan_impact(out, r);
    write_summary(out, r);
    if (r->result->clusters.nr) {
        ndp_report_apply_sentence(out, r, add_safe);
        ndp_buf_addch(out, '\n');
    }
}

const struct ndp_reporter ndp_report_text = {
    "text", write_text, 0, NDP_CMDS_NONE, &ndp_defuse_text
};
