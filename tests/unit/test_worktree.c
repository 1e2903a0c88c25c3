/*
 * SPDX-License-Identifier: Apache-2.0
 * test_worktree.c - the working tree (worktree.h): which real paths it
 * holds (a prefix that is not a directory of it is not inside), and which
 * paths a symbolic link of the tree leads out of it, over a temporary
 * tree with links that stay, links that leave (the file itself, a
 * directory on the way), links that leave and come back, a dangling link
 * and a link outside the tree.
 */
#include "test_files.h"
#include "error.h"
#include "worktree.h"

struct holds_row {
    const char *name;
    const char *root; /* NULL: the tree could not be resolved */
    const char *real;
    bool held;
};

static const struct holds_row holds_rows[] = {
    { "holds/the top", "/a/b", "/a/b", true },
    { "holds/under it", "/a/b", "/a/b/c/d", true },
    { "holds/not a name that starts alike", "/a/b", "/a/bc", false },
    { "holds/not above it", "/a/b", "/a", false },
    { "holds/the root holds all", "/", "/etc/passwd", true },
    { "holds/no tree holds nothing", NULL, "/a/b", false },
};

static void holds__matches_table(void **state)
{
    const struct holds_row *row = *state;
    struct ndp_worktree t = NDP_WORKTREE_INIT;

    t.root = row->root ? ndp_xstrdup(row->root) : NULL;
    assert_int_equal(ndp_worktree_holds(&t, row->real), row->held);
    ndp_worktree_release(&t);
}

/* The tree under the group's directory: 'tree' and, beside it, 'out'. */
static int make_tree(void **state)
{
    static const char *const links[][2] = {
        { "tree/in.json", "file.json" },
        { "tree/out.json", "../out/secret.json" },
        { "tree/outdir", "../out" },
        { "tree/indir", "sub" },
        { "tree/sub/up.json", "../../out/secret.json" },
        { "tree/back.json", "../tree/file.json" },
        { "tree/dangling.json", "../out/missing.json" },
        { "out/elsewhere.json", "secret.json" },
    };
    size_t i;
    int rc = test_dir_make(state);

    if (rc)
        return rc;
    test_mkdir("tree");
    test_mkdir("tree/sub");
    test_mkdir("out");
    free(test_write_bytes("tree/file.json", "{}", 2));
    free(test_write_bytes("out/secret.json", "{}", 2));
    for (i = 0; i < NDP_ARRAY_SIZE(links); i++) {
        char *path = test_path(links[i][0]);

        if (symlink(links[i][1], path) != 0)
            rc = -1;
        free(path);
    }
    return rc;
}

struct link_row {
    const char *name;
    const char *path;    /* under the group's directory; "-" as it is */
    const char *through; /* the link named (under the directory), or NULL:
                            the path itself; unused when not refused */
    bool refused;
};

static const struct link_row link_rows[] = {
    { "link/a file of the tree", "tree/file.json", NULL, false },
    { "link/a link that stays in the tree", "tree/in.json", NULL, false },
    { "link/a link that leaves the tree", "tree/out.json", NULL, true },
    { "link/a directory link that leaves the tree", "tree/outdir/secret.json",
      "tree/outdir", true },
    { "link/a link out behind a directory link that stays",
      "tree/indir/up.json", NULL, true },
    { "link/a link that leaves and comes back", "tree/back.json", NULL, false },
    { "link/out through a link and back by '..'",
      "tree/outdir/../tree/file.json", NULL, false },
    { "link/a dangling link: its open fails", "tree/dangling.json", NULL,
      false },
    { "link/a file outside the tree by its path", "out/secret.json", NULL,
      false },
    { "link/a link outside the tree", "out/elsewhere.json", NULL, false },
    { "link/standard input", "-", NULL, false },
};

static void check_link__matches_table(void **state)
{
    const struct link_row *row = *state;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_worktree t;
    char *top = test_path("tree");
    char *path = strcmp(row->path, "-") ? test_path(row->path)
                                        : ndp_xstrdup("-");
    char *through = row->through ? test_path(row->through) : NULL;
    char want[512];

    ndp_worktree_open(&t, top);
    if (!row->refused) {
        assert_int_equal(ndp_worktree_check_link(&t, path, &err), 0);
    } else {
        assert_int_equal(ndp_worktree_check_link(&t, path, &err), NDP_EIO);
        if (through)
            snprintf(want, sizeof(want), "'%s' goes through '%s', a "
                     "symbolic link to a place outside the working tree "
                     "(the source root); --follow-links reads it", path,
                     through);
        else
            snprintf(want, sizeof(want), "'%s' is a symbolic link to a "
                     "place outside the working tree (the source root); "
                     "--follow-links reads it", path);
        assert_string_equal(err.msg, want);
    }
    ndp_worktree_release(&t);
    free(through);
    free(path);
    free(top);
}

/* What source lookup asks: the real path, links followed, in the tree. */
static void confines__by_the_real_path(void **state)
{
    static const char *const inside[] = { "tree/file.json", "tree/in.json",
                                          "tree/back.json", "tree/indir" };
    static const char *const outside[] = { "tree/out.json", "tree/outdir",
                                           "out/secret.json",
                                           "tree/dangling.json" };
    struct ndp_worktree t;
    char *top = test_path("tree");
    size_t i;

    (void)state;
    ndp_worktree_open(&t, top);
    for (i = 0; i < NDP_ARRAY_SIZE(inside); i++) {
        char *path = test_path(inside[i]);
        assert_true(ndp_worktree_confines(&t, path));
        free(path);
    }
    for (i = 0; i < NDP_ARRAY_SIZE(outside); i++) {
        char *path = test_path(outside[i]);
        assert_false(ndp_worktree_confines(&t, path));
        free(path);
    }
    ndp_worktree_release(&t);
    free(top);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, holds_rows, holds__matches_table);
    ADD_ROWS(&list, link_rows, check_link__matches_table);
    ADD_TEST(&list, confines__by_the_real_path);
    return cmocka_run_group_tests_name("worktree", list.items, make_tree,
                                       test_dir_remove);
}
