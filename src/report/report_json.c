/*
 * SPDX-License-Identifier: Apache-2.0
 * report_json.c - the JSON report, schema_version 2 (docs/formats.md;
 * version 2 added each cluster's evaluated_at and evaluated_at_reason).
 * Every field is always present; findings come sorted, so the output is
 * byte-for-byte reproducible for a fixed --at (or NDPLINT_NOW).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "buf.h"
#include "safe.h"
#include "change.h"
#include "finding.h"
#include "evaluate.h"
#include "impact.h"
#include "report_impact.h"
#include "linker.h"
#include "report_apply.h"
#include "report_util.h"
#include "report_window.h"
#include "timeutil.h"

static void add_string_or_null(struct ndp_buf *out, const char *s)
{
    if (s)
        ndp_buf_add_json_string(out, s);
    else
        ndp_buf_adds(out, "null");
}

static void write_inputs(struct ndp_buf *out, const struct ndp_changeset *set)
{
    size_t i;

    ndp_buf_adds(out, "  \"inputs\": [");
    for (i = 0; i < set->nr_inputs; i++) {
        ndp_buf_adds(out, i ? ",\n    {\"path\": " : "\n    {\"path\": ");
        ndp_buf_add_json_string(out, set->inputs[i].path);
        ndp_buf_adds(out, ", \"format\": ");
        ndp_buf_add_json_string(out, set->inputs[i].format);
        ndp_buf_adds(out, "}");
    }
    ndp_buf_adds(out, set->nr_inputs ? "\n  ],\n" : "],\n");
}

static const char *const judged_names[] = {
    [NDP_JUDGED_GIVEN] = "given",
    [NDP_JUDGED_NEXT_WINDOW] = "next-window",
    [NDP_JUDGED_NO_WINDOW] = "no-window",
    [NDP_JUDGED_NO_OPENING] = "no-opening",
};

/*
 * The instant the cluster was judged at and why there.  An instant that
 * --at next-window took from a sensitive window would tell its settings:
 * "(sensitive)" instead.
 */
static void write_evaluated_at(struct ndp_buf *out,
                               const struct ndp_report *r,
                               const struct ndp_resolution *c)
{
    ndp_buf_adds(out, ",\n      \"evaluated_at\": ");
    if (c->window_sensitive && c->at != r->result->at) {
        ndp_buf_adds(out, "\"(sensitive)\"");
    } else {
        ndp_buf_addch(out, '"');
        ndp_time_format_utc(out, c->at);
        ndp_buf_addch(out, '"');
    }
    ndp_buf_adds(out, ",\n      \"evaluated_at_reason\": ");
    ndp_buf_add_json_string(out, judged_names[c->judged]);
}

static void write_cluster(struct ndp_buf *out, const struct ndp_report *r,
                          size_t index)
{
    const struct ndp_cluster *cluster = &r->result->clusters.items[index];
    const struct ndp_resolution *c = &r->result->resolved.items[index];
    const struct ndp_impact *impact = &r->result->impacts.items[index];

    ndp_buf_adds(out, "{\n      \"id\": ");
    ndp_buf_add_json_string(out, cluster->id);
    ndp_buf_adds(out, ",\n      \"name\": ");
    add_string_or_null(out, cluster->name);
    ndp_buf_adds(out, ",\n      \"resource_group\": ");
    add_string_or_null(out, cluster->resource_group);
    ndp_buf_adds(out, ",\n      \"profile\": ");
    ndp_buf_add_json_string(out, ndp_profile_name(c->profile));
    ndp_buf_adds(out, ",\n      \"profile_source\": ");
    ndp_buf_add_json_string(out, c->profile_source);
    write_evaluated_at(out, r, c);
    ndp_buf_adds(out, ",\n      \"window\": ");
    ndp_report_window_json(out, c);
    ndp_buf_adds(out, ",\n      \"in_window\": ");
    ndp_buf_adds(out, c->in_window < 0 ? "null"
                      : c->in_window ? "true" : "false");
    ndp_buf_adds(out, ",\n      \"next_window_start\": ");
    if (c->in_window >= 0 && c->has_next_window && c->window_sensitive) {
        ndp_buf_adds(out, "\"(sensitive)\"");
    } else if (c->in_window >= 0 && c->has_next_window) {
        ndp_buf_addch(out, '"');
        ndp_time_format_utc(out, c->next_window_start);
        ndp_buf_addch(out, '"');
    } else {
        ndp_buf_adds(out, "null");
    }
    ndp_buf_adds(out, ",\n      \"impact\": ");
    ndp_report_impact_json(out, impact);
    ndp_buf_adds(out, ",\n      \"apply_window\": ");
    ndp_report_apply_json(out, r, index);
    ndp_buf_adds(out, "\n    }");
}

