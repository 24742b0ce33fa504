"""Sinusoid tables, ALiBi and learned tables from NumPy."""
import mpmath
import numpy as np
import pytest

import posenc
from conftest import data, f32_to_bf16, f32_tol, mp_inv_freq


def test_sinusoid_lesson_trace():
    pe = posenc.sinusoid(3, 4, dtype=np.float64)
    assert pe.shape == (3, 4) and pe.dtype == np.float64
    assert np.round(pe[2], 4).tolist() == [0.9093, -0.4161, 0.02, 0.9998]


@pytest.mark.parametrize("d,base,pos0", [(64, 10000.0, 0), (7, 100.0, 1000000), (128, 1e6, 2**31 - 3)])
def test_sinusoid_against_mpmath(d, base, pos0):
    n = 3
    t32 = posenc.sinusoid(n, d, base=base, pos0=pos0)
    t64 = posenc.sinusoid(n, d, base=base, pos0=pos0, dtype=np.float64)
    assert t32.dtype == np.float32 and t32.shape == (n, d)
    for t in range(n):
        for i in range(d):
            k = i // 2
            ang = mpmath.mpf(pos0 + t) * mp_inv_freq(k, d, base)
            exact = mpmath.sin(ang) if i % 2 == 0 else mpmath.cos(ang)
            assert abs(float(t32[t, i]) - float(exact)) <= f32_tol(exact)
            assert abs(t64[t, i] - float(exact)) <= 2 * np.spacing(abs(float(exact))) + 2.0 ** -60


def test_sinusoid_dtypes_and_out():
    t32 = posenc.sinusoid(5, 8, pos0=3)
    assert np.array_equal(posenc.sinusoid(5, 8, pos0=3, dtype=np.float16), t32.astype(np.float16))
    assert np.array_equal(posenc.sinusoid(5, 8, pos0=3, dtype="bfloat16"), f32_to_bf16(t32))
    out = np.full((5, 8), 7.0, np.float32)
    ptr = out.ctypes.data
    assert posenc.sinusoid(5, 8, pos0=3, out=out) is out and out.ctypes.data == ptr
    assert np.array_equal(out, t32)
    big = np.zeros((5, 16), np.float32)  # a strided out: filled through a copy
    posenc.sinusoid(5, 8, pos0=3, out=big[:, ::2])
    assert np.array_equal(big[:, ::2], t32) and not big[:, 1::2].any()
    with pytest.raises(ValueError, match="shape"):
        posenc.sinusoid(5, 8, out=np.zeros((4, 8), np.float32))


def test_sinusoid_errors():
    with pytest.raises(posenc.Error, match="base"):
        posenc.sinusoid(2, 4, base=0.5)
    with pytest.raises(posenc.Error, match="dimension"):
        posenc.sinusoid(2, 0)
    with pytest.raises(posenc.Error, match="position"):
        posenc.sinusoid(2, 4, pos0=2**31 - 1)
    with pytest.raises(TypeError):
        posenc.sinusoid(2, 4, dtype=np.int32)


def test_alibi_slopes_golden_file():
    with open(data("alibi_slopes.txt")) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    assert len(rows) == 64
    for row in rows:
        h = int(row[0])
        want = [float(v) for v in row[1:]]
        assert len(want) == h
        got = posenc.alibi_slopes(h)
        assert got.dtype == np.float64
        assert np.max(np.abs(got - want) / np.array(want)) <= 2 ** -52


def test_alibi_slopes_rule_in_mpmath():
    got = posenc.alibi_slopes(12)
    n = 8
    want = [mpmath.mpf(2) ** (-8 * mpmath.mpf(h) / n) for h in range(1, n + 1)]
    want += [mpmath.mpf(2) ** (-8 * mpmath.mpf(h) / (2 * n)) for h in range(1, 2 * n, 2)][:4]
    assert got.tolist() == [float(w) for w in want]
    with pytest.raises(posenc.Error):
        posenc.alibi_slopes(0)


def test_alibi_bias_values_causal_and_out():
    H, nq, off = 4, 3, 5
    b = posenc.alibi_bias(H, nq, q_offset=off)
    m = posenc.alibi_slopes(H)
    assert b.shape == (H, nq, off + nq) and b.dtype == np.float32
    for h in range(H):
        for i in range(nq):
            for j in range(off + nq):
                assert b[h, i, j] == np.float32(-m[h] * abs(off + i - j))
    c = posenc.alibi_bias(H, nq, q_offset=off, causal=True, threads=2)
    assert np.isneginf(c[:, 0, off + 1:]).all() and np.array_equal(c[:, 0, :off + 1], b[:, 0, :off + 1])
    out = np.empty((H, nq, off + nq), np.float32)
    assert posenc.alibi_bias(H, nq, q_offset=off, out=out) is out and np.array_equal(out, b)
    with pytest.raises(posenc.Error):
        posenc.alibi_bias(H, nq, threads=0)


def test_learned_table(tmp_path):
    p = tmp_path / "table.txt"
    p.write_text("# a learned table\n0.5 1 -2\n3, 4, 5e-3\n\n6 7 8 # row 2\n")
    t = posenc.learned_table(p)
    assert t.dtype == np.float64 and t.shape == (3, 3)
    assert t.tolist() == [[0.5, 1.0, -2.0], [3.0, 4.0, 0.005], [6.0, 7.0, 8.0]]
    bad = tmp_path / "ragged.txt"
    bad.write_text("1 2 3\n4 5\n")
    with pytest.raises(posenc.Error, match="line 2"):
        posenc.learned_table(bad)
    with pytest.raises(OSError):
        posenc.learned_table(tmp_path / "missing.txt")
    # a text table named with a tensor is read as a safetensors file: its
    # first 8 bytes ("# a lear") are no header length
    with pytest.raises(posenc.Error, match="header length"):
        posenc.learned_table(p, tensor="wpe.weight")
