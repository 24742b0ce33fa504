"""The registry's schemes that do not rotate, from a config (NumPy): a
sinusoid layer's vectors (Marian, Pegasus, M2M100, NLLB-MoE, Speech2Text,
XGLM, CTRL, Whisper's encoder, DistilBERT) and a relative-bucket layer's
ids (T5, MPNet, DeBERTa, DeBERTa-v2/v3; LongT5's encoder, CPM-Ant, VITS), as ``posenc golden --config F
--layer N`` writes them and as transformers 5.23's code computes them
(tests/hf/test_sinusoid_families_hf.py).

    import posenc.schemes as ps
    pe = ps.sinusoid_table("config.json", layer=0, positions=range(16))
    b = ps.relative_buckets("config.json", layer=0, positions=range(128))
    b = ps.relative_buckets("config.json", layer=0, q_pos=[127], k_pos=range(128))
    g = ps.layer_arrays("config.json", layer=0)  # golden's tensors, either scheme
    rows = ps.learned_rows("config.json", positions=range(16))   # learned tables
    dist, pe = ps.relative_sinusoid("config.json", layer=0, seq_len=16)  # XLNet, Funnel
    pb = ps.predict_buckets("config.json", layer=12, positions=range(16))  # ProphetNet

posenc.torch has the same as torch tensors (layer_tensors, sinusoid_table,
relative_buckets, relative_sinusoid).

learned_rows gives the rows a learned table is read at (the vectors are the
checkpoint's weights): BERT's, RoBERTa's, LayoutLM's and MarkupLM's 1-D
rows, Reformer's axial rows, TAPAS's rows reset per table cell; given torch
tensors it answers torch tensors on their device.
"""
from typing import Any, Iterable, Optional

import numpy as np

from . import _args
from . import _schemes  # type: ignore[attr-defined]

