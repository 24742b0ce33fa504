#!/usr/bin/env python3
"""hf_probe: posenc against Hugging Face transformers' own running code.

For a config (a config.json file, its dict, or a model_type whose config
class's defaults are taken) the probe builds the model's text part with
random weights and no download, small enough for a CPU (a prefix of its
layers long enough to hold every kind of layer, a few heads of the same
head_dim, a tiny vocabulary, MLP and expert count; the RoPE parameters and
the per-layer pattern untouched), captures every attention layer's q and k
right before the position step (forward hooks on the q/k projections, or
on the q/k norms where the model has them) and right after it (a custom
attention function registered with transformers' AttentionInterface: it
receives every layer's rotated q and k), runs one forward at positions
0..15 and one at positions that cross the scalings' switches (the original
context length, 8192, 10^4 .. 10^6), and compares each layer with posenc's
answer for the same config and layer (`posenc --config FILE -c 'EXPLAIN
MODEL'` for each layer's scheme, posenc.RoPE.from_config(config, layer=i,
seq_len=...) for its frequencies, layout, rotated dimensions and attention
factor).

The comparison: the q/k pair (a, b) of pair k at position p must come out
as attention_factor * R(p f_k) (a, b) -- R the rotation by the angle p f_k
with posenc's frequency f_k, the pair's two elements placed by posenc's
layout -- and every element outside the rotated dimensions unchanged; a
layer posenc calls "none" must leave q and k alone. transformers forms the
angle in float32 (inv_freq @ position_ids, then cos and sin) whatever the
model's dtype, so the tolerance is that formula's own error: an angle off
by up to (ln(base) + 8) 2^-24 relative plus 2^-22, and 2^-20 of the pair's
length on top when the model ran in float32. The model runs in float64
where it can. Anything else is a disagreement, reported with what the model
does instead (the better layout, the pair angles fitted at the smallest
positions, the attention factor fitted from k).

    tools/hf_probe.py --config tests/data/models/qwen3-0.6b.json
    tools/hf_probe.py --model-type llama          (LlamaConfig's defaults)
    tools/hf_probe.py --model-type qwen2 --json   (the report as JSON)

Needs torch and transformers (make venv) and the posenc Python package
(make test-hf builds it into build/hf/lib; PYTHONPATH=build/hf/lib) and
program (build/posenc, or POSENC_PROGRAM).
"""

import argparse
import contextlib
import copy
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import warnings

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

#: The statuses of a probe, from best to worst.
VERIFIED = "verified"            # every probed layer agrees with posenc
REFUSED = "refused"              # posenc refuses the config, naming why
DISAGREE = "disagreement"        # posenc reads it, and the model does otherwise
NOT_BUILDABLE = "not buildable"  # transformers cannot build or run it here
NO_POSITIONS = "no attention"    # the built text part has no attention call to probe

SMALL_POS = list(range(16))
#: The second forward: positions that cross every switch of the scalings the
#: registry knows (original lengths 2k..128k, Llama 4's floor_scale 8192) and
#: go past every original length (up to 10^6).
BIG_POS = [0, 1, 2, 3, 5, 8, 13, 100, 1000, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192,
           8193, 10000, 16384, 32767, 32768, 65536, 131072, 131073, 262144, 500000, 999999,
           1000000]

#: M-RoPE layers (Qwen2-VL ... GLM-4V): a third forward with distinct temporal,
#: height and width rows (position_ids [3, 1, T]), as an image or video patch
#: has, up to 10^6, against posenc.MRoPE with the layer's sections and rule.
MROPE_POS = [[0, 1, 2, 3, 4, 5, 6, 7, 100, 1000, 4096, 50000, 999999],
             [0, 0, 1, 1, 2, 2, 3, 3, 50, 700, 30, 40000, 12345],
             [0, 1, 0, 1, 2, 3, 2, 3, 60, 900, 4000, 20000, 54321]]

_ATTN_NAME = "posenc_probe"
#: The largest model the probe builds (parameters after shrinking).
MAX_PARAMS = 40_000_000


def _program():
    return os.environ.get("POSENC_PROGRAM") or os.path.join(ROOT, "build", "posenc")


def _import_posenc():
    try:
        import posenc  # noqa: F401
    except ImportError:
        lib = os.path.join(ROOT, "build", "hf", "lib")
        if os.path.isdir(lib) and lib not in sys.path:
            sys.path.insert(0, lib)
        import posenc  # noqa: F401
    return sys.modules["posenc"]


# ---- the config ----------------------------------------------------------------------


def load_config(src):
    """A config as a dict: a path to config.json, JSON text, or a dict (copied)."""
    if isinstance(src, dict):
        return copy.deepcopy(src)
    if isinstance(src, str) and src.lstrip().startswith("{"):
        return json.loads(src)
    with open(src) as f:
        return json.load(f)


def default_config(model_type):
    """The config.json of a model_type's config class with every default written
    out (to_dict of the class built without arguments)."""
    from transformers import CONFIG_MAPPING

    cls = CONFIG_MAPPING[model_type]
    with _quiet():
        d = cls().to_dict()
    d["model_type"] = model_type
    return _jsonable(d)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, float) and math.isinf(x):
        # JSON has no infinity (Mamba 2's time_step_limit): the largest double
        return math.copysign(sys.float_info.max, x)
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


@contextlib.contextmanager
def _quiet():
    """transformers' warnings and logging off while it builds a probe model."""
    import transformers

    old = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with contextlib.redirect_stderr(io.StringIO()):
                yield
    finally:
        transformers.logging.set_verbosity(old)


def hf_config(d):
    """transformers' config object for the dict d (by its model_type)."""
    from transformers import CONFIG_MAPPING

    mt = d.get("model_type")
    if mt not in CONFIG_MAPPING:
        raise LookupError(f"model_type {mt!r} is not a transformers {_tf_version()} model type "
                          "(remote code)")
    with _quiet():
        return CONFIG_MAPPING[mt].from_dict(copy.deepcopy(d))


def _tf_version():
    import transformers

    return transformers.__version__


# ---- the small model -----------------------------------------------------------------

#: Per-layer kinds: lists the prefix must cover, and counts of layers.
_LAYER_COUNT_KEYS = ("num_hidden_layers",)
_SMALL = {
    "vocab_size": 128, "entity_vocab_size": 128,  # LUKE's entity table
    "vocab_size_per_layer_input": 128, "hidden_size_per_layer_input": 8,  # Gemma 3n / 4 PLE
    "intermediate_size": 32, "moe_intermediate_size": 16, "shared_expert_intermediate_size": 16,
    "ffn_hidden_size": 32, "n_inner": 32, "ffn_dim": 32, "d_ff": 32,
    "num_experts": 4, "num_local_experts": 4, "n_routed_experts": 4, "moe_num_experts": 4,
    "n_shared_experts": 1, "num_shared_experts": 1,
    "num_experts_per_tok": 2, "moe_topk": 2, "top_k": 2, "top_k_experts": 2, "n_group": 1,
    "linear_num_key_heads": 2, "linear_num_value_heads": 2,  # Qwen3-Next / 3.5 DeltaNet (no positions)
    "topk_group": 1,
    "index_n_heads": 2,  # DeepSeek V3.2's indexer heads (their head_dim kept)
    "first_k_dense_replace": 0,
    # encoder-decoder stacks (BART, Whisper, T5): each stack is probed as a
    # whole, so two layers each
    "encoder_layers": 2, "decoder_layers": 2, "num_decoder_layers": 2,
    "encoder_ffn_dim": 32, "decoder_ffn_dim": 32,
}


def _per_layer_lists(c, n):
    """Names of the list attributes of config c with one entry per layer."""
    out = []
    for k, v in vars(c).items():
        if k.startswith("_") or not isinstance(v, (list, tuple)) or len(v) != n or n < 2:
            continue
        out.append(k)
    return out


