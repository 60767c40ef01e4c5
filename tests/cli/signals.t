Interrupted, terminated, hung up or killed by any other signal whose
default action ends a process (QUIT, PIPE, ALRM, USR1, USR2, XCPU, VTALRM,
PROF) while writing an output, loopscale removes the temporary file, leaves
the old destination as it was, and dies by the same signal, so a shell
reports 128 + its number (130, 143, 129, ...), plain and gzip alike:

  $ export TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ python3 $ROOT/tests/cli/signals.py
  SIGINT sweep.csv: written to a temporary file, killed by SIGINT, temporary files left: 0, old file kept
  SIGINT sweep.csv.gz: written to a temporary file, killed by SIGINT, temporary files left: 0, old file kept
  SIGTERM sweep.csv: written to a temporary file, killed by SIGTERM, temporary files left: 0, old file kept
  SIGTERM sweep.csv.gz: written to a temporary file, killed by SIGTERM, temporary files left: 0, old file kept
  SIGHUP sweep.csv: written to a temporary file, killed by SIGHUP, temporary files left: 0, old file kept
  SIGHUP sweep.csv.gz: written to a temporary file, killed by SIGHUP, temporary files left: 0, old file kept
  SIGQUIT sweep.csv: written to a temporary file, killed by SIGQUIT, temporary files left: 0, old file kept
  SIGQUIT sweep.csv.gz: written to a temporary file, killed by SIGQUIT, temporary files left: 0, old file kept
  SIGPIPE sweep.csv: written to a temporary file, killed by SIGPIPE, temporary files left: 0, old file kept
  SIGPIPE sweep.csv.gz: written to a temporary file, killed by SIGPIPE, temporary files left: 0, old file kept
  SIGALRM sweep.csv: written to a temporary file, killed by SIGALRM, temporary files left: 0, old file kept
  SIGALRM sweep.csv.gz: written to a temporary file, killed by SIGALRM, temporary files left: 0, old file kept
  SIGUSR1 sweep.csv: written to a temporary file, killed by SIGUSR1, temporary files left: 0, old file kept
  SIGUSR1 sweep.csv.gz: written to a temporary file, killed by SIGUSR1, temporary files left: 0, old file kept
  SIGUSR2 sweep.csv: written to a temporary file, killed by SIGUSR2, temporary files left: 0, old file kept
  SIGUSR2 sweep.csv.gz: written to a temporary file, killed by SIGUSR2, temporary files left: 0, old file kept
  SIGXCPU sweep.csv: written to a temporary file, killed by SIGXCPU, temporary files left: 0, old file kept
  SIGXCPU sweep.csv.gz: written to a temporary file, killed by SIGXCPU, temporary files left: 0, old file kept
  SIGVTALRM sweep.csv: written to a temporary file, killed by SIGVTALRM, temporary files left: 0, old file kept
  SIGVTALRM sweep.csv.gz: written to a temporary file, killed by SIGVTALRM, temporary files left: 0, old file kept
  SIGPROF sweep.csv: written to a temporary file, killed by SIGPROF, temporary files left: 0, old file kept
  SIGPROF sweep.csv.gz: written to a temporary file, killed by SIGPROF, temporary files left: 0, old file kept

A signal that was ignored when loopscale started (nohup, a background job
of a script) stays ignored, and the run completes:

  $ ( trap '' HUP; loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o s.csv & p=$!; kill -HUP $p; wait $p ); wc -l < s.csv
  2

The shell sees the signal: SIGUSR1 (10) is reported as 138, and nothing is
left behind:

  $ n=$(seq -s, 100000000 1000000 1599000000)
  $ sh -c 'loopscale simulate --law $TRUTH --n-act $1 --tokens $1 -o u.csv & p=$!; sleep 0.3; kill -USR1 $p; wait $p; echo "status $?"' sh $n 2> /dev/null; ls u.csv* 2> /dev/null | wc -l
  status 138
  0
