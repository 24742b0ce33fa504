#!/bin/sh
# Runs every test and prints one closing line "N passed, M failed", with
# ", K skipped" added when an optional part was not built, and above it the
# Debian packages that would run what was skipped.
#   POSENC_TEST_LDFLAGS=... sh tests/run_all.sh BUILD_DIR CC
# (POSENC_TEST_LDFLAGS: what programs linked with the built library need,
# e.g. -fsanitize=... or --coverage; the Makefile passes its LDFLAGS.)
# Each unit test program (build/tests/test_*) ends with "name: X passed,
# Y failed[, K skipped]" and says what it skipped on lines "name: skipped
# WHAT (apt-get install PACKAGES)"; the CLI cases and the install test do
# the same.
build=${1:-build}
cc=${2:-cc}
passed=0
failed=0
skipped=0
packages=""
out=$(mktemp)
trap 'rm -f "$out"' EXIT

count() { # $1 = "count" line "name: X passed, Y failed[, K skipped]"; $2 = field
    printf '%s\n' "$1" | sed -n "s/.*: \([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\\$2/p"
}

# $1: the output of one test program (in $out): shows its skip notes and
# closing line, and adds them up. A program that closes on anything else
# (it crashed, or printed nothing) counts as one failure.
add() {
    grep -E ': skipped .*\(apt-get install [^)]*\)$' "$out"
    for p in $(sed -n 's/.*(apt-get install \([^)]*\))$/\1/p' "$out"); do
        case " $packages " in *" $p "*) ;; *) packages="${packages:+$packages }$p" ;; esac
    done
    line=$(tail -n 1 "$out")
    echo "$line"
    p=$(count "$line" 1)
    f=$(count "$line" 2)
    k=$(count "$line" 4)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
    skipped=$((skipped + ${k:-0}))
}

for t in "$build"/tests/test_*; do
    case "$t" in *.d) continue ;; esac
    [ -x "$t" ] || continue
    [ -f "tests/${t##*/}.c" ] || continue # left over from a test file since renamed
    "$t" >"$out"
    add
done

sh tests/cli_tests.sh "$build/posenc" >"$out"
add

sh tests/check_cli_test.sh "$build/posenc" >"$out"
add

# The interactive prompt on a pseudo-terminal (line editing, history file).
sh tests/terminal_test.sh "$build/posenc" >"$out"
add

sh tests/docs_test.sh "$build" "$cc" >"$out"
add

# The lesson's exercise graded by posenc grade (starter, solution, mistakes).
sh tests/exercise_test.sh "$build" "$cc" >"$out"
add

sh tests/install_test.sh "$build" "$cc" >"$out"
add

# The Python package (PYTHON and the build's switches come from the Makefile).
sh tests/python_test.sh >"$out"
add

# No cycles between files (src/, cli/, and the extension just built).
sh tests/cycles.sh "$build" >"$out"
add

# Without pkg-config the build finds no optional part, installed or not.
if [ -n "$packages" ] && ! command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1; then
    packages="pkg-config $packages"
fi
if [ -n "$packages" ]; then
    echo "skipped parts need: apt-get install $packages (as root: make deps)"
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
