#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ci/release.sh in a throwaway clone holding the source tree as it is now
# (uncommitted changes committed there): it tags vVERSION, annotated, on a
# child of HEAD that adds ci/action/RELEASE alone, with the
# CHANGELOG section as its message; and it refuses, tagging nothing, a
# second tag, another version than project()'s, a 'v' in the argument, an
# unclean tree, a CHANGELOG without the section and a document pinning
# another version.  Git's global and system settings are left out, so a
# signing or hook setting of the machine plays no part.
#   usage: run_release.sh SOURCE_DIR
set -u
src=$1
for tool in git python3 tar; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "release: '$tool' is not installed: skipped"
        exit 77
    fi
done
if ! git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "release: $src is not a git work tree: skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null
repo=$tmp/repo
failed=0 runs=0
fail() {
    echo "release: $*"
    failed=$((failed + 1))
}

# A clone of HEAD, with the work tree's changes over it: what differs from
# HEAD and the new files (less the ignored) copied, the deleted removed.
git clone -q "$src" "$repo" && git -C "$repo" config user.name "ndplint test" &&
    git -C "$repo" config user.email "test@ndplint.invalid" || exit 1
git -C "$repo" tag | xargs -r git -C "$repo" tag -d >/dev/null
(cd "$src" && { git diff -z --name-only --diff-filter=d HEAD;
                git ls-files -z -o --exclude-standard; } |
     tar --null -T - -cf -) | tar -C "$repo" -xf - || exit 1
(cd "$src" && git diff -z --name-only --diff-filter=D HEAD) |
    (cd "$repo" && xargs -0 -r rm -f --)
commit() { # message [git commit options]
    git -C "$repo" add -A && git -C "$repo" commit -q -m "$@"
}
commit "the work tree" --allow-empty || exit 1
version=$(sed -n 's/^project(ndplint VERSION \([0-9.]*\).*/\1/p' \
          "$repo/CMakeLists.txt")

# $1: expected exit status, $2: what its message must say; the rest are
# release.sh's arguments.
release() {
    want=$1 says=$2
    shift 2
    runs=$((runs + 1))
    sh "$repo/ci/release.sh" "$@" > "$tmp/out" 2>&1
    got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$says" "$tmp/out"; then
        fail "release.sh $*: exit $got (want $want, saying '$says'):"
        sed 's/^/    /' "$tmp/out"
    fi
}
no_tag() {
    runs=$((runs + 1))
    [ -z "$(git -C "$repo" tag)" ] || fail "$1 left a tag: $(git -C "$repo" tag)"
}

release 2 usage
release 1 "'v$version' is not X.Y.Z" "v$version"
release 1 "project() says VERSION '$version', not 99.0.0" 99.0.0
no_tag "refusals"

echo scratch > "$repo/scratch.txt"
release 1 "not clean" "$version"
rm "$repo/scratch.txt"
no_tag "an unclean tree"

release 0 "tagged v$version" "$version"
runs=$((runs + 1))
[ "$(git -C "$repo" cat-file -t "v$version" 2>&1)" = tag ] ||
    fail "v$version is not an annotated tag"
# The tagged commit is HEAD's child and adds ci/action/RELEASE alone; the
# branch and the work tree stay as they were.
runs=$((runs + 1))
[ "$(git -C "$repo" rev-parse "v$version^{commit}^")" = \
  "$(git -C "$repo" rev-parse HEAD)" ] || fail "v$version is not on a child of HEAD"
runs=$((runs + 1))
[ "$(git -C "$repo" diff --name-status HEAD "v$version^{commit}")" = \
  "A	ci/action/RELEASE" ] ||
    fail "v$version's commit changes other than adding ci/action/RELEASE:" \
         "$(git -C "$repo" diff --name-status HEAD "v$version^{commit}")"
runs=$((runs + 1))
[ "$(git -C "$repo" show "v$version:ci/action/RELEASE")" = "$version" ] ||
    fail "ci/action/RELEASE at v$version is not '$version'"
runs=$((runs + 1))
[ ! -e "$repo/ci/action/RELEASE" ] &&
    [ -z "$(git -C "$repo" status --porcelain)" ] ||
    fail "release.sh changed the work tree: $(git -C "$repo" status --porcelain)"
git -C "$repo" tag -l --format='%(contents)' "v$version" > "$tmp/message"
runs=$((runs + 1))
[ "$(head -n 1 "$tmp/message")" = "ndplint $version" ] &&
    [ "$(wc -l < "$tmp/message")" -gt 3 ] && ! grep -q '^## ' "$tmp/message" ||
    fail "the tag's message is not the CHANGELOG section: $(cat "$tmp/message")"
release 1 "the tag v$version exists already" "$version"

git -C "$repo" tag -d "v$version" >/dev/null
sed "s/^## $version\$/## 0.0.0-draft/" "$repo/CHANGELOG.md" > "$tmp/cl" &&
    cp "$tmp/cl" "$repo/CHANGELOG.md" && commit "no section"
release 1 "CHANGELOG.md has no '## $version' section" "$version"
git -C "$repo" reset -q --hard HEAD~1

sed "s/ndplint@v$version/ndplint@v99.0.0/" "$repo/README.md" > "$tmp/readme" &&
    cp "$tmp/readme" "$repo/README.md" && commit "stale pin"
release 1 "the documents pin another version" "$version"
no_tag "a missing section or a stale pin"

echo "release: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]
