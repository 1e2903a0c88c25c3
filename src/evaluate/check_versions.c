/*
 * SPDX-License-Identifier: Apache-2.0
 * check_versions.c - the version paths (put-time-limits PT-K8S-01..09):
 * what AKS refuses of a Kubernetes version that the apply sends, whatever
 * the node disruption policy and the time; and the support plan that
 * goes with a version, long-term support only on Premium (PT-K8S-08).  One pass per cluster over its
 * changes (the linker's grouping), so a pool resource is held against its
 * cluster's control plane though they are different changes; --cluster-state
 * supplies the side the input does not show.
 *
 * Versions: the control plane runs, before the apply, the version AKS
 * reports (current_kubernetes_version, currentKubernetesVersion), else the
 * one declared before, else live state's; after it, the one the change
 * declares, except that an alias of the running minor ("1.30" on 1.30.5)
 * changes nothing.  A pool likewise, with its orchestrator version.  A
 * version that is not a version ("latest", garbage) or not in the input
 * is unknown: a check that needs it says nothing, and never guesses a
 * refusal.
 *
 * What is sent: azurerm sends a version when the plan changes it, and the
 * control plane's on its own, before the pools (PT-K8S-06); an ARM body
 * (azapi, what-if, a template) sends every version it names.  So pools are
 * held against the control plane's version after the apply, and the
 * control plane's step against the pools' versions before it; a pool of an
 * ARM body that leaves its version out, or sets it to the control plane's,
 * moves with the control plane in the same request.
 *
 * Severities are the settled readings': refused where the research
 * confirms the refusal, may-refuse where it is inferred (a control-plane-only
 * upgrade under an auto-upgrade channel) or unconfirmed (a pool skipping
 * minors within the skew, a control plane skipping minors on the LTS plan,
 * where only AKS's list of LTS targets decides), advisory where only the
 * order of a deployment, which what-if does not show, decides.  Which
 * versions AKS offers is service data: no version is named here but the
 * 1.28 of the skew rule.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "k8s_version.h"
#include "linker.h"
#include "rules.h"
#include "state.h"
#include "strmap.h"

/* A version read from the input or live state. */
struct version {
    struct ndp_k8s_version v;
    const char *text;       /* as written, a parsed version (safe to
                               print unless sensitive); NULL: unknown */
    bool sensitive;
    bool from_state;        /* read from --cluster-state */
};

/* The control plane of one cluster. */
struct plane {
    const struct ndp_change *ch; /* the change declaring its version */
    struct version running;      /* before the apply */
    struct version declared;     /* what the change declares for after */
    struct version target;       /* after the apply */
    bool is_new;                 /* the apply creates the cluster */
    bool sent;                   /* the apply sends the declared version */
    bool moves;                  /* ... and it differs from the running one */
    bool up;                     /* ... and is higher */
    const char *channel;         /* the auto-upgrade channel, when one is set */
    bool lts;                    /* on the long-term support plan */
};

/* A node pool of the cluster, from the input or from live state. */
struct pool {
    const struct ndp_change *ch;    /* NULL: known from live state only */
    const struct ndp_pool_facts *p; /* NULL with it */
    const char *name;
    bool name_sensitive;
    struct version running;         /* before the apply */
    struct version target;          /* what the apply sends, when it moves */
    bool is_new;                    /* the apply creates it */
    bool moves;                     /* the apply sends it another version */
    bool with_plane;                /* moves with the control plane in the
                                       same ARM body */
};

/* The pools one change declares: items[start] .. items[end - 1]. */
struct pool_range {
    const struct ndp_change *ch;
    size_t start, end;
};

/*
 * The pools of one cluster, those of each change together, then those
 * only live state knows; 'outside' indexes by name the pools no cluster
 * body lists (pool resources, live pools), 'nr_outside' of them.
 */
struct cluster_pools {
    struct pool *items;
    size_t nr, alloc;
    struct pool_range *ranges;
    size_t nr_ranges, alloc_ranges;
    struct ndp_strmap outside;
    size_t nr_outside;
};

/* ---- reading versions ---- */

static bool read_version(struct version *out, const char *text,
                         bool sensitive)
{
    memset(out, 0, sizeof(*out));
    if (!ndp_k8s_version_parse(&out->v, text))
        return false;
    out->text = text;
    out->sensitive = sensitive;
    return true;
}

static bool known(const struct version *v)
{
    return v->text != NULL;
}

/* The first of 'a', 'b' that is a version. */
static bool first_version(struct version *out, const char *a, const char *b,
                          bool sensitive)
{
    return read_version(out, a, sensitive) || read_version(out, b, sensitive);
}

/* A version differs: neither the same nor an alias of the same minor. */
static bool differs(const struct version *a, const struct version *b)
{
    enum ndp_k8s_order o = ndp_k8s_version_order(&a->v, &b->v);

    return o != NDP_K8S_SAME && o != NDP_K8S_SAME_MINOR;
}

static bool text_differs(const char *a, const char *b)
{
    return (a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0);
}

/* The same, ASCII case ignored (AKS reads enum values so). */
static bool text_differs_nocase(const char *a, const char *b)
{
    return (a == NULL) != (b == NULL) || (a && ndp_strcasecmp(a, b) != 0);
}

/* Minor versions from 'from' up to 'to'; false when not countable. */
static bool minors(long *out, const struct version *from,
                   const struct version *to)
{
    return ndp_k8s_minors_between(out, &from->v, &to->v);
}

/*
 * How many minor versions a pool may lag behind control plane 'cp': 3
 * from Kubernetes 1.28, 2 before (PT-K8S-04).
 */
static long skew_limit(const struct version *cp)
{
    return cp->v.major > 1 || cp->v.minor >= 28 ? 3 : 2;
}

static bool is_arm_body(const struct ndp_change *ch)
{
    return ch->notation == NDP_NOTATION_ARM &&
           (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER);
}

/* The change sends 'declared_after': a changed azurerm value, any ARM. */
static bool sends(const struct ndp_change *ch, const char *declared_before,
                  const char *declared_after)
{
    if (!declared_after || ch->action == NDP_ACTION_DELETE)
        return false;
    if (ch->notation == NDP_NOTATION_AZURERM)
        return text_differs(declared_before, declared_after);
    return true;
}

