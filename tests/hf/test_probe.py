"""tools/hf_probe.py: posenc's scheme of each registry family against the
layers transformers builds and runs (random weights, nothing downloaded).

Each fixture config in tests/data/models whose model_type transformers 5.23
has is probed: every attention layer's q and k before and after the position
step, at positions 0..15 and 0..10^6, against posenc's answer for that layer.
The expected outcome of each is written below; a change either way fails."""
import glob
import json
import os
import sys

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import hf_probe  # noqa: E402
import posenc  # noqa: E402

MODELS = os.path.join(ROOT, "tests", "data", "models")

#: Fixtures whose outcome is not "verified", and why.
EXPECTED = {
    # transformers 5.23's PhimoeRotaryEmbedding.forward calls rope_init_fn(config)
    # without seq_len, so short_factor at every length (modeling_phimoe.py L81-96);
    # posenc takes long_factor past original_max_position_embeddings as LongRoPE
    # and Phi-3.5-MoE's own code do. Listed in docs/MODELS.md.
    "phimoe-synthetic.json": hf_probe.DISAGREE,
    # Whisper does not run from the probe's inputs
    "whisper-tiny-synthetic.json": hf_probe.NOT_BUILDABLE,
    # refused by posenc, with the reason
    "bad-bert-relative-key.json": hf_probe.REFUSED,
    "bad-llama-local-base.json": hf_probe.REFUSED,
    "bad-unknown-wrapper-known-part.json": hf_probe.REFUSED,
    # transformers 5.23 cannot build ZambaModel from a config here: its
    # tied-weights pattern for the shared block (modeling_zamba.py L853-858)
    # fails the checkpoint-key check of from_config
    "zamba-synthetic.json": hf_probe.NOT_BUILDABLE,
}


def _fixtures():
    from transformers import CONFIG_MAPPING

    out = []
    paths = sorted(glob.glob(os.path.join(MODELS, "*.json"))) + \
        sorted(glob.glob(os.path.join(MODELS, "..", "*.json")))
    for path in paths:
        try:
            with open(path) as f:
                mt = json.load(f).get("model_type")
        except ValueError:
            continue  # the reader's bad-JSON fixtures
        if os.path.dirname(os.path.relpath(path, MODELS)) and \
                os.path.basename(path).startswith("bad-"):
            continue  # the scaling reader's refusals (tests/test_config.c)
        if mt in CONFIG_MAPPING:
            out.append(os.path.relpath(path, MODELS))
    return out


FIXTURES = _fixtures()


def test_fixtures_cover_the_registry():
    """Every registry family transformers 5.23 can build has a probed fixture."""
    from transformers import CONFIG_MAPPING

    import subprocess

    fams = [line.split()[0] for line in subprocess.run(
        [hf_probe._program(), "--models"], capture_output=True, text=True,
        check=True).stdout.splitlines()]
    probed = set()
    for name in FIXTURES:
        with open(os.path.join(MODELS, name)) as f:
            d = json.load(f)
        probed.add(d["model_type"])
        probed.add((d.get("text_config") or {}).get("model_type"))
    missing = [f for f in fams if f in CONFIG_MAPPING and f not in probed]
    assert not missing, f"registry families without a probed fixture: {missing}"
    assert len(probed) >= 40


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture(name):
    rep = hf_probe.probe(os.path.join(MODELS, name))
    want = EXPECTED.get(name, hf_probe.VERIFIED)
    assert rep.status == want, f"{name}: {rep.status}: {rep.detail}"
    if want == hf_probe.VERIFIED:
        assert rep.layers and all(v == "ok" for v in rep.layers.values())


# ---- a deliberately wrong answer is caught ------------------------------------------


def _rope_like(e, **kw):
    r = e.rope
    args = dict(head_dim=r.head_dim, rotary_dim=r.rotary_dim, base=r.base, layout=r.layout)
    args.update(kw)
    return hf_probe.Expect("rope", e.fields, posenc.RoPE(**args))


