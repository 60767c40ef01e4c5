Parameter accounting of looped MoE shapes.  Foil's Base (8, 8, 2) with untied
(per-loop) attention: d 1024, experts 1536 wide, top-2, vocabulary 49,152,
a prelude and a coda layer of 8 experts.  The paper's 553.7M total is
18 attention sets x 4,194,304 + 80 experts x 4,718,592 + routers 80 x 1024
+ 2 x 49,152 x 1024 = 553,730,048.

  $ FOIL="--d-model 1024 --d-expert 1536 --top-k 2 --vocab 49152 --head-layers 1 --tail-layers 1 --head-experts 8"
  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --attention per-loop
  Shape (E, D, L) = (8, 8, 2), top-2, d_model 1024, d_ff 3072 (experts 1536 wide), vocab 49152
    attention per-loop, 16 sets of 4194304 in the block; embeddings untied; norms without parameters
    head 1 layer x 8 experts, tail 1 layer x 8 experts, each run once
  
  Accounting identities (the block)
    E_real = E D          64
    E_comp = k D L        32
    D_eff  = D L          16
    E_eq   = E D L        128
    log10 C(E,k)^(D L)    23.1545
  
  Parameters: stored; active per token, with the block run once and L = 2 times
  part                stored  active_once  active_all_loops
  block attention   67108864     33554432          67108864
  block experts    301989888     75497472         150994944
  block routers        65536        65536            131072
  head attention     4194304      4194304           4194304
  head experts      37748736      9437184           9437184
  head routers          8192         8192              8192
  tail attention     4194304      4194304           4194304
  tail experts      37748736      9437184           9437184
  tail routers          8192         8192              8192
  non-embedding    453066752    136396800         245514240
  embedding         50331648            0                 0
  LM head           50331648     50331648          50331648
  total            553730048    186728448         295845888
    stored 553.7M (non-embedding 453.1M); active per token 295.8M (non-embedding, N_unroll: 245.5M)
  
  Sweep row (non-embedding, R = L)
    n_act,n_total,n_loop,R,E,k
    136396800,453066752,109117440,2,8,2
  
  FLOPs per token
    2 x active parameters, all loops   591691776
    total                              591691776 (591.7M)
    prelude, one loop, coda            27279360, 218234880, 127942656
  
  FLOPs per token by convention (inference 2x, training 6x the forward multiply-adds; --context N adds the attention rows)
    convention            inference        training
    6nd                   491028480      1473085440
    6nd+head              591691776      1775075328

The sweep row alone, for Foil-1 (64, 1, 16) with tied attention (490.8M in
the paper; n_total leaves out the 2 x 50,331,648 of embeddings):

  $ loopscale shape $FOIL --experts 64 --layers 1 --loops 16 --format csv
  n_act,n_total,n_loop,R,E,k
  40976384,390152192,13697024,16,64,2

The flattening ladder: E_real, E_comp and D_eff stay, E_eq doubles; per-loop
attention keeps 553.7M at every step while tied attention loses a set per
halving of D (520.2M -> 490.8M):

  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --flatten 3 | sed -n '/^Flattening/,$p'
  Flattening ladder (E, D, L) -> (2E, D/2, 2L): E_real, E_comp, D_eff fixed, E_eq doubles
  step   E  D   L  E_real  E_comp  D_eff  E_eq  log10_routes  sets_tied  sets_per_loop  total_tied_M  total_per_loop_M  n_act_M  n_loop_M  n_unroll_M  flops_per_token_M
     0   8  8   2      64      32     16   128         23.15          8             16         520.2             553.7    136.4     109.1       245.5              591.7
     1  16  4   4      64      32     16   256         33.27          4             16         503.4             553.7    81.87     54.59       245.6                592
     2  32  2   8      64      32     16   512         43.13          2             16           495             553.7    54.61     27.33       245.9              592.5
     3  64  1  16      64      32     16  1024         52.87          1             16         490.8             553.7    40.98      13.7       246.4              593.5
  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --flatten 1 --format csv
  step,E,D,L,E_real,E_comp,D_eff,E_eq,log10_routes,sets_tied,sets_per_loop,total_tied,total_per_loop,n_act,n_loop,n_unroll,flops_per_token
  0,8,8,2,64,32,16,128,23.154528501475507,8,16,520175616,553730048,136396800,109117440,245514240,591691776
  1,16,4,4,64,32,16,256,33.26689993676201,4,16,503398400,553730048,81870848,54591488,245645312,591953920

