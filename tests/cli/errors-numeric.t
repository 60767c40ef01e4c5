Numerical faults.  A fit that cannot be trusted says why and does not write
a law file: too few runs for its free parameters (65), a sweep that cannot
tell the parameters apart (3), a solve that did not converge (3).  Laws are
evaluated at extreme configurations without overflow, and a value that
does leave the range of doubles is refused, never printed as inf or nan.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale simulate --law $TRUTH --n-act 1e8,2e8,4e8,1e9,2e9,4e9,1e10 --tokens 1e11 --noise 0.01 -o oneD.csv
  $ loopscale simulate --law $TRUTH --n-act 1e9 --tokens 1e10,2e10,4e10,1e11,2e11,4e11,1e12 --noise 0.01 -o oneN.csv
  $ loopscale simulate --law $TRUTH --n-act 1e8,1e9,1e10 --tokens 1e10,1e11,1e12 --noise 0.01 -o small.csv
  $ echo precious > law.json

Too few runs:

  $ head -3 small.csv > two.csv
  $ loopscale fit --law dense two.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: two.csv: 2 runs cannot determine 5 free parameters
  [65]
  $ head -6 small.csv > five.csv
  $ loopscale fit --law dense -o law.json five.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: five.csv: 5 runs for 5 free parameters leave no residual to judge the fit by or to estimate its errors (add runs, or --fix some); no law file written (law.json keeps its old content)
  [65]
  $ loopscale fit --law dense --fix alpha=0.34 -o law.json five.csv | grep -E '^(runs|converged)'
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 1.2e+05 is poorly determined: its 95% interval from its standard error [0.754, 1.92e+10] spans a factor 2.5e+10, more than 1000
  loopscale fit: warning: beta = 0.553 is poorly determined: its 95% interval from its standard error [0.0142, 1.09] is 1.1 wide, more than 0.5
  loopscale fit: warning: the compute-optimal exponent a = 0.619 is poorly determined: its 95% interval from the standard errors [0.39, 0.849] is 0.46 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       5 (five.csv)
  converged  yes \(\d+ iterations\) (re)
  $ cat law.json | grep -c '"alpha": 0.34'
  1
  $ echo precious > law.json

A sweep where every run has one token count (B, beta and c act as one
constant) or one size (A, alpha and c): a solve would converge, but to one
of many equally good points, so no fit is printed and no law written:

  $ loopscale fit --law dense -o law.json oneD.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has tokens = 1e+11, so B D^-beta is one constant and B, beta and c cannot be told apart; no law file written (law.json keeps its old content)
  [3]
  $ loopscale fit --law dense oneN.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 1e+09, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no fit printed
  [3]
  $ cat law.json
  precious

Fixing the parameters the sweep cannot see makes it a fit again:

  $ loopscale fit --law dense --fix B=410.7 --fix beta=0.28 oneD.csv | grep -E '^(B|beta|c) '
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: the compute-optimal exponent a = 0.459 is poorly determined: its 95% interval from the standard errors [0.357, 0.561] is 0.204 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  B             410.7  held
  beta           0.28  held
  c +[0-9.]+ +[0-9.]+ (re)

Held out along D, a sweep with three token counts trains on two, which
cannot tell B, beta and c apart: that cell is marked like a fit that did
not converge (the in-sample fit, on all three, is sound).  Its value is
wherever that undetermined fit stops, which the last bits of a sum decide
(it differs between the optimised and the sanitizer builds), so only its
shape is pinned:

  $ loopscale simulate --law $TRUTH --n-act 1e8,3e8,1e9,3e9,1e10 --tokens 3e10,1e11,3e11 --R 1,2,4 --noise 0.01 -o threeD.csv
  $ loopscale holdout --laws dense:bounded --axes D threeD.csv
  | law           | k | in-sample | D=3e+11 |    AIC |    BIC |
  |---------------|--:|----------:|---------|-------:|-------:|
  \| dense:bounded \| 7 \|    0\.0216 \| 0\.0\d+\* \| -409\.8 \| -397\.2 \| (re)
  
  RMSE in loss units; the held-out columns fit on the other runs (train/test runs: D=3e+11 30/15).
  * the fit behind this number did not converge, or cannot tell its parameters apart.

