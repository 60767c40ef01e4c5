No output may replace an input.  Before any work, every output is compared
with every input (sweeps, law, template, shape, standard input) and every
other output by file identity: the device and inode of a file that exists,
the resolved directory and name of one that does not, so that `x`, `./x`,
`d/../x`, symlinks and hard links are one file.  A clash is a usage error
(64) naming both options; the input is left as it was.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ cp $ROOT/data/sweeps/looped-dense.csv.gz s.csv.gz
  $ cp $TRUTH t.json
  $ loopscale solve -q --print-template > tp.json 2> /dev/null
  $ mkdir d
  $ cp s.csv.gz s.orig && cp t.json t.orig && cp tp.json tp.orig
  $ same() { cmp s.csv.gz s.orig && cmp t.json t.orig && cmp tp.json tp.orig; }

A plot or a sweep written over the file a command reads:

  $ loopscale holdout --laws dense --axes R --plot s.csv.gz s.csv.gz
  loopscale holdout: --plot s.csv.gz would replace the input SWEEP s.csv.gz
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --plot t.json
  loopscale solve: --plot t.json would replace the input --law t.json
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --plot-rho ./t.json
  loopscale solve: --plot-rho ./t.json would replace the input --law t.json
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --template tp.json --flops 1e21 --plot d/../tp.json
  loopscale solve: --plot d/../tp.json would replace the input --template tp.json
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law t.json --flops 1e21 --plot d/../t.json
  loopscale isoflop: --plot d/../t.json would replace the input --law t.json
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --template tp.json --flops 1e21 --plot tp.json
  loopscale isoflop: --plot tp.json would replace the input --template tp.json
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o t.json
  loopscale simulate: --output t.json would replace the input --law t.json
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law t.json --template tp.json --n-act 3e8 --tokens 1e11 -o tp.json
  loopscale simulate: --output tp.json would replace the input --template tp.json
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale fit --law dense --plot d/../s.csv.gz s.csv.gz
  loopscale fit: --plot d/../s.csv.gz would replace the input SWEEP s.csv.gz
  Try 'loopscale fit --help'.
  [64]
  $ same

Links name the same file as their target:

  $ ln -s s.csv.gz sym.csv.gz && ln s.csv.gz hard.csv.gz && ln -s d dlink
  $ loopscale fit --law dense -o sym.csv.gz s.csv.gz
  loopscale fit: --output sym.csv.gz would replace the input SWEEP s.csv.gz
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense -o hard.csv.gz s.csv.gz
  loopscale fit: --output hard.csv.gz would replace the input SWEEP s.csv.gz
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense -o s.csv.gz sym.csv.gz
  loopscale fit: --output s.csv.gz would replace the input SWEEP sym.csv.gz
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R --plot dlink/../s.csv.gz s.csv.gz
  loopscale holdout: --plot dlink/../s.csv.gz would replace the input SWEEP s.csv.gz
  Try 'loopscale holdout --help'.
  [64]
  $ same

Standard input is the file it was redirected from:

  $ loopscale fit --law dense -o s.csv.gz - < s.csv.gz
  loopscale fit: --output s.csv.gz would replace the input SWEEP - (standard input)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R --plot ./s.csv.gz - < s.csv.gz
  loopscale holdout: --plot ./s.csv.gz would replace the input SWEEP - (standard input)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale fit --law dense --plot hard.csv.gz - < s.csv.gz
  loopscale fit: --plot hard.csv.gz would replace the input SWEEP - (standard input)
  Try 'loopscale fit --help'.
  [64]
  $ same

Results appended to an input would be read back as they are written:

  $ loopscale predict --law t.json s.csv.gz >> s.csv.gz
  loopscale predict: standard output is the input SWEEP s.csv.gz
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law t.json --n-act 3e8 --tokens 1e11 >> t.json
  loopscale predict: standard output is the input --law t.json
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --template tp.json --flops 1e21 >> tp.json
  loopscale solve: standard output is the input --template tp.json
  Try 'loopscale solve --help'.
  [64]

With > the shell empties the file before loopscale starts; the message says
so, since the input is already lost:

  $ cp s.csv.gz gone.csv.gz && loopscale fit --law dense gone.csv.gz > gone.csv.gz
  loopscale fit: standard output is the input SWEEP gone.csv.gz (already emptied by the shell: > truncates the file before the command starts; >> would not)
  Try 'loopscale fit --help'.
  [64]
  $ same

Two outputs that are one file, whatever the spelling, existing or not:

  $ loopscale fit --law dense -o law.json --plot ./law.json s.csv.gz
  loopscale fit: --output law.json and --plot ./law.json name the same file
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --flops 1e21 --plot d/x.svg --plot-rho dlink/x.svg
  loopscale solve: --plot d/x.svg and --plot-rho dlink/x.svg name the same file
  Try 'loopscale solve --help'.
  [64]
  $ echo precious > old.svg && ln -s old.svg sym.svg
  $ loopscale solve --flops 1e21 --plot old.svg --plot-rho sym.svg
  loopscale solve: --plot old.svg and --plot-rho sym.svg name the same file
  Try 'loopscale solve --help'.
  [64]
  $ cat old.svg; ls d; test ! -e law.json
  precious

