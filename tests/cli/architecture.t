The architecture travels with the law.  A sweep drawn through a template that
is not the default (looped nanochat's stack with an MoE loop block between a
dense prelude and coda), fitted, and solved with no --template, gets the
answer of the template it was drawn through; the default template, given,
answers otherwise and is warned of.

  $ T=$ROOT/data/templates
  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ sed 's/"coda_layers": 2,/"coda_layers": 2, "prelude_experts": 1, "coda_experts": 1,/' $T/looped-nanochat.json > moe-loop.json
  $ loopscale simulate --law $TRUTH --template moe-loop.json --n-act 1e8,3e8,6e8,1e9 --tokens 1e11,2e11,3e11,4e11,5e11 --E 1,2,4,8,16 --R 1,2,3,4,6,8 --noise 0.002 --seed 1 -o runs.csv
  $ loopscale fit --law moe:bounded-sparse -o law.json runs.csv > /dev/null 2>&1
  $ grep -A3 '"architecture"' law.json
    "architecture": {
      "source": "runs",
      "template": {
        "format": "loopscale-template/1",
  $ python3 -c 'import json; a = json.load(open("law.json"))["architecture"]; t = a["template"]; print(a["residual"]["n_total"] < 1e-8, a["residual"]["n_loop"] < 1e-8, round(t["routed_share"], 9), round(t["loop_share"], 6), len(a["configurations"]))'
  True True 0.326530612 0.510204 30

The shares are the template's own, counted by shape's accounting (the loop
block is 4 x 12 d^2 + the adapter's 2 d^2 of 98 d^2; the routed experts 4 x 8
d^2 of them):

  $ loopscale solve --law law.json --template moe-loop.json --print-template | grep -E '"(routed|loop)_share"'
  loopscale solve: warning: law\.json's fit: omega = \S+ is poorly determined: its 95% interval from its standard error \[\S+, \S+\] is \S+ wide, more than 0\.5 (re)
  loopscale solve: warning: law\.json's fit: E_max = \S+ is poorly determined: its 95% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than 1000 (re)
    "routed_share": 0.32653061224489793,
    "loop_share": 0.5102040816326531,
  $ python3 -c 'print(32 / 98, 50 / 98)'
  0.32653061224489793 0.5102040816326531

Solved with no template, with the template drawn through, and with the
default's:

  $ BUDGET="--flops 1e22 --mem 3GB --bits 4"
  $ loopscale solve --law law.json $BUDGET 2>/dev/null | grep -E '^(R|E|N_act) '
  R (loops)              2           3            1
  E (experts)            16          16           16
  N_act                  1.017e+09*  1.017e+09*   4.057e+09*
  $ loopscale solve --law law.json $BUDGET --template moe-loop.json 2>&1 | grep -E '^(R|E|N_act) |architecture'
  R (loops)              2           3            1
  E (experts)            16          16           16
  N_act                  1.017e+09*  1.017e+09*   4.057e+09*
  $ loopscale solve --law law.json $BUDGET --template $T/middle-cycle.json 2>&1 | grep -E '^(R|E|N_act) |architecture'
  loopscale solve: warning: */data/templates/middle-cycle.json is not the architecture of the runs law.json was fitted on (top-1, routed share 0.3265, loop share 0.5102): N_total/N_act 11 where the runs had 5.898 (at E = 16, R = 1, 86.5% apart); N_loop/N_act 0.75 where the runs had 0.5102 (47% apart); the law predicts the loss of models like its runs, and the answers count parameters as */data/templates/middle-cycle.json does (glob)
  R (loops)              3           4            1
  E (experts)            16          16           16
  N_act                  5.455e+08   5.455e+08    4.057e+09*

frontier reads the same architecture: at E = 4 the runs store
N_total = N_act (1 + 3 x 32/98).  A law that records none (a law typed in by
hand, the truth here) says so once and takes the default:

  $ loopscale frontier --law law.json --flops 1e21 --R 2 --E 4 --format csv 2>/dev/null | python3 -c 'import csv, sys; r = next(csv.DictReader(sys.stdin)); print(abs(float(r["n_total"]) / float(r["n_opt"]) - (1 + 3 * 32 / 98)) < 1e-9)'
  True
  $ loopscale isoflop --law $TRUTH --flops 1e21 --E 4 --R 2 | grep -c '^1e+21'
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  1

The default template is the shipped middle-cycle template, and the default
law records it as the architecture of the sweep it was fitted on (drawn
through it):

  $ loopscale solve -q --print-template | grep -v '"name"\|"source"' > a.json
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ loopscale solve -q --print-template --template $T/middle-cycle.json | grep -v '"name"\|"source"' > b.json
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ cmp a.json b.json && echo same
  same
  $ loopscale fit --law moe:bounded-sparse -o default-again.json $ROOT/data/sweeps/looped-moe.csv.gz > /dev/null 2>&1
  $ python3 -c 'import json, sys; print(json.load(open("default-again.json"))["architecture"]["source"])'
  default

A template that does not reproduce the runs is named when the fit is given
it, and a sweep whose runs no single template reproduces is said so, in the
law and wherever it is used:

  $ loopscale fit --law moe:bounded-sparse --template $T/middle-cycle.json -o law2.json runs.csv 2>&1 > /dev/null | grep template
  loopscale fit: warning: */data/templates/middle-cycle.json does not reproduce the runs' N_total and N_loop within 2%: the law records the shares fitted to them (top-1, routed share 0.3265, loop share 0.5102) (glob)
  $ printf 'n_act,n_total,n_loop,R,E,tokens,loss\n1e8,1e8,5e7,1,1,1e11,2.9\n3e8,3e8,1.5e8,2,1,1e11,2.7\n1e8,5e8,5e7,1,8,1e11,2.8\n3e8,1.2e9,1.5e8,1,8,2e11,2.6\n1e9,1e9,5e8,2,1,3e11,2.4\n' > mixed.csv
  $ loopscale fit --law dense --fix c=1.8 -o mixed.json mixed.csv 2>&1 | grep 'single template'
  loopscale fit: warning: mixed.csv: no single template reproduces the runs' N_total/N_act (up to 12.2% from the best fit) and N_loop/N_act (0%): the law records each configuration's, and solve answers for the best fit (top-1, routed share 0.4843, loop share 0.5)
  $ loopscale solve --law mixed.json --flops 1e21 2>&1 | grep 'single template'
  loopscale solve: warning: mixed.json: no single template reproduces the runs it was fitted on (N_total/N_act up to 12.2% from the best fit, N_loop/N_act up to 0%): the answers are for the best fit (top-1, routed share 0.4843, loop share 0.5); --template FILE for another

Counts from configuration columns.  A run table that logs each run's
configuration instead of its parameter counts (examples/exports, made by
make-exports, which counts the same runs itself in Python) fits to the last
digit as the table of counts does:

  $ X=$ROOT/examples/exports
  $ loopscale fit --law moe:bounded-sparse --profile $X/wandb-config.json -o config.json $X/wandb-config-export.csv 2>config.err | grep -v '^time' > config.txt
  $ loopscale fit --law moe:bounded-sparse -o counts.json $X/wandb-config-counts.csv 2>counts.err | grep -v '^time' > counts.txt
  $ grep -v '^runs' config.txt > a.txt && grep -v '^runs' counts.txt > b.txt && cmp a.txt b.txt && echo same
  same
  $ diff config.err counts.err | grep '^<'
  < loopscale fit: */examples/exports/wandb-config-export.csv: n_act, n_total and n_loop counted as loopscale shape counts them, from the configuration columns d_model ('config/n_embd'), loop_layers ('config/n_layer'), heads ('config/n_head'); the rest from the profile's template, looped nanochat, MoE loop block (glob)
  $ python3 -c 'import json; a, b = (json.load(open(f)) for f in ("config.json", "counts.json")); print(a["params"] == b["params"], a["stderr"] == b["stderr"], a["architecture"]["source"], b["architecture"]["source"])'
  True True template runs

The same counts, run by run, from shape:

  $ grep '^s8-e16-r1-2B' $X/wandb-config-counts.csv
  s8-e16-r1-2B,25740800,151569920,13148672,1,16,2000000000,3.409414
  $ python3 -c 'import json; t = json.load(open("'$X'/wandb-config.json"))["template"]; json.dump(t, open("t.json", "w"))'
  $ loopscale shape --shape t.json --d-model 512 --heads 4 --d-ff 2048 --experts 16 --loops 1 --format csv
  n_act,n_total,n_loop,R,E,k
  25740800,151569920,13148672,1,16,1

A profile is not a template, nor a template a profile:

  $ loopscale shape --shape $X/wandb-config.json --d-model 512 2>&1
  loopscale shape: */examples/exports/wandb-config.json:2:3: format: expected "loopscale-template/1" (or "loopscale-shape/1") (glob)
  [65]

--template gives what the columns leave out as the profile's template does;
widths it gives keep their ratio to d_model (d_ff = 4 d here), and a head
size is d_model / heads when the columns give the heads:

  $ sed 's/,config\/n_embd,config\/n_head,/,d_model,heads,/; s/config\/n_layer/loop_layers/; s/config\/num_experts/E/; s/config\/loops/R/; s/tokens_seen/tokens/; s/eval\/loss/loss/' $X/wandb-config-export.csv > plain.csv
  $ head -2 plain.csv
  run_name,State,d_model,heads,loop_layers,E,R,tokens,loss
  s8-e1-r1-2B,finished,512,4,4,1,1,2000000000,3.911882
  $ loopscale fit --law moe:bounded-sparse --template t.json plain.csv 2>&1 | grep -E '^(runs|RMSE)|counted'
  loopscale fit: plain.csv: n_act, n_total and n_loop counted as loopscale shape counts them, from the configuration columns d_model, loop_layers, heads; the rest from the template t.json, looped nanochat, MoE loop block
  runs       108 (plain.csv)
  RMSE       0.00912126 (loss units)
  $ grep RMSE counts.txt
  RMSE       0.00912126 (loss units)

A head size is d_model / heads whenever the columns give the heads and not
the head size, at the template's own width too: the template's head_dim of
64 is for its 12 heads, and 6 heads of 768 are 128 wide, as shape counts
them:

  $ cat > counts.py <<'PY'
  > import json, sys
  > r = json.load(sys.stdin)["rows"][0]
  > print("n_act,n_total,n_loop")
  > print(r["n_act"], r["n_total"], r["n_loop"], sep=",")
  > PY
  $ COUNTS="python3 counts.py"
  $ printf 'heads,tokens,loss\n6,1e10,3\n' > heads.csv
  $ printf '{"format": "loopscale-profile/1", "template": {"d_model": 768, "d_ff": 3072, "heads": 12, "head_dim": 64, "loop_layers": 4}}' > thd-profile.json
  $ loopscale predict --law $TRUTH --profile thd-profile.json --format json heads.csv | $COUNTS
  n_act,n_total,n_loop
  37748736,37748736,37748736
  $ loopscale shape --d-model 768 --d-ff 3072 --heads 6 --layers 4 --vocab 1 --format csv | cut -d, -f1-3
  n_act,n_total,n_loop
  37748736,37748736,37748736

A width a column gives wins over the template's other width: a d_expert
column with a template that gives d_ff counts experts of the column's
width, and the output of `shape --format json`, which gives both widths,
reads as giving d_ff, so a run's own k sets its experts' width (d_ff / k):

  $ printf '{"format": "loopscale-profile/1", "template": {"d_model": 512, "d_ff": 4096, "loop_layers": 4}}' > dff-profile.json
  $ printf 'd_expert,k,E,tokens,loss\n1024,2,8,1e10,3\n' > dexpert.csv
  $ loopscale predict --law $TRUTH --profile dff-profile.json --format json dexpert.csv 2>/dev/null | $COUNTS
  n_act,n_total,n_loop
  16793600,54542336,16793600
  $ loopscale shape --d-model 512 --d-expert 1024 --top-k 2 --experts 8 --layers 4 --vocab 1 --format csv | cut -d, -f1-3
  n_act,n_total,n_loop
  16793600,54542336,16793600
  $ loopscale shape --d-model 512 --d-ff 2048 --layers 4 --vocab 1 --format json > shaped.json
  $ python3 -c 'import json; s = json.load(open("shaped.json"))["shape"]; print(s["d_ff"], s["d_expert"], s["top_k"]); json.dump({"format": "loopscale-profile/1", "template": s}, open("shaped-profile.json", "w"))'
  2048 2048 1
  $ printf 'k,E,tokens,loss\n2,8,1e10,3\n' > k2.csv
  $ loopscale predict --law $TRUTH --profile shaped-profile.json --format json k2.csv 2>/dev/null | $COUNTS
  n_act,n_total,n_loop
  16793600,54542336,16793600
  $ loopscale shape --d-model 512 --d-ff 2048 --top-k 2 --experts 8 --layers 4 --vocab 1 --format csv | cut -d, -f1-3
  n_act,n_total,n_loop
  16793600,54542336,16793600

Counts and a configuration given together: the counts are read, and where
the configuration columns count something else (by more than the 2% within
which a template reproduces runs), a warning names the first such row, both
numbers and how many rows differ:

  $ printf 'n_act,d_model,d_ff,n_layer,tokens,loss\n1e8,512,2048,4,1e10,3\n16777216,512,2048,4,1e10,3\n2e8,512,2048,4,2e10,2.9\n' > both.csv
  $ loopscale predict --law $TRUTH --format csv both.csv 2>&1 >/dev/null | grep warning
  loopscale predict: warning: both.csv:2: column 'n_act' gives n_act = 100000000, but the configuration columns ('d_model', 'd_ff', 'n_layer') count 16777216, 83.2% apart (and 1 more row differs by more than 2%); the counts are read, not the configuration

A run table whose loop count goes by another name (looped nanochat logs
train_recur): the runs are counted at the template's loops, and the
warning says so and how to read the column.

  $ printf 'n_embd,n_head,n_prelude,n_recur_block,n_coda,train_recur,tokens,loss\n1280,10,2,4,2,1,8e9,3.1\n1280,10,2,4,2,2,6e9,3.0\n' > recur.csv
  $ loopscale fit --law dense --template $T/looped-nanochat.json -o recur.json recur.csv 2>&1 | grep train_recur
  loopscale fit: warning: recur.csv: no column gives R, so every run has the template's R = 4; column 'train_recur' is not read: if it is R, --map R=train_recur

Experts from an E column in a template that does not say which stages
have them (looped nanochat's is dense): the prelude and coda count E
experts too, and the reader says so.

  $ printf 'n_embd,n_head,n_prelude,n_recur_block,n_coda,E,R,tokens,loss\n1280,10,2,4,2,4,1,8e9,3.1\n1280,10,2,4,2,8,2,6e9,3.0\n' > moe-cols.csv
  $ loopscale fit --law dense --template $T/looped-nanochat.json -o moe-cols.json moe-cols.csv 2>&1 | grep 'which stages'
  loopscale fit: warning: moe-cols.csv: column 'E' gives E, and the template does not say which stages have experts: the prelude and coda layers count E experts each too (give "prelude_experts": 1 and "coda_experts": 1 in the template for dense stages around an MoE loop block)
