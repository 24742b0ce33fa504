"""The real checkpoints of the relative-bucket, relative-sinusoid, RoFormer and
2D-position families, acceptance audit: each config below is written after the
published config.json of the checkpoint named beside it (its keys and values
as published, legacy keys, nulls and old transformers_version included), not
copied byte for byte. For each:

  1. `posenc --config F -c "EXPLAIN MODEL"` reads it (exit 0) and names each
     layer group's scheme with the parameters transformers 5.23's modules
     are built with from the same config;
  2. `posenc golden --config F --layer N` for the first layer of each stack
     (and the last), at its default positions and with --positions lists
     (large positions; negative distances where the scheme has them), equals
     what transformers 5.23's running code computes: a model (or its
     attention / embedding module) built from the config with the REAL
     position-related values and, where the position rules do not depend on
     them, a smaller hidden size, fewer layers and a small vocabulary. Buckets
     and ids are compared exactly, sinusoid vectors within float rounding
     (the bounds of test_relsin_hf.py and test_roformer_hf.py, which say why).

Where the running model can only be run at 0 .. n - 1 (a bias computed from
arange), the --positions lists are checked against the same code's own
function at those positions (named at each test). Nothing is downloaded."""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)

CONFIGS = {}

# sentence-transformers/all-mpnet-base-v2
#   (written after its published config.json, not copied byte for byte)
CONFIGS["all-mpnet-base-v2"] = {
    "_name_or_path": "microsoft/mpnet-base", "architectures": ["MPNetForMaskedLM"],
    "attention_probs_dropout_prob": 0.1, "bos_token_id": 0, "eos_token_id": 2,
    "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768,
    "initializer_range": 0.02, "intermediate_size": 3072, "layer_norm_eps": 1e-05,
    "max_position_embeddings": 514, "model_type": "mpnet", "num_attention_heads": 12,
    "num_hidden_layers": 12, "pad_token_id": 1, "relative_attention_num_buckets": 32,
    "transformers_version": "4.8.2", "vocab_size": 30527}
# microsoft/mpnet-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["mpnet-base"] = {
    "architectures": ["MPNetForMaskedLM"], "attention_probs_dropout_prob": 0.1,
    "bos_token_id": 0, "eos_token_id": 2, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
    "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
    "layer_norm_eps": 1e-05, "max_position_embeddings": 514, "model_type": "mpnet",
    "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 1,
    "relative_attention_num_buckets": 32, "vocab_size": 30527}
# microsoft/deberta-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["deberta-base"] = {
    "model_type": "deberta", "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
    "intermediate_size": 3072, "max_position_embeddings": 512, "relative_attention": True,
    "position_buckets": -1, "max_relative_positions": -1, "pad_token_id": 0,
    "num_attention_heads": 12, "num_hidden_layers": 12, "type_vocab_size": 0,
    "vocab_size": 50265, "layer_norm_eps": 1e-7, "pos_att_type": ["c2p", "p2c"],
    "position_biased_input": False}
# microsoft/deberta-large-mnli
#   (written after its published config.json, not copied byte for byte)
CONFIGS["deberta-large-mnli"] = {
    "model_type": "deberta", "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 1024, "initializer_range": 0.02,
    "intermediate_size": 4096, "max_position_embeddings": 512, "relative_attention": True,
    "pos_att_type": "c2p|p2c", "layer_norm_eps": 1e-7, "max_relative_positions": -1,
    "position_biased_input": False, "num_attention_heads": 16, "num_hidden_layers": 24,
    "type_vocab_size": 0, "vocab_size": 50265,
    "id2label": {"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"},
    "label2id": {"CONTRADICTION": 0, "NEUTRAL": 1, "ENTAILMENT": 2}}
# microsoft/deberta-v2-xlarge
#   (written after its published config.json, not copied byte for byte)
CONFIGS["deberta-v2-xlarge"] = {
    "model_type": "deberta-v2", "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 1536, "initializer_range": 0.02,
    "intermediate_size": 6144, "max_position_embeddings": 512, "relative_attention": True,
    "position_buckets": 256, "norm_rel_ebd": "layer_norm", "share_att_key": True,
    "pos_att_type": "p2c|c2p", "conv_kernel_size": 3, "conv_act": "gelu",
    "layer_norm_eps": 1e-7, "max_relative_positions": -1, "position_biased_input": False,
    "num_attention_heads": 24, "attention_head_size": 64, "num_hidden_layers": 24,
    "type_vocab_size": 0, "vocab_size": 128100}
# microsoft/deberta-v3-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["deberta-v3-base"] = {
    "model_type": "deberta-v2", "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
    "intermediate_size": 3072, "max_position_embeddings": 512, "relative_attention": True,
    "position_buckets": 256, "norm_rel_ebd": "layer_norm", "share_att_key": True,
    "pos_att_type": "p2c|c2p", "layer_norm_eps": 1e-7, "max_relative_positions": -1,
    "position_biased_input": False, "num_attention_heads": 12, "num_hidden_layers": 12,
    "type_vocab_size": 0, "vocab_size": 128100}
# microsoft/deberta-v3-small
#   (written after its published config.json, not copied byte for byte)
CONFIGS["deberta-v3-small"] = dict(CONFIGS["deberta-v3-base"], num_hidden_layers=6)
# microsoft/mdeberta-v3-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["mdeberta-v3-base"] = dict(CONFIGS["deberta-v3-base"], vocab_size=251000)
# google/long-t5-tglobal-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["long-t5-tglobal-base"] = {
    "architectures": ["LongT5ForConditionalGeneration"], "d_ff": 2048, "d_kv": 64,
    "d_model": 768, "decoder_start_token_id": 0, "dropout_rate": 0.1,
    "encoder_attention_type": "transient-global", "eos_token_id": 1,
    "feed_forward_proj": "gated-gelu", "global_block_size": 16, "initializer_factor": 1.0,
    "is_encoder_decoder": True, "layer_norm_epsilon": 1e-06, "local_radius": 127,
    "model_type": "longt5", "n_positions": 4096, "num_decoder_layers": 12, "num_heads": 12,
    "num_layers": 12, "output_past": True, "pad_token_id": 0,
    "relative_attention_max_distance": 128, "relative_attention_num_buckets": 32,
    "tie_word_embeddings": False, "transformers_version": "4.20.0.dev0", "use_cache": True,
    "vocab_size": 32128}
# google/long-t5-local-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["long-t5-local-base"] = dict(CONFIGS["long-t5-tglobal-base"],
                                     encoder_attention_type="local")
# openbmb/cpm-ant-10b
#   (written after its published config.json, not copied byte for byte)
CONFIGS["cpm-ant-10b"] = {
    "architectures": ["CpmAntForCausalLM"], "model_type": "cpmant", "vocab_size": 30720,
    "hidden_size": 4096, "num_attention_heads": 32, "dim_head": 128, "dim_ff": 10240,
    "num_hidden_layers": 48, "dropout_p": 0.0, "position_bias_num_buckets": 512,
    "position_bias_max_distance": 2048, "eps": 1e-6, "init_std": 1.0, "prompt_types": 32,
    "prompt_length": 32, "segment_types": 32, "use_cache": True}
# facebook/mms-tts-eng
#   (written after its published config.json, not copied byte for byte)
CONFIGS["mms-tts-eng"] = {
    "activation_dropout": 0.1, "architectures": ["VitsModel"], "attention_dropout": 0.1,
    "depth_separable_channels": 2, "depth_separable_num_layers": 3,
    "duration_predictor_dropout": 0.5, "duration_predictor_filter_channels": 256,
    "duration_predictor_flow_bins": 10, "duration_predictor_kernel_size": 3,
    "duration_predictor_num_flows": 4, "duration_predictor_tail_bound": 5.0,
    "ffn_dim": 768, "ffn_kernel_size": 3, "flow_size": 192, "hidden_act": "relu",
    "hidden_dropout": 0.1, "hidden_size": 192, "initializer_range": 0.02,
    "layer_norm_eps": 1e-05, "layerdrop": 0.1, "leaky_relu_slope": 0.1, "model_type": "vits",
    "noise_scale": 0.667, "noise_scale_duration": 0.8, "num_attention_heads": 2,
    "num_hidden_layers": 6, "num_speakers": 1, "pad_token_id": 0,
    "posterior_encoder_num_wavenet_layers": 16, "prior_encoder_num_flows": 4,
    "prior_encoder_num_wavenet_layers": 4,
    "resblock_dilation_sizes": [[1, 3, 5], [1, 3, 5], [1, 3, 5]],
    "resblock_kernel_sizes": [3, 7, 11], "sampling_rate": 16000, "speaker_embedding_size": 0,
    "speaking_rate": 1.0, "spectrogram_bins": 513, "torch_dtype": "float32",
    "transformers_version": "4.33.0.dev0", "upsample_initial_channel": 512,
    "upsample_kernel_sizes": [16, 16, 4, 4], "upsample_rates": [8, 8, 2, 2], "use_bias": True,
    "use_stochastic_duration_prediction": True, "vocab_size": 38, "wavenet_dilation_rate": 1,
    "wavenet_dropout": 0.0, "wavenet_kernel_size": 5, "window_size": 4}
