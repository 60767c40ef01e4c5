Reading a training-log export as it is: filters first, text conditions,
derived quantities, invalid rows skipped on request, counts with SI
suffixes and losses in bits or per byte (docs/formats.md).

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ cat > runs.csv <<'CSV'
  > run_name,State,n_act,tokens,eval/loss
  > a-short,finished,125M,2.5B,3.1
  > a-long,finished,125M,10B,2.9
  > b-short,crashed,350M,,
  > b-long,finished,350M,28B,NaN
  > c-long,finished,1.3B,26B,2.6
  > CSV

A crashed run's empty cells and a diverged run's NaN are dropped by the
filters before they are read; 125M, 2.5B and 1.3B are counts:

  $ loopscale predict --law $LAW --map loss=eval/loss --where 'eval/loss>0' runs.csv
  line     n_act   n_total  n_loop  R  E   tokens    loss  pred_loss  residual
     2  1.25e+08  1.25e+08       -  1  1  2.5e+09  3.1000     3.3130   -0.2130
     3  1.25e+08  1.25e+08       -  1  1    1e+10  2.9000     3.0101   -0.1101
     6   1.3e+09   1.3e+09       -  1  1  2.6e+10  2.6000     2.4651   +0.1349
  
  RMSE 0.158829 over 3 runs (loss units)

Text conditions: == and != compare the cell's text, ~ and !~ match a glob;
a quoted value is always text:

  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State==finished' --where 'run_name!~b-*' runs.csv | cut -c1-6
  line  
     2  
     3  
     6  
  
  RMSE 0
  $ loopscale predict --law $LAW --map loss=eval/loss --where "run_name=='c-long'" runs.csv | cut -c1-6
  line  
     6  
  
  RMSE 0

Text compares exactly, case included; when that is why no row is left, the
error says what the column holds:

  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State==Finished' runs.csv
  loopscale predict: runs.csv: no rows left after the filters; text conditions are case-sensitive ('State==Finished'), and the column holds 'finished'
  [65]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'run_name~C-*' runs.csv
  loopscale predict: runs.csv: no rows left after the filters; text conditions are case-sensitive ('run_name~C-*'), and the column holds 'c-long'
  [65]

Derived quantities: tokens per parameter (D / N_act, 20 for c-long, 80 for
a-long) and n_unroll:

  $ loopscale predict --law $LAW --map loss=eval/loss --where 'eval/loss>0' --where 'tokens_per_param>=20' --where 'n_unroll<1B' runs.csv | cut -c1-6
  line  
     2  
     3  
  
  RMSE 0

--skip-invalid drops the rows whose quantities are invalid, and says which:

  $ loopscale predict --law $LAW --map loss=eval/loss --skip-invalid runs.csv 2>messages.txt | cut -c1-6; cat messages.txt
  line  
     2  
     3  
     6  
  
  RMSE 0
  loopscale predict: warning: runs.csv: 2 invalid rows skipped (lines 4, 5); the first: runs.csv:4: column 'tokens': '' is empty

fit records it in the law file, beside the filters:

  $ loopscale fit --law dense --fix alpha=0.34 --fix beta=0.28 --fix c=1.69 --map loss=eval/loss --skip-invalid -o law.json runs.csv > /dev/null
  loopscale fit: warning: runs.csv: 2 invalid rows skipped (lines 4, 5); the first: runs.csv:4: column 'tokens': '' is empty
  loopscale fit: warning: A = 442 is poorly determined: its 95% interval from its standard error [2.63, 7.43e+04] spans a factor 2.8e+04, more than 1000
  loopscale fit: warning: B = 271 is poorly determined: its 95% interval from its standard error [0.0488, 1.5e+06] spans a factor 3.1e+07, more than 1000
  $ python3 -c 'import json; f = json.load(open("law.json"))["fit"]; print(f["filters"], f["skipped"], f["n"])'
  ['--map loss=eval/loss', '--skip-invalid'] {'rows': 2, 'first_lines': [4, 5]} 3

Losses in bits become nats (x ln 2), and per byte become per token (x
bytes per token); filters on `loss` compare nats, filters on the column's
own name compare the cell as written:

  $ printf 'n_act,tokens,bpb\n3e8,1e11,0.9\n3e8,2e11,0.88\n' > bpb.csv
  $ loopscale predict --law $LAW --map loss=bpb --loss-unit bits --bytes-per-token 4 --where 'loss<2.49' bpb.csv
  line  n_act  n_total  n_loop  R  E  tokens    loss  pred_loss  residual
     3  3e+08    3e+08       -  1  1   2e+11  2.4399     2.5125   -0.0726
  
  RMSE 0.0726305 over 1 run (loss units)
  $ loopscale predict --law $LAW --map loss=bpb --loss-unit bits --bytes-per-token 4 --where 'bpb<0.89' bpb.csv | cut -c1-6
  line  
     3  
  
  RMSE 0
  $ python3 -c 'import math; print(round(0.88 * math.log(2) * 4, 4))'
  2.4399

