/*
 * evaluate.c - fourth pipeline stage: the profile and window of each
 * cluster, and a verdict for every hit.
 *
 * Profile: every value the input declares for the cluster (the cluster
 * body, azapi_update_resource setters), before and after; the strictest
 * wins (Block > AllowDuringMaintenanceWindow > Allow), because the order in
 * which the PUTs land is not known.  Else --profile, else Allow.
 * Window: only aksManagedNodeOSUpgradeSchedule counts, as it stands before
 * the change when it exists already.
 * Bypass: a covered change is not gated when the same resource change
 * also upgrades Kubernetes (cluster) or the pool's orchestrator version or
 * node image: that is the same configuration change (spec §5).
 */
#include "common.h"
#include "evaluate.h"
#include "config.h"
#include "impact.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "finding.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "rules.h"
#include "state.h"
#include "timeutil.h"
#include "window.h"

#define FIRST_GATED_MINOR 137 /* Kubernetes 1.37 */

struct evaluator {
    struct ndp_findings *out;
    const struct ndp_clusters *clusters;
    struct ndp_resolutions *resolved;
    const struct ndp_changeset *set;
    const struct ndp_hits *hits;
    const struct ndp_ruleset *rs;
    const struct ndp_eval_options *opt;
    /* per change: its first known upgrade hit (a new version or node
     * image), or NULL */
    const struct ndp_hit **upgrades;
    /* the changes of cluster c: by_cluster[at[c]] .. by_cluster[at[c+1]-1] */
    size_t *by_cluster, *at;
    /* per change: its pools are under a sensitive mask (read once: a
     * mask can be as long as the input) */
    bool *pools_masked;
};

/* The 'k'th change of cluster 'c', or NULL past the last. */
static const struct ndp_change *change_of_cluster(const struct evaluator *ev,
                                                  size_t c, size_t k)
{
    return ev->at[c] + k < ev->at[c + 1]
               ? ev->set->items[ev->by_cluster[ev->at[c] + k]] : NULL;
}

/* ---- profile ---- */

#define NDP_POLICY_PATH \
    "properties.nodeDisruptionProfile.nodeDisruptionPolicy"

struct profile_votes {
    int before;  /* strictest value declared before the change, -1 none */
    int after;   /* strictest value declared after it, -1 none */
    char *unrecognised;
    bool unrecognised_sensitive; /* one under a sensitive mask: not quoted */
    bool expression; /* a template expression stood where a value would */
};

/* The policy 'doc' declares, under sensitive mask 'mask', as a vote. */
static void vote(int *slot, const struct json_object *doc,
                 const struct json_object *mask, struct profile_votes *v)
{
    const struct json_object *at = ndp_json_path(doc, NDP_POLICY_PATH);
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
        if (ndp_json_mask_covers(mask, NDP_POLICY_PATH))
            v->unrecognised_sensitive = true;
        else if (!v->unrecognised)
            v->unrecognised = ndp_xstrdup(value);
        return;
    }
    if (p > *slot)
        *slot = p;
}

static void collect_profile_votes(const struct evaluator *ev, size_t cluster,
                                  struct profile_votes *v)
{
    const struct ndp_change *ch;
    size_t i;

    for (i = 0; (ch = change_of_cluster(ev, cluster, i)) != NULL; i++) {
        if (ch->notation != NDP_NOTATION_ARM ||
            (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_SETTER))
            continue;
        vote(&v->before, ch->before, ch->before_sensitive, v);
        if (ch->action != NDP_ACTION_DELETE)
            vote(&v->after, ch->after, ch->after_sensitive, v);
    }
}

/* The profile .ndplint.json gives the cluster: its entry, else the default. */
static int config_profile(const struct evaluator *ev,
                          const struct ndp_cluster *c)
{
    const struct ndp_config_cluster *e;

    if (!ev->opt->config)
        return -1;
    e = ndp_config_cluster_for(ev->opt->config, c->id);
    if (e && e->profile >= 0)
        return e->profile;
    return ev->opt->config->profile;
}

/*
 * The profile known outside the input: live state, then --profile, then
 * the settings file; -1 when none.  '*source' names where it came from.
 */
static int outside_profile(const struct evaluator *ev,
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
static void resolve_profile(const struct evaluator *ev, size_t index)
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

/* ---- window ---- */

static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);

    while (list && *list) {
        size_t len = strcspn(list, ",");
        if (len == n && strncmp(list, name, n) == 0)
            return true;
        list += len;
        list += strspn(list, ", ");
    }
    return false;
}

static void note_other_window(struct ndp_resolution *c, const char *name)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (listed(c->other_windows, name))
        return;
    if (c->other_windows) {
        ndp_buf_addf(&b, "%s, ", c->other_windows);
        free(c->other_windows);
    }
    ndp_buf_adds(&b, name);
    c->other_windows = ndp_buf_detach(&b);
}

/* One declaration of the node OS window, before and after the change. */
struct window_decl {
    const char *resource;               /* its address */
    const char *path;                   /* printed path of the window */
    const struct json_object *in_force; /* the window the change meets */
    const struct json_object *planned;  /* the window it asks for, if new */
    bool arm;                           /* ARM MaintenanceWindow, else azurerm */
    bool sensitive;                     /* under a sensitive mask, either side */
};

