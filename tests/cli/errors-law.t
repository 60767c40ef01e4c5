Bad law files.  A law file is JSON ("loopscale-law/1"); only format, law and
params are required, unknown keys are ignored, and anything missing,
mistyped, non-finite or outside a parameter's domain is refused with one
line that names the file and the key, and status 65 (66 when the file
cannot be opened).  Every command that reads a law says the same.

  $ good='"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}'
  $ params='"A": 400, "alpha": 0.34, "B": 410, "beta": 0.28, "c": 1.69'
  $ check() { printf '%s\n' "$1" > law.json; loopscale predict --law law.json --n-act 1e9 --tokens 1e11; }

A law that is fine, to start from:

  $ check "{$good, \"params\": {$params}}"
  loss                       2.37941
  n_eff                      1e+09
  n_unroll                   1e+09
  rho_eff                    1
  tokens                     1e+11
  train_flops                6e+20
  inference_flops_per_token  2e+09

Not JSON, or not a JSON object (the position of a syntax error is given as
line:column):

  $ check ''
  loopscale predict: law.json: empty (no JSON document)
  [65]
  $ check "{$good, \"params\": {$params}"
  loopscale predict: law.json:1:146: not valid JSON
  [65]
  $ check "{$good, \"params\": {$params},}"
  loopscale predict: law.json:1:148: not valid JSON
  [65]
  $ check "{$good,
  > \"params\": {\"A\": 400, \"alpha\": 0.34 \"B\": 410}}"
  loopscale predict: law.json:2:36: not valid JSON
  [65]
  $ check '[400, 0.34, 410, 0.28, 1.69]'
  loopscale predict: law.json: expected a JSON object at the top
  [65]
  $ check '"loopscale-law/1"'
  loopscale predict: law.json: expected a JSON object at the top
  [65]
  $ check "{$good, \"params\": {\"A\": NaN, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:92: 'NaN' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a missing value as null
  [65]
  $ printf '\211PNG\r\n\032\n\000\000' > law.json
  $ loopscale predict --law law.json --n-act 1e9 --tokens 1e11
  loopscale predict: law.json:1:1: not valid JSON
  [65]

The format:

  $ check "{\"law\": {\"base\": \"dense\", \"mapping\": \"none\"}, \"params\": {$params}}"
  loopscale predict: law.json: missing key 'format'
  [65]
  $ check "{\"format\": \"loopscale-law/2\", \"law\": {\"base\": \"dense\", \"mapping\": \"none\"}, \"params\": {$params}}"
  loopscale predict: law.json:1:2: format: 'loopscale-law/2' is not loopscale-law/1
  [65]
  $ check "{\"format\": 1, \"law\": {\"base\": \"dense\", \"mapping\": \"none\"}, \"params\": {$params}}"
  loopscale predict: law.json:1:2: format: expected a string
  [65]

The law:

  $ check "{\"format\": \"loopscale-law/1\", \"params\": {$params}}"
  loopscale predict: law.json: missing key 'law'
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": \"dense\", \"params\": {$params}}"
  loopscale predict: law.json:1:31: law: expected an object
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\"}, \"params\": {$params}}"
  loopscale predict: law.json:1:31: missing key 'law.mapping'
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"sparse\", \"mapping\": \"none\"}, \"params\": {$params}}"
  loopscale predict: law.json:1:31: law: unknown law 'sparse:none'
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": \"cubic\"}, \"params\": {$params}}"
  loopscale predict: law.json:1:31: law: unknown law 'dense:cubic'
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": 2}, \"params\": {$params}}"
  loopscale predict: law.json:1:56: law.mapping: expected a string
  [65]

Parameters missing, mistyped, of another law, not finite:

  $ check "{$good}"
  loopscale predict: law.json: missing key 'params'
  [65]
  $ check "{$good, \"params\": [400, 0.34, 410, 0.28, 1.69]}"
  loopscale predict: law.json:1:76: params: expected an object
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": 410, \"c\": 1.69}}"
  loopscale predict: law.json:1:76: missing key 'params.beta'
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": \"0.34\", \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpha: expected a number
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": null, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpha: expected a number
  [65]
  $ check "{$good, \"params\": {$params, \"theta\": 0.3}}"
  loopscale predict: law.json:1:147: params.theta: not a parameter of dense:none
  [65]
  $ check "{$good, \"params\": {$params, \"learning_rate\": 0.3}}"
  loopscale predict: law.json:1:147: params.learning_rate: not a parameter of dense:none
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpah\": 0.34, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpah: not a parameter of dense:none
  [65]
  $ check "{$good, \"params\": {\"A\": 1e999, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:92: '1e999' is outside double precision
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": -1e400, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:106: '-1e400' is outside double precision
  [65]

