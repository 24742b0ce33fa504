"""posenc.torch: exact drop-ins for the rotary modules of Hugging Face models,
training through RoPE.apply, and torch.compile.

    import posenc.torch
    report = posenc.torch.patch(model)   # every rotary module replaced
    print(report)                        # what was replaced, by what

makes every cos and sin the model multiplies by exact to float32 (within 1
ulp of the exact value), at every position, without touching its attention
code. Hugging Face's own modules compute ``inv_freq @ position_ids`` in
float32 and take cos and sin of the rounded angle, which is off by about
1e-2 at position 100,000.

Each family's module is called with that family's arguments (read in
transformers 5.23.0's modeling code):

  plain        forward(x, position_ids) -> (cos, sin), each [batch, seq,
               rotary_dim]: cat(f, f) of the rotary_dim/2 pair values, times
               attention_scaling (modeling_llama.py:108-116; Mistral, Qwen2/3,
               Phi-3, DeepSeek V3, SmolLM3, Cohere 2, EXAONE 4, ...)
  layer_type   forward(x, position_ids, layer_type): the same for the RoPE of
               that layer type (modeling_gemma3.py:155-214, 550;
               modeling_olmo3.py:269-300, 426); each type its own size
               (Gemma 4: full layers global_head_dim with the proportional
               RoPE, zeros past the rotated pairs: cos 1, sin 0;
               modeling_gemma4.py:1078-1147)
  mrope        forward(x, position_ids [3, batch, seq] or [batch, seq]):
               the temporal, height and width values of each pair chosen by
               mrope_section in chunks (modeling_qwen2_5_vl.py:527-544,
               modeling_qwen2_vl.py:125-142); GLM-4V's (modeling_glm4v.py:
               467-486) the same chunks, each value repeated twice in a row
               (repeat "interleave") over its rotated part only
  mrope_interleaved  the same, pairs chosen round robin (Qwen3-VL,
               modeling_qwen3_vl.py:395-412)
  complex      forward(x, position_ids) -> complex freqs_cis [batch, seq,
               rotary_dim/2] (Llama 4, modeling_llama4.py:217-222)

Dynamic NTK and LongRoPE switch with max(position_ids) + 1 as the
``dynamic_rope_update`` decorator does (modeling_rope_utils.py:34-131).
Anything else is refused with a message naming the argument.

The cos and sin come from the custom op ``posenc::cos_sin`` (computed on the
CPU, moved to the device of position_ids: a model on any device gets exact
tables without a device kernel), with a fake implementation, so
``torch.compile`` traces a patched model without graph breaks. RoPE.apply on
tensors that require grad, float64 tensors or inside torch.compile goes
through ``posenc::rope_apply``, whose backward is the inverse rotation.
RoPE.apply itself rotates CPU tensors, and CUDA tensors through posenc.triton
when triton imports (posenc.last_apply_path() says which); the modules work
on any device, and on CUDA compute cos and sin there with posenc.triton
(module.last_path) except for dynamic NTK and LongRoPE, whose switch reads
max(position_ids) on the host.
"""
from __future__ import annotations

import inspect
import itertools
import sys
import warnings
import weakref
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np
import torch

from torch.utils.dlpack import to_dlpack

from . import Error, RoPE, _args, _core, _gpu, _layout_4d

# posenc._core reads CPU tensors' memory through their DLPack export from here on
_core.use_torch(torch.Tensor, to_dlpack)

__all__ = ["RotaryEmbedding", "patch", "unpatch", "Replacement", "rotate", "layer_tensors",
           "sinusoid_table", "relative_buckets", "relative_sinusoid"]

Tensor = torch.Tensor
_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", None) or (lambda: False)
# the custom ops, the modules and patch need torch.library.custom_op (torch 2.4)
_HAVE_OPS = hasattr(torch.library, "custom_op")
_TOO_OLD = (f"posenc.torch needs torch >= 2.4 (this is {torch.__version__}); "
            "posenc.RoPE.apply still rotates CPU tensors in place without it")

# ---- tensors in posenc's own functions (any torch) ------------------------------
# posenc/__init__.py hands every torch tensor and torch dtype here (it never
# imports torch itself).

_DTYPE_CODES = {torch.float32: _core.DTYPE_F32, torch.float16: _core.DTYPE_F16,
                torch.bfloat16: _core.DTYPE_BF16}


def _dtype_code(dtype) -> Optional[int]:
    """The posenc_dtype code of a torch dtype for the rotation (None: not one)."""
    return _DTYPE_CODES.get(dtype)


def _float_kind(dtype, what: str) -> str:
    """'d' for torch.float64, 'f' for the other float dtypes posenc fills."""
    if dtype == torch.float64:
        return "d"
    if dtype in _DTYPE_CODES:
        return "f"
    raise TypeError(f"{what}: unsupported dtype {dtype}")


def _from_numpy(a: np.ndarray, dtype) -> Tensor:
    """A float32 (or float64) NumPy result as a CPU tensor of dtype."""
    return torch.from_numpy(a).to(dtype)


def _store(result: np.ndarray, out: Tensor, what: str) -> Tensor:
    """result copied into the tensor out (copy_ rounds to out's dtype)."""
    src = torch.from_numpy(result)
    if tuple(out.shape) != tuple(src.shape):
        raise ValueError(f"{what}: out has shape {tuple(out.shape)}, expected {tuple(src.shape)}")
    with torch.no_grad():
        out.copy_(src)
    return out


def _direct_out(out: Tensor, shape) -> Optional[np.ndarray]:
    """A NumPy view of out when the library can fill it directly, else None."""
    if out.dtype == torch.float32 and out.device.type == "cpu" and out.is_contiguous() \
            and tuple(out.shape) == shape and not out.requires_grad:
        return out.numpy()
    return None


def _check_positions(t: Tensor, name: str = "positions") -> None:
    """Refuses a tensor of floats, complex numbers or bools as positions (by name)."""
    if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"{name} must be integers (int64), got {t.dtype}: those are not token "
                        "positions (posenc never truncates)")


def _positions_numpy(t: Tensor, name: str = "positions") -> np.ndarray:
    """Integer positions as an int64 NumPy array (a CPU copy)."""
    _check_positions(t, name)
    return t.detach().to("cpu", torch.int64).numpy()


def _cpu_positions(t: Tensor) -> Tensor:
    """apply()'s positions tensor, checked, on the CPU (_core reads it as it is)."""
    _check_positions(t)
    return t if t.is_cpu else t.cpu()


def _float32_numpy(t: Tensor) -> Tuple[np.ndarray, str]:
    """(float32 NumPy copy, the dtype word of posenc.check) of a tensor."""
    word = {torch.bfloat16: "BF16", torch.float16: "F16"}.get(t.dtype, "F32")
    return t.detach().to("cpu").float().numpy(), word


def _on_device_of(a: np.ndarray, like: Tensor) -> Tensor:
    """A NumPy result as a tensor on like's device (t5_bucket)."""
    return torch.from_numpy(a).to(like.device)


