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
  chosen     50 runs
  compute    5e+20 of 5e+20 FLOPs (100.0%)
  design     IsoFLOP 25% + c-optimal: 36 IsoFLOP and 14 c-optimal runs
  fittable   50 runs for 13 parameters (at least 26); 39 values of N_act, 38 of tokens, 3 of R, 3 of E;
             condition number 3.18e+06 in correlation form (at most 1e+12)
  
  starts     without a search (--search 0): the c-optimal design if it can be fitted, else the
             fittable mixture with the least IsoFLOP share
    IsoFLOP                         67 runs, 5e+20 FLOPs
    IsoFLOP on the draws' pairs     not fittable: 18 runs for 13 parameters (at least 26)
    IsoFLOP 75% + c-optimal         68 runs, 4.992e+20 FLOPs
    IsoFLOP 50% + c-optimal         61 runs, 4.945e+20 FLOPs
  * IsoFLOP 25% + c-optimal         50 runs, 5e+20 FLOPs
    c-optimal                       not fittable: 19 runs for 13 parameters (at least 26)
    (* the plan)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the plan         0.00224
  $ head -4 runs.csv; wc -l < runs.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,131956400.72077304,131956401,98967301,1,1,1,576968047.8503144,4.5680776155130944e+17,step 1 (IsoFLOP): cuts the gap's variance by 0.834%
  plan-002,130630362.77538694,130630363,97972772,1,1,1,1843054132.099791,1.4445529793452298e+18,step 2 (IsoFLOP): cuts the gap's variance by 10.9%
  plan-003,178798755.41516703,178798755,134099067,1,1,1,1346535267.1601913,1.4445529793452298e+18,step 3 (IsoFLOP): cuts the gap's variance by 0.13%
  51

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
  50 runs 5e+20 FLOPs True

The plan makes its IsoFLOP runs itself, not from the grid, but keeps them to
the candidates' sizes: N_act from the smallest to the largest candidate's
(1e8 to 1e9), tokens no more than the candidates' largest (1e11) and no
fewer than N_act; the c-optimal runs are candidates.

  $ python3 -c "
  > import csv
  > rows = list(csv.DictReader(open('runs.csv')))
  > iso = [r for r in rows if '(IsoFLOP)' in r['why']]
  > grid = {(float(n), float(d)) for n in (1e8, 3e8, 1e9) for d in (1e10, 3e10, 1e11)}
  > for r in iso:
  >     n, d = float(r['n_act']), float(r['tokens'])
  >     assert 1e8 * (1 - 1e-9) <= n <= 1e9 * (1 + 1e-9) and n <= d <= 1e11 * (1 + 1e-9), r
  > for r in rows:
  >     if '(c-optimal)' in r['why']:
  >         assert (float(r['n_act']), float(r['tokens'])) in grid, r
  > print(len(iso), 'IsoFLOP runs within the sizes;', len(rows) - len(iso), 'candidates')"
  36 IsoFLOP runs within the sizes; 14 candidates

