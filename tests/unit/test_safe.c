/*
 * SPDX-License-Identifier: Apache-2.0
 * test_safe.c - the one rule for text from the input on its way out
 * (safe.h): UTF-8 repair against Unicode's maximal-subpart practice (the
 * expectations are what Python's bytes.decode("utf-8", "replace") gives),
 * the XML variant, one-line escaping, the command rule on whole lines,
 * and messages on standard error.
 */
#include "test_common.h"
#include "buf.h"
#include "error.h"
#include "safe.h"

#define FFFD "\xef\xbf\xbd"

struct repair_case {
    const char *in, *out;
    unsigned flags;
    const char *note;
};

static const struct repair_case repair_cases[] = {
    { "plain ascii", "plain ascii", 0, "valid text is unchanged" },
    { "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x86\x92 "
      "\xf0\x9f\x98\x80", 0, "two, three and four bytes" },
    { "a\xffz", "a" FFFD "z", 0, "FF lead byte" },
    { "a\xf5\x80\x80\x80z", "a" FFFD FFFD FFFD FFFD "z", 0, "F5 lead byte" },
    { "\xc0\xaf", FFFD FFFD, 0, "overlong two-byte '/'" },
    { "\xe0\x80\xaf", FFFD FFFD FFFD, 0, "overlong three-byte '/'" },
    { "\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD, 0, "overlong four-byte" },
    { "\xed\xa0\x80", FFFD FFFD FFFD, 0, "UTF-8-encoded surrogate D800" },
    { "\xed\xbf\xbf", FFFD FFFD FFFD, 0, "UTF-8-encoded surrogate DFFF" },
    { "\xed\x9f\xbf", "\xed\x9f\xbf", 0, "U+D7FF is valid" },
    { "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD, 0, "U+110000" },
    { "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf", 0, "U+10FFFF is valid" },
    { "\xe2\x82", FFFD, 0, "truncated at the end: one U+FFFD" },
    { "\xe2\x82z", FFFD "z", 0, "truncated before ASCII" },
    { "\xf0\x9f\x98", FFFD, 0, "truncated four-byte" },
    { "\x80\xbf", FFFD FFFD, 0, "stray continuation bytes" },
    { "\xef\xbf\xbe", "\xef\xbf\xbe", 0, "U+FFFE is UTF-8" },
    { "\xef\xbf\xbe\xef\xbf\xbf", FFFD FFFD, NDP_UTF8_XML,
      "U+FFFE and U+FFFF are not XML" },
    { "a\x01\x1f\tb\nc\rd", "a" FFFD FFFD "\tb\nc\rd", NDP_UTF8_XML,
      "C0 controls but tab, LF, CR are not XML" },
    { "\xc2\x85\x7f", "\xc2\x85\x7f", NDP_UTF8_XML, "C1 and DEL are XML" },
};

static void repair__matches_table(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(repair_cases); i++) {
        const struct repair_case *c = &repair_cases[i];
        struct ndp_buf b = NDP_BUF_INIT;

        ndp_utf8_repair(&b, c->in, strlen(c->in), c->flags);
        if (strcmp(b.buf, c->out) != 0)
            fail_msg("%s: got %s", c->note, b.buf);
        assert_true(ndp_utf8_valid(b.buf, b.len));
        assert_int_equal(ndp_utf8_valid(c->in, strlen(c->in)),
                         strcmp(c->in, c->out) == 0 || c->flags);
        ndp_buf_reset(&b);
        ndp_buf_adds(&b, "kept\xff");
        ndp_buf_adds(&b, c->in);
        ndp_utf8_repair_tail(&b, 5, c->flags);
        assert_memory_equal(b.buf, "kept\xff", 5);
        assert_string_equal(b.buf + 5, c->out);
        ndp_buf_release(&b);
    }
}

struct line_case {
    const char *in, *out, *note;
};

static const struct line_case line_cases[] = {
    { "plain", "plain", "plain text" },
    { "a\nb\r\x1b[2J", "a\\x0ab\\x0d\\x1b[2J", "C0 controls" },
    { "a\x7f\xc2\x85\xc2\x9b", "a\\x7f\\x85\\x9b", "DEL and C1" },
    { "::error::x", "\\x3a:error::x", "leading workflow command" },
    { "a ::error::x", "a ::error::x", "'::' inside a line is inert" },
    { "x ##[error]y", "x #\\x23[error]y", "legacy command anywhere" },
    { "###[", "##\\x23[", "overlapping '#'" },
    { "x ##vso[task.complete result=Succeeded;]", "x #\\x23vso[task.complete result=Succeeded;]",
      "Azure Pipelines command anywhere" },
    { "##VSO[task.logissue]", "#\\x23VSO[task.logissue]", "Azure command in capitals" },
    { "##vso", "##vso", "no '[': not a command" },
    { "a\xe2\x80\xa8" "b\xe2\x80\xae", "a\\u2028b\\u202e",
      "line separator, bidi override" },
    { "\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069", "bidi isolates" },
    { "a\xff\xed\xa0\x80", "a" FFFD FFFD FFFD FFFD, "invalid UTF-8" },
    { "\xc3\xa9\xe2\x86\x92", "\xc3\xa9\xe2\x86\x92", "valid UTF-8 kept" },
    { "\\x0a", "\\x0a", "a backslash is not doubled: one escape only" },
    { " \xe3\x80\x80::error::x", " \xe3\x80\x80\\x3a:error::x",
      "'::' after spaces and U+3000" },
    { "\xc2\xad:\xe2\x80\x8b:x", "\xc2\xad\\x3a\xe2\x80\x8b:x",
      "'::' after and split by ignorable characters" },
    { "x #\xc2\xad#[error]y", "x #\xc2\xad\\x23[error]y",
      "'##[' split by a soft hyphen" },
    { "#\xe2\x80\x8c#v\xe2\x80\x8dsO[", "#\xe2\x80\x8c\\x23v\xe2\x80\x8dsO[",
      "'##vso[' split by zero-width (non-)joiners" },
};

static void safe_line__matches_table(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(line_cases); i++) {
        struct ndp_buf b = NDP_BUF_INIT;

        ndp_safe_line(&b, line_cases[i].in);
        if (strcmp(b.buf, line_cases[i].out) != 0)
            fail_msg("%s: got %s", line_cases[i].note, b.buf);
        ndp_buf_release(&b);
    }
}

