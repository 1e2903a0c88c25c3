#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Hostile text through every output, checked by the programs that read it:
# every report (each format 'NDPLINT --list-names' lists) of every
# fixtures/hostile/ input, and of a plan whose file
# name holds invalid UTF-8, ESC and a newline, must be valid UTF-8 (Python's
# strict decoder); JSON, SARIF and GitLab must load with Python's json (GitLab's
# issues with every field GitLab requires); JUnit must
# be well-formed and valid against tests/junit/junit.xsd (xmllint); every
# line of every report and of standard error holds to the command rule (no
# '::' after a leading run of white space and ignorable characters, no
# '##[' or '##vso[' across ignorable characters, but the github and azure
# formats' own commands at column 0); the text report and standard error
# must have no control character but the line feed; every line of
# standard error starts "ndplint: ".  Each run must exit 0, 1 or 2 as
# expected and write a report.  Markdown (the report and the step summary)
# rendered by cmark-gfm with GFM's autolink and table extensions (Debian:
# cmark-gfm; that check alone is skipped without it) has no link, image or
# HTML from the input, and stays within GitHub's limits however long the
# input's names are.
#   usage: run_hostile_outputs.sh NDPLINT SOURCE_DIR PYTHON3
set -u
ndplint=$1 src=$2 python=$3
for tool in xmllint "$python"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "hostile: $tool is not installed: skipped"
        exit 77
    fi
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
n=0 failed=0
formats=$("$ndplint" --list-names | sed -n 's/^report //p')
if [ -z "$formats" ]; then
    echo "hostile: '$ndplint --list-names' lists no report format"
    exit 1
fi

bad() {
    failed=$((failed + 1))
    echo "hostile: $*"
}

# check.py FORMAT REPORT ERR: the consumers' checks, in one interpreter.
cat > "$tmp/check.py" <<'EOF'
import json, re, sys, unicodedata
fmt, report, err = sys.argv[1:4]
problems = []

# The command rule (docs/hostile-input.md), written out apart from
# src/util/safe.c: after a leading run of Unicode White_Space and
# characters a culture-sensitive comparison ignores, no line starts with
# '::'; no line holds '##[' or '##vso[' (any case) with such characters
# between their letters; the only commands are ndplint's own, at column 0.
WHITE = set(map(chr, [*range(9, 14), 0x20, 0x85, 0xa0, 0x1680,
                      *range(0x2000, 0x200b), 0x2028, 0x2029, 0x202f,
                      0x205f, 0x3000]))
IGNORABLE = [(0xad, 0xad), (0x34f, 0x34f), (0x61c, 0x61c), (0x115f, 0x1160),
             (0x17b4, 0x17b5), (0x180b, 0x180f), (0x200b, 0x200f),
             (0x202a, 0x202e), (0x2060, 0x206f), (0x3164, 0x3164),
             (0xfe00, 0xfe0f), (0xfeff, 0xfeff), (0xffa0, 0xffa0),
             (0xfff0, 0xfff8), (0x1bca0, 0x1bca3), (0x1d173, 0x1d17a),
             (0xe0000, 0xe0fff)]
OWN = {"github": ("::error ", "::warning ", "::notice ", "::group::",
                  "::endgroup::"),
       "azure": ("##vso[task.logissue ", "##vso[task.complete ")}

def ignorable(c):
    return unicodedata.category(c) in ("Cc", "Cf") or \
        any(a <= ord(c) <= b for a, b in IGNORABLE)

def skip(line, i, white):
    while i < len(line) and (ignorable(line[i]) or white and line[i] in WHITE):
        i += 1
    return i

def marker(line, i, letters):
    for k, ch in enumerate(letters):
        if k:
            i = skip(line, i, False)
        if i >= len(line) or line[i].lower() != ch:
            return False
        i += 1
    return True

def embedded_link(text):
    """A SARIF 2.1.0 3.11.6 embedded link in a plain text message: an
    unescaped '[', link text, an unescaped ']' and '('."""
    i, start = 0, None
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "\\[]":
            i += 2
            continue
        if text[i] == "[":
            start = i
        elif text[i] == "]" and start is not None and text[i + 1:i + 2] == "(":
            return True
        i += 1
    return False

def forged(line, own):
    start = next((len(p) for p in own if line.startswith(p)), None)
    if start is None:
        start = 0
        if marker(line, skip(line, 0, True), "::"):
            return True
    return any(line[i] == "#" and (marker(line, i, "##[") or
                                   marker(line, i, "##vso["))
               for i in range(start, len(line)))
