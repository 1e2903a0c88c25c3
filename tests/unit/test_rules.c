/*
 * SPDX-License-Identifier: Apache-2.0
 * test_rules.c - loading rule files: the built-in set loads, and a broken
 * rule file is refused with its name, the JSON path and the reason (a
 * category's "source" is an https URL the reports can write as is, its
 * "pools" one the loader knows); and what a rule watches in each
 * notation.
 */
#include "test_common.h"
#include "buf.h"
#include "error.h"
#include "rules.h"
#include "rules/rules_internal.h"

#include <sys/stat.h>
#include <unistd.h>

static const char valid_rule[] =
    "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
    "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
    "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
    "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}";

struct broken_case {
    const char *name;
    const char *text;
    const char *expect; /* fragment of the error message */
};

static const struct broken_case broken[] = {
    { "not json", "{\"category\": ", "not valid JSON" },
    { "unknown top-level key",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[],\"extra\":1}", "(top level).extra: unknown key" },
    { "no rules",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[]}", "rules: must be a non-empty array" },
    { "missing id",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\"}]}", "rules[0].id: is required" },
    { "bad scope",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"pool\",\"class\":\"covered\","
      "\"summary\":\"s\"}]}", "rules[0].scope: unknown value 'pool'" },
    { "bad regex",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^(y$\"}],\"transitions\":\"any-change\"}]}",
      "rules[0].watch[0].path: invalid regular expression" },
    { "bad notation",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"bicep\",\"resource\":\"x\","
      "\"path\":\"y\"}],\"transitions\":\"any-change\"}]}",
      "rules[0].watch[0].notation: must be" },
    { "bad matcher key",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"x\","
      "\"path\":\"y\"}],\"transitions\":[{\"from\":{\"equals\":1}}]}]}",
      "rules[0].transitions[0].from.equals: unknown key" },
    { "missing transitions",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"x\","
      "\"path\":\"y\"}]}]}", "rules[0].transitions: is required" },
    { "a null key in changed",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"x\","
      "\"path\":\"y\"}],\"transitions\":[{\"changed\":[null,\"a\"]}]}]}",
      "rules[0].transitions[0].changed: must be an array of key names" },
    { "a number in changed",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"x\","
      "\"path\":\"y\"}],\"transitions\":[{\"changed\":[\"a\",1]}]}]}",
      "rules[0].transitions[0].changed: must be an array of key names" },
    { "source over http",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"http://learn.microsoft.com/azure/aks/x\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source without a host",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source with a space",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://learn.microsoft.com/a b\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source ending a Markdown link",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://x.test/a)[y](https://evil.test\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source with a quote",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://x.test/\\\"\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source with a backtick",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://x.test/`\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source with a newline",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":\"https://x.test/\\n\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be an https URL" },
    { "source not a string",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"source\":1,"
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "source: must be a non-empty string" },
    { "pools not a known value",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"pools\":\"linux\","
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "pools: unknown value 'linux'" },
    { "pools not a string",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"pools\":[\"windows\"],"
      "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
      "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
      "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}",
      "(top level).pools: must be a non-empty string" },
    { "empty rule title",
      "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
      "\"rules\":[{\"id\":\"X\",\"title\":\"\",\"scope\":\"cluster\","
      "\"class\":\"covered\",\"summary\":\"s\"}]}",
      "rules[0].title: must be a non-empty string" },
};

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void builtin_rules__load_and_match_the_rules_directory(void **state)
{
    struct ndp_ruleset *embedded = NULL, *dir = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_int_equal(ndp_rules_load_embedded(&embedded, &err), 0);
    assert_int_equal(ndp_rules_load_dir(&dir, NDP_RULES_DIR, &err), 0);
    assert_int_equal(ndp_ruleset_count(embedded), ndp_ruleset_count(dir));
    assert_true(ndp_ruleset_count(embedded) >= 30);
    assert_non_null(ndp_ruleset_meta(embedded, "gate-open"));
    assert_non_null(ndp_ruleset_meta(embedded, "window-invalid"));
    assert_non_null(ndp_ruleset_meta(embedded, "replace"));
    assert_non_null(ndp_ruleset_find(embedded, "ndp101"));
    ndp_ruleset_free(embedded);
    ndp_ruleset_free(dir);
}

static void assert_same_text(const char *a, const char *b)
{
    if (a || b) {
        assert_non_null(a);
        assert_non_null(b);
        assert_string_equal(a, b);
    }
}

/* The compiled image holds every rule as the loader reads the files. */
static void builtin_image__describes_every_rule_as_the_files_do(void **state)
{
    struct ndp_ruleset *embedded = NULL, *dir = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_buf a = NDP_BUF_INIT, b = NDP_BUF_INIT;
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_embedded(&embedded, &err), 0);
    assert_int_equal(ndp_rules_load_dir(&dir, NDP_RULES_DIR, &err), 0);
    assert_int_equal(ndp_ruleset_count(embedded), ndp_ruleset_count(dir));
    for (i = 0; i < ndp_ruleset_count(dir); i++) {
        const struct ndp_rule *x = ndp_ruleset_get(embedded, i);
        const struct ndp_rule *y = ndp_ruleset_get(dir, i);
        const char *slash = strrchr(y->file, '/');

        assert_string_equal(x->id, y->id);
        assert_same_text(x->category, y->category);
        assert_same_text(x->title, y->title);
        assert_same_text(x->category_title, y->category_title);
        assert_same_text(x->summary, y->summary);
        assert_same_text(x->why, y->why);
        assert_same_text(x->advice, y->advice);
        assert_same_text(x->source, y->source);
        assert_non_null(x->source); /* every bundled category has one */
        assert_same_text(x->target, y->target);
        assert_string_equal(x->file, slash ? slash + 1 : y->file);
        assert_int_equal(x->scope, y->scope);
        assert_int_equal(x->class_, y->class_);
        assert_int_equal(x->pools, y->pools);
        assert_int_equal(x->secret, y->secret);
        assert_int_equal(x->userinfo_secret, y->userinfo_secret);
        if (!ndp_rule_class_watches(x->class_))
            continue;
        ndp_buf_reset(&a);
        ndp_buf_reset(&b);
        ndp_rule_describe(&a, x);
        ndp_rule_describe(&b, y);
        assert_string_equal(a.buf, b.buf);
    }
    ndp_buf_release(&a);
    ndp_buf_release(&b);
    ndp_ruleset_free(embedded);
    ndp_ruleset_free(dir);
}

static void broken_rule_file__is_refused_with_file_path_and_reason(void **state)
{
    char dir[] = "/tmp/ndp-rules-XXXXXX";
    char path[256];
    size_t i;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/broken.json", dir);
    for (i = 0; i < NDP_ARRAY_SIZE(broken); i++) {
        struct ndp_ruleset *rs = NULL;
        struct ndp_error err = NDP_ERROR_INIT;

        write_file(path, broken[i].text);
        assert_int_equal(ndp_rules_load_dir(&rs, dir, &err), NDP_ERULE);
        assert_null(rs);
        if (!strstr(err.msg, "broken.json") ||
            !strstr(err.msg, broken[i].expect))
            fail_msg("case '%s': message '%s' lacks '%s'", broken[i].name,
                     err.msg, broken[i].expect);
    }
    unlink(path);
    rmdir(dir);
}

static void duplicate_rule_id__is_refused(void **state)
{
    char dir[] = "/tmp/ndp-rules-XXXXXX";
    char a[256], b[256];
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof(a), "%s/a.json", dir);
    snprintf(b, sizeof(b), "%s/b.json", dir);
    write_file(a, valid_rule);
    write_file(b, valid_rule);
    assert_int_equal(ndp_rules_load_dir(&rs, dir, &err), NDP_ERULE);
    assert_non_null(strstr(err.msg, "'X1' is used twice"));
    unlink(a);
    unlink(b);
    rmdir(dir);
}

