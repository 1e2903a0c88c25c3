#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ci/comment.sh against loopback mocks of the GitHub, GitLab and Azure
Repos APIs (comment_mock.py, on 127.0.0.1): ndplint writes the Markdown
reports of a plan with findings and of a clean plan, and the script posts
them.  Checked: the requests (method, path, the token's header, a JSON
body holding the marker and the report), a comment found on the second
page of the list, update against create, a re-run that edits the same
comment (one comment after two runs), the clean report replacing the
findings, a comment of someone else that carries the marker left alone,
whose comments are ours on GitHub (GET /user, GraphQL's viewer for an
App's token, NDPLINT_COMMENT_AUTHOR: run_github_author), one comment per
working directory, the modes new and off, a report cut to the
platform's limit, and errors (403, 404, 500, connection refused, no
token, not a pull request) that warn and exit 0, while the script's own
usage errors exit 2.  Every line the script writes starts with its own
text.  Only the status each API answers a success with is one: 203 with
Azure DevOps' sign-in page, or a 200 whose body is not JSON, warns and
posts nothing (run_not_success).  What an earlier step or a crafted
answer could do (run_hostile) and the limits as each platform counts
them (run_sizes).  All of it again under dash and busybox sh when
installed (and sh is not that shell).
    usage: comment_check.py NDPLINT SOURCE_DIR"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comment_mock  # noqa: E402

ndplint, src = sys.argv[1:3]
script = os.path.abspath(os.path.join(src, "ci", "comment.sh"))
problems = []
checks = 0
# The shell that runs the script: sh, then every other POSIX shell found
# (dash, busybox sh), each through the same checks.
SHELL = ["sh"]


def other_shells():
    found = []
    sh = os.path.realpath(shutil.which("sh") or "sh")
    dash = shutil.which("dash")
    if dash and os.path.realpath(dash) != sh:
        found.append([dash])
    if shutil.which("busybox") and subprocess.run(
            ["busybox", "sh", "-c", "exit 0"],
            capture_output=True).returncode == 0:
        found.append(["busybox", "sh"])
    return found


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        problems.append(what)
    return ok


def write_report(tmp, name, plan, want):
    path = os.path.join(tmp, name)
    run = subprocess.run([ndplint, "--at", "2026-12-05T12:00:00Z",
                          "--format", "markdown:" + path,
                          os.path.join(src, "fixtures", plan)],
                         capture_output=True, text=True)
    check(run.returncode == want,
          "ndplint %s: exit %d, want %d" % (plan, run.returncode, want))
    check(os.path.isfile(path) and os.path.getsize(path) > 0,
          "ndplint %s wrote no Markdown report" % plan)
    try:
        return path, open(path, encoding="utf-8").read()
    except OSError:
        return path, None


def comment(env, args, cwd):
    run = subprocess.run(SHELL + [script] + args, env=env, cwd=cwd,
                         capture_output=True, text=True, timeout=120)
    for line in run.stdout.splitlines():
        check(line.startswith(("ndplint comment: ",
                               "::warning title=ndplint comment::",
                               "##vso[task.logissue type=warning]"
                               "ndplint comment: ")),
              "a line of comment.sh %s: %r" % (args, line[:80]))
    return run


def mine(comments, key="body"):
    return [c for c in comments if str(c.get(key, "")).startswith(
        "<!-- ndplint: ")]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def first_update(mock, env, tmp, report, name):
    """One update run: its requests as (method, path), the mock's
    state and the run, or None (a problem) when no request was made."""
    run = comment(env, [report], tmp)
    st = mock.state()
    check(run.returncode == 0 and st["requests"],
          "%s update: exit %d, %r %r" % (name, run.returncode, run.stdout,
                                        run.stderr))
    if not st["requests"]:
        return None
    return [(r["method"], r["path"]) for r in st["requests"]], st, run


def github_env(tmp, url, event):
    path = os.path.join(tmp, "event.json")
    with open(path, "w") as f:
        json.dump(event, f)
    return {"PATH": os.environ["PATH"], "GITHUB_ACTIONS": "true",
            "GITHUB_API_URL": url, "GITHUB_REPOSITORY": "octo/infra",
            "GITHUB_EVENT_PATH": path, "GITHUB_TOKEN": "ghs_secret123",
            "GITHUB_WORKFLOW": "AKS reimage check", "GITHUB_JOB": "ndplint",
            "GITHUB_WORKSPACE": tmp}


