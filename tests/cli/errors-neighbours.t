Neighbours of the faults in the catalogue's sections on outputs, fits and
messages, found by searching around each class: every output option with
every kind of unwritable name; outputs that are standard output under
another name; one stream read twice; standard output appended to the input
of every command; law files that are not a fit, for every command that reads
one; units, fixed parameters and templates at their edges.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ cp $ROOT/data/sweeps/looped-dense.csv.gz s.csv.gz
  $ cp $TRUTH t.json
  $ mkdir d && echo file > plain

Every output option, refused before any work when its name is empty, is a
directory, lies in a directory that does not exist, or under a file:

  $ loopscale fit --law dense --where 'R=1' -o '' s.csv.gz > /dev/null
  loopscale fit: --output: the file name is empty
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --where 'R=1' --plot '' s.csv.gz > /dev/null
  loopscale fit: --plot: the file name is empty
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R --plot '' s.csv.gz > /dev/null
  loopscale holdout: --plot: the file name is empty
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale isoflop --law t.json --flops 1e21 --plot '' > /dev/null
  loopscale isoflop: --plot: the file name is empty
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot '' > /dev/null
  loopscale solve: --plot: the file name is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot-rho '' > /dev/null
  loopscale solve: --plot-rho: the file name is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o ''
  loopscale simulate: --output: the file name is empty
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale fit --law dense --where 'R=1' -o d s.csv.gz > /dev/null
  loopscale fit: d: is a directory
  [73]
  $ loopscale fit --law dense --where 'R=1' --plot d s.csv.gz > /dev/null
  loopscale fit: d: is a directory
  [73]
  $ loopscale holdout --laws dense --axes R --plot d s.csv.gz > /dev/null
  loopscale holdout: d: is a directory
  [73]
  $ loopscale isoflop --law t.json --flops 1e21 --plot d > /dev/null
  loopscale isoflop: d: is a directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot d > /dev/null
  loopscale solve: d: is a directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot-rho d > /dev/null
  loopscale solve: d: is a directory
  [73]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o d
  loopscale simulate: d: is a directory
  [73]
  $ loopscale fit --law dense --where 'R=1' -o missing/x s.csv.gz > /dev/null
  loopscale fit: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale fit --law dense --where 'R=1' --plot missing/x s.csv.gz > /dev/null
  loopscale fit: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale holdout --laws dense --axes R --plot missing/x s.csv.gz > /dev/null
  loopscale holdout: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale isoflop --law t.json --flops 1e21 --plot missing/x > /dev/null
  loopscale isoflop: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot missing/x > /dev/null
  loopscale solve: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot-rho missing/x > /dev/null
  loopscale solve: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o missing/x
  loopscale simulate: missing/x: cannot create: No such file or directory
  [73]
  $ loopscale fit --law dense --where 'R=1' -o plain/x s.csv.gz > /dev/null
  loopscale fit: plain/x: cannot create: Not a directory
  [73]
  $ loopscale fit --law dense --where 'R=1' --plot plain/x s.csv.gz > /dev/null
  loopscale fit: plain/x: cannot create: Not a directory
  [73]
  $ loopscale holdout --laws dense --axes R --plot plain/x s.csv.gz > /dev/null
  loopscale holdout: plain/x: cannot create: Not a directory
  [73]
  $ loopscale isoflop --law t.json --flops 1e21 --plot plain/x > /dev/null
  loopscale isoflop: plain/x: cannot create: Not a directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot plain/x > /dev/null
  loopscale solve: plain/x: cannot create: Not a directory
  [73]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot-rho plain/x > /dev/null
  loopscale solve: plain/x: cannot create: Not a directory
  [73]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o plain/x
  loopscale simulate: plain/x: cannot create: Not a directory
  [73]

Nothing was written anywhere:

  $ ls d; cat plain
  file

