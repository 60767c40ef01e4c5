A report is one self-contained HTML page on a sweep: the fit of a law, the
comparison of laws on held-out runs, the configuration each budget should
buy, and the figures.  Its numbers are those of fit, holdout and solve run
on the same sweep with the same options.  (tests/browser/report.py renders
it in Chromium.)

  $ SWEEP="$ROOT/tests/data/report/looped-moe-small.csv"
  $ TABLES="$TESTDIR/html_tables.py"
  $ ln -s "$SWEEP" sweep.csv
  $ loopscale report --flops 1e21,1e22 --mem 3GB --bits 4 sweep.csv -o report.html
  loopscale report: a column the law does not read: k
  loopscale report: warning: E_max = [0-9.e+]+ is not determined by the runs: its standard error, [0-9.e+]+, is [0-9.e+]+ times its value \(an unbounded interval\) (re)
  loopscale report: warning: delta = -0.0584 is poorly determined: its 95% interval from its standard error [-0.558, 0.441] is 1 wide, more than 0.5
  loopscale report: warning: omega = -0.146 is poorly determined: its 95% interval from its standard error [-0.654, 0.362] is 1 wide, more than 0.5
  loopscale report: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale report: warning: budget 1e+21 FLOPs: chosen, lowest loss: D = 3.056e+11 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale report: warning: budget 1e+21 FLOPs: chosen, lowest loss, no memory limit: E = 16, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  loopscale report: warning: budget 1e+22 FLOPs: chosen: N_act = 1.059e+09 (fitted 1e+08 to 1e+09), D = 8.995e+11 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale report: warning: budget 1e+22 FLOPs: lowest loss: D = 1.222e+12 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale report: warning: budget 1e+22 FLOPs: no memory limit: N_act = 2.501e+09 (fitted 1e+08 to 1e+09), D = 6.663e+11 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale report: warning: budget 1e+22 FLOPs: lowest loss, no memory limit: E = 16, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  $ test -s report.html && head -c 15 report.html
  <!DOCTYPE html> (no-eol)

Self-contained: every figure is an SVG document inside the page as a data:
URI, nothing names another resource, and a Content-Security-Policy forbids
any fetch; there is no script.

  $ python3 "$TABLES" report.html --figures
  observed and fitted loss of the runs: data:image/svg+xml;base64, an svg document
  predicted against observed loss of the held-out runs: data:image/svg+xml;base64, an svg document
  best loss against loops under the budget: data:image/svg+xml;base64, an svg document
  best loss against loops under the budget: data:image/svg+xml;base64, an svg document
  IsoFLOP profiles of the chosen configurations: data:image/svg+xml;base64, an svg document
  $ grep -c -i -E 'https?:|<script|<link|@import|url\(' report.html
  0
  [1]
  $ grep -o "Content-Security-Policy\" content=\"[^\"]*\"" report.html
  Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"

Answers outside the ranges the law was fitted on are marked as solve marks
them: a warning box before the budget's table, a star on each value
outside, the ranges under the table, and a line on standard error.

  $ loopscale report --flops 1e22 --mem 3GB --bits 4 sweep.csv -o extrap.html 2>&1 | grep -c 'warning: budget 1e+22 FLOPs: chosen: '
  1
  $ grep -o '<div class="warn"><b>Extrapolated:</b>[^<]*' extrap.html
  <div class="warn"><b>Extrapolated:</b> these answers lie outside the ranges the law was fitted on, where its predictions are a guess, not a fit; starred below.
  $ python3 "$TABLES" extrap.html | grep -E '^D \(tokens\)'
  D (tokens) | 8.995\xc3\x9710^11* | 1.222\xc3\x9710^12* | 6.663\xc3\x9710^11* (esc)
  $ grep -o '<p class="note">\* outside the range the law was fitted on:[^.]*' extrap.html
  <p class="note">* outside the range the law was fitted on: N<sub>act</sub> 10<sup>8</sup> to 10<sup>9</sup>, D 10<sup>10</sup> to 3&#215;10<sup>11</sup>

