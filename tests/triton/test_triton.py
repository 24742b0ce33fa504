"""posenc.triton under Triton's interpreter (TRITON_INTERPRET=1, CPU tensors):
the kernel against mpmath (exact) and posenc's CPU path.

Run by tests/triton_test.sh (make test-triton). Accuracy contract (posenc.triton's
docstring): cos/sin within 1 float32 ulp of exact; rotated float32 within 2 ulps
of the pair's scale (af |(x, y)|); bfloat16/float16 within one rounding of exact
(the stored value is one of the two neighbours of the exact result); elements
not rotated are bit-identical. Shapes are small: the interpreter runs each
program in NumPy.
"""
import os

os.environ["TRITON_INTERPRET"] = "1"

import mpmath  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import posenc  # noqa: E402
import posenc.triton as pt  # noqa: E402
from posenc import _gpu  # noqa: E402

mpmath.mp.prec = 200
MAX = 2**31 - 1
# positions 0 .. 2^31 - 1: the ends, powers of two and their neighbours, a few
# fixed odd values (same every run)
POSITIONS = [0, 1, 2, 3, 1000, 65535, 65536, 2**24 + 1, 123456789, 2**30 - 1, 2**30,
             1999999999, MAX - 1, MAX]


def exact_freq(rope, k):
    return mpmath.mpf(float(rope.inv_freq[k])) + mpmath.mpf(float(rope.inv_freq_lo[k]))


_CS = {}


def exact_cs(rope, pos, k):
    # keyed by the values, not id(rope): a freed RoPE's id is reused by the
    # next one, whose cos/sin would then be another base's
    f = exact_freq(rope, k)
    key = (str(f), float(rope.attention_factor), pos)
    if key not in _CS:
        th = pos * f
        af = mpmath.mpf(rope.attention_factor)
        _CS[key] = (af * mpmath.cos(th), af * mpmath.sin(th))
    return _CS[key]


def ulp32(v):
    """float32 spacing at |v| (exact v, an mpf or float)."""
    v = abs(float(v))
    if v < 2.0**-126:
        return 2.0**-149
    return 2.0 ** (int(np.floor(np.log2(v))) - 23)


def spacing(v, dtype):
    """The spacing of dtype at |v| (its ulp there)."""
    bits = {torch.bfloat16: 7, torch.float16: 10, torch.float32: 23}[dtype]
    tiny = {torch.bfloat16: -126, torch.float16: -14, torch.float32: -126}[dtype]
    v = abs(float(v))
    e = max(int(np.floor(np.log2(v))) if v > 0 else tiny, tiny)
    return 2.0 ** (e - bits)


def pair_index(rope, j):
    P = rope.rotary_dim // 2
    return (2 * j, 2 * j + 1) if rope.layout == "interleaved" else (j, j + P)


def check_rotated(rope, before, after, pos_of_token, dtype, inverse=False):
    """before/after: float64 numpy [n_tok, H, D] (the values as stored). Checks
    every rotated pair against mpmath and the rest for bit identity."""
    worst = 0.0
    P = rope.rotary_dim // 2
    n, H, D = before.shape
    rot = np.zeros(D, bool)
    for t in range(n):
        for j in range(P):
            c, s = exact_cs(rope, int(pos_of_token[t]), j)
            if inverse:
                s = -s
            i0, i1 = pair_index(rope, j)
            rot[i0] = rot[i1] = True
            for h in range(H):
                x, y = mpmath.mpf(before[t, h, i0]), mpmath.mpf(before[t, h, i1])
                X, Y = x * c - y * s, x * s + y * c
                scale = mpmath.sqrt(X * X + Y * Y)
                for got, want in ((after[t, h, i0], X), (after[t, h, i1], Y)):
                    err = abs(mpmath.mpf(got) - want)
                    if dtype is torch.float32:
                        if scale == 0:
                            assert got == 0
                            continue
                        e = float(err / ulp32(scale))
                        worst = max(worst, e)
                        assert e <= 2.0, (t, h, j, got, float(want), e)
                    else:
                        # one rounding: got is a neighbour of want in dtype
                        sp = spacing(max(abs(float(want)), abs(float(got))), dtype)
                        assert float(err) < sp, (t, h, j, got, float(want), float(err), sp)
    assert np.array_equal(before[:, :, ~rot], after[:, :, ~rot])  # bits (as float64)
    return worst


def f64(x):
    return x.detach().to(torch.float64).numpy().copy()


DTYPES = [torch.float32, torch.bfloat16, torch.float16]
LAYOUTS = ["half", "interleaved"]


# ---- the steps alone -------------------------------------------------------------


