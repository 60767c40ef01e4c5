#!/bin/sh
# Time `loopscale plan` on growing candidate sets and numbers of bootstrap
# draws (docs/plan.md), with the default law as the prior: grids given as
# lists, a target on named parameters, and a candidate file.
#     bench/plan.sh [BUILD_DIR]
set -eu
bin=${1:-build}/loopscale
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 3,000 configurations as a CSV (10 sizes x 10 token counts x 5 E x 6 R).
awk 'BEGIN {
    print "n_act,tokens,R,E"
    split("1e8 1.5e8 2e8 3e8 4.5e8 6e8 8e8 1e9 1.5e9 2e9", n, " ")
    split("1e10 1.5e10 2e10 3e10 5e10 7e10 1e11 1.5e11 2e11 3e11", d, " ")
    split("1 2 4 8 16", e, " "); split("1 2 3 4 6 8", r, " ")
    for (a = 1; a <= 10; a++) for (b = 1; b <= 10; b++) for (c = 1; c <= 5; c++) for (k = 1; k <= 6; k++)
        print n[a] "," d[b] "," r[k] "," e[c]
}' > "$work/cands.csv"
echo "load: $(uptime | sed 's/.*load average: //')"
printf '%-11s %-6s %-12s %-6s %-8s %s\n' candidates draws target runs "cpu s" "max KB"
for spec in "default 100 5e21 decision" "1440 100 3e22 decision" "1440 300 3e22 decision" "2520 300 3e22 decision" \
    "2520 300 3e22 params:alpha,beta" "3000 300 3e22 decision"; do
    set -- $spec
    case $1 in
    default) grid="" ;;
    1440) grid="--n-act 1e8,2e8,3e8,6e8,1e9,2e9 --tokens 1e10,2e10,5e10,1e11,2e11,5e11 --E 1,2,4,8,16 --R 1,2,3,4,6,8,12,16" ;;
    2520) grid="--n-act 1e8,2e8,3e8,6e8,1e9,2e9,4e9 --tokens 1e10,2e10,5e10,1e11,2e11,5e11 --E 1,2,4,8,16 --R 1,2,3,4,5,6,7,8,10,12,14,16" ;;
    3000) grid="--candidates $work/cands.csv" ;;
    esac
    out=$work/runs.csv
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$bin" plan --flops 1e22 --mem 3GB --bits 4 --budget "$3" \
        --draws "$2" --target "$4" $grid -o "$out" > /dev/null 2>&1
    read -r user sys kb < "$work/time"
    printf '%-11s %-6s %-12s %-6s %-8s %s\n' "$1" "$2" "${4%%:*}" "$(($(wc -l < "$out") - 1))" \
        "$(awk "BEGIN { print $user + $sys }")" "$kb"
done
