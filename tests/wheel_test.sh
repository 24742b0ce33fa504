#!/bin/sh
# make test-wheel: the package as a user installs it. A fresh clone of HEAD
# (committed files only), `pip wheel` of its python/ (out of tree: the clone's
# python/ must be left as it was), the wheel installed into a fresh virtual
# environment (--system-site-packages, for NumPy, pytest, mpmath and torch
# when the base Python has them), and the package's tests run there against
# the installed copy. Ends "wheel: X passed, Y failed" and the plain closing
# line "X passed, Y failed".
# Environment (set by the Makefile): PYTHON (the base interpreter, with NumPy,
# pytest and mpmath), POSENC_BUILD.
set -u
build=${POSENC_BUILD:-$(pwd)/build}
py=${PYTHON:?}
work="$build/wheel"
fail() { echo "wheel: $1"; echo "wheel: 0 passed, 1 failed"; echo "0 passed, 1 failed"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
git clone -q --no-local . "$work/clone" || fail "git clone of HEAD failed"
echo "wheel: building from a fresh clone of $(git rev-parse --short HEAD) (uncommitted changes are not in it)"
# offline with the base Python's setuptools when it can make wheels (setuptools
# >= 70.1, or the wheel package); else pip's isolated build (the package index)
iso=--no-build-isolation
"$py" -c 'import setuptools.command.bdist_wheel' >/dev/null 2>&1 ||
    "$py" -c 'import wheel' >/dev/null 2>&1 || {
    iso=
    echo "wheel: $py's setuptools cannot make wheels: pip's isolated build (needs the package index)"
}
# as a user runs it: none of the Makefile's POSENC_* settings (setup.py then
# builds the clone's own libraries with its Makefile)
(cd "$work/clone/python" && env -u POSENC_BUILD -u POSENC_JSON -u POSENC_JSON_LIBS \
    -u POSENC_LDFLAGS -u POSENC_SANITIZE "$py" -m pip wheel -q $iso --no-deps -w "$work/dist" .) \
    >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "pip wheel failed (log $work/build.log)"; }
whl=$(ls "$work"/dist/posenc-*.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || fail "no wheel in $work/dist"
echo "wheel: built ${whl##*/}"
left=$(cd "$work/clone" && git status --porcelain --ignored python)
[ -z "$left" ] || fail "pip wheel wrote into the source tree: $left"
"$py" -m venv --system-site-packages "$work/venv" || fail "python -m venv failed"
"$work/venv/bin/python" -m pip install -q --no-deps --no-index "$whl" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "pip install of the wheel failed"; }
# the tests must import the installed package, not a source tree
mkdir -p "$work/run"
where=$(cd "$work/run" && "$work/venv/bin/python" -c 'import posenc; print(posenc.__file__)')
case $where in "$work/venv/"*) ;; *) fail "posenc imported from $where, not the venv" ;; esac
(cd "$work/run" && "$work/venv/bin/python" -c 'import posenc, os
assert posenc.__version__ == posenc.library_version, posenc.__version__
assert os.path.exists(os.path.join(os.path.dirname(posenc.__file__), "py.typed"))') ||
    fail "the installed package has no py.typed or the wrong version"
(cd "$work/run" && POSENC_EXPECT_INSTALLED="$work/venv" "$work/venv/bin/python" -m pytest -q \
    -p no:cacheprovider --junitxml="$work/pytest.xml" "$work/clone/python/tests") \
    >"$work/pytest.log" 2>&1
rc=$?
tail -n 3 "$work/pytest.log"
set -- $("$py" "$(dirname "$0")/pytest_counts.py" "$work/pytest.xml" "$rc")
[ $# -eq 3 ] || set -- 0 1 0  # no counts: the run failed
echo "wheel: $1 passed, $2 failed, $3 skipped"
echo "$1 passed, $2 failed"
[ "$2" -eq 0 ]
