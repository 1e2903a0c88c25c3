/*
 * SPDX-License-Identifier: Apache-2.0
 * test_run.c - one run as a library call (src/run.c, ndp_run): inputs in
 * memory and in files, every input and cluster-state file that cannot be
 * read kept in result.errors in order, the findings in report order
 * whatever the order of the inputs, findings located under a source
 * root, the baseline written and applied (and refreshed in place), and
 * ndp_result_release() leaving the result as NDP_RESULT_INIT.
 */
#include "test_helpers.h"
#include "buf.h"
#include "run.h"
#include "timeutil.h"

#include <unistd.h>

#define AT "2026-12-05T12:00:00Z"
#define FIXTURE(rel) NDP_FIXTURES_DIR "/" rel

/*
 * A Terraform plan that updates the azurerm cluster 'name': its network
 * policy from unset to azure (NDP101), and with 'ca' its custom CA trust
 * certificates too (NDP109).
 */
static void plan(struct ndp_buf *out, const char *name, bool ca)
{
    const char *p;
    struct ndp_buf text = NDP_BUF_INIT;

    ndp_buf_addf(&text,
                 "{'format_version':'1.2','resource_changes':[{'address':"
                 "'azurerm_kubernetes_cluster.%s','mode':'managed','type':"
                 "'azurerm_kubernetes_cluster','name':'%s','change':{"
                 "'actions':['update'],'before':{'name':'%s',"
                 "'network_profile':[{'network_policy':''}],"
                 "'custom_ca_trust_certificates_base64':[],"
                 "'default_node_pool':[{'name':'sys','node_count':3}]},"
                 "'after':{'name':'%s','network_profile':[{"
                 "'network_policy':'azure'}],"
                 "'custom_ca_trust_certificates_base64':[%s],"
                 "'default_node_pool':[{'name':'sys','node_count':3}]},"
                 "'after_unknown':{}}}]}",
                 name, name, name, name, ca ? "'Q0E='" : "");
    for (p = text.buf; *p; p++)
        ndp_buf_addch(out, *p == '\'' ? '"' : *p);
    ndp_buf_release(&text);
}

/* Options for 'nr' inputs at AT, everything else left out. */
static void options(struct ndp_run_options *o,
                    const struct ndp_run_input *inputs, size_t nr)
{
    memset(o, 0, sizeof(*o));
    o->inputs = inputs;
    o->nr_inputs = nr;
    o->input.max_bytes = NDP_DEFAULT_MAX_INPUT_BYTES;
    assert_int_equal(ndp_time_parse_rfc3339(&o->at, AT), 0);
}

/* The errors of 'r' name these files, in this order, and nothing else. */
static void assert_errors_name(const struct ndp_result *r, int rc,
                               const char *const *files, size_t n)
{
    size_t i;

    if (r->nr_errors != n)
        fail_msg("%zu errors, want %zu (first: %s)", r->nr_errors, n,
                 r->nr_errors ? r->errors[0].msg : "none");
    assert_int_equal(rc, r->errors[0].code);
    for (i = 0; i < n; i++) {
        assert_true(r->errors[i].code < 0);
        if (!strstr(r->errors[i].msg, files[i]))
            fail_msg("error %zu '%s' does not name '%s'", i,
                     r->errors[i].msg, files[i]);
    }
}

/* fixtures/state-plan.json with the cluster-state files 'states'. */
static int run_state_plan(struct ndp_result *r, const char *const *states,
                          size_t nr)
{
    static const struct ndp_run_input input = {
        FIXTURE("state-plan.json"), NULL, 0
    };
    struct ndp_run_options o;

    options(&o, &input, 1);
    o.cluster_states = states;
    o.nr_cluster_states = nr;
    return ndp_run(r, &o, test_ruleset);
}

static const char *const block_state[] = {
    FIXTURE("state/aks-show-block.json"),
};

/* ---- errors -------------------------------------------------------------- */

/* Every input is tried, so that every one that fails is named. */
static void inputs__every_error_kept_in_order(void **state)
{
    struct ndp_buf ok = NDP_BUF_INIT;
    struct ndp_run_input inputs[] = {
        { "first.json", "{", 1 },
        { "ok.json", NULL, 0 },
        { "second.json", "{\"neither\": 1}", 14 },
        { "third.json", "", 0 },
    };
    static const char *const named[] = { "first.json", "second.json",
                                         "third.json" };
    struct ndp_result r = NDP_RESULT_INIT;
    struct ndp_run_options o;
    int rc;

    (void)state;
    plan(&ok, "aks", false);
    inputs[1].bytes = ok.buf;
    inputs[1].size = ok.len;
    options(&o, inputs, NDP_ARRAY_SIZE(inputs));
    rc = ndp_run(&r, &o, test_ruleset);
    assert_int_not_equal(rc, 0);
    assert_errors_name(&r, rc, named, NDP_ARRAY_SIZE(named));
    assert_int_equal(r.findings.nr, 0);
    ndp_result_release(&r);
    ndp_buf_release(&ok);
}

