"""The extension's structure: every call into the C library is in _calls.c."""
import os
import re

from conftest import ROOT

SRC = os.path.join(ROOT, "python", "posenc")


def test_core_calls_the_library_only_through_calls_c():
    with open(os.path.join(SRC, "_core.c")) as f:
        core = f.read()
    core = re.sub(r"/\*.*?\*/", "", core, flags=re.S)  # comments and strings may name them
    core = re.sub(r'"(\\.|[^"\\])*"', '""', core)
    calls = sorted(set(re.findall(r"\bposenc_[a-z0-9_]+(?=\s*\()", core)))
    assert calls == [], f"_core.c calls the library directly: {calls}"
    with open(os.path.join(SRC, "_calls.c")) as f:
        calls_c = f.read()
    assert "posenc_rope_qk(" in calls_c and '#include "_calls.h"' in calls_c


def test_only_the_public_header_is_used():
    for name in ("_core.c", "_calls.c", "_calls.h", "_dlpack.h"):
        with open(os.path.join(SRC, name)) as f:
            includes = re.findall(r'#include\s+[<"]([^>"]+)[>"]', f.read())
        assert not [i for i in includes if i.startswith("src/") or
                    (i.endswith(".h") and i not in ("posenc.h", "posenc_model.h", "posenc_config.h", "_calls.h", "_dlpack.h",
                                                    "Python.h",
                                                    "stddef.h", "stdint.h", "stdlib.h",
                                                    "string.h", "stdio.h"))], (name, includes)


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