def _t5_gather(table: Tensor, buckets: np.ndarray) -> Tensor:
    """T5's bias from a torch table [num_buckets, n_head] and the library's
    buckets [n_query, n_key]: table[buckets] as [n_head, n_query, n_key], on
    the table's device and differentiable in it (posenc.t5_bias)."""
    idx = torch.from_numpy(buckets).to(table.device)
    return table[idx].permute(2, 0, 1)  # [n_query, n_key, n_head] -> [n_head, ...]


def _mrope_rotate(rope: RoPE, q: Tensor, c: np.ndarray, s: np.ndarray) -> Tensor:
    """q rotated by cos c and sin s (NumPy, already per pair and broadcast to
    q's axes; posenc.MRoPE.apply), on q's device, in q's dtype, differentiable
    in q: x' = x c - y s, y' = x s + y c, each product and sum rounded in
    float32 (float64 for a float64 q)."""
    p = rope.rotary_dim // 2
    k = torch.arange(p)
    i0, i1 = (k, k + p) if rope.layout == "half" else (2 * k, 2 * k + 1)
    ct = torch.from_numpy(c).to(q.device)
    st = torch.from_numpy(s).to(q.device)
    x = q.to(torch.float64 if q.dtype == torch.float64 else torch.float32)
    a, b = x[..., i0], x[..., i1]
    if rope.layout == "half":
        out = torch.cat((a * ct - b * st, a * st + b * ct, x[..., 2 * p:]), -1)
    else:
        out = torch.stack((a * ct - b * st, a * st + b * ct), -1).flatten(-2)
        if rope.rotary_dim < q.shape[-1]:
            out = torch.cat((out, x[..., rope.rotary_dim:]), -1)
    return out.to(q.dtype)


def _needs_op(q: Tensor, k: Optional[Tensor]) -> bool:
    """Whether a torch call goes through the custom op (autograd, float64,
    torch.compile) instead of the in-place library call."""
    # torch's own rule: inside torch.no_grad() a tensor that requires grad may
    # be changed in place (nothing is recorded), so it takes the plain path
    grad = torch.is_grad_enabled() and (q.requires_grad or (k is not None and k.requires_grad))
    return grad or q.dtype == torch.float64 or _compiling()


def _apply_cuda(rope: Any, q: Any, k: Any, positions: Any, inplace: bool, inverse: bool,
               layout: Optional[str]) -> Any:
    """RoPE.apply for a CUDA q through posenc.triton; None where that path does
    not serve the call (no triton, float64, autograd, torch.compile tracing,
    NumPy arguments): the caller's path then answers as before."""
    if q.dtype not in (torch.float32, torch.bfloat16, torch.float16) or q.requires_grad:
        return None
    if k is not None and (not torch.is_tensor(k) or k.requires_grad or k.dtype is torch.float64):
        return None
    compiler = getattr(torch, "compiler", None)  # torch >= 2.1
    if compiler is not None and compiler.is_compiling():
        return None
    mod = _gpu.triton_module()
    if mod is None:
        return None
    if not inplace:
        q = q.clone(memory_format=torch.preserve_format)
        k = None if k is None else k.clone(memory_format=torch.preserve_format)
    r = mod.apply(rope, q, k, positions=positions, inverse=inverse, layout=layout)
    _gpu.set_path("triton")
    return r


def _apply(rope: RoPE, q: Tensor, k, positions, pos0: int, inplace: bool, inverse: bool,
           threads: int, code: int, layout: Optional[str]):
    """RoPE.apply for a torch q (its arguments checked by RoPE.apply)."""
    if k is not None and not isinstance(k, Tensor):
        raise TypeError(f"k must be a torch tensor when q is one, got {type(k).__name__}")
    lay = None
    if q.dim() == 4:
        lay = "bhsd" if layout == "bhsd" else _layout_4d(tuple(q.shape), positions, layout, "q")
    if _needs_op(q, k):
        if inplace and torch.is_grad_enabled() and \
                (q.requires_grad or (k is not None and k.requires_grad)):
            raise ValueError("q or k requires grad: posenc cannot change it in place under "
                             "autograd; call apply(..., inplace=False), which is "
                             "differentiable (posenc.torch, torch >= 2.4)")
        if not _HAVE_OPS:
            raise ImportError(_TOO_OLD)
        return _apply_op(rope, q, k, positions, pos0, inplace, inverse, lay)
    if lay != "bshd":
        return _apply_tensors(rope, q, k, positions, pos0, inplace, inverse, threads, code)
    # the library reads [batch, heads, seq, head_dim]: strided views
    kv = k.transpose(1, 2) if isinstance(k, Tensor) and k.dim() == 4 else k
    r = _apply_tensors(rope, q.transpose(1, 2), kv, positions, pos0, inplace, inverse, threads,
                       code)
    if inplace:
        return q if k is None else (q, k)
    if k is None:
        return r.transpose(1, 2)
    return r[0].transpose(1, 2), (r[1].transpose(1, 2) if kv is not k else r[1])


def _apply_tensors(rope: RoPE, q: Tensor, k, positions, pos0: int, inplace: bool,
                   inverse: bool, threads: int, code: int):
    """The library's rotation on tensors: _core reads their memory (DLPack),
    no NumPy views, no copies."""
    # a tensor that requires grad comes here inside torch.no_grad() only: its memory
    qd = q.detach() if q.requires_grad else q
    kd = k.detach() if k is not None and k.requires_grad else k
    if inplace:  # the decode step's call
        rope._c.apply(qd, kd, positions=positions, pos0=pos0, inverse=inverse, threads=threads,
                      dtype=code)
        return q if k is None else (q, k)
    # outputs in the inputs' memory order (empty_like keeps a dense view's
    # strides): Hugging Face's [batch, heads, seq, head_dim] q is a view of
    # token-major memory, and writing it head-major costs ~25% at T = 512
    qo = torch.empty_like(q, memory_format=torch.preserve_format)
    ko = torch.empty_like(k, memory_format=torch.preserve_format) if k is not None else None
    rope._c.apply(qd, kd, positions=positions, pos0=pos0, inverse=inverse, threads=threads,
                  dtype=code, q_out=qo, k_out=ko)
    return qo if k is None else (qo, ko)


# ---- torch >= 2.4 from here on -----------------------------------------------------
# An older torch stops the import here: `import posenc.torch` fails with
# _TOO_OLD, and posenc's own functions keep the helpers above (the error
# carries this module as it stands, see posenc/_args.py torch_module).
if not _HAVE_OPS:
    _error = ImportError(_TOO_OLD)
    _error.tensors_only = sys.modules[__name__]
    raise _error

# ---- the custom ops -------------------------------------------------------------
# The ops take an int handle for Python objects (a RoPE, a table source): custom
# ops carry tensors and scalars only. Weak values: a handle dies with its object.
_OBJECTS: "weakref.WeakValueDictionary[int, Any]" = weakref.WeakValueDictionary()
_COUNTER = itertools.count(1)


_HANDLE_OF: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()


@torch.compiler.assume_constant_result  # run at trace time; its int is a constant
def _handle(obj: Any) -> int:
    """The int handle of obj (one per object, kept while it lives)."""
    h = _HANDLE_OF.get(obj)
    if h is None:
        h = next(_COUNTER)
        _OBJECTS[h] = obj
        _HANDLE_OF[obj] = h
    return h


