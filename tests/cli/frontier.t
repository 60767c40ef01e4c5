The frontier of the chosen architecture: with --mem, --bits, --template,
--R, --E or --eps, frontier runs 'loopscale solve' at each budget.  Under
the default law (moe:bounded-sparse fitted on the shipped sweep), 3 GB of
INT4 weights:

  $ loopscale frontier --flops 1e20:1e24:5 --mem 3GB --bits 4 --E 1,2,4,8,16
  loopscale frontier: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale frontier: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale frontier: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale frontier: warning: 4 of 5 budgets choose a configuration outside the ranges the law was fitted on: an extrapolation
  loopscale frontier: warning: 3 of 5 budgets choose a configuration at an end of the search range, not an optimum (at 1e+20 FLOPs: E = 16, the largest searched; a value beyond may be better: widen --E)
  law        moe:bounded-sparse (the configuration 'loopscale solve' chooses at each budget)
  memory     3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  epsilon    0.004412 (loss units)
  
  flops  R*  E*  N_act        N_total  D           D/N_act    loss  bound    dlnN_act/dlnF
  1e+20   1  16  4.117e+08  4.528e+09  4.049e+10*    98.35  2.3754  compute         0.1222
  1e+21   2  16  5.455e+08      6e+09  1.746e+11     320.1  2.1971  memory          0.0611
  1e+22   3  16  5.455e+08      6e+09  1.222e+12*     2241  2.0982  memory          0.2821
  1e+23   3   4  2e+09*         6e+09  3.333e+12*     1667  2.0442  memory          0.4098
  1e+24   3   2  3.6e+09*       6e+09  1.852e+13*     5144  2.0129  memory          0.2553
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09, D 1e+11 to 5e+11, F 6e+19 to 3.675e+22

Each row is the configuration solve chooses at that budget with the same
options: R*, E*, N_act, N_total, D and the loss of solve's "chosen", to the
digits both print, and d ln N_act / d ln F recomputed from the rows'
neighbours here:

  $ cat > same.py <<'PY'
  > import csv, json, math, subprocess, sys
  > opts = sys.argv[1:]
  > rows = list(csv.DictReader(sys.stdin))
  > keys = [("R", "R"), ("E", "E"), ("n_opt", "n_act"), ("n_total", "n_total"), ("d_opt", "tokens"), ("loss", "loss")]
  > for i, row in enumerate(rows):
  >     out = subprocess.run(["loopscale", "solve", "--flops", row["flops"], "--format", "json"] + opts,
  >                          capture_output=True, text=True, check=True).stdout
  >     chosen = json.loads(out)["chosen"]
  >     same = all("%.10g" % float(row[k]) == "%.10g" % chosen[s] for k, s in keys)
  >     lo, hi = max(i - 1, 0), min(i + 1, len(rows) - 1)
  >     slope = (math.log(float(rows[hi]["n_opt"])) - math.log(float(rows[lo]["n_opt"]))) / \
  >             (math.log(float(rows[hi]["flops"])) - math.log(float(rows[lo]["flops"])))
  >     ratio = float(row["d_opt"]) / float(row["n_opt"]) / float(row["tokens_per_param"])
  >     print("%.4g R=%s E=%s %s, slope %s, D/N_act %s" % (float(row["flops"]), row["R"], row["E"],
  >           "as solve" if same else "NOT as solve: %s %s" % (row, chosen),
  >           "agrees" if abs(slope - float(row["exponent_n"])) < 1e-12 else "differs",
  >           "agrees" if abs(ratio - 1) < 1e-12 else "differs"))
  > PY
  $ loopscale frontier --flops 1e20:1e24:5 --mem 3GB --bits 4 --E 1,2,4,8,16 --format csv 2>/dev/null | python3 same.py --mem 3GB --bits 4 --E 1,2,4,8,16
  1e+20 R=1 E=16 as solve, slope agrees, D/N_act agrees
  1e+21 R=2 E=16 as solve, slope agrees, D/N_act agrees
  1e+22 R=3 E=16 as solve, slope agrees, D/N_act agrees
  1e+23 R=3 E=4 as solve, slope agrees, D/N_act agrees
  1e+24 R=3 E=2 as solve, slope agrees, D/N_act agrees

The same with the default candidates, no memory limit, a looser epsilon and
a single budget (no neighbours: no slope, an empty field):

  $ loopscale frontier --flops 3e21 --eps 0.01 --format csv 2>/dev/null | cut -d, -f6-
  R,E,n_total,bound,exponent_n
  1,64,70776519729.6385,compute,
  $ loopscale frontier --flops 3e21,3e22 --eps 0.01 --format csv 2>/dev/null | python3 same.py --eps 0.01
  3e+21 R=1 E=64 as solve, slope agrees, D/N_act agrees
  3e+22 R=1 E=64 as solve, slope agrees, D/N_act agrees

