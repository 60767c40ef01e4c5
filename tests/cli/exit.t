Entropy-threshold early exit.  Three tokens over three loop boundaries,
worked by hand (loops alone are charged, so saved = (3 - mean loops) / 3):



At 5% saved the front mixes the first two thresholds, w = 0.05 / (2/9):
exp(3.5/3 + 0.225 x 1/3) = 3.4619; at 50%, halfway from 1/3 to 2/3,
exp(2) = 7.3891; 70% is out of reach.

  $ cat > three.csv <<'CSV'
  > token,loop,entropy,nll
  > 0,1,2,3
  > 0,2,1,2
  > 0,3,0.5,1
  > 1,1,0.25,1.5
  > 1,2,3,4
  > 1,3,0.125,0.5
  > 2,1,4,2
  > 2,2,4,2
  > 2,3,4,2
  > CSV
  $ loopscale exit --thresholds 0.2,0.3,1.5,3,5 --at 5,50,70 three.csv
  three.csv: 3 tokens x 3 loop boundaries; costs: prelude 0, loop 1, coda 0
    every loop:            perplexity 3.211 (mean NLL 1.1667)
    every token at loop 1: perplexity 8.729 (mean NLL 2.1667), 66.67% saved
  
  Perplexity at a saving (interpolated on the Pareto front)
  saved%  perplexity
       5       3.461
      50       7.389
      70           -
  
  Threshold sweep: 6 of 6 thresholds (--format csv gives all); 5 on the Pareto front
  threshold  saved%  mean_loops  perplexity  pareto
          0    0.00       3.000       3.211  yes
        0.2    0.00       3.000       3.211  yes
        0.3   22.22       2.333       4.482  yes
        1.5   33.33       2.000       6.255  yes
          3   44.44       1.667       8.729  no
          5   66.67       1.000       8.729  yes
  $ loopscale exit --thresholds 5,0.3,0.2,1.5,3 --format csv three.csv
  threshold,saved,mean_loops,mean_nll,perplexity,pareto
  0,0,3,1.1666666666666667,3.211270543153561,1
  0.2,0,3,1.1666666666666667,3.211270543153561,1
  0.3,0.22222222222222218,2.3333333333333335,1.5,4.4816890703380645,1
  1.5,0.3333333333333333,2,1.8333333333333333,6.254700951936329,1
  3,0.4444444444444444,1.6666666666666667,2.1666666666666665,8.72913836372013,0
  5,0.6666666666666666,1,2.1666666666666665,8.72913836372013,1

The same as TSV, and the report's tables as markdown:

  $ loopscale exit --thresholds 0.3,1.5 --format tsv three.csv
  threshold\tsaved\tmean_loops\tmean_nll\tperplexity\tpareto (esc)
  0\t0\t3\t1.1666666666666667\t3.211270543153561\t1 (esc)
  0.3\t0.22222222222222218\t2.3333333333333335\t1.5\t4.4816890703380645\t1 (esc)
  1.5\t0.3333333333333333\t2\t1.8333333333333333\t6.254700951936329\t1 (esc)
  $ loopscale exit --thresholds 0.3,1.5 --at 5,50 --format md three.csv
  three.csv: 3 tokens x 3 loop boundaries; costs: prelude 0, loop 1, coda 0
    every loop:            perplexity 3.211 (mean NLL 1.1667)
    every token at loop 1: perplexity 8.729 (mean NLL 2.1667), 66.67% saved
  
  Perplexity at a saving (interpolated on the Pareto front)
  | saved% | perplexity |
  |-------:|-----------:|
  |      5 |      3.461 |
  |     50 |          - |
  
  Threshold sweep: 3 of 3 thresholds (--format csv gives all); 3 on the Pareto front
  | threshold | saved% | mean_loops | perplexity | pareto |
  |----------:|-------:|-----------:|-----------:|--------|
  |         0 |   0.00 |      3.000 |      3.211 | yes    |
  |       0.3 |  22.22 |      2.333 |      4.482 | yes    |
  |       1.5 |  33.33 |      2.000 |      6.255 | yes    |

