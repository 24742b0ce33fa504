#!/bin/sh
# The lesson's exercise and `posenc grade`, end to end: the starter
# (examples/exercise/) copied and built with its own Makefile as a learner
# does, graded as shipped (it must fail, status 2, with the message naming
# the two functions to write); the reference solution (tests/exercise/
# solution.c with the starter's pe.c) must pass; each mistake planted in it
# (-DPLANT=NAME) must be named first; and the same for a learner's program
# in another language, tests/exercise/learner.py (skipped without python3).
#   sh tests/exercise_test.sh BUILD_DIR CC
build=${1:-build}
cc=${2:-cc}
prog=$(cd "$(dirname "$build/posenc")" && pwd)/posenc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL exercise: $1" >&2
    [ -f "$tmp/out" ] && head -n 8 "$tmp/out" >&2
    [ -f "$tmp/err" ] && head -n 8 "$tmp/err" >&2
}
grade() { # grade ARGS...: runs posenc grade, output in $tmp/out, $tmp/err; sets $rc
    "$prog" grade --show 1 "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
mistakes="element-index exponent-k-over-d rotation-sign sin-cos-swapped model-dim odd-d base layout position-offset"
warn="-std=c11 -Wall -Wextra -Wpedantic -Werror"

# 1. The starter as a learner gets it: copy, make, grade.
cp -R examples/exercise "$tmp/mine"
rm -f "$tmp/mine/pe"
if make -s -C "$tmp/mine" CC="$cc" >"$tmp/make.log" 2>&1 && [ -x "$tmp/mine/pe" ]; then ok; else
    bad "the starter does not build with its Makefile"; cat "$tmp/make.log" >&2; fi
# shellcheck disable=SC2086
if $cc $warn -o "$tmp/starter" examples/exercise/pe.c examples/exercise/mine.c -lm 2>"$tmp/cc.log"
then ok; else bad "the starter has warnings"; cat "$tmp/cc.log" >&2; fi
grade -- "$tmp/mine/pe"
if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] &&
    grep -q "exited with status 2 after 0 lines" "$tmp/err" &&
    grep -q "^  pe: write sinusoid() and rotate() in mine.c" "$tmp/err"; then ok; else
    bad "the starter as shipped: want status 2 and the message naming sinusoid() and rotate() (got $rc)"; fi

# 2. The reference solution passes; each planted mistake is named first.
for plant in none $mistakes; do
    macro=$(echo "$plant" | tr - _)
    [ "$plant" = none ] && macro=0
    # shellcheck disable=SC2086
    if ! $cc $warn -Iexamples/exercise -DPLANT="$macro" -o "$tmp/sol" examples/exercise/pe.c \
        tests/exercise/solution.c -lm 2>"$tmp/cc.log"; then
        bad "solution.c with PLANT=$macro does not build"; cat "$tmp/cc.log" >&2; continue
    fi
    grade -- "$tmp/sol"
    if [ "$plant" = none ]; then
        if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "GRADE verdict=pass cases=107 failed=0" ]; then ok
        else bad "the reference solution does not pass (status $rc)"; fi
        continue
    fi
    first=$(sed -n 's/^MISTAKE name=\([^ ]*\) .*/\1/p' "$tmp/out" | head -n 1)
    if [ "$rc" = 1 ] && [ "$first" = "$plant" ] && head -n 1 "$tmp/out" | grep -q '^GRADE verdict=fail'
    then ok; else bad "PLANT=$plant: named '$first' first (status $rc)"; fi
done

# 3. A learner's program in another language, right and with each mistake.
# (Debian's when there is one, else the interpreter behind python3 itself,
# not a version manager's shim that is slow to start)
py=/usr/bin/python3
[ -x "$py" ] || py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true)
if [ -z "$py" ]; then
    skipped=$((skipped + 10))
    echo "exercise: skipped the Python learner's program (apt-get install python3)"
else
    for plant in none $mistakes; do
        if [ "$plant" = none ]; then grade -- "$py" tests/exercise/learner.py
        else grade -- "$py" tests/exercise/learner.py --plant "$plant"; fi
        first=$(sed -n 's/^MISTAKE name=\([^ ]*\) .*/\1/p' "$tmp/out" | head -n 1)
        if [ "$plant" = none ] && [ "$rc" = 0 ] &&
            [ "$(cat "$tmp/out")" = "GRADE verdict=pass cases=107 failed=0" ]; then ok
        elif [ "$plant" != none ] && [ "$rc" = 1 ] && [ "$first" = "$plant" ]; then ok
        else bad "learner.py --plant $plant: named '$first' first (status $rc)"; fi
    done
    # two mistakes at once are both named
    grade -- "$py" tests/exercise/learner.py --plant sin-cos-swapped,rotation-sign
    names=$(sed -n 's/^MISTAKE name=\([^ ]*\) .*/\1/p' "$tmp/out" | tr '\n' ' ')
    if [ "$rc" = 1 ] && [ "$names" = "rotation-sign sin-cos-swapped " ]; then ok
    else bad "learner.py with two mistakes: named '$names' (status $rc)"; fi
fi

if [ "$skipped" -gt 0 ]; then
    echo "exercise: $passed passed, $failed failed, $skipped skipped"
else
    echo "exercise: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