Where memory binds, the bound says so and the weights fit: N_total b_w / 8
<= M (here with equality, the memory cap), checked on every memory-bound row:

  $ loopscale frontier --flops 1e20:1e24:9 --mem 3GB --bits 4 --E 1,2,4,8,16 --format csv 2>/dev/null | python3 -c '
  > import csv, sys
  > for r in csv.DictReader(sys.stdin):
  >     if r["bound"] == "memory":
  >         b = float(r["n_total"]) * 4 / 8
  >         print("%.4g memory-bound, weights %.6g bytes %s 3e9" % (float(r["flops"]), b, "<=" if b <= 3e9 * (1 + 1e-12) else ">"))'
  3.162e+20 memory-bound, weights 3e+09 bytes <= 3e9
  1e+21 memory-bound, weights 3e+09 bytes <= 3e9
  3.162e+21 memory-bound, weights 3e+09 bytes <= 3e9
  1e+22 memory-bound, weights 3e+09 bytes <= 3e9
  3.162e+22 memory-bound, weights 3e+09 bytes <= 3e9
  1e+23 memory-bound, weights 3e+09 bytes <= 3e9
  3.162e+23 memory-bound, weights 3e+09 bytes <= 3e9
  1e+24 memory-bound, weights 3e+09 bytes <= 3e9

With no memory limit and only R = 1, E = 1, the chosen architecture is the
plain model, and the numerical optimum agrees with the closed-form
frontier to 1e-6 relative: N_opt, D_opt, the loss, D/N, and each local
exponent against the closed form's a:

  $ loopscale frontier --flops 1e19:1e25:7 --format json 2>/dev/null > closed.json
  $ loopscale frontier --flops 1e19:1e25:7 --R 1 --E 1 --format json 2>/dev/null > solved.json
  $ python3 -c '
  > import json
  > c, s = json.load(open("closed.json")), json.load(open("solved.json"))
  > worst = 0
  > for p, q in zip(c["frontier"], s["frontier"]):
  >     assert (q["R"], q["E"], q["bound"]) == (1, 1, "compute"), q
  >     for k in ("flops", "n_opt", "d_opt", "tokens_per_param", "loss"):
  >         worst = max(worst, abs(q[k] / p[k] - 1))
  >     worst = max(worst, abs(q["exponent_n"] / c["exponent_n"] - 1))
  > print("%d budgets: " % len(c["frontier"]) + ("agree to 1e-6" if worst < 1e-6 else "differ by %g" % worst))'
  7 budgets: agree to 1e-6

JSON keeps the closed form's field names (n_opt is N_act, d_opt is D) and
adds R, E, n_total, bound and exponent_n, and the budget's mem_bytes, bits
and eps:

  $ loopscale frontier --flops 1e21,1e22 --mem 3GB --bits 4 --E 1,2,4,8,16 --format json 2>/dev/null | python3 $ROOT/tests/cli/round.py
  {
    "format": "loopscale-frontier/1",
    "law": "moe:bounded-sparse",
    "mem_bytes": 3000000000,
    "bits": 4,
    "eps": 0.00441191,
    "frontier": [
      {
        "flops": 1e+21,
        "n_opt": 5.45455e+08,
        "d_opt": 1.74603e+11,
        "tokens_per_param": 320.106,
        "loss": 2.19706,
        "R": 2,
        "E": 16,
        "n_total": 6000000000,
        "bound": "memory",
        "exponent_n": 0,
        "outside": []
      },
      {
        "flops": 1e+22,
        "n_opt": 5.45455e+08,
        "d_opt": 1.22222e+12,
        "tokens_per_param": 2240.74,
        "loss": 2.09818,
        "R": 3,
        "E": 16,
        "n_total": 6000000000,
        "bound": "memory",
        "exponent_n": 0,
        "outside": ["D"]
      }
    ]
  }