/* ---- the control plane ---- */

/* 'ch' sends its declared Kubernetes version (see sends()). */
static bool sends_version(const struct ndp_change *ch)
{
    return sends(ch, ch->facts.declared_version_before,
                 ch->facts.declared_version_after);
}

/*
 * The change whose version the control plane's checks judge: the
 * cluster's own change when it sends one, else the first setter that
 * does (a no-op cluster resource beside a setter that sends a version:
 * the setter's request is the one AKS judges), else the first change
 * that declares one, the cluster's own first.
 */
static const struct ndp_change *plane_change(const struct ndp_evaluator *ev,
                                             size_t c)
{
    size_t i = ev->clusters->items[c].change;
    const struct ndp_change *own = i != SIZE_MAX ? ev->set->items[i] : NULL;
    const struct ndp_change *ch, *sending = NULL, *declaring = NULL;
    size_t k;

    if (own && own->facts.declared_version_after && sends_version(own))
        return own;
    for (k = 0; (ch = ndp_evaluator_change(ev, c, k)) != NULL; k++) {
        if (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_SETTER)
            continue;
        if (!ch->facts.declared_version_after)
            continue;
        if (!sending && ch != own && sends_version(ch))
            sending = ch;
        if (!declaring)
            declaring = ch;
    }
    if (sending)
        return sending;
    if (own && own->facts.declared_version_after)
        return own;
    return declaring ? declaring : own;
}

static bool channel_set(const char *channel)
{
    return channel && ndp_strcasecmp(channel, "none") != 0;
}

/* Declared as the long-term support plan. */
static bool lts_plan(const char *plan)
{
    return plan && ndp_strcasecmp(plan, "AKSLongTermSupport") == 0;
}

/*
 * The version the control plane runs before the apply: what 'ch' (or the
 * cluster's own change 'own') reports or declares, else live state's.
 */
/*
 * The auto-upgrade channel 'ch' declares for after the change (before it,
 * for a change without an after document), or NULL.
 */
static const char *declared_channel(const struct ndp_change *ch)
{
    const struct ndp_setting_facts *s = &ch->facts.upgrade_channel;

    return ch->after ? s->after : s->before;
}

static void plane_running(struct plane *cp, const struct ndp_change *own,
                          const struct ndp_state_cluster *st)
{
    const struct ndp_facts *f = &cp->ch->facts;

    if (first_version(&cp->running, f->reported_version_before,
                      f->declared_version_before, f->versions_sensitive))
        return;
    if (own && own != cp->ch &&
        first_version(&cp->running, own->facts.reported_version_before,
                      own->facts.declared_version_before,
                      own->facts.versions_sensitive))
        return;
    if (st && read_version(&cp->running, st->version, false))
        cp->running.from_state = true;
}

/*
 * What the apply sends and the version after it: the declared one, but
 * an alias of the running minor changes nothing (the running patch stays).
 */
static void plane_target(struct plane *cp)
{
    const struct ndp_facts *f = &cp->ch->facts;

    read_version(&cp->declared, f->declared_version_after,
                 f->versions_sensitive);
    cp->sent = known(&cp->declared) &&
               sends(cp->ch, f->declared_version_before,
                     f->declared_version_after);
    cp->target = cp->running;
    if (known(&cp->declared) &&
        (!known(&cp->running) ||
         (cp->sent && (differs(&cp->declared, &cp->running) ||
                       cp->declared.v.patch >= 0))))
        cp->target = cp->declared;
    cp->moves = cp->sent && !cp->is_new && known(&cp->running) &&
                differs(&cp->declared, &cp->running);
    cp->up = cp->moves && ndp_k8s_version_order(&cp->declared.v,
                                                &cp->running.v) ==
                              NDP_K8S_HIGHER;
}

static void read_plane(struct plane *cp, const struct ndp_evaluator *ev,
                       size_t c)
{
    size_t own_index = ev->clusters->items[c].change;
    const struct ndp_change *own =
        own_index != SIZE_MAX ? ev->set->items[own_index] : NULL;
    const struct ndp_state_cluster *st = ev->resolved->items[c].state;
    const struct ndp_facts *f;

    memset(cp, 0, sizeof(*cp));
    cp->ch = plane_change(ev, c);
    if (!cp->ch) {
        /* No change declares it: it runs what live state says. */
        if (st && read_version(&cp->running, st->version, false))
            cp->running.from_state = true;
        cp->target = cp->running;
        return;
    }
    f = &cp->ch->facts;
    /* A setter's first apply (a create) updates a cluster that exists. */
    cp->is_new = (cp->ch->action == NDP_ACTION_CREATE && !cp->ch->setter) ||
                 (own && own->action == NDP_ACTION_CREATE);
    if (!cp->is_new)
        plane_running(cp, own, st);
    plane_target(cp);
    /* The channel and plan of the change that sends the version, else
     * the cluster's own. */
    cp->channel = declared_channel(cp->ch);
    if (!cp->channel && own)
        cp->channel = declared_channel(own);
    if (!channel_set(cp->channel))
        cp->channel = NULL;
    cp->lts = f->support_plan ? lts_plan(f->support_plan)
              : own && lts_plan(own->facts.support_plan);
}

/* ---- the pools ---- */

static struct pool *add_pool(struct cluster_pools *list)
{
    NDP_GROW(list->items, list->alloc, list->nr + 1);
    memset(&list->items[list->nr], 0, sizeof(list->items[0]));
    return &list->items[list->nr++];
}

/*
 * Pool 'p' of change 'ch': its version before (as reported, as declared,
 * else live state's) and, when the apply moves it, after.
 */
