Which runs to train next, for the 3 GB INT4 decision at 1e22 FLOPs, under the
default law (compiled in) as the prior, from a grid of 3 sizes, 3 token counts,
3 expert counts and 3 loop counts.

  $ GRID='--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4'
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o runs.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     226 runs
  compute    5e+20 of 5e+20 FLOPs (100.0%)
  design     IsoFLOP 25% + c-optimal: 216 IsoFLOP and 10 c-optimal runs
  fittable   226 runs for 13 parameters (at least 26); 219 values of N_act, 219 of tokens, 3 of R, 3 of E;
             condition number 7.17e+05 in correlation form (at most 1e+12)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the plan         0.000577
  $ head -4 runs.csv; wc -l < runs.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,7239130.601609191,7239131,5429348,1,1,1,2822323225.0932074,1.2258699855842749e+17,step 1 (IsoFLOP): cuts the gap's variance by 1.49%
  plan-002,9908473.913382187,9908474,7431355,1,1,1,2061989223.063973,1.2258699855842749e+17,step 2 (IsoFLOP): cuts the gap's variance by 10.4%
  plan-003,13562105.823916381,13562106,10171579,1,1,1,1506489234.9073706,1.225869985584275e+17,step 3 (IsoFLOP): cuts the gap's variance by 0.00147%
  227

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
  226 runs 5e+20 FLOPs True

A candidate set can be read from a CSV of configurations, as a sweep is
read: the grid that simulate writes gives the same plan as the four lists,
and so does the same grid with only n_active, tokens, R and E (n_total and
n_loop then come from the template).

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json $GRID -o grid.csv
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates grid.csv -o fromfile.csv 2>/dev/null | grep -E '^(candidates|chosen)'
  candidates 81
  chosen     226 runs
  $ cmp runs.csv fromfile.csv && echo same
  same
  $ cut -d, -f1,4,5,7 grid.csv | sed '1s/n_act/n_active/' > configs.csv
  $ head -2 configs.csv
  n_active,R,E,tokens
  100000000,1,1,10000000000
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates configs.csv -o fromconfigs.csv 2>/dev/null | grep -E '^chosen'
  chosen     226 runs
  $ cmp runs.csv fromconfigs.csv && echo same
  same

Runs already trained are counted first and never chosen again: train the
first two runs of that plan, and plan the rest of the budget; neither is
chosen again.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8 --tokens 1e10 --E 16 --R 1,2 --noise 0.002 -o have.csv
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 4.8e20 $GRID --have have.csv -o next.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81; 2 runs already trained (2 of them candidates), 1.65e+19 FLOPs
  chosen     227 runs
  compute    4.755e+20 of 4.8e+20 FLOPs (99.1%)
  design     IsoFLOP 25% + c-optimal: 216 IsoFLOP and 11 c-optimal runs
  fittable   229 runs for 13 parameters (at least 26); 219 values of N_act, 219 of tokens, 3 of R, 3 of E;
             condition number 7.05e+05 in correlation form (at most 1e+12)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the runs trained 0.09037
    with the plan         0.0005804
  $ grep -c '^100000000,1100000000,75000000,[12],16,1,10000000000,' next.csv
  0
  [1]

A budget smaller than any run plans nothing, with a warning:

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 1e18 $GRID -o empty.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the decision lies outside the ranges the prior was fitted on (chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)): an extrapolation; a plan aims at the prior's guess there
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  decision   1e+22 training FLOPs; 3e+09 bytes of weights at 4 bits
  target     loss(R=4 E=16 N_act=5.455e+08) - loss(R=2 E=16 N_act=5.455e+08) = -0.0105*
             under the prior's point estimate; 100 of 100 draws also choose R=4 E=16, and each draw
             weighs its own choice against its own runner-up
             * outside the ranges the prior was fitted on, an extrapolation: chosen: D = 9.402e+11 (fitted 1e+11 to 5e+11); runner-up: D = 1.746e+12 (fitted 1e+11 to 5e+11)
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     216 runs
  compute    2.5e+17 of 1e+18 FLOPs (25.0%)
  design     IsoFLOP 25% + c-optimal: 216 IsoFLOP and 0 c-optimal runs
  fittable   216 runs for 13 parameters (at least 26); 216 values of N_act, 216 of tokens, 3 of R, 3 of E;
             condition number 6.6e+05 in correlation form (at most 1e+12)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the plan         0.0007927
  $ head -4 empty.csv; wc -l < empty.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,258027.06226727835,258027,193520,1,1,1,158364523.8361926,245173997116854.94,step 1 (IsoFLOP): cuts the gap's variance by 1.24%
  plan-002,353171.4726701641,353171,264879,1,1,1,115701114.09018455,245173997116854.94,step 2 (IsoFLOP): cuts the gap's variance by 10.6%
  plan-003,483399.25282259844,483399,362549,1,1,1,84531228.8221619,245173997116854.97,step 3 (IsoFLOP): cuts the gap's variance by 0.00541%
  217

