#!/bin/sh
# Runs every test and prints one closing line "N passed, M failed".
#   sh tests/run_all.sh BUILD_DIR CC SANITIZE
# Unit test programs (build/tests/test_*) each print "name: X passed, Y failed";
# CLI cases (tests/cli/) and the install test add one count each.
build=${1:-build}
cc=${2:-cc}
sanitize=${3:-}
passed=0
failed=0

add_counts() { # "name: X passed, Y failed"
    p=$(printf '%s\n' "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    line=$("$t" | tail -n 1)

    echo "$line"
    add_counts "$line"
done

line=$(sh tests/cli_tests.sh "$build/posenc" | tail -n 1)
echo "$line"
add_counts "$line"

line=$(sh tests/install_test.sh "$build" "$cc" "$sanitize" | tail -n 1)
echo "$line"
add_counts "$line"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
