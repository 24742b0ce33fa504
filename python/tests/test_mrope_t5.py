"""M-RoPE and T5's relative bias from Python, against independent references:
mpmath for the angles, the published T5 bucket arithmetic (float32) written
out here, and the plain RoPE as the identity t = h = w."""
import math

import mpmath
import numpy as np
import pytest

import posenc
from conftest import bf16_to_f32, f32_tol, mp_cos_sin, mp_inv_freq


def rand(*shape, seed=0):
    return (np.random.default_rng(seed).random(shape, dtype=np.float32) * 2 - 1)


# ---- M-RoPE ----------------------------------------------------------------------------


def test_mrope_axis_rules_follow_the_header():
    r = posenc.RoPE(128, base=1e6)
    m = posenc.MRoPE(r, [16, 24, 24])
    assert m.axis.tolist() == [0] * 16 + [1] * 24 + [2] * 24
    q3 = posenc.MRoPE(r, [24, 20, 20], rule="interleaved")
    # THW repeated over 60 pairs, then TTTT (posenc.h 2.8's example)
    assert q3.axis.tolist() == [0, 1, 2] * 20 + [0] * 4
    with pytest.raises(ValueError, match="summing to rotary_dim / 2 = 64"):
        posenc.MRoPE(r, [16, 24, 23])
    with pytest.raises(ValueError, match="interleaved rule cannot"):
        posenc.MRoPE(r, [4, 40, 20], rule="interleaved")
    with pytest.raises(ValueError, match="rule="):
        posenc.MRoPE(r, [16, 24, 24], rule="round")


def test_mrope_cos_sin_against_mpmath():
    r = posenc.RoPE(16, base=10000.0)
    m = posenc.MRoPE(r, [2, 3, 3])
    pos = np.array([[5, 100000, 7], [0, 3, 1000], [9, 1, 2 ** 31 - 1]])  # rows t, h, w
    c, s = m.cos_sin(pos)
    assert c.shape == (3, 8) and c.dtype == np.float32
    for j in range(3):
        for k in range(8):
            p = int(pos[m.axis[k], j])
            ec, es = mp_cos_sin(p, mp_inv_freq(k, 16, 10000.0))
            assert abs(float(c[j, k]) - float(ec)) <= f32_tol(ec), (j, k)
            assert abs(float(s[j, k]) - float(es)) <= f32_tol(es), (j, k)
    with pytest.raises(ValueError, match=r"\[3, \.\.\.\]"):
        m.cos_sin(pos[:2])


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_mrope_with_equal_rows_is_rope_bit_for_bit(layout):
    r = posenc.RoPE(64, rotary_dim=48, base=500000.0, layout=layout)
    m = posenc.MRoPE(r, [8, 8, 8])
    q = rand(6, 3, 64)
    p = np.array([0, 1, 17, 4096, 100000, 2 ** 31 - 1])
    got = m.apply(q, np.stack([p, p, p]))
    assert np.array_equal(got, r.apply(q, positions=p, inplace=False))
    assert np.array_equal(got[..., 48:], q[..., 48:])  # the unrotated tail
    back = m.apply(got, np.stack([p, p, p]), inverse=True)
    assert np.abs(back - q).max() <= 4 * 2 ** -24
    # float16 and bfloat16: the float32 result rounded once, as the library does
    q16 = q.astype(np.float16)
    assert np.array_equal(m.apply(q16, np.stack([p, p, p])),
                          r.apply(q16, positions=p, inplace=False))
    qb = posenc._f32_to_bf16_bits(q)
    assert np.array_equal(m.apply(qb, np.stack([p, p, p]), dtype="bfloat16"),
                          r.apply(qb, positions=p, inplace=False, dtype="bfloat16"))


def test_mrope_rotation_against_mpmath_with_distinct_rows():
    r = posenc.RoPE(8, base=10000.0)
    m = posenc.MRoPE(r, [1, 2, 1])
    q = rand(2, 1, 8, seed=3)
    pos = np.array([[3, 70000], [11, 5], [200, 123456]])
    got = m.apply(q, pos)
    for j in range(2):
        for k in range(4):
            c, s = mp_cos_sin(int(pos[m.axis[k], j]), mp_inv_freq(k, 8, 10000.0))
            a, b = mpmath.mpf(float(q[j, 0, k])), mpmath.mpf(float(q[j, 0, k + 4]))
            assert abs(float(got[j, 0, k]) - float(a * c - b * s)) <= 2 ** -22
            assert abs(float(got[j, 0, k + 4]) - float(a * s + b * c)) <= 2 ** -22


