Fitting the shipped sweeps.

  $ cp $ROOT/data/sweeps/*.csv.gz . && SWEEPS=.

The dense looped sweep: the bounded mapping recovers the truth (A 406.4,
alpha 0.34, B 410.7, beta 0.28, c 1.69, kappa1 1.2, kappa2 1.5) inside its
bootstrap intervals.

  $ loopscale fit --law dense:bounded --bootstrap 100 --threads 2 $SWEEPS/looped-dense.csv.gz | grep -v '^time' | python3 $ROOT/tests/cli/round.py 4
  loopscale fit: columns the law does not read: n_total, E, k
  law        dense:bounded
  runs       140 (./looped-dense.csv.gz)
  objective  0.0001372  (sum of Huber(ln Lhat - ln L), delta 0.001)
  RMSE       0.00436 (loss units)
  starts     8, 7 reached the best objective (within 1e-06 relative), 8 converged
             after 32 stage-one starts on the base parameters
  converged  yes \(\d+ iterations\) (re)
  bootstrap  100 draws, 0 did not converge
  optimum    N_opt ~ F^0.4778, D_opt ~ F^0.5222 (a = beta / (alpha + beta))
             a in [0.3956, 0.5697] (95% of 100 draws)
  
  parameter     value     stderr*  95% interval
  A           534.1     88.08  [400.3, 685.2]
  alpha      0.3534  0.009717  [0.3365, 0.368]
  B           776.1     1319  [102.8, 1.739e+04]
  beta       0.3234   0.07391  [0.2331, 0.4559]
  c           1.802   0.03982  [1.739, 1.843]
  kappa1      1.189   0.02389  [1.161, 1.228]
  kappa2      1.465   0.0697  [1.349, 1.607]
  
  * standard errors from the M-estimator's sandwich covariance (normal approximation on
    ln A, ln B, ln c and the exponents)
  $ loopscale fit --law moe:bounded-sparse --threads 2 $SWEEPS/looped-dense.csv.gz > /dev/null
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: delta, gamma, omega, zeta, E_max are held at 0, 0, 0, 0, 1000000: no run has E > 1
  loopscale fit: warning: theta is held at 0: no looped run (R > 1) has m < 1
  loopscale fit: warning: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted

The MoE sweep: moe:bounded-sparse recovers its truth inside the bootstrap
intervals, E_max included (the sweep's experts go to 64, so it sees the
saturation at 300, though the interval still reaches far up; see
docs/fitting.md), except kappa1 and theta: with this noise draw they land
about two standard errors from the truth (1.172 for 1.2, 0.364 for 0.35),
just outside their 95% intervals.

  $ loopscale fit --law moe:bounded-sparse --bootstrap 100 --format json $SWEEPS/looped-moe.csv.gz > moe.json
  loopscale fit: a column the law does not read: k
  $ python3 $ROOT/tests/cli/inside.py moe.json $ROOT/data/truth/moe-bounded-sparse.json
  A 477.83 inside
  alpha 0.347311 inside
  B 2143.4 inside
  beta 0.367172 inside
  c 1.81722 inside
  delta -0.1 inside
  gamma 0.005 inside
  omega 0 inside
  zeta 0 inside
  E_max 300 inside
  kappa1 1.2 OUTSIDE
  kappa2 1.5 inside
  theta 0.35 OUTSIDE

The law file round-trips into predict, which reports the fit's RMSE:

  $ loopscale fit --law dense:bounded --threads 2 -o law.json $SWEEPS/looped-dense.csv.gz | grep RMSE
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  RMSE       0.00435982 (loss units)
  $ loopscale predict --law law.json $SWEEPS/looped-dense.csv.gz 2>messages.txt | tail -1; cat messages.txt
  RMSE 0.00435982 over 140 runs (loss units)
  loopscale predict: warning: law\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: columns the law does not read: n_total, E, k
  $ grep -E '"(format|base|mapping|loss|space|n|starts|converged|file|sha256)"' law.json | sed 's|/.*/||'
    "format": "loopscale-law/1",
      "base": "dense",
      "mapping": "bounded"
      "loss": "huber",
      "space": "log",
      "n": 140,
      "starts": 8,
      "converged": true,
          "file": "./looped-dense.csv.gz",
          "sha256": "e2bbd667be17cb213ad836b7d63c57aff8c626b2385b21f70015992a0490d188"
        "format": "loopscale-template/1",
  $ sha256sum $SWEEPS/looped-dense.csv.gz | cut -c1-64
  e2bbd667be17cb213ad836b7d63c57aff8c626b2385b21f70015992a0490d188

