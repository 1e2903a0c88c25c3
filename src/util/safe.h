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
 * overrides as \uXXXX, "##[" and a leading "::" broken up.
 */
void ndp_safe_line(struct ndp_buf *out, const char *s);

#endif
