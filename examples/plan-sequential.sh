#!/bin/sh
# Planning a sweep in turns (docs/plan.md): train a pilot, fit, plan the next
# batch, train it, refit, plan again, and finally solve.  Training is
# simulated: each run's loss is a truth law's, with 0.2% noise; the truth
# (moe:hyperbolic) is not the law that is fitted (moe:bounded-sparse).
#     examples/plan-sequential.sh [LOOPSCALE_BINARY]      (default: build/loopscale)
# CTest runs it (example_plan_sequential).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
loopscale=${1:-$root/build/loopscale}
case $loopscale in /*) ;; *) loopscale=$PWD/$loopscale ;; esac
truth=$root/data/truth/moe-hyperbolic.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
decision="--flops 1e22 --mem 3GB --bits 4"
grid="--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11,3e11 --E 1,4,16 --R 1,2,3,4"

# "Train" the runs of a plan: the truth's loss times exp(0.002 z), appended
# to the sweep of the runs trained so far (same columns).
train() {
    "$loopscale" predict --law "$truth" --format csv "$1" | /usr/bin/python3 -c '
import csv, math, random, sys
random.seed(int(sys.argv[1]))
for r in csv.DictReader(sys.stdin):
    loss = float(r["pred_loss"]) * math.exp(random.gauss(0, 0.002))
    print(",".join([r[c] for c in ("n_act", "n_total", "n_loop", "R", "E", "k", "tokens", "flops")] + [repr(loss)]))
' "$2" >> trained.csv
}

# The pilot: 81 small runs.
"$loopscale" simulate --law "$truth" --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 \
    --noise 0.002 --seed 1 -o trained.csv
for round in 1 2; do
    "$loopscale" fit --bootstrap 50 -o prior.json trained.csv > /dev/null
    "$loopscale" plan --law prior.json --have trained.csv $decision --budget 2e21 $grid -o batch.csv \
        | grep -E '^(chosen|compute|  with)'
    train batch.csv "$round"
    echo "round $round: $(($(wc -l < batch.csv) - 1)) runs trained, $(($(wc -l < trained.csv) - 1)) in all"
done
"$loopscale" fit -o final.json trained.csv > /dev/null
"$loopscale" solve --law final.json $decision --E 1,4,16 --R 1,2,3,4 | sed -n '1,7p'
