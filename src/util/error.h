/*
 * SPDX-License-Identifier: Apache-2.0
 * error.h - the error buffer every fallible function fills on failure.
 *
 * A function returns 0 or a negative NDP_E* code; on failure it also sets
 * 'err' with a one-line message that names where (file, JSON path, rule).
 * The first message set wins, so chained calls keep the root cause.
 * Only main.c prints it, as "ndplint: <message>".
 *
 * Messages quote the input as it is: ndp_error_print() and ndp_warn() are
 * the only ways a message reaches standard error, and both escape it there
 * (safe.h's ndp_safe_line: one line, no control character, no workflow
 * command), so no call site can forget and none escapes twice.
 */
#ifndef NDP_ERROR_H
#define NDP_ERROR_H

#include <stdio.h>

struct ndp_error {
    int code;
    char msg[1024];
};

#define NDP_ERROR_INIT { 0, { 0 } }

/* Sets 'err' (if not already set) and returns 'code'. */
int ndp_error_set(struct ndp_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ndp_error_clear(struct ndp_error *err);

/* Writes "ndplint: <message of 'err'>" and a newline to 'f', escaped. */
void ndp_error_print(FILE *f, const struct ndp_error *err);

/*
 * Formats a message and writes it to standard error as "ndplint: <msg>"
 * and a newline, escaped as ndp_error_print() does.
 */
void ndp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
