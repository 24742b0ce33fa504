"""The extensions' structure: C sources laid out by type in python/c-ext/,
every call into the C library in calls.c (the one door, also for check.c),
and every line that calls torch in posenc/torch.py."""
import os
import re

from conftest import ROOT

SRC = os.path.join(ROOT, "python", "posenc")
CEXT = os.path.join(ROOT, "python", "c-ext")


def _code(path):
    """The C text of path without comments and strings (they may name functions)."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def test_only_calls_c_calls_the_library():
    names = sorted(os.listdir(CEXT))
    assert "calls.c" in names and "check.c" in names and "rope.c" in names
    for name in names:
        if not name.endswith(".c") or name == "calls.c":
            continue
        calls = sorted(set(re.findall(r"\bposenc_[a-z0-9_]+(?=\s*\()", _code(os.path.join(CEXT, name)))))
        assert calls == [], f"{name} calls the library directly: {calls}"
    with open(os.path.join(CEXT, "calls.c")) as f:
        calls_c = f.read()
    assert "posenc_rope_qk(" in calls_c and '#include "calls.h"' in calls_c
    assert not [n for n in os.listdir(SRC) if n.endswith((".c", ".h"))]


def test_only_the_public_headers_are_used():
    own = {"calls.h", "dlpack.h", "pyposenc.h"}
    public = {"posenc.h", "posenc_model.h", "posenc_config.h", "posenc_check.h"}
    system = {"Python.h", "stddef.h", "stdint.h", "stdlib.h", "string.h", "stdio.h"}
    for name in os.listdir(CEXT):
        with open(os.path.join(CEXT, name)) as f:
            includes = re.findall(r'#include\s+[<"]([^>"]+)[>"]', f.read())
        assert not [i for i in includes if i not in own | public | system], (name, includes)


def test_torch_is_called_in_torch_py_only():
    # torch.py: every call of torch by posenc; triton.py: the optional Triton
    # kernels (posenc.triton), which are torch tensors' GPU path by nature
    for name in os.listdir(SRC):
        if name.endswith(".py") and name not in ("torch.py", "triton.py"):
            with open(os.path.join(SRC, name)) as f:
                text = f.read()
            assert not re.search(r"^\s*(import torch|from torch)|\btorch\.(from_numpy|"
                                 r"empty|no_grad|arange|cat|stack)", text, flags=re.M), name


def test_the_package_under_test_is_the_one_expected():
    # make test-wheel sets POSENC_EXPECT_INSTALLED to its venv: the tests must
    # run against the installed wheel, never a source tree on sys.path
    import posenc

    want = os.environ.get("POSENC_EXPECT_INSTALLED")
    if want:
        assert os.path.realpath(posenc.__file__).startswith(os.path.realpath(want))
    assert posenc.__version__ == posenc.library_version
    assert "np" not in dir(posenc) and "json" not in dir(posenc) and "RoPE" in dir(posenc)


def test_importing_unbuilt_sources_says_what_to_do(tmp_path):
    # python/ itself on sys.path (running from inside the source directory): the
    # sources are there, the extension is not; the message says so
    import shutil
    import subprocess
    import sys

    pkg = tmp_path / "posenc"
    pkg.mkdir()
    for name in os.listdir(SRC):
        if name.endswith(".py"):
            shutil.copy(os.path.join(SRC, name), pkg / name)
    r = subprocess.run([sys.executable, "-c", "import posenc"], cwd=tmp_path,
                       capture_output=True, text=True, env={"PATH": os.environ.get("PATH", "")})
    assert r.returncode != 0
    assert "posenc._core is not built" in r.stderr and "circular" not in r.stderr
