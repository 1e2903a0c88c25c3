/*
 * SPDX-License-Identifier: Apache-2.0
 * resolve.c - what is in force for each cluster: its live state, its node
 * disruption profile and its Kubernetes version (the window is
 * resolve_window.c's).  Owns struct ndp_resolution (evaluate.h).
 *
 * Profile: every value the input declares for the cluster (the cluster
 * body, azapi_update_resource setters), before and after; the strictest
 * wins (Block > AllowDuringMaintenanceWindow > Allow), because the order in
 * which the PUTs land is not known.  Else live state, --profile or the
 * settings file, else Allow.
 * Version: the cluster's own change, before it when known, else the live
 * state.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "config.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "state.h"
#include "window.h"

/* ---- live state ---- */

/* The cluster's name: its resource's name, else the id's last segment. */
static const char *cluster_name(const struct ndp_evaluator *ev,
                                const struct ndp_cluster *c)
{
    const char *id = c->arm_id ? c->arm_id : c->id;
    const char *slash = strrchr(id, '/');

    if (c->change != SIZE_MAX && ev->set->items[c->change]->name)
        return ev->set->items[c->change]->name;
    return slash ? slash + 1 : NULL;
}

/* Live state for the cluster: by ARM id, else by a name no other shares. */
static void match_state(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    struct ndp_resolution *c = &ev->resolved->items[index];
    struct ndp_states *states = ev->opt->states;
    bool ambiguous = false;

    if (!states || !states->nr)
        return;
    c->state = ndp_states_find_id(states, cluster->arm_id ? cluster->arm_id
                                                          : cluster->id);
    if (!c->state)
        c->state = ndp_states_find_name(states, cluster_name(ev, cluster),
                                        &ambiguous);
    if (ambiguous) {
        struct ndp_buf note = NDP_BUF_INIT;
        ndp_buf_addf(&note, "%s%sseveral --cluster-state clusters are "
                     "called '%s'; none is used", c->profile_note ?
                     c->profile_note : "", c->profile_note ? "; " : "",
                     cluster_name(ev, cluster));
        free(c->profile_note);
        c->profile_note = ndp_buf_detach(&note);
    }
    if (c->state)
        c->state->matched = true;
}

/*
 * The settings file's entry for the cluster: under its address, the
 * address a moved block renamed it from and its ARM id, the strictest, so
 * that a rename never loosens a declaration; a rename is said in the
 * cluster's note.
 */
static void match_declaration(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    struct ndp_resolution *c = &ev->resolved->items[index];
    const char *ids[] = { cluster->id, cluster->previous_id,
                          cluster->arm_id };
    struct ndp_buf note = NDP_BUF_INIT;

    if (ev->opt->config)
        c->declared = ndp_config_cluster_strictest(ev->opt->config, ids,
                                                   NDP_ARRAY_SIZE(ids));
    if (!cluster->previous_id)
        return;
    ndp_buf_addf(&note, "%s%srenamed from %s by a moved block: the settings "
                 "file's declarations are matched under both addresses and "
                 "its ARM id, the strictest applies, and a waiver must name "
                 "the old address or the ARM id", c->profile_note ?
                 c->profile_note : "", c->profile_note ? "; " : "",
                 cluster->previous_id);
    free(c->profile_note);
    c->profile_note = ndp_buf_detach(&note);
}

/* ---- profile ---- */

struct profile_votes {
    int before;  /* strictest value declared before the change, -1 none */
    int after;   /* strictest value declared after it, -1 none */
    char *unrecognised;
    bool unrecognised_sensitive; /* one under a sensitive mask: not quoted */
    bool expression; /* a template expression stood where a value would */
};

/* The policy value 'at' (sensitive when 'sensitive') as a vote. */
static void vote(int *slot, const struct json_object *at, bool sensitive,
                 struct profile_votes *v)
{
    const char *value;
    int p;

