#!/bin/sh
# Side-by-side speed of the Chinchilla fit (bench/README.md): scipy's
# L-BFGS-B with an analytic gradient over Chinchilla's 4,500-point grid, as
# Epoch AI's notebook runs it, against loopscale's fit over the same grid,
# on the same 240 points, in one run; then loopscale's 4,000-draw bootstrap.
# Wall and CPU (user + system) seconds: on a shared machine compare the CPU.
# For an older build beside these, and the MoE cases, see bench/side_by_side.py.
#
#     bench/fit.sh PATH/TO/svg_extracted_data.csv [BUILD_DIR]
#
# A report, never a pass/fail test.
set -eu
csv=${1:?usage: bench/fit.sh svg_extracted_data.csv [BUILD_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${2:-$here/../build}" && pwd)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
scipy=$(/usr/bin/python3 "$here/chinchilla_scipy.py" "$csv")
echo "$scipy"
# Each JSON line names its thread count and the solver that ran (method).
one=$("$build/bench_fit_chinchilla" "$csv" 1)
echo "$one"
all=$("$build/bench_fit_chinchilla" "$csv")
echo "$all"
/usr/bin/python3 - "$scipy" "$one" "$all" <<'PY'
import json, sys
s, one, all_ = (json.loads(a) for a in sys.argv[1:4])
print(f"grid fit: scipy {s['seconds']:.2f} s wall, {s.get('cpu_seconds', float('nan')):.2f} s CPU "
      f"({s['starts_at_best']} of 4500 starts at its best, objective {s['objective']:.8g}); "
      f"loopscale {one['seconds']:.3f} s wall, {one.get('cpu_seconds', float('nan')):.3f} s CPU on 1 thread, "
      f"{all_['seconds']:.3f} s wall, {all_.get('cpu_seconds', float('nan')):.3f} s CPU on all cores "
      f"({all_['starts_at_best']} at its best, objective {all_['objective']:.16g})")
print(f"speed-up in wall time: {s['seconds'] / one['seconds']:.1f}x on 1 thread, "
      f"{s['seconds'] / all_['seconds']:.1f}x on all cores")
if 'cpu_seconds' in s and 'cpu_seconds' in one:
    print(f"speed-up in CPU time (what a loaded machine leaves comparable): {s['cpu_seconds'] / one['cpu_seconds']:.1f}x "
          f"on 1 thread")
    print(f"derived, not measured: scipy's CPU over half loopscale's {all_['threads']}-thread CPU, what "
          f"{all_['threads']} free cores would give: {s['cpu_seconds'] / (all_['cpu_seconds'] / all_['threads']):.1f}x")
print(f"docs/performance.md's target, >= 100x scipy's wall time on two cores: "
      f"{s['seconds'] / all_['seconds']:.1f}x on {all_['threads']} threads in this run, "
      f"{'met' if s['seconds'] / all_['seconds'] >= 100 else 'missed'} (load {open('/proc/loadavg').read().split()[0]} at the end)")
print(f"bootstrap: 4000 draws in {one['bootstrap_seconds']:.2f} s wall / {one.get('bootstrap_cpu_seconds', float('nan')):.2f} s CPU "
      f"on 1 thread, {all_['bootstrap_seconds']:.2f} s wall / {all_.get('bootstrap_cpu_seconds', float('nan')):.2f} s CPU on all cores")
PY
