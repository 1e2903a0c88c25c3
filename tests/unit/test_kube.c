/*
 * SPDX-License-Identifier: Apache-2.0
 * test_kube.c - unit tests for kube.c: IntOrString values, objects read
 * in the API's shape (kubectl, manifests), selectors, and the disruptions
 * a budget allows as the Kubernetes disruption controller counts them.
 *
 * Each table row becomes one cmocka test named after the behaviour it
 * checks, so a failure names the row.
 */
#include "test_common.h"
#include "buf.h"
#include "jsonutil.h"
#include "kube.h"

#include <json-c/json.h>

/* ---- IntOrString ---- */

struct amount_case {
    const char *name;
    const char *json;       /* the value, NULL: absent */
    bool set, unknown, percent;
    long value;
};

static const struct amount_case amount_cases[] = {
    { "amount_integer__count", "3", true, false, false, 3 },
    { "amount_zero__count_zero", "0", true, false, false, 0 },
    { "amount_string_digits__count", "\"2\"", true, false, false, 2 },
    { "amount_percent__percent", "\"50%\"", true, false, true, 50 },
    { "amount_zero_percent__percent_zero", "\"0%\"", true, false, true, 0 },
    { "amount_over_100_percent__unknown", "\"101%\"", true, true, false, 0 },
    { "amount_negative__unknown", "-1", true, true, false, 0 },
    { "amount_word__unknown", "\"half\"", true, true, false, 0 },
    { "amount_spaced_percent__unknown", "\"5 %\"", true, true, false, 0 },
    { "amount_fraction__unknown", "1.5", true, true, false, 0 },
    { "amount_null__not_set", "null", false, false, false, 0 },
    { "amount_absent__not_set", NULL, false, false, false, 0 },
    { "amount_ten_digits__unknown", "\"1234567890\"", true, true, false, 0 },
};

static void amount_case_runs(void **state)
{
    const struct amount_case *c = *state;
    struct json_object *v = c->json ? test_json(c->json) : NULL;
    struct ndp_kube_amount a;

    ndp_kube_amount_read(&a, v);
    assert_int_equal(a.set, c->set);
    assert_int_equal(a.unknown, c->unknown);
    if (!c->unknown) {
        assert_int_equal(a.percent, c->percent);
        assert_int_equal(a.value, c->value);
    }
    json_object_put(v);
}

/* ---- the disruptions a budget allows ---- */

struct allowed_case {
    const char *name;
    const char *spec;       /* a PodDisruptionBudget's spec */
    long pods;
    long allowed;
    bool unsatisfiable;
};

static const struct allowed_case allowed_cases[] = {
    { "min_available_equal_to_pods__none", "{\"minAvailable\":3}", 3, 0,
      false },
    { "min_available_above_pods__none", "{\"minAvailable\":5}", 3, 0, false },
    { "min_available_below_pods__the_rest", "{\"minAvailable\":2}", 3, 1,
      false },
    { "min_available_67_percent_of_2__rounds_up_to_2__none",
      "{\"minAvailable\":\"67%\"}", 2, 0, false },
    { "min_available_50_percent_of_2__one", "{\"minAvailable\":\"50%\"}", 2, 1,
      false },
    { "min_available_100_percent__none", "{\"minAvailable\":\"100%\"}", 7, 0,
      false },
    { "max_unavailable_10_percent_of_1__rounds_up_to_1",
      "{\"maxUnavailable\":\"10%\"}", 1, 1, false },
    { "max_unavailable_1__one", "{\"maxUnavailable\":1}", 4, 1, false },
    { "max_unavailable_above_pods__all", "{\"maxUnavailable\":9}", 4, 4,
      false },
    { "max_unavailable_0__none_and_unsatisfiable", "{\"maxUnavailable\":0}", 4,
      0, true },
    { "max_unavailable_0_percent__unsatisfiable",
      "{\"maxUnavailable\":\"0%\"}", 4, 0, true },
    { "max_unavailable_string_0__unsatisfiable", "{\"maxUnavailable\":\"0\"}",
      4, 0, true },
    { "neither__not_known", "{}", 4, -1, false },
    { "unreadable_min_available__not_known", "{\"minAvailable\":\"x\"}", 4, -1,
      false },
};

static void allowed_case_runs(void **state)
{
    const struct allowed_case *c = *state;
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;
    struct ndp_kube_origin origin = { "t.json", NULL, NULL, 0, NDP_KUBE_BOTH,
                                      false, false, 0 };
    struct ndp_buf text = NDP_BUF_INIT;
    struct json_object *o;

    ndp_buf_addf(&text, "{\"apiVersion\":\"policy/v1\",\"kind\":"
                 "\"PodDisruptionBudget\",\"metadata\":{\"name\":\"b\"},"
                 "\"spec\":%s}", c->spec);
    o = test_json(text.buf);
    assert_true(ndp_kube_read_api_object(&objs, o, NULL, NULL, &origin));
    assert_int_equal(objs.nr_budgets, 1);
    assert_int_equal(ndp_kube_allowed_disruptions(&objs.budgets[0], c->pods),
                     c->allowed);
    assert_int_equal(ndp_kube_budget_unsatisfiable(&objs.budgets[0]),
                     c->unsatisfiable);
    assert_string_equal(objs.budgets[0].ns, "default");
    json_object_put(o);
    ndp_buf_release(&text);
    ndp_kube_objects_release(&objs);
}

