"""posenc.torch.patch inside real transformers models (tiny random weights
built from real configs in tests/data): every family's rotary module replaced
with its own call convention, logits unchanged at small positions, the
per-layer-type RoPE of Gemma 3, Gemma 4 and OLMo 3 exact, generation, torch.compile."""
import copy
import json
import math
import os

import mpmath
import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")

import posenc  # noqa: E402
import posenc.torch as pt  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
mpmath.mp.dps = 50

SMALL = dict(hidden_size=64, intermediate_size=96, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=96, pad_token_id=0)


def load(name):
    path = os.path.join(ROOT, "tests", "data", "models", name)
    if not os.path.exists(path):
        path = os.path.join(ROOT, "tests", "data", name)
    with open(path) as f:
        return json.load(f)


def tiny_config(name, n_layers=4, text_only=True, **over):
    """The real config with small widths and n_layers (lists per layer cut)."""
    d = load(name)
    if text_only and "text_config" in d:
        d = dict(d["text_config"])
    d = copy.deepcopy(d)
    d.update(SMALL)
    d["num_hidden_layers"] = n_layers
    for key in ("layer_types", "no_rope_layers"):
        if isinstance(d.get(key), list):
            d[key] = d[key][:n_layers]
    d.update(over)
    d.pop("architectures", None)
    d["torch_dtype"] = "float32"  # the checkpoints' bfloat16 would hide float32 differences
    d.pop("dtype", None)
    return transformers.AutoConfig.for_model(**d)


def tiny_model(name, **kw):
    torch.manual_seed(0)
    cfg = tiny_config(name, **kw)
    return transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float32).eval()


def capture_position_embeddings(model):
    """{layer index: (cos, sin)} that each decoder layer's attention receives."""
    got = {}

    def hook(idx):
        def f(module, args, kwargs):
            got[idx] = kwargs["position_embeddings"]
        return f

    handles = [layer.self_attn.register_forward_pre_hook(hook(i), with_kwargs=True)
               for i, layer in enumerate(model.model.layers)]
    return got, handles


def ulp_ok(got, exact):
    """|got - exact| within 1 ulp of float32 (2^-25 absolute below 1/4)."""
    g = np.asarray(got, np.float64)
    e = np.asarray(exact, np.float64)
    tol = np.maximum(np.spacing(np.abs(e).astype(np.float32)).astype(np.float64),
                     np.where(np.abs(e) < 0.25, 2.0 ** -25, 0.0))
    return float(np.max(np.abs(g - e) / tol))


def mp_table(inv_freq, positions, a=1):
    """a cos, a sin of positions x inv_freq (mpf list), float64 [n, P]."""
    c = np.array([[float(a * mpmath.cos(p * f)) for f in inv_freq] for p in positions])
    s = np.array([[float(a * mpmath.sin(p * f)) for f in inv_freq] for p in positions])
    return c, s


