/*
 * locate.h - findings pointed at the source the user edits: the .tf file
 * and line of a Terraform resource block (and of the attribute inside it),
 * or the line of a resource in a Bicep/ARM template given with --template.
 * Reporters fall back to the input file's line when there is none.
 */
#ifndef NDP_LOCATE_H
#define NDP_LOCATE_H

struct ndp_changeset;
struct ndp_findings;

/*
 * Sets 'source_file' (a path under 'source_root', or 'template') and
 * 'source_line' of every finding that can be located.  'source_root' NULL
 * means the current directory; 'template' may be NULL.
 */
void ndp_locate_sources(struct ndp_findings *findings,
                        const struct ndp_changeset *set,
                        const char *source_root, const char *template_path);

#endif
