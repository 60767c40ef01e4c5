Nothing is lost.  Output files are written to a temporary file beside the
destination and renamed over it only when everything was written, so a run
that fails leaves an existing file untouched and no temporary file behind;
a full disk or a closed standard output is an error (74), never ignored.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ SWEEP=$ROOT/data/sweeps/looped-dense.csv.gz
  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n3e8,1e11\n' > ragged.csv
  $ keep() { for f in "$@"; do echo "precious $f" > $f; done; }

A failed run leaves every existing output file as it was, whatever failed:
the input, the fit, the options, or the output itself:

  $ keep law.json fit.svg
  $ loopscale fit --law dense -o law.json --plot fit.svg ragged.csv
  loopscale fit: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale fit --law dense --max-iterations 1 --starts 2 -o law.json --plot fit.svg $SWEEP > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: the best of 2 starts did not converge (after 1 iteration); no law file written (law.json keeps its old content)
  [3]
  $ loopscale fit --law dense -o law.json --plot /nonexistent/fit.svg $SWEEP > /dev/null
  loopscale fit: /nonexistent/fit.svg: cannot create: No such file or directory
  [73]
  $ loopscale fit --law dense -o law.json --plot /dev/full $SWEEP > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: /dev/full: write error: No space left on device
  [74]
  $ loopscale fit --law dense -o law.json --plot fit.svg $SWEEP > /dev/full
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: write error on standard output: No space left on device
  [74]
  $ cat law.json fit.svg
  precious law.json
  precious fit.svg

An output that names an input would replace the data with its result:

  $ cp $SWEEP runs.svg
  $ loopscale fit --law dense -o runs.svg runs.svg
  loopscale fit: --output runs.svg would replace the input SWEEP runs.svg
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --plot ./runs.svg runs.svg
  loopscale fit: --plot ./runs.svg would replace the input SWEEP runs.svg
  Try 'loopscale fit --help'.
  [64]
  $ gzip -t runs.svg && rm runs.svg
  $ keep sweep.csv sweep.csv.gz
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 --R 0.5 -o sweep.csv
  loopscale simulate: --R: '0.5' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 3e8,0.4 --tokens 1e11 -o sweep.csv.gz
  loopscale simulate: --n-act: '0.4' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale simulate --help'.
  [64]
  $ cat sweep.csv sweep.csv.gz
  precious sweep.csv
  precious sweep.csv.gz
  $ keep holdout.svg iso.svg solve.svg rho.svg
  $ loopscale holdout --plot holdout.svg ragged.csv
  loopscale holdout: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale isoflop --law $TRUTH --flops 1e21,1 --plot iso.svg > /dev/null
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: no model fits a budget of 1 FLOP
  [65]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 100 --plot solve.svg --plot-rho rho.svg 2> /dev/null
  [65]
  $ loopscale solve --law $TRUTH --flops 1e21 --mem 1TB --eps 0 --plot solve.svg --plot-rho /dev/full > /dev/null
  loopscale solve: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 64, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  loopscale solve: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale solve: /dev/full: write error: No space left on device
  [74]
  $ cat holdout.svg iso.svg solve.svg rho.svg
  precious holdout.svg
  precious iso.svg
  precious solve.svg
  precious rho.svg
  $ ls
  fit.svg
  holdout.svg
  iso.svg
  law.json
  ragged.csv
  rho.svg
  solve.svg
  sweep.csv
  sweep.csv.gz

A successful run replaces the file, keeping its permissions:

  $ chmod 640 sweep.csv
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o sweep.csv
  $ head -1 sweep.csv; stat -c %a sweep.csv
  n_act,n_total,n_loop,R,E,k,tokens,flops,loss
  640

Output files that cannot be created (73), or fill the disk (74):

  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o /nonexistent/sweep.csv
  loopscale simulate: /nonexistent/sweep.csv: cannot create: No such file or directory
  [73]
  $ mkdir out
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o out
  loopscale simulate: out: is a directory
  [73]
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o /dev/full
  loopscale simulate: /dev/full: write error: No space left on device
  [74]
  $ loopscale fit --law dense -o /dev/full $SWEEP > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: /dev/full: write error: No space left on device
  [74]
  $ loopscale fit --law dense --plot /dev/full $SWEEP > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: /dev/full: write error: No space left on device
  [74]
  $ loopscale solve --law $TRUTH --flops 1e21 --plot-rho /dev/full > /dev/null 2>&1
  [74]

