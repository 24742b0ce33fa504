"""PyTorch: CPU tensors in place, and posenc.torch.RotaryEmbedding as a
drop-in for a Hugging Face rotary module."""
import json
import math

import mpmath
import numpy as np
import pytest

import posenc
from conftest import bf16_to_f32, data, f32_tol, mp_cos_sin, mp_inv_freq

torch = pytest.importorskip("torch")
try:  # the modules, autograd and torch.compile need torch >= 2.4 (custom ops)
    import posenc.torch as ptorch
except ImportError:
    ptorch = None
needs_ptorch = pytest.mark.skipif(ptorch is None, reason="posenc.torch needs torch >= 2.4")

torch.manual_seed(0)
needs_config = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader")


def rand(*shape, dtype=torch.float32):
    return (torch.rand(*shape, dtype=torch.float32) * 2 - 1).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_tensors_in_place_match_the_numpy_path(dtype):
    r = posenc.RoPE(64, base=10000.0)
    q, k = rand(5, 4, 64, dtype=dtype), rand(5, 2, 64, dtype=dtype)
    pos = torch.tensor([0, 9, 4096, 100000, 10**6])
    # the NumPy path, on the same bits (checked against the reference in test_rope.py)
    if dtype == torch.bfloat16:
        wq = r.apply(q.view(torch.int16).numpy().view(np.uint16).copy(), positions=pos.numpy(),
                     dtype="bfloat16")
    else:
        wq = r.apply(q.numpy().copy(), positions=pos.numpy())
    qp, kp = q.data_ptr(), k.data_ptr()
    before = k.clone()
    rq, rk = r.apply(q, k, positions=pos)
    assert rq is q and rk is k and q.data_ptr() == qp and k.data_ptr() == kp
    assert q.dtype == dtype and not torch.equal(k[1:], before[1:])
    got = q.view(torch.int16).numpy().view(np.uint16) if dtype == torch.bfloat16 else q.numpy()
    assert np.array_equal(got, wq)
    # exact: the bf16/f16/f32 result is the rotation of the stored values, rounded once
    c, s = r.cos_sin(pos.numpy(), dtype=np.float64)
    x = before.float().numpy().astype(np.float64)
    xr = x.copy()
    xr[..., :32] = x[..., :32] * c[:, None, :] - x[..., 32:] * s[:, None, :]
    xr[..., 32:] = x[..., :32] * s[:, None, :] + x[..., 32:] * c[:, None, :]
    tol = {torch.float32: 2.0 ** -22, torch.float16: 2.0 ** -9, torch.bfloat16: 2.0 ** -6}[dtype]
    assert float(np.max(np.abs(k.float().numpy() - xr))) <= tol


def test_tensor_views_and_hf_layout():
    r = posenc.RoPE(32)
    B, H, S, D = 2, 4, 6, 32
    x = rand(B, S, H, D)  # what q_proj(...).view(B, S, H, D) gives
    q = x.transpose(1, 2)  # HF's [B, H, S, D], a view
    pid = torch.tensor([[0, 1, 2, 3, 4, 5], [100, 101, 102, 103, 104, 105]])
    want = r.apply(q.contiguous().numpy(), positions=pid.numpy(), inplace=False)
    ptr = x.data_ptr()
    r.apply(q, positions=pid)
    assert x.data_ptr() == ptr and np.array_equal(q.contiguous().numpy(), want)
    out = r.apply(q, positions=pid, inplace=False)
    assert torch.is_tensor(out) and out.shape == q.shape


def test_tensor_errors_write_nothing():
    r = posenc.RoPE(16)
    a = rand(3, 2, 16)
    before = a.clone()
    with pytest.raises(ValueError, match="requires grad.*inplace=False"):
        r.apply(a.clone().requires_grad_(True))  # in place under autograd
    with pytest.raises(TypeError, match="int32"):
        r.apply(a.int())
    with pytest.raises(ValueError, match="meta"):
        r.apply(torch.empty(3, 2, 16, device="meta"))
    with pytest.raises(TypeError, match="k is"):
        r.apply(a, a.half())
    with pytest.raises(posenc.Error):
        r.apply(a, positions=torch.tensor([0, -1, 2]))
    with pytest.raises(ValueError):
        r.apply(a[:, :, :8])
    assert torch.equal(a, before)
    # a broadcast tensor's heads overlap in memory: refused, not written
    e = rand(3, 1, 16).expand(3, 4, 16)
    with pytest.raises(posenc.Error):
        r.apply(e)


