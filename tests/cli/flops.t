FLOP conventions (docs/flops.md): 6nd, 6nd+head, 6nd+attn, 6nd+attn+head.
Foil's Base (8, 8, 2) with per-loop attention, counted by shape:

  $ FOIL="--d-model 1024 --d-expert 1536 --top-k 2 --vocab 49152 --head-layers 1 --tail-layers 1 --head-experts 8"
  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --attention per-loop --context 4096 > shape.txt
  $ sed -n '/by convention/,$p' shape.txt
  FLOPs per token by convention (inference 2x, training 6x the forward multiply-adds; n_ctx 4096)
    convention            inference        training
    6nd                   491028480      1473085440
    6nd+head              591691776      1775075328
    6nd+attn              642023424      1926070272
    6nd+attn+head         742686720      2228060160

The same by hand, from shape's own parameter table: N_unroll is the
non-embedding count over all loops; the LM head is d V; attention scores are
Kaplan et al.'s 2 n_layer n_ctx d per token, with n_layer = 1 + 2 x 8 + 1
layers run.

  $ awk '/^non-embedding/ {u = $4} /^LM head/ {h = $5}
  >      END {a = (1 + 2 * 8 + 1) * 4096 * 1024
  >           printf "6nd %d\n6nd+head %d\n6nd+attn %d\n6nd+attn+head %d\n", 2 * u, 2 * (u + h), 2 * (u + a), 2 * (u + a + h)}' shape.txt > hand.txt
  $ cat hand.txt
  6nd 491028480
  6nd+head 591691776
  6nd+attn 642023424
  6nd+attn+head 742686720
  $ sed -n '/by convention/,$p' shape.txt | awk 'NR > 2 {print $1, $2}' | diff - hand.txt && echo same
  same

solve's inference FLOPs per token for the same configuration agree under each
convention, through a template that describes the same model (1 + 8 + 1
layers, width 1024, context 4096, vocabulary 49,152, top-2):

  $ cat > foil.json <<'EOF'
  > {"top_k": 2, "prelude_layers": 1, "loop_layers": 8, "coda_layers": 1, "context": 4096, "vocab": 49152, "d_model": 1024}
  > EOF
  $ for c in 6nd 6nd+head 6nd+attn 6nd+attn+head; do
  >   printf '%s ' $c
  >   loopscale solve --template foil.json --flops-convention $c --n-act 136396800 --R 2 --E 8 --flops 1e21 --format json 2>/dev/null |
  >     python3 -c 'import json, sys; print(round(json.load(sys.stdin)["chosen"]["inference_flops_per_token"]))'
  > done | diff - hand.txt && echo same
  same

A flops column read under each convention gives the tokens the hand count
says: a row with both columns, flops = 6 x (hand count / 2) x D for D =
2.5e10, is accepted (status 0: the reader refuses a row whose two columns
disagree by more than 1e-4), and the row with flops alone reads as 2.5e10
tokens.
The law comes from a fit under the convention, which records it, so predict
reads the sweep under it by default.

  $ cat > truth.json <<'EOF'
  > {"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
  >  "params": {"A": 482.01, "alpha": 0.3478, "B": 2085.43, "beta": 0.3658, "c": 1.817}}
  > EOF
  $ while read c per_token; do
  >   loopscale simulate --law truth.json --template foil.json --flops-convention $c --n-act 1e8,2.2e8,4.7e8 \
  >     --tokens 1e10,3.1e10,9.7e10 --E 8 --R 2 --noise 0.003 --seed 3 -o sim-$c.csv
  >   loopscale fit --law dense --template foil.json --flops-convention $c sim-$c.csv -o law-$c.json > /dev/null
  >   { echo n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  >     awk -v p=$per_token 'BEGIN {printf "136396800,453066752,109117440,2,8,2,2.5e10,%.17g,2.7\n", 3 * p * 2.5e10}'
  >   } > row-$c.csv
  >   printf '%s %s ' $c "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fit"].get("flops_convention", {}).get("name", "none"))' law-$c.json)"
  >   loopscale predict --law law-$c.json row-$c.csv > /dev/null 2>&1; printf 'both columns: %s; ' $?
  >   cut -d, -f1-6,8,9 row-$c.csv > flops-only-$c.csv
  >   loopscale predict --law law-$c.json flops-only-$c.csv 2>/dev/null | awk 'NR == 2 {print "tokens", $7}'
  > done < hand.txt
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  6nd none both columns: 0; tokens 2.5e+10
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  6nd+head 6nd+head both columns: 0; tokens 2.5e+10
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  6nd+attn 6nd+attn both columns: 0; tokens 2.5e+10
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  6nd+attn+head 6nd+attn+head both columns: 0; tokens 2.5e+10

Read under another convention, the same row is refused, naming both cells
(a 6nd law reads the 6nd+attn+head row):

  $ loopscale predict --law law-6nd.json row-6nd+attn+head.csv
  loopscale predict: warning: law-6nd\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: law-6nd.json's fit: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale predict: warning: law-6nd\.json's fit: B = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: law-6nd.json's fit: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale predict: warning: law-6nd\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: row-6nd+attn+head.csv:2: column 'flops': '5.5701504e+19' gives tokens D = F / (6 N_unroll) = 3.78128e+10, but column 'tokens' is '2.5e10' (more than 0.0001 apart, relative)
  [65]

