/*
 * SPDX-License-Identifier: Apache-2.0
 * change.h - the normalised change set: what a reader hands to the rest of
 * the pipeline, whatever the input format.
 *
 * One struct ndp_change per kept AKS resource.  'before' and 'after' are the
 * documents rules look at, in the input's own notation: azurerm attributes
 * for azurerm resources, the ARM resource body ({"properties": ...}) for
 * azapi resources and ARM inputs.  The masks mirror those documents the way
 * Terraform's after_unknown / before_sensitive / after_sensitive do: a
 * boolean true marks an unknown or sensitive value and everything below it.
 *
 * The change set owns everything in it; json-c values are held with one
 * reference each and released by ndp_changeset_release().
 */
#ifndef NDP_CHANGE_H
#define NDP_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "kube.h"

struct json_object;
struct ndp_strmap;

enum ndp_notation {
    NDP_NOTATION_AZURERM, /* network_profile[0].network_policy */
    NDP_NOTATION_ARM      /* properties.networkProfile.networkPolicy */
};

enum ndp_kind {
    NDP_KIND_CLUSTER,     /* a managed cluster */
    NDP_KIND_NODEPOOL,    /* an agent pool resource of its own */
    NDP_KIND_MAINTENANCE, /* a maintenance configuration */
    NDP_KIND_SETTER       /* a partial update of a cluster (azapi_update_resource) */
};

enum ndp_action {
    NDP_ACTION_NOOP,
    NDP_ACTION_CREATE,
    NDP_ACTION_UPDATE,
    NDP_ACTION_REPLACE,
    NDP_ACTION_DELETE,
    NDP_ACTION_READ,
    NDP_ACTION_OTHER
};

/*
 * What a change declares, in no notation: filled by the input stage
 * (src/input/input_facts.c, ndp_facts_fill()) from the change's documents,
 * so that the stages after the rule engine need not know where azurerm or
 * ARM keeps a value.  Every pointer is borrowed from the change's
 * documents or is static, unless marked owned; values the documents do
 * not declare are NULL, or -1 for numbers.
 */

/* The settings of a node pool the rollout is sized from, and where. */
enum ndp_pool_field {
    NDP_POOL_COUNT,
    NDP_POOL_MIN_COUNT,
    NDP_POOL_MAX_COUNT,
    NDP_POOL_MAX_SURGE,
    NDP_POOL_MAX_UNAVAILABLE,
    NDP_POOL_DRAIN_TIMEOUT,
    NDP_POOL_SOAK_DURATION,
    NDP_POOL_UNDRAINABLE,
    NDP_POOL_ROTATION_NAME,
    NDP_POOL_VERSION,
    NDP_POOL_SUBNET,
    NDP_POOL_MODE,
    NDP_POOL_MAX_BLOCKED,
    NDP_POOL_FIELDS /* not a field: their number */
};

/*
 * A node pool a change declares: a pool resource, a cluster's default
 * pool block (azurerm) or one of its agentPoolProfiles (ARM).  Values are
 * as declared after the change, or before it for a pool it deletes.
 */
struct ndp_pool_facts {
    const char *name;         /* NULL for an element of a what-if delta
                                 that does not name its pool ("[N]") */
    char *path;               /* owned: where the pool is, "" for a pool
                                 resource ("default_node_pool[0]",
                                 "properties.agentPoolProfiles[name=x]",
                                 "properties.agentPoolProfiles[0]") */
    const char *const *fields; /* static: each field's path below 'path',
                                  by enum ndp_pool_field (NULL: none) */
    bool created, deleted;    /* by this apply */
    const char *os_type, *mode, *priority;
    long count, min_count, max_count;
    bool autoscale;
    const char *max_surge, *max_unavailable, *undrainable;
    const char *max_blocked;  /* maxBlockedNodes (ARM only, a preview) */
    long drain_minutes, soak_minutes;
    bool has_drain, has_soak; /* the two above are declared (any integer,
                                 -1 too) */
    /* maxSurge and maxUnavailable as the apply sends them: as declared,
     * or "0" (static) where azurerm sends one beside the other (its node
     * pool resource); NULL when not sent (AKS applies its default). */
    const char *surge_sent, *unavailable_sent;
    /* The apply sends this pool's settings to AKS: it creates or replaces
     * the pool, or updates its resource (an azurerm cluster: only when
     * its default_node_pool block changes; a what-if delta: what it
     * shows).  A deleted pool or a no-op sends nothing. */
    bool sent;
    /* The upgrade settings, mode and sizes declared before the change
     * (-1, NULL: none): what a finding shows beside the new value (azurerm
     * cannot unset the drain timeout and the undrainable behaviour), and
     * what tells a value the change sets from one it sends again as AKS
     * already holds it.  The azurerm default pool's mode is System on
     * both sides. */
    const char *surge_before, *unavailable_before, *undrainable_before;
    const char *max_blocked_before, *mode_before;
    long drain_minutes_before, soak_minutes_before;
    bool has_drain_before, has_soak_before;
    long count_before, min_count_before;
    bool autoscale_before;
    const char *rotation_name;          /* azurerm temporary_name_for_rotation */
    bool rotation_name_unknown;         /* ... known only after apply */
    const char *subnet_id, *pod_subnet_id; /* the node and pod subnets */
    long max_pods;
    bool version_pinned;      /* the orchestrator version is declared, not
                                 only the current one reported */
    const struct json_object *settings_before; /* the pool's own settings
                                 before the change (an ARM pool's
                                 properties, an azurerm block), or NULL */
    /* The orchestrator version, the one place it is kept: as declared
     * (orchestrator_version, orchestratorVersion: any non-empty string,
     * a version or not) before and after the change (after is NULL for a
     * pool the apply deletes), and as AKS reports it running
     * (current_orchestrator_version, currentOrchestratorVersion) on each
     * side; NULL where a side does not say.  ndp_pool_version_before()
     * and ndp_pool_version_after() read the version of a side from them.
     * 'versions_sensitive': a mask covers one of them (or the pool), so
     * none is ever printed. */
    const char *declared_version_before, *declared_version_after;
    const char *reported_version_before, *reported_version_after;
    bool versions_sensitive;
};

