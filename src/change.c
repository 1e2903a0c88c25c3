/*
 * change.c - ownership of the normalised change set (see change.h).
 */
#include "common.h"
#include "change.h"

#include <json-c/json.h>

size_t ndp_changeset_add_input(struct ndp_changeset *set, const char *path)
{
    struct ndp_input_info *in;

    NDP_GROW(set->inputs, set->alloc_inputs, set->nr_inputs + 1);
    in = &set->inputs[set->nr_inputs];
    memset(in, 0, sizeof(*in));
    in->path = ndp_xstrdup(path);
    return set->nr_inputs++;
}

struct ndp_change *ndp_changeset_add(struct ndp_changeset *set,
                                     size_t input_index)
{
    struct ndp_change *c = ndp_xcalloc(1, sizeof(*c));

    c->input = set->inputs[input_index].path;
    NDP_GROW(set->items, set->alloc, set->nr + 1);
    set->items[set->nr++] = c;
    return c;
}

static void change_free(struct ndp_change *c)
{
    free(c->address);
    free(c->resource_type);
    free(c->name);
    json_object_put(c->before);
    json_object_put(c->after);
    json_object_put(c->after_unknown);
    json_object_put(c->before_sensitive);
    json_object_put(c->after_sensitive);
    free(c->replace_paths);
    free(c->self_id);
    free(c->parent_id);
    free(c->parent_ref);
    free(c->source_dir);
    free(c->deferred_reason);
    free(c);
}

void ndp_changeset_release(struct ndp_changeset *set)
{
    size_t i;

    for (i = 0; i < set->nr; i++)
        change_free(set->items[i]);
    free(set->items);
    for (i = 0; i < set->nr_inputs; i++)
        free(set->inputs[i].path);
    free(set->inputs);
    memset(set, 0, sizeof(*set));
}

const char *ndp_action_name(enum ndp_action action)
{
    static const char *const names[] = {
        "no-op", "create", "update", "replace", "delete", "read", "other"
    };

    return names[action];
}

bool ndp_arm_type_kind(const char *type, enum ndp_kind *kind)
{
    static const char base[] = "Microsoft.ContainerService/managedClusters";
    size_t n = sizeof(base) - 1;

    if (ndp_strncasecmp(type, base, n) != 0)
        return false;
    if (type[n] == '\0')
        *kind = NDP_KIND_CLUSTER;
    else if (ndp_strcasecmp(type + n, "/agentPools") == 0)
        *kind = NDP_KIND_NODEPOOL;
    else if (ndp_strcasecmp(type + n, "/maintenanceConfigurations") == 0)
        *kind = NDP_KIND_MAINTENANCE;
    else
        return false;
    return true;
}
