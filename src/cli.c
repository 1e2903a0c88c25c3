/*
 * cli.c - command-line parsing for ndplint.  The option table below is
 * the single source of truth: getopt_long's struct option[] and the
 * --help text are both generated from it.
 */
#include "common.h"
#include "cli.h"
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

enum option_id {
    OPT_HELP = 'h',
    OPT_VERSION = 'V',
    OPT_FORMAT = 'f',
    OPT_OUTPUT = 'o',
    OPT_PROFILE = 256,
    OPT_AT,
    OPT_FAIL_ON,
    OPT_RULES,
    OPT_LIST_RULES,
    OPT_INPUT_FORMAT,
    OPT_MAX_INPUT_BYTES,
    OPT_COLOR,
    OPT_WINDOW_CHECK,
    OPT_SOURCE_ROOT,
    OPT_CLUSTER_STATE,
    OPT_EXPLAIN,
    OPT_CONFIG,
    OPT_NO_CONFIG,
    OPT_NO_WAIVERS,
    OPT_SHOW_SUPPRESSED,
    OPT_BASELINE,
    OPT_WRITE_BASELINE,
    OPT_TEMPLATE
};

struct option_spec {
    const char *long_name;
    int id;
    const char *arg;  /* argument name, NULL for a flag */
    const char *help;
};

static const struct option_spec options[] = {
    { "format", OPT_FORMAT, "FMT[:PATH]",
      "report format: text (default), json, sarif, github, junit, markdown; "
      "FMT:PATH writes that report to PATH; repeat for several reports from "
      "one run (at most one without a PATH, which goes to standard output)" },
    { "output", OPT_OUTPUT, "FILE",
      "write the report that has no PATH to FILE instead of standard output" },
    { "source-root", OPT_SOURCE_ROOT, "DIR",
      "make file paths in sarif, github and junit reports relative to DIR "
      "(default: the current directory)" },
    { "profile", OPT_PROFILE, "PROFILE",
      "node disruption profile for clusters whose input does not declare "
      "one: Allow (the AKS default), AllowDuringMaintenanceWindow, Block" },
    { "at", OPT_AT, "TIME",
      "judge maintenance windows at this RFC 3339 instant (default: now), "
      "e.g. 2026-12-06T02:30:00Z" },
    { "fail-on", OPT_FAIL_ON, "LEVEL",
      "exit 1 when a finding is at least this severe: error (default), "
      "warning, note, never" },
    { "cluster-state", OPT_CLUSTER_STATE, "FILE",
      "live state of a cluster: 'az aks show', 'az aks maintenanceconfiguration "
      "list|show' or 'az aks nodepool list' JSON (repeatable); used where "
      "the input does not declare the profile, window or versions" },
    { "config", OPT_CONFIG, "FILE",
      "read settings, cluster declarations and waivers from FILE (default: "
      ".ndplint.json in the current directory or the nearest parent up to "
      "the repository root)" },
    { "no-config", OPT_NO_CONFIG, NULL, "read no settings file" },
    { "no-waivers", OPT_NO_WAIVERS, NULL,
      "ignore the settings file's waivers (audit every finding)" },
    { "show-suppressed", OPT_SHOW_SUPPRESSED, NULL,
      "show waived findings in the text report" },
    { "template", OPT_TEMPLATE, "FILE",
      "the Bicep or ARM template a what-if result came from: findings point "
      "at the line of their resource in it" },
    { "baseline", OPT_BASELINE, "FILE",
      "report only findings that FILE (from --write-baseline) does not list" },
    { "write-baseline", OPT_WRITE_BASELINE, "FILE",
      "write the fingerprints of the current findings to FILE" },
    { "window-check", OPT_WINDOW_CHECK, NULL,
      "print each cluster's aksManagedNodeOSUpgradeSchedule window in plain "
      "words, whether --at is inside it and its next three openings, "
      "instead of the findings" },
    { "rules", OPT_RULES, "DIR",
      "use the rule files in DIR instead of the built-in rules" },
    { "explain", OPT_EXPLAIN, "NAME",
      "explain a category (e.g. network-policy) or a rule (e.g. NDP101): "
      "what changes, why AKS rebuilds nodes, which transitions count and "
      "what to do; then exit" },
    { "list-rules", OPT_LIST_RULES, NULL,
      "print the rules (id, category, scope, class, summary) and exit" },
    { "input-format", OPT_INPUT_FORMAT, "FMT",
      "read inputs as terraform-plan, arm-whatif or arm-template instead "
      "of detecting the format" },
    { "max-input-bytes", OPT_MAX_INPUT_BYTES, "N",
      "refuse inputs larger than N bytes (default 4294967296)" },
    { "color", OPT_COLOR, "WHEN",
      "colour the text report: auto (default: on a terminal unless NO_COLOR "
      "is set), always, never" },
    { "help", OPT_HELP, NULL, "show this help and exit" },
    { "version", OPT_VERSION, NULL, "show the version and exit" },
};

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
    for (i = 0; i < NDP_ARRAY_SIZE(options); i++) {
        const struct option_spec *o = &options[i];
        char head[64];

        if (o->id < 256)
            snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->id,
                     o->long_name, o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(head, sizeof(head), "      --%s%s%s", o->long_name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "%-30s", head);
        if (strlen(head) >= 30)
            fprintf(out, "\n%30s", "");
        print_wrapped(out, o->help, 30, 79);
    }
    fputs("\nExit status: 0 no finding at or above --fail-on; 1 at least "
          "one; 2 usage error\nor an input that cannot be read or "
          "understood.\n", out);
}

