Numbers: a derived quantity that a double cannot hold is refused as bad
input (65) naming the input that caused it, in the table and in JSON alike,
never printed as "inf" nor refused later as an internal error (70).  In
options, a lower-case e after the digits is an exponent without digits and
an error, as "1e" is in a sweep cell; exa is written E ("3E", "3EB").

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e-300 > /dev/null
  loopscale solve: --n-act: '1e-300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e-300 --format json > /dev/null
  loopscale solve: --n-act: '1e-300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3e
  loopscale solve: --mem: '3e' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3eb
  loopscale solve: --mem: '3eb' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3EB --format json | grep -o '"mem_bytes": [^,]*'
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  "mem_bytes": 3e+18

A law whose terms add up past the largest double (c = 1.79e308 and A, B
near 1e308) predicts an infinite loss.  solve, isoflop (its minima, every
point of its CSV profiles, its plot) and predict share one rule and refuse
it with the configuration that caused it; the CSV is printed whole or not at
all.  A law whose minimum is finite but whose profile 30 times off it is not
prints its table and refuses its CSV:

  $ cat > inf.json <<'JSON'
  > {"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
  >  "params": {"A": 1e308, "alpha": 0.01, "B": 1e308, "beta": 0.01, "c": 1.79e308}}
  > JSON
  $ loopscale isoflop --law inf.json --flops 1e21
  loopscale isoflop: inf.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: N_act = 1.291e+10 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  [65]
  $ loopscale isoflop --law inf.json --flops 1e21 --format csv | wc -c
  loopscale isoflop: inf.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: N_act = 1.291e+10 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  0
  $ loopscale isoflop --law inf.json --flops 1e21 --plot inf.svg
  loopscale isoflop: inf.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: N_act = 1.291e+10 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  [65]
  $ loopscale solve --law inf.json --flops 1e21 --eps 0 --format json
  loopscale solve: inf.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: N_act = 1.291e+10 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  [65]
  $ loopscale predict --law inf.json --n-act 1.291e10 --tokens 1.291e10
  loopscale predict: loss is inf at this configuration, outside the range of double precision
  [65]
  $ printf 'n_act,tokens\n1.291e10,1.291e10\n' | loopscale predict --law inf.json -
  loopscale predict: <stdin>:2: the predicted loss is inf, outside the range of double precision
  [65]
  $ loopscale simulate --law inf.json --n-act 1.291e10 --tokens 1.291e10 -o inf.csv
  loopscale simulate: the law gives the run n_act = 1.291e+10, tokens = 1.291e+10, E = 1, R = 1 a loss of inf, outside the range of double precision
  [65]
  $ cat > edge.json <<'JSON'
  > {"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
  >  "params": {"A": 1e308, "alpha": 0.1, "B": 1e300, "beta": 0.3, "c": 1.786e308}}
  > JSON
  $ loopscale isoflop --law edge.json --flops 1e21 | tail -1 | cut -c1-40
  loopscale isoflop: edge.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: warning: F = 1e+21, E = 1, R = 1: N_act = 1.667e+20, D = 1: at an end of the search range (N_act 1e3 and up, D at least one token), not an optimum (a budget that small, or a law whose exponents are not positive)
  1e+21  1  1  1.667e+20   1         6e-21
  $ loopscale isoflop --law edge.json --flops 1e21 --format csv | wc -c
  loopscale isoflop: edge.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: N_act = 5.55556e+18 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  0
  $ loopscale isoflop --law edge.json --flops 1e23,1e21 --format csv | wc -c
  loopscale isoflop: edge.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale isoflop: N_act = 5.55556e+18 at 1e+21 FLOPs (E = 1, R = 1) gives predicted loss = inf, outside double precision
  0
  $ ls *.svg *.csv
  ls: cannot access '*.svg': No such file or directory
  ls: cannot access '*.csv': No such file or directory
  [2]

A value computed from finite inputs can still overflow: simulate's n_total
from an expert count of 1e308 through the template is refused like any
other sweep row that leaves double precision, and an RMSE whose squares
overflow (a loss of 1e300) is computed scaled, printed as a number:

  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 --E 1e308
  loopscale simulate: --E: '1e308' is outside its range: an integer from 1 to 1e+06 (experts)
  Try 'loopscale simulate --help'.
  [64]
  $ (zcat $ROOT/data/sweeps/looped-dense.csv.gz; echo 300000000,300000000,225000000,1,1,1,100000000000,1.8e+20,1e300) > big.csv
  $ loopscale holdout --laws dense --axes N big.csv 2> /dev/null | grep '^| dense'
  | dense | 5 | 8.4215e+298 |  0.0271 | 1155.5 | 1170.3 |
  $ loopscale holdout --laws dense --axes N --format json big.csv 2> /dev/null | grep -c 'e+298'
  1

