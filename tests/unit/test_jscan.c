/*
 * SPDX-License-Identifier: Apache-2.0
 * test_jscan.c - the validating JSON scanner: what it accepts and refuses
 * (json-c 0.16 strict mode, quirks included), where it says an error is,
 * the object/array iterators, string decoding, key comparison, nesting
 * limits without recursion, and the byte ranges handed to json-c.
 *
 * tests/jscan_diff compares the scanner with json-c over many thousands of
 * inputs; these rows pin down the individual rules with readable names.
 */
#include "test_common.h"
#include "buf.h"
#include "input/jscan.h"

/* ---- validation: one row per rule ------------------------------------ */

struct validate_row {
    const char *name;
    const char *text;
    size_t len;        /* 0: strlen(text) */
    bool ok;
    size_t err_pos;    /* when !ok */
    const char *err;   /* when !ok: expected err_msg */
};

#define OK(n, t) { n, t, 0, true, 0, NULL }
#define BAD(n, t, pos, msg) { n, t, 0, false, pos, msg }
#define BADN(n, t, len, pos, msg) { n, t, len, false, pos, msg }

static const struct validate_row validate_rows[] = {
    OK("object__accepted", "{\"a\":1,\"b\":[true,false,null],\"c\":{}}"),
    OK("whitespace_everywhere__accepted",
       " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } }\r\n "),
    OK("top_level_string__accepted", "\"x\""),
    OK("top_level_number_with_space__accepted", "12 "),
    BAD("top_level_number_at_eof__truncated", "12", 2,
        "unexpected end of data"),
    BAD("top_level_literal_at_eof__truncated", "true", 4,
        "unexpected end of data"),
    OK("top_level_literal_with_newline__accepted", "null\n"),
    BAD("empty__truncated", "", 0, "unexpected end of data"),
    BAD("blank__truncated", " \n", 2, "unexpected end of data"),
    BAD("vertical_tab__not_whitespace", "\v[]", 0, "unexpected character"),
    BAD("form_feed_after__not_whitespace", "[]\f", 2,
        "unexpected data after the document"),
    BAD("bom__refused", "\xef\xbb\xbf[]", 0, "unexpected character"),
    BAD("second_value__refused", "{} {}", 3,
        "unexpected data after the document"),
    BADN("nul_after_value__refused", "[] \0", 4, 3, "NUL byte"),
    BADN("nul_in_string__refused", "[\"a\0\"]", 6, 3, "NUL byte"),
    OK("control_characters_in_strings__accepted_like_json_c",
       "[\"\x01\t\n\x1f\x7f\"]"),
    OK("control_character_in_key__accepted_like_json_c", "{\"a\x01\":1}"),
    OK("single_quoted_key__accepted_like_json_c", "{'a\"b':1,\"c\":2}"),
    BAD("single_quoted_value__refused", "{\"a\":'b'}", 5,
        "unexpected character"),
    BAD("escaped_single_quote__refused", "{'a\\'':1}", 3,
        "invalid escape in string"),
    OK("duplicate_keys__accepted", "{\"a\":1,\"a\":2}"),
    BAD("trailing_comma_array__refused", "[1,]", 3, "unexpected character"),
    BAD("trailing_comma_object__refused", "{\"a\":1,}", 7,
        "quoted object key expected"),
    BAD("missing_comma__refused", "[1 2]", 3, "',' or ']' expected in array"),
    BAD("missing_colon__refused", "{\"a\" 1}", 5,
        "':' expected after object key"),
    BAD("unquoted_key__refused", "{a:1}", 1, "quoted object key expected"),
    BAD("mismatched_close__refused", "[}", 1, "unexpected character"),
    BAD("mismatched_close_after_value__refused", "{\"a\":1]", 6,
        "',' or '}' expected in object"),
    BAD("comment__refused", "[1 /* c */]", 3, "',' or ']' expected in array"),
    BAD("unterminated_object__truncated", "{\"a\":[1,2", 9,
        "unexpected end of data"),
    BAD("unterminated_string__truncated", "[\"abc", 5,
        "unexpected end of data"),
    /* Numbers: RFC 8259, plus what json-c lets through. */
    OK("numbers__accepted", "[0,-0,1.5,-0.25,1e10,2E-3,1.5e+7,1e05]"),
    OK("trailing_dot__accepted_like_json_c", "[1.,-0.]"),
    OK("leading_dot_after_minus__accepted_like_json_c", "[-.5]"),
    OK("zeros__accepted_like_json_c", "[00,000,-00]"),
    OK("negative_leading_zero__accepted_like_json_c", "[-01]"),
    OK("leading_zero_with_fraction__accepted_like_json_c", "[01.5,01e2]"),
    BAD("leading_zero__refused", "[01]", 1, "invalid number"),
    BAD("lone_minus__refused", "[-]", 1, "invalid number"),
    BAD("leading_dot__refused", "[.5]", 1, "unexpected character"),
    BAD("plus__refused", "[+1]", 1, "unexpected character"),
    BAD("empty_exponent__refused", "[1e]", 1, "invalid number"),
    BAD("exponent_sign_only__refused", "[1e+]", 1, "invalid number"),
    BAD("minus_dot__refused", "[-.]", 1, "invalid number"),
    BAD("two_dots__refused", "[1.2.3]", 1, "invalid number"),
    BAD("hex__refused", "[0x10]", 2, "',' or ']' expected in array"),
    BAD("number_then_letter__refused", "[1x]", 2,
        "',' or ']' expected in array"),
    OK("nan_and_infinities__accepted", "[NaN,Infinity,-Infinity]"),
    BAD("lowercase_nan__refused", "[nan]", 1, "invalid literal"),
    BAD("short_infinity__refused", "[-Inf]", 1, "invalid literal"),
    BAD("capital_true__refused", "[True]", 1, "unexpected character"),
    BAD("literal_prefix__refused", "[tru]", 1, "invalid literal"),
    BAD("literal_then_letter__refused", "[truex]", 5,
        "',' or ']' expected in array"),
    /* Escapes. */
    OK("escapes__accepted", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uABCD\"]"),
    OK("lone_high_surrogate__accepted", "[\"\\ud800\"]"),
    OK("lone_low_surrogate__accepted", "[\"\\udc00\"]"),
    OK("reversed_surrogates__accepted", "[\"\\udc00\\ud800\"]"),
    OK("surrogate_pair__accepted", "[\"\\ud83d\\ude00\"]"),
    OK("escaped_nul__accepted", "[\"\\u0000\"]"),
    BAD("unknown_escape__refused", "[\"\\x\"]", 2,
        "invalid escape in string"),
    BAD("short_unicode_escape__refused", "[\"\\u12\"]", 2,
        "invalid \\u escape in string"),
    BAD("bad_hex__refused", "[\"\\u12g4\"]", 2,
        "invalid \\u escape in string"),
    BAD("escape_at_eof__truncated", "[\"\\", 3, "unexpected end of data"),
    /* UTF-8: shape only, like json-c. */
    OK("utf8__accepted", "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]"),
    OK("overlong__accepted_like_json_c", "[\"\xc0\x80\xe0\x80\x80\"]"),
    OK("encoded_surrogate__accepted_like_json_c", "[\"\xed\xa0\x80\"]"),
    OK("above_10ffff__accepted_like_json_c",
       "[\"\xf4\x90\x80\x80\xf7\xbf\xbf\xbf\"]"),
    BAD("five_byte_lead__refused", "[\"\xf8\x88\x80\x80\x80\"]", 2,
        "invalid UTF-8 in string"),
    BAD("stray_continuation__refused", "[\"a\x80\"]", 3,
        "invalid UTF-8 in string"),
    BAD("short_sequence__refused", "[\"\xe2\x82\"]", 2,
        "invalid UTF-8 in string"),
    BAD("utf8_outside_string__refused", "[\xc3\xa9]", 1,
        "unexpected character"),
    /* Long strings cross the 16-byte blocks of the fast loop. */
    OK("long_ascii_string__accepted",
       "[\"0123456789abcdef0123456789abcdef0123456789abcdef\\n"
       "0123456789abcdef\xc3\xa9\"]"),
    BAD("bad_byte_late_in_long_string__refused",
        "[\"0123456789abcdef0123456789abcdef\x01\x02\x03\x04\x05\x06\x07"
        "\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\xff\"]", 51,
        "invalid UTF-8 in string"),
};

