The published laws and the methods built on them refuse what they cannot
use: a number of unique tokens that is not positive (0 would read as
"unlimited"), a list or range of budgets that is malformed, and a law whose
exponents admit no compute-optimal size.

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "data-constrained", "mapping": "none"}, "params": {"A": 520.8249516599187, "alpha": 0.3526596, "B": 1487.716093782861, "beta": 0.3526596, "c": 1.8691436784054858, "R_D_star": 15.387756, "R_N_star": 5.309743}}' > muennighoff2023.json
  $ DC=muennighoff2023.json
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": -0.28, "c": 1.69}}' > falling.json

Unique tokens given as an option:

  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 0
  loopscale predict: --unique-tokens: '0' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens -1
  loopscale predict: --unique-tokens: '-1' must be positive
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 25Q
  loopscale predict: --unique-tokens: '25Q' is not a number
  Try 'loopscale predict --help'.
  [64]

A law that does not read unique tokens refuses them rather than ignore them:

  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > chinchilla.json
  $ loopscale predict --law chinchilla.json --n-act 6.34e9 --tokens 242e9 --unique-tokens 25e9
  loopscale predict: --unique-tokens: the law (dense) does not read unique tokens; only the data-constrained base does
  Try 'loopscale predict --help'.
  [64]

Budgets of the frontier:

  $ loopscale frontier --law $DC
  loopscale frontier: give the training budgets with --flops F1,F2,... or --flops LO:HI:N
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e21
  loopscale frontier: --flops: '1e20:1e21' is not a range LO:HI:N (e.g. 1e18:1e24:13)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21:1e20:5
  loopscale frontier: --flops: '1e21:1e20:5': HI must be greater than LO
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e21:1
  loopscale frontier: --flops: '1e20:1e21:1': the count N is not a whole number from 2 to 100000
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1.000000000000001e20:5
  loopscale frontier: --flops: '1e20:1.000000000000001e20:5': the range is finer than 13 significant digits tell apart (two budgets round to one)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1.00000000000001e20
  loopscale frontier: --flops: '1e20,1.00000000000001e20': 1e+20 and 1.00000000000001e+20 agree to 12 significant digits; give budgets that differ
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,,1e21
  loopscale frontier: --flops: '' is empty
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,-5
  loopscale frontier: --flops: '-5' must be a positive number
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1e21x
  loopscale frontier: --flops: '1e21x' is not a number
  Try 'loopscale frontier --help'.
  [64]

Budgets are FLOP counts read as every command reads them (suffixes, no
bytes, inside 1..1e40), the ends of a range too; an option is given once and
in full:

  $ loopscale frontier --law $DC --flops 2.8GB
  loopscale frontier: --flops: '2.8GB' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1e41
  loopscale frontier: --flops: '1e41' is outside its range: from 1 to 1e+40 (FLOPs)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e41:3
  loopscale frontier: --flops: '1e41' is outside its range: from 1 to 1e+40 (FLOPs)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1GB:1e21:3
  loopscale frontier: --flops: '1GB' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20:1e21:2.5
  loopscale frontier: --flops: '1e20:1e21:2.5': the count N is not a whole number from 2 to 100000
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20 --flops 1e21
  loopscale frontier: --flops given twice ('1e20', then '1e21'): it takes one value
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flo 1e20
  loopscale frontier: unknown option '--flo' (option names are not abbreviated: --flops?)
  Try 'loopscale frontier --help'.
  [64]

