/*
 * SPDX-License-Identifier: Apache-2.0
 * test_ignore.c - inline ignore comments (ignore.c): the lines that carry
 * one and the lines that do not, what a comment names, and the bounds.
 */
#include "test_common.h"
#include "buf.h"
#include "ignore.h"

struct row {
    const char *name;
    const char *line;
    bool hash;                      /* '#' starts a comment (.tf) */
    enum ndp_ignore_status status;
    const char *rules, *reason;     /* when OK */
};

static const struct row rows[] = {
    { "tf hash after an attribute",
      "  network_policy = \"azure\" # ndplint:ignore NDP101 roll-out CHG-1",
      true, NDP_IGNORE_OK, "NDP101", "roll-out CHG-1" },
    { "tf double slash", "x = 1 //ndplint:ignore NDP101 why", true,
      NDP_IGNORE_OK, "NDP101", "why" },
    { "several rules, trailing blanks and CR",
      "resource \"a\" \"b\" { # ndplint:ignore NDP101,ndp502  two  \t\r",
      true, NDP_IGNORE_OK, "NDP101,ndp502", "two" },
    { "reason stops at the newline", "# ndplint:ignore NDP1 a\nb", true,
      NDP_IGNORE_OK, "NDP1", "a" },
    { "bicep: '#' is not a comment", "x: 'a' # ndplint:ignore NDP101 why",
      false, NDP_IGNORE_NONE, NULL, NULL },
    { "bicep double slash", "x: 'a' // ndplint:ignore NDP101 why", false,
      NDP_IGNORE_OK, "NDP101", "why" },
    { "inside a string", "x = \"# ndplint:ignore NDP101 why\"", true,
      NDP_IGNORE_NONE, NULL, NULL },
    { "url in a string, then the comment",
      "x = \"https://a/#b\" # ndplint:ignore NDP101 why", true,
      NDP_IGNORE_OK, "NDP101", "why" },
    { "escaped quote in a string",
      "x = \"a\\\"# ndplint:ignore NDP1 no\"", true, NDP_IGNORE_NONE, NULL,
      NULL },
    { "another comment", "x = 1 # enables Azure network policy", true,
      NDP_IGNORE_NONE, NULL, NULL },
    { "marker later in the comment", "# see ndplint:ignore NDP101 why", true,
      NDP_IGNORE_NONE, NULL, NULL },
    { "marker glued to a word", "# ndplint:ignored NDP101 why", true,
      NDP_IGNORE_NONE, NULL, NULL },
    { "no comment", "x = 1", true, NDP_IGNORE_NONE, NULL, NULL },
    { "no reason", "# ndplint:ignore NDP101", true, NDP_IGNORE_NO_REASON,
      NULL, NULL },
    { "blank reason", "# ndplint:ignore NDP101 \t ", true,
      NDP_IGNORE_NO_REASON, NULL, NULL },
    { "no rule", "# ndplint:ignore", true, NDP_IGNORE_NO_RULE, NULL, NULL },
    { "a reason but no rule", "# ndplint:ignore because it is fine", true,
      NDP_IGNORE_NO_RULE, NULL, NULL },
    { "dangling comma", "# ndplint:ignore NDP101, why", true,
      NDP_IGNORE_NO_RULE, NULL, NULL },
    { "rule glued to text", "# ndplint:ignore NDP101:why", true,
      NDP_IGNORE_NO_RULE, NULL, NULL },
};

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_ignore ig;
    enum ndp_ignore_status st = ndp_ignore_parse(&ig, row->line,
                                                 strlen(row->line),
                                                 row->hash);

    assert_int_equal(st, row->status);
    if (st != NDP_IGNORE_OK)
        return;
    assert_int_equal(ig.rules_len, strlen(row->rules));
    assert_memory_equal(ig.rules, row->rules, ig.rules_len);
    assert_int_equal(ig.reason_len, strlen(row->reason));
    assert_memory_equal(ig.reason, row->reason, ig.reason_len);
    assert_false(ig.truncated);
}

static void names__whole_ids_case_insensitively(void **state)
{
    struct ndp_ignore ig;
    const char *line = "# ndplint:ignore NDP101,ndp502 why";

    (void)state;
    assert_int_equal(ndp_ignore_parse(&ig, line, strlen(line), true),
                     NDP_IGNORE_OK);
    assert_true(ndp_ignore_names(&ig, "NDP101"));
    assert_true(ndp_ignore_names(&ig, "NDP502"));
    assert_false(ndp_ignore_names(&ig, "NDP10"));
    assert_false(ndp_ignore_names(&ig, "NDP1011"));
    assert_false(ndp_ignore_names(&ig, "NDP501"));
}

/* A long reason is cut, never inside a UTF-8 character; a comment past
 * the scanned prefix of a line is not seen. */
static void bounds__reason_cut_and_scan_limited(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;
    struct ndp_ignore ig;
    size_t i;

    (void)state;
    ndp_buf_adds(&b, "# ndplint:ignore NDP101 a");
    for (i = 0; i < NDP_IGNORE_REASON_MAX; i++)
        ndp_buf_adds(&b, "\xc3\xa9"); /* 2-byte characters */
    assert_int_equal(ndp_ignore_parse(&ig, b.buf, b.len, true),
                     NDP_IGNORE_OK);
    assert_true(ig.truncated);
    assert_true(ig.reason_len <= NDP_IGNORE_REASON_MAX);
    assert_int_equal(ig.reason_len % 2, 1); /* "a" and whole characters */

    ndp_buf_reset(&b);
    for (i = 0; i < NDP_IGNORE_SCAN_MAX; i++)
        ndp_buf_addch(&b, ' ');
    ndp_buf_adds(&b, "# ndplint:ignore NDP101 why");
    assert_int_equal(ndp_ignore_parse(&ig, b.buf, b.len, true),
                     NDP_IGNORE_NONE);
    ndp_buf_release(&b);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, names__whole_ids_case_insensitively);
    ADD_TEST(&list, bounds__reason_cut_and_scan_limited);
    return cmocka_run_group_tests_name("ignore", list.items, NULL, NULL);
}