def _lookup(h: int) -> Any:
    obj = _OBJECTS.get(int(h))
    if obj is None:
        raise RuntimeError(f"posenc: handle {h} names no live object (its module or RoPE "
                           "was deleted)")
    return obj


@torch.library.custom_op("posenc::cos_sin", mutates_args=())
def _cos_sin_op(positions: Tensor, handle: int, n_pairs: int) -> Tuple[Tensor, Tensor]:
    """cos, sin float32 [*positions.shape, n_pairs] on positions.device."""
    return _lookup(handle).cos_sin(positions)


@_cos_sin_op.register_fake
def _cos_sin_fake(positions, handle, n_pairs):
    shape = tuple(positions.shape) + (n_pairs,)
    return (positions.new_empty(shape, dtype=torch.float32),
            positions.new_empty(shape, dtype=torch.float32))


def _pair_index(rope: RoPE) -> Tuple[Tensor, Tensor]:
    """Element indices (i0, i1) of each pair k: half: (k, k + P); interleaved:
    (2k, 2k + 1), P = rotary_dim / 2."""
    p = rope.rotary_dim // 2
    k = torch.arange(p)
    if rope.layout == "half":
        return k, k + p
    return 2 * k, 2 * k + 1


@torch.library.custom_op("posenc::rope_apply", mutates_args=())
def _rope_apply_op(x: Tensor, positions: Tensor, handle: int, inverse: bool) -> Tensor:
    """x [n_tok, n_head, head_dim] rotated by positions [n_tok] (a new tensor)."""
    rope = _lookup(handle)
    if not positions.is_cpu:
        positions = positions.cpu()
    if x.dtype == torch.float64:
        # x' = x c - y s, y' = x s + y c (inverse: s -> -s), c and s from the
        # library's float64 path, each product and sum rounded in float64
        c, s = rope.cos_sin(positions, dtype=np.float64)
        c = torch.from_numpy(c)[:, None, :]
        s = torch.from_numpy(s)[:, None, :]
        if inverse:
            s = -s
        i0, i1 = _pair_index(rope)
        out = x.detach().clone()
        a, b = x[..., i0], x[..., i1]
        out[..., i0] = a * c - b * s
        out[..., i1] = a * s + b * c
        return out
    src = x if x.stride(-1) == 1 else x.contiguous()
    # the input's memory order (as the fake implementation's empty_like says)
    out = torch.empty_like(src, memory_format=torch.preserve_format)
    # _core reads src, positions and writes out through their memory (DLPack)
    rope._c.apply(src, positions=positions, inverse=bool(inverse), q_out=out)
    return out


@_rope_apply_op.register_fake
def _rope_apply_fake(x, positions, handle, inverse):
    return torch.empty_like(x)


def _rope_apply_setup(ctx, inputs, output):
    _, positions, handle, inverse = inputs
    ctx.save_for_backward(positions)
    ctx.handle, ctx.inverse = handle, inverse


def _rope_apply_backward(ctx, grad):
    # y = a R(theta) x  =>  dL/dx = a R(theta)^T g = a R(-theta) g: the inverse turn
    (positions,) = ctx.saved_tensors
    return _rope_apply_op(grad, positions, ctx.handle, not ctx.inverse), None, None, None


torch.library.register_autograd("posenc::rope_apply", _rope_apply_backward,
                                setup_context=_rope_apply_setup)


class RotateFunction(torch.autograd.Function):
    """RoPE as an autograd.Function: forward rotates x [n_tok, n_head, head_dim]
    by positions [n_tok]; backward turns the gradient by -theta (exact: the
    transpose of the rotation times attention_factor)."""

    @staticmethod
    def forward(ctx, x, positions, handle, inverse):
        ctx.save_for_backward(positions)
        ctx.handle, ctx.inverse = handle, inverse
        return _rope_apply_op(x, positions, handle, inverse)

    @staticmethod
    def backward(ctx, grad):
        (positions,) = ctx.saved_tensors
        return RotateFunction.apply(grad, positions, ctx.handle, not ctx.inverse), None, None, None


