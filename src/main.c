/*
 * SPDX-License-Identifier: Apache-2.0
 * main.c - the ndplint command: options in, the run (run.h) called,
 * reports out, exit status.  The only file that decides the process's
 * exit status.
 */
#include "common.h"
#include "buf.h"
#include "cli.h"
#include "config.h"
#include "config_check.h"
#include "error.h"
#include "explain.h"
#include "outfile.h"
#include "overrides.h"
#include "report.h"
#include "rules.h"
#include "run.h"
#include "worktree.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

/* GitHub refuses a step summary over 1 MiB; leave room for other steps. */
#define STEP_SUMMARY_BUDGET 1000000

static int fail(const struct ndp_error *err)
{
    ndp_error_print(stderr, err);
    return NDP_EXIT_ERROR;
}

/*
 * The rules: --rules DIR, else the settings file's "rules", else the
 * built-in ones.  A settings file is the pull request's to write, and one
 * that names a directory of a single rule would narrow every run in
 * silence, so how many rules were loaded from where is said on stderr.
 */
static int load_rules(struct ndp_ruleset **out, const struct ndp_options *o,
                      const struct ndp_config *config, struct ndp_error *err)
{
    size_t n;
    int rc;

    if (!o->rules_dir)
        return ndp_rules_load_embedded(out, err);
    rc = ndp_rules_load_dir(out, o->rules_dir, err);
    if (rc || !config || o->rules_dir != config->rules_dir)
        return rc;
    n = ndp_ruleset_count(*out);
    ndp_warn("%zu rule%s loaded from '%s' (\"rules\" in the settings file "
             "'%s'), not the built-in rules", n, n == 1 ? "" : "s",
             o->rules_dir, config->path);
    return 0;
}

/* --explain NAME: exit 0, or 2 when 'rs' and the verdicts know no NAME. */
static int explain(struct ndp_buf *text, const struct ndp_ruleset *rs,
                   const char *name)
{
    if (ndp_explain(text, rs, name) != 0) {
        ndp_warn("--explain: no category, rule or verdict '%s' (see ndplint "
                 "--list-rules)", name);
        return NDP_EXIT_ERROR;
    }
    fwrite(text->buf, 1, text->len, stdout);
    return NDP_EXIT_CLEAN;
}

/* Writes 'text' to 'path', or to standard output when 'path' is NULL. */
static int emit(const char *path, const struct ndp_buf *text,
                struct ndp_error *err)
{
    if (path)
        return ndp_outfile_write(path, text->buf, text->len, NULL, err);
    if (fwrite(text->buf, 1, text->len, stdout) != text->len ||
        fflush(stdout) != 0)
        return ndp_error_set(err, NDP_EIO, "cannot write the report to "
                             "standard output: %s", strerror(errno));
    return 0;
}

/* Colour for a text report going to 'path' (NULL: standard output). */
static bool use_color(const struct ndp_options *o, const char *path)
{
    const char *no_color = getenv("NO_COLOR");

    if (o->color != NDP_COLOR_AUTO)
        return o->color == NDP_COLOR_ALWAYS;
    if (no_color && *no_color)
        return false;
    return !path && isatty(STDOUT_FILENO);
}

/*
 * With a 'github' report inside GitHub Actions: appends the Markdown
 * summary to the step summary file (appended, as GitHub asks, so that
 * other steps' summaries stay).
 */
static int append_step_summary(const struct ndp_options *o,
                               const struct ndp_report *report,
                               struct ndp_error *err)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    struct ndp_buf text = NDP_BUF_INIT;
    bool github = false;
    FILE *f;
    size_t i;
    int rc = 0;

    for (i = 0; i < o->nr_outputs; i++)
        github |= strcmp(o->outputs[i].format, "github") == 0;
    if (!github || !path || !*path)
        return 0;
    ndp_report_markdown_summary(&text, report, STEP_SUMMARY_BUDGET);
    f = fopen(path, "ab");
    if (!f || fwrite(text.buf, 1, text.len, f) != text.len)
        rc = ndp_error_set(err, NDP_EIO, "cannot append to "
                           "GITHUB_STEP_SUMMARY '%s': %s", path,
                           strerror(errno));
    if (f && fclose(f) != 0 && !rc)
        rc = ndp_error_set(err, NDP_EIO, "cannot append to "
                           "GITHUB_STEP_SUMMARY '%s': %s", path,
                           strerror(errno));
    ndp_buf_release(&text);
    return rc;
}

/* Writes every report; a failed one does not stop the others. */
static int write_reports(const struct ndp_options *o,
                         struct ndp_report *report)
{
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i;
    int status = 0;

