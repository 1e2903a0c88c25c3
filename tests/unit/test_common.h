/*
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

#endif
