JSON Lines input: one object per line, as dashboards export run tables, read
through the same reader as CSV (maps, filters, --last, profiles, gzip), chosen
by the extension (.jsonl, .ndjson, either with .gz) or by a first byte '{'
(docs/formats.md#json-lines).

The W&B export of docs/own-sweep.md as W&B's JSON writes it: the config
nested ({"config": {"model": {"n_loops": 2}}}), metric names with '/' as
keys, tags as an array, a crashed run's loss null and a diverged one's the
string "NaN":

  $ python3 - $ROOT/examples/exports/wandb-export.csv <<'PY'
  > import csv, json, sys
  > def value(text):
  >     if text == "":
  >         return None
  >     try:
  >         x = float(text)
  >     except ValueError:
  >         return text
  >     return text if x != x else x
  > with open("export.jsonl", "w") as out:
  >     for row in csv.DictReader(open(sys.argv[1])):
  >         run = {}
  >         for key, text in row.items():
  >             if key == "Tags":
  >                 run["Tags"] = text.split(",")
  >                 continue
  >             parts = key.split(".") if key.startswith("config.") else [key]
  >             node = run
  >             for p in parts[:-1]:
  >                 node = node.setdefault(p, {})
  >             node[parts[-1]] = value(text)
  >         out.write(json.dumps(run) + "\n")
  > PY
  $ head -c 230 export.jsonl; echo
  {"run_name": "loop1-124M-5B", "State": "finished", "Tags": ["sweep-v2", "baseline"], "model/num_active_params": 124439808.0, "model/num_params": 163073280.0, "model/loop_block_params": 93329856.0, "config": {"model": {"n_loops": 1
  $ grep -c null export.jsonl; grep -c '"NaN"' export.jsonl
  4
  4

The same profile reads it, and the fit is the CSV's to the last digit:

  $ loopscale fit --law dense:bounded --profile $ROOT/examples/exports/wandb.json -o jsonl-law.json export.jsonl | grep -E '^(runs|RMSE)'
  loopscale fit: warning: column 'config.model.moe.num_experts' (E) is not read by the law dense:bounded: only the moe base reads the experts E
  loopscale fit: export.jsonl: kept the last step of each run ('run_name'): 126 earlier checkpoints left out
  loopscale fit: warning: the compute-optimal exponent a = 0.457 is poorly determined: its 95% interval from the standard errors [0.348, 0.566] is 0.22 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       42 (export.jsonl)
  RMSE       0.00821933 (loss units)
  $ loopscale fit --law dense:bounded --profile $ROOT/examples/exports/wandb.json -o csv-law.json $ROOT/examples/exports/wandb-export.csv > /dev/null 2>&1
  $ python3 -c 'import json, sys; a, b = (json.load(open(f))["params"] for f in sys.argv[1:]); print(a == b)' jsonl-law.json csv-law.json
  True

Gzip, a name that says nothing (the first byte tells), and standard input;
a filter on the tags array (its items joined by ','):

  $ gzip -c export.jsonl > export.ndjson.gz; cp export.jsonl export.txt
  $ for f in export.ndjson.gz export.txt -; do loopscale fit --law dense:bounded --profile $ROOT/examples/exports/wandb.json $f < export.jsonl 2>/dev/null | grep RMSE; done
  RMSE       0.00821933 (loss units)
  RMSE       0.00821933 (loss units)
  RMSE       0.00821933 (loss units)
  $ loopscale fit --law dense:bounded --profile $ROOT/examples/exports/wandb.json --where 'Tags~*looped' --by Tags export.jsonl 2>/dev/null | grep -c looped
  1

Keys missing from a line are empty cells, and the columns are the keys of
every line, in the order they first appear:

  $ printf '{"n_act": 1e8, "tokens": 1e10}\n{"n_act": 3e8, "tokens": 1e10, "loss": 2.9}\n\n{"loss": 2.7, "n_act": 1e9, "tokens": 2e10}\n' > sparse.jsonl
  $ loopscale predict --law $ROOT/data/truth/moe-bounded-sparse.json --where 'loss>0' sparse.jsonl
  line  n_act  n_total  n_loop  R  E  tokens    loss  pred_loss  residual
     2  3e+08    3e+08       -  1  1   1e+10  2.9000     2.8170   +0.0830
     4  1e+09    1e+09       -  1  1   2e+10  2.7000     2.5288   +0.1712
  
  RMSE 0.134557 over 2 runs (loss units)
