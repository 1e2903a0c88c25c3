/*
 * SPDX-License-Identifier: Apache-2.0
 * test_strmap.c - the keyed map from strings to indexes (strmap.c): what
 * an add returns for a new key and for one held already, lookups of
 * absent keys, ASCII case folding and what it leaves alone (bytes next to
 * the letters, UTF-8), keys around the hash's 8-byte blocks, the empty
 * key, growth (a power of two, never more than half full, nothing lost),
 * many keys, duplicates, release and reuse.
 */
#include "test_common.h"
#include "strmap.h"

/* One step of a row: add KEY with VALUE, or find KEY; either gives WANT. */
struct op {
    char kind;              /* 'a' add, 'f' find, 0 ends the row */
    const char *key;
    size_t value;           /* for 'a' */
    size_t want;
};

struct row {
    const char *name;
    bool fold;
    struct op ops[12];
    size_t nr;              /* keys held at the end */
};

#define ADD(k, v, w) { 'a', (k), (v), (w) }
#define FIND(k, w) { 'f', (k), 0, (w) }
#define NONE SIZE_MAX

static const struct row rows[] = {
    { "empty map finds nothing", true,
      { FIND("pool", NONE), FIND("", NONE) }, 0 },
    { "add returns the value of a new key", false,
      { ADD("pool", 7, 7), FIND("pool", 7) }, 1 },
    { "add of a key held already returns the earlier value and keeps it",
      false, { ADD("pool", 1, 1), ADD("pool", 2, 1), FIND("pool", 1) }, 1 },
    { "absent keys next to present ones", false,
      { ADD("pool", 1, 1), FIND("pool1", NONE), FIND("poo", NONE),
        FIND("Pool", NONE), FIND("", NONE) }, 1 },
    { "a key that extends another is another key", false,
      { ADD("pool", 1, 1), ADD("pool1", 2, 2), ADD("poo", 3, 3),
        FIND("pool", 1), FIND("pool1", 2), FIND("poo", 3) }, 3 },
    { "fold: keys that differ in ASCII case are one key", true,
      { ADD("System", 1, 1), ADD("SYSTEM", 2, 1), ADD("system", 3, 1),
        FIND("sYsTeM", 1) }, 1 },
    { "no fold: keys that differ in case are two keys", false,
      { ADD("System", 1, 1), ADD("system", 2, 2), FIND("SYSTEM", NONE),
        FIND("System", 1), FIND("system", 2) }, 2 },
    { "fold: only A-Z fold, not the bytes 32 apart around them", true,
      { ADD("@", 1, 1), ADD("`", 2, 2), ADD("[", 3, 3), ADD("{", 4, 4),
        ADD("Z", 5, 5), ADD("z", 6, 5), FIND("@", 1), FIND("`", 2),
        FIND("[", 3), FIND("{", 4) }, 5 },
    { "fold: UTF-8 letters are not folded", true,
      { ADD("\xc3\x89", 1, 1), ADD("\xc3\xa9", 2, 2),
        FIND("\xc3\x89", 1), FIND("\xc3\xa9", 2) }, 2 },
    { "the empty key is a key like another", true,
      { ADD("", 9, 9), ADD("", 10, 9), FIND("", 9), FIND(" ", NONE) }, 1 },
    { "keys around the 8-byte blocks of the hash are distinct", true,
      { ADD("aaaaaaa", 7, 7), ADD("aaaaaaaa", 8, 8), ADD("aaaaaaaaa", 9, 9),
        ADD("aaaaaaaaaaaaaaa", 15, 15), ADD("aaaaaaaaaaaaaaaa", 16, 16),
        ADD("aaaaaaaaaaaaaaaaa", 17, 17), FIND("AAAAAAAA", 8),
        FIND("aaaaaaaaaaaaaaaa", 16), FIND("aaaaaaaaaa", NONE) }, 6 },
    { "hostile text: quotes, controls, escapes and high bytes", false,
      { ADD("a\"b", 1, 1), ADD("a\\\"b", 2, 2), ADD("\x1b[31m\r\n", 3, 3),
        ADD("\xff\xfe", 4, 4), FIND("a\"b", 1), FIND("\x1b[31m\r\n", 3),
        FIND("\xff\xfe", 4), FIND("\xff", NONE) }, 4 },
    { "values at the ends of size_t are kept", false,
      { ADD("zero", 0, 0), ADD("max-1", SIZE_MAX - 1, SIZE_MAX - 1),
        FIND("zero", 0), FIND("max-1", SIZE_MAX - 1) }, 2 },
};

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_strmap m = NDP_STRMAP_INIT(row->fold);
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(row->ops) && row->ops[i].kind; i++) {
        const struct op *op = &row->ops[i];
        size_t got = op->kind == 'a' ? ndp_strmap_add(&m, op->key, op->value)
                                     : ndp_strmap_find(&m, op->key);
        if (got != op->want)
            fail_msg("step %zu (%s '%s'): got %zu, want %zu", i,
                     op->kind == 'a' ? "add" : "find", op->key, got,
                     op->want);
    }
    assert_int_equal(m.nr, row->nr);
    ndp_strmap_release(&m);
}

