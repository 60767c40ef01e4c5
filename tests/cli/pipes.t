Every reader takes a FIFO, a process substitution (<(...)) and standard
input ("-"), and reads it once: formats are told from the stream's own
first bytes (kept and handed to the reader chosen), never by opening the
path a second time, which hung on a FIFO (the second open waits for a writer
that has gone) and lost the bytes of a pipe ("empty file (no header row)",
"not a .npy file").  Each case runs under `timeout`, so that a hang fails
the test (status 124) instead of stopping the suite.

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ T() { timeout 10 "$@"; }
  $ cat > npy.py <<'PY'
  > import struct, sys
  > path, descr, shape, values = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4])
  > header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, shape)
  > header += ' ' * (117 - len(header)) + '\n'
  > data = struct.pack('<' + {'f2': 'e', 'f4': 'f', 'f8': 'd'}[descr[1:]] * len(values), *values)
  > open(path, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data)
  > PY
  $ printf 'token,loop,layer,z0,z1,z2,z3\n0,1,1,2,0,1,-1\n0,2,1,0,3,0.5,0\n1,1,1,0,0,5,1\n1,2,1,0,0,5,2\n' > logits.csv
  $ python3 npy.py logits.npy '<f4' '(2, 2, 1, 4)' '[2,0,1,-1, 0,3,0.5,0, 0,0,5,1, 0,0,5,2]'
  $ loopscale route -k 1 logits.csv | tail -n +2 > want.txt
  $ loopscale route -k 1 logits.npy | tail -n +2 | cmp - want.txt
  $ mkfifo fifo

route: a FIFO, process substitution and standard input, CSV and .npy, all
give what the regular file gives:

  $ cat logits.csv > fifo & T loopscale route -k 1 fifo | tail -n +2 | cmp - want.txt
  $ cat logits.npy > fifo & T loopscale route -k 1 fifo | tail -n +2 | cmp - want.txt
  $ T loopscale route -k 1 <(cat logits.csv) | tail -n +2 | cmp - want.txt
  $ T loopscale route -k 1 <(cat logits.npy) | tail -n +2 | cmp - want.txt
  $ T loopscale route -k 1 - < logits.npy | tail -n +2 | cmp - want.txt
  $ cat logits.npy | T loopscale route -k 1 - | tail -n +2 | cmp - want.txt
  $ gzip -c logits.csv | T loopscale route -k 1 - | tail -n +2 | cmp - want.txt

A compressed .npy is still refused, from a pipe as from a file, and a
.npy array given where CSV belongs says what it is:

  $ gzip -c logits.npy > logits.npy.gz
  $ T loopscale route -k 1 logits.npy.gz
  loopscale route: logits.npy.gz: gzip-compressed; a .npy file must be uncompressed
  [65]
  $ T loopscale route -k 1 <(gzip -c logits.npy) 2>&1 | sed 's/[0-9][0-9]*:/N:/'
  loopscale route: /dev/fd/N: gzip-compressed; a .npy file must be uncompressed
  $ T loopscale predict --law $LAW logits.npy
  loopscale predict: logits.npy: a NumPy .npy array, not a CSV file
  [65]
  $ T loopscale route -k 1 - < /dev/null
  loopscale route: <stdin>: empty file (no header row)
  [65]

exit: the CSV table from a FIFO, process substitution or standard input,
and the two .npy arrays from process substitutions:

  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n0,3,0.5,1\n1,1,0.25,1.5\n1,2,3,4\n1,3,0.125,0.5\n' > table.csv
  $ loopscale exit --format csv table.csv > want.csv
  $ cat table.csv > fifo & T loopscale exit --format csv fifo | cmp - want.csv
  $ T loopscale exit --format csv <(cat table.csv) | cmp - want.csv
  $ T loopscale exit --format csv - < table.csv | cmp - want.csv
  $ python3 npy.py h.npy '<f8' '(2, 3)' '[2, 1, 0.5, 0.25, 3, 0.125]'
  $ python3 npy.py nll.npy '<f8' '(2, 3)' '[3, 2, 1, 1.5, 4, 0.5]'
  $ T loopscale exit --format csv <(cat h.npy) <(cat nll.npy) | cmp - want.csv
  $ cat h.npy > fifo & T loopscale exit --format csv fifo nll.npy | cmp - want.csv
  $ cat h.npy > fifo & T loopscale exit fifo
  loopscale exit: fifo is a .npy array: give two, the entropy and then the NLL
  Try 'loopscale exit --help'.
  [64]

Sweeps, gzip or plain, from a FIFO, process substitution and standard input:

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n6e8,1e11,2.4\n' > s.csv
  $ loopscale predict --law $LAW --format csv s.csv > want.csv
  loopscale predict: RMSE 0.0490971 over 2 runs (loss units)
  $ cat s.csv > fifo & T loopscale predict --law $LAW --format csv fifo | cmp - want.csv
  loopscale predict: RMSE 0.0490971 over 2 runs (loss units)
  $ gzip -c s.csv > fifo & T loopscale predict --law $LAW --format csv fifo | cmp - want.csv
  loopscale predict: RMSE 0.0490971 over 2 runs (loss units)
  $ T loopscale predict --law $LAW --format csv <(gzip -c s.csv) | cmp - want.csv
  loopscale predict: RMSE 0.0490971 over 2 runs (loss units)
  $ gzip -c s.csv | T loopscale predict --law $LAW --format csv - | cmp - want.csv
  loopscale predict: RMSE 0.0490971 over 2 runs (loss units)

