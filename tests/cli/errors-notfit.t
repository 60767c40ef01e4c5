A fit that did not converge, or whose sweep cannot tell its parameters
apart, exits 3 and is not a law: none is written, to a file or to standard
output.  A law file that records such a fit (from an older version, or
edited) is refused with 65 by every command that reads one, unless --force
(then a warning).

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e10,3e10,1e11,3e11 --R 1,2,4 --noise 0.01 -o one-n.csv
  $ loopscale fit --law dense --format json one-n.csv
  loopscale fit: the sweep cannot tell the parameters apart (every run has n_act = 3e+08): the Jacobian at the best fit is singular, so its values are one of many equally good fits (--fix some, or add runs); no law written
  [3]
  $ loopscale fit --law dense --format json --max-iterations 1 --starts 2 $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale fit: the best of 2 starts did not converge (after 1 iteration); no law written
  [3]
  $ loopscale fit --law dense -o law.json one-n.csv > /dev/null
  loopscale fit: the sweep cannot tell the parameters apart (every run has n_act = 3e+08): the Jacobian at the best fit is singular, so its values are one of many equally good fits (--fix some, or add runs); no law file written
  [3]
  $ ls
  one-n.csv

The law file goes to one place: standard output or -o, not both.

  $ loopscale fit --law dense -o - --format json one-n.csv
  loopscale fit: the law of --format json and -o - both write to standard output
  Try 'loopscale fit --help'.
  [64]

Law files recording a fit that was not one: converged false, or free
parameters without a standard error.

  $ loopscale fit --law dense --format json --where 'R<=2' $ROOT/data/sweeps/looped-dense.csv.gz > good.json
  loopscale fit: warning: B = 1.42e+03 is not determined by the runs: its standard error, 2.9e+04, is 20 times its value (an unbounded interval)
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
  $ loopscale predict --force --law noconv.json --n-act 3e8 --tokens 1e11 --format csv > b.csv
  loopscale predict: warning: noconv.json: the fit it records did not converge; used anyway (--force)
  $ cmp a.csv b.csv
  $ loopscale solve --force --law undetermined.json --flops 1e21 --format json > /dev/null
  loopscale solve: warning: undetermined.json: the fit it records cannot tell its parameters apart (no standard error for alpha, beta); used anyway (--force)