__all__ = ["sinusoid_table", "relative_buckets", "layer_arrays", "side_buckets", "learned_rows",
           "relative_sinusoid", "predict_buckets", "query_scale", "resampled_rows"]


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
    for a layer of another scheme, and past the rows of a table that ends
    where transformers' does (Marian, Pegasus, CTRL, TIPSv2, DistilBERT: as
    posenc golden; fairseq's and MusicGen's tables grow, and have no end)."""
    pos = _positions(positions, 32)
    kind, width, data = _values(config, layer, pos)
    if kind != "sinusoid":
        raise ValueError(f"layer {layer} has relative buckets, not a sinusoid table: "
                         "use relative_buckets")
    return np.frombuffer(data, dtype=np.float32).reshape(len(pos), width).copy()


def relative_buckets(config: Any, layer: int = 0,
                     positions: Optional[Iterable[int]] = None, *,
                     q_pos: Optional[Iterable[int]] = None,
                     k_pos: Optional[Iterable[int]] = None) -> np.ndarray:
    """int64 [n, n]: the bucket of query positions[i] and key positions[j]
    (default 0..15): T5's (T5, MPNet: posenc_t5_bucket), DeBERTa's relative
    id (query - key, log-bucketed by position_buckets; transformers'
    build_relative_position), LongT5's encoder (T5's bucket inside the local
    window, -1 outside), CPM-Ant's (the forward's segments: 0 for the prompt,
    2 after) or VITS's emb_rel row (-1 beyond the window), as posenc golden's
    bucket. With q_pos or k_pos: [n_q, n_k] of those (each defaults to
    positions), as layer_arrays. ValueError for a layer of another scheme."""
    if q_pos is not None or k_pos is not None:
        return _buckets(config, layer, positions, q_pos, k_pos)["bucket"]
    pos = _positions(positions, 16)
    kind, width, data = _values(config, layer, pos)
    if kind != "buckets":
        raise ValueError(f"layer {layer} has a sinusoid table, not relative buckets: "
                         "use sinusoid_table")
    return np.frombuffer(data, dtype=np.int64).reshape(len(pos), len(pos)).copy()


# ---- one call for a layer: what `posenc golden --config F --layer N` writes ----

_MAX_POSITIONS = 16384  # the extension's bound (posenc._schemes.layer_values)


def _token_indices(positions: Any, default: int, name: str) -> np.ndarray:
    """positions as int64 token indices (0 or more), refused by name."""
    try:
        p = _positions(positions, default)
    except TypeError:
        raise TypeError(f"{name} must be a 1-D sequence of integers") from None
    if p.size and p.min() < 0:
        raise ValueError(f"{name}: {int(p.min())} is negative: a sinusoid or bucket layer's "
                         "positions are token indices, 0 or more")
    if p.size > _MAX_POSITIONS:
        raise ValueError(f"{name}: {p.size} positions, at most {_MAX_POSITIONS}")
    return p


def _layer_kind(config: Any, layer: int) -> str:
    """'sinusoid' or 'buckets' (ValueError naming the layer's scheme otherwise)."""
    return _values(config, layer, np.zeros(0, dtype=np.int64))[0]


def _buckets(config: Any, layer: int, positions: Any, q_pos: Any, k_pos: Any) -> dict:
    """q_pos, k_pos and their bucket matrix, from the buckets of the distinct
    positions of both (the library's bucket depends on the two positions only)."""
    base = _token_indices(positions, 16, "positions")
    q = base if q_pos is None else _token_indices(q_pos, 16, "q_pos")
    k = base if k_pos is None else _token_indices(k_pos, 16, "k_pos")
    u = np.unique(np.concatenate([q, k]))
    if u.size > _MAX_POSITIONS:
        raise ValueError(f"q_pos and k_pos: {u.size} distinct positions together, at most "
                         f"{_MAX_POSITIONS}")
    kind, _, data = _values(config, layer, u)
    if kind != "buckets":
        raise ValueError(f"q_pos, k_pos: layer {layer} has a sinusoid table, not relative "
                         "buckets: give positions")
    square = np.frombuffer(data, dtype=np.int64).reshape(u.size, u.size)
    qi, ki = np.searchsorted(u, q), np.searchsorted(u, k)
    return {"q_pos": q.copy(), "k_pos": k.copy(), "bucket": square[np.ix_(qi, ki)].copy()}


def layer_arrays(config: Any, layer: int = 0, positions: Optional[Iterable[int]] = None, *,
                 q_pos: Optional[Iterable[int]] = None,
                 k_pos: Optional[Iterable[int]] = None) -> dict:
    """The tensors ``posenc golden --config F --layer N`` writes, as NumPy
    arrays, for the layer's scheme:

      sinusoid layer   {"positions": int64 [n], the token indices (default
                       0..31, before any offset), "pe": float32 [n, dim], the
                       vector the family adds there (its offset, e.g.
                       fairseq's pad_token_id + 1, applied; its float32
                       arithmetic)}
      relative buckets {"q_pos": int64 [n_q], "k_pos": int64 [n_k], "bucket":
                       int64 [n_q, n_k]: T5's / MPNet's bucket or DeBERTa's
                       relative id of (q_pos[i], k_pos[j]); q_pos and k_pos
                       default to positions (default 0..15)}

    config: a path, JSON text, a dict or a PretrainedConfig. Positions are
    token indices: a negative one is refused (ValueError naming the
    argument), as are q_pos/k_pos for a sinusoid layer and a layer of
    another scheme (its name in the message)."""
    if _layer_kind(config, layer) == "buckets":
        return _buckets(config, layer, positions, q_pos, k_pos)
    if q_pos is not None or k_pos is not None:
        raise ValueError(f"q_pos, k_pos: layer {layer} has a sinusoid table (token "
                         "positions), not relative buckets: give positions")
    pos = _token_indices(positions, 32, "positions")
    return {"positions": pos.copy(), "pe": sinusoid_table(config, layer, pos)}


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


# ---- learned tables' rows (h-ids) ----

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


# ---- ProphetNet's predicting streams (h-prophet) ----

def predict_buckets(config: Any, layer: int = 0,
                    positions: Optional[Iterable[int]] = None) -> np.ndarray:
    """int64 [n, 2n]: the buckets ProphetNet's predicting streams read at a
    decoder layer for the token indices in positions (default 0..15), as
    posenc golden's predict_bucket and as ProphetNetDecoder's forward reads
    them (compute_buffered_relative_buckets): query i's key j at
    bucket(q - k + 1), then at bucket(q - k - 1). The main stream's are
    relative_buckets. ValueError for a layer of another kind."""
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    pos = _positions(positions, 16)
    data = _schemes.prophetnet_predict(_args.config_text(config), int(layer), pos.tobytes())
    return np.frombuffer(data, dtype=np.int64).reshape(len(pos), 2 * len(pos)).copy()


def query_scale(config: Any, layer: int = 0, positions: Optional[Iterable[int]] = None) -> Any:
    """float64 [n]: the factor the layer's queries at each position are
    multiplied by (posenc_model_query_scale; 1 where the layer has none):
    Llama 4's temperature, Qwen 1's logn, Mistral 3's beta, Beam's power
    (1 + (pos + 1) / 2048)^0.1 on its NoPE layers. positions default 0..31;
    torch tensors in, torch tensors out (on the input's device). ValueError
    for a position outside 0..POSENC_MAX_POS or a layer the model lacks."""
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    text = _args.config_text(config)
    like = positions if _is_torch(positions) else None
    pos = _positions(None, 32) if positions is None else _ints(positions, np.int64)
    out = np.frombuffer(_schemes.query_scale(text, int(layer), pos.tobytes()),
                        dtype=np.float64).copy()
    if like is None:
        return out
    from .torch import _on_device_of  # torch's calls live in torch.py
    return _on_device_of(out, like)


def resampled_rows(config: Any, layer: int = 0, seq_len: int = 16,
                   positions: Optional[Iterable[int]] = None) -> Any:
    """SAM 3 LiteText's text model resizes its learned table to each
    sequence's length (F.interpolate, bilinear, align_corners false): token t
    of a sequence of seq_len tokens gets (1 - weight1) * table[row0] +
    weight1 * table[row1]. Returns {"row0", "row1"} (int64 [n]) and
    {"weight1"} (float32 [n]) for the token indices positions (default
    0..seq_len-1), as ``posenc golden --seq-len`` writes them (PyTorch's
    float32 steps, posenc_resample_rows). torch tensors in, torch tensors out.
    ValueError for a layer that does not resample, a token outside the
    sequence, seq_len outside 1..2^23."""
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError("layer must be an integer")
    if isinstance(seq_len, bool) or not isinstance(seq_len, (int, np.integer)):
        raise TypeError("seq_len must be an integer")
    text = _args.config_text(config)
    like = positions if _is_torch(positions) else None
    pos = _positions(None, int(seq_len)) if positions is None else _ints(positions, np.int64)
    rows, w = _schemes.resampled_rows(text, int(layer), int(seq_len), pos.tobytes())
    r = np.frombuffer(rows, dtype=np.int64).reshape(2, len(pos)).copy()
    out = {"row0": r[0].copy(), "row1": r[1].copy(),
           "weight1": np.frombuffer(w, dtype=np.float32).copy()}
    if like is None:
        return out
    from .torch import _on_device_of  # torch's calls live in torch.py
    return {k: _on_device_of(v, like) for k, v in out.items()}
