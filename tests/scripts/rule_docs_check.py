#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The rule documentation against the program: docs/rules.md, --explain
and the verdicts the checks give.

    rule_docs_check.py NDPLINT SOURCE_DIR

  1. Every rule of rules/*.json is named in docs/rules.md, by its id or
     inside a range ("NDP601–NDP612"), and docs/rules.md names no rule id
     that the rule files do not define.
  2. 'NDPLINT --explain ID' exits 0 for every rule and prints its summary
     and its title.
  3. For every rule of class "check" that has a row of its own in a table
     of docs/rules.md ("| NDP705 | ..."), the verdicts that row names
     (refused, may-refuse, advisory) are exactly those the program gives
     it: in the transition tables of tests/shapes/tables/ ("verdicts"),
     in the golden cases' expected outputs (which the golden tests hold
     to the program), in the unit tests' expectations ("NDP702
     may-refuse", "NDP608/may-refuse"), and when NDPLINT judges every fixture under
     fixtures/ (--format json, under Allow and Block).  A verdict the program gives that the row
     does not name, or one the row names that no test shows, is a
     disagreement.

Exit 0 when everything agrees, 1 otherwise (each problem on one line),
2 on a usage error.  A program that prints no JSON report for any fixture
(a stand-in such as /bin/true or /bin/false) is a failure, never a pass.
"""
import glob
import json
import os
import re
import subprocess
import sys

VERDICTS = ("refused", "may-refuse", "advisory")
RULE_ID = re.compile(r"NDP\d{3}")
RANGE = re.compile(r"(NDP\d{3})\s*(?:–|-|to)\s*(NDP\d{3})")
AT = "2026-12-05T12:00:00Z"


def rule_files(source):
    rules = {}
    for path in sorted(glob.glob(os.path.join(source, "rules", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for rule in doc["rules"]:
            rules[rule["id"]] = dict(rule, category=doc["category"],
                                     category_title=doc["title"])
    return rules


def number(rule_id):
    return int(rule_id[3:])


def named_in(text, ids):
    """The rule ids the text names, ranges expanded over known ids."""
    named = set(RULE_ID.findall(text))
    for first, last in RANGE.findall(text):
        named.update(i for i in ids if number(first) <= number(i) <= number(last))
    return named


def own_rows(text):
    """{id: verdict words} for each table row that begins with an id."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\|\s*(NDP\d{3})\s*\|(.*)\|\s*$", line)
        if not m:
            continue
        words = set()
        for verdict in VERDICTS:
            if re.search(r"(?<![\w-])" + re.escape(verdict) + r"(?![\w-])",
                         m.group(2)):
                words.add(verdict)
        rows[m.group(1)] = words
    return rows


def explain(ndplint, rule, problems):
    proc = subprocess.run([ndplint, "--explain", rule["id"]],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        problems.append("--explain %s: exit %d" % (rule["id"],
                                                   proc.returncode))
        return
    for key in ("summary", "title"):
        if rule.get(key) and rule[key] not in proc.stdout:
            problems.append("--explain %s does not print its %s: %r"
                            % (rule["id"], key, rule[key]))


def table_verdicts(source):
    seen = {}
    for path in glob.glob(os.path.join(source, "tests", "shapes", "tables",
                                       "*.json")):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for group in doc.get("groups", []):
            for row in group.get("rows", []):
                for rule, verdict in row.get("verdicts", {}).items():
                    seen.setdefault(rule, set()).add(verdict)
    return seen


TEXT_VERDICT = re.compile(r"^\s+(?:error|warning|note)\s+(\S+)\s")
TEXT_RULE = re.compile(r"^\s+(NDP\d{3}) ")


def golden_verdicts(source, seen):
    """Adds what the golden cases' expected outputs show (the golden tests
    hold those to the program): JSON reports, and the text report, where
    a finding's verdict line comes before the line that names its rule."""
    for path in glob.glob(os.path.join(source, "tests", "golden", "*",
                                       "expected.out")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            report = json.loads(text)
        except ValueError:
            report = None
        if isinstance(report, dict):
            for finding in report.get("findings", []):
                if isinstance(finding, dict) and "rule" in finding:
                    seen.setdefault(finding["rule"], set()).add(
                        finding.get("verdict"))
            continue
        verdict = None
        for line in text.splitlines():
            m = TEXT_VERDICT.match(line)
            if m:
                verdict = m.group(1)
                continue
            m = TEXT_RULE.match(line)
            if m and verdict:
                seen.setdefault(m.group(1), set()).add(verdict)
            verdict = None


UNIT_EXPECT = re.compile(r"(NDP\d{3})[ /](refused|may-refuse|advisory)\b")


def unit_verdicts(source, seen):
    """Adds the verdicts the unit tests' tables expect of a rule
    ("NDP702 may-refuse", "NDP608/may-refuse"): the unit tests hold the
    program to them."""
    for path in glob.glob(os.path.join(source, "tests", "unit", "*.c")):
        with open(path, encoding="utf-8", errors="replace") as f:
            for rule, verdict in UNIT_EXPECT.findall(f.read()):
                seen.setdefault(rule, set()).add(verdict)


def fixture_verdicts(ndplint, source, seen):
    """Adds what every fixture gives; returns how many reports were read."""
    reports = 0
    paths = sorted(glob.glob(os.path.join(source, "fixtures", "**", "*.json"),
                             recursive=True))
    for path in paths:
        for profile in ("Allow", "Block"):
            proc = subprocess.run(
                [ndplint, "--no-config", "--format", "json", "--at", AT,
                 "--profile", profile, path],
                capture_output=True, text=True, check=False)
            if proc.returncode not in (0, 1):
                continue  # a fixture of bad input: exit 2 is its point
            try:
                report = json.loads(proc.stdout)
            except ValueError:
                continue
            reports += 1
            for finding in report.get("findings", []):
                seen.setdefault(finding["rule"], set()).add(
                    finding["verdict"])
    return reports


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ndplint, source = argv[1], argv[2]
    problems = []
    rules = rule_files(source)
    with open(os.path.join(source, "docs", "rules.md"), encoding="utf-8") as f:
        docs = f.read()
    named = named_in(docs, rules)
    for rule_id in sorted(set(rules) - named):
        problems.append("docs/rules.md does not name %s" % rule_id)
    for rule_id in sorted(set(RULE_ID.findall(docs)) - set(rules)):
        problems.append("docs/rules.md names %s, which no rule file "
                        "defines" % rule_id)
    for rule in rules.values():
        explain(ndplint, rule, problems)
    seen = table_verdicts(source)
    golden_verdicts(source, seen)
    unit_verdicts(source, seen)
    if fixture_verdicts(ndplint, source, seen) == 0:
        problems.append("%s wrote no JSON report for any fixture" % ndplint)
    rows = own_rows(docs)
    checked = 0
    for rule_id, rule in sorted(rules.items()):
        if rule["class"] != "check" or rule_id not in rows:
            continue
        documented = rows[rule_id]
        given = seen.get(rule_id, set()) & set(VERDICTS)
        checked += 1
        for verdict in sorted(given - documented):
            problems.append("%s: the program gives %s, which its row in "
                            "docs/rules.md does not name" % (rule_id, verdict))
        for verdict in sorted(documented - given):
            problems.append("%s: docs/rules.md names %s, which no test "
                            "shows the program giving" % (rule_id, verdict))
    if checked == 0:
        problems.append("docs/rules.md has no row for any check")
    for problem in problems:
        print("rule_docs_check: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
