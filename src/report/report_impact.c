/*
 * SPDX-License-Identifier: Apache-2.0
 * report_impact.c - a cluster's impact (impact.h, rollout.h) as the
 * reports print it: the JSON object of the JSON and SARIF reports, and
 * the sentence of the text and Markdown ones.  Nothing read under a
 * sensitive mask is written: such a pool is named "(sensitive)", with its
 * rule ids and nothing else.
 */
#include "common.h"
#include "report_impact.h"
#include "buf.h"
#include "impact.h"
#include "rollout.h"

#include <limits.h>

static void add_number(struct ndp_buf *out, long v)
{
    if (v < 0)
        ndp_buf_adds(out, "null");
    else
        ndp_buf_addf(out, "%ld", v);
}

/* A pool under a sensitive mask: its rule ids, nothing read from it. */
static void sensitive_pool_json(struct ndp_buf *out,
                                const struct ndp_impact_pool *p)
{
    const char *r = p->because ? p->because : "";
    bool first = true;

    ndp_buf_adds(out, "{\"name\":\"(sensitive)\",\"os_type\":null,"
                      "\"nodes\":null,\"min_nodes\":null,\"max_nodes\":null,"
                      "\"max_surge\":\"(sensitive)\",\"surge_nodes\":null,"
                      "\"batches\":null,\"drain_timeout_minutes\":null,"
                      "\"node_soak_minutes\":null,\"because\":[");
    while (*r) {
        size_t n = strcspn(r, ",");
        ndp_buf_addf(out, "%s\"%.*s\"", first ? "" : ",", (int)n, r);
        first = false;
        r += n + (r[n] == ',');
    }
    ndp_buf_adds(out, "]}");
}

static void pool_json(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    long nodes = ndp_rollout_pool_nodes(p);
    long surge = ndp_rollout_surge_nodes(p->surge, nodes);

    if (p->sensitive) {
        sensitive_pool_json(out, p);
        return;
    }
    ndp_buf_adds(out, "{\"name\":");
    ndp_buf_add_json_string(out, p->name);
    ndp_buf_adds(out, ",\"os_type\":");
    if (p->os_type)
        ndp_buf_add_json_string(out, p->os_type);
    else
        ndp_buf_adds(out, "null");
    ndp_buf_adds(out, ",\"nodes\":");
    add_number(out, p->nodes);
    ndp_buf_adds(out, ",\"min_nodes\":");
    add_number(out, p->autoscale ? p->min_nodes : -1);
    ndp_buf_adds(out, ",\"max_nodes\":");
    add_number(out, p->autoscale ? p->max_nodes : -1);
    ndp_buf_adds(out, ",\"max_surge\":");
    ndp_buf_add_json_string(out, p->surge ? p->surge : "1");
    ndp_buf_addf(out, ",\"surge_nodes\":%ld,\"batches\":", surge);
    add_number(out, ndp_rollout_batches(nodes, surge));
    ndp_buf_addf(out, ",\"drain_timeout_minutes\":%ld,"
                      "\"node_soak_minutes\":%ld",
                 ndp_rollout_drain_minutes(p), ndp_rollout_soak_minutes(p));
    ndp_buf_adds(out, ",\"because\":[");
    {
        const char *r = p->because ? p->because : "";
        bool first = true;
        while (*r) {
            size_t n = strcspn(r, ",");
            char id[32];
            snprintf(id, sizeof(id), "%.*s", (int)n, r);
            ndp_buf_addf(out, "%s", first ? "" : ",");
            ndp_buf_add_json_string(out, id);
            first = false;
            r += n + (r[n] == ',');
        }
    }
    ndp_buf_adds(out, "]}");
}

static void pool_text(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    long nodes = ndp_rollout_pool_nodes(p);
    long surge = ndp_rollout_surge_nodes(p->surge, nodes);

    if (p->sensitive) {
        ndp_buf_adds(out, "a pool whose name and size are sensitive (not "
                          "shown)");
        return;
    }
    ndp_buf_addf(out, "%s (", p->name);
    if (nodes < 0)
        ndp_buf_adds(out, "node count unknown");
    else if (p->autoscale && p->max_nodes > 0)
        ndp_buf_addf(out, "%ld-%ld nodes", p->min_nodes > 0 ? p->min_nodes
                                                           : p->nodes,
                     nodes);
    else
        ndp_buf_addf(out, "%ld node%s", nodes, nodes == 1 ? "" : "s");
    ndp_buf_addf(out, ", max surge %s = %ld at a time", p->surge ? p->surge
                                                                 : "1",
                 surge);
    if (nodes > 0)
        ndp_buf_addf(out, ", %ld batch%s", ndp_rollout_batches(nodes, surge),
                     ndp_rollout_batches(nodes, surge) == 1 ? "" : "es");
    ndp_buf_addch(out, ')');
}

