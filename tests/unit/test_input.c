/*
 * SPDX-License-Identifier: Apache-2.0
 * test_input.c - the bad-input table: malformed, hostile and merely wrong
 * files, each refused with NDP_E* and a message that names the file and
 * says what it is; and the encodings that are read (UTF-16 with a BOM,
 * UTF-8 with a BOM).  Every case goes through ndp_input_read() from a real
 * file, as the command does.
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "input.h"
#include "input/input_internal.h"
#include "load.h"
#include "platform_config.h"
#include "../stream_pieces.h"

#include <sys/stat.h>
#include <unistd.h>

#define PLAN "{\"format_version\":\"1.2\",\"resource_changes\":[]}"
#define DUPLICATE_TYPE "{\"format_version\":\"1.2\",\"resource_changes\":[{" \
    "\"type\":\"null_resource\",\"change\":{},\"type\":" \
    "\"azurerm_kubernetes_cluster\"}]}"

struct input_case {
    const char *name;
    const char *bytes;   /* NULL: built by 'build' */
    size_t len;          /* 0: strlen(bytes) */
    void (*build)(struct ndp_buf *out);
    int code;            /* 0 or NDP_E* */
    const char *fragment;
};

static void utf16(struct ndp_buf *out, const char *ascii, bool big_endian)
{
    const char *p;

    ndp_buf_add(out, big_endian ? "\xFE\xFF" : "\xFF\xFE", 2);
    for (p = ascii; *p; p++) {
        char unit[2] = { big_endian ? 0 : *p, big_endian ? *p : 0 };
        ndp_buf_add(out, unit, 2);
    }
}

static void utf16le_plan(struct ndp_buf *out) { utf16(out, PLAN, false); }
static void utf16be_plan(struct ndp_buf *out) { utf16(out, PLAN, true); }

static void utf16_odd(struct ndp_buf *out)
{
    utf16(out, PLAN, false);
    ndp_buf_addch(out, 'x');
}

static void utf16_lone_surrogate(struct ndp_buf *out)
{
    utf16(out, "{\"a\":\"", false);
    ndp_buf_add(out, "\x00\xD8", 2); /* U+D800 alone, little-endian */
    ndp_buf_add(out, "\"\x00}\x00", 4);
}

static void deep_nesting(struct ndp_buf *out)
{
    int i;

    for (i = 0; i < 600; i++)
        ndp_buf_addch(out, '[');
    for (i = 0; i < 600; i++)
        ndp_buf_addch(out, ']');
}

static void nul_inside(struct ndp_buf *out)
{
    ndp_buf_add(out, "{\"format_version\":\"1.2\",\0\"x\":1}", 31);
}

static void too_many_clusters(struct ndp_buf *out)
{
    int i;

    ndp_buf_adds(out, "{\"format_version\":\"1.2\",\"resource_changes\":[");
    for (i = 0; i <= NDP_MAX_AKS_RESOURCES; i++)
        ndp_buf_addf(out, "%s{\"address\":\"azurerm_kubernetes_cluster.c%d\","
                     "\"mode\":\"managed\",\"type\":\"azurerm_kubernetes_cluster\","
                     "\"change\":{\"actions\":[\"no-op\"],\"before\":{},"
                     "\"after\":{}}}", i ? "," : "", i);
    ndp_buf_adds(out, "]}");
}

