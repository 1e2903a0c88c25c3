/*
 * SPDX-License-Identifier: Apache-2.0
 * resolve_window.c - the maintenance window in force for each cluster.
 *
 * Only aksManagedNodeOSUpgradeSchedule counts, as it stands before the
 * change when it exists already (that is what AKS checks when the change
 * arrives); the input declares it, else the live state, else the settings
 * file.  When the apply also replaces it, an instant is inside only where
 * the old and the new window are both open (spec §11).  Other maintenance
 * configurations are noted so that a report can say why they do not count.
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
static void config_window(const struct ndp_evaluator *ev,
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

void ndp_resolve_window(const struct ndp_evaluator *ev, size_t index)
{
    struct ndp_resolution *c = &ev->resolved->items[index];
    const struct ndp_change *ch;
    int64_t closes = 0;
    size_t i;

    for (i = 0; (ch = ndp_evaluator_change(ev, index, i)) != NULL; i++) {
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
