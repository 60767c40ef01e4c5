The published laws and methods on real data (../shared, present in CI;
skipped when it is not).

  $ CSV=$SHARED/data/external/epoch-chinchilla/svg_extracted_data.csv
  $ [ -f "$CSV" ] || exit 80

fit prints the exponents of the law it fitted: Epoch AI's Chinchilla
points give a = beta / (alpha + beta) = 0.36717 / (0.34731 + 0.36717).

  $ loopscale fit --law dense --map 'n_act=Model Size' --map 'flops=Training FLOP' --where 'loss<3.4469' $CSV | grep optimum
  optimum    N_opt ~ F^0.5139, D_opt ~ F^0.4861 (a = beta / (alpha + beta))

Fit diagnostics on Porian et al.'s IsoFLOP points ("Resolving Discrepancies
in Compute-Optimal Scaling of Language Models"): two configurations whose
Chinchilla fit converges but should not be taken as it stands.  On
owt2/base/long/kaplan/kaplan/train c runs to 0 with a standard error in
the units (the fit says c = 1.26e-9, SE 2.6 in the issue's scipy re-run):

  $ P=$SHARED/data/external/porian-resolving/porian_isoflop_points.csv
  $ pick() { python3 -c "import csv,sys; w=csv.writer(sys.stdout); r=csv.reader(open('$P')); h=next(r); w.writerow(h); [w.writerow(x) for x in r if x[1:7]==sys.argv[1].split('/')]" "$1"; }
  $ pick owt2/base/long/kaplan/kaplan/train > owt2.csv
  $ loopscale fit --law dense --map n_act=n --map tokens=t owt2.csv -o owt2.json | grep -E '^(converged|c) '
  loopscale fit: warning: c = [0-9.]+e-[0-9]+ ran to its bound 0 \(standard error [0-9.]+\): the runs show no irreducible loss, and the exponents absorb it; try --fix c=VALUE, or a law without c \(kaplan\) (re)
  loopscale fit: warning: the runs do not tell alpha = 0.0777 from its lower bound 0: its 95% interval from its standard error [-0.0475, 0.203] reaches past it
  loopscale fit: warning: the compute-optimal exponent a = 0.858 is poorly determined: its 95% interval from the standard errors [0.669, 1.05] is 0.38 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the RMSE, 0.884, is 4 times the noise the runs themselves show (0.221, from each run's nearest neighbour): the law does not describe these runs
  converged  yes \(\d+ iterations\) (re)
  c  +[0-9.]+e-[0-9]+ +[0-9.]+ (re)
  $ python3 -c "import json; w = json.load(open('owt2.json'))['warnings']; print(w[0]['code'], w[0]['subject'], 'ran to its bound 0' in w[0]['message'])"
  parameter-at-bound c True

On rw/tuned/short/const/standard/val c lands above the lowest loss seen:

  $ pick rw/tuned/short/const/standard/val > rw.csv
  $ loopscale fit --law dense --map n_act=n --map tokens=t rw.csv --format json | python3 -c "import json,sys; d=json.load(sys.stdin); print(round(d['params']['c'], 3)); [print(w['code'], w['subject']) for w in d['warnings']]"
  loopscale fit: warning: c = 3.131 is above the lowest observed loss, 3.097 (line 121): the law cannot reach that run, so its irreducible loss is not a floor
  loopscale fit: warning: A = 2.12e+04 is poorly determined: its 95% interval from its standard error [30.1, 1.49e+07] spans a factor 5e+05, more than 1000
  loopscale fit: warning: alpha = 0.63 is poorly determined: its 95% interval from its standard error [0.205, 1.06] is 0.85 wide, more than 0.5
  loopscale fit: warning: the compute-optimal exponent a = 0.529 is poorly determined: its 95% interval from the standard errors [0.344, 0.715] is 0.37 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  loopscale fit: warning: the RMSE, 0.457, is 4.1 times the noise the runs themselves show (0.112, from each run's nearest neighbour): the law does not describe these runs
  3.131
  fit-quality c
  undetermined-parameter A
  undetermined-parameter alpha
  undetermined-parameter a
  fit-quality 

Holding out the largest N or D of Epoch's points holds out one run:

  $ loopscale holdout --laws dense --map 'n_act=Model Size' --map 'flops=Training FLOP' $CSV --format json | python3 -c "import json,sys; print('\n'.join(w['code'] + ': ' + w['message'] for w in json.load(sys.stdin)['warnings']))"
  loopscale holdout: R=1: nothing to hold out (every run has this value)
  loopscale holdout: E=1: nothing to hold out (every run has this value)
  loopscale holdout: warning: axis N holds out a single run (N=1.618e+10): its RMSE is one residual, not a measure of extrapolation; hold out more with --split, or a wider top tier with --group-tol
  loopscale holdout: warning: axis D holds out a single run (D=3.178e+11): its RMSE is one residual, not a measure of extrapolation; hold out more with --split, or a wider top tier with --group-tol
  fit-quality: axis N holds out a single run (N=1.618e+10): its RMSE is one residual, not a measure of extrapolation; hold out more with --split, or a wider top tier with --group-tol
  fit-quality: axis D holds out a single run (D=3.178e+11): its RMSE is one residual, not a measure of extrapolation; hold out more with --split, or a wider top tier with --group-tol

Gadre et al.'s law ("Language models scale reliably with over-training
and on downstream tasks") is Chinchilla's with alpha = beta, so that the
compute-optimal exponent is exactly 1/2: --tie beta=alpha.  On their
RedPajama runs trained at least as long as Chinchilla's 20 tokens per
parameter, the free fit has alpha = 0.219 and beta = 0.240; tied, both are
0.221, at an objective no lower than the free fit's:

  $ G=$SHARED/data/external/gadre-overtraining/gadre_overtraining_final_losses.csv
  $ GADRE="--law dense --map n_act=params_no_embed --map loss=loss_c4_val --where dataset=rpj --where chinchilla_multiplier>=1"
  $ loopscale fit $GADRE --tie beta=alpha -o gadre.json $G | grep -E '^(runs|optimum|alpha|beta) '
  runs       27 (*) (glob)
  optimum    N_opt ~ F^0.5000, D_opt ~ F^0.5000 (a = beta / (alpha + beta))
  alpha      0.22106  0.0152086
  beta       0.22106  = alpha
  $ loopscale fit $GADRE -o free.json $G | grep -E '^(alpha|beta) '
  loopscale fit: warning: the compute-optimal exponent a = 0.522 is poorly determined: its 95% interval from the standard errors [0.408, 0.636] is 0.23 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  alpha      0.219062  0.0156109
  beta       0.239501  0.0466414
  $ python3 -c "import json; t, f = (json.load(open(n)) for n in ('gadre.json', 'free.json')); print(t['tied'], t['params']['alpha'] == t['params']['beta'], t['fit']['objective'] >= f['fit']['objective'])"
  {'beta': 'alpha'} True True

Their three data sets fitted as one law: the runs of one configuration
(N_act and D) differ by data set far beyond the fit's residuals, which the
verdict says, naming the pair of largest mean difference among those whose
differences have |t| > 4 (the mean and t recomputed from the file below);
fitted one data set at a time (--by), it says nothing of the kind:

  $ MIXED="--law dense --map n_act=params_no_embed --map loss=loss_c4_val --where chinchilla_multiplier>=1"
  $ loopscale fit $MIXED $G 2>&1 > /dev/null | grep 'experiments'
  loopscale fit: warning: runs at one configuration differ in column 'dataset', and their losses with it: at the 25 configurations run with both, dataset = 'rpj' has a loss 0\.111 above 'c4_original' on average \(t = 14\.7\), more than the fit's residuals \(0\.0\d+\): these look like different experiments fitted as one law; fit each with --by dataset, or keep one with --where 'dataset=VALUE' (re)
  $ python3 -c '
  > import csv, sys, statistics, math, itertools
  > rows = [r for r in csv.DictReader(open(sys.argv[1])) if float(r["chinchilla_multiplier"]) >= 1]
  > cells = {}
  > for r in rows:
  >     cells.setdefault((r["params_no_embed"], r["tokens"]), {}).setdefault(r["dataset"], []).append(float(r["loss_c4_val"]))
  > for a, b in itertools.combinations(sorted({r["dataset"] for r in rows}), 2):
  >     d = [statistics.mean(c[a]) - statistics.mean(c[b]) for c in cells.values() if a in c and b in c]
  >     m, t = statistics.mean(d), statistics.mean(d) / (statistics.stdev(d) / math.sqrt(len(d)))
  >     print(a, b, len(d), "%.3g %.3g" % (m, t))' $G
  c4_original rpj 25 -0.111 -14.7
  c4_original rw_original 25 -0.075 -7.03
  rpj rw_original 26 0.0345 4.23
  $ loopscale fit $MIXED --by dataset $G 2>&1 > /dev/null | grep -c 'experiments'
  0
  [1]

holdout honours the tie in each of its fits (k = 4 free parameters):

  $ loopscale holdout --laws dense --tie beta=alpha --axes N,D --map n_act=params_no_embed --map loss=loss_c4_val --where dataset=rpj --where 'chinchilla_multiplier>=1' --format csv $G 2> /dev/null | cut -d, -f1-2
  law,k
  dense,4

IsoFLOP minima (isofit, Chinchilla approach 2) on Porian et al.'s 15
configurations, with their filter at a factor 2, beside the exponent of
their own N* fit: every one within 0.045, and 12 within 0.01.

  $ P=$SHARED/data/external/porian-resolving
  $ grep ',basic,' $P/porian_power_law_fits.csv | cut -d, -f1-9 | while IFS=, read src ds hp wu dec pc val fit nexp; do
  >   a=$(loopscale isofit --keep 2 --where "source_file=$src" --where dataset=$ds --where hparams=$hp --where warmup=$wu --where decay=$dec --where param_count=$pc --where val=$val --map n_act=n --map tokens=t --format json $P/porian_isoflop_points.csv | python3 -c "import json,sys; print(json.load(sys.stdin)['exponent_n'])")
  >   python3 -c "import sys; a, p = float(sys.argv[1]), float(sys.argv[2]); print(sys.argv[3], '%.4f %.4f' % (p, a), abs(a - p) < 0.045, abs(a - p) < 0.01)" $a $nexp $ds/$hp/$wu/$dec/$pc/$val
  > done
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 3.318e+05), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 1.049e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or below its smallest size (N_act = 1.741e+06), so the budget is left out of the power law; smaller models would place it
  rw/base/long/kaplan/kaplan/train 0.8338 0.8083 True False
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 5.173e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 5.173e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or below its smallest size (N_act = 5.173e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 1e+17: its optimum lies at or above its largest size (N_act = 9.81e+06), so the budget is left out of the power law; larger models would place it
  rw/base/long/kaplan/standard/val 0.7009 0.7054 True True
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or above its largest size (N_act = 1.56e+07), so the budget is left out of the power law; larger models would place it
  rw/base/short/kaplan/standard/val 0.6035 0.6040 True True
  rw/base/short/chinchilla/standard/val 0.5714 0.5635 True True
  rw/tuned/short/const/standard/val 0.4970 0.4989 True True
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 1e+17: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  rw/base/long/kaplan/attention/train 0.7159 0.7139 True True
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2e+17: its optimum lies at or above its largest size (N_act = 4.492e+07), so the budget is left out of the power law; larger models would place it
  rw/base/short/kaplan/attention/train 0.6240 0.6084 True False
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 5.763e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 8.552e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or below its smallest size (N_act = 1.145e+07), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 1e+17: its optimum lies at or below its smallest size (N_act = 1.835e+07), so the budget is left out of the power law; smaller models would place it
  rw/base/short/chinchilla/attention/train 0.5778 0.5731 True True
  rw/tuned/short/const/attention/train 0.5041 0.4992 True True
  rw/tuned/long/const/kaplan/train 0.7081 0.7177 True True
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 3.318e+05), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 1.049e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 5e+16: its optimum lies at or below its smallest size (N_act = 1.741e+06), so the budget is left out of the power law; smaller models would place it
  owt2/base/long/kaplan/kaplan/train 0.8700 0.8282 True False
  loopscale isofit: warning: budget F = 1.25e+16: its optimum lies at or below its smallest size (N_act = 5.173e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 2.5e+16: its optimum lies at or below its smallest size (N_act = 5.173e+06), so the budget is left out of the power law; smaller models would place it
  loopscale isofit: warning: budget F = 1e+17: its optimum lies at or above its largest size (N_act = 9.81e+06), so the budget is left out of the power law; larger models would place it
  owt2/base/long/kaplan/standard/val 0.7000 0.7031 True True
  owt2/base/short/kaplan/standard/val 0.6016 0.5993 True True
  owt2/base/short/chinchilla/standard/val 0.5689 0.5592 True True
  owt2/tuned/short/const/standard/val 0.5184 0.5092 True True
  $ loopscale isofit --keep 2 --where source_file=summary_df.pickle.xz --where dataset=rw --where hparams=tuned --where warmup=short --where decay=const --where param_count=standard --where val=val --map n_act=n --map tokens=t --bootstrap 200 $P/porian_isoflop_points.csv | sed -n 3,6p
  budgets    12, 12 with an interior optimum
  N_opt      0.1092 F^0.4989 (R^2 0.9987)
  D_opt      1.526 F^0.5011
  a          in [0.4863, 0.5115] (95%, least squares over 12 budgets)

Approach 2 on Epoch AI's points of Chinchilla's runs, beside approach 3's
a = 0.5139 above:

  $ loopscale isofit --group-tol 0.3 --map 'n_act=Model Size' --map 'flops=Training FLOP' $CSV | sed -n 3,4p
  budgets    29, 21 with an interior optimum
  N_opt      0.1373 F^0.4894 (R^2 0.9765)

Muennighoff et al.'s data-constrained law, fitted in two stages on the
final losses of their runs (as IBM's ColPret collected them; unique tokens
U = tokens / epochs): the base terms on the 33 single-epoch runs, then
R_D* and R_N* with the base held (--fix-from):

  $ DB=$SHARED/data/external/datablations-colpret/datablations_contour_losses.csv
  $ python3 -c "
  > import csv, sys
  > w = csv.writer(sys.stdout); w.writerow(['n_act', 'tokens', 'unique_tokens', 'epochs', 'loss'])
  > for r in csv.DictReader(open('$DB')):
  >     w.writerow([r['num_params'], r['token_num'], float(r['token_num']) / float(r['epochs']), r['epochs'], r['openLM_loss']])
  > " > dbl.csv
  $ loopscale fit --law dense --where epochs=1 -o base.json dbl.csv | grep -E '^(runs|RMSE|alpha|beta) '
  loopscale fit: a column the law does not read: unique_tokens
  loopscale fit: warning: A = 431 is poorly determined: its 95% interval from its standard error [4.33, 4.29e+04] spans a factor 9.9e+03, more than 1000
  loopscale fit: warning: alpha = 0.336 is poorly determined: its 95% interval from its standard error [0.0571, 0.615] is 0.56 wide, more than 0.5
  loopscale fit: warning: the compute-optimal exponent a = 0.535 is poorly determined: its 95% interval from the standard errors [0.301, 0.77] is 0.47 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       33 (dbl.csv)
  RMSE       0.24183 (loss units)
  alpha      0.335942   0.142264
  beta       0.386823  0.0525374
  $ loopscale fit --law data-constrained --fix-from base.json -o dc.json dbl.csv | grep -E '^(runs|RMSE|A|R_D_star|R_N_star) |^ +a in'
  loopscale fit: warning: the residuals trend along N: their rank correlation with ln N is -0.48 (t = -8.3): the law misses how the loss changes with N; try another law or mapping
  loopscale fit: warning: the residuals trend along D: their rank correlation with ln D is -0.42 (t = -6.9): the law misses how the loss changes with D; try another law or mapping
  loopscale fit: warning: the residuals trend along U: their rank correlation with ln U is -0.31 (t = -4.9): the law misses how the loss changes with U; try another law or mapping
  loopscale fit: warning: the RMSE, 1.07, is 15 times the noise the runs themselves show (0.0707, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: warning: held from base.json: A = 431 is poorly determined: its 95% interval from its standard error [4.33, 4.29e+04] spans a factor 9.9e+03, more than 1000
  loopscale fit: warning: held from base.json: alpha = 0.336 is poorly determined: its 95% interval from its standard error [0.0571, 0.615] is 0.56 wide, more than 0.5
  loopscale fit: warning: held from base.json: the compute-optimal exponent a = 0.535 is poorly determined: its 95% interval from the standard errors [0.301, 0.77] is 0.47 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       229 (dbl.csv)
  RMSE       1.07115 (loss units)
             a in [0.3007, 0.7697] (95%, held from base.json)
  A            430.91  held from base.json
  R_D_star    49.7779  15.5088
  R_N_star    130.505  73\.39\d\d (re)

Both exponents of a held, the fit says nothing of a: the law file records
base.json's interval of a, as held from it.  The held terms were fitted on
base.json's runs alone, so the ranges that bound extrapolation are theirs:
with a base fitted below 1e9 parameters, N_act up to 8.67e9 in the second
stage's runs is still outside:

  $ python3 -c "import json; b, d = (json.load(open(n))['fit'] for n in ('base.json', 'dc.json')); print(d['optimum'].pop('held_from'), d['optimum'] == b['optimum'])"
  base.json True
  $ loopscale fit --law dense --where epochs=1 --where 'n_act<1e9' -o small.json dbl.csv > /dev/null 2>&1
  $ loopscale fit --law data-constrained --fix-from small.json -o dcs.json dbl.csv > /dev/null 2>&1
  $ python3 -c "import json; b, d = (json.load(open(n))['fit']['ranges'] for n in ('small.json', 'dcs.json')); print(b == d, d['n_act'], d['flops'])"
  True [7098752, 618700000] [4259251200000000.0, 5.989428e+20]
  $ loopscale fit --law data-constrained dbl.csv 2> /dev/null | grep -E '^(runs|RMSE|R_N_star) '
  runs       229 (dbl.csv)
  RMSE       1.05999 (loss units)
  R_N_star    38.3908    54.9902
  $ loopscale fit --law data-constrained --fix-from base.json --where 'unique_tokens>1e8' --where 'epochs<=40' dbl.csv | grep -E '^(runs|RMSE|R_D_star|R_N_star) '
  loopscale fit: warning: the residuals trend along N: their rank correlation with ln N is -0.40 (t = -4.3): the law misses how the loss changes with N; try another law or mapping
  loopscale fit: warning: the residuals trend along D: their rank correlation with ln D is -0.44 (t = -4.7): the law misses how the loss changes with D; try another law or mapping
  loopscale fit: warning: the RMSE, 0.19, is 4.6 times the noise the runs themselves show (0.0417, from each run's nearest neighbour): the law does not describe these runs
  loopscale fit: warning: held from base.json: A = 431 is poorly determined: its 95% interval from its standard error [4.33, 4.29e+04] spans a factor 9.9e+03, more than 1000
  loopscale fit: warning: held from base.json: alpha = 0.336 is poorly determined: its 95% interval from its standard error [0.0571, 0.615] is 0.56 wide, more than 0.5
  loopscale fit: warning: held from base.json: the compute-optimal exponent a = 0.535 is poorly determined: its 95% interval from the standard errors [0.301, 0.77] is 0.47 wide, more than 0.2, so N_opt and D_opt far from the runs are not to be trusted
  runs       97 (dbl.csv)
  RMSE       0.189975 (loss units)
  R_D_star    15.1257  14.527
  R_N_star    103.562  101.337

Why the RMSE over all runs is about 1: the runs that repeat 100M unique
tokens hundreds of times overfit, their loss rising to 11, and the law
cannot rise with D; and these losses are not the ones the published law
was fitted to (the single-epoch runs of 1e9 tokens or more lie 0.36 above
it on average; residual = loss - prediction):

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "data-constrained", "mapping": "none"}, "params": {"A": 520.8249516599187, "alpha": 0.3526596, "B": 1487.716093782861, "beta": 0.3526596, "c": 1.8691436784054858, "R_D_star": 15.387756, "R_N_star": 5.309743}}' > muennighoff2023.json
  $ loopscale predict --law muennighoff2023.json --format csv dbl.csv 2>messages.txt | python3 -c "
  > import csv, sys, math
  > r = list(csv.DictReader(sys.stdin))
  > def rmse(s): return math.sqrt(sum(float(x['residual']) ** 2 for x in s) / len(s))
  > print('all %d %.3f' % (len(r), rmse(r)))
  > s = [x for x in r if float(x['epochs']) > 100]; print('epochs>100 %d %.3f max loss %.2f' % (len(s), rmse(s), max(float(x['loss']) for x in s)))
  > s = [x for x in r if float(x['epochs']) == 1 and float(x['tokens']) >= 1e9]; print('single-epoch %d mean residual %.2f' % (len(s), sum(float(x['residual']) for x in s) / len(s)))
  > "; cat messages.txt
  all 229 1.136
  epochs>100 59 1.852 max loss 11.02
  single-epoch 27 mean residual 0.36
  loopscale predict: RMSE 1.13607 over 229 runs (loss units)
