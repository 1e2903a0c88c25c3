# SPDX-License-Identifier: Apache-2.0
# fish completion for ndplint(1).  Installed as
# share/fish/vendor_completions.d/ndplint.fish.  The option list and the
# values are those of 'ndplint --help' (ctest 'completions' and 'name_lists'
# check them).

# --explain NAME: the categories and rule ids the program lists, and the
# verdicts that are not also categories.
function __fish_ndplint_explain
    set -l cmd (commandline -opc)[1]
    $cmd --list-rules 2>/dev/null | awk 'NR > 1 { print $1; print $2 }' | sort -u
    printf '%s\n' rejected outside-window allowed may-reimage bypassed manual-upgrade rollout refused may-refuse advisory
end

# --format FMT or FMT:PATH
function __fish_ndplint_formats
    set -l tok (commandline -ct)
    if string match -q -- '*:*' $tok
        set -l fmt (string split -m 1 -- : $tok)[1]
        __fish_complete_path (string split -m 1 -- : $tok)[2] | string replace -r -- '^' "$fmt:"
    else
        printf '%s\n' text json sarif github junit markdown azure gitlab
    end
end

complete -c ndplint -s f -l format -x -a '(__fish_ndplint_formats)' -d 'Report format, FMT or FMT:PATH (repeatable)'
complete -c ndplint -s o -l output -r -F -d 'Write the report that has no PATH to FILE'
complete -c ndplint -l source-root -x -a '(__fish_complete_directories)' -d 'Make report paths relative to DIR'
complete -c ndplint -l profile -x -a 'Allow AllowDuringMaintenanceWindow Block' -d 'Profile for clusters whose input declares none'
complete -c ndplint -l at -x -a 'now next-window +90m +6h +2d' -d 'Judge windows at this instant (RFC 3339, a date, now, +6h, next-window)'
complete -c ndplint -l fail-on -x -a 'error warning note never' -d 'Exit 1 on a finding at least this severe'
complete -c ndplint -l cluster-state -r -F -d 'Live cluster state JSON (repeatable)'
complete -c ndplint -l config -r -F -d 'Read settings from FILE'
complete -c ndplint -l no-config -d 'Read no settings file'
complete -c ndplint -l check-config -F -d 'Check settings files instead of plans'
complete -c ndplint -l no-waivers -d 'Ignore the waivers (audit every finding)'
complete -c ndplint -l show-suppressed -d 'Show waived findings in the text report'
complete -c ndplint -s q -l quiet -d 'Text report: only the summary and the findings that fail'
complete -c ndplint -l template -r -F -d 'The Bicep or ARM template of a what-if result'
complete -c ndplint -l follow-links -d 'Read a named file a link of the working tree leads out of it'
complete -c ndplint -l baseline -r -F -d 'Report only findings FILE does not list'
complete -c ndplint -l write-baseline -r -F -d 'Write the current findings\' fingerprints to FILE'
complete -c ndplint -l window-check -d 'Print each cluster\'s maintenance window and whether the rebuild fits'
complete -c ndplint -l rules -x -a '(__fish_complete_directories)' -d 'Use the rule files in DIR'
complete -c ndplint -l explain -x -a '(__fish_ndplint_explain)' -d 'Explain a category, a rule or a verdict'
complete -c ndplint -l list-rules -d 'Print the rules and exit'
complete -c ndplint -l input-format -x -a 'terraform-plan arm-whatif arm-template' -d 'Read inputs as this format'
complete -c ndplint -l max-input-bytes -x -d 'Refuse inputs larger than N bytes'
complete -c ndplint -l color -x -a 'auto always never' -d 'Colour the text report'
complete -c ndplint -s h -l help -d 'Show the help and exit'
complete -c ndplint -s V -l version -d 'Show the version and exit'
