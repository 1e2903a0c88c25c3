#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The build's platform switches are what it says they are.

Reads the generated platform_config.h, the compile commands of the build
and the ndplint program it built, and checks, in a -DNDP_PORTABLE=ON build:

  - every NDP_HAVE_* of src/util/platform_config.h.in is defined, and to 0;
  - every file of the project was compiled with _POSIX_C_SOURCE=200809L
    and none with a macro that opens a system's extensions (_GNU_SOURCE,
    _DEFAULT_SOURCE, _BSD_SOURCE, _DARWIN_C_SOURCE);
  - ndplint calls neither memmem() nor madvise() from the C library;

and in an ordinary build on Linux (glibc and musl have them all): every
NDP_HAVE_* is 1, and ndplint calls both.  In any build, the calls beyond
POSIX that compat.c wraps appear in no other file of src/.

    usage: portable_config.py portable|native SYSTEM_NAME BUILD_DIR
                              SOURCE_DIR NDPLINT NM
"""
import json
import os
import re
import shlex
import subprocess
import sys

DEFINE = re.compile(r"^#define (NDP_HAVE_\w+) (\S+)$", re.M)
TEMPLATE = re.compile(r"^#cmakedefine01 (NDP_HAVE_\w+)$", re.M)
EXTENSIONS = ("_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE",
              "_DARWIN_C_SOURCE")
WRAPPED_CALLS = ("memmem", "madvise")
# What only src/util/compat.[ch] and util_internal.h (and the generated
# header) may name.
NON_POSIX = re.compile(r"\b(memmem|madvise|mremap|MREMAP_\w+|MADV_HUGEPAGE|"
                       r"MAP_POPULATE|"
                       r"MAP_NORESERVE|MAP_ANONYMOUS|MAP_ANON|F_SETPIPE_SZ|"
                       r"NDP_HAVE_\w+)\b")
COMPAT = {os.path.join("src", "util", "compat.c"),
          os.path.join("src", "util", "compat.h"),
          os.path.join("src", "util", "util_internal.h")}

problems = []


def problem(text):
    problems.append(text)
    print(f"portable_config: {text}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_header(mode, system, build, source):
    wanted = TEMPLATE.findall(read(os.path.join(source, "src", "util",
                                                "platform_config.h.in")))
    found = dict(DEFINE.findall(read(os.path.join(build, "generated",
                                                  "platform_config.h"))))
    if not wanted:
        problem("src/util/platform_config.h.in names no NDP_HAVE_*")
    for name in wanted:
        if name not in found:
            problem(f"{name} is not defined in platform_config.h")
        elif mode == "portable" and found[name] != "0":
            problem(f"{name} is {found[name]} in a portable build, not 0")
        elif mode == "native" and system == "Linux" and found[name] != "1":
            problem(f"{name} is {found[name]} on Linux, not 1: its check "
                    "in cmake/platform.cmake no longer finds it")
    for name in sorted(set(found) - set(wanted)):
        problem(f"{name} is defined but not in src/util/platform_config.h.in")
    print(f"portable_config: {len(wanted)} NDP_HAVE_* in a {mode} build: "
          + ", ".join(f"{n}={found.get(n, '?')}" for n in wanted))


def check_definitions(build, source):
    with open(os.path.join(build, "compile_commands.json"),
              encoding="utf-8") as f:
        commands = json.load(f)
    ours = [c for c in commands
            if os.path.realpath(c["file"]).startswith(
                os.path.realpath(source) + os.sep)]
    for c in ours:
        words = c.get("arguments") or shlex.split(c["command"])
        defines = {w[2:].split("=")[0] for w in words if w.startswith("-D")}
        name = os.path.relpath(c["file"], source)
        if "-D_POSIX_C_SOURCE=200809L" not in words:
            problem(f"{name} is compiled without _POSIX_C_SOURCE=200809L")
        for macro in EXTENSIONS:
            if macro in defines:
                problem(f"{name} is compiled with {macro}")
    if not ours:
        problem("compile_commands.json lists no file of the project")
    print(f"portable_config: {len(ours)} files compiled for POSIX.1-2008")


def is_static(program):
    """No program interpreter: the C library is linked in (NDP_STATIC)."""
    with open(program, "rb") as f:
        return b".interp" not in f.read()


def symbols(nm, program, *flags):
    done = subprocess.run([nm, *flags, program], capture_output=True,
                          text=True)
    if done.returncode != 0:
        problem(f"'{nm} {' '.join(flags)} {program}' failed: "
                f"{done.stderr.strip()}")
        return set()
    return {line.split()[-1].split("@")[0] for line in
            done.stdout.splitlines() if line.strip()}


def check_program(mode, system, program, nm):
    if "ndp_memmem" not in symbols(nm, program, "--defined-only"):
        problem(f"{program} defines no ndp_memmem: not ndplint")
        return
    # What ndplint takes from the C library: its imports, or, linked
    # statically, the C library's functions it holds (some of which the C
    # library itself calls: a portable build is checked linked with the
    # shared one).
    if is_static(program) and mode == "portable":
        problem(f"{program} is linked statically: configure the portable "
                "build with -DNDP_STATIC=OFF to check what it calls")
        return
    if is_static(program):
        imported = symbols(nm, program, "--defined-only")
    else:
        imported = symbols(nm, program, "-D", "--undefined-only")
    for call in WRAPPED_CALLS:
        if mode == "portable" and call in imported:
            problem(f"ndplint calls the C library's {call}() in a portable "
                    "build")
        if mode == "native" and system == "Linux" and call not in imported:
            problem(f"ndplint does not call the C library's {call}() on "
                    "Linux")
    print("portable_config: of the C library's "
          + ", ".join(f"{c}()" for c in WRAPPED_CALLS) + " ndplint calls "
          + (", ".join(c for c in WRAPPED_CALLS if c in imported) or "none"))


def check_sources(source):
    seen = 0
    for folder, _, files in os.walk(os.path.join(source, "src")):
        for name in files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, source)
            if not name.endswith((".c", ".h")) or rel in COMPAT:
                continue
            seen += 1
            for number, line in enumerate(read(path).splitlines(), 1):
                match = NON_POSIX.search(line)
                if match:
                    problem(f"{rel}:{number}: {match.group(1)} outside "
                            "src/util/compat.c (add a wrapper there)")
    print(f"portable_config: {seen} other files of src/ searched for "
          "calls beyond POSIX")


def main():
    if len(sys.argv) != 7 or sys.argv[1] not in ("portable", "native"):
        print("usage: portable_config.py portable|native SYSTEM_NAME "
              "BUILD_DIR SOURCE_DIR NDPLINT NM", file=sys.stderr)
        return 2
    mode, system, build, source, program, nm = sys.argv[1:]
    check_header(mode, system, build, source)
    if mode == "portable":
        check_definitions(build, source)
    check_program(mode, system, program, nm)
    check_sources(source)
    print(f"portable_config: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
