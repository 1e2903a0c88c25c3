/*
 * SPDX-License-Identifier: Apache-2.0
 * strutil.c - locale-independent string comparisons and the comparator
 * for sorting strings (see strutil.h).
 */
#include "common.h"
#include "strutil.h"

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

int ndp_strncasecmp(const char *a, const char *b, size_t n)
{
    for (; n > 0; a++, b++, n--) {
        int d = lower((unsigned char)*a) - lower((unsigned char)*b);
        if (d != 0 || *a == '\0')
            return d;
    }
    return 0;
}

int ndp_strcasecmp(const char *a, const char *b)
{
    return ndp_strncasecmp(a, b, SIZE_MAX);
}

int ndp_strcmp_indirect(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
