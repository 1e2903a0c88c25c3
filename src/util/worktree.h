/*
 * SPDX-License-Identifier: Apache-2.0
 * worktree.h - the working tree: the files a pull request writes, taken
 * to be the source root (--source-root, else the current directory) by
 * its real path, and what may be read from it.
 *
 * Source lookup (src/settings/locate.c) reads nothing whose real path
 * leaves the tree: a module directory may say "../..", a committed *.tf
 * may be a link to anything.  A file named on the command line or found
 * by discovery (an input, --template, --cluster-state, --baseline, the
 * settings file) may be anywhere, but a symbolic link inside the tree
 * that leads out of it is refused unless --follow-links: a committed
 * template.json that links to a credentials file is not read.
 */
#ifndef NDP_WORKTREE_H
#define NDP_WORKTREE_H

#include <stdbool.h>

struct ndp_error;

struct ndp_worktree {
    char *root; /* its real path; NULL: it cannot be resolved, and
                   nothing is inside it */
};
#define NDP_WORKTREE_INIT { NULL }

/* The tree whose top is 'root' (NULL: the current directory). */
void ndp_worktree_open(struct ndp_worktree *t, const char *root);
void ndp_worktree_release(struct ndp_worktree *t);

/* Is 'real' (a real path) the top of the tree or under it? */
bool ndp_worktree_holds(const struct ndp_worktree *t, const char *real);

/* Does 'path' resolve (links followed) to a place in the tree? */
bool ndp_worktree_confines(const struct ndp_worktree *t, const char *path);

/*
 * Refuses 'path' when its real path is outside the tree and a symbolic
 * link inside the tree leads there: the file itself, or a directory on
 * the way to it.  NDP_EIO "'PATH' is a symbolic link to a place outside
 * the working tree ...; --follow-links reads it" (or "... goes through
 * 'LINK', a symbolic link ..."), naming no target and reading nothing of
 * it; 0 for anything else ("-", a file that does not exist, a link that
 * stays inside, a path outside the tree through no link of the tree's).
 */
int ndp_worktree_check_link(const struct ndp_worktree *t, const char *path,
                            struct ndp_error *err);

#endif
