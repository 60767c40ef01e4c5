Bad sweep files, beyond the cell checks of sweep-errors.t: the shape of the
file, damaged and foreign bytes, very long lines and very many rows.  Each
is refused with one line naming the file (and the line where there is one)
and status 65 (bad data) or 66 (missing or unreadable input).  The checks
are the sweep reader's, so every command that reads sweeps says the same.

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ check() { printf "$1" > s.csv; loopscale predict --law $LAW s.csv > /dev/null; }

The shape of the file: a header and nothing else (a comment or blank lines
do not count as rows), rows longer or shorter than the header, a quoted
field left open at the end of the file, a quote in the middle of a field or
text after a closing quote:

  $ check '# only a comment\n\n'
  loopscale predict: s.csv: empty file (no header row)
  [65]
  $ check 'n_act,tokens,loss\n# no runs yet\n\n'
  loopscale predict: s.csv: no rows after the header
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.5,7\n'
  loopscale predict: s.csv:2: 4 fields, but the header has 3
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.5\n3e8\n'
  loopscale predict: s.csv:3: 1 fields, but the header has 3
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,"2.5\n3e8,1e11,2.5\n'
  loopscale predict: s.csv:2: field 3: unterminated quoted field
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2"5\n'
  loopscale predict: s.csv:2: field 3: a quote inside an unquoted field (quote the whole field)
  [65]
  $ check 'n_act,tokens,loss\n3e8,"1e11"x,2.5\n'
  loopscale predict: s.csv:2: field 2: text after the closing quote
  [65]

Counts that are not whole numbers, or below one:

  $ check 'n_act,n_loop,R,tokens,loss\n3e8,2e8,1e0.5,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'R': '1e0.5' is not a number
  [65]
  $ check 'n_act,n_loop,R,tokens,loss\n3e8,2e8,-2,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'R': '-2' must be at least 1
  [65]
  $ check 'n_act,n_total,E,tokens,loss\n3e8,6e8,2.000001,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'E': '2.000001' is not an integer
  [65]
  $ check 'n_act,E,tokens,loss\n3e8,0,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'E': '0' must be at least 1
  [65]
  $ check 'n_act,E,k,tokens,loss\n3e8,8,0.5,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'k': '0.5' is not an integer
  [65]
  $ check 'n_act,n_loop,R,tokens,loss\n3e8,0,2,1e11,2.5\n'
  loopscale predict: s.csv:2: column 'n_loop': '0' must be positive
  [65]

Damaged gzip: cut short, a flipped bit in its checksum, or garbage where
the compressed data should be:

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' | gzip -n > ok.gz
  $ head -c 30 ok.gz > cut.gz
  $ loopscale predict --law $LAW cut.gz
  loopscale predict: cut.gz: corrupt or truncated gzip data (unexpected end of file)
  [65]
  $ python3 -c 'import sys; b = bytearray(open("ok.gz", "rb").read()); b[-8] ^= 1; sys.stdout.buffer.write(b)' > crc.gz
  $ loopscale predict --law $LAW crc.gz
  loopscale predict: crc.gz: corrupt or truncated gzip data (incorrect data check)
  [65]
  $ printf '\037\213\010\000\000\000\000\000\000\003\377\377\377\377' > junk.gz
  $ loopscale predict --law $LAW junk.gz
  loopscale predict: junk.gz: corrupt or truncated gzip data (invalid block type)
  [65]

Rows appended in plain text to a gzip file (or anything else after the
compressed stream) would be lost without a word; they are refused.  A
second gzip stream after the first is read, as gzip does:

  $ cp ok.gz appended.gz && printf '3e8,2e11,2.4\n' >> appended.gz
  $ loopscale predict --law $LAW appended.gz
  loopscale predict: appended.gz: data after the end of the gzip stream
  [65]
  $ cat appended.gz | loopscale predict --law $LAW -
  loopscale predict: <stdin>: data after the end of the gzip stream
  [65]
  $ cp ok.gz twice.gz && printf '3e8,2e11,2.4\n' | gzip -n >> twice.gz
  $ loopscale predict --law $LAW twice.gz | tail -1
  RMSE 0.089038 over 2 runs (loss units)

