How a sweep is read, whatever its form (docs/formats.md): JSON Lines is
streamed a line at a time with CSV's limits, a value has one rule in a cell
and in an option, and a derived name never hides a column of the file.

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json

Bounded memory.  A line is at most 16 MiB, in JSON Lines as in CSV, and the
limit holds as the line is read: an endless one on a pipe is refused at once,
within 300 MB of address space (the program itself takes about 100 MB of it;
a sanitizer build, which reserves terabytes for its shadow memory, runs
without the limit):

  $ bounded() { if ldd "$LOOPSCALE_BIN" | grep -q libasan; then "$@"; else (ulimit -v 300000; "$@"); fi; }
  $ endless() { printf '{"a": ['; yes '0,' | tr -d '\n'; }
  $ endless | bounded loopscale fit --law dense -
  loopscale fit: <stdin>:1:1: line longer than 16 MiB, the limit for one record: '{"a": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0...'
  [65]
  $ yes 'n_act,tokens,loss' | tr -d '\n' | bounded loopscale fit --law dense -
  loopscale fit: <stdin>:1: record longer than 16 MiB
  [65]

A small gzip that inflates to one long line (40 MB of a 20-million-item
array in 39 kB) is refused the same way, as a file too:

  $ (printf '{"n_act": 1e8, "tokens": 1e10, "loss": 3, "a": ['; yes '0,' | head -n 20000000 | tr -d '\n'; printf '0]}\n') | gzip -c > bomb.jsonl.gz
  $ bounded loopscale fit --law dense bomb.jsonl.gz
  loopscale fit: bomb.jsonl.gz:1:1: line longer than 16 MiB, the limit for one record: '{"n_act": 1e8, "tokens": 1e10, "loss": 3...'
  [65]

The row limit applies as the input is read.  JSON Lines is read twice (once
for its columns, the keys of every line, then for its runs: a pipe's bytes
are kept in a temporary file meanwhile), and the limit counts its lines on
the first reading, so an endless stream stops there as CSV's does:

  $ yes '{"n_act": 1e8, "tokens": 1e10, "loss": 3.1}' | LOOPSCALE_MAX_ROWS=1000 bounded loopscale fit --law dense -
  loopscale fit: <stdin>:1001: more than 1000 rows, the limit for a sweep held in memory
  [65]
  $ (echo n_act,tokens,loss; yes 1e8,1e10,3.1) | LOOPSCALE_MAX_ROWS=1000 loopscale fit --law dense -
  loopscale fit: <stdin>:1002: more than 1000 rows, the limit for a sweep held in memory
  [65]

A pipe and a file give the same runs (the pipe through its copy, gzip
included):

  $ printf '{"n_act": 1e8, "tokens": 1e10}\n{"n_act": 3e8, "tokens": 1e10, "loss": 2.9}\n\n{"loss": 2.7, "n_act": 1e9, "tokens": 2e10}\n' > sparse.jsonl
  $ gzip -c sparse.jsonl > sparse.jsonl.gz
  $ cat sparse.jsonl.gz | loopscale predict --law $LAW --where 'loss>0' -
  line  n_act  n_total  n_loop  R  E  tokens    loss  pred_loss  residual
     2  3e+08    3e+08       -  1  1   1e+10  2.9000     2.8170   +0.0830
     4  1e+09    1e+09       -  1  1   2e+10  2.7000     2.5288   +0.1712
  
  RMSE 0.134557 over 2 runs (loss units)

A JSON Lines file whose objects have no key says so, and where:

  $ printf '\n{}\n{"config": {}}\n' > empty.jsonl
  $ loopscale fit --law dense empty.jsonl
  loopscale fit: empty.jsonl:2:1: '{}' has no key with a value, and neither has any of the other 1 lines: no column to read
  [65]
  $ printf '\n\n' > blank.jsonl
  $ loopscale fit --law dense blank.jsonl
  loopscale fit: blank.jsonl: empty file (no JSON object)
  [65]