/* A file that is missing is named; the others are read. */
static void inputs__a_missing_file_named(void **state)
{
    static const struct ndp_run_input inputs[] = {
        { FIXTURE("state-plan.json"), NULL, 0 },
        { FIXTURE("no-such-plan.json"), NULL, 0 },
    };
    static const char *const named[] = { "no-such-plan.json" };
    struct ndp_result r = NDP_RESULT_INIT;
    struct ndp_run_options o;
    int rc;

    (void)state;
    options(&o, inputs, NDP_ARRAY_SIZE(inputs));
    rc = ndp_run(&r, &o, test_ruleset);
    assert_errors_name(&r, rc, named, 1);
    assert_int_equal(r.set.nr_inputs, 1);
    assert_true(r.set.nr > 0);
    ndp_result_release(&r);
}

/* Every --cluster-state file is tried: each that fails is named. */
static void cluster_state__every_failing_file_kept(void **state)
{
    static const char *const states[] = {
        FIXTURE("state/not-aks.json"), FIXTURE("state/aks-show-block.json"),
        FIXTURE("state/no-such-state.json"), FIXTURE("state/az-error.json"),
    };
    static const char *const named[] = { "not-aks.json",
                                         "no-such-state.json",
                                         "az-error.json" };
    struct ndp_result r = NDP_RESULT_INIT;
    int rc = run_state_plan(&r, states, NDP_ARRAY_SIZE(states));

    (void)state;
    assert_errors_name(&r, rc, named, NDP_ARRAY_SIZE(named));
    assert_int_equal(r.states.nr, 1);
    assert_int_equal(r.findings.nr, 0);
    ndp_result_release(&r);
}

/* The cluster state in force: read, matched, judged. */
static void cluster_state__read_and_judged(void **state)
{
    struct ndp_result r = NDP_RESULT_INIT;
    size_t i, rejected = 0;

    (void)state;
    assert_int_equal(run_state_plan(&r, block_state, 1), 0);
    assert_int_equal(r.nr_errors, 0);
    assert_true(r.states.items[0].matched);
    for (i = 0; i < r.findings.nr; i++)
        rejected += r.findings.items[i].verdict == NDP_VERDICT_REJECTED;
    assert_true(rejected > 0);
    ndp_result_release(&r);
}

/* ---- the findings -------------------------------------------------------- */

/* "INPUT RESOURCE PATH RULE" of every finding, one a line. */
static void describe(struct ndp_buf *out, const struct ndp_findings *fs)
{
    size_t i;

    for (i = 0; i < fs->nr; i++)
        ndp_buf_addf(out, "%s %s %s %s\n", fs->items[i].input,
                     fs->items[i].resource, fs->items[i].path,
                     fs->items[i].rule_id);
}

/*
 * The findings come out in report order (by input, then cluster,
 * resource, path and rule), whatever order the inputs were given in.
 */
static void findings__report_order_whatever_the_input_order(void **state)
{
    struct ndp_buf a = NDP_BUF_INIT, b = NDP_BUF_INIT;
    struct ndp_buf first = NDP_BUF_INIT, second = NDP_BUF_INIT;
    struct ndp_run_input ab[2], ba[2];
    struct ndp_result r = NDP_RESULT_INIT, s = NDP_RESULT_INIT;
    struct ndp_run_options o;
    size_t i;

    (void)state;
    plan(&a, "zeta", true);
    plan(&b, "alpha", false);
    ab[0] = (struct ndp_run_input){ "a.json", a.buf, a.len };
    ab[1] = (struct ndp_run_input){ "b.json", b.buf, b.len };
    ba[0] = ab[1];
    ba[1] = ab[0];
    options(&o, ba, 2);
    assert_int_equal(ndp_run(&r, &o, test_ruleset), 0);
    assert_string_equal(r.set.inputs[0].path, "b.json");
    options(&o, ab, 2);
    assert_int_equal(ndp_run(&s, &o, test_ruleset), 0);
    assert_true(r.findings.nr >= 4);
    for (i = 1; i < r.findings.nr; i++)
        assert_true(ndp_finding_compare(&r.findings.items[i - 1],
                                        &r.findings.items[i]) < 0);
    assert_string_equal(r.findings.items[0].input, "a.json");
    describe(&first, &r.findings);
    describe(&second, &s.findings);
    assert_string_equal(first.buf, second.buf);
    assert_non_null(strstr(first.buf, "a.json azurerm_kubernetes_cluster."
                           "zeta custom_ca_trust_certificates_base64 "
                           "NDP109\n"));
    ndp_result_release(&r);
    ndp_result_release(&s);
    ndp_buf_release(&a);
    ndp_buf_release(&b);
    ndp_buf_release(&first);
    ndp_buf_release(&second);
}