for name in (report, err):
    data = open(name, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append("%s is not UTF-8: %s" % (name, e))
        continue
    own = OWN.get(fmt, ()) if name == report else ()
    for line in re.split("[\r\n]", text):
        if forged(line, own):
            problems.append("command in %r" % line[:120])
    log = name == err or fmt in ("text", "error")
    for line in text.split("\n") if log else []:
        if re.search("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f\u2028\u2029"
                     "\u202a-\u202e\u2066-\u2069]", line):
            problems.append("control character in %r" % line[:120])
        if line.startswith("::") or "##[" in line:
            problems.append("workflow command in %r" % line[:120])
        if (name == err or fmt == "error") and line and \
                not line.startswith("ndplint: "):
            problems.append("stderr line %r" % line[:120])
    # Azure Pipelines: each line one command of ours or a line of ours; the
    # agent honours "##vso[" anywhere in a line and "##[" at its start.
    for line in text.split("\n") if name == report and fmt == "azure" else []:
        if re.search("[\x00-\x09\x0b-\x1f\x7f]", line):
            problems.append("control character in %r" % line[:120])
        if line and not re.match(r"(##vso\[task\.(logissue|complete) |"
                                 r"ndplint: )", line):
            problems.append("azure line %r" % line[:120])
        if line.count("##vso[") > 1 or "##[" in line or \
                line.startswith("ndplint: ") and "##vso[" in line:
            problems.append("azure logging command in %r" % line[:120])
    if name == report and fmt in ("json", "sarif", "gitlab"):
        try:
            doc = json.loads(text)
        except ValueError as e:
            problems.append("%s is not JSON: %s" % (name, e))
            continue
        for result in doc["runs"][0]["results"] if fmt == "sarif" else []:
            if embedded_link(result["message"]["text"]):
                problems.append("SARIF link in %r" %
                                result["message"]["text"][:120])
        for issue in doc if fmt == "gitlab" else []:
            loc = issue.get("location", {})
            if not all(isinstance(issue.get(k), str) and issue[k]
                       for k in ("description", "check_name", "fingerprint")) \
                    or issue.get("severity") not in ("info", "minor", "major",
                                                     "critical", "blocker") \
                    or not isinstance(loc.get("path"), str) \
                    or not isinstance(loc.get("lines", {}).get("begin"), int):
                problems.append("gitlab issue %r" % str(issue)[:120])
if fmt == "error":
    pass
elif open(report, "rb").read() == b"":
    problems.append("no report")
print("\n".join(problems))
sys.exit(1 if problems else 0)
EOF

# run EXPECTED_EXIT FORMAT ARGS... (sh has no locals: names start with r)
run() {
    want=$1 rfmt=$2
    shift 2
    n=$((n + 1))
    "$ndplint" --at 2026-12-05T12:00:00Z --format "$rfmt" "$@" \
        > "$tmp/report" 2> "$tmp/err"
    got=$?
    if [ "$got" != "$want" ]; then
        bad "exit $got, not $want: --format $rfmt $*"
        return
    fi
    if [ "$want" = 2 ]; then
        # No report, and a message on standard error.
        [ -s "$tmp/report" ] && bad "--format $rfmt $*: a report"
        [ -s "$tmp/err" ] || bad "--format $rfmt $*: no message"
        cp "$tmp/err" "$tmp/report"
        rfmt=error
    fi
    "$python" "$tmp/check.py" "$rfmt" "$tmp/report" "$tmp/err" \
        > "$tmp/log" 2>&1 || bad "--format $rfmt $*: $(cat "$tmp/log")"
    if [ "$rfmt" = junit ] && [ "$want" != 2 ] &&
       ! xmllint --noout --schema tests/junit/junit.xsd "$tmp/report" \
            > "$tmp/log" 2>&1; then
        bad "--format junit $*: $(cat "$tmp/log")"
    fi
}

nl='
'
bytes=$(printf '\377\355\240\200\033[2J##[error]')
weird="$tmp/plan-$bytes${nl}::error::x.json"
cp fixtures/hostile/plan-invalid-utf8.json "$weird" || exit 1
for fmt in $formats; do
    run 1 "$fmt" "$weird"
    run 1 "$fmt" --cluster-state fixtures/hostile/state-id.json \
        fixtures/example-plan.json
    run 2 "$fmt" "$weird.missing"
    for input in fixtures/hostile/plan-*.json fixtures/hostile/whatif-*.json
    do
        case $input in
        *invalid-utf8* | *autolink* | *newline-address* | *command-* | \
        *references* | *summary-html*)
            run 1 "$fmt" "$input" ;;
        *) run 2 "$fmt" "$input" ;;
        esac
    done
    run 2 "$fmt" --config fixtures/hostile/config-unknown-key.json \
        fixtures/example-plan.json
    # A severity override's reason, printed beside the finding and as the
    # suppression of one turned off.
    run 0 "$fmt" --config fixtures/hostile/config-override-reason.json \
        --show-suppressed fixtures/example-plan.json
    # Inline ignore reasons read from the source files.
    run 0 "$fmt" --source-root fixtures/hostile/ignore-repo \
        --show-suppressed fixtures/hostile/ignore-repo/plan.json
    run 2 "$fmt" --cluster-state fixtures/hostile/state-policy.json \
        fixtures/example-plan.json
    # A pod disruption budget whose name and namespace hold escapes, HTML,
    # a pipe, a mention, a link, CR LF and a workflow command: the drain
    # findings name it, and so does the impact.
    run 1 "$fmt" --cluster-state fixtures/hostile/kubectl-hostile-names.json \
        fixtures/whatif-pool-upgrade.json
