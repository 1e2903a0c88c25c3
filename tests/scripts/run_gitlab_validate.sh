#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every golden GitLab report, and the GitLab report of every fixture (the
# hostile ones too), is valid against tests/gitlab/codequality.schema.json
# (GitLab's documented Code Quality format), checked with Python's
# jsonschema (Debian: python3-jsonschema); each fingerprint is 64 hex
# digits and unique in its report, since GitLab tells issues apart by it.
# The schema itself must refuse what GitLab refuses.
#   usage: run_gitlab_validate.sh NDPLINT SOURCE_DIR PYTHON3
set -u
ndplint=$1 src=$2 python=$3
if ! "$python" -c 'import jsonschema' >/dev/null 2>&1; then
    echo "gitlab: python3-jsonschema is not installed" \
         "(apt-get install python3-jsonschema): skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
n=0 failed=0
for case_dir in tests/golden/*; do
    grep -qx 'gitlab' "$case_dir/args" 2>/dev/null || continue
    n=$((n + 1))
    cp "$case_dir/expected.out" "$tmp/$n.json"
done
for fixture in fixtures/*.json fixtures/hostile/*.json; do
    for fail_on in error note; do
        n=$((n + 1))
        "$ndplint" --at 2026-12-05T12:00:00Z --fail-on "$fail_on" \
            --format gitlab "$fixture" > "$tmp/$n.json" 2> /dev/null
        status=$?
        if [ "$status" -gt 1 ]; then
            # Refused input: no report, which is not ours to check.
            [ -s "$tmp/$n.json" ] && {
                echo "gitlab: a report with exit $status: $fixture"
                failed=$((failed + 1))
            }
            rm -f "$tmp/$n.json"
        fi
    done
done
n=$((n + 1))
"$ndplint" --at 2026-12-05T12:00:00Z --source-root fixtures/tfrepo \
    --format gitlab fixtures/tfrepo/plan.json > "$tmp/$n.json"
[ $? -le 1 ] || { echo "gitlab: tfrepo run failed"; failed=$((failed + 1)); }

"$python" - "$src/tests/gitlab/codequality.schema.json" "$tmp" <<'PY' ||
import glob, json, re, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
bad = 0
good = {"description": "d", "check_name": "NDP101", "fingerprint": "f",
        "severity": "major",
        "location": {"path": "a.json", "lines": {"begin": 1}}}
refused = [dict(good, severity="error"), dict(good, location={"path": "a"}),
           {k: good[k] for k in good if k != "check_name"},
           dict(good, location={"path": "a", "lines": {"begin": "1"}})]
for doc in refused:
    if v.is_valid([doc]):
        print("gitlab: the schema accepts %r" % doc)
        bad += 1
files = sorted(glob.glob(sys.argv[2] + "/*.json"))
for name in files:
    try:
        doc = json.loads(open(name, "rb").read().decode("utf-8"))
    except ValueError as e:
        print("gitlab: %s is not UTF-8 JSON: %s" % (name, e))
        bad += 1
        continue
    errors = list(v.iter_errors(doc))
    for e in errors[:3]:
        print("gitlab: %s: %s at %s" % (name, e.message, list(e.path)))
    prints = [i.get("fingerprint") for i in doc if isinstance(i, dict)]
    if any(not re.fullmatch("[0-9a-f]{64}", str(p)) for p in prints) or \
            len(set(prints)) != len(prints):
        print("gitlab: %s: fingerprints not unique 64-hex" % name)
        errors.append(name)
    bad += bool(errors)
print("gitlab: %d reports checked, %d failed" % (len(files), bad))
sys.exit(1 if bad else 0)
PY
    failed=$((failed + 1))
[ "$failed" = 0 ]