An output that is standard output under another name (standard output
redirected to a file, and /dev/stdout naming it) is refused beside the
results printed there, and written in place when it is the only output;
a symbolic link is written through to its target and stays a link:

  $ loopscale fit --law dense --where 'R=1' -o /dev/stdout s.csv.gz > out.txt
  loopscale fit: the table and --output /dev/stdout both write to standard output
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --where 'R=1' --plot /dev/stdout s.csv.gz > out.txt
  loopscale fit: the table and --plot /dev/stdout both write to standard output
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R --plot /dev/stdout s.csv.gz > out.txt
  loopscale holdout: the table and --plot /dev/stdout both write to standard output
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale isoflop --law t.json --flops 1e21 --plot /dev/stdout > out.txt
  loopscale isoflop: the table and --plot /dev/stdout both write to standard output
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot /dev/stdout > out.txt
  loopscale solve: the table and --plot /dev/stdout both write to standard output
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --plot-rho /dev/stdout > out.txt
  loopscale solve: the table and --plot-rho /dev/stdout both write to standard output
  Try 'loopscale solve --help'.
  [64]
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o /dev/stdout > sim.csv && cat sim.csv
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  300000000,300000000,225000000,1,1,1,100000000000,1.8e+20,2.5565451099103558
  $ test -L /dev/stdout

Standard output under another name is written through standard output, so
an append (>>) appends, and a link to it that cannot be resolved (its file
deleted while open) is written through, never replaced by a plain file:

  $ echo earlier > log.txt
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o /dev/stdout >> log.txt && cat log.txt
  earlier
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  300000000,300000000,225000000,1,1,1,100000000000,1.8e+20,2.5565451099103558
  $ ln -s /proc/self/fd/1 out-link
  $ exec 3> gone.txt && rm gone.txt
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o out-link >&3
  $ exec 3>&-
  $ test -L out-link && test -L /dev/stdout

and the same for any descriptor the shell opened for the command, by any
of its names, so that output around the command's, or an append, is kept:

  $ { echo '# head'; loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o /dev/stdout; echo '# tail'; } > framed.csv && sed -n '1p;4p' framed.csv
  # head
  # tail
  $ echo keep > seven.txt
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o /dev/fd/7 7>> seven.txt && wc -l < seven.txt
  3
  $ ln -s /proc/self/fd/7 seven-link
  $ loopscale simulate --law t.json --n-act 3e8 --tokens 1e11 -o seven-link 7>> seven.txt && wc -l < seven.txt && test -L seven-link
  5
  $ mkdir sub && echo old > sub/law.json && ln -s sub/law.json link.json
  $ loopscale fit --law dense --where 'R=1' -o link.json s.csv.gz > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 4.67 is poorly determined: its 95% interval from its standard error [0.0651, 335] spans a factor 5.1e+03, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.0738 from its lower bound 0: its 95% interval from its standard error [-0.265, 0.413] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.168 is poorly determined: its 95% interval from the standard errors [-0.473, 0.81] is 1.3 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ test -L link.json && grep -c '"format"' sub/law.json
  2

One stream read twice is refused, a pipe as much as a file:

  $ cat s.csv.gz | loopscale fit --law dense - /dev/stdin
  loopscale fit: SWEEP: - (standard input) and /dev/stdin are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense s.csv.gz /dev/stdin < s.csv.gz
  loopscale fit: SWEEP: s.csv.gz and /dev/stdin are the same file; each run would count twice
  Try 'loopscale fit --help'.
  [64]
  $ cat s.csv.gz | loopscale holdout --laws dense --axes R - -
  loopscale holdout: SWEEP: standard input (-) is named twice
  Try 'loopscale holdout --help'.
  [64]
  $ ln -s s.csv.gz again.csv.gz && loopscale holdout --laws dense --axes R again.csv.gz s.csv.gz d/../s.csv.gz
  loopscale holdout: SWEEP: again.csv.gz and s.csv.gz are the same file; each run would count twice
  Try 'loopscale holdout --help'.
  [64]

Results appended to the file a command reads, for the commands that only
print:

  $ printf 'token,loop,layer,z0,z1\n0,1,1,2,0\n0,2,1,0,3\n' > logits.csv
  $ loopscale route -k 1 logits.csv >> logits.csv
  loopscale route: standard output is the input LOGITS logits.csv
  Try 'loopscale route --help'.
  [64]
  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n' > e.csv
  $ loopscale exit e.csv >> e.csv
  loopscale exit: standard output is the input CSV e.csv
  Try 'loopscale exit --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 32000 --layers 4 --loops 2 --format json > shape.json
  $ loopscale shape --shape shape.json >> shape.json
  loopscale shape: standard output is the input --shape shape.json
  Try 'loopscale shape --help'.
  [64]
  $ loopscale exit --shape shape.json e.csv >> shape.json
  loopscale exit: standard output is the input --shape shape.json
  Try 'loopscale exit --help'.
  [64]
  $ loopscale isoflop --template t.json --flops 1e21 >> t.json
  loopscale isoflop: standard output is the input --template t.json
  Try 'loopscale isoflop --help'.
  [64]
  $ wc -l < logits.csv; wc -l < e.csv; cmp t.json $TRUTH
  3
  3

