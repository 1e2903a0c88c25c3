/*
 * SPDX-License-Identifier: Apache-2.0
 * test_verdicts.c - the verdict table (src/verdicts.c): architecture §5
 * row by row (severity frozen now and otherwise, refused now), the flags
 * the impact and the reports read, every row complete (a name, words for
 * --explain, a meta rule that the rule files define with the id the row
 * names, taken by a finding made with its verdict alone), and the
 * explain module reading it.
 */
#include "test_helpers.h"
#include "buf.h"
#include "error.h"
#include "explain.h"
#include "finding.h"
#include "verdicts.h"

#define E NDP_SEVERITY_ERROR
#define W NDP_SEVERITY_WARNING
#define N NDP_SEVERITY_NOTE

/* Architecture §5, one line per verdict. */
static const struct severity_row {
    const char *name;
    enum ndp_verdict verdict;
    enum ndp_severity frozen, otherwise;
    bool refused_frozen, refused_otherwise;
} severities[] = {
    { "rejected", NDP_VERDICT_REJECTED, E, E, true, true },
    { "outside-window", NDP_VERDICT_OUTSIDE_WINDOW, E, E, true, true },
    { "allowed", NDP_VERDICT_ALLOWED, N, N, false, false },
    { "may-reimage", NDP_VERDICT_MAY_REIMAGE, E, W, true, false },
    { "bypassed", NDP_VERDICT_BYPASSED, E, W, true, false },
    { "manual-upgrade", NDP_VERDICT_MANUAL_UPGRADE, W, W, false, false },
    { "replace", NDP_VERDICT_REPLACE, E, W, true, false },
    { "rotate", NDP_VERDICT_ROTATE, E, W, true, false },
    { "gate-open", NDP_VERDICT_GATE_OPEN, W, W, false, false },
    { "window-invalid", NDP_VERDICT_WINDOW_INVALID, W, W, false, false },
    { "freeze-without-end", NDP_VERDICT_FREEZE_WITHOUT_END, W, W, false,
      false },
    { "waiver-expired", NDP_VERDICT_WAIVER_EXPIRED, W, W, false, false },
    { "profile-undeclared", NDP_VERDICT_PROFILE_UNDECLARED, N, N, false,
      false },
    { "ignore-without-reason", NDP_VERDICT_IGNORE_WITHOUT_REASON, W, W, false,
      false },
    { "window-overrun", NDP_VERDICT_WINDOW_OVERRUN, W, W, false, false },
    { "rollout", NDP_VERDICT_ROLLOUT, W, N, false, false },
    { "refused", NDP_VERDICT_REFUSED, E, E, false, false },
    { "may-refuse", NDP_VERDICT_MAY_REFUSE, W, W, false, false },
    { "advisory", NDP_VERDICT_ADVISORY, N, N, false, false },
};

static void severity_test(void **state)
{
    const struct severity_row *row = *state;

    assert_string_equal(ndp_verdict_name(row->verdict), row->name);
    assert_int_equal(ndp_verdict_parse(row->name), row->verdict);
    assert_int_equal(ndp_verdict_severity(row->verdict, true), row->frozen);
    assert_int_equal(ndp_verdict_severity(row->verdict, false),
                     row->otherwise);
    assert_int_equal(ndp_verdict_refused_now(row->verdict, true),
                     row->refused_frozen);
    assert_int_equal(ndp_verdict_refused_now(row->verdict, false),
                     row->refused_otherwise);
}

/* Every verdict has a row above, and no name is taken twice. */
static void table__every_verdict_once(void **state)
{
    size_t v, k;

    (void)state;
    assert_int_equal(NDP_ARRAY_SIZE(severities), NDP_VERDICT_COUNT);
    for (v = 0; v < NDP_VERDICT_COUNT; v++)
        for (k = v + 1; k < NDP_VERDICT_COUNT; k++)
            assert_string_not_equal(ndp_verdict_name(v), ndp_verdict_name(k));
    assert_int_equal(ndp_verdict_parse("no-such-verdict"), -1);
}

/*
 * What applying a change of each verdict does to nodes: the impact marks
 * the pools of those that rebuild now and touches those refused; the
 * profile-undeclared note counts those that reimage; window-overrun
 * sizes only what the policy lets through.
 */
