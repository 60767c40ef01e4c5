Training-log exports: filters run on the cells before a row's quantities
are read, so a row they drop is never checked; numeric conditions are false
on an empty or NaN cell; == and != compare text when the value is not a
number, ~ and !~ match a glob.  Bad filters and reader options are usage
errors (64); an invalid row is bad data (65) unless --skip-invalid drops
it, and a sweep with no valid row left is still an error.

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ printf 'n_act,tokens,eval/loss,State\n3e8,1e11,2.5,finished\n3e8,2e11,,crashed\n1.25B,1e11,NaN,failed\n' > runs.csv
  $ loopscale predict --law $LAW --map loss=eval/loss runs.csv > /dev/null
  loopscale predict: runs.csv:3: column 'eval/loss': '' is empty
  [65]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'Status==finished' runs.csv
  loopscale predict: filter 'Status==finished': runs.csv has no column 'Status'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State<finished' runs.csv
  loopscale predict: filter 'State<finished': 'finished' is not a number (only = == != ~ !~ compare text)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State' runs.csv
  loopscale predict: filter 'State': expected COLUMN OP VALUE with OP one of < <= = == != >= > ~ !~
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where '==finished' runs.csv
  loopscale predict: filter '==finished': no column name before '=='
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'n_unroll==big' runs.csv
  loopscale predict: filter 'n_unroll==big': runs.csv has no column 'n_unroll' (it is derived, a number) to compare as text
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'n_act>=1.5X' runs.csv
  loopscale predict: filter 'n_act>=1.5X': '1.5X' is not a number (only = == != ~ !~ compare text)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State>0' runs.csv
  loopscale predict: runs.csv:2: column 'State': 'finished' is not a number (used by filter 'State>0')
  [65]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State==crashed' runs.csv
  loopscale predict: runs.csv:3: column 'eval/loss': '' is empty
  [65]
  $ loopscale predict --law $LAW --map loss=eval/loss --where 'State~fail*' --skip-invalid runs.csv
  loopscale predict: runs.csv: no rows left: 1 invalid row skipped (line 4); the first: runs.csv:4: column 'eval/loss': 'NaN' is not a finite number
  [65]

Units: the loss is in nats or bits, per token or per byte; a grouping
tolerance is relative, above 0 and below 0.5.

  $ loopscale predict --law $LAW --map loss=eval/loss --loss-unit bytes runs.csv
  loopscale predict: --loss-unit: 'bytes' is not nats or bits
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --bytes-per-token -1 runs.csv
  loopscale predict: --bytes-per-token: '-1' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map loss=eval/loss --bytes-per-token 4x runs.csv
  loopscale predict: --bytes-per-token: '4x' is not a number
  Try 'loopscale predict --help'.
  [64]

  $ loopscale holdout --laws dense --axes D --group-tol 0.5 runs.csv
  loopscale holdout: --group-tol: '0.5' is not between 0 and 0.5 (a relative tolerance)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense --axes D --group-tol 0 runs.csv
  loopscale holdout: --group-tol: '0' is not between 0 and 0.5 (a relative tolerance)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense --axes D --group-tol 1e-3x runs.csv
  loopscale holdout: --group-tol: '1e-3x' is not a number
  Try 'loopscale holdout --help'.
  [64]

Counts with SI suffixes: k, M, B or G, T; anything else is not a number.

  $ printf 'n_act,tokens,loss\n125M,2.8Bn,2.5\n' > si.csv
  $ loopscale predict --law $LAW si.csv
  loopscale predict: si.csv:2: column 'tokens': '2.8Bn' is not a number
  [65]
  $ printf 'n_act,tokens,loss\n125M,3GB,2.5\n' > si.csv
  $ loopscale predict --law $LAW si.csv
  loopscale predict: si.csv:2: column 'tokens': '3GB' is not a number
  [65]

