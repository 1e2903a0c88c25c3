# SPDX-License-Identifier: Apache-2.0
"""The GitLab CI recipes of README.md and docs/ci.md work: each is valid
YAML with one job whose ndplint line, run by sh with the plan at
fixtures/example-plan.json (judged at a pinned instant), exits 1 (the
example has errors) and writes the Code Quality report the job hands to
GitLab and the Markdown report its after_script posts; that after_script
posts nothing outside a merge request pipeline, and in one leaves one
note on the merge request after two runs (the notes API a loopback mock,
comment_mock.py).  The job's own report files go to a temporary
directory, not to the source tree.
   usage: gitlab_recipe.py NDPLINT SOURCE_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("gitlab_recipe: python3-yaml is not installed: skipped")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comment_mock  # noqa: E402

ndplint, src = sys.argv[1:3]
src = os.path.abspath(src)
problems = []


def recipe(path, heading):
    text = open(os.path.join(src, path), encoding="utf-8").read()
    at = text.find("\n" + heading + "\n")
    m = re.search(r"```yaml\n(.*?)```", text[at:], re.S) if at >= 0 else None
    if not m:
        problems.append("%s: no yaml block under '%s'" % (path, heading))
        return None
    return m.group(1)


def sh(script, env):
    return subprocess.run(["sh", "-c", script], cwd=src, env=env,
                          capture_output=True, text=True)


def check_cache(path, job):
    """The job's cache keeps the folder the install line names as
    NDPLINT_CACHE_DIR, keyed by the version it installs."""
    cache = job.get("cache") or {}
    install = " ".join(line for line in job.get("script", [])
                       if "ci/install.sh" in line)
    folder = re.search(r'NDPLINT_CACHE_DIR="\$CI_PROJECT_DIR/([^"]+)"',
                       install)
    version = re.search(r"install\.sh v?([0-9.]+)", install)
    if not folder or folder.group(1).rstrip("/") + "/" not in \
            (cache.get("paths") or []):
        problems.append("%s: the cache keeps %r, the install line uses %r"
                        % (path, cache.get("paths"),
                           folder and folder.group(1)))
    if not version or version.group(1) not in str(cache.get("key")):
        problems.append("%s: the cache key %r does not name the version"
                        % (path, cache.get("key")))


def check(path, heading):
    block = recipe(path, heading)
    if block is None:
        return
    try:
        job = yaml.safe_load(block)["ndplint"]
    except (yaml.YAMLError, TypeError, KeyError) as e:
        problems.append("%s: no ndplint job: %s" % (path, e))
        return
    lint = [line for line in job.get("script", [])
            if line.startswith("/tmp/ndplint/build/bin/ndplint ")]
    post = [line for line in job.get("after_script", [])
            if "comment.sh" in line]
    if len(lint) != 1 or len(post) != 1:
        problems.append("%s: %d ndplint lines, %d comment lines" %
                        (path, len(lint), len(post)))
        return
    if not re.search(r"\bjq\b", " ".join(job["script"])) or \
            not re.search(r"\bcurl\b", " ".join(job["script"])):
        problems.append("%s: the job does not install jq and curl" % path)
    check_cache(path, job)
    artifacts = job.get("artifacts") or {}
    if artifacts.get("when") != "always" or \
            (artifacts.get("reports") or {}).get("codequality") != \
            "gl-code-quality-report.json":
        problems.append("%s: the Code Quality report is not kept" % path)
    with tempfile.TemporaryDirectory() as tmp:
        markdown = os.path.join(tmp, "ndplint.md")
        quality = os.path.join(tmp, "gl-code-quality-report.json")
        script = lint[0].replace("/tmp/ndplint/build/bin/ndplint", ndplint)
        script = script.replace("/tmp/ndplint.md", markdown)
        script = script.replace("gitlab:gl-code-quality-report.json",
                                "gitlab:" + quality)
        script = script.replace("tfplan.json", "--at 2026-12-05T12:00:00Z "
                                "fixtures/example-plan.json")
        env = {"PATH": os.environ["PATH"], "CI_PROJECT_DIR": src}
        run = sh(script, env)
        if run.returncode != 1:
            problems.append("%s: ndplint exit %d: %s" % (path, run.returncode,
                                                        run.stderr))
        for f in (markdown, quality):
            if not os.path.isfile(f) or not os.path.getsize(f):
                problems.append("%s: %s not written" % (path,
                                                        os.path.basename(f)))
                return
        try:
            json.load(open(quality, encoding="utf-8"))
        except ValueError:
            problems.append("%s: the Code Quality report is not JSON" % path)
        script = post[0].replace("/tmp/ndplint/ci/", src + "/ci/")
        script = script.replace("/tmp/ndplint.md", markdown)
        env = {"PATH": os.environ["PATH"], "GITLAB_CI": "true",
               "CI_PROJECT_DIR": src, "CI_JOB_NAME": "ndplint"}
        run = sh(script, env)
        if run.returncode != 0 or run.stdout != \
                "ndplint comment: not a merge request pipeline: nothing posted\n":
            problems.append("%s: after_script outside a merge request: "
                            "exit %d, %r" % (path, run.returncode, run.stdout))
        run, state = comment_mock.run_twice(script, lambda url: dict(
            env, CI_API_V4_URL=url + "/api/v4", CI_PROJECT_ID="4",
            CI_MERGE_REQUEST_IID="9", NDPLINT_GITLAB_TOKEN="glpat-recipe"),
            src)
        notes = state["gitlab"]
        report = open(markdown, encoding="utf-8").read()
        if run.returncode != 0 or len(notes) != 1 or \
                not notes[0]["body"].endswith("-->\n" + report):
            problems.append("%s: after_script on a merge request, run twice: "
                            "exit %d, %d notes, %r" % (path, run.returncode,
                                                       len(notes), run.stdout))


for tool in ("curl", "jq"):
    if subprocess.run(["sh", "-c", "command -v " + tool],
                      capture_output=True).returncode:
        print("gitlab_recipe: %s is not installed: skipped" % tool)
        sys.exit(77)
check("README.md", "### GitLab CI")
check("docs/ci.md", "## GitLab CI")
for p in problems:
    print("gitlab_recipe: " + p)
sys.exit(1 if problems else 0)