static void read_pool(struct pool *out, const struct ndp_change *ch,
                      const struct ndp_pool_facts *p,
                      const struct ndp_state_cluster *st,
                      const struct ndp_strmap *state_names,
                      const struct plane *cp)
{
    size_t s;
    bool sensitive = p->versions_sensitive;

    out->ch = ch;
    out->p = p;
    out->name = p->name;
    out->name_sensitive = ch->facts.pools_sensitive;
    out->is_new = p->created ||
                  (ch->action == NDP_ACTION_CREATE && !ch->setter);
    if (!out->is_new &&
        !first_version(&out->running, p->reported_version_before,
                       p->declared_version_before, sensitive) &&
        (s = ndp_strmap_find(state_names, p->name)) != SIZE_MAX &&
        read_version(&out->running, st->pools[s].version, false))
        out->running.from_state = true;
    if (cp->moves && ch == cp->ch && is_arm_body(ch) && !out->is_new &&
        (!p->declared_version_after ||
         (read_version(&out->target, p->declared_version_after, sensitive) &&
          !differs(&out->target, &cp->target)))) {
        /* The same request upgrades it with the control plane. */
        out->with_plane = true;
        out->target = cp->target;
        return;
    }
    if (!sends(ch, p->declared_version_before, p->declared_version_after) ||
        !read_version(&out->target, p->declared_version_after, sensitive))
        return;
    out->moves = out->is_new ||
                 (known(&out->running)
                      ? differs(&out->target, &out->running)
                      : text_differs(p->declared_version_before,
                                     p->declared_version_after));
}

/*
 * Every pool of cluster 'c' the input declares (kept or created), then
 * those only live state knows (not those the apply deletes).
 * 'state_names' indexes the live pools.
 */
static void read_pools(struct cluster_pools *out,
                       const struct ndp_evaluator *ev, size_t c,
                       const struct plane *cp,
                       const struct ndp_strmap *state_names)
{
    const struct ndp_state_cluster *st = ev->resolved->items[c].state;
    struct ndp_strmap seen = NDP_STRMAP_INIT(true);
    const struct ndp_change *ch;
    size_t k, i;

    for (k = 0; (ch = ndp_evaluator_change(ev, c, k)) != NULL; k++) {
        struct pool_range *r;
        if (!ch->facts.nr_pools)
            continue;
        NDP_GROW(out->ranges, out->alloc_ranges, out->nr_ranges + 1);
        r = &out->ranges[out->nr_ranges++];
        r->ch = ch;
        r->start = out->nr;
        for (i = 0; i < ch->facts.nr_pools; i++) {
            const struct ndp_pool_facts *p = &ch->facts.pools[i];
            if (!p->name) /* a what-if delta's element: pool unknown */
                continue;
            /* A pool the apply deletes is no live pool left behind. */
            ndp_strmap_add(&seen, p->name, i);
            if (p->deleted || ch->action == NDP_ACTION_DELETE)
                continue;
            read_pool(add_pool(out), ch, p, st, state_names, cp);
            if (ch->kind == NDP_KIND_NODEPOOL &&
                ndp_strmap_add(&out->outside, p->name, out->nr_outside) ==
                    out->nr_outside)
                out->nr_outside++;
        }
        r->end = out->nr;
    }
    for (i = 0; st && i < st->nr_pools; i++) {
        struct pool *p;
        if (!st->pools[i].name ||
            ndp_strmap_find(&seen, st->pools[i].name) != SIZE_MAX)
            continue;
        p = add_pool(out);
        p->name = st->pools[i].name;
        if (read_version(&p->running, st->pools[i].version, false))
            p->running.from_state = true;
        if (ndp_strmap_add(&out->outside, p->name, out->nr_outside) ==
            out->nr_outside)
            out->nr_outside++;
    }
    ndp_strmap_release(&seen);
}

/* ---- findings ---- */

static void add_version(struct ndp_buf *b, const struct version *v)
{
    ndp_buf_adds(b, v->sensitive ? "(sensitive)" : v->text);
}

/* "FROM<between>TO", each version as add_version() writes it. */
static void add_pair(struct ndp_buf *b, const struct version *from,
                     const char *between, const struct version *to)
{
    add_version(b, from);
    ndp_buf_adds(b, between);
    add_version(b, to);
}

/*
 * "N minor versions" then 'words'; a count read from a version under a
 * mask is not printed either ("several").
 */
static void add_minors(struct ndp_buf *b, long n, const struct version *x,
                       const struct version *y, const char *words)
{
    if (x->sensitive || y->sensitive)
        ndp_buf_addf(b, "several minor versions%s", words);
    else
        ndp_buf_addf(b, "%ld minor versions%s", n, words);
}

/* The skew allowed behind control plane 'cp', as it may be printed. */
static void add_limit(struct ndp_buf *b, const struct version *cp)
{
    if (cp->sensitive)
        ndp_buf_adds(b, "3 (2 below 1.28)");
    else
        ndp_buf_addf(b, "%ld", skew_limit(cp));
}

static const char *shown_name(const struct pool *p)
{
    return p->name_sensitive ? "(sensitive)" : p->name;
}

/* Starts finding 'id' (false when the rule set lacks it: no check). */
static bool start(struct ndp_check_finding *f, const struct ndp_evaluator *ev,
                  const char *id, const struct ndp_change *ch)
{
    if (!ndp_check_begin(f, ev, id, ch))
        return false;
    ndp_buf_addf(&f->msg, "%s: ", f->rule->title);
    return true;
}

/* The finding's values: 'before' and 'after' as declared, under 'mask'. */
static void at_values(struct ndp_check_finding *f, const char *before,
                      const char *after, bool mask)
{
    ndp_emit_text(&f->before, before, mask, f->rule);
    ndp_emit_text(&f->after, after, mask, f->rule);
}

/* The finding is about the control plane's version in 'cp->ch'. */
static void at_plane(struct ndp_check_finding *f, const struct plane *cp)
{
    const struct ndp_facts *facts = &cp->ch->facts;

    ndp_buf_adds(&f->path, facts->version_path);
    at_values(f, facts->declared_version_before,
              facts->declared_version_after, facts->versions_sensitive);
}

/* The finding is about pool 'p''s orchestrator version. */
static void at_pool(struct ndp_check_finding *f, const struct pool *p)
{
    const char *field = p->p->fields[NDP_POOL_VERSION];

    ndp_buf_addf(&f->path, "%s%s%s", p->p->path, *p->p->path ? "." : "",
                 field);
    at_values(f, p->p->declared_version_before,
              p->p->declared_version_after, p->p->versions_sensitive);
    f->pool = p->name_sensitive ? NULL : p->name;
}