One rule for a value.  A cell outside the range an option has is refused
with the option's reason (R up to 10000 loops, E and k up to a million, sizes
and tokens up to 1e20, FLOPs up to 1e40):

  $ printf 'n_act,n_loop,R,tokens,loss\n3e8,2.25e8,20000,1e11,2.5\n' > r.csv
  $ loopscale predict --law $LAW r.csv
  loopscale predict: r.csv:2: column 'R': '20000' is outside its range: an integer from 1 to 10000 (loops)
  [65]
  $ loopscale predict --law $LAW --n-act 3e8 --n-loop 2.25e8 --R 20000 --tokens 1e11
  loopscale predict: --R: '20000' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale predict --help'.
  [64]
  $ printf '{"n_act": 3e8, "E": 2e6, "tokens": 1e11, "loss": 2.5}\n' > e.jsonl
  $ loopscale predict --law $LAW e.jsonl
  loopscale predict: e.jsonl:1: column 'E': '2000000' is outside its range: an integer from 1 to 1e+06 (experts)
  [65]
  $ printf 'n_act,flops,loss\n1e8,1e40,2.5\n' > f.csv
  $ loopscale predict --law $LAW f.csv
  loopscale predict: f.csv:2: column 'flops': '1e40' gives tokens D = F / (6 N_unroll) = 1.66667e+31, which is outside its range: from 1 to 1e+20 (tokens)
  [65]

Unit suffixes are for the counts logs write large (sizes, tokens, FLOPs), not
for the loss, R, E or k, in a cell or in a filter:

  $ printf 'n_act,tokens,loss\n125M,2.8B,2.5k\n' > k.csv
  $ loopscale predict --law $LAW k.csv
  loopscale predict: k.csv:2: column 'loss': '2.5k' has a unit suffix, and loss is a plain number (k, M, B, T are for sizes, tokens and FLOPs)
  [65]
  $ printf 'n_act,tokens,loss\n125M,2.8B,2.5\n' > ok.csv
  $ loopscale predict --law $LAW --where 'loss<2.6k' ok.csv
  loopscale predict: filter 'loss<2.6k': the value has a unit suffix, and loss is a plain number (k, M, B, T are for sizes, tokens and FLOPs)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'n_act<0.2B' ok.csv | tail -1
  RMSE 0.782046 over 1 run (loss units)

No column traps.  n_unroll, tokens_per_param and epochs are derived only for
a file that has no column of that name: a file's own epochs column is what a
filter on epochs compares (here each row's D / U differs from it):

  $ printf 'n_act,tokens,unique_tokens,epochs,loss\n1e8,3e9,1.5e9,1,3.1\n1e8,6e9,1.5e9,3,3.0\n2e8,1.5e9,1.5e9,2,2.9\n' > ep.csv
  $ loopscale predict --law $LAW --where 'epochs=1' ep.csv
  line  n_act  n_total  n_loop  R  E  tokens    loss  pred_loss  residual
     2  1e+08    1e+08       -  1  1   3e+09  3.1000     3.3232   -0.2232
  
  RMSE 0.223168 over 1 run (loss units)
  loopscale predict: a column the law does not read: unique_tokens
  $ cut -d, -f1-3,5 ep.csv > derived.csv
  $ loopscale predict --law $LAW --where 'epochs=1' derived.csv
  line  n_act  n_total  n_loop  R  E   tokens    loss  pred_loss  residual
     4  2e+08    2e+08       -  1  1  1.5e+09  2.9000     3.3587   -0.4587
  
  RMSE 0.458739 over 1 run (loss units)
  loopscale predict: a column the law does not read: unique_tokens

A placeholder unique-tokens column can be set aside without another column to
take its place: every run's data is then unlimited (epochs = 1):

  $ loopscale predict --law $LAW --map unread=unique_tokens --where 'epochs=1' derived.csv | tail -1
  RMSE 0.309304 over 3 runs (loss units)

The other JSON documents (law files, templates, profiles, shapes) are read
whole, up to their size limits (16 MiB for a law file, 1 MiB for the others),
into a tree that costs 64 bytes a value; a value takes at least 8 bytes of
text in any document loopscale writes (about 17 in a law file with bootstrap
draws), so a denser one is refused before its tree is built (a 16 MB law file
of zeros took 650 MB):

  $ python3 -c 'print("{\"format\": \"loopscale-law/1\", \"x\": [" + ",".join(["0"] * 300000) + "]}")' > zeros.json
  $ bounded loopscale predict --law zeros.json --n-act 1e8 --tokens 1e10
  loopscale predict: zeros.json:1:158226: more than 79100 values in 600038 bytes: a document loopscale reads holds at most one value per 8 bytes
  [65]
  $ loopscale fit --law dense:linear --bootstrap 200 --seed 7 -o law.json $ROOT/data/sweeps/looped-dense.csv.gz > /dev/null 2>&1
  $ loopscale predict --law law.json --n-act 1e8 --tokens 1e10 2> /dev/null | head -1
  loss                       3.06418
