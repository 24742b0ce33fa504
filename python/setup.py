"""Builds posenc._core, the C extension, against the repository's static library.

The extension links build/libposenc.a (and build/libposenc_config.a plus
jansson when the library was built with its config reader), so the installed
module needs no shared library path.

Run from the repository (the library is built by its Makefile first):
    pip install --no-build-isolation ./python       (Debian: python3-pip)
    pip wheel --no-build-isolation --no-deps ./python   (a wheel; make test-wheel)
    make python                                     (in-tree, build/python)
Environment: POSENC_BUILD (the Makefile's build directory; given by `make
python`, which then has already built the libraries), POSENC_JSON and
POSENC_JSON_LIBS (the config reader's switch and link words), POSENC_LDFLAGS
(extra link flags, e.g. --coverage).
"""
import os
import re
import shlex
import subprocess
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def library_version():
    """MAJOR.MINOR.PATCH from include/posenc.h: the package has the library's version."""
    text = (ROOT / "include" / "posenc.h").read_text()
    parts = [re.search(rf"#define POSENC_VERSION_{p}\s+(\d+)", text) for p in
             ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise SystemExit("posenc: no POSENC_VERSION_MAJOR/MINOR/PATCH in include/posenc.h")
    return ".".join(m.group(1) for m in parts)


def make_config():
    """(build dir, json on, json link words) from the Makefile, building the libraries."""
    build = os.environ.get("POSENC_BUILD")
    if build:
        return (Path(build), os.environ.get("POSENC_JSON") == "1",
                shlex.split(os.environ.get("POSENC_JSON_LIBS", "")))
    if not (ROOT / "Makefile").exists() or not (ROOT / "include" / "posenc.h").exists():
        raise SystemExit("posenc: build the Python package from the posenc repository "
                         "(pip install --no-build-isolation ./python)")
    subprocess.check_call(["make", "-C", str(ROOT), "--no-print-directory", "python-libs"])
    out = subprocess.check_output(["make", "-s", "-C", str(ROOT), "--no-print-directory",
                                   "python-config"], text=True)
    conf = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return (Path(conf["build"]) if os.path.isabs(conf["build"]) else ROOT / conf["build"],
            conf.get("json") == "1", shlex.split(conf.get("json_libs", "")))


build, json_on, json_libs = make_config()
objects = [str(build / "libposenc.a")]
macros = []
if json_on:
    objects.insert(0, str(build / "libposenc_config.a"))
    macros.append(("POSENC_HAVE_JSON", "1"))

# The C sources are laid out by type in c-ext/ (c-ext/pyposenc.h says which
# file holds what); calls.c is the only one that calls the library.
CEXT = ["args", "buffers", "dlpack", "rope", "cache", "learned", "module", "calls"]
HEADERS = ["c-ext/pyposenc.h", "c-ext/calls.h", "c-ext/dlpack.h"]

ext = Extension(
    "posenc._core",
    sources=[f"c-ext/{name}.c" for name in CEXT],
    include_dirs=[str(ROOT / "include"), "c-ext"],
    define_macros=macros,
    extra_objects=objects,
    libraries=[],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-ffp-contract=off"],
    extra_link_args=json_libs + ["-lm", "-pthread"] +
    shlex.split(os.environ.get("POSENC_LDFLAGS", "")),
    depends=objects + HEADERS + [str(ROOT / "include" / "posenc.h")],
)

def small_module(name, source, header):
    """An extension module of its own beside posenc._core: its C file and the
    one door to the library (calls.c), linked like _core."""
    return Extension(
        name,
        sources=[source, "c-ext/calls.c"],
        include_dirs=[str(ROOT / "include"), "c-ext"],
        define_macros=macros,
        extra_objects=objects,
        extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-ffp-contract=off"],
        extra_link_args=json_libs + ["-lm", "-pthread"] +
        shlex.split(os.environ.get("POSENC_LDFLAGS", "")),
        depends=objects + ["c-ext/calls.h", str(ROOT / "include" / header)],
    )


# posenc._check: the RoPE check (posenc.check, posenc.testing), its own module.
check_ext = small_module("posenc._check", "c-ext/check.c", "posenc_check.h")
# posenc._schemes: a config's sinusoid tables and relative buckets
# (posenc.schemes), its own module.
schemes_ext = small_module("posenc._schemes", "c-ext/schemes.c", "posenc_model.h")

os.chdir(HERE)
# Out of tree: setuptools' scratch (build/, *.egg-info) goes to the
# repository's ignored build directory (POSENC_SCRATCH to choose another;
# make python passes --build-base), so `pip wheel ./python` leaves python/
# as it was.
scratch = Path(os.environ.get("POSENC_SCRATCH") or (build / "pip"))
scratch.mkdir(parents=True, exist_ok=True)
setup(version=library_version(), packages=["posenc"], ext_modules=[ext, check_ext, schemes_ext],
      package_data={"posenc": ["py.typed"]},
      options={"build": {"build_base": str(scratch / "build")},
               "egg_info": {"egg_base": str(scratch)}})
