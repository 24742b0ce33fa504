#!/bin/sh
# End-to-end tests of the program, as data (zstd's cli-tests style): for each
# case NAME in tests/cli/ there is NAME.args (the arguments, shell words)
# and/or NAME.in (standard input), and the expected NAME.out (standard
# output), NAME.err (standard error) and NAME.exit (exit status); a missing
# .out/.err means empty, a missing .exit means 0. Cases run inside tests/cli.
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$0")/cli" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
has_json=0
"$prog" --features | grep -q '^config-json$' && has_json=1
for f in "$dir"/*.args "$dir"/*.in; do
    [ -e "$f" ] || continue
    name=$(basename "${f%.*}")
    case " $seen " in *" $name "*) continue ;; esac
    seen="$seen $name"
    # config_* and model_* cases read config.json files: they need the JSON
    # reader.
    case "$name" in config_* | model_*)
        if [ "$has_json" = 0 ]; then
            skipped=$((skipped + 1))
            continue
        fi ;;
    esac
    base="$dir/$name"
    args=""
    [ -f "$base.args" ] && args=$(cat "$base.args")
    input=/dev/null
    [ -f "$base.in" ] && input="$base.in"
    rm -f "$tmp/out" "$tmp/err"
    (cd "$dir" && eval "set -- $args" && "$prog" "$@" <"$input" \
        >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/exit")
    want_exit=0
    [ -f "$base.exit" ] && want_exit=$(cat "$base.exit")
    ok=1
    if [ -f "$base.out" ]; then cmp -s "$tmp/out" "$base.out" || ok=0; else [ -s "$tmp/out" ] && ok=0; fi
    if [ -f "$base.err" ]; then cmp -s "$tmp/err" "$base.err" || ok=0; else [ -s "$tmp/err" ] && ok=0; fi
    [ "$(cat "$tmp/exit")" = "$want_exit" ] || ok=0
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL cli/$name (exit $(cat "$tmp/exit"), want $want_exit)" >&2
        [ -f "$base.out" ] && diff "$base.out" "$tmp/out" | head -n 10 >&2
        [ -f "$base.err" ] && diff "$base.err" "$tmp/err" | head -n 10 >&2
        [ -f "$base.err" ] || head -n 5 "$tmp/err" >&2
    fi
done
if [ "$skipped" -gt 0 ]; then
    echo "cli: skipped $skipped cases that read config.json files: built without jansson (apt-get install libjansson-dev)"
    echo "cli: $passed passed, $failed failed, $skipped skipped"
else
    echo "cli: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