A law the sweep cannot identify parts of is fitted with those parts held
at their neutral values, with a warning (the dense sweep has no experts):

  $ loopscale fit --law moe:bounded $ROOT/data/sweeps/looped-dense.csv.gz > /dev/null
  loopscale fit: columns the law does not read: n_total, k
  loopscale fit: warning: delta, gamma, omega, zeta, E_max are held at 0, 0, 0, 0, 1000000: no run has E > 1
  loopscale fit: warning: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted

A solve that does not converge (status 3, nothing written):

  $ loopscale fit --law dense --max-iterations 1 --starts 2 -o law.json small.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the best of 2 starts did not converge (after 1 iteration); no law file written (law.json keeps its old content)
  [3]
  $ cat law.json
  precious

Extreme configurations: N_act = 1e15, D = 1e6, R = 1000, E = 4096, under
every mapping, give finite losses that sit where the law says: between the
irreducible loss c and c plus both terms at the smallest sizes.

  $ for law in linear power bounded bounded-sparse hyperbolic log; do
  >   loopscale fit --law moe:$law --starts 4 --format json $ROOT/data/sweeps/looped-moe.csv.gz > $law.json 2> /dev/null
  >   loopscale predict --law $law.json --n-act 1e15 --n-total 2.731e18 --n-loop 7.5e14 --R 1000 --E 4096 --tokens 1e6 --format csv | tail -1 | cut -d, -f1 | python3 -c 'import sys; x = float(sys.stdin.read()); print("'$law'", 1.5 < x < 100)'
  > done
  loopscale predict: warning: linear\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale predict: warning: linear\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale predict: warning: linear\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: linear.json's fit: the residuals trend along N: their rank correlation with ln N is 0.64 (t = 26.1): the law misses how the loss changes with N; try another law or mapping
  loopscale predict: warning: linear.json's fit: the residuals trend along R: their rank correlation with ln R is -0.67 (t = -27.8): the law misses how the loss changes with R; try another law or mapping
  loopscale predict: warning: linear.json's fit: the RMSE, 0.0453, is 4.2 times the noise the runs themselves show (0.0107, from each run's nearest neighbour): the law does not describe these runs
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  linear True
  loopscale predict: warning: power\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  power True
  loopscale predict: warning: bounded\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  bounded True
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  bounded-sparse True
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  hyperbolic True
  loopscale predict: warning: log\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale predict: warning: N_act = 1e+15 (fitted 1e+08 to 1e+09), D = 1e+06 (fitted 1e+11 to 5e+11), R = 1000 (fitted 1 to 16), E = 4096 (fitted 1 to 64), F = 4.501e+24 (fitted 6e+19 to 3.675e+22): outside the ranges the law was fitted on, an extrapolation
  log True
  $ loopscale predict --law $TRUTH --n-act 1e15 --n-total 2.731e18 --n-loop 7.5e14 --R 1000 --E 4096 --tokens 1e6 | python3 $ROOT/tests/cli/round.py
  loss                       15.2473
  n_eff                      1.53534e+16
  n_unroll                   7.5025e+17
  rho_eff                    15.3534
  tokens                     1e+06
  train_flops                4.5015e+24
  inference_flops_per_token  1.5005e+18
  $ loopscale predict --law $TRUTH --n-act 1e15 --n-total 2.731e18 --n-loop 7.5e14 --R 1000 --E 4096 --tokens 1e6 --format json | python3 $ROOT/tests/cli/round.py
  {
    "format": "loopscale-predict/1",
    "loss": 15.2473,
    "n_eff": 15353410462467064,
    "n_unroll": 7.5025e+17,
    "rho_eff": 15.3534,
    "tokens": 1000000,
    "train_flops": 4.5015e+24,
    "inference_flops_per_token": 1.5005e+18
  }

An active ratio m = N_act / N_total below the range of doubles cannot be
typed: the options' ranges refuse its sizes (the library's limit, the
linear slope kappa1 / kappa2 per loop, is checked by unit_law):

  $ loopscale predict --law $TRUTH --n-act 1e-300 --n-total 1e300 --n-loop 1e-300 --R 1000 --E 4096 --tokens 1e11
  loopscale predict: --n-act: '1e-300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale predict --help'.
  [64]