# microsoft/prophetnet-large-uncased
#   (written after its published config.json, not copied byte for byte)
CONFIGS["prophetnet-large-uncased"] = {
    "activation_dropout": 0.1, "activation_function": "gelu",
    "architectures": ["ProphetNetForConditionalGeneration"], "attention_dropout": 0.1,
    "bos_token_id": 102, "decoder_ffn_dim": 4096, "decoder_layerdrop": 0.0,
    "decoder_max_position_embeddings": 514, "decoder_start_token_id": 102,
    "disable_ngram_loss": False, "dropout": 0.1, "encoder_ffn_dim": 4096,
    "encoder_layerdrop": 0.0, "encoder_max_position_embeddings": 513, "eos_token_id": 102,
    "eps": 0.0, "hidden_size": 1024, "init_std": 0.02, "is_encoder_decoder": True,
    "max_position_embeddings": 512, "model_type": "prophetnet", "ngram": 2, "num_buckets": 32,
    "num_decoder_attention_heads": 16, "num_decoder_layers": 12,
    "num_encoder_attention_heads": 16, "num_encoder_layers": 12, "output_past": False,
    "pad_token_id": 0, "relative_max_distance": 128, "vocab_size": 30522}
# xlnet/xlnet-base-cased
#   (written after its published config.json, not copied byte for byte)
CONFIGS["xlnet-base-cased"] = {
    "architectures": ["XLNetLMHeadModel"], "attn_type": "bi", "bi_data": False,
    "bos_token_id": 1, "clamp_len": -1, "d_head": 64, "d_inner": 3072, "d_model": 768,
    "dropout": 0.1, "end_n_top": 5, "eos_token_id": 2, "ff_activation": "gelu",
    "initializer_range": 0.02, "layer_norm_eps": 1e-12, "mem_len": None, "model_type": "xlnet",
    "n_head": 12, "n_layer": 12, "pad_token_id": 5, "reuse_len": None, "same_length": False,
    "start_n_top": 5, "summary_activation": "tanh", "summary_last_dropout": 0.1,
    "summary_type": "last", "summary_use_proj": True,
    "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 250}},
    "untie_r": True, "vocab_size": 32000}
# funnel-transformer/small
#   (written after its published config.json, not copied byte for byte)
CONFIGS["funnel-small"] = {
    "activation_dropout": 0.0, "architectures": ["FunnelModel"], "attention_dropout": 0.1,
    "attention_type": "relative_shift", "block_sizes": [4, 4, 4], "d_head": 64,
    "d_inner": 3072, "d_model": 768, "hidden_act": "gelu_new", "hidden_dropout": 0.1,
    "initializer_range": 0.1, "initializer_std": None, "layer_norm_eps": 1e-09,
    "model_type": "funnel", "n_head": 12, "num_decoder_layers": 2, "pool_q_only": True,
    "pooling_type": "mean", "separate_cls": True, "truncate_seq": True, "vocab_size": 30522}
# junnyu/roformer_chinese_base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["roformer_chinese_base"] = {
    "architectures": ["RoFormerForMaskedLM"], "attention_probs_dropout_prob": 0.1,
    "embedding_size": 768, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
    "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
    "layer_norm_eps": 1e-12, "max_position_embeddings": 1536, "model_type": "roformer",
    "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 0,
    "rotary_value": False, "type_vocab_size": 2, "vocab_size": 50000}
# microsoft/layoutlm-base-uncased
#   (written after its published config.json, not copied byte for byte)
CONFIGS["layoutlm-base-uncased"] = {
    "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
    "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
    "layer_norm_eps": 1e-12, "max_2d_position_embeddings": 1024,
    "max_position_embeddings": 512, "model_type": "layoutlm", "num_attention_heads": 12,
    "num_hidden_layers": 12, "output_past": True, "type_vocab_size": 2, "vocab_size": 30522}
# microsoft/markuplm-base
#   (written after its published config.json, not copied byte for byte)
CONFIGS["markuplm-base"] = {
    "architectures": ["MarkupLMForPretraining"], "attention_probs_dropout_prob": 0.1,
    "bos_token_id": 0, "eos_token_id": 2, "gradient_checkpointing": False, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
    "intermediate_size": 3072, "layer_norm_eps": 1e-05, "max_depth": 50,
    "max_position_embeddings": 514, "max_xpath_subs_unit_embeddings": 1024,
    "max_xpath_tag_unit_embeddings": 256, "model_type": "markuplm", "num_attention_heads": 12,
    "num_hidden_layers": 12, "pad_token_id": 1, "position_embedding_type": "absolute",
    "subs_pad_id": 1001, "tag_pad_id": 216, "transformers_version": "4.21.0.dev0",
    "type_vocab_size": 1, "use_cache": True, "vocab_size": 50267, "xpath_unit_hidden_size": 32}
# google/tapas-base-finetuned-wtq
#   (written after its published config.json, not copied byte for byte)
CONFIGS["tapas-base-finetuned-wtq"] = {
    "aggregation_labels": {"0": "NONE", "1": "SUM", "2": "AVERAGE", "3": "COUNT"},
    "aggregation_loss_weight": 1.0, "aggregation_temperature": 1.0,
    "allow_empty_column_selection": False, "answer_loss_cutoff": 0.664694,
    "answer_loss_importance": 1.0, "architectures": ["TapasForQuestionAnswering"],
    "attention_probs_dropout_prob": 0.1, "average_approximation_function": "ratio",
    "average_logits_per_cell": False, "cell_selection_preference": 0.207951,
    "disable_per_token_loss": False, "gradient_checkpointing": False, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1, "hidden_size": 768, "huber_loss_delta": 0.121194,
    "init_cell_selection_weights_to_zero": True, "initializer_range": 0.02,
    "intermediate_size": 3072, "layer_norm_eps": 1e-12, "max_num_columns": 32,
    "max_num_rows": 64, "max_position_embeddings": 1024, "model_type": "tapas",
    "no_aggregation_label_index": 0, "num_aggregation_labels": 4, "num_attention_heads": 12,
    "num_hidden_layers": 12, "pad_token_id": 0, "positive_label_weight": 10.0,
    "reset_position_index_per_cell": True, "select_one_column": True,
    "softmax_temperature": 1.0, "temperature": 0.0352513,
    "type_vocab_size": [3, 256, 256, 2, 256, 256, 10],
    "type_vocab_sizes": [3, 256, 256, 2, 256, 256, 10], "use_answer_as_supervision": True,
    "use_gumbel_for_aggregation": False, "use_normalized_answer_loss": False,
    "vocab_size": 30522}
# google/reformer-crime-and-punishment
#   (written after its published config.json, not copied byte for byte)
CONFIGS["reformer-crime-and-punishment"] = {
    "architectures": ["ReformerModelWithLMHead"], "attention_head_size": 64,
    "attention_probs_dropout_prob": 0.1,
    "attn_layers": ["local", "lsh", "local", "lsh", "local", "lsh"], "axial_norm_std": 1.0,
    "axial_pos_embds": True, "axial_pos_embds_dim": [64, 192], "axial_pos_shape": [512, 1024],
    "chunk_size_feed_forward": 0, "chunk_size_lm_head": 0, "eos_token_id": 2,
    "feed_forward_size": 512, "hash_seed": None, "hidden_act": "relu",
    "hidden_dropout_prob": 0.05, "hidden_size": 256, "initializer_range": 0.02,
    "is_decoder": True, "layer_norm_eps": 1e-12, "local_attention_probs_dropout_prob": 0.05,
    "local_attn_chunk_length": 64, "local_num_chunks_after": 0, "local_num_chunks_before": 1,
    "lsh_attention_probs_dropout_prob": 0.0, "lsh_attn_chunk_length": 64,
    "lsh_num_chunks_after": 0, "lsh_num_chunks_before": 1, "max_position_embeddings": 524288,
    "model_type": "reformer", "num_attention_heads": 2, "num_buckets": [64, 128],
    "num_chunks_after": 0, "num_chunks_before": 1, "num_hashes": 1, "num_hidden_layers": 6,
    "output_past": True, "pad_token_id": 0,
    "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 100}},
    "vocab_size": 320}
# google/reformer-enwik8
#   (written after its published config.json, not copied byte for byte)
CONFIGS["reformer-enwik8"] = {
    "architectures": ["ReformerModelWithLMHead"], "attention_head_size": 128,
    "attention_probs_dropout_prob": 0.1, "attn_layers": ["lsh", "local"] * 6,
    "axial_norm_std": 1.0, "axial_pos_embds": True, "axial_pos_embds_dim": [256, 768],
    "axial_pos_shape": [128, 512], "chunk_size_feed_forward": 0, "chunk_size_lm_head": 0,
    "eos_token_id": 2, "feed_forward_size": 4096, "hash_seed": None, "hidden_act": "relu",
    "hidden_dropout_prob": 0.2, "hidden_size": 1024, "initializer_range": 0.02,
    "is_decoder": True, "layer_norm_eps": 1e-12, "local_attention_probs_dropout_prob": 0.2,
    "local_attn_chunk_length": 128, "local_num_chunks_after": 0, "local_num_chunks_before": 1,
    "lsh_attention_probs_dropout_prob": 0.1, "lsh_attn_chunk_length": 256,
    "lsh_num_chunks_after": 0, "lsh_num_chunks_before": 1, "max_position_embeddings": 65536,
    "model_type": "reformer", "num_attention_heads": 8, "num_buckets": 512,
    "num_chunks_after": 0, "num_chunks_before": 1, "num_hashes": 4, "num_hidden_layers": 12,
    "output_past": True, "pad_token_id": 0, "vocab_size": 258}
