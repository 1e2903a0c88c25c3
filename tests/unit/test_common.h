/*
 * SPDX-License-Identifier: Apache-2.0
 * test_common.h - the cmocka prelude every unit test includes, and small
 * helpers for table-driven cases.
 */
#ifndef NDP_TEST_COMMON_H
#define NDP_TEST_COMMON_H

#include "common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <json-c/json.h>

/* Parses JSON written with ' for " (so tables stay readable in C). */
static inline struct json_object *test_json(const char *text)
{
    char *copy, *p;
    struct json_object *v;

    if (!text)
        return NULL;
    copy = ndp_xstrdup(text);
    for (p = copy; *p; p++)
        if (*p == '\'')
            *p = '"';
    v = json_tokener_parse(copy);
    if (!v && strcmp(copy, "null") != 0)
        fail_msg("test JSON does not parse: %s", copy);
    free(copy);
    return v;
}

/*
 * The resident bytes of the mapping of this process that holds 'addr',
 * from /proc/self/smaps (Linux); SIZE_MAX where the system does not say.
 */
static inline size_t test_resident_bytes(const void *addr)
{
    FILE *smaps = fopen("/proc/self/smaps", "r");
    char line[512];
    bool inside = false;
    size_t found = SIZE_MAX;

    if (!smaps)
        return SIZE_MAX;
    while (found == SIZE_MAX && fgets(line, sizeof(line), smaps)) {
        unsigned long lo, hi, kb;

        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
        else if (inside && sscanf(line, "Rss: %lu kB", &kb) == 1)
            found = (size_t)kb * 1024;
    }
    fclose(smaps);
    return found;
}

/* The most tests one group collects; add_test stops the run past it. */
#define TEST_LIST_MAX 256

/*
 * Tests collected at run time, so that each table row is its own test.
 * Slots past 'n' stay zeroed, and cmocka passes over entries with no name,
 * so the whole array goes to cmocka_run_group_tests_name().  Declare it
 * static: it is too large for the stack of main().
 */
struct test_list {
    struct CMUnitTest items[TEST_LIST_MAX];
    size_t n;
};

static inline void add_test(struct test_list *list, const char *name,
                            CMUnitTestFunction fn, const void *row)
{
    if (list->n == TEST_LIST_MAX) {
        fprintf(stderr, "more than %d tests in one group: raise "
                "TEST_LIST_MAX\n", TEST_LIST_MAX);
        exit(1);
    }
    list->items[list->n++] = (struct CMUnitTest){
        .name = name,
        .test_func = fn,
        /* cmocka passes rows as mutable state; the tests only read them. */
        .initial_state = (void *)row,
    };
}

#define ADD_TEST(list, fn) add_test((list), #fn, (fn), NULL)
#define ADD_ROWS(list, rows, fn)                                          \
    for (size_t i_ = 0; i_ < NDP_ARRAY_SIZE(rows); i_++)                  \
        add_test((list), (rows)[i_].name, (fn), &(rows)[i_])

#endif