def run_github(mock, tmp, findings, clean, big):
    pr = {"pull_request": {"number": 42}}
    env = github_env(tmp, mock.url, pr)
    other = {"id": 1, "body": "LGTM", "user": {"login": "alice"}}
    marker = "<!-- ndplint: workflow=AKS_reimage_check job=ndplint dir=. -->"
    forged = {"id": 2, "body": marker + "\nall clear",
              "user": {"login": "mallory"}}
    ours = {"id": 9, "body": marker + "\nold report",
            "user": {"login": "github-actions[bot]"}}
    # The comment is on the list's second page (3 to a page), after a
    # comment by someone else that carries the marker.  The job's token
    # is refused /user and named by GraphQL's viewer (github-actions[bot]).
    mock.setup({"github": [other, forged, other, other, ours]})
    update = first_update(mock, env, tmp, findings[0], "github")
    if update is None:
        return
    reqs, st, run = update
    check(reqs == [
        ("GET", "/user"), ("POST", "/graphql"),
        ("GET", "/repos/octo/infra/issues/42/comments?per_page=100&page=1"),
        ("GET", "/repos/octo/infra/issues/42/comments?per_page=100&page=2"),
        ("PATCH", "/repos/octo/infra/issues/comments/9")],
        "github update: requests %r" % reqs)
    last = st["requests"][-1]
    check(last["headers"].get("Authorization") == "Bearer ghs_secret123",
          "github: the token header %r" % last["headers"].get("Authorization"))
    check("ghs_secret123" not in run.stdout + run.stderr,
          "github: the token is in the log")
    body = json.loads(last["body"])["body"] if last["body"] else ""
    check(body == marker + "\n" + findings[1],
          "github update: the body is not the marker and the report")
    check(st["github"][1]["body"] == marker + "\nall clear",
          "github: someone else's comment with the marker was changed")
    check(len(st["github"]) == 5, "github update: comments added")

    # A pull request without the comment: created, then the same one
    # updated; the clean report replaces the findings.
    mock.setup({"github": [other]})
    first = comment(env, [findings[0]], tmp)
    second = comment(env, [findings[0]], tmp)
    st = mock.state()
    check(first.returncode == 0 and second.returncode == 0,
          "github create/re-run: exit %d, %d" % (first.returncode,
                                                second.returncode))
    methods = [r["method"] for r in st["requests"]]
    check(methods == ["GET", "POST", "GET", "POST",
                      "GET", "POST", "GET", "PATCH"],
          "github create/re-run: %r" % methods)
    check(len(mine(st["github"])) == 1,
          "github re-run: %d comments" % len(mine(st["github"])))
    comment(env, [clean[0]], tmp)
    st = mock.state()
    ndp = mine(st["github"])
    check(len(ndp) == 1 and ndp[0]["body"] == marker + "\n" + clean[1],
          "github clean plan: the comment does not hold the clean report")
    check(first.stdout.strip() == "ndplint comment: created a comment",
          "github create: %r" % first.stdout)

    # Another working directory (a second plan of a monorepo) keeps its
    # own comment; --id another.
    sub = os.path.join(tmp, "infra", "prod")
    os.makedirs(sub, exist_ok=True)
    comment(env, [findings[0]], sub)
    comment(env, ["--id", "whatif", findings[0]], tmp)
    st = mock.state()
    markers = sorted(c["body"].split("\n")[0] for c in mine(st["github"]))
    check(markers == sorted([marker,
                             marker.replace("dir=.", "dir=./infra/prod"),
                             marker.replace(" -->", " id=whatif -->")]),
          "github monorepo markers %r" % markers)

    # new: another comment; off: no request at all.
    mock.setup({"github": [ours]})
    comment(env, ["--mode", "new", findings[0]], tmp)
    st = mock.state()
    check([r["method"] for r in st["requests"]] == ["POST"] and
          len(st["github"]) == 2, "github --mode new: %r" %
          [r["method"] for r in st["requests"]])
    mock.setup({"github": [ours]})
    run = comment(env, ["--mode", "off", findings[0]], tmp)
    check(run.returncode == 0 and not mock.state()["requests"],
          "github --mode off: exit %d" % run.returncode)

    # A report beyond 65,536 characters is cut at a line, with a note.
    mock.setup({})
    comment(env, [big], tmp)
    st = mock.state()
    body = mine(st["github"])[0]["body"] if mine(st["github"]) else ""
    check(0 < len(body) <= 65536 and "report was cut" in body and
          body.startswith(marker + "\n"),
          "github cut: %d characters" % len(body))

    # A name that tries to end the marker's HTML comment cannot.
    hostile = dict(env, GITHUB_WORKFLOW="x --> <img src=x>\n::error::boom")
    mock.setup({})
    comment(hostile, [findings[0]], tmp)
    st = mock.state()
    first_line = st["github"][0]["body"].split("\n")[0] if st["github"] else ""
    check(first_line.count(">") == 1 and first_line.endswith(" -->"),
          "github hostile workflow name: marker %r" % first_line)

    # Errors warn and exit 0: a token refused (401), a fork's read-only
    # token (403), 404, a request refused (422), 500, nothing listening,
    # no token, not a pull request.  With --fail-on-error the same
    # warning and exit 1, but not a pull request still exits 0.
    for status in (401, 403, 404, 422, 500):
        mock.setup({"fail": status})
        run = comment(env, [findings[0]], tmp)
        check(run.returncode == 0 and run.stdout.startswith(
            "::warning title=ndplint comment::") and
            ("HTTP %d" % status) in run.stdout,
            "github %d: exit %d, %r" % (status, run.returncode, run.stdout))
        run = comment(env, ["--fail-on-error", findings[0]], tmp)
        check(run.returncode == 1 and ("HTTP %d" % status) in run.stdout,
              "github %d --fail-on-error: exit %d, %r"
              % (status, run.returncode, run.stdout))
    down = dict(env, GITHUB_API_URL="http://127.0.0.1:%d" % free_port())
    run = comment(down, [findings[0]], tmp)
    check(run.returncode == 0 and "no answer from the API" in run.stdout,
          "github refused connection: exit %d, %r" % (run.returncode,
                                                     run.stdout))
    run = comment(dict(env, GITHUB_TOKEN=""), [findings[0]], tmp)
    check(run.returncode == 0 and "::warning" in run.stdout,
          "github without a token: exit %d" % run.returncode)
    run = comment(dict(env, GITHUB_TOKEN=""), ["--fail-on-error",
                                                findings[0]], tmp)
    check(run.returncode == 1 and "::warning" in run.stdout,
          "github without a token, --fail-on-error: exit %d"
          % run.returncode)
    run = comment(down, ["--fail-on-error", findings[0]], tmp)
    check(run.returncode == 1 and "no answer from the API" in run.stdout,
          "github refused connection, --fail-on-error: exit %d"
          % run.returncode)
    mock.setup({})
    push = github_env(tmp, mock.url, {"ref": "refs/heads/main"})
    run = comment(push, [findings[0]], tmp)
    check(run.returncode == 0 and not mock.state()["requests"] and
          "not a pull request" in run.stdout,
          "github push event: exit %d, %r" % (run.returncode, run.stdout))
    run = comment(push, ["--fail-on-error", findings[0]], tmp)
    check(run.returncode == 0 and "not a pull request" in run.stdout,
          "github push event, --fail-on-error: exit %d" % run.returncode)

    # A runner without jq (or curl) warns and exits 0: every other tool
    # the script uses is on PATH.
    nojq = os.path.join(tmp, "nojq")
    os.makedirs(nojq, exist_ok=True)
    for tool in ("sh", "busybox", "curl", "mktemp", "rm", "tr", "cut", "sed",
                 "grep", "head", "cp", "cat"):
        path = shutil.which(tool)
        link = os.path.join(nojq, tool)
        if path and not os.path.exists(link):
            os.symlink(path, link)
    mock.setup({})
    run = comment(dict(env, PATH=nojq), [findings[0]], tmp)
    check(run.returncode == 0 and run.stdout.startswith(
        "::warning title=ndplint comment::jq is not installed") and
        not mock.state()["requests"],
        "github without jq: exit %d, %r" % (run.returncode, run.stdout))

    # Usage errors are the script's own: exit 2.
    for args in ([os.path.join(tmp, "missing.md")],
                 ["--mode", "sometimes", findings[0]],
                 ["--platform", "bitbucket", findings[0]],
                 [findings[0], clean[0]], ["--bogus", findings[0]]):
        run = comment(env, args, tmp)
        check(run.returncode == 2, "usage %r: exit %d" % (args,
                                                          run.returncode))


