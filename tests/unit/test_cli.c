/*
 * SPDX-License-Identifier: Apache-2.0
 * test_cli.c - unit tests for the command line (cli.c): every option in
 * each of its spellings, every mistake with its exact message, the first
 * error standing, and the option table itself, row by row.
 *
 * The tables below are walked by one test each; a failing row is named in
 * the failure message.
 */
#include "test_common.h"
#include "cli.h"
#include "buf.h"
#include "config.h"
#include "error.h"
#include "finding.h"
#include "input.h"
#include "report.h"

#include <time.h>

#define MAX_ARGS 12

/* A fixture that is a regular file, and one that is a directory. */
#define A_FILE NDP_FIXTURES_DIR "/example-plan.json"
#define A_DIR NDP_FIXTURES_DIR

/* Runs ndp_cli_parse on 'args' (NULL-ended, without the program name). */
static int parse(struct ndp_options *o, struct ndp_error *err,
                 const char *const *args)
{
    static char *argv[MAX_ARGS + 2];
    int argc = 0;

    argv[argc++] = (char *)"ndplint";
    while (args[argc - 1]) {
        assert_true(argc <= MAX_ARGS);
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    return ndp_cli_parse(o, argc, argv, err);
}

/* Parses 'args', which must be accepted. */
static void parse_ok(struct ndp_options *o, const char *name,
                     const char *const *args)
{
    struct ndp_error err = NDP_ERROR_INIT;

    if (parse(o, &err, args) != 0)
        fail_msg("%s: refused: %s", name, err.msg);
}

static void *field(struct ndp_options *o, const struct ndp_cli_option *opt)
{
    return (char *)o + opt->offset;
}

/* ---- the table ---- */

static bool is_upper_word(const char *s)
{
    for (; *s; s++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]:", *s))
            return false;
    return true;
}

static void check_row(const struct ndp_cli_option *opt)
{
    const char *name = opt->long_name;
    const char *hole;

    assert_non_null(name);
    if (!*name || name[0] == '-' || strchr(name, '='))
        fail_msg("row with a bad long name '%s'", name);
    if (!opt->help || !*opt->help)
        fail_msg("--%s: no help", name);
    hole = strchr(opt->help, '%');
    if (hole && (strncmp(hole, "%s", 2) != 0 || strchr(hole + 1, '%')))
        fail_msg("--%s: help may hold one \"%%s\" and no other '%%'", name);
    if (!hole != !opt->help_list)
        fail_msg("--%s: a \"%%s\" in the help needs a list and a list "
                 "needs a \"%%s\"", name);
    switch (opt->kind) {
    case NDP_CLI_BOOL:
        if (opt->arg_name || opt->parse)
            fail_msg("--%s: a flag takes no argument", name);
        break;
    case NDP_CLI_STRING:
    case NDP_CLI_SIZE:
        if (!opt->arg_name || opt->parse)
            fail_msg("--%s: names its argument and has no callback", name);
        break;
    case NDP_CLI_CALLBACK:
        if (!opt->parse)
            fail_msg("--%s: a callback row without a callback", name);
        break;
    default:
        fail_msg("--%s: unknown kind %d", name, (int)opt->kind);
    }
    if (opt->arg_optional && (opt->kind != NDP_CLI_CALLBACK || !opt->arg_name))
        fail_msg("--%s: only a callback's argument can be optional", name);
    if (opt->arg_name && !is_upper_word(opt->arg_name))
        fail_msg("--%s: argument name '%s' is not in capitals", name,
                 opt->arg_name);
    if (opt->kind != NDP_CLI_CALLBACK &&
        opt->offset >= sizeof(struct ndp_options))
        fail_msg("--%s: field outside struct ndp_options", name);
}

static void every_row_has_name_help_and_kind(void **state)
{
    const struct ndp_cli_option *a, *b;
    size_t i, j;

    (void)state;
    assert_non_null(ndp_cli_option(0));
    for (i = 0; (a = ndp_cli_option(i)); i++) {
        check_row(a);
        for (j = 0; j < i; j++) {
            b = ndp_cli_option(j);
            if (strcmp(a->long_name, b->long_name) == 0 ||
                (a->short_name && a->short_name == b->short_name))
                fail_msg("--%s and --%s share a name", a->long_name,
                         b->long_name);
        }
    }
}

/* ---- accepted ---- */

/* That row 'opt' stored 'value' (its text for a string, 123 for a size). */
static void check_stored(struct ndp_options *o,
                         const struct ndp_cli_option *opt, const char *value)
{
    switch (opt->kind) {
    case NDP_CLI_BOOL:
        assert_true(*(bool *)field(o, opt));
        break;
    case NDP_CLI_STRING:
        assert_string_equal(*(const char **)field(o, opt), value);
        break;
    default:
        assert_int_equal(*(size_t *)field(o, opt), 123);
    }
    assert_int_equal(o->nr_inputs, 1);
    assert_string_equal(o->inputs[0], "in.json");
}

/*
 * Flags, strings and sizes, from the table: "--name", or "--name VALUE"
 * and "--name=VALUE"; with a short name also "-n", or "-n VALUE" and
 * "-nVALUE".
 */
static void stored_options_are_accepted_in_every_form(void **state)
{
    const struct ndp_cli_option *opt;
    char name[64], joined[64];
    size_t i, f;

    (void)state;
    for (i = 0; (opt = ndp_cli_option(i)); i++) {
        const char *value = opt->kind == NDP_CLI_SIZE ? "123" : "a value";
        const char *flag[] = { name, "in.json", NULL };
        const char *apart[] = { name, value, "in.json", NULL };
        const char *together[] = { joined, "in.json", NULL };
        struct ndp_options o;

        if (opt->kind == NDP_CLI_CALLBACK)
            continue;
        for (f = 0; f < (opt->short_name ? 2 : 1); f++) {
            if (f == 0) {
                snprintf(name, sizeof(name), "--%s", opt->long_name);
                snprintf(joined, sizeof(joined), "--%s=%s", opt->long_name,
                         value);
            } else {
                snprintf(name, sizeof(name), "-%c", opt->short_name);
                snprintf(joined, sizeof(joined), "-%c%s", opt->short_name,
                         value);
            }
            parse_ok(&o, name, opt->arg_name ? apart : flag);
            check_stored(&o, opt, value);
            if (!opt->arg_name)
                continue;
            parse_ok(&o, joined, together);
            check_stored(&o, opt, value);
        }
    }
}

/* A callback option given one accepted value, and what it must set. */
struct accept_case {
    const char *option;  /* long name, for the check that each is covered */
    const char *args[MAX_ARGS];
    void (*check)(const struct ndp_options *o);
};

static void check_format_json(const struct ndp_options *o)
{
    assert_int_equal(o->nr_outputs, 1);
    assert_string_equal(o->outputs[0].format, "json");
    assert_null(o->outputs[0].path);
}

static void check_format_two(const struct ndp_options *o)
{
    assert_int_equal(o->nr_outputs, 2);
    assert_string_equal(o->outputs[0].format, "sarif");
    assert_string_equal(o->outputs[0].path, "out.sarif");
    assert_string_equal(o->outputs[1].format, "markdown");
    assert_string_equal(o->outputs[1].path, "-");
}

static void check_eight_reports(const struct ndp_options *o)
{
    assert_int_equal(o->nr_outputs, NDP_MAX_OUTPUTS);
    assert_string_equal(o->outputs[7].path, "h");
}

static void check_profile(const struct ndp_options *o)
{
    assert_true(o->have_profile);
    assert_true(o->profile >= 0);
}

static void check_at(const struct ndp_options *o)
{
    assert_true(o->have_at);
    assert_false(o->at_next_window);
    assert_int_equal(o->at, 1796524200);
}

static void check_at_midnight(const struct ndp_options *o)
{
    assert_true(o->have_at);
    assert_int_equal(o->at, 1796515200);
}

/* "now" and "+6h" read the clock: within the test's run of it. */
static void check_at_now(const struct ndp_options *o)
{
    int64_t after = (int64_t)time(NULL);

    assert_true(o->have_at);
    assert_in_range(o->at, after - 60, after);
}

static void check_at_six_hours(const struct ndp_options *o)
{
    int64_t after = (int64_t)time(NULL) + 6 * 3600;

    assert_true(o->have_at);
    assert_in_range(o->at, after - 60, after);
}

static void check_quiet(const struct ndp_options *o)
{
    assert_true(o->quiet);
}

static void check_fail_on(const struct ndp_options *o)
{
    assert_true(o->fail_on_given);
    assert_int_equal(o->fail_on, NDP_SEVERITY_WARNING);
}

static void check_cluster_states(const struct ndp_options *o)
{
    assert_int_equal(o->nr_cluster_states, 2);
    assert_string_equal(o->cluster_states[0], "a.json");
    assert_string_equal(o->cluster_states[1], "b.json");
}

static void check_input_format(const struct ndp_options *o)
{
    assert_string_equal(o->input_format, "arm-whatif");
}

static void check_color_never(const struct ndp_options *o)
{
    assert_int_equal(o->color, NDP_COLOR_NEVER);
}

static void check_color_always(const struct ndp_options *o)
{
    assert_int_equal(o->color, NDP_COLOR_ALWAYS);
}

/* '--check-config FILE': the FILE stays a positional argument. */
static void check_config_apart(const struct ndp_options *o)
{
    assert_true(o->check_config);
    assert_null(o->check_config_file);
    assert_int_equal(o->nr_inputs, 2);
    assert_string_equal(o->inputs[0], "a/.ndplint.json");
    assert_string_equal(o->inputs[1], "b/.ndplint.json");
}

static void check_config_joined(const struct ndp_options *o)
{
    assert_true(o->check_config);
    assert_string_equal(o->check_config_file, "a/.ndplint.json");
    assert_int_equal(o->nr_inputs, 0);
}

static void check_config_alone(const struct ndp_options *o)
{
    assert_true(o->check_config);
    assert_null(o->check_config_file);
    assert_int_equal(o->nr_inputs, 0);
}

/* next-window is no instant: each cluster's comes from its window. */
static void check_at_next_window(const struct ndp_options *o)
{
    assert_true(o->at_next_window);
    assert_true(o->at_given);
    assert_false(o->have_at);
}

static void check_defaults(const struct ndp_options *o)
{
    assert_int_equal(o->nr_outputs, 0);
    assert_false(o->have_profile);
    assert_false(o->have_at);
    assert_false(o->at_next_window);
    assert_false(o->at_given);
    assert_false(o->fail_on_given);
    assert_false(o->quiet);
    assert_int_equal(o->fail_on, NDP_SEVERITY_ERROR);
    assert_int_equal(o->color, NDP_COLOR_AUTO);
    assert_int_equal(o->max_input_bytes, 4294967296u); /* as --help says */
    assert_null(o->input_format);
}

static const struct accept_case accept_cases[] = {
    { "", { "in.json" }, check_defaults },
    { "format", { "--format", "json", "in.json" }, check_format_json },
    { "format", { "--format=json", "in.json" }, check_format_json },
    { "format", { "-f", "json", "in.json" }, check_format_json },
    { "format", { "-fjson", "in.json" }, check_format_json },
    { "format", { "-f", "json:-", "-f", "text", "in.json" }, NULL },
    { "format", { "--format", "sarif:out.sarif", "--format", "markdown:-",
                  "in.json" }, check_format_two },
    { "format", { "-fjson:a", "-fjson:b", "-fjson:c", "-fjson:d", "-fjson:e",
                  "-fjson:f", "-fjson:g", "-fjson:h", "in.json" },
      check_eight_reports },
    { "profile", { "--profile", "Block", "in.json" }, check_profile },
    { "profile", { "--profile=AllowDuringMaintenanceWindow", "in.json" },
      check_profile },
    { "at", { "--at", "2026-12-06T02:30:00Z", "in.json" }, check_at },
    { "at", { "--at=2026-12-06T03:30:00+01:00", "in.json" }, check_at },
    { "at", { "--at", "2026-12-06T02:30Z", "in.json" }, check_at },
    { "at", { "--at", "2026-12-06", "in.json" }, check_at_midnight },
    { "at", { "--at", "now", "in.json" }, check_at_now },
    { "at", { "--at", "+6h", "in.json" }, check_at_six_hours },
    { "at", { "--at=+90m", "in.json" }, NULL },
    { "at", { "--at", "+2d", "in.json" }, NULL },
    { "at", { "--at", "next-window", "in.json" }, check_at_next_window },
    { "at", { "--at", "2026-12-06T02:30:00Z", "--at=next-window", "in.json" },
      check_at_next_window },
    { "at", { "--at", "next-window", "--at", "2026-12-06T02:30:00Z",
              "in.json" }, check_at },
    { "fail-on", { "--fail-on", "warning", "in.json" }, check_fail_on },
    { "fail-on", { "--fail-on=warning", "in.json" }, check_fail_on },
    { "cluster-state", { "--cluster-state", "a.json", "--cluster-state=b.json",
                         "in.json" }, check_cluster_states },
    { "input-format", { "--input-format", "arm-whatif", "in.json" },
      check_input_format },
    { "input-format", { "--input-format=arm-whatif", "in.json" },
      check_input_format },
    { "", { "-q", "in.json" }, check_quiet },
    { "", { "--quiet", "in.json" }, check_quiet },
    { "color", { "--color", "never", "in.json" }, check_color_never },
    { "color", { "--color=always", "in.json" }, check_color_always },
    /* Unambiguous abbreviations, as getopt_long allows. */
    { "fail-on", { "--fail=warning", "in.json" }, check_fail_on },
    /* Nothing to read is fine when nothing will be read. */
    { "", { "--help" }, NULL },
    { "", { "-V" }, NULL },
    { "", { "--list-rules" }, NULL },
    { "", { "--explain", "NDP101" }, NULL },
    { "", { "--", "-" }, NULL },
    /* --check-config reads settings files, not plans: none is needed. */
    { "check-config", { "--check-config" }, check_config_alone },
    { "check-config", { "--check-config=a/.ndplint.json" },
      check_config_joined },
    { "check-config", { "--check-config", "a/.ndplint.json",
                        "b/.ndplint.json" }, check_config_apart },
    { "check-config", { "--check-config", "--at", "2026-12-06",
                        "--config", "x.json" }, check_config_alone },
};

static void callback_options_are_accepted(void **state)
{
    const struct ndp_cli_option *opt;
    size_t i, j;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(accept_cases); i++) {
        const struct accept_case *c = &accept_cases[i];
        struct ndp_options o;

        parse_ok(&o, c->args[0], c->args);
        if (c->check)
            c->check(&o);
    }
    /* A new option with a callback needs a row above. */
    for (i = 0; (opt = ndp_cli_option(i)); i++) {
        bool covered = opt->kind != NDP_CLI_CALLBACK;
        for (j = 0; j < NDP_ARRAY_SIZE(accept_cases) && !covered; j++)
            covered = strcmp(accept_cases[j].option, opt->long_name) == 0;
        if (!covered)
            fail_msg("--%s has no accepted case in test_cli.c",
                     opt->long_name);
    }
}