The fit is fit's: the same parameters and RMSE.

  $ loopscale fit -o law.json sweep.csv > fit.txt
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.0584 is poorly determined: its 95% interval from its standard error [-0.558, 0.441] is 1 wide, more than 0.5
  loopscale fit: warning: omega = -0.146 is poorly determined: its 95% interval from its standard error [-0.654, 0.362] is 1 wide, more than 0.5
  $ python3 "$TABLES" report.html | sed -n '/^# table 1$/,/^# table 2$/p' | grep -E '^(alpha|beta|kappa1|theta) '
  alpha | 0.314126 | 0.0311
  beta | 0.310346 | 0.0314
  kappa1 | 1.22184 | 0.135
  theta | 0.384975 | 0.0922
  $ grep -E '^(alpha|beta|kappa1|theta) ' fit.txt | awk '{ print $1 " | " $2 }'
  alpha | 0.314126
  beta | 0.310346
  kappa1 | 1.22184
  theta | 0.384975
  $ rmse=$(awk '/^RMSE/ { print $2 }' fit.txt)
  $ grep -c "<dt>RMSE</dt><dd>$(printf %.4g "$rmse") nats/token over 144 runs" report.html
  1

The residuals listed are observed minus fitted loss, largest first; the
first is checked against predict, which evaluates the
law on its own):

  $ python3 "$TABLES" report.html | sed -n '/^# table 2$/,/^# table 3$/p' | sed -n 2,4p
  run | Nact | D | R | E | observed | fitted | residual
  sweep.csv:98 | 10^9 | 10^10 | 1 | 1 | 2.6578 | 2.6987 | -0.0409
  sweep.csv:66 | 3\xc3\x9710^8 | 3\xc3\x9710^10 | 1 | 4 | 2.6129 | 2.5760 | +0.0369 (esc)
  $ loopscale predict --law law.json --format csv sweep.csv 2> /dev/null |
  >   awk -F, 'NR > 1 { r = $10 - $9; if (r < 0) r = -r; if (r > m) { m = r; l = $9; p = $10 } } END { printf "%.4f %.4f\n", l, p }'
  2.6578 2.6987

The comparison is holdout's: the same laws (the reported one first), the
same RMSEs.  A starred cell is a training fit that did not converge, whose
last digits depend on the build's floating point (a sanitizer build's
differ), so those cells are matched by their form:

  $ python3 "$TABLES" report.html | sed -n '/^# table 3$/,/^# table 4$/p' | sed -n 2,6p
  law | k | in-sample | R=8 (108/36) | N=1e+09 (96/48) | D=3e+11 (108/36) | E=16 (96/48) | AIC | BIC
  moe:bounded\-sparse\ \|\ 13\ \|\ 0\.0128\ \|\ 0\.0152\ \|\ 0\.0158\ \|\ 0\.0151\ \|\ 0\.\d{4}\*\ \|\ \-1491\.2\ \|\ \-1452\.6 (re)
  moe:linear\ \|\ 10\ \|\ 0\.0445\ \|\ 0\.0859\ \|\ 0\.0752\ \|\ 0\.0444\ \|\ 0\.\d{4}\*\ \|\ \-1145\.0\ \|\ \-1115\.3 (re)
  moe:power\ \|\ 11\ \|\ 0\.0193\ \|\ 0\.0411\ \|\ 0\.\d{4}\*\ \|\ 0\.0220\ \|\ 0\.\d{4}\*\ \|\ \-1382\.3\ \|\ \-1349\.7 (re)
  moe:bounded\ \|\ 12\ \|\ 0\.0152\ \|\ 0\.0204\ \|\ 0\.0214\ \|\ 0\.0167\ \|\ 0\.\d{4}\*\ \|\ \-1443\.7\ \|\ \-1408\.0 (re)
  $ loopscale holdout --laws moe:bounded-sparse,moe:linear,moe:power,moe:bounded sweep.csv | sed -n 3,6p
  \|\ moe:bounded\-sparse\ \|\ 13\ \|\ \ \ \ 0\.0128\ \|\ 0\.0152\ \|\ 0\.0158\ \ \|\ \ 0\.0151\ \|\ 0\.\d{4}\*\ \|\ \-1491\.2\ \|\ \-1452\.6\ \| (re)
  \|\ moe:linear\ \ \ \ \ \ \ \ \ \|\ 10\ \|\ \ \ \ 0\.0445\ \|\ 0\.0859\ \|\ 0\.0752\ \ \|\ \ 0\.0444\ \|\ 0\.\d{4}\*\ \|\ \-1145\.0\ \|\ \-1115\.3\ \| (re)
  \|\ moe:power\ \ \ \ \ \ \ \ \ \ \|\ 11\ \|\ \ \ \ 0\.0193\ \|\ 0\.0411\ \|\ 0\.\d{4}\*\ \|\ \ 0\.0220\ \|\ 0\.\d{4}\*\ \|\ \-1382\.3\ \|\ \-1349\.7\ \| (re)
  \|\ moe:bounded\ \ \ \ \ \ \ \ \|\ 12\ \|\ \ \ \ 0\.0152\ \|\ 0\.0204\ \|\ 0\.0214\ \ \|\ \ 0\.0167\ \|\ 0\.\d{4}\*\ \|\ \-1443\.7\ \|\ \-1408\.0\ \| (re)