Checkpoints: --last needs a run column and a step column, named or found
by their usual names; a named column must exist; a step must be a number.

  $ printf 'run,n_act,tokens,loss\na,3e8,1e11,2.5\na,3e8,2e11,2.4\nb,6e8,1e11,2.3\n' > ckpt.csv
  $ loopscale fit --law dense --last ckpt.csv
  loopscale fit: --last: ckpt.csv has no step column (step, _step, global_step, trainer/global_step, iter, iteration; or name one with --step COL)
  Try 'loopscale fit --help'.
  [64]
  $ printf 'n_act,tokens,loss,step\n3e8,1e11,2.5,1\n' > nostep.csv
  $ loopscale fit --law dense --last nostep.csv
  loopscale fit: --last: nostep.csv has no run column (run, run_name, run_id, name, id; or name one with --run COL)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --run id ckpt.csv
  loopscale fit: run column 'id': ckpt.csv has no such column
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --step step ckpt.csv
  loopscale fit: step column 'step': ckpt.csv has no such column
  Try 'loopscale fit --help'.
  [64]
  $ printf 'run,step,n_act,tokens,loss\na,100,3e8,1e11,2.5\na,x,3e8,2e11,2.4\n' > badstep.csv
  $ loopscale fit --law dense --last badstep.csv
  loopscale fit: badstep.csv:3: column 'step': 'x' is not a number (the step of run 'a')
  [65]

Sweep profiles: a JSON object with "format": "loopscale-profile/1" and only
the keys a profile has, each of its type; one profile a command.

  $ printf '{"format": "loopscale-profile/1", "wehre": ["R<=8"]}' > typo.json
  $ loopscale fit --law dense --profile typo.json ckpt.csv
  loopscale fit: typo.json:1:35: wehre: not a key of a sweep profile (format, name, map, where, run, step, last, skip_invalid, loss_unit, bytes_per_token, group_tol, template)
  [65]
  $ printf '{"map": {"n_act": "N"}}' > noformat.json
  $ loopscale fit --law dense --profile noformat.json ckpt.csv
  loopscale fit: noformat.json: format: expected "loopscale-profile/1"
  [65]
  $ printf '{"format": "loopscale-profile/1", "last": "yes"}' > last.json
  $ loopscale fit --law dense --profile last.json ckpt.csv
  loopscale fit: last.json:1:35: last: expected true or false
  [65]
  $ printf '{"format": "loopscale-profile/1", "map": {"n_act": 3}}' > map.json
  $ loopscale fit --law dense --profile map.json ckpt.csv
  loopscale fit: map.json:1:35: map: expected a non-empty column name for each quantity
  [65]
  $ printf '{"format": "loopscale-profile/1", "loss_unit": "bytes"}' > unit.json
  $ loopscale fit --law dense --profile unit.json ckpt.csv
  loopscale fit: unit.json:1:35: loss_unit: expected "nats" or "bits"
  [65]
  $ printf '{"format": "loopscale-profile/1", "group_tol": 2}' > tol.json
  $ loopscale fit --law dense --profile tol.json ckpt.csv
  loopscale fit: tol.json:1:35: group_tol: expected a number between 0 and 0.5
  [65]
  $ printf '{"format": "loopscale-profile/1",' > broken.json
  $ loopscale fit --law dense --profile broken.json ckpt.csv
  loopscale fit: broken.json:1:33: not valid JSON
  [65]
  $ loopscale fit --law dense --profile missing.json ckpt.csv
  loopscale fit: missing.json: cannot open: No such file or directory
  [66]
  $ printf '{"format": "loopscale-profile/1"}' > empty.json
  $ loopscale fit --law dense --profile empty.json --profile empty.json ckpt.csv
  loopscale fit: --profile given twice ('empty.json', then 'empty.json'): it takes one value
  Try 'loopscale fit --help'.
  [64]

