#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Posts ndplint's Markdown report as ONE comment on the pull request (or
# merge request) the CI job runs for, and keeps it up to date: the comment
# is found by a hidden marker, "<!-- ndplint: workflow=... job=... dir=...
# -->", on its first line, one per workflow, job and working directory (so
# a monorepo with several plans keeps several comments), and its body is
# replaced by the new report, a clean one included; only a comment by the
# token's own user is edited, never one that somebody else wrote with the
# marker.  GitHub (issue
# comments), GitLab (merge request notes) and Azure Repos (pull request
# threads); POSIX sh, curl and jq.
#
#   usage: comment.sh [--platform github|gitlab|azure] [--mode update|new|off]
#                     [--id TEXT] [--fail-on-error] REPORT.md
#   GitHub: NDPLINT_COMMENT_AUTHOR=LOGIN  the author of the comment to
#                     update (default: the token's own login, from the API)
#
# The platform is the CI's (GITHUB_ACTIONS, GITLAB_CI, TF_BUILD) unless
# named.  update (the default) edits the comment that carries the marker
# and creates one when there is none; new always creates one; off posts
# nothing.  --id adds TEXT to the marker, for two reports of one job in
# one directory.  Only a comment of the token's own user is updated; the
# API says who that is (on GitHub: github_me()), unless
# NDPLINT_COMMENT_AUTHOR names the login.
#
# Posting is not the gate unless asked: a missing or read-only token (a
# fork's), no curl or jq on the runner, an answer that is not the call's
# success (any status but the one the API succeeds with, a 203 sign-in
# page of Azure DevOps included, or a body that is not JSON) or a network
# error is a warning in the log and exit 0, or exit 1 with
# --fail-on-error (for a team that depends on the comment).  A job that
# is not for a pull request posts nothing and exits 0 either way.  Exit
# 2 is for this script's own usage errors (an unknown option, a report
# it cannot read).  The report is the pull request's (hostile) text: it
# goes only into request bodies built by jq, never onto a log line, and
# the log lines this script writes start with its own fixed text.
set -u

usage() {
    echo "comment.sh: $1" >&2
    echo "usage: comment.sh [--platform github|gitlab|azure]" \
         "[--mode update|new|off] [--id TEXT] [--fail-on-error]" \
         "REPORT.md" >&2
    echo "GitHub: NDPLINT_COMMENT_AUTHOR=LOGIN, the author of the" \
         "comment to update (default: the token's own login, from the API)" >&2
    exit 2
}

platform="" mode=update id="" report="" on_error=0
while [ $# -gt 0 ]; do
    case $1 in
    --platform) [ $# -ge 2 ] || usage "--platform needs a value"
                platform=$2; shift 2 ;;
    --mode) [ $# -ge 2 ] || usage "--mode needs a value"; mode=$2; shift 2 ;;
    --id) [ $# -ge 2 ] || usage "--id needs a value"; id=$2; shift 2 ;;
    --fail-on-error) on_error=1; shift ;;
    --) shift; break ;;
    -*) usage "unknown option" ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || usage "one report file is needed"
report=$1
case $mode in
update | new) ;;
off) echo "ndplint comment: off"; exit 0 ;;
*) usage "--mode must be update, new or off" ;;
esac
if [ -z "$platform" ]; then
    if [ "${GITHUB_ACTIONS:-}" = true ]; then platform=github
    elif [ -n "${GITLAB_CI:-}" ]; then platform=gitlab
    elif [ -n "${TF_BUILD:-}" ]; then platform=azure
    else usage "no CI platform found: name one with --platform"
    fi
