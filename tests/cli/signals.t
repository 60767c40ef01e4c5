Interrupted, terminated or hung up while writing an output, loopscale
removes the temporary file, leaves the old destination as it was, and exits
with 128 + the signal's number (130, 143, 129), plain and gzip alike:

  $ export TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ python3 $ROOT/tests/cli/signals.py
  SIGINT sweep.csv: written to a temporary file, exit 130, temporary files left: 0, old file kept
  SIGINT sweep.csv.gz: written to a temporary file, exit 130, temporary files left: 0, old file kept
  SIGTERM sweep.csv: written to a temporary file, exit 143, temporary files left: 0, old file kept
  SIGTERM sweep.csv.gz: written to a temporary file, exit 143, temporary files left: 0, old file kept
  SIGHUP sweep.csv: written to a temporary file, exit 129, temporary files left: 0, old file kept
  SIGHUP sweep.csv.gz: written to a temporary file, exit 129, temporary files left: 0, old file kept

A signal that was ignored when loopscale started (nohup, a background job
of a script) stays ignored, and the run completes:

  $ ( trap '' HUP; loopscale simulate --law $TRUTH --n-act 3e8 --tokens 1e11 -o s.csv & p=$!; kill -HUP $p; wait $p ); wc -l < s.csv
  2