A law fitted on FLOPs counted with attention and the LM head (the closed
form counts F = 6 N D):

  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 482.01, "alpha": 0.3478, "B": 2085.43, "beta": 0.3658, "c": 1.817}, "fit": {"objective": 0, "loss": "huber", "delta": 0.001, "space": "log", "n": 9, "rmse": 0.01, "starts": 1, "starts_at_best": 1, "converged": true, "data": [], "filters": [], "flops_convention": {"name": "6nd+attn+head", "context": 2048, "vocab": 32000, "attention_share": 0.3333, "prelude_layers": 2, "loop_layers": 12, "coda_layers": 2}}}' > porian.json
  $ loopscale solve --force --law porian.json --flops 1e21 > /dev/null && echo solve takes it
  loopscale solve: warning: porian.json: the fit it records has no standard errors; used anyway (--force)
  loopscale solve: porian.json records no architecture: the default template (the paper's middle-cycle looping: top-1, routed share 0.6667, loop share 0.75); --template FILE for another
  loopscale solve: no --mem given: no memory limit
  solve takes it
  $ loopscale frontier --force --law porian.json --flops 1e21
  loopscale frontier: warning: porian.json: the fit it records has no standard errors; used anyway (--force)
  loopscale frontier: porian.json: the law was fitted on FLOPs counted as 6nd+attn+head, and the frontier's closed form counts F = 6 N D; use 'loopscale isoflop' or 'loopscale solve', which honour the convention
  [65]

A law whose terms add past what a double holds is refused naming the
budget (nothing printed); a huge but finite loss prints in the bounded
format; an output in a missing directory fails before anything is printed:

  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 1e308, "alpha": 0.01, "B": 1e308, "beta": 0.01, "c": 1.79e308}}' > inf.json
  $ loopscale frontier --law inf.json --flops 1e20
  loopscale frontier: the frontier at 1e+20 FLOPs (N_opt = 4.08248e+09, D_opt = 4.08248e+09) gives predicted loss = inf, outside double precision
  [65]
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 1e308, "alpha": 0.34, "B": 1e308, "beta": 0.28, "c": 1.69}}' > huge.json
  $ loopscale frontier --law huge.json --flops 1e20 | tail -1
  1e+20  6.559e+08  2.541e+10         38.74  2.2259e+305
  $ loopscale frontier --law $DC --flops 1e20 --plot nodir/frontier.svg
  loopscale frontier: nodir/frontier.svg: cannot create: No such file or directory
  [73]

A law along whose budgets the loss falls without bound (beta < 0):

  $ loopscale frontier --law falling.json --flops 1e20
  loopscale frontier: falling.json:1:126: params.beta: parameter beta = -0.28 is outside its domain (0, 5] (exponents are written positive: the paper's -0.28 is 0.28 here; docs/laws.md)
  [65]

Ties (--tie NAME=LEADER) join two parameters of one kind, neither fixed
nor tied already; a law file's "tied" must name the law's parameters and
hold them equal:

  $ printf 'n_act,tokens,loss\n1e8,1e10,3.9\n2e8,2e10,3.5\n4e8,4e10,3.2\n8e8,8e10,3.0\n1.6e9,1.6e11,2.85\n3.2e9,3.2e11,2.75\n' > small.csv
  $ loopscale fit --law dense --tie beta=c small.csv
  loopscale fit: --tie 'beta=c': cannot tie beta to c: they are not of one kind (two exponents, or two positive coefficients)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta=phi small.csv
  loopscale fit: --tie 'beta=phi': phi is not a parameter of dense
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta small.csv
  loopscale fit: --tie 'beta': expected NAME=LEADER, two parameter names (e.g. beta=alpha)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta=beta small.csv
  loopscale fit: --tie 'beta=beta': cannot tie beta to itself
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix alpha=0.3 --tie beta=alpha small.csv
  loopscale fit: --tie 'beta=alpha': cannot tie beta to alpha: alpha is held fixed (by --fix or --fix-from)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta=alpha --tie alpha=beta small.csv
  loopscale fit: --tie 'alpha=beta': cannot tie alpha to beta: beta is itself tied to alpha
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta=alpha --tie beta=alpha small.csv
  loopscale fit: --tie 'beta=alpha': beta is already tied to alpha
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense,dense:linear --tie kappa1=A small.csv
  loopscale holdout: --tie 'kappa1=A': kappa1 is not a parameter of any law given
  Try 'loopscale holdout --help'.
  [64]
  $ loopscale fit --law dense --fix c=-1 small.csv
  loopscale fit: --fix 'c=-1': parameter c = -1 is outside its domain [0, inf)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie beta= small.csv
  loopscale fit: --tie 'beta=': expected NAME=LEADER, two parameter names (e.g. beta=alpha)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --tie =alpha small.csv
  loopscale fit: --tie '=alpha': expected NAME=LEADER, two parameter names (e.g. beta=alpha)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law dense --fix c=nan small.csv
  loopscale fit: --fix c: 'nan' is not a finite number
  Try 'loopscale fit --help'.
  [64]
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 25GB
  loopscale predict: --unique-tokens: '25GB' is a size in bytes; a count takes k, M, B or G, T, P, E (2.8B is 2.8e9)
  Try 'loopscale predict --help'.
  [64]
  $ loopscale fit --law dense --fix c=100 small.csv
  loopscale fit: c = 100 is held at or above the lowest observed loss, 2.75 nats (small.csv, line 7), which the law could then never reach
  Try 'loopscale fit --help'.
  [64]
  $ loopscale holdout --laws dense --fix c=100 --axes N small.csv
  loopscale holdout: c = 100 is held at or above the lowest observed loss, 2.75 nats (small.csv, line 7), which the law could then never reach
  Try 'loopscale holdout --help'.
  [64]
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}, "tied": {"beta": "alpha"}}' > untied.json
  $ loopscale predict --law untied.json --n-act 1e9 --tokens 2e10
  loopscale predict: untied.json:1:152: tied: beta = 0.28 differs from its leader alpha = 0.34 in params
  [65]
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.34, "c": 1.69}, "tied": {"beta": "phi"}}' > badtie.json
  $ loopscale predict --law badtie.json --n-act 1e9 --tokens 2e10
  loopscale predict: badtie.json:1:152: tied: cannot tie beta to phi: phi is not a parameter of the law dense
  [65]