fi
case $platform in
github | gitlab | azure) ;;
*) usage "--platform must be github, gitlab or azure" ;;
esac
if [ ! -f "$report" ] || [ ! -r "$report" ]; then
    usage "cannot read the report file"
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
umask 077
# An earlier step of the job may have run the pull request's code, which
# can write files in $HOME but was not given the token: curl runs with -q
# (no ~/.curlrc, which could make it follow a redirect to another host
# with the token) and jq with $HOME an empty directory (no ~/.jq, whose
# definitions would replace jq's own and could copy the token into the
# comment).
HOME=$tmp
export HOME
unset CURL_HOME XDG_CONFIG_HOME

# A warning in the CI's own form, with fixed text from this script (the
# only variable parts are numbers).
warn() {
    case $platform in
    github) echo "::warning title=ndplint comment::$*" ;;
    azure) echo "##vso[task.logissue type=warning]ndplint comment: $*" ;;
    *) echo "ndplint comment: warning: $*" ;;
    esac
}
# Nothing posted: a warning, and the gate stands as ndplint left it (exit
# 0), or, with --fail-on-error, the step fails (exit 1).
give_up() {
    warn "$*; the report was not posted as a comment"
    exit "$on_error"
}

# A runner without curl or jq cannot post, and that fails nothing.
command -v curl >/dev/null 2>&1 || give_up "curl is not installed"
command -v jq >/dev/null 2>&1 || give_up "jq is not installed"

# Text for the marker: letters, digits and a few marks, the rest '_', so
# that no name can end the HTML comment or show in the rendered page.
marker_text() {
    printf '%s' "$1" | tr -c 'A-Za-z0-9._/+=@-' '_' | cut -c1-120
}
# The id of a comment in a list: a whole number that jq prints exactly.
# shellcheck disable=SC2016 # a jq filter
exact_id='(numbers | select(. == floor and . > 0 and . < 9007199254740992))'
# A value that must be a number or an id (digits, letters, '-', '_', '.').
is_id() {
    case $1 in '' | *[!A-Za-z0-9._-]*) return 1 ;; esac
}
is_number() {
    case $1 in '' | *[!0-9]*) return 1 ;; esac
}

# The HTTP request METHOD URL [BODY-FILE]: the response body in
# $tmp/response, its headers in $tmp/headers, the status in $status
# ("000" when there was no answer).  The credentials go to curl in a file
# ($tmp/auth), never on its command line.
request() {
    : > "$tmp/response"
    : > "$tmp/headers"
    set -- "$1" "$2" "${3:-}"
    if [ -n "$3" ]; then
        status=$(curl -q -sS -o "$tmp/response" -D "$tmp/headers" \
                 -w '%{http_code}' --max-time 60 --proto '=http,https' \
                 --max-filesize 67108864 -X "$1" -H @"$tmp/auth" \
                 -H 'Content-Type: application/json' \
                 --data-binary @"$3" "$2" 2>/dev/null)
    else
        status=$(curl -q -sS -o "$tmp/response" -D "$tmp/headers" \
                 -w '%{http_code}' --max-time 60 --proto '=http,https' \
                 --max-filesize 67108864 -X "$1" -H @"$tmp/auth" "$2" \
                 2>/dev/null)
    fi
    is_number "$status" || status=000
}
# Did the last request succeed?  Only the status WANT counts, the one the
# API answers this call with when it did what was asked: 201 for a
# GitHub comment or a GitLab note created, 200 for everything else (a
# list, an edit, the token's user; an Azure DevOps thread created too).
# Another 2xx is no success: Azure DevOps answers a token it does not
# accept with 203 and an HTML sign-in page, having done nothing.  Any
# other answer is give_up(), naming its status.
checked() { # want what
    [ "$status" = "$1" ] && return 0
    case $status in
    000) give_up "no answer from the API ($2)" ;;
    203) give_up "the request to $2 was answered with HTTP 203, not $1" \
                 "(Azure DevOps answers a token it does not accept with" \
                 "a sign-in page)" ;;
    2??) give_up "the request to $2 was answered with HTTP $status, not $1" ;;
    401 | 403) give_up "the token may not $2 (HTTP $status; a pull request" \
                       "from a fork gets a read-only token)" ;;
    *) give_up "the API refused to $2 (HTTP $status)" ;;
    esac
}
# The response of the request to WHAT is JSON of the expected shape (jq -e
# FILTER), or give_up(), naming the status: a page that is not JSON (a
# sign-in page, a proxy's) under a status of success is no success.
json_is() { # filter what
    jq -e "$1" "$tmp/response" >/dev/null 2>&1 && return 0
    jq -e -n '[inputs] | length > 0' "$tmp/response" >/dev/null 2>&1 ||
        give_up "the request to $2 was answered with HTTP $status but" \
                "not with JSON"
    give_up "the request to $2 was answered with JSON that is not what" \
            "was expected (HTTP $status)"
}
# The object the API answers an edit or a creation with: one with an id.
answered_object='objects | .id | '"$exact_id"

