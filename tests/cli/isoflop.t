IsoFLOP minima, and the profiles behind them:

  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20,1e21,1e22 --E 1,8 --R 1,4
  flops  E  R     N_act*         D*  tokens/N_act   loss*
  1e+20  1  1  6.449e+08  2.585e+10         40.08  2.5998
  1e+20  1  4  2.762e+08  1.857e+10         67.23  2.6881
  1e+20  8  1  3.507e+08  4.752e+10         135.5  2.4470
  1e+20  8  4  1.377e+08  3.724e+10         270.5  2.5005
  1e+21  1  1  1.824e+09  9.136e+10         50.08  2.3289
  1e+21  1  4  7.813e+08  6.564e+10         84.01  2.3909
  1e+21  8  1  9.754e+08  1.709e+11         175.2  2.2191
  1e+21  8  4   3.83e+08  1.339e+11         349.7  2.2564
  1e+22  1  1   5.16e+09   3.23e+11         62.58  2.1386
  1e+22  1  4   2.21e+09   2.32e+11           105  2.1821
  1e+22  8  1  2.713e+09  6.143e+11         226.4  2.0597
  1e+22  8  4  1.065e+09  4.814e+11           452  2.0859
  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e21 --points 5 --format csv | python3 $ROOT/tests/cli/round.py
  flops,E,R,n_act,tokens,loss,minimum,outside
  1e+21,1,1,6.08073e+07,2.7409e+12,2.74226,0,
  1e+21,1,1,3.33055e+08,5.00418e+11,2.42202,0,
  1e+21,1,1,1.82422e+09,9.13634e+10,2.32888,0,
  1e+21,1,1,1.82422e+09,9.13634e+10,2.32888,1,
  1e+21,1,1,9.99165e+09,1.66806e+10,2.41587,0,
  1e+21,1,1,5.47265e+10,3.04545e+09,2.68881,0,

For a dense law without loops the minima are Chinchilla's closed form,
N_opt = G (F/6)^(beta/(alpha+beta)) with G = (alpha A / (beta B))^(1/(alpha+beta)):

  $ printf '{"format":"loopscale-law/1","law":{"base":"dense","mapping":"none"},"params":{"A":406.4,"alpha":0.34,"B":410.7,"beta":0.28,"c":1.69}}' > chinchilla.json
  $ loopscale isoflop --law chinchilla.json --flops 5.76e23 --format csv | awk -F, '$7 == 1 { print $4 }' | python3 $ROOT/tests/cli/round.py
  3.21899e+10
  $ python3 -c "a, b, A, B, F = 0.34, 0.28, 406.4, 410.7, 5.76e23; print((a*A/(b*B))**(1/(a+b)) * (F/6)**(b/(a+b)))" | python3 $ROOT/tests/cli/round.py
  3.21899e+10

Errors:

  $ loopscale isoflop --law chinchilla.json
  loopscale isoflop: give the compute budgets with --flops F1,F2,...
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law chinchilla.json --flops 1e21 --E 0.5
  loopscale isoflop: --E: 0.5 is not a whole number of experts of at least top_k
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law chinchilla.json --flops 1e21 --points 1
  loopscale isoflop: --points: '1' is outside [2, 100000]
  Try 'loopscale isoflop --help'.
  [64]

A minimum beyond the ranges the law was fitted on is starred, and the
profile points beyond them are named in the CSV's `outside` column:

  $ loopscale isoflop --flops 1e20,1e24 --E 1,16
  loopscale isoflop: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  flops   E  R  N_act*      D*          tokens/N_act   loss*
  1e+20   1  1  5.723e+08   2.912e+10*         50.89  2.6064
  1e+20  16  1  2.757e+08*  6.046e+10*         219.3  2.4086
  1e+24   1  1  4.602e+10*  3.622e+12*         78.71  1.9210
  1e+24  16  1  1.814e+10*  9.187e+12*         506.4  1.8685
  * outside the range the law was fitted on: N_act 3e+08 to 1e+09, D 1e+11 to 5e+11
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D): an extrapolation
  $ loopscale isoflop --flops 1e24 --points 3 --format csv 2>/dev/null | cut -d, -f7-
  minimum,outside
  0,N_act;D
  0,N_act;D
  1,N_act;D
  0,N_act