/* Keys PREFIX0 .. PREFIX<n-1>, in one block the caller frees. */
static char (*numbered(size_t n, const char *prefix))[24]
{
    char (*keys)[24] = calloc(n, sizeof(*keys));
    size_t i;

    assert_non_null(keys);
    for (i = 0; i < n; i++)
        snprintf(keys[i], sizeof(keys[i]), "%s%zu", prefix, i);
    return keys;
}

/* After every add: cap a power of two, at most half full, nothing lost. */
static void growth__power_of_two_half_full_and_nothing_lost(void **state)
{
    struct ndp_strmap m = NDP_STRMAP_INIT(false);
    char (*keys)[24] = numbered(600, "k");
    size_t i, j, last_cap = 0, grew = 0;

    (void)state;
    for (i = 0; i < 600; i++) {
        assert_int_equal(ndp_strmap_add(&m, keys[i], i), i);
        assert_int_equal(m.nr, i + 1);
        assert_true(m.cap >= 16 && (m.cap & (m.cap - 1)) == 0);
        assert_true(2 * m.nr <= m.cap);
        if (m.cap != last_cap) {
            grew++;
            last_cap = m.cap;
            for (j = 0; j <= i; j++)
                assert_int_equal(ndp_strmap_find(&m, keys[j]), j);
        }
    }
    /* 16, 32, ..., 2048: the table doubles each time it would pass half. */
    assert_int_equal(m.cap, 2048);
    assert_int_equal(grew, 8);
    ndp_strmap_release(&m);
    free(keys);
}

/*
 * 100,000 keys in a folded map, then each found in another case, and as
 * many near misses (one more digit) not found.
 */
static void many_keys__each_found_in_any_case_near_misses_not(void **state)
{
    enum { N = 100000 };
    struct ndp_strmap m = NDP_STRMAP_INIT(true);
    char (*keys)[24] = numbered(N, "nodepool-");
    char probe[32];
    size_t i;

    (void)state;
    for (i = 0; i < N; i++)
        assert_int_equal(ndp_strmap_add(&m, keys[i], i), i);
    assert_int_equal(m.nr, N);
    for (i = 0; i < N; i++) {
        snprintf(probe, sizeof(probe), "NODEPOOL-%zu", i);
        if (ndp_strmap_find(&m, probe) != i)
            fail_msg("'%s' not found as %zu", probe, i);
        snprintf(probe, sizeof(probe), "nodepool-%zu0", i + N);
        if (ndp_strmap_find(&m, probe) != SIZE_MAX)
            fail_msg("'%s' found", probe);
    }
    ndp_strmap_release(&m);
    free(keys);
}

/* One key added many times, in many cases: one entry, the first value. */
static void duplicates__one_entry_and_no_growth(void **state)
{
    struct ndp_strmap m = NDP_STRMAP_INIT(true);
    char keys[1000][8];
    size_t i;

    (void)state;
    for (i = 0; i < 1000; i++) {
        size_t k;
        snprintf(keys[i], sizeof(keys[i]), "apps");
        for (k = 0; k < 4; k++)
            if (i & (1u << k))
                keys[i][k] = (char)(keys[i][k] - 32);
        assert_int_equal(ndp_strmap_add(&m, keys[i], 1000 + i), 1000);
    }
    assert_int_equal(m.nr, 1);
    assert_int_equal(m.cap, 16);
    assert_int_equal(ndp_strmap_find(&m, "APPS"), 1000);
    ndp_strmap_release(&m);
}