static struct ndp_window *read_window(const struct window_decl *d,
                                      const struct json_object *v,
                                      struct ndp_buf *problems)
{
    return d->arm ? ndp_window_from_arm(v, problems)
                  : ndp_window_from_azurerm(v, problems);
}

/* Problems of the window the plan asks for, so a bad new window is seen. */
/* The window the change sets, when it reads; its problems otherwise. */
static struct ndp_window *read_planned(const struct window_decl *d,
                                       struct ndp_buf *problems)
{
    struct ndp_buf planned = NDP_BUF_INIT;
    struct ndp_window *w;

    if (!d->planned || ndp_json_has_expression(d->planned))
        return NULL;
    w = read_window(d, d->planned, &planned);
    if (planned.len) {
        /* AKS refuses it, so the old window stays in force. */
        ndp_buf_addf(problems, "%sthe window this change sets: %s",
                     problems->len ? "; " : "", planned.buf);
        ndp_window_free(w);
        w = NULL;
    }
    ndp_buf_release(&planned);
    return w;
}

/*
 * A window under a sensitive mask is judged like any other, but nothing
 * read from it is printed: not its settings, not what is wrong with them,
 * not the times it opens and closes (reporters check window_sensitive).
 */
static void redact_window(struct ndp_resolution *c,
                          const struct ndp_buf *problems)
{
    c->window_sensitive = true;
    if (problems->len)
        c->window_problems = ndp_xstrdup("its settings are sensitive (not "
                                         "shown), and AKS would refuse them");
}

static void set_window(struct ndp_resolution *c, const struct window_decl *d)
{
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_window *w = NULL;

    if (c->window || c->window_problems || c->window_expression)
        return;
    if (ndp_json_has_expression(d->in_force)) {
        /* Parameters decide it: neither invalid nor missing. */
        c->window_expression = true;
        return;
    }
    w = read_window(d, d->in_force, &problems);
    if (!w && !problems.len)
        ndp_buf_adds(&problems, "the window cannot be evaluated");
    c->new_window = read_planned(d, &problems);
    c->window = w;
    c->window_resource = ndp_xstrdup(d->resource);
    c->window_path = ndp_xstrdup(d->path);
    c->window_changes = d->planned != NULL;
    if (d->sensitive)
        redact_window(c, &problems);
    else if (problems.len)
        c->window_problems = ndp_buf_detach(&problems);
    ndp_buf_release(&problems);
}

/*
 * The window as it stands before the change when it exists (that is what
 * AKS checks when the change arrives), else as the change creates it; and
 * the new window when the change replaces it.
 */
static void window_sides(struct window_decl *d, const struct ndp_change *ch,
                         const struct json_object *before,
                         const struct json_object *after)
{
    bool had = !ndp_json_is_unset(before) && ch->action != NDP_ACTION_CREATE;

    d->in_force = had ? before : after;
    d->planned = NULL;
    if (had && ch->action == NDP_ACTION_UPDATE && !ndp_json_is_unset(after)) {
        const char *b = json_object_to_json_string_ext(
            ndp_json_unconst(before), JSON_C_TO_STRING_PLAIN);
        char *bcopy = ndp_xstrdup(b);
        if (strcmp(bcopy, json_object_to_json_string_ext(
                              ndp_json_unconst(after),
                              JSON_C_TO_STRING_PLAIN)) != 0)
            d->planned = after;
        free(bcopy);
    }
}

static const struct json_object *first_block(const struct json_object *doc,
                                             const char *key)
{
    const struct json_object *b = ndp_json_index(ndp_json_get(doc, key), 0);

    return ndp_json_is_unset(b) ? NULL : b;
}

static bool has_block(const struct ndp_change *ch, const char *key)
{
    return first_block(ch->before, key) || first_block(ch->after, key);
}

static void azurerm_windows(struct ndp_resolution *c,
                            const struct ndp_change *ch)
{
    struct window_decl d = { ch->address, "maintenance_window_node_os[0]",
                             NULL, NULL, false, false };

    if (has_block(ch, "maintenance_window_auto_upgrade"))
        note_other_window(c, "maintenance_window_auto_upgrade");
    if (has_block(ch, "maintenance_window"))
        note_other_window(c, "maintenance_window");
    d.sensitive = ndp_json_mask_covers(ch->before_sensitive,
                                       "maintenance_window_node_os") ||
                  ndp_json_mask_covers(ch->after_sensitive,
                                       "maintenance_window_node_os");
    window_sides(&d, ch, first_block(ch->before, "maintenance_window_node_os"),
                 first_block(ch->after, "maintenance_window_node_os"));
    if (d.in_force)
        set_window(c, &d);
}