A law file's "fixed" and "tied" hold nothing fit would refuse: each is
checked as --fix and --tie are, and the refusal names the parameter:

  $ law() { printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 406.4, "beta": 0.34, "c": 1.69}, %s}' "$1" > tie.json; loopscale predict --law tie.json --n-act 1e9 --tokens 2e10 > /dev/null; }
  $ law '"tied": {"beta": "alpha", "alpha": "beta"}'
  loopscale predict: tie.json:1:152: tied: cannot tie alpha to beta: beta is itself tied to alpha
  [65]
  $ law '"tied": {"B": "alpha"}'
  loopscale predict: tie.json:1:152: tied: cannot tie B to alpha: they are not of one kind (two exponents, or two positive coefficients)
  [65]
  $ law '"tied": {"beta": "alpha", "B": "beta"}'
  loopscale predict: tie.json:1:152: tied: cannot tie B to beta: they are not of one kind (two exponents, or two positive coefficients)
  [65]
  $ law '"fixed": ["beta"], "tied": {"beta": "alpha"}'
  loopscale predict: tie.json:1:171: tied: cannot tie beta to alpha: beta is held fixed (by --fix or --fix-from)
  [65]
  $ law '"fixed": ["c", "c"]'
  loopscale predict: tie.json:1:152: fixed: 'c' is listed twice
  [65]
  $ law '"fixed": ["zeta"]'
  loopscale predict: tie.json:1:152: fixed: 'zeta' is not a parameter of dense
  [65]
  $ law '"tied": {"beta": "zzz"}'
  loopscale predict: tie.json:1:152: tied: 'zzz' is not a parameter of dense
  [65]
  $ law '"tied": {"c": "c"}'
  loopscale predict: tie.json:1:152: tied: cannot tie c to itself
  [65]

IsoFLOP minima (isofit) need a known method, a filter factor above 1, and
two budgets whose optimum lies inside their sizes; a --plot named .svg,
.pdf or .png, and figure options only with a plot they change:

  $ loopscale isofit --method envelope small.csv
  loopscale isofit: --method: 'envelope' is not one of parabola, minimum, akima
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --keep 1 small.csv
  loopscale isofit: --keep: '1' must be a factor greater than 1
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --ci 1.5 small.csv
  loopscale isofit: --ci: '1.5' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale isofit --help'.
  [64]
