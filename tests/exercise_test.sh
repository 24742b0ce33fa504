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
if [ "$rc" = 1 ] &&
    [ "$(head -n 1 "$tmp/out")" = "GRADE verdict=incomplete cases=0 failed=0 missing=sinusoid,rotate" ]
then ok; else
    bad "the starter as shipped: want verdict=incomplete, missing=sinusoid,rotate (got $rc)"; fi

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
        if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "GRADE verdict=pass cases=118 failed=0" ]; then ok
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
            [ "$(head -n 1 "$tmp/out")" = "GRADE verdict=pass cases=111 failed=0" ] &&
            grep -q "^NOTE the cases with other bases were skipped" "$tmp/out"; then ok
        elif [ "$plant" != none ] && [ "$rc" = 1 ] && [ "$first" = "$plant" ]; then ok
        else bad "learner.py --plant $plant: named '$first' first (status $rc)"; fi
    done
    # two mistakes at once are both named
    grade -- "$py" tests/exercise/learner.py --plant sin-cos-swapped,rotation-sign
    names=$(sed -n 's/^MISTAKE name=\([^ ]*\) .*/\1/p' "$tmp/out" | tr '\n' ' ')
    if [ "$rc" = 1 ] && [ "$names" = "rotation-sign sin-cos-swapped " ]; then ok
    else bad "learner.py with two mistakes: named '$names' (status $rc)"; fi
fi

# 4. A learner's mine.c (tests/exercise/mine_right.c) in a fresh starter,
# built with its Makefile: right it passes; with each slip made (sed on a
# line of it) the slip is named first and explains every failed case; with
# rotate() left as shipped it is incomplete, missing=rotate, nothing failed.
learner() { # learner NAME SED-SCRIPT: builds $tmp/l/pe from mine_right.c edited
    rm -rf "$tmp/l"
    cp -R examples/exercise "$tmp/l"
    rm -f "$tmp/l/pe"
    sed "$2" tests/exercise/mine_right.c >"$tmp/l/mine.c"
    if [ "$2" != "" ] && cmp -s "$tmp/l/mine.c" tests/exercise/mine_right.c; then
        bad "slip $1: the sed script changed nothing"; return 1; fi
    make -s -C "$tmp/l" CC="$cc" CFLAGS="-std=c11 -O2 -w" >"$tmp/make.log" 2>&1 ||
        { bad "slip $1 does not build"; cat "$tmp/make.log" >&2; return 1; }
}
learner right '' && grade -- "$tmp/l/pe"
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "GRADE verdict=pass cases=118 failed=0" ]; then ok
else bad "mine_right.c does not pass (status $rc)"; fi
while IFS='|' read -r name script; do
    case $name in ''|'#'*) continue ;; esac
    learner "$name" "$script" || continue
    grade -- "$tmp/l/pe"
    line=$(grep '^MISTAKE' "$tmp/out" | head -n 1)
    failedn=$(sed -n 's/^GRADE .*failed=\([0-9]*\).*/\1/p' "$tmp/out")
    if [ "$rc" = 1 ] && echo "$line" | grep -q "^MISTAKE name=$name explains=$failedn/$failedn "
    then ok; else bad "slip $name ($script): got '$line' (status $rc)"; fi
