What a budget should buy, under the default law (compiled in) and under the
truth the shipped sweep was drawn from.

  $ loopscale solve --flops 1e21 --mem 3GB --bits 4 --E 1,2,4,8,16
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: no memory limit: N_act = 1.335e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 16, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  law      moe:bounded-sparse
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  epsilon  0.004412 (loss units)
  
                         chosen     lowest loss  no memory limit
  R (loops)              2          2            1
  E (experts)            16         16           16
  N_act                  5.455e+08  5.455e+08    1.335e+09*
  N_total                6e+09      6e+09        1.469e+10
  N_loop                 4.091e+08  4.091e+08    1.001e+09
  D (tokens)             1.746e+11  1.746e+11    1.248e+11
  tokens/N_act           320.1      320.1        93.5
  loss (predicted)       2.1971     2.1971       2.1832
  inference FLOPs/token  1.909e+09  1.909e+09    2.67e+09
  weight memory          3 GB       3 GB         7.34 GB
  N_unroll               9.545e+08  9.545e+08    1.335e+09
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09
  $ loopscale solve --flops 1e23 --mem 3GB --bits 4 --E 1,2,4,8,16 --format json | head -20 | python3 $ROOT/tests/cli/round.py
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen: N_act = 2e+09 (fitted 1e+08 to 1e+09), D = 3.333e+12 (fitted 1e+11 to 5e+11), F = 1e+23 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss: D = 4.889e+12 (fitted 1e+11 to 5e+11), F = 1e+23 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 1.404e+10 (fitted 1e+08 to 1e+09), D = 1.187e+12 (fitted 1e+11 to 5e+11), F = 1e+23 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss, no memory limit: E = 16, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  {
    "format": "loopscale-solve/1",
    "flops": 1e+23,
    "mem_bytes": 3000000000,
    "bits": 4,
    "eps": 0.00441191,
    "chosen": {
      "feasible": true,
      "R": 3,
      "E": 4,
      "n_act": 2000000000,
      "n_total": 6000000000,
      "n_loop": 1500000000,
      "n_unroll": 5000000000,
      "tokens": 3.33333e+12,
      "tokens_per_parameter": 1666.67,
      "loss": 2.04419,
      "inference_flops_per_token": 10000000000,
      "weight_bytes": 3000000000,
      "bound": "memory",

The default candidates stay inside the R and E the law was fitted on, so the
default query answers inside the data, without a warning:

  $ loopscale solve --flops 1e21 --mem 3GB --bits 4 2>&1 >/dev/null
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)

Beyond the data every column that extrapolates says so: starred in the table,
one warning per column on standard error, each quantity in the JSON's
`warnings`, and dashed with hollow markers in the plot:

  $ loopscale solve --flops 1e24 --mem 3GB --bits 4 --E 1,16,64
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen: N_act = 6e+09 (fitted 1e+08 to 1e+09), D = 1.111e+13 (fitted 1e+11 to 5e+11), F = 1e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss: D = 3.595e+13 (fitted 1e+11 to 5e+11), F = 1e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 2.986e+10 (fitted 1e+08 to 1e+09), D = 5.582e+12 (fitted 1e+11 to 5e+11), F = 1e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: E = 64, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  law      moe:bounded-sparse
  budget   1e+24 training FLOPs; 3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  epsilon  0.004412 (loss units)
  
                         chosen      lowest loss  no memory limit
  R (loops)              3           11           1
  E (experts)            1           16           64
  N_act                  6e+09*      5.455e+08    2.986e+10*
  N_total                6e+09       6e+09        1.284e+12
  N_loop                 4.5e+09     4.091e+08    2.239e+10
  D (tokens)             1.111e+13*  3.595e+13*   5.582e+12*
  tokens/N_act           1852        6.59e+04     187
  loss (predicted)       2.0159      2.0138       1.9092
  inference FLOPs/token  3e+10       9.273e+09    5.972e+10
  weight memory          3 GB        3 GB         642 GB
  N_unroll               1.5e+10     4.636e+09    2.986e+10
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09, D 1e+11 to 5e+11, F 6e+19 to 3.675e+22
  $ loopscale solve --flops 1e24 --mem 3GB --bits 4 --E 1,16,64 --format json 2>/dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin); [print(w["configuration"], w["quantity"], w["fitted"]) for w in d["warnings"]]; print("chosen outside:", d["chosen"]["outside"], "candidates outside:", d["candidates_outside"])'
  chosen N_act [100000000, 1000000000]
  chosen D [100000000000, 500000000000]
  chosen F [6e+19, 3.675e+22]
  lowest_loss D [100000000000, 500000000000]
  lowest_loss F [6e+19, 3.675e+22]
  unconstrained N_act [100000000, 1000000000]
  unconstrained D [100000000000, 500000000000]
  unconstrained F [6e+19, 3.675e+22]
  chosen outside: ['N_act', 'D', 'F'] candidates outside: 48
  $ loopscale solve --flops 1e24 --mem 3GB --bits 4 --E 1,16,64 --plot beyond.pdf 2>/dev/null >/dev/null && pdftotext beyond.pdf - | grep -o 'outside the fitted ranges.*'
  outside the fitted ranges (Nact, D, F): extrapolated
  $ loopscale solve --flops 1e40 2>&1 >/dev/null | grep 'extrapolation'
  loopscale solve: warning: chosen: N_act = 4.257e+19 (fitted 1e+08 to 1e+09), D = 3.916e+19 (fitted 1e+11 to 5e+11), F = 1e+40 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss, no memory limit: N_act = 2.866e+18 (fitted 1e+08 to 1e+09), D = 5.815e+20 (fitted 1e+11 to 5e+11), F = 1e+40 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation

