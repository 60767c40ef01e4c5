Output paths that are not plain names: symbolic links, files that cannot be
replaced, kernel file systems, long names, and standard error redirected
onto an input.  Every case is refused before any work (73 for an output that
cannot be made, 64 for a name that cannot be one), so no time is spent on a
result that could not be written.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ sim() { loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 "$@"; }

A symbolic link is written through to the file it names, also when that file
does not exist yet (a dangling link whose directory exists): the link stays a
link.  A link into a directory that does not exist, and a link that loops,
are refused:

  $ mkdir d && ln -s d/new through && sim -o through && test -L through && wc -l < d/new
  2
  $ ln -s nowhere/x dangling
  $ sim -o dangling
  loopscale simulate: dangling: cannot create nowhere/x, the file the link names: No such file or directory
  [73]
  $ ln -s self self
  $ sim -o self
  loopscale simulate: self: cannot create: a symbolic link that loops
  [73]
  $ ln -s ping pong && ln -s pong ping
  $ sim -o ping
  loopscale simulate: ping: cannot create: a symbolic link that loops
  [73]
  $ ls -l self ping | cut -c1
  l
  l

A kernel file system takes no new files, so the temporary file cannot be
made beside the destination:

  $ sim -o /proc/version
  loopscale simulate: /proc/version: cannot create a file in its directory: /proc is a kernel file system (proc)
  [73]

A file that the user may not write is not silently replaced (checked with
root's override dropped, as in errors-permissions.t; skipped where that is
not allowed):

  $ mkdir open && chmod 777 open && echo precious > open/ro.csv && chmod 444 open/ro.csv
  $ as=""
  $ if [ "$(id -u)" = 0 ]; then as="setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search"; $as true || exit 80; fi
  $ $as loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o open/ro.csv
  loopscale simulate: open/ro.csv: cannot replace: Permission denied
  [73]
  $ cat open/ro.csv
  precious

and a file that nobody may write is read-only to be kept, also for root,
whose override would let it be replaced:

  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o open/ro.csv
  loopscale simulate: open/ro.csv: cannot replace: read-only for everyone (chmod u+w it to allow that)
  [73]
  $ chmod 644 open/ro.csv && loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o open/ro.csv && wc -l < open/ro.csv
  2

Long names: a directory name, the file name with the temporary suffix, and
the whole path are each measured against their own limit:

  $ sim -o $(printf 'a%.0s' $(seq 300))/x
  loopscale simulate: --output: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' has a directory name of 300 bytes (at most 255)
  Try 'loopscale simulate --help'.
  [64]
  $ sim -o $(printf 'b%.0s' $(seq 250))
  loopscale simulate: --output: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...' has a file name of 250 bytes (at most 244 with the temporary suffix)
  Try 'loopscale simulate --help'.
  [64]
  $ sim -o $(printf 'cccccccccc/%.0s' $(seq 400))x
  loopscale simulate: --output: 'cccccccccc/cccccccccc/cccccccccc/ccccccc...' is too long a path (4401 bytes; at most 4084 with the temporary suffix)
  Try 'loopscale simulate --help'.
  [64]

Standard error redirected onto an input would write the diagnostics into
the data; like standard output, it is refused before any work (the one line
saying so is all that lands in the file):

  $ cp $ROOT/data/sweeps/looped-dense.csv.gz s.csv.gz
  $ loopscale fit --law dense s.csv.gz 2>> s.csv.gz
  [64]
  $ tail -c 100 s.csv.gz | tr -cd '[:print:]\n' | tail -2
  zKjw{5 Jbc^pd>YIf m Y>,x 5+8-D* (no-eol)

The gzip suffix is matched in any case, so `-o X.CSV.GZ` is compressed:

  $ sim -o X.CSV.GZ && gzip -dc X.CSV.GZ | head -c 5; echo
  n_act