static void arm_window(struct ndp_resolution *c, const struct ndp_change *ch)
{
    struct window_decl d = { ch->address, "properties.maintenanceWindow",
                             NULL, NULL, true, false };
    const struct json_object *b, *a;

    if (!ch->name || ndp_strcasecmp(ch->name, NDP_NODE_OS_WINDOW) != 0) {
        note_other_window(c, ch->name ? ch->name : ch->address);
        return;
    }
    d.sensitive = ndp_json_mask_covers(ch->before_sensitive,
                                       "properties.maintenanceWindow") ||
                  ndp_json_mask_covers(ch->after_sensitive,
                                       "properties.maintenanceWindow");
    b = ndp_json_path(ch->before, "properties.maintenanceWindow");
    a = ndp_json_path(ch->after, "properties.maintenanceWindow");
    window_sides(&d, ch, ndp_json_is_unset(b) ? NULL : b,
                 ndp_json_is_unset(a) ? NULL : a);
    if (d.in_force)
        set_window(c, &d);
}

/* The live window, when the input declares none. */
static void state_window(struct ndp_resolution *c)
{
    struct window_decl d = { NULL, "maintenanceWindow", NULL, NULL, true,
                             false };
    size_t i, n;

    if (!c->state || c->window || c->window_problems || c->window_expression)
        return;
    if (c->state->other_windows) {
        const char *list = c->state->other_windows;
        for (i = 0; list[i]; i += n) {
            char name[128];
            n = strcspn(list + i, ",");
            snprintf(name, sizeof(name), "%.*s", (int)n, list + i);
            note_other_window(c, name);
            n += strspn(list + i + n, ", ");
        }
    }
    if (!c->state->window)
        return;
    d.resource = c->state->sources;
    d.in_force = c->state->window;
    set_window(c, &d);
}

/* The window .ndplint.json declares, when neither input nor state does. */
static void config_window(const struct evaluator *ev,
                          const struct ndp_cluster *cluster,
                          struct ndp_resolution *c)
{
    struct window_decl d = { NULL, "window", NULL, NULL, true, false };
    const struct ndp_config_cluster *e;

    if (!ev->opt->config || c->window || c->window_problems ||
        c->window_expression)
        return;
    e = ndp_config_cluster_for(ev->opt->config, cluster->id);
    if (!e || !e->window)
        return;
    d.resource = ev->opt->config->path;
    d.in_force = e->window;
    set_window(c, &d);
}

/*
 * Spec §11: the apply also replaces the window, and the order in which
 * Terraform applies the two is not known, so an instant counts as inside
 * only when the old and the new window are both open.
 */
static void judge_both_windows(struct ndp_resolution *c, int64_t at)
{
    int64_t start, end;

    c->in_window = 0;
    c->has_next_window = ndp_window_next_common(c->window, c->new_window, at,
                                                &start, &end);
    if (c->has_next_window && start == at) {
        c->in_window = 1;
        c->window_closes_at = end;
        c->has_next_window = ndp_window_next_common(c->window, c->new_window,
                                                    end, &start, &end);
    }
    c->next_window_start = start;
    c->next_window_end = end;
}

static void resolve_window(const struct evaluator *ev, size_t index)
{
    struct ndp_resolution *c = &ev->resolved->items[index];
    const struct ndp_change *ch;
    int64_t closes = 0;
    size_t i;

    for (i = 0; (ch = change_of_cluster(ev, index, i)) != NULL; i++) {
        if (ch->kind == NDP_KIND_CLUSTER &&
            ch->notation == NDP_NOTATION_AZURERM)
            azurerm_windows(c, ch);
        else if (ch->kind == NDP_KIND_MAINTENANCE)
            arm_window(c, ch);
    }
    state_window(c);
    config_window(ev, &ev->clusters->items[index], c);
    if (c->profile != NDP_PROFILE_WINDOW || !c->window)
        return;
    if (c->new_window) {
        judge_both_windows(c, ev->opt->at);
        return;
    }
    c->in_window = ndp_window_is_open(c->window, ev->opt->at, &closes);
    c->window_closes_at = closes;
    c->has_next_window = ndp_window_next(c->window, ev->opt->at,
                                         &c->next_window_start,
                                         &c->next_window_end);
}

/* ---- Kubernetes version in force ---- */

/* The version 'doc' declares; '*sensitive' set when 'mask' marks it. */
static const char *version_in(const struct json_object *doc,
                              const struct json_object *mask,
                              enum ndp_notation notation, bool pool,
                              bool *sensitive)
{
    static const char *const azurerm_keys[] = {
        "kubernetes_version", "current_kubernetes_version"
    };
    static const char *const azurerm_pool_keys[] = {
        "orchestrator_version", "current_orchestrator_version"
    };
    static const char *const arm_keys[] = {
        "properties.kubernetesVersion", "properties.currentKubernetesVersion"
    };
    static const char *const arm_pool_keys[] = {
        "properties.orchestratorVersion",
        "properties.currentOrchestratorVersion"
    };
    const char *const *keys = notation == NDP_NOTATION_ARM
                                  ? (pool ? arm_pool_keys : arm_keys)
                                  : (pool ? azurerm_pool_keys : azurerm_keys);
    size_t i;

    for (i = 0; i < 2; i++) {
        const struct json_object *v = notation == NDP_NOTATION_ARM
                                          ? ndp_json_path(doc, keys[i])
                                          : ndp_json_get(doc, keys[i]);
        if (v && json_object_is_type(v, json_type_string) &&
            ndp_k8s_minor(json_object_get_string(
                ndp_json_unconst(v))) >= 0) {
            *sensitive = ndp_json_mask_covers(mask, keys[i]);
            return json_object_get_string(ndp_json_unconst(v));
        }
    }
    return NULL;
}

