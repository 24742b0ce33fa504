"""Families whose model the probe cannot build from its config class's
defaults, run here against transformers 5.23's own modules: a tiny model of
the family's class (random weights, float64, no network) and the same config
written out for posenc.

CSM (model_type csm) and its depth decoder (csm_depth_decoder_model):
models/csm/modeling_csm.py. The probe builds CsmForConditionalGeneration,
over its size limit (codebook tables, the Mimi codec), and AutoModel has no
class for the depth decoder's config. Here CsmBackboneModel and
CsmDepthDecoderModel are built on their own; the module's
apply_rotary_pos_emb is wrapped to capture q and k before and after the
rotation in every layer, and each layer is compared with posenc's reading
(hf_probe.compare_layer, the probe's own comparison: rotate_half pairs,
base, head size, attention factor).
"""
import json
import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import hf_probe  # noqa: E402

torch = pytest.importorskip("torch")

#: backbone positions: well past max_position_embeddings (RoPE has no table)
POS = [0, 1, 2, 3, 5, 8, 13, 100, 1000, 2047, 2048, 4096, 50000]


def _explain(d, tmp_path):
    path = str(tmp_path / "config.json")
    with open(path, "w") as f:
        json.dump(d, f)
    ok, explain, text = hf_probe.explain_model(path)
    assert ok, text
    return path, explain, text


def _capture(module, run):
    """q and k before and after each call of module.apply_rotary_pos_emb."""
    calls = []
    orig = module.apply_rotary_pos_emb

    def wrapped(q, k, cos, sin, *a, **kw):
        qo, ko = orig(q, k, cos, sin, *a, **kw)
        calls.append((q.clone(), k.clone(), qo.clone(), ko.clone()))
        return qo, ko

    module.apply_rotary_pos_emb = wrapped
    try:
        with torch.no_grad():
            run()
    finally:
        module.apply_rotary_pos_emb = orig
    return calls


def _compare(d, tmp_path, calls, positions, n_layer, f64=True):
    path, explain, text = _explain(d, tmp_path)
    assert len(explain) == n_layer and len(calls) == n_layer, (text, len(calls))
    exp = hf_probe.expectations(d, path, range(n_layer), max(positions) + 1, explain)
    T = len(positions)
    for i, (q, k, qo, ko) in enumerate(calls):
        e = exp[i]
        assert e is not None and e.scheme == "rope", text
        for pre, post, is_q in ((q, qo, True), (k, ko, False)):
            bad = hf_probe.compare_layer(e, hf_probe._heads(pre, T), hf_probe._heads(post, T),
                                         positions, f64, is_q)
            assert bad is None, f"layer {i} {'q' if is_q else 'k'}: {bad}"


