"""RoPE.from_config through the model registry, per layer, against the
registry's golden file (tests/data/model_golden.txt, written by
tools/gen_rope_golden.py --models in mpmath from the same JSON, never by the
library); and learned tables read from .safetensors files that the tests
write byte by byte."""
import json
import os
import struct

import numpy as np
import pytest

import posenc
from conftest import data

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")


def layer_list(s):
    """'0-2,4,6-7' -> [0, 1, 2, 4, 6, 7]"""
    out = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def golden_models():
    """Each model of the golden file: name, schemes per layer, and its RoPE
    groups (layers, cur_len, head_dim, rotary_dim, layout, base, attn, freqs)."""
    models, cur, rope = [], None, None
    with open(data("model_golden.txt")) as f:
        assert f.readline().startswith("posenc-model-golden 1")
        for line in f:
            w = line.split()
            if not w or w[0] == "#":
                continue
            if w[0] == "model":
                cur = {"name": w[1], "ropes": []}
                models.append(cur)
            elif w[0] == "type":
                cur["type"] = w[1]
            elif w[0] == "schemes":
                cur["schemes"] = w[1:]
            elif w[0] == "rope":
                rope = {"layers": layer_list(w[1]), "cur": int(w[2]), "head_dim": int(w[3]),
                        "rotary_dim": int(w[4]), "layout": w[5], "base": float(w[6]), "f": []}
                cur["ropes"].append(rope)
            elif w[0] == "attn":
                rope["attn"] = float(w[1]) + float(w[2])
            elif w[0] == "f":
                assert int(w[1]) == len(rope["f"])
                rope["f"].append(float(w[2]) + float(w[3]))
            elif w[0] == "total":
                assert int(w[1]) == len(models)
    return models


MODELS = golden_models()


@needs_reader
@pytest.mark.parametrize("m", MODELS, ids=[m["name"] for m in MODELS])
def test_from_config_every_layer_matches_the_golden_file(m):
    path = data(os.path.join("models", m["name"]))
    rope_of = {}
    for g in m["ropes"]:
        for layer in g["layers"]:
            rope_of[layer] = g
    assert len(m["schemes"]) > 0
    for layer, scheme in enumerate(m["schemes"]):
        if scheme != "rope":
            with pytest.raises(ValueError, match=f"layer {layer} of .* has no RoPE"):
                posenc.RoPE.from_config(path, layer=layer)
            continue
        g = rope_of[layer]
        if g["cur"] != 0:
            continue  # Qwen 1's dynamic NTK at a sequence length: not applied by from_config
        r = posenc.RoPE.from_config(path, layer=layer)
        assert (r.head_dim, r.rotary_dim, r.layout) == (g["head_dim"], g["rotary_dim"], g["layout"])
        f = r.inv_freq
        assert f.dtype == np.float64 and len(f) == len(g["f"])
        want = np.array(g["f"])
        assert np.all(np.abs(f - want) <= 4 * np.spacing(want)), (layer, np.max(np.abs(f - want)))
        assert abs(r.attention_factor - g["attn"]) <= 4 * np.spacing(g["attn"])
    with pytest.raises(ValueError, match="does not exist"):
        posenc.RoPE.from_config(path, layer=len(m["schemes"]))


