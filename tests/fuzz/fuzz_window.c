/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_window.c - fuzz target: arbitrary bytes as a maintenance window (in
 * both notations) and as RFC 3339 and date text; every window that reads
 * is asked whether it is open and when it next opens, at instants around
 * the epoch, today and far ahead, and must stay consistent: an instant a
 * window covers is open, and a next opening is never before the instant.
 * Every opening and closing is written as the reports write them, with no
 * year past 9999 (or before 0000), and the window's words as a log line
 * hold to safe.h's output rule.  The same bytes are read again as a window
 * known only in part.
 */
#include "fuzz_common.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"
#include "report/report_window.h"

#include <json-c/json.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int64_t instants[] = {
    0, 1796472000, 1796500800, 4102444800, -86400, 253402300799
};

/* No year of five digits, nor a negative one, in 'text'. */
static void check_years(const struct ndp_buf *text)
{
    size_t i, digits = 0;

    for (i = 0; i < text->len; i++) {
        if (text->buf[i] >= '0' && text->buf[i] <= '9') {
            if (++digits == 5 && text->buf[i + 1] == '-')
                broken("an instant past 9999", text);
            continue;
        }
        if (text->buf[i] == '-' && digits == 0 && i + 8 < text->len &&
            text->buf[i + 1] >= '0' && text->buf[i + 1] <= '9' &&
            text->buf[i + 5] == '-' && text->buf[i + 8] == '-')
            broken("an instant before 0000", text);
        digits = 0;
    }
}

static void exercise(const struct ndp_window *w)
{
    struct ndp_buf out = NDP_BUF_INIT, line = NDP_BUF_INIT;
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(instants); i++) {
        int64_t closes = 0, start = 0, end = 0;
        if (ndp_window_next(w, instants[i], &start, &end)) {
            if (start < instants[i] || end <= start)
                NDP_BUG("next window before the instant or empty");
            /* With an unknown phase no instant is claimed open. */
            if (!ndp_window_phase_unknown(w) &&
                !ndp_window_is_open(w, start, &closes))
                NDP_BUG("a window's own start is not open");
            ndp_time_format_both(&out, start,
                                 ndp_window_utc_offset_minutes(w));
            ndp_buf_addch(&out, ' ');
            ndp_time_format_utc(&out, end);
            ndp_buf_addch(&out, ' ');
            if (!ndp_window_phase_unknown(w))
                ndp_time_format_utc(&out, closes);
            ndp_buf_addch(&out, '\n');
        }
    }
    check_years(&out);
    ndp_buf_reset(&out);
    ndp_report_schedule_words(&out, w);
    ndp_safe_line(&line, out.buf);
    check_utf8("window words", &line, 0);
    check_log("window words", &line);
    ndp_report_schedule_json(&out, w);
    ndp_buf_release(&line);
    ndp_buf_release(&out);
}

/*
 * The readers of a window known in part: every absent value unknown (a
 * mask of true), and {"window": ..., "unknown": mask} as given.
 */
static void exercise_unknown(const struct json_object *v,
                             struct ndp_buf *problems)
{
    struct json_object *all = json_object_new_boolean(1);
    struct json_object *window = NULL, *mask = NULL;
    struct ndp_window *w;

    if ((w = ndp_window_from_arm_unknown(v, all, problems)) != NULL) {
        exercise(w);
        ndp_window_free(w);
    }
    if ((w = ndp_window_from_azurerm_unknown(v, all, problems)) != NULL) {
        exercise(w);
        ndp_window_free(w);
    }
    if (json_object_is_type(v, json_type_object) &&
        json_object_object_get_ex((struct json_object *)(uintptr_t)v,
                                  "window", &window) &&
        json_object_object_get_ex((struct json_object *)(uintptr_t)v,
                                  "unknown", &mask)) {
        if ((w = ndp_window_from_arm_unknown(window, mask, problems)))
            exercise(w);
        ndp_window_free(w);
        if ((w = ndp_window_from_azurerm_unknown(window, mask, problems)))
            exercise(w);
        ndp_window_free(w);
    }
    json_object_put(all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ndp_buf text = NDP_BUF_INIT, problems = NDP_BUF_INIT;
    struct json_object *v;
    struct ndp_window *w;
    int64_t t;

    ndp_buf_add(&text, data, size);
    ndp_time_parse_rfc3339(&t, text.buf);
    ndp_date_parse(&t, text.buf);
    v = json_tokener_parse(text.buf);
    if (v) {
        if ((w = ndp_window_from_arm(v, &problems)) != NULL) {
            exercise(w);
            ndp_window_free(w);
        }
        if ((w = ndp_window_from_azurerm(v, &problems)) != NULL) {
            exercise(w);
            ndp_window_free(w);
        }
        exercise_unknown(v, &problems);
        json_object_put(v);
    }
    ndp_buf_release(&problems);
    ndp_buf_release(&text);
    return 0;
}
