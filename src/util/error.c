/*
 * SPDX-License-Identifier: Apache-2.0
 * error.c - filling the error buffer (see error.h for the contract).
 */
#include "common.h"
#include "error.h"
#include "buf.h"
#include "safe.h"

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

/* Writes "ndplint: " and 'msg' escaped to one line of 'f'. */
static void print_line(FILE *f, const char *msg)
{
    struct ndp_buf line = NDP_BUF_INIT;

    ndp_buf_adds(&line, "ndplint: ");
    ndp_safe_line(&line, msg);
    ndp_buf_addch(&line, '\n');
    fwrite(line.buf, 1, line.len, f);
    ndp_buf_release(&line);
}

void ndp_error_print(FILE *f, const struct ndp_error *err)
{
    print_line(f, err->msg);
}

void ndp_warn(const char *fmt, ...)
{
    struct ndp_buf msg = NDP_BUF_INIT;
    va_list ap;

    va_start(ap, fmt);
    ndp_buf_vaddf(&msg, fmt, ap);
    va_end(ap);
    print_line(stderr, msg.buf);
    ndp_buf_release(&msg);
}