static void validate__matches_row(void **state)
{
    const struct validate_row *row = *state;
    size_t len = row->len ? row->len : strlen(row->text);
    struct ndp_jscan s;
    size_t start = 99, end = 99;
    int rc;

    ndp_jscan_init(&s, row->text, len, 512);
    rc = ndp_jscan_skip_value(&s, &start, &end);
    if (!rc)
        rc = ndp_jscan_end(&s);
    if (row->ok) {
        assert_int_equal(rc, 0);
        assert_null(s.err_msg);
        assert_int_equal(s.pos, len);
        assert_true(start <= end && end <= len);
        return;
    }
    assert_int_equal(rc, NDP_EPARSE);
    assert_non_null(s.err_msg);
    assert_string_equal(s.err_msg, row->err);
    assert_int_equal(s.err_pos, row->err_pos);
}

/* ---- nesting --------------------------------------------------------- */

static char *nested(int levels, const char *inner, size_t *len)
{
    struct ndp_buf b = NDP_BUF_INIT;
    int i;

    for (i = 0; i < levels; i++)
        ndp_buf_addch(&b, '[');
    ndp_buf_adds(&b, inner);
    for (i = 0; i < levels; i++)
        ndp_buf_addch(&b, ']');
    *len = b.len;
    return ndp_buf_detach(&b);
}

