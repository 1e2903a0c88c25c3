#!/usr/bin/env python3
"""Checks the program's structure from its object files.

Reads every object file of a build with nm and judges two rules from the
symbols each one defines and uses:

  1. No cycles: no source file of the program uses, directly or through
     others, a symbol of a file that uses one of its own symbols.
  2. No stray exports: every external symbol a program file defines is
     used by another object file (of the program, a test or a fuzz target).

Program files are the objects built from src/ (and the generated rule
image); every other object under the build tree counts as a test.

usage: layering.py BUILD_DIR
exit:  0 both rules hold, 1 a rule is broken (each offence on a line),
       2 bad usage or nm failed.
"""
import os
import subprocess
import sys

DEFINED = set("TDBRCVWGS")


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


def symbols(path):
    out = subprocess.run(["nm", "-P", path], capture_output=True, text=True)
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


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.stderr.write("usage: layering.py BUILD_DIR\n")
        return 2
    program = {}          # source -> (defined, used)
    others = []           # used-sets of tests and fuzz targets
    for path in sorted(object_files(sys.argv[1])):
        source = source_of(path)
        defined, used = symbols(path)
        if source is None:
            others.append(used)
        elif source not in program:
            program[source] = (defined, used)
    if not program:
        sys.stderr.write(f"layering: no program object files under {sys.argv[1]}\n")
        return 2

    owner = {}
    for source, (defined, _used) in program.items():
        for name in defined:
            owner.setdefault(name, source)

    edges, why = {}, {}
    for source, (_defined, used) in program.items():
        for name in used:
            target = owner.get(name)
            if target and target != source:
                edges.setdefault(source, set()).add(target)
                why.setdefault((source, target), name)

    failures = 0
    for component in strongly_connected(program.keys(), edges):
        failures += 1
        links = [f"{a} -> {b} ({why[(a, b)]})"
                 for a in component for b in sorted(edges.get(a, ()))
                 if b in component]
        print("cycle: " + "; ".join(links))

    used_elsewhere = {}
    for source, (_defined, used) in program.items():
        for name in used:
            if owner.get(name) not in (None, source):
                used_elsewhere[name] = True
    for used in others:
        for name in used:
            used_elsewhere[name] = True
    for source, (defined, _used) in sorted(program.items()):
        for name in sorted(defined):
            if name in used_elsewhere or name == "main":
                continue
            if name.startswith(("__", "_GLOBAL_", ".L")):
                continue
            failures += 1
            print(f"unused export: {name} in {source}")

    print(f"layering: {len(program)} program files, {len(others)} test objects, "
          f"{failures} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
