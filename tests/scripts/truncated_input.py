# SPDX-License-Identifier: Apache-2.0
"""A plan truncated while ndplint reads it is said to have changed.

ndplint maps a plan file; another process that truncates the file while
it is read takes pages away from under the scan, which used to end the
run with SIGBUS (exit 135).  Now a read of a vanished page finds zeros,
and the run ends with exit 2 and the one line "ndplint: 'PATH' changed
while it was read ..." (src/util/map_guard.c, ndp_load_check_unchanged()).

A 256 MB plan (fixtures/example-plan.json with a long list of other
changes after its own) is first read whole: the usual findings, exit 1.
Then, several times, ndplint is started on a fresh copy of it, and as soon
as /proc shows the file mapped, the file is truncated to a quarter, while
the scan (in two threads over a list this long) is still reading.  A run
that ended before the truncation could land is not counted; every other
run must exit 2 with that line alone on standard error, and none may die
of a signal.  At least two runs must be caught.

    usage: truncated_input.py NDPLINT SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SIZE = 256 << 20
ATTEMPTS = 8
CAUGHT_ENOUGH = 3
FILLER = ('{"address":"azurerm_storage_account.filler[%d]","mode":"managed",'
          '"type":"azurerm_storage_account","name":"filler","index":%d,'
          '"provider_name":"registry.terraform.io/hashicorp/azurerm",'
          '"change":{"actions":["update"],"before":{"name":"stfiller%d",'
          '"tags":{"note":"' + "alpha bravo charlie delta " * 16 + '"}},'
          '"after":{"name":"stfiller%d","tags":{"note":"' +
          "echo foxtrot golf hotel " * 16 + '"}},"after_unknown":{},'
          '"before_sensitive":{},"after_sensitive":{}}}')


def write_plan(source, path):
    """The example plan, its resource_changes padded to SIZE bytes."""
    with open(os.path.join(source, "fixtures/example-plan.json")) as f:
        doc = json.load(f)
    changes = doc["resource_changes"]
    doc["resource_changes"] = "@FILLER@"
    head, tail = json.dumps(doc).split('"@FILLER@"')
    with open(path, "w") as out:
        out.write(head + "[" + ",".join(json.dumps(c) for c in changes))
        i = 0
        while out.tell() < SIZE:
            out.write("".join("," + FILLER % (n, n, n, n)
                              for n in range(i, i + 4096)))
            i += 4096
        out.write("]" + tail)


def mapped(pid, path):
    """Does process 'pid' have 'path' mapped (False once it has ended)?"""
    try:
        with open("/proc/%d/maps" % pid) as f:
            return path in f.read()
    except OSError:
        return False


def lint(ndplint, path, truncate_at=None):
    """Runs ndplint on 'path', truncating it once mapped; returns (status,
    stdout, stderr, truncated while it ran)."""
    proc = subprocess.Popen([ndplint, "--no-config", "--at",
                             "2026-12-05T12:00:00Z", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    truncated = False
    if truncate_at is not None:
        deadline = time.monotonic() + 20
        while proc.poll() is None and time.monotonic() < deadline:
            if mapped(proc.pid, path):
                os.truncate(path, truncate_at)
                truncated = proc.poll() is None
                break
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out.decode(errors="replace"), \
        err.decode(errors="replace"), truncated


def main():
    ndplint, source = sys.argv[1], sys.argv[2]
    if not os.path.isdir("/proc/self"):
        print("truncated_input: skipped: no /proc to see the file mapped")
        return 77
    tmp = tempfile.mkdtemp()
    problems = []
    try:
        whole = os.path.join(tmp, "whole.json")
        plan = os.path.join(tmp, "plan.json")
        write_plan(source, whole)
        status, out, err, _ = lint(ndplint, whole)
        if status != 1 or "NDP101" not in out or err:
            problems.append("the whole plan: exit %d, not 1 with NDP101 and "
                            "nothing on stderr: %r" % (status, err[:300]))
        expected = ("ndplint: '%s' changed while it was read (another "
                    "process wrote or truncated it)\n" % plan)
        caught = missed = 0
        for attempt in range(ATTEMPTS):
            if caught >= CAUGHT_ENOUGH or problems:
                break
            shutil.copyfile(whole, plan)
            status, out, err, truncated = lint(ndplint, plan, SIZE // 4)
            what = "run %d" % (attempt + 1)
            if status < 0 or status > 128:
                problems.append("%s: killed by signal %d" % (
                    what, -status if status < 0 else status - 128))
            elif status == 2 and err == expected and not out:
                caught += 1
            elif not truncated and status == 1:
                missed += 1  # it ended before the file was truncated
            else:
                problems.append("%s: exit %d, stderr %r, %d bytes on "
                                "stdout" % (what, status, err[:300],
                                            len(out)))
        print("truncated_input: %d runs said the file changed, %d ended "
              "before it was truncated" % (caught, missed))
        if not problems and caught < 2:
            problems.append("fewer than two runs were caught reading the "
                            "file as it was truncated")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for p in problems:
        print("truncated_input: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
