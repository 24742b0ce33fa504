"""The registry's schemes that do not rotate, from a config (NumPy): a
sinusoid layer's vectors (Marian, Pegasus, M2M100, NLLB-MoE, Speech2Text,
XGLM, CTRL, Whisper's encoder, DistilBERT) and a relative-bucket layer's
ids (T5, MPNet, DeBERTa, DeBERTa-v2/v3), as ``posenc golden --config F
--layer N`` writes them and as transformers 5.23's code computes them
(tests/hf/test_sinusoid_families_hf.py).

    import posenc.schemes as ps
    pe = ps.sinusoid_table("config.json", layer=0, positions=range(16))
    b = ps.relative_buckets("config.json", layer=0, positions=range(128))
    dist, pe = ps.relative_sinusoid("config.json", layer=0, seq_len=16)  # XLNet, Funnel
    (posenc.torch.relative_sinusoid: the same as torch tensors)
"""
from typing import Any, Iterable, Optional

import numpy as np

from . import _args
from . import _schemes  # type: ignore[attr-defined]

__all__ = ["sinusoid_table", "relative_buckets", "relative_sinusoid"]


def _positions(positions: Optional[Iterable[int]], default: int) -> np.ndarray:
    if positions is None:
        return np.arange(default, dtype=np.int64)
    p = np.asarray(list(positions) if not isinstance(positions, np.ndarray) else positions)
    if p.ndim != 1 or (p.size and p.dtype.kind not in "iu"):
        raise TypeError("positions must be a 1-D sequence of integers")
    return np.ascontiguousarray(p, dtype=np.int64)


def _values(config: Any, layer: int, pos: np.ndarray):
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    return _schemes.layer_values(_args.config_text(config), int(layer), pos.tobytes())


def sinusoid_table(config: Any, layer: int = 0,
                   positions: Optional[Iterable[int]] = None) -> np.ndarray:
    """float32 [n, dim]: the vector a sinusoid layer's family adds at each token
    index in positions (default 0..31), its offset applied (fairseq's
    pad_token_id + 1, XGLM's 2) in the family's float arithmetic. ValueError
    for a layer of another scheme."""
    pos = _positions(positions, 32)
    kind, width, data = _values(config, layer, pos)
    if kind != "sinusoid":
        raise ValueError(f"layer {layer} has relative buckets, not a sinusoid table: "
                         "use relative_buckets")
    return np.frombuffer(data, dtype=np.float32).reshape(len(pos), width).copy()


def relative_buckets(config: Any, layer: int = 0,
                     positions: Optional[Iterable[int]] = None) -> np.ndarray:
    """int64 [n, n]: the bucket of query positions[i] and key positions[j]
    (default 0..15): T5's (T5, MPNet: posenc_t5_bucket), or DeBERTa's relative
    id (query - key, log-bucketed by position_buckets; transformers'
    build_relative_position). ValueError for a layer of another scheme."""
    pos = _positions(positions, 16)
    kind, width, data = _values(config, layer, pos)
    if kind != "buckets":
        raise ValueError(f"layer {layer} has a sinusoid table, not relative buckets: "
                         "use sinusoid_table")
    return np.frombuffer(data, dtype=np.int64).reshape(len(pos), len(pos)).copy()


def relative_sinusoid(config: Any, layer: int = 0, seq_len: int = 16,
                      distances: Optional[Iterable[int]] = None):
    """(positions int64 [n], pe float32 [n, d_model]) of a relative-sinusoid
    layer (XLNet, Funnel), as ``posenc golden --config F --layer N --seq-len
    T`` writes them: the distances query - key the layer's attention reads
    for seq_len tokens, in its code's order (XLNet: klen .. -qlen + 1, or
    .. 0 for attn_type "uni", clamped by clamp_len; Funnel: its block's, or
    the token positions for attention_type "factorized"), and [sin | cos] of
    each in the family's float32 steps. distances: these instead (negatives
    allowed; XLNet clamps them). ValueError for a layer of another scheme or
    a length Funnel does not pool at."""
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    if isinstance(seq_len, bool) or not isinstance(seq_len, (int, np.integer)):
        raise TypeError("seq_len must be an integer")
    given = None if distances is None else _positions(distances, 0).tobytes()
    pb, width, data = _schemes.rel_sinusoid(_args.config_text(config), int(layer), int(seq_len),
                                            given)
    pos = np.frombuffer(pb, dtype=np.int64).copy()
    return pos, np.frombuffer(data, dtype=np.float32).reshape(len(pos), width).copy()

