/*
 * SPDX-License-Identifier: Apache-2.0
 * cli.h - the command line: one table of options, a row per option, drives
 * getopt_long, the checks of each argument and the --help text.
 *
 * Adding an option is adding a row to the table in cli.c (and a field to
 * struct ndp_options when it stores something): the parser, --help and
 * tests/unit/test_cli.c's walk of the table pick it up from there.
 */
#ifndef NDP_CLI_H
#define NDP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ndp_buf;
struct ndp_config;
struct ndp_error;

enum ndp_color_mode { NDP_COLOR_AUTO, NDP_COLOR_ALWAYS, NDP_COLOR_NEVER };

#define NDP_MAX_OUTPUTS 8
#define NDP_MAX_CLUSTER_STATES 64
#define NDP_MAX_FORMAT_NAME 16

/* One report to write: '--format FMT[:PATH]'. */
struct ndp_output {
    char format[NDP_MAX_FORMAT_NAME];  /* reporter name */
    const char *path;                  /* NULL: standard output */
};

struct ndp_options {
    bool help, version, list_rules, window_check;
    bool list_names;           /* --list-names (hidden) */
    /* --check-config: check settings files (check_config_file, then the
     * inputs; none: the one a run would read) instead of reading plans */
    bool check_config;
    const char *check_config_file; /* --check-config=FILE, or NULL */
    const char *explain;       /* --explain CATEGORY|RULE, or NULL */
    const char *config;        /* --config FILE, or NULL to look for one */
    bool no_config, no_waivers, show_suppressed, fail_on_given, quiet;
    const char *baseline;      /* --baseline FILE, or NULL */
    const char *write_baseline;/* --write-baseline FILE, or NULL */
    const char *template_path; /* --template FILE (Bicep/ARM source), or NULL */
    struct ndp_output outputs[NDP_MAX_OUTPUTS]; /* at least one after parsing */
    size_t nr_outputs;
    const char *output;        /* -o FILE, or NULL for stdout */
    const char *source_root;   /* --source-root DIR, or NULL: "." */
    bool follow_links;         /* --follow-links: read a named file a link
                                  of the working tree leads out of it to */
    const char *rules_dir;     /* --rules DIR, or NULL for the embedded rules */
    const char *input_format;  /* --input-format, or NULL to sniff */
    bool have_profile;
    int profile;               /* enum ndp_profile when have_profile */
    bool have_at;              /* an instant: --at TIME, or the settings
                                  file's "at" */
    int64_t at;
    bool at_next_window;       /* --at next-window, or the settings file's */
    bool at_given;             /* --at in any form: the settings file's
                                  "at" then yields */
    int fail_on;               /* enum ndp_severity */
    enum ndp_color_mode color;
    size_t max_input_bytes;
    char **inputs;             /* borrowed from argv */
    size_t nr_inputs;
    const char *cluster_states[NDP_MAX_CLUSTER_STATES]; /* --cluster-state */
    size_t nr_cluster_states;
};

/* How a row of the option table takes its value. */
enum ndp_cli_kind {
    NDP_CLI_BOOL,     /* no argument; sets the bool at 'offset' */
    NDP_CLI_STRING,   /* stores the argument at 'offset' (borrowed: argv) */
    NDP_CLI_SIZE,     /* a positive whole number, into the size_t at 'offset' */
    NDP_CLI_CALLBACK  /* hands the argument to 'parse' */
};

/*
 * One option.  'help' may hold one "%s": --help puts there what
 * 'help_list' appends, a list generated from the table it comes from (the
 * reporters, say), so that the help cannot drift from what is accepted.
 * A 'parse' callback fills 'o' from 'arg' or returns NDP_EUSAGE with 'err'
 * set.  Every string is static.
 *
 * 'arg_optional' (a callback row only): the argument may be left out, and
 * then 'parse' gets NULL.  Only '--name=VALUE' gives it one: after
 * '--name VALUE' the VALUE stays a positional argument (getopt_long's
 * optional_argument), which the option's help must say what it means.
 * --help shows the argument as '[ARG]'.
 *
 * 'hidden': parsed like any other row but left out of --help (and so of
 * the man page and the completions, which tests hold to --help): for
 * tests and scripts, not for users.
 */
struct ndp_cli_option {
    char short_name;          /* '\0': long form only */
    const char *long_name;    /* without the leading "--" */
    enum ndp_cli_kind kind;
    size_t offset;            /* of the field in struct ndp_options */
    int (*parse)(struct ndp_options *o, const char *arg,
                 struct ndp_error *err);       /* NDP_CLI_CALLBACK only */
    const char *arg_name;     /* e.g. "FILE"; NULL: takes no argument */
    const char *help;
    void (*help_list)(struct ndp_buf *out);    /* fills "%s", or NULL */
    bool arg_optional;        /* see above */
    bool hidden;              /* see above */
};

/* Row 'i' of the option table, in --help order; NULL past the last. */
const struct ndp_cli_option *ndp_cli_option(size_t i);

/*
 * Parses 'argv' into 'out' (which borrows argv's strings).  Returns 0, or
 * NDP_EUSAGE with 'err' saying what is wrong.
 */
int ndp_cli_parse(struct ndp_options *out, int argc, char **argv,
                  struct ndp_error *err);
/*
 * Settles what the command line left open with the settings file 'config'
 * (may be NULL): --fail-on, --rules and the reports, then checks the
 * paths and the reports.  The command line always wins.  Returns 0,
 * NDP_EUSAGE for a command-line mistake, or NDP_ECONFIG for a "formats"
 * entry of the settings file that is not a report.
 */
int ndp_cli_finish(struct ndp_options *o, const struct ndp_config *config,
                   struct ndp_error *err);
/* The full --help text, and the two lines shown after a usage error. */
/*
 * The current instant: the clock, or the RFC 3339 instant in the
 * environment variable NDPLINT_NOW (for tests that must judge "now" at a
 * chosen time; docs/development.md).  The only read of the clock that
 * decides what a run judges.
 */
int64_t ndp_cli_now(void);

void ndp_cli_help(FILE *out);
void ndp_cli_short_usage(FILE *out);
/*
 * --list-names: every input format ("input NAME"), report format ("report
 * NAME") and verdict ("verdict NAME"), one a line, in the order of the
 * reader, reporter and verdict tables: what the tests that run every
 * format read, and what the lists written by hand in the documents and
 * the completions are checked against.
 */
void ndp_cli_list_names(FILE *out);

#endif
