Predicting the shipped sweeps with their truth gives the noise as RMSE.

  $ TRUTH=$ROOT/data/truth
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json $ROOT/data/sweeps/looped-moe.csv.gz 2>messages.txt | tail -1; cat messages.txt
  RMSE 0.00444604 over 980 runs (loss units)
  loopscale predict: a column the law does not read: k
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json $ROOT/data/sweeps/looped-dense.csv.gz 2>messages.txt | tail -1; cat messages.txt
  RMSE 0.00447918 over 140 runs (loss units)
  loopscale predict: a column the law does not read: k
  $ loopscale predict --law $TRUTH/moe-hyperbolic.json $ROOT/data/sweeps/looped-moe-hyperbolic.csv.gz 2>messages.txt | tail -1; cat messages.txt
  RMSE 0.00434511 over 525 runs (loss units)
  loopscale predict: a column the law does not read: k

CSV output keeps every column of the input and adds pred_loss and residual = loss - pred_loss:

  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --format csv --where 'R=16' --where 'E=16' --where 'tokens=5e11' $ROOT/data/sweeps/looped-moe.csv.gz 2>&1 | python3 $ROOT/tests/cli/round.py
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss,pred_loss,residual
  100000000,1100000000,75000000,16,16,1,500000000000,3.675e+21,2.2408,2.24105,-0.000251906
  300000000,3300000000,225000000,16,16,1,500000000000,1.1025e+22,2.13312,2.13784,-0.00471944
  600000000,6600000000,450000000,16,16,1,500000000000,2.205e+22,2.0935,2.0909,0.00260364
  1000000000,11000000000,750000000,16,16,1,500000000000,3.675e+22,2.06087,2.0631,-0.0022237
  loopscale predict: a column the law does not read: k
  loopscale predict: RMSE 0.00291806 over 4 runs (loss units)

JSON output:

  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --format json --where 'R=16' --where 'E=16' --where 'tokens=5e11' --where 'n_act=1e9' $ROOT/data/sweeps/looped-moe.csv.gz 2>messages.txt | python3 $ROOT/tests/cli/round.py; cat messages.txt
  {
    "format": "loopscale-predict/1",
    "rows": [
      {
        "line": 967,
        "n_act": 1000000000,
        "n_total": 11000000000,
        "n_loop": 750000000,
        "R": 16,
        "E": 16,
        "k": 1,
        "tokens": 500000000000,
        "loss": 2.06087,
        "pred_loss": 2.0631,
        "residual": -0.0022237
      }
    ],
    "n": 1,
    "rmse": 0.0022237
  }
  loopscale predict: a column the law does not read: k

The table, from standard input, gzip recognised by its bytes:

  $ cat $ROOT/data/sweeps/looped-dense.csv.gz | loopscale predict --law $TRUTH/moe-bounded-sparse.json --where 'n_act=1e8' --where 'tokens=1e11' -
  line  n_act  n_total   n_loop   R  E  tokens    loss  pred_loss  residual
     2  1e+08    1e+08  7.5e+07   1  1   1e+11  2.8062     2.8090   -0.0028
     3  1e+08    1e+08  7.5e+07   2  1   1e+11  2.7063     2.7147   -0.0084
     4  1e+08    1e+08  7.5e+07   3  1   1e+11  2.6801     2.6801   +0.0000
     5  1e+08    1e+08  7.5e+07   4  1   1e+11  2.6652     2.6648   +0.0005
     6  1e+08    1e+08  7.5e+07   6  1   1e+11  2.6565     2.6537   +0.0027
     7  1e+08    1e+08  7.5e+07   8  1   1e+11  2.6529     2.6509   +0.0019
     8  1e+08    1e+08  7.5e+07  16  1   1e+11  2.6504     2.6500   +0.0004
  
  RMSE 0.00357501 over 7 runs (loss units)
  loopscale predict: a column the law does not read: k

A sweep written by hand: byte-order mark, CRLF, quoted header, aliases in any case, no loss column:

  $ printf '\xef\xbb\xbf# my runs\r\n"PARAMS",Loops,n_loop,D\r\n1e9,4,7.5e8,5e11\r\n' > mine.csv
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --format csv mine.csv | python3 $ROOT/tests/cli/round.py
  PARAMS,Loops,n_loop,D,pred_loss
  1e+09,4,7.5e+08,5e+11,2.21861