# The body: the marker, then the report, cut to the platform's limit
# after the last whole line that fits, then as much of the next line as
# still fits, cut between two characters, with a note when cut.  Built
# by jq, never by hand.  The limit counts UNITS: "chars" (Unicode
# characters: GitHub, GitLab) or "utf16" (UTF-16 code units, as .NET
# counts a string: Azure DevOps, where a character beyond U+FFFF counts
# two).  The cut is found by adding up line sizes and made by one slice
# and one line's characters, so the cost is linear in the report's size.
make_body() { # limit units -> $tmp/body.json as a JSON string
    jq -n --rawfile report "$report" --arg marker "$marker" \
          --argjson limit "$1" --arg units "$2" '
        def size: length + (if $units == "utf16"
                            then [explode[] | select(. > 65535)] | length
                            else 0 end);
        ("\n\n---\n*ndplint: the report was cut to fit the comment" +
         " limit; the whole report is in the job log.*\n") as $note
        | ($marker + "\n" + $report) as $all
        | if ($all | size) <= $limit then $all
          else ($limit - ($note | size)) as $room
               | reduce ($all | split("\n"))[] as $line
                     ({chars: 0, size: 0, next: null};
                      if .next != null then .
                      elif .size + ($line | size) + 1 <= $room
                      then .chars += ($line | length) + 1
                           | .size += ($line | size) + 1
                      else .next = $line end)
               | ($room - .size) as $left
               | (if .next == null or $left <= 0 then ""
                  elif $units != "utf16" then .next[0:$left]
                  else .next as $next
                       | reduce ($next | explode)[] as $c
                             ({k: 0, used: 0, stop: false};
                              if .stop then .
                              else (if $c > 65535 then 2 else 1 end) as $w
                                   | if .used + $w <= $left
                                     then .k += 1 | .used += $w
                                     else .stop = true end
                              end)
                       | $next[0:.k] end) as $part
               | $all[0:([.chars - 1, 0] | max)] as $head
               | $head + (if $part == "" then ""
                          elif $head == "" then $part
                          else "\n" + $part end) + $note
          end' > "$tmp/body.json" ||
        usage "cannot read the report file as text"
}

# $marker, for the pipeline KIND (workflow, pipeline) named NAME, the job
# JOB and the working directory relative to ROOT (the checkout).
set_marker() { # kind name job root
    workdir=$PWD
    if [ -n "$4" ]; then
        case $workdir/ in "${4%/}"/*) workdir=.${workdir#"${4%/}"} ;; esac
    fi
    marker="<!-- ndplint: $1=$(marker_text "$2") job=$(marker_text "$3")"
    marker="$marker dir=$(marker_text "$workdir")"
    [ -n "$id" ] && marker="$marker id=$(marker_text "$id")"
    marker="$marker -->"
}

# The page after PAGE of a list, from the last response's headers
# (GitHub's Link, GitLab's X-Next-Page), or nothing.
next_page() { # page
    case $platform in
    github)
        if grep -i '^link:.*rel="next"' "$tmp/headers" >/dev/null; then
            echo $(($1 + 1))
        fi ;;
    gitlab)
        next=$(sed -n 's/^[Xx]-[Nn]ext-[Pp]age: *\([0-9]*\).*/\1/p' \
               "$tmp/headers" | head -n 1)
        if is_number "$next" && [ "$next" -gt "$1" ]; then
            echo "$next"
        fi ;;
    esac
}

