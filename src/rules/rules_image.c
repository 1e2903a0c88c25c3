/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_image.c - the compiled rule image that is built into ndplint (see
 * rules.h): writing a loaded rule set as C source, and reading that image
 * back as a rule set.  ndplint-rulec writes it at build time, after the
 * ordinary loader has checked every rule file, so the binary carries rules
 * that are known to be good and never parses their metadata again.
 * Patterns are listed once each and shared by index; the JSON parts of a
 * rule are kept as compact JSON text, parsed the first time they are
 * needed (ndp_rule_logic()).
 */
#include "common.h"
#include "rules.h"
#include "buf.h"
#include "jsonutil.h"

#include "rules_internal.h"

#include <json-c/json.h>

/* ---- writing the image (ndplint-rulec) ---- */

/* Writes 's' as a C string literal (NULL as NULL). */
static void put_c_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    if (!s) {
        fputs("NULL", out);
        return;
    }
    fputc('"', out);
    for (; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(out, "\\%03o", *p); /* octal: never runs into a digit */
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* The rule's JSON parts as one compact object, or NULL when it has none. */
static char *logic_json(const struct rule_impl *r)
{
    struct json_object *o = json_object_new_object();
    char *text = NULL;

    if (r->transitions)
        json_object_object_add(o, "transitions",
                               json_object_get(r->transitions));
    if (r->default_value)
        json_object_object_add(o, "default",
                               json_object_get(r->default_value));
    if (r->unset_values)
        json_object_object_add(o, "unset_values",
                               json_object_get(r->unset_values));
    if (r->ignore_keys)
        json_object_object_add(o, "ignore_keys",
                               json_object_get(r->ignore_keys));
    if (json_object_object_length(o))
        text = ndp_xstrdup(json_object_to_json_string_ext(
            o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
    return text;
}

static void put_patterns(FILE *out, const struct ndp_ruleset *rs)
{
    size_t i;

    fputs("static const struct ndp_rule_image_pattern patterns[] = {\n",
          out);
    for (i = 0; i < rs->nr_patterns; i++) {
        fputs("    { ", out);
        put_c_string(out, rs->patterns[i].src);
        fprintf(out, ", %s },\n", rs->patterns[i].caseless ? "true" : "false");
    }
    fputs("};\n\n", out);
}

static void put_watches(FILE *out, const struct rule_impl *r, size_t index)
{
    size_t i;

    if (!r->nr_watches)
        return;
    fprintf(out, "static const struct ndp_rule_image_watch watches_%zu[] = {\n",
            index);
    for (i = 0; i < r->nr_watches; i++)
        fprintf(out, "    { %s, %zu, %zu },\n",
                r->watches[i].notation == NDP_NOTATION_ARM
                    ? "NDP_NOTATION_ARM" : "NDP_NOTATION_AZURERM",
                r->watches[i].type_pattern, r->watches[i].path_pattern);
    fputs("};\n", out);
}

static void put_field(FILE *out, const char *name, const char *value)
{
    fprintf(out, "        .%s = ", name);
    put_c_string(out, value);
    fputs(",\n", out);
}

static void put_enums(FILE *out, const struct ndp_rule *p)
{
    static const char *const classes[] = {
        "NDP_CLASS_COVERED", "NDP_CLASS_VERSION_GATED", "NDP_CLASS_UPGRADE",
        "NDP_CLASS_META", "NDP_CLASS_ROTATE", "NDP_CLASS_CHECK"
    };

    static const char *const pools[] = { "NDP_RULE_POOLS_SCOPE",
                                         "NDP_RULE_POOLS_WINDOWS" };

    fprintf(out, "        .scope = %s, .class_ = %s, .pools = %s,\n"
            "        .secret = %d, .userinfo_secret = %d },\n",
            p->scope == NDP_SCOPE_NODEPOOL ? "NDP_SCOPE_NODEPOOL"
                                           : "NDP_SCOPE_CLUSTER",
            classes[p->class_], pools[p->pools], p->secret,
            p->userinfo_secret);
}

static void put_rule(FILE *out, const struct rule_impl *r, size_t index)
{
    const struct ndp_rule *p = &r->pub;
    char *logic = logic_json(r);

    fputs("    { .rule = {\n", out);
    put_field(out, "id", p->id);
    put_field(out, "category", p->category);
    put_field(out, "title", p->title);
    put_field(out, "category_title", p->category_title);
    put_field(out, "summary", p->summary);
    put_field(out, "why", p->why);
    put_field(out, "advice", p->advice);
    put_field(out, "source", p->source);
    put_field(out, "target", p->target);
    put_field(out, "file", base_name(p->file));
    put_enums(out, p);
    fprintf(out, "      .any_change = %d, .ignore_case = %d, "
            ".unordered = %d, .kubernetes_version = %d,\n", r->any_change,
            r->ignore_case, r->unordered, r->kubernetes_version);
    if (r->nr_watches)
        fprintf(out, "      .watches = watches_%zu, .nr_watches = %zu,\n",
                index, r->nr_watches);
    fputs("      .logic = ", out);
    put_c_string(out, logic);
    fputs(" },\n", out);
    free(logic);
}

int ndp_ruleset_write_image(const struct ndp_ruleset *rs, FILE *out)
{
    size_t i;

    fputs("/* rules_embedded.c - the built-in rules, written by ndplint-rulec "
          "from the rule files.\n   Generated at build time: do not edit. */\n"
          "#include \"rules_internal.h\"\n\n", out);
    put_patterns(out, rs);
    for (i = 0; i < rs->nr; i++)
        put_watches(out, rs->rules[i], i);
    fputs("\nstatic const struct ndp_rule_image rules[] = {\n", out);
    for (i = 0; i < rs->nr; i++)
        put_rule(out, rs->rules[i], i);
    fputs("};\n\n"
          "static const struct ndp_rule_image_set image = {\n"
          "    rules, sizeof(rules) / sizeof(rules[0]),\n"
          "    patterns, sizeof(patterns) / sizeof(patterns[0])\n"
          "};\n\n"
          "int ndp_rules_load_embedded(struct ndp_ruleset **out,\n"
          "                            struct ndp_error *err)\n"
          "{\n"
          "    (void)err;\n"
          "    *out = ndp_rules_from_image(&image);\n"
          "    return 0;\n"
          "}\n", out);
    return ferror(out) ? -1 : 0;
}

/* ---- reading the image back ---- */

static void rule_from_image(struct ndp_ruleset *rs,
                            const struct ndp_rule_image *image)
{
    struct rule_impl *r = ndp_xcalloc(1, sizeof(*r));
    size_t i;

    r->pub = image->rule;
    r->set = rs;
    r->any_change = image->any_change;
    r->ignore_case = image->ignore_case;
    r->unordered = image->unordered;
    r->kubernetes_version = image->kubernetes_version;
    r->logic_text = image->logic;
    if (image->nr_watches) {
        r->watches = ndp_xcalloc(image->nr_watches, sizeof(*r->watches));
        r->nr_watches = r->alloc_watches = image->nr_watches;
    }
    for (i = 0; i < image->nr_watches; i++) {
        r->watches[i].notation = image->watches[i].notation;
        r->watches[i].type_pattern = image->watches[i].type_pattern;
        r->watches[i].path_pattern = image->watches[i].path_pattern;
    }
    rs->rules[rs->nr++] = r;
}

struct ndp_ruleset *ndp_rules_from_image(const struct ndp_rule_image_set *image)
{
    struct ndp_ruleset *rs = ndp_ruleset_new();
    size_t i;

    rs->rules = ndp_xcalloc(image->nr_rules ? image->nr_rules : 1,
                            sizeof(*rs->rules));
    rs->alloc = image->nr_rules;
    for (i = 0; i < image->nr_rules; i++)
        rule_from_image(rs, &image->rules[i]);
    rs->patterns = ndp_xcalloc(image->nr_patterns ? image->nr_patterns : 1,
                               sizeof(*rs->patterns));
    rs->nr_patterns = rs->alloc_patterns = image->nr_patterns;
    for (i = 0; i < image->nr_patterns; i++) {
        rs->patterns[i].src = image->patterns[i].src;
        rs->patterns[i].caseless = image->patterns[i].caseless;
    }
    return rs;
}

/*
 * The rule with its JSON parts at hand: a rule from the built-in image
 * parses them the first time one of its values is judged or it is
 * described.  The rule set is not shared between threads.
 */
const struct rule_impl *ndp_rule_logic(const struct ndp_rule *rule)
{
    struct rule_impl *r = (struct rule_impl *)(uintptr_t)rule;
    struct json_object *root;

    if (!r->logic_text || r->logic_root)
        return r;
    root = json_tokener_parse(r->logic_text);
    if (!root)
        NDP_BUG("a built-in rule's JSON does not parse");
    r->logic_root = root;
    r->transitions = ndp_json_get(root, "transitions");
    r->default_value = ndp_json_get(root, "default");
    r->unset_values = ndp_json_get(root, "unset_values");
    r->ignore_keys = ndp_json_get(root, "ignore_keys");
    return r;
}