static const struct input_case cases[] = {
    { "empty file", "", 0, NULL, NDP_ESCHEMA, "is empty" },
    { "only whitespace", " \n\t\r\n", 0, NULL, NDP_ESCHEMA, "is empty" },
    { "binary plan (zip)", "PK\003\004\024\000\000\000", 8, NULL, NDP_ESCHEMA,
      "run 'terraform show -json" },
    { "NUL byte", NULL, 0, nul_inside, NDP_EPARSE, "contains a NUL byte" },
    { "terraform error text", "Error: Failed to load plugin schemas\n", 0, NULL,
      NDP_EPARSE, "is not JSON (it begins with a word, as text output" },
    { "HTML instead of JSON", "<html><body>Sign in</body></html>", 0, NULL,
      NDP_EPARSE, "is not JSON (it begins with '<', as HTML or XML does)" },
    { "a script instead of JSON", "#!/bin/sh\nexport TOKEN=secret\n", 0, NULL,
      NDP_EPARSE, "is not JSON (it begins with '#', as a script or a comment "
      "does)" },
    { "terraform show text", "\nTerraform will perform the following actions:\n",
      0, NULL, NDP_EPARSE, "is not JSON" },
    { "what-if pretty text", "Resource and property changes are indicated with these symbols:\n",
      0, NULL, NDP_EPARSE, "is not JSON" },
    { "ansi escape text", "\033[31mError\033[0m", 0, NULL, NDP_EPARSE,
      "begins with a terminal escape sequence" },
    { "setup-terraform wrapper", "[command]/usr/bin/terraform show -json "
      "tfplan\n" PLAN "\n::debug::Terraform exited with code 0.\n", 0, NULL,
      NDP_EPARSE, "begins with '[command]', the line the terraform wrapper of "
      "hashicorp/setup-terraform writes before terraform's output: set "
      "'terraform_wrapper: false' on the setup-terraform step" },
    { "setup-terraform wrapper after blank lines", "\r\n [command]x\n" PLAN,
      0, NULL, NDP_EPARSE, "set 'terraform_wrapper: false'" },
    { "an array that starts with a string is JSON", "[\"command\"]", 0, NULL,
      NDP_ESCHEMA, NULL },
    { "truncated download", "{\"format_version\":\"1.2\",\"resource_changes\":[{\"type\":",
      0, NULL, NDP_EPARSE, "ends in the middle" },
    { "trailing garbage", PLAN " trailing", 0, NULL, NDP_EPARSE,
      "is not valid JSON" },
    { "two documents", PLAN PLAN, 0, NULL, NDP_EPARSE, "is not valid JSON" },
    { "top-level array", "[1,2]", 0, NULL, NDP_ESCHEMA, "is a JSON array" },
    { "top-level string", "\"plan\"", 0, NULL, NDP_ESCHEMA, "is a JSON string" },
    { "top-level number", "42", 0, NULL, NDP_ESCHEMA, "is a JSON int" },
    { "top-level null", "null", 0, NULL, NDP_ESCHEMA, "is a JSON null" },
    { "unrelated object", "{\"name\":\"x\"}", 0, NULL, NDP_ESCHEMA,
      "neither a Terraform plan nor a what-if result" },
    { "HCP redacted plan", "{\"plan_format_version\":\"1.1\",\"resource_changes\":[]}",
      0, NULL, NDP_ESCHEMA, "HCP Terraform redacted" },
    { "terraform state", "{\"format_version\":\"1.0\",\"values\":{\"root_module\":{}}}",
      0, NULL, NDP_ESCHEMA, "is a Terraform state" },
    { "future format version", "{\"format_version\":\"2.0\",\"resource_changes\":[]}",
      0, NULL, NDP_ESCHEMA, "format_version '2.0'" },
    { "format version as number", "{\"format_version\":1.2,\"resource_changes\":[]}",
      0, NULL, NDP_ESCHEMA, "'format_version'" },
    { "errored plan", "{\"format_version\":\"1.2\",\"errored\":true}", 0, NULL,
      NDP_ESCHEMA, "failed 'terraform plan'" },
    { "resource_changes not array", "{\"format_version\":\"1.2\",\"resource_changes\":{}}",
      0, NULL, NDP_ESCHEMA, "'resource_changes' is not an array" },
    { "planned_values only", "{\"format_version\":\"1.2\",\"planned_values\":{\"root_module\":"
      "{\"resources\":[{\"address\":\"a.b\"}]}}}", 0, NULL, NDP_ESCHEMA,
      "has no 'resource_changes'" },
    { "resource change without type", "{\"format_version\":\"1.2\",\"resource_changes\":"
      "[{\"address\":\"a.b\"}]}", 0, NULL, NDP_ESCHEMA, "has no 'type' or 'change'" },
    { "resource change not object", "{\"format_version\":\"1.2\",\"resource_changes\":[7]}",
      0, NULL, NDP_ESCHEMA, "has no 'type' or 'change'" },
    { "azapi body string not JSON", "{\"format_version\":\"1.2\",\"resource_changes\":[{"
      "\"address\":\"azapi_resource.a\",\"mode\":\"managed\",\"type\":\"azapi_resource\","
      "\"change\":{\"actions\":[\"update\"],\"before\":{\"type\":"
      "\"Microsoft.ContainerService/managedClusters@2024-02-01\",\"body\":\"{not json\"},"
      "\"after\":{}}}]}", 0, NULL, NDP_ESCHEMA, "'body' is a string that is not valid JSON" },
    { "deferred_changes not array", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[],\"deferred_changes\":{}}", 0, NULL, NDP_ESCHEMA,
      "'deferred_changes' is not an array" },
    { "deferred change without resource_change", "{\"format_version\":\"1.2\","
      "\"complete\":false,\"deferred_changes\":[{\"reason\":\"absent_prereq\"}]}",
      0, NULL, NDP_ESCHEMA, "deferred_changes entry without a 'resource_change'" },
    { "deferred change without type", "{\"format_version\":\"1.2\","
      "\"deferred_changes\":[{\"reason\":\"unknown\",\"resource_change\":"
      "{\"address\":\"a.b\"}}]}", 0, NULL, NDP_ESCHEMA,
      "deferred_changes entry a.b has no 'type' or 'change'" },
    { "failed what-if", "{\"status\":\"Failed\",\"error\":{\"code\":\"InvalidTemplate\","
      "\"message\":\"bad\"},\"changes\":[]}", 0, NULL, NDP_ESCHEMA,
      "failed what-if (error InvalidTemplate: bad)" },
    { "what-if status failed", "{\"status\":\"Failed\",\"changes\":[]}", 0, NULL,
      NDP_ESCHEMA, "status Failed" },
    { "what-if change not object", "{\"changes\":[1]}", 0, NULL, NDP_ESCHEMA,
      "changes[0] is not an object" },
    { "deployment stacks what-if", "{\"properties\":{\"changes\":{\"resourceChanges\":[]}}}",
      0, NULL, NDP_ESCHEMA, "no 'changes' array" },
    { "template without resources list", "{\"$schema\":\"https://schema.management.azure.com/"
      "schemas/2019-04-01/deploymentTemplate.json#\",\"resources\":7}", 0, NULL,
      NDP_ESCHEMA, "without a 'resources' array" },
    { "UTF-16LE with BOM", NULL, 0, utf16le_plan, 0, NULL },
    { "UTF-16BE with BOM", NULL, 0, utf16be_plan, 0, NULL },
    { "UTF-8 BOM", "\xEF\xBB\xBF" PLAN, 0, NULL, 0, NULL },
    { "UTF-16 odd length", NULL, 0, utf16_odd, NDP_EPARSE, "odd number of bytes" },
    { "UTF-16 lone surrogate", NULL, 0, utf16_lone_surrogate, NDP_EPARSE,
      "invalid code unit" },
    { "invalid UTF-8", "{\"format_version\":\"1.2\",\"x\":\"\xC3\x28\"}", 0, NULL,
      NDP_EPARSE, "is not valid JSON" },
    /* Leniencies of json-c's strict mode, kept so that ndplint accepts
     * exactly what json-c does (the streaming reader is held to the same). */
    { "overlong UTF-8 (json-c accepts)", "{\"format_version\":\"1.2\",\"resource_changes\":[],"
      "\"x\":\"\xC0\xAF\"}", 0, NULL, 0, NULL },
    { "raw tab in string (json-c accepts)", "{\"format_version\":\"1.2\",\"resource_changes\":[],"
      "\"x\":\"a\tb\"}", 0, NULL, 0, NULL },
    { "raw newline in string (json-c accepts)", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[],\"x\":\"a\nb\"}", 0, NULL, 0, NULL },
    { "single quotes", "{'format_version':'1.2'}", 0, NULL, NDP_EPARSE,
      "is not valid JSON" },
    { "comment", "{/* c */\"format_version\":\"1.2\"}", 0, NULL, NDP_EPARSE,
      "is not valid JSON" },
    { "trailing comma", "{\"format_version\":\"1.2\",}", 0, NULL, NDP_EPARSE,
      "is not valid JSON" },
    { "NaN (json-c accepts)", "{\"format_version\":\"1.2\",\"resource_changes\":[],"
      "\"x\":NaN}", 0, NULL, 0, NULL },
    { "Infinity (json-c accepts)", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[],\"x\":-Infinity}", 0, NULL, 0, NULL },
    { "lone surrogate escape (json-c accepts, U+FFFD)", "{\"format_version\":"
      "\"1.2\",\"resource_changes\":[],\"x\":\"\\ud800\"}", 0, NULL, 0, NULL },
    { "bare word", "{\"format_version\":\"1.2\",\"x\":undefined}", 0, NULL,
      NDP_EPARSE, "is not valid JSON" },
    { "leading zero", "{\"format_version\":\"1.2\",\"x\":01}", 0, NULL, NDP_EPARSE,
      "is not valid JSON" },
    { "nesting 600 deep", NULL, 0, deep_nesting, NDP_EPARSE, "is not valid JSON" },
    { "syntax error line", "{\n\"format_version\":\"1.2\",\n\"x\": }\n", 0, NULL,
      NDP_EPARSE, "at line 3" },
    { "more AKS resources than the limit", NULL, 0, too_many_clusters,
      NDP_ELIMIT, "more than the limit of 10000" },
    { "x-ms-examples what-if", "{\"responses\":{\"200\":{\"body\":{\"status\":"
      "\"Succeeded\",\"properties\":{\"changes\":[]}}}}}", 0, NULL, 0, NULL },
    { "plan without resource_changes, nothing planned", "{\"format_version\":\"1.2\","
      "\"planned_values\":{\"root_module\":{}}}", 0, NULL, 0, NULL },
};