/* A maintenance window a change declares: its two sides and its mask. */
struct ndp_window_facts {
    const char *name;         /* as printed: an azurerm block's key, an ARM
                                 configuration's name (else its address) */
    const char *config;       /* the configuration name AKS gets: the one
                                 an azurerm block stands for, an ARM
                                 configuration's name; NULL when not known
                                 (a name known only after apply) */
    bool node_os;             /* aksManagedNodeOSUpgradeSchedule: the one
                                 the node disruption policy reads */
    bool arm;                 /* an ARM MaintenanceWindow, else an azurerm
                                 block */
    bool legacy;              /* azurerm maintenance_window: the hours form
                                 (allowed[], not_allowed[]), no schedule */
    const char *path;         /* static: where the window is */
    const struct json_object *before, *after; /* NULL when not declared */
    const struct json_object *after_unknown;  /* its after_unknown mask */
    bool sensitive;           /* under a sensitive mask on either side */
    const char *start_date_key; /* static: the key of its startDate */
    /* ARM only: the legacy properties beside maintenanceWindow
     * (timeInWeek[], notAllowedTime[]) before and after, and where. */
    const struct json_object *time_in_week_before, *time_in_week_after;
    const struct json_object *not_allowed_time_before,
        *not_allowed_time_after;
    const char *time_in_week_path, *not_allowed_time_path;
};

/* A cluster setting as a change declares it: both sides, and where. */
struct ndp_setting_facts {
    const char *before, *after; /* NULL when not declared (or not a string) */
    const char *path;           /* static: where it is ("" when the
                                   notation has no such setting) */
    bool sensitive;             /* under a sensitive mask on either side */
    bool after_unknown;         /* the new value is known only after apply */
};

struct ndp_facts {
    struct ndp_pool_facts *pools;       /* owned, in the order the input
                                           lists them: kept, then deleted */
    size_t nr_pools;
    bool pools_sensitive;     /* a mask covers (part of) the pools: their
                                 names and sizes are never printed */
    /* The Kubernetes version of a cluster (a pool resource: its
     * orchestrator version), the one place it is kept: as declared
     * (kubernetes_version, kubernetesVersion; a pool resource's
     * orchestrator version: any non-empty string) before and after the
     * change, and as AKS reports it running (current_kubernetes_version,
     * currentKubernetesVersion) on each side; NULL where a side does not
     * say.  ndp_facts_version_before() and ndp_facts_version_after() read
     * the version of a side from them.  'version_path': where the
     * declared one is.  'versions_sensitive': a mask covers one of them. */
    const char *version_path; /* static */
    const char *declared_version_before, *declared_version_after;
    const char *reported_version_before, *reported_version_after;
    bool versions_sensitive;
    /* The support plan a cluster body or setter declares for after the
     * change (for a change without an after document, before it):
     * support_plan, supportPlan, any non-empty string; NULL when not
     * declared.  Never printed. */
    const char *support_plan;
    /* A cluster body or setter turns force upgrade on (after the change):
     * the upgrade drains nodes without regard to pod disruption budgets
     * (put-time-limits PT-UPG-06), until 'force_upgrade_until' (azurerm
     * effective_until, ARM overrideSettings.until; NULL when not set, and
     * then the override takes no effect). */
    bool force_upgrade;
    const char *force_upgrade_until;
    /* A cluster's network plugin and its mode after the change ("azure",
     * "overlay"), NULL when not declared. */
    const char *network_plugin, *network_plugin_mode;
    /* The node disruption policy a cluster body or a setter declares. */
    const struct json_object *profile_before, *profile_after;
    bool profile_before_sensitive, profile_after_sensitive;
    struct ndp_window_facts *windows;   /* owned */
    size_t nr_windows;
    /* A cluster body's or a setter's node OS upgrade channel and its
     * automatic (Kubernetes) upgrade channel (automatic_upgrade_channel,
     * v3 automatic_channel_upgrade; autoUpgradeProfile.upgradeChannel). */
    struct ndp_setting_facts node_os_channel, upgrade_channel;
    /* A cluster body's or a setter's support plan (support_plan,
     * properties.supportPlan) and pricing tier (sku_tier, sku.tier), both
     * sides: what the long-term support check reads. */
    struct ndp_setting_facts plan, tier;
    bool sends_whole_body;    /* every update sends the whole resource
                                 again (azapi), unchanged parts with it */
    /* For the rule engine's walk: the key of a list of pools matched by
     * name (ARM agentPoolProfiles), the key of a block that is the
     * cluster's default pool (azurerm default_node_pool); NULL: none. */
    const char *pool_list_key, *default_pool_key;
};

