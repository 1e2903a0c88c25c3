/*
 * linker.c - second pipeline stage: changes grouped under their clusters.
 *
 * Matching order for a node pool, policy setter or maintenance
 * configuration: the ARM id it names (kubernetes_cluster_id, parent_id,
 * resource_id) against each cluster's own id; then the Terraform address
 * its configuration refers to, exactly or ignoring the count/for_each key
 * when that leaves a single candidate; else a cluster entry of its own,
 * named by the id it refers to (or by its own address).
 */
#include "common.h"
#include "linker.h"
#include "buf.h"
#include "change.h"
#include "jsonutil.h"
#include "window.h"

static size_t add_cluster(struct ndp_clusters *cl, const char *id,
                          const char *arm_id, const char *input, size_t change)
{
    struct ndp_cluster *c;

    NDP_GROW(cl->items, cl->alloc, cl->nr + 1);
    c = &cl->items[cl->nr];
    memset(c, 0, sizeof(*c));
    c->id = ndp_xstrdup(id);
    c->arm_id = arm_id ? ndp_xstrdup(arm_id) : NULL;
    c->input = input;
    c->change = change;
    c->in_window = -1;
    return cl->nr++;
}

static bool same_input(const struct ndp_cluster *c, const struct ndp_change *ch)
{
    return strcmp(c->input, ch->input) == 0;
}

static size_t find_by_arm_id(const struct ndp_clusters *cl,
                             const struct ndp_change *ch)
{
    size_t i;

    for (i = 0; ch->parent_id && i < cl->nr; i++)
        if (same_input(&cl->items[i], ch) && cl->items[i].arm_id &&
            ndp_strcasecmp(cl->items[i].arm_id, ch->parent_id) == 0)
            return i;
    return SIZE_MAX;
}

/* Address without its trailing instance key: a.b["x"] -> a.b */
static size_t base_len(const char *address)
{
    size_t n = strlen(address);

    if (n && address[n - 1] == ']') {
        const char *open = strrchr(address, '[');
        if (open)
            return (size_t)(open - address);
    }
    return n;
}

static size_t find_by_reference(const struct ndp_clusters *cl,
                                const struct ndp_change *ch)
{
    size_t i, found = SIZE_MAX, candidates = 0;
    size_t ref_len;

    if (!ch->parent_ref)
        return SIZE_MAX;
    ref_len = strlen(ch->parent_ref);
    for (i = 0; i < cl->nr; i++) {
        const struct ndp_cluster *c = &cl->items[i];
        if (!same_input(c, ch) || c->change == SIZE_MAX)
            continue;
        if (strcmp(c->id, ch->parent_ref) == 0)
            return i;
        if (base_len(c->id) == ref_len &&
            strncmp(c->id, ch->parent_ref, ref_len) == 0) {
            found = i;
            candidates++;
        }
    }
    return candidates == 1 ? found : SIZE_MAX;
}

static size_t find_by_name(const struct ndp_clusters *cl, const char *id,
                           const char *input)
{
    size_t i;

    for (i = 0; i < cl->nr; i++)
        if (strcmp(cl->items[i].input, input) == 0 &&
            ndp_strcasecmp(cl->items[i].id, id) == 0)
            return i;
    return SIZE_MAX;
}

static size_t link_one(struct ndp_clusters *cl, const struct ndp_change *ch)
{
    size_t i = find_by_arm_id(cl, ch);
    const char *id;

    if (i == SIZE_MAX)
        i = find_by_reference(cl, ch);
    if (i != SIZE_MAX)
        return i;
    id = ch->parent_id ? ch->parent_id
         : ch->parent_ref ? ch->parent_ref : ch->address;
    i = find_by_name(cl, id, ch->input);
    if (i == SIZE_MAX)
        i = add_cluster(cl, id, ch->parent_id, ch->input, SIZE_MAX);
    return i;
}

/*
 * The part of 'current' that 'body' sets: for every member of 'body', the
 * value 'current' holds at the same place (whole values below the first
 * non-object).  NULL when 'current' holds none of it.
 */
static struct json_object *project(const struct json_object *body,
                                   const struct json_object *current)
{
    struct json_object *out;

    if (ndp_json_is_unset(current))
        return NULL;
    if (!body || !json_object_is_type(body, json_type_object) ||
        !json_object_is_type(current, json_type_object)) {
        out = NULL;
        json_object_deep_copy((struct json_object *)(uintptr_t)current, &out, NULL);
        return out;
    }
    out = json_object_new_object();
    json_object_object_foreach((struct json_object *)(uintptr_t)body, key,
                               value) {
        struct json_object *part = project(value, ndp_json_get(current, key));
        if (part)
            json_object_object_add(out, key, part);
    }
    return out;
}

/*
 * Spec §11: the first apply of an azapi_update_resource has no 'before'.
 * The cluster's current values are taken from the cluster resource in the
 * same input (its 'before', when it is in ARM terms too); otherwise the
 * setter's values are compared with nothing known and may reimage.
 */
static void first_apply_of_setter(struct ndp_change *ch,
                                  const struct ndp_clusters *cl,
                                  const struct ndp_changeset *set)
{
    const struct ndp_cluster *c = &cl->items[ch->cluster];
    const struct ndp_change *own = c->change != SIZE_MAX
                                       ? set->items[c->change] : NULL;

    if (ch->kind != NDP_KIND_SETTER || ch->action != NDP_ACTION_CREATE ||
        ch->before)
        return;
    if (own && own->notation == NDP_NOTATION_ARM && own->before)
        ch->before = project(ch->after, own->before);
    else
        ch->before_unknown = true;
    if (!ch->before)
        ch->before = json_object_new_object();
}

void ndp_link(struct ndp_clusters *out, struct ndp_changeset *set)
{
    size_t i;

    for (i = 0; i < set->nr; i++) {
        struct ndp_change *ch = set->items[i];
        if (ch->kind == NDP_KIND_CLUSTER)
            ch->cluster = add_cluster(out, ch->address, ch->self_id,
                                      ch->input, i);
    }
    for (i = 0; i < set->nr; i++) {
        struct ndp_change *ch = set->items[i];
        if (ch->kind != NDP_KIND_CLUSTER)
            ch->cluster = link_one(out, ch);
    }
    for (i = 0; i < set->nr; i++)
        first_apply_of_setter(set->items[i], out, set);
}

void ndp_clusters_release(struct ndp_clusters *clusters)
{
    size_t i;

    for (i = 0; i < clusters->nr; i++) {
        struct ndp_cluster *c = &clusters->items[i];
        free(c->id);
        free(c->arm_id);
        free(c->profile_note);
        ndp_window_free(c->window);
        ndp_window_free(c->new_window);
        free(c->window_json);
        free(c->window_text);
        free(c->window_resource);
        free(c->window_path);
        free(c->window_problems);
        free(c->other_windows);
        free(c->version);
        free(c->impact_json);
        free(c->impact_text);
    }
    free(clusters->items);
    memset(clusters, 0, sizeof(*clusters));
}

const char *ndp_profile_name(enum ndp_profile profile)
{
    static const char *const names[] = {
        "Allow", "AllowDuringMaintenanceWindow", "Block"
    };

    return names[profile];
}
