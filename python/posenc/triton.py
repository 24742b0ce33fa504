"""posenc.triton: RoPE on the GPU (Triton), exact at every position, no host table.

    import posenc, posenc.triton
    rope = posenc.RoPE(128, base=500000.0)
    posenc.triton.apply(rope, q, k, positions=position_ids)   # q, k changed in place

Present when ``triton`` imports (``import posenc`` works without it). The
kernels run on CUDA tensors, or on CPU tensors under ``TRITON_INTERPRET=1``
(Triton's interpreter: how the tests check them on machines without a GPU).
``RoPE.apply`` and the modules of ``posenc.torch`` use this path for CUDA
tensors when triton is importable (``RoPE.last_path`` says which path ran).

What the kernel computes, per token and pair k (P = rotary_dim / 2 pairs):

    theta = pos * f[k]                   f[k] = hi[k] + lo[k]: the library's
                                         double-double inverse frequency
    c, s  = af * cos(theta), af * sin(theta), each rounded to float32 once
    x' = x c - y s,  y' = x s + y c      float32, each product and sum rounded
                                         (no FMA: the launch turns fusion off)

pair k = (x[k], x[k + P]) for layout "half", (x[2k], x[2k + 1]) for
"interleaved"; elements past rotary_dim are never read or written. bfloat16 and
float16 are read into float32 and rounded once (to nearest even) at the store.

The angle, float64 throughout, without a table (posenc.h's exactness contract,
section "accuracy"):

  1. two-product: pos (int64, exact in float64 below 2^53) times hi gives
     p + e exactly (e = fma(pos, hi, -p)); t = e + pos lo.
  2. Cody-Waite reduction modulo pi/2 with pi/2 = C1 + C2 + C3 (three
     doubles, 159 bits): n = rint(p 2/pi); p - n C1 is exact (Sterbenz), n C1
     and n C2 are two-products; the remainder r = rh + rl in double-double,
     |rh| <= pi/4 + tiny, absolute error below 2^-70 for every pos < 2^31.
  3. sin and cos of rh by their Taylor series to degree 19 / 20 in float64
     (Horner; truncation below 1e-21 on |r| <= pi/4), corrected by rl
     (sin(rh + rl) = sin rh + cos rh rl), quadrant n mod 4, times af, one
     rounding to float32: within 1 ulp of the exact value at every position
     0 .. 2^31 - 1 (tests/triton/).

The same arithmetic runs on the GPU and in the interpreter. Triton 3.9.0's
interpreter has float64 and an exact fused multiply-add (tl.fma: one rounding,
triton/runtime/interpreter.py create_fma), but libdevice's sin and rint give
nothing there, and its float32 -> bfloat16 conversion truncates: so the kernel
calls no libdevice function (tl.floor, its own Taylor series) and rounds to
bfloat16 by hand. Each launch turns fp fusion off, so the GPU build rounds
the rotation's products like the CPU path; tests/triton/ compiles the kernel
for sm_90 (PTX and cubin, no device needed) and checks the float64 fma are the
three two-products and there is no float32 fma.

No position is read on the host, nothing is allocated per call (the
frequencies live in a float64 tensor cached per (RoPE, device); positions
given as an int or None become a kernel argument), so a call can be captured
in a CUDA graph once the first call has made the cache. Positions outside
0 .. 2^31 - 1 (not checked on the host: that would be a device sync) give NaN
in that token's rotated elements.
"""
from __future__ import annotations

import os
import weakref
from typing import Any, Dict, Optional, Tuple

import numpy as np
import torch
import triton
import triton.language as tl

from . import Error, RoPE, _layout_4d

__all__ = ["apply", "cos_sin", "interpreted"]

MAX_POS = 2147483647

def interpreted() -> bool:
    """Whether Triton runs kernels in its interpreter (TRITON_INTERPRET=1)."""
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


# ---- the arithmetic: float64 and double-double -----------------------------------


@triton.jit
def _two_prod(a, b):
    """a b = p + e exactly (the fma computes a b - p with one rounding)."""
    p = a * b
    e = tl.fma(a, b, -p)
    return p, e


