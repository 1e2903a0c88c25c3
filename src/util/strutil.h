/*
 * SPDX-License-Identifier: Apache-2.0
 * strutil.h - string comparisons that do not depend on the locale, and
 * the comparator that sorts an array of strings.
 *
 * Names in the input (ARM resource types and property names, rule ids,
 * cluster names) compare ASCII case-insensitively.  strcasecmp() folds
 * by LC_CTYPE; these fold only 'A'-'Z', so a comparison means the same
 * under every locale.  Both functions borrow their arguments.
 */
#ifndef NDP_STRUTIL_H
#define NDP_STRUTIL_H

#include <stddef.h>

/*
 * Compares 'a' and 'b' with ASCII letters folded to lower case; other
 * bytes compare as unsigned char.  Returns <0, 0 or >0 as strcmp() does.
 */
int ndp_strcasecmp(const char *a, const char *b);
/* The same over at most 'n' bytes. */
int ndp_strncasecmp(const char *a, const char *b, size_t n);

/*
 * A qsort()/bsearch() comparator for arrays of 'char *': strcmp() of the
 * strings 'a' and 'b' point to.
 */
int ndp_strcmp_indirect(const void *a, const void *b);

#endif