/* ---- refused ---- */

struct refuse_case {
    const char *args[MAX_ARGS];
    const char *message;
};

/* In a message, the lists the tables give (expand_lists()): the report
 * formats as --format's refusal spells them, and the input formats as
 * --input-format's does. */
#define FORMATS "@FORMATS@"
#define INPUT_FORMATS "@INPUT_FORMATS@"
#define AT_FORMS "is not a time: use an RFC 3339 instant " \
    "(2026-12-06T02:30:00Z or 2026-12-06T02:30Z), a date (2026-12-06, " \
    "midnight UTC), 'now', an offset from now (+90m, +6h, +2d), or " \
    "'next-window'"

static const struct refuse_case refuse_cases[] = {
    { { NULL }, "no input file (give a plan JSON file, or '-' for standard "
                "input)" },
    { { "--no-config" }, "no input file (give a plan JSON file, or '-' for "
                         "standard input)" },
    { { "--bogus", "in.json" }, "unknown option '--bogus'" },
    { { "-x", "in.json" }, "unknown option '-x'" },
    { { "--no", "in.json" }, "unknown option '--no'" },
    { { "--help=yes" }, "unknown option '--help=yes'" },
    { { "--at" }, "missing argument for option '--at'" },
    { { "-f" }, "missing argument for option '-f'" },
    { { "--format" }, "missing argument for option '--format'" },
    { { "in.json", "--explain" }, "missing argument for option '--explain'" },
    { { "--format", "bogus", "in.json" },
      "--format: unknown format 'bogus' (use one of: " FORMATS ")" },
    { { "--format", "verylongformatname123:x", "in.json" },
      "--format: unknown format 'verylongformatname123' (use one of: "
      FORMATS ")" },
    { { "--format", "json:", "in.json" },
      "--format: 'json:' has an empty path" },
    { { "-fjson:a", "-fjson:b", "-fjson:c", "-fjson:d", "-fjson:e",
        "-fjson:f", "-fjson:g", "-fjson:h", "-fjson:i", "in.json" },
      "--format: at most 8 reports in one run" },
    { { "--profile", "bogus", "in.json" },
      "--profile: unknown profile 'bogus' (use Allow, "
      "AllowDuringMaintenanceWindow or Block)" },
    { { "--at", "bogus", "in.json" }, "--at: 'bogus' " AT_FORMS },
    { { "--at", "2026-13-01T00:00:00Z", "in.json" },
      "--at: '2026-13-01T00:00:00Z' " AT_FORMS },
    { { "--at", "-2h", "in.json" }, "--at: '-2h' " AT_FORMS },
    { { "--at", "+1w", "in.json" }, "--at: '+1w' " AT_FORMS },
    { { "--at", "tomorrow", "in.json" }, "--at: 'tomorrow' " AT_FORMS },
    { { "--at", "2026-12-06T02:30", "in.json" },
      "--at: '2026-12-06T02:30' " AT_FORMS },
    { { "--at", "", "in.json" }, "--at: '' " AT_FORMS },
    { { "--fail-on", "Error", "in.json" },
      "--fail-on: unknown level 'Error' (use error, warning, note or "
      "never)" },
    { { "--fail", "in.json" },
      "--fail-on: unknown level 'in.json' (use error, warning, note or "
      "never)" },
    { { "--input-format", "TERRAFORM-PLAN", "in.json" },
      "--input-format: unknown format 'TERRAFORM-PLAN' (use " INPUT_FORMATS
      ")" },
    { { "--max-input-bytes", "0", "in.json" },
      "--max-input-bytes: '0' is not a positive whole number" },
    { { "--max-input-bytes", "-1", "in.json" },
      "--max-input-bytes: '-1' is not a positive whole number" },
    { { "--max-input-bytes", " 5", "in.json" },
      "--max-input-bytes: ' 5' is not a positive whole number" },
    { { "--max-input-bytes=12x", "in.json" },
      "--max-input-bytes: '12x' is not a positive whole number" },
    { { "--color", "ALWAYS", "in.json" },
      "--color: unknown value 'ALWAYS' (use auto, always or never)" },
    { { "in.json", "-", "in.json" }, "'in.json' is given more than once" },
    { { "-", "-" }, "'-' is given more than once" },
    { { "--check-config", "--no-config" },
      "--check-config and --no-config: nothing to check" },
    { { "--check-config=" }, "--check-config=: empty file name" },
    { { "--check-config=a.json", "--check-config=b.json" },
      "--check-config=FILE given twice (give further files as arguments)" },
};

