/*
 * SPDX-License-Identifier: Apache-2.0
 * input.c - first stage of the pipeline: bytes in, reader chosen.
 *
 * Has the bytes loaded (src/util/load.c: mapped, or standard input read by
 * a thread while the scanner already works on it), refuses what is plainly
 * not a JSON document with a message that says what it is instead (a
 * binary plan, an empty file, a directory, a terraform error message),
 * parses the JSON with a depth limit, sniffs the format and calls the
 * reader.  Everything a reader keeps is copied into the change set, so the
 * parse tree is released before returning.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "jsonutil.h"

/* What an input should be, for the messages on one that is not JSON. */
#define EXPECT_INPUT "'terraform show -json PLANFILE' or 'az deployment " \
                     "group what-if --no-pretty-print' output"

/* Where and why the scanner refused 'text', in a message. */
static int scan_error(const struct ndp_bytes *text, const char *path,
                      size_t pos, const char *msg, struct ndp_error *err)
{

    if (pos >= text->len)
        return ndp_error_set(err, NDP_EPARSE,
                             "'%s' ends in the middle of the JSON document "
                             "(truncated at line %ld, byte %zu)",
                             path, ndp_load_line_at(text, text->len),
                             text->len);
    return ndp_error_set(err, NDP_EPARSE,
                         "'%s' is not valid JSON: %s at line %ld (byte %zu)",
                         path, msg ? msg : "syntax error",
                         ndp_load_line_at(text, pos), pos);
}

/*
 * ARM templates may hold // and block comments (Azure Resource Manager
 * accepts them), which strict JSON refuses: such a file gets a second,
 * lenient parse, and only counts if it then is a template.
 */
static int parse_lenient_template(struct json_object **out,
                                  const struct ndp_bytes *text,
                                  const char *path)
{
    struct ndp_error ignored = NDP_ERROR_INIT;
    struct json_object *root = NULL;

    if (!strstr(text->data, "eploymentTemplate.json") ||
        ndp_load_parse_json(&root, text, path, true, &ignored) != 0)
        return -1;
    if (ndp_json_get(root, "$schema") && ndp_json_get(root, "resources")) {
        *out = root;
        return 0;
    }
    json_object_put(root);
    return -1;
}

/*
 * Appends the raw key whose quote is at 'pos' (escapes shown as written),
 * control bytes as '?', at most 48 bytes of it.
 */