A binary file (a PNG image; a spreadsheet saved as UTF-16 has NUL bytes
too), and an empty gzip stream:

  $ printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\001' > image.csv
  $ loopscale predict --law $LAW image.csv
  loopscale predict: image.csv:3: binary data (a NUL byte); not a CSV file
  [65]
  $ printf '\377\376n\000_\000a\000c\000t\000\n\000' > utf16.csv
  $ loopscale predict --law $LAW utf16.csv
  loopscale predict: utf16.csv: UTF-16 text (byte-order mark FF FE); loopscale reads UTF-8 (save it as UTF-8 CSV, or iconv -f UTF-16 -t UTF-8 FILE)
  [65]
  $ printf '\376\377\000n\000_' > utf16be.csv
  $ loopscale predict --law $LAW utf16be.csv
  loopscale predict: utf16be.csv: UTF-16 text (byte-order mark FE FF); loopscale reads UTF-8 (save it as UTF-8 CSV, or iconv -f UTF-16 -t UTF-8 FILE)
  [65]

Compressions other than gzip are named, not reported as binary data (a
sweep or token file, or a law file):

  $ printf '\3757zXZ\000\000' > s.csv.xz
  $ loopscale predict --law $LAW s.csv.xz
  loopscale predict: s.csv.xz: xz-compressed; loopscale reads CSV plain or gzip-compressed (decompress it first, or pipe it in: xz -dc FILE | loopscale ... -)
  [65]
  $ printf 'BZh91AY' > s.csv.bz2
  $ loopscale predict --law $LAW s.csv.bz2
  loopscale predict: s.csv.bz2: bzip2-compressed; loopscale reads CSV plain or gzip-compressed (decompress it first, or pipe it in: bzip2 -dc FILE | loopscale ... -)
  [65]
  $ printf '\050\265\057\375\000' > s.csv.zst
  $ loopscale predict --law $LAW s.csv.zst
  loopscale predict: s.csv.zst: zstd-compressed; loopscale reads CSV plain or gzip-compressed (decompress it first, or pipe it in: zstd -dc FILE | loopscale ... -)
  [65]
  $ printf 'PK\003\004\024\000' > s.zip
  $ loopscale predict --law $LAW s.zip
  loopscale predict: s.zip: zip-compressed; loopscale reads CSV plain or gzip-compressed (decompress it first, or pipe it in: unzip -p FILE | loopscale ... -)
  [65]
  $ printf '\004\042\115\030' > s.csv.lz4
  $ loopscale route -k 1 s.csv.lz4
  loopscale route: s.csv.lz4: lz4-compressed; loopscale reads CSV plain or gzip-compressed (decompress it first, or pipe it in: lz4 -dc FILE | loopscale ... -)
  [65]
  $ printf 'BZh91AY' > law.json.bz2
  $ loopscale predict --law law.json.bz2 --n-act 1e9 --tokens 1e11
  loopscale predict: law.json.bz2: bzip2-compressed; a law file is read plain or gzip-compressed
  [65]
  $ printf '' | gzip -n > empty.gz
  $ loopscale predict --law $LAW empty.gz
  loopscale predict: empty.gz: empty file (no header row)
  [65]

Files that are not there, directories, and nothing on standard input:

  $ loopscale predict --law $LAW missing.csv.gz
  loopscale predict: missing.csv.gz: cannot open: No such file or directory
  [66]
  $ mkdir runs
  $ loopscale predict --law $LAW runs
  loopscale predict: runs: is a directory
  [66]
  $ loopscale predict --law $LAW - < /dev/null
  loopscale predict: <stdin>: empty file (no header row)
  [65]