static int validate_text(const char *text, size_t len, int max_depth,
                         struct ndp_jscan *s)
{
    int rc;

    ndp_jscan_init(s, text, len, max_depth);
    rc = ndp_jscan_skip_value(s, NULL, NULL);
    return rc ? rc : ndp_jscan_end(s);
}

static void depth__512_empty_arrays_pass_a_value_inside_does_not(void **state)
{
    struct ndp_jscan s;
    size_t len;
    char *text;

    (void)state;
    text = nested(512, "", &len);
    assert_int_equal(validate_text(text, len, 512, &s), 0);
    free(text);
    text = nested(511, "1", &len);
    assert_int_equal(validate_text(text, len, 512, &s), 0);
    free(text);
    text = nested(512, "1", &len);
    assert_int_equal(validate_text(text, len, 512, &s), NDP_EPARSE);
    assert_string_equal(s.err_msg, "nesting too deep");
    assert_int_equal(s.err_pos, 512);
    free(text);
    text = nested(513, "", &len);
    assert_int_equal(validate_text(text, len, 512, &s), NDP_EPARSE);
    assert_int_equal(s.err_pos, 512);
    free(text);
}

static void depth__million_levels_use_no_stack(void **state)
{
    struct ndp_jscan s;
    size_t len;
    char *text;

    (void)state;
    text = nested(1000000, "", &len);
    assert_int_equal(validate_text(text, len, NDP_JSCAN_DEPTH_LIMIT, &s),
                     NDP_EPARSE);
    assert_int_equal(s.err_pos, NDP_JSCAN_DEPTH_LIMIT);
    free(text);
}

static void depth__limit_counts_iterator_levels(void **state)
{
    const char *text = "[[[1]]]";
    struct ndp_jscan s;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 3);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_int_equal(s.depth, 2);
    /* [1] is at depth 2: fine; its 1 would be at depth 3. */
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), NDP_EPARSE);
    assert_string_equal(s.err_msg, "nesting too deep");
    assert_int_equal(s.err_pos, 3);
}

/* ---- iteration ------------------------------------------------------- */

static const char plan[] =
    "{\"format_version\":\"1.2\",\n"
    " \"resource_changes\":[\n"
    "  {\"address\":\"a.b\",\"type\":\"azurerm_kubernetes_cluster\","
    "\"change\":{\"actions\":[\"update\"]}},\n"
    "  {\"address\":\"c.d\",\"t\\u0079pe\":\"aws_s3_bucket\",\"x\":[1,2]}\n"
    " ],\n"
    " \"other\":null}";

