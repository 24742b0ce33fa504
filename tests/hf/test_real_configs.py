"""tools/real_configs_check.py on the real config.json files of
tests/data/models/real (2023-26 models; SOURCES there): none silently wrong,
and each config's outcome pinned, so that a change either way is seen.

A refusal is pinned as such: the registry does not know the family or the
mechanism yet, and says so by name (the check prints the reasons grouped by
model_type). When a family is added, its configs move to PROBE (or READ) here.
Runs the probe once per config (about a minute in all)."""
import json
import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import real_configs_check as rc  # noqa: E402


def _have_reader():
    import posenc

    return posenc.have_config_reader()


pytestmark = pytest.mark.skipif(not _have_reader(), reason="posenc was built without its "
                                "config reader (POSENC_JSON=0; install libjansson-dev)")

PROBE, READ, REFUSED = rc.RIGHT_PROBE, rc.RIGHT_READ, rc.REFUSED
UNVERIFIED, WRONG = rc.UNVERIFIED, rc.WRONG

#: Each config's outcome (file name without .json).
PINNED = {
    "allam-7b-instruct-preview": PROBE,
    "aya-23-8b": PROBE,
    "chatglm3-6b": READ,
    "codellama-7b": PROBE,
    "deepseek-moe-16b": READ,
    "deepseek-v2-lite": PROBE,
    "deepseek-v3": PROBE,
    "deepseek-v3.2": PROBE,
    "deepseek-v4-284b": REFUSED,
    "devstral-2-123b-instruct": PROBE,
    "devstral-small-2-24b-instruct": PROBE,
    "devstral-small-2507": PROBE,
    "ernie-4.5-0.3b-base": PROBE,
    "exaone-4.0-32b": PROBE,
    "exaone-4.5-33b": PROBE,
    "gemma-2-27b": PROBE,
    "gemma-2-2b": PROBE,
    "gemma-2-9b": PROBE,
    "gemma-2b": PROBE,
    "gemma-3-12b-it": PROBE,
    "gemma-3-1b-it": PROBE,
    "gemma-3-27b-it": PROBE,
    "gemma-3-4b-it": PROBE,
    "gemma-4-26b-a4b": PROBE,
    "gemma-4-e2b-it": PROBE,
    "glm-4-9b": READ,
    "glm-4-9b-chat": READ,
    "glm-4-9b-chat-1m": READ,
    "gpt-oss-120b": PROBE,
    "gpt-oss-20b": PROBE,
    "granite-3.1-1b-a400m-instruct": PROBE,
    "hunyuan-a13b-instruct": READ,
    "internlm-7b": REFUSED,
    "internlm2.5-7b-chat": READ,
    "lfm2-1.2b": PROBE,
    "lfm2.5-vl-1.6b": PROBE,
    "llama-3-8b": PROBE,
    "llama-3.1-70b": PROBE,
    "llama-3.1-8b": PROBE,
    "llama-3.2-1b": PROBE,
    "llama-3.2-3b": PROBE,
    "llama-3.2-90b-vision-instruct": PROBE,
    "llava-1.5-7b": PROBE,
    "minicpm-2b-128k": READ,
    "minicpm-moe-8x2b": READ,
    "minicpm-v-4.6": PROBE,
    "minicpm5-1b": PROBE,
    "mistral-7b-v0.3": PROBE,
    "mixtral-8x22b-instruct-v0.1": PROBE,
    "mixtral-8x7b-instruct-v0.1": PROBE,
    "olmo-2-32b": PROBE,
    "olmo-2-7b": PROBE,
    "olmo-3.1-32b-instruct": PROBE,
    "olmocr-2-7b-1025": PROBE,
    "orion-14b": READ,
    "phi-1": PROBE,
    "phi-2": PROBE,
    "phi-3-medium-4k-instruct": PROBE,
    "phi-3-mini-4k-instruct": PROBE,
    "phi-3-small-8k-instruct": READ,
    "phi-3.5-mini-instruct": PROBE,
    "phi-3.5-vision-instruct": READ,
    "phi-4-mini-instruct": PROBE,
    "phi-4": PROBE,
    "qwen-1.8b": READ,
    "qwen1.5-moe-a2.7b": PROBE,
    "qwen2-0.5b": PROBE,
    "qwen2-72b-instruct": PROBE,
    "qwen2-7b-instruct": PROBE,
    "qwen2.5-32b-instruct": PROBE,
    "qwen2.5-3b": PROBE,
    "qwen2.5-7b-instruct": PROBE,
    "qwen2.5-vl-7b-instruct": PROBE,
    "qwen3-0.6b": PROBE,
    "qwen3-1.7b": PROBE,
    "qwen3-235b-a22b-thinking-2507": PROBE,
    "qwen3-30b-a3b-base": PROBE,
    "qwen3-30b-a3b-thinking-2507": PROBE,
    "qwen3-32b": PROBE,
    "qwen3-4b-instruct-2507": PROBE,
    "qwen3-8b": PROBE,
    "qwen3-coder-480b-a35b": PROBE,
    "qwen3-embedding-0.6b": PROBE,
    "qwen3-embedding-8b": PROBE,
    "qwen3-next-80b-a3b": PROBE,
    "qwen3-vl-2b": PROBE,
    "qwen3-vl-30b-a3b": PROBE,
    "qwen3-vl-4b": PROBE,
    "qwen3.5-35b-a3b": PROBE,
    "qwen3.5-397b-a17b": PROBE,
    "qwen3.5-9b": PROBE,
    "smollm2-1.7b": PROBE,
    "smollm2-360m": PROBE,
    "smollm3-3b": PROBE,
    "snowflake-arctic-embed-m": PROBE,
    "stablelm-2-zephyr-1.6b": PROBE,
    "starcoder-1b-gpt-bigcode": PROBE,
    "starcoder2-7b": PROBE,
    "tinyllama-1.1b-chat-v1.0": PROBE,
    "voxtral-mini-3b-2507": PROBE,
    "yi-1.5-34b": PROBE,
}