Law files that are not a fit, for each command and form of input; a good
file, a file without a fit section and --force on a good file say nothing:

  $ loopscale fit --law dense --format json --where 'R<=2' s.csv.gz > good.json
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale fit: warning: A = 85.4 is poorly determined: its 95% interval from its standard error [0.0146, 5.01e+05] spans a factor 3.4e+07, more than 1000
  loopscale fit: warning: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale fit: warning: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.735 is poorly determined: its 95% interval from the standard errors [-0.586, 2.05] is 2.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ sed 's/"converged": true/"converged": false/' good.json > noconv.json
  $ loopscale isoflop --law noconv.json --flops 1e21
  loopscale isoflop: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale simulate --law noconv.json --n-act 3e8 --tokens 1e11 -o sim2.csv
  loopscale simulate: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale predict --law noconv.json s.csv.gz
  loopscale predict: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ loopscale solve --law noconv.json --flops 1e21 --uncertainty
  loopscale solve: noconv.json: the fit it records did not converge, so its parameters are not a law (--force to use them anyway)
  [65]
  $ test ! -e sim2.csv
  $ loopscale predict --law good.json --n-act 3e8 --tokens 1e11 > /dev/null
  loopscale predict: warning: good\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale predict: warning: good\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: good.json's fit: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale predict: warning: good.json's fit: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale predict: warning: good\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: good.json's fit: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ loopscale predict --law t.json --n-act 3e8 --tokens 1e11 > /dev/null
  $ loopscale predict --force --law good.json --n-act 3e8 --tokens 1e11 > /dev/null
  loopscale predict: warning: good\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale predict: warning: good\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: good.json's fit: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale predict: warning: good.json's fit: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale predict: warning: good\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: good.json's fit: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping
  $ loopscale simulate --force --law noconv.json --n-act 3e8 --tokens 1e11 2>messages.txt | wc -l; cat messages.txt
  2
  loopscale simulate: warning: noconv.json: the fit it records did not converge; used anyway (--force)
  loopscale simulate: warning: noconv\.json's fit: B = \S+ is not determined by the runs: its standard error, \S+, is \S+ times its value \(an unbounded interval\) (re)
  loopscale simulate: warning: noconv\.json's fit: A = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale simulate: warning: noconv.json's fit: the runs do not tell alpha = 0.244 from its lower bound 0: its 95% interval from its standard error [-0.32, 0.808] reaches past it
  loopscale simulate: warning: noconv.json's fit: the runs do not tell beta = 0.674 from its lower bound 0: its 95% interval from its standard error [-3.6, 4.95] reaches past it
  loopscale simulate: warning: noconv\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale simulate: warning: noconv.json's fit: the residuals trend along R: their rank correlation with ln R is 0.87 (t = 10.7): the law misses how the loss changes with R; try another law or mapping

A fit that is not one writes nothing, whatever else was asked for:

  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e10,3e10,1e11,3e11 --R 1,2,4 --noise 0.01 -o one-n.csv
  $ loopscale fit --law dense --bootstrap 20 -o law.json --plot fit.svg one-n.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no law file written
  [3]
  $ loopscale fit --law dense --format json --plot fit.svg one-n.csv
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the sweep cannot determine the law: every run has n_act = 3e+08, so A N^-alpha is one constant and A, alpha and c cannot be told apart; no law written
  [3]
  $ test ! -e law.json && test ! -e fit.svg