static void table__node_flags(void **state)
{
    static const struct {
        enum ndp_verdict v;
        bool reimages, now, refused, through, blocks;
    } flags[] = {
        { NDP_VERDICT_REJECTED, false, false, true, false, false },
        { NDP_VERDICT_OUTSIDE_WINDOW, false, false, true, false, false },
        { NDP_VERDICT_ALLOWED, true, true, false, true, false },
        { NDP_VERDICT_MAY_REIMAGE, true, true, false, false, false },
        { NDP_VERDICT_BYPASSED, true, true, false, false, false },
        { NDP_VERDICT_MANUAL_UPGRADE, true, false, false, false, false },
        { NDP_VERDICT_REPLACE, true, false, false, false, false },
        { NDP_VERDICT_ROTATE, true, true, false, false, false },
        { NDP_VERDICT_GATE_OPEN, false, false, false, false, false },
        { NDP_VERDICT_WINDOW_OVERRUN, false, false, false, false, false },
        { NDP_VERDICT_ROLLOUT, true, true, false, true, false },
        { NDP_VERDICT_REFUSED, false, false, false, false, true },
        { NDP_VERDICT_MAY_REFUSE, false, false, false, false, false },
        { NDP_VERDICT_ADVISORY, false, false, false, false, false },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(flags); i++) {
        const struct ndp_verdict_row *row = ndp_verdict_row(flags[i].v);
        assert_int_equal(row->reimages, flags[i].reimages);
        assert_int_equal(row->rebuilds_now, flags[i].now);
        assert_int_equal(row->refused, flags[i].refused);
        assert_int_equal(row->lets_through, flags[i].through);
        assert_int_equal(row->blocks_apply, flags[i].blocks);
    }
    /* Only an azurerm rotation creates its pool anew (PT-ROT-03). */
    for (i = 0; i < NDP_VERDICT_COUNT; i++)
        assert_int_equal(ndp_verdict_row((enum ndp_verdict)i)->recreates_pools,
                         i == NDP_VERDICT_ROTATE);
}

/*
 * A row's meta rule is in the rule files, with the id the row names (the
 * id a finding takes when a --rules directory lacks the file), and the
 * category leads back to the row.
 */
static void table__meta_rules_exist(void **state)
{
    size_t v;

    (void)state;
    for (v = 0; v < NDP_VERDICT_COUNT; v++) {
        const struct ndp_verdict_row *row = ndp_verdict_row(v);
        const struct ndp_rule *rule = ndp_verdict_meta_rule(test_ruleset, v);
        if (!row->meta_category) {
            assert_null(rule);
            continue;
        }
        if (!rule)
            fail_msg("verdict %s: no meta rule '%s'", row->name,
                     row->meta_category);
        assert_string_equal(rule->id, row->meta_id);
        assert_int_equal(ndp_verdict_of_meta(row->meta_category), v);
    }
    assert_null(ndp_verdict_meta_rule(NULL, NDP_VERDICT_REPLACE));
}

/*
 * A finding made with its verdict alone (a stage's finding about a
 * cluster: waiver-expired, ignore-without-reason) takes the verdict's meta
 * rule from the rule set it is given, and the table's id and category when
 * there is none; its severity is the row's.
 */
static void finding__verdict_alone_takes_its_meta_rule(void **state)
{
    static const char text[] =
        "{\"category\": \"waiver-expired\", \"title\": \"t\", \"why\": \"w\", "
        "\"advice\": \"a\", \"rules\": [{\"id\": \"NDP990\", \"scope\": "
        "\"cluster\", \"class\": \"meta\", \"summary\": \"s\"}]}";
    struct ndp_findings list = NDP_FINDINGS_INIT;
    struct ndp_ruleset *own = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_finding_spec spec = {
        .verdict = NDP_VERDICT_WAIVER_EXPIRED,
        .cluster = "aks",
        .resource = "r",
    };
    const struct ndp_finding *f;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&own, "own.json", text,
                                         sizeof(text) - 1, &err), 0);
    spec.ruleset = own;
    f = ndp_findings_add(&list, &spec);
    assert_string_equal(f->rule_id, "NDP990");
    assert_string_equal(f->category, "waiver-expired");
    assert_int_equal(f->severity, W);
    spec.ruleset = NULL;
    f = ndp_findings_add(&list, &spec);
    assert_string_equal(f->rule_id, "NDP005");
    assert_string_equal(f->category, "waiver-expired");
    ndp_findings_release(&list);
    ndp_ruleset_free(own);
}

/*
 * --explain has words for every verdict: its own, those of the meta rule
 * whose findings carry it, or its clause in what --explain says of the
 * rules of each class it names; and every class of rule but meta has a
 * verdict.
 */
static void explain__every_verdict_has_words(void **state)
{
    struct ndp_buf out = NDP_BUF_INIT;
    unsigned classes = 0;
    size_t v;

    (void)state;
    for (v = 0; v < NDP_VERDICT_COUNT; v++) {
        const struct ndp_verdict_row *row = ndp_verdict_row(v);
        ndp_buf_reset(&out);
        if (row->means && ndp_explain(&out, test_ruleset, row->name) != 0)
            fail_msg("--explain %s: nothing", row->name);
        if (row->means)
            assert_non_null(row->todo);
        if (!row->means && !row->meta_category && !row->classes)
            fail_msg("verdict %s: no words for --explain", row->name);
        if (!row->classes != !row->class_words)
            fail_msg("verdict %s: classes and their words go together",
                     row->name);
        if (row->classes & NDP_CLASS_BIT(NDP_CLASS_META))
            fail_msg("verdict %s: a meta rule's verdict is its category's",
                     row->name);
        classes |= row->classes;
        if (!row->meta_category)
            continue;
        ndp_buf_reset(&out);
        if (ndp_explain(&out, test_ruleset, row->meta_category) != 0)
            fail_msg("--explain %s: nothing", row->meta_category);
        if (row->rule_words && !strstr(out.buf, row->rule_words))
            fail_msg("--explain %s does not say: %s", row->meta_category,
                     row->rule_words);
    }
    for (v = 0; v <= NDP_CLASS_CHECK; v++)
        if (v != NDP_CLASS_META && !(classes & NDP_CLASS_BIT(v)))
            fail_msg("class %s: no verdict names it", ndp_class_name(v));
    ndp_buf_reset(&out);
    assert_int_equal(ndp_explain(&out, test_ruleset, "bypassed"), 0);
    assert_non_null(strstr(out.buf, "bypassed (verdict): "));
    assert_non_null(strstr(out.buf, "Otherwise: does not arise"));
    ndp_buf_reset(&out);
    assert_int_equal(ndp_explain(&out, test_ruleset, "no-such-thing"), -1);
    assert_int_equal(out.len, 0);
    ndp_buf_release(&out);
}

