#!/usr/bin/python3
"""Side-by-side timing of two loopscale builds (bench/README.md): each case is
run in interleaved rounds (old, new, old, new, ...), so that a change in the
machine's load hits both alike, and the medians of wall and CPU (user + system,
all threads) seconds are reported with the load before and after, then the
speed targets of docs/performance.md, met or not.  A report, never a
pass/fail test.

    bench/side_by_side.py OLD NEW [ROUNDS] [--chinchilla CSV] [--scipy] [--no-moe]

OLD and NEW are build directories (with loopscale and bench_fit_chinchilla) or
commits of this repository; a commit is built once, from `git archive`, in
$TMPDIR/loopscale-bench-COMMIT (with `cmake --build -j2`: the load printed
before it is the machine's own, the one after it includes that build's
tail).  With --chinchilla, the Chinchilla grid fit and
its 4,000-draw bootstrap (bench_fit_chinchilla, 1 and 2 threads) are timed
too; with --scipy also scipy's L-BFGS-B over the same grid
(bench/chinchilla_scipy.py, one run per round; needs Debian's python3-scipy).
When the NEW build has bench_fit_gsl_driver (the same grid through GSL's
nonlinear least-squares driver with the loop's hybrid step as its subproblem),
it runs beside the loop in each round and its medians print as "gsl"; the old
build is not asked for it.
--no-moe leaves out the cases on the shipped looped-MoE sweep.

On a shared machine the CPU seconds are the comparable figure: a process that
gets a fraction of a core takes longer in wall time but not in CPU time.  A
build whose bench_fit_chinchilla prints no CPU seconds (older ones) gets only
its process total (grid and bootstrap together) measured from outside.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MOE = os.path.join(ROOT, "data", "sweeps", "looped-moe.csv.gz")


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def build_commit(commit):
    """A build directory for `commit`, built once in $TMPDIR."""
    sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", commit], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    top = os.path.join(tempfile.gettempdir(), f"loopscale-bench-{sha}")
    build = os.path.join(top, "build")
    targets = ["loopscale_cli", "bench_fit_chinchilla"]
    if os.path.exists(os.path.join(top, "bench", "fit_gsl_driver.c")):
        targets.append("bench_fit_gsl_driver")
    programs = ["loopscale"] + targets[1:]
    if all(os.path.exists(os.path.join(build, p)) for p in programs):
        return build
    os.makedirs(top, exist_ok=True)
    print(f"building {commit} ({sha}) in {top} ...", flush=True)
    archive = subprocess.Popen(["git", "-C", ROOT, "archive", sha], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", top], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f"git archive {sha} failed")
    quiet = {"stdout": subprocess.DEVNULL, "check": True}
    subprocess.run(["cmake", "-S", top, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], **quiet)
    subprocess.run(["cmake", "--build", build, "-j2", "--target"] + targets, **quiet)
    return build


def build_dir(arg):
    return arg if os.path.isdir(arg) else build_commit(arg)


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
    moe = "--no-moe" not in args
    if not moe:
        args.remove("--no-moe")
    if "--chinchilla" in args:
        i = args.index("--chinchilla")
        chinchilla = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    print(f"load at start: {load()}", flush=True)
    old, new = build_dir(args[0]), build_dir(args[1])
    rounds = int(args[2]) if len(args) > 2 else 5
    gsl_driver = os.path.join(new, "bench_fit_gsl_driver")
    if not os.path.exists(gsl_driver):
        gsl_driver = None
    cases = [
        ("moe:bounded-sparse fit, 2 threads", ["fit", "--threads", "2", MOE]),
        ("moe:bounded-sparse fit + 1,000-draw bootstrap, 2 threads",
         ["fit", "--threads", "2", "--bootstrap", "1000", MOE]),
        ("holdout, 4 laws x 4 axes (the default), 2 threads", ["holdout", "--threads", "2", MOE]),
    ] if moe else []
    results = {}
    print(f"load before: {load()}; {rounds} interleaved rounds; medians (wall / CPU seconds)", flush=True)
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
                        (j["seconds"], j.get("cpu_seconds"), j["starts_at_best"], j["objective"]))
                    results.setdefault((f"Chinchilla 4,000-draw bootstrap, {threads} thread(s)", label), []).append(
                        (j["bootstrap_seconds"], j.get("bootstrap_cpu_seconds")))
                    results.setdefault((f"Chinchilla grid + bootstrap (process), {threads} thread(s)", label),
                                       []).append((wall, cpu))
                if gsl_driver:
                    _, _, out = run([gsl_driver, chinchilla, threads])
                    j = json.loads(out)
                    results.setdefault((f"Chinchilla grid, {threads} thread(s)", "gsl"), []).append(
                        (j["seconds"], j["cpu_seconds"], j["starts_at_best"], j["objective"], j["steps_per_start"]))
            if scipy:
                wall, cpu, out = run(["/usr/bin/python3", os.path.join(HERE, "chinchilla_scipy.py"), chinchilla])
                j = json.loads(out)
                results.setdefault(("Chinchilla grid, scipy L-BFGS-B", "scipy"), []).append(
                    (j["seconds"], j.get("cpu_seconds", cpu), j["starts_at_best"], j["objective"]))
        print(f"  round done, load {load()}", flush=True)
    print(f"load after: {load()}")
    wall_of, cpu_of = {}, {}
    for (name, label), rows in results.items():
        wall = statistics.median(r[0] for r in rows)
        cpus = [r[1] for r in rows if r[1] is not None]
        cpu = statistics.median(cpus) if cpus else None
        wall_of[(name, label)], cpu_of[(name, label)] = wall, cpu
        extra = f"  (starts at best {rows[0][2]}, objective {rows[0][3]:.16g})" if len(rows[0]) > 2 else ""
        cpu_text = f"{cpu:8.3f}" if cpu is not None else "       -"
        print(f"{name:62s} {label:5s} wall {wall:8.3f}  CPU {cpu_text}{extra}")
    print("ratios old/new (wall; CPU where both have it):")
    for name in sorted({n for n, _ in wall_of}):
        if (name, "old") in wall_of and (name, "new") in wall_of:
            line = f"  {name:60s} {wall_of[(name, 'old')] / wall_of[(name, 'new')]:6.1f}x"
            if cpu_of[(name, "old")] and cpu_of[(name, "new")]:
                line += f"  CPU {cpu_of[(name, 'old')] / cpu_of[(name, 'new')]:6.1f}x"
            print(line)
    for threads in ("1", "2"):
        name = f"Chinchilla grid, {threads} thread(s)"
        if (name, "gsl") in wall_of and (name, "new") in wall_of:
            steps = statistics.median(r[4] for r in results[(name, "gsl")])
            print(f"  GSL's driver / the loop (new build), {threads} thread(s): "
                  f"wall {wall_of[(name, 'gsl')] / wall_of[(name, 'new')]:.2f}x, "
                  f"CPU {cpu_of[(name, 'gsl')] / cpu_of[(name, 'new')]:.2f}x ({steps:.2f} steps per start)")
    report_targets(wall_of, cpu_of, results)


def report_targets(wall_of, cpu_of, results):
    """The targets of docs/performance.md, each with the figure measured."""
    def verdict(ok):
        return "met" if ok else "MISSED"

    print("targets (wall seconds on 2 threads unless said; CPU beside):")
    sp = ("Chinchilla grid, scipy L-BFGS-B", "scipy")
    grid2, grid1 = ("Chinchilla grid, 2 thread(s)", "new"), ("Chinchilla grid, 1 thread(s)", "new")
    if sp in wall_of and grid2 in wall_of:
        r = wall_of[sp] / wall_of[grid2]
        cpu_r = cpu_of[sp] / cpu_of[grid1] if cpu_of.get(grid1) else None
        cpu_text = f"; CPU scipy / 1 thread {cpu_r:.1f}x" if cpu_r else ""
        print(f"  grid >= 100x scipy on two cores: {r:.1f}x {verdict(r >= 100)}{cpu_text}")
    old2 = ("Chinchilla grid, 2 thread(s)", "old")
    if old2 in wall_of and grid2 in wall_of:
        r = wall_of[old2] / wall_of[grid2]
        print(f"  grid >= 15x the old build, same run: {r:.1f}x {verdict(r >= 15)}")
    if grid2 in results:
        at_best = min(row[2] for row in results[grid2])
        print(f"  >= 4,400 of 4,500 starts at the optimum: {at_best} {verdict(at_best >= 4400)}")
    for name, key, limit in (
            ("4,000-draw bootstrap < 0.3 s", ("Chinchilla 4,000-draw bootstrap, 2 thread(s)", "new"), 0.3),
            ("MoE fit < 0.05 s", ("moe:bounded-sparse fit, 2 threads", "new"), 0.05),
            ("MoE fit + 1,000 draws < 1 s", ("moe:bounded-sparse fit + 1,000-draw bootstrap, 2 threads", "new"), 1.0),
            ("holdout 4 laws x 4 axes < 0.3 s", ("holdout, 4 laws x 4 axes (the default), 2 threads", "new"), 0.3)):
        if key in wall_of:
            cpu = cpu_of.get(key)
            cpu_text = (f", CPU {cpu:.3f} s (CPU / 2 = {cpu / 2:.3f} s: "
                        f"{'would be met' if cpu / 2 < limit else 'missed even'} with both cores free)") if cpu else ""
            print(f"  {name}: wall {wall_of[key]:.3f} s {verdict(wall_of[key] < limit)}{cpu_text}")


if __name__ == "__main__":
    main()
