#!/bin/sh
# No cycle between the files of src/, of cli/, or of the Python extension
# (its objects in BUILD/python-tmp, when make test built it): file A depends on file B
# when A's object uses a symbol B's object defines (nm), and following those
# edges never leads back to where it started. Ends with "cycles: X passed,
# Y failed" (one check per folder); a cycle is printed as its path.
#   sh tests/cycles.sh BUILD_DIR
build=${1:-build}
NM=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
if ! command -v "$NM" >/dev/null 2>&1; then
    echo "cycles: skipped the dependency check: no nm (apt-get install binutils)"
    echo "cycles: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
for dir in src cli python-tmp; do
    : >"$tmp/def"
    : >"$tmp/use"
    # every object below the folder (src/ has one folder per concern);
    # a file is named by its path under the folder, e.g. cpu/kernels
    for o in $(find "$build/$dir" -name '*.o' 2>/dev/null | sort); do
        f=${o#"$build/$dir"/}
        f=${f%.o}
        "$NM" -g --defined-only "$o" 2>/dev/null | awk -v f="$f" 'NF >= 3 {print $3, f}' >>"$tmp/def"
        "$NM" -u "$o" 2>/dev/null | awk -v f="$f" '{print $NF, f}' >>"$tmp/use"
    done
    # edges "user definer", then a depth-first search for a back edge
    cycle=$(awk '
        FNR == NR { def[$1] = $2; next }
        ($1 in def) && def[$1] != $2 { e = $2 " " def[$1]; if (!(e in seen)) { seen[e] = 1; adj[$2] = adj[$2] " " def[$1] } nodes[$2] = 1 }
        function dfs(n, path,    i, k, m, parts) {
            state[n] = 1
            m = split(adj[n], parts, " ")
            for (i = 1; i <= m; i++) {
                k = parts[i]
                if (state[k] == 1) { found = path " -> " k; return 1 }
                if (state[k] == 0 && dfs(k, path " -> " k)) return 1
            }
            state[n] = 2
            return 0
        }
        END { for (n in nodes) if (state[n] == 0 && dfs(n, n)) { print found; exit } }
    ' "$tmp/def" "$tmp/use")
    if [ -n "$cycle" ]; then
        echo "FAIL cycles in $dir/: $cycle"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "cycles: $passed passed, $failed failed"