A budget whose losses are flat has no optimum, however the rounding leaves
the parabola's curvature; and an interval needs 20 draws that gave an
exponent, as fit's does:

  $ for F in 1e18 1e19 1e20 1e21; do for N in 1e7 3e7 1e8 3e8 1e9; do python3 -c "print('%g,%g,2.5' % ($N, $F / (6 * $N)))"; done; done | sed '1i n_act,tokens,loss' > flat.csv
  $ loopscale isofit flat.csv
  loopscale isofit: flat.csv: 0 of 4 budgets have an interior optimum; the power law needs two (a budget needs 3 runs at 3 or more sizes, with the lowest loss inside them); left out: 4 not convex
  [65]
  $ loopscale isofit --method minimum flat.csv
  loopscale isofit: flat.csv: 0 of 4 budgets have an interior optimum; the power law needs two (a budget needs 3 runs, its lowest loss inside its sizes); left out: 4 not convex
  [65]
  $ printf 'n_act,tokens,loss\n1e7,1.66667e10,3.920682\n3.33333e7,5e9,3.586332\n1e8,1.66667e9,3.648\n1e8,1.66667e10,3.2\n3.33333e8,5e9,2.98\n1e9,1.66667e9,3.1\n3e8,5.5e10,2.75\n1e9,1.66667e10,2.6\n3e9,5.5e9,2.72\n1e9,1.66667e11,2.41\n3e9,5.5e10,2.33\n1e10,1.66667e10,2.39\n' > iso3.csv
  $ loopscale isofit --bootstrap 20 iso3.csv | sed -n 3p
  loopscale isofit: warning: the power law rests on two budgets: a line through two points has no error to judge it by (no R^2, no least-squares interval)
  loopscale isofit: warning: only 0 of 20 bootstrap draws gave an exponent, too few for an interval (at least 20): none given
  budgets    6, 2 with an interior optimum

  $ loopscale isofit small.csv
  loopscale isofit: small.csv: 0 of 6 budgets have an interior optimum; the power law needs two (a budget needs 3 runs at 3 or more sizes, with the lowest loss inside them); left out: 6 too few runs; 6 of the 6 budgets hold a single run: if the FLOPs are spread continuously, group them with --group-tol (0.3: within 30%)
  [65]
  $ printf 'n_act,tokens,loss\n1e8,2e10,3.3\n2e8,1e10,3.2\n4e8,5e9,3.3\n1e8,4e10,3.1\n2e8,2e10,3.0\n4e8,1e10,3.1\n' > twobudgets.csv
  $ loopscale isofit twobudgets.csv | sed -n 3p
  loopscale isofit: warning: the power law rests on two budgets: a line through two points has no error to judge it by (no R^2, no least-squares interval)
  budgets    2, 2 with an interior optimum
  $ loopscale isofit --keep 1.5 twobudgets.csv
  loopscale isofit: twobudgets.csv: 0 of 2 budgets have an interior optimum; the power law needs two (a budget needs 3 runs at 3 or more sizes, with the lowest loss inside them); left out: 2 too few runs; --keep 1.5 removed runs from 2 budgets
  [65]
  $ printf 'n_act,tokens,loss\n1e8,1e10,3.9\n1.1e8,1.2e10,3.8\n1.3e8,1.4e10,3.7\n1.5e8,1.7e10,3.6\n' > spread.csv
  $ loopscale isofit spread.csv
  loopscale isofit: spread.csv: 0 of 4 budgets have an interior optimum; the power law needs two (a budget needs 3 runs at 3 or more sizes, with the lowest loss inside them); left out: 4 too few runs; 4 of the 4 budgets hold a single run: if the FLOPs are spread continuously, group them with --group-tol (0.3: within 30%)
  [65]
  $ loopscale isofit
  loopscale isofit: give at least one SWEEP file
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --bootstrap 19 small.csv
  loopscale isofit: --bootstrap: '19' is too few draws for an interval: at least 20 (or 0 for none)
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --bootstrap 20 --ci 1e-300 small.csv
  loopscale isofit: --ci: '1e-300' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --plot iso.eps twobudgets.csv
  loopscale isofit: --plot: 'iso.eps': the file name must end in .svg, .pdf or .png
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --dpi 200 --plot iso.pdf twobudgets.csv
  loopscale isofit: --dpi has no effect without a .png --plot
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --plot-caption twobudgets.csv
  loopscale isofit: --plot-caption has no effect without --plot
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale isofit --plot iso.svg --plot-title 'Figure 3' --plot-no-title twobudgets.csv
  loopscale isofit: --plot-title and --plot-no-title: give one, not both
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1e21 --plot-caption
  loopscale frontier: --plot-caption has no effect without --plot
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e20,1e21 --plot f.svg --dpi 300
  loopscale frontier: --dpi has no effect without a .png --plot
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale isofit --plot iso.png --plot-size 0.5x4 twobudgets.csv
  loopscale isofit: --plot-size: '0.5x4' must be between 1 and 100 inches each way
  Try 'loopscale isofit --help'.
  [64]
  $ loopscale fit --bootstrap 20 --ci 0.9999 small.csv
  loopscale fit: --ci: '0.9999' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale fit --help'.
  [64]
  $ loopscale solve --uncertainty --ci 0.1 --flops 1e21
  loopscale solve: --ci: '0.1' is not a usable level: give one from 0.5 to 0.999 (0.95 is a 95% interval)
  Try 'loopscale solve --help'.
  [64]

