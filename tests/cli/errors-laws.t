The published laws and the methods built on them refuse what they cannot
use: a number of unique tokens that is not positive (0 would read as
"unlimited"), a list or range of budgets that is malformed, and a law whose
exponents admit no compute-optimal size.

  $ DC=$ROOT/data/laws/muennighoff2023.json
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": -0.28, "c": 1.69}}' > falling.json

Unique tokens given as an option:

  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 0
  loopscale predict: --unique-tokens: '0' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens -1
  loopscale predict: --unique-tokens: '-1' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 25Q
  loopscale predict: --unique-tokens: '25Q' is not a number
  Try 'loopscale predict --help'.
  [64]

Budgets of the frontier:

  $ loopscale frontier --law $DC
  loopscale frontier: give the training budgets with --flops F1,F2,... or --flops LO:HI:N
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e21
  loopscale frontier: --flops: '1e20:1e21' is neither a list F1,F2,... nor a range LO:HI:N
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21:1e20:5
  loopscale frontier: --flops: '1e21:1e20:5': LO must be below HI in LO:HI:N
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e21:1
  loopscale frontier: --flops: '1e20:1e21:1': the number of budgets N in LO:HI:N must be a whole number from 2 to 100000, not '1'
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,,1e21
  loopscale frontier: --flops: '' in '1e20,,1e21' is empty
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,-5
  loopscale frontier: --flops: '-5' in '1e20,-5' is not a positive number of FLOPs
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1e21x
  loopscale frontier: --flops: '1e21x' in '1e20,1e21x' is not a number
  Try 'loopscale frontier --help'.
  [64]

A law along whose budgets the loss falls without bound (beta < 0):

  $ loopscale frontier --law falling.json --flops 1e20
  loopscale frontier: no compute-optimal size: the loss falls without bound along a budget unless alpha > 0 and beta > 0 (alpha = 0.34, beta = -0.28)
  [65]
