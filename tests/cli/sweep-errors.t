Every check of a sweep file (docs/formats.md) refuses the sweep with
FILE:LINE, the column, the offending text, and exit status 65 (bad input
data).

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ check() { printf "$1" > s.csv; loopscale predict --law $LAW s.csv > /dev/null; }

A missing required column:

  $ check 'tokens,loss\n1e11,2.5\n'
  loopscale predict: s.csv:1: no column 'n_act' (or 'N', 'params', or one renamed to it), and no configuration to count it from (d_model, loop_layers, d_ff, ...)
  [65]
  $ check 'n_act,loss\n3e8,2.5\n'
  loopscale predict: s.csv:1: no column 'tokens' (or 'D'), and no 'flops' to derive it from
  [65]

Cells that are empty, not numbers, NaN or infinite:

  $ check 'n_act,tokens,loss\n3e8,1e11,\n'
  loopscale predict: s.csv:2: column 'loss': '' is empty
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.7x\n'
  loopscale predict: s.csv:2: column 'loss': '2.7x' is not a number
  [65]
  $ check 'n_act,tokens,loss\n3e8,nan,2.5\n'
  loopscale predict: s.csv:2: column 'tokens': 'nan' is not a finite number
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,inf\n'
  loopscale predict: s.csv:2: column 'loss': 'inf' is not a finite number
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,-Infinity\n'
  loopscale predict: s.csv:2: column 'loss': '-Infinity' is not a finite number
  [65]
  $ check 'n_act,tokens,loss\n1e999,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_act': '1e999' is out of range
  [65]

Sizes and losses must be positive:

  $ check 'n_act,tokens,loss\n0,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_act': '0' must be positive
  [65]
  $ check 'n_act,tokens,loss\n3e8,-1e11,2.5\n'
  loopscale predict: s.csv:2: column 'tokens': '-1e11' must be positive
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,0\n'
  loopscale predict: s.csv:2: column 'loss': '0' must be positive
  [65]
  $ check 'n_act,flops,loss\n3e8,-5,2.5\n'
  loopscale predict: s.csv:2: column 'flops': '-5' must be positive
  [65]

So is the number of unique tokens a run's data was drawn from (read by the
data-constrained law), under any of its names:

  $ check 'n_act,tokens,unique_tokens,loss\n3e8,1e11,0,2.5\n'
  loopscale predict: s.csv:2: column 'unique_tokens': '0' must be positive
  [65]
  $ check 'n_act,tokens,U,loss\n3e8,1e11,-2e10,2.5\n'
  loopscale predict: s.csv:2: column 'U': '-2e10' must be positive
  [65]
  $ check 'n_act,tokens,tokens_per_epoch,loss\n3e8,1e11,lots,2.5\n'
  loopscale predict: s.csv:2: column 'tokens_per_epoch': 'lots' is not a number
  [65]

Loops and experts are whole numbers, R >= 1, E >= k:

  $ check 'n_act,n_loop,R,tokens,loss\n3e8,2e8,0,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'R': '0' must be at least 1
  [65]
  $ check 'n_act,n_loop,R,tokens,loss\n3e8,2e8,2.5,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'R': '2.5' is not an integer
  [65]
  $ check 'n_act,E,tokens,loss\n3e8,1.5,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'E': '1.5' is not an integer
  [65]
  $ check 'n_act,E,k,tokens,loss\n3e8,1,2,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'E': '1' is less than k (2)
  [65]
  $ check 'n_act,k,tokens,loss\n3e8,2,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'k': '2' is greater than E (1)
  [65]

Parameter counts must be consistent:

  $ check 'n_act,n_loop,R,tokens,loss\n3e8,4e8,2,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_loop': '4e8' is greater than n_act (300000000)
  [65]
  $ check 'n_act,n_total,tokens,loss\n3e8,2e8,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_total': '2e8' is less than n_act (300000000)
  [65]
  $ check 'n_act,R,tokens,loss\n3e8,4,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'R': '4' needs an n_loop column (R > 1)
  [65]
  $ check 'n_act,n_loop,R,tokens,loss\n3e8,,4,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_loop': '' is empty, but this row has R = 4
  [65]