/* The version before the change, else the one it asks for. */
static const char *change_version(const struct ndp_change *ch, bool pool,
                                  bool *sensitive)
{
    const char *v = version_in(ch->before, ch->before_sensitive, ch->notation,
                               pool, sensitive);

    return v ? v : version_in(ch->after, ch->after_sensitive, ch->notation,
                              pool, sensitive);
}

static void resolve_version(const struct evaluator *ev, size_t index)
{
    size_t own = ev->clusters->items[index].change;
    struct ndp_resolution *c = &ev->resolved->items[index];
    const char *v;

    v = own == SIZE_MAX ? NULL
                        : change_version(ev->set->items[own], false,
                                         &c->version_sensitive);
    if (!v && c->state)
        v = c->state->version;
    c->version = v ? ndp_xstrdup(v) : NULL;
}

static const struct ndp_state_pool *state_pool(const struct ndp_state_cluster *st,
                                               const char *name)
{
    size_t i;

    for (i = 0; st && name && i < st->nr_pools; i++)
        if (ndp_strcasecmp(st->pools[i].name, name) == 0)
            return &st->pools[i];
    return NULL;
}

static const char *state_pool_version(const struct ndp_state_cluster *st,
                                      const char *name)
{
    const struct ndp_state_pool *p = state_pool(st, name);

    return p ? p->version : NULL;
}

/* Live state says the cluster has node pools and none of them is Windows. */
static bool state_has_no_windows_pool(const struct ndp_state_cluster *st)
{
    size_t i;

    if (!st || !st->has_pools)
        return false;
    for (i = 0; i < st->nr_pools; i++)
        if (st->pools[i].os_type &&
            ndp_strcasecmp(st->pools[i].os_type, "Windows") == 0)
            return false;
    return true;
}

/*
 * The version that decides a §4 change: a pool resource's own orchestrator
 * version, else the cluster's (pools inside a cluster body are taken to run
 * the cluster's version).
 */
static const char *hit_version(const struct evaluator *ev,
                               const struct ndp_hit *h, bool *sensitive)
{
    const struct ndp_change *ch = ev->set->items[h->change];
    const struct ndp_resolution *c = &ev->resolved->items[ch->cluster];
    const char *v = NULL;

    *sensitive = false;
    if (h->rule->scope == NDP_SCOPE_NODEPOOL && ch->kind == NDP_KIND_NODEPOOL)
        v = change_version(ch, true, sensitive);
    if (!v && h->pool)
        v = state_pool_version(c->state, h->pool);
    if (!v)
        *sensitive = c->version_sensitive;
    return v ? v : c->version;
}

/* ---- value text for reports ---- */

/*
 * "https://user:pass@proxy:8080" -> "https://(sensitive)@proxy:8080".
 * Everything up to the last '@' goes: a password may itself hold '@' or
 * '/', and a proxy URL has no path that could.
 */
static void hide_userinfo(struct ndp_buf *out, const char *s)
{
    const char *scheme = strstr(s, "://");
    const char *host = scheme ? scheme + 3 : s;
    const char *at = strrchr(host, '@');
    struct ndp_buf plain = NDP_BUF_INIT;

    if (!at) {
        ndp_buf_add_json_string(out, s);
        return;
    }
    ndp_buf_add(&plain, s, (size_t)(host - s));
    ndp_buf_adds(&plain, "(sensitive)");
    ndp_buf_adds(&plain, at);
    ndp_buf_add_json_string(out, plain.buf);
    ndp_buf_release(&plain);
}

static char *value_text(const struct json_object *v, bool sensitive,
                        bool unknown, const struct ndp_rule *rule)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (unknown)
        ndp_buf_adds(&b, "\"(known after apply)\"");
    else if (ndp_json_is_unset(v))
        ndp_buf_adds(&b, "null");
    else if (sensitive || (rule && rule->secret))
        ndp_buf_adds(&b, "\"(sensitive)\"");
    else if (rule && rule->userinfo_secret &&
             json_object_is_type(v, json_type_string))
        hide_userinfo(&b, json_object_get_string(
                              ndp_json_unconst(v)));
    else
        ndp_json_to_buf(&b, v);
    return ndp_buf_detach(&b);
}

/* ---- findings ---- */

static struct ndp_finding *new_finding(const struct evaluator *ev,
                                       const struct ndp_rule *rule,
                                       enum ndp_verdict verdict,
                                       size_t cluster, const char *input,
                                       const char *resource)
{
    struct ndp_finding *f = ndp_findings_add(ev->out);

    f->rule_id = rule ? rule->id : "NDP000";
    f->category = rule ? rule->category : "policy";
    f->scope = rule ? rule->scope : NDP_SCOPE_CLUSTER;
    f->verdict = verdict;
    f->severity = ndp_verdict_severity(verdict);
    f->input = input;
    f->cluster = ndp_xstrdup(ev->clusters->items[cluster].id);
    f->cluster_index = cluster;
    f->resource = ndp_xstrdup(resource);
    f->path = ndp_xstrdup("");
    f->before = ndp_xstrdup("null");
    f->after = ndp_xstrdup("null");
    return f;
}

