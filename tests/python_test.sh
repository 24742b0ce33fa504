#!/bin/sh
# The Python package's tests for make test: builds the extension in-tree
# (BUILD/python), runs pytest on python/tests and ends, like every part of
# the suite, with "python: X passed, Y failed[, K skipped]" (pytest's errors
# count as failures). Without a Python that has NumPy, pytest, mpmath and
# its C headers, one line says what to install and the part counts as
# skipped; without torch, the torch tests are skipped the same way.
#   sh tests/python_test.sh [--build-only]
# Environment (set by the Makefile): PYTHON, POSENC_BUILD, POSENC_JSON,
# POSENC_JSON_LIBS, POSENC_LDFLAGS, POSENC_SANITIZE.
build=${POSENC_BUILD:-$(pwd)/build}
py=${PYTHON:-}
pkgs="python3-numpy python3-pytest python3-mpmath python3-dev python3-setuptools"
skip() { # $1: what; $2: packages
    echo "python: skipped $1 (apt-get install $2)"
    echo "python: 0 passed, 0 failed, 1 skipped"
    exit 0
}
[ -n "$py" ] && "$py" -c 'import numpy' >/dev/null 2>&1 || skip "the Python package: no Python with NumPy" "$pkgs"
"$py" -c 'import sysconfig, os, sys, setuptools
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    >/dev/null 2>&1 || skip "the Python package: no C headers or setuptools for $py" "$pkgs"

if [ "$1" != "--build-only" ] && [ "$POSENC_SANITIZE" = "1" ]; then
    # An extension with AddressSanitizer in it does not load into a plain
    # interpreter; plain make test runs these tests.
    echo "python: not run under SANITIZE=1 (the interpreter has no ASan runtime)"
    echo "python: 0 passed, 0 failed, 1 skipped"
    exit 0
fi

log="$build/python-build.log"
mkdir -p "$build"
if ! (cd python && "$py" setup.py -q build --build-base "$build/python-tmp" \
        --build-lib "$build/python") >"$log" 2>&1; then
    cat "$log" >&2
    echo "python: building the extension failed (log $log)"
    echo "python: 0 passed, 1 failed"
    exit 1
fi
if grep -E '\.[ch]:[0-9]+:[0-9]+: warning:' "$log" >&2; then
    echo "python: the extension compiled with warnings (log $log)"
    echo "python: 0 passed, 1 failed"
    exit 1
fi
if [ "$1" = "--build-only" ]; then
    echo "python: built $build/python/posenc (use PYTHONPATH=$build/python)"
    exit 0
fi

"$py" -c 'import sys, numpy
print("python: using", sys.executable, "(Python", sys.version.split()[0] + ", NumPy",
      numpy.__version__ + ")", file=sys.stderr)'  # make test shows stderr
"$py" -c 'import pytest, mpmath' >/dev/null 2>&1 || skip "the Python tests: no pytest or mpmath for $py" "$pkgs"
# posenc.torch needs torch >= 2.4 (Debian's python3-torch is 1.13): the
# torch tests run here only with such a torch; make venv && make test-hf runs
# them in build/venv (torch 2.13.0, transformers 5.23.0)
torch_version=$("$py" -c 'import torch; print(torch.__version__)' 2>/dev/null)
if [ -z "$torch_version" ]; then
    echo "python: skipped the torch tests: no torch for $py (make venv && make test-hf runs them)"
elif ! "$py" -c 'import sys, torch; v = torch.__version__.split("+")[0].split("."); sys.exit(0 if (int(v[0]), int(v[1])) >= (2, 4) else 1)' >/dev/null 2>&1; then
    echo "python: skipped the torch tests: torch $torch_version is older than posenc.torch needs (2.4; make venv && make test-hf runs them)"
fi

out="$build/python-pytest.log"
PYTHONPATH="$build/python" "$py" -m pytest -q -rN -p no:cacheprovider python/tests >"$out" 2>&1
rc=$?
summary=$(tail -n 1 "$out")
num() { printf '%s\n' "$summary" | sed -n "s/.*[^0-9]\([0-9][0-9]*\) $1.*/\1/p;s/^\([0-9][0-9]*\) $1.*/\1/p" | head -n 1; }
passed=$(num passed)
failed=$(num failed)
errors=$(num error)
skipped=$(num skipped)
failed=$(( ${failed:-0} + ${errors:-0} ))
passed=${passed:-0}
skipped=${skipped:-0}
# rc 0: all passed; 1: some failed; 5: no tests collected (not a failure of
# the suite by itself, but nothing ran: count it as a skip). Anything else
# (an internal or usage error) is a failure.
case $rc in
0 | 1) ;;
5) skipped=$((skipped + 1)) ;;
*) failed=$((failed + 1)) ;;
esac
if [ "$rc" = 1 ] && [ "$failed" -eq 0 ]; then failed=1; fi
[ "$failed" -gt 0 ] && cat "$out" >&2
if [ "$skipped" -gt 0 ]; then
    echo "python: $passed passed, $failed failed, $skipped skipped"
else
    echo "python: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