Per-group fits (fit --by COL): an output without {group} in its name, or
{group} without --by, is a usage error; so is a column the file does not
have, and two groups whose values make one file name.  A run with an empty
--by cell belongs to no group (65).  All of this is found before any file is
written; a group that is not a fit leaves every group's file unwritten.

  $ printf 'arm,n_act,tokens,loss\nbase,1e8,1e10,3.1\nbase,3e8,1e10,2.9\nbase,1e8,3e10,2.95\nbase,3e8,3e10,2.75\nbase,1e9,1e11,2.5\nbase,1e9,3e10,2.6\nbase,3e8,1e11,2.7\nbase,1e8,1e11,2.85\n' > arms.csv
  $ loopscale fit --law dense --by arm -o law.json arms.csv
  loopscale fit: --output 'law.json': with --by each group has a file of its own: put {group} in the name, e.g. --output 'law-{group}.json'
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --by arm --plot fit.svg arms.csv
  loopscale fit: --plot 'fit.svg': with --by each group has a file of its own: put {group} in the name, e.g. --plot 'fit-{group}.svg'
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense -o 'law-{group}.json' arms.csv
  loopscale fit: --output 'law-{group}.json': {group} stands for a group's value, and runs are split into groups only with --by COL
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --by '' arms.csv
  loopscale fit: --by '': name a column
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --by config arms.csv
  loopscale fit: --by 'config': arms.csv has no such column
  Try 'loopscale fit --help'.
  [64]
  $ printf 'arm,n_act,tokens,loss\na/b,1e8,1e10,3.1\na_b,3e8,1e10,2.9\n' > clash.csv
  $ loopscale fit --law dense --by arm -o 'law-{group}.json' clash.csv
  loopscale fit: --by: groups 'arm=a/b' and 'arm=a_b' would both write law-a_b.json (file names keep letters, digits and . _ + - only)
  Try 'loopscale fit --help'.
  [64]
  $ printf 'arm,n_act,tokens,loss\nbase,1e8,1e10,3.1\n ,3e8,1e10,2.9\n' > blank.csv
  $ loopscale fit --law dense --by arm blank.csv
  loopscale fit: blank.csv:3: column 'arm': ' ' is empty: each run needs a value of the --by column (drop such rows with --where)
  [65]
  $ printf 'other,1e8,1e10,3.1\nother,3e8,1e10,2.9\n' >> arms.csv
  $ loopscale fit --law dense --by arm -o 'law-{group}.json' arms.csv
  loopscale fit: warning: arm=base: A = 183 is poorly determined: its 95% interval from its standard error [0.384, 8.78e+04] spans a factor 2.3e+05, more than 1000
  loopscale fit: warning: arm=base: the runs do not tell alpha = 0.302 from its lower bound 0: its 95% interval from its standard error [-0.0816, 0.686] reaches past it
  loopscale fit: warning: arm=base: B = 1.19e+04 is poorly determined: its 95% interval from its standard error [47.6, 2.98e+06] spans a factor 6.3e+04, more than 1000
  loopscale fit: warning: arm=base: beta = 0.449 is poorly determined: its 95% interval from its standard error [0.19, 0.708] is 0.52 wide, more than 0.5
  loopscale fit: warning: arm=base: the compute-optimal exponent a = 0.598 is poorly determined: its 95% interval from the standard errors [0.193, 1] is 0.81 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: arm=other: arms.csv: 2 runs cannot determine 5 free parameters
  [65]
  $ ls law-*.json
  ls: cannot access 'law-*.json': No such file or directory
  [2]

JSON Lines (one object a line, by a .jsonl or .ndjson name or a first byte
'{'): a line that is not valid JSON or not an object, a key that appears
twice once nested keys are joined with '.', and an array holding objects are
bad data naming the line and column; so is a JSON array where JSON Lines was
expected, and a cell as in CSV.  NaN and Infinity, which Python's json module
writes, are named as such.

  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": 3.1}\n{"n_act": 3e8, "tokens": 1e10, "loss": 2.9,}\n' > bad.jsonl
  $ loopscale predict --law $LAW bad.jsonl
  loopscale predict: bad.jsonl:2:44: not valid JSON
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": 3.1}\n[1e8, 1e10, 2.9]\n' > array.ndjson
  $ loopscale predict --law $LAW array.ndjson
  loopscale predict: array.ndjson:2:1: an array, not an object; JSON Lines has one object per line (a run)
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": NaN}\n' > nan.jsonl
  $ loopscale predict --law $LAW nan.jsonl
  loopscale predict: nan.jsonl:1:40: 'NaN' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a missing value as null
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": Infinity}\n' > inf.jsonl
  $ loopscale predict --law $LAW inf.jsonl
  loopscale predict: inf.jsonl:1:40: 'Infinity' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a missing value as null
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": -Infinity}\n' > minf.jsonl
  $ loopscale predict --law $LAW minf.jsonl
  loopscale predict: minf.jsonl:1:40: '-Infinity' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a missing value as null
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": nan}\n' > lower.jsonl
  $ loopscale predict --law $LAW lower.jsonl
  loopscale predict: lower.jsonl:1:40: not valid JSON
  [65]
  $ printf 'n_act,tokens,loss\n' > notjson.jsonl
  $ loopscale predict --law $LAW notjson.jsonl
  loopscale predict: notjson.jsonl:1:1: not valid JSON
  [65]
  $ printf '{"model.n_act": 1e8, "model": {"n_act": 2e8}, "tokens": 1e10, "loss": 3}\n' > twice.jsonl
  $ loopscale predict --law $LAW --map n_act=model.n_act twice.jsonl
  loopscale predict: twice.jsonl:1:32: key 'model.n_act' appears twice once nested keys are joined with '.'
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": 3, "evals": [{"loss": 3}]}\n' > nested.jsonl
  $ loopscale predict --law $LAW nested.jsonl
  loopscale predict: nested.jsonl:1:43: key 'evals': an array holding objects or arrays (a cell takes a number, a string, or an array of them)
  [65]
  $ printf '{"n_act": 1e8, "tokens": 1e10, "loss": 3, "run": "a", "run": "b"}\n' > dupkey.jsonl
  $ loopscale predict --law $LAW dupkey.jsonl
  loopscale predict: dupkey.jsonl:1:55: key 'run' appears twice
  [65]
  $ printf '[{"n_act": 1e8, "tokens": 1e10, "loss": 3}]\n' > runs.json
  $ loopscale predict --law $LAW runs.json
  loopscale predict: runs.json: a JSON array; loopscale reads CSV or JSON Lines, one object a line (convert it with jq -c '.[]' FILE)
  [65]
  $ printf '{"n_act": "1e8x", "tokens": 1e10, "loss": 3}\n' > cell.jsonl
  $ loopscale predict --law $LAW cell.jsonl
  loopscale predict: cell.jsonl:1: column 'n_act': '1e8x' is not a number
  [65]