Every command that prints reports a full standard output (74):

  $ loopscale fit --law dense $SWEEP > /dev/full
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: write error on standard output: No space left on device
  [74]
  $ loopscale fit --law dense --format json $SWEEP > /dev/full
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: write error on standard output: No space left on device
  [74]
  $ loopscale holdout --laws dense:bounded --axes R $SWEEP > /dev/full
  loopscale holdout: write error on standard output: No space left on device
  [74]
  $ loopscale predict --law $TRUTH $SWEEP > /dev/full
  loopscale predict: a column the law does not read: k
  loopscale predict: write error on standard output: No space left on device
  [74]
  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 1e11 > /dev/full
  loopscale predict: write error on standard output: No space left on device
  [74]
  $ loopscale solve --law $TRUTH --flops 1e21 > /dev/full 2> err.txt; echo $?; tail -1 err.txt
  74
  loopscale solve: write error on standard output: No space left on device
  $ loopscale solve --print-template > /dev/full
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: write error on standard output: No space left on device
  [74]
  $ loopscale isoflop --law $TRUTH --flops 1e21 --format csv > /dev/full
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: write error on standard output: No space left on device
  [74]
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 > /dev/full
  loopscale simulate: write error on standard output: No space left on device
  [74]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 > /dev/full
  loopscale shape: write error on standard output: No space left on device
  [74]
  $ printf 'token,loop,layer,z0,z1\n0,1,1,0,1\n0,2,1,1,0\n' > logits.csv
  $ loopscale route -k 1 logits.csv > /dev/full
  loopscale route: write error on standard output: No space left on device
  [74]
  $ printf 'token,loop,entropy,nll\n0,1,1,2\n0,2,0.5,1\n' > exits.csv
  $ loopscale exit exits.csv > /dev/full
  loopscale exit: write error on standard output: No space left on device
  [74]
  $ loopscale help fit > /dev/full
  loopscale fit: write error on standard output: No space left on device
  [74]
  $ loopscale --version > /dev/full
  loopscale: write error on standard output: No space left on device
  [74]

A closed standard output is reported the same way:

  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 1e11 >&-
  loopscale predict: write error on standard output: Bad file descriptor
  [74]
  $ loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 >&-
  loopscale simulate: write error on standard output: Bad file descriptor
  [74]

A run that fails for another reason says only why it failed, even with
standard output closed:

  $ loopscale simulate --law $TRUTH >&-
  loopscale simulate: give --n-act and --tokens
  Try 'loopscale simulate --help'.
  [64]

A file-size limit (ulimit -f) is a write error, not a death by SIGXFSZ
that would leave the temporary file behind:

  $ n=$(seq -s, 100000000 1000000 399000000)
  $ (ulimit -f 100; loopscale simulate --law $TRUTH --n-act $n --tokens $n -o big.csv)
  loopscale simulate: big.csv: write error: File too large
  [74]
  $ (ulimit -f 100; loopscale simulate --law $TRUTH --n-act $n --tokens $n -o big.csv.gz)
  loopscale simulate: big.csv.gz: write error: File too large
  [74]
  $ ls big.csv*
  ls: cannot access 'big.csv*': No such file or directory
  [2]

A figure too large to draw (a legend of 1500 budgets at its natural size,
past the 200 inches a page may be; 700 of them at 300 dpi, past a PNG's
32767 pixels a side) is refused as bad input, never left to fail inside
cairo as an internal error, and the plot file keeps its content:

  $ keep many.png
  $ many() { python3 -c "import sys; n = int(sys.argv[1]); print(','.join('%.4g' % (1e18 * 10 ** (4 * i / (n - 1))) for i in range(n)))" $1; }
  $ loopscale isoflop --law $TRUTH --flops $(many 1500) --plot many.png > /dev/null
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: the figure would be 9 x 263 in, past the 200 in a side a page can be: too many series or legend entries to draw
  [65]
  $ loopscale isoflop --law $TRUTH --flops $(many 700) --dpi 300 --plot many.png > /dev/null
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  loopscale isoflop: the figure would be a 2692 x 36922 pixel PNG, too large: at most 32767 pixels a side and 100 million in all; lower --dpi, or write .pdf or .svg
  [65]
  $ loopscale isoflop --law $TRUTH --flops $(many 700) --plot many.svg > /dev/null && grep -c '<svg' many.svg
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  1
  $ cat many.png
  precious many.png