Parameters outside their domain:

  $ check "{$good, \"params\": {\"A\": -400, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:87: params.A: parameter A = -400 must be positive
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": 0, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:112: params.B: parameter B = 0 must be positive
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": -1.69}}"
  loopscale predict: law.json:1:136: params.c: parameter c = -1.69 is outside its domain [0, inf)
  [65]
  $ moe='"format": "loopscale-law/1", "law": {"base": "moe", "mapping": "bounded-sparse"}'
  $ mp='"delta": -0.1, "gamma": 0.005, "omega": 0, "zeta": 0, "kappa1": 1.2, "kappa2": 1.5'
  $ check "{$moe, \"params\": {$params, $mp, \"E_max\": 1, \"theta\": 0.35}}"
  loopscale predict: law.json:1:239: params.E_max: parameter E_max = 1 is outside its domain (1, inf)
  [65]
  $ check "{$moe, \"params\": {$params, $mp, \"E_max\": 300, \"theta\": -0.35}}"
  loopscale predict: law.json:1:253: params.theta: parameter theta = -0.35 is outside its domain [0, 5]
  [65]
  $ check "{$moe, \"params\": {$params, $mp, \"E_max\": 300, \"E_start\": 400, \"theta\": 0.35}}"
  loopscale predict: law.json:1:84: params: E_start must be less than E_max
  [65]
  $ check "{$moe, \"params\": {$params, \"delta\": -0.1, \"gamma\": 0.005, \"omega\": 0, \"zeta\": 0, \"kappa1\": 1.2, \"kappa2\": 0, \"E_max\": 300, \"theta\": 0.35}}"
  loopscale predict: law.json:1:224: params.kappa2: parameter kappa2 = 0 must be positive
  [65]

