#!/usr/bin/python3
"""fit --by against scipy on Porian et al.'s 15 IsoFLOP configurations.

    tests/cli/porian_scipy.py LOOPSCALE porian_isoflop_points.csv [--markdown]

Runs `loopscale fit --law dense --by dataset --by hparams --by warmup --by decay
--by param_count --format json` once, then fits each configuration again with
scipy: the same objective (Chinchilla's approach 3 as Hoffmann et al. 2022 and
Epoch's replication state it: the sum over points of Huber_1e-3(ln Lhat - ln L),
ln Lhat = logsumexp(a - alpha ln N, b - beta ln D, e)) minimised by L-BFGS-B
with an analytic gradient from a grid of starts.  Prints one line per
configuration (or a markdown table with --markdown) and exits 1 when the two
disagree: loopscale's objective must not exceed scipy's by more than 1e-6
relative, and where both reach the same optimum (objectives within 1e-6) the
parameters must agree to 1e-3 relative (c to 1e-3 absolute, since some
configurations put it at 0).
"""
import csv
import itertools
import json
import subprocess
import sys
from collections import defaultdict

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp

KEYS = ("dataset", "hparams", "warmup", "decay", "param_count")
DELTA = 1e-3


def scipy_fit(log_n, log_d, log_l):
    def objective(x):
        a, b, e, alpha, beta = x
        t = np.stack([a - alpha * log_n, b - beta * log_d, np.full_like(log_n, e)])
        lse = logsumexp(t, axis=0)
        r = lse - log_l
        absr = np.abs(r)
        quad = absr <= DELTA
        value = np.sum(np.where(quad, 0.5 * r * r, DELTA * (absr - 0.5 * DELTA)))
        psi = np.where(quad, r, DELTA * np.sign(r))
        w = np.exp(t - lse)
        grad = np.array([np.sum(psi * w[0]), np.sum(psi * w[1]), np.sum(psi * w[2]),
                         np.sum(psi * w[0] * -log_n), np.sum(psi * w[1] * -log_d)])
        return value, grad

    # 32 corners of Chinchilla's grid box (a, b 0:5:25, alpha, beta 0:0.5:2),
    # with e down to -5 so that a configuration whose c tends to 0 is reached.
    grid = itertools.product((0, 20), (0, 20), (-5, 0.5), (0.3, 1), (0.3, 1))
    best = None
    for a, b, e, alpha, beta in grid:
        r = minimize(objective, (a, b, e, alpha, beta), jac=True, method="L-BFGS-B",
                     options={"maxiter": 2000, "ftol": 1e-15, "gtol": 1e-12})
        if best is None or r.fun < best.fun:
            best = r
    a, b, e, alpha, beta = best.x
    return {"objective": float(best.fun), "A": float(np.exp(a)), "alpha": float(alpha), "B": float(np.exp(b)),
            "beta": float(beta), "c": float(np.exp(e))}


def main():
    loopscale, path = sys.argv[1], sys.argv[2]
    markdown = "--markdown" in sys.argv[3:]
    command = [loopscale, "fit", "--law", "dense", "--map", "tokens=t", "--format", "json"]
    for k in KEYS:
        command += ["--by", k]
    laws = json.loads(subprocess.run(command + [path], check=True, capture_output=True, text=True).stdout)["laws"]
    points = defaultdict(list)
    for row in csv.DictReader(open(path)):
        points[tuple(row[k] for k in KEYS)].append((float(row["n"]), float(row["t"]), float(row["loss"])))
    if len(laws) != len(points):
        print(f"loopscale fitted {len(laws)} groups, the file has {len(points)}")
        return 1
    failures = 0
    if markdown:
        print("| configuration | n | | objective | A | alpha | B | beta | c |")
        print("|---|--:|---|--:|--:|--:|--:|--:|--:|")
    for law in laws:
        # The law file names its group by the filters that select it.
        wheres = dict(w[len("--where "):].split("==", 1) for w in law["fit"]["filters"] if w.startswith("--where "))
        key = tuple(wheres[k] for k in KEYS)
        n, d, l = (np.array(v) for v in zip(*points.pop(key)))
        ours = dict(law["params"], objective=law["fit"]["objective"])
        ref = scipy_fit(np.log(n), np.log(d), np.log(l))
        ok = ours["objective"] <= ref["objective"] * (1 + 1e-6)
        same = abs(ours["objective"] - ref["objective"]) <= 1e-6 * ref["objective"]
        if same:
            for p in ("A", "alpha", "B", "beta"):
                ok = ok and abs(ours[p] - ref[p]) <= 1e-3 * abs(ref[p])
            ok = ok and abs(ours["c"] - ref["c"]) <= 1e-3
        failures += not ok
        name = "/".join(key)
        if markdown:
            for who, v in (("loopscale", ours), ("scipy", ref)):
                print(f"| {name if who == 'loopscale' else ''} | {len(l) if who == 'loopscale' else ''} | {who} | "
                      f"{v['objective']:.6g} | {v['A']:.5g} | {v['alpha']:.5g} | {v['B']:.5g} | {v['beta']:.5g} | "
                      f"{v['c']:.4g} |")
        else:
            print(f"{'ok ' if ok else 'BAD'} {name:40s} n={len(l):3d} objective {ours['objective']:.9g} "
                  f"(scipy {ref['objective']:.9g}) alpha {ours['alpha']:.5g} ({ref['alpha']:.5g}) "
                  f"beta {ours['beta']:.5g} ({ref['beta']:.5g}) c {ours['c']:.4g} ({ref['c']:.4g})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