def _prefix_len(c, n, cap=12):
    """The shortest prefix of the n layers in which every kind of layer
    (every value of every per-layer list) appears; at least 2, at most cap."""
    need = 2
    lists = [getattr(c, k) for k in _per_layer_lists(c, n)]
    if isinstance(getattr(type(c), "layers_block_type", None), property):
        # a per-layer list the config class derives (RecurrentGemma: block_types
        # repeated); the pattern it comes from is left whole
        v = c.layers_block_type
        if isinstance(v, list) and len(v) == n:
            lists.append(v)
    for v in lists:
        try:
            kinds = {json.dumps(x, sort_keys=True, default=str) for x in v}
        except TypeError:
            continue
        seen = set()
        for i, x in enumerate(v):
            seen.add(json.dumps(x, sort_keys=True, default=str))
            if seen == kinds:
                need = max(need, i + 1)
                break
    return min(n, max(need, 2), cap)


def shrink(text_cfg, keep_heads=False):
    """The text config cut down for a CPU, in place: a prefix of the layers
    (per-layer lists cut alike, so layer i stays layer i), at most 4 heads of
    the same head_dim, tiny vocabulary, MLPs and experts. Returns the number
    of layers kept."""
    c = text_cfg
    hetero = bool(getattr(c, "is_heterogeneous", False))
    if hetero:
        # Gemma 4: per_layer_config (global_head_dim on full layers); read the
        # global values here, cut per_layer_config with the layers below
        c.allow_global_per_layer_attribute_access = True
    n = getattr(c, "num_hidden_layers", None)
    if isinstance(n, int) and n >= 1:
        keep = _prefix_len(c, n)
        shared = getattr(c, "num_kv_shared_layers", 0)
        if isinstance(shared, int) and 0 < shared and keep < n:
            # KV-shared layers (Gemma 3n, Gemma 4 E2B/E4B) reuse the keys of
            # the last earlier layer of their type: keep the prefix as
            # producers and as many layers again as consumers
            keep2 = min(n, 2 * keep)
            c.num_kv_shared_layers = min(shared, keep2 - keep)
            keep = keep2
        for k in _per_layer_lists(c, n):
            v = getattr(c, k)
            setattr(c, k, type(v)(v[:keep]))
        c.num_hidden_layers = keep
    else:
        keep = None
    H = getattr(c, "num_attention_heads", None)
    hidden = getattr(c, "hidden_size", None)
    if "head_dim" in vars(c) and c.head_dim is None and isinstance(H, int) and H > 0 and \
            isinstance(hidden, int) and hidden % H == 0:
        # head_dim null means hidden_size / heads (the rotary's "or"); some
        # attentions take getattr(config, "head_dim", ...) and get None
        # (HunYuan's config class defaults)
        c.head_dim = hidden // H
    if "num_key_value_heads" in vars(c) and c.num_key_value_heads is None and isinstance(H, int):
        # null: one key/value head per query head (Nemotron's class defaults
        # leave it None and its attention divides by it)
        c.num_key_value_heads = H
    # CodeGen's attention splits its fused qkv into mp_num = 4 blocks of heads
    # (models/codegen/modeling_codegen.py L150-158): it needs 4 heads
    min_heads = 4 if getattr(c, "model_type", "") == "codegen" else 2
    if isinstance(H, int) and isinstance(hidden, int) and H > min_heads and keep_heads is False:
        hd = getattr(c, "head_dim", None)
        # hidden // H also when H does not divide hidden: the attention's
        # head_dim is that floor (Glm4MoeConfig's defaults: 4096 // 96 = 42)
        D = hd if isinstance(hd, int) and hd > 0 else hidden // H
        if D is not None:
            KV = getattr(c, "num_key_value_heads", None)
            c.num_attention_heads = min_heads
            if isinstance(KV, int) and KV >= 1:
                c.num_key_value_heads = min_heads if KV >= H else 1
            c.hidden_size = min_heads * D
            if hasattr(c, "use_mem_rope") and hasattr(c, "attention_head_dim"):
                # Zamba 2's shared attention: head_dim = 2 * hidden_size / heads
                # (Zamba2Config.__post_init__), so D needs hidden heads * D / 2
                c.hidden_size = min_heads * D // 2
    _shrink_mamba(c)
    for k, v in _SMALL.items():
        cur = getattr(c, k, None)
        if isinstance(cur, int) and not isinstance(cur, bool) and cur > v:
            setattr(c, k, v)
        elif isinstance(cur, list) and cur and all(isinstance(x, int) for x in cur):
            setattr(c, k, [min(x, v) for x in cur])  # per layer (Gemma 3n's MLPs)
    if "embedding_size" in vars(c) and c.embedding_size == hidden and \
            isinstance(hidden, int) and c.hidden_size != hidden:
        c.embedding_size = c.hidden_size  # as wide as the hidden size (SqueezeBERT asserts it)
    if "default_language" in vars(c) and c.default_language is None and \
            getattr(c, "languages", None):
        c.default_language = c.languages[0]  # X-MOD's adapters need one
    for stack, n_key, k_sparse in (("encoder", "num_layers", "num_sparse_encoder_layers"),
                                   ("decoder", "num_decoder_layers", "num_sparse_decoder_layers")):
        # Switch Transformers' sparse steps (derived in __post_init__) for the
        # cut layer counts (configuration_switch_transformers.py L97-106)
        n_sp, n_l = getattr(c, k_sparse, None), getattr(c, n_key, None)
        if isinstance(n_sp, int) and isinstance(n_l, int):
            setattr(c, f"{stack}_sparse_step", n_l // n_sp if n_sp > 0 else n_l)
    if getattr(c, "model_type", "") == "deepseek_ocr2_text" and c.mlp_layer_types is None and \
            isinstance(keep, int):
        # the class default leaves it null and the decoder layer indexes it
        # (modeling_deepseek_ocr2.py L1249): dense MLPs
        c.mlp_layer_types = ["dense"] * keep
    if "vocabulary_map" in vars(c) and c.vocabulary_map is None:
        c.vocabulary_map = {}  # Chameleon's image-token map (no image tokens here)
    if isinstance(getattr(c, "moe_intermediate_size", None), int) and \
            "n_routed_experts" in vars(c) and c.n_routed_experts is None:
        # null experts in a class default whose layers are MoE (Dots1Config)
        c.n_routed_experts = _SMALL["n_routed_experts"]
        if "n_shared_experts" in vars(c) and c.n_shared_experts is None:
            c.n_shared_experts = 1
    if getattr(c, "num_experts_per_tok", 0) is None and any(
            isinstance(getattr(c, k, None), int) for k in ("num_experts", "n_routed_experts")):
        c.num_experts_per_tok = 2  # a trimmed config.json without it (DeepSeek-V2-Lite's)
    ne = getattr(c, "num_experts_per_tok", None)
    for k in ("num_experts", "num_local_experts", "n_routed_experts"):
        e = getattr(c, k, None)
        if isinstance(e, int) and isinstance(ne, int) and ne > e:
            c.num_experts_per_tok = e
    for k in ("pad_token_id", "bos_token_id", "eos_token_id"):
        v = getattr(c, k, None)
        if isinstance(v, int) and v >= getattr(c, "vocab_size", 1 << 30):
            setattr(c, k, 0)
        elif isinstance(v, list):
            setattr(c, k, [x if x < getattr(c, "vocab_size", 1 << 30) else 0 for x in v])
    if hetero and keep is not None:
        plc = {}
        for i in range(keep):
            over = c._heterogeneity_spec.per_layer_overrides.get(i) \
                if hasattr(c._heterogeneity_spec, "per_layer_overrides") else None
            if over:
                plc[i] = dict(over)
                kv = plc[i].get("num_key_value_heads")  # Gemma 4's num_global_key_value_heads
                if isinstance(kv, int) and kv > c.num_attention_heads:
                    plc[i]["num_key_value_heads"] = 1
        c.per_layer_config = plc or None
    return keep


def _shrink_mamba(c):
    """A hybrid's Mamba 2 mixer sized for the new hidden_size: its head size
    was derived from the old one in the config's __post_init__ (mamba_d_head =
    mamba_expand * hidden_size // mamba_n_heads; Falcon-H1's mamba_d_ssm)."""
    tl = getattr(c, "time_step_limit", None)
    if isinstance(tl, (list, tuple)):
        # back from _jsonable's largest double to infinity (a float32 clamp
        # overflows on the double)
        c.time_step_limit = tuple(math.inf if isinstance(x, float) and x >= sys.float_info.max
                                  else x for x in tl)
    if getattr(c, "model_type", "") == "mamba2" and isinstance(getattr(c, "head_dim", None), int):
        # a pure Mamba 2 stack: num_heads * head_dim = expand * hidden_size
        c.hidden_size = min(c.hidden_size, 256)
        c.n_groups = 1
        c.num_heads = c.expand * c.hidden_size // c.head_dim
        c.time_step_rank = math.ceil(c.hidden_size / 16)
        return
    if getattr(c, "model_type", "") in ("zamba", "zamba2"):
        # the shared attention block's sizes follow hidden_size
        # (configuration_zamba2.py L113-123)
        c.attention_hidden_size = 2 * c.hidden_size
        c.attention_head_dim = 2 * c.hidden_size // c.num_attention_heads
        if isinstance(getattr(c, "n_mamba_heads", None), int):
            c.mamba_headdim = int(c.mamba_expand * c.hidden_size) // c.n_mamba_heads
            c.kv_channels = c.hidden_size // c.num_attention_heads
        return
    nh, ex, hid = (getattr(c, k, None) for k in ("mamba_n_heads", "mamba_expand", "hidden_size"))
    if not all(isinstance(x, int) for x in (nh, ex, hid)):
        return
    if isinstance(getattr(c, "mamba_d_ssm", None), int):
        c.mamba_d_ssm = ex * hid
    c.mamba_n_heads = 4
    if hasattr(c, "mamba_d_head"):
        c.mamba_d_head = ex * hid // 4
    if isinstance(getattr(c, "mamba_d_state", None), int):
        c.mamba_d_state = min(c.mamba_d_state, 16)
    if isinstance(getattr(c, "mamba_chunk_size", None), int):
        c.mamba_chunk_size = min(c.mamba_chunk_size, 16)


# ---- capture -------------------------------------------------------------------------

_Q_NAMES = re.compile(r"(^|\.)(q_norm|q_layernorm|query_layernorm|q_proj|q_b_proj|query|wq|q|q_lin)$")
_K_NAMES = re.compile(r"(^|\.)(k_norm|k_layernorm|key_layernorm|k_proj|key|wk|k|k_lin)$")


class _Capture:
    """Every attention call of one forward: the module, its q and k as the
    attention function receives them (after the position step), the last q/k
    projection or norm output before that call (before it), and the inputs
    and outputs of the modeling file's own rotary function (apply_rotary_pos_emb
    and its kin) called since the previous attention call."""

    def __init__(self):
        self.calls = []
        self.pending = {}   # attention module -> {"q": tensor, "k": tensor}
        self.owner = {}     # submodule -> (attention module, "q" | "k")
        self.rot = []       # rotary function calls not yet given to an attention call
        self.idx = []       # those made by an indexer module (DeepSeek Sparse Attention)

    def hook(self, sub, _inp, out):
        own = self.owner.get(sub)
        if own is None:
            return
        if isinstance(out, tuple):
            out = out[0]
        import torch

        if isinstance(out, torch.Tensor):
            self.pending.setdefault(own[0], {})[own[1]] = out.detach().clone()

    def rotary(self, args, out, indexer=False):
        import torch

        ins = [a.detach().clone() for a in args[:2] if isinstance(a, torch.Tensor)]
        outs = [o.detach().clone() for o in (out if isinstance(out, tuple) else (out,))
                if isinstance(o, torch.Tensor)]
        (self.idx if indexer else self.rot).append((ins, outs))

    def rot_pairs(self):
        """The rotary calls since the last attention call as {"q": (in, out),
        "k": (in, out)} (one call for both, or one call each)."""
        r, self.rot = self.rot, []
        if len(r) == 1 and len(r[0][0]) >= 2 and len(r[0][1]) >= 2:
            return {"q": (r[0][0][0], r[0][1][0]), "k": (r[0][0][1], r[0][1][1])}
        if len(r) >= 2 and r[0][1] and r[1][1]:
            return {"q": (r[0][0][0], r[0][1][0]), "k": (r[1][0][0], r[1][1][0])}
        return {}

    def attn(self, module, query, key, value, attention_mask, **kw):
        pre = self.pending.pop(module, {})
        if not pre and not self.rot and self.calls and self.calls[-1]["module"] is module:
            pass  # the same layer's q and k again (DiffLlama's two calls per layer)
        else:
            self.calls.append({"module": module, "q": query.detach().clone(),
                               "k": key.detach().clone(), "q_pre": pre.get("q"),
                               "k_pre": pre.get("k"), "rot": self.rot_pairs(),
                               "idx": self.idx})
            self.idx = []
        mod = sys.modules.get(type(module).__module__)
        eager = getattr(mod, "eager_attention_forward", None)
        if eager is not None:
            return eager(module, query, key, value, attention_mask, **kw)
        from transformers.integrations.sdpa_attention import sdpa_attention_forward

        return sdpa_attention_forward(module, query, key, value, attention_mask, **kw)


_CURRENT = [None]


def _dispatch(module, query, key, value, attention_mask, **kw):
    return _CURRENT[0].attn(module, query, key, value, attention_mask, **kw)


def _register():
    from transformers import AttentionInterface

    AttentionInterface.register(_ATTN_NAME, _dispatch)


def _attention_modules(model):
    """(name, module) of each module that owns q/k projections (the attention
    layers), in model order."""
    out = []
    for name, m in model.named_modules():
        kids = dict(m.named_children())
        if any(_Q_NAMES.search(k) for k in kids) and any(_K_NAMES.search(k) for k in kids):
            out.append((name, m))
        elif "q_b_proj" in kids or "q_proj" in kids:
            out.append((name, m))
    return out


def _rotary_functions(model):
    """(module, name) of the rotary functions of the model's modeling files:
    apply_rotary_pos_emb and its kin (apply_rotary_emb, ..._interleave)."""
    mods = {sys.modules.get(type(m).__module__) for m in model.modules()}
    out = []
    for mod in mods:
        if mod is None or not mod.__name__.startswith("transformers.models."):
            continue
        for name, fn in vars(mod).items():
            if callable(fn) and name.startswith("apply_") and \
                    ("rotary" in name or "rope" in name):
                out.append((mod, name))
    return out


def _text_model_class(text_cfg):
    """The modeling file's text model class for a config class AutoModel does
    not map (Mllama's MllamaTextConfig, Qwen2.5-Omni's and Qwen3-Omni's
    thinker text models): a class whose name ends in TextModel and whose
    config_class, or ``config`` annotation, is that config class."""
    import importlib

    mod_name = type(text_cfg).__module__.replace(".configuration_", ".modeling_")
    mod = importlib.import_module(mod_name)
    for name, cls in sorted(vars(mod).items()):
        if name.endswith("TextModel") and isinstance(cls, type) and (
                getattr(cls, "config_class", None) is type(text_cfg) or
                getattr(cls, "__annotations__", {}).get("config") is type(text_cfg)):
            return cls
    return None


def _from_config(text_cfg, **kw):
    """AutoModel.from_config, else the modeling file's text model class."""
    from transformers import AutoModel

    try:
        return AutoModel.from_config(text_cfg, **kw)
    except ValueError as ex:
        # a config class AutoModel does not map, or maps to a class its
        # package does not export (Voxtral Realtime's text model)
        cls = _text_model_class(text_cfg) if "Unrecognized configuration class" in str(ex) or \
            "Could not find" in str(ex) else None
        if cls is None:
            raise
        return cls._from_config(text_cfg, **kw)


def build_model(text_cfg, dtype=None):
    """The text model of text_cfg with random weights, float64 where it runs so.
    Returns (model, dtype, interface): interface False when the model has its
    own attention classes instead of AttentionInterface (built eager then)."""
    import torch

    _register()
    torch.set_num_threads(1)
    # the size first, on the meta device (no memory): a default config whose
    # shrunk model is still large (huge vocabularies of byte or hash
    # embeddings, a part shrink does not know) is not built
    try:
        with torch.device("meta"), _quiet():
            meta = _from_config(text_cfg)
        n_param = sum(p.numel() for p in meta.parameters())
        del meta
    except Exception:  # noqa: BLE001 - the real build below says what is wrong
        n_param = 0
    if n_param > MAX_PARAMS and _shrink_encoders(text_cfg):
        # a text config that holds its model's own encoders (Phi-4-multimodal's
        # vision and audio towers, built inside its text model): one layer each
        try:
            with torch.device("meta"), _quiet():
                meta = _from_config(text_cfg)
            n_param = sum(p.numel() for p in meta.parameters())
            del meta
        except Exception:  # noqa: BLE001
            n_param = 0
    if n_param > MAX_PARAMS:
        raise MemoryError(f"{n_param / 1e6:.0f}M parameters after shrinking (the probe builds "
                          f"at most {MAX_PARAMS / 1e6:.0f}M)")
    dtypes = (dtype,) if dtype is not None else (torch.float64, torch.float32)
    last = None
    for impl in (_ATTN_NAME, "eager"):
        for dt in dtypes:
            torch.manual_seed(0)
            try:
                with _quiet():
                    model = _from_config(text_cfg, attn_implementation=impl, dtype=dt)
                model.eval()
                return model, dt, impl == _ATTN_NAME
            except Exception as ex:  # noqa: BLE001 - try float32, then eager
                last = ex
    raise last


def _shrink_encoders(c):
    """The vision and audio sub-configs of c cut to one small layer, in place
    (no positions of the text part live there); an encoder-decoder's wide
    stacks (Blenderbot's d_model 2560) cut to 2 heads of the same head size.
    True when anything was cut."""
    cut = False
    n, nb = getattr(c, "num_hidden_layers", None), getattr(c, "num_blocks", None)
    if isinstance(n, int) and isinstance(nb, int) and nb > n:
        c.num_blocks = n  # xLSTM builds num_blocks blocks (its __post_init__'s copy)
        cut = True
    hidden = getattr(c, "hidden_size", None)
    if not hasattr(c, "num_attention_heads") and isinstance(hidden, int) and hidden > 256:
        # a recurrent model without attention heads (RWKV, xLSTM): a narrower
        # hidden size, and the widths its class copied from it
        for k in ("hidden_size", "attention_hidden_size", "embedding_dim"):
            if getattr(c, k, None) == hidden:
                setattr(c, k, 256)
        cut = True
    H = (getattr(c, "encoder_attention_heads", None), getattr(c, "decoder_attention_heads", None))
    d = getattr(c, "d_model", None)
    if getattr(c, "is_encoder_decoder", False) and isinstance(d, int) and \
            all(isinstance(h, int) and h > 2 and d % h == 0 for h in H) and H[0] == H[1]:
        c.encoder_attention_heads = c.decoder_attention_heads = 2
        c.d_model = 2 * (d // H[0])
        cut = True
    for key in ("vision_config", "audio_config"):
        sub = getattr(c, key, None)
        if sub is None or isinstance(sub, dict):
            continue
        for k in ("num_hidden_layers", "num_blocks"):
            if isinstance(getattr(sub, k, None), int) and getattr(sub, k) > 1:
                setattr(sub, k, 1)
                cut = True
        if isinstance(getattr(sub, "intermediate_size", None), int) and sub.intermediate_size > 32:
            sub.intermediate_size = 32
            cut = True
    return cut


def run_forward(model, positions, vocab, with_positions=True):
    """One forward at positions (a list); the captured attention calls (or,
    for a model without AttentionInterface, its rotary function calls)."""
    import torch

    cap = _Capture()
    handles = []
    for _name, att in _attention_modules(model):
        for sub_name, sub in att.named_modules():
            if sub is att:
                continue
            if _Q_NAMES.search(sub_name):
                cap.owner[sub] = (att, "q")
            elif _K_NAMES.search(sub_name):
                cap.owner[sub] = (att, "k")
    for sub in cap.owner:
        handles.append(sub.register_forward_hook(cap.hook))
    patched = []
    for mod, name in _rotary_functions(model):
        fn = getattr(mod, name)

        def wrap(*args, _fn=fn, **kw):
            out = _fn(*args, **kw)
            # a call from an indexer module (DeepSeek V3.2's Sparse Attention
            # rotates its own q and k too): kept apart from the attention's
            caller = sys._getframe(1).f_locals.get("self")
            cap.rotary(args, out, indexer=type(caller).__name__.endswith("Indexer"))
            return out

        setattr(mod, name, wrap)
        patched.append((mod, name, fn))
    _CURRENT[0] = cap
    g = torch.Generator().manual_seed(1)
    # token ids past the special ones (RoBERTa's pad id 1 would stop its count)
    rows = positions if positions and isinstance(positions[0], (list, tuple)) else None
    n_tok = len(rows[0]) if rows else len(positions)
    ids = torch.randint(min(3, vocab - 1), max(4, min(vocab, 128)), (1, n_tok),
                        generator=g)
    kw = {"input_ids": ids}
    kw["attention_mask"] = torch.ones_like(ids)
    if rows and with_positions:
        # M-RoPE: position_ids [3, batch, seq] (temporal, height, width)
        kw["position_ids"] = torch.tensor(rows, dtype=torch.long)[:, None, :]
        if with_positions == 2:
            kw["cache_position"] = torch.arange(n_tok, dtype=torch.long)
    elif with_positions:
        # cache_position too: some models read the position there (Llama 4's
        # attention temperature), as they would with a KV cache
        kw["position_ids"] = torch.tensor([positions], dtype=torch.long)
        if with_positions == 2:
            kw["cache_position"] = torch.tensor(positions, dtype=torch.long)
    if getattr(model.config, "is_encoder_decoder", False):
        kw["decoder_input_ids"] = ids
    try:
        with torch.no_grad(), _quiet():
            try:
                model(use_cache=False, **kw)
            except TypeError:
                model(**kw)
    finally:
        for h in handles:
            h.remove()
        for mod, name, fn in patched:
            setattr(mod, name, fn)
        _CURRENT[0] = None
    if not cap.calls and cap.rot:
        # no AttentionInterface: each rotary call (or q/k pair of calls) is a layer
        while cap.rot:
            head = cap.rot[:1] if len(cap.rot[0][1]) >= 2 else cap.rot[:2]
            rest = cap.rot[len(head):]
            cap.rot = head
            cap.calls.append({"module": None, "q": None, "k": None, "q_pre": None,
                              "k_pre": None, "rot": cap.rot_pairs()})
            cap.rot = rest
    return cap.calls


# ---- posenc's answer -----------------------------------------------------------------


def explain_model(config_path, model_type=None):
    """posenc's EXPLAIN MODEL for a config file: (ok, {layer: (scheme, fields)},
    text). On a refusal ok is False and text is the message."""
    cmd = [_program(), "--config", config_path]
    if model_type:
        cmd += ["--model-type", model_type]
    cmd += ["-c", "EXPLAIN MODEL"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        return False, {}, (r.stderr.strip() or r.stdout.strip())
    layers = {}
    for line in r.stdout.splitlines():
        m = re.match(r"layers? ([0-9,\-]+): (\S+)(.*)$", line)
        if not m:
            continue
        fields = dict(re.findall(r"(\w+)=(\S+)", m.group(3)))
        for part in m.group(1).split(","):
            a, _, b = part.partition("-")
            for i in range(int(a), int(b or a) + 1):
                layers[i] = (m.group(2), fields)
    return True, layers, r.stdout


class Expect:
    """posenc's scheme for one layer, in the terms the comparison uses."""

    def __init__(self, scheme, fields, rope=None):
        self.scheme = scheme          # "rope", "none", ...
        self.fields = fields          # EXPLAIN MODEL's key=value words
        self.rope = rope              # posenc.RoPE for rope layers
        self.base = float(fields.get("base", "10000"))

    mrope = None                  # posenc.MRoPE of an M-RoPE layer
    rows = None                   # its [3, T] positions in a 3-D forward, else None

    def cos_sin(self, positions):
        """attention_factor * cos and sin of p f_k, float64 [n_pos, rotary_dim/2]
        (an M-RoPE layer in a 3-D forward: pair k at its axis' row)."""
        if self.mrope is not None and self.rows is not None:
            return self.mrope.cos_sin(np.asarray(self.rows, np.int64), dtype=np.float64)
        return self.rope.cos_sin(np.asarray(positions, np.int64), dtype=np.float64)

    def pairs(self, offset):
        """Element indices (i0, i1) of each rotated pair inside a model head."""
        r = self.rope.rotary_dim
        P = r // 2
        if self.rope.layout == "half":
            i0 = np.arange(P)
            i1 = i0 + P
        else:
            i0 = 2 * np.arange(P)
            i1 = i0 + 1
        return i0 + offset, i1 + offset

    def query_scale(self, positions):
        """The factor posenc puts on queries at each position (1: none)."""
        qs = self.fields.get("query_scale")
        p = np.asarray(positions, np.float64)
        if qs == "beta":
            return 1.0 + float(self.fields["beta"]) * np.log1p(
                np.floor(p / float(self.fields["beta_original"])))
        if qs == "temperature":
            # Llama 4 reads the token's index (arange + cached length) here, not
            # position_ids: the same number in a plain forward; modeling_llama4.py
            # L359-366 (5.23)
            p = np.arange(p.size, dtype=np.float64)
            return np.log1p(np.floor((p + 1.0) / float(self.fields["floor_scale"]))) * \
                float(self.fields["attn_scale"]) + 1.0
        if qs == "power":
            # Beam's NoPE layers: exp(0.1 * log1p((position_ids + 1) / 2048)),
            # position_ids as given; modeling_beam.py L492-495, L564 (5.23)
            return np.exp(float(self.fields["power_exponent"]) * np.log1p(
                (p + 1.0) / float(self.fields["power_length"])))
        return np.ones_like(p)


def expectations(config, config_path, layers, seq_len, explain):
    posenc = _import_posenc()
    out = {}
    for i in layers:
        if i not in explain:
            out[i] = None
            continue
        scheme, fields = explain[i]
        rope = None
        if scheme == "rope":
            rope = posenc.RoPE.from_config(config_path, layer=i, seq_len=seq_len)
        out[i] = Expect(scheme, fields, rope)
        if rope is not None and rope.mrope is not None:
            out[i].mrope = posenc.MRoPE(rope, *rope.mrope)
    return out


# ---- the comparison ------------------------------------------------------------------


def _heads(t, T, D=None):
    """A captured tensor as float64 [H, T, D]: from [B, H, T, D], [B, T, H, D]
    or [B, T, H*D] (D given), or [T, H, D]. None when it does not split so."""
    if t is None:
        return None
    a = t.detach().to("cpu").double().numpy()
    if a.ndim == 3 and a.shape[0] == 1 and a.shape[1] == T and D and a.shape[2] % D == 0:
        return a[0].reshape(T, -1, D).transpose(1, 0, 2)
    if a.ndim == 3 and a.shape[0] == T:
        return a.transpose(1, 0, 2)
    if a.ndim == 4 and a.shape[0] == 1:
        if a.shape[2] == T:
            return a[0]
        if a.shape[1] == T:
            return a[0].transpose(1, 0, 2)
    return None


def _tolerances(e, positions, f64_model):
    """Allowed |post - expected| per pair, as a multiple of the pair's length."""
    f = e.rope.inv_freq
    theta = np.abs(np.asarray(positions, np.float64)[:, None] * f[None, :])
    rel = (math.log(max(e.base, 2.0)) + 8.0) * 2.0 ** -24
    tol = theta * rel + 2.0 ** -22
    if not f64_model:
        tol = tol + 2.0 ** -20
    return tol


def _q_factor(post, want, is_q):
    """A constant factor on q that is no position's doing (OPT and others fold
    1/sqrt(head_dim) into q): |post| / |want|; 1 for k."""
    if not is_q:
        return 1.0
    den = float(np.sum(want * want))
    k = math.sqrt(float(np.sum(post * post)) / den) if den > 0 else 1.0
    return 1.0 if abs(k - 1.0) < 2.0 ** -20 else k


def _reinterleave(post, off, r):
    """post with its rotated part [off, off + r) put back from half order
    (x[2j] at j, x[2j+1] at r/2 + j) into interleaved order: DeepSeek V3's
    apply_rotary_pos_emb_interleave reorders q and k alike before rotating
    (the dot products q.k do not change)."""
    out = post.copy()
    P = r // 2
    out[..., off + 2 * np.arange(P)] = post[..., off + np.arange(P)]
    out[..., off + 2 * np.arange(P) + 1] = post[..., off + P + np.arange(P)]
    return out


def compare_layer(e, pre, post, positions, f64_model, is_q):
    """None when post is what posenc says pre becomes, else a message."""
    H, T, D = post.shape
    if pre.shape != post.shape:
        return f"before/after shapes differ: {pre.shape} vs {post.shape}"
    scale = e.query_scale(positions) if is_q else np.ones(T)
    atol = 2.0 ** -20 if not f64_model else 2.0 ** -40
    rmax = float(np.abs(pre).max()) or 1.0
    if e.scheme == "none":
        want = pre * scale[None, :, None]
        want = want * _q_factor(post, want, is_q)
        err = np.abs(post - want).max()
        if err > 2.0 ** -18 * rmax:
            return (f"posenc says no positions here, but the model changes "
                    f"{'q' if is_q else 'k'} by up to {err:.3g} (of {rmax:.3g})")
        return None
    r = e.rope
    h = r.head_dim
    if h > D and D != r.rotary_dim:
        return f"posenc's head_dim {h} exceeds the model's {D}"
    offsets = [0] if h <= D and h == D or D == r.rotary_dim else [D - h, 0]
    c, s = e.cos_sin(positions)  # [T, P], attention factor included
    tol = _tolerances(e, positions, f64_model)
    best = None
    for off in offsets:
        for reorder in ((False, True) if r.layout == "interleaved" else (False,)):
            got = _reinterleave(post, off, r.rotary_dim) if reorder else post
            i0, i1 = e.pairs(off)
            a, b = pre[:, :, i0], pre[:, :, i1]
            wa = (a * c[None] - b * s[None]) * scale[None, :, None]
            wb = (a * s[None] + b * c[None]) * scale[None, :, None]
            rest = np.setdiff1d(np.arange(D), np.concatenate([i0, i1]))
            wr = pre[:, :, rest] * scale[None, :, None]
            # a constant factor on q (lengths: a rotation keeps them, so the
            # float32 angle errors at large positions do not enter it)
            num = float(np.sum(got[:, :, i0] ** 2) + np.sum(got[:, :, i1] ** 2) +
                        np.sum(got[:, :, rest] ** 2))
            den = float(np.sum(wa * wa) + np.sum(wb * wb) + np.sum(wr * wr))
            k = math.sqrt(num / den) if is_q and den > 0 else 1.0
            if abs(k - 1.0) < 2.0 ** -20:
                k = 1.0
            rlen = np.hypot(a, b) * max(r.attention_factor, 1e-300) * np.abs(k) * \
                scale[None, :, None]
            d = np.hypot(got[:, :, i0] - k * wa, got[:, :, i1] - k * wb)
            bad = d > tol[None] * rlen + 2.0 ** -30 * rmax + atol
            pr = np.abs(got[:, :, rest] - k * wr)
            bad_rest = pr > (2.0 ** -18 * np.abs(wr * k) + 2.0 ** -30 * rmax + atol)
            n_bad = int(bad.sum()) + int(bad_rest.sum())
            if best is None or n_bad < best[0]:
                best = (n_bad, off, bad, d, rlen, bad_rest)
    if best[0] == 0:
        return None
    n_bad, off, bad, d, rlen, bad_rest = best
    msg = []
    if bad.any():
        t, k = np.argwhere(bad.any(axis=0))[0]
        msg.append(f"pair {k} at position {positions[t]}: off by "
                   f"{(d[:, t, k] / np.maximum(rlen[:, t, k], 1e-300)).max():.3g} of its length "
                   f"(allowed {tol[t, k]:.3g})")
    if bad_rest.any():
        msg.append(f"{int(bad_rest.sum())} elements posenc leaves alone are changed")
    return "; ".join(msg) + diagnose(pre, post, positions, e, is_q)


def diagnose(pre, post, positions, e, is_q):
    """What the model does instead: which layout fits, the pair angles at the
    smallest positive position, the attention factor from the lengths."""
    H, T, D = post.shape
    try:
        t1 = next(t for t, p in enumerate(positions) if p > 0)
    except StopIteration:
        return ""
    p1 = positions[t1]
    out = []
    for name, (i0, i1) in {"half": (np.arange(D // 2), np.arange(D // 2) + D // 2),
                           "interleaved": (2 * np.arange(D // 2), 2 * np.arange(D // 2) + 1)
                           }.items():
        a, b = pre[:, t1, i0], pre[:, t1, i1]
        a2, b2 = post[:, t1, i0], post[:, t1, i1]
        ang = np.arctan2(a * b2 - b * a2, a * a2 + b * b2)   # angle from pre to post
        spread = np.abs(np.angle(np.exp(1j * (ang - ang[:1])))).max()
        r = np.hypot(a2, b2) / np.maximum(np.hypot(a, b), 1e-300)
        out.append((spread, name, np.median(ang, axis=0) / p1, np.median(r)))
    out.sort(key=lambda x: x[0])
    spread, name, f, ratio = out[0]
    want = e.rope.inv_freq if e.rope is not None else None
    s = f"; the model fits layout {name} (heads agree within {spread:.2g} rad) with pair " \
        f"angles / position at p={p1}: {np.array2string(f[:6], precision=6)}"
    if want is not None:
        s += f" (posenc: {np.array2string(want[:6], precision=6)})"
    s += f", length ratio {ratio:.6g}" + (" (q: query scale included)" if is_q else "")
    return s


# ---- the probe -----------------------------------------------------------------------


class Report:
    def __init__(self, model_type, status, detail="", layers=None, scheme="", how=""):
        self.model_type = model_type
        self.status = status
        self.detail = detail
        self.layers = layers or {}
        self.scheme = scheme
        self.how = how

    def as_dict(self):
        return {"model_type": self.model_type, "status": self.status, "detail": self.detail,
                "scheme": self.scheme, "how": self.how,
                "layers": {str(k): v for k, v in self.layers.items()}}

    def __repr__(self):
        return f"Report({self.model_type!r}, {self.status!r}, {self.detail!r})"


def _scheme_summary(exp):
    kinds = []
    for i in sorted(exp):
        e = exp[i]
        if e is None:
            continue
        if e.scheme == "rope":
            k = f"rope {e.rope.layout}"
            if e.rope.rotary_dim != e.rope.head_dim:
                k += f" {e.rope.rotary_dim}/{e.rope.head_dim}"
            t = e.fields.get("type", "default")
            if t != "default":
                k += f" {t}"
        else:
            k = e.scheme
        if k not in kinds:
            kinds.append(k)
    return ", ".join(kinds)


def probe(config, *, model_type=None, mutate=None, positions=(SMALL_POS, BIG_POS),
          assume_none=False):
    """Probes one config (path, JSON text or dict). model_type: read it as that
    family (posenc's --model-type; the HF class stays the config's). mutate: a
    function given each layer's Expect and returning it changed (the tests'
    deliberately wrong answer). Returns a Report."""
    d = load_config(config)
    mt = d.get("model_type", "?")
    try:
        cfg = hf_config(d)
    except Exception as ex:  # noqa: BLE001 - any failure to build is reported, not raised
        return Report(mt, NOT_BUILDABLE, f"config: {type(ex).__name__}: {ex}"[:300])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "config.json")
        with open(path, "w") as f:
            json.dump(d, f)
        if assume_none:
            # posenc's answer replaced by "no positions in attention" on every
            # layer: does the model move q or k by position at all?
            ok, explain, text = True, {i: ("none", {}) for i in range(4096)}, ""
        else:
            ok, explain, text = explain_model(path, model_type)
        if not ok:
            return Report(mt, REFUSED, text.replace(path, "config.json")[:400])
        if not assume_none and {v[0] for v in explain.values()} == {"alibi"}:
            return _probe_alibi(d, explain, mt, mutate)
        return _probe_built(d, cfg, path, explain, mt, mutate, positions, assume_none)


def _candidates(call, T):
    """(name, pre, post) pairs of q and of k for one layer: the projection or
    norm output before the attention call against the attention's input, and
    the rotary function's input against its output; those of equal shape."""
    D = call["q"].shape[-1] if call["q"] is not None else None
    out = {"q": [], "k": []}
    for key in ("q", "k"):
        att = _heads(call[key], T)
        Dk = att.shape[-1] if att is not None else D
        hook = _heads(call[key + "_pre"], T, Dk)
        rin, rout = call["rot"].get(key, (None, None))
        rin, rout = _heads(rin, T, Dk), _heads(rout, T, Dk)
        for name, pre, post in (("hooks", hook, att), ("rotary function", rin, rout),
                                ("rotary input, attention", rin, att)):
            if pre is not None and post is not None and pre.shape == post.shape:
                out[key].append((name, pre, post))
    return out


def _probe_alibi(d, explain, mt, mutate):
    """ALiBi through the model's own bias tensor: the modeling file's
    build_alibi_tensor (BLOOM, Falcon) or build_mpt_alibi_tensor (MPT) for the
    config's head count at positions 0..T-1, against posenc.alibi_slopes (as
    bfloat16 where EXPLAIN MODEL says slopes=bf16: Falcon rounds them so)."""
    import importlib

    import torch

    posenc = _import_posenc()
    fields = explain[min(explain)][1]
    H = int(fields["heads"])
    try:
        mod = importlib.import_module(f"transformers.models.{mt}.modeling_{mt}")
    except ImportError as ex:
        return Report(mt, NOT_BUILDABLE, f"no modeling file: {ex}")
    T = 64
    if hasattr(mod, "build_mpt_alibi_tensor"):
        # [H, 1, T]: slope * (j - (T - 1)), keys j = 0..T-1 against the last query
        a = mod.build_mpt_alibi_tensor(H, T, float(fields.get("bias_max", 8))).double()
        hf = -a[:, 0, T - 2].numpy()  # distance 1
        dist = np.arange(1 - T, 1, dtype=np.float64)
        tensor = a[:, 0, :].numpy()
    elif hasattr(mod, "build_alibi_tensor"):
        a = mod.build_alibi_tensor(torch.ones(1, T, dtype=torch.long), H, torch.float64)
        hf = a[:, 0, 1].numpy()      # slope * position 1
        dist = np.arange(T, dtype=np.float64)
        tensor = a[:, 0, :].numpy()
    else:
        return Report(mt, NO_POSITIONS, "ALiBi: no bias function in the modeling file")
    want = posenc.alibi_slopes(H)
    if fields.get("slopes") == "bf16":
        want = np.asarray(torch.tensor(want).bfloat16().double())
    if mutate is not None:
        want = mutate(want)
    bad = []
    # transformers forms the slopes in float32 (torch.pow): a few float32 ulps
    rtol = 0.0 if fields.get("slopes") == "bf16" else 2.0 ** -21
    if np.any(np.abs(hf - want) > rtol * np.abs(want)):
        bad.append(f"slopes differ: model {np.array2string(hf[:4])} posenc "
                   f"{np.array2string(want[:4])}")
    # the whole tensor: slope * distance (bfloat16 products for Falcon)
    full = want[:, None] * dist[None, :]
    tol = (2.0 ** -8 if fields.get("slopes") == "bf16" else 2.0 ** -21) * np.abs(full)
    if np.any(np.abs(tensor - full) > tol):
        bad.append("the bias tensor is not slope * distance")
    if bad:
        return Report(mt, DISAGREE, "; ".join(bad), {0: "disagree"}, "alibi")
    return Report(mt, VERIFIED, "", {i: "ok" for i in explain}, "alibi",
                  f"the model's ALiBi tensor ({H} heads, positions 0..{T - 1}) against "
                  "posenc.alibi_slopes" + (", bfloat16 slopes exact" if rtol == 0.0 else
                                           ", float32 slopes to 2^-21"))


def _learned_offsets(model, vocab, T):
    """The rows a forward of T tokens (no position_ids: the model numbers them
    itself) reads from each learned position table (an nn.Embedding named
    like *pos*): {name: indices}."""
    import torch
    import torch.nn.functional as F

    # (I-BERT's QuantEmbedding is no nn.Embedding but reads its weight the same way
    # when quant_mode is false)
    tables = {id(m.weight): n for n, m in model.named_modules()
              if (isinstance(m, torch.nn.Embedding) or type(m).__name__ == "QuantEmbedding")
              and ("pos" in n.lower() or n.endswith("wpe"))}
    seen = {}
    orig = F.embedding

    def emb(inp, weight, *a, **kw):
        name = tables.get(id(weight))
        if name is not None:
            seen.setdefault(name, inp.detach().reshape(-1)[:T].tolist())
        return orig(inp, weight, *a, **kw)

    F.embedding = emb
    try:
        run_forward(model, list(range(T)), vocab, with_positions=0)
    finally:
        F.embedding = orig
    return seen


def _probe_built(d, cfg, path, explain, mt, mutate, positions, assume_none=False):
    import torch

    with _quiet():
        try:
            text_cfg = copy.deepcopy(cfg.get_text_config(decoder=True))
        except Exception:  # noqa: BLE001
            text_cfg = copy.deepcopy(cfg)
    schemes = {v[0] for v in explain.values()}
    if schemes & {"learned", "sinusoid"}:
        # absolute tables: only positions inside the table
        mp = getattr(text_cfg, "max_position_embeddings", None) or 512
        mp = min(mp, 2048) - 2
        positions = tuple([p for p in pos if p < mp] for pos in positions)
    keep = None
    try:
        keep = shrink(text_cfg, keep_heads=bool(getattr(text_cfg, "is_encoder_decoder", False)))
        model, dtype, interface = build_model(text_cfg)
    except Exception as ex:  # noqa: BLE001
        return Report(mt, NOT_BUILDABLE, f"build: {type(ex).__name__}: {ex}"[:300])
    vocab = getattr(text_cfg, "vocab_size", 128) or 128
    if not assume_none and mutate is None and any("mrope_section" in v[1]
                                                  for v in explain.values()):
        positions = tuple(positions) + (MROPE_POS,)
    all_calls = []
    masks = [False]
    try:
        return _probe_run(d, cfg, path, explain, mt, mutate, positions, assume_none, text_cfg,
                          keep, model, dtype, interface, vocab, schemes, all_calls, masks)
    finally:
        if masks[0]:
            from transformers.masking_utils import AttentionMaskInterface

            AttentionMaskInterface._global_mapping.pop(_ATTN_NAME, None)


def _probe_run(d, cfg, path, explain, mt, mutate, positions, assume_none, text_cfg, keep,
               model, dtype, interface, vocab, schemes, all_calls, masks):
    import torch

    own_attention = False
    for pos in positions:
        rows = [list(r) for r in pos] if isinstance(pos[0], (list, tuple)) else None
        pos = [max(v) for v in zip(*rows)] if rows else list(pos)
        calls = None
        for attempt in range(2 if rows else 4):
            try:
                calls = run_forward(model, rows or pos, vocab,
                                    with_positions=(2, 2, 1, 0)[attempt])
                break
            except Exception as ex:  # noqa: BLE001 - float32 once, then without position_ids
                err = ex
                if isinstance(ex, TypeError) and "NoneType" in str(ex) and not masks[0]:
                    # an attention that indexes its mask: transformers gives a
                    # registered attention function no mask unless a mask
                    # function is registered for it too. sdpa's first (DeepSeek
                    # V3.2's indexer); eager's, always a tensor, where sdpa's is
                    # None when causal alone would do and the attention adds it
                    # anyway (ModernBERT decoder's)
                    from transformers.masking_utils import (AttentionMaskInterface, eager_mask,
                                                            sdpa_mask)

                    masks[0] = True
                    for fn in (sdpa_mask, eager_mask):
                        AttentionMaskInterface.register(_ATTN_NAME, fn)
                        try:
                            calls = run_forward(model, rows or pos, vocab,
                                                with_positions=(2, 2, 1, 0)[attempt])
                            break
                        except Exception as ex2:  # noqa: BLE001
                            err = ex2
                            if not (isinstance(ex2, TypeError) and "NoneType" in str(ex2)):
                                break
                    if calls is not None:
                        break
                if attempt == 0 and dtype == torch.float64:
                    try:
                        model, dtype, interface = build_model(text_cfg, torch.float32)
                    except Exception:  # noqa: BLE001
                        pass
        if calls is None:
            return Report(mt, NOT_BUILDABLE, f"forward: {type(err).__name__}: {err}"[:300])
        if attempt == 3 and pos != list(range(len(pos))):
            pos = list(range(len(pos)))  # the model numbers its tokens itself
        if not calls and schemes and schemes <= {"learned", "sinusoid"} and not assume_none:
            # a learned table only (or XLM's sinusoid-filled one), and attention
            # code of the model's own (BLIP's text encoder, FLAVA, GroupViT, GPT-Neo,
            # BigBird, XLM: no AttentionInterface): the rows the
            # table gives each position are checked below, q and k are not reached
            own_attention = True
        elif not calls and not (keep and all(explain.get(i, ("?",))[0] == "none"
                                             for i in range(keep))):
            return Report(mt, NO_POSITIONS, "no attention call reached the probe's "
                          "attention function and no rotary function was called")
        all_calls.append((pos, calls, rows))
    f64 = dtype == torch.float64
    silent = {} if getattr(text_cfg, "is_encoder_decoder", False) or own_attention else \
        _silent_layers(all_calls, keep, explain)
    if assume_none:
        explain = {i: explain[i] for i in range(max(1, len(all_calls[0][1])))}
    problems = []
    layers = {}
    exp_all = {}
    used = set()
    notes = set()
    for pos, calls, rows in all_calls:
        T = len(pos)
        idx = [getattr(c["module"], "layer_idx", None) for c in calls]
        if any(i is None or i < 0 for i in idx) or len(set(idx)) != len(idx):
            # (Zamba 2's shared attention block says layer_idx -1): the calls
            # in order are the rotating layers when there are as many, else
            # the layers from 0
            rot = sorted(i for i, v in explain.items()
                         if v[0] == "rope" and (keep is None or i < keep))
            idx = rot if rot and len(rot) == len(calls) else list(range(len(calls)))
        if "rope" not in schemes and not (schemes == {"none"} and silent):
            # no layer rotates (absolute tables, biases; encoder-decoder stacks
            # whose calls do not number like posenc's layers): none anywhere
            idx = [min(explain)] * len(calls)
        exp = expectations(d, path, sorted(set(idx)), max(pos) + 1, explain)
        exp_all.update({i: exp[i] for i in idx})
        for i, call in zip(idx, calls):
            e = exp[i]
            if e is not None and e.mrope is not None and rows:
                e.rows = rows  # pos: the largest of the three rows (tolerances)
                used.add("3-D M-RoPE positions")
            if e is not None and rows and e.mrope is None:
                continue  # a layer without M-RoPE in the 3-D forward: checked above
            if e is None:
                problems.append(f"layer {i}: posenc has no such layer")
                layers[i] = "disagree"
                continue
            if e.scheme not in ("rope", "none"):
                # absolute tables and biases: the attention's q and k carry no position
                e = Expect("none", {}, None)
            if mutate is not None:
                e = mutate(e)
            cands = _candidates(call, T)
            if not cands["q"] and "rope" not in schemes and "learned" in schemes:
                notes.add("attention q/k not captured (a fused projection)")
                continue
            if not cands["q"]:
                problems.append(f"layer {i}: no q before and after the position step was "
                                "captured (no q projection or norm by a known name, no rotary "
                                "function)")
                layers.setdefault(i, "no capture")
                continue
            for key in ("q", "k"):
                first = None
                for name, pre, post in cands[key]:
                    why = compare_layer(e, pre, post, pos, f64, key == "q")
                    if why is None:
                        used.add(name)
                        first = None
                        break
                    first = first or f"{why} ({name})"
                if first is None and e.scheme == "none":
                    # a rotary function that moves q or k is a position step
                    # whatever the hooks saw (NanoChat norms q and k after
                    # rotating them: its q_norm output is already rotated)
                    for name, pre, post in cands[key]:
                        if name == "rotary function":
                            why = compare_layer(e, pre, post, pos, f64, key == "q")
                            first = f"{why} ({name})" if why else None
                layers.setdefault(i, "ok")
                if first:
                    layers[i] = "disagree"
                    problems.append(f"layer {i} {key} (positions up to {max(pos)}): {first}")
    idx_problems = _check_indexer(all_calls, path, f64, mutate, used)
    for i, why in idx_problems:
        layers[i] = "disagree"
        problems.append(why)
    if "learned" in schemes and not assume_none and not mutate:
        offs = {int(v[1].get("offset", 0)) for v in explain.values() if v[0] == "learned"}
        T = 16
        try:
            seen = _learned_offsets(model, vocab, T)
        except Exception as ex:  # noqa: BLE001
            seen = {}
            problems.append(f"learned tables: the forward without position_ids failed: {ex}")
        if not seen:
            problems.append("learned: no position table (an nn.Embedding named *pos*) was read")
        for name, rows in seen.items():
            if not any(rows == [p + o for p in range(T)] for o in offs):
                layers[min(explain)] = "disagree"
                problems.append(f"learned table {name}: positions 0..{T - 1} read rows "
                                f"{rows[:4]}..., posenc's offset {sorted(offs)}")
        if seen and not problems:
            used.add("learned rows " + ", ".join(sorted(seen)))
    if "relative-buckets" in schemes and not assume_none and not mutate:
        # T5's buckets: each attention that owns the bias table (its first
        # layer) computes the bias it adds to the scores; against posenc.t5_bias
        # of the same table for the stack's buckets, max_distance and direction
        posenc = _import_posenc()
        stacks = {v[1].get("stack", ""): v[1] for v in explain.values()
                  if v[0] == "relative-buckets"}
        T = 200  # exact, log and clamped distances (max_distance 128)
        for name, m in model.named_modules():
            if not (getattr(m, "has_relative_attention_bias", False) and
                    hasattr(m, "compute_bias") and hasattr(m, "relative_attention_bias")):
                continue
            f = stacks.get("decoder" if getattr(m, "is_decoder", True) else "encoder") or \
                next(iter(stacks.values()))
            try:
                with torch.no_grad():
                    hf = m.compute_bias(T, T)[0].double()
            except TypeError:
                continue  # another signature (LongT5's local blocks)
            table = m.relative_attention_bias.weight.detach().double()
            if table.shape[0] != int(f["buckets"]):
                problems.append(f"{name}: {table.shape[0]} buckets, posenc says {f['buckets']}")
                layers[min(explain)] = "disagree"
                continue
            want = posenc.t5_bias(table, T, T, max_distance=int(f["max_distance"]),
                                  bidirectional=f.get("bidirectional") == "true")
            if not torch.equal(hf, want.double()):
                problems.append(f"{name}: the model's compute_bias differs from posenc.t5_bias "
                                f"(buckets {f['buckets']}, max_distance {f['max_distance']}, "
                                f"bidirectional {f.get('bidirectional')})")
                layers[min(explain)] = "disagree"
            else:
                used.add(f"T5 bias {'decoder' if getattr(m, 'is_decoder', True) else 'encoder'}"
                         f" 0..{T - 1}")
    if "sinusoid" in schemes and own_attention and not assume_none and not mutate:
        # XLM, FlauBERT with sinusoidal_embeddings: _init_weights filled the
        # nn.Embedding table with the sinusoid at build; the table against posenc's
        posenc = _import_posenc()
        base = float(next(v[1] for v in explain.values() if v[0] == "sinusoid").get("base", 1e4))
        tabs = [(n, m.weight.detach().double().numpy()) for n, m in model.named_modules()
                if isinstance(m, torch.nn.Embedding) and "pos" in n.lower()]
        if not tabs:
            problems.append("sinusoid: no position table (an nn.Embedding named *pos*)")
        for name, w in tabs:
            want = posenc.sinusoid(w.shape[0], w.shape[1], base=base, dtype=np.float64)
            err = float(np.max(np.abs(w - want)))
            if err > 1e-6:  # the model's table is float32-rounded
                layers[min(explain)] = "disagree"
                problems.append(f"sinusoid table {name}: off by {err:.3g} from posenc.sinusoid")
            else:
                used.add(f"sinusoid table {name} ({w.shape[0]} rows)")
    for i, why in silent.items():
        # a layer of the built prefix that made no attention call (Mamba,
        # convolution, linear attention): posenc must call it none
        if why:
            problems.append(f"layer {i}: {why}")
            layers[i] = "disagree"
        else:
            layers.setdefault(i, "ok")
    if silent:
        used.add("layers without attention calls: none")
    scheme = _scheme_summary(exp_all) or (", ".join(sorted(schemes - {"none"}))
                                          if own_attention else "")
    abs_schemes = sorted(schemes - {"rope", "none"})
    how = (f"probe ({', '.join(sorted(used))}): {len(layers)} layers, positions "
           f"0..{max(max(p) for p, _, _ in all_calls)}, {'float64' if f64 else 'float32'}")
    if abs_schemes and layers:
        how += f"; attention q/k unrotated ({', '.join(abs_schemes)} outside attention)"
    if own_attention:
        notes.add("attention q/k not reached (the model's own attention code)")
    if notes:
        how += "; " + "; ".join(sorted(notes))
    if problems:
        status = DISAGREE if any(v == "disagree" for v in layers.values()) else NOT_BUILDABLE
        return Report(mt, status, " | ".join(problems[:3])[:1500], layers, scheme, how)
    if not layers and not used:
        return Report(mt, NOT_BUILDABLE, "nothing captured", layers, scheme, how)
    return Report(mt, VERIFIED, "", layers or {min(explain): "ok"}, scheme, how)


def _check_indexer(all_calls, path, f64, mutate, used):
    """The rotations an indexer module made (DeepSeek Sparse Attention: its own
    q and k, beside the attention's) against posenc's indexer RoPE of the
    layer; [(layer, problem)]. A model posenc gives no indexer must make no
    such call, and one it gives an indexer must make them."""
    posenc = _import_posenc()
    out = []
    seen = False
    for pos, calls, rows in all_calls:
        T = len(pos)
        for i, call in enumerate(calls):
            layer = getattr(call["module"], "layer_idx", None)
            layer = i if layer is None or layer < 0 else layer
            try:
                r = posenc.RoPE.from_config(path, layer=layer, seq_len=max(pos) + 1, indexer=True)
            except posenc.Error:
                r = None
            if not call.get("idx"):
                if r is not None:
                    out.append((layer, f"layer {layer}: posenc gives it an indexer RoPE, but no "
                                "indexer rotation was captured"))
                continue
            if r is None:
                out.append((layer, f"layer {layer}: an indexer rotates its own q and k, which "
                            "posenc does not describe"))
                continue
            e = Expect("rope", {"base": str(r.base)}, r)
            if mutate is not None:
                e = mutate(e)
            ins, outs = call["idx"][0]
            for n, key in enumerate(("q", "k")):
                if len(ins) <= n or len(outs) <= n:
                    continue
                pre, post = _heads(ins[n], T), _heads(outs[n], T)
                if pre is None or post is None:
                    out.append((layer, f"layer {layer} indexer {key}: shape "
                                f"{tuple(ins[n].shape)} not read"))
                    continue
                why = compare_layer(e, pre, post, pos, f64, key == "q")
                if why is not None:
                    out.append((layer, f"layer {layer} indexer {key} (positions up to "
                                f"{max(pos)}): {why}"))
            seen = True
    if seen and not out:
        used.add("indexer rotations")
    return out


def _silent_layers(all_calls, keep, explain):
    """{layer: None or a problem} for the layers 0..keep-1 of the built
    prefix that no attention call came from (the calls carry layer_idx; a
    decoder-only stack): such a layer (Mamba, convolution, linear attention,
    cross-attention without image states) must be "none" in posenc's answer."""
    if not keep:
        return {}
    seen = set()
    for _pos, calls, *_rest in all_calls:
        idx = [getattr(c["module"], "layer_idx", None) for c in calls]
        if any(i is None or i < 0 for i in idx):
            return {}
        seen.update(idx)
    out = {}
    for i in range(keep):
        if i in seen:
            continue
        s = explain.get(i, ("?",))[0]
        out[i] = None if s == "none" else (f"the model makes no attention call here, posenc "
                                           f"says {s}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--config", help="a config.json")
    g.add_argument("--model-type", dest="hf_type",
                   help="a transformers model_type: its config class's defaults")
    ap.add_argument("--as", dest="as_type", help="posenc's --model-type for the config")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    a = ap.parse_args(argv)
    d = load_config(a.config) if a.config else default_config(a.hf_type)
    rep = probe(d, model_type=a.as_type)
    if a.json:
        print(json.dumps(rep.as_dict(), indent=1))
    else:
        print(f"{rep.model_type}: {rep.status}" + (f" ({rep.scheme})" if rep.scheme else ""))
        if rep.how:
            print(f"  {rep.how}")
        if rep.detail:
            print(f"  {rep.detail}")
    return 0 if rep.status in (VERIFIED, REFUSED) else 1


if __name__ == "__main__":
    sys.exit(main())
