#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What action-validator does not check in the GitHub Action (action.yml
at the repository root): the Marketplace's metadata rules, every input
used by a step and described in docs/ci.md, and the build cache's shape
(restored before the build, saved after ndplint has run even when it
failed, keyed on the runner and the sources but not the branch).
  usage: action_check.py ACTION_YML CI_MD
Exit 0 when all of it holds, 1 with one line per problem.
"""
import re
import sys

import yaml

DESCRIPTION_LIMIT = 125  # the Marketplace refuses 125 characters or more
RESTORE = "actions/cache/restore@"
SAVE = "actions/cache/save@"


def metadata_problems(action):
    for key in ("name", "description", "author"):
        if not str(action.get(key, "")).strip():
            yield f"no '{key}'"
    if len(str(action.get("description", ""))) >= DESCRIPTION_LIMIT:
        yield f"description is {DESCRIPTION_LIMIT} characters or longer"
    branding = action.get("branding") or {}
    for key in ("icon", "color"):
        if not branding.get(key):
            yield f"no branding.{key}"
    if (action.get("runs") or {}).get("using") != "composite":
        yield "runs.using is not composite"


def input_problems(action, ci_md):
    steps_text = yaml.safe_dump(action["runs"]["steps"])
    for name in action.get("inputs") or {}:
        if not re.search(rf"\binputs\.{re.escape(name)}(?![\w-])", steps_text):
            yield f"input '{name}' is used by no step"
        if not re.search(rf"^\|[^\n]*`{re.escape(name)}`", ci_md, re.M):
            yield f"input '{name}' is not in the table of docs/ci.md"


def step_index(steps, pred):
    return next((i for i, s in enumerate(steps) if pred(s)), None)


def cache_problems(action):
    steps = action["runs"]["steps"]
    restore = step_index(steps, lambda s: s.get("uses", "").startswith(RESTORE))
    save = step_index(steps, lambda s: s.get("uses", "").startswith(SAVE))
    build = step_index(steps, lambda s: s.get("id") == "build")
    run = step_index(steps, lambda s: s.get("id") == "run")
    if None in (restore, save, build, run):
        yield "needs the steps cache/restore, build, run and cache/save"
        return
    if not restore < build < run < save:
        yield "the order must be cache/restore, build, run, cache/save"
    cond = str(steps[save].get("if", ""))
    if "always()" not in cond:
        yield "cache/save does not run with always()"
    if "cache-hit != 'true'" not in cond:
        yield "cache/save is not limited to a restore that missed"
    key = str(steps[restore]["with"].get("key", ""))
    for part in ("runner.os", "runner.arch", "steps.key.outputs.key"):
        if part not in key:
            yield f"the cache key lacks {part}"
    if re.search(r"github\.(ref|head_ref|base_ref|ref_name)", key):
        yield "the cache key names a branch"


def main(argv):
    if len(argv) != 3:
        print("usage: action_check.py ACTION_YML CI_MD", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        action = yaml.safe_load(f)
    with open(argv[2], encoding="utf-8") as f:
        ci_md = f.read()
    problems = list(metadata_problems(action))
    problems += input_problems(action, ci_md)
    problems += cache_problems(action)
    for p in problems:
        print(f"{argv[1]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
