/*
 * SPDX-License-Identifier: Apache-2.0
 * finding.c - the finding list, its order and the verdict/severity names
 * (architecture §5).
 */
#include "common.h"
#include "finding.h"
#include "buf.h"
#include "sha256.h"

struct ndp_finding *ndp_findings_add(struct ndp_findings *list)
{
    struct ndp_finding *f;

    NDP_GROW(list->items, list->alloc, list->nr + 1);
    f = &list->items[list->nr++];
    memset(f, 0, sizeof(*f));
    return f;
}

static int compare_findings(const void *pa, const void *pb)
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
    return strcmp(a->rule_id, b->rule_id);
}

void ndp_findings_sort(struct ndp_findings *list)
{
    if (list->nr > 1)
        qsort(list->items, list->nr, sizeof(*list->items), compare_findings);
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
    }
}

static const struct {
    const char *name;
    enum ndp_severity severity;
} verdicts[] = {
    [NDP_VERDICT_REJECTED] = { "rejected", NDP_SEVERITY_ERROR },
    [NDP_VERDICT_OUTSIDE_WINDOW] = { "outside-window", NDP_SEVERITY_ERROR },
    [NDP_VERDICT_ALLOWED] = { "allowed", NDP_SEVERITY_NOTE },
    [NDP_VERDICT_MAY_REIMAGE] = { "may-reimage", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_BYPASSED] = { "bypassed", NDP_SEVERITY_ERROR },
    [NDP_VERDICT_MANUAL_UPGRADE] = { "manual-upgrade", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_REPLACE] = { "replace", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_ROTATE] = { "rotate", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_GATE_OPEN] = { "gate-open", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_WINDOW_INVALID] = { "window-invalid", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_FREEZE_WITHOUT_END] = { "freeze-without-end",
                                         NDP_SEVERITY_WARNING },
    [NDP_VERDICT_WAIVER_EXPIRED] = { "waiver-expired", NDP_SEVERITY_WARNING },
    [NDP_VERDICT_PROFILE_UNDECLARED] = { "profile-undeclared",
                                         NDP_SEVERITY_NOTE },
    [NDP_VERDICT_IGNORE_WITHOUT_REASON] = { "ignore-without-reason",
                                            NDP_SEVERITY_WARNING },
    [NDP_VERDICT_WINDOW_OVERRUN] = { "window-overrun", NDP_SEVERITY_WARNING },
};

enum ndp_severity ndp_verdict_severity(enum ndp_verdict verdict)
{
    return verdicts[verdict].severity;
}

const char *ndp_verdict_name(enum ndp_verdict verdict)
{
    return verdicts[verdict].name;
}

int ndp_verdict_parse(const char *name)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(verdicts); i++)
        if (strcmp(name, verdicts[i].name) == 0)
            return (int)i;
    return -1;
}

static const char *const severity_names[] = { "error", "warning", "note",
                                              "never" };

const char *ndp_severity_name(enum ndp_severity severity)
{
    return severity_names[severity];
}

const char *ndp_severity_choice(size_t i)
{
    return i < NDP_ARRAY_SIZE(severity_names) ? severity_names[i] : NULL;
}

int ndp_severity_parse(const char *name)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(severity_names); i++)
        if (strcmp(name, severity_names[i]) == 0)
            return (int)i;
    return -1;
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
