#!/bin/sh
# The validation example of docs/plan.md: the pilot, the prior fitted on
# it and the plan with its search and validation, as run on the machine the
# page was written on.  The search and the validation are Monte Carlo over
# simulated fits whose last digits differ between the fitter's AVX-512, AVX2
# and scalar copies (and so, now and then, which way a fit of a hard sweep
# falls), so the page shows this recorded output, tests/docs checks that it
# does, and a doc test runs the same commands for the lines that do not move.
#     bench/plan-example.sh [BUILD_DIR] > bench/plan-example.out
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-build}" && pwd)/loopscale
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ln -s "$root/data" data
"$bin" simulate --law data/truth/moe-hyperbolic.json --n-act 1e8,2e8,4e8 \
    --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 --noise 0.002 -o pilot.csv
"$bin" fit --bootstrap 100 -o prior.json pilot.csv > /dev/null 2>&1
"$bin" plan --law prior.json --have pilot.csv --flops 1e22 --mem 3GB --bits 4 \
    --budget 3.5e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11,3e11 --E 1,4,16 --R 1,2,3,4 \
    -o next.csv --validate 50 --truth data/truth/moe-hyperbolic.json --baseline-flops 1e22 2>/dev/null
