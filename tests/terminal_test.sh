#!/bin/sh
# The interactive prompt (cli/interp/terminal.c) on a pseudo-terminal made by
# script(1): commands answered after the "posenc> " prompt, the history file
# $HOME/.posenc_history (libedit's format: a "_HiStOrY_V2_" first line, then
# one line per command, spaces as \040; empty lines not kept; at most 1000
# lines; a file over 1 MiB cut to its last whole lines first), and no history
# file without a home. Skipped without script(1) or without line editing.
#   sh tests/terminal_test.sh build/posenc
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
if ! command -v script >/dev/null 2>&1 || ! "$prog" --features | grep -q '^line-editing$' ||
    ! printf '' | script -qec true /dev/null >/dev/null 2>&1; then
    echo "terminal: skipped (no script(1), or built without line editing: EDIT=1, libedit-dev)"
    echo "terminal: 0 passed, 0 failed, 1 skipped"
    exit 0
fi

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL terminal/$1" >&2; }

# term INPUT [ENV...]: runs the prompt on a terminal with INPUT typed;
# its screen (carriage returns taken out) in $tmp/screen, its status in $rc.
term() {
    input=$1
    shift
    {
        printf '%b' "$input" | env "$@" timeout 20 script -qec "$prog" /dev/null 2>&1
        echo "$?" >"$tmp/rc"
    } | tr -d '\r' >"$tmp/screen"
    rc=$(cat "$tmp/rc")
}

# 1. a command answered; the history holds it, the empty line not
mkdir "$tmp/home"
term 'PE 1 2\n\nROPE 1 1 0\n' HOME="$tmp/home"
if grep -q '^posenc> PE 1 2$' "$tmp/screen" && grep -q '^0.8415 0.5403$' "$tmp/screen" &&
    grep -q '^0.5403 0.8415$' "$tmp/screen"; then ok; else bad answers; fi
[ "$rc" = 0 ] && ok || bad "status $rc, want 0"
printf '_HiStOrY_V2_\nPE\\0401\\0402\nROPE\\0401\\0401\\0400\n' >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/home/.posenc_history"; then ok; else bad history; fi

# 2. a failed command: status 1, its message on the screen
term 'FOO\n' HOME="$tmp/home"
if [ "$rc" = 1 ] && grep -q "^posenc: line 1: unknown command 'FOO'" "$tmp/screen"; then ok
else bad "unknown command (status $rc)"; fi

# 3. a history file over 1 MiB: cut; then at most 1000 lines kept, the
#    newest last, libedit's first line first
{
    echo '_HiStOrY_V2_'
    i=0
    while [ $i -lt 40000 ]; do
        printf '%s\n' "PE\\040$i\\0404\\040xxxxxxxxxxxxxxxxxxxx"
        i=$((i + 1))
    done
} >"$tmp/home/.posenc_history"
[ "$(wc -c <"$tmp/home/.posenc_history")" -gt 1048576 ] && ok || bad "big history not big"
term 'ADD 0 1 1\n' HOME="$tmp/home"
h=$tmp/home/.posenc_history
if grep -q '^1.0000 2.0000$' "$tmp/screen" && [ "$(head -n 1 "$h")" = _HiStOrY_V2_ ] &&
    [ "$(tail -n 1 "$h")" = 'ADD\0400\0401\0401' ] && [ "$(wc -l <"$h")" -le 1001 ] &&
    grep -q '^PE\\04039999\\0404' "$h"; then ok; else bad "history cut"; fi

# 4. a history file without libedit's first line, over 1 MiB: still read and cut
{
    i=0
    while [ $i -lt 40000 ]; do
        printf '%s\n' "PE\\040$i\\0404\\040yyyyyyyyyyyyyyyyyyyy"
        i=$((i + 1))
    done
} >"$h"
term 'PE 0 2\n' HOME="$tmp/home"
if grep -q '^0.0000 1.0000$' "$tmp/screen" && [ "$(tail -n 1 "$h")" = 'PE\0400\0402' ] &&
    [ "$(wc -c <"$h")" -lt 1048576 ]; then ok; else bad "history without its first line"; fi

# 5. an empty history file, and one of a single line without its newline
#    (no first line to keep): left to libedit, the new command written
: >"$h"
term 'PE 0 2\n' HOME="$tmp/home"
if [ "$(cat "$h")" = "$(printf '_HiStOrY_V2_\nPE\\0400\\0402')" ]; then ok; else bad "empty history"; fi
head -c 1100000 /dev/zero | tr '\0' z >"$h"
term 'PE 0 2\n' HOME="$tmp/home"
if grep -q '^0.0000 1.0000$' "$tmp/screen" && [ "$(tail -n 1 "$h")" = 'PE\0400\0402' ]; then ok
else bad "history of one line without newline"; fi

# 6. no home, or an empty one: answered, no history file anywhere
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && term 'PE 1 2\n' -u HOME) # (term's env takes -u)
if grep -q '^0.8415 0.5403$' "$tmp/screen" && [ -z "$(ls -A "$tmp/cwd")" ]; then ok
else bad "no home"; fi
(cd "$tmp/cwd" && term 'PE 1 2\n' HOME=)
if grep -q '^0.8415 0.5403$' "$tmp/screen" && [ -z "$(ls -A "$tmp/cwd")" ]; then ok
else bad "empty home"; fi

echo "terminal: $passed passed, $failed failed"