def run_github_author(mock, tmp, findings):
    """Whose comments are ours on GitHub: the login GET /user names (a
    personal access token), GraphQL's viewer where /user is refused (an
    App's installation token, the job's GITHUB_TOKEN), or
    NDPLINT_COMMENT_AUTHOR, which wins and asks nothing.  A comment with
    the marker by any other login is left alone."""
    env = github_env(tmp, mock.url, {"pull_request": {"number": 42}})
    marker = "<!-- ndplint: workflow=AKS_reimage_check job=ndplint dir=. -->"
    lst = "/repos/octo/infra/issues/42/comments?per_page=100&page=1"

    def by(cid, login):
        return {"id": cid, "body": marker + "\nold", "user": {"login": login}}

    def run_with(name, seed, env, want, edited=None):
        """One update run: its requests must be WANT; the comment EDITED
        (an id) alone has the report, or with None one comment was
        created and none edited."""
        mock.setup(seed)
        run = comment(env, [findings[0]], tmp)
        st = mock.state()
        reqs = [(r["method"], r["path"]) for r in st["requests"]]
        check(run.returncode == 0 and reqs == want,
              "%s: exit %d, requests %r, %r" % (name, run.returncode, reqs,
                                              run.stdout))
        before = {c["id"]: c for c in seed["github"]}
        for c in st["github"]:
            now = c["body"] == marker + "\n" + findings[1]
            if c["id"] in before:
                check(now == (c["id"] == edited),
                      "%s: comment %d by %s %s" % (
                          name, c["id"], c["user"]["login"],
                          "changed" if now else "not updated"))
            else:
                check(edited is None and now,
                      "%s: comment %d created" % (name, c["id"]))
        return st

    # A personal access token: /user names octo-pat, whose comment is
    # edited; github-actions[bot]'s and mallory's, with the marker, stay.
    pat = {"github_user": "octo-pat",
           "github": [by(2, "github-actions[bot]"), by(3, "mallory"),
                      by(9, "octo-pat")]}
    run_with("github PAT", pat, env,
             [("GET", "/user"), ("GET", lst),
              ("PATCH", "/repos/octo/infra/issues/comments/9")], 9)
    # No comment of octo-pat's: one is created, the bot's is not touched.
    run_with("github PAT, only the bot's", dict(pat, github=pat["github"][:2]),
             env, [("GET", "/user"), ("GET", lst),
                   ("POST", "/repos/octo/infra/issues/42/comments")])
    # An App's installation token: /user answers 403, GraphQL's viewer
    # names the App's bot; the job token's comment is someone else's.
    app = {"github_app": "ndplint-app[bot]",
           "github": [by(2, "github-actions[bot]"), by(9, "ndplint-app[bot]")]}
    st = run_with("github App token", app, env,
                  [("GET", "/user"), ("POST", "/graphql"), ("GET", lst),
                   ("PATCH", "/repos/octo/infra/issues/comments/9")], 9)
    query = [r for r in st["requests"] if r["path"] == "/graphql"]
    check(query and query[0]["headers"].get("Authorization") ==
          "Bearer ghs_secret123" and
          "viewer" in json.loads(query[0]["body"] or "{}").get("query", ""),
          "github App token: the GraphQL request %r" % query[:1])
    # GitHub Enterprise Server: REST under /api/v3, GraphQL at /api/graphql
    # of the same host.
    ghes = dict(env, GITHUB_API_URL=mock.url + "/api/v3/")
    run_with("github Enterprise Server", app, ghes,
             [("GET", "/api/v3/user"), ("POST", "/api/graphql"),
              ("GET", "/api/v3" + lst),
              ("PATCH", "/api/v3/repos/octo/infra/issues/comments/9")], 9)
    # Neither /user nor GraphQL names a login: nothing is guessed, nothing
    # posted; a warning, and exit 1 with --fail-on-error.
    for flags, want in (([], 0), (["--fail-on-error"], 1)):
        mock.setup({"github_app": "",
                    "github": [by(9, "github-actions[bot]")]})
        run = comment(env, flags + [findings[0]], tmp)
        st = mock.state()
        check(run.returncode == want and
              run.stdout.startswith("::warning title=ndplint comment::") and
              [r["method"] for r in st["requests"]] == ["GET", "POST"] and
              st["github"][0]["body"] == marker + "\nold",
              "github no login %s: exit %d, %r, %r" % (
                  " ".join(flags), run.returncode, run.stdout,
                  [r["path"] for r in st["requests"]]))
    # NDPLINT_COMMENT_AUTHOR wins: nothing is asked, team-bot's comment
    # is edited, and octo-pat's (the token's, by /user) is not.
    run_with("github NDPLINT_COMMENT_AUTHOR",
             {"github_user": "octo-pat",
              "github": [by(3, "octo-pat"), by(9, "team-bot")]},
             dict(env, NDPLINT_COMMENT_AUTHOR="team-bot"),
             [("GET", lst),
              ("PATCH", "/repos/octo/infra/issues/comments/9")], 9)


