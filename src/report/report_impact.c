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
#include "change.h"
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

/* ',"because":["NDP101",...]': the rules that rebuild the pool. */
static void because_json(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    const char *r = p->because ? p->because : "";
    bool first = true;

    ndp_buf_adds(out, ",\"because\":[");
    while (*r) {
        size_t n = strcspn(r, ",");
        char id[32];
        snprintf(id, sizeof(id), "%.*s", (int)n, r);
        ndp_buf_adds(out, first ? "" : ",");
        ndp_buf_add_json_string(out, id);
        first = false;
        r += n + (r[n] == ',');
    }
    ndp_buf_adds(out, "]");
}

static const char *const kind_names[] = {
    [NDP_ROLLOUT_SURGE] = "surge",
    [NDP_ROLLOUT_UNAVAILABLE] = "unavailable",
    [NDP_ROLLOUT_SPOT] = "spot",
    [NDP_ROLLOUT_ROTATION] = "rotation",
};

static const char *const source_names[] = {
    [NDP_SURGE_SENT] = "sent",
    [NDP_SURGE_DEFAULT] = "default",
    [NDP_SURGE_DEFAULT_BEFORE] = "default-before-1.32",
    [NDP_SURGE_DEFAULT_ASSUMED] = "default-assumed",
};

/* A pool under a sensitive mask: its rule ids, nothing read from it. */
static void sensitive_pool_json(struct ndp_buf *out,
                                const struct ndp_impact_pool *p)
{
    ndp_buf_adds(out, "{\"name\":\"(sensitive)\",\"os_type\":null,"
                      "\"nodes\":null,\"min_nodes\":null,\"max_nodes\":null,"
                      "\"upgrade\":null,\"max_surge\":\"(sensitive)\","
                      "\"max_surge_source\":null,"
                      "\"max_unavailable\":\"(sensitive)\","
                      "\"surge_nodes\":null,\"unavailable_nodes\":null,"
                      "\"batches\":null,\"extra_nodes\":null,"
                      "\"drain_timeout_minutes\":null,"
                      "\"node_soak_minutes\":null");
    because_json(out, p);
    ndp_buf_adds(out, "}");
}

static void pool_json(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    struct ndp_rollout_pool plan;
    bool rotation;

    if (p->sensitive) {
        sensitive_pool_json(out, p);
        return;
    }
    ndp_rollout_pool_plan(&plan, p);
    rotation = plan.kind == NDP_ROLLOUT_ROTATION;
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
    ndp_buf_addf(out, ",\"upgrade\":\"%s\",\"max_surge\":",
                 kind_names[plan.kind]);
    ndp_buf_add_json_string(out, plan.max_surge);
    ndp_buf_addf(out, ",\"max_surge_source\":\"%s\",\"max_unavailable\":",
                 source_names[plan.surge_source]);
    if (p->unavailable)
        ndp_buf_add_json_string(out, p->unavailable);
    else
        ndp_buf_adds(out, "null");
    ndp_buf_addf(out, ",\"surge_nodes\":%ld,\"unavailable_nodes\":%ld,"
                      "\"batches\":",
                 plan.surge_nodes, plan.unavailable_nodes);
    add_number(out, rotation ? -1 : plan.batches);
    ndp_buf_adds(out, ",\"extra_nodes\":");
    add_number(out, plan.extra_nodes);
    ndp_buf_adds(out, ",\"drain_timeout_minutes\":");
    add_number(out, rotation ? -1 : plan.drain_minutes);
    ndp_buf_adds(out, ",\"node_soak_minutes\":");
    add_number(out, rotation ? -1 : plan.soak_minutes);
    because_json(out, p);
    ndp_buf_adds(out, "}");
}

