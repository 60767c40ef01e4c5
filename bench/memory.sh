#!/bin/sh
# bench/memory.sh — peak resident memory of reading a sweep against its size,
# as CSV, CSV gzip, JSON Lines and JSON Lines gzip (docs/performance.md,
# "Memory of reading a sweep").
#
#     bench/memory.sh [BUILD_DIR] [ROWS...]
#
# BUILD_DIR defaults to build; ROWS to 10000 100000 1000000.  Each input has
# the 7 numeric columns of the million-row benchmark (n_act, n_total, n_loop,
# R, E, tokens, loss), written by Python with a fixed seed into
# $TMPDIR/loopscale-memory (kept for reruns).  Each file is read whole by
# bench_read_sweep (ls_sweep_read, no row limit); then the largest is given to
# `loopscale fit` with LOOPSCALE_MAX_ROWS=1000, as a file and on a pipe, which
# must stop at row 1001.  Prints a Markdown table: peak RSS from
# /usr/bin/time -v ("Maximum resident set size") and wall seconds.
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
rows=${*:-10000 100000 1000000}
dir=${TMPDIR:-/tmp}/loopscale-memory
mkdir -p "$dir"
read_sweep=$build/bench_read_sweep
loopscale=$build/loopscale
[ -x "$read_sweep" ] && [ -x "$loopscale" ] || { echo "memory.sh: build $build first" >&2; exit 1; }

for n in $rows; do
    [ -f "$dir/sweep-$n.jsonl.gz" ] && continue
    /usr/bin/python3 - "$dir" "$n" <<'PY'
import gzip, json, random, sys
d, n = sys.argv[1], int(sys.argv[2])
random.seed(1)
cols = ["n_act", "n_total", "n_loop", "R", "E", "tokens", "loss"]
with open(f"{d}/sweep-{n}.csv", "w") as c, open(f"{d}/sweep-{n}.jsonl", "w") as j:
    c.write(",".join(cols) + "\n")
    for i in range(n):
        a = random.choice([1e8, 3e8, 6e8, 1e9]); E = random.choice([1, 2, 4, 8])
        row = [a, a * (1 + 2 / 3 * (E - 1)), 0.75 * a, random.choice([1, 2, 4, 8]), E,
               random.choice([1e10, 1e11]), 2.5 + random.random() * 0.1]
        c.write(",".join(f"{x:.17g}" for x in row) + "\n")
        j.write(json.dumps(dict(zip(cols, row))) + "\n")
for ext in ("csv", "jsonl"):
    with open(f"{d}/sweep-{n}.{ext}", "rb") as f, gzip.open(f"{d}/sweep-{n}.{ext}.gz", "wb", 6) as g:
        g.write(f.read())
PY
done

# "PEAK_MB SECONDS" of a command, its output discarded.
measure() {
    /usr/bin/time -v "$@" > /dev/null 2> "$dir/time.txt" || true
    awk -F': ' '/Maximum resident set size/ { kb = $2 } /Elapsed \(wall clock\)/ { t = $2 }
        END { n = split(t, p, ":"); s = p[n] + (n > 1 ? 60 * p[n - 1] : 0) + (n > 2 ? 3600 * p[n - 2] : 0);
              printf "%.1f %.2f\n", kb / 1024, s }' "$dir/time.txt"
}

size_mb() { ls -l "$1" | awk '{ printf "%.1f", $5 / 1048576 }'; }

echo "| input | rows | file size | peak memory | time |"
echo "|---|---:|---:|---:|---:|"
for n in $rows; do
    for f in csv csv.gz jsonl jsonl.gz; do
        set -- $(measure "$read_sweep" "$dir/sweep-$n.$f")
        echo "| $f | $n | $(size_mb "$dir/sweep-$n.$f") MB | $1 MB | $2 s |"
    done
done
largest=$(echo $rows | awk '{ print $NF }')
for f in csv.gz jsonl.gz; do
    set -- $(measure env LOOPSCALE_MAX_ROWS=1000 "$loopscale" fit --law dense "$dir/sweep-$largest.$f")
    echo "| $f, \`fit\` with LOOPSCALE_MAX_ROWS=1000 | $largest | $(size_mb "$dir/sweep-$largest.$f") MB | $1 MB | $2 s |"
    set -- $(cat "$dir/sweep-$largest.$f" | measure env LOOPSCALE_MAX_ROWS=1000 "$loopscale" fit --law dense -)
    echo "| $f on a pipe, the same | $largest | $(size_mb "$dir/sweep-$largest.$f") MB | $1 MB | $2 s |"
done