struct lines_case {
    const char *in;
    unsigned allowed;
    const char *out, *note;
};

#define SHY "\xc2\xad"          /* U+00AD SOFT HYPHEN */
#define ZWSP "\xe2\x80\x8b"     /* U+200B ZERO WIDTH SPACE */
#define IDSP "\xe3\x80\x80"     /* U+3000 IDEOGRAPHIC SPACE */

static const struct lines_case lines_cases[] = {
    { "plain\n  text\n", NDP_CMDS_NONE, "plain\n  text\n", "no command" },
    { "::error::x", NDP_CMDS_NONE, "\\x3a:error::x", "a command at column 0" },
    { "a ::error::x", NDP_CMDS_NONE, "a ::error::x", "'::' after text" },
    { "  " IDSP "::error::x", NDP_CMDS_NONE, "  " IDSP "\\x3a:error::x",
      "after spaces and U+3000 (White_Space)" },
    { "\t\xe2\x80\xa8\xc2\x85\xe2\x80\x83::x", NDP_CMDS_NONE,
      "\t\xe2\x80\xa8\xc2\x85\xe2\x80\x83\\x3a:x",
      "after tab, U+2028, NEL and an em space" },
    { "\xef\xbb\xbf::x", NDP_CMDS_NONE, "\xef\xbb\xbf\\x3a:x", "after a BOM" },
    { SHY ":" ZWSP ":x", NDP_CMDS_NONE, SHY "\\x3a" ZWSP ":x",
      "after and between ignorable characters" },
    { " :\xc2\xa0:x", NDP_CMDS_NONE, " :\xc2\xa0:x",
      "no-break space between ':' is no ignorable character" },
    { "a\n  ::b\r::c\r\n::d", NDP_CMDS_NONE,
      "a\n  \\x3a:b\r\\x3a:c\r\n\\x3a:d", "every line, LF and CR" },
    { "x ##[error]y", NDP_CMDS_NONE, "x #\\x23[error]y", "'##[' anywhere" },
    { "x #" SHY "#" ZWSP "[y", NDP_CMDS_NONE, "x #" SHY "\\x23" ZWSP "[y",
      "'##[' split by ignorable characters" },
    { "#\xc2\x85#[", NDP_CMDS_NONE, "#\xc2\x85\\x23[", "split by a C1 control" },
    { "# #[", NDP_CMDS_NONE, "# #[", "a space is no ignorable character" },
    { "###[", NDP_CMDS_NONE, "##\\x23[", "overlapping '#'" },
    { "#" ZWSP "#V" SHY "s" ZWSP "O[t]", NDP_CMDS_NONE,
      "#" ZWSP "\\x23V" SHY "s" ZWSP "O[t]", "'##vso[' in any case, split" },
    { "##vso", NDP_CMDS_NONE, "##vso", "no '[': no command" },
    { "#", NDP_CMDS_NONE, "#", "a '#' at the end" },
    { "::error file=a::x ##[y]\n::endgroup::\n", NDP_CMDS_GITHUB,
      "::error file=a::x #\\x23[y]\n::endgroup::\n",
      "github's own commands stay; '##[' after them does not" },
    { " ::error file=a::x", NDP_CMDS_GITHUB, " \\x3a:error file=a::x",
      "an own command not at column 0" },
    { "::add-mask::x", NDP_CMDS_GITHUB, "\\x3a:add-mask::x",
      "a command not on the list" },
    { "::error x", NDP_CMDS_AZURE, "\\x3a:error x", "github's, in azure's format" },
    { "##vso[task.logissue type=error;]m ##vso[task.setvariable x]\n"
      "##vso[task.complete result=Failed;]\n", NDP_CMDS_AZURE,
      "##vso[task.logissue type=error;]m #\\x23vso[task.setvariable x]\n"
      "##vso[task.complete result=Failed;]\n", "azure's own commands" },
    { "##vso[task.setvariable x]", NDP_CMDS_AZURE,
      "#\\x23vso[task.setvariable x]", "an azure command not on the list" },
};

