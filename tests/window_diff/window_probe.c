/*
 * SPDX-License-Identifier: Apache-2.0
 * window_probe.c - a line-oriented front end to the window engine for the
 * differential test (window_diff.py).
 *
 * Each input line is {"window": <ARM MaintenanceWindow>, "at": "<RFC 3339>"};
 * each output line is "open|closed <closes_at> <next_start> <next_end>
 * valid|invalid", epoch seconds, "-" where there is no value, and whether
 * the engine found window-invalid problems (their text is not printed).
 * A line that cannot be read prints "error <reason>" so that output lines
 * stay aligned with input lines.  Exits 1 if any line was an error.
 */
#include "common.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"

#include <json-c/json.h>

static void print_value(bool present, int64_t value)
{
    if (present)
        printf(" %lld", (long long)value);
    else
        fputs(" -", stdout);
}

/* Answers one query line; returns false (after printing why) on error. */
static bool answer_line(const char *line)
{
    struct json_object *root = json_tokener_parse(line);
    struct json_object *mw = NULL;
    struct json_object *at_text = NULL;
    struct ndp_window *w = NULL;
    struct ndp_buf problems = NDP_BUF_INIT;
    int64_t at = 0;
    int64_t closes = 0;
    int64_t next_start = 0;
    int64_t next_end = 0;
    bool open;
    bool has_next;
    bool ok = false;

    if (!root || !json_object_object_get_ex(root, "window", &mw)
        || !json_object_object_get_ex(root, "at", &at_text)
        || !json_object_is_type(at_text, json_type_string)) {
        puts("error line is not {\"window\": ..., \"at\": \"...\"}");
        goto out;
    }
    if (ndp_time_parse_rfc3339(&at, json_object_get_string(at_text)) < 0) {
        puts("error 'at' is not an RFC 3339 date-time");
        goto out;
    }
    w = ndp_window_from_arm(mw, &problems);
    if (!w) {
        printf("error window cannot be evaluated: %s\n", problems.buf);
        goto out;
    }
    open = ndp_window_is_open(w, at, &closes);
    has_next = ndp_window_next(w, at, &next_start, &next_end);
    fputs(open ? "open" : "closed", stdout);
    print_value(open, closes);
    print_value(has_next, next_start);
    print_value(has_next, next_end);
    puts(problems.len ? " invalid" : " valid");
    ok = true;
out:
    ndp_window_free(w);
    ndp_buf_release(&problems);
    json_object_put(root);
    return ok;
}

int main(void)
{
    char *line = NULL;
    size_t alloc = 0;
    ssize_t len;
    bool all_ok = true;

    while ((len = getline(&line, &alloc, stdin)) >= 0) {
        if (len <= 1 && (len == 0 || line[0] == '\n'))
            continue;
        if (!answer_line(line))
            all_ok = false;
    }
    free(line);
    return all_ok ? 0 : 1;
}
