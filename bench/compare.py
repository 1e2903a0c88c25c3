#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The performance table of docs/performance.md, measured here and now.

Runs ndplint (this build, and with --against REV the build of another
commit, made in a temporary folder) and its yardsticks on the same inputs,
the commands of a row one after the other in each round so that both see
the same machine, and prints a Markdown table: the median wall time of each
command, the ratio to the yardstick, the target and whether it is met; then
a table of every command's best and median wall time, median user and
system time and peak RSS.  With --variant LABEL:VAR=VALUE this build also
runs with VAR=VALUE in its environment, in the same rounds (a switch such
as NDPLINT_READAHEAD=0 measured against the default in one run).  It
asserts nothing and fails on nothing but a missing tool or a failed build:
a benchmark, not a test.

Rows (targets from the performance issue):
  240 MB compact plan      ndplint FILE           vs wc -l FILE    <= 2x
  240 MB indented plan     the same, --indent 2                    <= 2x
  240 MB indented what-if  the same, az's shape                    <= 2x
  240 MB plan on stdin     cat FILE | ndplint -   vs cat | wc -l   <= 1.3x
  46 KB example plan       ndplint (many runs)    vs /bin/true     <= 2x
  peak RSS, 240 MB plan    ndplint's peak RSS     / file size      <= 1.05x
  jq selecting clusters    jq time                / ndplint time   >= 40x

On a machine with more than two cores every command runs under
'taskset -c 0,1', so that the numbers are those of two cores.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "fixtures", "example-plan.json")
GNU_TIME = "/usr/bin/time"
JQ_FILTER = ('.resource_changes[] | select(.type == '
             '"azurerm_kubernetes_cluster") | .address')


