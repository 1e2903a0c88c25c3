/*
 * SPDX-License-Identifier: Apache-2.0
 * check_upgrade.c - what AKS or azurerm refuses of a node pool's upgrade
 * settings and rotation when the apply sends them (put-time-limits
 * PT-UPG-01...08, PT-ROT-02), judged after the verdicts from the changes'
 * facts: every pool the apply sends (struct ndp_pool_facts 'sent'), with
 * its values as the apply sends them.  A value read only from the live
 * cluster is never judged: the change does not send it.
 *
 * Only what the change sets is judged: every value of a pool the apply
 * creates or replaces, else the values that differ from those declared
 * before it (a check that reads two values, when either does).  azurerm
 * sends a pool's whole upgrade_settings block on any update of the pool,
 * and an ARM body sends again what it sent before; a value AKS already
 * holds and that the change leaves as it is was accepted once, and a
 * change of the pool's tags is no new refusal of it (issue #40).
 *
 * Severity follows the settled readings of the spec: refused (error)
 * where AKS's refusal is documented, the message saying which part is
 * inferred (azurerm's own behaviour read from its code) or unconfirmed
 * (the error code); may-refuse (warning) where the refusal itself is
 * unconfirmed.  What azurerm refuses at plan time (a soak time outside
 * 0-30, surge settings on a Spot pool) cannot be in an azurerm plan and
 * is judged in ARM bodies only.
 *
 * A template expression ("[parameters('maxSurge')]") is known only at
 * deployment and never judged.
 *
 * A what-if delta shows only what changes: a check that needs a value
 * beside the changed one (the pool's mode, its priority) says nothing
 * when the delta does not show it, and maxSurge 0 beside a maxUnavailable
 * the delta does not show is a may-refuse.
 *
 * Cost: one pass over the changes' pools and one over the hits.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "finding.h"
#include "impact.h"
#include "linker.h"
#include "rollout.h"
#include "rules.h"
#include "state.h"

/* One pool of one change, as the checks read it. */
struct pool_at {
    const struct ndp_evaluator *ev;
    const struct ndp_change *ch;
    const struct ndp_pool_facts *p;
    bool masked;        /* its values are under a sensitive mask */
};

/*
 * An ARM template expression ("[parameters('maxSurge')]"; "[[" escapes a
 * literal '['): its value is known only at deployment, so never judged.
 */
static bool is_expression(const char *v)
{
    size_t n = v ? strlen(v) : 0;

    return n >= 2 && v[0] == '[' && v[1] != '[' && v[n - 1] == ']';
}

/* A pool AKS gets anew: every value it sends is set by the change. */
static bool is_new_pool(const struct pool_at *at)
{
    return at->p->created || at->ch->action == NDP_ACTION_REPLACE;
}

/* The change sets a string value: a new pool's, or one it changes. */
static bool sets_text(const struct pool_at *at, const char *before,
                      const char *after)
{
    if (is_new_pool(at))
        return after != NULL;
    if (!before || !after)
        return before != after;
    return strcmp(before, after) != 0;
}

/* The same for a number ('has_*': declared on that side). */
static bool sets_number(const struct pool_at *at, bool has_before,
                        long before, bool has_after, long after)
{
    if (is_new_pool(at))
        return has_after;
    return has_before != has_after || (has_after && before != after);
}

/* The change sets maxSurge or maxUnavailable. */
static bool sets_surge(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;

    return sets_text(at, p->surge_before, p->max_surge) ||
           sets_text(at, p->unavailable_before, p->max_unavailable);
}

/* A value sent as 0 ("0", "0%"). */
static bool is_zero(const char *v)
{
    long n;
    enum ndp_amount_form f = ndp_rollout_amount(v, &n);

    return (f == NDP_AMOUNT_COUNT || f == NDP_AMOUNT_PERCENT) && n == 0;
}

/* A value of rule 'rule' as a finding shows it (emit.c's redaction). */
static void value_json(struct ndp_buf *out, const struct pool_at *at,
                       const struct ndp_rule *rule, const char *s, long n)
{
    if (s)
        ndp_emit_text(out, s, at->masked, rule);
    else
        ndp_emit_number(out, n != -1, n, at->masked || rule->secret);
}

/* A value as a message quotes it: 'x', or (sensitive). */
static void quote(struct ndp_buf *out, const struct pool_at *at,
                  const char *s)
{
    if (at->masked)
        ndp_buf_adds(out, "(sensitive)");
    else
        ndp_buf_addf(out, "'%s'", s);
}

/* "maxSurge" or "max_surge": the key a message names. */
static const char *key_of(const struct ndp_pool_facts *p,
                          enum ndp_pool_field field)
{
    const char *dot = strrchr(p->fields[field], '.');

    return dot ? dot + 1 : p->fields[field];
}

/* The one finding about pool 'at' at 'field'; nothing without its rule. */
struct check_finding {
    const char *id;
    enum ndp_verdict verdict;
    enum ndp_pool_field field;
    const char *before_s, *after_s; /* string values, or NULL */
    long before_n, after_n;         /* or numbers (-1: none) */
    const char *message;
};