def run_gitlab(mock, tmp, findings, clean):
    env = {"PATH": os.environ["PATH"], "GITLAB_CI": "true",
           "CI_API_V4_URL": mock.url + "/api/v4", "CI_PROJECT_ID": "17",
           "CI_MERGE_REQUEST_IID": "5", "NDPLINT_GITLAB_TOKEN": "glpat-xyz",
           "CI_JOB_NAME": "ndplint", "CI_PROJECT_DIR": tmp}
    marker = "<!-- ndplint: pipeline=.gitlab-ci.yml job=ndplint dir=. -->"
    system = {"id": 1, "body": "added 1 commit", "system": True,
              "author": {"id": 3}}
    ours = {"id": 8, "body": marker + "\nold", "system": False,
            "author": {"id": comment_mock.GITLAB_USER}}
    mock.setup({"gitlab": [system, system, system, ours]})
    update = first_update(mock, env, tmp, findings[0], "gitlab")
    if update is None:
        return
    reqs, st, run = update
    base = "/api/v4/projects/17/merge_requests/5/notes"
    check(reqs == [("GET", "/api/v4/user"),
                   ("GET", base + "?sort=asc&order_by=created_at"
                    "&per_page=100&page=1"),
                   ("GET", base + "?sort=asc&order_by=created_at"
                    "&per_page=100&page=2"),
                   ("PUT", base + "/8")], "gitlab update: %r" % reqs)
    last = st["requests"][-1]
    check(last["headers"].get("PRIVATE-TOKEN") == "glpat-xyz",
          "gitlab: the PRIVATE-TOKEN header")
    check(last["body"] and json.loads(last["body"])["body"] ==
          marker + "\n" + findings[1], "gitlab update: the body")
    mock.setup({})
    comment(env, [findings[0]], tmp)
    comment(env, [clean[0]], tmp)
    st = mock.state()
    ndp = mine(st["gitlab"])
    check([r["method"] for r in st["requests"]] ==
          ["GET", "GET", "POST", "GET", "GET", "PUT"],
          "gitlab create/re-run: %r" % [r["method"] for r in st["requests"]])
    check(len(ndp) == 1 and ndp[0]["body"] == marker + "\n" + clean[1],
          "gitlab re-run: %d notes, or not the clean report" % len(ndp))
    mock.setup({"fail": 404})
    run = comment(env, [findings[0]], tmp)
    check(run.returncode == 0 and
          run.stdout.startswith("ndplint comment: warning: "),
          "gitlab 404: exit %d, %r" % (run.returncode, run.stdout))
    mock.setup({})
    run = comment(dict(env, CI_MERGE_REQUEST_IID=""), [findings[0]], tmp)
    check(run.returncode == 0 and not mock.state()["requests"],
          "gitlab branch pipeline: exit %d" % run.returncode)