static void write_clusters(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t i, nr = r->result->clusters.nr;

    ndp_buf_adds(out, "  \"clusters\": [");
    for (i = 0; i < nr; i++) {
        ndp_buf_adds(out, i ? ",\n    " : "\n    ");
        write_cluster(out, r, i);
    }
    ndp_buf_adds(out, nr ? "\n  ],\n" : "],\n");
}

static void write_field(struct ndp_buf *out, const char *key, const char *s,
                        bool last)
{
    ndp_buf_addf(out, "      \"%s\": ", key);
    add_string_or_null(out, s);
    ndp_buf_adds(out, last ? "\n" : ",\n");
}

/* "severity_override": {"from", "to", "reason"} or null. */
static void write_override(struct ndp_buf *out, const struct ndp_finding *f)
{
    ndp_buf_adds(out, "      \"severity_override\": ");
    if (!f->override_reason) {
        ndp_buf_adds(out, "null,\n");
        return;
    }
    ndp_buf_addf(out, "{\"from\": \"%s\", \"to\": \"%s\", \"reason\": ",
                 ndp_severity_name(f->override_from),
                 f->override_off ? "off" : ndp_severity_name(f->severity));
    ndp_buf_add_json_string(out, f->override_reason);
    ndp_buf_adds(out, "},\n");
}

/*
 * "location": {"file", "line"} or null (standard input): where the other
 * formats point; "fingerprint": the baseline's.
 */
static void write_location(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f)
{
    struct ndp_buf file = NDP_BUF_INIT;
    long line;

    ndp_buf_adds(out, "      \"location\": ");
    if (ndp_report_location(&file, &line, r, f) < 0) {
        ndp_buf_adds(out, "null");
    } else {
        ndp_buf_adds(out, "{\"file\": ");
        ndp_buf_add_json_string(out, file.buf);
        if (line > 0)
            ndp_buf_addf(out, ", \"line\": %ld}", line);
        else
            ndp_buf_adds(out, ", \"line\": null}");
    }
    ndp_buf_adds(out, ",\n      \"fingerprint\": \"");
    ndp_finding_fingerprint(out, f);
    ndp_buf_adds(out, "\",\n");
    ndp_buf_release(&file);
}

static void write_finding(struct ndp_buf *out, const struct ndp_report *r,
                          const struct ndp_finding *f)
{
    ndp_buf_adds(out, "{\n");
    write_field(out, "rule", f->rule_id, false);
    write_field(out, "category", f->category, false);
    write_field(out, "scope", ndp_scope_name(f->scope), false);
    write_field(out, "verdict", ndp_verdict_name(f->verdict), false);
    write_field(out, "severity", ndp_severity_name(f->severity), false);
    write_field(out, "input", f->input, false);
    write_field(out, "resource", f->resource, false);
    write_field(out, "cluster", f->cluster, false);
    write_field(out, "path", f->path, false);
    ndp_buf_addf(out, "      \"before\": %s,\n", f->before);
    ndp_buf_addf(out, "      \"after\": %s,\n", f->after);
    write_location(out, r, f);
    write_field(out, "message", f->message, false);
    write_field(out, "suppressed", f->suppression, false);
    write_override(out, f);
    write_field(out, "help", f->help, true);
    ndp_buf_adds(out, "    }");
}

static void write_json(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t i;

    ndp_buf_adds(out, "{\n  \"schema_version\": 2,\n");
    ndp_buf_adds(out, "  \"ndplint_version\": \"" NDP_VERSION "\",\n");
    ndp_buf_adds(out, "  \"evaluated_at\": \"");
    ndp_time_format_utc(out, r->result->at);
    ndp_buf_adds(out, "\",\n");
    write_inputs(out, &r->result->set);
    write_clusters(out, r);
    ndp_buf_adds(out, "  \"findings\": [");
    for (i = 0; i < r->result->findings.nr; i++) {
        ndp_buf_adds(out, i ? ",\n    " : "\n    ");
        write_finding(out, r, &r->result->findings.items[i]);
    }
    ndp_buf_adds(out, r->result->findings.nr ? "\n  ],\n" : "],\n");
    ndp_buf_addf(out,
                 "  \"summary\": {\"errors\": %d, \"warnings\": %d, "
                 "\"notes\": %d, \"suppressed\": %d",
                 r->counts.errors, r->counts.warnings, r->counts.notes,
                 r->counts.suppressed);
    if (r->options.baseline)
        ndp_buf_addf(out, ", \"baseline_known\": %zu",
                     r->result->baseline_known);
    ndp_buf_adds(out, ", \"extra_nodes_at_peak\": ");
    ndp_report_plan_extra_json(out, &r->result->impacts);
    ndp_buf_adds(out, ", \"apply_window\": ");
    ndp_report_apply_json(out, r, NDP_APPLY_PLAN);
    ndp_buf_adds(out, "}\n}\n");
}

const struct ndp_reporter ndp_report_json = {
    "json", write_json, 0, NDP_CMDS_NONE, &ndp_defuse_json
};