struct ndp_change {
    const char *input;      /* input path as the user named it (borrowed from the set) */
    char *address;          /* Terraform address or ARM resource id */
    char *previous_address; /* the address a moved block renamed it from
                               (Terraform previous_address), or NULL */
    char *resource_type;    /* azurerm type, or the ARM type without @api-version */
    char *name;             /* resource name (azapi 'name', pool name), may be NULL */
    char *shown_name;       /* a cluster's Azure name as it may be printed:
                               NULL when absent, unknown or sensitive */
    char *shown_group;      /* its resource group, the same way */
    enum ndp_kind kind;
    enum ndp_notation notation;
    enum ndp_action action;
    struct json_object *before, *after;
    struct json_object *after_unknown;
    struct json_object *before_sensitive, *after_sensitive;
    char *replace_paths;    /* printed, ", "-separated; NULL when none */
    char *self_id;          /* ARM id of this resource when known */
    char *parent_id;        /* ARM id of the cluster it belongs to, when known */
    char *parent_ref;       /* Terraform address of that cluster, from configuration */
    char *pool_ref;         /* a pool setter's: Terraform address of the
                               pool resource it updates, from configuration */
    char *source_dir;       /* directory of its module's .tf files, relative
                               to the root module ("" for the root); NULL
                               when the module is not local */
    bool setter;            /* a partial update of a resource that exists
                               (azapi_update_resource): its first apply
                               creates nothing */
    bool delta_only;        /* before/after rebuilt from a what-if delta:
                               unchanged properties are not shown */
    bool before_unknown;    /* the values it replaces are not in the input
                               (first apply of a setter, spec §11) */
    bool before_from_link;  /* 'before' was set by the linker from another
                               change (first apply of a setter): its facts
                               are read again after linking */
    long line;              /* 1-based line of the resource in the input, 0 if unknown */
    char *deferred_reason;  /* Terraform deferred the change to a later
                               round (deferred_changes): its "reason" as
                               the plan gives it ("" when absent); NULL
                               for a change applied now */
    size_t cluster;         /* index into the linker's cluster list */
    size_t order_node;      /* its node in the set's order graph, plus 1;
                               0: no order is known (not a Terraform plan,
                               or no configuration) */
    struct ndp_facts facts; /* what it declares (above) */
};

struct ndp_input_info {
    char *path;             /* as given on the command line ("-" for stdin) */
    const char *format;     /* its reader's name ("terraform-plan", ...) */
    size_t resources_seen;  /* all resources in the input, AKS or not */
};

/*
 * A subnet the input declares (azurerm_subnet in a Terraform plan): what
 * the address room of the node pools in it is sized against
 * (put-time-limits PT-CAP-02).  Owned by the change set.
 */
struct ndp_subnet {
    char *id;               /* ARM id, as written; NULL when unknown */
    char *address;          /* Terraform address */
    char *prefixes;         /* its IPv4 address prefixes, ", "-separated */
    long usable;            /* addresses Azure leaves usable: each IPv4
                               prefix's size less 5, summed; -1 when no
                               prefix is known */
    bool sensitive;         /* its prefixes are under a sensitive mask */
};

/*
 * A node of the order Terraform applies a plan in, read from its
 * 'configuration' (src/input/input_tfplan.c): a resource, a data source,
 * a module's input variable, output or call, instance keys ignored.
 * 'deps': the nodes it waits for (its references and depends_on), as
 * indexes into ndp_changeset.order.  Owned by the change set.
 */
