"""Which path rotates: the dispatch of RoPE.apply and posenc.torch's modules to
posenc.triton for CUDA tensors (CPU tensors keep the library's path).

posenc.last_apply_path() says which path the calling thread's last
RoPE.apply took: "cpu" (the C library) or "triton" (posenc.triton's kernel).
"""
from __future__ import annotations

import threading
from typing import Any, Optional

_LAST = threading.local()
_TRITON: list = []  # [module or None] once the import was tried


def set_path(path: str) -> None:
    _LAST.path = path


def last_path() -> Optional[str]:
    return getattr(_LAST, "path", None)


def triton_module() -> Any:
    """posenc.triton, or None when triton does not import (tried once)."""
    if not _TRITON:
        try:
            from . import triton as mod
        except ImportError:
            mod = None
        _TRITON.append(mod)
    return _TRITON[0]


def apply_cuda(rope: Any, q: Any, k: Any, positions: Any, inplace: bool, inverse: bool,
               layout: Optional[str]) -> Any:
    """RoPE.apply for a CUDA q through posenc.triton; None where that path does
    not serve the call (no triton, float64, autograd, torch.compile tracing,
    NumPy arguments): the caller's path then answers as before."""
    import torch

    if q.dtype not in (torch.float32, torch.bfloat16, torch.float16) or q.requires_grad:
        return None
    if k is not None and (not torch.is_tensor(k) or k.requires_grad or k.dtype is torch.float64):
        return None
    if torch.compiler.is_compiling():
        return None
    mod = triton_module()
    if mod is None:
        return None
    if not inplace:
        q = q.clone(memory_format=torch.preserve_format)
        k = None if k is None else k.clone(memory_format=torch.preserve_format)
    r = mod.apply(rope, q, k, positions=positions, inverse=inverse, layout=layout)
    set_path("triton")
    return r


def cos_sin_cuda(rope: Any, positions: Any) -> Any:
    """(cos, sin) float32 [*positions.shape, P] computed on positions' CUDA
    device by posenc.triton, or None (no triton, not CUDA)."""
    if not positions.is_cuda:
        return None
    mod = triton_module()
    if mod is None:
        return None
    return mod.cos_sin(rope, positions)
