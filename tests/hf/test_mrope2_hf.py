"""posenc's hw-alternating M-RoPE rule against transformers' own running
code: ERNIE 4.5 VL's rotary module and attention rotation (transformers
5.23.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py L56-126,
L166-197), read from configs built at test time (no weights)."""
import importlib

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")

import posenc  # noqa: E402


def positions(n=40):
    # [3, 1, n]: rows t, h, w (get_rope_index's order, L1130), all distinct
    t = torch.arange(n)
    return torch.stack((t, (t * 7) % 23, (t * 5) % 17))[:, None, :]


def ernie_text(section=None, theta=500000.0, hidden=2560, heads=20):
    rp = {"rope_type": "default", "rope_theta": theta}
    if section is not None:
        rp["mrope_section"] = section
    # baidu/ERNIE-4.5-VL-28B-A3B-PT's text model: hidden 2560, 20 heads
    # (head_dim 128, 64 pairs), theta 500000, section [22, 22, 20] (the
    # config class's and the rotary module's defaults,
    # configuration_ernie4_5_vl_moe.py L84, L122-126; modeling L72)
    return transformers.AutoConfig.for_model(
        "ernie4_5_vl_moe", text_config=dict(
            hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=4,
            num_hidden_layers=2, intermediate_size=64, vocab_size=96, rope_parameters=rp))


@pytest.mark.parametrize("section", [None, [22, 22, 20], [16, 16, 32], [30, 30, 4]])
def test_ernie_rotation_matches_the_module(section):
    cfg = ernie_text(section)
    hf = importlib.import_module("transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe")
    mod = hf.Ernie4_5_VLMoeTextRotaryEmbedding(cfg.text_config)
    pos = positions()
    q = torch.randn(1, 2, 40, 128, dtype=torch.float64,
                    generator=torch.Generator().manual_seed(1))
    hc, hs = mod(q, pos)
    want, _ = hf.apply_rotary_pos_emb(q, q, hc, hs)  # float32 arithmetic inside
    rope = posenc.RoPE.from_config(cfg)
    s = section or [22, 22, 20]
    assert rope.layout == "interleaved" and rope.head_dim == 128 and rope.base == 500000.0
    # posenc's sections are [t, h, w]; ERNIE's config writes [h, w, t]
    assert rope.mrope == ([s[2], s[0], s[1]], "hw-alternating")
    m = posenc.MRoPE(rope, *rope.mrope)
    got = m.apply(q, pos, layout="bhsd")
    # transformers' float32 angles at positions < 40 and float32 products
    assert float((got - want.double()).abs().max()) <= 4e-5
    # cos, sin: the module's are repeat_interleave(2)d pair values
    c, sn = m.cos_sin(pos)  # [1, 40, 64]
    tol = 2e-6 + 40 * 2.0 ** -20
    assert np.abs(hc[..., 0::2].numpy() - c).max() <= tol
    assert np.abs(hs[..., 1::2].numpy() - sn).max() <= tol
    # a wrong rule must not pass the same check (the test can fail)
    other = posenc.MRoPE(rope, [s[2], s[0], s[1]], rule="chunks")
    assert np.abs(hc[..., 0::2].numpy() - other.cos_sin(pos)[0]).max() > 1e-2


def test_ernie_text_positions_are_plain_rope():
    # all three rows equal (a text token): the module's cos and sin are plain
    # RoPE's at that position, and posenc's M-RoPE equals RoPE.apply
    cfg = ernie_text()
    hf = importlib.import_module("transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe")
    mod = hf.Ernie4_5_VLMoeTextRotaryEmbedding(cfg.text_config)
    t = torch.arange(0, 4000, 97)
    pos = t[None, None, :].expand(3, 1, -1)
    hc, _ = mod(torch.zeros(1), pos)
    inv = 1.0 / (500000.0 ** (np.arange(0, 128, 2) / 128.0))
    ref = np.cos(t.numpy()[:, None].astype(np.float64) * inv)  # float64 oracle
    assert np.abs(hc[0, :, 0::2].numpy() - ref).max() <= 4000 * 2.0 ** -22 + 1e-6
    rope = posenc.RoPE.from_config(cfg)
    x = np.random.default_rng(3).standard_normal((t.numel(), 128)).astype(np.float32)
    got = posenc.MRoPE(rope, *rope.mrope).apply(x, pos[:, 0, :].numpy())
    assert np.array_equal(got, rope.apply(x, positions=t.numpy(), inplace=False))


