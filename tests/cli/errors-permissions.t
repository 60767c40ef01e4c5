Files that exist but cannot be read, and directories that cannot be
written to.  An unreadable input is refused with status 66, like a missing
one; an output that cannot be created with 73, leaving the file it would
have replaced as it was.  Permissions do not stop root from reading, so when the
tests run as root the commands run with the capabilities that let root
read anything dropped (setpriv); where that is not allowed either, this
file is skipped.

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' > locked.csv
  $ cp locked.csv locked.json && cp locked.csv locked.npy
  $ chmod 000 locked.csv locked.json locked.npy
  $ as=""
  $ if cat locked.csv > /dev/null 2>&1; then
  >   as="setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search"
  >   $as cat locked.csv > /dev/null 2>&1 && exit 80
  >   $as true || exit 80
  > fi

A sweep, a law file, a template, a shape file, router logits:

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ $as loopscale predict --law $LAW locked.csv
  loopscale predict: locked.csv: cannot open: Permission denied
  [66]
  $ $as loopscale fit --law dense locked.csv
  loopscale fit: locked.csv: cannot open: Permission denied
  [66]
  $ $as loopscale predict --law locked.json --n-act 1e9 --tokens 1e11
  loopscale predict: locked.json: cannot open: Permission denied
  [66]
  $ $as loopscale solve --flops 1e21 --template locked.json
  loopscale solve: locked.json: cannot open: Permission denied
  [66]
  $ $as loopscale shape --shape locked.json
  loopscale shape: locked.json: cannot open: Permission denied
  [66]
  $ $as loopscale route -k 1 locked.npy
  loopscale route: locked.npy: cannot open: Permission denied
  [66]
  $ $as loopscale exit locked.csv
  loopscale exit: locked.csv: cannot open: Permission denied
  [66]

An output directory that cannot be written to:

  $ mkdir ro && echo precious > ro/law.json && chmod 555 ro
  $ $as loopscale simulate --law $LAW --n-act 3e8 --tokens 1e11 -o ro/sweep.csv
  loopscale simulate: ro/sweep.csv: cannot create a file in its directory: Permission denied
  [73]
  $ $as loopscale fit --law dense -o ro/law.json $ROOT/data/sweeps/looped-dense.csv.gz > /dev/null
  loopscale fit: ro/law.json: cannot create a file in its directory: Permission denied
  [73]
  $ $as loopscale solve --law $LAW --flops 1e21 --plot ro/solve.svg > /dev/null 2>&1
  [73]
  $ ls ro; cat ro/law.json
  law.json
  precious
  $ chmod 755 ro
