#!/bin/sh
# 'cmake --install' puts the man page and the bash completion where man and
# bash-completion look for them.
#     tests/docs/install.sh BUILD_DIR
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$1" --prefix "$tmp" > /dev/null
for f in bin/loopscale share/man/man1/loopscale.1 share/bash-completion/completions/loopscale \
    share/doc/loopscale/tutorial.md share/loopscale/laws/default.json; do
    if [ ! -f "$tmp/$f" ]; then
        echo "FAIL: cmake --install did not install $f"
        exit 1
    fi
done
MANPATH="$tmp/share/man" man -w loopscale | grep -q "$tmp/share/man/man1/loopscale.1"
echo "install: 1 passed, 0 failed"
