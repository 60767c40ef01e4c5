isofit --plot draws Chinchilla's figure 3 (Hoffmann et al. 2022, "Training
Compute-Optimal Large Language Models"): each budget's runs against N_act
with approach 2's parabola and its optimum, then N_opt and D_opt against F
with the power laws.  The runs: the shipped truth drawn without noise on a
grid of sizes and tokens a factor 2 apart (docs/fitting.md), 13 budgets of
which 8 have an interior optimum.

  $ is() {
  >   test -s "$1" || { echo "$1 is empty"; return 1; }
  >   case "$1" in
  >   *.svg) xmllint --noout "$1" && rsvg-convert -o "$1.check.png" "$1" 2> warn && test ! -s warn && test -s "$1.check.png" ;;
  >   *.pdf) pdftoppm -r 20 -png -singlefile "$1" "$1.check" 2> warn && test ! -s warn && test -s "$1.check.png" ;;
  >   *.png) test "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ;;
  >   esac && echo "$1 is ${1##*.}"
  > }
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 2.5e7,5e7,1e8,2e8,4e8,8e8,1.6e9 --tokens 2.5e9,5e9,1e10,2e10,4e10,8e10,1.6e11 -o runs.csv
  $ for f in svg pdf png; do loopscale isofit --plot iso.$f runs.csv > /dev/null && is iso.$f; done
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  iso.svg is svg
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  iso.pdf is pdf
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  iso.png is png

The table is printed as without --plot:

  $ loopscale isofit runs.csv > plain.txt
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  $ loopscale isofit --plot again.svg runs.csv | cmp - plain.txt
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it

One legend entry per budget that has an optimum or a parabola, the one at
the edge saying so; the budgets of too few runs share one entry and the
notes list their FLOPs, as many as the table leaves out for that reason:

  $ pdftotext iso.pdf - | grep '^F = .*: \|budgets: '
  F = 3.84×1020 : optimum at the edge
  4 budgets: too few runs
  $ pdftotext iso.pdf - | grep -c '^F = '
  9
  $ grep -c 'too few runs' plain.txt
  4
  $ grep -o 'Too few runs[^(]*([^)]*) at F = [^A-Z]*' iso.svg | sed 's/\xc3\x97/x/g'
  Too few runs (a budget needs 3 runs at 3 or more sizes) at F = 3.75x10^17, 7.5x10^17, 7.68x10^20, 1.54x10^21. 

In the SVG, one solid parabola per budget used, each in its own colour,
one dashed grey parabola for the budget whose vertex is at the edge (the
budgets of fewer than 3 runs get none), and a filled black star at each
optimum used and the legend's; none for the budget at the edge, whose
vertex may lie far outside its sizes: as many as the JSON counts.

  $ loopscale isofit --format json runs.csv | python3 -c "import json,sys; r=json.load(sys.stdin); print(r['budgets_used'], sum(b['status'] == 'optimum at the edge' for b in r['budgets']))"
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  8 1
  $ cat > count.py <<'PY'
  > import re, sys, xml.etree.ElementTree as ET
  > paths = [p for p in ET.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}path') if p.get('style')]
  > def style(p): return dict(kv.split(':', 1) for kv in p.get('style').split(';') if ':' in kv)
  > solid = {style(p)['stroke'] for p in paths if style(p).get('stroke-width') == '1' and style(p).get('fill') == 'none' and 'stroke-dasharray' not in style(p)}
  > dashed = [p for p in paths if style(p).get('stroke-width') == '0.7' and style(p).get('fill') == 'none' and 'stroke-dasharray' in style(p)]
  > star = lambda p: len(re.findall(r'L ', p.get('d', ''))) == 9  # ten points
  > filled = [p for p in paths if star(p) and style(p).get('fill') == 'rgb(0%,0%,0%)']
  > hollow = [p for p in paths if star(p) and style(p).get('fill') == 'rgb(100%,100%,100%)']
  > print(len(solid), 'parabolas,', len(dashed), 'dashed,', len(filled), 'filled stars,', len(hollow), 'hollow')
  > PY
  $ python3 count.py iso.svg
  8 parabolas, 1 dashed, 9 filled stars, 0 hollow