Very long lines: a cell of a million digits is quoted in part, and a record
beyond 16 MiB (a binary or broken file, not a sweep) is refused before it is
read into memory whole:

  $ python3 -c 'print("n_act,tokens,loss"); print("3e8,1e11," + "7" * 1000000)' > long.csv
  $ loopscale predict --law $LAW long.csv
  loopscale predict: long.csv:2: column 'loss': '777777777777777777777777777777777777777777777777777777777777...' is not a number
  [65]
  $ python3 -c 'print("n_act,tokens,loss"); print("x" * (17 << 20))' > huge.csv
  $ loopscale predict --law $LAW huge.csv
  loopscale predict: huge.csv:2: record longer than 16 MiB
  [65]
  $ python3 -c 'print("n_act,tokens,loss," + ",".join("c%d" % i for i in range(100000))); print("3e8,1e11,2.5," + ",".join("1" for i in range(100000)))' > wide.csv
  $ loopscale predict --law $LAW --format csv wide.csv 2>messages.txt | cut -c 1-40; cat messages.txt
  n_act,tokens,loss,c0,c1,c2,c3,c4,c5,c6,c
  3e8,1e11,2.5,1,1,1,1,1,1,1,1,1,1,1,1,1,1
  loopscale predict: RMSE 0.0565451 over 1 run (loss units)

A million rows are read (gzip, from standard input too); a bad cell in the
last of them is found and named by its line:

  $ python3 -c '
  > print("n_act,tokens,loss")
  > for i in range(1000000): print("%d,1e11,%.6f" % (100000000 + i, 2.5 + i * 1e-7))
  > ' | gzip -1 > million.csv.gz
  $ loopscale predict --law $LAW --where 'n_act>=100999999' million.csv.gz
     line     n_act   n_total  n_loop  R  E  tokens    loss  pred_loss  residual
  1000001  1.01e+08  1.01e+08       -  1  1   1e+11  2.6000     2.8062   -0.2062
  
  RMSE 0.206221 over 1 run (loss units)
  $ (zcat million.csv.gz; echo '3e8,1e11,2.5x') | loopscale predict --law $LAW --where 'n_act>2e8' -
  loopscale predict: <stdin>:1000002: column 'loss': '2.5x' is not a number
  [65]

Every command that reads sweeps refuses a bad one the same way:

  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n3e8,1e11\n' > ragged.csv
  $ loopscale fit --law dense ragged.csv
  loopscale fit: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale holdout ragged.csv
  loopscale holdout: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale predict --law $LAW ragged.csv
  loopscale predict: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale fit --law dense $ROOT/data/sweeps/looped-dense.csv.gz ragged.csv
  loopscale fit: ragged.csv:3: 2 fields, but the header has 3
  [65]
  $ loopscale fit --law dense runs
  loopscale fit: runs: is a directory
  [66]
  $ loopscale holdout missing.csv
  loopscale holdout: missing.csv: cannot open: No such file or directory
  [66]

