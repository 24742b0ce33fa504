"""A patched model's ordinary life (issue 33), on a tiny random-weight Llama 3.1
(LlamaConfig, rope_type llama3, 2 layers, hidden 64): deepcopy, pickle,
torch.save and save_pretrained round trips; a cast to bfloat16 then patch;
patching twice; unpatch; the state_dict; negative position ids; the meta
device."""
import copy
import io
import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")

import posenc  # noqa: E402
import posenc.torch as pt  # noqa: E402

LLAMA3 = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
          "high_freq_factor": 4.0, "original_max_position_embeddings": 1024}


def config():
    return transformers.LlamaConfig(
        hidden_size=64, intermediate_size=96, num_attention_heads=4, num_key_value_heads=2,
        num_hidden_layers=2, vocab_size=96, max_position_embeddings=8192,
        rope_parameters=dict(LLAMA3))


def stock(seed=0):
    torch.manual_seed(seed)
    return transformers.LlamaForCausalLM(config()).eval()


IDS = torch.tensor([[5, 17, 3, 90, 41, 8, 8, 60, 2, 77]])
POS = torch.tensor([[0, 1, 2, 3, 700, 1500, 2047, 3000, 5000, 8000]])


def logits(model, ids=IDS, pos=POS):
    with torch.no_grad():
        return model(ids, position_ids=pos).logits


def patched(seed=0):
    m = stock(seed)
    pt.patch(m)
    return m


def exact_cos_sin(positions):
    """posenc's float64 values (cat(f, f) as the module returns them)."""
    rope = posenc.RoPE.from_config(config().to_dict())
    c, s = rope.cos_sin(np.asarray(positions), dtype=np.float64)
    return np.concatenate((c, c), -1), np.concatenate((s, s), -1)


# ---- copies ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "torch.save"])
def test_round_trip_same_logits(how):
    m = patched()
    want = logits(m)
    if how == "deepcopy":
        m2 = copy.deepcopy(m)
    elif how == "pickle":
        m2 = pickle.loads(pickle.dumps(m))
    else:
        buf = io.BytesIO()
        torch.save(m, buf)
        buf.seek(0)
        m2 = torch.load(buf, weights_only=False)
    assert isinstance(m2.model.rotary_emb, pt.RotaryEmbedding)
    assert m2.model.rotary_emb is not m.model.rotary_emb
    assert torch.equal(logits(m2), want)
    # the copy is a model of its own: unpatch works on it, not on the original
    pt.unpatch(m2)
    assert type(m2.model.rotary_emb).__name__ == "LlamaRotaryEmbedding"
    assert isinstance(m.model.rotary_emb, pt.RotaryEmbedding)


def test_save_pretrained_gives_the_stock_module(tmp_path):
    m = patched()
    want = logits(m)
    m.save_pretrained(tmp_path)
    back = transformers.LlamaForCausalLM.from_pretrained(tmp_path).eval()
    assert type(back.model.rotary_emb).__name__ == "LlamaRotaryEmbedding"
    assert torch.equal(logits(back), logits(stock()))
    pt.patch(back)
    assert torch.equal(logits(back), want)


def test_state_dict_keys_are_the_stock_models():
    assert list(patched().state_dict()) == list(stock().state_dict())


# ---- casts, twice, unpatch ------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_cast_then_patch_is_exact_and_says_what_was_wrong(dtype):
    m = stock().to(dtype)
    with pytest.warns(UserWarning, match=f"inv_freq was {str(dtype)[6:]}: its (cos|sin) off by"):
        report = pt.patch(m)
    assert "inv_freq was" in report[0].why and report[0].by is not None
    pos = torch.tensor([list(range(64)) + [1000, 4000, 8191]])
    with torch.no_grad():
        c, s = m.model.rotary_emb(torch.zeros(1), pos)
    ec, es = exact_cos_sin(pos[0].numpy())
    assert np.abs(c[0].double().numpy() - ec).max() < 2 ** -23
    assert np.abs(s[0].double().numpy() - es).max() < 2 ** -23


def test_patching_twice_is_harmless():
    m = patched()
    want = logits(m)
    report = pt.patch(m)
    assert [r.why for r in report] == ["already patched"]
    assert "already patched" in str(report)
    assert torch.equal(logits(m), want)


