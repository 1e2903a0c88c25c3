/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_rules.c - fuzz target: arbitrary bytes as a rule file.  A rule set
 * that loads is then asked to judge a few values, so matchers built from
 * hostile files are exercised too; one that does not load gives an error
 * message that is one safe line as printed (fuzz_common.h).
 */
#include "fuzz_common.h"
#include "error.h"
#include "rules.h"
#include "rules/rules_internal.h"

#include <json-c/json.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const values[] = {
    "null", "\"\"", "\"azure\"", "\"Unmanaged\"", "true", "false", "[\"IPv4\"]",
    "{\"enabled\":true,\"dnsServer\":\"10.0.0.4\"}", "[]", "{}", "3",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i, a, b;

    if (ndp_rules_load_text(&rs, "fuzz.json", (const char *)data, size,
                            &err) != 0) {
        check_message(&err);
        return 0;
    }
    for (i = 0; i < ndp_ruleset_count(rs); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(rs, i);
        ndp_rule_watches_path(r, NDP_NOTATION_ARM,
                              "Microsoft.ContainerService/managedClusters",
                              "properties.networkProfile.networkPolicy");
        for (a = 0; a < NDP_ARRAY_SIZE(values); a++) {
            struct json_object *va = json_tokener_parse(values[a]);
            for (b = 0; b < NDP_ARRAY_SIZE(values); b++) {
                struct json_object *vb = json_tokener_parse(values[b]);
                ndp_rule_reimages(r, va, vb, NULL, NULL);
                json_object_put(vb);
            }
            ndp_rule_may_reimage(r, va);
            json_object_put(va);
        }
    }
    ndp_ruleset_free(rs);
    return 0;
}
