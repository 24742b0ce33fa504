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
    # transformers 5.23 cannot build ZambaModel from a config here: its
    # tied-weights pattern for the shared block (modeling_zamba.py L853-858)
    # fails the checkpoint-key check of from_config
    "zamba-synthetic.json": hf_probe.NOT_BUILDABLE,
}

#: Registry families probed through their config class's defaults (below)
#: rather than a fixture: wrappers whose text part transformers builds.
WRAPPER_DEFAULTS = ["aya_vision", "exaone4_5", "idefics3", "internvl", "kimi_k25", "llava",
                    "llava_next", "llava_onevision", "paligemma", "qwen2_audio", "smolvlm",
                    "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "glm_ocr",
                    "ministral3", "qwen2_vl_text", "qwen2_5_vl_text", "qwen3_vl_moe_text",
                    "glm_ocr_text", "molmo2", "molmo2_text",
                    # retrieval wrappers around a VLM (vlm_config.text_config)
                    "colpali", "colqwen2", "colmodernvbert"]
# issue 20 (h-swb): CLIP-like and vision-language wrappers read through their
# text tower (text_config); PP-FormulaNet through its text decoder
WRAPPER_DEFAULTS += ["aimv2", "align", "altclip", "blip", "bridgetower", "chinese_clip", "clap",
                     "clipseg", "flava", "groupvit", "metaclip_2", "owlv2", "owlvit", "xclip",
                     "pp_formulanet",
                     # the text part of composite wrappers: decoder (vision- and
                     # speech-encoder-decoder), generator (rag)
                     "vision-encoder-decoder", "speech-encoder-decoder", "rag"]
# h-e: wrappers of transformers 5.23 read through a language part posenc
# already reads (text_config, with the sub-config's default type): LLaVA and
# its video/ViP variants, the OCR, speech and audio LLMs, BLIP-2/InstructBLIP
# (OPT), Florence-2 (BART), the CLIP/SigLIP text towers, Nemotron-H Omni
WRAPPER_DEFAULTS += ["audioflamingo3", "blip-2", "clip", "cohere2_vision", "deepseek_ocr2",
                     "deepseek_vl", "deepseek_vl_hybrid", "fast_vlm", "florence2",
                     "fun_asr_nano", "fuyu", "glmasr", "got_ocr2", "granite_speech",
                     "granite_speech_plus", "hyperclovax_vision_v2", "idefics2",
                     "instructblip", "instructblipvideo", "janus", "jev", "lfm2_vl",
                     "lighton_ocr", "llava_next_video", "modernvbert",
                     "moss_transcribe_diarize", "musicflamingo", "nemotron_h_omni", "ovis2",
                     "perception_lm", "pp_chart2table", "qianfan_ocr", "qwen3_asr",
                     "shieldgemma2", "siglip", "siglip2", "ultravbert", "vibevoice_asr",
                     "video_llama_3", "video_llava", "vipllava", "vision-text-dual-encoder",
                     "voxtral"]
#: Registry families posenc refuses by name (the mechanism it lacks), checked
#: on their config class's defaults below.
REFUSED_DEFAULTS = []
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

#: Sinusoid and relative-id families whose tables and buckets `posenc golden` writes, compared with the
#: built model's embed_positions in tests/hf/test_sinusoid_families_hf.py
#: (the probe sees no rotary call in them and checks only XLM's table)
GOLDEN_TESTED = {"marian", "pegasus", "m2m_100", "nllb-moe", "xglm", "ctrl", "speech_to_text",
                 "mpnet", "deberta", "deberta-v2", "kosmos-2", "kosmos_2_text_model",
                 "kosmos-2.5", "kosmos_2_5_text_model", "musicgen", "musicgen_decoder", "pegasus_x"}
#: RoFormer's own rotation (its attention calls no rotary function the probe
#: hooks): posenc golden, check and RoPE.from_config against its
#: apply_rotary_position_embeddings in tests/hf/test_roformer_hf.py
GOLDEN_TESTED.add("roformer")


#: Encoder-decoders whose stacks are configs of their own, and those stacks'
#: types: each layer's rotary (encoder's, then decoder's) run against posenc in
#: tests/hf/test_encdec_hf.py (the probe builds no decoder inputs); Muse
#: Glimmer's NoPE layers there too (the probe reads its scale-free qk_norm
#: before a NoPE layer's attention as a position step)
ENCDEC_TESTED = {"t5gemma", "t5_gemma_module", "t5gemma2", "t5gemma2_encoder", "t5gemma2_text",
                 "t5gemma2_decoder", "dia", "dia_encoder", "dia_decoder", "muse_glimmer",
                 "muse_glimmer_text"}


#: XLNet's and Funnel's relative sinusoids: posenc golden against the distances
#: and vectors their attention reads in tests/hf/test_relsin_hf.py
GOLDEN_TESTED |= {"xlnet", "funnel"}

#: Families added in one round (FSMT, MusicGen Melody, TrOCR): posenc golden against the built
#: models' embed_positions in tests/hf/test_seq2seq_families_hf.py
GOLDEN_TESTED |= {"fsmt", "musicgen_melody", "musicgen_melody_decoder", "trocr"}


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
    probed.update(CLASS_DEFAULTS)  # verified from their config classes' defaults (below)
    probed.update(CLASS_DEFAULTS_REFUSED)
    probed.update(GOLDEN_TESTED)
    probed.update(ENCDEC_TESTED)
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


# ---- families verified from their config classes' defaults (issue 20) ----------------

