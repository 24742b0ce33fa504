"""T5's relative position bias from Python, NumPy and torch.

With r = key_pos - query_pos, T5 adds to each attention score the learned
table[bucket(r), head]; bucket(r) is one bucket per distance below
max_exact = nb' / 2 and logarithmic buckets up to max_distance beyond
(nb' = num_buckets / 2 per side when bidirectional, the encoder; num_buckets
for the causal decoder), computed in float32 as the checkpoints' own code
does (_relative_position_bucket in transformers/models/t5/modeling_t5.py).
The buckets come from the library (posenc_t5_bucket, posenc.h section 1.6).
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _args, _core

__all__ = ["t5_bucket", "t5_bias"]


def _buckets(v):
    return _args.integer(v, "num_buckets", 2, _T5_MAX_BUCKETS)


def _max_distance(v):
    return _args.integer(v, "max_distance", 1, 2**32 - 1)


_T5_MAX_BUCKETS = 1048576  # posenc.h's POSENC_T5_MAX_BUCKETS


def t5_bucket(query_pos: Any, key_pos: Any, num_buckets: int = 32, max_distance: int = 128,
              bidirectional: bool = True) -> Any:
    """The bucket of each (query_pos, key_pos) pair (broadcast together).

    query_pos, key_pos: integers 0..MAX_POS (arrays, lists, ints or torch
    tensors), broadcast to one shape S. Returns int64 of shape S (a torch
    tensor on query_pos' device when query_pos is a tensor).
    Raises posenc.Error for num_buckets / max_distance out of range
    (2..1048576 buckets, max_exact < max_distance) or a position outside
    0..MAX_POS.

    >>> int(t5_bucket(0, 20))   # posenc.h's worked example
    26
    """
    qp = _args.positions_int64(query_pos, "query_pos")
    kp = _args.positions_int64(key_pos, "key_pos")
    qb, kb = np.broadcast_arrays(qp, kp)
    qf, kf = np.ascontiguousarray(qb).reshape(-1), np.ascontiguousarray(kb).reshape(-1)
    out = np.empty(qf.size, np.int64)
    _core.t5_buckets(qf, kf, qf.size, _buckets(num_buckets), _max_distance(max_distance),
                     bool(bidirectional), out)
    out = out.reshape(qb.shape)
    pt = _args.torch_of(query_pos)
    return out if pt is None else pt._on_device_of(out, query_pos)


def t5_bias(table: Any, n_query: int, n_key: Optional[int] = None, q_offset: int = 0,
            max_distance: int = 128, bidirectional: bool = True, threads: int = 1) -> Any:
    """The bias T5 adds to attention scores: [n_head, n_query, n_key].

    ``out[h, i, j] = table[bucket(q_offset + i, j), h]``: query i at absolute
    position q_offset + i (tokens already in the KV cache), key j at j.
    table: the model's relative_attention_bias.weight, [num_buckets, n_head]
    (row = bucket). n_key defaults to q_offset + n_query. No mask is added
    (T5's decoder adds its causal mask separately) and nothing is scaled.
    Hugging Face's compute_bias returns this with a leading batch axis of 1.

    NumPy float32 table: the library fills the result (threads 1..64 split
    the queries; the result does not depend on them). torch table: the
    library's buckets index the table on its device, so the result is
    differentiable in the table (training) and any dtype works.
    """
    n_query = _args.length(n_query, "n_query", lo=1)
    q_offset = _args.position(q_offset, "q_offset")
    n_key = _args.length(q_offset + n_query if n_key is None else n_key, "n_key", lo=1)
    threads, max_distance = _args.threads(threads), _max_distance(max_distance)
    pt = _args.torch_of(table)
    if pt is not None:
        if table.dim() != 2:
            raise ValueError(f"table has shape {tuple(table.shape)}: give [num_buckets, n_head]")
        q = np.arange(q_offset, q_offset + n_query)[:, None]
        b = t5_bucket(q, np.arange(n_key)[None, :], table.shape[0], max_distance, bidirectional)
        return pt._t5_gather(table, b)
    t = np.asarray(table)
    if t.ndim != 2:
        raise ValueError(f"table has shape {t.shape}: give [num_buckets, n_head]")
    if t.dtype != np.float32:
        raise TypeError(f"table is {t.dtype}: float32 (or a torch tensor of any float dtype)")
    t = np.ascontiguousarray(t)
    nb, n_head = t.shape
    out = np.empty((n_head, n_query, n_key), np.float32)
    _core.t5_bias(t.reshape(-1), nb, n_head, max_distance, bool(bidirectional), n_query,
                  n_key, q_offset, threads, out)
    return out
