Per-group fits: fit --by COL fits each group of runs sharing COL's value on
its own, prints one table with a row per group, and writes a law file per
group, all or none (docs/own-sweep.md#several-configurations-in-one-file).

Two arms of the shipped looped dense sweep in one file: the second arm's
losses are the first's times 1.05, so its law must be the first's with A, B
and c times 1.05 and the same exponents and loop parameters (ln 1.05 L is
ln L + ln 1.05, and the objective sees only log residuals).  The learning-rate
column differs in its 6th digit inside the first arm, as logs round it:

  $ zcat $ROOT/data/sweeps/looped-dense.csv.gz | awk -F, 'BEGIN { OFS = "," }
  >     NR == 1 { print $0, "arm", "lr"; next }
  >     { print $0, "base", (NR % 2 ? 3.00001e-4 : 2.99999e-4); $9 = sprintf("%.17g", $9 * 1.05); print $0, "worse", 1e-3 }' > arms.csv
  $ loopscale fit --law dense:bounded --by arm -o 'law-{group}.json' arms.csv | grep -v '^$'
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: arm=base: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: arm=worse: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  law        dense:bounded
  runs       280 in 2 groups by arm (arms.csv)
  objective  sum of Huber(ln Lhat - ln L), delta 0.001, for each group
  arm    runs        A     alpha        B      beta        c   kappa1   kappa2        RMSE    objective  converged
  base    140  534.055  0.353444  776.121  0.323429  1.80229  1.18908  1.46474  0.00435982  0.000137163  yes
  worse   140  560.758  0.353444  814.927  0.323429  1.89241  1.18908  1.46474  0.00457781  0.000137163  yes
  RMSE in loss units; each group's law file records its runs as filters (--where).
  $ python3 - <<'PY'
  > import json
  > base, worse = (json.load(open(f"law-{g}.json"))["params"] for g in ("base", "worse"))
  > for p in base:
  >     ratio = 1.05 if p in ("A", "B", "c") else 1.0
  >     assert abs(worse[p] / (base[p] * ratio) - 1) < 1e-6, (p, base[p], worse[p])
  > print("scaled as expected")
  > PY
  scaled as expected

A group's fit is the fit of its runs alone: the same numbers, bit for bit, as
selecting them with --where, which is what its law file records:

  $ loopscale fit --law dense:bounded --where 'arm==worse' -o worse.json arms.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); assert a["params"] == b["params"]; print(a["fit"]["filters"])' worse.json law-worse.json
  ['--where arm==worse']
  $ python3 -c 'import json; print(json.load(open("law-worse.json"))["fit"]["filters"])'
  ['--where arm==worse']

A numeric column is grouped within a tolerance, like any quantity's tiers:
the lr values 2.99999e-4 and 3.00001e-4 are one group, labelled 0.0003, and
its law file selects it by the tier's smallest and largest values:

  $ loopscale fit --law dense:bounded --by lr -o 'lr-{group}.json' arms.csv | cut -c1-30 | sed -n '5,7p'
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: lr=0.0003: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: lr=0.001: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
      lr  runs        A     alph
  0.0003   140  534.055  0.35344
   0.001   140  560.758  0.35344
  $ ls lr-*.json
  lr-0.0003.json
  lr-0.001.json
  $ python3 -c 'import json; print(json.load(open("lr-0.0003.json"))["fit"]["filters"])'
  ['--where lr>=0.000299999', '--where lr<=0.000300001']

With --group-tol below the rounding, the two values are two groups:

  $ loopscale fit --law dense:bounded --by lr --group-tol 1e-9 arms.csv | cut -c1-12 | sed -n '6,8p'
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: lr=0.000299999: B = 244 is poorly determined: its 95% interval from its standard error [5.5, 1.08e+04] spans a factor 2e+03, more than 1000
  loopscale fit: warning: lr=0.000299999: the compute-optimal exponent a = 0.437 is poorly determined: its 95% interval from the standard errors [0.283, 0.592] is 0.31 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: lr=0.000300001: B = 4.89e+03 is poorly determined: its 95% interval from its standard error [5.71, 4.19e+06] spans a factor 7.3e+05, more than 1000
  loopscale fit: warning: lr=0.000300001: beta = 0.402 is poorly determined: its 95% interval from its standard error [0.115, 0.689] is 0.57 wide, more than 0.5
  loopscale fit: warning: lr=0.000300001: the compute-optimal exponent a = 0.533 is poorly determined: its 95% interval from the standard errors [0.356, 0.71] is 0.35 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: lr=0.001: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  0.000299999 
  0.000300001 
        0.001 

Several --by columns make a group of each combination that some run has;
--format json prints the law files in one JSON document, a list under "laws":

  $ loopscale fit --law dense:bounded --by arm --by lr --format json arms.csv > laws.json
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: arm=base, lr=0.0003: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: arm=worse, lr=0.001: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ python3 -c 'import json; laws = json.load(open("laws.json"))["laws"]; print(len(laws), [l["fit"]["filters"] for l in laws])'
  2 [['--where arm==base', '--where lr>=0.000299999', '--where lr<=0.000300001'], ['--where arm==worse', '--where lr>=0.001', '--where lr<=0.001']]

All or none: split by loop count, the R = 1 group fits (its loop parameters
held), but the six groups of one R > 1 each cannot tell the loop parameters
apart; each is named, no group's law file is written, and the exit status is 3:

  $ loopscale fit --law dense:bounded --by R -o 'r-{group}.json' arms.csv > /dev/null 2> errors.txt
  [3]
  $ grep -c 'cannot tell the parameters apart' errors.txt; ls r-*.json
  6
  ls: cannot access 'r-*.json': No such file or directory
  [2]

Values are made safe for a file name: anything but letters, digits and . _ + -
becomes _:

  $ sed 's/,base,/,rw\/base v2,/' arms.csv > slash.csv
  $ loopscale fit --law dense:bounded --by arm -o 'law-{group}.json' slash.csv > /dev/null
  loopscale fit: columns the law does not read: n_total, E, k
  loopscale fit: warning: arm=rw/base v2: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: arm=worse: the compute-optimal exponent a = 0.478 is poorly determined: its 95% interval from the standard errors [0.365, 0.591] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  $ ls law-rw*
  law-rw_base_v2.json

A refusal inside one group names the group, and the help hint names the
command alone:

  $ loopscale fit --law dense --by arm --fix c=100 arms.csv 2>&1 | grep -v '^loopscale fit: arm='
  loopscale fit: columns the law does not read: n_total, n_loop, R, E, k
  Try 'loopscale fit --help'.
