"""posenc.check and posenc.testing.assert_rope_close: dumps made here from the
real config fixtures (tests/data). The engine is written here in NumPy, in
float64 from mpmath-free closed forms (cos/sin of pos * inv_freq, inv_freq
from the config's published formula), exact or with one mistake planted."""
import numpy as np
import pytest

import posenc
from posenc.testing import assert_rope_close

from conftest import data

pytestmark = pytest.mark.skipif(not posenc.have_config_reader(),
                                reason="posenc.check reads configs (libjansson-dev)")

LLAMA2 = data("llama-2-7b.json")  # head_dim 128, base 10000, half layout, no scaling


def engine(x, pos, base=10000.0, offset=0, sign=1.0, interleaved=False, f32_angle=False):
    """Plain RoPE of x [n_tok, n_head, 128] in float64: inv_freq = base^(-2k/d)."""
    d = x.shape[-1]
    inv = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    if f32_angle:  # Hugging Face's float32 formula
        th = (inv.astype(np.float32)[None, :] * pos.astype(np.float32)[:, None]).astype(np.float64)
    else:
        th = (pos[:, None] + offset) * inv[None, :]
    c, s = np.cos(th)[:, None, :], sign * np.sin(th)[:, None, :]
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        y = np.empty_like(x)
        y[..., 0::2], y[..., 1::2] = a * c - b * s, a * s + b * c
        return y
    a, b = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([a * c - b * s, a * s + b * c], axis=-1)


def dump(n_tok=40, n_head=2, max_pos=5000, seed=0):
    rng = np.random.default_rng(seed)
    pos = np.concatenate([np.arange(16), np.linspace(16, max_pos, n_tok - 16).astype(np.int64)])
    x = rng.uniform(-1, 1, (n_tok, n_head, 128)).astype(np.float32)
    return x, pos


def test_exact_matches_in_f32_and_f16():
    x, pos = dump()
    y = engine(x.astype(np.float64), pos).astype(np.float32)
    r = posenc.check(x, y, pos, config=LLAMA2)
    assert r.match and r.dtype == "F32" and r.max_ulp <= 1.0 and not r.causes
    assert r.bands[0][:3] == (0, 15, 16)
    x16 = x.astype(np.float16)
    y16 = engine(x16.astype(np.float64), pos).astype(np.float16)
    r = posenc.check(x16, y16, pos, config=LLAMA2)
    assert r.match and r.dtype == "F16"
    assert "CHECK verdict=match dtype=F16 n_tok=40 n_head=2" in str(r)


@pytest.mark.parametrize("kw, name, params", [
    (dict(offset=1), "position-offset", {"c": "1"}),
    (dict(base=500000.0), "base", {"base": "500000"}),
    (dict(sign=-1.0), "direction", {}),
    (dict(interleaved=True), "layout-swapped", {"layout": "interleaved"}),
])
def test_planted_cause_is_named_first(kw, name, params):
    x, pos = dump()
    y = engine(x.astype(np.float64), pos, **kw).astype(np.float32)
    r = posenc.check(x, y, pos, config=LLAMA2)
    assert not r.match
    assert r.cause.name == name and r.cause.params == params
    assert r.cause.fit_ulp <= r.tol_ulp
    with pytest.raises(AssertionError, match=f"CAUSE name={name} "):
        assert_rope_close(x, y, pos, config=LLAMA2)


def test_float32_angles_are_angle_precision_with_an_onset():
    x, pos = dump(max_pos=1_000_000)
    y = engine(x.astype(np.float64), pos, f32_angle=True).astype(np.float32)
    r = posenc.check(x, y, pos, config=LLAMA2)
    assert not r.match and r.cause.name == "angle-precision"
    onset = int(r.cause.params["onset"])
    assert 0 < onset <= 1_000_000
    # every band below the onset is within tolerance, the band of the onset is not
    for lo, hi, n, u, a in r.bands:
        if hi < onset:
            assert u <= r.tol_ulp
        if lo <= onset <= hi:
            assert u > r.tol_ulp


def test_nothing_fits_says_none():
    x, pos = dump()
    y = engine(x.astype(np.float64), pos, base=12345.0, offset=5).astype(np.float32)
    r = posenc.check(x, y, pos, config=LLAMA2)
    assert not r.match and r.causes == []
    with pytest.raises(AssertionError, match="CAUSE name=none"):
        assert_rope_close(x, y, pos, config=LLAMA2)


def test_shapes_and_errors():
    x, pos = dump(n_head=1)
    y = engine(x.astype(np.float64), pos).astype(np.float32)
    assert posenc.check(x[:, 0], y[:, 0], pos, config=LLAMA2).match  # [n_tok, head_dim]
    hf = y.transpose(1, 0, 2)[None]  # [1, n_head, n_tok, head_dim]
    assert posenc.check(x.transpose(1, 0, 2)[None], hf, pos, config=LLAMA2).match
    with pytest.raises(ValueError, match="positions"):
        posenc.check(x, y, pos[:-1], config=LLAMA2)
    with pytest.raises(ValueError, match="head_dim"):
        posenc.check(x[..., :64], y[..., :64], pos, config=LLAMA2)
    with pytest.raises(ValueError, match="dtype"):
        posenc.check(x, y, pos, config=LLAMA2, dtype="F8")


def test_tables_half_width_and_layout_mixed():
    pos = np.arange(40)
    d = 128
    inv = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    th = pos[:, None] * inv[None, :]
    r = posenc.check(np.cos(th).astype(np.float32), np.sin(th).astype(np.float32), pos,
                     config=LLAMA2, tables=True)
    assert r.match and r.n_head == 1
    # full width: Llama's half layout repeats as cat(freqs, freqs); repeat_interleave is
    # the table of the other layout
    good = np.concatenate([th, th], axis=1)
    wrong = np.repeat(th, 2, axis=1)
    assert posenc.check(np.cos(good), np.sin(good), pos, config=LLAMA2, tables=True).match
    r = posenc.check(np.cos(wrong), np.sin(wrong), pos, config=LLAMA2, tables=True)
    assert not r.match and r.cause.name == "layout-mixed"
    assert r.cause.params == {"table": "interleaved", "pairs": "half"}