static int read_file_as(const char *bytes, size_t len, struct ndp_error *err,
                        size_t max_bytes, bool whole_tree,
                        const struct ndp_input_tuning *tuning)
{
    char path[] = "/tmp/ndp-input-XXXXXX";
    int fd = mkstemp(path);
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_input_options opt = { .max_bytes = max_bytes,
                                     .whole_tree = whole_tree,
                                     .tuning = tuning };
    int rc;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    close(fd);
    rc = ndp_input_read(&set, path, &opt, err);
    if (rc != 0 && !strstr(err->msg, path))
        fail_msg("message does not name the file: %s", err->msg);
    ndp_changeset_release(&set);
    unlink(path);
    return rc;
}

static int read_bytes(const char *bytes, size_t len, struct ndp_error *err,
                      size_t max_bytes)
{
    return read_file_as(bytes, len, err, max_bytes, false, NULL);
}

/* ---- subnets -------------------------------------------------------------- */

#define SUBNET(addr, id, prefixes, actions) \
    "{\"address\":\"azurerm_subnet." addr "\",\"mode\":\"managed\"," \
    "\"type\":\"azurerm_subnet\",\"name\":\"" addr "\",\"change\":{" \
    "\"actions\":[" actions "],\"before\":null,\"after\":{\"id\":" id \
    ",\"address_prefixes\":" prefixes "},\"after_unknown\":{}," \
    "\"before_sensitive\":false,\"after_sensitive\":{}}}"

/*
 * An azurerm_subnet is kept, pruned or not, with the addresses its IPv4
 * prefixes leave usable (each prefix's size less the 5 Azure keeps); one
 * without an id or without a usable prefix, or deleted, is not.
 */
static void subnets__kept_with_their_usable_addresses(void **state)
{
    static const char plan[] =
        "{\"format_version\":\"1.2\",\"resource_changes\":["
        SUBNET("a", "\"/s/a\"", "[\"10.0.0.0/24\"]", "\"no-op\"") ","
        SUBNET("b", "\"/s/b\"", "[\"10.1.0.0/21\",\"fd00::/64\","
               "\"10.2.0.0/29\",\"10.3.0.0/31\",\"x/8\",7,\"10.4.0.0/33\","
               "\"10.4.0/24\",\"10.4.0.256/24\",\"10.4.0.0/-1\",\"1.2.3.4/ 8\"]",
               "\"update\"") ","
        SUBNET("c", "null", "[\"10.5.0.0/24\"]", "\"create\"") ","
        SUBNET("d", "\"/s/d\"", "[\"fd01::/64\"]", "\"no-op\"") ","
        "{\"address\":\"azurerm_subnet.e\",\"mode\":\"managed\","
        "\"type\":\"azurerm_subnet\",\"name\":\"e\",\"change\":{"
        "\"actions\":[\"delete\"],\"before\":{\"id\":\"/s/e\","
        "\"address_prefixes\":[\"10.6.0.0/24\"]},\"after\":null}}"
        "]}";
    size_t whole;

    (void)state;
    for (whole = 0; whole < 2; whole++) {
        char path[] = "/tmp/ndp-input-XXXXXX";
        int fd = mkstemp(path);
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        struct ndp_input_options opt = { .max_bytes = 1 << 20,
                                         .whole_tree = whole != 0 };
        struct ndp_error err = NDP_ERROR_INIT;

        assert_true(fd >= 0);
        assert_int_equal(write(fd, plan, sizeof(plan) - 1),
                         (ssize_t)(sizeof(plan) - 1));
        close(fd);
        assert_int_equal(ndp_input_read(&set, path, &opt, &err), 0);
        assert_int_equal(set.nr, 0);
        assert_int_equal(set.nr_subnets, 2);
        assert_string_equal(set.subnets[0].id, "/s/a");
        assert_string_equal(set.subnets[0].address, "azurerm_subnet.a");
        assert_string_equal(set.subnets[0].prefixes, "10.0.0.0/24");
        assert_int_equal(set.subnets[0].usable, 251);
        assert_string_equal(set.subnets[1].prefixes,
                            "10.1.0.0/21, 10.2.0.0/29, 10.3.0.0/31");
        assert_int_equal(set.subnets[1].usable, 2043 + 3 + 0);
        assert_false(set.subnets[1].sensitive);
        assert_int_equal(set.inputs[0].resources_seen, 5);
        ndp_changeset_release(&set);
        unlink(path);
    }
}