/* One rule with a watch in each notation, loaded from memory. */
static const char watch_rule[] =
    "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\",\"advice\":\"a\","
    "\"rules\":[{\"id\":\"W1\",\"scope\":\"cluster\",\"class\":\"covered\","
    "\"summary\":\"s\",\"transitions\":\"any-change\",\"watch\":["
    "{\"notation\":\"azurerm\",\"resource\":\"^azurerm_kubernetes_cluster$\","
    "\"path\":\"^network_profile\\\\.network_policy$\"},"
    "{\"notation\":\"arm\","
    "\"resource\":\"^Microsoft\\\\.ContainerService/managedClusters$\","
    "\"path\":\"^properties\\\\.networkProfile\\\\.networkPolicy$\"},"
    "{\"notation\":\"arm\","
    "\"resource\":\"^Microsoft\\\\.ContainerService/managedClusters$\","
    "\"path\":\"^Props\\\\.AB\\\\.x$\"}]}]}";

struct watch_case {
    const char *note;
    enum ndp_notation notation;
    const char *type, *path;
    bool watched;
};

static const struct watch_case watch_cases[] = {
    { "azurerm type and path", NDP_NOTATION_AZURERM,
      "azurerm_kubernetes_cluster", "network_profile.network_policy", true },
    { "azurerm names are case-sensitive", NDP_NOTATION_AZURERM,
      "AZURERM_kubernetes_cluster", "network_profile.network_policy", false },
    { "near miss: a longer azurerm path", NDP_NOTATION_AZURERM,
      "azurerm_kubernetes_cluster", "network_profile.network_policy_x",
      false },
    { "ARM type and path", NDP_NOTATION_ARM,
      "Microsoft.ContainerService/managedClusters",
      "properties.networkProfile.networkPolicy", true },
    { "ARM names are case-insensitive", NDP_NOTATION_ARM,
      "microsoft.containerservice/MANAGEDCLUSTERS",
      "PROPERTIES.networkprofile.networkpolicy", true },
    { "ARM: capitals in a pattern's first bytes, in other case",
      NDP_NOTATION_ARM, "Microsoft.ContainerService/managedClusters",
      "pROPS.ab.X", true },
    { "ARM: capitals in a pattern's first bytes, near miss",
      NDP_NOTATION_ARM, "Microsoft.ContainerService/managedClusters",
      "pROPS.ac.X", false },
    { "near miss: an ARM path in azurerm notation", NDP_NOTATION_AZURERM,
      "Microsoft.ContainerService/managedClusters",
      "properties.networkProfile.networkPolicy", false },
    { "near miss: an azurerm path in ARM notation", NDP_NOTATION_ARM,
      "azurerm_kubernetes_cluster", "network_profile.network_policy", false },
};

