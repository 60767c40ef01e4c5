#!/bin/sh
# Side-by-side speed of the Chinchilla fit (bench/README.md): scipy's
# L-BFGS-B with an analytic gradient over Chinchilla's 4,500-point grid, as
# Epoch AI's notebook runs it, against loopscale's fit over the same grid,
# on the same 240 points, in one run; then loopscale's 4,000-draw bootstrap.
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
one=$("$build/bench_fit_chinchilla" "$csv" 1)
echo "$one"
all=$("$build/bench_fit_chinchilla" "$csv")
echo "$all"
/usr/bin/python3 - "$scipy" "$one" "$all" <<'PY'
import json, sys
s, one, all_ = (json.loads(a) for a in sys.argv[1:4])
print(f"grid fit: scipy {s['seconds']:.2f} s ({s['starts_at_best']} of 4500 starts at its best, "
      f"objective {s['objective']:.8g}); loopscale {one['seconds']:.3f} s on 1 thread, "
      f"{all_['seconds']:.3f} s on all cores ({all_['starts_at_best']} at its best, objective {all_['objective']:.8g})")
print(f"speed-up: {s['seconds'] / one['seconds']:.1f}x on 1 thread, {s['seconds'] / all_['seconds']:.1f}x on all cores")
print(f"bootstrap: 4000 draws in {one['bootstrap_seconds']:.2f} s on 1 thread, {all_['bootstrap_seconds']:.2f} s on all cores")
PY
