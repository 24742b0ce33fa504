"""Encoder-decoder models whose two stacks each carry a RoPE config of their own
(T5Gemma, T5Gemma 2, Dia) against transformers 5.23's running code.

posenc numbers their layers encoder first, then decoder (include/posenc_model.h).
For every layer index L, the rotary module of the stack L falls in (encoder's
or decoder's rotary_emb, called with the layer type transformers' own layer L
has) is run at positions up to 10^6 and its cos and sin are compared with
posenc.RoPE.from_config(config, layer=L); `posenc golden --layer L` is checked
against apply_rotary_pos_emb of the same x with those cos and sin. Tiny models
built from configs here: no weights, no network."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
posenc = pytest.importorskip("posenc")

POSITIONS = [0, 1, 2, 3, 17, 255, 4095, 4096, 65535, 131071, 999999, 1000000]


def _program():
    return os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))


def _small(**kw):
    d = dict(hidden_size=64, intermediate_size=64, num_attention_heads=2, num_key_value_heads=1,
             vocab_size=128)
    d.update(kw)
    return d


# ---- the three families: a config, the model, and each layer's rotary call --------------

def t5gemma_config():
    """T5Gemma: each stack Gemma 2's one rotary (configuration_t5gemma.py L30-164);
    the stacks differ in base, head size and scaling."""
    from transformers import T5GemmaConfig

    enc = _small(num_hidden_layers=3, head_dim=32,
                 rope_parameters={"rope_type": "default", "rope_theta": 10000.0})
    dec = _small(num_hidden_layers=2, head_dim=16,
                 rope_parameters={"rope_type": "linear", "factor": 4.0, "rope_theta": 50000.0})
    return T5GemmaConfig(encoder=enc, decoder=dec, vocab_size=128)


def t5gemma2_config(legacy_decoder=False):
    """T5Gemma 2: Gemma 3's RoPE per layer type in each stack, the encoder a
    multimodal wrapper (its text_config), the decoder's self- and cross-attention
    merged (configuration_t5gemma2.py L30-368)."""
    from transformers import T5Gemma2Config

    text = _small(num_hidden_layers=4, head_dim=32, vocab_size=300,
                  layer_types=["sliding_attention", "full_attention", "sliding_attention",
                               "full_attention"],
                  rope_parameters={
                      "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                      "full_attention": {"rope_type": "linear", "factor": 8.0,
                                         "rope_theta": 1000000.0}})
    vision = dict(hidden_size=32, intermediate_size=32, num_hidden_layers=1,
                  num_attention_heads=2, image_size=28, patch_size=14)
    if legacy_decoder:
        # the pre-5.x keys: rope_theta (full layers), rope_local_base_freq (sliding),
        # sliding_window_pattern (every 3rd layer full); configuration_t5gemma2.py L255-306
        dec = _small(num_hidden_layers=6, head_dim=16, vocab_size=300, rope_theta=20000.0,
                     rope_local_base_freq=5000.0, sliding_window_pattern=3)
    else:
        dec = _small(num_hidden_layers=3, head_dim=16, vocab_size=300,
                     layer_types=["sliding_attention", "sliding_attention", "full_attention"],
                     rope_parameters={
                         "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                         "full_attention": {"rope_type": "default", "rope_theta": 500000.0}})
    return T5Gemma2Config(encoder={"text_config": text, "vision_config": vision,
                                   "mm_tokens_per_image": 4},
                          decoder=dec)


def dia_config():
    """Dia: encoder_config and decoder_config, each its own rotary
    (configuration_dia.py L25-112)."""
    from transformers import DiaConfig

    enc = dict(hidden_size=64, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
               num_key_value_heads=2, head_dim=32, vocab_size=256,
               rope_parameters={"rope_type": "default", "rope_theta": 10000.0})
    dec = dict(hidden_size=64, intermediate_size=64, num_hidden_layers=3, num_attention_heads=2,
               num_key_value_heads=1, head_dim=16, cross_num_attention_heads=2,
               cross_head_dim=16, cross_num_key_value_heads=2, cross_hidden_size=64,
               vocab_size=1028, num_channels=9,
               rope_parameters={"rope_type": "default", "rope_theta": 20000.0})
    return DiaConfig(encoder_config=enc, decoder_config=dec)


def _stacks(name, cfg):
    """[(stack, rotary module, its layers' types or None), encoder then decoder]
    of the model transformers builds from cfg."""
    if name == "t5gemma":
        m = transformers.T5GemmaModel(cfg).eval()
        return [("encoder", m.encoder.rotary_emb, None, len(m.encoder.layers)),
                ("decoder", m.decoder.rotary_emb, None, len(m.decoder.layers))]
    if name.startswith("t5gemma2"):
        m = transformers.T5Gemma2Model(cfg).eval()
        te = m.encoder.text_model
        return [("encoder", te.rotary_emb, [l.attention_type for l in te.layers], len(te.layers)),
                ("decoder", m.decoder.rotary_emb, [l.attention_type for l in m.decoder.layers],
                 len(m.decoder.layers))]
    m = transformers.DiaModel(cfg).eval()
    return [("encoder", m.encoder.rotary_emb, None, len(m.encoder.layers)),
            ("decoder", m.decoder.rotary_emb, None, len(m.decoder.layers))]


CASES = {"t5gemma": t5gemma_config, "t5gemma2": t5gemma2_config,
         "t5gemma2_legacy": lambda: t5gemma2_config(legacy_decoder=True), "dia": dia_config}


def _layers(name):
    """(config dict, [(layer, stack, layer type or None, hf cos, hf sin)] for every layer)."""
    torch.manual_seed(0)
    cfg = CASES[name]()
    out = []
    pos = torch.tensor([POSITIONS], dtype=torch.long)
    x = torch.zeros(1, dtype=torch.float32)
    L = 0
    for stack, rot, types, n in _stacks(name, cfg):
        for i in range(n):
            with torch.no_grad():
                c, s = rot(x, pos, types[i]) if types else rot(x, pos)
            out.append((L, stack, types[i] if types else None, c[0].double().numpy(),
                        s[0].double().numpy()))
            L += 1
    return cfg.to_dict(), out


def _tol(rope):
    """Allowed |cos_hf - cos_exact|: transformers multiplies position and
    inv_freq in float32 (an angle error of about theta * 2^-24) before cos."""
    theta = np.abs(np.asarray(POSITIONS, np.float64)[:, None] * rope.inv_freq[None, :])
    return theta * (math.log(max(rope.base, 2.0)) + 8.0) * 2.0 ** -24 + 2.0 ** -20


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_layer_cos_sin(name):
    d, layers = _layers(name)
    for L, stack, ltype, hc, hs in layers:
        r = posenc.RoPE.from_config(d, layer=L, seq_len=max(POSITIONS) + 1)
        P = r.rotary_dim // 2
        assert hc.shape[-1] == 2 * P, (name, L, hc.shape, r.rotary_dim)
        # rotate_half's cat(f, f): both halves carry the pair values (HALF layout)
        assert r.layout == "half"
        np.testing.assert_array_equal(hc[:, :P], hc[:, P:])
        c, s = r.cos_sin(POSITIONS, dtype=np.float64)
        tol = _tol(r)
        for got, want, what in ((hc[:, :P], c, "cos"), (hs[:, :P], s, "sin")):
            bad = np.abs(got - want) > tol
            assert not bad.any(), (
                f"{name} layer {L} ({stack} {ltype}): {what} at position "
                f"{POSITIONS[np.argwhere(bad)[0][0]]} differs by "
                f"{np.abs(got - want).max():.3g}")
    # one past the last layer is refused
    with pytest.raises(ValueError):
        posenc.RoPE.from_config(d, layer=len(layers))


@pytest.mark.parametrize("name", sorted(CASES))
def test_explain_model_names_each_stack(name, tmp_path):
    """EXPLAIN MODEL: each layer's stack and type, base and head size as the
    config's stacks give them."""
    d, layers = _layers(name)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    out = subprocess.run([_program(), "--config", str(path), "-c", "EXPLAIN MODEL"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith(f"MODEL type={d['model_type']} ") and \
        f" layers={len(layers)} scheme=rope" in out[0], out[0]
    line_of = {}
    for line in out[1:]:
        if not line.startswith("layers ") and not line.startswith("layer "):
            continue
        head, rest = line.split(": ", 1)
        for part in head.split(" ", 1)[1].split(","):
            a, _, b = part.partition("-")
            for i in range(int(a), int(b or a) + 1):
                line_of[i] = rest
    assert sorted(line_of) == list(range(len(layers)))
    for L, stack, ltype, hc, _ in layers:
        words = line_of[L].split()
        assert f"stack={stack}" in words, (L, line_of[L])
        if ltype:
            assert f"layer_type={ltype}" in words, (L, line_of[L])
        assert f"head_dim={hc.shape[-1]}" in words
        r = posenc.RoPE.from_config(d, layer=L)
        assert any(w.startswith("base=") and float(w[5:]) == r.base for w in words)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_matches_apply_rotary_pos_emb(name, tmp_path):
    """posenc golden --layer L for the last encoder and the last decoder layer:
    its y is transformers' apply_rotary_pos_emb of its x (float64 reference
    from the module's float32 cos and sin)."""
    from safetensors.numpy import load_file

    d, layers = _layers(name)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    n_enc = sum(1 for l in layers if l[1] == "encoder")
    mod = {"t5gemma": transformers.models.t5gemma.modeling_t5gemma,
           "dia": transformers.models.dia.modeling_dia}.get(
        name, transformers.models.t5gemma2.modeling_t5gemma2)
    for L in (n_enc - 1, len(layers) - 1):
        _, _, _, hc, hs = layers[L]
        out = tmp_path / f"g{L}.safetensors"
        subprocess.run([_program(), "golden", "--config", str(path), "--layer", str(L),
                        "--positions", ",".join(map(str, POSITIONS)), "--heads", "2",
                        "-o", str(out)], capture_output=True, text=True, check=True)
        g = load_file(str(out))
        assert list(g["positions"]) == POSITIONS
        x = torch.from_numpy(g["x"].astype(np.float64)).transpose(0, 1)[None]  # [1, H, T, D]
        c = torch.from_numpy(hc)[None]
        s = torch.from_numpy(hs)[None]
        q, _ = mod.apply_rotary_pos_emb(x, x, c, s)
        want = q[0].transpose(0, 1).numpy()
        P = hc.shape[-1] // 2
        r = posenc.RoPE.from_config(d, layer=L)
        tol = np.concatenate([_tol(r), _tol(r)], axis=1)[:, None, :] * 2 * \
            np.abs(g["x"]).max() + 2.0 ** -20
        err = np.abs(g["y"] - want)
        assert (err <= tol).all(), f"{name} layer {L}: golden y off by {err.max():.3g}"
        assert P == r.rotary_dim // 2


def test_cross_attention_keys_carry_no_position():
    """T5Gemma 2's merged attention (modeling_t5gemma2.py L347-432): the decoder's
    queries and self keys rotate at the decoder's positions; the encoder's keys
    (the cross part, concatenated after the self keys) are k_proj and k_norm of
    the encoder states only, the same whatever the decoder positions."""
    mod = transformers.models.t5gemma2.modeling_t5gemma2
    torch.manual_seed(0)
    cfg = t5gemma2_config()
    cfg.decoder._attn_implementation = "eager"
    m = transformers.T5Gemma2Model(cfg).eval()
    att = m.decoder.layers[0].self_attn
    seen = []
    orig = mod.eager_attention_forward

    def spy(module, query, key, value, mask, **kw):
        seen.append((query.detach().clone(), key.detach().clone()))
        return orig(module, query, key, value, mask, **kw)

    h = torch.randn(1, 3, 64)
    enc = torch.randn(1, 5, 64)
    mod.eager_attention_forward = spy
    try:
        for p0 in (0, 1000):
            pos = torch.arange(p0, p0 + 3)[None]
            with torch.no_grad():
                pe = m.decoder.rotary_emb(h, pos, att.layer_type)
                att(h, pe, None, enc)
    finally:
        mod.eager_attention_forward = orig
    assert len(seen) == 2
    (q0, k0), (q1, k1) = seen
    with torch.no_grad():
        cross = att.k_norm(att.k_proj(enc).view(1, 5, -1, att.head_dim).transpose(1, 2))
    for k in (k0, k1):
        torch.testing.assert_close(k[:, :, -5:], cross, rtol=0, atol=0)
    # the self part and the queries do move with the positions
    assert (k0[:, :, :3] - k1[:, :, :3]).abs().max() > 1e-3
    assert (q0 - q1).abs().max() > 1e-3


@pytest.mark.parametrize("name", ["t5gemma", "t5gemma2", "dia"])
def test_listed_as_supported(name):
    out = subprocess.run([_program(), "--models"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    row = [line for line in out if line.split()[0] == name]
    assert row and "supported=no" not in row[0] and "scheme=rope" in row[0], row


# ---- a RoPE base per layer: layer_rope_theta (granite_swa, granitemoe_swa, muse_glimmer) --

def _layer_bases_config(name, thetas):
    """thetas None: 9 layers, layer_rope_theta left to the config class."""
    small = dict(hidden_size=64, intermediate_size=64, num_attention_heads=2,
                 num_key_value_heads=1, vocab_size=128,
                 num_hidden_layers=9 if thetas is None else len(thetas))
    if thetas is not None:
        small["layer_rope_theta"] = thetas
    if name == "granite_swa":
        return transformers.GraniteSWAConfig(
            rope_parameters={"rope_type": "default", "rope_theta": 10000.0}, **small)
    if name == "granitemoe_swa":
        return transformers.GraniteMoeSWAConfig(
            rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0},
            num_local_experts=2, num_experts_per_tok=1, **small)
    return transformers.MuseGlimmerTextConfig(
        head_dim=32, rope_parameters={"rope_type": "default", "rope_theta": 500000.0}, **small)


LAYER_BASES = [
    # granite_swa: NoPE, two bases, the first again (modeling_granite_swa.py L392-458)
    ("granite_swa", [0, 10000.0, 10000.0, 0, 500000.0, 10000.0]),
    ("granite_swa", [20000.0, 20000.0, 20000.0, 20000.0]),
    # three distinct bases and NoPE: four groups, posenc's most
    ("granitemoe_swa", [1e6, 0, 10000.0, 5e5, 1e6]),
    # muse: the values only say NoPE or not (one rotary at rope_theta)
    ("muse_glimmer_text", [0, 123.0, 500000.0, 0, 7.0]),
    # muse without the list: NoPE on every 4th layer from the last
    ("muse_glimmer_text", None),
]
MODELS_BY_NAME = {"granite_swa": "GraniteSWAModel", "granitemoe_swa": "GraniteMoeSWAModel",
                  "muse_glimmer_text": "MuseGlimmerTextModel"}


@pytest.mark.parametrize("name,thetas", LAYER_BASES)
def test_layer_bases_every_layer(name, thetas):
    """Each layer's position_embeddings as the model passes them to its
    attention (None on NoPE layers) against posenc's answer for that layer."""
    torch.manual_seed(0)
    default_muse = thetas is None
    cfg = _layer_bases_config(name, thetas)
    d = cfg.to_dict()
    if default_muse:
        d.pop("layer_rope_theta")  # the class fills it in: posenc must apply the same rule
    model = getattr(transformers, MODELS_BY_NAME[name])(cfg).eval()
    seen = {}

    def grab(i):
        def hook(mod, args, kwargs):
            seen[i] = kwargs.get("position_embeddings")
        return hook

    for i, layer in enumerate(model.layers):
        layer.self_attn.register_forward_pre_hook(grab(i), with_kwargs=True)
    pos = torch.tensor([POSITIONS])
    with torch.no_grad():
        model(input_ids=torch.zeros_like(pos), position_ids=pos, use_cache=False)
    assert sorted(seen) == list(range(len(model.layers)))
    n_none = 0
    for i in range(len(model.layers)):
        pe = seen[i]
        if pe is None:
            n_none += 1
            with pytest.raises(ValueError, match="no RoPE|NoPE|none"):
                posenc.RoPE.from_config(d, layer=i)
            continue
        r = posenc.RoPE.from_config(d, layer=i, seq_len=max(POSITIONS) + 1)
        hc, hs = (t[0].double().numpy() for t in pe)
        P = r.rotary_dim // 2
        assert hc.shape[-1] == 2 * P and r.layout == "half"
        c, s = r.cos_sin(POSITIONS, dtype=np.float64)
        tol = _tol(r)
        assert (np.abs(hc[:, :P] - c) <= tol).all() and (np.abs(hs[:, :P] - s) <= tol).all(), \
            (name, i, np.abs(hc[:, :P] - c).max())
    if default_muse:
        assert n_none == 3  # layers 0, 4, 8
    else:
        assert n_none == sum(1 for t in thetas if t == 0)


def test_layer_bases_five_ways_refused():
    """Five distinct values (NoPE counted) exceed the four groups a model holds:
    refused by name, never merged."""
    d = _layer_bases_config("granite_swa", [0, 1e4, 2e4, 3e4, 4e4]).to_dict()
    with pytest.raises(ValueError, match="layer_rope_theta gives more than 4 distinct bases"):
        posenc.RoPE.from_config(d, layer=1)
