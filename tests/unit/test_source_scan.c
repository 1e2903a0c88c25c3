/*
 * SPDX-License-Identifier: Apache-2.0
 * test_source_scan.c - which bytes of a .tf file or template are code
 * (src/source_scan.c): every row is a text in which '@' marks a byte of
 * code and '!' one that is not; the scanner must agree at each mark.
 * The marks themselves are ordinary characters to the scanner.
 */
#include "test_common.h"
#include "buf.h"
#include "source_scan.h"

struct row {
    const char *name;
    enum ndp_source_lang lang;
    const char *text;
};

static const struct row rows[] = {
    { "hcl line comments", NDP_SOURCE_HCL,
      "@ a = 1 # !\n@ b = 2 // !\n@" },
    { "hcl block comment across lines", NDP_SOURCE_HCL,
      "@ /* ! \n ! */ @" },
    { "hcl string with an escaped quote", NDP_SOURCE_HCL,
      "@ \"! \\\" ! # !\" @" },
    { "hcl interpolation with nested strings", NDP_SOURCE_HCL,
      "@ \"! ${format(\"! %s\", \"!}\")} !\" @ # !" },
    { "hcl directive", NDP_SOURCE_HCL,
      "@ \"%{ if x == \"!}\" } ! %{ endif }!\" @" },
    { "hcl heredoc", NDP_SOURCE_HCL,
      "@ x = <<EOT\n! resource \"a\" \"b\" { # !\nEOT\n@" },
    { "hcl indented heredoc", NDP_SOURCE_HCL,
      "@ x = <<-EOT\n  ! /* !\n  EOT\n@ y" },
    { "hcl not a heredoc", NDP_SOURCE_HCL,
      "@ x = 1 << 2 @\n@" },
    { "hcl string ends at the line", NDP_SOURCE_HCL,
      "@ \"! \n@" },
    { "hcl unterminated comment", NDP_SOURCE_HCL,
      "@ /* ! \n !" },
    { "hcl unterminated heredoc", NDP_SOURCE_HCL,
      "@ <<EOT\n ! \n !" },
    { "hcl apostrophe is code", NDP_SOURCE_HCL,
      "@ ' @ ' @" },
    { "template strings", NDP_SOURCE_TEMPLATE,
      "@ '! // !' @ \"! /* !\" @ // !\n@" },
    { "template multi-line string", NDP_SOURCE_TEMPLATE,
      "@ '''\n! // ! '\n!''' @" },
    { "template interpolation", NDP_SOURCE_TEMPLATE,
      "@ '! ${concat('!}', x)} !' @" },
    { "template hash is code", NDP_SOURCE_TEMPLATE,
      "@ # @" },
};

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_source_map map = NDP_SOURCE_MAP_INIT;
    size_t i, len = strlen(row->text);

    ndp_source_map_build(&map, row->text, len, row->lang);
    for (i = 0; i < len; i++) {
        enum ndp_source_kind k = ndp_source_kind_at(&map, i);
        if (row->text[i] == '@' && k != NDP_SOURCE_CODE)
            fail_msg("%s: offset %zu is not code", row->name, i);
        if (row->text[i] == '!' && k == NDP_SOURCE_CODE)
            fail_msg("%s: offset %zu is code", row->name, i);
    }
    ndp_source_map_release(&map);
}

/* A line comment's extent; a token starts at code or at a quote. */
static void queries__line_comment_and_token(void **state)
{
    static const char text[] = "a = \"b\" # c\nd";
    struct ndp_source_map map = NDP_SOURCE_MAP_INIT;
    size_t start, end;

    (void)state;
    ndp_source_map_build(&map, text, sizeof(text) - 1, NDP_SOURCE_HCL);
    assert_int_equal(ndp_source_line_comment(&map, 10, &start, &end), 1);
    assert_int_equal(start, 8);
    assert_int_equal(end, 11);
    assert_int_equal(ndp_source_line_comment(&map, 5, &start, &end), 0);
    assert_int_equal(ndp_source_token_at(&map, 0), 1);
    assert_int_equal(ndp_source_token_at(&map, 4), 1);
    assert_int_equal(ndp_source_token_at(&map, 5), 0);
    ndp_source_map_release(&map);
}

/* Nested past the limit: the rest is not code, and nothing overflows. */
static void nesting__past_the_limit_is_not_code(void **state)
{
    struct ndp_buf t = NDP_BUF_INIT;
    struct ndp_source_map map = NDP_SOURCE_MAP_INIT;
    int i;

    (void)state;
    ndp_buf_adds(&t, "x = ");
    for (i = 0; i < 200; i++)
        ndp_buf_adds(&t, "\"${");
    ndp_buf_adds(&t, "\nresource");
    ndp_source_map_build(&map, t.buf, t.len, NDP_SOURCE_HCL);
    assert_int_equal(ndp_source_kind_at(&map, t.len - 1), NDP_SOURCE_STRING);
    assert_int_equal(ndp_source_kind_at(&map, 0), NDP_SOURCE_CODE);
    ndp_source_map_release(&map);
    ndp_buf_release(&t);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, queries__line_comment_and_token);
    ADD_TEST(&list, nesting__past_the_limit_is_not_code);
    return cmocka_run_group_tests_name("source_scan", list.items, NULL,
                                       NULL);
}
