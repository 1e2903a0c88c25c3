/*
 * SPDX-License-Identifier: Apache-2.0
 * locate.h - findings pointed at the source the user edits: the .tf file
 * and line of a Terraform resource block (and of the attribute inside it),
 * or the line of a resource in a Bicep/ARM template given with --template.
 * Reporters fall back to the input file's line when there is none.
 */
#ifndef NDP_LOCATE_H
#define NDP_LOCATE_H

struct ndp_changeset;
struct ndp_findings;
struct ndp_ruleset;

/*
 * Sets 'source_file' (a path under 'source_root', or 'template') and
 * 'source_line' of every finding that can be located.  'source_root' NULL
 * means the current directory; 'template' may be NULL.
 *
 * Inline ignores (ignore.h): a finding located on a line, or in a
 * resource whose opening line, carries "ndplint:ignore RULE reason" for
 * its rule is suppressed, the comment and its reason in 'suppression'.
 * An ignore comment there that names no rule or gives no reason adds one
 * ignore-without-reason warning (NDP008, from 'rs') per comment.
 */
void ndp_locate_sources(struct ndp_findings *findings,
                        const struct ndp_changeset *set,
                        const char *source_root, const char *template_path,
                        const struct ndp_ruleset *rs);

#endif
