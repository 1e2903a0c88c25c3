/*
 * SPDX-License-Identifier: Apache-2.0
 * input.c - first stage of the pipeline: bytes in, reader chosen.
 *
 * Has the bytes loaded (input_load.c: mapped, or standard input read by a
 * thread while the scanner already works on it), refuses what is plainly
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

static bool is_blank(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (s[i] == '\0' || !strchr(" \t\r\n", s[i]))
            return false;
    return true;
}

/* Can a JSON value start here?  (Text output and error messages cannot.) */
static bool looks_like_json(const char *s)
{
    if (*s != '\0' && strchr("{[\"-0123456789", *s))
        return true;
    return strncmp(s, "true", 4) == 0 || strncmp(s, "false", 5) == 0 ||
           strncmp(s, "null", 4) == 0;
}

/* Refuses inputs that are not JSON at all, saying what they look like. */
#define EXPECT_INPUT "'terraform show -json PLANFILE' or 'az deployment " \
                     "group what-if --no-pretty-print' output"
#define EXPECT_STATE "'az aks show -o json', 'az aks " \
                     "maintenanceconfiguration list -o json' or 'az aks " \
                     "nodepool list -o json' output"

/*
 * A NUL byte means a binary file, whatever else is wrong with it.  The
 * scanner refuses a NUL anywhere in a document, so a document it accepts
 * needs no separate pass over its bytes for this.
 */
static int refuse_nul(const struct ndp_bytes *text, const char *path,
                      struct ndp_error *err)
{
    const char *nul = memchr(text->data, '\0', text->len);

    if (!nul)
        return 0;
    return ndp_error_set(err, NDP_EPARSE, "'%s' contains a NUL byte at "
                         "offset %zu; not a JSON text file", path,
                         (size_t)(nul - text->data));
}

/* 'expected' says what the file should have been, for the messages. */
static int check_not_json(const struct ndp_bytes *text, const char *path,
                          const char *expected, struct ndp_error *err)
{
    const char *s = text->data;
    size_t skip = strspn(s, " \t\r\n");
    char head[48];
    size_t i, n;
    int rc;

    if (text->len == 0 || is_blank(s, text->len))
        return ndp_error_set(err, NDP_ESCHEMA, "'%s' is empty; expected %s",
                             path, expected);
    if (text->len >= 4 && memcmp(s, "PK\003\004", 4) == 0)
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is a binary Terraform plan (a zip "
                             "archive); run 'terraform show -json %s > "
                             "plan.json' and pass plan.json",
                             path, path);
    if (looks_like_json(s + skip))
        return 0;
    rc = refuse_nul(text, path, err);
    if (rc)
        return rc;
    n = 0;
    for (i = skip; i < text->len && n < sizeof(head) - 1; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r')
            break;
        head[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    head[n] = '\0';
    return ndp_error_set(err, NDP_EPARSE,
                         "'%s' is not JSON (it begins with '%s'); expected "
                         "%s, not text output or an error message",
                         path, head, expected);
}

/* 1-based line of byte 'offset' of 'text'. */
static long line_at(const struct ndp_bytes *text, size_t offset)
{
    long line = 1;
    size_t i;

    for (i = 0; i < offset && i < text->len; i++)
        if (text->data[i] == '\n')
            line++;
    return line;
}

/*
 * Feeds 'text' to the tokener in chunks json-c's int lengths can hold.
 * Sets '*truncated' when the text ends inside the document.
 */
static struct json_object *tokenize(struct json_tokener *tok,
                                    const struct ndp_bytes *text, size_t *end,
                                    bool *truncated)
{
    const size_t chunk = (size_t)1 << 30;
    struct json_object *root = NULL;
    size_t done = 0;

    do {
        size_t n = text->len - done < chunk ? text->len - done : chunk;
        root = json_tokener_parse_ex(tok, text->data + done, (int)n);
        *end = done + json_tokener_get_parse_end(tok);
        done += n;
    } while (!root && json_tokener_get_error(tok) == json_tokener_continue &&
             done < text->len);
    *truncated = false;
    /* A top-level number ends only at a delimiter: offer the final NUL. */
    if (!root && json_tokener_get_error(tok) == json_tokener_continue) {
        root = json_tokener_parse_ex(tok, text->data + text->len, 1);
        /* JSON null parses to NULL with success. */
        *truncated = json_tokener_get_error(tok) != json_tokener_success;
        if (!*truncated)
            *end = text->len;
    }
    return root;
}

static int parse_json(struct json_object **out, const struct ndp_bytes *text,
                      const char *path, bool lenient, struct ndp_error *err)
{
    struct json_tokener *tok = json_tokener_new_ex(NDP_MAX_JSON_DEPTH);
    struct json_object *root;
    enum json_tokener_error jerr;
    size_t end = 0;
    bool truncated;
    int rc = 0;

    json_tokener_set_flags(tok, lenient ? JSON_TOKENER_VALIDATE_UTF8
                                        : JSON_TOKENER_STRICT |
                                              JSON_TOKENER_VALIDATE_UTF8);
    root = tokenize(tok, text, &end, &truncated);
    jerr = json_tokener_get_error(tok);
    if (truncated) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' ends in the middle of the JSON document "
                           "(truncated at line %ld, byte %zu)",
                           path, line_at(text, text->len),
                           text->len);
    } else if (!root && jerr != json_tokener_success) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' is not valid JSON: %s at line %ld (byte %zu)",
                           path, json_tokener_error_desc(jerr),
                           line_at(text, end), end);
    } else if (!is_blank(text->data + end, text->len - end)) {
        rc = ndp_error_set(err, NDP_EPARSE,
                           "'%s' is not valid JSON: unexpected data after "
                           "the document at line %ld (byte %zu)",
                           path, line_at(text, end), end);
    }
    json_tokener_free(tok);
    if (rc)
        json_object_put(root);
    else
        *out = root;
    return rc;
}

