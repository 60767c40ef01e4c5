Bad options, for every command: an unknown option, a missing value, a value
that is not a number (or not one of the choices), a number out of range,
options that contradict each other.  Each is a usage error: one line on
standard error, a pointer to --help, status 64, and nothing done.

  $ LAW=$ROOT/data/truth/moe-bounded-sparse.json
  $ SWEEP=$ROOT/data/sweeps/looped-dense.csv.gz

Commands and options that do not exist (a long option may be shortened to
any prefix that names one option, as getopt_long allows: --thresh for
--thresholds):

  $ loopscale fitt $SWEEP
  loopscale: unknown command 'fitt'
  Try 'loopscale --help'.
  [64]
  $ loopscale --frobnicate
  loopscale: unknown command '--frobnicate'
  Try 'loopscale --help'.
  [64]
  $ loopscale fit --lwa dense $SWEEP
  loopscale fit: unknown option '--lwa'
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --axis R $SWEEP
  loopscale holdout: unknown option '--axis'
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale predict -Z --law $LAW $SWEEP
  loopscale predict: unknown option '-Z'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --flops 1e21 --memory 3GB
  loopscale solve: unknown option '--memory'
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --budget 1e21
  loopscale isoflop: unknown option '--budget'
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e9 --tokens 1e11 --noize 0.01
  loopscale simulate: unknown option '--noize'
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --repeat 2
  loopscale shape: unknown option '--repeat'
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route -k 1 --per-layer logits.npy
  loopscale route: unknown option '--per-layer'
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit --entropy 0.5 data.csv
  loopscale exit: unknown option '--entropy'
  Try 'loopscale exit --help'.
  [64]

An option without its value:

  $ loopscale fit $SWEEP --law
  loopscale fit: option '--law' needs a value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout $SWEEP --laws
  loopscale holdout: option '--laws' needs a value
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens
  loopscale predict: option '--tokens' needs a value
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --flops
  loopscale solve: option '--flops' needs a value
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --flops 1e21 --E
  loopscale isoflop: option '--E' needs a value
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e9 --tokens 1e11 -o
  loopscale simulate: option '-o' needs a value
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model
  loopscale shape: option '--d-model' needs a value
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route -k
  loopscale route: option '-k' needs a value
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit data.csv --at
  loopscale exit: option '--at' needs a value
  Try 'loopscale exit --help'.
  [64]

Values that are not numbers, or not one of the choices:

  $ loopscale fit --law dense --starts many $SWEEP
  loopscale fit: --starts: 'many' is not a number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --huber-delta 1e-3x $SWEEP
  loopscale fit: --huber-delta: '1e-3x' is not a number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --seed 0x10 $SWEEP
  loopscale fit: --seed: '0x10' is not a number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --scale fast $SWEEP
  loopscale fit: --scale: 'fast' is not one of levenberg, more, marquardt
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --format csv $SWEEP
  loopscale fit: --format: 'csv' is not table or json
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --threads two $SWEEP
  loopscale holdout: --threads: 'two' is not a number
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --format xml $SWEEP
  loopscale holdout: --format: 'xml' is not one of md, table, csv, tsv, json
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 --R four
  loopscale predict: --R: 'four' is not a number
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens nan
  loopscale predict: --tokens: 'nan' is not a finite number
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens inf
  loopscale predict: --tokens: 'inf' is not a finite number
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 3 GB
  loopscale solve: unexpected argument 'GB'
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 3GBB
  loopscale solve: --mem: '3GBB' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --bits four
  loopscale solve: --bits: 'four' is not a number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --E 1,2,,4
  loopscale solve: --E: '' is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --flops 1e21,1e22x
  loopscale isoflop: --flops: '1e22x' is not a number
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --flops 1e21 --format html
  loopscale isoflop: --format: 'html' is not one of table, csv, tsv, json, md
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e9 --tokens 1e11 --noise 1%
  loopscale simulate: --noise: '1%' is not a number
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model 512.5 --d-ff 2048 --vocab 1000 --layers 4
  loopscale shape: --d-model: '512.5' is not an integer
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --embeddings shared
  loopscale shape: --embeddings: 'shared' is not untied or tied
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route -k one logits.npy
  loopscale route: --top-k: 'one' is not a number
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit --loop 1/2 data.csv
  loopscale exit: --loop: '1/2' is not a number
  Try 'loopscale exit --help'.
  [64]

