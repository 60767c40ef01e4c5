Planning: what plan refuses.  Missing budgets and output, values out of range,
a decision with nothing to decide between, and runs already trained that
cannot be read.  Nothing is written when plan fails, and an old file survives.

  $ GRID='--n-act 1e8,3e8 --tokens 1e10,3e10 --E 1,16 --R 1,2'
  $ echo precious > runs.csv
  $ loopscale plan --search 0 --flops 1e22 $GRID -o runs.csv
  loopscale plan: give the sweep's compute budget with --budget FLOPS (or --gpu-hours H --flop-rate RATE)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 $GRID -o runs.csv
  loopscale plan: give the deployment budget of the decision with --flops F
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID
  loopscale plan: give the file for the runs with --output FILE
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --gpu-hours 1000 --flops 1e22 $GRID -o runs.csv
  loopscale plan: give --gpu-hours H and --flop-rate RATE together
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --gpu-hours 1000 --flop-rate 4e14 --budget 1e21 --flops 1e22 $GRID -o runs.csv
  loopscale plan: give the sweep's budget once: --budget FLOPS or --gpu-hours H
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --gpu-hours 1e300 --flop-rate 1e300 --flops 1e22 $GRID -o runs.csv
  loopscale plan: --gpu-hours: '1e300' is outside its range: from 0.001 to 1e+12 (GPU hours)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget -1e21 --flops 1e22 $GRID -o runs.csv
  loopscale plan: --budget: '-1e21' must be positive
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21x --flops 1e22 $GRID -o runs.csv
  loopscale plan: --budget: '1e21x' is not a number
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --draws 0 $GRID -o runs.csv
  loopscale plan: --draws: '0' is outside [1, 100000]
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --noise 0 $GRID -o runs.csv
  loopscale plan: --noise: '0' must be positive
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --prior-sd -1 $GRID -o runs.csv
  loopscale plan: --prior-sd: '-1' must be positive
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --n-act 1e8 --tokens 1e10 --E 1 --R 1.5 -o runs.csv
  loopscale plan: --R: '1.5' is not an integer (loops)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --n-act 1e8 --tokens 1e10 --E 16 --R 1 -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: only one (R, E) is feasible at the deployment budget: there is no decision to plan for
  [65]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --mem 100 --bits 4 $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: no configuration is feasible at the deployment budget
  [65]
  $ loopscale plan --search 0 --law $ROOT/data/truth/moe-bounded-sparse.json --budget 1e21 --flops 1e22 $GRID -o runs.csv
  loopscale plan: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  loopscale plan: the prior law has no fit RMSE to take the noise from: give --noise SIGMA
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --have missing.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: missing.csv: cannot open: No such file or directory
  [66]
  $ printf 'n_act,tokens,loss\n1e8,1e10,2.5\n3e8,ten,2.4\n' > have.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --have have.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: have.csv:3: column 'tokens': 'ten' is not a number
  [65]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --have have.csv -o have.csv
  loopscale plan: --output have.csv would replace the input --have have.csv
  Try 'loopscale plan --help'.
  [64]
  $ cat runs.csv
  precious
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --truth t.json -o runs.csv
  loopscale plan: --truth is for --validate K
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --baseline-flops 1e21 -o runs.csv
  loopscale plan: --baseline-flops is for --validate K
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --seed 7 -o runs.csv
  loopscale plan: --seed seeds the simulated sweeps: it is for --validate K or --search K above 0
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --validate 0 -o runs.csv
  loopscale plan: --validate: '0' is outside [1, 100000]
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --validate 2 --truth missing.json -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: missing.json: cannot open: No such file or directory
  [66]

A baseline too small for one candidate is refused once the plan is made
(the grid of three values an axis, whose plan can be fitted):

  $ BIG='--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4'
  $ loopscale plan --search 0 --budget 5e20 --flops 1e22 $BIG --validate 2 --baseline-flops 1e15 -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: no thinning of the candidates fits in the baseline's 1e+15 FLOPs
  [65]
  $ cat runs.csv
  precious
  $ loopscale plan --search 0 --budget 1e21 --budget 2e21 --flops 1e22 $GRID -o runs.csv
  loopscale plan: --budget given twice ('1e21', then '2e21'): it takes one value
  Try 'loopscale plan --help'.
  [64]
  $ printf 'n_act,tokens,R,E\n1e8,1e10,1,1\n3e8,1e1x,2,4\n' > cands.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: cands.csv:3: column 'tokens': '1e1x' is not a number
  [65]
  $ printf 'n_act,tokens,R,E\n1e8,1e10,1,1\n3e8,1e10,2,4\n1e8,1e10,1,1\n' > cands.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: cands.csv:4: the same candidate (n_act, tokens, R and E) as line 2
  [65]
  $ printf 'n_act,tokens,R,E,k\n1e8,1e10,1,2,2\n' > cands.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: cands.csv:2: column 'k': 2 is not the template's top_k (1)
  [65]
  $ printf 'n_act,tokens,R,E,k\n1e8,1e10,1,1,1\n3e8,1e10,2,4,2\n' > have2.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID --have have2.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: have2.csv:3: column 'k': 2 is not the template's top_k (1)
  [65]
  $ printf 'n_act,R,E\n1e8,1,1\n' > cands.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: cands.csv:1: no column 'tokens' (or 'D'), and no 'flops' to derive it from
  [65]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv --E 1,4 -o runs.csv
  loopscale plan: --candidates FILE replaces --E
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates cands.csv --n-act 1e8 -o runs.csv
  loopscale plan: --candidates FILE replaces --n-act
  Try 'loopscale plan --help'.
  [64]
  $ printf 'n_act,D,R,E\n1e8,1e10,1,1\n' > cands.csv
  $ echo '{"top_k": 2}' > top2.json
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --template top2.json --candidates cands.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: top2.json is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); the law predicts the loss of models like its runs, and the answers count parameters as top2.json does
  loopscale plan: cands.csv:2: n_total = 66666667 from the template is less than n_act (100000000)
  [65]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates missing.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: missing.csv: cannot open: No such file or directory
  [66]
  $ cat runs.csv
  precious
  $ loopscale plan --search 0 --budget 1e21 --target params:alpha,gama $GRID -o runs.csv
  loopscale plan: --target: 'gama' is not a parameter (A alpha B beta c delta gamma omega zeta E_start E_max phi kappa1 kappa2 theta)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --target alpha $GRID -o runs.csv
  loopscale plan: --target: 'alpha' is neither 'decision' nor 'params:NAME,...'
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --target params:alpha,,beta $GRID -o runs.csv
  loopscale plan: --target: 'params:alpha,,beta' has an empty or overlong parameter name
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --target params:E_start $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: E_start is fixed in the prior: there is nothing to plan for
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --target params:beta,beta $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: beta is named twice
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --target params:phi $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: phi is not a parameter of moe:bounded-sparse
  Try 'loopscale plan --help'.
  [64]
  $ cat runs.csv
  precious

