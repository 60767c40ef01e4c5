Law, template and shape files are each one JSON document: anything after it
but white space (a second object, a stray word) is refused, and so is a key
given twice in any object (JSON parsers disagree on which one wins; loopscale
takes neither).  Every field a command uses is checked where the file is
read, with the file and the key named and status 65.

  $ good='"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}'
  $ params='"A": 400, "alpha": 0.34, "B": 410, "beta": 0.28, "c": 1.69'
  $ check() { printf '%s\n' "$1" > law.json; loopscale predict --law law.json --n-act 1e9 --tokens 1e11 > out; s=$?; head -1 out; return $s; }

A law file with a fit section that is fine, to start from, and a function
that changes one thing in it (a sed expression) and asks solve:

  $ cat > fitted.json <<'END'
  > {"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
  >  "params": {"A": 400, "alpha": 0.34, "B": 410, "beta": 0.28, "c": 1.69}, "stderr": {"A": 40, "alpha": 0.02, "B": 50, "beta": 0.02, "c": 0.05},
  >  "fit": {"objective": 0.1, "loss": "huber", "delta": 0.001, "space": "log", "n": 20, "rmse": 0.004,
  >    "starts": 4, "starts_at_best": 2, "converged": true,
  >    "data": [{"file": "s.csv", "sha256": "a84a978f5cde6b6d6fde5d4de4d2676506da8d84e34d73aa918b7b0041a7ed3f"}],
  >    "filters": [],
  >    "ranges": {"n_act": [3e8, 1e9], "tokens": [1e11, 5e11], "R": [1, 16], "E": [1, 16]}}}
  > END
  $ scheck() { sed "$1" fitted.json > law.json; loopscale solve --law law.json --flops 1e21 --mem 1e12 > out; s=$?; sed -n 3p out; return $s; }
  $ scheck ''
  loopscale solve: law.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.783e+09 (fitted 3e+08 to 1e+09), D = 9.348e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  epsilon  0.004 (loss units)

The compute-optimal exponent a and its interval (fit.optimum) must hold
together; frontier states the interval beside a when a is this law's own:

  $ O='s/"E": \[1, 16\]}/&, "optimum": {"a": 0.45161290322580644, "interval": [0.4, 0.5], "level": 0.9, "draws": 200}/'
  $ sed "$O" fitted.json > opt.json
  $ loopscale frontier --law opt.json --flops 1e21 2> /dev/null | sed -n 2,3p
  exponents  N_opt ~ F^0.4516, D_opt ~ F^0.5484
             a in [0.4000, 0.5000] (90% of 200 draws)
  $ sed "$O" fitted.json | sed 's/"alpha": 0.34,/"alpha": 0.3,/' > other.json
  $ loopscale frontier --law other.json --flops 1e21 2> /dev/null | sed -n 3p
  
  $ scheck "$(printf '%s' "$O" | sed 's/\[0.4, 0.5\]/[0.5, 0.6]/')"
  loopscale solve: law.json:7:127: fit.optimum.interval: does not hold fit.optimum.a
  [65]
  $ scheck "$(printf '%s' "$O" | sed 's/"level": 0.9/"level": 90/')"
  loopscale solve: law.json:7:151: fit.optimum.level: must be between 0 and 1
  [65]

Text after the document:

  $ check "{$good, \"params\": {$params}} xyz"
  loopscale predict: law.json:1:148: text after the end of the JSON document
  [65]
  $ check "{$good, \"params\": {$params}}{$good, \"params\": {\"A\": 5000, \"alpha\": 0.34, \"B\": 410, \"beta\": 0.28, \"c\": 1.69}}"
  loopscale predict: law.json:1:147: text after the end of the JSON document
  [65]
  $ check "{$good, \"params\": {$params}}
  > 
  > ]"
  loopscale predict: law.json:3:1: text after the end of the JSON document
  [65]
  $ printf '{%s, "params": {%s}}\n\000' "$good" "$params" > law.json
  $ loopscale predict --law law.json --n-act 1e9 --tokens 1e11
  loopscale predict: law.json:2:1: text after the end of the JSON document
  [65]
  $ scheck '$s/$/ {}/'
  loopscale solve: law.json:7:90: text after the end of the JSON document
  [65]

