Which runs to train next, for the 3 GB INT4 decision at 1e22 FLOPs, under the
default law (compiled in) as the prior, from a grid of 3 sizes, 3 token counts,
3 expert counts and 3 loop counts.

  $ GRID='--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4'
  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     19 runs
  compute    4.98e+20 of 5e+20 FLOPs (99.6%)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the plan         0.003383
  $ cat runs.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,100000000,300000000,75000000,1,4,1,30000000000,1.8e+19,step 1: cuts the gap's variance by 6.97%
  plan-002,100000000,300000000,75000000,1,4,1,10000000000,6e+18,step 2: cuts the gap's variance by 91.4%
  plan-003,100000000,100000000,75000000,1,1,1,10000000000,6e+18,step 3: cuts the gap's variance by 5.56%
  plan-004,100000000,1100000000,75000000,1,16,1,10000000000,6e+18,step 4: cuts the gap's variance by 97.6%
  plan-005,100000000,1100000000,75000000,2,16,1,10000000000,1.05e+19,step 5: cuts the gap's variance by 91.5%
  plan-006,100000000,1100000000,75000000,4,16,1,10000000000,1.95e+19,step 6: cuts the gap's variance by 76.8%
  plan-007,100000000,1100000000,75000000,1,16,1,30000000000,1.8e+19,step 7: cuts the gap's variance by 48.8%
  plan-008,100000000,100000000,75000000,2,1,1,10000000000,1.05e+19,step 8: cuts the gap's variance by 21.5%
  plan-009,100000000,300000000,75000000,2,4,1,10000000000,1.05e+19,step 9: cuts the gap's variance by 5.26%
  plan-010,300000000,3300000000,225000000,1,16,1,10000000000,1.8e+19,step 10: cuts the gap's variance by 10.1%
  plan-011,300000000,300000000,225000000,1,1,1,10000000000,1.8e+19,step 11: cuts the gap's variance by 14.5%
  plan-012,100000000,300000000,75000000,1,4,1,100000000000,6e+19,step 12: cuts the gap's variance by 28.6%
  plan-013,300000000,3300000000,225000000,4,16,1,10000000000,5.85e+19,step 13: cuts the gap's variance by 24.1%
  plan-014,300000000,900000000,225000000,1,4,1,10000000000,1.8e+19,step 14: cuts the gap's variance by 8.62%
  plan-015,100000000,300000000,75000000,4,4,1,10000000000,1.95e+19,step 15: cuts the gap's variance by 12.3%
  plan-016,100000000,1100000000,75000000,4,16,1,30000000000,5.85e+19,step 16: cuts the gap's variance by 8.07%
  plan-017,100000000,100000000,75000000,1,1,1,30000000000,1.8e+19,step 17: cuts the gap's variance by 4.37%
  plan-018,100000000,300000000,75000000,2,4,1,100000000000,1.05e+20,step 18: cuts the gap's variance by 21.4%
  plan-019,100000000,100000000,75000000,4,1,1,10000000000,1.95e+19,step 19: cuts the gap's variance by 1.32%

The runs file is a sweep without losses: every run is read back, with its
compute F = 6 N_unroll D, and the sum is what the summary says was spent.

  $ python3 -c "
  > import csv
  > rows = list(csv.DictReader(open('runs.csv')))
  > total = 0
  > for r in rows:
  >     n_unroll = float(r['n_act']) + (float(r['R']) - 1) * float(r['n_loop'])
  >     f = 6 * n_unroll * float(r['tokens'])
  >     assert abs(f - float(r['flops'])) <= 1e-12 * f, r
  >     total += f
  > print(len(rows), 'runs', '%.4g' % total, 'FLOPs', total <= 5e20)"
  19 runs 4.98e+20 FLOPs True

A candidate set can be read from a CSV of configurations, as a sweep is
read: the grid that simulate writes gives the same plan as the four lists,
and so does the same grid with only n_active, tokens, R and E (n_total and
n_loop then come from the template).

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json $GRID -o grid.csv
  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates grid.csv -o fromfile.csv 2>/dev/null | grep -E '^(candidates|chosen)'
  candidates 81
  chosen     19 runs
  $ cmp runs.csv fromfile.csv && echo same
  same
  $ cut -d, -f1,4,5,7 grid.csv | sed '1s/n_act/n_active/' > configs.csv
  $ head -2 configs.csv
  n_active,R,E,tokens
  100000000,1,1,10000000000
  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates configs.csv -o fromconfigs.csv 2>/dev/null | grep -E '^chosen'
  chosen     19 runs
  $ cmp runs.csv fromconfigs.csv && echo same
  same