static void add_raw_key(struct ndp_buf *out, const struct ndp_bytes *text,
                        size_t pos)
{
    char quote = text->data[pos];
    size_t i, n = 0;

    for (i = pos + 1; i < text->len && text->data[i] != quote; i++, n++) {
        unsigned char c = (unsigned char)text->data[i];
        if (n == 48) {
            ndp_buf_adds(out, "...");
            return;
        }
        if (c == '\\' && i + 1 < text->len) {
            ndp_buf_addch(out, '\\');
            c = (unsigned char)text->data[++i];
        }
        ndp_buf_addch(out, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
    }
}

/*
 * The pruned reader met a key twice where it decides what is judged (see
 * input_prune.c): 'pos' is the second one's quote, 'where' says in what.
 */
static int duplicate_key(const struct ndp_bytes *text, const char *path,
                         size_t pos, const char *where, struct ndp_error *err)
{
    struct ndp_buf key = NDP_BUF_INIT;
    int rc;

    add_raw_key(&key, text, pos);
    rc = ndp_error_set(err, NDP_ESCHEMA, "'%s' has the key '%s' twice in %s "
                       "at line %ld (byte %zu); which one counts depends on "
                       "the JSON reader, so the file is refused",
                       path, key.buf, where, ndp_load_line_at(text, pos),
                       pos);
    ndp_buf_release(&key);
    return rc;
}

/*
 * The scanner refused the text ('rc'): a NUL byte says binary, a key twice
 * is named, an ARM template may hold comments, anything else is reported
 * where it went wrong.
 */
static int refused_by_scanner(struct json_object **out, size_t *seen,
                              const struct ndp_bytes *text, const char *path,
                              int rc, size_t pos, const char *msg,
                              struct ndp_error *err)
{
    int nul = ndp_load_refuse_nul(text, path, err);

    *seen = SIZE_MAX;
    if (nul)
        return nul;
    if (rc == NDP_ESCHEMA)
        return duplicate_key(text, path, pos, msg, err);
    if (parse_lenient_template(out, text, path) == 0)
        return 0;
    return scan_error(text, path, pos, msg, err);
}

/*
 * The whole-tree reader (json-c) keeps the last of two equal keys without
 * a word: the pruned reader's check runs too, so that both refuse the same
 * documents.
 */
static int check_duplicates(const struct ndp_bytes *text, const char *path,
                            const struct ndp_input_tuning *tune,
                            struct ndp_error *err)
{
    struct json_object *pruned = NULL;
    const char *msg = NULL;
    size_t pos = 0, seen;
    int rc = ndp_parse_pruned(&pruned, &seen, text->data, text->len, false,
                              tune, &pos, &msg);

    json_object_put(pruned);
    return rc == NDP_ESCHEMA ? duplicate_key(text, path, pos, msg, err) : 0;
}

/*
 * An object (every real input) is validated and pruned in one pass by the
 * scanner, so only what the readers use becomes a json-c tree; anything
 * else is small or refused anyway and goes to json-c as it is.
 * '*seen' counts the resources or changes walked (SIZE_MAX: let the reader
 * count).
 */
static int parse_document(struct json_object **out, size_t *seen,
                          const struct ndp_bytes *text, bool mapped,
                          const char *path,
                          const struct ndp_input_options *opt,
                          struct ndp_error *err)
{
    struct ndp_error strict_err = NDP_ERROR_INIT;
    bool object = text->data[strspn(text->data, " \t\r\n")] == '{';
    const char *msg = NULL;
    size_t pos = 0;
    int rc;

    *seen = SIZE_MAX;
    if (opt->whole_tree || !object) {
        rc = ndp_load_refuse_nul(text, path, err);
        if (rc)
            return rc;
        rc = ndp_load_parse_json(out, text, path, false, &strict_err);
        if (rc)
            return ndp_error_set(err, rc, "%s", strict_err.msg);
        rc = object ? check_duplicates(text, path, opt->tuning, err) : 0;
        if (rc) {
            json_object_put(*out);
            *out = NULL;
        }
        return rc;
    }
    rc = ndp_parse_pruned(out, seen, text->data, text->len, mapped,
                          opt->tuning, &pos, &msg);
    if (rc == 0)
        return 0;
    return refused_by_scanner(out, seen, text, path, rc, pos, msg, err);
}

/* Is standard input a JSON object in UTF-8?  Waits for its first byte
 * that is not whitespace (a byte order mark is not). */
static bool stream_is_object(struct ndp_load *in)
{
    size_t pos = 0, len = 0;
    bool complete = false;

    for (;;) {
        if (pos < len && strchr(" \t\r\n", in->text.data[pos]) &&
            in->text.data[pos] != '\0') {
            pos++;
        } else if (pos < len) {
            return in->text.data[pos] == '{';
        } else if (complete) {
            return false;
        } else {
            len = ndp_load_wait(in, pos + 1, &complete);
        }
    }
}

/*
 * Standard input that is a JSON object: validated and pruned while the
 * rest of it is still coming in, then judged like a file once all of it
 * is there (a read error or the size limit come first).  Once the scanner
 * has refused it, the rest is not read.
 */
static int parse_streamed(struct json_object **out, size_t *seen,
                          struct ndp_load *in, const char *path,
                          size_t max_bytes, struct ndp_error *err)
{
    struct ndp_text_source src = { ndp_load_wait, in };
    const char *msg = NULL;
    size_t pos = 0;
    int parsed = ndp_parse_pruned_stream(out, seen, in->text.data, &src,
                                         &pos, &msg);
    int rc;

    /* Refused: the rest (/dev/zero after '{'?) need not be read. */
    if (parsed)
        ndp_load_stop(in);
    rc = ndp_load_finish(in, max_bytes, err);

    if (rc && !parsed) {
        json_object_put(*out);
        *out = NULL;
    }
    if (rc || !parsed)
        return rc;
    return refused_by_scanner(out, seen, &in->text, path, parsed, pos, msg,
                              err);
}

/* "$schema": ".../deploymentTemplate.json#" (or subscriptionDeploymentTemplate, ...) */
static bool is_arm_template(const struct json_object *root)
{
    const char *schema = ndp_json_get_string(root, "$schema");

    return schema && ndp_json_get(root, "resources") &&
           (strstr(schema, "deploymentTemplate") ||
            strstr(schema, "DeploymentTemplate"));
}

static const char *sniff_format(const struct json_object *root)
{
    if (!json_object_is_type(root, json_type_object) ||
        ndp_json_get(root, "plan_format_version"))
        return NULL;
    if (ndp_json_get(root, "format_version") ||
        ndp_json_get(root, "resource_changes"))
        return "terraform-plan";
    if (ndp_json_get(root, "changes") ||
        ndp_json_get(ndp_json_get(root, "properties"), "changes") ||
        ndp_json_get(ndp_json_get(root, "properties"), "potentialChanges"))
        return "arm-whatif";
    if (is_arm_template(root))
        return "arm-template";
    /* An x-ms-examples file around a WhatIfOperationResult. */
    root = ndp_json_get(ndp_json_get(ndp_json_get(root, "responses"), "200"),
                        "body");
    if (ndp_json_get(ndp_json_get(root, "properties"), "changes"))
        return "arm-whatif";
    return NULL;
}

static int describe_unknown(const struct json_object *root, const char *path,
                            struct ndp_error *err)
{
    if (!json_object_is_type(root, json_type_object))
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is a JSON %s, not a Terraform plan or a "
                             "what-if result (expected an object with "
                             "'format_version' and 'resource_changes', or "
                             "'changes')", path,
                             json_type_to_name(json_object_get_type(root)));
    if (ndp_json_get(root, "plan_format_version"))
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is an HCP Terraform redacted JSON plan, "
                             "not 'terraform show -json' output; run "
                             "'terraform show -json PLANFILE' locally", path);
    return ndp_error_set(err, NDP_ESCHEMA,
                         "'%s' is JSON but neither a Terraform plan nor a "
                         "what-if result (no 'format_version', "
                         "'resource_changes' or 'changes' at the top level)",
                         path);
}

