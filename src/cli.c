/*
 * SPDX-License-Identifier: Apache-2.0
 * cli.c - command-line parsing for ndplint.  The option table below is
 * the single source of truth: getopt_long's struct option[], the handling
 * of each argument and the --help text are all generated from it.
 */
#include "common.h"
#include "cli.h"
#include "buf.h"
#include "config.h"
#include "error.h"
#include "policy.h"
#include "finding.h"
#include "input.h"
#include "report.h"
#include "timeutil.h"

#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <time.h>

/* The report written when neither the command line nor settings name one. */
static const char default_format[] = "text";
/* The --fail-on level when neither the command line nor settings set one. */
#define DEFAULT_FAIL_ON NDP_SEVERITY_ERROR

/* getopt_long's value for row 'i' when the row has no short name. */
#define LONG_ONLY_BASE 256

/* ---- the options that need more than storing their argument ---- */

/* What can be wrong with one FMT[:PATH]. */
enum format_problem {
    FORMAT_OK,
    FORMAT_TOO_MANY,   /* NDP_MAX_OUTPUTS reports already */
    FORMAT_UNKNOWN,    /* FMT names no reporter */
    FORMAT_EMPTY_PATH  /* "FMT:" */
};

/*
 * Adds the report 'arg' (FMT[:PATH]; a PATH of '-' is standard output) to
 * 'o', or says what is wrong with it and leaves 'o' as it was (save the
 * format name of the unused slot).
 */
static enum format_problem add_output(struct ndp_options *o, const char *arg)
{
    struct ndp_output *out = &o->outputs[o->nr_outputs];
    size_t len = strcspn(arg, ":");

    if (o->nr_outputs == NDP_MAX_OUTPUTS)
        return FORMAT_TOO_MANY;
    if (len >= sizeof(out->format))
        return FORMAT_UNKNOWN;
    memcpy(out->format, arg, len);
    out->format[len] = '\0';
    if (!ndp_reporter_find(out->format))
        return FORMAT_UNKNOWN;
    out->path = arg[len] ? arg + len + 1 : NULL;
    if (out->path && !*out->path)
        return FORMAT_EMPTY_PATH;
    o->nr_outputs++;
    return FORMAT_OK;
}

/* '--format FMT[:PATH]'. */
static int parse_format(struct ndp_options *o, const char *arg,
                        struct ndp_error *err)
{
    struct ndp_buf names = NDP_BUF_INIT;
    int rc = 0;

    switch (add_output(o, arg)) {
    case FORMAT_OK:
        break;
    case FORMAT_TOO_MANY:
        rc = ndp_error_set(err, NDP_EUSAGE, "--format: at most %d reports "
                           "in one run", NDP_MAX_OUTPUTS);
        break;
    case FORMAT_UNKNOWN:
        ndp_buf_add_names(&names, ndp_reporter_name, ", ");
        rc = ndp_error_set(err, NDP_EUSAGE, "--format: unknown format "
                           "'%.*s' (use one of: %s)",
                           (int)strcspn(arg, ":"), arg, names.buf);
        break;
    case FORMAT_EMPTY_PATH:
        rc = ndp_error_set(err, NDP_EUSAGE, "--format: '%s' has an empty "
                           "path", arg);
        break;
    }
    ndp_buf_release(&names);
    return rc;
}

static int parse_profile(struct ndp_options *o, const char *arg,
                         struct ndp_error *err)
{
    struct ndp_buf names = NDP_BUF_INIT;
    int rc = 0;

    o->profile = ndp_profile_parse(arg);
    o->have_profile = true;
    if (o->profile < 0) {
        ndp_buf_add_names(&names, ndp_profile_choice, " or ");
        rc = ndp_error_set(err, NDP_EUSAGE, "--profile: unknown profile "
                           "'%s' (use %s)", arg, names.buf);
    }
    ndp_buf_release(&names);
    return rc;
}

/* "Allow (the AKS default), AllowDuringMaintenanceWindow, Block". */
static void list_profiles(struct ndp_buf *out)
{
    const char *aks_default = ndp_profile_name(NDP_PROFILE_ALLOW);
    const char *name;
    size_t i;

    for (i = 0; (name = ndp_profile_choice(i)); i++)
        ndp_buf_addf(out, "%s%s%s", i ? ", " : "", name,
                     strcmp(name, aks_default) == 0 ? " (the AKS default)"
                                                    : "");
}

