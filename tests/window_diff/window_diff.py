#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""window_diff.py - differential test of ndplint's maintenance window engine.

An independent model of AKS maintenance windows, built on python3-dateutil's
rrule and plain datetime arithmetic with fixed-offset zones, is compared with
the C engine (window_probe) on thousands of random schedules and instants.

Usage: window_diff.py PATH/TO/window_probe [SEED] [CASES]

The seed is printed on every run; pass it back to replay a failure.  Exits 0
when every answer agrees, 1 on any disagreement (the first ones are printed
in full), 2 on a usage or probe error, 77 (skip) when dateutil is missing.

Semantics modelled (the same reading as src/window/window.c, written
separately):
  - occurrences are local dates at utcOffset; the window runs
    [date startTime, +durationHours), half-open;
  - with startDate, the interval counts from the first occurrence on or
    after startDate, and nothing occurs before it;
  - with interval > 1 and no startDate the phase is unknown: never open, and
    "next" is the earliest occurrence of the interval-1 schedule;
  - dayOfMonth missing from a month: no window that month (rrule skips it);
  - an occurrence overlapping a notAllowedDates span (local whole days, end
    inclusive) is dropped whole;
  - "next" is the first window starting at or after the instant, searched
    for starts before instant + 3653 days;
  - validity (what AKS takes): utcOffset in whole quarter hours within
    14 hours, and dates written as dates; a window that breaks either is
    still evaluated as written (a date-time by its date part).