def test_tables_as_tensors():
    t = posenc.sinusoid(4, 8, dtype=torch.float32)
    assert torch.is_tensor(t) and t.dtype == torch.float32
    assert np.array_equal(t.numpy(), posenc.sinusoid(4, 8))
    tb = posenc.sinusoid(4, 8, dtype=torch.bfloat16)
    assert torch.equal(tb, t.to(torch.bfloat16))
    ob = torch.zeros(4, 8, dtype=torch.bfloat16)
    assert posenc.sinusoid(4, 8, out=ob) is ob and torch.equal(ob, tb)
    out = torch.zeros(2, 3, 3)
    assert posenc.alibi_bias(2, 3, out=out) is out
    assert np.array_equal(out.numpy(), posenc.alibi_bias(2, 3))
    c, s = posenc.RoPE(8).cos_sin(torch.arange(3), dtype=torch.float16)
    assert c.dtype == torch.float16 and c.shape == (3, 4)


# ---- RotaryEmbedding -------------------------------------------------------------

def llama_config(path="llama-2-7b.json"):
    with open(data(path)) as f:
        return json.load(f)


def hf_rotary(inv_freq, position_ids, attention_scaling=1.0):
    """What transformers' LlamaRotaryEmbedding.forward computes (float32)."""
    inv = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos() * attention_scaling, emb.sin() * attention_scaling


@needs_config
@needs_ptorch
def test_rotary_embedding_is_exact_and_shaped_like_hf():
    cfg = llama_config()
    rot = ptorch.RotaryEmbedding(cfg)
    assert isinstance(rot, torch.nn.Module)
    pid = torch.tensor([[0, 1, 4095, 100000, 1000000], [5, 6, 7, 8, 9]])
    x = torch.zeros(2, 5, 4096)
    cos, sin = rot(x, pid)
    assert cos.shape == (2, 5, 128) and cos.dtype == torch.float32 and cos.device == x.device
    assert torch.equal(cos[..., :64], cos[..., 64:]) and torch.equal(sin[..., :64], sin[..., 64:])
    hf_cos, _ = hf_rotary(rot.inv_freq, pid)
    worst_posenc = worst_hf = 0.0
    for b in range(2):
        for t in range(5):
            p = int(pid[b, t])
            for k in (0, 1, 10, 33, 63):
                ec, es = mp_cos_sin(p, mp_inv_freq(k, 128, 10000.0))
                assert abs(float(cos[b, t, k]) - float(ec)) <= f32_tol(ec), (p, k)
                assert abs(float(sin[b, t, k]) - float(es)) <= f32_tol(es), (p, k)
                worst_posenc = max(worst_posenc, abs(float(cos[b, t, k]) - float(ec)))
                worst_hf = max(worst_hf, abs(float(hf_cos[b, t, k]) - float(ec)))
    assert worst_posenc < 1e-7 and worst_hf > 1e-3  # HF's float32 formula drifts at 10^6
    # bfloat16 in, bfloat16 out: the exact float32 values rounded once
    cb, _ = rot(x.to(torch.bfloat16), pid)
    assert cb.dtype == torch.bfloat16 and torch.equal(cb, cos.to(torch.bfloat16))


@needs_config
@needs_ptorch
def test_rotary_embedding_table_and_direct_paths_agree():
    cfg = llama_config("llama-3.1-8b.json")
    a = ptorch.RotaryEmbedding(cfg)
    b = ptorch.RotaryEmbedding(cfg, max_table=16)
    pid = torch.arange(3000)[None]
    x = torch.zeros(1, 3000, 8)
    ca, sa = a(x, pid)
    cb, sb = b(x, pid)
    assert torch.equal(ca, cb) and torch.equal(sa, sb)
    tables = a._sources[None].tables
    assert len(tables) == 1 and next(iter(tables.values()))[0] == 4096
    c2, _ = a(x[:, :1], torch.tensor([[2999]]))  # decode step: from the cached table
    assert torch.equal(c2[0, 0], ca[0, 2999]) and len(tables) == 1