A candidate set can be read from a CSV of configurations, as a sweep is
read: the grid that simulate writes gives the same plan as the four lists,
and so does the same grid with only n_active, tokens, R and E (n_total and
n_loop then come from the template).

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json $GRID -o grid.csv
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates grid.csv -o fromfile.csv 2>/dev/null | grep -E '^(candidates|chosen)'
  candidates 81
  chosen     50 runs
  $ cmp runs.csv fromfile.csv && echo same
  same
  $ cut -d, -f1,4,5,7 grid.csv | sed '1s/n_act/n_active/' > configs.csv
  $ head -2 configs.csv
  n_active,R,E,tokens
  100000000,1,1,10000000000
  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 --candidates configs.csv -o fromconfigs.csv 2>/dev/null | grep -E '^chosen'
  chosen     50 runs
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
  chosen     48 runs
  compute    4.755e+20 of 4.8e+20 FLOPs (99.1%)
  design     IsoFLOP 25% + c-optimal: 35 IsoFLOP and 13 c-optimal runs
  fittable   50 runs for 13 parameters (at least 26); 38 values of N_act, 37 of tokens, 3 of R, 3 of E;
             condition number 4.38e+06 in correlation form (at most 1e+12)
  
  starts     without a search (--search 0): the c-optimal design if it can be fitted, else the
             fittable mixture with the least IsoFLOP share
    IsoFLOP                         67 runs, 4.8e+20 FLOPs
    IsoFLOP on the draws' pairs     not fittable: 19 runs for 13 parameters (at least 26)
    IsoFLOP 75% + c-optimal         65 runs, 4.755e+20 FLOPs
    IsoFLOP 50% + c-optimal         58 runs, 4.779e+20 FLOPs
  * IsoFLOP 25% + c-optimal         48 runs, 4.755e+20 FLOPs
    c-optimal                       not fittable: 12 runs for 13 parameters (at least 26)
    (* the plan)
  
  expected standard deviation of the gap (mean variance over the draws):
    weak prior alone      1.937
    with the runs trained 0.09037
    with the plan         0.002258
  $ grep -c '^100000000,1100000000,75000000,[12],16,1,10000000000,' next.csv
  0
  [1]

