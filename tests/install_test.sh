#!/bin/sh
# Installs into a temporary prefix, then builds a small C program against it
# as a user would (tests/install/example.c): with pkg-config when there is
# one, else with -I/-L; linked dynamically with an rpath (it must start
# without LD_LIBRARY_PATH), dynamically with LD_LIBRARY_PATH, and statically.
# Checks what it prints (the lesson's trace PE(2) for D = 4, a RoPE rotation,
# the version), the soname, and that the installed files are stripped.
build=${1:-build}
cc=${2:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=${POSENC_TEST_LDFLAGS:-} # what the build's objects need to link (sanitizers, coverage)
fail() { echo "install: $*" >&2; echo "install: 0 passed, 1 failed"; exit 1; }

make -s install PREFIX="$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "make install failed"; }
prefix=$tmp/prefix
for f in include/posenc.h lib/libposenc.a lib/libposenc.so lib/pkgconfig/posenc.pc bin/posenc share/man/man1/posenc.1; do
    [ -e "$prefix/$f" ] || fail "missing $f"
done

cflags="-I$prefix/include"
libs="-L$prefix/lib -lposenc"
static_libs="$prefix/lib/libposenc.a -lm -pthread"
if command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    cflags=$(${PKG_CONFIG:-pkg-config} --cflags posenc) || fail "pkg-config does not know posenc"
    libs=$(${PKG_CONFIG:-pkg-config} --libs posenc)
    static_libs=$(echo $(${PKG_CONFIG:-pkg-config} --static --libs posenc))
    [ "$static_libs" = "-L$prefix/lib -lposenc -lm -pthread" ] ||
        fail "pkg-config --static --libs posenc: $static_libs"
    static_libs="-L$prefix/lib -Wl,-Bstatic -lposenc -Wl,-Bdynamic -lm -pthread"
fi
want="0.9093 -0.4161 0.0200 0.9998
0.5403 0.8415
3.0.0"
build_run() { # name, then the link words; runs the result without LD_LIBRARY_PATH
    name=$1
    shift
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $extra $cflags -o "$tmp/$name" \
        tests/install/example.c "$@" -lm || fail "example ($name) does not build against the installed library"
    out=$(env -u LD_LIBRARY_PATH "$tmp/$name") || fail "example ($name) exited with an error"
    [ "$out" = "$want" ] || fail "example ($name) printed '$out'"
}
# shellcheck disable=SC2086
build_run rpath $libs "-Wl,-rpath,$prefix/lib"
# shellcheck disable=SC2086
build_run static $static_libs
ldd "$tmp/static" 2>/dev/null | grep -q libposenc && fail "the static example needs libposenc.so"
# shellcheck disable=SC2086
"$cc" $extra $cflags -o "$tmp/plain" tests/install/example.c $libs -lm || fail "example (plain) does not build"
out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/plain") || fail "example with LD_LIBRARY_PATH exited with an error"
[ "$out" = "$want" ] || fail "example with LD_LIBRARY_PATH printed '$out'"

# The shared library exports only posenc_ names and carries its soname.
soname=$(objdump -p "$prefix/lib/libposenc.so" 2>/dev/null | awk '/SONAME/ {print $2}')
[ -z "$soname" ] || [ "$soname" = "libposenc.so.3" ] || fail "soname is $soname"
# Installed stripped: no debug sections in the libraries or the program.
if command -v objdump >/dev/null 2>&1; then
    for f in lib/libposenc.a lib/libposenc.so bin/posenc; do
        objdump -h "$prefix/$f" 2>/dev/null | grep -q '\.debug_' && fail "$f carries debug information"
    done
fi
"$prefix/bin/posenc" -c 'PE 2 4' | grep -q '^0.9093 -0.4161 0.0200 0.9998$' || fail "installed program"
# With the config reader (jansson builds) its header and library are
# installed, and a program reads a model through the registry.
if [ -e "$prefix/lib/libposenc_config.a" ]; then
    [ -e "$prefix/include/posenc_config.h" ] || fail "missing include/posenc_config.h"
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $extra $cflags -o "$tmp/exm" \
        tests/install/example_model.c "$prefix/lib/libposenc_config.a" \
        $(${PKG_CONFIG:-pkg-config} --libs jansson 2>/dev/null || echo -ljansson) "$prefix/lib/libposenc.a" -lm -pthread \
        || fail "example_model does not build against the installed libraries"
    out=$(env -u LD_LIBRARY_PATH "$tmp/exm") || fail "example_model exited with an error"
    [ "$out" = "llama4_text 48 none rope interleaved" ] || fail "example_model printed '$out'"
    # examples/rope_from_config.c, built as its comment says (pkg-config
    # posenc-config: -lposenc_config -ljansson -lposenc -lm), run on Llama
    # 3.1's config, its numbers against an independent reference in awk
    if command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1; then
        [ -e "$prefix/lib/pkgconfig/posenc-config.pc" ] || fail "missing lib/pkgconfig/posenc-config.pc"
        # shellcheck disable=SC2046,SC2086
        "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $extra -o "$tmp/rfc" examples/rope_from_config.c \
            $(${PKG_CONFIG:-pkg-config} --cflags --libs posenc-config) "-Wl,-rpath,$prefix/lib" \
            || fail "examples/rope_from_config.c does not build with pkg-config posenc-config"
        env -u LD_LIBRARY_PATH "$tmp/rfc" tests/data/llama-3.1-8b.json 0 4096 >"$tmp/rfc.out" \
            || fail "rope_from_config exited with an error"
        head -n 1 "$tmp/rfc.out" | grep -q '^layer 0 of llama: layout=half head_dim=128 rotary_dim=128 base=500000 ' \
            || fail "rope_from_config printed '$(head -n 1 "$tmp/rfc.out")'"
        awk -v base=500000 -v factor=8 -v low=1 -v high=4 -v orig=8192 -v d=128 \
            -f tests/install/rope_reference.awk "$tmp/rfc.out" >"$tmp/rfc.ref" \
            || fail "rope_from_config against the reference: $(cat "$tmp/rfc.ref")"
    fi
fi
echo "install: 1 passed, 0 failed"
