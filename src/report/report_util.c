/*
 * SPDX-License-Identifier: Apache-2.0
 * report_util.c - helpers the CI reporters share: paths relative to
 * --source-root, finding fingerprints and lines, and the one-line
 * description of a finding.
 */
#include "common.h"
#include "report_util.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "linker.h"
#include "report.h"
#include "run.h"
#include "timeutil.h"
#include "window.h"

/* ---- paths ---- */

/* 'path' with its directory resolved (symlinks included, as getcwd()
 * resolves them), or NULL.  Returns an owned string. */
static char *resolve(const char *path, bool is_dir)
{
    const char *slash = is_dir ? NULL : strrchr(path, '/');
    struct ndp_buf b = NDP_BUF_INIT;
    char *dir, *real;

    if (is_dir)
        ndp_buf_adds(&b, path);
    else if (slash)
        ndp_buf_add(&b, path, slash == path ? 1 : (size_t)(slash - path));
    else
        ndp_buf_adds(&b, ".");
    dir = ndp_buf_detach(&b);
    real = realpath(dir, NULL);
    free(dir);
    if (!real || is_dir)
        return real;
    ndp_buf_adds(&b, real);
    if (strcmp(real, "/") != 0)
        ndp_buf_addch(&b, '/');
    ndp_buf_adds(&b, slash ? slash + 1 : path);
    free(real);
    return ndp_buf_detach(&b);
}

int ndp_report_relative_path(struct ndp_buf *out, const char *input,
                             const char *source_root)
{
    char *file, *root;
    size_t n;
    int rc = 0;

    if (strcmp(input, "-") == 0) {
        ndp_buf_adds(out, "-");
        return -1;
    }
    file = resolve(input, false);
    root = resolve(source_root ? source_root : ".", true);
    if (!file) {
        ndp_buf_adds(out, input);
        rc = input[0] != '/';
        goto out;
    }
    n = root ? strlen(root) : 0;
    if (root && strncmp(file, root, n) == 0 &&
        (file[n] == '/' || (n == 1 && root[0] == '/'))) {
        ndp_buf_adds(out, file + n + (file[n] == '/'));
        rc = 1;
    } else {
        ndp_buf_adds(out, file);
    }
out:
    free(file);
    free(root);
    return rc;
}

/* ---- findings ---- */

void ndp_report_fingerprint(struct ndp_buf *out, const struct ndp_finding *f,
                            const char *where)
{
    const char *fields[6];
    char after[NDP_SHA256_HEX_LEN + 1], hex[NDP_SHA256_HEX_LEN + 1];
    struct ndp_buf text = NDP_BUF_INIT;
    size_t i;

    ndp_sha256_hex(after, f->after, strlen(f->after));
    fields[0] = f->rule_id;
    fields[1] = where;
    fields[2] = f->cluster;
    fields[3] = f->resource;
    fields[4] = f->path;
    fields[5] = after;
    ndp_buf_adds(&text, "ndplint/v1");
    /* NUL-separated, so that no two field lists hash the same text. */
    for (i = 0; i < NDP_ARRAY_SIZE(fields); i++) {
        ndp_buf_add(&text, "", 1);
        ndp_buf_adds(&text, fields[i]);
    }
    ndp_sha256_hex(hex, text.buf, text.len);
    ndp_buf_adds(out, hex);
    ndp_buf_release(&text);
}

int ndp_report_location(struct ndp_buf *file, long *line,
                        const struct ndp_report *r,
                        const struct ndp_finding *f)
{
    /* The .tf or template line when located, else the input's. */
    /* The evaluator filled f->line from the resource's change, by index:
     * cluster-level findings get the line of the change of the same input
     * whose address is the finding's resource. */
    *line = f->source_file ? f->source_line : f->line;
    if (*line < 0)
        *line = 0;
    return ndp_report_relative_path(file,
                                    f->source_file ? f->source_file : f->input,
                                    r->options.source_root);
}

void ndp_report_cluster_names(struct ndp_buf *out,
                              const struct ndp_cluster *c)
{
    if (c->name)
        ndp_buf_adds(out, c->name);
    if (c->name && c->resource_group)
        ndp_buf_addch(out, ' ');
    if (c->resource_group)
        ndp_buf_addf(out, "in %s", c->resource_group);
}

void ndp_report_describe(struct ndp_buf *out, const struct ndp_finding *f,
                         const char *arrow)
{
    ndp_buf_addf(out, "%s: ", ndp_verdict_name(f->verdict));
    if (*f->path) {
        ndp_buf_adds(out, f->path);
        if (strcmp(f->before, "null") != 0 || strcmp(f->after, "null") != 0)
            ndp_buf_addf(out, " %s %s %s", f->before, arrow, f->after);
        ndp_buf_adds(out, " in ");
    }
    if (strcmp(f->resource, f->cluster) != 0)
        ndp_buf_addf(out, "%s (cluster %s)", f->resource, f->cluster);
    else
        ndp_buf_addf(out, "cluster %s", f->cluster);
}

/* ". What to do: <help>" for a finding that says what to do. */
static void add_help(struct ndp_buf *out, const struct ndp_finding *f)
{
    if (f->help)
        ndp_buf_addf(out, ". What to do: %s", f->help);
}

