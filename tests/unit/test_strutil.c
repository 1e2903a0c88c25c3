/*
 * SPDX-License-Identifier: Apache-2.0
 * test_strutil.c - the locale-independent comparisons of strutil.h: only
 * 'A'-'Z' fold, other bytes compare as unsigned char, and the sign of the
 * answer orders strings as strcmp() does on the folded text; and the
 * comparator that sorts arrays of strings.
 */
#include "test_common.h"
#include "strutil.h"

#include <locale.h>

struct compare_case {
    const char *note;
    const char *a, *b;
    size_t n;  /* for ndp_strncasecmp; SIZE_MAX: compare whole strings */
    int sign;  /* -1, 0 or 1 */
};

static const struct compare_case compare_cases[] = {
    { "equal", "abc", "abc", SIZE_MAX, 0 },
    { "ASCII letters fold",
      "Microsoft.ContainerService/managedClusters",
      "microsoft.containerservice/MANAGEDCLUSTERS", SIZE_MAX, 0 },
    { "a prefix sorts first", "abc", "abcd", SIZE_MAX, -1 },
    { "a longer string sorts last", "abcd", "ABC", SIZE_MAX, 1 },
    { "order is of the folded text", "a_b", "A[B", SIZE_MAX, 1 },
    { "non-ASCII bytes do not fold", "caf\xc3\xa9", "CAF\xc3\x89", SIZE_MAX,
      1 },
    { "bytes compare unsigned", "\xff", "a", SIZE_MAX, 1 },
    { "empty strings are equal", "", "", SIZE_MAX, 0 },
    { "n bounds the comparison", "NodeImage", "nodeIMAGEx", 9, 0 },
    { "n of 0 compares nothing", "a", "b", 0, 0 },
    { "a difference within n counts", "abc", "abd", 3, -1 },
};

static int sign_of(int d)
{
    return (d > 0) - (d < 0);
}

static void compare__matches_table(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(compare_cases); i++) {
        const struct compare_case *c = &compare_cases[i];
        int got = c->n == SIZE_MAX ? ndp_strcasecmp(c->a, c->b)
                                   : ndp_strncasecmp(c->a, c->b, c->n);

        if (sign_of(got) != c->sign)
            fail_msg("%s: got %d, want sign %d", c->note, got, c->sign);
        got = c->n == SIZE_MAX ? ndp_strcasecmp(c->b, c->a)
                               : ndp_strncasecmp(c->b, c->a, c->n);
        if (sign_of(got) != -c->sign)
            fail_msg("%s (swapped): got %d, want sign %d", c->note, got,
                     -c->sign);
    }
}

/* The answer is the same under any locale the machine has. */
static void compare__ignores_the_locale(void **state)
{
    static const char *const locales[] = { "tr_TR.UTF-8", "C.UTF-8", "C" };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(locales); i++) {
        if (!setlocale(LC_ALL, locales[i]))
            continue;
        assert_int_equal(ndp_strcasecmp("ID", "id"), 0);
        assert_int_not_equal(ndp_strcasecmp("\xc4\xb0", "i"), 0); /* U+0130 */
    }
    setlocale(LC_ALL, "C");
}

/* Sorting an array of strings is strcmp() order: case and bytes count. */
static void strcmp_indirect__sorts_an_array_of_strings(void **state)
{
    const char *items[] = { "b", "B", "a", "\xc3\xa9", "ab", "" };
    const char *const sorted[] = { "", "B", "a", "ab", "b", "\xc3\xa9" };
    const char *key = "ab";
    size_t i;

    (void)state;
    qsort(items, NDP_ARRAY_SIZE(items), sizeof(items[0]),
          ndp_strcmp_indirect);
    for (i = 0; i < NDP_ARRAY_SIZE(items); i++)
        assert_string_equal(items[i], sorted[i]);
    assert_ptr_equal(bsearch(&key, items, NDP_ARRAY_SIZE(items),
                             sizeof(items[0]), ndp_strcmp_indirect),
                     &items[3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compare__matches_table),
        cmocka_unit_test(compare__ignores_the_locale),
        cmocka_unit_test(strcmp_indirect__sorts_an_array_of_strings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
