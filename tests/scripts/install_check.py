#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ci/install.sh against a release served on 127.0.0.1.

Builds a release of NDPLINT (the program under test) in ci/release-build.sh's
layout (ndplint-VERSION-OS-ARCH.tar.gz holding bin/ndplint, the man pages
and LICENSE, and SHA256SUMS), serves it with Python's HTTP server on
127.0.0.1 at a port the OS chooses, and runs 'sh ci/install.sh' with
NDPLINT_RELEASE_URL pointing at it and a PATH that holds only the tools the
script may use (no compiler, no cmake, no make):

  good            installs bin/ndplint (the same bytes) and both man
                  pages under PREFIX, and says so; its time is printed
  v-prefixed      'vX.Y.Z' is taken as 'X.Y.Z'
  tampered        an archive whose bytes differ from SHA256SUMS: refused
                  with 'checksum mismatch', nothing installed
  replaced        a well-formed archive, but not the one SHA256SUMS names
                  (its LICENSE has one more byte): refused the same way
  no sums line    SHA256SUMS without the archive's line: refused
  missing asset   no archive for this platform in the release: refused
  no release      no SHA256SUMS at all (a version never released): refused
  unknown arch    'uname -m' says riscv64: refused before any download
  bad version     '0.1' is a usage error (exit 2)
  attestation     with a GitHub CLI (a stand-in 'gh' on the PATH) and
                  GH_TOKEN: 'gh attestation verify ARCHIVE --repo
                  ndplint/ndplint' is asked and installs when it says yes;
                  when it says no the archive is refused, nothing
                  installed; without gh, NDPLINT_ATTESTATION=require
                  refuses and the default says it was not checked
  cache           with NDPLINT_CACHE_DIR: the first run keeps the archive
                  there; the next installs it against a release that has
                  SHA256SUMS but no archive (so it was not downloaded); a
                  kept archive with other bytes is removed, said, and
                  downloaded again, or refused when the release has none;
                  a symbolic link there is refused

and the GitHub Action's install step as action.yml runs it
(ci/action/build.sh build DIR SRC with NDP_RELEASE): the good release
leaves DIR/ndplint, the same bytes; the tampered one fails the step with
the checksum message and a workflow error, and leaves no DIR/ndplint.

Each refusal leaves PREFIX without bin/ndplint.  Skipped (77) when neither
curl nor wget is installed, or on a platform with no release archive.
    usage: install_check.py NDPLINT SOURCE_DIR
"""
import functools
import hashlib
import http.server
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

TOOLS = ("sh", "uname", "tar", "gzip", "sha256sum", "cut", "awk", "grep",
         "mkdir", "mktemp", "rm", "cp", "chmod", "mv", "head", "cat",
         # the Action's ci/action/build.sh
         "bash", "tr", "dirname")
PLATFORMS = {("Linux", "x86_64"): "linux-x86_64",
             ("Linux", "aarch64"): "linux-aarch64",
             ("Darwin", "arm64"): "darwin-arm64",
             ("Darwin", "x86_64"): "darwin-x86_64"}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def add(tar, name, data, mode):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), mode, 0
    tar.addfile(info, io.BytesIO(data))


def archive(ndplint, src, name, tail=b""):
    """The bytes of NAME.tar.gz in ci/release-build.sh's layout; 'tail'
    is appended to its LICENSE."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        with open(ndplint, "rb") as f:
            add(tar, f"{name}/bin/ndplint", f.read(), 0o755)
        for page, path in (("man1/ndplint.1", "docs/man/ndplint.1"),
                           ("man5/ndplint.json.5", "docs/man/ndplint.json.5")):
            with open(os.path.join(src, path), "rb") as f:
                add(tar, f"{name}/share/man/{page}", f.read(), 0o644)
        with open(os.path.join(src, "LICENSE"), "rb") as f:
            add(tar, f"{name}/LICENSE", f.read() + tail, 0o644)
    return out.getvalue()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def sums(*entries):
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n"
                   for name, data in entries).encode()


