#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Markdown report as GitHub renders it: each report, rendered by
# cmark-gfm with GitHub's extensions (table, strikethrough, autolink,
# tagfilter; raw HTML kept, as GitHub keeps <details>), has
#   - the verdict in its first line, an <h3> naming the instant judged;
#   - the table of clusters, one row per cluster (never cut), none of its
#     source lines wider than MAX_ROW bytes and no cell longer than
#     MAX_CELL characters, so the table fits a 900 px column;
#   - each cluster's detail in a collapsed <details> with a <summary>,
#     clusters with errors before those with warnings, then notes, and
#     inside each, errors before warnings before notes before the waived;
#   - every finding's rule linked to its section of docs/rules.md and to
#     its Microsoft source page;
#   - at most 65,536 bytes, the closing advice last, after every detail.
# On the bundled fixtures (one cluster, several, a what-if, a clean plan)
# and on a plan of 400 frozen clusters made here, whose details are cut to
# the limit (and the report says so) while every row and the advice stay.
#   usage: run_markdown_render.sh NDPLINT SOURCE_DIR PYTHON3
# Exit 77 (skipped) without cmark-gfm.
set -u
ndplint=$1 src=$2 python=${3:-python3}
command -v cmark-gfm >/dev/null 2>&1 || {
    echo "markdown_render: cmark-gfm is not installed"
    exit 77
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
n=0 failed=0
bad() { echo "markdown_render: $*"; failed=$((failed + 1)); }

# render NAME CUT ARGS...: the report of ARGS, rendered and checked.
render() {
    name=$1 cut=$2
    shift 2
    n=$((n + 1))
    "$ndplint" --format markdown "$@" > "$tmp/$name.md"
    status=$?
    [ "$status" = 0 ] || [ "$status" = 1 ] || bad "$name: exit status $status"
    [ -s "$tmp/$name.md" ] || { bad "$name: no report"; return; }
    "$ndplint" --format json "$@" > "$tmp/$name.json"
    [ -s "$tmp/$name.json" ] || { bad "$name: no JSON report"; return; }
    cmark-gfm --unsafe -e table -e strikethrough -e autolink -e tagfilter \
        "$tmp/$name.md" > "$tmp/$name.html" || bad "$name: cmark-gfm"
    if "$python" "$tmp/check.py" "$tmp/$name.md" "$tmp/$name.html" \
        "$tmp/$name.json" "$cut" > "$tmp/log" 2>&1; then
        echo "markdown_render: ok: $name: $(tail -n 1 "$tmp/log")"
    else
        bad "$name: $(cat "$tmp/log")"
    fi
}

cat > "$tmp/check.py" <<'EOF'
import json, re, sys
from html.parser import HTMLParser

MAX_ROW = 320       # bytes of a table line in the Markdown
MAX_CELL = 48       # characters of a cell's text
LIMIT = 65536       # GitHub's comment limit
HEAD = ["cluster", "profile", "window", "refused", "rollouts", "warnings",
        "rebuilt", "worst case"]
GROUPS = ["Errors", "Warnings", "Notes", "Waived"]
DOCS = "https://github.com/ndplint/ndplint/blob/main/docs/rules.md#"
SOURCE = "https://learn.microsoft.com/"

md_path, html_path, json_path, cut = sys.argv[1:5]
raw = open(md_path, "rb").read()
md = raw.decode("utf-8")
page = open(html_path, encoding="utf-8").read()
report = json.load(open(json_path, encoding="utf-8"))
clusters = len(report["clusters"])
findings = len(report["findings"])
problems = []


class Page(HTMLParser):
    """The parts of the rendered page the checks read."""

    def __init__(self):
        super().__init__()
        self.first = None          # (tag, text) of the first element
        self.stack, self.text = [], []
        self.cells, self.rows, self.head = [], 0, []
        self.details = []          # per <details>: [summary, [groups], links]
        self.in_details = 0
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        self.text = []
        if tag == "details":
            self.in_details += 1
            self.details.append(["", [], []])
        if tag == "a":
            href = dict(attrs).get("href", "")
            self.links.append(href)
            if self.in_details:
                self.details[-1][2].append(href)

    def handle_endtag(self, tag):
        text = "".join(self.text).strip()
        if self.first is None and tag in ("h1", "h2", "h3", "p"):
            self.first = (tag, text)
        if tag in ("td", "th"):
            self.cells.append(text)
            if tag == "th":
                self.head.append(text)
        if tag == "tr" and "tbody" in self.stack:
            self.rows += 1
        if tag == "summary" and self.in_details:
            self.details[-1][0] = text
        if tag == "strong" and self.in_details and text in GROUPS:
            self.details[-1][1].append(text)
        if tag == "details":
            self.in_details -= 1
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


p = Page()
p.feed(page)

if len(raw) > LIMIT:
    problems.append("%d bytes, over %d" % (len(raw), LIMIT))
first = md.split("\n", 1)[0]
if not re.match(r"### ndplint: .* if applied at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                first):
    problems.append("first line is not the verdict: %r" % first[:120])
if not p.first or p.first[0] != "h3" or "if applied at" not in p.first[1]:
    problems.append("the page does not open with the verdict: %r" % (p.first,))
if clusters:
    if p.head != HEAD:
        problems.append("table head %r" % p.head)
    if p.rows != clusters:
        problems.append("%d rows for %d clusters" % (p.rows, clusters))
for cell in p.cells:
    if len(cell) > MAX_CELL:
        problems.append("a cell of %d characters: %r" % (len(cell), cell))
for line in md.split("\n"):
    if line.startswith("|") and len(line.encode()) > MAX_ROW:
        problems.append("a table line of %d bytes" % len(line.encode()))
worst = []
for summary, groups, links in p.details:
    order = [GROUPS.index(g) for g in groups]
    if order != sorted(order) or len(set(order)) != len(order):
        problems.append("%s: groups in the order %r" % (summary, groups))
    worst.append(order[0] if order and order[0] < 3 else 3)
    docs = [h for h in links if h.startswith(DOCS)]
    source = [h for h in links if h.startswith(SOURCE)]
    items = sum(1 for g in groups if g != "Waived")
    if items and (not docs or not source):
        problems.append("%s: findings without their rule's links" % summary)
if worst != sorted(worst):
    problems.append("clusters not in the order errors, warnings, notes: %r"
                    % worst)
if cut == "cut":
    if len(p.details) >= clusters:
        problems.append("nothing was cut")
    if "_Left out to keep this report under" not in md:
        problems.append("the cut is not said")
elif len(p.details) != clusters:
    problems.append("%d details for %d clusters" % (len(p.details), clusters))
if "</details>" in md and md.rfind("</details>") > md.rstrip().rfind("\n"):
    problems.append("the closing advice is not after the details")
last = md.rstrip("\n").rsplit("\n", 1)[-1]
if clusters and not re.match(r"(Apply|Cannot apply|No common|No instant)", last):
    problems.append("the closing advice is not last: %r" % last[:120])
for problem in problems:
    print(problem)
print("%d clusters, %d findings, %d bytes, %d details, %d links" %
      (clusters, findings, len(raw), len(p.details), len(p.links)))
sys.exit(1 if problems else 0)
EOF

at=--at=2026-12-05T12:00:00Z
render one-cluster whole --no-config "$at" fixtures/example-plan.json
render several-clusters whole --at=2026-12-02T12:00:00Z \
    --config fixtures/config/apply-windows-meet.ndplint.json \
    fixtures/modules-count-foreach.json
render whatif whole --no-config "$at" fixtures/whatif-rest-pools-window.json
render clean whole --no-config "$at" fixtures/allow-negative.json
render waived whole "$at" --config fixtures/config/waivers.ndplint.json \
    fixtures/state-plan.json

# 400 frozen clusters with long ids, each with its findings: more detail
# than a comment holds.
"$python" tests/scripts/gen_many_frozen.py . 400 60 "$tmp/huge-plan.json" ||
    exit 1
render huge cut --no-config "$at" "$tmp/huge-plan.json"

echo "markdown_render: $n reports, $failed failed"
[ "$failed" = 0 ] && [ "$n" -gt 0 ]