@pytest.fixture(scope="module")
def outcomes():
    return {os.path.basename(p)[:-5]: rc.check(p) for p in rc.configs()}


def test_every_config_is_pinned():
    names = {os.path.basename(p)[:-5] for p in rc.configs()}
    assert names == set(PINNED), (sorted(names - set(PINNED)), sorted(set(PINNED) - names))
    assert len(names) >= 60


def test_every_config_has_a_source():
    with open(os.path.join(rc.REAL, "SOURCES")) as f:
        listed = {line.split()[0] for line in f if line.strip() and not line.startswith("#")}
    assert listed == {n + ".json" for n in PINNED}


def test_none_is_wrong(outcomes):
    wrong = {n: r["detail"] for n, r in outcomes.items() if r["outcome"] == WRONG}
    assert not wrong


@pytest.mark.parametrize("name", sorted(PINNED))
def test_outcome_pinned(outcomes, name):
    r = outcomes[name]
    assert r["outcome"] == PINNED[name], f"{name}: {r['outcome']}: {r['detail']}"
    if r["outcome"] == REFUSED:
        # refused by name: the reason names a type, a key or a mechanism
        assert len(r["detail"]) > 10 and ("'" in r["detail"] or "key" in r["detail"]
                                          or "rope" in r["detail"]), r["detail"]


def test_read_verdicts_are_for_unbuildable_families():
    """A reading stands in for the probe only where transformers cannot build
    the family."""
    from transformers import CONFIG_MAPPING

    for name in rc.READ:
        with open(os.path.join(rc.REAL, name)) as f:
            assert json.load(f)["model_type"] not in CONFIG_MAPPING, name


def test_summary_percentages():
    rows = [{"name": "a.json", "model_type": "x", "outcome": PROBE, "detail": ""},
            {"name": "b.json", "model_type": "y", "outcome": REFUSED, "detail": "model_type 'y' not in the registry"},
            {"name": "c.json", "model_type": "y", "outcome": REFUSED, "detail": "model_type 'y' not in the registry"},
            {"name": "d.json", "model_type": "z", "outcome": READ, "detail": ""}]
    import io

    out = io.StringIO()
    counts = rc.summarize(rows, out)
    text = out.getvalue()
    assert counts[PROBE] == 1 and counts[REFUSED] == 2 and counts[READ] == 1
    assert "right 2 (50.0%: 1 by the probe, 1 by reading), refused 2 (50.0%)" in text
    assert "  y: model_type 'y' not in the registry  [b, c]" in text


def test_refusal_reason():
    msg = ("posenc: --config: x/qwen3-next.json: model_type 'qwen3_next' is not in posenc's "
           "model registry (posenc --models lists the known types); give --model-type TYPE")
    assert rc.refusal_reason(msg) == "model_type 'qwen3_next' not in the registry"
    assert rc.refusal_reason("posenc: --config: a.json: missing key rope_theta") == \
        "missing key rope_theta"
    assert rc.refusal_reason("posenc: --config: a.json: ") is None


# ---- the readings of READ, as arithmetic -------------------------------------------