static void iterate__finds_types_and_ranges(void **state)
{
    struct ndp_jscan s;
    struct ndp_buf type = NDP_BUF_INIT;
    const char *key;
    size_t key_len, start, end, n = 0;
    bool done, rdone, edone;
    char types[2][40] = { "", "" };
    char change[64] = "";

    (void)state;
    ndp_jscan_init(&s, plan, strlen(plan), 512);
    assert_int_equal(ndp_jscan_peek(&s), NDP_JSCAN_OBJECT);
    assert_int_equal(ndp_jscan_object_begin(&s), 0);
    for (;;) {
        assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
        if (done)
            break;
        if (!ndp_jscan_key_is(key, key_len, "resource_changes")) {
            assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), 0);
            continue;
        }
        assert_int_equal(ndp_jscan_array_begin(&s), 0);
        for (;;) {
            assert_int_equal(ndp_jscan_array_next(&s, &rdone), 0);
            if (rdone)
                break;
            assert_int_equal(ndp_jscan_object_begin(&s), 0);
            for (;;) {
                assert_int_equal(
                    ndp_jscan_object_next(&s, &key, &key_len, &edone), 0);
                if (edone)
                    break;
                if (ndp_jscan_key_is(key, key_len, "type")) {
                    assert_int_equal(ndp_jscan_string(&s, &type), 0);
                    snprintf(types[n], sizeof(types[n]), "%s", type.buf);
                } else if (ndp_jscan_key_is(key, key_len, "change")) {
                    assert_int_equal(ndp_jscan_skip_value(&s, &start, &end),
                                     0);
                    snprintf(change, sizeof(change), "%.*s",
                             (int)(end - start), plan + start);
                } else {
                    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), 0);
                }
            }
            n++;
        }
    }
    assert_int_equal(ndp_jscan_end(&s), 0);
    assert_int_equal(n, 2);
    assert_string_equal(types[0], "azurerm_kubernetes_cluster");
    assert_string_equal(types[1], "aws_s3_bucket");
    assert_string_equal(change, "{\"actions\":[\"update\"]}");
    ndp_buf_release(&type);
}

static void iterate__empty_containers_are_done_at_once(void **state)
{
    const char *text = "{ \"a\" : [ ] , \"b\" : { } }";
    struct ndp_jscan s;
    const char *key;
    size_t key_len;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_object_begin(&s), 0);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_false(done);
    assert_int_equal(key_len, 1);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_true(done);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_false(done);
    assert_true(ndp_jscan_key_is(key, key_len, "b"));
    assert_int_equal(ndp_jscan_object_begin(&s), 0);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_true(done);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_true(done);
    assert_int_equal(s.depth, 0);
    assert_int_equal(ndp_jscan_end(&s), 0);
}

static void iterate__trailing_comma_is_refused(void **state)
{
    const char *text = "[1,]";
    struct ndp_jscan s;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_false(done);
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), NDP_EPARSE);
    assert_int_equal(s.err_pos, 3);
}

static void wrong_type__is_schema_error_and_consumes_nothing(void **state)
{
    const char *text = "  [\"x\"] ";
    struct ndp_jscan s;
    struct ndp_buf out = NDP_BUF_INIT;
    size_t start, end;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_peek(&s), NDP_JSCAN_ARRAY);
    assert_int_equal(ndp_jscan_object_begin(&s), NDP_ESCHEMA);
    assert_int_equal(ndp_jscan_string(&s, &out), NDP_ESCHEMA);
    assert_null(s.err_msg);
    assert_int_equal(s.pos, 2);
    assert_int_equal(ndp_jscan_skip_value(&s, &start, &end), 0);
    assert_int_equal(start, 2);
    assert_int_equal(end, 7);
    assert_int_equal(ndp_jscan_end(&s), 0);
    ndp_buf_release(&out);
}

static void parse_error__is_sticky(void **state)
{
    const char *text = "[1,x,2]";
    struct ndp_jscan s;
    struct ndp_buf out = NDP_BUF_INIT;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), 0);
    assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), NDP_EPARSE);
    assert_int_equal(s.err_pos, 3);
    assert_int_equal(ndp_jscan_array_next(&s, &done), NDP_EPARSE);
    assert_int_equal(ndp_jscan_string(&s, &out), NDP_EPARSE);
    assert_int_equal(ndp_jscan_peek(&s), NDP_JSCAN_NONE);
    assert_int_equal(ndp_jscan_end(&s), NDP_EPARSE);
    assert_int_equal(s.err_pos, 3);
    ndp_buf_release(&out);
}

static void peek__reports_each_type(void **state)
{
    static const struct {
        const char *text;
        enum ndp_jscan_type type;
    } rows[] = {
        { " {}", NDP_JSCAN_OBJECT }, { "[]", NDP_JSCAN_ARRAY },
        { "\"\"", NDP_JSCAN_STRING }, { "-1", NDP_JSCAN_NUMBER },
        { "NaN", NDP_JSCAN_NUMBER }, { "Infinity", NDP_JSCAN_NUMBER },
        { "false", NDP_JSCAN_BOOL }, { "null", NDP_JSCAN_NULL },
        { "x", NDP_JSCAN_NONE }, { "  ", NDP_JSCAN_NONE },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_jscan s;

        ndp_jscan_init(&s, rows[i].text, strlen(rows[i].text), 512);
        assert_int_equal(ndp_jscan_peek(&s), rows[i].type);
    }
}

