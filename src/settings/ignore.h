/*
 * SPDX-License-Identifier: Apache-2.0
 * ignore.h - inline ignores: a comment on a source line a user edits,
 *
 *     network_policy = "azure" # ndplint:ignore NDP101 roll-out in CHG-1234
 *
 * names the rules (one id, or several joined by commas) whose findings
 * located on that line are suppressed, and why.  '#' and '//' start a
 * comment in a .tf file, '//' alone in a Bicep file (the caller says
 * which); a '#' or '//' inside a quoted string does not.  The comment must
 * start with "ndplint:ignore".
 *
 * The line is the pull request's: only its first NDP_IGNORE_SCAN_MAX
 * bytes are read, so a finding costs at most that much whatever the file
 * holds, and the reason is cut to NDP_IGNORE_REASON_MAX bytes (at a UTF-8
 * character boundary).  The reason is borrowed from the line, unescaped:
 * reporters escape it as all input text.
 */
#ifndef NDP_IGNORE_H
#define NDP_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

#define NDP_IGNORE_SCAN_MAX 4096
#define NDP_IGNORE_REASON_MAX 200

enum ndp_ignore_status {
    NDP_IGNORE_NONE,      /* no ignore comment on the line */
    NDP_IGNORE_OK,
    NDP_IGNORE_NO_RULE,   /* "ndplint:ignore" alone: suppresses nothing */
    NDP_IGNORE_NO_REASON  /* rule ids but no reason: suppresses nothing */
};

struct ndp_ignore {
    const char *rules;     /* "NDP101" or "NDP101,NDP103" */
    size_t rules_len;
    const char *reason;    /* trimmed */
    size_t reason_len;
    bool truncated;        /* the reason was longer than the maximum */
};

/*
 * Parses the line starting at 'line' (up to a newline, a NUL or 'len'
 * bytes); 'hash' lets '#' start a comment.  Fills 'out' unless the result
 * is NDP_IGNORE_NONE.
 */
enum ndp_ignore_status ndp_ignore_parse(struct ndp_ignore *out,
                                        const char *line, size_t len,
                                        bool hash);

/* Does 'ig' name 'rule_id' (case-insensitively)? */
bool ndp_ignore_names(const struct ndp_ignore *ig, const char *rule_id);

#endif
