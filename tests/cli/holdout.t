The held-out comparison of the shipped sweeps reproduces the committed
tables (tests/data/holdout, regenerated on purpose by
tests/data/holdout/regenerate) to a relative 1e-6.

  $ EXPECT=$ROOT/tests/data/holdout SWEEPS=$ROOT/data/sweeps
  $ loopscale holdout --format csv $SWEEPS/looped-moe.csv.gz > moe.csv
  $ python3 $ROOT/tests/cli/compare-tables.py $EXPECT/looped-moe.csv moe.csv
  same
  $ loopscale holdout --format csv $SWEEPS/looped-dense.csv.gz > dense.csv
  loopscale holdout: every run is dense (m = 1), where bounded-sparse equals bounded; it is left out
  loopscale holdout: E=1: nothing to hold out (every run has this value)
  $ python3 $ROOT/tests/cli/compare-tables.py $EXPECT/looped-dense.csv dense.csv
  same
  $ loopscale holdout --format csv --laws moe:linear,moe:power,moe:bounded,moe:bounded-sparse,moe:hyperbolic $SWEEPS/looped-moe-hyperbolic.csv.gz > hyperbolic.csv
  $ python3 $ROOT/tests/cli/compare-tables.py $EXPECT/looped-moe-hyperbolic.csv hyperbolic.csv
  same

The markdown table a person reads:

  $ loopscale holdout $SWEEPS/looped-dense.csv.gz
  loopscale holdout: every run is dense (m = 1), where bounded-sparse equals bounded; it is left out
  loopscale holdout: E=1: nothing to hold out (every run has this value)
  | law           | k | in-sample |   R=16 | N=1e+09 | D=5e+11 |     AIC |     BIC |
  |---------------|--:|----------:|-------:|--------:|--------:|--------:|--------:|
  | dense:linear  | 5 |    0.0736 | 0.1428 |  0.0661 |  0.0750 |  -971.9 |  -957.2 |
  | dense:power   | 6 |    0.0207 | 0.0394 |  0.0139 |  0.0204 | -1332.0 | -1314.4 |
  | dense:bounded | 7 |    0.0044 | 0.0052 |  0.0043 |  0.0036 | -1755.2 | -1734.6 |
  
  RMSE in loss units; the held-out columns fit on the other runs (train/test runs: R=16 120/20, N=1e+09 105/35, D=5e+11 112/28).

A custom split, one axis, JSON:

  $ loopscale holdout --laws dense:bounded --axes R --split 'R>=8' --format json $SWEEPS/looped-dense.csv.gz | python3 $ROOT/tests/cli/round.py
  {
    "format": "loopscale-holdout/1",
    "n": 140,
    "laws": [
      {
        "law": "dense:bounded",
        "k": 7,
        "in_sample_rmse": 0.00435982,
        "converged": true,
        "aic": -1755.22,
        "bic": -1734.63,
        "heldout": [
          {
            "axis": "R",
            "test": "R=16",
            "train_runs": 120,
            "test_runs": 20,
            "rmse": 0.00515925,
            "converged": true
          },
          {
            "axis": "split",
            "test": "R>=8",
            "train_runs": 100,
            "test_runs": 40,
            "rmse": 0.00451918,
            "converged": true
          }
        ]
      }
    ],
    "warnings": []
  }

The same numbers computed another way: fit on all runs and on R < 16 with
`fit`, predict with `predict`, and compute the RMSEs, AIC = n ln(RSS/n) + 2k
and BIC = n ln(RSS/n) + k ln n (RSS of ln Lhat - ln L) from its residuals.

  $ loopscale fit --law dense:bounded -o all.json $SWEEPS/looped-dense.csv.gz > /dev/null
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ loopscale fit --law dense:bounded --where 'R<16' -o train.json $SWEEPS/looped-dense.csv.gz > /dev/null
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: B = 742 is poorly determined: its 95% interval from its standard error [19.5, 2.81e+04] spans a factor 1.4e+03, more than 1000
  loopscale fit: warning: the compute-optimal exponent a = 0.476 is poorly determined: its 95% interval from the standard errors [0.353, 0.599] is 0.25 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ loopscale predict --law all.json --format csv $SWEEPS/looped-dense.csv.gz > all.csv 2> /dev/null
  $ loopscale predict --law train.json --where 'R=16' --format csv $SWEEPS/looped-dense.csv.gz > test.csv 2> /dev/null
  $ loopscale holdout --laws dense:bounded --axes R --format json $SWEEPS/looped-dense.csv.gz > holdout.json
  $ python3 - <<'EOF'
  > import csv, json, math
  > rows = list(csv.DictReader(open("all.csv")))
  > test = list(csv.DictReader(open("test.csv")))
  > law = json.load(open("holdout.json"))["laws"][0]
  > n, k = len(rows), law["k"]
  > rss = sum((math.log(float(r["pred_loss"])) - math.log(float(r["loss"]))) ** 2 for r in rows)
  > def rmse(rs): return math.sqrt(sum(float(r["residual"]) ** 2 for r in rs) / len(rs))
  > mine = [rmse(rows), n * math.log(rss / n) + 2 * k, n * math.log(rss / n) + k * math.log(n), rmse(test)]
  > theirs = [law["in_sample_rmse"], law["aic"], law["bic"], law["heldout"][0]["rmse"]]
  > print(k, len(test), all(abs(a - b) <= 1e-9 * abs(b) for a, b in zip(mine, theirs)))
  > EOF
  7 20 True

Usage errors:

  $ loopscale holdout
  loopscale holdout: give at least one SWEEP file
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --axes R,X $SWEEPS/looped-dense.csv.gz
  loopscale holdout: --axes: 'X' is not one of R, N, D, E
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --axes R,R $SWEEPS/looped-dense.csv.gz
  loopscale holdout: --axes: 'R' given twice
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense:linear,dense:wobbly $SWEEPS/looped-dense.csv.gz
  loopscale holdout: --laws: unknown law 'dense:wobbly' (BASE[:MAPPING] with BASE dense, moe, kaplan or data-constrained and MAPPING none, linear, power, bounded, bounded-sparse, hyperbolic or log)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --split 'lr<1' $SWEEPS/looped-dense.csv.gz
  loopscale holdout: --split: 'lr<1': 'lr' is not one of the quantities n_act, n_total, n_loop, R, E, k, tokens, flops, loss, n_unroll, tokens_per_param, epochs
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --split 'R>100' --axes R --laws dense:bounded $SWEEPS/looped-dense.csv.gz | tail -2
  loopscale holdout: R>100: nothing to hold out (no run matches)
  
  RMSE in loss units; the held-out columns fit on the other runs (train/test runs: R=16 120/20).
