#!/bin/sh
# No cycle between the files of src/, of cli/, or of the Python extension
# (its objects in BUILD/python-tmp, when make test built it), nor between
# the folders of src/; and src/common, the bottom floor, uses no other
# folder. File A depends on file B when A's object uses a symbol B's object
# defines (nm); folder A on folder B when a file of A depends on a file of
# B. Following those edges must never lead back to where it started. Ends
# with "cycles: X passed, Y failed" (one check per graph); a cycle is
# printed as its path, a use of common/ as the symbols it uses.
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

# $1: the file of edges "user definer symbol"; prints the first cycle found
# as its path, nothing when there is none.
find_cycle() {
    awk '
        { e = $1 " " $2; if (!(e in seen)) { seen[e] = 1; adj[$1] = adj[$1] " " $2 } nodes[$1] = 1 }
        # the part of path "a -> b -> ..." from node k on: the cycle itself
        function from(path, k,    m, i, parts, out) {
            m = split(path, parts, " -> ")
            for (i = 1; i <= m && parts[i] != k; i++)
                ;
            out = parts[i]
            for (i++; i <= m; i++)
                out = out " -> " parts[i]
            return out
        }
        function dfs(n, path,    i, k, m, parts) {
            state[n] = 1
            m = split(adj[n], parts, " ")
            for (i = 1; i <= m; i++) {
                k = parts[i]
                if (state[k] == 1) { found = from(path, k) " -> " k; return 1 }
                if (state[k] == 0 && dfs(k, path " -> " k)) return 1
            }
            state[n] = 2
            return 0
        }
        END { for (n in nodes) if (state[n] == 0 && dfs(n, n)) { print found; exit } }
    ' "$1"
}

# $1: what is checked, $2: the cycle found (empty: none)
verdict() {
    if [ -n "$2" ]; then
        echo "FAIL cycles in $1: $2"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

for dir in src cli python-tmp; do
    : >"$tmp/def"
    : >"$tmp/use"
    # every object below the folder (src/ has one folder per concern);
    # a file is named by its path under the folder, e.g. cpu/cpu. An
    # object whose source is gone (a build from before a file moved) is
    # left out.
    for o in $(find "$build/$dir" -name '*.o' 2>/dev/null | sort); do
        f=${o#"$build/$dir"/}
        f=${f%.o}
        if [ -d "$dir" ] && [ ! -f "$dir/$f.c" ]; then
            continue
        fi
        "$NM" -g --defined-only "$o" 2>/dev/null | awk -v f="$f" 'NF >= 3 {print $3, f}' >>"$tmp/def"
        "$NM" -u "$o" 2>/dev/null | awk -v f="$f" '{print $NF, f}' >>"$tmp/use"
    done
    # edges "user definer symbol"
    awk 'FNR == NR { def[$1] = $2; next }
         ($1 in def) && def[$1] != $2 { print $2, def[$1], $1 }' "$tmp/def" "$tmp/use" >"$tmp/edges"
    verdict "$dir/" "$(find_cycle "$tmp/edges")"
    [ "$dir" = src ] || continue

    # the folders of src/: an edge between two files of one folder is no edge
    awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1], $3 }' \
        "$tmp/edges" >"$tmp/folders"
    verdict "the folders of src/" "$(find_cycle "$tmp/folders")"
    # common/ is the bottom floor: it uses nothing of the others
    up=$(awk '$1 == "common" { printf "%s%s -> %s (%s)", sep, $1, $2, $3; sep = ", " }' "$tmp/folders")
    if [ -n "$up" ]; then
        echo "FAIL src/common uses a folder above it: $up"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "cycles: $passed passed, $failed failed"
