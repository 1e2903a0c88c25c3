/*
 * error.h - the error buffer every fallible function fills on failure.
 *
 * A function returns 0 or a negative NDP_E* code; on failure it also sets
 * 'err' with a one-line message that names where (file, JSON path, rule).
 * The first message set wins, so chained calls keep the root cause.
 * Only main.c prints it, as "ndplint: <message>".
 */
#ifndef NDP_ERROR_H
#define NDP_ERROR_H

struct ndp_error {
    int code;
    char msg[1024];
};

#define NDP_ERROR_INIT { 0, { 0 } }

/* Sets 'err' (if not already set) and returns 'code'. */
int ndp_error_set(struct ndp_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ndp_error_clear(struct ndp_error *err);

#endif