static void add_finding(const struct pool_at *at,
                        const struct check_finding *cf)
{
    struct ndp_check_finding f;

    if (!ndp_check_begin(&f, at->ev, cf->id, at->ch))
        return;
    f.verdict = cf->verdict;
    f.pool = at->masked ? NULL : at->p->name;
    ndp_pool_field_path(&f.path, at->p, cf->field);
    value_json(&f.before, at, f.rule, cf->before_s, cf->before_n);
    value_json(&f.after, at, f.rule, cf->after_s, cf->after_n);
    ndp_buf_adds(&f.msg, cf->message);
    ndp_check_emit(&f, at->ev);
}

/* A string setting's finding: its value before and after. */
static void add_string_finding(const struct pool_at *at, const char *id,
                               enum ndp_verdict verdict,
                               enum ndp_pool_field field, const char *before,
                               const char *after, const char *message)
{
    struct check_finding cf = { id, verdict, field, before, after, -1, -1,
                                message };

    add_finding(at, &cf);
}

/* "in the pool 'x'" or nothing, for a message. */
static void in_pool(struct ndp_buf *msg, const struct pool_at *at)
{
    if (at->p->name && !at->masked)
        ndp_buf_addf(msg, " of node pool '%s'", at->p->name);
}

/* NDP701, NDP702: the form of maxSurge or maxUnavailable, a percentage
 * above 100%. */
static void check_form(const struct pool_at *at, enum ndp_pool_field field,
                       const char *value, const char *before)
{
    struct ndp_buf msg = NDP_BUF_INIT;
    const char *id = NULL, *words = NULL;
    enum ndp_verdict verdict = NDP_VERDICT_REFUSED;
    long n;
    enum ndp_amount_form form = ndp_rollout_amount(value, &n);

    if (is_expression(value) || !sets_text(at, before, value))
        return;
    if (form == NDP_AMOUNT_BAD) {
        id = "NDP701";
        verdict = NDP_VERDICT_MAY_REFUSE;
        words = " is neither a whole number ('5') nor a percentage "
                "('33%'), the two forms the AKS API takes: AKS probably "
                "refuses it (unconfirmed); write it in one of them";
    } else if (form == NDP_AMOUNT_PERCENT && n > 100) {
        id = "NDP702";
        words = " is above 100%, outside the 1-100% AKS takes: AKS "
                "refuses it (unconfirmed: documented range only); use at "
                "most '100%', which already takes the whole pool";
    }
    if (!id)
        return;
    ndp_buf_addf(&msg, "%s ", key_of(at->p, field));
    quote(&msg, at, value);
    in_pool(&msg, at);
    ndp_buf_adds(&msg, words);
    add_string_finding(at, id, verdict, field, before, value, msg.buf);
    ndp_buf_release(&msg);
}

/* A value sent as a count or a percentage above 0. */
static bool above_zero(const char *v)
{
    long n;
    enum ndp_amount_form f = ndp_rollout_amount(v, &n);

    return (f == NDP_AMOUNT_COUNT || f == NDP_AMOUNT_PERCENT) && n > 0;
}

/* A maxSurge declared as "0%" (not "0"). */
static bool is_zero_percent(const char *v)
{
    long n;

    return ndp_rollout_amount(v, &n) == NDP_AMOUNT_PERCENT && n == 0;
}

/*
 * NDP702: maxSurge "0%" is below the 1% AKS takes of a percentage.  AKS
 * documents maxSurge 0 beside a maxUnavailable above 0 (PT-UPG-01), and
 * "0%" is as many nodes as "0": that form passes.  Otherwise it is this
 * finding, not NDP703's (surge and unavailable both 0), so that one value
 * gives one finding.
 */
static void check_zero_percent(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    bool unseen = !p->unavailable_sent && at->ch->delta_only;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!is_zero_percent(p->max_surge) || above_zero(p->unavailable_sent) ||
        !sets_surge(at))
        return;
    ndp_buf_addf(&msg, "%s ", key_of(p, NDP_POOL_MAX_SURGE));
    quote(&msg, at, p->max_surge);
    in_pool(&msg, at);
    ndp_buf_adds(&msg, " is below 1%, outside the 1-100% AKS takes of a "
                 "percentage, and AKS takes maxSurge 0 only beside a "
                 "maxUnavailable above 0");
    if (unseen)
        ndp_buf_adds(&msg, ", which this what-if delta does not show: "
                     "unless the pool's maxUnavailable is above 0, AKS "
                     "refuses it");
    else
        ndp_buf_adds(&msg, ": AKS refuses it");
    ndp_buf_adds(&msg, " (unconfirmed: documented range only); set maxSurge "
                 "to '1%' or more (or a whole number above 0), or "
                 "maxUnavailable above 0 on a User pool");
    add_string_finding(at, "NDP702",
                       unseen ? NDP_VERDICT_MAY_REFUSE : NDP_VERDICT_REFUSED,
                       NDP_POOL_MAX_SURGE, p->surge_before, p->max_surge,
                       msg.buf);
    ndp_buf_release(&msg);
}