A sweep with both a tokens and a flops column must not let one silently win:
each row's flops must give its tokens through F = 6 N_unroll D, within 1e-4
relative (values printed to 6 significant digits pass).  A log whose FLOPs
count something else (embeddings, attention) can set the column aside with
--map, which names it something that is not a quantity:

  $ check 'n_act,tokens,flops,loss\n3e8,1e11,1.8e20,2.5\n3e8,1e11,1.8e21,2.5\n'
  loopscale predict: s.csv:3: column 'flops': '1.8e21' gives tokens D = F / (6 N_unroll) = 1e+12, but column 'tokens' is '1e11' (more than 0.0001 apart, relative)
  [65]
  $ check 'n_act,n_loop,R,tokens,flops,loss\n3e8,2.25e8,4,1e11,5.85e20,2.5\n3e8,2.25e8,4,1e11,1.8e20,2.5\n'
  loopscale predict: s.csv:3: column 'flops': '1.8e20' gives tokens D = F / (6 N_unroll) = 3.07692e+10, but column 'tokens' is '1e11' (more than 0.0001 apart, relative)
  [65]
  $ check 'N,D,flops,loss\n123456789,987654321,7.31742e+17,2.5\n'
  loopscale predict: s.csv:2: column 'flops': '7.31742e+17' gives tokens D = F / (6 N_unroll) = 9.87852e+08, but column 'D' is '987654321' (more than 0.0001 apart, relative)
  [65]
  $ check 'N,D,flops,loss\n123456789,987654321,7.31596e+17,2.5\n'
  $ printf 'n_act,tokens,flops,loss\n3e8,1e11,1.8e20,2.5\n3e8,1e11,1.8e21,2.5\n' > both.csv
  $ loopscale predict --law $LAW --map train_flops=flops --format csv both.csv 2>/dev/null | cut -d, -f1-4
  n_act,tokens,flops,loss
  3e8,1e11,1.8e20,2.5
  3e8,1e11,1.8e21,2.5
  $ printf 'n_act,tokens,flops,loss\n3e8,1e11,1.8e20,2.5\n3e8,2e11,1.8e20,2.5\n' | loopscale fit --law dense -
  loopscale fit: <stdin>:3: column 'flops': '1.8e20' gives tokens D = F / (6 N_unroll) = 1e+11, but column 'tokens' is '2e11' (more than 0.0001 apart, relative)
  [65]

An empty n_loop is fine at R = 1, where it is not used:

  $ check 'n_act,n_loop,R,tokens,loss\n3e8,,1,1e11,2.5\n'

The line number counts comments and blank lines, and names the row's own line:

  $ check '# a sweep\nn_act,tokens,loss\n\n3e8,1e11,2.5\n3e8,1e11,x\n'
  loopscale predict: s.csv:5: column 'loss': 'x' is not a number
  [65]

The shape of the file:

  $ check ''
  loopscale predict: s.csv: empty file (no header row)
  [65]
  $ check 'n_act,tokens,loss\n'
  loopscale predict: s.csv: no rows after the header
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11\n'
  loopscale predict: s.csv:2: 2 fields, but the header has 3
  [65]
  $ check 'n_act,tokens,loss,N\n3e8,1e11,2.5,3e8\n'
  loopscale predict: s.csv:1: column 'n_act' and column 'N' both give n_act
  [65]
  $ check 'n_act,tokens,loss,x,X\n3e8,1e11,2.5,1,2\n'
  loopscale predict: s.csv:1: field 5: column 'X' appears twice: field 4 is 'x', and names are compared ignoring case and surrounding white space
  [65]
  $ check 'n_act,tokens,loss\n"3e8,1e11,2.5\n'
  loopscale predict: s.csv:2: field 1: unterminated quoted field
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.5\x00\n'
  loopscale predict: s.csv:2: binary data (a NUL byte); not a CSV file
  [65]

Damaged gzip, a directory, a missing file:

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' | gzip > ok.gz
  $ head -c 20 ok.gz > cut.gz
  $ loopscale predict --law $LAW cut.gz
  loopscale predict: cut.gz: corrupt or truncated gzip data (unexpected end of file)
  [65]
  $ loopscale predict --law $LAW .
  loopscale predict: .: is a directory
  [66]
  $ loopscale predict --law $LAW missing.csv
  loopscale predict: missing.csv: cannot open: No such file or directory
  [66]

Filters and renames that do not fit the file are usage errors (64):

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' > ok.csv
  $ loopscale predict --law $LAW --where 'lr<1' ok.csv
  loopscale predict: filter 'lr<1': ok.csv has no column 'lr'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'R<x' ok.csv
  loopscale predict: filter 'R<x': 'x' is not a number (only = == != ~ !~ compare text)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'R' ok.csv
  loopscale predict: filter 'R': expected COLUMN OP VALUE with OP one of < <= = == != >= > ~ !~
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where ' <5' ok.csv
  loopscale predict: filter ' <5': no column name before '<'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where '>=5' ok.csv
  loopscale predict: filter '>=5': no column name before '>='
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where '  !=5' ok.csv
  loopscale predict: filter '  !=5': no column name before '!='
  Try 'loopscale predict --help'.
  [64]
  $ printf 'n_act,tokens\n3e8,1e11\n' > noloss.csv
  $ loopscale predict --law $LAW --where 'loss<3' noloss.csv
  loopscale predict: filter 'loss<3': noloss.csv has no column 'loss'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'n_loop<3e8' noloss.csv
  loopscale predict: filter 'n_loop<3e8': noloss.csv has no column 'n_loop'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'R<=8' --where 'E==1' --where 'k=1' --where 'n_total>1' --where 'flops>1' noloss.csv 2>&1 | head -1
  line  n_act  n_total  n_loop  R  E  tokens  loss  pred_loss  residual
  $ loopscale fit --law dense --where 'loss<3' noloss.csv
  loopscale fit: noloss.csv:1: no column 'loss'
  [65]
  $ loopscale predict --law $LAW --map n_loop=blocks ok.csv
  loopscale predict: rename 'n_loop=blocks': ok.csv has no column 'blocks'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --map n_loop ok.csv
  loopscale predict: rename 'n_loop': expected NEW=OLD
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --where 'R>1' ok.csv
  loopscale predict: ok.csv: no rows left after the filters
  [65]
