/*
 * SPDX-License-Identifier: Apache-2.0
 * report_gitlab.c - the GitLab Code Quality report: a JSON array with one
 * object per unwaived finding (description, check_name, fingerprint,
 * severity, location.path, location.lines.begin), the artifact a job hands
 * to GitLab with 'artifacts: reports: codequality:'.  Waived findings and
 * those a --baseline left out are not listed: GitLab shows every entry as
 * an issue.
 *
 * Severities: error is "critical", warning "major", note "info"
 * (docs/formats.md).  The fingerprint is the baseline's, so GitLab matches
 * a finding across pipelines as --baseline does.  The location is the one
 * every CI format points at (ndp_report_location); standard input, which
 * has no file, is given as path "-", and a finding without a known line
 * points at line 1 (GitLab requires a line).
 *
 * Input text (the resource, cluster and path names, values, messages and
 * the input's path) reaches 'description' and 'location.path' only through
 * ndp_buf_add_json_string, as in the json report: quotes, backslashes and
 * control characters are escaped, and ndp_report_render repairs invalid
 * UTF-8.  Values marked sensitive arrive already redacted.
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_util.h"
#include "buf.h"
#include "safe.h"
#include "finding.h"

static const char *const severities[] = {
    [NDP_SEVERITY_ERROR] = "critical",
    [NDP_SEVERITY_WARNING] = "major",
    [NDP_SEVERITY_NOTE] = "info",
    [NDP_SEVERITY_NEVER] = "info",
};

static void write_location(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f)
{
    struct ndp_buf file = NDP_BUF_INIT;
    long line = 0;

    ndp_buf_adds(out, "    \"location\": {\"path\": ");
    if (ndp_report_location(&file, &line, r, f) < 0)
        ndp_buf_adds(out, "\"-\"");
    else
        ndp_buf_add_json_string(out, file.buf);
    ndp_buf_addf(out, ", \"lines\": {\"begin\": %ld}}\n", line > 0 ? line : 1);
    ndp_buf_release(&file);
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_report_describe_all(&text, f, NDP_ARROW);
    ndp_buf_adds(out, "  {\n    \"description\": ");
    ndp_buf_add_json_string(out, text.buf);
    ndp_buf_adds(out, ",\n    \"check_name\": ");
    ndp_buf_add_json_string(out, f->rule_id);
    ndp_buf_adds(out, ",\n    \"fingerprint\": \"");
    ndp_finding_fingerprint(out, f);
    ndp_buf_addf(out, "\",\n    \"severity\": \"%s\",\n",
                 severities[f->severity]);
    write_location(out, r, f);
    ndp_buf_adds(out, "  }");
    ndp_buf_release(&text);
}

static void write_gitlab(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t i, n = 0;

    ndp_buf_addch(out, '[');
    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];

        if (f->suppression)
            continue;
        ndp_buf_adds(out, n++ ? ",\n" : "\n");
        write_finding(out, r, f);
    }
    ndp_buf_adds(out, n ? "\n]\n" : "]\n");
}

const struct ndp_reporter ndp_report_gitlab = {
    "gitlab", write_gitlab, 0, NDP_CMDS_NONE, &ndp_defuse_json
};
