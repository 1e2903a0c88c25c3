#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The container image (Containerfile) as the release workflow builds it:
# the static binary of ci/release-build.sh for this machine, then 'podman
# build'.  The image must hold only /usr/bin/ndplint (the archive's
# binary, byte for byte) and the licence, run as user 65532:65532 (not
# root) with the entrypoint ["ndplint"]; then 'podman run' must print
# the version and lint fixtures/example-plan.json mounted read-only,
# with the exit status and report of the binary run outside.  Skipped (77)
# when podman is not installed (sh ci/install-deps.sh --cross), when it
# cannot build an image here, or, after the build and its checks passed,
# when it cannot run a container here (in a container without the right
# to set limits, for one): the message says which.
#   usage: run_container.sh SOURCE_DIR CMAKE
set -u
src=$1 cmake=$2

skip() {
    echo "container_image: $*: skipped"
    exit 77
}
command -v podman >/dev/null 2>&1 ||
    skip "podman is not installed (sh ci/install-deps.sh --cross)"
podman info > /dev/null 2>&1 || skip "'podman info' fails here"
case $(uname -s)/$(uname -m) in
Linux/x86_64) target=linux-x86_64 ;;
Linux/aarch64) target=linux-aarch64 ;;
*) skip "no release archive is built for $(uname -s) $(uname -m)" ;;
esac

work=$(mktemp -d) || exit 1
image=localhost/ndplint-container-test-$$
container=
cleanup() {
    [ -n "$container" ] && podman rm -f "$container" > /dev/null 2>&1
    podman rmi -f "$image" > /dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
failed=0
fail() {
    echo "container_image: $*"
    failed=$((failed + 1))
}

if ! CMAKE=$cmake sh "$src/ci/release-build.sh" -o "$work/dist" "$target" \
        > "$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "container_image: ci/release-build.sh $target failed"
    exit 1
fi
mkdir "$work/context" "$work/unpacked"
tar -xzf "$work"/dist/ndplint-*-"$target".tar.gz -C "$work/unpacked" || exit 1
set -- "$work"/unpacked/ndplint-*/bin/ndplint
binary=$1
cp "$binary" "$work/context/ndplint" && cp "$src/LICENSE" "$work/context/" ||
    exit 1

if ! podman build -q -f "$src/Containerfile" -t "$image" "$work/context" \
        > "$work/build.log" 2>&1; then
    if grep -qi 'permission\|not permitted\|overlay\|storage' "$work/build.log"
    then
        skip "podman cannot build images here: $(tail -1 "$work/build.log")"
    fi
    cat "$work/build.log"
    echo "container_image: podman build failed"
    exit 1
fi

config=$(podman image inspect "$image" \
    --format '{{.Config.User}}|{{json .Config.Entrypoint}}|{{.Config.Cmd}}')
[ "$config" = '65532:65532|["ndplint"]|[]' ] ||
    fail "the image's user|entrypoint|cmd is '$config'," \
         "not '65532:65532|[\"ndplint\"]|[]'"

# Its files, read without running it.
container=$(podman create "$image") || exit 1
podman export "$container" > "$work/image.tar" || exit 1
tar -tf "$work/image.tar" | grep -v '/$' | LC_ALL=C sort > "$work/files"
printf '%s\n' usr/bin/ndplint usr/share/doc/ndplint/LICENSE > "$work/expected"
cmp -s "$work/expected" "$work/files" ||
    fail "the image holds other files (- missing, + extra):
$(diff -u "$work/expected" "$work/files" | sed -n '4,$p')"
mkdir "$work/fs" && tar -xf "$work/image.tar" -C "$work/fs" usr/bin/ndplint &&
    cmp -s "$binary" "$work/fs/usr/bin/ndplint" ||
    fail "the image's /usr/bin/ndplint is not the archive's binary"
podman rm -f "$container" > /dev/null 2>&1
container=

if [ "$failed" != 0 ]; then
    echo "container_image: $failed failed"
    exit 1
fi

# Run: 125 to 127 are podman's own (it could not start the container).
podman run --rm "$image" --version > "$work/version" 2> "$work/run.err"
status=$?
if [ "$status" -ge 125 ]; then
    echo "container_image: built and checked (user 65532, entrypoint" \
         "ndplint, 2 files, the archive's binary)"
    skip "podman cannot run a container here (exit $status:" \
         "$(tail -1 "$work/run.err"))"
fi
version=$(sed -n 's/^project(ndplint VERSION \([0-9.]*\).*/\1/p' \
    "$src/CMakeLists.txt")
[ "$status" = 0 ] && [ "$(head -n 1 "$work/version")" = "ndplint $version" ] ||
    fail "'podman run IMAGE --version' exited $status and printed" \
         "'$(head -n 1 "$work/version")'"

(cd "$src/fixtures" && LC_ALL=C NO_COLOR=1 "$binary" --at 2026-01-05T10:00:00Z \
    example-plan.json > "$work/outside"; echo $? > "$work/outside.exit")
podman run --rm -v "$src/fixtures:/work:ro" -e LC_ALL=C -e NO_COLOR=1 \
    "$image" --at 2026-01-05T10:00:00Z example-plan.json > "$work/inside"
echo $? > "$work/inside.exit"
[ -s "$work/inside" ] && cmp -s "$work/outside" "$work/inside" &&
    cmp -s "$work/outside.exit" "$work/inside.exit" ||
    fail "the report in the container differs from the one outside" \
         "(exit $(cat "$work/inside.exit") inside, $(cat "$work/outside.exit")" \
         "outside)"

if [ "$failed" != 0 ]; then
    echo "container_image: $failed failed"
    exit 1
fi
echo "container_image: built, checked and run: user 65532, entrypoint" \
     "ndplint, the report of example-plan.json as outside"