/* A Block in .ndplint.json needs an end: the docs say never to freeze for good. */
static void freeze_finding(const struct evaluator *ev, size_t index)
{
    const struct ndp_cluster *c = &ev->clusters->items[index];
    const struct ndp_resolution *r = &ev->resolved->items[index];
    const struct ndp_config_cluster *e;
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding *f;

    if (!ev->opt->config || strcmp(r->profile_source, "config") != 0 ||
        r->profile != NDP_PROFILE_BLOCK)
        return;
    e = ndp_config_cluster_for(ev->opt->config, c->id);
    if (e && e->has_until && e->until >= ev->opt->at)
        return;
    f = new_finding(ev, ndp_ruleset_meta(ev->rs, "freeze-without-end"),
                    NDP_VERDICT_FREEZE_WITHOUT_END, index, c->input,
                    ev->opt->config->path);
    if (e && e->has_until)
        ndp_buf_addf(&msg, "the freeze (Block) that %s declares for this "
                     "cluster ended on %s; it still applies it",
                     ev->opt->config->path, e->until_text);
    else
        ndp_buf_addf(&msg, "%s declares a freeze (Block) for this cluster "
                     "without an end date ('until'); freezes are meant to "
                     "be short", ev->opt->config->path);
    f->message = ndp_buf_detach(&msg);
}

static void cluster_findings(const struct evaluator *ev, size_t index)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    const struct ndp_resolution *c = &ev->resolved->items[index];
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding *f;

    freeze_finding(ev, index);

    if (c->window_problems) {
        f = new_finding(ev, ndp_ruleset_meta(ev->rs, "window-invalid"),
                        NDP_VERDICT_WINDOW_INVALID, index, cluster->input,
                        c->window_resource);
        free(f->path);
        f->path = ndp_xstrdup(c->window_path);
        ndp_buf_addf(&msg, "the aksManagedNodeOSUpgradeSchedule window is "
                     "invalid: %s", c->window_problems);
        f->message = ndp_buf_detach(&msg);
    }
    if (c->profile == NDP_PROFILE_WINDOW && !c->window &&
        !c->window_problems && !c->window_expression) {
        f = new_finding(ev, ndp_ruleset_meta(ev->rs, "gate-open"),
                        NDP_VERDICT_GATE_OPEN, index, cluster->input,
                        cluster->id);
        ndp_buf_adds(&msg, "profile AllowDuringMaintenanceWindow but no "
                     "aksManagedNodeOSUpgradeSchedule maintenance window: "
                     "AKS lets every disruptive change through at any time");
        if (c->other_windows)
            ndp_buf_addf(&msg, " (not the node OS window: %s)",
                         c->other_windows);
        f->message = ndp_buf_detach(&msg);
    }
    ndp_buf_release(&msg);
}

/*
 * Spec 11: a change Terraform deferred to a later round (deferred_changes)
 * is judged like the others, and its finding says that it is deferred.
 */
static void add_deferred(struct ndp_buf *msg, const struct ndp_change *ch)
{
    if (!ch->deferred_reason)
        return;
    ndp_buf_adds(msg, "; Terraform deferred this change to a later plan "
                 "and apply round");
    if (*ch->deferred_reason)
        ndp_buf_addf(msg, " (reason '%s')", ch->deferred_reason);
}

static void replace_finding(const struct evaluator *ev,
                            const struct ndp_change *ch)
{
    struct ndp_finding *f;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (ch->action != NDP_ACTION_REPLACE ||
        (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_NODEPOOL))
        return;
    f = new_finding(ev, ndp_ruleset_meta(ev->rs, "replace"),
                    NDP_VERDICT_REPLACE, ch->cluster, ch->input, ch->address);
    f->scope = ch->kind == NDP_KIND_CLUSTER ? NDP_SCOPE_CLUSTER
                                            : NDP_SCOPE_NODEPOOL;
    f->line = ch->line;
    f->pool = ch->kind == NDP_KIND_NODEPOOL && ch->name ? ndp_xstrdup(ch->name)
                                                        : NULL;
    free(f->path);
    f->path = ndp_xstrdup(ch->replace_paths ? ch->replace_paths : "");
    ndp_buf_addf(&msg, "the %s is destroyed and recreated%s%s%s: every node "
                 "and all node-local data are lost, and the node disruption "
                 "policy does not gate it",
                 ch->kind == NDP_KIND_CLUSTER ? "cluster" : "node pool",
                 ch->replace_paths ? " (because of " : "",
                 ch->replace_paths ? ch->replace_paths : "",
                 ch->replace_paths ? ")" : "");
    add_deferred(&msg, ch);
    f->message = ndp_buf_detach(&msg);
}