/* "max surge 10% (the AKS default on Kubernetes 1.32 and later)" */
static void surge_text(struct ndp_buf *out, const struct ndp_rollout_pool *plan)
{
    ndp_buf_addf(out, "max surge %s", plan->max_surge);
    switch (plan->surge_source) {
    case NDP_SURGE_DEFAULT:
        ndp_buf_adds(out, " (the AKS default on Kubernetes 1.32 and later)");
        break;
    case NDP_SURGE_DEFAULT_BEFORE:
        ndp_buf_adds(out, " (the AKS default below Kubernetes 1.32)");
        break;
    case NDP_SURGE_DEFAULT_ASSUMED:
        ndp_buf_adds(out, " (the AKS default from Kubernetes 1.32, assumed: "
                          "the version is not known)");
        break;
    case NDP_SURGE_SENT:
        break;
    }
}

static void batches_text(struct ndp_buf *out, const struct ndp_rollout_pool *plan)
{
    if (plan->nodes > 0)
        ndp_buf_addf(out, ", %ld batch%s", plan->batches,
                     plan->batches == 1 ? "" : "es");
}

static void pool_text(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    struct ndp_rollout_pool plan;

    if (p->sensitive) {
        ndp_buf_adds(out, "a pool whose name and size are sensitive (not "
                          "shown)");
        return;
    }
    ndp_rollout_pool_plan(&plan, p);
    ndp_buf_addf(out, "%s (", p->name);
    if (plan.nodes < 0)
        ndp_buf_adds(out, "node count unknown");
    else if (p->autoscale && p->max_nodes > 0)
        ndp_buf_addf(out, "%ld-%ld nodes", p->min_nodes > 0 ? p->min_nodes
                                                           : p->nodes,
                     plan.nodes);
    else
        ndp_buf_addf(out, "%ld node%s", plan.nodes,
                     plan.nodes == 1 ? "" : "s");
    switch (plan.kind) {
    case NDP_ROLLOUT_SURGE:
        ndp_buf_adds(out, ", ");
        surge_text(out, &plan);
        ndp_buf_addf(out, " = %ld at a time", plan.surge_nodes);
        batches_text(out, &plan);
        break;
    case NDP_ROLLOUT_UNAVAILABLE:
        ndp_buf_addf(out, ", max unavailable %s = %ld down at a time, no "
                     "surge node", p->unavailable, plan.unavailable_nodes);
        batches_text(out, &plan);
        break;
    case NDP_ROLLOUT_SPOT:
        ndp_buf_adds(out, ", Spot: evicted without drain and without surge "
                          "nodes, one at a time (assumed)");
        batches_text(out, &plan);
        break;
    case NDP_ROLLOUT_ROTATION:
        ndp_buf_adds(out, ", rotated by azurerm: created anew at full size "
                          "beside the old pool, ");
        if (plan.nodes >= 0)
            ndp_buf_addf(out, "%ld nodes at the peak", 2 * plan.nodes);
        else
            ndp_buf_adds(out, "twice its nodes at the peak");
        ndp_buf_adds(out, "; its surge and drain settings are not used");
        break;
    }
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
 * ',"extra_nodes_at_peak":N,"worst_case_minutes":N,
 * "window_remaining_minutes":N': null when not known, and when the
 * changes go through in no window; the minutes left of a sensitive window
 * are "(sensitive)".
 */
static void rollout_json(struct ndp_buf *json, const struct ndp_rollout *r,
                         const struct ndp_impact *impact)
{
    ndp_buf_adds(json, ",\"extra_nodes_at_peak\":");
    add_number(json, r->extra_nodes);
    ndp_buf_adds(json, ",\"worst_case_minutes\":");
    add_number(json, r->rotated == r->pools ? -1 : r->minutes);
    ndp_buf_adds(json, ",\"window_remaining_minutes\":");
    if (impact->window_sensitive && impact->window_minutes_left >= 0)
        ndp_buf_adds(json, "\"(sensitive)\"");
    else
        add_number(json, impact->window_minutes_left);
}

/*
 * Under flat Azure CNI, each subnet of the input the pools are in:
 * JSON ',"subnets":[{"address","id","prefixes","usable_addresses",
 * "addresses_at_peak"}]' (an empty list otherwise) and text "; subnet
 * azurerm_subnet.x (10.0.0.0/24, 251 usable addresses): up to 124
 * addresses at the peak".  A sensitive subnet's prefixes and size are
 * not written.
 */
static void subnets(struct ndp_buf *json, struct ndp_buf *text,
                    const struct ndp_impact *impact)
{
    struct ndp_subnet_need *need;
    size_t i;

    ndp_buf_adds(json, ",\"subnets\":[");
    if (impact->addressing == NDP_ADDRESSING_UNKNOWN || !impact->nr_subnets) {
        ndp_buf_adds(json, "]");
        return;
    }
    need = ndp_xcalloc(impact->nr_subnets, sizeof(*need));
    ndp_rollout_subnet_needs(need, impact);
    for (i = 0; i < impact->nr_subnets; i++) {
        const struct ndp_subnet *sn = impact->subnets[i];
        ndp_buf_adds(json, i ? ",{\"address\":" : "{\"address\":");
        ndp_buf_add_json_string(json, sn->address);
        ndp_buf_adds(json, ",\"id\":");
        ndp_buf_add_json_string(json, sn->id);
        ndp_buf_adds(json, ",\"prefixes\":");
        ndp_buf_add_json_string(json, sn->sensitive ? "(sensitive)"
                                                    : sn->prefixes);
        ndp_buf_adds(json, ",\"usable_addresses\":");
        add_number(json, sn->sensitive ? -1 : sn->usable);
        ndp_buf_adds(json, ",\"addresses_at_peak\":");
        add_number(json, need[i].addresses);
        ndp_buf_adds(json, "}");
        ndp_buf_addf(text, "; subnet %s (", sn->address);
        if (sn->sensitive)
            ndp_buf_adds(text, "its size is sensitive");
        else
            ndp_buf_addf(text, "%s, %ld usable addresses", sn->prefixes,
                         sn->usable);
        if (need[i].addresses < 0)
            ndp_buf_adds(text, "): the addresses its pools take at the peak "
                               "cannot be counted");
        else
            ndp_buf_addf(text, "): its pools take at least %ld addresses at "
                         "the peak, %s", need[i].addresses,
                         impact->addressing == NDP_ADDRESSING_NODE_AND_PODS
                             ? "(nodes + surge) \xc3\x97 (1 + maxPods) under "
                               "Azure CNI"
                             : "nodes + surge under Azure CNI Overlay or "
                               "kubenet");
    }
    ndp_buf_adds(json, "]");
    free(need);
}

/*
 * The pod disruption budgets that stop the drains (the drain check):
 * JSON ',"disruption_budgets":[{"name","pods","blocks","sure","bypassed",
 * "drain_timeout_minutes"}]' (an empty list when none; at most 50, and
 * "more_disruption_budgets" counts the rest) and text "; pod disruption
 * budget shop/web holds 3 pods and allows no disruption: a drain that
 * meets one of them waits 30 min and fails".
 */
static void budgets(struct ndp_buf *json, struct ndp_buf *text,
                    const struct ndp_impact *impact)
{
    size_t i;

    ndp_buf_adds(json, ",\"disruption_budgets\":[");
    for (i = 0; i < impact->nr_budgets; i++) {
        const struct ndp_impact_budget *b = &impact->budgets[i];
        ndp_buf_adds(json, i ? ",{\"name\":" : "{\"name\":");
        ndp_buf_add_json_string(json, b->name);
        ndp_buf_adds(json, ",\"pods\":");
        add_number(json, b->pods);
        ndp_buf_addf(json, ",\"blocks\":\"%s\",\"sure\":%s,"
                     "\"bypassed\":%s,\"drain_timeout_minutes\":",
                     b->unsatisfiable ? "maxUnavailable 0" : "no disruption",
                     b->sure ? "true" : "false",
                     b->bypassed ? "true" : "false");
        add_number(json, b->unsatisfiable ? -1 : b->drain_minutes);
        ndp_buf_adds(json, "}");
        ndp_buf_addf(text, "; pod disruption budget %s", b->name);
        if (b->pods >= 0)
            ndp_buf_addf(text, " holds %ld pod%s and", b->pods,
                         b->pods == 1 ? "" : "s");
        if (b->bypassed)
            ndp_buf_addf(text, " %s, but force upgrade drains without "
                         "regard to it: its pods may all be evicted at once",
                         b->unsatisfiable ? "has maxUnavailable 0"
                                          : "allows no disruption");
        else if (b->unsatisfiable)
            ndp_buf_adds(text, b->sure
                                   ? " has maxUnavailable 0: AKS refuses an "
                                     "upgrade before any drain"
                                   : " has maxUnavailable 0: AKS refuses an "
                                     "upgrade before any drain if it sees "
                                     "the budget then");
        else
            ndp_buf_addf(text, " allows no disruption: a drain that meets "
                         "one of its pods waits %ld min and fails",
                         b->drain_minutes);
    }
    ndp_buf_adds(json, "]");
    if (impact->more_budgets) {
        ndp_buf_addf(json, ",\"more_disruption_budgets\":%zu",
                     impact->more_budgets);
        ndp_buf_addf(text, "; and %zu more pod disruption budget%s",
                     impact->more_budgets,
                     impact->more_budgets == 1 ? "" : "s");
    }
}

/*
 * "; up to 4 extra nodes at the peak": what quota must hold, and when
 * (rollout.h): for pools rebuilt in one phase "(these pools together, in
 * the cluster's own update)"; for two phases the peak's, then what the
 * other adds.
 */
static void extra_text(struct ndp_buf *text, const struct ndp_rollout *r)
{
    enum ndp_impact_phase other = r->peak == NDP_PHASE_CLUSTER
                                      ? NDP_PHASE_POOLS
                                      : NDP_PHASE_CLUSTER;

    if (!r->known)
        return;
    ndp_buf_addf(text, "; up to %ld extra node%s at the peak",
                 r->extra_nodes, r->extra_nodes == 1 ? "" : "s");
    if (!r->phase_pools[other]) {
        if (r->pools < 2)
            return;
        ndp_buf_adds(text, " (these pools together, ");
        ndp_rollout_phase_words(text, r->peak);
        ndp_buf_addch(text, ')');
        return;
    }
    ndp_buf_adds(text, ", ");
    ndp_rollout_phase_words(text, r->peak);
    ndp_buf_adds(text, " (");
    ndp_rollout_phase_words(text, other);
    ndp_buf_addf(text, ": up to %ld)", r->phase_extra[other]);
}

/* Both descriptions of an impact, written side by side in one pass. */
static void describe(struct ndp_buf *json, struct ndp_buf *text,
                     const struct ndp_impact *impact)
{
    long total = 0;
    bool known = true, first = true;
    struct ndp_rollout r;
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
    ndp_rollout_size(&r, impact, false);
    extra_text(text, &r);
    describe_created(json, text, impact);
    subnets(json, text, impact);
    budgets(json, text, impact);
    rollout_json(json, &r, impact);
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

/* How many clusters' impacts rebuild pools. */
static size_t clusters_rebuilding(const struct ndp_impacts *impacts)
{
    size_t i, nr = 0;

    for (i = 0; i < impacts->nr; i++)
        nr += impacts->items[i].rebuilds;
    return nr;
}

void ndp_report_plan_extra_json(struct ndp_buf *out,
                                const struct ndp_impacts *impacts)
{
    add_number(out, ndp_rollout_plan_extra_nodes(impacts));
}

void ndp_report_plan_extra_words(struct ndp_buf *out,
                                 const struct ndp_impacts *impacts)
{
    size_t nr = clusters_rebuilding(impacts);
    long extra = ndp_rollout_plan_extra_nodes(impacts);

    if (nr < 2)
        return;
    ndp_buf_addf(out, "pools of %zu clusters are rebuilt: ", nr);
    if (extra < 0)
        ndp_buf_adds(out, "their extra nodes at the peak cannot be counted "
                          "(a node count is unknown or sensitive)");
    else
        ndp_buf_addf(out, "up to %ld extra node%s at the peak, all of them "
                     "together (what the quota of their subscription and "
                     "region must hold)", extra, extra == 1 ? "" : "s");
}