@triton.jit
def _two_sum(a, b):
    """a + b = s + e exactly (Knuth, any order of magnitude)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


@triton.jit
def _reduce(pos, hi, lo):
    """pos (hi + lo) = n pi/2 + rh + rl: returns rh, rl (float64) and n (int64).

    pos: int64 in 0 .. 2^31 - 1; hi, lo: the double-double frequency."""
    x = pos.to(tl.float64)
    p, e = _two_prod(x, hi)
    t = e + x * lo                                  # |t| <= 2^-21; error <= 2^-74
    n = tl.floor(p * 0.6366197723675814 + 0.5)      # rint(p 2/pi), |n| < 2^31
    a1, b1 = _two_prod(n, 1.5707963267948966)       # n C1 = a1 + b1
    a2, b2 = _two_prod(n, 6.123233995736766e-17)    # n C2 = a2 + b2
    s0 = p - a1                                     # exact: a1 / 2 <= p <= 2 a1 or n = 0
    rh, e1 = _two_sum(s0, -a2)
    rl = (((e1 - b1) - b2) - n * -1.4973849048591698e-33) + t
    rh, rl = _two_sum(rh, rl)
    return rh, rl, n.to(tl.int64)


@triton.jit
def _horner10(z, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9):
    """c0 z^9 + c1 z^8 + ... + c8 z + c9 by Horner's rule (float64)."""
    p = c0 * z + c1
    p = p * z + c2
    p = p * z + c3
    p = p * z + c4
    p = p * z + c5
    p = p * z + c6
    p = p * z + c7
    p = p * z + c8
    return p * z + c9


@triton.jit
def _sin_cos_small(r):
    """sin r, cos r for |r| <= pi/4 + 2^-40 by Taylor series (float64 Horner)."""
    z = r * r
    sp = _horner10(z, 1.9572941063391263e-20, -8.22063524662433e-18,  # 1/21! ... 1/3!,
                   2.8114572543455206e-15, -7.647163731819816e-13,    # alternating
                   1.6059043836821613e-10, -2.505210838544172e-08,
                   2.7557319223985893e-06, -0.0001984126984126984,
                   0.008333333333333333, -0.16666666666666666)
    sn = r + r * (z * sp)
    cp = _horner10(z, -8.896791392450574e-22, 4.110317623312165e-19,  # -1/22! ... 1/4!,
                   -1.5619206968586225e-16, 4.779477332387385e-14,    # then -1/2! below
                   -1.1470745597729725e-11, 2.08767569878681e-09,
                   -2.755731922398589e-07, 2.48015873015873e-05,
                   -0.001388888888888889, 0.041666666666666664)
    cp = cp * z - 0.5
    cs = 1.0 + z * cp
    return sn, cs


@triton.jit
def _cos_sin64(pos, hi, lo, af):
    """af cos(pos f), af sin(pos f) in float64 (f = hi + lo), before rounding."""
    rh, rl, n = _reduce(pos, hi, lo)
    s1, c1 = _sin_cos_small(rh)
    s2 = s1 + c1 * rl                                # sin(rh + rl)
    c2 = c1 - s1 * rl                                # cos(rh + rl)
    q = n & 3                                        # theta = n pi/2 + r
    sn = tl.where(q == 0, s2, tl.where(q == 1, c2, tl.where(q == 2, -s2, -c2)))
    cs = tl.where(q == 0, c2, tl.where(q == 1, -s2, tl.where(q == 2, -c2, s2)))
    bad = (pos < 0) | (pos > 2147483647)
    nan = float("nan")
    return tl.where(bad, nan, af * cs), tl.where(bad, nan, af * sn)


@triton.jit
def _store_rounded(ptr, v, mask):
    """Stores float32 v into ptr's element type, rounded once to nearest even
    (bfloat16 by hand: the interpreter's conversion truncates)."""
    if ptr.dtype.element_ty == tl.bfloat16:
        u = v.to(tl.uint32, bitcast=True)
        r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
        r = tl.where(v != v, 0x7FC0, r)
        tl.store(ptr, r.to(tl.uint16).to(tl.bfloat16, bitcast=True), mask=mask)
    else:
        tl.store(ptr, v.to(ptr.dtype.element_ty), mask=mask)