CSM_CASES = {
    "defaults": {},  # head_dim 2048 / 32 = 64, rope_theta 500000
    "head_dim_theta": {"head_dim": 32, "rope_parameters": {"rope_type": "default",
                                                            "rope_theta": 10000.0}},
    "llama3": {"rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0,
                                   "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                   "original_max_position_embeddings": 8192}},
}


@pytest.mark.parametrize("case", sorted(CSM_CASES))
def test_csm_backbone(case, tmp_path):
    from transformers import CsmConfig
    from transformers.models.csm import modeling_csm

    kw = dict(CSM_CASES[case])
    head_dim = kw.get("head_dim", 64)
    small = dict(hidden_size=2 * head_dim, num_attention_heads=2, num_key_value_heads=1,
                 num_hidden_layers=2, intermediate_size=32, num_codebooks=2, text_vocab_size=64,
                 depth_decoder_config={"num_codebooks": 2, "hidden_size": 64,
                                       "num_attention_heads": 2, "num_key_value_heads": 1,
                                       "num_hidden_layers": 1, "intermediate_size": 32,
                                       "backbone_hidden_size": 2 * head_dim},
                 **kw)
    if "head_dim" not in kw:
        small["head_dim"] = None  # the class's hidden_size // heads
    cfg = CsmConfig(**small)
    d = hf_probe._jsonable(cfg.to_dict())
    d["model_type"] = "csm"
    torch.manual_seed(0)
    model = modeling_csm.CsmBackboneModel._from_config(cfg, dtype=torch.float64).eval()
    T = len(POS)
    x = torch.randn(1, T, cfg.hidden_size, dtype=torch.float64)
    calls = _capture(modeling_csm, lambda: model(inputs_embeds=x,
                                                 position_ids=torch.tensor([POS]), use_cache=False))
    _compare(d, tmp_path, calls, POS, cfg.num_hidden_layers)


def test_csm_class_defaults_read(tmp_path):
    """The full class defaults: 16 layers of RoPE, head 64, base 500000,
    the whole head (the code reads no partial factor)."""
    d = hf_probe.default_config("csm")
    _, explain, text = _explain(d, tmp_path)
    assert len(explain) == 16 and {v[0] for v in explain.values()} == {"rope"}, text
    f = explain[0][1]
    assert (f["layout"], f["head_dim"], f["rotary_dim"], float(f["base"])) == \
        ("half", "64", "64", 500000.0), text


def test_csm_depth_decoder(tmp_path):
    """The depth decoder numbers its inputs 0..T-1 itself (it ignores
    position_ids): the codebook index."""
    from transformers import CsmDepthDecoderConfig
    from transformers.models.csm import modeling_csm

    d = hf_probe.default_config("csm_depth_decoder_model")
    _, explain, text = _explain(d, tmp_path)
    assert len(explain) == d["num_hidden_layers"], text
    cfg = CsmDepthDecoderConfig(hidden_size=128, num_attention_heads=1, num_key_value_heads=1,
                                num_hidden_layers=2, intermediate_size=32, num_codebooks=32,
                                backbone_hidden_size=64, head_dim=128)
    d = hf_probe._jsonable(cfg.to_dict())
    d["model_type"] = "csm_depth_decoder_model"
    torch.manual_seed(0)
    model = modeling_csm.CsmDepthDecoderModel._from_config(cfg, dtype=torch.float64).eval()
    T = cfg.num_codebooks
    x = torch.randn(1, T, cfg.backbone_hidden_size, dtype=torch.float64)
    calls = _capture(modeling_csm, lambda: model(inputs_embeds=x, use_cache=False))
    _compare(d, tmp_path, calls, list(range(T)), cfg.num_hidden_layers)


KYUTAI_CASES = {
    "defaults": {},  # head_dim 2048 / 32 = 64, rope_theta 10000
    "head_dim_theta": {"head_dim": 32, "rope_parameters": {"rope_type": "default",
                                                            "rope_theta": 100000.0}},
    "linear": {"rope_parameters": {"rope_type": "linear", "rope_theta": 10000.0,
                                   "factor": 4.0}},
}


@pytest.mark.parametrize("case", sorted(KYUTAI_CASES))
def test_kyutai_speech_to_text(case, tmp_path):
    """Kyutai STT's decoder (KyutaiSpeechToTextModel, Moshi's code): the
    probe's forward does not fit its codebook inputs; here inputs_embeds
    at the positions given."""
    from transformers import KyutaiSpeechToTextConfig
    from transformers.models.kyutai_speech_to_text import modeling_kyutai_speech_to_text as mod

    d0 = hf_probe.default_config("kyutai_speech_to_text")
    _, explain, text = _explain(d0, tmp_path)
    assert len(explain) == 48 and {v[0] for v in explain.values()} == {"rope"}, text
    kw = dict(KYUTAI_CASES[case])
    head_dim = kw.get("head_dim", 64)
    cfg = KyutaiSpeechToTextConfig(hidden_size=2 * head_dim, num_attention_heads=2,
                                   num_key_value_heads=2, num_hidden_layers=2, ffn_dim=64,
                                   vocab_size=64, codebook_vocab_size=8, num_codebooks=2,
                                   audio_pad_token_id=0, pad_token_id=1, bos_token_id=2,
                                   sliding_window=100000, **kw)
    d = hf_probe._jsonable(cfg.to_dict())
    d["model_type"] = "kyutai_speech_to_text"
    torch.manual_seed(0)
    model = mod.KyutaiSpeechToTextModel._from_config(cfg, dtype=torch.float64).eval()
    x = torch.randn(1, len(POS), cfg.hidden_size, dtype=torch.float64)
    calls = _capture(mod, lambda: model(inputs_embeds=x, position_ids=torch.tensor([POS]),
                                        use_cache=False))
    _compare(d, tmp_path, calls, POS, cfg.num_hidden_layers)


QWEN3_OMNI_CP_CASES = {
    "defaults": {},  # head_dim 128, rope_theta 10000, every layer full
    # (a sliding layer does not run in transformers 5.23: its model builds no
    # sliding mask, KeyError 'sliding_attention')
    "theta": {"rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0}},
    "yarn": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0,
                                 "original_max_position_embeddings": 4096}},
}