A budget in GPU-hours: 350 hours at 4e14 FLOP/s is 5.04e20 FLOPs.

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --gpu-hours 350 --flop-rate 4e14 $GRID -o gpu.csv 2>/dev/null | grep -E '^(chosen|compute)'
  chosen     226 runs
  compute    5.01e+20 of 5.04e+20 FLOPs (99.4%)

The noise, the draws and the weak prior can be set:

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.01 --draws 20 --prior-sd 3 --threads 1 -o runs2.csv 2>/dev/null | grep -E '^(prior|noise|chosen)'
  prior      moe:bounded-sparse, 20 of 1000 bootstrap draws
  noise      sigma 0.01 of ln(loss); Huber weight 6701 per run (13 parameters)
  chosen     226 runs

A prior without bootstrap draws plans for its point estimate, with a warning;
one without a fit RMSE needs --noise:

  $ loopscale plan --search 0 --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.002 -o runs3.csv | grep -E '^(prior|chosen)'
  loopscale plan: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  prior      moe:bounded-sparse, its point estimate (no bootstrap draws)
  chosen     226 runs

Validation by simulation: sweeps drawn from a truth for the planned design
(the runs already trained plus the plan) and for the grid thinned to twice
the plan's compute, each fitted and solved; how often the decision is right.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 --noise 0.002 -o pilot.csv
  $ loopscale fit --bootstrap 20 -o prior.json pilot.csv > /dev/null
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: omega = -0.0997 is poorly determined: its 95% bootstrap interval [-0.404, 0.376] is 0.78 wide, more than 0.5
  $ cp $ROOT/data/truth/moe-bounded-sparse.json truth.json
  $ loopscale plan --search 0 --law prior.json --have pilot.csv --flops 1e22 --mem 3GB --bits 4 --budget 5e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11,3e11 --E 1,4,16 --R 1,2,4 -o next.csv --validate 3 --truth truth.json --baseline-flops 1e22 | sed -n '/^validation/,$p'
  loopscale plan: warning: prior\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale plan: warning: prior\.json's fit: omega = \S+ is poorly determined: its \S+% bootstrap interval \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
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
  ranking                   1. plan, 2. thinned grid, 3. IsoFLOP (right decisions, then mean regret)
  
  thinned grid: every 7th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 9.81e+18 to 9.81e+19 FLOPs x 8
  sizes around the prior's optimum, D = F / (6 N_unroll)

A target on named parameters instead of the decision: the runs that most
lower the summed variance of alpha and beta (no deployment budget needed).

  $ loopscale plan --search 0 --target params:alpha,beta --budget 5e20 $GRID -o params.csv 2>/dev/null
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  target     the summed variance of alpha, beta (natural units), mean over the draws
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     230 runs
  compute    5e+20 of 5e+20 FLOPs (100.0%)
  design     IsoFLOP 25% + c-optimal: 216 IsoFLOP and 14 c-optimal runs
  fittable   230 runs for 13 parameters (at least 26); 219 values of N_act, 219 of tokens, 3 of R, 3 of E;
             condition number 4.83e+05 in correlation form (at most 1e+12)
  
  expected standard deviation (root of the mean variance over the draws):
                          alpha       beta
    weak prior alone      1           1
    with the plan         0.002379    0.002722
  $ head -3 params.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,7239130.601609191,7239131,5429348,1,1,1,2822323225.0932074,1.2258699855842749e+17,step 1 (IsoFLOP): cuts the summed variance by 49.7%
  plan-002,9908473.913382187,9908474,7431355,1,1,1,2061989223.063973,1.2258699855842749e+17,step 2 (IsoFLOP): cuts the summed variance by 98.9%