Numbers out of range, budgets included:

  $ loopscale fit --law dense --starts 0 $SWEEP
  loopscale fit: --starts: '0' is outside [1, 1000000]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --bootstrap -5 $SWEEP
  loopscale fit: --bootstrap: '-5' is outside [0, 1000000]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --bootstrap 2.5 $SWEEP
  loopscale fit: --bootstrap: '2.5' is not an integer
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --threads 100000 $SWEEP
  loopscale fit: --threads: '100000' is outside [1, 256]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --seed -1 $SWEEP
  loopscale fit: --seed: '-1' is outside [0, 4294967295]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --seed 4294967296 $SWEEP
  loopscale fit: --seed: '4294967296' is outside [0, 4294967295]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --huber-delta 0 $SWEEP
  loopscale fit: --huber-delta: '0' must be positive
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --ci 1 $SWEEP
  loopscale fit: --ci: '1' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --max-iterations 0 $SWEEP
  loopscale fit: --max-iterations: '0' is outside [1, 1000000]
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --starts 1e7 $SWEEP
  loopscale holdout: --starts: '1e7' is outside [1, 1000000]
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale predict --law $LAW --n-act -1e9 --tokens 1e11
  loopscale predict: --n-act: '-1e9' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 --R 0
  loopscale predict: --R: '0' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e999
  loopscale predict: --tokens: '1e999' is out of range
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --flops 0
  loopscale solve: --flops: '0' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops -1e21
  loopscale solve: --flops: '-1e21' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e999
  loopscale solve: --flops: '1e999' is out of range
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e300E
  loopscale solve: --flops: '1e300E' is out of range
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 0
  loopscale solve: --mem: '0' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem -3GB
  loopscale solve: --mem: '-3GB' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --bits 0
  loopscale solve: --bits: '0' must be positive
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --R 0
  loopscale solve: --R: '0' must be a positive number
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --threads 65
  loopscale solve: --threads has no effect without --uncertainty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --ci 0
  loopscale solve: --ci: '0' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --flops 0
  loopscale isoflop: --flops: '0' must be a positive number
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --flops 1e21 --points 1000001
  loopscale isoflop: --points: '1000001' is outside [2, 100000]
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --flops 1e21 --R 2.5
  loopscale isoflop: --R: '2.5' is not an integer (loops)
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e9 --tokens 1e11 --seed 1e10
  loopscale simulate: --seed: '1e10' is outside [0, 4294967295]
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 0 --tokens 1e11
  loopscale simulate: --n-act: '0' must be a positive number
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model 0 --d-ff 2048 --vocab 1000 --layers 4
  loopscale shape: --d-model: '0' is outside [1, 1000000000000]
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --flatten 31
  loopscale shape: --flatten: '31' is outside [1, 30]
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape --d-model 1024 --d-ff 3072 --top-k 2 --vocab 1000 --layers 2 --experts 1e12
  loopscale shape: the counts of this shape overflow 64-bit integers
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route -k 0 logits.npy
  loopscale route: --top-k: '0' is outside [1, 1000000]
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit --rows 1 data.csv
  loopscale exit: --rows: '1' is outside [2, 1000000]
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --loop 0 data.csv
  loopscale exit: --loop: '0' must be positive
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --prelude -1 data.csv
  loopscale exit: --prelude: '-1' is outside its range: from 0 to 1e+06 (loop-block costs)
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --at 0 data.csv
  loopscale exit: --at: '0' must be a positive number
  Try 'loopscale exit --help'.
  [64]

