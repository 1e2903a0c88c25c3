#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The lists of names written by hand, against the tables of the program.

'NDPLINT --list-names' prints the reader, reporter and verdict tables
('input NAME', 'report NAME', 'verdict NAME'); '--list-rules' the
categories.  The program's own lists (--help, its messages, the tests and
scripts that run every format) are made from those tables; the lists
below cannot be, and each must name exactly what the tables say:

    the input formats   the three completions, ndplint.1 and
                        docs/options.md (--input-format), docs/formats.md
                        (inputs[].format)
    the report formats  the three completions, ndplint.1 and
                        docs/options.md (--format), docs/formats.md (a
                        '### NAME' heading each under "Output formats"),
                        README.md; action.yml's 'format' names only
                        report formats
    the formats whose   ndplint.1 and docs/options.md (--source-root): the
    paths --source-root formats whose report changes when it changes, run
    makes relative      with a located what-if result
    the verdicts that   the three completions (--explain): every verdict
    are not categories  that no rule file's category shares a name with,
                        each one --explain explains

Each list is found by the text around it; a list that cannot be found is a
problem too, so that a document rewritten elsewhere fails here instead of
passing unchecked.  --help's lists of --format and --input-format values
must be the tables' too.

    usage: name_lists.py NDPLINT SOURCE_DIR

Exit status 0 when every list agrees, 1 otherwise (each problem on one
line).  A program that lists nothing (a stand-in such as /bin/true) is a
failure, never a pass.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doccheck  # noqa: E402  (its reading of --help)

# A what-if result whose findings are located in a template, so that
# every format that writes a path writes one, and the instant it is
# judged at.
PATHS_RUN = ["--at", "2026-12-05T12:00:00Z", "--template",
             "fixtures/bicep/main.bicep", "fixtures/whatif-network-policy.json"]

problems = []


def problem(text):
    problems.append(text)
    print(f"name lists: {text}")


def run(ndplint, *args, cwd=None):
    try:
        return subprocess.run([ndplint, *args], capture_output=True,
                              text=True, timeout=120, cwd=cwd)
    except OSError as e:
        problem(f"cannot run '{ndplint}': {e}")
        return None


def tables(ndplint):
    """{'input': [...], 'report': [...], 'verdict': [...]}"""
    out = {"input": [], "report": [], "verdict": []}
    done = run(ndplint, "--list-names")
    if done is None:
        return out
    if done.returncode != 0:
        problem(f"'{ndplint} --list-names' exited {done.returncode}")
    for line in done.stdout.splitlines():
        kind, _, name = line.partition(" ")
        if kind in out and name:
            out[kind].append(name)
    for kind, names in out.items():
        if not names:
            problem(f"'{ndplint} --list-names' lists no {kind}")
    return out


def categories(ndplint):
    done = run(ndplint, "--list-rules")
    if done is None:
        return set()
    cats = {line.split()[1] for line in done.stdout.splitlines()[1:]
            if len(line.split()) > 1}
    if done.returncode != 0 or not cats:
        problem(f"'{ndplint} --list-rules' lists no category")
    return cats


def path_formats(ndplint, src, formats):
    """The formats whose report changes with --source-root."""
    out = []
    for fmt in formats:
        reports = []
        for root in (".", "fixtures"):
            done = run(ndplint, "--format", fmt, "--source-root", root,
                       *PATHS_RUN, cwd=src)
            if done is None or done.returncode not in (0, 1) or \
                    not done.stdout:
                problem(f"--format {fmt} --source-root {root}: exit "
                        f"{done and done.returncode}, no report")
            reports.append(done.stdout if done else "")
        if reports[0] != reports[1]:
            out.append(fmt)
    return out


def same(where, listed, want):
    """'listed' (None: not found) names exactly the names of 'want'."""
    if listed is None:
        problem(f"{where}: list not found")
        return
    dup = sorted({n for n in listed if listed.count(n) > 1})
    if dup:
        problem(f"{where}: names {', '.join(dup)} more than once")
    extra = [n for n in listed if n not in want]
    missing = [n for n in want if n not in listed]
    if extra:
        problem(f"{where}: names {', '.join(extra)}, not in the table")
    if missing:
        problem(f"{where}: lacks {', '.join(missing)}")


def read(src, rel):
    with open(os.path.join(src, rel), encoding="utf-8") as f:
        return f.read()


def words_of(m, group=1):
    return m.group(group).split() if m else None