With --validate, the spread of the named parameters over the replicates'
fits is measured for each design (and the decision too when --flops is
given).  Two replicates pin the output's form, not a comparison: a sample
standard deviation of two fits says little, and its digits differ between
CPUs (unit_plan compares designs).

  $ loopscale plan --search 0 --law prior.json --have pilot.csv --target params:alpha,beta --flops 1e22 --mem 3GB --bits 4 --budget 2e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4 -o nextp.csv --validate 2 --truth truth.json | sed -n '/^validation/,$p'
  loopscale plan: warning: prior\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale plan: warning: prior\.json's fit: omega = \S+ is poorly determined: its \S+% bootstrap interval \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  validation 2 simulated sweeps of each design from truth.json, noise sigma 0.001871 of ln(loss)
  truth      R*=4 E*=16 N_act*=5.455e+08, loss 2.0956
  
                            plan        thinned grid  IsoFLOP
  runs                      105         89            297
  compute (new runs)        1.989e+21   1.671e+21     2e+21
  right decision            100%        100%          100%
    95% Wilson interval     [34, 100]   [34, 100]     [34, 100]
  loss regret, mean         0           0             0
  loss regret, median       0           0             0
  loss regret, worst        0           0             0
  sd of alpha over the fits +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  sd of beta over the fits +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  summed variance +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  fits failed (wrong)       0           0             0
  ranking                   1. plan, 2. thinned grid, 3. IsoFLOP (right decisions, then mean regret)
  
  thinned grid: every 10th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 1.96e+18 to 1.96e+19 FLOPs x 8
  sizes around the prior's optimum, D = F / (6 N_unroll)

A template that routes to two experts leaves E = 1 out of the default list:

  $ echo '{"attention_share": 0.25, "top_k": 2, "loop_layers": 6, "prelude_layers": 1, "coda_layers": 1}' > t2.json
  $ loopscale plan --search 0 --template t2.json --flops 1e22 --mem 3GB --bits 4 --budget 5e21 -o tk.csv 2>&1 | grep -E 'top_k|^(candidates|chosen)'
  loopscale plan: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  candidates 980
  chosen     1086 runs
  $ cut -d, -f6,7 tk.csv | sort -u | head -3
  16,2
  2,2
  4,2

A decision beyond the prior's data is an extrapolation: a prior fitted on
a pilot up to N_act 3e8 asked about 1e22 FLOPs (N_act 2e9) says so on
standard error and stars the target.

  $ loopscale fit -o pilot.json --where 'n_act<=4e8' --where 'E<=4' "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null 2>&1
  $ loopscale plan --search 0 --law pilot.json --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --n-act 1e8,3e8 --tokens 1e10,3e10 --E 1,4 --R 1,2,4 -o pilot-runs.csv | grep -E '^target|^ +\*'
  loopscale plan: warning: pilot\.json's fit: E_max = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale plan: warning: pilot\.json's fit: delta = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale plan: warning: pilot\.json's fit: omega = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] is \S+ wide, more than \S+ (re)
  loopscale plan: warning: pilot\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  loopscale plan: the budget of 5e+20 FLOPs buys no design that can be fitted without the weak prior (c-optimal: 11 runs for 13 parameters (at least 26); IsoFLOP: the runs do not identify every parameter (singular: condition number above 4.5e+15, at most 1e+12)); a larger budget, or candidates and R, E lists that vary every axis the law depends on
  [1]


Every validation cell is a number, never nan ("-" only for a design whose
every fit failed, or a parameter every fit held).  Which way three simulated
fits fall differs between CPUs (the AVX-512, AVX2 and scalar copies of the
fitter round exp and log differently), so only the cells' form is pinned.

  $ loopscale fit -o whole.json "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null 2>&1
  $ loopscale plan --search 0 --law whole.json --budget 5e21 --flops 1e22 --validate 3 -o none.csv 2>/dev/null | grep -E '^(loss regret|fits failed)'
  loss regret, mean +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  loss regret, median +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  loss regret, worst +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  fits failed (wrong)       0           0             0

