/*
 * SPDX-License-Identifier: Apache-2.0
 * test_locate.c - findings pointed at the source a user edits
 * (src/locate.c, ndp_locate_sources): the resource block and the
 * attribute line in .tf files under a source root, modules through their
 * source directory, a --template file (Bicep and ARM JSON); inline
 * ignores (ignore.h) on the finding's line or its resource's opening line
 * suppressing it, and those naming no rule or no reason adding one
 * ignore-without-reason warning per comment; and what is never read: a
 * file or module outside the root (by path or by a link), a FIFO, a
 * directory named *.tf, a file over the size limit.  The files are made
 * in a mkdtemp() directory for the group.
 */
#include "test_helpers.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "ignore.h"
#include "locate.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_LIMIT ((off_t)16 << 20) /* locate.c's FILE_LIMIT */

/* The group's directory: root/ is the source root, outside/ is not. */
static char base[] = "/tmp/ndp-locate-XXXXXX";

static void path_of(struct ndp_buf *out, const char *rel)
{
    ndp_buf_reset(out);
    ndp_buf_addf(out, "%s/%s", base, rel);
}

/* Writes 'text' to BASE/'rel', then makes it 'size' bytes when > 0. */
static int write_file(const char *rel, const char *text, off_t size)
{
    struct ndp_buf path = NDP_BUF_INIT;
    FILE *f;
    int rc = -1;

    path_of(&path, rel);
    f = fopen(path.buf, "w");
    if (f && fputs(text, f) >= 0 && fflush(f) == 0 &&
        (size <= 0 || ftruncate(fileno(f), size) == 0))
        rc = 0;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc)
        fprintf(stderr, "cannot write %s\n", path.buf);
    ndp_buf_release(&path);
    return rc;
}

static int make_dir(const char *rel)
{
    struct ndp_buf path = NDP_BUF_INIT;
    int rc;

    path_of(&path, rel);
    rc = mkdir(path.buf, 0700);
    ndp_buf_release(&path);
    return rc;
}

static const char main_tf[] =
    "terraform {\n"                                                  /* 1 */
    "}\n"                                                            /* 2 */
    "\n"                                                             /* 3 */
    "resource \"azurerm_kubernetes_cluster\" \"main\" {\n"           /* 4 */
    "  name = \"aks\"\n"                                             /* 5 */
    "  network_profile {\n"                                          /* 6 */
    "    network_plugin = \"azure\"\n"                               /* 7 */
    "    network_policy = \"calico\" # ndplint:ignore NDP101 "
    "approved in CHG-1\n"                                            /* 8 */
    "  }\n"                                                          /* 9 */
    "  default_node_pool {\n"                                        /* 10 */
    "    name    = \"sys\"\n"                                        /* 11 */
    "    vm_size = \"Standard_D4\" // ndplint:ignore NDP202\n"       /* 12 */
    "  }\n"                                                          /* 13 */
    "  # a } in a comment\n"                                         /* 14 */
    "  tags = { a = \"}\" }\n"                                       /* 15 */
    "  kubernetes_version = \"1.30\"\n"                              /* 16 */
    "}\n"                                                            /* 17 */
    "\n"                                                             /* 18 */
    "resource \"azurerm_kubernetes_cluster\" \"other\" { "
    "# ndplint:ignore NDP101,NDP106 the other one is disposable\n"   /* 19 */
    "  network_profile {\n"                                          /* 20 */
    "    network_policy = \"azure\"\n"                               /* 21 */
    "  }\n"                                                          /* 22 */
    "  sku_tier = \"Free\"\n"                                        /* 23 */
    "}\n"                                                            /* 24 */
    "\n"                                                             /* 25 */
    "resource \"azurerm_kubernetes_cluster_node_pool\" \"bad\" { "
    "# ndplint:ignore\n"                                             /* 26 */
    "  vm_size = \"x\"\n"                                            /* 27 */
    "}\n"                                                            /* 28 */
    "  resource \"azurerm_kubernetes_cluster\" \"indented\" {\n"     /* 29 */
    "}\n"                                                            /* 30 */
    "# resource \"azurerm_kubernetes_cluster\" \"commented\" {\n";   /* 31 */

