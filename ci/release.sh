#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tags a release: checks that the working tree is clean, that VERSION is
# the one in CMakeLists.txt project(), that CHANGELOG.md has its section
# and that every vX.Y.Z the documents pin is this one
# (tests/scripts/version_refs.py), then creates the annotated tag
# vVERSION with the CHANGELOG section as its message, on a commit of its
# own whose parent is HEAD and which adds only ci/action/RELEASE (the
# version): the GitHub Action at that tag installs the release instead
# of building (ci/action/build.sh), while the branch, which never gets the
# file, keeps building from source.  The branch and the work tree are not
# touched.  It pushes nothing.  docs/development.md "Releasing".
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

[ ! -e ci/action/RELEASE ] ||
    die "ci/action/RELEASE is on the branch: only the tagged commit may have it"

# The tagged commit: HEAD's tree plus ci/action/RELEASE, built in an index
# of its own so neither the branch, the index nor the work tree changes.
index=$(mktemp) || exit 1
trap 'rm -f "$index"' EXIT INT TERM
blob=$(printf '%s\n' "$version" | git hash-object -w --stdin)
GIT_INDEX_FILE=$index git read-tree HEAD
GIT_INDEX_FILE=$index git update-index --add --cacheinfo "100644,$blob,ci/action/RELEASE"
tree=$(GIT_INDEX_FILE=$index git write-tree)
commit=$(printf 'ndplint %s: ci/action/RELEASE\n\nThe GitHub Action at %s installs this release.\n' \
    "$version" "$tag" | git commit-tree "$tree" -p HEAD)

printf 'ndplint %s\n\n%s\n' "$version" "$notes" |
    git tag --annotate --cleanup=verbatim --file=- "$tag" "$commit"
echo "release: tagged $tag on $(git rev-parse --short "$commit")," \
     "a child of $(git rev-parse --short HEAD) that adds ci/action/RELEASE."
echo "release: publish with 'git push origin $tag', then a GitHub release from it."
