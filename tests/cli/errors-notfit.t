A fit that did not converge, or whose sweep cannot tell its parameters
apart, exits 3 and is not a law: none is written, to a file or to standard
output.  A law file that records such a fit (from an older version, or
edited) is refused with 65 by every command that reads one, unless --force
(then a warning).

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e10,3e10,1e11,3e11 --R 1,2,4 --noise 0.01 -o one-n.csv
  $ loopscale fit --law dense --format json one-n.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no law written
  [3]
  $ loopscale fit --law dense --format json --max-iterations 1 --starts 2 $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the best of 2 starts did not converge (after 1 iteration); no law written
  [3]
  $ loopscale simulate --law $TRUTH --n-act 1e8,3e8,1e9,3e9 --tokens 1e10,1e11 --noise 0.01 -o two-d.csv
  $ loopscale fit --law dense --format json two-d.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot tell the parameters apart (the runs have only two values of tokens, 1e+10 and 1e+11): the Jacobian at the best fit is singular, so its values are one of many equally good fits (--fix some, or add runs); no law written
  [3]
  $ loopscale fit --law dense -o law.json two-d.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot tell the parameters apart (the runs have only two values of tokens, 1e+10 and 1e+11): the Jacobian at the best fit is singular, so its values are one of many equally good fits (--fix some, or add runs); no law file written
  [3]
  $ loopscale fit --law dense -o law.json one-n.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no law file written
  [3]
  $ ls
  one-n.csv
  two-d.csv

Runs enough in number that still cannot determine the law are refused with
the reason, and exit 3 as an undetermined fit does, with no table and no
law: losses that are all equal (a constant is fitted by c alone, and the
solver once returned A ~ 4e9), one size (unless a loop mapping sees several
N_eff through R) or one token count, a loss that does not change when only
the size (or only the tokens) changes.  Parameters fixed by hand count as
known.  Two runs are too few for the free parameters, whatever they share
(65):

  $ loopscale simulate --law $TRUTH --n-act 1e8,2e8,3e8,5e8,1e9,3e9 --tokens 1e10,3e10,1e11 --noise 0.01 -o grid.csv
  $ awk -F, 'BEGIN { OFS = "," } NR > 1 { $9 = "2.5" } { print }' grid.csv > const.csv
  $ loopscale fit --law dense const.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has loss = 2.5, which c alone fits; A, alpha, B and beta could take any values; no fit printed
  [3]
  $ loopscale fit --law moe:bounded-sparse --format json const.csv
  loopscale fit: a column the law does not read: k
  loopscale fit: the sweep cannot determine the law: every run has loss = 2.5, which c alone fits; A, alpha, B and beta could take any values; no law written
  [3]
  $ loopscale fit --law dense --fix A=400 --fix alpha=0.34 --fix B=410 --fix beta=0.28 const.csv | grep -o '^converged  yes'
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: the residuals trend along N: their rank correlation with ln N is -0.80 (t = -5.3): the law misses how the loss changes with N; try another law or mapping
  loopscale fit: warning: the RMSE, 0.214, is far above the noise the runs themselves show (0, from each run's nearest neighbour): the law does not describe these runs
  converged  yes
  $ loopscale fit --law dense one-n.csv --fix alpha=0.3
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no fit printed
  [3]
  $ loopscale fit --law dense one-n.csv --fix alpha=0.3 --fix c=1.7 | grep -o '^converged  yes'
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: A = 147 is poorly determined: its 95% interval from its standard error [0.0168, 1.29e+06] spans a factor 7.7e+07, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.18 from its lower bound 0: its 95% interval from its standard error [-1.39, 1.75] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.375 is poorly determined: its 95% interval from the standard errors [-1.66, 2.41] is 4.1 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.83 (t = 4.7): the law misses how the loss changes with R; try another law or mapping
  converged  yes
  $ loopscale fit --law dense:linear one-n.csv | grep -o '^converged  yes'
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: A = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: the runs do not tell alpha = 0.991 from its lower bound 0: its 95% interval from its standard error [-4.4, 6.39] reaches past it
  loopscale fit: warning: B = 1.53e+03 is poorly determined: its 95% interval from its standard error [0.0691, 3.39e+07] spans a factor 4.9e+08, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.355 from its lower bound 0: its 95% interval from its standard error [-0.113, 0.822] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.263 is poorly determined: its 95% interval from the standard errors [-0.8, 1.33] is 2.1 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  converged  yes
  $ awk -F, 'NR == 1 || $7 == 3e10 || $7 == "30000000000"' grid.csv > one-d.csv
  $ wc -l < one-d.csv
  7
  $ loopscale fit --law dense one-d.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has tokens = 3e+10, so B D^-beta is one constant and B, beta and c cannot be told apart; no fit printed
  [3]
  $ awk -F, 'BEGIN { OFS = "," } NR == FNR { if ($1 == 300000000) loss[$7] = $9; next } FNR > 1 { $9 = loss[$7] } { print }' grid.csv grid.csv > only-d.csv
  $ loopscale fit --law dense only-d.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: the loss does not change with n_act (n_act = 1e+08 and 3e+09 at tokens = 1e+10 both have loss 2.81919, and so on for every such pair), so A and alpha cannot be determined; no fit printed
  [3]
  $ awk -F, 'BEGIN { OFS = "," } NR == FNR { if ($7 == 30000000000) loss[$1] = $9; next } FNR > 1 { $9 = loss[$1] } { print }' grid.csv grid.csv > only-n.csv
  $ loopscale fit --law dense only-n.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: the loss does not change with tokens (tokens = 1e+10 and 1e+11 at n_act = 1e+08 both have loss 2.87315, and so on for every such pair), so B and beta cannot be determined; no fit printed
  [3]
  $ loopscale fit --law dense --fix B=410 --fix beta=0.28 only-n.csv | grep -o '^converged  yes'
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: the runs do not tell alpha = 0.269 from its lower bound 0: its 95% interval from its standard error [-1.95, 2.49] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.51 is poorly determined: its 95% interval from the standard errors [-1.55, 2.57] is 4.1 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along D: their rank correlation with ln D is -0.94 (t = -11.5): the law misses how the loss changes with D; try another law or mapping
  converged  yes
  $ head -3 grid.csv > two-one-n.csv; cut -d, -f1,7,9 two-one-n.csv
  n_act,tokens,loss
  100000000,10000000000,3.054363414598687
  100000000,30000000000,2.873148656436943
  $ loopscale fit --law dense two-one-n.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: two-one-n.csv: 2 runs cannot determine 5 free parameters
  [65]
  $ (head -2 grid.csv; tail -1 grid.csv) > two.csv; loopscale fit --law dense two.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: two.csv: 2 runs cannot determine 5 free parameters
  [65]
  $ printf 'n_act,tokens,loss\n1e8,1e10,3.1\n1e9,1e11,2.5\n' | loopscale fit --law dense -
  loopscale fit: -: 2 runs cannot determine 5 free parameters
  [65]
  $ ls *.json
  ls: cannot access '*.json': No such file or directory
  [2]

The law file goes to one place: standard output or -o, not both.

  $ loopscale fit --law dense -o - --format json one-n.csv
  loopscale fit: the JSON document and --output - both write to standard output
  Try 'loopscale fit --help'.
  [64]

Law files recording a fit that was not one: converged false, or free
parameters without a standard error.

  $ loopscale fit --law dense --format json --where 'R<=2' $ROOT/data/sweeps/looped-dense.csv.gz > good.json
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: A = 85.4 is poorly determined: its 95% interval from its standard error [0.0146, 5.01e+05] spans a factor 3.4e+07, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale fit: warning: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.735 is poorly determined: its 95% interval from the standard errors [-0.586, 2.05] is 2.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ sed 's/"converged": true/"converged": false/' good.json > noconv.json
  $ python3 -c 'import json, sys; d = json.load(open("good.json")); [d["stderr"].pop(k) for k in ("alpha", "beta")]; json.dump(d, open("undetermined.json", "w"))'
  $ loopscale solve --law noconv.json --flops 1e21
  loopscale solve: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale predict --law noconv.json --n-act 3e8 --tokens 1e11
  loopscale predict: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale isoflop --law undetermined.json --flops 1e21
  loopscale isoflop: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta), so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale simulate --law undetermined.json --n-act 3e8 --tokens 1e11
  loopscale simulate: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta), so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale predict --law undetermined.json one-n.csv
  loopscale predict: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta), so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale solve --law undetermined.json --flops 1e21 --plot s.svg
  loopscale solve: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta), so its parameters are not a law (--force to use them anyway)
  [65]
  $ test ! -e s.svg

