"""posenc.MRoPE and posenc.t5_bucket / t5_bias against transformers' own code
(Qwen2.5-VL's and Qwen3-VL's rotary modules, T5Attention)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")

import posenc  # noqa: E402
import posenc.torch as pt  # noqa: E402


def positions():
    t = torch.arange(40)
    return torch.stack((t, (t * 7) % 23, (t * 5) % 17))[:, None, :]  # [3, 1, 40]


@pytest.mark.parametrize("mt,section,rule", [("qwen2_5_vl_text", [16, 24, 24], "chunks"),
                                             ("qwen3_vl_text", [24, 20, 20], "interleaved")])
def test_mrope_matches_the_qwen_modules(mt, section, rule):
    # modeling_qwen2_5_vl.py:527-544 (chunks), modeling_qwen3_vl.py:395-412 (round robin)
    cfg = transformers.AutoConfig.for_model(
        mt, hidden_size=256, num_attention_heads=2, num_key_value_heads=1, head_dim=128,
        num_hidden_layers=2, rope_parameters={"rope_type": "default", "rope_theta": 1e6,
                                              "mrope_section": section})
    mod = transformers.AutoModel.from_config(cfg).rotary_emb
    pos = positions()
    hc, hs = mod(torch.zeros(1), pos)
    m = posenc.MRoPE(posenc.RoPE(128, base=1e6), section, rule=rule)
    c, s = m.cos_sin(pos)  # [1, 40, 64]
    tol = 2e-6 + 40 * 2.0 ** -20
    assert np.abs(hc[..., :64].numpy() - c).max() <= tol
    assert np.abs(hs[..., 64:].numpy() - s).max() <= tol
    # and the drop-in module gives the same values, composed as the family does
    ours = pt.RotaryEmbedding(cfg)
    oc, os_ = ours(torch.zeros(1), pos)
    assert np.array_equal(oc[..., :64].numpy(), c) and np.array_equal(os_[..., 64:].numpy(), s)


@pytest.mark.parametrize("bidir,nb,md", [(True, 32, 128), (False, 32, 128), (True, 64, 1000)])
def test_t5_buckets_equal_transformers(bidir, nb, md):
    # transformers/models/t5/modeling_t5.py:216-262 (_relative_position_bucket)
    from transformers.models.t5.modeling_t5 import T5Attention

    q = torch.arange(0, 3000, 7)[:, None]
    k = torch.arange(0, 3000, 5)[None, :]
    want = T5Attention._relative_position_bucket(k - q, bidirectional=bidir, num_buckets=nb,
                                                 max_distance=md)
    got = posenc.t5_bucket(q, k, nb, md, bidir)
    assert torch.equal(got, want)


def test_t5_bias_equals_compute_bias():
    cfg = transformers.T5Config(d_model=32, d_kv=8, num_heads=4, num_layers=1,
                                relative_attention_num_buckets=32,
                                relative_attention_max_distance=128)
    from transformers.models.t5.modeling_t5 import T5Attention

    torch.manual_seed(0)
    att = T5Attention(cfg, has_relative_attention_bias=True)
    want = att.compute_bias(5, 300)  # [1, heads, 5, 300]
    w = att.relative_attention_bias.weight
    got = posenc.t5_bias(w, 5, 300)
    assert torch.equal(got[None], want)
    assert np.array_equal(posenc.t5_bias(w.detach().numpy(), 5, 300), want[0].detach().numpy())


@pytest.mark.parametrize("mt,layout", [("glm4v_text", "interleaved"),
                                       ("glm4v_moe_text", "half"),
                                       ("glm_ocr_text", "interleaved")])
def test_glm4v_mrope_matches_the_modules(mt, layout):
    # GLM-4V: chunks of mrope_section over the rotated part (partial 0.5),
    # repeat_interleave(2) and rotate_half_llm (modeling_glm4v.py L467-526);
    # GLM-4.5V: cat(freq, freq) and rotate_half (modeling_glm4v_moe.py L100-186)
    import importlib

    cfg = transformers.AutoConfig.for_model(
        mt, hidden_size=256, num_attention_heads=2, num_key_value_heads=1, head_dim=128,
        num_hidden_layers=2, intermediate_size=64, vocab_size=96,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                         "partial_rotary_factor": 0.5, "mrope_section": [8, 12, 12]})
    torch.manual_seed(0)
    model = transformers.AutoModel.from_config(cfg).eval()
    mod = model.rotary_emb
    hf = importlib.import_module(type(mod).__module__)
    pos = positions()  # distinct t, h, w rows
    q = torch.randn(1, 2, 40, 128, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    hc, hs = mod(q, pos)
    want, _ = hf.apply_rotary_pos_emb(q, q, hc, hs)
    rope = posenc.RoPE.from_config(cfg)
    assert rope.layout == layout and rope.rotary_dim == 64 and rope.head_dim == 128
    assert rope.mrope == ([8, 12, 12], "contiguous")
    got = posenc.MRoPE(rope, *rope.mrope).apply(q, pos, layout="bhsd")
    # transformers' float32 angles (positions < 40): |q| 40 2^-22 at most
    assert float((got - want).abs().max()) <= 4e-5
    assert torch.equal(got[..., 64:], q[..., 64:])  # the unrotated half
    # the drop-in: the same cos and sin composition, exact angles
    ours = pt.RotaryEmbedding(cfg)
    assert ours.kind == "mrope" and ours.repeat == ("interleave" if layout == "interleaved"
                                                    else "cat")
    oc, os_ = ours(q, pos)
    assert oc.shape == hc.shape and float((oc - hc).abs().max()) <= 1e-5
    assert float((os_ - hs).abs().max()) <= 1e-5
    ids = torch.randint(1, 90, (1, 40), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        ref = model(ids, position_ids=pos).last_hidden_state
    report = pt.patch(model)
    assert [r.by is not None for r in report] == [True]
    with torch.no_grad():
        out = model(ids, position_ids=pos).last_hidden_state
    assert float((out - ref).abs().max()) <= 1e-4 * float(ref.abs().max())
