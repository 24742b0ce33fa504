#!/bin/sh
# The examples of every document run, so that they cannot rot: in README.md
# and docs/*.md, each ```console block's "$ posenc ARGS" lines are run (from
# the repository's root, standard error with standard output) and must print
# the lines under them; each ```c block is a whole program that must compile
# against the library with warnings as errors and exit 0. An example that
# needs an optional part that was not built (--config: jansson; plot: Cairo)
# is skipped.
#   sh tests/docs_test.sh BUILD_DIR CC
build=${1:-build}
cc=${2:-cc}
prog=$build/posenc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
features=$("$prog" --features)
need_missing() { # $1: the command's arguments; prints the package that is missing
    case "$1" in *--config*) case "$features" in *config-json*) ;; *) echo libjansson-dev; return ;; esac ;; esac
    case "$1" in plot\ * | *PLOT\ *) case "$features" in *plot*) ;; *) echo libcairo2-dev ;; esac ;; esac
}
missing=""
check_command() { # $1: doc, $2: args, $3: file with the expected lines
    pkg=$(need_missing "$2")
    if [ -n "$pkg" ]; then
        skipped=$((skipped + 1))
        case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
        return
    fi
    # (-u before a subcommand would be read as an option of the interpreter)
    case "$2" in
    grade\ *) (eval "set -- $2" && "$prog" "$@") >"$tmp/got" 2>&1 ;;
    *) (eval "set -- $2" && "$prog" -u "$@") >"$tmp/got" 2>&1 ;;
    esac
    if cmp -s "$tmp/got" "$3"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1: posenc $2" >&2
        diff "$3" "$tmp/got" | head -n 10 >&2
    fi
}
check_c() { # $1: doc, $2: the program
    # shellcheck disable=SC2086
    if "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude ${POSENC_TEST_LDFLAGS:-} \
        -o "$tmp/ex" "$2" "$build/libposenc.a" -lm -pthread 2>"$tmp/cc.err" && "$tmp/ex" >/dev/null; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1: a C example does not build or run:" >&2
        head -n 10 "$tmp/cc.err" >&2
    fi
}
for doc in README.md docs/*.md; do
    n=0
    state=out # out, console, c
    args=""
    while IFS= read -r line || [ -n "$line" ]; do
        case "$state" in
        out)
            case "$line" in
            '```console') state=console; args="" ;;
            '```c') state=c; n=$((n + 1)); : >"$tmp/ex$n.c" ;;
            esac ;;
        console)
            case "$line" in
            '```' | '$ '*)
                [ -n "$args" ] && check_command "$doc" "$args" "$tmp/want"
                args=""
                case "$line" in
                '```') state=out ;;
                '$ posenc '*) args=${line#'$ posenc '}; : >"$tmp/want" ;;
                esac ;;
            *) [ -n "$args" ] && printf '%s\n' "$line" >>"$tmp/want" ;;
            esac ;;
        c)
            if [ "$line" = '```' ]; then
                state=out
                check_c "$doc" "$tmp/ex$n.c"
            else
                printf '%s\n' "$line" >>"$tmp/ex$n.c"
            fi ;;
        esac
    done <"$doc"
done
if [ "$skipped" -gt 0 ]; then
    echo "docs: skipped $skipped examples of optional parts not built (apt-get install${missing})"
    echo "docs: $passed passed, $failed failed, $skipped skipped"
else
    echo "docs: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
