"""M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, GLM-4V) from Python, NumPy and torch.

Every token has three positions, temporal t, height h and width w (a text
token has t = h = w). The P = rotary_dim / 2 pairs of a head are split
between the axes by mrope_section = [s_t, s_h, s_w] (s_t + s_h + s_w = P);
pair k keeps its frequency inv_freq[k] (any scaling of the RoPE) and turns
by pos_axis(k) * inv_freq[k]. The rule (posenc.h, section 2.8):

  "chunks" (Qwen2-VL, Qwen2.5-VL, GLM-4V; the library's "contiguous"):
      pairs [0, s_t) follow t, the next s_h follow h, the rest w
      (recomposition_frequencies, transformers/models/qwen2_vl/
      modeling_qwen2_vl.py L137-142). GLM-4V takes the same chunks of
      pairs in its interleaved layout, pair k = (x[2k], x[2k + 1]), over the
      rotated part only (modeling_glm4v.py L481-526): a RoPE with layout
      "interleaved" and rotary_dim < head_dim, e.g.
      RoPE.from_config(glm4v_config), and MRoPE(rope, *rope.mrope).
  "interleaved" (Qwen3-VL): pair k follows h if k % 3 == 1 and k < 3 s_h,
      w if k % 3 == 2 and k < 3 s_w, t otherwise
      (transformers/models/qwen3_vl/modeling_qwen3_vl.py:405-410).
  "hw-alternating" (ERNIE 4.5 VL; NeoMME with s_t = 0): pair k < 2 s_h
      follows h if k is even, w if k is odd, the last s_t pairs t; s_h ==
      s_w (transformers/models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py
      L90-126: its pre-permuted inv_freq and stack([h, w]).flatten() cancel,
      pair k keeps inv_freq[k]). ERNIE's config writes the section [h, w, t];
      here, as everywhere in posenc, it is [t, h, w] (RoPE.mrope gives it so).

The cos and sin of a pair are the library's own (RoPE.cos_sin, within 1 ulp
in float32) at that pair's axis position, and the rotation is the library's
formula, x' = x c - y s, y' = x s + y c with each product and sum rounded in
float32 (no FMA), so with t = h = w the result is RoPE.apply's bit for bit.
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from . import (RoPE, _args, _f32_to_bf16_bits, _is_torch_dtype, _layout_4d, _positions_array,
               _torch)

__all__ = ["MRoPE"]

_RULES = ("chunks", "interleaved", "hw-alternating")


class MRoPE:
    """MRoPE(rope, section, rule="chunks")

    rope: the posenc.RoPE of the language model (RoPE.from_config of a
    Qwen2-VL / 2.5-VL / 3-VL config, or RoPE(head_dim, base=...)).
    section: mrope_section [s_t, s_h, s_w], in pairs, summing to
    rope.rotary_dim // 2. rule: "chunks", "interleaved" or "hw-alternating" (see
    the module).
    """

    __slots__ = ("rope", "section", "rule", "axis")

    def __init__(self, rope: RoPE, section: Sequence[int], rule: str = "chunks") -> None:
        if not isinstance(rope, RoPE):
            raise TypeError("rope must be a posenc.RoPE")
        if rule == "contiguous":  # the library's name for chunks (RoPE.mrope)
            rule = "chunks"
        if rule not in _RULES:
            raise ValueError(f"rule={rule!r}: 'chunks' (Qwen2-VL, Qwen2.5-VL), 'interleaved' "
                             "(Qwen3-VL) or 'hw-alternating' (ERNIE 4.5 VL)")
        sec = [_args.integer(v, "section", 0, 2**31) for v in section]
        p = rope.rotary_dim // 2
        if len(sec) != 3 or min(sec) < 0 or sum(sec) != p:
            raise ValueError(f"section {_args._shown(sec)}: three sizes (t, h, w) in pairs "
                             f"summing to rotary_dim / 2 = {p}")
        axis = np.zeros(p, np.int64)  # axis[k]: 0 t, 1 h, 2 w
        if rule == "chunks":
            axis[sec[0]:sec[0] + sec[1]] = 1
            axis[sec[0] + sec[1]:] = 2
        elif rule == "hw-alternating":
            if sec[1] != sec[2]:
                raise ValueError(f"section {sec}: the hw-alternating rule pairs h and w one by "
                                 "one (s_h == s_w)")
            axis[0:2 * sec[1]:2] = 1
            axis[1:2 * sec[1]:2] = 2
        else:
            axis[1:3 * sec[1]:3] = 1
            axis[2:3 * sec[2]:3] = 2
            if [int((axis == a).sum()) for a in range(3)] != sec:
                raise ValueError(f"section {sec}: the interleaved rule cannot give exactly these "
                                 "counts (3 * s_h and 3 * s_w must fit in the pairs)")
        self.rope, self.section, self.rule, self.axis = rope, sec, rule, axis

    def __reduce__(self):
        """Pickles (and copies) by its parameters, rebuilt (checked) on load."""
        return (MRoPE, (self.rope, list(self.section), self.rule))

    def cos_sin(self, positions: Any, dtype: Any = np.float32) -> Tuple[Any, Any]:
        """cos and sin of every pair, each of shape positions.shape[1:] + (P,).

        positions: [3, ...] integers (rows t, h, w; e.g. [3, n_tok] or
        Hugging Face's position_ids [3, batch, seq]), NumPy, list or torch.
        ``cos[..., k] = attention_factor * cos(positions[axis[k], ...] *
        inv_freq[k]``. dtype: float32 (default) or float64 (the library's
        double path); a torch dtype gives CPU tensors.
        """
        pos = _positions_array(positions)
        if pos.ndim < 1 or pos.shape[0] != 3:
            raise ValueError(f"positions of shape {pos.shape}: M-RoPE takes [3, ...] (rows "
                             "temporal, height, width)")
        torch_dtype = None
        if _is_torch_dtype(dtype):
            torch_dtype, dtype = dtype, (np.float64 if str(dtype) == "torch.float64"
                                         else np.float32)
        c3, s3 = self.rope.cos_sin(pos, dtype=dtype)  # [3, ..., P]
        idx = self.axis.reshape((1,) * (c3.ndim - 1) + (-1,))
        idx = np.broadcast_to(idx, (1,) + c3.shape[1:])
        c = np.take_along_axis(c3, idx, axis=0)[0]
        s = np.take_along_axis(s3, idx, axis=0)[0]
        if torch_dtype is not None:
            return _torch()._from_numpy(c, torch_dtype), _torch()._from_numpy(s, torch_dtype)
        return c, s

    def apply(self, q: Any, positions: Any, *, inverse: bool = False,
              layout: Any = None, dtype: Any = None) -> Any:
        """q rotated by its three position rows: a new array (or tensor).

        q: [n_tok, n_head, head_dim] or [n_tok, head_dim] with positions
        [3, n_tok]; or 4-D [batch, heads, seq, head_dim] (layout="bhsd") /
        [batch, seq, heads, head_dim] (layout="bshd") with positions [3,
        batch, seq] (or [3, seq]); the layout may be left out when the
        positions fit one axis only. NumPy float32 / float16 /
        bfloat16 ("bfloat16" dtype over uint16 storage) or torch float32 /
        float16 / bfloat16 / float64 (any device for torch: cos and sin are
        moved there; differentiable in q). inverse=True turns by -theta.
        Call it for q and for k.
        """
        pos = _positions_array(positions)
        if pos.ndim < 2 or pos.shape[0] != 3:
            raise ValueError(f"positions of shape {pos.shape}: M-RoPE takes [3, n_tok] or "
                             "[3, batch, seq] (rows temporal, height, width)")
        shape = tuple(q.shape)
        d = self.rope.head_dim
        if shape[-1] != d:
            raise ValueError(f"q has shape {shape}: its last axis is not head_dim {d}")
        if len(shape) in (2, 3):
            if pos.shape[1:] != shape[:1]:
                raise ValueError(f"positions of shape {pos.shape} for q of shape {shape}: give "
                                 f"[3, n_tok] = [3, {shape[0]}]")
            expand = (slice(None), None, slice(None)) if len(shape) == 3 else (Ellipsis,)
        elif len(shape) == 4:
            lay = _layout_4d(shape, pos[0], layout, "q")
            b, seq = (shape[0], shape[2]) if lay == "bhsd" else (shape[0], shape[1])
            pos = np.broadcast_to(pos.reshape(3, -1, seq), (3, b, seq))
            expand = (slice(None), None) if lay == "bhsd" else (slice(None), slice(None), None)
        else:
            raise ValueError(f"q has shape {shape}: [n_tok, n_head, head_dim], [n_tok, "
                             "head_dim] or 4-D with its layout")
        pt = _args.torch_of(q)
        want64 = pt is not None and str(q.dtype) == "torch.float64"
        c, s = self.cos_sin(pos, dtype=np.float64 if want64 else np.float32)
        if inverse:
            s = -s
        if pt is not None:
            return pt._mrope_rotate(self.rope, q, c[expand], s[expand])
        i0, i1 = _pairs(self.rope)
        x = np.asarray(q)
        if isinstance(dtype, str) and dtype == "bfloat16":
            if x.dtype != np.uint16:
                raise TypeError("dtype='bfloat16' takes uint16 storage")
            x32 = (x.astype(np.uint32) << 16).view(np.float32)
        elif x.dtype in (np.float32, np.float16):
            x32 = x.astype(np.float32)
        else:
            raise TypeError(f"q is {x.dtype}: float32, float16, or uint16 with "
                            "dtype='bfloat16'")
        out = x32.copy()
        a, bb = x32[..., i0], x32[..., i1]
        out[..., i0] = a * c[expand] - bb * s[expand]
        out[..., i1] = a * s[expand] + bb * c[expand]
        if isinstance(dtype, str) and dtype == "bfloat16":
            return _f32_to_bf16_bits(out).reshape(x.shape)
        return out.astype(x.dtype)

    def __repr__(self) -> str:
        return f"MRoPE({self.rope!r}, section={self.section}, rule={self.rule!r})"


def _pairs(rope: RoPE) -> Tuple[np.ndarray, np.ndarray]:
    """Element indices of pair k: half (k, k + P), interleaved (2k, 2k + 1)."""
    p = rope.rotary_dim // 2
    k = np.arange(p)
    return (k, k + p) if rope.layout == "half" else (2 * k, 2 * k + 1)
