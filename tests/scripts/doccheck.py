#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The documentation against the program: options, values, environment,
settings keys and links.  Used by run_manpages.sh and run_completions.sh.

    doccheck.py man NDPLINT SOURCE_DIR
        docs/man/ndplint.1 documents (as '.It Fl ...') every option that
        'NDPLINT --help' prints and names no other option of ndplint (the
        options of other tools it quotes are listed in FOREIGN), gives every
        value of the enumerated options as '.Cm', and lists under
        ENVIRONMENT exactly the variables src/ reads with getenv();
        docs/man/ndplint.json.5 documents every key of .ndplint.json that
        NDPLINT accepts, and no key that it refuses.
    doccheck.py completion KIND FILE NDPLINT
        The completion file names every long option of --help and no other;
        KIND is bash, zsh or fish.  The values of the enumerated options
        appear in it.
    doccheck.py help NDPLINT
        Prints what the other commands read from --help (for the shell
        scripts): 'option LONG SHORT ARG' and 'values LONG V...' lines.
    doccheck.py links SOURCE_DIR
        Every relative link in README.md and docs/*.md names a file that
        exists, and an anchor (#...) a heading or an <a id> of that
        file; README.md has fewer than 300 lines; every category of
        rules/*.json has its anchor in docs/rules.md (where the reports
        link a rule) and an https "source".

Exit status 0 when everything agrees, 1 otherwise (each problem on one
line).  A program that prints no option list (a stand-in such as
/bin/true) is a failure, never a pass.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# Options of other programs that the man page quotes in examples.
FOREIGN = {"no-pretty-print", "cluster-name"}

# Where --help lists the values of an enumerated option: the text between
# these two patterns, split on commas and 'or', parentheses dropped.
ENUMS = {
    "format": (r"report format:", r";"),
    "profile": (r"does not declare one:", r"$"),
    "fail-on": (r"at least this severe:", r"$"),
    "input-format": (r"read inputs as", r"instead"),
    "color": (r"colour the text report:", r"$"),
}

problems = []


def problem(text):
    problems.append(text)
    print(f"doccheck: {text}")


def run_help(ndplint):
    try:
        out = subprocess.run([ndplint, "--help"], capture_output=True,
                             text=True, timeout=60)
    except OSError as e:
        problem(f"cannot run '{ndplint} --help': {e}")
        return None
    if out.returncode != 0:
        problem(f"'{ndplint} --help' exited {out.returncode}")
    return out.stdout


def parse_help(text):
    """{long: (short, has_arg)}, {long: [values]}"""
    options, entries, current = {}, {}, None
    for line in (text or "").splitlines():
        m = re.match(r"^  (?:-(\w), )?\s*--([a-z][a-z0-9-]*)(?: (\S+))?"
                     r"(?:\s+(.*))?$", line)
        if m:
            current = m.group(2)
            options[current] = (m.group(1), m.group(3) is not None)
            entries[current] = m.group(4) or ""
        elif current and re.match(r"^ {20,}\S", line):
            entries[current] += " " + line.strip()
        else:
            current = None
    values = {}
    for name, (start, end) in ENUMS.items():
        m = re.search(start + r"(.*?)" + end, entries.get(name, ""))
        if not m:
            problem(f"--help: no list of values for --{name}")
            continue
        listed = re.sub(r"\([^)]*\)", "", m.group(1))
        values[name] = [v for v in re.split(r",|\bor\b|\s", listed) if v]
    if not options:
        problem("--help printed no option")
    return options, values


def mdoc_flags(line):
    """The flags a line of mdoc names with Fl: ['--format', '-f', ...]."""
    words = line.lstrip(".").split()
    flags = []
    for i, w in enumerate(words):
        if w != "Fl":
            continue
        for arg in words[i + 1:]:
            if re.fullmatch(r"[A-Z][a-z][a-z]?|[,;:.()\[\]|=]+", arg):
                break
            arg = arg.replace("\\-", "-")
            flags.append("-" + arg)
    return flags


def section(lines, name):
    out, inside = [], False
    for line in lines:
        if line.startswith(".Sh "):
            inside = line[4:].strip() == name
        elif inside:
            out.append(line)
    return out


def check_man(ndplint, src):
    options, values = parse_help(run_help(ndplint))
    page = os.path.join(src, "docs", "man", "ndplint.1")
    lines = [l for l in open(page, encoding="utf-8").read().splitlines()
             if not l.startswith('.\\"')]
    documented = set()
    for line in section(lines, "OPTIONS"):
        if line.startswith(".It "):
            documented.update(mdoc_flags(line))
    named = set()
    for line in lines:
        named.update(mdoc_flags(line))
        for m in re.finditer(r"(?:\\-|-){2}([a-z][a-z0-9-]*)", line):
            named.add("--" + m.group(1))
    for name, (short, _) in options.items():
        if "--" + name not in documented:
            problem(f"ndplint.1: --{name} (in --help) has no '.It Fl -{name}'")
        if short and "-" + short not in documented:
            problem(f"ndplint.1: -{short} (in --help) has no '.It Fl {short}'")
    shorts = {"-" + s for s, _ in options.values() if s}
    for flag in sorted(named):
        if flag.startswith("--"):
            if flag[2:] not in options and flag[2:] not in FOREIGN:
                problem(f"ndplint.1 names {flag}, which --help lacks")
        elif flag != "-" and flag not in shorts:
            problem(f"ndplint.1 names {flag}, which --help lacks")
    text = "\n".join(lines)
    for name, vals in values.items():
        for v in vals:
            if not re.search(r"\bCm " + re.escape(v) + r"\b", text):
                problem(f"ndplint.1: value '{v}' of --{name} is not given "
                        "as '.Cm'")
    # ENVIRONMENT: exactly what the program reads.
    read = set()
    for path in glob.glob(os.path.join(src, "src", "**", "*.c"),
                          recursive=True):
        read.update(re.findall(r'getenv\("([A-Za-z_0-9]+)"\)',
                               open(path, encoding="utf-8").read()))
    env = {l.split()[2] for l in section(lines, "ENVIRONMENT")
           if l.startswith(".It Ev ")}
    for v in sorted(read - env):
        problem(f"ndplint.1: ENVIRONMENT lacks {v} (src/ reads it)")
    for v in sorted(env - read):
        problem(f"ndplint.1: ENVIRONMENT names {v}, which src/ never reads")
    if not read:
        problem("src/ reads no environment variable: wrong SOURCE_DIR?")
    check_settings(ndplint, src)
    print(f"doccheck: ndplint.1: {len(options)} options, "
          f"{sum(map(len, values.values()))} values, {len(env)} variables")


def settings_error(ndplint, doc, work):
    """The message NDPLINT gives for settings file 'doc'."""
    path = os.path.join(work, "settings.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    plan = os.path.join(work, "plan.json")
    with open(plan, "w", encoding="utf-8") as f:
        f.write('{"format_version": "1.2", "resource_changes": []}')
    try:
        out = subprocess.run([ndplint, "--config", path, plan],
                             capture_output=True, text=True, timeout=60)
    except OSError as e:
        return -1, str(e)
    return out.returncode, out.stderr


def check_settings(ndplint, src):
    """Every key ndplint.json.5 documents is one the loader knows (it
    answers with a type error, not 'unknown key'), and every key the
    loader knows among the names in src/settings/config.c is documented."""
    page = os.path.join(src, "docs", "man", "ndplint.json.5")
    lines = open(page, encoding="utf-8").read().splitlines()
    where, keys = None, {"": set(), "clusters": set(), "waivers": set(),
                         "severity_overrides": set()}
    for line in section(lines, "DESCRIPTION"):
        if line.startswith(".Ss "):
            where = {"Cluster declarations": "clusters",
                     "Waivers": "waivers",
                     "Severity overrides": "severity_overrides"}.get(
                         line[4:].strip())
        elif where is None and line.startswith(".Bl "):
            where = ""
        elif line.startswith(".It Ic ") and where is not None:
            keys[where].add(line.split()[2])
    if not all(keys.values()):
        problem(f"ndplint.json.5: no key list found in {sorted(keys)}")

    def wrap(where, key):
        if where == "":
            return {key: 12345}
        return {where: [{key: 12345}]}

    def known(where, key, work):
        status, err = settings_error(ndplint, wrap(where, key), work)
        if status != 2:
            problem(f"settings {wrap(where, key)}: exit {status}, want 2")
            return None
        return "unknown key" not in err

    with tempfile.TemporaryDirectory() as work:
        status, err = settings_error(ndplint, {"zzz-not-a-key": 1}, work)
        if status != 2 or "unknown key" not in err:
            problem(f"an unknown settings key gives exit {status}, "
                    f"'{err.strip()}' (want 2 and 'unknown key')")
            return
        for where, names in keys.items():
            for key in sorted(names):
                if known(where, key, work) is False:
                    problem(f"ndplint.json.5 documents "
                            f"{(where + '[].') if where else ''}{key}, "
                            "which the settings loader refuses")
        print("doccheck: ndplint.json.5: " + ", ".join(
            f"{len(v)} keys {'at the top' if not w else 'in ' + w + '[]'}"
            for w, v in keys.items()))
        config_c = os.path.join(src, "src", "settings", "config.c")
        candidates = set(re.findall(r'"([a-z_]+)"',
                                    open(config_c, encoding="utf-8").read()))
        moved = set().union(*keys.values()) - candidates
        if moved:
            problem(f"src/settings/config.c no longer names {sorted(moved)}: the "
                    "search for undocumented keys must look elsewhere")
        for where, names in keys.items():
            for key in sorted(candidates - names):
                if known(where, key, work):
                    problem(f"settings key {(where + '[].') if where else ''}"
                            f"{key} is accepted but not in ndplint.json.5")


def check_completion(kind, path, ndplint):
    options, values = parse_help(run_help(ndplint))
    text = "\n".join(l for l in open(path, encoding="utf-8").read()
                     .splitlines() if not l.lstrip().startswith("#"))
    if kind == "fish":
        named = set(re.findall(r"^complete\b.*?(?:-l|--long-option)\s+"
                               r"([a-z][a-z0-9-]*)", text, re.M))
    else:
        named = set(re.findall(r"--([a-z][a-z0-9-]*)", text))
    for name in sorted(set(options) - named):
        problem(f"{os.path.basename(path)}: --{name} (in --help) missing")
    for name in sorted(named - set(options)):
        problem(f"{os.path.basename(path)}: --{name} is not in --help")
    print(f"doccheck: {os.path.basename(path)}: {len(named)} options")
    for name, vals in values.items():
        for v in vals:
            if not re.search(r"(?<![\w-])" + re.escape(v) + r"(?![\w-])",
                             text):
                problem(f"{os.path.basename(path)}: value '{v}' of --{name}"
                        " missing")


def anchors(path):
    """GitHub's anchors for the headings and <a id> of a Markdown file."""
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if not fence:
            out.update(re.findall(r'<a id="([a-z0-9-]+)"></a>', line))
        m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = m.group(1).strip().lower()
            slug = re.sub(r"[^\w\- ]", "", slug).replace(" ", "-")
            base, n = slug, 1
            while slug in out:
                slug = f"{base}-{n}"
                n += 1
            out.add(slug)
    return out


# The README is read top to bottom by a newcomer; the rest lives in docs/.
README_MAX_LINES = 300


def check_links(src):
    files = [os.path.join(src, "README.md"),
             os.path.join(src, "CONTRIBUTING.md")] + sorted(
        glob.glob(os.path.join(src, "docs", "*.md")))
    checked = 0
    for path in files:
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        text = re.sub(r"`[^`\n]*`", "", text)
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            checked += 1
            file, _, anchor = target.partition("#")
            dest = (os.path.normpath(os.path.join(os.path.dirname(path),
                                                  file)) if file else path)
            name = os.path.relpath(path, src)
            if not os.path.exists(dest):
                problem(f"{name}: link to {target}: no such file")
            elif anchor and dest.endswith(".md") and \
                    anchor not in anchors(dest):
                problem(f"{name}: link to {target}: no such heading")
    if not checked:
        problem("no relative link found in README.md and docs/")
    readme_lines = open(files[0], encoding="utf-8").read().count("\n")
    if readme_lines >= README_MAX_LINES:
        problem(f"README.md: {readme_lines} lines; keep it under "
                f"{README_MAX_LINES} (reference material goes to docs/)")
    check_rule_anchors(src)
    print(f"doccheck: {checked} relative links in {len(files)} files")


def check_rule_anchors(src):
    """The reports link each rule to docs/rules.md#<category>."""
    have = anchors(os.path.join(src, "docs", "rules.md"))
    files = sorted(glob.glob(os.path.join(src, "rules", "*.json")))
    if not files:
        problem("no rule file in rules/")
    for path in files:
        rule_file = json.load(open(path, encoding="utf-8"))
        category = rule_file.get("category", "")
        if category not in have:
            problem(f"docs/rules.md: no anchor for category '{category}'")
        if not str(rule_file.get("source", "")).startswith("https://"):
            problem(f"{os.path.basename(path)}: no https source")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "man" and len(sys.argv) == 4:
        check_man(sys.argv[2], sys.argv[3])
    elif cmd == "completion" and len(sys.argv) == 5:
        check_completion(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "help" and len(sys.argv) == 3:
        options, values = parse_help(run_help(sys.argv[2]))
        for name, (short, arg) in options.items():
            print(f"option {name} {short or '-'} {int(arg)}")
        for name, vals in values.items():
            print(f"values {name} {' '.join(vals)}")
    elif cmd == "links" and len(sys.argv) == 3:
        check_links(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