#: Registry families without a fixture in tests/data/models: each is probed on a
#: config.json with every default of its config class written out (the probe
#: shrinks layers, heads and experts, keeping head_dim, the RoPE block and the
#: per-layer pattern). See src/config/config_families_table.h for each entry's
#: reading of the modeling code.
CLASS_DEFAULTS = [
    "afmoe", "apertus", "arcee", "bitnet", "cohere2_moe", "cwm", "diffllama", "doge",
    "ernie4_5", "ernie4_5_moe", "eurobert", "exaone_moe", "flex_olmo", "glm4_moe_lite",
    "gpt_neox_japanese", "granitemoe", "granitemoeshared", "gte", "helium", "hunyuan_v1_dense",
    "hunyuan_v1_moe", "hy_v3", "hyperclovax", "internlm3", "iquestcoder", "jais2", "jetmoe",
    "jina_embeddings_v3", "laguna", "longcat_flash", "mellum", "mimo_v2_flash", "minimax_m2",
    "mistral4", "modernbert", "nemotron", "nomic_bert", "olmoe", "persimmon", "seed_oss",
    "solar_open", "ultrabert", "youtu",
    # Qwen3.5 (linear-attention layers, partial interleaved M-RoPE) and the
    # MiniCPM-V 4.6 / 4.7 / OCR wrappers around its text model
    "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text", "minicpmv4_6", "minicpmv4_7",
    "minicpm_ocr", "gpt_bigcode",
    # issue 20, rotating families (h-rot)
    "ministral", "paddleocr_vl", "paddleocr_vl_text", "aria", "aria_text", "emu3",
    "emu3_text_model", "glm5_next", "glm5_next_text", "kolibri1", "flint", "esmc", "hrm_text",
    "axk1", "step3p5", "step3p7", "embedding_gemma2", "embedding_gemma2_text",
    "granite4_vision", "granite4_vision_text", "granite_docling", "granite_docling_text",
    "unlimited_ocr", "unlimited_ocr_text", "lfm3", "lfm3_vl", "cosmos3_edge", "cosmos3_edge_text",
    "cosmos3_omni",
    # DeepSeek Sparse Attention (MLA's RoPE and the indexer's; also below)
    "deepseek_v32", "axk2",
    # GIT's text decoder: a learned table
    "git",
]
# learned absolute tables, T5 buckets and sinusoids outside attention's q/k
# (issue 20): the probe reads the position table rows each forward uses
CLASS_DEFAULTS += [
    "camembert", "data2vec-text", "ernie", "roberta-prelayernorm", "splinter", "umt5",
    "xlm-roberta", "xlm-roberta-xl", "biogpt", "clip_text_model", "mbart", "plbart",
    "siglip_text_model", "siglip2_text_model", "albert", "electra", "mobilebert",
    "bigbird_pegasus", "blenderbot-small",
]
# issue 20, own-attention families (h-swa): learned tables read by the model's
# embeddings (the probe sees no attention call, and no rotary function is
# called), RecurrentGemma's partial RoPE in its attention blocks
CLASS_DEFAULTS += [
    "gpt_neo", "openai-gpt", "megatron-bert", "big_bird", "convbert", "rembert", "xlm",
    "flaubert", "bert-generation", "ibert", "roc_bert", "visual_bert", "nystromformer", "mra",
    "yoso", "fnet", "imagegpt", "dpr", "recurrent_gemma",
    # Pix2Struct's text decoder: T5's causal buckets (the probe compares the
    # model's compute_bias with posenc.t5_bias)
    "pix2struct",
]
# transformers 5.23 cannot build Pix2StructTextModel from its own config
# class's defaults (no initializer_range, which Pix2StructConfig sets on it)
UNBUILT_DEFAULTS["pix2struct_text_model"] = "pix2struct"

# issue 20, rotating models posenc did not know (h-swb): Moshi's main
# decoder, Higgs Audio v2 (the class's llama3 block), the Phonon / Pocket TTS
# backbones, OpenAI Privacy Filter (interleaved pairs, the class's YaRN block)
CLASS_DEFAULTS += [
    "moshi", "higgs_audio_v2", "gradium_phonon_tts", "pocket_tts", "openai_privacy_filter",
]

# issue 20 (h-swb): the text towers of CLIP-like and vision-language models,
# learned tables at rows 0.. (CLIP, BERT) or from padding_idx + 1 (RoBERTa:
# AltCLIP, BridgeTower, CLAP); PP-FormulaNet's decoder (MBart's offset 2)
CLASS_DEFAULTS += [
    "aimv2_text_model", "align_text_model", "altclip_text_model", "blip_text_model",
    "bridgetower_text_model", "chinese_clip_text_model", "clap_text_model", "clipseg_text_model",
    "flava_text_model", "groupvit_text_model", "metaclip_2_text_model", "owlv2_text_model",
    "owlvit_text_model", "xclip_text_model", "pp_formulanet_text",
]

