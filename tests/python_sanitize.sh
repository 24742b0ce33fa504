#!/bin/sh
# The Python reproducers of positions that change under a call
# (python/tests/test_positions_safety.py: positions aliasing q, another
# thread rewriting them), with the library and the extension built under a
# sanitizer and its runtime preloaded into the (uninstrumented) interpreter.
#   sh tests/python_sanitize.sh address|thread
# Builds the library into build-pysan-$1 (make BUILD=... SANITIZE=...), the
# extension beside it, and ends "pysan-$1: X passed, Y failed[, K skipped]".
kind=${1:?address or thread}
name="pysan-$kind"
cc=${CC:-gcc}
case $kind in
address) san=1; rt=libasan.so; flags="-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
thread) san=thread; rt=libtsan.so; flags="-fsanitize=thread" ;;
*) echo "$name: unknown sanitizer '$kind'"; echo "$name: 0 passed, 1 failed"; exit 1 ;;
esac
skip() {
    echo "$name: skipped $1"
    echo "$name: 0 passed, 0 failed, 1 skipped"
    exit 0
}
runtime=$("$cc" -print-file-name=$rt)
[ -f "$runtime" ] || skip "no $rt for $cc"
# An interpreter that has NumPy and pytest and starts with the runtime
# preloaded (some builds of Python crash at once under a preloaded TSan:
# Debian's /usr/bin/python3 does not).
py=""
for p in ${PYTHON:-} /usr/bin/python3 python3; do
    command -v "$p" >/dev/null 2>&1 || continue
    if LD_PRELOAD="$runtime" ASAN_OPTIONS=detect_leaks=0 "$p" -c 'import numpy, pytest' \
            >/dev/null 2>&1; then
        py=$p
        break
    fi
done
[ -n "$py" ] || skip "no Python with NumPy and pytest that runs with $rt preloaded (apt-get install python3-numpy python3-pytest)"
echo "$name: using $py"
build="$(pwd)/build-$name"
make -s BUILD="$build" SANITIZE=$san CC="$cc" all >/dev/null || {
    echo "$name: building the library failed"; echo "$name: 0 passed, 1 failed"; exit 1; }
json=$(make -s BUILD="$build" SANITIZE=$san CC="$cc" python-config | sed -n 's/^json=//p')
json_libs=$(make -s BUILD="$build" SANITIZE=$san CC="$cc" python-config | sed -n 's/^json_libs=//p')
log="$build/python-build.log"
if ! (cd python && CC="$cc" CFLAGS="$flags" POSENC_BUILD="$build" POSENC_JSON="$json" \
        POSENC_JSON_LIBS="$json_libs" POSENC_LDFLAGS="$flags" \
        "$py" setup.py -q build --build-base "$build/python-tmp" --build-lib "$build/python") \
        >"$log" 2>&1; then
    cat "$log" >&2
    echo "$name: building the extension failed"; echo "$name: 0 passed, 1 failed"; exit 1
fi
out="$build/pytest.log"
LD_PRELOAD="$runtime" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
    PYTHONPATH="$build/python" "$py" -m pytest -q -p no:cacheprovider \
    python/tests/test_positions_safety.py >"$out" 2>&1
rc=$?
tail -n 3 "$out"
passed=$(grep -oE '[0-9]+ passed' "$out" | tail -n 1 | cut -d' ' -f1)
if [ "$rc" -ne 0 ] || grep -q 'Sanitizer' "$out"; then
    grep -m 20 -E 'Sanitizer|ERROR|WARNING' "$out"
    echo "$name: ${passed:-0} passed, 1 failed"
    exit 1
fi
echo "$name: ${passed:-0} passed, 0 failed"
