#!/bin/sh
# Regenerates the shipped sweeps from the truth files:
#     data/make-sweeps.sh [OUTPUT_DIR]        (default: data/sweeps)
# with loopscale on PATH, or LOOPSCALE=path/to/loopscale.  The output is
# deterministic: the same seed gives the same bytes.
set -eu
L=${LOOPSCALE:-loopscale}
data=$(cd "$(dirname "$0")" && pwd)
out=${1:-$data/sweeps}
R=1,2,3,4,6,8,16
D=1e11,2e11,3e11,4e11,5e11

"$L" simulate --law "$data/truth/moe-bounded-sparse.json" \
    --n-act 1e8,3e8,6e8,1e9 --tokens $D --E 1,2,4,8,16,32,64 --R $R \
    --noise 0.002 --seed 1 -o "$out/looped-moe.csv.gz"

"$L" simulate --law "$data/truth/moe-bounded-sparse.json" \
    --n-act 1e8,3e8,6e8,1e9 --tokens $D --E 1 --R $R \
    --noise 0.002 --seed 1 -o "$out/looped-dense.csv.gz"

"$L" simulate --law "$data/truth/moe-hyperbolic.json" \
    --n-act 3e8,6e8,1e9 --tokens $D --E 1,2,4,8,16 --R $R \
    --noise 0.002 --seed 1 -o "$out/looped-moe-hyperbolic.csv.gz"