The spread of each named parameter and their summed variance:

  $ loopscale plan --search 0 --law whole.json --budget 5e21 --flops 1e22 --target params:alpha,theta --validate 3 -o held.csv 2>/dev/null | grep -E '^(sd of|summed)'
  sd of alpha over the fits +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  sd of theta over the fits +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)
  summed variance +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* +[0-9][0-9.e+-]* (re)

The search: the starting designs (IsoFLOP, mixtures, c-optimal) judged by
simulated sweeps from the prior's draws (here 4 each, to keep the test
short); a design replaces the one kept only when it is right on more
sweeps beyond chance.  --format json gives the whole summary.

  $ loopscale plan --search 4 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o searched.csv 2>/dev/null | sed -n '/^design/,/the plan)/p'
  design     IsoFLOP: 216 IsoFLOP and 0 c-optimal runs
  fittable   216 runs for 13 parameters (at least 26); 216 values of N_act, 216 of tokens, 3 of R, 3 of E;
             condition number 8.61e+05 in correlation form (at most 1e+12)
  
  search     4 simulated sweeps per design, each drawn from one of the prior's draws, fitted and solved
    design                          runs   compute    right    failed  regret, mean
  * IsoFLOP                         216    5e+20      4/4      0       0
    IsoFLOP on the draws' pairs     not fittable: too little spread: 1 value of E (at least 2)
    IsoFLOP 75% + c-optimal         221    4.965e+20  4/4      0       0
    IsoFLOP 50% + c-optimal         226    4.975e+20  4/4      0       0
    IsoFLOP 25% + c-optimal         226    5e+20      4/4      0       0
    c-optimal                       not fittable: 19 runs for 13 parameters (at least 26)
    (* the plan)
  $ loopscale plan --search 4 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o searched.csv --format json 2>/dev/null | python3 -c "
  > import json, sys
  > d = json.load(sys.stdin)
  > print(d['format'], len(d['runs']), [x['name'] for x in d['designs'] if x['chosen']], d['fittable']['runs'] >= d['fittable']['min_runs'])"
  loopscale-plan/1 216 ['IsoFLOP'] True

A parameter no candidate's loss depends on at the prior (the loop
parameters when every candidate has R = 1) is left out of the plan and
said, rather than every design refused as singular.  (A law file with no
fit record, a truth, plans for what a fit frees: E_start held at 1, as the
truth as prior above shows.)

  $ loopscale plan --search 0 --flops 1e22 --budget 5e20 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1 -o r1.csv 2>&1 | grep -E 'depends|^noise'
  loopscale plan: warning: no candidate's loss depends on kappa1, kappa2, theta at the prior's values (as loop parameters do not when every candidate has R = 1): no design of these candidates identifies them, and the plan leaves them as the prior has them
  noise      sigma 0.001708 of ln(loss); Huber weight 2.793e+05 per run (10 parameters)

The runs already trained are read as fit reads a sweep: a W&B export
with its own column names needs --map (or --profile), and --where picks
runs; the reader's options without --have are refused.

  $ loopscale simulate --law $ROOT/data/truth/moe-hyperbolic.json --n-act 1e8,2e8,4e8 --tokens 1e10,2e10,4e10 --E 1,4,16 --R 1,2,4 -o pilot-sim.csv
  $ sed '1s/n_act/Model Size/' pilot-sim.csv > export.csv
  $ loopscale plan --search 0 --have export.csv --flops 1e22 --budget 3e21 -o x.csv 2>&1 | grep export
  loopscale plan: export.csv:1: no column 'n_act' (or 'N', 'params', or one renamed to it), and no configuration to count it from (d_model, loop_layers, d_ff, ...)
  $ loopscale plan --search 0 --have export.csv --map 'n_act=Model Size' --where 'R<=2' --flops 1e22 --budget 3e21 -o x.csv 2>/dev/null | grep '^candidates'
  candidates 1225; 54 runs already trained (0 of them candidates), 2.426e+21 FLOPs
  $ loopscale plan --search 0 --map 'n_act=Model Size' --flops 1e22 --budget 3e21 -o x.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: --map reads the runs of --have, and none were given
  Try 'loopscale plan --help'.
  [64]
