/*
 * SPDX-License-Identifier: Apache-2.0
 * json_members.h - the members of a JSON value counted twice, for the
 * tests of the tree builder's 'unique' (jscan_diff.c and fuzz_jscan.c):
 * in json-c's tree, which keeps one member per key, and in the text,
 * one ':' each outside the strings.  The two are equal when no key is
 * written twice in any object.
 */
#ifndef NDP_JSON_MEMBERS_H
#define NDP_JSON_MEMBERS_H

#include <stddef.h>

#include <json-c/json.h>

static inline size_t members_in_tree(struct json_object *v)
{
    size_t i, n = 0;

    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, member) {
            (void)key;
            n += 1 + members_in_tree(member);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        for (i = 0; i < json_object_array_length(v); i++)
            n += members_in_tree(json_object_array_get_idx(v, i));
    }
    return n;
}

/* Of the validated text [start, end) (keys may be '-quoted). */
static inline size_t members_in_text(const char *text, size_t start,
                                     size_t end)
{
    size_t i, n = 0;
    char quote = 0;

    for (i = start; i < end; i++) {
        if (quote && text[i] == '\\')
            i++;
        else if (quote && text[i] == quote)
            quote = 0;
        else if (!quote && (text[i] == '"' || text[i] == '\''))
            quote = text[i];
        else if (!quote && text[i] == ':')
            n++;
    }
    return n;
}

#endif