void ndp_report_describe_all(struct ndp_buf *out, const struct ndp_finding *f,
                             const char *arrow)
{
    const char *msg = f->message ? f->message : "";

    ndp_report_describe(out, f, arrow);
    if (!*msg)
        return;
    ndp_buf_adds(out, ". ");
    if (*msg >= 'a' && *msg <= 'z')
        ndp_buf_addch(out, (char)(*msg++ - 'a' + 'A'));
    ndp_buf_adds(out, msg);
    add_help(out, f);
}

void ndp_report_log_summary(struct ndp_buf *out, const struct ndp_report *r)
{
    ndp_buf_addf(out,
                 "ndplint: %d error%s, %d warning%s, %d note%s in %zu "
                 "cluster%s (%zu input%s)",
                 r->counts.errors, r->counts.errors == 1 ? "" : "s",
                 r->counts.warnings, r->counts.warnings == 1 ? "" : "s",
                 r->counts.notes, r->counts.notes == 1 ? "" : "s",
                 r->result->clusters.nr, r->result->clusters.nr == 1 ? "" : "s",
                 r->result->set.nr_inputs,
                 r->result->set.nr_inputs == 1 ? "" : "s");
    ndp_buf_addf(out, "; %zu at or above --fail-on %s", ndp_report_failing(r),
                 ndp_severity_name((enum ndp_severity)r->options.fail_on));
    if (r->counts.suppressed)
        ndp_buf_addf(out, "; %d waived", r->counts.suppressed);
    if (r->result->baseline_known)
        ndp_buf_addf(out, "; %zu known from the baseline (not listed)",
                     r->result->baseline_known);
    ndp_buf_adds(out, "; ");
    ndp_report_add_judged(out, r);
    ndp_buf_addch(out, '\n');
}

void ndp_report_add_judged(struct ndp_buf *out, const struct ndp_report *r)
{
    if (!r->result->next_window) {
        ndp_buf_adds(out, "judged at ");
        ndp_time_format_utc(out, r->result->at);
        return;
    }
    ndp_buf_adds(out, "judged at the next window of each cluster (from ");
    ndp_time_format_utc(out, r->result->at);
    ndp_buf_addch(out, ')');
}

void ndp_report_cluster_judged(struct ndp_buf *out,
                               const struct ndp_report *r, size_t index)
{
    const struct ndp_resolution *c = &r->result->resolved.items[index];

    if (c->window_sensitive && c->at != r->result->at) {
        ndp_buf_adds(out, "the first instant inside its window (not shown: "
                     "its settings are sensitive)");
        return;
    }
    ndp_time_format_utc(out, c->at);
    switch (c->judged) {
    case NDP_JUDGED_NEXT_WINDOW:
        ndp_buf_adds(out, c->at == r->result->at
                              ? ", inside its window now"
                              : ", the first instant inside its window");
        break;
    case NDP_JUDGED_NO_WINDOW:
        ndp_buf_adds(out, c->profile == NDP_PROFILE_BLOCK
                              ? ", now: Block refuses at any time"
                          : c->profile == NDP_PROFILE_ALLOW
                              ? ", now: Allow lets changes through at any "
                                "time"
                              : ", now: no maintenance window gates it");
        break;
    case NDP_JUDGED_NO_OPENING:
        ndp_buf_adds(out, c->has_next_window &&
                              !ndp_window_phase_unknown(c->window)
                              ? ", now: its next opening is more than 366 "
                                "days away"
                              : ", now: no opening of its window can be "
                                "named");
        break;
    case NDP_JUDGED_GIVEN:
    default:
        break;
    }
}

size_t ndp_report_failing(const struct ndp_report *r)
{
    size_t i, n = 0;

    if (r->options.fail_on == NDP_SEVERITY_NEVER)
        return 0;
    for (i = 0; i < r->result->findings.nr; i++)
        if ((int)r->result->findings.items[i].severity <= r->options.fail_on &&
            !r->result->findings.items[i].suppression)
            n++;
    return n;
}

void ndp_report_group_by_cluster(struct ndp_report_by_cluster *g,
                                 const struct ndp_report *r)
{
    size_t nc = r->result->clusters.nr, nf = r->result->findings.nr, i;
    size_t *fill = ndp_xcalloc(nc + 1, sizeof(*fill));

    g->order = ndp_xcalloc(nf ? nf : 1, sizeof(*g->order));
    g->start = ndp_xcalloc(nc + 1, sizeof(*g->start));
    for (i = 0; i < nf; i++)
        g->start[r->result->findings.items[i].cluster_index + 1]++;
    for (i = 0; i < nc; i++)
        g->start[i + 1] += g->start[i];
    for (i = 0; i < nf; i++) {
        size_t c = r->result->findings.items[i].cluster_index;
        g->order[g->start[c] + fill[c]++] = i;
    }
    free(fill);
}

void ndp_report_by_cluster_release(struct ndp_report_by_cluster *g)
{
    free(g->order);
    free(g->start);
    g->order = g->start = NULL;
}