static size_t count_created(const struct ndp_impact *impact)
{
    size_t i, nr = 0;

    for (i = 0; i < impact->nr_pools; i++)
        nr += impact->pools[i].created;
    return nr;
}

/*
 * The pools this apply creates, after the rebuilt ones: JSON ',"created":
 * [names]' and text "; pool 'x' is created (not rebuilt)"; nothing when
 * none is created, so such impacts read as they always did.
 */
static void describe_created(struct ndp_buf *json, struct ndp_buf *text,
                             const struct ndp_impact *impact)
{
    size_t i, seen = 0, nr = count_created(impact);

    if (!nr)
        return;
    ndp_buf_adds(json, ",\"created\":[");
    ndp_buf_adds(text, nr == 1 ? "; pool " : "; pools ");
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (!p->created)
            continue;
        ndp_buf_adds(json, seen ? "," : "");
        ndp_buf_add_json_string(json, p->sensitive ? "(sensitive)" : p->name);
        ndp_buf_addf(text, "%s'%s'", seen ? ", " : "",
                     p->sensitive ? "(sensitive)" : p->name);
        seen++;
    }
    ndp_buf_adds(json, "]");
    ndp_buf_adds(text, nr == 1 ? " is created (not rebuilt)"
                               : " are created (not rebuilt)");
}

/*
 * ',"worst_case_minutes":N,"window_remaining_minutes":N': null when not
 * known, and when the changes go through in no window; the minutes left
 * of a sensitive window are "(sensitive)".
 */
static void rollout_json(struct ndp_buf *json, const struct ndp_impact *impact)
{
    struct ndp_rollout r;

    ndp_rollout_size(&r, impact, false);
    ndp_buf_adds(json, ",\"worst_case_minutes\":");
    add_number(json, r.minutes);
    ndp_buf_adds(json, ",\"window_remaining_minutes\":");
    if (impact->window_sensitive && impact->window_minutes_left >= 0)
        ndp_buf_adds(json, "\"(sensitive)\"");
    else
        add_number(json, impact->window_minutes_left);
}

/* Both descriptions of an impact, written side by side in one pass. */
static void describe(struct ndp_buf *json, struct ndp_buf *text,
                     const struct ndp_impact *impact)
{
    long total = 0;
    bool known = true, first = true;
    size_t i;

    ndp_buf_adds(json, "{\"pools\":[");
    ndp_buf_adds(text, "rebuilds ");
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (!p->rebuilt)
            continue;
        ndp_buf_adds(json, first ? "" : ",");
        ndp_buf_adds(text, first ? "" : ", ");
        pool_json(json, p);
        pool_text(text, p);
        if (ndp_rollout_pool_nodes(p) < 0 || p->sensitive)
            known = false;
        else /* saturates: counts near 2^63 come from the input */
            total = ndp_rollout_pool_nodes(p) > LONG_MAX - total
                        ? LONG_MAX
                        : total + ndp_rollout_pool_nodes(p);
        first = false;
    }
    if (first) {
        /* Rebuilds, but the input describes no pool of the cluster. */
        ndp_buf_adds(text, "every affected pool (the input describes none; "
                           "pass --cluster-state for counts)");
        known = false;
    }
    ndp_buf_adds(json, "],\"nodes\":");
    add_number(json, known ? total : -1);
    describe_created(json, text, impact);
    rollout_json(json, impact);
    ndp_buf_adds(json, ",\"note\":\"node-local ephemeral storage (emptyDir, "
                       "hostPath) on these nodes is lost\"}");
    ndp_buf_adds(text, "; node-local ephemeral storage (emptyDir, "
                       "hostPath) is lost");
}

void ndp_report_impact_json(struct ndp_buf *out,
                            const struct ndp_impact *impact)
{
    struct ndp_buf text = NDP_BUF_INIT;

    if (impact->rebuilds)
        describe(out, &text, impact);
    else
        ndp_buf_adds(out, "null");
    ndp_buf_release(&text);
}

void ndp_report_impact_words(struct ndp_buf *out,
                             const struct ndp_impact *impact)
{
    struct ndp_buf json = NDP_BUF_INIT;

    if (impact->rebuilds)
        describe(&json, out, impact);
    ndp_buf_release(&json);
}