def run_once(argv, stdin_path=None, env=None):
    """Wall seconds, peak RSS (bytes), user and system seconds of one run
    of 'argv' ('env': variables added to the environment).  A shell
    pipeline's times are those of all its commands, its RSS their
    largest."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    full_env = dict(os.environ, **env) if env else None
    try:
        started = time.perf_counter()
        child = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=full_env)
        _, status, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - started
        # Reaped here (for its own rusage): Popen must not wait again.
        child.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    return took, usage.ru_maxrss * 1024, usage.ru_utime, usage.ru_stime


def peak_rss(argv, stdin_path, env):
    """Peak RSS (bytes) of one more run of 'argv' under GNU time, or None.
    A child's peak as wait4() gives it is at least the resident size of
    the process that forked it (here Python's, 10 to 30 MB), so the
    child's own is taken from a small parent that forks it."""
    if not os.access(GNU_TIME, os.X_OK):
        return None
    with tempfile.NamedTemporaryFile("r") as out:
        run_once([GNU_TIME, "-f", "%M", "-o", out.name] + argv, stdin_path,
                 env)
        try:
            return int(out.read().split()[-1]) * 1024
        except (ValueError, IndexError):
            return None


def rounds(commands, runs):
    """Runs the commands of a row in turn, 'runs' rounds; per command the
    list of run_once() results, the peak RSS that of one more run under
    GNU time (peak_rss()) where there is one.  A command is (argv, stdin
    path, env)."""
    results = [[] for _ in commands]
    for _ in range(runs):
        for i, (argv, stdin_path, env) in enumerate(commands):
            results[i].append(run_once(argv, stdin_path, env))
    for i, (argv, stdin_path, env) in enumerate(commands):
        rss = peak_rss(argv, stdin_path, env)
        if rss is not None:
            results[i] = [(s[0], rss, s[2], s[3]) for s in results[i]]
    return results


def median_time(samples):
    return statistics.median(s[0] for s in samples)


def pinned(argv):
    if (os.cpu_count() or 1) > 2 and shutil.which("taskset"):
        return ["taskset", "-c", "0,1"] + argv
    return argv


def sh(pipeline):
    return pinned(["sh", "-c", pipeline])


def git(*args, capture=True):
    return subprocess.run(["git", "-C", ROOT] + list(args), check=True,
                          capture_output=capture, text=True).stdout.strip()


def build_rev(rev, work):
    """Builds ndplint at 'rev' in a worktree under 'work'; its path."""
    src = os.path.join(work, "src")
    build = os.path.join(work, "build")
    git("worktree", "add", "--detach", "--force", src, rev)
    try:
        for step in (["cmake", "-S", src, "-B", build, "-DNDP_TESTS=OFF"],
                     ["cmake", "--build", build, "-j",
                      str(os.cpu_count() or 2), "--target", "ndplint"]):
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode:
                sys.exit("compare: building %s failed:\n%s%s" %
                         (rev, done.stdout[-2000:], done.stderr[-2000:]))
    finally:
        git("worktree", "remove", "--force", src)
    return os.path.join(build, "ndplint")


def generate(cache, size_mb):
    """The inputs, made once per size and kept in 'cache'."""
    os.makedirs(cache, exist_ok=True)
    files = {}
    for name, script, extra in (
            ("plan", "gen_plan.py", []),
            ("plan-indented", "gen_plan.py", ["--indent", "2"]),
            ("whatif-indented", "gen_whatif.py", ["--indent", "2"])):
        path = os.path.join(cache, "%s-%g.json" % (name, size_mb))
        if not os.path.exists(path):
            print("compare: writing %s" % path, file=sys.stderr)
            subprocess.run([sys.executable, os.path.join(HERE, script),
                            "--size-mb", str(size_mb), "--out", path] + extra,
                           check=True, stdout=subprocess.DEVNULL)
        # In the page cache before the first round.
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
        files[name] = path
    return files


class Table:
    def __init__(self, versions):
        self.versions = versions
        self.rows = []
        self.details = []

    def detail(self, label, names, results):
        """Every command of a row: 'names[i]' ran with 'results[i]'."""
        for name, samples in zip(names, results):
            self.details.append((label, name, samples))

    def show_details(self):
        print("| input | command | best | median | user (median) | "
              "system (median) | peak RSS |")
        print("|" + "---|" * 7)
        for label, name, samples in self.details:
            cells = [label, name,
                     fmt(min(s[0] for s in samples), "s"),
                     fmt(median_time(samples), "s"),
                     fmt(statistics.median(s[2] for s in samples), "s"),
                     fmt(statistics.median(s[3] for s in samples), "s"),
                     fmt(max(s[1] for s in samples), "B")]
            print("| " + " | ".join(cells) + " |")

    def add(self, label, values, yardstick, ratio_of, target, better,
            unit="s"):
        self.rows.append((label, values, yardstick, ratio_of, target, better,
                          unit))

    def show(self):
        names = [v for v, _ in self.versions]
        head = (["input"] + ["ndplint %s" % n for n in names] +
                ["yardstick"] + ["ratio %s" % n for n in names] +
                ["target", "met (%s)" % names[0]])
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for label, values, yardstick, ratio_of, target, better, unit in \
                self.rows:
            ratios = [ratio_of(v) for v in values]
            met = ratios[0] <= target if better == "low" else \
                ratios[0] >= target
            cells = ([label] + [fmt(v, unit) for v in values] +
                     [yardstick] + ["%.2fx" % r for r in ratios] +
                     [("<= %gx" if better == "low" else ">= %gx") % target,
                      "yes" if met else "**no**"])
            print("| " + " | ".join(cells) + " |")


def fmt(value, unit):
    if unit == "s":
        return "%.3f s" % value if value >= 0.1 else "%.2f ms" % (value * 1e3)
    if value < 10e6:
        return "%.1f MB" % (value / 1e6)
    return "%.0f MB" % (value / 1e6)


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", metavar="REV",
                    help="also measure ndplint built at this commit")
    ap.add_argument("--runs", type=int, default=7,
                    help="rounds for the large inputs (default 7)")
    ap.add_argument("--small-runs", type=int, default=300,
                    help="rounds for the small plan (default 300)")
    ap.add_argument("--jq-runs", type=int, default=3,
                    help="rounds for jq (default 3)")
    ap.add_argument("--variant", action="append", default=[],
                    metavar="LABEL:VAR=VALUE",
                    help="also run this build with VAR=VALUE in its "
                    "environment, named LABEL (repeatable)")
    ap.add_argument("--size-mb", type=float, default=240)
    ap.add_argument("--ndplint", default=os.environ.get(
        "NDPLINT", os.path.join(ROOT, "build", "ndplint")))
    ap.add_argument("--cache", default=os.path.join(
        tempfile.gettempdir(), "ndplint-bench"),
        help="where the generated inputs are kept")
    a = ap.parse_args()

    for tool in ("wc", "cat", "jq", "git", "cmake"):
        if not shutil.which(tool):
            sys.exit("compare: %s is needed" % tool)
    if not os.access(a.ndplint, os.X_OK):
        sys.exit("compare: build ndplint first (%s)" % a.ndplint)
    here = git("rev-parse", "--short", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        here += "+changes"
    versions = [(here, os.path.abspath(a.ndplint), None)]
    for spec in a.variant:
        label, _, setting = spec.partition(":")
        var, eq, value = setting.partition("=")
        if not label or not var or not eq:
            sys.exit("compare: --variant wants LABEL:VAR=VALUE, not '%s'"
                     % spec)
        versions.append(("%s %s" % (here, label), versions[0][1],
                         {var: value}))
    work = tempfile.mkdtemp(prefix="ndplint-compare-")
    try:
        if a.against:
            rev = git("rev-parse", "--short", a.against)
            print("compare: building %s" % rev, file=sys.stderr)
            versions.append((rev, build_rev(rev, work), None))
        files = generate(a.cache, a.size_mb)
        table = measure(a, versions, files)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%s, %d cores%s, %s; median of %d rounds (%d for the small plan, "
          "%d for jq)" % (cpu_model(), os.cpu_count() or 1,
                          " (taskset -c 0,1)" if pinned(["x"])[0] ==
                          "taskset" else "", time.strftime("%Y-%m-%d"),
                          a.runs, a.small_runs, a.jq_runs))
    print()
    table.show()
    print()
    table.show_details()


def measure(a, versions, files):
    table = Table([(n, b) for n, b, _ in versions])
    names = ["ndplint %s" % n for n, _, _ in versions]
    mb = "%g MB" % a.size_mb
    at = ["--at", "2026-12-05T12:00:00Z", "--fail-on", "never"]
    for label, key in (("%s compact plan" % mb, "plan"),
                       ("%s indented plan" % mb, "plan-indented"),
                       ("%s indented what-if" % mb, "whatif-indented")):
        path = files[key]
        cmds = [(pinned([b] + at + [path]), None, e) for _, b, e in versions]
        cmds.append((pinned(["wc", "-l", path]), None, None))
        res = rounds(cmds, a.runs)
        table.detail(label, names + ["wc -l"], res)
        base = median_time(res[-1])
        values = [median_time(r) for r in res[:-1]]
        table.add(label, values, "wc -l %s" % fmt(base, "s"),
                  lambda v, base=base: v / base, 2, "low")
        if key == "plan":
            rss = [max(s[1] for s in r) for r in res[:-1]]
            size = os.path.getsize(path)
            table.add("peak RSS, %s plan" % mb, rss, "file %s" %
                      fmt(size, "B"), lambda v, size=size: v / size, 1.05,
                      "low", unit="B")
            compact_times = values
    path = files["plan"]
    cmds = [(sh("cat '%s' | '%s' %s -" % (path, b, " ".join(at))), None, e)
            for _, b, e in versions]
    cmds.append((sh("cat '%s' | wc -l" % path), None, None))
    res = rounds(cmds, a.runs)
    table.detail("%s plan on stdin" % mb,
                 ["cat \\| " + n for n in names] + ["cat \\| wc -l"], res)
    base = median_time(res[-1])
    table.add("%s plan on stdin" % mb, [median_time(r) for r in res[:-1]],
              "cat \\| wc -l %s" % fmt(base, "s"), lambda v, base=base: v / base,
              1.3, "low")
    cmds = [(pinned([b] + at + [EXAMPLE]), None, e) for _, b, e in versions]
    cmds.append((pinned(["/bin/true"]), None, None))
    res = rounds(cmds, a.small_runs)
    table.detail("%d KB example plan" % (os.path.getsize(EXAMPLE) // 1000),
                 names + ["/bin/true"], res)
    base = median_time(res[-1])
    table.add("%d KB example plan" % (os.path.getsize(EXAMPLE) // 1000),
              [median_time(r) for r in res[:-1]],
              "/bin/true %s" % fmt(base, "s"), lambda v, base=base: v / base,
              2, "low")
    res = rounds([(pinned(["jq", "-c", JQ_FILTER, path]), None, None)],
                 a.jq_runs)
    table.detail("jq selecting the clusters (%s)" % mb, ["jq"], res)
    jq = median_time(res[0])
    table.add("jq selecting the clusters (%s)" % mb, compact_times,
              "jq %s" % fmt(jq, "s"), lambda v, jq=jq: jq / v, 40, "high")
    return table


if __name__ == "__main__":
    main()
