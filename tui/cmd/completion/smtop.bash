# bash completion for smtop                                -*- shell-script -*-
#
# Installed as share/bash-completion/completions/smtop. Nothing here lists
# smtop's options: subcommands and options are read from `smtop --help` and
# `smtop COMMAND --help`, option values (themes, rules, symbol sets, sort
# keys) from `smtop --complete OPTION`, each time Tab is pressed — so the
# completion is always the one of the smtop being run, and a new option or
# theme needs no edit here.

# Prints "OPTION METAVAR" for each option line of `$@ --help` (METAVAR empty
# for a flag). Option lines are indented at most 4 spaces; deeper lines
# continue a description.
_smtop_options()
{
    "$@" --help 2>/dev/null |
        sed -nE 's/^ {1,4}(-[a-zA-Z], )?(--[a-z0-9][a-z0-9-]*)( ([^ ]+))?.*/\2 \4/p'
}

# The subcommands, from the usage lines of `smtop --help`.
_smtop_commands()
{
    "$1" --help 2>/dev/null | sed -nE 's/^ *(usage: )?smtop ([a-z][a-z-]*)( .*)?$/\2/p'
}

# Appends file (-f) or directory (-d) names matching $cur to COMPREPLY.
_smtop_paths()
{
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen "$1" -- "$cur"))
}

# Completes the value of option $1, whose metavar in --help is $2.
_smtop_value()
{
    local bin=$1 opt=$2 meta=$3 values prefix="" word=$cur
    values=$("$bin" --complete "$opt" 2>/dev/null)
    if [[ $opt == --fail-on && $cur == *,* ]]; then    # RULE[,RULE]
        prefix=${cur%,*},
        word=${cur##*,}
    fi
    if [[ -n $values ]]; then
        COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$word"))
        # Name.param= wants the number typed right after the '='
        [[ $opt == --rule ]] && compopt -o nospace 2>/dev/null
    fi
    case $meta in
        *DIR* | BASE) _smtop_paths -d ;;
        *PATH* | *FILE* | *.json)
            [[ -z $values || $cur == */* || ${#COMPREPLY[@]} -eq 0 ]] && _smtop_paths -f ;;
    esac
}

_smtop()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    local bin=${words[0]} cmd="" c cmds
    if [[ $bin == */* ]]; then
        bin=$(eval printf '%s' "$bin") # expand a leading ~
    fi
    cmds=$(_smtop_commands "$bin")
    for c in $cmds; do
        ((cword > 1)) && [[ ${words[1]} == "$c" ]] && cmd=$c
    done

    local opts meta=""
    opts=$(_smtop_options "$bin" ${cmd:+"$cmd"})
    if [[ $prev == --* ]]; then
        meta=$(awk -v o="$prev" '$1 == o { print $2; exit }' <<<"$opts")
    fi
    if [[ -n $meta ]]; then
        _smtop_value "$bin" "$prev" "$meta"
        return
    fi
    $split && return    # --flag=value of a flag that takes none

    COMPREPLY=()
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(cut -d' ' -f1 <<<"$opts")" -- "$cur"))
        [[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    if ((cword == 1)); then
        COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
    fi
    # SOURCE (and BASE): a profiler-output directory, the job directory
    # holding it, or an s3:// URL, which only the user knows.
    [[ $cmd != synth ]] && _smtop_paths -d
}
complete -F _smtop smtop