/* ndp_rule_watches_path() agrees with the per-type watch set and a table. */
static void rule_watches__match_type_and_path_per_notation(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    const struct ndp_rule *rule;
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&rs, "watch.json", watch_rule,
                                         strlen(watch_rule), &err), 0);
    rule = ndp_ruleset_find(rs, "W1");
    assert_non_null(rule);
    for (i = 0; i < NDP_ARRAY_SIZE(watch_cases); i++) {
        const struct watch_case *c = &watch_cases[i];
        uint32_t set = ndp_rule_type_watches(rule, c->notation, c->type);

        if (ndp_rule_watches_path(rule, c->notation, c->type, c->path) !=
            c->watched)
            fail_msg("%s: want %s", c->note, c->watched ? "watched" : "not");
        assert_int_equal(ndp_rule_watches_path_in(rule, set, c->path),
                         c->watched);
    }
    ndp_ruleset_free(rs);
}

static const char titled_rules[] =
    "{\"category\":\"c\",\"title\":\"Both things\",\"why\":\"w\","
    "\"advice\":\"a\",\"rules\":["
    "{\"id\":\"T1\",\"title\":\"One thing\",\"scope\":\"cluster\","
    "\"class\":\"covered\",\"summary\":\"s\",\"watch\":[{\"notation\":"
    "\"arm\",\"resource\":\"^x$\",\"path\":\"^y$\"}],"
    "\"transitions\":\"any-change\"},"
    "{\"id\":\"T2\",\"scope\":\"cluster\",\"class\":\"covered\","
    "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":"
    "\"^x$\",\"path\":\"^z$\"}],\"transitions\":\"any-change\"}]}";

/* A rule's own title wins over its category's; without one it has that. */
static void rule_title__own_else_the_categorys(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    const struct ndp_rule *one, *two;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&rs, "titles.json", titled_rules,
                                         strlen(titled_rules), &err), 0);
    one = ndp_ruleset_find(rs, "T1");
    two = ndp_ruleset_find(rs, "T2");
    assert_non_null(one);
    assert_non_null(two);
    assert_string_equal(one->title, "One thing");
    assert_string_equal(one->category_title, "Both things");
    assert_string_equal(two->title, "Both things");
    assert_string_equal(two->category_title, "Both things");
    ndp_ruleset_free(rs);
}