    for (i = 0; i < o->nr_outputs; i++) {
        const struct ndp_output *out = &o->outputs[i];
        struct ndp_buf text = NDP_BUF_INIT;

        report->options.color = strcmp(out->format, "text") == 0 &&
                        use_color(o, out->path);
        ndp_report_render(&text, ndp_reporter_find(out->format), report);
        if (emit(out->path, &text, &err) != 0)
            status = fail(&err);
        ndp_buf_release(&text);
    }
    if (append_step_summary(o, report, &err) != 0)
        status = fail(&err);
    return status;
}

/*
 * The settings file 'path', refused as every file a run reads is (run.c)
 * when a symbolic link of the working tree leads it outside the tree,
 * unless --follow-links: discovery finds the pull request's own.
 */
static int check_config_link(const struct ndp_options *o, const char *path,
                             struct ndp_error *err)
{
    struct ndp_worktree tree;
    int rc;

    if (o->follow_links)
        return 0;
    ndp_worktree_open(&tree, o->source_root);
    rc = ndp_worktree_check_link(&tree, path, err);
    ndp_worktree_release(&tree);
    return rc;
}

/* --config FILE, else .ndplint.json found upward, unless --no-config. */
static int load_config(struct ndp_config *config, bool *have,
                       const struct ndp_options *o, struct ndp_error *err)
{
    char cwd[4096];
    char *found = NULL;
    const char *path;
    int rc = 0;

    *have = false;
    if (o->no_config || o->help || o->version)
        return 0;
    if (!o->config && getcwd(cwd, sizeof(cwd)))
        found = ndp_config_find(cwd);
    path = o->config ? o->config : found;
    if (path)
        rc = check_config_link(o, path, err);
    if (path && !rc)
        rc = ndp_config_load(config, path, err);
    *have = path && rc == 0;
    free(found);
    return rc;
}

/*
 * What every run reads before its inputs: the settings file, the options
 * it fills in, the rules, and the overrides checked against those rules.
 * On success '*have' says whether 'config' was loaded (release it then)
 * and '*rs' is the caller's; on failure both are the caller's to free as
 * they stand.
 */
static int prepare(struct ndp_options *o, struct ndp_config *config,
                   bool *have, struct ndp_ruleset **rs,
                   struct ndp_error *err)
{
    int rc = load_config(config, have, o, err);

    if (!rc)
        rc = ndp_cli_finish(o, *have ? config : NULL, err);
    if (!rc)
        rc = load_rules(rs, o, *have ? config : NULL, err);
    if (!rc && *have)
        rc = ndp_overrides_check(config, *rs, err);
    return rc;
}

/*
 * --check-config for one settings file, 'path' (NULL: the one a run would
 * read, --config or found upward).  It goes through prepare(), so the file
 * passes exactly when a run would accept it; its own "formats" and "rules"
 * are checked even when the command line would override them.  Then its
 * waivers at 'at'.  Exit 2 (broken or not found), 1 (a waiver expired) or
 * 0.
 */
static int check_config(const struct ndp_options *given, const char *path,
                        int64_t at)
{
    struct ndp_options o = *given;
    struct ndp_config config;
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_buf out = NDP_BUF_INIT;
    bool have = false;
    int status = NDP_EXIT_CLEAN;

    if (path)
        o.config = path;
    o.nr_outputs = 0;
    o.output = NULL;
    if (prepare(&o, &config, &have, &rs, &err) != 0) {
        status = fail(&err);
    } else if (!have) {
        ndp_warn("--check-config: no %s in the current directory or a "
                 "parent up to the repository root", NDP_CONFIG_NAME);
        status = NDP_EXIT_ERROR;
    } else if (ndp_config_check_waivers(&out, &config, at) > 0) {
        status = NDP_EXIT_FINDINGS;
    }
    if (emit(NULL, &out, &err) != 0)
        status = fail(&err);
    ndp_buf_release(&out);
    ndp_ruleset_free(rs);
    if (have)
        ndp_config_release(&config);
    return status;
}

/* --check-config: every file named, else the one a run would read; the
 * exit status is the worst of theirs. */
static int check_configs(const struct ndp_options *o)
{
    int64_t at = o->have_at ? o->at : ndp_cli_now();
    int status = NDP_EXIT_CLEAN, one;
    size_t i;

    if (!o->check_config_file && !o->nr_inputs)
        return check_config(o, NULL, at);
    if (o->check_config_file)
        status = check_config(o, o->check_config_file, at);
    for (i = 0; i < o->nr_inputs; i++) {
        one = check_config(o, o->inputs[i], at);
        status = one > status ? one : status;
    }
    return status;
}

/*
 * The run's options from the command line's: every input, the instant
 * (--at, else now) and what decides which findings count.  'inputs' has
 * room for every input.
 */