With the truth and epsilon 0 the choice is the lowest loss:

  $ loopscale solve --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e23 --mem 3GB --bits 4 --eps 0 --R 1,2,4,8 --E 1,8 --table
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 8, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  law      moe:bounded-sparse
  budget   1e+23 training FLOPs; 3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  epsilon  0 (loss units)
  
                         chosen     lowest loss  no memory limit
  R (loops)              4          4            1
  E (experts)            8          8            8
  N_act                  1.059e+09  1.059e+09    1.658e+10
  N_total                6e+09      6e+09        9.398e+10
  N_loop                 7.941e+08  7.941e+08    1.244e+10
  D (tokens)             4.843e+12  4.843e+12    1.005e+12
  tokens/N_act           4574       4574         60.6
  loss (predicted)       2.0414     2.0414       1.9875
  inference FLOPs/token  6.882e+09  6.882e+09    3.317e+10
  weight memory          3 GB       3 GB         47 GB
  N_unroll               3.441e+09  3.441e+09    1.658e+10
  
  Every candidate (N_act optimised under the memory budget):
  E  R      N_act          D    loss  memory  binds   within eps
  1  1      6e+09  2.778e+12  2.0670  3 GB    memory  
  1  2      6e+09  1.587e+12  2.0574  3 GB    memory  
  1  4      6e+09  8.547e+11  2.0635  3 GB    memory  
  1  8      6e+09  4.444e+11  2.0844  3 GB    memory  
  8  1  1.059e+09  1.574e+13  2.0785  3 GB    memory  
  8  2  1.059e+09  8.995e+12  2.0542  3 GB    memory  
  8  4  1.059e+09  4.843e+12  2.0414  3 GB    memory  chosen
  8  8  1.059e+09  2.519e+12  2.0429  3 GB    memory  

A ladder of sizes, and uncertainty under the default law's bootstrap draws:

  $ loopscale solve --flops 1e22 --mem 10GB --bits 4 --E 1,4,16 --n-act 3e8,6e8,1e9,1.6e9,2e9 2>/dev/null | sed -n '5,9p'
                         chosen      lowest loss  no memory limit
  R (loops)              2           2            2
  E (experts)            16          16           16
  N_act                  1.6e+09*    1.6e+09*     2e+09*
  N_total                1.76e+10    1.76e+10     2.2e+10
  $ loopscale solve --flops 1e21 --mem 3GB --bits 4 --E 1,2,4,8,16 --uncertainty 2>/dev/null | sed -n '/bootstrap/,$p'
  Under the law's 1000 bootstrap draws (95% intervals of the chosen configuration):
    R* = 2   E* = 16  100.0%   binds: memory 100%
    N_act*  [5.455e+08, 5.455e+08]
    D*      [1.746e+11, 1.746e+11]
    loss    [2.1963, 2.1978]

