The serving side of solve: the KV cache and an activation allowance in the
memory budget, the cheapest configuration for lifetime inference or a target
loss, and the penalty of quantised weights.

A KV cache of 8 sequences of 8192 tokens changes what 3 GB of INT4 buys: the
answer of weights alone (R = 3, E = 16, the whole 3 GB in weights) leaves no
room for its cache; the cache grows with every loop, so the answer loops less.

  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --R 1,2,3,4,6,8 --E 1,4,16 -q 2>/dev/null | grep -E '^ |^R |^E |^weight'
                         chosen      lowest loss  no memory limit
  R (loops)              3           4            1
  E (experts)            16          16           16
  weight memory          3 GB        3 GB         23.8 GB
  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --R 1,2,3,4,6,8 --E 1,4,16 --context 8192 --batch 8
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: the template gives no attention heads: the KV cache counts every layer as multi-head attention, K and V each as wide as the model (a template describing the model gives its KV heads)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss: D = 5.462e+12 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 4.33e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 16, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  law      moe:bounded-sparse
  budget   1e+22 training FLOPs; 3e+09 bytes for weights at 4 bits, a KV cache of 8 x 8192 tokens at 4 bits
  epsilon  0.004412 (loss units)
  
                         chosen      lowest loss  no memory limit
  R (loops)              1           1            1
  E (experts)            16          16           16
  N_act                  3.051e+08   3.051e+08    4.33e+09*
  N_total                3.356e+09   3.356e+09    4.763e+10
  N_loop                 2.288e+08   2.288e+08    3.248e+09
  D (tokens)             5.462e+12*  5.462e+12*   3.849e+11
  tokens/N_act           1.79e+04    1.79e+04     88.88
  loss (predicted)       2.1789      2.1789       2.0575
  inference FLOPs/token  6.102e+08   6.102e+08    8.661e+09
  weight memory          1.68 GB     1.68 GB      23.8 GB
  KV cache               1.32 GB     1.32 GB      4.98 GB
  memory (all)           3 GB        3 GB         28.8 GB
  N_unroll               3.051e+08   3.051e+08    4.33e+09
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09, D 1e+11 to 5e+11

The document gives each part of the memory, and the serving budget.

  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --R 1,2,3,4,6,8 --E 1,4,16 --context 8192 --batch 8 --kv-bits 8 --activation-memory 200MB --format json -q 2>/dev/null | python3 -c '
  > import json, sys
  > d = json.load(sys.stdin)
  > print(d["context"], d["batch"], d["kv_bits"], d["activation_bytes"])
  > c = d["chosen"]
  > print(c["R"], c["E"], abs(c["weight_bytes"] + c["kv_bytes"] + 2e8 - c["memory_bytes"]) < 1e-3, c["memory_bytes"] <= 3e9)'
  8192 8 8 200000000
  1 16 True True

A cache that leaves no room for any model is refused.

  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --context 100M --batch 1000 -q
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: no candidate fits in 3e+09 bytes with its weights at 4 bits, its KV cache and activations
  [65]

Lifetime inference (Sardana et al.): the configuration of least training + T x
inference FLOPs among those within epsilon of the best loss; as T grows the
answer serves cheaper tokens, trained on fewer tokens than the budget buys
when inference is cheap and on all of it when it dominates.

  $ for T in 1e9 1e13 1e15; do loopscale solve --flops 1e22 --mem 3GB --bits 4 --R 1,2,3,4,6,8 --E 1,4,16 --inference-tokens $T -q 2>/dev/null | grep -E '^(R |N_act|inference FLOPs/|training|total)'; done
  R (loops)               4           4            1
  N_act                   5.455e+08   5.455e+08    2.735e+09*
  inference FLOPs/token   3.545e+09   3.545e+09    5.471e+09
  training FLOPs          8.717e+21   1e+22        4.084e+21
  total FLOPs             8.72e+21    1e+22        4.09e+21
  R (loops)               3           4            1
  N_act                   5.223e+08   5.455e+08    9.119e+08
  inference FLOPs/token   2.612e+09   3.545e+09    1.824e+09
  training FLOPs          1e+22       1e+22        8.98e+21
  total FLOPs             3.612e+22   4.545e+22    2.722e+22
  R (loops)               3           4            1
  N_act                   5.223e+08   5.455e+08    8.674e+08
  inference FLOPs/token   2.612e+09   3.545e+09    1.735e+09
  training FLOPs          1e+22       1e+22        1e+22
  total FLOPs             2.622e+24   3.555e+24    1.745e+24

