User text on its way out.  File names, cell values and titles may hold any
byte.  Law files and JSON results are UTF-8 (RFC 8259), SVG is XML and the
report is HTML: an ill-formed UTF-8 sequence is written as U+FFFD there, so
a file that names a Latin-1 sweep still reads back.  Messages on standard
error quote what they echo: a line break, a tab, ESC and the other C0
controls, DEL, the C1 controls and ill-formed bytes are written as \n, \t,
\xNN or \uNNNN, so that one message is one printable line and cannot drive
the terminal.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ gunzip -c $ROOT/data/sweeps/looped-dense.csv.gz > "$(printf 'sw\351ep.csv')"

A law file fitted from a sweep whose name is Latin-1 records the name with
U+FFFD and reads back:

  $ loopscale fit --law dense --starts 20 "$(printf 'sw\351ep.csv')" -o law.json > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ grep -c "$(printf '"file": "sw\357\277\275ep.csv"')" law.json
  1
  $ loopscale predict --law law.json --n-act 1e9 --tokens 1e11 2> /dev/null | head -1
  loss                       2.30444

A plot title with an ill-formed byte, markup characters and a control
character is valid XML, and so is the command line in its metadata:

  $ loopscale fit --law dense --starts 20 "$(printf 'sw\351ep.csv')" --plot p.svg --plot-title "$(printf 'T\377 <&> \001x')" > /dev/null
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: B = 156 is poorly determined: its 95% interval from its standard error [1.21e-06, 2.01e+10] spans a factor 1.7e+16, more than 1000
  loopscale fit: warning: the runs do not tell beta = 0.252 from its lower bound 0: its 95% interval from its standard error [-0.594, 1.1] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.417 is poorly determined: its 95% interval from the standard errors [-0.404, 1.24] is 1.6 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.91 (t = 25.7): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0412, is 3.6 times the noise the runs themselves show (0.0113, from each run's nearest neighbour): the law does not describe these runs
  $ /usr/bin/python3 -c 'import xml.dom.minidom as m; d = m.parse("p.svg"); print(d.getElementsByTagName("title")[0].firstChild.data)'
  T\xef\xbf\xbd <&> x (esc)

Messages: file names, cells, option values and command names:

  $ loopscale predict --law "$(printf 'evil\033[2J\n.json')" --n-act 1e9 --tokens 1e11
  loopscale predict: evil\x1b[2J\n.json: cannot open: No such file or directory
  [66]
  $ printf 'n_act,tokens,loss\n3e8,1e11,2\033[31m\n' > c.csv
  $ loopscale predict --law $TRUTH c.csv
  loopscale predict: c.csv:2: column 'loss': '2\x1b[31m' is not a number
  [65]
  $ printf 'n_act,tokens,loss\n3e8,1e11,"2\r\n\t3"\n' > c.csv
  $ loopscale predict --law $TRUTH c.csv
  loopscale predict: c.csv:2: column 'loss': '2\r\n\t3' is not a number
  [65]
  $ printf 'n_act,tokens,loss\n3e8,1e11,2\302\2331m\377\342\202\n' > c.csv
  $ loopscale predict --law $TRUTH c.csv
  loopscale predict: c.csv:2: column 'loss': '2\u009b1m\xff\xe2\x82' is not a number
  [65]
  $ printf 'n_act,tokens,loss\n3e8,1e11,2\177\n' > c.csv
  $ loopscale predict --law $TRUTH c.csv
  loopscale predict: c.csv:2: column 'loss': '2\x7f' is not a number
  [65]
  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' > c.csv
  $ loopscale predict --law $TRUTH --where "$(printf 'R\033<=8')" c.csv
  loopscale predict: filter 'R\x1b<=8': c.csv has no column 'R\x1b'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale fit --format "$(printf 'x\ty')" c.csv
  loopscale fit: --format: 'x\ty' is not table or json
  Try 'loopscale fit --help'.
  [64]
  $ loopscale "$(printf 'fi\033t')"
  loopscale: unknown command 'fi\x1bt'
  Try 'loopscale --help'.
  [64]
  $ printf 'n_act,tokens,loss\n3e8,1e11,2.5\n' > "$(printf 'a\nb.csv')"
  $ loopscale fit --law dense "$(printf 'a\nb.csv')" -o "$(printf 'a\nb.csv')"
  loopscale fit: --output a\nb.csv would replace the input SWEEP a\nb.csv
  Try 'loopscale fit --help'.
  [64]