/* 'message' with FORMATS and INPUT_FORMATS spelt out, into 'out'. */
static void expand_lists(struct ndp_buf *out, const char *message)
{
    const char *p = message, *at;

    ndp_buf_reset(out);
    while ((at = strchr(p, '@')) != NULL) {
        ndp_buf_add(out, p, (size_t)(at - p));
        if (strncmp(at, FORMATS, strlen(FORMATS)) == 0) {
            ndp_buf_add_names(out, ndp_reporter_name, ", ");
            p = at + strlen(FORMATS);
        } else if (strncmp(at, INPUT_FORMATS, strlen(INPUT_FORMATS)) == 0) {
            ndp_buf_add_names(out, ndp_input_format_name, " or ");
            p = at + strlen(INPUT_FORMATS);
        } else {
            ndp_buf_addch(out, '@');
            p = at + 1;
        }
    }
    ndp_buf_adds(out, p);
}

static void bad_uses_are_refused_with_their_message(void **state)
{
    struct ndp_buf want = NDP_BUF_INIT;
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(refuse_cases); i++) {
        const struct refuse_case *c = &refuse_cases[i];
        struct ndp_error err = NDP_ERROR_INIT;
        struct ndp_options o;
        int rc = parse(&o, &err, c->args);

        expand_lists(&want, c->message);
        if (rc != NDP_EUSAGE || err.code != NDP_EUSAGE ||
            strcmp(err.msg, want.buf) != 0)
            fail_msg("case %zu: got %d '%s', want '%s'", i, rc, err.msg,
                     want.buf);
    }
    ndp_buf_release(&want);
}