A template routing to top_k experts leaves E below top_k out of the default
list, as solve does:

  $ printf '{"top_k": 2}\n' > top2.json
  $ loopscale frontier --flops 1e21 --template top2.json --format csv | cut -d, -f6,7
  loopscale frontier: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale frontier: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale frontier: warning: top2.json is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); the law predicts the loss of models like its runs, and the answers count parameters as top2.json does
  loopscale frontier: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  loopscale frontier: warning: 1 of 1 budget chooses a configuration at an end of the search range, not an optimum (at 1e+21 FLOPs: E = 64, the largest searched and fitted; a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  R,E
  1,64

The plot: N_act and D, and R* and E*, against F:

  $ loopscale frontier --flops 1e20:1e23:4 --mem 3GB --bits 4 --plot arch.svg 2>/dev/null > /dev/null && grep -c '<svg' arch.svg
  1

Budgets are reported in increasing F whatever the order given (the local
exponent is taken between neighbours), a range's decades are exact (a range too fine to tell its budgets
apart is refused: errors-laws.t):

  $ loopscale frontier --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e22,1e20,1e21 --format csv | cut -d, -f1
  flops
  1e+20
  1e+21
  1e+22
  $ loopscale frontier --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e18:1e24:7 --format csv | cut -d, -f1
  flops
  1e+18
  1e+19
  1e+20
  1e+21
  1e+22
  1e+23
  1e+24

Tick labels never overlap: a log axis over less than a decade (one budget,
F from 5.6e19 to 1.8e20) labels 10^20 and as many other ticks as keep a
gap between them, not 6, 7, 8, 9 x 10^19 on top of each other.  Every
word's box on the page, from pdftotext, against every other's (tests/cli/overlap.py):

  $ loopscale frontier --flops 1e20 --plot one.pdf 2>/dev/null > /dev/null && pdftotext -bbox one.pdf - | python3 "$ROOT/tests/cli/overlap.py"
  0 overlapping words

R* and E* are whole numbers: drawn as steps (each segment of their lines
level or upright, none sloped), with a tick labelled at each value taken,
the distinct R and E of the table's rows:

  $ loopscale frontier --flops 1e20:1e24:9 --mem 3GB --bits 4 --E 1,2,4,8,16 --plot steps.svg --format csv 2>/dev/null | python3 -c "
  > import csv, sys
  > rows = list(csv.DictReader(sys.stdin)); print(sorted({float(r[k]) for r in rows for k in ('R', 'E')}))"
  [1.0, 2.0, 3.0, 4.0, 8.0, 16.0]
  $ python3 -c "
  > import re, xml.etree.ElementTree as ET
  > paths = [p for p in ET.parse('steps.svg').iter('{http://www.w3.org/2000/svg}path') if p.get('style')]
  > style = lambda p: dict(kv.split(':', 1) for kv in p.get('style').split(';') if ':' in kv)
  > colours = ('rgb(0%,61.960784%,45.098039%)', 'rgb(80%,47.45098%,65.490196%)')  # palette 2 and 3: R*, E*
  > lines = [p for p in paths if style(p).get('stroke') in colours and style(p).get('fill') == 'none' and style(p).get('stroke-width') != '0.7']
  > sloped = 0
  > for p in lines:
  >     pts = [tuple(map(float, xy)) for xy in re.findall(r'([-\d.]+) ([-\d.]+)', p.get('d'))]
  >     sloped += sum(abs(a[0] - b[0]) > 1e-3 and abs(a[1] - b[1]) > 1e-3 for a, b in zip(pts, pts[1:]))
  > print(len(lines), 'lines,', sloped, 'sloped segments')"
  4 lines, 0 sloped segments
  $ loopscale frontier --flops 1e20:1e24:9 --mem 3GB --bits 4 --E 1,2,4,8,16 --plot steps.pdf 2>/dev/null > /dev/null
  $ pdftotext -bbox steps.pdf - | python3 -c "
  > import re, sys
  > ticks = [float(w) for x, w in re.findall(r'<word xMin=\"[\d.]+\" yMin=\"[\d.]+\" xMax=\"([\d.]+)\"[^>]*>(\d+)</word>', sys.stdin.read()) if 260 < float(x) < 300]
  > print(sorted(ticks))"
  [1.0, 2.0, 3.0, 4.0, 8.0, 16.0]

