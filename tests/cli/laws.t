The published laws: Kaplan et al.'s form and Muennighoff et al.'s
data-constrained law, evaluated by predict with their papers' parameters.

Kaplan et al. 2020 at N = 1.234e9, D = 2.71e10; Python gives
((8.8e13/1.234e9)**0.8 + 5.4e13/2.71e10)**0.095 = 2.3900862866351287.

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "kaplan", "mapping": "none"}, "params": {"N_c": 8.8e13, "alpha_N": 0.076, "D_c": 5.4e13, "alpha_D": 0.095}}' > kaplan2020.json
  $ loopscale predict --law kaplan2020.json --n-act 1.234e9 --tokens 2.71e10 --format json | grep loss
    "loss": 2.3900862866351287,

The check values of the datablations README, L(N, D, U) =
2.2256440889984477 and 2.2269634075087867 (the last digit is the rounding of
the exponentials: 2 parts in 1e16):

  $ printf '%s\n' '{"format": "loopscale-law/1", "law": {"base": "data-constrained", "mapping": "none"}, "params": {"A": 520.8249516599187, "alpha": 0.3526596, "B": 1487.716093782861, "beta": 0.3526596, "c": 1.8691436784054858, "R_D_star": 15.387756, "R_N_star": 5.309743}}' > muennighoff2023.json
  $ DC=muennighoff2023.json
  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --unique-tokens 25e9 --format json | grep loss
    "loss": 2.2256440889984477,
  $ loopscale predict --law $DC --n-act 8.67e9 --tokens 178e9 --unique-tokens 25e9 --format json | grep loss
    "loss": 2.2269634075087863,

Without unique tokens the data is unlimited and the law is Chinchilla's
form: A N^-alpha + B D^-beta + c = 520.8249516599187 * 6.34e9**-0.3526596 +
1487.716093782861 * 242e9**-0.3526596 + 1.8691436784054858 = 2.1949175363322544
(Python; the last digit is rounding).

  $ loopscale predict --law $DC --n-act 6.34e9 --tokens 242e9 --format json | grep loss
    "loss": 2.194917536332255,

The same from a sweep file, with the column under its datablations name:

  $ printf 'num_params,token_num,tokens_per_epoch\n6.34e9,242e9,25e9\n8.67e9,178e9,25e9\n' > runs.csv
  $ loopscale predict --law $DC --map n_act=num_params --map tokens=token_num --format csv runs.csv 2>messages.txt | cut -d, -f4; cat messages.txt
  pred_loss
  2.2256440889984477
  2.2269634075087863
  loopscale predict: warning: column 'tokens_per_epoch' (unique_tokens) holds 25000000000 for every one of the 2 runs; if that is not each run's own value (a placeholder), give the right column with --map unique_tokens=COLUMN, or set this one aside with --map unread=tokens_per_epoch

An empty cell (a JSON null, a missing key) is a run whose data was never
repeated, U unlimited, as if the file had no such column; and the derived
filter `epochs` = D / U (1 for such a run) selects the single-epoch runs of
the two-stage fit:

  $ printf 'num_params,token_num,tokens_per_epoch\n6.34e9,242e9,\n6.34e9,242e9,25e9\n6.34e9,25e9,25e9\n' > mixed.csv
  $ loopscale predict --law $DC --map n_act=num_params --map tokens=token_num --format csv mixed.csv 2>messages.txt | cut -d, -f4; cat messages.txt
  pred_loss
  2.194917536332255
  2.2256440889984477
  2.38955173884643
  loopscale predict: warning: column 'tokens_per_epoch' (unique_tokens) holds 25000000000 for every one of the 2 runs; if that is not each run's own value (a placeholder), give the right column with --map unique_tokens=COLUMN, or set this one aside with --map unread=tokens_per_epoch
  $ loopscale predict --law $DC --map n_act=num_params --map tokens=token_num --where 'epochs<=1' --format csv mixed.csv | cut -d, -f1
  num_params
  6.34e9
  6.34e9
  $ printf '{"n_act": 6.34e9, "tokens": 242e9, "U": null}\n{"n_act": 6.34e9, "tokens": 242e9}\n' > mixed.jsonl
  $ loopscale predict --law $DC --format csv mixed.jsonl
  n_act,tokens,U,pred_loss
  6340000000,242000000000,,2.194917536332255
  6340000000,242000000000,,2.194917536332255