# $found: the id of the first item of the paged list at URL that the jq
# FILTER (given $m, the marker, and $me, the token's user) selects, or
# nothing; at most 100 pages.
find_in_pages() { # url what filter me-option me
    found="" page=1
    while [ -n "$page" ] && [ "$page" -le 100 ]; do
        case $1 in *\?*) sep='&' ;; *) sep='?' ;; esac
        request GET "$1${sep}per_page=100&page=$page"
        checked 200 "read the $2"
        json_is 'type == "array"' "read the $2"
        found=$(jq -r --arg m "$marker" "$4" me "$5" \
                "[.[] | objects | $3 | .id | $exact_id][0] // empty" \
                "$tmp/response" 2>/dev/null)
        is_number "$found" && return
        found=""
        page=$(next_page "$page")
    done
}

# Edits the comment $found (METHOD URL, body $tmp/update.json), or when
# there is none, or it was deleted since it was listed, creates one (POST
# CREATE-URL, body $tmp/create.json, answered with CREATED, the status of
# success).  NOUN names it in the log.  Each answer must be the comment,
# note or thread: JSON with its id.
post() { # method url create-url noun created
    if [ -n "$found" ]; then
        request "$1" "$2" "$tmp/update.json"
        if [ "$status" != 404 ]; then
            checked 200 "update the $4"
            json_is "$answered_object" "update the $4"
            echo "ndplint comment: updated $4 $found"
            return
        fi
    fi
    request POST "$3" "$tmp/create.json"
    checked "$5" "create the $4"
    json_is "$answered_object" "create the $4"
    echo "ndplint comment: created a $4"
}

# ---- GitHub: issue comments of the pull request -------------------------
# $me: the login of the token's own user, the author of the comments the
# script may edit.  NDPLINT_COMMENT_AUTHOR, when set, names it and wins:
# nothing is asked.  Otherwise the API says who the token is:
# - GET /user answers a personal access token (classic or fine-grained)
#   or an OAuth token with 200 and the user's login.
# - An installation token of a GitHub App gets 403 there ("Resource not
#   accessible by integration"), and the job's GITHUB_TOKEN is one, of
#   the App "GitHub Actions".  GET /app, which names the App, takes only
#   the App's own JWT, and GET /installation/repositories names the
#   repositories, not the App.  GraphQL's viewer answers an installation
#   token with the App's bot user, whose login, SLUG[bot], is the author
#   REST shows on the App's comments (github-actions[bot] for the job's
#   token; before, that was the fixed login, and with any other token
#   update mode added a comment on every run).  So on that 403 the
#   script asks POST /graphql for { viewer { login } }, beside the REST
#   API of GITHUB_API_URL (https://api.github.com/graphql; /api/graphql
#   on GitHub Enterprise Server, whose REST API is /api/v3), so that the
#   token goes to no other host.
# - When neither names a login, nothing is posted (give_up()): a guess
#   such as github-actions[bot] is, for another token, someone else, and
#   the comments of someone else are not this token's to edit.
github_me() {
    me=${NDPLINT_COMMENT_AUTHOR:-}
    [ -n "$me" ] && return
    login='.login | strings | select(length > 0)'
    viewer='.data.viewer.login | strings | select(length > 0)'
    request GET "$api/user"
    if [ "$status" = 200 ]; then
        json_is "$login" "read its own user"
        me=$(jq -r "$login" "$tmp/response" 2>/dev/null)
    elif [ "$status" = 403 ]; then
        printf '%s\n' '{"query": "query { viewer { login } }"}' \
            > "$tmp/viewer.json" || exit 2
        request POST "${api%/v3}/graphql" "$tmp/viewer.json"
        checked 200 "read its own login"
        json_is "$viewer" "read its own login"
        me=$(jq -r "$viewer" "$tmp/response" 2>/dev/null)
    else
        checked 200 "read its own user"
    fi
    [ -n "$me" ] || give_up "the API named no login for the token"
}

