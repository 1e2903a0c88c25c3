/*
 * SPDX-License-Identifier: Apache-2.0
 * config_check.c - the waiver lines of 'ndplint --check-config' (see
 * config_check.h).
 */
#include "common.h"
#include "config_check.h"
#include "buf.h"
#include "config.h"
#include "safe.h"
#include "timeutil.h"

enum ndp_waiver_expiry ndp_waiver_expiry(int64_t expires, int64_t at)
{
    if (expires < at)
        return NDP_WAIVER_EXPIRED;
    /* It ends at expires + 1; "within 14 days" includes exactly 14. */
    if (expires + 1 - at <=
        (int64_t)NDP_WAIVER_WARN_DAYS * NDP_SECONDS_PER_DAY)
        return NDP_WAIVER_EXPIRING;
    return NDP_WAIVER_LATER;
}

/* "waivers[I] (rule R, category C, match 'M')": the waiver as the file
 * names it. */
static void describe_waiver(struct ndp_buf *out, const struct ndp_waiver *w)
{
    const char *sep = "";

    ndp_buf_addf(out, "waivers[%zu] (", w->index);
    if (w->rule) {
        ndp_buf_addf(out, "rule %s", w->rule);
        sep = ", ";
    }
    if (w->category) {
        ndp_buf_addf(out, "%scategory %s", sep, w->category);
        sep = ", ";
    }
    if (w->match)
        ndp_buf_addf(out, "%smatch '%s'", sep, w->match);
    ndp_buf_addch(out, ')');
}

/* Whole days from the day of 'at' to the waiver's last day, UTC. */
static int64_t days_left(int64_t expires, int64_t at)
{
    return ndp_floor_div(expires, NDP_SECONDS_PER_DAY) -
           ndp_floor_div(at, NDP_SECONDS_PER_DAY);
}

static void add_when(struct ndp_buf *line, const struct ndp_waiver *w,
                     enum ndp_waiver_expiry e, int64_t at)
{
    int64_t days = days_left(w->expires, at);

    if (e == NDP_WAIVER_EXPIRED) {
        ndp_buf_addf(line, " expired on %s", w->expires_text);
        return;
    }
    ndp_buf_addf(line, " expires on %s", w->expires_text);
    if (days == 0)
        ndp_buf_adds(line, " (today)");
    else
        ndp_buf_addf(line, " (in %lld day%s)", (long long)days,
                     days == 1 ? "" : "s");
}

/* 'line' escaped for one line of a log, then a newline, onto 'out'. */
static void add_line(struct ndp_buf *out, const struct ndp_buf *line)
{
    ndp_safe_line(out, line->buf);
    ndp_buf_addch(out, '\n');
}

static void add_ok(struct ndp_buf *out, const struct ndp_config *config)
{
    struct ndp_buf line = NDP_BUF_INIT;

    ndp_buf_addf(&line, "%s: ok (%zu waiver%s, none expired or expiring "
                 "within %d days)", config->path, config->nr_waivers,
                 config->nr_waivers == 1 ? "" : "s", NDP_WAIVER_WARN_DAYS);
    add_line(out, &line);
    ndp_buf_release(&line);
}

size_t ndp_config_check_waivers(struct ndp_buf *out,
                                const struct ndp_config *config, int64_t at)
{
    struct ndp_buf line = NDP_BUF_INIT;
    size_t i, expired = 0, said = 0;

    for (i = 0; i < config->nr_waivers; i++) {
        const struct ndp_waiver *w = &config->waivers[i];
        enum ndp_waiver_expiry e = ndp_waiver_expiry(w->expires, at);

        if (e == NDP_WAIVER_LATER)
            continue;
        expired += e == NDP_WAIVER_EXPIRED;
        said++;
        ndp_buf_reset(&line);
        ndp_buf_addf(&line, "%s: %s: ", config->path,
                     e == NDP_WAIVER_EXPIRED ? "error" : "warning");
        describe_waiver(&line, w);
        add_when(&line, w, e, at);
        add_line(out, &line);
    }
    if (!said)
        add_ok(out, config);
    ndp_buf_release(&line);
    return expired;
}