/* Findings located under --source-root before they are reported. */
static void findings__located_under_the_source_root(void **state)
{
    static const struct ndp_run_input inputs[] = {
        { FIXTURE("tfrepo/plan.json"), NULL, 0 },
    };
    struct ndp_result r = NDP_RESULT_INIT;
    struct ndp_run_options o;
    size_t i, located = 0;

    (void)state;
    options(&o, inputs, 1);
    o.source_root = FIXTURE("tfrepo");
    assert_int_equal(ndp_run(&r, &o, test_ruleset), 0);
    for (i = 0; i < r.findings.nr; i++) {
        const struct ndp_finding *f = &r.findings.items[i];
        if (!f->source_file)
            continue;
        located++;
        if (strcmp(f->rule_id, "NDP101") == 0) {
            assert_string_equal(f->source_file, FIXTURE("tfrepo/main.tf"));
            assert_int_equal(f->source_line, 22);
        }
    }
    assert_int_equal(located, r.findings.nr);
    ndp_result_release(&r);
}

/* ---- the baseline -------------------------------------------------------- */

static char *temp_path(void)
{
    char path[] = "/tmp/ndp-run-XXXXXX";
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    close(fd);
    return ndp_xstrdup(path);
}

/* A run of 'text' as plan.json with the baseline options given. */
static int run_with(struct ndp_result *r, const struct ndp_buf *text,
                    const char *baseline, const char *write_baseline)
{
    struct ndp_run_input input = { "plan.json", text->buf, text->len };
    struct ndp_run_options o;

    options(&o, &input, 1);
    o.baseline = baseline;
    o.write_baseline = write_baseline;
    return ndp_run(r, &o, test_ruleset);
}

/*
 * What --write-baseline lists, --baseline takes out, and counts; a
 * finding it does not list stays.
 */
static void baseline__written_then_applied(void **state)
{
    struct ndp_buf one = NDP_BUF_INIT, two = NDP_BUF_INIT;
    struct ndp_result w = NDP_RESULT_INIT, same = NDP_RESULT_INIT,
                      more = NDP_RESULT_INIT;
    char *path = temp_path();

    (void)state;
    plan(&one, "aks", false);
    plan(&two, "aks", true);
    assert_int_equal(run_with(&w, &one, NULL, path), 0);
    assert_true(w.findings.nr > 0);
    assert_int_equal(w.baseline_known, 0);

    assert_int_equal(run_with(&same, &one, path, NULL), 0);
    assert_int_equal(same.findings.nr, 0);
    assert_int_equal(same.baseline_known, w.findings.nr);

    assert_int_equal(run_with(&more, &two, path, NULL), 0);
    assert_int_equal(more.baseline_known, w.findings.nr);
    assert_int_equal(more.findings.nr, 1);
    assert_string_equal(more.findings.items[0].rule_id, "NDP109");
    ndp_result_release(&w);
    ndp_result_release(&same);
    ndp_result_release(&more);
    unlink(path);
    free(path);
    ndp_buf_release(&one);
    ndp_buf_release(&two);
}

/*
 * With both --baseline and --write-baseline the new baseline is written
 * first (run.h): it lists every current finding, those the old one lists
 * too, so a baseline refreshed in place keeps what it knew.
 */
