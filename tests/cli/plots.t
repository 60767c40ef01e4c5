Every plot is written as SVG, PDF or PNG as its file name says, and each
file is what its extension claims: the SVG parses as XML and rsvg-convert
draws it, pdftoppm draws the PDF, the PNG has PNG's signature; none is
empty and none is drawn with a warning (standard error stays empty).

  $ is() {
  >   test -s "$1" || { echo "$1 is empty"; return 1; }
  >   case "$1" in
  >   *.svg) xmllint --noout "$1" && rsvg-convert -o "$1.check.png" "$1" 2> warn && test ! -s warn && test -s "$1.check.png" ;;
  >   *.pdf) pdftoppm -r 20 -png -singlefile "$1" "$1.check" 2> warn && test ! -s warn && test -s "$1.check.png" ;;
  >   *.png) test "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ;;
  >   esac && echo "$1 is ${1##*.}"
  > }
  $ SWEEP="$ROOT/data/sweeps/looped-moe.csv.gz"
  $ loopscale fit -o law.json --where 'E<=4' "$SWEEP" > /dev/null
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.123 is poorly determined: its 95% interval from its standard error [-0.435, 0.19] is 0.62 wide, more than 0.5
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% interval from its standard error [-1.33, 1.34] is 2.7 wide, more than 0.5
  $ for f in svg pdf png; do
  >   loopscale fit --plot fit.$f --where 'E<=4' "$SWEEP" > /dev/null
  >   loopscale fit --plot dense.$f "$ROOT/data/sweeps/looped-dense.csv.gz" --law dense --where 'R=1' > /dev/null 2>&1
  >   loopscale holdout --laws moe:bounded,moe:bounded-sparse --axes R,E --plot holdout.$f "$SWEEP" > /dev/null
  >   loopscale isoflop --law law.json --flops 1e20,1e21,1e22 --E 1,8 --R 1,4 --plot isoflop.$f > /dev/null
  >   loopscale solve --law law.json --flops 1e22 --mem 3GB --bits 4 --E 1,2,4 --plot solve.$f --plot-rho rho.$f > /dev/null
  >   for p in fit dense holdout isoflop solve rho; do is $p.$f; done
  > done
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.123 is poorly determined: its 95% interval from its standard error [-0.435, 0.19] is 0.62 wide, more than 0.5
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% interval from its standard error [-1.33, 1.34] is 2.7 wide, more than 0.5
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D, E): an extrapolation
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss: N_act = 2e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 6.39e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  fit.svg is svg
  dense.svg is svg
  holdout.svg is svg
  isoflop.svg is svg
  solve.svg is svg
  rho.svg is svg
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.123 is poorly determined: its 95% interval from its standard error [-0.435, 0.19] is 0.62 wide, more than 0.5
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% interval from its standard error [-1.33, 1.34] is 2.7 wide, more than 0.5
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D, E): an extrapolation
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss: N_act = 2e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 6.39e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  fit.pdf is pdf
  dense.pdf is pdf
  holdout.pdf is pdf
  isoflop.pdf is pdf
  solve.pdf is pdf
  rho.pdf is pdf
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.123 is poorly determined: its 95% interval from its standard error [-0.435, 0.19] is 0.62 wide, more than 0.5
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% interval from its standard error [-1.33, 1.34] is 2.7 wide, more than 0.5
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D, E): an extrapolation
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: chosen, lowest loss: N_act = 2e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 6.39e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  fit.png is png
  dense.png is png
  holdout.png is png
  isoflop.png is png
  solve.png is png
  rho.png is png

The PDF's text is real text: panel titles, axis labels with their units,
legends; numbers as powers of ten, not e-notation.

  $ pdftotext fit.pdf - | grep -c '^E = [124], N act = '
  12
  $ pdftotext fit.pdf - | grep -m1 -o 'loss (nats/token)'
  loss (nats/token)
  $ pdftotext fit.pdf - | grep -o 'D = 3×1011 tokens'
  D = 3×1011 tokens
  $ pdftotext dense.pdf - | grep -m1 -o 'tokens D'
  tokens D