Options that contradict each other, or are missing:

  $ loopscale holdout --laws , $SWEEP
  loopscale holdout: --laws: empty item in ','
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --axes '' $SWEEP
  loopscale holdout: --axes: no axis given
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale fit --law dense --group R $SWEEP
  loopscale fit: --group needs --bootstrap N
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix alpha=0.3 --fix alpha $SWEEP
  loopscale fit: --fix 'alpha': expected NAME=VALUE
  Try 'loopscale fit --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 --flops 1e21
  loopscale predict: give exactly one of --tokens and --flops
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 $SWEEP
  loopscale predict: give either a SWEEP file or one configuration, not both
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --n-total 5e8 --tokens 1e11
  loopscale predict: --n-total: '5e8' is less than n_act (1000000000)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --E 4 --k 8 --tokens 1e11
  loopscale predict: --E: '4' is less than k (8)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --tokens 1e11
  loopscale predict: give --n-act (or a SWEEP file)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW $SWEEP $SWEEP
  loopscale predict: give one SWEEP file
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --law $LAW
  loopscale solve: give the compute budget with --flops F
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 extra
  loopscale solve: unexpected argument 'extra'
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --flops 1e21 extra
  loopscale isoflop: unexpected argument 'extra'
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --tokens 1e11
  loopscale simulate: give --n-act and --tokens
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e9 --tokens 1e11 extra.csv
  loopscale simulate: unexpected argument 'extra.csv'
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --d-expert 1024 --vocab 1000 --layers 4
  loopscale shape: d_ff = 2048 and d_expert = 1024 disagree: d_ff must be top_k x d_expert
  Try 'loopscale shape --help'.
  [64]
  $ loopscale shape --d-model 512 --vocab 1000 --layers 4
  loopscale shape: d_ff or d_expert is required
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route logits.npy
  loopscale route: give --top-k K, the experts each router decision chooses
  Try 'loopscale route --help'.
  [64]
  $ loopscale route -k 1 a.npy b.npy
  loopscale route: give one LOGITS file
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit --shape s.json --prelude 1 data.csv
  loopscale exit: give the costs by --shape or by --prelude, --loop and --coda, not both
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit a.csv b.csv c.csv
  loopscale exit: unexpected argument 'c.csv'
  Try 'loopscale exit --help'.
  [64]

Plots: the file name chooses the format, and the figure options want a
size WIDTHxHEIGHT in inches or cm, a text size, a style and a resolution
that make sense:

  $ loopscale fit --law dense --plot fit.jpg $SWEEP
  loopscale fit: --plot: 'fit.jpg': the file name must end in .svg, .pdf or .png
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --plot-rho rho
  loopscale solve: --plot-rho: 'rho': the file name must end in .svg, .pdf or .png
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21 --plot iso.pdf --plot-size 6.5
  loopscale isoflop: --plot-size: '6.5' is not WIDTHxHEIGHT, e.g. 6.5x4 or 16x10cm
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21 --plot iso.pdf --plot-size '16x10cm ' > /dev/null && test -s iso.pdf && rm iso.pdf
  loopscale isoflop: */data/truth/moe-bounded-sparse.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another (glob)
  loopscale isoflop: no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)
  $ loopscale isoflop --law $LAW --flops 1e21 --plot iso.pdf --plot-size 6.5xfour
  loopscale isoflop: --plot-size: 'four' is not a number
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21 --plot iso.pdf --plot-size 0.5x4
  loopscale isoflop: --plot-size: '0.5x4' must be between 1 and 100 inches each way
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale holdout --plot h.png --plot-font-size 2 $SWEEP
  loopscale holdout: --plot-font-size: '2' is outside its range: from 4 to 40 (points)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --plot s.svg --plot-style dark
  loopscale solve: --plot-style: 'dark' is not light or print
  Try 'loopscale solve --help'.
  [64]
  $ loopscale fit --law dense --plot fit.png --dpi 5000 $SWEEP
  loopscale fit: --dpi: '5000' is outside its range: from 30 to 1200 (dots per inch)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21 --plot iso.png --plot-size 100x100 --dpi 1200
  loopscale isoflop: --plot: a 120000 x 120000 pixel PNG (--plot-size at --dpi 1200) is too large: at most 32767 pixels a side and 100 million in all; lower --dpi, or write .pdf or .svg
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --plot-rho rho.png --plot-size 40x2 --dpi 1000
  loopscale solve: --plot-rho: a 40000 x 2000 pixel PNG (--plot-size at --dpi 1000) is too large: at most 32767 pixels a side and 100 million in all; lower --dpi, or write .pdf or .svg
  Try 'loopscale solve --help'.
  [64]
  $ ls

