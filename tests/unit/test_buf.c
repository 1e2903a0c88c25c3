/*
 * SPDX-License-Identifier: Apache-2.0
 * test_buf.c - the growable buffer: invariants, formatting, JSON strings.
 */
#include "test_common.h"
#include "buf.h"

static void empty_buffer__is_empty_string(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;

    (void)state;
    assert_non_null(b.buf);
    assert_string_equal(b.buf, "");
    ndp_buf_release(&b);
}

static void addf_and_setlen__keep_nul_terminator(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;
    int i;

    (void)state;
    for (i = 0; i < 1000; i++)
        ndp_buf_addf(&b, "%d,", i);
    assert_int_equal(b.len, strlen(b.buf));
    ndp_buf_setlen(&b, 4);
    assert_string_equal(b.buf, "0,1,");
    ndp_buf_release(&b);
}

static void detach__hands_over_ownership(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;
    char *s;

    (void)state;
    s = ndp_buf_detach(&b);
    assert_string_equal(s, "");
    free(s);
    ndp_buf_adds(&b, "abc");
    s = ndp_buf_detach(&b);
    assert_string_equal(s, "abc");
    assert_int_equal(b.len, 0);
    free(s);
}

static void json_string__escapes_quotes_and_controls(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;

    (void)state;
    ndp_buf_add_json_string(&b, "a\"b\\c\n\x1b[31m");
    assert_string_equal(b.buf, "\"a\\\"b\\\\c\\n\\u001b[31m\"");
    ndp_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_buffer__is_empty_string),
        cmocka_unit_test(addf_and_setlen__keep_nul_terminator),
        cmocka_unit_test(detach__hands_over_ownership),
        cmocka_unit_test(json_string__escapes_quotes_and_controls),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
