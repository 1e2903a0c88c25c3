# SPDX-License-Identifier: Apache-2.0
"""--at next-window gives the same verdicts at any hour of a week.

For each fixture, ndplint runs with --at next-window at every hour of one
week (the current instant set with NDPLINT_NOW, docs/development.md), and
every run must give the same exit status, the same findings (rule,
resource, path, verdict, severity) but window-overrun, and the same kind
of closing advice (the summary's apply_window reason): a run inside the
window is judged at its own instant, with less of the window left, as
the apply it stands for would be (docs/ci.md).  Each cluster with a window must be
judged inside it (evaluated_at_reason next-window).  The same fixture
judged at the hour itself (--at now) must change its verdict during the
week, or the fixture proves nothing; and every run must write a JSON
report with findings, so a program that prints nothing fails.

    usage: next_window_week.py NDPLINT SOURCE_DIR
"""
import datetime
import json
import os
import subprocess
import sys

# Fixtures whose windows have no notAllowedDates, with the options they
# need: a weekly window, a window the apply replaces (only where both are
# open counts), and two clusters whose weekly windows never meet.
FIXTURES = (("fixtures/example-plan.json",),
            ("fixtures/profile-change.json",),
            ("fixtures/next-window-two-windows.json",
             "--profile", "AllowDuringMaintenanceWindow"))
MONDAY = datetime.datetime(2026, 11, 30, 0, 0, tzinfo=datetime.timezone.utc)
HOURS = 7 * 24


def run(ndplint, source, fixture, now, at):
    env = dict(os.environ, NDPLINT_NOW=now, LC_ALL="C", NO_COLOR="1")
    proc = subprocess.run([ndplint] + list(fixture) +
                          ["--at", at, "--format", "json"],
                          cwd=source, env=env, capture_output=True,
                          timeout=60, check=False)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return proc.returncode, None
    return proc.returncode, report


def verdicts(report):
    return sorted((f["rule"], f["resource"], f["path"] or "", f["verdict"],
                   f["severity"]) for f in report["findings"]
                  if f["verdict"] != "window-overrun")


def check_fixture(ndplint, source, fixture):
    """The problems of one fixture, as lines."""
    problems = []
    first = None
    now_answers = set()
    for hour in range(HOURS):
        now = (MONDAY + datetime.timedelta(hours=hour)).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        status, report = run(ndplint, source, fixture, now, "next-window")
        if report is None or not report.get("findings"):
            problems.append("%s at %s: no JSON report with findings (exit "
                            "%d)" % (fixture[0], now, status))
            break
        for cluster in report["clusters"]:
            if cluster["window"] is not None and \
                    cluster["profile"] == "AllowDuringMaintenanceWindow" and \
                    (cluster["evaluated_at_reason"] != "next-window" or
                     cluster["in_window"] is not True):
                problems.append("%s at %s: cluster %s judged at %s (%s), "
                                "in_window %s" % (
                                    fixture[0], now, cluster["id"],
                                    cluster["evaluated_at"],
                                    cluster["evaluated_at_reason"],
                                    cluster["in_window"]))
        # The closing advice too: apply now, in a window, separately.
        answer = (status, verdicts(report),
                  report["summary"]["apply_window"]["reason"])
        if first is None:
            first = (now, answer)
        elif answer != first[1]:
            problems.append("%s: at %s exit %d, %s, apply %s; at %s exit "
                            "%d, %s, apply %s" % ((fixture[0], first[0]) +
                                                  first[1] + (now,) + answer))
            break
        status, report = run(ndplint, source, fixture, now, "now")
        if report is not None:
            now_answers.add((status, json.dumps(verdicts(report))))
    if not problems and len(now_answers) < 2:
        problems.append("%s: --at now gives the same verdicts all week, so "
                        "the fixture proves nothing" % fixture[0])
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: next_window_week.py NDPLINT SOURCE_DIR")
    ndplint, source = sys.argv[1], sys.argv[2]
    problems = []
    for fixture in FIXTURES:
        problems += check_fixture(ndplint, source, fixture)
    for line in problems[:10]:
        print(line)
    if len(problems) > 10:
        print("... and %d more" % (len(problems) - 10))
    if problems:
        return 1
    print("next-window: %d fixtures, %d hours each: the same verdicts and "
          "exit status every hour" % (len(FIXTURES), HOURS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
