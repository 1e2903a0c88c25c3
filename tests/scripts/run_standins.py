#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests that can fail: every test script, run against stand-ins.

Lists the build's tests with 'ctest --show-only=json-v1' and, for every
script run by an interpreter (sh, python3) whose arguments name a program
built in BUILD_DIR (ndplint, window_probe, prune_check, ...), runs one of
the tests that run it once with every such program replaced by /bin/true
and once by /bin/false.  One test stands for its script: golden_001 for
run_golden.sh, which every golden case runs with its own arguments (that
no case expects what a stand-in prints, nothing and exit 0 or 1, is
checked by run_golden.sh itself, for each case).  A test that passes
(exit 0) with a stand-in checks nothing about the program's output, and
fails this test.

A stand-in run that exits 77 (skipped) counts as not passing only when the
test skips with the real programs too: then the skip comes from something
else (a validator, the shared corpus or python3-dateutil is missing), and
the test never got to the program.  A test that skips with a stand-in but
not with the real programs skips because of the program, which is passing
in disguise, and fails this test.  Tests that name no built program (the
hook's build lock, the release script) cannot be given a stand-in and are
listed as such; so are programs built in BUILD_DIR that are run directly
(unit tests, fuzz replays: they are the test).  NDP_UPDATE_GOLDEN is
removed from the stand-ins' environment, NDP_STANDIN is set in it to the
stand-in (a script may leave out work that does not run the program it
is given: run_precommit.sh leaves out its run that builds ndplint through
the hook), and a '--work DIR' (a directory the real test owns) is left
out of their arguments.

    usage: run_standins.py CTEST BUILD_DIR [NAME_REGEX]
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

STANDINS = ("/bin/true", "/bin/false")
TIMEOUT = 600
SELF = "standins"
INTERPRETERS = ("sh", "bash", "python3", "python")


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


def environment(test, standin=None):
    env = dict(os.environ)
    for item in properties(test).get("ENVIRONMENT", []):
        key, _, value = item.partition("=")
        env[key] = value
    # A stand-in must never rewrite the golden expectations.
    env.pop("NDP_UPDATE_GOLDEN", None)
    env.pop("NDP_STANDIN", None)
    if standin:
        env["NDP_STANDIN"] = standin
    return env


def runner(command):
    """The script a test runs: the interpreter's first argument."""
    if len(command) > 1 and \
            os.path.basename(command[0]).startswith(INTERPRETERS):
        return os.path.realpath(command[1])
    return command[0]


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


def stand_in(test, programs, build):
    """Runs 'test' with each stand-in; returns (runs, bad, notes, output)."""
    name, command = test["name"], test["command"]
    cwd = properties(test).get("WORKING_DIRECTORY", build)
    bad, notes, out, runs = [], [], [], 0
    real = None
    for standin in STANDINS:
        argv = list(command)
        for i in programs:
            argv[i] = standin
        status, log = run(private(argv), cwd, environment(test, standin))
        runs += 1
        if status == 77:
            if real is None:
                real, _ = run(private(command), cwd, environment(test))
            if real == 77:
                notes.append(f"{name}: skipped with {standin} and with "
                             "the real program (not about the program)")
                continue
            bad.append(f"{name}: skipped (77) with {standin} but not "
                       f"with the real program (exit {real})")
        elif status == 0:
            bad.append(f"{name}: passed with {standin} as the program")
            out.append(f"standins: {name} with {standin}, its last lines:\n"
                       + "".join(f"    {l}\n" for l in log.splitlines()[-5:]))
    return runs, bad, notes, out


def main():
    ctest, build = sys.argv[1], sys.argv[2]
    pattern = re.compile(sys.argv[3] if len(sys.argv) > 3 else "")
    notes = []
    standing = {}  # script -> [the test that stands for it, how many more]
    chosen = []    # (test, indexes of its built programs), one per script
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
        script = runner(command)
        if script in standing:
            standing[script][1] += 1
            continue
        standing[script] = [name, 0]
        chosen.append((test, programs))
    for script, (name, more) in standing.items():
        if more:
            notes.append(f"{os.path.basename(script)}: {name} stood in "
                         f"for it and {more} more tests that run it")
    # The runs wait on timeouts and pipes as much as they compute: side by
    # side, one per processor.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda c: stand_in(c[0], c[1], build),
                                chosen))
    checked, bad = 0, []
    for runs, b, n, out in results:
        checked += runs
        bad += b
        notes += n
        sys.stdout.write("".join(out))
    for note in notes:
        print(f"standins: note: {note}")
    for b in bad:
        print(f"standins: {b}")
    print(f"standins: {checked} stand-in runs of {len(standing)} scripts, "
          f"{len(bad)} passed that should have failed")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
