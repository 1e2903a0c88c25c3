/*
 * SPDX-License-Identifier: Apache-2.0
 * test_jsonutil.c - ndp_json_check_keys(), the key check the settings and
 * rule-file loaders share: which problem it finds, and the JSON path it
 * names for each caller to word its own error.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_keys__finds_problem_and_path),
        cmocka_unit_test(check_keys__truncates_a_long_path),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