/* A what-if change shown without properties (Deploy, Unsupported). */
static void unseen_finding(const struct evaluator *ev,
                           const struct ndp_change *ch)
{
    struct ndp_finding *f;

    if (ch->action != NDP_ACTION_OTHER ||
        (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_NODEPOOL))
        return;
    f = new_finding(ev, ndp_ruleset_meta(ev->rs, "unseen-change"),
                    NDP_VERDICT_MAY_REIMAGE, ch->cluster, ch->input,
                    ch->address);
    f->scope = ch->kind == NDP_KIND_CLUSTER ? NDP_SCOPE_CLUSTER
                                            : NDP_SCOPE_NODEPOOL;
    f->line = ch->line;
    f->message = ndp_xstrdup("what-if cannot show the properties of this "
                             "change (changeType Deploy or Unsupported), so "
                             "it may reimage nodes unseen; review it by hand");
}

/*
 * Does the same resource change also upgrade Kubernetes or a node image?
 * Spec §5: a covered change in the same configuration change as a
 * cluster or node pool version upgrade is not controlled by the policy.
 */
static const struct ndp_hit *bundled_upgrade(const struct evaluator *ev,
                                            const struct ndp_hit *h)
{
    return ev->upgrades[h->change];
}

static const struct ndp_hit **find_upgrades(const struct ndp_changeset *set,
                                            const struct ndp_hits *hits)
{
    const struct ndp_hit **upgrades =
        ndp_xcalloc(set->nr ? set->nr : 1, sizeof(*upgrades));
    size_t i;

    for (i = 0; i < hits->nr; i++) {
        const struct ndp_hit *u = &hits->items[i];
        /* An upgrade known only after apply is no proof of a bypass. */
        if (u->rule->class_ == NDP_CLASS_UPGRADE && !u->after_unknown &&
            !upgrades[u->change])
            upgrades[u->change] = u;
    }
    return upgrades;
}

/* "kubernetes_version "1.36" -> "1.37"" for a message. */
static void describe_upgrade(struct ndp_buf *msg, const struct ndp_hit *u)
{
    char *before = value_text(u->before, u->before_sensitive, false, u->rule);
    char *after = value_text(u->after, u->after_sensitive, false, u->rule);

    ndp_buf_addf(msg, "%s %s -> %s", u->path, before, after);
    free(before);
    free(after);
}

/* The hit's pool name as printed: never one under a sensitive mask. */
static const char *shown_pool(const struct evaluator *ev,
                              const struct ndp_hit *h)
{
    if (h->pool && ev->pools_masked[h->change])
        return "(sensitive)";
    return h->pool;
}

static void describe_target(const struct evaluator *ev, struct ndp_buf *msg,
                            const struct ndp_hit *h)
{
    if (h->rule->target)
        ndp_buf_addf(msg, "reimages %s", h->rule->target);
    else if (h->rule->scope == NDP_SCOPE_CLUSTER)
        ndp_buf_adds(msg, "reimages every node pool of the cluster");
    else if (h->pool)
        ndp_buf_addf(msg, "reimages node pool '%s'", shown_pool(ev, h));
    else
        ndp_buf_adds(msg, "reimages the node pool");
}

static void describe_next_window(struct ndp_buf *msg,
                                 const struct ndp_resolution *c)
{
    int offset;

    if (c->window_sensitive) {
        ndp_buf_adds(msg, "when the window opens is not shown: its settings "
                     "are sensitive");
        return;
    }
    if (!c->has_next_window) {
        ndp_buf_adds(msg, "no window opens within ten years");
        return;
    }
    offset = ndp_window_utc_offset_minutes(c->window);
    /* Without startDate an interval above 1 has an unknown phase. */
    ndp_buf_adds(msg, ndp_window_phase_unknown(c->window)
                          ? "the next window may open "
                          : "the next window opens ");
    ndp_time_format_utc(msg, c->next_window_start);
    ndp_buf_adds(msg, " (");
    ndp_time_format_offset(msg, c->next_window_start, offset);
    ndp_buf_addf(msg, ") for %lld hours",
                 (long long)((c->next_window_end - c->next_window_start) /
                             3600));
}

static void note_both_windows(struct ndp_buf *msg,
                              const struct ndp_resolution *c)
{
    if (c->new_window)
        ndp_buf_adds(msg, " (this apply also replaces the window, so only "
                     "an instant inside both the old and the new one "
                     "counts)");
}

/* Verdict of a change the policy gates, under the cluster's profile. */
static enum ndp_verdict gated_verdict(const struct ndp_resolution *c,
                                      struct ndp_buf *msg)
{
    switch (c->profile) {
    case NDP_PROFILE_BLOCK:
        ndp_buf_adds(msg, "; the node disruption policy Block refuses it");
        return NDP_VERDICT_REJECTED;
    case NDP_PROFILE_WINDOW:
        if (!c->window && (c->window_problems || c->window_expression)) {
            /* Configured but not evaluable: never claim an opening. */
            ndp_buf_adds(msg, "; the aksManagedNodeOSUpgradeSchedule window "
                         "cannot be evaluated, so it is treated as closed");
            return NDP_VERDICT_OUTSIDE_WINDOW;
        }
        if (!c->window) {
            ndp_buf_adds(msg, "; allowed at any time: "
                         "AllowDuringMaintenanceWindow without an "
                         "aksManagedNodeOSUpgradeSchedule window");
            return NDP_VERDICT_ALLOWED;
        }
        if (c->in_window == 1) {
            ndp_buf_adds(msg, "; inside the maintenance window, which "
                         "closes ");
            if (c->window_sensitive)
                ndp_buf_adds(msg, "at a time not shown (sensitive)");
            else
                ndp_time_format_utc(msg, c->window_closes_at);
            note_both_windows(msg, c);
            return NDP_VERDICT_ALLOWED;
        }
        ndp_buf_adds(msg, "; outside the aksManagedNodeOSUpgradeSchedule "
                     "window, so AKS refuses it; ");
        describe_next_window(msg, c);
        note_both_windows(msg, c);
        return NDP_VERDICT_OUTSIDE_WINDOW;
    case NDP_PROFILE_ALLOW:
    default:
        ndp_buf_adds(msg, "; the profile Allow lets it through");
        return NDP_VERDICT_ALLOWED;
    }
}