github() {
    api=${GITHUB_API_URL:-https://api.github.com}
    api=${api%/}
    repo=${GITHUB_REPOSITORY:-}
    number=""
    if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -r "$GITHUB_EVENT_PATH" ]; then
        number=$(jq -r '.pull_request.number // empty |
                        select(type == "number") | floor' \
                 "$GITHUB_EVENT_PATH" 2>/dev/null)
    fi
    if ! is_number "$number"; then
        echo "ndplint comment: not a pull request event: nothing posted"
        exit 0
    fi
    case $repo in
    */*) if ! is_id "${repo%%/*}" || ! is_id "${repo#*/}"; then
            give_up "GITHUB_REPOSITORY is not OWNER/NAME"
         fi ;;
    *) give_up "GITHUB_REPOSITORY is not OWNER/NAME" ;;
    esac
    [ -n "${GITHUB_TOKEN:-}" ] || give_up "GITHUB_TOKEN is empty"
    printf 'Authorization: Bearer %s\nAccept: application/vnd.github+json\n' \
        "$GITHUB_TOKEN" > "$tmp/auth"
    unset GITHUB_TOKEN    # only curl reads it, from $tmp/auth
    set_marker workflow "${GITHUB_WORKFLOW:-}" "${GITHUB_JOB:-}" \
        "${GITHUB_WORKSPACE:-}"
    make_body 65536 chars
    jq '{body: .}' "$tmp/body.json" > "$tmp/create.json" || exit 2
    cp "$tmp/create.json" "$tmp/update.json" || exit 2
    url=$api/repos/$repo/issues/$number/comments

    # Only a comment the token's own user wrote is edited: one that anybody
    # else wrote, marker or not, stays theirs (and they could edit it back).
    found=""
    if [ "$mode" = update ]; then
        github_me
        # shellcheck disable=SC2016 # $m and $me are jq's
        find_in_pages "$url" "pull request's comments" \
            'select((.body | strings | startswith($m)) and
                    .user.login? == $me)' \
            --arg "$me"
    fi
    post PATCH "$api/repos/$repo/issues/comments/$found" "$url" comment 201
}

# ---- GitLab: notes of the merge request ---------------------------------
gitlab() {
    api=${CI_API_V4_URL:-}
    project=${CI_PROJECT_ID:-}
    number=${CI_MERGE_REQUEST_IID:-}
    if ! is_number "$number"; then
        echo "ndplint comment: not a merge request pipeline: nothing posted"
        exit 0
    fi
    [ -n "$api" ] || give_up "CI_API_V4_URL is empty"
    is_number "$project" || give_up "CI_PROJECT_ID is not a number"
    token=${NDPLINT_GITLAB_TOKEN:-}
    [ -n "$token" ] || give_up "NDPLINT_GITLAB_TOKEN is empty"
    printf 'PRIVATE-TOKEN: %s\n' "$token" > "$tmp/auth"
    unset NDPLINT_GITLAB_TOKEN token
    set_marker pipeline "${CI_CONFIG_PATH:-.gitlab-ci.yml}" \
        "${CI_JOB_NAME:-}" "${CI_PROJECT_DIR:-}"
    make_body 1000000 chars
    jq '{body: .}' "$tmp/body.json" > "$tmp/create.json" || exit 2
    cp "$tmp/create.json" "$tmp/update.json" || exit 2
    url=$api/projects/$project/merge_requests/$number/notes

    found=""
    if [ "$mode" = update ]; then
        # Only a note of the token's own user is edited (see github()).
        request GET "$api/user"
        checked 200 "read its own user"
        json_is ".id | $exact_id" "read its own user"
        me=$(jq -r ".id | $exact_id" "$tmp/response" 2>/dev/null)
        is_number "$me" || give_up "the API's answer to /user has no id"
        # shellcheck disable=SC2016 # $m and $me are jq's
        find_in_pages "$url?sort=asc&order_by=created_at" \
            "merge request's notes" \
            'select((.system | not) and .author.id? == $me and
                    (.body | strings | startswith($m)))' \
            --argjson "$me"
    fi
    post PUT "$url/$found" "$url" note 201
}

