#!/bin/sh
# Installs the Debian packages ndplint needs to build and test, if missing.
# Used by ci/setup-and-run.sh, ci/test.sh and .ci/run; safe to run again.
set -eu
packages="gcc make cmake pkg-config libjson-c-dev libpcre2-dev libcmocka-dev
python3 python3-dateutil"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "ndplint: installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "ndplint: run as root or install sudo to install:$missing" >&2
    exit 1
fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