Approach 1 fits no parabola: stars only, and its legend's budget entries
are markers with no line (no coloured line is drawn anywhere); each star
sits on its budget's lowest run in that budget's colour, so that it stays
attributable: one star per colour of the budgets used, and one black (the
legend's).

  $ loopscale isofit --method minimum --plot min.svg runs.csv > /dev/null
  loopscale isofit: warning: budget F = 1.5e+18: its optimum lies at or above its largest size (N_act = 1e+08), so the budget is left out of the power law; larger models would place it
  loopscale isofit: warning: budget F = 1.92e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  $ python3 count.py min.svg | cut -d, -f1
  0 parabolas
  $ loopscale isofit --method minimum --format json runs.csv | python3 -c "import json,sys; print(json.load(sys.stdin)['budgets_used'], 'used')"
  loopscale isofit: warning: budget F = 1.5e+18: its optimum lies at or above its largest size (N_act = 1e+08), so the budget is left out of the power law; larger models would place it
  loopscale isofit: warning: budget F = 1.92e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  6 used
  $ python3 -c "
  > import re, xml.etree.ElementTree as ET
  > paths = [p for p in ET.parse('min.svg').iter('{http://www.w3.org/2000/svg}path') if p.get('style')]
  > style = lambda p: dict(kv.split(':', 1) for kv in p.get('style').split(';') if ':' in kv)
  > plain = ('rgb(0%,0%,0%)', 'rgb(54.117647%,54.117647%,54.117647%)', 'rgb(100%,100%,100%)', 'rgb(72.941176%,72.941176%,72.941176%)', 'rgb(91%,91%,91%)')
  > lines = [p for p in paths if style(p).get('fill') == 'none' and style(p).get('stroke') not in plain and style(p).get('stroke-width') != '0.7']  # 0.7: markers' outlines
  > stars = [style(p).get('fill') for p in paths if len(re.findall(r'L ', p.get('d', ''))) == 9]
  > print(len(lines), 'coloured lines,', len(set(s for s in stars if s not in (plain[0], None))), 'star colours,', stars.count(plain[0]), 'black')"
  0 coloured lines, 6 star colours, 1 black

With --keep the runs the filter sets aside in each budget used are hollow
circles in its colour: as many as the JSON's runs less used.

  $ loopscale isofit --keep 4.5 --plot keep.svg runs.csv > /dev/null
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  $ loopscale isofit --keep 4.5 --format json runs.csv | python3 -c "import json,sys; print(sum(b['runs'] - b['used'] for b in json.load(sys.stdin)['budgets'] if b['status'] == 'used'))"
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  10
  $ python3 -c "
  > import sys, xml.etree.ElementTree as ET
  > paths = [p for p in ET.parse('keep.svg').iter('{http://www.w3.org/2000/svg}path') if p.get('style')]
  > style = lambda p: dict(kv.split(':', 1) for kv in p.get('style').split(';') if ':' in kv)
  > grey = 'rgb(54.117647%,54.117647%,54.117647%)'
  > print(sum(style(p).get('fill') == 'rgb(100%,100%,100%)' and style(p).get('stroke') not in (grey, None) and ' C ' in p.get('d', '') for p in paths))"
  10

The legend states the power laws the table prints, and the title the
exponent with its bootstrap interval:

  $ loopscale isofit --bootstrap 50 --plot boot.pdf runs.csv | sed -n 4,6p
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  N_opt      0.04554 F^0.5135 (R^2 1.0000)
  D_opt      3.659 F^0.4865
  a          in [0.5129, 0.5141] (95%, least squares over 8 budgets)
  $ pdftotext boot.pdf - | grep '^[ND]opt\( =\|:\)'
  Nopt = 0.04554 F 0.5135
  Dopt = F / (6 Nopt) = 3.659 F 0.4865
  Nopt: 95% interval (50 draws)

The exponent is the least-squares slope of ln N_opt on ln F over the
budgets used, computed here from the JSON's budgets:

  $ loopscale isofit --format json runs.csv | python3 -c "
  > import json, math, sys
  > b = [x for x in json.load(sys.stdin)['budgets'] if x['status'] == 'used']
  > f = [math.log(x['flops']) for x in b]; n = [math.log(x['n_opt']) for x in b]
  > mf, mn = sum(f) / len(f), sum(n) / len(n)
  > a = sum((u - mf) * (v - mn) for u, v in zip(f, n)) / sum((u - mf) ** 2 for u in f)
  > print('%.4g F %.4f' % (math.exp(mn - a * mf), a))"
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  0.04554 F 0.5135

  $ a=$(loopscale isofit --bootstrap 50 runs.csv | grep 'draws)' | grep -o '\[.*\]')
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  $ pdftotext boot.pdf - | grep -c -F "a in $a (95%)"
  1

The shared figure options apply; without --plot they are refused:

  $ loopscale isofit --plot print.pdf --plot-style print --plot-size 16x9cm --plot-title 'IsoFLOP' --plot-caption runs.csv > /dev/null
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  $ pdfinfo print.pdf | grep -o 'Title: *IsoFLOP$\|Page size:.*'
  Title:           IsoFLOP
  Page size:       453.543 x 255.118 pts
  $ pdftotext print.pdf - | grep -c 'Each optimum (star) is the vertex'
  1
  $ loopscale isofit --plot-size 6x4 runs.csv
  loopscale isofit: --plot-size has no effect without --plot
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --plot iso2.svg --dpi 300 runs.csv
  loopscale isofit: --dpi has no effect without a .png --plot
  Try 'loopscale isofit --help'.
  [64]

A bad name, or a run that fails, writes nothing and leaves an existing
plot as it was; the plot never replaces the runs:

  $ loopscale isofit --plot iso.eps runs.csv
  loopscale isofit: --plot: 'iso.eps': the file name must end in .svg, .pdf or .png
  Try 'loopscale isofit --help'.
  [64]
  $ cp iso.svg before.svg
  $ loopscale isofit --min-runs 8 --plot iso.svg runs.csv
  loopscale isofit: runs.csv: 0 of 13 budgets have an interior optimum; the power law needs two (a budget needs 8 runs at 3 or more sizes, with the lowest loss inside them); left out: 13 too few runs
  [65]
  $ cmp iso.svg before.svg
  $ loopscale isofit --plot runs.csv runs.csv
  loopscale isofit: --plot runs.csv would replace the input SWEEP runs.csv
  Try 'loopscale isofit --help'.
  [64]
  $ head -1 runs.csv
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss

Sweeps made here: at each budget F the runs at N = N_opt 2^k, N_opt =
0.05 F^0.5, D = F / (6 N), with loss 2 + 0.3 k^2 (a parabola in ln N).

  $ cat > sweeps.py <<'PY'
  > import sys
  > kind, count = sys.argv[1], int(sys.argv[2])
  > print("n_act,tokens,loss")
  > def budget(f, ks, loss=lambda k: 2 + 0.3 * k * k):
  >     for k in ks:
  >         n = 0.05 * f ** 0.5 * 2.0 ** k
  >         print("%.9g,%.9g,%.9g" % (n, f / (6 * n), loss(k)))
  > for b in range(count):  # budgets from 1e18 to 1e22
  >     budget(1e18 * 10 ** (4 * b / (count - 1)), range(-5, 6) if kind == "keep" else range(-3, 4))
  > if kind == "single":  # as many budgets of one run each
  >     for b in range(count):
  >         budget(2e18 * 10 ** (4 * b / (count - 1)), [0])
  > if kind == "edge":  # a budget whose losses fall almost straight: its vertex far beyond its sizes
  >     budget(3e20, [-1, 0, 1], lambda k: 3 - 0.1 * k + 1e-4 * k * k)
  > PY

Hundreds of budgets: the legend names the first 12 and one entry stands
for the rest, whose FLOPs the notes list (cut with "... and N more" when
long), so the figure keeps its size; 1500 budgets draw, and a small
--plot-size has room:

  $ python3 sweeps.py grid 300 > b300.csv && python3 sweeps.py grid 1500 > b1500.csv
  $ loopscale isofit --plot b300.pdf b300.csv > /dev/null && pdftotext b300.pdf - | grep -c '^F = '
  12
  $ pdftotext b300.pdf - | grep 'more budgets'
  … and 288 more budgets
  $ loopscale isofit --plot b300.png b300.csv > /dev/null && file b300.png | grep -o '[0-9]* x [0-9]*'
  1479 x 495
  $ loopscale isofit --plot b1500.png b1500.csv > /dev/null && file b1500.png | grep -o '[0-9]* x [0-9]*'
  1479 x 495
  $ loopscale isofit --plot small.svg --plot-size 6x4 b300.csv > /dev/null && is small.svg
  small.svg is svg
  $ loopscale isofit --plot b1500.svg b1500.csv > /dev/null
  $ grep -o 'Budgets not named in the legend ([0-9]*): F = [^A-Z]*' b1500.svg | python3 -c "
  > import re, sys
  > t = sys.stdin.read(); total = int(re.search(r'\((\d+)\)', t).group(1))
  > listed = t.split('F = ', 1)[1].split(' … ')[0].count(', ') + 1; more = int(re.search(r'and (\d+) more', t).group(1))
  > print(total, 'budgets:', listed, 'listed +', more, 'more =', listed + more)"
  1488 budgets: 43 listed + 1445 more = 1488

The list of budgets of too few runs ends the same way, its count and the
table's agreeing:

  $ python3 sweeps.py single 200 > single.csv
  $ loopscale isofit --format json single.csv | python3 -c "import json,sys; print(sum(b['status'] == 'too few runs' for b in json.load(sys.stdin)['budgets']))"
  200
  $ loopscale isofit --plot single.svg single.csv > /dev/null
  $ grep -o 'Too few runs[^(]*([^)]*) at F = [^A-Z]*' single.svg | python3 -c "
  > import re, sys
  > t = sys.stdin.read(); listed = t.split('F = ', 1)[1].split(' … ')[0].count(', ') + 1
  > more = int(re.search(r'and (\d+) more', t).group(1)); print(listed, 'listed +', more, 'more =', listed + more)"
  43 listed + 157 more = 200

With --keep the loss axis is that of the runs fitted and their parabolas:
the runs set aside (here k = -5..-2 and 2..5, losses 3.2 to 9.5, against
2 to 2.3 fitted) would squash the parabolas into the panel's foot.  They
are clipped at its top, and the notes count them, as many as the JSON's
runs less used:

  $ python3 sweeps.py keep 4 > keep.csv
  $ loopscale isofit --keep 2.5 --format json keep.csv | python3 -c "import json,sys; print(sum(b['runs'] - b['used'] for b in json.load(sys.stdin)['budgets']))"
  32
  $ loopscale isofit --keep 2.5 --plot keep.pdf --plot-caption keep.csv > /dev/null
  $ pdftotext keep.pdf - | tr '\n' ' ' | grep -o '[0-9]* runs set aside by --keep lie above the panel'
  32 runs set aside by --keep lie above the panel
  $ pdftotext -bbox keep.pdf - | python3 -c "
  > import re, sys
  > ticks = [float(w) for x, w in re.findall(r'<word xMin=\"([\d.]+)\"[^>]*>(\d\.\d+)</word>', sys.stdin.read()) if float(x) < 60]
  > print('loss axis from', min(ticks), 'to', max(ticks))"
  loss axis from 2.0 to 2.3

A budget at the edge gets no star and reports no optimum, and its dashed
parabola only spans its sizes: its vertex (here N = 3e159) stretches no
axis, the largest power of ten on the page being F's 10^22:

  $ python3 sweeps.py edge 4 > edge.csv
  $ loopscale isofit --format json edge.csv | python3 -c "import json,sys; print([(b['status'], 'n_opt' in b) for b in json.load(sys.stdin)['budgets'] if b['status'] != 'used'])"
  loopscale isofit: warning: budget F = 3e+20: its optimum lies at or above its largest size (N_act = 1.732e+09), so the budget is left out of the power law; larger models would place it
  [('optimum at the edge', False)]
  $ loopscale isofit --plot edge.pdf edge.csv > /dev/null && pdftotext -bbox edge.pdf - | python3 -c "
  > import re, sys
  > print('largest exponent', max(int(w) for w in re.findall(r'>(\d+)</word>', sys.stdin.read())))"
  loopscale isofit: warning: budget F = 3e+20: its optimum lies at or above its largest size (N_act = 1.732e+09), so the budget is left out of the power law; larger models would place it
  largest exponent 22

IsoFLOP budgets a third of a decade apart: the right panel's F axis spans
less than a decade, and its tick labels stay apart (tests/cli/overlap.py:
every word's box against every other's):

  $ python3 -c "
  > print('n_act,tokens,loss')
  > for f in (1e20, 1.3e20):
  >     for k in (-1, 0, 1):
  >         n = 0.05 * f ** 0.5 * 2.0 ** k; print('%.9g,%.9g,%.9g' % (n, f / (6 * n), 2 + 0.3 * k * k))" > near.csv
  $ loopscale isofit --plot near.pdf near.csv > /dev/null && pdftotext -bbox near.pdf - | python3 "$ROOT/tests/cli/overlap.py"
  loopscale isofit: warning: the power law rests on two budgets: a line through two points has no error to judge it by (no R^2, no least-squares interval)
  0 overlapping words
