# SPDX-License-Identifier: Apache-2.0
# bash completion for ndplint(1).  Installed as
# share/bash-completion/completions/ndplint; it needs no helper from the
# bash-completion package.  The option list and the values are those of
# 'ndplint --help' (ctest 'completions' and 'name_lists' check them).

_ndplint_files() { # $1: cur; $2: -d for directories only
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    if [[ $2 == -d ]]; then
        COMPREPLY+=($(compgen -d -- "$1"))
    else
        COMPREPLY+=($(compgen -f -- "$1"))
    fi
}

_ndplint() {
    local cur prev
    local opts="--format --output --source-root --profile --at --fail-on
        --cluster-state --config --no-config --check-config --no-waivers
        --show-suppressed
        --quiet --template --follow-links --baseline --write-baseline
        --window-check
        --rules --explain --list-rules --input-format --max-input-bytes
        --color --help --version -f -o -q -h -V"
    local formats="text json sarif github junit markdown azure gitlab"

    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    # The default COMP_WORDBREAKS splits '--opt=value' and 'FMT:PATH' into
    # words of their own: '--format' '=' 'js', or 'sarif' ':' 'out'.
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    if [[ $cur == : || $prev == : ]]; then
        local fmt opt
        if [[ $cur == : ]]; then
            cur=""
            fmt=${COMP_WORDS[COMP_CWORD-1]}
            opt=${COMP_WORDS[COMP_CWORD-2]}
        else
            fmt=${COMP_WORDS[COMP_CWORD-2]}
            opt=${COMP_WORDS[COMP_CWORD-3]}
        fi
        [[ $opt == = ]] && opt=${COMP_WORDS[COMP_CWORD-4]}
        [[ $cur == "" && $fmt == : ]] && fmt=""
        if [[ $opt == --format || $opt == -f ]] && [[ " $formats " == *" $fmt "* ]]; then
            _ndplint_files "$cur"   # the report's PATH
            return 0
        fi
    fi

    case $prev in
    -f|--format)
        COMPREPLY=($(compgen -W "$formats" -- "$cur"))
        return 0 ;;
    --profile)
        COMPREPLY=($(compgen -W "Allow AllowDuringMaintenanceWindow Block" -- "$cur"))
        return 0 ;;
    --fail-on)
        COMPREPLY=($(compgen -W "error warning note never" -- "$cur"))
        return 0 ;;
    --input-format)
        COMPREPLY=($(compgen -W "terraform-plan arm-whatif arm-template" -- "$cur"))
        return 0 ;;
    --color)
        COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
        return 0 ;;
    --explain)
        # Categories and rule ids, from the program itself; verdicts.
        local names
        names=$("${COMP_WORDS[0]}" --list-rules 2>/dev/null |
                awk 'NR > 1 { print $1; print $2 }' | sort -u)
        names="$names rejected outside-window allowed may-reimage bypassed manual-upgrade rollout refused may-refuse advisory"
        COMPREPLY=($(compgen -W "$names" -- "$cur"))
        return 0 ;;
    -o|--output|--cluster-state|--config|--check-config|--template|--baseline|--write-baseline)
        _ndplint_files "$cur"
        return 0 ;;
    --source-root|--rules)
        _ndplint_files "$cur" -d
        return 0 ;;
    --at)
        COMPREPLY=($(compgen -W "now next-window" -- "$cur"))
        return 0 ;;  # or a time
    --max-input-bytes)
        return 0 ;;  # a number: nothing to offer
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return 0
    fi
    _ndplint_files "$cur"   # input files; '-' is standard input
    return 0
}
complete -F _ndplint ndplint
