/*
 * SPDX-License-Identifier: Apache-2.0
 * finding.c - the finding list: the one constructor, the setters later
 * stages change a finding with, and the report order (finding.h says who
 * calls which).
 */
#include "common.h"
#include "finding.h"
#include "buf.h"
#include "sha256.h"

static char *copy_or(const char *s, const char *fallback)
{
    return ndp_xstrdup(s ? s : fallback);
}

static char *copy_optional(const char *s)
{
    return s ? ndp_xstrdup(s) : NULL;
}

static struct ndp_finding_rename *copy_rename(
    const struct ndp_finding_rename *r)
{
    struct ndp_finding_rename *c;

    if (!r->resource_from && !r->cluster_from)
        return NULL;
    c = ndp_xcalloc(1, sizeof(*c));
    c->resource_from = copy_optional(r->resource_from);
    c->resource_arm_id = copy_optional(r->resource_arm_id);
    c->cluster_from = copy_optional(r->cluster_from);
    c->cluster_arm_id = copy_optional(r->cluster_arm_id);
    return c;
}

struct ndp_finding *ndp_findings_add(struct ndp_findings *list,
                                     const struct ndp_finding_spec *spec)
{
    const struct ndp_verdict_row *row = ndp_verdict_row(spec->verdict);
    const struct ndp_rule *rule =
        spec->rule ? spec->rule
                   : ndp_verdict_meta_rule(spec->ruleset, spec->verdict);
    struct ndp_finding *f;

    NDP_GROW(list->items, list->alloc, list->nr + 1);
    f = &list->items[list->nr++];
    memset(f, 0, sizeof(*f));
    f->rule_id = rule ? rule->id : row->meta_id;
    f->category = rule ? rule->category : row->meta_category;
    if (!f->rule_id || !f->category)
        NDP_BUG("a finding without a rule whose verdict has no meta rule");
    f->scope = spec->scope;
    f->verdict = spec->verdict;
    f->severity = ndp_verdict_severity(spec->verdict, spec->frozen_now);
    f->refused_now = ndp_verdict_refused_now(spec->verdict, spec->frozen_now);
    f->pools = spec->pools;
    f->input = spec->input;
    f->cluster = ndp_xstrdup(spec->cluster);
    f->cluster_index = spec->cluster_index;
    f->resource = ndp_xstrdup(spec->resource);
    f->path = copy_or(spec->path, "");
    f->before = copy_or(spec->before, "null");
    f->after = copy_or(spec->after, "null");
    f->pool = spec->pool ? ndp_xstrdup(spec->pool) : NULL;
    f->line = spec->line;
    f->message = copy_or(spec->message, "");
    f->help = spec->help ? ndp_xstrdup(spec->help) : NULL;
    f->rename = spec->rename ? copy_rename(spec->rename) : NULL;
    return f;
}

size_t ndp_finding_match_ids(const struct ndp_finding *f, const char *ids[4])
{
    const struct ndp_finding_rename *r = f->rename;
    size_t n = 0;

    if (r && r->resource_from) {
        ids[n++] = r->resource_from;
        if (r->resource_arm_id)
            ids[n++] = r->resource_arm_id;
    } else {
        ids[n++] = f->resource;
    }
    if (r && r->cluster_from) {
        ids[n++] = r->cluster_from;
        if (r->cluster_arm_id)
            ids[n++] = r->cluster_arm_id;
    } else {
        ids[n++] = f->cluster;
    }
    return n;
}

bool ndp_finding_suppress(struct ndp_finding *f, const char *why)
{
    if (f->suppression)
        return false;
    f->suppression = ndp_xstrdup(why);
    return true;
}

void ndp_finding_locate(struct ndp_finding *f, const char *file, long line)
{
    free(f->source_file);
    f->source_file = ndp_xstrdup(file);
    f->source_line = line;
}

void ndp_finding_override(struct ndp_finding *f, const char *reason,
                          size_t index, bool off, enum ndp_severity severity,
                          const char *message)
{
    f->override_reason = reason;
    f->override_from = f->severity;
    f->override_off = off;
    f->override_index = index;
    if (off) {
        ndp_finding_suppress(f, message);
        return;
    }
    f->severity = severity;
    free(f->message);
    f->message = ndp_xstrdup(message);
}

/* strcmp() where NULL sorts first. */
static int compare_optional(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

int ndp_finding_compare(const void *pa, const void *pb)
{
    const struct ndp_finding *a = pa, *b = pb;
    int d;

    if ((d = strcmp(a->input, b->input)) != 0)
        return d;
    if ((d = strcmp(a->cluster, b->cluster)) != 0)
        return d;
    if ((d = strcmp(a->resource, b->resource)) != 0)
        return d;
    if ((d = strcmp(a->path, b->path)) != 0)
        return d;
    if ((d = strcmp(a->rule_id, b->rule_id)) != 0)
        return d;
    if (a->verdict != b->verdict)
        return a->verdict < b->verdict ? -1 : 1;
    if ((d = compare_optional(a->pool, b->pool)) != 0)
        return d;
    if ((d = strcmp(a->message, b->message)) != 0)
        return d;
    if ((d = strcmp(a->after, b->after)) != 0)
        return d;
    return strcmp(a->before, b->before);
}

void ndp_findings_sort(struct ndp_findings *list)
{
    if (list->nr > 1)
        qsort(list->items, list->nr, sizeof(*list->items),
              ndp_finding_compare);
}

void ndp_findings_release(struct ndp_findings *list)
{
    ndp_findings_release_items(list);
    free(list->items);
    memset(list, 0, sizeof(*list));
}

void ndp_findings_release_items(struct ndp_findings *list)
{
    size_t i;

    for (i = 0; i < list->nr; i++) {
        struct ndp_finding *f = &list->items[i];
        free(f->resource);
        free(f->cluster);
        free(f->path);
        free(f->before);
        free(f->after);
        free(f->message);
        free(f->help);
        free(f->pool);
        free(f->suppression);
        free(f->source_file);
        if (f->rename) {
            free(f->rename->resource_from);
            free(f->rename->resource_arm_id);
            free(f->rename->cluster_from);
            free(f->rename->cluster_arm_id);
            free(f->rename);
        }
    }
}

void ndp_finding_fingerprint(struct ndp_buf *out, const struct ndp_finding *f)
{
    struct ndp_buf data = NDP_BUF_INIT;
    char after[NDP_SHA256_HEX_LEN + 1], hex[NDP_SHA256_HEX_LEN + 1];

    ndp_sha256_hex(after, f->after, strlen(f->after));
    ndp_buf_addf(&data, "ndplint-baseline-1\n%s\n%s\n%s\n%s\n%s", f->rule_id,
                 f->cluster, f->resource, f->path, after);
    ndp_sha256_hex(hex, data.buf, data.len);
    ndp_buf_adds(out, hex);
    ndp_buf_release(&data);
}
