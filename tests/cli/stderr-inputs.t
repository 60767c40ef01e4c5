Standard error aimed at an input: a command whose fd 2 is one of the files
it reads writes nothing there, not even the refusal, and exits 64; the input
is byte for byte what it was.  Every command, every kind of input (operand,
--law, --template, --profile, --shape, --fix-from, --candidates, --have,
--truth), and the three ways a shell aims fd 2 at a file: 2>> appends, 2<>
writes over the start, 2> empties it first (then the file stays empty).

  $ cp $ROOT/data/sweeps/looped-dense.csv.gz sweep.csv.gz
  $ cp $ROOT/data/truth/moe-bounded-sparse.json law.json
  $ loopscale solve --print-template > template.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ printf '{"format": "loopscale-profile/1", "maps": ["n_act=n_act"]}\n' > profile.json
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --format json > shape.json
  $ printf 'n_act,tokens,R,E\n3e8,1e11,1,1\n6e8,1e11,2,1\n' > candidates.csv
  $ printf 'token,loop,layer,z0,z1\n0,1,1,0.5,0.1\n' > logits.csv
  $ printf 'token,loop,entropy,nll\n0,1,0.5,2.0\n0,2,0.3,1.9\n' > exit.csv
  $ check() { # FILE COMMAND...: run COMMAND three ways with fd 2 on FILE
  >   f=$1; shift
  >   cp "$f" keep
  >   for how in append over; do
  >     if [ $how = append ]; then "$@" > /dev/null 2>> "$f"; else "$@" > /dev/null 2<> "$f"; fi
  >     s=$?
  >     cmp -s "$f" keep || echo "$* (2 $how $f): the input changed"
  >     [ $s = 64 ] || echo "$* (2 $how $f): exit $s"
  >   done
  >   "$@" > /dev/null 2> "$f"; s=$?
  >   [ -s "$f" ] && echo "$* (2> $f): wrote to its emptied input"
  >   [ $s = 64 ] || [ $s = 65 ] || echo "$* (2> $f): exit $s"
  >   cp keep "$f"
  > }
  $ check sweep.csv.gz loopscale fit --law dense sweep.csv.gz
  $ check sweep.csv.gz loopscale holdout --laws dense sweep.csv.gz
  $ check sweep.csv.gz loopscale isofit --where R=1 sweep.csv.gz
  $ check sweep.csv.gz loopscale report -o r.html sweep.csv.gz
  $ check sweep.csv.gz loopscale predict --law law.json sweep.csv.gz
  $ check law.json loopscale predict --law law.json --n-act 3e8 --tokens 1e11
  $ check law.json loopscale solve --law law.json --flops 1e21
  $ check law.json loopscale frontier --law law.json --flops 1e21
  $ check law.json loopscale isoflop --law law.json --flops 1e21
  $ check law.json loopscale simulate --law law.json --n-act 1e8 --tokens 1e10
  $ check law.json loopscale plan --law law.json --budget 1e20 --flops 1e21 -o plan.csv
  $ check law.json loopscale fit --law dense --fix-from law.json sweep.csv.gz
  $ check template.json loopscale solve --law law.json --flops 1e21 --template template.json
  $ check profile.json loopscale fit --law dense --profile profile.json sweep.csv.gz
  $ check candidates.csv loopscale plan --law law.json --budget 1e20 --flops 1e21 --candidates candidates.csv -o plan.csv
  $ check sweep.csv.gz loopscale plan --law law.json --budget 1e20 --flops 1e21 --have sweep.csv.gz -o plan.csv
  $ check law.json loopscale plan --law law.json --budget 1e20 --flops 1e21 --validate 2 --truth law.json -o plan.csv
  $ check shape.json loopscale shape --shape shape.json
  $ check shape.json loopscale exit --shape shape.json exit.csv
  $ check logits.csv loopscale route --top-k 1 logits.csv
  $ check exit.csv loopscale exit exit.csv