Without --thresholds the grid has a threshold just above every entropy that
moves an exit (0.25, 1, 2 and 4 here, each times 1 + 2^-10), and 0:

  $ loopscale exit --format csv three.csv
  threshold,saved,mean_loops,mean_nll,perplexity,pareto
  0,0,3,1.1666666666666667,3.211270543153561,1
  0.250244140625,0.22222222222222218,2.3333333333333335,1.5,4.4816890703380645,1
  1.0009765625,0.3333333333333333,2,1.8333333333333333,6.254700951936329,1
  2.001953125,0.4444444444444444,1.6666666666666667,2.1666666666666665,8.72913836372013,0
  4.00390625,0.6666666666666666,1,2.1666666666666665,8.72913836372013,1
  $ gzip -c three.csv | loopscale exit --format json --at 10 -
  {
    "format": "loopscale-exit/1",
    "input": "standard input",
    "tokens": 3,
    "loops": 3,
    "costs": {
      "prelude": 0,
      "loop": 1,
      "coda": 0,
      "all_loops": 3
    },
    "every_loop": {
      "mean_nll": 1.1666666666666667,
      "perplexity": 3.211270543153561
    },
    "every_token_at_loop_1": {
      "saved": 0.6666666666666666,
      "mean_nll": 2.1666666666666665,
      "perplexity": 8.72913836372013
    },
    "at_saved": [
      {
        "saved": 0.1,
        "reachable": true,
        "perplexity": 3.7309640797004597
      }
    ],
    "columns": ["threshold", "saved", "mean_loops", "mean_nll", "perplexity", "pareto"],
    "sweep": [
      [0, 0, 3, 1.1666666666666667, 3.211270543153561, 1],
      [0.250244140625, 0.22222222222222218, 2.3333333333333335, 1.5, 4.4816890703380645, 1],
      [1.0009765625, 0.3333333333333333, 2, 1.8333333333333333, 6.254700951936329, 1],
      [2.001953125, 0.4444444444444444, 1.6666666666666667, 2.1666666666666665, 8.72913836372013, 0],
      [4.00390625, 0.6666666666666666, 1, 2.1666666666666665, 8.72913836372013, 1]
    ]
  }

Every token confident after loop 1 saves exactly the share of the other
loops: 3 of 4 loops with prelude 2, loop 1, coda 1 is 3/7 = 42.86%.

  $ printf 'token,loop,entropy,nll\n' > confident.csv
  $ for t in 0 1 2 3; do printf '%s,1,0.01,2.5\n%s,2,3,2.25\n%s,3,3,2\n%s,4,3,1.75\n' $t $t $t $t; done >> confident.csv
  $ loopscale exit --prelude 2 --loop 1 --coda 1 --thresholds 0.01,0.02 --format csv confident.csv
  threshold,saved,mean_loops,mean_nll,perplexity,pareto
  0,0,4,1.75,5.754602676005731,1
  0.01,0,4,1.75,5.754602676005731,1
  0.02,0.42857142857142855,1,2.5,12.182493960703473,1

The costs of a shape: 2 block layers of 64 wide (65,536 parameters each with
d_ff 256), one prelude and one coda layer, a vocabulary of 100.  FLOPs:
prelude 2 x 65,536 = 131,072, loop 2 x 131,072 = 262,144, coda 2 x (65,536 +
6,400) = 143,872; all at loop 1 saves 3 x 262,144 / 1,323,520 = 59.42%.

  $ loopscale shape --d-model 64 --d-ff 256 --vocab 100 --layers 2 --loops 4 --head-layers 1 --tail-layers 1 --format json > small.json
  $ loopscale exit --shape small.json --thresholds 0.02 --rows 2 confident.csv
  confident.csv: 4 tokens x 4 loop boundaries; costs: prelude 131072, loop 262144, coda 143872
    every loop:            perplexity 5.755 (mean NLL 1.7500)
    every token at loop 1: perplexity 12.18 (mean NLL 2.5000), 59.42% saved
  
  Perplexity at a saving (interpolated on the Pareto front)
  saved%  perplexity
       5       6.129
      10       6.529
      20       7.407
      30       8.404
  
  Threshold sweep: 2 of 2 thresholds (--format csv gives all); 2 on the Pareto front
  threshold  saved%  mean_loops  perplexity  pareto
          0    0.00       4.000       5.755  yes
       0.02   59.42       1.000       12.18  yes
  $ loopscale exit --shape small.json three.csv
  loopscale exit: small.json: the shape runs 4 loops, but the data has 3 loop boundaries per token
  [65]

