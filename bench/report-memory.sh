#!/bin/sh
# bench/report-memory.sh — peak resident memory, time and page size of
# `loopscale report` against the runs of its sweep (docs/performance.md,
# "Memory of derived outputs").
#
#     bench/report-memory.sh [BUILD_DIR] [RUNS...]
#
# RUNS defaults to 2000 20000 200000.  Each sweep is drawn by `loopscale
# simulate` from data/truth/moe-bounded-sparse.json (noise 0.002) over
# 20 sizes x 20 token counts x E in 1, 4, 16, 64 x R in 1, 2, 4, 8, 16
# (8,000 configurations), repeated or cut to RUNS rows, gzip'd, into
# $TMPDIR/loopscale-report-memory (kept for reruns).  The report is the
# default one (four laws held out on four axes).  Prints a Markdown table.
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
runs=${*:-2000 20000 200000}
dir=${TMPDIR:-/tmp}/loopscale-report-memory
mkdir -p "$dir"
loopscale=$build/loopscale
[ -x "$loopscale" ] || { echo "report-memory.sh: build $build first" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)

grid=$dir/grid.csv
if [ ! -f "$grid" ]; then
    n=$(awk 'BEGIN { for (i = 0; i < 20; i++) printf "%s%.4g", i ? "," : "", 1e8 * 10 ^ (i / 19) }')
    d=$(awk 'BEGIN { for (i = 0; i < 20; i++) printf "%s%.4g", i ? "," : "", 1e10 * 50 ^ (i / 19) }')
    "$loopscale" simulate --law "$root/data/truth/moe-bounded-sparse.json" --n-act "$n" --tokens "$d" \
        --E 1,4,16,64 --R 1,2,4,8,16 --noise 0.002 -o "$grid"
fi
for r in $runs; do
    [ -f "$dir/sweep-$r.csv.gz" ] && continue
    { head -1 "$grid"; while :; do tail -n +2 "$grid"; done | head -n "$r"; } | gzip > "$dir/sweep-$r.csv.gz"
done

echo "load: $(uptime | sed 's/.*load average: //')"
echo "| runs | sweep (gzip) | peak memory | time | page |"
echo "|---:|---:|---:|---:|---:|"
for r in $runs; do
    /usr/bin/time -v "$loopscale" report -q -o "$dir/report-$r.html" "$dir/sweep-$r.csv.gz" \
        > /dev/null 2> "$dir/time.txt" || true
    awk -F': ' -v r="$r" -v gz="$(ls -l "$dir/sweep-$r.csv.gz" | awk '{ print $5 }')" \
        -v page="$(ls -l "$dir/report-$r.html" 2>/dev/null | awk '{ print $5 }')" '
        /Maximum resident set size/ { kb = $2 } /Elapsed \(wall clock\)/ { t = $2 }
        END { n = split(t, p, ":"); s = p[n] + (n > 1 ? 60 * p[n - 1] : 0);
              printf "| %d | %.1f MB | %.0f MB | %.1f s | %.1f MB |\n", r, gz / 1048576, kb / 1024, s, page / 1048576 }' \
        "$dir/time.txt"
done
