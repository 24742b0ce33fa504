"""The registry's schemes that do not rotate, from a config (NumPy): a
sinusoid layer's vectors (Marian, Pegasus, M2M100, NLLB-MoE, Speech2Text,
XGLM, CTRL, Whisper's encoder, DistilBERT) and a relative-bucket layer's
ids (T5, MPNet, DeBERTa, DeBERTa-v2/v3), as ``posenc golden --config F
--layer N`` writes them and as transformers 5.23's code computes them
(tests/hf/test_sinusoid_families_hf.py).

    import posenc.schemes as ps
    pe = ps.sinusoid_table("config.json", layer=0, positions=range(16))
    b = ps.relative_buckets("config.json", layer=0, positions=range(128))
    rows = ps.learned_rows("config.json", positions=range(16))   # learned tables

learned_rows gives the rows a learned table is read at (the vectors are the
checkpoint's weights): BERT's, RoBERTa's, LayoutLM's and MarkupLM's 1-D
rows, Reformer's axial rows, TAPAS's rows reset per table cell; given torch
tensors it answers torch tensors on their device.
"""
from typing import Any, Iterable, Optional

import numpy as np

from . import _args
from . import _schemes  # type: ignore[attr-defined]

__all__ = ["sinusoid_table", "relative_buckets", "learned_rows"]


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


def _is_torch(x: Any) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def _ints(x: Any, dtype: Any) -> np.ndarray:
    if _is_torch(x):
        x = x.detach().cpu().numpy()
    a = np.asarray(list(x) if not isinstance(x, np.ndarray) else x)
    if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
        raise TypeError("positions and cells must be 1-D sequences of integers")
    if a.size and (a.min() < 0 and dtype == np.uint32):
        raise ValueError("cell ids must be non-negative")
    return np.ascontiguousarray(a, dtype=dtype)


def learned_rows(config: Any, layer: int = 0, positions: Optional[Iterable[int]] = None,
                 cells: Optional[Any] = None) -> Any:
    """The rows of a learned layer's table the family's code reads, as
    ``posenc golden`` writes them (int64):

    - a plain table (BERT, GPT-2, RoBERTa, OPT, BART, LayoutLM's and MarkupLM's
      1-D table; Reformer without axial_pos_embds): [n], offset + each token
      index of positions (default 0..31), for a sequence without padding;
    - Reformer's axial table: {"row", "axial_row", "axial_col"}, each [n]
      (row p / w of the first axis's table, p % w of the second's);
    - TAPAS with reset_position_index_per_cell: cells=(columns, rows), one
      pair per token (token_type_ids[..., 1] and [..., 2]); [n], each token's
      distance from its cell's first token, capped at the last row
      (positions must then be left out); without cells, TapasModel's default
      token_type_ids (zeros): every token in cell (0, 0), the index capped.

    LayoutLM's box rows come from each token's bbox (posenc_box2d_ids), and
    MarkupLM's XPath rows from xpath_tags_seq / xpath_subs_seq: not here.
    torch tensors in, torch tensors out (on the input's device). ValueError
    for a layer of another scheme, a position outside the table, cells given
    to a layer that does not read them."""
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    text = _args.config_text(config)
    like = None
    if cells is not None:
        if positions is not None:
            raise ValueError("give positions or cells, not both (TAPAS numbers the tokens "
                             "0..n-1 itself)")
        cols, rows = cells
        like = cols if _is_torch(cols) else None
        c = _ints(cols, np.uint32)
        r = _ints(rows, np.uint32)
        if len(c) != len(r):
            raise ValueError("cells: as many rows as columns")
        kind, width, data = _schemes.learned_rows(text, int(layer), b"", c.tobytes(),
                                                  r.tobytes())
        n = len(c)
    else:
        like = positions if _is_torch(positions) else None
        pos = _positions(None, 32) if positions is None else _ints(positions, np.int64)
        kind, width, data = _schemes.learned_rows(text, int(layer), pos.tobytes(), None, None)
        n = len(pos)
    out = np.frombuffer(data, dtype=np.int64).reshape(n, width).copy()

    def _as(a: np.ndarray) -> Any:
        if like is None:
            return a
        from .torch import _on_device_of  # torch's calls live in torch.py
        return _on_device_of(a, like)

    if width == 3:
        return {"row": _as(out[:, 0].copy()), "axial_row": _as(out[:, 1].copy()),
                "axial_col": _as(out[:, 2].copy())}
    return _as(out[:, 0].copy())
