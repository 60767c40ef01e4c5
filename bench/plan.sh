#!/bin/sh
# Time `loopscale plan` on growing candidate grids and numbers of bootstrap
# draws (docs/plan.md), with the default law as the prior.
#     bench/plan.sh [BUILD_DIR]
set -eu
bin=${1:-build}/loopscale
echo "load: $(uptime | sed 's/.*load average: //')"
printf '%-11s %-6s %-6s %-8s %s\n' candidates draws runs "cpu s" "max KB"
for spec in "525 100 5e21" "1440 100 3e22" "1440 300 3e22" "2520 300 3e22"; do
    set -- $spec
    case $1 in
    525) grid="" ;;
    1440) grid="--n-act 1e8,2e8,3e8,6e8,1e9,2e9 --tokens 1e10,2e10,5e10,1e11,2e11,5e11 --E 1,2,4,8,16 --R 1,2,3,4,6,8,12,16" ;;
    2520) grid="--n-act 1e8,2e8,3e8,6e8,1e9,2e9,4e9 --tokens 1e10,2e10,5e10,1e11,2e11,5e11 --E 1,2,4,8,16 --R 1,2,3,4,5,6,7,8,10,12,14,16" ;;
    esac
    out=$(mktemp)
    /usr/bin/time -f '%U %S %M' -o "$out.time" "$bin" plan --flops 1e22 --mem 3GB --bits 4 --budget "$3" \
        --draws "$2" $grid -o "$out" > /dev/null 2>&1
    read -r user sys kb < "$out.time"
    printf '%-11s %-6s %-6s %-8s %s\n' "$1" "$2" "$(($(wc -l < "$out") - 1))" \
        "$(awk "BEGIN { print $user + $sys }")" "$kb"
    rm -f "$out" "$out.time"
done
