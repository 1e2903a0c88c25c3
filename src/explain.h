/*
 * SPDX-License-Identifier: Apache-2.0
 * explain.h - the rules and verdicts in words: --list-rules and --explain.
 * The words of a verdict come from the verdict table (verdicts.h), those
 * of a rule from its rule file.
 */
#ifndef NDP_EXPLAIN_H
#define NDP_EXPLAIN_H

struct ndp_buf;
struct ndp_ruleset;

/*
 * Appends to 'out' the table --list-rules prints: one line per rule of
 * 'rs'.  Every line is escaped for a terminal (safe.h): rule files may
 * come from the repository under review.
 */
void ndp_explain_list_rules(struct ndp_buf *out, const struct ndp_ruleset *rs);

/*
 * Appends to 'out' what --explain 'name' prints: a category or a rule of
 * 'rs' in words, else a verdict, escaped as above.  Returns 0, or -1 (and
 * appends nothing) when 'name' names none of them.
 */
int ndp_explain(struct ndp_buf *out, const struct ndp_ruleset *rs,
                const char *name);

#endif