/*
 * '--check-config[=FILE]'.  getopt_long leaves the FILE of
 * '--check-config FILE' among the positional arguments, which this mode
 * reads as settings files too: that is the form pre-commit uses, with
 * every staged .ndplint.json after it.
 */
static int parse_check_config(struct ndp_options *o, const char *arg,
                              struct ndp_error *err)
{
    if (arg && !*arg)
        return ndp_error_set(err, NDP_EUSAGE, "--check-config=: empty "
                             "file name");
    if (arg && o->check_config_file)
        return ndp_error_set(err, NDP_EUSAGE, "--check-config=FILE given "
                             "twice (give further files as arguments)");
    o->check_config = true;
    if (arg)
        o->check_config_file = arg;
    return 0;
}

int64_t ndp_cli_now(void)
{
    const char *fixed = getenv("NDPLINT_NOW");
    int64_t now;

    if (!fixed || !*fixed)
        return (int64_t)time(NULL);
    if (ndp_time_parse_rfc3339(&now, fixed) != 0) {
        fprintf(stderr, "ndplint: warning: NDPLINT_NOW is not an RFC 3339 "
                "instant; the clock is read instead\n");
        return (int64_t)time(NULL);
    }
    return now;
}

static int parse_at(struct ndp_options *o, const char *arg,
                    struct ndp_error *err)
{
    o->at_given = true;
    if (strcmp(arg, "next-window") == 0) {
        o->at_next_window = true;
        o->have_at = false;
        return 0;
    }
    o->have_at = true;
    o->at_next_window = false;
    /* The one read of the clock for --at; ndp_time_parse_at() is tested. */
    if (ndp_time_parse_at(&o->at, arg, ndp_cli_now()) != 0)
        return ndp_error_set(err, NDP_EUSAGE, "--at: '%s' is not a time: use "
                             "an RFC 3339 instant (2026-12-06T02:30:00Z or "
                             "2026-12-06T02:30Z), a date (2026-12-06, "
                             "midnight UTC), 'now', an offset from now "
                             "(+90m, +6h, +2d), or 'next-window'", arg);
    return 0;
}

/* "error (default), warning, note, never" for the help of --fail-on. */
static void list_fail_on(struct ndp_buf *out)
{
    const char *name;
    size_t i;

    for (i = 0; (name = ndp_severity_choice(i)); i++)
        ndp_buf_addf(out, "%s%s%s", i ? ", " : "", name,
                     i == DEFAULT_FAIL_ON ? " (default)" : "");
}

static int parse_fail_on(struct ndp_options *o, const char *arg,
                         struct ndp_error *err)
{
    struct ndp_buf names = NDP_BUF_INIT;
    int rc = 0;

    o->fail_on_given = true;
    o->fail_on = ndp_severity_parse(arg);
    if (o->fail_on < 0) {
        ndp_buf_add_names(&names, ndp_severity_choice, " or ");
        rc = ndp_error_set(err, NDP_EUSAGE, "--fail-on: unknown level '%s' "
                           "(use %s)", arg, names.buf);
    }
    ndp_buf_release(&names);
    return rc;
}

static int parse_cluster_state(struct ndp_options *o, const char *arg,
                               struct ndp_error *err)
{
    if (o->nr_cluster_states == NDP_MAX_CLUSTER_STATES)
        return ndp_error_set(err, NDP_EUSAGE, "--cluster-state: at most %d "
                             "files", NDP_MAX_CLUSTER_STATES);
    o->cluster_states[o->nr_cluster_states++] = arg;
    return 0;
}

static int parse_input_format(struct ndp_options *o, const char *arg,
                              struct ndp_error *err)
{
    struct ndp_buf names = NDP_BUF_INIT;
    int rc = 0;

    if (ndp_input_format_known(arg)) {
        o->input_format = arg;
    } else {
        ndp_buf_add_names(&names, ndp_input_format_name, " or ");
        rc = ndp_error_set(err, NDP_EUSAGE, "--input-format: unknown "
                           "format '%s' (use %s)", arg, names.buf);
    }
    ndp_buf_release(&names);
    return rc;
}