/* Starts finding 'id' about the control plane's version in 'cp->ch'. */
static bool start_plane(struct ndp_check_finding *f,
                        const struct ndp_evaluator *ev, const char *id,
                        const struct plane *cp)
{
    if (!start(f, ev, id, cp->ch))
        return false;
    at_plane(f, cp);
    return true;
}

/* Starts finding 'id' of 'verdict' about pool 'p''s version, by name. */
static bool start_pool(struct ndp_check_finding *f,
                       const struct ndp_evaluator *ev, const char *id,
                       const struct pool *p, enum ndp_verdict verdict)
{
    if (!start(f, ev, id, p->ch))
        return false;
    at_pool(f, p);
    f->verdict = verdict;
    ndp_buf_addf(&f->msg, "node pool '%s'", shown_name(p));
    return true;
}

#define SKEW_WORDS                                                            \
    " (3 from Kubernetes 1.28, 2 before; the API reference still says 2)"

#define NOT_ALL_ANSWER                                                        \
    "NotAllAgentPoolOrchestratorVersionSpecifiedAndUnchanged (\"Using "       \
    "managed cluster api, all Agent pools' OrchestratorVersion must be all "  \
    "specified or all unspecified. If all specified, they must be stay "      \
    "unchanged or the same with control plane.\")"

/* "1.31" from "1.29.4" and a step of 'step' minors: the next to aim for. */
static void add_next_minor(struct ndp_buf *b, const struct version *from,
                           long step)
{
    if (from->sensitive)
        ndp_buf_adds(b, "the next minor version");
    else
        ndp_buf_addf(b, "%ld.%ld", from->v.major, from->v.minor + step);
}

/* PT-K8S-01: more than one minor up; a warning on the LTS plan. */
static void plane_skip(const struct ndp_evaluator *ev, const struct plane *cp)
{
    struct ndp_check_finding f;
    long n;

    if (!cp->up || !minors(&n, &cp->running, &cp->declared) || n <= 1 ||
        !start_plane(&f, ev, "NDP601", cp))
        return;
    ndp_buf_adds(&f.msg, "the control plane would go from ");
    add_pair(&f.msg, &cp->running, " to ", &cp->declared);
    ndp_buf_adds(&f.msg, ", ");
    add_minors(&f.msg, n, &cp->running, &cp->declared, " at once; ");
    if (cp->lts)
        ndp_buf_adds(&f.msg, "the cluster is on the long-term support plan "
                     "(AKSLongTermSupport), where AKS accepts such a jump "
                     "only to an LTS version it offers this cluster, and "
                     "otherwise refuses it with ");
    else
        ndp_buf_adds(&f.msg, "AKS upgrades a control plane one minor version "
                     "at a time and refuses this with ");
    ndp_buf_adds(&f.msg, "OperationNotAllowed (\"Upgrading Kubernetes "
                 "version ");
    add_pair(&f.msg, &cp->running, " to ", &cp->declared);
    ndp_buf_adds(&f.msg, " is not allowed. Available upgrades: ...\")");
    if (cp->running.from_state)
        ndp_buf_adds(&f.msg, "; the running version is --cluster-state's");
    if (cp->lts) {
        f.verdict = NDP_VERDICT_MAY_REFUSE;
        ndp_buf_adds(&f.help, "check that 'az aks get-upgrades' offers this "
                     "version for the cluster; if it does not, upgrade one "
                     "minor version at a time");
    } else {
        f.verdict = NDP_VERDICT_REFUSED;
        ndp_buf_adds(&f.help, "upgrade one minor version at a time (to ");
        add_next_minor(&f.help, &cp->running, 1);
        ndp_buf_adds(&f.help, " first), the control plane before the node "
                     "pools, to versions 'az aks get-upgrades' offers");
    }
    ndp_check_emit(&f, ev);
}

/*
 * The end of a downgrade's finding: the auto-upgrade channel, when one is
 * set, moves 'what' past a pinned version; the help: declare 'running' or
 * later, or with a channel the minor version alone, 'alone' added.
 */
static void downgrade_advice(struct ndp_check_finding *f, const struct plane *cp,
                             const struct version *running, const char *what,
                             const char *alone)
{
    if (cp->channel)
        ndp_buf_addf(&f->msg, "; an auto-upgrade channel is set, and it "
                     "moves %s past a pinned version", what);
    ndp_buf_adds(&f->help, "declare ");
    add_version(&f->help, running);
    ndp_buf_addf(&f->help, " or a later version; with an auto-upgrade "
                 "channel, declare the minor version alone (x.y)%s", alone);
}

/* PT-K8S-02 (and PT-K8S-09): any lower version, patch or minor. */
static void plane_downgrade(const struct ndp_evaluator *ev,
                            const struct plane *cp)
{
    struct ndp_check_finding f;

    if (!cp->moves || ndp_k8s_version_order(&cp->declared.v,
                                            &cp->running.v) != NDP_K8S_LOWER ||
        !start_plane(&f, ev, "NDP602", cp))
        return;
    f.verdict = NDP_VERDICT_REFUSED;
    ndp_buf_adds(&f.msg, "the control plane runs ");
    add_version(&f.msg, &cp->running);
    if (cp->running.from_state)
        ndp_buf_adds(&f.msg, " (--cluster-state)");
    ndp_buf_adds(&f.msg, " and the change asks for ");
    add_version(&f.msg, &cp->declared);
    ndp_buf_adds(&f.msg, ", a lower version; AKS refuses downgrades with "
                 "OperationNotAllowed (\"Downgrading Kubernetes version ");
    add_pair(&f.msg, &cp->running, " to ", &cp->declared);
    ndp_buf_adds(&f.msg, " is not allowed. Available upgrades: ...\"; a "
                 "lower value was once ignored instead, Azure/AKS#3476)");
    downgrade_advice(&f, cp, &cp->running, "the cluster",
                     ", which the channel's patches never fall below");
    ndp_check_emit(&f, ev);
}

/*
 * The pool that lags furthest behind 'cp''s target, staying behind at the
 * control plane's step (its version before the apply; those that move
 * with it in the same body do not), beyond the skew: NULL when none.
 * '*lag' is its lag, '*more' how many others lag too far.
 */
