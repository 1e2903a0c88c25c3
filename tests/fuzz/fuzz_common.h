/*
 * fuzz_common.h - what the fuzz targets share: the built-in rule set,
 * loaded once per process.
 */
#ifndef NDP_FUZZ_COMMON_H
#define NDP_FUZZ_COMMON_H

#include "common.h"
#include "error.h"
#include "rules.h"

static inline struct ndp_ruleset *fuzz_rules(void)
{
    static struct ndp_ruleset *rs;
    struct ndp_error err = NDP_ERROR_INIT;

    if (!rs && ndp_rules_load_embedded(&rs, &err) != 0)
        NDP_BUG("built-in rules do not load");
    return rs;
}

#endif