The same tables as markdown (the ladder in the report's units) or TSV:

  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --format md
  |     n_act |   n_total |    n_loop | R | E | k |
  |----------:|----------:|----------:|--:|--:|--:|
  | 136396800 | 419512320 | 109117440 | 2 | 8 | 2 |
  $ loopscale shape $FOIL --experts 8 --layers 8 --loops 2 --flatten 1 --format md
  | step |  E | D | L | E_real | E_comp | D_eff | E_eq | log10_routes | sets_tied | sets_per_loop | total_tied_M | total_per_loop_M | n_act_M | n_loop_M | n_unroll_M | flops_per_token_M |
  |-----:|---:|--:|--:|-------:|-------:|------:|-----:|-------------:|----------:|--------------:|-------------:|-----------------:|--------:|---------:|-----------:|------------------:|
  |    0 |  8 | 8 | 2 |     64 |     32 |    16 |  128 |        23.15 |         8 |            16 |        520.2 |            553.7 |   136.4 |    109.1 |      245.5 |             591.7 |
  |    1 | 16 | 4 | 4 |     64 |     32 |    16 |  256 |        33.27 |         4 |            16 |        503.4 |            553.7 |   81.87 |    54.59 |      245.6 |               592 |
  $ loopscale shape $FOIL --experts 64 --layers 1 --loops 16 --format tsv
  n_act\tn_total\tn_loop\tR\tE\tk (esc)
  40976384\t390152192\t13697024\t16\t64\t2 (esc)

muP multipliers and attention-score FLOPs over a context:

  $ loopscale shape $FOIL --experts 16 --layers 4 --loops 4 --context 4096 --mup-base-width 256 | sed -n '/^FLOPs/,$p'
  FLOPs per token
    2 x active parameters, all loops   591953920
    attention scores over 4096         301989888
    total                              893943808 (893.9M)
    prelude, one loop, coda            44056576, 176291840, 144719872
  
  FLOPs per token by convention (inference 2x, training 6x the forward multiply-adds; n_ctx 4096)
    convention            inference        training
    6nd                   491290624      1473871872
    6nd+head              591953920      1775861760
    6nd+attn              642285568      1926856704
    6nd+attn+head         742948864      2228846592
  
  muP from base width 256 to 1024 (width ratio 4)
    attention, experts, routers, LM head: init variance x 0.25 (std x 0.5), learning rate x 0.25
    embedding and norms: unchanged; looped layers need no extra factor

A dense model with grouped-query attention and norm gains: TinyLlama-1.1B's
published 1,100,048,384 parameters.

  $ loopscale shape --d-model 2048 --d-ff 5632 --vocab 32000 --layers 22 --heads 32 --kv-heads 4 --norm-params | sed -n '/^Parameters/,/^  stored/p'
  Parameters: stored; active per token, with the block run once and L = 1 time
  part                 stored  active_once  active_all_loops
  block attention   207618048    207618048         207618048
  block FFN         761266176    761266176         761266176
  block norms           90112        90112             90112
  final norm             2048         2048              2048
  non-embedding     968976384    968976384         968976384
  embedding          65536000            0                 0
  LM head            65536000     65536000          65536000
  total            1100048384   1034512384        1034512384
    stored 1.1B (non-embedding 969M); active per token 1.035B (non-embedding, N_unroll: 969M)

A shape file: the JSON output reads back, and options override it.

  $ loopscale shape $FOIL --experts 16 --layers 4 --loops 4 --attention per-loop --format json > foil3.json
  $ loopscale shape --shape foil3.json --format csv
  n_act,n_total,n_loop,R,E,k
  81870848,453066752,54591488,4,16,2
  $ loopscale shape --shape foil3.json --loops 8 --format csv
  n_act,n_total,n_loop,R,E,k
  81870848,520175616,54591488,8,16,2
  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 32000, "layers": 4, "loops": 3, "embeddings": "tied"}\n' > small.json
  $ loopscale shape --shape small.json | head -3
  Shape (E, D, L) = (1, 4, 3), top-1, d_model 512, d_ff 2048, vocab 32000
    attention tied, 4 sets of 1048576 in the block; embeddings tied; norms without parameters
  
  $ head -2 foil3.json
  {
    "format": "loopscale-shape/1",
  $ sed -n '/"shape"/,/}/p' foil3.json
    "shape": {
      "format": "loopscale-shape/1",
      "d_model": 1024,
      "d_ff": 3072,
      "d_expert": 1536,
      "top_k": 2,
      "vocab": 49152,
      "experts": 16,
      "loop_layers": 4,
      "loops": 4,
      "prelude_layers": 1,
      "coda_layers": 1,
      "prelude_experts": 8,
      "coda_experts": 8,
      "context": 0,
      "attention": "per-loop",
      "embeddings": "untied",
      "mlp": "swiglu",
      "norms": "none"
    },

Mistakes:

  $ loopscale shape --d-ff 3072 --vocab 100 --layers 2
  loopscale shape: d_model is required
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape --d-model 1024 --top-k 2 --vocab 49152 --d-expert 1000 --d-ff 3000 --layers 2
  loopscale shape: d_ff = 3000 and d_expert = 1000 disagree: d_ff must be top_k x d_expert
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --experts 1 --layers 2
  loopscale shape: experts = 1 is less than top_k = 2
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --experts 8 --layers 6 --flatten 2
  loopscale shape: flattening 2 steps: D = 6 layers cannot be halved 2 times
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --experts 8 --layers 2 --attention untied
  loopscale shape: --attention: 'untied' is not tied or per-loop
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --layers 0
  loopscale shape: --layers: '0' is outside [1, 1000000000000]
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --experts 8 --layers 2 --heads 7
  loopscale shape: heads = 7 does not divide d_model = 1024; give head_dim
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape $FOIL --layers 2 extra.json
  loopscale shape: unexpected argument 'extra.json'
  Try 'loopscale shape --help'.
  [64]
  $ printf '{"d_model": 512, "layer": 4}\n' > typo.json
  $ loopscale shape --shape typo.json
  loopscale shape: typo.json:1:18: unknown key 'layer' (docs/formats.md lists a template's keys)
  [65]
  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 10, "layers": 4, "top_k": 3}\n' > odd.json
  $ loopscale shape --shape odd.json
  loopscale shape: odd.json: d_ff = 2048 is not a multiple of top_k = 3 (experts are d_ff / top_k wide; or give d_expert)
  [65]
  $ loopscale shape --shape missing.json
  loopscale shape: missing.json: cannot open: No such file or directory
  [66]