static void bad_inputs__refused_with_a_message_that_says_what_they_are(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        const struct input_case *c = &cases[i];
        struct ndp_buf bytes = NDP_BUF_INIT;
        struct ndp_error err = NDP_ERROR_INIT;
        int rc;

        if (c->build)
            c->build(&bytes);
        else
            ndp_buf_add(&bytes, c->bytes, c->len ? c->len : strlen(c->bytes));
        rc = read_bytes(bytes.buf, bytes.len, &err, NDP_DEFAULT_MAX_INPUT_BYTES);
        if (rc != c->code || (c->fragment && !strstr(err.msg, c->fragment)) ||
            strchr(err.msg, '\n')) {
            print_error("case '%s': code %d (want %d), message '%s' (want "
                        "'%s')\n", c->name, rc, c->code, err.msg,
                        c->fragment ? c->fragment : "");
            failures++;
        }
        ndp_buf_release(&bytes);
    }
    print_message("%zu input cases checked\n", NDP_ARRAY_SIZE(cases));
    assert_int_equal(failures, 0);
}

static void input_over_the_limit__refused(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_int_equal(read_bytes(PLAN, strlen(PLAN), &err, 10), NDP_ELIMIT);
    assert_non_null(strstr(err.msg, "larger than the input limit of 10 bytes"));
}

static void directory_and_missing_file__refused(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_input_options opt = { .max_bytes =
                                         NDP_DEFAULT_MAX_INPUT_BYTES };
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_int_equal(ndp_input_read(&set, "/tmp", &opt, &err), NDP_EIO);
    assert_non_null(strstr(err.msg, "'/tmp' is a directory"));
    ndp_error_clear(&err);
    assert_int_equal(ndp_input_read(&set, "/nonexistent/plan.json", &opt, &err),
                     NDP_EIO);
    assert_non_null(strstr(err.msg, "cannot open '/nonexistent/plan.json'"));
    ndp_changeset_release(&set);
}

/* A plan of exactly 'size' bytes: whitespace after the document. */
static void padded_plan(struct ndp_buf *out, size_t size)
{
    ndp_buf_adds(out, PLAN);
    while (out->len < size)
        ndp_buf_addch(out, ' ');
}

/* A mapped file ends at a page boundary: the byte after it still reads as
 * the end of the text, and a document cut there is reported as cut. */
static void file_of_whole_pages__read_to_its_end(void **state)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), i;

    (void)state;
    for (i = 1; i <= 2; i++) {
        struct ndp_buf plan = NDP_BUF_INIT, cut = NDP_BUF_INIT;
        struct ndp_error err = NDP_ERROR_INIT;

        padded_plan(&plan, i * page);
        assert_int_equal(plan.len, i * page);
        assert_int_equal(read_bytes(plan.buf, plan.len, &err,
                                    NDP_DEFAULT_MAX_INPUT_BYTES), 0);
        ndp_buf_adds(&cut, "{\"format_version\":\"");
        while (cut.len < i * page)
            ndp_buf_addch(&cut, 'x');
        assert_int_equal(read_bytes(cut.buf, cut.len, &err,
                                    NDP_DEFAULT_MAX_INPUT_BYTES), NDP_EPARSE);
        assert_non_null(strstr(err.msg, "ends in the middle"));
        ndp_buf_release(&plan);
        ndp_buf_release(&cut);
    }
}

/* Reads "-" with 'fd' as standard input. */
static int read_stdin_from(int fd, size_t max_bytes, struct ndp_error *err)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_input_options opt = { .max_bytes = max_bytes };
    int saved = dup(0), rc;

    assert_true(saved >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
    rc = ndp_input_read(&set, "-", &opt, err);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    ndp_changeset_release(&set);
    return rc;
}

static int pipe_holding(const char *text)
{
    int fds[2];

    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
    close(fds[1]);
    return fds[0];
}

static int read_one_way(const char *bytes, struct ndp_error *err, int how)
{
    struct ndp_input_tuning tuning = NDP_INPUT_TUNING_DEFAULT;

    if (how == 2 || how == 3) {
        tuning.split_min_bytes = 0;
        tuning.split_percent = tuning.early_percent = how == 3 ? 50 : 45;
    }
    return read_file_as(bytes, strlen(bytes), err,
                        NDP_DEFAULT_MAX_INPUT_BYTES, how == 1, &tuning);
}

/* Standard input: a pipe is read, a redirected file is mapped; both are
 * checked like a named file, limit included. */
