"""Which path rotates: the dispatch of RoPE.apply and posenc.torch's modules to
posenc.triton for CUDA tensors (CPU tensors keep the library's path).

posenc.last_apply_path() says which path the calling thread's last
RoPE.apply took: "cpu" (the C library) or "triton" (posenc.triton's kernel).
The torch side of the dispatch (which tensors may go) is posenc.torch's
_apply_cuda: every call of torch is in torch.py.
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


def cos_sin_cuda(rope: Any, positions: Any) -> Any:
    """(cos, sin) float32 [*positions.shape, P] computed on positions' CUDA
    device by posenc.triton, or None (no triton, not CUDA)."""
    if not positions.is_cuda:
        return None
    mod = triton_module()
    if mod is None:
        return None
    return mod.cos_sin(rope, positions)