static const struct pool *lagging_pool(const struct plane *cp,
                                       const struct cluster_pools *pools,
                                       long *lag, size_t *more)
{
    const struct pool *worst = NULL;
    long n = 0, limit = skew_limit(&cp->target);
    size_t i;

    *lag = 0;
    *more = 0;
    for (i = 0; i < pools->nr; i++) {
        const struct pool *p = &pools->items[i];
        if (p->is_new || p->with_plane || !known(&p->running) ||
            !minors(&n, &p->running, &cp->target) || n <= limit)
            continue;
        if (worst)
            (*more)++;
        if (!worst || n > *lag) {
            worst = p;
            *lag = n;
        }
    }
    return worst;
}

/* PT-K8S-04 at the control plane's step: a pool it leaves too far behind. */
static void plane_skew(const struct ndp_evaluator *ev, const struct plane *cp,
                       const struct cluster_pools *pools)
{
    const struct pool *worst;
    long worst_lag;
    size_t more;
    struct ndp_check_finding f;

    if (!cp->up)
        return;
    worst = lagging_pool(cp, pools, &worst_lag, &more);
    if (!worst || !start_plane(&f, ev, "NDP603", cp))
        return;
    f.verdict = NDP_VERDICT_REFUSED;
    ndp_buf_adds(&f.msg, "the control plane would go from ");
    add_pair(&f.msg, &cp->running, " to ", &cp->target);
    ndp_buf_addf(&f.msg, " while node pool '%s' stays on ", shown_name(worst));
    add_version(&f.msg, &worst->running);
    ndp_buf_adds(&f.msg, ", ");
    add_minors(&f.msg, worst_lag, &worst->running, &cp->target, " behind");
    if (more)
        ndp_buf_addf(&f.msg, " (and %zu more pool%s too far behind)", more,
                     more == 1 ? "" : "s");
    ndp_buf_adds(&f.msg, "; AKS allows a node pool at most ");
    add_limit(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, " minor versions behind the control plane"
                 SKEW_WORDS " and refuses the control plane's upgrade with "
                 "NodePoolMcVersionIncompatible (\"Node pool version ");
    add_pair(&f.msg, &worst->running, " and control plane version ",
             &cp->target);
    ndp_buf_adds(&f.msg, " is incompatible. Minor version of node pool "
                 "cannot be more than ");
    add_limit(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, " versions less than control plane's version.\")");
    ndp_buf_adds(&f.help, "upgrade the pools that lag behind first (az aks "
                 "nodepool upgrade, one minor version at a time), or raise "
                 "the control plane fewer minor versions");
    ndp_check_emit(&f, ev);
}

/*
 * PT-K8S-07 trigger 2, PT-K8S-09: a control-plane-only upgrade while an
 * auto-upgrade channel is set (inferred).  azurerm sends kubernetes_version
 * on its own whenever the plan changes it; an ARM body is one when every
 * pool it lists keeps the version it names.
 */
static void plane_channel(const struct ndp_evaluator *ev,
                          const struct plane *cp,
                          const struct cluster_pools *pools)
{
    bool azurerm = cp->ch && cp->ch->notation == NDP_NOTATION_AZURERM;
    size_t i, listed = 0;
    struct ndp_check_finding f;

    if (!cp->channel || !cp->sent || cp->is_new)
        return;
    /* The same minor sent again ("1.30.7" -> "1.30") upgrades nothing
     * (PT-K8S-02, PT-K8S-09 rule 1): no upgrade to refuse. */
    if (known(&cp->running) && !differs(&cp->declared, &cp->running))
        return;
    if (!azurerm) {
        if (!cp->moves || !is_arm_body(cp->ch) || cp->ch->delta_only)
            return;
        for (i = 0; i < pools->nr; i++) {
            const struct pool *p = &pools->items[i];
            if (p->ch != cp->ch || p->is_new)
                continue;
            if (p->with_plane || p->moves || !p->p->declared_version_after)
                return;
            listed++;
        }
        if (!listed)
            return;
    }
    if (!start_plane(&f, ev, "NDP608", cp))
        return;
    f.verdict = NDP_VERDICT_MAY_REFUSE;
    ndp_buf_adds(&f.msg, azurerm
                 ? "azurerm sends kubernetes_version on its own, a "
                   "control-plane-only upgrade request, "
                 : "the body raises kubernetesVersion while every pool it "
                   "lists keeps the orchestratorVersion it names, a "
                   "control-plane-only upgrade, ");
    ndp_buf_adds(&f.msg, "and the cluster has an auto-upgrade channel set; "
                 "AKS refuses a control-plane-only upgrade while cluster "
                 "auto-upgrade is on (inferred from the AKS auto-upgrade "
                 "documentation and azurerm issue 17839) with "
                 NOT_ALL_ANSWER);
    ndp_buf_adds(&f.help, azurerm
                 ? "leave the upgrade to the auto-upgrade channel, or set "
                   "automatic_upgrade_channel to none for it; with a "
                   "channel, declare the minor version alone (x.y)"
                 : "leave orchestratorVersion out of every pool so that "
                   "they upgrade with the control plane, or leave the "
                   "upgrade to the auto-upgrade channel");
    ndp_check_emit(&f, ev);
}

/*
 * PT-K8S-06, Spot: AKS does not upgrade the control plane and the node
 * pools in one request while the cluster has a Spot pool (documented; the
 * error AKS answers with is unconfirmed).  An ARM body that raises the
 * control plane and lets a pool move with it (or lists none, so that all
 * move) is such a request; azurerm never sends one.
 */
