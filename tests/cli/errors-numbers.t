Numbers: a derived quantity that a double cannot hold is refused as bad
input (65) naming the input that caused it, in the table and in JSON alike,
never printed as "inf" nor refused later as an internal error (70).  In
options, a lower-case e after the digits is an exponent without digits and
an error, as "1e" is in a sweep cell; exa is written E ("3E", "3EB").

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e-300 > /dev/null
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: no --mem given: no memory limit
  loopscale solve: N_act = 1e-300 at 1e+21 FLOPs (E = 1, R = 1) gives tokens D = F / (6 N_unroll) = inf, outside double precision
  [65]
  $ loopscale solve --law $TRUTH --flops 1e21 --n-act 1e-300 --format json > /dev/null
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: N_act = 1e-300 at 1e+21 FLOPs (E = 1, R = 1) gives tokens D = F / (6 N_unroll) = inf, outside double precision
  [65]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3e
  loopscale solve: --mem: '3e' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3eb
  loopscale solve: --mem: '3eb' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 3EB --format json | grep -o '"mem_bytes": [^,]*'
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  "mem_bytes": 3e+18
