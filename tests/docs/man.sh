#!/bin/sh
# The man page agrees with the program: every command of the dispatcher has
# a section, every long option that 'loopscale help COMMAND' prints is in it,
# every exit status is listed, and man(1) renders it without a warning.
#     tests/docs/man.sh LOOPSCALE_BINARY MAN_PAGE
set -u
bin=$1
page=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0
check() { # check DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; failed=$((failed + 1)); fi
}

# The page is made from the option table (scripts/make-man): a stale page
# says what the program no longer does.
"$(dirname "$0")/../../scripts/make-man" "$bin" "$tmp/made.1"
check "$page is what scripts/make-man makes from the option table (run it)" cmp -s "$tmp/made.1" "$page"

# Rendered as a reader sees it, in plain ASCII, with groff's warnings on.
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" > "$tmp/page.txt" 2> "$tmp/warnings.txt"
check "man renders $page" test -s "$tmp/page.txt"
check "man warns about $page: $(cat "$tmp/warnings.txt")" test ! -s "$tmp/warnings.txt"
groff -man -Tutf8 -ww -z "$page" 2> "$tmp/groff.txt"
check "groff warns about $page: $(cat "$tmp/groff.txt")" test ! -s "$tmp/groff.txt"

commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
check "the dispatcher lists commands" test -n "$commands"
for cmd in $commands; do
    check "'loopscale help $cmd' exits 0" sh -c "'$bin' help '$cmd' > '$tmp/help.txt'"
    check "$page has a section for $cmd" grep -q "^   loopscale $cmd\$" "$tmp/page.txt"
    for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/help.txt" | sort -u); do
        # The option must appear in the command's own section.
        check "$page documents $cmd $opt" sh -c "awk '/^   loopscale $cmd\$/ { on = 1; next } /^   [a-z]/ || /^[A-Z]/ { on = 0 } on' '$tmp/page.txt' | grep -q -- '$opt\\b'"
    done
done
for status in 0 3 64 65 66 70 73 74; do
    check "$page lists exit status $status" sh -c "awk '/^EXIT STATUS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' '$tmp/page.txt' | grep -qE '^ +$status( |\$)'"
done
echo "man: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