static void plane_spot(const struct ndp_evaluator *ev, const struct plane *cp,
                       const struct cluster_pools *pools)
{
    const struct pool *spot = NULL;
    bool listed = false, full = false;
    size_t i;
    struct ndp_check_finding f;

    if (!cp->up || !is_arm_body(cp->ch) || cp->ch->delta_only)
        return;
    for (i = 0; i < pools->nr; i++) {
        const struct pool *p = &pools->items[i];
        if (p->p && p->p->priority && !spot &&
            ndp_strcasecmp(p->p->priority, "Spot") == 0)
            spot = p;
        if (p->ch == cp->ch) {
            listed = true;
            full |= p->with_plane;
        }
    }
    if (!spot || (listed && !full) || !start_plane(&f, ev, "NDP611", cp))
        return;
    f.verdict = NDP_VERDICT_REFUSED;
    ndp_buf_adds(&f.msg, "the body upgrades the control plane to ");
    add_version(&f.msg, &cp->target);
    ndp_buf_addf(&f.msg, " and, in the same request, %s, and node pool "
                 "'%s' is a Spot pool; AKS does not upgrade the control "
                 "plane and the node pools together while a Spot pool "
                 "exists (the AKS Spot node pool documentation; the error "
                 "it answers with is unconfirmed)",
                 listed ? "the pools it lists without a version of their own"
                        : "every node pool", shown_name(spot));
    ndp_buf_adds(&f.help, "upgrade the control plane alone first (name "
                 "every pool's current orchestratorVersion in the body), "
                 "then the pools through their agentPools resources, or "
                 "remove the Spot pool");
    ndp_check_emit(&f, ev);
}

/* ---- a managed cluster body (PT-K8S-07 trigger 1) ---- */

struct body_survey {
    const struct pool *named, *unnamed, *off_plane;
    size_t outside;
    bool changes_version;
};

/*
 * The pools of ARM body 'r': which name their version, which do not,
 * which change it to other than the control plane's; 'outside' counts
 * the cluster's pools it does not list (agentPools resources, live
 * pools), which AKS counts as not named.  A pool the body creates
 * changes no version.
 */
static void survey_body(struct body_survey *s, const struct pool_range *r,
                        const struct plane *cp,
                        const struct cluster_pools *pools)
{
    struct ndp_strmap listed = NDP_STRMAP_INIT(true);
    size_t i, inside = 0;

    memset(s, 0, sizeof(*s));
    s->changes_version = r->ch == cp->ch && cp->moves;
    for (i = r->start; i < r->end; i++) {
        const struct pool *p = &pools->items[i];
        if (ndp_strmap_add(&listed, p->name, i) == i &&
            ndp_strmap_find(&pools->outside, p->name) != SIZE_MAX)
            inside++;
        if (p->moves && !p->with_plane && !p->is_new)
            s->changes_version = true;
        if (!p->p->declared_version_after) {
            if (!s->unnamed)
                s->unnamed = p;
            continue;
        }
        if (!s->named)
            s->named = p;
        if (p->moves && !p->with_plane && !p->is_new &&
            known(&cp->target) && !s->off_plane &&
            differs(&p->target, &cp->target))
            s->off_plane = p;
    }
    s->outside = pools->nr_outside - inside;
    ndp_strmap_release(&listed);
}

static void body_versions(const struct ndp_evaluator *ev,
                          const struct pool_range *r, const struct plane *cp,
                          const struct cluster_pools *pools)
{
    const struct ndp_change *ch = r->ch;
    struct body_survey s;
    struct ndp_check_finding f;
    /* A delta shows no unchanged version: who names one is not known. */
    bool mixed;

    if (!is_arm_body(ch) || ch->action != NDP_ACTION_UPDATE)
        return;
    survey_body(&s, r, cp, pools);
    mixed = s.named && (s.unnamed || s.outside) && !ch->delta_only;
    if (!s.changes_version || (!mixed && !s.off_plane) ||
        !start(&f, ev, "NDP609", ch))
        return;
    f.verdict = NDP_VERDICT_REFUSED;
    ndp_buf_adds(&f.path, "properties.agentPoolProfiles");
    if (s.off_plane) {
        ndp_buf_addf(&f.msg, "the body changes the orchestratorVersion of "
                     "node pool '%s' to ", shown_name(s.off_plane));
        add_version(&f.msg, &s.off_plane->target);
        ndp_buf_adds(&f.msg, ", which is not the control plane's ");
        add_version(&f.msg, &cp->target);
    } else if (s.unnamed) {
        ndp_buf_addf(&f.msg, "the body changes a version and names the "
                     "orchestratorVersion of node pool '%s' but not of '%s'",
                     shown_name(s.named), shown_name(s.unnamed));
    } else {
        ndp_buf_addf(&f.msg, "the body changes a version and names the "
                     "orchestratorVersion of every pool it lists, but the "
                     "cluster has %zu more pool%s it does not list "
                     "(agentPools resources, or pools --cluster-state "
                     "shows), which AKS counts as not named", s.outside,
                     s.outside == 1 ? "" : "s");
    }
    ndp_buf_adds(&f.msg, "; AKS refuses it with " NOT_ALL_ANSWER);
    ndp_buf_adds(&f.help, "name the orchestratorVersion of every pool, each "
                 "unchanged or equal to kubernetesVersion, or of none; change "
                 "one pool's version through its agentPools resource");
    ndp_check_emit(&f, ev);
}

/* ---- a pool's own version (PT-K8S-03, -04, -05) ---- */


static void pool_downgrade(const struct ndp_evaluator *ev,
                           const struct pool *p, const struct plane *cp)
{
    struct ndp_check_finding f;

    if (!known(&p->running) ||
        ndp_k8s_version_order(&p->target.v, &p->running.v) !=
            NDP_K8S_LOWER ||
        !start_pool(&f, ev, "NDP606", p, NDP_VERDICT_REFUSED))
        return;
    ndp_buf_adds(&f.msg, " runs ");
    add_version(&f.msg, &p->running);
    if (p->running.from_state)
        ndp_buf_adds(&f.msg, " (--cluster-state)");
    ndp_buf_adds(&f.msg, " and the change asks for ");
    add_version(&f.msg, &p->target);
    ndp_buf_adds(&f.msg, ", a lower version; AKS refuses it with "
                 "AgentPoolUpgradeVersionNotAllowed (\"Upgrade agent pool "
                 "version from ");
    add_pair(&f.msg, &p->running, " to ", &p->target);
    ndp_buf_adds(&f.msg, " is not allowed...\")");
    downgrade_advice(&f, cp, &p->running, "the pools",
                     ", or no orchestrator version");
    ndp_check_emit(&f, ev);
}