done
# File names that start a line of the text report with '::', after
# nothing, after U+3000 IDEOGRAPHIC SPACE, and after spaces and a soft
# hyphen.
for name in "::error file=a,line=1::x" "$(printf '\343\200\200')::error::x" \
    "  $(printf '\302\255'):$(printf '\342\200\213'):warning::x"; do
    n=$((n + 1))
    cp fixtures/hostile/plan-invalid-utf8.json "$tmp/$name"
    (cd "$tmp" && "$ndplint" --at 2026-12-05T12:00:00Z -- "$name" \
        > report 2> err)
    [ $? = 1 ] || bad "text: exit status with the file name '$name'"
    "$python" "$tmp/check.py" text "$tmp/report" "$tmp/err" > "$tmp/log" 2>&1 ||
        bad "text with the file name '$name': $(cat "$tmp/log")"
    rm -f "$tmp/$name"
done
# Every mode but the reports: --quiet, --window-check, --explain and
# --list-rules of a rule directory, --check-config.
for mode in --quiet --window-check \
    "--rules fixtures/hostile/rules-whitespace --explain NDP115" \
    "--rules fixtures/hostile/rules-whitespace --list-rules" \
    "--check-config fixtures/hostile/config-check-waiver.json"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$ndplint" --at 2026-12-05T12:00:00Z $mode \
        fixtures/hostile/whatif-command-whitespace.json > "$tmp/report" \
        2> "$tmp/err"
    [ -s "$tmp/report" ] || bad "$mode: no output"
    "$python" "$tmp/check.py" text "$tmp/report" "$tmp/err" > "$tmp/log" 2>&1 ||
        bad "$mode: $(cat "$tmp/log")"
done

# refs.py HTML: GitHub's reference patterns, which github.com links after
# rendering (cmark-gfm does not), in the text outside code spans.
cat > "$tmp/refs.py" <<'EOF'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
page = re.sub(r"(?s)<(code|pre)>.*?</\1>", " ", page)
text = html.unescape(re.sub(r"<[^>]*>", " ", page))
SHA = r"[0-9a-f]{7,40}"
PATTERNS = {
    "issue": r"(?<![\w/])#\d+\b",
    "GH- issue": r"(?i)\bGH-\d+\b",
    "issue in another repository": r"\b[\w.-]+/[\w.-]+#\d+\b",
    "user's commit": r"(?i)\b[\w-]+@" + SHA + r"\b",
    "commit in another repository": r"(?i)\b[\w.-]+/[\w.-]+@" + SHA + r"\b",
    "commit": r"(?i)\b" + SHA + r"\b",
    "mention": r"(?<![\w`])@[A-Za-z0-9][A-Za-z0-9-]*",
}
found = [(name, m.group(0)) for name, p in PATTERNS.items()
         for m in re.finditer(p, text)]
for name, what in found:
    print("%s reference %r" % (name, what))
sys.exit(1 if found else 0)
EOF

# no_links FILE WHAT: the Markdown in FILE, rendered, links nowhere but to
# ndplint's own pages (a rule's section of docs/rules.md, the Microsoft
# page its category comes from, both written by ndplint, never from the
# input) and holds no reference GitHub would link.
no_links() {
    n=$((n + 1))
    if ! command -v cmark-gfm >/dev/null 2>&1; then
        echo "hostile: cmark-gfm is not installed: rendering not checked"
        return
    fi
    [ -s "$1" ] || { bad "$1: empty"; return; }
    # --unsafe: raw HTML (the <details> and <summary> ndplint writes) is
    # rendered, as GitHub does, so that any tag the input made shows.
    cmark-gfm --unsafe -e autolink -e table "$1" > "$tmp/html" ||
        bad "cmark-gfm $1"
    if grep -Eio '</?[a-z][a-z0-9]*' "$tmp/html" | tr -d '</' | sort -u |
        grep -Evx 'a|br|code|details|em|h3|li|p|strong|summary|table|tbody|td|th|thead|tr|ul'
    then
        bad "an element ndplint does not write in the rendered $2"
    fi
    own='^<a href="(https://github\.com/ndplint/ndplint/blob/main/docs/rules\.md#[a-z0-9-]+|https://learn\.microsoft\.com/azure/aks/[a-z0-9-]+)"$'
    if grep -Eio '<(a|img|script)[ >][^>]*' "$tmp/html" | grep -Ev "$own"
    then
        bad "a link, image or tag in the rendered $2"
    fi
    "$python" "$tmp/refs.py" "$tmp/html" > "$tmp/log" 2>&1 ||
        bad "the rendered $2: $(cat "$tmp/log")"
}