White space after it is fine:

  $ check "{$good, \"params\": {$params}}	 
  > 
  > "
  loss                       2.37941

A key given twice, at the top, in the parameters, deeper:

  $ check "{$good, \"params\": {$params, \"A\": 5000}}"
  loopscale predict: law.json:1:147: key 'params.A' appears twice
  [65]
  $ check "{$good, \"params\": {$params}, \"format\": \"loopscale-law/1\"}"
  loopscale predict: law.json:1:148: key 'format' appears twice
  [65]
  $ scheck 's/"file": "s.csv"/"file": "a", "file": "b"/'
  loopscale solve: law.json:5:27: key 'fit.data[0].file' appears twice
  [65]
  $ scheck 's/"R": \[1, 16\]/"R": [1, 2], "R": [1, 4]/'
  loopscale solve: law.json:7:73: key 'fit.ranges.R' appears twice
  [65]
  $ scheck 's/"rmse": 0.004/"rmse": 0.004, "rmse": 0.04/'
  loopscale solve: law.json:3:101: key 'fit.rmse' appears twice
  [65]
  $ check "{$good, \"params\": {$params}, \"bootstrap\": {\"params\": [\"A\"], \"draws\": [[400]], \"x\": [{\"y\": 1, \"y\": 2}]}}"
  loopscale predict: law.json:1:212: key 'bootstrap.x[0].y' appears twice
  [65]
  $ check "{$good, \"params\": {$params}, \"notes\": {\"\": 1, \"\": 2}}"
  loopscale predict: law.json:1:165: key 'notes.' appears twice
  [65]

The fit statistics solve and predict use (the RMSE is solve's default
epsilon) are checked as the file is read, not when they are used:

  $ scheck 's/"rmse": 0.004/"rmse": -5/'
  loopscale solve: law.json:3:86: fit.rmse: must not be negative
  [65]
  $ scheck 's/"rmse": 0.004/"rmse": 1e999/'
  loopscale solve: law.json:3:94: '1e999' is outside double precision
  [65]
  $ scheck 's/"rmse": 0.004/"rmse": "small"/'
  loopscale solve: law.json:3:86: fit.rmse: expected a number
  [65]
  $ scheck 's/"objective": 0.1/"objective": -1/'
  loopscale solve: law.json:3:10: fit.objective: must not be negative
  [65]
  $ scheck 's/"delta": 0.001/"delta": 0/'
  loopscale solve: law.json:3:45: fit.delta: must be positive
  [65]
  $ scheck 's/"n": 20/"n": 0/'
  loopscale solve: law.json:3:77: fit.n: must be at least 1
  [65]
  $ scheck 's/"starts_at_best": 2/"starts_at_best": 5/'
  loopscale solve: law.json:4:17: fit.starts_at_best: is greater than fit.starts
  [65]
  $ scheck 's/"loss": "huber"/"loss": "l1"/'
  loopscale solve: law.json:3:28: fit.loss: expected "huber" or "mse"
  [65]
  $ scheck 's/"space": "log"/"space": "log10"/'
  loopscale solve: law.json:3:61: fit.space: expected "log" or "linear"
  [65]
  $ scheck 's/"sha256": "a84a/"sha256": "A84A/'
  loopscale solve: law.json:5:31: fit.data[].sha256: expected 64 lower-case hexadecimal digits
  [65]
  $ scheck 's/"sha256": "a84a/"sha256": "/'
  loopscale solve: law.json:5:31: fit.data[].sha256: expected 64 lower-case hexadecimal digits
  [65]