def rotate(rope: RoPE, x: Tensor, positions: Tensor, inverse: bool = False) -> Tensor:
    """x [n_tok, n_head, head_dim] (or [n_tok, head_dim]) rotated by positions
    [n_tok]: a new tensor, differentiable (RotateFunction), traceable by
    torch.compile (the op posenc::rope_apply has a fake implementation)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"x must be a torch tensor, got {type(x).__name__}")
    if not isinstance(positions, Tensor):
        positions = torch.from_numpy(_args.positions_int64(positions))
    _check_positions(positions)
    x3 = x.unsqueeze(1) if x.dim() == 2 else x
    y = RotateFunction.apply(x3, positions.to(torch.int64), _handle(rope), bool(inverse))
    return y.squeeze(1) if x.dim() == 2 else y


def _apply_op(rope: RoPE, q, k, positions, pos0: int, inplace: bool, inverse: bool,
              layout4: Optional[str]):
    """RoPE.apply for tensors that need autograd, float64 or torch.compile."""
    grad = torch.is_grad_enabled() and (q.requires_grad or (k is not None and k.requires_grad))
    if inplace and grad:
        raise ValueError("q or k requires grad: posenc cannot change it in place under "
                         "autograd; call apply(..., inplace=False), which is differentiable")
    out = [_rotate_any(rope, t, positions, pos0, inverse, layout4, n)
           for t, n in ((q, "q"), (k, "k")) if t is not None]
    if inplace:
        with torch.no_grad():
            q.copy_(out[0])
            if k is not None:
                k.copy_(out[1])
        return q if k is None else (q, k)
    return out[0] if k is None else (out[0], out[1])


def _rotate_any(rope, x, positions, pos0, inverse, layout4, name):
    if x.device.type != "cpu" and x.device.type != "meta":
        raise ValueError(f"{name} is on {x.device}: RoPE.apply rotates CPU tensors; for a "
                         "model on another device use posenc.torch.patch / RotaryEmbedding "
                         "(exact cos/sin moved to the device)")
    if x.dtype not in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
        raise TypeError(f"{name} is {x.dtype}; posenc rotates float64, float32, float16 and "
                        "bfloat16 tensors")
    if x.shape[-1] != rope.head_dim:
        raise ValueError(f"{name} has shape {tuple(x.shape)}: its last axis ({x.shape[-1]}) "
                         f"is not head_dim {rope.head_dim}")
    pos = None
    if positions is not None:
        pos = positions if torch.is_tensor(positions) else torch.from_numpy(
            _args.positions_int64(positions))
        _check_positions(pos)
        pos = pos.to(device="cpu", dtype=torch.int64)
    if x.dim() in (2, 3):
        n = x.shape[0]
        if pos is None:
            pos = torch.arange(pos0, pos0 + n)
        elif tuple(pos.shape) != (n,):
            raise ValueError(f"positions of shape {tuple(pos.shape)} for {name} of shape "
                             f"{tuple(x.shape)}: give [n_tok] = [{n}]")
        y = rotate(rope, x, pos, inverse)
        return y
    if x.dim() != 4:
        raise ValueError(f"{name} has shape {tuple(x.shape)}: give [n_tok, n_head, head_dim], "
                         "[n_tok, head_dim] or a 4-D tensor with its layout")
    bshd = x if layout4 == "bshd" else x.transpose(1, 2)  # [batch, seq, heads, head_dim]
    b, s, h, d = bshd.shape
    if pos is None:
        pos = torch.arange(pos0, pos0 + s).expand(b, s)
    elif pos.dim() == 1:
        pos = pos.expand(b, s)
    elif pos.shape[0] == 1:
        pos = pos.expand(b, s)
    y = rotate(rope, bshd.reshape(b * s, h, d), pos.reshape(b * s), inverse)
    y = y.reshape(b, s, h, d)
    return y if layout4 == "bshd" else y.transpose(1, 2)


# ---- cos and sin tables -----------------------------------------------------------


class _Source:
    """The cos/sin values of one RoPE (one layer type), with the dynamic-NTK and
    LongRoPE switches and per-device tables. cos_sin(positions) -> float32
    [..., P] on positions.device."""

    def __init__(self, rope: RoPE, max_table: int):
        if rope.sense < 0:
            # NanoChat (modeling_nanochat.py L97-103, L169-173): its module
            # returns +theta's cos and sin, its rotate_half turns them by -theta
            raise ValueError(f"model_type {rope.model_type!r} turns q and k by -theta "
                             "(sense -1): its rotary module's cos and sin are +theta's and "
                             "its rotate_half is cat(x2, -x1), so no drop-in module is "
                             "made here: use posenc.RoPE.from_config(config).apply")
        self.rope0 = rope
        self.rope = rope
        self.kind = rope.scaling["type"]
        self.max_table = int(max_table)
        # transformers' module state (modeling_rope_utils.py:83-119)
        self.original_max_seq_len = rope.max_position_embeddings
        self.max_seq_len_cached = rope.max_position_embeddings
        self.tables: Dict[Tuple[Any, ...], Tuple[int, Tensor, Tensor]] = {}

    def rope_for(self, seq_len: int) -> RoPE:
        if self.kind == "dynamic":
            # dynamic_frequency_update: grow past the cached length; back to the
            # original frequencies for a short input after a long one
            if seq_len > self.max_seq_len_cached:
                self.rope = self.rope0.with_seq_len(seq_len)
                self.max_seq_len_cached = seq_len
            if seq_len < self.original_max_seq_len and \
                    self.max_seq_len_cached > self.original_max_seq_len:
                self.rope = self.rope0
                self.max_seq_len_cached = self.original_max_seq_len
        elif self.kind == "longrope":
            # longrope_frequency_update: long factors when seq_len > original
            orig = self.rope0.scaling["original_max_position_embeddings"]
            want_long = seq_len > orig
            if (self.rope.seq_len > orig) != want_long:
                self.rope = self.rope0.with_seq_len(seq_len if want_long else 0)
        return self.rope

    def table(self, rope: RoPE, n: int, device) -> Tuple[Tensor, Tensor]:
        key = (rope.seq_len, rope.attention_factor, device)
        hit = self.tables.get(key)
        if hit is not None and hit[0] >= n:
            return hit[1], hit[2]
        size = min(1 << max(11, (n - 1).bit_length()), self.max_table)  # 2048, 4096, ...
        c, s = rope.cos_sin(np.arange(size, dtype=np.int64))
        ct, st = torch.from_numpy(c).to(device), torch.from_numpy(s).to(device)
        self.tables[key] = (size, ct, st)
        return ct, st

    def cos_sin(self, positions: Tensor) -> Tuple[Tensor, Tensor]:
        # a negative position -p turns by -theta: cos(-a) = cos(a), sin(-a) =
        # -sin(a), the values transformers' module takes of inv_freq * pos
        # (modeling_llama.py:108-116 computes the product of any int64 id)
        if positions.dtype != torch.int64:
            positions = positions.to(torch.int64)
        if positions.is_cuda and self.kind not in ("dynamic", "longrope"):
            fast = _gpu.cos_sin_cuda(self.rope0, positions.abs())  # posenc.triton
            if fast is not None:
                self.path = "triton"  # on the device: no host read, no table
                c, s = fast
                return c, torch.where((positions < 0).unsqueeze(-1), -s, s)
        self.path = "cpu"
        pos_cpu = positions if positions.is_cpu else positions.cpu()
        numel = pos_cpu.numel()
        if numel == 1:  # a decode step: one read
            lo = hi = int(pos_cpu.reshape(()))
        elif numel:
            lo, hi = (int(v) for v in torch.aminmax(pos_cpu))
        else:
            lo = hi = -1
        # the switch reads max(position_ids) + 1 as dynamic_rope_update does
        rope = self.rope_for(hi + 1) if self.kind in ("dynamic", "longrope") else self.rope
        n = max(hi, -lo) + 1
        neg = lo < 0
        mag = positions.abs() if neg else positions
        if n > self.max_table or (self.kind == "dynamic" and rope is not self.rope0):
            c, s = rope.cos_sin((pos_cpu.abs() if neg else pos_cpu).numpy())
            c, s = (torch.from_numpy(c).to(positions.device),
                    torch.from_numpy(s).to(positions.device))
        else:
            key = (rope.seq_len, rope.attention_factor, positions.device)
            hit = self.tables.get(key)
            if hit is None or hit[0] < n:
                self.table(rope, n, positions.device)
                hit = self.tables[key]
            c, s = hit[1][mag], hit[2][mag]
        if neg:
            s = torch.where((positions < 0).unsqueeze(-1), -s, s)
        return c, s


# ---- reading the config -----------------------------------------------------------

KINDS = ("plain", "layer_type", "mrope", "mrope_interleaved", "complex")


def _config_dict(config) -> Dict[str, Any]:
    if isinstance(config, dict):
        d = dict(config)
    elif hasattr(config, "to_dict"):
        d = config.to_dict()
    else:
        raise TypeError("config must be a transformers PretrainedConfig or a dict of its keys")
    return d  # None stays null, as in the file (posenc._args.config_text)


def _rope_of_layer(d: Dict[str, Any], layer: int) -> RoPE:
    # text parts of multimodal models (qwen2_vl_text, glm4v_text...) are
    # registry families of their own
    return RoPE.from_config(d, layer)


def _first_rope(d: Dict[str, Any]) -> RoPE:
    """The RoPE of the first layer that has one (NoPE layers are skipped)."""
    n = int(d.get("num_hidden_layers") or 1)
    last = None
    for layer in range(n):
        try:
            return _rope_of_layer(d, layer)
        except Error as e:
            if "has no RoPE" not in str(e):
                raise
            last = e
    raise ValueError(f"no layer of this {d.get('model_type')!r} config has RoPE ({last})")


def _mrope_section(d: Dict[str, Any]) -> Optional[List[int]]:
    for key in ("rope_parameters", "rope_scaling"):
        rp = d.get(key)
        if isinstance(rp, dict) and "mrope_section" in rp:
            return [int(v) for v in rp["mrope_section"]]
    return None


def _convention(d: Dict[str, Any]) -> Tuple[Optional[str], Optional[str]]:
    """(kind, repeat) of the family's transformers module where the registry
    says it differs from Llama's (posenc_model_hf_module_convention: Llama
    4's complex freqs_cis, modeling_llama4.py:219; Cohere's
    repeat_interleave, modeling_cohere2.py:81), None where the rules here
    decide."""
    try:
        conv = _first_rope(d).hf_module
    except (Error, ValueError):
        return None, None
    return {"complex": ("complex", None), "interleave": (None, "interleave")}.get(conv,
                                                                               (None, None))


def _kind_of(d: Dict[str, Any]) -> str:
    rp = d.get("rope_parameters")
    types = d.get("layer_types") or []
    if isinstance(rp, dict) and any(t in rp for t in types):
        return "layer_type"
    kind = _convention(d)[0]
    if kind:
        return kind
    # M-RoPE as the config reader reads it: the family's rule (Qwen3-VL and
    # Qwen3-Omni round robin, Qwen2-VL and GLM-4V chunks) and the code's
    # default mrope_section when the config has none
    mr = _first_rope(d).mrope
    if mr is not None:
        return "mrope_interleaved" if mr[1] == "interleaved" else "mrope"
    return "plain"


class RotaryEmbedding(torch.nn.Module):
    """A Hugging Face rotary module with exact cos and sin.

    RotaryEmbedding(config, device=None, *, kind=None, repeat=None, layer=None,
                    max_table=131072)

    config: the config the family's module is built from (model.config, or
    the text config of a multimodal model; a PretrainedConfig or a dict),
    read by posenc's config reader (RoPE.from_config). kind: the family's
    call convention (see the module's docstring), read from the config when
    None: rope_parameters keyed by layer type -> "layer_type"; an
    mrope_section -> "mrope" ("mrope_interleaved" for Qwen3-VL); llama4_text
    -> "complex" (the registry's hf_module); else "plain". repeat: "cat" (two
    copies of the pair values) or "interleave" (each twice in a row: Cohere),
    from the registry (RoPE.hf_module) when None. layer: the RoPE of that one layer (0-based) as a "plain" module;
    a layer without RoPE raises posenc.Error naming it. device: where the
    inv_freq buffers go (the
    cos and sin follow position_ids' device). max_table: positions below it
    come from one table per device; longer ones are computed for the
    positions asked (the same values bit for bit).

    forward(x, position_ids[, layer_type]) as the family's module; see the
    module docstring for the shapes. x gives the dtype (and device) only.
    """

    def __init__(self, config, device=None, *, kind: Optional[str] = None,
                 repeat: Optional[str] = None, layer: Optional[int] = None,
                 max_table: int = 131072):
        super().__init__()
        self.config = config
        # what rebuilds it (pickle, deepcopy): the arguments, never the tables
        self._init = (kind, repeat, layer, max_table)
        d = _config_dict(config)
        if layer is not None and kind not in (None, "plain"):
            raise ValueError(f"layer={layer} gives one layer's RoPE: kind must be 'plain' "
                             f"(got {kind!r})")
        # layer: one layer's RoPE as a plain module (a NoPE layer is an error)
        self.kind = "plain" if layer is not None else (_kind_of(d) if kind is None else kind)
        if self.kind not in KINDS:
            raise ValueError(f"kind={kind!r}: one of {', '.join(KINDS)}")
        # Cohere's modules repeat each pair value twice in a row (the
        # registry's hf_module); the others concatenate two copies, GLM-4V's M-RoPE
        # (modeling_glm4v.py:481-486) too
        self.repeat = repeat if repeat is not None else (_convention(d)[1] or "cat")
        if self.repeat not in ("cat", "interleave"):
            raise ValueError(f"repeat={repeat!r}: 'cat' or 'interleave'")
        self._sources: Dict[Optional[str], _Source] = {}
        if self.kind == "layer_type":
            types = list(d.get("layer_types") or [])
            rp = d.get("rope_parameters") or {}
            self.layer_types = sorted(set(types))
            self.rope_type = {}
            for t in self.layer_types:
                if rp.get(t) is None:  # a layer type without RoPE
                    continue
                src = _Source(_rope_of_layer(d, types.index(t)), max_table)
                if src.rope0.mrope is not None:
                    # NeoMME: per-type sets with the hw-alternating M-RoPE (rows and
                    # columns): no drop-in module here
                    raise ValueError(f"this {d.get('model_type')!r} config's {t} layers take "
                                     f"the {src.rope0.mrope[1]} M-RoPE rule, which "
                                     "RotaryEmbedding does not make: use "
                                     "posenc.MRoPE(rope, *rope.mrope)")
                self._sources[t] = src
                self.rope_type[t] = src.kind
                self.register_buffer(f"{t}_inv_freq", torch.tensor(
                    src.rope0.inv_freq, dtype=torch.float32, device=device), persistent=False)
                setattr(self, f"{t}_attention_scaling", src.rope0.attention_factor)
        else:
            src = _Source(_first_rope(d) if layer is None else _rope_of_layer(d, _args.layer(layer)),
                          max_table)
            self._sources[None] = src
            self.rope_type = src.kind
            self.attention_scaling = src.rope0.attention_factor
            self.register_buffer("inv_freq", torch.tensor(
                src.rope0.inv_freq, dtype=torch.float32, device=device), persistent=False)
        first = next(iter(self._sources.values()))
        self.rotary_dim = first.rope0.rotary_dim
        self.max_seq_len_cached = first.rope0.max_position_embeddings
        self.original_max_seq_len = self.max_seq_len_cached
        self._handles = {t: _handle(s) for t, s in self._sources.items()}
        if self.kind in ("mrope", "mrope_interleaved"):
            mr = first.rope0.mrope  # the reader's sections (the code's default included)
            sec = mr[0] if mr is not None else _mrope_section(d)
            if mr is not None and mr[1] not in ("contiguous", "interleaved"):
                # ERNIE 4.5 VL's hw-alternating rule: no drop-in module here
                raise ValueError(f"this {d.get('model_type')!r} config's family takes the "
                                 f"{mr[1]} M-RoPE rule, which RotaryEmbedding does not make: "
                                 "use posenc.MRoPE(rope, *rope.mrope)")
            if mr is not None and (mr[1] == "interleaved") != (self.kind == "mrope_interleaved"):
                raise ValueError(f"kind={self.kind!r}, but this {d.get('model_type')!r} config's "
                                 f"family takes the {mr[1]} M-RoPE rule")
            if repeat is None and mr is not None and first.rope0.layout == "interleaved":
                # GLM-4V: the pair values repeat_interleave(2)d (pairs (2k, 2k + 1))
                self.repeat = "interleave"
            p = self.rotary_dim // 2
            if sec is None or len(sec) != 3 or sum(sec) != p:
                raise ValueError(f"mrope_section {sec}: three sizes summing to rotary_dim / 2 "
                                 f"= {p}")
            self.mrope_section = sec
            axis = torch.zeros(p, dtype=torch.int64)
            if self.kind == "mrope":
                # chunks: pairs [0, s_t) temporal, then s_h height, then s_w width
                axis[sec[0]:sec[0] + sec[1]] = 1
                axis[sec[0] + sec[1]:] = 2
            else:
                # round robin (modeling_qwen3_vl.py:405-410): pair k is height for
                # k = 1 mod 3, k < 3 s_h; width for k = 2 mod 3, k < 3 s_w
                for a, off in ((1, 1), (2, 2)):
                    axis[off:3 * sec[a]:3] = a
            self._mrope_axis_cpu = axis
            self.register_buffer("mrope_axis", axis.to(device), persistent=False)

    def __getstate__(self):
        # pickle, deepcopy, torch.save: the config and arguments; the RoPEs,
        # handles and tables are made again on load (__setstate__). The stock
        # module patch() replaced (for unpatch) travels too.
        bufs = [b for b in self.buffers()]
        return {"config": self.config, "init": self._init, "training": self.training,
                "device": str(bufs[0].device) if bufs else None,
                "original": self.__dict__.get("_posenc_original")}

    def __setstate__(self, state):
        kind, repeat, layer, max_table = state["init"]
        self.__init__(state["config"], device=state["device"], kind=kind, repeat=repeat,
                      layer=layer, max_table=max_table)
        self.train(state["training"])
        if state.get("original") is not None:
            self.__dict__["_posenc_original"] = state["original"]

    def _apply(self, fn, recurse=True):
        # .to(), .cuda(), .half(), to_empty(): the buffers are posenc's values
        # again afterwards (to_empty leaves them uninitialized; a cast rounds
        # them as it rounds the stock module's); forward reads none of them
        # but mrope_axis
        r = super()._apply(fn, recurse)
        with torch.no_grad():
            for t, src in self._sources.items():
                buf = getattr(self, "inv_freq" if t is None else f"{t}_inv_freq")
                if buf.device.type != "meta":
                    buf.copy_(torch.from_numpy(src.rope.inv_freq))
            axis = getattr(self, "mrope_axis", None)
            if axis is not None and axis.device.type != "meta":
                axis.copy_(self._mrope_axis_cpu)
        return r

    @property
    def rope(self) -> RoPE:
        """The posenc.RoPE the last forward used (the first layer type's)."""
        return next(iter(self._sources.values())).rope

    def ropes(self) -> Dict[Optional[str], RoPE]:
        """{layer_type (None for one RoPE): the RoPE it uses now}."""
        return {t: s.rope for t, s in self._sources.items()}

    @property
    def last_path(self) -> Optional[str]:
        """Where the last forward computed cos and sin: "triton" (posenc.triton
        on the CUDA device of position_ids), "cpu" (the library, then moved),
        None before any call."""
        return next((s.path for s in self._sources.values() if hasattr(s, "path")), None)

    def _sync(self, layer_type: Optional[str]) -> None:
        """Keeps inv_freq (and attention_scaling) what transformers' module would
        hold after the dynamic / LongRoPE switch (eager mode only)."""
        src = self._sources[layer_type]
        if src.rope is getattr(src, "_synced", src.rope0):
            return
        src._synced = src.rope
        prefix = "" if layer_type is None else f"{layer_type}_"
        buf = getattr(self, f"{prefix}inv_freq")
        setattr(self, f"{prefix}inv_freq", torch.tensor(src.rope.inv_freq, dtype=torch.float32,
                                                        device=buf.device))
        setattr(self, f"{prefix}attention_scaling", src.rope.attention_factor)

    def _pairs(self, position_ids: Tensor, layer_type: Optional[str]) -> Tuple[Tensor, Tensor]:
        src = self._sources[layer_type]
        if type(position_ids) is Tensor and position_ids.device.type != "meta" and \
                not _compiling():
            # eager, real tensors: the op's own function, without the op's
            # dispatch (a decode step's cost is mostly that)
            return src.cos_sin(position_ids)
        # torch.compile, fake and meta tensors: the op (its fake implementation
        # gives the shapes; nothing is read)
        # per layer type: Gemma 4's full layers have their own head size
        return _cos_sin_op(position_ids, self._handles[layer_type], src.rope0.rotary_dim // 2)

    @torch.no_grad()
    def forward(self, x: Tensor, position_ids: Tensor, layer_type: Optional[str] = None):
        """(cos, sin) as the family's module returns them; see the module docstring."""
        if self.kind == "layer_type":
            if layer_type is None:
                raise TypeError("forward() missing the argument layer_type (this model's "
                                f"layers differ: one of {sorted(self._sources)})")
            if layer_type not in self._sources:
                raise ValueError(f"layer_type={layer_type!r}: this model's RoPE layer types "
                                 f"are {sorted(self._sources)}")
        elif layer_type is not None:
            raise TypeError(f"layer_type={layer_type!r} given to the rotary module of a model "
                            f"with one RoPE (kind {self.kind!r}): this module takes "
                            "(x, position_ids)")
            # never silently ignored
        if not torch.is_tensor(position_ids) or position_ids.is_floating_point():
            raise TypeError("position_ids must be an integer tensor")
        if self.kind in ("mrope", "mrope_interleaved"):
            if position_ids.dim() == 2:
                position_ids = position_ids.expand(3, -1, -1)
            if position_ids.dim() != 3 or position_ids.shape[0] != 3:
                raise ValueError(f"position_ids of shape {tuple(position_ids.shape)}: M-RoPE "
                                 "takes [3, batch, seq] (temporal, height, width) or [batch, seq]")
            c3, s3 = self._pairs(position_ids, None)  # [3, batch, seq, P]
            axis = self.mrope_axis if self.mrope_axis.device == c3.device else \
                self._mrope_axis_cpu.to(c3.device)
            idx = axis.view(1, 1, 1, -1).expand(
                1, c3.shape[1], c3.shape[2], -1)
            c, s = c3.gather(0, idx)[0], s3.gather(0, idx)[0]
        else:
            if position_ids.dim() != 2:
                raise ValueError(f"position_ids of shape {tuple(position_ids.shape)}: this "
                                 "module takes [batch, seq]")
            c, s = self._pairs(position_ids, layer_type)
        if not torch.compiler.is_compiling():
            self._sync(layer_type)
        if c.device != x.device:
            c, s = c.to(x.device), s.to(x.device)
        if self.kind == "complex":
            return torch.complex(c, s)  # freqs_cis: a (cos + i sin), [batch, seq, P]
        if self.repeat == "interleave":
            cos = torch.repeat_interleave(c, 2, dim=-1)
            sin = torch.repeat_interleave(s, 2, dim=-1)
        else:
            cos = torch.cat((c, c), dim=-1)
            sin = torch.cat((s, s), dim=-1)
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

    def __prepare_scriptable__(self):
        # torch.jit.script calls this first: a clear refusal instead of TorchScript's
        # type error on the module's Python state (its table sources)
        raise RuntimeError(
            "posenc.torch.RotaryEmbedding cannot be scripted: torch.jit.script is deprecated "
            "in torch 2.13 (torch/jit/_script.py), and this module calls posenc through "
            "custom ops with Python state (tables per device, the dynamic switches); use "
            "torch.compile (no graph break) or torch.export")

    def extra_repr(self) -> str:
        rep = "" if self.repeat == "cat" else f"repeat={self.repeat!r}, "
        return f"kind={self.kind!r}, {rep}" + ", ".join(
            f"{t}: {s.rope!r}" if t else repr(s.rope) for t, s in self._sources.items())


# ---- patch -------------------------------------------------------------------------


class Replacement(NamedTuple):
    """One rotary module patch() replaced (or left: by is None, why says why)."""
    name: str
    replaced: str
    by: Optional[str]
    why: str = ""

    def __str__(self) -> str:
        if self.by is None:
            return f"{self.name}: {self.replaced} left as it is ({self.why})"
        note = f" ({self.why})" if self.why else ""
        return f"{self.name}: {self.replaced} -> posenc {self.by}{note}"


class PatchReport(list):
    """The list of Replacement patch() made; str() gives one line each."""

    def __str__(self) -> str:
        return "\n".join(str(r) for r in self)


def _repeat_of_module(module: torch.nn.Module) -> str:
    """How the module spreads the pair values over the head, from its code."""
    try:
        src = inspect.getsource(type(module).forward)
        # M-RoPE modules compose in recomposition_frequencies (GLM-4V:
        # repeat_interleave, modeling_glm4v.py:481-486)
        rec = getattr(type(module), "recomposition_frequencies", None)
        if rec is not None:
            src += inspect.getsource(rec)
    except (OSError, TypeError):
        return "cat"
    return "interleave" if "repeat_interleave(" in src else "cat"


def _kind_of_module(module: torch.nn.Module) -> Optional[str]:
    """The call convention of a transformers rotary module, from its code."""
    try:
        params = list(inspect.signature(module.forward).parameters)
    except (TypeError, ValueError):
        return None
    name = type(module).__name__
    if params[:3] == ["x", "position_ids", "layer_type"]:
        return "layer_type"
    if params != ["x", "position_ids"]:
        return None
    if hasattr(module, "mrope_section"):
        return "mrope_interleaved" if name.startswith("Qwen3") else "mrope"
    if name == "Llama4TextRotaryEmbedding":
        return "complex"
    return "plain"


def _probe_positions(kind: str, device) -> Tensor:
    p = torch.cat((torch.arange(64), torch.tensor([1000, 2047, 4000])))[None]
    if kind in ("mrope", "mrope_interleaved"):
        # distinct temporal, height and width rows
        p = torch.stack((p[0], (p[0] * 7) % 61, (p[0] * 5) % 53))[:, None, :]
    return p.to(device)


def _module_device(module: torch.nn.Module):
    try:
        return next(iter(module.buffers())).device
    except StopIteration:
        return torch.device("cpu")


def _stock_twin(old: torch.nn.Module) -> Optional[torch.nn.Module]:
    """A fresh float32 CPU copy of the stock module, built from its config as
    the model builds it (transformers' rotary modules take (config, device));
    its buffers are the family's formula in float32, whatever happened to the
    module's own since (a cast, the meta device). None where it cannot be built."""
    try:
        return _build_stock(type(old), old.config, torch.device("cpu")).float()
    except Exception:  # a user's module with another constructor
        return None


def _build_stock(cls, config, device) -> torch.nn.Module:
    """transformers' rotary module cls built from config on device (its
    __init__ takes (config) or (config, device=None): modeling_llama.py,
    modeling_gemma3.py)."""
    with torch.device(device):
        return cls(config).to(device)


def _differences(new: RotaryEmbedding, old: torch.nn.Module, kind: str):
    """[(over tolerance, max error, its position, "cos" or "sin", layer type)]
    of old's cos/sin against new's (posenc's, within 1 ulp of the float64
    value), on the CPU; the tolerance is the module's float32 rounding of
    the angle (about pos * 2^-21)."""
    dev = _module_device(old)
    pos = _probe_positions(kind, dev)
    x = torch.zeros(1, dtype=torch.float32, device=dev)
    types = sorted(new._sources) if kind == "layer_type" else [None]
    tpos = (pos.max(dim=0).values if pos.dim() == 3 else pos).cpu()
    tol = (2.0 ** -20 + tpos.double() * 2.0 ** -20)[..., None]
    out = []
    for t in types:
        args = (x, pos) if t is None else (x, pos, t)
        with torch.no_grad():
            want = old(*args)
            got = new(*tuple(a.cpu() if torch.is_tensor(a) else a for a in args))
        if kind == "complex":
            want, got = (want.real, want.imag), (got.real, got.imag)
        for w, g, what in zip(want, got, ("cos", "sin")):
            w, g = w.double().cpu(), g.double().cpu()
            if w.shape != g.shape:
                out.append((True, float("nan"), None, what, t, (tuple(w.shape), tuple(g.shape))))
                continue
            scale = max(1.0, float(w.abs().max()))
            d = (w - g).abs()
            at = int(d.reshape(-1).argmax())
            p = int(tpos.reshape(-1)[(at // d.shape[-1]) % tpos.numel()])
            out.append((bool((d > tol * scale).any()), float(d.max()), p, what, t, None))
    return out


def _check_against(new: RotaryEmbedding, old: torch.nn.Module, kind: str, name: str) -> str:
    """Checks the family: the stock module's formula (a fresh float32 twin of
    it, see _stock_twin) against posenc's values; refuses (ValueError) a
    family posenc reads differently. Then compares the module being replaced
    (unless on the meta device) and returns what it got wrong ("" if
    nothing): after model.to(torch.bfloat16) its inv_freq is rounded to
    bfloat16, which the replacement fixes."""
    twin = _stock_twin(old)
    meta = _module_device(old).type == "meta"
    if twin is None and meta:
        return "not checked: a module on the meta device that cannot be rebuilt on the CPU"
    for over, err, p, what, t, shapes in _differences(new, old if twin is None else twin, kind):
        if over:
            lt = "" if t is None else ", layer_type " + repr(t)
            sh = f"shapes {shapes[0]} vs {shapes[1]}" if shapes else f"max error {err:.3g} " \
                f"at position {p}"
            raise ValueError(f"posenc.torch.patch: {name} ({type(old).__name__}{lt}): posenc's "
                             f"{what} differs from the family's own formula ({sh}); this "
                             "family is not supported as configured")
    if twin is None or meta:
        return ""
    worst = None
    for over, err, p, what, t, _ in _differences(new, old, kind):
        if over and (worst is None or err > worst[0]):
            worst = (err, p, what)
    if worst is None:
        return ""
    dts = sorted({str(b.dtype).replace("torch.", "") for b in old.buffers()
                  if b.is_floating_point() and b.dtype != torch.float32})
    if not dts:
        # float32 buffers that are not what the config says: changed on
        # purpose, perhaps; posenc would compute something else: refused
        raise ValueError(f"posenc.torch.patch: {name} ({type(old).__name__}): posenc's "
                         f"{worst[2]} differs from the module's own (max error {worst[0]:.3g} at "
                         f"position {worst[1]}), and the module's float32 buffers are not "
                         "what its config gives: not patched")
    return (f"the stock module's inv_freq was {'/'.join(dts)}: its {worst[2]} off by "
            f"{worst[0]:.3g} at position {worst[1]}; posenc's are exact")


def patch(model: torch.nn.Module, *, check: bool = True,
          max_table: int = 131072) -> PatchReport:
    """Replaces every rotary module of a transformers model with RotaryEmbedding.

    Finds the submodules whose class name ends in "RotaryEmbedding" and that
    take (x, position_ids[, layer_type]), as the language models' modules of
    transformers 5 do; builds each replacement from the module's own config
    (module.config) with the module's call convention, on the module's device
    (the meta device too: the tables are made on first use on a real device).

    check=True checks the family: the stock module's formula (a fresh float32
    CPU module of the same class from the same config) against posenc's cos
    and sin at positions 0..63, 1000, 2047 and 4000 for every layer type,
    within float32's rounding of the angle: a family posenc reads differently
    is refused (ValueError), not patched. Then it compares the module being
    replaced: where that one is off because a cast rounded its buffers
    (model.to(torch.bfloat16), .half()), the model is patched all the same and
    the Replacement's why (and a warning) says what the stock module got
    wrong, e.g. "inv_freq was bfloat16: its cos off by 1.97 at position 4000";
    float32 buffers that differ from what the config gives are refused.

    Left as they are and listed: vision rotary modules (forward(seqlen) and
    the like), a module without .config (a user's own), and modules already
    replaced ("already patched": patching twice changes nothing). The stock
    module is kept (not in the state_dict) for unpatch(model).

    Returns the PatchReport (one Replacement per module found). Raises
    ValueError when no rotary module is or could be replaced (an unsupported
    family, or a model without RoPE), naming the modules found.
    """
    _check_model(model, "patch")
    found = []
    report = PatchReport()
    already = []
    for name, module in model.named_modules():
        if isinstance(module, RotaryEmbedding):
            already.append(Replacement(name, type(module).__name__, None, "already patched"))
        elif type(module).__name__.endswith("RotaryEmbedding"):
            found.append((name, module))
    todo = []
    for name, module in found:
        kind = _kind_of_module(module)
        cls = type(module).__name__
        if kind is not None and "Vision" in cls:
            report.append(Replacement(name, cls, None, "a vision encoder's 2D RoPE: not "
                                      "replaced"))
            continue
        if kind is None:
            report.append(Replacement(name, cls, None, "not a language model's rotary module: "
                                      "its forward does not take (x, position_ids)"))
            continue
        cfg = getattr(module, "config", None)
        if cfg is None:
            report.append(Replacement(name, cls, None, "no .config to build posenc's module "
                                      "from (a module of your own?)"))
            continue
        dev = _module_device(module) if any(True for _ in module.buffers()) else None
        try:
            new = RotaryEmbedding(cfg, device=dev, kind=kind, repeat=_repeat_of_module(module),
                                  max_table=max_table)
        except (Error, ValueError, TypeError) as e:
            raise ValueError(f"posenc.torch.patch: {name} ({cls}): unsupported: {e}") from None
        note = _check_against(new, module, kind, name) if check else ""
        if note:
            warnings.warn(f"posenc.torch.patch: {name}: {note}", stacklevel=2)
        new.__dict__["_posenc_original"] = module  # not a submodule: no state_dict keys
        todo.append((name, new))
        report.append(Replacement(name, cls, f"RotaryEmbedding({new.extra_repr()})", note))
    report.extend(already)
    if not todo and not already:
        raise ValueError("posenc.torch.patch: no rotary module of this model can be replaced "
                         f"(found: {[(n, type(m).__name__) for n, m in found] or 'none'})")
    for name, new in todo:
        _set_submodule(model, name, new)
    return report


def _check_model(model: Any, what: str) -> None:
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"posenc.torch.{what}: model must be a torch.nn.Module (a transformers "
                        f"model), got {type(model).__name__}")


def _set_submodule(model: torch.nn.Module, name: str, module: torch.nn.Module) -> None:
    parent_name, _, attr = name.rpartition(".")
    parent = model.get_submodule(parent_name) if parent_name else model
    setattr(parent, attr, module)


def unpatch(model: torch.nn.Module) -> PatchReport:
    """Puts back the stock modules patch() replaced; returns what it restored
    (a Replacement per module: by is the stock class). The stock module goes
    to the device of the replacement (rebuilt from its config when it was
    left on the meta device); a RotaryEmbedding made by hand (not by patch)
    stays and is listed. A model without posenc's modules gives an empty report.
    """
    _check_model(model, "unpatch")
    report = PatchReport()
    for name, module in list(model.named_modules()):
        if not isinstance(module, RotaryEmbedding):
            continue
        orig = module.__dict__.get("_posenc_original")
        if orig is None:
            report.append(Replacement(name, type(module).__name__, None,
                                      "not made by patch(): no stock module to restore"))
            continue
        dev = _module_device(module)
        if _module_device(orig).type == "meta" and dev.type != "meta":
            orig = _build_stock(type(orig), orig.config, dev)
        else:
            orig = orig.to(dev)
        _set_submodule(model, name, orig)
        report.append(Replacement(name, type(module).__name__, type(orig).__name__))
    return report


# ---- a config's sinusoid tables and relative buckets as tensors ------------------
# posenc.schemes.layer_arrays (NumPy) as torch tensors: torch.float32 for the
# vectors (the dtype the families' code adds) and torch.int64 for positions
# and buckets (the dtype of transformers' relative positions).


def _index_arg(v: Any, name: str) -> Any:
    """A positions argument for posenc.schemes: tensors as int64 NumPy."""
    return _positions_numpy(v, name) if isinstance(v, torch.Tensor) else v


def layer_tensors(config: Any, layer: int = 0, positions: Any = None, *, q_pos: Any = None,
                  k_pos: Any = None, device: Any = None) -> Dict[str, Tensor]:
    """posenc.schemes.layer_arrays as tensors on device (default CPU):
    {"positions", "pe"} of a sinusoid layer or {"q_pos", "k_pos", "bucket"} of
    a relative-bucket layer. positions, q_pos and k_pos may be integer
    tensors; errors name the argument."""
    from . import schemes
    arrays = schemes.layer_arrays(config, layer, _index_arg(positions, "positions"),
                                  q_pos=_index_arg(q_pos, "q_pos"),
                                  k_pos=_index_arg(k_pos, "k_pos"))
    return {k: torch.from_numpy(v).to(device) if device is not None else torch.from_numpy(v)
            for k, v in arrays.items()}


def sinusoid_table(config: Any, layer: int = 0, positions: Any = None,
                   device: Any = None) -> Tensor:
    """torch.float32 [n, dim]: posenc.schemes.sinusoid_table as a tensor."""
    out = layer_tensors(config, layer, positions, device=device)
    if "pe" not in out:
        raise ValueError(f"layer {layer} has relative buckets, not a sinusoid table: use "
                         "relative_buckets")
    return out["pe"]


def relative_buckets(config: Any, layer: int = 0, positions: Any = None, *, q_pos: Any = None,
                     k_pos: Any = None, device: Any = None) -> Tensor:
    """torch.int64 [n_q, n_k]: posenc.schemes.relative_buckets as a tensor."""
    from . import schemes
    if schemes._layer_kind(config, layer) != "buckets":
        raise ValueError(f"layer {layer} has a sinusoid table, not relative buckets: use "
                         "sinusoid_table")
    return layer_tensors(config, layer, positions, q_pos=q_pos, k_pos=k_pos,
                         device=device)["bucket"]


def relative_sinusoid(config, layer: int = 0, seq_len: int = 16, distances=None, device=None):
    """posenc.schemes.relative_sinusoid (XLNet's, Funnel's distances and
    [sin | cos] vectors) as torch tensors, int64 [n] and float32 [n, d_model],
    on device."""
    from . import schemes

    pos, pe = schemes.relative_sinusoid(config, layer, seq_len, distances)
    return torch.from_numpy(pos).to(device), torch.from_numpy(pe).to(device)