static void baseline__written_before_the_old_one_applies(void **state)
{
    struct ndp_buf one = NDP_BUF_INIT, two = NDP_BUF_INIT;
    struct ndp_result r = NDP_RESULT_INIT;
    char *old = temp_path(), *fresh = temp_path();
    size_t all;

    (void)state;
    plan(&one, "aks", false);
    plan(&two, "aks", true);
    assert_int_equal(run_with(&r, &one, NULL, old), 0);
    ndp_result_release(&r);
    assert_int_equal(run_with(&r, &two, NULL, NULL), 0);
    all = r.findings.nr;
    ndp_result_release(&r);

    /* Into another file: all of the findings, reported or not. */
    assert_int_equal(run_with(&r, &two, old, fresh), 0);
    assert_int_equal(r.findings.nr, 1);
    ndp_result_release(&r);
    assert_int_equal(run_with(&r, &two, fresh, NULL), 0);
    assert_int_equal(r.findings.nr, 0);
    assert_int_equal(r.baseline_known, all);
    ndp_result_release(&r);

    /* In place: the fresh baseline is the one applied, so it lists all. */
    assert_int_equal(run_with(&r, &two, old, old), 0);
    assert_int_equal(r.findings.nr, 0);
    assert_int_equal(r.baseline_known, all);
    ndp_result_release(&r);
    assert_int_equal(run_with(&r, &two, old, NULL), 0);
    assert_int_equal(r.findings.nr, 0);
    assert_int_equal(r.baseline_known, all);
    ndp_result_release(&r);
    unlink(old);
    unlink(fresh);
    free(old);
    free(fresh);
    ndp_buf_release(&one);
    ndp_buf_release(&two);
}

/* A baseline that cannot be read stops the run, and is named. */
static void baseline__unreadable_is_an_error(void **state)
{
    static const char *const named[] = { "/no-such-dir/base.json" };
    struct ndp_buf one = NDP_BUF_INIT;
    struct ndp_result r = NDP_RESULT_INIT;
    int rc;

    (void)state;
    plan(&one, "aks", false);
    rc = run_with(&r, &one, named[0], NULL);
    assert_errors_name(&r, rc, named, 1);
    ndp_result_release(&r);
    ndp_buf_release(&one);
}

/* ---- release ------------------------------------------------------------- */

static void assert_empty(const struct ndp_result *r)
{
    assert_null(r->set.items);
    assert_int_equal(r->set.nr, 0);
    assert_null(r->set.inputs);
    assert_int_equal(r->set.nr_inputs, 0);
    assert_null(r->states.items);
    assert_int_equal(r->states.nr, 0);
    assert_null(r->states.index);
    assert_null(r->clusters.items);
    assert_int_equal(r->clusters.nr, 0);
    assert_null(r->resolved.items);
    assert_int_equal(r->resolved.nr, 0);
    assert_null(r->impacts.items);
    assert_int_equal(r->impacts.nr, 0);
    assert_null(r->findings.items);
    assert_int_equal(r->findings.nr, 0);
    assert_int_equal(r->at, 0);
    assert_int_equal(r->baseline_known, 0);
    assert_null(r->errors);
    assert_int_equal(r->nr_errors, 0);
}

/*
 * After a run that filled every part of the result, and after one that
 * failed, ndp_result_release() leaves NDP_RESULT_INIT (and may be called
 * again).
 */
static void release__leaves_the_result_as_init(void **state)
{
    struct ndp_buf one = NDP_BUF_INIT;
    struct ndp_result r = NDP_RESULT_INIT;
    char *path = temp_path();

    (void)state;
    assert_int_equal(run_state_plan(&r, block_state, 1), 0);
    assert_true(r.findings.nr && r.clusters.nr && r.states.nr);
    ndp_result_release(&r);
    assert_empty(&r);
    ndp_result_release(&r);
    assert_empty(&r);

    plan(&one, "aks", false);
    assert_int_equal(run_with(&r, &one, NULL, path), 0);
    ndp_result_release(&r);
    assert_int_equal(run_with(&r, &one, path, NULL), 0);
    assert_true(r.baseline_known > 0);
    ndp_result_release(&r);
    assert_empty(&r);

    assert_int_not_equal(run_with(&r, &one, "/no-such-dir/b.json", NULL), 0);
    assert_int_equal(r.nr_errors, 1);
    ndp_result_release(&r);
    assert_empty(&r);
    unlink(path);
    free(path);
    ndp_buf_release(&one);
}

int main(void)
{
    static struct test_list list;

    ADD_TEST(&list, inputs__every_error_kept_in_order);
    ADD_TEST(&list, inputs__a_missing_file_named);
    ADD_TEST(&list, cluster_state__every_failing_file_kept);
    ADD_TEST(&list, cluster_state__read_and_judged);
    ADD_TEST(&list, findings__report_order_whatever_the_input_order);
    ADD_TEST(&list, findings__located_under_the_source_root);
    ADD_TEST(&list, baseline__written_then_applied);
    ADD_TEST(&list, baseline__written_before_the_old_one_applies);
    ADD_TEST(&list, baseline__unreadable_is_an_error);
    ADD_TEST(&list, release__leaves_the_result_as_init);
    return cmocka_run_group_tests_name("run", list.items,
                                       test_rules_load_builtin,
                                       test_rules_free);
}