/* ndp_safe_lines() over whole texts, appended after text it leaves. */
static void safe_lines__matches_table(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(lines_cases); i++) {
        const struct lines_case *c = &lines_cases[i];
        struct ndp_buf b = NDP_BUF_INIT;

        ndp_buf_adds(&b, "::kept\n");
        ndp_buf_adds(&b, c->in);
        ndp_safe_lines(&b, 7, c->allowed, &ndp_defuse_text);
        if (strncmp(b.buf, "::kept\n", 7) != 0 ||
            strcmp(b.buf + 7, c->out) != 0)
            fail_msg("%s: got %s", c->note, b.buf);
        ndp_buf_release(&b);
    }
}

/* The list: every command starts its line, and the text is its own. */
static void log_command__list(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;
    int c;

    (void)state;
    for (c = 0; c < NDP_CMD_COUNT; c++) {
        ndp_log_command_start(&b, (enum ndp_log_command)c);
        ndp_buf_adds(&b, "x\n");
    }
    assert_string_equal(b.buf, "::error x\n::warning x\n::notice x\n"
                               "::group::x\n::endgroup::x\n"
                               "##vso[task.logissue x\n"
                               "##vso[task.complete x\n");
    ndp_safe_lines(&b, 0, NDP_CMDS_GITHUB | NDP_CMDS_AZURE, &ndp_defuse_text);
    assert_string_equal(b.buf, "::error x\n::warning x\n::notice x\n"
                               "::group::x\n::endgroup::x\n"
                               "##vso[task.logissue x\n"
                               "##vso[task.complete x\n");
    ndp_buf_release(&b);
}

/* A line of a million '#' and soft hyphens takes one pass, not n^2. */
static void safe_lines__linear(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t i;

    (void)state;
    for (i = 0; i < 300000; i++)
        ndp_buf_adds(&b, i % 2 ? "#" SHY : SHY SHY);
    ndp_buf_adds(&b, "#[");
    ndp_safe_lines(&b, 0, NDP_CMDS_NONE, &ndp_defuse_text);
    assert_memory_equal(b.buf + b.len - 5, "\\x23[", 5);
    ndp_buf_release(&b);
}

/* Every byte string of up to three bytes repairs to valid UTF-8 and the
 * same text as the one-line escape would show, with no control left. */
static void repair__any_short_string_is_valid(void **state)
{
    unsigned char s[4] = { 0 };
    unsigned long v;
    size_t i;

    (void)state;
    for (v = 0; v < 1ul << 24; v += 7) {
        struct ndp_buf b = NDP_BUF_INIT, l = NDP_BUF_INIT;

        s[0] = (unsigned char)(v >> 16 | 1);
        s[1] = (unsigned char)(v >> 8);
        s[2] = (unsigned char)v;
        ndp_utf8_repair(&b, (const char *)s, strlen((const char *)s),
                        NDP_UTF8_XML);
        ndp_safe_line(&l, (const char *)s);
        assert_true(ndp_utf8_valid(b.buf, b.len));
        assert_true(ndp_utf8_valid(l.buf, l.len));
        for (i = 0; i < l.len; i++)
            assert_true((unsigned char)l.buf[i] >= 0x20 &&
                        l.buf[i] != 0x7f);
        ndp_buf_release(&b);
        ndp_buf_release(&l);
    }
}

/* A message quoting a file name with a newline and ESC stays one line. */
static void error_print__one_escaped_line(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    char text[512];
    FILE *f = tmpfile();
    size_t n;

    (void)state;
    assert_non_null(f);
    ndp_error_set(&err, NDP_EIO, "cannot open '%s'",
                  "plan\n::error file=a,line=1::forged\x1b]0;t\x07\xff.json");
    ndp_error_print(f, &err);
    rewind(f);
    n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    fclose(f);
    assert_string_equal(text, "ndplint: cannot open 'plan\\x0a::error "
                              "file=a,line=1::forged\\x1b]0;t\\x07" FFFD
                              ".json'\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(repair__matches_table),
        cmocka_unit_test(safe_line__matches_table),
        cmocka_unit_test(safe_lines__matches_table),
        cmocka_unit_test(log_command__list),
        cmocka_unit_test(safe_lines__linear),
        cmocka_unit_test(repair__any_short_string_is_valid),
        cmocka_unit_test(error_print__one_escaped_line),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