/*
 * NDP710: maxSurge and maxUnavailable both above 0, in an ARM body
 * (azurerm refuses it in terraform plan: ConflictsWith).  Until 2025 AKS
 * documented that maxSurge must be 0 for maxUnavailable to be set; the
 * preview fallback takes both, and whether a stable api-version does is
 * unconfirmed (PT-UPG-03): a may-refuse.
 */
static void check_both_above_zero(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (at->ch->notation != NDP_NOTATION_ARM ||
        !above_zero(p->surge_sent) || !above_zero(p->unavailable_sent) ||
        !sets_surge(at))
        return;
    ndp_buf_adds(&msg, "maxSurge ");
    quote(&msg, at, p->surge_sent);
    ndp_buf_adds(&msg, " and maxUnavailable ");
    quote(&msg, at, p->unavailable_sent);
    in_pool(&msg, at);
    ndp_buf_adds(&msg, " are both above 0: AKS documented until 2025 that "
                 "maxSurge must be 0 for maxUnavailable to be set, and "
                 "only its preview fallback is known to take both, so AKS "
                 "may refuse it (unconfirmed for stable api-versions); set "
                 "maxSurge to '0' to take nodes down with maxUnavailable, "
                 "or leave maxUnavailable out to add surge nodes");
    /* The path is the value the change sets, maxUnavailable when both. */
    if (sets_text(at, p->unavailable_before, p->max_unavailable))
        add_string_finding(at, "NDP710", NDP_VERDICT_MAY_REFUSE,
                           NDP_POOL_MAX_UNAVAILABLE, p->unavailable_before,
                           p->max_unavailable, msg.buf);
    else
        add_string_finding(at, "NDP710", NDP_VERDICT_MAY_REFUSE,
                           NDP_POOL_MAX_SURGE, p->surge_before, p->max_surge,
                           msg.buf);
    ndp_buf_release(&msg);
}

/*
 * NDP703: maxSurge 0 and maxUnavailable 0 (unset is 0) as the apply
 * sends them.  The path is the value the input declares: a max_surge, or
 * the max_unavailable azurerm sends a maxSurge "0" beside.
 */
static void check_both_zero(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    bool surge_declared = p->max_surge != NULL;
    enum ndp_pool_field field = surge_declared ? NDP_POOL_MAX_SURGE
                                               : NDP_POOL_MAX_UNAVAILABLE;
    enum ndp_verdict verdict = NDP_VERDICT_REFUSED;
    struct ndp_buf msg = NDP_BUF_INIT;

    /* maxSurge "0%" is NDP702's (check_zero_percent()). */
    if (!is_zero(p->surge_sent) || is_zero_percent(p->max_surge) ||
        (p->unavailable_sent && !is_zero(p->unavailable_sent)) ||
        !sets_surge(at))
        return;
    ndp_buf_addf(&msg, "%s ", key_of(p, field));
    quote(&msg, at, surge_declared ? p->max_surge : p->max_unavailable);
    in_pool(&msg, at);
    if (!surge_declared)
        ndp_buf_adds(&msg, ": azurerm sends maxSurge '0' beside it, so "
                     "neither adds a node nor takes one down");
    else if (p->unavailable_sent)
        ndp_buf_adds(&msg, " with maxUnavailable 0 adds no node and takes "
                     "none down");
    else if (at->ch->delta_only)
        ndp_buf_adds(&msg, ": what-if shows only the delta, and "
                     "maxUnavailable is not in it");
    else if (at->ch->notation == NDP_NOTATION_AZURERM)
        ndp_buf_adds(&msg, ": azurerm sends it without maxUnavailable, "
                     "which AKS reads as 0 (inferred: default_node_pool "
                     "has no max_unavailable)");
    else
        ndp_buf_adds(&msg, " without maxUnavailable (0 by default) adds "
                     "no node and takes none down");
    if (surge_declared && !p->unavailable_sent && at->ch->delta_only) {
        verdict = NDP_VERDICT_MAY_REFUSE;
        ndp_buf_adds(&msg, "; unless the pool's maxUnavailable is above 0, "
                     "AKS refuses it");
    } else {
        ndp_buf_adds(&msg, "; AKS refuses it: when maxUnavailable is 0 it "
                     "requires maxSurge above 0 (error code unconfirmed)");
    }
    ndp_buf_adds(&msg, "; set maxSurge to at least 1 (or a percentage), or "
                 "maxUnavailable above 0 on a User pool");
    add_string_finding(at, "NDP703", verdict, field,
                       surge_declared ? p->surge_before
                                      : p->unavailable_before,
                       surge_declared ? p->max_surge : p->max_unavailable,
                       msg.buf);
    ndp_buf_release(&msg);
}