# google/t5gemma-2b-2b-prefixlm-it
#   (written after its published config.json, not copied byte for byte)
_T5G_STACK = {
    "attention_bias": False, "attention_dropout": 0.0, "attn_logit_softcapping": 50.0,
    "classifier_dropout_rate": 0.0, "cross_attention_hidden_size": 2304, "dropout_rate": 0.0,
    "final_logit_softcapping": 30.0, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "hidden_size": 2304, "initializer_range": 0.02, "intermediate_size": 9216,
    "layer_types": ["sliding_attention", "full_attention"] * 13,
    "max_position_embeddings": 8192, "model_type": "t5_gemma_module",
    "num_attention_heads": 8, "num_hidden_layers": 26, "num_key_value_heads": 4,
    "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_theta": 10000.0,
    "sliding_window": 4096, "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 256000}
CONFIGS["t5gemma-2b-2b-prefixlm-it"] = {
    "architectures": ["T5GemmaForConditionalGeneration"], "classifier_dropout_rate": 0.0,
    "decoder": dict(_T5G_STACK, is_decoder=True), "dropout_rate": 0.0,
    "encoder": dict(_T5G_STACK, is_decoder=False), "eos_token_id": [1, 107],
    "initializer_range": 0.02, "is_encoder_decoder": True, "model_type": "t5gemma",
    "pad_token_id": 0, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
    "transformers_version": "4.53.0.dev0", "use_cache": True, "vocab_size": 256000}


# ---- helpers ----------------------------------------------------------------------------

def _write(tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(CONFIGS[name]))
    return path


def _explain(path):
    """EXPLAIN MODEL's head words and its layer lines {"a-b": words}."""
    r = subprocess.run([PROGRAM, "--config", str(path), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    head = dict(w.split("=", 1) for w in lines[0].split()[1:])
    groups = {}
    for line in lines[1:]:
        if line.startswith("layer"):
            span, rest = line.split(": ", 1)
            words = rest.split()
            groups[span.split()[1]] = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            groups[span.split()[1]]["scheme"] = words[0]
    return head, groups, r.stdout


def _golden(path, layer, positions=None, seq_len=None, extra=()):
    out = path.parent / f"g{layer}.safetensors"
    args = [PROGRAM, "golden", "--config", str(path), "--layer", str(layer), "-o", str(out)]
    if positions is not None:
        args.append("--positions=" + positions)
    if seq_len is not None:
        args += ["--seq-len", str(seq_len)]
    r = subprocess.run(args + list(extra), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out)), r.stdout


def _small(name, drop=(), **kw):
    """the checkpoint's config with its non-position sizes made small"""
    d = {k: v for k, v in CONFIGS[name].items()
         if k not in ("architectures", "model_type", "transformers_version", "_name_or_path")
         and k not in drop}
    d.update(kw)
    return d


def _hf_config(model_type, d):
    return transformers.AutoConfig.for_model(model_type, **d)


def _rows_read_back(weight):
    """weight [rows, heads]: row r holds r in head 0 (0 elsewhere)"""
    with torch.no_grad():
        weight.zero_()
        weight[:, 0] = torch.arange(weight.shape[0], dtype=weight.dtype)


def _as_ids(bias):
    """a bias read back as the row looked up; masked pairs (r - 1e10) as -1"""
    b = bias.detach().double().numpy()
    return np.where(b < -1e5, -1, np.rint(b)).astype(np.int64)


def _pos_list(values):
    return ",".join(str(v) for v in values)


#: large positions (past every table here), out of order, for the --positions checks
LARGE = [0, 1, 7, 31, 64, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 2047, 2048,
         2049, 4096, 65535, 100000, 3, 999999]


#: token indices inside a run of 300 tokens, out of order (queries as keys)
SUBSET = [299, 0, 128, 255, 256, 127, 5, 200, 1]


def _subset_equal(path, layer, want, key="bucket"):
    """golden --positions at SUBSET equals the run's matrix at those pairs"""
    g, _ = _golden(path, layer, _pos_list(SUBSET))
    assert g["q_pos"].tolist() == SUBSET and g["k_pos"].tolist() == SUBSET
    assert np.array_equal(g[key], want[np.ix_(SUBSET, SUBSET)]), layer


# ---- every checkpoint is read -----------------------------------------------------------

def test_every_checkpoint_is_read(tmp_path):
    for name in CONFIGS:
        head, groups, text = _explain(_write(tmp_path, name))
        assert head["type"] == CONFIGS[name]["model_type"], (name, text)
        assert groups, (name, text)


# ---- MPNet: sentence-transformers/all-mpnet-base-v2, microsoft/mpnet-base ---------------

@pytest.mark.parametrize("name", ["all-mpnet-base-v2", "mpnet-base"])
def test_mpnet(tmp_path, name):
    """MPNetEncoder.compute_position_bias (modeling_mpnet.py L312-327) buckets key -
    query with num_buckets=32, max_distance=128 whatever relative_attention_num_buckets
    says (L323 passes the default 32; the key sizes only the table, L270): the bias
    of a model built from the checkpoint's config, its table row r holding r, read
    back at every (query, key) of 512 tokens (its absolute table's 514 rows less
    the 2 padding rows, L69-90)."""
    from transformers.models.mpnet.modeling_mpnet import MPNetEncoder
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    real = CONFIGS[name]
    assert head["layers"] == str(real["num_hidden_layers"])
    w = groups[f"0-{real['num_hidden_layers'] - 1}"]
    assert w["scheme"] == "relative-buckets" and w["buckets"] == "32"
    assert w["max_distance"] == "128" and w["bidirectional"] == "true"
    d = _small(name, hidden_size=24, num_attention_heads=real["num_attention_heads"],
               intermediate_size=8, num_hidden_layers=2, vocab_size=64)
    torch.manual_seed(0)
    model = transformers.MPNetModel(_hf_config("mpnet", d)).eval()
    assert model.embeddings.position_embeddings.num_embeddings == int(w["table_positions"])
    assert model.embeddings.padding_idx + 1 == int(w["table_offset"])
    _rows_read_back(model.encoder.relative_attention_bias.weight)
    seen = []
    real_cpb = model.encoder.compute_position_bias
    model.encoder.compute_position_bias = lambda *a, **k: (seen.append(real_cpb(*a, **k)),
                                                           seen[-1])[1]
    n = 512
    with torch.no_grad():
        model(input_ids=torch.arange(n)[None] % 60 + 3)
    want = _as_ids(seen[0][0, 0])
    for layer in (0, real["num_hidden_layers"] - 1):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert np.array_equal(g["bucket"], want), layer
        g, _ = _golden(path, layer)  # the default positions, 0-15
        assert np.array_equal(g["bucket"], want[:16, :16])
        _subset_equal(path, layer, want)
    # positions past the run: the same code's bucket function of k - q (L330-350)
    q = torch.tensor(LARGE)
    ref = MPNetEncoder.relative_position_bucket(q[None, :] - q[:, None]).numpy()
    g, _ = _golden(path, 0, _pos_list(LARGE))
    assert np.array_equal(g["q_pos"], LARGE) and np.array_equal(g["bucket"], ref)


# ---- DeBERTa: v1 (deberta-base, deberta-large-mnli), v2 and v3 --------------------------

DEBERTAS = ["deberta-base", "deberta-large-mnli", "deberta-v2-xlarge", "deberta-v3-base",
            "deberta-v3-small", "mdeberta-v3-base"]


def _deberta_model(name):
    real = CONFIGS[name]
    d = _small(name, hidden_size=2 * 8, num_attention_heads=2, intermediate_size=8,
               num_hidden_layers=2, vocab_size=64, drop=("attention_head_size",))
    torch.manual_seed(0)
    cls = transformers.DebertaModel if real["model_type"] == "deberta" else \
        transformers.DebertaV2Model
    return cls(_hf_config(real["model_type"], d)).eval()


@pytest.mark.parametrize("name", DEBERTAS)
def test_deberta(tmp_path, name):
    """The relative position ids each layer's DisentangledSelfAttention is handed
    (the encoder's get_rel_pos: modeling_deberta.py L540-546, build_relative_position
    L72-...; modeling_deberta_v2.py L604-620, build_relative_position L71-100 with
    make_log_bucket_position L56-68 at position_buckets and max_relative_positions,
    the latter max_position_embeddings when < 1, L569-573), caught by a pre-hook
    while a model built from the checkpoint's config runs 700 tokens (past
    max_relative_positions 512; position_biased_input false: no absolute table
    bounds the length). The string pos_att_type ("p2c|c2p", "c2p|p2c") and the list
    alike are read (configuration_deberta_v2.py L87-88)."""
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    L = real["num_hidden_layers"]
    w = groups[f"0-{L - 1}"]
    model = _deberta_model(name)
    enc = model.encoder
    assert w["scheme"] == "relative-buckets" and w["ids"] == "deberta"
    assert int(w["max_relative_positions"]) == enc.max_relative_positions
    buckets = getattr(enc, "position_buckets", -1)
    assert int(w["position_buckets"]) == max(buckets, 0)
    assert model.config.pos_att_type == ["p2c", "c2p"] or \
        sorted(model.config.pos_att_type) == ["c2p", "p2c"]
    seen = []
    hooks = [lay.attention.self.register_forward_pre_hook(
        lambda mod, a, kw: seen.append(kw["relative_pos"].clone()), with_kwargs=True)
        for lay in enc.layer]
    n = 700
    with torch.no_grad():
        model(input_ids=torch.arange(n)[None] % 60 + 3)
    for h in hooks:
        h.remove()
    assert len(seen) == 2 and torch.equal(seen[0], seen[1])
    want = seen[0].reshape(n, n).numpy()
    for layer in (0, L - 1):
        g, line = _golden(path, layer, f"0-{n - 1}")
        assert np.array_equal(g["bucket"], want), layer
        g, _ = _golden(path, layer)
        assert np.array_equal(g["bucket"], want[:16, :16])
        _subset_equal(path, layer, want)
    # positions past the run and out of order, queries as keys: the code's own
    # bucketing of q - k (v2: make_log_bucket_position; v1: the plain difference)
    q = torch.tensor(LARGE)
    rel = q[:, None] - q[None, :]
    if buckets > 0:
        from transformers.models.deberta_v2.modeling_deberta_v2 import make_log_bucket_position
        rel = make_log_bucket_position(rel, buckets, enc.max_relative_positions).to(torch.long)
    g, _ = _golden(path, 0, _pos_list(LARGE))
    assert np.array_equal(g["bucket"], rel.numpy())


# ---- LongT5: google/long-t5-tglobal-base, google/long-t5-local-base ---------------------

def _longt5_model(name):
    d = _small(name, d_model=16, d_kv=8, d_ff=8, num_layers=2, num_decoder_layers=2,
               num_heads=2, vocab_size=64)
    torch.manual_seed(0)
    return transformers.LongT5Model(_hf_config("longt5", d)).eval()


def _longt5_encoder_truth(model, n):
    """block 0's attention bias (modeling_longt5.py L666-681, L893-926) caught at its
    output, spread back to (query, key) over the three-block window (L120-142)"""
    block = model.encoder.block[0].layer[0]
    att = getattr(block, "LocalSelfAttention", None) or block.TransientGlobalSelfAttention
    _rows_read_back(att.relative_attention_bias.weight)
    tglobal = hasattr(att, "global_relative_attention_bias")
    if tglobal:
        _rows_read_back(att.global_relative_attention_bias.weight)
    seen = []
    h = att.register_forward_hook(lambda mod, a, o: seen.append(o[1]))
    dec = model.decoder.block[0].layer[0].SelfAttention
    _rows_read_back(dec.relative_attention_bias.weight)
    dseen = []
    real_cb = dec.compute_bias
    dec.compute_bias = lambda *a, **k: (dseen.append(real_cb(*a, **k)), dseen[-1])[1]
    with torch.no_grad():
        model(input_ids=torch.full((1, n), 5), decoder_input_ids=torch.full((1, n), 5),
              use_cache=False)
    h.remove()
    pb = _as_ids(seen[0][0, :, 0])
    bl = att.block_len
    bucket = np.full((n, n), -1, dtype=np.int64)
    for q in range(n):
        b, i = divmod(q, bl)
        for k in range(n):
            j = k - (b - 1) * bl
            if 0 <= j < 3 * bl:
                bucket[q, k] = pb[b, i, j]
    side = np.stack([pb[q // bl, q % bl, 3 * bl:] for q in range(n)]) if tglobal else None
    return att, bucket, side, _as_ids(dseen[0][0, 0])


@pytest.mark.parametrize("name", ["long-t5-tglobal-base", "long-t5-local-base"])
def test_longt5(tmp_path, name):
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    n_enc, n_dec = real["num_layers"], real["num_decoder_layers"]
    assert head["layers"] == str(n_enc + n_dec)
    model = _longt5_model(name)
    n = 300  # past two blocks of 128 (local_radius 127 + 1), L622
    att, want, want_side, want_dec = _longt5_encoder_truth(model, n)
    we = groups[f"0-{n_enc - 1}"]
    assert we["attention"] == real["encoder_attention_type"]
    assert int(we["local_radius"]) == att.local_radius
    assert int(we["block_length"]) == att.block_len
    assert int(we["buckets"]) == att.relative_attention_num_buckets
    assert int(we["max_distance"]) == att.relative_attention_max_distance
    if want_side is not None:
        assert int(we["global_block_size"]) == att.global_block_size
    wd = groups[f"{n_enc}-{n_enc + n_dec - 1}"]
    assert wd["bidirectional"] == "false" and wd["stack"] == "decoder"
    for layer in (0, n_enc - 1):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert np.array_equal(g["bucket"], want), layer
        assert ("side_bucket" in g) == (want_side is not None)
        if want_side is not None:
            assert np.array_equal(g["side_bucket"], want_side)
            g, line = _golden(path, layer, _pos_list(SUBSET))  # n_tok: max + 1 = 300
            assert "n_tok=300 " in line
            assert np.array_equal(g["side_bucket"], want_side[SUBSET])
        g, _ = _golden(path, layer)
        assert np.array_equal(g["bucket"], want[:16, :16])
        _subset_equal(path, layer, want)
    # the decoder: T5's causal buckets of its compute_bias (L424-438), read back
    for layer in (n_enc, n_enc + n_dec - 1):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert np.array_equal(g["bucket"], want_dec), layer
    from transformers.models.longt5.modeling_longt5 import LongT5Attention
    q = torch.tensor(LARGE)
    ref = LongT5Attention._relative_position_bucket(q[None, :] - q[:, None],
                                                    bidirectional=False, num_buckets=32,
                                                    max_distance=128).numpy()
    g, _ = _golden(path, n_enc, _pos_list(LARGE))
    assert np.array_equal(g["bucket"], ref)


# ---- CPM-Ant: openbmb/cpm-ant-10b --------------------------------------------------------

def test_cpmant(tmp_path):
    """The forward's segments and positions (modeling_cpmant.py L600-638) into
    CpmAntSegmentPositionEmbedding (L413-502), caught at its output, the bias
    table's row r holding r: 32 prompt tokens (prompt_length 32) then 300 text
    tokens, at 512 buckets / max distance 2048 / 32 segment types."""
    name = "cpm-ant-10b"
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-47"]
    d = _small(name, hidden_size=16, num_attention_heads=2, dim_head=8, dim_ff=8,
               num_hidden_layers=2, vocab_size=64, prompt_types=3)
    torch.manual_seed(0)
    model = transformers.CpmAntModel(_hf_config("cpmant", d)).eval()
    pb = model.position_bias
    assert int(w["buckets"]) == pb.num_buckets and int(w["max_distance"]) == pb.max_distance
    assert int(w["segment_types"]) == pb.num_segments
    assert int(w["prompt_length"]) == model.prompt_length
    _rows_read_back(pb.relative_attention_bias)
    seen = []
    h = pb.register_forward_hook(lambda mod, a, o: seen.append(o))
    n_text = 300
    with torch.no_grad():
        model(input_ids=torch.arange(1, n_text + 1)[None] % 60 + 1, use_cache=False)
    h.remove()
    want = _as_ids(seen[0][0, 0])
    n = want.shape[0]
    assert n == real["prompt_length"] + n_text
    for layer in (0, 47):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert np.array_equal(g["bucket"], want), layer
        assert (g["segment"] == np.where(np.arange(n) < real["prompt_length"], 0, 2)).all()
        g, _ = _golden(path, layer)  # the default: the prompt and 16 text tokens
        assert np.array_equal(g["bucket"], want[:48, :48])
        _subset_equal(path, layer, want)
    # past the run: the forward's rule (L459-473: the segment pair's bucket across
    # segments, _position_bucket(k - q) inside one, L484-502) at positions to
    # 999999, the prompt's 0..31 in segment 0 and the text in segment 2 (L605-622)
    p = torch.tensor(LARGE)
    seg = torch.where(p < real["prompt_length"], 0, 2)
    inside = pb._position_bucket(p[None, :] - p[:, None], num_buckets=pb.num_buckets,
                                 max_distance=pb.max_distance)
    across = pb._segment_relative_position_bucket(seg[:, None], seg[None, :]) + pb.num_buckets
    ref = torch.where(seg[:, None] == seg[None, :], inside, across).numpy()
    g, _ = _golden(path, 0, _pos_list(LARGE))
    assert np.array_equal(g["bucket"], ref)


# ---- VITS: facebook/mms-tts-eng ---------------------------------------------------------

def test_vits_mms_tts_eng(tmp_path):
    """VitsAttention's key side (modeling_vits.py L907-911: _get_relative_embeddings
    L960-967, then _relative_position_to_absolute_position L969-...) with window_size
    4, read back with rows holding their own number, in each of the 6 layers of a
    text encoder built from the checkpoint's config (its flow and vocoder sizes
    made small: they do not touch the text encoder's positions)."""
    name = "mms-tts-eng"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    assert groups["0-5"]["window_size"] == "4"
    d = _small(name, flow_size=8, spectrogram_bins=9, upsample_initial_channel=8,
               upsample_rates=[2], upsample_kernel_sizes=[4], resblock_kernel_sizes=[3],
               resblock_dilation_sizes=[[1]], duration_predictor_filter_channels=8,
               prior_encoder_num_wavenet_layers=1, posterior_encoder_num_wavenet_layers=1)
    torch.manual_seed(0)
    model = transformers.VitsModel(_hf_config("vits", d)).eval()
    layers = model.text_encoder.encoder.layers
    assert len(layers) == 6
    w = model.config.window_size
    for n in (30, 16):
        for layer, blk in enumerate(layers):
            att = blk.attention
            rows = torch.zeros(1, 2 * w + 1, att.head_dim)
            rows[0, :, 0] = torch.arange(1, 2 * w + 2, dtype=rows.dtype)
            q = torch.zeros(1, n, att.head_dim)
            q[..., 0] = 1
            with torch.no_grad():
                key_side = att._relative_position_to_absolute_position(
                    torch.matmul(q, att._get_relative_embeddings(rows, n).transpose(-2, -1)))[0]
            want = np.rint(key_side.numpy()).astype(np.int64) - 1
            g, _ = _golden(path, layer, f"0-{n - 1}" if n != 16 else None)
            assert np.array_equal(g["bucket"], want), (n, layer)
            sub = [29, 0, 4, 5, 9, 13, 8, 1, 2] if n == 30 else [15, 3, 0, 7, 11, 12]
            g, _ = _golden(path, layer, _pos_list(sub))
            assert np.array_equal(g["bucket"], want[np.ix_(sub, sub)]), (n, layer)


# ---- ProphetNet: microsoft/prophetnet-large-uncased ---------------------------------------

def test_prophetnet_large_uncased(tmp_path):
    """What ProphetNetModel's forward reads (modeling_prophetnet.py L342-382,
    L1144-1160, L1271-1291): the rows of the encoder's and decoder's learned tables
    (pad 0: rows from 1; the legacy encoder_/decoder_max_position_embeddings are
    not read: the tables have max_position_embeddings 512 rows), the predicting
    streams' rows, and the main and predict buckets (32 buckets, distance 128,
    ngram 2) every decoder layer is handed, for the longest decoder input."""
    name = "prophetnet-large-uncased"
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    d = _small(name, hidden_size=16, encoder_ffn_dim=16, decoder_ffn_dim=16,
               num_encoder_layers=1, num_decoder_layers=2, num_encoder_attention_heads=2,
               num_decoder_attention_heads=2, vocab_size=64)
    torch.manual_seed(0)
    model = transformers.ProphetNetModel(_hf_config("prophetnet", d)).eval()
    enc_pe, dec_pe = model.encoder.position_embeddings, model.decoder.position_embeddings
    we, wd = groups["0-11"], groups["12-23"]
    assert int(we["positions"]) == enc_pe.num_embeddings == 512
    attn = model.decoder.layers[0].self_attn
    assert int(wd["buckets"]) == attn.num_buckets and int(wd["ngram"]) == attn.ngram
    assert int(wd["max_distance"]) == attn.relative_max_distance
    assert int(wd["table_positions"]) == dec_pe.num_embeddings
    seen = {}

    def keep(key, value):
        seen.setdefault(key, value)
    hs = [enc_pe.register_forward_hook(lambda mod, a, o: keep("enc", o[1].clone())),
          dec_pe.register_forward_hook(lambda mod, a, o: keep("dec", o[1].clone()))]
    plain = dec_pe._forward
    dec_pe._forward = lambda ids: (seen.setdefault("predict", ids.clone()), plain(ids))[1]
    for i, layer in enumerate(model.decoder.layers):
        hs.append(layer.register_forward_pre_hook(
            lambda mod, a, kwargs, i=i: keep(("b", i), (
                kwargs["main_relative_position_buckets"].clone(),
                kwargs["predict_relative_position_buckets"].clone())), with_kwargs=True))
    n_enc = 511  # the encoder's longest input: rows 1 .. 511
    n_dec = 512 - real["pad_token_id"] - 2  # the decoder's: its predict row 511
    with torch.no_grad():
        model(input_ids=torch.arange(n_enc)[None] % 60 + 4,
              decoder_input_ids=torch.arange(n_dec)[None] % 50 + 5, use_cache=False)
    for h in hs:
        h.remove()
    for layer in (0, 11):
        g, _ = _golden(path, layer, f"0-{n_enc - 1}")
        assert g["row"].tolist() == seen["enc"][0].tolist()
        g, _ = _golden(path, layer)
        assert g["row"].tolist() == seen["enc"][0, :32].tolist()
    for layer, k in ((12, 0), (23, 1)):
        g, _ = _golden(path, layer, f"0-{n_dec - 1}")
        main, predict = seen[("b", k)]
        assert np.array_equal(g["bucket"], main[0].numpy()), layer
        assert np.array_equal(g["predict_bucket"], predict[0].numpy()), layer
        assert g["row"].tolist() == seen["dec"][0].tolist()
        assert g["predict_row"].tolist() == seen["predict"][0].tolist()


# ---- XLNet: xlnet/xlnet-base-cased -------------------------------------------------------

def _close_relsin(ours, ref, pos):
    """|ours - theirs| <= ulp(theirs) + |p| 2^-24 (test_relsin_hf.py says why)"""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + np.abs(np.asarray(pos, dtype=np.float64))[:, None] * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all(), np.abs(ours - ref).max()
    assert (ours == ref).mean() > 0.9


def test_xlnet_base_cased(tmp_path):
    """The distances relative_positional_encoding hands to positional_embedding
    (modeling_xlnet.py L928-975) and the vectors it returns, caught while an XLNet
    of d_model 768 (the checkpoint's: the frequencies depend on it), attn_type
    "bi", clamp_len -1, mem_len null runs T tokens; --positions (negatives
    included) against positional_embedding at those distances with the model's
    own inv_freq (L940-941)."""
    name = "xlnet-base-cased"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-11"]
    assert w["family"] == "xlnet" and w["d_model"] == "768" and w["attn_type"] == "bi"
    assert w["clamp_len"] == "-1" and w["mem_len"] == "null"
    d = _small(name, n_layer=1, vocab_size=50, d_inner=16, n_head=12, d_head=64,
               drop=("task_specific_params",))
    torch.manual_seed(0)
    model = transformers.XLNetModel(_hf_config("xlnet", d)).eval()
    seen = {}
    real_pe, real_rpe = model.positional_embedding, model.relative_positional_encoding

    def pe(pos_seq, inv_freq, bsz=None):
        seen["pos"], seen["inv"] = pos_seq.clone(), inv_freq.clone()
        return real_pe(pos_seq, inv_freq, bsz)

    def rpe(*a, **k):
        out = real_rpe(*a, **k)
        seen["pe"] = out.detach().clone()
        return out
    model.positional_embedding, model.relative_positional_encoding = pe, rpe
    for n in (16, 300):
        with torch.no_grad():
            model(input_ids=torch.arange(n)[None] % 50)
        pos = seen["pos"].numpy().astype(np.int64)
        for layer in (0, 11):
            g, _ = _golden(path, layer, seq_len=n if n != 16 else None)
            assert np.array_equal(g["positions"], pos), (n, layer)
            _close_relsin(g["pe"], seen["pe"][:, 0, :].numpy(), pos)
    dist = [-100000, -4096, -513, -1, 0, 1, 7, 512, 1000, 65535, 999999]
    ref = real_pe(torch.tensor(dist, dtype=torch.float), seen["inv"])[:, 0].numpy()
    g, _ = _golden(path, 0, _pos_list(dist))
    assert np.array_equal(g["positions"], dist)
    _close_relsin(g["pe"], ref, dist)


# ---- Funnel: funnel-transformer/small ----------------------------------------------------

def test_funnel_small(tmp_path):
    """Per layer, the relative_shift sinusoid each attention reads
    (modeling_funnel.py L152-216 relative_pos and get_position_embeds, L386-388
    the shift), caught while a Funnel of the checkpoint's d_model 768, block_sizes
    [4, 4, 4], 2 decoder layers, separate_cls, truncate_seq, pool_q_only runs;
    heads and inner sizes made small."""
    name = "funnel-small"
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    assert head["layers"] == "14"
    for span, blk in (("0-3", "0"), ("4-7", "1"), ("8-11", "2")):
        assert groups[span]["block"] == blk and groups[span]["stack"] == "encoder"
        assert groups[span]["attention_type"] == "relative_shift"
    assert groups["12-13"]["stack"] == "decoder"
    d = _small(name, n_head=2, d_head=8, d_inner=16, vocab_size=50, hidden_dropout=0.0,
               attention_dropout=0.0)
    cfg = _hf_config("funnel", d)
    assert cfg.d_model == 768 and list(cfg.block_sizes) == real["block_sizes"]
    torch.manual_seed(0)
    model = transformers.FunnelModel(cfg).eval()
    calls = {"enc": [], "dec": []}
    for part, mod in (("enc", model.encoder), ("dec", model.decoder)):
        real_rp = mod.attention_structure.relative_pos

        def rp(*a, _real=real_rp, _part=part, **k):
            out = _real(*a, **k)
            calls[_part].append(out.clone().numpy())
            return out
        mod.attention_structure.relative_pos = rp
    layers = [lay for block in model.encoder.blocks for lay in block] + list(model.decoder.layers)
    seen = []
    for lay in layers:
        att = lay.attention
        real_rpa = att.relative_positional_attention

        def rpa(position_embeds, q_head, context_len, cls_mask=None, _att=att, _real=real_rpa):
            shift = 2 if q_head.shape[1] != context_len else 1
            seen.append((position_embeds[_att.block_index][shift - 1].detach().clone().numpy(),
                         shift))
            return _real(position_embeds, q_head, context_len, cls_mask)
        att.relative_positional_attention = rpa
    for n in (40, 513):  # 513: an odd length, the pooling's truncate_seq at work
        seen.clear()
        for part in calls:
            calls[part].clear()
        with torch.no_grad():
            model(input_ids=torch.arange(n)[None] % 50)
        assert len(seen) == 14
        for layer in range(14):
            pe, shift = seen[layer]
            if layer >= 12:
                want = calls["dec"][0]
            else:
                b = layer // 4
                pooling = shift == 2
                assert pooling == (layer in (4, 8))
                want = calls["enc"][0] if b == 0 else \
                    calls["enc"][2 * b - 1 + (0 if pooling else 1)]
            g, line = _golden(path, layer, seq_len=n)
            assert np.array_equal(g["positions"], want), (n, layer)
            _close_relsin(g["pe"], pe, want)
    # distances given: get_position_embeds' own vectors (L140-181) of a 5000-token
    # input, block 0's rows found by relative_pos (L207-...) at each distance
    dist = [-4999, -4096, -513, -64, -1, 0, 1, 2, 511, 1000, 5000]
    st = model.encoder.attention_structure
    S = 5000
    with torch.no_grad():
        table = st.get_position_embeds(S, torch.float32, "cpu")[0][0]
    rel = st.relative_pos(list(range(S)), 1).tolist()
    ref = table[[rel.index(x) for x in dist]].numpy()
    g, _ = _golden(path, 0, _pos_list(dist))
    assert np.array_equal(g["positions"], dist)
    _close_relsin(g["pe"], ref, dist)


# ---- RoFormer: junnyu/roformer_chinese_base ----------------------------------------------

def test_roformer_chinese_base(tmp_path):
    """posenc golden's x and y against apply_rotary_position_embeddings
    (modeling_roformer.py L220-245) with cos/sin from the model's own
    RoFormerSinusoidalPositionalEmbedding (L49-80, built at L394-396 with
    max_position_embeddings 1536 rows and hidden // heads = 64: embedding_size
    plays no part), within 6 * 2^-24 of each pair's norm (test_roformer_hf.py)."""
    from transformers.models.roformer import modeling_roformer as mr
    name = "roformer_chinese_base"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-11"]
    assert w["layout"] == "interleaved" and w["head_dim"] == "64" and w["base"] == "10000"
    assert w["positions"] == "1536" and w["rotary_value"] == "0"
    d = _small(name, num_hidden_layers=1, vocab_size=64, intermediate_size=16)
    torch.manual_seed(0)
    model = transformers.RoFormerModel(_hf_config("roformer", d)).eval()
    assert model.encoder.embed_positions.weight.shape == (1536, 64)
    for positions in (None, [0, 1, 2, 767, 1000, 1533, 1534, 1535, 5]):
        for layer in (0, 11):
            g, _ = _golden(path, layer, None if positions is None else _pos_list(positions),
                           extra=["--heads", "3"])
            pos = g["positions"].tolist()
            if positions is not None:  # a RoPE dump lists its positions sorted
                assert pos == sorted(set(positions))
            assert max(pos) <= 1535
            x, y = g["x"], g["y"]
            sp = model.encoder.embed_positions((1, len(pos)),
                                               position_ids=torch.tensor(pos))[None, None]
            q = torch.from_numpy(x).permute(1, 0, 2)[None].contiguous()
            rq, _ = mr.RoFormerSelfAttention.apply_rotary_position_embeddings(sp, q, q.clone())
            hf = rq[0].permute(1, 0, 2).numpy()
            norm = np.repeat(np.hypot(x[..., 0::2], x[..., 1::2]), 2, axis=-1)
            err = np.abs(y.astype(np.float64) - hf.astype(np.float64))
            assert np.all(err <= 6 * 2.0 ** -24 * norm), (layer, err.max())


# ---- LayoutLM, MarkupLM, TAPAS, Reformer: tables read by other ids -----------------------

def _ids_read(model, suffix, **inputs):
    seen = {}
    hooks = [m.register_forward_hook(lambda mod, a, o, n=n: (seen.setdefault(n, a[0].clone()),
                                                             None)[1])
             for n, m in model.named_modules()
             if isinstance(m, torch.nn.Embedding) and n.endswith(suffix)]
    with torch.no_grad():
        model(**inputs)
    for h in hooks:
        h.remove()
    (v,) = seen.values()
    return v[0].tolist()


def _bert_like(name, model_type, **kw):
    d = _small(name, hidden_size=16, num_attention_heads=2, intermediate_size=8,
               num_hidden_layers=1, vocab_size=64, **kw)
    torch.manual_seed(0)
    return transformers.AutoModel.from_config(_hf_config(model_type, d)).eval()


def test_layoutlm_base_uncased(tmp_path):
    """The position rows LayoutLMEmbeddings reads (modeling_layoutlm.py L51-103:
    its position_ids buffer, 0 ..) for 512 tokens, and its box tables'
    1024 rows (max_2d_position_embeddings); pad_token_id absent: the class's 0."""
    name = "layoutlm-base-uncased"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-11"]
    model = _bert_like(name, "layoutlm")
    emb = model.embeddings
    assert int(w["positions"]) == emb.position_embeddings.num_embeddings
    assert int(w["box_rows"]) == emb.x_position_embeddings.num_embeddings == 1024
    n = 512
    box = torch.tensor([[[1, 2, 1000, 1023]]]).expand(1, n, 4)
    rows = _ids_read(model, "embeddings.position_embeddings",
                     input_ids=torch.arange(n)[None] % 60 + 1, bbox=box)
    for layer in (0, 11):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert g["row"].tolist() == rows
        g, _ = _golden(path, layer)
        assert g["row"].tolist() == rows[:32]


def test_markuplm_base(tmp_path):
    """The rows MarkupLMEmbeddings reads (modeling_markuplm.py L99-121:
    create_position_ids_from_input_ids from padding_idx 1, rows 2 ..) for the
    512 tokens its 514-row table has."""
    name = "markuplm-base"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-11"]
    model = _bert_like(name, "markuplm", max_depth=50)
    assert int(w["positions"]) == model.embeddings.position_embeddings.num_embeddings
    assert int(w["offset"]) == model.embeddings.padding_idx + 1
    n = 512
    rows = _ids_read(model, "embeddings.position_embeddings",
                     input_ids=torch.arange(n)[None] % 50 + 3)
    for layer in (0, 11):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert g["row"].tolist() == rows
        g, _ = _golden(path, layer)
        assert g["row"].tolist() == rows[:32]


def test_tapas_base_finetuned_wtq(tmp_path):
    """TapasEmbeddings' rows with reset_position_index_per_cell and the default
    token_type_ids (zeros: one cell; modeling_tapas.py L76-130, L613-616) for 1100
    tokens (past the 1024-row table: the code caps at its last row); type_vocab_size
    given as a list beside type_vocab_sizes, as the checkpoint has it."""
    name = "tapas-base-finetuned-wtq"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    w = groups["0-11"]
    assert w["ids"] == "cell-reset"
    model = _bert_like(name, "tapas")
    assert int(w["positions"]) == model.embeddings.position_embeddings.num_embeddings
    assert int(w["cell_columns"]) == model.embeddings.token_type_embeddings_1.num_embeddings
    assert int(w["cell_rows"]) == model.embeddings.token_type_embeddings_2.num_embeddings
    n = 1100
    rows = _ids_read(model, "embeddings.position_embeddings",
                     input_ids=torch.arange(n)[None] % 60 + 1)
    for layer in (0, 11):
        g, _ = _golden(path, layer, f"0-{n - 1}")
        assert g["row"].tolist() == rows
        g, _ = _golden(path, layer)
        assert g["row"].tolist() == rows[:32]


@pytest.mark.parametrize("name", ["reformer-crime-and-punishment", "reformer-enwik8"])
def test_reformer(tmp_path, name):
    """AxialPositionEmbeddings (modeling_reformer.py L197-260) of the checkpoint's
    axial_pos_shape and axial_pos_embds_dim, weights set to each row's own number,
    read at positions through generation's start_idx_pos_encodings (L318-335):
    the rows each position reads, up to the table's last position."""
    from transformers.models.reformer.modeling_reformer import AxialPositionEmbeddings
    real = CONFIGS[name]
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    L = real["num_hidden_layers"]
    w = groups[f"0-{L - 1}"]
    h, wd = real["axial_pos_shape"]
    d0, d1 = real["axial_pos_embds_dim"]
    assert w["axial_shape"] == f"{h}x{wd}" and w["axial_dim"] == f"{d0}+{d1}"
    cfg = _hf_config("reformer", _small(name))
    ax = AxialPositionEmbeddings(cfg).eval()
    with torch.no_grad():
        for p in ax.weights:
            p.zero_()
        ax.weights[0][:, 0, 0] = torch.arange(h).float()
        ax.weights[1][0, :, 0] = torch.arange(wd).float()
    last = h * wd - 1
    starts = [0, wd - 3, last - 7]
    for s in starts:
        pid = torch.arange(s, s + 8)[None]
        pid = pid[pid <= last][None]
        with torch.no_grad():
            out = ax(pid)  # eval: the rows read at these positions (L236-260)
        for layer in (0, L - 1):
            g, _ = _golden(path, layer, _pos_list(pid[0].tolist()))
            assert g["axial_row"].tolist() == out[0, :, 0].long().tolist(), (s, layer)
            assert g["axial_col"].tolist() == out[0, :, d0].long().tolist(), (s, layer)
    g, _ = _golden(path, 0)
    with torch.no_grad():
        out = ax(torch.arange(32)[None])
    assert g["axial_row"].tolist() == out[0, :, 0].long().tolist()
    assert g["axial_col"].tolist() == out[0, :, d0].long().tolist()


# ---- T5Gemma: google/t5gemma-2b-2b-prefixlm-it --------------------------------------------

def test_t5gemma_2b_2b_prefixlm_it(tmp_path):
    """Each stack's rotary (modeling_t5gemma.py L99-152 T5GemmaRotaryEmbedding,
    L154-... apply_rotary_pos_emb; built at L633 and L717 from the nested encoder
    and decoder configs): posenc golden's y against apply_rotary_pos_emb of its x
    with the module's cos and sin, at the default positions (to 10^6), for the
    first and last layer of each stack (sliding and full layers share the one
    rotary)."""
    import math
    from transformers.models.t5gemma import modeling_t5gemma as mt
    name = "t5gemma-2b-2b-prefixlm-it"
    path = _write(tmp_path, name)
    head, groups, text = _explain(path)
    assert head["layers"] == "52"
    for span, stack in (("0-25", "encoder"), ("26-51", "decoder")):
        w = groups[span]
        assert w["stack"] == stack and w["head_dim"] == "256" and w["base"] == "10000"
        assert w["layout"] == "half" and w["rotary_dim"] == "256"
    cfg = transformers.T5GemmaConfig(**_small(name))
    for layer, sub in ((0, cfg.encoder), (25, cfg.encoder), (26, cfg.decoder),
                       (51, cfg.decoder)):
        rot = mt.T5GemmaRotaryEmbedding(config=sub)
        g, _ = _golden(path, layer, extra=["--heads", "2"])
        pos = g["positions"]
        with torch.no_grad():
            c, s = rot(torch.zeros(1), torch.from_numpy(pos)[None])
        x = torch.from_numpy(g["x"].astype(np.float64)).transpose(0, 1)[None]
        q, _ = mt.apply_rotary_pos_emb(x, x, c.double(), s.double())
        want = q[0].transpose(0, 1).numpy()
        inv = rot.inv_freq.double().numpy()
        theta = np.abs(pos.astype(np.float64)[:, None] * inv[None, :])
        tol1 = theta * (math.log(10000.0) + 8.0) * 2.0 ** -24 + 2.0 ** -20
        tol = np.concatenate([tol1, tol1], axis=1)[:, None, :] * 2 * np.abs(g["x"]).max() \
            + 2.0 ** -20
        err = np.abs(g["y"] - want)
        assert (err <= tol).all(), (layer, err.max())


# ---- what the audit found: DeBERTa's pos_att_type, nulls the code refuses ----------------

def _explain_dict(tmp_path, d):
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(d))
    return subprocess.run([PROGRAM, "--config", str(path), "-c", "EXPLAIN MODEL"],
                          capture_output=True, text=True)


@pytest.mark.parametrize("pos_att_type,used", [
    (None, False), ("none", False), ("p2p", False), ([], False), (["C2P"], False),
    ("C2P | p2p", True), (["p2c"], True), ("p2c|c2p", True)])
@pytest.mark.parametrize("biased", [False, True])
def test_deberta_pos_att_type_decides_the_relative_term(tmp_path, pos_att_type, used, biased):
    """Only "c2p" and "p2c" in pos_att_type add a relative term
    (modeling_deberta_v2.py L171-175, L303-338; a string lowercased, split at '|'
    and stripped, configuration_deberta_v2.py L87-88). deberta-v3-base's config
    with pos_att_type replaced: where it names neither, its attention reads no
    relative id, and a model without position_biased_input then gives a permuted
    input's outputs permuted (no position information); posenc names the layer
    learned (the embeddings' table) or none, never relative-buckets."""
    d = dict(CONFIGS["deberta-v3-base"], pos_att_type=pos_att_type,
             position_biased_input=biased)
    r = _explain_dict(tmp_path, d)
    assert r.returncode == 0, r.stderr
    scheme = r.stdout.split("\n")[1].split(": ", 1)[1].split()[0]
    assert scheme == ("relative-buckets" if used else "learned" if biased else "none"), r.stdout
    small = _small("deberta-v3-base", hidden_size=16, num_attention_heads=2, intermediate_size=8,
                   num_hidden_layers=2, vocab_size=64, pos_att_type=pos_att_type,
                   position_biased_input=biased, hidden_dropout_prob=0.0,
                   attention_probs_dropout_prob=0.0)
    torch.manual_seed(0)
    model = transformers.DebertaV2Model(_hf_config("deberta-v2", small)).eval()
    ids = torch.tensor([[5, 9, 13, 2, 40, 7, 21, 33]])
    perm = torch.tensor([3, 0, 6, 1, 7, 2, 5, 4])
    with torch.no_grad():
        out = model(input_ids=ids).last_hidden_state[0]
        outp = model(input_ids=ids[:, perm]).last_hidden_state[0]
    invariant = torch.allclose(out[perm], outp, atol=1e-5)
    assert invariant == (not used and not biased)


@pytest.mark.parametrize("model_type,key,cls", [
    ("deberta", "max_relative_positions", "DebertaModel"),
    ("deberta-v2", "position_buckets", "DebertaV2Model"),
    ("longt5", "encoder_attention_type", "LongT5EncoderModel"),
    ("xlnet", "clamp_len", "XLNetModel")])
def test_nulls_the_code_refuses_are_refused_by_name(tmp_path, model_type, key, cls):
    """A null where transformers 5.23 fails (a field of the config class declared
    without None, or v2's comparison of position_buckets with 0 in the model) is
    refused by name, not read as the default."""
    real = {"deberta": "deberta-base", "deberta-v2": "deberta-v3-base",
            "longt5": "long-t5-local-base", "xlnet": "xlnet-base-cased"}[model_type]
    sizes = {"deberta": dict(hidden_size=16, num_attention_heads=2, intermediate_size=8,
                             num_hidden_layers=1, vocab_size=64),
             "deberta-v2": dict(hidden_size=16, num_attention_heads=2, intermediate_size=8,
                                num_hidden_layers=1, vocab_size=64),
             "longt5": dict(d_model=16, d_kv=8, d_ff=8, num_layers=1, num_heads=2,
                            vocab_size=64),
             "xlnet": dict(d_model=16, n_head=2, d_head=8, d_inner=8, n_layer=1,
                           vocab_size=64)}[model_type]
    with pytest.raises(Exception):
        cfg = _hf_config(model_type, _small(real, drop=("task_specific_params",),
                                            **{key: None}, **sizes))
        model = getattr(transformers, cls)(cfg).eval()
        with torch.no_grad():
            model(input_ids=torch.arange(6)[None] + 1)
    r = _explain_dict(tmp_path, dict(CONFIGS[real], **{key: None}))
    assert r.returncode != 0 and key in r.stderr and "null" in r.stderr, r.stderr


def _scheme_lines(r):
    """EXPLAIN MODEL's lines but its list of ignored keys"""
    return [x for x in r.stdout.splitlines() if not x.startswith("ignored keys=")]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_no_null_the_config_class_refuses_is_read_as_the_default(tmp_path, name):
    """Every key of the checkpoint's config set to null in turn: where transformers
    5.23's config class refuses the null (its field has no None), posenc either
    refuses the config naming the key, or its EXPLAIN MODEL does not depend on the
    key (the same with the key's real value and with the key absent): never a
    position key's null silently read as its default."""
    real = CONFIGS[name]
    mt = real["model_type"]
    base = _explain_dict(tmp_path, real)
    assert base.returncode == 0, base.stderr
    checked = 0
    for key, value in real.items():
        if value is None or key in ("model_type", "architectures", "transformers_version"):
            continue
        d = {k: v for k, v in real.items() if k not in ("model_type", key)}
        try:
            if mt == "t5gemma":
                transformers.T5GemmaConfig(**d, **{key: None})
            else:
                transformers.AutoConfig.for_model(mt, **d, **{key: None})
            continue  # the class takes the null
        except Exception:
            pass
        r = _explain_dict(tmp_path, dict(real, **{key: None}))
        if r.returncode != 0:
            assert key in r.stderr and "null" in r.stderr, (key, r.stderr)
            checked += 1
            continue
        absent = _explain_dict(tmp_path, {k: v for k, v in real.items() if k != key})
        assert _scheme_lines(r) == _scheme_lines(absent) == _scheme_lines(base), \
            f"{name}: {key} null read as its default: {r.stdout} against {base.stdout}"
    assert checked > 0 or mt in ("t5gemma",)


def test_mpnet_fewer_buckets_than_the_code_reads_refused(tmp_path):
    """relative_attention_num_buckets sizes MPNet's bias table (modeling_mpnet.py
    L270) but the buckets are T5's 32 whatever it says (L312-323): 16 rows fail
    with an IndexError, 64 leave rows unread."""
    for nb, fails in ((16, True), (64, False)):
        d = _small("mpnet-base", hidden_size=16, num_attention_heads=2, intermediate_size=8,
                   num_hidden_layers=1, vocab_size=64, relative_attention_num_buckets=nb)
        model = transformers.MPNetModel(_hf_config("mpnet", d)).eval()
        try:
            with torch.no_grad():
                model(input_ids=torch.arange(40)[None] % 60 + 3)
            failed = False
        except IndexError:
            failed = True
        assert failed == fails
        r = _explain_dict(tmp_path, dict(CONFIGS["mpnet-base"], relative_attention_num_buckets=nb))
        assert (r.returncode != 0) == fails, r.stderr
        if fails:
            assert "relative_attention_num_buckets 16" in r.stderr


def _group_sizes(r):
    """the number of layers in each of EXPLAIN MODEL's layer lines"""
    sizes = []
    for line in r.stdout.splitlines():
        if line.startswith("layer"):
            span = line.split(":", 1)[0].split()[1]
            a, _, b = span.partition("-")
            sizes.append(int(b or a) - int(a) + 1)
    return sizes


@pytest.mark.parametrize("name", ["long-t5-local-base", "long-t5-tglobal-base"])
@pytest.mark.parametrize("kw", [dict(num_hidden_layers=3), dict(num_hidden_layers=3, num_layers=5),
                                dict(num_hidden_layers=3, num_decoder_layers=2),
                                dict(num_layers=4, num_decoder_layers=None)])
def test_t5_layer_alias(tmp_path, name, kw):
    """num_hidden_layers is the T5 classes' attribute_map alias of num_layers
    (configuration_longt5.py L47-52; configuration_t5.py L37-41), set after the
    fields: it wins for the encoder, and num_decoder_layers falls back to
    num_layers as the fields hold it (configuration_t5.py L65-66). The stacks'
    layer counts are those of the model built from the config."""
    real = {k: v for k, v in CONFIGS[name].items() if k not in ("num_layers",
                                                                 "num_decoder_layers")}
    d = dict(real, **kw)
    r = _explain_dict(tmp_path, d)
    assert r.returncode == 0, r.stderr
    small = {k: v for k, v in d.items() if k not in ("model_type", "architectures",
                                                     "transformers_version")}
    small.update(d_model=16, d_kv=8, d_ff=8, num_heads=2, vocab_size=64)
    torch.manual_seed(0)
    model = transformers.LongT5Model(_hf_config("longt5", small))
    assert _group_sizes(r) == [len(model.encoder.block), len(model.decoder.block)]


@pytest.mark.parametrize("kw", [dict(num_hidden_layers=3, num_layers=5), dict(num_layers=5), {}])
def test_switch_transformers_decoder_default(tmp_path, kw):
    """SwitchTransformersConfig's num_decoder_layers has its own default 12
    (configuration_switch_transformers.py L65; a null one falls back to
    num_layers, L92-94): an absent one is not num_layers as in T5."""
    d = dict(model_type="switch_transformers", **kw)
    r = _explain_dict(tmp_path, d)
    assert r.returncode == 0, r.stderr
    cfg = _hf_config("switch_transformers", kw)
    assert _group_sizes(r) == [cfg.num_layers, cfg.num_decoder_layers]


@pytest.mark.parametrize("name", ["xlnet-base-cased", "funnel-small"])
@pytest.mark.parametrize("both", [False, True])
def test_hidden_size_alias_of_d_model(tmp_path, name, both):
    """hidden_size is XLNet's and Funnel's attribute_map alias of d_model
    (configuration_xlnet.py L99-104, configuration_funnel.py L47-50), set after
    the fields (it wins over d_model): the sinusoid's width, hence its
    frequencies, follow it; golden's vectors equal the code's at that width."""
    real = {k: v for k, v in CONFIGS[name].items() if k != "d_model"}
    d = dict(real, hidden_size=384, **({"d_model": 512} if both else {}))
    if name == "xlnet-base-cased":
        d["d_head"] = 384 // d["n_head"]
    else:
        d["n_head"] = 2
    r = _explain_dict(tmp_path, d)
    assert r.returncode == 0, r.stderr
    mt = d["model_type"]
    small = {k: v for k, v in d.items() if k not in ("model_type", "architectures",
                                                     "task_specific_params")}
    cfg = _hf_config(mt, small)
    assert cfg.d_model == 384
    assert all(f"d_model={cfg.d_model} " in line for line in r.stdout.splitlines()
               if line.startswith("layer"))
    path = tmp_path / "variant.json"
    dist = [-300, -1, 0, 1, 7, 511]
    g, _ = _golden(path, 0, _pos_list(dist))
    if mt == "xlnet":
        freq = torch.arange(0, 384, 2.0, dtype=torch.int64).float()
        inv = 1 / torch.pow(10000, freq / 384)  # modeling_xlnet.py L940-941
        model = transformers.XLNetModel(_hf_config(mt, dict(small, n_layer=1, vocab_size=50,
                                                            d_inner=8)))
        ref = model.positional_embedding(torch.tensor(dist, dtype=torch.float), inv)[:, 0].numpy()
    else:
        st = transformers.FunnelModel(_hf_config(mt, dict(small, vocab_size=50, d_head=8,
                                                          d_inner=8))).eval() \
            .encoder.attention_structure
        with torch.no_grad():
            table = st.get_position_embeds(600, torch.float32, "cpu")[0][0]
        rel = st.relative_pos(list(range(600)), 1).tolist()
        ref = table[[rel.index(x) for x in dist]].numpy()
    _close_relsin(g["pe"], ref, dist)


#: other families' names for the layer count, width, heads and table length
ALIASES = {"num_hidden_layers": 3, "n_layer": 3, "num_layers": 3, "n_layers": 3,
           "hidden_size": 384, "n_embd": 384, "n_embed": 384, "d_model": 384, "dim": 384,
           "num_attention_heads": 3, "n_head": 3, "n_heads": 3, "num_heads": 3,
           "max_position_embeddings": 300, "n_positions": 300, "seq_length": 300,
           "max_seq_len": 300, "n_ctx": 300}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_names_the_config_class_does_not_know_are_not_read(tmp_path, name):
    """A key the checkpoint's config class neither declares nor maps
    (attribute_map) is an attribute its model never reads: added to the config,
    it leaves posenc's reading as it was (or is refused by name), never taken for
    the family's own key (another family's n_layer, d_model, n_positions...)."""
    real = CONFIGS[name]
    mt = real["model_type"]
    cls = transformers.T5GemmaConfig if mt == "t5gemma" else transformers.CONFIG_MAPPING[mt]
    known = set(getattr(cls, "__dataclass_fields__", {})) | set(cls.attribute_map)
    base = _explain_dict(tmp_path, real)
    assert base.returncode == 0, base.stderr
    for key, value in ALIASES.items():
        if key in known or key in real:
            continue
        r = _explain_dict(tmp_path, dict(real, **{key: value}))
        if r.returncode != 0:
            assert key in r.stderr, (key, r.stderr)
            continue
        assert _scheme_lines(r) == _scheme_lines(base), (key, r.stdout)