static const char pool_tf[] =
    "variable \"x\" {}\n"                                            /* 1 */
    "resource \"azurerm_kubernetes_cluster_node_pool\" \"user\" {\n" /* 2 */
    "  name       = \"user\"\n"                                      /* 3 */
    "  node_count = 3\n"                                             /* 4 */
    "  upgrade_settings {\n"                                         /* 5 */
    "    max_surge = \"33%\"\n"                                      /* 6 */
    "  }\n"                                                          /* 7 */
    "}\n";                                                           /* 8 */

static const char bicep[] =
    "param location string\n"                                        /* 1 */
    "\n"                                                             /* 2 */
    "resource aks 'Microsoft.ContainerService/managedClusters"
    "@2024-01-01' = { // ndplint:ignore NDP103 the platform team "
    "owns it\n"                                                      /* 3 */
    "  name: 'aks1'\n"                                               /* 4 */
    "  location: location\n"                                         /* 5 */
    "  properties: {\n"                                              /* 6 */
    "    networkProfile: {\n"                                        /* 7 */
    "      networkPolicy: 'calico' # ndplint:ignore NDP101 no\n"     /* 8 */
    "    }\n"                                                        /* 9 */
    "    autoUpgradeProfile: {\n"                                    /* 10 */
    "      nodeOSUpgradeChannel: 'None'\n"                           /* 11 */
    "    }\n"                                                        /* 12 */
    "  }\n"                                                          /* 13 */
    "}\n"                                                            /* 14 */
    "\n"                                                             /* 15 */
    "resource other 'Microsoft.ContainerService/managedClusters"
    "@2024-01-01' = {\n"                                             /* 16 */
    "  name: 'aks2'\n"                                               /* 17 */
    "  properties: {\n"                                              /* 18 */
    "    networkProfile: {\n"                                        /* 19 */
    "      networkPolicy: 'azure' // ndplint:ignore NDP101 reviewed\n" /* 20 */
    "    }\n"                                                        /* 21 */
    "  }\n"                                                          /* 22 */
    "}\n"                                                            /* 23 */
    "// 'aks-note' is not deployed here\n";                          /* 24 */

static const char arm_json[] =
    "{\n"                                                            /* 1 */
    "  \"resources\": [\n"                                           /* 2 */
    "    {\n"                                                        /* 3 */
    "      \"type\": \"Microsoft.ContainerService/managedClusters\",\n" /* 4 */
    "      \"name\": \"aks3\",\n"                                    /* 5 */
    "      \"properties\": {\n"                                      /* 6 */
    "        \"networkProfile\": {\n"                                /* 7 */
    "          \"networkPolicy\": \"calico\"\n"                      /* 8 */
    "        }\n"                                                    /* 9 */
    "      }\n"                                                      /* 10 */
    "    }\n"                                                        /* 11 */
    "  ]\n"                                                          /* 12 */
    "}\n";                                                           /* 13 */

#define BLOCK(name) "resource \"azurerm_kubernetes_cluster\" \"" name \
    "\" {\n  network_profile {\n    network_policy = \"azure\"\n  }\n}\n"