The runs are CSV: an output name that says another format is refused
before any work, gzipped or not:

  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 -o r.json
  loopscale plan: --output: 'r.json': the runs are CSV, and a name ending in .json says otherwise (.csv or .csv.gz)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 -o r.HTML.gz
  loopscale plan: --output: 'r.HTML.gz': the runs are CSV, and a name ending in .html says otherwise (.csv or .csv.gz)
  Try 'loopscale plan --help'.
  [64]
  $ test -e r.json || echo none written
  none written

The summary is printed on standard output, so the runs cannot go there too:

  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 $GRID -o -
  loopscale plan: the summary and --output - both write to standard output
  Try 'loopscale plan --help'.
  [64]

The plan holds a Jacobian per candidate and draw of the prior, so the
candidates are counted before any is made, and a grid of more is refused
naming the limit (300 sizes x 300 token counts x 5 E x 7 R is 3,150,000);
so is a product of candidates and draws beyond what memory can hold:

  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --n-act $(seq -s, 100000000 10000000 3090000000) --tokens $(seq -s, 10000000000 1000000000 309000000000) -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: --n-act, --tokens, --E and --R make 3150000 candidates; a plan weighs at most 100000
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --n-act $(seq -s, 100000000 10000000 1090000000) --tokens $(seq -s, 10000000000 1000000000 49999999999) --E 1,2,4,8,16 --R 1 --draws 1000 -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: 20000 candidates under 1000 draws of the prior: a plan weighs at most 10000000 candidate-draws (about 130 bytes each); fewer candidates or a smaller --draws
  Try 'loopscale plan --help'.
  [64]
  $ cat runs.csv
  precious

A candidate file is refused at its first row beyond the limit, as it is
read (a file of a million rows takes no longer than one of 100,001), and
a configuration listed twice is found by sorting, not by comparing every
pair: the first line that repeats an earlier one is named, with the
earliest it repeats.

  $ (echo n_act,tokens,R,E; seq -f '%.0f,1e10,1,1' 10000000 1000 1010000000) > many.csv
  $ wc -l < many.csv
  1000002
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates many.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: many.csv:100002: more than 100000 candidates; a plan weighs at most 100000
  [65]
  $ (head -100000 many.csv; echo 10050000,1e10,1,1) > repeat.csv
  $ loopscale plan --search 0 --budget 1e21 --flops 1e22 --candidates repeat.csv -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: repeat.csv:100001: the same candidate (n_act, tokens, R and E) as line 52
  [65]

A budget that buys no sensible run is refused, naming the budget and the
cheapest candidate: a plan's IsoFLOP runs keep to the candidates' sizes
(here N_act 1e8 to 1e9), and the candidates it makes from the question to
the floor of 1e6 active parameters on as many tokens.

  $ loopscale plan --search 0 --budget 1e10 --flops 1e22 $BIG -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: the budget of 1e+10 FLOPs buys no design that can be fitted without the weak prior (c-optimal: 0 runs for 13 parameters (at least 26); IsoFLOP: no IsoFLOP run of the candidates' sizes (N_act 1e+08 to 1e+09) on tokens from N_act to 1e+11 fits in 1e+10 FLOPs); the cheapest candidate costs 6e+18 FLOPs (N_act 1e+08 on 1e+10 tokens, R = 1, E = 1): a larger budget, or candidates and R, E lists that vary every axis the law depends on
  [65]
  $ loopscale plan --search 0 --budget 1e18 --flops 1e22 $BIG -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: the budget of 1e+18 FLOPs buys no design that can be fitted without the weak prior (c-optimal: 0 runs for 13 parameters (at least 26); IsoFLOP: 2 runs for 13 parameters (at least 26)); the cheapest candidate costs 6e+18 FLOPs (N_act 1e+08 on 1e+10 tokens, R = 1, E = 1): a larger budget, or candidates and R, E lists that vary every axis the law depends on
  [65]
  $ loopscale plan --search 0 --budget 1e10 --flops 1e22 -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: the budget of 1e+10 FLOPs buys no design that can be fitted (twice as many runs as parameters, 3.846e+08 FLOPs each at most): no candidate of 3.846e+08 FLOPs or fewer has 1e+06 active parameters or more on as many tokens (6e+12 FLOPs at one loop, the smallest run a plan makes)
  [65]
  $ cat runs.csv
  precious