def azure_env(mock, tmp):
    """An Azure Pipelines pull request build against the mock."""
    return {"PATH": os.environ["PATH"], "TF_BUILD": "True",
            "SYSTEM_COLLECTIONURI": mock.url + "/org/",
            "SYSTEM_TEAMPROJECTID": "proj-1", "BUILD_REPOSITORY_ID": "repo-2",
            "SYSTEM_PULLREQUEST_PULLREQUESTID": "31",
            "SYSTEM_ACCESSTOKEN": "azp-token", "BUILD_DEFINITIONNAME": "infra",
            "SYSTEM_JOBNAME": "ndplint", "BUILD_SOURCESDIRECTORY": tmp}


def run_azure(mock, tmp, findings, clean):
    env = azure_env(mock, tmp)
    marker = "<!-- ndplint: pipeline=infra job=ndplint dir=. -->"
    me = {"id": comment_mock.AZURE_USER}
    forged = {"id": 3, "comments": [{"id": 1, "content": marker + "\nok",
                                     "author": {"id": "someone"}}]}
    ours = {"id": 4, "comments": [{"id": 1, "content": marker + "\nold",
                                   "author": me},
                                  {"id": 2, "content": "a reply",
                                   "author": {"id": "someone"}}]}
    mock.setup({"azure": [forged, ours]})
    update = first_update(mock, env, tmp, findings[0], "azure")
    if update is None:
        return
    reqs, st, run = update
    base = "/org/proj-1/_apis/git/repositories/repo-2/pullRequests/31/threads"
    check(reqs == [("GET", "/org/_apis/connectionData"),
                   ("GET", base + "?api-version=7.1"),
                   ("PATCH", base + "/4/comments/1?api-version=7.1")],
          "azure update: %r" % reqs)
    last = st["requests"][-1]
    check(last["headers"].get("Authorization") == "Bearer azp-token",
          "azure: the bearer token header")
    check(last["body"] and json.loads(last["body"])["content"] ==
          marker + "\n" + findings[1], "azure update: the body")
    check(st["azure"][0]["comments"][0]["content"] == marker + "\nok",
          "azure: someone else's thread was changed")
    mock.setup({})
    comment(env, [findings[0]], tmp)
    comment(env, [clean[0]], tmp)
    st = mock.state()
    check([r["method"] for r in st["requests"]] ==
          ["GET", "GET", "POST", "GET", "GET", "PATCH"],
          "azure create/re-run: %r" % [r["method"] for r in st["requests"]])
    post = [r for r in st["requests"] if r["method"] == "POST"]
    if post:
        sent = json.loads(post[0]["body"])
        check(sent.get("status") == 1 and
              sent["comments"][0]["parentCommentId"] == 0 and
              sent["comments"][0]["content"] == marker + "\n" + findings[1],
              "azure create: the thread %r" % post[0]["body"][:200])
    check(len(st["azure"]) == 1 and
          st["azure"][0]["comments"][0]["content"] == marker + "\n" + clean[1],
          "azure re-run: %d threads, or not the clean report" %
          len(st["azure"]))
    mock.setup({"fail": 500})
    run = comment(env, [findings[0]], tmp)
    check(run.returncode == 0 and run.stdout.startswith(
        "##vso[task.logissue type=warning]ndplint comment: "),
        "azure 500: exit %d, %r" % (run.returncode, run.stdout))