    value = at ? json_object_get_string(ndp_json_unconst(at))
               : NULL;
    if (!value || !*value)
        return;
    if (ndp_json_has_expression(at)) {
        v->expression = true; /* not known here */
        return;
    }
    p = ndp_profile_parse(value);
    if (p < 0) {
        /* Never quote what the plan marks sensitive. */
        if (sensitive)
            v->unrecognised_sensitive = true;
        else if (!v->unrecognised)
            v->unrecognised = ndp_xstrdup(value);
        return;
    }
    if (p > *slot)
        *slot = p;
}

/* What the cluster's bodies and setters declare, before and after. */
static void collect_profile_votes(const struct ndp_evaluator *ev,
                                  size_t cluster,
                                  struct profile_votes *v)
{
    const struct ndp_change *ch;
    size_t i;

    for (i = 0; (ch = ndp_evaluator_change(ev, cluster, i)) != NULL; i++) {
        const struct ndp_facts *f = &ch->facts;
        vote(&v->before, f->profile_before, f->profile_before_sensitive, v);
        if (ch->action != NDP_ACTION_DELETE)
            vote(&v->after, f->profile_after, f->profile_after_sensitive, v);
    }
}

/* The profile .ndplint.json gives the cluster: its entry, else the default. */
static int config_profile(const struct ndp_evaluator *ev,
                          const struct ndp_cluster *c)
{
    const struct ndp_config_cluster *e =
        ev->resolved->items[c - ev->clusters->items].declared;

    if (!ev->opt->config)
        return -1;
    if (e && e->profile >= 0)
        return e->profile;
    return ev->opt->config->profile;
}

/*
 * The profile known outside the input: live state, then --profile, then
 * the settings file; -1 when none.  '*source' names where it came from.
 */
static int outside_profile(const struct ndp_evaluator *ev,
                           const struct ndp_cluster *c,
                           const struct ndp_resolution *r,
                           const char **source)
{
    if (r->state && r->state->profile >= 0) {
        *source = "state";
        return r->state->profile;
    }
    if (ev->opt->have_profile) {
        *source = "option";
        return ev->opt->profile;
    }
    *source = "config";
    return config_profile(ev, c);
}

/*
 * Spec §11: the stricter of the profile before the apply and after it.
 * When the input declares no value before (a setter created by this
 * apply, a body that gains the property), the profile in force now is the
 * one known from live state, --profile or the settings file, so a new
 * setter that relaxes it does not beat it.
 */
static void resolve_profile(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    struct ndp_resolution *c = &ev->resolved->items[index];
    struct profile_votes v = { -1, -1, NULL, false, false };
    struct ndp_buf note = NDP_BUF_INIT;
    const char *outside_source = NULL;
    int outside = outside_profile(ev, cluster, c, &outside_source);
    int before, p;

    if (c->profile_note) {
        /* Keep what matching the live state had to say. */
        ndp_buf_adds(&note, c->profile_note);
        free(c->profile_note);
        c->profile_note = NULL;
    }
    collect_profile_votes(ev, index, &v);
    before = v.before >= 0 ? v.before : outside;
    p = before > v.after ? before : v.after;
    if (v.after >= 0 && v.before < 0 && outside > v.after) {
        c->profile = (enum ndp_profile)outside;
        c->profile_source = outside_source;
        ndp_buf_addf(&note, "%sthe input sets %s, but %s is in force now "
                     "and the order of the apply is not known; judged "
                     "under the stricter, %s", note.len ? "; " : "",
                     ndp_profile_name((enum ndp_profile)v.after),
                     ndp_profile_name(c->profile),
                     ndp_profile_name(c->profile));
    } else if (v.before >= 0 || v.after >= 0) {
        c->profile = (enum ndp_profile)p;
        c->profile_source = "input";
        if (before >= 0 && v.after >= 0 && before != v.after)
            ndp_buf_addf(&note, "%sthe input changes the profile from %s to "
                         "%s; judged under the stricter, %s",
                         note.len ? "; " : "",
                         ndp_profile_name((enum ndp_profile)before),
                         ndp_profile_name((enum ndp_profile)v.after),
                         ndp_profile_name(c->profile));
    } else if (outside >= 0) {
        c->profile = (enum ndp_profile)outside;
        c->profile_source = outside_source;
    } else {
        c->profile = NDP_PROFILE_ALLOW;
        c->profile_source = "default";
    }
    if (v.unrecognised)
        ndp_buf_addf(&note, "%sunrecognised nodeDisruptionPolicy '%s' "
                     "ignored", note.len ? "; " : "", v.unrecognised);
    if (v.unrecognised_sensitive)
        ndp_buf_addf(&note, "%san unrecognised nodeDisruptionPolicy (sensitive, "
                     "not shown) ignored", note.len ? "; " : "");
    if (v.expression && p < 0)
        ndp_buf_addf(&note, "%snodeDisruptionPolicy is a template "
                     "expression, known only at deployment; pass --profile "
                     "to judge under the value it will have",
                     note.len ? "; " : "");
    c->profile_note = note.len ? ndp_buf_detach(&note) : NULL;
    ndp_buf_release(&note);
    free(v.unrecognised);
}