def test_two_product_and_reduction_against_mpmath():
    rope = posenc.RoPE(64, base=500000.0)
    pos = torch.tensor([p for p in POSITIONS for _ in range(4)], dtype=torch.int64)
    ks = [0, 1, 7, 31] * len(POSITIONS)
    hi = torch.tensor([float(rope.inv_freq[k]) for k in ks], dtype=torch.float64)
    lo = torch.tensor([float(rope.inv_freq_lo[k]) for k in ks], dtype=torch.float64)
    out = pt._steps(pos, hi, lo).numpy()
    half_pi = mpmath.pi / 2
    for i in range(len(ks)):
        x = mpmath.mpf(int(pos[i]))
        p, e, rh, rl, n, c, s = (out[r, i] for r in range(7))
        # two-product: p + e is pos hi exactly, p its rounding
        assert mpmath.mpf(p) + mpmath.mpf(e) == x * mpmath.mpf(float(hi[i]))
        assert p == float(pos[i]) * float(hi[i])
        # reduction: theta - n pi/2 = rh + rl within 2^-70, |rh| <= pi/4 + tiny
        theta = x * (mpmath.mpf(float(hi[i])) + mpmath.mpf(float(lo[i])))
        r = theta - int(n) * half_pi
        assert abs(mpmath.mpf(rh) + mpmath.mpf(rl) - r) < mpmath.mpf(2) ** -70, i
        assert abs(rh) <= float(half_pi / 2) + 2**-40
        assert abs(rl) <= abs(rh) * 2**-52 or rh == 0
        # cos and sin in float64 before the float32 rounding: within 2^-52 absolute
        assert abs(mpmath.mpf(c) - mpmath.cos(theta)) < mpmath.mpf(2) ** -52
        assert abs(mpmath.mpf(s) - mpmath.sin(theta)) < mpmath.mpf(2) ** -52


def test_frequencies_are_the_exact_ones():
    # hi + lo is base^(-2k / rotary_dim) to about 100 bits (the library's value)
    rope = posenc.RoPE(128, base=10000.0)
    for k in (0, 1, 17, 63):
        want = mpmath.mpf(10000) ** (-mpmath.mpf(2 * k) / 128)
        assert abs(exact_freq(rope, k) - want) <= want * mpmath.mpf(2) ** -100


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cos_sin_within_one_ulp(layout):
    rope = posenc.RoPE(32, base=10000.0, layout=layout)
    pos = torch.tensor(POSITIONS, dtype=torch.int64)
    c, s = pt.cos_sin(rope, pos)
    c0, s0 = rope.cos_sin(pos.numpy())
    for t, p in enumerate(POSITIONS):
        for j in range(16):
            ec, es = exact_cs(rope, p, j)
            assert abs(mpmath.mpf(float(c[t, j])) - ec) <= ulp32(ec), (p, j)
            assert abs(mpmath.mpf(float(s[t, j])) - es) <= ulp32(es), (p, j)
    # the CPU path's values: both within 1 ulp, so they differ by 2 ulps at most
    assert np.abs(c.numpy() - c0).max() <= 2 * 2.0**-24
    assert np.abs(s.numpy() - s0).max() <= 2 * 2.0**-24


def test_cos_sin_attention_factor_and_shape():
    rope = posenc.RoPE(16, scaling={"rope_type": "yarn", "factor": 4.0,
                                    "original_max_position_embeddings": 4096})
    assert rope.attention_factor != 1.0
    pos = torch.tensor([[0, 5, 70000], [MAX, 3, 9]])
    c, s = pt.cos_sin(rope, pos)
    assert c.shape == (2, 3, 8) and c.dtype == torch.float32
    c0, s0 = rope.cos_sin(pos.numpy())
    assert np.abs(c.numpy() - c0).max() <= 2 * 2.0**-23
    assert np.abs(s.numpy() - s0).max() <= 2 * 2.0**-23


# ---- apply -----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_apply_every_dtype_and_layout(dtype, layout):
    """q and k (GQA: 3 and 1 heads), partial rotary, positions up to 2^31 - 1,
    against mpmath and the CPU path."""
    torch.manual_seed(7)
    rope = posenc.RoPE(12, rotary_dim=8, base=10000.0, layout=layout)
    pos = torch.tensor([0, 1, 65536, 123456789, MAX - 1, MAX])
    q = (torch.randn(6, 3, 12) * 3).to(dtype)
    k = torch.randn(6, 1, 12).to(dtype)
    q0, k0 = f64(q), f64(k)
    qc, kc = q.clone(), k.clone()
    r = pt.apply(rope, q, k, positions=pos)
    assert r[0] is q and r[1] is k
    check_rotated(rope, q0, f64(q), pos, dtype)
    check_rotated(rope, k0, f64(k), pos, dtype)
    rope.apply(qc, kc, pos)  # the library's CPU path
    if dtype is torch.float32:
        scale = np.maximum(np.abs(q0).max(), 1e-30)
        assert np.abs(f64(q) - f64(qc)).max() <= 4 * 2.0**-23 * scale
    else:
        sp = 2.0**-7 if dtype is torch.bfloat16 else 2.0**-10
        assert np.all(np.abs(f64(q) - f64(qc)) <= sp * np.maximum(np.abs(f64(qc)), 2.0**-14))