The figure's notes name the law, the candidates, epsilon and the memory
budget, as the table's header does; they are always in the file's
metadata, and under the panels with --plot-caption:

  $ loopscale frontier --flops 1e20:1e24:9 --mem 3GB --bits 4 --E 1,2,4,8,16 --plot notes.pdf --plot-caption 2>/dev/null | sed -n 2,3p
  memory     3e+09 bytes of weights at 4 bits (N_total <= 6e+09)
  epsilon    0.004412 (loss units)
  $ pdftotext notes.pdf - | tr '\n' ' ' | grep -o 'Law: .* best loss\.\|Memory: [^)]*)'
  Law: moe:bounded-sparse; at each budget the configuration 'loopscale solve' chooses among R = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 and E = 1, 2, 4, 8, 16: the fewest loops and experts within epsilon = 0.004412 (loss units) of the best loss.
  Memory: 3e+09 bytes of weights at 4 bits per weight (N total \xe2\x89\xa4 6e+09) (esc)
  $ grep -o '<desc>[^<]*' steps.svg | sed 's/&#39;/'"'"'/g'
  <desc>Law: moe:bounded-sparse; at each budget the configuration 'loopscale solve' chooses among R = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 and E = 1, 2, 4, 8, 16: the fewest loops and experts within epsilon = 0.004412 (loss units) of the best loss. Memory: 3e+09 bytes of weights at 4 bits per weight (N_total \xe2\x89\xa4 6e+09). (esc)
  $ loopscale frontier --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e20:1e22:3 --plot plain.svg > /dev/null && grep -o '<desc>[^<]*' plain.svg
  <desc>Law: moe:bounded-sparse, in closed form for a plain model R = 1, E = 1 with unlimited unique data; 3 budgets.

Without --mem the notes say the weights have no limit, at the bits given:

  $ loopscale frontier --flops 1e21,1e22 --eps 0.01 --bits 8 --plot free.svg 2>/dev/null > /dev/null && grep -o 'Memory: [^<]*' free.svg
  Memory: no limit on the weights (8 bits per weight).

The closed form checks its optima against the ranges the law was fitted on,
as solve does: each N_opt, D_opt and F beyond them is starred, with the
ranges in a footnote, and a warning counts the budgets in every format.
Here the law is fitted on N_act from 1e8 to 1e9 and D from 1e10 to 1e11
(F from 6e18 to 6e20):

  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > chinchilla.json
  $ loopscale simulate --law chinchilla.json --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 | loopscale fit --law dense -o ranged.json - > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  $ loopscale frontier --law ranged.json --flops 1e18,1e19,1e20,1e22
  loopscale frontier: warning: 3 of 4 budgets have an optimum outside the ranges the law was fitted on: an extrapolation
  law        dense (plain model: R = 1, E = 1, unlimited unique data)
  exponents  N_opt ~ F^0.4516, D_opt ~ F^0.5484
             a in [0.4516, 0.4516] (95%, from the standard errors)
  
  flops   N_opt       D_opt       tokens/param    loss
  1e+18*  8.058e+07*  2.068e+09*         25.67  3.5353
  1e+19   2.28e+08    7.311e+09*         32.07  2.9857
  1e+20   6.449e+08   2.585e+10          40.08  2.5998
  1e+22*  5.16e+09*   3.23e+11*          62.58  2.1386
  * outside the range the law was fitted on: N_act 1e+08 to 1e+09, D 1e+10 to 1e+11, F 6e+18 to 6e+20
  $ loopscale frontier --law ranged.json --flops 1e18,1e19,1e20,1e22 --format csv > /dev/null
  loopscale frontier: warning: 3 of 4 budgets have an optimum outside the ranges the law was fitted on: an extrapolation
  $ loopscale frontier --law ranged.json --flops 1e18,1e19,1e20,1e22 --format json 2>/dev/null | python3 -c '
  > import json, sys
  > for p in json.load(sys.stdin)["frontier"]: print("%g" % p["flops"], ",".join(p["outside"]) or "-")'
  1e+18 N_act,D,F
  1e+19 D
  1e+20 -
  1e+22 N_act,D,F

TSV has the CSV's columns; markdown the table's:

  $ loopscale frontier --law ranged.json --flops 1e19,1e20 --format csv 2>/dev/null | tr , '\t' > frontier.tsv
  $ loopscale frontier --law ranged.json --flops 1e19,1e20 --format tsv 2>/dev/null | cmp - frontier.tsv && head -1 frontier.tsv
  flops\tn_opt\td_opt\ttokens_per_param\tloss (esc)
  $ loopscale frontier --law ranged.json --flops 1e19,1e20 --format md 2>/dev/null
  law        dense (plain model: R = 1, E = 1, unlimited unique data)
  exponents  N_opt ~ F^0.4516, D_opt ~ F^0.5484
             a in [0.4516, 0.4516] (95%, from the standard errors)
  
  | flops |     N_opt | D_opt      | tokens/param |   loss |
  |------:|----------:|------------|-------------:|-------:|
  | 1e+19 |  2.28e+08 | 7.311e+09* |        32.07 | 2.9857 |
  | 1e+20 | 6.449e+08 | 2.585e+10  |        40.08 | 2.5998 |
  * outside the range the law was fitted on: D 1e+10 to 1e+11
