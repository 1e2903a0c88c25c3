/*
 * SPDX-License-Identifier: Apache-2.0
 * report_azure.c - Azure Pipelines logging commands: a
 * "##vso[task.logissue]" per unwaived error or warning, pointing at the
 * line of the resource in the input (relative to --source-root), a plain
 * "ndplint: note: " log line per note (Azure has only the issue types
 * error and warning, and a note is neither), then the summary line and
 * "##vso[task.complete]" with the result of the step: Failed when a
 * finding reaches --fail-on, SucceededWithIssues when there are findings
 * below it, Succeeded otherwise.  Waived findings and those a --baseline
 * left out are counted in the summary line only.
 *
 * Threat model: input text (file paths, addresses, values, waiver-free
 * messages) reaches the sourcepath property and the message.  It is
 * escaped as azure-pipelines-task-lib escapes them: '%' as "%AZP25", CR as
 * "%0D", LF as "%0A", and in properties also ';' as "%3B" and ']' as
 * "%5D"; other control characters are shown as \xNN.  The agent honours
 * "##vso[" anywhere in a line, and "##[" formatting commands, so "##" from
 * the input is written "#%23" (and rendering holds the report to safe.h's
 * command rule, which also catches "#" and "#" split by ignorable
 * characters).  Input text never starts a line; the commands come from
 * safe.h's list.
 */
#include "common.h"
#include "report_azure.h"
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

void ndp_report_azure_escape(struct ndp_buf *out, const char *s,
                             bool property)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p; p++) {
        if (*p == '%')
            ndp_buf_adds(out, "%AZP25");
        else if (*p == '\r')
            ndp_buf_adds(out, "%0D");
        else if (*p == '\n')
            ndp_buf_adds(out, "%0A");
        else if (property && *p == ';')
            ndp_buf_adds(out, "%3B");
        else if (property && *p == ']')
            ndp_buf_adds(out, "%5D");
        else if (*p == '#' && p[1] == '#') {
            ndp_buf_adds(out, "#%23");
            p++;
        } else if (*p < 0x20 || *p == 0x7f)
            ndp_buf_addf(out, "\\x%02x", *p);
        else
            ndp_buf_addch(out, (char)*p);
    }
}

static void data(struct ndp_buf *out, const char *s)
{
    ndp_report_azure_escape(out, s, false);
}

/* The finding's message: "NDP101 (category): " and its description. */
static void write_message(struct ndp_buf *out, const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_buf_addf(&text, "%s (%s): ", f->rule_id, f->category);
    ndp_report_describe_all(&text, f, NDP_ARROW);
    data(out, text.buf);
    ndp_buf_release(&text);
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;
    long line;

    ndp_log_command_start(out, NDP_CMD_AZURE_LOGISSUE);
    ndp_buf_addf(out, "type=%s;",
                 f->severity == NDP_SEVERITY_ERROR ? "error" : "warning");
    if (ndp_report_location(&text, &line, r, f) >= 0) {
        ndp_buf_adds(out, "sourcepath=");
        ndp_report_azure_escape(out, text.buf, true);
        ndp_buf_addch(out, ';');
        if (line > 0)
            ndp_buf_addf(out, "linenumber=%ld;", line);
    }
    ndp_buf_adds(out, "code=");
    ndp_report_azure_escape(out, f->rule_id, true);
    ndp_buf_adds(out, "]ndplint ");
    write_message(out, f);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&text);
}

/* A note: a plain log line, not an issue on the run's summary page. */
static void write_note(struct ndp_buf *out, const struct ndp_report *r,
                       const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;
    long line;

    ndp_buf_adds(out, "ndplint: note: ");
    if (ndp_report_location(&text, &line, r, f) >= 0) {
        data(out, text.buf);
        if (line > 0)
            ndp_buf_addf(out, ":%ld", line);
        ndp_buf_adds(out, ": ");
    }
    write_message(out, f);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&text);
}

static void write_azure(struct ndp_buf *out, const struct ndp_report *r)
{
    const char *result = "Succeeded";
    const struct ndp_finding *f;
    size_t i;

    for (i = 0; i < r->result->findings.nr; i++) {
        f = &r->result->findings.items[i];
        if (f->suppression || f->severity >= NDP_SEVERITY_NEVER)
            continue;
        if (f->severity == NDP_SEVERITY_NOTE)
            write_note(out, r, f);
        else
            write_finding(out, r, f);
    }
    ndp_report_log_summary(out, r);
    if (r->result->clusters.nr) {
        ndp_buf_adds(out, "ndplint: ");
        ndp_report_apply_sentence(out, r, data);
        ndp_buf_addch(out, '\n');
    }
    if (ndp_report_failing(r))
        result = "Failed";
    else if (r->counts.errors + r->counts.warnings)
        result = "SucceededWithIssues";
    ndp_log_command_start(out, NDP_CMD_AZURE_COMPLETE);
    ndp_buf_addf(out, "result=%s;]\n", result);
}

const struct ndp_reporter ndp_report_azure = {
    "azure", write_azure, 0, NDP_CMDS_AZURE, &ndp_defuse_percent
};
