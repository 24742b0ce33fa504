"""The registry's schemes that do not rotate, from a config (NumPy): a
sinusoid layer's vectors (Marian, Pegasus, M2M100, NLLB-MoE, Speech2Text,
XGLM, CTRL, Whisper's encoder, DistilBERT) and a relative-bucket layer's
ids (T5, MPNet, DeBERTa, DeBERTa-v2/v3; LongT5's encoder, CPM-Ant, VITS), as ``posenc golden --config F
--layer N`` writes them and as transformers 5.23's code computes them
(tests/hf/test_sinusoid_families_hf.py).

    import posenc.schemes as ps
    pe = ps.sinusoid_table("config.json", layer=0, positions=range(16))
    b = ps.relative_buckets("config.json", layer=0, positions=range(128))
"""
from typing import Any, Iterable, Optional

import numpy as np

from . import _args
from . import _schemes  # type: ignore[attr-defined]

__all__ = ["sinusoid_table", "relative_buckets", "side_buckets"]


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
    (default 0..15): T5's (T5, MPNet: posenc_t5_bucket), DeBERTa's relative
    id (query - key, log-bucketed by position_buckets; transformers'
    build_relative_position), LongT5's encoder (T5's bucket inside the local
    window, -1 outside), CPM-Ant's (the forward's segments: 0 for the prompt,
    2 after) or VITS's emb_rel row (-1 beyond the window), as posenc golden's
    bucket. ValueError for a layer of another scheme."""
    pos = _positions(positions, 16)
    kind, width, data = _values(config, layer, pos)
    if kind != "buckets":
        raise ValueError(f"layer {layer} has a sinusoid table, not relative buckets: "
                         "use sinusoid_table")
    return np.frombuffer(data, dtype=np.int64).reshape(len(pos), len(pos)).copy()


# ---- LongT5, CPM-Ant, VITS (tests/hf/test_buckets_hf.py) ------------------------------
# relative_buckets answers their layers too: LongT5's encoder T5's bucket inside
# the local window and -1 where the code does not attend (|k - q| >=
# local_radius + 1); CPM-Ant's bucket with the forward's segments (0 for the
# prompt_length prompt positions, 2 after); VITS's emb_rel row, -1 beyond
# window_size. posenc.torch.relative_buckets gives them as a torch tensor.


def side_buckets(config: Any, layer: int = 0, positions: Optional[Iterable[int]] = None,
                 n_tok: Optional[int] = None) -> np.ndarray:
    """int64 [n, n_tok // global_block_size]: LongT5's transient-global side
    bucket of each query in positions (default 0..15) to each global block of
    a sequence of n_tok tokens (default max(positions) + 1), as posenc golden's
    side_bucket. ValueError for a layer without them."""
    pos = _positions(positions, 16)
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    if n_tok is None:
        n_tok = int(pos.max()) + 1 if pos.size else 0
    if isinstance(n_tok, bool) or not isinstance(n_tok, (int, np.integer)):
        raise TypeError("n_tok must be an integer")
    ng, data = _schemes.side_buckets(_args.config_text(config), int(layer), int(n_tok),
                                     pos.tobytes())
    return np.frombuffer(data, dtype=np.int64).reshape(len(pos), ng).copy()