static void too_many_cluster_states_are_refused(void **state)
{
    static char *argv[2 * NDP_MAX_CLUSTER_STATES + 4];
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_options o;
    int argc = 0, i;

    (void)state;
    argv[argc++] = (char *)"ndplint";
    for (i = 0; i <= NDP_MAX_CLUSTER_STATES; i++) {
        argv[argc++] = (char *)"--cluster-state";
        argv[argc++] = (char *)"s.json";
    }
    argv[argc++] = (char *)"in.json";
    assert_int_equal(ndp_cli_parse(&o, argc, argv, &err), NDP_EUSAGE);
    assert_string_equal(err.msg, "--cluster-state: at most 64 files");
}

/* ---- after parsing ---- */

struct finish_case {
    const char *args[MAX_ARGS];
    const char *message;  /* NULL: accepted */
};

static const struct finish_case finish_cases[] = {
    { { "in.json" }, NULL },
    { { "--format", "json", "--format", "text", "in.json" },
      "--format: only one report can go to standard output; give the others "
      "a path (--format FMT:PATH)" },
    { { "--format", "json:-", "--format", "text:-", "in.json" },
      "--format: only one report can go to standard output; give the others "
      "a path (--format FMT:PATH)" },
    { { "--format", "json:x", "--format", "text:x", "in.json" },
      "--format: two reports would be written to 'x'" },
    { { "-f", "json:x", "-o", "y", "in.json" },
      "--output: every --format already has a path" },
    { { "--window-check", "-f", "json:x", "-o", "y", "in.json" }, NULL },
    { { "--source-root", "/nonexistent/ndplint", "in.json" },
      "--source-root '/nonexistent/ndplint': No such file or directory" },
    { { "--source-root", A_FILE, "in.json" },
      "--source-root '" A_FILE "' is not a directory" },
    { { "--source-root", A_DIR, "--template", A_FILE, "in.json" }, NULL },
    { { "--template", "/nonexistent/ndplint", "in.json" },
      "--template '/nonexistent/ndplint': No such file or directory" },
    { { "--template", A_DIR, "in.json" },
      "--template '" A_DIR "' is not a regular file" },
    /* The first mistake is the one reported. */
    { { "--source-root", A_FILE, "--template", A_DIR, "-f", "json",
        "-f", "text", "in.json" },
      "--source-root '" A_FILE "' is not a directory" },
};