A model smaller than one parameter is refused where sizes are given:

  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e-5
  loopscale solve: --n-act: '1e-5' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 0.5 --tokens 1e11
  loopscale simulate: --n-act: '0.5' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale simulate --help'.
  [64]

help, --help and --version take nothing more:

  $ loopscale help fit extra
  loopscale: help: unexpected argument 'extra'
  Try 'loopscale --help'.
  [64]
  $ loopscale --version now
  loopscale: --version: unexpected argument 'now'
  Try 'loopscale --help'.
  [64]
  $ loopscale --help me
  loopscale: --help: unexpected argument 'me'
  Try 'loopscale --help'.
  [64]

A negative zero entropy (a writer's -0) is zero: the same answer as 0, not
a sign bit read as a huge bin index:

  $ printf 'token,loop,entropy,nll\n0,1,-0,3\n0,2,1,2\n' > negzero.csv
  $ printf 'token,loop,entropy,nll\n0,1,0,3\n0,2,1,2\n' > zero.csv
  $ loopscale exit --format csv negzero.csv > a.txt && loopscale exit --format csv zero.csv > b.txt && cmp a.txt b.txt

Counts and sizes are two unit systems that disagree on B.  A FLOP budget is
a count: k, M, B or G, T, P, E, with B a billion (2.8B is 2.8e9 FLOPs, as
logs write parameter and token counts); a size in bytes given for one is
refused, naming the difference.  A memory size is bytes: k M G T P E or Ki
Mi Gi Ti with an optional B; a B straight after the number is refused as
ambiguous (3 bytes, or 3 billion?).

  $ loopscale solve --law $TRUTH --flops 2.8B --eps 0 --format json | grep -o '"flops": [^,]*'
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  "flops": 2800000000
  $ loopscale solve --law $TRUTH --flops 3P --eps 0 --format json | grep -o '"flops": [^,]*'
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  "flops": 3e+15
  $ loopscale solve --law $TRUTH --flops 2.8GB --mem 3GB
  loopscale solve: --flops: '2.8GB' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3B
  loopscale solve: --mem: '3B' is ambiguous: B is a byte in a size but a billion in a count; write 3GB for 3e9 bytes, or the number alone for bytes
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $TRUTH --flops 1e20,3GiB
  loopscale isoflop: --flops: '3GiB' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law $TRUTH --flops 100P,1E --E 1 --R 1 | cut -c1-7
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  flops  
  1e+17  
  1e+18  
  $ loopscale plan --law $TRUTH --budget 5e20 --flops 3TB --mem 3GB
  loopscale plan: --flops: '3TB' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale plan --help'.
  [64]

A law that predicts a huge loss (here every scale A of a fit and its
bootstrap draws set to 1e12) prints it in a bounded format, never as a
fixed-point number hundreds of digits long: losses beyond 1e6 are printed
with five significant digits, in every table.

  $ loopscale simulate --law $TRUTH --n-act 1e8,1e9,1e10 --tokens 1e10,1e11,1e12 --noise 0.01 -o small.csv
  $ loopscale fit --law dense --bootstrap 20 -o b20.json small.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  $ sed -E 's/^      \[[0-9.]+,/      [1e12,/; s/"A": [0-9.]+/"A": 1e12/' b20.json > big.json
  $ loopscale solve --law big.json --flops 1e21 --mem 1GB --uncertainty 2> /dev/null | grep loss
  epsilon  0.01088 (loss units)
                         chosen      lowest loss  no memory limit
  loss \(predicted\)       1\.5439e\+09  1\.5439e\+09   294105\.8\d{3} (re)
    loss    \[\d\.\d{4}e\+08, \d\.\d{4}e\+09\] (re)
  $ loopscale isoflop --law big.json --flops 1e21 --E 1 --R 1 2> /dev/null | head -2
  flops  E  R  N_act*      D*  tokens/N_act        loss*
  1e\+21  1  1  1\.667e\+20\*  1\*         6e-21  294105\.8\d{3} (re)
  $ loopscale predict --law big.json --n-act 1e9 --tokens 1e11 2> /dev/null
  loss                       1.23405e+09
  n_eff                      1e+09
  n_unroll                   1e+09
  rho_eff                    1
  tokens                     1e+11
  train_flops                6e+20
  inference_flops_per_token  2e+09
