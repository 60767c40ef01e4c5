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
  loopscale fit: typo.json: 'wehre': not a key of a sweep profile (format, name, map, where, run, step, last, skip_invalid, loss_unit, bytes_per_token, group_tol)
  [65]
  $ printf '{"map": {"n_act": "N"}}' > noformat.json
  $ loopscale fit --law dense --profile noformat.json ckpt.csv
  loopscale fit: noformat.json: 'format': expected "loopscale-profile/1"
  [65]
  $ printf '{"format": "loopscale-profile/1", "last": "yes"}' > last.json
  $ loopscale fit --law dense --profile last.json ckpt.csv
  loopscale fit: last.json: 'last': expected true or false
  [65]
  $ printf '{"format": "loopscale-profile/1", "map": {"n_act": 3}}' > map.json
  $ loopscale fit --law dense --profile map.json ckpt.csv
  loopscale fit: map.json: 'map': expected a non-empty column name for each quantity
  [65]
  $ printf '{"format": "loopscale-profile/1", "loss_unit": "bytes"}' > unit.json
  $ loopscale fit --law dense --profile unit.json ckpt.csv
  loopscale fit: unit.json: 'loss_unit': expected "nats" or "bits"
  [65]
  $ printf '{"format": "loopscale-profile/1", "group_tol": 2}' > tol.json
  $ loopscale fit --law dense --profile tol.json ckpt.csv
  loopscale fit: tol.json: 'group_tol': expected a number between 0 and 0.5
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