/*
 * --explain of every rule says, for each verdict the table gives its
 * class, the verdict's clause; those of one class in table order.
 */
static void explain__every_rule_names_its_class_verdicts(void **state)
{
    struct ndp_buf out = NDP_BUF_INIT;
    size_t i, v;

    (void)state;
    for (i = 0; i < ndp_ruleset_count(test_ruleset); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(test_ruleset, i);
        const char *last = NULL;
        ndp_buf_reset(&out);
        assert_int_equal(ndp_explain(&out, test_ruleset, r->id), 0);
        for (v = 0; v < NDP_VERDICT_COUNT; v++) {
            const struct ndp_verdict_row *row = ndp_verdict_row(v);
            const char *at;
            if (!(row->classes & NDP_CLASS_BIT(r->class_)))
                continue;
            at = strstr(out.buf, row->class_words);
            if (!at || (last && at < last))
                fail_msg("--explain %s: '%s' %s", r->id, row->class_words,
                         at ? "out of table order" : "missing");
            last = at;
        }
    }
    ndp_buf_release(&out);
}

/* The text of the document 'name' beside the rule files; owned. */
static char *read_doc(const char *name)
{
    struct ndp_buf path = NDP_BUF_INIT, text = NDP_BUF_INIT;
    char chunk[4096];
    size_t n;
    FILE *f;

    ndp_buf_addf(&path, "%s/../%s", NDP_RULES_DIR, name);
    f = fopen(path.buf, "rb");
    if (!f)
        fail_msg("cannot read %s", path.buf);
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        ndp_buf_add(&text, chunk, n);
    fclose(f);
    ndp_buf_release(&path);
    return ndp_buf_detach(&text);
}

/*
 * Adding a verdict is one row, its tests and its docs: the verdict table
 * of docs/rules.md has a row for each, and the settings file's severity
 * overrides list each (docs/settings.md), the README and the man page
 * name each.
 */
static void docs__name_every_verdict(void **state)
{
    static const struct {
        const char *file, *before, *after;
    } docs[] = {
        { "docs/rules.md", "| `", "` |" },
        { "docs/settings.md", "`", "`" },
        { "README.md", "`", "`" },
        { "docs/man/ndplint.1", ".Cm ", "" },
    };
    struct ndp_buf want = NDP_BUF_INIT;
    size_t d, v;

    (void)state;
    for (d = 0; d < NDP_ARRAY_SIZE(docs); d++) {
        char *text = read_doc(docs[d].file);
        for (v = 0; v < NDP_VERDICT_COUNT; v++) {
            ndp_buf_reset(&want);
            ndp_buf_addf(&want, "%s%s%s", docs[d].before, ndp_verdict_name(v),
                         docs[d].after);
            if (!strstr(text, want.buf))
                fail_msg("%s does not name the verdict %s (as '%s')",
                         docs[d].file, ndp_verdict_name(v), want.buf);
        }
        free(text);
    }
    ndp_buf_release(&want);
}

/* Rule text is the repository's: a control character never gets out. */
static void explain__list_is_escaped(void **state)
{
    struct ndp_buf out = NDP_BUF_INIT;

    (void)state;
    ndp_explain_list_rules(&out, test_ruleset);
    assert_non_null(strstr(out.buf, "RULE    CATEGORY"));
    assert_non_null(strstr(out.buf, "NDP101 "));
    assert_null(strchr(out.buf, '\033'));
    ndp_buf_release(&out);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, severities, severity_test);
    ADD_TEST(&list, table__every_verdict_once);
    ADD_TEST(&list, table__node_flags);
    ADD_TEST(&list, table__meta_rules_exist);
    ADD_TEST(&list, finding__verdict_alone_takes_its_meta_rule);
    ADD_TEST(&list, explain__every_verdict_has_words);
    ADD_TEST(&list, explain__every_rule_names_its_class_verdicts);
    ADD_TEST(&list, explain__list_is_escaped);
    ADD_TEST(&list, docs__name_every_verdict);
    return cmocka_run_group_tests_name("verdicts", list.items,
                                       test_rules_load_builtin,
                                       test_rules_free);
}