/* NDP704: maxUnavailable above 0 on a System pool. */
static void check_system_unavailable(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!p->mode || ndp_strcasecmp(p->mode, "System") != 0 ||
        !p->max_unavailable || is_zero(p->max_unavailable) ||
        is_expression(p->max_unavailable) ||
        !(sets_text(at, p->mode_before, p->mode) ||
          sets_text(at, p->unavailable_before, p->max_unavailable)))
        return;
    ndp_buf_addf(&msg, "%s ", key_of(p, NDP_POOL_MAX_UNAVAILABLE));
    quote(&msg, at, p->max_unavailable);
    ndp_buf_adds(&msg, " on System node pool");
    if (p->name && !at->masked)
        ndp_buf_addf(&msg, " '%s'", p->name);
    ndp_buf_adds(&msg, ": AKS does not allow maxUnavailable on System "
                 "pools and refuses it (error code unconfirmed)");
    if (at->ch->notation == NDP_NOTATION_AZURERM)
        ndp_buf_adds(&msg, "; azurerm does not check it (inferred from its "
                     "code)");
    ndp_buf_adds(&msg, "; use maxSurge on a System pool, or make the pool "
                 "a User pool");
    add_string_finding(at, "NDP704", NDP_VERDICT_REFUSED,
                       NDP_POOL_MAX_UNAVAILABLE, p->unavailable_before,
                       p->max_unavailable, msg.buf);
    ndp_buf_release(&msg);
}

/* A number setting's finding, 'what' naming it in the message. */
static void add_number_finding(const struct pool_at *at, const char *id,
                               enum ndp_pool_field field, long before,
                               long after, const char *what)
{
    struct ndp_buf msg = NDP_BUF_INIT;
    struct check_finding cf = { id, NDP_VERDICT_REFUSED, field, NULL, NULL,
                                before, after, NULL };

    ndp_buf_addf(&msg, "%s ", key_of(at->p, field));
    if (at->masked)
        ndp_buf_adds(&msg, "(sensitive)");
    else
        ndp_buf_addf(&msg, "%ld", after);
    in_pool(&msg, at);
    ndp_buf_adds(&msg, what);
    cf.message = msg.buf;
    add_finding(at, &cf);
    ndp_buf_release(&msg);
}

/* NDP705, NDP706: drain timeout and node soak time out of range. */
static void check_minutes(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;

    /* 0 is how azurerm sends an unset drain timeout; AKS takes it so. */
    if (p->has_drain && p->drain_minutes != 0 &&
        (p->drain_minutes < 5 || p->drain_minutes > 1440) &&
        sets_number(at, p->has_drain_before, p->drain_minutes_before,
                    p->has_drain, p->drain_minutes))
        add_number_finding(at, "NDP705", NDP_POOL_DRAIN_TIMEOUT,
                           p->drain_minutes_before, p->drain_minutes,
                           " is outside 5-1440 minutes: AKS refuses it (it "
                           "validates at least 5 minutes since 2024-08, "
                           "though the API schema says 1; error text "
                           "unconfirmed); use 5-1440, 30 being the default");
    if (at->ch->notation == NDP_NOTATION_ARM && p->has_soak &&
        (p->soak_minutes < 0 || p->soak_minutes > 30) &&
        sets_number(at, p->has_soak_before, p->soak_minutes_before,
                    p->has_soak, p->soak_minutes))
        add_number_finding(at, "NDP706", NDP_POOL_SOAK_DURATION,
                           p->soak_minutes_before, p->soak_minutes,
                           " is outside 0-30 minutes, the range the AKS "
                           "API takes: AKS refuses it (azurerm refuses it "
                           "in terraform plan); use 0-30");
}

/*
 * NDP707: an undrainable node behaviour other than Schedule or Cordon,
 * each in the words of PT-UPG-06 (and PT-DRN-02: neither rescues the
 * operation for the nodes it could not drain).
 */
static void check_undrainable(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!p->undrainable || ndp_strcasecmp(p->undrainable, "Cordon") == 0 ||
        ndp_strcasecmp(p->undrainable, "Schedule") == 0 ||
        is_expression(p->undrainable) ||
        !sets_text(at, p->undrainable_before, p->undrainable))
        return;
    ndp_buf_addf(&msg, "%s ", key_of(p, NDP_POOL_UNDRAINABLE));
    quote(&msg, at, p->undrainable);
    in_pool(&msg, at);
    ndp_buf_adds(&msg, " is neither Schedule nor Cordon, the two values "
                 "AKS knows: AKS refuses it; use Schedule (the default: "
                 "AKS deletes a node it cannot drain and surges a "
                 "replacement) or Cordon (AKS labels the node "
                 "kubernetes.azure.com/upgrade-status=Quarantined), "
                 "either of which ends the operation Failed or Canceled "
                 "for the nodes it could not drain");
    add_string_finding(at, "NDP707", NDP_VERDICT_REFUSED,
                       NDP_POOL_UNDRAINABLE, p->undrainable_before,
                       p->undrainable, msg.buf);
    ndp_buf_release(&msg);
}

