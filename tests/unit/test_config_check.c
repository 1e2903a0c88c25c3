/*
 * SPDX-License-Identifier: Apache-2.0
 * test_config_check.c - 'ndplint --check-config' (config_check.c): where
 * a waiver stands at an instant (expired, expiring within 14 days, or
 * later), its boundaries to the second, and the lines the check prints,
 * escaped.
 */
#include "test_common.h"
#include "buf.h"
#include "config.h"
#include "config_check.h"
#include "timeutil.h"

struct expiry_row {
    const char *name;
    const char *expires; /* the waiver's 'expires' day */
    const char *at;      /* RFC 3339 */
    enum ndp_waiver_expiry want;
};

static const struct expiry_row expiry_rows[] = {
    /* Expired: past the last second of its day. */
    { "expired a day later", "2026-12-05", "2026-12-07T12:00:00Z",
      NDP_WAIVER_EXPIRED },
    { "expired at the first second of the next day", "2026-12-05",
      "2026-12-06T00:00:00Z", NDP_WAIVER_EXPIRED },
    { "expired long ago", "2020-01-01", "2026-12-06T00:00:00Z",
      NDP_WAIVER_EXPIRED },
    /* Expiring: ends within 14 days, 14 included. */
    { "expiring: its last second still holds", "2026-12-05",
      "2026-12-05T23:59:59Z", NDP_WAIVER_EXPIRING },
    { "expiring: its own day", "2026-12-05", "2026-12-05T00:00:00Z",
      NDP_WAIVER_EXPIRING },
    { "expiring: ends in exactly 14 days", "2026-12-19",
      "2026-12-06T00:00:00Z", NDP_WAIVER_EXPIRING },
    { "expiring: ends in 14 days less a second", "2026-12-19",
      "2026-12-06T00:00:01Z", NDP_WAIVER_EXPIRING },
    { "expiring: across a year end", "2027-01-03", "2026-12-25T08:00:00Z",
      NDP_WAIVER_EXPIRING },
    /* Later: ends more than 14 days on. */
    { "later: ends in 14 days and a second", "2026-12-19",
      "2026-12-05T23:59:59Z", NDP_WAIVER_LATER },
    { "later: ends in 15 days", "2026-12-20", "2026-12-06T00:00:00Z",
      NDP_WAIVER_LATER },
    { "later: next year", "2027-12-31", "2026-12-06T00:00:00Z",
      NDP_WAIVER_LATER },
};

/* The last instant of day 'date', as config.c stores 'expires'. */
static int64_t last_second_of(const char *date)
{
    int64_t days;

    assert_int_equal(ndp_date_parse(&days, date), 0);
    return days * 86400 + 86399;
}

static int64_t instant(const char *rfc3339)
{
    int64_t t;

    assert_int_equal(ndp_time_parse_rfc3339(&t, rfc3339), 0);
    return t;
}

static void expiry_row_test(void **state)
{
    const struct expiry_row *row = *state;

    assert_int_equal(ndp_waiver_expiry(last_second_of(row->expires),
                                       instant(row->at)),
                     row->want);
}

/* A settings file of 'n' waivers, as the loader leaves it. */
static void fake_config(struct ndp_config *c, struct ndp_waiver *w,
                        size_t n)
{
    size_t i;

    memset(c, 0, sizeof(*c));
    c->path = (char *)".ndplint.json";
    c->waivers = w;
    c->nr_waivers = n;
    for (i = 0; i < n; i++) {
        w[i].index = i;
        w[i].expires = last_second_of(w[i].expires_text);
    }
}

/* The lines for waivers 'w' at 'at' are 'want', 'expired' of them expired. */
static void check_lines(struct ndp_waiver *w, size_t n, const char *at,
                        size_t expired, const char *want)
{
    struct ndp_config c;
    struct ndp_buf out = NDP_BUF_INIT;

    fake_config(&c, w, n);
    assert_int_equal(ndp_config_check_waivers(&out, &c, instant(at)),
                     expired);
    assert_string_equal(out.buf, want);
    ndp_buf_release(&out);
}

static void lines__expired_then_expiring_in_file_order(void **state)
{
    struct ndp_waiver w[] = {
        { .rule = "NDP101", .match = "azurerm_kubernetes_cluster.main",
          .reason = "r", .expires_text = "2026-12-05" },
        { .category = "network-policy", .reason = "r",
          .expires_text = "2027-06-30" },
        { .rule = "NDP201", .category = "os-sku", .reason = "r",
          .expires_text = "2026-12-07" },
        { .rule = "NDP202", .reason = "r", .expires_text = "2026-12-06" },
    };

    (void)state;
    check_lines(w, NDP_ARRAY_SIZE(w), "2026-12-06T10:00:00Z", 1,
        ".ndplint.json: error: waivers[0] (rule NDP101, match "
        "'azurerm_kubernetes_cluster.main') expired on 2026-12-05\n"
        ".ndplint.json: warning: waivers[2] (rule NDP201, category os-sku) "
        "expires on 2026-12-07 (in 1 day)\n"
        ".ndplint.json: warning: waivers[3] (rule NDP202) expires on "
        "2026-12-06 (today)\n");
}

static void lines__ok_when_nothing_to_say(void **state)
{
    struct ndp_waiver w[] = {
        { .rule = "NDP101", .reason = "r", .expires_text = "2026-12-21" },
    };

    (void)state;
    check_lines(w, NDP_ARRAY_SIZE(w), "2026-12-06T00:00:00Z", 0,
                ".ndplint.json: ok (1 waiver, none expired or expiring "
                "within 14 days)\n");
    check_lines(w, 0, "2026-12-06T00:00:00Z", 0,
                ".ndplint.json: ok (0 waivers, none expired or expiring "
                "within 14 days)\n");
}

/* The file's strings are the pull request's: one line each, no escape
 * sequence or workflow command survives. */
static void lines__hostile_strings_stay_on_their_line(void **state)
{
    struct ndp_waiver w[] = {
        { .rule = "NDP101\n::error::owned", .category = "\x1b]0;title\x07",
          .match = "a\r\n##[error]b", .reason = "r",
          .expires_text = "2026-12-01" },
    };

    (void)state;
    check_lines(w, NDP_ARRAY_SIZE(w), "2026-12-06T00:00:00Z", 1,
        ".ndplint.json: error: waivers[0] (rule NDP101\\x0a::error::owned, "
        "category \\x1b]0;title\\x07, match 'a\\x0d\\x0a#\\x23[error]b') "
        "expired on 2026-12-01\n");
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, expiry_rows, expiry_row_test);
    ADD_TEST(&list, lines__expired_then_expiring_in_file_order);
    ADD_TEST(&list, lines__ok_when_nothing_to_say);
    ADD_TEST(&list, lines__hostile_strings_stay_on_their_line);
    return cmocka_run_group_tests_name("config_check", list.items, NULL,
                                       NULL);
}