# issue 20 (h-swc): Phi-4-multimodal's Phi-3 language model, CodeGen (GPT-J's
# interleaved rotary_dim), Chameleon and dots.llm1 (llama's rotate_half)
CLASS_DEFAULTS += [
    "phi4_multimodal", "codegen", "chameleon", "dots1",
    # learned tables and T5 buckets: GPT-SW3 (GPT-2's code), MVP (BART's offset
    # 2), Blenderbot (row 0), X-MOD (RoBERTa's), SqueezeBERT, Switch Transformers
    "gpt-sw3", "mvp", "blenderbot", "xmod", "squeezebert", "switch_transformers", "longformer",
    "luke",
    # recurrent, no attention: RWKV, xLSTM
    "rwkv", "xlstm",
    # DeepSeek-OCR 2's language model (Llama's attention in DeepSeek V2's MoE)
    "deepseek_ocr2_text",
    # ModernBERT's per-type RoPE in a causal stack
    "modernbert-decoder",
]
# issue 36 (h-encdec): Granite SWA's per-layer bases (the class's default list,
# rope_theta on every layer; other lists in tests/hf/test_encdec_hf.py)
CLASS_DEFAULTS += ["granite_swa", "granitemoe_swa"]
# Voxtral Realtime's text model runs only under its wrapper (its layers' ada
# RMS norm takes the wrapper's t_cond); its attention is Mistral's
# (MistralAttention, LlamaRotaryEmbedding): tests/cli/model/model_hf_voxtral_realtime_text
UNBUILT_DEFAULTS["voxtral_realtime_text"] = "mistral"
# its wrapper's defaults do not run from the probe's inputs (the encoder's
# t_cond is None without audio): read through its text part, as above
UNBUILT_DEFAULTS["voxtral_realtime"] = "voxtral_realtime_text"
# IDEFICS's text model runs only with image inputs (pixel_values or their
# embeddings); its attention rotates with llama's rotate_half and
# apply_rotary_pos_emb (copied): tests/cli/model/model_hf_idefics. Pop2Piano has no
# model class AutoModel maps; its attention is T5Attention's copy:
# tests/cli/model/model_hf_pop2piano
UNBUILT_DEFAULTS["idefics"] = "llama"
UNBUILT_DEFAULTS["pop2piano"] = "t5"

#: Registry entries that refuse their family, naming the mechanism posenc lacks.
CLASS_DEFAULTS_REFUSED = {
    "deepseek_v4": "compress_rope_theta",
    "dbrx": "attn_config.rope_theta",
    # Glm4MoeConfig has no head_dim: 4096 // 96 = 42, int(42 * 0.5) = 21 rotated
    # elements, an odd rotary dimension (transformers rotates 22 with frequencies
    # over 21); GLM-4.5's configs give head_dim 128 (tests/data/models fixture)
    "glm4_moe": "rotary dimension comes out 21",
    # positions outside attention's q/k that posenc does not express (issue 20)
    "longt5": "local blocks",
    # issue 20, rotating families (h-rot)
    "ernie4_5_vl_moe": "3-D RoPE (h and w alternating",
    "ernie4_5_vl_moe_text": "3-D RoPE (h and w alternating",
    "zaya": "CCA attention",
    "minimax_m3_vl": "Lightning Indexer",
    "minimax_m3_vl_text": "Lightning Indexer",
    "inkling_mm_model": "relative-position logits projected",
    "inkling_text": "relative-position logits projected",
    "inkling2": "relative-position logits projected",
    "inkling2_text": "relative-position logits projected",
    "muse_spark": "layer_rope_theta",
    "muse_spark_text": "layer_rope_theta",
    # issue 20, own-attention families (h-swa)
    "cpmant": "segment relative bias", "nanochat": "turn by -theta",
    "vits": "windowed relative position embeddings",
    # issue 20 (h-swb)
    "neomme": "two-axis M-RoPE",
    "encoder-decoder": "read its encoder and its decoder each as a config.json of its own",
}
# issue 20 (h-swc)
CLASS_DEFAULTS_REFUSED.update({
    "mistral_large4": "LeRoPE", "mistral_large4_text": "LeRoPE",
    "glm_moe_dsa": "per-layer indexers",
    "hunyuan_vl": "XD-RoPE", "hunyuan_vl_text": "XD-RoPE",
    "prophetnet": "n-stream self-attention",
    "hy_v4": "last qk_rope_head_dim elements",
    "qwen4_exp": "QSA indexer", "qwen4_exp_text": "QSA indexer",
})

# issue 36 (h-buckets): read now; their golden against the models in
# tests/hf/test_buckets_hf.py
for _mt in ("longt5", "cpmant", "vits"):
    CLASS_DEFAULTS_REFUSED.pop(_mt)
GOLDEN_TESTED.update({"longt5", "cpmant", "vits"})
# learned tables read by other ids, TIPSv2's text sinusoid (h-ids): the probe reads
# MarkupLM's and TAPAS's 1-D rows (TAPAS's cells all (0, 0) by default) and
# TIPSv2's table; LayoutLM (whose box tables the probe would take for position
# tables) and Reformer (whose axial widths must sum to the hidden size the probe
# shrinks) are checked by tests/hf/test_ids_hf.py
CLASS_DEFAULTS += ["markuplm", "tapas", "tipsv2", "tipsv2_text_model"]
GOLDEN_TESTED |= {"layoutlm", "reformer"}
# issue 36 (h-beam): Beam read (NoPE full layers with their query scale, which the
# probe checks); SAM 3 LiteText's resampled table (no nn.Embedding for the probe
# to read) against F.interpolate and the model in tests/hf/test_beam_hf.py
CLASS_DEFAULTS += ["beam"]
GOLDEN_TESTED |= {"sam3_lite_text", "sam3_lite_text_text_model"}
# issue 36 (h-prophet): read now; each layer's rotary (None on NoPE layers) and
# the rest against the models in tests/hf/test_prophet_hf.py
for _mt in ("muse_spark", "muse_spark_text", "encoder-decoder", "prophetnet"):
    CLASS_DEFAULTS_REFUSED.pop(_mt)
ENCDEC_TESTED |= {"muse_spark", "muse_spark_text", "encoder-decoder"}
GOLDEN_TESTED.add("prophetnet")
# ERNIE 4.5 VL (h-mrope2): read now, the hw-alternating M-RoPE rule; the probe's
# third forward (3-D positions) checks it against the running module, and
# tests/hf/test_mrope2_hf.py the rotation, the text identity and the refusals
for _mt in ("ernie4_5_vl_moe", "ernie4_5_vl_moe_text"):
    CLASS_DEFAULTS_REFUSED.pop(_mt)
