#!/bin/sh
# A computation never draws: the chart code (src/lib/chart_internal.h) is
# included only by the chart itself, the figures that draw results
# (plot.c) and the report page; every other module hands its results to
# loopscale/plot.h.
#     tests/lib/chart-includes.sh SOURCE_DIR
set -eu
root=$1
allowed='src/lib/chart.c src/lib/plot.c src/lib/report.c'
fail=0
for f in $(cd "$root" && grep -rl --include='*.c' --include='*.h' '#include "chart_internal.h"' src); do
    case " $allowed " in
    *" $f "*) ;;
    *) echo "FAIL: $f includes chart_internal.h: draw its results through loopscale/plot.h"; fail=1 ;;
    esac
done
[ $fail -eq 0 ] || exit 1
echo "chart_internal.h: included only by $allowed (where at all)"
