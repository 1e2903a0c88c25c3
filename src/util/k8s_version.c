/*
 * SPDX-License-Identifier: Apache-2.0
 * k8s_version.c - Kubernetes versions read and ordered (k8s_version.h).
 *
 * Digits are read by hand, not with strtol(): strtol() takes a sign and
 * leading blanks, and saturates on overflow, each of which would let a
 * value that is no version pass as one.
 */
#include "common.h"
#include "k8s_version.h"

/* The longest suffix after '-' or '+' that still reads as a version. */
#define SUFFIX_MAX 32

/* Reads one component: 1 to NDP_K8S_VERSION_DIGITS digits. */
static bool component(long *out, const char **p)
{
    long n = 0;
    size_t digits = 0;

    while (**p >= '0' && **p <= '9') {
        if (++digits > NDP_K8S_VERSION_DIGITS)
            return false;
        n = n * 10 + (**p - '0');
        (*p)++;
    }
    *out = n;
    return digits > 0;
}

static bool suffix_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '+';
}

/* '-' or '+' and 1 to SUFFIX_MAX characters of a suffix, to the end. */
static bool suffix(const char *p)
{
    size_t n = 0;

    if (*p != '-' && *p != '+')
        return false;
    for (p++; *p; p++)
        if (!suffix_char(*p) || ++n > SUFFIX_MAX)
            return false;
    return n > 0;
}

bool ndp_k8s_version_parse(struct ndp_k8s_version *out, const char *text)
{
    struct ndp_k8s_version v = { 0, 0, -1, false };
    const char *p = text;

    memset(out, 0, sizeof(*out));
    if (!p)
        return false;
    if (*p == 'v' || *p == 'V')
        p++;
    if (!component(&v.major, &p) || *p++ != '.' || !component(&v.minor, &p))
        return false;
    if (*p == '.') {
        p++;
        if (!component(&v.patch, &p))
            return false;
    }
    if (*p) {
        if (!suffix(p))
            return false;
        v.suffixed = true;
    }
    *out = v;
    return true;
}

static enum ndp_k8s_order compare_numbers(long a, long b)
{
    return a < b ? NDP_K8S_LOWER : a > b ? NDP_K8S_HIGHER : NDP_K8S_SAME;
}

enum ndp_k8s_order ndp_k8s_version_order(const struct ndp_k8s_version *a,
                                         const struct ndp_k8s_version *b)
{
    enum ndp_k8s_order o = compare_numbers(a->major, b->major);

    if (o == NDP_K8S_SAME)
        o = compare_numbers(a->minor, b->minor);
    if (o != NDP_K8S_SAME)
        return o;
    /* The same minor: an alias stands for a patch not known here. */
    if (a->patch < 0 || b->patch < 0)
        return a->patch == b->patch && !a->suffixed && !b->suffixed
                   ? NDP_K8S_SAME : NDP_K8S_SAME_MINOR;
    o = compare_numbers(a->patch, b->patch);
    /* Suffixes are not ordered: "1.30.5-x" beside "1.30.5" says nothing. */
    if (o == NDP_K8S_SAME && (a->suffixed || b->suffixed))
        return NDP_K8S_SAME_MINOR;
    return o;
}

bool ndp_k8s_minors_between(long *out, const struct ndp_k8s_version *from,
                            const struct ndp_k8s_version *to)
{
    *out = 0;
    if (from->major != to->major)
        return false;
    *out = to->minor - from->minor;
    return true;
}