Bootstrap groups (--group COL) of a numeric column are tiers, as --by's are:
a learning rate logged as 2.99999e-4 and 3.00001e-4 is one group, so there is
nothing to resample; --group-tol below the rounding makes them two.

  $ zcat $ROOT/data/sweeps/looped-dense.csv.gz | awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "lr"; next } { print $0, (NR % 2 ? 3.00001e-4 : 2.99999e-4) }' > lr.csv
  $ loopscale fit --law dense:bounded --bootstrap 4 --group lr lr.csv > /dev/null
  loopscale fit: --bootstrap: '4' is too few draws for an interval: at least 20 (or 0 for none)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense:bounded --bootstrap 4 --group lr --group-tol 1e-9 lr.csv | grep "^bootstrap"
  loopscale fit: --bootstrap: '4' is too few draws for an interval: at least 20 (or 0 for none)
  Try 'loopscale fit --help'.
  [1]

A --map must rename a column to a quantity (or an alias) or to a name a
filter, --run, --step or --group uses: a rename that nothing reads would
leave the fit reading another column without a word.  The nearest quantity
is suggested.  A name a filter uses is accepted:

  $ printf 'n_act,tokens,loss,eval/loss,State\n1e8,1e10,3.1,3.2,finished\n2e8,1e10,3.0,3.1,finished\n' > two.csv
  $ loopscale predict --law $LAW --map lss=eval/loss two.csv
  loopscale predict: rename 'lss=eval/loss': 'lss' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, tokens, flops, loss) and no filter, run, step or group column is called so: did you mean loss?
  Try 'loopscale predict --help'.
  [64]
  $ loopscale fit --law dense --map zzz=eval/loss two.csv
  loopscale fit: rename 'zzz=eval/loss': 'zzz' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, tokens, flops, loss) and no filter, run, step or group column is called so
  Try 'loopscale fit --help'.
  [64]
  $ loopscale predict --law $LAW --map status=State --where 'status==finished' --format csv two.csv 2>messages.txt | wc -l; cat messages.txt
  3
  loopscale predict: RMSE 0.0745035 over 2 runs (loss units)

Renaming a quantity's column to no quantity sets it aside (FLOPs that count
something else); another column must then give the quantity:

  $ loopscale predict --law $LAW --map old_loss=loss two.csv
  loopscale predict: rename 'old_loss=loss': 'old_loss' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, tokens, flops, loss) and no filter, run, step or group column is called so; it sets column 'loss' aside, and two.csv has no other column that gives loss: did you mean loss?
  Try 'loopscale predict --help'.
  [64]
  $ printf 'name,n_act,tokens,loss\na,1e8,1e10,3.1\n' > named.csv
  $ loopscale predict --law $LAW --map who=name --run who --format csv named.csv 2>messages.txt | wc -l; cat messages.txt
  2
  loopscale predict: RMSE 0.0305744 over 1 run (loss units)