/* Where and why the scanner refused 'text', in a message. */
static int scan_error(const struct ndp_bytes *text, const char *path,
                      size_t pos, const char *msg, struct ndp_error *err)
{

    if (pos >= text->len)
        return ndp_error_set(err, NDP_EPARSE,
                             "'%s' ends in the middle of the JSON document "
                             "(truncated at line %ld, byte %zu)",
                             path, line_at(text, text->len),
                             text->len);
    return ndp_error_set(err, NDP_EPARSE,
                         "'%s' is not valid JSON: %s at line %ld (byte %zu)",
                         path, msg ? msg : "syntax error",
                         line_at(text, pos), pos);
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
        parse_json(&root, text, path, true, &ignored) != 0)
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
                       path, key.buf, where, line_at(text, pos),
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
    int nul = refuse_nul(text, path, err);

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
                            struct ndp_error *err)
{
    struct json_object *pruned = NULL;
    const char *msg = NULL;
    size_t pos = 0, seen;
    int rc = ndp_parse_pruned(&pruned, &seen, text->data, text->len, &pos,
                              &msg);

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
                          const struct ndp_bytes *text, const char *path,
                          bool whole_tree, struct ndp_error *err)
{
    struct ndp_error strict_err = NDP_ERROR_INIT;
    bool object = text->data[strspn(text->data, " \t\r\n")] == '{';
    const char *msg = NULL;
    size_t pos = 0;
    int rc;

    *seen = SIZE_MAX;
    if (whole_tree || !object) {
        rc = refuse_nul(text, path, err);
        if (rc)
            return rc;
        rc = parse_json(out, text, path, false, &strict_err);
        if (rc)
            return ndp_error_set(err, rc, "%s", strict_err.msg);
        rc = object ? check_duplicates(text, path, err) : 0;
        if (rc) {
            json_object_put(*out);
            *out = NULL;
        }
        return rc;
    }
    rc = ndp_parse_pruned(out, seen, text->data, text->len, &pos, &msg);
    if (rc == 0)
        return 0;
    return refused_by_scanner(out, seen, text, path, rc, pos, msg, err);
}

