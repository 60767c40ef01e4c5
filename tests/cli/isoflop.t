IsoFLOP minima, and the profiles behind them:

  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20,1e21,1e22 --E 1,8 --R 1,4
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  flops  E  R     N_act*         D*  tokens/N_act   loss*
  1e+20  1  1   8.55e+08  1.949e+10          22.8  2.5521
  1e+20  1  4  3.527e+08  1.454e+10         41.22  2.6356
  1e+20  8  1   5.01e+08  3.327e+10          66.4  2.4122
  1e+20  8  4  1.914e+08  2.679e+10           140  2.4614
  1e+21  1  1  2.792e+09   5.97e+10         21.38  2.3045
  1e+21  1  4  1.152e+09  4.453e+10         38.67  2.3598
  1e+21  8  1  1.609e+09  1.036e+11         64.41  2.2093
  1e+21  8  4  6.145e+08  8.345e+10         135.8  2.2417
  1e+22  1  1  9.115e+09  1.828e+11         20.06  2.1403
  1e+22  1  4   3.76e+09  1.364e+11         36.27  2.1770
  1e+22  8  1  5.165e+09  3.227e+11         62.47  2.0756
  1e+22  8  4  1.973e+09  2.599e+11         131.7  2.0969
  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e21 --points 5 --format csv | python3 $ROOT/tests/cli/round.py
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  flops,E,R,n_act,tokens,loss,minimum,outside
  1e+21,1,1,9.30576e+07,1.791e+12,2.70106,0,
  1e+21,1,1,5.09698e+08,3.26991e+11,2.39606,0,
  1e+21,1,1,2.79173e+09,5.97002e+10,2.30446,0,
  1e+21,1,1,2.79173e+09,5.97002e+10,2.30446,1,
  1e+21,1,1,1.52909e+10,1.08997e+10,2.39816,0,
  1e+21,1,1,8.37519e+10,1.99001e+09,2.71977,0,

For a dense law without loops the minima are Chinchilla's closed form,
N_opt = G (F/6)^(beta/(alpha+beta)) with G = (alpha A / (beta B))^(1/(alpha+beta)):

  $ printf '{"format":"loopscale-law/1","law":{"base":"dense","mapping":"none"},"params":{"A":406.4,"alpha":0.34,"B":410.7,"beta":0.28,"c":1.69}}' > chinchilla.json
  $ loopscale isoflop --law chinchilla.json --flops 5.76e23 --format csv | awk -F, '$7 == 1 { print $4 }' | python3 $ROOT/tests/cli/round.py
  loopscale isoflop: chinchilla.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  3.21899e+10
  $ python3 -c "a, b, A, B, F = 0.34, 0.28, 406.4, 410.7, 5.76e23; print((a*A/(b*B))**(1/(a+b)) * (F/6)**(b/(a+b)))" | python3 $ROOT/tests/cli/round.py
  3.21899e+10

Errors:

  $ loopscale isoflop --law chinchilla.json
  loopscale isoflop: give the compute budgets with --flops F1,F2,... or --flops LO:HI:N
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law chinchilla.json --flops 1e21 --E 0.5
  loopscale isoflop: --E: '0.5' is outside its range: an integer from 1 to 1e+06 (experts)
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
  loopscale isoflop: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D, F): an extrapolation
  flops    E  R  N_act*      D*          tokens/N_act   loss*
  1e+20    1  1  7.923e+08   2.104e+10*         26.55  2.5576
  1e+20   16  1  4.117e+08   4.049e+10*         98.35  2.3754
  1e+24*   1  1  1.109e+11*  1.503e+12*         13.55  1.9567
  1e+24*  16  1  4.555e+10*  3.659e+12*         80.32  1.9215
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09, D 1e+11 to 5e+11, F 6e+19 to 3.675e+22
  $ loopscale isoflop --flops 1e24 --points 3 --format csv 2>/dev/null | cut -d, -f7-
  minimum,outside
  0,N_act;D;F
  0,N_act;D;F
  1,N_act;D;F
  0,N_act;D;F

