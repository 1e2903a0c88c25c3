#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The map of the source tree against the tree.

    source_map.py SOURCE_DIR

  1. Every file under src/ (.c, .h, .in) is named in docs/development.md,
     whose source tree section is the map a newcomer reads: by its name
     (a header may go by its .c file's stem, "change.[ch]" or
     "change.c" naming change.h too).
  2. Every file the map names (a word such as "linker.c" in the sections
     of the source tree that begin "src/") exists under src/ (a generated
     header, as its .in template).
  3. Every path under src/ that the documents and scripts name
     (README.md, CONTRIBUTING.md, docs/*.md, ci/*.sh, .ci/run,
     tests/CMakeLists.txt, CMakeLists.txt) exists, so that none points
     at a file since moved or removed.  A path with a wildcard or a
     placeholder ("src/<dir>/", "src/report/report_<format>.c") is a
     pattern, not a path, and is left alone.

Exit 0 when the map and the tree agree, 1 otherwise (each problem on one
line), 2 on a usage error.
"""
import glob
import os
import re
import sys

DOCS = ["README.md", "CONTRIBUTING.md", "CMakeLists.txt",
        os.path.join("tests", "CMakeLists.txt"), os.path.join(".ci", "run")]
PATH = re.compile(r"(?<![\w/.$-])src/[A-Za-z0-9_./\[\]<>*-]*[A-Za-z0-9_\]>*/]")
# A placeholder in a name: report_<format>.c, input_NAME.c.
PLACEHOLDER = re.compile(r"<[a-z_]+>|(?<![a-z])[A-Z]{3,}(?![a-z])")


def source_files(source):
    out = []
    for root, _dirs, files in os.walk(os.path.join(source, "src")):
        for name in files:
            if name.endswith((".c", ".h", ".in")):
                out.append(os.path.relpath(os.path.join(root, name), source))
    return sorted(out)


def patterns(text):
    """The names with a placeholder 'text' gives ("report_<format>.c"), as
    regular expressions over a basename."""
    out = []
    for word in set(re.findall(r"[\w]*<[a-z_]+>[\w.\[\]]*", text)):
        parts = re.split(r"<[a-z_]+>", word)
        out.append(re.compile("^" + "[^/]+".join(re.escape(p) for p in parts)
                              .replace(re.escape(".[ch]"), r"\.[ch]") + "$"))
    return out


def named(name, text, placeholders):
    """Is file 'name' (a basename) named in 'text'?"""
    stem, ext = os.path.splitext(name)
    words = [name]
    if ext in (".c", ".h"):
        words += [stem + ".[ch]", stem + ".c" if ext == ".h" else stem + ".h"]
    return (any(re.search(r"(?<![\w.-])" + re.escape(w) + r"(?![\w])", text)
                for w in words) or
            any(p.match(name) for p in placeholders))


def mapped_names(text):
    """The file names the map's src/ sections name."""
    block = text.split("```")[1] if text.count("```") >= 2 else ""
    out, inside = set(), False
    for line in block.splitlines():
        if line and not line.startswith(" "):
            inside = line.startswith("src/")
        if inside:
            out.update(w for w in re.findall(r"(?<![\w/<>.-])([a-z0-9_]+"
                                             r"\.(?:c|h|in))(?![\w])", line))
    return out


def expand(path):
    """'src/x.[ch]' -> ['src/x.c', 'src/x.h']; other paths as they are."""
    if path.endswith(".[ch]"):
        return [path[:-5] + ".c", path[:-5] + ".h"]
    return [path]


def documents(source):
    paths = [os.path.join(source, d) for d in DOCS]
    paths += glob.glob(os.path.join(source, "docs", "*.md"))
    paths += glob.glob(os.path.join(source, "ci", "*.sh"))
    return [p for p in paths if os.path.isfile(p)]


def main(argv):
    if len(argv) != 2:
        print("usage: source_map.py SOURCE_DIR", file=sys.stderr)
        return 2
    source = argv[1]
    problems = []
    files = source_files(source)
    if not files:
        problems.append("no file under %s/src" % source)
    with open(os.path.join(source, "docs", "development.md"),
              encoding="utf-8") as f:
        development = f.read()
    placeholders = patterns(development)
    for path in files:
        if not named(os.path.basename(path), development, placeholders):
            problems.append("docs/development.md does not name %s" % path)
    names = {os.path.basename(f) for f in files}
    for name in sorted(mapped_names(development)):
        if name not in names and name + ".in" not in names:
            problems.append("docs/development.md names %s, which is not "
                            "under src/" % name)
    for doc in documents(source):
        with open(doc, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for found in sorted(set(PATH.findall(text))):
            if (re.search(r"[<>*]", found) or found.endswith("/") or
                    PLACEHOLDER.search(found)):
                continue
            for path in expand(found.rstrip(".")):
                if not os.path.exists(os.path.join(source, path)):
                    problems.append("%s names %s, which does not exist"
                                    % (os.path.relpath(doc, source), path))
    for problem in problems:
        print("source_map: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