JSON on standard output is the law file:

  $ loopscale fit --law dense --threads 2 --format json $SWEEPS/looped-dense.csv.gz --where 'R=1' | head -12 | python3 $ROOT/tests/cli/round.py
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 4.67 is poorly determined: its 95% interval from its standard error [0.0651, 335] spans a factor 5.1e+03, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.0738 from its lower bound 0: its 95% interval from its standard error [-0.265, 0.413] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.168 is poorly determined: its 95% interval from the standard errors [-0.473, 0.81] is 1.3 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  {
    "format": "loopscale-law/1",
    "law": {
      "base": "dense",
      "mapping": "none"
    },
    "params": {
      "A": 640.886,
      "alpha": 0.364531,
      "B": 4.67402,
      "beta": 0.0737985,
      "c": 1.30741

Options: losses, spaces, fixed parameters, filters.

  $ loopscale fit --law dense --loss mse --space linear --fix alpha=0.34 --threads 2 --where 'R=1' $SWEEPS/looped-dense.csv.gz | grep -E '^(objective|alpha|beta) '
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 20.2 is poorly determined: its 95% interval from its standard error [0.185, 2.2e+03] spans a factor 1.2e+04, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.16 from its lower bound 0: its 95% interval from its standard error [-0.0776, 0.397] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.32 is poorly determined: its 95% interval from the standard errors [-0.00353, 0.643] is 0.65 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  objective  0.000158333934  (sum of (Lhat - L)^2)
  alpha          0.34  held
  beta       0.159712  0.121089

Usage errors:

  $ loopscale fit
  loopscale fit: give at least one SWEEP file
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense:cubic $SWEEPS/looped-dense.csv.gz
  loopscale fit: --law: unknown law 'dense:cubic' (BASE[:MAPPING] with BASE dense, moe, kaplan or data-constrained and MAPPING none, linear, power, bounded, bounded-sparse, hyperbolic or log)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix theta=0.3 $SWEEPS/looped-dense.csv.gz
  loopscale fit: --fix 'theta=0.3': theta is not a parameter of dense
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix alpha=x $SWEEPS/looped-dense.csv.gz
  loopscale fit: --fix alpha: 'x' is not a number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix A=-1 $SWEEPS/looped-dense.csv.gz
  loopscale fit: --fix 'A=-1': parameter A = -1 must be positive
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --group R $SWEEPS/looped-dense.csv.gz
  loopscale fit: --group needs --bootstrap N
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --loss l1 $SWEEPS/looped-dense.csv.gz
  loopscale fit: --loss: 'l1' is not huber or mse
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --ci 95 $SWEEPS/looped-dense.csv.gz
  loopscale fit: --ci: '95' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --grid big $SWEEPS/looped-dense.csv.gz
  loopscale fit: --grid: 'big' is not chinchilla
  Try 'loopscale fit --help'.
  [64]

Bad data:

  $ printf 'n_act,tokens\n1e8,1e10\n' > noloss.csv
  $ loopscale fit --law dense noloss.csv
  loopscale fit: noloss.csv:1: no column 'loss'
  [65]
  $ printf 'n_act,tokens,loss\n1e8,1e10,3\n2e8,1e10,2.9\n' > tiny.csv
  $ loopscale fit --law dense tiny.csv
  loopscale fit: tiny.csv: 2 runs cannot determine 5 free parameters
  [65]

A fit that does not converge says so, exits 3, and writes nothing:

  $ echo precious > kept.json
  $ loopscale fit --law dense --max-iterations 2 --starts 4 -o kept.json $SWEEPS/looped-dense.csv.gz > out.txt
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the best of 4 starts did not converge (after 2 iterations); no law file written (kept.json keeps its old content)
  [3]
  $ grep converged out.txt
  starts     4, 1 reached the best objective (within 1e-06 relative), 0 converged
  converged  NO (2 iterations)
  $ cat kept.json
  precious

Two outputs naming one file are refused before anything is written:

  $ loopscale fit --law dense -o same.svg --plot same.svg --where 'R=1' $SWEEPS/looped-dense.csv.gz > /dev/null
  loopscale fit: --output same.svg and --plot same.svg name the same file
  Try 'loopscale fit --help'.
  [64]
  $ ls same.svg
  ls: cannot access 'same.svg': No such file or directory
  [2]

A bootstrap on a handful of runs: many draws hold fewer distinct runs than
the law has parameters, and still refit (on every run, the undrawn ones
with weight 0) rather than fail.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,3e8,1e9 \
  >   --tokens 1e10,3e10,1e11 --noise 0.002 -o nine.csv
  $ loopscale fit --law dense --bootstrap 300 nine.csv | grep -E '^(runs|bootstrap) '
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  runs       9 (nine.csv)
  bootstrap  300 draws, 0 did not converge

The log mapping, N_eff = N_act + kappa1 N_loop ln R, goes through fit,
predict, solve and holdout like any other.  predict's rho_eff is
1 + kappa1 (N_loop / N_act) ln R with the fitted kappa1 (computed here from
the law file); at this budget a logarithmic gain does not pay for a second
loop (R = 1); on the sweep drawn from a bounded truth, holdout prefers
bounded.

  $ loopscale fit --law dense:log --threads 2 -o log.json $SWEEPS/looped-dense.csv.gz | grep -E '^(law|converged|kappa1) ' | sed 's/ (.* iterations)//' | python3 $ROOT/tests/cli/round.py 3
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: B = 91.1 is poorly determined: its 95% interval from its standard error [0.0015, 5.54e+06] spans a factor 3.7e+09, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.226 from its lower bound 0: its 95% interval from its standard error [-0.283, 0.735] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.366 is poorly determined: its 95% interval from the standard errors [-0.158, 0.889] is 1 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is -0.42 (t = -5.5): the law misses how the loss changes with R; try another law or mapping
  law        dense:log
  converged  yes
  kappa1     0.556  0.0472
  $ rho=$(loopscale predict --law log.json --n-act 1e9 --n-loop 7.5e8 --R 8 --tokens 1e11 | awk '$1 == "rho_eff" { print $2 }')
  loopscale predict: warning: log\.json's fit: B = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: log.json's fit: the runs do not tell beta = 0.226 from its lower bound 0: its 95% interval from its standard error [-0.283, 0.735] reaches past it
  loopscale predict: warning: log\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: log.json's fit: the residuals trend along R: their rank correlation with ln R is -0.42 (t = -5.5): the law misses how the loss changes with R; try another law or mapping
  $ python3 -c "import json, math; k = json.load(open('log.json'))['params']['kappa1']; print(abs(1 + k * 0.75 * math.log(8) - $rho) < 1e-5 * $rho)"
  True
  $ loopscale solve --law log.json --flops 1e21 --mem 3GB --bits 4 --E 1 | sed -n '1p;6,7p'
  loopscale solve: warning: log\.json's fit: B = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale solve: warning: log.json's fit: the runs do not tell beta = 0.226 from its lower bound 0: its 95% interval from its standard error [-0.283, 0.735] reaches past it
  loopscale solve: warning: log\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale solve: warning: log.json's fit: the residuals trend along R: their rank correlation with ln R is -0.42 (t = -5.5): the law misses how the loss changes with R; try another law or mapping
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 3.022e+09 (fitted 1e+08 to 1e+09), D = 5.515e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  law      dense:log
  R (loops)              1           1            1
  E (experts)            1           1            1
  $ loopscale holdout --laws dense:log,dense:bounded --axes R --threads 2 --format csv $SWEEPS/looped-dense.csv.gz | cut -d, -f1-4 | python3 $ROOT/tests/cli/round.py 3
  law,k,in_sample,R=16
  dense:log,6,0.0144,0.0369
  dense:bounded,7,0.00436,0.00516

A bootstrap refit that converges outside the law's domain (Kaplan's alpha_D
past 5 on six runs that barely bend) is dropped and counted, and its
parameter is named, so that the law file written reads back:

  $ printf 'n_act,tokens,loss\n1e8,1e10,3.1\n3e8,1e10,2.9\n1e9,1e10,2.8\n1e8,1e11,2.8\n3e8,1e11,2.6\n1e9,1e11,2.45\n' > bend.csv
  $ loopscale fit --law kaplan --bootstrap 20 --threads 2 -o bend.json bend.csv | grep '^bootstrap'
  loopscale fit: warning: only 19 of 20 bootstrap draws converged inside the law's domain, too few for intervals (at least 20): none given
  loopscale fit: warning: alpha_D = 0.426 is not determined by the runs: 1 of 20 bootstrap draws ran it out of its domain (dropped)
  loopscale fit: warning: N_c = 2.17e+15 is poorly determined: its 95% interval from its standard error [2.51e+10, 1.88e+20] spans a factor 7.5e+09, more than 1000
  loopscale fit: warning: D_c = 3.35e+10 is poorly determined: its 95% interval from its standard error [9.25e+04, 1.21e+16] spans a factor 1.3e+11, more than 1000
  loopscale fit: warning: the compute-optimal exponent a = 0.876 is poorly determined: its 95% interval from the standard errors [0.404, 1.35] is 0.94 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  bootstrap  20 draws, 0 did not converge, 1 ended outside the law's domain
  $ loopscale predict --law bend.json --n-act 1e9 --tokens 1e10 2> /dev/null | head -1
  loss                       2.79887
  $ python3 -c 'import json; d = json.load(open("bend.json")); print(d["bootstrap"]["n"], max(r[-1] for r in d["bootstrap"]["draws"]) <= 5)'
  19 True

Exact losses, each run twice, fit to round-off: no verdict that the law
misses them (the runs' own noise is 0, and so, to round-off, is the RMSE).

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --R 1 --E 1 > exact1.csv
  $ (cat exact1.csv; tail -n +2 exact1.csv) > exact.csv
  $ loopscale fit --law dense exact.csv -o exact.json 2>&1 | grep -c 'does not describe'
  0
  [1]