@needs_reader
def test_from_config_deepseek_v32_indexer():
    # DeepSeek V3.2 (modeling_deepseek_v32.py L160-222): the indexer rotates the
    # first qk_rope_head_dim (64) of its index_head_dim (128) heads half-split
    # with the layer's cos and sin; MLA's RoPE is interleaved on 64. Rotating a
    # head by the indexer's RoPE is the half-split rotation by the attention's
    # angles, the last 64 elements untouched.
    path = data("models/real/deepseek-v3.2.json")
    att = posenc.RoPE.from_config(path, layer=7, seq_len=200000)
    idx = posenc.RoPE.from_config(path, layer=7, seq_len=200000, indexer=True)
    assert (att.layout, att.head_dim, att.rotary_dim) == ("interleaved", 64, 64)
    assert (idx.layout, idx.head_dim, idx.rotary_dim) == ("half", 128, 64)
    assert np.array_equal(att.inv_freq, idx.inv_freq)
    assert att.attention_factor == idx.attention_factor
    x = np.random.default_rng(3).standard_normal((3, 128)).astype(np.float32)
    pos = np.array([0, 4097, 150000])
    y = idx.apply(x.copy(), positions=pos)
    c, s = att.cos_sin(pos, dtype=np.float64)
    a, b = x[:, :32].astype(np.float64), x[:, 32:64].astype(np.float64)
    assert np.allclose(y[:, :32], a * c - b * s, rtol=0, atol=2e-6)
    assert np.allclose(y[:, 32:64], a * s + b * c, rtol=0, atol=2e-6)
    assert np.array_equal(y[:, 64:], x[:, 64:])
    with pytest.raises(posenc.Error, match="no indexer"):
        posenc.RoPE.from_config(data("models/real/qwen3-8b.json"), indexer=True)


@needs_reader
def test_from_config_gemma4_proportional():
    # Gemma 4 31B-it: sliding layers head_dim 256 plain RoPE base 10000; full
    # layers global_head_dim 512 with rope type proportional (p 0.25): pairs
    # k < 64 have 1e6^(-2k/512), the rest 0 (modeling_rope_utils.py
    # _compute_proportional_rope_parameters)
    path = data("models/gemma4-gemma-4-31b-it.json")
    slid = posenc.RoPE.from_config(path, layer=0)
    full = posenc.RoPE.from_config(path, layer=5)
    assert (slid.head_dim, slid.rotary_dim) == (256, 256)
    assert (full.head_dim, full.rotary_dim, full.layout) == (512, 512, "half")
    assert full.scaling["type"] == "proportional"
    assert full.scaling["partial_rotary_factor"] == 0.25
    k = np.arange(256)
    want = np.where(k < 64, 1e6 ** (-2 * k / 512), 0.0)
    assert np.all(full.inv_freq[64:] == 0)
    assert np.allclose(full.inv_freq, want, rtol=1e-15, atol=0)
    assert np.allclose(slid.inv_freq, 1e4 ** (-2 * np.arange(128) / 256), rtol=1e-15)
    # the same RoPE from the scaling dict, and what transformers 5.23 saves
    # (per_layer_config instead of global_head_dim)
    r = posenc.RoPE(512, base=1e6, scaling={"rope_type": "proportional",
                                             "partial_rotary_factor": 0.25})
    assert np.array_equal(r.inv_freq, full.inv_freq)
    with open(path) as f:
        cfg = json.load(f)
    tc = cfg["text_config"]
    del tc["global_head_dim"]
    tc["per_layer_config"] = {"%02d" % i: {"head_dim": 128} for i in range(5, 60, 6)}
    assert posenc.RoPE.from_config(cfg, layer=11).head_dim == 128
    # the float rotation leaves the elements of the zero pairs as they were
    x = np.random.default_rng(3).standard_normal((1, 512)).astype(np.float32)
    y = full.apply(x, positions=98765, inplace=False)
    keep = np.r_[64:256, 320:512]
    assert np.array_equal(y[0, keep], x[0, keep])
    assert np.all(y[0, :64] != x[0, :64])