/* ---- strings and keys ------------------------------------------------ */

struct string_row {
    const char *name;
    const char *text;   /* a JSON string value */
    const char *want;   /* decoded bytes */
    size_t want_len;
};

#define STR(n, t, w) { n, t, w, sizeof(w) - 1 }

static const struct string_row string_rows[] = {
    STR("string_plain__copied", "\"azurerm_kubernetes_cluster\"",
        "azurerm_kubernetes_cluster"),
    STR("string_escapes__decoded", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
        "a\"b\\c/d\b\f\n\r\t"),
    STR("string_unicode_escapes__utf8", "\"\\u0041\\u00e9\\u20AC\"",
        "A\xc3\xa9\xe2\x82\xac"),
    STR("string_surrogate_pair__one_code_point", "\"\\ud83d\\ude00\"",
        "\xf0\x9f\x98\x80"),
    STR("string_lone_high__replacement", "\"\\ud800x\"", "\xef\xbf\xbdx"),
    STR("string_lone_low__replacement", "\"\\udc00\"", "\xef\xbf\xbd"),
    STR("string_reversed__two_replacements", "\"\\udc00\\ud800\"",
        "\xef\xbf\xbd\xef\xbf\xbd"),
    STR("string_high_high_low__replacement_then_pair",
        "\"\\ud800\\ud800\\udc00\"", "\xef\xbf\xbd\xf0\x90\x80\x80"),
    STR("string_escaped_nul__kept", "\"a\\u0000b\"", "a\0b"),
    STR("string_raw_utf8_and_controls__kept", "\"\xc3\xa9\x01\"",
        "\xc3\xa9\x01"),
    STR("string_empty__empty", "\"\"", ""),
};

static void string__decodes_like_json_c(void **state)
{
    const struct string_row *row = *state;
    struct ndp_jscan s;
    struct ndp_buf out = NDP_BUF_INIT;
    struct json_object *o = json_tokener_parse(row->text);

    ndp_buf_adds(&out, "old contents");
    ndp_jscan_init(&s, row->text, strlen(row->text), 512);
    assert_int_equal(ndp_jscan_string(&s, &out), 0);
    assert_int_equal(out.len, row->want_len);
    assert_memory_equal(out.buf, row->want, row->want_len);
    assert_int_equal(out.buf[out.len], '\0');
    assert_int_equal(s.pos, strlen(row->text));
    /* json-c reads it the same. */
    assert_non_null(o);
    assert_int_equal(json_object_get_string_len(o), row->want_len);
    assert_memory_equal(json_object_get_string(o), row->want, row->want_len);
    json_object_put(o);
    ndp_buf_release(&out);
}

struct key_row {
    const char *name;
    const char *raw;
    const char *key;
    bool same;
};

static const struct key_row key_rows[] = {
    { "key_plain__equal", "type", "type", true },
    { "key_prefix__not_equal", "typ", "type", false },
    { "key_longer__not_equal", "types", "type", false },
    { "key_empty__equal", "", "", true },
    { "key_escaped_letter__equal", "t\\u0079pe", "type", true },
    { "key_escaped_slash__equal", "a\\/b", "a/b", true },
    { "key_escaped_quote__equal", "a\\\"b", "a\"b", true },
    { "key_escape_mismatch__not_equal", "t\\u0078pe", "type", false },
    { "key_cut_at_escaped_nul__equal_like_json_c", "a\\u0000b", "a", true },
    { "key_cut_at_escaped_nul__not_longer", "a\\u0000b", "ab", false },
    { "key_non_ascii__equal", "caf\\u00e9", "caf\xc3\xa9", true },
};

static void key_is__matches_row(void **state)
{
    const struct key_row *row = *state;

    assert_int_equal(ndp_jscan_key_is(row->raw, strlen(row->raw), row->key),
                     row->same);
}

static void key__single_quoted_raw_key(void **state)
{
    const char *text = "{'a\"b':1}";
    struct ndp_jscan s;
    const char *key;
    size_t key_len;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_object_begin(&s), 0);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_int_equal(key_len, 3);
    assert_true(ndp_jscan_key_is(key, key_len, "a\"b"));
    assert_int_equal(ndp_jscan_skip_value(&s, NULL, NULL), 0);
    assert_int_equal(ndp_jscan_object_next(&s, &key, &key_len, &done), 0);
    assert_true(done);
    assert_int_equal(ndp_jscan_end(&s), 0);
}