Runs already trained are counted first and never chosen again: train the
first two runs of that plan, and plan the rest of the budget; neither is
chosen again.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8 --tokens 1e10 --E 16 --R 1,2 --noise 0.002 -o have.csv
  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 4.8e20 $GRID --have have.csv -o next.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81; 2 runs already trained (2 of them candidates), 1.65e+19 FLOPs
  chosen     10 runs
  compute    4.8e+20 of 4.8e+20 FLOPs (100.0%)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the runs trained 0.09037
    with the plan         0.004235
  $ grep -c '^100000000,1100000000,75000000,[12],16,1,10000000000,' next.csv
  0
  [1]

A budget smaller than any run plans nothing, with a warning:

  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 1e18 $GRID -o empty.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: no candidate fits in the budget of 1e+18 FLOPs: the plan is empty
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     0 runs
  compute    0 of 1e+18 FLOPs (0.0%)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the plan         1.937
  $ cat empty.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why

A budget in GPU-hours: 350 hours at 4e14 FLOP/s is 5.04e20 FLOPs.

  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --gpu-hours 350 --flop-rate 4e14 $GRID -o gpu.csv 2>/dev/null | grep -E '^(chosen|compute)'
  chosen     19 runs
  compute    4.98e+20 of 5.04e+20 FLOPs (98.8%)

The noise, the draws and the weak prior can be set:

  $ loopscale plan --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.01 --draws 20 --prior-sd 3 --threads 1 -o runs2.csv 2>/dev/null | grep -E '^(prior|noise|chosen)'
  prior      moe:bounded-sparse, 20 of 1000 bootstrap draws
  noise      sigma 0.01 of ln(loss); Huber weight 6701 per run (13 parameters)
  chosen     20 runs

A prior without bootstrap draws plans for its point estimate, with a warning;
one without a fit RMSE needs --noise:

  $ loopscale plan --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.002 -o runs3.csv | grep -E '^(prior|chosen)'
  loopscale plan: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  prior      moe:bounded-sparse, its point estimate (no bootstrap draws)
  chosen     20 runs

Validation by simulation: sweeps drawn from a truth for the planned design
(the runs already trained plus the plan) and for the grid thinned to twice
the plan's compute, each fitted and solved; how often the decision is right.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 --noise 0.002 -o pilot.csv
  $ loopscale fit --bootstrap 20 -o prior.json pilot.csv > /dev/null
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: omega = -0.0997 is poorly determined: its 95% bootstrap interval [-0.404, 0.376] is 0.78 wide, more than 0.5
  $ cp $ROOT/data/truth/moe-bounded-sparse.json truth.json
  $ loopscale plan --law prior.json --have pilot.csv --flops 1e22 --mem 3GB --bits 4 --budget 5e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11,3e11 --E 1,4,16 --R 1,2,4 -o next.csv --validate 3 --truth truth.json --baseline-flops 1e22 | sed -n '/^validation/,$p'
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: N_act = 5.455e+08 (fitted 1e+08 to 4e+08), D = 9.402e+11 (fitted 1e+10 to 4e+10), F = 1e+22 (fitted 6e+18 to 3.12e+20); runner-up: N_act = 2e+09 (fitted 1e+08 to 4e+08), D = 4.762e+11 (fitted 1e+10 to 4e+10), F = 1e+22 (fitted 6e+18 to 3.12e+20)): an extrapolation; a plan aims at the prior's guess there
  validation 3 simulated sweeps of each design from truth.json, noise sigma 0.001904 of ln(loss)
  truth      R*=4 E*=16 N_act*=5.455e+08, loss 2.0956
  
                            plan        thinned grid  IsoFLOP
  runs                      115         96            297
  compute (new runs)        4.991e+21   9.183e+21     1e+22
  right decision            100%        100%          100%
    95% Wilson interval     [44, 100]   [44, 100]     [44, 100]
  loss regret, mean         0           0             0
  loss regret, median       0           0             0
  loss regret, worst        0           0             0
  fits failed (wrong)       0           0             0
  
  thinned grid: every 7th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 9.81e+18 to 9.81e+19 FLOPs x 8
  sizes around the prior's optimum, D = F / (6 N_unroll)

A target on named parameters instead of the decision: the runs that most
lower the summed variance of alpha and beta (no deployment budget needed).

  $ loopscale plan --target params:alpha,beta --budget 5e20 $GRID -o params.csv 2>/dev/null
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  target     the summed variance of alpha, beta (natural units), mean over the draws
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     11 runs
  compute    4.995e+20 of 5e+20 FLOPs (99.9%)
  
  expected standard deviation (root of the mean variance over the draws):
                          alpha       beta
    weak prior alone      1           1
    with the plan         0.02581     0.03543
  $ head -3 params.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,100000000,100000000,75000000,1,1,1,10000000000,6e+18,step 1: cuts the summed variance by 49.4%
  plan-002,100000000,100000000,75000000,2,1,1,10000000000,1.05e+19,step 2: cuts the summed variance by 95.5%