class _Scaled(hf_probe.Expect):
    def cos_sin(self, positions):
        c, s = super().cos_sin(positions)
        return c * 1.0001, s * 1.0001


MUTATIONS = {
    "base 0.1% high": lambda e: _rope_like(e, base=e.rope.base * 1.001) if e.rope else e,
    "other layout": lambda e: _rope_like(
        e, layout="interleaved" if e.rope.layout == "half" else "half") if e.rope else e,
    "half the dimensions": lambda e: _rope_like(e, rotary_dim=e.rope.rotary_dim // 2)
    if e.rope else e,
    "attention factor 1.0001": lambda e: _Scaled("rope", e.fields, e.rope) if e.rope else e,
    "no positions": lambda e: hf_probe.Expect("none", {}, None),
}


@pytest.mark.parametrize("what", sorted(MUTATIONS))
def test_wrong_answer_is_caught(what):
    rep = hf_probe.probe(os.path.join(MODELS, "qwen3-0.6b.json"), mutate=MUTATIONS[what])
    assert rep.status == hf_probe.DISAGREE, rep


def test_wrong_nope_layer_is_caught():
    """SmolLM3's NoPE layer 3 called RoPE, and its RoPE layers called NoPE."""
    path = os.path.join(MODELS, "smollm3-3b.json")
    assert hf_probe.probe(path).status == hf_probe.VERIFIED
    swap = hf_probe.probe(path, mutate=lambda e: hf_probe.Expect("none", {}, None)
                          if e.scheme == "rope" else e)
    assert swap.status == hf_probe.DISAGREE
    assert "layer 0" in swap.detail


# ---- YaRN with beta_fast == beta_slow, as transformers computes it --------------------


@pytest.mark.parametrize("truncate", [True, False])
def test_yarn_equal_betas_match_transformers(truncate):
    """Kimi K2's block (beta_fast = beta_slow = 1): transformers'
    _compute_yarn_parameters (linear_ramp_factor adds 0.001 when min == max)
    against posenc, frequency by frequency."""
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    rp = {"rope_type": "yarn", "rope_theta": 50000.0, "factor": 32.0, "beta_fast": 1.0,
          "beta_slow": 1.0, "original_max_position_embeddings": 4096, "truncate": truncate}
    cfg = LlamaConfig(hidden_size=1024, num_attention_heads=8, head_dim=128,
                      max_position_embeddings=131072, rope_parameters=rp)
    inv, attn = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    scaling = {k: v for k, v in rp.items() if k not in ("rope_theta",)}
    r = posenc.RoPE(128, base=50000.0, scaling=scaling)
    got = r.inv_freq
    want = inv.double().numpy()
    # transformers forms them in float32: (ln(base) + 8) 2^-24 relative
    assert np.all(np.abs(got - want) <= (np.log(50000.0) + 8) * 2.0 ** -24 * want)
    assert abs(r.attention_factor - attn) <= 1e-7
    # a real step, not the plain or the fully scaled frequencies
    assert got[0] == pytest.approx(1.0) and got[-1] == pytest.approx(want[-1])
    assert np.any(np.abs(got - 50000.0 ** (-np.arange(64) / 64)) > 1e-9)


def test_kimi_k2_style_config_probes():
    """A DeepSeek V3 config with Kimi K2's YaRN block is read and verified."""
    with open(os.path.join(MODELS, "deepseek-v3-671b.json")) as f:
        d = json.load(f)
    d["rope_scaling"] = {"type": "yarn", "factor": 32.0, "beta_fast": 1.0, "beta_slow": 1.0,
                         "mscale": 1.0, "mscale_all_dim": 1.0,
                         "original_max_position_embeddings": 4096}
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep


def test_minicpm3_without_rope_theta():
    """MiniCPM3's config.json may omit rope_theta: the config class's default
    (10000) in transformers, and in posenc's registry."""
    with open(os.path.join(MODELS, "minicpm3-synthetic.json")) as f:
        d = json.load(f)
    d.pop("rope_theta", None)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep


@pytest.mark.parametrize("heads", [12, 16, 24])
def test_alibi_tensor(heads):
    """BLOOM's own ALiBi tensor at 12, 16 and 24 heads (non-powers of two take
    every other slope of the next power); a slope 0.1% off is caught."""
    with open(os.path.join(MODELS, "bloom-synthetic.json")) as f:
        d = json.load(f)
    d["n_head"] = heads
    d["hidden_size"] = 64 * heads
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    bad = hf_probe.probe(d, mutate=lambda w: w * np.where(np.arange(w.size) == 3, 1.001, 1.0))
    assert bad.status == hf_probe.DISAGREE and "slopes differ" in bad.detail


def test_wrong_learned_offset_is_caught():
    """RoBERTa reads rows pos + 2; read as BERT (offset 0) it disagrees."""
    path = os.path.join(MODELS, "roberta-synthetic.json")
    assert hf_probe.probe(path).status == hf_probe.VERIFIED
    rep = hf_probe.probe(path, model_type="bert")
    assert rep.status == hf_probe.DISAGREE and "offset [0]" in rep.detail, rep


@pytest.mark.parametrize("model_type", ["qwen3_moe", "llama", "gemma3_text", "smollm3"])
def test_config_class_defaults(model_type):
    """A config.json with every default of the config class written out
    (Qwen3MoeConfig has no head_dim: hidden_size / heads, 64, not 128)."""
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == hf_probe.VERIFIED, rep


# ---- hybrid models: layers without attention ------------------------------------------


def test_hybrid_read_as_dense_is_caught():
    """LFM2-350M read as llama (RoPE on every layer): its convolution layers
    make no attention call, so posenc's "rope" there is a disagreement."""
    rep = hf_probe.probe(os.path.join(MODELS, "lfm2-350m.json"), model_type="llama")
    assert rep.status == hf_probe.DISAGREE, rep
    assert "layer 0: the model makes no attention call here, posenc says rope" in rep.detail


def test_hybrid_attention_called_none_is_caught():
    """Qwen3-Next's attention layer 3 called NoPE: its q/k rotate."""
    path = os.path.join(MODELS, "qwen3-next-toy.json")
    rep = hf_probe.probe(path, mutate=lambda e: hf_probe.Expect("none", {}, None))
    assert rep.status == hf_probe.DISAGREE and "layer 3" in rep.detail, rep


def test_hybrid_reason_reaches_python():
    """RoPE.from_config on a layer without positions says why."""
    with pytest.raises(Exception, match="short convolution layer: no attention"):
        posenc.RoPE.from_config(os.path.join(MODELS, "lfm2-350m.json"), layer=0)


#: Hybrid config classes' defaults: the outcome of each. lfm2_moe's class has
#: no default layer_types (its model cannot be built without one): refused.
HYBRID_DEFAULTS = {
    "bailing_hybrid": hf_probe.VERIFIED, "bamba": hf_probe.VERIFIED, "falcon_h1": hf_probe.VERIFIED,
    "falcon_mamba": hf_probe.VERIFIED, "granitemoehybrid": hf_probe.VERIFIED,
    "jamba": hf_probe.VERIFIED, "kimi_linear": hf_probe.VERIFIED, "lfm2": hf_probe.VERIFIED, "lfm2_moe": hf_probe.REFUSED,
    "mamba": hf_probe.VERIFIED, "mamba2": hf_probe.VERIFIED, "minimax": hf_probe.VERIFIED,
    "mllama": hf_probe.VERIFIED, "nemotron_h": hf_probe.VERIFIED,
    "olmo_hybrid": hf_probe.VERIFIED, "qwen3_next": hf_probe.VERIFIED,
    "zamba": hf_probe.NOT_BUILDABLE, "zamba2": hf_probe.VERIFIED,
}


@pytest.mark.parametrize("model_type", sorted(HYBRID_DEFAULTS))
def test_hybrid_config_class_defaults(model_type):
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == HYBRID_DEFAULTS[model_type], rep