Up to 7 expert counts get a row each (the shipped sweep's 1 to 64); more
are binned, and a bin is labelled by the counts in it, so that no count
appears in two labels and a bin of one count names it:

  $ loopscale simulate --law law.json --n-act 1e8,3e8,1e9 --tokens 1e11,2e11,4e11 --E 1,2,3,4,6,8,12,16,24 --R 1,2,4 -o many-e.csv
  loopscale simulate: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale simulate: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale simulate: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale simulate: warning: the runs reach beyond the ranges the law was fitted on: E 1 to 24 (fitted 1 to 4); their losses there are the law's extrapolation
  $ loopscale fit --law dense:linear --plot many-e.pdf many-e.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: B = 3.29e+03 is not determined by the runs: its standard error, 9.8e+04, is 30 times its value (an unbounded interval)
  loopscale fit: warning: A = 107 is poorly determined: its 95% interval from its standard error [1.27, 8.95e+03] spans a factor 7e+03, more than 1000
  loopscale fit: warning: alpha = 0.278 is poorly determined: its 95% interval from its standard error [0.00891, 0.546] is 0.54 wide, more than 0.5
  loopscale fit: warning: the runs do not tell beta = 0.386 from its lower bound 0: its 95% interval from its standard error [-2.1, 2.87] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.581 is poorly determined: its 95% interval from the standard errors [-1.01, 2.17] is 3.2 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is -0.25 (t = -4.01): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the residuals trend along E: their rank correlation with ln E is 0.94 (t = 44.3): the law misses how the loss changes with E; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0821, is 3.5 times the noise the runs themselves show (0.0237, from each run's nearest neighbour): the law does not describe these runs
  $ pdftotext many-e.pdf - | grep -o '^E = [0-9–]*' | sort -t= -k2 -n | uniq
  E = 1
  E = 2
  E = 3
  E = 4–6
  E = 8
  E = 12
  E = 16–24
  $ pdftotext holdout.pdf - | grep -E '^moe:bounded(-sparse)?$'
  moe:bounded
  moe:bounded-sparse
  $ pdftotext holdout.pdf - | grep -c 'nats/token'
  3
  $ pdftotext isoflop.pdf - | grep -E -o 'active parameters N ?act|F = 1021 FLOPs|minimum of each profile' | sort
  F = 1021 FLOPs
  active parameters N act
  minimum of each profile
  $ pdftotext solve.pdf - | grep -o 'chosen: R \?\* = [0-9]*, E\* = [0-9]*'
  chosen: R * = 2, E* = 4
  $ pdftotext rho.pdf - | grep -m1 -o 'ρeff(R) = N eff / N act'
  ρeff(R) = N eff / N act
  $ pdftotext fit.pdf - | grep -c 'e+\|[0-9]e[0-9]'
  0
  [1]
  $ pdftotext holdout.pdf - | grep -c 'e+\|[0-9]e[0-9]'
  0
  [1]
  $ pdftotext holdout.pdf - | grep -m1 -o 'E = 64 held out'
  E = 64 held out

Uncertainty, residuals, extrapolation: a law with bootstrap draws gets 95%
bands (the default law has 1,000 draws; fit, isoflop and solve draw them);
fit has a panel of every run's residuals; the regions beyond the law's
fitted ranges are shaded and named in the legend, an E beyond them dashed.

  $ loopscale fit --bootstrap 30 --bootstrap-starts 1 --plot boot.pdf --where 'E<=4' "$SWEEP" > /dev/null
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% bootstrap interval [-0.482, 0.579] is 1.1 wide, more than 0.5
  $ pdftotext boot.pdf - | grep -E -o '95% band: the law.s 30 bootstrap draws|residuals of all runs'
  residuals of all runs
  95% band: the law's 30 bootstrap draws
  $ pdftotext fit.pdf - | grep -c '95% band'
  0
  [1]
  $ loopscale isoflop --flops 1e21 --plot iso-default.pdf 2> /dev/null > /dev/null
  $ pdftotext iso-default.pdf - | grep -E -o '95% band: 200 bootstrap draws of the law \(of 1000 it holds\)|shaded beyond the fitted N ?act; thin outside the fitted ranges \([^)]*\): extrapolated|compute-optimal frontier as F varies'
  95% band: 200 bootstrap draws of the law (of 1000 it holds)
  shaded beyond the fitted Nact; thin outside the fitted ranges (Nact, D): extrapolated
  compute-optimal frontier as F varies
  $ loopscale solve --flops 1e22 --mem 3GB --bits 4 --E 4,64 --R 1,2,4,8,16,32 --plot beyond.pdf 2> /dev/null > /dev/null
  $ pdftotext beyond.pdf - | grep -E -o 'E = 64 \(beyond the fitted E: extrapolated\)|beyond the fitted R: extrapolated|95% band: 50 bootstrap draws of the law \(of 1000 it holds\)|lowest loss \+ ε \(ε = [0-9.]*\)'
  95% band: 50 bootstrap draws of the law (of 1000 it holds)
  beyond the fitted R: extrapolated
  lowest loss + \xce\xb5 (\xce\xb5 = 0.004412) (esc)

Titles and notes flattened to plain text for the file's metadata keep
their exponents (10^22, not 1022); the frontier's figure draws hollow, on
dashed segments, the budgets its table stars.

  $ pdfinfo beyond.pdf | grep '^Title:'
  Title:           Best loss against loops under the budget: 10^22 FLOPs, 3 GB at 4 bits
  $ pdfinfo beyond.pdf | grep -c '1022'
  0
  [1]
  $ loopscale frontier --flops 1e20:1e23:7 --plot frontier.pdf 2> /dev/null | grep -c '[0-9]\*'
  7
  $ pdftotext frontier.pdf - | grep -o 'hollow, starred in the table: outside the fitted ranges (.*): extrapolated'
  hollow, starred in the table: outside the fitted ranges (Nact, D, F): extrapolated
  $ loopscale frontier --flops 1e20:1e23:7 --mem 3GB --plot frontier-solve.pdf 2> /dev/null | grep -c '[0-9]\*'
  6
  $ pdftotext frontier-solve.pdf - | grep -c 'starred in the table'
  1
  $ loopscale frontier --flops 1e21 --mem 3GB --plot frontier-one.pdf 2> /dev/null | grep -c '[0-9]\*'
  0
  [1]
  $ pdftotext frontier-one.pdf - | grep -c 'starred in the table'
  0
  [1]

No footer by default: the provenance (command line, version) and the notes
go into the file's metadata instead of the picture.

  $ pdfinfo fit.pdf | grep -E '^(Title|Keywords|Creator):'
  Title:           Observed and fitted loss against loops R: moe:bounded-sparse
  Keywords:        loopscale fit --plot fit.pdf --where 'E<=4' */data/sweeps/looped-moe.csv.gz (glob)
  Creator:         loopscale 0.1.0
  $ pdftotext fit.pdf - | grep -c 'observed runs of'
  0
  [1]
  $ grep -o '<metadata>loopscale isoflop [^<]*</metadata>' isoflop.svg
  <metadata>loopscale isoflop --law law.json --flops 1e20,1e21,1e22 --E 1,8 --R 1,4 --plot isoflop.svg</metadata>
  $ grep -c 'iTXtComment' solve.png
  1

The figure controls: size in inches or cm, text size, title or none, the
notes drawn as a caption, the print style, PNG resolution.

  $ loopscale isoflop --law law.json --flops 1e21 --plot small.pdf --plot-size 3.5x2.5 --plot-font-size 7 --plot-title 'IsoFLOP <1e21>' > /dev/null
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D): an extrapolation
  $ pdfinfo small.pdf | grep -E '^(Title|Page size):'
  Title:           IsoFLOP <1e21>
  Page size:       252 x 180 pts
  $ loopscale isoflop --law law.json --flops 1e21 --plot small.png --plot-size 8.89x6.35cm --dpi 100 > /dev/null
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D): an extrapolation
  $ head -c 24 small.png | tail -c 8 | od -An -tu1
     0   0   1  94   0   0   0 250
  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --E 1,4 --plot print.pdf --plot-no-title --plot-style print --plot-caption > /dev/null
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: chosen: D = 1.333e+12 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss: D = 1.026e+12 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 6.39e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  $ pdfinfo print.pdf | grep -c '^Title:'
  0
  [1]
  $ pdftotext print.pdf - | grep -c 'Best loss against loops'
  0
  [1]
  $ pdftotext print.pdf - | grep -o 'Each point: the N'
  Each point: the N
  $ loopscale fit --plot tiny.pdf --plot-size 1x1 --plot-font-size 20 --where 'E<=4' "$SWEEP" > /dev/null
  loopscale fit: a figure of 1 x 1 in leaves no room for a panel at 20 pt text
  Try 'loopscale fit --help'.
  [64]

