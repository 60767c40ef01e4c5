#!/bin/sh
# Time `route` and `exit` on the sizes of docs/calculators.md's "Speed and
# memory" (Foil's router probe, a million tokens), and check their answers
# against NumPy.  Run by hand, not a test:
#     bench/calculators.sh [BUILD_DIR]        (default: build)
# Needs python3 with NumPy (Debian: python3-numpy; PYTHON=... picks another)
# and GNU time.  The inputs (about 1.1 GB) are written to a temporary
# directory, which is removed afterwards; nothing is committed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bin=$build/loopscale
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loopscale-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# Run a command under GNU time; print its wall time and peak memory.
measure() {
    label=$1
    shift
    /usr/bin/time -v "$@" >"$tmp/out" 2>"$tmp/time"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
    printf '%-58s %9s  %7.1f MB\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

echo "loopscale $("$bin" --version | cut -d' ' -f2), $(nproc) cores, $(uname -sm)"
echo "making the inputs in $tmp ..."
"$py" "$root/bench/calculators.py" make "$tmp"
gzip -1 -c "$tmp/exit.csv" >"$tmp/exit.csv.gz"
ls -l "$tmp" | awk 'NR > 1 { printf "  %-14s %6.0f MB\n", $9, $5 / 1e6 }'
echo
printf '%-58s %11s  %10s\n' "command" "wall m:ss" "peak RSS"
measure "route -k 2: 255,500 x 16 x 1 x 64 float16 .npy" "$bin" route -k 2 --format csv "$tmp/logits.npy"
"$py" "$root/bench/calculators.py" check-route "$tmp/logits.npy" 2 "$tmp/out"
measure "exit: 1,000,000 x 16, two float64 .npy" "$bin" exit --format csv "$tmp/entropy.npy" "$tmp/nll.npy"
"$py" "$root/bench/calculators.py" check-exit "$tmp/entropy.npy" "$tmp/nll.npy" "$tmp/out"
cp "$tmp/out" "$tmp/sweep-npy.csv"
measure "exit: 1,000,000 x 16, CSV (16M rows)" "$bin" exit --format csv "$tmp/exit.csv"
cmp "$tmp/out" "$tmp/sweep-npy.csv" && echo "CSV sweep identical to the .npy one"
measure "exit: 1,000,000 x 16, gzip CSV" "$bin" exit --format csv "$tmp/exit.csv.gz"
cmp "$tmp/out" "$tmp/sweep-npy.csv" && echo "gzip CSV sweep identical to the .npy one"
