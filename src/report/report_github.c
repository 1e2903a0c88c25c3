/*
 * SPDX-License-Identifier: Apache-2.0
 * report_github.c - GitHub Actions workflow commands: a log group per
 * cluster, and an '::error', '::warning' or '::notice' annotation per
 * finding, pointing at the line of the resource in the input (relative to
 * --source-root).  main.c appends the Markdown summary to
 * GITHUB_STEP_SUMMARY.
 *
 * GitHub shows at most ANNOTATION_CAP annotations of each level per step
 * and drops the rest without a word.  When a level has more findings, the
 * first ANNOTATION_CAP - 1 are annotated, the others are printed as plain
 * log lines, and the last annotation of that level says how many were left
 * out.  A waived finding is no annotation but a plain log line in its
 * cluster's group, with the waiver; the group title and the summary line
 * count the waived findings and those a --baseline left out.
 *
 * Text from the input is escaped as @actions/toolkit escapes command data
 * ('%', CR, LF) and properties (also ':' and ','); other control
 * characters are shown as \xNN.  Input text never starts a line, and the
 * commands are written from safe.h's list; rendering holds the report to
 * safe.h's command rule, which breaks up "##[" (the runner's legacy
 * command syntax, honoured anywhere in a line, also across ignorable
 * characters) as "#%23[".
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_apply.h"
#include "report_util.h"
#include "buf.h"
#include "safe.h"
#include "change.h"
#include "finding.h"
#include "evaluate.h"
#include "linker.h"
#include "report_window.h"

#define ANNOTATION_CAP 10

/* The annotation of each severity, and its name in words. */
static const enum ndp_log_command commands[] = {
    [NDP_SEVERITY_ERROR] = NDP_CMD_GITHUB_ERROR,
    [NDP_SEVERITY_WARNING] = NDP_CMD_GITHUB_WARNING,
    [NDP_SEVERITY_NOTE] = NDP_CMD_GITHUB_NOTICE,
    [NDP_SEVERITY_NEVER] = NDP_CMD_GITHUB_NOTICE,
};
static const char *const levels[] = {
    [NDP_SEVERITY_ERROR] = "error",
    [NDP_SEVERITY_WARNING] = "warning",
    [NDP_SEVERITY_NOTE] = "notice",
    [NDP_SEVERITY_NEVER] = "notice",
};

struct gh_state {
    size_t total[NDP_SEVERITY_NEVER];   /* findings per severity */
    size_t emitted[NDP_SEVERITY_NEVER]; /* seen so far per severity */
};

static void escape(struct ndp_buf *out, const char *s, bool property)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p; p++) {
        if (*p == '%')
            ndp_buf_adds(out, "%25");
        else if (*p == '\r')
            ndp_buf_adds(out, "%0D");
        else if (*p == '\n')
            ndp_buf_adds(out, "%0A");
        else if (property && *p == ':')
            ndp_buf_adds(out, "%3A");
        else if (property && *p == ',')
            ndp_buf_adds(out, "%2C");
        else if (*p < 0x20 || *p == 0x7f)
            ndp_buf_addf(out, "\\x%02x", *p);
        else
            ndp_buf_addch(out, (char)*p);
    }
}

static void data(struct ndp_buf *out, const char *s)
{
    escape(out, s, false);
}

static void property(struct ndp_buf *out, const char *s)
{
    escape(out, s, true);
}

static void write_properties(struct ndp_buf *out, const struct ndp_report *r,
                             const struct ndp_finding *f)
{
    struct ndp_buf path = NDP_BUF_INIT;
    long line;

    if (ndp_report_location(&path, &line, r, f) >= 0) {
        ndp_buf_adds(out, "file=");
        property(out, path.buf);
        if (line > 0)
            ndp_buf_addf(out, ",line=%ld", line);
        ndp_buf_addch(out, ',');
    }
    ndp_buf_adds(out, "title=");
    ndp_buf_reset(&path);
    ndp_buf_addf(&path, "ndplint %s %s (%s)", f->rule_id,
                 ndp_verdict_name(f->verdict), f->category);
    property(out, path.buf);
    ndp_buf_release(&path);
}

static void write_text(struct ndp_buf *out, const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_report_describe_all(&text, f, NDP_ARROW);
    data(out, text.buf);
    ndp_buf_release(&text);
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          struct gh_state *st, const struct ndp_finding *f)
{
    enum ndp_severity sev = f->severity;
    size_t seen = st->emitted[sev]++;

    if (st->total[sev] > ANNOTATION_CAP && seen >= ANNOTATION_CAP - 1) {
        ndp_buf_addf(out, "ndplint: %s (not annotated: over GitHub's "
                     "per-step cap) %s: ", ndp_severity_name(sev),
                     f->rule_id);
        write_text(out, f);
        ndp_buf_addch(out, '\n');
        return;
    }
    ndp_log_command_start(out, commands[sev]);
    write_properties(out, r, f);
    ndp_buf_adds(out, "::");
    write_text(out, f);
    ndp_buf_addch(out, '\n');
}

