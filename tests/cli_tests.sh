#!/bin/sh
# End-to-end tests of the program, as data (zstd's cli-tests style): for each
# case NAME in tests/cli/ or a folder of it (tests/cli/AREA/NAME, one folder
# per area: tests/README.md lists them) there is NAME.args (the arguments,
# shell words) and/or NAME.in (standard input), and the expected NAME.out
# (standard output), NAME.err (standard error) and NAME.exit (exit status); a
# missing .out/.err means empty, a missing .exit means 0. Every case runs
# inside tests/cli itself, wherever its files are, so the files cases read
# (table.txt, ok.pe, grade_lesson.txt, ../data/...) are named from there.
# A case is named by its path under tests/cli: model/model_gpt2.
#
# Then the EXPLAIN MODEL golden loop: tests/data/model_explain_golden.txt
# holds, for each fixture FILE it names, the exact standard output of
#   posenc --config ../data/models/FILE -c 'EXPLAIN MODEL'
# (run in tests/cli, exit 0, nothing on standard error); each is one check.
#
# GGUF files are not kept in the repository: the cases of tests/cli/gguf/
# name them "$GGUF/NAME.gguf", written here first by the C test program
# that writes them the way llama.cpp's converter does
# (build/tests/test_gguf_convert --write-fixtures DIR). gguf_* cases are
# skipped when that program is not built, gguf_check_* also without the
# config reader. The fixtures' folder is written "$GGUF" in the expected
# output of a case that echoes a file's path.
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$0")/cli" && pwd)
golden=$(cd "$(dirname "$0")/data" && pwd)/model_explain_golden.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
skip_json=0  # why cases were skipped, each counted apart
skip_gguf=0
skip_needs=0
has_json=0
"$prog" --features | grep -q '^config-json$' && has_json=1
GGUF=""
writer=$(dirname "$prog")/tests/test_gguf_convert
if [ -x "$writer" ] && mkdir "$tmp/gguf" && (cd "$dir/../.." && "$writer" --write-fixtures "$tmp/gguf"); then
    GGUF=$tmp/gguf
fi
export GGUF
# every case, flat ones and those in folders (not the fixtures' folders:
# a fixture is never named NAME.args or NAME.in), in one sorted order
(cd "$dir" && find . -type f \( -name '*.args' -o -name '*.in' \) | sed 's|^\./||; s|\.[a-z]*$||' |
    LC_ALL=C sort -u) >"$tmp/cases"
while IFS= read -r name; do
    # config_* and model_* cases read config.json files: they need the JSON
    # reader.
    case "${name##*/}" in config_* | model_* | gguf_check_*)
        if [ "$has_json" = 0 ]; then
            skipped=$((skipped + 1)) skip_json=$((skip_json + 1))
            continue
        fi ;;
    esac
    case "${name##*/}" in gguf_*)
        if [ -z "$GGUF" ]; then
            skipped=$((skipped + 1)) skip_gguf=$((skip_gguf + 1))
            continue
        fi ;;
    esac
    # NAME.needs: features the case needs beyond its name's (words of
    # posenc --features, e.g. config-json where a fixture is written from a
    # config.json); skipped when one is missing
    if [ -f "$dir/$name.needs" ]; then
        missing=0
        for feature in $(cat "$dir/$name.needs"); do
            "$prog" --features | grep -qx "$feature" || missing=1
        done
        if [ "$missing" = 1 ]; then
            skipped=$((skipped + 1)) skip_needs=$((skip_needs + 1))
            continue
        fi
    fi
    base="$dir/$name"
    args=""
    [ -f "$base.args" ] && args=$(cat "$base.args")
    input=/dev/null
    [ -f "$base.in" ] && input="$base.in"
    rm -f "$tmp/out" "$tmp/err"
    (cd "$dir" && eval "set -- $args" && "$prog" "$@" <"$input" \
        >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/exit")
    if [ -n "$GGUF" ]; then # the fixtures' folder echoed as the case names it
        for f in out err; do
            sed "s|$GGUF|\$GGUF|g" "$tmp/$f" >"$tmp/$f.g" && mv "$tmp/$f.g" "$tmp/$f"
        done
    fi
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
done <"$tmp/cases"

# The EXPLAIN MODEL golden loop: "model FILE", its output with each line
# written "| LINE" ("|" for an empty one), "end"; "total N" closes the file.
explain_golden() {
    awk -v out="$tmp/explain" '
        NR == 1 { if ($0 != "posenc-model-explain-golden 1") { print "bad magic"; exit 1 }; next }
        /^#/ { next }
        /^model / { m = substr($0, 7); n++; f = out "/" n; printf "" >f; print m >(out "/list"); next }
        /^\|( |$)/ { if (f == "") { print "line " NR " outside a model"; exit 1 }
                     print substr($0, 3) >>f; next }
        /^end$/ { close(f); f = ""; next }
        /^total / { total = $2 + 0; next }
        { print "line " NR " unknown: " $0; exit 1 }
        END { if (f != "") print "model " m " without end"; else if (total != n) print "total " total ", read " n }
    ' "$golden"
}
mkdir "$tmp/explain"
: >"$tmp/explain/list"
bad=$(explain_golden)
if [ -n "$bad" ]; then
    failed=$((failed + 1))
    echo "FAIL cli/model_explain_golden: ${golden##*/}: $bad" >&2
fi
k=0
while IFS= read -r m; do
    k=$((k + 1))
    if [ "$has_json" = 0 ]; then
        skipped=$((skipped + 1)) skip_json=$((skip_json + 1))
        continue
    fi
    (cd "$dir" && "$prog" --config "../data/models/$m" -c 'EXPLAIN MODEL' </dev/null \
        >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/exit")
    if cmp -s "$tmp/out" "$tmp/explain/$k" && [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/exit")" = 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL cli/model_explain_golden/$m (exit $(cat "$tmp/exit"), want 0)" >&2
        diff "$tmp/explain/$k" "$tmp/out" | head -n 10 >&2
        head -n 5 "$tmp/err" >&2
    fi
done <"$tmp/explain/list"

if [ "$skipped" -gt 0 ]; then
    [ "$skip_json" -gt 0 ] &&
        echo "cli: skipped $skip_json cases that read config.json files: built without jansson (apt-get install libjansson-dev)"
    [ "$skip_gguf" -gt 0 ] &&
        echo "cli: skipped $skip_gguf gguf cases: their fixtures' writer build/tests/test_gguf_convert is not built (make test builds it)"
    [ "$skip_needs" -gt 0 ] &&
        echo "cli: skipped $skip_needs cases whose NAME.needs lists a feature posenc --features lacks"
    echo "cli: $passed passed, $failed failed, $skipped skipped"
else
    echo "cli: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
