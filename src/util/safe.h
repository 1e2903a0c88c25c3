/*
 * SPDX-License-Identifier: Apache-2.0
 * safe.h - the one rule for text from the input on its way out.
 *
 * Every string ndplint writes may hold bytes a pull request chose: a
 * resource name, a file name, a what-if error message.  Two helpers decide
 * what becomes of them, for every output:
 *
 *   - ndp_utf8_repair(): invalid UTF-8 (stray continuation bytes, C0/C1 and
 *     F5-FF lead bytes, overlong forms, UTF-8-encoded surrogates, code
 *     points above U+10FFFF, truncated sequences) is replaced by U+FFFD,
 *     one per maximal invalid subpart (Unicode's "best practice", as
 *     Python's errors="replace" and WHATWG decoders do).  Nothing is
 *     dropped, so no two pieces of text join into a new one.  With
 *     NDP_UTF8_XML the characters XML 1.0 cannot carry (C0 controls other
 *     than tab, LF and CR; U+FFFE, U+FFFF) become U+FFFD as well.
 *     report.c runs it over every report, so JSON and SARIF are UTF-8 and
 *     JUnit is well-formed XML whatever the input holds.
 *
 *   - ndp_safe_line(): text for one line of a log or terminal (standard
 *     error, the text report): the above, and control characters (C0, DEL,
 *     C1) shown as \xNN so a message stays one line and steers no
 *     terminal; Unicode line separators and bidirectional overrides as
 *     \uXXXX; "##[" (the Actions runner's legacy command syntax) broken
 *     up as "#\x23["; and a leading "::" (a workflow command) as "\x3a:".
 *     Escaping happens once, where text is written, never at the call
 *     sites that quote input, so nothing is escaped twice.
 *
 *   - ndp_safe_lines(): the command rule on whole lines, for everything
 *     ndplint writes (every report, --window-check, --explain, messages on
 *     standard error).  CI runners read commands from a job's output: the
 *     GitHub Actions runner a line that starts with "::" once String.
 *     TrimStart() has removed its leading Unicode White_Space, and "##["
 *     anywhere; the Azure Pipelines agent "##vso[" anywhere.  Both compare
 *     culture-sensitively (.NET on ICU), which gives no weight to control
 *     and format characters (U+00AD, U+200B-U+200D, U+FEFF, ...), so
 *     "#\u00ad#[" matches "##[" as well.  The rule: after any leading run
 *     of White_Space and such ignorable characters no line starts with
 *     "::", and no line holds "##[" or "##vso[" (any case) with ignorable
 *     characters between their letters, but for the commands ndplint
 *     writes itself: those of the list below, at column 0, in the formats
 *     that write them.  A marker that breaks the rule is broken up the
 *     way its format writes a '#' or ':' (for text "\x23", "\x3a").
 */
#ifndef NDP_SAFE_H
#define NDP_SAFE_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_buf;

#define NDP_UTF8_XML 1u /* also replace what XML 1.0 cannot carry */

/* Whether the 'len' bytes at 's' are valid UTF-8. */
bool ndp_utf8_valid(const char *s, size_t len);

/*
 * Appends the 'len' bytes at 's' to 'out' with every invalid sequence
 * (and under NDP_UTF8_XML every character XML 1.0 excludes) replaced by
 * U+FFFD.  Valid text is appended unchanged.
 */
void ndp_utf8_repair(struct ndp_buf *out, const char *s, size_t len,
                     unsigned flags);

/* Repairs 'b' in place from byte 'from' on (see ndp_utf8_repair). */
void ndp_utf8_repair_tail(struct ndp_buf *b, size_t from, unsigned flags);

/*
 * Appends 's' to 'out' as text for one log line (see the top of this
 * file): repaired, control characters as \xNN, line separators and bidi
 * overrides as \uXXXX, and held to the command rule as if 's' started a
 * line ("##[" broken up, and "::" after a leading run of white space and
 * ignorable characters).
 */
void ndp_safe_line(struct ndp_buf *out, const char *s);

/*
 * The log commands ndplint writes itself: the only ones on any line it
 * writes, and only at column 0 of the formats that own them.
 */
enum ndp_log_command {
    NDP_CMD_GITHUB_ERROR,       /* "::error " */
    NDP_CMD_GITHUB_WARNING,     /* "::warning " */
    NDP_CMD_GITHUB_NOTICE,      /* "::notice " */
    NDP_CMD_GITHUB_GROUP,       /* "::group::" */
    NDP_CMD_GITHUB_ENDGROUP,    /* "::endgroup::" */
    NDP_CMD_AZURE_LOGISSUE,     /* "##vso[task.logissue " */
    NDP_CMD_AZURE_COMPLETE,     /* "##vso[task.complete " */
    NDP_CMD_COUNT
};

/* Sets of commands, as bits (1u << command): what a format may write. */
#define NDP_CMDS_NONE 0u
#define NDP_CMDS_GITHUB                                                    \
    ((1u << NDP_CMD_GITHUB_ERROR) | (1u << NDP_CMD_GITHUB_WARNING) |        \
     (1u << NDP_CMD_GITHUB_NOTICE) | (1u << NDP_CMD_GITHUB_GROUP) |         \
     (1u << NDP_CMD_GITHUB_ENDGROUP))
#define NDP_CMDS_AZURE                                                     \
    ((1u << NDP_CMD_AZURE_LOGISSUE) | (1u << NDP_CMD_AZURE_COMPLETE))

/* The text command 'c' starts with ("::error "); a static string. */
const char *ndp_log_command_text(enum ndp_log_command c);

/*
 * Appends the start of command 'c' to 'out', which must end at the start
 * of a line (anything else is a bug): how a reporter writes a command.
 */
void ndp_log_command_start(struct ndp_buf *out, enum ndp_log_command c);

/* How a format writes a '#' or a ':' that would complete a command. */
struct ndp_defuse {
    const char *hash, *colon;
};

extern const struct ndp_defuse ndp_defuse_text;    /* "\x23", "\x3a" */
extern const struct ndp_defuse ndp_defuse_json;    /* "\u0023", "\u003a" */
extern const struct ndp_defuse ndp_defuse_xml;     /* "&#35;", "&#58;" */
extern const struct ndp_defuse ndp_defuse_percent; /* "%23", "%3A" */

/*
 * Applies the command rule (the top of this file) to the lines of 'b'
 * from byte 'from', which starts a line: each marker that breaks it has
 * one character written as 'how' says ("##[" -> "#\x23[", a leading
 * "::" -> "\x3a:"); the commands in 'allowed' (NDP_CMDS_*) stay where they
 * start a line.  Lines end at LF or CR.  Linear in the text.
 */
void ndp_safe_lines(struct ndp_buf *b, size_t from, unsigned allowed,
                    const struct ndp_defuse *how);

#endif