@pytest.mark.parametrize("rp,word", [
    ({"rope_type": "linear", "rope_theta": 1e4, "factor": 2.0}, "default type only"),
    ({"rope_type": "default", "rope_theta": 1e4, "mrope_section": [20, 24, 20]},
     "hw-alternating"),
])
def test_ernie_refusals_match_the_code(rp, word):
    # what the module raises on (L63-66; torch.stack of unequal h and w, L124),
    # posenc refuses by name
    cfg = transformers.AutoConfig.for_model(
        "ernie4_5_vl_moe_text", hidden_size=2560, num_attention_heads=20, num_hidden_layers=1,
        rope_parameters=rp)
    hf = importlib.import_module("transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe")
    with pytest.raises(Exception):
        mod = hf.Ernie4_5_VLMoeTextRotaryEmbedding(cfg)
        mod(torch.zeros(1), positions())
    with pytest.raises(posenc.Error, match=word):
        posenc.RoPE.from_config(cfg)


def test_ernie_has_no_drop_in_module():
    # posenc.torch's RotaryEmbedding makes the chunk and round-robin rules
    # only: for ERNIE it refuses by the rule's name (never the chunks), and
    # patch() says so naming the module
    import posenc.torch as pt

    cfg = ernie_text()
    with pytest.raises(ValueError, match="hw-alternating"):
        pt.RotaryEmbedding(cfg.text_config)
    hf = importlib.import_module("transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe")
    model = hf.Ernie4_5_VLMoeTextModel(cfg.text_config)
    with pytest.raises(ValueError, match="unsupported: .*hw-alternating"):
        pt.patch(model)


# ---- NeoMME ------------------------------------------------------------------------------


def neomme(**kw):
    # the class's defaults (configuration_neomme.py L72-107: head_dim 64,
    # sliding theta 1e4 whole head, full theta 1e6 a quarter) on a small
    # model: 6 layers, full at 5 ((i + 1) % 6 == 0 and the last)
    d = dict(hidden_size=256, num_attention_heads=4, num_key_value_heads=2, head_dim=64,
             num_hidden_layers=6, intermediate_size=64, vocab_size=96)
    d.update(kw)
    return transformers.AutoConfig.for_model("neomme", **d)


def rows_cols(n=40):
    # [2, 1, n]: document-image rows and columns, all distinct from the index
    t = torch.arange(n)
    return torch.stack(((t * 7) % 23, (t * 5) % 17 + 3))[:, None, :]


@pytest.mark.parametrize("layer,ltype,rot", [(0, "sliding_attention", 64),
                                             (5, "full_attention", 16)])