static void run_options(struct ndp_run_options *out,
                        struct ndp_run_input *inputs,
                        const struct ndp_options *o,
                        const struct ndp_config *config)
{
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < o->nr_inputs; i++) {
        inputs[i].path = o->inputs[i];
        inputs[i].bytes = NULL;
        inputs[i].size = 0;
    }
    out->inputs = inputs;
    out->nr_inputs = o->nr_inputs;
    out->cluster_states = o->cluster_states;
    out->nr_cluster_states = o->nr_cluster_states;
    out->input.max_bytes = o->max_input_bytes;
    out->input.force_format = o->input_format;
    out->at = o->have_at ? o->at : ndp_cli_now();
    out->at_next_window = o->at_next_window;
    out->have_profile = o->have_profile;
    out->profile = (enum ndp_profile)o->profile;
    out->config = config;
    out->no_waivers = o->no_waivers;
    out->source_root = o->source_root;
    out->follow_links = o->follow_links;
    out->template_path = o->template_path;
    out->baseline = o->baseline;
    out->write_baseline = o->write_baseline;
}

/* The reports' options from the command line's. */
static void report_options(struct ndp_report_options *out,
                           const struct ndp_options *o,
                           const struct ndp_ruleset *rs)
{
    memset(out, 0, sizeof(*out));
    out->rules = rs;
    out->source_root = o->source_root;
    out->fail_on = o->fail_on;
    out->at_given = o->have_at;
    out->quiet = o->quiet;
    out->show_suppressed = o->show_suppressed;
    out->baseline = o->baseline;
}

/* The reports of 'result', or the --window-check answer; exit status. */
static int report(const struct ndp_options *o, const struct ndp_ruleset *rs,
                  const struct ndp_result *result)
{
    struct ndp_report_options ro;
    struct ndp_report report;
    struct ndp_buf text = NDP_BUF_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    int status;

    report_options(&ro, o, rs);
    ndp_report_init(&report, result, &ro);
    if (o->window_check) {
        report.options.color = use_color(o, o->output);
        ndp_report_window_check(&text, &report);
        status = emit(o->output, &text, &err) != 0 ? fail(&err)
                                                    : NDP_EXIT_CLEAN;
    } else {
        /* The exit status is decided once every report is written. */
        status = write_reports(o, &report);
        if (!status)
            status = ndp_report_failing(&report) ? NDP_EXIT_FINDINGS
                                                 : NDP_EXIT_CLEAN;
    }
    ndp_buf_release(&text);
    return status;
}

static int run(const struct ndp_options *o, const struct ndp_ruleset *rs,
               const struct ndp_config *config)
{
    struct ndp_run_input *inputs =
        ndp_xcalloc(o->nr_inputs ? o->nr_inputs : 1, sizeof(*inputs));
    struct ndp_result result = NDP_RESULT_INIT;
    struct ndp_run_options ro;
    size_t i;
    int status;

    run_options(&ro, inputs, o, config);
    if (ndp_run(&result, &ro, rs) != 0) {
        for (i = 0; i < result.nr_errors; i++)
            fail(&result.errors[i]);
        status = NDP_EXIT_ERROR;
    } else {
        status = report(o, rs, &result);
    }
    ndp_result_release(&result);
    free(inputs);
    return status;
}

int main(int argc, char **argv)
{
    struct ndp_options o;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_ruleset *rs = NULL;
    struct ndp_config config;
    struct ndp_buf text = NDP_BUF_INIT;
    bool have_config = false;
    int status;

    if (ndp_cli_parse(&o, argc, argv, &err) != 0) {
        ndp_error_print(stderr, &err);
        ndp_cli_short_usage(stderr);
        return NDP_EXIT_ERROR;
    }
    if (o.help) {
        ndp_cli_help(stdout);
        return NDP_EXIT_CLEAN;
    }
    if (o.version) {
        printf("ndplint %s\nLicense: Apache-2.0\n", NDP_VERSION);
        return NDP_EXIT_CLEAN;
    }
    if (o.list_names) {
        ndp_cli_list_names(stdout);
        return NDP_EXIT_CLEAN;
    }
    if (o.check_config)
        return check_configs(&o);
    if (prepare(&o, &config, &have_config, &rs, &err) != 0) {
        status = fail(&err);
        /* A command-line mistake gets the short usage, as in parsing. */
        if (err.code == NDP_EUSAGE)
            ndp_cli_short_usage(stderr);
        goto out;
    }
    if (o.list_rules) {
        ndp_explain_list_rules(&text, rs);
        fwrite(text.buf, 1, text.len, stdout);
        status = NDP_EXIT_CLEAN;
    } else if (o.explain) {
        status = explain(&text, rs, o.explain);
    } else {
        status = run(&o, rs, have_config ? &config : NULL);
    }
out:
    ndp_buf_release(&text);
    ndp_ruleset_free(rs);
    if (have_config)
        ndp_config_release(&config);
    return status;
}