With --validate, the spread of the named parameters over the replicates'
fits is measured for each design (and the decision too when --flops is
given).  Two replicates pin the output, not a comparison: a sample
standard deviation of two fits says little (unit_plan compares them).

  $ loopscale plan --law prior.json --have pilot.csv --target params:alpha,beta --flops 1e22 --mem 3GB --bits 4 --budget 2e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4 -o nextp.csv --validate 2 --truth truth.json | sed -n '/^validation/,$p'
  validation 2 simulated sweeps of each design from truth.json, noise sigma 0.001871 of ln(loss)
  truth      R*=4 E*=16 N_act*=5.455e+08, loss 2.0956
  
                            plan        thinned grid  IsoFLOP
  runs                      105         89            297
  compute (new runs)        1.989e+21   1.671e+21     1.989e+21
  right decision            100%        100%          100%
    95% Wilson interval     [34, 100]   [34, 100]     [34, 100]
  loss regret, mean         0           0             0
  loss regret, median       0           0             0
  loss regret, worst        0           0             0
  sd of alpha over the fits 0.02445     0.009057      0.002497
  sd of beta over the fits  0.02956     0.003601      0.006548
  summed variance           0.001472    9.5e-05       4.911e-05
  fits failed (wrong)       0           0             0
  
  thinned grid: every 10th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 1.95e+18 to 1.95e+19 FLOPs x 8
  sizes around the prior's optimum, D = F / (6 N_unroll)

A template that routes to two experts leaves E = 1 out of the default list:

  $ echo '{"attention_share": 0.25, "top_k": 2, "loop_layers": 6, "prelude_layers": 1, "coda_layers": 1}' > t2.json
  $ loopscale plan --template t2.json --flops 1e22 --mem 3GB --bits 4 --budget 5e21 -o tk.csv 2>&1 | grep -E 'top_k|^(candidates|chosen)'
  loopscale plan: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  candidates 420
  chosen     14 runs
  $ cut -d, -f6,7 tk.csv | sort -u | head -3
  16,2
  2,2
  4,2

A decision beyond the prior's data is an extrapolation: a prior fitted on
a pilot up to N_act 3e8 asked about 1e22 FLOPs (N_act 2e9) says so on
standard error and stars the target.

  $ loopscale fit -o pilot.json --where 'n_act<=4e8' --where 'E<=4' "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null 2>&1
  $ loopscale plan --law pilot.json --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --n-act 1e8,3e8 --tokens 1e10,3e10 --E 1,4 --R 1,2,4 -o pilot-runs.csv | grep -E '^target|^ +\*'
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: N_act = 2e+09 (fitted 1e+08 to 3e+08); runner-up: N_act = 2e+09 (fitted 1e+08 to 3e+08)): an extrapolation; a plan aims at the prior's guess there
  target     loss(R=2 E=4 N_act=2e+09) - loss(R=4 E=4 N_act=2e+09) = -0.0083*
             * outside the ranges the prior was fitted on, an extrapolation: chosen: N_act = 2e+09 (fitted 1e+08 to 3e+08); runner-up: N_act = 2e+09 (fitted 1e+08 to 3e+08)


A validation in which every fit of a design fails has no regret to give:
its cells read "-", not nan (here the plan's and the thinned grid's 2 to
11 runs cannot fit the 13-parameter law).

  $ loopscale fit -o whole.json "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null 2>&1
  $ loopscale plan --law whole.json --budget 5e21 --flops 1e22 --validate 3 -o none.csv 2>/dev/null | grep -E '^(loss regret|fits failed)'
  loss regret, mean         -           -             1.202e-05
  loss regret, median       -           -             1.496e-05
  loss regret, worst        -           -             1.983e-05
  fits failed (wrong)       3           3             0

A parameter every fit of a design held (the plan's 8 runs, all at E = 1
and m = 1, cannot identify theta) has no spread: "-", not 0, and the
summed variance that needs it is "-" too.

  $ loopscale plan --law whole.json --budget 5e21 --flops 1e22 --target params:alpha,theta --validate 3 -o held.csv 2>/dev/null | grep -E '^(sd of|summed)'
  sd of alpha over the fits 0.1758      -             0.002712
  sd of theta over the fits -           -             0.002401
  summed variance           -           -             1.312e-05
