#!/bin/sh
# Prints line and branch coverage of src/ and cli/ from a --coverage build.
#   sh tests/coverage.sh COV_DIR MIN_LINES MIN_BRANCHES STRICT
# With STRICT=1 it exits 1 when either number is below its goal; otherwise it
# only says so (CI decides what to do with the numbers).
dir=${1:-build-cov}
min_lines=${2:-95}
min_branches=${3:-90}
strict=${4:-}

if command -v gcovr >/dev/null 2>&1; then
    # Per-file table, then the totals on their own lines.
    gcovr -r . --object-directory "$dir" --filter 'src/' --filter 'cli/' \
        --exclude-unreachable-branches --sort-percentage --txt || exit 1
    summary=$(gcovr -r . --object-directory "$dir" --filter 'src/' --filter 'cli/' \
        --exclude-unreachable-branches --print-summary --txt "$dir/summary.txt") || exit 1
    # (Not --txt /dev/null: gcovr replaces the file it is given, and /dev/null
    # then stops being the null device for everything else on the machine.)
    lines=$(printf '%s\n' "$summary" | sed -n 's/^lines: *\([0-9.]*\)%.*/\1/p')
    branches=$(printf '%s\n' "$summary" | sed -n 's/^branches: *\([0-9.]*\)%.*/\1/p')
    printf '%s\n' "$summary"
elif command -v lcov >/dev/null 2>&1; then
    info="$dir/coverage.info"
    lcov -q --rc lcov_branch_coverage=1 -c -d "$dir" -o "$info" >/dev/null || exit 1
    lcov -q --rc lcov_branch_coverage=1 -e "$info" "$PWD/src/*" "$PWD/cli/*" -o "$info" >/dev/null
    summary=$(lcov --rc lcov_branch_coverage=1 --summary "$info" 2>&1)
    printf '%s\n' "$summary"
    lines=$(printf '%s\n' "$summary" | sed -n 's/^ *lines\.*: *\([0-9.]*\)%.*/\1/p')
    branches=$(printf '%s\n' "$summary" | sed -n 's/^ *branches\.*: *\([0-9.]*\)%.*/\1/p')
else
    echo "coverage: neither gcovr nor lcov is installed" >&2
    exit 1
fi

ok=$(awk -v l="${lines:-0}" -v b="${branches:-0}" -v ml="$min_lines" -v mb="$min_branches" \
    'BEGIN { print (l + 0 >= ml && b + 0 >= mb) ? 1 : 0 }')
echo "coverage: lines ${lines:-?}% (goal $min_lines%), branches ${branches:-?}% (goal $min_branches%)"
if [ "$ok" != 1 ]; then
    echo "coverage: below the goal"
    [ "$strict" = 1 ] && exit 1
fi
exit 0