CLASS_DEFAULTS += ["ernie4_5_vl_moe", "ernie4_5_vl_moe_text"]
# NeoMME (h-mrope2): read now; its rotary module takes two position rows, which
# the probe's 3-D forward does not give: tests/hf/test_mrope2_hf.py checks it
CLASS_DEFAULTS_REFUSED.pop("neomme")
GOLDEN_TESTED.add("neomme")
# NanoChat (h-nanochat): read now, its RoPE turning by -theta (sense -1, the
# frequencies negated): the probe verifies it from its cos_sin; golden, the
# package and the refusals against the model in tests/hf/test_nanochat_hf.py
CLASS_DEFAULTS_REFUSED.pop("nanochat")
CLASS_DEFAULTS += ["nanochat"]
# LED's two learned tables (rows from 0): the probe reads the rows its
# forward uses; golden against LEDModel in test_seq2seq_families_hf.py too
CLASS_DEFAULTS += ["led"]


@pytest.mark.parametrize("model_type", CLASS_DEFAULTS)
def test_class_defaults_verified(model_type):
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == hf_probe.VERIFIED, rep
    assert rep.layers and all(v == "ok" for v in rep.layers.values())


@pytest.mark.parametrize("model_type", sorted(CLASS_DEFAULTS_REFUSED))
def test_class_defaults_refused(model_type):
    rep = hf_probe.probe(hf_probe.default_config(model_type))
    assert rep.status == hf_probe.REFUSED, rep
    assert CLASS_DEFAULTS_REFUSED[model_type] in rep.detail, rep


def _defaults(model_type, **kw):
    d = hf_probe.default_config(model_type)
    d.update(kw)
    return d


def _alternating(d, every=4):
    n = d["num_hidden_layers"]
    return ["full_attention" if i % every == 0 else "sliding_attention" for i in range(n)]


def test_minimax_m2_rotary_dim():
    """MiniMax-M2's checkpoints give rotary_dim 64 of head_dim 128 (no factor):
    half the head rotates; a partial_rotary_factor given as well wins, as in
    MiniMaxM2Config.convert_rope_params_to_dict's setdefault."""
    d = _defaults("minimax_m2", rotary_dim=64)
    d.pop("rope_parameters")
    d["rope_theta"] = 5e6
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "64/128" in rep.scheme, rep
    d["partial_rotary_factor"] = 0.25
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "32/128" in rep.scheme, rep
    wrong = hf_probe.probe(d, model_type="minimax_m2",
                           mutate=lambda e: _rope_like(e, rotary_dim=64) if e.rope else e)
    assert wrong.status == hf_probe.DISAGREE, wrong