/*
 * Spec §5 and §11: a covered change in the same resource change as an
 * upgrade is not gated.  That matters only where the policy would have
 * refused it (bypassed); where it would have let it through, it is
 * allowed, and the message names the upgrade either way.
 */
static enum ndp_verdict bundled_verdict(const struct evaluator *ev,
                                        const struct ndp_hit *h,
                                        const struct ndp_resolution *c,
                                        struct ndp_buf *msg)
{
    struct ndp_buf gate = NDP_BUF_INIT;
    enum ndp_verdict gated = gated_verdict(c, &gate);

    ndp_buf_release(&gate);
    ndp_buf_adds(msg, "; bundled with an upgrade in the same change (");
    describe_upgrade(msg, bundled_upgrade(ev, h));
    if (gated == NDP_VERDICT_ALLOWED) {
        ndp_buf_addf(msg, "), which the node disruption policy (%s) would "
                     "have let through anyway", ndp_profile_name(c->profile));
        return NDP_VERDICT_ALLOWED;
    }
    ndp_buf_addf(msg, "), so the node disruption policy (%s) does not gate "
                 "it", ndp_profile_name(c->profile));
    return NDP_VERDICT_BYPASSED;
}

/* A change that reimages only if what the input does not show allows. */
static enum ndp_verdict may_reimage(const struct evaluator *ev,
                                    struct ndp_buf *msg,
                                    const struct ndp_hit *h,
                                    const char *why)
{
    ndp_buf_adds(msg, why);
    describe_target(ev, msg, h);
    return NDP_VERDICT_MAY_REIMAGE;
}

static enum ndp_verdict hit_verdict(const struct evaluator *ev,
                                    const struct ndp_hit *h,
                                    const struct ndp_resolution *c,
                                    struct ndp_buf *msg)
{
    int minor = -1;
    const char *version = NULL;
    bool version_sensitive = false;
    enum ndp_verdict verdict;

    ndp_buf_addf(msg, "%s: ", h->rule->title);
    if (h->rule->class_ == NDP_CLASS_ROTATE) {
        ndp_buf_addf(msg, "azurerm replaces every node of %s%s%s through "
                     "temporary_name_for_rotation (according to its "
                     "documentation without cordon and drain); the node "
                     "disruption policy never sees it",
                     h->pool ? "node pool '" : "the node pool",
                     h->pool ? shown_pool(ev, h) : "", h->pool ? "'" : "");
        return h->after_unknown ? NDP_VERDICT_MAY_REIMAGE : NDP_VERDICT_ROTATE;
    }
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED) {
        version = hit_version(ev, h, &version_sensitive);
        minor = ndp_k8s_minor(version);
    }
    if (h->after_unknown)
        return may_reimage(ev, msg, h, "the new value is known only after "
                           "apply; if it changes this way, it ");
    if (h->context_unseen)
        return may_reimage(ev, msg, h, "what-if shows only the delta of "
                           "this change, without the unchanged properties "
                           "this rule depends on; if they are what it "
                           "needs, the change ");
    if (h->before_unknown)
        return may_reimage(ev, msg, h, "this setter is applied for the "
                           "first time and the cluster's current value is "
                           "not in the input; if it differs, the change ");
    describe_target(ev, msg, h);
    if (bundled_upgrade(ev, h))
        return bundled_verdict(ev, h, c, msg);
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED && minor >= 0 &&
        minor < FIRST_GATED_MINOR) {
        ndp_buf_addf(msg, "; on Kubernetes %s it is not gated and takes "
                     "effect only after 'az aks nodepool upgrade "
                     "--node-image-only', which the policy does not gate "
                     "(from 1.37 the policy gates it)",
                     version_sensitive ? "1.36 or earlier (the version is "
                                         "sensitive)" : version);
        return NDP_VERDICT_MANUAL_UPGRADE;
    }
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED && minor < 0)
        /* Unknown version: judge it as 1.37+ would, and say so. */
        ndp_buf_adds(msg, "; the Kubernetes version is not in the input, so "
                     "it is judged as on 1.37 and later, where the policy "
                     "gates it (on 1.36 and earlier it would need "
                     "'az aks nodepool upgrade --node-image-only')");
    verdict = gated_verdict(c, msg);
    if (c->profile_note)
        ndp_buf_addf(msg, " (%s)", c->profile_note);
    return verdict;
}

