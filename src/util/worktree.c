/*
 * SPDX-License-Identifier: Apache-2.0
 * worktree.c - the working tree and the paths that leave it (see
 * worktree.h).  Real paths come from realpath(); a symbolic link on the
 * way to a file is found by lstat() of each leading part of its path, and
 * belongs to the tree when the directory holding it does.
 */
#include "common.h"
#include "worktree.h"
#include "error.h"

#include <sys/stat.h>

void ndp_worktree_open(struct ndp_worktree *t, const char *root)
{
    t->root = realpath(root ? root : ".", NULL);
}

void ndp_worktree_release(struct ndp_worktree *t)
{
    free(t->root);
    t->root = NULL;
}

bool ndp_worktree_holds(const struct ndp_worktree *t, const char *real)
{
    size_t n = t->root ? strlen(t->root) : 0;

    if (!t->root)
        return false;
    if (n == 1) /* the root is "/" */
        return true;
    return strncmp(real, t->root, n) == 0 &&
           (real[n] == '/' || real[n] == '\0');
}

bool ndp_worktree_confines(const struct ndp_worktree *t, const char *path)
{
    char *real = realpath(path, NULL);
    bool ok = real && ndp_worktree_holds(t, real);

    free(real);
    return ok;
}

/*
 * Is the symbolic link 'link' one of the tree's (the directory holding
 * it is in the tree) that leads out of it?  A link whose target cannot
 * be resolved leads nowhere: opening it fails on its own.
 */
static bool tree_link_leads_out(const struct ndp_worktree *t, char *link)
{
    char *slash = strrchr(link, '/'), *dir_real, *real;
    bool out;

    if (slash && slash != link) {
        *slash = '\0';
        dir_real = realpath(link, NULL);
        *slash = '/';
    } else {
        dir_real = realpath(slash ? "/" : ".", NULL);
    }
    real = realpath(link, NULL);
    out = dir_real && ndp_worktree_holds(t, dir_real) && real &&
          !ndp_worktree_holds(t, real);
    free(dir_real);
    free(real);
    return out;
}

/*
 * The length of the leading part of 'path' that is the first link of the
 * tree leading out of it (strlen(path): the file itself), or 0.
 */
static size_t link_out_of_tree(const struct ndp_worktree *t, const char *path)
{
    char *part = ndp_xstrdup(path);
    size_t len = strlen(path), end, found = 0;
    struct stat st;

    for (end = 1; end <= len && !found; end++) {
        if ((end < len && path[end] != '/') || path[end - 1] == '/')
            continue;
        part[end] = '\0';
        if (lstat(part, &st) == 0 && S_ISLNK(st.st_mode) &&
            tree_link_leads_out(t, part))
            found = end;
        part[end] = path[end];
    }
    free(part);
    return found;
}

int ndp_worktree_check_link(const struct ndp_worktree *t, const char *path,
                            struct ndp_error *err)
{
    size_t link = strcmp(path, "-") == 0 ? 0 : link_out_of_tree(t, path);
    char *real;
    bool back_inside;

    if (!link)
        return 0;
    real = realpath(path, NULL);
    back_inside = real && ndp_worktree_holds(t, real);
    free(real);
    if (back_inside)
        return 0;
    if (link == strlen(path))
        return ndp_error_set(err, NDP_EIO, "'%s' is a symbolic link to a "
                             "place outside the working tree (the source "
                             "root); --follow-links reads it", path);
    return ndp_error_set(err, NDP_EIO, "'%s' goes through '%.*s', a "
                         "symbolic link to a place outside the working tree "
                         "(the source root); --follow-links reads it", path,
                         (int)link, path);
}
