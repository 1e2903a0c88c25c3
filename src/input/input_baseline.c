/*
 * SPDX-License-Identifier: Apache-2.0
 * input_baseline.c - the 'before' of a setter's first apply (spec §11):
 * an azapi_update_resource has none on its first apply, and the rule
 * engine compares what it sends with what another change of the same
 * input tells of the resource when it runs.  The linker says which
 * change that is (the cluster's own, the pool's); this file reads its
 * documents and writes the setter's 'before' in the setter's terms (ARM):
 * an ARM cluster's values at the places the setter sets, what a create
 * declares, an azurerm cluster's or pool's Kubernetes version.
 */
#include "common.h"
#include "input.h"
#include "change.h"
#include "jsonutil.h"
#include "k8s_version.h"

#include <json-c/json.h>

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
        json_object_deep_copy(ndp_json_unconst(current), &out, NULL);
        return out;
    }
    out = json_object_new_object();
    json_object_object_foreach(ndp_json_unconst(body), key,
                               value) {
        struct json_object *part = project(value, ndp_json_get(current, key));
        if (part)
            json_object_object_add(out, key, part);
    }
    return out;
}

/*
 * A version in ARM terms, {"properties": {KEY: VERSION}}, as a baseline a
 * setter's body is projected on: NULL when the version is not declared
 * or is under a mask (a finding would print it).
 */
static struct json_object *version_document(const char *key,
                                            const char *version,
                                            bool sensitive)
{
    struct json_object *doc, *props;

    if (!version || sensitive)
        return NULL;
    doc = json_object_new_object();
    props = json_object_new_object();
    json_object_object_add(props, key, json_object_new_string(version));
    json_object_object_add(doc, "properties", props);
    return doc;
}

/*
 * The Kubernetes version an existing azurerm cluster has when a setter
 * that refers to it runs (after the cluster's own update): the one its
 * update asks for when that moves it (not an alias of the minor it runs),
 * else the one AKS reports running, else the one declared before.
 */
static const char *version_when_set(const struct ndp_facts *f)
{
    const char *running = f->reported_version_before
                              ? f->reported_version_before
                              : f->declared_version_before;
    struct ndp_k8s_version asked, now;

    if (!ndp_k8s_version_parse(&asked, f->declared_version_after))
        return running;
    if (!ndp_k8s_version_parse(&now, running))
        return f->declared_version_after;
    switch (ndp_k8s_version_order(&asked, &now)) {
    case NDP_K8S_SAME:
    case NDP_K8S_SAME_MINOR:
        return running;
    default:
        return f->declared_version_after;
    }
}

/*
 * What the cluster's own change 'own' tells of the cluster when setter
 * 'ch' runs, in ARM terms, or NULL: a cluster the apply creates holds
 * what its create declares; an existing one what its 'before' holds (an
 * azurerm cluster only its Kubernetes version, as AKS reports it running,
 * else as declared).  The caller releases it.
 */
static struct json_object *cluster_baseline(const struct ndp_change *ch,
                                            const struct ndp_change *own)
{
    const struct ndp_facts *f = &own->facts;
    bool created = own->action == NDP_ACTION_CREATE;

    if (own->notation == NDP_NOTATION_ARM)
        return project(ch->after, created ? own->after : own->before);
    if (created)
        return version_document("kubernetesVersion",
                                f->declared_version_after,
                                f->versions_sensitive);
    return version_document("kubernetesVersion", version_when_set(f),
                            f->versions_sensitive);
}

/*
 * What the input tells of the pool when setter 'ch' runs, as its body's
 * 'properties' would hold it, or NULL: an existing ARM pool's settings
 * before the change (all of them: '*whole'); a pool the apply creates,
 * or an existing azurerm one, its orchestrator version only (after its
 * create, else as AKS reports it running, else as declared).  The caller
 * releases it.
 */
static struct json_object *pool_baseline(bool *whole,
                                         const struct ndp_change *ch,
                                         const struct ndp_change *by,
                                         const struct ndp_pool_facts *p)
{
    struct json_object *props = ndp_json_get(ch->after, "properties");
    struct json_object *version, *part;
    bool created = p->created || by->action == NDP_ACTION_CREATE;

    *whole = false;
    if (by->notation == NDP_NOTATION_ARM && by->before && !created &&
        p->settings_before) {
        *whole = true;
        return project(props, p->settings_before);
    }
    version = version_document("orchestratorVersion",
                               created ? p->declared_version_after
                               : p->reported_version_before
                                   ? p->reported_version_before
                                   : p->declared_version_before,
                               p->versions_sensitive);
    part = version ? project(props, ndp_json_get(version, "properties"))
                   : NULL;
    json_object_put(version);
    return part;
}

/* ---- the setters' 'before' ---- */

void ndp_input_setter_before(struct ndp_change *ch,
                             const struct ndp_change *own)
{
    struct json_object *baseline;

    baseline = own && (own->before || own->action == NDP_ACTION_CREATE)
                   ? cluster_baseline(ch, own) : NULL;
    ch->before_unknown = !(own && own->notation == NDP_NOTATION_ARM &&
                           own->before);
    if (baseline && own->notation == NDP_NOTATION_ARM) {
        /* The same paths: the cluster's mask covers what it hides. */
        const struct json_object *mask = own->action == NDP_ACTION_CREATE
                                             ? own->after_sensitive
                                             : own->before_sensitive;
        ch->before = baseline;
        if (mask) {
            json_object_put(ch->before_sensitive);
            ch->before_sensitive = NULL;
            json_object_deep_copy(ndp_json_unconst(mask),
                                  &ch->before_sensitive, NULL);
        }
    } else if (baseline) {
        ch->before = project(ch->after, baseline);
        json_object_put(baseline);
    }
    if (!ch->before)
        ch->before = json_object_new_object();
    ch->before_from_link = true;
}

void ndp_input_pool_setter_before(struct ndp_change *ch,
                                  const struct ndp_change *by,
                                  const struct ndp_pool_facts *p)
{
    bool whole = false;
    struct json_object *part = p ? pool_baseline(&whole, ch, by, p) : NULL;

    ch->before = json_object_new_object();
    if (part)
        json_object_object_add(ch->before, "properties", part);
    ch->before_unknown = !whole;
    ch->before_from_link = true;
}