@triton.jit
def _rotate_heads(base, H, sh, sd, e0, e1, pm, c, s, BLOCK_H: tl.constexpr):
    """Rotates pairs (e0[j], e1[j]) of heads 0..H-1 at base + h sh + e sd."""
    for h0 in range(0, H, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        m = (h < H)[:, None] & pm[None, :]
        row = base + h.to(tl.int64)[:, None] * sh
        px = row + e0[None, :] * sd
        py = row + e1[None, :] * sd
        x = tl.load(px, mask=m, other=0.0).to(tl.float32)
        y = tl.load(py, mask=m, other=0.0).to(tl.float32)
        xc = x * c[None, :]
        ys = y * s[None, :]
        xs = x * s[None, :]
        yc = y * c[None, :]
        _store_rounded(px, xc - ys, m)
        _store_rounded(py, xs + yc, m)


# ---- the kernels ----------------------------------------------------------------


@triton.jit
def _rope_kernel(q_ptr, k_ptr, pos_ptr, freq_ptr, axis_ptr,
                 S, HQ, HK, P,
                 q_sb, q_ss, q_sh, q_sd, k_sb, k_ss, k_sh, k_sd,
                 p_sb, p_ss, p_sa, pos0,
                 HAS_K: tl.constexpr, HAS_POS: tl.constexpr, MROPE: tl.constexpr,
                 INTERLEAVED: tl.constexpr, INVERSE: tl.constexpr,
                 BLOCK_P: tl.constexpr, BLOCK_H: tl.constexpr):
    # one program per token: q, k viewed as [B, S, H, D] with any strides
    tok = tl.program_id(0).to(tl.int64)
    b = tok // S
    t = tok - b * S
    j = tl.arange(0, BLOCK_P)
    pm = j < P
    if HAS_POS:
        if MROPE:  # pair j follows position row axis[j] (t, h, w)
            ax = tl.load(axis_ptr + j, mask=pm, other=0).to(tl.int64)
            pos = tl.load(pos_ptr + b * p_sb + t * p_ss + ax * p_sa, mask=pm,
                          other=0).to(tl.int64)
        else:
            pos = tl.load(pos_ptr + b * p_sb + t * p_ss).to(tl.int64) + \
                tl.zeros([BLOCK_P], dtype=tl.int64)
    else:
        pos = (t + pos0) + tl.zeros([BLOCK_P], dtype=tl.int64)  # pos0 may be a constexpr
    hi = tl.load(freq_ptr + j, mask=pm, other=0.0)
    lo = tl.load(freq_ptr + P + j, mask=pm, other=0.0)
    af = tl.load(freq_ptr + 2 * P)
    c64, s64 = _cos_sin64(pos, hi, lo, af)
    c = c64.to(tl.float32)
    s = s64.to(tl.float32)
    if INVERSE:
        s = -s
    if INTERLEAVED:
        e0 = 2 * j
        e1 = 2 * j + 1
    else:
        e0 = j
        e1 = j + P
    _rotate_heads(q_ptr + b * q_sb + t * q_ss, HQ, q_sh, q_sd, e0, e1, pm, c, s, BLOCK_H)
    if HAS_K:
        _rotate_heads(k_ptr + b * k_sb + t * k_ss, HK, k_sh, k_sd, e0, e1, pm, c, s, BLOCK_H)


@triton.jit
def _cos_sin_kernel(pos_ptr, freq_ptr, axis_ptr, c_ptr, s_ptr, N, P, p_sa,
                    MROPE: tl.constexpr, BLOCK_P: tl.constexpr):
    # one program per position: c, s [N, P] float32 (contiguous)
    i = tl.program_id(0).to(tl.int64)
    j = tl.arange(0, BLOCK_P)
    pm = j < P
    if MROPE:
        ax = tl.load(axis_ptr + j, mask=pm, other=0).to(tl.int64)
        pos = tl.load(pos_ptr + i + ax * p_sa, mask=pm, other=0).to(tl.int64)
    else:
        pos = tl.load(pos_ptr + i).to(tl.int64) + tl.zeros([BLOCK_P], dtype=tl.int64)
    hi = tl.load(freq_ptr + j, mask=pm, other=0.0)
    lo = tl.load(freq_ptr + P + j, mask=pm, other=0.0)
    af = tl.load(freq_ptr + 2 * P)
    c64, s64 = _cos_sin64(pos, hi, lo, af)
    tl.store(c_ptr + i * P + j, c64.to(tl.float32), mask=pm)
    tl.store(s_ptr + i * P + j, s64.to(tl.float32), mask=pm)


@triton.jit
def _steps_kernel(pos_ptr, hi_ptr, lo_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # the steps alone, for the tests: out [6, N] float64: p, e of the two-product,
    # rh, rl, n of the reduction, and af = 1 cos before rounding
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    pos = tl.load(pos_ptr + i, mask=m, other=0).to(tl.int64)
    hi = tl.load(hi_ptr + i, mask=m, other=0.0)
    lo = tl.load(lo_ptr + i, mask=m, other=0.0)
    p, e = _two_prod(pos.to(tl.float64), hi)
    rh, rl, n = _reduce(pos, hi, lo)
    c, s = _cos_sin64(pos, hi, lo, 1.0)
    tl.store(out_ptr + i, p, mask=m)
    tl.store(out_ptr + N + i, e, mask=m)
    tl.store(out_ptr + 2 * N + i, rh, mask=m)
    tl.store(out_ptr + 3 * N + i, rl, mask=m)
    tl.store(out_ptr + 4 * N + i, n.to(tl.float64), mask=m)
    tl.store(out_ptr + 5 * N + i, c, mask=m)
    tl.store(out_ptr + 6 * N + i, s, mask=m)


# ---- the frequencies, cached per (RoPE, device) ------------------------------------

_FREQ: "weakref.WeakKeyDictionary[RoPE, Dict[str, torch.Tensor]]" = weakref.WeakKeyDictionary()
_AXIS: Dict[Tuple[Any, ...], torch.Tensor] = {}


def _freq(rope: RoPE, device: torch.device) -> torch.Tensor:
    """float64 [2 P + 1]: hi[0:P], lo[P:2P] (RoPE.inv_freq, inv_freq_lo), the
    attention factor at [2P]; made once per device."""
    per = _FREQ.get(rope)
    if per is None:
        per = _FREQ[rope] = {}
    key = str(device)
    f = per.get(key)
    if f is None:
        v = np.concatenate([rope.inv_freq, rope.inv_freq_lo, [rope.attention_factor]])
        f = per[key] = torch.from_numpy(v.astype(np.float64)).to(device)
    return f


def _axis(mrope: Any, device: torch.device) -> torch.Tensor:
    key = (id(mrope.rope), tuple(mrope.section), mrope.rule, str(device))
    a = _AXIS.get(key)
    if a is None:
        a = _AXIS[key] = torch.from_numpy(np.asarray(mrope.axis, np.int32)).to(device)
    return a


def _split(obj: Any) -> Tuple[RoPE, Optional[Any]]:
    if isinstance(obj, RoPE):
        return obj, None
    from .mrope import MRoPE

    if isinstance(obj, MRoPE):
        return obj.rope, obj
    raise TypeError(f"rope must be a posenc.RoPE or posenc.MRoPE, not {type(obj).__name__}")


_DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def _check_tensor(x: Any, name: str, head_dim: int) -> None:
    if not torch.is_tensor(x):
        raise TypeError(f"{name} must be a torch tensor")
    if x.dtype not in _DTYPES:
        raise TypeError(f"{name} is {x.dtype}; posenc.triton rotates float32, bfloat16 and "
                        "float16 tensors")
    if x.device.type != "cuda" and not (x.device.type == "cpu" and interpreted()):
        raise ValueError(f"{name} is on {x.device}: posenc.triton runs on CUDA tensors (CPU "
                         "tensors only under TRITON_INTERPRET=1)")
    if x.dim() not in (2, 3, 4) or x.shape[-1] != head_dim:
        raise ValueError(f"{name} has shape {tuple(x.shape)}: give [n_tok, n_head, head_dim], "
                         f"[n_tok, head_dim] or a 4-D tensor, head_dim {head_dim}")


def _view4(x: Any, lay: Optional[str]) -> Tuple[Tuple[int, int, int], Tuple[int, ...]]:
    """(B, S, H) and strides (sb, ss, sh, sd) of x seen as [B, S, H, D]."""
    st = x.stride()
    if x.dim() == 2:
        return (1, x.shape[0], 1), (0, st[0], 0, st[1])
    if x.dim() == 3:
        return (1, x.shape[0], x.shape[1]), (0, st[0], st[1], st[2])
    if lay == "bshd":
        return (x.shape[0], x.shape[1], x.shape[2]), (st[0], st[1], st[2], st[3])
    return (x.shape[0], x.shape[2], x.shape[1]), (st[0], st[2], st[1], st[3])


def _blocks(P: int, H: int) -> Tuple[int, int]:
    bp = triton.next_power_of_2(max(P, 1))
    bh = max(1, min(triton.next_power_of_2(max(H, 1)), max(1, 2048 // bp)))
    return bp, bh


def apply(rope: Any, q: Any, k: Any = None, *, positions: Any = None,
          inverse: bool = False, layout: Optional[str] = None) -> Any:
    """Rotates q (and k) in place by their positions in one launch; returns q, or (q, k).

    rope: a posenc.RoPE (or a posenc.MRoPE: positions then [3, n_tok] or
    [3, batch, seq], rows t, h, w). q, k: float32, bfloat16 or float16 CUDA
    tensors (CPU under TRITON_INTERPRET=1), shaped as RoPE.apply takes them:
    [n_tok, n_head, head_dim], [n_tok, head_dim], [batch, n_head, seq,
    head_dim] (layout "bhsd") or [batch, seq, n_head, head_dim] ("bshd"); any
    strides; k may have fewer heads (GQA) but the same tokens; q and k must
    not overlap (not checked: views of one fused buffer interleave). positions: None (0, 1, ..), an int p (p, p + 1, ..) or an
    integer tensor [n_tok], [seq] or [batch, seq] (moved to q's device if it
    is elsewhere: the only copy a call may make). inverse: turn by -theta.
    Same meaning and accuracy as RoPE.apply; see the module docstring.
    """
    r, mrope = _split(rope)
    _check_tensor(q, "q", r.head_dim)
    if k is not None:
        _check_tensor(k, "k", r.head_dim)
        if k.device != q.device:
            raise ValueError(f"q is on {q.device} and k on {k.device}")
    pos_t = None
    pos0 = 0
    if positions is None or isinstance(positions, (int, np.integer)):
        if mrope is not None:
            raise ValueError("M-RoPE needs positions [3, n_tok] or [3, batch, seq]")
        pos0 = 0 if positions is None else int(positions)
    else:
        pos_t = positions if torch.is_tensor(positions) else torch.as_tensor(
            np.asarray(positions, dtype=np.int64))
        if pos_t.is_floating_point() or pos_t.is_complex() or pos_t.dtype is torch.bool:
            raise TypeError(f"positions must be integers, not {pos_t.dtype}")
        if pos_t.device != q.device:
            pos_t = pos_t.to(q.device)
    lay = None
    if q.dim() == 4:
        shape_pos = None if pos_t is None else (pos_t[0] if mrope is not None else pos_t)
        lay = _layout_4d(tuple(q.shape), shape_pos, layout, "q")
    elif layout is not None:
        raise ValueError(f"layout={layout!r} is for 4-D q; q has shape {tuple(q.shape)}")
    (B, S, HQ), qs = _view4(q, lay)
    HK, ks = 0, (0, 0, 0, 0)
    if k is not None:
        if k.dim() != q.dim():
            raise ValueError(f"k has shape {tuple(k.shape)} and q {tuple(q.shape)}: the same "
                             "number of axes")
        (bk, sk, HK), ks = _view4(k, lay)
        if (bk, sk) != (B, S):
            raise ValueError(f"k has shape {tuple(k.shape)} and q {tuple(q.shape)}: the same "
                             "batch and tokens (heads may differ)")
    if pos_t is None:
        if pos0 < 0 or pos0 + S - 1 > MAX_POS:
            raise Error(f"positions {pos0}..{pos0 + S - 1} outside 0..{MAX_POS}")
        ps = (0, 0, 0)
    else:
        ps = _pos_strides(pos_t, B, S, mrope is not None, q.dim())
    P = r.rotary_dim // 2
    if S * B == 0 or P == 0:
        return q if k is None else (q, k)
    freq = _freq(r, q.device)
    axis = _axis(mrope, q.device) if mrope is not None else freq
    bp, bh = _blocks(P, max(HQ, HK))
    _rope_kernel[(B * S,)](
        q, k if k is not None else q, pos_t if pos_t is not None else freq, freq, axis,
        S, HQ, HK, P, *qs, *ks, *ps, pos0,
        HAS_K=k is not None, HAS_POS=pos_t is not None, MROPE=mrope is not None,
        INTERLEAVED=r.layout == "interleaved", INVERSE=bool(inverse),
        BLOCK_P=bp, BLOCK_H=bh, enable_fp_fusion=False)
    return q if k is None else (q, k)


def _pos_strides(p: Any, B: int, S: int, mrope: bool, qdim: int) -> Tuple[int, int, int]:
    """(batch, seq, axis) strides of positions (0 where broadcast)."""
    st = p.stride()
    sa = 0
    shape = tuple(p.shape)
    if mrope:
        if p.dim() < 2 or shape[0] != 3:
            raise ValueError(f"positions of shape {shape}: M-RoPE takes [3, n_tok] or "
                             "[3, batch, seq]")
        sa, shape, st = st[0], shape[1:], st[1:]
    if len(shape) == 1 and shape[0] == S:
        return 0, st[0], sa
    if len(shape) == 2 and qdim == 4 and shape[1] == S and shape[0] in (B, 1):
        return (0 if shape[0] == 1 else st[0]), st[1], sa
    want = "[n_tok]" if qdim < 4 else "[seq] or [batch, seq]"
    raise ValueError(f"positions of shape {tuple(p.shape)} for {S} tokens: give {want}")


def cos_sin(rope: Any, positions: Any) -> Tuple[Any, Any]:
    """cos, sin float32 [*positions.shape, P] on positions' device (af cos(pos
    f[k]), within 1 ulp), computed there: no host read, no host table.
    For a posenc.MRoPE positions are [3, ...] and the result [..., P]."""
    r, mrope = _split(rope)
    if not torch.is_tensor(positions) or positions.is_floating_point():
        raise TypeError("positions must be an integer tensor")
    dev = positions.device
    if dev.type != "cuda" and not interpreted():
        raise ValueError(f"positions are on {dev}: posenc.triton runs on CUDA tensors")
    P = r.rotary_dim // 2
    pos = positions.contiguous()
    sa = 0
    shape = tuple(pos.shape)
    if mrope is not None:
        if pos.dim() < 1 or shape[0] != 3:
            raise ValueError(f"positions of shape {shape}: M-RoPE takes [3, ...]")
        shape = shape[1:]
        sa = pos.stride(0)
    n = int(np.prod(shape)) if shape else 1
    c = torch.empty(shape + (P,), dtype=torch.float32, device=dev)
    s = torch.empty_like(c)
    if n and P:
        freq = _freq(r, dev)
        axis = _axis(mrope, dev) if mrope is not None else freq
        _cos_sin_kernel[(n,)](pos, freq, axis, c, s, n, P, sa, MROPE=mrope is not None,
                              BLOCK_P=triton.next_power_of_2(P), enable_fp_fusion=False)
    return c, s


def _steps(pos: Any, hi: Any, lo: Any) -> Any:
    """The float64 steps on vectors (tests): [7, N] rows p, e, rh, rl, n, cos, sin."""
    n = pos.numel()
    out = torch.empty((7, n), dtype=torch.float64, device=pos.device)
    _steps_kernel[(triton.cdiv(n, 256),)](pos, hi, lo, out, n, BLOCK=256,
                                          enable_fp_fusion=False)
    return out