Lists: a value given twice would print the same row twice, and an empty
item is a typo, so both are refused, in numeric lists and in names alike:

  $ loopscale solve --law $LAW --flops 1e21 --E 1,1
  loopscale solve: --E: '1' given twice
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21,1e21
  loopscale isoflop: --flops: '1e21' given twice
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e8,1e8 --tokens 1e10
  loopscale simulate: --n-act: '1e8' given twice
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --R 1,,2
  loopscale solve: --R: '' is empty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale holdout --laws dense,dense $SWEEP
  loopscale holdout: --laws: 'dense' given twice
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense, $SWEEP
  loopscale holdout: --laws: empty item in 'dense,'
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense --axes R, $SWEEP
  loopscale holdout: --axes: empty item in 'R,'
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense --axes N,N $SWEEP
  loopscale holdout: --axes: 'N' given twice
  Try 'loopscale holdout --help'.
  [64]

An option that takes one value, given twice, would silently take the last
value, so every command refuses it, naming the option and both values.  Only
the options documented as repeatable (--map, --where, fit's --fix of
different parameters, holdout's --split) may repeat; --fix of one parameter
twice is refused too:

  $ loopscale fit --law dense --law moe $SWEEP
  loopscale fit: --law (-l) given twice ('dense', then 'moe'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit -l dense --law=moe $SWEEP
  loopscale fit: --law (-l) given twice ('dense', then 'moe'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix alpha=0.3 --fix alpha=0.4 $SWEEP
  loopscale fit: --fix alpha given twice ('alpha=0.3', then 'alpha=0.4'): a parameter takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix alpha=0.3 --fix alpha=0.3 $SWEEP
  loopscale fit: --fix alpha given twice ('alpha=0.3', then 'alpha=0.3'): a parameter takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense -o a.json -o b.json $SWEEP
  loopscale fit: --output (-o) given twice ('a.json', then 'b.json'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --threads 1 --threads 2 $SWEEP
  loopscale fit: --threads given twice ('1', then '2'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --starts 8 --seed 1 --starts 16 $SWEEP
  loopscale fit: --starts given twice ('8', then '16'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --plot a.svg --plot-title A --plot-title B $SWEEP
  loopscale fit: --plot-title given twice ('A', then 'B'): it takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --axes R --axes N $SWEEP
  loopscale holdout: --axes given twice ('R', then 'N'): it takes one value
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --laws dense --format csv --format json $SWEEP
  loopscale holdout: --format given twice ('csv', then 'json'): it takes one value
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale predict --law $LAW --law $LAW $SWEEP
  loopscale predict: --law (-l) given twice ('*/data/truth/moe-bounded-sparse.json', then '*/data/truth/moe-bounded-sparse.json'): it takes one value (glob)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $LAW --n-act 1e9 --tokens 1e11 --R 2 --R 4
  loopscale predict: --R given twice ('2', then '4'): it takes one value
  Try 'loopscale predict --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --flops 1e22
  loopscale solve: --flops given twice ('1e21', then '1e22'): it takes one value
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --mem 3GB --mem 6GB
  loopscale solve: --mem given twice ('3GB', then '6GB'): it takes one value
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $LAW --flops 1e21 --threads 1 --threads 2
  loopscale solve: --threads given twice ('1', then '2'): it takes one value
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $LAW --flops 1e21 --E 1,8 --E 16
  loopscale isoflop: --E given twice ('1,8', then '16'): it takes one value
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e8 --tokens 1e10 -o a.csv -o b.csv
  loopscale simulate: --output (-o) given twice ('a.csv', then 'b.csv'): it takes one value
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $LAW --n-act 1e8 --tokens 1e10 --seed 1 --seed 2
  loopscale simulate: --seed given twice ('1', then '2'): it takes one value
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --d-model 1024
  loopscale shape: --d-model given twice ('512', then '1024'): it takes one value
  Try 'loopscale shape --help'.
  [64]
  $ loopscale route -k 1 --top-k 2 logits.npy
  loopscale route: --top-k (-k) given twice ('1', then '2'): it takes one value
  Try 'loopscale route --help'.
  [64]
  $ loopscale exit --format csv --format json data.csv
  loopscale exit: --format given twice ('csv', then 'json'): it takes one value
  Try 'loopscale exit --help'.
  [64]
  $ ls

The repeatable options still repeat, and an option without a value (a
switch such as --norm-params or --force) may be given twice, which changes
nothing:

  $ loopscale fit --law dense --starts 2 --threads 1 --fix alpha=0.3 --fix beta=0.3 --where 'R<=4' --where 'E>=1' $SWEEP | sed -n 2p
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  loopscale fit: warning: the residuals trend along R: their rank correlation with ln R is 0.96 (t = 30.5): the law misses how the loss changes with R; try another law or mapping
  loopscale fit: warning: the RMSE, 0.0434, is 3.03 times the noise the runs themselves show (0.0143, from each run's nearest neighbour): the law does not describe these runs
  runs       80 (*/data/sweeps/looped-dense.csv.gz) (glob)
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 4 --norm-params --norm-params --format csv | head -1 | cut -c1-30
  n_act,n_total,n_loop,R,E,k

Every numeric option has a sane range (one table in the CLI; the man page
lists it under RANGES): a finite value far outside what the option can
mean is refused with 64, naming the option, the value and the range:

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ loopscale solve --law $TRUTH --flops 1e23 --E 1e21
  loopscale solve: --E: '1e21' is outside its range: an integer from 1 to 1e+06 (experts)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e23 --R 4294967297
  loopscale solve: --R: '4294967297' is outside its range: an integer from 1 to 10000 (loops)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e23 --E 16 --R 2.5
  loopscale solve: --R: '2.5' is not an integer (loops)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e23 --mem 3GB --bits 1e-300
  loopscale solve: --bits: '1e-300' is outside its range: from 1 to 64 (bits per weight)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e23 --mem 1e308
  loopscale solve: --mem: '1e308' is outside its range: from 1 to 1e+21 (bytes)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e41
  loopscale solve: --flops: '1e41' is outside its range: from 1 to 1e+40 (FLOPs)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e23 --eps 20
  loopscale solve: --eps: '20' is outside its range: from 0 to 10 (nats)
  Try 'loopscale solve --help'.
  [64]
  $ loopscale isoflop --law $TRUTH --flops 1e21,1e45
  loopscale isoflop: --flops: '1e45' is outside its range: from 1 to 1e+40 (FLOPs)
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 1e9 --tokens 1e10 --noise 300
  loopscale simulate: --noise: '300' is outside its range: from 0 to 1 (the log-normal sigma)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 1e9 --tokens 1e21
  loopscale simulate: --tokens: '1e21' is outside its range: from 1 to 1e+20 (tokens)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 0.5
  loopscale predict: --tokens: '0.5' is outside its range: from 1 to 1e+20 (tokens)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH --n-act 1e9 --tokens 1e11 --E 64 --k 0.5
  loopscale predict: --k: '0.5' is outside its range: an integer from 1 to 1e+06 (experts per token)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $TRUTH --n-act 1e9 --n-total 1e21 --tokens 1e11
  loopscale predict: --n-total: '1e21' is outside its range: from 1 to 1e+20 (parameters)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale fit --huber-delta 100 $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale fit: --huber-delta: '100' is outside its range: from 1e-09 to 10 (log-loss units)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --bytes-per-token 1e6 $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale fit: --bytes-per-token: '1e6' is outside its range: from 0.01 to 1000 (bytes)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale plan --budget 1e50 --flops 1e22 -o runs.csv
  loopscale plan: --budget: '1e50' is outside its range: from 1 to 1e+40 (FLOPs)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --budget 1e21 --flops 1e22 --prior-sd 1e3 -o runs.csv
  loopscale plan: --prior-sd: '1e3' is outside its range: from 1e-06 to 10 (a prior's standard deviation)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale plan --budget 1e21 --flops 1e22 --gpu-hours 1e13 --flop-rate 1e15 -o runs.csv
  loopscale plan: --gpu-hours: '1e13' is outside its range: from 0.001 to 1e+12 (GPU hours)
  Try 'loopscale plan --help'.
  [64]
  $ loopscale report --mem 1e30 -o r.html $ROOT/data/sweeps/looped-dense.csv.gz
  loopscale report: --mem: '1e30' is outside its range: from 1 to 1e+21 (bytes)
  Try 'loopscale report --help'.
  [64]
  $ loopscale shape --d-model 512 --d-ff 2048 --vocab 1000 --layers 2 --mup-base-width 1e12
  loopscale shape: --mup-base-width: '1e12' is outside its range: from 1 to 1e+09 (dimensions)
  Try 'loopscale shape --help'.
  [64]
  $ printf 'token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n' > e.csv
  $ loopscale exit --loop 1e9 e.csv
  loopscale exit: --loop: '1e9' is outside its range: from 1e-06 to 1e+06 (relative cost)
  Try 'loopscale exit --help'.
  [64]
  $ loopscale exit --thresholds 0.5,1e3 e.csv
  loopscale exit: --thresholds: '1e3' is outside its range: from 0 to 100 (nats)
  Try 'loopscale exit --help'.
  [64]

An option that would change nothing is refused with 64 rather than
ignored: figure options without a plot, --dpi without a PNG among the
plots, and the options only the bootstrap, the noise or --uncertainty
read; holdout (nothing random) has no --seed and report (SVG figures) no
--dpi:

  $ SWEEP=$ROOT/data/sweeps/looped-dense.csv.gz
  $ loopscale fit --dpi 300 $SWEEP
  loopscale fit: --dpi has no effect without --plot
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --plot f.svg --dpi 300 $SWEEP
  loopscale fit: --dpi has no effect without a .png --plot
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --plot f.pdf --dpi 300 $SWEEP
  loopscale fit: --dpi has no effect without a .png --plot
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --plot-size 6x4 $SWEEP
  loopscale fit: --plot-size has no effect without --plot
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --plot-title 'A title' $SWEEP
  loopscale fit: --plot-title has no effect without --plot
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --plot-style print $SWEEP
  loopscale holdout: --plot-style has no effect without --plot
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale isoflop --law $TRUTH --flops 1e21 --plot-font-size 12
  loopscale isoflop: --plot-font-size has no effect without --plot
  Try 'loopscale isoflop --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --plot-caption
  loopscale solve: --plot-caption has no effect without --plot or --plot-rho
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --plot s.svg --plot-rho r.pdf --dpi 300
  loopscale solve: --dpi has no effect without a .png --plot or --plot-rho
  Try 'loopscale solve --help'.
  [64]
  $ loopscale report --dpi 300 -o r.html $SWEEP
  loopscale report: unknown option '--dpi'
  Try 'loopscale report --help'.
  [64]
  $ loopscale fit --seed 7 $SWEEP
  loopscale fit: --seed has no effect without --bootstrap N
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --ci 0.9 $SWEEP
  loopscale fit: --ci has no effect without --bootstrap N or --ci-method profile
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --bootstrap-starts 4 $SWEEP
  loopscale fit: --bootstrap-starts has no effect without --bootstrap N
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --seed 7 $SWEEP
  loopscale holdout: unknown option '--seed'
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale report --seed 7 -o r.html $SWEEP
  loopscale report: --seed has no effect without --bootstrap N
  Try 'loopscale report --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 1e9 --tokens 1e10 --seed 7
  loopscale simulate: --seed has no effect without --noise SIGMA (above 0)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale simulate --law $TRUTH --n-act 1e9 --tokens 1e10 --noise 0 --seed 7
  loopscale simulate: --seed has no effect without --noise SIGMA (above 0)
  Try 'loopscale simulate --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --ci 0.9
  loopscale solve: --ci has no effect without --uncertainty
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --law $TRUTH --flops 1e21 --threads 2
  loopscale solve: --threads has no effect without --uncertainty
  Try 'loopscale solve --help'.
  [64]
  $ ls
  e.csv

--help takes nothing more, after a command as after 'help COMMAND'; -h and
--help may repeat, and help on help is the usage:

  $ loopscale fit --help extra
  loopscale fit: --help: unexpected argument 'extra'
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense -h
  loopscale fit: --help: unexpected argument '--law'
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit -h -h | head -1
  Usage: loopscale fit [--law BASE:MAPPING] [OPTIONS] SWEEP... [-o LAW.json]
  $ loopscale help help | head -1
  Usage: loopscale COMMAND [OPTIONS] [FILES]
  $ loopscale help fit extra
  loopscale: help: unexpected argument 'extra'
  Try 'loopscale --help'.
  [64]

Option values are checked before any input is read (the sweep named here
does not exist), and a --fix without a name says so:

  $ loopscale holdout --split '' missing.csv
  loopscale holdout: --split: filter '': expected COLUMN OP VALUE with OP one of < <= = == != >= > ~ !~
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --split 'loss<2,5' missing.csv
  loopscale holdout: --split: filter 'loss<2,5': '2,5' is not a number (only = == != ~ !~ compare text)
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale holdout --split 'color=red' missing.csv
  loopscale holdout: --split: 'color=red': 'color' is not one of the quantities n_act, n_total, n_loop, R, E, k, tokens, flops, loss, n_unroll, tokens_per_param, epochs
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale fit --fix '=1' missing.csv
  loopscale fit: --fix '=1': no parameter name before '=' (expected NAME=VALUE, e.g. alpha=0.34)
  Try 'loopscale fit --help'.
  [64]

Long option names are taken whole: getopt's prefixes would let a slip change what a command computes.

  $ loopscale predict --law "$TESTDIR/../../data/laws/default.json" --by 2 --n-act 1e9 --tokens 1e11
  loopscale predict: unknown option '--by' (option names are not abbreviated: --bytes-per-token?)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale fit --las x.csv
  loopscale fit: unknown option '--las' (option names are not abbreviated: --last?)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --flops=1e21 --me=3GB
  loopscale solve: unknown option '--me' (option names are not abbreviated: --mem?)
  Try 'loopscale solve --help'.
  [64]

The serving options of solve, frontier, plan and report: the cache's sizes
need a cache, the activation allowance a memory budget it leaves room in, and
the cheapest configuration a continuous N_act.

  $ loopscale solve --flops 1e21 --batch 8
  loopscale solve: --batch has no effect without --context
  Try 'loopscale solve --help'.
  [64]
  $ loopscale frontier --flops 1e21,1e22 --kv-bits 8
  loopscale frontier: --kv-bits has no effect without --context
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale solve --flops 1e21 --activation-memory 1GB
  loopscale solve: --activation-memory has no effect without --mem
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --flops 1e21 --mem 1GB --activation-memory 2GB
  loopscale solve: --activation-memory 2e+09 leaves nothing of --mem 1e+09 for the weights
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --target-loss 2.2 --n-act 1e8,1e9
  loopscale solve: --target-loss: the cheapest configuration is searched over a continuous N_act; leave out --n-act
  Try 'loopscale solve --help'.
  [64]
  $ loopscale solve --target-loss 0
  loopscale solve: --target-loss: '0' must be positive
  Try 'loopscale solve --help'.
  [64]
