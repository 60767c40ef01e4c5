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

Counts a template holds as whole numbers (top_k and the layers) are checked
before anything is done with them: a value beyond a million is refused with
its key, in the shares' form and a model's alike, not wrapped around:

  $ big() { echo "$1" > big.json; loopscale solve --template big.json --flops 1e21; }
  $ big '{"top_k": 4294967297}'
  loopscale solve: big.json:1:2: top_k: 4294967297 is more than 1000000
  [65]
  $ big '{"top_k": 2147483648}'
  loopscale solve: big.json:1:2: top_k: 2147483648 is more than 1000000
  [65]
  $ big '{"loop_layers": 4294967295}'
  loopscale solve: big.json:1:2: loop_layers: 4294967295 is more than 1000000
  [65]
  $ big '{"prelude_layers": 4294967296, "loop_layers": 4294967296, "coda_layers": 4294967296}'
  loopscale solve: big.json:1:2: prelude_layers: 4294967296 is more than 1000000
  [65]
  $ big '{"d_model": 768, "d_ff": 3072, "loop_layers": 4, "top_k": 4294967297}'
  loopscale solve: big.json:1:50: top_k: 4294967297 is more than 1000000
  [65]

Keys beside the "shape" object of `shape --format json`'s output are read
past only when they are that output's own; a template's key there is
refused (it would count for nothing), and so is an unknown one:

  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "loop_layers": 4}, "routed_share": 0.01}' > outer.json
  $ loopscale solve --template outer.json --flops 1e21
  loopscale solve: outer.json:1:61: routed_share: outside the "shape" object, which is what is read; move it inside
  [65]
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "loop_layers": 4}, "flops_convention": "6nd+head"}' > outer.json
  $ loopscale solve --template outer.json --flops 1e21
  loopscale solve: outer.json:1:61: flops_convention: outside the "shape" object, which is what is read; move it inside
  [65]
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "loop_layers": 4}, "top-k": 2}' > outer.json
  $ loopscale solve --template outer.json --flops 1e21
  loopscale solve: outer.json:1:61: unknown key 'top-k' beside the "shape" object (only that object and the other members of `loopscale shape --format json` may stand there)
  [65]

Shares that cannot all hold: attention and the routed experts are both
parts of N_act; a loop share below 1 with no layer outside the block (or 1
with some); loop_fraction, the older name of loop_share, against it:

  $ printf '{"attention_share": 0.9, "routed_share": 0.9}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:26: routed_share: 0.9 and attention_share 0.9 add up to more than 1: attention and the routed experts are both parts of N_act
  [65]
  $ printf '{"loop_share": 0.5, "prelude_layers": 0, "coda_layers": 0}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:2: loop_share: 0.5 cannot hold with 0 prelude and 0 coda layers (with no layer outside the block, all of N_act is in it: 1)
  [65]
  $ printf '{"loop_share": 1, "prelude_layers": 2}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:2: loop_share: 1 cannot hold with 2 prelude and 2 coda layers (layers outside the block hold part of N_act)
  [65]
  $ printf '{"loop_share": 0.5, "loop_fraction": 0.75}' > share.json
  $ loopscale solve --template share.json --flops 1e21
  loopscale solve: share.json:1:21: loop_fraction: 0.75 disagrees with loop_share (0.5), its newer name; remove it
  [65]

A FLOP convention the template cannot count with its own keys is bad data
in the file, named; so are a stage's heads where the stage has no layers,
and a model whose loop block has no layer for the experts being chosen:

  $ printf '{"flops_convention": "6nd+attn"}' > conv.json
  $ loopscale solve --template conv.json --flops 1e21
  loopscale solve: conv.json:1:2: flops_convention: FLOP convention 6nd+attn counts attention over the context: the template needs "context"
  [65]
  $ printf '{"d_model": 512, "d_ff": 2048, "loop_layers": 4, "flops_convention": "6nd+head"}' > conv.json
  $ loopscale solve --template conv.json --flops 1e21
  loopscale solve: conv.json:1:50: flops_convention: FLOP convention 6nd+head counts the LM head: the template needs "vocab"
  [65]
  $ printf '{"d_model": 512, "d_ff": 2048, "loop_layers": 4, "coda_heads": 1}' > stage.json
  $ loopscale solve --template stage.json --flops 1e21
  loopscale solve: stage.json:1:50: coda_heads: the coda has no layers (coda_layers is 0, the default), so it counts for nothing
  [65]
  $ printf '{"d_model": 512, "d_ff": 2048, "loop_layers": 4, "moe_layers": 0, "prelude_layers": 2, "prelude_experts": 8}' > moe0.json
  $ loopscale solve --template moe0.json --flops 1e21
  loopscale solve: moe0.json:1:50: moe_layers: 0 leaves no loop-block layer for the experts E being chosen (a template's E is the loop block's); give moe_layers of at least 1
  [65]

