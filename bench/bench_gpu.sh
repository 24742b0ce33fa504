#!/bin/sh
# make bench-gpu: builds the extension with the virtual environment's Python
# (POSENC_VENV, or PYTHON when there is none) and runs bench/bench_gpu.py
# there (arguments passed on). Without a CUDA device it says so, status 2.
venv=${POSENC_VENV:?}
build=${POSENC_BUILD:-$(pwd)/build}
py="$venv/bin/python"
[ -x "$py" ] || py=${PYTHON:-python3}
out="$build/triton"
mkdir -p "$out"
if ! (cd python && "$py" setup.py -q build --build-base "$out/tmp" --build-lib "$out/lib") \
        >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "bench-gpu: building the extension failed (log $out/build.log)"
    exit 1
fi
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$out/lib" exec "$py" bench/bench_gpu.py "$@"
