"""RoPE on NumPy arrays: values against mpmath, golden vectors, identities,
in place, dtypes, views, GQA, the Hugging Face layout, bad inputs."""
import mpmath
import numpy as np
import pytest

import posenc
from conftest import (GOLDEN, bf16_to_f32, data, f32_to_bf16, f32_tol, mp_cos_sin,
                      mp_inv_freq, rotate_ref)

RNG = np.random.default_rng(1234)


def rand(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


# ---- values against an independent reference ---------------------------------

@pytest.mark.parametrize("d,base", [(128, 10000.0), (64, 500000.0), (6, 100.0)])
def test_inv_freq_matches_mpmath(d, base):
    r = posenc.RoPE(d, base=base)
    hi, lo = r.inv_freq, r.inv_freq_lo
    assert hi.dtype == np.float64 and hi.shape == (d // 2,)
    for k in range(d // 2):
        exact = mp_inv_freq(k, d, base)
        assert hi[k] == float(exact)  # correctly rounded
        # the double-double is good to ~100 bits
        assert abs(mpmath.mpf(hi[k]) + mpmath.mpf(lo[k]) - exact) <= exact * mpmath.mpf(2) ** -95


POSITIONS = [0, 1, 2, 7, 1000, 4095, 65535, 100000, 1000000, 16777217, 2**31 - 1]


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_cos_sin_f32_within_1ulp_and_f64_of_mpmath(layout):
    d, base = 64, 10000.0
    r = posenc.RoPE(d, base=base, layout=layout)
    c32, s32 = r.cos_sin(POSITIONS)
    c64, s64 = r.cos_sin(np.array(POSITIONS), dtype=np.float64)
    assert c32.dtype == np.float32 and c32.shape == (len(POSITIONS), d // 2)
    assert c64.dtype == np.float64
    for i, p in enumerate(POSITIONS):
        for k in range(0, d // 2, 3):
            ec, es = mp_cos_sin(p, mp_inv_freq(k, d, base))
            assert abs(float(c32[i, k]) - float(ec)) <= f32_tol(ec), (p, k)
            assert abs(float(s32[i, k]) - float(es)) <= f32_tol(es), (p, k)
            assert abs(c64[i, k] - float(ec)) <= 4e-16 * max(abs(float(ec)), 2.0 ** -10)
            assert abs(s64[i, k] - float(es)) <= 4e-16 * max(abs(float(es)), 2.0 ** -10)


def test_cos_sin_shapes_and_dtypes():
    r = posenc.RoPE(16, rotary_dim=8)
    pos = np.arange(6).reshape(2, 3)
    c, s = r.cos_sin(pos)
    assert c.shape == (2, 3, 4) and s.shape == (2, 3, 4)
    c16, _ = r.cos_sin(pos, dtype=np.float16)
    assert c16.dtype == np.float16 and np.array_equal(c16, c.astype(np.float16))
    cb, sb = r.cos_sin(pos, dtype="bfloat16")
    assert cb.dtype == np.uint16 and np.array_equal(cb, f32_to_bf16(c))
    assert np.array_equal(sb, f32_to_bf16(s))
    c1, _ = r.cos_sin(5)
    assert c1.shape == (4,) and c1[0] == np.float32(np.cos(5.0))


def test_apply_equals_the_formula_on_posenc_cos_sin_and_is_near_exact():
    """float32 apply == x c - y s with the (independently checked) float32
    cos/sin, bit for bit; and within a few ulps of the exact rotation."""
    d = 128
    r = posenc.RoPE(d, base=500000.0)
    pos = np.array([0, 3, 4095, 131071, 1000000, 2**31 - 1], np.int64)
    q = rand(len(pos), 4, d)
    want = rotate_ref(q, *[a[:, None, :] for a in r.cos_sin(pos)], "half", d)
    got = r.apply(q.copy(), positions=pos)
    assert np.array_equal(got, want)
    # against the exact rotation in float64
    c64, s64 = r.cos_sin(pos, dtype=np.float64)
    exact = rotate_ref(q.astype(np.float64), c64[:, None, :], s64[:, None, :], "half", d)
    assert np.max(np.abs(got - exact)) < 4 * 2.0 ** -23


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_golden_vectors(case):
    """The C library's golden file (mpmath, 60 digits): frequencies as
    double-doubles, the attention factor, cos and sin at three positions."""
    if case["source"] != "-":
        if not posenc.have_config_reader():
            pytest.skip("built without the config reader (apt-get install libjansson-dev)")
        r = posenc.RoPE.from_config(data(case["source"]), seq_len=case["cur_len"])
    else:
        scaling = dict(case["params"])
        base = scaling.pop("base")
        scaling["original_max_position_embeddings"] = scaling.pop("original")
        scaling["rope_type"] = case["type"]
        scaling["truncate"] = case["truncate"]
        scaling = {k: v for k, v in scaling.items() if v not in (0.0, []) or k == "factor"}
        r = posenc.RoPE(case["head_dim"], case["rotary_dim"], base, case["layout"], scaling,
                        seq_len=case["cur_len"])
    assert r.head_dim == case["head_dim"] and r.rotary_dim == case["rotary_dim"]
    assert r.layout == case["layout"]
    assert abs(r.attention_factor - case["attn"][0]) <= 1e-15  # as tests/test_scalings.c
    hi, lo = r.inv_freq, r.inv_freq_lo
    for k, (fh, fl) in enumerate(case["freqs"]):
        exact = mpmath.mpf(fh) + mpmath.mpf(fl)
        assert abs(mpmath.mpf(hi[k]) + mpmath.mpf(lo[k]) - exact) <= exact * mpmath.mpf(2) ** -90
    pos = np.array([p for p, _, _, _ in case["rot"]])
    c32, s32 = r.cos_sin(pos)
    c64, s64 = r.cos_sin(pos, dtype=np.float64)
    for i, (p, k, cc, ss) in enumerate(case["rot"]):
        assert abs(float(c32[i, k]) - cc) <= f32_tol(cc)
        assert abs(float(s32[i, k]) - ss) <= f32_tol(ss)
        assert abs(c64[i, k] - cc) <= 1e-15 and abs(s64[i, k] - ss) <= 1e-15


# ---- identities ----------------------------------------------------------------

@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_inverse_undoes_forward(layout):
    r = posenc.RoPE(64, rotary_dim=48, base=10000.0, layout=layout)
    q = rand(9, 3, 64)
    pos = np.array([0, 1, 5, 100, 4096, 99999, 10**6, 10**7, 2**31 - 1])
    x = r.apply(q.copy(), positions=pos)
    assert not np.array_equal(x[1:, :, :48], q[1:, :, :48])
    assert np.array_equal(x[..., 48:], q[..., 48:])  # the pass-through part
    back = r.apply(x, positions=pos, inverse=True)
    assert np.max(np.abs(back - q)) < 4 * 2.0 ** -24
    # the inverse is the transpose, a turn by -theta: the formula with -s, bit for bit
    c, s = r.cos_sin(pos)
    want = rotate_ref(x, c[:, None, :], -s[:, None, :], layout, 48)
    assert np.array_equal(r.apply(x, positions=pos, inverse=True, inplace=False), want)


def test_dot_product_depends_only_on_the_offset():
    """<R(m) q, R(n) k> is the same for (m, n) and (m + t, n + t), even at
    10^6 where the float32 angle formula loses it."""
    d = 128
    r = posenc.RoPE(d, base=10000.0)
    q = rand(1, 1, d).astype(np.float64)
    k = rand(1, 1, d).astype(np.float64)

    def dot(m, n):
        qq = r.apply(q.astype(np.float32), positions=[m], inplace=False)
        kk = r.apply(k.astype(np.float32), positions=[n], inplace=False)
        return float(np.dot(qq.ravel().astype(np.float64), kk.ravel().astype(np.float64)))

    ref = dot(7, 2)
    ours = 0.0
    for t in (1000, 65536, 10**6, 2**31 - 100):
        ours = max(ours, abs(dot(7 + t, 2 + t) - ref))
    assert ours < 2e-5 * d
    # the usual float32 formula does not keep it at 10^6 (so this check can fail)
    inv = (1.0 / (10000.0 ** (np.arange(0, d, 2, dtype=np.float32) / d))).astype(np.float32)

    def hf_dot(m, n):
        out = []
        for p, v in ((m, q), (n, k)):
            a = np.float32(p) * inv
            c, s = np.cos(a), np.sin(a)
            out.append(rotate_ref(v.astype(np.float32)[0, 0], c, s, "half", d))
        return float(np.dot(out[0].astype(np.float64), out[1].astype(np.float64)))

    # the largest drift over ten offsets near 10^6 (one offset alone can land
    # close by chance) is far above posenc's worst
    hf = max(abs(hf_dot(7 + t, 2 + t) - ref) for t in range(10**6, 10**6 + 10000, 1000))
    assert hf > max(10 * ours, 2e-5 * d)


# ---- in place, dtypes ---------------------------------------------------------

def test_in_place_is_in_place():
    r = posenc.RoPE(64)
    q, k = rand(5, 4, 64), rand(5, 2, 64)
    qp, kp = q.ctypes.data, k.ctypes.data
    before = q.copy()
    rq, rk = r.apply(q, k, positions=np.arange(5))
    assert rq is q and rk is k
    assert q.ctypes.data == qp and k.ctypes.data == kp
    assert not np.array_equal(q[1:], before[1:])
    # out of place leaves the input alone
    q2 = before.copy()
    out = r.apply(q2, positions=np.arange(5), inplace=False)
    assert np.array_equal(q2, before) and np.array_equal(out, q)


@pytest.mark.parametrize("kind", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_every_dtype_bit_exact(kind, layout):
    d = 32
    r = posenc.RoPE(d, base=10000.0, layout=layout)
    pos = np.array([0, 1, 17, 4096, 500000])
    x32 = rand(len(pos), 3, d)
    c, s = [a[:, None, :] for a in r.cos_sin(pos)]
    if kind == "float32":
        x = x32
        want = rotate_ref(x, c, s, layout, d)
        got = r.apply(x.copy(), positions=pos)
    elif kind == "float16":
        x = x32.astype(np.float16)
        want = rotate_ref(x.astype(np.float32), c, s, layout, d).astype(np.float16)
        got = r.apply(x.copy(), positions=pos)
    else:
        x = f32_to_bf16(x32)
        want = f32_to_bf16(rotate_ref(bf16_to_f32(x), c, s, layout, d))
        got = r.apply(x.copy(), positions=pos, dtype="bfloat16")
    assert got.dtype == x.dtype
    assert np.array_equal(got, want)


# ---- views, GQA, layouts ----------------------------------------------------------

def test_transposed_and_strided_views():
    d, T, H = 64, 6, 4
    r = posenc.RoPE(d)
    pos = np.array([3, 1, 4, 1, 5, 9])
    # heads outer in memory, seen as [n_tok, n_head, head_dim]
    base = rand(H, T, d)
    view = base.transpose(1, 0, 2)
    want = r.apply(np.ascontiguousarray(view), positions=pos, inplace=False)
    r.apply(view, positions=pos)
    assert np.array_equal(base.transpose(1, 0, 2), want)
    # a fused QKV buffer: q and k are slices, v must stay untouched
    Hq, Hk = 4, 2
    qkv = rand(T, (Hq + 2 * Hk) * d)
    v_before = qkv[:, (Hq + Hk) * d:].copy()
    q = qkv[:, :Hq * d].reshape(T, Hq, d)
    k = qkv[:, Hq * d:(Hq + Hk) * d].reshape(T, Hk, d)
    assert not q.flags.c_contiguous
    wq, wk = r.apply(q.copy(), k.copy(), positions=pos)
    r.apply(q, k, positions=pos)
    assert np.array_equal(q, wq) and np.array_equal(k, wk)
    assert np.array_equal(qkv[:, (Hq + Hk) * d:], v_before)
    # every other token, heads in reverse order
    big = rand(2 * T, H, d)
    sub = big[::2, ::-1, :]
    want = r.apply(np.ascontiguousarray(sub), positions=pos, inplace=False)
    odd = big[1::2].copy()
    r.apply(sub, positions=pos)
    assert np.array_equal(big[::2, ::-1, :], want) and np.array_equal(big[1::2], odd)


def test_gqa_heads_rotate_alike():
    d = 128
    r = posenc.RoPE(d, base=500000.0)
    T = 7
    pos = np.arange(100, 100 + T)
    q, k = rand(T, 32, d), rand(T, 8, d)
    q0, k0 = q.copy(), k.copy()
    r.apply(q, k, positions=pos)
    for h in (0, 5, 31):
        assert np.array_equal(q[:, h], r.apply(q0[:, h].copy(), positions=pos))
    for h in (0, 7):
        assert np.array_equal(k[:, h], r.apply(k0[:, h].copy(), positions=pos))
    # positions given as an int offset mean offset, offset + 1, ...
    q2 = r.apply(q0.copy(), positions=100)
    assert np.array_equal(q2, q)
    # other integer types and strided positions are converted, not refused
    p32 = np.arange(100, 100 + 2 * T, dtype=np.int32)[::2]
    want = r.apply(q0.copy(), positions=p32.astype(np.int64))
    assert np.array_equal(r.apply(q0.copy(), positions=p32), want)
    assert np.array_equal(r.apply(q0.copy(), positions=p32.astype(np.uint16)), want)
    assert not np.array_equal(want, q)


def test_hugging_face_layout_with_position_ids():
    d, B, H, S = 32, 3, 4, 5
    r = posenc.RoPE(d)
    x = rand(B, H, S, d)
    pid = np.array([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [7, 7, 8, 9, 1000000]])
    want = np.stack([
        r.apply(np.ascontiguousarray(x[b].transpose(1, 0, 2)), positions=pid[b],
                inplace=False).transpose(1, 0, 2) for b in range(B)])
    got = r.apply(x.copy(), positions=pid)
    assert np.array_equal(got, want)
    # one row of positions for the whole batch
    got1 = r.apply(x.copy(), positions=pid[1])
    for b in range(B):
        assert np.array_equal(got1[b], r.apply(x[b:b + 1].copy(), positions=pid[1:2])[0])
    # [batch, seq, n_head, d] seen as HF's [batch, n_head, seq, d]
    y = rand(B, S, H, d)
    want_t = r.apply(np.ascontiguousarray(y.transpose(0, 2, 1, 3)), positions=pid,
                     inplace=False)
    r.apply(y.transpose(0, 2, 1, 3), positions=pid)
    assert np.array_equal(y.transpose(0, 2, 1, 3), want_t)
    # the 4-D result per batch equals the first batch's rows through the 3-D path
    assert np.array_equal(want[0].transpose(1, 0, 2),
                          r.apply(np.ascontiguousarray(x[0].transpose(1, 0, 2)),
                                  positions=pid[0], inplace=False))


def test_reversed_batch_and_misaligned_arrays():
    r = posenc.RoPE(16)
    x = rand(3, 2, 4, 16)
    pid = np.array([[0, 1, 2, 3], [5, 6, 7, 8], [100, 200, 300, 400]])
    want = r.apply(x[::-1].copy(), positions=pid)
    r.apply(x[::-1], positions=pid)  # a negative batch stride
    assert np.array_equal(x[::-1], want)
    raw = np.zeros(4 * 2 * 16 * 4 + 1, np.uint8)
    odd = raw[1:].view(np.float32).reshape(4, 2, 16)  # one byte off
    with pytest.raises(ValueError, match="aligned"):
        r.apply(odd)
    assert not raw.any()


def test_two_dimensional_is_one_head():
    r = posenc.RoPE(16)
    x = rand(4, 16)
    got = r.apply(x.copy(), positions=[1, 2, 3, 4])
    want = r.apply(x[:, None, :].copy(), positions=[1, 2, 3, 4])[:, 0]
    assert np.array_equal(got, want)


def test_partial_rotary_leaves_the_rest():
    r = posenc.RoPE(80, rotary_dim=32, base=10000.0, layout="interleaved")
    x = rand(3, 2, 80)
    y = r.apply(x.copy(), positions=[5, 6, 7])
    assert np.array_equal(y[..., 32:], x[..., 32:])
    c, s = [a[:, None, :] for a in r.cos_sin([5, 6, 7])]
    assert np.array_equal(y, rotate_ref(x, c, s, "interleaved", 32))


def test_threads_do_not_change_results():
    r = posenc.RoPE(128)
    x = rand(2048, 8, 128)
    a = r.apply(x.copy(), threads=1)
    b = r.apply(x.copy(), threads=4)
    assert np.array_equal(a, b)


def test_empty_arrays_are_fine():
    r = posenc.RoPE(8)
    x = np.zeros((0, 2, 8), np.float32)
    assert r.apply(x) is x


# ---- bad inputs: a clear exception, nothing written ---------------------------------

@pytest.mark.parametrize("bad, exc, words", [
    (lambda: rand(3, 2, 16).astype(np.float64), TypeError, "float32, float16"),
    (lambda: np.zeros((3, 2, 16), np.int32), TypeError, "format"),
    (lambda: np.zeros((3, 2, 16), np.uint16), TypeError, "bfloat16"),
    (lambda: rand(3, 2, 15), ValueError, "head_dim 16"),
    (lambda: rand(3, 2, 2, 2, 16), ValueError, "dimensions"),
    (lambda: rand(3, 2, 32)[:, :, ::2], ValueError, "contiguous"),
    (lambda: rand(3, 2, 16)[::-1], ValueError, "negative token stride"),
    (lambda: rand(3, 2, 16).astype(">f4"), TypeError, "format"),
])
def test_bad_arrays(bad, exc, words):
    r = posenc.RoPE(16)
    x = bad()
    before = x.copy()
    with pytest.raises(exc, match=words):
        r.apply(x, positions=[0, 1, 2])
    assert np.array_equal(x, before)


def test_bad_positions_write_nothing():
    r = posenc.RoPE(16)
    q, k = rand(3, 2, 16), rand(3, 1, 16)
    for pos, exc in [([0, -1, 2], posenc.Error), ([0, 1, 2**31], posenc.Error),
                     ([0, 1], ValueError), ([[0, 1, 2]], ValueError), ([0.5, 1, 2], TypeError)]:
        before_q, before_k = q.copy(), k.copy()
        with pytest.raises(exc):
            r.apply(q, k, positions=pos)
        assert np.array_equal(q, before_q) and np.array_equal(k, before_k)
    with pytest.raises(posenc.Error, match="position out of range"):
        r.apply(q, positions=2**31 - 2)
    # a bad position in a later batch row: the earlier rows are not written either
    x = rand(2, 2, 3, 16)
    before = x.copy()
    with pytest.raises(posenc.Error, match="-5"):
        r.apply(x, positions=[[0, 1, 2], [0, -5, 2]])
    assert np.array_equal(x, before)


def test_errors_carry_the_library_status():
    with pytest.raises(posenc.Error) as e:
        posenc.RoPE(16, rotary_dim=15)
    assert e.value.status == 6 and "argument out of range" in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(posenc.Error, match="base must be finite"):
        posenc.RoPE(16, base=1.0)
    with pytest.raises(posenc.Error, match="dimension"):
        posenc.RoPE(4096)
    with pytest.raises(ValueError, match="layout"):
        posenc.RoPE(16, layout="neox")
    with pytest.raises(ValueError, match="unknown key"):
        posenc.RoPE(16, scaling={"rope_type": "linear", "factor": 2, "fator": 3})
    with pytest.raises(posenc.Error, match="unknown scaling type 'lineer'"):
        posenc.RoPE(16, scaling={"rope_type": "lineer", "factor": 2})
    with pytest.raises(posenc.Error):
        posenc.RoPE(16, scaling={"rope_type": "linear", "factor": 0.5})
    r = posenc.RoPE(16)
    x = rand(2, 16)
    for t in (0, 65, -1):
        with pytest.raises(posenc.Error, match="threads"):
            r.apply(x, threads=t)


def test_read_only_and_overlapping_arrays_are_refused():
    r = posenc.RoPE(16)
    x = rand(3, 2, 16)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        r.apply(x)
    y = r.apply(x, inplace=False)  # out of place reads it fine
    assert not np.array_equal(y[1:], x[1:])
    q = rand(3, 4, 16)
    before = q.copy()
    with pytest.raises(ValueError, match="share memory"):
        r.apply(q, q[:, 1:3])
    assert np.array_equal(q, before)
    with pytest.raises(ValueError, match="same number"):
        r.apply(rand(3, 2, 16), rand(4, 2, 16))
    with pytest.raises(TypeError):
        r.apply([[1.0] * 16])
    # broadcast (zero-stride) heads overlap: refused, saying so in the
    # caller's terms (the library alone would say "argument out of range")
    b = np.broadcast_to(rand(3, 1, 16), (3, 4, 16))
    with pytest.raises(ValueError):
        r.apply(b)
    z = np.lib.stride_tricks.as_strided(rand(3, 16), shape=(3, 4, 16), strides=(64, 0, 4))
    with pytest.raises(ValueError, match="its 4 heads share the same memory .head stride 0"):
        r.apply(z, inplace=False)
    base = rand(64)
    o = np.lib.stride_tricks.as_strided(base, shape=(3, 2, 16), strides=(32, 16, 4))
    with pytest.raises(ValueError, match=r"overlap in memory \(token stride 8, head stride 4 "
                                         r"elements, head_dim 16\)"):
        r.apply(o, inplace=False)
    t = np.lib.stride_tricks.as_strided(base, shape=(3, 2, 16), strides=(0, 64, 4))
    with pytest.raises(ValueError, match="its 3 tokens share the same memory"):
        r.apply(t, inplace=False)
    with pytest.raises(posenc.Error, match="threads must be 1 .. 64, got 0"):
        r.apply(rand(3, 2, 16), threads=0)
    with pytest.raises(posenc.Error, match="threads must be 1 .. 64, got 65"):
        r.cos_sin([1, 2], threads=65)
    for bad in (np.array([1.5, 2.0, 3.0]), [1.5, 2.0, 3.0]):
        with pytest.raises(TypeError, match="positions must be integers, got float64"):
            r.apply(rand(3, 2, 16), positions=bad)
        with pytest.raises(TypeError, match="positions must be integers, got float64"):
            r.cos_sin(bad)


def test_from_config_errors_name_the_key():
    if not posenc.have_config_reader():
        pytest.skip("built without the config reader (apt-get install libjansson-dev)")
    with pytest.raises(posenc.Error, match="rope_scaling"):
        posenc.RoPE.from_config(data("bad-unknown-key.json"))
    with pytest.raises(posenc.Error, match="line"):
        posenc.RoPE.from_config(data("bad-json.json"))
    # every layer of Llama 2 rotates alike; layer 32 is past the last
    assert np.array_equal(posenc.RoPE.from_config(data("llama-2-7b.json"), layer=31).inv_freq,
                          posenc.RoPE.from_config(data("llama-2-7b.json")).inv_freq)
    with pytest.raises(posenc.Error, match="layer 32 does not exist"):
        posenc.RoPE.from_config(data("llama-2-7b.json"), layer=32)
    with pytest.raises(OSError):
        posenc.RoPE.from_config(data("no-such-config.json"))
    r = posenc.RoPE.from_config({"hidden_size": 4096, "num_attention_heads": 32,
                                 "rope_theta": 500000.0, "rope_scaling": None})
    assert r.head_dim == 128 and r.base == 500000.0 and r.scaling["type"] == "default"
    text = open(data("llama-3.1-8b.json")).read()
    r2 = posenc.RoPE.from_config(text)
    assert np.array_equal(r2.inv_freq, posenc.RoPE.from_config(data("llama-3.1-8b.json")).inv_freq)


def test_explicit_scaling_matches_the_config():
    if not posenc.have_config_reader():
        pytest.skip("built without the config reader (apt-get install libjansson-dev)")
    a = posenc.RoPE.from_config(data("llama-3.1-8b.json"))
    b = posenc.RoPE(128, base=500000.0, scaling={
        "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192})
    assert np.array_equal(a.inv_freq, b.inv_freq)
    # llama3 by its formula, in mpmath
    f = b.inv_freq
    for k in (0, 20, 40, 63):
        f0 = mp_inv_freq(k, 128, 500000.0)
        w = 2 * mpmath.pi / f0
        if w < mpmath.mpf(8192) / 4:
            want = f0
        elif w > 8192:
            want = f0 / 8
        else:
            g = (mpmath.mpf(8192) / w - 1) / (4 - 1)
            want = (1 - g) * f0 / 8 + g * f0
        assert f[k] == float(want)


def test_cache_gives_the_same_bits():
    r = posenc.RoPE(64, rotary_dim=48, base=500000.0)
    x = rand(50, 3, 64)
    pos = np.array([0, 1, 255, 256, 4000, 8191] + list(range(44)))
    want = r.apply(x.copy(), positions=pos)
    assert r.use_cache(8192) is r and r.cache_len == 8192
    assert np.array_equal(r.apply(x.copy(), positions=pos), want)
    # a position past the cache: computed without it, the same values
    pos2 = pos.copy()
    pos2[-1] = 100000
    want2 = posenc.RoPE(64, rotary_dim=48, base=500000.0).apply(x.copy(), positions=pos2)
    assert np.array_equal(r.apply(x.copy(), positions=pos2), want2)
    assert np.array_equal(r.apply(x[5:6].copy(), positions=8191), want[5:6])
    r.use_cache(0)
    assert r.cache_len == 0
    with pytest.raises(posenc.Error):
        r.use_cache(-1)