static void reports_and_paths_are_checked_after_parsing(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(finish_cases); i++) {
        const struct finish_case *c = &finish_cases[i];
        struct ndp_error err = NDP_ERROR_INIT;
        struct ndp_options o;
        int rc;

        parse_ok(&o, c->args[0], c->args);
        rc = ndp_cli_finish(&o, NULL, &err);
        if (!c->message && rc != 0)
            fail_msg("case %zu: refused: %s", i, err.msg);
        if (c->message && (rc != NDP_EUSAGE || strcmp(err.msg, c->message)))
            fail_msg("case %zu: got %d '%s', want '%s'", i, rc, err.msg,
                     c->message);
    }
}

static void no_format_given_means_one_text_report(void **state)
{
    const char *args[] = { "-o", "out.txt", "in.json", NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_options o;

    (void)state;
    parse_ok(&o, "-o", args);
    assert_int_equal(ndp_cli_finish(&o, NULL, &err), 0);
    assert_int_equal(o.nr_outputs, 1);
    assert_string_equal(o.outputs[0].format, "text");
    assert_string_equal(o.outputs[0].path, "out.txt");
}

/* A settings file with 'formats' (and nothing else). */
static void fake_config(struct ndp_config *c, const char **formats,
                        size_t nr)
{
    memset(c, 0, sizeof(*c));
    c->path = (char *)"settings.json";
    c->fail_on = c->profile = -1;
    c->formats = formats;
    c->nr_formats = nr;
}

static void settings_formats_are_used_unless_given(void **state)
{
    const char *formats[] = { "sarif:out.sarif" };
    const char *bare[] = { "in.json", NULL };
    const char *given[] = { "-f", "json", "in.json", NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    struct ndp_options o;

    (void)state;
    fake_config(&c, formats, 1);
    parse_ok(&o, "bare", bare);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), 0);
    assert_int_equal(o.nr_outputs, 1);
    assert_string_equal(o.outputs[0].format, "sarif");
    assert_string_equal(o.outputs[0].path, "out.sarif");
    parse_ok(&o, "given", given);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), 0);
    assert_string_equal(o.outputs[0].format, "json");
}