A paper column (3.5 x 2.5 in at the default 9 pt text) is drawn by every
plot: the legend flows under the panel with brief labels, ticks thin, a
y label longer than its panel takes two lines, and the fit and holdout
plots, whose grids of panels cannot fit, draw their compact view. A size
with no room even for one panel is refused before any work or output.

  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --bits 4 --E 1,2,4 --plot col-solve.pdf --plot-rho col-rho.pdf --plot-size 3.5x2.5 > /dev/null 2>&1
  $ loopscale isoflop --law law.json --flops 1e21,1e22 --plot col-iso.pdf --plot-size 3.5x2.5 > /dev/null 2>&1
  $ loopscale fit --plot col-fit.pdf --plot-size 3.5x2.5 --where 'E<=4' "$SWEEP" > /dev/null
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: delta = -0.123 is poorly determined: its 95% interval from its standard error [-0.435, 0.19] is 0.62 wide, more than 0.5
  loopscale fit: warning: omega = 0.00402 is poorly determined: its 95% interval from its standard error [-1.33, 1.34] is 2.7 wide, more than 0.5
  $ loopscale holdout --laws moe:bounded,moe:bounded-sparse --axes R,E --plot col-holdout.pdf --plot-size 3.5x2.5 "$SWEEP" > /dev/null
  $ for p in solve rho iso fit holdout; do is col-$p.pdf && pdfinfo col-$p.pdf | grep 'Page size'; done
  col-solve.pdf is pdf
  Page size:       252 x 180 pts
  col-rho.pdf is pdf
  Page size:       252 x 180 pts
  col-iso.pdf is pdf
  Page size:       252 x 180 pts
  col-fit.pdf is pdf
  Page size:       252 x 180 pts
  col-holdout.pdf is pdf
  Page size:       252 x 180 pts
  $ pdftotext col-solve.pdf - | grep -E '^(out of reach|95% band|lowest \+ |no memory limit)' | sort
  lowest + \xce\xb5 (esc)
  no memory limit
  out of reach
  $ pdftotext col-fit.pdf - | grep -c 'Observed against fitted loss'
  1
  $ pdftotext -layout col-solve.pdf - | grep -c '\xe2\x80\xa6'
  0
  [1]
  $ loopscale solve --law law.json --flops 1e22 --plot tiny.pdf --plot-size 1.2x1
  loopscale solve: a figure of 1.2 x 1 in leaves no room for a panel at 9 pt text
  Try 'loopscale solve --help'.
  [64]
  $ ls tiny.pdf
  ls: cannot access 'tiny.pdf': No such file or directory
  [2]

