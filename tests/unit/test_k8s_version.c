/*
 * SPDX-License-Identifier: Apache-2.0
 * test_k8s_version.c - Kubernetes versions read and ordered
 * (src/k8s_version.c): aliases x.y, patches x.y.z, a leading v, pre-release
 * and build suffixes, garbage, huge numbers; the order of two versions,
 * an alias beside a patch of its minor, and the minors between two.
 */
#include "test_common.h"
#include "k8s_version.h"
#include "policy.h"

#include <limits.h>

struct parse_row {
    const char *name;
    const char *text;
    bool ok;
    long major, minor, patch;
    bool suffixed;
};

static const struct parse_row parse_rows[] = {
    { "alias", "1.30", true, 1, 30, -1, false },
    { "patch", "1.30.5", true, 1, 30, 5, false },
    { "leading v", "v1.30.5", true, 1, 30, 5, false },
    { "leading capital V", "V1.29", true, 1, 29, -1, false },
    { "pre-release suffix", "1.30.5-preview", true, 1, 30, 5, true },
    { "build suffix", "1.30.5+abc.1", true, 1, 30, 5, true },
    { "suffix on an alias", "1.31-rc.1", true, 1, 31, -1, true },
    { "leading zeros", "01.030.007", true, 1, 30, 7, false },
    { "six digits", "1.999999.999999", true, 1, 999999, 999999, false },
    { "zero", "0.0.0", true, 0, 0, 0, false },
    { "seven digits", "1.1000000", false, 0, 0, 0, false },
    { "huge number", "1.99999999999999999999999", false, 0, 0, 0, false },
    { "huge patch", "1.30.184467440737095516160", false, 0, 0, 0, false },
    { "NULL", NULL, false, 0, 0, 0, false },
    { "empty", "", false, 0, 0, 0, false },
    { "major only", "1", false, 0, 0, 0, false },
    { "trailing dot", "1.30.", false, 0, 0, 0, false },
    { "empty minor", "1..30", false, 0, 0, 0, false },
    { "four components", "1.30.5.1", false, 0, 0, 0, false },
    { "x for the patch", "1.30.x", false, 0, 0, 0, false },
    { "a word", "latest", false, 0, 0, 0, false },
    { "v alone", "v", false, 0, 0, 0, false },
    { "double v", "vv1.30", false, 0, 0, 0, false },
    { "leading blank", " 1.30", false, 0, 0, 0, false },
    { "trailing blank", "1.30 ", false, 0, 0, 0, false },
    { "sign", "+1.30", false, 0, 0, 0, false },
    { "negative minor", "1.-3", false, 0, 0, 0, false },
    { "empty suffix", "1.30.5-", false, 0, 0, 0, false },
    { "suffix with a quote", "1.30.5-a\"b", false, 0, 0, 0, false },
    { "suffix with a newline", "1.30.5-a\nb", false, 0, 0, 0, false },
    { "suffix of 32", "1.30.5-abcdefghijklmnopqrstuvwxyz012345", true, 1, 30,
      5, true },
    { "suffix of 33", "1.30.5-abcdefghijklmnopqrstuvwxyz0123456", false, 0,
      0, 0, false },
    { "a template expression", "[parameters('v')]", false, 0, 0, 0, false },
    { "UTF-8 digits", "1.\xd9\xa3", false, 0, 0, 0, false },
};

static void parse_test(void **state)
{
    const struct parse_row *row = *state;
    struct ndp_k8s_version v;
    bool ok = ndp_k8s_version_parse(&v, row->text);

    if (ok != row->ok)
        fail_msg("'%s': parsed %d, want %d", row->name, ok, row->ok);
    if (!ok) {
        assert_int_equal(v.major, 0);
        assert_int_equal(v.patch, 0);
        return;
    }
    assert_int_equal(v.major, row->major);
    assert_int_equal(v.minor, row->minor);
    assert_int_equal(v.patch, row->patch);
    assert_int_equal(v.suffixed, row->suffixed);
}

struct order_row {
    const char *name;
    const char *a, *b;
    enum ndp_k8s_order want;      /* a against b */
};