The template in force:

  $ loopscale solve --print-template
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  {
    "format": "loopscale-template/1",
    "top_k": 1,
    "prelude_layers": 2,
    "loop_layers": 12,
    "coda_layers": 2,
    "attention_share": 0.3333333333333333,
    "routed_share": 0.6666666666666666,
    "fixed_share": 0,
    "per_loop_share": 0,
    "loop_share": 0.75,
    "flops_convention": "6nd"
  }
  $ echo '{"attention_share": 0.5, "top_k": 2}' > t.json
  $ loopscale solve --print-template --template t.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: t.json is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 16.5 where the runs had 43 (at E = 64, R = 1, 61.6% apart); the law predicts the loss of models like its runs, and the answers count parameters as t.json does
  {
    "format": "loopscale-template/1",
    "top_k": 2,
    "prelude_layers": 2,
    "loop_layers": 12,
    "coda_layers": 2,
    "attention_share": 0.5,
    "routed_share": 0.5,
    "fixed_share": 0,
    "per_loop_share": 0,
    "loop_share": 0.75,
    "flops_convention": "6nd"
  }

Errors:

  $ loopscale solve --mem 3GB
  loopscale solve: give the compute budget with --flops F
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops lots
  loopscale solve: --flops: 'lots' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 3XB
  loopscale solve: --mem: '3XB' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 100 --bits 16 2>&1 | tail -1
  loopscale solve: no candidate fits in 100 bytes at 16 bits per weight
  $ loopscale solve --flops 1e21 --R 1.5
  loopscale solve: --R: '1.5' is not an integer (loops)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --eps -1
  loopscale solve: --eps: '-1' is outside its range: from 0 to 10 (nats)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --uncertainty --law $ROOT/data/truth/moe-bounded-sparse.json
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: no --mem given: no memory limit
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  loopscale solve: the law has no bootstrap draws for --uncertainty: refit it with `loopscale fit --bootstrap N -o LAW`, which records them
  [65]
  $ loopscale solve --flops 1e21 --template t.json --E 1 2>&1 | tail -2
  loopscale solve: E = 1 is below the template's top_k (2)
  Try 'loopscale solve --help'.

An answer at an end of the search range is not an optimum, and solve and
isoflop say so: a Chinchilla law typed with the wrong sign on alpha lands
on the search's floor, N_act = 1000, and so does a budget too small for
any real model. The largest E searched is an end too, unless it is the
largest the law was fitted on (searching further is extrapolating, which
the stars say).

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > chinchilla.json
  $ loopscale solve --law chinchilla.json --flops 1e6 --E 1 2>&1 >/dev/null | grep 'end of the search'
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1000 at the floor of the search (1e3): at an end of the search range, not an optimum (a budget that small, or a law whose exponents are not positive)
  $ loopscale isoflop --law chinchilla.json --flops 1e6,1e21 --E 1 2>&1 >/dev/null | grep 'end of the search'
  loopscale isoflop: warning: F = 1e+06, E = 1, R = 1: N_act = 1000, D = 166.7: at an end of the search range (N_act 1e3 and up, D at least one token), not an optimum (a budget that small, or a law whose exponents are not positive)
  $ loopscale isoflop --law chinchilla.json --flops 1e21 --E 1 2>&1 >/dev/null | grep -c 'end of the search'
  0
  [1]
  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --E 1,2,4,8,16 2>&1 >/dev/null | grep 'end of the search'
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 16, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 2>&1 >/dev/null | grep -c 'end of the search'
  1


Intervals under the draws that reach outside the fitted range are starred
too:

  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --uncertainty 2>/dev/null | sed -n '/^  N_act\*/,$p'
    N_act*  [2.769e+08, 5.455e+08]
    D*      [9.402e+11, 1.505e+12]*
    loss    [2.0912, 2.0975]
    * reaches outside the range the law was fitted on: D 1e+11 to 5e+11

A law that ignores E gives every E the same loss up to the search's
rounding; at epsilon 0 that rounding does not choose the experts:

  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > plain.json
  $ loopscale solve --law plain.json --flops 1e21 --mem 40GB --bits 16 --eps 0 --E 1,2,4,8 --format json | python3 -c 'import json, sys; c = json.load(sys.stdin)["chosen"]; print(c["R"], c["E"])'
  loopscale solve: plain.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  1 1
