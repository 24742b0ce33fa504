/* config_families_table.h - the registry's entries, included by
 * config_families.c only. An entry writes only what differs from the common
 * case (config_families.h says what a field left out means: partial rotary
 * from partial_rotary_factor, default 1; the base from rope_theta).
 * Sorted by model_type (byte order). Three kinds of row: a wrapper
 * (WRAPPER: the text part is under this key), a refusal (REFUSED: known,
 * not implemented, why), and a full entry; a family's own rule is a hook in
 * config_quirks.c, named by .quirks. Each row's .source cites the code it
 * follows (the listing prints it); an entry's comment adds the finer line
 * references and the reasoning: "models/X" is zucchini-nlp/transformers
 * src/transformers/models/X (@commit where the notes give one; L = lines,
 * else grep anchors in quotes); "rope_utils" is its
 * src/transformers/modeling_rope_utils.py @26892c16. Remote-code families
 * cite their model repository. docs/MODELS.md lists them with the values
 * marked uncertain in the research notes. */

/* Field runs that several entries share because their code is the same
 * (each group's entries cite it). */
/* DeepSeek V3's MLA RoPE: the qk_rope_head_dim part of each head rotates,
 * interleaved unless rope_interleave is false (modeling_deepseek_v3.py
 * @9bd8dd18 apply_rotary_pos_emb_interleave); its copies too. */
#define MLA_ROPE                                                                               \
    .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE,      \
    .flags = POSENC_FAMILY_INTERLEAVE_KEY
/* Gemma 4's text model: one RoPE set per layer type, full layers of head
 * size global_head_dim, every 6th layer full and the last one forced full. */
#define GEMMA4_LAYERS                                                                          \
    .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,                     \
    .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,                         \
    .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 6,                                 \
    .full_head_dim_key = "global_head_dim", .full_head_dim_default = 512,                      \
    .flags = POSENC_FAMILY_LAST_LAYER_FULL
/* EXAONE 4: RoPE on sliding layers only (every layer without a sliding
 * window), every 4th layer full. */
#define EXAONE4_LAYERS                                                                         \
    .scheme = POSENC_SCHEME_MIXED, .layout = HALF, .base_default = 10000.0,                    \
    .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,                           \
    .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 4,                                 \
    .flags = POSENC_FAMILY_ROPE_WITHOUT_WINDOW
/* Qwen2-VL's M-RoPE (sections 16, 24, 24 by default, base 1e6), shared by
 * Qwen2.5-VL and Qwen2.5-Omni's thinker. */
#define QWEN2_VL_MROPE                                                                         \
    .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 1000000.0,                   \
    .mrope_default = {16, 24, 24}, .flags = POSENC_FAMILY_MROPE
/* One RoPE set per layer type from rope_parameters only (Laguna, Mellum and
 * the others below). */
#define TYPE_SETS_ROPE                                                                         \
    .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .layers = POSENC_LAYERS_BY_TYPE,             \
    .full_rope = POSENC_TROPE_SCALED, .sliding_rope = POSENC_TROPE_SCALED,                     \
    .flags = POSENC_FAMILY_TYPE_SETS

/* rope_theta null with no rope_parameters.rope_theta: the config class
 * accepts it and the family's rotary init then computes base ** ... with
 * None (at: its modeling file and line), so the null is refused by name
 * (tests/hf/test_nulls_hf.py). */
#define THETA_NULL_FAILS(at)                                                                   \
    .null_misread = "rope_theta",                                                              \
    .null_misread_source = at " (base ** ...: a rope_theta None, with no "                     \
                              "rope_parameters.rope_theta, fails; transformers 5.23.0)"

/* ---- RefinedWeb / RefinedWebModel: Falcon's first remote-code configs.
 * RWConfig attribute_map num_hidden_layers -> n_layer, num_attention_heads ->
 * n_head; no rope_theta (base 10000); alibi key as Falcon. Read as falcon
 * (rotate_half, HALF). research: rope_families.md "falcon" (RWConfig in a
 * stored TGI copy). */
{.model_type = "RefinedWeb", .arch = "RW", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_ALIBI_KEY,
 .source = "tiiuae/falcon-40b configuration_RW.py (RWConfig); models/falcon/modeling_falcon.py "
           "rotate_half"},
{.model_type = "RefinedWebModel", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_ALIBI_KEY,
 .source = "tiiuae/falcon-7b configuration_RW.py (RWConfig); models/falcon/modeling_falcon.py "
           "rotate_half"},