# ---- Azure Repos: threads of the pull request ---------------------------
azure() {
    number=${SYSTEM_PULLREQUEST_PULLREQUESTID:-}
    if ! is_number "$number"; then
        echo "ndplint comment: not a pull request build: nothing posted"
        exit 0
    fi
    collection=${SYSTEM_COLLECTIONURI:-}
    [ -n "$collection" ] || give_up "SYSTEM_COLLECTIONURI is empty"
    is_id "${SYSTEM_TEAMPROJECTID:-}" ||
        give_up "SYSTEM_TEAMPROJECTID is not an id"
    is_id "${BUILD_REPOSITORY_ID:-}" ||
        give_up "BUILD_REPOSITORY_ID is not an id"
    [ -n "${SYSTEM_ACCESSTOKEN:-}" ] ||
        give_up "SYSTEM_ACCESSTOKEN is empty (map it in the step's env)"
    printf 'Authorization: Bearer %s\n' "$SYSTEM_ACCESSTOKEN" > "$tmp/auth"
    unset SYSTEM_ACCESSTOKEN
    set_marker pipeline "${BUILD_DEFINITIONNAME:-}" \
        "${SYSTEM_JOBNAME:-${AGENT_JOBNAME:-}}" "${BUILD_SOURCESDIRECTORY:-}"
    make_body 150000 utf16
    jq '{content: .}' "$tmp/body.json" > "$tmp/update.json" || exit 2
    jq '{comments: [{parentCommentId: 0, content: ., commentType: 1}],
         status: 1}' "$tmp/body.json" > "$tmp/create.json" || exit 2
    version='api-version=7.1'
    url=${collection%/}/$SYSTEM_TEAMPROJECTID/_apis/git/repositories
    url=$url/$BUILD_REPOSITORY_ID/pullRequests/$number/threads

    # The thread whose first comment the token's own identity wrote with
    # the marker; the threads come in one list.
    found="" thread="" comment=""
    if [ "$mode" = update ]; then
        request GET "${collection%/}/_apis/connectionData"
        checked 200 "read its own identity"
        json_is '.authenticatedUser.id | strings' "read its own identity"
        me=$(jq -r '.authenticatedUser.id | strings' "$tmp/response" \
             2>/dev/null)
        is_id "$me" || give_up "the API's connectionData has no user id"
        request GET "$url?$version"
        checked 200 "read the pull request's threads"
        json_is '(.value | type) == "array"' \
            "read the pull request's threads"
        found=$(jq -r --arg m "$marker" --arg me "$me" '[.value[] | objects |
                    select((.isDeleted | not) and
                           ((.comments | type) == "array")) |
                    {t: (.id | '"$exact_id"'), c: (.comments[0] | objects)} |
                    select((.c.id | '"$exact_id"') and
                           .c.author.id? == $me and
                           (.c.isDeleted | not) and
                           (.c.content | strings | startswith($m)))][0] |
                    if . then "\(.t) \(.c.id)" else empty end' \
                "$tmp/response" 2>/dev/null)
        thread=${found% *} comment=${found#* }
        is_number "$thread" && is_number "$comment" || found=""
    fi
    post PATCH "$url/$thread/comments/$comment?$version" "$url?$version" \
        thread 200
}

case $platform in
github) github ;;
gitlab) gitlab ;;
azure) azure ;;
esac
exit 0