@needs_config
@needs_ptorch
def test_rotary_embedding_patches_a_module():
    cfg = llama_config()

    class Inner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rotary_emb = torch.nn.Identity()

    m = Inner()
    m.rotary_emb = ptorch.RotaryEmbedding(cfg)
    cos, sin = m.rotary_emb(torch.zeros(1, 3, 8, dtype=torch.float16), torch.arange(3)[None])
    assert cos.dtype == torch.float16 and float(cos[0, 1, 0]) == float(np.float16(math.cos(1.0)))


@needs_config
@needs_ptorch
def test_dynamic_ntk_follows_the_length_like_transformers():
    cfg = llama_config("llama-2-7b-dynamic.json")  # factor 2, max_position_embeddings 4096
    rot = ptorch.RotaryEmbedding(cfg)
    d, base, s, L = 128, 10000.0, 2.0, 4096
    x = torch.zeros(1, 1, 8)

    def want_f(k, n):  # transformers' dynamic NTK frequency, in mpmath
        b = mpmath.mpf(base) * (s * mpmath.mpf(max(n, L)) / L - (s - 1)) ** (mpmath.mpf(d) / (d - 2))
        return b ** (-mpmath.mpf(2 * k) / d)

    def check(n_seen):
        for k in (1, 40, 63):
            assert abs(rot.inv_freq[k].item() - float(want_f(k, n_seen))) <= \
                float(want_f(k, n_seen)) * 2 ** -23

    rot(x, torch.tensor([[2047]]))
    check(2048)
    cos, _ = rot(x, torch.tensor([[4999]]))
    check(5000)
    ec, _ = mp_cos_sin(4999, want_f(40, 5000))
    assert abs(float(cos[0, 0, 40]) - float(ec)) <= f32_tol(ec)
    rot(x, torch.tensor([[4499]]))  # shorter but beyond L: transformers keeps 5000's
    check(5000)
    rot(x, torch.tensor([[99]]))  # short again: back to the original frequencies
    check(0)


@needs_config
@needs_ptorch
def test_longrope_switches_factors_at_the_original_length():
    rot = ptorch.RotaryEmbedding(llama_config("phi-4-mini.json"))
    with open(data("phi-4-mini.json")) as f:
        rs = json.load(f)["rope_scaling"]
    assert rot.attention_scaling == pytest.approx(
        math.sqrt(1 + math.log(131072 / 4096) / math.log(4096)), rel=1e-15)
    x = torch.zeros(1, 1, 8)
    d = 96  # 128 * 0.75
    for last, factors in ((4095, rs["short_factor"]), (4096, rs["long_factor"])):
        cos, _ = rot(x, torch.tensor([[last]]))
        assert cos.shape == (1, 1, d)
        for k in (0, 20, 47):
            f = mp_inv_freq(k, d, 10000.0) / mpmath.mpf(factors[k])
            assert abs(rot.inv_freq[k].item() - float(f)) <= float(f) * 2 ** -23
            ec, _ = mp_cos_sin(last, f, rot.attention_scaling)
            assert abs(float(cos[0, 0, k]) - float(ec)) <= 2 * f32_tol(ec)


def test_bf16_storage_roundtrip_helper():
    # the test helper itself: bfloat16 bits -> float32 is exact
    t = torch.tensor([1.5, -2.25, 3e-3]).to(torch.bfloat16)
    assert np.array_equal(bf16_to_f32(t.view(torch.int16).numpy().view(np.uint16)),
                          t.float().numpy())


# ---- training: autograd, float64, the custom ops, torch.compile -----------------------