static void bad_settings_format_is_a_settings_error(void **state)
{
    static const char *const bad[] = { "bogus", "json:", "verylongformatname:x" };
    const char *args[] = { "in.json", NULL };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(bad); i++) {
        const char *formats[] = { bad[i] };
        struct ndp_error err = NDP_ERROR_INIT;
        char want[256];
        struct ndp_config c;
        struct ndp_options o;

        fake_config(&c, formats, 1);
        parse_ok(&o, bad[i], args);
        assert_int_equal(ndp_cli_finish(&o, &c, &err), NDP_ECONFIG);
        assert_int_equal(err.code, NDP_ECONFIG);
        snprintf(want, sizeof(want), "config 'settings.json': formats[0]: "
                 "'%s' is not FMT or FMT:PATH with a known format", bad[i]);
        assert_string_equal(err.msg, want);
    }
}

/* ---- the first error stands ---- */

static void an_earlier_error_is_kept(void **state)
{
    const char *args[] = { "--color", "bogus", "in.json", NULL };
    const char *fine[] = { "--source-root", "/nonexistent/ndplint",
                           "in.json", NULL };
    const char *bare[] = { "in.json", NULL };
    const char *formats[] = { "bogus" };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    struct ndp_options o;

    (void)state;
    ndp_error_set(&err, NDP_EIO, "earlier");
    assert_int_equal(parse(&o, &err, args), NDP_EUSAGE);
    assert_int_equal(err.code, NDP_EIO);
    assert_string_equal(err.msg, "earlier");
    parse_ok(&o, "fine", fine);
    assert_int_equal(ndp_cli_finish(&o, NULL, &err), NDP_EUSAGE);
    assert_string_equal(err.msg, "earlier");
    fake_config(&c, formats, 1);
    parse_ok(&o, "bare", bare);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), NDP_ECONFIG);
    assert_int_equal(err.code, NDP_EIO);
    assert_string_equal(err.msg, "earlier");
}