@pytest.mark.parametrize("model_type", ["laguna", "mellum", "mimo_v2_flash", "ultrabert"])
def test_per_type_rope_sets(model_type):
    """Full and sliding layers each take their rope_parameters set's base and
    partial_rotary_factor (Laguna: 500000 with half the head, 10000 with all of
    it); a config without the per-type sets is refused."""
    d = _defaults(model_type)
    d["layer_types"] = _alternating(d)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    assert rep.layers.keys() >= {0, 1}
    flat = _defaults(model_type)
    flat["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0}
    assert hf_probe.probe(flat).status == hf_probe.REFUSED


def test_modernbert_hub_format():
    """ModernBERT's Hub configs: global_rope_theta / local_rope_theta and
    global_attn_every_n_layers (full where i % n == 0), no layer_types."""
    d = {"model_type": "modernbert", "hidden_size": 768, "num_hidden_layers": 22,
         "num_attention_heads": 12, "global_rope_theta": 160000.0, "local_rope_theta": 10000.0,
         "global_attn_every_n_layers": 3, "vocab_size": 50368, "max_position_embeddings": 8192,
         "local_attention": 128}
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
    d.update(global_attn_every_n_layers=2, local_rope_theta=20000.0)
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
    d["rope_scaling"] = {"rope_type": "linear", "factor": 2.0}
    assert hf_probe.probe(d).status == hf_probe.REFUSED


def test_cohere2_moe_dense_prefix():
    """Cohere2 MoE: a full layer whose MLP is dense rotates (force_rope with
    prefix_dense_sliding_window_pattern 1); other full layers are NoPE."""
    d = _defaults("cohere2_moe")
    n = d["num_hidden_layers"]
    d["layer_types"] = ["full_attention", "full_attention"] + _alternating(d)[2:]
    d["mlp_layer_types"] = ["dense"] + ["sparse"] * (n - 1)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    assert "none" in rep.scheme
    nope = hf_probe.probe(d, mutate=lambda e: hf_probe.Expect("none", {}, None)
                          if e.scheme == "rope" else e)
    assert nope.status == hf_probe.DISAGREE and "layer 0" in nope.detail, nope


@pytest.mark.parametrize("model_type", ["youtu", "glm4_moe_lite", "mistral4"])
def test_mla_rope_interleave_false(model_type):
    """The MLA families with rope_interleave false rotate halves."""
    rep = hf_probe.probe(_defaults(model_type, rope_interleave=False))
    assert rep.status == hf_probe.VERIFIED and "half" in rep.scheme, rep
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
# ---- Gemma 4: proportional RoPE, global_head_dim, KV-shared layers (issue 20) ----------


@pytest.mark.parametrize("p,d,factor", [(0.25, 512, 1.0), (0.3, 128, 2.0), (1.0, 64, 1.0)])
def test_proportional_matches_transformers(p, d, factor):
    """transformers' _compute_proportional_rope_parameters against posenc's
    proportional scaling, frequency by frequency: the exponent over the whole
    head, zeros past int(p * d // 2)."""
    from transformers import Gemma4TextConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    rp = {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": p}
    if factor != 1.0:
        rp["factor"] = factor
    cfg = Gemma4TextConfig(head_dim=d, global_head_dim=d, num_hidden_layers=2,
                           layer_types=["full_attention"] * 2,
                           rope_parameters={"full_attention": rp})
    inv, attn = ROPE_INIT_FUNCTIONS["proportional"](cfg, "cpu", layer_type="full_attention")
    want = inv.double().numpy()
    r = posenc.RoPE(d, base=1e6, scaling={k: v for k, v in rp.items() if k != "rope_theta"})
    got = r.inv_freq
    n = int(p * d // 2)
    assert got.shape == want.shape == (d // 2,)
    assert np.all(got[n:] == 0) and np.all(want[n:] == 0)
    assert np.all(got[:n] > 0)
    # transformers forms them in float32: (ln(base) + 8) 2^-24 relative
    assert np.all(np.abs(got - want) <= (np.log(1e6) + 8) * 2.0 ** -24 * want)
    assert r.attention_factor == attn == 1.0
    assert r.scaling["partial_rotary_factor"] == p


def _proportional_as(e, **kw):
    """Gemma 4's full layers read some other way (sliding layers unchanged)."""
    if not e.rope or e.rope.scaling["type"] != "proportional":
        return e
    return _rope_like(e, **kw)


GEMMA4_MUTATIONS = {
    # every pair rotated with the exponent over the head (no zeros)
    "no zero pairs": lambda e: _proportional_as(e),
    # the usual partial rotary: the first p*d elements, exponent over p*d
    "partial rotary": lambda e: _proportional_as(e, rotary_dim=e.rope.rotary_dim // 4),
    # the sliding layers' head size on the full layers
    "sliding head size": lambda e: _proportional_as(e, head_dim=256, rotary_dim=256)
    if e.rope and e.rope.head_dim == 512 else e,
}


@pytest.mark.parametrize("what", sorted(GEMMA4_MUTATIONS))
def test_gemma4_wrong_answer_is_caught(what):
    """Gemma 4 31B-it: verified as read; each plausible misreading of its
    full-attention layers disagrees."""
    path = os.path.join(MODELS, "gemma4-gemma-4-31b-it.json")
    rep = hf_probe.probe(path, mutate=GEMMA4_MUTATIONS[what])
    assert rep.status == hf_probe.DISAGREE, rep
    assert "layer 5" in rep.detail, rep.detail


def test_gemma4_kv_shared_layers():
    """Gemma 4 E2B-style: KV-shared layers (num_kv_shared_layers) rotate their
    queries with their layer type's RoPE; the keys they reuse were rotated by
    the last earlier layer of that type at the same positions."""
    with open(os.path.join(MODELS, "gemma4-gemma-4-31b-it.json")) as f:
        d = json.load(f)
    t = d["text_config"]
    t.update(num_hidden_layers=35, num_kv_shared_layers=20, attention_k_eq_v=False,
             hidden_size_per_layer_input=256,
             layer_types=(["sliding_attention"] * 4 + ["full_attention"]) * 7)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    assert len(rep.layers) == 10, rep.layers  # 5 producers and 5 consumers probed


@pytest.mark.parametrize("model_type", ["gemma4", "gemma4_text", "gemma3n_text", "vaultgemma"])
def test_gemma_config_class_defaults(model_type):
    """Gemma4TextConfig's defaults (global_head_dim 512, the class's rope
    sets, pattern 6), Gemma3nTextConfig's (pattern 5, 15 KV-shared layers),
    VaultGemmaConfig's."""
    rep = hf_probe.probe(hf_probe.default_config(model_type))
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


@pytest.mark.parametrize("model_type", ["hunyuan_v1_dense", "hunyuan_v1_moe"])
def test_hunyuan_ntk_alpha(model_type):
    """Hunyuan-A13B's block {"type": "dynamic", "alpha": 1000}: transformers'
    ntk_alpha, base * alpha^(d/(d-2)) at every length; without alpha it is
    dynamic NTK. The plain base instead of the stretched one is caught."""
    d = _defaults(model_type, head_dim=128, max_position_embeddings=32768)
    d["rope_parameters"] = {"rope_type": "dynamic", "rope_theta": 10000.0, "alpha": 1000.0,
                            "factor": 1.0}
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "ntk" in rep.scheme, rep
    plain = hf_probe.probe(d, mutate=lambda e: _rope_like(e) if e.rope else e)
    assert plain.status == hf_probe.DISAGREE, plain


@pytest.mark.parametrize("model_type", ["apertus", "cwm", "mistral4"])
def test_class_fills_its_rope_block(model_type):
    """ApertusConfig, CwmConfig and Mistral4Config put their own scaled block
    (llama3, llama3, YaRN) in place of a missing one and leave a rope_theta
    beside it unread: posenc refuses such a config instead of plain RoPE."""
    from transformers import CONFIG_MAPPING

    d = hf_probe.default_config(model_type)
    d.pop("rope_parameters")
    d["rope_theta"] = 500000.0
    with hf_probe._quiet():
        filled = CONFIG_MAPPING[model_type].from_dict(dict(d)).rope_parameters
    assert filled["rope_type"] != "default" and filled["rope_theta"] != 500000.0
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.REFUSED and "fills in" in rep.detail, rep
def test_zamba2_mem_rope():
    """Zamba 2 with use_mem_rope: the hybrid layers' shared attention rotates
    over 2 * hidden_size / heads (a scaled block too); without it, nothing."""
    d = hf_probe.default_config("zamba2")
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
    d["use_mem_rope"] = True
    d["rope_parameters"] = {"rope_type": "linear", "factor": 4.0, "rope_theta": 5e5}
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "hooks" in rep.how, rep
    assert rep.scheme.startswith("rope"), rep.scheme


def test_deepseek_v32_indexer():
    """DeepSeek V3.2: MLA's interleaved RoPE and, in every layer, the Sparse
    Attention indexer's half-split RoPE of its own q and k, each compared
    with posenc's (posenc_model_layer_indexer_rope); an indexer answer in the
    wrong layout comes out as a disagreement in the indexer."""
    import posenc

    d = hf_probe.default_config("deepseek_v32")
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "indexer rotations" in rep.how, rep

    def wrong(e):
        r = e.rope
        if r is None or r.layout != "half":
            return e
        return hf_probe.Expect("rope", e.fields, posenc.RoPE(
            head_dim=r.head_dim, rotary_dim=r.rotary_dim, base=r.base, layout="interleaved"))

    bad = hf_probe.probe(d, mutate=wrong)
    assert bad.status == hf_probe.DISAGREE and "indexer" in bad.detail, bad


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


# ---- own-attention families (issue 20, h-swa) -------------------------------------------


class _Swap:
    """The posenc module with some functions replaced (a planted wrong answer)."""

    def __init__(self, real, **over):
        self._real, self._over = real, over

    def __getattr__(self, name):
        return self._over[name] if name in self._over else getattr(self._real, name)


@pytest.mark.parametrize("model_type,as_type", [("nystromformer", "megatron-bert"),
                                                ("gpt_neo", "yoso")])
def test_own_attention_learned_offset_is_caught(model_type, as_type):
    """No attention call reaches the probe (their own attention classes): the
    table rows still decide. Nystromformer reads rows pos + 2, GPT-Neo pos."""
    d = hf_probe.default_config(model_type)
    assert hf_probe.probe(d).status == hf_probe.VERIFIED
    rep = hf_probe.probe(d, model_type=as_type)
    assert rep.status == hf_probe.DISAGREE and "posenc's offset" in rep.detail, rep


def test_xlm_sinusoid_table_checked(monkeypatch):
    """XLM's sinusoidal_embeddings fills its table with DistilBERT's sinusoid;
    the probe compares the whole table with posenc.sinusoid, and a sinusoid of
    another base disagrees."""
    d = _defaults("xlm", sinusoidal_embeddings=True)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "sinusoid table" in rep.how, rep
    real = hf_probe._import_posenc()
    off = _Swap(real, sinusoid=lambda n, dim, base=1e4, **kw:
                real.sinusoid(n, dim, base=base * 1.01, **kw))
    monkeypatch.setattr(hf_probe, "_import_posenc", lambda: off)
    bad = hf_probe.probe(d)
    assert bad.status == hf_probe.DISAGREE and "sinusoid table" in bad.detail, bad


def test_recurrent_gemma_pattern_and_rotary():
    """block_types repeats over the layers (attention at 1, 3 for [recurrent,
    attention]); the rotated part is half the head (the config's head_dim 64,
    which the config class keeps over hidden_size // heads = 256): the whole
    head, or the other layout, disagrees."""
    path = os.path.join(MODELS, "recurrent-gemma-synthetic.json")
    rep = hf_probe.probe(path)
    assert rep.status == hf_probe.VERIFIED, rep
    assert "rope half 32/64" in rep.scheme, rep
    for mut in (lambda e: _rope_like(e, rotary_dim=e.rope.head_dim) if e.rope else e,
                MUTATIONS["other layout"]):
        bad = hf_probe.probe(path, mutate=mut)
        assert bad.status == hf_probe.DISAGREE, bad


def test_nanochat_turns_by_minus_theta():
    """NanoChat's rotate_half is cat(x2, -x1), so its apply_rotary_pos_emb
    equals posenc's HALF rotation run inverse (-theta), and not the forward
    one; the registry's RoPE (sense -1) is verified by the probe, and the
    same RoPE turning by +theta disagrees."""
    import torch
    from transformers import NanoChatConfig
    from transformers.models.nanochat import modeling_nanochat as mn

    cfg = NanoChatConfig(hidden_size=64, num_attention_heads=4, num_hidden_layers=1)
    T, D = 12, 16
    torch.manual_seed(0)
    q = torch.randn(1, 4, T, D, dtype=torch.float64)
    cos, sin = mn.NanoChatRotaryEmbedding(cfg)(q, torch.arange(T)[None])
    hf, _ = mn.apply_rotary_pos_emb(q, q, cos, sin)
    rope = posenc.RoPE(D, base=10000.0, layout="half")
    inv = rope.apply(q.clone(), inplace=False, inverse=True, layout="bhsd")
    fwd = rope.apply(q.clone(), inplace=False, layout="bhsd")
    assert torch.allclose(hf, inv, atol=1e-5)
    assert not torch.allclose(hf, fwd, atol=1e-2)
    d = hf_probe.default_config("nanochat")
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    plus = hf_probe.probe(d, mutate=lambda e: _rope_like(e) if e.rope else e)
    assert plus.status == hf_probe.DISAGREE and "pair 0 at position 1" in plus.detail, plus


def test_t5_bias_checked(monkeypatch):
    """The probe compares each bias-owning attention's compute_bias with
    posenc.t5_bias: a bias with the direction flipped disagrees (T5's
    encoder, Pix2Struct's causal decoder)."""
    for path in ("pix2struct-synthetic.json", "t5-small.json"):
        rep = hf_probe.probe(os.path.join(MODELS, path))
        assert rep.status == hf_probe.VERIFIED and "T5 bias" in rep.how, rep
    real = hf_probe._import_posenc()
    flipped = _Swap(real, t5_bias=lambda table, n_query, n_key, bidirectional=True, **kw:
                    real.t5_bias(table, n_query, n_key, bidirectional=not bidirectional, **kw))
    monkeypatch.setattr(hf_probe, "_import_posenc", lambda: flipped)
    for path in ("pix2struct-synthetic.json", "t5-small.json"):
        bad = hf_probe.probe(os.path.join(MODELS, path))
        assert bad.status == hf_probe.DISAGREE and "compute_bias" in bad.detail, bad


def test_openai_privacy_filter_class_yarn_block():
    """OpenAIPrivacyFilterConfig without rope_parameters fills in YaRN (factor
    32, original 4096) and puts default_theta 150000 in it: posenc's
    default_rope_parameters for the family reads the same block. Read as plain
    RoPE instead (no YaRN) is caught."""
    d = hf_probe.default_config("openai_privacy_filter")
    d.pop("rope_parameters")
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "yarn" in rep.scheme, rep
    plain = hf_probe.probe(d, mutate=lambda e: _rope_like(e) if e.rope else e)
    assert plain.status == hf_probe.DISAGREE, plain


@pytest.mark.parametrize("model_type", ["blip_text_model", "flava_text_model",
                                        "groupvit_text_model"])
def test_own_attention_learned_rows(model_type):
    """Text towers whose attention is their own code (no AttentionInterface):
    the probe checks the rows of the position table alone, and a wrong offset
    (read as XLM-R: padding_idx + 1) is caught there."""
    d = hf_probe.default_config(model_type)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "not reached" in rep.how, rep
    bad = hf_probe.probe(d, model_type="xlm-roberta")
    assert bad.status == hf_probe.DISAGREE and "offset" in bad.detail, bad


def test_pp_formulanet_decoder_layers():
    """PPFormulaNetTextConfig maps num_hidden_layers to encoder_layers: the text
    decoder has decoder_layers layers, which posenc counts."""
    import subprocess
    import tempfile

    d = hf_probe.default_config("pp_formulanet_text")
    d.update(decoder_layers=3, encoder_layers=12)
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(d, f)
        f.flush()
        out = subprocess.run([hf_probe._program(), "--config", f.name, "-c", "EXPLAIN MODEL"],
                             capture_output=True, text=True, check=True).stdout
    assert "layers=3 " in out and "offset=2" in out, out
    assert hf_probe.probe(d).status == hf_probe.VERIFIED


def test_vision_encoder_decoder_gpt2_decoder():
    """A ViT-GPT2 captioner (vision-encoder-decoder with a GPT-2 decoder) is read
    through its decoder as gpt2: GPT-2's table rows 0.., verified."""
    d = hf_probe.default_config("vision-encoder-decoder")
    g = hf_probe.default_config("gpt2")
    g.update(is_decoder=True, add_cross_attention=True)
    d["decoder"] = g
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED and "wpe" in rep.how, rep


@pytest.mark.parametrize("model_type", ["llama", "qwen2", "mistral"])
def test_typeless_rope_block(model_type):
    """A RoPE block without rope_type or type: transformers 5.23 gives it the
    type "default" (modeling_rope_utils.py L825) and its rope_theta, which
    posenc reads the same, verified against the built model. A typeless
    block that also holds factor is left unread by transformers (a warning
    only) and refused by posenc, naming the block's missing type."""
    d = _defaults(model_type, rope_parameters={"rope_theta": 500000.0})
    d.pop("rope_scaling", None)
    d.pop("rope_theta", None)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    d["rope_parameters"] = {"rope_theta": 500000.0, "factor": 4.0}
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.REFUSED, rep
    assert "rope_parameters.factor unread" in rep.detail, rep


def _whole_head_families():
    """The registry rows marked .rotary = WHOLE_HEAD (the family's code reads
    no partial factor), read from the table's source."""
    import re
    with open(os.path.join(ROOT, "src", "config", "config_families_table.h")) as f:
        text = f.read()
    return set(re.findall(r'\{\.model_type = "([^"]+)", \.rotary = WHOLE_HEAD,', text))


WHOLE_HEAD = _whole_head_families()


def _rotating_families():
    import subprocess
    out = subprocess.run([hf_probe._program(), "--models"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return [l.split()[0] for l in out
            if (" scheme=rope " in l or " scheme=mixed " in l) and "supported=no" not in l]


def test_whole_head_rows_exist():
    assert len(WHOLE_HEAD) > 80 and {"llama", "mistral", "qwen2", "gemma"} <= WHOLE_HEAD


@pytest.mark.parametrize("model_type", _rotating_families())
def test_partial_factor_unread(model_type, tmp_path):
    """partial_rotary_factor 0.5 on every rotating family's class defaults.
    Where posenc reads the factor (phi, stablelm, glm...), the built model
    must agree with it. Where posenc's row says the code reads none
    (WHOLE_HEAD: Llama's compute_default_rope_parameters,
    modeling_llama.py L90-105, takes dim = head_dim), posenc refuses the key
    by name, and the model built with the factor must rotate exactly as
    posenc's reading of the config without it (the code ignores it), or
    fail to run (a type that reads the factor while attention does not)."""
    try:
        d = hf_probe.default_config(model_type)
    except Exception:  # noqa: BLE001 - families without transformers defaults
        pytest.skip("no transformers config class defaults")
    if d is None:
        pytest.skip("no transformers config class defaults")
    if model_type in ENCDEC_TESTED | GOLDEN_TESTED:
        pytest.skip("not a family the probe checks (see ENCDEC_TESTED / GOLDEN_TESTED)")
    d = dict(d)
    with_f = dict(d, partial_rotary_factor=0.5)
    rp = d.get("rope_parameters")
    if isinstance(rp, dict) and "rope_type" in rp:
        with_f["rope_parameters"] = dict(rp, partial_rotary_factor=0.5)
    rep = hf_probe.probe(with_f)
    assert rep.status != hf_probe.DISAGREE, rep
    if model_type not in WHOLE_HEAD:
        return
    assert rep.status == hf_probe.REFUSED, rep
    assert "never reads a partial factor" in rep.detail, rep
    # the model with the factor against posenc's answer for the config without it
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    ok, explain, text = hf_probe.explain_model(str(path))
    if not ok:
        pytest.skip(f"posenc refuses the class defaults themselves: {text[:100]}")
    cfg = hf_probe.hf_config(with_f)
    got = hf_probe._probe_built(with_f, cfg, str(path), explain, model_type, None,
                                (hf_probe.SMALL_POS, hf_probe.BIG_POS))
    assert got.status in (hf_probe.VERIFIED, hf_probe.NOT_BUILDABLE), got
    if got.status == hf_probe.NOT_BUILDABLE:
        assert "size of tensor" in got.detail, got


#: LXMERT's language stream: BERT's learned table, run with the visual inputs
#: its forward needs (the probe gives none), in test_lxmert_learned_rows
GOLDEN_TESTED.add("lxmert")
#: CSM's backbone and depth decoder: the probe cannot build them (over its size
#: limit; no AutoModel class for the depth decoder), tests/hf/test_own_rotary_hf.py
#: runs their rotation against posenc
GOLDEN_TESTED |= {"csm", "csm_depth_decoder_model"}
#: Kyutai STT: the probe's forward does not fit its codebook inputs; the same file
GOLDEN_TESTED.add("kyutai_speech_to_text")
#: Qwen3-Omni's talker code predictor: no AutoModel class for its config; the same file
GOLDEN_TESTED.add("qwen3_omni_moe_talker_code_predictor")
#: Evolla's language model: no AutoModel class for its config; the same file
GOLDEN_TESTED.add("evolla")


def test_lxmert_learned_rows(tmp_path):
    """LxmertModel (config class defaults, 1 layer per stream) reads rows
    0..T-1 of embeddings.position_embeddings, a table of
    max_position_embeddings x hidden_size: posenc's offset, positions and dim."""
    import torch
    import torch.nn.functional as F
    from transformers import LxmertConfig, LxmertModel

    d = hf_probe.default_config("lxmert")
    path = str(tmp_path / "config.json")
    with open(path, "w") as fh:
        json.dump(d, fh)
    ok, explain, text = hf_probe.explain_model(path)
    assert ok, text
    assert {v[0] for v in explain.values()} == {"learned"} and len(explain) == d["l_layers"], text
    f = explain[0][1]
    cfg = LxmertConfig(l_layers=1, x_layers=1, r_layers=1, hidden_size=64,
                       num_attention_heads=4, intermediate_size=64)
    torch.manual_seed(0)
    model = LxmertModel(cfg).eval()
    table = model.embeddings.position_embeddings.weight
    assert tuple(table.shape) == (int(f["positions"]), 64)  # dim follows hidden_size
    assert int(f["dim"]) == d["hidden_size"] and int(f["positions"]) == d["max_position_embeddings"]
    T = 37
    seen = []
    orig = F.embedding

    def emb(inp, weight, *a, **kw):
        if weight is table:
            seen.append(inp.reshape(-1)[:T].tolist())
        return orig(inp, weight, *a, **kw)

    F.embedding = emb
    try:
        with torch.no_grad():
            model(input_ids=torch.arange(1, T + 1)[None], visual_feats=torch.zeros(1, 3, cfg.visual_feat_dim),
                  visual_pos=torch.zeros(1, 3, cfg.visual_pos_dim))
    finally:
        F.embedding = orig
    assert seen == [[p + int(f["offset"]) for p in range(T)]], seen


#: ESM: position_embedding_type picks RoPE or a learned table, and the class's
#: defaults (no vocab_size, no pad_token_id) do not build: test_esm_schemes
GOLDEN_TESTED.add("esm")


@pytest.mark.parametrize("pet", ["rotary", "absolute"])
def test_esm_schemes(pet):
    """EsmConfig's defaults with a vocabulary and a pad id (ESM-2's 33 tokens,
    pad 1): "rotary" rotates every layer (rope_theta read), "absolute" reads
    its table from pad_token_id + 1; each verified by the probe, and the
    a wrong reading caught (a base 0.1% high, BERT's offset 0)."""
    d = hf_probe.default_config("esm")
    d.update(vocab_size=33, pad_token_id=1, mask_token_id=32, position_embedding_type=pet)
    rep = hf_probe.probe(d)
    assert rep.status == hf_probe.VERIFIED, rep
    if pet == "rotary":
        # the base is the config's rope_theta, and a wrong one is caught
        rep = hf_probe.probe(dict(d, rope_theta=1234.0))
        assert rep.status == hf_probe.VERIFIED and "hooks" in rep.how, rep
        bad = hf_probe.probe(dict(d, rope_theta=1234.0), mutate=MUTATIONS["base 0.1% high"])
    else:
        assert "learned rows" in rep.how, rep
        bad = hf_probe.probe(d, model_type="bert")  # offset 0
    assert bad.status == hf_probe.DISAGREE, bad


@pytest.mark.parametrize("change,word", [({"position_embedding_type": None}, "null"),
                                         ({"position_embedding_type": "relative_key"},
                                          "relative_key"),
                                         ({"pad_token_id": None}, "pad_token_id"),
                                         ({"position_embedding_type": "rotary",
                                           "rope_scaling": {"rope_type": "linear",
                                                            "factor": 2.0}},
                                          "rope_theta alone")])
def test_esm_refusals(change, word, tmp_path):
    """No positions at all (null or another word: neither of the code's
    branches), an absolute table without pad_token_id and a scaling block
    (EsmRotaryEmbedding reads rope_theta alone) are refused by name."""
    d = hf_probe.default_config("esm")
    d.update(vocab_size=33, pad_token_id=1)
    d.update(change)
    path = str(tmp_path / "config.json")
    with open(path, "w") as f:
        json.dump(d, f)
    ok, _, text = hf_probe.explain_model(path)
    assert not ok and word in text, text
