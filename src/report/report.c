/*
 * SPDX-License-Identifier: Apache-2.0
 * report.c - the table of reporters and what they share.
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "finding.h"
#include "buf.h"
#include "safe.h"

static const struct ndp_reporter *const reporters[] = {
    &ndp_report_text,
    &ndp_report_json,
    &ndp_report_sarif,
    &ndp_report_github,
    &ndp_report_junit,
    &ndp_report_markdown,
    &ndp_report_azure,
    &ndp_report_gitlab,
    NULL
};

const struct ndp_reporter *ndp_reporter_find(const char *name)
{
    size_t i;

    for (i = 0; reporters[i]; i++)
        if (strcmp(reporters[i]->name, name) == 0)
            return reporters[i];
    return NULL;
}

void ndp_report_render(struct ndp_buf *out, const struct ndp_reporter *rep,
                       const struct ndp_report *report)
{
    size_t start = out->len;

    rep->write(out, report);
    ndp_utf8_repair_tail(out, start, rep->utf8_flags);
    ndp_safe_lines(out, start, rep->commands, rep->defuse);
}

const char *ndp_reporter_name(size_t i)
{
    return i < NDP_ARRAY_SIZE(reporters) - 1 ? reporters[i]->name : NULL;
}

void ndp_report_init(struct ndp_report *out, const struct ndp_result *result,
                     const struct ndp_report_options *options)
{
    struct ndp_report_counts *n = &out->counts;
    size_t i;

    memset(out, 0, sizeof(*out));
    out->result = result;
    out->options = *options;
    for (i = 0; i < result->findings.nr; i++) {
        const struct ndp_finding *f = &result->findings.items[i];
        if (f->suppression) {
            n->suppressed++;
            continue;
        }
        switch (f->severity) {
        case NDP_SEVERITY_ERROR: n->errors++; break;
        case NDP_SEVERITY_WARNING: n->warnings++; break;
        default: n->notes++; break;
        }
    }
}
