# SPDX-License-Identifier: Apache-2.0
"""The Azure Pipelines recipes of README.md and docs/ci.md work: each is
valid YAML, its steps are Azure Pipelines steps, and its ndplint step,
run by sh with the pipeline variables pointed at this build and the plan
at fixtures/example-plan.json (judged at a pinned instant), writes only logging commands and
"ndplint: " lines, ends with ##vso[task.complete], exits 1 (the example
has errors) and writes the JUnit report the next step publishes and the
Markdown report the step after it uploads as the summary and posts with
ci/comment.sh (against a loopback mock of the threads API).
   usage: azure_recipe.py NDPLINT SOURCE_DIR"""
import os, re, subprocess, sys, tempfile

try:
    import yaml
except ImportError:
    print("azure_recipe: python3-yaml is not installed: skipped")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comment_mock  # noqa: E402

ndplint, src = sys.argv[1:3]
problems = []


def recipe(path, heading):
    text = open(os.path.join(src, path), encoding="utf-8").read()
    at = text.find("\n" + heading + "\n")
    if at < 0:
        problems.append("%s: no '%s'" % (path, heading))
        return None
    m = re.search(r"```yaml\n(.*?)```", text[at:], re.S)
    if not m:
        problems.append("%s: no yaml block under '%s'" % (path, heading))
        return None
    return m.group(1)


def check(path, heading):
    block = recipe(path, heading)
    if block is None:
        return
    try:
        doc = yaml.safe_load(block)
    except yaml.YAMLError as e:
        problems.append("%s: not YAML: %s" % (path, e))
        return
    steps = doc.get("steps") if isinstance(doc, dict) else None
    if not isinstance(steps, list) or not steps:
        problems.append("%s: no steps" % path)
        return
    lint = [s for s in steps
            if "--format azure" in str(s.get("script", ""))]
    if len(lint) != 1:
        problems.append("%s: %d steps run --format azure" % (path, len(lint)))
        return
    for s in steps:
        if not ({"script", "task"} & set(s)):
            problems.append("%s: step %r is no script or task" % (path, s))
    check_cache(path, steps)
    with tempfile.TemporaryDirectory() as tmp:
        script = lint[0]["script"]
        script = script.replace("$(Agent.TempDirectory)/ndplint/build/bin/ndplint",
                                ndplint)
        script = script.replace("$(Agent.TempDirectory)", tmp)
        script = script.replace("$(Build.SourcesDirectory)", src)
        script = re.sub(r"\S*tfplan\.json",
                        "--at 2026-12-05T12:00:00Z fixtures/example-plan.json",
                        script)
        if "$(" in script:
            problems.append("%s: unknown variable in %r" % (path, script))
            return
        run = subprocess.run(["sh", "-c", script], cwd=src,
                             capture_output=True, text=True)
        if run.returncode != 1:
            problems.append("%s: exit %d: %s" % (path, run.returncode,
                                                 run.stderr))
        lines = run.stdout.splitlines()
        for line in lines:
            if not re.match(r"##vso\[task\.(logissue|complete) |ndplint: ",
                            line):
                problems.append("%s: output line %r" % (path, line[:80]))
        if not lines or lines[-1] != "##vso[task.complete result=Failed;]":
            problems.append("%s: no task.complete at the end" % path)
        if not any(l.startswith("##vso[task.logissue type=error;"
                                "sourcepath=fixtures/example-plan.json;")
                   for l in lines):
            problems.append("%s: no located logissue" % path)
        markdown = os.path.join(tmp, "ndplint.md")
        if not os.path.isfile(markdown) or not os.path.getsize(markdown):
            problems.append("%s: no Markdown report written" % path)
        else:
            check_comment(path, steps, tmp, markdown)
        published = [s for s in steps
                     if s.get("task", "").startswith("PublishTestResults")]
        for s in published:
            report = s["inputs"]["testResultsFiles"].replace(
                "$(Agent.TempDirectory)", tmp)
            if not os.path.isfile(report):
                problems.append("%s: %s not written" % (path, report))


