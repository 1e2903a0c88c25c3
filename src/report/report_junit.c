/*
 * SPDX-License-Identifier: Apache-2.0
 * report_junit.c - JUnit XML for CI servers that read test reports
 * (Jenkins, GitLab, Azure DevOps): a testsuite per input, a testcase per
 * finding (classname: the cluster), failing when the finding is at or
 * above --fail-on and passing, with the finding in system-out, when it is
 * below; a cluster without findings, and an input without clusters, is one
 * passing testcase, so a clean run still reports what was checked.  A
 * waived finding is a skipped testcase whose message is the waiver and its
 * reason, and the findings a --baseline left out are one skipped testcase
 * in the first suite, so every reader shows that something was set aside.
 *
 * Only the attributes every one of those readers accepts are written
 * (tests/junit/junit.xsd is the schema the output is checked against).
 * Text from the input is escaped for XML, and characters XML 1.0 cannot
 * carry (control characters) are shown as \xNN; whatever else XML refuses
 * (invalid UTF-8, and any such character this file failed to catch)
 * becomes U+FFFD as the report is rendered (NDP_UTF8_XML, safe.h).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_util.h"
#include "safe.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "evaluate.h"
#include "linker.h"
#include "timeutil.h"

/* Appends 's' escaped for XML (attribute or element content alike). */
static void xml(struct ndp_buf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p; p++) {
        switch (*p) {
        case '&': ndp_buf_adds(out, "&amp;"); break;
        case '<': ndp_buf_adds(out, "&lt;"); break;
        case '>': ndp_buf_adds(out, "&gt;"); break;
        case '"': ndp_buf_adds(out, "&quot;"); break;
        case '\'': ndp_buf_adds(out, "&apos;"); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                ndp_buf_addf(out, "\\x%02x", *p);
            else if (*p == 0xef && p[1] == 0xbf && (p[2] == 0xbe ||
                                                    p[2] == 0xbf))
                ndp_buf_addf(out, "\\xef\\xbf\\x%02x", *(p += 2));
            else
                ndp_buf_addch(out, (char)*p);
        }
    }
}

static bool failing(const struct ndp_report *r, const struct ndp_finding *f)
{
    return r->options.fail_on != NDP_SEVERITY_NEVER &&
           (int)f->severity <= r->options.fail_on;
}

struct suite_counts {
    size_t tests, failures, skipped;
};

/* The baseline's skipped testcase goes in the first input's suite. */
static bool holds_baseline(const struct ndp_report *r, const char *path)
{
    return r->result->baseline_known && r->result->set.nr_inputs &&
           strcmp(r->result->set.inputs[0].path, path) == 0;
}

/* Tests in input 'path': one per finding, one per clean cluster, and one
 * when the input has no cluster at all. */
static struct suite_counts count_suite(const struct ndp_report *r,
                                       const char *path)
{
    struct suite_counts n = { 0, 0, 0 };
    size_t i, j, clusters = 0;

    for (i = 0; i < r->result->clusters.nr; i++) {
        const struct ndp_cluster *c = &r->result->clusters.items[i];
        size_t found = 0;
        if (strcmp(c->input, path) != 0)
            continue;
        clusters++;
        for (j = 0; j < r->result->findings.nr; j++) {
            const struct ndp_finding *f = &r->result->findings.items[j];
            if (strcmp(f->input, path) == 0 &&
                strcmp(f->cluster, c->id) == 0) {
                found++;
                n.failures += !f->suppression && failing(r, f);
                n.skipped += f->suppression != NULL;
            }
        }
        n.tests += found ? found : 1;
    }
    n.tests += clusters ? 0 : 1;
    if (holds_baseline(r, path)) {
        n.tests++;
        n.skipped++;
    }
    return n;
}

/* The failure or output text: where, what, and why, one line each. */
static void write_body(struct ndp_buf *out, const struct ndp_report *r,
                       const struct ndp_finding *f)
{
    struct ndp_buf text = NDP_BUF_INIT;
    long line;

    ndp_report_location(&text, &line, r, f);
    if (line > 0)
        ndp_buf_addf(&text, ":%ld", line);
    xml(out, text.buf);
    ndp_buf_addf(out, "\n%s %s ", ndp_severity_name(f->severity),
                 f->rule_id);
    xml(out, f->category);
    ndp_buf_addf(out, " (%s)\n", ndp_scope_name(f->scope));
    ndp_buf_reset(&text);
    ndp_report_describe(&text, f, NDP_ARROW);
    xml(out, text.buf);
    ndp_buf_addch(out, '\n');
    xml(out, f->message ? f->message : "");
    ndp_buf_addch(out, '\n');
    if (f->help) {
        ndp_buf_adds(out, "What to do: ");
        xml(out, f->help);
        ndp_buf_addch(out, '\n');
    }
    ndp_buf_release(&text);
}