static void settings_error_is_not_overwritten(void **state)
{
    const char *formats[] = { "bogus" };
    const char *args[] = { "--source-root", "/nonexistent/ndplint",
                           "in.json", NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    struct ndp_options o;

    (void)state;
    fake_config(&c, formats, 1);
    parse_ok(&o, "args", args);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), NDP_ECONFIG);
    assert_string_equal(err.msg, "config 'settings.json': formats[0]: "
                        "'bogus' is not FMT or FMT:PATH with a known format");
}

/* The settings file's "at" counts only when --at is not given. */
static void settings_at_yields_to_the_command_line(void **state)
{
    const char *bare[] = { "in.json", NULL };
    const char *given[] = { "--at", "2026-12-06T02:30:00Z", "in.json", NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    struct ndp_options o;

    (void)state;
    fake_config(&c, NULL, 0);
    c.at_next_window = true;
    parse_ok(&o, "bare", bare);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), 0);
    assert_true(o.at_next_window);
    assert_false(o.have_at);
    parse_ok(&o, "given", given);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), 0);
    assert_false(o.at_next_window);
    check_at(&o);
    c.at_next_window = false;
    c.has_at = true;
    c.at = 1796524200;
    parse_ok(&o, "bare", bare);
    assert_int_equal(ndp_cli_finish(&o, &c, &err), 0);
    check_at(&o);
}

/* NDPLINT_NOW stands in for the clock; anything else reads the clock. */
static void now_comes_from_the_environment(void **state)
{
    int64_t before = (int64_t)time(NULL);

    (void)state;
    assert_int_equal(setenv("NDPLINT_NOW", "2026-12-06T02:30:00Z", 1), 0);
    assert_int_equal(ndp_cli_now(), 1796524200);
    assert_int_equal(setenv("NDPLINT_NOW", "2026-12-05T21:30:00-05:00", 1),
                     0);
    assert_int_equal(ndp_cli_now(), 1796524200);
    assert_int_equal(setenv("NDPLINT_NOW", "", 1), 0);
    assert_true(ndp_cli_now() >= before);
    assert_int_equal(setenv("NDPLINT_NOW", "soon", 1), 0);
    assert_true(ndp_cli_now() >= before);
    assert_int_equal(unsetenv("NDPLINT_NOW"), 0);
    assert_true(ndp_cli_now() >= before);
}

