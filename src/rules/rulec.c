/*
 * SPDX-License-Identifier: Apache-2.0
 * rulec.c - ndplint-rulec, the build-time rule compiler: loads and checks
 * every rule file with the same loader ndplint uses for --rules, then
 * writes the rule image that is built into the binary (rules_image.c).
 * A bad rule file fails the build with the loader's message.
 *   usage: ndplint-rulec RULES_DIR OUT.c
 */
#include "common.h"
#include "rules.h"
#include "error.h"

#include "rules_internal.h"

int main(int argc, char **argv)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_ruleset *rs = NULL;
    FILE *out;
    int rc;

    if (argc != 3) {
        fprintf(stderr, "usage: ndplint-rulec RULES_DIR OUT.c\n");
        return 2;
    }
    if (ndp_rules_load_dir(&rs, argv[1], &err) != 0) {
        fprintf(stderr, "ndplint-rulec: %s\n", err.msg);
        return 1;
    }
    out = fopen(argv[2], "w");
    if (!out) {
        fprintf(stderr, "ndplint-rulec: cannot write '%s'\n", argv[2]);
        ndp_ruleset_free(rs);
        return 1;
    }
    rc = ndp_ruleset_write_image(rs, out);
    if (fclose(out) != 0)
        rc = -1;
    ndp_ruleset_free(rs);
    if (rc) {
        fprintf(stderr, "ndplint-rulec: write error on '%s'\n", argv[2]);
        remove(argv[2]);
        return 1;
    }
    return 0;
}