def tool_path(work, fetcher, machine=None):
    """A directory of links to the tools install.sh may use, and nothing
    else; with 'machine', an uname that says Linux and that machine."""
    bindir = os.path.join(work, f"bin-{machine or 'host'}")
    os.makedirs(bindir)
    for tool in TOOLS + (fetcher,):
        found = shutil.which(tool)
        if found and not (machine and tool == "uname"):
            os.symlink(found, os.path.join(bindir, tool))
    if machine:
        fake = os.path.join(bindir, "uname")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\ncase "$1" in -m) echo %s ;; *) echo Linux ;; '
                    'esac\n' % machine)
        os.chmod(fake, 0o755)
    return bindir


def gh_path(work, host_path, answer):
    """host_path's tools and a stand-in 'gh' that logs its arguments to
    gh.log and answers 'attestation verify' with exit 'answer'."""
    bindir = os.path.join(work, f"bin-gh-{answer}")
    shutil.copytree(host_path, bindir, symlinks=True)
    fake = os.path.join(bindir, "gh")
    log = os.path.join(work, f"gh-{answer}.log")
    with open(fake, "w") as f:
        f.write('#!/bin/sh\ncase "$*" in *--help*) exit 0 ;; esac\n'
                f'echo "$*" >> "{log}"\nexit {answer}\n')
    os.chmod(fake, 0o755)
    return bindir, log


def attestation_cases(work, host_path, install, check, asset, version):
    token = {"GH_TOKEN": "t0ken"}
    for answer in (0, 1):
        path, log = gh_path(work, host_path, answer)
        case = f"attestation {'verifies' if answer == 0 else 'fails'}"
        done, prefix, _ = install(case.replace(" ", "-"), "good", version,
                                  path, token)
        asked = ""
        if os.path.exists(log):
            with open(log) as f:
                asked = f.read()
        installed = os.path.exists(os.path.join(prefix, "bin", "ndplint"))
        want_asked = re.compile(r"^attestation verify \S*/" + re.escape(asset)
                                + r" --repo ndplint/ndplint$", re.M)
        ok = (want_asked.search(asked) is not None and
              (done.returncode == 0 and installed and "verifies" in
               done.stdout if answer == 0 else
               done.returncode == 1 and not installed and
               "attestation" in done.stderr))
        check(case, ok, f"exit {done.returncode}, installed {installed}, "
              f"gh asked {asked!r}; {done.stdout}{done.stderr}")
    done, prefix, _ = install("attestation-required", "good", version,
                              host_path, {"NDPLINT_ATTESTATION": "require"})
    check("attestation required without gh", done.returncode == 1 and
          "NDPLINT_ATTESTATION=require" in done.stderr and
          not os.path.exists(os.path.join(prefix, "bin", "ndplint")),
          f"exit {done.returncode}; {done.stderr}")
    done, prefix, _ = install("attestation-default", "good", version)
    check("attestation default without gh", done.returncode == 0 and
          "attestation not checked" in done.stdout,
          f"exit {done.returncode}; {done.stdout}{done.stderr}")


def cache_cases(work, host_path, install, check, asset, version, good,
                tampered):
    cache = os.path.join(work, "cache")
    kept = os.path.join(cache, asset)
    extra = {"NDPLINT_CACHE_DIR": cache}

    def installed(prefix):
        return os.path.exists(os.path.join(prefix, "bin", "ndplint"))

    def kept_bytes():
        if os.path.isfile(kept) and not os.path.islink(kept):
            with open(kept, "rb") as f:
                return f.read()
        return None

    done, prefix, _ = install("cache-first", "good", version, extra=extra)
    check("cache first run", done.returncode == 0 and installed(prefix) and
          kept_bytes() == good, f"exit {done.returncode}, kept: "
          f"{kept_bytes() == good}; {done.stdout}{done.stderr}")
    done, prefix, _ = install("cache-hit", "missing", version, extra=extra)
    check("cache hit", done.returncode == 0 and installed(prefix) and
          "from NDPLINT_CACHE_DIR" in done.stdout,
          f"exit {done.returncode}; {done.stdout}{done.stderr}")
    write(kept, tampered)
    done, prefix, _ = install("cache-poisoned", "good", version, extra=extra)
    check("cache poisoned, downloaded again", done.returncode == 0 and
          installed(prefix) and "does not match SHA256SUMS" in done.stderr and
          kept_bytes() == good,
          f"exit {done.returncode}, kept good: {kept_bytes() == good}; "
          f"{done.stdout}{done.stderr}")
    write(kept, tampered)
    done, prefix, _ = install("cache-poisoned-offline", "missing", version,
                              extra=extra)
    check("cache poisoned, no archive to download", done.returncode == 1 and
          not installed(prefix) and kept_bytes() is None and
          "does not match SHA256SUMS" in done.stderr,
          f"exit {done.returncode}, installed {installed(prefix)}; "
          f"{done.stdout}{done.stderr}")
    target = os.path.join(work, "elsewhere.tar.gz")
    write(target, good)
    os.symlink(target, kept)
    done, prefix, _ = install("cache-symlink", "good", version, extra=extra)
    check("cache symbolic link", done.returncode == 1 and
          not installed(prefix) and "is a symbolic link" in done.stderr,
          f"exit {done.returncode}; {done.stdout}{done.stderr}")