def test_strided_views_and_untouched_neighbours():
    """q, k and v slices of one fused QKV buffer (q non-contiguous, heads of
    stride 3 D); v and the gaps are bit-identical afterwards."""
    torch.manual_seed(3)
    rope = posenc.RoPE(8, base=10000.0)
    buf = torch.randn(5, 4, 3, 8)  # [tok, head, (q|k|v), D]
    before = buf.clone()
    q = buf[:, :, 0, :]
    k = buf[:, 1:3, 1, :]
    assert not q.is_contiguous()
    pos = torch.tensor([MAX, 0, 7, 2**29 + 5, 44])
    q0, k0 = f64(q), f64(k)
    pt.apply(rope, q, k, positions=pos)
    check_rotated(rope, q0, f64(q), pos, torch.float32)
    check_rotated(rope, k0, f64(k), pos, torch.float32)
    assert torch.equal(buf[:, :, 2], before[:, :, 2])
    assert torch.equal(buf[:, 0, 1], before[:, 0, 1]) and torch.equal(buf[:, 3, 1],
                                                                      before[:, 3, 1])


@pytest.mark.parametrize("lay", ["bhsd", "bshd"])
def test_four_axes_and_batch_positions(lay):
    torch.manual_seed(5)
    rope = posenc.RoPE(8, base=1000000.0, layout="half")
    B, S, H = 2, 3, 2
    x = torch.randn(B, S, H, 8)
    q = x.transpose(1, 2) if lay == "bhsd" else x  # a strided view for bhsd
    pos = torch.tensor([[5, 6, 7], [MAX - 2, MAX - 1, MAX]])
    x0 = f64(x).reshape(B * S, H, 8)
    ref = q.clone()
    rope.apply(ref, None, pos, layout=lay)
    pt.apply(rope, q, positions=pos, layout=lay)
    check_rotated(rope, x0, f64(x).reshape(B * S, H, 8), pos.reshape(-1).tolist(),
                  torch.float32)
    assert np.abs(f64(q) - f64(ref)).max() <= 4 * 2.0**-23 * float(ref.abs().max())


def test_positions_none_int_and_inverse():
    torch.manual_seed(9)
    rope = posenc.RoPE(8, base=10000.0, layout="interleaved")
    q = torch.randn(4, 2, 8)
    q0 = f64(q)
    pt.apply(rope, q, positions=MAX - 3)  # an int: MAX-3 .. MAX
    check_rotated(rope, q0, f64(q), [MAX - 3, MAX - 2, MAX - 1, MAX], torch.float32)
    q1 = f64(q)
    pt.apply(rope, q, positions=MAX - 3, inverse=True)
    check_rotated(rope, q1, f64(q), [MAX - 3, MAX - 2, MAX - 1, MAX], torch.float32,
                  inverse=True)
    assert np.abs(f64(q) - q0).max() < 1e-5  # back where it was (af = 1)
    r = torch.randn(3, 8)
    r0 = f64(r)[:, None, :]
    pt.apply(rope, r)  # [n_tok, head_dim], positions 0, 1, 2
    check_rotated(rope, r0, f64(r)[:, None, :], [0, 1, 2], torch.float32)
    with pytest.raises(posenc.Error):
        pt.apply(rope, q, positions=MAX - 2)  # MAX - 2 + 3 > MAX


def test_mrope_sections():
    torch.manual_seed(11)
    rope = posenc.RoPE(16, base=10000.0)
    for rule, sec in (("chunks", [2, 3, 3]), ("interleaved", [4, 2, 2])):
        m = posenc.MRoPE(rope, sec, rule)
        q = torch.randn(4, 2, 16)
        pos = torch.tensor([[0, 1, 9, MAX], [0, 4, 100000, 7], [0, 2, MAX, 70000]])
        want = m.apply(q, pos)  # the CPU path: a new tensor
        pt.apply(m, q, positions=pos)
        assert np.abs(f64(q) - f64(want)).max() <= 4 * 2.0**-23 * float(want.abs().max())


def test_out_of_range_positions_are_nan_and_refusals():
    rope = posenc.RoPE(8)
    q = torch.ones(2, 1, 8)
    pt.apply(rope, q, positions=torch.tensor([-1, 2**31]))
    assert torch.isnan(q).all()
    with pytest.raises(TypeError):
        pt.apply(rope, torch.ones(2, 1, 8, dtype=torch.float64))
    with pytest.raises(TypeError):
        pt.apply(rope, torch.ones(2, 1, 8), positions=torch.tensor([0.0, 1.0]))
    with pytest.raises(ValueError):
        pt.apply(rope, torch.ones(2, 1, 6))
    with pytest.raises(ValueError):
        pt.apply(rope, torch.ones(2, 1, 8), positions=torch.tensor([0, 1, 2]))
    with pytest.raises(ValueError):
        pt.apply(rope, torch.ones(1, 2, 2, 8))  # 4-D without a layout or positions


