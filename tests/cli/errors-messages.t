Messages that named the wrong problem, or refused what they should have
taken.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ MOE=$ROOT/data/sweeps/looped-moe.csv.gz

A fixed E_start the law cannot be evaluated at is a usage error about
E_start < E_max, not a fit that "did not converge":

  $ loopscale fit --fix E_start=1e6 $MOE
  loopscale fit: a column the law does not read: k
  loopscale fit: E_start = 1e+06 must be below E_max, which the fit starts from at most 1000: fix E_max above E_start too
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law moe:hyperbolic --fix E_start=1000 $MOE
  loopscale fit: a column the law does not read: k
  loopscale fit: E_start = 1000 must be below E_max, which the fit starts from at most 1000: fix E_max above E_start too
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_start=8 --fix E_max=4 $MOE
  loopscale fit: a column the law does not read: k
  loopscale fit: E_start = 8 must be below E_max = 4: the gain of experts starts at E_start and saturates at E_max
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_start=8 --fix E_max=8 -o law.json $MOE
  loopscale fit: a column the law does not read: k
  loopscale fit: E_start = 8 must be below E_max = 8: the gain of experts starts at E_start and saturates at E_max
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_start=2 --fix E_max=1e6 $MOE | sed -n 1p
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: omega = -0.858 is poorly determined: its 95% interval from its standard error [-1.19, -0.522] is 0.67 wide, more than 0.5
  law        moe:bounded-sparse

A budget no size of --n-act fits names the size:

  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e30
  loopscale solve: --n-act: '1e30' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e30,4e29 --format json
  loopscale solve: --n-act: '1e30' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale solve --help'.
  [64]

A template routing each token to top_k = 2 experts cannot use E = 1: the
default E lists leave it out, with a note; an E given is the user's, and is
refused:

  $ loopscale solve --print-template | sed 's/"top_k": 1/"top_k": 2/' > top2.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ loopscale solve --law $TRUTH --template top2.json --flops 1e21 --eps 0 --format json > /dev/null
  loopscale solve: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ loopscale isoflop --law $TRUTH --template top2.json --flops 1e21 --format csv | sed -n 2p | cut -d, -f2
  loopscale isoflop: the template routes to top_k = 2 experts: the default --E is 2
  2
  $ loopscale simulate --law $TRUTH --template top2.json --n-act 3e8 --tokens 1e11 2>messages.txt | cut -d, -f5,6; cat messages.txt
  E,k
  2,2
  loopscale simulate: the template routes to top_k = 2 experts: the default --E is 2
  $ loopscale solve --law $TRUTH --template top2.json --flops 1e21 --E 1,2
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: no --mem given: no memory limit
  loopscale solve: E = 1 is below the template's top_k (2)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $TRUTH --template top2.json --flops 1e21 --E 1
  loopscale isoflop: --E: 1 is not a whole number of experts of at least top_k
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $TRUTH --template top2.json --n-act 3e8 --tokens 1e11 --E 1
  loopscale simulate: E: 1 is less than the template's top_k (2)
  Try 'loopscale simulate --help'.
  [64]

Units of sizes and budgets ignore case throughout (3gb was refused while
3kb was taken); "m" is mega, never milli:

  $ for m in 3GB 3gb 3Gb 3gB '3 g'; do loopscale solve --law $TRUTH --flops 1e21 --eps 0 --mem "$m" | sed -n 2p; done
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 16 bits (N_total <= 1.5e+09)
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 16 bits (N_total <= 1.5e+09)
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 16 bits (N_total <= 1.5e+09)
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 16 bits (N_total <= 1.5e+09)
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3e+09 bytes of weights at 16 bits (N_total <= 1.5e+09)
  $ loopscale solve --law $TRUTH --flops 1e21 --eps 0 --mem 3gib | sed -n 2p
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3.221e+09 bytes of weights at 16 bits (N_total <= 1.611e+09)
  $ loopscale solve --law $TRUTH --flops 1z --mem 3GB
  loopscale solve: --flops: '1z' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3gigabytes
  loopscale solve: --mem: '3gigabytes' is not a number
  Try 'loopscale solve --help'.
  [64]

predict on its own CSV output replaces its pred_loss and residual columns
rather than repeating them, so a second run gives the same file:

  $ loopscale predict --law $TRUTH --format csv $MOE > once.csv 2> /dev/null
  $ loopscale predict --law $TRUTH --format csv once.csv > twice.csv
  loopscale predict: a column the law does not read: k
  loopscale predict: RMSE 0.00444604 over 980 runs (loss units)
  $ head -1 twice.csv
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss,pred_loss,residual
  $ cmp once.csv twice.csv

Noise so wide that a run's loss would leave double precision is the
--noise value's fault (64), not the law's (the option's range refuses it
first):

  $ loopscale simulate --law $TRUTH --noise 1000 --n-act 1e8,1e9 --tokens 1e10 -o noisy.csv
  loopscale simulate: --noise: '1000' is outside its range: from 0 to 1 (the log-normal sigma)
  Try 'loopscale simulate --help'.
  [64]
  $ test -e noisy.csv || echo none written
  none written

A number too large for a double is "out of range" in every option, lists
included; a number that is not positive is said to be so:

  $ loopscale report --flops 1e400 -o r.html $MOE
  loopscale report: --flops: '1e400' is out of range
  Try 'loopscale report --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e400
  loopscale solve: --flops: '1e400' is out of range
  Try 'loopscale solve --help'.
  [64]
  $ loopscale report --flops 0 -o r.html $MOE
  loopscale report: --flops: '0' must be a positive number
  Try 'loopscale report --help'.
  [64]

Every option that reads a law file follows --law's rule: a file whose fit
did not converge is refused (65) unless --force is given, plan's --truth
too:

  $ loopscale simulate --law $TRUTH --n-act 1e8,1e9,1e10 --tokens 1e10,1e11,1e12 --noise 0.01 -o small.csv
  $ loopscale fit --law dense -o fitted.json small.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  $ sed 's/"converged": true/"converged": false/' fitted.json > nc.json
  $ grep -c '"converged": false' nc.json
  1
  $ loopscale plan --law fitted.json --truth nc.json --validate 2 --budget 1e21 --flops 1e22 -o runs.csv
  loopscale plan: nc.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale solve --law nc.json --flops 1e21 > /dev/null
  loopscale solve: nc.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