/* ---- Kubernetes version in force ---- */

/* The version before the change, else the one it asks for. */
const char *ndp_resolve_change_version(const struct ndp_change *ch,
                                       bool *sensitive)
{
    const struct ndp_facts *f = &ch->facts;

    const char *before = ndp_facts_version_before(f);

    *sensitive = f->versions_sensitive;
    return before ? before : ndp_facts_version_after(f);
}

static void resolve_version(const struct ndp_evaluator *ev, size_t index)
{
    size_t own = ev->clusters->items[index].change;
    struct ndp_resolution *c = &ev->resolved->items[index];
    const char *v;

    v = own == SIZE_MAX ? NULL
                        : ndp_resolve_change_version(ev->set->items[own],
                                                     &c->version_sensitive);
    if (!v && c->state)
        v = c->state->version;
    c->version = v ? ndp_xstrdup(v) : NULL;
}

/* One empty resolution per cluster: no window, so none is judged yet. */
static void start_resolutions(struct ndp_resolutions *resolved, size_t nr)
{
    size_t i;

    resolved->items = ndp_xcalloc(nr ? nr : 1, sizeof(*resolved->items));
    resolved->nr = nr;
    for (i = 0; i < nr; i++)
        resolved->items[i].in_window = -1;
}

void ndp_resolutions_release(struct ndp_resolutions *resolved)
{
    size_t i;

    for (i = 0; i < resolved->nr; i++) {
        struct ndp_resolution *r = &resolved->items[i];
        free(r->profile_note);
        ndp_window_free(r->window);
        ndp_window_free(r->new_window);
        free(r->window_resource);
        free(r->window_path);
        free(r->window_problems);
        free(r->other_windows);
        free(r->version);
    }
    free(resolved->items);
    memset(resolved, 0, sizeof(*resolved));
}

/* The end the settings file gives a freeze (Block) it declares. */
static void resolve_freeze_end(const struct ndp_evaluator *ev, size_t index)
{
    struct ndp_resolution *c = &ev->resolved->items[index];
    const struct ndp_config_cluster *e;

    if (!ev->opt->config || c->profile != NDP_PROFILE_BLOCK ||
        strcmp(c->profile_source, "config") != 0)
        return;
    e = c->declared;
    if (e && e->has_until) {
        c->has_freeze_until = true;
        c->freeze_until = e->until;
    }
}

void ndp_resolve_clusters(const struct ndp_evaluator *ev)
{
    size_t i;

    start_resolutions(ev->resolved, ev->clusters->nr);
    for (i = 0; i < ev->clusters->nr; i++) {
        match_state(ev, i);
        match_declaration(ev, i);
        resolve_profile(ev, i);
        resolve_freeze_end(ev, i);
        ndp_resolve_window(ev, i);
        resolve_version(ev, i);
    }
}
