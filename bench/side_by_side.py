#!/usr/bin/python3
"""Side-by-side timing of two loopscale builds (bench/README.md): each case is
run in interleaved rounds (old, new, old, new, ...), so that a change in the
machine's load hits both alike, and the medians of wall and CPU (user + system,
all threads) seconds are reported with the load before and after.  A report,
never a pass/fail test.

    bench/side_by_side.py OLD_BUILD NEW_BUILD [ROUNDS] [--chinchilla CSV] [--scipy]

OLD_BUILD and NEW_BUILD are build directories (with loopscale and
bench_fit_chinchilla).  With --chinchilla, the Chinchilla grid fit and its
4,000-draw bootstrap (bench_fit_chinchilla, 1 and 2 threads) are timed too; with
--scipy also scipy's L-BFGS-B over the same grid (bench/chinchilla_scipy.py,
one run per round; needs Debian's python3-scipy).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MOE = os.path.join(ROOT, "data", "sweeps", "looped-moe.csv.gz")


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run(argv):
    """Wall and CPU seconds of one run, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def main():
    args = sys.argv[1:]
    chinchilla = None
    scipy = "--scipy" in args
    if scipy:
        args.remove("--scipy")
    if "--chinchilla" in args:
        i = args.index("--chinchilla")
        chinchilla = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    old, new = args[0], args[1]
    rounds = int(args[2]) if len(args) > 2 else 5
    cases = [
        ("moe:bounded-sparse fit, 2 threads", ["fit", "--threads", "2", MOE]),
        ("moe:bounded-sparse fit + 1,000-draw bootstrap, 2 threads",
         ["fit", "--threads", "2", "--bootstrap", "1000", MOE]),
        ("holdout, 4 laws x 4 axes (the default), 2 threads", ["holdout", "--threads", "2", MOE]),
    ]
    results = {}
    print(f"load before: {load()}; {rounds} interleaved rounds; medians (wall / CPU seconds)")
    for _ in range(rounds):
        for name, argv in cases:
            for label, build in (("old", old), ("new", new)):
                wall, cpu, _ = run([os.path.join(build, "loopscale")] + argv)
                results.setdefault((name, label), []).append((wall, cpu))
        if chinchilla:
            for threads in ("1", "2"):
                for label, build in (("old", old), ("new", new)):
                    wall, cpu, out = run([os.path.join(build, "bench_fit_chinchilla"), chinchilla, threads])
                    j = json.loads(out)
                    results.setdefault((f"Chinchilla grid, {threads} thread(s)", label), []).append(
                        (j["seconds"], None, j["starts_at_best"], j["objective"]))
                    results.setdefault((f"Chinchilla 4,000-draw bootstrap, {threads} thread(s)", label), []).append(
                        (j["bootstrap_seconds"], None))
            if scipy:
                wall, cpu, out = run(["/usr/bin/python3", os.path.join(HERE, "chinchilla_scipy.py"), chinchilla])
                j = json.loads(out)
                results.setdefault(("Chinchilla grid, scipy L-BFGS-B", "scipy"), []).append(
                    (j["seconds"], None, j["starts_at_best"], j["objective"]))
    print(f"load after: {load()}")
    medians = {}
    for (name, label), rows in results.items():
        wall = statistics.median(r[0] for r in rows)
        cpus = [r[1] for r in rows if r[1] is not None]
        cpu = f" / {statistics.median(cpus):.3f}" if cpus else ""
        extra = f"  (starts at best {rows[0][2]}, objective {rows[0][3]:.14g})" if len(rows[0]) > 2 else ""
        medians[(name, label)] = wall
        print(f"{name:58s} {label:5s} {wall:8.3f}{cpu}{extra}")
    for name in sorted({n for n, _ in medians}):
        if (name, "old") in medians and (name, "new") in medians:
            print(f"{name:58s} old/new {medians[(name, 'old')] / medians[(name, 'new')]:.1f}x")
    sp = medians.get(("Chinchilla grid, scipy L-BFGS-B", "scipy"))
    for threads in ("1", "2"):
        key = (f"Chinchilla grid, {threads} thread(s)", "new")
        if sp and key in medians:
            print(f"Chinchilla grid, {threads} thread(s): scipy/new {sp / medians[key]:.1f}x")


if __name__ == "__main__":
    main()