The compute-optimal frontier: every N_opt of Kaplan's law and of
Chinchilla's published fit is the minimum of the loss along its budget,
found here by a golden-section search in Python (no scipy), and spends the
budget; the exponent is alpha_D / (alpha_N + alpha_D) = 0.095 / 0.171.

  $ cat > check.py <<'PY'
  > import csv, math, sys
  > law = sys.argv[1]
  > def loss(n, d):
  >     if law == "kaplan":
  >         return ((8.8e13 / n) ** (0.076 / 0.095) + 5.4e13 / d) ** 0.095
  >     return 406.4 * n ** -0.34 + 410.7 * d ** -0.28 + 1.69
  > worst, count = 0, 0
  > for row in csv.DictReader(sys.stdin):
  >     count += 1
  >     f = float(row["flops"])
  >     lo, hi, r = math.log(1e3), math.log(1e20), (math.sqrt(5) - 1) / 2
  >     for _ in range(200):
  >         a, b = hi - r * (hi - lo), lo + r * (hi - lo)
  >         if loss(math.exp(a), f / 6 / math.exp(a)) < loss(math.exp(b), f / 6 / math.exp(b)):
  >             hi = b
  >         else:
  >             lo = a
  >     n = math.exp((lo + hi) / 2)
  >     got = float(row["n_opt"])
  >     worst = max(worst, abs(got / n - 1), abs(6 * got * float(row["d_opt"]) / f - 1),
  >                 abs(float(row["loss"]) / loss(n, f / 6 / n) - 1))
  > print("%d budgets: " % count + ("agree to 1e-6" if worst < 1e-6 else "differ by %g" % worst))
  > PY
  $ loopscale frontier --law kaplan2020.json --flops 1e18:1e24:13 --format csv | python3 check.py kaplan
  13 budgets: agree to 1e-6
  $ printf '{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, "params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}' > chinchilla.json
  $ loopscale frontier --law chinchilla.json --flops 1e19,3.17e21,5.76e23 --format csv | python3 check.py dense
  3 budgets: agree to 1e-6
  $ loopscale frontier --law chinchilla.json --flops 10E:1e25:3 --format csv | python3 check.py dense
  3 budgets: agree to 1e-6
  $ loopscale frontier --law chinchilla.json --flops 10E:1e25:3 --format csv | cut -d, -f1 | sed -n '2p;$p'
  1e+19
  1e+25
  $ loopscale frontier --law kaplan2020.json --flops 1e20 --format json
  {
    "format": "loopscale-frontier/1",
    "law": "kaplan",
    "exponent_n": 0.5555555555555556,
    "exponent_d": 0.4444444444444444,
    "frontier": [
      {
        "flops": 1e+20,
        "n_opt": 1561011759.4976368,
        "d_opt": 10676836074.591978,
        "tokens_per_param": 6.839689713822519,
        "loss": 2.428469770654982,
        "outside": []
      }
    ]
  }
  $ loopscale frontier --law chinchilla.json --flops 1e20,1e22 --plot frontier.svg > /dev/null && grep -c '<svg' frontier.svg
  1


IsoFLOP minima of a looped sweep: each budget's runs are grouped by
F = 6 N_unroll D, so the tokens at the optimum are F / (6 N_unroll), here
N_unroll = 3.25 N_act (R = 4, N_loop = 0.75 N_act in the template), not
F / (6 N_opt); checked against that ratio computed from the runs in Python:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 2.5e7,5e7,1e8,2e8,4e8,8e8,1.6e9 --tokens 2.5e9,5e9,1e10,2e10,4e10,8e10,1.6e11 --R 4 > looped.csv
  $ loopscale isofit --format csv looped.csv > looped-isofit.csv
  $ python3 -c '
  > import csv
  > runs = list(csv.DictReader(open("looped.csv")))
  > ratio = {(float(r["n_act"]) + 3 * float(r["n_loop"])) / float(r["n_act"]) for r in runs}
  > assert len(ratio) == 1, ratio
  > (u,) = ratio
  > rows = [r for r in csv.DictReader(open("looped-isofit.csv")) if r["status"] == "used"]
  > worst = max(abs(float(r["d_opt"]) * 6 * u * float(r["n_opt"]) / float(r["flops"]) - 1) for r in rows)
  > print(u, len(rows), worst < 1e-12)'
  3.25 9 True