static void hit_finding(const struct evaluator *ev, const struct ndp_hit *h)
{
    const struct ndp_change *ch = ev->set->items[h->change];
    const struct ndp_resolution *c = &ev->resolved->items[ch->cluster];
    struct ndp_buf msg = NDP_BUF_INIT;
    enum ndp_verdict verdict;
    struct ndp_finding *f;

    if (h->rule->class_ == NDP_CLASS_UPGRADE ||
        h->rule->class_ == NDP_CLASS_META)
        return;
    /* gMSA reimages Windows pools only: none, nothing is rebuilt. */
    if (strcmp(h->rule->category, "windows-gmsa") == 0 &&
        state_has_no_windows_pool(c->state))
        return;
    verdict = hit_verdict(ev, h, c, &msg);
    add_deferred(&msg, ch);
    f = new_finding(ev, h->rule, verdict, ch->cluster, ch->input, ch->address);
    f->line = ch->line;
    f->pool = h->pool ? ndp_xstrdup(h->pool) : NULL;
    free(f->path);
    free(f->before);
    free(f->after);
    f->path = ndp_xstrdup(h->path);
    f->before = h->before_unknown
                    ? ndp_xstrdup("\"(current value not in the input)\"")
                    : value_text(h->before, h->before_sensitive, false,
                                 h->rule);
    f->after = value_text(h->after, h->after_sensitive, h->after_unknown,
                          h->rule);
    f->message = ndp_buf_detach(&msg);
}

/* The cluster's name: its resource's name, else the id's last segment. */
static const char *cluster_name(const struct evaluator *ev,
                                const struct ndp_cluster *c)
{
    const char *id = c->arm_id ? c->arm_id : c->id;
    const char *slash = strrchr(id, '/');

    if (c->change != SIZE_MAX && ev->set->items[c->change]->name)
        return ev->set->items[c->change]->name;
    return slash ? slash + 1 : NULL;
}

/* Live state for the cluster: by ARM id, else by a name no other shares. */
static void match_state(const struct evaluator *ev, size_t index)
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
 * A finding without a line of its own (about a cluster or the window
 * that declares it) takes the line of its resource's change, found by
 * index: one lookup per finding, not a scan of the set.
 */
static void fill_lines(struct ndp_findings *findings,
                       const struct ndp_changeset *set)
{
    struct ndp_change_index ix;
    size_t i;

    ndp_change_index_build(&ix, set, true);
    for (i = 0; i < findings->nr; i++) {
        struct ndp_finding *f = &findings->items[i];
        const struct ndp_change *ch =
            f->line > 0 ? NULL
                        : ndp_change_index_find(&ix, f->input, f->resource);
        if (ch)
            f->line = ch->line;
    }
    ndp_change_index_release(&ix);
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

void ndp_evaluate(struct ndp_findings *out, struct ndp_resolutions *resolved,
                  const struct ndp_clusters *clusters,
                  const struct ndp_changeset *set, const struct ndp_hits *hits,
                  const struct ndp_ruleset *rs,
                  const struct ndp_eval_options *opt)
{
    struct evaluator ev = { out, clusters, resolved, set, hits, rs, opt, NULL,
                            NULL, NULL, NULL };
    size_t i, *cluster_of = ndp_xcalloc(set->nr ? set->nr : 1,
                                        sizeof(*cluster_of));

    start_resolutions(resolved, clusters->nr);
    ev.pools_masked = ndp_xcalloc(set->nr ? set->nr : 1,
                                  sizeof(*ev.pools_masked));
    for (i = 0; i < set->nr; i++) {
        cluster_of[i] = set->items[i]->cluster;
        ev.pools_masked[i] = ndp_impact_pool_sensitive(set->items[i]);
    }
    ndp_group_indexes(&ev.by_cluster, &ev.at, clusters->nr, set->nr,
                      cluster_of);
    free(cluster_of);
    ev.upgrades = find_upgrades(set, hits);
    for (i = 0; i < clusters->nr; i++) {
        match_state(&ev, i);
        resolve_profile(&ev, i);
        resolve_window(&ev, i);
        resolve_version(&ev, i);
        cluster_findings(&ev, i);
    }
    for (i = 0; i < set->nr; i++) {
        replace_finding(&ev, set->items[i]);
        unseen_finding(&ev, set->items[i]);
    }
    for (i = 0; i < hits->nr; i++)
        hit_finding(&ev, &hits->items[i]);
    free(ev.upgrades);
    free(ev.by_cluster);
    free(ev.at);
    free(ev.pools_masked);
    /* Sorted first, so the impact lists its causes in report order. */
    ndp_findings_sort(out);
    fill_lines(out, set);
}

void ndp_judge(struct ndp_findings *out, struct ndp_clusters *clusters,
               struct ndp_resolutions *resolved, struct ndp_impacts *impacts,
               struct ndp_changeset *set, const struct ndp_ruleset *rs,
               const struct ndp_eval_options *opt)
{
    struct ndp_hits hits = NDP_HITS_INIT;

    ndp_link(clusters, set);
    ndp_engine_run(&hits, rs, set);
    ndp_evaluate(out, resolved, clusters, set, &hits, rs, opt);
    ndp_impact_compute_all(impacts, resolved, set, out);
    ndp_hits_release(&hits);
}