With --force they are used, with a warning, and give what the good file
gives:

  $ loopscale predict --law good.json --n-act 3e8 --tokens 1e11 --format csv > a.csv
  loopscale predict: warning: good\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale predict: warning: good\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: good.json's fit: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale predict: warning: good.json's fit: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale predict: warning: good\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: good.json's fit: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ loopscale predict --force --law noconv.json --n-act 3e8 --tokens 1e11 --format csv > b.csv
  loopscale predict: warning: noconv.json: the fit it records did not converge; used anyway (--force)
  loopscale predict: warning: noconv\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale predict: warning: noconv\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: noconv.json's fit: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale predict: warning: noconv.json's fit: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale predict: warning: noconv\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: noconv.json's fit: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ cmp a.csv b.csv
  $ loopscale solve --force --law undetermined.json --flops 1e21 --format json 2>&1 > /dev/null | sed 's/: N_act = .*: outside/: (the sizes): outside/'
  loopscale solve: warning: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta); used anyway (--force)
  loopscale solve: warning: undetermined\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: undetermined\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale solve: warning: undetermined\.json's fit: the runs do not tell alpha = \S+ from its lower bound \S+: its \S+% interval from its standard error \[\S+, \S+\] reaches past it (re)
  loopscale solve: warning: undetermined\.json's fit: the runs do not tell beta = \S+ from its lower bound \S+: its \S+% interval from its standard error \[\S+, \S+\] reaches past it (re)
  loopscale solve: warning: undetermined\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale solve: warning: undetermined\.json's fit: the residuals trend along R: their rank correlation with ln R is \S+ \(t = \S+\): the law misses how the loss changes with R; try another law or mapping (re)
  loopscale solve: warning: chosen, lowest loss, no memory limit: (the sizes): outside the ranges the law was fitted on, an extrapolation

A best fit outside the law's domain (here a loss that rises with size, so
alpha < 0) is not a law either: no command could read the file it would
write.

  $ printf 'n_act,tokens,loss\n1e8,1e10,2.0\n2e8,1e10,2.1\n4e8,1e10,2.2\n1e8,2e10,1.9\n2e8,2e10,2.0\n4e8,2e10,2.1\n1e8,4e10,1.8\n2e8,4e10,1.9\n4e8,4e10,2.05\n' > rise.csv
  $ loopscale fit --law dense -o rise.json rise.csv > /dev/null
  loopscale fit: the best fit is not a law of this form: parameter alpha = -0\.1\d+ is outside its domain \(0, 5\]; no law file written (re)
  [3]
  $ test -e rise.json || echo 'no rise.json'
  no rise.json
  $ loopscale fit --law dense --format json rise.csv
  loopscale fit: the best fit is not a law of this form: parameter alpha = -0\.1\d+ is outside its domain \(0, 5\]; no law written (re)
  [3]