@pytest.mark.parametrize("case", sorted(QWEN3_OMNI_CP_CASES))
def test_qwen3_omni_moe_talker_code_predictor(case, tmp_path):
    """Qwen3-Omni's talker code predictor (Qwen3OmniMoeTalkerCodePredictorModel;
    AutoModel has no class for its config): every layer's rotation."""
    from transformers.models.qwen3_omni_moe import modeling_qwen3_omni_moe as mod
    from transformers.models.qwen3_omni_moe.configuration_qwen3_omni_moe import (
        Qwen3OmniMoeTalkerCodePredictorConfig)

    d0 = hf_probe.default_config("qwen3_omni_moe_talker_code_predictor")
    _, explain, text = _explain(d0, tmp_path)
    assert len(explain) == 5 and {v[0] for v in explain.values()} == {"rope"}, text
    f = explain[0][1]
    assert (f["layout"], f["head_dim"], f["rotary_dim"], float(f["base"])) == \
        ("half", "128", "128", 10000.0), text
    cfg = Qwen3OmniMoeTalkerCodePredictorConfig(hidden_size=128, num_attention_heads=2,
                                                num_key_value_heads=1, num_hidden_layers=2,
                                                intermediate_size=32, vocab_size=64,
                                                num_code_groups=2, **QWEN3_OMNI_CP_CASES[case])
    d = hf_probe._jsonable(cfg.to_dict())
    d["model_type"] = "qwen3_omni_moe_talker_code_predictor"
    torch.manual_seed(0)
    model = mod.Qwen3OmniMoeTalkerCodePredictorModel._from_config(cfg, dtype=torch.float64).eval()
    x = torch.randn(1, len(POS), cfg.hidden_size, dtype=torch.float64)
    calls = _capture(mod, lambda: model(inputs_embeds=x, position_ids=torch.tensor([POS]),
                                        use_cache=False))
    _compare(d, tmp_path, calls, POS, cfg.num_hidden_layers)


EVOLLA_CASES = {
    "defaults": {},  # head_dim 4096 / 32 = 128, rope_theta 500000
    "theta_head_dim": {"head_dim": 32, "rope_parameters": {"rope_type": "default",
                                                            "rope_theta": 10000.0}},
}


@pytest.mark.parametrize("case", sorted(EVOLLA_CASES))
def test_evolla(case, tmp_path):
    """Evolla's language model (EvollaModel without protein inputs): every
    decoder layer's rotation. Its apply_rotary_pos_emb turns q.float() and
    k.float() (float32 arithmetic), so the comparison takes float32's
    tolerances."""
    from transformers import EvollaConfig
    from transformers.models.evolla import modeling_evolla as mod

    d0 = hf_probe.default_config("evolla")
    _, explain, text = _explain(d0, tmp_path)
    assert len(explain) == 32 and {v[0] for v in explain.values()} == {"rope"}, text
    f = explain[0][1]
    assert (f["layout"], f["head_dim"], f["rotary_dim"], float(f["base"])) == \
        ("half", "128", "128", 500000.0), text
    kw = dict(EVOLLA_CASES[case])
    head_dim = kw.get("head_dim", 128)
    cfg = EvollaConfig(hidden_size=2 * head_dim, num_attention_heads=2, num_key_value_heads=1,
                       num_hidden_layers=2, intermediate_size=32, vocab_size=64,
                       aligner_num_add_layers=1,
                       protein_encoder_config={"hidden_size": 32, "num_hidden_layers": 1,
                                               "num_attention_heads": 2,
                                               "intermediate_size": 32},
                       **kw)
    d = hf_probe._jsonable(cfg.to_dict())
    d["model_type"] = "evolla"
    torch.manual_seed(0)
    model = mod.EvollaModel._from_config(cfg, dtype=torch.float64).eval()
    x = torch.randn(1, len(POS), cfg.hidden_size, dtype=torch.float64)
    calls = _capture(mod, lambda: model(inputs_embeds=x, position_ids=torch.tensor([POS]),
                                        use_cache=False))
    _compare(d, tmp_path, calls, POS, cfg.num_hidden_layers, f64=False)