def not_posted(env, args, tmp, seed, mock, name, status, words=()):
    """A run whose requests are answered as SEED has it, with statuses of
    success that are not one: the warning names STATUS (and WORDS), no
    line says a comment was created or updated, exit 0, and 1 with
    --fail-on-error."""
    warning = {"TF_BUILD": "##vso[task.logissue type=warning]"
                           "ndplint comment: ",
               "GITHUB_ACTIONS": "::warning title=ndplint comment::",
               "GITLAB_CI": "ndplint comment: warning: "}
    prefix = [w for k, w in warning.items() if k in env][0]
    for flags, want in (([], 0), (["--fail-on-error"], 1)):
        mock.setup(seed)
        run = comment(env, flags + args, tmp)
        said = [line for line in run.stdout.splitlines()
                if line.startswith(("ndplint comment: created",
                                    "ndplint comment: updated"))]
        check(run.returncode == want and run.stdout.startswith(prefix) and
              ("HTTP %d" % status) in run.stdout and
              all(w in run.stdout for w in words) and not said,
              "%s %s: exit %d (want %d), %r" % (name, " ".join(flags),
                                              run.returncode, want,
                                              run.stdout))


def run_not_success(mock, tmp, findings):
    """Answers that are not the API's success though their status is 2xx:
    Azure DevOps answers a token it does not accept with 203 and an HTML
    sign-in page (nothing is done), and a 200 whose body is not JSON (a
    proxy's page) is no comment created or updated either."""
    marker = "<!-- ndplint: pipeline=infra job=ndplint dir=. -->"
    ours = {"id": 4, "comments": [{"id": 1, "content": marker + "\nold",
                                   "author": {"id": comment_mock.AZURE_USER}}]}
    env = azure_env(mock, tmp)
    sign_in = ("HTTP 203", "sign-in page")
    new = ["--mode", "new", findings[0]]
    # 203 to every request: new mode (the thread's POST), update mode
    # (connectionData), and only the edit of the thread found.
    not_posted(env, new, tmp, {"page": {"status": 203}}, mock,
               "azure 203 new", 203, sign_in)
    not_posted(env, [findings[0]], tmp, {"azure": [ours],
                                         "page": {"status": 203}}, mock,
               "azure 203 update", 203, sign_in)
    not_posted(env, [findings[0]], tmp,
               {"azure": [ours], "page": {"status": 203,
                                          "methods": ["PATCH"]}},
               mock, "azure 203 to the edit", 203, sign_in)
    # 200 with a page that is not JSON: the thread's POST, the edit, and
    # connectionData.
    not_json = ("HTTP 200", "not with JSON")
    not_posted(env, new, tmp, {"page": {"status": 200, "methods": ["POST"]}},
               mock, "azure 200 HTML new", 200, not_json)
    not_posted(env, [findings[0]], tmp,
               {"azure": [ours], "page": {"status": 200,
                                          "methods": ["PATCH"]}},
               mock, "azure 200 HTML to the edit", 200, not_json)
    not_posted(env, [findings[0]], tmp,
               {"azure": [ours], "page": {"status": 200,
                                          "methods": ["GET"]}},
               mock, "azure 200 HTML connectionData", 200, not_json)
    # GitHub: a comment is created with 201, 200 or 203 is not that; an
    # edit is answered with 200 and the comment, not a page.
    env = github_env(tmp, mock.url, {"pull_request": {"number": 42}})
    ours = {"id": 9, "user": {"login": "github-actions[bot]"},
            "body": "<!-- ndplint: workflow=AKS_reimage_check job=ndplint "
                    "dir=. -->\nold"}
    for status in (200, 203):
        not_posted(env, new, tmp, {"page": {"status": status,
                                            "methods": ["POST"]}},
                   mock, "github %d new" % status, status, ("not 201",))
    not_posted(env, [findings[0]], tmp,
               {"github": [ours], "page": {"status": 200,
                                           "methods": ["PATCH"]}},
               mock, "github 200 HTML to the edit", 200, not_json)
    # GitLab: the same for a note.
    env = {"PATH": os.environ["PATH"], "GITLAB_CI": "true",
           "CI_API_V4_URL": mock.url + "/api/v4", "CI_PROJECT_ID": "17",
           "CI_MERGE_REQUEST_IID": "5", "NDPLINT_GITLAB_TOKEN": "glpat-xyz",
           "CI_JOB_NAME": "ndplint", "CI_PROJECT_DIR": tmp}
    ours = {"id": 8, "system": False,
            "author": {"id": comment_mock.GITLAB_USER},
            "body": "<!-- ndplint: pipeline=.gitlab-ci.yml job=ndplint "
                    "dir=. -->\nold"}
    not_posted(env, [findings[0]], tmp, {"page": {"status": 203}}, mock,
               "gitlab 203 update", 203, ("not 200",))
    not_posted(env, new, tmp, {"page": {"status": 200, "methods": ["POST"]}},
               mock, "gitlab 200 new", 200, ("not 201",))
    not_posted(env, [findings[0]], tmp,
               {"gitlab": [ours], "page": {"status": 200,
                                           "methods": ["PUT"]}},
               mock, "gitlab 200 HTML to the edit", 200, not_json)

