/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_pattern.c - fuzz target: the patterns matched without PCRE2
 * (rules_simple.c) against PCRE2 itself.  The input is a flags byte (bit 0:
 * caseless), a pattern, a NUL and a subject.  A pattern taken as simple
 * must compile with PCRE2, and every answer the simple matcher gives must
 * be PCRE2's; a subject it leaves to PCRE2 must hold a line end.
 */
#include "common.h"
#include "rules/rules_internal.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool pcre2_matches(pcre2_code *re, const char *subject)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    bool hit = pcre2_match(re, (PCRE2_SPTR)subject, PCRE2_ZERO_TERMINATED, 0,
                           0, md, NULL) >= 0;

    pcre2_match_data_free(md);
    return hit;
}

static void compare(const char *pattern, bool caseless, const char *subject)
{
    struct ndp_simple *s = ndp_simple_compile(pattern, caseless);
    pcre2_code *re;
    int code, got;
    PCRE2_SIZE offset;

    if (!s)
        return;
    re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                       caseless ? PCRE2_CASELESS : 0, &code, &offset, NULL);
    if (!re) {
        fprintf(stderr, "fuzz_pattern: '%s' is simple but not PCRE2\n",
                pattern);
        abort();
    }
    got = ndp_simple_match(s, subject);
    if (got < 0 ? !strpbrk(subject, "\r\n")
                : (got == 1) != pcre2_matches(re, subject)) {
        fprintf(stderr, "fuzz_pattern: '%s'%s on '%s': %d\n", pattern,
                caseless ? " (caseless)" : "", subject, got);
        abort();
    }
    pcre2_code_free(re);
    ndp_simple_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *nul;

    if (size < 1 || size > 4096)
        return 0;
    text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    text[size] = '\0';
    /* The pattern ends at the first NUL; the subject at the next. */
    nul = memchr(text, '\0', size);
    compare(text, data[0] & 1, nul + 1);
    free(text);
    return 0;
}