static void standard_input__pipe_and_file(void **state)
{
    char path[] = "/tmp/ndp-input-XXXXXX";
    struct ndp_error err = NDP_ERROR_INIT;
    int fd;

    (void)state;
    assert_int_equal(read_stdin_from(pipe_holding(PLAN),
                                     NDP_DEFAULT_MAX_INPUT_BYTES, &err), 0);
    assert_int_equal(read_stdin_from(pipe_holding(PLAN), 10, &err),
                     NDP_ELIMIT);
    assert_non_null(strstr(err.msg, "'(stdin)' is larger than the input "
                                    "limit of 10 bytes"));
    ndp_error_clear(&err);
    assert_int_equal(read_stdin_from(pipe_holding("{\"format_version\":"),
                                     NDP_DEFAULT_MAX_INPUT_BYTES, &err),
                     NDP_EPARSE);
    assert_non_null(strstr(err.msg, "ends in the middle"));
    ndp_error_clear(&err);
    assert_int_equal(read_stdin_from(pipe_holding(DUPLICATE_TYPE),
                                     NDP_DEFAULT_MAX_INPUT_BYTES, &err),
                     NDP_ESCHEMA);
    assert_non_null(strstr(err.msg, "'-' has the key 'type' twice in an "
                                    "entry of 'resource_changes'"));
    ndp_error_clear(&err);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, PLAN, strlen(PLAN)), (ssize_t)strlen(PLAN));
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    assert_int_equal(read_stdin_from(fd, NDP_DEFAULT_MAX_INPUT_BYTES, &err),
                     0);
    unlink(path);
}

/*
 * A key twice where it decides what is judged: json-c (and so the readers)
 * keeps the last one, a scan that stopped at the first would judge another
 * entry.  Refused the same way by every reader: the pruned one on a file,
 * with a list split between two threads, and json-c on the whole tree
 * (standard input: below, and stream_check over fixtures/bad and the
 * corpus).
 */
#define TF_ENTRY(type, rest) "{\"format_version\":\"1.2\",\"resource_changes\":[" \
    "{\"address\":\"azurerm_kubernetes_cluster.main\",\"mode\":\"managed\"," \
    "\"type\":\"" type "\",\"name\":\"main\",\"change\":{\"actions\":" \
    "[\"update\"],\"before\":{\"sku_tier\":\"Free\"},\"after\":" \
    "{\"sku_tier\":\"Standard\"}}" rest "}]}"
#define AKS_ID "/subscriptions/s/resourceGroups/rg/providers/" \
    "Microsoft.ContainerService/managedClusters/aks"
#define WHATIF_ENTRY(rest) "{\"changes\":[{\"resourceId\":\"" AKS_ID "\"," \
    "\"changeType\":\"Modify\",\"before\":{},\"after\":{}" rest "}]}"

/* Many entries, the type twice in the last: a second thread finds it. */
static void duplicate_in_last_of_many(struct ndp_buf *out)
{
    int i;

    ndp_buf_adds(out, "{\"format_version\":\"1.2\",\"resource_changes\":[");
    for (i = 0; i < 40; i++)
        ndp_buf_addf(out, "{\"address\":\"null_resource.n%d\",\"mode\":"
                     "\"managed\",\"type\":\"null_resource\",\"change\":"
                     "{\"actions\":[\"no-op\"]}},", i);
    ndp_buf_adds(out, "{\"type\":\"null_resource\",\"change\":{},\"type\":"
                 "\"azurerm_kubernetes_cluster\"}],\"complete\":true}");
}

/* Many entries, then the list's key again, with an object this time. */
static void list_again_after_many(struct ndp_buf *out)
{
    duplicate_in_last_of_many(out);
    ndp_buf_setlen(out, out->len - strlen("{\"type\":\"null_resource\","
                   "\"change\":{},\"type\":\"azurerm_kubernetes_cluster\"}],"
                   "\"complete\":true}") - 1);
    ndp_buf_adds(out, "],\"resource_changes\":{}}");
}