/* Is standard input a JSON object in UTF-8?  Waits for its first byte
 * that is not whitespace (a byte order mark is not). */
static bool stream_is_object(struct ndp_input_bytes *in)
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
            len = ndp_input_bytes_wait(in, pos + 1, &complete);
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
                          struct ndp_input_bytes *in, const char *path,
                          size_t max_bytes, struct ndp_error *err)
{
    struct ndp_text_source src = { ndp_input_bytes_wait, in };
    const char *msg = NULL;
    size_t pos = 0;
    int parsed = ndp_parse_pruned_stream(out, seen, in->text.data, &src,
                                         &pos, &msg);
    int rc;

    /* Refused: the rest (/dev/zero after '{'?) need not be read. */
    if (parsed)
        ndp_input_bytes_stop(in);
    rc = ndp_input_bytes_finish(in, max_bytes, err);

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
                     struct ndp_input_bytes *in,
                     const struct ndp_input_options *opt,
                     struct ndp_error *err)
{
    struct json_object *root = NULL;
    const struct ndp_reader *reader;
    const struct ndp_bytes *text = &in->text;
    size_t index, seen = SIZE_MAX;
    int rc;

    if (ndp_input_bytes_streaming(in) && !opt->whole_tree &&
        stream_is_object(in)) {
        rc = parse_streamed(&root, &seen, in, path, opt->max_bytes, err);
    } else {
        rc = ndp_input_bytes_finish(in, opt->max_bytes, err);
        if (!rc)
            rc = ndp_input_bytes_to_utf8(in, path, err);
        if (!rc)
            rc = check_not_json(text, path, EXPECT_INPUT, err);
        if (!rc)
            rc = parse_document(&root, &seen, text, path, opt->whole_tree,
                                err);
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
    struct ndp_input_bytes in = NDP_INPUT_BYTES_INIT;
    int rc = ndp_input_bytes_load(&in, path, opt->max_bytes, err);

    if (!rc)
        rc = read_text(set, path, &in, opt, err);
    ndp_input_bytes_release(&in);
    return rc;
}

int ndp_input_read_bytes(struct ndp_changeset *set, const char *name,
                         const void *bytes, size_t len,
                         const struct ndp_input_options *opt,
                         struct ndp_error *err)
{
    struct ndp_input_bytes in = NDP_INPUT_BYTES_INIT;
    int rc = 0;

    if (len > opt->max_bytes)
        return ndp_error_set(err, NDP_ELIMIT, "'%s' is larger than the "
                             "input limit of %zu bytes (see "
                             "--max-input-bytes)", name, opt->max_bytes);
    ndp_input_bytes_copy(&in, bytes, len);
    rc = read_text(set, name, &in, opt, err);
    ndp_input_bytes_release(&in);
    return rc;
}

int ndp_input_load_json(struct json_object **out, const char *path,
                        size_t max_bytes, const char *expected,
                        struct ndp_error *err)
{
    struct ndp_input_bytes in = NDP_INPUT_BYTES_INIT;
    int rc = ndp_input_bytes_load(&in, path, max_bytes, err);

    if (!rc)
        rc = ndp_input_bytes_finish(&in, max_bytes, err);
    if (!rc)
        rc = ndp_input_bytes_to_utf8(&in, path, err);
    if (!rc)
        rc = check_not_json(&in.text, path,
                            expected ? expected : EXPECT_STATE, err);
    if (!rc)
        rc = refuse_nul(&in.text, path, err);
    if (!rc)
        rc = parse_json(out, &in.text, path, false, err);
    ndp_input_bytes_release(&in);
    return rc;
}