Each parameter's domain is defined once, beside the parameter table
(docs/laws.md): scales are positive normal numbers, alpha and beta are in
(0, 5] (written positive: a negative one is a law typed in with the Loop
Scaling Laws paper's signs), the MoE exponents in [-5, 5], phi in (0, 5],
theta in [0, 5]:

  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": -0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpha: parameter alpha = -0.34 is outside its domain (0, 5] (exponents are written positive: the paper's -0.34 is 0.34 here; docs/laws.md)
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpha: parameter alpha = 0 is outside its domain (0, 5]
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 50, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:97: params.alpha: parameter alpha = 50 is outside its domain (0, 5]
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": 410, \"beta\": -0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:122: params.beta: parameter beta = -0.28 is outside its domain (0, 5] (exponents are written positive: the paper's -0.28 is 0.28 here; docs/laws.md)
  [65]
  $ check "{$good, \"params\": {\"A\": 4e-320, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:87: params.A: parameter A = 4e-320 is below the smallest normal double (2.2250738585072014e-308); a subnormal value has lost its precision
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": -410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:112: params.B: parameter B = -410 must be positive
  [65]
  $ check "{$good, \"params\": {\"A\": 400, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1e-310}}"
  loopscale predict: law.json:1:136: params.c: parameter c = 1e-310 is below the smallest normal double (2.2250738585072014e-308); a subnormal value has lost its precision
  [65]
  $ check "{$moe, \"params\": {$params, \"delta\": -0.1, \"gamma\": 6, \"omega\": 0, \"zeta\": 0, \"kappa1\": 1.2, \"kappa2\": 1.5, \"E_max\": 300, \"theta\": 0.35}}"
  loopscale predict: law.json:1:170: params.gamma: parameter gamma = 6 is outside its domain [-5, 5]
  [65]
  $ check "{$moe, \"params\": {$params, \"delta\": -0.1, \"gamma\": 0.005, \"omega\": -5.5, \"zeta\": 0, \"kappa1\": 1.2, \"kappa2\": 1.5, \"E_max\": 300, \"theta\": 0.35}}"
  loopscale predict: law.json:1:186: params.omega: parameter omega = -5.5 is outside its domain [-5, 5]
  [65]
  $ check "{$moe, \"params\": {$params, $mp, \"E_max\": 300, \"theta\": 7}}"
  loopscale predict: law.json:1:253: params.theta: parameter theta = 7 is outside its domain [0, 5]
  [65]
  $ check "{$moe, \"params\": {$params, $mp, \"E_max\": 300, \"E_start\": 1e-315, \"theta\": 0.35}}"
  loopscale predict: law.json:1:253: params.E_start: parameter E_start = 1e-315 is below the smallest normal double (2.2250738585072014e-308); a subnormal value has lost its precision
  [65]
  $ check "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": \"power\"}, \"params\": {$params, \"phi\": 12}}"
  loopscale predict: law.json:1:148: params.phi: parameter phi = 12 is outside its domain (0, 5]
  [65]
  $ check "{$good, \"params\": {$params}, \"bootstrap\": {\"params\": [\"alpha\"], \"draws\": [[0.34], [-0.1]]}}"
  loopscale predict: law.json:1:183: bootstrap.draws[1]: parameter alpha = -0.1 is outside its domain (0, 5]
  [65]

The optional parts, when present, are checked as strictly:

  $ check "{$good, \"params\": {$params}, \"fixed\": [\"theta\"]}"
  loopscale predict: law.json:1:148: fixed: 'theta' is not a parameter of dense
  [65]
  $ check "{$good, \"params\": {$params}, \"stderr\": {\"A\": \"big\"}}"
  loopscale predict: law.json:1:159: stderr.A: expected a number
  [65]
  $ check "{$good, \"params\": {$params}, \"ci\": {\"A\": [1, 2]}}"
  loopscale predict: law.json:1:148: missing key 'ci.level'
  [65]
  $ check "{$good, \"params\": {$params}, \"ci\": {\"level\": 0.95, \"A\": [1]}}"
  loopscale predict: law.json:1:170: ci.A: expected [low, high]
  [65]
  $ check "{$good, \"params\": {$params}, \"bootstrap\": {\"params\": [\"A\", \"alpha\"], \"draws\": [[400, 0.34], [401]]}}"
  loopscale predict: law.json:1:188: bootstrap.draws[1]: expected one number per name in bootstrap.params
  [65]
  $ check "{$good, \"params\": {$params}, \"bootstrap\": {\"params\": [\"A\"], \"draws\": [[-400]]}}"
  loopscale predict: law.json:1:179: bootstrap.draws[0]: parameter A = -400 must be positive
  [65]
  $ check "{$good, \"params\": {$params}, \"fit\": {\"objective\": 0.1}}"
  loopscale predict: law.json:1:148: missing key 'fit.delta'
  [65]
  $ check "{$good, \"params\": {$params}, \"created_by\": {\"version\": 1}}"
  loopscale predict: law.json:1:163: created_by.version: expected a string
  [65]

Missing files and directories:

  $ loopscale predict --law nowhere.json --n-act 1e9 --tokens 1e11
  loopscale predict: nowhere.json: cannot open: No such file or directory
  [66]
  $ loopscale predict --law . --n-act 1e9 --tokens 1e11
  loopscale predict: .: is a directory
  [66]

Every command that reads a law refuses a bad one the same way:

  $ printf '%s\n' "{$good, \"params\": {\"A\": -400, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}" > law.json
  $ loopscale predict --law law.json $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale predict: law.json:1:87: params.A: parameter A = -400 must be positive
  [65]
  $ loopscale solve --law law.json --flops 1e21
  loopscale solve: law.json:1:87: params.A: parameter A = -400 must be positive
  [65]
  $ loopscale isoflop --law law.json --flops 1e21
  loopscale isoflop: law.json:1:87: params.A: parameter A = -400 must be positive
  [65]
  $ loopscale simulate --law law.json --n-act 1e9 --tokens 1e11
  loopscale simulate: law.json:1:87: params.A: parameter A = -400 must be positive
  [65]

Architecture templates (solve, isoflop and simulate --template) are checked
the same way:

  $ tcheck() { printf '%s\n' "$1" > t.json; loopscale solve --flops 1e21 --template t.json; }
  $ tcheck '{"top_k": 2'
  loopscale solve: t.json:1:12: not valid JSON
  [65]
  $ tcheck '[1, 2]'
  loopscale solve: t.json: expected a JSON object at the top
  [65]
  $ tcheck '{"format": "loopscale-template/9"}'
  loopscale solve: t.json:1:2: format: expected "loopscale-template/1" (or "loopscale-shape/1")
  [65]
  $ tcheck '{"attention_share": 1}'
  loopscale solve: t.json:1:2: attention_share: 1 is not a number in [0, 1)
  [65]
  $ tcheck '{"attention_share": "a third"}'
  loopscale solve: t.json:1:2: attention_share: expected a number
  [65]
  $ tcheck '{"top_k": 0}'
  loopscale solve: t.json:1:2: top_k: 0 is not an integer from 1 to 1000000000000
  [65]
  $ tcheck '{"top_k": 1.5}'
  loopscale solve: t.json:1:2: top_k: 1.5 is not an integer from 1 to 1000000000000
  [65]
  $ tcheck '{"loop_layers": 0}'
  loopscale solve: t.json:1:2: loop_layers: 0 is not an integer from 1 to 1000000000000
  [65]
  $ tcheck '{"prelude_layers": -1}'
  loopscale solve: t.json:1:2: prelude_layers: -1 is not an integer from 0 to 1000000000000
  [65]
  $ tcheck '{"coda_layers": 1e999}'
  loopscale solve: t.json:1:17: '1e999' is outside double precision
  [65]
  $ loopscale isoflop --flops 1e21 --template nowhere.json
  loopscale isoflop: nowhere.json: cannot open: No such file or directory
  [66]
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e9 --tokens 1e11 --template .
  loopscale simulate: .: is a directory
  [66]
