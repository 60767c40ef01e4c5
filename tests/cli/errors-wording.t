Messages that name the real problem: a given top-k above the default E = 1
is said of k, the value given (in a sweep the E cell is named), and a positive threshold too small for a normal
double says why it is refused.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 1e11 --k 2
  loopscale predict: --k: '2' is greater than E (1, the default)
  Try 'loopscale predict --help'.
  [64]
  $ printf 'n_act,tokens,loss,E,k\n3e8,1e11,2.5,1,2\n' > k.csv
  $ loopscale predict --law $TRUTH k.csv
  loopscale predict: k.csv:2: column 'E': '1' is less than k (2)
  [65]
  $ loopscale exit --thresholds 1e-320 x.csv
  loopscale exit: --thresholds: '1e-320' is below the smallest normal double (2.22507e-308); subnormal values lose precision and are refused
  Try 'loopscale exit --help'.
  [64]

Counts agree with their nouns everywhere (one rule, ls_plural): one run,
one parameter, one FLOP; plan's thinned grid of stride 1 is "every
candidate", not "every 1-th":

  $ printf 'n_act,tokens,loss\n1e8,1e10,3.1\n' > one.csv
  $ loopscale fit --law dense one.csv
  loopscale fit: one.csv: 1 run cannot determine 5 free parameters
  [65]
  $ loopscale fit --law dense --fix alpha=0.3 --fix beta=0.3 --fix c=1.7 --fix B=400 one.csv
  loopscale fit: one.csv: 1 run for 1 free parameter leaves no residual to judge the fit by or to estimate its errors (add runs, or --fix some); no fit printed
  [65]
  $ loopscale solve --flops 1 2>&1 | tail -1
  loopscale solve: no model fits a budget of 1 FLOP