A file name with any other extension is refused before any work, and a
file already there is left as it was.

  $ echo precious > fig.jpg
  $ loopscale fit --plot fig.jpg --where 'E<=4' "$SWEEP"
  loopscale fit: --plot: 'fig.jpg': the file name must end in .svg, .pdf or .png
  Try 'loopscale fit --help'.
  [64]
  $ cat fig.jpg
  precious
  $ cp rho.svg before.svg
  $ loopscale solve --law law.json --flops 1e22 --plot rho.svg --plot-rho rho.eps
  loopscale solve: --plot-rho: 'rho.eps': the file name must end in .svg, .pdf or .png
  Try 'loopscale solve --help'.
  [64]
  $ cmp rho.svg before.svg
  $ loopscale isoflop --law law.json --flops 1e21 --plot iso
  loopscale isoflop: --plot: 'iso': the file name must end in .svg, .pdf or .png
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale holdout --plot holdout.SVG.txt "$SWEEP"
  loopscale holdout: --plot: 'holdout.SVG.txt': the file name must end in .svg, .pdf or .png
  Try 'loopscale holdout --help'.
  [64]

A device has no extension to go by and gets SVG.

  $ loopscale isoflop --law law.json --flops 1e21 --plot /dev/stdout | grep -c '^<svg'
  loopscale isoflop: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale isoflop: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: warning: some minima lie outside the ranges the law was fitted on (N_act, D): an extrapolation
  1