Without --law, the default law's dense part is Epoch AI's fit of Chinchilla's
runs: at 1e22 FLOPs a dense model trains on 15 to 30 tokens per parameter
(Epoch's fit: 20; Chinchilla's approach-3 law gave 63):

  $ loopscale isoflop --flops 1e22 --E 1 --format csv 2>/dev/null | awk -F, '$7 == 1 { print $5 / $4 }' | python3 -c 'import sys; t = float(sys.stdin.read()); print(15 <= t <= 30)'
  True

The budgets may be a range LO:HI:N, N budgets evenly spaced in ln F, whose
decades are exact:

  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20:1e22:3 --format tsv | cut -f1-3,7 | uniq
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  flops\tE\tR\tminimum (esc)
  1e+20\t1\t1\t0 (esc)
  1e+20\t1\t1\t1 (esc)
  1e+20\t1\t1\t0 (esc)
  1e+21\t1\t1\t0 (esc)
  1e+21\t1\t1\t1 (esc)
  1e+21\t1\t1\t0 (esc)
  1e+22\t1\t1\t0 (esc)
  1e+22\t1\t1\t1 (esc)
  1e+22\t1\t1\t0 (esc)

JSON carries both: each profile's minimum and its points.  The minima are
the CSV's rows marked 'minimum', the points its other rows, to the last
digit:

  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20,1e22 --E 1,8 --R 1,4 --points 7 --format json > iso.json
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20,1e22 --E 1,8 --R 1,4 --points 7 --format csv > iso.csv
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  $ python3 -c '
  > import csv, json
  > doc, rows = json.load(open("iso.json")), list(csv.DictReader(open("iso.csv")))
  > assert doc["format"] == "loopscale-isoflop/1" and doc["law"] == "moe:bounded-sparse"
  > same = 0
  > for p in doc["profiles"]:
  >     mine = [r for r in rows if (float(r["flops"]), float(r["E"]), float(r["R"])) == (p["flops"], p["E"], p["R"])]
  >     m = [r for r in mine if r["minimum"] == "1"]
  >     pts = [r for r in mine if r["minimum"] == "0"]
  >     assert len(m) == 1 and len(pts) == len(p["points"]) == 7
  >     for r, q in [(m[0], p["minimum"])] + list(zip(pts, p["points"])):
  >         assert all(float(r[k]) == q[k] for k in ("n_act", "tokens", "loss")), (r, q)
  >         assert r["outside"] == ";".join(q["outside"])
  >         same += 1
  >     assert abs(p["minimum"]["tokens_per_param"] - p["minimum"]["tokens"] / p["minimum"]["n_act"]) < 1e-12 * p["minimum"]["tokens_per_param"]
  > print(len(doc["profiles"]), "profiles,", same, "rows the same")'
  8 profiles, 64 rows the same

Markdown shows the minima as the table does:

  $ loopscale isoflop --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e21 --E 1,8 --format md
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  | flops | E | R |    N_act* |        D* | tokens/N_act |  loss* |
  |------:|--:|--:|----------:|----------:|-------------:|-------:|
  | 1e+21 | 1 | 1 | 2.792e+09 |  5.97e+10 |        21.38 | 2.3045 |
  | 1e+21 | 8 | 1 | 1.609e+09 | 1.036e+11 |        64.41 | 2.2093 |

What is printed is held until the run succeeds, so the rows are bounded:
a request for more is refused before any work, naming the limit:

  $ loopscale isoflop --law chinchilla.json --flops 1e18:1e24:1000 --E 1,2,4,8,16,32,64 --R 1,2,3,4 --points 50 --format csv
  loopscale isoflop: --flops, --E and --R with --points ask for 1428000 rows; at most 1000000
  Try 'loopscale isoflop --help'.
  [64]