/* NDP708: maxSurge or maxUnavailable on a Spot pool (ARM bodies). */
static void check_spot(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    bool surge = p->max_surge != NULL;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (at->ch->notation != NDP_NOTATION_ARM || !p->priority ||
        ndp_strcasecmp(p->priority, "Spot") != 0 ||
        (!p->max_surge && !p->max_unavailable) ||
        is_expression(surge ? p->max_surge : p->max_unavailable) ||
        !sets_surge(at))
        return;
    ndp_buf_addf(&msg, "%s ", surge ? "maxSurge" : "maxUnavailable");
    quote(&msg, at, surge ? p->max_surge : p->max_unavailable);
    ndp_buf_adds(&msg, " on Spot node pool");
    if (p->name && !at->masked)
        ndp_buf_addf(&msg, " '%s'", p->name);
    ndp_buf_adds(&msg, ": Spot pools upgrade without surge nodes and "
                 "without drain, and AKS refuses or ignores surge settings "
                 "for them (unconfirmed which; azurerm refuses them in "
                 "terraform plan); leave upgradeSettings' maxSurge and "
                 "maxUnavailable out of a Spot pool");
    add_string_finding(at, "NDP708", NDP_VERDICT_MAY_REFUSE,
                       surge ? NDP_POOL_MAX_SURGE : NDP_POOL_MAX_UNAVAILABLE,
                       surge ? p->surge_before : p->unavailable_before,
                       surge ? p->max_surge : p->max_unavailable, msg.buf);
    ndp_buf_release(&msg);
}

/* ---- the size of a System pool (PT-UPG-08) ---- */

static bool is_system(const char *mode)
{
    return mode && ndp_strcasecmp(mode, "System") == 0;
}

/* The change sets the pool's mode, count, minimum or autoscaling. */
static bool sets_size(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;

    return sets_text(at, p->mode_before, p->mode) ||
           sets_number(at, p->count_before >= 0, p->count_before,
                       p->count >= 0, p->count) ||
           sets_number(at, p->min_count_before >= 0, p->min_count_before,
                       p->min_count >= 0, p->min_count) ||
           p->autoscale != p->autoscale_before;
}

/*
 * NDP713: a System pool sent with no node.  AKS keeps a System pool at
 * 1-1000 nodes (a User pool may have 0); an autoscaled one whose minimum
 * is 0 could be taken there (inferred: the range holds for the
 * autoscaler's minimum too).  The azurerm default pool is the cluster's
 * System pool.  A what-if delta that does not show the mode says nothing.
 */
static void check_system_count(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    bool by_min = p->count != 0;
    bool default_pool = at->ch->notation == NDP_NOTATION_AZURERM &&
                        at->ch->kind == NDP_KIND_CLUSTER;
    enum ndp_pool_field field = by_min ? NDP_POOL_MIN_COUNT : NDP_POOL_COUNT;
    struct ndp_buf msg = NDP_BUF_INIT;
    struct check_finding cf = { "NDP713", NDP_VERDICT_REFUSED, field, NULL,
                                NULL, -1, 0, NULL };

    if (!is_system(p->mode) || (by_min && !(p->autoscale &&
                                            p->min_count == 0)) ||
        !sets_size(at))
        return;
    cf.before_n = by_min ? p->min_count_before : p->count_before;
    ndp_buf_addf(&msg, "%s %s", key_of(p, field),
                 at->masked ? "(sensitive)" : "0");
    ndp_buf_adds(&msg, by_min ? " of autoscaled System node pool"
                              : " of System node pool");
    if (p->name && !at->masked)
        ndp_buf_addf(&msg, " '%s'", p->name);
    if (by_min)
        ndp_buf_addf(&msg, " lets the autoscaler take it to no node, below "
                     "the 1-1000 nodes AKS keeps a System pool at (only a "
                     "User pool may have 0): AKS refuses it (inferred: the "
                     "range holds for the autoscaler's minimum too); set "
                     "%s to at least 1", key_of(p, field));
    else
        ndp_buf_addf(&msg, " is outside the 1-1000 nodes AKS keeps a "
                     "System pool at (only a User pool may have 0): AKS "
                     "refuses it; set %s to at least 1", key_of(p, field));
    if (default_pool)
        ndp_buf_adds(&msg, " (the default node pool is the cluster's "
                     "System pool)");
    else
        ndp_buf_adds(&msg, ", or make the pool a User pool while another "
                     "pool of the cluster is System");
    cf.message = msg.buf;
    add_finding(at, &cf);
    ndp_buf_release(&msg);
}

/* ---- maxBlockedNodes (a preview setting, ARM bodies only) ---- */

/* A count, or a percentage (capped at 100%) of 'nodes' rounded up. */
static long nodes_of(enum ndp_amount_form form, long n, long nodes)
{
    if (form == NDP_AMOUNT_COUNT)
        return n;
    if (n > 100)
        n = 100;
    return nodes / 100 * n + (nodes % 100 * n + 99) / 100;
}

/*
 * Whether maxBlockedNodes 'blocked' is below maxSurge 'surge': compared
 * as written when both are counts or both percentages, else in nodes of
 * a pool of 'nodes' (-1: unknown, and nothing is said).
 */
static bool below_surge(const char *blocked, const char *surge, long nodes,
                        long *blocked_nodes, long *surge_nodes)
{
    long b, s;
    enum ndp_amount_form bf = ndp_rollout_amount(blocked, &b);
    enum ndp_amount_form sf = ndp_rollout_amount(surge, &s);

    *blocked_nodes = *surge_nodes = -1;
    if ((bf != NDP_AMOUNT_COUNT && bf != NDP_AMOUNT_PERCENT) ||
        (sf != NDP_AMOUNT_COUNT && sf != NDP_AMOUNT_PERCENT))
        return false;
    if (bf == sf)
        return b < s;
    if (nodes < 0)
        return false;
    *blocked_nodes = nodes_of(bf, b, nodes);
    *surge_nodes = nodes_of(sf, s, nodes);
    return *blocked_nodes < *surge_nodes;
}