/* A category's source is kept as written; the docs link is its anchor. */
static void rule_source__kept_and_docs_linked_by_category(void **state)
{
    static const char text[] =
        "{\"category\":\"c-1\",\"title\":\"t\",\"why\":\"w\","
        "\"advice\":\"a\",\"source\":\"https://learn.microsoft.com/x?a=1#b\","
        "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
        "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
        "\"path\":\"^y$\"}],\"transitions\":\"any-change\"}]}";
    struct ndp_ruleset *rs = NULL, *plain = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_buf url = NDP_BUF_INIT;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&rs, "s.json", text, strlen(text),
                                         &err), 0);
    assert_string_equal(ndp_ruleset_find(rs, "X1")->source,
                        "https://learn.microsoft.com/x?a=1#b");
    ndp_rules_docs_url(&url, "c-1");
    assert_string_equal(url.buf, NDP_HOMEPAGE "/blob/main/docs/rules.md#c-1");
    ndp_buf_reset(&url);
    ndp_rules_docs_url(&url, "C](x)");
    assert_string_equal(url.buf, NDP_HOMEPAGE
                        "/blob/main/docs/rules.md#categories-and-rules");
    assert_int_equal(ndp_rules_load_text(&plain, "v.json", valid_rule,
                                         strlen(valid_rule), &err), 0);
    assert_null(ndp_ruleset_find(plain, "X1")->source);
    ndp_buf_release(&url);
    ndp_ruleset_free(rs);
    ndp_ruleset_free(plain);
}

/*
 * A category's "pools" reaches each of its rules ("scope" when it has
 * none); gMSA's says the Windows pools, in the files and in the built-in
 * image alike, and no other bundled category does.
 */
static void rule_pools__the_categorys_for_each_rule(void **state)
{
    static const char text[] =
        "{\"category\":\"c\",\"title\":\"t\",\"why\":\"w\","
        "\"advice\":\"a\",\"pools\":\"windows\","
        "\"rules\":[{\"id\":\"X1\",\"scope\":\"cluster\",\"class\":\"covered\","
        "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
        "\"path\":\"^y$\"}],\"transitions\":\"any-change\"},"
        "{\"id\":\"X2\",\"scope\":\"nodepool\",\"class\":\"covered\","
        "\"summary\":\"s\",\"watch\":[{\"notation\":\"arm\",\"resource\":\"^x$\","
        "\"path\":\"^z$\"}],\"transitions\":\"any-change\"}]}";
    struct ndp_ruleset *rs = NULL, *plain = NULL, *embedded = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&rs, "p.json", text, strlen(text),
                                         &err), 0);
    assert_int_equal(ndp_ruleset_find(rs, "X1")->pools,
                     NDP_RULE_POOLS_WINDOWS);
    assert_int_equal(ndp_ruleset_find(rs, "X2")->pools,
                     NDP_RULE_POOLS_WINDOWS);
    assert_int_equal(ndp_rules_load_text(&plain, "v.json", valid_rule,
                                         strlen(valid_rule), &err), 0);
    assert_int_equal(ndp_ruleset_find(plain, "X1")->pools,
                     NDP_RULE_POOLS_SCOPE);
    assert_int_equal(ndp_rules_load_embedded(&embedded, &err), 0);
    for (i = 0; i < ndp_ruleset_count(embedded); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(embedded, i);
        assert_int_equal(r->pools, strcmp(r->category, "windows-gmsa") == 0
                                       ? NDP_RULE_POOLS_WINDOWS
                                       : NDP_RULE_POOLS_SCOPE);
    }
    assert_int_equal(ndp_ruleset_find(embedded, "NDP204")->pools,
                     NDP_RULE_POOLS_WINDOWS);
    ndp_ruleset_free(rs);
    ndp_ruleset_free(plain);
    ndp_ruleset_free(embedded);
}

static void empty_rules_directory__is_a_usage_error(void **state)
{
    char dir[] = "/tmp/ndp-rules-XXXXXX";
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(ndp_rules_load_dir(&rs, dir, &err), NDP_EUSAGE);
    assert_non_null(strstr(err.msg, "holds no *.json rule file"));
    rmdir(dir);
}

/*
 * The literal prefix that lets a watch skip PCRE2: only text every match
 * must begin with, nothing when an alternative or an optional character
 * could make a match begin otherwise.
 */