def run_hostile(mock, tmp, findings):
    """What an earlier step of the job (the pull request's code, without
    the token) or a crafted API answer could do: a ~/.curlrc that follows
    a redirect to another host, a ~/.jq that copies the token into the
    body, ids that are not whole numbers, items that are not objects."""
    home = os.path.join(tmp, "home")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, ".curlrc"), "w") as f:
        f.write("location\nlocation-trusted\n")
    with open(os.path.join(home, ".jq"), "w") as f:
        f.write("def length: 1000000000; def join($x): env.GITHUB_TOKEN;\n")
    env = dict(github_env(tmp, mock.url, {"pull_request": {"number": 42}}),
               HOME=home)
    other = comment_mock.Mock()
    try:
        mock.setup({"redirect": other.url + "/steal"})
        other.setup({})
        run = comment(env, [findings[0]], tmp)
        sent = other.state()["requests"]
        check(run.returncode == 0 and not sent and "HTTP 302" in run.stdout,
              "a ~/.curlrc made curl follow a redirect to another host: %d "
              "requests there, %r" % (len(sent), run.stdout))
    finally:
        other.close()
    mock.setup({})
    comment(env, [findings[0]], tmp)
    posted = [r["body"] for r in mock.state()["requests"]
              if r["method"] == "POST" and r["path"].endswith("/comments")]
    check(posted and "ghs_secret123" not in posted[0] and
          findings[1] in json.loads(posted[0])["body"],
          "a ~/.jq changed the body: %r" % (posted[:1],))

    # Ids that are not whole numbers, and items that are not comments:
    # nothing is edited, one comment is created, jq says nothing.
    marker = "<!-- ndplint: workflow=AKS_reimage_check job=ndplint dir=. -->"
    bot = {"login": "github-actions[bot]"}
    odd = [1, "::error::x", None, {"id": 3, "body": 5, "user": "x"},
           {"id": 1.5, "body": marker, "user": bot},
           {"id": 1e300, "body": marker, "user": bot},
           {"id": -3, "body": marker, "user": bot},
           {"id": "7", "body": marker, "user": bot}]
    mock.setup({"github": odd})
    run = comment(dict(env, HOME=tmp), [findings[0]], tmp)
    reqs = [(r["method"], r["path"]) for r in mock.state()["requests"]]
    check(run.returncode == 0 and run.stderr == "" and
          [m for m, _ in reqs] == ["GET", "POST", "GET", "GET", "GET",
                                   "POST"],
          "github odd ids: %r, stderr %r" % (reqs, run.stderr[:200]))