done <<'SLIPS'
integer-exponent|s|2\.0 \* k / D|2 * k / D|g
single-precision|s|double theta = pos / pow(base, 2\.0 \* k / D);|float theta = (float)pos / powf((float)base, 2.0f * k / D);|
coordinate-sign|s|x\[2 \* k + 1\] = a \* sin|x[2 * k + 1] = -a * sin|
pair-shift|s|2\.0 \* k / D|2.0 * (k + 1) / D|
pair-shift|s|2\.0 \* k / D|2.0 * (k - 1) / D|
odd-d-exponent|s|2\.0 \* k / D); /\* S-ANGLE|2.0 * k / (D - D % 2)); /* S-ANGLE|
used-after-overwrite|s|a \* sin(theta) + b \* cos(theta); /\* R-SECOND|x[2 * k] * sin(theta) + b * cos(theta); /* R-SECOND|
base-ignored|s|pow(base,|pow(10000.0,|
multiply-not-divide|s|pos / pow|pos * pow|
sin-cos-swapped|s|sin(theta); /\* S-EVEN|cos(theta); /* S-EVEN|;s|cos(theta); /\* S-ODD|sin(theta); /* S-ODD|
rotation-sign|s|- b \* sin(theta);     /\* R-FIRST|+ b * sin(theta); /* R-FIRST|;s|a \* sin(theta) + b|-a * sin(theta) + b|
coordinate-sign|s|- b \* sin(theta);     /\* R-FIRST|+ b * sin(theta); /* R-FIRST|
element-index|s|int k = i / 2;|int k = i;|
exponent-k-over-d|s|2\.0 \* k / D|1.0 * k / D|g
position-offset|s|pos / pow|(pos + 1) / pow|g
odd-d|s|i < D; i++|i < D - D % 2; i++|
sin-cos-swapped|s|x\[2 \* k + 1\] = a \* sin(theta) + b \* cos(theta);|x[2 * k + 1] = a * cos(theta) + b * sin(theta);|
multiply-not-divide|s|double theta = pos / pow(base, 2\.0 \* k / D); /\* R-ANGLE|double theta = pow(base, 2.0 * k / D) / pos; /* R-ANGLE|
base|s|pow(base, 2\.0 \* k / D)|exp(2.0 * k / D * log10(base))|g
model-dim|s|2\.0 \* k / D|2.0 * k / (D / 2)|g
base|s|pow(base, 2\.0 \* k / D)|exp(2.0 * k / D)|g
used-after-overwrite|s|x\[2 \* k\] = a \* cos(theta) - b \* sin(theta);     /\* R-FIRST \*/|x[2 * k + 1] = a * sin(theta) + b * cos(theta); x[2 * k] = a * cos(theta) - x[2 * k + 1] * sin(theta);|; /R-SECOND/d
model-dim|s|2\.0 \* k / D|2.0 * k / (D - 1)|g
odd-d-exponent|s|2\.0 \* k / D); /\* S-ANGLE|2.0 * k / (D + D % 2)); /* S-ANGLE|
SLIPS
# the half-written program: sinusoid() right, rotate() the shipped stub
rm -rf "$tmp/l"
cp -R examples/exercise "$tmp/l"
rm -f "$tmp/l/pe"
sed '/^int rotate/,$d' tests/exercise/mine_right.c >"$tmp/l/mine.c"
cat >>"$tmp/l/mine.c" <<'STUB'
int rotate(long pos, int D, double base, double *x)
{
    (void)pos, (void)D, (void)base, (void)x;
    return NOT_WRITTEN;
}
STUB
make -s -C "$tmp/l" CC="$cc" >"$tmp/make.log" 2>&1
grade -- "$tmp/l/pe"
if [ "$rc" = 1 ] &&
    head -n 1 "$tmp/out" | grep -q '^GRADE verdict=incomplete cases=[0-9]* failed=0 missing=rotate$' &&
    ! grep -q '^CASE' "$tmp/out"; then ok
else bad "the half-written program: want verdict=incomplete missing=rotate (status $rc)"; fi

# 5. Containment: programs that fork, setsid(), sleep, print without end and
# write files, compiled here; no process of theirs is left when grade
# returns, they ran in a directory of their own, removed after.
cat >"$tmp/bad.c" <<'BAD'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void note(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) { fprintf(f, "%d\n", (int)getpid()); fclose(f); }
}
int main(int argc, char **argv)
{
    const char *dir = argv[1], *what = argv[2];
    char line[65536], cwd[512];
    if (getcwd(cwd, sizeof cwd)) { FILE *f = fopen("here.txt", "w"); if (f) fclose(f);
        char p[600]; snprintf(p, sizeof p, "%s/cwd", dir); f = fopen(p, "w");
        if (f) { fprintf(f, "%s\n", cwd); fclose(f); } }
    if (fork() == 0) { /* a child that outlives its parent */
        note(dir, "child.pid");
        for (;;) sleep(1);
    }
    if (fork() == 0) { /* a grandchild in a session of its own */
        setsid();
        if (fork() == 0) { note(dir, "daemon.pid"); for (;;) sleep(1); }
        _exit(0);
    }
    if (strcmp(what, "sleep") == 0)
        for (;;) sleep(1);
    if (strcmp(what, "spew") == 0)
        for (;;) fputs("0.0000 0.0000 0.0000\n", stdout);
    if (strcmp(what, "file") == 0) { /* a file without end: the file size limit stops it */
        FILE *f = fopen("big.bin", "w");
        memset(line, 'x', sizeof line);
        for (;;) fwrite(line, 1, sizeof line, f);
    }
    while (fgets(line, sizeof line, stdin)) puts("0");
    return 0;
}
BAD
if $cc -o "$tmp/bad" "$tmp/bad.c" 2>"$tmp/cc.log"; then
    printf 'PE 1 1\n' >"$tmp/one.txt"
    for what in exit sleep spew file; do
        mkdir -p "$tmp/run-$what"
        "$prog" grade --timeout 1 --cases "$tmp/one.txt" -- "$tmp/bad" "$tmp/run-$what" "$what" \
            >"$tmp/out" 2>"$tmp/err"
        sleep 0.2
        left=""
        for f in "$tmp/run-$what"/*.pid; do
            [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && left="$left $(cat "$f")"
        done
        wd=$(cat "$tmp/run-$what/cwd" 2>/dev/null)
        if [ -z "$left" ] && [ -f "$tmp/run-$what/child.pid" ] && [ -n "$wd" ] &&
            [ "$wd" != "$(pwd)" ] && [ ! -e "$wd" ]; then ok
        else
            bad "containment ($what): left running:$left; ran in '$wd'"
            for p in $left; do kill -9 "$p" 2>/dev/null; done
        fi
    done
else bad "the containment test program does not build"; cat "$tmp/cc.log" >&2; fi

if [ "$skipped" -gt 0 ]; then
    echo "exercise: $passed passed, $failed failed, $skipped skipped"
else
    echo "exercise: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