FLOPs instead of tokens, with a renamed column:

  $ printf 'size,compute,loss\n1e9,3e21,2.2\n' > flops.csv
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --map n_act=size --map flops=compute flops.csv
  line  n_act  n_total  n_loop  R  E  tokens    loss  pred_loss  residual
     2  1e+09    1e+09       -  1  1   5e+11  2.2000     2.2834   -0.0834
  
  RMSE 0.0834181 over 1 run (loss units)

One configuration:

  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --n-total 5.6666666666666667e9 --n-loop 7.5e8 --R 4 --E 8 --tokens 5e11
  loss                       2.10645
  n_eff                      2.09623e+09
  n_unroll                   3.25e+09
  rho_eff                    2.09623
  tokens                     5e+11
  train_flops                9.75e+21
  inference_flops_per_token  6.5e+09
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --flops 6e21 --format json | python3 $ROOT/tests/cli/round.py
  {
    "format": "loopscale-predict/1",
    "loss": 2.25903,
    "n_eff": 1000000000,
    "n_unroll": 1000000000,
    "rho_eff": 1,
    "tokens": 1000000000000,
    "train_flops": 6e+21,
    "inference_flops_per_token": 2000000000
  }
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --R 4 --tokens 5e11
  loopscale predict: --n-loop is needed when R > 1
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --n-loop 2e9 --R 4 --tokens 5e11
  loopscale predict: --n-loop: '2e9' is greater than n_act (1000000000)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --tokens 5e11 --flops 1e20
  loopscale predict: give exactly one of --tokens and --flops
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --tokens abc
  loopscale predict: --tokens: 'abc' is not a number
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH/moe-bounded-sparse.json --n-act 1e9 --tokens 1e11 sweep.csv
  loopscale predict: give either a SWEEP file or one configuration, not both
  Try 'loopscale predict --help'.
  [64]

Law files that are missing or broken:

  $ loopscale predict --law nowhere.json --n-act 1e9 --tokens 1e11
  loopscale predict: nowhere.json: cannot open: No such file or directory
  [66]
  $ echo '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 1}}' > bad.json
  $ loopscale predict --law bad.json --n-act 1e9 --tokens 1e11
  loopscale predict: bad.json:1:76: missing key 'params.alpha'
  [65]
  $ loopscale predict --n-act 1e9 --tokens 1e11
  loopscale predict: give the law with --law FILE
  Try 'loopscale predict --help'.
  [64]

A law fitted on runs vouches for its losses inside their ranges: predict
says when a configuration, or rows of a file, lie beyond them, as solve
does; simulate says when its grid reaches beyond them.

  $ loopscale fit -o fitted.json $ROOT/data/sweeps/looped-moe.csv.gz > /dev/null 2>&1
  $ loopscale predict --law fitted.json --n-act 1e16 --tokens 1e3 --format json 2>&1 >/dev/null
  loopscale predict: warning: N_act = 1e+16 (fitted 1e+08 to 1e+09), D = 1000 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  $ printf 'n_act,tokens,loss\n1e16,1e3,3\n5e8,2e11,2.3\n' > beyond.csv
  $ loopscale predict --law fitted.json --format csv beyond.csv 2>&1 >/dev/null
  loopscale predict: warning: beyond.csv: 1 of the 2 runs lies outside the ranges the law was fitted on, extrapolations (the first, line 2: N_act = 1e+16 (fitted 1e+08 to 1e+09), D = 1000 (fitted 1e+11 to 5e+11))
  loopscale predict: RMSE 186.774 over 2 runs (loss units)
  $ loopscale simulate --law fitted.json --n-act 1e16 --tokens 1e3,1e11 2>&1 >/dev/null
  loopscale simulate: warning: the runs reach beyond the ranges the law was fitted on: N_act = 1e+16 (fitted 1e+08 to 1e+09), D 1000 to 1e+11 (fitted 1e+11 to 5e+11); their losses there are the law's extrapolation
