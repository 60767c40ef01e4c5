Templates that describe a model, the architecture a law file records, and
sweeps that give each run's configuration instead of its counts.

  $ T=$ROOT/data/templates
  $ cp $T/looped-nanochat.json t.json

A template that describes a model needs its width and its loop block, and
its shares are its own (derived, checked when read back):

  $ printf '{"d_ff": 3072, "loop_layers": 4}' > nowidth.json
  $ loopscale solve --template nowidth.json --flops 1e21
  loopscale solve: nowidth.json: d_model is required in a template that describes a model (it gives d_ff)
  [65]
  $ printf '{"d_model": 768, "d_ff": 3072, "loop_layers": 4, "routed_share": 0.5}' > derived.json
  $ loopscale solve --template derived.json --flops 1e21
  loopscale solve: derived.json:1:50: routed_share: 0.5 disagrees with the model's widths and layers (0.75); it is derived from them, so change them or remove it
  [65]
  $ printf '{"attention_share": 0.3, "heads": 8}' > half.json
  $ loopscale solve --template half.json --flops 1e21
  loopscale solve: half.json:1:26: heads: describes a model, which a template counts only with its FFN width: give d_ff (or d_expert) and d_model
  [65]
  $ printf '{"layers": 4, "loop_layers": 4}' > twice.json
  $ loopscale solve --template twice.json --flops 1e21
  loopscale solve: twice.json:1:15: loop_layers: the same as 'layers', given too; give one
  [65]
  $ printf '{"d_model": 768, "d_ff": 3072, "loop_layers": 4, "injection": "sum"}' > inj.json
  $ loopscale solve --template inj.json --flops 1e21
  loopscale solve: inj.json:1:50: injection: expected "none", "concat" or "add"
  [65]
  $ printf '{"d_model": 768, "d_ff": 3072, "loop_layers": 4, "heads": 7}' > heads.json
  $ loopscale solve --template heads.json --flops 1e21
  loopscale solve: heads.json: heads = 7 does not divide d_model = 768; give head_dim
  [65]
  $ printf '{"routed_share": 1.5}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:2: routed_share: 1.5 is not a number in [0, 1]
  [65]
  $ printf '{"loop_share": 0}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:2: loop_share: 0 is not a number in (0, 1]
  [65]

A law file's architecture is checked when it is read:

  $ loopscale fit --law dense -o law.json $ROOT/data/sweeps/looped-dense.csv.gz > /dev/null 2>&1
  $ python3 -c 'import json; d = json.load(open("law.json")); d["architecture"]["source"] = "guessed"; json.dump(d, open("bad1.json", "w"))'
  $ loopscale solve --law bad1.json --flops 1e21
  loopscale solve: bad1.json:1:*: architecture.source: expected "template", "default" or "runs" (glob)
  [65]
  $ python3 -c 'import json; d = json.load(open("law.json")); d["architecture"]["configurations"][0]["n_total_ratio"] = [2, 1]; json.dump(d, open("bad2.json", "w"))'
  $ loopscale solve --law bad2.json --flops 1e21
  loopscale solve: bad2.json:1:*: architecture.configurations[0].n_total_ratio: low is greater than high (glob)
  [65]
  $ python3 -c 'import json; d = json.load(open("law.json")); d["architecture"]["template"]["top-k"] = 2; json.dump(d, open("bad3.json", "w"))'
  $ loopscale solve --law bad3.json --flops 1e21
  loopscale solve: bad3.json:1:*: architecture.template: unknown key 'top-k' (docs/formats.md lists a template's keys) (glob)
  [65]
  $ python3 -c 'import json; d = json.load(open("law.json")); d["architecture"]["assumed"] = ["everything"]; json.dump(d, open("bad4.json", "w"))'
  $ loopscale solve --law bad4.json --flops 1e21
  loopscale solve: bad4.json:1:*: architecture.assumed: expected routed_share, fixed_share, per_loop_share or loop_share (glob)
  [65]

Configuration columns: what cannot be counted is refused with the line and
the column.

  $ printf '{"d_model": 768, "d_ff": 3000, "mlp": "relu2", "loop_layers": 4, "heads": 6}' > odd.json
  $ printf 'd_model,heads,loop_layers,tokens,loss\n512,4,4,1e9,3.1\n500,4,4,1e9,3.0\n' > bad.csv
  $ loopscale fit --law dense --template odd.json bad.csv
  loopscale fit: bad.csv:3: the template's d_ff = 3000 scaled to d_model = 500 is 1953.12, not a whole number: give d_ff as a column
  [65]
  $ printf 'd_model,d_ff,heads,loop_layers,tokens,loss\n512,2048,4,4,1e9,3.1\n500,2000,7,4,1e9,3.0\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:3: the run's configuration: heads = 7 does not divide d_model = 500; give head_dim
  [65]
  $ printf 'd_model,mlp,loop_layers,tokens,loss\n512,geglu,4,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:2: column 'mlp': 'geglu' is not a value of mlp (docs/formats.md#templates)
  [65]
  $ printf 'd_model,loop_layers,tie_embeddings,tokens,loss\n512,4,maybe,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:2: column 'tie_embeddings': 'maybe' is not true or false (tie_embeddings)
  [65]
  $ printf 'd_model,loop_layers,tokens,loss\n512.5,4,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:2: column 'd_model': '512.5' is not a whole number from 0 to 1e12 (d_model)
  [65]
  $ printf 'd_model,n_total,loop_layers,tokens,loss\n512,1e8,4,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:1: column 'n_total' gives n_total, but no column gives n_act: give the counts (n_act, n_total, n_loop) or the configuration they are counted from, not some of each
  [65]
  $ printf 'd_model,n_embd,loop_layers,tokens,loss\n512,512,4,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense --template t.json bad.csv
  loopscale fit: bad.csv:1: column 'd_model' and column 'n_embd' both give d_model
  [65]
  $ printf 'd_model,loop_layers,tokens,loss\n512,4,1e9,3.1\n' > bad.csv
  $ loopscale fit --law dense bad.csv
  loopscale fit: bad.csv:2: the run's configuration: d_ff or d_expert is required
  [65]
  $ printf '{"format": "loopscale-profile/1", "template": {"attention_share": 0.3}}' > p.json
  $ loopscale fit --law dense --profile p.json bad.csv
  loopscale fit: p.json:1:35: template: gives no model (d_model, d_ff, the layers...) for the configuration columns to complete
  [65]
