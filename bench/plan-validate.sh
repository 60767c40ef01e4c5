#!/bin/sh
# How the plan does against its baselines (docs/plan.md, "How the plan
# compares"): for each case, the plan at the sweep's budget B against the
# IsoFLOP design at B and the thinned grid at 2B, over 100 simulated sweeps
# each (validation, --validate 100), with 95% Wilson intervals, and the
# wall time of the plan and its search alone.  The table it prints is the
# one in docs/plan.md; tests/docs checks that the page shows bench/plan-validate.out.
#     bench/plan-validate.sh [BUILD_DIR] > bench/plan-validate.out
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-build}" && pwd)/loopscale
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
hyp=$root/data/truth/moe-hyperbolic.json
bsp=$root/data/truth/moe-bounded-sparse.json
decision="--flops 1e22 --mem 3GB --bits 4"
grid="--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11,3e11 --E 1,4,16 --R 1,2,3,4"
# The docs' pilot: 81 small runs of the hyperbolic truth, and the prior fitted on them.
"$bin" simulate --law "$hyp" --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 --noise 0.002 \
    -o pilot.csv
"$bin" fit --bootstrap 100 -o prior.json pilot.csv > /dev/null

# case NAME TRUTH BUDGET PLAN-OPTIONS...: the plan's time, then validation at B and at 2B.
case_row() {
    name=$1 truth=$2 budget=$3
    shift 3
    start=$(date +%s.%N)
    "$bin" plan "$@" $decision --budget "$budget" -o runs.csv > /dev/null 2>&1
    end=$(date +%s.%N)
    "$bin" plan "$@" $decision --budget "$budget" -o runs.csv --validate 100 --truth "$truth" --format json \
        > equal.json 2>/dev/null
    double=$(awk "BEGIN { print 2 * $budget }")
    "$bin" plan "$@" $decision --budget "$budget" -o runs.csv --validate 100 --truth "$truth" \
        --baseline-flops "$double" --format json > double.json 2>/dev/null
    /usr/bin/python3 - "$name" "$(awk "BEGIN { printf \"%.0f\", $end - $start }")" <<'PY'
import json, sys
name, seconds = sys.argv[1], sys.argv[2]
def arms(path):
    doc = json.load(open(path))
    return doc, {d["name"]: d for d in doc["validation"]["designs"]}
doc, eq = arms("equal.json")
_, dbl = arms("double.json")
def cell(d):
    lo, hi = d["wilson_95"]
    return "%d%% [%.0f, %.0f]" % (round(100 * d["right_rate"]), 100 * lo, 100 * hi)
kept = [d["name"] for d in doc["designs"] if d["chosen"]][0]
print("| %s | %s, %d runs | %s | %s | %s | %s |" % (name, kept, len(doc["runs"]), cell(eq["plan"]),
      cell(eq["IsoFLOP"]), cell(dbl["thinned grid"]), seconds))
PY
}

echo "| case | the plan's design | plan (B) | IsoFLOP (B) | thinned grid (2B) | plan, s |"
echo "|---|---|---|---|---|---|"
case_row "docs' example: pilot prior, hyperbolic truth, B = 3.5e21" "$hyp" 3.5e21 \
    --law prior.json --have pilot.csv $grid
case_row "pilot prior, bounded-sparse truth (the prior's pair is wrong), B = 3.5e21" "$bsp" 3.5e21 \
    --law prior.json --have pilot.csv $grid
case_row "pilot prior, bounded-sparse truth, candidates from the question, B = 1e21" "$bsp" 1e21 \
    --law prior.json --have pilot.csv
case_row "default prior, bounded-sparse truth, B = 3e21" "$bsp" 3e21
