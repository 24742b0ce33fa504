"""Shared helpers of the posenc Python tests: paths, the golden files, and an
independent reference in mpmath (never the library)."""
import os

import mpmath
import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "tests", "data")

mpmath.mp.dps = 60


def data(name):
    return os.path.join(DATA, name)


# ---- the reference -----------------------------------------------------------


def mp_inv_freq(k, d, base):
    """base^(-2k/d) in 60 digits."""
    return mpmath.mpf(base) ** (-mpmath.mpf(2 * k) / d)


def mp_cos_sin(pos, f, a=1):
    """a cos(pos f), a sin(pos f) in 60 digits (f an mpf)."""
    t = mpmath.mpf(pos) * f
    return mpmath.mpf(a) * mpmath.cos(t), mpmath.mpf(a) * mpmath.sin(t)


def f32_tol(exact):
    """posenc.h's float contract: 1 ulp, or 2^-25 absolute where |value| < 1/4."""
    x = abs(float(exact))
    return max(float(np.spacing(np.float32(x))), 2.0 ** -25 if x < 0.25 else 0.0)


def rotate_ref(x, c, s, layout, rotary_dim):
    """A head rotated by float64 (or float32) cos/sin rows c[k], s[k] with the
    library's formula and rounding order: x' = x c - y s, y' = x s + y c, in
    x's dtype, each product and sum rounded (NumPy has no FMA here)."""
    x = np.array(x, copy=True)
    P = rotary_dim // 2
    if layout == "half":
        i0 = np.arange(P)
        i1 = i0 + P
    else:
        i0 = 2 * np.arange(P)
        i1 = i0 + 1
    a = x[..., i0].copy()
    b = x[..., i1].copy()
    x[..., i0] = (a * c) - (b * s)
    x[..., i1] = (a * s) + (b * c)
    return x


def bf16_to_f32(u16):
    return (np.asarray(u16, np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(a):
    """Round to nearest even (an independent copy of the rule)."""
    b = np.ascontiguousarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


# ---- tests/data/rope_golden.txt ----------------------------------------------------


def read_rope_golden():
    """Every case of the C library's golden file, checked for magic and total."""
    path = data("rope_golden.txt")
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0] == "posenc-rope-golden 1", "bad magic"
    cases, c, total = [], None, None
    it = iter(lines[1:])
    for line in it:
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "case":
            c = {"name": rest, "freqs": [], "rot": [], "params": {}}
        elif key == "total":
            total = int(rest)
        elif key == "end":
            cases.append(c)
            c = None
        elif key == "freqs":
            for _ in range(int(rest)):
                k, hi, lo = next(it).split()
                c["freqs"].append((float(hi), float(lo)))
        elif key == "rot":
            pos, k, cc, ss = rest.split()
            c["rot"].append((int(pos), int(k), float(cc), float(ss)))
        elif key == "attn":
            c["attn"] = tuple(float(v) for v in rest.split())
        elif key in ("source", "type", "layout"):
            c[key] = rest
        elif key in ("head_dim", "rotary_dim", "cur_len", "truncate"):
            c[key] = int(rest)
        elif key in ("short_factor", "long_factor", "freq_factors"):
            v = rest.split()
            assert int(v[0]) == len(v) - 1
            c["params"][key] = [float(x) for x in v[1:]]
        else:
            c["params"][key] = float(rest)
    assert total == len(cases) and c is None, "golden file not consumed whole"
    return cases


GOLDEN = read_rope_golden()


@pytest.fixture(scope="session")
def golden_cases():
    return GOLDEN