/* Indexed by enum ndp_color_mode. */
static const char *const color_names[] = {
    [NDP_COLOR_AUTO] = "auto",
    [NDP_COLOR_ALWAYS] = "always",
    [NDP_COLOR_NEVER] = "never"
};

static const char *color_name(size_t i)
{
    return i < NDP_ARRAY_SIZE(color_names) ? color_names[i] : NULL;
}

static int parse_color(struct ndp_options *o, const char *arg,
                       struct ndp_error *err)
{
    struct ndp_buf names = NDP_BUF_INIT;
    size_t i = 0;
    int rc = 0;

    while (color_name(i) && strcmp(arg, color_name(i)) != 0)
        i++;
    if (color_name(i)) {
        o->color = (enum ndp_color_mode)i;
    } else {
        ndp_buf_add_names(&names, color_name, " or ");
        rc = ndp_error_set(err, NDP_EUSAGE, "--color: unknown value '%s' "
                           "(use %s)", arg, names.buf);
    }
    ndp_buf_release(&names);
    return rc;
}

/*
 * "auto (default: ...), always, never" for the help of --color; auto is
 * the default as the zero of enum ndp_color_mode.
 */
static void list_colors(struct ndp_buf *out)
{
    const char *name;
    size_t i;

    for (i = 0; (name = color_name(i)); i++)
        ndp_buf_addf(out, "%s%s%s", i ? ", " : "", name,
                     i == NDP_COLOR_AUTO ? " (default: on a terminal unless "
                                           "NO_COLOR is set)" : "");
}

/* "terraform-plan, arm-whatif or arm-template" for --input-format. */
static void list_input_formats(struct ndp_buf *out)
{
    ndp_buf_add_names(out, ndp_input_format_name, " or ");
}

/* "text (default), json, ..." for the help of --format. */
static void list_formats(struct ndp_buf *out)
{
    size_t i;
    const char *name;

    for (i = 0; (name = ndp_reporter_name(i)); i++)
        ndp_buf_addf(out, "%s%s%s", i ? ", " : "", name,
                     strcmp(name, default_format) == 0 ? " (default)" : "");
}

/* ---- the table ---- */

/*
 * Row builders, after git's parse-options.h.  The _Generic in FIELD makes a
 * row whose field has the wrong type fail to compile.
 */
#define FIELD(field, type)                                                 \
    _Generic(((struct ndp_options *)0)->field,                             \
             type: offsetof(struct ndp_options, field))
#define OPT_BOOL(s, l, field, h)                                           \
    { (s), (l), NDP_CLI_BOOL, FIELD(field, bool), NULL, NULL, (h), NULL,   \
      false, false }
/* As OPT_BOOL, long form only and left out of --help. */
#define OPT_HIDDEN_BOOL(l, field, h)                                       \
    { 0, (l), NDP_CLI_BOOL, FIELD(field, bool), NULL, NULL, (h), NULL,     \
      false, true }
#define OPT_STRING(s, l, field, a, h)                                      \
    { (s), (l), NDP_CLI_STRING, FIELD(field, const char *), NULL, (a),     \
      (h), NULL, false, false }
#define OPT_SIZE(s, l, field, a, h)                                        \
    { (s), (l), NDP_CLI_SIZE, FIELD(field, size_t), NULL, (a), (h), NULL,  \
      false, false }
#define OPT_CALLBACK(s, l, fn, a, h)                                       \
    { (s), (l), NDP_CLI_CALLBACK, 0, (fn), (a), (h), NULL, false, false }
/* As OPT_CALLBACK, the argument optional ('--name=VALUE' only). */
#define OPT_CALLBACK_OPTIONAL(s, l, fn, a, h)                              \
    { (s), (l), NDP_CLI_CALLBACK, 0, (fn), (a), (h), NULL, true, false }
/* As OPT_CALLBACK, with the "%s" in 'h' filled by 'list'. */
#define OPT_CALLBACK_LIST(s, l, fn, a, h, list)                            \
    { (s), (l), NDP_CLI_CALLBACK, 0, (fn), (a), (h), (list), false, false }

