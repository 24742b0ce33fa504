"""posenc: transformer position encodings computed exactly.

Python bindings of the posenc C library (a C extension linked statically
against libposenc; no ctypes, no shared library path). The angles are formed
from the exact integer position and a double-double frequency and reduced
with a three-part pi/2, so cos and sin stay exact at every position up to
2**31 - 1: float32 values are within 1 ulp of the exact value, where the
usual float32 formula (``inv_freq @ position_ids``, then cos and sin) is off
by 1e-2 at position 100,000.

NumPy arrays are used through the buffer protocol, never copied: any
C-contiguous or strided float32 / float16 array, bfloat16 as
``dtype="bfloat16"`` over uint16 storage, int64 positions. CPU torch tensors
(float32, float16, bfloat16) are accepted by the same functions and changed
in place. ``posenc.torch.RotaryEmbedding`` is a drop-in for a Hugging Face
model's rotary module.

    >>> import numpy as np, posenc
    >>> rope = posenc.RoPE(128, base=500000.0)
    >>> q = np.ones((4, 32, 128), np.float32)       # [n_tok, n_head, head_dim]
    >>> k = np.ones((4, 8, 128), np.float32)        # grouped-query: 8 kv heads
    >>> _ = rope.apply(q, k, positions=np.arange(4))  # in place
    >>> round(float(posenc.sinusoid(3, 4)[2, 0]), 4)  # PE(2)[0] = sin 2
    0.9093

Errors from the library are raised as ``posenc.Error`` (a ValueError whose
``status`` is the library's status code); a wrong type is a TypeError. A
rejected call has written nothing.
"""

import os
import sys
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

try:
    from . import _core
except ImportError:  # e.g. python/ itself on sys.path, where nothing is built
    raise ImportError(
        f"posenc: the C extension posenc._core is not built next to {__file__}. "
        "Install the package (pip install ./python, or the wheel) or build it in place "
        "(make python, then PYTHONPATH=build/python); running from inside the source "
        "directory python/ imports the unbuilt sources") from None
from ._core import Error
from . import _args
from ._args import positions as _positions_array
from ._checking import check, CheckResult  # noqa: E402 (posenc check, docs/CHECK.md)
from . import _gpu  # noqa: E402 (RoPE.apply's CUDA path: posenc.triton when it imports)

__all__ = [
    "Error",
    "RoPE",
    "sinusoid",
    "alibi_slopes",
    "alibi_bias",
    "learned_table",
    "MRoPE",
    "t5_bucket",
    "t5_bias",
    "isa",
    "have_config_reader",
    "last_apply_path",
    "__version__",
    "library_version",
    "MAX_POS",
    "check",
    "CheckResult",
]

#: The version of the C library linked into the extension, "MAJOR.MINOR.PATCH".
library_version = _core.version()[0]
#: The package's version: the library's (pyproject.toml reads it from posenc.h).
__version__ = library_version
#: The largest position accepted anywhere (2**31 - 1).
MAX_POS = _core.MAX_POS

_LAYOUTS = {"interleaved": 0, "half": 1}
_LAYOUT_NAMES = {0: "interleaved", 1: "half"}
_BF16 = "bfloat16"


def last_apply_path() -> Optional[str]:
    """The path the calling thread's last RoPE.apply took: "cpu" (the
    library) or "triton" (posenc.triton, CUDA tensors); None before any."""
    return _gpu.last_path()


def isa() -> str:
    """Name of the instruction set the tensor kernels use: "avx512", "avx2" or "scalar"."""
    return _core.isa()


def have_config_reader() -> bool:
    """Whether ``RoPE.from_config`` is available (the library was built with jansson)."""
    return _core.have_config_reader()


# ---- dtypes; torch tensors ------------------------------------------------------
# posenc never imports torch, and every line that calls torch is in
# posenc/torch.py: these few words only ask whether the program's torch is in
# play, and hand a tensor or a torch dtype over to posenc.torch.


_torch = _args.torch_module  # posenc.torch, imported when first needed


def _is_tensor(x):
    """Whether x is a torch tensor (never imports torch: if the program has not
    imported it, x cannot be one)."""
    return _args.torch_of(x) is not None


def _is_torch_dtype(dtype):
    t = sys.modules.get("torch")
    return t is not None and isinstance(dtype, t.dtype)