/* ---- selectors ---- */

struct select_case {
    const char *name;
    const char *selector;   /* JSON, or NULL: none */
    bool selects;           /* the pod labelled app=web, tier=front */
};

static const struct select_case select_cases[] = {
    { "match_labels_equal__selects", "{\"matchLabels\":{\"app\":\"web\"}}",
      true },
    { "match_labels_other_value__not", "{\"matchLabels\":{\"app\":\"api\"}}",
      false },
    { "match_labels_missing_key__not", "{\"matchLabels\":{\"zone\":\"a\"}}",
      false },
    { "in__selects", "{\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
      "\"In\",\"values\":[\"db\",\"web\"]}]}", true },
    { "not_in_listed__not", "{\"matchExpressions\":[{\"key\":\"tier\","
      "\"operator\":\"NotIn\",\"values\":[\"front\"]}]}", false },
    { "not_in_absent_key__selects", "{\"matchExpressions\":[{\"key\":"
      "\"zone\",\"operator\":\"NotIn\",\"values\":[\"a\"]}]}", true },
    { "exists__selects", "{\"matchExpressions\":[{\"key\":\"tier\","
      "\"operator\":\"Exists\"}]}", true },
    { "does_not_exist__not", "{\"matchExpressions\":[{\"key\":\"tier\","
      "\"operator\":\"DoesNotExist\"}]}", false },
    { "labels_and_expressions_both_hold__selects", "{\"matchLabels\":{"
      "\"app\":\"web\"},\"matchExpressions\":[{\"key\":\"tier\",\"operator\":"
      "\"In\",\"values\":[\"front\"]}]}", true },
    { "empty_selector__every_pod", "{}", true },
    { "null_selector__no_pod", "null", false },
    { "absent_selector__no_pod", NULL, false },
    { "unknown_operator__nothing_known", "{\"matchExpressions\":[{\"key\":"
      "\"app\",\"operator\":\"Gt\",\"values\":[\"1\"]}]}", false },
    { "label_value_not_a_string__nothing_known",
      "{\"matchLabels\":{\"app\":7}}", false },
};

static void select_case_runs(void **state)
{
    const struct select_case *c = *state;
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;
    struct ndp_kube_origin origin = { "t.json", NULL, NULL, 0, NDP_KUBE_BOTH,
                                      false, false, 0 };
    struct ndp_kube_labels pod = { NULL, NULL, 0, 0 };
    struct ndp_buf text = NDP_BUF_INIT;
    struct json_object *o;

    ndp_buf_addf(&text, "{\"apiVersion\":\"policy/v1\",\"kind\":"
                 "\"PodDisruptionBudget\",\"metadata\":{\"name\":\"b\","
                 "\"namespace\":\"shop\"},\"spec\":{\"minAvailable\":1%s%s}}",
                 c->selector ? ",\"selector\":" : "",
                 c->selector ? c->selector : "");
    o = test_json(text.buf);
    assert_true(ndp_kube_read_api_object(&objs, o, NULL, NULL, &origin));
    ndp_kube_labels_add(&pod, "app", "web");
    ndp_kube_labels_add(&pod, "tier", "front");
    assert_int_equal(ndp_kube_selects(&objs.budgets[0].selector, &pod),
                     c->selects);
    assert_string_equal(objs.budgets[0].ns, "shop");
    free(pod.keys[0]);
    free(pod.keys[1]);
    free(pod.values[0]);
    free(pod.values[1]);
    free(pod.keys);
    free(pod.values);
    json_object_put(o);
    ndp_buf_release(&text);
    ndp_kube_objects_release(&objs);
}

/* ---- workloads ---- */

static void read_object(struct ndp_kube_objects *objs, const char *json,
                        const char *unknown)
{
    struct ndp_kube_origin origin = { "t.json", NULL, NULL, 0, NDP_KUBE_BOTH,
                                      false, false, 0 };
    struct json_object *o = test_json(json);
    struct json_object *u = unknown ? test_json(unknown) : NULL;

    origin.address = ndp_xstrdup("kubernetes_manifest.x");
    ndp_kube_read_api_object(objs, o, u, NULL, &origin);
    json_object_put(o);
    json_object_put(u);
}