Values that leave the range of doubles are refused (65):

  $ loopscale predict --law $TRUTH --n-act 1e300 --n-loop 1e300 --R 1e300 --tokens 1e300
  loopscale predict: --n-act: '1e300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH --n-act 1e-300 --tokens 1e-300
  loopscale predict: --n-act: '1e-300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale predict --help'.
  [64]
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 1.5e308, "alpha": 0.001, "B": 1.5e308, "beta": 0.001, "c": 1.69}}\n' > wild.json
  $ loopscale predict --law wild.json --n-act 1e9 --tokens 1e11
  loopscale predict: loss is inf at this configuration, outside the range of double precision
  [65]
  $ printf 'n_act,tokens,loss\n1e3,1e11,2.5\n1e9,1e11,2.5\n' > two-runs.csv
  $ loopscale predict --law wild.json two-runs.csv
  loopscale predict: two-runs.csv:2: the predicted loss is inf, outside the range of double precision
  [65]
  $ loopscale simulate --law $TRUTH --n-act 1e300 --tokens 1e300 --R 1000
  loopscale simulate: --n-act: '1e300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 1e9,0.4 --tokens 1e10
  loopscale simulate: --n-act: '0.4' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale simulate --help'.
  [64]

Budgets too small to train anything, or too large for the default law to
mean much, still give a clear line or a finite answer:

  $ loopscale solve --flops 1 2>&1 | tail -1
  loopscale solve: no model fits a budget of 1 FLOP
  $ loopscale isoflop --flops 1e21,1 2> /dev/null
  [65]
  $ loopscale solve --flops 1e40 --format json 2> /dev/null | python3 -c 'import json, math, sys; d = json.load(sys.stdin)["chosen"]; print(all(math.isfinite(v) for v in d.values() if isinstance(v, (int, float))))'
  True

Results that cannot be represented.  route's MMR is e to the mean gap
between the largest and the median logit, exit's perplexity e to the mean
NLL: where that leaves double precision (a gap or NLL past ln(DBL_MAX) =
709.78) the command refuses the input, naming it, in every format (JSON
exited 70, an internal error, on an infinity):

  $ printf 'token,loop,layer,z0,z1,z2\n0,1,1,710,0,0\n' > gap710.csv
  $ loopscale route -k 1 gap710.csv
  loopscale route: layer 1, loop 1: the mean gap between the largest and the median logit is 710, so MMR = e^710 is beyond double precision (are these logits?)
  [65]
  $ loopscale route -k 1 --format json gap710.csv
  loopscale route: layer 1, loop 1: the mean gap between the largest and the median logit is 710, so MMR = e^710 is beyond double precision (are these logits?)
  [65]
  $ printf 'token,loop,layer,z0,z1,z2\n0,1,1,0,0,0\n0,2,1,1500,0,0\n' > gap750.csv
  $ loopscale route -k 1 gap750.csv
  loopscale route: layer 1, loop 2: the mean gap between the largest and the median logit is 1500, so MMR = e^1500 is beyond double precision (are these logits?)
  [65]
  $ printf 'token,loop,layer,z0,z1,z2\n0,1,1,700,0,0\n' > gap700.csv
  $ loopscale route -k 1 gap700.csv | tail -1
      1  all   0.3333  1.0142e+304     1.000         -         -     0
  $ loopscale route -k 1 --format csv gap700.csv | tail -1
  1,all,0.3333333333333333,1.0142320547350045e+304,1,,,0
  $ printf 'token,loop,entropy,nll\n0,1,2,800\n0,2,1,800\n' > nll800.csv
  $ loopscale exit nll800.csv
  loopscale exit: the NLL averages 800 nats per token, so the perplexity e^800 is beyond double precision (is the NLL in nats per token?)
  [65]
  $ loopscale exit --format json nll800.csv
  loopscale exit: the NLL averages 800 nats per token, so the perplexity e^800 is beyond double precision (is the NLL in nats per token?)
  [65]
  $ printf 'token,loop,entropy,nll\n0,1,2,1e300\n0,2,1,2\n' > nllhuge.csv
  $ loopscale exit nllhuge.csv
  loopscale exit: the NLL averages 1e+300 nats per token, so the perplexity e^1e+300 is beyond double precision (is the NLL in nats per token?)
  [65]
  $ printf 'token,loop,entropy,nll\n0,1,2,709\n0,2,1,700\n' > nll709.csv
  $ loopscale exit --format csv nll709.csv | head -2
  threshold,saved,mean_loops,mean_nll,perplexity,pareto
  0,0,2,700,1.0142320547350045e+304,1

