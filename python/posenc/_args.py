"""The rules every Python entry point applies to its arguments, in one place.

Integers are checked against their range before anything narrows them (the C
extension reads int64 or uint32); positions are integers only (a float, bool
or complex array, tensor or scalar is refused by name, never truncated); a
config file is read with the library's bound. Each refusal names the
argument and its limit, as the program's options do (cli/check_main.c).
"""
import json
import math
import operator
import os
import sys

import numpy as np

from . import _core
from ._core import Error

#: The largest position accepted anywhere (posenc.h's POSENC_MAX_POS).
MAX_POS = _core.MAX_POS
#: The largest length: positions 0 .. MAX_POS.
MAX_LEN = MAX_POS + 1
#: The largest table dimension, head count or query/key count (POSENC_MAX_DIM).
MAX_DIM = _core.MAX_DIM
MAX_THREADS = _core.MAX_THREADS
#: A model has at most this many layers (POSENC_MODEL_MAX_LAYERS).
MAX_LAYERS = _core.MODEL_MAX_LAYERS


def refusal(message, status=_core.ERR_RANGE):
    """posenc.Error(message) with the library's status code, as _core raises it."""
    e = Error(message)
    e.status = status
    return e


def _shown(value):
    """A short description of a refused value: never a whole array."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def integer(value, name, lo, hi, *, why="", status=_core.ERR_RANGE):
    """value as a Python int in lo .. hi, checked before any narrowing.

    A bool or a float (Python, NumPy or a 0-d tensor) is a TypeError naming
    the argument; a value outside the range is posenc.Error saying
    "<name> must be <lo> .. <hi><why>, got <value>".
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got the bool {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} "
                        f"{_shown(value)} (posenc never truncates)") from None
    if v < lo or v > hi:
        raise refusal(f"{name} must be {lo} .. {hi}{why}, got {v}", status)
    return v


def positive(value, name, unit):
    """A finite real number > 0 (a tolerance): a bool, a string or a complex
    number is a TypeError, zero, a negative, inf or NaN posenc.Error."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                      np.floating)):
        raise TypeError(f"{name} must be a number ({unit}), got {type(value).__name__} "
                        f"{_shown(value)}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise refusal(f"{name} must be a finite number of {unit} > 0, got {value!r}")
    return v


def fits_in_memory(n_bytes, what):
    """MemoryError saying what needs n_bytes when that is more than the
    machine's physical memory (nothing is allocated to find out)."""
    try:
        mem = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return
    if mem > 0 and n_bytes > mem:
        raise MemoryError(f"{what} needs {n_bytes / 2**30:.1f} GiB, more than this machine's "
                          f"{mem / 2**30:.1f} GiB of memory")


def threads(value):
    return integer(value, "threads", 1, MAX_THREADS)


def length(value, name, lo=0):
    """A count of positions (seq_len, n_pos, max_pos): lo .. MAX_POS + 1."""
    return integer(value, name, lo, MAX_LEN, why=" (positions 0 .. MAX_POS)",
                   status=_core.ERR_POS)


def position(value, name):
    """One position (pos0, q_offset): 0 .. MAX_POS."""
    return integer(value, name, 0, MAX_POS, status=_core.ERR_POS)


def dim(value, name, hi=MAX_DIM):
    """A dimension or count (d, n_head, n_query, n_key): 1 .. hi."""
    return integer(value, name, 1, hi, why=" (the dimension limit, POSENC_MAX_DIM)",
                   status=_core.ERR_DIM)


def layer(value):
    """A layer number, before the model says how many it has (the library
    then refuses one past its last, naming its count)."""
    return integer(value, "layer", 0, MAX_LAYERS - 1,
                   why=f" (a model has at most {MAX_LAYERS} layers)")


_TORCH = []  # [posenc.torch] once imported


def torch_module():
    """posenc.torch, imported the first time a tensor or a torch dtype is met
    (it hands torch.Tensor to _core, which then reads CPU tensors' memory
    itself). Every line of posenc that calls torch is there."""
    if not _TORCH:
        try:
            from . import torch as posenc_torch
        except ImportError as e:  # torch < 2.4: its tensor helpers only
            posenc_torch = getattr(e, "tensors_only", None)
            if posenc_torch is None:
                raise
        _TORCH.append(posenc_torch)
    return _TORCH[0]


def torch_of(x):
    """posenc.torch when x is a torch tensor, else None. posenc never imports
    torch: if the program has not imported it, x cannot be a tensor."""
    t = sys.modules.get("torch")
    return torch_module() if t is not None and isinstance(x, t.Tensor) else None


def _not_positions(dtype, name):
    return TypeError(f"{name} must be integers, got {dtype}: those are not token positions "
                     "(posenc never truncates)")


def positions(value, name="positions"):
    """Positions as a NumPy integer array (no copy for an int64 array, a CPU
    copy of a torch tensor's): integers only, refused by name otherwise."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iu" and value.size:
            raise _not_positions(value.dtype, name)
        return value
    pt = torch_of(value)
    if pt is not None:
        return pt._positions_numpy(value, name)
    if isinstance(value, (bool, np.bool_)):
        raise _not_positions("bool", name)
    a = np.asarray(value)
    if a.dtype.kind not in "iu":
        if a.size == 0:
            return a.astype(np.int64)
        raise _not_positions(a.dtype, name)
    return a


def positions_int64(value, name="positions"):
    """positions() as int64, unsigned values past MAX_POS refused before the
    cast (a uint64 2**63 would become a negative int64)."""
    a = positions(value, name)
    if a.dtype.kind == "u" and a.dtype.itemsize == 8 and a.size and int(a.max()) > MAX_POS:
        raise refusal(f"{name}: {int(a.max())} is past MAX_POS ({MAX_POS})", _core.ERR_POS)
    return a.astype(np.int64, order="C", copy=False)  # keeps a 0-d array's shape


def config_text(config):
    """The bytes of a config.json: a path (read with the library's bound,
    POSENC_CONFIG_MAX_BYTES), its text (str starting with "{" or bytes), a
    dict or a transformers PretrainedConfig (its to_dict())."""
    if isinstance(config, (bytes, bytearray)):
        return bytes(config)
    if isinstance(config, str) and config.lstrip().startswith("{"):
        return config.encode()
    if isinstance(config, (str, os.PathLike)):
        # bounded like every reader of outside data: /dev/zero or a huge
        # file stops at the bound instead of filling memory
        bound = _core.CONFIG_MAX_BYTES
        with open(config, "rb") as f:
            text = f.read(bound + 1)
        if len(text) > bound:
            raise refusal(f"{os.fspath(config)}: a config.json larger than {bound} bytes "
                          f"(posenc reads at most that much: POSENC_CONFIG_MAX_BYTES = "
                          f"{bound})", _core.ERR_FORMAT)
        return text
    d = config
    if not isinstance(d, dict) and hasattr(d, "to_dict"):
        d = d.to_dict()
    if not isinstance(d, dict):
        raise TypeError("config must be a path, JSON text, a dict or a PretrainedConfig")
    # None stays null: a config.json's null and an absent key are not the
    # same to every family (transformers refuses a null at many typed
    # fields, and posenc then refuses it by name), so a dict reads exactly
    # as the file it came from
    return json.dumps(d, default=str).encode()
