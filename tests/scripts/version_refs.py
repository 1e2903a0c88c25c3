#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The release the documents tell users to pin is the one the source
is: every 'vX.Y.Z' in the README, docs/*.md, the GitHub Action and its
example workflow and the pre-commit hook definitions
(`uses: ndplint/ndplint@v0.1.0`, `rev: v0.1.0`, `--branch v0.1.0`) is
'v' + the version of CMakeLists.txt project(), and CHANGELOG.md has a
'## X.Y.Z' section for that version.  ci/release.sh runs this check
before it tags.
  usage: version_refs.py SOURCE_DIR | --selftest
Exit 0 when all of it holds, 1 with one line per problem.
"""
import argparse
import glob
import os
import re
import sys

PROJECT = re.compile(r"project\(\s*ndplint\s+VERSION\s+(\d+\.\d+\.\d+)\b")
REFERENCE = re.compile(r"(?<![\w.])v(\d+\.\d+\.\d+)(?![\w.]|\.\d)")
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "docs/*.md", "docs/examples/*",
             "action.yml", ".pre-commit-hooks.yaml")
# Pictures among the examples (a screenshot of a report) hold no text.
PICTURES = (".png",)
# 'vX.Y.Z' of other projects that a document may quote, as
# (file, text containing the reference); none today.
FOREIGN = ()


def project_version(root):
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        match = PROJECT.search(f.read())
    return match.group(1) if match else None


def documents(root):
    for pattern in DOCUMENTS:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if os.path.isfile(path) and not path.endswith(PICTURES):
                yield os.path.relpath(path, root)


def is_foreign(rel, line):
    return any(rel == f and text in line for f, text in FOREIGN)


def reference_problems(root, version):
    """Yields (problem or None) per reference; None for a good one."""
    for rel in documents(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for match in REFERENCE.finditer(line):
                    if is_foreign(rel, line):
                        continue
                    if match.group(1) == version:
                        yield None
                    else:
                        yield (f"{rel}:{number}: 'v{match.group(1)}' is not "
                               f"the version of CMakeLists.txt, {version}")


def changelog_problems(root, version):
    path = os.path.join(root, "CHANGELOG.md")
    if not os.path.isfile(path):
        return ["CHANGELOG.md: missing"]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not re.search(rf"^## \[?{re.escape(version)}\]?(\s|$)", text, re.M):
        return [f"CHANGELOG.md: no '## {version}' section"]
    return []


def check(root):
    version = project_version(root)
    if version is None:
        return ["CMakeLists.txt: no project(ndplint VERSION X.Y.Z)"]
    results = list(reference_problems(root, version))
    problems = [p for p in results if p is not None]
    if not results:
        problems.append("no 'vX.Y.Z' reference found: the check reads nothing")
    return problems + changelog_problems(root, version)


def selftest():
    """The check can fail: a tree whose README pins another version, and
    one whose CHANGELOG lacks the section."""
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        files = {
            "CMakeLists.txt": "project(ndplint VERSION 1.2.3 LANGUAGES C)\n",
            "README.md": "uses: ndplint/ndplint@v1.2.3\n",
            "docs/ci.md": "    rev: v1.2.3\n",
            "CHANGELOG.md": "# Changelog\n\n## 1.2.3\n\n- first\n",
        }
        base = os.path.join(tmp, "base")
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(base, rel)), exist_ok=True)
            with open(os.path.join(base, rel), "w", encoding="utf-8") as f:
                f.write(text)
        cases = [("clean", {}, []),
                 ("stale rev", {"docs/ci.md": "    rev: v1.2.2\n"},
                  ["docs/ci.md:1: 'v1.2.2'"]),
                 ("no section", {"CHANGELOG.md": "## 1.2.2\n"},
                  ["CHANGELOG.md: no '## 1.2.3'"]),
                 ("no reference", {"README.md": "x\n", "docs/ci.md": "y\n"},
                  ["no 'vX.Y.Z' reference"])]
        for number, (name, changes, expected) in enumerate(cases):
            case = os.path.join(tmp, str(number))
            shutil.copytree(base, case)
            for rel, text in changes.items():
                with open(os.path.join(case, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            got = check(case)
            if len(got) != len(expected) or not all(
                    g.startswith(e) for g, e in zip(got, expected)):
                print(f"version_refs selftest '{name}': got {got}, "
                      f"want {expected}")
                return 1
    return 0


def main(argv):
    parser = argparse.ArgumentParser(
        description="Check that the documents pin project()'s version.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("source_dir", nargs="?", help="the source tree")
    group.add_argument("--selftest", action="store_true",
                       help="prove that the check can fail")
    args = parser.parse_args(argv[1:])
    if args.selftest:
        return selftest()
    problems = check(args.source_dir)
    for problem in problems:
        print(f"version_refs: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
