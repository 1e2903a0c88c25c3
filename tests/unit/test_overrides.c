/*
 * SPDX-License-Identifier: Apache-2.0
 * test_overrides.c - "severity_overrides" in the settings file: the rows
 * the loader accepts and refuses (config.c, overrides.c), and what an
 * override does to a finding.
 */
#include "test_common.h"
#include "config.h"
#include "error.h"
#include "finding.h"
#include "overrides.h"
#include "rules.h"

#include <unistd.h>

struct row {
    const char *name;
    const char *overrides; /* JSON array text, ' for " */
    const char *error;     /* expected text in the error, or NULL */
};

static const struct row rows[] = {
    { "accept: rule, verdict and off",
      "[{'rule': 'NDP501', 'severity': 'error', 'reason': 'r'},"
      " {'verdict': 'may-reimage', 'severity': 'note', 'reason': 'r'},"
      " {'rule': 'NDP109', 'severity': 'off', 'reason': 'r'}]", NULL },
    { "accept: rule id in lower case", "[{'rule': 'ndp101', 'severity': "
      "'warning', 'reason': 'r'}]", NULL },
    { "accept: empty list", "[]", NULL },
    { "refuse: unknown rule", "[{'rule': 'NDP999', 'severity': 'error', "
      "'reason': 'r'}]", "severity_overrides[0].rule: no rule 'NDP999'" },
    { "refuse: unknown verdict", "[{'verdict': 'reimage', 'severity': "
      "'error', 'reason': 'r'}]", "severity_overrides[0].verdict: must be "
      "a verdict" },
    { "refuse: rule and verdict", "[{'rule': 'NDP501', 'verdict': 'rotate', "
      "'severity': 'error', 'reason': 'r'}]", "needs exactly one of" },
    { "refuse: neither rule nor verdict", "[{'severity': 'error', "
      "'reason': 'r'}]", "severity_overrides[0]: needs exactly one of" },
    { "refuse: severity never", "[{'rule': 'NDP501', 'severity': 'never', "
      "'reason': 'r'}]", "severity: must be error, warning, note or off" },
    { "refuse: severity missing", "[{'rule': 'NDP501', 'reason': 'r'}]",
      "severity_overrides[0].severity: is required" },
    { "refuse: reason missing", "[{'rule': 'NDP501', 'severity': "
      "'error'}]", "severity_overrides[0].reason: is required" },
    { "refuse: empty reason", "[{'rule': 'NDP501', 'severity': 'error', "
      "'reason': ''}]", "reason: must be a non-empty string" },
    { "refuse: unknown key", "[{'rule': 'NDP501', 'severity': 'error', "
      "'reason': 'r', 'until': 'x'}]", "severity_overrides[0].until" },
    { "refuse: not an array", "{}", "severity_overrides: must be an array" },
    { "refuse: same rule twice", "[{'rule': 'NDP501', 'severity': 'error', "
      "'reason': 'r'}, {'rule': 'ndp501', 'severity': 'note', 'reason': "
      "'r'}]", "severity_overrides[1]: rule 'ndp501' is already overridden "
      "by severity_overrides[0]" },
    { "refuse: same verdict twice", "[{'verdict': 'rotate', 'severity': "
      "'error', 'reason': 'r'}, {'verdict': 'rotate', 'severity': 'note', "
      "'reason': 'r'}]", "verdict 'rotate' is already overridden" },
};

static struct ndp_ruleset *ruleset(void)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    assert_int_equal(ndp_rules_load_embedded(&rs, &err), 0);
    return rs;
}

/* Writes {"severity_overrides": TEXT} to a temporary file; loads it. */
static int load(struct ndp_config *c, const char *text,
                struct ndp_error *err)
{
    char path[] = "/tmp/ndp-overrides-XXXXXX";
    int fd = mkstemp(path), rc;
    FILE *f;
    char *p, *copy = ndp_xstrdup(text);