/*
 * NDP711: maxBlockedNodes below the maxSurge the body sends (the API
 * says it "must always be greater than or equal to maxSurge", PT-UPG-06).
 * Without a maxSurge in the body nothing is said: the default it takes
 * depends on the pool's version and size.
 */
static void check_blocked_below_surge(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    struct ndp_buf msg = NDP_BUF_INIT;
    long blocked_nodes, surge_nodes;

    if (at->ch->notation != NDP_NOTATION_ARM || !p->max_blocked ||
        !p->max_surge || is_expression(p->max_blocked) ||
        is_expression(p->max_surge) ||
        !below_surge(p->max_blocked, p->max_surge, p->count,
                     &blocked_nodes, &surge_nodes) ||
        !(sets_text(at, p->max_blocked_before, p->max_blocked) ||
          sets_text(at, p->surge_before, p->max_surge)))
        return;
    ndp_buf_adds(&msg, "maxBlockedNodes ");
    quote(&msg, at, p->max_blocked);
    in_pool(&msg, at);
    if (blocked_nodes >= 0 && !at->masked)
        ndp_buf_addf(&msg, " (%ld of its %ld nodes)", blocked_nodes,
                     p->count);
    ndp_buf_adds(&msg, " is below its maxSurge ");
    quote(&msg, at, p->max_surge);
    if (surge_nodes >= 0 && !at->masked)
        ndp_buf_addf(&msg, " (%ld nodes)", surge_nodes);
    ndp_buf_adds(&msg, ", and AKS requires maxBlockedNodes to be at least "
                 "maxSurge: AKS refuses it (error code unconfirmed; "
                 "maxBlockedNodes is a preview setting); set "
                 "maxBlockedNodes to at least ");
    quote(&msg, at, p->max_surge);
    ndp_buf_adds(&msg, ", or leave it out (it defaults to maxSurge)");
    add_string_finding(at, "NDP711", NDP_VERDICT_REFUSED,
                       NDP_POOL_MAX_BLOCKED, p->max_blocked_before,
                       p->max_blocked, msg.buf);
    ndp_buf_release(&msg);
}

/*
 * NDP712: maxBlockedNodes sent without undrainableNodeBehavior, which it
 * requires (PT-UPG-06).  A what-if delta that does not show the
 * behaviour (neither set nor removed) may leave one the pool has: a
 * may-refuse.
 */
static void check_blocked_alone(const struct pool_at *at)
{
    const struct ndp_pool_facts *p = at->p;
    bool unseen = at->ch->delta_only && !p->undrainable_before;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (at->ch->notation != NDP_NOTATION_ARM || !p->max_blocked ||
        p->undrainable || is_expression(p->max_blocked) ||
        !(sets_text(at, p->max_blocked_before, p->max_blocked) ||
          sets_text(at, p->undrainable_before, p->undrainable)))
        return;
    ndp_buf_adds(&msg, "maxBlockedNodes ");
    quote(&msg, at, p->max_blocked);
    in_pool(&msg, at);
    if (unseen)
        ndp_buf_adds(&msg, " is in this what-if delta without "
                     "undrainableNodeBehavior, which AKS requires beside "
                     "it: unless the pool already has one, AKS refuses it");
    else
        ndp_buf_adds(&msg, " is sent without undrainableNodeBehavior, "
                     "which AKS requires beside it: AKS refuses it");
    ndp_buf_adds(&msg, " (error code unconfirmed; maxBlockedNodes is a "
                 "preview setting); set undrainableNodeBehavior to "
                 "Schedule or Cordon, or leave maxBlockedNodes out");
    add_string_finding(at, "NDP712",
                       unseen ? NDP_VERDICT_MAY_REFUSE : NDP_VERDICT_REFUSED,
                       NDP_POOL_MAX_BLOCKED, p->max_blocked_before,
                       p->max_blocked, msg.buf);
    ndp_buf_release(&msg);
}

static void check_pool(const struct pool_at *at)
{
    check_form(at, NDP_POOL_MAX_SURGE, at->p->max_surge,
               at->p->surge_before);
    check_form(at, NDP_POOL_MAX_UNAVAILABLE, at->p->max_unavailable,
               at->p->unavailable_before);
    check_zero_percent(at);
    check_both_zero(at);
    check_both_above_zero(at);
    check_system_unavailable(at);
    check_minutes(at);
    check_undrainable(at);
    check_spot(at);
    check_blocked_below_surge(at);
    check_blocked_alone(at);
    check_system_count(at);
}

/* ---- NDP504: a rotation without temporary_name_for_rotation ---- */

/* The pool an azurerm change rotates: its one kept pool. */
static const struct ndp_pool_facts *rotated_pool(const struct ndp_change *ch)
{
    size_t i;

    for (i = 0; i < ch->facts.nr_pools; i++)
        if (!ch->facts.pools[i].deleted)
            return &ch->facts.pools[i];
    return NULL;
}