static void write_group_title(struct ndp_buf *out,
                              const struct ndp_report *r, size_t index,
                              size_t findings, size_t waived)
{
    const struct ndp_cluster *c = &r->result->clusters.items[index];
    const struct ndp_resolution *res = &r->result->resolved.items[index];
    struct ndp_buf title = NDP_BUF_INIT;

    ndp_buf_addf(&title, "ndplint: %s (%s): profile %s, ", c->id, c->input,
                 ndp_profile_name(res->profile));
    if (findings)
        ndp_buf_addf(&title, "%zu finding%s", findings,
                     findings == 1 ? "" : "s");
    else
        ndp_buf_addf(&title, "no %sreimaging change%s",
                     waived ? "unwaived " : "",
                     r->result->baseline_known ? " outside the baseline" : "");
    if (waived)
        ndp_buf_addf(&title, ", %zu waived", waived);
    ndp_log_command_start(out, NDP_CMD_GITHUB_GROUP);
    data(out, title.buf);
    ndp_buf_addch(out, '\n');
    if (res->window) {
        ndp_buf_reset(&title);
        ndp_report_window_words(&title, res);
        ndp_buf_adds(out, "window: ");
        data(out, title.buf);
        ndp_buf_addch(out, '\n');
    }
    ndp_buf_release(&title);
}

/* A finding of cluster 'c', waived or not. */
static bool of_cluster(const struct ndp_finding *f,
                       const struct ndp_cluster *c)
{
    return strcmp(f->input, c->input) == 0 && strcmp(f->cluster, c->id) == 0;
}

/* A waived finding: a log line, never an annotation. */
static void write_waived(struct ndp_buf *out, const struct ndp_finding *f)
{
    ndp_buf_addf(out, "ndplint: waived %s: ", f->rule_id);
    write_text(out, f);
    ndp_buf_adds(out, " (");
    data(out, f->suppression);
    ndp_buf_adds(out, ")\n");
}

static void write_cluster(struct ndp_buf *out, const struct ndp_report *r,
                          struct gh_state *st, size_t index)
{
    const struct ndp_cluster *c = &r->result->clusters.items[index];
    size_t i, n = 0, waived = 0;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (of_cluster(f, c)) {
            n += !f->suppression;
            waived += f->suppression != NULL;
        }
    }
    write_group_title(out, r, index, n, waived);
    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (of_cluster(f, c) && !f->suppression)
            write_finding(out, r, st, f);
    }
    for (i = 0; waived && i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (of_cluster(f, c) && f->suppression)
            write_waived(out, f);
    }
    ndp_log_command_start(out, NDP_CMD_GITHUB_ENDGROUP);
    ndp_buf_addch(out, '\n');
}

/* The last annotation of each level over the cap: how many were left out. */
static void write_left_out(struct ndp_buf *out, const struct gh_state *st)
{
    int sev;

    for (sev = 0; sev < NDP_SEVERITY_NEVER; sev++) {
        const char *name = ndp_severity_name((enum ndp_severity)sev);
        size_t more;

        if (st->total[sev] <= ANNOTATION_CAP)
            continue;
        more = st->total[sev] - (ANNOTATION_CAP - 1);
        ndp_log_command_start(out, commands[sev]);
        ndp_buf_addf(out, "title=ndplint%%3A %zu more %s%s not "
                     "annotated::GitHub shows at most %d %s annotations per "
                     "step: %d are annotated above; the other %zu are listed "
                     "in this log, the job summary and the SARIF report.\n",
                     more, name, more == 1 ? "" : "s", ANNOTATION_CAP,
                     levels[sev], ANNOTATION_CAP - 1, more);
    }
}

static void write_github(struct ndp_buf *out, const struct ndp_report *r)
{
    struct gh_state st;
    size_t i;

    memset(&st, 0, sizeof(st));
    for (i = 0; i < r->result->findings.nr; i++)
        if (!r->result->findings.items[i].suppression)
            st.total[r->result->findings.items[i].severity]++;
    for (i = 0; i < r->result->clusters.nr; i++)
        write_cluster(out, r, &st, i);
    write_left_out(out, &st);
    ndp_report_log_summary(out, r);
    if (r->result->clusters.nr) {
        ndp_buf_adds(out, "ndplint: ");
        ndp_report_apply_sentence(out, r, data);
        ndp_buf_addch(out, '\n');
    }
}

const struct ndp_reporter ndp_report_github = {
    "github", write_github, 0, NDP_CMDS_GITHUB, &ndp_defuse_percent
};
