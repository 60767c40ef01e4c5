Epoch AI's replication of Chinchilla's approach 3, reproduced from the
real data (../shared, present in CI; skipped when it is not).

  $ CSV=$SHARED/data/external/epoch-chinchilla/svg_extracted_data.csv
  $ [ -f "$CSV" ] || exit 80

Epoch's optimum: objective 0.00101827, A 477.84, B 2143.9, c 1.8172,
alpha 0.34731, beta 0.36718; 95% intervals alpha (0.317, 0.373), beta
(0.331, 0.415), c (1.769, 1.871).  The table is rounded to 4 digits: the
intervals move in the 6th with where each bootstrap refit stops.

  $ LOOPSCALE=loopscale $ROOT/examples/chinchilla.sh $CSV > fit.txt
  $ grep -E '^(law|runs|objective|converged|bootstrap) ' fit.txt | sed 's| (.*/| (|'
  law        dense
  runs       240 (svg_extracted_data.csv)
  objective  0.00101827402  (sum of Huber(ln Lhat - ln L), delta 0.001)
  converged  yes \(\d+ iterations\) (re)
  bootstrap  4000 draws, 0 did not converge
  $ grep -E '^starts ' fit.txt
  starts     4500, (44\d\d|4500) reached the best objective \(within 1e-06 relative\), 4500 converged (re)
  $ sed -n '/^parameter/,/^c /p' fit.txt | python3 $ROOT/tests/cli/round.py 4
  parameter     value    stderr*  95% interval
  A           477.8    122.7  [285.6, 723.6]
  alpha       0.3473  0.01518  [0.3166, 0.3717]
  B           2143    802.8  [1046, 6035]
  beta       0.3672  0.01838  [0.3318, 0.4172]
  c           1.817  0.02617  [1.77, 1.869]

The optimum to eight digits from the 4,500-point grid, and the same law
file (all but the command line) on one thread and on two:

  $ for t in 1 2; do
  >   loopscale fit --law dense --grid chinchilla --threads $t --map 'n_act=Model Size' \
  >     --map 'flops=Training FLOP' --where 'loss<3.4469' -o grid$t.json $CSV > /dev/null || echo failed
  > done
  $ python3 -c '
  > import json, sys
  > a, b = (json.load(open(f)) for f in sys.argv[1:])
  > for d in (a, b): del d["created_by"]
  > print("same law file" if a == b else "DIFFERENT")
  > p = a["params"]
  > print("objective %.14g" % a["fit"]["objective"])
  > print(" ".join("%s %.8g" % (k, p[k]) for k in ("A", "alpha", "B", "beta", "c")))
  > print("starts at the best >= 4400:", a["fit"]["starts_at_best"] >= 4400)
  > ' grid1.json grid2.json
  same law file
  objective 0.0010182740178006
  A 477.82587 alpha 0.3473105 B 2143.4174 beta 0.36717243 c 1.8172181
  starts at the best >= 4400: True

The threshold docs/fitting.md writes out keeps the same 240 points.

  $ loopscale fit --law dense --map 'n_act=Model Size' --map 'flops=Training FLOP' \
  >   --where 'loss<3.4469' $CSV | sed -n 's| (.*/| (|; /^runs /p'
  runs       240 (svg_extracted_data.csv)

A report on these dense points is about a dense law: no run loops, so the
law is `dense` alone and the loop mappings (identical at R = 1) are not
compared; the largest N and the largest D are one run each, which the page
and standard error say; the budget tables have no N_loop or N_unroll, and
there is no figure of loss against loops.

  $ loopscale report --map 'n_act=Model Size' --map 'flops=Training FLOP' --where 'loss<3.4469' \
  >   --flops 1e21 -o dense.html $CSV 2>&1 | sed 's|/[^ ]*/||'
  loopscale report: no run has R > 1, where every loop mapping reduces to N_eff = N_act: the report is of dense, and the loop mappings are not compared
  loopscale report: R=1: nothing to hold out (every run has this value)
  loopscale report: warning: N=1.618e+10 holds out 1 run: its RMSE is one residual, not a comparison of laws
  loopscale report: warning: D=3.178e+11 holds out 1 run: its RMSE is one residual, not a comparison of laws
  loopscale report: E=1: nothing to hold out (every run has this value)
  $ grep -o '<h2>Fit of [^<]*<[^>]*>[^<]*' dense.html
  <h2>Fit of <code>dense
  $ grep -o 'No run has R &gt; 1[^.]*' dense.html
  No run has R &gt; 1, where every loop mapping (linear, power, bounded) reduces to N<sub>eff</sub> = N<sub>act</sub> and predicts alike: the mappings are not compared, and the law is the base alone
  $ grep -o '<p class="warn">N=[^<]*' dense.html
  <p class="warn">N=1.618e+10 (1 run) and D=3.178e+11 (1 run) hold out too few runs: their RMSE is one or two residuals, not a comparison of laws.
  $ grep -c 'N<sub>loop</sub></td>\|N<sub>unroll</sub></td>\|best loss against loops' dense.html
  0
  [1]
