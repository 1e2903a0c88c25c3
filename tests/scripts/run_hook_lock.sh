#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pre-commit hook's build lock recovers from a killed build: a lock
# directory left by a builder that is gone is taken over, and the hook
# builds and runs.  cmake and pkg-config are stand-ins here, so the test
# needs no compiler; 'timeout' ends a hook that would wait forever.
#   usage: run_hook_lock.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/repo/ci/pre-commit" "$tmp/bin"
cp "$src/ci/pre-commit/ndplint-hook.sh" "$tmp/repo/ci/pre-commit/"
cat > "$tmp/bin/pkg-config" <<'STUB'
#!/bin/sh
exit 0
STUB
cat > "$tmp/bin/cmake" <<'STUB'
#!/bin/sh
# -S SRC -B DIR: configure; --build DIR: write DIR/ndplint.
if [ "$1" = --build ]; then
    mkdir -p "$2"
    printf '#!/bin/sh\necho "stand-in ndplint $*"\n' > "$2/ndplint"
    chmod +x "$2/ndplint"
fi
exit 0
STUB
chmod +x "$tmp/bin/pkg-config" "$tmp/bin/cmake"
unset NDPLINT
failed=0

# A builder that is gone: the PID of a finished process.
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir "$tmp/repo/build-pre-commit.lock"
echo "$dead" > "$tmp/repo/build-pre-commit.lock/pid"
PATH="$tmp/bin:$PATH" timeout 30 sh "$tmp/repo/ci/pre-commit/ndplint-hook.sh" \
    plan.json > "$tmp/out" 2>&1
got=$?
if [ "$got" != 0 ] || ! grep -q 'stand-in ndplint plan.json' "$tmp/out" ||
    [ -e "$tmp/repo/build-pre-commit.lock" ]; then
    echo "hook_lock: stale lock of a gone builder: exit $got, output:"
    cat "$tmp/out"
    failed=$((failed + 1))
fi

# A live builder's lock is waited for, not taken over.
rm -rf "$tmp/repo/build-pre-commit"
mkdir "$tmp/repo/build-pre-commit.lock"
echo $$ > "$tmp/repo/build-pre-commit.lock/pid"
PATH="$tmp/bin:$PATH" timeout 3 sh "$tmp/repo/ci/pre-commit/ndplint-hook.sh" \
    plan.json > "$tmp/out" 2>&1
got=$?
if [ "$got" != 124 ]; then
    echo "hook_lock: a live builder's lock was not waited for: exit $got"
    cat "$tmp/out"
    failed=$((failed + 1))
fi
echo "hook_lock: $failed failed"
[ "$failed" = 0 ]