def _rotate_code(dtype):
    """The posenc_dtype code of a dtype argument for the rotation (-1: infer)."""
    if dtype is None:
        return -1
    if isinstance(dtype, str) and dtype == _BF16:
        return _core.DTYPE_BF16
    code = None
    if _is_torch_dtype(dtype):
        code = _torch()._dtype_code(dtype)
    else:
        try:
            d = np.dtype(dtype)
        except TypeError:
            d = None
        code = {np.float32: _core.DTYPE_F32, np.float16: _core.DTYPE_F16}.get(
            d.type if d is not None else None)
    if code is None:
        raise TypeError(f"dtype {dtype!r}: posenc rotates float32, float16 and 'bfloat16' "
                        "(uint16 storage)")
    return code


def _f32_to_bf16_bits(a):
    """float32 -> bfloat16 bit patterns (uint16), rounded to nearest even."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = a.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(a)
    if nan.any():
        r[nan] = ((b[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def _convert_out(f32_or_f64, dtype):
    """A float32 (or float64) result in the requested dtype (NumPy or torch)."""
    if _is_torch_dtype(dtype):
        return _torch()._from_numpy(f32_or_f64, dtype)
    if isinstance(dtype, str) and dtype == _BF16:
        return _f32_to_bf16_bits(f32_or_f64)
    return f32_or_f64.astype(dtype, copy=False)


def _float_kind(dtype, what):
    """'d' for a float64 request, 'f' for every other supported dtype."""
    if isinstance(dtype, str) and dtype == _BF16:
        return "f"
    if _is_torch_dtype(dtype):
        return _torch()._float_kind(dtype, what)
    try:
        d = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{what}: unsupported dtype {dtype!r}") from None
    if d == np.float64:
        return "d"
    if d in (np.float32, np.float16):
        return "f"
    raise TypeError(f"{what}: unsupported dtype {d} (float64, float32, float16, 'bfloat16')")


def _store(result, out, what):
    """Puts result into out (NumPy array or torch tensor) and returns out."""
    if _is_tensor(out):
        return _torch()._store(result, out, what)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what}: out must be a NumPy array or a torch tensor")
    if out.shape != result.shape:
        raise ValueError(f"{what}: out has shape {out.shape}, expected {result.shape}")
    if not out.flags.writeable:
        raise ValueError(f"{what}: out is read-only")
    out[...] = result
    return out


def _direct_out(out, np_dtype, shape):
    """out itself when the library can write into it directly, else None."""
    return (out if isinstance(out, np.ndarray) and out.dtype == np_dtype
            and out.shape == shape and out.flags.c_contiguous and out.flags.writeable
            else None)


# ---- sinusoid, ALiBi, learned ------------------------------------------------


def sinusoid(n_pos: int, d: int, base: float = 10000.0, pos0: int = 0, dtype: Any = np.float32,
             out: Any = None) -> Any:
    """The sinusoidal position encoding table of the original transformer.

    Returns an array of shape [n_pos, d] whose row t is PE(pos0 + t):
    ``PE[2k] = sin(pos / base**(2k/d))`` and ``PE[2k+1] = cos(pos / base**(2k/d))``
    (odd d: the last element is the sine of the unpaired pair).

    dtype: float32 (default; each value within 1 ulp of exact, from the
    library's table fill), float64 (each value within 2 ulps), float16 or
    "bfloat16" (uint16 storage; rounded from the float32 table), or a torch
    dtype (returns a CPU tensor). out: an array or tensor of shape [n_pos, d]
    to fill instead of allocating (written directly when it is a
    C-contiguous NumPy array of the computed type, else through a copy).

    Raises posenc.Error for d outside 1..1048576, a base that is not finite
    and > 1, or positions outside 0..MAX_POS.

    >>> sinusoid(3, 4, dtype=np.float64)[2].round(4).tolist()
    [0.9093, -0.4161, 0.02, 0.9998]
    """
    n_pos, d = _args.length(n_pos, "n_pos"), _args.dim(d, "d")
    pos0 = _args.position(pos0, "pos0")
    kind = _float_kind(dtype, "sinusoid")
    np_dtype = np.float64 if kind == "d" else np.float32
    plain = not _is_torch_dtype(dtype) and not (isinstance(dtype, str) and dtype == _BF16) \
        and np.dtype(dtype) == np_dtype
    target = _direct_out(out, np_dtype, (n_pos, d)) if plain else None
    result = target if target is not None else np.empty((max(n_pos, 0), d), np_dtype)
    _core.sinusoid(pos0, n_pos, d, float(base), result)
    if target is not None:
        return target
    if out is None:
        return _convert_out(result, dtype)
    return _store(result if _is_tensor(out) else _convert_out(result, dtype), out, "sinusoid")


def alibi_slopes(n_head: int) -> np.ndarray:
    """ALiBi head slopes m_1 .. m_H (float64 array of n_head values).

    By the ALiBi paper's rule: m_h = 2**(-8h/H) for H a power of two; otherwise
    the slopes of the largest power of two n below H, then every other slope
    of 2n heads. Raises posenc.Error for n_head outside 1..1048576.

    >>> alibi_slopes(4).tolist()
    [0.25, 0.0625, 0.015625, 0.00390625]
    """
    n_head = _args.dim(n_head, "n_head")
    out = np.empty(n_head, np.float64)
    _core.alibi_slopes(n_head, out)
    return out


def alibi_bias(n_head: int, n_query: int, n_key: Optional[int] = None, q_offset: int = 0,
               causal: bool = False, threads: int = 1, out: Any = None) -> Any:
    """The ALiBi attention bias, float32 of shape [n_head, n_query, n_key].

    ``out[h, i, j] = -m_{h+1} * |q_offset + i - j|``: query i sits at absolute
    position q_offset + i (q_offset: tokens already in the KV cache), key j
    at position j. n_key defaults to q_offset + n_query. With causal=True the
    future (j > q_offset + i) is -inf, so softmax gives it weight 0.
    threads: 1..64 POSIX threads (the result does not depend on it).
    out: a float32 array or tensor of that shape to fill.

    >>> alibi_bias(1, 2, 2)[0].tolist()
    [[-0.0, -0.00390625], [-0.00390625, -0.0]]
    """
    n_head, n_query = _args.dim(n_head, "n_head"), _args.length(n_query, "n_query", lo=1)
    q_offset = _args.position(q_offset, "q_offset")
    n_key = _args.length(q_offset + n_query if n_key is None else n_key, "n_key", lo=1)
    threads = _args.threads(threads)
    shape = (n_head, n_query, n_key)
    target = _direct_out(out, np.float32, shape)
    if target is None and _is_tensor(out):
        target = _torch()._direct_out(out, shape)
    result = target if target is not None else np.empty(shape, np.float32)
    _core.alibi_bias(n_head, n_query, n_key, q_offset, bool(causal), threads, result)
    if out is None:
        return result
    if target is not None:
        return out
    return _store(result, out, "alibi_bias")


def learned_table(path: Union[str, "os.PathLike[str]"],
                  tensor: Optional[str] = None) -> np.ndarray:
    """A learned position table read by the library, as float64 [n_pos, dim].

    path: a text file, one row per position, numbers separated by white space
    (or commas), '#' comments; or, with tensor, a .safetensors checkpoint.
    tensor: the name of a 2-D [n_pos, dim] tensor in that file (GPT-2
    "wpe.weight", BERT "embeddings.position_embeddings.weight", OPT
    "model.decoder.embed_positions.weight"), stored as F32, F16, BF16 or F64
    and converted exactly to float64; only the header and that tensor are
    read. The table is returned as stored: a family that indexes it with an
    offset (OPT, BART: row pos + 2; RoBERTa: pos + padding_idx + 1) needs
    that offset added by the caller. Raises OSError when the file cannot be
    read and posenc.Error for a malformed table or header, a missing tensor
    or one that is not a 2-D float table (the message names the line, or the
    tensor and the problem).
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a file name (str or os.PathLike), got {type(path).__name__}")
    t = _core.Learned(os.fspath(path), tensor)
    out = np.empty(t.shape, np.float64)
    t.rows(out)
    return out


# ---- RoPE ----------------------------------------------------------------------

_SCALING_KEYS = {
    "factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "truncate",
    "mscale", "mscale_all_dim", "attention_factor", "low_freq_factor", "high_freq_factor",
    "short_factor", "long_factor", "freq_factors", "partial_rotary_factor",
}


def _norm_scaling(scaling):
    """A Hugging Face style rope_scaling dict -> the dict _core.Rope reads."""
    if scaling is None:
        return None
    if isinstance(scaling, str):
        scaling = {"rope_type": scaling}
    if not isinstance(scaling, dict):
        raise TypeError("scaling must be None, a type name or a dict like a config's rope_scaling")
    s = {}
    t = scaling.get("rope_type", scaling.get("type"))
    if t is None:
        raise ValueError("scaling needs 'rope_type' (or 'type'): default, linear, ntk, dynamic, "
                         "yarn, llama3, longrope or proportional")
    if not isinstance(t, str):
        raise TypeError("scaling['rope_type'] must be a string")
    s["type"] = t
    for key, v in scaling.items():
        if key in ("rope_type", "type"):
            continue
        if key not in _SCALING_KEYS:
            raise ValueError(f"scaling: unknown key {key!r} (known: "
                             f"{', '.join(sorted(_SCALING_KEYS))})")
        if v is not None:
            s[key] = v
    return s


def _layout_code(layout):
    if isinstance(layout, str) and layout in _LAYOUTS:
        return _LAYOUTS[layout]
    raise ValueError(f"layout must be 'half' (GPT-NeoX, Hugging Face) or 'interleaved' "
                     f"(original RoPE, GPT-J), got {layout!r}")


_LAYOUTS_4D = ("bhsd", "bshd")


def _layout_4d(shape, positions, layout, name):
    """'bhsd' or 'bshd' for a 4-D tensor: the layout given, or the one the
    positions' shape fits; never a guess."""
    if layout is not None:
        if layout not in _LAYOUTS_4D:
            raise ValueError(f"layout={layout!r}: a 4-D {name} is 'bhsd' ([batch, heads, seq, "
                             "head_dim]) or 'bshd' ([batch, seq, heads, head_dim])")
        return layout
    b, a1, a2, d = shape
    both = (f"say layout='bhsd' if it is [batch, heads, seq, head_dim] (= [{b}, {a1}, {a2}, "
            f"{d}]: {a2} tokens, Hugging Face's q after transpose(1, 2)) or layout='bshd' if "
            f"it is [batch, seq, heads, head_dim] (= [{b}, {a1}, {a2}, {d}]: {a1} tokens)")
    if positions is None:
        raise ValueError(f"{name} has 4 axes {tuple(shape)} and no positions per token: {both}")
    ps = tuple(positions.shape)
    if len(ps) not in (1, 2) or (len(ps) == 2 and ps[0] not in (b, 1)):
        raise ValueError(f"positions of shape {ps} for a 4-D {name} {tuple(shape)}: give "
                         f"[seq] or [batch, seq] = [{b}, seq]")
    seq = ps[-1]
    if seq == a1 and seq == a2:
        raise ValueError(f"positions of shape {ps} fit both sequence axes of {name} "
                         f"{tuple(shape)}: {both}")
    if seq == a2:
        return "bhsd"
    if seq == a1:
        return "bshd"
    raise ValueError(f"positions of shape {ps} ({seq} tokens) fit neither [batch, heads, seq, "
                     f"head_dim] ({a2} tokens) nor [batch, seq, heads, head_dim] ({a1} tokens) "
                     f"of {name} {tuple(shape)}")


def _has_memory(x):
    """Whether x exposes its own memory (a NumPy array or any buffer)."""
    if isinstance(x, np.ndarray):
        return True
    try:
        memoryview(x).release()
    except TypeError:
        return False
    return True


def _core_value(name, doc):
    """A read-only property of RoPE: the C object's attribute `name`."""
    def get(self):
        return getattr(self._c, name)

    return property(get, doc=doc)


def _dense_copy(x):
    """A dense copy of a torch tensor x when it is a broadcast view (an axis of
    size > 1 with stride 0: expand), else None: torch's rule, an expanded
    tensor is read as its values out of place."""
    if x is None:
        return None
    if _is_tensor(x):
        if any(n > 1 and st == 0 for n, st in zip(x.shape, x.stride())):
            return x.contiguous()
        return None
    return None  # NumPy arrays: refused, as before (tests/test_rope.py)


def _positions_or_first(positions):
    """(positions, pos0) for apply: None -> (None, 0); an int p -> (None, p),
    checked; a torch tensor kept as it is (on the CPU: _core reads it); else
    an integer NumPy array (floats and bools refused by name)."""
    if positions is None:
        return None, 0
    if _is_tensor(positions):
        return _torch()._cpu_positions(positions), 0
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        return None, _args.position(positions, "positions")
    return _positions_array(positions), 0


class RoPE:
    """Rotary position embedding of one model: frequencies, layout, attention factor.

    RoPE(head_dim, rotary_dim=None, base=10000, layout="half", scaling=None, *, seq_len=0)

    head_dim: elements per head (1..1024). rotary_dim: the leading elements
    that rotate (even, 2..head_dim; default head_dim); the rest pass through
    (partial rotary). base: rope_theta. layout: "half" -- pair k is
    (x[k], x[k + rotary_dim/2]), as GPT-NeoX and Hugging Face checkpoints --
    or "interleaved" -- pair k is (x[2k], x[2k+1]), the original RoPE, GPT-J,
    llama2.c. scaling: None, or a dict in the words of a config's
    rope_scaling: {"rope_type": "linear" | "ntk" | "dynamic" | "yarn" |
    "llama3" | "longrope" | "proportional", "factor": ...,
    "original_max_position_embeddings": ..., ...} (the keys of posenc.h's
    posenc_rope_scaling; "partial_rotary_factor" is proportional's p, Gemma
    4: pairs k >= floor(p rotary_dim / 2) get frequency 0). seq_len: the
    current sequence length read by dynamic NTK and LongRoPE (0: the trained
    length); ``with_seq_len`` gives the same RoPE at another length.

    Pair k turns by theta = pos * inv_freq[k] with cos and sin multiplied by
    attention_factor: x' = x c - y s, y' = x s + y c, each product and sum
    rounded in float32 separately (no FMA), c and s within 1 ulp of exact.

    Raises posenc.Error for parameters out of range (the message says which).

    A RoPE never changes after construction (use_cache aside), so threads may
    share one; apply releases the GIL for calls of 16384 elements or more.
    """

    __slots__ = ("_c", "_make", "__weakref__")

    def __init__(self, head_dim: int, rotary_dim: Optional[int] = None, base: float = 10000.0,
                 layout: str = "half", scaling: Optional[Dict[str, Any]] = None, *,
                 seq_len: int = 0) -> None:
        head_dim = _args.integer(head_dim, "head_dim", 1, _core.ROPE_MAX_HEAD_DIM,
                                 why=" (the largest head dimension posenc rotates)",
                                 status=_core.ERR_DIM)
        rotary_dim = head_dim if rotary_dim is None else \
            _args.integer(rotary_dim, "rotary_dim", 0, head_dim, why=" (head_dim)")
        if rotary_dim % 2 or rotary_dim == 0:
            raise _args.refusal(f"RoPE: argument out of range: rotary_dim must be even, 2 .. "
                                f"{head_dim} (head_dim), got {rotary_dim}")
        seq_len = _args.length(seq_len, "seq_len")
        self._c = _core.Rope(head_dim, rotary_dim, float(base), _layout_code(layout),
                             _norm_scaling(scaling), seq_len)
        # what rebuilds it (pickle, copy): the checked arguments
        self._make = ("new", (head_dim, rotary_dim, float(base), layout,
                              None if scaling is None else dict(scaling), seq_len))

    @classmethod
    def _wrap(cls, c, make):
        self = cls.__new__(cls)
        self._c = c
        self._make = make
        return self

    def __reduce__(self):
        """Pickles (and copies) by its parameters: the constructor's arguments or
        the config text and layer it was read from, and its cache length; the
        C object is rebuilt on load."""
        return (_rope_rebuild, (self._make, self._c.cache_len))

    @classmethod
    def from_config(cls, config: Any, layer: int = 0, *, seq_len: int = 0,
                    indexer: bool = False) -> "RoPE":
        """The RoPE of a model from its Hugging Face config.json.

        config: a path to config.json, its text (str starting with "{"), a
        dict, or a transformers PretrainedConfig (its to_dict()). Read
        through posenc's model registry, exactly as the program's ``--config``
        reads it: the model_type's family (or its architectures entry) gives
        the pair layout its code uses, which layers rotate, the base and
        scaling of each layer type (Gemma 3's local and global layers, OLMo
        3's sliding layers without YaRN...), nested language-model parts
        (text_config...) and legacy key names. A config without model_type
        or architectures is read as one RoPE on every layer (rope_theta,
        head_dim or hidden_size / num_attention_heads, partial_rotary_factor,
        rope_scaling or rope_parameters, rope_interleave, qk_rope_head_dim).
        Unknown or unsupported keys are refused with a message naming the key.

        layer: the layer (0-based; encoder-decoder models number the
        encoder's first). A layer past the last, or one without RoPE (a NoPE
        layer of Llama 4 or EXAONE 4; GPT-2, BERT, T5, BLOOM...), raises
        posenc.Error (a ValueError) naming the layer and its scheme.
        seq_len: the current sequence length, as in RoPE(). The layer's
        RoPE at that length comes from the library's per-layer call
        (posenc_model_layer_rope), so every length rule applies: Hugging
        Face's dynamic NTK, LongRoPE's short/long switch, and Qwen 1's own
        dynamic NTK (use_dynamic_ntk: base * alpha^(d/(d-2)) with
        alpha = 2^ceil(log2(seq_len / seq_length) + 1) - 1 past seq_length).
        indexer: the RoPE of the layer's indexer instead of its attention's
        (DeepSeek V3.2's Sparse Attention: the same frequencies and factor on
        the first rotary_dim elements of heads of index_head_dim, in the
        indexer's layout, half-split there; posenc_model_layer_indexer_rope).
        posenc.Error for a model without one.

        Needs the library's config reader (jansson): see have_config_reader().
        """
        layer, seq_len = _args.layer(layer), _args.length(seq_len, "seq_len")
        text = _args.config_text(config)
        return cls._wrap(_core.Rope.from_config_text(text, layer, seq_len, bool(indexer)),
                         ("config", (text, layer, seq_len, bool(indexer))))

    def with_seq_len(self, seq_len: int) -> "RoPE":
        """This RoPE at another current sequence length (dynamic NTK, LongRoPE)."""
        seq_len = _args.length(seq_len, "seq_len")
        how, a = self._make
        a = a[:-1] + (seq_len,) if how == "new" else (a[0], a[1], seq_len, a[3])
        return RoPE._wrap(self._c.with_seq_len(seq_len), (how, a))

    def use_cache(self, max_pos: int) -> "RoPE":
        """Keeps a cos/sin cache for positions 0 .. max_pos - 1 (0: drops it).

        apply() then reads cos and sin from it whenever every position of the
        call is below max_pos, instead of computing them: the same values bit
        for bit, much faster for decode steps (one token at a time) and when
        the same positions are rotated layer after layer. Costs max_pos *
        rotary_dim * 4 bytes (8 MiB for rotary_dim 128 and 16384 positions),
        built once here; a cache larger than the machine's memory is refused
        (MemoryError) before anything is allocated. Returns self.
        """
        max_pos = _args.length(max_pos, "max_pos")
        _args.fits_in_memory(max_pos * self._c.rotary_dim * 4, f"max_pos: a cos/sin cache of "
                             f"{max_pos} positions (max_pos * rotary_dim * 4 bytes)")
        self._c.set_cache(max_pos)
        return self

    # the numbers of the C object, read as they are
    cache_len = _core_value("cache_len", "Positions the cos/sin cache covers (0: no cache; "
                            "see use_cache).")
    head_dim = _core_value("head_dim", "Elements per head.")
    rotary_dim = _core_value("rotary_dim", "Leading elements of each head that rotate.")
    base = _core_value("base", "The base (rope_theta) the frequencies come from.")
    attention_factor = _core_value("attention_factor", "The factor on cos and sin (YaRN's "
                                   "mscale, LongRoPE's; 1 for plain RoPE).")
    seq_len = _core_value("seq_len", "The sequence length the frequencies are for (0: the "
                          "trained length).")
    scaling = _core_value("scaling", "The scaling's parameters as a dict (\"type\" and the "
                          "posenc_rope_scaling fields).")
    max_position_embeddings = _core_value("max_position_embeddings", "The config's "
                                          "max_position_embeddings (0 when not from a config "
                                          "or absent).")

    @property
    def layout(self) -> str:
        """"half" or "interleaved"."""
        return _LAYOUT_NAMES[self._c.layout_code]

    @property
    def model_type(self) -> str:
        """The registry family the config was read as (the nested part's own,
        e.g. "qwen2" for a Qwen2-Audio config); "" for a RoPE not from a config."""
        return self._c.model_info()[0]

    @property
    def config_part(self) -> str:
        """The part of the config that was read: "" for the top, else its key
        path ("text_config", "thinker_config.text_config", "llm_cfg"...)."""
        return self._c.model_info()[1]

    @property
    def mrope(self) -> Optional[Tuple[List[int], str]]:
        """The layer's M-RoPE as (mrope_section [s_t, s_h, s_w], rule) with
        rule "contiguous" (Qwen2-VL, Qwen2.5-VL, GLM-4V: posenc.MRoPE's
        "chunks"), "interleaved" (Qwen3-VL, Qwen3-Omni) or "hw-alternating"
        (ERNIE 4.5 VL: its config's [h, w, t] given here as [t, h, w]),
        sections from the config or the family code's default; None for a
        plain RoPE layer.
        ``posenc.MRoPE(rope, *rope.mrope)`` rotates as the model does (the
        rule names are accepted there too)."""
        info = self._c.model_info()[2]
        return None if info is None else (list(info[0]), info[1])

    @property
    def table_rows(self) -> int:
        """The rows of the table the layer's cos and sin come from, where its
        family's code reads them from one (RoFormer: max_position_embeddings;
        a position at or past it raises an IndexError there, while apply()
        here computes any position); 0 when the layer takes any position."""
        return self._c.rope_rows()[0]

    @property
    def rotary_value(self) -> bool:
        """Whether the layer's values turn too, with the same cos and sin as
        q and k (RoFormer's rotary_value: apply(v) then does it); False
        otherwise."""
        return bool(self._c.rope_rows()[1])

    @property
    def sense(self) -> int:
        """1: q and k turn by +theta; -1: by -theta (NanoChat, whose
        rotate_half is cat(x2, -x1)): inv_freq then holds every frequency
        negated, so apply() turns as the family's code does, and cos_sin()
        gives sin(-theta) (posenc_model_layer_rope_sense)."""
        return self._c.sense()

    @property
    def hf_module(self) -> str:
        """How the family's transformers rotary module is called (the
        registry's posenc_model_hf_module_convention): "plain" (cos, sin as
        cat(f, f): Llama's), "complex" (freqs_cis: Llama 4), "interleave"
        (each value twice in a row: Cohere); "plain" for a RoPE not from a
        config."""
        return self._c.model_info()[3]

    @property
    def inv_freq(self) -> np.ndarray:
        """Inverse frequencies of the rotary_dim/2 pairs, radians per token (float64).

        The library keeps each as a double-double (about 100 bits); this is the
        value rounded to double. See inv_freq_lo for the low part.
        """
        out = np.empty(self._c.rotary_dim // 2, np.float64)
        self._c.inv_freq(out)
        return out

    @property
    def inv_freq_lo(self) -> np.ndarray:
        """The low parts of the double-double inverse frequencies (float64)."""
        hi = np.empty(self._c.rotary_dim // 2, np.float64)
        lo = np.empty_like(hi)
        self._c.inv_freq(hi, lo)
        return lo

    def cos_sin(self, positions: Any, dtype: Any = np.float32,
                threads: int = 1) -> Tuple[Any, Any]:
        """cos and sin of every pair at positions, times the attention factor.

        Returns (cos, sin), each of shape positions.shape + (rotary_dim // 2,):
        ``cos[..., k] = attention_factor * cos(pos * inv_freq[k])``.
        positions: integers 0..MAX_POS (array, list, int, torch tensor).
        dtype float32 (default): the values the rotation multiplies by, each
        within 1 ulp of exact; float64: each within a few ulps of exact (the
        library's double path); float16 / "bfloat16" (uint16 storage): the
        float32 values rounded to nearest even; a torch dtype: CPU tensors.
        """
        pos = _args.positions_int64(positions)
        shape = pos.shape
        flat = pos.reshape(-1)
        P = self._c.rotary_dim // 2
        kind = _float_kind(dtype, "cos_sin")
        np_dtype = np.float64 if kind == "d" else np.float32
        c = np.empty((flat.size, P), np_dtype)
        s = np.empty((flat.size, P), np_dtype)
        self._c.cos_sin(flat, c, s, _args.threads(threads))
        c = c.reshape(shape + (P,))
        s = s.reshape(shape + (P,))
        if _is_torch_dtype(dtype) or (isinstance(dtype, str) and dtype == _BF16) or \
                np.dtype(dtype) != np_dtype:
            return _convert_out(c, dtype), _convert_out(s, dtype)
        return c, s

    def apply(self, q: Any, k: Any = None, positions: Any = None, *, inplace: bool = True,
              inverse: bool = False, threads: int = 1, dtype: Any = None,
              layout: Optional[str] = None) -> Any:
        """Rotates q (and k) by their positions; returns q, or (q, k).

        q, k: float32, float16 or bfloat16 arrays (NumPy; bfloat16 as uint16
        storage with dtype="bfloat16") or torch tensors (CPU; float64 too;
        CUDA through posenc.triton when triton imports: last_apply_path()),
        shaped
            [n_tok, n_head, head_dim]          (vLLM style; any strides)
            [n_tok, head_dim]                  (one head)
            [batch, n_head, seq, head_dim]     layout="bhsd" (Hugging Face's q
                                               after .transpose(1, 2))
            [batch, seq, n_head, head_dim]     layout="bshd" (q_proj(x).view(...))
        A 4-D q needs layout when positions do not say which axis is the
        sequence (positions None or an int; or [seq] / [batch, seq] fitting
        both axes): posenc never guesses it.
        The last axis must be contiguous; other axes may be any view
        (transposes, slices of a fused QKV buffer, heads in reverse order).
        q and k may have different head counts (grouped-query attention) but
        the same tokens. k may be None.

        positions: None (0, 1, .., n-1), an int p (p, p+1, ..: a KV-cache
        offset), or integers per token: shape [n_tok], or for 4-D arrays [seq]
        or [batch, seq] (Hugging Face's position_ids).

        inplace=True changes q and k and returns them (the same objects);
        inplace=False leaves them alone and returns new arrays. inverse=True
        turns by -theta (the transpose: the backward pass; it undoes the
        forward rotation when attention_factor is 1). threads: 1..64.

        Torch tensors that require grad, float64 tensors and calls inside
        torch.compile go through the custom op posenc::rope_apply (see
        posenc.torch): differentiable (the backward is the inverse rotation,
        exact), inplace=False only for tensors that require grad; float64
        rotates with the library's float64 cos and sin.

        Raises TypeError for an unsupported element type or object, ValueError
        (posenc.Error for the library's checks) for a wrong shape, stride,
        position or overlapping q and k; nothing is written then.
        """
        _gpu.set_path("cpu")
        if dtype is None and _is_tensor(q) and q.is_cuda:  # posenc.triton (_gpu.py)
            r = _torch()._apply_cuda(self, q, k, positions, inplace, inverse, layout)
            if r is not None:
                return r
        code = -1 if dtype is None else _rotate_code(dtype)
        threads = _args.threads(threads)
        positions, pos0 = _positions_or_first(positions)
        if not inplace:
            # a broadcast (stride-0) torch view cannot be rotated where it lies,
            # but out of place it is only read: rotate a dense copy of it instead
            qc, kc = _dense_copy(q), _dense_copy(k)
            if qc is not None or kc is not None:
                q = q if qc is None else qc
                k = k if kc is None else kc
                if not (_is_tensor(q) and q.requires_grad) and \
                        not (k is not None and _is_tensor(k) and k.requires_grad):
                    inplace = True  # the copies are ours
        if type(q) is not np.ndarray and _is_tensor(q):
            return _torch()._apply(self, q, k, positions, pos0, inplace, inverse, threads, code,
                                   layout)
        if k is not None and type(k) is not np.ndarray and _is_tensor(k):
            raise TypeError("q is not a torch tensor but k is: pass two tensors or two arrays")
        return self._apply_arrays(q, k, positions, pos0, inplace, inverse, threads, code, layout)

    def _apply_arrays(self, q, k, positions, pos0, inplace, inverse, threads, code, layout):
        """apply() on NumPy arrays (or, out of place, anything np.asarray takes)."""
        if inplace:  # np.asarray of a list would rotate a copy, and say nothing
            for x, name in ((q, "q"), (k, "k")):
                if (x is not None or name == "q") and not _has_memory(x):
                    raise TypeError(f"{name} must be a NumPy array or a torch tensor to be "
                                    f"rotated in place, got {type(x).__name__} "
                                    "(inplace=False returns a new array)")
        qa = q if isinstance(q, np.ndarray) else np.asarray(q)
        ka = k if k is None or isinstance(k, np.ndarray) else np.asarray(k)
        swap = qa.ndim == 4 and _layout_4d(qa.shape, positions, layout, "q") == "bshd"
        if qa.ndim != 4 and layout is not None:
            raise ValueError(f"layout={layout!r} is for 4-D q; q has shape {qa.shape}")
        if swap:  # the library reads [batch, heads, seq, head_dim]: a strided view
            qa = qa.swapaxes(1, 2)
            ka = ka.swapaxes(1, 2) if ka is not None and ka.ndim == 4 else ka
        if inplace:
            self._c.apply(qa, ka, positions=positions, pos0=pos0, inverse=inverse,
                          threads=threads, dtype=code)
            return q if k is None else (q, k)
        qo = np.empty_like(qa, subok=False)  # the inputs' memory order (order="K")
        ko = None if ka is None else np.empty_like(ka, subok=False)
        if swap:
            qo = np.empty(qa.swapaxes(1, 2).shape, qa.dtype).swapaxes(1, 2)
            ko = None if ka is None else np.empty(ka.swapaxes(1, 2).shape, ka.dtype).swapaxes(1, 2)
        self._c.apply(qa, ka, positions=positions, pos0=pos0, inverse=inverse, threads=threads,
                      dtype=code, q_out=qo, k_out=ko)
        if swap:
            qo = qo.swapaxes(1, 2)
            ko = None if ko is None else ko.swapaxes(1, 2)
        return qo if k is None else (qo, ko)

    def __repr__(self):
        t = self._c.scaling_type
        extra = "" if t == "default" else f", scaling={t!r}"
        if self.attention_factor != 1.0:
            extra += f", attention_factor={self.attention_factor!r}"
        return (f"RoPE(head_dim={self.head_dim}, rotary_dim={self.rotary_dim}, "
                f"base={self.base!r}, layout={self.layout!r}{extra})")


def _rope_rebuild(make, cache_len):
    """A RoPE from what RoPE.__reduce__ saved."""
    how, a = make
    if how == "new":
        r = RoPE(*a[:5], seq_len=a[5])
    elif how == "config":
        r = RoPE.from_config(a[0], a[1], seq_len=a[2], indexer=a[3])
    else:
        raise ValueError(f"posenc: cannot rebuild a RoPE from {how!r}")
    if cache_len:
        r.use_cache(cache_len)
    return r


from .mrope import MRoPE  # noqa: E402  (they use RoPE and the helpers above)
from .t5 import t5_bias, t5_bucket  # noqa: E402


def __dir__():
    """The public names only (json, np, os, sys stay private)."""
    return sorted(__all__ + ["torch", "mrope", "t5", "triton"])