/* The input formats, in the order help and messages list them. */
static const struct ndp_reader {
    const char *format;
    int (*read)(struct ndp_changeset *set, size_t input_index,
                const struct ndp_document *doc, struct ndp_error *err);
} readers[] = {
    { "terraform-plan", ndp_tfplan_read },
    { "arm-whatif", ndp_whatif_read },
    { "arm-template", ndp_template_read },
};

static const struct ndp_reader *find_reader(const char *format)
{
    size_t i;

    for (i = 0; format && i < NDP_ARRAY_SIZE(readers); i++)
        if (strcmp(readers[i].format, format) == 0)
            return &readers[i];
    return NULL;
}

const char *ndp_input_format_name(size_t i)
{
    return i < NDP_ARRAY_SIZE(readers) ? readers[i].format : NULL;
}

bool ndp_input_format_known(const char *name)
{
    return find_reader(name) != NULL;
}

/* Everything after loading. */
static int read_text(struct ndp_changeset *set, const char *path,
                     struct ndp_load *in,
                     const struct ndp_input_options *opt,
                     struct ndp_error *err)
{
    struct json_object *root = NULL;
    const struct ndp_reader *reader;
    const struct ndp_bytes *text = &in->text;
    size_t index, seen = SIZE_MAX;
    int rc;

    if (ndp_load_streaming(in) && !opt->whole_tree &&
        stream_is_object(in)) {
        rc = parse_streamed(&root, &seen, in, path, opt->max_bytes, err);
    } else {
        rc = ndp_load_finish(in, opt->max_bytes, err);
        if (!rc)
            rc = ndp_load_to_utf8(in, path, err);
        if (!rc)
            rc = ndp_load_check_not_json(text, path, EXPECT_INPUT, err);
        if (!rc)
            rc = parse_document(&root, &seen, text, ndp_load_mapped(in),
                                path, opt, err);
    }
    if (rc)
        goto out;
    reader = find_reader(opt->force_format ? opt->force_format
                                           : sniff_format(root));
    if (!reader) {
        rc = describe_unknown(root, path, err);
        goto out;
    }
    index = ndp_changeset_add_input(set, path);
    set->inputs[index].format = reader->format;
    {
        struct ndp_document doc = { path, text->data, text->len, root, seen };
        size_t first = set->nr;
        rc = reader->read(set, index, &doc, err);
        if (!rc)
            ndp_facts_fill_all(set, first);
    }
    /* The pruned lists hold only AKS entries: report what the file had. */
    if (seen != SIZE_MAX)
        set->inputs[index].resources_seen = seen;
    if (!rc && set->nr > NDP_MAX_AKS_RESOURCES)
        rc = ndp_error_set(err, NDP_ELIMIT, "'%s' brings the number of AKS "
                           "resources to %zu, more than the limit of %d",
                           path, set->nr, NDP_MAX_AKS_RESOURCES);
out:
    json_object_put(root);
    return rc;
}

int ndp_input_read(struct ndp_changeset *set, const char *path,
                   const struct ndp_input_options *opt, struct ndp_error *err)
{
    struct ndp_load in = NDP_LOAD_INIT;
    int rc = ndp_load_file(&in, path, opt->max_bytes, err);

    if (!rc)
        rc = read_text(set, path, &in, opt, err);
    /* A file truncated or rewritten meanwhile: not what it was read as. */
    rc = ndp_load_check_unchanged(&in, path, rc, err);
    ndp_load_release(&in);
    return rc;
}

int ndp_input_read_bytes(struct ndp_changeset *set, const char *name,
                         const void *bytes, size_t len,
                         const struct ndp_input_options *opt,
                         struct ndp_error *err)
{
    struct ndp_load in = NDP_LOAD_INIT;
    int rc = 0;

    if (len > opt->max_bytes)
        return ndp_error_set(err, NDP_ELIMIT, "'%s' is larger than the "
                             "input limit of %zu bytes (see "
                             "--max-input-bytes)", name, opt->max_bytes);
    ndp_load_copy(&in, bytes, len);
    rc = read_text(set, name, &in, opt, err);
    ndp_load_release(&in);
    return rc;
}