Line ends: LF and CRLF, and also CR alone (files saved by classic Mac OS
programs), decided by the first line end of the file.  In a file whose lines
end with LF or CRLF, a carriage return anywhere else outside quotes is
refused rather than dropped (it turned `2.\r5` into 2.5); inside quotes it
is part of the field:

  $ p() { loopscale predict --law $LAW s.csv --format csv 2>/dev/null | cut -d, -f1-4; }
  $ printf 'n_act,tokens,loss\r3e8,1e11,2.5\r6e8,1e11,2.4\r' > s.csv; p
  n_act,tokens,loss,pred_loss
  3e8,1e11,2.5,2.5565451099103558
  6e8,1e11,2.4,2.4402951918131195
  $ printf 'n_act,tokens,loss\r3e8,1e11,2.5\n6e8,1e11,2.4\r\n# a comment\r7e8,1e11,2.3' > s.csv; p
  n_act,tokens,loss,pred_loss
  3e8,1e11,2.5,2.5565451099103558
  6e8,1e11,2.4,2.4402951918131195
  7e8,1e11,2.3,2.4180305816391905
  $ printf 'n_act,tokens,loss\r\n3e8,1e11,2.5\r\n# a comment with a\rCR\r\n6e8,1e11,2.4\r' > s.csv; p
  n_act,tokens,loss,pred_loss
  3e8,1e11,2.5,2.5565451099103558
  6e8,1e11,2.4,2.4402951918131195
  $ check 'n_act,tokens,loss\n3e8,1e11,2.\r5\n'
  loopscale predict: s.csv:2: a carriage return (\r) not followed by a line feed, inside a line that ends with LF (quote a field that holds one)
  [65]
  $ check 'n_act,tokens,loss\r\n3e8,1e11,2.5\r\r\n'
  loopscale predict: s.csv:2: a carriage return (\r) not followed by a line feed, inside a line that ends with LF (quote a field that holds one)
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.5\n\r6e8,1e11,2.4\n'
  loopscale predict: s.csv:3: a carriage return (\r) not followed by a line feed, inside a line that ends with LF (quote a field that holds one)
  [65]
  $ check 'n_act,tokens,loss\n3e8,1e11,2.5\n6e8\r,1e11,2.4\n'
  loopscale predict: s.csv:3: a carriage return (\r) not followed by a line feed, inside a line that ends with LF (quote a field that holds one)
  [65]
  $ printf 'n_act,tokens,loss,note\n3e8,1e11,2.5,"a\rb"\n' > s.csv; p
  n_act,tokens,loss,note
  3e8,1e11,2.5,"a\r (no-eol) (esc)
  b"

A byte-order mark is recognised however the pipe delivers it, a byte at a
time included, plain or gzip; a part of one is not one:

  $ (printf '\357'; sleep 0.2; printf '\273'; sleep 0.2; printf '\277n_act,tokens,loss\n3e8,1e11,2.5\n') | loopscale predict --law $LAW - --format csv 2>/dev/null | cut -d, -f1-4
  n_act,tokens,loss,pred_loss
  3e8,1e11,2.5,2.5565451099103558
  $ (printf '\357\273'; sleep 0.2; printf '\277n_act,tokens,loss\n3e8,1e11,2.5\n') | gzip -c | loopscale predict --law $LAW - --format csv 2>/dev/null | cut -d, -f1-4
  n_act,tokens,loss,pred_loss
  3e8,1e11,2.5,2.5565451099103558
  $ (printf '\357\273'; sleep 0.2; printf 'n_act,tokens,loss\n3e8,1e11,2.5\n') | loopscale predict --law $LAW -
  loopscale predict: <stdin>:1: no column 'n_act' (or 'N', 'params', or one renamed to it), and no configuration to count it from (d_model, loop_layers, d_ff, ...)
  [65]
  $ printf '\357\273' | loopscale predict --law $LAW -
  loopscale predict: <stdin>:1: no column 'n_act' (or 'N', 'params', or one renamed to it), and no configuration to count it from (d_model, loop_layers, d_ff, ...)
  [65]

Column names have no length limit (they were cut at 127 bytes, so that two
long names differing after that "appeared twice"):

  $ a=$(printf 'a%.0s' $(seq 200))
  $ printf 'n_act,tokens,loss,%s1,%s2\n3e8,1e11,2.5,1,2\n' $a $a > s.csv
  $ loopscale predict --law $LAW s.csv --where "${a}2>1" --format csv 2>/dev/null | cut -d, -f1-4
  n_act,tokens,loss,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1
  3e8,1e11,2.5,1
  $ loopscale predict --law $LAW s.csv --where "${a}2>3" --format csv 2>&1 | cut -c1-40
  loopscale predict: s.csv: no rows left a
  $ printf 'n_act,tokens,loss,%s1,%s1\n3e8,1e11,2.5,1,2\n' $a $a > s.csv; loopscale predict --law $LAW s.csv 2>&1 | sed "s/$a/A200/"
  loopscale predict: s.csv:1: field 5: column 'A2001' appears twice (field 4 too)