/* ---- afmoe: q/k norms, then llama's rotate_half (HALF, full head) on sliding
 * (local) layers only; full layers NoPE. layer_types default from
 * global_attn_every_n_layers (4), a key posenc does not read: without
 * layer_types the config is refused. head_dim 128, rope_theta 10000. */
{.model_type = "afmoe", .rotary = WHOLE_HEAD, .arch = "Afmoe", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 32, .default_hidden = 2048,
 .default_heads = 16, .default_head_dim = 128,
 .source = "models/afmoe/modeling_afmoe.py L228-258, L312, L332-333, L355-361 (5.23.0); "
           "configuration_afmoe.py L76-110",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_afmoe.py L76-85 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_afmoe.py L76")},

WRAPPER("aimv2", NULL, LEARNED, "text_config", "aimv2_text_model", "models/aimv2/configuration_aimv2.py L144 (transformers 5.23.0)"),

/* ---- aimv2_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/aimv2/modeling_aimv2.py L206-241;
 * configuration_aimv2.py L90-97 (hidden 768, 12 layers, 6 heads, 77
 * positions). */
{.model_type = "aimv2_text_model", .arch = "Aimv2Text", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 6,
 .default_positions = 77,
 .source = "models/aimv2/modeling_aimv2.py L206-241; "
           "configuration_aimv2.py L90-97 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_aimv2.py L93-97 (transformers 5.23.0)"},

/* ---- albert: BERT's learned table, offset 0, but embedding_size wide
 * (nn.Embedding(max_position_embeddings, embedding_size), default 128),
 * added before the projection to hidden_size. transformers 5.23.0
 * models/albert/modeling_albert.py L49-109 (AlbertEmbeddings);
 * configuration_albert.py L57-67 (embedding_size 128, hidden 4096, 12
 * layers, 64 heads, 512 positions). */
{.model_type = "albert", .arch = "Albert", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 4096, .default_heads = 64, .default_positions = 512,
 .embed_key = "embedding_size", .embed_default = 128,
 .source = "models/albert/modeling_albert.py L49-109; configuration_albert.py L57-67 "
           "(transformers 5.23.0)",
 .nonnull = "embedding_size hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_albert.py L57-67 (transformers 5.23.0)"},

WRAPPER("align", NULL, LEARNED, "text_config", "align_text_model", "models/align/configuration_align.py L192 (transformers 5.23.0)"),

/* ---- align_text_model: BERT's embeddings: a learned table
 * (position_embeddings) read at rows 0.. (the position_ids buffer,
 * arange), no offset (pad_token_id unused for it); no relative position
 * in attention. transformers 5.23.0 models/align/modeling_align.py
 * L506-559; configuration_align.py L46-61 (hidden 768, 12 layers, 12
 * heads, 512 positions). */
{.model_type = "align_text_model", .arch = "AlignText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .default_positions = 512,
 .source = "models/align/modeling_align.py L506-559; "
           "configuration_align.py L46-61 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_align.py L50-57 (transformers 5.23.0)"},

WRAPPER("altclip", NULL, LEARNED, "text_config", "altclip_text_model", "models/altclip/configuration_altclip.py L155 (transformers 5.23.0)"),

/* ---- altclip_text_model: RoBERTa's embeddings: a learned table read from
 * row padding_idx + 1 (create_position_ids_from_input_ids; padding_idx =
 * pad_token_id, default 1); no relative position in attention.
 * transformers 5.23.0 models/altclip/modeling_altclip.py L75-174;
 * configuration_altclip.py L50-63 (hidden 1024, 24 layers, 16 heads, 514
 * positions). */
{.model_type = "altclip_text_model", .arch = "AltCLIPText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 1024, .default_heads = 16,
 .default_positions = 514, .pos_offset = -1,
 .source = "models/altclip/modeling_altclip.py L75-174; "
           "configuration_altclip.py L50-63 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_altclip.py L54-58 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_altclip.py L172 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- apertus: llama's rotate_half (HALF, full head); default_theta 1.2e7
 * and, when the config has no rope block, llama3 scaling (factor 8, original
 * 8192, low 1, high 4; a rope_theta beside no block is unread: refused). */
{.model_type = "apertus", .rotary = WHOLE_HEAD, .arch = "Apertus", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 12000000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .flags = POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/apertus/modeling_apertus.py L126-160, L204 (5.23.0); "
           "configuration_apertus.py L47-95",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_apertus.py L65-71 (transformers 5.23.0)"},

/* ---- arcee: llama's rotate_half (HALF, full head), head_dim null: hidden /
 * heads, rope_theta 10000. */
{.model_type = "arcee", .rotary = WHOLE_HEAD, .arch = "Arcee", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .source = "models/arcee/modeling_arcee.py L131-165, L209 (5.23.0); configuration_arcee.py "
           "L63-85",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_arcee.py L63-69 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_arcee.py L117")},

WRAPPER("aria", "Aria", ROPE, "text_config", "aria_text", "models/aria/configuration_aria.py L118-126 (transformers 5.23.0)"),

/* ---- aria (Aria): a wrapper (text_config aria_text); the text model is
 * llama's rotate_half RoPE (HALF, full head, head_dim null: hidden_size /
 * heads) on every layer, rope_theta the mixin's 10000. transformers 5.23.0
 * models/aria/modeling_aria.py L334-364, L412, L606-618;
 * configuration_aria.py L41-95, L118-126. */
{.model_type = "aria_text", .rotary = WHOLE_HEAD, .arch = "AriaText", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/aria/modeling_aria.py L334-364, L412, L606-618; configuration_aria.py L41-95 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_aria.py L62-69 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_aria.py L611")},
WRAPPER("audioflamingo3", NULL, ROPE, "text_config", "qwen2", "models/audioflamingo3/configuration_audioflamingo3.py L99 (text_config default qwen2; transformers 5.23.0)"),

/* ---- axk1 (A.X K1): DeepSeek V3's MLA: RoPE on the qk_rope_head_dim part
 * (64; head_dim is set to it) of each head, apply_rotary_pos_emb_interleave
 * when rope_interleave (default true), else rotate_half; rope_theta the
 * mixin's 10000; the YaRN mscale (mscale_all_dim) goes into the softmax scale. */
{.model_type = "axk1", .arch = "AXK1", MLA_ROPE, .base_default = 10000.0, .default_layers = 61,
 .default_hidden = 7168, .default_heads = 64, .default_head_dim = 64,
 .source = "models/axk1/modeling_axk1.py L99, L279-360, L366-408, L440-460 (5.23.0); "
           "configuration_axk1.py L54-125",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_axk1.py L82-102 (transformers 5.23.0)",
 .null_misread = "rope_interleave rope_theta",
 .null_misread_source = "modeling_axk1.py L453 (if self.config.rope_interleave: a None rotates "
                        "halves, not pairs; transformers 5.23.0); modeling_axk1.py L104 (base "
                        "** ...: a rope_theta None, with no rope_parameters.rope_theta, fails; "
                        "transformers 5.23.0)"},

/* ---- axk2 (A.X K2): DeepSeek V3.2's arrangement (AXK2Config derives from
 * DeepseekV32Config): MLA's RoPE interleaved on the qk_rope_head_dim part
 * (default 32; head_dim is set to it), and in every layer a Sparse Attention
 * indexer rotating the first qk_rope_head_dim of its index_head_dim (128)
 * heads half-split with the same cos and sin. transformers 5.23.0
 * models/axk2/modeling_axk2.py L103-158 (rotary, apply_rotary_pos_emb),
 * L183-256 (the indexer), L463-603 (MLA, interleaved), L552;
 * configuration_axk2.py L93-138. */
{.model_type = "axk2", .arch = "AXK2", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000.0, .default_layers = 48,
 .default_hidden = 2048, .default_heads = 32, .default_head_dim = 32,
 .indexer_head_dim_default = 128, .indexer_layout = HALF, .flags = POSENC_FAMILY_INDEXER,
 .source = "models/axk2/modeling_axk2.py L103-158, L183-256, L463-603, L552 (5.23.0); "
           "configuration_axk2.py L93-138",
 .nonnull = "head_dim hidden_size index_head_dim max_position_embeddings "
            "num_attention_heads num_hidden_layers qk_rope_head_dim",
 .nonnull_source = "configuration_axk2.py L93-130 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_axk2.py L136")},

WRAPPER("aya_vision", NULL, MIXED, "text_config", "cohere2", "models/aya_vision/configuration_aya_vision.py L49 (text_config default cohere2; transformers 5.23.0)"),

/* ---- baichuan: one model_type, two schemes. ALiBi for 13B
 * (_get_interleave: the ALiBi paper's slopes), RoPE (rotate_half, base 10000,
 * full head) for the 7B models; chosen as vLLM does: hidden_size 4096 or
 * class BaiChuanForCausalLM -> RoPE, else ALiBi (uncertain rule, see
 * docs/MODELS.md). jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e. */
{.model_type = "baichuan", .arch = "Baichuan", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .quirks = &quirk_baichuan,
 .source = "jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e (_get_interleave); "
           "vllm baichuan.py dispatch"},

/* ---- bailing_hybrid: KDA (linear attention) layers and MLA layers (every
 * layer_group_size = 6th layer) whose qk_rope_head_dim part rotates in
 * DeepSeek's interleaved pairs (apply_rotary_pos_emb_interleave: x[0::2],
 * x[1::2]); rope_theta 6e6. */
{.model_type = "bailing_hybrid", .arch = "BailingHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 6000000.0,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .period_key = "layer_group_size",
 .kinds_period = 6, .kinds_offset = KINDS_LAST,
 .source = "models/bailing_hybrid/configuration_bailing_hybrid.py L103, L126-130, L143-159; "
           "modeling_bailing_hybrid.py L253-289, L372-373, L837-841 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size num_attention_heads num_hidden_layers qk_rope_head_dim "
            "rope_theta",
 .nonnull_source = "configuration_bailing_hybrid.py L92-128 (transformers 5.23.0)"},

/* ---- bamba: Mamba 2 layers and attention layers; attention layers
 * (attn_layer_indices; absent: none) rotate_half RoPE over
 * int(head_dim * 0.5) (partial_rotary_factor hard-coded 0.5), mamba layers
 * none. transformers 5.23.0 models/bamba/configuration_bamba.py L66
 * (attn_layer_indices), L92 (partial 0.5), L96-101 (layers_block_type:
 * "full_attention" if i in attn_layer_indices else "linear_attention");
 * modeling_bamba.py L80-81 (rotary dim), L99-103, L144 (rotate_half),
 * L224 (RoPE in BambaAttention), L851-853 (mamba or attention); rope_theta
 * default 10000 (modeling_rope_utils.py L760 default_theta). */
{.model_type = "bamba", .arch = "Bamba", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .partial_default = 0.5, .layers = POSENC_LAYERS_KINDS,
 .index_key = "attn_layer_indices", .kinds = KINDS_MAMBA, .quirks = &quirk_bamba,
 .source = "models/bamba/configuration_bamba.py L66, L92, L96-101; modeling_bamba.py L80-81, "
           "L144, L224, L851-853 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_bamba.py L51-64 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_bamba.py L85")},

/* ---- bart: learned absolute in both stacks, offset 2.
 * models/bart/modeling_bart.py @41d3f466 L65-89 (BartLearnedPositionalEmbedding,
 * offset = 2, rows max_position_embeddings + 2), L512-536 encoder, L657-679
 * decoder. */
{.model_type = "bart", .arch = "Bart", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC, .pos_offset = 2,
 .source = "models/bart/modeling_bart.py @41d3f466 L65-89, L512-536, L657-679",
 .nonnull = "max_position_embeddings",
 .nonnull_source = "configuration_bart.py L50 (transformers 5.23.0)"},

/* ---- beam: BY_TYPE, rotate_half RoPE on sliding_attention layers from
 * rope_parameters.sliding_attention (class default: default rope, theta
 * 10000), no RoPE on full_attention layers (rope_parameters.full_attention
 * null), whose queries are scaled by exp(0.1 * log1p((pos + 1) / 2048)) =
 * (1 + (pos + 1) / 2048)^0.1 (scalable softmax; constants in the code).
 * Without layer_types every sixth layer and the last are full. 52 layers,
 * hidden 5120, 48 heads, head_dim 128; quirk (its rules and citations).
 * transformers 5.23.0 models/beam/modeling_beam.py L67-127, L202-256,
 * L492-495, L559-578; configuration_beam.py L76-134. */
{.model_type = "beam", .rotary = WHOLE_HEAD, .arch = "Beam", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 6, .qscale = POSENC_QUERY_SCALE_POWER,
 .default_rope_parameters = "{\"sliding_attention\": {\"rope_type\": \"default\", "
                            "\"rope_theta\": 10000.0}, \"full_attention\": null}",
 .default_layers = 52, .default_hidden = 5120, .default_heads = 48, .default_head_dim = 128,
 .quirks = &quirk_beam,
 .source = "models/beam/modeling_beam.py L67-127, L202-256, L492-495, L559-578; "
           "configuration_beam.py L76-134 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_beam.py L78-101 (transformers 5.23.0)"},

/* ---- bert: learned absolute, offset 0; transformers v5 removed
 * position_embedding_type relative_key(_query) (PR #41170).
 * models/bert/configuration_bert.py @3f832360 L87-109 (defaults);
 * huggingface/transformers bert/modeling_bert.py @8ec58104 L159-220. */
{.model_type = "bert", .arch = "Bert", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/bert/configuration_bert.py @3f832360 L87-109; bert/modeling_bert.py "
           "@8ec58104 L159-220",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_bert.py L45-52 (transformers 5.23.0)"},

/* ---- bert-generation: BERT's learned table, offset 0 (position_ids
 * 0.. plus the cache length), no token types. transformers 5.23.0
 * models/bert_generation/modeling_bert_generation.py L394-428
 * (BertGenerationEmbeddings: L400 table, L416 positions, L420-422 added);
 * configuration_bert_generation.py L44-54 (hidden 1024, 24 layers, 16
 * heads, 512 positions). */
{.model_type = "bert-generation", .arch = "BertGeneration", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 1024, .default_heads = 16, .default_positions = 512,
 .source = "models/bert_generation/modeling_bert_generation.py L394-428; "
           "configuration_bert_generation.py L44-54 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_bert_generation.py L44-51 (transformers 5.23.0)"},

/* ---- big_bird: BERT's learned table, offset 0; the block-sparse
 * attention is a mask over key blocks (random, window and global blocks)
 * and carries no position itself (the padding it adds to a block multiple
 * reads pad_token_id rows for the pad tokens only). transformers 5.23.0
 * models/big_bird/modeling_big_bird.py L70-131 (BigBirdEmbeddings: L77
 * table, L101 positions, L124-125 added), L1743; configuration_big_bird.py
 * L57-69 (hidden 768, 12 layers, 12 heads, 4096 positions). */
{.model_type = "big_bird", .arch = "BigBird", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 4096,
 .source = "models/big_bird/modeling_big_bird.py L70-131, L1743; configuration_big_bird.py "
           "L57-69 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_big_bird.py L57-64 (transformers 5.23.0)"},

/* ---- bigbird_pegasus: learned tables in both stacks without BART's offset
 * (BigBirdPegasusLearnedPositionalEmbedding: max_position_embeddings rows,
 * positions 0..); the block-sparse encoder attention carries no position. */
{.model_type = "bigbird_pegasus", .arch = "BigBirdPegasus", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/bigbird_pegasus/modeling_bigbird_pegasus.py L76-97, L1496, L1711; "
           "configuration_bigbird_pegasus.py L62-74 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_bigbird_pegasus.py L62-74 (transformers 5.23.0)"},

/* ---- biogpt: a learned table of max_position_embeddings + 2 rows read at
 * position + 2 (BioGptLearnedPositionalEmbedding, offset 2, as OPT's);
 * position_ids 0.. plus the cache length. transformers 5.23.0
 * models/biogpt/modeling_biogpt.py L51-76, L334, L383-388;
 * configuration_biogpt.py L44-51 (hidden 1024, 24 layers, 16 heads, 1024
 * positions). */
{.model_type = "biogpt", .arch = "BioGpt", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 24,
 .default_hidden = 1024, .default_heads = 16, .default_positions = 1024, .pos_offset = 2,
 .source = "models/biogpt/modeling_biogpt.py L51-76, L334, L383-388; configuration_biogpt.py "
           "L44-51 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_biogpt.py L44-51 (transformers 5.23.0)"},

/* ---- bitnet: llama's rotate_half (HALF, full head), default_theta 500000. */
{.model_type = "bitnet", .rotary = WHOLE_HEAD, .arch = "BitNet", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 30, .default_hidden = 2560, .default_heads = 20,
 .source = "models/bitnet/modeling_bitnet.py L80-115, L158 (5.23.0); configuration_bitnet.py "
           "L42-48",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_bitnet.py L45-51 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_bitnet.py L296")},

/* ---- blenderbot: BART's layout with a learned table from row 0 (no offset)
 * in the encoder and the decoder. */
{.model_type = "blenderbot", .arch = "Blenderbot", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/blenderbot/modeling_blenderbot.py L65-86, L454-482, L542-615; "
           "configuration_blenderbot.py L47-71 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_blenderbot.py L53-65 (transformers 5.23.0)"},

/* ---- blenderbot-small: learned tables in both stacks without BART's offset
 * (BlenderbotSmallLearnedPositionalEmbedding: max_position_embeddings rows,
 * positions 0..). */
{.model_type = "blenderbot-small", .arch = "BlenderbotSmall", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/blenderbot_small/modeling_blenderbot_small.py L66-86, L423, L508; "
           "configuration_blenderbot_small.py L50-62 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_blenderbot_small.py L50-62 (transformers 5.23.0)"},

WRAPPER("blip", NULL, LEARNED, "text_config", "blip_text_model", "models/blip/configuration_blip.py L146 (transformers 5.23.0)"),
WRAPPER("blip-2", NULL, LEARNED, "text_config", "opt", "models/blip_2/configuration_blip_2.py L149 (text_config default opt; transformers 5.23.0)"),

/* ---- blip_text_model: BERT's embeddings: a learned table
 * (position_embeddings) read at rows 0.. (the position_ids buffer,
 * arange), no offset (pad_token_id unused for it); no relative position
 * in attention. * The decoder (BlipTextLMHeadModel) starts its rows at
 * the cached * length, the same positions. transformers 5.23.0
 * models/blip/modeling_blip_text.py L46-92; configuration_blip.py L49-67
 * (hidden 768, 12 layers, 8 heads, 512 positions). */
{.model_type = "blip_text_model", .arch = "BlipText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 8,
 .default_positions = 512,
 .source = "models/blip/modeling_blip_text.py L46-92; "
           "configuration_blip.py L49-67 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_blip.py L53-59 (transformers 5.23.0)"},

/* ---- bloom: ALiBi on every layer, BLOOM's slopes (= the paper's).
 * models/bloom/modeling_bloom.py @e2412028 L54-95 (build_alibi_tensor),
 * L277-282; configuration_bloom.py @3f832360 L88-116 (n_layer 2, n_head 8). */
{.model_type = "bloom", .arch = "Bloom", .scheme = POSENC_SCHEME_ALIBI, .default_layers = 2,
 .default_hidden = 64, .default_heads = 8,
 .source = "models/bloom/modeling_bloom.py @e2412028 L54-95, L277-282",
 .nonnull = "hidden_size n_head n_layer",
 .nonnull_source = "configuration_bloom.py L59-61 (transformers 5.23.0)"},

WRAPPER("bridgetower", NULL, LEARNED, "text_config", "bridgetower_text_model", "models/bridgetower/configuration_bridgetower.py L132 (transformers 5.23.0)"),

/* ---- bridgetower_text_model: RoBERTa's embeddings: a learned table read
 * from row padding_idx + 1 (create_position_ids_from_input_ids;
 * padding_idx = pad_token_id, default 1); no relative position in
 * attention. transformers 5.23.0
 * models/bridgetower/modeling_bridgetower.py L770-869;
 * configuration_bridgetower.py L79-94 (hidden 768, 12 layers, 12 heads,
 * 514 positions). */
{.model_type = "bridgetower_text_model", .arch = "BridgeTowerText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .default_positions = 514, .pos_offset = -1,
 .source = "models/bridgetower/modeling_bridgetower.py L770-869; "
           "configuration_bridgetower.py L79-94 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_bridgetower.py L83-91 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_bridgetower.py L867 (input_ids.ne(padding_idx) fails on a "
                        "None; transformers 5.23.0)"},

/* ---- camembert: RoBERTa's embeddings (positions from padding_idx + 1,
 * padding_idx = pad_token_id, default 1). transformers 5.23.0
 * models/camembert/modeling_camembert.py L56-157 (CamembertEmbeddings,
 * create_position_ids_from_input_ids); configuration_camembert.py L45-56. */
{.model_type = "camembert", .arch = "Camembert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/camembert/modeling_camembert.py L56-157; configuration_camembert.py L45-56 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_camembert.py L45-52 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_camembert.py L153 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- chameleon: llama's rotate_half (HALF) over the whole head (hidden_size
 * / heads), after the per-head q/k LayerNorm; every layer alike; the VQ image
 * tokens take the same plain 1-D positions. */
{.model_type = "chameleon", .rotary = WHOLE_HEAD, .arch = "Chameleon", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/chameleon/modeling_chameleon.py L110-166, L261-310 (5.23.0); "
           "configuration_chameleon.py L97-111",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_chameleon.py L97-103 (transformers 5.23.0)"},

/* ---- chatglm (ChatGLM2/3, GLM-4-9B remote code): head_dim = kv_channels,
 * RotaryEmbedding(rotary_dim // 2): the first half of each head rotates, in
 * interleaved pairs (x.reshape(..., rot_dim // 2, 2)), base 10000 *
 * rope_ratio (ChatGLM3-32k / GLM-4 code; ChatGLM2-32k divides positions
 * instead, see docs/MODELS.md). czk1997/chatglm3-copy modeling_chatglm.py
 * @00f2a120 L122-159 (RotaryEmbedding), L161-179 (apply_rotary_pos_emb). */
{.model_type = "chatglm", .arch = "ChatGLM", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_HALF_HEAD, .base_key = FIXED_BASE, .base_default = 10000.0,
 .head_dim_key = "kv_channels", .quirks = &quirk_chatglm,
 .source = "czk1997/chatglm3-copy modeling_chatglm.py @00f2a120 L122-179"},

WRAPPER("chinese_clip", NULL, LEARNED, "text_config", "chinese_clip_text_model", "models/chinese_clip/configuration_chinese_clip.py L154 (transformers 5.23.0)"),

/* ---- chinese_clip_text_model: BERT's embeddings: a learned table
 * (position_embeddings) read at rows 0.. (the position_ids buffer,
 * arange), no offset (pad_token_id unused for it); no relative position
 * in attention. transformers 5.23.0
 * models/chinese_clip/modeling_chinese_clip.py L76-129;
 * configuration_chinese_clip.py L51-64 (hidden 768, 12 layers, 12 heads,
 * 512 positions). */
{.model_type = "chinese_clip_text_model", .arch = "ChineseCLIPText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .default_positions = 512,
 .source = "models/chinese_clip/modeling_chinese_clip.py L76-129; "
           "configuration_chinese_clip.py L51-64 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_chinese_clip.py L55-59 (transformers 5.23.0)"},

WRAPPER("clap", NULL, LEARNED, "text_config", "clap_text_model", "models/clap/configuration_clap.py L173 (transformers 5.23.0)"),

/* ---- clap_text_model: RoBERTa's embeddings: a learned table read from row
 * padding_idx + 1 (create_position_ids_from_input_ids; padding_idx =
 * pad_token_id, default 1); no relative position in attention.
 * transformers 5.23.0 models/clap/modeling_clap.py L924-1026;
 * configuration_clap.py L44-60 (hidden 768, 12 layers, 12 heads, 514
 * positions). */
{.model_type = "clap_text_model", .arch = "ClapText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .default_positions = 514, .pos_offset = -1,
 .source = "models/clap/modeling_clap.py L924-1026; "
           "configuration_clap.py L44-60 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_clap.py L48-55 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_clap.py L1021 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},
WRAPPER("clip", NULL, LEARNED, "text_config", "clip_text_model", "models/clip/configuration_clip.py L158 (text_config default clip_text_model; transformers 5.23.0)"),

/* ---- clip_text_model: a learned table (position_embedding) read at
 * positions 0.. (no offset; pad_token_id unused for it); the encoder's
 * attention carries no position. transformers 5.23.0
 * models/clip/modeling_clip.py L221-256 (CLIPTextEmbeddings);
 * configuration_clip.py L48-53 (hidden 512, 12 layers, 8 heads, 77
 * positions). */
{.model_type = "clip_text_model", .arch = "CLIPText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8, .default_positions = 77,
 .source = "models/clip/modeling_clip.py L221-256; configuration_clip.py L48-53 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_clip.py L48-53 (transformers 5.23.0)"},

WRAPPER("clipseg", NULL, LEARNED, "text_config", "clipseg_text_model", "models/clipseg/configuration_clipseg.py L163 (transformers 5.23.0)"),

/* ---- clipseg_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/clipseg/modeling_clipseg.py L209-244;
 * configuration_clipseg.py L48-65 (hidden 512, 12 layers, 8 heads, 77
 * positions). */
{.model_type = "clipseg_text_model", .arch = "CLIPSegText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8,
 .default_positions = 77,
 .source = "models/clipseg/modeling_clipseg.py L209-244; "
           "configuration_clipseg.py L48-65 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_clipseg.py L52-56 (transformers 5.23.0)"},

/* ---- codegen: GPT-J's rotary: create_sinusoidal_positions with base 10000
 * fixed, rotate_every_two (interleaved) on the first rotary_dim elements of
 * each head (class default 64). rotary_dim null is not buildable by
 * transformers (CodeGenModel's min(config.rotary_dim, ...)). */
{.model_type = "codegen", .arch = "CodeGen", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_DIM_KEY, .base_key = FIXED_BASE, .base_default = 10000.0,
 .source = "models/codegen/modeling_codegen.py L39-58, L88-91, L150-185, L286 (5.23.0); "
           "configuration_codegen.py L50-63",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_codegen.py L58-62 (transformers 5.23.0)"},

/* ---- cohere: repeat_interleave(freqs, 2) and a rotate_half on x[..., ::2],
 * x[..., 1::2]: interleaved, full head, every layer. stored modular_cohere2
 * (id 2603556805) CohereRotaryEmbedding. */
{.model_type = "cohere", .rotary = WHOLE_HEAD, .arch = "Cohere", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .source = "models/cohere/modeling_cohere.py (CohereRotaryEmbedding repeat_interleave, "
           "rotate_half)",
 /* models/cohere/modeling_cohere.py L107 (5.23.0): repeat_interleave(freqs, 2) */
 .hf_module = "interleave",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_cohere.py L68-75 (transformers 5.23.0)"},

/* ---- cohere2: interleaved RoPE on sliding layers only, full layers NoPE.
 * models/cohere2/modular_cohere2.py (Cohere2Attention: sliding_window only
 * for sliding_attention, RoPE when sliding_window is not None). */
{.model_type = "cohere2", .rotary = WHOLE_HEAD, .arch = "Cohere2", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED,
 .source = "models/cohere2/modular_cohere2.py (Cohere2Attention)",
 /* models/cohere2/modeling_cohere2.py L81 (5.23.0): repeat_interleave(freqs, 2) */
 .hf_module = "interleave",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_cohere2.py L67-74 (transformers 5.23.0)",
 .null_misread = "sliding_window",
 .null_misread_source = "modeling_cohere2.py L190, L221 (RoPE only where self.sliding_window is "
                        "not None: a None turns every layer's off; transformers 5.23.0)"},

/* ---- cohere2_moe: Cohere's interleaved RoPE (rotate_half on x[..., ::2],
 * x[..., 1::2], in float32) on sliding layers, and on full layers only where
 * force_rope: the layer's mlp_layer_types entry is "dense" and
 * prefix_dense_sliding_window_pattern is 1; other full layers NoPE.
 * layer_types default: sliding_window_pattern 4 ((i + 1) % 4: sliding).
 * head_dim 128, rope_theta 10000. transformers 5.23.0
 * models/cohere2_moe/modeling_cohere2_moe.py L236-269 (rotate_half,
 * apply_rotary_pos_emb), L279-300 (sliding_window, force_rope), L318-319;
 * configuration_cohere2_moe.py L97-130, L133-160. */
{.model_type = "cohere2_moe", .rotary = WHOLE_HEAD, .arch = "Cohere2Moe", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_NONE, .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 4,
 .default_layers = 40, .default_hidden = 8192, .default_heads = 64, .default_head_dim = 128,
 .quirks = &quirk_cohere2_moe,
 .source = "models/cohere2_moe/modeling_cohere2_moe.py L236-269, L279-300, L318-319 (5.23.0); "
           "configuration_cohere2_moe.py L97-160",
 /* models/cohere2_moe/modeling_cohere2_moe.py L443 (5.23.0): repeat_interleave(freqs, 2) */
 .hf_module = "interleave",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers rope_theta sliding_window_pattern",
 .nonnull_source = "configuration_cohere2_moe.py L97-130 (transformers 5.23.0)"},
WRAPPER("cohere2_vision", NULL, MIXED, "text_config", "cohere2", "models/cohere2_vision/configuration_cohere2_vision.py L46 (text_config default cohere2; transformers 5.23.0)"),

/* ---- convbert: ELECTRA's embeddings: a learned table of
 * max_position_embeddings rows, embedding_size wide (default 768, the
 * hidden size; embeddings_project maps it when they differ), read at
 * positions 0..seq_len-1; the span-based convolution heads mix neighbours
 * by a learned kernel over the sequence, not by position.
 * transformers 5.23.0 models/convbert/modeling_convbert.py L52-105
 * (ConvBertEmbeddings: L58 table, L82 positions, L97-100 added);
 * configuration_convbert.py L49-63. */
{.model_type = "convbert", .arch = "ConvBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .embed_key = "embedding_size", .embed_default = 768,
 .source = "models/convbert/modeling_convbert.py L52-105; configuration_convbert.py L49-63 "
           "(transformers 5.23.0)",
 .nonnull = "embedding_size hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_convbert.py L49-63 (transformers 5.23.0)"},

WRAPPER("cosmos3_edge", "Cosmos3Edge", ROPE, "text_config", "cosmos3_edge_text", "models/cosmos3_edge/configuration_cosmos3_edge.py L157-176 (transformers 5.23.0)"),

/* ---- cosmos3_edge (Cosmos3 Edge): a wrapper (text_config
 * cosmos3_edge_text); the text model is Qwen3-VL's interleaved M-RoPE: the
 * t frequencies overwritten by h at pairs 1::3 below 3 * s_h and by w at
 * 2::3 below 3 * s_w, mrope_section default [24, 20, 20] (must sum to
 * head_dim / 2), cat((freq, freq)) and rotate_half over the whole head
 * (head_dim 128); default_theta 1e8; rope_type must be default.
 * transformers 5.23.0 models/cosmos3_edge/modeling_cosmos3_edge.py L50-113,
 * L115-145, L228; configuration_cosmos3_edge.py L43-118, L157-176. */
{.model_type = "cosmos3_edge_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 100000000.0, .default_layers = 28, .default_hidden = 2048, .default_heads = 16,
 .default_head_dim = 128, .mrope_default = {24, 20, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/cosmos3_edge/modeling_cosmos3_edge.py L50-113, L115-145, L228; "
           "configuration_cosmos3_edge.py L43-118 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_cosmos3_edge.py L60-79 (transformers 5.23.0)"},

WRAPPER("cosmos3_omni", "Cosmos3Omni", ROPE, "text_config", "qwen3_vl_text", "models/cosmos3_omni/configuration_cosmos3_omni.py L47-51 (transformers 5.23.0)"),

/* ---- cpmant (CPM-Ant): CpmAntSegmentPositionEmbedding adds one bias to
 * every layer's scores (no rotary, no table): between tokens of one segment
 * T5's bidirectional bucket of key - query (num_buckets halved, log
 * buckets up to position_bias_max_distance), between different segments
 * one learned bias per (query segment, key segment) pair, row
 * num_buckets + q_seg * segment_types + k_seg; the prompt tokens are
 * segment 0, the text's 2 (quirk_cpmant, config_buckets.c).
 * transformers 5.23.0 models/cpmant/modeling_cpmant.py L129, L413-502,
 * L544, L600-648; configuration_cpmant.py L56-70 (48 layers, 512 buckets,
 * max distance 2048, 32 segment types, prompt_length 32). */
{.model_type = "cpmant", .arch = "CpmAnt", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers_key = "num_hidden_layers",
 .default_layers = 48, .quirks = &quirk_cpmant,
 .source = "models/cpmant/modeling_cpmant.py L129, L413-502, L544, L600-648; "
           "configuration_cpmant.py L56-70 (transformers 5.23.0)",
 .nonnull = "num_hidden_layers position_bias_num_buckets position_bias_max_distance "
            "prompt_length segment_types hidden_size num_attention_heads",
 .nonnull_source = "configuration_cpmant.py L56-68 (transformers 5.23.0)"},

/* ---- csm (Sesame CSM): its backbone (CsmBackboneModel, the config's own
 * keys) is llama's: rotate_half (HALF) over the whole head (head_dim, else
 * hidden_size / heads; no partial factor read), rope_theta default 500000,
 * every layer; the depth decoder is a config of its own
 * (depth_decoder_config, model_type csm_depth_decoder_model, below).
 * models/csm/modeling_csm.py L119-153, L176-222, L252-295, L652-716;
 * configuration_csm.py L122-175 (transformers 5.23.0). */
{.model_type = "csm", .rotary = WHOLE_HEAD, .arch = "Csm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 16, .default_hidden = 2048, .default_heads = 32,
 .source = "models/csm/modeling_csm.py L119-153, L176-222, L252-295, L652-716; "
           "configuration_csm.py L122-175 (transformers 5.23.0)",
 .nonnull = "num_hidden_layers",
 .nonnull_source = "configuration_csm.py L139 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_csm.py L152")},
/* ---- csm_depth_decoder_model: CSM's depth decoder, the same attention and
 * rotary code (its positions are the codebook indices 0..num_codebooks-1);
 * rope_theta default 500000. models/csm/modeling_csm.py L400-483;
 * configuration_csm.py L47-85 (transformers 5.23.0). */
{.model_type = "csm_depth_decoder_model", .rotary = WHOLE_HEAD, .arch = "CsmDepthDecoder",
 .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 500000.0, .default_layers = 4,
 .default_hidden = 1024, .default_heads = 8,
 .source = "models/csm/modeling_csm.py L119-153, L400-483; configuration_csm.py L47-85 "
           "(transformers 5.23.0)",
 .nonnull = "num_hidden_layers",
 .nonnull_source = "configuration_csm.py L60 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_csm.py L152")},

/* ---- ctrl: a fixed sinusoid pos_encoding of n_positions rows in float32
 * (positional_encoding: angles pos / 10000^(2 (i // 2) / d) with
 * torch.float steps, sin of the even ones in the first half, cos of the
 * odd ones in the second), read at rows past_length.. (L294) and added to
 * the scaled token embeddings. transformers 5.23.0
 * models/ctrl/modeling_ctrl.py L45-62, L229, L294, L318;
 * configuration_ctrl.py L47-57 (48 layers, n_embd 1280, n_positions 256). */
{.model_type = "ctrl", .arch = "CTRL", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_CTRL, .default_layers = 48, .default_hidden = 1280,
 .default_positions = 256,
 .source = "models/ctrl/modeling_ctrl.py L45-62, L229, L294, L318; configuration_ctrl.py "
           "L47-57 (transformers 5.23.0)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_ctrl.py L54-58 (transformers 5.23.0)"},

/* ---- cwm: llama's rotate_half (HALF, full head) on every layer, one rotary
 * for full and sliding layers (layer_types choose the mask only); head_dim
 * 128, default_theta 1e6 with llama3 scaling (factor 16, original 8192) when
 * the config has no rope block (a config without one is refused: its
 * rope_theta would be unread). */
{.model_type = "cwm", .rotary = WHOLE_HEAD, .arch = "Cwm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 64, .default_hidden = 6144, .default_heads = 48,
 .default_head_dim = 128, .flags = POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/cwm/modeling_cwm.py L91-121, L167-179, L197, L339 (5.23.0); "
           "configuration_cwm.py L64-110",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_cwm.py L64-84 (transformers 5.23.0)"},

/* ---- data2vec-text: RoBERTa's embeddings (padding_idx + 1). transformers
 * 5.23.0 models/data2vec/modeling_data2vec_text.py L55-156
 * (Data2VecTextEmbeddings); configuration_data2vec_text.py L44-55. */
{.model_type = "data2vec-text", .arch = "Data2VecText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/data2vec/modeling_data2vec_text.py L55-156; configuration_data2vec_text.py "
           "L44-55 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_data2vec_text.py L44-51 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_data2vec_text.py L152 (input_ids.ne(padding_idx) fails on a "
                        "None; transformers 5.23.0)"},

/* ---- dbrx: refused. DBRX's checkpoints give the base as
 * attn_config.rope_theta (500000); transformers 5.23.0 builds
 * DbrxRotaryEmbedding from rope_parameters (default 10000) and leaves
 * attn_config.rope_theta unread, so HF's code and the checkpoints disagree
 * and posenc reads no nested attn_config key (DbrxAttentionConfig has no
 * rope_theta field, so the class defaults do not even build: the attention
 * reads attn_config.rope_theta, L184). Layout: llama's rotate_half.
 * transformers 5.23.0 models/dbrx/modeling_dbrx.py L44-75, L91-121, L184,
 * L221; configuration_dbrx.py L113-150. */
REFUSED("dbrx", "Dbrx", ROPE, HALF,
        "its base is attn_config.rope_theta (500000 in DBRX's checkpoints), which "
        "transformers 5.23's DbrxRotaryEmbedding does not read (it takes rope_parameters, "
        "default 10000); posenc reads no nested attn_config key",
        "models/dbrx/modeling_dbrx.py L44-75, L91-121, L184, L221 (5.23.0); "
        "configuration_dbrx.py L113-150"),

/* ---- deberta: a learned table at rows 0.. (position_biased_input) and,
 * with relative_attention, DisentangledSelfAttention's content-to-position
 * and position-to-content terms over the relative ids query - key
 * (build_relative_position); quirk. transformers 5.23.0
 * models/deberta/modeling_deberta.py L72-99, L138-335, L342-391, L519-541;
 * configuration_deberta.py L62-79. */
{.model_type = "deberta", .arch = "Deberta", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers_key = "num_hidden_layers",
 .default_layers = 12, .quirks = &quirk_deberta,
 .source = "models/deberta/modeling_deberta.py L72-99, L138-335, L342-391, L519-541 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings relative_attention "
            "max_relative_positions position_biased_input num_attention_heads",
 .nonnull_source = "configuration_deberta.py L62-78 (transformers 5.23.0)"},

/* ---- deberta-v2 (and v3): DeBERTa's disentangled attention over relative
 * ids log-bucketed by position_buckets (make_log_bucket_position) up to
 * max_relative_positions; the learned table when position_biased_input
 * (v3's configs: false); quirk. transformers 5.23.0
 * models/deberta_v2/modeling_deberta_v2.py L71-128, L131-342, L500-521,
 * L560-600; configuration_deberta_v2.py L62-79. */
{.model_type = "deberta-v2", .arch = "DebertaV2", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers_key = "num_hidden_layers",
 .default_layers = 24, .quirks = &quirk_deberta_v2,
 .source = "models/deberta_v2/modeling_deberta_v2.py L71-128, L131-342, L500-521, L560-600 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings relative_attention "
            "max_relative_positions position_biased_input num_attention_heads",
 .nonnull_source = "configuration_deberta_v2.py L62-78 (transformers 5.23.0)"},

/* ---- deepseek (DeepSeek LLM / DeepSeek-MoE V1 remote code, DeepseekConfig):
 * llama's attention: head_dim = hidden_size / heads, DeepseekRotaryEmbedding
 * over the whole head with base rope_theta, rotate_half (HALF). _init_rope
 * reads rope_scaling["type"] and knows only "linear" (positions / factor) and
 * "dynamic" (past max_position_embeddings, base * (factor * L / max_pos -
 * (factor - 1))^(d / (d - 2))), both the formulas transformers has; any other
 * type raises there and is refused here. No rope_theta default is taken (the
 * configuration file was not read): a config without it is refused.
 * zhexiangzhang/ServerlessMOE modeling_deepseek.py @6e1b013e L123-159
 * (DeepseekRotaryEmbedding), L161-179 (linear), L181-206 (dynamic), L208-232
 * (rotate_half, apply_rotary_pos_emb), L445-449 (head_dim, rope_theta),
 * L464-489 (_init_rope). */
{.model_type = "deepseek", .arch = "Deepseek", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .scaling_types = "linear dynamic",
 .source = "deepseek-moe modeling_deepseek.py (copy zhexiangzhang/ServerlessMOE @6e1b013e "
           "L123-232, L445-449, L464-489)"},
WRAPPER("deepseek_ocr2", NULL, ROPE, "text_config", "deepseek_ocr2_text", "models/deepseek_ocr2/configuration_deepseek_ocr2.py L273 (text_config default deepseek_ocr2_text; transformers 5.23.0)"),

/* ---- deepseek_ocr2_text (DeepSeek-OCR 2's language model): DeepSeek V2's
 * MoE with Llama's attention in place of MLA: rotate_half (HALF) over the
 * whole head, head_dim = hidden_size / heads (its __post_init__), every layer
 * alike. transformers 5.23.0 models/deepseek_ocr2/modeling_deepseek_ocr2.py
 * L713-750, L996-1080, L1318; configuration_deepseek_ocr2.py L170-244
 * (modular_deepseek_ocr2.py L557-605, L887-921). */
{.model_type = "deepseek_ocr2_text", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/deepseek_ocr2/modeling_deepseek_ocr2.py L713-750, L996-1080, L1318 "
           "(transformers 5.23.0); configuration_deepseek_ocr2.py L170-244",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_deepseek_ocr2.py L206-212 (transformers 5.23.0)"},

/* ---- deepseek_v2: MLA; RoPE on the last qk_rope_head_dim elements of each
 * head, view_as_complex(reshape(..., -1, 2)): interleaved.
 * models/deepseek_v2/modeling_deepseek_v2.py (apply_rotary_emb). */
{.model_type = "deepseek_v2", .arch = "DeepseekV2", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE,
 .source = "models/deepseek_v2/modeling_deepseek_v2.py (apply_rotary_emb view_as_complex)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_deepseek_v2.py L77-113 (transformers 5.23.0)"},

/* ---- deepseek_v3: as V2; rope_interleave (default true) selects
 * apply_rotary_pos_emb_interleave. models/deepseek_v3/modeling_deepseek_v3.py
 * @9bd8dd18 ("if self.config.rope_interleave"). */
{.model_type = "deepseek_v3", .arch = "DeepseekV3", MLA_ROPE,
 .source = "models/deepseek_v3/modeling_deepseek_v3.py @9bd8dd18 "
           "(apply_rotary_pos_emb_interleave)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_deepseek_v3.py L83-104 (transformers 5.23.0)",
 .null_misread = "rope_interleave",
 .null_misread_source = "modeling_deepseek_v3.py L452 (if self.config.rope_interleave: a None "
                        "rotates halves, not pairs; transformers 5.23.0)"},

/* ---- deepseek_v32 (DeepSeek V3.2): the MLA attention is DeepSeek V3's
 * (apply_rotary_pos_emb_interleave on the qk_rope_head_dim part, always
 * interleaved: no rope_interleave key is read). DeepSeek Sparse Attention's
 * indexer, which picks the index_topk keys each query attends to, rotates its
 * own q and k with the same cos and sin half-split: apply_rotary_pos_emb on the
 * first qk_rope_head_dim elements of heads of index_head_dim (default 128),
 * the rest passed through (posenc_model_layer_indexer_rope). transformers
 * 5.23.0 models/deepseek_v32/modeling_deepseek_v32.py L160-222 (the indexer:
 * "The indexer uses NON-interleaved (half-split) RoPE"), L296-330, L405-430;
 * configuration_deepseek_v32.py L100, L121. */
{.model_type = "deepseek_v32", .arch = "DeepseekV32", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .default_head_dim = 64,
 .indexer_head_dim_default = 128, .indexer_layout = HALF, .flags = POSENC_FAMILY_INDEXER,
 .source = "models/deepseek_v32/modeling_deepseek_v32.py L160-222, L296-330, L405-430 "
           "(transformers 5.23.0); configuration_deepseek_v32.py L100, L121",
 .nonnull = "head_dim hidden_size index_head_dim max_position_embeddings "
            "num_attention_heads num_hidden_layers qk_rope_head_dim",
 .nonnull_source = "configuration_deepseek_v32.py L88-124 (transformers 5.23.0)"},

/* ---- deepseek_v4: refused. Its layers mix the main MLA attention with
 * compressed branches (layer_types compressed_sparse_attention /
 * heavily_compressed_attention, compress_rates 4 and 128) whose compressed
 * keys rotate by a second RoPE (compress_rope_theta 160000, YaRN), and
 * rope_parameters is keyed by the labels main / compress, not by layer type;
 * posenc has one RoPE per layer. transformers 5.23.0
 * models/deepseek_v4/configuration_deepseek_v4.py L136-149, L176-212. */
REFUSED("deepseek_v4", "DeepseekV4", ROPE, INTERLEAVED,
        "its compressed attention branches rotate their keys with a second RoPE "
        "(compress_rope_theta, rope_parameters.compress) beside the main one: posenc has one "
        "RoPE per layer",
        "models/deepseek_v4/configuration_deepseek_v4.py L136-149, L176-212 (transformers "
        "5.23.0)"),
WRAPPER("deepseek_vl", NULL, ROPE, "text_config", "llama", "models/deepseek_vl/configuration_deepseek_vl.py L51 (text_config default llama; transformers 5.23.0)"),
WRAPPER("deepseek_vl_hybrid", NULL, ROPE, "text_config", "llama", "models/deepseek_vl_hybrid/configuration_deepseek_vl_hybrid.py L54 (text_config default llama; transformers 5.23.0)"),

/* ---- dia (Dia TTS): an encoder (text bytes) and a decoder (audio
 * codebooks), each a config of its own (encoder_config, decoder_config) with
 * its own rotary (DiaRotaryEmbedding per stack, L140-185; default rope:
 * rope_theta, dim = head_dim, L168-169), the self-attention of each rotating
 * q and k by rotate_half (HALF, L187-191, L294-295); the cross-attention
 * (L320-392) rotates nothing. Encoder positions arange(n) (L461), decoder
 * arange(n) + past length (L587-589). Layers: the encoder's, then the
 * decoder's. transformers 5.23.0 models/dia/modeling_dia.py;
 * configuration_dia.py L25-112 (encoder_config, decoder_config). */
{.model_type = "dia", .arch = "Dia", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_ENC_DEC, .stacks = &STACKS_DIA,
 .source = "models/dia/modeling_dia.py L140-191, L258-295, L427-468, L541-611 (transformers "
           "5.23.0); configuration_dia.py L25-112"},

/* ---- dia_decoder, dia_encoder: one stack of Dia (above), its sub-config
 * read as a config of its own: default rope (rope_parameters.rope_theta,
 * default_theta 10000, modeling_rope_utils.py L760, L785), dim = head_dim
 * (128); DiaDecoderConfig 18 layers, hidden 2048, 16 heads, 3072 positions;
 * DiaEncoderConfig 12 layers, hidden 1024, 16 heads, 1024 positions.
 * transformers 5.23.0 models/dia/configuration_dia.py L25-74. */
{.model_type = "dia_decoder", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 18, .default_hidden = 2048, .default_heads = 16,
 .default_head_dim = 128,
 .source = "models/dia/modeling_dia.py L140-191, L258-295, L541-611; configuration_dia.py "
           "L42-74 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_dia.py L61-67 (transformers 5.23.0)"},
{.model_type = "dia_encoder", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 12, .default_hidden = 1024, .default_heads = 16,
 .default_head_dim = 128,
 .source = "models/dia/modeling_dia.py L140-191, L258-295, L427-468; configuration_dia.py "
           "L25-40 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_dia.py L31-36 (transformers 5.23.0)"},

/* ---- diffllama: llama's rotate_half (HALF, full head) before the
 * differential attention splits the heads; head_dim null: hidden_size / heads;
 * rope_theta 10000. */
{.model_type = "diffllama", .rotary = WHOLE_HEAD, .arch = "DiffLlama", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 2048, .default_heads = 32,
 .source = "models/diffllama/modeling_diffllama.py L114-144, L203, L260 (5.23.0); "
           "configuration_diffllama.py L51-76",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_diffllama.py L51-57 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_diffllama.py L100")},

/* ---- distilbert: learned absolute table, or sinusoid (sin even, cos odd
 * elements of pos / 10000^(2(j//2)/dim)) with sinusoidal_pos_embds.
 * huggingface/transformers distilbert/modeling_distilbert.py @00b326f4
 * L85-107; */
{.model_type = "distilbert", .arch = "DistilBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 6, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .sinus_key = "sinusoidal_pos_embds",
 .source = "distilbert/modeling_distilbert.py @00b326f4 L85-107; configuration_distilbert.py "
           "@3f832360 L82-102",
 .nonnull = "dim max_position_embeddings n_heads n_layers sinusoidal_pos_embds",
 .nonnull_source = "configuration_distilbert.py L59-63 (transformers 5.23.0)"},

/* ---- doge: llama's rotate_half (HALF, full head) before its dynamic mask
 * attention, rope_theta 10000. */
{.model_type = "doge", .rotary = WHOLE_HEAD, .arch = "Doge", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 1024, .default_heads = 8,
 .source = "models/doge/modeling_doge.py L121-151, L246, L288 (5.23.0); configuration_doge.py "
           "L74-85",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_doge.py L74-85 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_doge.py L107")},

/* ---- dots1: llama's rotate_half (HALF) over the whole head (head_dim, else
 * hidden_size / heads), one rotary for every layer: layer_types only picks the
 * sliding-window mask. */
{.model_type = "dots1", .rotary = WHOLE_HEAD, .arch = "Dots1", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/dots1/modeling_dots1.py L112-141, L188-229, L467-518 (5.23.0); "
           "configuration_dots1.py L85-125",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_dots1.py L84-99 (transformers 5.23.0)"},

/* ---- dpr: each DPR encoder is a BertModel (DPREncoder.bert_model), so
 * BERT's learned table, offset 0. transformers 5.23.0
 * models/dpr/modeling_dpr.py L108-118; configuration_dpr.py L44-55 (hidden
 * 768, 12 layers, 12 heads, 512 positions). */
{.model_type = "dpr", .arch = "DPR", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/dpr/modeling_dpr.py L108-118; configuration_dpr.py L44-55 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_dpr.py L44-51 (transformers 5.23.0)"},

/* ---- electra: BERT's learned table, offset 0, embedding_size wide
 * (default 128; embeddings_project maps it to hidden_size). transformers
 * 5.23.0 models/electra/modeling_electra.py L56-116 (ElectraEmbeddings);
 * configuration_electra.py L63-71 (embedding_size 128, hidden 256, 12
 * layers, 4 heads, 512 positions). */
{.model_type = "electra", .arch = "Electra", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 256, .default_heads = 4, .default_positions = 512,
 .embed_key = "embedding_size", .embed_default = 128,
 .source = "models/electra/modeling_electra.py L56-116; configuration_electra.py L63-71 "
           "(transformers 5.23.0)",
 .nonnull = "embedding_size hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_electra.py L63-71 (transformers 5.23.0)"},

WRAPPER("embedding_gemma2", "EmbeddingGemma2", ROPE, "text_config", "embedding_gemma2_text", "models/embedding_gemma2/configuration_embedding_gemma2.py L159-166 (transformers 5.23.0)"),

/* ---- embedding_gemma2 (EmbeddingGemma 2): a wrapper (text_config
 * embedding_gemma2_text); the text model is Gemma 4's arrangement
 * (bidirectional): q/k norms, rotate_half over the whole head of each layer,
 * one RoPE per layer type (class default: sliding {default, 10000}, full
 * {default, 1e6}); full layers' head size from per_layer_config (built from
 * global_head_dim, default 512); layer_types from sliding_window_pattern 6,
 * the last layer forced full. transformers 5.23.0
 * models/embedding_gemma2/configuration_embedding_gemma2.py L52-130 (defaults,
 * layer_types, last layer, default_rope_params, per_layer_config), L159-166;
 * modeling_embedding_gemma2.py L70-125 (per-type rotary over
 * per_layer_config[layer_type]), L230-260, L310-369. */
{.model_type = "embedding_gemma2_text", .arch = NULL, GEMMA4_LAYERS, .default_layers = 24,
 .default_hidden = 512, .default_heads = 4, .default_head_dim = 256,
 .default_rope_parameters = "{\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}, "
     "\"full_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1000000.0}}",
 .source = "models/embedding_gemma2/configuration_embedding_gemma2.py L52-130; "
           "modeling_embedding_gemma2.py L70-125, L230-260, L310-369 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_embedding_gemma2.py L72-88 (transformers 5.23.0)"},

WRAPPER("emu3", "Emu3", ROPE, "text_config", "emu3_text_model", "models/emu3/configuration_emu3.py L129-137 (transformers 5.23.0)"),

/* ---- emu3 (Emu3): a wrapper (text_config emu3_text_model); the text model
 * is llama's rotate_half RoPE (HALF, full head = hidden_size / heads) on
 * every layer, default_theta 1e6. transformers 5.23.0
 * models/emu3/modeling_emu3.py L59-88, L137, L172, L1128-1168;
 * configuration_emu3.py L95-117, L129-137. */
{.model_type = "emu3_text_model", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/emu3/modeling_emu3.py L59-88, L137, L172, L1128-1168; configuration_emu3.py "
           "L95-117 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_emu3.py L101-110 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_emu3.py L1161")},

/* ---- encoder-decoder (EncoderDecoderModel): two models of any families
 * joined by cross-attention (BERT2BERT, BERT2GPT2, RoBERTa2RoBERTa), the
 * encoder and decoder keys each a config of its own, read as the family its
 * model_type names (bert when it names none: configuration_utils.py L252).
 * The encoder is AutoModel.from_config(encoder), the decoder
 * AutoModelForCausalLM.from_config(decoder) (modeling_encoder_decoder.py
 * L113-120), each called with its own ids and no position_ids of the
 * wrapper's (L391-440), so each stack's positions are its family's own. Layers: the encoder's,
 * then the decoder's. transformers 5.23.0
 * models/encoder_decoder/configuration_encoder_decoder.py L60-72;
 * modeling_encoder_decoder.py L100-130, L319-440. */
{.model_type = "encoder-decoder", .arch = NULL, .scheme = POSENC_SCHEME_MIXED,
 .layers = POSENC_LAYERS_ENC_DEC, .stacks = &STACKS_ENCODER_DECODER,
 .source = "models/encoder_decoder/modeling_encoder_decoder.py L100-130, L319-440; "
           "configuration_encoder_decoder.py L60-72 (transformers 5.23.0)"},

/* ---- ernie (ERNIE 1.0-3.0, the BERT-like one): BERT's learned absolute
 * table, offset 0 (the task-type table, use_task_id, is no position).
 * transformers 5.23.0 models/ernie/modeling_ernie.py L57-129
 * (ErnieEmbeddings); configuration_ernie.py L50-63. */
{.model_type = "ernie", .arch = "Ernie", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/ernie/modeling_ernie.py L57-129; configuration_ernie.py L50-63 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ernie.py L50-57 (transformers 5.23.0)"},

/* ---- ernie4_5, ernie4_5_moe: GLM's interleaved pairs (rotate_half on
 * x[..., 0::2], x[..., 1::2]; cos/sin first half repeat_interleave(2)), full
 * head, every layer; default_theta 500000. Ernie4_5Config head_dim 128,
 * Ernie4_5_MoeConfig none (hidden_size / heads). transformers 5.23.0
 * models/ernie4_5/modeling_ernie4_5.py L107-111 (rotate_half), L151-180
 * (apply_rotary_pos_emb), L192 (head_dim); configuration_ernie4_5.py L47
 * (default_theta), L65-68, L81; models/ernie4_5_moe/modeling_ernie4_5_moe.py
 * L130-165, L215; configuration_ernie4_5_moe.py L62, L95-98. */
{.model_type = "ernie4_5", .rotary = WHOLE_HEAD, .arch = "Ernie4_5", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 500000.0, .default_layers = 18, .default_hidden = 1024, .default_heads = 16,
 .default_head_dim = 128,
 .source = "models/ernie4_5/modeling_ernie4_5.py L107-111, L151-180 (5.23.0); "
           "configuration_ernie4_5.py L47, L65-81",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ernie4_5.py L65-71 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_ernie4_5.py L75")},
{.model_type = "ernie4_5_moe", .rotary = WHOLE_HEAD, .arch = "Ernie4_5_Moe", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .base_default = 500000.0, .default_layers = 28, .default_hidden = 2560,
 .default_heads = 20,
 .source = "models/ernie4_5_moe/modeling_ernie4_5_moe.py L130-165, L215 (5.23.0); "
           "configuration_ernie4_5_moe.py L62, L95-98",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ernie4_5_moe.py L95-101 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_ernie4_5_moe.py L115")},

/* ---- ernie4_5_vl_moe, ernie4_5_vl_moe_text (ERNIE 4.5 VL): a wrapper
 * (text_config, read as ernie4_5_vl_moe_text) and its language model's 3-D
 * RoPE, the hw-alternating M-RoPE rule. The code reads
 * rope_parameters.get("mrope_section", [22, 22, 20]) written [h, w, t]
 * (L72, L94-96); it pre-permutes inv_freq (the first s_h + s_w frequencies'
 * even ones, then their odd ones; the last s_t stay, L97-100), splits each
 * axis' angles by the section and takes chunk i from axis (i + 1) % 3 of the
 * [t, h, w] position ids (L123, get_rope_index L1130), then
 * stack([h, w]).flatten() and cat t (L124-125): pair k < s_h + s_w is
 * h's for even k and w's for odd k at frequency inv_freq[k] (the two
 * permutations cancel), the last s_t pairs t's. repeat_interleave(2) with
 * rotate_half_text (x[..., 0::2], x[..., 1::2]): INTERLEAVED pairs (L126,
 * L166-197), whole head (head_dim absent: hidden_size / heads, L86, L209).
 * rope_type default only (L63-66: quirk_ernie4_5_vl); default_theta 500000.
 * transformers 5.23.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py
 * L56-126, L166-197; configuration_ernie4_5_vl_moe.py L84 (default_theta),
 * L118-131 (defaults), L191-196 (sub-configs). */
WRAPPER("ernie4_5_vl_moe", "Ernie4_5_VLMoe", ROPE, "text_config", "ernie4_5_vl_moe_text",
        "models/ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py L191-196 (transformers 5.23.0)"),
{.model_type = "ernie4_5_vl_moe_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .base_default = 500000.0, .default_layers = 28, .default_hidden = 2560,
 .default_heads = 20, .mrope_default = {22, 22, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_HW_ALTERNATING, .quirks = &quirk_ernie4_5_vl,
 .source = "models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py L56-126, L166-197; "
           "configuration_ernie4_5_vl_moe.py L84, L118-131 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ernie4_5_vl_moe.py L122-128 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_ernie4_5_vl_moe.py L91")},

/* ---- esm: position_embedding_type picks the scheme (quirk_esm): "rotary"
 * (ESM-2) rotates q and k in every layer with rotate_half (HALF) over the
 * whole head, base rope_theta (a plain key, default 10000; the code reads no
 * rope_scaling block: refused); "absolute" (ESM-1b, the class default) is a
 * learned table of max_position_embeddings rows read from pad_token_id + 1
 * (RoBERTa's rule). models/esm/modeling_esm.py L47-77, L105-152, L195-280,
 * L369, L620-633, L725-729; configuration_esm.py L186-214 (transformers
 * 5.23.0). */
{.model_type = "esm", .rotary = WHOLE_HEAD, .arch = "Esm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .pos_offset = -1, .default_layers = 12, .default_hidden = 768,
 .default_heads = 12, .default_positions = 1026, .quirks = &quirk_esm,
 .scaling_refused = "ESM's EsmRotaryEmbedding reads rope_theta alone (modeling_esm.py L122-139): "
                    "a scaling block is never applied",
 .source = "models/esm/modeling_esm.py L47-77, L105-152, L195-280, L369, L620-633, L725-729; "
           "configuration_esm.py L186-214 (transformers 5.23.0)"},

/* ---- esmc (ESM C, an encoder): llama's rotate_half RoPE (HALF, full head,
 * head_dim null: hidden_size / heads) after LayerNorm q/k norms, every layer;
 * rope_theta the mixin's 10000. transformers 5.23.0
 * models/esmc/modeling_esmc.py L55-90, L118-150, L187; configuration_esmc.py
 * L88-102; modular_esmc.py L57-95, L141-175. */
{.model_type = "esmc", .rotary = WHOLE_HEAD, .arch = "Esmc", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 80, .default_hidden = 2560, .default_heads = 40,
 .source = "models/esmc/modeling_esmc.py L55-90, L118-150, L187 (5.23.0); configuration_esmc.py "
           "L88-102",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_esmc.py L72-78 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_esmc.py L88")},

/* ---- eurobert (encoder): llama's rotate_half (HALF, full head), head_dim
 * null: hidden_size / heads, rope_theta 10000. */
{.model_type = "eurobert", .rotary = WHOLE_HEAD, .arch = "EuroBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/eurobert/modeling_eurobert.py L64-94, L142, L177, L308-309 (5.23.0); "
           "configuration_eurobert.py L69-96",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_eurobert.py L69-75 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_eurobert.py L313")},

/* ---- evolla (its language model, the config's own keys): llama's
 * attention, rotate_half (HALF) over the whole head (head_dim, else
 * hidden_size / heads), rope_theta default 500000, every decoder layer; the
 * protein encoder (SaProt, protein_encoder_config) and the aligner's
 * cross-attention to it are not the language model's positions.
 * models/evolla/modeling_evolla.py L209-240, L1021-1060, L1097-1140,
 * L1269-1370; configuration_evolla.py L64-145 (transformers 5.23.0). */
{.model_type = "evolla", .rotary = WHOLE_HEAD, .arch = "Evolla", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/evolla/modeling_evolla.py L209-240, L1021-1060, L1097-1140, L1269-1370; "
           "configuration_evolla.py L64-145 (transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers num_attention_heads",
 .nonnull_source = "configuration_evolla.py L108-111 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_evolla.py L1054")},

/* ---- exaone (EXAONE 3.0 / 3.5 remote code): refused. Its own
 * modeling_exaone.py was not found to read; its configuration class (vLLM's
 * copy of LGAI-EXAONE/EXAONE-3.0-7.8B-Instruct configuration_exaone.py,
 * vllm-project/vllm vllm/transformers_utils/configs/exaone.py @0d8caed3)
 * carries position keys whose use only that code settles: rotary_pct
 * (default 0.25), use_rotary_pos (default False) against use_absolute_pos
 * (default True), rotary_type, rotary_base (10000.0), scaling_factor and
 * rotary_expand_length ("self.use_rotary_pos = kwargs.pop(", "if
 * self.use_rotary_pos: self.use_absolute_pos = False"). */
REFUSED("exaone", "Exaone", ROPE, HALF,
        "EXAONE 3's own modeling_exaone.py was not read: its config class has "
        "rotary_pct (0.25), use_rotary_pos / use_absolute_pos, rotary_type, rotary_base and "
        "scaling_factor, whose meaning only that code settles",
        "LGAI-EXAONE configuration_exaone.py (copy vllm-project/vllm "
        "vllm/transformers_utils/configs/exaone.py @0d8caed3); modeling_exaone.py not read"),

/* ---- exaone4: RoPE on sliding layers only, full layers NoPE ("We use
 * global NoPE for hybrid attention model": if self.sliding_window is None or
 * self.is_sliding); sliding_window_pattern 4; rope_theta 10000.
 * models/exaone4/modular_exaone4.py @26892c16 L180-215 (defaults, pattern),
 * L239-280 (head_dim, is_sliding, the NoPE rule). */
{.model_type = "exaone4", .rotary = WHOLE_HEAD, .arch = "Exaone4", EXAONE4_LAYERS, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/exaone4/modular_exaone4.py @26892c16 L180-215, L239-280",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_exaone4.py L80-86 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_exaone4.py L102")},

WRAPPER("exaone4_5", NULL, MIXED, "text_config", "exaone4", "models/exaone4_5/configuration_exaone4_5.py L68 (text_config default exaone4; transformers 5.23.0)"),

/* ---- exaone4_5_text: EXAONE 4.5's language part as its config.json names
 * it; Exaone4_5_Config.__post_init__ renames it exaone4 before building
 * (transformers 5.23.0 models/exaone4_5/configuration_exaone4_5.py L80-81):
 * EXAONE 4's entry, as written there. */
{.model_type = "exaone4_5_text", .arch = NULL, EXAONE4_LAYERS, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/exaone4_5/configuration_exaone4_5.py L80-81 (read as exaone4); models/exaone4/modular_exaone4.py @26892c16 L180-215, L239-280"},

/* ---- exaone_moe: EXAONE 4's rule: q/k norms, then RoPE only where
 * sliding_window is None or the layer is sliding ("We use global NoPE for
 * hybrid attention model"); layer_types from sliding_window_pattern 4 ((i + 1)
 * % 4 != 0: sliding), or none sliding without a window; rotate_half (HALF,
 * full head), rope_theta 10000. A string pattern ("LLLG") without layer_types
 * is refused by the layer reader. */
{.model_type = "exaone_moe", .rotary = WHOLE_HEAD, .arch = "ExaoneMoe", EXAONE4_LAYERS, .default_layers = 32,
 .default_hidden = 4096, .default_heads = 32,
 .source = "models/exaone_moe/modeling_exaone_moe.py L66-96, L144-152, L178-184 (5.23.0); "
           "configuration_exaone_moe.py L89-138",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "sliding_window",
 .nonnull_source = "configuration_exaone_moe.py L89-105 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_exaone_moe.py L441")},

/* ---- falcon: rotate_half RoPE over the head, or ALiBi with alibi: true:
 * BLOOM's slopes cast to bfloat16 (modeling_falcon.py @e2412028 L170-195),
 * the bias divided by sqrt(head_dim) (L896-903, the default SDPA path).
 * FalconConfig defaults (configuration_falcon.py @3f832360 L111-130): hidden
 * 4544, heads 71, layers 32, rope_theta 10000. */
{.model_type = "falcon", .rotary = WHOLE_HEAD, .arch = "Falcon", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 32, .default_hidden = 4544, .default_heads = 71,
 .flags = POSENC_FAMILY_ALIBI_KEY, .quirks = &quirk_falcon,
 .source = "models/falcon/modeling_falcon.py @e2412028 L170-195, L896-903; "
           "configuration_falcon.py @3f832360 L111-130",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_falcon.py L67-82 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_falcon.py L135")},

/* ---- falcon_h1: every layer is "hybrid" (attention and a Mamba 2 mixer
 * side by side), the attention rotate_half RoPE over the head.
 * transformers 5.23.0 models/falcon_h1/configuration_falcon_h1.py L132-134
 * (layers_block_type all "hybrid"); modeling_falcon_h1.py L98-106
 * (rotate_half), L212 (RoPE in FalconH1Attention), L1186 (every layer
 * hybrid); rope_theta default 10000 (modeling_rope_utils.py L760). */
{.model_type = "falcon_h1", .rotary = WHOLE_HEAD, .arch = "FalconH1", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .source = "models/falcon_h1/configuration_falcon_h1.py L132-134; modeling_falcon_h1.py L98-106, "
           "L212, L1186 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_falcon_h1.py L62-75 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_falcon_h1.py L84")},

/* ---- falcon_mamba: Mamba layers only, no attention: no positions.
 * transformers 5.23.0 models/falcon_mamba/modeling_falcon_mamba.py (no
 * attention, no position input). */
{.model_type = "falcon_mamba", .arch = "FalconMamba", .scheme = POSENC_SCHEME_NONE,
 .kinds = KINDS_SSM,
 .source = "models/falcon_mamba/modeling_falcon_mamba.py (mamba mixers only; transformers "
           "5.23.0)",
 .nonnull = "hidden_size num_hidden_layers",
 .nonnull_source = "configuration_falcon_mamba.py L74-76 (transformers 5.23.0)"},
WRAPPER("fast_vlm", NULL, ROPE, "text_config", "qwen2", "models/fast_vlm/configuration_fast_vlm.py L63-65 (text_config default qwen2; transformers 5.23.0)"),

/* ---- flaubert: XLM's embeddings (see xlm): a table of
 * max_position_embeddings rows, emb_dim wide, read at positions 0..;
 * filled with sinusoids when sinusoidal_embeddings is true. transformers
 * 5.23.0 models/flaubert/modeling_flaubert.py L47-53
 * (create_sinusoidal_embeddings), L677-686, L724, L750, L841-845, L869;
 * configuration_flaubert.py L94-118 (emb_dim 2048, 12 layers, 16 heads, 512
 * positions). */
{.model_type = "flaubert", .arch = "Flaubert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 2048, .default_heads = 16, .default_positions = 512,
 .embed_key = "emb_dim", .embed_default = 2048, .sinus_key = "sinusoidal_embeddings",
 .source = "models/flaubert/modeling_flaubert.py L47-53, L677-686, L724, L750, L841-869; "
           "configuration_flaubert.py L94-118 (transformers 5.23.0)",
 .nonnull = "emb_dim max_position_embeddings n_heads n_layers sinusoidal_embeddings",
 .nonnull_source = "configuration_flaubert.py L107-118 (transformers 5.23.0)"},

WRAPPER("flava", NULL, LEARNED, "text_config", "flava_text_model", "models/flava/configuration_flava.py L239 (transformers 5.23.0)"),

/* ---- flava_text_model: BERT's embeddings: a learned table
 * (position_embeddings) read at rows 0.. (the position_ids buffer,
 * arange), no offset (pad_token_id unused for it); no relative position
 * in attention. transformers 5.23.0 models/flava/modeling_flava.py
 * L370-417; configuration_flava.py L88-103 (hidden 768, 12 layers, 12
 * heads, 512 positions). */
{.model_type = "flava_text_model", .arch = "FlavaText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .default_positions = 512,
 .source = "models/flava/modeling_flava.py L370-417; "
           "configuration_flava.py L88-103 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_flava.py L93-96 (transformers 5.23.0)"},

/* ---- flex_olmo: OLMo 2's attention (q/k norms over the projections, then
 * llama's rotate_half: HALF, full head), default_theta 500000. */
{.model_type = "flex_olmo", .rotary = WHOLE_HEAD, .arch = "FlexOlmo", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/flex_olmo/modeling_flex_olmo.py L166-196, L207, L248 (5.23.0); "
           "configuration_flex_olmo.py L51, L73-76",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_flex_olmo.py L73-79 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_flex_olmo.py L99")},

/* ---- flint: q/k norms, then rotate_half RoPE (HALF, full head, head_dim 128)
 * on the sliding-window layers only ("Only sliding-window layers are rotary;
 * full-attention layers use no positional encoding"); the class default
 * layer_types (full on layers 0, 1, i % 4 == 1 and the last) is written out by
 * to_dict, so a config without layer_types is refused (sliding_window is an
 * int: strict configs reject null); rope_theta the mixin's 10000. */
{.model_type = "flint", .rotary = WHOLE_HEAD, .arch = "Flint", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 49, .default_hidden = 2048,
 .default_heads = 32, .default_head_dim = 128,
 .source = "models/flint/modeling_flint.py L161-190, L235-283, L417 (5.23.0); "
           "configuration_flint.py L47-111",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_flint.py L73-100 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_flint.py L422")},
WRAPPER("florence2", NULL, LEARNED, "text_config", "bart", "models/florence2/configuration_florence2.py L111 (text_config default bart; transformers 5.23.0)"),

/* ---- fnet: BERT's learned table, offset 0 (positions 0..seq_len-1). Its
 * layers have no attention: each mixes tokens by the real part of a 2-D
 * Fourier transform over sequence and hidden axes (fixed weights, no
 * position input), which posenc does not describe; the position encoding is
 * the table. transformers 5.23.0 models/fnet/modeling_fnet.py L83-137
 * (FNetEmbeddings: L89 table, L111 positions, L130-131 added), L140-180
 * (FNetBasicFourierTransform); configuration_fnet.py L52-63 (hidden 768, 12
 * layers, 512 positions). */
{.model_type = "fnet", .arch = "FNet", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/fnet/modeling_fnet.py L83-137, L138-173; configuration_fnet.py L52-63 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_hidden_layers",
 .nonnull_source = "configuration_fnet.py L52-57 (transformers 5.23.0)"},

/* ---- fsmt (FairSeq Machine Translation, facebook/wmt19-*): its own
 * SinusoidalPositionalEmbedding in both stacks, M2M100's arithmetic
 * (get_embedding L1073-1091: sin then cos halves of pos * exp(-k ln(10000) /
 * (half_dim - 1)), torch float32, row padding_idx zeroed); rows read at
 * make_positions' cumsum + padding_idx, i.e. pad_token_id + 1 + i
 * (L1093-1105), plus the cache length in the decoder (L1114, L580-582); the
 * nn.Embedding of max_position_embeddings + padding_idx + 1 rows (L336-338,
 * L532-534) grows past them (L1110-1113) and _init_weights refills it
 * (L219-224). d_model 1024, 12 + 12 layers, 1024 positions, pad_token_id 1;
 * hidden_size and num_hidden_layers are aliases of d_model and
 * encoder_layers (configuration_fsmt.py L64-98). langs and the vocab sizes
 * do not touch positions. */
{.model_type = "fsmt", .arch = "FSMT", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1,
 .default_layers = 12, .default_hidden = 1024, .default_positions = 1024,
 .source = "models/fsmt/modeling_fsmt.py L219-224, L332-338, L375, L528-534, L580-582, "
           "L1051-1115; configuration_fsmt.py L64-98 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_fsmt.py L75-83 (transformers 5.23.0)"},
WRAPPER("fun_asr_nano", NULL, ROPE, "text_config", "qwen3", "models/fun_asr_nano/configuration_fun_asr_nano.py L89-91 (text_config default qwen3; transformers 5.23.0)"),

/* ---- funnel (Funnel Transformer): Transformer-XL's relative sinusoid in
 * every layer's attention, by relative shift or factorized (attention_type),
 * over the pooled positions of each block; one layer group per block and
 * one for the decoder; quirk (src/config/config_relsin.c). transformers
 * 5.23.0 models/funnel/modeling_funnel.py L104-216 (the position embeds),
 * L254-320 (pooling), L525-656 (encoder blocks, decoder);
 * configuration_funnel.py L69-93. */
{.model_type = "funnel", .arch = "Funnel", .scheme = POSENC_SCHEME_RELATIVE_SINUSOID,
 .default_layers = 1, .quirks = &quirk_funnel,
 .source = "models/funnel/modeling_funnel.py L104-216, L254-320, L525-656 (transformers "
           "5.23.0)",
 .nonnull = "block_sizes num_decoder_layers d_model pooling_type attention_type "
            "separate_cls truncate_seq pool_q_only n_head",
 .nonnull_source = "configuration_funnel.py L53-71 (transformers 5.23.0)"},
WRAPPER("fuyu", NULL, ROPE, "text_config", "persimmon", "models/fuyu/configuration_fuyu.py L41-43 (text_config default persimmon; transformers 5.23.0)"),

/* ---- gemma: rotate_half, head_dim 256, every layer; base the mixin's
 * default_theta 10000 (rope_utils L635). models/gemma/configuration_gemma.py
 * @7b24e381 (GemmaConfig.__init__ defaults). */
{.model_type = "gemma", .rotary = WHOLE_HEAD, .arch = "Gemma", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 28, .default_hidden = 3072, .default_heads = 16, .default_head_dim = 256,
 .source = "models/gemma/configuration_gemma.py @7b24e381 (GemmaConfig); rope_utils L635",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_gemma.py L68-75 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_gemma.py L132")},

/* ---- gemma2: rotate_half, one rotary for all layers (layer_types only
 * choose the mask). models/gemma2/modeling_gemma2.py @9bd8dd18 (rotate_half,
 * apply_rotary_pos_emb, Gemma2RotaryEmbedding, Gemma2Attention);
 * configuration_gemma2.py @26892c16 (defaults, layer_types). */
{.model_type = "gemma2", .rotary = WHOLE_HEAD, .arch = "Gemma2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 26, .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/gemma2/modeling_gemma2.py @9bd8dd18 (rotate_half, Gemma2RotaryEmbedding); "
           "configuration_gemma2.py @26892c16",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_gemma2.py L69-76 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_gemma2.py L117")},

WRAPPER("gemma3", NULL, ROPE, "text_config", "gemma3_text", "models/gemma3/configuration_gemma3.py @26892c16 L283-290"),

/* ---- gemma3_text: sliding layers rope_local_base_freq (default 10000)
 * without scaling, full layers rope_theta (default 1e6) with rope_scaling;
 * layer_types from sliding_window_pattern 6 (every 6th layer full).
 * models/gemma3/configuration_gemma3.py @26892c16 L131 (default_theta), L141
 * (head_dim 256), L191-197 (pattern, layer_types), L202-230
 * (convert_rope_params_to_dict: rope_scaling to full_attention only L213,
 * bases L218-225); modeling_gemma3.py @16d622f0 (Gemma3RotaryEmbedding per
 * layer type, rotate_half). */
{.model_type = "gemma3_text", .rotary = WHOLE_HEAD, .arch = "Gemma3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "rope_local_base_freq",
 .local_base_default = 10000.0, .sliding_pattern = 6, .default_layers = 26,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/gemma3/configuration_gemma3.py @26892c16 L131-230; modeling_gemma3.py "
           "@16d622f0 (Gemma3RotaryEmbedding)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_gemma3.py L75-82 (transformers 5.23.0)"},

WRAPPER("gemma3n", NULL, ROPE, "text_config", "gemma3n_text", "models/gemma3n/configuration_gemma3n.py L430-476 (transformers 5.23.0)"),

/* ---- gemma3n_text: as gemma3_text with every 5th layer full: sliding layers
 * rope_local_base_freq (default_theta["local"] 10000) without scaling, full
 * layers rope_theta (default_theta["global"] 1e6) with rope_scaling.
 * models/gemma3n/configuration_gemma3n.py L97-125 (defaults: hidden 2048,
 * 35 layers, 8 heads, head_dim 256, default_theta L118), L141-144
 * (layer_types: full when (i + 1) % 5 == 0), L177-203
 * (convert_rope_params_to_dict: rope_scaling to full_attention only);
 * modeling_gemma3n.py L1086 (rotate_half), L1161-1240 (Gemma3nTextAttention:
 * q_norm/k_norm then apply_rotary_pos_emb; KV-shared layers L1176, L1220 reuse
 * the keys of the last earlier layer of their type, rotated at the same
 * positions with the same layer-type RoPE), L1514 (Gemma3nRotaryEmbedding per
 * layer type). transformers 5.23.0. AltUp and laurel do not touch positions. */
{.model_type = "gemma3n_text", .rotary = WHOLE_HEAD, .arch = "Gemma3n", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "rope_local_base_freq",
 .local_base_default = 10000.0, .sliding_pattern = 5, .default_layers = 35,
 .default_hidden = 2048, .default_heads = 8, .default_head_dim = 256,
 .source = "models/gemma3n/configuration_gemma3n.py L97-203; modeling_gemma3n.py L1086-1240, "
           "L1514 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_gemma3n.py L97-115 (transformers 5.23.0)"},

WRAPPER("gemma4", NULL, ROPE, "text_config", "gemma4_text", "models/gemma4/configuration_gemma4.py L322-384 (transformers 5.23.0)"),

/* ---- gemma4_text: rotate_half; per layer type its own rope_parameters set
 * (class default: sliding {default, 10000}, full {proportional,
 * partial_rotary_factor 0.25, 1e6}); full-attention layers have head size
 * global_head_dim (default 512, per_layer_config) and rotate it all with the
 * proportional frequencies (zero past the rotated pairs); sliding layers
 * head_dim (256). layer_types from pattern 6, the last layer forced full.
 * models/gemma4/configuration_gemma4.py L151-177 (defaults), L189-200
 * (layer_types, last layer full), L202-207 (default_rope_params), L209-224
 * (global_head_dim into per_layer_config), L226-252 (kv_sharing_modes);
 * modeling_gemma4.py L778-797 (apply_rotary_pos_emb, rotate_half),
 * L1078-1147 (Gemma4TextRotaryEmbedding: inv_freq per layer type from
 * per_layer_config[layer_type]), L1150-1240 (Gemma4TextAttention: head_dim
 * from per_layer_config[layer_idx]; KV-shared layers reuse the keys their
 * type's last producer rotated at the same positions); modeling_rope_utils.py
 * L194-261 (_compute_proportional_rope_parameters). Base: the mixin's
 * default_theta 10000 (rope_utils L760) where a set has no rope_theta.
 * transformers 5.23.0. */
{.model_type = "gemma4_text", .arch = "Gemma4", GEMMA4_LAYERS, .default_layers = 30,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .default_rope_parameters = GEMMA4_ROPE_PARAMETERS,
 .source = "models/gemma4/configuration_gemma4.py L151-252; modeling_gemma4.py L778-797, "
           "L1078-1240; modeling_rope_utils.py L194-261 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_gemma4.py L152-170 (transformers 5.23.0)"},

WRAPPER("gemma4_unified", NULL, ROPE, "text_config", "gemma4_unified_text", "models/gemma4_unified/configuration_gemma4_unified.py L283-331 (transformers 5.23.0)"),

/* ---- gemma4_unified, gemma4_unified_text: Gemma 4's text model under
 * another name, the same rules. models/gemma4_unified/
 * configuration_gemma4_unified.py L104-200 (Gemma4UnifiedTextConfig: the
 * same defaults, layer_types, last layer full, default_rope_params,
 * global_head_dim), L283-331 (Gemma4UnifiedConfig, text_config);
 * modeling_gemma4_unified.py L183 (Gemma4UnifiedTextRotaryEmbedding), L262
 * (apply_rotary_pos_emb), L330-410 (Gemma4UnifiedTextAttention).
 * transformers 5.23.0. */
{.model_type = "gemma4_unified_text", .arch = NULL, GEMMA4_LAYERS, .default_layers = 30,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .default_rope_parameters = GEMMA4_ROPE_PARAMETERS,
 .source = "models/gemma4_unified/configuration_gemma4_unified.py L104-200; "
           "modeling_gemma4_unified.py L183-410 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_gemma4_unified.py L125-144 (transformers 5.23.0)"},

/* ---- git (GIT, GenerativeImage2Text): its text decoder's embeddings add a
 * learned table, position_embeddings(max_position_embeddings, hidden_size),
 * read at positions 0.. (past the cache's length with one), the image tokens
 * in front carrying none. transformers 5.23.0 models/git/modeling_git.py
 * L73-110 (GitEmbeddings); configuration_git.py L87-100 (defaults: 6 layers,
 * hidden 768, 12 heads, 1024 positions). */
{.model_type = "git", .arch = "Git", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 6,
 .default_hidden = 768, .default_heads = 12, .default_positions = 1024,
 .source = "models/git/modeling_git.py L73-110 (5.23.0); configuration_git.py L87-100",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_git.py L89-96 (transformers 5.23.0)"},

/* ---- glm, glm4: interleaved pairs (x[..., 0::2], x[..., 1::2]) in the
 * first int(head_dim * partial_rotary_factor) elements (factor 0.5).
 * models/glm4/modeling_glm4.py (apply_rotary_pos_emb repeat_interleave,
 * rotate_half). */
{.model_type = "glm", .arch = "Glm", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .partial_default = 0.5,
 .source = "models/glm/modeling_glm.py (apply_rotary_pos_emb, rotate_half 0::2 1::2)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_glm.py L57-65 (transformers 5.23.0)"},
{.model_type = "glm4", .arch = "Glm4", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .partial_default = 0.5,
 .source = "models/glm4/modeling_glm4.py (apply_rotary_pos_emb, rotate_half 0::2 1::2)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_glm4.py L57-65 (transformers 5.23.0)"},

WRAPPER("glm46v", "Glm46V", ROPE, "text_config", "glm4v_text", "models/glm46v/configuration_glm46v.py L56 (transformers 5.23.0)"),

/* ---- glm4_moe: GPT-NeoX's partial rotate_half (HALF), partial factor 0.5.
 * models/glm4_moe/modular_glm4_moe.py @7b24e381 ("from
 * ..gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb",
 * kwargs.setdefault("partial_rotary_factor", 0.5)). Glm4MoeConfig has no
 * head_dim field (transformers 5.23.0 configuration_glm4_moe.py L92-124): its
 * defaults give 4096 // 96 = 42 and int(42 * 0.5) = 21, from which transformers
 * makes 11 frequencies base^(-2i/21) and rotates 22 elements
 * (modeling_glm4_moe.py L74-76, L160-166); posenc refuses the odd rotary
 * dimension by name. GLM-4.5's configs carry head_dim 128. */
{.model_type = "glm4_moe", .arch = "Glm4Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_hidden = 4096, .default_heads = 96,
 .source = "models/glm4_moe/modular_glm4_moe.py @7b24e381",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_glm4_moe.py L92-98 (transformers 5.23.0)"},

/* ---- glm4_moe_lite: DeepSeek V3's MLA: RoPE on the qk_rope_head_dim part
 * (64; attribute_map head_dim -> qk_rope_head_dim) of each head,
 * apply_rotary_pos_emb_interleave when rope_interleave (default true), else
 * rotate_half; rope_theta 10000; the YaRN mscale goes into the softmax scale. */
{.model_type = "glm4_moe_lite", .arch = "Glm4MoeLite", MLA_ROPE, .base_default = 10000.0,
 .default_layers = 47, .default_hidden = 2048, .default_heads = 20, .default_head_dim = 64,
 .source = "models/glm4_moe_lite/modeling_glm4_moe_lite.py L150-219, L278, L315-328 (5.23.0); "
           "configuration_glm4_moe_lite.py L79-113",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim rope_interleave",
 .nonnull_source = "configuration_glm4_moe_lite.py L83-113 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_glm4_moe_lite.py L84")},

WRAPPER("glm4v", "Glm4v", ROPE, "text_config", "glm4v_text", "models/glm4v/configuration_glm4v.py L159-161 (transformers 5.23.0)"),
WRAPPER("glm4v_moe", "Glm4vMoe", ROPE, "text_config", "glm4v_moe_text", "models/glm4v_moe/configuration_glm4v_moe.py (Glm4vMoeConfig; transformers 5.23.0)"),

/* ---- glm4v_moe_text (GLM-4.5V): GLM-4V's M-RoPE with GPT-NeoX's pairs:
 * recomposition_frequencies takes chunks of mrope_section (default
 * [8, 12, 12]) from t, h, w and concatenates two copies (cat([freq, freq])),
 * rotate_half over the first int(head_dim * partial_rotary_factor) elements
 * (default 0.5: kwargs.setdefault); rope_theta the mixin's 10000.
 * models/glm4v_moe/modeling_glm4v_moe.py L75 (default section), L89-91
 * (rotary dim), L112-117 (chunks, cat), L157-186 (rotate_half, partial);
 * configuration_glm4v_moe.py L86-89 (defaults), L118 (0.5); transformers
 * 5.23.0. */
{.model_type = "glm4v_moe_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 46, .default_hidden = 4096,
 .default_heads = 96, .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm4v_moe/modeling_glm4v_moe.py L75, L89-91, L112-117, L157-186; "
           "configuration_glm4v_moe.py L86-89, L118 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_glm4v_moe.py L86-92 (transformers 5.23.0)"},

/* ---- glm4v_text (GLM-4.1V, GLM-4.6V): M-RoPE in GLM's interleaved pairs:
 * the P = rotary_dim / 2 pair frequencies are split by mrope_section
 * (default [8, 12, 12]) in chunks taken from t, h, w (the contiguous rule),
 * then repeat_interleave(2): pair k is (x[2k], x[2k + 1]) (rotate_half_llm
 * x[..., 0::2], x[..., 1::2]) in the first rotary_dim = int(head_dim *
 * partial_rotary_factor) elements (rope_parameters.get(.., 1.0): the
 * released configs give 0.5); rope_theta the mixin's 10000.
 * models/glm4v/modeling_glm4v.py L444 (default section), L457-460 (rotary
 * dim), L481-486 (chunks, repeat_interleave), L489-526 (rotate_half_llm,
 * partial); configuration_glm4v.py L111-117 (defaults); transformers 5.23.0. */
{.model_type = "glm4v_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 10000.0, .default_layers = 40, .default_hidden = 4096, .default_heads = 32,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm4v/modeling_glm4v.py L444, L457-460, L481-486, L489-526; "
           "configuration_glm4v.py L111-117 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_glm4v.py L111-117 (transformers 5.23.0)"},

/* ---- glm5_next, glm5_next_text (GLM-5.3-Flash): a wrapper (text_config
 * glm5_next_text; flat text-only configs keep the text keys at the top:
 * Glm5NextConfig.__post_init__ text_config = kwargs); the text model encodes
 * no positions: its DSA attention layers are NoPE (position_embeddings=None,
 * "Key change using NoPE"; validate_architecture refuses qk_rope_head_dim > 0)
 * and the rest KDA linear attention. layer_types ("full_attention" renamed
 * "indexed_attention"), else indexed where i % 4 == 3, linear elsewhere.
 * transformers 5.23.0 models/glm5_next/configuration_glm5_next.py L69, L164-172,
 * L199-227, L290-311; modeling_glm5_next.py L1101-1200, L1280-1290, L1498-1512. */
{.model_type = "glm5_next", .arch = "Glm5Next", .scheme = POSENC_SCHEME_NONE,
 .nested = "text_config", .nested_type = "glm5_next_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/glm5_next/configuration_glm5_next.py L290-311 (transformers 5.23.0)"},
{.model_type = "glm5_next_text", .arch = NULL, .scheme = POSENC_SCHEME_NONE,
 .default_layers = 45, .default_hidden = 4096, .default_heads = 64,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_GLM5_NEXT, .kinds_period = 4,
 .kinds_offset = KINDS_LAST,
 .source = "models/glm5_next/configuration_glm5_next.py L69, L164-172, L199-227; "
           "modeling_glm5_next.py L1101-1200, L1280-1290, L1498-1512 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size index_head_dim max_position_embeddings "
            "num_attention_heads num_hidden_layers qk_rope_head_dim",
 .nonnull_source = "configuration_glm5_next.py L101-137 (transformers 5.23.0)"},

WRAPPER("glm_image", "GlmImage", ROPE, "text_config", "glm_image_text", "models/glm_image/configuration_glm_image.py (GlmImageConfig; transformers 5.23.0)"),

/* ---- glm_image: a wrapper (text_config glm_image_text); its text model is
 * GLM-4.5V's arrangement (chunks, cat([freq, freq]), rotate_half), partial
 * factor rope_parameters.get(.., 1.0). models/glm_image/modeling_glm_image.py
 * L67 (default section), L81-83, L104-109, L370-399; configuration_glm_image.py
 * L123-129 (defaults); transformers 5.23.0. */
{.model_type = "glm_image_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 40, .default_hidden = 4096, .default_heads = 32,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm_image/modeling_glm_image.py L67, L81-83, L104-109, L370-399; "
           "configuration_glm_image.py L123-129 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_glm_image.py L123-135 (transformers 5.23.0)"},

/* ---- glm_moe_dsa (GLM-5's DeepSeek Sparse Attention): refused. The MLA
 * attention rotates the qk_rope_head_dim part interleaved, as DeepSeek V3.2,
 * and its indexer rotates its own q and k interleaved too
 * (apply_rotary_pos_emb_interleave; an indexer layout posenc carries), but
 * only the layers whose indexer_types entry is "full" have an indexer; the
 * "shared" ones reuse the previous full layer's top-k (L346-348), and the
 * config class derives indexer_types from index_topk_freq /
 * index_skip_topk_offset / index_topk_pattern (configuration_glm_moe_dsa.py
 * L133-150): per-layer indexers are not implemented. transformers 5.23.0
 * models/glm_moe_dsa/modeling_glm_moe_dsa.py L114-150, L153-221, L297-393. */
REFUSED("glm_moe_dsa", "GlmMoeDsa", ROPE, INTERLEAVED,
        "GLM-MoE-DSA's Sparse Attention indexer (interleaved) exists only in the layers whose "
        "indexer_types entry is \"full\" (the others reuse a previous layer's top-k): "
        "per-layer indexers are not implemented",
        "models/glm_moe_dsa/modeling_glm_moe_dsa.py L114-150, L153-221, L297-393, L346-348; "
        "configuration_glm_moe_dsa.py L133-150 (transformers 5.23.0)"),

WRAPPER("glm_ocr", "GlmOcr", ROPE, "text_config", "glm_ocr_text", "models/glm_ocr/configuration_glm_ocr.py (GlmOcrConfig; transformers 5.23.0)"),

/* ---- glm_ocr: a wrapper (text_config glm_ocr_text), GLM-4.1V's arrangement
 * (chunks, repeat_interleave, rotate_half_llm). models/glm_ocr/modeling_glm_ocr.py
 * L124-153 (rotate_half_llm, partial), L652 (default section), L666-668,
 * L689-694; configuration_glm_ocr.py L112-118 (defaults); transformers 5.23.0. */
{.model_type = "glm_ocr_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 1024, .default_heads = 16,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm_ocr/modeling_glm_ocr.py L124-153, L652, L666-668, L689-694; "
           "configuration_glm_ocr.py L112-118 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_glm_ocr.py L112-118 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_glm_ocr.py L532")},
WRAPPER("glmasr", NULL, ROPE, "text_config", "llama", "models/glmasr/configuration_glmasr.py L85-87 (text_config default llama; transformers 5.23.0)"),
WRAPPER("got_ocr2", NULL, ROPE, "text_config", "qwen2", "models/got_ocr2/configuration_got_ocr2.py L91-93 (text_config default qwen2; transformers 5.23.0)"),

/* ---- gpt-sw3 (GPT-SW3): GPT-2's code (CONFIG_MAPPING maps it to GPT2Config,
 * the model classes to GPT2Model): a learned table wpe from row 0.
 * transformers 5.23.0 models/auto/configuration_auto.py L52,
 * models/auto/modeling_auto.py L237; models/gpt2/modeling_gpt2.py L491, L574;
 * configuration_gpt2.py L72-80. */
{.model_type = "gpt-sw3", .arch = NULL, .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 1024,
 .source = "models/auto/configuration_auto.py L52, modeling_auto.py L237; "
           "models/gpt2/modeling_gpt2.py L491, L574 (transformers 5.23.0)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_gpt2.py L79-82 (transformers 5.23.0)"},

/* ---- gpt2: learned absolute wpe, offset 0.
 * models/gpt2/modeling_gpt2.py @e2412028 L549-565, L648-657;
 * configuration_gpt2.py @3f832360 L125-138. */
{.model_type = "gpt2", .arch = "GPT2", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 1024,
 .source = "models/gpt2/modeling_gpt2.py @e2412028 L549-565, L648-657",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_gpt2.py L79-82 (transformers 5.23.0)"},

/* ---- gpt_bigcode (StarCoder 1, SantaCoder): learned absolute wpe, offset 0
 * (wpe rows n_positions, position_ids 0.. plus the cache length); the
 * attention's q/k carry no position. transformers 5.23.0
 * models/gpt_bigcode/modeling_gpt_bigcode.py L375, L436-439, L470;
 * configuration_gpt_bigcode.py L52-63 (attribute_map, n_positions 1024, n_embd
 * 768, n_layer 12, n_head 12). */
{.model_type = "gpt_bigcode", .arch = "GPTBigCode", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 1024,
 .source = "models/gpt_bigcode/modeling_gpt_bigcode.py L375, L436-439, L470; "
           "configuration_gpt_bigcode.py L52-63 (transformers 5.23.0)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_gpt_bigcode.py L60-63 (transformers 5.23.0)"},

/* ---- gpt_neo: GPT-2's learned wpe, offset 0 (position_ids 0.. plus the
 * cache length); the "local" layers differ from the "global" ones only by
 * a window mask (window_size), not by position. GPTNeoConfig attribute_map:
 * num_hidden_layers -> num_layers, num_attention_heads -> num_heads.
 * transformers 5.23.0 models/gpt_neo/modeling_gpt_neo.py L62-67 (local
 * mask), L384, L451-454, L464-465; configuration_gpt_neo.py L50-58 (hidden
 * 2048, 24 layers, 16 heads, 2048 positions). */
{.model_type = "gpt_neo", .arch = "GPTNeo", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 2048, .default_heads = 16, .default_positions = 2048,
 .source = "models/gpt_neo/modeling_gpt_neo.py L62-67, L384, L451-465; "
           "configuration_gpt_neo.py L50-58 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_layers",
 .nonnull_source = "configuration_gpt_neo.py L53-55 (transformers 5.23.0)"},

/* ---- gpt_neox: rotate_half over the first int(head_dim * rotary_pct)
 * elements (rotary_pct 0.25), base rotary_emb_base 10000.
 * models/gpt_neox/configuration_gpt_neox.py (partial_rotary_factor =
 * rotary_pct, rope_theta = rotary_emb_base). */
{.model_type = "gpt_neox", .arch = "GPTNeoX", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_key = "rotary_pct", .partial_default = 0.25, .base_key = "rotary_emb_base",
 .base_default = 10000.0,
 .source = "models/gpt_neox/configuration_gpt_neox.py (rotary_pct, rotary_emb_base)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_gpt_neox.py L62-70 (transformers 5.23.0)"},

/* ---- gpt_neox_japanese: GPT-NeoX's rotate_half (HALF) over the first
 * int(head_size * rotary_pct) elements, but rotary_pct defaults to 1.0 (not
 * gpt_neox's 0.25); base rotary_emb_base (10000). */
{.model_type = "gpt_neox_japanese", .arch = "GPTNeoXJapanese", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .partial_key = "rotary_pct", .base_key = "rotary_emb_base",
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .source = "models/gpt_neox_japanese/modeling_gpt_neox_japanese.py L82-85, L103-151, L186-194 "
           "(5.23.0); configuration_gpt_neox_japanese.py L49-76",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_gpt_neox_japanese.py L49-54 (transformers 5.23.0)"},

/* ---- gpt_oss: _apply_rotary_emb on torch.chunk(x, 2) halves: HALF, full
 * head; one rotary for sliding and full layers.
 * models/gpt_oss/modular_gpt_oss.py @b8f055a8 (GptOssRotaryEmbedding,
 * _apply_rotary_emb). */
{.model_type = "gpt_oss", .rotary = WHOLE_HEAD, .arch = "GptOss", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/gpt_oss/modular_gpt_oss.py @b8f055a8 (_apply_rotary_emb)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_gpt_oss.py L50-62 (transformers 5.23.0)"},

/* ---- gptj: rotate_every_two (interleaved) on the first rotary_dim elements,
 * base 10000 fixed (create_sinusoidal_positions). models/gptj/modeling_gptj.py
 * (rotate_every_two, create_sinusoidal_positions). */
{.model_type = "gptj", .arch = "GPTJ", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_DIM_KEY, .base_key = FIXED_BASE, .base_default = 10000.0,
 .source = "models/gptj/modeling_gptj.py (rotate_every_two, create_sinusoidal_positions)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_gptj.py L53-56 (transformers 5.23.0)"},

/* ---- gradium_phonon_tts (Gradium Phonon TTS backbone): rotate_half (HALF)
 * over the whole head, the rope block's theta (class default_theta 10000,
 * modeling_rope_utils.py L760), head_dim null: hidden / heads. The flow
 * head's sinusoid embeds flow times, not token positions. transformers 5.23.0
 * models/gradium_phonon_tts/modeling_gradium_phonon_tts.py L76-106,
 * L189, L340-384, L502; configuration_gradium_phonon_tts.py L143-154,
 * L182-186 (768 hidden, 6 layers, 12 heads). */
{.model_type = "gradium_phonon_tts", .rotary = WHOLE_HEAD, .arch = "GradiumPhononTTS", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 6, .default_hidden = 768,
 .default_heads = 12,
 .source = "models/gradium_phonon_tts/modeling_gradium_phonon_tts.py L76-106, L189, L340-384, "
           "L502; configuration_gradium_phonon_tts.py L143-186 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_gradium_phonon_tts.py L143-156 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_gradium_phonon_tts.py L373")},

/* ---- granite: llama's RoPE (HALF, full head). */
{.model_type = "granite", .rotary = WHOLE_HEAD, .arch = "Granite", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/granite/modeling_granite.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granite.py L65-71 (transformers 5.23.0)"},

WRAPPER("granite4_vision", "Granite4Vision", ROPE, "text_config", "granite4_vision_text", "models/granite4_vision/configuration_granite4_vision.py L123-142 (transformers 5.23.0)"),

/* ---- granite4_vision (Granite 4 Vision): a wrapper (text_config
 * granite4_vision_text); the text model is Granite's: llama's rotate_half
 * RoPE (HALF, full head = hidden_size / heads) on every layer (the
 * multipliers scale embeddings, residuals and the softmax, not positions);
 * rope_theta the mixin's 10000. transformers 5.23.0
 * models/granite4_vision/modeling_granite4_vision.py L213-245, L260-290,
 * L331-373; configuration_granite4_vision.py L45-95, L123-142. */
{.model_type = "granite4_vision_text", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/granite4_vision/modeling_granite4_vision.py L213-245, L260-290, L331-373; "
           "configuration_granite4_vision.py L45-95 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granite4_vision.py L68-74 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granite4_vision.py L246")},

WRAPPER("granite_docling", "GraniteDocling", ROPE, "text_config", "granite_docling_text", "models/granite_docling/configuration_granite_docling.py L171-177 (transformers 5.23.0)"),

/* ---- granite_docling (Granite Docling): a wrapper (text_config
 * granite_docling_text); the text model is Granite's: llama's rotate_half
 * RoPE (HALF, full head = hidden_size / heads) on every layer; rope_theta the
 * mixin's 10000. transformers 5.23.0
 * models/granite_docling/modeling_granite_docling.py L117-150, L188-230,
 * L375-405; configuration_granite_docling.py L105-160, L171-177. */
{.model_type = "granite_docling_text", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 28, .default_hidden = 1024, .default_heads = 16,
 .source = "models/granite_docling/modeling_granite_docling.py L117-150, L188-230, L375-405; "
           "configuration_granite_docling.py L105-160 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granite_docling.py L127-133 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granite_docling.py L408")},
WRAPPER("granite_speech", NULL, ROPE, "text_config", "granite", "models/granite_speech/configuration_granite_speech.py L114 (text_config default granite; transformers 5.23.0)"),
WRAPPER("granite_speech_plus", NULL, ROPE, "text_config", "granite", "models/granite_speech_plus/configuration_granite_speech_plus.py L125 (text_config default granite; transformers 5.23.0)"),

/* ---- granite_swa, granitemoe_swa: Granite's RoPE (llama's rotate_half,
 * HALF, full head = hidden_size / heads) with a base per layer:
 * layer_rope_theta (0: that layer NoPE; absent: rope_theta on every layer),
 * one rotary per distinct base (quirk_granite_swa, config_quirks.c, cites
 * the lines); layer_types only choose masks. GraniteSWAConfig: 24 layers,
 * hidden 2560, 20 heads, rope_theta default_theta 10000. transformers 5.23.0
 * models/granite_swa/modeling_granite_swa.py L45-80, L120-175, L329-460;
 * configuration_granite_swa.py L28-48, L73-122;
 * models/granitemoe_swa/modeling_granitemoe_swa.py L125-160, L200-255,
 * L494-570; configuration_granitemoe_swa.py L30-50, L77-127 (32 layers,
 * hidden 4096, 32 heads). */
{.model_type = "granite_swa", .rotary = WHOLE_HEAD, .arch = "GraniteSWA", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 24, .default_hidden = 2560, .default_heads = 20,
 .quirks = &quirk_granite_swa,
 .source = "models/granite_swa/modeling_granite_swa.py L45-80, L120-175, L329-460 (5.23.0); "
           "configuration_granite_swa.py L28-122",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granite_swa.py L78-84 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granite_swa.py L362")},

/* ---- granitemoe, granitemoeshared: granite's RoPE (llama's rotate_half,
 * HALF, full head); attention_multiplier is the softmax scale, not a factor
 * on q. transformers 5.23.0 models/granitemoe/modeling_granitemoe.py L192-226,
 * L270-272; configuration_granitemoe.py L60-63;
 * models/granitemoeshared/modeling_granitemoeshared.py L195-229, L273-275;
 * configuration_granitemoeshared.py L71-74. */
{.model_type = "granitemoe", .rotary = WHOLE_HEAD, .arch = "GraniteMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/granitemoe/modeling_granitemoe.py L192-226, L270-272 (5.23.0); "
           "configuration_granitemoe.py L60-63",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granitemoe.py L60-66 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granitemoe.py L99")},

/* granitemoe_swa: see granite_swa above. */
{.model_type = "granitemoe_swa", .rotary = WHOLE_HEAD, .arch = "GraniteMoeSWA", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .quirks = &quirk_granite_swa,
 .source = "models/granitemoe_swa/modeling_granitemoe_swa.py L125-160, L200-255, L494-570 "
           "(5.23.0); configuration_granitemoe_swa.py L30-127",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granitemoe_swa.py L78-84 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granitemoe_swa.py L468")},

/* ---- granitemoehybrid (Granite 4.0-H): Mamba 2 layers and attention
 * layers (layer_types, legacy names "mamba" and "attention"; default all
 * mamba); the attention rotate_half RoPE when position_embedding_type is
 * "rope", else (null, "nope") no RoPE at all. transformers 5.23.0
 * models/granitemoehybrid/configuration_granitemoehybrid.py L54, L94-95,
 * L116-117 (rope_theta default 10000: modeling_rope_utils.py L760);
 * modeling_granitemoehybrid.py L51-59, L124, L167 (RoPE only
 * with position embeddings), L956-960, L1056 (rotary_emb only for "rope");
 * configuration_utils.py L94-96 (legacy names). */
{.model_type = "granitemoehybrid", .arch = "GraniteMoeHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_MAMBA,
 .quirks = &quirk_granitemoehybrid,
 .source = "models/granitemoehybrid/configuration_granitemoehybrid.py L54, L94-95, L116-117; "
           "modeling_granitemoehybrid.py L124, L167, L956-960, L1056 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granitemoehybrid.py L68-74 (transformers 5.23.0)"},

{.model_type = "granitemoeshared", .rotary = WHOLE_HEAD, .arch = "GraniteMoeShared", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/granitemoeshared/modeling_granitemoeshared.py L195-229, L273-275 "
           "(5.23.0); configuration_granitemoeshared.py L71-74",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_granitemoeshared.py L71-77 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_granitemoeshared.py L445")},

WRAPPER("groupvit", NULL, LEARNED, "text_config", "groupvit_text_model", "models/groupvit/configuration_groupvit.py L135 (transformers 5.23.0)"),

/* ---- groupvit_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/groupvit/modeling_groupvit.py L422-457;
 * configuration_groupvit.py L43-58 (hidden 256, 12 layers, 4 heads, 77
 * positions). */
{.model_type = "groupvit_text_model", .arch = "GroupViTText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 256, .default_heads = 4,
 .default_positions = 77,
 .source = "models/groupvit/modeling_groupvit.py L422-457; "
           "configuration_groupvit.py L43-58 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_groupvit.py L47-51 (transformers 5.23.0)"},

/* ---- gte (encoder): llama's rotate_half (HALF, full head), default_theta
 * 160000. */
{.model_type = "gte", .rotary = WHOLE_HEAD, .arch = "Gte", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 160000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/gte/modeling_gte.py L114-115, L133-163, L201, L226 (5.23.0); "
           "configuration_gte.py L50-67",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_gte.py L50-57 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_gte.py L119")},

/* ---- helium: GLM's interleaved pairs (rotate_half on 0::2, 1::2; cos/sin
 * repeat_interleave(2)), full head, head_dim 128, default_theta 100000. */
{.model_type = "helium", .rotary = WHOLE_HEAD, .arch = "Helium", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 100000.0, .default_layers = 24, .default_hidden = 2560, .default_heads = 20,
 .default_head_dim = 128,
 .source = "models/helium/modeling_helium.py L163-200, L208 (5.23.0); configuration_helium.py "
           "L42, L59-64",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_helium.py L59-67 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_helium.py L96")},

/* ---- higgs_audio_v2 (Higgs Audio v2): llama's rotate_half (HALF, whole
 * head_dim 128) in every layer (the audio tokens take their own MLP and norms,
 * not their own positions). Without a rope block the config class fills in
 * llama3 scaling (factor 32, theta 500000, low 0.125, high 0.5, original 1024)
 * and a rope_theta beside it is unread: refused. A block without rope_theta
 * takes default_theta 10000. */
{.model_type = "higgs_audio_v2", .rotary = WHOLE_HEAD, .arch = "HiggsAudioV2", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 28, .default_hidden = 3072,
 .default_heads = 24, .default_head_dim = 128, .flags = POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/higgs_audio_v2/modeling_higgs_audio_v2.py L83-113, L196, L333-377, L529; "
           "configuration_higgs_audio_v2.py L76-119 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_higgs_audio_v2.py L77-83 (transformers 5.23.0)"},

/* ---- hrm_text (HRM): llama's rotate_half RoPE (HALF, full head, head_dim
 * 128), one rotary_emb for every attention call of both recurrent stacks;
 * num_hidden_layers counts the attention calls (HrmTextConfig.__post_init__
 * rewrites it to num_layers_per_stack * H_cycles * (L_cycles + 1)), so the key
 * is required here; rope_theta the mixin's 10000. */
{.model_type = "hrm_text", .rotary = WHOLE_HEAD, .arch = "HrmText", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_hidden = 1536, .default_heads = 12, .default_head_dim = 128,
 .source = "models/hrm_text/modeling_hrm_text.py L79-110, L157, L204, L344-375, L399, L467 "
           "(5.23.0); modular_hrm_text.py L50-130",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_hrm_text.py L75-92 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_hrm_text.py L377")},

/* ---- hunyuan (Hunyuan-A13B's remote code: auto_map hunyuan.py, whose
 * decoder layers come from modeling_hunyuan.py; Tencent-Hunyuan/Hunyuan-A13B
 * @2798f3c8, the file last changed in df832ebc): head_dim = hidden_size //
 * heads (L544; attention_head_dim is not read), rotate_half over the whole
 * head (L372-404), RoPE then the query/key layernorms (L676-680, L787-791,
 * L988-992 in the eager, flash and sdpa attentions). _init_rope (L572-606):
 * no rope_scaling, base rope_theta (configuration_hunyuan.py L136, default
 * 10000); else type, factor and alpha are all read (a missing one raises):
 * "linear" divides positions by factor (L298-315); "dynamic" with a non-zero
 * alpha is static NTK-alpha, base * alpha^(d/(d-2)) at every length
 * (L346-370), and with alpha 0 or null dynamic NTK past
 * max_position_embeddings (L317-344); any other type raises. Nothing reads
 * the block's beta_fast, beta_slow, mscale or mscale_all_dim (A13B's config
 * has them): ignored. */
{.model_type = "hunyuan", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .scaling_types = "linear dynamic", .scaling_unread = "beta_fast beta_slow mscale mscale_all_dim",
 .flags = POSENC_FAMILY_NTK_ALPHA,
 .source = "Tencent-Hunyuan/Hunyuan-A13B models/modeling_hunyuan.py @2798f3c8 L260-404, "
           "L544, L572-606, L676-680; configuration_hunyuan.py L136"},

/* ---- hunyuan_v1_dense, hunyuan_v1_moe: llama's rotate_half (HALF, full
 * head), then the query/key layernorms on the rotated q and k; rope_theta
 * 10000 (the mixin's default_theta, modeling_rope_utils.py L760). head_dim
 * null: hidden_size / heads (the rotary's "or"; the attention's getattr
 * would take None). A "dynamic" block with alpha (Hunyuan-A13B's
 * checkpoints) is ntk_alpha: base * alpha^(d/(d-2)) at every length,
 * posenc's "ntk" with factor alpha. transformers 5.23.0
 * models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py L82-115 (rotate_half,
 * apply_rotary_pos_emb), L160, L195-198 (RoPE, then the layernorms),
 * L287-355 (rotary, ntk_alpha); configuration_hunyuan_v1_dense.py L37-56;
 * models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py L81-114, L159;
 * configuration_hunyuan_v1_moe.py L52-75. */
{.model_type = "hunyuan_v1_dense", .rotary = WHOLE_HEAD, .arch = "HunYuanDenseV1", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .flags = POSENC_FAMILY_NTK_ALPHA,
 .source = "models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py L82-115, L160, L195-198, "
           "L287-355 (5.23.0); configuration_hunyuan_v1_dense.py L37-56",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_hunyuan_v1_dense.py L37-43 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_hunyuan_v1_dense.py L327")},

{.model_type = "hunyuan_v1_moe", .rotary = WHOLE_HEAD, .arch = "HunYuanMoEV1", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .flags = POSENC_FAMILY_NTK_ALPHA,
 .source = "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py L81-114, L159 (5.23.0); "
           "configuration_hunyuan_v1_moe.py L52-75",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_hunyuan_v1_moe.py L52-58 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_hunyuan_v1_moe.py L411")},

/* ---- hunyuan_vl, hunyuan_vl_text (HunYuan VL / HunyuanOCR): refused. The
 * language model is HunYuan Dense V1's (rotate_half, then the q/k
 * layernorms, ntk_alpha), but its rotary is XD-RoPE: position_ids carry one
 * row per entry of rope_parameters.mrope_section (legacy xdrope_section, any
 * number of axes: HunyuanOCR's four), and the k-th chunk of the doubled
 * frequencies takes axis k % n; the class defaults have no section, and the
 * rotary's len(mrope_section) then fails. The chunks are cut from the
 * duplicated cos/sin (split sizes 2 s_i over cat(freq, freq), L162-170), so
 * the two elements of a half-layout pair, x[k] and x[k + P], take their
 * angles from different axes (HunyuanOCR's [16, 16, 16, 16], head_dim 128:
 * x[k] from axis k // 32, x[k + 64] from axis 2 + k // 32): with distinct
 * axes that is no rotation (a pair's norm changes; only text positions,
 * every axis equal, give plain RoPE), and no per-pair M-RoPE rule of
 * posenc's, with 3 axes or more, expresses it (checked against the module
 * in tests/hf/test_mrope2_hf.py). Growing posenc_mrope_axis to four would
 * not help, and would change posenc_mrope's public layout (section[3]) and
 * every three-row position API. transformers 5.23.0 models/hunyuan_vl/modeling_hunyuan_vl.py L83-170,
 * L452-541, L770-790; configuration_hunyuan_vl.py L106-204, L261-267. */
REFUSED("hunyuan_vl", "HunYuanVL", ROPE, HALF,
        "HunYuan VL's XD-RoPE (mrope_section / xdrope_section over any number of position "
        "axes, chunk k of the doubled cos/sin taking axis k % n, so the two elements of a "
        "pair follow different axes: no rotation posenc's M-RoPE expresses) is not "
        "implemented",
        "models/hunyuan_vl/modeling_hunyuan_vl.py L83-170, L452-541, L770-790 (transformers "
        "5.23.0); configuration_hunyuan_vl.py L106-204, L261-267"),
REFUSED("hunyuan_vl_text", NULL, ROPE, HALF,
        "HunYuan VL's XD-RoPE (mrope_section / xdrope_section over any number of position "
        "axes, chunk k of the doubled cos/sin taking axis k % n, so the two elements of a "
        "pair follow different axes: no rotation posenc's M-RoPE expresses) is not "
        "implemented",
        "models/hunyuan_vl/modeling_hunyuan_vl.py L83-170, L452-541, L770-790 (transformers "
        "5.23.0); configuration_hunyuan_vl.py L106-204"),

/* ---- hy_v3: llama's rotate_half (HALF, full head), head_dim 128,
 * default_theta 11158840. */
{.model_type = "hy_v3", .rotary = WHOLE_HEAD, .arch = "HYV3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 11158840.0, .default_layers = 80, .default_hidden = 4096, .default_heads = 64,
 .default_head_dim = 128,
 .source = "models/hy_v3/modeling_hy_v3.py L128-158, L206, L245 (5.23.0); configuration_hy_v3.py "
           "L48, L82-87",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_hy_v3.py L82-89 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_hy_v3.py L98")},

/* ---- hy_v4 (HY V4): refused. DeepSeek's MLA with half-split RoPE
 * (apply_rotary_pos_emb, rotate_half) on the qk_rope_head_dim part, and a
 * DeepSeek Sparse Attention indexer that rotates, half-split, the LAST
 * qk_rope_head_dim elements of its index_head_dim heads (q split [pass,
 * rot]), where posenc's indexer reading (DeepSeek V3.2's) rotates the first.
 * transformers 5.23.0 models/hy_v4/modeling_hy_v4.py L76-130, L156-235
 * (HYV4Indexer: L224-230 the split), L319-425 (HYV4Attention);
 * modular_hy_v4.py L58-130 (HYV4Config). */
REFUSED("hy_v4", "HYV4", ROPE, HALF,
        "HY V4's indexer RoPE on the last qk_rope_head_dim elements of its heads "
        "(posenc's DeepSeek Sparse Attention indexer rotates the first) is not implemented",
        "models/hy_v4/modeling_hy_v4.py L76-130, L156-235, L319-425 (transformers 5.23.0); "
        "modular_hy_v4.py L58-130"),

/* ---- hyperclovax: llama's rotate_half (HALF, full head), head_dim 128,
 * rope_theta 10000. */
{.model_type = "hyperclovax", .rotary = WHOLE_HEAD, .arch = "HyperCLOVAX", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128,
 .source = "models/hyperclovax/modeling_hyperclovax.py L110-140, L188, L223 (5.23.0); "
           "configuration_hyperclovax.py L80-105",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_hyperclovax.py L80-86 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_hyperclovax.py L96")},
WRAPPER("hyperclovax_vision_v2", NULL, ROPE, "text_config", "hyperclovax", "models/hyperclovax_vision_v2/configuration_hyperclovax_vision_v2.py L48 (text_config default hyperclovax; transformers 5.23.0)"),

/* ---- ibert: RoBERTa's embeddings as QuantEmbedding tables (the plain
 * table when quant_mode is false, its integer copy when true): positions
 * from padding_idx + 1, padding_idx = pad_token_id (default 1).
 * transformers 5.23.0 models/ibert/modeling_ibert.py L46-161
 * (IBertEmbeddings: L76-82 table, L101-108 positions, L131 read);
 * configuration_ibert.py L43-57. */
{.model_type = "ibert", .arch = "IBert", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512, .pos_offset = -1,
 .source = "models/ibert/modeling_ibert.py L46-161; configuration_ibert.py L43-57 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ibert.py L43-50 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_ibert.py L1166 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- idefics (IDEFICS): llama's rotate_half (HALF) over the whole head
 * (hidden_size / heads) in the decoder layers' self-attention; the gated
 * cross-attention blocks before every cross_layer_interval-th layer attend to
 * image features without rotary (not counted in num_hidden_layers). */
{.model_type = "idefics", .arch = "Idefics", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/idefics/modeling_idefics.py L359-430, L484-612, L634-700, L901-902, "
           "L1055-1056 (transformers 5.23.0); configuration_idefics.py L131-148",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_idefics.py L131-156 (transformers 5.23.0)"},
WRAPPER("idefics2", NULL, ROPE, "text_config", "mistral", "models/idefics2/configuration_idefics2.py L117-119 (text_config default mistral; transformers 5.23.0)"),

WRAPPER("idefics3", NULL, ROPE, "text_config", "llama", "models/idefics3/configuration_idefics3.py L81 (text_config default llama; transformers 5.23.0)"),

/* ---- imagegpt: GPT-2's learned wpe over the raster of colour-cluster
 * tokens, offset 0 (position_ids 0.. plus the cache length). ImageGPTConfig
 * attribute_map: max_position_embeddings -> n_positions, hidden_size ->
 * n_embd. transformers 5.23.0 models/imagegpt/modeling_imagegpt.py L400,
 * L499-502, L509-510; configuration_imagegpt.py L49-60 (n_positions 1024,
 * n_embd 512, 24 layers, 8 heads). */
{.model_type = "imagegpt", .arch = "ImageGPT", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 512, .default_heads = 8, .default_positions = 1024,
 .source = "models/imagegpt/modeling_imagegpt.py L400, L499-510; configuration_imagegpt.py "
           "L49-60 (transformers 5.23.0)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_imagegpt.py L57-60 (transformers 5.23.0)"},

/* ---- inkling_mm_model, inkling_text, inkling2, inkling2_text: refused. The
 * attention has no RoPE: it adds relative-position logits projected from the
 * hidden states (r_proj to d_rel = 16, InklingRelativeLogits over rel_extent,
 * the window on sliding layers), scaled on full layers by 1 + alpha *
 * log(max((q + 1) / log_scaling_n_floor, 1)), and runs short convolutions
 * over k and v. transformers 5.23.0 models/inkling/modeling_inkling.py
 * L187-280; configuration_inkling.py L76-150; models/inkling2/
 * modular_inkling2.py L444-611. */
REFUSED("inkling2", "Inkling2", MIXED, HALF,
        "Inkling's attention adds relative-position logits projected from the hidden states "
        "(r_proj, d_rel, rel_extent) with log scaling, and convolves k and v; not implemented",
        "models/inkling2/modular_inkling2.py L444-611 (transformers 5.23.0)"),

REFUSED("inkling2_text", NULL, MIXED, HALF,
        "Inkling's attention adds relative-position logits projected from the hidden states "
        "(r_proj, d_rel, rel_extent) with log scaling, and convolves k and v; not implemented",
        "models/inkling2/modular_inkling2.py L444-611 (transformers 5.23.0)"),

REFUSED("inkling_mm_model", "Inkling", MIXED, HALF,
        "Inkling's attention adds relative-position logits projected from the hidden states "
        "(r_proj, d_rel, rel_extent) with log scaling, and convolves k and v; not implemented",
        "models/inkling/modeling_inkling.py L187-280 (transformers 5.23.0)"),

REFUSED("inkling_text", NULL, MIXED, HALF,
        "Inkling's attention adds relative-position logits projected from the hidden states "
        "(r_proj, d_rel, rel_extent) with log scaling, and convolves k and v; not implemented",
        "models/inkling/modeling_inkling.py L187-280 (transformers 5.23.0)"),
WRAPPER("instructblip", NULL, LEARNED, "text_config", "opt", "models/instructblip/configuration_instructblip.py L146 (text_config default opt; transformers 5.23.0)"),
WRAPPER("instructblipvideo", NULL, LEARNED, "text_config", "opt", "models/instructblipvideo/configuration_instructblipvideo.py L150 (text_config default opt; transformers 5.23.0)"),

/* ---- internlm (InternLM 1, 7B / 20B remote code): refused. Its
 * modeling_internlm.py changed between revisions: the first builds
 * InternLMRotaryEmbedding(head_dim) with its default base 10000, reading no
 * key at all (yangulei/internlm-20b @5d2ec530 modeling_internlm.py L95-131,
 * L170, L182, rotate_half over the whole head; the same in
 * Pentahill/llm-example @278e340b L94-130, L169); later ones read
 * config.rotary = {"base", "type": "origin" | "dynamic", "scaling_factor"}
 * (_init_rope; InternLMDynamicNTKScalingRotaryEmbedding), whose config-class
 * default is {"base": 10000, "type": "dynamic"} (stored copies:
 * configuration_internlm.py id 68712516215, a port of modeling_internlm.py id
 * 7010578984). A config.json without "rotary" (InternLM-7B's) is plain RoPE
 * under the first and dynamic NTK past max_position_embeddings under the
 * later ones; posenc cannot tell which code a checkpoint ships and reads no
 * rotary block. */
REFUSED("internlm", "InternLM", ROPE, HALF,
        "InternLM 1's remote code changed between revisions: the first fixes RoPE base "
        "10000 and reads no key, later ones read a rotary block {base, type origin|dynamic} "
        "defaulting to dynamic NTK; a config without rotary means either, and posenc "
        "reads no rotary block",
        "yangulei/internlm-20b modeling_internlm.py @5d2ec530 L95-131, L170, L182; "
        "later revisions: rotary {base, type} (_init_rope)"),

/* ---- internlm2 (remote code): rotate_half with cat(freqs, freqs), full
 * head, base rope_theta. NanSang2000/S1mpleAgent modeling_internlm2.py
 * @0143463e (rotate_half, InternLM2RotaryEmbedding). */
{.model_type = "internlm2", .arch = "InternLM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "internlm2 modeling_internlm2.py @0143463e (copy: NanSang2000/S1mpleAgent)"},

/* ---- internlm3: built as LlamaModel (models/auto/modeling_auto.py L294,
 * L858): llama's RoPE; InternLM3Config(LlamaConfig) head_dim 128.
 * transformers 5.23.0 models/internlm3/modular_internlm3.py L24, L57-61;
 * configuration_internlm3.py L64-87. */
{.model_type = "internlm3", .rotary = WHOLE_HEAD, .arch = "InternLM3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 48, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128,
 .source = "models/internlm3/configuration_internlm3.py L64-87 (5.23.0); LlamaModel "
           "(auto/modeling_auto.py L294)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_internlm3.py L64-70 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_llama.py L105")},

WRAPPER("internvl", NULL, ROPE, "text_config", "qwen2", "models/internvl/configuration_internvl.py L110 (text_config default qwen2; transformers 5.23.0)"),
WRAPPER("internvl_chat", "InternVLChat", ROPE, "llm_config", NULL, "OpenGVLab/InternVL internvl_chat configuration_internvl_chat.py, modeling_internvl_chat.py (language_model from llm_config)"),

/* ---- iquestcoder: built as LlamaModel (models/auto/modeling_auto.py L297,
 * L859): llama's RoPE; IQuestCoderConfig(LlamaConfig) head_dim 128.
 * transformers 5.23.0 models/iquestcoder/configuration_iquestcoder.py
 * L63-82; modular_iquestcoder.py L24. */
{.model_type = "iquestcoder", .rotary = WHOLE_HEAD, .arch = "IQuestCoder", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 80, .default_hidden = 5120, .default_heads = 40,
 .default_head_dim = 128,
 .source = "models/iquestcoder/configuration_iquestcoder.py L63-82 (5.23.0); LlamaModel "
           "(auto/modeling_auto.py L297)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_iquestcoder.py L64-70 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_llama.py L105")},

/* ---- jais2: llama's rotate_half (HALF, full head), head_dim 128, rope_theta
 * 10000. */
{.model_type = "jais2", .rotary = WHOLE_HEAD, .arch = "Jais2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 3328, .default_heads = 26,
 .default_head_dim = 128,
 .source = "models/jais2/modeling_jais2.py L57-87, L135, L170 (5.23.0); configuration_jais2.py "
           "L64-81",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_jais2.py L64-70 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_jais2.py L290")},

/* ---- jamba: attention every attn_layer_period layers at attn_layer_offset
 * (8, 4), Mamba elsewhere; the attention has no RoPE (JambaAttention never
 * calls apply_rotary_pos_emb): no layer encodes positions. transformers
 * 5.23.0 models/jamba/configuration_jamba.py L89-90, L108-113
 * (layers_block_type); modeling_jamba.py L153-200 (JambaAttention, no
 * rotary), L831-844. */
{.model_type = "jamba", .arch = "Jamba", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_MAMBA_NOPE, .period_key = "attn_layer_period",
 .offset_key = "attn_layer_offset", .kinds_period = 8, .kinds_offset = 4,
 .source = "models/jamba/configuration_jamba.py L89-90, L108-113; modeling_jamba.py L153-200, "
           "L831-844 (transformers 5.23.0)",
 .nonnull = "attn_layer_offset attn_layer_period hidden_size max_position_embeddings "
            "num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_jamba.py L69-90 (transformers 5.23.0)"},
WRAPPER("janus", NULL, ROPE, "text_config", "llama", "models/janus/configuration_janus.py L130 (text_config default llama; transformers 5.23.0)"),

/* ---- jetmoe: llama's rotate_half (HALF, full head) on the mixture-of-
 * attention queries and the shared keys; head_dim is kv_channels (default
 * 128; attribute_map head_dim -> kv_channels); num_attention_heads =
 * num_key_value_heads * num_experts_per_tok. transformers 5.23.0
 * models/jetmoe/modeling_jetmoe.py L343-373 (rotate_half,
 * apply_rotary_pos_emb), L445, L470; configuration_jetmoe.py L48-54,
 * L75-76. */
{.model_type = "jetmoe", .rotary = WHOLE_HEAD, .arch = "JetMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .head_dim_key = "kv_channels", .default_layers = 12,
 .default_hidden = 2048, .default_head_dim = 128,
 .source = "models/jetmoe/modeling_jetmoe.py L343-373, L445, L470 (5.23.0); "
           "configuration_jetmoe.py L48-54, L75-76",
 .nonnull = "hidden_size kv_channels max_position_embeddings num_hidden_layers",
 .nonnull_source = "configuration_jetmoe.py L51-56 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_jetmoe.py L101")},
WRAPPER("jev", NULL, MIXED, "text_config", "qwen3_5_text", "models/jev/configuration_jev.py L121 (text_config default qwen3_5_text; transformers 5.23.0)"),

/* ---- jina_embeddings_v3 (encoder): llama's rotate_half (HALF, full head),
 * default_theta 20000. */
{.model_type = "jina_embeddings_v3", .rotary = WHOLE_HEAD, .arch = "JinaEmbeddingsV3", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 20000.0, .default_layers = 24, .default_hidden = 1024,
 .default_heads = 16,
 .source = "models/jina_embeddings_v3/modeling_jina_embeddings_v3.py L117-118, L136-166, L204, "
           "L229 (5.23.0); configuration_jina_embeddings_v3.py L51-69",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_jina_embeddings_v3.py L51-58 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_jina_embeddings_v3.py L122")},

/* ---- kimi_k2 (Kimi K2 remote code): DeepSeek V3's model under its own
 * model_type ("Kimi-K2 reuses the DeepseekV3CausalLM architecture ... we set
 * model_type kimi_k2 in config.json", MoonshotAI/Kimi-K2 README.md; the
 * checkpoints' architectures are DeepseekV3ForCausalLM): read as
 * deepseek_v3 (MLA, the qk_rope_head_dim part interleaved; YaRN with
 * beta_fast == beta_slow as transformers computes it, src/math/scaling.c). */
{.model_type = "kimi_k2", .arch = NULL, MLA_ROPE,
 .source = "MoonshotAI/Kimi-K2 README.md (DeepseekV3CausalLM, model_type kimi_k2); "
           "models/deepseek_v3/modeling_deepseek_v3.py @9bd8dd18"},

WRAPPER("kimi_k25", NULL, ROPE, "text_config", "deepseek_v3", "models/kimi_k25/configuration_kimi_k25.py L69 (text_config default deepseek_v3; transformers 5.23.0)"),

/* ---- kimi_linear: Kimi Delta Attention (linear) layers and MLA layers
 * whose rotary part is never rotated (KimiLinearAttention splits k_rot and
 * calls no rotary function): no layer encodes positions. layer_types, else
 * linear_attn_config.full_attn_layers (1-based, the rest KDA layers); the
 * class's own default (full where i and i % 4 == 0) is written out by
 * to_dict. transformers 5.23.0 models/kimi_linear/configuration_kimi_linear.py
 * L109, L123-141; modeling_kimi_linear.py L203-300 (KimiLinearAttention, no
 * rotary), L787-792. */
{.model_type = "kimi_linear", .arch = "KimiLinear", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_KIMI_LINEAR,
 .index_key = "linear_attn_config.full_attn_layers", .index_base = 1,
 .source = "models/kimi_linear/configuration_kimi_linear.py L109, L123-141; "
           "modeling_kimi_linear.py L203-300, L787-792 (transformers 5.23.0)",
 .nonnull = "hidden_size num_attention_heads num_hidden_layers qk_rope_head_dim",
 .nonnull_source = "configuration_kimi_linear.py L77-88 (transformers 5.23.0)"},

/* ---- kolibri1: EXAONE 4's attention (Exaone4Attention): q/k norms, then
 * rotate_half RoPE (HALF, full head, head_dim 128) only where sliding_window
 * is None or the layer is sliding; full layers NoPE. layer_types, else full
 * where (i + 1) % 5 == 0; rope_theta the mixin's 10000. */
{.model_type = "kolibri1", .rotary = WHOLE_HEAD, .arch = "Kolibri1", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 5, .default_layers = 50,
 .default_hidden = 2560, .default_heads = 48, .default_head_dim = 128,
 .flags = POSENC_FAMILY_ROPE_WITHOUT_WINDOW,
 .source = "models/kolibri1/modeling_kolibri1.py L66-95, L136-151, L182-183, L395-425 (5.23.0); "
           "configuration_kolibri1.py L41-104",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_kolibri1.py L74-95 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_kolibri1.py L428")},

/* ---- kosmos-2: its text model kosmos_2_text_model (text_config). */
WRAPPER("kosmos-2", "Kosmos2", SINUSOID, "text_config", "kosmos_2_text_model",
        "models/kosmos2/configuration_kosmos2.py L101-107 (transformers 5.23.0)"),

/* ---- kosmos-2.5: its text model kosmos_2_5_text_model (text_config). */
WRAPPER("kosmos-2.5", "Kosmos2_5", SINUSOID, "text_config", "kosmos_2_5_text_model",
        "models/kosmos2_5/configuration_kosmos2_5.py L111 (transformers 5.23.0)"),

/* ---- kosmos_2_5_text_model: Kosmos-2's text sinusoid (M2M100's fairseq
 * halves from padding_idx + 1 = pad_token_id + 1); embed_dim 1536, 24
 * layers, 4096 positions. Its forward then adds a learned segment_emb row
 * (row 0 for text, row 1 at image tokens; L961-973) into those vectors in
 * place: a weight, not a position rule, left out of the sinusoid posenc
 * gives. transformers 5.23.0
 * models/kosmos2_5/modeling_kosmos2_5.py L615-728, L889-960;
 * configuration_kosmos2_5.py L28-53. */
{.model_type = "kosmos_2_5_text_model", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1, .layers_key = "layers",
 .default_layers = 24, .embed_key = "embed_dim", .embed_default = 1536,
 .default_positions = 4096,
 .source = "models/kosmos2_5/modeling_kosmos2_5.py L615-728, L889-960; "
           "configuration_kosmos2_5.py L28-53 (transformers 5.23.0)",
 .nonnull = "embed_dim layers max_position_embeddings",
 .nonnull_source = "configuration_kosmos2_5.py L38-40 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_kosmos2_5.py L723 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- kosmos_2_text_model: Kosmos2TextSinusoidalPositionalEmbedding, M2M100's
 * fairseq halves read at positions from padding_idx + 1 = pad_token_id + 1
 * (L555-667, L911-916; image tokens take their places in the count);
 * embed_dim 2048, 24 layers, 2048 positions. transformers 5.23.0
 * models/kosmos2/modeling_kosmos2.py L555-667, L896-975;
 * configuration_kosmos2.py L28-53. */
{.model_type = "kosmos_2_text_model", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1, .layers_key = "layers",
 .default_layers = 24, .embed_key = "embed_dim", .embed_default = 2048,
 .default_positions = 2048,
 .source = "models/kosmos2/modeling_kosmos2.py L555-667, L896-975; configuration_kosmos2.py "
           "L28-53 (transformers 5.23.0)",
 .nonnull = "embed_dim layers max_position_embeddings",
 .nonnull_source = "configuration_kosmos2.py L38-40 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_kosmos2.py L663 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- kyutai_speech_to_text (Kyutai STT): Moshi's decoder code: every
 * layer built with use_rope=True rotates with rotate_half (HALF) over the
 * whole head (head_dim, else hidden_size / heads; no partial factor read),
 * rope_theta the mixin's 10000. models/kyutai_speech_to_text/
 * modeling_kyutai_speech_to_text.py L124-226, L269-326, L557-565;
 * configuration_kyutai_speech_to_text.py L60-88 (transformers 5.23.0). */
{.model_type = "kyutai_speech_to_text", .rotary = WHOLE_HEAD, .arch = "KyutaiSpeechToText",
 .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0, .default_layers = 48,
 .default_hidden = 2048, .default_heads = 32,
 .source = "models/kyutai_speech_to_text/modeling_kyutai_speech_to_text.py L124-226, "
           "L269-326, L557-565; configuration_kyutai_speech_to_text.py L60-88 (transformers "
           "5.23.0)",
 .nonnull = "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_kyutai_speech_to_text.py L63, L72 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_kyutai_speech_to_text.py L157")},

/* ---- laguna: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, one RoPE per layer type from
 * rope_parameters.full_attention / .sliding_attention (class defaults: full
 * theta 500000, factor 0.5; sliding theta 10000, factor 1); layer_types
 * default all full. head_dim 128. transformers 5.23.0
 * models/laguna/modeling_laguna.py L66-120 (per-type rotary), L241-284,
 * L333, L378, L566; configuration_laguna.py L93-145. */
{.model_type = "laguna", .arch = "Laguna", TYPE_SETS_ROPE, .default_layers = 40,
 .default_hidden = 2048, .default_heads = 48, .default_head_dim = 128,
 .source = "models/laguna/modeling_laguna.py L66-120, L241-284, L333, L378, L566 (5.23.0); "
           "configuration_laguna.py L93-145",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_laguna.py L93-119 (transformers 5.23.0)"},

/* ---- layoutlm: BERT's learned table at rows 0.. plus 2-D box tables (x, y,
 * h, w; max_2d_position_embeddings rows) read by each token's bbox; quirk.
 * transformers 5.23.0 models/layoutlm/modeling_layoutlm.py L48-122;
 * configuration_layoutlm.py L47-64 (12 layers, hidden 768, 512 positions). */
{.model_type = "layoutlm", .arch = "LayoutLM", .scheme = POSENC_SCHEME_LEARNED,
 .layers_key = "num_hidden_layers",
 .default_layers = 12, .default_hidden = 768, .default_positions = 512,
 .quirks = &quirk_layoutlm,
 .source = "models/layoutlm/modeling_layoutlm.py L48-122; configuration_layoutlm.py L47-64 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings "
            "max_2d_position_embeddings num_attention_heads",
 .nonnull_source = "configuration_layoutlm.py L48-63 (transformers 5.23.0)"},

/* ---- led (Longformer encoder-decoder): a learned table in each stack,
 * rows from 0 (no BART offset), sized by max_encoder_position_embeddings
 * and max_decoder_position_embeddings; quirk_led (config_quirks.c) has its
 * reading. */
{.model_type = "led", .arch = "LED", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC, .quirks = &quirk_led,
 .source = "models/led/modeling_led.py L72-86, L1264-1285, L1305-1330, L1423-1447, "
           "L1526-1532, L1667; configuration_led.py L50-83 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_decoder_position_embeddings "
            "max_encoder_position_embeddings",
 .nonnull_source = "configuration_led.py L59-72 (transformers 5.23.0)"},

/* ---- lfm2: short-convolution layers and attention layers (layer_types
 * "conv" / "full_attention", else full_attn_idxs, default every layer
 * attention); the attention rotate_half RoPE over the head, rope_theta 1e6.
 * transformers 5.23.0 models/lfm2/configuration_lfm2.py L56 (default_theta),
 * L59-62, L78-88 (layer_types from full_attn_idxs); modeling_lfm2.py
 * L131-139 (rotate_half), L209 (head_dim), L236, L387 (attention unless
 * "conv"). */
{.model_type = "lfm2", .rotary = WHOLE_HEAD, .arch = "Lfm2", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CONV, .index_key = "full_attn_idxs",
 .quirks = &quirk_lfm2,
 .source = "models/lfm2/configuration_lfm2.py L56-62, L78-88; modeling_lfm2.py L131-139, L209, "
           "L236, L387 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_lfm2.py L59-64 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_lfm2.py L97")},

/* ---- lfm2_moe: LFM2's layers with MoE MLPs; layer_types has no default
 * (None: the model cannot be built), rope_theta 1e6. transformers 5.23.0
 * models/lfm2_moe/configuration_lfm2_moe.py L61-77, L88;
 * modeling_lfm2_moe.py L216-224 (rotate_half), L321, L472. */
{.model_type = "lfm2_moe", .arch = "Lfm2Moe", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .default_hidden = 2048, .default_layers = 32, .default_heads = 32,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CONV,
 .source = "models/lfm2_moe/configuration_lfm2_moe.py L61-77, L88; modeling_lfm2_moe.py "
           "L216-224, L321, L472 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_lfm2_moe.py L64-77 (transformers 5.23.0)"},
WRAPPER("lfm2_vl", NULL, MIXED, "text_config", "lfm2", "models/lfm2_vl/configuration_lfm2_vl.py L36 (text_config default lfm2; transformers 5.23.0)"),

/* ---- lfm3 (LFM3): short convolution layers (no attention, no positions),
 * sliding and full attention layers (layer_types; the class default, full
 * where i % 4 == 2, sliding where i % 4 == 0 and i > 0, conv elsewhere, is
 * written out by to_dict, so a config without layer_types is refused); the
 * attention layers' q/k norms, then olmo's rotate_half over the whole head
 * (head_dim 128), one RoPE per layer type from rope_parameters.full_attention
 * / .sliding_attention (class default: full {proportional, 1e6, partial 0.5:
 * zero frequencies past the rotated pairs}, sliding {default, 10000}).
 * transformers 5.23.0 models/lfm3/modeling_lfm3.py L65-135 (per-type rotary,
 * conv has none), L138-170, L209-260, L341, L409-440;
 * configuration_lfm3.py L53-101; modeling_rope_utils.py L194-261
 * (proportional). */
{.model_type = "lfm3", .rotary = WHOLE_HEAD, .arch = "Lfm3", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 24, .default_hidden = 2048,
 .default_heads = 16, .default_head_dim = 128,
 .default_rope_parameters =
     "{\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}, "
     "\"full_attention\": {\"rope_type\": \"proportional\", \"rope_theta\": 1000000.0, "
     "\"partial_rotary_factor\": 0.5}}",
 .base_default = 10000.0, .quirks = &quirk_lfm3,
 .source = "models/lfm3/modeling_lfm3.py L65-170, L209-260, L341, L409-440; "
           "configuration_lfm3.py L53-101 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_lfm3.py L58-77 (transformers 5.23.0)"},

WRAPPER("lfm3_vl", "Lfm3Vl", MIXED, "text_config", "lfm3", "models/lfm3_vl/configuration_lfm3_vl.py L64-71 (transformers 5.23.0)"),
WRAPPER("lighton_ocr", NULL, ROPE, "text_config", "qwen3", "models/lighton_ocr/configuration_lighton_ocr.py L69-71 (text_config default qwen3; transformers 5.23.0)"),

/* ---- llama: rotate_half (HALF), head_dim = hidden_size // heads,
 * rope_theta 10000. models/llama/modeling_llama.py @9bd8dd18 L94-159;
 * configuration_llama.py @26892c16 (LlamaConfig). */
{.model_type = "llama", .rotary = WHOLE_HEAD, .arch = "Llama", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/llama/modeling_llama.py @9bd8dd18 L94-159; configuration_llama.py @26892c16",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_llama.py L65-71 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_llama.py L105")},

WRAPPER("llama4", NULL, MIXED, "text_config", "llama4_text", "models/llama4/configuration_llama4.py (Llama4Config)"),

/* ---- llama4_text: view_as_complex(reshape(..., -1, 2)): INTERLEAVED; RoPE
 * where no_rope_layers[i] (default int((i + 1) % no_rope_layer_interval != 0),
 * interval 4); NoPE layers with attn_temperature_tuning scale queries by
 * log1p(floor((pos + 1) / floor_scale)) * attn_scale + 1 (8192, 0.1);
 * rope_theta 500000. models/llama4/modeling_llama4.py @42791a34 L179-242
 * (rotary), L245-254 (apply_rotary_emb), L340 (use_rope), L372-387 (RoPE
 * only if use_rope; temperature tuning); configuration_llama4.py
 * (Llama4TextConfig defaults and __post_init__). */
{.model_type = "llama4_text", .rotary = WHOLE_HEAD, .arch = "Llama4", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .base_default = 500000.0, .layers = POSENC_LAYERS_NO_ROPE,
 .no_rope_interval = 4, .qscale = POSENC_QUERY_SCALE_TEMPERATURE, .default_layers = 48,
 .default_hidden = 5120, .default_heads = 40, .default_head_dim = 128,
 .source = "models/llama4/modeling_llama4.py @42791a34 L245-254, L340, L372-387",
 /* models/llama4/modeling_llama4.py L219 (5.23.0): freqs_cis = torch.polar(1, freqs) */
 .hf_module = "complex",
 .nonnull = "attn_scale floor_scale head_dim hidden_size max_position_embeddings "
            "num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_llama4.py L131-163 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_llama4.py L211")},

WRAPPER("llava", NULL, ROPE, "text_config", "llama", "models/llava/configuration_llava.py L67 (text_config default llama; transformers 5.23.0)"),
WRAPPER("llava_llama", NULL, ROPE, "llm_cfg", NULL, "NVlabs/VILA llava/model/language_model/llava_llama.py, llava/model/configuration_llava.py (llm_cfg)"),
WRAPPER("llava_next", NULL, ROPE, "text_config", "llama", "models/llava_next/configuration_llava_next.py L56 (text_config default llama; transformers 5.23.0)"),
WRAPPER("llava_next_video", NULL, ROPE, "text_config", "llama", "models/llava_next_video/configuration_llava_next_video.py L81 (text_config default llama; transformers 5.23.0)"),
WRAPPER("llava_onevision", NULL, ROPE, "text_config", "qwen2", "models/llava_onevision/configuration_llava_onevision.py L74 (text_config default qwen2; transformers 5.23.0)"),

/* ---- longcat_flash: two MLA attentions per decoder layer (self_attn[0],
 * [1]), each with DeepSeek V3's interleaved RoPE
 * (apply_rotary_pos_emb_interleave, always) on the qk_rope_head_dim part (64)
 * of each head; default_theta 1e7. posenc's layers are the num_layers decoder
 * layers (num_hidden_layers is 2 * num_layers, the attentions' layer_idx 2 l +
 * i), both attentions of a layer alike. */
{.model_type = "longcat_flash", .arch = "LongcatFlash", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000000.0,
 .default_layers = 28, .default_hidden = 6144, .default_heads = 64, .default_head_dim = 64,
 .source = "models/longcat_flash/modeling_longcat_flash.py L281-317, L362, L396-414, L461 "
           "(5.23.0); configuration_longcat_flash.py L64-119",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads num_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_longcat_flash.py L86-107 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_longcat_flash.py L100")},

/* ---- longformer: RoBERTa's embeddings: a learned table whose row of position
 * 0 is padding_idx + 1; its sliding-window and global attention add no
 * positions. */
{.model_type = "longformer", .arch = "Longformer", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/longformer/modeling_longformer.py L368-410; configuration_longformer.py "
           "L49-62 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_longformer.py L55-62 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_longformer.py L379 (input_ids.ne(padding_idx) fails on a "
                        "None; transformers 5.23.0)"},

/* ---- longt5: T5's stacks (num_layers, num_decoder_layers; layer 0 of
 * each holds the bias tables, the rest reuse them), the decoder T5's causal
 * buckets; the encoder's attention LongT5LocalAttention (T5's bidirectional
 * buckets inside blocks of local_radius + 1: keys |k - q| <= local_radius)
 * or LongT5TransientGlobalAttention (the same plus a side bias to
 * n // global_block_size block summaries) (quirk_longt5, config_buckets.c). */
{.model_type = "longt5", .arch = "LongT5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 6, .default_hidden = 512,
 .default_heads = 8, .quirks = &quirk_longt5,
 .source = "models/longt5/modeling_longt5.py L145-249, L532-703, L704-943, L1068-1090, "
           "L1242-1260; configuration_longt5.py L56-76 (transformers 5.23.0)",
 .nonnull = "d_model num_layers local_radius global_block_size "
            "relative_attention_num_buckets relative_attention_max_distance "
            "encoder_attention_type",
 .nonnull_source = "configuration_longt5.py L55-70 (transformers 5.23.0)"},

/* ---- luke (LUKE): the word tokens take RoBERTa's embeddings: a learned
 * table whose row of position 0 is padding_idx + 1. (Entity tokens, given
 * only with entity_ids, average rows of their own table at the positions of
 * their words, entity_position_ids, -1 padded; not described here.)
 * transformers 5.23.0 models/luke/modeling_luke.py L290-360 (words),
 * L361-400 (entities); configuration_luke.py L55-67. */
{.model_type = "luke", .arch = "Luke", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/luke/modeling_luke.py L290-400; configuration_luke.py L55-67 (transformers "
           "5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_luke.py L55-63 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_luke.py L985 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- lxmert: its language encoder's embeddings are BERT's: a learned table
 * (position_embeddings, max_position_embeddings rows) read at rows 0..
 * (position_ids = arange(seq_length)), offset 0; the layer count is the
 * language layers' (l_layers: num_hidden_layers is a dict of the three
 * stacks). models/lxmert/modeling_lxmert.py L179-212; configuration_lxmert.py
 * L82-104 (transformers 5.23.0). */
{.model_type = "lxmert", .arch = "Lxmert", .scheme = POSENC_SCHEME_LEARNED, .layers_key = "l_layers",
 .default_layers = 9, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/lxmert/modeling_lxmert.py L179-212; configuration_lxmert.py L82-104 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings l_layers",
 .nonnull_source = "configuration_lxmert.py L73, L82, L85 (transformers 5.23.0)"},

/* ---- m2m_100: M2M100SinusoidalPositionalEmbedding in both stacks:
 * fairseq's sinusoid (sin then cos halves of pos * exp(-k ln(10000) /
 * (half_dim - 1)), torch float32), its padding row zeroed, read at
 * positions from padding_idx + 1 = pad_token_id + 1 (L169-182; the table's
 * extra offset of 2 rows only sizes it, L85-89); 12 + 12 layers, d_model
 * 1024, max_position_embeddings 1024, pad_token_id 1
 * (configuration_m2m_100.py L50-69). */
{.model_type = "m2m_100", .arch = "M2M100", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1,
 .default_layers = 12, .default_hidden = 1024, .default_positions = 1024,
 .source = "models/m2m_100/modeling_m2m_100.py L80-185, L525-536, L614-625 "
           "(transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_m2m_100.py L50-62 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_m2m_100.py L180 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- mamba, mamba2: Mamba layers only, no attention: no positions.
 * transformers 5.23.0 models/mamba/modeling_mamba.py,
 * models/mamba2/modeling_mamba2.py (mixers only, no position input). */
{.model_type = "mamba", .arch = "Mamba", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_SSM,
 .source = "models/mamba/modeling_mamba.py (mamba mixers only; transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers",
 .nonnull_source = "configuration_mamba.py L68-70 (transformers 5.23.0)"},

{.model_type = "mamba2", .arch = "Mamba2", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_SSM,
 .source = "models/mamba2/modeling_mamba2.py (mamba2 mixers only; transformers 5.23.0)",
 .nonnull = "head_dim hidden_size num_hidden_layers",
 .nonnull_source = "configuration_mamba2.py L63-67 (transformers 5.23.0)"},

/* ---- marian: MarianSinusoidalPositionalEmbedding in both stacks: XLM's
 * angles pos / 10000^(2 (j // 2) / dim) in numpy float64, sin in the first
 * half, cos in the second (the exact value rounded once), read at rows
 * past.. (L95-103, L569); 12 + 12 layers, d_model 1024,
 * max_position_embeddings 1024 (configuration_marian.py L56-68). */
{.model_type = "marian", .arch = "Marian", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_MARIAN, .default_layers = 12,
 .default_hidden = 1024, .default_positions = 1024,
 .source = "models/marian/modeling_marian.py L72-103, L447-472, L527-596 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_marian.py L56-68 (transformers 5.23.0)"},

/* ---- markuplm: RoBERTa's learned table (rows from pad_token_id + 1, class
 * default 0) plus XPath tag and subscript tables per depth; quirk.
 * transformers 5.23.0 models/markuplm/modeling_markuplm.py L45-208;
 * configuration_markuplm.py L57-78 (12 layers, hidden 768, 512 positions). */
{.model_type = "markuplm", .arch = "MarkupLM", .scheme = POSENC_SCHEME_LEARNED,
 .layers_key = "num_hidden_layers",
 .default_layers = 12, .default_hidden = 768, .default_positions = 512,
 .quirks = &quirk_markuplm,
 .source = "models/markuplm/modeling_markuplm.py L45-208; configuration_markuplm.py L57-78 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings "
            "max_xpath_tag_unit_embeddings max_xpath_subs_unit_embeddings "
            "xpath_unit_hidden_size max_depth num_attention_heads subs_pad_id tag_pad_id",
 .nonnull_source = "configuration_markuplm.py L59-78 (transformers 5.23.0)"},

/* ---- mbart: BART's learned tables in both stacks
 * (MBartLearnedPositionalEmbedding, max_position_embeddings + 2 rows, offset
 * 2). */
{.model_type = "mbart", .arch = "MBart", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC, .pos_offset = 2,
 .source = "models/mbart/modeling_mbart.py L80-104, L499, L613; configuration_mbart.py L50-62 "
           "(transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_mbart.py L50-62 (transformers 5.23.0)"},

/* ---- megatron-bert: BERT's learned table, offset 0 (position_ids 0..
 * plus the cache length). transformers 5.23.0
 * models/megatron_bert/modeling_megatron_bert.py L50-101
 * (MegatronBertEmbeddings: L56 table, L82 positions, L92-93 added);
 * configuration_megatron_bert.py L44-55 (hidden 1024, 24 layers, 16 heads,
 * 512 positions). */
{.model_type = "megatron-bert", .arch = "MegatronBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 1024, .default_heads = 16, .default_positions = 512,
 .source = "models/megatron_bert/modeling_megatron_bert.py L50-101; "
           "configuration_megatron_bert.py L44-55 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_megatron_bert.py L44-51 (transformers 5.23.0)"},

/* ---- mellum: llama's rotate_half (HALF, full head), one RoPE per layer
 * type from rope_parameters.full_attention / .sliding_attention (class
 * defaults: full theta 500000, sliding 10000); layer_types default all full.
 * head_dim 128. transformers 5.23.0 models/mellum/modeling_mellum.py
 * L45-99 (per-type rotary), L130-160, L208, L246, L516;
 * configuration_mellum.py L85-130. */
{.model_type = "mellum", .arch = "Mellum", TYPE_SETS_ROPE, .default_layers = 28,
 .default_hidden = 2304, .default_heads = 32, .default_head_dim = 128,
 .source = "models/mellum/modeling_mellum.py L45-99, L130-160, L208, L246, L516 (5.23.0); "
           "configuration_mellum.py L85-130",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_mellum.py L85-109 (transformers 5.23.0)"},

WRAPPER("metaclip_2", NULL, LEARNED, "text_config", "metaclip_2_text_model", "models/metaclip_2/configuration_metaclip_2.py L157 (transformers 5.23.0)"),

/* ---- metaclip_2_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/metaclip_2/modeling_metaclip_2.py L42-77;
 * configuration_metaclip_2.py L50-68 (hidden 512, 12 layers, 8 heads, 77
 * positions). */
{.model_type = "metaclip_2_text_model", .arch = "MetaClip2Text", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8,
 .default_positions = 77,
 .source = "models/metaclip_2/modeling_metaclip_2.py L42-77; "
           "configuration_metaclip_2.py L50-68 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_metaclip_2.py L54-59 (transformers 5.23.0)"},

/* ---- mimo_v2_flash: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements (0.334 of head_dim 192: 64), one RoPE per
 * layer type from rope_parameters.full_attention / .sliding_attention (class
 * defaults: full theta 5e6, sliding 10000). The class's default layer_types
 * (full at layer 0 and every 6th) is no pattern posenc has: without
 * layer_types the config is refused. transformers 5.23.0
 * models/mimo_v2_flash/modeling_mimo_v2_flash.py L70-120 (per-type rotary),
 * L245-285, L340-346, L382; configuration_mimo_v2_flash.py L79-130. */
{.model_type = "mimo_v2_flash", .arch = "MiMoV2Flash", TYPE_SETS_ROPE, .partial_default = 0.334,
 .default_layers = 48, .default_hidden = 4096, .default_heads = 64, .default_head_dim = 192,
 .source = "models/mimo_v2_flash/modeling_mimo_v2_flash.py L70-120, L245-285, L340-346, L382 "
           "(5.23.0); configuration_mimo_v2_flash.py L79-130",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_mimo_v2_flash.py L79-107 (transformers 5.23.0)"},

/* ---- minicpm (remote code): MiniCPM's rotary classes (rotate_half, full
 * head); its longrope uses long_factor from the start when
 * max_position_embeddings > original_max_position_embeddings. rope_theta
 * omitted (MiniCPM-MoE-8x2B's config.json): 10000, MiniCPMConfig.__init__'s
 * "rope_theta=10000.0" (openbmb configuration_minicpm.py, copy
 * EmotioTech/EmotioLocal @d4495c13). */
{.model_type = "minicpm", .arch = "MiniCPM", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .flags = POSENC_FAMILY_LONG_FROM_MAXPOS,
 .source = "openbmb MiniCPM modeling_minicpm.py (MiniCPMRotaryEmbedding, MiniCPMLongRoPE); "
           "configuration_minicpm.py \"rope_theta=10000.0\" (copy EmotioTech/EmotioLocal "
           "@d4495c13)"},

/* ---- minicpm3 (remote code): MLA with RoPE on the qk_rope_head_dim part,
 * rotate_half without de-interleaving: HALF. rope_theta omitted: 10000, the
 * config class's default (transformers 5.23.0 modeling_rope_utils.py L760
 * default_theta, L785; MiniCPM3Config is a PreTrainedConfig, which mixes in
 * RotaryEmbeddingConfigMixin, configuration_utils.py L299; openbmb's
 * configuration_minicpm.py MiniCPM3Config.__init__ rope_theta=10000.0). */
{.model_type = "minicpm3", .arch = "MiniCPM3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .rotary = POSENC_ROTARY_QK_ROPE, .flags = POSENC_FAMILY_LONG_FROM_MAXPOS,
 .source = "openbmb/MiniCPM3-4B modeling_minicpm.py (rotate_half, MiniCPMLongRoPE; port id "
           "63332013972)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_minicpm3.py L89-112 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_minicpm3.py L112")},

WRAPPER("minicpm_ocr", "MiniCPMOCR", MIXED, "text_config", "qwen3_5_text", "models/minicpm_ocr/configuration_minicpm_ocr.py L79-81 (transformers 5.23.0)"),

/* ---- minicpmv (MiniCPM-V 2.5 / 2.6 remote code): the language model's keys
 * at the top (MiniCPMVConfig subclasses Qwen2Config, or LlamaConfig for
 * MiniCPM-Llama3-V 2.5) and MiniCPMV builds self.llm = Qwen2ForCausalLM(config)
 * (LlamaForCausalLM): llama's RoPE (rotate_half, full head), rope_theta
 * default 10000. openbmb/MiniCPM-V-2_6 modeling_minicpmv.py (class MiniCPMV;
 * stored port id 2011170700), configuration_minicpm.py. */
{.model_type = "minicpmv", .arch = "MiniCPMV", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .source = "openbmb/MiniCPM-V-2_6 modeling_minicpmv.py (MiniCPMV: self.llm = Qwen2ForCausalLM)"},

WRAPPER("minicpmv4_6", "MiniCPMV4_6", MIXED, "text_config", "qwen3_5_text", "models/minicpmv4_6/configuration_minicpmv4_6.py L86-92 (transformers 5.23.0)"),
WRAPPER("minicpmv4_7", "MiniCPMV4_7", MIXED, "text_config", "qwen3_5_text", "models/minicpmv4_7/configuration_minicpmv4_7.py L98-100 (transformers 5.23.0)"),

/* ---- minimax: lightning (linear) attention layers and softmax attention
 * layers (layer_types, default full on even layers); the softmax layers
 * rotate_half RoPE over the head, rope_theta 1e6. transformers 5.23.0
 * models/minimax/configuration_minimax.py L63, L110, L123-126;
 * modeling_minimax.py L125 (MiniMaxLightningAttention, no positions),
 * L321-329 (rotate_half), L425, L542 (the kind per layer). */
{.model_type = "minimax", .rotary = WHOLE_HEAD, .arch = "MiniMax", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR,
 .kinds_period = 2, .kinds_offset = 0,
 .source = "models/minimax/configuration_minimax.py L63, L110, L123-126; modeling_minimax.py "
           "L125, L321-329, L425, L542 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_minimax.py L87-94 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_minimax.py L155")},

/* ---- minimax_m2: q/k norms over the whole projections, then rotate_half
 * (HALF) over the first int(head_dim * partial_rotary_factor) elements;
 * released checkpoints give the rotated part as the legacy rotary_dim key
 * (convert_rope_params_to_dict: setdefault("partial_rotary_factor",
 * rotary_dim / head_dim), so a factor given anywhere wins); head_dim 128,
 * default_theta 5e6. transformers 5.23.0
 * models/minimax_m2/modeling_minimax_m2.py L174-179 (rotary dim), L233-273
 * (apply_rotary_pos_emb, rotate_half), L283, L315;
 * configuration_minimax_m2.py L73-81, L99-104. */
{.model_type = "minimax_m2", .arch = "MiniMaxM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 5000000.0, .default_layers = 62, .default_hidden = 3072, .default_heads = 48,
 .default_head_dim = 128, .flags = POSENC_FAMILY_ROTARY_DIM,
 .source = "models/minimax_m2/modeling_minimax_m2.py L174-179, L233-273, L283, L315 (5.23.0); "
           "configuration_minimax_m2.py L73-104",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_minimax_m2.py L76-83 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_minimax_m2.py L182")},

/* ---- minimax_m3_vl, minimax_m3_vl_text (MiniMax-M3): refused. Layers of
 * type minimax_m3_sparse build a Lightning Indexer that rotates its own q and
 * k (apply_rotary_pos_emb on cos[..., :index head_dim]) beside the attention's
 * partial RoPE (two RoPEs in one layer, as DeepSeek V3.2); the rotated part
 * is rope_parameters' partial_rotary_factor beside a rotary_dim key (64)
 * whose use was not settled here. transformers 5.23.0
 * models/minimax_m3_vl/modeling_minimax_m3_vl.py L265-300, L353-380,
 * L396-456, L480-553; configuration_minimax_m3_vl.py L55-160. */
REFUSED("minimax_m3_vl", "MiniMaxM3VL", ROPE, HALF,
        "MiniMax-M3's sparse layers' Lightning Indexer rotates its own q and k beside the "
        "attention's RoPE (two RoPEs in one layer); posenc describes one per layer",
        "models/minimax_m3_vl/modeling_minimax_m3_vl.py L265-300, L353-380, L396-456, "
        "L480-553 (transformers 5.23.0)"),

REFUSED("minimax_m3_vl_text", NULL, ROPE, HALF,
        "MiniMax-M3's sparse layers' Lightning Indexer rotates its own q and k beside the "
        "attention's RoPE (two RoPEs in one layer); posenc describes one per layer",
        "models/minimax_m3_vl/modeling_minimax_m3_vl.py L265-300, L353-380, L396-456, "
        "L480-553 (transformers 5.23.0)"),

/* ---- ministral (Ministral 8B): llama's rotate_half (HALF, full head;
 * head_dim null: hidden_size / heads) on every layer; layer_types only choose
 * the mask (sliding_window), one rotary_emb serves all layers; rope_theta the
 * mixin's 10000. */
{.model_type = "ministral", .rotary = WHOLE_HEAD, .arch = "Ministral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/ministral/modeling_ministral.py L65-94, L144, L172, L298-325, L390 (5.23.0); "
           "configuration_ministral.py L66-98",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_ministral.py L67-74 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_ministral.py L314")},

/* ---- ministral3: llama-style RoPE; queries scaled after RoPE by
 * 1 + beta * log(1 + floor(pos / original_max_position_embeddings)) with
 * rope_parameters.llama_4_scaling_beta. models/ministral3/modeling_ministral3.py
 * (get_llama_4_attn_scale). */
{.model_type = "ministral3", .rotary = WHOLE_HEAD, .arch = "Ministral3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .qscale = POSENC_QUERY_SCALE_BETA,
 .source = "models/ministral3/modeling_ministral3.py (get_llama_4_attn_scale)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_ministral3.py L75-82 (transformers 5.23.0)"},

/* ---- mistral, mixtral: llama's RoPE (HALF, full head, every layer). */
{.model_type = "mistral", .rotary = WHOLE_HEAD, .arch = "Mistral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/mistral/modeling_mistral.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_mistral.py L64-71 (transformers 5.23.0)"},

WRAPPER("mistral3", "Mistral3", ROPE, "text_config", "mistral", "models/mistral3/configuration_mistral3.py (Mistral3Config text_config)"),

/* ---- mistral4: DeepSeek V3's MLA (RoPE on the qk_rope_head_dim part of
 * each head; apply_rotary_pos_emb_interleave when rope_interleave, default
 * true) and ministral3's query scaling after RoPE (1 + beta * log(1 +
 * floor(pos / original_max_position_embeddings)), beta
 * rope_parameters.llama_4_scaling_beta) on the whole query; head_dim =
 * qk_nope + qk_rope and partial_rotary_factor qk_rope / head_dim, so the
 * rotary's int(head_dim * factor) is qk_rope_head_dim; the class default is
 * YaRN (factor 128, original 8192, mscale 1, mscale_all_dim 1, beta 0.1),
 * filled in when the config has no rope block (such a config is refused).
 * transformers 5.23.0 models/mistral4/modeling_mistral4.py L286-360
 * (rotate_half, apply_rotary_pos_emb(_interleave), get_llama_4_attn_scale),
 * L419, L455-481; configuration_mistral4.py L76-90, L106-135. */
{.model_type = "mistral4", .arch = "Mistral4", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000.0, .qscale = POSENC_QUERY_SCALE_BETA,
 .default_layers = 36, .default_hidden = 4096, .default_heads = 32, .default_head_dim = 64,
 .flags = POSENC_FAMILY_INTERLEAVE_KEY | POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/mistral4/modeling_mistral4.py L286-360, L419, L455-481 (5.23.0); "
           "configuration_mistral4.py L76-135",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_mistral4.py L76-97 (transformers 5.23.0)",
 .null_misread = "rope_interleave",
 .null_misread_source = "modeling_mistral4.py L466 (if self.config.rope_interleave: a None "
                        "rotates halves, not pairs; transformers 5.23.0)"},

/* ---- mistral_large4, mistral_large4_text (Mistral Large 4): refused. Its
 * rotary is LeRoPE: the YaRN inverse frequencies times exp(alpha), alpha a
 * learned per-frequency buffer loaded with the weights (no config key gives
 * it); the MLA part rotates interleaved, every no_rope_layer_interval-th
 * layer none, and its Sparse Attention indexer rotates interleaved.
 * transformers 5.23.0 models/mistral_large4/modeling_mistral_large4.py
 * L74-125, L187-255, L329-431, L697; configuration_mistral_large4.py
 * L144-170, L223-267. */
REFUSED("mistral_large4", "MistralLarge4", MIXED, INTERLEAVED,
        "Mistral Large 4's LeRoPE (inverse frequencies times exp(alpha), alpha learned "
        "weights, not in config.json) is not implemented",
        "models/mistral_large4/modeling_mistral_large4.py L74-125, L187-255, L329-431, L697 "
        "(transformers 5.23.0); configuration_mistral_large4.py L144-170, L223-267"),
REFUSED("mistral_large4_text", NULL, MIXED, INTERLEAVED,
        "Mistral Large 4's LeRoPE (inverse frequencies times exp(alpha), alpha learned "
        "weights, not in config.json) is not implemented",
        "models/mistral_large4/modeling_mistral_large4.py L74-125, L187-255, L329-431, L697 "
        "(transformers 5.23.0); configuration_mistral_large4.py L144-170"),

/* ---- mixtral: llama's RoPE, as mistral above. */
{.model_type = "mixtral", .rotary = WHOLE_HEAD, .arch = "Mixtral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/mixtral/modeling_mixtral.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_mixtral.py L68-75 (transformers 5.23.0)"},

WRAPPER("mllama", "Mllama", MIXED, "text_config", "mllama_text_model", "models/mllama/configuration_mllama.py L174-182 (transformers 5.23.0)"),

/* ---- mllama (Llama 3.2 Vision): a wrapper; text_config (mllama_text_model)
 * is llama's RoPE (llama3 scaling, rope_theta 500000) on its self-attention
 * layers, and the cross_attention_layers attend to image tokens without
 * positions. transformers 5.23.0 models/mllama/configuration_mllama.py
 * L120-145 (MllamaTextConfig: default_theta, cross_attention_layers default
 * [3, 8, ..., 38]), L174-182; modeling_mllama.py L476-484 (rotate_half),
 * L548 (RoPE in self-attention only), L1022-1031 (cross-attention layers). */
{.model_type = "mllama_text_model", .rotary = WHOLE_HEAD, .arch = "MllamaText", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 500000.0, .default_layers = 40, .default_hidden = 4096,
 .default_heads = 32, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CROSS,
 .index_key = "cross_attention_layers",
 .source = "models/mllama/configuration_mllama.py L120-145; modeling_mllama.py L476-484, L548, "
           "L1022-1031 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_mllama.py L125-133 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_mllama.py L746")},

/* ---- mobilebert: a learned table hidden_size wide (the word embeddings
 * are embedding_size wide and go through a projection first; the position
 * table is not), offset 0. transformers 5.23.0
 * models/mobilebert/modeling_mobilebert.py L68-142 (MobileBertEmbeddings);
 * configuration_mobilebert.py L62-74 (hidden 512, 24 layers, 4 heads, 512
 * positions). */
{.model_type = "mobilebert", .arch = "MobileBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 24, .default_hidden = 512, .default_heads = 4, .default_positions = 512,
 .source = "models/mobilebert/modeling_mobilebert.py L68-142; configuration_mobilebert.py L62-74 "
           "(transformers 5.23.0)",
 .nonnull = "embedding_size hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_mobilebert.py L62-74 (transformers 5.23.0)"},

/* ---- modernbert (encoder): rotate_half (HALF, full head; q/k from the
 * fused Wqkv), one RoPE per layer type: full layers global_rope_theta
 * (default_theta["global"] 160000), sliding layers local_rope_theta
 * (default_theta["local"] 10000), or the per-type rope_parameters sets of
 * newer configs; without layer_types, layer i is full when
 * i % global_attn_every_n_layers (3) == 0. transformers 5.23.0
 * models/modernbert/modeling_modernbert.py L93-145 (per-type rotary),
 * L177-208, L234-244, L269; configuration_modernbert.py L77-83, L113-151. */
{.model_type = "modernbert", .rotary = WHOLE_HEAD, .arch = "ModernBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_key = "global_rope_theta", .base_default = 160000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_SCALED, .sliding_rope = POSENC_TROPE_LOCAL,
 .local_base_key = "local_rope_theta", .local_base_default = 10000.0, .sliding_pattern = 3,
 .default_layers = 22, .default_hidden = 768, .default_heads = 12,
 .flags = POSENC_FAMILY_GLOBAL_EVERY_N,
 .source = "models/modernbert/modeling_modernbert.py L93-145, L177-208, L234-244, L269 "
           "(5.23.0); configuration_modernbert.py L77-151",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_modernbert.py L80-85 (transformers 5.23.0)"},

/* ---- modernbert-decoder: ModernBERT's per-type RoPE in a causal stack:
 * rotate_half (HALF, full head), full layers global_rope_theta (default_theta
 * "global" 160000), sliding layers local_rope_theta (10000), or the per-type
 * rope_parameters sets; without layer_types, layer i is full when i %
 * global_attn_every_n_layers (3) == 0. */
{.model_type = "modernbert-decoder", .rotary = WHOLE_HEAD, .arch = "ModernBertDecoder", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_key = "global_rope_theta", .base_default = 160000.0,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "local_rope_theta",
 .local_base_default = 10000.0, .sliding_pattern = 3, .default_layers = 22,
 .default_hidden = 768, .default_heads = 12, .flags = POSENC_FAMILY_GLOBAL_EVERY_N,
 .source = "models/modernbert_decoder/modeling_modernbert_decoder.py L90-175, L215-260 "
           "(5.23.0); configuration_modernbert_decoder.py L66-140",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_modernbert_decoder.py L71-81 (transformers 5.23.0)",
 .null_misread = "sliding_window",
 .null_misread_source = "modeling_modernbert_decoder.py L246, L482 (the sliding layers' mask "
                        "fails on a None; transformers 5.23.0)"},
WRAPPER("modernvbert", NULL, ROPE, "text_config", "modernbert", "models/modernvbert/configuration_modernvbert.py L62 (text_config default modernbert; transformers 5.23.0)"),

WRAPPER("molmo2", "Molmo2", ROPE, "text_config", "molmo2_text", "models/molmo2/configuration_molmo2.py L196 (transformers 5.23.0)"),

/* ---- molmo2 (Molmo 2): a wrapper; text_config molmo2_text is OLMo 2's
 * attention with llama's RoPE (rotate_half, cat(freqs, freqs), full head,
 * head_dim 128), rope_theta the mixin's 10000; the scaling only on
 * rope_scaling_layers (all layers by default; a subset with a scaled block
 * is refused, config_quirks.c quirk_molmo2_text).
 * models/molmo2/modeling_molmo2.py L98-150, L210-239, L659-663;
 * configuration_molmo2.py L125-158 (defaults), L196 (text_config);
 * transformers 5.23.0. */
{.model_type = "molmo2_text", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 36, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128, .quirks = &quirk_molmo2_text,
 .source = "models/molmo2/modeling_molmo2.py L98-150, L210-239, L659-663; "
           "configuration_molmo2.py L125-158 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_molmo2.py L135-147 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_molmo2.py L137")},

/* ---- moshi: the main (temporal) decoder rotates every layer with
 * rotate_half (HALF) over the whole head, theta from the rope block (class
 * default 10000), head_dim null: hidden / heads. Its depth decoder
 * (depth_decoder_config) builds its layers with use_rope=False and numbers
 * codebooks through per-codebook weights, not positions; posenc reads the
 * top-level decoder. transformers 5.23.0 models/moshi/modeling_moshi.py
 * L266-344, L446-470, L590-600, L735-800; configuration_moshi.py L136-164. */
{.model_type = "moshi", .rotary = WHOLE_HEAD, .arch = "Moshi", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/moshi/modeling_moshi.py L266-344, L446-470, L735-800; configuration_moshi.py "
           "L136-164 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "sliding_window",
 .nonnull_source = "configuration_moshi.py L137-148 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_moshi.py L299")},
WRAPPER("moss_transcribe_diarize", NULL, ROPE, "text_config", "qwen3", "models/moss_transcribe_diarize/configuration_moss_transcribe_diarize.py L98-100 (text_config default qwen3; transformers 5.23.0)"),

/* ---- mpnet: RoBERTa's learned table (padding_idx 1: rows from 2) plus T5's
 * bidirectional buckets (32, 128, fixed in the code) computed once in the
 * encoder and added in every layer; quirk. transformers 5.23.0
 * models/mpnet/modeling_mpnet.py L61-74, L281, L312-350, L850-858;
 * configuration_mpnet.py L48-59. */
{.model_type = "mpnet", .arch = "MPNet", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers_key = "num_hidden_layers",
 .default_layers = 12, .quirks = &quirk_mpnet,
 .source = "models/mpnet/modeling_mpnet.py L61-74, L281, L312-350, L850-858 (transformers "
           "5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings "
            "relative_attention_num_buckets num_attention_heads",
 .nonnull_source = "configuration_mpnet.py L48-58 (transformers 5.23.0)"},

/* ---- mpt: ALiBi on every layer; HF builds it with alibi_bias_max 8 whatever
 * attn_config says. models/mpt/modeling_mpt.py @e2412028 L42-62, L327;
 * configuration_mpt.py @3f832360 L157-175. */
{.model_type = "mpt", .arch = "Mpt", .scheme = POSENC_SCHEME_ALIBI, .default_layers = 24,
 .default_hidden = 2048, .default_heads = 16, .quirks = &quirk_mpt,
 .source = "models/mpt/modeling_mpt.py @e2412028 L42-62, L327",
 .nonnull = "d_model learned_pos_emb n_heads n_layers",
 .nonnull_source = "configuration_mpt.py L119-128 (transformers 5.23.0)"},

/* ---- mra: a learned table of max_position_embeddings + 2 rows read at
 * position + 2 (position_ids = arange + 2), as OPT's; the block-sparse
 * multi-resolution attention carries no position. transformers 5.23.0
 * models/mra/modeling_mra.py L464-516 (MraEmbeddings: L470 table, L477 and
 * L491 positions, L509-510 added); configuration_mra.py L54-69 (hidden 768,
 * 12 layers, 12 heads, 512 positions). */
{.model_type = "mra", .arch = "Mra", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512, .pos_offset = 2,
 .source = "models/mra/modeling_mra.py L464-516; configuration_mra.py L54-69 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_mra.py L54-61 (transformers 5.23.0)"},

/* ---- mt5: T5's code ("Copied from transformers.models.t5"); MT5Config
 * num_layers 8, num_heads 6. models/mt5/modeling_mt5.py @e2412028,
 * configuration_mt5.py @3f832360 L71-88. */
{.model_type = "mt5", .arch = "MT5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 8, .default_hidden = 512, .default_heads = 6,
 .source = "models/mt5/modeling_mt5.py (copied from T5Attention)",
 .nonnull = "d_model num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_mt5.py L44-51 (transformers 5.23.0)"},

/* ---- muse_glimmer, muse_glimmer_text: the text model's one rotary
 * (rope_parameters' rope_theta, default_theta 10000; rotate_half, HALF, dim =
 * head_dim 128) on every layer whose layer_rope_theta is not 0, none on the
 * rest; absent, NoPE on every 4th layer counted back from the last
 * (quirk_muse_glimmer_text, config_quirks.c). The wrapper's text positions
 * are arange (MuseGlimmerModel passes position_ids through, L1043-1050); its
 * vision tower's axial RoPE is not the language model's. qk_scale_factor
 * multiplies q by a constant. transformers 5.23.0
 * models/muse_glimmer/configuration_muse_glimmer.py L80-172;
 * modeling_muse_glimmer.py L158-210, L275-340, L458-515. muse_spark,
 * muse_spark_text below read by the same rule. */
WRAPPER("muse_glimmer", "MuseGlimmer", MIXED, "text_config", "muse_glimmer_text", "models/muse_glimmer/configuration_muse_glimmer.py L174-200 (transformers 5.23.0)"),

{.model_type = "muse_glimmer_text", .arch = NULL, .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .default_layers = 52, .default_hidden = 6656, .default_heads = 32,
 .default_head_dim = 128, .quirks = &quirk_muse_glimmer_text,
 .source = "models/muse_glimmer/modeling_muse_glimmer.py L158-210, L275-340, L458-515; "
           "configuration_muse_glimmer.py L80-172 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_muse_glimmer.py L117-124 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_muse_glimmer.py L191")},

/* ---- muse_spark, muse_spark_text: muse_glimmer's rule (the text classes
 * derive from muse_glimmer's, modular_muse_spark.py L81, L396, L463, L527):
 * one rotary from rope_parameters (rotate_half, HALF, dim = head_dim,
 * default 64; default_theta 500000 set by the config when rope_parameters
 * is absent, configuration_muse_spark.py L160-161) on every layer whose
 * layer_rope_theta is truthy, None on the rest (modeling_muse_spark.py
 * L528-575, L656-663); absent, NoPE on every 4th layer counted back from
 * the last (configuration_muse_spark.py L174-179): quirk_muse_glimmer_text.
 * The wrapper passes position_ids to its language model untouched
 * (modeling_muse_spark.py L1479-1486); its vision tower's axial RoPE is not
 * the language model's. qk_scale_factor multiplies q by a constant
 * (L381, L399). transformers 5.23.0. */
WRAPPER("muse_spark", "MuseSpark", MIXED, "text_config", "muse_spark_text", "models/muse_spark/configuration_muse_spark.py L251-290 (transformers 5.23.0)"),

{.model_type = "muse_spark_text", .arch = NULL, .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 500000.0, .default_layers = 62, .default_hidden = 8192, .default_heads = 128,
 .default_head_dim = 64, .quirks = &quirk_muse_glimmer_text,
 .source = "models/muse_spark/modeling_muse_spark.py L528-575, L590-670; "
           "configuration_muse_spark.py L75-190; modular_muse_spark.py L81-150, L527-590 "
           "(transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_muse_spark.py L117-123 (transformers 5.23.0)"},
WRAPPER("musicflamingo", NULL, ROPE, "text_config", "qwen2", "models/musicflamingo/configuration_musicflamingo.py L64 (text_config default qwen2; transformers 5.23.0)"),

/* ---- musicgen: its decoder (musicgen_decoder, the decoder part). */
WRAPPER("musicgen", "Musicgen", SINUSOID, "decoder", "musicgen_decoder",
        "models/musicgen/configuration_musicgen.py L131-140 (transformers 5.23.0)"),

/* ---- musicgen_decoder: MusicgenSinusoidalPositionalEmbedding, fairseq's
 * frequencies with the cosine half first, then the sine (get_embedding
 * L123-136, torch float32), read at rows past.. (forward L138-145, L522);
 * 24 layers, hidden 1024, 2048 positions (configuration_musicgen.py L31-43). */
{.model_type = "musicgen_decoder", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_MUSICGEN, .default_layers = 24, .default_hidden = 1024,
 .default_positions = 2048,
 .source = "models/musicgen/modeling_musicgen.py L106-145, L404-522; configuration_musicgen.py "
           "L31-43 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_musicgen.py L36-43 (transformers 5.23.0)"},

/* ---- musicgen_melody: its decoder (musicgen_melody_decoder, the decoder
 * part; sub_configs_defaults, configuration_musicgen_melody.py L136-145). */
WRAPPER("musicgen_melody", "MusicgenMelody", SINUSOID, "decoder", "musicgen_melody_decoder",
        "models/musicgen_melody/configuration_musicgen_melody.py L136-145 (transformers 5.23.0)"),

/* ---- musicgen_melody_decoder: MusicgenMelodySinusoidalPositionalEmbedding,
 * MusicGen's table (cosine half first, then the sine, of fairseq's
 * frequencies; get_embedding L129-143, torch float32), read at rows past..
 * (forward L145-154, L484, L509); the conditioning (encoder_hidden_states)
 * is prepended to the audio tokens before the table is read (L488-499), so
 * the sequence's positions count it first. 24 layers, hidden 1024, 2048
 * positions (configuration_musicgen_melody.py L28-59). */
{.model_type = "musicgen_melody_decoder", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_MUSICGEN, .default_layers = 24, .default_hidden = 1024,
 .default_positions = 2048,
 .source = "models/musicgen_melody/modeling_musicgen_melody.py L112-154, L374-411, L484-510; "
           "configuration_musicgen_melody.py L28-59 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_musicgen_melody.py L40-47 (transformers 5.23.0)"},

/* ---- mvp: BART's learned tables (row of position 0 at offset 2) in the
 * encoder and the decoder. */
{.model_type = "mvp", .arch = "Mvp", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC, .pos_offset = 2,
 .source = "models/mvp/modeling_mvp.py L63-87, L502-584, L660-805; configuration_mvp.py "
           "L51-73 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_mvp.py L57-67 (transformers 5.23.0)"},

/* ---- nanochat: rotate_half is cat(x2, -x1) (L169-173), the negative of
 * llama's, so q * cos + rotate_half(q) * sin (L125-129) turns each
 * (x[k], x[k + D/2]) pair by -theta (HALF, whole head): quirk_nanochat sets
 * the sense -1 (posenc_model_layer_rope negates the inverse frequencies).
 * cos and sin are llama's: inv_freq = base^(-2k/D) over D = head_dim, or
 * hidden_size / heads when absent or null (L87-93), cat(f, f) (L97-103),
 * rope_parameters' rope_type through ROPE_INIT_FUNCTIONS (L67-71), base
 * rope_theta (the mixin's 10000). The q/k RMS norms come after the rotation
 * and have no weight (L203-204, L224-226): a rotation keeps the norm, so the
 * order does not change the positions. transformers 5.23.0
 * models/nanochat/modeling_nanochat.py L59-129, L169-173, L203-226;
 * configuration_nanochat.py L54-72. */
{.model_type = "nanochat", .rotary = WHOLE_HEAD, .arch = "NanoChat", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 6,
 .quirks = &quirk_nanochat,
 .source = "models/nanochat/modeling_nanochat.py L59-129, L169-173, L203-226; "
           "configuration_nanochat.py L54-72 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_nanochat.py L55-60 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_nanochat.py L92")},

/* ---- nemotron: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, factor 0.5 by default (the config's
 * setdefault); head_dim null: hidden_size / heads; rope_theta 10000.
 * transformers 5.23.0 models/nemotron/modeling_nemotron.py L110-116
 * (rotary dim), L134-169 (rotate_half, apply_rotary_pos_emb: rot_dim =
 * cos.shape[-1]), L236, L265; configuration_nemotron.py L55-59, L76-77. */
{.model_type = "nemotron", .arch = "Nemotron", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 32, .default_hidden = 6144,
 .default_heads = 48,
 .source = "models/nemotron/modeling_nemotron.py L110-116, L134-169, L236, L265 (5.23.0); "
           "configuration_nemotron.py L55-77",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_nemotron.py L55-62 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_nemotron.py L119")},

/* ---- nemotron_h: Mamba 2, attention, MLP and MoE layers (layers_block_type,
 * or hybrid_override_pattern "M" / "*" / "-" / "E"; its length is the
 * number of layers); the attention has no RoPE (NemotronHAttention never
 * calls apply_rotary_pos_emb): no layer encodes positions. transformers
 * 5.23.0 models/nemotron_h/configuration_nemotron_h.py L84, L171-189,
 * L239-245, L279-282 (pattern letters); modeling_nemotron_h.py L868-940
 * (NemotronHAttention, no rotary), L953-954 (mixer per kind). */
{.model_type = "nemotron_h", .arch = "NemotronH", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_NEMOTRON_H, .pattern_key = "hybrid_override_pattern",
 .flags = POSENC_FAMILY_LIST_COUNTS,
 .source = "models/nemotron_h/configuration_nemotron_h.py L84, L171-189, L279-282; "
           "modeling_nemotron_h.py L868-940, L953-954 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads",
 .nonnull_source = "configuration_nemotron_h.py L99-110 (transformers 5.23.0)"},

/* ---- neomme (NeoMME encoder): per layer type (layer_types, else full
 * where (i + 1) % 6 == 0 and the last layer, L103-107) a RoPE set (sliding:
 * theta 10000, whole head; full: theta 1e6, a quarter of the head: the
 * class's defaults, L72-73, L141-154, written out when the config has no
 * rope_parameters) with a two-axis M-RoPE: the frequencies of pair j take
 * the row position for even j and the column position for odd j
 * (recomposition_frequencies: freq[0][..., 0::2], freq[1][..., 1::2],
 * stack and flatten, L161-169), cat([angles, angles]) and rotate_half over
 * the rotated part (L209-249): the hw-alternating rule with sections
 * [0, P/2, P/2] (rows h, columns w; a text token's two rows are equal,
 * L561-565). rope_type other than default through ROPE_INIT_FUNCTIONS
 * (L105-111). head_dim 64 by default. transformers 5.23.0
 * models/neomme/modeling_neomme.py L90-169, L209-249, L561-587;
 * configuration_neomme.py L72-107, L141-154. */
#define NEOMME_ROPE_PARAMETERS                                                                 \
    "{\"full_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1000000.0, "           \
    "\"partial_rotary_factor\": 0.25}, \"sliding_attention\": {\"rope_type\": \"default\", "   \
    "\"rope_theta\": 10000.0, \"partial_rotary_factor\": 1.0}}"
WRAPPER("nemotron_h_omni", NULL, NONE, "text_config", "nemotron_h", "models/nemotron_h_omni/configuration_nemotron_h_omni.py L61 (text_config default nemotron_h; transformers 5.23.0)"),
{.model_type = "neomme", .arch = "NeoMME", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 6, .default_layers = 17,
 .default_hidden = 1024, .default_heads = 16, .default_head_dim = 64,
 .default_rope_parameters = NEOMME_ROPE_PARAMETERS, .scaling_unread = "mrope_section",
 .flags = POSENC_FAMILY_TYPE_SETS | POSENC_FAMILY_LAST_LAYER_FULL | POSENC_FAMILY_MROPE |
          POSENC_FAMILY_MROPE_HW_ALTERNATING | POSENC_FAMILY_MROPE_TWO_AXIS,
 .quirks = &quirk_neomme,
 .source = "models/neomme/modeling_neomme.py L90-169, L209-249, L561-587; "
           "configuration_neomme.py L72-107, L141-154 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_neomme.py L78-86 (transformers 5.23.0)"},
#undef NEOMME_ROPE_PARAMETERS

/* ---- nllb-moe: M2M100's fairseq sinusoid (see m2m_100) from row
 * pad_token_id + 1 (L152-165), in both stacks (L684-695); 12 + 12 layers,
 * d_model 1024, max_position_embeddings 1024, pad_token_id 1
 * (configuration_nllb_moe.py L82-115). */
{.model_type = "nllb-moe", .arch = "NllbMoe", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1,
 .default_layers = 12, .default_hidden = 1024, .default_positions = 1024,
 .source = "models/nllb_moe/modeling_nllb_moe.py L63-167, L684-695 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_nllb_moe.py L82-94 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_nllb_moe.py L163 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- nomic_bert (encoder): llama's rotate_half (HALF, full head),
 * default_theta 1000. The remote-code configs' rotary_emb_fraction and
 * rotary_emb_interleaved are not read by transformers 5.23 (nor by posenc). */
{.model_type = "nomic_bert", .rotary = WHOLE_HEAD, .arch = "NomicBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/nomic_bert/modeling_nomic_bert.py L116-117, L135-165, L203, L227 (5.23.0); "
           "configuration_nomic_bert.py L51-74",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_nomic_bert.py L51-62 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_nomic_bert.py L121")},

/* ---- nystromformer: a learned table of max_position_embeddings + 2 rows
 * read at position + 2 (position_ids = arange + 2); the Nystrom
 * approximation of softmax attention carries no position. transformers
 * 5.23.0 models/nystromformer/modeling_nystromformer.py L46-100
 * (NystromformerEmbeddings: L52 table, L59-60 and L75 positions, L93-94
 * added); configuration_nystromformer.py L55-70 (hidden 768, 12 layers, 12
 * heads, 510 positions). */
{.model_type = "nystromformer", .arch = "Nystromformer", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 510,
 .pos_offset = 2,
 .source = "models/nystromformer/modeling_nystromformer.py L46-100; "
           "configuration_nystromformer.py L55-70 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_nystromformer.py L55-62 (transformers 5.23.0)"},

/* ---- olmo, olmo2: llama's RoPE. */
{.model_type = "olmo", .rotary = WHOLE_HEAD, .arch = "Olmo", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/olmo/modeling_olmo.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_olmo.py L68-74 (transformers 5.23.0)"},
{.model_type = "olmo2", .rotary = WHOLE_HEAD, .arch = "Olmo2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/olmo2/modeling_olmo2.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_olmo2.py L71-77 (transformers 5.23.0)"},

/* ---- olmo3: rotate_half; the rope_scaling on full layers only, sliding
 * layers plain RoPE ("RoPE scaling is not applied to sliding window attention
 * layers"); layer_types default full every 4th layer.
 * models/olmo3/modular_olmo3.py @26892c16 L152-188 (defaults, layer_types),
 * L271 (the comment), L279-337 (one rotary for every layer in HF 5.x, a
 * regression; PR #40778 had rotary_embs per layer type). Without
 * rope_parameters or rope_theta both sets take the class's default_theta
 * 500000 (transformers 5.23.0 configuration_olmo3.py L84, L106-122). */
{.model_type = "olmo3", .rotary = WHOLE_HEAD, .arch = "Olmo3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 500000.0,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_PLAIN, .sliding_pattern = 4, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/olmo3/modular_olmo3.py @26892c16 L152-188, L271, L279-337",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_olmo3.py L66-72 (transformers 5.23.0)"},

/* ---- olmo_hybrid: Gated DeltaNet (linear attention) layers and attention
 * layers (layer_types, default full where i % 4 == 3, else the last layer);
 * the attention rotate_half RoPE when rope_parameters has a rope_theta
 * (modeling L896-900), which transformers 5.23 fills with the mixin's
 * default 10000 when the config says null (configuration_utils's RoPE
 * standardization; checked by tools/hf_probe.py on a config with
 * "rope_parameters": null). transformers 5.23.0
 * models/olmo_hybrid/configuration_olmo_hybrid.py L91-108, L121-130;
 * modeling_olmo_hybrid.py L127-160 (apply_rotary_pos_emb, rotate_half),
 * L174, L216-218, L886-900, L952. */
{.model_type = "olmo_hybrid", .rotary = WHOLE_HEAD, .arch = "OlmoHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 3840,
 .default_heads = 30, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .kinds_period = 4,
 .kinds_offset = 3, .quirks = &quirk_olmo_hybrid,
 .source = "models/olmo_hybrid/configuration_olmo_hybrid.py L91-108, L121-130; "
           "modeling_olmo_hybrid.py L127-160, L216-218, L886-900 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_olmo_hybrid.py L91-97 (transformers 5.23.0)",
 .null_misread = "rope_theta",
 .null_misread_source = "modeling_olmo_hybrid.py L895-900 (no rotary embedding at all when "
                        "rope_parameters' rope_theta is None; transformers 5.23.0)"},

/* ---- olmoe: llama's rotate_half (HALF, full head; q/k norms over the whole
 * projection before it), rope_theta 10000. */
{.model_type = "olmoe", .rotary = WHOLE_HEAD, .arch = "Olmoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 2048, .default_heads = 16,
 .source = "models/olmoe/modeling_olmoe.py L126-160, L204 (5.23.0); configuration_olmoe.py "
           "L64-67",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_olmoe.py L64-70 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_olmoe.py L96")},

/* ---- openai-gpt (GPT-1): a learned table positions_embed of n_positions
 * rows, offset 0 (position_ids 0..seq_len-1). OpenAIGPTConfig
 * attribute_map: max_position_embeddings -> n_positions, hidden_size ->
 * n_embd. transformers 5.23.0 models/openai/modeling_openai.py L302, L306,
 * L346-348, L369; configuration_openai.py L74-85 (n_positions 512, n_embd
 * 768, 12 layers, 12 heads). */
{.model_type = "openai-gpt", .arch = "OpenAIGPT", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/openai/modeling_openai.py L302, L306, L346-348, L369; "
           "configuration_openai.py L74-85 (transformers 5.23.0)",
 .nonnull = "n_embd n_head n_layer n_positions",
 .nonnull_source = "configuration_openai.py L82-85 (transformers 5.23.0)"},

/* ---- openai_privacy_filter (OpenAI Privacy Filter, a bidirectional
 * encoder): _apply_rotary_emb rotates x[0::2] with x[1::2] and stacks them
 * back, interleaved pairs over the whole head_dim 64; default_theta 150000.
 * Without a rope block the class fills in YaRN (factor 32, beta_fast 32,
 * beta_slow 1, truncate false, original 4096) and setdefault puts the
 * top-level rope_theta (else 150000) in it: the same here. q and k are each
 * scaled by head_dim^-0.25 after the rotation (the softmax scale split,
 * not a position). transformers 5.23.0
 * models/openai_privacy_filter/modeling_openai_privacy_filter.py L62-106,
 * L121-139, L184, L215-219; configuration_openai_privacy_filter.py L60-114;
 * modeling_rope_utils.py L775-795 (convert_rope_params_to_dict). */
{.model_type = "openai_privacy_filter", .rotary = WHOLE_HEAD, .arch = "OpenAIPrivacyFilter", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .base_default = 150000.0, .default_layers = 8, .default_hidden = 640,
 .default_heads = 14, .default_head_dim = 64,
 .default_rope_parameters = "{\"rope_type\": \"yarn\", \"factor\": 32.0, \"beta_fast\": 32.0, "
                            "\"beta_slow\": 1.0, \"truncate\": false, "
                            "\"original_max_position_embeddings\": 4096}",
 .source = "models/openai_privacy_filter/modeling_openai_privacy_filter.py L62-139, L215; "
           "configuration_openai_privacy_filter.py L60-114 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers sliding_window",
 .nonnull_source = "configuration_openai_privacy_filter.py L73-84 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_openai_privacy_filter.py L95")},

/* ---- opt: learned absolute, offset 2 (positions count non-pad tokens).
 * models/opt/modeling_opt.py @e2412028 L51-76, L314-349;
 * configuration_opt.py @3f832360 L89-109. */
{.model_type = "opt", .arch = "OPT", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 2048, .pos_offset = 2,
 .source = "models/opt/modeling_opt.py @e2412028 L51-76, L314-349",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_opt.py L55-64 (transformers 5.23.0)"},

/* ---- orion (Orion-14B remote code): llama's attention with LayerNorm;
 * RoPE over the whole head (head_dim = hidden_size / heads), base rope_theta,
 * rotate_half (HALF: vLLM's port, which loads the checkpoints unchanged, calls
 * get_rope(head_dim, rotary_dim=head_dim, base=rope_theta) with its default
 * is_neox_style). OrionConfig's rope_theta default 10000.0; its
 * _rope_scaling_validation admits {"type": linear|dynamic, "factor"}, but
 * Orion's own scaling classes (modeling_orion.py) were not found to read, so
 * every rope_scaling block is refused. vllm-project/vllm
 * vllm/model_executor/models/orion.py @0531c222 ("Adapted from
 * .../Orion-14B-Base/blob/main/modeling_orion.py", OrionAttention: "self.head_dim
 * = hidden_size // self.total_num_heads", "self.rotary_emb = get_rope(");
 * vllm/transformers_utils/configs/orion.py @864104da (OrionConfig, adapted from
 * configuration_orion.py: "rope_theta=10000.0", "_rope_scaling_validation"). */
{.model_type = "orion", .arch = "Orion", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .scaling_types = "",
 .source = "OrionStarAI modeling_orion.py, port vllm-project/vllm "
           "vllm/model_executor/models/orion.py @0531c222 (OrionAttention get_rope); "
           "configs/orion.py @864104da (rope_theta=10000.0)"},
WRAPPER("ovis2", NULL, ROPE, "text_config", "qwen2", "models/ovis2/configuration_ovis2.py L80 (text_config default qwen2; transformers 5.23.0)"),

WRAPPER("owlv2", NULL, LEARNED, "text_config", "owlv2_text_model", "models/owlv2/configuration_owlv2.py L107 (transformers 5.23.0)"),

/* ---- owlv2_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/owlv2/modeling_owlv2.py L285-314;
 * configuration_owlv2.py L45-59 (hidden 512, 12 layers, 8 heads, 16
 * positions). */
{.model_type = "owlv2_text_model", .arch = "Owlv2Text", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8,
 .default_positions = 16,
 .source = "models/owlv2/modeling_owlv2.py L285-314; "
           "configuration_owlv2.py L45-59 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_owlv2.py L49-53 (transformers 5.23.0)"},

WRAPPER("owlvit", NULL, LEARNED, "text_config", "owlvit_text_model", "models/owlvit/configuration_owlvit.py L104 (transformers 5.23.0)"),

/* ---- owlvit_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/owlvit/modeling_owlvit.py L347-376;
 * configuration_owlvit.py L44-58 (hidden 512, 12 layers, 8 heads, 16
 * positions). */
{.model_type = "owlvit_text_model", .arch = "OwlViTText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8,
 .default_positions = 16,
 .source = "models/owlvit/modeling_owlvit.py L347-376; "
           "configuration_owlvit.py L44-58 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_owlvit.py L48-52 (transformers 5.23.0)"},

/* ---- paddleocr_vl (PaddleOCR-VL): a wrapper (text_config
 * paddleocr_vl_text; a config without text_config keeps the language keys at
 * the top: configuration_paddleocr_vl.py L162-165, L179-184). The text model
 * is Qwen2-VL's M-RoPE: the head_dim / 2 pair frequencies split by
 * mrope_section (default [16, 24, 24]) in chunks from t, h, w (m[i % 3]),
 * cat((freq, freq)) and rotate_half (HALF, full head); head_dim 128,
 * default_theta 500000. transformers 5.23.0
 * models/paddleocr_vl/modeling_paddleocr_vl.py L165-221, L278-307, L331;
 * configuration_paddleocr_vl.py L97, L114-137. */
{.model_type = "paddleocr_vl", .arch = "PaddleOCRVL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "paddleocr_vl_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/paddleocr_vl/configuration_paddleocr_vl.py L162-165, L179-184 (transformers 5.23.0)"},

{.model_type = "paddleocr_vl_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 18, .default_hidden = 1024, .default_heads = 16,
 .default_head_dim = 128, .mrope_default = {16, 24, 24}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/paddleocr_vl/modeling_paddleocr_vl.py L165-221, L278-307, L331; "
           "configuration_paddleocr_vl.py L97, L114-137 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_paddleocr_vl.py L115-121 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_paddleocr_vl.py L142")},
WRAPPER("paligemma", NULL, ROPE, "text_config", "gemma", "models/paligemma/configuration_paligemma.py L64 (text_config default gemma; transformers 5.23.0)"),

/* ---- pegasus: PegasusSinusoidalPositionalEmbedding in both stacks: Marian's
 * (XLM's angles in numpy float64, sin in the first half, cos in the second,
 * not interleaved as DistilBERT's), rows past..; 12 + 12 layers, d_model
 * 1024, max_position_embeddings 1024 (configuration_pegasus.py L50-62).
 * transformers 5.23.0 models/pegasus/modeling_pegasus.py L74-110. */
{.model_type = "pegasus", .arch = "Pegasus", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_MARIAN, .default_layers = 12,
 .default_hidden = 1024, .default_positions = 1024,
 .source = "models/pegasus/modeling_pegasus.py L74-110 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_pegasus.py L50-62 (transformers 5.23.0)"},

/* ---- pegasus_x: PegasusXSinusoidalPositionalEmbedding in both stacks (L749,
 * L780, L930): fairseq's sin|cos halves of pos * exp(-k ln(max_scale) /
 * (half - 1)), max_scale 10000 (never set from the config), rows past..,
 * computed per forward in the activations' dtype (float32 here; a bf16 run
 * rounds each step to bf16: a config naming dtype / torch_dtype float16 or
 * bfloat16, which from_pretrained runs so, is refused by name, quirk). The encoder's block-local attention and its
 * global tokens (which take no position) do not change the vectors the
 * tokens get. An odd d_model fails in its code (the halves differ in width);
 * posenc gives fairseq's zero last column. 16 + 16 layers, d_model 1024,
 * 16384 positions (configuration_pegasus_x.py L58-70). transformers 5.23.0
 * models/pegasus_x/modeling_pegasus_x.py L94-124, L749-839, L930-1043. */
{.model_type = "pegasus_x", .arch = "PegasusX", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .default_layers = 16,
 .default_hidden = 1024, .default_positions = 16384, .quirks = &quirk_pegasus_x,
 .source = "models/pegasus_x/modeling_pegasus_x.py L94-124, L749-839, L930-1043 "
           "(transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_pegasus_x.py L58-70 (transformers 5.23.0)"},
WRAPPER("perception_lm", NULL, ROPE, "text_config", "llama", "models/perception_lm/configuration_perception_lm.py L34 (text_config default llama; transformers 5.23.0)"),

/* ---- persimmon: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, factor 0.5 by default (setdefault);
 * head_dim = hidden_size / heads; q/k layernorms before; rope_theta 10000. */
{.model_type = "persimmon", .arch = "Persimmon", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 36, .default_hidden = 4096,
 .default_heads = 64,
 .source = "models/persimmon/modeling_persimmon.py L84-87, L106-136, L192-194, L258-272 "
           "(5.23.0); configuration_persimmon.py L43-62",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_persimmon.py L43-48 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_persimmon.py L91")},

/* ---- phi: rotate_half over the first int(head_dim * partial_rotary_factor)
 * elements (default 0.5). */
{.model_type = "phi", .arch = "Phi", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .partial_default = 0.5,
 .source = "models/phi/modeling_phi.py (rotary_ndims, rotate_half)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_phi.py L64-73 (transformers 5.23.0)"},

/* ---- phi-msft: Phi-2's first remote-code release: n_embd, n_head, n_layer,
 * rotary_dim; _apply_rotary_emb chunks x[..., :rotary_dim] in halves: HALF;
 * base 10000 (uncertain: its rotary_base key was not read). */
{.model_type = "phi-msft", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .rotary = POSENC_ROTARY_DIM_KEY, .base_key = FIXED_BASE, .base_default = 10000.0,
 .source = "microsoft/phi-2 modeling_phi.py first release (_apply_rotary_emb; stored copy id "
           "1113732749)"},

/* ---- phi3: rotate_half over the rotary part; "su" and "yarn" in Phi-3
 * configs mean longrope. models/phi3/configuration_phi3.py
 * (convert_rope_params_to_dict: rope_type in ["su", "yarn"] -> "longrope"). */
{.model_type = "phi3", .arch = "Phi3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_YARN_IS_LONGROPE,
 .source = "models/phi3/configuration_phi3.py (su/yarn -> longrope); rope_utils L396-481",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_phi3.py L62-71 (transformers 5.23.0)"},

/* ---- phi3_v (Phi-3-vision / Phi-3.5-vision remote code): the image
 * features are spliced into the token sequence, whose positions are plain;
 * the language model is Phi-3's attention: head_dim = hidden_size / heads,
 * RoPE over the whole head, rotate_half (HALF), base rope_theta (Phi3VConfig
 * default 10000.0). _init_rope reads rope_scaling["type"]: "su" is longrope
 * (long_factor when max(position_ids) + 1 > original_max_position_embeddings,
 * else short_factor; cos and sin times sqrt(1 + ln s / ln original), s =
 * max_position_embeddings / original, 1 when s <= 1), transformers' longrope;
 * "yarn" takes the same factors but times 0.1 ln s + 1, which transformers'
 * Phi-3 (yarn read as longrope) does not: refused. Phi-3-vision-128k-instruct's
 * files (Phi-3.5-vision ships the same rotary classes):
 * Aritra02091998/Phi-3-vision-128k-instruct-Improvised-for-QLORA-Training
 * @16e16b08 modeling_phi3_v.py L102-130 (Phi3RotaryEmbedding), L132-170
 * (Phi3SuScaledRotaryEmbedding), L173-212 (yarn), L215-219 (rotate_half),
 * L299-304, L319-333 (_init_rope); configuration_phi3_v.py L115, L130-137,
 * L179-216. */
{.model_type = "phi3_v", .arch = "Phi3V", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .scaling_types = "su", .flags = POSENC_FAMILY_YARN_IS_LONGROPE,
 .source = "microsoft Phi-3-vision modeling_phi3_v.py (copy Aritra02091998/Phi-3-vision-128k-"
           "instruct-Improvised-for-QLORA-Training @16e16b08 L102-219, L299-333); "
           "configuration_phi3_v.py L115-216"},

/* ---- phi3small (Phi-3-small remote code). Its positional_embedding.py (a
 * copy kept in the index as stored file 6779687675): RotaryEmbedding.from_config
 * (L278-288) takes dim_model = hidden_size // num_attention_heads, base
 * rope_embedding_base, position_scale rope_position_scale, and a LongRoPE
 * block when rope_scaling is not None; without one, inv_freq = base^(-2i/d)
 * (L157) and the angles of t = arange(seq_len) * position_scale (L199-218),
 * cat(freqs, freqs) with rotate_half (L72-74, L79-94): the half layout over
 * the whole head. Its LongRoPE (forward L235-259) scales cos and sin by
 * short_mscale (default 1) up to the original length and by long_mscale
 * (default sqrt(1 + ln(max / original) / ln original)) past it, and ignores
 * position_scale: a factor that switches with the length, not implemented.
 * modeling_phi3_small.py (stored file 7428361816): Phi3SmallSelfAttention
 * builds RotaryEmbedding.from_config(config) in every layer and calls it with
 * seqlen_offset = the cache's length (position_ids unused); the layers that
 * are not every dense_attention_every_n_layers-th use blocksparse attention
 * (a mask of local blocks and vertical strides, not a position encoding).
 * Phi3SmallConfig's defaults: rope_embedding_base 10**6, rope_position_scale
 * 1.0 (a configuration_phi3_small.py predecessor, stored file 21317594695). */
{.model_type = "phi3small", .arch = "Phi3Small", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_key = "rope_embedding_base", .base_default = 1000000.0,
 .quirks = &quirk_phi3small,
 .scaling_refused = "Phi-3-small's LongRoPE multiplies cos and sin by short_mscale (default 1) "
                    "up to original_max_position_embeddings and by long_mscale past it: a "
                    "factor that switches with the length is not implemented",
 .source = "microsoft Phi-3-small positional_embedding.py (stored file 6779687675) L72-94, "
           "L157, L199-218, L235-259, L278-288; modeling_phi3_small.py (stored file "
           "7428361816, Phi3SmallSelfAttention)"},

/* ---- phi4_multimodal (Phi-4-multimodal): the language model is Phi-3's:
 * rotate_half (HALF) on the first int(head_dim * partial_rotary_factor)
 * elements (class default 1.0; the checkpoint's 0.75), "su" and "yarn" read
 * as longrope. The vision and audio encoders feed embeddings into the token
 * sequence. transformers 5.23.0 models/phi4_multimodal/
 * modeling_phi4_multimodal.py L1144-1215, L1218-1258, L1415-1452;
 * configuration_phi4_multimodal.py L196-246. */
{.model_type = "phi4_multimodal", .arch = "Phi4Multimodal", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_YARN_IS_LONGROPE,
 .source = "models/phi4_multimodal/modeling_phi4_multimodal.py L1144-1215, L1218-1258, "
           "L1415-1452 (5.23.0); configuration_phi4_multimodal.py L196-246",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_phi4_multimodal.py L196-205 (transformers 5.23.0)"},

/* ---- phimoe: longrope frequencies, cos and sin times short_mscale (long_mscale
 * past the original length) instead of the attention factor; taken when the
 * two are equal, else refused. models/phimoe/modular_phimoe.py
 * (PhimoeRotaryEmbedding: "mscale = self.long_mscale if seq_len > ..."),
 * rope_theta 1e6 (PhimoeConfig docs). */
{.model_type = "phimoe", .rotary = WHOLE_HEAD, .arch = "PhiMoE", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .quirks = &quirk_phimoe,
 .source = "models/phimoe/modular_phimoe.py (PhimoeRotaryEmbedding short_mscale/long_mscale)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_phimoe.py L63-69 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_phimoe.py L76")},

WRAPPER("pix2struct", "Pix2Struct", RELATIVE_BUCKETS, "text_config", "pix2struct_text_model", "models/pix2struct/modeling_pix2struct.py L78-110, L926-940; configuration_pix2struct.py L168-190 (transformers 5.23.0)"),

/* ---- pix2struct_text_model: a decoder-only stack with T5's causal
 * bucket bias: the first layer's attention (has_relative_attention_bias
 * for i == 0) computes compute_bias with bidirectional=False (key - query,
 * relative_attention_num_buckets 32, relative_attention_max_distance 128)
 * and every later layer adds the same bias; q/k carry no position.
 * Pix2StructTextConfig attribute_map: num_hidden_layers -> num_layers.
 * transformers 5.23.0 models/pix2struct/modeling_pix2struct.py L575-680
 * (Pix2StructTextAttention, _relative_position_bucket as T5's), L735-750,
 * L926-940, L1066-1095; configuration_pix2struct.py L51-81 (12 layers,
 * hidden 768, 12 heads). */
{.model_type = "pix2struct_text_model", .arch = NULL, .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/pix2struct/modeling_pix2struct.py L575-680, L735-750, L926-940, L1066-1095; "
           "configuration_pix2struct.py L51-81 (transformers 5.23.0)",
 .nonnull = "hidden_size num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_pix2struct.py L64-70 (transformers 5.23.0)"},

/* ---- plbart: BART's learned tables in both stacks (offset 2). */
{.model_type = "plbart", .arch = "PLBart", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC, .pos_offset = 2,
 .source = "models/plbart/modeling_plbart.py L90-114, L343, L511; configuration_plbart.py "
           "L51-63 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_plbart.py L51-63 (transformers 5.23.0)"},

/* ---- pocket_tts (Kyutai Pocket TTS backbone): rotate_half (HALF) over
 * the whole head, theta from the rope block (class default 10000), head_dim
 * null: hidden / heads. The flow head's sinusoid embeds flow times, not
 * positions. transformers 5.23.0 models/pocket_tts/modeling_pocket_tts.py
 * L77-107, L190, L444-488, L603; configuration_pocket_tts.py L119-156
 * (1024 hidden, 6 layers, 16 heads). */
{.model_type = "pocket_tts", .rotary = WHOLE_HEAD, .arch = "PocketTTS", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 6, .default_hidden = 1024, .default_heads = 16,
 .source = "models/pocket_tts/modeling_pocket_tts.py L77-107, L190, L444-488, L603; "
           "configuration_pocket_tts.py L119-156 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "pad_token_id",
 .nonnull_source = "configuration_pocket_tts.py L120-133 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_pocket_tts.py L477")},

/* ---- pop2piano: T5's relative buckets (the first layer of each stack holds
 * relative_attention_bias), encoder then decoder. */
{.model_type = "pop2piano", .arch = "Pop2Piano", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 6, .default_hidden = 512, .default_heads = 8,
 .source = "models/pop2piano/modeling_pop2piano.py L180-290; configuration_pop2piano.py L40-49 "
           "(transformers 5.23.0)",
 .nonnull = "d_model num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_pop2piano.py L44-51 (transformers 5.23.0)"},
WRAPPER("pp_chart2table", NULL, ROPE, "text_config", "qwen2", "models/pp_chart2table/configuration_pp_chart2table.py L90-92 (text_config default qwen2; transformers 5.23.0)"),

WRAPPER("pp_formulanet", NULL, LEARNED, "text_config", "pp_formulanet_text", "models/pp_formulanet/configuration_pp_formulanet.py L133 (transformers 5.23.0)"),

/* ---- pp_formulanet_text: PP-FormulaNet's text decoder (the encoder is the
 * vision model): MBart's learned table, row position + 2 (offset 2,
 * max_position_embeddings + 2 rows); decoder_layers layers (its
 * num_hidden_layers is encoder_layers by attribute_map). transformers
 * 5.23.0 models/pp_formulanet/modeling_pp_formulanet.py L493-517,
 * L800-803, L887, L914; configuration_pp_formulanet.py L95-119 (d_model
 * 512, 8 decoder layers, 16 heads, 2560 positions). */
{.model_type = "pp_formulanet_text", .arch = NULL, .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 8, .layers_key = "decoder_layers", .default_hidden = 512,
 .default_heads = 16, .default_positions = 2560, .pos_offset = 2,
 .source = "models/pp_formulanet/modeling_pp_formulanet.py L493-517, L800-803, L914; "
           "configuration_pp_formulanet.py L95-119 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_position_embeddings",
 .nonnull_source = "configuration_pp_formulanet.py L103-113 (transformers 5.23.0)"},

/* ---- prophetnet: ProphetNetPositionalEmbeddings (a learned table, rows
 * from pad_token_id + 1) in both stacks; in the decoder's n-stream
 * self-attention, relative buckets (compute_relative_buckets: T5's causal
 * buckets with max_exact added in float32 before the truncation) for the
 * main stream and the ngram predicting streams (compute_buffered_relative_
 * buckets), read by quirk_prophetnet (config_buckets.c, which cites the
 * lines). transformers 5.23.0 models/prophetnet/modeling_prophetnet.py;
 * configuration_prophetnet.py L43-89. */
{.model_type = "prophetnet", .arch = "ProphetNet", .scheme = POSENC_SCHEME_MIXED,
 .layers = POSENC_LAYERS_ENC_DEC, .quirks = &quirk_prophetnet,
 .source = "models/prophetnet/modeling_prophetnet.py L66-113, L342-382, L526-827, L947-1020, "
           "L1054-1291 (transformers 5.23.0); configuration_prophetnet.py L43-89",
 .nonnull = "hidden_size num_encoder_layers num_decoder_layers "
            "max_position_embeddings ngram num_buckets relative_max_distance",
 .nonnull_source = "configuration_prophetnet.py L51-67 (transformers 5.23.0)"},
WRAPPER("qianfan_ocr", NULL, ROPE, "text_config", "qwen3", "models/qianfan_ocr/configuration_qianfan_ocr.py L115 (text_config default qwen3; transformers 5.23.0)"),

/* ---- qwen (Qwen 1 remote code): head_dim kv_channels, rotary_pct,
 * rotary_emb_base, rotate_half (HALF); dynamic NTK (use_dynamic_ntk) and
 * log-n query scaling (use_logn_attn) against seq_length.
 * undefdev/Qwen-7B-Chat modeling_qwen.py @04df5dd5 (RotaryEmbedding,
 * _rotate_half, QWenAttention logn_list, ntk_alpha). */
{.model_type = "qwen", .arch = "QWen", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .partial_key = "rotary_pct",
 .base_key = "rotary_emb_base", .head_dim_key = "kv_channels", .qscale = POSENC_QUERY_SCALE_LOGN,
 .quirks = &quirk_qwen,
 .source = "Qwen/Qwen-7B-Chat modeling_qwen.py @04df5dd5 (copy: undefdev/Qwen-7B-Chat)"},

/* ---- qwen2, qwen2_moe, qwen3, qwen3_moe: llama's RoPE (HALF, full head).
 * qwen2's defaults are Qwen2Config's (a sparse text_config such as
 * Qwen2-Audio's relies on them): models/qwen2/configuration_qwen2.py L62-65
 * (hidden 4096, layers 32, heads 32), rope_theta the mixin's default_theta
 * 10000 (modeling_rope_utils.py L760, L785); transformers 5.23.0. */
{.model_type = "qwen2", .rotary = WHOLE_HEAD, .arch = "Qwen2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/qwen2/modeling_qwen2.py (llama apply_rotary_pos_emb); "
           "configuration_qwen2.py L62-65 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings max_window_layers num_attention_heads "
            "num_hidden_layers use_sliding_window",
 .nonnull_source = "configuration_qwen2.py L62-76 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen2.py L83")},

WRAPPER("qwen2_5_omni", "Qwen2_5Omni", ROPE, "thinker_config.text_config", "qwen2_5_omni_text", "models/qwen2_5_omni/configuration_qwen2_5_omni.py L586-598 (transformers 5.23.0)"),

/* ---- qwen2_5_omni (Qwen2.5-Omni): the thinker's text model,
 * thinker_config.text_config (Qwen2_5OmniConfig.get_text_config returns
 * thinker_config.get_text_config(), configuration_qwen2_5_omni.py L586-598);
 * qwen2_5_omni_text is Qwen2-VL's M-RoPE (chunks of mrope_section, default
 * [16, 24, 24], cat(freq, freq), rotate_half), rope_theta 1e6.
 * models/qwen2_5_omni/modeling_qwen2_5_omni.py L1314 (default section),
 * L1349-1354 (chunks), L977-981 (rotate_half); configuration_qwen2_5_omni.py
 * L151-176 (default_theta, hidden 3584, layers 28, heads 28); transformers
 * 5.23.0. */
{.model_type = "qwen2_5_omni_text", .arch = NULL, QWEN2_VL_MROPE, .default_layers = 28,
 .default_hidden = 3584, .default_heads = 28,
 .source = "models/qwen2_5_omni/modeling_qwen2_5_omni.py L977-981, L1314, L1349-1354; "
           "configuration_qwen2_5_omni.py L151-176 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings max_window_layers num_attention_heads "
            "num_hidden_layers use_sliding_window",
 .nonnull_source = "configuration_qwen2_5_omni.py L173-186 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen2_5_omni.py L954")},
WRAPPER("qwen2_5_omni_thinker", "Qwen2_5OmniThinker", ROPE, "text_config", "qwen2_5_omni_text", "models/qwen2_5_omni/configuration_qwen2_5_omni.py L255-263 (transformers 5.23.0)"),

/* ---- qwen2_vl, qwen2_5_vl: wrappers; the language model is text_config
 * (qwen2_vl_text), or the top of an older config (Qwen2VLConfig moves the
 * flat text keys into text_config, configuration_qwen2_vl.py L173-179).
 * qwen2_vl_text: qwen2's RoPE with M-RoPE sections: the code reads
 * rope_parameters.get("mrope_section", [16, 24, 24]), splits the pair values
 * in chunks from t, h, w and concatenates two copies (rotate_half pairs).
 * models/qwen2_vl/modeling_qwen2_vl.py L102 (default section), L114-116
 * (full head), L137-142 (chunks, cat), L491 (head_dim = hidden / heads);
 * configuration_qwen2_vl.py L68 (default_theta 1e6), L87-90 (defaults);
 * Qwen2.5-VL the same: modeling_qwen2_5_vl.py L504, L539-544,
 * configuration_qwen2_5_vl.py L91, L110-113, L196-201; transformers 5.23.0. */
{.model_type = "qwen2_5_vl", .arch = "Qwen2_5_VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2_5_vl_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py L196-201 (transformers 5.23.0)"},
{.model_type = "qwen2_5_vl_text", .arch = NULL, QWEN2_VL_MROPE, .default_layers = 80,
 .default_hidden = 8192, .default_heads = 64,
 .source = "models/qwen2_5_vl/modeling_qwen2_5_vl.py L504, L539-544; configuration_qwen2_5_vl.py "
           "L91, L110-113 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_qwen2_5_vl.py L110-116 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen2_5_vl.py L157")},
WRAPPER("qwen2_audio", NULL, ROPE, "text_config", "qwen2", "models/qwen2_audio/configuration_qwen2_audio.py L95 (text_config default qwen2; transformers 5.23.0)"),
{.model_type = "qwen2_moe", .rotary = WHOLE_HEAD, .arch = "Qwen2Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen2_moe/modeling_qwen2_moe.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings max_window_layers num_attention_heads "
            "num_hidden_layers use_sliding_window",
 .nonnull_source = "configuration_qwen2_moe.py L80-94 (transformers 5.23.0)"},
{.model_type = "qwen2_vl", .arch = "Qwen2VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2_vl_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/qwen2_vl/configuration_qwen2_vl.py L157-179 (transformers 5.23.0)"},
{.model_type = "qwen2_vl_text", .arch = NULL, QWEN2_VL_MROPE, .default_layers = 80,
 .default_hidden = 8192, .default_heads = 64,
 .source = "models/qwen2_vl/modeling_qwen2_vl.py L102, L114-116, L137-142, L491; "
           "configuration_qwen2_vl.py L68, L87-90 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_qwen2_vl.py L87-93 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen2_vl.py L120")},
{.model_type = "qwen3", .rotary = WHOLE_HEAD, .arch = "Qwen3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .default_head_dim = 128,
 .source = "models/qwen3/modeling_qwen3.py (llama apply_rotary_pos_emb)",
 .nonnull = "head_dim hidden_size max_position_embeddings max_window_layers "
            "num_attention_heads num_hidden_layers use_sliding_window",
 .nonnull_source = "configuration_qwen3.py L63-79 (transformers 5.23.0)"},
WRAPPER("qwen3_5", "Qwen3_5", MIXED, "text_config", "qwen3_5_text", "models/qwen3_5/configuration_qwen3_5.py L171-176 (transformers 5.23.0)"),
WRAPPER("qwen3_5_moe", "Qwen3_5Moe", MIXED, "text_config", "qwen3_5_moe_text", "models/qwen3_5_moe/configuration_qwen3_5_moe.py L183 (transformers 5.23.0)"),

/* ---- qwen3_5, qwen3_5_moe (Qwen3.5): Gated DeltaNet (linear attention)
 * layers and attention layers (layer_types, else a full layer every
 * full_attention_interval = 4: "linear_attention" if (i + 1) % 4 else
 * "full_attention"); the attention rotate_half over the first
 * int(head_dim * partial_rotary_factor) (default 0.25, head_dim 256), with
 * Qwen3-VL's interleaved M-RoPE (round robin, H and W pairs at 1::3 and 2::3)
 * and mrope_section [11, 11, 10] when the block has none; rope_theta default
 * 10000 (the mixin's default_theta, modeling_rope_utils.py L760). The wrappers
 * read text_config. transformers 5.23.0
 * models/qwen3_5/configuration_qwen3_5.py L56, L83-103, L110-118, L171-176;
 * modeling_qwen3_5.py L134-150 (mrope_section default), L152-172 (dim =
 * int(head_dim * partial_rotary_factor)), L187-198 (recomposition), L667-697
 * (partial rotate_half), L858-862 (the kind per layer);
 * models/qwen3_5_moe/configuration_qwen3_5_moe.py L56, L90-103, L119-129,
 * L183; modeling_qwen3_5_moe.py L146. */
{.model_type = "qwen3_5_moe_text", .arch = "Qwen3_5MoeText", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .partial_default = 0.25, .default_head_dim = 256,
 .default_hidden = 2048, .default_layers = 40, .default_heads = 16,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .period_key = "full_attention_interval",
 .kinds_period = 4, .kinds_offset = KINDS_LAST, .mrope_default = {11, 11, 10},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_5_moe/configuration_qwen3_5_moe.py L56, L90-103, L119-129; "
           "modeling_qwen3_5_moe.py L146 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_qwen3_5_moe.py L90-103 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_5_moe.py L107")},
{.model_type = "qwen3_5_text", .arch = "Qwen3_5Text", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .partial_default = 0.25, .default_head_dim = 256,
 .default_hidden = 4096, .default_layers = 32, .default_heads = 16,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .period_key = "full_attention_interval",
 .kinds_period = 4, .kinds_offset = KINDS_LAST, .mrope_default = {11, 11, 10},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_5/configuration_qwen3_5.py L56, L83-103, L110-118; modeling_qwen3_5.py "
           "L134-198, L667-697, L858-862 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_qwen3_5.py L83-97 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_5.py L111")},
WRAPPER("qwen3_asr", NULL, ROPE, "text_config", "qwen3", "models/qwen3_asr/configuration_qwen3_asr.py L101-103 (text_config default qwen3; transformers 5.23.0)"),

/* ---- qwen3_moe: head_dim omitted is hidden_size / num_attention_heads, not
 * qwen3's 128: Qwen3MoeConfig has no head_dim field and the attention takes
 * getattr(config, "head_dim", hidden_size // num_attention_heads)
 * (transformers 5.23.0 models/qwen3_moe/modeling_qwen3_moe.py L128; found by
 * tools/hf_probe.py on Qwen3MoeConfig's defaults: 2048 / 32 = 64). */
{.model_type = "qwen3_moe", .rotary = WHOLE_HEAD, .arch = "Qwen3Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen3_moe/modeling_qwen3_moe.py (llama apply_rotary_pos_emb; head_dim L128 "
           "in 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "use_sliding_window",
 .nonnull_source = "configuration_qwen3_moe.py L82-95 (transformers 5.23.0)"},

/* ---- qwen3_next: Gated DeltaNet (linear attention) layers and attention
 * layers (layer_types, else a full layer every full_attention_interval = 4);
 * the attention rotate_half RoPE over int(head_dim * 0.25), head_dim 256.
 * transformers 5.23.0 models/qwen3_next/configuration_qwen3_next.py L93-107,
 * L122, L127-135 (rope_theta default 10000: modeling_rope_utils.py L760);
 * modeling_qwen3_next.py L106-108, L146-154, L279, L877-880. */
{.model_type = "qwen3_next", .arch = "Qwen3Next", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0,
 .partial_default = 0.25, .default_head_dim = 256, .default_hidden = 2048, .default_layers = 48,
 .default_heads = 16, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR,
 .period_key = "full_attention_interval", .kinds_period = 4, .kinds_offset = KINDS_LAST,
 .source = "models/qwen3_next/configuration_qwen3_next.py L93-135; modeling_qwen3_next.py "
           "L106-108, L146-154, L279, L877-880 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_qwen3_next.py L93-107 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_next.py L112")},

WRAPPER("qwen3_omni_moe", "Qwen3OmniMoe", ROPE, "thinker_config.text_config", "qwen3_omni_moe_text", "models/qwen3_omni_moe/configuration_qwen3_omni_moe.py L613-625 (transformers 5.23.0)"),

/* ---- qwen3_omni_moe_talker_code_predictor (Qwen3-Omni's talker code
 * predictor, its own config): Qwen3's attention (q/k RMS norms, then
 * rotate_half, HALF, over the whole head of head_dim 128) in every layer,
 * sliding or not; rope_theta the mixin's 10000. models/qwen3_omni_moe/
 * modeling_qwen3_omni_moe.py L859-864, L1403-1426, L2434-2500, L2566-2612,
 * L2614-2700; configuration_qwen3_omni_moe.py L244-310 (transformers 5.23.0). */
{.model_type = "qwen3_omni_moe_talker_code_predictor", .rotary = WHOLE_HEAD,
 .arch = "Qwen3OmniMoeTalkerCodePredictor", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 5, .default_hidden = 1024, .default_heads = 16,
 .default_head_dim = 128,
 .source = "models/qwen3_omni_moe/modeling_qwen3_omni_moe.py L859-864, L1403-1426, L2434-2500, "
           "L2566-2700; configuration_qwen3_omni_moe.py L244-310 (transformers 5.23.0)",
 .nonnull = "num_hidden_layers max_window_layers",
 .nonnull_source = "configuration_qwen3_omni_moe.py L274, L287 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_omni_moe.py L2599")},

/* ---- qwen3_omni_moe (Qwen3-Omni): thinker_config.text_config
 * (configuration_qwen3_omni_moe.py L613-625); qwen3_omni_moe_text is
 * Qwen3-VL's interleaved M-RoPE (default section [24, 20, 20], the round
 * robin of recomposition_frequencies whatever "interleaved" and
 * "mrope_interleaved" say: neither is read), rotate_half, rope_theta 1e6.
 * models/qwen3_omni_moe/modeling_qwen3_omni_moe.py L1255 (default section),
 * L1292-1301 (round robin), L859-863 (rotate_half), L1436 (head_dim);
 * configuration_qwen3_omni_moe.py L131-164 (default_theta, hidden 2048,
 * layers 28, heads 28); transformers 5.23.0. */
{.model_type = "qwen3_omni_moe_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 28, .default_hidden = 2048, .default_heads = 28,
 .mrope_default = {24, 20, 20}, .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_omni_moe/modeling_qwen3_omni_moe.py L859-863, L1255, L1292-1301, L1436; "
           "configuration_qwen3_omni_moe.py L131-164 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_qwen3_omni_moe.py L161-167 (transformers 5.23.0)"},

WRAPPER("qwen3_omni_moe_thinker", "Qwen3OmniMoeThinker", ROPE, "text_config", "qwen3_omni_moe_text", "models/qwen3_omni_moe/configuration_qwen3_omni_moe.py L222-230 (transformers 5.23.0)"),

/* ---- qwen3_vl: a wrapper whose text_config (qwen3_vl_text) is qwen3's RoPE
 * with interleaved M-RoPE (rope_scaling {"mrope_interleaved": true,
 * "mrope_section": [24, 20, 20]}): apply_interleaved_mrope takes h at
 * slice(1, 3 s_h, 3), w at slice(2, 3 s_w, 3), t elsewhere. */

WRAPPER("qwen3_vl", "Qwen3VL", ROPE, "text_config", "qwen3_vl_text", "models/qwen3_vl/modeling_qwen3_vl.py (interleaved M-RoPE)"),
WRAPPER("qwen3_vl_moe", "Qwen3VLMoe", ROPE, "text_config", "qwen3_vl_moe_text", "models/qwen3_vl_moe/configuration_qwen3_vl_moe.py (Qwen3VLMoeConfig; transformers 5.23.0)"),

/* ---- qwen3_vl, qwen3_vl_moe: wrappers whose text_config (qwen3_vl_text,
 * qwen3_vl_moe_text) is qwen3's RoPE with interleaved M-RoPE: the code reads
 * rope_parameters.get("mrope_section", [24, 20, 20]) and always takes h at
 * slice(1, 3 s_h, 3), w at slice(2, 3 s_w, 3), t elsewhere
 * (mrope_interleaved is not read). models/qwen3_vl/modeling_qwen3_vl.py L369
 * (default section), L406-415 (round robin); configuration_qwen3_vl.py
 * L81-90 (default_theta 5e5, hidden 4096, layers 32, heads 32, head_dim 128);
 * qwen3_vl_moe/modeling_qwen3_vl_moe.py L769, L806-815,
 * configuration_qwen3_vl_moe.py L82-86, L108, L117 (head_dim = hidden /
 * heads when absent); transformers 5.23.0. */
{.model_type = "qwen3_vl_moe_text", .arch = "Qwen3VLMoeText", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 500000.0, .default_layers = 24, .default_hidden = 2048,
 .default_heads = 16, .mrope_default = {24, 20, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_vl_moe/modeling_qwen3_vl_moe.py L769, L806-815; "
           "configuration_qwen3_vl_moe.py L82-86, L108, L117 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_qwen3_vl_moe.py L82-89 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_vl_moe.py L437")},
{.model_type = "qwen3_vl_text", .arch = "Qwen3VLText", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128, .mrope_default = {24, 20, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_vl/modeling_qwen3_vl.py L369, L406-415; configuration_qwen3_vl.py L81-90 "
           "(transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_qwen3_vl.py L85-92 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_qwen3_vl.py L143")},

/* ---- qwen4_exp, qwen4_exp_text: refused. Qwen3.5-MoE's layers, whose
 * attention layers pick the keys they attend to with a QSA indexer: its
 * query rotates at the token's position, its keys are mean-pooled over blocks
 * of compress_ratio tokens and rotated at each block's first position
 * (group_starts). transformers 5.23.0 models/qwen4_exp/modeling_qwen4_exp.py
 * L74-130, L670-790 (L742 the block start), L812-850;
 * configuration_qwen4_exp.py L29, L292. */
REFUSED("qwen4_exp", "Qwen4Exp", MIXED, HALF,
        "Qwen4-Exp's QSA indexer (keys mean-pooled over compress_ratio blocks, rotated at "
        "each block's first position) is not implemented",
        "models/qwen4_exp/modeling_qwen4_exp.py L74-130, L670-790, L812-850 (transformers "
        "5.23.0); configuration_qwen4_exp.py L29, L292"),
REFUSED("qwen4_exp_text", NULL, MIXED, HALF,
        "Qwen4-Exp's QSA indexer (keys mean-pooled over compress_ratio blocks, rotated at "
        "each block's first position) is not implemented",
        "models/qwen4_exp/modeling_qwen4_exp.py L74-130, L670-790, L812-850 (transformers "
        "5.23.0); configuration_qwen4_exp.py L29"),

WRAPPER("rag", NULL, LEARNED, "generator", "bart", "models/rag/configuration_rag.py L82-86, L114-125 (transformers 5.23.0)"),

/* ---- recurrent_gemma (RecurrentGemma / Griffin): layer i is block_types[i %
 * len] ((block_types * 100)[:num_hidden_layers]; without the key the class
 * default recurrent, recurrent, attention: every third layer attention).
 * Recurrent blocks (RG-LRU after a short convolution) have no attention and no
 * position input but a state reset at position 0. Attention blocks are local
 * (attention_window_size, a mask) and rotate the first int(head_dim *
 * partial_rotary_factor) elements (default 0.5) with rotate_half (HALF) at
 * base rope_theta 10000; head_dim is hidden_size // num_attention_heads unless
 * the config gives head_dim (__post_init__ sets it, then the config's own keys
 * are set over it). RecurrentGemmaRotaryEmbedding raises on any rope type but
 * default. */
{.model_type = "recurrent_gemma", .arch = "RecurrentGemma", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .partial_default = 0.5, .base_default = 10000.0, .default_layers = 26,
 .default_hidden = 2560, .default_heads = 10, .layers = POSENC_LAYERS_KINDS,
 .kinds = KINDS_RECURRENT_GEMMA, .kinds_key = "block_types", .kinds_period = 3,
 .kinds_offset = KINDS_LAST,
 .scaling_types = "default",
 .quirks = &quirk_recurrent_gemma,
 .source = "models/recurrent_gemma/modeling_recurrent_gemma.py L64-152, L197-260, L280-310, "
           "L490-497; configuration_recurrent_gemma.py L56-102 (transformers 5.23.0)",
 .nonnull = "hidden_size num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_recurrent_gemma.py L59-63 (transformers 5.23.0)",
 .null_misread = "rope_theta block_types",
 .null_misread_source = "modeling_recurrent_gemma.py L98 (base ** ...: a rope_theta None, with "
                        "no rope_parameters.rope_theta, fails); configuration_recurrent_gemma.py "
                        "L75, L84 (block_types declared | None, then list(self.block_types) "
                        "raises on it; transformers 5.23.0)"},

/* ---- reformer: axial position embeddings (axial_pos_shape (h, w), one
 * learned table per axis, concatenated: position p reads rows p / w and
 * p % w) when axial_pos_embds (default), else a plain learned table; one
 * layer per attn_layers entry (LSH and local attention carry no positions);
 * quirk. transformers 5.23.0 models/reformer/modeling_reformer.py L160-335;
 * configuration_reformer.py L108-150 (hidden 256, 4096 positions). */
{.model_type = "reformer", .arch = "Reformer", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 6, .default_hidden = 256, .default_positions = 4096,
 .quirks = &quirk_reformer,
 .source = "models/reformer/modeling_reformer.py L160-335; configuration_reformer.py L108-150 "
           "(transformers 5.23.0)",
 .nonnull = "axial_pos_embds hidden_size max_position_embeddings num_attention_heads",
 .nonnull_source = "configuration_reformer.py L115-137 (transformers 5.23.0)"},

/* ---- rembert: BERT's learned table, offset 0, input_embedding_size wide
 * (default 256; embedding_hidden_mapping_in maps it to hidden_size).
 * transformers 5.23.0 models/rembert/modeling_rembert.py L47-97
 * (RemBertEmbeddings: L55 table, L80 positions, L90-91 added);
 * configuration_rembert.py L49-64 (hidden 1152, 32 layers, 18 heads, 512
 * positions). */
{.model_type = "rembert", .arch = "RemBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 32, .default_hidden = 1152, .default_heads = 18, .default_positions = 512,
 .embed_key = "input_embedding_size", .embed_default = 256,
 .source = "models/rembert/modeling_rembert.py L47-97; configuration_rembert.py L49-64 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size input_embedding_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_rembert.py L49-59 (transformers 5.23.0)"},

/* ---- roberta: learned absolute, offset padding_idx + 1 (pad_token_id 1).
 * roberta/modeling_roberta.py @87b236ba L49-135 and
 * create_position_ids_from_input_ids; */
{.model_type = "roberta", .arch = "Roberta", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "roberta/modeling_roberta.py @87b236ba L49-135; configuration_roberta.py @3f832360",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_roberta.py L45-52 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_roberta.py L153 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- roberta-prelayernorm: RoBERTa's embeddings (padding_idx + 1). */
{.model_type = "roberta-prelayernorm", .arch = "RobertaPreLayerNorm",
 .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12, .default_hidden = 768,
 .default_heads = 12, .default_positions = 512, .pos_offset = -1,
 .source = "models/roberta_prelayernorm/modeling_roberta_prelayernorm.py L52-154; "
           "configuration_roberta_prelayernorm.py L46-57 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_roberta_prelayernorm.py L46-53 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_roberta_prelayernorm.py L149 (input_ids.ne(padding_idx) fails "
                        "on a None; transformers 5.23.0)"},

/* ---- roc_bert: BERT's learned table, offset 0, added in both of
 * RoCBertEmbeddings' paths (with or without map_inputs_layer; the shape and
 * pronunciation embeddings carry no position). transformers 5.23.0
 * models/roc_bert/modeling_roc_bert.py L50-202 (L62 table, L107 positions,
 * L126-127 and L165-166 added); configuration_roc_bert.py L63-75. */
{.model_type = "roc_bert", .arch = "RoCBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/roc_bert/modeling_roc_bert.py L50-202; configuration_roc_bert.py L63-75 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_roc_bert.py L63-70 (transformers 5.23.0)"},

/* ---- roformer: the RoPE paper's model (Su et al.): RoPE in interleaved
 * pairs over the whole head (hidden_size // num_attention_heads), base
 * 10000 fixed by the code, cos/sin rows of a float table of
 * max_position_embeddings rows (a position past it fails), values turned
 * too when rotary_value: quirk_roformer reads the part (config_quirks.c
 * cites the lines). transformers 5.23.0 models/roformer/modeling_roformer.py
 * L49-82, L115-247, L390-396; configuration_roformer.py L46-66. */
{.model_type = "roformer", .arch = "RoFormer", .scheme = POSENC_SCHEME_ROPE,
 .layers_key = "num_hidden_layers",
 .layout = INTERLEAVED, .base_key = FIXED_BASE, .base_default = 10000.0,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 1536,
 .quirks = &quirk_roformer,
 .source = "models/roformer/modeling_roformer.py L49-82, L115-247, L390-396; "
           "configuration_roformer.py L46-66 (transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers num_attention_heads "
            "max_position_embeddings rotary_value",
 .nonnull_source = "configuration_roformer.py L48-62 (transformers 5.23.0)"},

/* ---- rwkv: RWKV-4 blocks only (time mixing by a decaying recurrence, no
 * attention, no position input): no positions. */
{.model_type = "rwkv", .arch = "Rwkv", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_RWKV,
 .default_layers = 32, .default_hidden = 4096,
 .source = "models/rwkv/modeling_rwkv.py L206-360 (transformers 5.23.0); configuration_rwkv.py "
           "L51-71",
 .nonnull = "hidden_size num_hidden_layers",
 .nonnull_source = "configuration_rwkv.py L56-57 (transformers 5.23.0)"},

WRAPPER("sam3_lite_text", NULL, LEARNED, "text_config", "sam3_lite_text_text_model", "models/sam3_lite_text/configuration_sam3_lite_text.py L178 (transformers 5.23.0)"),

/* ---- sam3_lite_text_text_model: a learned table of max_position_embeddings
 * rows (default 77) of hidden_size (512) added to the token embeddings,
 * resized by bilinear interpolation (align_corners false) to the sequence
 * length whenever the two differ: token t of T mixes two rows
 * (POSENC_IDS_RESAMPLED, posenc_resample_rows); 12 layers; quirk.
 * transformers 5.23.0 models/sam3_lite_text/modeling_sam3_lite_text.py
 * L73-88, L328-338; configuration_sam3_lite_text.py L126-134. */
{.model_type = "sam3_lite_text_text_model", .arch = "Sam3LiteTextText",
 .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12, .default_hidden = 512,
 .default_positions = 77, .quirks = &quirk_sam3_lite_text,
 .source = "models/sam3_lite_text/modeling_sam3_lite_text.py L73-88, L328-338; "
           "configuration_sam3_lite_text.py L126-134 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_sam3_lite_text.py L129-134 (transformers 5.23.0)"},

/* ---- seed_oss: llama's rotate_half (HALF, full head), head_dim 128,
 * rope_theta 10000 (the mixin's default_theta). */
{.model_type = "seed_oss", .rotary = WHOLE_HEAD, .arch = "SeedOss", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 64, .default_hidden = 4096, .default_heads = 80,
 .default_head_dim = 128,
 .source = "models/seed_oss/modeling_seed_oss.py L86-120, L161 (5.23.0); "
           "configuration_seed_oss.py L63-90",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_seed_oss.py L63-84 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_seed_oss.py L322")},
WRAPPER("shieldgemma2", NULL, ROPE, "text_config", "gemma3_text", "models/shieldgemma2/configuration_shieldgemma2.py L65 (text_config default gemma3_text; transformers 5.23.0)"),
WRAPPER("siglip", NULL, LEARNED, "text_config", "siglip_text_model", "models/siglip/configuration_siglip.py L137 (text_config default siglip_text_model; transformers 5.23.0)"),
WRAPPER("siglip2", NULL, LEARNED, "text_config", "siglip2_text_model", "models/siglip2/configuration_siglip2.py L146 (text_config default siglip2_text_model; transformers 5.23.0)"),

/* ---- siglip2_text_model: SigLIP's text embeddings (learned table,
 * positions 0..). transformers 5.23.0 models/siglip2/modeling_siglip2.py
 * L218-253 (Siglip2TextEmbeddings); configuration_siglip2.py L51-55. */
{.model_type = "siglip2_text_model", .arch = "Siglip2Text", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 64,
 .source = "models/siglip2/modeling_siglip2.py L218-255; configuration_siglip2.py L51-55 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_siglip2.py L51-55 (transformers 5.23.0)"},

/* ---- siglip_text_model: CLIP's text embeddings (learned table, positions
 * 0.., no offset). transformers 5.23.0 models/siglip/modeling_siglip.py
 * L189-224 (SiglipTextEmbeddings); configuration_siglip.py L48-52 (hidden
 * 768, 12 layers, 12 heads, 64 positions). */
{.model_type = "siglip_text_model", .arch = "SiglipText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 64,
 .source = "models/siglip/modeling_siglip.py L189-226; configuration_siglip.py L48-52 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_siglip.py L48-52 (transformers 5.23.0)"},

/* ---- smollm3: llama's RoPE where no_rope_layers[i] is 1 (default NoPE
 * every no_rope_layer_interval = 4 layers), no query scaling.
 * models/smollm3/modular_smollm3.py (SmolLM3Config, SmolLM3Attention.use_rope). */
{.model_type = "smollm3", .rotary = WHOLE_HEAD, .arch = "SmolLM3", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .layers = POSENC_LAYERS_NO_ROPE, .no_rope_interval = 4,
 .source = "models/smollm3/modular_smollm3.py (SmolLM3Attention.use_rope)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "use_sliding_window",
 .nonnull_source = "configuration_smollm3.py L73-87 (transformers 5.23.0)"},

WRAPPER("smolvlm", NULL, ROPE, "text_config", "llama", "models/smolvlm/configuration_smolvlm.py L89 (text_config default llama; transformers 5.23.0)"),

/* ---- solar_open: llama's rotate_half (HALF) over int(head_dim *
 * partial_rotary_factor) (default 1: the whole head), head_dim 128,
 * default_theta 1e6. */
{.model_type = "solar_open", .rotary = WHOLE_HEAD, .arch = "SolarOpen", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 48, .default_hidden = 4096, .default_heads = 64,
 .default_head_dim = 128,
 .source = "models/solar_open/modeling_solar_open.py L206-236, L284, L317, L423-426 (5.23.0); "
           "configuration_solar_open.py L64-90",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_solar_open.py L64-90 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_solar_open.py L430")},

WRAPPER("speech-encoder-decoder", NULL, LEARNED, "decoder", "bert", "models/speech_encoder_decoder/configuration_speech_encoder_decoder.py L60-72 (transformers 5.23.0)"),

/* ---- speech_to_text (Speech2Text): M2M100's fairseq sinusoid, rows from
 * padding_idx + 1, in the encoder (max_source_positions rows, over the
 * subsampled frames) and the decoder (max_target_positions); quirk. */
{.model_type = "speech_to_text", .arch = "Speech2Text", .scheme = POSENC_SCHEME_SINUSOID,
 .layers = POSENC_LAYERS_ENC_DEC, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1,
 .quirks = &quirk_speech_to_text,
 .source = "models/speech_to_text/modeling_speech_to_text.py L103-160, L539-576, L628-634 "
           "(transformers 5.23.0)",
 .nonnull = "d_model decoder_layers encoder_layers max_source_positions "
            "max_target_positions",
 .nonnull_source = "configuration_speech_to_text.py L67-89 (transformers 5.23.0)"},

/* ---- splinter: BERT's learned absolute table, offset 0. transformers
 * 5.23.0 models/splinter/modeling_splinter.py L40-88 (SplinterEmbeddings);
 * configuration_splinter.py L47-58. */
{.model_type = "splinter", .arch = "Splinter", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/splinter/modeling_splinter.py L40-88; configuration_splinter.py L47-58 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_splinter.py L47-54 (transformers 5.23.0)"},

/* ---- squeezebert: BERT's learned table from row 0, embedding_size wide
 * (class default 768, the hidden size). */
{.model_type = "squeezebert", .arch = "SqueezeBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .embed_key = "embedding_size", .embed_default = 768,
 .source = "models/squeezebert/modeling_squeezebert.py L51-79; configuration_squeezebert.py "
           "L65-72 (transformers 5.23.0)",
 .nonnull = "embedding_size hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_squeezebert.py L58-72 (transformers 5.23.0)"},

/* ---- stablelm: rotate_half over int(head_dim * partial_rotary_factor). */
{.model_type = "stablelm", .arch = "StableLm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.25,
 .source = "models/stablelm/modeling_stablelm.py (partial rotary, rotate_half)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_stablelm.py L47-52 (transformers 5.23.0)"},

/* ---- starcoder2: llama's RoPE. */
{.model_type = "starcoder2", .rotary = WHOLE_HEAD, .arch = "Starcoder2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/starcoder2/modeling_starcoder2.py (llama apply_rotary_pos_emb)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_starcoder2.py L62-68 (transformers 5.23.0)"},

/* ---- step3p5 (Step 3.5/3.7's text model), step3p7 (a wrapper: text_config,
 * whose model_type Step3p7Config pops, read as step3p5): q/k norms, then
 * rotate_half (HALF) over the first int(head_dim * partial_rotary_factor)
 * elements, one RoPE per layer type from rope_parameters.full_attention /
 * .sliding_attention (the config class builds the sets from the legacy
 * per-layer rope_theta / partial_rotary_factors lists, taking one layer of each
 * type; a config without the sets is refused); layer_types default all full;
 * head_dim 128. Sliding layers' own head count (num_sliding_attention_heads)
 * does not touch positions. transformers 5.23.0
 * models/step3p7/modeling_step3p7.py L437-490 (per-type rotary), L630-665,
 * L668-722, L830; configuration_step3p7.py L110-160, L251-310, L316-333. */
{.model_type = "step3p5", .arch = NULL, TYPE_SETS_ROPE, .default_layers = 45,
 .default_hidden = 4096, .default_heads = 64, .default_head_dim = 128,
 .source = "models/step3p7/modeling_step3p7.py L437-490, L630-665, L668-722, L830 (5.23.0); "
           "configuration_step3p7.py L110-160, L251-310",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers pad_token_id",
 .nonnull_source = "configuration_step3p7.py L146-157 (transformers 5.23.0)"},
WRAPPER("step3p7", "Step3p7", ROPE, "text_config", "step3p5", "models/step3p7/configuration_step3p7.py L316-333 (transformers 5.23.0)"),

/* ---- switch_transformers: T5's relative buckets (the first layer of each
 * stack holds relative_attention_bias, the rest reuse it), encoder then
 * decoder. */
{.model_type = "switch_transformers", .arch = "SwitchTransformers",
 .scheme = POSENC_SCHEME_RELATIVE_BUCKETS, .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .flags = POSENC_FAMILY_DECODER_OWN_DEFAULT,
 .source = "models/switch_transformers/modeling_switch_transformers.py L268-365, L425; "
           "configuration_switch_transformers.py L56-74 (transformers 5.23.0)",
 .nonnull = "d_model num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_switch_transformers.py L59-74 (transformers 5.23.0)"},

/* ---- t5: relative position buckets, one table per stack (layer 0 owns it,
 * every layer of the stack adds it); encoder bidirectional, decoder causal.
 * models/t5/modeling_t5.py @e2412028 L153-254, L636-651, L758-786;
 * configuration_t5.py @3f832360 L72-104. */
{.model_type = "t5", .arch = "T5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 6, .default_hidden = 512, .default_heads = 8,
 .source = "models/t5/modeling_t5.py @e2412028 L153-254, L636-651, L758-786",
 .nonnull = "d_model num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_t5.py L45-52 (transformers 5.23.0)"},

/* ---- t5_gemma_module: one stack of T5Gemma (below), its sub-config read
 * as a config of its own: Gemma 2's one rotary for sliding and full layers
 * (T5GemmaRotaryEmbedding L99-143: rope_theta, dim = head_dim; rotate_half
 * L146-176, HALF, in the self-attention L271-272); T5GemmaModuleConfig 26
 * layers, hidden 2304, 8 heads, head_dim 256, 8192 positions, theta 10000
 * (default_theta, modeling_rope_utils.py L760). transformers 5.23.0
 * models/t5gemma/modeling_t5gemma.py; configuration_t5gemma.py L30-110. */
{.model_type = "t5_gemma_module", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 26, .default_hidden = 2304, .default_heads = 8,
 .default_head_dim = 256,
 .source = "models/t5gemma/modeling_t5gemma.py L99-176, L225-296 (transformers 5.23.0); "
           "configuration_t5gemma.py L30-110",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_t5gemma.py L69-76 (transformers 5.23.0)"},

/* ---- t5gemma (T5Gemma): two Gemma 2 stacks joined by cross-attention, the
 * encoder and decoder keys each a config of its own (T5GemmaModuleConfig,
 * configuration_t5gemma.py L114-164) with its own rotary (T5GemmaEncoder
 * L633, positions arange(n) L658-659; T5GemmaDecoder L717, arange(n) + past
 * L751-752); the cross-attention (L299-382) rotates nothing. Layers: the
 * encoder's, then the decoder's. transformers 5.23.0
 * models/t5gemma/modeling_t5gemma.py. */
{.model_type = "t5gemma", .arch = "T5Gemma", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_ENC_DEC, .stacks = &STACKS_T5GEMMA,
 .source = "models/t5gemma/modeling_t5gemma.py L99-176, L225-382, L614-785 (transformers "
           "5.23.0); configuration_t5gemma.py L30-164"},

/* ---- t5gemma2 (T5Gemma 2): two Gemma 3 stacks, each with Gemma 3's RoPE
 * set per layer type (T5Gemma2RotaryEmbedding L93-153: rope_parameters
 * [layer_type], rotate_half, HALF). The encoder is a multimodal wrapper
 * (T5Gemma2EncoderConfig, its text model under encoder.text_config: its
 * layers are the encoder's; T5Gemma2Encoder L828-930, the text model
 * L727-826, positions arange(n) L784-785); the decoder (L931-1058, positions
 * arange(n) + past L987-990) merges self- and cross-attention
 * (T5Gemma2MergedAttention L313-432): its queries and self keys rotate at
 * the decoder's positions, the encoder's keys (cross part, L389-394) are not
 * rotated. transformers 5.23.0 models/t5gemma2/modeling_t5gemma2.py;
 * configuration_t5gemma2.py L145-196, L313-368. */
{.model_type = "t5gemma2", .arch = "T5Gemma2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_ENC_DEC, .stacks = &STACKS_T5GEMMA2,
 .source = "models/t5gemma2/modeling_t5gemma2.py L93-175, L313-432, L727-1058 (transformers "
           "5.23.0); configuration_t5gemma2.py L30-142, L145-368"},

/* ---- t5gemma2_decoder: T5Gemma 2's decoder stack (above) as a config of its
 * own: as gemma3_text, sliding layers rope_parameters.sliding_attention
 * (rope_local_base_freq, default_theta local 10000), full layers
 * full_attention (rope_theta, default 1e6, where rope_scaling goes);
 * layer_types from sliding_window_pattern 6; 26 layers, hidden 2304, 8
 * heads, head_dim 256, 131072 positions. transformers 5.23.0
 * models/t5gemma2/configuration_t5gemma2.py L198-310. */
{.model_type = "t5gemma2_decoder", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "rope_local_base_freq",
 .local_base_default = 10000.0, .sliding_pattern = 6, .default_layers = 26,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/t5gemma2/modeling_t5gemma2.py L93-175, L313-432; configuration_t5gemma2.py "
           "L198-310 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_t5gemma2.py L230-237 (transformers 5.23.0)"},

WRAPPER("t5gemma2_encoder", NULL, ROPE, "text_config", "t5gemma2_text", "models/t5gemma2/configuration_t5gemma2.py L145-196 (transformers 5.23.0)"),

/* ---- t5gemma2_text: T5Gemma 2's encoder text model, as t5gemma2_decoder
 * (T5Gemma2TextConfig, the same defaults and rope conversion).
 * transformers 5.23.0 models/t5gemma2/configuration_t5gemma2.py L30-142;
 * modeling_t5gemma2.py L93-175, L235-311, L727-826. */
{.model_type = "t5gemma2_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "rope_local_base_freq",
 .local_base_default = 10000.0, .sliding_pattern = 6, .default_layers = 26,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/t5gemma2/modeling_t5gemma2.py L93-175, L235-311, L727-826; "
           "configuration_t5gemma2.py L30-142 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_t5gemma2.py L62-69 (transformers 5.23.0)"},

/* ---- tapas: BERT's learned table (1024 rows by default), positions reset
 * per table cell when reset_position_index_per_cell (default), plus the
 * token-type tables of type_vocab_sizes; quirk. transformers 5.23.0
 * models/tapas/modeling_tapas.py L67-143; configuration_tapas.py L104-141
 * (12 layers, hidden 768). */
{.model_type = "tapas", .arch = "Tapas", .scheme = POSENC_SCHEME_LEARNED,
 .layers_key = "num_hidden_layers",
 .default_layers = 12, .default_hidden = 768, .default_positions = 1024,
 .quirks = &quirk_tapas,
 .source = "models/tapas/modeling_tapas.py L67-143; configuration_tapas.py L104-141 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size num_hidden_layers max_position_embeddings "
            "reset_position_index_per_cell num_attention_heads",
 .nonnull_source = "configuration_tapas.py L107-141 (transformers 5.23.0)"},

WRAPPER("tipsv2", NULL, SINUSOID, "text_config", "tipsv2_text_model", "models/tipsv2/configuration_tipsv2.py L168 (transformers 5.23.0)"),

/* ---- tipsv2_text_model: a fixed sinusoid table
 * (Tipsv2SinusoidalPositionalEmbedding.get_embedding, tensor2tensor's, which
 * is fairseq's: sines of every frequency exp(-k log(10000) / (half_dim - 1))
 * first, then the cosines, float32, an odd width's last column 0, no
 * padding row) read at rows 0.. (position_ids = arange), added to the token
 * embeddings scaled by sqrt(hidden_size) (scale_sqrt_depth: the tokens', not
 * the positions'). transformers 5.23.0 models/tipsv2/modeling_tipsv2.py
 * L586-662; configuration_tipsv2.py L109-127 (12 layers, hidden 768, 64
 * positions). */
{.model_type = "tipsv2_text_model", .arch = "Tipsv2Text", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = 0, .default_layers = 12,
 .default_hidden = 768, .default_positions = 64,
 .source = "models/tipsv2/modeling_tipsv2.py L586-662; configuration_tipsv2.py L109-127 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_tipsv2.py L113-117 (transformers 5.23.0)"},

/* ---- trocr (TrOCR's text decoder, alone or the decoder part of a
 * vision-encoder-decoder): use_learned_position_embeddings picks BART's
 * learned table (offset 2) or fairseq's sinusoid from pad_token_id + 1;
 * quirk_trocr (config_quirks.c) has the reading. */
{.model_type = "trocr", .arch = "TrOCR", .scheme = POSENC_SCHEME_LEARNED,
 .layers_key = "decoder_layers", .default_layers = 12, .default_hidden = 1024,
 .default_positions = 512, .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = -1,
 .quirks = &quirk_trocr,
 .source = "models/trocr/modeling_trocr.py L37-65, L78-135, L405-425, L530-541; "
           "configuration_trocr.py L48-76 (transformers 5.23.0)",
 .nonnull = "d_model decoder_layers max_position_embeddings use_learned_position_embeddings",
 .nonnull_source = "configuration_trocr.py L55-69 (transformers 5.23.0)"},

/* ---- ultrabert (encoder): llama's rotate_half (HALF, full head), one RoPE
 * per layer type from rope_parameters.full_attention / .sliding_attention
 * (class defaults: full theta 2560000, sliding 10000). The older format
 * (rope_theta a list per layer, attention_windows) is refused: posenc needs
 * the per-type sets and layer_types. transformers 5.23.0
 * models/ultrabert/modeling_ultrabert.py L64-116 (per-type rotary),
 * L126-156, L204, L243; configuration_ultrabert.py L59-113. */
{.model_type = "ultrabert", .arch = "Ultrabert", TYPE_SETS_ROPE, .default_layers = 32,
 .default_hidden = 4096, .default_heads = 32,
 .source = "models/ultrabert/modeling_ultrabert.py L64-116, L126-156, L204, L243 (5.23.0); "
           "configuration_ultrabert.py L59-113",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "sliding_window",
 .nonnull_source = "configuration_ultrabert.py L59-79 (transformers 5.23.0)"},
WRAPPER("ultravbert", NULL, ROPE, "text_config", "ultrabert", "models/ultravbert/configuration_ultravbert.py L44 (text_config default ultrabert; transformers 5.23.0)"),

/* ---- umt5: T5's buckets (the same _relative_position_bucket arithmetic,
 * bidirectional in the encoder, causal in the decoder), but every
 * self-attention layer has its own relative_attention_bias table
 * (has_relative_attention_bias=True on each). UMT5Config num_layers 8,
 * num_heads 6, d_model 512, 32 buckets, max distance 128. transformers
 * 5.23.0 models/umt5/modeling_umt5.py L232-288 (bucket, compute_bias),
 * L370-380; configuration_umt5.py L44-66. */
{.model_type = "umt5", .arch = "UMT5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 8, .default_hidden = 512, .default_heads = 6,
 .source = "models/umt5/modeling_umt5.py L232-288, L370-380; configuration_umt5.py L44-66 "
           "(transformers 5.23.0)",
 .nonnull = "d_model num_layers relative_attention_max_distance "
            "relative_attention_num_buckets",
 .nonnull_source = "configuration_umt5.py L44-51 (transformers 5.23.0)"},

WRAPPER("unlimited_ocr", "UnlimitedOcr", ROPE, "text_config", "unlimited_ocr_text", "models/unlimited_ocr/configuration_unlimited_ocr.py L277-295 (transformers 5.23.0)"),

/* ---- unlimited_ocr (Unlimited OCR): a wrapper (text_config
 * unlimited_ocr_text; the original checkpoints' language_config is not read
 * here); the text model rotates q/k with llama's rotate_half (HALF, full head;
 * __post_init__ sets head_dim = hidden_size / heads) on every layer, one
 * rotary_emb for all; layer_types ("reference_sliding_attention" or
 * "full_attention") choose only the cache and mask; rope_theta the mixin's
 * 10000. transformers 5.23.0 models/unlimited_ocr/modeling_unlimited_ocr.py
 * L978-1010, L1024-1066, L1632-1665, L1742; configuration_unlimited_ocr.py
 * L165-245, L277-295. */
{.model_type = "unlimited_ocr_text", .rotary = WHOLE_HEAD, .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 12, .default_hidden = 1280, .default_heads = 10,
 .source = "models/unlimited_ocr/modeling_unlimited_ocr.py L978-1010, L1024-1066, L1632-1665, "
           "L1742; configuration_unlimited_ocr.py L165-245 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "sliding_window",
 .nonnull_source = "configuration_unlimited_ocr.py L190-230 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_unlimited_ocr.py L1665")},

/* ---- vaultgemma: as gemma2, one rotary for every layer (layer_types, every
 * 2nd layer full, only choose the mask); rotate_half; base the mixin's
 * default_theta 10000. models/vaultgemma/configuration_vaultgemma.py L68-96
 * (defaults: hidden 2304, 26 layers, 8 heads, head_dim 256; layer_types);
 * modeling_vaultgemma.py L81-110 (rotate_half, apply_rotary_pos_emb),
 * L274-300 (VaultGemmaRotaryEmbedding, one for all layers). transformers
 * 5.23.0. */
{.model_type = "vaultgemma", .rotary = WHOLE_HEAD, .arch = "VaultGemma", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 26, .default_hidden = 2304, .default_heads = 8,
 .default_head_dim = 256,
 .source = "models/vaultgemma/configuration_vaultgemma.py L68-96; modeling_vaultgemma.py "
           "L81-110, L274-300 (transformers 5.23.0)",
 .nonnull = "head_dim hidden_size max_position_embeddings num_attention_heads "
            "num_hidden_layers",
 .nonnull_source = "configuration_vaultgemma.py L68-75 (transformers 5.23.0)",
 THETA_NULL_FAILS("modeling_vaultgemma.py L307")},
WRAPPER("vibevoice_asr", NULL, ROPE, "text_config", "qwen2", "models/vibevoice_asr/configuration_vibevoice_asr.py L68 (text_config default qwen2; transformers 5.23.0)"),
WRAPPER("video_llama_3", NULL, ROPE, "text_config", "qwen2", "models/video_llama_3/configuration_video_llama_3.py L68 (text_config default qwen2; transformers 5.23.0)"),
WRAPPER("video_llava", NULL, ROPE, "text_config", "llama", "models/video_llava/configuration_video_llava.py L58 (text_config default llama; transformers 5.23.0)"),
WRAPPER("vipllava", NULL, ROPE, "text_config", "llama", "models/vipllava/configuration_vipllava.py L58 (text_config default llama; transformers 5.23.0)"),

WRAPPER("vision-encoder-decoder", NULL, LEARNED, "decoder", "bert", "models/vision_encoder_decoder/configuration_vision_encoder_decoder.py L60-71 (transformers 5.23.0)"),
WRAPPER("vision-text-dual-encoder", NULL, LEARNED, "text_config", "bert", "models/vision_text_dual_encoder/configuration_vision_text_dual_encoder.py L55 (text_config default bert; transformers 5.23.0)"),

/* ---- visual_bert: the text tokens read BERT's learned table at 0..
 * (offset 0); the visual tokens appended after them read a second table,
 * visual_position_embeddings, at row 0 (or averaged rows of the first table
 * by image_text_alignment): no sequence position. transformers 5.23.0
 * models/visual_bert/modeling_visual_bert.py L42-170 (L48 table, L90
 * positions, L103-104 added, L120-162 visual); configuration_visual_bert.py
 * L55-69. */
{.model_type = "visual_bert", .arch = "VisualBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/visual_bert/modeling_visual_bert.py L42-170; configuration_visual_bert.py "
           "L55-69 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_visual_bert.py L55-63 (transformers 5.23.0)"},

/* ---- vits: the text encoder's attention (VitsAttention, every one of its
 * num_hidden_layers layers) adds windowed relative position embeddings
 * (Shaw et al.): learned emb_rel_k and emb_rel_v rows for offsets
 * -window_size..window_size (default 4) enter the key logits and the
 * values, zeros beyond; the token embeddings carry no position
 * (quirk_vits, config_buckets.c). transformers 5.23.0
 * models/vits/modeling_vits.py L841-995, L1078-1082, L1147-1170;
 * configuration_vits.py L113-117. */
{.model_type = "vits", .arch = "Vits", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers_key = "num_hidden_layers",
 .default_layers = 6, .quirks = &quirk_vits,
 .source = "models/vits/modeling_vits.py L841-995, L1078-1082, L1147-1170; "
           "configuration_vits.py L113-117 (transformers 5.23.0)",
 .nonnull = "num_hidden_layers hidden_size num_attention_heads", /* window_size null: quirk_vits refuses it */
 .nonnull_source = "configuration_vits.py L114-116 (transformers 5.23.0)"},
WRAPPER("voxtral", NULL, ROPE, "text_config", "llama", "models/voxtral/configuration_voxtral.py L95-97 (text_config default llama; transformers 5.23.0)"),
WRAPPER("voxtral_realtime", NULL, ROPE, "text_config", "voxtral_realtime_text", "models/voxtral_realtime/configuration_voxtral_realtime.py L150-152 (text_config default voxtral_realtime_text; transformers 5.23.0)"),

/* ---- voxtral_realtime_text (Voxtral Realtime's language model): Mistral's
 * attention, rotate_half (HALF) over the whole head (head_dim, null:
 * hidden_size / heads), one rotary for every layer (sliding_window only
 * masks). */
{.model_type = "voxtral_realtime_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/voxtral_realtime/modeling_voxtral_realtime.py L255-290, L612-660, L752-763 "
           "(transformers 5.23.0); configuration_voxtral_realtime.py L26-64",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_voxtral_realtime.py L45-52 (transformers 5.23.0)"},

/* ---- whisper: encoder fixed sinusoids (sines then cosines of
 * pos * 10000^(-k/(C/2-1))), decoder learned, offset 0.
 * models/whisper/modeling_whisper.py @e2412028 L53-62, L567-589, L202-210,
 * L701-721; configuration_whisper.py @3f832360 L181-211. */
{.model_type = "whisper", .arch = "Whisper", .scheme = POSENC_SCHEME_MIXED,
 .layers = POSENC_LAYERS_ENC_DEC, .quirks = &quirk_whisper,
 .source = "models/whisper/modeling_whisper.py @e2412028 L53-62, L202-210, L567-589, L701-721",
 .nonnull = "d_model decoder_layers encoder_layers max_source_positions "
            "max_target_positions",
 .nonnull_source = "configuration_whisper.py L129-148 (transformers 5.23.0)"},

WRAPPER("xclip", NULL, LEARNED, "text_config", "xclip_text_model", "models/x_clip/configuration_x_clip.py L138 (transformers 5.23.0)"),

/* ---- xclip_text_model: CLIP's text embeddings: a learned table
 * (position_embedding) read at rows 0.. (the position_ids buffer,
 * arange), no offset; the encoder's attention carries no position.
 * transformers 5.23.0 models/x_clip/modeling_x_clip.py L169-204;
 * configuration_x_clip.py L44-58 (hidden 512, 12 layers, 8 heads, 77
 * positions). */
{.model_type = "xclip_text_model", .arch = "XCLIPText", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 512, .default_heads = 8,
 .default_positions = 77,
 .source = "models/x_clip/modeling_x_clip.py L169-204; "
           "configuration_x_clip.py L44-58 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_x_clip.py L48-52 (transformers 5.23.0)"},

/* ---- xglm: M2M100's fairseq sinusoid, read at position_ids + self.offset
 * with offset 2 always (L58, L96), whatever pad_token_id is (its table
 * zeroes row pad_token_id, read when pad_token_id >= 2: such a config is
 * refused by name, config_schemes.c read_sinusoid); 24 layers,
 * d_model 1024, max_position_embeddings 2048 (configuration_xglm.py
 * L46-65). transformers 5.23.0 models/xglm/modeling_xglm.py L53-107. */
{.model_type = "xglm", .arch = "XGLM", .scheme = POSENC_SCHEME_SINUSOID,
 .sinusoid = POSENC_SINUSOID_FAIRSEQ, .pos_offset = 2, .default_layers = 24,
 .default_hidden = 1024, .default_positions = 2048,
 .source = "models/xglm/modeling_xglm.py L53-107 (transformers 5.23.0)",
 .nonnull = "d_model max_position_embeddings num_layers",
 .nonnull_source = "configuration_xglm.py L51-54 (transformers 5.23.0)"},

/* ---- xlm: a table of max_position_embeddings rows, emb_dim wide
 * (XLMConfig attribute_map: hidden_size -> emb_dim), read at positions
 * 0..slen-1 and added to the token (and language) embeddings; with
 * sinusoidal_embeddings true _init_weights fills it with sin (even) and
 * cos (odd) elements of pos / 10000^(2(j//2)/dim), DistilBERT's sinusoid.
 * transformers 5.23.0 models/xlm/modeling_xlm.py L48-54, L620-627, L701,
 * L726, L797-799, L821; configuration_xlm.py L95-117 (emb_dim 2048, 12
 * layers, 16 heads, 512 positions). */
{.model_type = "xlm", .arch = "XLM", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 2048, .default_heads = 16, .default_positions = 512,
 .embed_key = "emb_dim", .embed_default = 2048, .sinus_key = "sinusoidal_embeddings",
 .source = "models/xlm/modeling_xlm.py L48-54, L620-627, L701, L726, L797-821; "
           "configuration_xlm.py L95-117 (transformers 5.23.0)",
 .nonnull = "emb_dim max_position_embeddings n_heads n_layers sinusoidal_embeddings",
 .nonnull_source = "configuration_xlm.py L106-117 (transformers 5.23.0)"},

/* ---- xlm-roberta: RoBERTa's embeddings (positions from padding_idx + 1,
 * padding_idx = pad_token_id, default 1). transformers 5.23.0
 * models/xlm_roberta/modeling_xlm_roberta.py L56-157 (XLMRobertaEmbeddings,
 * create_position_ids_from_input_ids); configuration_xlm_roberta.py L45-56. */
{.model_type = "xlm-roberta", .arch = "XLMRoberta", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/xlm_roberta/modeling_xlm_roberta.py L56-157; configuration_xlm_roberta.py "
           "L45-56 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_xlm_roberta.py L45-52 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_xlm_roberta.py L153 (input_ids.ne(padding_idx) fails on a "
                        "None; transformers 5.23.0)"},

/* ---- xlm-roberta-xl: RoBERTa's embeddings (padding_idx + 1); the config
 * class's max_position_embeddings is 514, hidden 2560, 36 layers, 32 heads. */
{.model_type = "xlm-roberta-xl", .arch = "XLMRobertaXL", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 36, .default_hidden = 2560, .default_heads = 32, .default_positions = 514,
 .pos_offset = -1,
 .source = "models/xlm_roberta_xl/modeling_xlm_roberta_xl.py L61-159; "
           "configuration_xlm_roberta_xl.py L44-55 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_xlm_roberta_xl.py L44-51 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_xlm_roberta_xl.py L155 (input_ids.ne(padding_idx) fails on a "
                        "None; transformers 5.23.0)"},

/* ---- xlnet: Transformer-XL's relative sinusoid (relative_positional_encoding:
 * [sin | cos] of the distances klen .. -qlen + 1, or .. 0 for attn_type
 * "uni", clamped by clamp_len) in every layer's two-stream attention; quirk
 * (src/config/config_relsin.c). transformers 5.23.0
 * models/xlnet/modeling_xlnet.py L68-95 (rel_shift), L906-975;
 * configuration_xlnet.py L107-130. */
{.model_type = "xlnet", .arch = "XLNet", .scheme = POSENC_SCHEME_RELATIVE_SINUSOID,
 .layers_key = "num_hidden_layers n_layer",
 .default_layers = 24, .quirks = &quirk_xlnet,
 .source = "models/xlnet/modeling_xlnet.py L68-95, L906-975 (transformers 5.23.0)",
 .nonnull = "d_model n_layer attn_type bi_data clamp_len n_head same_length",
 .nonnull_source = "configuration_xlnet.py L107-123 (transformers 5.23.0)"},

/* ---- xlstm: mLSTM blocks only (a gated matrix-memory recurrence, no
 * attention, no position input): no positions. */
{.model_type = "xlstm", .arch = "xLSTM", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_XLSTM,
 .default_layers = 32, .default_hidden = 4096,
 .source = "models/xlstm/modeling_xlstm.py L39, L1036-1200, L1394-1400 (transformers 5.23.0); "
           "configuration_xlstm.py L118-157",
 .nonnull = "hidden_size num_hidden_layers",
 .nonnull_source = "configuration_xlstm.py L121-123 (transformers 5.23.0)"},

/* ---- xmod (X-MOD): RoBERTa's embeddings: a learned table whose row of
 * position 0 is padding_idx + 1. */
{.model_type = "xmod", .arch = "Xmod", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "models/xmod/modeling_xmod.py L51-140 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_xmod.py L61-68 (transformers 5.23.0)",
 .null_misread = "pad_token_id",
 .null_misread_source = "modeling_xmod.py L148 (input_ids.ne(padding_idx) fails on a None; "
                        "transformers 5.23.0)"},

/* ---- yoso: a learned table of max_position_embeddings + 2 rows read at
 * position + 2 (position_ids = arange + 2); the LSH-sampled attention
 * carries no position. transformers 5.23.0 models/yoso/modeling_yoso.py
 * L225-279 (YosoEmbeddings: L231 table, L238-239 and L254 positions,
 * L272-273 added); configuration_yoso.py L57-74 (hidden 768, 12 layers, 12
 * heads, 4096 positions). */
{.model_type = "yoso", .arch = "Yoso", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 4096, .pos_offset = 2,
 .source = "models/yoso/modeling_yoso.py L225-279; configuration_yoso.py L57-74 "
           "(transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_yoso.py L57-64 (transformers 5.23.0)"},

/* ---- youtu: DeepSeek V3's MLA: RoPE on the qk_rope_head_dim part (64) of
 * each head, apply_rotary_pos_emb_interleave when rope_interleave (default
 * true), else rotate_half; rope_theta 10000; the YaRN mscale goes into the
 * softmax scale, not q. */
{.model_type = "youtu", .arch = "Youtu", MLA_ROPE, .base_default = 10000.0,
 .default_layers = 32, .default_hidden = 2048, .default_heads = 16, .default_head_dim = 64,
 .source = "models/youtu/modeling_youtu.py L187-256, L315, L352-365 (5.23.0); "
           "configuration_youtu.py L73-103",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "qk_rope_head_dim",
 .nonnull_source = "configuration_youtu.py L66-77 (transformers 5.23.0)",
 .null_misread = "rope_interleave rope_theta",
 .null_misread_source = "modeling_youtu.py L362 (if self.config.rope_interleave: a None rotates "
                        "halves, not pairs; transformers 5.23.0); modeling_youtu.py L105 (base "
                        "** ...: a rope_theta None, with no rope_parameters.rope_theta, fails; "
                        "transformers 5.23.0)"},

/* ---- zamba: Mamba layers; "hybrid" layers run the shared attention block
 * (ZambaAttention: no rotary) before their Mamba mixer: no layer encodes
 * positions. layers_block_type gives the layers (its length their number;
 * the class default, 3 layers then a period, is written out by to_dict).
 * transformers 5.23.0 models/zamba/configuration_zamba.py L60, L96-113;
 * modeling_zamba.py L114-170 (ZambaAttention, no rotary), L847-860. */
{.model_type = "zamba", .arch = "Zamba", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_ZAMBA, .flags = POSENC_FAMILY_LIST_COUNTS,
 .source = "models/zamba/configuration_zamba.py L60, L96-113; modeling_zamba.py L114-170, "
           "L847-860 (transformers 5.23.0)",
 .nonnull = "attn_layer_offset attn_layer_period hidden_size max_position_embeddings "
            "num_attention_heads num_hidden_layers",
 .nonnull_source = "configuration_zamba.py L64-84 (transformers 5.23.0)"},

/* ---- zamba2: as Zamba, but with use_mem_rope (default false) the shared
 * attention block of the hybrid layers rotates its q and k: rotate_half over
 * the whole head, head_dim = attention_head_dim = 2 * hidden_size // heads
 * (Zamba2Config.__post_init__ sets it over any key; the rotary reads
 * config.head_dim, mapped to it), base rope_theta (the mixin's 10000), the
 * rope block's scaling. use_long_context with it is refused: transformers
 * 5.23 warns of a rescaled rope_theta but keeps it. transformers 5.23.0
 * models/zamba2/configuration_zamba2.py L71, L96-140 (attribute_map,
 * __post_init__ L115-118); modeling_zamba2.py L91-134 (rotary), L183-210
 * (rotate_half), L296-307 (RoPE only with use_mem_rope), L1136-1141,
 * L1228-1240. */
{.model_type = "zamba2", .arch = "Zamba2", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_KINDS,
 .kinds = KINDS_ZAMBA2, .flags = POSENC_FAMILY_LIST_COUNTS, .quirks = &quirk_zamba2,
 .source = "models/zamba2/configuration_zamba2.py L71, L96-140; modeling_zamba2.py L91-134, "
           "L183-210, L296-307, L1136-1141, L1228-1240 (transformers 5.23.0)",
 .nonnull = "hidden_size max_position_embeddings num_attention_heads num_hidden_layers "
            "use_mem_rope",
 .nonnull_source = "configuration_zamba2.py L75-100 (transformers 5.23.0)"},

/* ---- zaya (ZAYA1): refused. Its CCA attention runs causal convolutions
 * over q/k (conv_qk_depthwise, conv_qk_grouped) before a partial RoPE
 * (factor 0.5) whose base comes from per-layer-type sets named "hybrid" and
 * "hybrid_sliding" (default 5e6 and 1e4). transformers 5.23.0
 * models/zaya/modeling_zaya.py L80-90, L143-235, L313-345, L352;
 * configuration_zaya.py L97-112. */
REFUSED("zaya", "Zaya", MIXED, HALF,
        "ZAYA's CCA attention (q/k causal convolutions before a partial RoPE, layer types "
        "hybrid / hybrid_sliding with their own RoPE sets) is not implemented",
        "models/zaya/modeling_zaya.py L80-90, L143-235, L313-345, L352 (transformers 5.23.0)"),