The ranges of the fitted runs (solve's advice about extrapolation):

  $ scheck 's/"E": \[1, 16\]/"E": [-5, -9]/'
  loopscale solve: law.json:7:74: fit.ranges.E: low must be at least 1
  [65]
  $ scheck 's/"R": \[1, 16\]/"R": [16, 1]/'
  loopscale solve: law.json:7:60: fit.ranges.R: low is greater than high
  [65]
  $ scheck 's/"n_act": \[3e8, 1e9\]/"n_act": [0, 1e9]/'
  loopscale solve: law.json:7:15: fit.ranges.n_act: low must be positive
  [65]
  $ scheck 's/"tokens": \[1e11, 5e11\]/"tokens": [-1e11, 5e11]/'
  loopscale solve: law.json:7:36: fit.ranges.tokens: low must be positive
  [65]
  $ scheck 's/"E": \[1, 16\]/"E": [1, 1e999]/'
  loopscale solve: law.json:7:83: '1e999' is outside double precision
  [65]
  $ scheck 's/"E": \[1, 16\]/"E": [1]/'
  loopscale solve: law.json:7:74: fit.ranges.E: expected [low, high]
  [65]

Standard errors, intervals and bootstrap draws:

  $ check "{$good, \"params\": {$params}, \"stderr\": {\"A\": -3}}"
  loopscale predict: law.json:1:159: stderr.A: a standard error must not be negative
  [65]
  $ check "{$good, \"params\": {$params}, \"ci\": {\"level\": 95, \"A\": [300, 500]}}"
  loopscale predict: law.json:1:155: ci.level: expected a number between 0 and 1
  [65]
  $ check "{$good, \"params\": {$params}, \"ci\": {\"level\": 0, \"A\": [300, 500]}}"
  loopscale predict: law.json:1:155: ci.level: expected a number between 0 and 1
  [65]
  $ check "{$good, \"params\": {$params}, \"ci\": {\"level\": 0.95, \"A\": [500, 300]}}"
  loopscale predict: law.json:1:170: ci.A: low is greater than high
  [65]
  $ moe='"format": "loopscale-law/1", "law": {"base": "moe", "mapping": "none"}'
  $ mp='"delta": -0.1, "gamma": 0.005, "omega": 0, "zeta": 0, "E_max": 300'
  $ check "{$moe, \"params\": {$params, $mp}, \"bootstrap\": {\"params\": [\"E_start\", \"E_max\"], \"draws\": [[1, 300], [400, 300]]}}"
  loopscale predict: law.json:1:260: bootstrap.draws[1]: E_start must be less than E_max
  [65]

Templates:

  $ tcheck() { printf '%s\n' "$1" > t.json; loopscale solve --flops 1e21 --mem 1e12 --template t.json > out; s=$?; sed -n 1p out; return $s; }
  $ tcheck '{"top_k": 1} {"top_k": 2}'
  loopscale solve: t.json:1:14: text after the end of the JSON document
  [65]
  $ tcheck '{"top_k": 1},'
  loopscale solve: t.json:1:13: text after the end of the JSON document
  [65]
  $ tcheck '{"top_k": 1, "loop_layers": 4, "top_k": 2}'
  loopscale solve: t.json:1:32: key 'top_k' appears twice
  [65]
  $ tcheck '{"attention_share": 0.3, "notes": {"a": 1, "a": 1}}'
  loopscale solve: t.json:1:44: key 'notes.a' appears twice
  [65]
  $ printf '{"top_k": 2}' > t.json; loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e9 --tokens 1e11 --E 2 --template t.json > out; sed -n 1p out
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  $ printf '{"top_k": 2}x' > t.json; loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e9 --tokens 1e11 --E 2 --template t.json
  loopscale simulate: t.json:1:13: text after the end of the JSON document
  [65]

Shape files:

  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}\n' > s.json
  $ loopscale shape --shape s.json --format csv > out; head -1 out | cut -c1-20
  n_act,n_total,n_loop
  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2} {"layers": 4}\n' > s.json
  $ loopscale shape --shape s.json
  loopscale shape: s.json:1:60: text after the end of the JSON document
  [65]
  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2, "layers": 4}\n' > s.json
  $ loopscale shape --shape s.json
  loopscale shape: s.json:1:60: key 'layers' appears twice
  [65]
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2, "d_model": 1024}}\n' > s.json
  $ loopscale shape --shape s.json
  loopscale shape: s.json:1:70: key 'shape.d_model' appears twice
  [65]
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}, "shape": {}}\n' > s.json
  $ loopscale shape --shape s.json
  loopscale shape: s.json:1:71: key 'shape' appears twice
  [65]