Options take the same suffixes (B a billion):

  $ loopscale predict --law $LAW --n-act 1.3B --tokens 26B --format csv
  loss,n_eff,n_unroll,rho_eff,tokens,train_flops,inference_flops_per_token
  2.465111478853786,1300000000,1300000000,1,26000000000,2.028e+20,2600000000
  $ loopscale predict --law $LAW --n-act 1.3e9 --tokens 2.6e10 --format csv
  loss,n_eff,n_unroll,rho_eff,tokens,train_flops,inference_flops_per_token
  2.465111478853786,1300000000,1300000000,1,26000000000,2.028e+20,2600000000

Tolerant grouping: FLOPs printed to 6 digits give tokens D = F / (6 N_unroll)
that scatter each tier in its 6th digit; holdout still holds out the whole
top token tier (12 runs), labelled by its clean value, unless --group-tol
is set below the rounding:

  $ loopscale simulate --law $LAW --n-act 123456789,287654321,612345678 --tokens 2e9,6e9,2e10 --R 1,2,4,8 --noise 0.003 -o sim.csv
  $ awk -F, 'NR == 1 { print "n_act,n_loop,R,flops,loss"; next } { printf "%s,%s,%s,%.6g,%s\n", $1, $3, $4, $8, $9 }' sim.csv > rounded.csv
  $ loopscale predict --law $LAW --format csv rounded.csv 2>messages.txt | awk -F, 'NR > 1 { d = $4 / (6 * ($1 + ($3 - 1) * $2)); if (d > 1.9e10) printf "%.17g\n", d }' | sort -u | wc -l; cat messages.txt
  12
  loopscale predict: RMSE 0.00812275 over 36 runs (loss units)
  $ loopscale holdout --laws dense:bounded --axes D rounded.csv | grep -o 'train/test runs: .*'
  train/test runs: D=2e+10 24/12).
  $ loopscale holdout --laws dense:bounded --axes D --group-tol 1e-12 rounded.csv | grep -o 'train/test runs: .*'
  loopscale holdout: warning: axis D holds out a single run (D=2e+10): its RMSE is one residual, not a measure of extrapolation; hold out more with --split, or a wider top tier with --group-tol
  train/test runs: D=2e+10 35/1).

Checkpoints: the example W&B export (examples/exports, 42 runs that
finished, 4 checkpoints each).  Several rows per run without a choice is a
warning; --last keeps each run's last step, and fits as the clean sweep of
final checkpoints does:

  $ EXPORT=$ROOT/examples/exports
  $ cp $EXPORT/wandb-export.csv $EXPORT/wandb-clean.csv .
  $ MAP="--map n_act=model/num_active_params --map n_loop=model/loop_block_params --map R=config.model.n_loops --map E=config.model.moe.num_experts --map flops=throughput/total_flops --map loss=eval/loss"
  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' wandb-export.csv | grep '^runs'
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: warning: wandb-export.csv: 42 runs ('run_name') have several rows each (168 rows): each row is fitted as a run; --last keeps each run's last checkpoint, --where can pick a step
  runs       168 (wandb-export.csv)
  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' --run run_name --step trainer/global_step --last --format json wandb-export.csv > export.json
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: wandb-export.csv: kept the last step of each run ('run_name'): 126 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.457 is poorly determined: its 95% interval from the standard errors [0.348, 0.566] is 0.22 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ loopscale fit --law dense:bounded --format json wandb-clean.csv > clean.json
  loopscale fit: warning: the compute-optimal exponent a = 0.457 is poorly determined: its 95% interval from the standard errors [0.348, 0.566] is 0.22 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 -c '
  > import json
  > a, b = (json.load(open(f)) for f in ("export.json", "clean.json"))
  > print(a["fit"]["n"], b["fit"]["n"], a["fit"]["filters"][-3:])
  > print(all(abs(a["params"][k] / b["params"][k] - 1) < 1e-3 for k in b["params"]))'
  42 42 ['--run run_name', '--step trainer/global_step', '--last']
  True