A budget smaller than the cheapest candidate buys no design that can be
fitted (nor do IsoFLOP runs of the candidates' sizes): it is refused,
naming the budget and the cheapest run, and nothing is written
(errors-plan.t has more).

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 1e18 $GRID -o empty.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: the budget of 1e+18 FLOPs buys no design that can be fitted without the weak prior (c-optimal: 0 runs for 13 parameters (at least 26); IsoFLOP: 2 runs for 13 parameters (at least 26)); the cheapest candidate costs 6e+18 FLOPs (N_act 1e+08 on 1e+10 tokens, R = 1, E = 1): a larger budget, or candidates and R, E lists that vary every axis the law depends on
  [65]
  $ test -e empty.csv || echo nothing written
  nothing written

A budget in GPU-hours: 350 hours at 4e14 FLOP/s is 5.04e20 FLOPs.

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --gpu-hours 350 --flop-rate 4e14 $GRID -o gpu.csv 2>/dev/null | grep -E '^(chosen|compute)'
  chosen     50 runs
  compute    5e+20 of 5.04e+20 FLOPs (99.2%)

The noise, the draws and the weak prior can be set:

  $ loopscale plan --search 0 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.01 --draws 20 --prior-sd 3 --threads 1 -o runs2.csv 2>/dev/null | grep -E '^(prior|noise|chosen)'
  prior      moe:bounded-sparse, 20 of 1000 bootstrap draws
  noise      sigma 0.01 of ln(loss); Huber weight 6701 per run (13 parameters)
  chosen     51 runs

A prior without bootstrap draws plans for its point estimate, with a warning;
one without a fit RMSE needs --noise:

  $ loopscale plan --search 0 --law $ROOT/data/truth/moe-bounded-sparse.json --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID --noise 0.002 -o runs3.csv | grep -E '^(prior|chosen)'
  loopscale plan: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale plan: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale plan: warning: the prior has no bootstrap draws: the plan is for its point estimate alone
  prior      moe:bounded-sparse, its point estimate (no bootstrap draws)
  chosen     56 runs

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
  runs                      115         96            232
  compute (new runs)        4.991e+21   9.183e+21     1e+22
  right decision            100%        100%          100%
    95% Wilson interval     [44, 100]   [44, 100]     [44, 100]
  loss regret, mean         0           0             0
  loss regret, median       0           0             0
  loss regret, worst        0           0             0
  fits failed (wrong)       0           0             0
  ranking                   1. plan, 2. thinned grid, 3. IsoFLOP (right decisions, then mean regret)
  
  thinned grid: every 7th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 1.32e+19 to 1.32e+20 FLOPs x 8
  sizes around the prior's optimum, those within the candidates' sizes kept, D = F / (6 N_unroll)

A target on named parameters instead of the decision: the runs that most
lower the summed variance of alpha and beta (no deployment budget needed).

  $ loopscale plan --search 0 --target params:alpha,beta --budget 5e20 $GRID -o params.csv 2>/dev/null
  prior      moe:bounded-sparse, 100 of 1000 bootstrap draws
  target     the summed variance of alpha, beta (natural units), mean over the draws
  noise      sigma 0.001741 of ln(loss); Huber weight 2.678e+05 per run (13 parameters)
  candidates 81
  chosen     49 runs
  compute    4.94e+20 of 5e+20 FLOPs (98.8%)
  design     IsoFLOP 25% + c-optimal: 36 IsoFLOP and 13 c-optimal runs
  fittable   49 runs for 13 parameters (at least 26); 39 values of N_act, 38 of tokens, 3 of R, 3 of E;
             condition number 1.27e+06 in correlation form (at most 1e+12)
  
  starts     without a search (--search 0): the c-optimal design if it can be fitted, else the
             fittable mixture with the least IsoFLOP share
    IsoFLOP                         67 runs, 5e+20 FLOPs
    IsoFLOP 75% + c-optimal         68 runs, 4.977e+20 FLOPs
    IsoFLOP 50% + c-optimal         60 runs, 4.93e+20 FLOPs
  * IsoFLOP 25% + c-optimal         49 runs, 4.94e+20 FLOPs
    c-optimal                       not fittable: 11 runs for 13 parameters (at least 26)
    (* the plan)
  
  expected standard deviation (root of the mean variance over the draws):
                          alpha       beta
    weak prior alone      1           1
    with the plan         0.01857     0.007295
  $ head -3 params.csv
  run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why
  plan-001,131956400.72077304,131956401,98967301,1,1,1,576968047.8503144,4.5680776155130944e+17,step 1 (IsoFLOP): cuts the summed variance by 49.7%
  plan-002,130630362.77538694,130630363,97972772,1,1,1,1843054132.099791,1.4445529793452298e+18,step 2 (IsoFLOP): cuts the summed variance by 97.7%

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
  runs                      105         89            189
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
  
  thinned grid: every 10th candidate; IsoFLOP: 9 (R, E) x 3 budgets from 2.97e+18 to 2.97e+19 FLOPs x 8
  sizes around the prior's optimum, those within the candidates' sizes kept, D = F / (6 N_unroll)

A template that routes to two experts leaves E = 1 out of the default list:

  $ echo '{"attention_share": 0.25, "top_k": 2, "loop_layers": 6, "prelude_layers": 1, "coda_layers": 1}' > t2.json
  $ loopscale plan --search 0 --template t2.json --flops 1e22 --mem 3GB --bits 4 --budget 5e21 -o tk.csv 2>&1 | grep -E 'top_k|^(candidates|chosen)'
  loopscale plan: the template routes to top_k = 2 experts: E below 2 left out of the default --E list
  candidates 979
  chosen     1084 runs
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
  loopscale plan: the budget of 5e+20 FLOPs buys no design that can be fitted without the weak prior (c-optimal: 11 runs for 13 parameters (at least 26); IsoFLOP: the runs do not identify every parameter (singular: condition number above 4.5e+15, at most 1e+12)); the cheapest candidate costs 6e+18 FLOPs (N_act 1e+08 on 1e+10 tokens, R = 1, E = 1): a larger budget, or candidates and R, E lists that vary every axis the law depends on
  [1]


A validation in which every fit of a design fails has no regret to give:
its cells read "-", not nan.  Here a baseline of 3e19 FLOPs buys the
thinned grid one run, which cannot fit the 13-parameter law (its column,
the middle one, is shown: the others' numbers are Monte-Carlo ones).

  $ loopscale fit -o whole.json "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null 2>&1
  $ BIG='--n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4'
  $ loopscale plan --search 0 --law whole.json --budget 5e20 --flops 1e22 $BIG --validate 3 --baseline-flops 3e19 -o none.csv 2>/dev/null | grep -E '^(runs|loss regret|fits failed)' | cut -c1-26,39-50 | sed 's/ *$//'
  runs                      1
  loss regret, mean         -
  loss regret, median       -
  loss regret, worst        -
  fits failed (wrong)       3

A parameter with fewer than two fitted values (every fit failed, or held
it) has no spread: "-", not 0, and the summed variance that needs it is
"-" too.

  $ loopscale plan --search 0 --law whole.json --budget 5e20 --flops 1e22 $BIG --target params:alpha,theta --validate 3 --baseline-flops 3e19 -o held.csv 2>/dev/null | grep -E '^(sd of|summed)' | cut -c1-26,39-50 | sed 's/ *$//'
  sd of alpha over the fits -
  sd of theta over the fits -
  summed variance           -

The search: the starting designs (IsoFLOP, mixtures, c-optimal) judged by
simulated sweeps from the prior's draws (here 4 each, to keep the test
short); a design replaces the one kept only when it is right on more
sweeps beyond chance.  --format json gives the whole summary.

  $ loopscale plan --search 4 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o searched.csv 2>/dev/null | sed -n '/^design/,/the plan)/p'
  design     IsoFLOP: 67 IsoFLOP and 0 c-optimal runs
  fittable   67 runs for 13 parameters (at least 26); 67 values of N_act, 67 of tokens, 3 of R, 3 of E;
             condition number 3.7e+06 in correlation form (at most 1e+12)
  
  search     4 simulated sweeps per design, each drawn from one of the prior's draws, fitted and solved
    design                          runs   compute    right    failed  regret, mean
  * IsoFLOP                         67     5e+20      4/4      0       0
    IsoFLOP on the draws' pairs     not fittable: 18 runs for 13 parameters (at least 26)
    IsoFLOP 75% + c-optimal         68     4.992e+20  4/4      0       0
    IsoFLOP 50% + c-optimal         61     4.945e+20  3/4      0       0.003761
    IsoFLOP 25% + c-optimal         50     5e+20      3/4      0       0.003637
    c-optimal                       not fittable: 19 runs for 13 parameters (at least 26)
    (* the plan)
  $ loopscale plan --search 4 --flops 1e22 --mem 3GB --bits 4 --budget 5e20 $GRID -o searched.csv --format json 2>/dev/null | python3 -c "
  > import json, sys
  > d = json.load(sys.stdin)
  > print(d['format'], len(d['runs']), [x['name'] for x in d['designs'] if x['chosen']], d['fittable']['runs'] >= d['fittable']['min_runs'])"
  loopscale-plan/1 67 ['IsoFLOP'] True

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
  candidates 1222; 54 runs already trained (0 of them candidates), 2.426e+21 FLOPs
  $ loopscale plan --search 0 --map 'n_act=Model Size' --flops 1e22 --budget 3e21 -o x.csv
  loopscale plan: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale plan: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale plan: --map reads the runs of --have, and none were given
  Try 'loopscale plan --help'.
  [64]

Runs that cost more than the decision's training budget train past the
model the plan decides about: said, with the largest.

  $ loopscale plan --search 0 --flops 1e20 --budget 5e21 --n-act 1e8,3e8,1e9 --tokens 1e10,3e10,1e11 --E 1,4,16 --R 1,2,4 -o past.csv 2>&1 | grep 'cost more'
  loopscale plan: warning: 12 of the plan's 42 runs cost more than the decision's --flops 1e+20 (the largest 1.05e+21 FLOPs): the sweep trains models past the one it decides about; a smaller --budget, or a larger --flops, asks a question the runs do not overshoot