def test_unpatch_restores_the_stock_modules():
    m = patched()
    assert pt.unpatch(m)[0].by == "LlamaRotaryEmbedding"
    assert type(m.model.rotary_emb).__name__ == "LlamaRotaryEmbedding"
    assert torch.equal(logits(m), logits(stock()))
    assert len(pt.unpatch(m)) == 0


def test_own_module_without_config_is_listed_not_fatal():
    class MyRotaryEmbedding(torch.nn.Module):
        def forward(self, x, position_ids):
            return x, x

    m = stock()
    m.extra = MyRotaryEmbedding()
    report = pt.patch(m)
    mine = [r for r in report if r.name == "extra"]
    assert mine and mine[0].by is None and "no .config" in mine[0].why
    assert isinstance(m.model.rotary_emb, pt.RotaryEmbedding)


# ---- negative positions -----------------------------------------------------------------


def test_negative_position_ids_as_transformers():
    m = stock()
    old = m.model.rotary_emb
    pos = torch.tensor([[-4000, -300, -7, -1, 0, 1, 7, 300]])
    with torch.no_grad():
        want = old(torch.zeros(1), pos)
    pt.patch(m)
    with torch.no_grad():
        got = m.model.rotary_emb(torch.zeros(1), pos)
    ec, es = exact_cos_sin(pos[0].abs().numpy())
    es = es * np.sign(pos[0].numpy())[:, None]
    for g, w, e in zip(got, want, (ec, es)):
        assert np.abs(g[0].double().numpy() - e).max() < 2 ** -23
        # transformers' float32 angle: within its rounding (4000 * 2^-21)
        assert (g - w).abs().max() < 4e-3
    assert torch.allclose(logits(m, IDS[:, :8], pos), logits(stock(), IDS[:, :8], pos),
                          atol=1e-3)


# ---- the meta device --------------------------------------------------------------------


def test_meta_model_patched_runs_and_loads():
    with torch.device("meta"):
        m = transformers.LlamaForCausalLM(config())
    pt.patch(m)
    rot = m.model.rotary_emb
    assert isinstance(rot, pt.RotaryEmbedding)
    with torch.no_grad():
        c, s = rot(torch.empty(1, device="meta"), torch.zeros(2, 5, dtype=torch.long,
                                                            device="meta"))
    assert c.device.type == "meta" and tuple(c.shape) == (2, 5, 16)
    ref = patched()
    m.to_empty(device="cpu")
    m.load_state_dict(ref.state_dict())
    m.eval()
    assert torch.equal(logits(m), logits(ref))
    pt.unpatch(m)  # the stock module comes back built on the CPU
    assert torch.equal(logits(m), logits(stock()))


# ---- the registry's module convention ---------------------------------------------------


@pytest.mark.parametrize("model_type,module,want", [
    ("llama", "models.llama.modeling_llama.LlamaRotaryEmbedding", "plain"),
    ("cohere", "models.cohere.modeling_cohere.CohereRotaryEmbedding", "interleave"),
    ("cohere2", "models.cohere2.modeling_cohere2.Cohere2RotaryEmbedding", "interleave"),
    ("cohere2_moe", "models.cohere2_moe.modeling_cohere2_moe.Cohere2MoeRotaryEmbedding",
     "interleave"),
    ("llama4_text", "models.llama4.modeling_llama4.Llama4TextRotaryEmbedding", "complex"),
])
def test_registry_module_convention_is_transformers(model_type, module, want):
    """posenc_model_hf_module_convention (the registry's hf_module) against
    what transformers' own module does, read from its code."""
    import importlib
    d = {"model_type": model_type, "hidden_size": 64, "num_attention_heads": 4,
         "num_hidden_layers": 4, "max_position_embeddings": 4096, "rope_theta": 10000.0}
    if model_type in ("cohere2", "cohere2_moe"):
        d["layer_types"] = ["sliding_attention"] * 4
    rope = posenc.RoPE.from_config(d)
    assert rope.hf_module == want
    path, _, cls = module.rpartition(".")
    cls = getattr(importlib.import_module("transformers." + path), cls)
    cfg = transformers.AutoConfig.for_model(**d)
    m = cls(cfg)
    kind, repeat = pt._kind_of_module(m), pt._repeat_of_module(m)
    got = "complex" if kind == "complex" else ("interleave" if repeat == "interleave" else
                                               "plain")
    assert got == want


def test_not_a_model_is_refused_by_name():
    for f in (pt.patch, pt.unpatch):
        with pytest.raises(TypeError, match="model must be a torch.nn.Module"):
            f(config())
