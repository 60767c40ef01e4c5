#!/bin/bash
# The bash completion completes commands, a command's options and their
# values, as bash would call it (COMP_WORDS and COMP_CWORD set).
#     tests/docs/completion.sh LOOPSCALE_BINARY COMPLETION_SCRIPT
set -u
bin=$1
source "$2"
failed=0 passed=0

# complete WORDS... : the words of the command line, the last one being
# completed; prints the replies sorted, one line.
complete_line()
{
    COMP_WORDS=("$bin" "${@:2}")
    COMP_WORDS[0]=$bin
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _loopscale
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

expect()
{
    local want=$1
    shift
    local got
    got=$(complete_line "$@")
    if [[ $got == "$want" ]]; then
        passed=$((passed + 1))
    else
        echo "FAIL: completing '${*:2}': got '$got', want '$want'"
        failed=$((failed + 1))
    fi
}

expect "fit frontier" loopscale "f"
expect "frontier" loopscale "fr"
expect "--help --version exit fit frontier help holdout isofit isoflop plan predict report route shape simulate solve" loopscale ""
expect "bounded bounded-sparse" loopscale report --law moe : "bou"
expect "--law --laws" loopscale report "--law"
expect "solve" loopscale help "so"
expect "--plot --plot-caption --plot-font-size --plot-no-title --plot-rho --plot-size --plot-style --plot-title" loopscale solve "--plo"
expect "light print" loopscale isoflop --plot-style ""
expect "--max-iterations" loopscale fit "--max"
expect "--tie" loopscale holdout "--ti"
expect "--keep" loopscale isofit "--ke"
expect "--plot --plot-caption --plot-font-size --plot-no-title --plot-size --plot-style --plot-title" loopscale isofit "--plo"
expect "light print" loopscale isofit --plot-style ""
expect "bits nats" loopscale predict --loss-unit ""
expect "--skip-invalid" loopscale holdout "--ski"
expect "--huber-delta" loopscale holdout "--hu"
expect "bounded bounded-sparse" loopscale fit --law moe : "bou"
expect "kaplan kaplan:bounded kaplan:bounded-sparse kaplan:hyperbolic kaplan:linear kaplan:log kaplan:none kaplan:power" loopscale fit --law "k"
expect "--unique-tokens" loopscale predict "--uni"
# The mapping names come from 'loopscale help laws', all of them (bash
# replaces only the part after the ':', which breaks words).
want=$("$bin" help laws | awk '/^Mappings/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')
expect "$want" loopscale fit --law "dense:"
expect "hyperbolic" loopscale holdout --laws "dense:bounded,moe:hyp"
expect "laws" loopscale help "la"
expect "huber mse" loopscale fit --loss ""
expect "csv json md table tsv" loopscale holdout --format ""
expect "csv json md table tsv" loopscale isoflop --format ""
expect "" loopscale solve --flops ""
expect "--draws" loopscale plan "--dr"
# Options that name a column offer the columns of the sweep on the line.
columns=$(mktemp -d)
printf 'arm,n_act,tokens,loss\nbase,1e8,1e10,3.1\n' > "$columns/arms.csv"
expect "arm loss n_act tokens" loopscale fit "$columns/arms.csv" --by ""
expect "arm" loopscale fit "$columns/arms.csv" --by "a"
expect "n_act" loopscale fit --law dense "$columns/arms.csv" --group "n"
printf 'arm,n_act\n' | gzip > "$columns/arms.csv.gz"
expect "arm" loopscale fit "$columns/arms.csv.gz" --by "a"
rm -r "$columns"
expect "" loopscale plan --budget ""

# Every option of every command is offered after '--'.
for cmd in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'); do
    want=$("$bin" help "$cmd" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' ' | sed 's/ $//')
    expect "$want" loopscale "$cmd" "--"
done

echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
