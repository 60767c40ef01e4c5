Standard input, or any one stream, can be read once: naming it for two
inputs would leave the second one empty.  Every input of a command counts,
whatever option or argument names it, as "-" or as /dev/stdin; the message
names both roles (64, before any work).  A regular file named for two
different roles is read twice from its start, which is well defined, so it
is allowed with a warning (it is most often a slip).

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale predict --law - - < $LAW
  loopscale predict: standard input is named twice (--law and SWEEP)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law /dev/stdin /dev/stdin < $LAW
  loopscale predict: standard input is named twice (--law and SWEEP)
  Try 'loopscale predict --help'.
  [64]
  $ cat $LAW | loopscale predict --law - /dev/stdin
  loopscale predict: standard input is named twice (--law and SWEEP)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --law - --template - --flops 1e21 < $LAW
  loopscale solve: standard input is named twice (--law and --template)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law - --template /dev/stdin --flops 1e21 < $LAW
  loopscale isoflop: standard input is named twice (--law and --template)
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale exit - - < /dev/null
  loopscale exit: standard input is named twice (ENTROPY.npy and NLL.npy)
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --shape - - < /dev/null
  loopscale exit: standard input is named twice (--shape and CSV)
  Try 'loopscale exit --help'.
  [64]

A named pipe is one stream too:

  $ mkfifo fifo
  $ loopscale solve --law fifo --template fifo --flops 1e21
  loopscale solve: --law fifo and --template fifo are one stream, which can be read once
  Try 'loopscale solve --help'.
  [64]

and one written into while it is read would wait on itself:

  $ loopscale fit --law dense -o fifo fifo
  loopscale fit: --output fifo writes into the FIFO read as the input SWEEP fifo
  Try 'loopscale fit --help'.
  [64]
  $ loopscale simulate --law fifo --n-act 3e8 --tokens 1e11 -o fifo
  loopscale simulate: --output fifo writes into the FIFO read as the input --law fifo
  Try 'loopscale simulate --help'.
  [64]

One regular file for two roles: read twice, with a warning:

  $ cat > npy.py <<'PY'
  > import struct, sys
  > path, values = sys.argv[1], eval(sys.argv[2])
  > header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }"
  > header += ' ' * (117 - len(header)) + '\n'
  > data = struct.pack('<' + 'd' * len(values), *values)
  > open(path, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data)
  > PY
  $ python3 npy.py ent.npy '[2, 1, 0.5, 0.25, 3, 0.125, 4, 4, 4]'
  $ loopscale exit --format csv --thresholds 1 ent.npy ent.npy > /dev/null
  loopscale exit: warning: ENTROPY.npy and NLL.npy are the same file, ent.npy

What a command reads from standard input it calls standard input, in its
table and in its JSON, as exit now does too:

  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n' | loopscale exit - | head -1
  standard input: 1 token x 2 loop boundaries; costs: prelude 0, loop 1, coda 0
  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n' | loopscale exit --format json - | grep '"input"'
    "input": "standard input",

One stream named twice: a profile, a law to hold parameters from or a template
given as - beside a sweep on standard input (or one FIFO given for both) would
be read as the wrong document; every command refuses it as a usage error
before reading anything:

  $ S=$ROOT/data/sweeps/looped-dense.csv.gz
  $ cat $S | loopscale fit --law dense --profile - -
  loopscale fit: standard input is named twice (--profile and SWEEP)
  Try 'loopscale fit --help'.
  [64]
  $ cat $S | loopscale report -o r.html --profile - -
  loopscale report: standard input is named twice (--profile and SWEEP)
  Try 'loopscale report --help'.
  [64]
  $ cat $S | loopscale isofit --profile - -
  loopscale isofit: standard input is named twice (--profile and SWEEP)
  Try 'loopscale isofit --help'.
  [64]
  $ cat $S | loopscale holdout --template - -
  loopscale holdout: standard input is named twice (--template and SWEEP)
  Try 'loopscale holdout --help'.
  [64]
  $ cat $S | loopscale fit --law dense --fix-from - -
  loopscale fit: standard input is named twice (--fix-from and SWEEP)
  Try 'loopscale fit --help'.
  [64]
  $ mkfifo twice.fifo
  $ loopscale fit --law dense --profile twice.fifo twice.fifo
  loopscale fit: --profile twice.fifo and SWEEP twice.fifo are one stream, which can be read once
  Try 'loopscale fit --help'.
  [64]