--fix-from needs a law file sharing parameters with the law fitted, and
a parameter it holds cannot be fixed again:

  $ cp $DC dc.json
  $ loopscale fit --law kaplan --fix-from dc.json small.csv
  loopscale fit: --fix-from dc.json: its law shares no parameter with kaplan
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law data-constrained --fix-from dc.json --fix c=2 small.csv
  loopscale fit: --fix c given twice ('--fix-from', then 'c=2'): a parameter takes one value
  Try 'loopscale fit --help'.
  [64]
  $ loopscale fit --law data-constrained --fix-from missing.json small.csv
  loopscale fit: missing.json: cannot open: No such file or directory
  [66]

The solver's options on frontier (the frontier of the chosen architecture)
are read as solve reads them:

  $ loopscale frontier --law $DC --flops 1e21 --mem 3B
  loopscale frontier: --mem: '3B' is ambiguous: B is a byte in a size but a billion in a count; write 3GB for 3e9 bytes, or the number alone for bytes
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --mem -1GB
  loopscale frontier: --mem: '-1GB' must be positive
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --bits four
  loopscale frontier: --bits: 'four' is not a number
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --bits 0
  loopscale frontier: --bits: '0' must be positive
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --R 1,1.5
  loopscale frontier: --R: '1.5' is not an integer (loops)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --E 2,x
  loopscale frontier: --E: 'x' is not a number
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --eps -0.1
  loopscale frontier: --eps: '-0.1' is outside its range: from 0 to 10 (nats)
  Try 'loopscale frontier --help'.
  [64]
  $ loopscale frontier --law $DC --flops 1e21 --template missing.json
  loopscale frontier: missing.json: cannot open: No such file or directory
  [66]

A memory budget too small for any candidate, and a budget too small for any
model (1000 active parameters on one token), named in the message:

  $ loopscale frontier --flops 1e20,1e22 --mem 400 --bits 4
  loopscale frontier: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale frontier: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale frontier: warning: --bits 4: the loss assumes the weights lose nothing when quantised (the law has no quantisation penalty; --quantisation FILE adds one)
  loopscale frontier: at 1e+20 FLOPs no candidate fits in 400 bytes at 4 bits per weight
  [65]
  $ loopscale frontier --flops 1e20,1 --R 1 --E 1
  loopscale frontier: using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); --law FILE for another
  loopscale frontier: warning: the default law's fit: E_max = 572 is not determined by the runs: its 95% bootstrap interval [270, 2.37e+09] spans a factor 8.8e+06
  loopscale frontier: no model fits a budget of 1 FLOP
  [65]

That law's convention is honoured by the solver's frontier, which minimises
numerically as solve does (the same N_total as solve's choice):

  $ loopscale frontier --force --law porian.json --flops 1e21 --R 1 --E 1 --format csv 2>/dev/null | cut -d, -f1,6-9
  flops,R,E,n_total,bound
  1e+21,1,1,2819379012.6088715,compute
  $ loopscale solve --force --law porian.json --flops 1e21 --R 1 --E 1 --format json 2>/dev/null | grep -m1 n_total
      "n_total": 2819379012.6088715,