static void the_first_bad_option_is_reported(void **state)
{
    const char *args[] = { "--at", "soon", "--color", "bogus", "in.json",
                           NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_options o;

    (void)state;
    assert_int_equal(parse(&o, &err, args), NDP_EUSAGE);
    assert_string_equal(err.msg, "--at: 'soon' " AT_FORMS);
}

/* ---- --help ---- */

/* What 'print' writes, in a new string. */
static char *printed(void (*print)(FILE *))
{
    FILE *f = tmpfile();
    char *text;
    long len;

    assert_non_null(f);
    print(f);
    len = ftell(f);
    assert_true(len > 0);
    rewind(f);
    text = ndp_xmalloc((size_t)len + 1);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    return text;
}

/* The --help text, in a new string. */
static char *help_text(void)
{
    return printed(ndp_cli_help);
}

/* Whether 'text' holds 'word' followed by a space or a line end. */
static bool has_word(const char *text, const char *word)
{
    const char *p;

    for (p = strstr(text, word); p; p = strstr(p + 1, word))
        if (p[strlen(word)] == ' ' || p[strlen(word)] == '\n')
            return true;
    return false;
}

static void help_lists_every_option_and_format(void **state)
{
    const struct ndp_cli_option *opt;
    char *text = help_text();
    char want[64];
    size_t i;

    (void)state;
    for (i = 0; (opt = ndp_cli_option(i)); i++) {
        snprintf(want, sizeof(want), "--%s%s%s%s%s", opt->long_name,
                 opt->arg_name ? " " : "", opt->arg_optional ? "[" : "",
                 opt->arg_name ? opt->arg_name : "",
                 opt->arg_optional ? "]" : "");
        if (has_word(text, want) == opt->hidden)
            fail_msg("--help %s '%s'", opt->hidden ? "shows the hidden"
                                                   : "lacks", want);
    }
    assert_non_null(strstr(text, "  -f, --format FMT[:PATH]     report "
                                 "format: text (default), json, sarif,"));
    assert_null(strstr(text, "%s"));
    free(text);
}

static void reporter_names_end_with_null_and_are_found(void **state)
{
    size_t i, j;

    (void)state;
    for (i = 0; ndp_reporter_name(i); i++) {
        assert_non_null(ndp_reporter_find(ndp_reporter_name(i)));
        for (j = 0; j < i; j++)
            assert_string_not_equal(ndp_reporter_name(i),
                                    ndp_reporter_name(j));
    }
    assert_true(i > 0);
    assert_null(ndp_reporter_name(i + 1));
    assert_string_equal(ndp_reporter_name(0), "text");
}

/* --list-names: "input NAME" for each reader, "report NAME" for each
 * reporter, "verdict NAME" for each verdict, in table order; hidden, and
 * enough alone. */
static void list_names_prints_the_tables(void **state)
{
    static const char *const args[] = { "--list-names", NULL };
    struct ndp_buf want = NDP_BUF_INIT;
    struct ndp_options o;
    const char *name;
    char *text = printed(ndp_cli_list_names);
    size_t i;

    (void)state;
    for (i = 0; (name = ndp_input_format_name(i)); i++)
        ndp_buf_addf(&want, "input %s\n", name);
    assert_true(i > 0);
    for (i = 0; (name = ndp_reporter_name(i)); i++)
        ndp_buf_addf(&want, "report %s\n", name);
    for (i = 0; (name = ndp_verdict_choice(i)); i++)
        ndp_buf_addf(&want, "verdict %s\n", name);
    assert_string_equal(text, want.buf);
    parse_ok(&o, "--list-names alone", args);
    assert_true(o.list_names);
    free(text);
    ndp_buf_release(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_has_name_help_and_kind),
        cmocka_unit_test(stored_options_are_accepted_in_every_form),
        cmocka_unit_test(callback_options_are_accepted),
        cmocka_unit_test(bad_uses_are_refused_with_their_message),
        cmocka_unit_test(too_many_cluster_states_are_refused),
        cmocka_unit_test(reports_and_paths_are_checked_after_parsing),
        cmocka_unit_test(no_format_given_means_one_text_report),
        cmocka_unit_test(settings_formats_are_used_unless_given),
        cmocka_unit_test(bad_settings_format_is_a_settings_error),
        cmocka_unit_test(an_earlier_error_is_kept),
        cmocka_unit_test(settings_error_is_not_overwritten),
        cmocka_unit_test(settings_at_yields_to_the_command_line),
        cmocka_unit_test(now_comes_from_the_environment),
        cmocka_unit_test(the_first_bad_option_is_reported),
        cmocka_unit_test(help_lists_every_option_and_format),
        cmocka_unit_test(reporter_names_end_with_null_and_are_found),
        cmocka_unit_test(list_names_prints_the_tables),
    };

    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
