#!/bin/sh
# Installs into a temporary prefix, then builds a small C program against it
# with pkg-config, statically and dynamically, and checks what it prints
# (the lesson's trace PE(2) for D = 4, and a RoPE rotation).
build=${1:-build}
cc=${2:-cc}
sanitize=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=""
[ "$sanitize" = "1" ] && extra="-fsanitize=address,undefined"
fail() { echo "install: $*" >&2; echo "install: 0 passed, 1 failed"; exit 1; }

make -s install PREFIX="$tmp/prefix" SANITIZE="$sanitize" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "make install failed"; }
for f in include/posenc.h lib/libposenc.a lib/libposenc.so lib/pkgconfig/posenc.pc bin/posenc share/man/man1/posenc.1; do
    [ -e "$tmp/prefix/$f" ] || fail "missing $f"
done
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cflags=$(pkg-config --cflags posenc) || fail "pkg-config does not know posenc"
libs=$(pkg-config --libs posenc)
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $extra $cflags -o "$tmp/ex" tests/install/example.c $libs -lm \
    || fail "example does not build against the installed library"
out=$(LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/ex") || fail "example exited with an error"
want="0.9093 -0.4161 0.0200 0.9998
0.5403 0.8415
0.1.0"
[ "$out" = "$want" ] || fail "example printed '$out'"
# The shared library exports only posenc_ names and carries its soname.
soname=$(objdump -p "$tmp/prefix/lib/libposenc.so" 2>/dev/null | awk '/SONAME/ {print $2}')
[ -z "$soname" ] || [ "$soname" = "libposenc.so.0" ] || fail "soname is $soname"
"$tmp/prefix/bin/posenc" -c 'PE 2 4' | grep -q '^0.9093 -0.4161 0.0200 0.9998$' || fail "installed program"
# The config reader's header is installed; with its library (jansson builds),
# a program reads a model through the registry.
[ -e "$tmp/prefix/include/posenc_config.h" ] || fail "missing include/posenc_config.h"
if [ -e "$tmp/prefix/lib/libposenc_config.a" ]; then
    # a coverage build (make coverage) installs instrumented archives
    mextra=$extra
    nm "$tmp/prefix/lib/libposenc_config.a" 2>/dev/null | grep -q __gcov_init && mextra="$extra --coverage"
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $mextra $cflags -o "$tmp/exm" \
        tests/install/example_model.c "$tmp/prefix/lib/libposenc_config.a" \
        $(pkg-config --libs jansson) "$tmp/prefix/lib/libposenc.a" -lm -pthread \
        || fail "example_model does not build against the installed libraries"
    out=$("$tmp/exm") || fail "example_model exited with an error"
    [ "$out" = "llama4_text 48 none rope interleaved" ] || fail "example_model printed '$out'"
fi
echo "install: 1 passed, 0 failed"