def check_cache(path, steps):
    """A Cache@2 task before the install step keeps the folder the install
    step names as NDPLINT_CACHE_DIR, keyed by the version it installs."""
    caches = [i for i, s in enumerate(steps)
              if str(s.get("task", "")).startswith("Cache@2")]
    installs = [i for i, s in enumerate(steps)
                if "ci/install.sh" in str(s.get("script", ""))]
    if len(caches) != 1 or len(installs) != 1 or caches[0] > installs[0]:
        problems.append("%s: no Cache@2 task before the one install step"
                        % path)
        return
    inputs = steps[caches[0]].get("inputs") or {}
    script = steps[installs[0]]["script"]
    folder = re.search(r'NDPLINT_CACHE_DIR="([^"]+)"', script)
    version = re.search(r"install\.sh\" v?([0-9.]+)", script)
    if not folder or inputs.get("path") != folder.group(1):
        problems.append("%s: the cache keeps %r, the install step uses %r"
                        % (path, inputs.get("path"),
                           folder and folder.group(1)))
    if not version or '"%s"' % version.group(1) not in str(inputs.get("key")):
        problems.append("%s: the cache key %r does not name the version"
                        % (path, inputs.get("key")))


def check_comment(path, steps, tmp, markdown):
    """The step after ndplint's uploads the Markdown report as the run's
    summary (a logging command the recipe writes, with a fixed path) and
    posts it with ci/comment.sh: nothing outside a pull request build, a
    thread on the pull request in one (the threads API a loopback mock)."""
    post = [s for s in steps if "comment.sh" in str(s.get("script", ""))]
    if len(post) != 1:
        problems.append("%s: %d steps run comment.sh" % (path, len(post)))
        return
    step = post[0]
    if step.get("condition") != "succeededOrFailed()":
        problems.append("%s: the comment step does not run after findings"
                        % path)
    if (step.get("env") or {}).get("SYSTEM_ACCESSTOKEN") != \
            "$(System.AccessToken)":
        problems.append("%s: the comment step lacks System.AccessToken" % path)
    script = step["script"].replace("$(Agent.TempDirectory)/ndplint/ci/",
                                    os.path.join(src, "ci") + "/")
    script = script.replace("$(Agent.TempDirectory)", tmp)
    if "$(" in script:
        problems.append("%s: unknown variable in %r" % (path, script))
        return
    env = {"PATH": os.environ["PATH"], "TF_BUILD": "True"}
    run = subprocess.run(["sh", "-c", script], cwd=src, env=env,
                         capture_output=True, text=True)
    want = ["##vso[task.uploadsummary]" + markdown,
            "ndplint comment: not a pull request build: nothing posted"]
    if run.returncode != 0 or run.stdout.splitlines() != want:
        problems.append("%s: the comment step outside a pull request: "
                        "exit %d, %r" % (path, run.returncode, run.stdout))
    run, state = comment_mock.run_twice(script, lambda url: dict(
        env, SYSTEM_COLLECTIONURI=url + "/org/", SYSTEM_TEAMPROJECTID="p",
        BUILD_REPOSITORY_ID="r", SYSTEM_PULLREQUEST_PULLREQUESTID="12",
        SYSTEM_ACCESSTOKEN="t0ken"), src)
    threads = state["azure"]
    report = open(markdown, encoding="utf-8").read()
    if run.returncode != 0 or len(threads) != 1 or not \
            threads[0]["comments"][0]["content"].endswith("-->\n" + report):
        problems.append("%s: the comment step on a pull request, run twice: "
                        "exit %d, %d threads, %r" % (path, run.returncode,
                                                     len(threads),
                                                     run.stdout))


check("README.md", "### Azure Pipelines")
check("docs/ci.md", "## Azure Pipelines")
for p in problems:
    print("azure_recipe: " + p)
sys.exit(1 if problems else 0)
