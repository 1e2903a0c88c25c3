/*
 * SPDX-License-Identifier: Apache-2.0
 * report_internal.h - the reporters as the report subsystem knows them:
 * one descriptor per output format, defined by its file
 * (report_<format>.c) and listed in the table of report.c, which is all
 * the rest of the program sees of them (report.h: find, name, render).
 * Only files of src/report/ and their tests include it.
 */
#ifndef NDP_REPORT_INTERNAL_H
#define NDP_REPORT_INTERNAL_H

#ifndef NDP_INSIDE_REPORT
#error "report_internal.h is internal to src/report/ and its tests"
#endif

#include "report.h"

struct ndp_buf;

struct ndp_defuse;

struct ndp_reporter {
    const char *name;
    void (*write)(struct ndp_buf *out, const struct ndp_report *report);
    unsigned utf8_flags; /* safe.h NDP_UTF8_*: what the consumer refuses */
    /* The command rule (safe.h): the log commands the format writes
     * itself (NDP_CMDS_*), and how it writes a '#' or ':' that would
     * complete another. */
    unsigned commands;
    const struct ndp_defuse *defuse;
};

extern const struct ndp_reporter ndp_report_text;
extern const struct ndp_reporter ndp_report_json;
extern const struct ndp_reporter ndp_report_sarif;
extern const struct ndp_reporter ndp_report_github;
extern const struct ndp_reporter ndp_report_junit;
extern const struct ndp_reporter ndp_report_markdown;
extern const struct ndp_reporter ndp_report_azure;
extern const struct ndp_reporter ndp_report_gitlab;

#endif