def completions(src, t, own):
    d = "contrib/completions/"
    bash = read(src, d + "ndplint.bash")
    same(d + "ndplint.bash: formats",
         words_of(re.search(r'^\s*local formats="([^"]*)"', bash, re.M)),
         t["report"])
    same(d + "ndplint.bash: --input-format",
         words_of(re.search(r'--input-format\)\s*\n\s*COMPREPLY=\(\$\('
                            r'compgen -W "([^"]*)"', bash)), t["input"])
    same(d + "ndplint.bash: --explain verdicts",
         words_of(re.search(r'names="\$names ([^"]*)"', bash)), own)
    zsh = read(src, d + "_ndplint")
    same(d + "_ndplint: formats",
         words_of(re.search(r'^\s*formats=\(([^)]*)\)', zsh, re.M)),
         t["report"])
    same(d + "_ndplint: --input-format",
         words_of(re.search(r"'--input-format=\[[^]]*\]:[^:]*:\(([^)]*)\)'",
                            zsh)), t["input"])
    same(d + "_ndplint: --explain verdicts",
         words_of(re.search(r'_ndplint_explain\(\) \{.*?sort -u\)"\}\s*'
                            r'([^)]*)\)', zsh, re.S)), own)
    fish = read(src, d + "ndplint.fish")
    same(d + "ndplint.fish: formats",
         words_of(re.search(r"function __fish_ndplint_formats\b.*?"
                            r"\belse\s*\n\s*printf '%s\\n' ([^\n]*)",
                            fish, re.S)), t["report"])
    same(d + "ndplint.fish: --input-format",
         words_of(re.search(r"-l input-format\b.*?-a '([^']*)'", fish)),
         t["input"])
    same(d + "ndplint.fish: --explain verdicts",
         words_of(re.search(r"function __fish_ndplint_explain\b.*?"
                            r"printf '%s\\n' ([^\n]*)\nend", fish, re.S)),
         own)


def man_item(lines, head):
    """The first list of .Cm names in the OPTIONS item whose .It line
    starts with 'head': '.Cm' lines, with 'or', 'and' and parenthetical
    lines between them, up to the first other line."""
    item, inside = None, False
    for line in lines:
        if line.startswith(".It "):
            if item is not None:
                break
            if line.startswith(head):
                item = []
            continue
        if item is None:
            continue
        m = re.match(r"\.Cm (\S+)", line)
        if m:
            item.append(m.group(1))
            inside = True
        elif inside and not re.fullmatch(r"or|and|\(.*\)[,.]?", line):
            break
        if inside and line.endswith("."):
            break
    return item


def man_page(src, t, paths):
    lines = read(src, "docs/man/ndplint.1").splitlines()
    same("ndplint.1: --format", man_item(lines, ".It Fl f Ar FMT"),
         t["report"])
    same("ndplint.1: --input-format",
         man_item(lines, ".It Fl -input-format"), t["input"])
    same("ndplint.1: --source-root", man_item(lines, ".It Fl -source-root"),
         paths)


def options_row(text, option):
    m = re.search(r"^\| [^|]*`" + re.escape(option) + r"[ `][^|]*\| (.*) \|$",
                  text, re.M)
    return m.group(1) if m else None


def backticked(text):
    return re.findall(r"`([a-z][a-z0-9-]*)`", text) if text is not None \
        else None


def options_md(src, t, paths):
    text = read(src, "docs/options.md")
    row = options_row(text, "--format")
    same("docs/options.md: --format",
         backticked(row.split(";")[0] if row else None), t["report"])
    same("docs/options.md: --input-format",
         backticked(options_row(text, "--input-format")), t["input"])
    row = options_row(text, "--source-root")
    m = re.match(r"(.*?) reports are relative", row or "")
    same("docs/options.md: --source-root",
         backticked(re.sub(r"\([^)]*\)", "", m.group(1)) if m else None),
         paths)


def formats_md(src, t):
    text = read(src, "docs/formats.md")
    m = re.search(r"^## Output formats\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    heads = None
    if m:
        heads = re.findall(r"^### ([a-z][a-z0-9-]*)(?: \(default\))?$",
                           m.group(1), re.M)
    same("docs/formats.md: '### FORMAT' under Output formats", heads,
         t["report"])
    row = re.search(r"^\| `inputs\[\]\.format` \| (.*) \|$", text, re.M)
    same("docs/formats.md: inputs[].format",
         backticked(row.group(1) if row else None), t["input"])


def readme(src, t):
    m = re.search(r"output formats \(([^)]*)\)", read(src, "README.md"))
    same("README.md: output formats",
         [w.strip() for w in m.group(1).split(",")] if m else None,
         t["report"])


def action_yml(src, t):
    m = re.search(r"^  format:\n    description: Report written to the log "
                  r"\((\w+) = [^;]*; or ([^)]*)\)", read(src, "action.yml"),
                  re.M)
    if not m:
        problem("action.yml: the formats of input 'format' not found")
        return
    for name in [m.group(1)] + [w.strip() for w in m.group(2).split(",")]:
        if name not in t["report"]:
            problem(f"action.yml: input 'format' names '{name}', not a "
                    "report format")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    ndplint, src = sys.argv[1], sys.argv[2]
    t = tables(ndplint)
    _, values = doccheck.parse_help(doccheck.run_help(ndplint))
    for option, kind in (("format", "report"), ("input-format", "input")):
        if values.get(option) != t[kind]:
            problem(f"--help lists --{option} {values.get(option)}, "
                    f"--list-names {t[kind]}")
    cats = categories(ndplint)
    own = [v for v in t["verdict"] if v not in cats]
    for v in t["verdict"]:
        done = run(ndplint, "--explain", v)
        if done is not None and (done.returncode != 0 or not done.stdout):
            problem(f"--explain {v}: exit {done.returncode}")
    paths = path_formats(ndplint, src, t["report"])
    if t["report"] and not paths:
        problem("no report changes with --source-root")
    completions(src, t, own)
    man_page(src, t, paths)
    options_md(src, t, paths)
    formats_md(src, t)
    readme(src, t)
    action_yml(src, t)
    print(f"name lists: {len(t['input'])} input formats, "
          f"{len(t['report'])} report formats ({len(paths)} with paths), "
          f"{len(own)} verdicts that are not categories; "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