    assert_true(fd >= 0);
    for (p = copy; *p; p++)
        if (*p == '\'')
            *p = '"';
    f = fdopen(fd, "w");
    fprintf(f, "{\"severity_overrides\": %s}\n", copy);
    fclose(f);
    free(copy);
    rc = ndp_config_load(c, path, err);
    unlink(path);
    return rc;
}

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_ruleset *rs = ruleset();
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    int rc = load(&c, row->overrides, &err);

    if (!rc) {
        rc = ndp_overrides_check(&c, rs, &err);
        ndp_config_release(&c);
    }
    if (row->error) {
        assert_int_equal(rc, NDP_ECONFIG);
        if (!strstr(err.msg, row->error))
            fail_msg("error '%s' does not say '%s'", err.msg, row->error);
        assert_non_null(strstr(err.msg, "/tmp/ndp-overrides-"));
    } else {
        if (rc)
            fail_msg("refused: %s", err.msg);
    }
    ndp_ruleset_free(rs);
}

static struct ndp_finding *add(struct ndp_findings *fs, const char *rule,
                               enum ndp_verdict verdict)
{
    struct ndp_rule r = { .id = rule, .category = "c" };
    struct ndp_finding_spec spec = {
        .rule = &r,
        .verdict = verdict,
        .input = "plan.json",
        .cluster = "c",
        .resource = "r",
        .message = "it reimages",
    };

    return ndp_findings_add(fs, &spec);
}

/* A rule's override wins over its verdict's; off suppresses. */
static void apply__rule_beats_verdict_and_off_suppresses(void **state)
{
    struct ndp_findings fs = NDP_FINDINGS_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;

    (void)state;
    assert_int_equal(load(&c, "[{'verdict': 'rotate', 'severity': 'error', "
                          "'reason': 'all rotations'},"
                          " {'rule': 'NDP502', 'severity': 'note', "
                          "'reason': 'user pool'},"
                          " {'verdict': 'may-reimage', 'severity': 'off', "
                          "'reason': 'checked later'}]", &err), 0);
    add(&fs, "NDP501", NDP_VERDICT_ROTATE);
    add(&fs, "NDP502", NDP_VERDICT_ROTATE);
    add(&fs, "NDP101", NDP_VERDICT_MAY_REIMAGE);
    add(&fs, "NDP101", NDP_VERDICT_REJECTED);
    ndp_overrides_apply(&fs, &c);

    assert_int_equal(fs.items[0].severity, NDP_SEVERITY_ERROR);
    assert_int_equal(fs.items[0].override_from, NDP_SEVERITY_WARNING);
    assert_string_equal(fs.items[0].override_reason, "all rotations");
    assert_non_null(strstr(fs.items[0].message, "it reimages; severity "
                           "raised from warning to error by "));
    assert_null(fs.items[0].suppression);

    assert_int_equal(fs.items[1].severity, NDP_SEVERITY_NOTE);
    assert_string_equal(fs.items[1].override_reason, "user pool");
    assert_non_null(strstr(fs.items[1].message, "lowered from warning to "
                           "note"));

    assert_int_equal(fs.items[2].severity, NDP_SEVERITY_WARNING);
    assert_true(fs.items[2].override_off);
    assert_non_null(fs.items[2].suppression);
    assert_non_null(strstr(fs.items[2].suppression, "severity_overrides[2]: "
                           "checked later"));
    assert_string_equal(fs.items[2].message, "it reimages");

    assert_null(fs.items[3].override_reason);
    assert_int_equal(fs.items[3].severity, NDP_SEVERITY_ERROR);
    assert_string_equal(fs.items[3].message, "it reimages");
    ndp_findings_release(&fs);
    ndp_config_release(&c);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, apply__rule_beats_verdict_and_off_suppresses);
    return cmocka_run_group_tests_name("overrides", list.items, NULL, NULL);
}
