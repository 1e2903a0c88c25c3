/*
 * SPDX-License-Identifier: Apache-2.0
 * report.c - the table of reporters and what they share.
 */
#include "common.h"
#include "report.h"
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
}

const char *ndp_reporter_name(size_t i)
{
    return i < NDP_ARRAY_SIZE(reporters) - 1 ? reporters[i]->name : NULL;
}

void ndp_report_count(struct ndp_report *report)
{
    size_t i;

    report->errors = report->warnings = report->notes = 0;
    report->suppressed = 0;
    for (i = 0; i < report->findings->nr; i++) {
        if (report->findings->items[i].suppression) {
            report->suppressed++;
            continue;
        }
        switch (report->findings->items[i].severity) {
        case NDP_SEVERITY_ERROR: report->errors++; break;
        case NDP_SEVERITY_WARNING: report->warnings++; break;
        default: report->notes++; break;
        }
    }
}
