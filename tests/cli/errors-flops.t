How training FLOPs are counted (docs/flops.md): a convention's name is one of
four; one that counts attention needs the context, one that counts the LM
head needs the vocabulary, and both need a width; a sweep counted one way and
read another is refused where its two columns disagree.

  $ cat > truth.json <<'JSON'
  > {"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
  >  "params": {"A": 482.01, "alpha": 0.3478, "B": 2085.43, "beta": 0.3658, "c": 1.817}}
  > JSON

Names (usage errors, status 64; in a template, bad data, status 65):

  $ loopscale solve --law truth.json --flops 1e21 --flops-convention 6ND
  loopscale solve: --flops-convention: '6ND' is not one of 6nd, 6nd+head, 6nd+attn, 6nd+attn+head
  Try 'loopscale solve --help'.
  [64]
  $ loopscale fit --flops-convention kaplan truth.json
  loopscale fit: --flops-convention: 'kaplan' is not one of 6nd, 6nd+head, 6nd+attn, 6nd+attn+head
  Try 'loopscale fit --help'.
  [64]
  $ echo '{"flops_convention": "6nd+head+attn"}' > order.json
  $ loopscale simulate --law truth.json --template order.json --n-act 1e8 --tokens 1e10
  loopscale simulate: order.json:1:2: flops_convention: expected "6nd", "6nd+head", "6nd+attn" or "6nd+attn+head"
  [65]
  $ echo '{"context": -1}' > zero.json
  $ loopscale isoflop --law truth.json --template zero.json --flops 1e21
  loopscale isoflop: zero.json:1:2: context: -1 is not an integer from 0 to 1000000000000
  [65]
  $ echo '{"vocab": "50k"}' > text.json
  $ loopscale solve --law truth.json --template text.json --flops 1e21
  loopscale solve: text.json:1:2: vocab: expected an integer of at least 1
  [65]

What a convention needs (usage errors, before any work):

  $ loopscale solve --law truth.json --flops 1e21 --flops-convention 6nd+attn
  loopscale solve: truth.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: FLOP convention 6nd+attn counts attention over the context: the template needs "context"
  Try 'loopscale solve --help'.
  [64]
  $ echo '{"context": 2048}' > ctx.json
  $ loopscale isoflop --law truth.json --flops 1e21 --template ctx.json --flops-convention 6nd+attn+head
  loopscale isoflop: FLOP convention 6nd+attn+head counts the LM head: the template needs "vocab"
  Try 'loopscale isoflop --help'.
  [64]
  $ echo '{"vocab": 32000, "attention_share": 0}' > nowidth.json
  $ loopscale simulate --law truth.json --template nowidth.json --flops-convention 6nd+head --n-act 1e8 --tokens 1e10
  loopscale simulate: FLOP convention 6nd+head needs the width: the template needs "d_model" or an attention_share above 0
  Try 'loopscale simulate --help'.
  [64]

A sweep whose flops were counted with attention, read as 6nd, by each
command that reads sweeps (the row's tokens and flops disagree):

  $ printf 'n_act,n_total,n_loop,R,E,k,tokens,flops,loss\n1e8,1e8,7.5e7,2,1,1,1e10,1.4e19,2.9\n' > attn.csv
  $ loopscale predict --law truth.json attn.csv
  loopscale predict: attn.csv:2: column 'flops': '1.4e19' gives tokens D = F / (6 N_unroll) = 1.33333e+10, but column 'tokens' is '1e10' (more than 0.0001 apart, relative)
  [65]
  $ loopscale fit --law dense attn.csv
  loopscale fit: attn.csv:2: column 'flops': '1.4e19' gives tokens D = F / (6 N_unroll) = 1.33333e+10, but column 'tokens' is '1e10' (more than 0.0001 apart, relative)
  [65]
  $ loopscale fit --law dense --template ctx.json --flops-convention 6nd+attn attn.csv
  loopscale fit: attn.csv:2: column 'flops': '1.4e19' gives tokens D = F / (6 (N_unroll + n_layers n_ctx d)) = 1.07833e+10, but column 'tokens' is '1e10' (more than 0.0001 apart, relative)
  [65]

isofit counts budgets as 6nd and takes no convention; it says how to read
the tokens alone:

  $ loopscale isofit attn.csv
  loopscale isofit: attn.csv:2: column 'flops': '1.4e19' gives tokens D = F / (6 N_unroll) = 1.33333e+10, but column 'tokens' is '1e10' (more than 0.0001 apart, relative); isofit counts budgets as F = 6 N_unroll D and takes no --flops-convention: to group by the tokens alone, rename the flops column (--map flops_logged=flops)
  [65]
  $ loopscale isofit --map flops_logged=flops attn.csv
  loopscale isofit: attn.csv: 0 of 1 budgets have an interior optimum; the power law needs two (a budget needs 3 runs at 3 or more sizes, with the lowest loss inside them); left out: 1 too few runs
  [65]

A law file whose recorded convention is damaged:

  $ sed 's/"mapping": "none"}/"mapping": "none"}, "fit": {"objective": 0, "loss": "huber", "delta": 0.001, "space": "log", "n": 9, "rmse": 0.01, "starts": 1, "starts_at_best": 1, "converged": true, "data": [], "filters": [], "flops_convention": {"name": "6nd+attn", "prelude_layers": 2, "loop_layers": 12, "coda_layers": 2}}/' truth.json > nocontext.json
  $ loopscale solve --law nocontext.json --flops 1e21
  loopscale solve: nocontext.json:1:251: fit.flops_convention: FLOP convention 6nd+attn counts attention over the context: the template needs "context"
  [65]