static void literal_prefix__only_what_every_match_begins_with(void **state)
{
    static const struct {
        const char *re, *want;
        bool whole;
    } rows[] = {
        { "^network_profile\\[\\d+\\]\\.network_policy$", "network_profile[", false },
        { "^kubernetes_version$", "kubernetes_version", true },
        { "^Microsoft\\.ContainerService/managedClusters$",
          "Microsoft.ContainerService/managedClusters", true },
        { "^a\\$$", "a$", true },
        { "^$", "", true },
        { "^ab$c", "ab", false },
        { "^properties\\.agentPoolProfiles\\[name=[^\\]]+\\]\\.x$",
          "properties.agentPoolProfiles[name=", false },
        { "^(fips_enabled|vm_size)$", "", false },
        { "^abc?", "ab", false },
        { "^ab*c", "a", false },
        { "^ab+c", "a", false },
        { "^a{2}", "", false },
        { "^a.b", "a", false },
        { "^a|b", "", false },            /* '^a' or 'b' anywhere */
        { "^a(b|c)|d", "", false },
        { "^a[|]b", "a", false },         /* in a class, '|' is a character */
        { "^a[]|]b", "a", false },
        { "^x\\|y$", "x|y", true },       /* escaped */
        { "^a(b|c)", "a", false },        /* inside a group */
        { "^\\d+", "", false },
        { "^\\x41", "", false },
        { "^\\Qa.b\\E", "", false },
        { "^a(?i)b", "a", false },
        { "abc", "", false },             /* not anchored */
        { "", "", false },
        { "^", "", false },
        { "^ab\\", "ab", false },         /* a lone backslash at the end */
    };
    char out[NDP_PATTERN_PREFIX_MAX];
    char tiny[4], longest[200];
    size_t i;
    bool whole;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        size_t n = ndp_rules_literal_prefix(rows[i].re, out, sizeof(out),
                                            &whole);

        if (strcmp(out, rows[i].want) != 0 || n != strlen(rows[i].want) ||
            whole != rows[i].whole)
            fail_msg("%s: prefix '%s' (%zu, whole %d), want '%s' (whole %d)",
                     rows[i].re, out, n, whole, rows[i].want, rows[i].whole);
    }
    /* Cut to the room there is: still a prefix of every match. */
    assert_int_equal(ndp_rules_literal_prefix("^abcdef$", tiny, sizeof(tiny),
                                              &whole), 3);
    assert_string_equal(tiny, "abc");
    assert_false(whole);
    memset(longest, 'a', sizeof(longest) - 1);
    longest[0] = '^';
    longest[sizeof(longest) - 1] = '\0';
    assert_int_equal(ndp_rules_literal_prefix(longest, out, sizeof(out),
                                              &whole), sizeof(out) - 1);
}

/* PCRE2 alone on 'subject', compiled anew, as the rule set's flags say. */
static bool pcre2_alone(const struct pattern *p, const char *subject)
{
    int code;
    PCRE2_SIZE offset;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)p->src, PCRE2_ZERO_TERMINATED,
                                   p->caseless ? PCRE2_CASELESS : 0, &code,
                                   &offset, NULL);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    bool hit = pcre2_match(re, (PCRE2_SPTR)subject, PCRE2_ZERO_TERMINATED, 0,
                           0, md, NULL) >= 0;

    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return hit;
}

/*
 * Every built-in pattern answers as PCRE2 alone does, on subjects made to
 * sit at the edges of the shortcuts: its own literal prefix, cut short,
 * with a line end, with more after it, in other case, with a digit index
 * or a pool name where the pattern has one.
 */
static void pattern_matches__every_builtin_pattern_as_pcre2_alone(void **state)
{
    static const char *const tails[] = {
        "", "\n", "\r\n", "\r", "\n\n", "x", "\nx", "0]", "[0]",
        "0].network_policy", "name=np1].orchestratorVersion",
        "name=np1].securityProfile.enableVTPM", "name=]",
        "zones", "vm_size", "vm_sizes", "_id", ".type",
    };
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i, t, checked = 0, whole = 0;

    (void)state;
    assert_int_equal(ndp_rules_load_embedded(&rs, &err), 0);
    for (i = 0; i < rs->nr_patterns; i++) {
        struct pattern *p = &rs->patterns[i];
        char prefix[NDP_PATTERN_PREFIX_MAX];
        bool is_whole;
        size_t n = ndp_rules_literal_prefix(p->src, prefix, sizeof(prefix),
                                            &is_whole);

        whole += is_whole;
        for (t = 0; t < NDP_ARRAY_SIZE(tails) * 4; t++) {
            struct ndp_buf subject = NDP_BUF_INIT;
            size_t k;

            /* The prefix whole, cut by one, upper-cased, lower-cased. */
            ndp_buf_add(&subject, prefix, t / NDP_ARRAY_SIZE(tails) == 1 && n
                                              ? n - 1 : n);
            for (k = 0; k < subject.len && t / NDP_ARRAY_SIZE(tails) >= 2;
                 k++) {
                char c = subject.buf[k];

                if (t / NDP_ARRAY_SIZE(tails) == 2 && c >= 'a' && c <= 'z')
                    subject.buf[k] = (char)(c - 32);
                if (t / NDP_ARRAY_SIZE(tails) == 3 && c >= 'A' && c <= 'Z')
                    subject.buf[k] = (char)(c + 32);
            }
            ndp_buf_adds(&subject, tails[t % NDP_ARRAY_SIZE(tails)]);
            if (ndp_rules_pattern_matches(rs, i, subject.buf) !=
                pcre2_alone(p, subject.buf))
                fail_msg("%s on '%s': %d, PCRE2 alone %d", p->src,
                         subject.buf,
                         ndp_rules_pattern_matches(rs, i, subject.buf),
                         pcre2_alone(p, subject.buf));
            checked++;
            ndp_buf_release(&subject);
        }
    }
    /* The shortcuts were there to be tried. */
    assert_true(whole >= 10);
    assert_true(checked >= 1000);
    ndp_ruleset_free(rs);
}

