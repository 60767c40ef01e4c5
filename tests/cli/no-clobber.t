No output may replace an input.  Every command, with every output option
(read from its --help) pointed at each of its inputs under five spellings of
one file (x, ./x, d/../x, a symlink, a hard link), at standard input's file,
and at its other outputs, is refused with status 64 before anything is
written; each input stays byte-identical (clobber.py says what it runs):

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json python3 $ROOT/tests/cli/clobber.py
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  fit: 2 output options, 29 refused runs
  holdout: 1 output option, 11 refused runs
  isofit: 1 output option, 11 refused runs
  frontier: 1 output option, 6 refused runs
  isoflop: 1 output option, 12 refused runs
  plan: 1 output option, 18 refused runs
  simulate: 1 output option, 12 refused runs
  predict: 0 output options, 2 refused runs
  solve: 2 output options, 30 refused runs
  report: 1 output option, 11 refused runs
  shape: 0 output options, 1 refused runs
  route: 0 output options, 1 refused runs
  exit: 0 output options, 2 refused runs
