/*
 * SPDX-License-Identifier: Apache-2.0
 * test_jsonutil.c - ndp_json_check_keys(), the key check the settings and
 * rule-file loaders share: which problem it finds, and the JSON path it
 * names for each caller to word its own error; and ndp_json_overlay(),
 * which lays a partial what-if snapshot over a whole known value.
 */
#include "test_common.h"
#include "jsonutil.h"

static const char *const allowed[] = { "id", "scope", "watch", NULL };

struct check_keys_case {
    const char *note;
    const char *json;     /* ' for " */
    const char *where;
    const char *problem;  /* NULL: the keys are good */
    const char *at;       /* the path named with the problem */
};

static const struct check_keys_case check_keys_cases[] = {
    { "every key allowed", "{'id':1,'watch':[]}", "rules[0]", NULL, NULL },
    { "no key at all", "{}", "rules[0]", NULL, NULL },
    { "unknown key is named under 'where'", "{'id':1,'scop':2}", "rules[0]",
      "unknown key", "rules[0].scop" },
    { "unknown key at the top level", "{'extra':1}", "", "unknown key",
      "extra" },
    { "the first unknown key in document order", "{'b':1,'a':2}",
      "(top level)", "unknown key", "(top level).b" },
    { "keys compare case-sensitively", "{'ID':1}", "x", "unknown key",
      "x.ID" },
    { "an array is not an object", "[1]", "rules[0].watch[0]",
      "must be an object", "rules[0].watch[0]" },
    { "a string is not an object", "'s'", "", "must be an object", "" },
    { "null is not an object", "null", "clusters[2]", "must be an object",
      "clusters[2]" },
};

static void check_keys__finds_problem_and_path(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(check_keys_cases); i++) {
        const struct check_keys_case *c = &check_keys_cases[i];
        struct json_object *o = test_json(c->json);
        char at[256] = "untouched";
        const char *problem = ndp_json_check_keys(at, sizeof(at), o,
                                                  c->where, allowed);

        if (!c->problem && problem)
            fail_msg("%s: got '%s' at '%s'", c->note, problem, at);
        if (c->problem && (!problem || strcmp(problem, c->problem) != 0 ||
                           strcmp(at, c->at) != 0))
            fail_msg("%s: got '%s' at '%s', want '%s' at '%s'", c->note,
                     problem ? problem : "(none)", at, c->problem, c->at);
        json_object_put(o);
    }
}

/* A path longer than the caller's buffer is cut, never overrun. */
static void check_keys__truncates_a_long_path(void **state)
{
    struct json_object *o = test_json("{'unknown':1}");
    char where[300], at[16];
    const char *problem;

    (void)state;
    memset(where, 'w', sizeof(where) - 1);
    where[sizeof(where) - 1] = '\0';
    problem = ndp_json_check_keys(at, sizeof(at), o, where, allowed);
    assert_non_null(problem);
    assert_string_equal(problem, "unknown key");
    assert_int_equal(strlen(at), sizeof(at) - 1);
    json_object_put(o);
}

struct overlay_case {
    const char *note;
    const char *base;     /* ' for "; NULL for none */
    const char *top;
    const char *want;     /* "null" for NULL */
};

static const struct overlay_case overlay_cases[] = {
    { "objects merge key by key", "{'a':1,'b':{'c':2,'d':3}}",
      "{'b':{'d':4},'e':5}", "{\"a\":1,\"b\":{\"c\":2,\"d\":4},\"e\":5}" },
    { "a null element keeps the base's", "[{'s':'x'},{'s':'y'}]",
      "[null,{'s':'z'}]", "[{\"s\":\"x\"},{\"s\":\"z\"}]" },
    { "the longer array wins", "[1,2,3]", "[9]", "[9,2,3]" },
    { "a scalar replaces", "{'a':{'b':1}}", "{'a':7}", "{\"a\":7}" },
    { "no base: the top", NULL, "{'a':1}", "{\"a\":1}" },
    { "no top: the base", "{'a':1}", NULL, "{\"a\":1}" },
    { "neither: NULL", NULL, NULL, "null" },
};

static struct json_object *parse_quoted(const char *text)
{
    char buf[256];
    size_t i;

    if (!text)
        return NULL;
    for (i = 0; text[i] && i + 1 < sizeof(buf); i++)
        buf[i] = text[i] == '\'' ? '"' : text[i];
    buf[i] = '\0';
    return json_tokener_parse(buf);
}

static void overlay__lays_top_over_base(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(overlay_cases); i++) {
        const struct overlay_case *c = &overlay_cases[i];
        struct json_object *base = parse_quoted(c->base);
        struct json_object *top = parse_quoted(c->top);
        struct json_object *got = ndp_json_overlay(base, top);
        const char *text = got ? json_object_to_json_string_ext(
                                     got, JSON_C_TO_STRING_PLAIN)
                               : "null";

        if (strcmp(text, c->want) != 0) {
            print_error("%s: got %s, want %s\n", c->note, text, c->want);
            fail();
        }
        json_object_put(got);
        json_object_put(base);
        json_object_put(top);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_keys__finds_problem_and_path),
        cmocka_unit_test(check_keys__truncates_a_long_path),
        cmocka_unit_test(overlay__lays_top_over_base),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