/* A key is found by its text, whatever buffer holds the text looked up. */
static void keys__found_by_text_not_by_pointer(void **state)
{
    struct ndp_strmap m = NDP_STRMAP_INIT(false);
    static const char held[] = "azurerm_kubernetes_cluster.main";
    char copy[sizeof(held)];

    (void)state;
    memcpy(copy, held, sizeof(held));
    ndp_strmap_add(&m, held, 3);
    assert_int_equal(ndp_strmap_find(&m, copy), 3);
    assert_int_equal(ndp_strmap_add(&m, copy, 4), 3);
    assert_int_equal(m.nr, 1);
    ndp_strmap_release(&m);
}

/* A megabyte-long key, and the same less its last byte. */
static void long_keys__whole_key_counts(void **state)
{
    enum { LEN = 1 << 20 };
    struct ndp_strmap m = NDP_STRMAP_INIT(true);
    char *a = malloc(LEN + 1), *b = malloc(LEN + 1);

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    memset(a, 'x', LEN);
    a[LEN] = '\0';
    memcpy(b, a, LEN + 1);
    b[LEN - 1] = 'X';
    assert_int_equal(ndp_strmap_add(&m, a, 1), 1);
    assert_int_equal(ndp_strmap_find(&m, b), 1); /* folded: same key */
    b[LEN - 1] = 'y';
    assert_int_equal(ndp_strmap_find(&m, b), SIZE_MAX);
    b[LEN - 1] = '\0';
    assert_int_equal(ndp_strmap_find(&m, b), SIZE_MAX);
    ndp_strmap_release(&m);
    free(a);
    free(b);
}

/* Released: empty, finds nothing, and takes keys again. */
static void release__empties_and_map_is_reusable(void **state)
{
    struct ndp_strmap m = NDP_STRMAP_INIT(true);

    (void)state;
    ndp_strmap_release(&m); /* never used: nothing to free */
    ndp_strmap_add(&m, "system", 0);
    ndp_strmap_add(&m, "user", 1);
    ndp_strmap_release(&m);
    assert_null(m.slots);
    assert_int_equal(m.cap, 0);
    assert_int_equal(m.nr, 0);
    assert_true(m.fold_case);
    assert_int_equal(ndp_strmap_find(&m, "system"), SIZE_MAX);
    assert_int_equal(ndp_strmap_add(&m, "USER", 5), 5);
    assert_int_equal(ndp_strmap_find(&m, "user"), 5);
    assert_int_equal(m.nr, 1);
    ndp_strmap_release(&m);
}

/* The same keys added in two orders: the same value under each key. */
static void order__lookups_do_not_depend_on_insertion_order(void **state)
{
    enum { N = 5000 };
    struct ndp_strmap up = NDP_STRMAP_INIT(false);
    struct ndp_strmap down = NDP_STRMAP_INIT(false);
    char (*keys)[24] = numbered(N, "/subscriptions/s/");
    size_t i;

    (void)state;
    for (i = 0; i < N; i++) {
        ndp_strmap_add(&up, keys[i], i);
        ndp_strmap_add(&down, keys[N - 1 - i], N - 1 - i);
    }
    for (i = 0; i < N; i++)
        assert_int_equal(ndp_strmap_find(&up, keys[i]),
                         ndp_strmap_find(&down, keys[i]));
    ndp_strmap_release(&up);
    ndp_strmap_release(&down);
    free(keys);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, growth__power_of_two_half_full_and_nothing_lost);
    ADD_TEST(&list, many_keys__each_found_in_any_case_near_misses_not);
    ADD_TEST(&list, duplicates__one_entry_and_no_growth);
    ADD_TEST(&list, keys__found_by_text_not_by_pointer);
    ADD_TEST(&list, long_keys__whole_key_counts);
    ADD_TEST(&list, release__empties_and_map_is_reusable);
    ADD_TEST(&list, order__lookups_do_not_depend_on_insertion_order);
    return cmocka_run_group_tests_name("strmap", list.items, NULL, NULL);
}
