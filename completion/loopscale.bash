# bash completion for loopscale                             -*- shell-script -*-
#
# Commands, options and law names are read from the program itself
# ('loopscale --help', 'loopscale help COMMAND', 'loopscale help laws'), so
# the completion cannot drift from the program it completes.  Installed as
# share/bash-completion/completions/loopscale; to try it from a checkout:
# source completion/loopscale.bash

# Every law BASE and BASE:MAPPING, from the names 'loopscale help laws' lists.
_loopscale_laws()
{
    "$1" help laws 2>/dev/null | awk '
        /^Bases:/ { part = "b"; next }
        /^Mappings/ { part = "m"; next }
        /^$/ { part = "" }
        part == "b" && /^  [a-z]/ { bases[++nb] = $1 }
        part == "m" && /^  [a-z]/ { maps[++nm] = $1 }
        END { for (i = 1; i <= nb; i++) { print bases[i]; for (j = 1; j <= nm; j++) print bases[i] ":" maps[j] } }'
}

# Words for cur, with the part before the last ':' dropped when ':' breaks
# words (as it does by default), so that 'moe:bou<TAB>' completes.
_loopscale_reply()
{
    local cur=$1 words=$2 prefix=
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
        prefix=${cur%"${cur##*:}"}
        COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
    fi
}

# The columns of the first sweep file on the line (its header row), one a
# line, for the options that name a column.
_loopscale_columns()
{
    local w
    for w in "${COMP_WORDS[@]:2}"; do
        [[ -f $w && $w == *.csv* ]] || continue
        { if [[ $w == *.gz ]]; then gzip -dc -- "$w"; else cat -- "$w"; fi; } 2>/dev/null |
            sed -n '/^#/d;/^[[:space:]]*$/d;p;q' | tr -d '\r' | tr ',' '\n' | sed 's/^"//;s/"$//'
        return
    done
}

_loopscale()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local prog=${COMP_WORDS[0]} cmd commands opts
    # The word before a ':' or '=' that broke the current word.
    if [[ $cur == : || $prev == : ]] && ((COMP_CWORD >= 2)); then
        local i=$COMP_CWORD
        [[ $cur == : ]] && cur=
        [[ ${COMP_WORDS[i-1]} == : ]] && { cur=${COMP_WORDS[i-2]}:$cur; prev=${COMP_WORDS[i-3]}; }
    fi
    commands=$("$prog" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')

    if ((COMP_CWORD == 1)); then
        _loopscale_reply "$cur" "$commands help --help --version"
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [[ $cmd == help ]]; then
        ((COMP_CWORD == 2)) && _loopscale_reply "$cur" "$commands laws"
        return
    fi

    case $prev in
    -l | --law | --truth)
        if [[ $cmd == fit || $cmd == report ]]; then
            _loopscale_reply "$cur" "$(_loopscale_laws "$prog")"
        else
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
        fi
        return ;;
    --laws)
        local head=${cur%"${cur##*,}"} tail=${cur##*,} w list=
        for w in $(_loopscale_laws "$prog"); do list+="$head$w "; done
        _loopscale_reply "$cur" "$list"
        compopt -o nospace 2>/dev/null
        return ;;
    --axes) _loopscale_reply "$cur" "R N D E R,N,D,E"; return ;;
    --plot-style) _loopscale_reply "$cur" "light print"; return ;;
    --target) _loopscale_reply "$cur" "decision params:alpha,beta"; return ;;
    --by | --group | --run | --step)
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "$(_loopscale_columns)" -- "$cur"))
        return ;;
    -o | --output | --plot | --plot-rho | --template | --shape | --have | --candidates)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    esac
    # An option of a fixed set of values shows them in the help as its
    # placeholder, "--loss huber|mse": offer them.
    if [[ $prev == --* ]]; then
        opts=$("$prog" help "$cmd" 2>/dev/null | sed -n "s/^ *\(-[a-z], \)\{0,1\}$prev \([^ ]*|[^ ]*\) .*/\2/p" | head -n 1)
        if [[ -n $opts ]]; then
            _loopscale_reply "$cur" "${opts//|/ }"
            return
        fi
    fi
    # Any other option that takes a value: nothing to offer.
    if [[ $prev == --* ]] && "$prog" help "$cmd" 2>/dev/null | grep -qE -- "^ +(-[a-z], )?$prev [A-Za-z']"; then
        return
    fi

    if [[ $cur == -* ]]; then
        opts=$("$prog" help "$cmd" 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
        _loopscale_reply "$cur" "$opts"
        return
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _loopscale loopscale
