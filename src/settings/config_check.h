/*
 * SPDX-License-Identifier: Apache-2.0
 * config_check.h - 'ndplint --check-config': what a settings file's
 * waivers say at an instant.  The file is read and checked by the loader
 * every run uses (config.c, then the checks main.c makes before a run);
 * this module judges the waivers of a file that passed, and words the
 * lines the command prints.
 *
 * A waiver holds through the last second of its 'expires' day, UTC
 * (config.h), so it ends at the first second of the next day:
 *   - expired: it ended at or before 'at' (the instant a run judges at
 *     would no longer honour it: triage.c's 'expires < at');
 *   - expiring: it ends within the next NDP_WAIVER_WARN_DAYS days,
 *     exactly that many days included;
 *   - later: anything after.
 */
#ifndef NDP_CONFIG_CHECK_H
#define NDP_CONFIG_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct ndp_buf;
struct ndp_config;

#define NDP_WAIVER_WARN_DAYS 14

enum ndp_waiver_expiry {
    NDP_WAIVER_LATER,
    NDP_WAIVER_EXPIRING,
    NDP_WAIVER_EXPIRED
};

/*
 * Where a waiver whose last instant is 'expires' (ndp_waiver.expires)
 * stands at instant 'at'.  Pure.
 */
enum ndp_waiver_expiry ndp_waiver_expiry(int64_t expires, int64_t at);

/*
 * Appends to 'out' one line for each waiver of 'config' that has expired
 * at 'at' ("PATH: error: waivers[I] (rule R, category C, match 'M')
 * expired on DATE") or that expires within NDP_WAIVER_WARN_DAYS
 * ("PATH: warning: ... expires on DATE (in N days)"), in file order; when
 * there is neither, the one line "PATH: ok (...)".  Every line is escaped
 * for a terminal or CI log (safe.h): the file's strings are the pull
 * request's.  Returns how many waivers have expired.
 */
size_t ndp_config_check_waivers(struct ndp_buf *out,
                                const struct ndp_config *config, int64_t at);

#endif