The dual question: the cheapest training that reaches a loss under the memory.

  $ loopscale solve --target-loss 2.12 --mem 3GB --bits 4 --R 1,2,3,4,6,8 --E 1,4,16 -q 2>/dev/null | grep -E '^(budget|cost|R |E |N_act|D |loss|training)'
  budget   training as it costs; 3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  cost     training + no inference, to reach a loss of 2.1200
  R (loops)               4                    -  1
  E (experts)             16                   -  16
  N_act                   5.455e+08            -  2.267e+09*
  D (tokens)              4.764e+11            -  2.072e+11
  loss (predicted)        2.1200               -  2.1200
  training FLOPs          5.067e+21            -  2.819e+21

The penalty of quantised weights: fit --bits-column fits the law on the runs
at 16 bits and Kumar et al.'s constants on the runs below it, each against its
full-precision run; solve then adds the penalty at --bits 4 and says so.

  $ loopscale fit $TESTDIR/../data/quantised-sweep.csv --law dense --bits-column bits -o q.json | tail -2
  quantisation penalty (Kumar et al.'s post-training form, below 16 bits):
    C_T 0.0720047  gamma_D 0.513417  gamma_N 0.488049  gamma_post 0.731  (80 quantised runs, RMSE 1.465e-05)
  $ python3 -c 'import json; q = json.load(open("q.json"))["quantisation"]; print(q["form"], q["runs"], round(q["gamma_post"], 4), q["trained_bits"]); print(json.load(open("q.json"))["fit"]["filters"])'
  kumar2024-ptq 80 0.731 16
  ['--where bits>=16']
  $ loopscale solve --law q.json --flops 1e20 --mem 400MB --bits 4 --R 1 --E 1 2>&1 | grep -E 'penalty|^loss|^of which'
  loopscale solve: the loss includes the penalty of quantising the weights to 4 bits after training at 16 (Kumar et al.'s form, from q.json)
  loss (predicted)       2.5470     2.5470       2.5464
  of which quantisation  0.0027     0.0027       0.0024
  $ loopscale solve --law q.json --flops 1e20 --mem 400MB --bits 16 --R 1 --E 1 2>&1 | grep -c quantisation
  0
  [1]

A penalty can be attached to another law: any JSON file with a
"quantisation" member.

  $ python3 -c 'import json; print(json.dumps({"quantisation": json.load(open("q.json"))["quantisation"]}))' > penalty.json
  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --R 1,2,4 --E 1,4,16 --quantisation penalty.json 2>&1 | grep -E 'penalty|^of which'
  loopscale solve: the loss includes the penalty of quantising the weights to 4 bits after training at 16 (Kumar et al.'s form, from penalty.json)
  of which quantisation  0.0072      0.0072       0.0016

frontier takes the same options; its table adds the memory and the cost.

  $ loopscale frontier --flops 1e20,1e21,1e22 --mem 3GB --bits 4 --R 1,2,4 --E 1,4,16 --context 8192 --batch 8 --inference-tokens 1e12 -q 2>/dev/null
  law        moe:bounded-sparse (the configuration 'loopscale solve' chooses at each budget)
  memory     3e+09 bytes for weights at 4 bits, KV cache and activations
  KV cache   8 x 8192 tokens at 4 bits
  cost       training + 1e+12 inference tokens, within epsilon of the best loss
  epsilon    0.004412 (loss units)
  
  flops  R*  E*      N_act    N_total  D            D/N_act    loss  bound    memory   total FLOPs  dlnN_act/dlnF
  1e+20   1  16  2.613e+08  2.875e+09  6.377e+10*       244  2.3832  compute  2.66 GB    6.227e+20         0.0673
  1e+21   1  16  3.051e+08  3.356e+09  4.881e+11       1600  2.2424  memory   3 GB       1.504e+21         0.0336
  1e+22   1  16  3.051e+08  3.356e+09  4.21e+12*   1.38e+04  2.1833  memory   3 GB       8.317e+21         0.0000
  * outside the range the law was fitted on: D 1e+11 to 5e+11

A cache that takes nine tenths of the memory leaves the weights a toy
model: said, not only starred as an extrapolation.

  $ loopscale solve -q --flops 1e22 --mem 3GB --bits 4 --context 131072 --batch 64 2>&1 | grep 'KV cache takes'
  loopscale solve: warning: chosen: the KV cache takes 2.998e+09 of the 3e+09 bytes, leaving the weights 2.06e+06 (N_act = 9.579e+04): a shorter --context or a smaller --batch leaves the model more

A target below the law's irreducible loss is out of every model's reach,
and the refusal says why.

  $ loopscale solve -q --target-loss 1.5 --mem 3GB --bits 16
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: no candidate reaches a loss of 1.5000 in the memory given (the law's irreducible loss c is 1.8198: no model reaches below it)
  [65]

plan takes the memory side of serving (its decision compares losses, so
it has no --inference-tokens), and its decision line names the cache.

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4 --context 8192 --batch 8 -o kv-plan.csv 2>/dev/null | grep '^decision'
  decision   1e+22 training FLOPs; 3e+09 bytes for weights at 4 bits, the KV cache of 8192 x 8 tokens at 4 bits and 0 bytes of activations
  $ loopscale plan --flops 1e22 --budget 5e20 --inference-tokens 1e12 -o kv-plan.csv
  loopscale plan: unknown option '--inference-tokens'
  Try 'loopscale plan --help'.
  [64]

With a penalty, which grows with D, more compute never buys a higher
loss: past some budget each size trains on the tokens that give it the
lowest loss, not on all of F.

  $ loopscale frontier --law q.json --flops 1e20:1e26:7 --mem 400MB --bits 4 -q 2>/dev/null | awk '$1 ~ /^1e/ { print $1, $6, $8 }'
  1e+20 2.083e+10 2.5470
  1e+21 2.083e+11 2.3300
  1e+22 2.083e+12* 2.2354
  1e+23 6.093e+12* 2.2242
  1e+24 6.093e+12* 2.2242
  1e+25 6.093e+12* 2.2242
  1e+26 6.093e+12* 2.2242

The penalty's runs are a second read of the sweep: a stream is refused
before any work, and a configuration's repeated full-precision runs
count with their mean loss.

  $ loopscale fit - --law dense --bits-column bits -o stdin.json < $ROOT/tests/data/quantised-sweep.csv
  loopscale fit: --bits-column reads the sweep twice (the law's runs, then the penalty's): standard input can be read once; give a file
  Try 'loopscale fit --help'.
  [64]
  $ awk -F, 'NR > 2 && $3 == "16" { print; print; next } { print }' $ROOT/tests/data/quantised-sweep.csv > dup16.csv
  $ loopscale fit dup16.csv --law dense --bits-column bits -o dup.json 2>&1 | grep -E 'mean loss|quantised runs,'
  loopscale fit: 80 quantised runs measured against the mean loss of their configuration's repeated full-precision runs
    C_T 0.0720047  gamma_D 0.513417  gamma_N 0.488049  gamma_post 0.731  (80 quantised runs, RMSE 1.465e-05)

A penalty that could only be a typing error is refused where it is
written: one that grows with size, here.

  $ sed 's/"gamma_N": [0-9.e+-]*/"gamma_N": -5/' q.json > neg.json
  $ loopscale solve --law neg.json --flops 1e20 --mem 400MB --bits 4 --R 1 --E 1
  loopscale solve: neg.json:84:3: quantisation: gamma_N = -5: must be from 0 to 10 (the penalty falls with size)
  [65]

A penalty fitted on 3 to 8 bits records them; asked about 2 bits, the
answer is its form's extrapolation, and solve says so.

  $ python3 -c 'import json; print(json.load(open("q.json"))["quantisation"]["bits"])'
  [3, 8]
  $ loopscale solve --law q.json --flops 1e20 --mem 400MB --bits 2 --R 1 --E 1 2>&1 | grep 'fitted on 3'
  loopscale solve: warning: --bits 2: the quantisation penalty (from q.json) was fitted on 3 to 8 bits; at 2 it is its form's extrapolation

Tokens of context and sequences are whole numbers, with or without a
suffix, in every command that serves:

  $ loopscale solve --flops 1e21 --mem 3GB --bits 4 --context 8192.5
  loopscale solve: --context: '8192.5' is not a whole number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale frontier --flops 1e21 --mem 3GB --bits 4 --context 8k --batch 2.5
  loopscale frontier: --batch: '2.5' is not a whole number
  Try 'loopscale frontier --help'.
  [64]