# at_most BYTES FILE WHAT
at_most() {
    n=$((n + 1))
    size=$(wc -c < "$2")
    [ "$size" -gt 0 ] && [ "$size" -le "$1" ] ||
        bad "$3 is $size bytes, not 1..$1"
}

# rendered INPUT WHAT: the markdown report and the step summary of INPUT
# (which has findings) link nowhere.
rendered() {
    run 1 markdown "$1"
    no_links "$tmp/report" "markdown report$2"
    : > "$tmp/summary"
    GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" --at 2026-12-05T12:00:00Z \
        --format github "$1" > /dev/null
    [ $? = 1 ] || bad "github: exit status"
    no_links "$tmp/summary" "step summary$2"
}
rendered fixtures/hostile/plan-autolink.json ""
# GitHub's references (#1, GH-3, owner/repo#2, user@sha, owner/repo@sha, a
# bare SHA) in prose, in names and in the closing sentence.
rendered fixtures/hostile/plan-references.json " of references"
# Names in the <summary> of a <details>, raw HTML where no backslash
# escapes: written with character references.
rendered fixtures/hostile/plan-summary-html.json " of HTML in a summary"

# A 2 MiB cluster address, and 100 inputs with 200-byte names.
"$python" -c '
import sys
b = open("fixtures/example-plan.json", "rb").read()
b = b.replace(b"azurerm_kubernetes_cluster.main",
              b"azurerm_kubernetes_cluster.main[\\\"https://" +
              b"A" * (2 << 20) + b"\\\"]")
open(sys.argv[1], "wb").write(b)
' "$tmp/big.json" || exit 1
: > "$tmp/summary"
GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" --at 2026-12-05T12:00:00Z \
    --format github "$tmp/big.json" > /dev/null
[ $? = 1 ] || bad "github: exit status on a long address"
at_most 1000000 "$tmp/summary" "the step summary of a 2 MiB address"
no_links "$tmp/summary" "step summary of a 2 MiB address"
"$ndplint" --at 2026-12-05T12:00:00Z --format markdown "$tmp/big.json" \
    > "$tmp/report"
at_most 65536 "$tmp/report" "the markdown report of a 2 MiB address"
# The closing sentence: whole in the step summary while there is room
# (it was cut at 512 bytes, mid-name, without its advice), and with 300
# clusters of 200-byte names in the 60 KB report, naming those that fit,
# counting the others and keeping its advice.
advice="with 'az aks update --node-disruption-policy Allow', then restore it"
: > "$tmp/summary"
GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" --at 2026-12-05T12:00:00Z \
    --format github fixtures/whatif-many-frozen.json > /dev/null
n=$((n + 1))
tail -n 1 "$tmp/summary" | grep -q "production-07\` are frozen (.*$advice\$" ||
    bad "the step summary's closing sentence: $(tail -c 300 "$tmp/summary")"
"$python" tests/scripts/gen_many_frozen.py . 300 40 "$tmp/many-frozen.json" ||
    exit 1
"$ndplint" --at 2026-12-05T12:00:00Z --format markdown "$tmp/many-frozen.json" \
    > "$tmp/report"
at_most 65536 "$tmp/report" "the markdown report of 300 frozen clusters"
n=$((n + 1))
tail -n 1 "$tmp/report" | grep -q "and [0-9]* more clusters are frozen (.*$advice\$" ||
    bad "300 frozen clusters: $(tail -c 300 "$tmp/report")"
set --
long=$(printf '%0200d' 0)
mkdir "$tmp/many" || exit 1
for i in $(seq 100); do
    cp fixtures/example-plan.json "$tmp/many/$i-$long.json"
    set -- "$@" "$tmp/many/$i-$long.json"
done
"$ndplint" --at 2026-12-05T12:00:00Z --format markdown "$@" > "$tmp/report"
at_most 65536 "$tmp/report" "the markdown report of 100 long-named inputs"
grep -q ', and [0-9]* more' "$tmp/report" || bad "100 inputs: none left out"

echo "hostile: $n runs, $failed failed"
[ "$failed" = 0 ] && [ "$n" -gt 0 ]
