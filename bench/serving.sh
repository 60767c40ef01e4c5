#!/bin/sh
# Time one `solve` query with and without the serving options (the KV cache,
# lifetime inference, a target loss, a quantisation penalty), under the
# default law and its default candidates (16 R x 7 E, cut at the law's
# fitted range), each the median CPU time of N runs of the program (process
# start included).  Run by hand, not a test:
#     bench/serving.sh [BUILD_DIR] [N]        (default: build, 21)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
n=${2:-21}
bin=$build/loopscale
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loopscale-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$bin" fit -q "$root/tests/data/quantised-sweep.csv" --law dense --bits-column bits -o "$tmp/q.json" >/dev/null 2>&1
printf '{"quantisation": %s}\n' "$(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["quantisation"]))' "$tmp/q.json")" >"$tmp/penalty.json"

# The median CPU time (user + system, from getrusage) of n runs, in
# milliseconds: steadier than the wall time on a shared machine (solve runs
# on one thread).
median_ms() {
    python3 - "$n" "$bin" "$@" <<'PY'
import resource, statistics, subprocess, sys
n, cmd = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(n):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    times.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
print("%.1f" % statistics.median(times))
PY
}

echo "loopscale $("$bin" --version | cut -d' ' -f2), $(nproc) cores, $(uname -sm); median of $n runs"
base="solve --flops 1e22 --mem 3GB --bits 4 -q"
printf '%-64s %8s\n' "query" "CPU ms"
printf '%-64s %8s\n' "--version (process start)" "$(median_ms --version)"
printf '%-64s %8s\n' "$base" "$(median_ms $base)"
printf '%-64s %8s\n' "  --context 8192 --batch 8" "$(median_ms $base --context 8192 --batch 8)"
printf '%-64s %8s\n' "  --inference-tokens 1e13" "$(median_ms $base --inference-tokens 1e13)"
printf '%-64s %8s\n' "  --context 8192 --batch 8 --inference-tokens 1e13" \
    "$(median_ms $base --context 8192 --batch 8 --inference-tokens 1e13)"
printf '%-64s %8s\n' "  --quantisation PENALTY" "$(median_ms $base --quantisation "$tmp/penalty.json")"
printf '%-64s %8s\n' "  --quantisation PENALTY --inference-tokens 1e13" \
    "$(median_ms $base --quantisation "$tmp/penalty.json" --inference-tokens 1e13)"
printf '%-64s %8s\n' "solve --target-loss 2.12 --mem 3GB --bits 4 -q" \
    "$(median_ms solve --target-loss 2.12 --mem 3GB --bits 4 -q)"