A run's last checkpoint is its largest step among the rows the filters on
plain columns (State) keep, invalid or not.  When that row is dropped (a
NaN loss, as diverged runs that W&B marks finished log; a filter on the
loss; a step that is not a number), an earlier checkpoint is not fitted in
its place: the run is left out, counted and recorded, and the fit is that
of the export without those runs:

  $ python3 -c '
  > import csv, sys
  > rows = list(csv.reader(open("wandb-export.csv")))
  > runs = []
  > for r in rows[1:]:
  >     if r[0] not in runs and r[1] == "finished": runs.append(r[0])
  > last = {r[0]: i for i, r in enumerate(rows) if i}
  > rows[last[runs[3]]][9] = "NaN"
  > rows[last[runs[10]]][9] = ""
  > rows[last[runs[20]]][10] = "final"
  > csv.writer(open("dropped.csv", "w", newline=""), lineterminator="\n").writerows(rows)
  > print(runs[3], runs[10], runs[20], last[runs[3]] + 1)'
  loop2-124M-5B loop1-354M-5B loop8-354M-60B 17
  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' --skip-invalid --last --format json dropped.csv > dropped.json
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: warning: dropped.csv: 3 invalid rows skipped (lines 17, 52, 95); the first: dropped.csv:17: column 'eval/loss': 'NaN' is not a finite number
  loopscale fit: warning: dropped.csv: 3 runs left out: their last checkpoint was dropped (invalid or filtered); first: 'loop2-124M-5B' at line 17
  loopscale fit: dropped.csv: kept the last step of each run ('run_name'): 117 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [0.341, 0.542] is 0.201 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' --where 'eval/loss>0' --skip-invalid --last dropped.csv 2>&1 | grep -E 'left out|skipped|^runs'
  loopscale fit: warning: dropped.csv: 1 invalid row skipped (line 95); the first: dropped.csv:95: column 'trainer/global_step': 'final' is not a number (the step of run 'loop8-354M-60B')
  loopscale fit: warning: dropped.csv: 3 runs left out: their last checkpoint was dropped (invalid or filtered); first: 'loop2-124M-5B' at line 17
  loopscale fit: dropped.csv: kept the last step of each run ('run_name'): 117 earlier checkpoints left out
  runs       39 (dropped.csv)
  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' --where 'run_name!=loop2-124M-5B' --where 'run_name!=loop1-354M-5B' --where 'run_name!=loop8-354M-60B' --last --format json wandb-export.csv > without.json
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: wandb-export.csv: kept the last step of each run ('run_name'): 117 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.442 is poorly determined: its 95% interval from the standard errors [0.341, 0.542] is 0.201 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 -c '
  > import json
  > a, b = (json.load(open(f)) for f in ("dropped.json", "without.json"))
  > print(a["fit"]["n"], b["fit"]["n"], a["fit"]["last_dropped"], "last_dropped" in b["fit"])
  > print(all(abs(a["params"][k] / b["params"][k] - 1) < 1e-9 for k in b["params"]))'
  39 39 {'runs': 3, 'first_run': 'loop2-124M-5B', 'first_line': 17} False
  True

A filter on the step picks the checkpoint (here the last one at or before
step 5000, which only the shorter runs reach); the rows it drops do not
count:

  $ loopscale fit --law dense:bounded $MAP --where 'State==finished' --where 'trainer/global_step<=5000' --last wandb-export.csv 2>&1 | grep -E 'left out|^runs'
  loopscale fit: wandb-export.csv: kept the last step of each run ('run_name'): 15 earlier checkpoints left out
  runs       15 (wandb-export.csv)

The script that writes the examples rewrites them byte for byte:

  $ mkdir regenerated && python3 $EXPORT/make-exports regenerated && cmp regenerated/wandb-export.csv wandb-export.csv && cmp regenerated/wandb-clean.csv wandb-clean.csv
  $ for f in wandb-config-export.csv wandb-config-counts.csv; do cmp regenerated/$f $EXPORT/$f; done

Sweep profiles: the shipped W&B profile reads the export as the options
above did; an option given too wins over the profile's single value, and
fit records the profile and what it expanded to:

  $ cp $EXPORT/wandb.json $EXPORT/tensorboard.json $EXPORT/tensorboard-export.csv .
  $ loopscale fit --law dense:bounded --profile wandb.json --format json wandb-export.csv > profile.json
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: wandb-export.csv: kept the last step of each run ('run_name'): 126 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.457 is poorly determined: its 95% interval from the standard errors [0.348, 0.566] is 0.22 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 -c '
  > import json
  > a, b = (json.load(open(f)) for f in ("profile.json", "export.json"))
  > print(a["params"] == b["params"], a["fit"]["n"])
  > print([f for f in a["fit"]["filters"] if not f.startswith("--map")])'
  True 42
  ['--where State==finished', '--profile wandb.json', '--run run_name', '--step trainer/global_step', '--last']
  $ loopscale predict --law profile.json --profile wandb.json --where 'config.model.n_loops==8' wandb-export.csv 2>messages.txt | tail -1; cat messages.txt
  RMSE 0.00746374 over 10 runs (loss units)
  loopscale predict: warning: profile\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E

The TensorBoard / CSV-logger profile reads tokens written 1.25B and a loss
in bits per byte (x ln 2 x 4.2 bytes a token); a logger has no run state, so
--last keeps the last evaluation a crashed run logged, and leaves out the
two runs whose last evaluations are nan (diverged; the profile's filter
val/bpb>0 drops those rows): 46 runs, not 42:

  $ loopscale fit --law dense:bounded --profile tensorboard.json tensorboard-export.csv | grep -E '^(runs|RMSE)'
  loopscale fit: warning: tensorboard-export.csv: 2 runs left out: their last checkpoint was dropped (invalid or filtered); first: 'loop8-124M-60B' at line 47
  loopscale fit: tensorboard-export.csv: kept the last step of each run ('run'): 130 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.479 is poorly determined: its 95% interval from the standard errors [0.322, 0.636] is 0.31 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       46 (tensorboard-export.csv)
  RMSE       0.0136322 (loss units)
