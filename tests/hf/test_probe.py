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
    # VibeVoice's first release keeps its language model in decoder_config, as
    # its remote code reads it (microsoft/VibeVoice configuration_vibevoice.py,
    # sub-config decoder_config); transformers 5.23's VibeVoiceConfig reads
    # text_config only (configuration_vibevoice.py L78-90) and builds its
    # default Qwen2 instead: posenc follows the checkpoint's own code
    "vibevoice-decoder-config-synthetic.json": hf_probe.DISAGREE,
}

#: Registry families probed through their config class's defaults (below)
#: rather than a fixture: wrappers whose text part transformers builds.
WRAPPER_DEFAULTS = ["aya_vision", "exaone4_5", "idefics3", "internvl", "kimi_k25", "llava",
                    "llava_next", "llava_onevision", "paligemma", "qwen2_audio", "smolvlm",
                    "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "glm_ocr",
                    "ministral3", "qwen2_vl_text", "qwen2_5_vl_text", "qwen3_vl_moe_text",
                    "glm_ocr_text", "molmo2", "molmo2_text"]
#: Registry families posenc refuses by name (the mechanism it lacks), checked
#: on their config class's defaults below.
REFUSED_DEFAULTS = ["deepseek_v32"]
#: Registry families whose config class's defaults transformers cannot run
#: (GLM-4V's default mrope_section [8, 12, 12] does not split its full
#: 128-element head; posenc refuses them by name) and that no fixture covers:
#: their text part is the fixtures' (glm4v_text in glm4v-synthetic.json).
UNBUILT_DEFAULTS = {"glm46v": "glm4v_text", "qwen2_5_omni_thinker": "qwen2_5_omni_text",
                    "qwen3_omni_moe_thinker": "qwen3_omni_moe_text"}


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
        probed.add(((d.get("thinker_config") or {}).get("text_config") or {}).get("model_type"))
    probed.update(WRAPPER_DEFAULTS)
    probed.update(REFUSED_DEFAULTS)
    probed.update(k for k, v in UNBUILT_DEFAULTS.items() if v in probed or k == v)
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


@pytest.mark.parametrize("model_type", WRAPPER_DEFAULTS)
def test_wrapper_class_defaults(model_type):
    """Multimodal wrappers read through their text part (text_config, with the
    sub-config's default type), and the M-RoPE families with the code's
    default mrope_section: every default of the config class written out."""
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == hf_probe.VERIFIED, rep


def test_mrope_probe_uses_three_rows_and_catches_a_wrong_section():
    """The probe's third forward gives M-RoPE layers distinct t, h, w rows
    (position_ids [3, 1, T]); posenc's sections swapped are caught there."""
    path = os.path.join(MODELS, "glm4v-moe-synthetic.json")
    rep = hf_probe.probe(path)
    assert rep.status == hf_probe.VERIFIED and "3-D M-RoPE" in rep.how, rep
    orig = hf_probe.expectations

    def swapped(*a, **k):
        out = orig(*a, **k)
        for e in out.values():
            if e is not None and e.mrope is not None:
                t, h, w = e.mrope.section
                e.mrope = posenc.MRoPE(e.rope, [h, t, w], "chunks")
        return out

    hf_probe.expectations = swapped
    try:
        bad = hf_probe.probe(path)
    finally:
        hf_probe.expectations = orig
    assert bad.status == hf_probe.DISAGREE, bad


@pytest.mark.parametrize("name,hf_type", [("kimi-k2-synthetic.json", "deepseek_v3"),
                                          ("minicpmv-synthetic.json", "qwen2")])
def test_remote_code_families_as_their_inner_model(name, hf_type):
    """Kimi K2 (model_type kimi_k2) runs DeepSeek V3's code and MiniCPM-V 2.6
    Qwen2ForCausalLM on its flat keys: transformers builds that model, posenc
    reads the config as the remote-code family."""
    with open(os.path.join(MODELS, name)) as f:
        d = json.load(f)
    own = d["model_type"]
    d["model_type"] = hf_type
    rep = hf_probe.probe(d, model_type=own)
    assert rep.status == hf_probe.VERIFIED, rep


@pytest.mark.parametrize("model_type", REFUSED_DEFAULTS)
def test_refused_by_name(model_type):
    """DeepSeek V3.2: the indexer's half-split RoPE beside MLA's interleaved one
    is refused, naming it (never read as DeepSeek V3 alone)."""
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == hf_probe.REFUSED and "indexer" in rep.detail, rep


def test_molmo2_scaling_layers():
    """Molmo 2 scales the RoPE on rope_scaling_layers only: every layer listed
    (the default) or a default block reads as one RoPE and is verified; YaRN
    on a subset is refused by name."""
    d = hf_probe.default_config("molmo2")
    tc = d["text_config"]
    tc["rope_parameters"] = {"rope_type": "yarn", "rope_theta": 1e6, "factor": 8.0,
                             "original_max_position_embeddings": 8192}
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
    tc["rope_scaling_layers"] = [0, 2]
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.REFUSED and "rope_scaling_layers" in rep.detail, rep
    tc["rope_parameters"] = {"rope_type": "default", "rope_theta": 1e6}
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