struct ndp_order_node {
    size_t *deps;
    size_t nr, alloc;
    /* Named (referenced, depended on) but not declared in the input's
     * configuration as the reader keeps it (a resource of a type the
     * pruned parser reads past): what it waits for is not known, so it
     * may order anything after it. */
    bool opaque;
};

struct ndp_changeset {
    struct ndp_change **items;
    size_t nr, alloc;
    struct ndp_input_info *inputs;
    size_t nr_inputs, alloc_inputs;
    struct ndp_subnet *subnets;
    size_t nr_subnets, alloc_subnets;
    struct ndp_order_node *order;   /* every input's nodes, one graph */
    size_t nr_order, alloc_order;
    /* The pod disruption budgets and workloads of the plans' kubernetes
     * resources (input_kube.c). */
    struct ndp_kube_objects kube;
};

#define NDP_CHANGESET_INIT { NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, \
                             NDP_KUBE_OBJECTS_INIT }

/* Adds an order node without dependencies and returns its index. */
size_t ndp_changeset_add_order(struct ndp_changeset *set);
/* Records that order node 'from' waits for node 'to'. */
void ndp_changeset_add_order_dep(struct ndp_changeset *set, size_t from,
                                 size_t to);

/* Adds an empty change for input 'input_index' and returns it (owned by 'set'). */
struct ndp_change *ndp_changeset_add(struct ndp_changeset *set,
                                     size_t input_index);
/* Registers an input and returns its index; copies 'path'. */
size_t ndp_changeset_add_input(struct ndp_changeset *set, const char *path);
void ndp_changeset_release(struct ndp_changeset *set);
/* Adds an empty subnet ('usable' -1) and returns it (owned by 'set'). */
struct ndp_subnet *ndp_changeset_add_subnet(struct ndp_changeset *set);
/* Frees what 'facts' owns and leaves it empty. */
/*
 * Past a Terraform instance key "[...]" at 'p' in an address (a for_each
 * key is a quoted string that may itself hold '.' or ']'); 'p' when no
 * key begins there.
 */
const char *ndp_address_skip_key(const char *p);

/*
 * The Kubernetes version of a side of the change: the declared one when
 * it is a version (its minor reads), else the one AKS reports; NULL when
 * neither is.  Borrowed from the facts.
 */
const char *ndp_facts_version_before(const struct ndp_facts *f);
const char *ndp_facts_version_after(const struct ndp_facts *f);
/* The same of a pool's orchestrator version. */
const char *ndp_pool_version_before(const struct ndp_pool_facts *p);
const char *ndp_pool_version_after(const struct ndp_pool_facts *p);

void ndp_facts_release(struct ndp_facts *facts);

/*
 * Appends where 'field' of pool 'p' is, as the input prints it
 * ("default_node_pool[0].upgrade_settings[0].max_surge", "properties.
 * upgradeSettings.maxSurge"): the pool's path, then the field's.
 */
struct ndp_buf;
void ndp_pool_field_path(struct ndp_buf *out, const struct ndp_pool_facts *p,
                         enum ndp_pool_field field);

/*
 * The changes of a set by input and address, so that a finding finds its
 * change in O(1) expected, not by a scan of the set (a keyed hash: see
 * strmap.h).  Holds the first change of each (input, address), or with
 * 'with_line' the first that has a line.  Borrows 'set', which must
 * outlive it.
 */
struct ndp_change_index {
    const struct ndp_changeset *set;
    char **keys;            /* owned: "LEN:INPUT" then the address */
    size_t nr;
    struct ndp_strmap *map; /* owned */
};

void ndp_change_index_build(struct ndp_change_index *out,
                            const struct ndp_changeset *set, bool with_line);
/* The indexed change of 'input' with 'address', or NULL. */
const struct ndp_change *ndp_change_index_find(
    const struct ndp_change_index *ix, const char *input,
    const char *address);
void ndp_change_index_release(struct ndp_change_index *ix);

/*
 * Indexes 0..n-1 grouped by 'cluster_of[i]' (values >= 'clusters' are left
 * out), in order within a group: those of cluster c are out[start[c]] ..
 * out[start[c + 1] - 1].  '*out' and '*start' are returned owned.
 */
void ndp_group_indexes(size_t **out, size_t **start, size_t clusters,
                       size_t n, const size_t *cluster_of);

/*
 * The kind of an ARM resource type ("Microsoft.ContainerService/
 * managedClusters", ".../agentPools", ".../maintenanceConfigurations",
 * compared case-insensitively, without api-version); false for others.
 */
bool ndp_arm_type_kind(const char *type, enum ndp_kind *kind);

/*
 * The segment after "/<type>/" in an ARM id ("resourceGroups",
 * "managedClusters", compared case-insensitively), as a new string; NULL
 * when the id has none or it is empty or a template expression.
 */
char *ndp_arm_id_segment(const char *id, const char *type);

#endif