static int make_tree(void **state)
{
    struct ndp_buf a = NDP_BUF_INIT, b = NDP_BUF_INIT;
    int rc;

    (void)state;
    if (!mkdtemp(base))
        return -1;
    path_of(&a, "root/linked.tf");
    path_of(&b, "outside/linked.tf");
    rc = make_dir("root") || make_dir("root/modules") ||
         make_dir("root/modules/aks") || make_dir("root/big") ||
         make_dir("root/edge") || make_dir("root/dir.tf") ||
         make_dir("root/twice") ||
         write_file("root/twice/a.tf", BLOCK("dup") BLOCK("once"), 0) ||
         write_file("root/twice/b.tf",
                    "\n" BLOCK("dup") "resource \"azurerm_kubernetes_cluster"
                    "\"  \"wide\" {\n}\n", 0) ||
         make_dir("outside") || write_file("root/main.tf", main_tf, 0) ||
         write_file("root/modules/aks/pool.tf", pool_tf, 0) ||
         write_file("root/big/big.tf", BLOCK("big"), FILE_LIMIT + 1) ||
         write_file("root/edge/edge.tf", BLOCK("edge"), FILE_LIMIT) ||
         write_file("outside/escape.tf", BLOCK("escaped"), 0) ||
         write_file("outside/linked.tf", BLOCK("linked"), 0) ||
         write_file("outside/main.bicep", bicep, 0) ||
         write_file("outside/template.json", arm_json, 0) ||
         symlink(b.buf, a.buf);
    path_of(&a, "root/modules/aks/fifo.tf");
    if (!rc)
        rc = mkfifo(a.buf, 0600);
    ndp_buf_release(&a);
    ndp_buf_release(&b);
    return rc || test_rules_load_builtin(state);
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int remove_tree(void **state)
{
    test_rules_free(state);
    return nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- one finding, one change --------------------------------------------- */

#define CLUSTER "azurerm_kubernetes_cluster"
#define POOL "azurerm_kubernetes_cluster_node_pool"
#define ARM_ID "/subscriptions/s/resourceGroups/rg/providers/" \
    "Microsoft.ContainerService/managedClusters/"

struct row {
    const char *name;
    const char *address, *source_dir; /* the change; NULL: none */
    const char *template;             /* BASE/..., or NULL */
    const char *rule, *path;          /* the finding */
    const char *file;                 /* BASE/... it is located in, or
                                         NULL: not located */
    long line;
    const char *suppression;          /* text in it, or NULL: none */
    const char *warning;              /* text of the one NDP008 added */
};

static const struct row rows[] = {
    { "tf: the attribute's line", CLUSTER ".main", "", NULL, "NDP102",
      "network_profile[0].network_plugin", "root/main.tf", 7, NULL, NULL },
    { "tf: a block's line when the attribute is not written",
      CLUSTER ".main", "", NULL, "NDP109", "network_profile[0].pod_cidr",
      "root/main.tf", 6, NULL, NULL },
    { "tf: the resource's line for the whole resource", CLUSTER ".main", "",
      NULL, "NDP003", "", "root/main.tf", 4, NULL, NULL },
    { "tf: the resource's line when nothing of the path is written",
      CLUSTER ".main", "", NULL, "NDP113", "sku_tier", "root/main.tf", 4,
      NULL, NULL },
    { "tf: past braces in strings and comments",
      CLUSTER ".main", "", NULL, "NDP306", "kubernetes_version",
      "root/main.tf", 16, NULL, NULL },
    { "tf: not past the block's end", CLUSTER ".other", "", NULL, "NDP999",
      "kubernetes_version", "root/main.tf", 19, NULL, NULL },
    { "tf: an index on the address", CLUSTER ".main[0]", "", NULL, "NDP102",
      "network_profile[0].network_plugin", "root/main.tf", 7, NULL, NULL },
    { "tf: an indented resource line", CLUSTER ".indented", "", NULL,
      "NDP003", "", "root/main.tf", 29, NULL, NULL },
    { "tf: a commented-out block is no block", CLUSTER ".commented", "",
      NULL, "NDP003", "", NULL, 0, NULL, NULL },
    { "tf: ignored on its own line", CLUSTER ".main", "", NULL, "NDP101",
      "network_profile[0].network_policy", "root/main.tf", 8,
      "ignored by 'ndplint:ignore NDP101' at " "%s/root/main.tf:8: "
      "approved in CHG-1", NULL },
    { "tf: an ignore of another rule", CLUSTER ".main", "", NULL, "NDP105",
      "network_profile[0].network_policy", "root/main.tf", 8, NULL, NULL },
    { "tf: ignored on the resource's opening line", CLUSTER ".other", "",
      NULL, "NDP101", "network_profile[0].network_policy", "root/main.tf",
      21, "ignored by 'ndplint:ignore NDP101,NDP106' at "
      "%s/root/main.tf:19: the other one is disposable", NULL },
    { "tf: a whole-resource finding on the opening line", CLUSTER ".other",
      "", NULL, "ndp106", "http_proxy_config[0].http_proxy",
      "root/main.tf", 19, "at %s/root/main.tf:19: the other", NULL },
    { "tf: an ignore without a reason warns",
      CLUSTER ".main", "", NULL, "NDP202", "default_node_pool[0].vm_size",
      "root/main.tf", 12, NULL,
      "the ndplint:ignore comment at %s/root/main.tf:12 gives no reason, "
      "so it suppresses nothing; write 'ndplint:ignore RULE why the "
      "change is accepted'" },
    { "tf: an ignore without a rule warns", POOL ".bad", "", NULL, "NDP201",
      "vm_size", "root/main.tf", 27, NULL,
      "the ndplint:ignore comment at %s/root/main.tf:26 names no rule id" },
    { "tf: a module's directory", "module.aks." POOL ".user",
      "modules/aks", NULL, "NDP201", "upgrade_settings[0].max_surge",
      "root/modules/aks/pool.tf", 6, NULL, NULL },
    { "tf: a module instance key with dots",
      "module.aks[\"a.b\"]." POOL ".user", "modules/aks", NULL, "NDP201",
      "node_count", "root/modules/aks/pool.tf", 4, NULL, NULL },
    { "tf: nested modules", "module.a.module.b[0]." POOL ".user",
      "modules/aks", NULL, "NDP201", "", "root/modules/aks/pool.tf", 2,
      NULL, NULL },
    { "tf: not in the module's directory", "module.aks." CLUSTER ".main",
      "modules/aks", NULL, "NDP101", "", NULL, 0, NULL, NULL },
    { "tf: no local module, not looked for", CLUSTER ".main", NULL, NULL,
      "NDP102", "network_profile[0].network_plugin", NULL, 0, NULL, NULL },
    { "tf: a module outside the root is not read", CLUSTER ".escaped",
      "../outside", NULL, "NDP101", "", NULL, 0, NULL, NULL },
    { "tf: a link out of the root is not read", CLUSTER ".linked", "",
      NULL, "NDP101", "", NULL, 0, NULL, NULL },
    { "tf: a file over the size limit is not read", CLUSTER ".big", "big",
      NULL, "NDP101", "network_profile[0].network_policy", NULL, 0, NULL,
      NULL },
    { "tf: a file at the size limit is read", CLUSTER ".edge", "edge", NULL,
      "NDP101", "network_profile[0].network_policy", "root/edge/edge.tf", 3,
      NULL, NULL },
    { "tf: defined in two files, not located", CLUSTER ".dup", "twice",
      NULL, "NDP101", "network_profile[0].network_policy", NULL, 0, NULL,
      NULL },
    { "tf: the other block of a file with a block defined twice",
      CLUSTER ".once", "twice", NULL, "NDP101",
      "network_profile[0].network_policy", "root/twice/a.tf", 8, NULL,
      NULL },
    { "tf: one space between the strings of a header", CLUSTER ".wide",
      "twice", NULL, "NDP003", "", NULL, 0, NULL, NULL },
    { "tf: a quote in the plan's name is no header's", CLUSTER ".on\"ce",
      "twice", NULL, "NDP003", "", NULL, 0, NULL, NULL },
    { "template: the attribute's line", ARM_ID "aks1", NULL,
      "outside/main.bicep", "NDP101", "properties.networkProfile."
      "networkPolicy", "outside/main.bicep", 8, NULL, NULL },
    { "template: ignored on the resource line above the name",
      ARM_ID "aks1", NULL, "outside/main.bicep", "NDP103",
      "properties.autoUpgradeProfile.nodeOSUpgradeChannel",
      "outside/main.bicep", 11, "ignored by 'ndplint:ignore NDP103' at "
      "%s/outside/main.bicep:3: the platform team owns it", NULL },
    { "template: ignored on its own line", ARM_ID "aks2", NULL,
      "outside/main.bicep", "NDP101", "properties.networkProfile."
      "networkPolicy", "outside/main.bicep", 20, "reviewed", NULL },
    { "template: the name's line for the whole resource", ARM_ID "aks2",
      NULL, "outside/main.bicep", "NDP003", "", "outside/main.bicep", 17,
      NULL, NULL },
    { "template: not past the next resource", ARM_ID "aks1", NULL,
      "outside/main.bicep", "NDP115", "properties.apiServerAccessProfile."
      "enableVnetIntegration", "outside/main.bicep", 6, NULL, NULL },
    { "template: a name it does not hold", ARM_ID "aks9", NULL,
      "outside/main.bicep", "NDP101", "", NULL, 0, NULL, NULL },
    { "template: a name holding both quotes is quoted by no string",
      ARM_ID "aks1'\"", NULL, "outside/main.bicep", "NDP101", "", NULL, 0,
      NULL, NULL },
    { "template: a name in a comment is not its string", ARM_ID "aks-note",
      NULL, "outside/main.bicep", "NDP101", "", NULL, 0, NULL, NULL },
    { "template: ARM JSON, double quotes", ARM_ID "aks3", NULL,
      "outside/template.json", "NDP101",
      "properties.networkProfile.networkPolicy", "outside/template.json", 8,
      NULL, NULL },
    { "template: a Terraform address is not looked for in it",
      CLUSTER ".main", NULL, "outside/main.bicep", "NDP101", "", NULL, 0,
      NULL, NULL },
    { "template: one that cannot be read", ARM_ID "aks1", NULL,
      "outside/missing.bicep", "NDP101", "", NULL, 0, NULL, NULL },
};

/* 'text' with "%s" standing for the group's directory. */
static void expand(struct ndp_buf *out, const char *text)
{
    const char *at = strstr(text, "%s");

    ndp_buf_reset(out);
    if (!at) {
        ndp_buf_adds(out, text);
        return;
    }
    ndp_buf_add(out, text, (size_t)(at - text));
    ndp_buf_adds(out, base);
    ndp_buf_adds(out, at + 2);
}

/* One case: its changes and findings, and the paths it hands over. */
struct located {
    struct ndp_changeset set;
    struct ndp_findings fs;
    struct ndp_buf root, tpl;
};

#define LOCATED_INIT \
    { NDP_CHANGESET_INIT, NDP_FINDINGS_INIT, NDP_BUF_INIT, NDP_BUF_INIT }

/* The change 'address' ('source_dir' NULL: none) unless it is in. */
static void add_change(struct located *l, const char *address,
                       const char *source_dir)
{
    struct ndp_change *c;
    size_t i;

    for (i = 0; i < l->set.nr; i++)
        if (strcmp(l->set.items[i]->address, address) == 0)
            return;
    c = test_add_update(&l->set, NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER,
                        CLUSTER, address, NULL, NULL);
    if (source_dir)
        c->source_dir = ndp_xstrdup(source_dir);
}

/* A finding of 'rule_id' at 'path' of the change 'address'. */
static struct ndp_finding *add_finding(struct located *l,
                                       const char *rule_id,
                                       const char *address,
                                       const char *source_dir,
                                       const char *path)
{
    struct ndp_rule rule = { .id = rule_id, .category = "c" };
    struct ndp_finding_spec spec = {
        .rule = &rule,
        .verdict = NDP_VERDICT_REJECTED,
        .input = "plan.json",
        .cluster = "aks",
        .resource = address,
        .path = path,
        .line = 42,
        .message = "m",
    };

    add_change(l, address, source_dir);
    return ndp_findings_add(&l->fs, &spec);
}

/* 'rel' under the group's directory, or NULL for NULL. */
static const char *under_base(struct ndp_buf *out, const char *rel)
{
    if (!rel)
        return NULL;
    path_of(out, rel);
    return out->buf;
}

/* Locates with BASE/'root' (NULL: the current directory) and
 * BASE/'template' (NULL: none). */
static void locate(struct located *l, const char *root, const char *tpl)
{
    ndp_locate_sources(&l->fs, &l->set, under_base(&l->root, root),
                       under_base(&l->tpl, tpl), test_ruleset);
}

static void release_located(struct located *l)
{
    ndp_findings_release(&l->fs);
    ndp_changeset_release(&l->set);
    ndp_buf_release(&l->root);
    ndp_buf_release(&l->tpl);
}

static void row_test(void **state)
{
    const struct row *row = *state;
    struct located l = LOCATED_INIT;
    struct ndp_buf want = NDP_BUF_INIT;
    const struct ndp_finding *f;

    add_finding(&l, row->rule, row->address, row->source_dir, row->path);
    locate(&l, "root", row->template);
    f = &l.fs.items[0];
    if (row->file) {
        path_of(&want, row->file);
        if (!f->source_file)
            fail_msg("not located, want %s:%ld", want.buf, row->line);
        assert_string_equal(f->source_file, want.buf);
        assert_int_equal(f->source_line, row->line);
    } else if (f->source_file) {
        fail_msg("located at %s:%ld", f->source_file, f->source_line);
    }
    assert_int_equal(f->line, 42);
    if (row->suppression) {
        expand(&want, row->suppression);
        if (!f->suppression || !strstr(f->suppression, want.buf))
            fail_msg("suppression '%s' does not say '%s'",
                     f->suppression ? f->suppression : "(none)", want.buf);
    } else if (f->suppression) {
        fail_msg("suppressed: %s", f->suppression);
    }
    assert_int_equal(l.fs.nr, row->warning ? 2 : 1);
    if (row->warning) {
        const struct ndp_finding *w = &l.fs.items[1];
        expand(&want, row->warning);
        if (!strstr(w->message, want.buf))
            fail_msg("warning '%s' does not say '%s'", w->message, want.buf);
        assert_string_equal(w->rule_id, "NDP008");
        assert_int_equal(w->verdict, NDP_VERDICT_IGNORE_WITHOUT_REASON);
        assert_int_equal(w->severity, NDP_SEVERITY_WARNING);
        assert_string_equal(w->resource, row->address);
        assert_string_equal(w->source_file, f->source_file);
        assert_null(w->suppression);
    }
    ndp_buf_release(&want);
    release_located(&l);
}

/* ---- several findings ------------------------------------------------ */

/*
 * One warning per comment however many findings look at it, made like
 * the first of them in report order, the comments in file and line
 * order.
 */
static void bad_ignores__one_warning_per_comment(void **state)
{
    struct located l = LOCATED_INIT;

    (void)state;
    add_finding(&l, "NDP202", POOL ".bad", "", "vm_size");
    add_finding(&l, "NDP203", CLUSTER ".main", "",
                "default_node_pool[0].vm_size");
    add_finding(&l, "NDP202", CLUSTER ".main", "",
                "default_node_pool[0].vm_size");
    add_finding(&l, "NDP201", POOL ".bad", "", "");
    locate(&l, "root", NULL);
    assert_int_equal(l.fs.nr, 6);
    assert_int_equal(l.fs.items[4].source_line, 12);
    assert_string_equal(l.fs.items[4].resource, CLUSTER ".main");
    assert_non_null(strstr(l.fs.items[4].message, "gives no reason"));
    assert_int_equal(l.fs.items[5].source_line, 26);
    assert_string_equal(l.fs.items[5].resource, POOL ".bad");
    assert_non_null(strstr(l.fs.items[5].message, "names no rule id"));
    release_located(&l);
}

/* A finding suppressed before (a waiver) keeps its first suppression. */
static void suppressed_before__first_suppression_stands(void **state)
{
    struct located l = LOCATED_INIT;

    (void)state;
    ndp_finding_suppress(add_finding(&l, "NDP101", CLUSTER ".main", "",
                                     "network_profile[0].network_policy"),
                         "waived");
    locate(&l, "root", NULL);
    assert_int_equal(l.fs.nr, 1);
    assert_string_equal(l.fs.items[0].suppression, "waived");
    assert_int_equal(l.fs.items[0].source_line, 8);
    release_located(&l);
}

/* A reason over NDP_IGNORE_REASON_MAX bytes is cut, and says so. */
static void long_reason__cut_and_marked(void **state)
{
    struct located l = LOCATED_INIT;
    struct ndp_buf text = NDP_BUF_INIT;
    const char *s;
    size_t i;

    (void)state;
    ndp_buf_adds(&text, "resource \"azurerm_kubernetes_cluster\" \"long\" "
                        "{ # ndplint:ignore NDP101 ");
    for (i = 0; i < 300; i++)
        ndp_buf_addch(&text, (char)('a' + i % 26));
    ndp_buf_adds(&text, "\n}\n");
    assert_int_equal(make_dir("root/long"), 0);
    assert_int_equal(write_file("root/long/long.tf", text.buf, 0), 0);
    add_finding(&l, "NDP101", CLUSTER ".long", "long", "");
    locate(&l, "root", NULL);
    s = l.fs.items[0].suppression;
    assert_non_null(s);
    s = strstr(s, "long.tf:1: ");
    assert_non_null(s);
    s += strlen("long.tf:1: ");
    assert_int_equal(strlen(s), NDP_IGNORE_REASON_MAX + 3);
    assert_string_equal(s + NDP_IGNORE_REASON_MAX, "...");
    assert_memory_equal(s, "abcdefghijklmnopqrstuvwxyz", 26);
    ndp_buf_release(&text);
    release_located(&l);
}

/* No source root: the current directory. */
static void no_root__current_directory(void **state)
{
    struct located l = LOCATED_INIT;
    struct ndp_buf dir = NDP_BUF_INIT;
    char cwd[4096];

    (void)state;
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    assert_int_equal(chdir(under_base(&dir, "root/modules")), 0);
    add_finding(&l, "NDP201", "module.aks." POOL ".user", "aks",
                "node_count");
    locate(&l, NULL, NULL);
    assert_int_equal(chdir(cwd), 0);
    assert_string_equal(l.fs.items[0].source_file, "./aks/pool.tf");
    assert_int_equal(l.fs.items[0].source_line, 4);
    ndp_buf_release(&dir);
    release_located(&l);
}

/* No findings, or a root that does not exist: nothing happens. */
static void nothing_to_locate(void **state)
{
    struct located l = LOCATED_INIT;

    (void)state;
    add_change(&l, CLUSTER ".main", "");
    locate(&l, "root", NULL);
    assert_int_equal(l.fs.nr, 0);
    add_finding(&l, "NDP102", CLUSTER ".main", "",
                "network_profile[0].network_plugin");
    locate(&l, "no-such-root", NULL);
    assert_int_equal(l.fs.nr, 1);
    assert_null(l.fs.items[0].source_file);
    release_located(&l);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, bad_ignores__one_warning_per_comment);
    ADD_TEST(&list, suppressed_before__first_suppression_stands);
    ADD_TEST(&list, long_reason__cut_and_marked);
    ADD_TEST(&list, no_root__current_directory);
    ADD_TEST(&list, nothing_to_locate);
    return cmocka_run_group_tests_name("locate", list.items, make_tree,
                                       remove_tree);
}