def _dynamic_ntk_read(name, lengths):
    """A remote-code family's dynamic NTK as its code computes it (READ): past
    max_position_embeddings, base * (f L / max_pos - (f - 1))^(d/(d-2)), d =
    hidden_size / heads, over the whole head in halves; the config read."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, name + ".json")
    with open(path) as f:
        c = json.load(f)
    d = c["hidden_size"] // c["num_attention_heads"]
    f_, mp = c["rope_scaling"]["factor"], c["max_position_embeddings"]
    for n in (1000, mp, mp + 1) + lengths:
        base = c["rope_theta"]
        if n > mp:
            base *= (f_ * n / mp - (f_ - 1)) ** (d / (d - 2))
        want = base ** (-np.arange(0, d, 2) / d)
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d and r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n
    return c, d


def test_read_minicpm_dynamic_ntk():
    """MiniCPM-2B's dynamic NTK as its modeling_minicpm.py computes it (READ)."""
    _dynamic_ntk_read("minicpm-2b-128k", (200000, 10 ** 6))


def test_read_minicpm_moe_default_base():
    """MiniCPM-MoE-8x2B has no rope_theta: MiniCPMConfig's default 10000 (READ),
    f_k = 10000^(-2k/d) over the whole head, at every length (no scaling)."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "minicpm-moe-8x2b.json")
    with open(path) as f:
        c = json.load(f)
    assert "rope_theta" not in c and c.get("rope_scaling") is None
    d = c["hidden_size"] // c["num_attention_heads"]
    want = 10000.0 ** (-np.arange(0, d, 2) / d)
    for n in (1000, 10 ** 6):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d and r.base == 10000.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


def test_read_qwen1_dynamic_ntk():
    """Qwen-1.8B's NTK alpha as its modeling_qwen.py computes it (READ)."""
    import math

    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "qwen-1.8b.json")
    with open(path) as f:
        c = json.load(f)
    d, sl = c["kv_channels"], c["seq_length"]
    for n in (1000, sl, sl + 1, 20000, 10 ** 5):
        base = c["rotary_emb_base"]
        if n > sl:
            alpha = max(2 ** math.ceil(math.log(n / sl, 2) + 1) - 1, 1)
            base *= alpha ** (d / (d - 2))
        want = base ** (-np.arange(0, d, 2) / d)
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


def test_read_internlm2_dynamic_ntk():
    """InternLM2.5-7B-Chat's dynamic NTK as InternLM2's modeling_internlm2.py
    computes it (READ): past max_position_embeddings, base * (f L / max_pos -
    (f - 1))^(d/(d-2)), d = 4096 / 32 = 128, over the whole head."""
    c, d = _dynamic_ntk_read("internlm2.5-7b-chat", (100000, 10 ** 6))
    assert d == 128 and c["rope_scaling"] == {"type": "dynamic", "factor": 2.0}


def test_read_chatglm3():
    """ChatGLM3-6B (READ): RotaryEmbedding(kv_channels // 2 = 64), theta_k =
    10000^(-2k/64), applied in adjacent pairs to the first 64 of each head's
    128 channels, the rest passed through; no key changes the base."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "chatglm3-6b.json")
    with open(path) as f:
        c = json.load(f)
    assert c["kv_channels"] == 128 and "rope_ratio" not in c
    want = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    for n in (1, c["seq_length"]):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "interleaved" and r.head_dim == 128 and r.rotary_dim == 64
        assert r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


@pytest.mark.parametrize("name,ratio", [("glm-4-9b", 1), ("glm-4-9b-chat", 500),
                                        ("glm-4-9b-chat-1m", 10000)])
def test_read_glm4_rope_ratio(name, ratio):
    """GLM-4-9B's ChatGLM-format code (READ): RotaryEmbedding(kv_channels // 2
    = 64) with base 10000 * rope_ratio (1 when absent), adjacent pairs on the
    first 64 of each head's 128 channels."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, name + ".json")
    with open(path) as f:
        c = json.load(f)
    assert c["kv_channels"] == 128 and c.get("rope_ratio", 1) == ratio
    want = (10000.0 * ratio) ** (-np.arange(0, 64, 2) / 64)
    for n in (1, c["seq_length"]):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "interleaved" and r.head_dim == 128 and r.rotary_dim == 64
        assert r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