The budgets are solve's, over every E of the sweep and R from 1 to its
largest, with epsilon the fit's RMSE:

  $ python3 "$TABLES" report.html | sed -n '/^# table 5$/,$p' | grep -E '^(R|E) |^Nact|^loss'
  R (loops) | 2 | 3 | 1
  E (experts) | 8 | 16 | 16
  Nact | 1.059\xc3\x9710^9* | 5.455\xc3\x9710^8 | 2.501\xc3\x9710^9* (esc)
  loss (predicted, nats/token) | 2.0770 | 2.0653 | 2.0425
  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --bits 4 --E 1,4,16 --R 1,2,3,4,5,6,7,8 | grep -E '^(R|E) |^N_act|^loss'
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen: D = 1.746e+12 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss: D = 1.222e+12 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 2.501e+09 (fitted 1e+08 to 1e+09), D = 6.663e+11 (fitted 1e+10 to 3e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 16, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  R (loops)              2           3            1
  E (experts)            16          16           16
  N_act                  5.455e+08   5.455e+08    2.501e+09*
  loss (predicted)       2.0678      2.0653       2.0425

Strings from input are escaped: a file name with HTML's special characters
appears as text, never as markup.

  $ ln -s "$SWEEP" 'a<b>&"c'"'"'.csv'
  $ loopscale report --laws moe:bounded --axes R --where 'E<=16' --where 'R<=8' -o odd.html 'a<b>&"c'"'"'.csv'
  loopscale report: columns the law does not read: n_total, k
  loopscale report: warning: E_max = [0-9.e+]+ is not determined by the runs: its standard error, [0-9.e+]+, is [0-9.e+]+ times its value \(an unbounded interval\) (re)
  loopscale report: warning: delta = -0.0137 is poorly determined: its 95% interval from its standard error [-0.641, 0.613] is 1.3 wide, more than 0.5
  loopscale report: warning: omega = 0.0519 is poorly determined: its 95% interval from its standard error [-0.691, 0.795] is 1.5 wide, more than 0.5
  $ grep -c 'a<b>' odd.html
  0
  [1]
  $ grep -o '<title>[^<]*</title>' odd.html
  <title>loopscale report: a&lt;b&gt;&amp;&quot;c&#39;.csv</title>
  $ grep -o 'Runs kept by [^.]*' odd.html
  Runs kept by <code>--where E&lt;=16</code>, <code>--where R&lt;=8</code>

With a bootstrap, the parameters get intervals and the figures bands; with
no budget there is no budget section.

  $ loopscale report --law dense --axes N --where 'E=1' --where 'R=1' --bootstrap 20 -o boot.html sweep.csv
  loopscale report: no run has R > 1, where every loop mapping reduces to N_eff = N_act: the report is of dense, and the loop mappings are not compared
  loopscale report: columns the law does not read: n_total, n_loop, R, E, k
  loopscale report: warning: c = 1\.44 is not determined by the runs: its 95% bootstrap interval \[[0-9.e-]+, 1\.72\] spans a factor [0-9.e+]+ (re)
  loopscale report: warning: the compute-optimal exponent a = 0.491 is poorly determined: its 95% bootstrap interval [0.354, 0.813] is 0.46 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 "$TABLES" boot.html | sed -n 1,3p
  # table 1
  parameter | value | standard error* | 95% bootstrap interval
  A | * | * | [*, *] (glob)
  $ grep -c 'id="budgets"' boot.html
  0
  [1]
