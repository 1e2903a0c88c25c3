#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Proves layering.py can fail: runs it over small generated projects.

Each case writes a few tiny C files into a temporary source tree, compiles
them with the project's C compiler into a build tree laid out as CMake lays
out its own (BUILD/CMakeFiles/<target>.dir/src/<file>.c.o), runs
layering.py on it, and checks the exit status and the exact offences
printed:

  cycle            src/a.c and src/b.c call each other
  cycle through others
                   src/a.c calls src/b.c, which calls src/c.c, which
                   reads a variable of src/a.c (no two of them use each
                   other directly; the back edge is a data symbol)
  cycle in a folder
                   src/sub/emit.c and src/sub/check.c call each other
                   through the folder's internal header, which two
                   files of one folder share without a dependency: the
                   calls are one (a checker calling back the file that
                   emits its findings)
  cycle through a header
                   src/a.c calls src/b.c, and src/b.c uses only a macro
                   of src/a.h (no symbol of src/a.c shows the back edge)
  unused export    src/a.c defines a function nobody else calls
  internal header  src/main.c includes src/sub/sub_internal.h (the test
                   file that includes it too is allowed); what it declares
                   is then also a one-user export
  one-user export  src/sub/run.c exports sub_helper, which only src/main.c
                   uses (declaring it itself); sub_run, which only
                   src/main.c uses too but src/sub.h declares, is the
                   folder's interface and passes
  folder cycle     src/input/read.c calls src/report/write.c, and
                   src/report/words.c calls src/input/parse.c: no file
                   depends on one that depends back on it, but src/input
                   and src/report depend on each other
  clean            a pair with none of the above: exit 0, no offence

usage: layering_selftest.py CC
exit:  0 every case judged as expected, 1 otherwise.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERING = os.path.join(HERE, "layering.py")

CALLER = "int a(int);\nint main(void) { return a(3); }\n"