@needs_ptorch
def test_gradcheck_float64_through_apply():
    r = posenc.RoPE(16, base=10000.0, scaling={"type": "yarn", "factor": 4.0,
                                               "original_max_position_embeddings": 64})
    pos = torch.tensor([0, 3, 100, 7, 100000])
    q = torch.randn(5, 2, 16, dtype=torch.float64, requires_grad=True)
    k = torch.randn(5, 1, 16, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(
        lambda a, b: r.apply(a, b, positions=pos, inplace=False), (q, k))
    assert torch.autograd.gradgradcheck(
        lambda a: r.apply(a, positions=pos, inplace=False), (q,))


@needs_ptorch
def test_float64_rotation_against_mpmath():
    r = posenc.RoPE(8, base=10000.0, layout="interleaved")
    x = torch.randn(3, 1, 8, dtype=torch.float64)
    pos = [1, 1000, 10 ** 6]
    y = r.apply(x, positions=torch.tensor(pos), inplace=False)
    assert y.dtype == torch.float64 and y.shape == x.shape
    for t, p in enumerate(pos):
        for kk in range(4):
            c, s = mp_cos_sin(p, mp_inv_freq(kk, 8, 10000.0))
            a, b = mpmath.mpf(float(x[t, 0, 2 * kk])), mpmath.mpf(float(x[t, 0, 2 * kk + 1]))
            assert abs(float(y[t, 0, 2 * kk]) - float(a * c - b * s)) <= 4e-16 * (abs(a) + abs(b))
            assert abs(float(y[t, 0, 2 * kk + 1]) - float(a * s + b * c)) <= \
                4e-16 * (abs(a) + abs(b))
    # float64 in place (no grad) changes x itself
    z = x.clone()
    assert r.apply(z, positions=torch.tensor(pos)) is z and torch.equal(z, y)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@needs_ptorch
def test_backward_is_the_inverse_rotation(dtype):
    r = posenc.RoPE(32, base=500000.0)
    pos = torch.tensor([[0, 1, 2, 50000], [7, 8, 9, 10]])
    q = rand(2, 4, 3, 32, dtype=dtype).requires_grad_()  # [batch, seq, heads, head_dim]
    y = r.apply(q, positions=pos, inplace=False)
    assert y.shape == q.shape and y.dtype == dtype
    # the forward is the library's rotation, bit for bit
    assert torch.equal(y.detach(), r.apply(q.detach().clone(), positions=pos, layout="bshd"))
    g = rand(2, 4, 3, 32, dtype=dtype)
    y.backward(g)
    want = r.apply(g.clone(), positions=pos, layout="bshd", inverse=True)
    assert torch.equal(q.grad, want)


@needs_ptorch
def test_custom_ops_pass_opcheck():
    r = posenc.RoPE(16)
    h = ptorch._handle(r)
    x = torch.randn(4, 2, 16)
    pos = torch.tensor([0, 5, 9, 100])
    torch.library.opcheck(torch.ops.posenc.rope_apply.default, (x, pos, h, False))
    rot = ptorch.RotaryEmbedding({"rope_theta": 10000.0, "head_dim": 16,
                                  "max_position_embeddings": 128})
    torch.library.opcheck(torch.ops.posenc.cos_sin.default,
                          (torch.tensor([[0, 3, 7]]), rot._handles[None], 8))


@needs_ptorch
def test_apply_inside_torch_compile_has_no_graph_break():
    r = posenc.RoPE(32)
    pos = torch.arange(6)

    def f(q, k):
        q2, k2 = r.apply(q, k, positions=pos, inplace=False, layout="bhsd")
        return (q2 * k2).sum(-1)

    q, k = rand(1, 2, 6, 32), rand(1, 2, 6, 32)
    torch._dynamo.reset()
    explained = torch._dynamo.explain(f)(q, k)
    assert explained.graph_break_count == 0, explained.break_reasons
    got = torch.compile(f, backend="eager", fullgraph=True)(q, k)
    assert torch.equal(got, f(q, k))


@needs_ptorch
def test_cuda_tensors_are_refused_with_a_message_the_module_works_anywhere():
    r = posenc.RoPE(16)
    with pytest.raises(ValueError, match="meta"):
        r.apply(torch.empty(3, 2, 16, device="meta"))
    rot = ptorch.RotaryEmbedding({"rope_theta": 10000.0, "head_dim": 16,
                                  "max_position_embeddings": 128}, device="meta")
    assert rot.inv_freq.device.type == "meta"  # the device argument is honoured


def test_4d_tensors_need_their_layout():
    r = posenc.RoPE(16)
    x = rand(2, 5, 3, 16)
    before = x.clone()
    with pytest.raises(ValueError, match=r"layout='bhsd'.*layout='bshd'"):
        r.apply(x)
    with pytest.raises(ValueError, match="fit neither"):
        r.apply(x, positions=torch.arange(4))
    assert torch.equal(x, before)
    sq = rand(1, 4, 4, 16)  # heads == seq: positions cannot tell
    with pytest.raises(ValueError, match="fit both"):
        r.apply(sq, positions=torch.arange(4))
    # [batch, seq] positions that fit one axis name the layout themselves
    pid = torch.tensor([[0, 1, 2, 3, 4], [9, 10, 11, 12, 13]])
    a = r.apply(x.clone(), positions=pid)  # seq is axis 1: bshd
    b = r.apply(x.clone(), positions=pid, layout="bshd")
    c = r.apply(x.transpose(1, 2).contiguous(), positions=pid, layout="bhsd").transpose(1, 2)
    assert torch.equal(a, b) and torch.equal(a, c)


# ---- the tensor path: _core reads tensors through DLPack ------------------------

def test_tensor_path_positions_any_integer_tensor():
    """Positions as int32, strided, [batch, seq] and expanded tensors: the same
    rotation as the NumPy path with int64 arrays."""
    r = posenc.RoPE(16)
    base = rand(2, 4, 3, 16)  # [batch, heads, seq, head_dim]
    pid64 = np.array([[0, 7, 4096], [5, 100000, 2]], np.int64)
    want = r.apply(base.numpy().copy(), positions=pid64, layout="bhsd")
    for pid in (torch.from_numpy(pid64).int(),
                torch.from_numpy(pid64.T.copy()).t(),              # strided [batch, seq]
                torch.from_numpy(np.stack([pid64, pid64], -1))[..., 0]):  # a strided slice
        q = base.clone()
        r.apply(q, positions=pid, layout="bhsd")
        assert np.array_equal(q.numpy(), want)
    one = torch.tensor([4000, 4001, 4002])[None].expand(2, 3)  # stride-0 batch: read, not written
    q = base.clone()
    r.apply(q, positions=one, layout="bhsd")
    assert np.array_equal(q.numpy(), r.apply(base.numpy().copy(), positions=np.arange(4000, 4003),
                                             layout="bhsd"))
    c, s = r.cos_sin(torch.tensor([3, 9], dtype=torch.int16))
    c0, s0 = r.cos_sin(np.array([3, 9]))
    assert np.array_equal(c, c0) and np.array_equal(s, s0)


def test_tensor_path_refusals_name_the_argument_and_write_nothing():
    r = posenc.RoPE(16)
    a = rand(3, 2, 16)
    before = a.clone()
    # a lazily negated view (neg bit): its memory holds -x; torch's export does not say so
    neg = torch._neg_view(a.clone())
    assert neg.is_neg()
    with pytest.raises(TypeError, match="q: this tensor has its negative bit set"):
        r.apply(neg)
    with pytest.raises(TypeError, match="positions must be integers .int64., got torch.float32"):
        r.apply(a, positions=torch.zeros(3))
    with pytest.raises(TypeError, match="q is torch.float32 but the dtype argument is "
                                        "torch.float16"):
        r.apply(a, dtype=torch.float16)
    with pytest.raises(TypeError, match="k is torch.float16 but q is torch.float32"):
        r.apply(a, rand(3, 2, 16, dtype=torch.float16))
    with pytest.raises(TypeError, match="k is torch.int64"):
        r.apply(a, torch.zeros(3, 2, 16, dtype=torch.int64))
    with pytest.raises(ValueError, match="k requires grad"):
        r._c.apply(a, rand(3, 2, 16).requires_grad_(), None, 0, False, 1, -1, None, None)
    with pytest.raises(ValueError, match="positions must have shape .3."):
        r.apply(a, positions=torch.arange(4))
    assert torch.equal(a, before)


def test_tensor_path_q_and_k_in_one_buffer():
    """q and k as slices of one fused [n_tok, heads, head_dim] buffer: disjoint
    slices rotate (the same as separate copies); overlapping ones are refused."""
    r = posenc.RoPE(32)
    fused = rand(5, 6, 32)  # 4 q heads, 2 k heads
    q, k = fused[:, :4], fused[:, 4:]
    pos = torch.tensor([1, 2, 3, 50000, 7])
    wq, wk = r.apply(q.numpy().copy(), k.numpy().copy(), positions=pos.numpy())
    r.apply(q, k, positions=pos)
    assert np.array_equal(q.numpy(), wq) and np.array_equal(k.numpy(), wk)
    before = fused.clone()
    with pytest.raises(ValueError, match="share memory"):
        r.apply(fused[:, :4], fused[:, 3:], positions=pos)
    assert torch.equal(fused, before)


def test_tensor_path_out_of_place_bf16_against_the_reference():
    """inplace=False on bfloat16 [batch, heads, seq, head_dim] views: new
    tensors, inputs untouched, each value the float64 rotation of the stored
    bf16 value rounded once (2^-8 relative: half a bf16 ulp plus the
    float32 cos/sin)."""
    r = posenc.RoPE(64)
    x = rand(1, 7, 4, 64, dtype=torch.bfloat16)
    q = x.transpose(1, 2)  # [1, 4, 7, 64], token-major memory
    before = q.clone()
    pid = torch.tensor([[0, 1, 2, 300, 4096, 65535, 10**6]])
    out = r.apply(q, positions=pid, inplace=False, layout="bhsd")
    assert torch.equal(q, before) and out.dtype == torch.bfloat16 and out.shape == q.shape
    c, s = r.cos_sin(pid[0].numpy(), dtype=np.float64)  # [7, 32]
    v = before.double().numpy()[0]  # [4, 7, 64]
    want = np.concatenate([v[..., :32] * c - v[..., 32:] * s, v[..., :32] * s + v[..., 32:] * c], -1)
    got = out.double().numpy()[0]
    assert np.all(np.abs(got - want) <= 2.0 ** -8 * np.maximum(np.abs(want), 2.0 ** -126) + 1e-30)


@needs_config
@needs_ptorch
def test_torch_export_of_the_rotary_module_is_exact():
    """torch.export (what torch 2.13 names in place of torch.jit.script, which
    it deprecates: torch/jit/_script.py L1488-1491) captures RotaryEmbedding
    through the custom op; the exported program, run at positions other than
    the traced ones, gives cos and sin within posenc's float32 contract."""
    rot = ptorch.RotaryEmbedding(llama_config())
    x = torch.zeros(1, 4, 4096)
    ep = torch.export.export(rot, (x, torch.arange(4)[None]))
    pid = torch.tensor([[7, 4095, 100000, 1000000]])
    cos, sin = ep.module()(x, pid)
    assert cos.shape == (1, 4, 128)
    for t in range(4):
        for k in (0, 5, 63):
            ec, es = mp_cos_sin(int(pid[0, t]), mp_inv_freq(k, 128, 10000.0))
            assert abs(float(cos[0, t, k]) - float(ec)) <= f32_tol(ec)
            assert abs(float(sin[0, t, k + 64]) - float(es)) <= f32_tol(es)


@needs_config
@needs_ptorch
def test_jit_script_is_refused_with_the_way_out():
    """TorchScript (deprecated by torch 2.13) is refused naming torch.compile and
    torch.export, not with TorchScript's type error on the module's state."""
    import warnings

    rot = ptorch.RotaryEmbedding(llama_config())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(RuntimeError, match="torch.compile .no graph break. or torch.export"):
            torch.jit.script(rot)