static void write_case_open(struct ndp_buf *out, const char *classname,
                            const char *name)
{
    ndp_buf_adds(out, "    <testcase classname=\"");
    xml(out, classname);
    ndp_buf_adds(out, "\" name=\"");
    xml(out, name);
    ndp_buf_adds(out, "\" time=\"0\"");
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_finding *f)
{
    struct ndp_buf name = NDP_BUF_INIT;

    ndp_buf_addf(&name, "%s %s: %s%s%s", f->rule_id, f->category, f->resource,
                 *f->path ? " " : "", f->path);
    write_case_open(out, f->cluster, name.buf);
    ndp_buf_reset(&name);
    ndp_report_describe(&name, f, NDP_ARROW);
    if (f->suppression) {
        ndp_buf_adds(out, ">\n      <skipped type=\"waived\" message=\"");
        xml(out, f->suppression);
        ndp_buf_adds(out, "\">");
        write_body(out, r, f);
        ndp_buf_adds(out, "</skipped>\n    </testcase>\n");
    } else if (failing(r, f)) {
        ndp_buf_addf(out, ">\n      <failure type=\"%s\" message=\"",
                     ndp_verdict_name(f->verdict));
        xml(out, name.buf);
        ndp_buf_adds(out, "\">");
        write_body(out, r, f);
        ndp_buf_adds(out, "</failure>\n    </testcase>\n");
    } else {
        ndp_buf_adds(out, ">\n      <system-out>");
        write_body(out, r, f);
        ndp_buf_addf(out,
                     "(below --fail-on %s)</system-out>\n"
                     "    </testcase>\n",
                     ndp_severity_name((enum ndp_severity)r->options.fail_on));
    }
    ndp_buf_release(&name);
}

static void write_clean_cluster(struct ndp_buf *out,
                                const struct ndp_cluster *c,
                                const struct ndp_resolution *res)
{
    struct ndp_buf name = NDP_BUF_INIT;

    ndp_buf_addf(&name, "no reimaging change (profile %s)",
                 ndp_profile_name(res->profile));
    write_case_open(out, c->id, name.buf);
    ndp_buf_adds(out, "/>\n");
    ndp_buf_release(&name);
}

static void write_baseline_case(struct ndp_buf *out,
                                const struct ndp_report *r)
{
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_buf_addf(&text, "%zu finding%s known from the baseline",
                 r->result->baseline_known,
                 r->result->baseline_known == 1 ? "" : "s");
    write_case_open(out, "ndplint", text.buf);
    ndp_buf_reset(&text);
    ndp_buf_addf(&text, "listed in the baseline '%s', so not reported",
                 r->options.baseline);
    ndp_buf_adds(out, ">\n      <skipped type=\"baseline\" message=\"");
    xml(out, text.buf);
    ndp_buf_adds(out, "\"/>\n    </testcase>\n");
    ndp_buf_release(&text);
}

static void write_properties(struct ndp_buf *out, const struct ndp_report *r,
                             const struct ndp_input_info *in)
{
    ndp_buf_adds(out, "    <properties>\n      <property name=\"ndplint\" "
                      "value=\"" NDP_VERSION "\"/>\n      <property "
                      "name=\"input_format\" value=\"");
    xml(out, in->format);
    ndp_buf_adds(out, "\"/>\n      <property name=\"evaluated_at\" value=\"");
    ndp_time_format_utc(out, r->result->at);
    /* --at next-window: each cluster's own instant, in its testcases'
     * messages; the run's instant above is where the search began. */
    if (r->result->next_window)
        ndp_buf_adds(out, "\"/>\n      <property name=\"at\" "
                          "value=\"next-window");
    ndp_buf_addf(out,
                 "\"/>\n      <property name=\"fail_on\" value=\"%s\"/>"
                 "\n    </properties>\n",
                 ndp_severity_name((enum ndp_severity)r->options.fail_on));
}

static void write_suite(struct ndp_buf *out, const struct ndp_report *r,
                        const struct ndp_input_info *in)
{
    struct suite_counts n = count_suite(r, in->path);
    size_t i, j, clusters = 0;

    ndp_buf_adds(out, "  <testsuite name=\"");
    xml(out, in->path);
    ndp_buf_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                 "skipped=\"%zu\" time=\"0\">\n", n.tests, n.failures,
                 n.skipped);
    write_properties(out, r, in);
    for (i = 0; i < r->result->clusters.nr; i++) {
        const struct ndp_cluster *c = &r->result->clusters.items[i];
        size_t found = 0;
        if (strcmp(c->input, in->path) != 0)
            continue;
        clusters++;
        for (j = 0; j < r->result->findings.nr; j++) {
            const struct ndp_finding *f = &r->result->findings.items[j];
            if (strcmp(f->input, in->path) == 0 &&
                strcmp(f->cluster, c->id) == 0) {
                write_finding(out, r, f);
                found++;
            }
        }
        if (!found)
            write_clean_cluster(out, c, &r->result->resolved.items[i]);
    }
    if (!clusters)
        ndp_buf_adds(out, "    <testcase classname=\"ndplint\" name=\"no AKS "
                          "cluster, node pool or maintenance configuration\" "
                          "time=\"0\"/>\n");
    if (holds_baseline(r, in->path))
        write_baseline_case(out, r);
    ndp_buf_adds(out, "  </testsuite>\n");
}

static void write_junit(struct ndp_buf *out, const struct ndp_report *r)
{
    struct suite_counts total = { 0, 0, 0 };
    size_t i;

    for (i = 0; i < r->result->set.nr_inputs; i++) {
        struct suite_counts n = count_suite(r, r->result->set.inputs[i].path);
        total.tests += n.tests;
        total.failures += n.failures;
    }
    ndp_buf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<testsuites name=\"ndplint\" tests=\"%zu\" failures=\"%zu\" "
                 "errors=\"0\" time=\"0\">\n", total.tests, total.failures);
    for (i = 0; i < r->result->set.nr_inputs; i++)
        write_suite(out, r, &r->result->set.inputs[i]);
    ndp_buf_adds(out, "</testsuites>\n");
}

const struct ndp_reporter ndp_report_junit = {
    "junit", write_junit, NDP_UTF8_XML, NDP_CMDS_NONE, &ndp_defuse_xml
};