static const struct input_case duplicate_cases[] = {
    { "resource_changes again after many entries", NULL, 0,
      list_again_after_many, NDP_ESCHEMA,
      "'resource_changes' twice in the top-level object" },
    { "type twice in the last of many entries", NULL, 0,
      duplicate_in_last_of_many, NDP_ESCHEMA,
      "'type' twice in an entry of 'resource_changes' at line 1" },
    { "type twice, the AKS type last", TF_ENTRY("null_resource",
      ",\"type\":\"azurerm_kubernetes_cluster\""), 0, NULL, NDP_ESCHEMA,
      "has the key 'type' twice in an entry of 'resource_changes' at line 1" },
    { "type twice, the AKS type first", TF_ENTRY("azurerm_kubernetes_cluster",
      ",\"type\":\"null_resource\""), 0, NULL, NDP_ESCHEMA,
      "'type' twice in an entry of 'resource_changes'" },
    { "type twice in an entry that is not AKS", TF_ENTRY("null_resource",
      ",\"type\":\"null_resource\""), 0, NULL, NDP_ESCHEMA, "'type' twice" },
    { "type twice, once escaped", TF_ENTRY("null_resource",
      ",\"typ\\u0065\":\"azurerm_kubernetes_cluster\""), 0, NULL,
      NDP_ESCHEMA, "'typ\\u0065' twice" },
    { "type twice, the first not a string", "{\"format_version\":\"1.2\",\"resource_changes\":[{"
      "\"type\":7,\"type\":\"azurerm_kubernetes_cluster\",\"change\":{}}]}",
      0, NULL, NDP_ESCHEMA, "'type' twice" },
    { "change twice in a cluster entry", TF_ENTRY("azurerm_kubernetes_cluster",
      ",\"change\":{\"actions\":[\"no-op\"],\"before\":{},\"after\":{}}"),
      0, NULL, NDP_ESCHEMA, "'change' twice in an entry of 'resource_changes'" },
    { "actions twice in a cluster change", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[{\"type\":\"azurerm_kubernetes_cluster\","
      "\"change\":{\"actions\":[\"update\"],\"actions\":[\"no-op\"]}}]}",
      0, NULL, NDP_ESCHEMA, "'actions' twice" },
    { "an attribute twice in a cluster's after", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[{\"type\":\"azurerm_kubernetes_cluster\","
      "\"change\":{\"actions\":[\"update\"],\"after\":{\"network_profile\":"
      "[{\"network_policy\":\"calico\",\"network_policy\":\"azure\"}]}}}]}",
      0, NULL, NDP_ESCHEMA, "'network_policy' twice" },
    { "an attribute twice after strings holding ':' and '\\\"'",
      "{\"format_version\":\"1.2\",\"resource_changes\":[{\"type\":"
      "\"azurerm_kubernetes_cluster\",\"change\":{\"actions\":[\"update\"],"
      "\"after\":{\"u\":\"https://a\\\":b:\",\"x\":1,\"x\":2}}}]}",
      0, NULL, NDP_ESCHEMA, "'x' twice" },
    { "an attribute twice after a '-quoted key holding ':' and '\"'",
      "{\"format_version\":\"1.2\",\"resource_changes\":[{\"type\":"
      "\"azurerm_kubernetes_cluster\",\"change\":{\"actions\":[\"update\"],"
      "\"after\":{'k:\"1':1,\"y\":1,\"y\":2}}}]}",
      0, NULL, NDP_ESCHEMA, "'y' twice" },
    { "':' in strings and keys, no key twice (read)",
      "{\"format_version\":\"1.2\",\"resource_changes\":[{\"type\":"
      "\"azurerm_kubernetes_cluster\",\"change\":{\"actions\":[\"update\"],"
      "\"after\":{'k:\"1':\"a:b\",\"u\":\"x\\\":\",\"v\":[{\"w\":\":\"}]}}}]}",
      0, NULL, 0, NULL },
    { "mode twice in an entry that is not AKS (read)", TF_ENTRY("null_resource",
      ",\"mode\":\"data\""), 0, NULL, 0, NULL },
    { "type twice in a planned_values resource (read)", "{\"format_version\":"
      "\"1.2\",\"planned_values\":{\"root_module\":{\"resources\":[{\"type\":"
      "\"a\",\"type\":\"b\"}]}},\"resource_changes\":[{\"type\":\"a\","
      "\"change\":{}}]}", 0, NULL, 0, NULL },
    { "resource_change twice in a deferred change", "{\"format_version\":"
      "\"1.2\",\"deferred_changes\":[{\"reason\":\"absent_prereq\","
      "\"resource_change\":{\"type\":\"null_resource\",\"change\":{}},"
      "\"resource_change\":{\"type\":\"azurerm_kubernetes_cluster\","
      "\"change\":{}}}]}", 0, NULL, NDP_ESCHEMA,
      "'resource_change' twice in an entry of 'deferred_changes'" },
    { "type twice in a deferred change", "{\"format_version\":\"1.2\","
      "\"deferred_changes\":[{\"reason\":\"absent_prereq\",\"resource_change\":"
      "{\"type\":\"null_resource\",\"change\":{},\"type\":"
      "\"azurerm_kubernetes_cluster\"}}]}", 0, NULL, NDP_ESCHEMA,
      "'type' twice in an entry of 'deferred_changes'" },
    { "reason twice in a deferred cluster change", "{\"format_version\":\"1.2\","
      "\"deferred_changes\":[{\"reason\":\"absent_prereq\",\"resource_change\":"
      "{\"type\":\"azurerm_kubernetes_cluster\",\"change\":{}},\"reason\":"
      "\"unknown\"}]}", 0, NULL, NDP_ESCHEMA, "'reason' twice" },
    { "deferred_changes twice", "{\"format_version\":\"1.2\",\"deferred_changes\":"
      "[],\"resource_changes\":[],\"deferred_changes\":[]}", 0, NULL, NDP_ESCHEMA,
      "'deferred_changes' twice in the top-level object" },
    { "resource_changes twice", "{\"format_version\":\"1.2\",\"resource_changes\":"
      "[{\"type\":\"azurerm_kubernetes_cluster\",\"change\":{}}],"
      "\"resource_changes\":[]}", 0, NULL, NDP_ESCHEMA,
      "'resource_changes' twice in the top-level object" },
    { "resourceId twice in a what-if change", WHATIF_ENTRY(
      ",\"resourceId\":\"/subscriptions/s/resourceGroups/rg/providers/"
      "Microsoft.Storage/storageAccounts/st\""), 0, NULL, NDP_ESCHEMA,
      "'resourceId' twice in an entry of 'changes'" },
    { "changeType twice in an AKS what-if change", WHATIF_ENTRY(
      ",\"changeType\":\"NoChange\""), 0, NULL, NDP_ESCHEMA,
      "'changeType' twice in an entry of 'changes'" },
    { "resourceId twice in a REST what-if change", "{\"status\":\"Succeeded\","
      "\"properties\":{\"changes\":[{\"resourceId\":\"/x\",\"resourceId\":\""
      AKS_ID "\",\"changeType\":\"Modify\"}]}}", 0, NULL, NDP_ESCHEMA,
      "'resourceId' twice in an entry of 'properties.changes'" },
    { "type twice in a configuration resource", "{\"format_version\":\"1.2\","
      "\"resource_changes\":[],\"configuration\":{\"root_module\":{"
      "\"resources\":[{\"address\":\"a.b\",\"type\":\"a\",\"type\":"
      "\"azurerm_kubernetes_cluster_node_pool\"}]}}}", 0, NULL, NDP_ESCHEMA,
      "'type' twice in a resource of 'configuration'" },
};

/* 'how': 0 a file, 1 the whole tree, 2 and 3 a split list. */
static int read_one_way(const char *bytes, struct ndp_error *err, int how);

static void duplicated_keys__refused_by_every_reader(void **state)
{
    static const char *const ways[] = { "file", "whole tree",
                                        "split at 0%", "split at 50%" };
    size_t i, failures = 0;
    int how;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(duplicate_cases); i++) {
        const struct input_case *c = &duplicate_cases[i];
        struct ndp_buf bytes = NDP_BUF_INIT;

        if (c->build)
            c->build(&bytes);
        else
            ndp_buf_adds(&bytes, c->bytes);
        for (how = 0; how < 4; how++) {
            struct ndp_error err = NDP_ERROR_INIT;
            int rc = read_one_way(bytes.buf, &err, how);
            if (rc != c->code ||
                (c->fragment && !strstr(err.msg, c->fragment)) ||
                strchr(err.msg, '\n')) {
                print_error("case '%s', %s: code %d (want %d), message '%s' "
                            "(want '%s')\n", c->name, ways[how], rc,
                            c->code, err.msg, c->fragment ? c->fragment : "");
                failures++;
            }
        }
        ndp_buf_release(&bytes);
    }
    print_message("%zu duplicate-key cases checked\n",
                  NDP_ARRAY_SIZE(duplicate_cases));
    assert_int_equal(failures, 0);
}

/*
 * An azapi_update_resource of an agent pool has no name or parent_id: its
 * resource_id gives both (as a what-if resourceId does); one whose id is
 * not an agent pool's is left alone.
 */
static void azapi_update_of_a_pool__named_by_its_resource_id(void **state)
{
#define UPDATE_OF(id)                                                         \
    "{\"address\":\"azapi_update_resource.np\",\"mode\":\"managed\","      \
    "\"type\":\"azapi_update_resource\",\"name\":\"np\",\"change\":"       \
    "{\"actions\":[\"update\"],\"before\":{\"type\":\"Microsoft."           \
    "ContainerService/managedClusters/agentPools@2025-01-01\","            \
    "\"resource_id\":\"" id "\",\"name\":null,\"parent_id\":null,"        \
    "\"body\":{}},\"after\":{\"type\":\"Microsoft.ContainerService/"       \
    "managedClusters/agentPools@2025-01-01\",\"resource_id\":\"" id "\","  \
    "\"name\":null,\"parent_id\":null,\"body\":{}}}}"
    static const char plan[] =
        "{\"format_version\":\"1.2\",\"resource_changes\":["
        UPDATE_OF("/subscriptions/s/resourceGroups/rg/providers/Microsoft."
                  "ContainerService/managedClusters/aks/AGENTPOOLS/np1") ","
        UPDATE_OF("/subscriptions/s/resourceGroups/rg/providers/Microsoft."
                  "ContainerService/managedClusters/aks") "]}";
#undef UPDATE_OF
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_input_options opt = { .max_bytes = 1 << 20 };
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_int_equal(ndp_input_read_bytes(&set, "t.json", plan,
                                          sizeof(plan) - 1, &opt, &err), 0);
    assert_int_equal(set.nr, 2);
    assert_string_equal(set.items[0]->name, "np1");
    assert_string_equal(set.items[0]->parent_id,
                        "/subscriptions/s/resourceGroups/rg/providers/"
                        "Microsoft.ContainerService/managedClusters/aks");
    assert_null(set.items[1]->name);
    assert_null(set.items[1]->parent_id);
    ndp_changeset_release(&set);
}

/* The one table of input formats: names in order, the list as help and
 * --input-format's error spell it. */
static void input_formats__named_and_listed_as_help_spells_them(void **state)
{
    struct ndp_buf list = NDP_BUF_INIT;

    (void)state;
    assert_string_equal(ndp_input_format_name(0), "terraform-plan");
    assert_string_equal(ndp_input_format_name(1), "arm-whatif");
    assert_string_equal(ndp_input_format_name(2), "arm-template");
    assert_null(ndp_input_format_name(3));
    assert_true(ndp_input_format_known("arm-whatif"));
    assert_false(ndp_input_format_known("whatif"));
    assert_false(ndp_input_format_known(NULL));
    ndp_buf_add_names(&list, ndp_input_format_name, " or ");
    assert_string_equal(list.buf, "terraform-plan, arm-whatif or arm-template");
    ndp_buf_release(&list);
}

/*
 * Lines far into a long text whose entries are not marked (a document
 * read whole): each "address" member is found on its own line, whatever
 * the spans between them, long or short.
 */
static void document_locate__lines_far_into_a_long_text(void **state)
{
    static const size_t gaps[] = { 10, (size_t)17 << 20, 3, (size_t)33 << 20,
                                   (size_t)16 << 20 };
    struct ndp_buf text = NDP_BUF_INIT;
    struct ndp_locator loc = NDP_LOCATOR_INIT;
    struct ndp_document doc = { "long.json", NULL, 0, NULL, SIZE_MAX };
    long want[NDP_ARRAY_SIZE(gaps)], line = 1;
    char name[32];
    size_t i, k;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(gaps); i++) {
        /* A gap of short lines and long ones, then the member. */
        for (k = 0; k < gaps[i]; k++) {
            bool newline = k % 7 == 3 || (k / 4096) % 5 == 1;

            ndp_buf_addch(&text, newline ? '\n' : ' ');
            line += newline;
        }
        snprintf(name, sizeof(name), "r%zu", i);
        ndp_buf_addf(&text, "\"address\": \"%s\"\n", name);
        want[i] = line++;
    }
    doc.text = text.buf;
    doc.len = text.len;
    for (i = 0; i < NDP_ARRAY_SIZE(gaps); i++) {
        snprintf(name, sizeof(name), "r%zu", i);
        assert_int_equal(ndp_document_locate(&doc, &loc, NULL, "address",
                                             name), want[i]);
    }
    ndp_buf_release(&text);
}

/* One parse of the whole text, summed up as text ('mapped': its pages
 * go back behind the walk). */
static char *summary_of(const char *text, size_t len, bool mapped,
                        const struct ndp_input_tuning *tuning)
{
    struct json_object *root = NULL;
    struct ndp_buf out = NDP_BUF_INIT;
    size_t seen = 0, pos = 0;
    const char *msg = NULL;

    assert_int_equal(ndp_parse_pruned(&root, &seen, text, len, mapped,
                                      tuning, &pos, &msg), 0);
    ndp_buf_addf(&out, "seen %zu: %s", seen,
                 json_object_to_json_string_ext(root,
                                                JSON_C_TO_STRING_PLAIN));
    json_object_put(root);
    return ndp_buf_detach(&out);
}

/*
 * The pruned walk over a mapped file gives its pages back behind it, in
 * the scanner's fast walk over a skipped planned_values and after each
 * entry of resource_changes, in both threads: where the system gives
 * pages back, the mapping holds a fraction of the file afterwards; and
 * the tree is the one built from the same text in the program's memory.
 */
static void pruned_walk__gives_back_a_mapped_file_s_pages(void **state)
{
    const size_t step = 16 * (size_t)sysconf(_SC_PAGESIZE);
    struct ndp_input_tuning tuning = { 0, 45, 45, step };
    struct ndp_buf text = NDP_BUF_INIT;
    struct ndp_load in = NDP_LOAD_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    char path[] = "/tmp/ndp-input-XXXXXX";
    size_t i, before, after;
    char *mapped, *held;
    int fd;

    (void)state;
    ndp_buf_adds(&text, "{\"format_version\":\"1.2\",\"planned_values\":"
                          "{\"root_module\":{\"resources\":[");
    for (i = 0; i < 8000; i++)
        ndp_buf_addf(&text, "%s{\"address\":\"null_resource.n%zu\","
                            "\"values\":{\"triggers\":{\"a\":\"%0100zu\"}}}",
                     i ? "," : "", i, i);
    ndp_buf_adds(&text, "]}},\"resource_changes\":[");
    for (i = 0; i < 8000; i++)
        ndp_buf_addf(&text, "%s{\"address\":\"null_resource.n%zu\","
                            "\"type\":\"%s\",\"change\":{\"actions\":"
                            "[\"update\"],\"after\":{\"a\":\"%0100zu\"}}}",
                     i ? "," : "", i,
                     i % 1000 ? "null_resource" : "azurerm_kubernetes_cluster",
                     i);
    ndp_buf_adds(&text, "]}");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text.buf, text.len), (ssize_t)text.len);
    close(fd);
    assert_int_equal(ndp_load_file(&in, path, SIZE_MAX, &err), 0);
    assert_true(ndp_load_mapped(&in));
    assert_memory_equal(in.text.data, text.buf, text.len);
    before = test_resident_bytes(in.text.data);
    mapped = summary_of(in.text.data, in.text.len, true, &tuning);
    after = test_resident_bytes(in.text.data);
    held = summary_of(text.buf, text.len, false, &tuning);
    assert_string_equal(mapped, held);
#if NDP_HAVE_MADV_DONTNEED
    if (before != SIZE_MAX && after != SIZE_MAX) {
        assert_true(before >= text.len / 2);
        assert_true(after < before / 4);
    }
#else
    (void)before;
    (void)after;
#endif
    free(mapped);
    free(held);
    ndp_load_release(&in);
    unlink(path);
    ndp_buf_release(&text);
}