Two outputs on standard output would mix into one stream:

  $ loopscale fit --law dense -o - --plot - s.csv.gz
  loopscale fit: the table and --output - both write to standard output
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --flops 1e21 --plot -
  loopscale solve: the table and --plot - both write to standard output
  Try 'loopscale solve --help'.
  [64]
  $ loopscale holdout --plot - s.csv.gz
  loopscale holdout: the table and --plot - both write to standard output
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale isoflop --flops 1e21 --plot -
  loopscale isoflop: the table and --plot - both write to standard output
  Try 'loopscale isoflop --help'.
  [64]

An output name that cannot be written is refused before the work, not after
it: empty, too long to take the temporary suffix ".tmp.XXXXXX" (255 bytes
for a name on Linux), a directory, or in a directory that does not exist:

  $ loopscale fit --law dense -o '' s.csv.gz
  loopscale fit: --output: the file name is empty
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --flops 1e21 --plot ''
  loopscale solve: --plot: the file name is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o ''
  loopscale simulate: --output: the file name is empty
  Try 'loopscale simulate --help'.
  [64]

and so is an empty input name, a usage error as for an output, not a file
that cannot be opened:

  $ loopscale fit --law dense ''
  loopscale fit: SWEEP: the file name is empty
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --law '' --flops 1e21
  loopscale solve: --law: the file name is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --template '' --flops 1e21
  loopscale solve: --template: the file name is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale route -k 1 ''
  loopscale route: LOGITS: the file name is empty
  Try 'loopscale route --help'.
  [64]
  $ long=$(printf 'n%.0s' $(seq 250))
  $ loopscale fit --law dense -o $long.json s.csv.gz
  loopscale fit: --output: 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' has a file name of 255 bytes (at most 244 with the temporary suffix)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o d/${long:0:245}
  loopscale simulate: --output: 'd/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' has a file name of 245 bytes (at most 244 with the temporary suffix)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o d/${long:0:244} && ls d | wc -c
  245
  $ loopscale fit --law dense -o d s.csv.gz
  loopscale fit: d: is a directory
  [73]
  $ loopscale solve --flops 1e21 --plot-rho dlink/
  loopscale solve: dlink/: is a directory
  [73]
  $ loopscale holdout --laws dense --axes R --plot missing/h.svg s.csv.gz
  loopscale holdout: missing/h.svg: cannot create: No such file or directory
  [73]
  $ loopscale isoflop --flops 1e21 --plot missing/../i.svg
  loopscale isoflop: missing/../i.svg: cannot create: No such file or directory
  [73]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o s.csv.gz/x
  loopscale simulate: s.csv.gz/x: cannot create: Not a directory
  [73]

Outputs that are not regular files are written in place, and may be named
twice:

  $ loopscale solve --law t.json --flops 1e21 --plot /dev/null --plot-rho /dev/null > /dev/null
  loopscale solve: t.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: the law file has no fit RMSE; epsilon is 0 (--eps X to set one)
  loopscale solve: no --mem given: no memory limit
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  $ loopscale fit --law dense --where 'R=1' -o /dev/null --plot /dev/null s.csv.gz > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 4.67 is poorly determined: its 95% interval from its standard error [0.0651, 335] spans a factor 5.1e+03, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.0738 from its lower bound 0: its 95% interval from its standard error [-0.265, 0.413] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.168 is poorly determined: its 95% interval from the standard errors [-0.473, 0.81] is 1.3 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted

One sweep named twice would count each of its runs twice and halve the
standard errors: refused, whatever the spelling, standard input included.
Two copies of a file are two files, and are read as such:

  $ loopscale fit - - < s.csv.gz
  loopscale fit: SWEEP: standard input (-) is named twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit s.csv.gz s.csv.gz
  loopscale fit: SWEEP: s.csv.gz and s.csv.gz are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense s.csv.gz d/../s.csv.gz
  loopscale fit: SWEEP: s.csv.gz and d/../s.csv.gz are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense sym.csv.gz hard.csv.gz
  loopscale fit: SWEEP: sym.csv.gz and hard.csv.gz are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense s.csv.gz - < s.csv.gz
  loopscale fit: SWEEP: s.csv.gz and - (standard input) are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R ./s.csv.gz s.csv.gz
  loopscale holdout: SWEEP: ./s.csv.gz and s.csv.gz are the same file; each run would count twice
  Try 'loopscale holdout --help'.
  [64]
  $ cp s.csv.gz copy.csv.gz
  $ loopscale fit --law dense s.csv.gz copy.csv.gz | sed -n 2p
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [0.00262, 9.25e+06] spans a factor 3.5e+09, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.246, 0.75] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.0664, 0.9] is 0.97 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 36.5): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is far above the noise the runs themselves show (0, from each run's repeat): the law does not describe these runs
  runs       280 (s.csv.gz copy.csv.gz)
