#!/usr/bin/python3
"""Time the figures (docs/performance.md, "The other commands").

The README's solve example with and without --plot (its bands re-solve
every (E, R) under 50 of the law's draws), --plot-rho, isoflop --plot (200
draws), frontier --plot and fit --plot, each run N times (default 15):
prints the fastest wall time and the fastest CPU time (user + system, of
every thread) of each, in milliseconds; on a shared machine compare the
CPU.  With a second loopscale binary (an older build) both are timed,
alternately, on the same commands.

    bench/plots.py [BUILD_DIR] [OTHER_LOOPSCALE] [N]

A report, never a pass/fail test.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
binaries = [os.path.join(build, "loopscale")] + ([sys.argv[2]] if len(sys.argv) > 2 and sys.argv[2] else [])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 15
sweep = os.path.join(root, "data", "sweeps", "looped-moe.csv.gz")
solve = "solve --flops 1e22 --mem 3GB --bits 4 --E 1,2,4,8,16".split()


def run_once(argv, tmp):
    for name in os.listdir(tmp):  # fit has no --force: each run writes its figure afresh
        os.remove(os.path.join(tmp, name))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


with tempfile.TemporaryDirectory() as tmp:
    cases = [
        ("solve (README), no plot", solve),
        ("solve (README) --plot", solve + ["--plot", f"{tmp}/s.svg", "--force"]),
        ("solve (README) --plot-rho", solve + ["--plot-rho", f"{tmp}/r.svg", "--force"]),
        ("isoflop --flops 1e20,1e21,1e22 --E 1,8 --plot", "isoflop --flops 1e20,1e21,1e22 --E 1,8".split()
         + ["--plot", f"{tmp}/i.svg", "--force"]),
        ("frontier --flops 1e20:1e23:7 --mem 3GB --plot", "frontier --flops 1e20:1e23:7 --mem 3GB".split()
         + ["--plot", f"{tmp}/fr.svg", "--force"]),
        ("fit --plot (980 runs)", ["fit", "--plot", f"{tmp}/f.svg", sweep]),
    ]
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"machine: {os.cpu_count()} cores; load {load}; {n} runs each; fastest wall / fastest CPU, ms")
    print("| command | " + " | ".join(os.path.relpath(b, root) if b.startswith(root) else b for b in binaries) + " |")
    print("|---|" + "---:|" * len(binaries))
    for label, args in cases:
        best = [[float("inf"), float("inf")] for _ in binaries]
        for _ in range(n):
            for k, b in enumerate(binaries):  # alternately, so that load hits both alike
                wall, cpu = run_once([b] + args, tmp)
                best[k][0] = min(best[k][0], wall)
                best[k][1] = min(best[k][1], cpu)
        print(f"| `{label}` | " + " | ".join(f"{w * 1e3:.0f} / {c * 1e3:.0f}" for w, c in best) + " |")