fit says how it counted, and the law file records the convention with what
it needs; the flops range is counted under it:

  $ loopscale fit --law dense --template foil.json --flops-convention 6nd+attn sim-6nd+attn.csv | sed -n 2,3p
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       9 (sim-6nd+attn.csv)
  FLOPs      counted as 6nd+attn: D = F / (6 (N_unroll + n_layers n_ctx d))

Its compute-optimal exponent is the closed form's, which counts F as 6 N D,
and says so:

  $ loopscale fit --law dense --template foil.json --flops-convention 6nd+attn sim-6nd+attn.csv | grep -o 'F counted as .*'
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale fit: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  F counted as 6 N D, not as the sweep's FLOPs)

  $ python3 -c 'import json; f = json.load(open("law-6nd+attn.json"))["fit"]; print(json.dumps(f["flops_convention"], sort_keys=True)); print(f["ranges"]["flops"])'
  {"attention_share": 0.3333333333333333, "coda_layers": 1, "context": 4096, "d_model": 1024, "loop_layers": 8, "name": "6nd+attn", "prelude_layers": 1, "vocab": 49152}
  [1.532984832e+19, 5.36311528704e+20]

Without the option, solve, isoflop and predict use the law's convention; with
it, the option wins:

  $ loopscale solve --law law-6nd+attn.json --template foil.json --n-act 136396800 --R 2 --E 8 --flops 1e21 --format json 2>/dev/null |
  >   python3 -c 'import json, sys; print(round(json.load(sys.stdin)["chosen"]["inference_flops_per_token"]))'
  642023424
  $ loopscale solve --law law-6nd+attn.json --template foil.json --flops-convention 6nd --n-act 136396800 --R 2 --E 8 --flops 1e21 --format json 2>/dev/null |
  >   python3 -c 'import json, sys; print(round(json.load(sys.stdin)["chosen"]["inference_flops_per_token"]))'
  491028480
  $ loopscale predict --law law-6nd+attn.json --n-act 136396800 --n-total 453066752 --n-loop 109117440 --R 2 --E 8 --k 2 --flops 1e21 --format csv 2> /dev/null | cut -d, -f5,7
  tokens,inference_flops_per_token
  519191856360.2647,642023424

isoflop's minima spend the budget as the convention counts it: 6 x per-token
cost x D* = F.

  $ loopscale isoflop --law law-6nd+attn+head.json --template foil.json --flops 3e20 --E 8 --R 2 --format csv 2>/dev/null |
  >   python3 -c '
  > import csv, math, sys
  > for r in csv.DictReader(sys.stdin):
  >     if r["minimum"] != "1": continue
  >     n, D = float(r["n_act"]), float(r["tokens"])
  >     d = 1024; per = n + 0.8 * n + 18 * 4096 * d + d * 49152
  >     print(r["flops"], "%.3g" % n, abs(6 * per * D / float(r["flops"]) - 1) < 1e-9)'
  3e+20 * True (glob)

holdout and report read a sweep the same way (with --template and
--flops-convention), and report spends its budgets under the convention:

  $ loopscale holdout --laws dense --axes D sim-6nd+attn.csv
  loopscale holdout: sim-6nd+attn.csv:2: column 'flops': '1.532984832e+19' gives tokens D = F / (6 N_unroll) = 1.41943e+10, but column 'tokens' is '10000000000' (more than 0.0001 apart, relative)
  [65]

(the held-out fit on 6 runs does not converge, and its RMSE depends on where
it stops: only the in-sample columns are pinned)

  $ loopscale holdout --laws dense --axes D --template foil.json --flops-convention 6nd+attn sim-6nd+attn.csv | sed -n 3p | cut -d'|' -f2-4 | sed 's/ *$//'
   dense | 5 |    0.0085
  $ loopscale report --laws dense --axes D --template foil.json --flops-convention 6nd+attn --flops 1e20 -o r.html sim-6nd+attn.csv
  loopscale report: columns the law does not read: n_total, n_loop, R, E, k
  loopscale report: warning: A = 454 is poorly determined: its 95% interval from its standard error [0.000316, 6.52e+08] spans a factor 2.1e+12, more than 1000
  loopscale report: warning: the runs do not tell alpha = 0.346 from its lower bound 0: its 95% interval from its standard error [-0.527, 1.22] reaches past it
  loopscale report: warning: B = 301 is poorly determined: its 95% interval from its standard error [1.85e-05, 4.9e+09] spans a factor 2.7e+14, more than 1000
  loopscale report: warning: the runs do not tell beta = 0.274 from its lower bound 0: its 95% interval from its standard error [-0.541, 1.09] reaches past it
  loopscale report: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [-0.449, 1.33] is 1.8 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale report: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  loopscale report: warning: budget 1e+20 FLOPs: chosen, lowest loss, no memory limit: N_act = 9.45e+08 (fitted 1e+08 to 4.7e+08), R = 1 (fitted 2 to 2), E = 2 (fitted 8 to 8): outside the ranges the law was fitted on, an extrapolation
  loopscale report: warning: budget 1e+20 FLOPs: chosen, lowest loss, no memory limit: E = 2, the smallest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  $ grep -o 'with D = [^.]*spending' r.html
  with D = F / (6 (N_unroll + n_layers n_ctx d)) (FLOP convention 6nd+attn) spending

The errors (an unknown name, what a convention lacks) are in errors-flops.t.