static void build_getopt(struct option *longs, char *shorts)
{
    size_t i, s = 0;

    shorts[s++] = ':'; /* report a missing argument as ':' */
    for (i = 0; i < NDP_ARRAY_SIZE(options); i++) {
        longs[i].name = options[i].long_name;
        longs[i].has_arg = options[i].arg ? required_argument : no_argument;
        longs[i].flag = NULL;
        longs[i].val = options[i].id;
        if (options[i].id < 256) {
            shorts[s++] = (char)options[i].id;
            if (options[i].arg)
                shorts[s++] = ':';
        }
    }
    memset(&longs[i], 0, sizeof(longs[i]));
    shorts[s] = '\0';
}

static int parse_size(size_t *out, const char *s, struct ndp_error *err)
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
    return ndp_error_set(err, NDP_EUSAGE, "--max-input-bytes: '%s' is not a "
                         "positive whole number", s);
}

/* '--format FMT[:PATH]'; a PATH of '-' is standard output. */
static int parse_format(struct ndp_options *o, const char *arg,
                        struct ndp_error *err)
{
    struct ndp_output *out = &o->outputs[o->nr_outputs];
    size_t len = strcspn(arg, ":");

    if (o->nr_outputs == NDP_MAX_OUTPUTS)
        return ndp_error_set(err, NDP_EUSAGE, "--format: at most %d reports "
                             "in one run", NDP_MAX_OUTPUTS);
    if (len < sizeof(out->format)) {
        memcpy(out->format, arg, len);
        out->format[len] = '\0';
    }
    if (len >= sizeof(out->format) || !ndp_reporter_find(out->format))
        return ndp_error_set(err, NDP_EUSAGE, "--format: unknown format "
                             "'%.*s' (use one of: %s)", (int)len, arg,
                             ndp_reporter_names());
    out->path = arg[len] ? arg + len + 1 : NULL;
    if (out->path && !*out->path)
        return ndp_error_set(err, NDP_EUSAGE, "--format: '%s' has an empty "
                             "path", arg);
    o->nr_outputs++;
    return 0;
}

/*
 * After parsing: the default report (text), '-o FILE' for the one report
 * without a PATH, and no two reports to the same place.
 */