static const struct ndp_cli_option options[] = {
    OPT_CALLBACK_LIST('f', "format", parse_format, "FMT[:PATH]",
        "report format: %s; FMT:PATH writes that report to PATH; repeat for "
        "several reports from one run (at most one without a PATH, which "
        "goes to standard output)", list_formats),
    OPT_STRING('o', "output", output, "FILE",
        "write the report that has no PATH to FILE instead of standard "
        "output"),
    OPT_STRING(0, "source-root", source_root, "DIR",
        "make the file paths the reports write relative to DIR (default: the "
        "current directory)"),
    OPT_CALLBACK_LIST(0, "profile", parse_profile, "PROFILE",
        "node disruption profile for clusters whose input does not declare "
        "one: %s", list_profiles),
    OPT_CALLBACK(0, "at", parse_at, "TIME",
        "judge maintenance windows at this instant (default: now): RFC "
        "3339 with or without seconds (2026-12-06T02:30Z), a date "
        "(2026-12-06, midnight UTC), 'now', an offset from now (+90m, "
        "+6h, +2d), or 'next-window': each cluster at the first instant "
        "inside its maintenance window (now when inside one, or when no "
        "window gates it)"),
    OPT_CALLBACK_LIST(0, "fail-on", parse_fail_on, "LEVEL",
        "exit 1 when a finding is at least this severe: %s", list_fail_on),
    OPT_CALLBACK(0, "cluster-state", parse_cluster_state, "FILE",
        "live state of a cluster: 'az aks show', 'az aks "
        "maintenanceconfiguration list|show', 'az aks nodepool list' or "
        "'kubectl get pdb,deploy,statefulset -A -o json' JSON "
        "(repeatable); used where the input does not declare the profile, "
        "window, versions or pod disruption budgets"),
    OPT_STRING(0, "config", config, "FILE",
        "read settings, cluster declarations and waivers from FILE (default: "
        ".ndplint.json in the current directory or the nearest parent up to "
        "the repository root)"),
    OPT_BOOL(0, "no-config", no_config, "read no settings file"),
    OPT_CALLBACK_OPTIONAL(0, "check-config", parse_check_config, "FILE",
        "check settings files instead of plans and exit: each FILE given "
        "(as --check-config=FILE or as arguments), else the one a run would "
        "read; exit 2 when one cannot be read or has a key or value a run "
        "refuses, 1 when a waiver has expired at --at, 0 otherwise (a "
        "warning for each waiver that expires within 14 days)"),
    OPT_BOOL(0, "no-waivers", no_waivers,
        "ignore the settings file's waivers (audit every finding)"),
    OPT_BOOL(0, "show-suppressed", show_suppressed,
        "show waived findings in the text report"),
    OPT_BOOL('q', "quiet", quiet,
        "text report: print only the summary line and the findings at or "
        "above --fail-on (other formats are unchanged)"),
    OPT_STRING(0, "template", template_path, "FILE",
        "the Bicep or ARM template a what-if result came from: findings "
        "point at the line of their resource in it"),
    OPT_BOOL(0, "follow-links", follow_links,
        "read an input, --template, --cluster-state, --baseline or settings "
        "file even when a symbolic link in the working tree (the source "
        "root) leads it outside the tree; without it such a file is refused"),
    OPT_STRING(0, "baseline", baseline, "FILE",
        "report only findings that FILE (from --write-baseline) does not "
        "list"),
    OPT_STRING(0, "write-baseline", write_baseline, "FILE",
        "write the fingerprints of the current findings to FILE"),
    OPT_BOOL(0, "window-check", window_check,
        "print each cluster's aksManagedNodeOSUpgradeSchedule window in "
        "plain words, whether --at is inside it, its next three openings "
        "and whether the rebuild of the pools the input touches fits in "
        "it, instead of the findings"),
    OPT_STRING(0, "rules", rules_dir, "DIR",
        "use the rule files in DIR instead of the built-in rules"),
    OPT_STRING(0, "explain", explain, "NAME",
        "explain a category (e.g. network-policy) or a rule (e.g. NDP101): "
        "what changes, why AKS rebuilds nodes, which transitions count and "
        "what to do; or a verdict (e.g. outside-window): what it means, its "
        "severity and what to do; then exit"),
    OPT_BOOL(0, "list-rules", list_rules,
        "print the rules (id, category, scope, class, summary) and exit"),
    OPT_CALLBACK_LIST(0, "input-format", parse_input_format, "FMT",
        "read inputs as %s instead of detecting the format",
        list_input_formats),
    OPT_SIZE(0, "max-input-bytes", max_input_bytes, "N",
        "refuse inputs larger than N bytes (default 4294967296)"),
    OPT_CALLBACK_LIST(0, "color", parse_color, "WHEN",
        "colour the text report: %s", list_colors),
    OPT_BOOL('h', "help", help, "show this help and exit"),
    OPT_BOOL('V', "version", version, "show the version and exit"),
    OPT_HIDDEN_BOOL("list-names", list_names,
        "print every input format ('input NAME'), report format ('report "
        "NAME') and verdict ('verdict NAME'), one a line, and exit"),
};