shape names what was given: top_k with no experts (a dense block by
default), and shared experts beside no routed ones:

  $ printf '{"d_model": 512, "d_ff": 2048, "loop_layers": 4, "top_k": 2}' > k2.json
  $ loopscale shape --shape k2.json --vocab 100
  loopscale shape: k2.json: top_k = 2 needs experts: give at least 2 (by default a block layer has one, a dense FFN)
  [65]
  $ loopscale shape --d-model 512 --d-ff 2048 --layers 4 --vocab 100 --shared-experts 2
  loopscale shape: shared_experts = 2: no layer has routed experts (experts = 1), and shared experts sit beside them; give experts
  Try 'loopscale shape --help'.
  [64]

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

Each configuration as a sweep's runs may have it (E and R within their
ranges, k at most E, runs at least 1, N_total / N_act at least 1 and
N_loop / N_act at most 1), each once; the residuals those the template
gives at the configurations (a hand edit of the template or of a
configuration changes them); the template's top_k the runs' k, and its
FLOP convention the fit's; the source what the residuals allow:

  $ edit() { python3 -c "import json; d = json.load(open('law.json')); a = d['architecture']; c = a['configurations']; $1; json.dump(d, open('bad.json', 'w'))"; loopscale solve --law bad.json --flops 1e21 2>&1 | sed 's/bad.json:1:[0-9]*:/bad.json:/'; return ${PIPESTATUS[0]}; }
  $ edit 'c[0]["E"] = 1e300'
  loopscale solve: bad.json: architecture.configurations[0].E: expected a whole number from 1 to 1e+06
  [65]
  $ edit 'c[0]["k"] = 4'
  loopscale solve: bad.json: architecture.configurations[0].k: more experts per token than experts (E)
  [65]
  $ edit 'c[0]["runs"] = 0'
  loopscale solve: bad.json: architecture.configurations[0].runs: expected a count of at least 1 (a configuration is the runs')
  [65]
  $ edit 'c[0]["n_total_ratio"] = [0.1, 0.2]'
  loopscale solve: bad.json: architecture.configurations[0].n_total_ratio: expected ratios N_total / N_act of at least 1
  [65]
  $ edit 'c[0]["n_loop_ratio"] = [5, 6]'
  loopscale solve: bad.json: architecture.configurations[0].n_loop_ratio: expected ratios N_loop / N_act of at most 1
  [65]
  $ edit 'c.append(c[0])'
  loopscale solve: bad.json: architecture.configurations: E = 1, R = 1, k = 1 is listed twice (at [0] and [7])
  [65]
  $ edit 'a["configurations"] = []'
  loopscale solve: bad.json: architecture.configurations: expected at least one configuration (the runs')
  [65]
  $ edit 'a["residual"]["n_total"] = 1e308'
  loopscale solve: bad.json: architecture.residual.n_total: 1e+308 is more than 1e9, beyond any relative difference of parameter counts
  [65]
  $ edit 'a["template"]["loop_share"] = 0.2'
  loopscale solve: bad.json: architecture.residual.n_loop: 0 is not what the template gives at the configurations (0.733333): the template or the configurations were edited
  [65]
  $ edit 'a["template"]["top_k"] = 2'
  loopscale solve: bad.json: architecture.template.top_k: 2, but the runs it records have k = 1 at the least
  [65]
  $ edit 'a["template"]["flops_convention"] = "6nd+head"; a["template"]["vocab"] = 32000'
  loopscale solve: bad.json: architecture.template.flops_convention: 6nd+head, but the fit counted FLOPs as 6nd (fit.flops_convention)
  [65]
  $ edit 'a["template"]["attention_share"] = 0.25; a["template"]["routed_share"] = 0.75'
  loopscale solve: bad.json: architecture.source: "default", but the template is not the default
  [65]
  $ edit 'a["assumed"] = ["routed_share"]'
  loopscale solve: bad.json: architecture.assumed: only shares fitted to the runs (source "runs") assume any
  [65]
  $ edit 'a["assumed"] = ["loop_share", "loop_share"]'
  loopscale solve: bad.json: architecture.assumed: 'loop_share' is listed twice
  [65]
  $ edit 'a["template"]["routed_share"] = 0.9; a["template"]["attention_share"] = 0.9'
  loopscale solve: bad.json: architecture.template: routed_share: 0.9 and attention_share 0.9 add up to more than 1: attention and the routed experts are both parts of N_act
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

Shared experts beside no routed ones are refused in a run's configuration
columns as shape refuses them (one check for both):

  $ printf 'd_model,loop_layers,d_ff,vocab,shared_experts,E,k,R,tokens,loss\n128,1,256,1000,1,1,1,4,1e10,3\n' > shared.csv
  $ loopscale predict --law $ROOT/data/truth/moe-bounded-sparse.json shared.csv
  loopscale predict: shared.csv:2: the run's configuration: shared_experts = 1: no layer has routed experts (experts = 1), and shared experts sit beside them; give experts
  [65]