# name -> (files: {path: text}, expected exit, expected offence lines)
CASES = {
    "cycle": ({
        "src/a.c": "int b(int);\nint a(int n) { return n ? b(n - 1) : 0; }\n",
        "src/b.c": "int a(int);\nint b(int n) { return n ? a(n - 1) : 1; }\n",
        "tests/t.c": CALLER,
    }, 1, ["cycle: src/a.c -> src/b.c (b); src/b.c -> src/a.c (a)"]),
    "cycle through others": ({
        "src/a.c": "int b(int);\nint a_count;\n"
                   "int a(int n) { return b(n) + a_count; }\n",
        "src/b.c": "int c(int);\nint b(int n) { return c(n) + 1; }\n",
        "src/c.c": "extern int a_count;\nint c(int n) { return n + a_count; }\n",
        "tests/t.c": CALLER,
    }, 1, ["cycle: src/a.c -> src/b.c (b); src/b.c -> src/c.c (c); "
           "src/c.c -> src/a.c (a_count)"]),
    "cycle in a folder": ({
        "src/sub/sub_internal.h": "int emit(int);\nint check(int);\n",
        "src/sub/emit.c": '#include "sub_internal.h"\n'
                          "int emit(int n) { return n ? check(n - 1) : 0; }\n",
        "src/sub/check.c": '#include "sub_internal.h"\n'
                           "int check(int n) { return emit(n); }\n",
        "tests/t.c": "int emit(int);\nint main(void) { return emit(3); }\n",
    }, 1, ["cycle: src/sub/check.c -> src/sub/emit.c (emit); "
           "src/sub/emit.c -> src/sub/check.c (check)"]),
    "cycle through a header": ({
        "src/a.h": "#define A_LIMIT 3\nint a(int);\n",
        "src/a.c": '#include "a.h"\nint b(int);\n'
                   "int a(int n) { return b(n); }\n",
        "src/b.c": '#include "a.h"\nint b(int n) { return n + A_LIMIT; }\n',
        "tests/t.c": CALLER,
    }, 1, ['cycle: src/a.c -> src/b.c (b); src/b.c -> src/a.c (#include "a.h")']),
    "unused export": ({
        "src/a.c": "int a(int n) { return n + 1; }\n"
                   "int a_spare(int n) { return n - 1; }\n",
        "src/main.c": CALLER,
    }, 1, ["unused export: a_spare in src/a.c"]),
    "internal header": ({
        "src/sub/sub_internal.h": "int a(int);\n",
        "src/sub/a.c": '#include "sub_internal.h"\n'
                       "int a(int n) { return n + 1; }\n",
        "src/main.c": '#include "sub/sub_internal.h"\n'
                      "int main(void) { return a(3); }\n",
        "tests/t.c": '#include "sub/sub_internal.h"\n'
                     "int t(void) { return a(1); }\n",
    }, 1, ["one-user export: a in src/sub/a.c is used only by src/main.c, "
           "outside src/sub/ and past its public headers: move it to its "
           "user, or keep it inside src/sub/",
           "internal header: src/main.c:1 includes src/sub/sub_internal.h, "
           "internal to src/sub/"]),
    "one-user export": ({
        "src/sub.h": "int sub_run(int);\n",
        "src/sub/run.c": '#include "sub.h"\nint sub_helper(int);\n'
                         "int sub_run(int n) { return n; }\n"
                         "int sub_helper(int n) { return n + 1; }\n",
        "src/main.c": '#include "sub.h"\nint sub_helper(int);\n'
                      "int main(void) { return sub_run(1) + sub_helper(2); }\n",
    }, 1, ["one-user export: sub_helper in src/sub/run.c is used only by "
           "src/main.c, outside src/sub/ and past its public headers: move "
           "it to its user, or keep it inside src/sub/"]),
    "folder cycle": ({
        "src/input.h": "int in_read(int);\nint in_parse(int);\n",
        "src/report.h": "int rep_write(int);\nint rep_words(int);\n",
        "src/input/read.c": '#include "report.h"\n'
                            "int in_read(int n) { return rep_write(n); }\n",
        "src/input/parse.c": "int in_parse(int n) { return n * 2; }\n",
        "src/report/write.c": "int rep_write(int n) { return n + 1; }\n",
        "src/report/words.c": '#include "input.h"\n'
                              "int rep_words(int n) { return in_parse(n); }\n",
        "tests/t.c": '#include "input.h"\n#include "report.h"\n'
                     "int t(void) { return in_read(1) + rep_words(2); }\n",
    }, 1, ["folder cycle: src/input -> src/report (src/input/read.c -> "
           "src/report/write.c: rep_write); src/report -> src/input "
           "(src/report/words.c -> src/input/parse.c: in_parse)"]),
    "clean": ({
        "src/a.h": "int a(int);\n",
        "src/a.c": '#include "a.h"\nint a(int n) { return n + 1; }\n',
        "src/main.c": '#include "a.h"\nint main(void) { return a(3); }\n',
    }, 0, []),
}


def write(top, files):
    for rel, text in files.items():
        path = os.path.join(top, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def compile_all(cc, source, build, files):
    """Compiles each .c where CMake would put its object: program files
    under a target of the top directory, tests under tests/."""
    for rel in files:
        if not rel.endswith(".c"):
            continue
        if rel.startswith("src/"):
            obj = os.path.join(build, "CMakeFiles", "fake.dir", rel + ".o")
        else:
            obj = os.path.join(build, "tests", "CMakeFiles", "t.dir",
                               os.path.basename(rel) + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        subprocess.run([cc, "-std=c11", "-O0", "-c",
                        "-I", os.path.join(source, "src"),
                        "-o", obj, os.path.join(source, rel)], check=True)


def run_case(cc, work, name, files, want_rc, want_lines):
    source = os.path.join(work, name.replace(" ", "_"), "source")
    build = os.path.join(work, name.replace(" ", "_"), "build")
    write(source, files)
    compile_all(cc, source, build, files)
    done = subprocess.run([sys.executable, LAYERING, build, source],
                          capture_output=True, text=True)
    lines = done.stdout.splitlines()
    offences = [line for line in lines if not line.startswith("layering:")]
    if done.returncode != want_rc or offences != want_lines:
        print(f"FAIL {name}: exit {done.returncode} (want {want_rc})")
        for line in lines + done.stderr.splitlines():
            print(f"    {line}")
        for line in want_lines:
            print(f"    wanted: {line}")
        return False
    print(f"ok   {name}: exit {done.returncode}"
          + "".join(f"\n       {line}" for line in offences))
    return True


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: layering_selftest.py CC\n")
        return 2
    with tempfile.TemporaryDirectory(prefix="layering-selftest-") as work:
        results = [run_case(sys.argv[1], work, name, *case)
                   for name, case in CASES.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