Law files, templates and shapes, from a FIFO, process substitution and
standard input:

  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 > want.txt
  $ cat $LAW > fifo & T loopscale predict --law fifo --n-act 1e9 --tokens 1e11 | cmp - want.txt
  $ T loopscale predict --law <(cat $LAW) --n-act 1e9 --tokens 1e11 | cmp - want.txt
  $ T loopscale predict --law - --n-act 1e9 --tokens 1e11 < $LAW | cmp - want.txt
  $ printf '{"top_k": 2,' | T loopscale solve --flops 1e21 --template -
  loopscale solve: <stdin>:1:12: not valid JSON
  [65]
  $ printf '{"top_k": 2, "loop_layers": 8}' > t.json
  $ loopscale solve --flops 1e21 --mem 1e12 --E 2,4 --template t.json > want.txt
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: t.json is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); N_loop/N_act 0.6667 where the runs had 0.75 (11.1% apart); the law predicts the loss of models like its runs, and the answers count parameters as t.json does
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.903e+09 (fitted 1e+08 to 1e+09), D = 8.757e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ cat t.json > fifo & T loopscale solve --flops 1e21 --mem 1e12 --E 2,4 --template fifo | cmp - want.txt
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: fifo is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); N_loop/N_act 0.6667 where the runs had 0.75 (11.1% apart); the law predicts the loss of models like its runs, and the answers count parameters as fifo does
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.903e+09 (fitted 1e+08 to 1e+09), D = 8.757e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ T loopscale solve --flops 1e21 --mem 1e12 --E 2,4 --template <(cat t.json) | cmp - want.txt
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: /dev/fd/63 is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); N_loop/N_act 0.6667 where the runs had 0.75 (11.1% apart); the law predicts the loss of models like its runs, and the answers count parameters as /dev/fd/63 does
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.903e+09 (fitted 1e+08 to 1e+09), D = 8.757e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ T loopscale solve --flops 1e21 --mem 1e12 --E 2,4 --template - < t.json | cmp - want.txt
  loopscale solve: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale solve: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale solve: warning: - is not the architecture of the runs the default law was fitted on (top-1, routed share 0.6667, loop share 0.75): N_total/N_act 21.67 where the runs had 43 (at E = 64, R = 1, 49.6% apart); N_loop/N_act 0.6667 where the runs had 0.75 (11.1% apart); the law predicts the loss of models like its runs, and the answers count parameters as - does
  loopscale solve: warning: chosen, lowest loss, no memory limit: N_act = 1.903e+09 (fitted 1e+08 to 1e+09), D = 8.757e+10 (fitted 1e+11 to 5e+11): outside the ranges the law was fitted on, an extrapolation
  loopscale solve: warning: chosen, lowest loss, no memory limit: E = 4, the largest searched: at an end of the search range, not an optimum (a value beyond may be better: widen --E)
  $ printf '{"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}' > shape.json
  $ loopscale shape --shape shape.json > want.txt
  $ cat shape.json > fifo & T loopscale shape --shape fifo | cmp - want.txt
  $ T loopscale shape --shape <(cat shape.json) | cmp - want.txt
  $ T loopscale shape --shape - < shape.json | cmp - want.txt

fit reads its sweep once, so a law fitted from a FIFO, a process
substitution or standard input records the checksum of the bytes it read
(the file's own, as sha256sum gives it) and reads back like any law file:

  $ zcat $ROOT/data/sweeps/looped-dense.csv.gz > dense.csv
  $ sha256sum < dense.csv | cut -c1-64 > want.txt
  $ fitted() { grep -o '"sha256": "[0-9a-f]*"' "$1" | cut -d'"' -f4 | cmp - want.txt; }
  $ cat dense.csv > fifo & T loopscale fit --law dense --format json fifo > l1.json && fitted l1.json
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ T loopscale fit --law dense --format json <(cat dense.csv) > l2.json && fitted l2.json
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ T loopscale fit --law dense --format json - < dense.csv > l3.json && fitted l3.json
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ T loopscale predict --law l3.json dense.csv | tail -n 1
  loopscale predict: warning: l3\.json's fit: B = \S+ is poorly determined: its \S+% interval from its standard error \[\S+, \S+\] spans a factor \S+, more than \S+ (re)
  loopscale predict: warning: l3.json's fit: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale predict: warning: l3\.json's fit: the compute-optimal exponent a = \S+ is poorly determined: its \S+% interval from the standard errors \[\S+, \S+\] is \S+ wide, more than \S+, so N_opt and D_opt far from the runs are not to be trusted (re)
  loopscale predict: warning: l3.json's fit: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale predict: warning: l3.json's fit: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  loopscale predict: columns the law does not read: n_total, n_loop, R, E, k
  RMSE 0.0411992 over 140 runs (loss units)