def mp_default(base, dim, factor=1):
    return [mpmath.mpf(base) ** (-mpmath.mpf(2 * k) / dim) / factor for k in range(dim // 2)]


def mp_yarn(base, dim, factor, orig, beta_fast, beta_slow):
    """YaRN's frequencies as transformers computes them
    (modeling_rope_utils.py _compute_yarn_parameters), in 50 digits."""
    def corr(rot):
        return dim * mpmath.log(orig / (rot * 2 * mpmath.pi)) / (2 * mpmath.log(base))
    low = max(mpmath.floor(corr(beta_fast)), 0)
    high = min(mpmath.ceil(corr(beta_slow)), dim - 1)
    if low == high:
        high += mpmath.mpf("0.001")
    out = []
    for k in range(dim // 2):
        extra = mpmath.mpf(base) ** (-mpmath.mpf(2 * k) / dim)
        ramp = min(max((k - low) / (high - low), 0), 1)
        keep = 1 - ramp  # inv_freq_extrapolation_factor
        out.append(extra / factor * (1 - keep) + extra * keep)
    return out


# ---- acceptance: per-layer-type RoPE inside Gemma 3 and OLMo 3 ------------------------


def check_layer_types(model, want):
    """want: {layer_type: (inv_freq mpf list, attention factor)}."""
    pos = [0, 1, 7, 100, 4095, 70000]
    ids = torch.zeros(1, len(pos), dtype=torch.long)
    got, handles = capture_position_embeddings(model)
    with torch.no_grad():
        model(ids, position_ids=torch.tensor([pos]))
    for h in handles:
        h.remove()
    types = model.config.layer_types
    seen = set()
    for i, (cos, sin) in got.items():
        inv, a = want[types[i]]
        c, s = mp_table(inv, pos, a)
        p = len(inv)
        assert cos.dtype == torch.float32 and cos.shape == (1, len(pos), 2 * p)
        assert np.array_equal(cos[0, :, :p].numpy(), cos[0, :, p:].numpy())
        assert ulp_ok(cos[0, :, :p], c) <= 1.0, (i, types[i])
        assert ulp_ok(sin[0, :, :p], s) <= 1.0, (i, types[i])
        seen.add(types[i])
    assert seen == set(want)


def test_gemma3_full_attention_layers_get_their_own_rope():
    # Gemma 3 12B: global layers base 1e6 with linear factor 8, local layers
    # base 10000 (rope_local_base_freq); modeling_gemma3.py:155-214, 550-556
    m = tiny_model("gemma3-gemma-3-12b-it.json", n_layers=6, head_dim=32)
    assert m.config.layer_types.count("full_attention") == 1
    report = pt.patch(m)
    assert [r.name for r in report] == ["model.rotary_emb"]
    assert "Gemma3RotaryEmbedding" in str(report) and "layer_type" in str(report)
    check_layer_types(m, {"full_attention": (mp_default(1e6, 32, 8), 1),
                          "sliding_attention": (mp_default(10000, 32), 1)})


def mp_proportional(base, dim, p, factor=1):
    """Gemma 4's full layers (modeling_rope_utils.py
    _compute_proportional_rope_parameters): int(p * dim // 2) pairs with the
    exponent over the whole dim, the rest 0."""
    n = int(p * dim // 2)
    return [mpmath.mpf(base) ** (-mpmath.mpf(2 * k) / dim) / factor if k < n else mpmath.mpf(0)
            for k in range(dim // 2)]


def test_gemma4_full_attention_layers_get_their_own_rope():
    # Gemma 4 31B-it: full layers head global_head_dim (here 64) with the
    # proportional RoPE (p 0.25, base 1e6), sliding layers head_dim (32) with
    # plain RoPE base 10000; modeling_gemma4.py L1078-1147
    m = tiny_model("gemma4-gemma-4-31b-it.json", n_layers=6, head_dim=32, global_head_dim=64)
    assert m.config.layer_types.count("full_attention") == 1
    report = pt.patch(m)
    assert [r.name for r in report] == ["model.rotary_emb"]
    assert "Gemma4TextRotaryEmbedding" in str(report) and "layer_type" in str(report)
    check_layer_types(m, {"full_attention": (mp_proportional(1e6, 64, 0.25), 1),
                          "sliding_attention": (mp_default(10000, 32), 1)})
    # the pairs past the rotated ones: cos exactly 1, sin exactly 0
    cos, sin = m.model.rotary_emb(torch.zeros(1), torch.tensor([[5, 123456]]),
                                  "full_attention")
    assert cos.shape == (1, 2, 64)
    assert torch.all(cos[..., 8:32] == 1) and torch.all(sin[..., 8:32] == 0)
    assert torch.all(sin[0, 1, :8] != 0)


def test_olmo3_full_attention_layers_get_their_own_rope():
    # OLMo 3: full layers YaRN (factor 8 over 8192, attention factor given),
    # sliding layers plain; modeling_olmo3.py:269-300, 426
    m = tiny_model("olmo3-synthetic.json", n_layers=4,
                   layer_types=["sliding_attention", "full_attention"] * 2)
    pt.patch(m)
    yarn = mp_yarn(mpmath.mpf(500000), 16, 8, 8192, 32, 1)
    check_layer_types(m, {"full_attention": (yarn, mpmath.mpf(1.2079441541679836)),
                          "sliding_attention": (mp_default(500000, 16), 1)})


# ---- logits and generation ---------------------------------------------------------

FAMILIES = {
    "llama-3.1": ("llama-3.1-8b.json", {}),
    "gemma3": ("gemma3-gemma-3-12b-it.json", dict(n_layers=6, head_dim=32)),
    "gemma4": ("gemma4-gemma-4-31b-it.json", dict(n_layers=6, head_dim=32, global_head_dim=64)),
    "gemma4 (KV-shared layers)": ("gemma4-text-default-rope-synthetic.json", dict(head_dim=16,
                                                                                  n_layers=8)),
    "gemma3n": ("gemma3n-synthetic.json", dict(head_dim=16, n_layers=10,
                                               intermediate_size=[96] * 10)),
    "olmo3": ("olmo3-synthetic.json", dict(layer_types=["sliding_attention", "full_attention"] * 2)),
    "phi-3.5": ("phi3-phi-3.5-mini-instruct.json", dict(hidden_size=192, num_attention_heads=2,
                                                        num_key_value_heads=1)),
    "deepseek-v3": ("deepseek-v3-synthetic.json", dict(
        num_key_value_heads=4, head_dim=16, qk_rope_head_dim=16, qk_nope_head_dim=16,
        v_head_dim=16, q_lora_rank=32, kv_lora_rank=32, n_routed_experts=4,
        num_experts_per_tok=2, moe_intermediate_size=32, first_k_dense_replace=1,
        n_group=1, topk_group=1)),
    # MLA's interleaved RoPE and the Sparse Attention indexer's half-split one
    # consume the same cos and sin: one patched module serves both
    "deepseek-v3.2 (indexer)": ("real/deepseek-v3.2.json", dict(
        num_key_value_heads=4, qk_rope_head_dim=16, qk_nope_head_dim=16, v_head_dim=16,
        q_lora_rank=32, kv_lora_rank=32, n_routed_experts=4, num_experts_per_tok=2,
        moe_intermediate_size=32, first_k_dense_replace=1, n_group=1, topk_group=1,
        index_n_heads=2, index_head_dim=32, index_topk=8)),
    "smollm3 (NoPE layers)": ("smollm3-3b.json", {}),
    "cohere2 (NoPE full layers)": ("cohere2-synthetic.json", dict(
        layer_types=["sliding_attention"] * 3 + ["full_attention"])),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_patched_logits_equal_unpatched_at_small_positions(family):
    name, over = FAMILIES[family]
    m = tiny_model(name, **over)
    ids = torch.randint(1, 90, (2, 16), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ref = m(ids).logits
    report = pt.patch(m)
    assert len([r for r in report if r.by]) == 1
    assert isinstance(m.model.rotary_emb, pt.RotaryEmbedding)
    with torch.no_grad():
        got = m(ids).logits
    # positions < 16: HF's float32 angles are off by < 16 * 2^-24; posenc is exact
    scale = float(ref.abs().max())
    assert float((got - ref).abs().max()) <= 1e-5 * scale, family


def test_qwen2_5_vl_mrope_logits():
    # M-RoPE: position_ids [3, batch, seq]; modeling_qwen2_5_vl.py:527-544
    torch.manual_seed(0)
    d = load("qwen2.5-vl-synthetic.json")
    d.update(hidden_size=256, intermediate_size=64, num_attention_heads=2,
             num_key_value_heads=1, num_hidden_layers=2, vocab_size=96)
    d["vision_config"] = dict(depth=1, hidden_size=32, num_heads=2, intermediate_size=32,
                              out_hidden_size=256, spatial_merge_size=2, tokens_per_second=2)
    d.pop("architectures")
    cfg = transformers.AutoConfig.for_model(**d)
    m = transformers.Qwen2_5_VLForConditionalGeneration(cfg).eval()
    ids = torch.randint(1, 90, (1, 20), generator=torch.Generator().manual_seed(2))
    t = torch.arange(20)
    pos = torch.stack((t, (t * 7) % 13, (t * 5) % 11))[:, None, :]
    with torch.no_grad():
        ref = m(ids, position_ids=pos).logits
    report = pt.patch(m)
    replaced = [r for r in report if r.by]
    assert len(replaced) == 1 and "mrope" in replaced[0].by
    assert any(r.by is None and "Vision" in r.replaced for r in report)  # listed, kept
    with torch.no_grad():
        got = m(ids, position_ids=pos).logits
    assert float((got - ref).abs().max()) <= 1e-5 * float(ref.abs().max())
    # the values themselves: pair k takes the axis mrope_section gives it
    rot = m.model.language_model.rotary_emb
    cos, sin = rot(torch.zeros(1), pos)
    rope = rot.rope
    c3, s3 = rope.cos_sin(pos.numpy(), dtype=np.float64)  # [3, 1, 20, 64]
    axis = [0] * 16 + [1] * 24 + [2] * 24
    for k, a in enumerate(axis):
        assert np.abs(cos[0, :, k].numpy() - c3[a, 0, :, k]).max() <= 2 ** -24
        assert np.abs(sin[0, :, 64 + k].numpy() - s3[a, 0, :, k]).max() <= 2 ** -24


@pytest.mark.parametrize("family", ["llama-3.1", "gemma3"])
def test_generate_works_patched(family):
    name, over = FAMILIES[family]
    m = tiny_model(name, **over)
    ids = torch.randint(1, 90, (1, 6), generator=torch.Generator().manual_seed(3))
    kw = dict(max_new_tokens=6, do_sample=False, pad_token_id=0)
    ref = m.generate(ids, **kw)
    pt.patch(m)
    got = m.generate(ids, **kw)
    assert got.shape == (1, 12)
    assert torch.equal(got, ref)


# ---- module-level: far positions, switches, refusals ----------------------------------


def test_far_positions_closer_to_exact_than_transformers():
    cfg = tiny_config("llama-3.1-8b.json", head_dim=128)
    hf = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    ours = pt.RotaryEmbedding(cfg)
    pos = torch.tensor([[100000, 333333, 777777, 1000000]])
    x = torch.zeros(1)
    hc, hs = hf(x, pos)
    pc, ps = ours(x, pos)
    rope = ours.rope
    inv = [mpmath.mpf(v) + mpmath.mpf(w) for v, w in zip(rope.inv_freq, rope.inv_freq_lo)]
    c, s = mp_table(inv, pos[0].tolist())
    assert ulp_ok(pc[0, :, :64], c) <= 1.0 and ulp_ok(ps[0, :, :64], s) <= 1.0
    hf_err = float(np.abs(hc[0, :, :64].numpy() - c).max())
    pe_err = float(np.abs(pc[0, :, :64].numpy() - c).max())
    assert hf_err > 1e-3 and pe_err < 1e-7, (hf_err, pe_err)


def test_longrope_switches_with_sequence_length():
    # modeling_rope_utils.py:47-81: long factors when max(position_ids) + 1 > 4096
    cfg = tiny_config("phi3-phi-3.5-mini-instruct.json", **FAMILIES["phi-3.5"][1])
    hf = transformers.models.phi3.modeling_phi3.Phi3RotaryEmbedding(cfg)
    ours = pt.RotaryEmbedding(cfg)
    x = torch.zeros(1)
    for last in (100, 4096, 4097, 6000, 50):
        pos = torch.arange(last - 8, last)[None]
        hc, hs = hf(x, pos)
        pc, ps = ours(x, pos)
        tol = 2e-6 + last * 2.0 ** -20
        assert float((hc - pc).abs().max()) <= tol and float((hs - ps).abs().max()) <= tol, last
        assert (ours.rope.seq_len > 4096) == (last > 4096)


def test_dynamic_ntk_switches_like_transformers():
    cfg = tiny_config("llama-2-7b-dynamic.json", head_dim=128)
    hf = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    ours = pt.RotaryEmbedding(cfg)
    x = torch.zeros(1)
    for last in (64, 6000, 9000, 64):
        pos = torch.arange(last - 16, last)[None]
        hc, hs = hf(x, pos)
        pc, ps = ours(x, pos)
        tol = 2e-6 + last * 2.0 ** -20
        assert float((hc - pc).abs().max()) <= tol and float((hs - ps).abs().max()) <= tol, last


def test_arguments_are_never_ignored():
    g = pt.RotaryEmbedding(tiny_config("gemma3-gemma-3-12b-it.json", n_layers=6, head_dim=32))
    pos = torch.arange(4)[None]
    x = torch.zeros(1)
    with pytest.raises(TypeError, match="layer_type"):
        g(x, pos)
    with pytest.raises(ValueError, match="chunked_attention"):
        g(x, pos, "chunked_attention")
    with pytest.raises(TypeError, match="seq_len"):
        g(x, pos, "full_attention", seq_len=4)
    full, sliding = g(x, pos, "full_attention"), g(x, pos, "sliding_attention")
    assert not torch.equal(full[0], sliding[0])  # the two types really differ
    plain = pt.RotaryEmbedding(tiny_config("llama-3.1-8b.json"))
    with pytest.raises(TypeError, match="layer_type='full_attention'"):
        plain(x, pos, "full_attention")
    with pytest.raises(ValueError, match=r"\[batch, seq\]"):
        plain(x, torch.arange(4))


def test_unsupported_family_is_an_error():
    cfg = transformers.GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=50)
    m = transformers.GPT2LMHeadModel(cfg)
    with pytest.raises(ValueError, match="no rotary module"):
        pt.patch(m)
    # a module whose values posenc reads differently is refused, not patched
    m = tiny_model("llama-3.1-8b.json")
    m.model.rotary_emb.inv_freq.mul_(0.5)  # no longer what the config says
    with pytest.raises(ValueError, match="differs from the module's own"):
        pt.patch(m)
    assert not isinstance(m.model.rotary_emb, pt.RotaryEmbedding)


def test_torch_compile_patched_llama_has_no_graph_break():
    m = tiny_model("llama-3.1-8b.json", n_layers=2)
    pt.patch(m)
    ids = torch.randint(1, 90, (1, 10), generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        eager = m(ids).logits
        torch._dynamo.reset()
        explained = torch._dynamo.explain(m)(ids)
    assert explained.graph_break_count == 0, explained.break_reasons
    assert explained.graph_count == 1
    compiled = torch.compile(m, backend="eager", fullgraph=True)
    with torch.no_grad():
        got = compiled(ids).logits
    assert torch.equal(got, eager)


def test_one_layer_as_a_module():
    cfg = tiny_config("gemma3-gemma-3-12b-it.json", n_layers=6, head_dim=32)
    full = cfg.layer_types.index("full_attention")
    g = pt.RotaryEmbedding(cfg)
    one = pt.RotaryEmbedding(cfg, layer=full)
    pos = torch.arange(50)[None]
    x = torch.zeros(1)
    assert one.kind == "plain"
    assert torch.equal(one(x, pos)[0], g(x, pos, "full_attention")[0])
    smol = tiny_config("smollm3-3b.json")
    nope = smol.no_rope_layers.index(0)
    with pytest.raises(posenc.Error, match=f"layer {nope} .*no RoPE"):
        pt.RotaryEmbedding(smol, layer=nope)


@pytest.mark.parametrize("start", [100000, 1000000])
def test_far_positions_logits_closer_to_a_float64_reference(start):
    """Logits at positions 10^5 and 10^6: the model in float64 with posenc's
    float64 cos/sin is the reference; patched float32 is closer to it than
    unpatched float32 (whose float32 angles are off by ~pos * 2^-24)."""
    m = tiny_model("llama-3.1-8b.json", n_layers=2)
    ids = torch.randint(1, 90, (1, 16), generator=torch.Generator().manual_seed(5))
    pos = torch.arange(start, start + 16)[None]
    rope = pt.RotaryEmbedding(m.config).rope

    class Exact64(torch.nn.Module):
        def forward(self, x, position_ids):
            c, s = rope.cos_sin(position_ids.numpy(), dtype=np.float64)
            c, s = torch.from_numpy(c), torch.from_numpy(s)
            return torch.cat((c, c), -1).to(x.dtype), torch.cat((s, s), -1).to(x.dtype)

    ref_model = copy.deepcopy(m).double()
    ref_model.model.rotary_emb = Exact64()
    with torch.no_grad():
        ref = ref_model(ids, position_ids=pos).logits
        hf = m(ids, position_ids=pos).logits.double()
        pt.patch(m)
        ours = m(ids, position_ids=pos).logits.double()
    err_hf = float((hf - ref).abs().max())
    err_ours = float((ours - ref).abs().max())
    print(f"positions {start}..: max |logit error| float32 HF {err_hf:.3g}, patched "
          f"{err_ours:.3g} (logits up to {float(ref.abs().max()):.3g})")
    assert err_ours * 10 < err_hf, (err_ours, err_hf)
    assert err_ours <= 1e-5 * float(ref.abs().max())