/* NDP401 of 'rs' reimages from 'before' to 'after' (JSON strings). */
static bool version_rule_fires(const struct ndp_ruleset *rs, const char *id,
                               const char *before, const char *after)
{
    const struct ndp_rule *rule = ndp_ruleset_find(rs, id);
    struct json_object *b = json_object_new_string(before);
    struct json_object *a = json_object_new_string(after);
    bool fires;

    assert_non_null(rule);
    fires = ndp_rule_reimages(rule, b, a, NULL, NULL);
    json_object_put(b);
    json_object_put(a);
    return fires;
}

/*
 * "kubernetes_version": the alias of the minor a version names is no
 * change (PT-K8S-02: AKS does not upgrade when the same major.minor is
 * sent), in the rule files and in the image built from them alike; any
 * other move is, and a rule without the option reads the texts alone.
 */
static void kubernetes_version_rule__alias_of_its_minor_is_no_change(
    void **state)
{
    struct ndp_ruleset *sets[2] = { NULL, NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_embedded(&sets[0], &err), 0);
    assert_int_equal(ndp_rules_load_dir(&sets[1], NDP_RULES_DIR, &err), 0);
    for (i = 0; i < 2; i++) {
        const struct ndp_ruleset *rs = sets[i];
        assert_false(version_rule_fires(rs, "NDP401", "1.30.7", "1.30"));
        assert_false(version_rule_fires(rs, "NDP402", "v1.30.7", "1.30"));
        assert_true(version_rule_fires(rs, "NDP401", "1.30.7", "1.31"));
        assert_true(version_rule_fires(rs, "NDP401", "1.30.7", "1.29"));
        assert_true(version_rule_fires(rs, "NDP401", "1.30", "1.30.7"));
        assert_true(version_rule_fires(rs, "NDP401", "1.30.7", "1.30.8"));
        assert_true(version_rule_fires(rs, "NDP401", "2.30.7", "1.30"));
        assert_true(version_rule_fires(rs, "NDP401", "latest", "1.30"));
        assert_true(version_rule_fires(rs, "NDP402", "1.30.7", "1.30-rc"));
        /* The node image is no Kubernetes version. */
        assert_true(version_rule_fires(rs, "NDP403", "1.30.7", "1.30"));
        ndp_ruleset_free(sets[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literal_prefix__only_what_every_match_begins_with),
        cmocka_unit_test(pattern_matches__every_builtin_pattern_as_pcre2_alone),
        cmocka_unit_test(builtin_rules__load_and_match_the_rules_directory),
        cmocka_unit_test(builtin_image__describes_every_rule_as_the_files_do),
        cmocka_unit_test(broken_rule_file__is_refused_with_file_path_and_reason),
        cmocka_unit_test(duplicate_rule_id__is_refused),
        cmocka_unit_test(empty_rules_directory__is_a_usage_error),
        cmocka_unit_test(rule_watches__match_type_and_path_per_notation),
        cmocka_unit_test(rule_title__own_else_the_categorys),
        cmocka_unit_test(rule_source__kept_and_docs_linked_by_category),
        cmocka_unit_test(rule_pools__the_categorys_for_each_rule),
        cmocka_unit_test(
            kubernetes_version_rule__alias_of_its_minor_is_no_change),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