A header names each column once.  One unnamed column is read (the index
column pandas writes); a second one, a name of white space only, a header
of commas alone, or a name that repeats another once case and surrounding
spaces are set aside, is refused with the field's number:

  $ check ',n_act,,tokens,loss\n0,3e8,1,1e11,2.5\n'
  loopscale predict: s.csv:1: field 3: a second column with no name (field 1 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check 'n_act,tokens,loss,,\n3e8,1e11,2.5,1,2\n'
  loopscale predict: s.csv:1: field 5: a second column with no name (field 4 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check ',,\n1,2,3\n'
  loopscale predict: s.csv:1: field 2: a second column with no name (field 1 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check ',\n1,2\n'
  loopscale predict: s.csv:1: field 2: a second column with no name (field 1 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check 'n_act, ,tokens,loss,\t\n3e8,1,1e11,2.5,1\n'
  loopscale predict: s.csv:1: field 5: a second column with no name (field 2 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check 'n_act,"",tokens,loss,"  "\n3e8,1,1e11,2.5,1\n'
  loopscale predict: s.csv:1: field 5: a second column with no name (field 2 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ check 'n_act,tokens,loss, loss\n3e8,1e11,2.5,2.6\n'
  loopscale predict: s.csv:1: field 4: column ' loss' appears twice: field 3 is 'loss', and names are compared ignoring case and surrounding white space
  [65]
  $ check 'n_act,tokens,"loss ",Loss\n3e8,1e11,2.5,2.6\n'
  loopscale predict: s.csv:1: field 4: column 'Loss' appears twice: field 3 is 'loss ', and names are compared ignoring case and surrounding white space
  [65]
  $ check 'lr,n_act,tokens,loss,lr\n1,3e8,1e11,2.5,2\n'
  loopscale predict: s.csv:1: field 5: column 'lr' appears twice (field 1 too)
  [65]
  $ check 'n_act,tokens,loss, \n3e8,1e11,2.5,1\n'
  $ check ',n_act,tokens,loss\n0,3e8,1e11,2.5\n'
  $ printf 'n_act,tokens,loss,,\n3e8,1e11,2.5,1,2\n' | loopscale fit --law dense -
  loopscale fit: <stdin>:1: field 5: a second column with no name (field 4 has none either); at most one column, such as an index, may be unnamed
  [65]
  $ printf 'n_act,tokens,loss,lr, LR\n3e8,1e11,2.5,1,2\n' > s.csv; loopscale holdout --laws dense s.csv
  loopscale holdout: s.csv:1: field 5: column ' LR' appears twice: field 4 is 'lr', and names are compared ignoring case and surrounding white space
  [65]

Memory bounds.  fit and holdout hold every run; more than LOOPSCALE_MAX_ROWS
runs (default 10 million) is refused before any work, with status 65.
predict streams its sweep row by row: its peak memory does not grow with
the number of rows (60,000 rows need no more than 6,000, within 3 MB):

  $ zcat $ROOT/data/sweeps/looped-dense.csv.gz > dense.csv
  $ LOOPSCALE_MAX_ROWS=100 loopscale fit --law dense dense.csv
  loopscale fit: dense.csv:102: more than 100 rows, the limit for a sweep held in memory
  [65]
  $ LOOPSCALE_MAX_ROWS=100 loopscale holdout --laws dense --axes N dense.csv
  loopscale holdout: dense.csv:102: more than 100 rows, the limit for a sweep held in memory
  [65]
  $ LOOPSCALE_MAX_ROWS=140 loopscale fit --law dense --starts 1 dense.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ LOOPSCALE_MAX_ROWS=lots loopscale fit --law dense --starts 1 dense.csv > /dev/null
  loopscale fit: warning: LOOPSCALE_MAX_ROWS='lots' is not a count of rows; using 10000000
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ LOOPSCALE_MAX_ROWS=1 loopscale predict --law $LAW --format csv dense.csv | wc -l
  loopscale predict: a column the law does not read: k
  loopscale predict: RMSE 0.00447918 over 140 runs (loss units)
  141
  $ (echo n_act,tokens,loss; yes 3e8,1e11,2.5 | head -n 6000) > small.csv
  $ (echo n_act,tokens,loss; yes 3e8,1e11,2.5 | head -n 60000) > large.csv
  $ rss() { /usr/bin/time -f %M -o rss.txt loopscale predict --law $LAW --format csv "$1" > /dev/null 2>&1; cat rss.txt; }
  $ small=$(rss small.csv); large=$(rss large.csv)
  $ test $((large - small)) -lt 3000 && echo constant || echo "grew from $small to $large KB"
  constant

A column name one slip from a quantity that has no column (n_totl, loop
for loops, a dashboard's num_experts) is not read, and the quantity takes
its default: each is named in a warning with the --map that would read it.
A --map to a name that is not a quantity but looks like one is refused.
A --map names the column the user chose, so a column that only has the
same quantity's alias for a name yields to it:

  $ printf 'n_act,n_totl,n_loop,loop,num_experts,tokens,loss\n3e8,2e9,2e8,2,8,1e11,2.4\n' > typo.csv
  $ loopscale predict --law $LAW typo.csv > /dev/null
  loopscale predict: warning: typo.csv: no column gives n_total, so n_total = n_act (dense); column 'n_totl' is not read: if it is n_total, --map n_total=n_totl
  loopscale predict: warning: typo.csv: no column gives R, so every run has R = 1; column 'loop' is not read: if it is R, --map R=loop
  loopscale predict: warning: typo.csv: no column gives E, so every run has E = 1; column 'num_experts' is not read: if it is E, --map E=num_experts
  $ loopscale predict --law $LAW --map n_total=n_totl --map R=loop --map E=num_experts typo.csv > /dev/null
  $ printf 'n_act,Total Params,tokens,loss\n3e8,2e9,1e11,2.4\n' > tp.csv
  $ loopscale predict --law $LAW --map 'n_totl=Total Params' tp.csv
  loopscale predict: rename 'n_totl=Total Params': 'n_totl' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, tokens, flops, loss) and no filter, run, step or group column is called so: did you mean n_total?
  Try 'loopscale predict --help'.
  [64]
  $ printf 'params,params_no_embed,tokens,loss\n2e8,1e8,1e10,3.1\n' > gadre.csv
  $ loopscale predict --law $LAW --map n_act=params_no_embed --format csv gadre.csv 2> /dev/null | cut -d, -f1-2,5
  params,params_no_embed,pred_loss
  2e8,1e8,3.069425567002544
  $ printf 'params,N,tokens,loss\n2e8,1e8,1e10,3.1\n' > both.csv
  $ loopscale predict --law $LAW both.csv
  loopscale predict: both.csv:1: column 'params' and column 'N' both give n_act
  [65]

With --last, a run whose last checkpoint is dropped (here a NaN loss that
--skip-invalid skips) is left out whole rather than fitted at an earlier
step; when that leaves no runs, the error says so:

  $ printf 'run,step,n_act,tokens,loss\nr1,100,1e8,1e9,3.5\nr1,200,1e8,2e9,NaN\n' > s.csv
  $ loopscale predict --law $LAW --skip-invalid --last s.csv > /dev/null
  loopscale predict: s.csv: no rows left: 1 run left out: its last checkpoint was dropped (invalid or filtered); first: 'r1' at line 3
  [65]
