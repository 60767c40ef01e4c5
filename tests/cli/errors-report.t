Bad inputs to report.  Options are checked before any work: a usage error
(64) names the option; the page must be named (-o) and be HTML.  A sweep
that cannot be read or a fit that is not a law stops the report as it stops
fit (66, 65, 3), and then no page is written: an old one stays as it was.

  $ SWEEP=$ROOT/data/sweeps/looped-moe.csv.gz
  $ loopscale report $SWEEP
  loopscale report: give the page's file name with --output REPORT.html
  Try 'loopscale report --help'.
  [64]
  $ loopscale report -o report.html
  loopscale report: give at least one SWEEP file
  Try 'loopscale report --help'.
  [64]
  $ loopscale report -o report.pdf $SWEEP
  loopscale report: --output: 'report.pdf': the report is HTML; the file name must end in .html or .htm
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --law moe:bounded --laws moe:linear,moe:bounded -o report.html $SWEEP
  loopscale report: --law and --laws: give one (--laws puts the reported law first)
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --law moe:curved -o report.html $SWEEP
  loopscale report: --law: unknown law 'moe:curved' (BASE[:MAPPING] with BASE dense, moe, kaplan or data-constrained and MAPPING none, linear, power, bounded, bounded-sparse, hyperbolic or log)
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --axes R,X -o report.html $SWEEP
  loopscale report: --axes: 'X' is not one of R, N, D, E
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --mem 3GB -o report.html $SWEEP
  loopscale report: --mem needs --flops: the budgets to solve for
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --flops 1e22,-1 -o report.html $SWEEP
  loopscale report: --flops: '-1' must be a positive number
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --flops 1e21 --flops 1e22 -o report.html $SWEEP
  loopscale report: --flops given twice ('1e21', then '1e22'): it takes one value
  Try 'loopscale report --help'.
  [64]
  $ loopscale report --bootstrap many -o report.html $SWEEP
  loopscale report: --bootstrap: 'many' is not a number
  Try 'loopscale report --help'.
  [64]
  $ ls

The page may not replace a sweep it reads, and its directory must exist:

  $ cp $SWEEP sweep.html
  $ loopscale report -o ./sweep.html sweep.html
  loopscale report: --output ./sweep.html would replace the input SWEEP sweep.html
  Try 'loopscale report --help'.
  [64]
  $ loopscale report -o missing/report.html $SWEEP
  loopscale report: missing/report.html: cannot create: No such file or directory
  [73]

A sweep that is missing or bad, and a fit that is not a law: nothing is
written, and the page of an earlier run is untouched.

  $ echo 'an earlier page' > report.html
  $ loopscale report -o report.html no-such-sweep.csv
  loopscale report: no-such-sweep.csv: cannot open: No such file or directory
  [66]
  $ printf 'n_act,tokens,loss\n1e8,1e10,2.5\n2e8,1e10,-2.4\n' > bad.csv
  $ loopscale report -o report.html bad.csv
  loopscale report: bad.csv:3: column 'loss': '-2.4' must be positive
  [65]
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e10,3e10,1e11,3e11 --R 1,2,4 --noise 0.01 -o one-n.csv
  $ loopscale report --law dense -o report.html one-n.csv
  loopscale report: every run is dense (m = 1), where bounded-sparse equals bounded; it is left out
  loopscale report: columns the law does not read: n_total, n_loop, R, E, k
  loopscale report: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no report written (report.html keeps its old content)
  [3]
  $ cat report.html
  an earlier page
  $ ls
  bad.csv
  one-n.csv
  report.html
  sweep.html

A sweep read from standard input is called so in the page's title and
heading, never "-":

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,1e9,1e10 --tokens 1e10,1e11,1e12 --noise 0.01 -o small.csv
  $ loopscale report --axes N -o stdin.html - < small.csv 2> /dev/null
  $ grep -o '<title>[^<]*</title>' stdin.html
  <title>loopscale report: standard input</title>

The page says how many rows the reader left out, by the filters, as
invalid and as earlier checkpoints:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,3e8,1e9,3e9,1e10 --tokens 1e10,3e10,1e11,3e11,1e12 --noise 0.01 -o s25.csv
  $ loopscale report --axes N --where 'n_act<1e10' -o where.html s25.csv 2> /dev/null
  $ grep -o 'Rows left out[^<]*' where.html
  Rows left out: 5 by the filters, 0 invalid (--skip-invalid), 0 earlier checkpoints of runs (--last).
