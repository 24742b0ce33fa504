#!/bin/sh
# The Triton tier (make test-triton): posenc.triton's kernels run by Triton's
# interpreter (TRITON_INTERPRET=1) on CPU tensors, against mpmath and the
# library's CPU path (tests/triton/). Needs a virtual environment POSENC_VENV
# with torch, triton, mpmath and pytest (make venv). Ends with
# "triton: X passed, Y failed[, K skipped]" and the plain closing line.
# Environment (set by the Makefile): POSENC_VENV, POSENC_BUILD, POSENC_JSON,
# POSENC_JSON_LIBS, POSENC_LDFLAGS, POSENC_SANITIZE.
venv=${POSENC_VENV:?}
build=${POSENC_BUILD:-$(pwd)/build}
py="$venv/bin/python"
if [ ! -x "$py" ] || ! "$py" -c 'import torch, triton, mpmath, numpy, pytest' >/dev/null 2>&1; then
    echo "triton: skipped: no virtual environment with torch, triton, mpmath and pytest at $venv (run: make venv)"
    echo "triton: 0 passed, 0 failed, 1 skipped"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
echo "triton: using $py (torch $("$py" -c 'import torch; print(torch.__version__)'), triton $("$py" -c 'import triton; print(triton.__version__)'), interpreter)"
out="$build/triton"
log="$out/build.log"
mkdir -p "$out"
if ! (cd python && "$py" setup.py -q build --build-base "$out/tmp" --build-lib "$out/lib") >"$log" 2>&1; then
    cat "$log" >&2
    echo "triton: building the extension failed (log $log)"
    echo "0 passed, 1 failed"
    exit 1
fi
junit="$out/pytest.xml"
TRITON_INTERPRET=1 PYTHONPATH="$out/lib" "$py" -m pytest -q -p no:cacheprovider \
    --junitxml="$junit" tests/triton
rc=$?
set -- $("$py" "$(dirname "$0")/pytest_counts.py" "$junit" "$rc")
[ $# -eq 3 ] || set -- 0 1 0  # no counts: the run failed
echo "triton: $1 passed, $2 failed, $3 skipped"
echo "$1 passed, $2 failed"
[ "$2" -eq 0 ]
