#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A loopback stand-in for the comment APIs ci/comment.sh talks to: GitHub
issue comments, GitLab merge request notes and Azure Repos pull request
threads, on 127.0.0.1 at a port the OS chooses.  It records every request
(method, path, headers, body) and keeps the comments in memory, serving
the lists in short pages (GitHub's Link header, GitLab's X-Next-Page) so
that pagination is exercised.

Control, for the tests: GET /_mock/state gives the requests and the
comments; POST /_mock/setup replaces them with its JSON body:
  {"github": [COMMENT...], "gitlab": [NOTE...], "azure": [THREAD...],
   "github_user": LOGIN,  (GET /user answers 200 with it, as for a
                           personal access token; without it 403, as
                           for an installation token)
   "github_app": LOGIN,   (GraphQL's viewer, default github-actions[bot],
                           the job token's; "" answers with an error)
   "fail": STATUS or 0,   (every API request answers STATUS)
   "page": {"status": STATUS, "methods": [METHOD...]}}
  page: the requests of those methods (all when none are named) answer
  STATUS with an HTML sign-in page, as Azure DevOps answers a token it
  does not accept (203), or a proxy its own page (200)

Used as a module (Mock(), .url, .state(), .setup(), .close(); run_twice())
by comment_check.py and the recipe tests, and as a program by
run_action.sh:
    usage: comment_mock.py PORT_FILE   (serves until killed)
"""
import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PAGE = 3  # items per page, whatever per_page asks: pagination is exercised
GITLAB_USER = 7
AZURE_USER = "0d7c1f7a-build-service"

GH_LIST = re.compile(r"^/repos/([^/]+)/([^/]+)/issues/(\d+)/comments$")
GH_ONE = re.compile(r"^/repos/([^/]+)/([^/]+)/issues/comments/(\d+)$")
GL_LIST = re.compile(r"^/api/v4/projects/(\d+)/merge_requests/(\d+)/notes$")
GL_ONE = re.compile(r"^/api/v4/projects/(\d+)/merge_requests/(\d+)/notes/(\d+)$")
# What Azure DevOps sends, with status 203, for a token it does not accept.
SIGN_IN = """<!DOCTYPE html>
<html><head><title>Azure DevOps Services | Sign In</title></head>
<body><form action="https://login.microsoftonline.com/">Sign in</form>
</body></html>
"""
AZ_BASE = r"^/org/([^/]+)/_apis/git/repositories/([^/]+)/pullRequests/(\d+)"
AZ_LIST = re.compile(AZ_BASE + r"/threads$")
AZ_ONE = re.compile(AZ_BASE + r"/threads/(\d+)/comments/(\d+)$")


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset({})

    def reset(self, seed):
        self.requests = []
        self.github = list(seed.get("github", []))
        self.gitlab = list(seed.get("gitlab", []))
        self.azure = list(seed.get("azure", []))
        self.fail = int(seed.get("fail", 0))
        self.redirect = seed.get("redirect", "")
        self.page = seed.get("page") or {}
        self.github_user = seed.get("github_user")
        self.github_app = seed.get("github_app", "github-actions[bot]")
        self.next_id = 1000

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def dump(self):
        return {"requests": self.requests, "github": self.github,
                "gitlab": self.gitlab, "azure": self.azure}


def page_of(items, query):
    page = int((query.get("page") or ["1"])[0])
    start = (page - 1) * PAGE
    return page, items[start:start + PAGE], start + PAGE < len(items)


class Handler(BaseHTTPRequestHandler):
    server_version = "comment-mock"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def reply_page(self, status):
        data = SIGN_IN.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        st = self.server.state
        with st.lock:
            if url.path == "/_mock/state":
                return self.reply(200, st.dump())
            if url.path == "/_mock/setup":
                st.reset(json.loads(raw or "{}"))
                return self.reply(200, {})
            st.requests.append({"method": self.command, "path": self.path,
                                "headers": dict(self.headers.items()),
                                "body": raw})
            if st.fail:
                return self.reply(st.fail, {"message": "refused"})
            if st.page and self.command in st.page.get(
                    "methods", [self.command]):
                return self.reply_page(int(st.page["status"]))
            if st.redirect:
                return self.reply(302, {}, [("Location", st.redirect)])
            body = json.loads(raw) if raw else None
            for route in (self.github, self.gitlab, self.azure):
                done = route(st, url.path, query, body)
                if done:
                    return self.reply(*done)
            return self.reply(404, {"message": "Not Found"})

    def github(self, st, path, query, body):
        # The paths of api.github.com, or of GitHub Enterprise Server
        # (/api/v3 for REST, /api/graphql).
        if path.startswith("/api/v3/"):
            path = path[len("/api/v3"):]
        if path == "/user" and self.command == "GET":
            if st.github_user:
                return 200, {"login": st.github_user, "type": "User"}
            return 403, {"message": "Resource not accessible by integration",
                         "status": "403"}
        if path in ("/graphql", "/api/graphql") and self.command == "POST":
            if st.github_user or st.github_app:
                login = st.github_user or st.github_app
                return 200, {"data": {"viewer": {"login": login}}}
            return 200, {"data": None, "errors": [
                {"type": "FORBIDDEN", "message": "not for this token"}]}
        if GH_LIST.match(path) and self.command == "GET":
            page, items, more = page_of(st.github, query)
            link = []
            if more:
                link = [("Link", '<http://x/?page=%d>; rel="next"' % (page + 1))]
            return 200, items, link
        if GH_LIST.match(path) and self.command == "POST":
            c = {"id": st.new_id(), "body": body["body"],
                 "user": {"login": st.github_user or st.github_app}}
            st.github.append(c)
            return 201, c
        m = GH_ONE.match(path)
        if m and self.command == "PATCH":
            for c in st.github:
                if c["id"] == int(m.group(3)):
                    c["body"] = body["body"]
                    return 200, c
            return 404, {"message": "Not Found"}
        return None

    def gitlab(self, st, path, query, body):
        if path == "/api/v4/user" and self.command == "GET":
            return 200, {"id": GITLAB_USER, "username": "project_1_bot"}
        if GL_LIST.match(path) and self.command == "GET":
            page, items, more = page_of(st.gitlab, query)
            return 200, items, [("X-Next-Page", str(page + 1) if more else "")]
        if GL_LIST.match(path) and self.command == "POST":
            n = {"id": st.new_id(), "body": body["body"], "system": False,
                 "author": {"id": GITLAB_USER}}
            st.gitlab.append(n)
            return 201, n
        m = GL_ONE.match(path)
        if m and self.command == "PUT":
            for n in st.gitlab:
                if n["id"] == int(m.group(3)):
                    n["body"] = body["body"]
                    return 200, n
            return 404, {"message": "404 Not found"}
        return None

    def azure(self, st, path, query, body):
        if path == "/org/_apis/connectionData" and self.command == "GET":
            return 200, {"authenticatedUser": {"id": AZURE_USER}}
        if AZ_LIST.match(path) and query.get("api-version"):
            if self.command == "GET":
                return 200, {"value": st.azure, "count": len(st.azure)}
            if self.command == "POST":
                comments = [dict(c, id=i + 1, author={"id": AZURE_USER})
                            for i, c in enumerate(body["comments"])]
                t = {"id": st.new_id(), "comments": comments,
                     "status": body.get("status")}
                st.azure.append(t)
                return 200, t
        m = AZ_ONE.match(path)
        if m and self.command == "PATCH" and query.get("api-version"):
            for t in st.azure:
                if t["id"] == int(m.group(4)):
                    for c in t["comments"]:
                        if c["id"] == int(m.group(5)):
                            c["content"] = body["content"]
                            return 200, c
            return 404, {"message": "not found"}
        return None

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any


class Mock:
    def __init__(self):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.state = State()
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       daemon=True)
        self.thread.start()

    def setup(self, seed):
        # A copy: the comments the mock edits are its own, not the test's.
        seed = json.loads(json.dumps(seed))
        with self.httpd.state.lock:
            self.httpd.state.reset(seed)

    def state(self):
        with self.httpd.state.lock:
            return json.loads(json.dumps(self.httpd.state.dump()))

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def run_twice(script, env_of, cwd):
    """Runs the shell SCRIPT twice with the environment env_of(URL) for a
    fresh mock at URL, as a re-run of a CI job would: the second run's
    result and the mock's state."""
    mock = Mock()
    try:
        env = env_of(mock.url)
        for _ in range(2):
            run = subprocess.run(["sh", "-c", script], cwd=cwd, env=env,
                                 capture_output=True, text=True)
        return run, mock.state()
    finally:
        mock.close()


def main(argv):
    if len(argv) != 2:
        print("usage: comment_mock.py PORT_FILE", file=sys.stderr)
        return 2
    mock = Mock()
    with open(argv[1] + ".tmp", "w") as f:
        f.write(mock.url + "\n")
    import os
    os.rename(argv[1] + ".tmp", argv[1])
    mock.thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
