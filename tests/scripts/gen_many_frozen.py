#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a what-if of COUNT frozen clusters with long ids, for the tests
of the Markdown report's size budget (run_hostile_outputs.sh,
run_markdown_render.sh): the first change of
fixtures/whatif-many-frozen.json again and again, its id made unique
with "-NNN-" and PAD x's.

usage: gen_many_frozen.py SOURCE_DIR COUNT PAD OUT
"""
import copy
import json
import os
import sys


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    src, count, pad, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4]
    with open(os.path.join(src, "fixtures", "whatif-many-frozen.json"),
              encoding="utf-8") as f:
        plan = json.load(f)
    base, plan["changes"] = plan["changes"][0], []
    for i in range(count):
        change = copy.deepcopy(base)
        rid = change["resourceId"] + "-%03d-" % i + "x" * pad
        change["resourceId"] = change["before"]["id"] = rid
        change["after"]["id"] = rid
        plan["changes"].append(change)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(plan, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