static void rotation_finding(const struct ndp_evaluator *ev, size_t change,
                             const struct ndp_hit *h, bool known,
                             bool upgrades_control_plane)
{
    const struct ndp_change *ch = ev->set->items[change];
    const struct ndp_pool_facts *p = rotated_pool(ch);
    struct pool_at at = { ev, ch, p, ev->pools_masked[change] };
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!p || p->rotation_name || p->rotation_name_unknown || !p->fields ||
        !p->fields[NDP_POOL_ROTATION_NAME])
        return;
    ndp_buf_addf(&msg, "%s %s azurerm rotate node pool", h->path,
                 known ? "makes" : "may make (its new value is known only "
                                   "after apply)");
    if (p->name && !at.masked)
        ndp_buf_addf(&msg, " '%s'", p->name);
    ndp_buf_adds(&msg, ", but temporary_name_for_rotation is empty: azurerm "
                 "fails the apply ('temporary_name_for_rotation must be "
                 "specified when updating any of the following "
                 "properties')");
    if (ch->kind == NDP_KIND_CLUSTER)
        ndp_buf_addf(&msg, " only after it has sent the cluster's other "
                     "changes%s, so the control plane may already have "
                     "been updated when the apply stops",
                     upgrades_control_plane ? " (its kubernetes_version "
                                              "upgrade among them)" : "");
    else
        ndp_buf_adds(&msg, " before it sends anything for this pool");
    ndp_buf_adds(&msg, "; set temporary_name_for_rotation to a free pool "
                 "name (lowercase letters and digits, up to 12)");
    add_string_finding(&at, "NDP504",
                       known ? NDP_VERDICT_REFUSED : NDP_VERDICT_MAY_REFUSE,
                       NDP_POOL_ROTATION_NAME, NULL, NULL, msg.buf);
    ndp_buf_release(&msg);
}

/*
 * A pool of the cluster of 'ch' other than 'self' named 'name', in the
 * input or in live state: where it is declared ("the plan",
 * "--cluster-state"), or NULL when none is.  A pool the apply deletes
 * frees its name (Terraform destroys a pool resource before it updates
 * the cluster it depends on).
 */
static const char *pool_named(const struct ndp_evaluator *ev,
                              const struct ndp_change *ch,
                              const struct ndp_pool_facts *self,
                              const char *name)
{
    const struct ndp_state_cluster *st =
        ev->resolved->items[ch->cluster].state;
    const struct ndp_change *other;
    size_t k, i;

    for (k = 0; (other = ndp_evaluator_change(ev, ch->cluster, k)); k++)
        for (i = 0; i < other->facts.nr_pools; i++) {
            const struct ndp_pool_facts *p = &other->facts.pools[i];
            if (p == self || !p->name || ndp_strcasecmp(p->name, name) != 0)
                continue;
            if (p->deleted || other->action == NDP_ACTION_DELETE)
                return NULL;
            return "the plan";
        }
    for (i = 0; st && i < st->nr_pools; i++)
        if (st->pools[i].name && (!self->name ||
                                  ndp_strcasecmp(st->pools[i].name,
                                                 self->name) != 0) &&
            ndp_strcasecmp(st->pools[i].name, name) == 0)
            return "--cluster-state";
    return NULL;
}

/*
 * PT-ROT-04: a rotation whose temporary_name_for_rotation is the name of
 * another pool of the cluster.  azurerm finds that pool, creates no
 * temporary pool, deletes and recreates the rotated one (every node of
 * it gone at once), and at the end deletes the pool bearing the name.
 */
static void rotation_name_taken(const struct ndp_evaluator *ev,
                                size_t change, const struct ndp_hit *h)
{
    const struct ndp_change *ch = ev->set->items[change];
    const struct ndp_pool_facts *p = rotated_pool(ch);
    struct pool_at at = { ev, ch, p, ev->pools_masked[change] };
    const char *where;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!p || !p->rotation_name || !p->fields ||
        !p->fields[NDP_POOL_ROTATION_NAME] ||
        !(where = pool_named(ev, ch, p, p->rotation_name)))
        return;
    ndp_buf_addf(&msg, "%s makes azurerm rotate node pool", h->path);
    if (p->name && !at.masked)
        ndp_buf_addf(&msg, " '%s'", p->name);
    ndp_buf_adds(&msg, " through temporary_name_for_rotation ");
    quote(&msg, &at, p->rotation_name);
    ndp_buf_addf(&msg, ", the name of another node pool of the cluster "
                 "(%s): azurerm takes that pool for its temporary pool, "
                 "so it creates none, deletes and recreates the rotated "
                 "pool with all of its nodes at once, and at the end of the "
                 "apply deletes the pool named ", where);
    quote(&msg, &at, p->rotation_name);
    ndp_buf_adds(&msg, " with its workloads; set temporary_name_for_rotation "
                 "to a name no pool of the cluster has");
    add_string_finding(&at, "NDP505", NDP_VERDICT_REFUSED,
                       NDP_POOL_ROTATION_NAME, p->rotation_name,
                       p->rotation_name, msg.buf);
    ndp_buf_release(&msg);
}