def test_mrope_4d_layouts():
    r = posenc.RoPE(16)
    m = posenc.MRoPE(r, [2, 3, 3])
    q = rand(2, 4, 5, 16)  # [batch, heads, seq, head_dim]
    pos = np.stack([np.arange(5) + 10 * i for i in range(3)])[:, None, :].repeat(2, axis=1)
    a = m.apply(q, pos, layout="bhsd")
    b = m.apply(np.ascontiguousarray(q.transpose(0, 2, 1, 3)), pos)  # positions say bshd
    assert np.array_equal(a, b.transpose(0, 2, 1, 3))
    flat = m.apply(np.ascontiguousarray(q[1].transpose(1, 0, 2)), pos[:, 1])
    assert np.array_equal(a[1], flat.transpose(1, 0, 2))
    with pytest.raises(ValueError, match="layout"):
        m.apply(rand(2, 5, 5, 16), np.zeros((3, 2, 5), np.int64))


def test_mrope_torch_is_differentiable():
    torch = pytest.importorskip("torch")
    r = posenc.RoPE(16)
    m = posenc.MRoPE(r, [2, 3, 3])
    q = torch.tensor(rand(4, 2, 16), requires_grad=True)
    pos = torch.tensor([[0, 1, 2, 3], [5, 6, 7, 8], [9, 9, 9, 9]])
    y = m.apply(q, pos)
    assert torch.equal(y.detach(), torch.from_numpy(m.apply(q.detach().numpy(), pos.numpy())))
    g = torch.tensor(rand(4, 2, 16, seed=5))
    y.backward(g)
    # the gradient of a rotation is the inverse rotation of the incoming gradient
    want = m.apply(g.numpy(), pos.numpy(), inverse=True)
    assert np.abs(q.grad.numpy() - want).max() <= 2 ** -22
    c, _ = m.cos_sin(pos, dtype=torch.float64)
    assert c.dtype == torch.float64 and c.shape == (4, 8)


# ---- T5 ----------------------------------------------------------------------------------


def t5_ref(r, nb, md, bidir):
    """_relative_position_bucket of the T5 code, in float32 as it computes it
    (transformers/models/t5/modeling_t5.py), for one relative position r."""
    ret = 0
    if bidir:
        nb //= 2
        ret += nb if r > 0 else 0
        n = abs(r)
    else:
        n = max(-r, 0)
    me = nb // 2
    if n < me:
        return ret + n
    a = np.float32(n) / np.float32(me)
    v = np.float32(np.log(a)) / np.float32(math.log(md / me)) * np.float32(nb - me)
    return ret + min(me + int(np.float32(v)), nb - 1)


@pytest.mark.parametrize("nb,md,bidir", [(32, 128, True), (32, 128, False), (48, 200, True),
                                         (128, 128, True)])
def test_t5_buckets_against_the_published_arithmetic(nb, md, bidir):
    q = np.array([0, 5, 1000, 70000])[:, None]
    k = np.array([0, 1, 7, 8, 20, 64, 127, 128, 129, 999, 1000, 1001, 5000, 70000,
                  10 ** 6])[None, :]
    got = posenc.t5_bucket(q, k, nb, md, bidir)
    assert got.shape == (4, 15) and got.dtype == np.int64
    want = np.array([[t5_ref(int(kk) - int(qq), nb, md, bidir) for kk in k[0]] for qq in q[:, 0]])
    assert np.array_equal(got, want)
    assert int(posenc.t5_bucket(0, 20)) == 26  # posenc.h's worked example
    with pytest.raises(posenc.Error):
        posenc.t5_bucket(0, -1)


def test_t5_bias_gathers_the_table():
    nb, h = 32, 3
    table = rand(nb, h, seed=7)
    bias = posenc.t5_bias(table, 4, 9, q_offset=5, bidirectional=False)
    assert bias.shape == (3, 4, 9) and bias.dtype == np.float32
    b = posenc.t5_bucket(np.arange(5, 9)[:, None], np.arange(9)[None, :], nb, 128, False)
    assert np.array_equal(bias, table[b].transpose(2, 0, 1))
    assert np.array_equal(posenc.t5_bias(table, 4, 9, q_offset=5, bidirectional=False,
                                         threads=3), bias)
    with pytest.raises(TypeError, match="float32"):
        posenc.t5_bias(table.astype(np.float64), 2)


def test_t5_bias_torch_is_differentiable():
    torch = pytest.importorskip("torch")
    table = torch.tensor(rand(32, 2, seed=9), requires_grad=True)
    bias = posenc.t5_bias(table, 3, 5)
    assert torch.equal(bias.detach(), torch.from_numpy(posenc.t5_bias(table.detach().numpy(), 3, 5)))
    bias.sum().backward()
    b = posenc.t5_bucket(np.arange(3)[:, None], np.arange(5)[None, :])
    counts = np.bincount(b.reshape(-1), minlength=32).astype(np.float32)
    assert np.array_equal(table.grad.numpy(), np.stack([counts, counts], 1))


def test_bf16_helper_is_used_consistently():
    u = posenc._f32_to_bf16_bits(np.array([1.5, -2.25], np.float32))
    assert bf16_to_f32(u).tolist() == [1.5, -2.25]
