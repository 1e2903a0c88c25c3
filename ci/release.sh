#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tags a release: checks that the working tree is clean, that VERSION is
# the one in CMakeLists.txt project(), that CHANGELOG.md has its section
# and that every vX.Y.Z the documents pin is this one
# (tests/scripts/version_refs.py), then creates the annotated tag
# vVERSION on HEAD with the CHANGELOG section as its message.  It pushes
# nothing.  docs/development.md "Releasing".
#   usage: ci/release.sh VERSION        (e.g. ci/release.sh 0.1.0)
set -eu

die() {
    echo "release: $*" >&2
    exit 1
}

[ $# = 1 ] || { echo "usage: ci/release.sh VERSION (e.g. 0.1.0)" >&2; exit 2; }
version=$1
echo "$version" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' ||
    die "'$version' is not X.Y.Z (write 0.1.0, not v0.1.0)"
tag=v$version
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "not a git work tree"

[ -z "$(git status --porcelain --untracked-files=normal)" ] ||
    die "the working tree is not clean (git status): commit or stash first"
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    die "the tag $tag exists already"
fi
project=$(sed -n 's/^project(ndplint VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ "$project" = "$version" ] ||
    die "CMakeLists.txt project() says VERSION '$project', not $version"

# The section: from its heading to the next '## ' heading.
notes=$(awk -v v="$version" '
    $0 ~ "^## " { if (on) exit; on = ($2 == v || $2 == "[" v "]") ; next }
    on' CHANGELOG.md 2>/dev/null | sed '/./,$!d')
[ -n "$notes" ] || die "CHANGELOG.md has no '## $version' section, or it is empty"
python3 tests/scripts/version_refs.py . >&2 ||
    die "the documents pin another version (above)"

printf 'ndplint %s\n\n%s\n' "$version" "$notes" |
    git tag --annotate --cleanup=verbatim --file=- "$tag"
echo "release: tagged $tag on $(git rev-parse --short HEAD)."
echo "release: publish with 'git push origin $tag', then a GitHub release from it."
