/*
 * SPDX-License-Identifier: Apache-2.0
 * triage.c - waivers and the baseline (see triage.h).
 */
#include "common.h"
#include "triage.h"
#include "buf.h"
#include "config.h"
#include "error.h"
#include "finding.h"
#include "load.h"
#include "jsonutil.h"
#include "linker.h"
#include "outfile.h"
#include "rules.h"
#include "sha256.h"
#include "waivers.h"

#include <errno.h>
#include <json-c/json.h>

#define NDP_MAX_BASELINE_BYTES ((size_t)64 << 20)

static void suppress(struct ndp_finding *f, const struct ndp_config *config,
                     const struct ndp_waiver *w)
{
    struct ndp_buf b = NDP_BUF_INIT;

    ndp_buf_addf(&b, "waived by %s waivers[%zu] until %s: %s", config->path,
                 w->index, w->expires_text, w->reason);
    ndp_finding_suppress(f, b.buf);
    ndp_buf_release(&b);
}

/* An expired waiver: a warning, on the cluster of what it would cover. */
static void expired(struct ndp_findings *findings,
                    const struct ndp_clusters *clusters,
                    const struct ndp_config *config,
                    const struct ndp_ruleset *rs, const struct ndp_waiver *w,
                    size_t covered)
{
    struct ndp_buf msg = NDP_BUF_INIT, path = NDP_BUF_INIT;
    const struct ndp_finding *model = covered < findings->nr
                                          ? &findings->items[covered] : NULL;
    struct ndp_finding_spec spec = {
        .ruleset = rs,
        .verdict = NDP_VERDICT_WAIVER_EXPIRED,
        .scope = NDP_SCOPE_CLUSTER,
        .cluster_index = model ? model->cluster_index : 0,
        .resource = config->path,
    };

    if (!model && clusters->nr == 0) {
        ndp_warn("warning: %s waivers[%zu] (%s) expired on %s", config->path,
                 w->index, w->reason, w->expires_text);
        return;
    }
    spec.input = model ? model->input : clusters->items[0].input;
    spec.cluster = model ? model->cluster : clusters->items[0].id;
    ndp_buf_addf(&path, "waivers[%zu]", w->index);
    spec.path = path.buf;
    ndp_buf_addf(&msg, "waiver %s waivers[%zu] (%s%s%s) expired on %s and "
                 "no longer suppresses: %s", config->path, w->index,
                 w->rule ? w->rule : "", w->rule && w->category ? ", " : "",
                 w->category ? w->category : "", w->expires_text, w->reason);
    spec.message = msg.buf;
    ndp_findings_add(findings, &spec);
    ndp_buf_release(&msg);
    ndp_buf_release(&path);
}

void ndp_triage_waivers(struct ndp_findings *findings,
                        const struct ndp_clusters *clusters,
                        const struct ndp_config *config,
                        const struct ndp_ruleset *rs, int64_t at)
{
    size_t i, n = findings->nr, *waiver_of, *first_of;

    if (!config)
        return;
    waiver_of = ndp_xcalloc(n ? n : 1, sizeof(*waiver_of));
    first_of = ndp_xcalloc(config->nr_waivers ? config->nr_waivers : 1,
                           sizeof(*first_of));
    /* Through indexes: not every waiver against every finding. */
    ndp_waivers_match(waiver_of, first_of, findings, config, at);
    for (i = 0; i < n; i++)
        if (waiver_of[i] != SIZE_MAX && !findings->items[i].suppression)
            suppress(&findings->items[i], config,
                     &config->waivers[waiver_of[i]]);
    for (i = 0; i < config->nr_waivers; i++)
        if (config->waivers[i].expires < at)
            expired(findings, clusters, config, rs, &config->waivers[i],
                    first_of[i]);
    free(waiver_of);
    free(first_of);
}

int ndp_baseline_write(const char *path, const struct ndp_findings *findings,
                       struct ndp_error *err)
{
    char **prints = ndp_xcalloc(findings->nr ? findings->nr : 1,
                                sizeof(*prints));
    struct ndp_buf text = NDP_BUF_INIT;
    size_t i, n = 0;
    int rc;

    for (i = 0; i < findings->nr; i++) {
        struct ndp_buf one = NDP_BUF_INIT;
        if (findings->items[i].suppression)
            continue;
        ndp_finding_fingerprint(&one, &findings->items[i]);
        prints[n++] = ndp_buf_detach(&one);
    }
    qsort(prints, n, sizeof(*prints), ndp_strcmp_indirect);
    ndp_buf_adds(&text, "{\n  \"ndplint_baseline\": 1,\n  \"fingerprints\": [");
    for (i = 0; i < n; i++) {
        ndp_buf_addf(&text, "%s\n    \"%s\"", i ? "," : "", prints[i]);
        free(prints[i]);
    }
    ndp_buf_adds(&text, n ? "\n  ]\n}\n" : "]\n}\n");
    free(prints);
    rc = ndp_outfile_write(path, text.buf, text.len, "the baseline", err);
    ndp_buf_release(&text);
    return rc;
}

/*
 * The baseline's fingerprints, sorted, so that each finding is looked up
 * by binary search: O((B + F) log B) for B fingerprints and F findings,
 * whatever the file holds (a non-string entry matches nothing).  The
 * strings are borrowed from 'prints'.
 */
static const char **sorted_prints(const struct json_object *prints,
                                  size_t *nr)
{
    size_t i, n = json_object_array_length(prints);
    const char **out = ndp_xcalloc(n ? n : 1, sizeof(*out));

    *nr = 0;
    for (i = 0; i < n; i++) {
        struct json_object *v = json_object_array_get_idx(prints, i);
        if (json_object_is_type(v, json_type_string))
            out[(*nr)++] = json_object_get_string(v);
    }
    qsort(out, *nr, sizeof(*out), ndp_strcmp_indirect);
    return out;
}

static bool listed(const char **prints, size_t nr, const char *fp)
{
    return bsearch(&fp, prints, nr, sizeof(*prints),
                   ndp_strcmp_indirect) != NULL;
}

int ndp_baseline_apply(struct ndp_findings *findings, const char *path,
                       size_t *known, struct ndp_error *err)
{
    struct json_object *root = NULL, *prints;
    const char **sorted;
    size_t i, kept = 0, nr;
    int rc = ndp_load_json(&root, path, NDP_MAX_BASELINE_BYTES,
                           "a baseline written by --write-baseline", err);

    *known = 0;
    if (rc)
        return rc;
    prints = ndp_json_get(root, "fingerprints");
    if (!ndp_json_get(root, "ndplint_baseline") || !prints ||
        !json_object_is_type(prints, json_type_array)) {
        json_object_put(root);
        return ndp_error_set(err, NDP_ESCHEMA, "'%s' is not an ndplint "
                             "baseline (no 'ndplint_baseline' and "
                             "'fingerprints')", path);
    }
    sorted = sorted_prints(prints, &nr);
    for (i = 0; i < findings->nr; i++) {
        struct ndp_finding *f = &findings->items[i];
        struct ndp_buf fp = NDP_BUF_INIT;
        ndp_finding_fingerprint(&fp, f);
        if (listed(sorted, nr, fp.buf)) {
            /* Known: free what it owns; its slot is taken by the next. */
            struct ndp_findings one = { f, 1, 1 };
            ndp_findings_release_items(&one);
            (*known)++;
        } else {
            findings->items[kept++] = *f;
        }
        ndp_buf_release(&fp);
    }
    findings->nr = kept;
    free(sorted);
    json_object_put(root);
    return 0;
}
