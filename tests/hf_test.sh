#!/bin/sh
# The Hugging Face tier (make test-hf): the Python package's tests, torch
# ones included, and tests/hf/ (posenc against transformers' own running
# code), in the virtual environment POSENC_VENV that make venv makes (torch
# 2.13.0 CPU, transformers 5.23.0). Ends with "hf: X passed, Y failed[, K
# skipped]" and then the plain closing line "X passed, Y failed".
# Environment (set by the Makefile): POSENC_VENV, POSENC_BUILD, POSENC_JSON,
# POSENC_JSON_LIBS, POSENC_LDFLAGS, POSENC_SANITIZE.
venv=${POSENC_VENV:?}
build=${POSENC_BUILD:-$(pwd)/build}
py="$venv/bin/python"
if [ ! -x "$py" ] || ! "$py" -c 'import torch, transformers, numpy, pytest' >/dev/null 2>&1; then
    echo "hf: skipped: no virtual environment with torch and transformers at $venv (run: make venv)"
    echo "hf: 0 passed, 0 failed, 1 skipped"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
echo "hf: using $py (torch $("$py" -c 'import torch; print(torch.__version__)'), transformers $("$py" -c 'import transformers; print(transformers.__version__)'))"
out="$build/hf"
log="$out/build.log"
mkdir -p "$out"
if ! (cd python && "$py" setup.py -q build --build-base "$out/tmp" --build-lib "$out/lib") >"$log" 2>&1; then
    cat "$log" >&2
    echo "hf: building the extension failed (log $log)"
    echo "0 passed, 1 failed"
    exit 1
fi
junit="$out/pytest.xml"
PYTHONPATH="$out/lib" POSENC_PROGRAM="$build/posenc" "$py" -m pytest -q -p no:cacheprovider \
    --junitxml="$junit" python/tests tests/hf
rc=$?
set -- $("$py" "$(dirname "$0")/pytest_counts.py" "$junit" "$rc")
[ $# -eq 3 ] || set -- 0 1 0  # no counts: the run failed
echo "hf: $1 passed, $2 failed, $3 skipped"
echo "$1 passed, $2 failed"
[ "$2" -eq 0 ]
