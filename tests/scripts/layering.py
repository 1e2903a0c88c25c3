#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the program's structure from its object files and #include lines.

Reads every object file of a build with nm and judges rules from the
symbols each one defines and uses, and from the source tree:

  1. No cycles: no source file of the program depends, directly or
     through others, on a file that depends on it.  A file depends on
     another when it uses one of its symbols (from nm), or when it
     includes that module's header (#include "impact.h" names
     src/analysis/impact.c, "evaluate.h" src/evaluate/evaluate.c, "engine.h"
     src/rules/engine.c, except for the files of the module's own folder,
     which share it): a struct's layout, a macro or a static inline
     function is a dependency too, though no symbol shows it.
  2. No stray exports: every external symbol a program file defines is
     used by another object file (of the program, a test or a fuzz target).
  3. Internal headers stay inside: a header in a subsystem's folder
     (src/<dir>/, e.g. src/input/input_internal.h, src/rules/rules_internal.h)
     is included only by files of that folder, and by tests (tests/) and
     benchmarks (bench/).  The exceptions are the subsystem's public
     header if it lives in its folder under the folder's name
     (src/<dir>/<dir>.h), and the headers of the folders that are
     include directories of the whole program: src/model/,
     src/findings/, src/settings/, src/analysis/ (the core) and src/util/ (but for a *_internal.h);
     public headers otherwise sit directly in src/.
  4. No export for one file outside the folder: a symbol that a file of a
     folder (src/<dir>/) exports, that exactly one program file uses, in
     another folder, and that the folder's public headers do not declare
     (src/<dir>.h, src/<stem>.h of each src/<dir>/<stem>.c, and for
     src/util/ its own headers) is a private arrangement between two
     files across a folder's wall: it belongs with its user, or inside the
     folder.  What a public header declares is the folder's interface,
     which may well have one user (the command calls each stage).
  5. No cycles between folders: taking each folder of src/ as one unit
     (and each file directly in src/ as its own), no unit depends on
     another that depends back on it (src/input -> src/report ->
     src/input), though no two files do.

Program files are the objects built from src/ (and the generated rule
image, which belongs to src/rules/); every other object under the build
tree counts as a test.  Works on any build of the project (plain,
sanitized, or as a subdirectory of another CMake project): it needs only
the object files and nm.

usage: layering.py BUILD_DIR [SOURCE_DIR]
       SOURCE_DIR defaults to the tree this script sits in.
exit:  0 all rules hold, 1 a rule is broken (each offence on a line),
       2 bad usage or nm failed.
