#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every source file of the project names its licence: an SPDX line
('SPDX-License-Identifier: Apache-2.0', the licence of LICENSE) in its
top comment, within its first five lines.

Source files are the code, scripts, build files, completions, man pages
and hook definitions under the directories below; test data (fixtures,
golden cases, fuzz corpora, JSON, schemas, tables) is not source.
  usage: spdx_check.py SOURCE_DIR | --selftest
Exit 0 when every source file has the line, 1 with one line per file that
lacks it.
"""
import os
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0"
ROOTS = ("src", "tests", "ci", "bench", "cmake", "contrib/completions",
         "docs/man", "docs/examples")
TOP_FILES = ("CMakeLists.txt", ".pre-commit-hooks.yaml", "action.yml")
SOURCE_SUFFIXES = (".c", ".h", ".sh", ".py", ".yml", ".yaml", ".bash",
                   ".fish", ".1", ".5", ".cmake")
SOURCE_NAMES = ("CMakeLists.txt", "_ndplint")
SKIP_DIRS = ("tests/golden", "tests/fuzz/corpus")


def is_source(rel):
    name = os.path.basename(rel)
    return name in SOURCE_NAMES or name.endswith(SOURCE_SUFFIXES)


def source_files(root):
    for top in TOP_FILES:
        if os.path.isfile(os.path.join(root, top)):
            yield top
    for sub in ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, sub)):
            rel_dir = os.path.relpath(dirpath, root)
            dirnames[:] = sorted(
                d for d in dirnames
                if d != "__pycache__"
                and os.path.join(rel_dir, d) not in SKIP_DIRS)
            for name in sorted(filenames):
                rel = os.path.join(rel_dir, name)
                if is_source(rel):
                    yield rel


def has_spdx(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        head = [f.readline() for _ in range(5)]
    return any(SPDX in line for line in head)


def selftest():
    """The check can fail: a generated tree with one file lacking the line."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "src"))
        good = os.path.join(tmp, "src", "good.c")
        bad = os.path.join(tmp, "src", "bad.sh")
        with open(good, "w") as f:
            f.write("/*\n * " + SPDX + "\n */\n")
        with open(bad, "w") as f:
            f.write("#!/bin/sh\n# no licence line\n")
        run = [sys.executable, __file__, tmp]
        out = subprocess.run(run, capture_output=True, text=True)
        if out.returncode != 1 or "src/bad.sh" not in out.stdout \
                or "good.c" in out.stdout:
            print(f"spdx selftest: missing line not reported: {out}")
            return 1
        with open(bad, "w") as f:
            f.write("#!/bin/sh\n# " + SPDX + "\n")
        out = subprocess.run(run, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"spdx selftest: clean tree refused: {out}")
            return 1
    return 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) != 2:
        print("usage: spdx_check.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = argv[1]
    missing = checked = 0
    for rel in source_files(root):
        checked += 1
        if not has_spdx(os.path.join(root, rel)):
            print(f"spdx: {rel}: no '{SPDX}' line in its top comment")
            missing += 1
    if checked == 0:
        print(f"spdx: no source files under {root}")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