def test_no_allocation_per_call_frequencies_cached():
    rope = posenc.RoPE(8)
    q = torch.ones(2, 1, 8)
    pt.apply(rope, q)
    f = pt._freq(rope, q.device)
    pt.apply(rope, q, positions=5)
    assert pt._freq(rope, q.device) is f


# ---- the wiring: RoPE.apply and the modules -------------------------------------


def test_dispatch_reports_the_path():
    import posenc.torch as ptorch

    ptorch_apply_cuda = ptorch._apply_cuda  # RoPE.apply's CUDA branch (torch code in torch.py)
    rope = posenc.RoPE(8)
    q = torch.randn(3, 2, 8)
    q2 = q.clone()
    rope.apply(q, None, torch.tensor([4, 5, 6]))
    assert posenc.last_apply_path() == "cpu"  # CPU tensors: the library, unchanged
    # the CUDA branch of RoPE.apply, called with CPU tensors (the interpreter)
    r = ptorch_apply_cuda(rope, q2, None, torch.tensor([4, 5, 6]), False, False, None)
    assert posenc.last_apply_path() == "triton"
    assert r is not q2 and np.abs(f64(r) - f64(q)).max() <= 4 * 2.0**-23 * 4
    assert ptorch_apply_cuda(rope, q2.double(), None, None, True, False, None) is None
    assert _gpu.triton_module() is pt


def test_module_cos_sin_on_device_path():
    import posenc.torch as ptorch

    rope = posenc.RoPE(16, base=10000.0)
    src = ptorch._Source(rope, 4096)
    pos = torch.tensor([[0, 3, MAX]])
    c, s = pt.cos_sin(src.rope0, pos)  # what _Source.cos_sin returns on CUDA
    c0, s0 = src.cos_sin(pos)  # CPU positions: the library's path
    assert src.path == "cpu"
    assert np.abs(c.numpy() - c0.numpy()).max() <= 2 * 2.0**-24
    assert np.abs(s.numpy() - s0.numpy()).max() <= 2 * 2.0**-24


# ---- the compiled kernel (no GPU needed to compile) ----------------------------

_COMPILE = r"""
import sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
import posenc.triton as pt

names = "q_sb q_ss q_sh q_sd k_sb k_ss k_sh k_sd p_sb p_ss p_sa pos0".split()
for arg in sys.argv[1:]:
    dtype, flags = arg.split(":")
    sig = {"q_ptr": "*" + dtype, "k_ptr": "*" + dtype, "pos_ptr": "*i64", "freq_ptr": "*fp64",
           "axis_ptr": "*i32", "S": "i32", "HQ": "i32", "HK": "i32", "P": "i32",
           **{n: "i64" for n in names}}
    consts = dict(zip(("HAS_K", "HAS_POS", "MROPE", "INTERLEAVED", "INVERSE"),
                      [c == "1" for c in flags]), BLOCK_P=64, BLOCK_H=16)
    sig.update({n: "constexpr" for n in consts})
    k = triton.compile(ASTSource(fn=pt._rope_kernel, signature=sig, constexprs=consts),
                       target=GPUTarget("cuda", 90, 32), options={"enable_fp_fusion": False})
    assert "cubin" in k.asm
    sys.stdout.write(k.asm["ptx"] + "\n@@@@\n")
"""


def test_kernel_compiles_for_sm90_without_fused_float32():
    """The same source compiled for an H100/H200 (sm_90: Triton's MLIR -> PTX ->
    ptxas, no device needed; a process without the interpreter), bf16 with k,
    positions and M-RoPE, fp32 interleaved inverse, fp16: float64 fma in the
    three two-products only, no float32 fma (each product and sum of the
    rotation rounded), float64 -> float32 to nearest. What the interpreter
    cannot say about the GPU build."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    r = subprocess.run([sys.executable, "-c", _COMPILE, "bf16:11100", "fp32:00011",
                        "fp16:10010"], env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0 and "ptxas" in r.stderr:
        pytest.skip("no ptxas: " + r.stderr.strip().splitlines()[-1])
    assert r.returncode == 0, r.stderr[-2000:]
    ptxs = r.stdout.split("@@@@")[:-1]
    assert len(ptxs) == 3
    for ptx in ptxs:
        assert ptx.count("fma.rn.f64") == 3
        assert "fma.rn.f32" not in ptx
        assert "cvt.rn.f32.f64" in ptx