An RMSE that is valid but larger than the spread of every candidate's loss
makes epsilon decide nothing; solve says so rather than silently choosing the
cheapest configuration:

  $ sed 's/"rmse": .*,/"rmse": 1e300,/' $ROOT/data/laws/default.json > big.json
  $ loopscale solve --law big.json --flops 1e22 --mem 3GB --bits 4 > out
  loopscale solve: warning: big\.json's fit: E_max = \S+ is not determined by the runs: its \S+% bootstrap interval \[\S+, \S+\] spans a factor \S+ (re)
  loopscale solve: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale solve: warning: epsilon 1e+300 (the law file's fit.rmse) covers the loss of every candidate (they span 0.1758): the choice is only the cheapest to serve
  loopscale solve: warning: chosen: N_act = 6e+09 (fitted 1e+08 to 1e+09): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss: D = 1.541e+12 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: no memory limit: N_act = 3.001e+09 (fitted 1e+08 to 1e+09), D = 5.554e+11 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: lowest loss, no memory limit: E = 64, the largest searched and fitted: at an end of the search range, not an optimum (a value beyond may be better, but the law has seen none: runs beyond the sweep's would tell)
  $ sed -n '6,7p' out
  R (loops)              1          10           1
  E (experts)            1          64           64

What the quality check of a recorded fit reads cannot be left out or
doubled: a fit without standard errors or without its convergence flag, a
bootstrap that names one parameter twice (two columns of draws for one
parameter) or whose count disagrees with its draws, and a standard error or
interval for a name that is not a parameter of the law:

  $ python3 - fitted.json > nostderr.json <<'PY'
  > import json, sys
  > d = json.load(open(sys.argv[1])); del d["stderr"]; print(json.dumps(d))
  > PY
  $ loopscale solve --law nostderr.json --flops 1e21 --mem 1e12 > /dev/null
  loopscale solve: nostderr.json: the fit it records has no standard errors, so its parameters are not a law (--force to use them anyway)
  [65]
  $ scheck 's/ "converged": true,//'
  loopscale solve: law.json:3:2: missing key 'fit.converged'
  [65]
  $ boot='"bootstrap": {"n": 2, "params": ["A", "A", "B", "beta", "c"], "draws": [[400, 401, 410, 0.28, 1.69], [401, 402, 411, 0.29, 1.7]]}'
  $ scheck "s/\"stderr\"/$boot, \"stderr\"/"
  loopscale solve: law.json:2:96: bootstrap.params: 'A' is named twice
  [65]
  $ boot='"bootstrap": {"n": 99, "params": ["A", "alpha", "B", "beta", "c"], "draws": [[400, 0.34, 410, 0.28, 1.69]]}'
  $ scheck "s/\"stderr\"/$boot, \"stderr\"/"
  loopscale solve: law.json:2:88: bootstrap.n: 99, but bootstrap.draws holds 1 draw
  [65]
  $ scheck 's/"A": 40,/"A": 40, "learning_rate": 1,/'
  loopscale solve: law.json:2:94: stderr.learning_rate: not a parameter of the law
  [65]

A law, template or shape file may be gzip-compressed, recognised by its
magic bytes as sweeps are (fit -o law.json.gz writes one); damaged or cut
short it is refused, and its size limit holds once inflated.  An empty file
(a failed command's output captured with >) says so:

  $ gzip -c fitted.json > fitted.json.gz
  $ loopscale solve --law fitted.json.gz --flops 1e21 --mem 1e12 | sed -n 3p
  loopscale solve: fitted.json.gz records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.783e+09 (fitted 3e+08 to 1e+09), D = 9.348e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  epsilon  0.004 (loss units)
  $ head -c 60 fitted.json.gz > cut.json.gz
  $ loopscale solve --law cut.json.gz --flops 1e21
  loopscale solve: cut.json.gz: gzip data cut short
  [65]
  $ python3 -c "import sys; d = bytearray(open('fitted.json.gz', 'rb').read()); d[-6] ^= 0xff; sys.stdout.buffer.write(d)" > bad.json.gz
  $ loopscale solve --law bad.json.gz --flops 1e21 2>&1 | sed 's/(.*)/(REASON)/'
  loopscale solve: bad.json.gz: damaged gzip data (REASON)
  $ { printf '{"format": "loopscale-law/1", "x": "'; head -c 17000000 /dev/zero | tr '\0' a; printf '"}'; } | gzip -c > bomb.json.gz
  $ loopscale solve --law bomb.json.gz --flops 1e21
  loopscale solve: bomb.json.gz: too large for a law file (more than 16 MiB once inflated)
  [65]
  $ printf '{"top_k": 2}' | gzip -c > t.json.gz && loopscale solve --flops 1e21 --mem 1e12 --E 2 --template t.json.gz 2>/dev/null | sed -n 1p
  law      moe:bounded-sparse
  $ : > empty.json
  $ loopscale solve --law empty.json --flops 1e21
  loopscale solve: empty.json: empty (no JSON document)
  [65]
  $ loopscale solve --law - --flops 1e21 < /dev/null
  loopscale solve: <stdin>: empty (no JSON document)
  [65]
  $ loopscale fit --law dense -o law.json.gz $ROOT/data/sweeps/looped-dense.csv.gz > /dev/null && gzip -t law.json.gz && loopscale predict --law law.json.gz --n-act 1e9 --tokens 1e11 2> /dev/null | head -1
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loss                       2.30444

A quantisation penalty (--quantisation FILE, or a law file's own) is read
strictly: its form named, each constant a number in its domain.

  $ echo '{"format": "loopscale-law/1"}' > none.json
  $ loopscale solve --flops 1e21 --bits 4 --quantisation none.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: none.json: missing key 'quantisation'
  [65]
  $ echo '{"quantisation": {"form": "kumar2024-ptq", "C_T": 0.07, "gamma_D": 0.5, "gamma_N": 0.5, "gamma_post": -1, "trained_bits": 16}}' > neg.json
  $ loopscale solve --flops 1e21 --bits 4 --quantisation neg.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: neg.json:1:2: quantisation: gamma_post = -1: must be from 0.001 to 1000 bits
  [65]
  $ echo '{"quantisation": {"form": "kumar", "C_T": 0.07}}' > form.json
  $ loopscale solve --flops 1e21 --bits 4 --quantisation form.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: form.json:1:19: quantisation.form: expected "kumar2024-ptq"
  [65]

fit --bits-column needs the column, bits it can read, and a full-precision
run for every quantised one.

  $ printf 'n_act,tokens,bits,loss\n1e8,2e9,16,3.1\n1e8,2e9,4,3.2\n' > q.csv
  $ loopscale fit q.csv --law dense --bits-column precision
  loopscale fit: q.csv: no column 'precision' (the bits of the runs' weights)
  [65]
  $ printf 'n_act,tokens,bits,loss\n1e8,2e9,16,3.1\n1e8,2e9,four,3.2\n' > q.csv
  $ loopscale fit q.csv --law dense --bits-column bits
  loopscale fit: q.csv:3: column 'bits': 'four' is not a number of bits from 1 to 64
  [65]
  $ printf 'n_act,tokens,bits,loss\n1e8,2e9,16,3.1\n1e8,3e9,4,3.2\n' > q.csv
  $ loopscale fit q.csv --law dense --bits-column bits
  loopscale fit: q.csv:3: a run at 4 bits with no run of its configuration at 16 bits or more to measure its penalty against
  [65]