/* ---- ranges handed to json-c ----------------------------------------- */

static void ranges__parse_alone_in_json_c(void **state)
{
    const char *text = "[{\"a\":[1,\"\\u00e9\"]}, \"s\" ,12.5 ,true]";
    static const char *const want[] = { "{\"a\":[1,\"\\u00e9\"]}", "\"s\"",
                                        "12.5", "true" };
    struct ndp_jscan s;
    size_t i = 0, start, end;
    bool done;

    (void)state;
    ndp_jscan_init(&s, text, strlen(text), 512);
    assert_int_equal(ndp_jscan_array_begin(&s), 0);
    for (;;) {
        struct json_object *o;
        char *copy;

        assert_int_equal(ndp_jscan_array_next(&s, &done), 0);
        if (done)
            break;
        assert_int_equal(ndp_jscan_skip_value(&s, &start, &end), 0);
        assert_true(i < NDP_ARRAY_SIZE(want));
        assert_int_equal(end - start, strlen(want[i]));
        assert_memory_equal(text + start, want[i], end - start);
        /* A bare number or literal needs a byte after it (see jscan.h). */
        copy = ndp_xmalloc(end - start + 2);
        memcpy(copy, text + start, end - start);
        memcpy(copy + (end - start), " ", 2);
        o = json_tokener_parse(copy);
        assert_non_null(o);
        json_object_put(o);
        free(copy);
        i++;
    }
    assert_int_equal(i, 4);
    assert_int_equal(ndp_jscan_end(&s), 0);
}

/* Every copy of the scanner counts newlines as a byte loop does, at every
 * start and length around its vector widths, newline bytes next to bytes
 * that differ from '\n' by one bit. */
static void count_newlines__every_copy_agrees_with_a_byte_loop(void **state)
{
    static const char *const isas[] = { "portable", "sse2", "avx2" };
    static const unsigned char fill[] = { '\n', 0x0B, 0x8A, 0x0A ^ 0x40,
                                          '\n', 0x00, 0xFF, '\n' };
    unsigned char buf[160];
    const char *before = ndp_jscan_isa_name();
    size_t i, start, n, want, copies = 0;

    (void)state;
    for (i = 0; i < sizeof(buf); i++)
        buf[i] = fill[(i * 7 + i / 5) % sizeof(fill)];
    for (i = 0; i < NDP_ARRAY_SIZE(isas); i++) {
        if (!ndp_jscan_use_isa(isas[i]))
            continue;
        copies++;
        for (start = 0; start < 40; start++) {
            for (n = 0; start + n <= sizeof(buf); n++) {
                size_t k;

                for (want = 0, k = start; k < start + n; k++)
                    want += buf[k] == '\n';
                assert_int_equal(ndp_jscan_count_newlines(
                                     (const char *)buf + start, n), want);
            }
        }
    }
    assert_true(copies >= 1);
    assert_true(ndp_jscan_use_isa(before));
}

int main(void)
{
    static struct test_list list;
    int rc;

    ADD_ROWS(&list, validate_rows, validate__matches_row);
    ADD_TEST(&list, depth__512_empty_arrays_pass_a_value_inside_does_not);
    ADD_TEST(&list, depth__million_levels_use_no_stack);
    ADD_TEST(&list, depth__limit_counts_iterator_levels);
    ADD_TEST(&list, iterate__finds_types_and_ranges);
    ADD_TEST(&list, iterate__empty_containers_are_done_at_once);
    ADD_TEST(&list, iterate__trailing_comma_is_refused);
    ADD_TEST(&list, wrong_type__is_schema_error_and_consumes_nothing);
    ADD_TEST(&list, parse_error__is_sticky);
    ADD_TEST(&list, peek__reports_each_type);
    ADD_ROWS(&list, string_rows, string__decodes_like_json_c);
    ADD_ROWS(&list, key_rows, key_is__matches_row);
    ADD_TEST(&list, key__single_quoted_raw_key);
    ADD_TEST(&list, ranges__parse_alone_in_json_c);
    ADD_TEST(&list, count_newlines__every_copy_agrees_with_a_byte_loop);
    rc = cmocka_run_group_tests_name("jscan", list.items, NULL, NULL);
    return rc;
}