/*
 * Per azurerm pool update with a rotation hit: the first known one, else
 * the first (whose new value is known only after apply).
 */
static void check_rotations(const struct ndp_evaluator *ev)
{
    size_t i, n = ev->set->nr ? ev->set->nr : 1;
    const struct ndp_hit **first = ndp_xcalloc(n, sizeof(*first));
    bool *control_plane = ndp_xcalloc(n, sizeof(*control_plane));

    for (i = 0; i < ev->hits->nr; i++) {
        const struct ndp_hit *h = &ev->hits->items[i];
        if (h->rule->class_ == NDP_CLASS_UPGRADE &&
            h->rule->scope == NDP_SCOPE_CLUSTER)
            control_plane[h->change] = true;
        if (h->rule->class_ != NDP_CLASS_ROTATE ||
            ev->set->items[h->change]->action != NDP_ACTION_UPDATE)
            continue;
        if (!first[h->change] ||
            (first[h->change]->after_unknown && !h->after_unknown))
            first[h->change] = h;
    }
    for (i = 0; i < ev->set->nr; i++) {
        if (!first[i])
            continue;
        rotation_finding(ev, i, first[i], !first[i]->after_unknown,
                         control_plane[i]);
        if (!first[i]->after_unknown)
            rotation_name_taken(ev, i, first[i]);
    }
    free(first);
    free(control_plane);
}

void ndp_check_upgrade(const struct ndp_evaluator *ev)
{
    size_t i, k;

    for (i = 0; i < ev->set->nr; i++) {
        const struct ndp_change *ch = ev->set->items[i];
        for (k = 0; k < ch->facts.nr_pools; k++) {
            struct pool_at at = { ev, ch, &ch->facts.pools[k],
                                  ev->pools_masked[i] };
            if (at.p->sent && at.p->fields)
                check_pool(&at);
        }
    }
    check_rotations(ev);
}

/* ---- NDP709: a subnet too small for the rebuild (PT-CAP-02) ---- */

static void subnet_finding(const struct ndp_evaluator *ev, size_t cluster,
                           const struct ndp_subnet *sn,
                           const struct ndp_subnet_need *need,
                           enum ndp_addressing addressing)
{
    bool pods = addressing == NDP_ADDRESSING_NODE_AND_PODS;
    struct ndp_check_finding f;
    struct ndp_buf *msg = &f.msg;

    if (!ndp_check_begin_cluster(&f, ev, "NDP709", cluster))
        return;
    ndp_buf_adds(&f.path, sn->address);
    ndp_buf_addf(msg, "the cluster's pools in subnet %s take at least %ld "
                 "addresses %s at the peak of this apply", sn->address,
                 need->addresses,
                 pods ? "under Azure CNI, (nodes + surge) \xc3\x97 "
                        "(1 + maxPods),"
                      : "under Azure CNI Overlay or kubenet, one a node "
                        "(nodes + surge: the pods' addresses are not the "
                        "subnet's),");
    if (need->phases) {
        /* Which pools surge together (PT-K8S-06) tells what to change. */
        ndp_buf_adds(msg, " (");
        ndp_rollout_phase_words(msg, need->peak);
        ndp_buf_adds(msg, ")");
    }
    ndp_buf_adds(msg, ", ");
    if (sn->sensitive)
        ndp_buf_adds(msg, "more than the subnet holds (its prefixes are "
                     "sensitive)");
    else
        ndp_buf_addf(msg, "more than the %ld usable addresses of %s",
                     sn->usable, sn->prefixes);
    ndp_buf_adds(msg, ": AKS checks the subnet before it rolls the nodes "
                 "and refuses the change with InsufficientSubnetSize (or "
                 "fails it midway with SubnetIsFull), and the addresses "
                 "already in use, which the plan does not show, only make "
                 "it worse; ");
    ndp_buf_adds(msg, pods ? "widen the subnet, lower maxPods or the pools' "
                             "maxSurge (maxUnavailable adds no node), or "
                             "move to Azure CNI Overlay"
                           : "widen the subnet, or lower the pools' "
                             "maxSurge (maxUnavailable adds no node)");
    ndp_check_emit(&f, ev);
}

void ndp_check_subnets(const struct ndp_evaluator *ev,
                       const struct ndp_impacts *impacts)
{
    size_t i, k;

    for (i = 0; i < impacts->nr; i++) {
        const struct ndp_impact *im = &impacts->items[i];
        struct ndp_subnet_need *need;

        if (!im->rebuilds || im->addressing == NDP_ADDRESSING_UNKNOWN ||
            !im->nr_subnets)
            continue;
        need = ndp_xcalloc(im->nr_subnets, sizeof(*need));
        ndp_rollout_subnet_needs(need, im);
        for (k = 0; k < im->nr_subnets; k++)
            if (need[k].addresses >= 0 && im->subnets[k]->usable >= 0 &&
                need[k].addresses > im->subnets[k]->usable)
                subnet_finding(ev, i, im->subnets[k], &need[k],
                               im->addressing);
        free(need);
    }
}