FLOPs saved are shares of prelude + L loop + coda; costs whose sum leaves
double precision are refused (they printed 0.00% saved):

  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n' > e.csv
  $ loopscale exit --loop 1e308 --prelude 1e308 e.csv
  loopscale exit: --loop: '1e308' is outside its range: from 1e-06 to 1e+06 (relative cost)
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --loop 1e307 --prelude 1e307 --coda 1e307 --format csv e.csv
  loopscale exit: --loop: '1e307' is outside its range: from 1e-06 to 1e+06 (relative cost)
  Try 'loopscale exit --help'.
  [64]


One rule for a configuration, whether it is a sweep row or options: a
compute (N_unroll = n_act + (R - 1) n_loop, or 6 N_unroll D) that leaves
double precision is refused by both (the row was predicted and fitted):

  $ printf 'n_act,tokens,R,n_loop,loss\n1e9,1e11,1e308,1e8,2\n' > r.csv
  $ loopscale predict --law $TRUTH r.csv
  loopscale predict: r.csv:2: column 'R': '1e308' is outside its range: an integer from 1 to 10000 (loops)
  [65]
  $ loopscale fit --law dense:linear r.csv
  loopscale fit: r.csv:2: column 'R': '1e308' is outside its range: an integer from 1 to 10000 (loops)
  [65]
  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 1e11 --R 1e308 --n-loop 1e8
  loopscale predict: --R: '1e308' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale predict --help'.
  [64]
  $ printf 'n_act,tokens,loss\n1e300,1e11,2\n' > d.csv
  $ loopscale predict --law $TRUTH d.csv
  loopscale predict: d.csv:2: column 'n_act': '1e300' is outside its range: from 1 to 1e+20 (parameters)
  [65]
  $ loopscale predict --law $TRUTH --n-act 1e300 --tokens 1e11
  loopscale predict: --n-act: '1e300' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale predict --help'.
  [64]
  $ printf 'n_act,flops,loss\n1e9,1e-300,2\n' > f.csv
  $ loopscale predict --law $TRUTH f.csv
  loopscale predict: f.csv:2: column 'flops': '1e-300' is outside its range: from 1 to 1e+40 (FLOPs)
  [65]

Bootstrap intervals need draws enough to read a 95% interval from: with
one or two, the 2.5% and 97.5% quantiles are the draws themselves, a
zero-width "interval" that may exclude the estimate.  fit and report take
--bootstrap 0 (none) or at least 20; solve --uncertainty refuses a law
file with fewer draws (65):

  $ loopscale fit --law dense --bootstrap 1 -o /dev/null small.csv
  loopscale fit: --bootstrap: '1' is too few draws for an interval: at least 20 (or 0 for none)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale report --bootstrap 19 -o r.html small.csv
  loopscale report: --bootstrap: '19' is too few draws for an interval: at least 20 (or 0 for none)
  Try 'loopscale report --help'.
  [64]
  $ loopscale fit --law dense --bootstrap 20 -o b20.json small.csv | grep -c '\['
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  6
  $ awk '/^      \[/ && ++n >= 10 && n < 20 {next} {print}' b20.json | sed -E 's/"n": 20/"n": 10/' > b10.json
  $ grep -c '^      \[' b10.json
  10
  $ loopscale solve --law b10.json --flops 1e21 --mem 1GB --uncertainty > /dev/null
  loopscale solve: the law has 10 bootstrap draws, too few for intervals (at least 20)
  [65]

A free parameter the runs do not determine (E_max running off to 1e29) is
named in a warning by fit, and by report on standard error and on the
page alike:

  $ loopscale simulate --law $TRUTH --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --R 1,2,4 --E 1,4,16 --noise 0.01 -o med.csv
  $ loopscale fit -o /dev/null med.csv 2>&1 > /dev/null | grep E_max
  loopscale fit: warning: E_max = [0-9.e+]+ is not determined by the runs: its standard error, [0-9.e+]+, is [0-9.e+]+ times its value \(an unbounded interval\) (re)
  $ loopscale report --axes R -o med.html med.csv 2>&1 | grep E_max
  loopscale report: warning: E_max = [0-9.e+]+ is not determined by the runs: its standard error, [0-9.e+]+, is [0-9.e+]+ times its value \(an unbounded interval\) (re)
  $ grep -c 'E_max = [0-9.e+]* is not determined by the runs' med.html
  1