Every fault that comes from a profile, even one found only when a sweep is
read with it, is bad data (65) that names the profile, the line and column
of the key, and the key:

  $ printf '{"format": "loopscale-profile/1",\n "map": {"bogus": "loss"}}' > bogus.json
  $ loopscale fit --law dense --profile bogus.json two.csv
  loopscale fit: bogus.json:2:10: rename 'bogus=loss': 'bogus' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, tokens, flops, loss) and no filter, run, step or group column is called so; it sets column 'loss' aside, and two.csv has no other column that gives loss (sweep profile)
  [65]
  $ printf '{"format": "loopscale-profile/1",\n "map": {"loss": "nosuchcol"}}' > nocol.json
  $ loopscale fit --law dense --profile nocol.json two.csv
  loopscale fit: nocol.json:2:10: rename 'loss=nosuchcol': two.csv has no column 'nosuchcol' (sweep profile)
  [65]
  $ printf '{"format": "loopscale-profile/1",\n  "where": "R<=2"}' > wtype.json
  $ loopscale fit --law dense --profile wtype.json two.csv
  loopscale fit: wtype.json:2:3: where: expected an array of conditions
  [65]
  $ printf '{"format": "loopscale-profile/1",\n "where": ["zz<3"]}' > wcol.json
  $ loopscale fit --law dense --profile wcol.json two.csv
  loopscale fit: wcol.json:2:2: filter 'zz<3': two.csv has no column 'zz' (sweep profile)
  [65]
  $ printf '{"format": "loopscale-profile/1",\n "where": ["zz"]}' > wop.json
  $ loopscale fit --law dense --profile wop.json two.csv
  loopscale fit: wop.json:2:2: filter 'zz': expected COLUMN OP VALUE with OP one of < <= = == != >= > ~ !~ (sweep profile)
  [65]
  $ printf '{"format": "loopscale-profile/1",\n "run": "who", "last": true}' > run.json
  $ loopscale fit --law dense --profile run.json two.csv
  loopscale fit: run.json:2:2: run column 'who': two.csv has no such column (sweep profile)
  [65]
  $ printf '{"format": "loopscale-profile/1", "loss_unit": "bits",\n "bytes_per_token": 1e308}' > bpt.json
  $ loopscale fit --law dense --profile bpt.json two.csv
  loopscale fit: bpt.json:2:2: bytes_per_token: expected a number of bytes between 0 and 1000
  [65]

A loss read in bits (or per byte) is echoed as given, and beside it, before
pred_loss, the same loss in nats per token, so that loss_nats - pred_loss
is the residual:

  $ loopscale predict --law $LAW --format csv --loss-unit bits two.csv 2> /dev/null
  n_act,tokens,loss,eval/loss,State,loss_nats,pred_loss,residual
  1e8,1e10,3.1,3.2,finished,2.1487562597358303,3.069425567002544,-0.9206693072667136
  2e8,1e10,3.0,3.1,finished,2.0794415416798357,2.8991696885963485,-0.8197281469165127

A checkpoint whose step is empty or not a number is an invalid row like
any other: --skip-invalid drops it under --last too, and its run with it
(which of the run's rows is the last one is then unknown):

  $ printf 'run,step,n_act,tokens,loss\na,100,3e8,1e11,2.5\na,,3e8,2e11,2.4\nb,5,1e8,1e11,2.7\n' > emptystep.csv
  $ loopscale predict --law $LAW --last emptystep.csv
  loopscale predict: emptystep.csv:3: column 'step': '' is empty (the step of run 'a')
  [65]
  $ loopscale predict --law $LAW --last --skip-invalid --format csv emptystep.csv
  run,step,n_act,tokens,loss,pred_loss,residual
  b,5,1e8,1e11,2.7,2.8089658235115307,-0.1089658235115305
  loopscale predict: warning: emptystep.csv: 1 run left out: its last checkpoint was dropped (invalid or filtered); first: 'a' at line 3
  loopscale predict: warning: emptystep.csv: 1 invalid row skipped (line 3); the first: emptystep.csv:3: column 'step': '' is empty (the step of run 'a')
  loopscale predict: RMSE 0.108966 over 1 run (loss units)
