"""The fairseq / sinusoid families on real checkpoints' config.json files:
Marian (opus-mt-en-de, opus-mt-tc-big-en-fr), M2M100 (m2m100_418M,
nllb-200-distilled-600M), NLLB-MoE (nllb-moe-54b), Pegasus (pegasus-xsum,
pegasus-large), PEGASUS-X (pegasus-x-base), Speech2Text
(s2t-small-librispeech-asr), XGLM (xglm-564M), Kosmos-2 and Kosmos-2.5 (their
text_config), MusicGen (musicgen-small, its decoder), CTRL and TIPSv2 (its
text_config).

Each config dict below is written after the published config.json of the
checkpoint its comment names, as faithfully as it could be recalled: the real
dimensions, offsets and pad ids, and the legacy keys those files carry
(static_position_embeddings, extra_pos_embeddings, normalize_embedding,
add_bias_logits, id2label, task_specific_params with their own
max_position_embeddings, old transformers_version, nulls, Kosmos-2's and
MusicGen's fully dumped nested configs, CTRL's n_ctx). They are not copied byte
for byte: a key may be missing or in another order, and a value that matters
to no position encoding may differ from the hub's file. Nothing is downloaded.

For each config, written to a file at test time:
 1. posenc --config F -c 'EXPLAIN MODEL' reads it and names each layer group's
    scheme, its layer range, table rows, width and offset; the numbers are
    checked against transformers 5.23's config (AutoConfig.from_pretrained on
    the same file) and the built model's own position module.
 2. posenc golden --config F --layer N (the first encoder and the first
    decoder layer, or layer 0 and the last layer of a decoder-only stack)
    equals what the built model adds: a model (or, for a wrapper, the part
    posenc reads) built from the same config with one layer per stack, small
    feed-forward and (where the pad id allows) vocabulary, but the real
    d_model, rows, pad_token_id and offsets; a forward hook on its position
    module at tokens 0..T-1, and the module itself called as the model calls
    it while decoding (past_key_values_length = p) or on a whole sequence at
    the --positions lists (0, 1, 2, 511, 1000, the table's last row and past
    it), within float32 rounding (test_sinusoid_families_hf.py's bound plus
    the float32 angle's own rounding, see _close); posenc.schemes'
    sinusoid_table gives golden's numbers.
 3. Past the last row: where transformers' module grows its table (fairseq's
    make_weights: M2M100, NLLB-MoE, Speech2Text, XGLM, Kosmos-2(.5),
    MusicGen) posenc gives the grown rows; where it ends (Marian, Pegasus:
    nn.Embedding; CTRL: pos_encoding[position_ids]; TIPSv2: a ValueError past
    max_position_embeddings) transformers raises and posenc (golden and
    posenc.schemes) refuses by name. PEGASUS-X computes any position (no
    table, modeling_pegasus_x.py L94-124); posenc refuses past its config's
    max_position_embeddings, a cautious refusal.
 4. The float16 / bfloat16 checkpoints built in their own dtype add posenc's
    vectors rounded to it; XGLM with a pad_token_id of 2 or more and PEGASUS-X
    in float16 / bfloat16, which transformers runs other than posenc's
    float32 vectors, are refused by name.
The modules' code: models/marian/modeling_marian.py L72-103 (the table),
L447-472, L527-596 (the stacks' calls); pegasus/modeling_pegasus.py L74-110,
L453, L512, L571, L673; pegasus_x/modeling_pegasus_x.py L94-124, L749, L839,
L930, L1043; m2m_100/modeling_m2m_100.py L80-185, L533, L561, L622, L686;
nllb_moe/modeling_nllb_moe.py L63-167, L692, L720, L774, L829;
speech_to_text/modeling_speech_to_text.py L103-160, L545, L572-576, L634,
L689; xglm/modeling_xglm.py L53-107, L381, L445-462;
kosmos2/modeling_kosmos2.py L556-667, L913, L970;
kosmos2_5/modeling_kosmos2_5.py L616-728, L905, L953;
musicgen/modeling_musicgen.py L106-148, L429, L522; ctrl/modeling_ctrl.py
L45-62, L230, L294-318; tipsv2/modeling_tipsv2.py L586-662 (transformers
5.23.0)."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)

T = 9  # tokens in the forward pass

#: PretrainedConfig's attributes as transformers 4.3x dumped them into nested
#: configs (Kosmos-2's text_config, MusicGen's parts): nulls, generation
#: defaults and all.
_DUMPED_DEFAULTS = {
    "_name_or_path": "",
    "add_cross_attention": False,
    "architectures": None,
    "bad_words_ids": None,
    "begin_suppress_tokens": None,
    "chunk_size_feed_forward": 0,
    "cross_attention_hidden_size": None,
    "decoder_start_token_id": None,
    "diversity_penalty": 0.0,
    "do_sample": False,
    "early_stopping": False,
    "encoder_no_repeat_ngram_size": 0,
    "exponential_decay_length_penalty": None,
    "finetuning_task": None,
    "forced_bos_token_id": None,
    "forced_eos_token_id": None,
    "id2label": {"0": "LABEL_0", "1": "LABEL_1"},
    "is_decoder": False,
    "is_encoder_decoder": False,
    "label2id": {"LABEL_0": 0, "LABEL_1": 1},
    "length_penalty": 1.0,
    "max_length": 20,
    "min_length": 0,
    "no_repeat_ngram_size": 0,
    "num_beam_groups": 1,
    "num_beams": 1,
    "num_return_sequences": 1,
    "output_attentions": False,
    "output_hidden_states": False,
    "output_scores": False,
    "prefix": None,
    "problem_type": None,
    "pruned_heads": {},
    "remove_invalid_values": False,
    "repetition_penalty": 1.0,
    "return_dict": True,
    "return_dict_in_generate": False,
    "sep_token_id": None,
    "suppress_tokens": None,
    "task_specific_params": None,
    "temperature": 1.0,
    "tf_legacy_loss": False,
    "tie_encoder_decoder": False,
    "tokenizer_class": None,
    "top_k": 50,
    "top_p": 1.0,
    "torch_dtype": None,
    "torchscript": False,
    "typical_p": 1.0,
    "use_bfloat16": False,
}


def _dumped(**kw):
    d = dict(_DUMPED_DEFAULTS)
    d.update(kw)
    return d


CONFIGS = {
    # Helsinki-NLP/opus-mt-en-de (written after the published config.json,
    # not copied byte for byte)
    "opus-mt-en-de": {
        "_name_or_path": "/tmp/Helsinki-NLP/opus-mt-en-de",
        "_num_labels": 3,
        "activation_dropout": 0.0,
        "activation_function": "swish",
        "add_bias_logits": False,
        "add_final_layer_norm": False,
        "architectures": ["MarianMTModel"],
        "attention_dropout": 0.0,
        "bad_words_ids": [[58100]],
        "bos_token_id": 0,
        "classif_dropout": 0.0,
        "classifier_dropout": 0.0,
        "d_model": 512,
        "decoder_attention_heads": 8,
        "decoder_ffn_dim": 2048,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 6,
        "decoder_start_token_id": 58100,
        "decoder_vocab_size": 58101,
        "dropout": 0.1,
        "encoder_attention_heads": 8,
        "encoder_ffn_dim": 2048,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 6,
        "eos_token_id": 0,
        "extra_pos_embeddings": 58101,
        "forced_eos_token_id": 0,
        "gradient_checkpointing": False,
        "id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"},
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "label2id": {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2},
        "max_length": 512,
        "max_position_embeddings": 512,
        "model_type": "marian",
        "normalize_before": False,
        "normalize_embedding": False,
        "num_beams": 4,
        "num_hidden_layers": 6,
        "pad_token_id": 58100,
        "scale_embedding": True,
        "share_encoder_decoder_embeddings": True,
        "static_position_embeddings": True,
        "transformers_version": "4.22.0.dev0",
        "use_cache": True,
        "vocab_size": 58101,
    },
    # Helsinki-NLP/opus-mt-tc-big-en-fr (written after the published
    # config.json, not copied byte for byte)
    "opus-mt-tc-big-en-fr": {
        "activation_dropout": 0.0,
        "activation_function": "relu",
        "architectures": ["MarianMTModel"],
        "attention_dropout": 0.0,
        "bad_words_ids": [[53016]],
        "bos_token_id": 0,
        "classifier_dropout": 0.0,
        "d_model": 1024,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 4096,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 6,
        "decoder_start_token_id": 53016,
        "decoder_vocab_size": 53017,
        "dropout": 0.1,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 4096,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 6,
        "eos_token_id": 43311,
        "forced_eos_token_id": 43311,
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "max_length": 512,
        "max_position_embeddings": 1024,
        "model_type": "marian",
        "normalize_embedding": False,
        "num_beams": 4,
        "num_hidden_layers": 6,
        "pad_token_id": 53016,
        "scale_embedding": True,
        "share_encoder_decoder_embeddings": True,
        "static_position_embeddings": True,
        "torch_dtype": "float16",
        "transformers_version": "4.18.0.dev0",
        "use_cache": True,
        "vocab_size": 53017,
    },
    # facebook/m2m100_418M (written after the published config.json, not
    # copied byte for byte)
    "m2m100_418M": {
        "_name_or_path": "hf_models/m2m100_418M",
        "activation_dropout": 0.0,
        "activation_function": "relu",
        "architectures": ["M2M100ForConditionalGeneration"],
        "attention_dropout": 0.1,
        "bos_token_id": 0,
        "d_model": 1024,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 4096,
        "decoder_layerdrop": 0.05,
        "decoder_layers": 12,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "early_stopping": True,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 4096,
        "encoder_layerdrop": 0.05,
        "encoder_layers": 12,
        "eos_token_id": 2,
        "gradient_checkpointing": False,
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "max_length": 200,
        "max_position_embeddings": 1024,
        "model_type": "m2m_100",
        "num_beams": 5,
        "num_hidden_layers": 12,
        "pad_token_id": 1,
        "scale_embedding": True,
        "transformers_version": "4.4.0.dev0",
        "use_cache": True,
        "vocab_size": 128112,
    },
    # facebook/nllb-200-distilled-600M (model_type m2m_100; written after the
    # published config.json, not copied byte for byte)
    "nllb-200-distilled-600M": {
        "_name_or_path": "/home/nllb/",
        "activation_dropout": 0.0,
        "activation_function": "relu",
        "architectures": ["M2M100ForConditionalGeneration"],
        "attention_dropout": 0.1,
        "bos_token_id": 0,
        "d_model": 1024,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 4096,
        "decoder_layerdrop": 0,
        "decoder_layers": 12,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 4096,
        "encoder_layerdrop": 0,
        "encoder_layers": 12,
        "eos_token_id": 2,
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "max_length": 200,
        "max_position_embeddings": 1024,
        "model_type": "m2m_100",
        "num_hidden_layers": 12,
        "pad_token_id": 1,
        "scale_embedding": True,
        "tokenizer_class": "NllbTokenizer",
        "torch_dtype": "float32",
        "transformers_version": "4.21.0.dev0",
        "use_cache": True,
        "vocab_size": 256206,
    },
    # facebook/nllb-moe-54b (written after the published config.json, not
    # copied byte for byte)
    "nllb-moe-54b": {
        "_name_or_path": "/home/arthur/facebook/nllb-moe",
        "activation_dropout": 0.0,
        "activation_function": "relu",
        "architectures": ["NllbMoeForConditionalGeneration"],
        "attention_dropout": 0.1,
        "batch_prioritized_routing": False,
        "bos_token_id": 0,
        "d_model": 2048,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 8192,
        "decoder_layerdrop": 0,
        "decoder_layers": 24,
        "decoder_sparse_step": 4,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 8192,
        "encoder_layerdrop": 0,
        "encoder_layers": 24,
        "encoder_sparse_step": 4,
        "eos_token_id": 2,
        "expert_capacity": 64,
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "max_length": 200,
        "max_position_embeddings": 1024,
        "model_type": "nllb-moe",
        "moe_eval_capacity_token_fraction": 1.0,
        "moe_token_dropout": 0.2,
        "normalize_router_prob_before_dropping": False,
        "num_experts": 128,
        "num_hidden_layers": 24,
        "output_router_logits": False,
        "pad_token_id": 1,
        "router_aux_loss_coef": 0.001,
        "router_bias": False,
        "router_dtype": "float32",
        "router_ignore_padding_tokens": False,
        "router_jitter_noise": 0.0,
        "router_z_loss_coef": 0.001,
        "scale_embedding": True,
        "second_expert_policy": "all",
        "tokenizer_class": "NllbTokenizer",
        "torch_dtype": "float32",
        "transformers_version": "4.27.0.dev0",
        "use_cache": True,
        "vocab_size": 256206,
    },
    # google/pegasus-xsum (written after the published config.json, not
    # copied byte for byte)
    "pegasus-xsum": {
        "_name_or_path": "google/pegasus-xsum",
        "activation_dropout": 0.1,
        "activation_function": "relu",
        "add_bias_logits": False,
        "add_final_layer_norm": True,
        "architectures": ["PegasusForConditionalGeneration"],
        "attention_dropout": 0.1,
        "bos_token_id": 0,
        "classif_dropout": 0.0,
        "classifier_dropout": 0.0,
        "d_model": 1024,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 4096,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 16,
        "decoder_start_token_id": 0,
        "dropout": 0.1,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 4096,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 16,
        "eos_token_id": 1,
        "extra_pos_embeddings": 0,
        "force_bos_token_to_be_generated": False,
        "forced_eos_token_id": 1,
        "gradient_checkpointing": False,
        "id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"},
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "label2id": {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2},
        "length_penalty": 0.6,
        "max_length": 64,
        "max_position_embeddings": 512,
        "model_type": "pegasus",
        "normalize_before": True,
        "normalize_embedding": False,
        "num_beams": 8,
        "num_hidden_layers": 16,
        "pad_token_id": 0,
        "scale_embedding": True,
        "static_position_embeddings": True,
        "task_specific_params": {
            "summarization_xsum": {"length_penalty": 0.6, "max_length": 64,
                                   "max_position_embeddings": 512}
        },
        "transformers_version": "4.5.0.dev0",
        "use_cache": True,
        "vocab_size": 96103,
    },
    # google/pegasus-large (written after the published config.json, not
    # copied byte for byte; its task_specific_params name other lengths)
    "pegasus-large": {
        "activation_dropout": 0.1,
        "activation_function": "relu",
        "add_bias_logits": False,
        "add_final_layer_norm": True,
        "architectures": ["PegasusForConditionalGeneration"],
        "attention_dropout": 0.1,
        "bos_token_id": 0,
        "classif_dropout": 0.0,
        "classifier_dropout": 0.0,
        "d_model": 1024,
        "decoder_attention_heads": 16,
        "decoder_ffn_dim": 4096,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 16,
        "decoder_start_token_id": 0,
        "dropout": 0.1,
        "encoder_attention_heads": 16,
        "encoder_ffn_dim": 4096,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 16,
        "eos_token_id": 1,
        "extra_pos_embeddings": 1,
        "force_bos_token_to_be_generated": False,
        "forced_eos_token_id": 1,
        "gradient_checkpointing": False,
        "id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"},
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "label2id": {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2},
        "length_penalty": 0.8,
        "max_length": 256,
        "max_position_embeddings": 1024,
        "model_type": "pegasus",
        "normalize_before": True,
        "normalize_embedding": False,
        "num_beams": 8,
        "num_hidden_layers": 16,
        "pad_token_id": 0,
        "scale_embedding": True,
        "static_position_embeddings": True,
        "task_specific_params": {
            "summarization_aeslc": {"length_penalty": 0.6, "max_length": 32,
                                    "max_position_embeddings": 512},
            "summarization_arxiv": {"length_penalty": 0.8, "max_length": 256,
                                    "max_position_embeddings": 1024},
            "summarization_big_patent": {"length_penalty": 0.7, "max_length": 256,
                                         "max_position_embeddings": 1024},
            "summarization_billsum": {"length_penalty": 0.6, "max_length": 256,
                                      "max_position_embeddings": 1024},
            "summarization_cnn_dailymail": {"length_penalty": 0.8, "max_length": 128,
                                            "max_position_embeddings": 1024},
            "summarization_gigaword": {"length_penalty": 0.6, "max_length": 32,
                                       "max_position_embeddings": 128},
            "summarization_large": {"length_penalty": 0.8, "max_length": 256,
                                    "max_position_embeddings": 1024},
            "summarization_multi_news": {"length_penalty": 0.8, "max_length": 256,
                                         "max_position_embeddings": 1024},
            "summarization_newsroom": {"length_penalty": 0.8, "max_length": 128,
                                       "max_position_embeddings": 512},
            "summarization_pubmed": {"length_penalty": 0.8, "max_length": 256,
                                     "max_position_embeddings": 1024},
            "summarization_reddit_tifu": {"length_penalty": 0.6, "max_length": 128,
                                          "max_position_embeddings": 512},
            "summarization_wikihow": {"length_penalty": 0.6, "max_length": 256,
                                      "max_position_embeddings": 512},
            "summarization_xsum": {"length_penalty": 0.8, "max_length": 64,
                                   "max_position_embeddings": 512},
        },
        "transformers_version": "4.5.0.dev0",
        "use_cache": True,
        "vocab_size": 96103,
    },
    # google/pegasus-x-base (written after the published config.json, not
    # copied byte for byte)
    "pegasus-x-base": {
        "activation_dropout": 0.1,
        "activation_function": "relu",
        "architectures": ["PegasusXForConditionalGeneration"],
        "attention_dropout": 0.1,
        "block_size": 512,
        "bos_token_id": 0,
        "d_model": 768,
        "decoder_attention_heads": 12,
        "decoder_ffn_dim": 3072,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 12,
        "decoder_start_token_id": 0,
        "dropout": 0.1,
        "encoder_attention_heads": 12,
        "encoder_ffn_dim": 3072,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 12,
        "eos_token_id": 1,
        "forced_eos_token_id": 1,
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "max_position_embeddings": 16384,
        "model_type": "pegasus_x",
        "num_global_tokens": 128,
        "num_hidden_layers": 12,
        "pad_token_id": 0,
        "scale_embedding": True,
        "stagger_local_blocks": True,
        "torch_dtype": "float32",
        "transformers_version": "4.22.0.dev0",
        "use_cache": True,
        "vocab_size": 96103,
    },
    # facebook/s2t-small-librispeech-asr (written after the published
    # config.json, not copied byte for byte)
    "s2t-small-librispeech-asr": {
        "_name_or_path": "hf_models_fb/s2t-small-librispeech-asr",
        "activation_dropout": 0.1,
        "activation_function": "relu",
        "architectures": ["Speech2TextForConditionalGeneration"],
        "attention_dropout": 0.1,
        "bos_token_id": 0,
        "classifier_dropout": 0.0,
        "conv_channels": 1024,
        "conv_kernel_sizes": [5, 5],
        "d_model": 256,
        "decoder_attention_heads": 4,
        "decoder_ffn_dim": 2048,
        "decoder_layerdrop": 0.0,
        "decoder_layers": 6,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "early_stopping": True,
        "encoder_attention_heads": 4,
        "encoder_ffn_dim": 2048,
        "encoder_layerdrop": 0.0,
        "encoder_layers": 12,
        "eos_token_id": 2,
        "gradient_checkpointing": False,
        "init_std": 0.02,
        "input_channels": 1,
        "input_feat_per_channel": 80,
        "is_encoder_decoder": True,
        "max_length": 200,
        "max_source_positions": 6000,
        "max_target_positions": 1024,
        "model_type": "speech_to_text",
        "num_beams": 5,
        "num_conv_layers": 2,
        "num_hidden_layers": 12,
        "pad_token_id": 1,
        "scale_embedding": True,
        "transformers_version": "4.4.0.dev0",
        "use_cache": True,
        "vocab_size": 10000,
    },
    # facebook/xglm-564M (written after the published config.json, not
    # copied byte for byte)
    "xglm-564M": {
        "activation_dropout": 0.0,
        "activation_function": "gelu",
        "architectures": ["XGLMForCausalLM"],
        "attention_dropout": 0.1,
        "attention_heads": 16,
        "bos_token_id": 0,
        "d_model": 1024,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "eos_token_id": 2,
        "ffn_dim": 4096,
        "init_std": 0.02,
        "layerdrop": 0.0,
        "max_position_embeddings": 2048,
        "model_type": "xglm",
        "num_layers": 24,
        "pad_token_id": 1,
        "scale_embedding": True,
        "transformers_version": "4.16.0.dev0",
        "use_cache": True,
        "vocab_size": 256008,
    },
    # microsoft/kosmos-2-patch14-224 (written after the published
    # config.json, not copied byte for byte: its nested configs dumped whole)
    "kosmos-2-patch14-224": {
        "_name_or_path": "microsoft/kosmos-2-patch14-224",
        "architectures": ["Kosmos2ForConditionalGeneration"],
        "latent_query_num": 64,
        "model_type": "kosmos-2",
        "text_config": _dumped(
            activation_dropout=0.0, activation_function="gelu", attention_dropout=0.1,
            attention_heads=32, bos_token_id=0, dropout=0.1, embed_dim=2048, eos_token_id=2,
            ffn_dim=8192, init_std=0.02, layer_norm_eps=1e-05, layerdrop=0.0, layers=24,
            max_position_embeddings=2048, model_type="kosmos_2_text_model",
            no_repeat_ngram_size=3, pad_token_id=1, scale_embedding=True,
            tie_word_embeddings=True, use_cache=True, vocab_size=65037),
        "torch_dtype": "float32",
        "transformers_version": "4.35.0.dev0",
        "vision_config": _dumped(
            attention_dropout=0.0, bos_token_id=None, dropout=0.0, eos_token_id=None,
            hidden_act="quick_gelu", hidden_size=1024, image_size=224, initializer_factor=1.0,
            initializer_range=0.02, intermediate_size=4096, layer_norm_eps=1e-05,
            model_type="kosmos_2_vision_model", num_attention_heads=16, num_channels=3,
            num_hidden_layers=24, pad_token_id=None, patch_size=14,
            tie_word_embeddings=True),
    },
    # microsoft/kosmos-2.5 (written after the published config.json, not
    # copied byte for byte)
    "kosmos-2.5": {
        "architectures": ["Kosmos2_5ForConditionalGeneration"],
        "latent_query_num": 2048,
        "model_type": "kosmos-2.5",
        "text_config": {
            "activation_dropout": 0.0,
            "activation_function": "gelu",
            "attention_dropout": 0,
            "attention_heads": 16,
            "dropout": 0,
            "embed_dim": 1536,
            "ffn_dim": 6144,
            "layer_norm_eps": 1e-05,
            "layerdrop": 0.0,
            "layers": 24,
            "max_position_embeddings": 4096,
            "model_type": "kosmos_2_5_text_model",
            "scale_embedding": True,
            "use_cache": True,
            "vocab_size": 108481,
        },
        "torch_dtype": "bfloat16",
        "transformers_version": "4.56.0.dev0",
        "vision_config": {
            "attention_dropout": 0.0,
            "dense_act_fn": "gelu_new",
            "dropout_rate": 0.0,
            "head_dim": 64,
            "hidden_size": 1536,
            "intermediate_size": 3968,
            "layer_norm_eps": 1e-06,
            "max_num_patches": 4096,
            "model_type": "kosmos_2_5_vision_model",
            "num_attention_heads": 24,
            "num_hidden_layers": 18,
            "patch_embed_hidden_size": 768,
        },
    },
    # facebook/musicgen-small (written after the published config.json, not
    # copied byte for byte: the three parts dumped whole)
    "musicgen-small": {
        "_name_or_path": "./musicgen-small",
        "architectures": ["MusicgenForConditionalGeneration"],
        "audio_encoder": _dumped(
            _name_or_path="facebook/encodec_32khz", architectures=["EncodecModel"],
            audio_channels=1, chunk_length_s=None, codebook_dim=128, codebook_size=2048,
            compress=2, dilation_growth_rate=2, hidden_size=128, kernel_size=7,
            last_kernel_size=7, model_type="encodec", norm_type="weight_norm",
            normalize=False, num_filters=64, num_lstm_layers=2, num_residual_layers=1,
            overlap=None, pad_mode="reflect", residual_kernel_size=3, sampling_rate=32000,
            target_bandwidths=[2.2], torch_dtype="float32", trim_right_ratio=1.0,
            upsampling_ratios=[8, 5, 4, 4], use_causal_conv=False, use_conv_shortcut=False),
        "decoder": _dumped(
            activation_dropout=0.0, activation_function="gelu", attention_dropout=0.0,
            bos_token_id=2048, classifier_dropout=0.0, dropout=0.1, ffn_dim=4096,
            hidden_size=1024, initializer_factor=0.02, layerdrop=0.0,
            max_position_embeddings=2048, model_type="musicgen_decoder",
            num_attention_heads=16, num_codebooks=4, num_hidden_layers=24,
            pad_token_id=2048, scale_embedding=False, tie_word_embeddings=False,
            use_cache=True, vocab_size=2048),
        "is_encoder_decoder": True,
        "model_type": "musicgen",
        "text_encoder": _dumped(
            _name_or_path="t5-base", architectures=["T5ForConditionalGeneration"],
            d_ff=3072, d_kv=64, d_model=768, decoder_start_token_id=0, dense_act_fn="relu",
            dropout_rate=0.1, eos_token_id=1, feed_forward_proj="relu",
            initializer_factor=1.0, is_encoder_decoder=True, is_gated_act=False,
            layer_norm_epsilon=1e-06, model_type="t5", n_positions=512, num_decoder_layers=12,
            num_heads=12, num_layers=12, output_past=True, pad_token_id=0,
            relative_attention_max_distance=128, relative_attention_num_buckets=32,
            task_specific_params={
                "summarization": {"early_stopping": True, "length_penalty": 2.0,
                                  "max_length": 200, "min_length": 30,
                                  "no_repeat_ngram_size": 3, "num_beams": 4,
                                  "prefix": "summarize: "},
                "translation_en_to_de": {"early_stopping": True, "max_length": 300,
                                         "num_beams": 4,
                                         "prefix": "translate English to German: "},
            },
            use_cache=True, vocab_size=32128),
        "torch_dtype": "float32",
        "transformers_version": "4.31.0.dev0",
    },
    # Salesforce/ctrl (written after the published config.json, not copied
    # byte for byte: n_positions 50000, the legacy n_ctx 512)
    "ctrl": {
        "architectures": ["CTRLLMHeadModel"],
        "attn_pdrop": 0.1,
        "dff": 8192,
        "embd_pdrop": 0.1,
        "from_tf": False,
        "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-06,
        "model_type": "ctrl",
        "n_ctx": 512,
        "n_embd": 1280,
        "n_head": 16,
        "n_layer": 48,
        "n_positions": 50000,
        "resid_pdrop": 0.1,
        "summary_activation": None,
        "summary_first_dropout": 0.1,
        "summary_proj_to_labels": True,
        "summary_type": "cls_index",
        "summary_use_proj": True,
        "use_cache": True,
        "vocab_size": 246534,
    },
    # google/tipsv2-b14 (written after Tipsv2Config's class defaults, which
    # its docstring says follow that checkpoint, with a vision part; not the
    # hub file)
    "tipsv2-b14": {
        "architectures": ["Tipsv2Model"],
        "model_type": "tipsv2",
        "temperature_init_value": 0.005065968260169029,
        "text_config": {
            "hidden_act": "relu",
            "hidden_size": 768,
            "intermediate_size": 3072,
            "max_position_embeddings": 64,
            "model_type": "tipsv2_text_model",
            "num_attention_heads": 12,
            "num_hidden_layers": 12,
            "pad_token_id": 0,
            "scale_sqrt_depth": True,
            "vocab_size": 32000,
        },
        "torch_dtype": "float32",
        "transformers_version": "5.23.0",
        "vision_config": {
            "hidden_size": 768,
            "model_type": "tipsv2_vision_model",
        },
    },
}

#: checkpoint: (how its position module is called, the part posenc reads or
#: None, the small sizes the test model is built with). Kinds: "table"
#: (Marian's and Pegasus's nn.Embedding, rows past..), "fairseq" (rows from
#: padding_idx + 1 of the token ids, grown past its rows), "s2t" (fairseq on a
#: whole sequence: the encoder's padding mask, the decoder's ids), "xglm"
#: (position_ids + 2), "pegasus_x" (computed per call), "musicgen", "ctrl"
#: (pos_encoding[position_ids]), "tipsv2" (weights[position_ids]).
_ENCDEC_SMALL = dict(encoder_layers=1, decoder_layers=1, encoder_ffn_dim=8, decoder_ffn_dim=8)
CASES = {
    # the pad ids 58100 and 53016 need the real vocabulary
    "opus-mt-en-de": ("table", None, dict(_ENCDEC_SMALL)),
    "opus-mt-tc-big-en-fr": ("table", None, dict(_ENCDEC_SMALL)),
    "m2m100_418M": ("fairseq", None, dict(_ENCDEC_SMALL, vocab_size=64)),
    "nllb-200-distilled-600M": ("fairseq", None, dict(_ENCDEC_SMALL, vocab_size=64)),
    "nllb-moe-54b": ("fairseq", None, dict(_ENCDEC_SMALL, vocab_size=64, num_experts=2,
                                            expert_capacity=4)),
    "pegasus-xsum": ("table", None, dict(_ENCDEC_SMALL, vocab_size=64)),
    "pegasus-large": ("table", None, dict(_ENCDEC_SMALL, vocab_size=64)),
    "pegasus-x-base": ("pegasus_x", None, dict(_ENCDEC_SMALL, vocab_size=64)),
    "s2t-small-librispeech-asr": ("s2t", None, dict(_ENCDEC_SMALL, vocab_size=64,
                                                    conv_channels=16)),
    "xglm-564M": ("xglm", None, dict(num_layers=1, ffn_dim=8, vocab_size=64)),
    "kosmos-2-patch14-224": ("fairseq", "text_config", dict(layers=1, ffn_dim=8, vocab_size=64)),
    "kosmos-2.5": ("fairseq", "text_config", dict(layers=1, ffn_dim=8, vocab_size=64)),
    "musicgen-small": ("musicgen", "decoder", dict(num_hidden_layers=1, ffn_dim=8)),
    "ctrl": ("ctrl", None, dict(n_layer=1, dff=8, vocab_size=64)),
    "tipsv2-b14": ("tipsv2", "text_config", dict(num_hidden_layers=1, intermediate_size=8,
                                                 vocab_size=64)),
}

#: the layout and exponent words EXPLAIN MODEL names per kind: Marian's,
#: Pegasus's and CTRL's XLM angles pos / 10000^(2 (j // 2) / dim), sin | cos
#: halves (modeling_marian.py L80-93, modeling_ctrl.py L45-62); fairseq's
#: exp(-k ln(10000) / (half_dim - 1)), sin | cos (modeling_m2m_100.py
#: L100-118), MusicGen's cos | sin (modeling_musicgen.py L123-136)
WORDS = {"table": ("half", "2k/dim"), "ctrl": ("half", "2k/dim"),
         "musicgen": ("half_cos_first", "k/(dim/2-1)")}


def _write(tmp_path, name):
    folder = tmp_path / name
    folder.mkdir()
    path = folder / "config.json"
    path.write_text(json.dumps(CONFIGS[name], indent=2))
    return path


def _posenc(*args):
    return subprocess.run([PROGRAM, *map(str, args)], capture_output=True, text=True)


def _golden(cfg, layer, positions, tmp_path):
    out = tmp_path / f"golden{layer}.safetensors"
    r = _posenc("golden", "--config", cfg, "--layer", layer,
                "--positions=" + ",".join(map(str, positions)), "-o", out)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out))


def _close(ours, ref, pos):
    """within float32 rounding of torch's steps: an ulp of the value, plus
    |pos| ulp(w) (torch's SLEEF expf is within an ulp and not correctly
    rounded where posenc's float32 frequency is: at d_model 256, k = 4, it is
    an ulp under), plus an ulp of the float32 angle pos * w <= pos (that
    product then rounds to the neighbouring float: 4.8e-4 at Speech2Text's
    row 6001), plus 4 ulp(1/2) (SLEEF's sinf). test_sinusoid_families_hf.py's
    bound without the angle's ulp, which its short sequences never reach."""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    p = np.abs(np.asarray(pos, dtype=np.float64))[:, None]
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + (p + 4) * 2.0 ** -24 + np.spacing(p.astype(np.float32))
    bad = np.abs(ours - ref) > tol
    assert not bad.any(), (np.asarray(pos)[bad.any(1)][:5], np.abs(ours - ref).max())


def _hf(tmp_path, name, dtype=torch.float32):
    """(the config file, the config transformers reads from it, the built
    model posenc's part of it, the part's config): one layer per stack, the
    real widths, rows, pad ids and offsets; in float32 (from_config would
    take the file's torch_dtype: opus-mt-tc-big's float16) unless dtype"""
    kind, part, small = CASES[name]
    cfg_path = _write(tmp_path, name)
    full = transformers.AutoConfig.from_pretrained(str(cfg_path.parent))
    small_cfg = transformers.AutoConfig.from_pretrained(str(cfg_path.parent))
    sub = getattr(small_cfg, part) if part else small_cfg
    for k, v in small.items():
        setattr(sub, k, v)
    torch.manual_seed(0)
    if part is None:
        model = transformers.AutoModel.from_config(sub, dtype=dtype)
    elif name.startswith("kosmos-2.5"):
        from transformers.models.kosmos2_5.modeling_kosmos2_5 import Kosmos2_5TextModel
        model = Kosmos2_5TextModel(sub).to(dtype)
    elif name.startswith("kosmos-2"):
        from transformers.models.kosmos2.modeling_kosmos2 import Kosmos2TextModel
        model = Kosmos2TextModel(sub).to(dtype)
    elif name.startswith("musicgen"):
        from transformers.models.musicgen.modeling_musicgen import MusicgenModel
        model = MusicgenModel(sub).to(dtype)
    else:
        from transformers.models.tipsv2.modeling_tipsv2 import Tipsv2TextModel
        model = Tipsv2TextModel(sub).to(dtype)
    return cfg_path, full, model.eval(), sub


def _modules(model, kind):
    """the position modules, the encoder's first"""
    if kind == "ctrl":
        return [("pos_encoding", model)]
    suffix = "position_embedding" if kind == "tipsv2" else "embed_positions"
    mods = [(n, m) for n, m in model.named_modules() if n.endswith(suffix)]
    return sorted(mods, key=lambda nm: "decoder" in nm[0])


def _rows(kind, mod, name, positions, sub):
    """what mod gives at each token index p, called as its stack calls it
    while decoding (past_key_values_length p, one token) or, for
    Speech2Text, on the whole sequence (its growth check leaves out
    past_key_values_length, L148-150); an exception where the model raises"""
    out = []
    with torch.no_grad():
        if kind == "s2t":
            n = max(positions) + 1
            if "encoder" in name:  # modeling_speech_to_text.py L572-576: 0 at frames
                x = torch.zeros(1, n, dtype=torch.long)
            else:
                x = torch.full((1, n), sub.pad_token_id + 6)
            return mod(x)[0].float().numpy()[list(positions)]
        for p in positions:
            if kind == "table":
                v = mod((1, 1), past_key_values_length=p)
            elif kind == "fairseq":
                v = mod(input_ids=torch.tensor([[sub.pad_token_id + 6]]), past_key_values_length=p)
            elif kind == "xglm":  # modeling_xglm.py L445-462
                v = mod(torch.tensor([[p]]), past_key_values_length=p)
            elif kind == "pegasus_x":
                v = mod(torch.zeros(1, 1, sub.d_model), past_key_values_length=p)
            elif kind == "musicgen":  # input (bsz, num_codebooks, seq_len), L138-148
                v = mod(torch.zeros(1, sub.num_codebooks, 1, dtype=torch.long),
                        past_key_values_length=p)
            elif kind == "ctrl":  # L294, L318
                v = mod.pos_encoding[torch.tensor([[p]]), :]
            else:  # tipsv2: weights[position_ids], L622-623
                v = mod(torch.tensor([[p]]))
            out.append(v.reshape(-1, v.shape[-1])[-1].float().numpy())
    return np.stack(out)


def _forward(model, kind, sub):
    """the vectors the model's forward adds at tokens 0..T-1, per module"""
    seen = {}
    mods = _modules(model, kind)
    if kind == "ctrl":
        with torch.no_grad():
            model(input_ids=torch.arange(10, 10 + T)[None])
        return {"pos_encoding": model.pos_encoding[:T].float().numpy()}
    # a copy, and the hook returns None (a value would replace the output):
    # Kosmos-2.5 then adds its learned segment_emb row into the module's
    # output in place (modeling_kosmos2_5.py L961-973)
    def keep(n, o):
        seen.setdefault(n, o.clone())

    hooks = [m.register_forward_hook(lambda mod, a, o, n=n: keep(n, o)) for n, m in mods]
    ids = torch.arange(10, 10 + T)[None]
    try:
        with torch.no_grad():
            if kind == "s2t":
                feats = torch.randn(1, 4 * T, sub.input_feat_per_channel)
                model(input_features=feats, decoder_input_ids=ids)
            elif kind == "musicgen":
                model(input_ids=ids.repeat(sub.num_codebooks, 1) % sub.vocab_size)
            elif getattr(sub, "is_encoder_decoder", False):
                model(input_ids=ids, decoder_input_ids=ids)
            else:
                model(input_ids=ids)
    finally:
        for h in hooks:
            h.remove()
    return {k: v.detach().float().reshape(-1, v.shape[-1]).numpy() for k, v in seen.items()}


def _python_schemes():
    """posenc.schemes when the package (built by make test-hf) has the config
    reader, else None"""
    try:
        import posenc
        import posenc.schemes
    except ImportError:
        return None
    return posenc.schemes if posenc.have_config_reader() else None


_LINE = re.compile(r"^layers (\d+)-(\d+): (\S+) (.*)$")


def _explain(cfg):
    r = _posenc("--config", cfg, "-c", "EXPLAIN MODEL")
    assert r.returncode == 0, r.stderr
    groups = []
    for line in r.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            words = dict(w.split("=", 1) for w in m.group(4).split() if "=" in w)
            groups.append((int(m.group(1)), int(m.group(2)), m.group(3), words))
    return r.stdout, groups


def _stacks(full, part):
    """[(first layer, last layer, stack)] from transformers' own config"""
    sub = getattr(full, part) if part else full
    if getattr(sub, "encoder_layers", None) and getattr(sub, "decoder_layers", None):
        e, d = sub.encoder_layers, sub.decoder_layers
        return [(0, e - 1, "encoder"), (e, e + d - 1, "decoder")]
    n = next(getattr(sub, k) for k in ("num_layers", "layers", "n_layer", "num_hidden_layers")
             if getattr(sub, k, None))
    return [(0, n - 1, None)]


def _module_rows(kind, mod, sub):
    """(rows, width, offset of token 0) of the module as built"""
    if kind == "table":
        return mod.weight.shape[0], mod.weight.shape[1], 0
    if kind == "ctrl":
        return tuple(mod.pos_encoding.shape) + (0,)
    if kind == "pegasus_x":  # no table: the config's length
        return sub.max_position_embeddings, mod.embed_dim, 0
    if kind == "tipsv2":
        return tuple(mod.weights.shape) + (0,)
    if kind == "musicgen":
        return mod.num_positions, mod.embedding_dim, 0
    if kind == "xglm":
        return mod.num_positions, mod.embedding_dim, mod.offset
    return mod.num_positions, mod.embedding_dim, mod.padding_idx + 1


def _positions(rows, grows):
    """0, 1, 2, 511, 1000 where the table has them, its last row; when the
    module grows, past it too"""
    ps = sorted({p for p in (0, 1, 2, 511, 1000) if p < rows} | {rows - 1})
    if grows:
        ps += [rows, rows + 1, 2 * rows + 3]
    return ps


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_real_config_read_and_golden(name, tmp_path):
    kind, part, _ = CASES[name]
    cfg, full, model, sub = _hf(tmp_path, name)
    text, groups = _explain(cfg)
    stacks = _stacks(full, part)
    mods = _modules(model, kind)
    assert len(mods) == len(stacks), (mods, stacks)
    # 1. each layer group named, with transformers' numbers
    assert [(a, b) for a, b, _, _ in groups] == [(a, b) for a, b, _ in stacks], text
    caught = _forward(model, kind, sub)
    for (first, last, stack), (a, b, scheme, w), (mname, mod) in zip(stacks, groups, mods):
        assert scheme == "sinusoid", text
        if stack:
            assert w.get("stack") == stack and stack in mname, (text, mname)
        rows, width, offset = _module_rows(kind, mod, sub)
        assert int(w["positions"]) == rows and int(w["dim"]) == width, (text, rows, width)
        assert int(w.get("offset", 0)) == offset, (text, offset)
        layout, exponent = WORDS.get(kind, ("half", "k/(dim/2-1)"))
        assert w["layout"] == layout and w["exponent"] == exponent, text
        # 2. golden equals the forward pass's vectors at tokens 0..T-1 ...
        got = caught[mname]
        n = got.shape[0]
        for layer in sorted({first, last}):
            g = _golden(cfg, layer, range(n), tmp_path)
            assert (g["positions"] == np.arange(n)).all()
            _close(g["pe"], got, np.arange(n) + offset)
        # ... and the module at the position lists
        grows = kind in ("fairseq", "s2t", "xglm", "musicgen")
        ps = _positions(rows, grows)
        ref = _rows(kind, mod, mname, ps, sub)
        g = _golden(cfg, first, ps, tmp_path)
        assert g["positions"].tolist() == ps
        _close(g["pe"], ref, np.asarray(ps) + offset)
        schemes = _python_schemes()
        if schemes:  # the Python package's table: golden's numbers, the same refusal
            assert (schemes.sinusoid_table(str(cfg), first, ps) == g["pe"]).all()
            if not grows:
                with pytest.raises(ValueError, match=f"position {rows} is past layer {first}'s"):
                    schemes.sinusoid_table(str(cfg), first, [0, rows])
        if grows:
            continue
        # 3. past the rows: posenc refuses by name; transformers raises where
        # its table ends, while PEGASUS-X's module, which has none, computes
        # any position (posenc's refusal there is only cautious)
        r = _posenc("golden", "--config", cfg, "--layer", first, f"--positions={rows}",
                    "-o", tmp_path / "past.safetensors")
        assert r.returncode != 0
        assert f"position {rows} is past layer {first}'s {rows}-row sinusoid table" in r.stderr
        if kind == "pegasus_x":
            assert np.isfinite(_rows(kind, mod, mname, [rows, 4 * rows], sub)).all()
        else:
            with pytest.raises((IndexError, ValueError, RuntimeError)):
                _rows(kind, mod, mname, [rows], sub)
            if kind == "tipsv2":  # the embeddings refuse a longer sequence (L636-646)
                with pytest.raises(ValueError, match="max_position_embeddings"):
                    model(input_ids=torch.ones(1, rows + 1, dtype=torch.long))


#: checkpoints whose config.json names a torch_dtype other than float32,
#: which transformers 5.23 builds the model in (from_config, and
#: from_pretrained's default dtype "auto")
OWN_DTYPE = {"opus-mt-tc-big-en-fr": torch.float16, "kosmos-2.5": torch.bfloat16}


@pytest.mark.parametrize("name", sorted(OWN_DTYPE))
def test_real_config_in_its_own_dtype(name, tmp_path):
    """The model built in its config's torch_dtype adds posenc's float32
    vectors rounded to that dtype: Marian's create_weight rounds numpy's
    float64 to float32 then to the weight's dtype (modeling_marian.py
    L80-93), fairseq's get_embedding returns float32 cast to the default
    dtype (modeling_kosmos2_5.py L639-657). posenc golden writes float32 (its
    --dtype sets a RoPE dump's x and y only)."""
    kind, part, _ = CASES[name]
    dtype = OWN_DTYPE[name]
    cfg, full, model, sub = _hf(tmp_path, name, dtype=dtype)
    assert (getattr(full, "dtype", None) or full.text_config.dtype) == dtype
    caught = _forward(model, kind, sub)
    for (first, _, _), (mname, mod) in zip(_stacks(full, part), _modules(model, kind)):
        n = caught[mname].shape[0]
        g = _golden(cfg, first, range(n), tmp_path)
        want = torch.from_numpy(g["pe"]).to(dtype).float().numpy()
        # one rounding each from float32 values equal within float rounding:
        # an ulp of the dtype at most (10 or 7 fraction bits)
        tol = np.abs(want) * 2.0 ** -(10 if dtype == torch.float16 else 7) + 2.0 ** -24
        assert (np.abs(caught[mname] - want) <= tol).all(), np.abs(caught[mname] - want).max()


@pytest.mark.parametrize("pad", [0, 2, 5, None])
def test_xglm_pad_token_id_zeroes_a_row(pad, tmp_path):
    """xglm-564M's config with another pad_token_id: XGLM reads rows from 2
    whatever the pad id is, but get_embedding zeroes row pad_token_id
    (modeling_xglm.py L88-89, L96, L381-385), so a pad id of 2 or more gives
    token index pad - 2 a zero vector. posenc refuses that pad id by name;
    0, 1 and null leave every row read as the sinusoid, and posenc reads
    them."""
    d = dict(CONFIGS["xglm-564M"], pad_token_id=pad)
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    small = transformers.XGLMConfig(**dict(d, num_layers=1, ffn_dim=8, vocab_size=64))
    model = transformers.AutoModel.from_config(small, dtype=torch.float32).eval()
    mod = model.embed_positions
    n = 8
    with torch.no_grad():
        ref = mod(torch.arange(n)[None]).reshape(n, -1).numpy()
    zero_rows = [t for t in range(n) if not ref[t].any()]
    if pad is not None and pad >= 2:
        assert zero_rows == [pad - 2]
        r = _posenc("--config", cfg, "-c", "EXPLAIN MODEL")
        assert r.returncode != 0 and f"pad_token_id {pad}: xglm's sinusoid table zeroes row" in r.stderr
        r = _posenc("golden", "--config", cfg, "--layer", 0, "-o", tmp_path / "g.safetensors")
        assert r.returncode != 0 and "pad_token_id" in r.stderr
    else:
        assert zero_rows == []
        g = _golden(cfg, 0, range(n), tmp_path)
        _close(g["pe"], ref, np.arange(n) + 2)


@pytest.mark.parametrize("key,dtype", [("torch_dtype", "bfloat16"), ("dtype", "float16"),
                                       ("torch_dtype", "float32")])
def test_pegasus_x_in_another_dtype(key, dtype, tmp_path):
    """pegasus-x-base's config naming another dtype: transformers builds and
    runs the model in it (from_config here, from_pretrained's default dtype
    "auto"), and PEGASUS-X computes its sinusoid in that dtype, every step
    (modeling_pegasus_x.py L103-121): far from the float32 vectors, not a
    rounding of them. posenc refuses such a config by name and reads a
    float32 one."""
    d = dict(CONFIGS["pegasus-x-base"], **{key: dtype})
    d.pop("torch_dtype" if key == "dtype" else "dtype", None)
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    small = transformers.AutoConfig.from_pretrained(str(tmp_path))
    for k, v in CASES["pegasus-x-base"][2].items():
        setattr(small, k, v)
    model = transformers.AutoModel.from_config(small).eval()
    mod = model.encoder.embed_positions
    ps = [0, 1, 2, 511, 1000]
    with torch.no_grad():
        ref = np.stack([mod(torch.zeros(1, 1, small.d_model, dtype=model.dtype),
                            past_key_values_length=p)[0, 0].float().numpy() for p in ps])
    assert str(model.dtype) == f"torch.{dtype}"
    r = _posenc("--config", cfg, "-c", "EXPLAIN MODEL")
    if dtype == "float32":
        assert r.returncode == 0, r.stderr
        g = _golden(cfg, 0, ps, tmp_path)
        _close(g["pe"], ref, np.asarray(ps))
        return
    assert r.returncode != 0
    assert f"{key} {dtype}: PEGASUS-X computes its sinusoid in the run's dtype" in r.stderr
    # what a float32 golden would have said is off by far more than a rounding
    d32 = dict(d, **{key: "float32"})
    cfg.write_text(json.dumps(d32))
    g = _golden(cfg, 0, ps, tmp_path)
    assert np.abs(g["pe"] - ref).max() > 0.1