static int check_outputs(struct ndp_options *o, struct ndp_error *err)
{
    size_t i, j, no_path = 0, dash = 0;

    if (!o->nr_outputs) {
        strcpy(o->outputs[0].format, "text");
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
    size_t i;
    int rc = 0;

    if (config && !o->fail_on_given && config->fail_on >= 0)
        o->fail_on = config->fail_on;
    if (config && !o->rules_dir)
        o->rules_dir = config->rules_dir;
    for (i = 0; config && !o->nr_outputs && i < config->nr_formats && !rc;
         i++)
        rc = parse_format(o, config->formats[i], err);
    if (rc) {
        ndp_error_clear(err);
        return ndp_error_set(err, NDP_EUSAGE, "config '%s': formats[%zu]: "
                             "'%s' is not FMT or FMT:PATH with a known "
                             "format", config->path, i - 1,
                             config->formats[i - 1]);
    }
    rc = check_path("--source-root", o->source_root, true, err);
    if (!rc)
        rc = check_path("--template", o->template_path, false, err);
    return rc ? rc : check_outputs(o, err);
}

static int parse_one(struct ndp_options *o, int id, const char *arg,
                     struct ndp_error *err)
{
    switch (id) {
    case OPT_HELP: o->help = true; return 0;
    case OPT_VERSION: o->version = true; return 0;
    case OPT_LIST_RULES: o->list_rules = true; return 0;
    case OPT_WINDOW_CHECK: o->window_check = true; return 0;
    case OPT_EXPLAIN: o->explain = arg; return 0;
    case OPT_CONFIG: o->config = arg; return 0;
    case OPT_NO_CONFIG: o->no_config = true; return 0;
    case OPT_NO_WAIVERS: o->no_waivers = true; return 0;
    case OPT_SHOW_SUPPRESSED: o->show_suppressed = true; return 0;
    case OPT_BASELINE: o->baseline = arg; return 0;
    case OPT_WRITE_BASELINE: o->write_baseline = arg; return 0;
    case OPT_TEMPLATE: o->template_path = arg; return 0;
    case OPT_OUTPUT: o->output = arg; return 0;
    case OPT_RULES: o->rules_dir = arg; return 0;
    case OPT_SOURCE_ROOT: o->source_root = arg; return 0;
    case OPT_CLUSTER_STATE:
        if (o->nr_cluster_states == NDP_MAX_CLUSTER_STATES)
            return ndp_error_set(err, NDP_EUSAGE, "--cluster-state: at most "
                                 "%d files", NDP_MAX_CLUSTER_STATES);
        o->cluster_states[o->nr_cluster_states++] = arg;
        return 0;
    case OPT_FORMAT:
        return parse_format(o, arg, err);
    case OPT_PROFILE:
        o->profile = ndp_profile_parse(arg);
        o->have_profile = true;
        if (o->profile < 0)
            return ndp_error_set(err, NDP_EUSAGE, "--profile: unknown "
                                 "profile '%s' (use Allow, "
                                 "AllowDuringMaintenanceWindow or Block)",
                                 arg);
        return 0;
    case OPT_AT:
        o->have_at = true;
        if (ndp_time_parse_rfc3339(&o->at, arg) != 0)
            return ndp_error_set(err, NDP_EUSAGE, "--at: '%s' is not an RFC "
                                 "3339 date-time such as "
                                 "2026-12-06T02:30:00Z", arg);
        return 0;
    case OPT_FAIL_ON:
        o->fail_on_given = true;
        o->fail_on = ndp_severity_parse(arg);
        if (o->fail_on < 0)
            return ndp_error_set(err, NDP_EUSAGE, "--fail-on: unknown level "
                                 "'%s' (use error, warning, note or never)",
                                 arg);
        return 0;
    case OPT_INPUT_FORMAT:
        if (strcmp(arg, "terraform-plan") != 0 &&
            strcmp(arg, "arm-whatif") != 0 &&
            strcmp(arg, "arm-template") != 0)
            return ndp_error_set(err, NDP_EUSAGE, "--input-format: unknown "
                                 "format '%s' (use terraform-plan, "
                                 "arm-whatif or arm-template)", arg);
        o->input_format = arg;
        return 0;
    case OPT_MAX_INPUT_BYTES:
        return parse_size(&o->max_input_bytes, arg, err);
    case OPT_COLOR:
        if (strcmp(arg, "auto") == 0)
            o->color = NDP_COLOR_AUTO;
        else if (strcmp(arg, "always") == 0)
            o->color = NDP_COLOR_ALWAYS;
        else if (strcmp(arg, "never") == 0)
            o->color = NDP_COLOR_NEVER;
        else
            return ndp_error_set(err, NDP_EUSAGE, "--color: unknown value "
                                 "'%s' (use auto, always or never)", arg);
        return 0;
    default:
        return ndp_error_set(err, NDP_EUSAGE, "unknown option");
    }
}

int ndp_cli_parse(struct ndp_options *out, int argc, char **argv,
                  struct ndp_error *err)
{
    struct option longs[NDP_ARRAY_SIZE(options) + 1];
    char shorts[2 * NDP_ARRAY_SIZE(options) + 3];
    int id, rc = 0;
    size_t i, j;

    memset(out, 0, sizeof(*out));
    out->fail_on = NDP_SEVERITY_ERROR;
    out->max_input_bytes = NDP_DEFAULT_MAX_INPUT_BYTES;
    build_getopt(longs, shorts);
    opterr = 0;
    optind = 1;
    while (!rc && (id = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (id == '?' || id == ':')
            rc = ndp_error_set(err, NDP_EUSAGE, "%s '%s'",
                               id == ':' ? "missing argument for option"
                                         : "unknown option",
                               argv[optind - 1]);
        else
            rc = parse_one(out, id, optarg, err);
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
    if (!out->nr_inputs && !out->help && !out->version && !out->list_rules &&
        !out->explain)
        return ndp_error_set(err, NDP_EUSAGE, "no input file (give a plan "
                             "JSON file, or '-' for standard input)");
    return 0;
}