Its bootstrap intervals: D's follows N's at the same N_unroll = 3.25 N_act,
and the JSON says the draws asked for and those behind each budget:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 2.5e7,5e7,1e8,2e8,4e8,8e8,1.6e9 --tokens 2.5e9,5e9,1e10,2e10,4e10,8e10,1.6e11 --R 4 --noise 0.01 | loopscale isofit --bootstrap 100 --format json - > looped-boot.json
  $ python3 -c '
  > import json
  > r = json.load(open("looped-boot.json"))
  > with_ci = [b for b in r["budgets"] if "n_opt_lo" in b]
  > worst = max(abs(b["d_opt_lo"] * 6 * 3.25 * b["n_opt_hi"] / b["flops"] - 1) for b in with_ci)
  > print(r["draws_requested"], len(with_ci) > 0, all(b["draws"] >= 20 and b["status"] == "used" for b in with_ci), worst < 1e-12)'
  100 True True True

The runs must be of one architecture: several loop counts in one budget
would be one parabola through several curves.

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 1e8,2e8,4e8 --tokens 1e10,2e10 --R 1,4 > mixed.csv
  $ loopscale isofit mixed.csv
  loopscale isofit: mixed.csv: IsoFLOP curves are of one architecture, but line 2 has R = 1, E = 1 and line 3 R = 4, E = 1; keep one with --where (e.g. --where 'R=1' --where 'E=1')
  [65]

The parabola's sums are taken on losses scaled by the largest, so losses
near the top of double precision give the same exponent as the same losses
at their usual size:

  $ loopscale simulate --law $ROOT/data/truth/moe-bounded-sparse.json --n-act 2.5e7,5e7,1e8,2e8,4e8,8e8,1.6e9 --tokens 2.5e9,5e9,1e10,2e10,4e10,8e10,1.6e11 > plain.csv
  $ python3 -c '
  > import csv, sys
  > rows = list(csv.DictReader(open("plain.csv")))
  > w = csv.DictWriter(sys.stdout, rows[0].keys(), lineterminator="\n"); w.writeheader()
  > for r in rows: r["loss"] = repr(float(r["loss"]) * 1e307); w.writerow(r)' > huge.csv
  $ loopscale isofit plain.csv | sed -n 3,4p
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  budgets    13, 8 with an interior optimum
  N_opt      0.04554 F^0.5135 (R^2 1.0000)
  $ loopscale isofit huge.csv | sed -n 3,4p
  loopscale isofit: warning: budget F = 3.84e+20: its optimum lies at or above its largest size (N_act = 1.6e+09), so the budget is left out of the power law; larger models would place it
  budgets    13, 8 with an interior optimum
  N_opt      0.04554 F^0.5135 (R^2 1.0000)

A budget whose first vertex lies beyond its sizes stays "at the edge" under
--keep (a filter centred there would keep no run and say "too few runs"):

  $ printf 'n_act,tokens,loss\n1e8,2e10,3.3\n2e8,1e10,3.2\n4e8,5e9,3.3\n1e8,4e10,3.1\n2e8,2e10,3.0\n4e8,1e10,3.1\n1e9,1e12,2.5\n2e9,5e11,2.4\n4e9,2.5e11,2.3000001\n' > edge.csv
  $ loopscale isofit --keep 2 edge.csv | tail -1
  loopscale isofit: warning: budget F = 6e+21: its optimum lies at or above its largest size (N_act = 4e+09), so the budget is left out of the power law; larger models would place it
  loopscale isofit: warning: the power law rests on two budgets: a line through two points has no error to judge it by (no R^2, no least-squares interval)
    6e+21     3      -      -       -  optimum at the edge