A failed run writes no plot and leaves an existing one as it was.

  $ printf 'n_act,tokens,loss\n1e8,x,2.5\n' > bad.csv
  $ loopscale fit --plot new.pdf bad.csv
  loopscale fit: bad.csv:2: column 'tokens': 'x' is not a number
  [65]
  $ ls new.pdf
  ls: cannot access 'new.pdf': No such file or directory
  [2]
  $ cp solve.png before.png
  $ loopscale solve --law law.json --flops 1e22 --mem 1kB --plot solve.png
  loopscale solve: warning: law\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale solve: warning: law\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale solve: no candidate fits in 1000 bytes at 16 bits per weight
  [65]
  $ cmp solve.png before.png
  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --E 1,2,4 --plot /nonexistent/dir/solve.pdf > /dev/null
  loopscale solve: /nonexistent/dir/solve.pdf: cannot create: No such file or directory
  [73]
  $ ls *.tmp* 2>/dev/null
  [2]

One loop count and one expert count (a dense law) still make a readable
plot: the loss axis is padded around the one answer and reaches the
epsilon line, with distinct ticks, and the x axis is ticked at R = 1 only.

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > chinchilla.json
  $ loopscale solve --law chinchilla.json --flops 1e22 --E 1 --R 1 --eps 0.02 --plot one.pdf > /dev/null
  loopscale solve: chinchilla.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: no --mem given: no memory limit
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  $ is one.pdf
  one.pdf is pdf
  $ pdftotext one.pdf - | grep -E '^[0-9.]+$' | tr '\n' ' '
  2.160 2.155 2.150 2.145 2.140 1  (no-eol)

IsoFLOP lines inside the fitted ranges are three times as thick as those
outside (1.8 against 0.6 pt), and the legend says what the frontier's
dashes mean.

  $ grep -o 'stroke-width:\(1.8\|0.6\)' isoflop.svg | sort -u
  stroke-width:0.6
  stroke-width:1.8
  $ pdftotext isoflop.pdf - | grep -o 'compute-optimal frontier.*'
  compute-optimal frontier of each (E, R) as F varies, in its dash

The fit plot of the shipped sweep (seven expert counts) has a row of
panels for each E, titled by that E alone: no overlapping ranges.

  $ loopscale fit --plot fit7.pdf "$SWEEP" > /dev/null
  loopscale fit: a column the law does not read: k
  $ pdftotext fit7.pdf - | grep -o '^E = [0-9\xe2\x80\x93]*,' | sort -u | tr '\n' ' '
  E = 1, E = 16, E = 2, E = 32, E = 4, E = 64, E = 8,  (no-eol)


A figure of a large sweep draws some of its runs, and says which: beyond
2,000 runs, every k-th in the sweep's order and the 50 farthest from the
law (from each law's prediction in the holdout figure); the RMSEs stay
over every run.  The note is printed, and is in the figure's description:

  $ N=$(seq -s, 100 20 1080 | sed 's/,/e6,/g; s/$/e6/'); D=$(seq -s, 10 4 206 | sed 's/,/e9,/g; s/$/e9/')
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act $N --tokens $D --noise 0.002 -o big.csv
  $ wc -l < big.csv
  2501
  $ loopscale fit --law dense --starts 2 --plot big.svg big.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: --plot: every 2nd of the 2500 runs in the sweep's order is drawn, and the 50 farthest from the law; the RMSEs are over every run
  $ grep -c 'Every 2nd of the 2500 runs' big.svg
  1
  $ loopscale holdout --laws dense --axes N --starts 2 --plot hbig.svg big.csv 2>&1 >/dev/null | grep plot
  loopscale holdout: --plot: every 2nd of the 2500 runs in the sweep's order is drawn, and the 50 farthest from each law's prediction; the RMSEs are over every run
  $ loopscale report --laws dense --axes N --starts 2 -o big.html big.csv 2>/dev/null
  $ grep -o 'Every 2nd of the 2500 runs[^<]*' big.html
  Every 2nd of the 2500 runs in the sweep's order is drawn, and the 50 farthest from the law; the RMSEs are over every run.
  Every 2nd of the 2500 runs in the sweep's order is drawn, and the 50 farthest from each law's prediction; the RMSEs are over every run.
