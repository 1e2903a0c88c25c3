#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests that can fail: every script-level test, run against stand-ins.

Lists the build's tests with 'ctest --show-only=json-v1' and, for every
test run by an interpreter (sh, python3) whose arguments name a program
built in BUILD_DIR (ndplint, window_probe, prune_check, ...), runs it once
with every such program replaced by /bin/true and once by /bin/false.
A test that passes (exit 0) with a stand-in checks nothing about the
program's output, and fails this test.

A stand-in run that exits 77 (skipped) counts as not passing only when the
test skips with the real programs too: then the skip comes from something
else (a validator, the shared corpus or python3-dateutil is missing), and
the test never got to the program.  A test that skips with a stand-in but
not with the real programs skips because of the program, which is passing
in disguise, and fails this test.  Tests that name no built program (the
pre-commit hook, which builds its own) cannot be given a stand-in and are
listed as such; so are programs built in BUILD_DIR that are run directly
(unit tests, fuzz replays: they are the test).  NDP_UPDATE_GOLDEN is
removed from the stand-ins' environment, and a '--work DIR' (a directory
the real test owns) is left out of their arguments.

    usage: run_standins.py CTEST BUILD_DIR [NAME_REGEX]
"""
import json
import os
import re
import subprocess
import sys

STANDINS = ("/bin/true", "/bin/false")
TIMEOUT = 600
SELF = "standins"


def list_tests(ctest, build):
    out = subprocess.run([ctest, "--show-only=json-v1"], cwd=build,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def built(arg, build):
    """Is 'arg' a program built under 'build'?"""
    path = os.path.realpath(arg)
    return (path.startswith(os.path.realpath(build) + os.sep)
            and os.path.isfile(path) and os.access(path, os.X_OK))


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def run(command, cwd, env):
    try:
        done = subprocess.run(command, cwd=cwd, env=env, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        return done.returncode, done.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def environment(test):
    env = dict(os.environ)
    for item in properties(test).get("ENVIRONMENT", []):
        key, _, value = item.partition("=")
        env[key] = value
    # A stand-in must never rewrite the golden expectations.
    env.pop("NDP_UPDATE_GOLDEN", None)
    return env


def private(argv):
    """'argv' without '--work DIR': a fixed directory the real test empties
    and fills (shapes.py), which a stand-in run beside it must not share;
    without it the test uses a temporary directory of its own."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--work":
            skip = True
        else:
            out.append(arg)
    return out


def main():
    ctest, build = sys.argv[1], sys.argv[2]
    pattern = re.compile(sys.argv[3] if len(sys.argv) > 3 else "")
    bad, checked, notes = [], 0, []
    for test in list_tests(ctest, build):
        name, command = test["name"], test.get("command") or []
        if name == SELF or not pattern.search(name) or not command:
            continue
        if built(command[0], build):
            continue  # the program is the test
        programs = [i for i, a in enumerate(command[1:], 1) if built(a, build)]
        if not programs:
            notes.append(f"{name}: names no built program; no stand-in")
            continue
        props = properties(test)
        cwd = props.get("WORKING_DIRECTORY", build)
        env = environment(test)
        real = None
        for standin in STANDINS:
            argv = list(command)
            for i in programs:
                argv[i] = standin
            status, log = run(private(argv), cwd, env)
            checked += 1
            if status == 77:
                if real is None:
                    real, _ = run(private(command), cwd, env)
                if real == 77:
                    notes.append(f"{name}: skipped with {standin} and with "
                                 "the real program (not about the program)")
                    continue
                bad.append(f"{name}: skipped (77) with {standin} but not "
                           f"with the real program (exit {real})")
            elif status == 0:
                bad.append(f"{name}: passed with {standin} as the program")
                sys.stdout.write("".join(f"    {l}\n" for l in
                                         log.splitlines()[-5:]))
    for note in notes:
        print(f"standins: note: {note}")
    for b in bad:
        print(f"standins: {b}")
    print(f"standins: {checked} stand-in runs, {len(bad)} passed that "
          "should have failed")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
