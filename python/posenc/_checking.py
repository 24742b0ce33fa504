"""posenc.check: is an engine's RoPE right, and if not, what is wrong with it.

The numerics are the library's (include/posenc_check.h, docs/CHECK.md): the
engine's y is compared with the exact rotation of x by the model's RoPE, in
ulps of the engine's dtype relative to each pair's norm, and on a mismatch
each known mistake is refitted and those that fit are named, best first.
"""
import numpy as np

from . import _args, _check

__all__ = ["check", "CheckResult", "Cause", "CAUSES"]

#: The causes posenc names, in its vocabulary.
CAUSES = ("layout-swapped", "layout-mixed", "angle-precision", "position-offset", "base",
          "scaling", "longrope-factors", "rotary-dim", "attn-factor", "direction",
          "dtype-rounding")

_DTYPES = {"F32": 0, "BF16": 1, "F16": 2}


class Cause:
    """One explanation that fits: name (see CAUSES), fit_ulp (the refit's
    largest error, ulps), params (dict of what fits, e.g. {"c": "1"})."""

    __slots__ = ("name", "fit_ulp", "params")

    def __init__(self, name, fit_ulp, params):
        self.name = name
        self.fit_ulp = fit_ulp
        self.params = dict(w.split("=", 1) for w in params.split()) if params else {}

    def __str__(self):
        words = " ".join(f"{k}={v}" for k, v in self.params.items())
        return f"CAUSE name={self.name} fit_ulp={self.fit_ulp:.4g}" + (" " + words if words else "")

    __repr__ = __str__


class CheckResult:
    """The verdict of posenc.check.

    match (bool), dtype ("F32", "F16", "BF16"), n_tok, n_head, tol_ulp,
    max_ulp, max_abs, worst_pos, seq_len; bands: list of (pos_lo, pos_hi,
    n_tok, max_ulp, max_abs); causes: list of Cause, best first (empty on a
    match, or when no known mistake fits). str() gives the lines of
    `posenc check`.
    """

    def __init__(self, d, dtype):
        self.match = bool(d["match"])
        self.dtype = dtype
        for k in ("n_tok", "n_head", "tol_ulp", "max_ulp", "max_abs", "worst_pos", "seq_len"):
            setattr(self, k, d[k])
        self.bands = [tuple(b) for b in d["bands"]]
        self.causes = [Cause(*c) for c in d["causes"]]

    @property
    def cause(self):
        """The best explanation (a Cause), or None."""
        return self.causes[0] if self.causes else None

    def __bool__(self):
        return self.match

    def __str__(self):
        lines = [f"CHECK verdict={'match' if self.match else 'mismatch'} dtype={self.dtype} "
                 f"n_tok={self.n_tok} n_head={self.n_head} max_ulp={self.max_ulp:.4g} "
                 f"max_abs={self.max_abs:.4g}"]
        lines += [f"BAND pos={lo}-{hi} max_ulp={u:.4g} max_abs={a:.4g}"
                  for lo, hi, _, u, a in self.bands]
        if not self.match and not self.causes:
            lines.append("CAUSE name=none")
        lines += [str(c) for c in self.causes]
        return "\n".join(lines)

    __repr__ = __str__


def _as_f32(a, what):
    """(float32 C-contiguous ndarray, dtype word) from a NumPy array or a torch tensor."""
    word = "F32"
    pt = _args.torch_of(a)
    if pt is not None:  # a torch tensor
        a, word = pt._float32_numpy(a)
    else:
        a = np.asarray(a)
        if a.dtype == np.float16:
            word = "F16"
        elif a.dtype.kind != "f":
            raise TypeError(f"{what} must hold floats")
    return np.ascontiguousarray(a, dtype=np.float32), word


def _shape3(a, what):
    if a.ndim == 2:
        return a[:, None, :]
    if a.ndim == 3:
        return a
    if a.ndim == 4 and a.shape[0] == 1:  # Hugging Face's [1, n_head, seq, head_dim]
        return np.ascontiguousarray(a[0].transpose(1, 0, 2))
    raise ValueError(f"{what} must be [n_tok, head_dim], [n_tok, n_head, head_dim] or "
                     f"[1, n_head, n_tok, head_dim] (got shape {a.shape})")


def check(x, y, positions, config, layer=0, *, seq_len=None, tol=None, dtype=None,
          tables=False):
    """Checks an engine's RoPE output against the model's.

    x, y: the vectors before and after the engine's RoPE, NumPy arrays or
    torch tensors, [n_tok, n_head, head_dim] (also [n_tok, head_dim], or
    Hugging Face's [1, n_head, n_tok, head_dim]); or, with tables=True, the
    engine's cos and sin [n_tok, rotary_dim] or [n_tok, rotary_dim / 2].
    positions: n_tok integer positions. config: the model's config.json (a
    path, its text, a dict or a transformers PretrainedConfig), read through
    posenc's model registry; layer: its layer. seq_len: the length the
    engine ran, 1 .. MAX_POS + 1 (default max(positions) + 1). tol: ulps, a
    finite number > 0 (default 4). dtype:
    "F32", "F16" or "BF16", the precision the engine worked in (default:
    the dtype of y: torch bfloat16 is "BF16", float16 "F16").

    Returns a CheckResult; raises ValueError for input that does not fit
    the model.
    """
    xa, _ = _as_f32(x, "x")
    ya, word = _as_f32(y, "y")
    if dtype is not None:
        word = str(dtype).upper()
    if word not in _DTYPES:
        raise ValueError(f"dtype must be F32, F16 or BF16 (got {dtype!r})")
    if not tables:
        xa, ya = _shape3(xa, "x"), _shape3(ya, "y")
        if xa.shape != ya.shape:
            raise ValueError(f"x {xa.shape} and y {ya.shape} differ in shape")
    layer = _args.layer(layer)
    seq_len = 0 if seq_len is None else _args.length(seq_len, "seq_len", lo=1)
    tol = 0.0 if tol is None else _args.positive(tol, "tol", "ulps")
    pos = _args.positions_int64(positions).reshape(-1)
    if pos.shape[0] != xa.shape[0]:
        raise ValueError(f"{pos.shape[0]} positions for {xa.shape[0]} tokens")
    d = _check.run(np.ascontiguousarray(xa), np.ascontiguousarray(ya), pos,
                   _args.config_text(config), layer, seq_len, tol,
                   _DTYPES[word], bool(tables))
    return CheckResult(d, word)
