/*
 * error.c - filling the error buffer (see error.h for the contract).
 */
#include "common.h"
#include "error.h"

#include <stdarg.h>

int ndp_error_set(struct ndp_error *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (!err || err->code != 0)
        return code;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

void ndp_error_clear(struct ndp_error *err)
{
    err->code = 0;
    err->msg[0] = '\0';
}