/* Above the control plane after the apply (PT-K8S-03): true if found. */
static bool pool_above_plane(const struct ndp_evaluator *ev,
                             const struct pool *p, const struct plane *cp)
{
    struct ndp_check_finding f;

    if (ndp_k8s_version_order(&p->target.v, &cp->target.v) !=
        NDP_K8S_HIGHER)
        return false;
    if (!start_pool(&f, ev, "NDP604", p, NDP_VERDICT_REFUSED))
        return true;
    ndp_buf_adds(&f.msg, " would run ");
    add_version(&f.msg, &p->target);
    ndp_buf_adds(&f.msg, ", above the control plane's ");
    add_version(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, cp->target.from_state
                 ? " (--cluster-state)" : " after the apply");
    ndp_buf_adds(&f.msg, "; AKS refuses it with "
                 "NodePoolMcVersionIncompatible (\"Node pool version ");
    add_pair(&f.msg, &p->target, " and control plane version ", &cp->target);
    ndp_buf_adds(&f.msg, " are incompatible...\")");
    if (p->ch->notation == NDP_NOTATION_AZURERM)
        ndp_buf_adds(&f.msg, ", and azurerm stops before sending it (\"The "
                     "Kubernetes/Orchestrator Version ... is not available "
                     "for Node Pool ...\")");
    ndp_buf_adds(&f.help, "upgrade the control plane first (to ");
    add_version(&f.help, &p->target);
    ndp_buf_adds(&f.help, " or later), then the pool");
    ndp_check_emit(&f, ev);
    return true;
}

/* More minors behind the control plane than the skew (PT-K8S-04). */
static bool pool_below_skew(const struct ndp_evaluator *ev,
                            const struct pool *p, const struct plane *cp)
{
    long lag, limit = skew_limit(&cp->target);
    struct ndp_check_finding f;

    if (!minors(&lag, &p->target, &cp->target) || lag <= limit)
        return false;
    if (!start_pool(&f, ev, "NDP605", p, NDP_VERDICT_REFUSED))
        return true;
    ndp_buf_adds(&f.msg, " would run ");
    add_version(&f.msg, &p->target);
    ndp_buf_adds(&f.msg, ", ");
    add_minors(&f.msg, lag, &p->target, &cp->target,
               " behind the control plane's ");
    add_version(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, cp->target.from_state
                 ? " (--cluster-state)" : " after the apply");
    ndp_buf_adds(&f.msg, "; AKS allows at most ");
    add_limit(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, SKEW_WORDS " and refuses it with "
                 "NodePoolMcVersionIncompatible (\"Node pool version ");
    add_pair(&f.msg, &p->target, " and control plane version ", &cp->target);
    ndp_buf_adds(&f.msg, " is incompatible. Minor version of node pool "
                 "cannot be more than ");
    add_limit(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, " versions less than control plane's version.\")");
    ndp_buf_adds(&f.help, "keep the pool within ");
    add_limit(&f.help, &cp->target);
    ndp_buf_adds(&f.help, " minor versions of the control plane: upgrade it "
                 "towards ");
    add_version(&f.help, &cp->target);
    ndp_buf_adds(&f.help, ", one minor version at a time");
    ndp_check_emit(&f, ev);
    return true;
}

/* More than one minor up within the skew (PT-K8S-05, unconfirmed). */
static void pool_skip(const struct ndp_evaluator *ev, const struct pool *p,
                      const struct plane *cp)
{
    struct ndp_check_finding f;
    long n;

    if (!known(&p->running) ||
        ndp_k8s_version_order(&p->target.v, &p->running.v) !=
            NDP_K8S_HIGHER ||
        !minors(&n, &p->running, &p->target) || n <= 1 ||
        !start_pool(&f, ev, "NDP607", p, NDP_VERDICT_MAY_REFUSE))
        return;
    ndp_buf_adds(&f.msg, " would go from ");
    add_pair(&f.msg, &p->running, " to ", &p->target);
    ndp_buf_adds(&f.msg, ", ");
    add_minors(&f.msg, n, &p->running, &p->target, " at once; AKS refused "
               "this with AgentPoolUpgradeVersionNotAllowed (\"Upgrade agent "
               "pool version from ");
    add_pair(&f.msg, &p->running, " to ", &p->target);
    ndp_buf_adds(&f.msg, " is not allowed, you can only upgrade one minor "
                 "version at a time\") before Kubernetes 1.28, and whether it "
                 "still does within the allowed skew is unconfirmed");
    if (!known(&cp->target))
        ndp_buf_adds(&f.msg, "; the control plane's version is not in the "
                     "input, so the skew is not checked");
    ndp_buf_adds(&f.help, "upgrade one minor version at a time (to ");
    add_next_minor(&f.help, &p->running, 1);
    ndp_buf_adds(&f.help, " first), or check that 'az aks nodepool "
                 "get-upgrades' offers the version for this pool");
    ndp_check_emit(&f, ev);
}

/* A change a what-if result shows: its address is the ARM id. */
static bool from_whatif(const struct ndp_change *ch)
{
    return ch->notation == NDP_NOTATION_ARM && ch->address &&
           ch->address[0] == '/';
}

/*
 * PT-K8S-06: an agentPools resource a deployment upgrades to a version
 * only the control plane's upgrade in the same deployment allows.  A
 * what-if result does not show whether the template orders it after the
 * cluster (dependsOn): a note.
 */
static void pool_order(const struct ndp_evaluator *ev, const struct pool *p,
                       const struct plane *cp)
{
    struct ndp_check_finding f;

    if (!cp->up || p->ch == cp->ch || p->ch->kind != NDP_KIND_NODEPOOL ||
        !from_whatif(p->ch) ||
        ndp_k8s_version_order(&p->target.v, &cp->running.v) !=
            NDP_K8S_HIGHER ||
        !start_pool(&f, ev, "NDP610", p, NDP_VERDICT_ADVISORY))
        return;
    ndp_buf_adds(&f.msg, " goes to ");
    add_version(&f.msg, &p->target);
    ndp_buf_adds(&f.msg, ", above the control plane's ");
    add_version(&f.msg, &cp->running);
    ndp_buf_adds(&f.msg, ", in the deployment that upgrades the control "
                 "plane to ");
    add_version(&f.msg, &cp->target);
    ndp_buf_adds(&f.msg, "; what-if does not show whether the template "
                 "orders it after the cluster, and if AKS receives it "
                 "first it refuses it with NodePoolMcVersionIncompatible");
    ndp_buf_adds(&f.help, "make the agentPools resource depend on the "
                 "cluster (dependsOn), or upgrade the pool in a later "
                 "deployment");
    ndp_check_emit(&f, ev);
}