@needs_reader
def test_from_config_per_layer_gemma3():
    # Gemma 3: five sliding layers at rope_local_base_freq 10000 unscaled, then
    # a global one at rope_theta 1e6 with the linear factor 8 (by the config)
    with open(data("models/gemma3-synthetic.json")) as f:
        cfg = json.load(f)
    tc = cfg["text_config"]
    local = posenc.RoPE.from_config(cfg, layer=0)
    glob = posenc.RoPE.from_config(cfg, layer=5)
    d = tc["head_dim"]
    k = np.arange(d // 2)
    assert np.allclose(local.inv_freq, tc["rope_local_base_freq"] ** (-2 * k / d), rtol=1e-15)
    assert np.allclose(glob.inv_freq, tc["rope_theta"] ** (-2 * k / d) / tc["rope_scaling"]["factor"],
                       rtol=1e-15)
    assert local.layout == glob.layout == "half"


@needs_reader
def test_from_config_nope_layers_and_non_rope_models():
    with pytest.raises(ValueError, match="layer 3 of llama4_text has no RoPE"):
        posenc.RoPE.from_config(data("models/llama4-scout-synthetic.json"), layer=3)
    with pytest.raises(posenc.Error, match="layer 0 of gpt2 has no RoPE .scheme learned"):
        posenc.RoPE.from_config(data("models/gpt2.json"))
    with pytest.raises(posenc.Error, match="scheme relative-buckets"):
        posenc.RoPE.from_config(data("models/t5-small.json"), layer=7)
    # hybrid models: the layer's reason, as EXPLAIN MODEL prints it
    with pytest.raises(ValueError, match=r"layer 0 of lfm2 has no RoPE \(scheme none: short "
                       r"convolution layer: no attention\)"):
        posenc.RoPE.from_config(data("models/lfm2-350m.json"), layer=0)
    with pytest.raises(ValueError, match="cross-attention to image tokens: no positions"):
        posenc.RoPE.from_config(data("models/mllama-synthetic.json"), layer=1)
    assert posenc.RoPE.from_config(data("models/lfm2-350m.json"), layer=2).base == 1e6
    # Llama 4 rotates interleaved pairs (the registry's layout, not the keys')
    assert posenc.RoPE.from_config(data("models/llama4-scout-synthetic.json")).layout == "interleaved"
    with pytest.raises(posenc.Error, match="model_type"):
        posenc.RoPE.from_config({"model_type": "no_such_family", "hidden_size": 64,
                                 "num_attention_heads": 2})


# ---- learned tables from .safetensors ----------------------------------------------


def write_safetensors(path, tensors, header_extra=None):
    """tensors: name -> (dtype, shape, raw bytes); laid out in order."""
    header, blobs, off = {}, [], 0
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    if header_extra:
        header.update(header_extra)
    h = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def bf16_bytes(values):
    """bfloat16 of values that are exact in 8 bits of mantissa: the top half of float32."""
    u = np.asarray(values, "<f4").view("<u4")
    assert np.all((u & 0xFFFF) == 0)
    return (u >> 16).astype("<u2").tobytes()


TABLE = [[0.5, -1.25, 2.0], [0.0, 1.0, -0.5], [0.25, 3.0, -2.0], [1.5, -0.75, 0.125]]


@pytest.mark.parametrize("dtype", ["F32", "F16", "BF16", "F64"])
def test_learned_table_from_safetensors(tmp_path, dtype):
    raw = {"F32": lambda v: np.asarray(v, "<f4").tobytes(),
           "F16": lambda v: np.asarray(v, "<f2").tobytes(),
           "F64": lambda v: np.asarray(v, "<f8").tobytes(),
           "BF16": bf16_bytes}[dtype]
    p = tmp_path / "model.safetensors"
    write_safetensors(p, {"wte.weight": ("F32", (2, 2), np.zeros(4, "<f4").tobytes()),
                          "wpe.weight": (dtype, (4, 3), raw(TABLE))},
                      {"__metadata__": {"format": "pt"}})
    t = posenc.learned_table(p, tensor="wpe.weight")
    assert t.dtype == np.float64 and t.shape == (4, 3)
    assert t.tolist() == TABLE
    assert posenc.learned_table(str(p), "wte.weight").tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_learned_table_safetensors_refusals(tmp_path):
    p = tmp_path / "model.safetensors"
    write_safetensors(p, {"wpe.weight": ("F32", (4, 3), np.asarray(TABLE, "<f4").tobytes())})
    with pytest.raises(posenc.Error, match="transformer.wpe.weight"):
        posenc.learned_table(p, tensor="transformer.wpe.weight")
    bad = tmp_path / "short.safetensors"  # data_offsets past the end of the file
    write_safetensors(bad, {"wpe.weight": ("F32", (4, 3), b"\0" * 40)})
    with open(bad, "r+b") as f:
        h = f.read()
    with open(bad, "wb") as f:
        f.write(h.replace(b"[0, 40]", b"[0, 48]"))
    with pytest.raises(posenc.Error):
        posenc.learned_table(bad, tensor="wpe.weight")
    v = tmp_path / "vector.safetensors"  # a 1-D tensor is not a table
    write_safetensors(v, {"ln.bias": ("F32", (3,), np.zeros(3, "<f4").tobytes())})
    with pytest.raises(posenc.Error, match="ln.bias"):
        posenc.learned_table(v, tensor="ln.bias")
    with pytest.raises(OSError):
        posenc.learned_table(tmp_path / "missing.safetensors", tensor="wpe.weight")


# ---- every length rule through from_config(seq_len=) -------------------------
# The published formulas, in mpmath apart from the library:
#   Qwen 1 (use_dynamic_ntk): Qwen/Qwen-7B-Chat modeling_qwen.py @04df5dd5,
#     QWenAttention.forward "context_value = math.log(kv_seq_len /
#     self.seq_length, 2) + 1", "ntk_alpha = 2 ** math.ceil(context_value) - 1"
#     (at least 1); RotaryEmbedding.update_rotary_pos_emb_cache "base =
#     self.base * ntk_alpha ** (self.dim / (self.dim - 2))".
#   Hugging Face "dynamic": transformers modeling_rope_utils.py
#     _compute_dynamic_ntk_parameters (seq_len = max(seq_len, max_pos);
#     base * (factor * seq_len / max_pos - (factor - 1)) ** (dim / (dim - 2))).
#   LongRoPE: _compute_longrope_parameters (long_factor when seq_len >
#     original_max_position_embeddings, else short_factor).

def _mp():
    return pytest.importorskip("mpmath")


def qwen_inv_freq(base, dim, seq_length, L):
    mp = _mp()
    mp.mp.prec = 120
    alpha = max(2 ** mp.ceil(mp.log(mp.mpf(L) / seq_length, 2) + 1) - 1, 1)
    b = base * mp.mpf(alpha) ** (mp.mpf(dim) / (dim - 2))
    return np.array([float(1 / b ** (mp.mpf(2 * k) / dim)) for k in range(dim // 2)])


@needs_reader
@pytest.mark.parametrize("name", ["qwen-14b-chat.json", "models/qwen-7b-chat.json"])
@pytest.mark.parametrize("L", [2048, 2049, 8192, 16384])
def test_from_config_qwen_dynamic_ntk(name, L):
    r = posenc.RoPE.from_config(data(name), seq_len=L)
    want = qwen_inv_freq(10000, 128, 2048, L)
    assert np.allclose(r.inv_freq, want, rtol=2e-16, atol=0)
    if L == 8192:  # alpha 7: pair 1 is 0.83963 (the model's own code)
        assert abs(r.inv_freq[1] - 0.83963) < 5e-6
    # the same RoPE at another length, from the same model
    again = posenc.RoPE.from_config(data(name), seq_len=2048).with_seq_len(L)
    assert np.array_equal(again.inv_freq, r.inv_freq)


@needs_reader
@pytest.mark.parametrize("L", [1, 4096, 4097, 8192, 16384])
def test_from_config_hf_dynamic(L):
    mp = _mp()
    mp.mp.prec = 120
    with open(data("llama-2-7b-dynamic.json")) as f:
        cfg = json.load(f)
    maxpos, factor = cfg["max_position_embeddings"], cfg["rope_scaling"]["factor"]
    d = cfg["hidden_size"] // cfg["num_attention_heads"]
    s = max(L, maxpos)
    b = cfg["rope_theta"] * (mp.mpf(factor) * s / maxpos - (factor - 1)) ** (mp.mpf(d) / (d - 2))
    want = np.array([float(1 / b ** (mp.mpf(2 * k) / d)) for k in range(d // 2)])
    r = posenc.RoPE.from_config(cfg, layer=31, seq_len=L)
    assert np.allclose(r.inv_freq, want, rtol=2e-16, atol=0)


@needs_reader
@pytest.mark.parametrize("L", [1, 4096, 4097, 131072])
def test_from_config_longrope_switch(L):
    mp = _mp()
    mp.mp.prec = 120
    with open(data("models/phi3-phi-3.5-mini-instruct.json")) as f:
        cfg = json.load(f)
    rs = cfg["rope_scaling"]
    d = cfg["hidden_size"] // cfg["num_attention_heads"]
    ext = rs["long_factor"] if L > cfg["original_max_position_embeddings"] else rs["short_factor"]
    want = np.array([float(1 / (mp.mpf(ext[k]) * mp.mpf(cfg["rope_theta"]) ** (mp.mpf(2 * k) / d)))
                     for k in range(d // 2)])
    r = posenc.RoPE.from_config(cfg, seq_len=L)
    assert np.allclose(r.inv_freq, want, rtol=2e-16, atol=0)


@needs_reader
@pytest.mark.parametrize("name,mtype,part,mrope,layout,rd", [
    ("glm4v-synthetic.json", "glm4v_text", "text_config", ([8, 12, 12], "contiguous"),
     "interleaved", 64),
    ("glm4v-moe-synthetic.json", "glm4v_moe_text", "text_config", ([8, 12, 12], "contiguous"),
     "half", 64),
    ("qwen2.5-omni-synthetic.json", "qwen2_5_omni_text", "thinker_config.text_config",
     ([16, 24, 24], "contiguous"), "half", 128),
    ("qwen3-omni-moe-synthetic.json", "qwen3_omni_moe_text", "thinker_config.text_config",
     ([24, 20, 20], "interleaved"), "half", 128),
    ("qwen2-audio-synthetic.json", "qwen2", "text_config", None, "half", 128),
    ("vila-llm-cfg-synthetic.json", "llama", "llm_cfg", None, "half", 128),
    ("vibevoice-decoder-config-synthetic.json", "qwen2", "decoder_config", None, "half", 128),
    ("kimi-k2-synthetic.json", "kimi_k2", "", None, "interleaved", 64),
])
def test_from_config_says_which_part_was_read(name, mtype, part, mrope, layout, rd):
    """The family and the nested part the reader took (EXPLAIN MODEL's type=
    and part=), and the M-RoPE sections and rule of the family's code."""
    r = posenc.RoPE.from_config(data(os.path.join("models", name)))
    assert (r.model_type, r.config_part, r.mrope) == (mtype, part, mrope)
    assert (r.layout, r.rotary_dim) == (layout, rd)


@needs_reader
def test_mrope_of_the_reader_rotates_as_glm4v():
    """MRoPE(rope, *rope.mrope) on GLM-4V: pair k = (x[2k], x[2k+1]) of the
    first 64 elements turns by its axis' position times base^(-2k/64), axes
    in chunks [8, 12, 12] (modeling_glm4v.py L481-526); the rest unchanged."""
    r = posenc.RoPE.from_config(data(os.path.join("models", "glm4v-synthetic.json")))
    m = posenc.MRoPE(r, *r.mrope)
    pos = np.array([[3, 700], [5, 11], [9, 40000]])  # t, h, w of two tokens
    q = np.random.default_rng(0).standard_normal((2, 128)).astype(np.float32)
    got = m.apply(q, pos)
    axis = [0] * 8 + [1] * 12 + [2] * 12
    for t in range(2):
        for k in range(32):
            a = pos[axis[k], t] * 10000.0 ** (-2 * k / 64)
            x, y = float(q[t, 2 * k]), float(q[t, 2 * k + 1])
            assert got[t, 2 * k] == pytest.approx(x * np.cos(a) - y * np.sin(a), abs=2e-5)
            assert got[t, 2 * k + 1] == pytest.approx(x * np.sin(a) + y * np.cos(a), abs=2e-5)
        assert np.array_equal(got[t, 64:], q[t, 64:])
    assert posenc.RoPE(64).mrope is None and posenc.RoPE(64).config_part == ""