const struct ndp_cli_option *ndp_cli_option(size_t i)
{
    return i < NDP_ARRAY_SIZE(options) ? &options[i] : NULL;
}

/* ---- --help ---- */

void ndp_cli_short_usage(FILE *out)
{
    fputs("usage: ndplint [OPTIONS] FILE... (FILE '-' reads standard "
          "input)\nTry 'ndplint --help' for more information.\n", out);
}

static void print_wrapped(FILE *out, const char *text, size_t indent,
                          size_t width)
{
    size_t col = indent;

    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > indent && col + 1 + word > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

/* The help of 'opt', its "%s" (if any) replaced by its list. */
static void expand_help(struct ndp_buf *out, const struct ndp_cli_option *opt)
{
    const char *hole = opt->help_list ? strstr(opt->help, "%s") : NULL;

    if (!hole) {
        ndp_buf_adds(out, opt->help);
        return;
    }
    ndp_buf_add(out, opt->help, (size_t)(hole - opt->help));
    opt->help_list(out);
    ndp_buf_adds(out, hole + 2);
}

static void print_option_help(FILE *out, const struct ndp_cli_option *opt)
{
    struct ndp_buf text = NDP_BUF_INIT;
    const char *arg = opt->arg_name;
    char head[64], optional[32];

    if (arg && opt->arg_optional) {
        snprintf(optional, sizeof(optional), "[%s]", arg);
        arg = optional;
    }
    if (opt->short_name)
        snprintf(head, sizeof(head), "  -%c, --%s%s%s", opt->short_name,
                 opt->long_name, arg ? " " : "", arg ? arg : "");
    else
        snprintf(head, sizeof(head), "      --%s%s%s", opt->long_name,
                 arg ? " " : "", arg ? arg : "");
    fprintf(out, "%-30s", head);
    if (strlen(head) >= 30)
        fprintf(out, "\n%30s", "");
    expand_help(&text, opt);
    print_wrapped(out, text.buf, 30, 79);
    ndp_buf_release(&text);
}

void ndp_cli_help(FILE *out)
{
    size_t i;

    fputs("usage: ndplint [OPTIONS] FILE...\n\n"
          "Finds the changes in a Terraform plan ('terraform show -json') or "
          "an ARM what-if\nresult ('az deployment group what-if "
          "--no-pretty-print') that make Azure\nKubernetes Service reimage "
          "nodes, and whether the cluster's node disruption\npolicy will "
          "refuse them. ARM templates are checked for the policy and window\n"
          "they declare. FILE '-' reads standard input.\n\nOptions:\n", out);
    for (i = 0; i < NDP_ARRAY_SIZE(options); i++)
        if (!options[i].hidden)
            print_option_help(out, &options[i]);
    fputs("\nExit status: 0 no finding at or above --fail-on; 1 at least "
          "one; 2 usage error\nor an input that cannot be read or "
          "understood.\n", out);
}

void ndp_cli_list_names(FILE *out)
{
    const char *name;
    size_t i;

    for (i = 0; (name = ndp_input_format_name(i)); i++)
        fprintf(out, "input %s\n", name);
    for (i = 0; (name = ndp_reporter_name(i)); i++)
        fprintf(out, "report %s\n", name);
    for (i = 0; (name = ndp_verdict_choice(i)); i++)
        fprintf(out, "verdict %s\n", name);
}

/* ---- parsing ---- */

static void build_getopt(struct option *longs, char *shorts)
{
    size_t i, s = 0;

    shorts[s++] = ':'; /* report a missing argument as ':' */
    for (i = 0; i < NDP_ARRAY_SIZE(options); i++) {
        const struct ndp_cli_option *opt = &options[i];

        longs[i].name = opt->long_name;
        longs[i].has_arg = !opt->arg_name      ? no_argument
                           : opt->arg_optional ? optional_argument
                                               : required_argument;
        longs[i].flag = NULL;
        longs[i].val = opt->short_name ? opt->short_name
                                       : LONG_ONLY_BASE + (int)i;
        if (opt->short_name) {
            shorts[s++] = opt->short_name;
            if (opt->arg_name)
                shorts[s++] = ':';
            if (opt->arg_name && opt->arg_optional)
                shorts[s++] = ':';
        }
    }
    memset(&longs[i], 0, sizeof(longs[i]));
    shorts[s] = '\0';
}

/* The row getopt_long's 'id' stands for. */
static const struct ndp_cli_option *option_of(int id)
{
    size_t i;

    if (id >= LONG_ONLY_BASE)
        return &options[id - LONG_ONLY_BASE];
    for (i = 0; i < NDP_ARRAY_SIZE(options); i++)
        if (options[i].short_name == id)
            return &options[i];
    NDP_BUG("getopt_long returned an option not in the table");
}

static int parse_size(size_t *out, const struct ndp_cli_option *opt,
                      const char *s, struct ndp_error *err)
{
    char *end;
    unsigned long long v;

    if (*s < '0' || *s > '9')
        goto bad;
    v = strtoull(s, &end, 10);
    if (*end || v == 0 || v > SIZE_MAX)
        goto bad;
    *out = (size_t)v;
    return 0;
bad:
    return ndp_error_set(err, NDP_EUSAGE, "--%s: '%s' is not a positive "
                         "whole number", opt->long_name, s);
}

/* Stores or checks 'arg' (NULL for a flag) as row 'opt' says. */
static int apply_option(struct ndp_options *o,
                        const struct ndp_cli_option *opt, const char *arg,
                        struct ndp_error *err)
{
    char *field = (char *)o + opt->offset;

    switch (opt->kind) {
    case NDP_CLI_BOOL:
        *(bool *)field = true;
        return 0;
    case NDP_CLI_STRING:
        *(const char **)field = arg;
        return 0;
    case NDP_CLI_SIZE:
        return parse_size((size_t *)field, opt, arg, err);
    case NDP_CLI_CALLBACK:
        return opt->parse(o, arg, err);
    }
    NDP_BUG("option row of an unknown kind");
}

/*
 * The word of 'argv' getopt_long() has just refused: the one before
 * 'optind', except that musl's getopt_long() moves 'optind' one past
 * 'argc' when the last word is an option without its argument.
 */
static const char *refused_word(int argc, char **argv)
{
    return argv[optind - 1 < argc ? optind - 1 : argc - 1];
}

int ndp_cli_parse(struct ndp_options *out, int argc, char **argv,
                  struct ndp_error *err)
{
    struct option longs[NDP_ARRAY_SIZE(options) + 1];
    char shorts[3 * NDP_ARRAY_SIZE(options) + 2];
    int id, rc = 0;
    size_t i, j;

    memset(out, 0, sizeof(*out));
    out->fail_on = DEFAULT_FAIL_ON;
    out->max_input_bytes = NDP_DEFAULT_MAX_INPUT_BYTES;
    build_getopt(longs, shorts);
    opterr = 0;
    optind = 0; /* 0, not 1: getopt_long starts afresh on every call */
    while (!rc && (id = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (id == '?' || id == ':')
            rc = ndp_error_set(err, NDP_EUSAGE, "%s '%s'",
                               id == ':' ? "missing argument for option"
                                         : "unknown option",
                               refused_word(argc, argv));
        else
            rc = apply_option(out, option_of(id), optarg, err);
    }
    if (rc)
        return rc;
    out->inputs = argv + optind;
    out->nr_inputs = (size_t)(argc - optind);
    for (i = 0; i < out->nr_inputs; i++)
        for (j = 0; j < i; j++)
            if (strcmp(out->inputs[i], out->inputs[j]) == 0)
                return ndp_error_set(err, NDP_EUSAGE, "'%s' is given more "
                                     "than once", out->inputs[i]);
    if (out->check_config && out->no_config)
        return ndp_error_set(err, NDP_EUSAGE, "--check-config and "
                             "--no-config: nothing to check");
    if (!out->nr_inputs && !out->help && !out->version && !out->list_rules &&
        !out->list_names && !out->explain && !out->check_config)
        return ndp_error_set(err, NDP_EUSAGE, "no input file (give a plan "
                             "JSON file, or '-' for standard input)");
    return 0;
}

/* ---- after parsing: the settings file and the checks ---- */

/*
 * After parsing: the default report (text), '-o FILE' for the one report
 * without a PATH, and no two reports to the same place.
 */
static int check_outputs(struct ndp_options *o, struct ndp_error *err)
{
    size_t i, j, no_path = 0, dash = 0;

    if (!o->nr_outputs) {
        strcpy(o->outputs[0].format, default_format);
        o->outputs[0].path = NULL;
        o->nr_outputs = 1;
    }
    for (i = 0; i < o->nr_outputs; i++) {
        no_path += !o->outputs[i].path;
        dash += o->outputs[i].path && strcmp(o->outputs[i].path, "-") == 0;
    }
    if (o->output && !no_path && !o->window_check)
        return ndp_error_set(err, NDP_EUSAGE, "--output: every --format "
                             "already has a path");
    if (no_path > 1 || dash + (o->output ? 0 : no_path) > 1)
        return ndp_error_set(err, NDP_EUSAGE, "--format: only one report can "
                             "go to standard output; give the others a path "
                             "(--format FMT:PATH)");
    for (i = 0; i < o->nr_outputs; i++) {
        struct ndp_output *out = &o->outputs[i];
        if (!out->path)
            out->path = o->output;
        else if (strcmp(out->path, "-") == 0)
            out->path = NULL;
    }
    for (i = 0; i < o->nr_outputs; i++)
        for (j = 0; j < i; j++)
            if (o->outputs[i].path && o->outputs[j].path &&
                strcmp(o->outputs[i].path, o->outputs[j].path) == 0)
                return ndp_error_set(err, NDP_EUSAGE, "--format: two reports "
                                     "would be written to '%s'",
                                     o->outputs[i].path);
    return 0;
}

/*
 * A path option that names nothing, or the wrong kind of thing, would
 * otherwise be passed over in silence (no source location found).
 */
static int check_path(const char *option, const char *path, bool want_dir,
                      struct ndp_error *err)
{
    struct stat st;

    if (!path)
        return 0;
    if (stat(path, &st) != 0)
        return ndp_error_set(err, NDP_EUSAGE, "%s '%s': %s", option, path,
                             strerror(errno));
    if (want_dir && !S_ISDIR(st.st_mode))
        return ndp_error_set(err, NDP_EUSAGE, "%s '%s' is not a directory",
                             option, path);
    if (!want_dir && !S_ISREG(st.st_mode))
        return ndp_error_set(err, NDP_EUSAGE, "%s '%s' is not a regular "
                             "file", option, path);
    return 0;
}

int ndp_cli_finish(struct ndp_options *o, const struct ndp_config *config,
                   struct ndp_error *err)
{
    bool formats_given = o->nr_outputs > 0;
    size_t i;
    int rc = 0;

    if (config && !o->fail_on_given && config->fail_on >= 0)
        o->fail_on = config->fail_on;
    if (config && !o->rules_dir)
        o->rules_dir = config->rules_dir;
    if (config && !o->at_given && config->at_next_window)
        o->at_next_window = true;
    else if (config && !o->at_given && config->has_at) {
        o->have_at = true;
        o->at = config->at;
    }
    /* Every report the file names, unless the command line names any. */
    for (i = 0; config && !formats_given && i < config->nr_formats; i++)
        if (add_output(o, config->formats[i]) != FORMAT_OK)
            return ndp_error_set(err, NDP_ECONFIG, "config '%s': "
                                 "formats[%zu]: '%s' is not FMT or FMT:PATH "
                                 "with a known format", config->path, i,
                                 config->formats[i]);
    rc = check_path("--source-root", o->source_root, true, err);
    if (!rc)
        rc = check_path("--template", o->template_path, false, err);
    return rc ? rc : check_outputs(o, err);
}
