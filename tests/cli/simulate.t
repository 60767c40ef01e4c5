The shipped sweeps are reproduced byte for byte by the commands in data/README.md.

  $ $ROOT/data/make-sweeps.sh .
  $ for f in looped-moe looped-dense looped-moe-hyperbolic; do cmp $f.csv.gz $ROOT/data/sweeps/$f.csv.gz && echo "$f same"; done
  looped-moe same
  looped-dense same
  looped-moe-hyperbolic same

A small sweep, plain CSV on standard output:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --E 1,8 --R 1,4
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  300000000,300000000,225000000,1,1,1,100000000000,1.8e+20,2.5565451099103558
  300000000,300000000,225000000,4,1,1,100000000000,5.85e+20,2.458092265294389
  300000000,1700000000,225000000,1,8,1,100000000000,1.8e+20,2.3753193759118667
  300000000,1700000000,225000000,4,8,1,100000000000,5.85e+20,2.2911152092848357
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --E 8 --R 4 --noise 0.01 --seed 3
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  300000000,1700000000,225000000,4,8,1,100000000000,5.85e+20,2.2627823779866096

A template changes the parameter counts:

  $ echo '{"attention_share": 0.25, "top_k": 2, "loop_layers": 6, "prelude_layers": 1, "coda_layers": 1}' > t.json
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --template t.json --n-act 3e8 --tokens 1e11 --E 8 --R 4
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  300000000,975000000,225000000,4,8,2,100000000000,5.85e+20,2.2959351237577437

Bad grids and options:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --R 0.5
  loopscale simulate: --R: '0.5' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8,,6e8 --tokens 1e11
  loopscale simulate: --n-act: '' is empty
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --E 1 --template t.json
  loopscale simulate: E: 1 is less than the template's top_k (2)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --noise -1
  loopscale simulate: --noise: '-1' is outside its range: from 0 to 1 (the log-normal sigma)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --n-act 3e8 --tokens 1e11
  loopscale simulate: give the truth with --law FILE
  Try 'loopscale simulate --help'.
  [64]

A failed run leaves an existing output file untouched:

  $ echo precious > out.csv
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 --R 0.5 -o out.csv
  loopscale simulate: --R: '0.5' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale simulate --help'.
  [64]
  $ cat out.csv
  precious
  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8 --tokens 1e11 -o /nonexistent/out.csv
  loopscale simulate: /nonexistent/out.csv: cannot create: No such file or directory
  [73]
  $ ls
  looped-dense.csv.gz
  looped-moe-hyperbolic.csv.gz
  looped-moe.csv.gz
  out.csv
  t.json

The same sweep whichever way it goes: standard output, -o -, -o FILE, or
gzip when FILE ends in .gz (in any case):

  $ SIM="--law $ROOT/data/truth/moe-bounded-sparse.json --n-act 3e8,6e8 --tokens 1e11,2e11 --E 1,4 --R 1,2 --noise 0.01 --seed 9"
  $ loopscale simulate $SIM > a.csv
  $ loopscale simulate $SIM -o - | cmp - a.csv && loopscale simulate $SIM -o b.csv && cmp a.csv b.csv && echo same
  same
  $ loopscale simulate $SIM -o c.CSV.GZ && gzip -dc c.CSV.GZ | cmp - a.csv && wc -l < a.csv
  17

Every combination of the lists is a run, so a sweep's size is known before
any work: more than ten million runs is refused, naming the limit:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act $(seq -s, 1000 1000 5000000) --tokens $(seq -s, 1000000000 1000000 3000000000) -o big.csv
  loopscale simulate: --n-act, --tokens, --E and --R make 10005000 runs; a sweep has at most 10000000
  Try 'loopscale simulate --help'.
  [64]
  $ ls big.csv
  ls: cannot access 'big.csv': No such file or directory
  [2]