def test_neomme_rotation_matches_the_module(layer, ltype, rot):
    cfg = neomme()
    assert cfg.layer_types[layer] == ltype
    hf = importlib.import_module("transformers.models.neomme.modeling_neomme")
    mod = hf.NeoMMERotaryEmbedding(cfg)
    pos2 = rows_cols()
    q = torch.randn(1, 2, 40, 64, dtype=torch.float64,
                    generator=torch.Generator().manual_seed(4))
    hc, hs = mod(q, pos2, ltype)  # float32 angles, then float64 (x's dtype)
    want, _ = hf.apply_rotary_pos_emb(q, q, hc, hs)
    rope = posenc.RoPE.from_config(cfg, layer=layer)
    assert rope.layout == "half" and rope.rotary_dim == rot and rope.head_dim == 64
    assert rope.mrope == ([0, rot // 4, rot // 4], "hw-alternating")
    m = posenc.MRoPE(rope, *rope.mrope)
    # posenc's rows are t, h, w: NeoMME has no t (section 0), rows -> h, columns -> w
    pos3 = torch.cat((torch.zeros_like(pos2[:1]), pos2))
    got = m.apply(q, pos3, layout="bhsd")
    assert float((got - want).abs().max()) <= 4e-5
    assert torch.equal(got[..., rot:], q[..., rot:])  # the unrotated part
    c, s = m.cos_sin(pos3)
    p = rot // 2
    tol = 2e-6 + 40 * 2.0 ** -20
    assert np.abs(hc[..., :p].numpy() - c).max() <= tol
    assert np.abs(hs[..., p:].numpy() - s).max() <= tol
    # rows and columns swapped must not pass (the test can fail)
    sw = m.cos_sin(pos3[[0, 2, 1]])[0]
    assert np.abs(hc[..., :p].numpy() - sw).max() > 1e-2


def test_neomme_text_positions_are_plain_rope():
    # the model's own positions for text: the token index on both axes
    # (modeling_neomme.py L561-565)
    cfg = neomme()
    hf = importlib.import_module("transformers.models.neomme.modeling_neomme")
    mod = hf.NeoMMERotaryEmbedding(cfg)
    t = torch.arange(0, 3000, 61)
    hc, _ = mod(torch.zeros(1), t[None, :], "sliding_attention")
    inv = 1.0 / (10000.0 ** (np.arange(0, 64, 2) / 64.0))
    ref = np.cos(t.numpy()[:, None].astype(np.float64) * inv)
    assert np.abs(hc[0, :, :32].numpy() - ref).max() <= 3000 * 2.0 ** -22 + 1e-6
    for layer in (0, 5):
        rope = posenc.RoPE.from_config(cfg, layer=layer)
        x = np.random.default_rng(layer).standard_normal((t.numel(), 64)).astype(np.float32)
        p = t.numpy()
        got = posenc.MRoPE(rope, *rope.mrope).apply(x, np.stack([p, p, p]))
        assert np.array_equal(got, rope.apply(x, positions=p, inplace=False))


def test_neomme_config_rules():
    # a config saved by transformers (every set complete) and the class's
    # defaults with no rope_parameters read alike
    d = neomme().to_dict()
    assert posenc.RoPE.from_config(d, layer=5).base == 1e6
    d.pop("rope_parameters")
    assert posenc.RoPE.from_config(d, layer=5).rotary_dim == 16
    # what the class would fill in from a top-level rope_theta or its own
    # per-type partial default: refused by name
    with pytest.raises(posenc.Error, match="rope_theta: NeoMME's config class"):
        posenc.RoPE.from_config(dict(d, rope_theta=5e5))
    part = neomme().to_dict()
    del part["rope_parameters"]["full_attention"]["partial_rotary_factor"]
    with pytest.raises(posenc.Error, match="full_attention.partial_rotary_factor"):
        posenc.RoPE.from_config(part)


def test_neomme_has_no_drop_in_module():
    import posenc.torch as pt

    cfg = neomme()
    with pytest.raises(ValueError, match="hw-alternating"):
        pt.RotaryEmbedding(cfg)
    hf = importlib.import_module("transformers.models.neomme.modeling_neomme")
    with pytest.raises(ValueError, match="unsupported: .*hw-alternating"):
        pt.patch(hf.NeoMMEModel(cfg))


# ---- HunYuan VL: refused, and why ----------------------------------------------------------


@pytest.mark.parametrize("section", [[16, 16, 16, 16], [32, 16, 16]])
def test_hunyuan_vl_xdrope_is_no_per_pair_rotation(section):
    # HunyuanOCR's xdrope_section [16, 16, 16, 16] (four axes) and a 3-axis
    # one: the chunks of the doubled cos/sin (modeling_hunyuan_vl.py L162-170)
    # give x[k] and x[k + 64] angles from different axes, so a pair's norm
    # changes: no per-pair M-RoPE rule reproduces it, and posenc refuses the
    # family by that reason
    hf = importlib.import_module("transformers.models.hunyuan_vl.modeling_hunyuan_vl")
    cfg = transformers.AutoConfig.for_model(
        "hunyuan_vl_text", hidden_size=256, num_attention_heads=2, head_dim=128,
        num_hidden_layers=1, rope_parameters={"rope_type": "default", "rope_theta": 1e4,
                                              "mrope_section": section})
    mod = hf.HunYuanVLRotaryEmbedding(cfg)
    n = len(section)
    t = torch.arange(10)
    pos = torch.stack([t, (t * 3) % 7, (t * 5) % 11, t // 4][:n])[:, None, :]
    c, s = mod(torch.zeros(1), pos)
    assert float((c[..., :64] - c[..., 64:]).abs().max()) > 0.1
    q = torch.randn(1, 1, 10, 128, generator=torch.Generator().manual_seed(6))
    qe, _ = hf.apply_rotary_pos_emb(q, q, c, s)
    norm = lambda v: v[..., :64] ** 2 + v[..., 64:] ** 2  # noqa: E731
    assert float((norm(q) - norm(qe)).abs().max()) > 1e-2
    # text positions (every axis equal): both halves alike, plain RoPE
    ce, _ = mod(torch.zeros(1), t[None, None, :].expand(n, 1, -1))
    assert torch.equal(ce[..., :64], ce[..., 64:])
    with pytest.raises(posenc.Error, match="two elements of a pair follow different axes"):
        posenc.RoPE.from_config(cfg)
