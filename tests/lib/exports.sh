#!/bin/sh
# The shared library exports only the API: every defined dynamic symbol is
# prefixed ls_ or loopscale_, the internal modules (numtext, csv, npy, ...)
# stay hidden, and the SONAME carries the major version.
#     tests/lib/exports.sh LIBRARY.so
set -eu
lib=$1
names=$(nm -D --defined-only "$lib" | awk '{print $3}')
bad=$(printf '%s\n' "$names" | grep -Ev '^(ls_|loopscale_)' || true)
fail=0
if [ -n "$bad" ]; then
    echo "FAIL: exported without the ls_/loopscale_ prefix:"; printf '%s\n' "$bad"; fail=1
fi
count=$(printf '%s\n' "$names" | wc -l)
for f in ls_version ls_fit_run ls_sweep_read ls_law_loss ls_lawfile_read ls_holdout_run ls_solve_run; do
    printf '%s\n' "$names" | grep -qx "$f" || { echo "FAIL: $f is not exported"; fail=1; }
done
for f in ls_numtext_format_double ls_csv_open ls_npy_half_to_float ls_sha256_update ls_parallel_for ls_grow; do
    if printf '%s\n' "$names" | grep -qx "$f"; then echo "FAIL: internal $f is exported"; fail=1; fi
done
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libloopscale.so.0" ] || { echo "FAIL: SONAME is '$soname'"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "exports: $count symbols, all prefixed; SONAME $soname"