Two .npy arrays, entropy then NLL, give what the CSV gives:

  $ cat > npy.py <<'PY'
  > import struct, sys
  > path, descr, shape, values = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4])
  > header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, shape)
  > header += ' ' * (117 - len(header)) + '\n'
  > data = struct.pack('<' + {'f2': 'e', 'f4': 'f', 'f8': 'd'}[descr[1:]] * len(values), *values)
  > open(path, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data)
  > PY
  $ python3 npy.py h.npy '<f2' '(3, 3)' '[2, 1, 0.5, 0.25, 3, 0.125, 4, 4, 4]'
  $ python3 npy.py nll.npy '<f8' '(3, 3)' '[3, 2, 1, 1.5, 4, 0.5, 2, 2, 2]'
  $ loopscale exit --format csv h.npy nll.npy
  threshold,saved,mean_loops,mean_nll,perplexity,pareto
  0,0,3,1.1666666666666667,3.211270543153561,1
  0.250244140625,0.22222222222222218,2.3333333333333335,1.5,4.4816890703380645,1
  1.0009765625,0.3333333333333333,2,1.8333333333333333,6.254700951936329,1
  2.001953125,0.4444444444444444,1.6666666666666667,2.1666666666666665,8.72913836372013,0
  4.00390625,0.6666666666666666,1,2.1666666666666665,8.72913836372013,1

Bad input (65):

  $ printf 'token,loop,entropy,nll\n0,1,-0.5,2\n' > neg.csv
  $ loopscale exit neg.csv
  loopscale exit: neg.csv:2: column 'entropy': '-0.5' must not be negative
  [65]
  $ printf 'token,loop,entropy,nll\n0,1,1,2\n0,2,1,2\n1,1,1,2\n1,2,1,2\n1,3,1,2\n' > range.csv
  $ loopscale exit range.csv
  loopscale exit: range.csv:6: column 'loop': 3 is out of range 1..2 (as in the first token)
  [65]
  $ printf 'token,loop,entropy,nll\n0,1,1,2\n0,2,1,2\n1,2,1,2\n' > gap.csv
  $ loopscale exit gap.csv
  loopscale exit: gap.csv:4: token 1 has no row for loop 1
  [65]
  $ python3 npy.py nan.npy '<f4' '(3, 3)' '[3, 2, 1, 1.5, float("nan"), 0.5, 2, 2, 2]'
  $ loopscale exit h.npy nan.npy
  loopscale exit: nan.npy: NLL [1, 1] (token 1, loop 2) is NaN
  [65]
  $ python3 npy.py wide.npy '<f4' '(3, 4)' '[1] * 12'
  $ loopscale exit h.npy wide.npy
  loopscale exit: wide.npy: shape (3, 4) differs from the shape (3, 3) of h.npy
  [65]
  $ loopscale exit --shape small.json range.csv
  loopscale exit: range.csv:6: column 'loop': 3 is out of range 1..2 (as in the first token)
  [65]
  $ loopscale exit --shape small.json three.csv 2>&1 | head -1
  loopscale exit: small.json: the shape runs 4 loops, but the data has 3 loop boundaries per token

Usage errors (64):

  $ loopscale exit h.npy
  loopscale exit: h.npy is a .npy array: give two, the entropy and then the NLL
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --shape small.json --loop 2 three.csv
  loopscale exit: give the costs by --shape or by --prelude, --loop and --coda, not both
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --context 100 three.csv
  loopscale exit: --context needs --shape
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --at 100 three.csv
  loopscale exit: --at: '100' is not a saving below 100%
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit
  loopscale exit: give one CSV file, or two .npy files (entropy, then NLL)
  Try 'loopscale exit --help'.
  [64]