static void deployment__replicas_and_pod_labels(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;

    (void)state;
    read_object(&objs, "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                "\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\"},"
                "\"spec\":{\"replicas\":4,\"template\":{\"metadata\":{"
                "\"labels\":{\"app\":\"web\"}}}}}", NULL);
    assert_int_equal(objs.nr_workloads, 1);
    assert_string_equal(objs.workloads[0].kind, "Deployment");
    assert_int_equal(objs.workloads[0].replicas, 4);
    assert_int_equal(objs.workloads[0].pod_labels.nr, 1);
    assert_string_equal(objs.workloads[0].pod_labels.values[0], "web");
    assert_string_equal(objs.workloads[0].origin.address,
                        "kubernetes_manifest.x");
    ndp_kube_objects_release(&objs);
}

static void deployment_without_replicas__unknown(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;

    (void)state;
    read_object(&objs, "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\","
                "\"metadata\":{\"name\":\"db\"},\"spec\":{}}", NULL);
    assert_int_equal(objs.workloads[0].replicas, -1);
    ndp_kube_objects_release(&objs);
}

static void replicas_known_after_apply__unknown(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;

    (void)state;
    read_object(&objs, "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                "\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2}}",
                "{\"spec\":{\"replicas\":true}}");
    assert_int_equal(objs.workloads[0].replicas, -1);
    ndp_kube_objects_release(&objs);
}

static void replica_set_a_deployment_owns__not_counted_twice(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;

    (void)state;
    read_object(&objs, "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
                "\"metadata\":{\"name\":\"web-5d8\",\"ownerReferences\":[{"
                "\"kind\":\"Deployment\",\"name\":\"web\"}]},\"spec\":{"
                "\"replicas\":2}}", NULL);
    read_object(&objs, "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
                "\"metadata\":{\"name\":\"lone\"},\"spec\":{\"replicas\":2}}",
                NULL);
    assert_int_equal(objs.nr_workloads, 1);
    assert_string_equal(objs.workloads[0].name, "lone");
    ndp_kube_objects_release(&objs);
}

static void other_kind__not_kept(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;

    (void)state;
    read_object(&objs, "{\"apiVersion\":\"v1\",\"kind\":\"Service\","
                "\"metadata\":{\"name\":\"web\"},\"spec\":{}}", NULL);
    assert_int_equal(objs.nr_workloads + objs.nr_budgets, 0);
    ndp_kube_objects_release(&objs);
}

/* Terraform's masks: a list stands for its first element. */
struct mask_case {
    const char *name;
    const char *mask;
    const char *path;
    bool masked;
};

static const struct mask_case mask_cases[] = {
    { "mask_other_field_of_the_block__not_masked",
      "{\"metadata\":[{\"uid\":true,\"generation\":true}]}",
      "metadata.name", false },
    { "mask_the_field__masked", "{\"metadata\":[{\"name\":true}]}",
      "metadata.name", true },
    { "mask_the_whole_block__masked", "{\"spec\":true}",
      "spec.max_unavailable", true },
    { "mask_below_the_path__masked",
      "{\"spec\":[{\"selector\":[{\"match_labels\":{\"app\":true}}]}]}",
      "spec.selector", true },
    { "mask_object_shape__masked", "{\"spec\":{\"replicas\":true}}",
      "spec.replicas", true },
    { "mask_empty__not_masked", "{}", "spec.replicas", false },
    { "mask_true__masked", "true", "metadata.name", true },
};

static void mask_case_runs(void **state)
{
    const struct mask_case *c = *state;
    struct json_object *m = test_json(c->mask);

    assert_int_equal(ndp_json_mask_covers_first(m, c->path), c->masked);
    json_object_put(m);
}

static void sensitive_name__never_kept(void **state)
{
    struct ndp_kube_objects objs = NDP_KUBE_OBJECTS_INIT;
    struct ndp_kube_origin origin = { "t.json", NULL, NULL, 0, NDP_KUBE_BOTH,
                                      false, false, 0 };
    struct json_object *o = test_json(
        "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\","
        "\"metadata\":{\"name\":\"s3cr3t\"},\"spec\":{\"maxUnavailable\":0}}");
    struct json_object *mask = test_json("{\"metadata\":{\"name\":true}}");

    (void)state;
    ndp_kube_read_api_object(&objs, o, NULL, mask, &origin);
    assert_string_equal(objs.budgets[0].name, "(sensitive)");
    json_object_put(o);
    json_object_put(mask);
    ndp_kube_objects_release(&objs);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, amount_cases, amount_case_runs);
    ADD_ROWS(&list, allowed_cases, allowed_case_runs);
    ADD_ROWS(&list, select_cases, select_case_runs);
    ADD_ROWS(&list, mask_cases, mask_case_runs);
    ADD_TEST(&list, deployment__replicas_and_pod_labels);
    ADD_TEST(&list, deployment_without_replicas__unknown);
    ADD_TEST(&list, replicas_known_after_apply__unknown);
    ADD_TEST(&list, replica_set_a_deployment_owns__not_counted_twice);
    ADD_TEST(&list, other_kind__not_kept);
    ADD_TEST(&list, sensitive_name__never_kept);
    return cmocka_run_group_tests_name("kube", list.items, NULL, NULL);
}
