/*
 * SPDX-License-Identifier: Apache-2.0
 * overrides.c - severity overrides from the settings file (see
 * overrides.h).
 *
 * Cost: the rule overrides are sorted once and each finding looks its rule
 * up by binary search, its verdict in a table: O((O + F) log O) for O
 * overrides and F findings, whatever the file holds.
 */
#include "common.h"
#include "overrides.h"
#include "buf.h"
#include "config.h"
#include "error.h"
#include "finding.h"
#include "rules.h"
#include "strutil.h"

/* Verdict table size: larger than the last enum ndp_verdict. */

static int compare_rules(const void *pa, const void *pb)
{
    const struct ndp_override *a = *(const struct ndp_override *const *)pa;
    const struct ndp_override *b = *(const struct ndp_override *const *)pb;
    int d = ndp_strcasecmp(a->rule, b->rule);

    if (d)
        return d;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* For the lookup: rule ids alone (no two overrides share one). */
static int compare_ids(const void *pa, const void *pb)
{
    const struct ndp_override *a = *(const struct ndp_override *const *)pa;
    const struct ndp_override *b = *(const struct ndp_override *const *)pb;

    return ndp_strcasecmp(a->rule, b->rule);
}

/* The rule overrides of 'config', sorted by rule id then position. */
static const struct ndp_override **sorted_rules(const struct ndp_config *c,
                                                size_t *nr)
{
    const struct ndp_override **out =
        ndp_xcalloc(c->nr_overrides ? c->nr_overrides : 1, sizeof(*out));
    size_t i;

    *nr = 0;
    for (i = 0; i < c->nr_overrides; i++)
        if (c->overrides[i].rule)
            out[(*nr)++] = &c->overrides[i];
    qsort(out, *nr, sizeof(*out), compare_rules);
    return out;
}

int ndp_overrides_check(const struct ndp_config *config,
                        const struct ndp_ruleset *rs, struct ndp_error *err)
{
    const struct ndp_override *by_verdict[NDP_VERDICT_COUNT] = { NULL };
    const struct ndp_override **rules;
    size_t i, nr;
    int rc = 0;

    for (i = 0; i < config->nr_overrides; i++) {
        const struct ndp_override *v = &config->overrides[i];
        if (v->rule && !ndp_ruleset_find(rs, v->rule))
            return ndp_error_set(err, NDP_ECONFIG, "config '%s': "
                                 "severity_overrides[%zu].rule: no rule "
                                 "'%s' (see ndplint --list-rules)",
                                 config->path, v->index, v->rule);
        if (v->rule)
            continue;
        if (by_verdict[v->verdict])
            return ndp_error_set(err, NDP_ECONFIG, "config '%s': "
                                 "severity_overrides[%zu]: verdict '%s' is "
                                 "already overridden by "
                                 "severity_overrides[%zu]", config->path,
                                 v->index, ndp_verdict_name(v->verdict),
                                 by_verdict[v->verdict]->index);
        by_verdict[v->verdict] = v;
    }
    rules = sorted_rules(config, &nr);
    for (i = 1; i < nr && !rc; i++)
        if (ndp_strcasecmp(rules[i - 1]->rule, rules[i]->rule) == 0)
            rc = ndp_error_set(err, NDP_ECONFIG, "config '%s': "
                               "severity_overrides[%zu]: rule '%s' is "
                               "already overridden by "
                               "severity_overrides[%zu]", config->path,
                               rules[i]->index, rules[i]->rule,
                               rules[i - 1]->index);
    free(rules);
    return rc;
}

static void apply(struct ndp_finding *f, const struct ndp_config *config,
                  const struct ndp_override *v)
{
    enum ndp_severity from = f->severity, to = v->severity;
    struct ndp_buf b = NDP_BUF_INIT;

    if (v->off) {
        /* A waiver that said it first stands (ndp_finding_suppress). */
        ndp_buf_addf(&b, "severity off by %s severity_overrides[%zu]: %s",
                     config->path, v->index, v->reason);
    } else {
        /* Every report prints the message: the override is said there. */
        ndp_buf_adds(&b, f->message);
        ndp_buf_addf(&b, "%sseverity ", b.len ? "; " : "");
        if (to == from)
            ndp_buf_addf(&b, "kept at %s", ndp_severity_name(to));
        else
            ndp_buf_addf(&b, "%s from %s to %s",
                         to < from ? "raised" : "lowered",
                         ndp_severity_name(from), ndp_severity_name(to));
        ndp_buf_addf(&b, " by %s severity_overrides[%zu]: %s", config->path,
                     v->index, v->reason);
    }
    ndp_finding_override(f, v->reason, v->index, v->off, to, b.buf);
    ndp_buf_release(&b);
}

void ndp_overrides_apply(struct ndp_findings *findings,
                         const struct ndp_config *config)
{
    const struct ndp_override *by_verdict[NDP_VERDICT_COUNT] = { NULL };
    const struct ndp_override **rules, *pkey;
    struct ndp_override key;
    size_t i, nr;

    if (!config || !config->nr_overrides)
        return;
    for (i = config->nr_overrides; i-- > 0;)
        if (!config->overrides[i].rule &&
            config->overrides[i].verdict < NDP_VERDICT_COUNT)
            by_verdict[config->overrides[i].verdict] = &config->overrides[i];
    rules = sorted_rules(config, &nr);
    memset(&key, 0, sizeof(key));
    pkey = &key;
    for (i = 0; i < findings->nr; i++) {
        struct ndp_finding *f = &findings->items[i];
        const struct ndp_override *const *hit;
        const struct ndp_override *v = NULL;
        key.rule = f->rule_id;
        hit = nr ? bsearch(&pkey, rules, nr, sizeof(*rules), compare_ids)
                 : NULL;
        if (hit)
            v = *hit;
        else if ((unsigned)f->verdict < NDP_VERDICT_COUNT)
            v = by_verdict[f->verdict];
        if (v)
            apply(f, config, v);
    }
    free(rules);
}