def run_sizes(mock, tmp):
    """The limit as each platform counts it, and a cost linear in the
    report: a 4 MB report cut to GitLab's 1,000,000 characters in
    seconds, and a report of characters beyond U+FFFF cut to Azure's
    150,000 UTF-16 code units."""
    big = os.path.join(tmp, "huge.md")
    with open(big, "w", encoding="utf-8") as f:
        for i in range(250000):
            f.write("| row %d | x |\n" % i)
    env = {"PATH": os.environ["PATH"], "GITLAB_CI": "true",
           "CI_API_V4_URL": mock.url + "/api/v4", "CI_PROJECT_ID": "17",
           "CI_MERGE_REQUEST_IID": "5", "NDPLINT_GITLAB_TOKEN": "glpat-xyz",
           "CI_JOB_NAME": "ndplint", "CI_PROJECT_DIR": tmp}
    mock.setup({})
    started = time.monotonic()
    run = comment(dict(env), ["--mode", "new", big], tmp)
    took = time.monotonic() - started
    notes = mock.state()["gitlab"]
    body = notes[0]["body"] if notes else ""
    check(run.returncode == 0 and 900000 < len(body) <= 1000000 and
          took < 30, "gitlab 4 MB report: %d characters in %.1f s" %
          (len(body), took))

    # A long line after the last one that fits is cut between two
    # characters, not left out: the body comes to the limit but for the
    # note (it used to stop before the line, far below).
    long_line = os.path.join(tmp, "long-line.md")
    with open(long_line, "w", encoding="utf-8") as f:
        for i in range(20):
            f.write("| row %d | x |\n" % i)
        f.write("\u00e9" * 1200000 + "\n| after | x |\n")
    mock.setup({})
    run = comment(dict(env), ["--mode", "new", long_line], tmp)
    notes = mock.state()["gitlab"]
    body = notes[0]["body"] if notes else ""
    check(run.returncode == 0 and 999800 < len(body) <= 1000000 and
          "| row 19 | x |" in body and "| after |" not in body and
          "report was cut" in body,
          "gitlab long last line: %d characters" % len(body))

    wide = os.path.join(tmp, "wide.md")
    with open(wide, "w", encoding="utf-8") as f:
        # 6,000 lines: about 120,000 characters but 180,000 UTF-16 units.
        for i in range(6000):
            f.write("row %04d %s\n" % (i, "\U0001F680" * 10))
    env = azure_env(mock, tmp)
    mock.setup({})
    comment(env, ["--mode", "new", wide], tmp)
    threads = mock.state()["azure"]
    text = threads[0]["comments"][0]["content"] if threads else ""
    units = len(text.encode("utf-16-le")) // 2
    check(140000 < units <= 150000 and "report was cut" in text,
          "azure: %d UTF-16 code units (%d characters)" % (units, len(text)))


def main():
    for tool in ("curl", "jq"):
        if subprocess.run(["sh", "-c", "command -v " + tool],
                          capture_output=True).returncode:
            print("comment: %s is not installed: skipped" % tool)
            return 77
    mock = comment_mock.Mock()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = os.path.realpath(tmp)
            findings = write_report(tmp, "findings.md", "example-plan.json", 1)
            clean = write_report(tmp, "clean.md", "allow-negative.json", 0)
            big = os.path.join(tmp, "big.md")
            with open(big, "w", encoding="utf-8") as f:
                for i in range(3000):
                    f.write("| row %d | é → ü | %s |\n" % (i, "x" * 20))
            if findings[1] is None or clean[1] is None:
                problems.append("no reports to post")
            else:
                global SHELL
                for shell in [["sh"]] + other_shells():
                    SHELL = shell
                    before = len(problems)
                    run_github(mock, tmp, findings, clean, big)
                    run_github_author(mock, tmp, findings)
                    run_gitlab(mock, tmp, findings, clean)
                    run_azure(mock, tmp, findings, clean)
                    run_not_success(mock, tmp, findings)
                    run_hostile(mock, tmp, findings)
                    run_sizes(mock, tmp)
                    problems[before:] = ["%s: %s" % (" ".join(shell), p)
                                         for p in problems[before:]]
                    print("comment: ran under %s" % " ".join(shell))
    finally:
        mock.close()
    for p in problems:
        print("comment: " + p)
    print("comment: %d checks, %d failed" % (checks, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