static void pool_checks(const struct ndp_evaluator *ev, const struct pool *p,
                        const struct plane *cp)
{
    bool skew = false;

    if (!p->ch || !p->moves || p->with_plane)
        return;
    pool_downgrade(ev, p, cp);
    if (known(&cp->target))
        skew = pool_above_plane(ev, p, cp) || pool_below_skew(ev, p, cp);
    if (!skew)
        pool_skip(ev, p, cp);
    if (!skew && known(&cp->running))
        pool_order(ev, p, cp);
}

/* ---- PT-K8S-08: the long-term support plan needs the Premium tier ---- */

/* The tier 'ch' declares for after it, else NULL (not declared). */
static const char *declared_tier(const struct ndp_change *ch)
{
    return ch->after ? ch->facts.tier.after : ch->facts.tier.before;
}

/*
 * The tier the cluster has after change 'ch': its own, else (a setter
 * that does not send one) what the cluster's own change 'own' declares;
 * an azurerm cluster that names none is Free (its default).  NULL when
 * not known.
 */
static const char *tier_after(const struct ndp_change *ch,
                              const struct ndp_change *own)
{
    const char *tier = declared_tier(ch);

    if (!tier && own && own != ch)
        tier = declared_tier(own);
    if (!tier && ch->notation == NDP_NOTATION_AZURERM &&
        ch->kind == NDP_KIND_CLUSTER && ch->after &&
        !ch->facts.tier.after_unknown)
        tier = "Free";
    return tier;
}

/*
 * Does 'ch' send the long-term support plan anew: a created cluster, or
 * a plan that becomes AKSLongTermSupport or a tier that changes under it?
 * A plan and tier AKS holds already, sent again as they are (azurerm, an
 * azapi body resent for its tags), were accepted once.
 */
static bool sends_lts(const struct ndp_change *ch)
{
    const struct ndp_setting_facts *plan = &ch->facts.plan;

    if (!lts_plan(plan->after) || ch->action == NDP_ACTION_DELETE)
        return false;
    if (ch->action == NDP_ACTION_CREATE && !ch->setter)
        return true;
    return !lts_plan(plan->before) ||
           text_differs_nocase(ch->facts.tier.before, ch->facts.tier.after);
}

/* PT-K8S-08 rule 1: LTS without Premium (the refusal is unconfirmed). */
static void plan_tier(const struct ndp_evaluator *ev, size_t c,
                      const struct ndp_change *ch)
{
    size_t own = ev->clusters->items[c].change;
    const char *tier;
    bool azurerm = ch->notation == NDP_NOTATION_AZURERM, sensitive;
    struct ndp_check_finding f;

    if (!sends_lts(ch))
        return;
    tier = tier_after(ch, own != SIZE_MAX ? ev->set->items[own] : NULL);
    if (!tier || ndp_strcasecmp(tier, "Premium") == 0 ||
        !start(&f, ev, "NDP612", ch))
        return;
    f.verdict = NDP_VERDICT_MAY_REFUSE;
    ndp_buf_adds(&f.path, ch->facts.plan.path);
    sensitive = ch->facts.plan.sensitive || ch->facts.tier.sensitive ||
                (own != SIZE_MAX && ev->set->items[own]->facts.tier.sensitive);
    at_values(&f, ch->facts.plan.before, ch->facts.plan.after, sensitive);
    ndp_buf_addf(&f.msg, "the change sends %s = AKSLongTermSupport on the "
                 "%s pricing tier; AKS gives long-term support only to "
                 "Premium clusters and refuses the plan on another tier "
                 "(documented; the error it answers with is unconfirmed)",
                 ch->facts.plan.path, sensitive ? "(sensitive)" : tier);
    ndp_buf_addf(&f.help, "set %s to Premium in the same change, or "
                 "%s to KubernetesOfficial",
                 azurerm ? "sku_tier" : "sku.tier", ch->facts.plan.path);
    ndp_check_emit(&f, ev);
}

/* ---- one cluster ---- */

static void check_cluster(const struct ndp_evaluator *ev, size_t c)
{
    const struct ndp_state_cluster *st = ev->resolved->items[c].state;
    struct ndp_strmap state_names = NDP_STRMAP_INIT(true);
    struct cluster_pools pools;
    const struct ndp_change *ch;
    struct plane cp;
    size_t i;

    for (i = 0; st && i < st->nr_pools; i++)
        if (st->pools[i].name)
            ndp_strmap_add(&state_names, st->pools[i].name, i);
    memset(&pools, 0, sizeof(pools));
    pools.outside.fold_case = true;
    read_plane(&cp, ev, c);
    read_pools(&pools, ev, c, &cp, &state_names);
    if (cp.ch) {
        plane_skip(ev, &cp);
        plane_downgrade(ev, &cp);
        plane_skew(ev, &cp, &pools);
        plane_channel(ev, &cp, &pools);
        plane_spot(ev, &cp, &pools);
    }
    for (i = 0; (ch = ndp_evaluator_change(ev, c, i)) != NULL; i++)
        if (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER)
            plan_tier(ev, c, ch);
    for (i = 0; i < pools.nr_ranges; i++)
        body_versions(ev, &pools.ranges[i], &cp, &pools);
    for (i = 0; i < pools.nr; i++)
        pool_checks(ev, &pools.items[i], &cp);
    free(pools.items);
    free(pools.ranges);
    ndp_strmap_release(&pools.outside);
    ndp_strmap_release(&state_names);
}

void ndp_check_versions(const struct ndp_evaluator *ev)
{
    size_t c;

    for (c = 0; c < ev->clusters->nr; c++)
        check_cluster(ev, c);
}
