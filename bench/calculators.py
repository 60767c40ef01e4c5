#!/usr/bin/env python3
"""Inputs and independent checks for bench/calculators.sh (needs NumPy).

    calculators.py make DIR              write the benchmark inputs into DIR
    calculators.py check-route NPY K CSV compare `loopscale route --format csv`
    calculators.py check-exit ENT NLL CSV compare `loopscale exit --format csv`

The checks recompute every number with NumPy, vectorised and written from
the definitions in docs/calculators.md, not from the C code, and fail when
they disagree beyond rounding.
"""
import csv
import sys

import numpy as np

TOKENS, LOOPS, LAYERS, EXPERTS = 255_500, 16, 1, 64  # Foil's probe set, Foil-1's shape
EXIT_TOKENS = 1_000_000


def make(out):
    rng = np.random.default_rng(20260601)
    # Router logits: a preference per (loop, expert) that drifts over loops,
    # per-token noise, in float16 as a model would dump them.
    logits = np.lib.format.open_memmap(f"{out}/logits.npy", mode="w+", dtype=np.float16,
                                       shape=(TOKENS, LOOPS, LAYERS, EXPERTS))
    bias = rng.normal(0, 0.6, size=(LOOPS, LAYERS, EXPERTS)).cumsum(axis=0) / np.sqrt(np.arange(1, LOOPS + 1))[:, None, None]
    for start in range(0, TOKENS, 25_000):
        n = min(25_000, TOKENS - start)
        logits[start:start + n] = (bias + rng.normal(0, 1.5, size=(n, LOOPS, LAYERS, EXPERTS))).astype(np.float16)
    logits.flush()
    del logits
    # Entropy falls over the loops, faster for easy tokens; the NLL follows it.
    # Values are written to the CSV with 9 significant digits and the .npy
    # arrays hold exactly the doubles those digits read back as, so that the
    # two inputs must give the same sweep.
    difficulty = rng.gamma(2.0, 1.0, size=(EXIT_TOKENS, 1))
    r = np.arange(1, LOOPS + 1)
    entropy = np.lib.format.open_memmap(f"{out}/entropy.npy", mode="w+", dtype=np.float64, shape=(EXIT_TOKENS, LOOPS))
    nll = np.lib.format.open_memmap(f"{out}/nll.npy", mode="w+", dtype=np.float64, shape=(EXIT_TOKENS, LOOPS))
    with open(f"{out}/exit.csv", "w") as f:
        f.write("token,loop,entropy,nll\n")
        for start in range(0, EXIT_TOKENS, 50_000):
            n = min(50_000, EXIT_TOKENS - start)
            h = difficulty[start:start + n] * np.exp(-0.25 * r) + rng.gamma(1.0, 0.05, size=(n, LOOPS))
            x = 0.8 * h + rng.gamma(1.5, 0.3, size=(n, LOOPS))
            h_text, x_text = np.char.mod("%.9g", h.ravel()), np.char.mod("%.9g", x.ravel())
            entropy[start:start + n] = h_text.astype(np.float64).reshape(n, LOOPS)
            nll[start:start + n] = x_text.astype(np.float64).reshape(n, LOOPS)
            line = np.repeat(np.arange(start, start + n), LOOPS).astype(str)
            for column in (np.tile(r, n).astype(str), h_text, x_text):
                line = np.char.add(np.char.add(line, ","), column)
            f.write("\n".join(line.tolist()))
            f.write("\n")
    entropy.flush()
    nll.flush()


def close(name, got, want, rel=1e-9):
    if not abs(got - want) <= rel * max(1.0, abs(want)):
        sys.exit(f"MISMATCH {name}: loopscale {got!r}, numpy {want!r}")


def check_route(path, k, out):
    z = np.load(path, mmap_mode="r")
    n, L, D, E = z.shape
    j = (E + 1) // 2
    rows = {(r["layer"], r["loop"]): r for r in csv.DictReader(open(out))}
    for d in range(D):
        load = np.zeros(E)
        gap = 0.0
        distinct = disjoint = switched = 0
        for start in range(0, n, 20_000):
            x = np.asarray(z[start:start + 20_000, :, d, :], dtype=np.float64)  # tokens, loops, experts
            s = -np.sort(-x, axis=2)
            kth = s[:, :, k - 1:k]
            above = (x > kth).sum(axis=2, keepdims=True)
            equal = (x == kth).sum(axis=2, keepdims=True)
            load += np.where(x > kth, 1.0, np.where(x == kth, (k - above) / equal, 0.0)).sum(axis=(0, 1))
            gap += (s[:, :, 0] - s[:, :, j - 1]).sum()
            # top-k sets, the lower index first among equal logits
            top = np.argsort(-x, axis=2, kind="stable")[:, :, :k]
            mask = np.zeros(x.shape, dtype=bool)
            np.put_along_axis(mask, top, True, axis=2)
            distinct += mask.any(axis=1).sum()
            shared = (mask[:, 1:] & mask[:, :-1]).sum(axis=2)
            disjoint += (shared == 0).sum()
            switched += (shared < k).sum()
        q = load / load.sum()
        row = rows[(str(d + 1), "all")]
        close("B2", float(row["B2"]), (1 / E) / (q ** 2).sum())
        close("MMR", float(row["MMR"]), np.exp(gap / (n * L)))
        close("distinct", float(row["distinct"]), distinct / n)
        if L > 1:
            close("disjoint", float(row["disjoint"]), disjoint / (n * (L - 1)))
            close("switched", float(row["switched"]), switched / (n * (L - 1)))
    print(f"route agrees with NumPy on {D} layer(s)")


def check_exit(ent_path, nll_path, out):
    h = np.load(ent_path).astype(np.float64)
    nll = np.load(nll_path).astype(np.float64)
    n, L = h.shape
    rows = list(csv.DictReader(open(out)))
    # every 97th threshold of the sweep, and the last
    for row in rows[::97] + rows[-1:]:
        t = float(row["threshold"])
        below = h < t
        first = np.where(below.any(axis=1), below.argmax(axis=1), L - 1)
        loops = first + 1
        close("saved", float(row["saved"]), (L - loops.mean()) / L)
        close("mean_nll", float(row["mean_nll"]), nll[np.arange(n), first].mean())
    print(f"exit agrees with NumPy at {len(rows[::97]) + 1} of {len(rows)} thresholds")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "make" and len(sys.argv) == 3:
        make(sys.argv[2])
    elif command == "check-route" and len(sys.argv) == 5:
        check_route(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif command == "check-exit" and len(sys.argv) == 5:
        check_exit(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