def main():
    ndplint, src = sys.argv[1], sys.argv[2]
    fetcher = next((t for t in ("curl", "wget") if shutil.which(t)), None)
    if not fetcher:
        print("install_check: neither curl nor wget is installed: skipped")
        return 77
    uname = os.uname()
    platform = PLATFORMS.get((uname.sysname, uname.machine))
    if not platform:
        print(f"install_check: no release archive for {uname.sysname} "
              f"{uname.machine}: skipped")
        return 77
    with open(os.path.join(src, "CMakeLists.txt")) as f:
        version = re.search(r"project\(ndplint VERSION ([0-9.]+)",
                            f.read()).group(1)
    name = f"ndplint-{version}-{platform}"
    good = archive(ndplint, src, name)
    other = archive(ndplint, src, f"ndplint-{version}-linux-riscv")
    tampered = bytearray(good)
    tampered[len(tampered) // 2] ^= 0x01
    # A well-formed archive that is not the one SHA256SUMS names: only the
    # checksum tells them apart.
    replaced = archive(ndplint, src, name, tail=b"\n")

    work = tempfile.mkdtemp()
    try:
        return run(work, src, ndplint, fetcher, version, name, good, other,
                   bytes(tampered), replaced)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work, src, ndplint, fetcher, version, name, good, other, tampered,
        replaced):
    root = os.path.join(work, "www")
    tag = f"v{version}"
    asset = f"{name}.tar.gz"
    releases = {
        "good": {asset: good, "SHA256SUMS": sums((asset, good))},
        "tampered": {asset: tampered, "SHA256SUMS": sums((asset, good))},
        "replaced": {asset: replaced, "SHA256SUMS": sums((asset, good))},
        "nosums": {asset: good, "SHA256SUMS": sums(("other.tar.gz", other))},
        # SHA256SUMS names the archive, but the release does not hold it.
        "missing": {"SHA256SUMS": sums((asset, good))},
        "norelease": {},
    }
    for release, files in releases.items():
        os.makedirs(os.path.join(root, release, tag), exist_ok=True)
        for file, data in files.items():
            write(os.path.join(root, release, tag, file), data)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    host_path = tool_path(work, fetcher)
    odd_path = tool_path(work, fetcher, machine="riscv64")
    for compiler in ("cc", "gcc", "clang", "cmake", "make"):
        if shutil.which(compiler, path=host_path):
            print(f"install_check: {compiler} is on the test's PATH")
            return 1
    script = os.path.join(src, "ci", "install.sh")
    failed = []
    count = 0

    def install(case, release, arg, path=host_path, extra=None):
        prefix = os.path.join(work, "prefix-" + case)
        env = {"PATH": path, "PREFIX": prefix, "HOME": work,
               "NDPLINT_RELEASE_URL": f"{base}/{release}/"}
        env.update(extra or {})
        started = time.monotonic()
        done = subprocess.run(["sh", script, arg], env=env, cwd=work,
                              capture_output=True, text=True, timeout=120)
        took = time.monotonic() - started
        return done, prefix, took

    def check(case, ok, detail):
        nonlocal count
        count += 1
        if not ok:
            failed.append(f"{case}: {detail}")

    for case, arg in (("good", version), ("v-prefixed", f"v{version}")):
        done, prefix, took = install(case, "good", arg)
        installed = os.path.join(prefix, "bin", "ndplint")
        same = False
        if os.path.isfile(installed):
            with open(installed, "rb") as a, open(ndplint, "rb") as b:
                same = a.read() == b.read()
        pages = all(os.path.isfile(os.path.join(prefix, "share", "man", p))
                    for p in ("man1/ndplint.1", "man5/ndplint.json.5"))
        check(case, done.returncode == 0 and same and pages and
              os.access(installed, os.X_OK) and
              f"ndplint {version} in {prefix}/bin" in done.stdout,
              f"exit {done.returncode}, program installed and the same: "
              f"{same}, man pages: {pages}; {done.stdout}{done.stderr}")
        if case == "good" and done.returncode == 0:
            print(f"install_check: 'sh ci/install.sh {arg}' installed and "
                  f"verified {asset} in {took:.2f} s")

    refusals = (
        ("tampered", "tampered", version, host_path,
         f"checksum mismatch for {asset}"),
        ("replaced", "replaced", version, host_path,
         f"checksum mismatch for {asset}"),
        ("no sums line", "nosums", version, host_path,
         f"has no line for {asset}"),
        ("missing asset", "missing", version, host_path,
         f"cannot download {base}/missing/{tag}/{asset}"),
        ("no release", "norelease", version, host_path,
         f"cannot download {base}/norelease/{tag}/SHA256SUMS"),
        ("unknown arch", "good", version, odd_path,
         "no release archive for Linux riscv64"),
        ("bad version", "good", "0.1", host_path,
         "'0.1' is not X.Y.Z or vX.Y.Z"),
    )
    for case, release, arg, path, message in refusals:
        done, prefix, _ = install(case.replace(" ", "-"), release, arg, path)
        want = 2 if case == "bad version" else 1
        check(case, done.returncode == want and message in done.stderr and
              not os.path.exists(os.path.join(prefix, "bin", "ndplint")),
              f"exit {done.returncode} (want {want}), stderr "
              f"{done.stderr.strip()!r} (want {message!r}), "
              f"installed: {os.path.exists(os.path.join(prefix, 'bin'))}")

    attestation_cases(work, host_path, install, check, asset, version)
    cache_cases(work, host_path, install, check, asset, version, good,
                tampered)

    # The Action's step, as action.yml runs it.
    for case, release, want in (("action good", "good", 0),
                                ("action tampered", "tampered", 2)):
        out = os.path.join(work, case.replace(" ", "-"))
        env = {"PATH": host_path, "HOME": work, "NDP_RELEASE": version,
               "NDPLINT_RELEASE_URL": f"{base}/{release}/"}
        started = time.monotonic()
        done = subprocess.run(
            ["bash", os.path.join(src, "ci", "action", "build.sh"), "build",
             out, src], env=env, cwd=work, capture_output=True, text=True,
            timeout=120)
        took = time.monotonic() - started
        binary = os.path.join(out, "ndplint")
        text = done.stdout + done.stderr
        if want == 0:
            same = False
            if os.path.isfile(binary):
                with open(binary, "rb") as a, open(ndplint, "rb") as b:
                    same = a.read() == b.read()
            check(case, done.returncode == 0 and same,
                  f"exit {done.returncode}, the same program: {same}; {text}")
            if done.returncode == 0:
                print(f"install_check: the Action's install step took "
                      f"{took:.2f} s")
        else:
            check(case, done.returncode == want and
                  f"checksum mismatch for {asset}" in text and
                  "::error title=ndplint action::" in text and
                  not os.path.exists(binary),
                  f"exit {done.returncode} (want {want}), installed: "
                  f"{os.path.exists(binary)}; {text}")

    server.shutdown()
    for f in failed:
        print(f"install_check: {f}")
    print(f"install_check: {count - len(failed)} of {count} cases passed "
          f"({fetcher}, {base})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