Sizes and budgets at the edges of their units:

  $ loopscale solve --law t.json --flops 1E --eps 0 | sed -n 2p
  loopscale solve: t.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: no --mem given: no memory limit
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+18 training FLOPs; no memory limit
  $ loopscale solve --law t.json --flops 1e21 --eps 0 --mem 3kib | sed -n 2p
  loopscale solve: t.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: warning: chosen, lowest loss: R = 16, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --R)
  loopscale solve: warning: no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  budget   1e+21 training FLOPs; 3072 bytes of weights at 16 bits (N_total <= 1536)
  $ loopscale solve --law t.json --flops 1e21 --mem -3GB
  loopscale solve: --mem: '-3GB' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --mem 1e400
  loopscale solve: --mem: '1e400' is out of range
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --mem 3iB
  loopscale solve: --mem: '3iB' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --mem 3GBB
  loopscale solve: --mem: '3GBB' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 1e21 --mem 1e300EB
  loopscale solve: --mem: '1e300EB' is out of range
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law t.json --flops 0
  loopscale solve: --flops: '0' must be positive
  Try 'loopscale solve --help'.
  [64]

Fixed parameters at the edges of E_start and E_max:

  $ loopscale fit --fix E_start=0 s.csv.gz
  loopscale fit: --fix 'E_start=0': parameter E_start = 0 must be positive
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_start=nan s.csv.gz
  loopscale fit: --fix E_start: 'nan' is not a finite number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_start= s.csv.gz
  loopscale fit: --fix E_start: '' is empty
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix E_max=1 s.csv.gz
  loopscale fit: --fix 'E_max=1': parameter E_max = 1 is outside its domain (1, inf)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix alpha=50 s.csv.gz
  loopscale fit: --fix 'alpha=50': parameter alpha = 50 is outside its domain (0, 5]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix alpha=-0.3 s.csv.gz
  loopscale fit: --fix 'alpha=-0.3': parameter alpha = -0.3 is outside its domain (0, 5]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix A=1e-310 s.csv.gz
  loopscale fit: --fix A: '1e-310' is below the smallest normal double (2.22507e-308); subnormal values lose precision and are refused
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --fix theta=6 s.csv.gz
  loopscale fit: --fix 'theta=6': parameter theta = 6 is outside its domain [0, 5]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix E_start=2 s.csv.gz
  loopscale fit: --fix 'E_start=2': E_start is not a parameter of dense
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law moe:hyperbolic --fix E_start=1e6 --fix E_max=1e7 --where 'R=1' s.csv.gz | sed -n 1p
  loopscale fit: a column the law does not read: k
  loopscale fit: warning: delta, gamma, omega, zeta are held at 0, 0, 0, 0: no run has E > 1
  loopscale fit: warning: kappa1, kappa2 are held at 1, 1: no run has R > 1
  loopscale fit: warning: theta is held at 0: no looped run (R > 1) has m < 1
  loopscale fit: warning: B = 4.67 is poorly determined: its 95% interval from its standard error [0.0651, 335] spans a factor 5.1e+03, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.0738 from its lower bound 0: its 95% interval from its standard error [-0.265, 0.413] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.168 is poorly determined: its 95% interval from the standard errors [-0.473, 0.81] is 1.3 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  law        moe:hyperbolic

Templates whose top_k is above part or all of the default E list:

  $ loopscale solve --print-template | sed 's/"top_k": 1/"top_k": 3/' > k3.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ loopscale solve --print-template | sed 's/"top_k": 1/"top_k": 100/' > k100.json
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  $ loopscale solve --law t.json --template k3.json --flops 1e21 --eps 0 --format json > /dev/null
  loopscale solve: the template routes to top_k = 3 experts: E below 3 left out of the default --E list
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ loopscale solve --law t.json --template k100.json --flops 1e21 --eps 0 | grep '^E'
  loopscale solve: the template routes to top_k = 100 experts: the default --E is 100
  loopscale solve: no --mem given: no memory limit
  E (experts)            100        100          100
  $ loopscale isoflop --law t.json --template k3.json --flops 1e21 --E 4 | tail -1
  1e+21  4  1  1.928e+09  8.647e+10         44.86  2.2383
  $ loopscale simulate --law t.json --template k3.json --n-act 3e8 --tokens 1e11 --E 3,4 | cut -d, -f5,6
  E,k
  3,3
  4,3
  $ loopscale isoflop --law t.json --template k100.json --flops 1e21 --R 2 | tail -1
  loopscale isoflop: the template routes to top_k = 100 experts: the default --E is 100
  1e+21  100  2  5.616e+08  1.696e+11           302  2.1393