static const struct order_row order_rows[] = {
    { "equal patches", "1.30.5", "1.30.5", NDP_K8S_SAME },
    { "equal aliases", "1.30", "v1.30", NDP_K8S_SAME },
    { "lower patch", "1.30.3", "1.30.5", NDP_K8S_LOWER },
    { "higher patch", "1.30.10", "1.30.9", NDP_K8S_HIGHER },
    { "lower minor", "1.29.9", "1.30.0", NDP_K8S_LOWER },
    { "higher minor as numbers, not text", "1.100", "1.99.9",
      NDP_K8S_HIGHER },
    { "lower major", "1.99", "2.0", NDP_K8S_LOWER },
    { "alias of the same minor", "1.30", "1.30.5", NDP_K8S_SAME_MINOR },
    { "patch beside an alias", "1.30.5", "1.30", NDP_K8S_SAME_MINOR },
    { "alias of a higher minor", "1.31", "1.30.5", NDP_K8S_HIGHER },
    { "alias of a lower minor", "1.29", "1.30.5", NDP_K8S_LOWER },
    { "suffix on the same numbers", "1.30.5-preview", "1.30.5",
      NDP_K8S_SAME_MINOR },
    { "two suffixes", "1.30.5-a", "1.30.5+b", NDP_K8S_SAME_MINOR },
    { "suffix on the same alias", "1.30-rc", "1.30", NDP_K8S_SAME_MINOR },
    { "suffix, a lower patch", "1.30.4-preview", "1.30.5", NDP_K8S_LOWER },
    { "leading zeros", "1.030.05", "1.30.5", NDP_K8S_SAME },
};

static void order_test(void **state)
{
    const struct order_row *row = *state;
    struct ndp_k8s_version a, b;
    enum ndp_k8s_order want_back =
        row->want == NDP_K8S_LOWER    ? NDP_K8S_HIGHER
        : row->want == NDP_K8S_HIGHER ? NDP_K8S_LOWER
                                      : row->want;

    assert_true(ndp_k8s_version_parse(&a, row->a));
    assert_true(ndp_k8s_version_parse(&b, row->b));
    if (ndp_k8s_version_order(&a, &b) != row->want)
        fail_msg("'%s': %s against %s is %d, want %d", row->name, row->a,
                 row->b, ndp_k8s_version_order(&a, &b), row->want);
    /* The other way round is the mirror. */
    assert_int_equal(ndp_k8s_version_order(&b, &a), want_back);
}

struct between_row {
    const char *name;
    const char *from, *to;
    bool known;
    long minors;
};

static const struct between_row between_rows[] = {
    { "one minor up", "1.29.4", "1.30", true, 1 },
    { "two minors up", "1.29", "1.31.2", true, 2 },
    { "the same minor", "1.30.1", "1.30.9", true, 0 },
    { "down", "1.31", "1.29.0", true, -2 },
    { "the largest components", "1.0", "1.999999", true, 999999 },
    { "another major", "1.30", "2.0", false, 0 },
};

static void between_test(void **state)
{
    const struct between_row *row = *state;
    struct ndp_k8s_version from, to;
    long n = LONG_MIN;

    assert_true(ndp_k8s_version_parse(&from, row->from));
    assert_true(ndp_k8s_version_parse(&to, row->to));
    assert_int_equal(ndp_k8s_minors_between(&n, &from, &to), row->known);
    assert_int_equal(n, row->minors);
}

/* Every version this module reads, ndp_k8s_minor() reads alike. */
static void parse__agrees_with_k8s_minor(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(parse_rows); i++) {
        const struct parse_row *row = &parse_rows[i];
        struct ndp_k8s_version v;
        if (!ndp_k8s_version_parse(&v, row->text) || v.major > 99 ||
            v.minor > 99)
            continue;
        assert_int_equal(ndp_k8s_minor(row->text), v.major * 100 + v.minor);
    }
}

static struct test_list tests;

int main(void)
{
    ADD_ROWS(&tests, parse_rows, parse_test);
    ADD_ROWS(&tests, order_rows, order_test);
    ADD_ROWS(&tests, between_rows, between_test);
    ADD_TEST(&tests, parse__agrees_with_k8s_minor);
    return cmocka_run_group_tests_name("k8s_version", tests.items, NULL,
                                       NULL);
}