env:   NM names the nm to run (default: nm from PATH).
"""
import os
import re
import subprocess
import sys

DEFINED = set("TDBRCVWGS")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Folders of the source tree whose files may include any header.
TRUSTED = ("tests", "bench")
# The program's include directories, in the order the compiler searches
# them after the includer's own folder.  The headers of the core's folders
# and of src/util/ are public (the utilities are below everything), but
# for a *_internal.h.
INCLUDE_DIRS = ("src", os.path.join("src", "model"),
                os.path.join("src", "findings"),
                os.path.join("src", "settings"),
                os.path.join("src", "analysis"), os.path.join("src", "util"))
# Generated program files, by the folder whose subsystem writes them.
GENERATED = {"rules_embedded.c": "src/rules"}


def object_files(build_dir):
    for root, _dirs, files in os.walk(build_dir):
        if "CMakeFiles" not in root or ".dir" not in root:
            continue
        for name in files:
            if name.endswith(".o"):
                yield os.path.join(root, name)


def source_of(path):
    """'…/ndplint_core.dir/src/input/input.c.o' -> 'src/input/input.c'."""
    rel = path.split(".dir/", 1)[1] if ".dir/" in path else path
    rel = rel[:-2] if rel.endswith(".o") else rel
    if rel.startswith("src/") or os.path.basename(rel) == "rules_embedded.c":
        return rel if rel.startswith("src/") else "(generated)/" + os.path.basename(rel)
    return None


def stale(source, source_dir):
    """Is this the object of a program file since moved or removed (left in
    the build tree by an earlier build)?"""
    return (source is not None and source.startswith("src/")
            and not os.path.isfile(os.path.join(source_dir, source)))


def symbols(path):
    out = subprocess.run([os.environ.get("NM", "nm"), "-P", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(f"layering: nm failed on {path}: {out.stderr.strip()}\n")
        sys.exit(2)
    defined, used = set(), set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            used.add(name)
        elif kind in DEFINED:
            defined.add(name)
    return defined, used


def strongly_connected(nodes, edges):
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(start):
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


def folder_of(source):
    """The unit a program file belongs to for rules 4 and 5: its folder
    for a file of a subsystem ("src/input" for src/input/input.c), the
    file itself for a single-file module directly in src/.  The generated
    rule image belongs to the rules subsystem that writes it."""
    if source.startswith("(generated)/"):
        return GENERATED.get(os.path.basename(source), source)
    parts = source.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else source


def public_names(source_dir, folder):
    """The words of a folder's public headers, its interface: src/<dir>.h,
    src/<stem>.h for each src/<dir>/<stem>.c (engine.h for
    src/rules/engine.c), and for an include directory (src/util/) its own
    headers but *_internal.h."""
    headers = [folder + ".h"]
    path = os.path.join(source_dir, folder)
    names = sorted(os.listdir(path)) if os.path.isdir(path) else []
    headers += ["src/" + n[:-2] + ".h" for n in names if n.endswith(".c")]
    if folder in INCLUDE_DIRS:
        headers += [folder + "/" + n for n in names
                    if n.endswith(".h") and not n.endswith("_internal.h")]
    words = set()
    for header in headers:
        full = os.path.join(source_dir, header)
        if os.path.isfile(full):
            with open(full, encoding="utf-8", errors="replace") as f:
                words.update(re.findall(r"\w+", f.read()))
    return words


def dependency_graph(program, includes):
    """{symbol: defining file}, the edges {file: {file}} from the symbols
    each file uses and the module headers it includes, and for each edge
    the first reason."""
    owner = {}
    for source, (defined, _used) in sorted(program.items()):
        for name in defined:
            owner.setdefault(name, source)

    edges, why = {}, {}
    for source, (_defined, used) in program.items():
        for name in sorted(used):
            target = owner.get(name)
            if target and target != source:
                edges.setdefault(source, set()).add(target)
                why.setdefault((source, target), name)
    for source, targets in includes.items():
        for target, header in sorted(targets.items()):
            if source in program and target in program and target != source:
                edges.setdefault(source, set()).add(target)
                why.setdefault((source, target), f'#include "{header}"')
    return owner, edges, why


def cycles(program, edges, why):
    """Rules 1 and 5: cycles between files, and between folders (a folder
    of src/ stands for all of its files, a file directly in src/ for
    itself); prints each and returns how many there were."""
    failures = 0
    for component in strongly_connected(program.keys(), edges):
        failures += 1
        links = [f"{a} -> {b} ({why[(a, b)]})"
                 for a in component for b in sorted(edges.get(a, ()))
                 if b in component]
        print("cycle: " + "; ".join(links))

    folder_edges, folder_why = {}, {}
    for a in sorted(edges):
        for b in sorted(edges[a]):
            fa, fb = folder_of(a), folder_of(b)
            if fa != fb:
                folder_edges.setdefault(fa, set()).add(fb)
                folder_why.setdefault((fa, fb),
                                      f"{a} -> {b}: {why[(a, b)]}")
    units = {folder_of(source) for source in program}
    for component in strongly_connected(units, folder_edges):
        if all(unit in program for unit in component):
            continue  # files of src/ alone: a file cycle, reported above
        failures += 1
        links = [f"{a} -> {b} ({folder_why[(a, b)]})"
                 for a in component for b in sorted(folder_edges.get(a, ()))
                 if b in component]
        print("folder cycle: " + "; ".join(links))
    return failures


def exports(program, others, owner, source_dir):
    """Rules 2 and 4: exports nobody else uses, and exports of a folder's
    file that only one file outside the folder uses, past the folder's
    interface; prints each and returns how many there were."""
    failures = 0
    used_elsewhere = set()
    users = {}
    for source, (_defined, used) in program.items():
        for name in used:
            if owner.get(name) not in (None, source):
                used_elsewhere.add(name)
                users.setdefault(name, set()).add(source)
    for used in others:
        used_elsewhere.update(used)
    interfaces = {}
    for source, (defined, _used) in sorted(program.items()):
        folder = folder_of(source)
        for name in sorted(defined):
            if name == "main" or name.startswith(("__", "_GLOBAL_", ".L")):
                continue
            if name not in used_elsewhere:
                failures += 1
                print(f"unused export: {name} in {source}")
                continue
            only = users.get(name, set())
            if folder == source or len(only) != 1:
                continue
            user = next(iter(only))
            if folder_of(user) == folder or owner.get(name) != source:
                continue
            if folder not in interfaces:
                interfaces[folder] = public_names(source_dir, folder)
            if name in interfaces[folder]:
                continue
            failures += 1
            print(f"one-user export: {name} in {source} is used only by "
                  f"{user}, outside {folder}/ and past its public headers: "
                  f"move it to its user, or keep it inside {folder}/")
    return failures


def source_files(source_dir):
    """Every .c and .h under src/, tests/ and bench/, relative to the top."""
    for top in ("src",) + TRUSTED:
        for root, _dirs, files in os.walk(os.path.join(source_dir, top)):
            for name in files:
                if name.endswith((".c", ".h")):
                    path = os.path.join(root, name)
                    yield os.path.relpath(path, source_dir)


def resolve(source_dir, includer, name):
    """The file an #include "name" in 'includer' reads, relative to the
    top, as the compiler finds it: beside the includer, then in the
    include directories (src/, src/util/).  None when it is none of
    them."""
    for base in (os.path.dirname(includer),) + INCLUDE_DIRS:
        rel = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(source_dir, rel)):
            return rel
    return None


def module_of(source_dir, header):
    """The program file a module's header stands for: src/x.h -> src/x.c,
    else src/x/x.c (a subsystem's public header and its main file), else
    src/<dir>/x.c for a public header in src/ (engine.h stands for
    src/rules/engine.c); None when there is none (common.h, a folder's
    internal header)."""
    stem = os.path.splitext(os.path.basename(header))[0]
    candidates = [os.path.join(os.path.dirname(header), stem + ".c"),
                  os.path.join("src", stem, stem + ".c")]
    if os.path.dirname(header) == "src":
        top = os.path.join(source_dir, "src")
        candidates += [os.path.join("src", d, stem + ".c")
                       for d in sorted(os.listdir(top))
                       if os.path.isdir(os.path.join(top, d))]
    for rel in candidates:
        if os.path.isfile(os.path.join(source_dir, rel)):
            return rel
    return None


def same_subsystem(includer, target):
    """Both in one folder under src/: a subsystem's files share its public
    header (report.h's types belong to all of src/report/, not only to
    report.c), so including it there is no edge."""
    folder = os.path.dirname(target)
    return folder != "src" and os.path.dirname(includer) == folder


def include_edges(source_dir):
    """{program file: {module file: header}} for every #include "..." of
    a program file (src/*.c) that names another module's header."""
    edges = {}
    for includer in sorted(source_files(source_dir)):
        if not includer.startswith("src" + os.sep) or \
                not includer.endswith(".c"):
            continue
        with open(os.path.join(source_dir, includer), encoding="utf-8",
                  errors="replace") as f:
            for line in f:
                match = INCLUDE.match(line)
                header = match and resolve(source_dir, includer,
                                           match.group(1))
                target = header and module_of(source_dir, header)
                if target and target != includer and \
                        not same_subsystem(includer, target):
                    edges.setdefault(includer, {}).setdefault(
                        target, match.group(1))
    return edges


def internal_folder(header):
    """'src/input' for a header internal to src/input/, else None."""
    parts = header.split(os.sep)
    if len(parts) < 3 or parts[0] != "src" or not header.endswith(".h"):
        return None
    folder = parts[1]
    if len(parts) == 3 and parts[2] == folder + ".h":
        return None
    if os.path.dirname(header) in INCLUDE_DIRS and \
            not header.endswith("_internal.h"):
        return None
    return "src/" + folder


def internal_includes(source_dir):
    """Rule 3: prints each file that includes another folder's internal
    header; returns how many there were."""
    failures = 0
    for includer in sorted(source_files(source_dir)):
        if includer.split(os.sep, 1)[0] in TRUSTED:
            continue
        with open(os.path.join(source_dir, includer), encoding="utf-8",
                  errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                header = resolve(source_dir, includer, match.group(1))
                folder = internal_folder(header) if header else None
                if folder and not includer.startswith(folder + os.sep):
                    failures += 1
                    print(f"internal header: {includer}:{number} includes "
                          f"{header}, internal to {folder}/")
    return failures


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    source_dir = os.path.normpath(os.path.join(here, "..", ".."))
    if len(args) == 2:
        source_dir = args[1]
    if len(args) not in (1, 2) or not os.path.isdir(args[0]) \
            or not os.path.isdir(os.path.join(source_dir, "src")):
        sys.stderr.write("usage: layering.py BUILD_DIR [SOURCE_DIR]\n")
        return 2
    program = {}          # source -> (defined, used)
    others = []           # used-sets of tests and fuzz targets
    for path in sorted(object_files(args[0])):
        source = source_of(path)
        if stale(source, source_dir):
            continue
        defined, used = symbols(path)
        if source is None:
            others.append(used)
        elif source not in program:
            program[source] = (defined, used)
    if not program:
        sys.stderr.write(f"layering: no program object files under {args[0]}\n")
        return 2

    owner, edges, why = dependency_graph(program, include_edges(source_dir))
    failures = cycles(program, edges, why)
    failures += exports(program, others, owner, source_dir)
    failures += internal_includes(source_dir)
    print(f"layering: {len(program)} program files, {len(others)} test objects, "
          f"{failures} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