"""

import json
import random
import subprocess
import sys
import time as clock

try:
    from dateutil import rrule
except ImportError:
    print("window_diff: python3-dateutil is not installed; skipping")
    sys.exit(77)

from datetime import date, datetime, time, timedelta, timezone

HORIZON = timedelta(days=3653)
DAY = timedelta(days=1)

WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                 "Friday", "Saturday"]
RRULE_WEEKDAYS = [rrule.SU, rrule.MO, rrule.TU, rrule.WE, rrule.TH,
                  rrule.FR, rrule.SA]
WEEK_INDEX_NAMES = ["First", "Second", "Third", "Fourth", "Last"]
WEEK_INDEX_NTH = [1, 2, 3, 4, -1]
KINDS = ["daily", "weekly", "absoluteMonthly", "relativeMonthly"]
INTERVAL_KEYS = {"daily": "intervalDays", "weekly": "intervalWeeks",
                 "absoluteMonthly": "intervalMonths",
                 "relativeMonthly": "intervalMonths"}
INTERVAL_MAX = {"daily": 7, "weekly": 4, "absoluteMonthly": 6,
                "relativeMonthly": 6}
REAL_OFFSETS = [-720, -600, -570, -300, -240, -210, 0, 60, 120, 180, 210,
                270, 330, 345, 480, 525, 540, 570, 600, 765, 780, 840]
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def epoch(dt):
    return int((dt - EPOCH).total_seconds())


class Model:
    """One schedule, evaluated with rrule over local dates."""

    def __init__(self, spec):
        self.spec = spec
        self.tz = timezone(timedelta(minutes=spec["offset"]))
        self.length = timedelta(hours=spec["duration"])
        self.start_clock = time(spec["hour"], spec["minute"])
        self.phase_unknown = (spec["start_date"] is None
                              and spec["interval"] > 1)
        self.blocked = []
        for first, last in spec["spans"]:
            lo, hi = min(first, last), max(first, last)
            self.blocked.append(
                (datetime.combine(lo, time(0), self.tz),
                 datetime.combine(hi + DAY, time(0), self.tz)))
        if spec["start_date"] is not None:
            begin = datetime.combine(spec["start_date"], time(0))
            anchor = self._rule(begin, 1).after(begin, inc=True)
            self.rule = self._rule(anchor, spec["interval"])
        else:
            self.rule = None

    def _rule(self, dtstart, interval):
        s = self.spec
        kind = s["kind"]
        if kind == "daily":
            return rrule.rrule(rrule.DAILY, dtstart=dtstart,
                               interval=interval, cache=False)
        if kind == "weekly":
            return rrule.rrule(rrule.WEEKLY, dtstart=dtstart,
                               interval=interval,
                               byweekday=RRULE_WEEKDAYS[s["dow"]],
                               cache=False)
        if kind == "absoluteMonthly":
            return rrule.rrule(rrule.MONTHLY, dtstart=dtstart,
                               interval=interval, bymonthday=s["dom"],
                               cache=False)
        nth = WEEK_INDEX_NTH[s["week_index"]]
        return rrule.rrule(rrule.MONTHLY, dtstart=dtstart, interval=interval,
                           byweekday=RRULE_WEEKDAYS[s["dow"]](nth),
                           cache=False)

    def _rule_near(self, local_day):
        """The occurrence rule, for dates from about 'local_day' on."""
        if self.rule is not None and not self.phase_unknown:
            return self.rule
        # No phase to respect: any start before the dates asked for works.
        return self._rule(datetime.combine(local_day - 70 * DAY, time(0)), 1)

    def _window(self, occurrence):
        start = datetime.combine(occurrence.date(), self.start_clock, self.tz)
        return start, start + self.length

    def _blocked(self, start, end):
        return any(start < b_end and b_start < end
                   for b_start, b_end in self.blocked)

    def is_open(self, at):
        if self.phase_unknown:
            return None
        local_day = at.astimezone(self.tz).date()
        rule = self._rule_near(local_day)
        for occ in rule.between(datetime.combine(local_day - 2 * DAY, time(0)),
                                datetime.combine(local_day + DAY, time(0)),
                                inc=True):
            start, end = self._window(occ)
            if start <= at < end and not self._blocked(start, end):
                return end
        return None

    def next(self, at):
        local_day = at.astimezone(self.tz).date()
        rule = self._rule_near(local_day)
        begin = datetime.combine(local_day - 2 * DAY, time(0))
        for occ in rule.xafter(begin, inc=True):
            start, end = self._window(occ)
            if start >= at + HORIZON:
                return None
            if start >= at and not self._blocked(start, end):
                return start, end
        return None

    def valid(self):
        """Would AKS take it?  The specs are valid but for two rules: the
        newest API's utcOffset (whole quarter hours within 14 hours) and
        dates written as dates, not date-times."""
        spec = self.spec
        offset = abs(spec["offset"])
        has_dates = spec["start_date"] is not None or spec["spans"]
        return (offset % 15 == 0 and offset <= 14 * 60
                and not (spec["date_times"] and has_dates))

    def answer(self, at):
        closes = self.is_open(at)
        nxt = self.next(at)
        words = ["open" if closes else "closed",
                 str(epoch(closes)) if closes else "-"]
        words += [str(epoch(nxt[0])), str(epoch(nxt[1]))] if nxt else ["-",
                                                                       "-"]
        words.append("valid" if self.valid() else "invalid")
        return " ".join(words)


def random_date(rng, first, last):
    return first + timedelta(days=rng.randrange((last - first).days + 1))


def random_offset(rng):
    if rng.random() < 0.6:
        return rng.choice(REAL_OFFSETS)
    return rng.randrange(-720, 841, 15)


def random_window_offset(rng):
    """Mostly offsets AKS takes; sometimes one it refuses (any minute up
    to 15 hours), which is still evaluated as written."""
    if rng.random() < 0.1:
        return rng.randrange(-900, 901)
    return random_offset(rng)


def random_spec(rng):
    kind = rng.choice(KINDS)
    interval = 1 if rng.random() < 0.4 else rng.randint(1,
                                                         INTERVAL_MAX[kind])
    if interval > 1:
        has_start = rng.random() < 0.85
    else:
        has_start = rng.random() < 0.5
    dom = rng.randint(28, 31) if rng.random() < 0.4 else rng.randint(1, 31)
    spec = {
        "kind": kind,
        "interval": interval,
        "dow": rng.randrange(7),
        "dom": dom,
        "week_index": rng.randrange(5),
        "hour": rng.randrange(24),
        "minute": rng.choice([0, 0, 15, 30, 45, rng.randrange(60)]),
        "offset": random_window_offset(rng),
        "duration": rng.randint(4, 24),
        "start_date": (random_date(rng, date(2024, 1, 1), date(2030, 12, 31))
                       if has_start else None),
        "spans": [],
        "date_times": rng.random() < 0.1,
    }
    centre = spec["start_date"] or random_date(rng, date(2024, 1, 1),
                                               date(2030, 12, 31))
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        first = centre + timedelta(days=rng.randint(-30, 400))
        spec["spans"].append((first,
                              first + timedelta(days=rng.randint(0, 20))))
    return spec


def offset_text(minutes):
    sign = "-" if minutes < 0 else "+"
    return "%s%02d:%02d" % (sign, abs(minutes) // 60, abs(minutes) % 60)


def vary_case(rng, word):
    return rng.choice([word, word, word.lower(), word.upper()])


def arm_json(rng, spec):
    """The spec as an ARM MaintenanceWindow, sometimes in az CLI style."""
    kind = spec["kind"]
    variant = {INTERVAL_KEYS[kind]: spec["interval"]}
    if kind in ("weekly", "relativeMonthly"):
        variant["dayOfWeek"] = vary_case(rng, WEEKDAY_NAMES[spec["dow"]])
    if kind == "absoluteMonthly":
        variant["dayOfMonth"] = spec["dom"]
    if kind == "relativeMonthly":
        variant["weekIndex"] = vary_case(rng,
                                         WEEK_INDEX_NAMES[spec["week_index"]])
    az_cli_style = rng.random() < 0.3
    schedule = {k: None for k in KINDS} if az_cli_style else {}
    schedule[kind] = variant
    window = {
        "schedule": schedule,
        "durationHours": spec["duration"],
        "startTime": "%02d:%02d" % (spec["hour"], spec["minute"]),
    }
    if spec["offset"] != 0 or rng.random() < 0.5:
        window["utcOffset"] = offset_text(spec["offset"])
    # A date written as a date-time: refused, its date part evaluated.
    write_date = ((lambda d: d.isoformat() + "T00:00:00Z")
                  if spec["date_times"] else (lambda d: d.isoformat()))
    if spec["start_date"] is not None:
        window["startDate"] = write_date(spec["start_date"])
    elif az_cli_style:
        window["startDate"] = None
    if spec["spans"] or az_cli_style:
        window["notAllowedDates"] = [
            {"start": write_date(a), "end": write_date(b)}
            for a, b in spec["spans"]]
    return window


def rfc3339(rng, instant):
    """'instant' written at a random offset, sometimes with a fraction."""
    minutes = rng.choice([0, 0, random_offset(rng)])
    local = instant.astimezone(timezone(timedelta(minutes=minutes)))
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    if rng.random() < 0.1:
        text += ".000"
    return text + ("Z" if minutes == 0 and rng.random() < 0.5
                   else offset_text(minutes))


def random_instant(rng, model):
    """An instant near the schedule, often exactly on an edge."""
    spec = model.spec
    centre = spec["start_date"] or date(2027, 6, 1)
    base = datetime.combine(centre, time(0), timezone.utc)
    at = base + timedelta(seconds=rng.randint(-60 * 86400, 1200 * 86400))
    choice = rng.random()
    if choice < 0.06 and spec["start_date"] is not None:
        # Far before the first window, often exactly on the search horizon.
        first = model.next(datetime.combine(spec["start_date"] - 2 * DAY,
                                            time(0), timezone.utc))
        if first:
            if rng.random() < 0.5:
                return first[0] - HORIZON + timedelta(
                    seconds=rng.choice([0, 1, -1]))
            return first[0] - timedelta(days=rng.randint(400, 4000))
    elif choice < 0.45:
        window = model.next(at)
        if window:
            edge = rng.choice([window[0], window[1]])
            return edge + timedelta(seconds=rng.choice([0, 0, -1, 1, -3600]))
    elif choice < 0.6 and model.blocked:
        edge = rng.choice(rng.choice(model.blocked))
        return edge + timedelta(seconds=rng.choice([0, -1, 1, -7200, 7200]))
    return at


def make_cases(rng, count):
    cases = []
    while len(cases) < count:
        spec = random_spec(rng)
        model = Model(spec)
        window = arm_json(rng, spec)
        for _ in range(rng.randint(1, 3)):
            at = random_instant(rng, model)
            line = json.dumps({"window": window, "at": rfc3339(rng, at)})
            cases.append((line, model.answer(at), at))
    return cases[:count]


def run_probe(probe, cases):
    text = "".join(line + "\n" for line, _, _ in cases)
    try:
        done = subprocess.run([probe], input=text, capture_output=True,
                              text=True, timeout=120, check=False)
    except OSError as e:
        print("window_diff: cannot run %s: %s" % (probe, e))
        sys.exit(2)
    if done.stderr:
        sys.stderr.write(done.stderr)
    return done.returncode, done.stdout.splitlines()


def main(argv):
    if len(argv) < 2:
        print("usage: window_diff.py PATH/TO/window_probe [SEED] [CASES]")
        return 2
    seed = int(argv[2]) if len(argv) > 2 else int(clock.time() * 1000) % 2**32
    count = int(argv[3]) if len(argv) > 3 else 10000
    print("window_diff: seed %d, %d cases" % (seed, count))
    rng = random.Random(seed)
    started = clock.time()
    cases = make_cases(rng, count)
    status, answers = run_probe(argv[1], cases)
    if len(answers) != len(cases):
        print("window_diff: probe exited %d and answered %d of %d lines"
              % (status, len(answers), len(cases)))
        return 2
    failures = [(case, got) for case, got in zip(cases, answers)
                if got != case[1]]
    for (line, expected, at), got in failures[:10]:
        print("DISAGREE\n  input:    %s\n  at (UTC): %s (%d)\n"
              "  expected: %s\n  probe:    %s"
              % (line, at.astimezone(timezone.utc).isoformat(), epoch(at),
                 expected, got))
    opened = sum(1 for _, expected, _ in cases
                 if expected.startswith("open"))
    print("window_diff: seed %d: %d cases (%d open), %d disagreements, "
          "%.1fs" % (seed, len(cases), opened, len(failures),
                     clock.time() - started))
    return 1 if failures or status != 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