def _plain_read(name, d):
    """posenc's RoPE for a remote-code config whose code builds plain RoPE
    over head_dim = hidden_size / heads with base rope_theta, rotate_half."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, name + ".json")
    with open(path) as f:
        c = json.load(f)
    assert c["hidden_size"] // c["num_attention_heads"] == d
    want = c["rope_theta"] ** (-np.arange(0, d, 2) / d)
    for n in (1, c["max_position_embeddings"], 4 * c["max_position_embeddings"]):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d and r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


def test_read_deepseek_v1():
    """DeepSeek-MoE 16B (READ): DeepseekRotaryEmbedding(head_dim, base=rope_theta),
    no rope_scaling: 2048 / 16 = 128, base 10000 at every length."""
    _plain_read("deepseek-moe-16b", 128)


def test_read_hunyuan_a13b():
    """Hunyuan-A13B (READ): 4096 / 32 = 128, rope_scaling dynamic with alpha 1000:
    base 10000 * 1000^(128/126) at every length, rotate_half."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "hunyuan-a13b-instruct.json")
    with open(path) as f:
        c = json.load(f)
    d = c["hidden_size"] // c["num_attention_heads"]
    a = c["rope_scaling"]["alpha"]
    assert d == 128 and c["rope_scaling"]["type"] == "dynamic" and a == 1000
    want = (c["rope_theta"] * a ** (d / (d - 2))) ** (-np.arange(0, d, 2) / d)
    for n in (1, c["max_position_embeddings"], 4 * c["max_position_embeddings"]):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d and r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-13, n


def test_read_orion():
    """Orion-14B (READ): 5120 / 40 = 128, base rope_theta 10000, no rope_scaling."""
    _plain_read("orion-14b", 128)


def test_read_phi3small():
    """Phi-3-small-8k (READ): 4096 / 32 = 128, base rope_embedding_base 10^6 (not
    rope_theta), positions times rope_position_scale 1.0, no rope_scaling."""
    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "phi-3-small-8k-instruct.json")
    with open(path) as f:
        c = json.load(f)
    d = c["hidden_size"] // c["num_attention_heads"]
    assert d == 128 and c["rope_position_scale"] == 1.0 and "rope_scaling" not in c
    want = c["rope_embedding_base"] ** (-np.arange(0, d, 2) / d)
    for n in (1, c["max_position_embeddings"], 10 ** 6):
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d and r.attention_factor == 1.0
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n


def test_read_phi3_v_su():
    """Phi-3.5-vision's "su" as modeling_phi3_v.py's Phi3SuScaledRotaryEmbedding
    computes it (READ): short factors while max(position) + 1 <= original, long
    ones past it, cos and sin times sqrt(1 + ln s / ln original)."""
    import math

    import numpy as np
    import posenc

    path = os.path.join(rc.REAL, "phi-3.5-vision-instruct.json")
    with open(path) as f:
        c = json.load(f)
    d = c["hidden_size"] // c["num_attention_heads"]
    orig, mp = c["original_max_position_embeddings"], c["max_position_embeddings"]
    scale = mp / orig
    mscale = math.sqrt(1 + math.log(scale) / math.log(orig)) if scale > 1 else 1.0
    for n in (100, orig, orig + 1, mp):
        ext = np.array(c["rope_scaling"]["long_factor" if n > orig else "short_factor"])
        want = 1.0 / (ext * c["rope_theta"] ** (np.arange(0, d, 2) / d))
        r = posenc.RoPE.from_config(path, seq_len=n)
        assert r.layout == "half" and r.rotary_dim == d
        assert np.max(np.abs(r.inv_freq / want - 1)) < 1e-14, n
        assert abs(r.attention_factor / mscale - 1) < 1e-15, n


# ---- the check fails loudly --------------------------------------------------------


def test_a_wrong_answer_is_wrong():
    """posenc's answer for Qwen3-8B with its base 0.1% high: WRONG, not right."""
    import hf_probe
    import posenc

    def off(e):
        if e.rope is None:
            return e
        r = e.rope
        return hf_probe.Expect("rope", e.fields, posenc.RoPE(
            head_dim=r.head_dim, rotary_dim=r.rotary_dim, base=r.base * 1.001, layout=r.layout))

    path = os.path.join(rc.REAL, "qwen3-8b.json")
    assert rc.check(path)["outcome"] == PROBE
    bad = rc.check(path, mutate=off)
    assert bad["outcome"] == WRONG and "probe disagrees" in bad["detail"]


def test_a_refusal_without_a_reason_is_wrong(monkeypatch):
    path = os.path.join(rc.REAL, "qwen3-8b.json")
    monkeypatch.setattr(rc, "explain", lambda p: (False, "posenc: --config: qwen3-8b.json: "))
    assert rc.check(path)["outcome"] == WRONG
    monkeypatch.setattr(rc, "explain", lambda p: (
        False, "posenc: --config: qwen3-8b.json: missing key rope_theta"))
    r = rc.check(path)
    assert r["outcome"] == REFUSED and r["detail"] == "missing key rope_theta"
