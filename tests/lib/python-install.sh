#!/bin/sh
# 'cmake --install' installs the Python package where Debian's python3 looks,
# and the installed package finds the installed libloopscale.so.0 by itself
# (no LOOPSCALE_LIBRARY), even when the prefix is moved, and runs a command.
# And 'pip install --no-build-isolation ./python' works offline with Debian's
# setuptools (on a copy: pip writes build files beside the sources).
#     tests/lib/python-install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
init=$(find "$tmp/prefix" -path '*/loopscale/__init__.py')
[ -n "$init" ] || { echo "FAIL: the Python package was not installed"; exit 1; }
site=$(dirname "$(dirname "$init")")
case "$site" in
*/lib/python3*/dist-packages) ;;
*) echo "FAIL: installed in $site, not a dist-packages directory"; exit 1 ;;
esac
mv "$tmp/prefix" "$tmp/moved"
site=$(echo "$site" | sed "s|$tmp/prefix|$tmp/moved|")
unset LOOPSCALE_LIBRARY
out=$(cd "$tmp" && PYTHONPATH="$site" /usr/bin/python3 -c '
import loopscale, os, warnings
warnings.simplefilter("ignore")
law = loopscale.default_law()
answer = loopscale.solve(flops=1e21, E=[1, 2]).json["chosen"]
print(loopscale.__version__, law.kind, answer["E"] in (1, 2), os.path.realpath(loopscale._lib.lib._name))
')
echo "installed package: $out"
case "$out" in
*"moe:bounded-sparse True $tmp/moved/"*"/libloopscale.so.0."*) ;;
*) echo "FAIL: the installed package did not load the installed library"; exit 1 ;;
esac

cp -r "$src/python" "$tmp/python-src"
rm -rf "$tmp/python-src/build" "$tmp/python-src"/*.egg-info
/usr/bin/python3 -m pip install --quiet --no-build-isolation --no-index --no-deps --target "$tmp/pip" \
    "$tmp/python-src" 2>&1 | grep -v "Running pip as the 'root' user" || true
out=$(cd "$tmp" && PYTHONPATH="$tmp/pip" LOOPSCALE_LIBRARY=$(find "$tmp/moved" -name 'libloopscale.so.0') \
      /usr/bin/python3 -c 'import loopscale; print(loopscale.__file__, loopscale.default_law().kind)')
echo "pip-installed package: $out"
case "$out" in
"$tmp/pip/loopscale/__init__.py moe:bounded-sparse") ;;
*) echo "FAIL: pip install ./python did not give a working package"; exit 1 ;;
esac