/*
 * A thread started early on what looks like an entry of resource_changes
 * but is an object deep inside planned_values (the same keys, "address"
 * then "change" with "actions"): the first thread never meets it as an
 * entry of the list, drops its work, and the tree is the one a single
 * thread builds; the real list is then split as usual.
 */
static void early_split__a_wrong_guess_changes_nothing(void **state)
{
    struct ndp_buf text = NDP_BUF_INIT;
    size_t started = ndp_prune_early_splits_started(), early, taken, i;
    char *alone, *split;

    (void)state;
    ndp_buf_adds(&text, "{\"format_version\":\"1.2\",\"planned_values\":"
                          "{\"root_module\":{\"resources\":[{\"address\":"
                          "\"a.b\",\"values\":{\"look_alikes\":[");
    for (i = 0; i < 2000; i++)
        ndp_buf_addf(&text, "%s{\"address\":\"x%zu\",\"change\":"
                            "{\"actions\":[\"update\"]}}",
                     i ? "," : "", i);
    ndp_buf_adds(&text, "]}}]}},\"resource_changes\":[");
    for (i = 0; i < 50; i++)
        ndp_buf_addf(&text, "%s{\"address\":\"azurerm_kubernetes_cluster.c%zu"
                            "\",\"type\":\"azurerm_kubernetes_cluster\","
                            "\"change\":{\"actions\":[\"update\"]}}",
                     i ? "," : "", i);
    ndp_buf_adds(&text, "]}");
    alone = summary(text.buf, text.len, 0, -1);
    taken = ndp_prune_splits_taken(&early);
    split = summary(text.buf, text.len, 0, 30);
    assert_string_equal(split, alone);
    assert_true(ndp_prune_early_splits_started() > started);
    assert_int_equal(ndp_prune_splits_taken(&i), taken + 1);
    assert_int_equal(i, early); /* taken, but not the early one */
    free(alone);
    free(split);
    ndp_buf_release(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pruned_walk__gives_back_a_mapped_file_s_pages),
        cmocka_unit_test(early_split__a_wrong_guess_changes_nothing),
        cmocka_unit_test(document_locate__lines_far_into_a_long_text),
        cmocka_unit_test(subnets__kept_with_their_usable_addresses),
        cmocka_unit_test(bad_inputs__refused_with_a_message_that_says_what_they_are),
        cmocka_unit_test(input_over_the_limit__refused),
        cmocka_unit_test(directory_and_missing_file__refused),
        cmocka_unit_test(file_of_whole_pages__read_to_its_end),
        cmocka_unit_test(standard_input__pipe_and_file),
        cmocka_unit_test(duplicated_keys__refused_by_every_reader),
        cmocka_unit_test(input_formats__named_and_listed_as_help_spells_them),
        cmocka_unit_test(azapi_update_of_a_pool__named_by_its_resource_id),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
